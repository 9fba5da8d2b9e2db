/*
 * The torus frame (see phase_torus.h).  Every stage is a flat builder run
 * on the ranks of one line (vine__torus_line) as a virtual communicator:
 * virtual rank j is the rank of coordinate j, so a ring's neighbours and a
 * Bine butterfly's partners are the rank's neighbours along the dimension.
 */
#include "phase_torus.h"

#include "bine.h"
#include "phase_bine.h"
#include "phase_sub.h"
#include "ranks.h"

#include <stdlib.h>
#include <string.h>

/* The view's positions: the active dimensions from the first-th on, lines shifted by shift. */
static void set_positions(vine_tview *v, int first, int shift, int nu)
{
    v->shift = shift;
    v->nu = nu;
    for (int k = 0; k < v->nact; k++) {
        int d = v->act[(first + k) % v->nact], n = v->t.dims[d];
        v->vd[k] = d;
        v->vdim[k] = n;
        v->lc[k] = (v->c[d] - shift + n) % n;
        v->vc[k] = nu && vine__is_pow2(n) ? (int)vine__bine_nu(v->lc[k], n) : v->lc[k];
    }
    long stride = 1;
    v->self = 0;
    for (int k = v->nact - 1; k >= 0; k--) {
        v->vstride[k] = stride;
        v->self += v->vc[k] * stride;
        stride *= v->vdim[k];
    }
}

int vine__tview_init_part(vine_tview *v, const vine_args *a, int first, int shift, int nu)
{
    memset(v, 0, sizeof *v);
    const vine_levels *m = vine__levels_ready(a->levels, a->p) ? a->levels : NULL;
    int rc = vine__torus_make(m, a->p, &v->t, NULL, 0);
    if (rc != VINE_OK)
        return rc;
    vine__torus_coords(&v->t, a->rank, v->c);
    int maxd = 1;
    for (int d = 0; d < v->t.nd; d++) {
        maxd = v->t.dims[d] > maxd ? v->t.dims[d] : maxd;
        if (v->t.dims[d] > 1)
            v->act[v->nact++] = d;
    }
    set_positions(v, v->nact ? first % v->nact : 0, shift, nu);
    v->at = v->t.m ? vine__levels_block(v->t.m) : NULL;
    v->identity = !v->t.m || !v->t.m->reordered;
    v->line = malloc((size_t)maxd * sizeof *v->line);
    v->line2 = malloc((size_t)maxd * sizeof *v->line2);
    v->cnt = malloc(((size_t)maxd + 1) * sizeof *v->cnt);
    v->dsp = malloc(((size_t)maxd + 1) * sizeof *v->dsp);
    if (!v->line || !v->line2 || !v->cnt || !v->dsp) {
        vine__tview_free(v);
        return VINE_ERR_NO_MEM;
    }
    return VINE_OK;
}

int vine__tview_init(vine_tview *v, const vine_args *a)
{
    return vine__tview_init_part(v, a, 0, 0, 0);
}

void vine__tview_free(vine_tview *v)
{
    free(v->line);
    free(v->line2);
    free(v->cnt);
    free(v->dsp);
    v->line = v->line2 = NULL;
    v->cnt = v->dsp = NULL;
}

static size_t lay_off(const vine_tlayout *lay, int p, long i)
{
    return lay->displs ? lay->displs[i] : vine__block_off(lay->total, p, (int)i);
}

static int same_pos(vine_bufpos x, vine_bufpos y)
{
    return x.buf == y.buf && x.off == y.off;
}

static vine_bufpos at_off(vine_bufpos x, size_t off)
{
    return (vine_bufpos){x.buf, x.off + off};
}

/*
 * The stage at position k: fills v->cnt and v->dsp (vdim[k] + 1 entries)
 * with the sub-ranges of the rank's range of that stage, relative to its
 * start, and returns the start (an offset in the vector).  The range holds
 * the torus indices that share the rank's virtual coordinates at the
 * positions before k.
 */
