/*
 * Bucket allgather (Jain and Sabharwal 2010; the Bine paper's section 5.4,
 * papers/bine-trees.txt): ring allgathers along the dimensions of the torus
 * in the reverse order of the bucket reduce-scatter (phase_torus.h): along
 * the last dimension each rank's line gathers its dims[nd-1] blocks, then
 * along the dimension before it the lines exchange those runs, and so on
 * up to dimension 0.  When the map places the ranks in torus order (a block
 * map) every run is contiguous in RECV; otherwise the vector is gathered in
 * torus order in scratch and copied into rank order at the end.  Without a
 * torus it is the ring allgather on p ranks.
 *
 * Restrictions: the level map, if any, must make a torus.  Cost, n = p *
 * count, dimensions D_d of size > 1: per dimension (D_d - 1) alpha + n
 * (D_d - 1)/(D_0 ... D_d) beta; in all sum (D_d - 1) alpha + n (p - 1)/p
 * beta.  Scratch: n elements out of torus order, none otherwise.
 */
#include "../coll.h"
#include "../phase_torus.h"

int vine__allgather_bucket_build(const vine_args *a, vine_sched *s)
{
    return vine__torus_allgather(a, s, vine__allgatherv_ring_build);
}
