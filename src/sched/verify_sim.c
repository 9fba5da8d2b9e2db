/*
 * The run of the symbolic verifier.
 *
 * Every rank posts its current round; a message is matched when the rounds of
 * both its send and its receive are posted (a send completes only when its
 * receive is posted, the strictest semantics MPI allows), and its data moves
 * then: the sender cannot change the range before, by the round rules.  A
 * round whose messages are all matched completes: its local operations run in
 * order and the rank posts its next round.  A WAIT whose flag event has not
 * happened yet (the peer's SET of a value at least as large in the same call,
 * or for value 0 the peer's start of the call) blocks the rank there; the
 * flag's owner wakes it when it gets there.  Ranks left unfinished when
 * nothing can run are deadlocked.
 *
 * Consecutive calls (ctx->ncalls > 1): a rank that finishes its schedule of
 * one call has its result checked, gets fresh user buffers and scratch, and
 * enters the next call at once, while others may still be in the previous
 * one; its shm region and its flag carry over.  Messages match within their
 * call.  With vector clocks (verify_race.c) every event is also checked for
 * races on shared memory.
 *
 * For a barrier it also tracks causality: rank r has heard of rank j's start
 * when a chain of messages leads from j's start to r.  A message carries what
 * its sender had heard of when it posted the send's round (the receives of
 * that round may not have completed yet, so they do not count), and the
 * receiver learns it when its own round completes.  Sends teach the sender
 * nothing: with eager sends a send completes without its receive.  With
 * vector clocks the same is read from the clocks, where a WAIT also teaches
 * the waiter what its peer had heard of at the SET.
 */
#include "verify_int.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static vine_vbuf *buf(vine_vctx *ctx, int r, int b)
{
    return &ctx->bufs[r * VINE_BUF_COUNT + b];
}

/* Moves the data of a matched message from its sender to its receiver. */
static int transfer(vine_vctx *ctx, int r, size_t i, vine_vpeer q)
{
    const vine_op *op = &vine__vsched(ctx, r)->ops[i], *qop = &vine__vsched(ctx, q.rank)->ops[q.op];
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
    for (int c = 0; c < ctx->ncalls; c++)
        for (int r = 0; r < ctx->p && !sync; r++)
            sync = ctx->calls[c].lay[r].res == VINE_VRES_SYNC;
    if (!sync)
        return VINE_OK;
    size_t words = ((size_t)ctx->p + 63) / 64;
    ctx->sync_words = words;
    /* One set per rank and call: the clocks fill call c's at the end of the rank's call c. */
    ctx->heard = calloc((size_t)ctx->ncalls * (size_t)ctx->p * words, sizeof *ctx->heard);
    if (!ctx->heard)
        return VINE_ERR_NO_MEM;
    if (ctx->vc)
        return VINE_OK; /* the clocks say it */
    ctx->news = calloc((size_t)ctx->p * words, sizeof *ctx->news);
    if (!ctx->news)
        return VINE_ERR_NO_MEM;
    for (int r = 0; r < ctx->p; r++)
        sync_set(ctx->heard, ctx, r)[r / 64] |= (uint64_t)1 << (r % 64);
    return VINE_OK;
}

static void push(vine_vctx *ctx, int r)
{
    ctx->stack[ctx->nstack++] = r;
}

static int finish_call(vine_vctx *ctx, int r);

