/*
 * Rabenseifner's allreduce: recursive-halving reduce-scatter followed by a
 * recursive-doubling allgather.
 *
 * A non-power-of-two p is folded onto p' = 2^floor(lg p) participants with
 * the halved fold (the even rank of each of the first 2(p - p') ranks reduces
 * one half and sits out).  The participants reduce-scatter the vector by
 * vector halving and distance doubling (the nearest partner first, with the
 * largest half), so participant i ends with block bitrev(i) of p' near-equal
 * blocks, gather all blocks back by vector doubling and distance halving (the
 * largest pieces again between the nearest partners), and the ranks that
 * folded away receive the result.  The order is MPICH's; the far-first order
 * of the paper's figure sent the largest pieces across a Dragonfly's global
 * links and ran 5.5x slower there under SimGrid.  Source: Thakur, Rabenseifner
 * and Gropp 2005, section 5.1 and Fig. 15 (papers/mpich-collectives.txt).  Restrictions: commutative op.  Any count:
 * blocks may be empty when count < p'.  Cost for power-of-two p:
 * 2 lg p alpha + 2 ((p-1)/p) n beta + ((p-1)/p) n gamma; otherwise
 * (3 + 2 lg p') alpha + 4 n beta + (3/2) n gamma.
 */
#include "../coll.h"
#include "../phase_hd.h"

int vine__allreduce_rabenseifner_build(const vine_args *a, vine_sched *s)
{
    size_t n = a->count;
    vine_hd h;
    vine__hd_init(&h, s, a, n, a->inplace ? VINE_BUF_RECV : VINE_BUF_SEND, 0, VINE_BUF_RECV, 0, 0);
    vine__hd_fold_in(&h, a->p, a->rank);
    if (h.me >= 0) {
        vine__hd_reduce_scatter_near(&h);
        vine__hd_allgather_near(&h);
        /* Only p = 1 leaves the input where it was. */
        if (h.cur_buf != VINE_BUF_RECV)
            vine__sched_copy(s, h.cur_buf, h.cur_off, VINE_BUF_RECV, 0, n);
    }
    vine__hd_fold_out(&h, a->p, a->rank, 0, n, VINE_BUF_RECV, 0);
    return vine__sched_finish(s);
}
