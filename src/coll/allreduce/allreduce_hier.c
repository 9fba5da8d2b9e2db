/*
 * Hierarchical allreduce after the Bine paper's section 6.2 (De Sensi et
 * al., papers/bine-trees.txt): a ring reduce-scatter inside each node (level
 * 0 of vine_args.levels) leaves the rank with local index i the node's
 * partial of block i of q; the ranks with local index i, one per node in
 * node order, allreduce that block on the Bine butterfly (the allreduce bine
 * builder on them as a virtual communicator, phase_sub.h: distance doubling
 * with Bine partners at node distances 1, 1, 3, 5, 11 ..., the halved fold
 * for a node count that is not a power of two); a ring allgather inside each
 * node spreads the q reduced blocks.  The rounds and bytes are those of
 * allreduce hier_rd (the same frame, phase_node.h); only the partners across
 * nodes differ, which keeps more of the inter-node traffic between nearby
 * nodes (Bine trees, section 4).  Ranks of a node need not be consecutive;
 * levels above the node are not used; levels inside it (VINE_NODE_LEVELS)
 * nest the frame: the rings in a NUMA domain, say, then the same frame among
 * the domains' lanes of a node (vine__node_allreduce).  Nodes of different
 * sizes: q is the smallest node's size, and the other ranks of a larger
 * node first fold their vectors into its first q ranks and get the result
 * back at the end (the lanes of phase_node.h).
 *
 * Restrictions: commutative op (the ring and the butterfly mix operand
 * order), a level map with locality.  Cost, N nodes, N' = 2^floor(lg N),
 * n = count, q the smallest node, m = n/q, w the most ranks of one node in
 * one lane (ceil(node size / q)): 2 (q - 1) (alpha_0 + m beta_0) +
 * (q - 1) m gamma inside the node, plus ceil(lg w) (2 alpha_0 + 2 n beta_0
 * + n gamma) for the lanes; lg N (alpha_1 + m beta_1 + m gamma) across nodes
 * when N is a power of two, else (lg N' + 3) alpha_1 + (lg N' + 2) m beta_1
 * + (lg N' + 1/2) m gamma.  Scratch: one block (m), the whole vector (n) in a
 * lane of several ranks.
 */
#include "../coll.h"
#include "../phase_node.h"

int vine__allreduce_hier_build(const vine_args *a, vine_sched *s)
{
    /* Itself as the frame of the next level up when levels lie inside the node. */
    return vine__node_allreduce(a, s, vine__allreduce_bine_build, vine__allreduce_hier_build);
}