/* Posts round k of rank r, matching the messages whose partners are posted. */
static int post(vine_vctx *ctx, int r, size_t k)
{
    const vine_sched *s = vine__vsched(ctx, r);
    int c = ctx->callno[r];
    ctx->cur[r] = k;
    ctx->phase[r] = 0;
    if (k == s->nrounds)
        return finish_call(ctx, r);
    size_t b, e, pend = 0;
    vine__sched_round(s, k, &b, &e);
    if (ctx->vc) {
        int rc = vine__vrace_post(ctx, r, b, e);
        if (rc)
            return rc;
    }
    const vine_vpeer *partner = ctx->calls[c].partner[r];
    for (size_t i = b; i < e; i++) {
        int kind = s->ops[i].kind;
        if (kind != VINE_OP_SEND && kind != VINE_OP_RECV)
            continue;
        vine_vpeer q = partner[i];
        if (ctx->callno[q.rank] != c || ctx->cur[q.rank] != q.round) {
            pend++;
            continue;
        }
        if (transfer(ctx, r, i, q))
            return VINE_ERR_NO_MEM;
        int snd = kind == VINE_OP_SEND;
        if (ctx->vc)
            vine__vrace_msg(ctx, snd ? r : q.rank, snd ? q.rank : r);
        else if (ctx->heard)
            sync_msg(ctx, snd ? r : q.rank, snd ? q.rank : r);
        if (--ctx->pending[q.rank] == 0)
            push(ctx, q.rank);
    }
    ctx->pending[r] = pend;
    if (pend == 0)
        push(ctx, r);
    return VINE_OK;
}

/* Whether rank q has reached flag event t (verify_race.c) of call c. */
static int flag_passed(const vine_vctx *ctx, int q, int c, long t)
{
    return ctx->callno[q] > c || (ctx->callno[q] == c && ctx->nset[q] >= (size_t)t);
}

/* Rank q reached a flag event: the ranks blocked on it whose WAIT passes now run again. */
static void wake(vine_vctx *ctx, int q)
{
    int *link = &ctx->whead[q];
    while (*link >= 0) {
        int w = *link;
        if (flag_passed(ctx, q, ctx->wcall[w], ctx->wtarget[w])) {
            *link = ctx->wnext[w];
            ctx->blocked[w] = -1;
            push(ctx, w);
        } else {
            link = &ctx->wnext[w];
        }
    }
}

/* Enters rank r into the call callno[r]: fresh buffers, flag 0, its first round. */
static int enter(vine_vctx *ctx, int r)
{
    int rc = vine__verify_init_rank(ctx, r);
    ctx->nset[r] = ctx->nwait[r] = 0;
    if (rc == VINE_OK && ctx->vc)
        rc = vine__vrace_start(ctx, r);
    if (rc)
        return rc;
    wake(ctx, r);
    return post(ctx, r, 0);
}

/*
 * Rank r ran its whole schedule of its call: with several calls its receive
 * buffer is kept for the result check after the run, and it enters the next
 * call.
 */
