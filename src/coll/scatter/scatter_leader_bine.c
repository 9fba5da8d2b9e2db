/*
 * Leader-based hierarchical scatter with a Bine tree inside every stage, the
 * mirror of gather leader_bine: the scatter leader scheme (Kandalla et al.,
 * section 4.2, papers/topology-aware-scatter-gather.txt) on the level map of
 * vine_args.levels, where each stage, at every level (the top leaders, ...
 * the leaders of a switch's nodes, the ranks of a node), scatters down the
 * distance-halving Bine tree rooted at the stage's representative instead
 * of the binomial tree (De Sensi et al., Bine trees, sections 2.2 and 3,
 * papers/bine-trees.txt; phase_bine_tree.h, pruned for any number of
 * participants).  Participants that talk are at relative distances 1, 1, 3,
 * 5, 11 ... rather than 1, 2, 4, 8 ....
 *
 * Every Bine subtree is a run of consecutive participants, so each message
 * is one interval of the tree order; a rank receives its subtree's blocks,
 * takes its own from inside them (it need not be the first) and sends each
 * child its part, the top stage and the largest subtree (the earliest Bine
 * step) first.  As in scatter leader, a root that is not its node's leader
 * first sends all p blocks to that leader (the anchor).
 *
 * Restrictions: a level map with locality (VINE_ALGO_LEVELS); any p, root
 * and count.  Cost: as scatter leader, the Bine tree having the binomial
 * tree's depth: sum_s ceil(log2 k_s) alpha_s on the critical path (k_s
 * participants in the root's group at stage s) and (p - 1) count beta from
 * the root, the blocks for other top groups crossing the top level once
 * each; plus alpha_0 + p count beta_0 when the root is not its node's
 * leader.  Scratch: a rank with children holds its subtree's blocks; the
 * anchor p count when it is not the root.
 */
#include "../coll.h"
#include "../phase_leader.h"

int vine__scatter_leader_bine_build(const vine_args *a, vine_sched *s)
{
    /* The levels inside the node too, when there are any. */
    vine_args b = vine__args_all_levels(a);
    return vine__leader_scatter(&b, s, VINE_LEADER_BINE);
}
