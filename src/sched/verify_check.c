/*
 * Static checks of the symbolic verifier: the shape of each schedule, the
 * bounds of every range, the read-only send buffer, overlaps inside a round,
 * the shared-memory operations (peers on the node, readable buffers, flag
 * values, the schedule's shm mark), and the pairing of sends with receives
 * (the k-th send from a to b meets the k-th receive at b from a, MPI's
 * non-overtaking rule).  All of it looks at the call in view.
 */
#include "verify_int.h"

#include <stdlib.h>
#include <string.h>

/* Rounds must partition the operations in order. */
static int check_shape(vine_vctx *ctx, int r)
{
    const vine_sched *s = &ctx->s[r];
    if (s->err)
        return vine__verr(ctx, "rank %d: the schedule carries error status %d", r, s->err);
    if (s->p != ctx->p || s->rank != r)
        return vine__verr(ctx, "rank %d: the schedule is for rank %d of %d", r, s->rank, s->p);
    if (s->nops >= UINT32_MAX)
        return vine__verr(ctx, "rank %d: too many operations (%zu)", r, s->nops);
    for (size_t k = 0; k < s->nrounds; k++)
        if (s->round_end[k] < (k ? s->round_end[k - 1] : 0) || s->round_end[k] > s->nops)
            return vine__verr(ctx, "rank %d: round %zu ends at op %zu, out of order", r, k,
                              s->round_end[k]);
    size_t last = s->nrounds ? s->round_end[s->nrounds - 1] : 0;
    if (last != s->nops)
        return vine__verr(ctx, "rank %d: ops %zu.. lie after the last round", r, last);
    ctx->round_of[r] = malloc((s->nops ? s->nops : 1) * sizeof **ctx->round_of);
    if (!ctx->round_of[r])
        return VINE_ERR_NO_MEM;
    for (size_t k = 0; k < s->nrounds; k++)
        for (size_t i = k ? s->round_end[k - 1] : 0; i < s->round_end[k]; i++)
            ctx->round_of[r][i] = (uint32_t)k;
    return VINE_OK;
}

/* Whether [off, off + count) lies inside buffer b of rank r. */
static int in_bounds(const vine_vctx *ctx, int r, int b, size_t off, size_t count)
{
    size_t size = ctx->lay[r].size[b];
    return off <= size && count <= size - off;
}

static int bounds_err(vine_vctx *ctx, int r, size_t i, int b, size_t off, size_t count)
{
    return vine__verr_op(ctx, r, i, "%s[%zu,+%zu) lies outside the %zu-element %s buffer",
                         vine__vbuf_name(b), off, count, ctx->lay[r].size[b], vine__vbuf_name(b));
}

static int check_msg(vine_vctx *ctx, int r, size_t i, const vine_op *op)
{
    if (op->buf >= VINE_BUF_COUNT)
        return vine__verr_op(ctx, r, i, "unknown buffer %d", op->buf);
    if (op->peer < 0 || op->peer >= ctx->p || op->peer == r)
        return vine__verr_op(ctx, r, i, "peer %d is not another rank of 0..%d", op->peer,
                             ctx->p - 1);
    if (op->kind == VINE_OP_RECV && op->buf == VINE_BUF_SEND)
        return vine__verr_op(ctx, r, i, "receives into the read-only send buffer");
    if (op->buf == VINE_BUF_PAR || op->buf == VINE_BUF_EAG)
        return vine__verr_op(ctx, r, i, "messages do not use the parity or eager slots (%s)",
                             vine__vbuf_name(op->buf));
    if (!in_bounds(ctx, r, op->buf, op->off, op->count))
        return bounds_err(ctx, r, i, op->buf, op->off, op->count);
    return VINE_OK;
}

static int check_local(vine_vctx *ctx, int r, size_t i, const vine_op *op)
{
    if (op->buf >= VINE_BUF_COUNT || op->dbuf >= VINE_BUF_COUNT)
        return vine__verr_op(ctx, r, i, "unknown buffer");
    if (op->dbuf == VINE_BUF_SEND)
        return vine__verr_op(ctx, r, i, "writes the read-only send buffer");
    if (op->kind == VINE_OP_REDUCE && op->order != VINE_SRC_LEFT && op->order != VINE_SRC_RIGHT)
        return vine__verr_op(ctx, r, i, "unknown operand order %d", op->order);
    if (op->kind == VINE_OP_REDUCE && op->order == VINE_SRC_RIGHT && op->buf == VINE_BUF_SEND)
        return vine__verr_op(ctx, r, i,
                             "a src-right reduce clobbers its source, here the send buffer");
    if (!in_bounds(ctx, r, op->buf, op->off, op->count))
        return bounds_err(ctx, r, i, op->buf, op->off, op->count);
    if (!in_bounds(ctx, r, op->dbuf, op->doff, op->count))
        return bounds_err(ctx, r, i, op->dbuf, op->doff, op->count);
    if (op->buf == op->dbuf && op->off < op->doff + op->count && op->doff < op->off + op->count)
        return vine__verr_op(ctx, r, i, "source and destination overlap");
    return VINE_OK;
}

