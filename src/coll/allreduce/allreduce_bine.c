/*
 * Allreduce on the Bine butterfly, whole vector (the latency-optimal form).
 *
 * Recursive doubling with Bine partners: at step s = 0 .. lg p' - 1 every
 * participant swaps its whole partial vector with pi(me, s) and combines the
 * two.  The partners of the distance-doubling Bine butterfly pair the
 * participants like the bits of recursive doubling do (each step joins two
 * disjoint sets of 2^s participants into one), so after lg p' steps all hold
 * the full reduction, but at distances |rho(s)| = 1, 1, 3, 5, 11, ... instead
 * of 1, 2, 4, 8, ..., which keeps more traffic inside groups of nearby ranks.
 * A non-power-of-two p is folded onto p' = 2^floor(lg p) participants with
 * the halved MPICH fold (vine__hd_fold_in) and the ranks that folded away
 * get the result at the end.  Source: De Sensi et al., Bine trees, sections
 * 3.1 and 4.4 (papers/bine-trees.txt); ../shared/BINE.md.  Restrictions:
 * commutative op (the butterfly mixes operand order).  Cost for power-of-two
 * p: lg p (alpha + n beta + n gamma), the rounds and bytes of recursive
 * doubling (checked with `vine dump`); otherwise
 * (lg p' + 3) alpha + (lg p' + 2) n beta + (lg p' + 1/2) n gamma.  Scratch: n.
 */
#include "../bine.h"
#include "../coll.h"
#include "../phase_bine.h"
#include "../ranks.h"

int vine__allreduce_bine_build(const vine_args *a, vine_sched *s)
{
    size_t n = a->count;
    vine_bfly b;
    vine__bfly_init(&b, s, a->p, a->rank, 0, VINE_BFLY_FOLD_MPICH, n,
                    a->inplace ? VINE_BUF_RECV : VINE_BUF_SEND, 0, VINE_BUF_RECV, 0, 0);
    vine__bfly_fold_in(&b, a);
    if (b.me >= 0) {
        for (int st = 0; st < vine__ceil_log2(b.q); st++) {
            int peer = vine__bfly_real(&b, vine__bine_pi(b.me, st, b.q));
            vine__sched_send(s, peer, b.cur_buf, b.cur_off, n);
            vine__bfly_recv_reduce(&b, peer, 0, n);
            vine__sched_fence(s);
            vine__bfly_settle(&b);
        }
        /* Only p = 1 leaves the input where it was. */
        if (b.cur_buf != VINE_BUF_RECV)
            vine__sched_copy(s, b.cur_buf, b.cur_off, VINE_BUF_RECV, 0, n);
    }
    vine__bfly_fold_out(&b, 0, n, VINE_BUF_RECV, 0);
    return vine__sched_finish(s);
}
