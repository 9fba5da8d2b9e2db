/*
 * Leader-based hierarchical gather and scatter (see phase_leader.h; the
 * algorithms are described in gather/gather_leader.c and
 * scatter/scatter_leader.c).
 */
#include "phase_leader.h"

#include "phase_bine_tree.h"
#include "phase_tree.h"

#include <stdlib.h>

/* A child in a stage's tree: its relative index w and its subtree [a, b) of relative indices. */
typedef struct kid {
    int w, a, b;
} kid;

/* A rank's place in a stage's tree: its parent (-1 at the target), subtree and children. */
typedef struct stage_tree {
    int parent, a, b, nkid;
    kid kid[VINE_BINE_TREE_MAXCHILD]; /* in send order: the largest subtree first */
} stage_tree;

static void binomial_tree(const vine_levels_stage *st, stage_tree *t)
{
    int k = st->k, v = st->v, span = vine__tree_span(k, v);
    t->parent = v ? v - span : -1;
    t->a = v;
    t->b = vine__tree_end(k, v);
    t->nkid = 0;
    for (int mask = span / 2; mask > 0; mask /= 2)
        if (v + mask < k)
            t->kid[t->nkid++] = (kid){v + mask, v + mask, vine__tree_end(k, v + mask)};
}

/* The relative indices [*a, *b) of the Bine values [lo, hi], which do not hold 0. */
static void bine_range(int k, long lo, long hi, int *a, int *b)
{
    long shift = lo < 0 ? k : 0;
    *a = (int)(lo + shift);
    *b = (int)(hi + shift + 1);
}

static void bine_tree(const vine_levels_stage *st, stage_tree *t)
{
    vine_bine_node node;
    vine__bine_tree_node(st->k, st->v, &node);
    t->parent = node.parent;
    t->a = 0;
    t->b = st->k;
    if (st->v)
        bine_range(st->k, node.lo, node.hi, &t->a, &t->b);
    t->nkid = node.nchild;
    for (int i = 0; i < node.nchild; i++) {
        t->kid[i].w = node.child[i].v;
        bine_range(st->k, node.child[i].lo, node.child[i].hi, &t->kid[i].a, &t->kid[i].b);
    }
}

/*
 * One rank's stages with their trees.  The rank keeps its blocks from the
 * start of its subtree at its last stage on (its base): stage i's group
 * starts at shift[i] from there.
 */
typedef struct lpath {
    vine_levels_path path;
    stage_tree t[VINE_LEVELS_MAX + 1];
    int shift[VINE_LEVELS_MAX + 1];
    int parent;  /* the parent at the last stage (a rank), -1 at the anchor */
    int nblocks; /* the blocks of its subtree there */
    int own;     /* its own block's position from the base */
} lpath;

static int lpath_init(lpath *lp, const vine_levels *m, int rank, int anchor, int tree)
{
    if (vine__levels_path(m, rank, anchor, &lp->path) != VINE_OK)
        return VINE_ERR_NO_MEM;
    int last = lp->path.nstages - 1;
    for (int i = 0; i <= last; i++) {
        if (tree == VINE_LEADER_BINE)
            bine_tree(&lp->path.stage[i], &lp->t[i]);
        else
            binomial_tree(&lp->path.stage[i], &lp->t[i]);
    }
    const vine_levels_stage *top = &lp->path.stage[last];
    const stage_tree *tt = &lp->t[last];
    /* Below its last stage the rank is the target, and its group is its participant there. */
    lp->shift[last] = -top->lo[tt->a];
    for (int i = last - 1; i >= 0; i--)
        lp->shift[i] = lp->shift[i + 1] + lp->path.stage[i + 1].lo[lp->path.stage[i + 1].v];
    lp->parent = tt->parent < 0 ? -1 : top->rank[tt->parent];
    lp->nblocks = top->lo[tt->b] - top->lo[tt->a];
    lp->own = lp->shift[0] + lp->path.stage[0].lo[lp->path.stage[0].v];
    return VINE_OK;
}

/* Child j of stage i: its rank and its blocks [*y0, *y1) from the base. */
static int child(const lpath *lp, int i, int j, int *y0, int *y1)
{
    const vine_levels_stage *st = &lp->path.stage[i];
    const kid *kd = &lp->t[i].kid[j];
    *y0 = lp->shift[i] + st->lo[kd->a];
    *y1 = lp->shift[i] + st->lo[kd->b];
    return st->rank[kd->w];
}

static int anchor_of(const vine_args *a)
{
    const vine_levels *m = a->levels;
    return vine__levels_leader(m, 0, vine__levels_group(m, 0, a->root));
}

