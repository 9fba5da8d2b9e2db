/*
 * Bucket reduce-scatter (Jain and Sabharwal 2010; the Bine paper's section
 * 5.4, papers/bine-trees.txt): ring reduce-scatters along the dimensions of
 * the torus in turn (phase_torus.h), dimension 0 on the whole vector cut
 * into dims[0] parts by the ranks' coordinate 0, then dimension 1 on the
 * part kept, so rank r ends with block r.  The parts are contiguous when
 * the map places the ranks in torus order (a block map); otherwise the
 * blocks are first copied into torus order in scratch.  Any counts; also
 * serves reduce_scatter_block.  Without a torus it is the ring
 * reduce-scatter on p ranks.
 *
 * Restrictions: commutative op; the level map, if any, must make a torus.
 * Cost for equal counts, n the whole vector, dimensions D_d of size > 1,
 * n_d = n / (D_0 ... D_{d-1}): per dimension (D_d - 1) alpha + n_d (D_d -
 * 1)/D_d (beta + gamma); in all sum (D_d - 1) alpha + n (p - 1)/p (beta +
 * gamma).  Scratch: n/D_0 + n/(D_0 D_1) elements and a ring's two blocks,
 * plus n for the copy into torus order.
 */
#include "../coll.h"
#include "../phase_torus.h"

int vine__reduce_scatter_bucket_build(const vine_args *a, vine_sched *s)
{
    return vine__torus_reduce_scatter(a, s, vine__reduce_scatter_ring_build);
}
