/*
 * Scattered (linear) alltoallv, and alltoallw on bytes: the p - 1 peers are
 * taken in rounds of at most VINE_ALLTOALLV_PEERS (32); in each round the
 * rank posts all its receives and sends together, every message straight
 * from its block of SEND into its block of RECV.  Step i sends to rank + i
 * and receives from rank - i (mod p), so each message is received in the same
 * step, and round, as it is sent, and at any moment the ranks target
 * different peers instead of all starting on rank 0; bounding the requests in
 * flight keeps a large communicator from flooding the network.  Empty blocks
 * send nothing; the own block is a local copy in the first round.  Source:
 * MPICH's scattered alltoallv (MPIR_Alltoallv_intra_scattered, its "bblock"
 * loop), after Thakur, Rabenseifner and Gropp 2005, section 4.4
 * (papers/mpich-collectives.txt).  No restrictions; no scratch.  Cost:
 * ceil((p - 1)/32) rounds, (p - 1) alpha + the rank's bytes sent and received
 * beta, up to 32 messages each way in flight.
 */
#include "../coll.h"
#include "../ranks.h"

/* Peers per round (MPICH's bblock, MPIR_CVAR_ALLTOALL_THROTTLE). */
#define VINE_ALLTOALLV_PEERS 32

int vine__alltoallv_linear_build(const vine_args *a, vine_sched *s)
{
    int p = a->p, r = a->rank;
    const size_t *sc = vine__args_row(a, a->scounts, r), *sd = vine__args_row(a, a->sdispls, r);
    const size_t *rc = vine__args_row(a, a->rcounts, r), *rd = vine__args_row(a, a->rdispls, r);
    for (int i = 1; i < p; i++) {
        int to = vine__mod((long)r + i, p), from = vine__mod((long)r - i, p);
        vine__sched_recv(s, from, VINE_BUF_RECV, rd[from], rc[from]);
        vine__sched_send(s, to, VINE_BUF_SEND, sd[to], sc[to]);
        /* The own block joins the first round: its messages never touch block r. */
        if (i == 1)
            vine__sched_copy(s, VINE_BUF_SEND, sd[r], VINE_BUF_RECV, rd[r], sc[r]);
        if (i % VINE_ALLTOALLV_PEERS == 0)
            vine__sched_fence(s);
    }
    if (p == 1)
        vine__sched_copy(s, VINE_BUF_SEND, sd[0], VINE_BUF_RECV, rd[0], sc[0]);
    return vine__sched_finish(s);
}
