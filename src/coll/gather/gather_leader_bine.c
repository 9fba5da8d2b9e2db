/*
 * Leader-based hierarchical gather with a Bine tree inside every stage: the
 * gather leader scheme (Kandalla et al., section 4.2,
 * papers/topology-aware-scatter-gather.txt) on the level map of
 * vine_args.levels, where the participants of each stage, at every level
 * (the ranks of a node, the leaders of a switch's nodes, ... the top
 * leaders), send up the mirrored distance-halving Bine tree rooted at the
 * stage's target instead of the binomial tree (De Sensi et al., Bine trees,
 * sections 2.2 and 3, papers/bine-trees.txt; phase_bine_tree.h, pruned for
 * any number of participants).  Participants that talk are then at relative
 * distances 1, 1, 3, 5, 11 ... rather than 1, 2, 4, 8 ..., so more of a
 * stage's messages stay between neighbouring groups of the level above.
 *
 * Every Bine subtree is a run of consecutive participants (its negabinary
 * values do not hold 0), so its blocks are one interval of the tree order
 * and no extra permutation is needed; a participant need not be the first
 * of its subtree, so an inner rank stores its blocks from its subtree's
 * start (phase_leader.h).  As in gather leader, a root that is not its
 * node's leader gets all p blocks from that leader (the anchor) at the end.
 *
 * Restrictions: a level map with locality (VINE_ALGO_LEVELS); any p, root
 * and count.  Cost: as gather leader, the Bine tree having the binomial
 * tree's depth: sum_s ceil(log2 k_s) alpha_s on the critical path (k_s
 * participants in the root's group at stage s), (p - 1) count beta at the
 * root, the blocks of other top groups crossing the top level once each;
 * plus alpha_0 + p count beta_0 when the root is not its node's leader.
 * Scratch: a rank with children holds its subtree's blocks; the anchor p
 * count when it is not the root.
 */
#include "../coll.h"
#include "../phase_leader.h"

int vine__gather_leader_bine_build(const vine_args *a, vine_sched *s)
{
    /* The levels inside the node too, when there are any. */
    vine_args b = vine__args_all_levels(a);
    return vine__leader_gather(&b, s, VINE_LEADER_BINE);
}
