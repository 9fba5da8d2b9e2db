/*
 * Bine reduce on a torus (De Sensi et al., Bine trees, section 5.4,
 * papers/bine-trees.txt): the mirrored distance-halving Bine tree (reduce
 * bine) along each dimension of the torus in turn, the last dimension
 * first (phase_torus.h): every line along dimension nd-1 reduces to its
 * rank at the root's coordinate, those ranks' lines along dimension nd-2
 * reduce on, and so on up to the root's line along dimension 0.  Without a
 * torus it is reduce bine on p ranks.
 *
 * Restrictions: commutative op (the stages combine the ranks out of rank
 * order); the level map, if any, must make a torus.  Cost, n = count,
 * dimensions D_d of size > 1: sum ceil(lg D_d) (alpha + n beta + n gamma).
 * Scratch: n elements at ranks other than the root that reduce a line,
 * plus the Bine tree's own.
 */
#include "../coll.h"
#include "../phase_torus.h"

int vine__reduce_bine_torus_build(const vine_args *a, vine_sched *s)
{
    return vine__torus_reduce(a, s, vine__reduce_bine_build);
}
