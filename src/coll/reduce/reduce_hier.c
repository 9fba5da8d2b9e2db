/*
 * Hierarchical reduce on the level map of vine_args.levels, the mirror of
 * bcast hier: inside every node the ranks reduce to the node's
 * representative on a binomial tree, inside every group of each next level
 * the representatives of its subgroups reduce to the group's, and last the
 * representatives of the top groups reduce to the root (the stages of
 * vine__levels_path, run bottom up; the multi-level scheme of
 * papers/topology-aware-scatter-gather.txt, sections 3-4, applied to a
 * reduction).  The root is the anchor and stands for every group that holds
 * it, so a root that is not a leader costs nothing extra.  A rank folds in
 * its children one per round, the lowest stage and the smallest subtree
 * first (they finish first), and then sends its partial result to its
 * parent at its highest stage.  Every partial crosses the slowest level it
 * must cross once.
 *
 * Restrictions: a level map with locality (VINE_ALGO_LEVELS) and a
 * commutative op: the stages combine the groups in tree order, which is rank
 * order only for block maps whose root is rank 0.  Any p, root and count.
 * Cost: sum_s ceil(log2 k_s) (alpha_s + n beta_s + n gamma) along the deepest
 * path, k_s the participants of the root's group at stage s, n = count;
 * (number of top groups - 1) messages cross the top level.  Scratch: 2 n at
 * a rank with children other than the root, n at the root, none at a leaf.
 */
#include "../coll.h"
#include "../phase_tree.h"

int vine__reduce_hier_build(const vine_args *a, vine_sched *s)
{
    vine_levels_path path;
    if (vine__levels_path(vine__args_levels(a), a->rank, a->root, &path) != VINE_OK)
        return VINE_ERR_NO_MEM;
    size_t n = a->count;
    int at_root = a->rank == a->root;
    vine_tree_red t = {.count = n};
    t.in = (vine_bufpos){at_root && a->inplace ? VINE_BUF_RECV : VINE_BUF_SEND, 0};
    t.acc = (vine_bufpos){at_root ? VINE_BUF_RECV : VINE_BUF_TMP, 0};
    t.tmp = (vine_bufpos){VINE_BUF_TMP, at_root ? 0 : n};
    vine_bufpos cur = t.in;
    for (int i = 0; i < path.nstages; i++) {
        const vine_levels_stage *st = &path.stage[i];
        int span = vine__tree_span(st->k, st->v);
        for (int mask = 1; mask < span; mask *= 2)
            if (st->v + mask < st->k)
                cur = vine__tree_reduce_child(s, &t, st->rank[st->v + mask], cur);
    }
    const vine_levels_stage *top = &path.stage[path.nstages - 1];
    if (top->v != 0) {
        int parent = top->rank[top->v - vine__tree_span(top->k, top->v)];
        vine__sched_send(s, parent, cur.buf, cur.off, n);
    } else if (cur.buf != t.acc.buf) {
        vine__sched_copy(s, cur.buf, cur.off, t.acc.buf, t.acc.off, n);
    }
    vine__levels_path_free(&path);
    return vine__sched_finish(s);
}
