/*
 * Hierarchical allreduce on the nodes (level 0) of vine_args.levels with
 * recursive doubling across the nodes: a ring reduce-scatter inside each node
 * leaves the rank with local index i the node's partial of block i of q;
 * the ranks with local index i, one per node, allreduce that block with the
 * recursive-doubling builder (MPICH's halved fold for a node count that is
 * not a power of two); a ring allgather inside each node spreads the q
 * reduced blocks.  The frame is phase_node.h, the scheme of the Bine paper's
 * section 6.2 (papers/bine-trees.txt) with a ring inside the node; allreduce
 * hier is the same frame with the Bine butterfly across the nodes.  Only 1/q
 * of the vector leaves each rank's node, and every inter-node message is
 * between ranks with the same local index, so the q ranks of a node use the
 * network in parallel.  Ranks of a node need not be consecutive; levels
 * above the node are not used, those inside it nest the frame (as allreduce
 * hier).  Nodes of different sizes: q is the smallest
 * node's size, and the other ranks of a larger node fold into its first q
 * ranks first (the lanes of phase_node.h).
 *
 * Restrictions: commutative op, a level map with locality.  Cost: that of
 * allreduce hier (allreduce_hier.c), lanes included.  Scratch: one block
 * (m), the whole vector (n) in a lane of several ranks.
 */
#include "../coll.h"
#include "../phase_node.h"

int vine__allreduce_hier_rd_build(const vine_args *a, vine_sched *s)
{
    /* Itself as the frame of the next level up when levels lie inside the node. */
    return vine__node_allreduce(a, s, vine__allreduce_recursive_doubling_build,
                                vine__allreduce_hier_rd_build);
}
