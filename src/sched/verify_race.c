/*
 * Happens-before and races of shared memory, for the symbolic verifier.
 *
 * A rank's shm region (and, with single copy, its send and receive buffers)
 * may be read by the other ranks of the node while its owner runs on.  The
 * run of verify_sim.c is one interleaving of many; this file proves that the
 * data every GET sees is the same in all of them.  Every rank keeps a vector
 * clock: its own entry ticks at each of its events, and it learns the others'
 * through happens-before edges: a matched message carries the clock its
 * sender had when it posted the send's round (the receiver learns it when its
 * round completes, as for the barrier check), and a WAIT carries the clock
 * its peer had at the SET that satisfies it (or at the start of the call for
 * flag value 0).  Each shared buffer has a shadow, segments that record the
 * last write (the owner's epochs at its start and end: a receive lasts from
 * the post of its round to the round's completion) and the reads of other
 * ranks since.  A read must come after the last write (the reader has heard
 * of its end), and a write must come after every read since the previous one
 * (the owner has heard of each).  Only owners write, so writes are ordered by
 * program order and these two checks cover every pair.  User buffers are
 * written at the start of the call (the user filled them) and at its end (the
 * user owns them again); shm regions persist from call to call.
 *
 * Memory: two p x p clocks, one clock per SET that some WAIT still has to
 * read, and segments with their readers per shared buffer.
 */
#include "verify_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* More ranks than this make the p x p clocks too large. */
#define VC_MAX_RANKS 16384

static uint32_t *vc_of(const vine_vctx *ctx, int r)
{
    return ctx->vc + (size_t)r * (size_t)ctx->p;
}

static uint32_t tick(vine_vctx *ctx, int r)
{
    return ++vc_of(ctx, r)[r];
}

#if defined(__GNUC__)
typedef uint32_t vine_v4u __attribute__((vector_size(16)));
#endif

/* x := max(x, y) element-wise: the hot loop of the clocks, 4 lanes at a time where the compiler
 * can. */
static void join(uint32_t *restrict x, const uint32_t *restrict y, int p)
{
    int q = 0;
#if defined(__GNUC__)
    for (; q + 4 <= p; q += 4) {
        vine_v4u a, b;
        memcpy(&a, x + q, sizeof a);
        memcpy(&b, y + q, sizeof b);
        vine_v4u m = (vine_v4u)(a > b);
        a = (a & m) | (b & ~m);
        memcpy(x + q, &a, sizeof a);
    }
#endif
    for (; q < p; q++)
        x[q] = y[q] > x[q] ? y[q] : x[q];
}

static vine_vshadow *shadow(const vine_vctx *ctx, int r, int b)
{
    return &ctx->shadow[(size_t)r * VINE_BUF_COUNT + (size_t)b];
}

static vine_vflag *flag(const vine_vctx *ctx, int c, int r)
{
    return &ctx->flags[(size_t)c * (size_t)ctx->p + (size_t)r];
}

/* ---- shadow segments ------------------------------------------------------ */

static void sh_clear(vine_vshadow *sh)
{
    for (size_t k = 0; k < sh->n; k++)
        free(sh->a[k].rd);
    sh->n = 0;
}

static int sh_reserve(vine_vshadow *sh, size_t need)
{
    return vine__grow((void **)&sh->a, &sh->cap, need, sizeof *sh->a);
}

/* Makes the shadow one segment of size elements, last written by w. */
static int sh_reset(vine_vshadow *sh, size_t size, vine_vwrite w)
{
    sh_clear(sh);
    sh->size = size;
    if (size == 0)
        return VINE_OK;
    if (sh_reserve(sh, 1))
        return VINE_ERR_NO_MEM;
    sh->a[0] = (vine_vshseg){0, size, w, NULL, 0, 0};
    sh->n = 1;
    return VINE_OK;
}

