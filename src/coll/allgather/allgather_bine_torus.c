/*
 * Bine allgather on a torus (De Sensi et al., Bine trees, section 5.4,
 * papers/bine-trees.txt): the block-by-block distance-halving Bine
 * butterfly (allgatherv bine_block) along each dimension of the torus in
 * turn, the last dimension first (phase_torus.h): each line gathers its
 * dims[nd-1] blocks, then the lines along the dimension before exchange
 * those runs, up to dimension 0.  A line that holds less than
 * VINE_TORUS_PERMUTE_BYTES runs allgather bine_permute instead (one message
 * a step, through scratch in Bine order; vine__torus_ag_line).  Out of
 * torus order the vector is gathered in scratch and copied into rank order
 * at the end.  Without a torus it is that line builder on p ranks.
 *
 * Restrictions: the level map, if any, must make a torus.  Cost, n = p *
 * count, dimensions D_d of size > 1: per dimension ceil(lg D_d) rounds (2
 * more for odd D_d), n (D_d - 1)/(D_0 ... D_d) beta, in all about
 * n (p - 1)/p beta; a line below VINE_TORUS_PERMUTE_BYTES sends one message
 * a round and copies its range locally, a larger one about 3 D_d / 4
 * messages in all and copies nothing.  Scratch: n elements out of torus
 * order, the small lines' ranges.
 */
#include "../coll.h"
#include "../phase_torus.h"

int vine__allgather_bine_torus_build(const vine_args *a, vine_sched *s)
{
    return vine__torus_allgather(a, s, vine__torus_ag_line);
}
