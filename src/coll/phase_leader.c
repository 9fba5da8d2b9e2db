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

/* ---- gather -------------------------------------------------------------- */

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
 * Posts the receives of every child at every stage: at the anchor (d set)
 * into their places in rank order, elsewhere into TMP from the base.
 */
static void recv_children(vine_sched *s, const lpath *lp, const dest *d, size_t c)
{
    for (int i = 0; i < lp->path.nstages; i++) {
        for (int j = 0; j < lp->t[i].nkid; j++) {
            int y0, y1, peer = child(lp, i, j, &y0, &y1);
            if (d)
                place_recv(s, peer, d, y0, y1, c);
            else
                vine__sched_recv(s, peer, VINE_BUF_TMP, (size_t)y0 * c, (size_t)(y1 - y0) * c);
        }
    }
}

/*
 * The anchor: every block into its place in rank order, in RECV at the root;
 * an anchor that is not the root builds the root's RECV in TMP and sends it.
 */
static int gather_anchor(const vine_args *a, vine_sched *s, const lpath *lp)
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
    recv_children(s, lp, &d, c);
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
 * Any other rank: collects its subtree's blocks, its own among them, and
 * sends them to its parent at its last stage, a leaf straight from its
 * input.  The root among them then gets all p blocks from the anchor.
 */
static void gather_up(const vine_args *a, vine_sched *s, const lpath *lp, int anchor)
{
    size_t c = a->count;
    int in = a->rank == a->root && a->inplace ? VINE_BUF_RECV : VINE_BUF_SEND;
    size_t in_off = in == VINE_BUF_RECV ? (size_t)a->root * c : 0;
    if (lp->nblocks == 1) {
        vine__sched_send(s, lp->parent, in, in_off, c);
    } else {
        vine__sched_need_tmp(s, (size_t)lp->nblocks * c);
        recv_children(s, lp, NULL, c);
        vine__sched_copy(s, in, in_off, VINE_BUF_TMP, (size_t)lp->own * c, c);
        vine__sched_fence(s);
        vine__sched_send(s, lp->parent, VINE_BUF_TMP, 0, (size_t)lp->nblocks * c);
    }
    if (a->rank == a->root) {
        vine__sched_fence(s);
        vine__sched_recv(s, anchor, VINE_BUF_RECV, 0, (size_t)a->p * c);
    }
}

/* The anchor's part and every other rank's, of a gather or a scatter. */
typedef int (*anchor_fn)(const vine_args *a, vine_sched *s, const lpath *lp);
typedef void (*other_fn)(const vine_args *a, vine_sched *s, const lpath *lp, int anchor);

/* Builds a->rank's side of the leader tree with the given tree kind at every stage. */
static int leader_run(const vine_args *a, vine_sched *s, int tree, anchor_fn at_anchor,
                      other_fn elsewhere)
{
    int anchor = anchor_of(a);
    lpath lp;
    if (lpath_init(&lp, a->levels, a->rank, anchor, tree) != VINE_OK)
        return VINE_ERR_NO_MEM;
    int rc = VINE_OK;
    if (a->rank == anchor)
        rc = at_anchor(a, s, &lp);
    else
        elsewhere(a, s, &lp, anchor);
    vine__levels_path_free(&lp.path);
    return rc == VINE_OK ? vine__sched_finish(s) : rc;
}

int vine__leader_gather(const vine_args *a, vine_sched *s, int tree)
{
    return leader_run(a, s, tree, gather_anchor, gather_up);
}

/* ---- scatter ------------------------------------------------------------- */

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

/*
 * Sends every child at every stage its interval, the top stage first and the
 * largest subtree first in each, one per round: from the anchor's source
 * (from set), or from TMP from the base.  A root that is a leaf below this
 * rank gets nothing: it has its block.
 */
static void send_children(const vine_args *a, vine_sched *s, const lpath *lp, const source *from)
{
    size_t c = a->count;
    for (int i = lp->path.nstages - 1; i >= 0; i--) {
        for (int j = 0; j < lp->t[i].nkid; j++) {
            int y0, y1, peer = child(lp, i, j, &y0, &y1);
            if (peer == a->root && y1 - y0 == 1)
                continue;
            int buf = VINE_BUF_TMP;
            size_t off = (size_t)y0;
            if (from && vine__levels_run(from->rank_at, y0, y1) == y1 - y0) {
                buf = from->sbuf;
                off = (size_t)from->rank_at[y0];
            } else if (from) {
                off = (size_t)(from->stage + y0);
            }
            vine__sched_send(s, peer, buf, off * c, (size_t)(y1 - y0) * c);
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
static int scatter_anchor(const vine_args *a, vine_sched *s, const lpath *lp)
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
    for (int i = 0; i < lp->path.nstages; i++) {
        for (int j = 0; j < lp->t[i].nkid; j++) {
            int y0, y1;
            child(lp, i, j, &y0, &y1);
            if (vine__levels_run(rank_at, y0, y1) != y1 - y0)
                stage_runs(s, &from, y0, y1, c);
        }
    }
    vine__sched_fence(s);
    send_children(a, s, lp, &from);
    free(rank_at);
    return VINE_OK;
}

/*
 * Every other rank: its subtree's blocks from its parent (a leaf's straight
 * into RECV), its own block, then its children's parts.  The root among them
 * first sends all p blocks to the anchor.
 */
static void scatter_down(const vine_args *a, vine_sched *s, const lpath *lp, int anchor)
{
    size_t c = a->count;
    int me = a->rank, root = a->root;
    if (me == root) {
        vine__sched_send(s, anchor, VINE_BUF_SEND, 0, (size_t)a->p * c);
        vine__sched_fence(s);
        if (!a->inplace)
            vine__sched_copy(s, VINE_BUF_SEND, (size_t)root * c, VINE_BUF_RECV, 0, c);
        if (lp->nblocks == 1)
            return;
    }
    if (lp->nblocks == 1) {
        vine__sched_recv(s, lp->parent, VINE_BUF_RECV, 0, c);
        return;
    }
    vine__sched_need_tmp(s, (size_t)lp->nblocks * c);
    vine__sched_recv(s, lp->parent, VINE_BUF_TMP, 0, (size_t)lp->nblocks * c);
    if (me != root)
        vine__sched_copy(s, VINE_BUF_TMP, (size_t)lp->own * c, VINE_BUF_RECV, 0, c);
    vine__sched_fence(s);
    send_children(a, s, lp, NULL);
}

int vine__leader_scatter(const vine_args *a, vine_sched *s, int tree)
{
    return leader_run(a, s, tree, scatter_anchor, scatter_down);
}
