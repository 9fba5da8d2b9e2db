/*
 * Leader-based hierarchical scatter, the mirror of gather leader (Kandalla
 * et al., section 4.2, papers/topology-aware-scatter-gather.txt) on the
 * level map of vine_args.levels, for any number of levels and any group
 * sizes.  The top stage scatters among the leaders of the top groups, each
 * getting its group's blocks; stage s scatters inside each group of level s
 * from its leader to the leaders of its level s-1 groups; stage 0 inside each
 * node to its ranks; every stage is a binomial tree on the participants.  A
 * root that is not the leader of its node costs one extra step inside the
 * node, as in the paper: it first sends all p blocks to its node's leader
 * (the anchor, vine__levels_path), which stands for the root's groups.
 *
 * Blocks travel in the tree order (levels.h), so each message is one range.
 * A rank receives its subtree's interval into scratch (a leaf straight into
 * RECV), then sends each child's part, one per round, the top stage and the
 * largest subtree first, as the binomial scatter does.  The root sends
 * intervals whose ranks are consecutive straight from SEND and gathers the
 * others into scratch first (one copy per run of consecutive ranks).  When
 * the root is not its node's leader and would get just its own block back,
 * that message is left out: it copies its block from SEND.
 *
 * The code is shared with leader_bine (a Bine tree per stage) in
 * phase_leader.c.
 *
 * Restrictions: a level map with locality (VINE_ALGO_LEVELS); any p, root
 * and count.  Cost: sum_s ceil(log2 k_s) alpha_s start-ups on the critical
 * path (k_s participants in the root's group at stage s) and (p - 1) count
 * beta from the root, of which only the blocks for other top groups cross
 * the top level, once each; plus alpha_0 + p count beta_0 when the root is
 * not its node's leader.  Scratch: a leader holds its group's blocks; the
 * anchor p count when it is not the root.
 */
#include "../coll.h"
#include "../phase_leader.h"

int vine__scatter_leader_build(const vine_args *a, vine_sched *s)
{
    /* The levels inside the node too, when there are any. */
    vine_args b = vine__args_all_levels(a);
    return vine__leader_scatter(&b, s, VINE_LEADER_BINOMIAL);
}
