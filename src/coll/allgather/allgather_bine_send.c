/*
 * Allgather on the distance-halving Bine butterfly in rank order, after one
 * exchange out of rank order.
 *
 * Rank r first swaps blocks so that it holds block nu(r) (it receives from
 * rank nu(r) and sends its own block to the rank r' with nu(r') = r; no
 * exchange where nu(r) = r).  Then at step s = lg p - 1 .. 0,
 * w = p >> (s + 1), rank r and its partner q = pi(r, s) swap the w blocks
 * starting at nu(r) & ~(w-1) and at nu(q) & ~(w-1), each one contiguous range
 * of the receive buffer, and every block arrives straight in its slot.  A
 * non-power-of-two p is folded onto p' = 2^floor(lg p) participants: the even
 * rank of each of the first 2(p - p') ranks hands its block to the odd rank
 * above it and receives the whole result from it at the end.  Works on bytes
 * (count = bytes per block).  Source: De Sensi et al., Bine trees, section
 * 4.3.1 (papers/bine-trees.txt); ../shared/BINE.md.  No restrictions.  Cost
 * for power-of-two p: (lg p + 1) alpha + ((p-1)/p + 1/p) n beta,
 * n = p * count: the rounds and bytes of recursive doubling plus the one
 * exchange of a block (checked with `vine dump`); otherwise
 * 2 alpha + (1 + 1/p) n beta more.  No scratch.
 */
#include "../coll.h"
#include "../phase_bine.h"

int vine__allgather_bine_send_build(const vine_args *a, vine_sched *s)
{
    return vine__bfly_allgather_build(a, s, 0);
}
