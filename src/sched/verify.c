/*
 * Symbolic verifier: the collectives' buffer layouts, the result check and
 * the entry points.  verify_check.c holds the static checks and the message
 * matching, verify_sim.c the rendezvous simulation, verify_seg.c the segment
 * lists that record what every element holds.
 */
#include "verify_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A collective as the verifier sees it: its properties and its layout. */
typedef struct vine_vcoll {
    vine_coll_info info;
    void (*layout)(const vine_args *a, int rank, vine_vlayout *l);
} vine_vcoll;

static void layout_bcast(const vine_args *a, int rank, vine_vlayout *l)
{
    l->size[VINE_BUF_RECV] = a->count;
    if (rank == a->root) {
        l->in_buf = VINE_BUF_RECV;
        l->in_len = a->count;
    }
    l->res = VINE_VRES_FROM;
    l->res_len = a->count;
    l->res_from = a->root;
}

static void layout_reduce(const vine_args *a, int rank, vine_vlayout *l)
{
    int root = rank == a->root, inplace = root && a->inplace;
    l->size[VINE_BUF_SEND] = inplace ? 0 : a->count;
    l->size[VINE_BUF_RECV] = root ? a->count : 0;
    l->in_buf = inplace ? VINE_BUF_RECV : VINE_BUF_SEND;
    l->in_len = a->count;
    l->res = root ? VINE_VRES_REDUCED : VINE_VRES_NONE;
    l->res_len = a->count;
}

static void layout_allreduce(const vine_args *a, int rank, vine_vlayout *l)
{
    (void)rank;
    l->size[VINE_BUF_SEND] = a->inplace ? 0 : a->count;
    l->size[VINE_BUF_RECV] = a->count;
    l->in_buf = a->inplace ? VINE_BUF_RECV : VINE_BUF_SEND;
    l->in_len = a->count;
    l->res = VINE_VRES_REDUCED;
    l->res_len = a->count;
}

static void layout_allgather(const vine_args *a, int rank, vine_vlayout *l)
{
    l->size[VINE_BUF_SEND] = a->inplace ? 0 : a->count;
    l->size[VINE_BUF_RECV] = (size_t)a->p * a->count;
    l->in_buf = a->inplace ? VINE_BUF_RECV : VINE_BUF_SEND;
    l->in_off = a->inplace ? (size_t)rank * a->count : 0;
    l->in_len = a->count;
    l->res = VINE_VRES_GATHER;
    l->res_len = a->count;
}

/* reduce_scatter and reduce_scatter_block: the caller checked counts. */
static void layout_reduce_scatter(const vine_args *a, int rank, vine_vlayout *l)
{
    size_t total = a->displs[a->p];
    l->size[VINE_BUF_SEND] = a->inplace ? 0 : total;
    l->size[VINE_BUF_RECV] = a->inplace ? total : a->counts[rank];
    l->in_buf = a->inplace ? VINE_BUF_RECV : VINE_BUF_SEND;
    l->in_len = total;
    l->res = VINE_VRES_REDUCED;
    l->res_len = a->counts[rank];
    l->res_e0 = a->displs[rank];
}

static void layout_alltoall(const vine_args *a, int rank, vine_vlayout *l)
{
    size_t all = (size_t)a->p * a->count;
    l->size[VINE_BUF_SEND] = all;
    l->size[VINE_BUF_RECV] = all;
    l->in_buf = VINE_BUF_SEND;
    l->in_len = all;
    l->res = VINE_VRES_GATHER;
    l->res_len = a->count;
    l->res_e0 = (size_t)rank * a->count;
}

static void layout_gather(const vine_args *a, int rank, vine_vlayout *l)
{
    int root = rank == a->root, inplace = root && a->inplace;
    l->size[VINE_BUF_SEND] = inplace ? 0 : a->count;
    l->size[VINE_BUF_RECV] = root ? (size_t)a->p * a->count : 0;
    l->in_buf = inplace ? VINE_BUF_RECV : VINE_BUF_SEND;
    l->in_off = inplace ? (size_t)rank * a->count : 0;
    l->in_len = a->count;
    l->res = root ? VINE_VRES_GATHER : VINE_VRES_NONE;
    l->res_len = a->count;
}

