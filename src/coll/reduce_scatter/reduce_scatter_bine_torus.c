/*
 * Bine reduce-scatter on a torus (De Sensi et al., Bine trees, section 5.4,
 * papers/bine-trees.txt): the block-by-block Bine butterfly
 * (reduce_scatter bine_block) along each dimension of the torus in turn,
 * on the dimension's coordinates (phase_torus.h): dimension 0 on the whole
 * vector cut into dims[0] parts by the ranks' coordinate 0, then dimension
 * 1 on the part kept, so rank r ends with block r.  Blocks are copied into
 * torus order in scratch first when the map does not place the ranks in
 * that order.  Any counts; also serves reduce_scatter_block.  Without a
 * torus it is reduce_scatter bine_block on p ranks.
 *
 * Restrictions: commutative op; the level map, if any, must make a torus.
 * Cost for equal counts, n the whole vector, dimensions D_d of size > 1,
 * n_d = n / (D_0 ... D_{d-1}): per dimension ceil(lg D_d) rounds (2 more
 * for odd D_d), about 3 D_d / 4 messages of alpha, n_d (D_d - 1)/D_d (beta
 * + gamma) (n_d more beta at the folded ranks of odd D_d).  Scratch: n +
 * n/D_0 + n/(D_0 D_1) elements, plus n for the copy into torus order.
 */
#include "../coll.h"
#include "../phase_torus.h"

int vine__reduce_scatter_bine_torus_build(const vine_args *a, vine_sched *s)
{
    return vine__torus_reduce_scatter(a, s, vine__reduce_scatter_bine_block_build);
}
