/*
 * The node frame of the hierarchical allreduces (MPI-free), shared by
 * allreduce hier (Bine across nodes) and allreduce hier_rd (recursive
 * doubling across nodes): the scheme of the Bine paper's section 6.2
 * (papers/bine-trees.txt) with a ring inside the node.  With q ranks per
 * node, (1) a ring reduce-scatter inside each node leaves the rank with
 * local index i the node's partial of block i of q; (2) the ranks with local
 * index i, one per node in node order, allreduce that block with a flat
 * allreduce builder run on them as a virtual communicator (phase_sub.h);
 * (3) a ring allgather inside each node spreads the q reduced blocks.
 *
 * Needs a level map whose nodes (level 0) all have q ranks and a
 * commutative op (the ring mixes operand order).  The ranks of a node need
 * not be consecutive; levels above the node are not used.
 */
#ifndef VINE_PHASE_NODE_H
#define VINE_PHASE_NODE_H

#include "coll.h"

/*
 * Appends the three phases for a->rank, with across as the allreduce among
 * the nodes (called for the virtual communicator of the nodes, in place on
 * the rank's block), and finishes s.  Returns VINE_OK, VINE_ERR_NO_MEM or
 * across's status.
 */
int vine__node_allreduce(const vine_args *a, vine_sched *s, vine_build_fn across);

#endif