static size_t stage_table(const vine_tview *v, const vine_tlayout *lay, int k)
{
    long base = 0;
    for (int e = 0; e < k; e++)
        base += v->vc[e] * v->vstride[e];
    size_t start = lay_off(lay, v->t.p, base);
    int n = v->vdim[k];
    for (int j = 0; j <= n; j++)
        v->dsp[j] = lay_off(lay, v->t.p, base + j * v->vstride[k]) - start;
    for (int j = 0; j < n; j++)
        v->cnt[j] = v->dsp[j + 1] - v->dsp[j];
    return start;
}

/* a, for the line at position k as a virtual communicator, no tables, no levels. */
static vine_args line_args(const vine_args *a, const vine_tview *v, vine_coll coll, int k)
{
    vine_args b = *a;
    b.coll = coll;
    b.p = v->vdim[k];
    b.rank = v->lc[k];
    b.root = 0;
    b.counts = b.displs = NULL;
    b.scounts = b.sdispls = b.rcounts = b.rdispls = NULL;
    b.vstride = 0;
    b.inplace = 0;
    b.seg_count = 0;
    b.levels = b.levels_full = NULL;
    b.remap = 0;
    b.shm_count = b.shm_node_count = 0;
    b.shm_single = 0;
    return b;
}

/* Runs build on the rank's line at position k with the buffers at `at`. */
static int run_line(vine_sched *s, const vine_args *a, const vine_tview *v, vine_build_fn build,
                    const vine_args *sub, int k, vine_bufpos send, vine_bufpos recv, size_t tmp_off)
{
    int n = v->vdim[k];
    vine__torus_line(&v->t, a->rank, v->vd[k], v->line);
    for (int j = 0; j < n; j++)
        v->line2[j] = v->line[(j + v->shift) % n];
    vine_bufpos at[VINE_BUF_COUNT] = {send, recv, {VINE_BUF_TMP, tmp_off}};
    return vine__sub_run(s, build, sub, v->line2, at);
}

int vine__torus_rs(vine_sched *s, const vine_args *a, const vine_tview *v, vine_build_fn rs,
                   const vine_tlayout *lay, vine_bufpos in, const vine_bufpos *out, size_t tmp_off,
                   vine_bufpos *own)
{
    int n = v->nact;
    long me = v->self;
    size_t mine = lay_off(lay, v->t.p, me + 1) - lay_off(lay, v->t.p, me);
    if (n == 0) {
        /* One rank: the whole vector is its block. */
        if (out && !same_pos(in, *out))
            vine__sched_copy(s, in.buf, in.off, out->buf, out->off, mine);
        if (own)
            *own = out ? *out : in;
        return VINE_OK;
    }
    /* What stages 0 and 1 keep: the two scratch areas the stages alternate between. */
    size_t kept[2] = {0, 0};
    for (int k = 0; k < 2 && k < n; k++) {
        stage_table(v, lay, k);
        kept[k] = v->cnt[v->vc[k]];
    }
    size_t area_len[2] = {n > 1 || !out ? kept[0] : 0, n > 2 || (n == 2 && !out) ? kept[1] : 0};
    vine_bufpos area[2] = {{VINE_BUF_TMP, tmp_off}, {VINE_BUF_TMP, tmp_off + area_len[0]}};
    size_t scratch = tmp_off + area_len[0] + area_len[1];
    vine__sched_need_tmp(s, scratch);
    vine_bufpos cur = in;
    int rc = VINE_OK;
    for (int k = 0; k < n && rc == VINE_OK; k++) {
        stage_table(v, lay, k);
        vine_bufpos dst = k == n - 1 && out ? *out : area[k % 2];
        vine_args sub = line_args(a, v, VINE_COLL_REDUCE_SCATTER, k);
        sub.counts = v->cnt;
        sub.displs = v->dsp;
        sub.count = v->cnt[0];
        /* Only a lone stage may find its output where its input is (in place). */
        sub.inplace = same_pos(cur, dst);
        rc = run_line(s, a, v, rs, &sub, k, cur, dst, scratch);
        cur = dst;
    }
    if (own)
        *own = cur;
    return rc;
}

