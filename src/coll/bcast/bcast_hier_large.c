/*
 * Hierarchical broadcast for large buffers, the node frame of the
 * hierarchical allreduces turned round (phase_node.h): the root scatters
 * the buffer, cut into q blocks (q the smallest node's size), among q ranks
 * of its node on a binomial tree; the ranks that hold block v, one per
 * node, broadcast it across the nodes with the bcast bine_large builder
 * (Bine scatter + allgather); a ring allgather inside every node spreads
 * the q blocks.  Ranks beyond the first q of a larger node get the whole
 * buffer at the end from their lane's representative (the lanes of
 * phase_node.h).  Against bcast hier, which sends the whole buffer down a
 * binomial tree of nodes, each rank sends about 2 n/q across the network
 * instead of up to lg N times n, and the q ranks of a node use it at once.
 * Levels inside the node (VINE_NODE_LEVELS) nest the frame: the scatter and
 * ring in the root's NUMA domain, say, then the same frame among the
 * domains' lanes (vine__node_bcast).
 *
 * Restrictions: a level map with locality; any p, root and count.  Cost, N
 * nodes, N' = 2^floor(lg N), q the smallest node, m = n/q, w the most ranks
 * of one node in one lane: ceil(lg q) alpha_0 + (q - 1) m beta_0 (the
 * scatter) + (q - 1) (alpha_0 + m beta_0) (the ring) + ceil(lg w) (alpha_0
 * + n beta_0) inside the nodes; 2 lg N' alpha_1 + 2 (N' - 1)/N' m beta_1
 * across them, with one more step of m when N is not a power of two.
 * Scratch: none.
 */
#include "../coll.h"
#include "../phase_node.h"

int vine__bcast_hier_large_build(const vine_args *a, vine_sched *s)
{
    /* Itself as the frame of the next level up when levels lie inside the node. */
    return vine__node_bcast(a, s, vine__bcast_bine_large_build, vine__bcast_hier_large_build);
}