/*
 * Where the blocks lie.  Equal blocks (cnt NULL): c elements each, rank r's
 * at r c in rank order and position y's at y c from the base.  Irregular
 * blocks (the v variants): rank r's of cnt[r] elements at disp[r] in rank
 * order (the prefix sums of the counts), position y's at pre[base + y] -
 * pre[base] from the base (pre: the prefix sums in the tree order).
 * rank_at is the tree order of the anchor, at the anchor always and at
 * every rank for irregular blocks.
 */
typedef struct blocks {
    size_t c;
    const size_t *cnt;
    size_t *disp, *pre; /* p + 1 each (irregular blocks) */
    int *rank_at;
    int base;
    int p;
} blocks;

/* The elements of tree positions [y0, y1) from the base. */
static size_t span(const blocks *b, int y0, int y1)
{
    if (!b->cnt)
        return (size_t)(y1 - y0) * b->c;
    return b->pre[b->base + y1] - b->pre[b->base + y0];
}

/* Where tree position y starts, from the base. */
static size_t at_pos(const blocks *b, int y)
{
    return span(b, 0, y);
}

/* Where rank r's block starts in rank order, and its length. */
static size_t rank_off(const blocks *b, int r)
{
    return b->cnt ? b->disp[r] : (size_t)r * b->c;
}

static size_t own_len(const blocks *b, int r)
{
    return b->cnt ? b->cnt[r] : b->c;
}

/* All p blocks. */
static size_t all_blocks(const blocks *b)
{
    return rank_off(b, b->p);
}

static void blocks_free(blocks *b)
{
    free(b->rank_at);
    free(b->disp);
    free(b->pre);
}

/*
 * Sets up *b for a->rank with its path lp: the tree order at the anchor,
 * and for irregular blocks (counts) the prefix sums and the rank's base.
 */
static int blocks_init(blocks *b, const vine_args *a, const lpath *lp, int anchor,
                       const size_t *counts)
{
    int p = a->p, me = a->rank;
    *b = (blocks){.c = a->count, .cnt = counts, .p = p};
    if (me != anchor && !counts)
        return VINE_OK;
    b->rank_at = malloc((size_t)p * sizeof *b->rank_at);
    if (counts) {
        b->disp = malloc(((size_t)p + 1) * sizeof *b->disp);
        b->pre = malloc(((size_t)p + 1) * sizeof *b->pre);
    }
    if (!b->rank_at || (counts && (!b->disp || !b->pre)))
        return VINE_ERR_NO_MEM;
    vine__levels_tree_order(a->levels, anchor, b->rank_at);
    if (!counts)
        return VINE_OK;
    b->disp[0] = b->pre[0] = 0;
    for (int r = 0; r < p; r++) {
        b->disp[r + 1] = b->disp[r] + counts[r];
        b->pre[r + 1] = b->pre[r] + counts[b->rank_at[r]];
        if (b->rank_at[r] == me)
            b->base = r - lp->own;
    }
    return VINE_OK;
}

/* ---- gather -------------------------------------------------------------- */

/*
 * Where the anchor puts the blocks: rank order in dbuf (RECV at the root,
 * TMP[0, all) at an anchor that is not the root), through TMP from element
 * stage on for intervals whose ranks are not consecutive.
 */
typedef struct dest {
    const blocks *b;
    int dbuf;
    size_t stage;
} dest;

/* Receives tree positions [y0, y1) from peer into their places in rank order. */
static void place_recv(vine_sched *s, int peer, const dest *d, int y0, int y1)
{
    const blocks *b = d->b;
    const int *rank_at = b->rank_at;
    if (vine__levels_run(rank_at, y0, y1) == y1 - y0) {
        vine__sched_recv(s, peer, d->dbuf, rank_off(b, rank_at[y0]), span(b, y0, y1));
        return;
    }
    size_t at = d->stage + at_pos(b, y0);
    vine__sched_need_tmp(s, d->stage + at_pos(b, y1));
    vine__sched_recv(s, peer, VINE_BUF_TMP, at, span(b, y0, y1));
    for (int y = y0, run; y < y1; y += run) {
        run = vine__levels_run(rank_at, y, y1);
        vine__sched_copy(s, VINE_BUF_TMP, at + span(b, y0, y), d->dbuf, rank_off(b, rank_at[y]),
                         span(b, y, y + run));
    }
}

/*
 * Posts the receives of every child at every stage: at the anchor (d set)
 * into their places in rank order, elsewhere into TMP from the base.
 */
