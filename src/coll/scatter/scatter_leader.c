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
 * Restrictions: a level map with locality (VINE_ALGO_LEVELS); any p, root
 * and count.  Cost: sum_s ceil(log2 k_s) alpha_s start-ups on the critical
 * path (k_s participants in the root's group at stage s) and (p - 1) count
 * beta from the root, of which only the blocks for other top groups cross
 * the top level, once each; plus alpha_0 + p count beta_0 when the root is
 * not its node's leader.  Scratch: a leader holds its group's blocks; the
 * anchor p count when it is not the root.
 */
#include "../coll.h"
#include "../phase_tree.h"

#include <stdlib.h>

/*
 * Where the anchor takes the blocks from: rank order in sbuf (SEND at the
 * root, TMP[0, p count) at an anchor that is not the root), or, for
 * intervals whose ranks are not consecutive, TMP from block stage on, where
 * stage_runs() puts them.
 */
typedef struct source {
    const int *rank_at;
    int sbuf;
    int stage;
} source;

/* The extent of child w in tree positions from the stage owner's own. */
static void child_range(const vine_levels_stage *st, int w, int *y0, int *y1)
{
    *y0 = st->lo[w] - st->lo[st->v];
    *y1 = st->lo[vine__tree_end(st->k, w)] - st->lo[st->v];
}

/*
 * Sends every child at every stage its interval, the top stage first and the
 * largest subtree first in each, one per round: from the anchor's source
 * (from set), or from TMP at the child's offset from this rank's own
 * position.  A root that is a leaf below this rank gets nothing: it has its
 * block.
 */
static void send_children(const vine_args *a, vine_sched *s, const vine_levels_path *path,
                          const source *from)
{
    size_t c = a->count;
    for (int i = path->nstages - 1; i >= 0; i--) {
        const vine_levels_stage *st = &path->stage[i];
        for (int mask = vine__tree_span(st->k, st->v) / 2; mask > 0; mask /= 2) {
            int w = st->v + mask, y0, y1;
            if (w >= st->k)
                continue;
            child_range(st, w, &y0, &y1);
            if (st->rank[w] == a->root && y1 - y0 == 1)
                continue;
            int buf = VINE_BUF_TMP;
            size_t off = (size_t)y0;
            if (from && vine__levels_run(from->rank_at, y0, y1) == y1 - y0) {
                buf = from->sbuf;
                off = (size_t)from->rank_at[y0];
            } else if (from) {
                off = (size_t)(from->stage + y0);
            }
            vine__sched_send(s, st->rank[w], buf, off * c, (size_t)(y1 - y0) * c);
            vine__sched_fence(s);
        }
    }
}

/* Copies the runs of tree positions [y0, y1) from the source in rank order to its stage. */
static void stage_runs(vine_sched *s, const source *from, int y0, int y1, size_t c)
{
    vine__sched_need_tmp(s, (size_t)(from->stage + y1) * c);
    for (int y = y0, run; y < y1; y += run) {
        run = vine__levels_run(from->rank_at, y, y1);
        vine__sched_copy(s, from->sbuf, (size_t)from->rank_at[y] * c, VINE_BUF_TMP,
                         (size_t)(from->stage + y) * c, (size_t)run * c);
    }
}

/*
 * The anchor: its own block, the intervals to scatter that are not one range
 * of the rank-ordered source staged in TMP, then the sends.  An anchor that
 * is not the root first gets all p blocks from it.
 */
static int scatter_anchor(const vine_args *a, vine_sched *s, const vine_levels_path *path)
{
    int p = a->p, me = a->rank, at_root = me == a->root;
    size_t c = a->count;
    int *rank_at = malloc((size_t)p * sizeof *rank_at);
    if (!rank_at)
        return VINE_ERR_NO_MEM;
    vine__levels_tree_order(a->levels, me, rank_at);
    source from = {rank_at, at_root ? VINE_BUF_SEND : VINE_BUF_TMP, at_root ? 0 : p};
    if (!at_root) {
        vine__sched_need_tmp(s, (size_t)p * c);
        vine__sched_recv(s, a->root, VINE_BUF_TMP, 0, (size_t)p * c);
        vine__sched_fence(s);
    }
    if (!at_root || !a->inplace)
        vine__sched_copy(s, from.sbuf, (size_t)me * c, VINE_BUF_RECV, 0, c);
    for (int i = 0; i < path->nstages; i++) {
        const vine_levels_stage *st = &path->stage[i];
        for (int mask = vine__tree_span(st->k, st->v) / 2; mask > 0; mask /= 2) {
            int w = st->v + mask, y0, y1;
            if (w >= st->k)
                continue;
            child_range(st, w, &y0, &y1);
            if (vine__levels_run(rank_at, y0, y1) != y1 - y0)
                stage_runs(s, &from, y0, y1, c);
        }
    }
    vine__sched_fence(s);
    send_children(a, s, path, &from);
    free(rank_at);
    return VINE_OK;
}

/*
 * Every other rank: its interval from its parent (a leaf's block straight
 * into RECV), its own block, then its children's parts.  The root among them
 * first sends all p blocks to the anchor.
 */
static void scatter_down(const vine_args *a, vine_sched *s, const vine_levels_path *path,
                         int anchor)
{
    size_t c = a->count;
    const vine_levels_stage *st = &path->stage[path->nstages - 1];
    int me = a->rank, root = a->root;
    int parent = st->rank[st->v - vine__tree_span(st->k, st->v)];
    int nblocks = st->lo[vine__tree_end(st->k, st->v)] - st->lo[st->v];
    if (me == root) {
        vine__sched_send(s, anchor, VINE_BUF_SEND, 0, (size_t)a->p * c);
        vine__sched_fence(s);
        if (!a->inplace)
            vine__sched_copy(s, VINE_BUF_SEND, (size_t)root * c, VINE_BUF_RECV, 0, c);
        if (nblocks == 1)
            return;
    }
    if (nblocks == 1) {
        vine__sched_recv(s, parent, VINE_BUF_RECV, 0, c);
        return;
    }
    vine__sched_need_tmp(s, (size_t)nblocks * c);
    vine__sched_recv(s, parent, VINE_BUF_TMP, 0, (size_t)nblocks * c);
    if (me != root)
        vine__sched_copy(s, VINE_BUF_TMP, 0, VINE_BUF_RECV, 0, c);
    vine__sched_fence(s);
    send_children(a, s, path, NULL);
}

int vine__scatter_leader_build(const vine_args *a, vine_sched *s)
{
    const vine_levels *m = a->levels;
    int anchor = vine__levels_leader(m, 0, vine__levels_group(m, 0, a->root));
    vine_levels_path path;
    if (vine__levels_path(m, a->rank, anchor, &path) != VINE_OK)
        return VINE_ERR_NO_MEM;
    int rc = VINE_OK;
    if (a->rank == anchor)
        rc = scatter_anchor(a, s, &path);
    else
        scatter_down(a, s, &path, anchor);
    vine__levels_path_free(&path);
    return rc == VINE_OK ? vine__sched_finish(s) : rc;
}
