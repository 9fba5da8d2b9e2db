/*
 * Multiport Bine reduce on a torus (the Bine paper's section 5.4,
 * papers/bine-trees.txt): the mirror of bcast bine_torus_multiport.  The
 * vector is cut into 2D contiguous parts (D the torus dimensions of size >
 * 1) and reduce bine_torus runs on every part at once (phase_torus_mp.h):
 * part (d, s) reduces along the dimension before the d-th first and along
 * dimension d last, cyclically, s = 1 on mirrored lines, so a rank's
 * messages of a round leave through different ports.  The parts are merged
 * round by round (vine__sub_zip): every rank fences at every step of every
 * stage.  The parts as bcast bine_torus_multiport's
 * (vine__torus_multiport_tree_parts); one part is reduce bine_torus.
 *
 * Restrictions: commutative op (the stages combine the ranks out of rank
 * order); the level map, if any, must make a torus.  Cost, n = count, k
 * parts: sum ceil(lg D_d) (alpha + n/k (beta + gamma)) when the ports work
 * in parallel, a rank posting up to k messages a round.  Scratch: 2 n/k
 * elements a part at the ranks other than the root (n/k at the root).
 */
#include "../coll.h"
#include "../phase_torus_mp.h"

int vine__reduce_bine_torus_multiport_build(const vine_args *a, vine_sched *s)
{
    return vine__torus_mp_reduce(a, s);
}
