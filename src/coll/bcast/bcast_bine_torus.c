/*
 * Bine broadcast on a torus (De Sensi et al., Bine trees, section 5.4,
 * papers/bine-trees.txt): the distance-halving Bine tree (bcast bine) along
 * each dimension of the torus in turn, on the dimension's coordinates
 * (phase_torus.h): the root's line along dimension 0 first, then every
 * line along dimension 1 through a rank that has the vector, and so on, so
 * every message travels along one dimension.  Without a torus it is bcast
 * bine on p ranks.
 *
 * Restrictions: the level map, if any, must make a torus.  Cost, n =
 * count, dimensions D_d of size > 1: sum ceil(lg D_d) (alpha + n beta),
 * about ceil(lg p) steps as on the flat Bine tree.  No scratch.
 */
#include "../coll.h"
#include "../phase_torus.h"

int vine__bcast_bine_torus_build(const vine_args *a, vine_sched *s)
{
    return vine__torus_bcast(a, s, vine__bcast_bine_build);
}
