/*
 * Ring allreduce: a ring reduce-scatter over p nearly equal blocks, after
 * which rank r holds the complete block r, then a ring allgather of those
 * blocks.  Each block is summed once, along one chain of ranks, and then only
 * copied, so every rank ends with bitwise identical results.  Out of place the
 * partial sums accumulate in RECV with no scratch; in place they overwrite the
 * input blocks and messages land in a scratch block of ceil(n/p) elements.
 * Source: Thakur, Rabenseifner and Gropp 2005, section 5.3, Fig. 17
 * (papers/mpich-collectives.txt).  Restrictions: commutative op.
 * Cost: 2 (p - 1) alpha + 2 n (p - 1)/p beta + n (p - 1)/p gamma.
 */
#include "../coll.h"
#include "../phase_ring.h"

int vine__allreduce_ring_build(const vine_args *a, vine_sched *s)
{
    vine__blocks b = {a->p, a->count, NULL};
    if (a->p == 1) {
        if (!a->inplace)
            vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_RECV, 0, a->count);
        return vine__sched_finish(s);
    }
    vine__ring_reduce_scatter_vector(s, a->p, a->rank, a->count, a->inplace);
    /* The allgather sends the block the last reduction completed. */
    vine__sched_fence(s);
    vine__ring_allgather(s, a->rank, &b, VINE_BUF_RECV, VINE_BUF_RECV,
                         vine__blocks_off(&b, a->rank));
    return vine__sched_finish(s);
}
