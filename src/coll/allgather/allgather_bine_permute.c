/*
 * Allgather on the distance-halving Bine butterfly in scratch laid out in nu
 * order, permuted into rank order at the end.
 *
 * Rank r's block goes to position nu(r) of a scratch vector; at step
 * s = lg p - 1 .. 0, w = p >> (s + 1), rank r and its partner q = pi(r, s)
 * swap the w positions starting at nu(r) & ~(w-1) and at nu(q) & ~(w-1), each
 * one contiguous range (the reduce-scatter of reduce_scatter_bine_permute.c
 * run backwards), and a final local copy puts block nu(i) into rank i's slot.
 * A non-power-of-two p is folded onto p' = 2^floor(lg p) participants: the
 * even rank of each of the first 2(p - p') ranks hands its block to the odd
 * rank above it and receives the whole result from it at the end.  Works on
 * bytes (count = bytes per block).  Source: De Sensi et al., Bine trees,
 * sections 4.3 and 4.3.1 (papers/bine-trees.txt); ../shared/BINE.md.  No
 * restrictions.  Cost for power-of-two p:
 * lg p alpha + ((p-1)/p) n beta + n copied locally, n = p * count: the rounds
 * and bytes of recursive doubling (checked with `vine dump`); otherwise
 * 2 alpha + (1 + 1/p) n beta more.  Scratch: n.
 */
#include "../coll.h"
#include "../phase_bine.h"

int vine__allgather_bine_permute_build(const vine_args *a, vine_sched *s)
{
    return vine__bfly_allgather_build(a, s, 1);
}
