/*
 * Linear gather: every non-root sends its input to the root, which posts all
 * p - 1 receives in one round, straight into their places in RECV, peers in
 * rank-rotated order starting after the root, and copies its own block
 * unless it is already in place.  Source: the trivial baseline of Thakur,
 * Rabenseifner and Gropp 2005 (papers/mpich-collectives.txt).  No
 * restrictions: any p, any root.  Cost: (p - 1)(alpha + count beta) at the
 * root; no scratch.
 */
#include "../coll.h"
#include "../ranks.h"

int vine__gather_linear_build(const vine_args *a, vine_sched *s)
{
    int p = a->p, root = a->root;
    size_t c = a->count;
    if (a->rank != root) {
        vine__sched_send(s, root, VINE_BUF_SEND, 0, c);
        return vine__sched_finish(s);
    }
    for (int i = 1; i < p; i++) {
        int peer = vine__mod((long)root + i, p);
        vine__sched_recv(s, peer, VINE_BUF_RECV, (size_t)peer * c, c);
    }
    if (!a->inplace)
        vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_RECV, (size_t)root * c, c);
    return vine__sched_finish(s);
}