/* The segment that holds element off (off < size). */
static size_t sh_find(const vine_vshadow *sh, size_t off)
{
    size_t lo = 0, hi = sh->n;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (sh->a[mid].off <= off)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* Whether read rd overlaps [off, end). */
static int rd_overlaps(const vine_vread *rd, size_t off, size_t end)
{
    return rd->off < end && off < rd->off + rd->len;
}

/* Appends rd to the reads of s. */
static int sh_push_read(vine_vshseg *s, const vine_vread *rd)
{
    if (s->nrd == s->rd_cap) {
        uint32_t ncap = s->rd_cap ? 2 * s->rd_cap : 4;
        vine_vread *n = realloc(s->rd, ncap * sizeof *n);
        if (!n)
            return VINE_ERR_NO_MEM;
        s->rd = n;
        s->rd_cap = ncap;
    }
    s->rd[s->nrd++] = *rd;
    return VINE_OK;
}

/* Makes a segment start at off; each part keeps the reads that overlap it. */
static int sh_split(vine_vshadow *sh, size_t off)
{
    if (off == 0 || off >= sh->size)
        return VINE_OK;
    size_t i = sh_find(sh, off);
    if (sh->a[i].off == off)
        return VINE_OK;
    if (sh_reserve(sh, sh->n + 1))
        return VINE_ERR_NO_MEM;
    vine_vshseg *s = &sh->a[i], c = *s;
    size_t end = s->off + s->len;
    c.off = off;
    c.len = end - off;
    c.rd = NULL;
    c.nrd = c.rd_cap = 0;
    uint32_t keep = 0;
    for (uint32_t j = 0; j < s->nrd; j++) {
        if (rd_overlaps(&s->rd[j], off, end) && sh_push_read(&c, &s->rd[j])) {
            free(c.rd);
            return VINE_ERR_NO_MEM;
        }
        if (rd_overlaps(&s->rd[j], s->off, off))
            s->rd[keep++] = s->rd[j];
    }
    s->nrd = keep;
    s->len = off - s->off;
    memmove(&sh->a[i + 2], &sh->a[i + 1], (sh->n - i - 1) * sizeof *sh->a);
    sh->a[i + 1] = c;
    sh->n++;
    return VINE_OK;
}

/* Segments [*i0, *i1) cover exactly [off, off + len), len > 0. */
static int sh_range(vine_vshadow *sh, size_t off, size_t len, size_t *i0, size_t *i1)
{
    if (sh_split(sh, off) || sh_split(sh, off + len))
        return VINE_ERR_NO_MEM;
    *i0 = sh_find(sh, off);
    *i1 = off + len >= sh->size ? sh->n : sh_find(sh, off + len);
    return VINE_OK;
}

/* Adds rd to the reads of s; a read by the same rank of no more than rd's range is replaced. */
static int sh_add_read(vine_vshseg *s, const vine_vread *rd)
{
    if (s->nrd) {
        vine_vread *last = &s->rd[s->nrd - 1];
        if (last->rank == rd->rank && rd->off <= last->off &&
            last->off + last->len <= rd->off + rd->len) {
            *last = *rd;
            return VINE_OK;
        }
    }
    return sh_push_read(s, rd);
}

/* ---- messages ------------------------------------------------------------- */

/* "its op i (round k, <op>)", with the call when it is not the call in view. */
static void op_where(const vine_vctx *ctx, int c, int r, uint32_t i, char *out, size_t len)
{
    char what[160];
    const vine_vcall *k = &ctx->calls[c];
    vine__vop_str(&k->s[r].ops[i], what, sizeof what);
    int n = snprintf(out, len, "its op %u (round %u, %s)", i, k->round_of[r][i], what);
    if (c != ctx->call && n > 0 && (size_t)n < len)
        snprintf(out + n, len - (size_t)n, " in call %d", c + 1);
}

/* Owner r's write w of buffer b meets read rd of segment s that it has not heard of. */
static int write_race(vine_vctx *ctx, int r, int b, const vine_vshseg *s, const vine_vread *rd,
                      vine_vwrite w)
{
    char where[256];
    size_t lo = s->off > rd->off ? s->off : rd->off;
    size_t hi = s->off + s->len < rd->off + rd->len ? s->off + s->len : rd->off + rd->len;
    vine__vview(ctx, w.call);
    op_where(ctx, rd->call, rd->rank, rd->op, where, sizeof where);
    if (w.op == VINE_VW_END)
        return vine__verr(ctx,
                          "rank %d returns from its call, handing %s[%zu,+%zu) back to its "
                          "user, while rank %d may still read it (%s), without a flag ordering "
                          "them (nothing keeps rank %d in the call until the read)",
                          r, vine__vbuf_name(b), lo, hi - lo, rd->rank, where, r);
    return vine__verr_op(ctx, r, w.op,
                         "overwrites %s[%zu,+%zu) while rank %d may still read it (%s), without "
                         "a flag ordering them",
                         vine__vbuf_name(b), lo, hi - lo, rd->rank, where);
}

/*
 * Reader r's op i reads [off, off + len) of segment s of rank q's buffer b
 * before hearing of its last write.
 */
static int read_race(vine_vctx *ctx, int r, size_t i, int q, int b, const vine_vshseg *s,
                     size_t off, size_t len)
{
    char where[256];
    const char *name = vine__vbuf_name(b);
    size_t lo = s->off > off ? s->off : off;
    size_t hi = s->off + s->len < off + len ? s->off + s->len : off + len;
    vine__vview(ctx, ctx->callno[r]);
    if (s->w.op == VINE_VW_START)
        return vine__verr_op(ctx, r, i,
                             "reads rank %d's %s[%zu,+%zu), which its user hands over when it "
                             "enters the call, without a flag ordering them (wait for its flag "
                             "0 first)",
                             q, name, lo, hi - lo);
    if (s->w.op == VINE_VW_END)
        return vine__verr_op(ctx, r, i,
                             "reads rank %d's %s[%zu,+%zu) after rank %d may have returned from "
                             "its call, without a flag ordering them (nothing keeps rank %d in "
                             "the call until the read)",
                             q, name, lo, hi - lo, q, q);
    op_where(ctx, s->w.call, q, s->w.op, where, sizeof where);
    return vine__verr_op(ctx, r, i,
                         "reads rank %d's %s[%zu,+%zu) written by %s without a flag ordering "
                         "them",
                         q, name, lo, hi - lo, where);
}

/* ---- accesses ------------------------------------------------------------- */

/* Owner r writes [off, off + len) of its buffer b with w; its clock stands at the write's start. */
static int sh_write(vine_vctx *ctx, int r, int b, size_t off, size_t len, vine_vwrite w)
{
    vine_vshadow *sh = shadow(ctx, r, b);
    size_t i0, i1;
    if (!sh->on || len == 0)
        return VINE_OK;
    if (sh_range(sh, off, len, &i0, &i1))
        return VINE_ERR_NO_MEM;
    const uint32_t *vc = vc_of(ctx, r);
    for (size_t k = i0; k < i1; k++)
        for (uint32_t j = 0; j < sh->a[k].nrd; j++) {
            const vine_vread *rd = &sh->a[k].rd[j];
            if (vc[rd->rank] < rd->ep)
                return write_race(ctx, r, b, &sh->a[k], rd, w);
        }
    for (size_t k = i0; k < i1; k++)
        free(sh->a[k].rd);
    sh->a[i0] = (vine_vshseg){off, len, w, NULL, 0, 0};
    memmove(&sh->a[i0 + 1], &sh->a[i1], (sh->n - i1) * sizeof *sh->a);
    sh->n -= i1 - i0 - 1;
    return VINE_OK;
}

/* Rank r's op i reads [off, off + len) of rank q's buffer b. */
static int sh_read(vine_vctx *ctx, int r, size_t i, int q, int b, size_t off, size_t len)
{
    vine_vshadow *sh = shadow(ctx, q, b);
    if (len == 0)
        return VINE_OK;
    const uint32_t *vc = vc_of(ctx, r);
    size_t end = off + len, i0 = sh_find(sh, off), k;
    for (k = i0; k < sh->n && sh->a[k].off < end; k++) {
        const vine_vwrite *w = &sh->a[k].w;
        if (w->op != VINE_VW_NONE && vc[q] < w->end)
            return read_race(ctx, r, i, q, b, &sh->a[k], off, len);
    }
    vine_vread rd = {off, len, r, ctx->callno[r], vc[r], (uint32_t)i};
    for (size_t j = i0; j < k; j++)
        if (sh_add_read(&sh->a[j], &rd))
            return VINE_ERR_NO_MEM;
    return VINE_OK;
}

/* A GET of a peer's user buffer: the peer must be in the same call (the buffer exists). */
static int read_peer(vine_vctx *ctx, int r, size_t i, const vine_op *op)
{
    int c = ctx->callno[r], q = op->peer;
    if (!vine__buf_shared(op->buf) && ctx->callno[q] != c) {
        vine__vview(ctx, c);
        return vine__verr_op(ctx, r, i,
                             "reads rank %d's %s[%zu,+%zu) while rank %d is in call %d, %s this "
                             "call, without a flag ordering them",
                             q, vine__vbuf_name(op->buf), op->off, op->count, q, ctx->callno[q] + 1,
                             ctx->callno[q] < c ? "before" : "after");
    }
    /* Both slots of q's parity (eager) area are one shadow: the reader's call picks the slot. */
    return sh_read(ctx, r, i, q, op->buf, vine__vphys(ctx, r, op->buf, op->off), op->count);
}

int vine__vrace_local(vine_vctx *ctx, int r, size_t i)
{
    const vine_op *op = &vine__vsched(ctx, r)->ops[i];
    uint32_t ep = tick(ctx, r);
    vine_vwrite w = {ep, ctx->callno[r], (uint32_t)i};
    int rc = VINE_OK;
    if (op->kind == VINE_OP_GET || op->kind == VINE_OP_GETRED)
        rc = read_peer(ctx, r, i, op);
    if (rc == VINE_OK)
        rc = sh_write(ctx, r, op->dbuf, vine__vphys(ctx, r, op->dbuf, op->doff), op->count, w);
    /* A src-right reduce clobbers its source. */
    if (rc == VINE_OK && op->kind == VINE_OP_REDUCE && op->order == VINE_SRC_RIGHT)
        rc = sh_write(ctx, r, op->buf, vine__vphys(ctx, r, op->buf, op->off), op->count, w);
    return rc;
}

int vine__vrace_post(vine_vctx *ctx, int r, size_t b, size_t e)
{
    const vine_sched *s = vine__vsched(ctx, r);
    tick(ctx, r); /* the receives' writes start here: earlier reads must have been heard of */
    for (size_t i = b; i < e; i++) {
        const vine_op *op = &s->ops[i];
        if (op->kind != VINE_OP_RECV)
            continue;
        vine_vwrite w = {VINE_VEP_OPEN, ctx->callno[r], (uint32_t)i};
        int rc = sh_write(ctx, r, op->buf, op->off, op->count, w);
        if (rc)
            return rc;
    }
    return VINE_OK;
}

void vine__vrace_msg(vine_vctx *ctx, int from, int to)
{
    join(ctx->vnews + (size_t)to * (size_t)ctx->p, vc_of(ctx, from), ctx->p);
}

void vine__vrace_complete(vine_vctx *ctx, int r, size_t b, size_t e)
{
    const vine_sched *s = vine__vsched(ctx, r);
    uint32_t *news = ctx->vnews + (size_t)r * (size_t)ctx->p;
    join(vc_of(ctx, r), news, ctx->p);
    memset(news, 0, (size_t)ctx->p * sizeof *news);
    uint32_t ep = tick(ctx, r);
    /* The receives into shared buffers end here. */
    for (size_t i = b; i < e; i++) {
        const vine_op *op = &s->ops[i];
        vine_vshadow *sh = shadow(ctx, r, op->buf);
        if (op->kind != VINE_OP_RECV || !sh->on || op->count == 0)
            continue;
        size_t end = op->off + op->count;
        for (size_t k = sh_find(sh, op->off); k < sh->n && sh->a[k].off < end; k++)
            if (sh->a[k].w.end == VINE_VEP_OPEN)
                sh->a[k].w.end = ep;
    }
}

/* ---- flags ---------------------------------------------------------------- */

/* Records r's clock at flag event t of call c when some WAIT will read it. */
static int snapshot(vine_vctx *ctx, int r, int c, size_t t)
{
    vine_vflag *f = flag(ctx, c, r);
    if (!f->refs[t])
        return VINE_OK;
    /* Spare clocks first: freeing and allocating p entries per SET makes malloc trim the heap. */
    f->snap[t] =
        ctx->nspare ? ctx->spare[--ctx->nspare] : malloc((size_t)ctx->p * sizeof *f->snap[t]);
    if (!f->snap[t])
        return VINE_ERR_NO_MEM;
    memcpy(f->snap[t], vc_of(ctx, r), (size_t)ctx->p * sizeof *f->snap[t]);
    return VINE_OK;
}

/* Keeps a clock that no WAIT needs any more for the next snapshot. */
static void release(vine_vctx *ctx, uint32_t *snap)
{
    if (ctx->nspare == ctx->spare_cap) {
        size_t ncap = ctx->spare_cap ? 2 * ctx->spare_cap : 64;
        uint32_t **n = realloc(ctx->spare, ncap * sizeof *n);
        if (!n) {
            free(snap);
            return;
        }
        ctx->spare = n;
        ctx->spare_cap = ncap;
    }
    ctx->spare[ctx->nspare++] = snap;
}

int vine__vrace_set(vine_vctx *ctx, int r, size_t k)
{
    tick(ctx, r);
    return snapshot(ctx, r, ctx->callno[r], k + 1);
}

/*
 * The first SET of f with a value >= v, galloping from *hint (the previous
 * answer for this flag): a rank's WAITs on one peer mostly ask for rising values.
 */
static size_t first_at_least(const vine_vflag *f, size_t v, size_t *hint)
{
    size_t lo = 0, hi = f->nsets, step = 1;
    if (*hint < f->nsets && f->set_val[*hint] < v) {
        for (lo = *hint + 1; lo + step <= f->nsets && f->set_val[lo + step - 1] < v; step *= 2)
            lo += step;
        hi = lo + step < f->nsets ? lo + step : f->nsets;
    } else if (*hint < f->nsets) {
        hi = *hint;
    }
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (f->set_val[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    *hint = lo;
    return lo;
}

long vine__vflag_target(const vine_vctx *ctx, int c, int r, size_t k)
{
    return flag(ctx, c, r)->wait_t[k];
}

void vine__vrace_acquire(vine_vctx *ctx, int r, int q, int c, long t)
{
    vine_vflag *f = flag(ctx, c, q);
    uint32_t *vc = vc_of(ctx, r);
    /* Clocks travel whole, so a rank that has heard of q's event knows all q knew there. */
    if (vc[q] < f->snap[t][q])
        join(vc, f->snap[t], ctx->p);
    if (--f->refs[t] == 0) {
        release(ctx, f->snap[t]);
        f->snap[t] = NULL;
    }
    tick(ctx, r);
}

/* ---- calls ---------------------------------------------------------------- */

int vine__vrace_start(vine_vctx *ctx, int r)
{
    int c = ctx->callno[r];
    uint32_t ep = tick(ctx, r);
    ctx->start_ep[(size_t)c * (size_t)ctx->p + (size_t)r] = ep;
    const vine_vlayout *l = &ctx->calls[c].lay[r];
    vine_vwrite w = {ep, c, VINE_VW_START};
    for (int b = VINE_BUF_SEND; b <= VINE_BUF_RECV; b++)
        if (shadow(ctx, r, b)->on && sh_reset(shadow(ctx, r, b), l->size[b], w))
            return VINE_ERR_NO_MEM;
    return snapshot(ctx, r, c, 0);
}

/* A barrier: r has heard of j's start of this call when its clock covers it. */
static void fill_heard(vine_vctx *ctx, int r)
{
    const uint32_t *vc = vc_of(ctx, r);
    const uint32_t *st = ctx->start_ep + (size_t)ctx->callno[r] * (size_t)ctx->p;
    size_t at = (size_t)ctx->callno[r] * (size_t)ctx->p + (size_t)r;
    uint64_t *h = ctx->heard + at * ctx->sync_words;
    memset(h, 0, ctx->sync_words * sizeof *h);
    for (int j = 0; j < ctx->p; j++)
        if (st[j] && vc[j] >= st[j])
            h[j / 64] |= (uint64_t)1 << (j % 64);
}

int vine__vrace_end(vine_vctx *ctx, int r)
{
    int c = ctx->callno[r];
    uint32_t ep = tick(ctx, r);
    vine_vwrite w = {ep, c, VINE_VW_END};
    for (int b = VINE_BUF_SEND; b <= VINE_BUF_RECV; b++) {
        vine_vshadow *sh = shadow(ctx, r, b);
        int rc = sh->on ? sh_write(ctx, r, b, 0, sh->size, w) : VINE_OK;
        if (rc)
            return rc;
    }
    if (ctx->heard)
        fill_heard(ctx, r);
    return VINE_OK;
}

/* ---- set-up --------------------------------------------------------------- */

/* Lists the SETs of rank r in call c. */
static int flag_init(vine_vctx *ctx, int c, int r)
{
    const vine_sched *s = &ctx->calls[c].s[r];
    vine_vflag *f = flag(ctx, c, r);
    size_t n = 0, nw = 0;
    for (size_t i = 0; i < s->nops; i++) {
        n += s->ops[i].kind == VINE_OP_SET;
        nw += s->ops[i].kind == VINE_OP_WAIT;
    }
    f->set_val = malloc((n ? n : 1) * sizeof *f->set_val);
    f->wait_t = malloc((nw ? nw : 1) * sizeof *f->wait_t);
    f->refs = calloc(n + 1, sizeof *f->refs);
    f->snap = calloc(n + 1, sizeof *f->snap);
    if (!f->set_val || !f->wait_t || !f->refs || !f->snap)
        return VINE_ERR_NO_MEM;
    for (size_t i = 0; i < s->nops; i++)
        if (s->ops[i].kind == VINE_OP_SET)
            f->set_val[f->nsets++] = s->ops[i].count;
    return VINE_OK;
}

/*
 * Finds the flag event each WAIT of rank r in call c waits for and counts the
 * WAITs of each event; a WAIT that no event satisfies never passes.  hint has
 * p entries of scratch.  Also marks the buffers that GETs read as shared.
 */
static int count_waits(vine_vctx *ctx, int c, int r, size_t *hint)
{
    const vine_sched *s = &ctx->calls[c].s[r];
    uint32_t *wt = flag(ctx, c, r)->wait_t;
    for (int q = 0; q < ctx->p; q++)
        hint[q] = 0;
    for (size_t i = 0; i < s->nops; i++) {
        const vine_op *op = &s->ops[i];
        if (op->kind == VINE_OP_GET || op->kind == VINE_OP_GETRED)
            shadow(ctx, op->peer, op->buf)->on = 1;
        if (op->kind != VINE_OP_WAIT)
            continue;
        if (op->order == VINE_WAIT_PREV) {
            /* q's start of the shm call before c; none: the WAIT passes at once. */
            int d = ctx->prev_shm[c];
            if (d >= 0)
                flag(ctx, d, op->peer)->refs[0]++;
            *wt++ = 0;
            continue;
        }
        vine_vflag *f = flag(ctx, c, op->peer);
        size_t k = op->count ? first_at_least(f, op->count, &hint[op->peer]) + 1 : 0;
        if (k <= f->nsets) {
            f->refs[k]++;
            *wt++ = (uint32_t)k;
            continue;
        }
        vine__vview(ctx, c);
        return vine__verr_op(ctx, r, i,
                             "deadlock: waits for rank %d's flag to reach %zu, which rank %d "
                             "never sets in this call (its highest value is %zu)",
                             op->peer, op->count, op->peer,
                             f->nsets ? f->set_val[f->nsets - 1] : (size_t)0);
    }
    return VINE_OK;
}

int vine__vrace_init(vine_vctx *ctx)
{
    size_t p = (size_t)ctx->p, n = (size_t)ctx->ncalls;
    if (ctx->p > VC_MAX_RANKS)
        return vine__verr(ctx,
                          "%d ranks: the shared-memory and consecutive-call checks keep p x p "
                          "vector clocks and stop at %d ranks",
                          ctx->p, VC_MAX_RANKS);
    ctx->vc = calloc(p * p, sizeof *ctx->vc);
    ctx->vnews = calloc(p * p, sizeof *ctx->vnews);
    ctx->start_ep = calloc(n * p, sizeof *ctx->start_ep);
    ctx->flags = calloc(n * p, sizeof *ctx->flags);
    ctx->shadow = calloc(p * VINE_BUF_COUNT, sizeof *ctx->shadow);
    if (!ctx->vc || !ctx->vnews || !ctx->start_ep || !ctx->flags || !ctx->shadow)
        return VINE_ERR_NO_MEM;
    int rc = VINE_OK;
    for (int c = 0; c < ctx->ncalls && rc == VINE_OK; c++)
        for (int r = 0; r < ctx->p && rc == VINE_OK; r++)
            rc = flag_init(ctx, c, r);
    size_t *hint = malloc(p * sizeof *hint);
    if (!hint)
        return VINE_ERR_NO_MEM;
    for (int c = 0; c < ctx->ncalls && rc == VINE_OK; c++)
        for (int r = 0; r < ctx->p && rc == VINE_OK; r++)
            rc = count_waits(ctx, c, r, hint);
    free(hint);
    /* The shm regions start unwritten, before the first call. */
    vine_vwrite none = {0, 0, VINE_VW_NONE};
    for (int r = 0; r < ctx->p && rc == VINE_OK; r++)
        if (shadow(ctx, r, VINE_BUF_SHM)->on)
            rc = sh_reset(shadow(ctx, r, VINE_BUF_SHM), ctx->calls[0].lay[r].size[VINE_BUF_SHM],
                          none);
    /* The parity and eager areas: both slots, also unwritten before the first call. */
    for (int r = 0; r < ctx->p && rc == VINE_OK; r++)
        for (int b = VINE_BUF_PAR; b <= VINE_BUF_EAG && rc == VINE_OK; b++)
            if (shadow(ctx, r, b)->on)
                rc = sh_reset(shadow(ctx, r, b), 2 * ctx->par_size, none);
    return rc;
}

void vine__vrace_free(vine_vctx *ctx)
{
    for (size_t k = 0; ctx->flags && k < (size_t)ctx->ncalls * (size_t)ctx->p; k++) {
        vine_vflag *f = &ctx->flags[k];
        for (size_t t = 0; f->snap && t <= f->nsets; t++)
            free(f->snap[t]);
        free(f->set_val);
        free(f->wait_t);
        free(f->refs);
        free(f->snap);
    }
    for (size_t k = 0; ctx->shadow && k < (size_t)ctx->p * VINE_BUF_COUNT; k++) {
        sh_clear(&ctx->shadow[k]);
        free(ctx->shadow[k].a);
    }
    for (size_t k = 0; k < ctx->nspare; k++)
        free(ctx->spare[k]);
    free(ctx->spare);
    ctx->spare = NULL;
    ctx->nspare = ctx->spare_cap = 0;
    free(ctx->vc);
    free(ctx->vnews);
    free(ctx->start_ep);
    free(ctx->flags);
    free(ctx->shadow);
    ctx->vc = ctx->vnews = ctx->start_ep = NULL;
    ctx->flags = NULL;
    ctx->shadow = NULL;
}
