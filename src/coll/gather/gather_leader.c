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
 * Restrictions: a level map with locality (VINE_ALGO_LEVELS); any p, root
 * and count.  Cost: with k_s participants in the root's group at stage s,
 * sum_s ceil(log2 k_s) alpha_s start-ups on the critical path and
 * (p - 1) count beta at the root, of which only the blocks from other top
 * groups cross the top level, once each; plus alpha_0 + p count beta_0 when
 * the root is not its node's leader.  Scratch: a leader holds its group's
 * blocks; the anchor p count when it is not the root.
 */
#include "../coll.h"
#include "../phase_tree.h"

#include <stdlib.h>

/*
 * Where the anchor puts the blocks: rank order in dbuf (RECV at the root,
 * TMP[0, p count) at an anchor that is not the root), through TMP from block
 * stage on for intervals whose ranks are not consecutive.
 */
typedef struct dest {
    const int *rank_at;
    int dbuf;
    int stage;
} dest;

/* Receives tree positions [y0, y1) from peer into their places in rank order. */
static void place_recv(vine_sched *s, int peer, const dest *d, int y0, int y1, size_t c)
{
    const int *rank_at = d->rank_at;
    if (vine__levels_run(rank_at, y0, y1) == y1 - y0) {
        vine__sched_recv(s, peer, d->dbuf, (size_t)rank_at[y0] * c, (size_t)(y1 - y0) * c);
        return;
    }
    size_t at = (size_t)(d->stage + y0) * c;
    vine__sched_need_tmp(s, (size_t)(d->stage + y1) * c);
    vine__sched_recv(s, peer, VINE_BUF_TMP, at, (size_t)(y1 - y0) * c);
    for (int y = y0, run; y < y1; y += run) {
        run = vine__levels_run(rank_at, y, y1);
        vine__sched_copy(s, VINE_BUF_TMP, at + (size_t)(y - y0) * c, d->dbuf,
                         (size_t)rank_at[y] * c, (size_t)run * c);
    }
}

/*
 * Posts the receives of every child at every stage of path: at the anchor
 * (d set) into their places in rank order, elsewhere into TMP at their
 * offsets from this rank's own position.
 */
static void recv_children(vine_sched *s, const vine_levels_path *path, const dest *d, size_t c)
{
    for (int i = 0; i < path->nstages; i++) {
        const vine_levels_stage *st = &path->stage[i];
        for (int mask = vine__tree_span(st->k, st->v) / 2; mask > 0; mask /= 2) {
            int w = st->v + mask;
            if (w >= st->k)
                continue;
            int y0 = st->lo[w] - st->lo[st->v];
            int y1 = st->lo[vine__tree_end(st->k, w)] - st->lo[st->v];
            if (d)
                place_recv(s, st->rank[w], d, y0, y1, c);
            else
                vine__sched_recv(s, st->rank[w], VINE_BUF_TMP, (size_t)y0 * c,
                                 (size_t)(y1 - y0) * c);
        }
    }
}

/*
 * The anchor: every block into its place in rank order, in RECV at the root;
 * an anchor that is not the root builds the root's RECV in TMP and sends it.
 */
static int gather_anchor(const vine_args *a, vine_sched *s, const vine_levels_path *path)
{
    int p = a->p, me = a->rank, at_root = me == a->root;
    size_t c = a->count;
    int *rank_at = malloc((size_t)p * sizeof *rank_at);
    if (!rank_at)
        return VINE_ERR_NO_MEM;
    vine__levels_tree_order(a->levels, me, rank_at);
    dest d = {rank_at, at_root ? VINE_BUF_RECV : VINE_BUF_TMP, at_root ? 0 : p};
    if (!at_root)
        vine__sched_need_tmp(s, (size_t)p * c);
    recv_children(s, path, &d, c);
    if (!at_root || !a->inplace)
        vine__sched_copy(s, VINE_BUF_SEND, 0, d.dbuf, (size_t)me * c, c);
    if (!at_root) {
        vine__sched_fence(s);
        vine__sched_send(s, a->root, VINE_BUF_TMP, 0, (size_t)p * c);
    }
    free(rank_at);
    return VINE_OK;
}

/*
 * Any other rank: collects its children's intervals after its own block and
 * sends them to its parent at its last stage, a leaf straight from its input.
 * The root among them then gets all p blocks from the anchor, in rank order.
 */
static void gather_up(const vine_args *a, vine_sched *s, const vine_levels_path *path, int anchor)
{
    size_t c = a->count;
    const vine_levels_stage *st = &path->stage[path->nstages - 1];
    int parent = st->rank[st->v - vine__tree_span(st->k, st->v)];
    int nblocks = st->lo[vine__tree_end(st->k, st->v)] - st->lo[st->v];
    int in = a->rank == a->root && a->inplace ? VINE_BUF_RECV : VINE_BUF_SEND;
    size_t in_off = in == VINE_BUF_RECV ? (size_t)a->root * c : 0;
    if (nblocks == 1) {
        vine__sched_send(s, parent, in, in_off, c);
    } else {
        vine__sched_need_tmp(s, (size_t)nblocks * c);
        recv_children(s, path, NULL, c);
        vine__sched_copy(s, in, in_off, VINE_BUF_TMP, 0, c);
        vine__sched_fence(s);
        vine__sched_send(s, parent, VINE_BUF_TMP, 0, (size_t)nblocks * c);
    }
    if (a->rank == a->root) {
        vine__sched_fence(s);
        vine__sched_recv(s, anchor, VINE_BUF_RECV, 0, (size_t)a->p * c);
    }
}

int vine__gather_leader_build(const vine_args *a, vine_sched *s)
{
    const vine_levels *m = a->levels;
    int anchor = vine__levels_leader(m, 0, vine__levels_group(m, 0, a->root));
    vine_levels_path path;
    if (vine__levels_path(m, a->rank, anchor, &path) != VINE_OK)
        return VINE_ERR_NO_MEM;
    int rc = VINE_OK;
    if (a->rank == anchor)
        rc = gather_anchor(a, s, &path);
    else
        gather_up(a, s, &path, anchor);
    vine__levels_path_free(&path);
    return rc == VINE_OK ? vine__sched_finish(s) : rc;
}
