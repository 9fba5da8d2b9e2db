/*
 * Hierarchical allreduce for large vectors with Rabenseifner's algorithm
 * across the nodes: the frame of allreduce hier_large (phase_node.h: ring
 * reduce-scatter in the node, the ranks with local index i allreduce block
 * i of q, ring allgather in the node; lanes for nodes of different sizes)
 * with the allreduce rabenseifner builder among the nodes (recursive-halving
 * reduce-scatter from node distance N'/2 down, then recursive-doubling
 * allgather, with the halved fold).  The classic counterpart of hier_large:
 * the same rounds and bytes, but the largest halves go to the farthest
 * nodes.  Levels inside the node nest the frame (as allreduce hier).
 *
 * Restrictions: commutative op, a level map with locality.  Cost: that of
 * allreduce hier_large (allreduce_hier_large.c).  Scratch: that of
 * rabenseifner on one block (m), the whole vector (n) in a lane of several
 * ranks.
 */
#include "../coll.h"
#include "../phase_node.h"

int vine__allreduce_hier_rab_build(const vine_args *a, vine_sched *s)
{
    /* Itself as the frame of the next level up when levels lie inside the node. */
    return vine__node_allreduce(a, s, vine__allreduce_rabenseifner_build,
                                vine__allreduce_hier_rab_build);
}
