/*
 * Reduce-scatter by recursive vector halving and distance halving.
 *
 * A non-power-of-two p is folded onto p' = 2^floor(lg p) participants with
 * the halved fold of phase_hd.h; participant i owns the result blocks of the
 * ranks it stands for (ranks 2i and 2i + 1, or i + p - p').  In each of the
 * lg p' steps a participant sends the half of its current block range that
 * its partner keeps and reduces the half it keeps, so it ends with its own
 * blocks reduced over all ranks; the odd rank of each folded pair then sends
 * the even rank its block.  Irregular counts are fine (the halves follow the
 * participants' block boundaries, so they may be unequal).  Source: Thakur,
 * Rabenseifner and Gropp 2005, section 4.4 (papers/mpich-collectives.txt).
 * Restrictions: commutative op.  Cost for power-of-two p and equal counts:
 * lg p alpha + ((p-1)/p) n (beta + gamma), n the total count; otherwise
 * 3 alpha + (1 + 1/p) n beta + n/2 gamma more.  Scratch: n elements plus the
 * largest half received (n/2 for equal counts).
 */
#include "../coll.h"
#include "../phase_hd.h"

int vine__reduce_scatter_recursive_halving_build(const vine_args *a, vine_sched *s)
{
    size_t total = a->displs[a->p], mine = a->counts[a->rank];
    int in_buf = a->inplace ? VINE_BUF_RECV : VINE_BUF_SEND;
    vine_hd h;
    /* RECV may hold only this rank's block, so the vector is reduced in TMP[0, total). */
    vine__hd_init(&h, s, a, total, in_buf, 0, VINE_BUF_TMP, 0, total);
    h.displs = a->displs;
    if (a->p == 1) {
        if (!a->inplace)
            vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_RECV, 0, mine);
        return vine__sched_finish(s);
    }
    vine__sched_need_tmp(s, total);
    vine__hd_fold_in(&h, a->p, a->rank);
    if (h.me >= 0) {
        vine__hd_reduce_scatter(&h);
        vine__sched_copy(s, VINE_BUF_TMP, a->displs[a->rank], VINE_BUF_RECV, 0, mine);
        vine__sched_fence(s);
    }
    int even = a->rank & ~1;
    vine__hd_fold_out(&h, a->p, a->rank, a->displs[even], a->counts[even], VINE_BUF_RECV, 0);
    return vine__sched_finish(s);
}
