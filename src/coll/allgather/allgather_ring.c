/*
 * Ring allgather: in p - 1 steps every rank sends to rank + 1 the block it
 * received in the previous step (its own block first) and receives the next
 * one from rank - 1, directly into its place in RECV.
 * Source: Thakur, Rabenseifner and Gropp 2005, section 4.2
 * (papers/mpich-collectives.txt).  No restrictions.
 * Cost: (p - 1) alpha + n (p - 1)/p beta, n = p * count.
 */
#include "../coll.h"
#include "../phase_ring.h"

int vine__allgather_ring_build(const vine_args *a, vine_sched *s)
{
    vine__blocks b = {a->p, (size_t)a->p * a->count, NULL};
    size_t own = vine__blocks_off(&b, a->rank);
    /* The copy runs after the first round's messages, which do not touch block rank. */
    if (!a->inplace)
        vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_RECV, own, a->count);
    vine__ring_allgather(s, a->rank, &b, VINE_BUF_RECV, a->inplace ? VINE_BUF_RECV : VINE_BUF_SEND,
                         a->inplace ? own : 0);
    return vine__sched_finish(s);
}
