/*
 * Pairwise-exchange alltoall: p - 1 rounds with one send and one receive
 * each, every message straight between SEND and its place in RECV.  When p is
 * a power of two, step k pairs the rank with rank XOR k, so each round is a
 * perfect matching; otherwise step k sends to rank + k and receives from
 * rank - k (mod p).  The own block is a local copy.  Source: MPICH's
 * long-message alltoall, Thakur, Rabenseifner and Gropp 2005, section 4.4
 * (papers/mpich-collectives.txt).  No restrictions; no scratch.
 * Cost: (p - 1) alpha + n (p - 1)/p beta (n = p * count, the send buffer).
 */
#include "../coll.h"
#include "../ranks.h"

int vine__alltoall_pairwise_build(const vine_args *a, vine_sched *s)
{
    int p = a->p, r = a->rank, pow2 = vine__is_pow2(p);
    size_t c = a->count;
    for (int k = 1; k < p; k++) {
        int to = pow2 ? r ^ k : vine__mod((long)r + k, p);
        int from = pow2 ? to : vine__mod((long)r - k, p);
        vine__sched_recv(s, from, VINE_BUF_RECV, (size_t)from * c, c);
        vine__sched_send(s, to, VINE_BUF_SEND, (size_t)to * c, c);
        /* The own block joins the first round: its messages never touch block r. */
        if (k == 1)
            vine__sched_copy(s, VINE_BUF_SEND, (size_t)r * c, VINE_BUF_RECV, (size_t)r * c, c);
        vine__sched_fence(s);
    }
    if (p == 1)
        vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_RECV, 0, c);
    return vine__sched_finish(s);
}
