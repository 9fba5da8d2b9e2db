/*
 * Multiport frames on a torus (see phase_torus_mp.h).
 */
#include "phase_torus_mp.h"

#include "phase_bine.h"
#include "phase_bine_tree.h"
#include "phase_sub.h"
#include "ranks.h"

#include <stdlib.h>

int vine__torus_mp_parts(const vine_args *a, size_t count, int tree)
{
    const vine_levels *m = vine__levels_ready(a->levels, a->p) ? a->levels : NULL;
    vine_torus t;
    if (vine__torus_make(m, a->p, &t, NULL, 0) != VINE_OK)
        return 1; /* the one-part builder reports the error */
    return tree ? vine__torus_multiport_tree_parts(&t, m, count)
                : vine__torus_multiport_parts(&t, m, count);
}

int vine__torus_mp_run(const vine_args *a, vine_sched *s, int n, vine_mp_part_fn part)
{
    vine_sched *parts = calloc((size_t)n, sizeof *parts);
    if (!parts)
        return VINE_ERR_NO_MEM;
    for (int k = 0; k < n; k++) {
        vine__sched_init(&parts[k], a->p, a->rank);
        parts[k].msgs_only = s->msgs_only;
        parts[k].keep_rounds = 1;
    }
    int rc = VINE_OK;
    size_t tmp = 0;
    for (int k = 0; k < n && rc == VINE_OK; k++) {
        rc = part(a, &parts[k], k, n, tmp);
        if (rc == VINE_OK)
            rc = vine__sched_finish(&parts[k]);
        /* The next part's scratch starts where this one's ends. */
        tmp = parts[k].tmp_count > tmp ? parts[k].tmp_count : tmp;
    }
    if (rc == VINE_OK)
        rc = vine__sub_zip(s, parts, n);
    for (int k = 0; k < n; k++)
        vine__sched_free(&parts[k]);
    free(parts);
    return rc == VINE_OK ? vine__sched_finish(s) : rc;
}

/* ---- the trees: bcast and reduce ----------------------------------------- */

/* Whether the rank shares the root's coordinates at the view's positions after q. */
static int agree_after(const vine_tview *v, const int *root, int q)
{
    for (int e = q + 1; e < v->nact; e++)
        if (v->c[v->vd[e]] != root[v->vd[e]])
            return 0;
    return 1;
}

/*
 * The rank's place in the Bine tree of its line at position q, rooted at
 * the root's coordinate, mirrored for odd parts; loads the line into
 * v->line.  Returns the tree's steps, ceil(lg D).
 */
static int tree_node(vine_tview *v, int rank, const int *root, int q, int mirror,
                     vine_bine_node *node)
{
    int d = v->vd[q], n = v->vdim[q];
    vine__torus_line(&v->t, rank, d, v->line);
    long rel = mirror ? (long)root[d] - v->c[d] : (long)v->c[d] - root[d];
    vine__bine_tree_node(n, vine__mod(rel, n), node);
    return vine__ceil_log2(n);
}

/* The rank of relative rank u of the tree on the line in v->line (tree_node). */
static int tree_rank(const vine_tview *v, const int *root, int q, int mirror, int u)
{
    long root_c = root[v->vd[q]];
    return v->line[vine__mod(mirror ? root_c - u : root_c + u, v->vdim[q])];
}

/* A part's view and the root's coordinates; the part's range [*off, *off + *len). */
static int tree_view(const vine_args *a, int k, int n, vine_tview *v, int *root, size_t *off,
                     size_t *len)
{
    int rc = vine__tview_init_part(v, a, vine__torus_mp_first(k, n), 0, 0);
    if (rc != VINE_OK)
        return rc;
    vine__torus_coords(&v->t, a->root, root);
    *off = vine__block_off(a->count, n, k);
    *len = vine__block_off(a->count, n, k + 1) - *off;
    return VINE_OK;
}

