/*
 * Hierarchical allgather on the level map of vine_args.levels, in three
 * parts: the blocks are gathered inside every group, level by level, to the
 * leaders of the top groups (binomial trees on the stages of
 * vine__levels_path towards rank 0, as gather leader does); the top leaders
 * exchange their groups' blocks by Bruck's dissemination (at distance d =
 * 1, 2, 4 ... a leader passes on the groups it holds, up to d of them), so
 * groups of any sizes mix; then every top leader broadcasts all p blocks
 * down its group, level by level, as bcast hier does.  The multi-level
 * scheme of papers/topology-aware-scatter-gather.txt, sections 3-4, applied
 * to an allgather.
 *
 * Blocks travel in the tree order towards rank 0 (levels.h): every group's
 * blocks, and every binomial subtree's, are one interval, and so is every
 * set of consecutive top groups up to a wrap past the last, so each message
 * is one range (two where the groups a Bruck step passes on wrap).  The
 * ranks keep the p blocks at their tree positions: in RECV when the tree
 * order is rank order (block maps), else in scratch, copied into RECV at the
 * end with one copy per run of consecutive ranks (random or cyclic maps).
 *
 * Restrictions: a level map with locality (VINE_ALGO_LEVELS); any p, group
 * sizes and count, in place or not.  Cost, n = count, k_s the participants
 * of rank 0's group at stage s (s < L = nlevels), R the top groups, P the
 * largest top group: gather sum_{s<L} ceil(log2 k_s) alpha_s with at most
 * P n beta_s per level; exchange ceil(log2 R) alpha_L + (p - P) n beta_L at
 * most; broadcast sum_{s<L} ceil(log2 k_s) (alpha_s + p n beta_s).  Only the
 * exchange crosses the top level: R ceil(log2 R) messages in all.  Scratch:
 * p n, none when the tree order is rank order.
 */
#include "../coll.h"
#include "../phase_tree.h"

#include <stdlib.h>

/* The state of one rank: where the p blocks live, and the tree order. */
typedef struct hag {
    vine_sched *s;
    size_t c;
    int p, me, top; /* top: the levels; a stage at level top is the exchange */
    int buf;        /* RECV when the tree order is rank order, else TMP */
    int *rank_at;   /* the tree order: the rank at position y */
    int *pos_of;    /* its inverse */
} hag;

/* The number of blocks in participant w's binomial subtree at stage st. */
static int subtree_blocks(const vine_levels_stage *st, int w)
{
    return st->lo[vine__tree_end(st->k, w)] - st->lo[w];
}

/* Sends or receives the interval of tree positions [y, y + nb) of the blocks. */
static void msg(const hag *h, int send, int peer, int y, int nb)
{
    if (send)
        vine__sched_send(h->s, peer, h->buf, (size_t)y * h->c, (size_t)nb * h->c);
    else
        vine__sched_recv(h->s, peer, h->buf, (size_t)y * h->c, (size_t)nb * h->c);
}

/*
 * Gathers the blocks of the rank's groups below the top at their tree
 * positions (all children of every stage in one round) and sends its
 * subtree's interval to its parent, a leaf straight from its input.  The
 * own block joins the others first.  Returns the parent, -1 at a top leader.
 */
static int gather_up(const hag *h, const vine_levels_path *path, vine_bufpos in)
{
    int last = path->nstages - 1, parent = -1, y = h->pos_of[h->me];
    const vine_levels_stage *up = &path->stage[last];
    if (up->level == h->top)
        up = last > 0 ? &path->stage[last - 1] : NULL;
    else
        parent = up->rank[up->v - vine__tree_span(up->k, up->v)];
    if (in.buf != h->buf || in.off != (size_t)y * h->c)
        vine__sched_copy(h->s, in.buf, in.off, h->buf, (size_t)y * h->c, h->c);
    int nb = up ? subtree_blocks(up, up->v) : 1;
    if (parent >= 0 && nb == 1) {
        vine__sched_send(h->s, parent, in.buf, in.off, h->c);
        vine__sched_fence(h->s);
        return parent;
    }
    for (int i = 0; i < path->nstages && path->stage[i].level < h->top; i++) {
        const vine_levels_stage *st = &path->stage[i];
        for (int mask = vine__tree_span(st->k, st->v) / 2; mask > 0; mask /= 2)
            if (st->v + mask < st->k)
                msg(h, 0, st->rank[st->v + mask], h->pos_of[st->rank[st->v + mask]],
                    subtree_blocks(st, st->v + mask));
    }
    vine__sched_fence(h->s);
    if (parent >= 0) {
        msg(h, 1, parent, y, nb);
        vine__sched_fence(h->s);
    }
    return parent;
}

