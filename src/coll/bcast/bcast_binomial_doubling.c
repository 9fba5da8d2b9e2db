/*
 * Binomial-tree broadcast, distance doubling (Open MPI's binomial bcast
 * shape).  With ranks relative to the root, at step k every rank v < 2^k
 * holds the data and sends it to v + 2^k; so rank v receives from v minus its
 * highest set bit, then sends to v + 2^j for each 2^j > v.  Source: Thakur,
 * Rabenseifner and Gropp 2005, section 4.3 (papers/mpich-collectives.txt),
 * the same tree walked in the opposite order.  No restrictions: any p, any
 * root.  Cost: ceil(log2 p) (alpha + n beta).
 */
#include "../coll.h"
#include "../ranks.h"

int vine__bcast_binomial_doubling_build(const vine_args *a, vine_sched *s)
{
    int p = a->p, v = vine__mod(a->rank - a->root, p);
    int mask = 1;
    /* The first step at which v holds the data: 2^k > v. */
    while (mask <= v)
        mask <<= 1;
    if (v > 0) {
        vine__sched_recv(s, vine__mod(a->rank - mask / 2, p), VINE_BUF_RECV, 0, a->count);
        vine__sched_fence(s);
    }
    for (; mask < p; mask <<= 1) {
        if (v + mask < p) {
            vine__sched_send(s, vine__mod(a->rank + mask, p), VINE_BUF_RECV, 0, a->count);
            vine__sched_fence(s);
        }
    }
    return vine__sched_finish(s);
}
