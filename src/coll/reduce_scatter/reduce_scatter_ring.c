/*
 * Ring reduce-scatter: p - 1 neighbour steps, sending to rank + 1 and
 * receiving from rank - 1.  At step k rank r passes on its partial sum of
 * block (r - k - 1) mod p and adds its own input to the partial sum of block
 * (r - k - 2) mod p that arrives, so each block gathers the contributions of
 * all ranks along the ring and rank r ends with block r.  The partial sums
 * alternate between two scratch blocks.  Out of place the last message lands
 * in RECV; in place it lands in scratch after the two blocks and the complete
 * block is copied to RECV[0] at the end, so that the input past it in RECV
 * is only read, as MPI libraries leave it.
 * Source: Thakur, Rabenseifner and Gropp 2005, section 5.3, Fig. 17
 * (papers/mpich-collectives.txt).  Restrictions: commutative op; any counts.
 * Cost: (p - 1) alpha + n (p - 1)/p beta + n (p - 1)/p gamma for equal counts
 * (n the whole vector); with unequal counts each step costs its largest block.
 */
#include "../coll.h"
#include "../phase_ring.h"

int vine__reduce_scatter_ring_build(const vine_args *a, vine_sched *s)
{
    int p = a->p, r = a->rank;
    size_t mine = a->counts[r];
    if (p == 1) {
        if (!a->inplace)
            vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_RECV, 0, mine);
        return vine__sched_finish(s);
    }
    vine__blocks b = {p, a->displs[p], a->displs};
    vine__ring_rs rs = {
        .blocks = b,
        .in_buf = a->inplace ? VINE_BUF_RECV : VINE_BUF_SEND,
        .acc = VINE__RING_ACC_SLOTS,
        .acc_buf = VINE_BUF_TMP,
        .fin_buf = a->inplace ? VINE_BUF_TMP : VINE_BUF_RECV,
        /* In place: after the partial sums' slots (p - 2 steps use them, at most two). */
        .fin_off = a->inplace ? (size_t)(p > 3 ? 2 : p - 2) * vine__blocks_max(&b) : 0,
    };
    vine__ring_reduce_scatter(s, r, &rs);
    /* In place the input block r may overlap RECV[0, mine), hence the detour. */
    if (a->inplace) {
        vine__sched_need_tmp(s, rs.fin_off + mine);
        vine__sched_copy(s, VINE_BUF_TMP, rs.fin_off, VINE_BUF_RECV, 0, mine);
    }
    return vine__sched_finish(s);
}
