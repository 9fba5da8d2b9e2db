/*
 * Shared-memory barrier: flags only.  Arrival climbs a tree of fan-in
 * VINE_SHM_RADIX (the children of rank r are r R + 1 ... r R + R): a rank
 * WAITs for each child (for 0, "entered", when the child is a leaf, else for
 * its SET 1), then SETs 1 itself; rank 0's SET 1 means that every rank has
 * entered and is the release that all others WAIT for.  The gather/release
 * scheme of MPICH's and Open MPI's shared-memory barriers, on single-writer
 * flags.  Restrictions: all ranks on one node segment (VINE_ALGO_SHM); any p.
 * Cost: ceil(log_R p) + 1 flag hand-offs; rank 0 polls R flags, every other
 * rank at most R + 1; no data moves.
 */
#include "../coll.h"

#include "shm_common.h"

static int has_children(long r, int p)
{
    return r * VINE_SHM_RADIX + 1 < p;
}

int vine__barrier_shm_build(const vine_args *a, vine_sched *s)
{
    int p = a->p, r = a->rank;
    long first = (long)r * VINE_SHM_RADIX + 1;
    vine__sched_shm(s);
    if (p == 1)
        return vine__sched_finish(s);
    for (long c = first; c < p && c < first + VINE_SHM_RADIX; c++)
        vine__sched_wait(s, (int)c, has_children(c, p) ? 1 : 0);
    if (r == 0 || has_children(r, p))
        vine__sched_set(s, 1);
    if (r != 0)
        vine__sched_wait(s, 0, 1);
    return vine__sched_finish(s);
}
