/*
 * Virtual sub-communicators (see phase_sub.h).
 */
#include "phase_sub.h"

/* Appends one operation of the sub-schedule, translated to the real ranks and buffers;
 * base is the shm phase's first flag value. */
static void splice_op(vine_sched *s, const vine_op *op, const int *ranks,
                      const vine_bufpos at[VINE_BUF_COUNT], size_t base)
{
    /* The region is the rank's own whatever the placement (at[] of three buffers leaves it 0). */
    vine_bufpos m[VINE_BUF_COUNT] = {
        at[0], at[1], at[2], {VINE_BUF_SHM, 0}, {VINE_BUF_PAR, 0}, {VINE_BUF_EAG, 0}};
    at = m;
    size_t off = at[op->buf].off + op->off;
    int buf = at[op->buf].buf;
    switch (op->kind) {
    case VINE_OP_SEND:
        if (op->count)
            vine__sched_send(s, ranks[op->peer], buf, off, op->count);
        else
            vine__sched_sync_send(s, ranks[op->peer]);
        break;
    case VINE_OP_RECV:
        if (op->count)
            vine__sched_recv(s, ranks[op->peer], buf, off, op->count);
        else
            vine__sched_sync_recv(s, ranks[op->peer]);
        break;
    case VINE_OP_COPY:
        vine__sched_copy(s, buf, off, at[op->dbuf].buf, at[op->dbuf].off + op->doff, op->count);
        break;
    case VINE_OP_SET:
        vine__sched_set(s, base + op->count);
        break;
    case VINE_OP_WAIT:
        /* A WAIT PREV names the previous call, which a phase does not have. */
        if (op->order == VINE_WAIT_PREV)
            s->err = VINE_ERR_INTERNAL;
        else
            vine__sched_wait(s, ranks[op->peer], base + op->count);
        break;
    case VINE_OP_GET:
    case VINE_OP_GETRED:
        /* The peer's region is its own whole region; its other buffers are not
         * placed where ours are, so sub-schedules come without single copy. */
        if (op->buf != VINE_BUF_SHM) {
            s->err = VINE_ERR_INTERNAL;
            break;
        }
        (op->kind == VINE_OP_GET ? vine__sched_get : vine__sched_getred)(
            s, ranks[op->peer], VINE_BUF_SHM, op->off, at[op->dbuf].buf,
            at[op->dbuf].off + op->doff, op->count);
        break;
    default:
        vine__sched_reduce(s, buf, off, at[op->dbuf].buf, at[op->dbuf].off + op->doff, op->count,
                           op->order);
        break;
    }
}

int vine__sub_run(vine_sched *s, vine_build_fn build, const vine_args *sub, const int *ranks,
                  const vine_bufpos at[VINE_BUF_COUNT])
{
    vine_sched t;
    vine__sched_init(&t, sub->p, sub->rank);
    t.msgs_only = s->msgs_only;
    t.sub = 1; /* a phase: the parity and eager slots, per call, are not its to use */
    t.keep_rounds = s->keep_rounds; /* a part of vine__sub_zip keeps its steps in its phases */
    int rc = build(sub, &t);
    if (rc == VINE_OK && t.err)
        rc = t.err;
    if (rc == VINE_OK && (t.par || t.eag))
        rc = VINE_ERR_INTERNAL;
    size_t base = 0;
    if (rc == VINE_OK && t.shm) {
        /* Flag values of the phase must fit below the next phase's. */
        for (size_t i = 0; i < t.nops && rc == VINE_OK; i++)
            if (t.ops[i].kind == VINE_OP_SET && t.ops[i].count >= VINE_SHM_PHASE)
                rc = VINE_ERR_INTERNAL;
        /* The last phase's closing value must stay below VINE_SHM_FLAG_MAX. */
        if (s->shm_phases + 1 >= VINE_SHM_PHASES)
            rc = VINE_ERR_INTERNAL;
        base = (size_t)s->shm_phases * VINE_SHM_PHASE;
    }
    if (rc == VINE_OK) {
        vine__sched_fence(s);
        if (t.tmp_count)
            vine__sched_need_tmp(s, at[VINE_BUF_TMP].off + t.tmp_count);
        for (size_t k = 0; k < t.nrounds; k++) {
            size_t b, e;
            vine__sched_round(&t, k, &b, &e);
            for (size_t i = b; i < e; i++)
                splice_op(s, &t.ops[i], ranks, at, base);
            vine__sched_fence(s);
        }
        if (t.shm) {
            vine__sched_shm(s);
            vine__sched_set(s, base + VINE_SHM_PHASE);
            vine__sched_fence(s);
            s->shm_phases++;
        }
    }
    vine__sched_free(&t);
    return rc;
}

/* Appends op unchanged (the parts of vine__sub_zip are built for s's ranks and buffers). */
static void zip_op(vine_sched *s, const vine_op *op)
{
    switch (op->kind) {
    case VINE_OP_SEND:
        if (op->count)
            vine__sched_send(s, op->peer, op->buf, op->off, op->count);
        else
            vine__sched_sync_send(s, op->peer);
        break;
    case VINE_OP_RECV:
        if (op->count)
            vine__sched_recv(s, op->peer, op->buf, op->off, op->count);
        else
            vine__sched_sync_recv(s, op->peer);
        break;
    case VINE_OP_COPY:
        vine__sched_copy(s, op->buf, op->off, op->dbuf, op->doff, op->count);
        break;
    case VINE_OP_REDUCE:
        vine__sched_reduce(s, op->buf, op->off, op->dbuf, op->doff, op->count, op->order);
        break;
    default: /* shared memory: not in parts */
        s->err = VINE_ERR_INTERNAL;
        break;
    }
}

int vine__sub_zip(vine_sched *s, const vine_sched *parts, int n)
{
    size_t rounds = 0, tmp = 0;
    for (int k = 0; k < n; k++) {
        if (parts[k].err)
            return parts[k].err;
        /* Rule 1: round k of the part is its k-th step (no empty round dropped). */
        if (!parts[k].keep_rounds || parts[k].shm || parts[k].par || parts[k].p != s->p ||
            parts[k].rank != s->rank)
            return VINE_ERR_INTERNAL;
        rounds = parts[k].nrounds > rounds ? parts[k].nrounds : rounds;
        tmp = parts[k].tmp_count > tmp ? parts[k].tmp_count : tmp;
    }
    vine__sched_fence(s);
    if (tmp)
        vine__sched_need_tmp(s, tmp);
    for (size_t r = 0; r < rounds; r++) {
        /* The round's messages of every part, then their local operations. */
        for (int local = 0; local < 2; local++)
            for (int k = 0; k < n; k++) {
                if (r >= parts[k].nrounds)
                    continue;
                size_t b, e;
                vine__sched_round(&parts[k], r, &b, &e);
                for (size_t i = b; i < e; i++)
                    if (vine__op_local(parts[k].ops[i].kind) == local)
                        zip_op(s, &parts[k].ops[i]);
            }
        vine__sched_fence(s); /* s drops the rounds empty in every part (unless it keeps them) */
    }
    return s->err;
}
