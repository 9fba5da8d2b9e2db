/*
 * Binomial-tree broadcast, distance halving (MPICH's short-message bcast).
 *
 * With ranks relative to the root, rank v receives from v - 2^k, where 2^k is
 * the lowest set bit of v, and then sends to v + 2^j for each 2^j < 2^k, the
 * largest distance first.  Source: Thakur, Rabenseifner and Gropp 2005,
 * section 4.3 (papers/mpich-collectives.txt).  No restrictions: any p, any
 * root.  Cost: ceil(log2 p) (alpha + n beta).
 */
#include "../coll.h"
#include "../phase_tree.h"

int vine__bcast_binomial_build(const vine_args *a, vine_sched *s)
{
    vine__tree_bcast(s, a->p, a->rank, a->root, VINE_BUF_RECV, 0, a->count);
    return vine__sched_finish(s);
}
