/*
 * Reduce-scatter on the distance-doubling Bine butterfly, with the blocks
 * permuted locally into nu order first.
 *
 * Rank r's result block (counts[r] elements at displs[r]) is copied into
 * scratch at the place of position nu(r), so that the set of blocks a step
 * sends (the w positions starting at nu(q) & ~(w-1), q = pi(r, s),
 * w = p >> (s + 1)) is one contiguous range; after lg p steps position nu(r)
 * holds rank r's block, reduced, and is copied out.  A non-power-of-two p is
 * folded onto p' = 2^floor(lg p) participants with the halved MPICH fold:
 * participant i owns the blocks of the ranks it stands for, and the odd rank
 * of each folded pair sends the even one its block at the end.  Irregular
 * counts are fine (positions follow the participants' block sizes).  Also
 * serves reduce_scatter_block.  Source: De Sensi et al., Bine trees, section
 * 4.3.1 (papers/bine-trees.txt); ../shared/BINE.md.  Restrictions:
 * commutative op.  Cost for power-of-two p and equal counts:
 * lg p alpha + ((p-1)/p) n (beta + gamma) + n copied locally, n the total
 * count: the rounds and bytes of recursive halving (checked with
 * `vine dump`); otherwise 3 alpha + (1 + 1/p) n beta + n/2 gamma more.
 * Scratch: n elements plus the largest range received (n/2).
 */
#include "../coll.h"
#include "../phase_bine.h"

int vine__reduce_scatter_bine_permute_build(const vine_args *a, vine_sched *s)
{
    return vine__bfly_reduce_scatter_build(a, s, 1);
}
