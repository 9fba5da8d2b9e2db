/*
 * Virtual sub-communicators (see phase_sub.h).
 */
#include "phase_sub.h"

/* Appends one operation of the sub-schedule, translated to the real ranks and buffers. */
static void splice_op(vine_sched *s, const vine_op *op, const int *ranks,
                      const vine_bufpos at[VINE_BUF_COUNT])
{
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
    int rc = build(sub, &t);
    if (rc == VINE_OK && t.err)
        rc = t.err;
    if (rc == VINE_OK) {
        vine__sched_fence(s);
        if (t.tmp_count)
            vine__sched_need_tmp(s, at[VINE_BUF_TMP].off + t.tmp_count);
        for (size_t k = 0; k < t.nrounds; k++) {
            size_t b, e;
            vine__sched_round(&t, k, &b, &e);
            for (size_t i = b; i < e; i++)
                splice_op(s, &t.ops[i], ranks, at);
            vine__sched_fence(s);
        }
    }
    vine__sched_free(&t);
    return rc;
}