static int finish_call(vine_vctx *ctx, int r)
{
    int c = ctx->callno[r];
    int rc = ctx->vc ? vine__vrace_end(ctx, r) : VINE_OK;
    if (rc || ctx->ncalls == 1)
        return rc;
    vine_vbuf *b = &ctx->bufs[r * VINE_BUF_COUNT + VINE_BUF_RECV];
    ctx->saved[(size_t)c * (size_t)ctx->p + (size_t)r] = *b;
    memset(b, 0, sizeof *b);
    if (c + 1 == ctx->ncalls)
        return VINE_OK;
    ctx->callno[r]++;
    return enter(ctx, r);
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

/* COPY, REDUCE, GET, GETRED: the data (GET and GETRED read the peer's buffer). */
static int run_data(vine_vctx *ctx, int r, size_t i, const vine_op *op)
{
    int from = op->kind == VINE_OP_GET || op->kind == VINE_OP_GETRED ? op->peer : r;
    /* The parity slot is the one of this rank's call, for the peer's copy too. */
    size_t off = vine__vphys(ctx, r, op->buf, op->off),
           doff = vine__vphys(ctx, r, op->dbuf, op->doff);
    if (vine__vbuf_read(buf(ctx, from, op->buf), off, op->count, &ctx->v1))
        return VINE_ERR_NO_MEM;
    if (op->kind == VINE_OP_COPY || op->kind == VINE_OP_GET)
        return vine__vbuf_write(buf(ctx, r, op->dbuf), doff, &ctx->v1, &ctx->tmp);
    if (vine__vbuf_read(buf(ctx, r, op->dbuf), doff, op->count, &ctx->v2))
        return VINE_ERR_NO_MEM;
    int rc = reduce_pieces(ctx, r, i, op);
    if (rc == VINE_OK)
        rc = vine__vbuf_write(buf(ctx, r, op->dbuf), doff, &ctx->v3, &ctx->tmp);
    if (rc == VINE_OK && op->kind == VINE_OP_REDUCE && op->order == VINE_SRC_RIGHT) {
        vine_vdesc none = {0, 0, 0, 0, 0, 0};
        rc = vine__vbuf_fill(buf(ctx, r, op->buf), off, op->count, 0, &none, &ctx->v1, &ctx->tmp);
    }
    return rc;
}

/* A WAIT: passes, learning the peer's clock, or blocks rank r (VINE_VBLOCKED). */
static int run_wait(vine_vctx *ctx, int r, const vine_op *op)
{
    int c = ctx->callno[r], q = op->peer;
    long t = vine__vflag_target(ctx, c, r, ctx->nwait[r]);
    /* WAIT PREV: q's start (event 0) of the shm call before this one, if any. */
    if (op->order == VINE_WAIT_PREV) {
        c = ctx->prev_shm[c];
        if (c < 0) {
            ctx->nwait[r]++;
            return VINE_OK;
        }
    }
    if (!flag_passed(ctx, q, c, t)) {
        ctx->blocked[r] = q;
        ctx->wcall[r] = c;
        ctx->wtarget[r] = t;
        ctx->wnext[r] = ctx->whead[q];
        ctx->whead[q] = r;
        return VINE_VBLOCKED;
    }
    vine__vrace_acquire(ctx, r, q, c, t);
    ctx->nwait[r]++;
    return VINE_OK;
}

/* Runs local op i of rank r; VINE_VBLOCKED when a WAIT must wait. */
static int run_local(vine_vctx *ctx, int r, size_t i)
{
    const vine_op *op = &vine__vsched(ctx, r)->ops[i];
    if (op->kind == VINE_OP_WAIT)
        return run_wait(ctx, r, op);
    if (op->kind == VINE_OP_SET) {
        int rc = vine__vrace_set(ctx, r, ctx->nset[r]++);
        if (rc == VINE_OK)
            wake(ctx, r);
        return rc;
    }
    if (ctx->vc) {
        int rc = vine__vrace_local(ctx, r, i);
        if (rc)
            return rc;
    }
    vine__vview(ctx, ctx->callno[r]); /* for reduce_pieces' messages */
    return run_data(ctx, r, i, op);
}

/*
 * Runs rank r on from where it stands: the completion of its posted round
 * when its messages just completed, then the round's local operations, then
 * the next round, unless a WAIT blocks it.
 */
static int advance(vine_vctx *ctx, int r)
{
    const vine_sched *s = vine__vsched(ctx, r);
    size_t k = ctx->cur[r], b, e;
    vine__sched_round(s, k, &b, &e);
    if (!ctx->phase[r]) {
        ctx->phase[r] = 1;
        ctx->pc[r] = b;
        if (ctx->vc)
            vine__vrace_complete(ctx, r, b, e);
        else if (ctx->heard)
            sync_learn(ctx, r);
    }
    for (size_t i = ctx->pc[r]; i < e; i++) {
        if (!vine__op_local(s->ops[i].kind))
            continue;
        int rc = run_local(ctx, r, i);
        if (rc == VINE_VBLOCKED) {
            ctx->pc[r] = i;
            return VINE_OK;
        }
        if (rc)
            return rc;
    }
    return post(ctx, r, k + 1);
}

static int done(const vine_vctx *ctx, int r)
{
    return ctx->callno[r] == ctx->ncalls - 1 && ctx->cur[r] == vine__vsched(ctx, r)->nrounds;
}

/* Where rank q stands, for a deadlock message about a rank of call c. */
static void stuck_str(const vine_vctx *ctx, int q, int c, char *out, size_t len)
{
    int n = snprintf(out, len, "stuck in round %zu", ctx->cur[q]);
    if (ctx->callno[q] != c && n > 0 && (size_t)n < len)
        n += snprintf(out + n, len - (size_t)n, " of call %d", ctx->callno[q] + 1);
    if (ctx->blocked[q] >= 0 && n > 0 && (size_t)n < len) {
        const vine_op *op = &vine__vsched(ctx, q)->ops[ctx->pc[q]];
        snprintf(out + n, len - (size_t)n, " at op %zu (wait %d %zu)", ctx->pc[q], op->peer,
                 op->count);
    }
}

/* A rank blocked in a WAIT: names the flag and where its owner is stuck. */
static int report_wait(vine_vctx *ctx, int r, int stuck)
{
    const vine_op *op = &vine__vsched(ctx, r)->ops[ctx->pc[r]];
    int q = op->peer, c = ctx->callno[r];
    char where[160];
    stuck_str(ctx, q, c, where, sizeof where);
    char flag[64] = "";
    if (ctx->callno[q] == c) {
        size_t at = 0, n = 0;
        const vine_sched *qs = vine__vsched(ctx, q);
        for (size_t i = 0; i < qs->nops && n < ctx->nset[q]; i++)
            if (qs->ops[i].kind == VINE_OP_SET && ++n == ctx->nset[q])
                at = qs->ops[i].count;
        snprintf(flag, sizeof flag, " with its flag at %zu", at);
    }
    vine__vview(ctx, c);
    if (op->order == VINE_WAIT_PREV)
        return vine__verr_op(ctx, r, ctx->pc[r],
                             "deadlock (%d ranks stuck): waits for rank %d to enter call %d, but "
                             "rank %d is %s",
                             stuck, q, ctx->wcall[r] + 1, q, where);
    return vine__verr_op(ctx, r, ctx->pc[r],
                         "deadlock (%d ranks stuck): waits for rank %d's flag to reach %zu, but "
                         "rank %d is %s%s",
                         stuck, q, op->count, q, where, flag);
}

/* Names the first unfinished rank, its round and the peer it waits on. */
static int report_deadlock(vine_vctx *ctx)
{
    int stuck = 0, first = -1;
    for (int r = 0; r < ctx->p; r++)
        if (!done(ctx, r)) {
            stuck++;
            first = first < 0 ? r : first;
        }
    if (first < 0)
        return VINE_OK;
    if (ctx->blocked[first] >= 0)
        return report_wait(ctx, first, stuck);
    const vine_sched *s = vine__vsched(ctx, first);
    int c = ctx->callno[first];
    vine__vview(ctx, c);
    size_t b, e;
    vine__sched_round(s, ctx->cur[first], &b, &e);
    for (size_t i = b; i < e; i++) {
        int kind = s->ops[i].kind;
        if (kind != VINE_OP_SEND && kind != VINE_OP_RECV)
            continue;
        vine_vpeer q = ctx->partner[first][i];
        size_t qk = q.round;
        if (ctx->callno[q.rank] != c || ctx->cur[q.rank] != qk) {
            char where[160];
            stuck_str(ctx, q.rank, c, where, sizeof where);
            return vine__verr_op(ctx, first, i,
                                 "deadlock (%d ranks stuck): waits for rank %d, which is "
                                 "%s before its matching op %u in round %zu",
                                 stuck, q.rank, where, q.op, qk);
        }
    }
    return vine__verr(ctx, "deadlock: rank %d stuck in round %zu", first, ctx->cur[first]);
}

int vine__verify_run(vine_vctx *ctx)
{
    int rc = ctx->clocks ? vine__vrace_init(ctx) : VINE_OK;
    if (rc == VINE_OK)
        rc = sync_init(ctx);
    if (rc)
        return rc;
    /* Until a rank posts its first round no message may match with it. */
    for (int r = 0; r < ctx->p; r++) {
        ctx->cur[r] = SIZE_MAX;
        ctx->callno[r] = 0;
        ctx->blocked[r] = ctx->whead[r] = -1;
    }
    ctx->nstack = 0;
    for (int r = 0; r < ctx->p; r++) {
        rc = enter(ctx, r);
        if (rc)
            return rc;
    }
    while (ctx->nstack) {
        rc = advance(ctx, ctx->stack[--ctx->nstack]);
        if (rc)
            return rc;
    }
    return report_deadlock(ctx);
}
