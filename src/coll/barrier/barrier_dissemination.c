/*
 * Dissemination barrier: in round k every rank sends a zero-byte message to
 * rank + 2^k and receives one from rank - 2^k (mod p).  After round k a rank
 * has heard, directly or through others, from the 2^(k+1) ranks at or below
 * it (mod p), so after ceil(log2 p) rounds it has heard from all p: none
 * leaves before every rank has entered.  Source: Hensgen, Finkel and Manber
 * 1988, the algorithm of MPICH's MPI_Barrier.  No restrictions: any p;
 * p = 1 does nothing.  Cost: ceil(log2 p) alpha.
 */
#include "../coll.h"
#include "../ranks.h"

int vine__barrier_dissemination_build(const vine_args *a, vine_sched *s)
{
    int p = a->p, r = a->rank;
    /* The step to p ends the loop without overflowing dist when p is near INT_MAX. */
    for (int dist = 1; dist < p; dist = dist <= p / 2 ? 2 * dist : p) {
        vine__sched_sync_send(s, vine__mod((long)r + dist, p));
        vine__sched_sync_recv(s, vine__mod((long)r - dist, p));
        vine__sched_fence(s);
    }
    return vine__sched_finish(s);
}