/* Sends or receives top groups [g, g + n) modulo R, one range or two where they wrap. */
static void groups_msg(const hag *h, const vine_levels_stage *st, int send, int peer, int g, int n)
{
    int R = st->k, a = vine__mod(g, R);
    if (a + n <= R) {
        msg(h, send, peer, st->lo[a], st->lo[a + n] - st->lo[a]);
        return;
    }
    msg(h, send, peer, st->lo[a], st->lo[R] - st->lo[a]);
    msg(h, send, peer, st->lo[0], st->lo[a + n - R] - st->lo[0]);
}

/*
 * Bruck's dissemination among the R top leaders: after the step at distance
 * d, leader v holds the groups v .. v + 2d - 1 (mod R).  Blocks land at their
 * tree positions, so no rotation is needed at the end.
 */
static void exchange(const hag *h, const vine_levels_stage *st)
{
    int R = st->k, v = st->v;
    for (int d = 1; d < R; d *= 2) {
        int n = d < R - d ? d : R - d;
        groups_msg(h, st, 1, st->rank[vine__mod(v - d, R)], v, n);
        groups_msg(h, st, 0, st->rank[vine__mod(v + d, R)], v + d, n);
        vine__sched_fence(h->s);
    }
}

/* Broadcasts all p blocks down the stages below the top, the highest stage first. */
static void bcast_down(const hag *h, const vine_levels_path *path, int parent)
{
    if (parent >= 0) {
        msg(h, 0, parent, 0, h->p);
        vine__sched_fence(h->s);
    }
    for (int i = path->nstages - 1; i >= 0; i--) {
        const vine_levels_stage *st = &path->stage[i];
        if (st->level == h->top)
            continue;
        for (int mask = vine__tree_span(st->k, st->v) / 2; mask > 0; mask /= 2) {
            if (st->v + mask < st->k) {
                msg(h, 1, st->rank[st->v + mask], 0, h->p);
                vine__sched_fence(h->s);
            }
        }
    }
}

/* Puts the blocks from their tree positions in scratch into rank order in RECV. */
static void unpack(const hag *h)
{
    for (int y = 0, run; y < h->p; y += run) {
        run = vine__levels_run(h->rank_at, y, h->p);
        vine__sched_copy(h->s, VINE_BUF_TMP, (size_t)y * h->c, VINE_BUF_RECV,
                         (size_t)h->rank_at[y] * h->c, (size_t)run * h->c);
    }
}

static void run(hag *h, const vine_args *a, const vine_levels_path *path)
{
    vine_bufpos in = {VINE_BUF_SEND, 0};
    if (a->inplace)
        in = (vine_bufpos){VINE_BUF_RECV, (size_t)h->me * h->c};
    int parent = gather_up(h, path, in);
    if (parent < 0)
        exchange(h, &path->stage[path->nstages - 1]);
    bcast_down(h, path, parent);
    if (h->buf == VINE_BUF_TMP)
        unpack(h);
}

int vine__allgather_hier_build(const vine_args *a, vine_sched *s)
{
    const vine_levels *m = vine__args_levels(a);
    hag h = {s, a->count, a->p, a->rank, m->nlevels, VINE_BUF_RECV, NULL, NULL};
    h.rank_at = malloc(2 * (size_t)a->p * sizeof *h.rank_at);
    vine_levels_path path;
    if (!h.rank_at || vine__levels_path(m, a->rank, 0, &path) != VINE_OK) {
        free(h.rank_at);
        return VINE_ERR_NO_MEM;
    }
    h.pos_of = h.rank_at + a->p;
    vine__levels_tree_order(m, 0, h.rank_at);
    for (int y = 0; y < a->p; y++) {
        h.pos_of[h.rank_at[y]] = y;
        if (h.rank_at[y] != y)
            h.buf = VINE_BUF_TMP;
    }
    if (h.buf == VINE_BUF_TMP)
        vine__sched_need_tmp(s, (size_t)a->p * a->count);
    run(&h, a, &path);
    vine__levels_path_free(&path);
    free(h.rank_at);
    return vine__sched_finish(s);
}
