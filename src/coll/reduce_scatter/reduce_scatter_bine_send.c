/*
 * Reduce-scatter on the distance-doubling Bine butterfly in rank order, with
 * one exchange at the end instead of a permutation.
 *
 * The butterfly runs on the blocks where they are, as if they had been
 * permuted into nu order: at step s, w = p >> (s + 1), rank r sends partner
 * q = pi(r, s) the w blocks starting at nu(q) & ~(w-1) and reduces the w
 * blocks starting at nu(r) & ~(w-1), each one contiguous range, so r ends
 * with the reduced block nu(r), which belongs to rank nu(r): one more
 * exchange sends it there and brings r its own block from the rank r' with
 * nu(r') = r (no exchange where nu(r) = r).  A non-power-of-two p is folded
 * onto p' = 2^floor(lg p) participants with the halved MPICH fold:
 * participant i owns the blocks of the ranks it stands for, and the odd rank
 * of each folded pair sends the even one its block at the end.  Irregular
 * counts are fine.  Also serves reduce_scatter_block.  Source: De Sensi et
 * al., Bine trees, section 4.3.1 (papers/bine-trees.txt); ../shared/BINE.md.
 * Restrictions: commutative op.  Cost for power-of-two p and equal counts:
 * (lg p + 1) alpha + ((p-1)/p + 1/p) n beta + ((p-1)/p) n gamma, n the total
 * count: the rounds and bytes of recursive halving plus the one exchange of a
 * block (checked with `vine dump`); otherwise 3 alpha + (1 + 1/p) n beta +
 * n/2 gamma more.  Scratch: n elements plus the largest range received after
 * the first step (n/4).
 */
#include "../coll.h"
#include "../phase_bine.h"

int vine__reduce_scatter_bine_send_build(const vine_args *a, vine_sched *s)
{
    return vine__bfly_reduce_scatter_build(a, s, 0);
}