/*
 * Part k of the bcast: stage q (positions in order) runs the Bine tree on
 * the lines along position q through the ranks that share the root's
 * coordinates after q; every rank fences once per step of every stage.
 */
static int bcast_part(const vine_args *a, vine_sched *s, int k, int n, size_t tmp_off)
{
    (void)tmp_off;
    vine_tview v;
    int root[VINE_TORUS_MAXD], mirror = k % 2;
    size_t off, len;
    int rc = tree_view(a, k, n, &v, root, &off, &len);
    if (rc != VINE_OK)
        return rc;
    for (int q = 0; q < v.nact; q++) {
        vine_bine_node node;
        int in = agree_after(&v, root, q), steps = vine__ceil_log2(v.vdim[q]);
        if (in)
            tree_node(&v, a->rank, root, q, mirror, &node);
        for (int t = 0; t < steps; t++) {
            if (in && node.recv_step == t)
                vine__sched_recv(s, tree_rank(&v, root, q, mirror, node.parent), VINE_BUF_RECV, off,
                                 len);
            for (int i = 0; in && i < node.nchild; i++)
                if (node.child[i].step == t)
                    vine__sched_send(s, tree_rank(&v, root, q, mirror, node.child[i].v),
                                     VINE_BUF_RECV, off, len);
            vine__sched_fence(s);
        }
    }
    vine__tview_free(&v);
    return s->err;
}

int vine__torus_mp_bcast(const vine_args *a, vine_sched *s)
{
    int n = vine__torus_mp_parts(a, a->count, 1);
    return n == 1 ? vine__bcast_bine_torus_build(a, s) : vine__torus_mp_run(a, s, n, bcast_part);
}

/* Where a reduce part's running result lies (cur) and accumulates (acc), as reduce bine. */
typedef struct red_state {
    vine_bufpos cur, acc;
    size_t spare, len; /* TMP offset where a later child's partial lands; the part's length */
} red_state;

/* Receives the partial of the child at rank src into the accumulator; returns the new cur. */
static vine_bufpos red_child(vine_sched *s, const red_state *r, int src)
{
    if (r->cur.buf == r->acc.buf && r->cur.off == r->acc.off) {
        vine__sched_need_tmp(s, r->spare + r->len);
        vine__sched_recv(s, src, VINE_BUF_TMP, r->spare, r->len);
        vine__sched_reduce(s, VINE_BUF_TMP, r->spare, r->acc.buf, r->acc.off, r->len,
                           VINE_SRC_RIGHT);
        return r->cur;
    }
    /* The first child lands in the accumulator; the running result joins it. */
    if (r->acc.buf == VINE_BUF_TMP)
        vine__sched_need_tmp(s, r->acc.off + r->len);
    vine__sched_recv(s, src, r->acc.buf, r->acc.off, r->len);
    vine__sched_reduce(s, r->cur.buf, r->cur.off, r->acc.buf, r->acc.off, r->len, VINE_SRC_LEFT);
    return r->acc;
}

/*
 * Part k of the reduce: the mirror of the bcast's, the stages from the last
 * position down, each tree's steps backwards (children first, then the
 * parent); ranks other than the root accumulate in TMP[tmp_off, +len) and
 * receive later children at TMP[tmp_off + len] (the root at TMP[tmp_off]).
 */
