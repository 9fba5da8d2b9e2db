/*
 * Leader-based hierarchical gather (Kandalla et al., topology-aware scatter
 * and gather, section 4.2, papers/topology-aware-scatter-gather.txt) on the
 * level map of vine_args.levels, for any number of levels and any group
 * sizes.  Stage 0 gathers every node's blocks at its leader (its lowest
 * rank) on a binomial tree; stage s gathers, inside each group of level s,
 * the blocks of its level s-1 groups at the group's leader, binomial among
 * those groups' leaders; the last stage runs among the leaders of the top
 * groups.  A root that is not the leader of its node costs one extra step
 * inside the node, as in the paper: the groups that hold the root are
 * represented by the root's node leader (the anchor, vine__levels_path), so
 * the whole gather ends there, and the anchor sends all p blocks to the root.
 *
 * Blocks travel in the tree order (levels.h): every group's blocks, and every
 * binomial subtree's, are one interval of it, so each message is one range.
 * A rank keeps what it collects in scratch from its own position on; it posts
 * the receives of all its stages in one round (they land in disjoint ranges)
 * and then sends its interval to its parent, a leaf straight from its input.
 * The tree order is rank order for block maps whose root is a leader; else
 * the root receives each interval straight into its place in RECV when its
 * ranks are consecutive, and through scratch and one copy per run of
 * consecutive ranks when they are not (a random map).
 *
 * The code is shared with leader_bine (a Bine tree per stage) in
 * phase_leader.c.
 *
 * Restrictions: a level map with locality (VINE_ALGO_LEVELS); any p, root
 * and count.  Cost: with k_s participants in the root's group at stage s,
 * sum_s ceil(log2 k_s) alpha_s start-ups on the critical path and
 * (p - 1) count beta at the root, of which only the blocks from other top
 * groups cross the top level, once each; plus alpha_0 + p count beta_0 when
 * the root is not its node's leader.  Scratch: a leader holds its group's
 * blocks; the anchor p count when it is not the root.
 */
#include "../coll.h"
#include "../phase_leader.h"

int vine__gather_leader_build(const vine_args *a, vine_sched *s)
{
    /* The levels inside the node too, when there are any. */
    vine_args b = vine__args_all_levels(a);
    return vine__leader_gather(&b, s, VINE_LEADER_BINOMIAL);
}
