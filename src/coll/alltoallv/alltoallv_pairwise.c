/*
 * Pairwise-exchange alltoallv (and alltoallw, the same layout on bytes): p - 1
 * rounds with at most one send and one receive each, every message straight
 * from its block of SEND into its block of RECV.  When p is a power of two,
 * step k pairs the rank with rank XOR k, so each round is a perfect matching;
 * otherwise step k sends to rank + k and receives from rank - k (mod p).
 * Empty blocks send nothing (both ends see the same count and drop the
 * message); the own block is a local copy.  Source: MPICH's pairwise
 * alltoall (Thakur, Rabenseifner and Gropp 2005, section 4.4,
 * papers/mpich-collectives.txt) on the blocks of the v tables.  No
 * restrictions; no scratch.  Cost: (p - 1) alpha + the sum over the steps
 * of the step's larger message beta (at most the rank's bytes sent and
 * received).
 */
#include "../coll.h"
#include "../ranks.h"

int vine__alltoallv_pairwise_build(const vine_args *a, vine_sched *s)
{
    int p = a->p, r = a->rank, pow2 = vine__is_pow2(p);
    const size_t *sc = vine__args_row(a, a->scounts, r), *sd = vine__args_row(a, a->sdispls, r);
    const size_t *rc = vine__args_row(a, a->rcounts, r), *rd = vine__args_row(a, a->rdispls, r);
    for (int k = 1; k < p; k++) {
        int to = pow2 ? r ^ k : vine__mod((long)r + k, p);
        int from = pow2 ? to : vine__mod((long)r - k, p);
        vine__sched_recv(s, from, VINE_BUF_RECV, rd[from], rc[from]);
        vine__sched_send(s, to, VINE_BUF_SEND, sd[to], sc[to]);
        /* The own block joins the first round: its messages never touch block r. */
        if (k == 1)
            vine__sched_copy(s, VINE_BUF_SEND, sd[r], VINE_BUF_RECV, rd[r], sc[r]);
        vine__sched_fence(s);
    }
    if (p == 1)
        vine__sched_copy(s, VINE_BUF_SEND, sd[0], VINE_BUF_RECV, rd[0], sc[0]);
    return vine__sched_finish(s);
}