static int reduce_part(const vine_args *a, vine_sched *s, int k, int n, size_t tmp_off)
{
    vine_tview v;
    int root[VINE_TORUS_MAXD], mirror = k % 2, is_root = a->rank == a->root;
    size_t off, len;
    int rc = tree_view(a, k, n, &v, root, &off, &len);
    if (rc != VINE_OK)
        return rc;
    red_state r = {{is_root && a->inplace ? VINE_BUF_RECV : VINE_BUF_SEND, off},
                   {is_root ? VINE_BUF_RECV : VINE_BUF_TMP, is_root ? off : tmp_off},
                   is_root ? tmp_off : tmp_off + len,
                   len};
    for (int q = v.nact - 1; q >= 0; q--) {
        vine_bine_node node;
        int in = agree_after(&v, root, q), steps = vine__ceil_log2(v.vdim[q]);
        if (in)
            tree_node(&v, a->rank, root, q, mirror, &node);
        for (int t = steps - 1; t >= 0; t--) {
            for (int i = 0; in && i < node.nchild; i++)
                if (node.child[i].step == t)
                    r.cur = red_child(s, &r, tree_rank(&v, root, q, mirror, node.child[i].v));
            if (in && node.recv_step == t)
                vine__sched_send(s, tree_rank(&v, root, q, mirror, node.parent), r.cur.buf,
                                 r.cur.off, len);
            vine__sched_fence(s);
        }
    }
    if (is_root && (r.cur.buf != r.acc.buf || r.cur.off != r.acc.off))
        vine__sched_copy(s, r.cur.buf, r.cur.off, r.acc.buf, r.acc.off, len);
    vine__tview_free(&v);
    return s->err;
}

int vine__torus_mp_reduce(const vine_args *a, vine_sched *s)
{
    int n = vine__torus_mp_parts(a, a->count, 1);
    return n == 1 ? vine__reduce_bine_torus_build(a, s) : vine__torus_mp_run(a, s, n, reduce_part);
}

/* ---- the butterflies: reduce-scatter and allgather ----------------------- */

/*
 * at[i]: the rank of torus index i of view v (p entries).  Position q's
 * digit x of i is coordinate (nu^-1(x) + shift) mod D of its dimension; in
 * torus order (v->identity) the rank is the row-major index of those
 * coordinates, else the map's rank at them.  O(p nd) (plus the map's look-ups).
 */
static int view_ranks(const vine_tview *v, int *at)
{
    int off[VINE_TORUS_MAXD + 1] = {0};
    for (int q = 0; q < v->nact; q++)
        off[q + 1] = off[q] + v->vdim[q];
    int *coord = malloc(((size_t)off[v->nact] + 1) * sizeof *coord);
    if (!coord)
        return VINE_ERR_NO_MEM;
    for (int q = 0; q < v->nact; q++)
        for (int x = 0, d = v->vdim[q]; x < d; x++) {
            int lc = v->nu && vine__is_pow2(d) ? vine__bfly_nu_inv(x, d) : x;
            coord[off[q] + x] = (lc + v->shift) % d;
        }
    long stride[VINE_TORUS_MAXD];
    for (int d = v->t.nd - 1; d >= 0; d--)
        stride[d] = d == v->t.nd - 1 ? 1 : stride[d + 1] * v->t.dims[d + 1];
    for (long i = 0; i < v->t.p; i++) {
        int c[VINE_TORUS_MAXD] = {0};
        long r = 0;
        for (int q = 0; q < v->nact; q++) {
            c[v->vd[q]] = coord[off[q] + (int)(i / v->vstride[q] % v->vdim[q])];
            r += c[v->vd[q]] * stride[v->vd[q]];
        }
        at[i] = v->identity ? (int)r : vine__torus_rank(&v->t, c);
    }
    free(coord);
    return VINE_OK;
}

/*
 * Part k of n's view (nu order, lines shifted for odd k) and, unless want_at
 * is 0 (then *at is NULL), at[i]: its torus index i's rank.
 */
static int bfly_view(const vine_args *a, int k, int n, int want_at, vine_tview *v, int **at)
{
    *at = NULL;
    int rc = vine__tview_init_part(v, a, vine__torus_mp_first(k, n), k % 2, 1);
    if (rc != VINE_OK || !want_at)
        return rc;
    *at = malloc((size_t)a->p * sizeof **at);
    rc = *at ? view_ranks(v, *at) : VINE_ERR_NO_MEM;
    if (rc != VINE_OK) {
        free(*at);
        *at = NULL;
        vine__tview_free(v);
    }
    return rc;
}

/*
 * Part k of the reduce-scatter: slice k of every block copied into
 * TMP[tmp_off ...] in the part's torus order (one step), then the
 * reduce-scatter of allreduce bine_torus there, the rank's slice straight
 * into its place in RECV.
 */