int vine__torus_ag(vine_sched *s, const vine_args *a, const vine_tview *v, vine_build_fn ag,
                   const vine_tlayout *lay, vine_bufpos w, vine_bufpos own, size_t tmp_off)
{
    long me = v->self;
    size_t pos = lay_off(lay, v->t.p, me);
    if (v->nact == 0) {
        if (!same_pos(own, at_off(w, pos)))
            vine__sched_copy(s, own.buf, own.off, w.buf, w.off + pos,
                             lay_off(lay, v->t.p, me + 1) - pos);
        return VINE_OK;
    }
    int rc = VINE_OK;
    for (int k = v->nact - 1; k >= 0 && rc == VINE_OK; k--) {
        size_t start = stage_table(v, lay, k);
        vine_args sub = line_args(a, v, VINE_COLL_ALLGATHERV, k);
        sub.rcounts = v->cnt;
        sub.rdispls = v->dsp;
        sub.count = v->cnt[0];
        /* After the first stage the rank's sub-range is in place in w. */
        sub.inplace = k < v->nact - 1 || same_pos(own, at_off(w, pos));
        rc = run_line(s, a, v, ag, &sub, k, sub.inplace ? at_off(w, start) : own, at_off(w, start),
                      tmp_off);
    }
    return rc;
}

int vine__torus_rs_nu(const vine_args *a, vine_sched *s)
{
    if (!vine__is_pow2(a->p))
        return vine__reduce_scatter_bine_block_build(a, s);
    size_t total = a->displs[a->p];
    int j = (int)vine__bine_nu(a->rank, a->p);
    vine_bfly b;
    /* The partial vector in TMP[0, total), receive scratch after it. */
    vine__bfly_init(&b, s, a->p, a->rank, 0, VINE_BFLY_FOLD_NONE, total,
                    a->inplace ? VINE_BUF_RECV : VINE_BUF_SEND, 0, VINE_BUF_TMP, 0, total);
    b.pos = a->displs;
    vine__sched_need_tmp(s, total);
    vine__bfly_reduce_scatter(&b);
    vine__sched_fence(s);
    vine__sched_copy(s, b.cur_buf, b.cur_off + a->displs[j], VINE_BUF_RECV, 0, a->counts[j]);
    return vine__sched_finish(s);
}

int vine__torus_ag_nu(const vine_args *a, vine_sched *s)
{
    if (!vine__is_pow2(a->p))
        return vine__allgatherv_bine_block_build(a, s);
    size_t total = a->rdispls[a->p];
    int j = (int)vine__bine_nu(a->rank, a->p);
    vine_bfly b;
    vine__bfly_init(&b, s, a->p, a->rank, 0, VINE_BFLY_FOLD_NONE, total, VINE_BUF_RECV, 0,
                    VINE_BUF_RECV, 0, 0);
    b.pos = a->rdispls;
    if (!a->inplace) {
        vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_RECV, a->rdispls[j], a->rcounts[j]);
        vine__sched_fence(s);
    }
    vine__bfly_allgather(&b);
    return vine__sched_finish(s);
}

int vine__torus_allreduce_view(const vine_args *a, vine_sched *s, const vine_tview *v,
                               vine_build_fn rs, vine_build_fn ag, vine_bufpos in, vine_bufpos w,
                               size_t tmp_off)
{
    /* Blocks in torus order: which rank ends the reduce-scatter with which is free. */
    vine_tlayout lay = {NULL, a->count};
    vine_bufpos own;
    int rc = vine__torus_rs(s, a, v, rs, &lay, in, NULL, tmp_off, &own);
    if (rc == VINE_OK) {
        size_t end = own.buf == VINE_BUF_TMP
                         ? own.off + vine__block_len(a->count, a->p, (int)v->self)
                         : tmp_off;
        rc = vine__torus_ag(s, a, v, ag, &lay, w, own, end);
    }
    return rc;
}

