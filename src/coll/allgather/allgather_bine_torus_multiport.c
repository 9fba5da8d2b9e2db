/*
 * Multiport Bine allgather on a torus (the Bine paper's section 5.4,
 * papers/bine-trees.txt): the parts of allreduce bine_torus_multiport for
 * an allgather.  Every rank's block is cut into 2D slices (D the torus
 * dimensions of size > 1); part k gathers slice k of every block with the
 * allgather of allreduce bine_torus (the Bine butterflies on lines of 2^k)
 * with the dimensions from the (k/2)-th on and, for odd k, lines shifted by
 * one coordinate (phase_torus_mp.h), all parts at once, merged round by
 * round (vine__sub_zip).  A part gathers into scratch in its torus order,
 * where every message is one range, and copies the p slices into their
 * places in RECV at the end.  The parts as the allreduce's
 * (vine__torus_multiport_parts on the p count elements): on a level map
 * marked as a torus network whose dimensions are powers of two, with at
 * least one element a slice; one part (allgather bine_torus) otherwise.
 *
 * Restrictions: the level map, if any, must make a torus.  Cost, n = p
 * count, k parts: sum lg D_d rounds with k messages each (alpha each), n
 * (p-1)/p beta over the k ports, per port n (p-1)/(k p) beta; a local copy
 * of n.  Scratch: n.
 */
#include "../coll.h"
#include "../phase_torus_mp.h"

int vine__allgather_bine_torus_multiport_build(const vine_args *a, vine_sched *s)
{
    return vine__torus_mp_allgather(a, s);
}
