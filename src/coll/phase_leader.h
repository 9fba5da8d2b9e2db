/*
 * Leader-based hierarchical gather and scatter (MPI-free), shared by gather
 * and scatter leader (a binomial tree per stage) and leader_bine (a Bine
 * tree per stage).  Kandalla et al., topology-aware scatter and gather,
 * section 4.2 (papers/topology-aware-scatter-gather.txt); the stages, the
 * anchor and the tree order are those of levels.h.
 *
 * Inside a stage the participants (relative indices 0 .. k-1, the target 0)
 * form a tree rooted at the target.  Either tree gives every participant's
 * subtree as one run of consecutive relative indices: the binomial tree
 * (distance halving, phase_tree.h) [w, vine__tree_end(k, w)); the Bine tree
 * (distance halving, phase_bine_tree.h) an interval of negabinary values
 * that does not hold 0, so all positive or all negative values, which are
 * relative indices [lo, hi] or [lo + k, hi + k].  In the tree order a
 * subtree's blocks are then one interval, so each message is one range.  A
 * participant of the Bine tree need not be the first of its subtree; a rank
 * keeps its blocks from the start of its subtree at its last stage on.
 */
#ifndef VINE_PHASE_LEADER_H
#define VINE_PHASE_LEADER_H

#include "coll.h"

/* The tree of a stage. */
enum vine_leader_tree { VINE_LEADER_BINOMIAL = 0, VINE_LEADER_BINE = 1 };

/*
 * The gather and the scatter for a->rank, towards or from a->root through
 * the root's node leader (the anchor), on the given tree per stage; they
 * finish s.  Return VINE_OK or VINE_ERR_NO_MEM.
 */
int vine__leader_gather(const vine_args *a, vine_sched *s, int tree);
int vine__leader_scatter(const vine_args *a, vine_sched *s, int tree);

/*
 * The same with irregular blocks, as gather and scatter leader_shm carry
 * the units of nodes of different sizes across: rank r's block is
 * a->counts[r] elements (a->count is not read), and the root's buffer
 * holds them in rank order, packed.  A subtree's blocks stay one interval
 * of the tree order, so each message is still one range; each rank finds
 * its interval's offsets from the counts in the tree order (O(p) time and
 * memory on every rank).  VINE_ERR_INTERNAL without a->counts.
 */
int vine__leader_gatherv(const vine_args *a, vine_sched *s, int tree);
int vine__leader_scatterv(const vine_args *a, vine_sched *s, int tree);

#endif