static int rs_part(const vine_args *a, vine_sched *s, int k, int n, size_t tmp_off)
{
    vine_tview v;
    int *at, p = a->p, in_buf = a->inplace ? VINE_BUF_RECV : VINE_BUF_SEND;
    int rc = bfly_view(a, k, n, 1, &v, &at);
    if (rc != VINE_OK)
        return rc;
    size_t *lay = malloc(((size_t)p + 1) * sizeof *lay);
    if (lay)
        lay[0] = 0;
    else
        rc = VINE_ERR_NO_MEM;
    for (int i = 0; lay && i < p; i++) {
        size_t b = vine__block_off(a->counts[at[i]], n, k);
        lay[i + 1] = lay[i] + vine__block_off(a->counts[at[i]], n, k + 1) - b;
        vine__sched_copy(s, in_buf, a->displs[at[i]] + b, VINE_BUF_TMP, tmp_off + lay[i],
                         lay[i + 1] - lay[i]);
    }
    if (rc == VINE_OK) {
        vine__sched_need_tmp(s, tmp_off + lay[p]);
        vine__sched_fence(s);
        vine_tlayout l = {lay, 0};
        vine_bufpos in = {VINE_BUF_TMP, tmp_off};
        vine_bufpos out = {VINE_BUF_RECV, vine__block_off(a->counts[a->rank], n, k)};
        rc = vine__torus_rs(s, a, &v, vine__torus_rs_nu, &l, in, &out, tmp_off + lay[p], NULL);
    }
    free(lay);
    free(at);
    vine__tview_free(&v);
    return rc == VINE_OK ? s->err : rc;
}

int vine__torus_mp_reduce_scatter(const vine_args *a, vine_sched *s)
{
    int n = vine__torus_mp_parts(a, a->displs[a->p], 0);
    return n == 1 ? vine__reduce_scatter_bine_torus_build(a, s)
                  : vine__torus_mp_run(a, s, n, rs_part);
}

/*
 * Part k of the allgather: the allgather of allreduce bine_torus of every
 * rank's slice k into TMP[tmp_off ...] in the part's torus order, then one
 * step of copies into the slices' places in RECV.
 */
static int ag_part(const vine_args *a, vine_sched *s, int k, int n, size_t tmp_off)
{
    vine_tview v;
    int *at;
    /* Without local operations (the simulator) the copies, all at[] is for, are not kept. */
    int rc = bfly_view(a, k, n, !s->msgs_only, &v, &at);
    if (rc != VINE_OK)
        return rc;
    size_t c = a->count, b = vine__block_off(c, n, k), len = vine__block_off(c, n, k + 1) - b;
    size_t total = (size_t)a->p * len;
    vine_tlayout l = {NULL, total};
    vine_bufpos own = {a->inplace ? VINE_BUF_RECV : VINE_BUF_SEND,
                       a->inplace ? (size_t)a->rank * c + b : b};
    vine__sched_need_tmp(s, tmp_off + total);
    rc = vine__torus_ag(s, a, &v, vine__torus_ag_nu, &l, (vine_bufpos){VINE_BUF_TMP, tmp_off}, own,
                        tmp_off + total);
    vine__sched_fence(s);
    for (int i = 0; at && i < a->p; i++)
        if (!a->inplace || at[i] != a->rank)
            vine__sched_copy(s, VINE_BUF_TMP, tmp_off + (size_t)i * len, VINE_BUF_RECV,
                             (size_t)at[i] * c + b, len);
    free(at);
    vine__tview_free(&v);
    return rc == VINE_OK ? s->err : rc;
}

int vine__torus_mp_allgather(const vine_args *a, vine_sched *s)
{
    int n = vine__torus_mp_parts(a, (size_t)a->p * a->count, 0);
    return n == 1 ? vine__allgather_bine_torus_build(a, s) : vine__torus_mp_run(a, s, n, ag_part);
}
