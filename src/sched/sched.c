/*
 * Schedule builder: appends operations and rounds to a vine_sched.
 */
#include "sched.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void vine__sched_init(vine_sched *s, int p, int rank)
{
    memset(s, 0, sizeof *s);
    s->p = p;
    s->rank = rank;
}

void vine__sched_free(vine_sched *s)
{
    free(s->ops);
    free(s->round_end);
    memset(s, 0, sizeof *s);
}

void vine__sched_reset(vine_sched *s, int p, int rank)
{
    /* msgs_only stays: a reused schedule keeps its purpose. */
    s->p = p;
    s->rank = rank;
    s->tmp_count = 0;
    s->nops = 0;
    s->nrounds = 0;
    s->err = VINE_OK;
    s->shm = 0;
    s->shm_phases = 0;
    s->par = 0;
    s->par_count = 0;
    s->eag = 0;
    s->eag_count = 0;
    s->keep_rounds = 0;
}

int vine__grow(void **arr, size_t *cap, size_t need, size_t sz)
{
    if (need <= *cap)
        return VINE_OK;
    size_t ncap = *cap ? *cap * 2 : 16;
    while (ncap < need)
        ncap *= 2;
    void *n = realloc(*arr, ncap * sz);
    if (!n)
        return VINE_ERR_NO_MEM;
    *arr = n;
    *cap = ncap;
    return VINE_OK;
}

static vine_op *push(vine_sched *s)
{
    if (s->err)
        return NULL;
    if (vine__grow((void **)&s->ops, &s->ops_cap, s->nops + 1, sizeof *s->ops)) {
        s->err = VINE_ERR_NO_MEM;
        return NULL;
    }
    vine_op *op = &s->ops[s->nops++];
    memset(op, 0, sizeof *op);
    return op;
}

static void add_msg(vine_sched *s, int kind, int peer, int buf, size_t off, size_t count)
{
    vine_op *op = push(s);
    if (!op)
        return;
    op->kind = (uint8_t)kind;
    op->buf = (uint8_t)buf;
    op->peer = peer;
    op->off = off;
    op->count = count;
}

void vine__sched_send(vine_sched *s, int peer, int buf, size_t off, size_t count)
{
    if (count)
        add_msg(s, VINE_OP_SEND, peer, buf, off, count);
}

void vine__sched_recv(vine_sched *s, int peer, int buf, size_t off, size_t count)
{
    if (count)
        add_msg(s, VINE_OP_RECV, peer, buf, off, count);
}

void vine__sched_sync_send(vine_sched *s, int peer)
{
    add_msg(s, VINE_OP_SEND, peer, VINE_BUF_TMP, 0, 0);
}

void vine__sched_sync_recv(vine_sched *s, int peer)
{
    add_msg(s, VINE_OP_RECV, peer, VINE_BUF_TMP, 0, 0);
}

static void add_local(vine_sched *s, int kind, int sbuf, size_t soff, int dbuf, size_t doff,
                      size_t count, int order)
{
    if (!count || s->msgs_only)
        return;
    vine_op *op = push(s);
    if (!op)
        return;
    op->kind = (uint8_t)kind;
    op->buf = (uint8_t)sbuf;
    op->dbuf = (uint8_t)dbuf;
    op->order = (uint8_t)order;
    op->peer = -1;
    op->off = soff;
    op->doff = doff;
    op->count = count;
}

void vine__sched_copy(vine_sched *s, int sbuf, size_t soff, int dbuf, size_t doff, size_t count)
{
    add_local(s, VINE_OP_COPY, sbuf, soff, dbuf, doff, count, 0);
}

void vine__sched_reduce(vine_sched *s, int sbuf, size_t soff, int dbuf, size_t doff, size_t count,
                        int order)
{
    add_local(s, VINE_OP_REDUCE, sbuf, soff, dbuf, doff, count, order);
}

void vine__sched_shm(vine_sched *s)
{
    s->shm = 1;
}

void vine__sched_par(vine_sched *s, size_t n)
{
    s->shm = 1;
    s->par = 1;
    if (n > s->par_count)
        s->par_count = n;
}

void vine__sched_eag(vine_sched *s, size_t n)
{
    s->shm = 1;
    s->eag = 1;
    if (n > s->eag_count)
        s->eag_count = n;
}

void vine__sched_set(vine_sched *s, size_t v)
{
    vine_op *op = s->msgs_only ? NULL : push(s);
    if (!op)
        return;
    op->kind = VINE_OP_SET;
    op->peer = -1;
    op->count = v;
}

