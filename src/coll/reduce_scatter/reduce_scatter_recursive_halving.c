/*
 * Reduce-scatter by recursive vector halving and distance halving.
 *
 * A non-power-of-two p is folded onto p' = 2^floor(lg p) participants with
 * the halved fold of phase_hd.h; participant i owns the result blocks of the
 * ranks it stands for (ranks 2i and 2i + 1, or i + p - p').  In each of the
 * lg p' steps a participant sends the half of its current block range that
 * its partner keeps and reduces the half it keeps, so it ends with its own
 * blocks reduced over all ranks; the odd rank of each folded pair then sends
 * the even rank its block.  Irregular counts are fine (the halves follow the
 * participants' block boundaries, so they may be unequal).  Source: Thakur,
 * Rabenseifner and Gropp 2005, section 4.4 (papers/mpich-collectives.txt).
 * Restrictions: commutative op.  Cost for power-of-two p and equal counts:
 * lg p alpha + ((p-1)/p) n (beta + gamma), n the total count; otherwise
 * 3 alpha + (1 + 1/p) n beta + n/2 gamma more.  Scratch: n elements plus the
 * largest half received (n/2 for equal counts).
 */
#include "../coll.h"
#include "../phase_hd.h"

int vine__reduce_scatter_recursive_halving_build(const vine_args *a, vine_sched *s)
{
    return vine__hd_reduce_scatter_frame(a, s, vine__hd_reduce_scatter);
}