/* A peer of a shared-memory operation: another rank of the node. */
static int check_shm_peer(vine_vctx *ctx, int r, size_t i, int q)
{
    if (q < 0 || q >= ctx->p || q == r)
        return vine__verr_op(ctx, r, i, "peer %d is not another rank of 0..%d", q, ctx->p - 1);
    if (!vine__vsame_node(ctx->a, r, q))
        return vine__verr_op(ctx, r, i,
                             "rank %d lies on another node (level-0 group %d, this rank's is "
                             "%d): shared memory reaches the ranks of the node only",
                             q, vine__levels_group(ctx->a->levels, 0, q),
                             vine__levels_group(ctx->a->levels, 0, r));
    return VINE_OK;
}

/* GET and GETRED: the peer's range in a buffer it exposes, ours in a writable one. */
static int check_get(vine_vctx *ctx, int r, size_t i, const vine_op *op)
{
    int rc = check_shm_peer(ctx, r, i, op->peer), q = op->peer;
    if (rc)
        return rc;
    if (op->buf >= VINE_BUF_COUNT || op->dbuf >= VINE_BUF_COUNT)
        return vine__verr_op(ctx, r, i, "unknown buffer");
    if (!vine__buf_shared(op->buf) &&
        !(ctx->a->shm_single && (op->buf == VINE_BUF_SEND || op->buf == VINE_BUF_RECV)))
        return vine__verr_op(ctx, r, i,
                             "reads rank %d's %s buffer: only shm regions can be read, and "
                             "send and recv buffers with single copy (shm_single)%s",
                             q, vine__vbuf_name(op->buf),
                             op->buf == VINE_BUF_TMP ? "" : ", which this case does not have");
    if (op->dbuf == VINE_BUF_SEND)
        return vine__verr_op(ctx, r, i, "writes the read-only send buffer");
    if (op->kind == VINE_OP_GETRED && op->order != VINE_SRC_LEFT)
        return vine__verr_op(ctx, r, i,
                             "a getred combines the peer's data on the left (VINE_SRC_LEFT)");
    if (!in_bounds(ctx, q, op->buf, op->off, op->count))
        return vine__verr_op(ctx, r, i,
                             "rank %d's %s[%zu,+%zu) lies outside its %zu-element %s buffer", q,
                             vine__vbuf_name(op->buf), op->off, op->count,
                             ctx->lay[q].size[op->buf], vine__vbuf_name(op->buf));
    if (!in_bounds(ctx, r, op->dbuf, op->doff, op->count))
        return bounds_err(ctx, r, i, op->dbuf, op->doff, op->count);
    return VINE_OK;
}

/* SET and WAIT: flag values of one call; *last is the rank's previous SET value. */
static int check_flag(vine_vctx *ctx, int r, size_t i, const vine_op *op, size_t *last)
{
    if (op->kind == VINE_OP_WAIT) {
        int rc = check_shm_peer(ctx, r, i, op->peer);
        if (rc == VINE_OK && op->order != 0 && op->order != VINE_WAIT_PREV)
            rc = vine__verr_op(ctx, r, i, "unknown wait kind %d", op->order);
        if (rc == VINE_OK && op->order == VINE_WAIT_PREV && op->count != 0)
            rc = vine__verr_op(ctx, r, i, "a wait for the previous call has flag value %zu, not 0",
                               op->count);
        if (rc == VINE_OK && op->count >= VINE_SHM_FLAG_MAX)
            rc = vine__verr_op(ctx, r, i, "flag value %zu is not below VINE_SHM_FLAG_MAX (%zu)",
                               op->count, VINE_SHM_FLAG_MAX);
        return rc;
    }
    if (op->count < 1 || op->count >= VINE_SHM_FLAG_MAX)
        return vine__verr_op(ctx, r, i, "flag value %zu lies outside 1..%zu", op->count,
                             VINE_SHM_FLAG_MAX - 1);
    if (op->count <= *last)
        return vine__verr_op(ctx, r, i,
                             "flag values must increase strictly within a schedule: %zu "
                             "follows %zu",
                             op->count, *last);
    *last = op->count;
    return VINE_OK;
}

