/*
 * Bucket allreduce (Jain and Sabharwal 2010, the torus algorithm the Bine
 * paper compares against in section 5.4, papers/bine-trees.txt): a ring
 * reduce-scatter along dimension 0 of the torus on the whole vector cut
 * into dims[0] parts, then along dimension 1 on the part kept, and so on;
 * then ring allgathers in the reverse order (phase_torus.h).  Every message
 * goes to a neighbour along one dimension.  The vector is cut evenly into p
 * blocks in torus order; the rank of torus index i ends the reduce-scatter
 * with block i.  Without a torus (no level map, or a flat one) it is the
 * ring allreduce on p ranks.
 *
 * Restrictions: commutative op; the level map, if any, must make a torus
 * (groups of one size at every level).  Cost, n = count, dimensions D_d of
 * size > 1, n_d = n / (D_0 ... D_{d-1}) the range of stage d: per dimension
 * 2 (D_d - 1) alpha + 2 n_d (D_d - 1)/D_d beta + n_d (D_d - 1)/D_d gamma, so
 * 2 sum (D_d - 1) alpha + 2 n (p - 1)/p beta + n (p - 1)/p gamma in all: the
 * ring's bandwidth with sum (D_d - 1) steps each way instead of p - 1.
 * Scratch: n/D_0 + n/(D_0 D_1) elements plus a ring's block.
 */
#include "../coll.h"
#include "../phase_torus.h"

int vine__allreduce_bucket_build(const vine_args *a, vine_sched *s)
{
    return vine__torus_allreduce(a, s, vine__reduce_scatter_ring_build,
                                 vine__allgatherv_ring_build);
}
