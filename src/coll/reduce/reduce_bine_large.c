/*
 * Large Bine reduce: reduce-scatter on the distance-doubling Bine butterfly,
 * then a gather of the reduced blocks to the root along the distance-doubling
 * Bine tree run backwards (distance halving; phase_bine_dd.h).  The
 * reduce-scatter leaves block nu(j) at participant j and the gather puts
 * every block back at its own offset, so no reordering step is needed.  The
 * Bine counterpart of Rabenseifner's reduce.  Source: De Sensi et al., Bine
 * trees, section 4.4 (papers/bine-trees.txt), and Thakur, Rabenseifner and
 * Gropp 2005, section 4 (papers/mpich-collectives.txt); formulas in
 * ../shared/BINE.md.
 *
 * A non-power-of-two p is folded onto q = 2^floor(lg p) participants taken
 * relative to the root: among the first 2e relative ranks (e = p - q) each
 * odd one sends its whole input to the even one below it, which combines it
 * before the reduce-scatter; the root is always a participant.
 * Restrictions: commutative op.  Scratch: none at a root that is not in
 * place, about n/2 elements otherwise, plus the working vector (n) at
 * non-roots and n at an in-place root that is a fold partner.
 *
 * Cost, p a power of two: 2 lg p alpha + 2 ((p - 1) / p) n beta +
 * ((p - 1) / p) n gamma, the rounds and bytes per rank of reduce
 * rabenseifner (checked with vine dump).  Otherwise one more round:
 * alpha + n beta + n gamma for the fold.
 */
#include "../coll.h"
#include "../phase_bine.h"
#include "../phase_bine_dd.h"

int vine__reduce_bine_large_build(const vine_args *a, vine_sched *s)
{
    size_t n = a->count;
    int is_root = a->rank == a->root;
    vine_bine_dd t;
    vine__bine_dd_init(&t, s, a->p, a->rank, a->root, n);
    if (t.me < 0) {
        /* An extra rank (never the root) hands its input to its fold partner. */
        vine__sched_send(s, t.partner, VINE_BUF_SEND, 0, n);
        return vine__sched_finish(s);
    }
    /* The root works in its result; the others have no RECV and work in TMP[0, n).  The
     * butterfly's participants are the tree's (the pair fold keeps the root in). */
    vine_bfly b;
    vine__bfly_init(&b, s, a->p, a->rank, a->root, VINE_BFLY_FOLD_PAIR, n,
                    is_root && a->inplace ? VINE_BUF_RECV : VINE_BUF_SEND, 0,
                    is_root ? VINE_BUF_RECV : VINE_BUF_TMP, 0, is_root ? 0 : n);
    if (!is_root)
        vine__sched_need_tmp(s, n);
    if (t.partner >= 0) {
        vine__bfly_recv_reduce(&b, t.partner, 0, n);
        vine__sched_fence(s);
        vine__bfly_settle(&b);
    }
    vine__bfly_reduce_scatter(&b);
    vine__bine_dd_gather(&t, b.cur_buf, b.cur_off);
    /* Only p = 1 leaves the input where it was. */
    if (is_root && b.cur_buf != VINE_BUF_RECV)
        vine__sched_copy(s, b.cur_buf, b.cur_off, VINE_BUF_RECV, 0, n);
    return vine__sched_finish(s);
}
