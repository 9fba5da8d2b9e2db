/*
 * Linear (isend-irecv) alltoall: one round in which every rank posts all its
 * p - 1 receives, each straight into its place in RECV, and all its p - 1
 * sends, each straight from its block of SEND.  Step i of the posting order
 * sends to rank + i and receives from rank - i (mod p), so at any moment the
 * ranks target different peers instead of all starting on rank 0; the own
 * block is a local copy.  Source: MPICH's medium-message alltoall, Thakur,
 * Rabenseifner and Gropp 2005, section 4.4 (papers/mpich-collectives.txt).
 * No restrictions; no scratch.  Cost: (p - 1) alpha + n (p - 1)/p beta with
 * all messages in flight at once (n = p * count, the send buffer).
 */
#include "../coll.h"
#include "../ranks.h"

int vine__alltoall_linear_build(const vine_args *a, vine_sched *s)
{
    int p = a->p, r = a->rank;
    size_t c = a->count;
    for (int i = 1; i < p; i++) {
        int to = vine__mod((long)r + i, p), from = vine__mod((long)r - i, p);
        vine__sched_recv(s, from, VINE_BUF_RECV, (size_t)from * c, c);
        vine__sched_send(s, to, VINE_BUF_SEND, (size_t)to * c, c);
    }
    /* Copies run after the round's messages, which never touch block r. */
    vine__sched_copy(s, VINE_BUF_SEND, (size_t)r * c, VINE_BUF_RECV, (size_t)r * c, c);
    return vine__sched_finish(s);
}
