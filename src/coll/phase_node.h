/*
 * The node frame of the hierarchical allreduces (MPI-free), shared by
 * allreduce hier (Bine butterfly across nodes), hier_rd (recursive
 * doubling), hier_large (Bine reduce-scatter + allgather) and hier_rab
 * (Rabenseifner): the scheme of the Bine paper's section 6.2
 * (papers/bine-trees.txt) with a ring inside the node.  With Q ranks in the
 * smallest node, the ranks of every node are dealt into Q lanes (local index
 * i is in lane i mod Q).  (0) Where a node has more than Q ranks, each lane
 * reduces the whole vector to its first rank on a binomial tree (the fold);
 * (1) a ring reduce-scatter among the node's first Q ranks leaves local
 * index i the node's partial of block i of Q; (2) the ranks with local index
 * i, one per node in node order, allreduce that block with a flat allreduce
 * builder run on them as a virtual communicator (phase_sub.h); (3) a ring
 * allgather among the first Q ranks spreads the Q reduced blocks; (4) each
 * lane broadcasts the result from its first rank on a binomial tree.  With
 * nodes of one size, phases 0 and 4 are empty.
 *
 * Needs a level map and a commutative op (the ring and the fold mix operand
 * order).  The ranks of a node need not be consecutive; levels above the
 * node are not used; those inside it nest the frame (up, below).
 */
#ifndef VINE_PHASE_NODE_H
#define VINE_PHASE_NODE_H

#include "coll.h"

/* The number of lanes Q: the size of the smallest node (level 0) of m. */
int vine__node_lanes(const vine_levels *m);

/*
 * Appends the five phases for a->rank, with flat as the allreduce among the
 * nodes (called for the virtual communicator of the nodes, in place on the
 * rank's block, without a level map), and finishes s.  Returns VINE_OK,
 * VINE_ERR_NO_MEM or flat's status.
 *
 * Levels inside the node (issue 18; the full map, vine__args_levels(a)):
 * the frame runs on the innermost level (a NUMA domain, say), and among
 * each lane's representatives, one per unit, up runs on the map of the
 * levels above up to the node (map_above in phase_node.c).  up is the
 * caller's own builder, which calls this function again with the same flat
 * and up: its frame runs on the next level, down to the node level, where
 * flat runs among the nodes.  Without levels inside the node, up is not
 * called.
 */
int vine__node_allreduce(const vine_args *a, vine_sched *s, vine_build_fn flat, vine_build_fn up);

/*
 * The same frame for a broadcast (bcast hier_large) from a->root, in RECV:
 * the root stands for its lane in its node; (1) it scatters the q blocks
 * among its node's lane representatives on a binomial tree, lane j getting
 * block (j - the root's lane) mod q; (2) the representatives of each lane,
 * one per node, broadcast that block from the root's node with flat;
 * (3) a ring allgather among each node's representatives; (4) each lane
 * broadcasts the whole buffer from its representative on a binomial tree.
 * Levels inside the node nest it with up, rooted at the root's unit, as
 * for vine__node_allreduce.  Finishes s; returns VINE_OK, VINE_ERR_NO_MEM
 * or flat's (up's) status.
 */
int vine__node_bcast(const vine_args *a, vine_sched *s, vine_build_fn flat, vine_build_fn up);

/*
 * The same frame for a reduce (reduce hier_large) to a->root, commutative
 * op: (0) the lanes fold the whole vector into their representatives (the
 * root stands for its lane); (1) a ring reduce-scatter among each node's
 * representatives, lane j ending with block (j - the root's lane) mod q;
 * (2) the representatives of each lane, one per node, reduce that block to
 * the root's node with flat (a reduce builder, in place at its root);
 * (3) the representatives of the root's node send their blocks to the
 * root.  Ranks other than the root work in n elements of scratch.  Levels
 * inside the node nest it with up, as for vine__node_bcast.  Finishes s;
 * returns VINE_OK, VINE_ERR_NO_MEM or flat's (up's) status.
 */
int vine__node_reduce(const vine_args *a, vine_sched *s, vine_build_fn flat, vine_build_fn up);

#endif
