/*
 * Hierarchical allreduce for large vectors, the scheme of the Bine paper's
 * multi-GPU allreduce (section 6.2, papers/bine-trees.txt): a ring
 * reduce-scatter inside each node leaves the rank with local index i the
 * node's partial of block i of q; the ranks with local index i, one per
 * node, allreduce that block with the allreduce bine_large builder (Bine
 * reduce-scatter on the distance-doubling butterfly, then the mirrored
 * allgather, on contiguous blocks); a ring allgather inside each node
 * spreads the q reduced blocks.  The frame, with its lanes for nodes of
 * different sizes, is phase_node.h; levels inside the node nest it (as
 * allreduce hier).  Against allreduce hier (a butterfly on
 * the whole block), the traffic across nodes drops from lg N blocks to about
 * two per rank, and the halves that travel farthest are the smallest.
 *
 * Restrictions: commutative op, a level map with locality.  Cost, N nodes,
 * N' = 2^floor(lg N), q the smallest node, m = n/q: inside the node as
 * allreduce hier (the rings, and the lanes where nodes differ); across nodes
 * 2 lg N' alpha_1 + 2 (N' - 1)/N' m beta_1 + (N' - 1)/N' m gamma when N is a
 * power of two, with the fold (3 alpha_1, 2 m beta_1, m/2 gamma more)
 * otherwise.  Scratch: that of bine_large on one block (m), the whole vector
 * (n) in a lane of several ranks.
 */
#include "../coll.h"
#include "../phase_node.h"

int vine__allreduce_hier_large_build(const vine_args *a, vine_sched *s)
{
    /* Itself as the frame of the next level up when levels lie inside the node. */
    return vine__node_allreduce(a, s, vine__allreduce_bine_large_build,
                                vine__allreduce_hier_large_build);
}
