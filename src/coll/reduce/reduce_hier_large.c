/*
 * Hierarchical reduce for large vectors, the mirror of bcast hier_large on
 * the node frame (phase_node.h): a ring reduce-scatter inside every node
 * leaves q ranks of it (q the smallest node's size) with the node's partial
 * of one block each; the ranks that hold the same block, one per node,
 * reduce it to the root's node with the reduce bine_large builder (Bine
 * reduce-scatter on the distance-doubling butterfly, then the
 * distance-halving gather); last the root collects the q reduced blocks
 * from its node.  Ranks beyond the first q of a larger node first fold
 * their vectors into their lane's representative (the lanes of
 * phase_node.h); the root stands for its lane, so any root works.  Against
 * reduce hier, which sends the whole vector up a binomial tree of nodes,
 * each rank sends about 2 n/q across the network instead of up to lg N
 * times n, and the q ranks of a node use it at once.  Levels inside the
 * node nest the frame (as bcast hier_large).
 *
 * Restrictions: a level map with locality and a commutative op (the ring
 * and the butterfly mix operand order).  Cost, N nodes, N' = 2^floor(lg N),
 * q the smallest node, m = n/q, w the most ranks of one node in one lane:
 * ceil(lg w) (alpha_0 + n beta_0 + n gamma) (the lanes) + (q - 1) (alpha_0 +
 * m beta_0 + m gamma) (the ring) + alpha_0 + (q - 1) m beta_0 (the blocks to
 * the root) inside the nodes; 2 lg N' alpha_1 + 2 (N' - 1)/N' m beta_1 +
 * (N' - 1)/N' m gamma across them, one step of m more when N is not a
 * power of two.  Scratch: n at every rank but the root, plus the phases'
 * (one block for the ring, reduce bine_large's on one block, n in a lane of
 * several ranks).
 */
#include "../coll.h"
#include "../phase_node.h"

int vine__reduce_hier_large_build(const vine_args *a, vine_sched *s)
{
    /* Itself as the frame of the next level up when levels lie inside the node. */
    return vine__node_reduce(a, s, vine__reduce_bine_large_build, vine__reduce_hier_large_build);
}