static void recv_children(vine_sched *s, const lpath *lp, const blocks *b, const dest *d)
{
    for (int i = 0; i < lp->path.nstages; i++) {
        for (int j = 0; j < lp->t[i].nkid; j++) {
            int y0, y1, peer = child(lp, i, j, &y0, &y1);
            if (d)
                place_recv(s, peer, d, y0, y1);
            else
                vine__sched_recv(s, peer, VINE_BUF_TMP, at_pos(b, y0), span(b, y0, y1));
        }
    }
}

/*
 * The anchor: every block into its place in rank order, in RECV at the root;
 * an anchor that is not the root builds the root's RECV in TMP and sends it.
 */
static int gather_anchor(const vine_args *a, vine_sched *s, const lpath *lp, const blocks *b)
{
    int me = a->rank, at_root = me == a->root;
    size_t all = all_blocks(b);
    dest d = {b, at_root ? VINE_BUF_RECV : VINE_BUF_TMP, at_root ? 0 : all};
    if (!at_root)
        vine__sched_need_tmp(s, all);
    recv_children(s, lp, b, &d);
    if (!at_root || !a->inplace)
        vine__sched_copy(s, VINE_BUF_SEND, 0, d.dbuf, rank_off(b, me), own_len(b, me));
    if (!at_root) {
        vine__sched_fence(s);
        vine__sched_send(s, a->root, VINE_BUF_TMP, 0, all);
    }
    return VINE_OK;
}

/*
 * Any other rank: collects its subtree's blocks, its own among them, and
 * sends them to its parent at its last stage, a leaf straight from its
 * input.  The root among them then gets all p blocks from the anchor.
 */
static void gather_up(const vine_args *a, vine_sched *s, const lpath *lp, const blocks *b,
                      int anchor)
{
    int me = a->rank;
    int in = me == a->root && a->inplace ? VINE_BUF_RECV : VINE_BUF_SEND;
    size_t in_off = in == VINE_BUF_RECV ? rank_off(b, a->root) : 0;
    if (lp->nblocks == 1) {
        vine__sched_send(s, lp->parent, in, in_off, own_len(b, me));
    } else {
        vine__sched_need_tmp(s, span(b, 0, lp->nblocks));
        recv_children(s, lp, b, NULL);
        vine__sched_copy(s, in, in_off, VINE_BUF_TMP, at_pos(b, lp->own), own_len(b, me));
        vine__sched_fence(s);
        vine__sched_send(s, lp->parent, VINE_BUF_TMP, 0, span(b, 0, lp->nblocks));
    }
    if (me == a->root) {
        vine__sched_fence(s);
        vine__sched_recv(s, anchor, VINE_BUF_RECV, 0, all_blocks(b));
    }
}

/* The anchor's part and every other rank's, of a gather or a scatter. */
typedef int (*anchor_fn)(const vine_args *a, vine_sched *s, const lpath *lp, const blocks *b);
typedef void (*other_fn)(const vine_args *a, vine_sched *s, const lpath *lp, const blocks *b,
                         int anchor);

/*
 * Builds a->rank's side of the leader tree with the given tree kind at
 * every stage, blocks of a->count elements, or of counts[r] for rank r.
 */
static int leader_run(const vine_args *a, vine_sched *s, int tree, const size_t *counts,
                      anchor_fn at_anchor, other_fn elsewhere)
{
    int anchor = anchor_of(a);
    lpath lp;
    if (lpath_init(&lp, a->levels, a->rank, anchor, tree) != VINE_OK)
        return VINE_ERR_NO_MEM;
    blocks b;
    int rc = blocks_init(&b, a, &lp, anchor, counts);
    if (rc == VINE_OK && a->rank == anchor)
        rc = at_anchor(a, s, &lp, &b);
    else if (rc == VINE_OK)
        elsewhere(a, s, &lp, &b, anchor);
    blocks_free(&b);
    vine__levels_path_free(&lp.path);
    return rc == VINE_OK ? vine__sched_finish(s) : rc;
}

int vine__leader_gather(const vine_args *a, vine_sched *s, int tree)
{
    return leader_run(a, s, tree, NULL, gather_anchor, gather_up);
}

int vine__leader_gatherv(const vine_args *a, vine_sched *s, int tree)
{
    if (!a->counts)
        return VINE_ERR_INTERNAL;
    return leader_run(a, s, tree, a->counts, gather_anchor, gather_up);
}

/* ---- scatter ------------------------------------------------------------- */

/*
 * Where the anchor takes the blocks from: rank order in sbuf (SEND at the
 * root, TMP[0, all) at an anchor that is not the root), or, for intervals
 * whose ranks are not consecutive, TMP from element stage on, where
 * stage_runs() puts them.
 */
typedef struct source {
    const blocks *b;
    int sbuf;
    size_t stage;
} source;