/* Whether op touches shared memory: a shared-memory operation or the SHM buffer. */
static int uses_shm(const vine_op *op)
{
    if (op->kind >= VINE_OP_SET)
        return 1;
    return vine__buf_shared(op->buf) || (vine__op_local(op->kind) && vine__buf_shared(op->dbuf));
}

/* s's par (b = PAR) or eag (EAG) mark, and its count in *n. */
static int slot_mark(const vine_sched *s, int b, size_t *n)
{
    *n = b == VINE_BUF_PAR ? s->par_count : s->eag_count;
    return b == VINE_BUF_PAR ? s->par : s->eag;
}

/*
 * Ranges of the parity (eager) slot lie within the schedule's par_count
 * (eag_count), which the executor sizes the slot by (inline or in the area).
 */
static int check_slot(vine_vctx *ctx, int r, size_t i, const vine_op *op, int b)
{
    const vine_sched *s = &ctx->s[r];
    int src = op->buf == b && op->kind != VINE_OP_SET && op->kind != VINE_OP_WAIT;
    int dst = vine__op_local(op->kind) && op->kind != VINE_OP_SET && op->kind != VINE_OP_WAIT &&
              op->dbuf == b;
    if (!src && !dst)
        return VINE_OK;
    size_t n;
    int mark = slot_mark(s, b, &n);
    const char *name = vine__vbuf_name(b);
    if (!mark)
        return vine__verr_op(ctx, r, i,
                             "uses the %s slot in a schedule without the %s mark "
                             "(vine__sched_%s)",
                             name, name, name);
    size_t off = src ? op->off : op->doff;
    if ((src && (op->off > n || op->count > n - op->off)) ||
        (dst && (op->doff > n || op->count > n - op->doff)))
        return vine__verr_op(ctx, r, i,
                             "%s[%zu,+%zu) lies outside the schedule's %zu %s elements "
                             "(%s_count)",
                             name, off, op->count, n, name, name);
    return VINE_OK;
}

static int check_op(vine_vctx *ctx, int r, size_t i, size_t *last_set)
{
    const vine_op *op = &ctx->s[r].ops[i];
    if (op->kind <= VINE_OP_GETRED && uses_shm(op) && !ctx->s[r].shm)
        return vine__verr_op(ctx, r, i,
                             "uses shared memory in a schedule without the shm mark "
                             "(vine__sched_shm)");
    int rc = check_slot(ctx, r, i, op, VINE_BUF_PAR);
    if (rc == VINE_OK)
        rc = check_slot(ctx, r, i, op, VINE_BUF_EAG);
    if (rc)
        return rc;
    switch (op->kind) {
    case VINE_OP_SEND:
    case VINE_OP_RECV:
        return check_msg(ctx, r, i, op);
    case VINE_OP_COPY:
    case VINE_OP_REDUCE:
        return check_local(ctx, r, i, op);
    case VINE_OP_SET:
    case VINE_OP_WAIT:
        return check_flag(ctx, r, i, op, last_set);
    case VINE_OP_GET:
    case VINE_OP_GETRED:
        return check_get(ctx, r, i, op);
    default:
        return vine__verr_op(ctx, r, i, "unknown operation kind");
    }
}

/* A message's range, for the overlap check of a round. */
typedef struct range {
    size_t off, end, op;
    int buf, recv;
} range;

static int range_cmp(const void *x, const void *y)
{
    const range *a = x, *b = y;
    if (a->buf != b->buf)
        return a->buf < b->buf ? -1 : 1;
    if (a->off != b->off)
        return a->off < b->off ? -1 : 1;
    return a->op < b->op ? -1 : a->op > b->op;
}

/*
 * Within a round a receive may overlap no other receive and no send of the
 * same buffer.  Sorted by start, a range overlaps an earlier one exactly when
 * it starts before the largest end seen so far.
 */
static int check_round_overlap(vine_vctx *ctx, int r, size_t b, size_t e, range *rg)
{
    const vine_op *ops = ctx->s[r].ops;
    size_t n = 0;
    for (size_t i = b; i < e; i++)
        if ((ops[i].kind == VINE_OP_SEND || ops[i].kind == VINE_OP_RECV) && ops[i].count)
            rg[n++] = (range){ops[i].off, ops[i].off + ops[i].count, i, ops[i].buf,
                              ops[i].kind == VINE_OP_RECV};
    qsort(rg, n, sizeof *rg, range_cmp);
    size_t end_any = 0, end_recv = 0, op_any = 0, op_recv = 0;
    for (size_t k = 0; k < n; k++) {
        if (k == 0 || rg[k].buf != rg[k - 1].buf)
            end_any = end_recv = 0;
        size_t lim = rg[k].recv ? end_any : end_recv;
        if (rg[k].off < lim)
            return vine__verr_op(ctx, r, rg[k].op, "overlaps op %zu of the same round",
                                 rg[k].recv ? op_any : op_recv);
        if (rg[k].end > end_any) {
            end_any = rg[k].end;
            op_any = rg[k].op;
        }
        if (rg[k].recv && rg[k].end > end_recv) {
            end_recv = rg[k].end;
            op_recv = rg[k].op;
        }
    }
    return VINE_OK;
}

