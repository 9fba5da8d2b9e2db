/*
 * Ring reduce-scatter and ring allgather phases over a block table (see
 * phase_ring.h).  Source: Thakur, Rabenseifner and Gropp 2005, section 5.3
 * (papers/mpich-collectives.txt, Fig. 17).  Commutative ops only for the
 * reduce-scatter, since each block is summed in ring order starting at a
 * different rank.  Cost of each phase: (p - 1) alpha + n (p - 1)/p beta, plus
 * n (p - 1)/p gamma for the reduce-scatter, for blocks of about n/p elements.
 */
#include "phase_ring.h"

size_t vine__blocks_max(const vine__blocks *b)
{
    if (!b->displs)
        return b->p ? vine__block_len(b->total, b->p, 0) : 0;
    size_t m = 0;
    for (int i = 0; i < b->p; i++)
        if (vine__blocks_len(b, i) > m)
            m = vine__blocks_len(b, i);
    return m;
}

/* A place in a symbolic buffer. */
typedef struct loc {
    int buf;
    size_t off;
} loc;

/*
 * Where the partial sum of step k ends (before any fin override), and where
 * the message of step k lands.  Block (rank - k - 2) mod p is the one of step k.
 */
static loc partial_loc(const vine__ring_rs *c, int blk, int k, size_t m)
{
    switch (c->acc) {
    case VINE__RING_ACC_INPUT:
        return (loc){c->in_buf, vine__blocks_off(&c->blocks, blk)};
    case VINE__RING_ACC_BLOCKS:
        return (loc){c->acc_buf, vine__blocks_off(&c->blocks, blk)};
    default:
        return (loc){VINE_BUF_TMP, (size_t)(k % 2) * m};
    }
}

static loc landing_loc(const vine__ring_rs *c, int blk, int k, size_t m)
{
    if (c->acc == VINE__RING_ACC_INPUT)
        return (loc){VINE_BUF_TMP, 0};
    return partial_loc(c, blk, k, m);
}

/* Scratch the reduce-scatter needs, given the largest block m. */
static size_t rs_tmp(const vine__ring_rs *c, size_t m)
{
    int p = c->blocks.p;
    int partial_steps = c->fin_buf >= 0 ? p - 2 : p - 1; /* steps not overridden by fin */
    if (c->acc == VINE__RING_ACC_INPUT)
        return p > 1 ? m : 0;
    if (c->acc == VINE__RING_ACC_SLOTS)
        return (size_t)(partial_steps < 2 ? partial_steps : 2) * m;
    return 0;
}

void vine__ring_reduce_scatter(vine_sched *s, int rank, const vine__ring_rs *c)
{
    const vine__blocks *b = &c->blocks;
    int p = b->p, next = vine__mod(rank + 1, p), prev = vine__mod(rank - 1, p);
    size_t m = vine__blocks_max(b);
    vine__sched_need_tmp(s, rs_tmp(c, m));
    for (int k = 0; k < p - 1; k++) {
        int sblk = vine__mod(rank - k - 1, p), rblk = vine__mod(rank - k - 2, p);
        /* At step 0 the block to send holds only this rank's input. */
        loc src = k ? partial_loc(c, sblk, k - 1, m) : (loc){c->in_buf, vine__blocks_off(b, sblk)};
        int fin = k == p - 2 && c->fin_buf >= 0;
        loc land = fin ? (loc){c->fin_buf, c->fin_off} : landing_loc(c, rblk, k, m);
        size_t roff = vine__blocks_off(b, rblk), rlen = vine__blocks_len(b, rblk);
        if (k)
            vine__sched_fence(s);
        vine__sched_send(s, next, src.buf, src.off, vine__blocks_len(b, sblk));
        vine__sched_recv(s, prev, land.buf, land.off, rlen);
        if (c->acc == VINE__RING_ACC_INPUT && !fin)
            vine__sched_reduce(s, land.buf, land.off, c->in_buf, roff, rlen, VINE_SRC_LEFT);
        else
            vine__sched_reduce(s, c->in_buf, roff, land.buf, land.off, rlen, VINE_SRC_LEFT);
    }
}

void vine__ring_reduce_scatter_vector(vine_sched *s, int p, int rank, size_t count, int inplace)
{
    vine__ring_rs rs = {
        .blocks = {p, count, NULL},
        .in_buf = inplace ? VINE_BUF_RECV : VINE_BUF_SEND,
        .acc = inplace ? VINE__RING_ACC_INPUT : VINE__RING_ACC_BLOCKS,
        .acc_buf = VINE_BUF_RECV,
        .fin_buf = -1,
    };
    vine__ring_reduce_scatter(s, rank, &rs);
}

void vine__ring_allgather(vine_sched *s, int rank, const vine__blocks *b, int buf, int own_buf,
                          size_t own_off)
{
    int p = b->p, next = vine__mod(rank + 1, p), prev = vine__mod(rank - 1, p);
    for (int k = 0; k < p - 1; k++) {
        int sblk = vine__mod(rank - k, p), rblk = vine__mod(rank - k - 1, p);
        if (k)
            vine__sched_fence(s);
        if (k)
            vine__sched_send(s, next, buf, vine__blocks_off(b, sblk), vine__blocks_len(b, sblk));
        else
            vine__sched_send(s, next, own_buf, own_off, vine__blocks_len(b, sblk));
        vine__sched_recv(s, prev, buf, vine__blocks_off(b, rblk), vine__blocks_len(b, rblk));
    }
}