/*
 * Sends every child at every stage its interval, the top stage first and the
 * largest subtree first in each, one per round: from the anchor's source
 * (from set), or from TMP from the base.  A root that is a leaf below this
 * rank gets nothing: it has its block.
 */
static void send_children(const vine_args *a, vine_sched *s, const lpath *lp, const blocks *b,
                          const source *from)
{
    for (int i = lp->path.nstages - 1; i >= 0; i--) {
        for (int j = 0; j < lp->t[i].nkid; j++) {
            int y0, y1, peer = child(lp, i, j, &y0, &y1);
            if (peer == a->root && y1 - y0 == 1)
                continue;
            int buf = VINE_BUF_TMP;
            size_t off = at_pos(b, y0);
            if (from && vine__levels_run(b->rank_at, y0, y1) == y1 - y0) {
                buf = from->sbuf;
                off = rank_off(b, b->rank_at[y0]);
            } else if (from) {
                off += from->stage;
            }
            vine__sched_send(s, peer, buf, off, span(b, y0, y1));
            vine__sched_fence(s);
        }
    }
}

/* Copies the runs of tree positions [y0, y1) from the source in rank order to its stage. */
static void stage_runs(vine_sched *s, const source *from, int y0, int y1)
{
    const blocks *b = from->b;
    vine__sched_need_tmp(s, from->stage + at_pos(b, y1));
    for (int y = y0, run; y < y1; y += run) {
        run = vine__levels_run(b->rank_at, y, y1);
        vine__sched_copy(s, from->sbuf, rank_off(b, b->rank_at[y]), VINE_BUF_TMP,
                         from->stage + at_pos(b, y), span(b, y, y + run));
    }
}

/*
 * The anchor: its own block, the intervals to scatter that are not one range
 * of the rank-ordered source staged in TMP, then the sends.  An anchor that
 * is not the root first gets all p blocks from it.
 */
static int scatter_anchor(const vine_args *a, vine_sched *s, const lpath *lp, const blocks *b)
{
    int me = a->rank, at_root = me == a->root;
    size_t all = all_blocks(b);
    source from = {b, at_root ? VINE_BUF_SEND : VINE_BUF_TMP, at_root ? 0 : all};
    if (!at_root) {
        vine__sched_need_tmp(s, all);
        vine__sched_recv(s, a->root, VINE_BUF_TMP, 0, all);
        vine__sched_fence(s);
    }
    if (!at_root || !a->inplace)
        vine__sched_copy(s, from.sbuf, rank_off(b, me), VINE_BUF_RECV, 0, own_len(b, me));
    for (int i = 0; i < lp->path.nstages; i++) {
        for (int j = 0; j < lp->t[i].nkid; j++) {
            int y0, y1;
            child(lp, i, j, &y0, &y1);
            if (vine__levels_run(b->rank_at, y0, y1) != y1 - y0)
                stage_runs(s, &from, y0, y1);
        }
    }
    vine__sched_fence(s);
    send_children(a, s, lp, b, &from);
    return VINE_OK;
}

/*
 * Every other rank: its subtree's blocks from its parent (a leaf's straight
 * into RECV), its own block, then its children's parts.  The root among them
 * first sends all p blocks to the anchor.
 */
static void scatter_down(const vine_args *a, vine_sched *s, const lpath *lp, const blocks *b,
                         int anchor)
{
    int me = a->rank, root = a->root;
    size_t mine = own_len(b, me), sub = span(b, 0, lp->nblocks);
    if (me == root) {
        vine__sched_send(s, anchor, VINE_BUF_SEND, 0, all_blocks(b));
        vine__sched_fence(s);
        if (!a->inplace)
            vine__sched_copy(s, VINE_BUF_SEND, rank_off(b, root), VINE_BUF_RECV, 0, mine);
        if (lp->nblocks == 1)
            return;
    }
    if (lp->nblocks == 1) {
        vine__sched_recv(s, lp->parent, VINE_BUF_RECV, 0, mine);
        return;
    }
    vine__sched_need_tmp(s, sub);
    vine__sched_recv(s, lp->parent, VINE_BUF_TMP, 0, sub);
    if (me != root)
        vine__sched_copy(s, VINE_BUF_TMP, at_pos(b, lp->own), VINE_BUF_RECV, 0, mine);
    vine__sched_fence(s);
    send_children(a, s, lp, b, NULL);
}

int vine__leader_scatter(const vine_args *a, vine_sched *s, int tree)
{
    return leader_run(a, s, tree, NULL, scatter_anchor, scatter_down);
}

int vine__leader_scatterv(const vine_args *a, vine_sched *s, int tree)
{
    if (!a->counts)
        return VINE_ERR_INTERNAL;
    return leader_run(a, s, tree, a->counts, scatter_anchor, scatter_down);
}