static int check_rank(vine_vctx *ctx, int r, range **rg, size_t *rg_cap)
{
    const vine_sched *s = &ctx->s[r];
    int rc = check_shape(ctx, r);
    size_t last_set = 0;
    for (size_t i = 0; rc == VINE_OK && i < s->nops; i++)
        rc = check_op(ctx, r, i, &last_set);
    for (size_t k = 0; rc == VINE_OK && k < s->nrounds; k++) {
        size_t b, e;
        vine__sched_round(s, k, &b, &e);
        if (e - b > *rg_cap) {
            range *n = realloc(*rg, (e - b) * sizeof *n);
            if (!n)
                return VINE_ERR_NO_MEM;
            *rg = n;
            *rg_cap = e - b;
        }
        rc = check_round_overlap(ctx, r, b, e, *rg);
    }
    return rc;
}

/* The par (b = PAR) or eag (EAG) mark and count of every rank: shm, within a slot, alike. */
static int slot_marks(vine_vctx *ctx, int b)
{
    const char *name = vine__vbuf_name(b);
    size_t n0, n;
    int m0 = slot_mark(&ctx->s[0], b, &n0);
    for (int r = 0; r < ctx->p; r++) {
        const vine_sched *s = &ctx->s[r];
        int m = slot_mark(s, b, &n);
        if (m && !s->shm)
            return vine__verr(ctx, "rank %d: a %s schedule without the shm mark", r, name);
        if (m && n > ctx->a->shm_par_count)
            return vine__verr(ctx, "rank %d: %zu %s elements, but a slot holds %zu", r, n, name,
                              ctx->a->shm_par_count);
        if (!m != !m0 || (m && n != n0))
            return vine__verr(ctx,
                              "rank %d: the schedule's %s mark (%d, %zu elements) differs from "
                              "rank 0's (%d, %zu): all ranks of a call must agree",
                              r, name, m, n, m0, n0);
    }
    return VINE_OK;
}

int vine__verify_static(vine_vctx *ctx)
{
    range *rg = NULL;
    size_t rg_cap = 0;
    int rc = VINE_OK;
    for (int r = 0; r < ctx->p && rc == VINE_OK; r++)
        rc = check_rank(ctx, r, &rg, &rg_cap);
    free(rg);
    /* The executor publishes flag 0 only for marked schedules: every rank must agree. */
    for (int r = 1; r < ctx->p && rc == VINE_OK; r++)
        if (!ctx->s[r].shm != !ctx->s[0].shm)
            rc = vine__verr(ctx,
                            "rank %d: the schedule's shm mark (%d) differs from rank 0's (%d): "
                            "all ranks of a call must agree",
                            r, ctx->s[r].shm, ctx->s[0].shm);
    /* The executor maps the parity and eager slots by the marks and counts: every rank must
     * agree on them too. */
    if (rc == VINE_OK)
        rc = slot_marks(ctx, VINE_BUF_PAR);
    if (rc == VINE_OK)
        rc = slot_marks(ctx, VINE_BUF_EAG);
    return rc;
}

/* A receive, keyed by the rank it comes from and its place in the schedule. */
typedef struct rkey {
    int peer;
    uint32_t op;
} rkey;

static int rkey_cmp(const void *x, const void *y)
{
    const rkey *a = x, *b = y;
    if (a->peer != b->peer)
        return a->peer < b->peer ? -1 : 1;
    return a->op < b->op ? -1 : a->op > b->op;
}

/* Whether keys are in order already (a rank often receives from one peer only). */
static int sorted(const rkey *keys, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (rkey_cmp(&keys[i - 1], &keys[i]) > 0)
            return 0;
    return 1;
}

