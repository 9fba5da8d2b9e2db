/*
 * Symbolic verifier: the collectives' buffer layouts, the result check and
 * the entry points.  verify_check.c holds the static checks and the message
 * matching, verify_sim.c the rendezvous simulation, verify_race.c the
 * happens-before and race checks of shared memory, verify_seg.c the segment
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

static void layout_allgatherv(const vine_args *a, int rank, vine_vlayout *l)
{
    size_t own = a->rcounts[rank];
    l->size[VINE_BUF_SEND] = a->inplace ? 0 : own;
    l->size[VINE_BUF_RECV] = vine__vsize(a->p, a->rcounts, a->rdispls);
    l->in_buf = a->inplace ? VINE_BUF_RECV : VINE_BUF_SEND;
    l->in_off = a->inplace ? a->rdispls[rank] : 0;
    l->in_len = own;
    l->res = VINE_VRES_BLOCKS;
}

static void layout_gatherv(const vine_args *a, int rank, vine_vlayout *l)
{
    int root = rank == a->root, inplace = root && a->inplace;
    size_t own = a->rcounts[rank];
    l->size[VINE_BUF_SEND] = inplace ? 0 : own;
    l->size[VINE_BUF_RECV] = root ? vine__vsize(a->p, a->rcounts, a->rdispls) : 0;
    l->in_buf = inplace ? VINE_BUF_RECV : VINE_BUF_SEND;
    l->in_off = inplace ? a->rdispls[rank] : 0;
    l->in_len = own;
    l->res = root ? VINE_VRES_BLOCKS : VINE_VRES_NONE;
}

static void layout_scatterv(const vine_args *a, int rank, vine_vlayout *l)
{
    int root = rank == a->root, inplace = root && a->inplace;
    size_t all = root ? vine__vsize(a->p, a->scounts, a->sdispls) : 0;
    l->size[VINE_BUF_SEND] = all;
    l->size[VINE_BUF_RECV] = inplace ? 0 : a->scounts[rank];
    l->in_buf = VINE_BUF_SEND;
    l->in_len = all;
    l->res = inplace ? VINE_VRES_NONE : VINE_VRES_FROM;
    l->res_len = a->scounts[rank];
    l->res_e0 = a->sdispls[rank];
    l->res_from = a->root;
}

static void layout_alltoallv(const vine_args *a, int rank, vine_vlayout *l)
{
    size_t in = vine__vsize(a->p, vine__args_row(a, a->scounts, rank),
                            vine__args_row(a, a->sdispls, rank));
    l->size[VINE_BUF_SEND] = in;
    l->size[VINE_BUF_RECV] = vine__vsize(a->p, vine__args_row(a, a->rcounts, rank),
                                         vine__args_row(a, a->rdispls, rank));
    l->in_buf = VINE_BUF_SEND;
    l->in_len = in;
    l->res = VINE_VRES_BLOCKS;
}

/* scan and exscan: res_from is the last rank of the prefix. */
static void layout_scan(const vine_args *a, int rank, vine_vlayout *l)
{
    int ex = a->coll == VINE_COLL_EXSCAN;
    l->size[VINE_BUF_SEND] = a->inplace ? 0 : a->count;
    l->size[VINE_BUF_RECV] = a->count;
    l->in_buf = a->inplace ? VINE_BUF_RECV : VINE_BUF_SEND;
    l->in_len = a->count;
    l->res = ex && rank == 0 ? VINE_VRES_NONE : VINE_VRES_PREFIX;
    l->res_len = a->count;
    l->res_from = ex ? rank - 1 : rank;
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
    [VINE_COLL_ALLGATHERV] = {{0, 1, 0, 0}, layout_allgatherv},
    [VINE_COLL_ALLTOALLV] = {{0, 0, 0, 0}, layout_alltoallv},
    [VINE_COLL_ALLTOALLW] = {{0, 0, 0, 0}, layout_alltoallv},
    [VINE_COLL_GATHERV] = {{1, 1, 0, 0}, layout_gatherv},
    [VINE_COLL_SCATTERV] = {{1, 1, 0, 0}, layout_scatterv},
    [VINE_COLL_SCAN] = {{0, 1, 1, 0}, layout_scan},
    [VINE_COLL_EXSCAN] = {{0, 1, 1, 0}, layout_scan},
};

int vine__verify_coll_info(vine_coll c, vine_coll_info *info)
{
    if ((int)c < 0 || c >= VINE_COLL_COUNT || !colls[c].layout)
        return VINE_ERR_UNSUPPORTED;
    *info = colls[c].info;
    return VINE_OK;
}

/*
 * The elements of each rank's shm region: of the one segment of all ranks
 * (shm_count) or of its node's (shm_node_count, hierarchical algorithms).
 */
static size_t shm_region(const vine_args *a)
{
    return a->shm_count > a->shm_node_count ? a->shm_count : a->shm_node_count;
}