/* The frame's allreduce on the plain view (nu 0) or the Bine allreduce's (nu 1); finishes s. */
static int allreduce_plain(const vine_args *a, vine_sched *s, int nu, vine_build_fn rs,
                           vine_build_fn ag)
{
    vine_tview v;
    int rc = vine__tview_init_part(&v, a, 0, 0, nu);
    if (rc != VINE_OK)
        return rc;
    vine_bufpos in = {a->inplace ? VINE_BUF_RECV : VINE_BUF_SEND, 0};
    rc = vine__torus_allreduce_view(a, s, &v, rs, ag, in, (vine_bufpos){VINE_BUF_RECV, 0}, 0);
    vine__tview_free(&v);
    return rc == VINE_OK ? vine__sched_finish(s) : rc;
}

int vine__torus_allreduce(const vine_args *a, vine_sched *s, vine_build_fn rs, vine_build_fn ag)
{
    return allreduce_plain(a, s, 0, rs, ag);
}

int vine__torus_allreduce_bine(const vine_args *a, vine_sched *s)
{
    vine_tview v;
    int rc = vine__tview_init_part(&v, a, 0, 0, 1);
    if (rc != VINE_OK)
        return rc;
    int line = v.nact == 1 && v.identity && vine__is_pow2(a->p);
    vine__tview_free(&v);
    if (line) {
        /* One line of 2^k ranks in rank order: allreduce bine_large's messages, in RECV. */
        vine_args b = *a;
        b.seg_count = 0;
        return vine__allreduce_bine_large_build(&b, s);
    }
    return allreduce_plain(a, s, 1, vine__torus_rs_nu, vine__torus_ag_nu);
}

int vine__torus_reduce_scatter(const vine_args *a, vine_sched *s, vine_build_fn rs)
{
    vine_tview v;
    int rc = vine__tview_init(&v, a);
    if (rc != VINE_OK)
        return rc;
    int p = a->p, in_buf = a->inplace ? VINE_BUF_RECV : VINE_BUF_SEND;
    vine_tlayout lay = {a->displs, 0};
    vine_bufpos in = {in_buf, 0}, out = {VINE_BUF_RECV, 0};
    size_t tmp_off = 0, *t = NULL;
    if (!v.identity) {
        /* Blocks into torus order in scratch, so that every stage's range is contiguous. */
        t = malloc(((size_t)p + 1) * sizeof *t);
        if (!t) {
            vine__tview_free(&v);
            return VINE_ERR_NO_MEM;
        }
        t[0] = 0;
        for (int i = 0; i < p; i++)
            t[i + 1] = t[i] + a->counts[v.at[i]];
        for (int i = 0; i < p; i++)
            vine__sched_copy(s, in_buf, a->displs[v.at[i]], VINE_BUF_TMP, t[i], a->counts[v.at[i]]);
        tmp_off = t[p];
        vine__sched_need_tmp(s, tmp_off);
        lay.displs = t;
        in = (vine_bufpos){VINE_BUF_TMP, 0};
    }
    rc = vine__torus_rs(s, a, &v, rs, &lay, in, &out, tmp_off, NULL);
    free(t);
    vine__tview_free(&v);
    return rc == VINE_OK ? vine__sched_finish(s) : rc;
}

int vine__torus_ag_line(const vine_args *a, vine_sched *s)
{
    size_t c = a->rcounts[0];
    int equal = c * (size_t)a->p < VINE_TORUS_PERMUTE_BYTES;
    for (int j = 0; j < a->p && equal; j++)
        equal = a->rcounts[j] == c && a->rdispls[j] == (size_t)j * c;
    if (!equal)
        return vine__allgatherv_bine_block_build(a, s);
    vine_args b = *a;
    b.coll = VINE_COLL_ALLGATHER;
    b.count = c;
    b.rcounts = b.rdispls = NULL;
    return vine__allgather_bine_permute_build(&b, s);
}

