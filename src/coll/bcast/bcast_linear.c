/*
 * Linear broadcast: the root sends the whole buffer to every other rank, all
 * messages in one round, peers in rank-rotated order starting after the root
 * (root + 1, root + 2, ...) so that concurrent broadcasts from different
 * roots do not all start on the same rank.  Source: the trivial baseline of
 * Thakur, Rabenseifner and Gropp 2005 (papers/mpich-collectives.txt).  No
 * restrictions: any p, any root.  Cost: (p - 1)(alpha + n beta) at the root.
 */
#include "../coll.h"
#include "../ranks.h"

int vine__bcast_linear_build(const vine_args *a, vine_sched *s)
{
    int p = a->p;
    if (a->rank != a->root) {
        vine__sched_recv(s, a->root, VINE_BUF_RECV, 0, a->count);
        return vine__sched_finish(s);
    }
    for (int i = 1; i < p; i++)
        vine__sched_send(s, vine__mod(a->root + i, p), VINE_BUF_RECV, 0, a->count);
    return vine__sched_finish(s);
}