static void layout_scatter(const vine_args *a, int rank, vine_vlayout *l)
{
    int root = rank == a->root, inplace = root && a->inplace;
    l->size[VINE_BUF_SEND] = root ? (size_t)a->p * a->count : 0;
    l->size[VINE_BUF_RECV] = inplace ? 0 : a->count;
    l->in_buf = VINE_BUF_SEND;
    l->in_len = root ? (size_t)a->p * a->count : 0;
    l->res = inplace ? VINE_VRES_NONE : VINE_VRES_FROM;
    l->res_len = a->count;
    l->res_e0 = (size_t)rank * a->count;
    l->res_from = a->root;
}

static void layout_barrier(const vine_args *a, int rank, vine_vlayout *l)
{
    (void)a;
    (void)rank;
    l->res = VINE_VRES_SYNC;
}

/* Indexed by vine_coll; a collective without an entry is unknown here. */
static const vine_vcoll colls[VINE_COLL_COUNT] = {
    [VINE_COLL_BCAST] = {{1, 0, 0, 0}, layout_bcast},
    [VINE_COLL_REDUCE] = {{1, 1, 1, 0}, layout_reduce},
    [VINE_COLL_ALLREDUCE] = {{0, 1, 1, 0}, layout_allreduce},
    [VINE_COLL_ALLGATHER] = {{0, 1, 0, 0}, layout_allgather},
    [VINE_COLL_REDUCE_SCATTER] = {{0, 1, 1, 1}, layout_reduce_scatter},
    [VINE_COLL_REDUCE_SCATTER_BLOCK] = {{0, 1, 1, 1}, layout_reduce_scatter},
    [VINE_COLL_ALLTOALL] = {{0, 0, 0, 0}, layout_alltoall},
    [VINE_COLL_GATHER] = {{1, 1, 0, 0}, layout_gather},
    [VINE_COLL_SCATTER] = {{1, 1, 0, 0}, layout_scatter},
    [VINE_COLL_BARRIER] = {{0, 0, 0, 0}, layout_barrier},
};

int vine__verify_coll_info(vine_coll c, vine_coll_info *info)
{
    if ((int)c < 0 || c >= VINE_COLL_COUNT || !colls[c].layout)
        return VINE_ERR_UNSUPPORTED;
    *info = colls[c].info;
    return VINE_OK;
}

int vine__verify_layout(const vine_args *a, int rank, vine_vlayout *l)
{
    vine_coll_info info;
    memset(l, 0, sizeof *l);
    if (vine__verify_coll_info(a->coll, &info))
        return VINE_ERR_UNSUPPORTED;
    if (info.vector && (!a->counts || !a->displs))
        return VINE_ERR_UNSUPPORTED;
    colls[a->coll].layout(a, rank, l);
    return VINE_OK;
}

void vine__verify_rs_counts(int p, size_t count, size_t *counts, size_t *displs)
{
    displs[0] = 0;
    for (int i = 0; i < p; i++) {
        counts[i] = count * (size_t)((7 * (long)i) % 5) / 2;
        displs[i + 1] = displs[i] + counts[i];
    }
}

void vine__verify_counts(vine_coll c, int p, size_t count, size_t *counts, size_t *displs)
{
    if (c == VINE_COLL_REDUCE_SCATTER) {
        vine__verify_rs_counts(p, count, counts, displs);
    } else if (c == VINE_COLL_REDUCE_SCATTER_BLOCK) {
        displs[0] = 0;
        for (int i = 0; i < p; i++) {
            counts[i] = count;
            displs[i + 1] = displs[i] + count;
        }
    }
}