int vine__torus_allgather(const vine_args *a, vine_sched *s, vine_build_fn ag)
{
    vine_tview v;
    int rc = vine__tview_init(&v, a);
    if (rc != VINE_OK)
        return rc;
    size_t c = a->count, total = (size_t)a->p * c;
    vine_tlayout lay = {NULL, total};
    vine_bufpos own = {a->inplace ? VINE_BUF_RECV : VINE_BUF_SEND, a->inplace ? a->rank * c : 0};
    /* Out of torus order the vector is gathered in scratch and put in rank order at the end. */
    vine_bufpos w = {v.identity ? VINE_BUF_RECV : VINE_BUF_TMP, 0};
    if (!v.identity)
        vine__sched_need_tmp(s, total);
    rc = vine__torus_ag(s, a, &v, ag, &lay, w, own, v.identity ? 0 : total);
    if (rc == VINE_OK && !v.identity) {
        vine__sched_fence(s);
        for (int i = 0; i < a->p; i++)
            if (!a->inplace || v.at[i] != a->rank)
                vine__sched_copy(s, VINE_BUF_TMP, (size_t)i * c, VINE_BUF_RECV, (size_t)v.at[i] * c,
                                 c);
    }
    vine__tview_free(&v);
    return rc == VINE_OK ? vine__sched_finish(s) : rc;
}

/* Whether coordinates c and rc agree on dimensions from .. nd-1. */
static int agree_from(const vine_tview *v, const int *rc, int from)
{
    for (int e = from; e < v->t.nd; e++)
        if (v->c[e] != rc[e])
            return 0;
    return 1;
}

int vine__torus_bcast(const vine_args *a, vine_sched *s, vine_build_fn bc)
{
    vine_tview v;
    int rc = vine__tview_init(&v, a), root[VINE_TORUS_MAXD];
    if (rc != VINE_OK)
        return rc;
    vine__torus_coords(&v.t, a->root, root);
    vine_bufpos buf = {VINE_BUF_RECV, 0};
    for (int k = 0; k < v.nact && rc == VINE_OK; k++) {
        int d = v.vd[k];
        /* The line holds the data at the root's coordinate once the stages before ran. */
        if (!agree_from(&v, root, d + 1))
            continue;
        vine_args sub = line_args(a, &v, VINE_COLL_BCAST, k);
        sub.root = root[d];
        rc = run_line(s, a, &v, bc, &sub, k, buf, buf, 0);
    }
    vine__tview_free(&v);
    return rc == VINE_OK ? vine__sched_finish(s) : rc;
}

int vine__torus_reduce(const vine_args *a, vine_sched *s, vine_build_fn red)
{
    vine_tview v;
    int rc = vine__tview_init(&v, a), root[VINE_TORUS_MAXD];
    if (rc != VINE_OK)
        return rc;
    vine__torus_coords(&v.t, a->root, root);
    int is_root = a->rank == a->root;
    vine_bufpos cur = {is_root && a->inplace ? VINE_BUF_RECV : VINE_BUF_SEND, 0};
    /* Partial results: the root's in RECV, a line root's in scratch. */
    vine_bufpos acc = {is_root ? VINE_BUF_RECV : VINE_BUF_TMP, 0};
    size_t scratch = is_root ? 0 : a->count;
    if (v.nact == 0 && !same_pos(cur, acc))
        vine__sched_copy(s, cur.buf, cur.off, acc.buf, acc.off, a->count);
    for (int k = v.nact - 1; k >= 0 && rc == VINE_OK; k--) {
        int d = v.vd[k];
        if (!agree_from(&v, root, d + 1))
            continue;
        int line_root = v.c[d] == root[d];
        vine_args sub = line_args(a, &v, VINE_COLL_REDUCE, k);
        sub.root = root[d];
        sub.inplace = line_root && same_pos(cur, acc);
        if (line_root && !is_root)
            vine__sched_need_tmp(s, a->count);
        rc = run_line(s, a, &v, red, &sub, k, cur, acc, scratch);
        if (line_root)
            cur = acc;
    }
    vine__tview_free(&v);
    return rc == VINE_OK ? vine__sched_finish(s) : rc;
}
