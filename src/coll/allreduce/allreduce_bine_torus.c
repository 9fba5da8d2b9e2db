/*
 * Bine allreduce on a torus (De Sensi et al., Bine trees, section 5.4,
 * papers/bine-trees.txt): the ranks are points of the torus (torus.h) and
 * the Bine butterfly runs along each dimension in turn, on the dimension's
 * coordinates: a Bine reduce-scatter along dimension 0 on the whole vector
 * cut into dims[0] parts, then along dimension 1 on the part kept, ...;
 * then Bine allgathers in the reverse order (phase_torus.h).  On a line of
 * 2^k ranks the butterflies are those of allreduce bine_large (phase_bine.h:
 * the rank keeps part nu(coordinate), every message one contiguous range);
 * on other lines reduce_scatter and allgatherv bine_block.  Partners at Bine
 * distances 1, 1, 3, 5, 11 ... along one dimension stay close in the torus.
 * The vector is cut evenly into p blocks in torus order.  Without a torus
 * it is the Bine reduce-scatter + allgather on p ranks.  The multiport form
 * (the vector in 2D parts, one per direction) is not this algorithm.
 *
 * Restrictions: commutative op; the level map, if any, must make a torus.
 * Cost, n = count, dimensions D_d of size > 1, n_d = n / (D_0 ... D_{d-1}):
 * per dimension 2 ceil(lg D_d) rounds (2 more for odd D_d, whose last rank
 * folds), about 3 D_d / 4 messages of alpha per phase, 2 n_d (D_d - 1)/D_d
 * beta + n_d (D_d - 1)/D_d gamma (n_d more beta at the folded ranks of odd
 * D_d); in all 2 n (p - 1)/p beta for a torus of even dimensions.  Scratch:
 * n + n/D_0 + n/(D_0 D_1) elements.
 */
#include "../coll.h"
#include "../phase_torus.h"

int vine__allreduce_bine_torus_build(const vine_args *a, vine_sched *s)
{
    return vine__torus_allreduce_bine(a, s);
}
