/*
 * Multiport Bine reduce-scatter on a torus (the Bine paper's section 5.4,
 * papers/bine-trees.txt): the parts of allreduce bine_torus_multiport for a
 * reduce-scatter.  Every rank's block is cut into 2D slices (D the torus
 * dimensions of size > 1); part k is slice k of every block, and runs the
 * reduce-scatter of allreduce bine_torus (the Bine butterflies on lines of
 * 2^k) with the dimensions from the (k/2)-th on and, for odd k, lines
 * shifted by one coordinate (phase_torus_mp.h), all parts at once, merged
 * round by round (vine__sub_zip).  A part's slices are scattered over the
 * input, one per block, so it first copies them into scratch in the part's
 * torus order (p local copies a part); then every message is one range, as
 * in the allreduce, and the rank's slice lands in its place in RECV.  The
 * parts as the allreduce's (vine__torus_multiport_parts, the whole vector):
 * on a level map marked as a torus network whose dimensions are powers of
 * two, with at least p elements a part; one part (reduce_scatter
 * bine_torus) otherwise.  Any counts; also serves reduce_scatter_block.
 *
 * Restrictions: commutative op; the level map, if any, must make a torus.
 * Cost, n the whole vector, k parts: sum lg D_d rounds with k messages each
 * (alpha each), n (p-1)/p (beta + gamma) over the k ports, per port n (p-1)
 * /(k p) beta; a local copy of n.  Scratch: n for the copies, plus per part
 * that of the allreduce's reduce-scatter on its n/k (about n/k + n/(k D_0)).
 */
#include "../coll.h"
#include "../phase_torus_mp.h"

int vine__reduce_scatter_bine_torus_multiport_build(const vine_args *a, vine_sched *s)
{
    return vine__torus_mp_reduce_scatter(a, s);
}
