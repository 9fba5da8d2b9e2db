/*
 * The rendezvous simulation of the symbolic verifier.
 *
 * Every rank posts its current round; a message is matched when the rounds of
 * both its send and its receive are posted (a send completes only when its
 * receive is posted, the strictest semantics MPI allows), and its data moves
 * then: the sender cannot change the range before, by the round rules.  A
 * round whose messages are all matched completes: its COPY and REDUCE
 * operations run in order and the rank posts its next round.  Ranks left
 * unfinished when no round can complete are deadlocked.
 *
 * For a barrier it also tracks causality: rank r has heard of rank j's start
 * when a chain of messages leads from j's start to r.  A message carries what
 * its sender had heard of when it posted the send's round (the receives of
 * that round may not have completed yet, so they do not count), and the
 * receiver learns it when its own round completes.  Sends teach the sender
 * nothing: with eager sends a send completes without its receive.
 */
#include "verify_int.h"

#include <limits.h>
#include <stdlib.h>

static vine_vbuf *buf(vine_vctx *ctx, int r, int b)
{
    return &ctx->bufs[r * VINE_BUF_COUNT + b];
}

/* Moves the data of a matched message from its sender to its receiver. */
static int transfer(vine_vctx *ctx, int r, size_t i, vine_vpeer q)
{
    const vine_op *op = &ctx->s[r].ops[i], *qop = &ctx->s[q.rank].ops[q.op];
    const vine_op *snd = op->kind == VINE_OP_SEND ? op : qop;
    const vine_op *rcv = op->kind == VINE_OP_SEND ? qop : op;
    int from = op->kind == VINE_OP_SEND ? r : q.rank, to = op->kind == VINE_OP_SEND ? q.rank : r;
    if (snd->count == 0)
        return VINE_OK;
    if (vine__vbuf_read(buf(ctx, from, snd->buf), snd->off, snd->count, &ctx->v1))
        return VINE_ERR_NO_MEM;
    return vine__vbuf_write(buf(ctx, to, rcv->buf), rcv->off, &ctx->v1, &ctx->tmp);
}

static uint64_t *sync_set(uint64_t *sets, const vine_vctx *ctx, int r)
{
    return sets + (size_t)r * ctx->sync_words;
}

/* A matched message from rank from to rank to carries from's knowledge. */
static void sync_msg(vine_vctx *ctx, int from, int to)
{
    const uint64_t *x = sync_set(ctx->heard, ctx, from);
    uint64_t *y = sync_set(ctx->news, ctx, to);
    for (size_t w = 0; w < ctx->sync_words; w++)
        y[w] |= x[w];
}

/* Rank r's round completed: what its receives brought is now known. */
static void sync_learn(vine_vctx *ctx, int r)
{
    uint64_t *x = sync_set(ctx->news, ctx, r), *y = sync_set(ctx->heard, ctx, r);
    for (size_t w = 0; w < ctx->sync_words; w++) {
        y[w] |= x[w];
        x[w] = 0;
    }
}

/* Sets up the knowledge of a barrier: every rank has heard of itself only. */
static int sync_init(vine_vctx *ctx)
{
    int sync = 0;
    for (int r = 0; r < ctx->p && !sync; r++)
        sync = ctx->lay[r].res == VINE_VRES_SYNC;
    if (!sync)
        return VINE_OK;
    size_t words = ((size_t)ctx->p + 63) / 64;
    ctx->sync_words = words;
    ctx->heard = calloc((size_t)ctx->p * words, sizeof *ctx->heard);
    ctx->news = calloc((size_t)ctx->p * words, sizeof *ctx->news);
    if (!ctx->heard || !ctx->news)
        return VINE_ERR_NO_MEM;
    for (int r = 0; r < ctx->p; r++)
        sync_set(ctx->heard, ctx, r)[r / 64] |= (uint64_t)1 << (r % 64);
    return VINE_OK;
}

/* Posts round k of rank r, matching the messages whose partners are posted. */
static int post(vine_vctx *ctx, int r, size_t k)
{
    const vine_sched *s = &ctx->s[r];
    ctx->cur[r] = k;
    if (k == s->nrounds)
        return VINE_OK;
    size_t b, e, pend = 0;
    vine__sched_round(s, k, &b, &e);
    for (size_t i = b; i < e; i++) {
        int kind = s->ops[i].kind;
        if (kind != VINE_OP_SEND && kind != VINE_OP_RECV)
            continue;
        vine_vpeer q = ctx->partner[r][i];
        if (ctx->cur[q.rank] != q.round) {
            pend++;
            continue;
        }
        if (transfer(ctx, r, i, q))
            return VINE_ERR_NO_MEM;
        if (ctx->heard) {
            int snd = kind == VINE_OP_SEND;
            sync_msg(ctx, snd ? r : q.rank, snd ? q.rank : r);
        }
        if (--ctx->pending[q.rank] == 0)
            ctx->stack[ctx->nstack++] = q.rank;
    }
    ctx->pending[r] = pend;
    if (pend == 0)
        ctx->stack[ctx->nstack++] = r;
    return VINE_OK;
}

/* The combination of left operand l with right operand r. */
static vine_vdesc combine(const vine_vdesc *l, const vine_vdesc *r)
{
    vine_vdesc d;
    long long n = (long long)l->n + r->n;
    d.hash = l->hash + r->hash;
    d.n = n > INT32_MAX ? INT32_MAX : (int32_t)n;
    d.defined = 1;
    d.ordered = l->ordered && r->ordered && (long long)l->hi + 1 == r->lo;
    /* An ordered result spans l's lowest to r's highest rank.  An unordered
     * one can never become ordered again, and only its contributor set
     * matters: keeping the plain minimum and maximum lets pieces with the
     * same set merge, whatever order each was combined in. */
    d.lo = d.ordered || l->lo < r->lo ? l->lo : r->lo;
    d.hi = d.ordered || r->hi > l->hi ? r->hi : l->hi;
    return d;
}

