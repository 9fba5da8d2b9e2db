/*
 * Multiport Bine broadcast on a torus (the Bine paper's section 5.4,
 * papers/bine-trees.txt): the vector is cut into 2D contiguous parts (D the
 * torus dimensions of size > 1) and bcast bine_torus runs on every part at
 * once (phase_torus_mp.h): part (d, s) takes the dimensions from the d-th
 * on, cyclically, and s = 1 mirrors every line's Bine tree, so the root's
 * first round sends 2D messages along D dimensions in both directions, and
 * every later round spreads the parts' messages over the ports likewise.
 * The parts are merged round by round (vine__sub_zip): every rank fences at
 * every step of every stage.
 *
 * Only on a level map marked as a torus network (levels.h); as for the
 * allreduce, two parts (dimension 0 first, both directions) where the
 * dimensions differ in length and a part of the 2D would hold fewer than
 * 2^18 elements; one part (bcast bine_torus) without such a map or with
 * fewer elements than parts (vine__torus_multiport_tree_parts, torus.h).
 * Any dimensions, any root.
 *
 * Restrictions: the level map, if any, must make a torus.  Cost, n =
 * count, k parts: sum ceil(lg D_d) rounds, as bine_torus, a rank posting up
 * to k messages of n/k a round (alpha each): sum ceil(lg D_d) (alpha + n/k
 * beta) when the ports work in parallel.  No scratch.
 */
#include "../coll.h"
#include "../phase_torus_mp.h"

int vine__bcast_bine_torus_multiport_build(const vine_args *a, vine_sched *s)
{
    return vine__torus_mp_bcast(a, s);
}