void vine__sched_wait(vine_sched *s, int peer, size_t v)
{
    vine_op *op = s->msgs_only ? NULL : push(s);
    if (!op)
        return;
    op->kind = VINE_OP_WAIT;
    op->peer = peer;
    op->count = v;
}

void vine__sched_wait_prev(vine_sched *s, int peer)
{
    size_t n = s->nops;
    vine__sched_wait(s, peer, 0);
    if (s->nops > n)
        s->ops[n].order = VINE_WAIT_PREV;
}

static void add_get(vine_sched *s, int kind, int peer, int sbuf, size_t soff, int dbuf, size_t doff,
                    size_t count)
{
    add_local(s, kind, sbuf, soff, dbuf, doff, count, VINE_SRC_LEFT);
    if (count && !s->msgs_only && !s->err)
        s->ops[s->nops - 1].peer = peer;
}

void vine__sched_get(vine_sched *s, int peer, int sbuf, size_t soff, int dbuf, size_t doff,
                     size_t count)
{
    add_get(s, VINE_OP_GET, peer, sbuf, soff, dbuf, doff, count);
}

void vine__sched_getred(vine_sched *s, int peer, int sbuf, size_t soff, int dbuf, size_t doff,
                        size_t count)
{
    add_get(s, VINE_OP_GETRED, peer, sbuf, soff, dbuf, doff, count);
}

void vine__sched_fence(vine_sched *s)
{
    if (s->err)
        return;
    size_t start = s->nrounds ? s->round_end[s->nrounds - 1] : 0;
    if (s->nops == start && !s->keep_rounds)
        return;
    if (vine__grow((void **)&s->round_end, &s->rounds_cap, s->nrounds + 1, sizeof *s->round_end)) {
        s->err = VINE_ERR_NO_MEM;
        return;
    }
    s->round_end[s->nrounds++] = s->nops;
}

void vine__sched_need_tmp(vine_sched *s, size_t n)
{
    if (n > s->tmp_count)
        s->tmp_count = n;
}

int vine__errmsg(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return VINE_ERR_UNSUPPORTED;
}

int vine__sched_finish(vine_sched *s)
{
    vine__sched_fence(s);
    return s->err;
}

static const char *buf_name(int b)
{
    static const char *names[] = {"send", "recv", "tmp", "shm", "par", "eag"};
    return b >= 0 && b < VINE_BUF_COUNT ? names[b] : "?";
}

/* Appends one line describing op to the stream. */
static void dump_op(FILE *f, const vine_op *op)
{
    switch (op->kind) {
    case VINE_OP_SEND:
    case VINE_OP_RECV:
        fprintf(f, "  %s %s %d %s[%zu,+%zu)\n", op->kind == VINE_OP_SEND ? "send" : "recv",
                op->kind == VINE_OP_SEND ? "to" : "from", op->peer, buf_name(op->buf), op->off,
                op->count);
        break;
    case VINE_OP_COPY:
        fprintf(f, "  copy %s[%zu,+%zu) -> %s[%zu]\n", buf_name(op->buf), op->off, op->count,
                buf_name(op->dbuf), op->doff);
        break;
    case VINE_OP_SET:
        fprintf(f, "  set %zu\n", op->count);
        break;
    case VINE_OP_WAIT:
        if (op->order == VINE_WAIT_PREV)
            fprintf(f, "  wait %d prev\n", op->peer);
        else
            fprintf(f, "  wait %d %zu\n", op->peer, op->count);
        break;
    case VINE_OP_GET:
    case VINE_OP_GETRED:
        fprintf(f, "  %s %d:%s[%zu,+%zu) -> %s[%zu]\n", op->kind == VINE_OP_GET ? "get" : "getred",
                op->peer, buf_name(op->buf), op->off, op->count, buf_name(op->dbuf), op->doff);
        break;
    default:
        fprintf(f, "  reduce %s[%zu,+%zu) into %s[%zu] (src %s)\n", buf_name(op->buf), op->off,
                op->count, buf_name(op->dbuf), op->doff,
                op->order == VINE_SRC_LEFT ? "left" : "right");
    }
}

char *vine__sched_dump(const vine_sched *s)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return NULL;
    fprintf(f, "rank %d of %d, %zu rounds, tmp %zu%s\n", s->rank, s->p, s->nrounds, s->tmp_count,
            s->shm ? ", shm" : "");
    for (size_t k = 0; k < s->nrounds; k++) {
        size_t b, e;
        vine__sched_round(s, k, &b, &e);
        fprintf(f, "round %zu\n", k);
        for (size_t i = b; i < e; i++)
            dump_op(f, &s->ops[i]);
    }
    fclose(f);
    return text;
}