/* v3 := v1 (source) combined with v2 (destination) element-wise, per op's order. */
static int reduce_pieces(vine_vctx *ctx, int r, size_t i, const vine_op *op)
{
    const vine_vvec *src = &ctx->v1, *dst = &ctx->v2;
    size_t x = 0, ia = 0, ib = 0;
    ctx->v3.n = 0;
    while (ia < src->n && ib < dst->n) {
        const vine_vseg *a = &src->a[ia], *b = &dst->a[ib];
        size_t ea = a->e0 + (x - a->off), eb = b->e0 + (x - b->off);
        if (!a->d.defined || !b->d.defined)
            return vine__verr_op(ctx, r, i, "the %s operand at element offset %zu is undefined",
                                 a->d.defined ? "destination" : "source", x);
        if (ea != eb)
            return vine__verr_op(ctx, r, i, "combines element %zu with element %zu at offset %zu",
                                 ea, eb, x);
        size_t a_end = a->off + a->len, b_end = b->off + b->len;
        size_t y = a_end < b_end ? a_end : b_end;
        int left = op->order == VINE_SRC_LEFT;
        vine_vseg c = {x, y - x, eb, combine(left ? &a->d : &b->d, left ? &b->d : &a->d)};
        if (vine__vvec_push(&ctx->v3, &c))
            return VINE_ERR_NO_MEM;
        x = y;
        ia += a_end == y;
        ib += b_end == y;
    }
    return VINE_OK;
}

static int run_local(vine_vctx *ctx, int r, size_t i)
{
    const vine_op *op = &ctx->s[r].ops[i];
    if (vine__vbuf_read(buf(ctx, r, op->buf), op->off, op->count, &ctx->v1))
        return VINE_ERR_NO_MEM;
    if (op->kind == VINE_OP_COPY)
        return vine__vbuf_write(buf(ctx, r, op->dbuf), op->doff, &ctx->v1, &ctx->tmp);
    if (vine__vbuf_read(buf(ctx, r, op->dbuf), op->doff, op->count, &ctx->v2))
        return VINE_ERR_NO_MEM;
    int rc = reduce_pieces(ctx, r, i, op);
    if (rc == VINE_OK)
        rc = vine__vbuf_write(buf(ctx, r, op->dbuf), op->doff, &ctx->v3, &ctx->tmp);
    if (rc == VINE_OK && op->order == VINE_SRC_RIGHT) {
        vine_vdesc none = {0, 0, 0, 0, 0, 0};
        rc = vine__vbuf_fill(buf(ctx, r, op->buf), op->off, op->count, 0, &none, &ctx->v1,
                             &ctx->tmp);
    }
    return rc;
}

/* Completes the posted round of r: its local operations, then the next round. */
static int complete(vine_vctx *ctx, int r)
{
    const vine_sched *s = &ctx->s[r];
    size_t k = ctx->cur[r], b, e;
    vine__sched_round(s, k, &b, &e);
    for (size_t i = b; i < e; i++) {
        int kind = s->ops[i].kind;
        if (kind == VINE_OP_COPY || kind == VINE_OP_REDUCE) {
            int rc = run_local(ctx, r, i);
            if (rc)
                return rc;
        }
    }
    if (ctx->heard)
        sync_learn(ctx, r);
    return post(ctx, r, k + 1);
}

/* Names the first unfinished rank, its round and the peer it waits on. */
static int report_deadlock(vine_vctx *ctx)
{
    int stuck = 0, first = -1;
    for (int r = 0; r < ctx->p; r++)
        if (ctx->cur[r] < ctx->s[r].nrounds) {
            stuck++;
            first = first < 0 ? r : first;
        }
    if (first < 0)
        return VINE_OK;
    const vine_sched *s = &ctx->s[first];
    size_t b, e;
    vine__sched_round(s, ctx->cur[first], &b, &e);
    for (size_t i = b; i < e; i++) {
        int kind = s->ops[i].kind;
        if (kind != VINE_OP_SEND && kind != VINE_OP_RECV)
            continue;
        vine_vpeer q = ctx->partner[first][i];
        size_t qk = q.round;
        if (ctx->cur[q.rank] != qk)
            return vine__verr_op(ctx, first, i,
                                 "deadlock (%d ranks stuck): waits for rank %d, which is "
                                 "stuck in round %zu before its matching op %u in round %zu",
                                 stuck, q.rank, ctx->cur[q.rank], q.op, qk);
    }
    return vine__verr(ctx, "deadlock: rank %d stuck in round %zu", first, ctx->cur[first]);
}

int vine__verify_run(vine_vctx *ctx)
{
    int rc = sync_init(ctx);
    if (rc)
        return rc;
    /* Until a rank posts its first round no message may match with it. */
    for (int r = 0; r < ctx->p; r++)
        ctx->cur[r] = SIZE_MAX;
    ctx->nstack = 0;
    for (int r = 0; r < ctx->p; r++) {
        rc = post(ctx, r, 0);
        if (rc)
            return rc;
    }
    while (ctx->nstack) {
        rc = complete(ctx, ctx->stack[--ctx->nstack]);
        if (rc)
            return rc;
    }
    return report_deadlock(ctx);
}