int vine__verify_layout(const vine_args *a, int rank, vine_vlayout *l)
{
    vine_coll_info info;
    memset(l, 0, sizeof *l);
    if (vine__verify_coll_info(a->coll, &info))
        return VINE_ERR_UNSUPPORTED;
    if (info.vector && (!a->counts || !a->displs))
        return VINE_ERR_UNSUPPORTED;
    if (vine__coll_is_v(a->coll) && !vine__verify_vtables_ok(a))
        return VINE_ERR_UNSUPPORTED;
    colls[a->coll].layout(a, rank, l);
    l->size[VINE_BUF_SHM] = shm_region(a);
    l->size[VINE_BUF_PAR] = a->shm_par_count;
    l->size[VINE_BUF_EAG] = a->shm_par_count;
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

static uint64_t mix64(uint64_t x);

const char *const vine__vdist_names[VINE_VDIST_COUNT] = {"uniform", "irregular", "zero", "one",
                                                         "random"};

/* The block from rank i to rank j (j = 0 for the collectives with one table). */
static size_t vblock_count(int dist, size_t c, int p, int i, int j, int a2a, uint64_t seed)
{
    switch (dist) {
    case VINE_VDIST_UNIFORM:
        return c;
    case VINE_VDIST_IRREGULAR:
        return c * (size_t)((7 * (long)i + 3 * (long)j) % 5) / 2;
    case VINE_VDIST_ONE:
        if (a2a)
            return i == p - 1 || j == p - 1 ? c : 0;
        return i == p - 1 ? c * (size_t)p : 0;
    case VINE_VDIST_RANDOM:
        return (size_t)(mix64(seed ^ ((uint64_t)(uint32_t)i << 32 | (uint32_t)j)) % (2 * c + 1));
    default:
        return 0;
    }
}

/* displs for counts[0..p) packed in rank order, or reversed with gaps. */
static void vlayout(int p, const size_t *counts, size_t *displs, int gaps)
{
    size_t off = 0;
    for (int k = 0; k < p; k++) {
        int i = gaps ? p - 1 - k : k;
        off += gaps ? (size_t)(1 + i % 3) : 0;
        displs[i] = off;
        off += counts[i];
    }
}

int vine__vtables_make(vine_args *a, vine_vblock_fn block, const void *ctx, int gaps,
                       vine_vtables *t)
{
    memset(t, 0, sizeof *t);
    if (!vine__coll_is_v(a->coll))
        return VINE_OK;
    int p = a->p, a2a = a->coll == VINE_COLL_ALLTOALLV || a->coll == VINE_COLL_ALLTOALLW;
    size_t n = a2a ? (size_t)p * (size_t)p : (size_t)p;
    for (int k = 0; k < 4; k++)
        if (!(t->t[k] = malloc(n * sizeof *t->t[k]))) {
            vine__verify_vtables_free(a, t);
            return VINE_ERR_NO_MEM;
        }
    size_t *sc = t->t[0], *sd = t->t[1], *rc = t->t[2], *rd = t->t[3];
    if (a2a) {
        for (int i = 0; i < p; i++)
            for (int j = 0; j < p; j++) {
                size_t b = block(ctx, i, j, 1);
                sc[(size_t)i * p + j] = b;
                rc[(size_t)j * p + i] = b;
            }
        for (int i = 0; i < p; i++) {
            vlayout(p, sc + (size_t)i * p, sd + (size_t)i * p, gaps);
            vlayout(p, rc + (size_t)i * p, rd + (size_t)i * p, gaps);
        }
        a->vstride = (size_t)p;
    } else {
        for (int i = 0; i < p; i++)
            sc[i] = rc[i] = block(ctx, i, 0, 0);
        vlayout(p, sc, sd, gaps);
        memcpy(rd, sd, (size_t)p * sizeof *rd);
        a->vstride = 0;
    }
    int send_side = a->coll == VINE_COLL_SCATTERV || a2a;
    int recv_side = a->coll != VINE_COLL_SCATTERV;
    a->scounts = send_side ? sc : NULL;
    a->sdispls = send_side ? sd : NULL;
    a->rcounts = recv_side ? rc : NULL;
    a->rdispls = recv_side ? rd : NULL;
    return VINE_OK;
}

/* A verifier case's distribution, for vine__vtables_make. */
typedef struct vcase {
    int dist, p;
    size_t count;
    uint64_t seed;
} vcase;

static size_t vcase_block(const void *ctx, int i, int j, int a2a)
{
    const vcase *c = ctx;
    return vblock_count(c->dist, c->count, c->p, i, j, a2a, c->seed);
}

int vine__verify_vtables(vine_args *a, int dist, int gaps, vine_vtables *t)
{
    vcase c = {dist, a->p, a->count, mix64((uint64_t)a->count * 1000003u + (uint64_t)a->p)};
    return vine__vtables_make(a, vcase_block, &c, gaps, t);
}

void vine__verify_vtables_free(vine_args *a, vine_vtables *t)
{
    for (int k = 0; k < 4; k++)
        free(t->t[k]);
    memset(t, 0, sizeof *t);
    a->scounts = a->sdispls = a->rcounts = a->rdispls = NULL;
    a->vstride = 0;
}

int vine__verify_vtables_ok(const vine_args *a)
{
    switch (a->coll) {
    case VINE_COLL_ALLGATHERV:
    case VINE_COLL_GATHERV:
        return a->rcounts && a->rdispls;
    case VINE_COLL_SCATTERV:
        return a->scounts && a->sdispls;
    case VINE_COLL_ALLTOALLV:
    case VINE_COLL_ALLTOALLW:
        return a->scounts && a->sdispls && a->rcounts && a->rdispls && a->vstride == (size_t)a->p;
    default:
        return 1;
    }
}

static uint64_t mix64(uint64_t x)
{
    uint64_t z = x + 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

uint64_t vine__vhash(int r)
{
    return mix64((uint64_t)r);
}

uint64_t vine__vhash_call(int r, int c)
{
    return mix64((uint64_t)(uint32_t)r | (uint64_t)c << 32);
}

const char *vine__vbuf_name(int b)
{
    static const char *names[] = {"send", "recv", "tmp", "shm", "par", "eag"};
    return b >= 0 && b < VINE_BUF_COUNT ? names[b] : "?";
}

int vine__vsame_node(const vine_args *a, int r, int q)
{
    const vine_levels *m = a->levels;
    if (!vine__levels_ready(m, a->p) || vine__levels_flat(m))
        return 1; /* no map with locality: all ranks share one node */
    if (a->shm_count)
        return 1; /* one segment for all p ranks: pretend nodes inside one real node */
    return vine__levels_group(m, 0, r) == vine__levels_group(m, 0, q);
}

void vine__vop_str(const vine_op *op, char *out, size_t outlen)
{
    switch (op->kind) {
    case VINE_OP_SEND:
    case VINE_OP_RECV:
        snprintf(out, outlen, "%s %s %d %s[%zu,+%zu)", op->kind == VINE_OP_SEND ? "send" : "recv",
                 op->kind == VINE_OP_SEND ? "to" : "from", op->peer, vine__vbuf_name(op->buf),
                 op->off, op->count);
        break;
    case VINE_OP_COPY:
        snprintf(out, outlen, "copy %s[%zu,+%zu) -> %s[%zu]", vine__vbuf_name(op->buf), op->off,
                 op->count, vine__vbuf_name(op->dbuf), op->doff);
        break;
    case VINE_OP_REDUCE:
        snprintf(out, outlen, "reduce %s[%zu,+%zu) into %s[%zu], src %s", vine__vbuf_name(op->buf),
                 op->off, op->count, vine__vbuf_name(op->dbuf), op->doff,
                 op->order == VINE_SRC_LEFT ? "left" : "right");
        break;
    case VINE_OP_SET:
        snprintf(out, outlen, "set %zu", op->count);
        break;
    case VINE_OP_WAIT:
        if (op->order == VINE_WAIT_PREV)
            snprintf(out, outlen, "wait %d prev", op->peer);
        else
            snprintf(out, outlen, "wait %d %zu", op->peer, op->count);
        break;
    case VINE_OP_GET:
    case VINE_OP_GETRED:
        snprintf(out, outlen, "%s %d:%s[%zu,+%zu) -> %s[%zu]",
                 op->kind == VINE_OP_GET ? "get" : "getred", op->peer, vine__vbuf_name(op->buf),
                 op->off, op->count, vine__vbuf_name(op->dbuf), op->doff);
        break;
    default:
        snprintf(out, outlen, "operation of unknown kind %d", op->kind);
    }
}

int vine__verr(vine_vctx *ctx, const char *fmt, ...)
{
    va_list ap;
    int n = 0;
    if (ctx->ncalls > 1 && ctx->msglen)
        n = snprintf(ctx->msg, ctx->msglen, "call %d: ", ctx->call + 1);
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < ctx->msglen)
        vsnprintf(ctx->msg + n, ctx->msglen - (size_t)n, fmt, ap);
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

/* " (call c)" when calls follow each other and d is rank r's input of some call c. */
static void call_str(const vine_vctx *ctx, int r, uint64_t hash, char *out, size_t outlen)
{
    out[0] = '\0';
    for (int c = 0; ctx->ncalls > 1 && c < ctx->ncalls; c++)
        if (vine__vhash_call(r, c) == hash)
            snprintf(out, outlen, " (call %d)", c + 1);
}

/* Describes what an element with descriptor d and index e holds. */
static void desc_str(const vine_vctx *ctx, const vine_vdesc *d, size_t e, char *out, size_t outlen)
{
    char call[32];
    call_str(ctx, d->lo, d->hash, call, sizeof call);
    if (!d->defined)
        snprintf(out, outlen, "nothing (undefined)");
    else if (d->n == 1)
        snprintf(out, outlen, "element %zu of rank %d%s", e, d->lo, call);
    else
        snprintf(out, outlen, "element %zu combined from %d contributions, ranks %d..%d %s", e,
                 d->n, d->lo, d->hi, d->ordered ? "in order" : "out of order");
}

/* Rank r's input in the call in view. */
static vine_vdesc desc_of_rank(const vine_vctx *ctx, int r)
{
    vine_vdesc d = {vine__vhash_call(r, ctx->call), 1, r, r, 1, 1};
    return d;
}

/* Whether element holding d matches the expected x; full compares the order too. */
static int desc_ok(const vine_vdesc *d, const vine_vdesc *x, int full)
{
    if (!d->defined || d->n != x->n || d->hash != x->hash)
        return 0;
    return !full || (d->ordered && d->lo == x->lo && d->hi == x->hi);
}

/*
 * Describes what element e should hold: rank from's (from >= 0), the
 * reduction of ranks 0..upto (upto >= 0), or the full reduction.
 */
static void expect_str(const vine_vctx *ctx, int from, int upto, size_t e, char *out,
                       size_t outlen)
{
    char call[32];
    call_str(ctx, from, vine__vhash_call(from, ctx->call), call, sizeof call);
    if (from >= 0)
        snprintf(out, outlen, "element %zu of rank %d%s", e, from, call);
    else if (upto >= 0)
        snprintf(out, outlen, "element %zu combined from ranks 0..%d once each%s", e, upto,
                 ctx->a->commutative ? "" : ", in rank order");
    else
        snprintf(out, outlen, "element %zu combined from all %d ranks once each%s", e, ctx->p,
                 ctx->a->commutative ? "" : ", in rank order");
}

/*
 * Checks RECV[off, off + len) of rank r: element off + i must hold element
 * e0 + i of rank from, or (from < 0) of the reduction of ranks 0..upto, or
 * of all ranks when upto < 0 too.
 */
static int check_prefix(vine_vctx *ctx, int r, size_t off, size_t len, size_t e0, int from,
                        int upto)
{
    vine_vbuf *b = &ctx->bufs[r * VINE_BUF_COUNT + VINE_BUF_RECV];
    vine_vdesc x = {ctx->hash_all, ctx->p, 0, ctx->p - 1, 1, 1};
    if (from >= 0) {
        x = desc_of_rank(ctx, from);
    } else if (upto >= 0) {
        x.hash = 0;
        for (int i = 0; i <= upto; i++)
            x.hash += vine__vhash_call(i, ctx->call);
        x.n = upto + 1;
        x.hi = upto;
    }
    int full = from >= 0 || !ctx->a->commutative;
    if (len == 0)
        return VINE_OK;
    for (size_t i = vine__vbuf_locate(b, off); i < b->n; i++) {
        const vine_vseg *s = vine__vbuf_at(b, i);
        size_t at = s->off > off ? s->off : off, e = e0 + (at - off);
        size_t have = s->e0 + (at - s->off);
        if (!desc_ok(&s->d, &x, full) || have != e) {
            char got[160], want[160];
            desc_str(ctx, &s->d, have, got, sizeof got);
            expect_str(ctx, from, upto, e, want, sizeof want);
            return vine__verr(ctx, "rank %d: recv[%zu] holds %s, expected %s", r, at, got, want);
        }
        if (s->off + s->len >= off + len)
            break;
    }
    return VINE_OK;
}

static int check_piece(vine_vctx *ctx, int r, size_t off, size_t len, size_t e0, int from)
{
    return check_prefix(ctx, r, off, len, e0, from, -1);
}

/* RECV[off, off + len) of rank r must never have been written (a gap between blocks). */
static int check_gap(vine_vctx *ctx, int r, size_t off, size_t len)
{
    vine_vbuf *b = &ctx->bufs[r * VINE_BUF_COUNT + VINE_BUF_RECV];
    for (size_t i = len ? vine__vbuf_locate(b, off) : b->n; i < b->n; i++) {
        const vine_vseg *s = vine__vbuf_at(b, i);
        if (s->off >= off + len)
            break;
        if (s->d.defined)
            return vine__verr(ctx,
                              "rank %d: recv[%zu] lies in a gap between the blocks, which "
                              "must stay untouched, but was written",
                              r, s->off > off ? s->off : off);
    }
    return VINE_OK;
}

typedef struct vblock {
    size_t off, len, e0;
    int from;
} vblock;

static int vblock_cmp(const void *x, const void *y)
{
    const vblock *a = x, *b = y;
    return a->off < b->off ? -1 : a->off > b->off;
}

/*
 * The blocks of a v collective's result on rank r (allgatherv, gatherv at
 * the root, alltoallv and alltoallw): every block, then every gap of RECV.
 */
static int check_vblocks(vine_vctx *ctx, int r)
{
    const vine_args *a = ctx->a;
    int p = ctx->p, a2a = a->coll == VINE_COLL_ALLTOALLV || a->coll == VINE_COLL_ALLTOALLW;
    const size_t *rc = a2a ? vine__args_row(a, a->rcounts, r) : a->rcounts;
    const size_t *rd = a2a ? vine__args_row(a, a->rdispls, r) : a->rdispls;
    vblock *bl = malloc((size_t)p * sizeof *bl);
    if (!bl)
        return VINE_ERR_NO_MEM;
    int n = 0, rc_ = VINE_OK;
    for (int i = 0; i < p; i++)
        if (rc[i])
            bl[n++] = (vblock){rd[i], rc[i], a2a ? vine__args_row(a, a->sdispls, i)[r] : 0, i};
    for (int k = 0; k < n && rc_ == VINE_OK; k++)
        rc_ = check_piece(ctx, r, bl[k].off, bl[k].len, bl[k].e0, bl[k].from);
    qsort(bl, (size_t)n, sizeof *bl, vblock_cmp);
    size_t at = 0, size = ctx->lay[r].size[VINE_BUF_RECV];
    for (int k = 0; k <= n && rc_ == VINE_OK; k++) {
        size_t next = k < n ? bl[k].off : size;
        if (next > at)
            rc_ = check_gap(ctx, r, at, next - at);
        if (k < n && bl[k].off + bl[k].len > at)
            at = bl[k].off + bl[k].len;
    }
    free(bl);
    return rc_;
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
    if (l->res == VINE_VRES_REDUCED) {
        int rc = check_piece(ctx, r, 0, l->res_len, l->res_e0, -1);
        /* An in-place reduce-scatter's input past the result must still be the input. */
        if (rc == VINE_OK && l->in_buf == VINE_BUF_RECV && l->in_len > l->res_len)
            rc = check_piece(ctx, r, l->in_off + l->res_len, l->in_len - l->res_len, l->res_len, r);
        return rc;
    }
    if (l->res == VINE_VRES_FROM)
        return check_piece(ctx, r, 0, l->res_len, l->res_e0, l->res_from);
    if (l->res == VINE_VRES_BLOCKS)
        return check_vblocks(ctx, r);
    if (l->res == VINE_VRES_PREFIX)
        return check_prefix(ctx, r, 0, l->res_len, 0, -1, l->res_from);
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

/* Sets up the buffers: every rank's shm region, undefined before the first call. */
static int init_data(vine_vctx *ctx)
{
    int p = ctx->p;
    ctx->bufs = calloc((size_t)p * VINE_BUF_COUNT, sizeof *ctx->bufs);
    if (!ctx->bufs)
        return VINE_ERR_NO_MEM;
    for (int r = 0; r < p; r++)
        if (vine__vbuf_init(&ctx->bufs[r * VINE_BUF_COUNT + VINE_BUF_SHM],
                            ctx->calls[0].lay[r].size[VINE_BUF_SHM]) ||
            vine__vbuf_init(&ctx->bufs[r * VINE_BUF_COUNT + VINE_BUF_PAR], 2 * ctx->par_size) ||
            vine__vbuf_init(&ctx->bufs[r * VINE_BUF_COUNT + VINE_BUF_EAG], 2 * ctx->par_size))
            return VINE_ERR_NO_MEM;
    return VINE_OK;
}

int vine__verify_init_rank(vine_vctx *ctx, int r)
{
    int c = ctx->callno[r];
    const vine_vlayout *l = &ctx->calls[c].lay[r];
    vine_vbuf *b = &ctx->bufs[r * VINE_BUF_COUNT];
    for (int k = VINE_BUF_SEND; k <= VINE_BUF_TMP; k++) {
        vine__vbuf_free(&b[k]);
        if (vine__vbuf_init(&b[k], l->size[k]))
            return VINE_ERR_NO_MEM;
    }
    vine_vdesc d = {vine__vhash_call(r, c), 1, r, r, 1, 1};
    if (l->in_len &&
        vine__vbuf_fill(&b[l->in_buf], l->in_off, l->in_len, 0, &d, &ctx->v1, &ctx->tmp))
        return VINE_ERR_NO_MEM;
    return VINE_OK;
}

/* The per-rank state of the run. */
static int ctx_alloc(vine_vctx *ctx)
{
    size_t p = (size_t)ctx->p;
    ctx->callno = calloc(p, sizeof *ctx->callno);
    ctx->cur = calloc(p, sizeof *ctx->cur);
    ctx->pending = calloc(p, sizeof *ctx->pending);
    ctx->pc = calloc(p, sizeof *ctx->pc);
    ctx->phase = calloc(p, sizeof *ctx->phase);
    ctx->nset = calloc(p, sizeof *ctx->nset);
    ctx->nwait = calloc(p, sizeof *ctx->nwait);
    ctx->blocked = calloc(p, sizeof *ctx->blocked);
    ctx->wtarget = calloc(p, sizeof *ctx->wtarget);
    ctx->whead = calloc(p, sizeof *ctx->whead);
    ctx->wnext = calloc(p, sizeof *ctx->wnext);
    ctx->stack = calloc(p, sizeof *ctx->stack);
    ctx->calls = calloc((size_t)ctx->ncalls, sizeof *ctx->calls);
    ctx->par_slot = calloc((size_t)ctx->ncalls, sizeof *ctx->par_slot);
    ctx->eag_slot = calloc((size_t)ctx->ncalls, sizeof *ctx->eag_slot);
    ctx->prev_shm = calloc((size_t)ctx->ncalls, sizeof *ctx->prev_shm);
    ctx->wcall = calloc(p, sizeof *ctx->wcall);
    if (ctx->ncalls > 1 && !(ctx->saved = calloc((size_t)ctx->ncalls * p, sizeof *ctx->saved)))
        return VINE_ERR_NO_MEM;
    if (!ctx->callno || !ctx->cur || !ctx->pending || !ctx->pc || !ctx->phase || !ctx->nset ||
        !ctx->nwait || !ctx->blocked || !ctx->wtarget || !ctx->whead || !ctx->wnext ||
        !ctx->stack || !ctx->calls || !ctx->par_slot || !ctx->eag_slot || !ctx->prev_shm ||
        !ctx->wcall)
        return VINE_ERR_NO_MEM;
    return VINE_OK;
}

/*
 * Sets up call c with case a and schedules s: its layouts, then checks 1 to 3.
 * A call with the same case and schedules as an earlier one shares its
 * results.
 */
static int call_setup(vine_vctx *ctx, int c, const vine_args *a, vine_sched *s)
{
    vine_vcall *k = &ctx->calls[c];
    k->a = a;
    k->s = s;
    for (int r = 0; r < ctx->p; r++)
        k->hash_all += vine__vhash_call(r, c);
    for (int d = 0; d < c; d++)
        if (ctx->calls[d].a == a && ctx->calls[d].s == s) {
            k->lay = ctx->calls[d].lay;
            k->partner = ctx->calls[d].partner;
            k->round_of = ctx->calls[d].round_of;
            return VINE_OK;
        }
    size_t p = (size_t)ctx->p;
    k->owner = 1;
    k->lay = calloc(p, sizeof *k->lay);
    k->partner = calloc(p, sizeof *k->partner);
    k->round_of = calloc(p, sizeof *k->round_of);
    if (!k->lay || !k->partner || !k->round_of)
        return VINE_ERR_NO_MEM;
    vine__vview(ctx, c);
    for (int r = 0; r < ctx->p; r++) {
        if (vine__verify_layout(a, r, &k->lay[r]))
            return vine__verr(ctx, "the verifier has no layout for collective %d%s", (int)a->coll,
                              a->counts ? "" : " without counts");
        k->lay[r].size[VINE_BUF_TMP] = s[r].tmp_count;
    }
    int rc = vine__verify_static(ctx);
    return rc ? rc : vine__verify_match(ctx);
}

static void ctx_free(vine_vctx *ctx)
{
    for (int c = 0; ctx->calls && c < ctx->ncalls; c++) {
        vine_vcall *k = &ctx->calls[c];
        for (int r = 0; k->owner && r < ctx->p; r++) {
            if (k->partner)
                free(k->partner[r]);
            if (k->round_of)
                free(k->round_of[r]);
        }
        if (k->owner) {
            free(k->lay);
            free(k->partner);
            free(k->round_of);
        }
    }
    for (int r = 0; ctx->bufs && r < ctx->p; r++)
        for (int k = 0; k < VINE_BUF_COUNT; k++)
            vine__vbuf_free(&ctx->bufs[r * VINE_BUF_COUNT + k]);
    for (size_t k = 0; ctx->saved && k < (size_t)ctx->ncalls * (size_t)ctx->p; k++)
        vine__vbuf_free(&ctx->saved[k]);
    free(ctx->saved);
    vine__vrace_free(ctx);
    free(ctx->calls);
    free(ctx->par_slot);
    free(ctx->eag_slot);
    free(ctx->prev_shm);
    free(ctx->wcall);
    free(ctx->bufs);
    free(ctx->callno);
    free(ctx->cur);
    free(ctx->pending);
    free(ctx->pc);
    free(ctx->phase);
    free(ctx->nset);
    free(ctx->nwait);
    free(ctx->blocked);
    free(ctx->wtarget);
    free(ctx->whead);
    free(ctx->wnext);
    free(ctx->stack);
    free(ctx->heard);
    free(ctx->news);
    vine__vvec_free(&ctx->v1);
    vine__vvec_free(&ctx->v2);
    vine__vvec_free(&ctx->v3);
    vine__vvec_free(&ctx->tmp);
}

/*
 * Check 6 for every call, after the run: each call's saved receive buffers
 * and heard sets in turn.
 */
static int check_results(vine_vctx *ctx)
{
    if (ctx->ncalls == 1) {
        vine__vview(ctx, 0);
        return vine__verify_result(ctx);
    }
    uint64_t *heard = ctx->heard;
    size_t p = (size_t)ctx->p;
    int rc = VINE_OK;
    for (int c = 0; c < ctx->ncalls && rc == VINE_OK; c++) {
        for (size_t r = 0; r < p; r++) {
            vine_vbuf *b = &ctx->bufs[r * VINE_BUF_COUNT + VINE_BUF_RECV];
            vine__vbuf_free(b);
            *b = ctx->saved[(size_t)c * p + r];
            memset(&ctx->saved[(size_t)c * p + r], 0, sizeof *b);
        }
        if (heard)
            ctx->heard = heard + (size_t)c * p * ctx->sync_words;
        vine__vview(ctx, c);
        rc = vine__verify_result(ctx);
    }
    ctx->heard = heard;
    return rc;
}

/* Consecutive calls run on one communicator: one size, one shm segment. */
static int calls_agree(vine_vctx *ctx, int ncalls, const vine_args *const *args)
{
    if (ncalls < 1)
        return vine__verr(ctx, "%d calls: at least one is needed", ncalls);
    if (args[0]->p < 1)
        return vine__verr(ctx, "communicator size %d is not positive", args[0]->p);
    for (int c = 1; c < ncalls; c++) {
        if (args[c]->p != args[0]->p)
            return vine__verr(ctx,
                              "call %d runs on %d ranks, call 1 on %d: consecutive calls "
                              "share one communicator",
                              c + 1, args[c]->p, args[0]->p);
        if (shm_region(args[c]) != shm_region(args[0]))
            return vine__verr(ctx,
                              "call %d has shm regions of %zu elements, call 1 of %zu: "
                              "consecutive calls share one segment",
                              c + 1, shm_region(args[c]), shm_region(args[0]));
        if (args[c]->shm_par_count != args[0]->shm_par_count)
            return vine__verr(ctx,
                              "call %d has parity slots of %zu elements, call 1 of %zu: "
                              "consecutive calls share one segment",
                              c + 1, args[c]->shm_par_count, args[0]->shm_par_count);
    }
    return VINE_OK;
}

int vine__verify_calls(int ncalls, const vine_args *const *args, vine_sched *const *scheds,
                       char *msg, size_t msglen)
{
    vine_vctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.msg = msg;
    ctx.msglen = msglen;
    if (msglen)
        msg[0] = '\0';
    int rc = calls_agree(&ctx, ncalls, args);
    if (rc)
        return rc;
    ctx.p = args[0]->p;
    ctx.ncalls = ncalls;
    rc = ctx_alloc(&ctx);
    for (int c = 0; c < ncalls && rc == VINE_OK; c++)
        rc = call_setup(&ctx, c, args[c], scheds[c]);
    /* The executor's count of par calls: all ranks agree (checked by call_setup). */
    ctx.par_size = args[0]->shm_par_count;
    for (int c = 0, n = 0; c < ncalls && rc == VINE_OK; c++) {
        ctx.par_slot[c] = n % 2;
        n += scheds[c][0].par != 0;
    }
    /* The executor's count of shm calls: the eager slot and the call WAIT PREV names. */
    for (int c = 0, n = 0, prev = -1; c < ncalls && rc == VINE_OK; c++) {
        ctx.eag_slot[c] = n % 2;
        ctx.prev_shm[c] = prev;
        if (scheds[c][0].shm) {
            n++;
            prev = c;
        }
    }
    /* Vector clocks for shared memory and for calls that follow each other. */
    ctx.clocks = ncalls > 1;
    for (int c = 0; c < ncalls && rc == VINE_OK; c++)
        for (int r = 0; r < ctx.p; r++)
            ctx.clocks |= scheds[c][r].shm != 0;
    if (rc == VINE_OK)
        rc = init_data(&ctx);
    if (rc == VINE_OK)
        rc = vine__verify_run(&ctx);
    if (rc == VINE_OK)
        rc = check_results(&ctx);
    ctx_free(&ctx);
    if (rc == VINE_ERR_NO_MEM && msglen)
        snprintf(msg, msglen, "out of memory");
    return rc;
}

int vine__verify_scheds(const vine_args *a, vine_sched *scheds, char *msg, size_t msglen)
{
    const vine_args *args[3] = {a, a, a};
    vine_sched *s[3] = {scheds, scheds, scheds};
    int shm = 0, par = 0;
    for (int r = 0; r < a->p; r++) {
        shm |= scheds[r].shm != 0;
        par |= scheds[r].par != 0 || scheds[r].eag != 0;
    }
    /* A parity or eager slot is written again two calls later: three calls show its reuse. */
    return vine__verify_calls(par ? 3 : shm ? 2 : 1, args, s, msg, msglen);
}

/* Builds the schedules of all ranks of case a into *out (freed by the caller with free_all). */
static int build_all(const vine_algo *algo, const vine_args *a, vine_sched **out, int *nbuilt,
                     char *msg, size_t msglen)
{
    vine_sched *s = calloc((size_t)a->p, sizeof *s);
    *out = s;
    *nbuilt = 0;
    if (!s)
        return VINE_ERR_NO_MEM;
    /*
     * gatherv and scatterv: a rank other than the root knows its own count
     * only, unless the algorithm asks for all (VINE_ALGO_ALLCOUNTS); its
     * schedule is built from such a table, as at run time.
     */
    int own_only = (a->coll == VINE_COLL_GATHERV || a->coll == VINE_COLL_SCATTERV) &&
                   !(algo->flags & VINE_ALGO_ALLCOUNTS);
    const size_t *full = a->coll == VINE_COLL_GATHERV ? a->rcounts : a->scounts;
    size_t *own = own_only && full ? calloc((size_t)a->p, sizeof *own) : NULL;
    if (own_only && full && !own)
        return VINE_ERR_NO_MEM;
    int rc = VINE_OK, built = 0;
    for (; built < a->p && rc == VINE_OK; built++) {
        vine_args b = *a;
        b.rank = built;
        if (own && built != a->root) {
            own[built] = full[built];
            if (a->coll == VINE_COLL_GATHERV)
                b.rcounts = own;
            else
                b.scounts = own;
        }
        rc = vine__algo_build(algo, &b, &s[built]);
        if (own)
            own[built] = 0;
    }
    free(own);
    *nbuilt = rc == VINE_OK ? built : built - 1;
    if (rc == VINE_ERR_UNSUPPORTED) {
        rc = VINE_ERR_INTERNAL;
        if (msglen)
            snprintf(msg, msglen, "rank %d: the builder refused a case its restrictions admit",
                     built - 1);
    } else if (rc == VINE_ERR_INTERNAL && msglen)
        snprintf(msg, msglen, "rank %d: the builder reported an inconsistent schedule", built - 1);
    else if (rc == VINE_ERR_NO_MEM && msglen)
        snprintf(msg, msglen, "out of memory");
    return rc;
}

static void free_all(vine_sched *s, int nbuilt)
{
    for (int r = 0; r < nbuilt; r++)
        vine__sched_free(&s[r]);
    free(s);
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
    vine_sched *s;
    int built;
    int rc = build_all(algo, a, &s, &built, msg, msglen);
    if (rc == VINE_OK)
        rc = vine__verify_scheds(a, s, msg, msglen);
    free_all(s, built);
    return rc;
}

int vine__verify_cases(int ncalls, const vine_algo *const *algos, const vine_args *args, char *msg,
                       size_t msglen)
{
    if (msglen)
        msg[0] = '\0';
    if (ncalls < 1 || ncalls > VINE_VERIFY_MAX_CALLS || args[0].p < 1) {
        if (msglen)
            snprintf(msg, msglen, "%d calls of %d ranks: 1 to %d calls of at least one rank",
                     ncalls, ncalls > 0 ? args[0].p : 0, VINE_VERIFY_MAX_CALLS);
        return VINE_ERR_INTERNAL;
    }
    for (int c = 0; c < ncalls; c++)
        if (vine__algo_admits(algos[c], &args[c]) != VINE_OK)
            return VINE_ERR_UNSUPPORTED;
    vine_sched *s[VINE_VERIFY_MAX_CALLS] = {NULL};
    const vine_args *a[VINE_VERIFY_MAX_CALLS];
    int built[VINE_VERIFY_MAX_CALLS] = {0}, rc = VINE_OK, c = 0;
    for (; c < ncalls && rc == VINE_OK; c++) {
        a[c] = &args[c];
        if (args[c].p != args[0].p) {
            rc = VINE_ERR_INTERNAL;
            if (msglen)
                snprintf(msg, msglen,
                         "call %d runs on %d ranks, call 1 on %d: consecutive "
                         "calls share one communicator",
                         c + 1, args[c].p, args[0].p);
            break;
        }
        rc = build_all(algos[c], &args[c], &s[c], &built[c], msg, msglen);
        if (rc && ncalls > 1 && msglen) {
            char why[512];
            snprintf(why, sizeof why, "%s", msg);
            snprintf(msg, msglen, "call %d: %s", c + 1, why);
        }
    }
    if (rc == VINE_OK)
        rc = vine__verify_calls(ncalls, a, s, msg, msglen);
    for (int k = 0; k < ncalls; k++)
        if (s[k])
            free_all(s[k], built[k]);
    return rc;
}