uint64_t vine__vhash(int r)
{
    uint64_t z = (uint64_t)r + 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static const char *buf_name(int b)
{
    static const char *names[] = {"send", "recv", "tmp"};
    return b >= 0 && b < VINE_BUF_COUNT ? names[b] : "?";
}

void vine__vop_str(const vine_op *op, char *out, size_t outlen)
{
    switch (op->kind) {
    case VINE_OP_SEND:
    case VINE_OP_RECV:
        snprintf(out, outlen, "%s %s %d %s[%zu,+%zu)", op->kind == VINE_OP_SEND ? "send" : "recv",
                 op->kind == VINE_OP_SEND ? "to" : "from", op->peer, buf_name(op->buf), op->off,
                 op->count);
        break;
    case VINE_OP_COPY:
        snprintf(out, outlen, "copy %s[%zu,+%zu) -> %s[%zu]", buf_name(op->buf), op->off, op->count,
                 buf_name(op->dbuf), op->doff);
        break;
    case VINE_OP_REDUCE:
        snprintf(out, outlen, "reduce %s[%zu,+%zu) into %s[%zu], src %s", buf_name(op->buf),
                 op->off, op->count, buf_name(op->dbuf), op->doff,
                 op->order == VINE_SRC_LEFT ? "left" : "right");
        break;
    default:
        snprintf(out, outlen, "operation of unknown kind %d", op->kind);
    }
}

int vine__verr(vine_vctx *ctx, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (ctx->msglen)
        vsnprintf(ctx->msg, ctx->msglen, fmt, ap);
    va_end(ap);
    return VINE_ERR_INTERNAL;
}

int vine__verr_op(vine_vctx *ctx, int r, size_t i, const char *fmt, ...)
{
    char what[160], why[320];
    const vine_sched *s = &ctx->s[r];
    size_t k = 0;
    while (k < s->nrounds && s->round_end[k] <= i)
        k++;
    vine__vop_str(&s->ops[i], what, sizeof what);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    return vine__verr(ctx, "rank %d round %zu op %zu (%s): %s", r, k, i, what, why);
}

/* Describes what an element with descriptor d and index e holds. */
static void desc_str(const vine_vdesc *d, size_t e, char *out, size_t outlen)
{
    if (!d->defined)
        snprintf(out, outlen, "nothing (undefined)");
    else if (d->n == 1)
        snprintf(out, outlen, "element %zu of rank %d", e, d->lo);
    else
        snprintf(out, outlen, "element %zu combined from %d contributions, ranks %d..%d %s", e,
                 d->n, d->lo, d->hi, d->ordered ? "in order" : "out of order");
}

static vine_vdesc desc_of_rank(int r)
{
    vine_vdesc d = {vine__vhash(r), 1, r, r, 1, 1};
    return d;
}

/* Whether element holding d matches the expected x; full compares the order too. */
static int desc_ok(const vine_vdesc *d, const vine_vdesc *x, int full)
{
    if (!d->defined || d->n != x->n || d->hash != x->hash)
        return 0;
    return !full || (d->ordered && d->lo == x->lo && d->hi == x->hi);
}

/* Describes what element e should hold: rank from's, or the full reduction (from < 0). */
static void expect_str(const vine_vctx *ctx, int from, size_t e, char *out, size_t outlen)
{
    if (from >= 0)
        snprintf(out, outlen, "element %zu of rank %d", e, from);
    else
        snprintf(out, outlen, "element %zu combined from all %d ranks once each%s", e, ctx->p,
                 ctx->a->commutative ? "" : ", in rank order");
}

/*
 * Checks RECV[off, off + len) of rank r: element off + i must hold element
 * e0 + i of rank from, or of the full reduction when from < 0.
 */
static int check_piece(vine_vctx *ctx, int r, size_t off, size_t len, size_t e0, int from)
{
    vine_vbuf *b = &ctx->bufs[r * VINE_BUF_COUNT + VINE_BUF_RECV];
    vine_vdesc all = {ctx->hash_all, ctx->p, 0, ctx->p - 1, 1, 1};
    vine_vdesc x = from < 0 ? all : desc_of_rank(from);
    int full = from >= 0 || !ctx->a->commutative;
    if (len == 0)
        return VINE_OK;
    for (size_t i = vine__vbuf_locate(b, off); i < b->n; i++) {
        const vine_vseg *s = vine__vbuf_at(b, i);
        size_t at = s->off > off ? s->off : off, e = e0 + (at - off);
        size_t have = s->e0 + (at - s->off);
        if (!desc_ok(&s->d, &x, full) || have != e) {
            char got[160], want[160];
            desc_str(&s->d, have, got, sizeof got);
            expect_str(ctx, from, e, want, sizeof want);
            return vine__verr(ctx, "rank %d: recv[%zu] holds %s, expected %s", r, at, got, want);
        }
        if (s->off + s->len >= off + len)
            break;
    }
    return VINE_OK;
}

/* A barrier: rank r must have heard of every rank's start (verify_sim.c). */
static int check_sync(vine_vctx *ctx, int r)
{
    const uint64_t *heard = ctx->heard + (size_t)r * ctx->sync_words;
    int missing = 0, first = -1;
    for (int j = 0; j < ctx->p; j++)
        if (!(heard[j / 64] >> (j % 64) & 1)) {
            missing++;
            first = first < 0 ? j : first;
        }
    if (first < 0)
        return VINE_OK;
    return vine__verr(ctx,
                      "rank %d: not a barrier: the rank may finish before rank %d starts (no "
                      "chain of messages leads from rank %d to it; %d of %d ranks unheard of)",
                      r, first, first, missing, ctx->p);
}

static int check_rank(vine_vctx *ctx, int r)
{
    const vine_vlayout *l = &ctx->lay[r];
    if (l->res == VINE_VRES_SYNC)
        return ctx->heard ? check_sync(ctx, r)
                          : vine__verr(ctx, "rank %d: the barrier's causality was not tracked", r);
    if (l->res == VINE_VRES_REDUCED)
        return check_piece(ctx, r, 0, l->res_len, l->res_e0, -1);
    if (l->res == VINE_VRES_FROM)
        return check_piece(ctx, r, 0, l->res_len, l->res_e0, l->res_from);
    for (int i = 0; l->res == VINE_VRES_GATHER && i < ctx->p; i++) {
        int rc = check_piece(ctx, r, (size_t)i * l->res_len, l->res_len, l->res_e0, i);
        if (rc)
            return rc;
    }
    return VINE_OK;
}

int vine__verify_result(vine_vctx *ctx)
{
    for (int r = 0; r < ctx->p; r++) {
        int rc = check_rank(ctx, r);
        if (rc)
            return rc;
    }
    return VINE_OK;
}

/* Sets up every rank's buffers: inputs where the layout puts them, the rest undefined. */
static int init_data(vine_vctx *ctx)
{
    int p = ctx->p;
    ctx->bufs = calloc((size_t)p * VINE_BUF_COUNT, sizeof *ctx->bufs);
    if (!ctx->bufs)
        return VINE_ERR_NO_MEM;
    for (int r = 0; r < p; r++) {
        const vine_vlayout *l = &ctx->lay[r];
        vine_vbuf *b = &ctx->bufs[r * VINE_BUF_COUNT];
        for (int k = 0; k < VINE_BUF_COUNT; k++)
            if (vine__vbuf_init(&b[k], l->size[k]))
                return VINE_ERR_NO_MEM;
        vine_vdesc d = desc_of_rank(r);
        if (l->in_len &&
            vine__vbuf_fill(&b[l->in_buf], l->in_off, l->in_len, 0, &d, &ctx->v1, &ctx->tmp))
            return VINE_ERR_NO_MEM;
        ctx->hash_all += d.hash;
    }
    return VINE_OK;
}

static int ctx_alloc(vine_vctx *ctx)
{
    int p = ctx->p;
    ctx->lay = calloc((size_t)p, sizeof *ctx->lay);
    ctx->partner = calloc((size_t)p, sizeof *ctx->partner);
    ctx->round_of = calloc((size_t)p, sizeof *ctx->round_of);
    ctx->cur = calloc((size_t)p, sizeof *ctx->cur);
    ctx->pending = calloc((size_t)p, sizeof *ctx->pending);
    ctx->stack = calloc((size_t)p, sizeof *ctx->stack);
    if (!ctx->lay || !ctx->partner || !ctx->round_of || !ctx->cur || !ctx->pending || !ctx->stack)
        return VINE_ERR_NO_MEM;
    for (int r = 0; r < p; r++) {
        if (vine__verify_layout(ctx->a, r, &ctx->lay[r]))
            return vine__verr(ctx, "the verifier has no layout for collective %d%s",
                              (int)ctx->a->coll, ctx->a->counts ? "" : " without counts");
        ctx->lay[r].size[VINE_BUF_TMP] = ctx->s[r].tmp_count;
    }
    return VINE_OK;
}

static void ctx_free(vine_vctx *ctx)
{
    for (int r = 0; r < ctx->p; r++) {
        if (ctx->partner)
            free(ctx->partner[r]);
        if (ctx->round_of)
            free(ctx->round_of[r]);
        for (int k = 0; ctx->bufs && k < VINE_BUF_COUNT; k++)
            vine__vbuf_free(&ctx->bufs[r * VINE_BUF_COUNT + k]);
    }
    free(ctx->bufs);
    free(ctx->lay);
    free(ctx->partner);
    free(ctx->round_of);
    free(ctx->cur);
    free(ctx->pending);
    free(ctx->stack);
    free(ctx->heard);
    free(ctx->news);
    vine__vvec_free(&ctx->v1);
    vine__vvec_free(&ctx->v2);
    vine__vvec_free(&ctx->v3);
    vine__vvec_free(&ctx->tmp);
}

int vine__verify_scheds(const vine_args *a, vine_sched *scheds, char *msg, size_t msglen)
{
    vine_vctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.a = a;
    ctx.p = a->p;
    ctx.s = scheds;
    ctx.msg = msg;
    ctx.msglen = msglen;
    if (msglen)
        msg[0] = '\0';
    if (a->p < 1)
        return vine__verr(&ctx, "communicator size %d is not positive", a->p);
    int rc = ctx_alloc(&ctx);
    if (rc == VINE_OK)
        rc = vine__verify_static(&ctx);
    if (rc == VINE_OK)
        rc = vine__verify_match(&ctx);
    if (rc == VINE_OK)
        rc = init_data(&ctx);
    if (rc == VINE_OK)
        rc = vine__verify_run(&ctx);
    if (rc == VINE_OK)
        rc = vine__verify_result(&ctx);
    ctx_free(&ctx);
    if (rc == VINE_ERR_NO_MEM && msglen)
        snprintf(msg, msglen, "out of memory");
    return rc;
}

int vine__verify_case(const vine_algo *algo, const vine_args *a, char *msg, size_t msglen)
{
    if (msglen)
        msg[0] = '\0';
    if (a->p < 1) {
        if (msglen)
            snprintf(msg, msglen, "communicator size %d is not positive", a->p);
        return VINE_ERR_INTERNAL;
    }
    /* Only the registry's restrictions make a case a skip: a builder that
     * refuses a case its restrictions admit is a failure. */
    if (vine__algo_admits(algo, a) != VINE_OK)
        return VINE_ERR_UNSUPPORTED;
    vine_sched *s = calloc((size_t)a->p, sizeof *s);
    if (!s)
        return VINE_ERR_NO_MEM;
    int rc = VINE_OK, built = 0;
    for (; built < a->p && rc == VINE_OK; built++) {
        vine_args b = *a;
        b.rank = built;
        rc = vine__algo_build(algo, &b, &s[built]);
    }
    if (rc == VINE_ERR_UNSUPPORTED) {
        rc = VINE_ERR_INTERNAL;
        if (msglen)
            snprintf(msg, msglen, "rank %d: the builder refused a case its restrictions admit",
                     built - 1);
    } else if (rc == VINE_ERR_INTERNAL && msglen)
        snprintf(msg, msglen, "rank %d: the builder reported an inconsistent schedule", built - 1);
    else if (rc == VINE_ERR_NO_MEM && msglen)
        snprintf(msg, msglen, "out of memory");
    if (rc == VINE_OK)
        rc = vine__verify_scheds(a, s, msg, msglen);
    for (int r = 0; r < built; r++)
        vine__sched_free(&s[r]);
    free(s);
    return rc;
}
