/*
 * Pairwise-exchange reduce-scatter: in step i = 1 .. p - 1 each rank sends its
 * input block for rank (rank + i) mod p to that rank, receives the
 * contribution of rank (rank - i) mod p to its own block and adds it to its
 * running sum.  Out of place the sum lives in RECV (the first message lands
 * there); in place it lives in scratch, the later messages landing beside
 * it, and is copied to RECV[0] after the last step, so that the input past
 * it in RECV is only read, as MPI libraries leave it.
 * Source: Thakur, Rabenseifner and Gropp 2005, sections 4.4 and 5.3, Fig. 13
 * (papers/mpich-collectives.txt).  Restrictions: commutative op; any counts.
 * Cost: (p - 1) alpha + n (p - 1)/p beta + n (p - 1)/p gamma for equal counts
 * (n the whole vector).
 */
#include "../coll.h"
#include "../ranks.h"

/* Step i: the messages and the reduction that consumes the one received. */
static void pairwise_step(const vine_args *a, vine_sched *s, int i)
{
    int p = a->p, r = a->rank, to = vine__mod(r + i, p), from = vine__mod(r - i, p);
    int in = a->inplace ? VINE_BUF_RECV : VINE_BUF_SEND;
    /* The running sum: RECV[0] out of place, TMP[0] in place, the later messages in TMP. */
    int sum = a->inplace ? VINE_BUF_TMP : VINE_BUF_RECV;
    size_t mine = a->counts[r], own = a->displs[r], land = a->inplace ? mine : 0;
    vine__sched_send(s, to, in, a->displs[to], a->counts[to]);
    if (i == 1) {
        vine__sched_recv(s, from, sum, 0, mine);
        vine__sched_reduce(s, in, own, sum, 0, mine, VINE_SRC_LEFT);
    } else {
        vine__sched_recv(s, from, VINE_BUF_TMP, land, mine);
        vine__sched_reduce(s, VINE_BUF_TMP, land, sum, 0, mine, VINE_SRC_LEFT);
    }
    vine__sched_fence(s);
}

int vine__reduce_scatter_pairwise_build(const vine_args *a, vine_sched *s)
{
    size_t mine = a->counts[a->rank];
    if (a->p == 1) {
        if (!a->inplace)
            vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_RECV, 0, mine);
        return vine__sched_finish(s);
    }
    /* The first message needs no scratch out of place, so p = 2 needs none there. */
    if (a->inplace)
        vine__sched_need_tmp(s, (a->p > 2 ? 2 : 1) * mine);
    else if (a->p > 2)
        vine__sched_need_tmp(s, mine);
    for (int i = 1; i < a->p; i++)
        pairwise_step(a, s, i);
    if (a->inplace)
        vine__sched_copy(s, VINE_BUF_TMP, 0, VINE_BUF_RECV, 0, mine);
    return vine__sched_finish(s);
}
