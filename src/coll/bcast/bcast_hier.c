/*
 * Hierarchical broadcast on the level map of vine_args.levels: a binomial
 * tree among the leaders of the top groups, then inside each group of every
 * level from its leader to the leaders of its subgroups, and last inside
 * every node to its ranks (the stages of vine__levels_path, run top down;
 * the multi-level scheme of papers/topology-aware-scatter-gather.txt,
 * sections 3-4, applied to a broadcast).  The root stands for every group
 * that holds it (it is the anchor), so a root that is not a leader costs
 * nothing extra: the message is the same everywhere, and routing it through
 * the node's leader first would only add a step.  Each rank receives the
 * whole buffer once from its parent at its highest stage and sends it to its
 * children, the top stage and the largest subtree first, one per round.
 * Every message crosses the slowest level it must cross exactly once per
 * group it enters.
 *
 * Restrictions: a level map with locality (VINE_ALGO_LEVELS); any p, root
 * and count.  Cost: sum_s ceil(log2 k_s) (alpha_s + count beta_s) along the
 * deepest path, k_s the participants of the root's group at stage s;
 * (number of top groups - 1) messages cross the top level.  No scratch.
 */
#include "../coll.h"
#include "../phase_tree.h"

int vine__bcast_hier_build(const vine_args *a, vine_sched *s)
{
    vine_levels_path path;
    if (vine__levels_path(vine__args_levels(a), a->rank, a->root, &path) != VINE_OK)
        return VINE_ERR_NO_MEM;
    size_t c = a->count;
    const vine_levels_stage *top = &path.stage[path.nstages - 1];
    if (top->v != 0) {
        int parent = top->rank[top->v - vine__tree_span(top->k, top->v)];
        vine__sched_recv(s, parent, VINE_BUF_RECV, 0, c);
        vine__sched_fence(s);
    }
    for (int i = path.nstages - 1; i >= 0; i--) {
        const vine_levels_stage *st = &path.stage[i];
        for (int mask = vine__tree_span(st->k, st->v) / 2; mask > 0; mask /= 2) {
            if (st->v + mask < st->k) {
                vine__sched_send(s, st->rank[st->v + mask], VINE_BUF_RECV, 0, c);
                vine__sched_fence(s);
            }
        }
    }
    vine__levels_path_free(&path);
    return vine__sched_finish(s);
}
