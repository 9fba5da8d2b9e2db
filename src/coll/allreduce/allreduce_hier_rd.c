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
 * above the node are not used.
 *
 * Restrictions: commutative op, a level map with locality whose nodes all
 * have the same size q (VINE_ALGO_LEVELS_UNIFORM).  Cost, N nodes, N' =
 * 2^floor(lg N), n = count, m = n/q: 2 (q - 1) (alpha_0 + m beta_0) +
 * (q - 1) m gamma inside the node; lg N (alpha_1 + m beta_1 + m gamma)
 * across nodes when N is a power of two, else (lg N' + 3) alpha_1 +
 * (lg N' + 2) m beta_1 + (lg N' + 1/2) m gamma.  Scratch: one block (m).
 */
#include "../coll.h"
#include "../phase_node.h"

int vine__allreduce_hier_rd_build(const vine_args *a, vine_sched *s)
{
    return vine__node_allreduce(a, s, vine__allreduce_recursive_doubling_build);
}