/* Lists every rank's receives sorted by (source, order); start has p + 1 entries. */
static int sort_recvs(vine_vctx *ctx, rkey **keys, size_t *start)
{
    start[0] = 0;
    for (int r = 0; r < ctx->p; r++) {
        size_t n = 0;
        for (size_t i = 0; i < ctx->s[r].nops; i++)
            n += ctx->s[r].ops[i].kind == VINE_OP_RECV;
        start[r + 1] = start[r] + n;
    }
    *keys = malloc((start[ctx->p] ? start[ctx->p] : 1) * sizeof **keys);
    if (!*keys)
        return VINE_ERR_NO_MEM;
    for (int r = 0; r < ctx->p; r++) {
        rkey *k = *keys + start[r];
        for (size_t i = 0; i < ctx->s[r].nops; i++)
            if (ctx->s[r].ops[i].kind == VINE_OP_RECV)
                *k++ = (rkey){ctx->s[r].ops[i].peer, (uint32_t)i};
        if (!sorted(*keys + start[r], start[r + 1] - start[r]))
            qsort(*keys + start[r], start[r + 1] - start[r], sizeof **keys, rkey_cmp);
    }
    return VINE_OK;
}

/* The first of keys[lo, hi) coming from peer (hi when none). */
static size_t first_from(const rkey *keys, size_t lo, size_t hi, int peer)
{
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (keys[mid].peer < peer)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Pairs rank a's sends; seen[b] counts a's sends to b so far. */
static int match_sends(vine_vctx *ctx, int a, const rkey *keys, const size_t *start, size_t *seen)
{
    const vine_sched *s = &ctx->s[a];
    int rc = VINE_OK;
    for (size_t i = 0; rc == VINE_OK && i < s->nops; i++) {
        const vine_op *op = &s->ops[i];
        if (op->kind != VINE_OP_SEND)
            continue;
        int b = op->peer;
        size_t first = first_from(keys, start[b], start[b + 1], a), at = first + seen[b]++;
        if (at >= start[b + 1] || keys[at].peer != a) {
            size_t have = first_from(keys, first, start[b + 1], a + 1) - first;
            rc = vine__verr_op(ctx, a, i,
                               "unmatched: send number %zu from %d to %d, but rank %d posts "
                               "only %zu receives from %d",
                               seen[b], a, b, b, have, a);
            break;
        }
        const vine_op *rop = &ctx->s[b].ops[keys[at].op];
        if (rop->count != op->count) {
            char what[160];
            vine__vop_str(rop, what, sizeof what);
            rc = vine__verr_op(ctx, a, i, "size mismatch with rank %d round %u op %u (%s)", b,
                               ctx->round_of[b][keys[at].op], keys[at].op, what);
            break;
        }
        ctx->partner[a][i] = (vine_vpeer){b, keys[at].op, ctx->round_of[b][keys[at].op]};
        ctx->partner[b][keys[at].op] = (vine_vpeer){a, (uint32_t)i, ctx->round_of[a][i]};
    }
    for (size_t i = 0; i < s->nops; i++)
        if (s->ops[i].kind == VINE_OP_SEND)
            seen[s->ops[i].peer] = 0;
    return rc;
}

/* Every receive must have found its send. */
static int check_recvs_matched(vine_vctx *ctx)
{
    for (int r = 0; r < ctx->p; r++)
        for (size_t i = 0; i < ctx->s[r].nops; i++)
            if (ctx->s[r].ops[i].kind == VINE_OP_RECV && ctx->partner[r][i].rank < 0)
                return vine__verr_op(ctx, r, i, "unmatched: rank %d sends fewer messages to %d",
                                     ctx->s[r].ops[i].peer, r);
    return VINE_OK;
}

int vine__verify_match(vine_vctx *ctx)
{
    int p = ctx->p, rc = VINE_OK;
    for (int r = 0; r < p; r++) {
        size_t n = ctx->s[r].nops ? ctx->s[r].nops : 1;
        ctx->partner[r] = malloc(n * sizeof **ctx->partner);
        if (!ctx->partner[r])
            return VINE_ERR_NO_MEM;
        for (size_t i = 0; i < ctx->s[r].nops; i++)
            ctx->partner[r][i] = (vine_vpeer){-1, 0, 0};
    }
    rkey *keys = NULL;
    size_t np = p > 0 ? (size_t)p : 1; /* p >= 1 was checked; this tells the compiler */
    size_t *start = malloc((np + 1) * sizeof *start);
    size_t *seen = calloc(np, sizeof *seen);
    if (!start || !seen)
        rc = VINE_ERR_NO_MEM;
    if (rc == VINE_OK)
        rc = sort_recvs(ctx, &keys, start);
    for (int a = 0; rc == VINE_OK && a < p; a++)
        rc = match_sends(ctx, a, keys, start, seen);
    if (rc == VINE_OK)
        rc = check_recvs_matched(ctx);
    free(keys);
    free(start);
    free(seen);
    return rc;
}
