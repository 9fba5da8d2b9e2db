/*
 * Van de Geijn broadcast with a ring allgather: a binomial scatter cuts the
 * buffer into p blocks and gives relative rank v its subtree's blocks, then
 * p - 1 ring steps circulate the blocks (at step i, v sends block v - i to
 * v + 1).  A block is not sent to a rank that already holds it from the
 * scatter; that rank forwards its own copy instead.  Source: Thakur,
 * Rabenseifner and Gropp 2005, section 4.3 (papers/mpich-collectives.txt).
 * No restrictions: any p, any root; blocks are empty when count < p.
 * Cost: (ceil(log2 p) + p - 1) alpha + 2 ((p - 1) / p) n beta at most.
 */
#include "../coll.h"
#include "../phase_tree.h"
#include "../ranks.h"

int vine__bcast_scatter_allgather_ring_build(const vine_args *a, vine_sched *s)
{
    int p = a->p, v = vine__mod(a->rank - a->root, p);
    int right = vine__mod(v + 1, p);
    vine__tree_scatter(s, p, a->rank, a->root, a->count);
    for (int i = 0; i < p - 1; i++) {
        int out = vine__mod(v - i, p), in = vine__mod(v - i - 1, p);
        if (!vine__tree_holds(p, right, out, out + 1))
            vine__blocks_msg(s, 1, vine__mod(a->rank + 1, p), a->count, p, out, out + 1);
        if (!vine__tree_holds(p, v, in, in + 1))
            vine__blocks_msg(s, 0, vine__mod(a->rank - 1, p), a->count, p, in, in + 1);
        vine__sched_fence(s);
    }
    return vine__sched_finish(s);
}
