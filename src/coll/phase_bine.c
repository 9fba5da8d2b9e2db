/*
 * Bine butterfly phases (see phase_bine.h).
 */
#include "phase_bine.h"

#include "bine.h"
#include "phase_hd.h"
#include "ranks.h"

#include <stdint.h>
#include <stdlib.h>

void vine__bfly_init(vine_bfly *b, vine_sched *s, int p, int rank, int root, int fold, size_t total,
                     int in_buf, size_t in_off, int w_buf, size_t w_off, size_t t_off)
{
    int v = vine__mod((long)rank - root, p);
    b->s = s;
    b->p = p;
    b->q = vine__floor_pow2(p);
    b->fold = fold;
    b->root = root;
    int e = p - b->q;
    if (fold == VINE_BFLY_FOLD_PAIR)
        b->me = v < 2 * e ? (v % 2 ? -1 : v / 2) : v - e;
    else
        b->me = fold ? vine__fold_newrank(p, v) : (v < b->q ? v : -1);
    b->total = total;
    b->pos = NULL;
    b->cur_buf = in_buf;
    b->cur_off = in_off;
    b->w_buf = w_buf;
    b->w_off = w_off;
    b->t_off = t_off;
}

size_t vine__bfly_pos(const vine_bfly *b, int j)
{
    return b->pos ? b->pos[j] : vine__block_off(b->total, b->q, j);
}

int vine__bfly_real(const vine_bfly *b, int i)
{
    int e = b->p - b->q, v = i;
    if (b->fold == VINE_BFLY_FOLD_PAIR)
        v = i < e ? 2 * i : i + e;
    else if (b->fold)
        v = vine__fold_oldrank(b->p, i);
    return vine__mod((long)v + b->root, b->p);
}

int vine__bfly_nu_inv(int j, int q)
{
    /* nu(m) = rev(gray(nb(c))): undo the reversal and the Gray code, read the digits back
     * as c, and c is m (odd m) or -m (even m) modulo q. */
    int n = vine__ceil_log2(q);
    uint32_t g = vine__bine_rev((uint32_t)j, n), x = 0;
    for (; g; g >>= 1)
        x ^= g;
    long c = vine__bine_val(x);
    return vine__mod(c % 2 ? c : -c, q);
}

void vine__bfly_recv_reduce(vine_bfly *b, int peer, size_t off, size_t len)
{
    vine_sched *s = b->s;
    if (!len)
        return;
    if (b->cur_buf != b->w_buf || b->cur_off != b->w_off) {
        /* Receiving straight into w and combining the own partial into it saves a copy. */
        vine__sched_recv(s, peer, b->w_buf, b->w_off + off, len);
        vine__sched_reduce(s, b->cur_buf, b->cur_off + off, b->w_buf, b->w_off + off, len,
                           VINE_SRC_LEFT);
        return;
    }
    vine__sched_need_tmp(s, b->t_off + len);
    vine__sched_recv(s, peer, VINE_BUF_TMP, b->t_off, len);
    vine__sched_reduce(s, VINE_BUF_TMP, b->t_off, b->w_buf, b->w_off + off, len, VINE_SRC_RIGHT);
}

/* Step st of the reduce-scatter for one butterfly: the exchange, no fence. */
static void rs_step(vine_bfly *b, int st)
{
    int mine = (int)vine__bine_nu(b->me, b->q);
    int w = b->q >> (st + 1), partner = vine__bine_pi(b->me, st, b->q);
    int give = (int)vine__bine_nu(partner, b->q) & ~(w - 1), keep = mine & ~(w - 1);
    size_t goff = vine__bfly_pos(b, give), koff = vine__bfly_pos(b, keep);
    int peer = vine__bfly_real(b, partner);
    vine__sched_send(b->s, peer, b->cur_buf, b->cur_off + goff, vine__bfly_pos(b, give + w) - goff);
    vine__bfly_recv_reduce(b, peer, koff, vine__bfly_pos(b, keep + w) - koff);
}

/* Step st of the allgather for one butterfly: the exchange, no fence. */
static void ag_step(vine_bfly *b, int st)
{
    int mine = (int)vine__bine_nu(b->me, b->q);
    int w = b->q >> (st + 1), partner = vine__bine_pi(b->me, st, b->q);
    int have = mine & ~(w - 1), get = (int)vine__bine_nu(partner, b->q) & ~(w - 1);
    size_t hoff = vine__bfly_pos(b, have), goff = vine__bfly_pos(b, get);
    int peer = vine__bfly_real(b, partner);
    vine__sched_send(b->s, peer, b->w_buf, b->w_off + hoff, vine__bfly_pos(b, have + w) - hoff);
    vine__sched_recv(b->s, peer, b->w_buf, b->w_off + goff, vine__bfly_pos(b, get + w) - goff);
}

void vine__bfly_reduce_scatter_segs(vine_bfly *segs, int nseg)
{
    int n = vine__ceil_log2(segs[0].q);
    if (segs[0].me < 0)
        return;
    for (int st = 0; st < n; st++)
        for (int k = 0; k < nseg; k++) {
            rs_step(&segs[k], st);
            vine__sched_fence(segs[k].s);
            vine__bfly_settle(&segs[k]);
        }
}

void vine__bfly_allgather_segs(vine_bfly *segs, int nseg)
{
    int n = vine__ceil_log2(segs[0].q);
    if (segs[0].me < 0)
        return;
    for (int st = n - 1; st >= 0; st--) {
        for (int k = 0; k < nseg; k++)
            ag_step(&segs[k], st);
        vine__sched_fence(segs[0].s);
    }
}

void vine__bfly_reduce_scatter(vine_bfly *b)
{
    vine__bfly_reduce_scatter_segs(b, 1);
}

void vine__bfly_allgather(vine_bfly *b)
{
    vine__bfly_allgather_segs(b, 1);
}

void vine__bfly_fold_in(vine_bfly *b, const vine_args *a)
{
    vine_hd h;
    vine__hd_init(&h, b->s, a, b->total, b->cur_buf, b->cur_off, b->w_buf, b->w_off, b->t_off);
    vine__hd_fold_in(&h, a->p, a->rank);
    b->cur_buf = h.cur_buf;
    b->cur_off = h.cur_off;
}

void vine__bfly_fold_out(vine_bfly *b, size_t off, size_t len, int dbuf, size_t doff)
{
    int r = b->s->rank, rem = b->p - b->q;
    if (r >= 2 * rem)
        return;
    if (r % 2)
        vine__sched_send(b->s, r - 1, b->cur_buf, b->cur_off + off, len);
    else
        vine__sched_recv(b->s, r + 1, dbuf, doff, len);
    vine__sched_fence(b->s);
}

/*
 * The participants of the fold (root 0): participant m stands for ranks
 * first .. first + nranks - 1.
 */
static int fold_first(int p, int q, int m)
{
    int rem = p - q;
    return m < rem ? 2 * m : m + rem;
}

static int fold_nranks(int p, int q, int m)
{
    return m < p - q ? 2 : 1;
}

/*
 * The position table of participant blocks whose rank i covers
 * [displs[i], displs[i + 1]): in rank order (pos[m] = displs[first(m)]), or
 * in nu order (position nu(m) holds participant m's block).  q + 1 entries.
 */
static size_t *block_table(int p, int q, const size_t *displs, int permute)
{
    size_t *pos = malloc(((size_t)q + 1) * sizeof *pos);
    if (!pos)
        return NULL;
    pos[0] = 0;
    for (int j = 0; j < q; j++) {
        int m = permute ? vine__bfly_nu_inv(j, q) : j, f = fold_first(p, q, m);
        size_t len = displs[f + fold_nranks(p, q, m)] - displs[f];
        pos[j + 1] = pos[j] + len;
    }
    return pos;
}

int vine__bfly_reduce_scatter_build(const vine_args *a, vine_sched *s, int permute)
{
    int p = a->p, rank = a->rank;
    size_t total = a->displs[p], mine = a->counts[rank];
    int in_buf = a->inplace ? VINE_BUF_RECV : VINE_BUF_SEND;
    if (p == 1) {
        if (!a->inplace)
            vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_RECV, 0, mine);
        return vine__sched_finish(s);
    }
    vine_bfly b;
    /* The vector is reduced in TMP[0, total): RECV may hold only this rank's block. */
    vine__bfly_init(&b, s, p, rank, 0, VINE_BFLY_FOLD_MPICH, total, in_buf, 0, VINE_BUF_TMP, 0,
                    total);
    size_t *pos = block_table(p, b.q, a->displs, permute);
    if (!pos)
        return VINE_ERR_NO_MEM;
    b.pos = pos;
    vine__sched_need_tmp(s, total);
    if (permute) {
        /* Lay the input out in nu order (the fold's halves then are halves of that layout),
         * filling the scratch from its start. */
        for (int j = 0; j < b.q; j++) {
            int f = fold_first(p, b.q, vine__bfly_nu_inv(j, b.q));
            vine__sched_copy(s, in_buf, a->displs[f], VINE_BUF_TMP, pos[j], pos[j + 1] - pos[j]);
        }
        vine__sched_fence(s);
        b.cur_buf = VINE_BUF_TMP;
        b.cur_off = 0;
    }
    vine__bfly_fold_in(&b, a);
    /* Where participant me's block ends up in TMP. */
    size_t at = 0;
    if (b.me >= 0) {
        vine__bfly_reduce_scatter(&b);
        int k = (int)vine__bine_nu(b.me, b.q), single = fold_nranks(p, b.q, b.me) == 1;
        size_t base = a->displs[fold_first(p, b.q, b.me)];
        if (permute || k == b.me) {
            /* Position k holds this participant's block. */
            at = pos[k];
        } else {
            /* Position k holds participant k's block: one exchange puts blocks in place. */
            int from = vine__bfly_nu_inv(b.me, b.q);
            vine__sched_send(s, vine__bfly_real(&b, k), VINE_BUF_TMP, pos[k], pos[k + 1] - pos[k]);
            at = pos[b.me];
            if (single)
                vine__sched_recv(s, vine__bfly_real(&b, from), VINE_BUF_RECV, 0, mine);
            else
                vine__sched_recv(s, vine__bfly_real(&b, from), VINE_BUF_TMP, at,
                                 pos[b.me + 1] - at);
            vine__sched_fence(s);
        }
        if (permute || k == b.me || !single)
            vine__sched_copy(s, VINE_BUF_TMP, at + a->displs[rank] - base, VINE_BUF_RECV, 0, mine);
        vine__sched_fence(s);
    }
    /* The even rank's block leads its participant's block. */
    int even = rank & ~1;
    vine__bfly_fold_out(&b, at, a->counts[even], VINE_BUF_RECV, 0);
    free(pos);
    return vine__sched_finish(s);
}

int vine__bfly_allgather_build(const vine_args *a, vine_sched *s, int permute)
{
    int p = a->p, rank = a->rank;
    size_t c = a->count, total = (size_t)p * c;
    int in_buf = a->inplace ? VINE_BUF_RECV : VINE_BUF_SEND;
    size_t in_off = a->inplace ? (size_t)rank * c : 0;
    if (p == 1) {
        if (!a->inplace)
            vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_RECV, 0, c);
        return vine__sched_finish(s);
    }
    vine_bfly b;
    int w_buf = permute ? VINE_BUF_TMP : VINE_BUF_RECV;
    vine__bfly_init(&b, s, p, rank, 0, VINE_BFLY_FOLD_MPICH, total, in_buf, in_off, w_buf, 0, 0);
    /* Block i of rank order covers [i c, (i + 1) c): the table reads displs i c. */
    size_t *displs = malloc(((size_t)p + 1) * sizeof *displs);
    if (!displs)
        return VINE_ERR_NO_MEM;
    for (int i = 0; i <= p; i++)
        displs[i] = (size_t)i * c;
    size_t *pos = block_table(p, b.q, displs, permute);
    free(displs);
    if (!pos)
        return VINE_ERR_NO_MEM;
    b.pos = pos;
    if (permute)
        vine__sched_need_tmp(s, total);
    int rem = p - b.q, me = b.me;
    int k = me >= 0 ? (int)vine__bine_nu(me, b.q) : 0;
    /* Where this participant's own block lies in w: position k (permute) or me. */
    size_t own = me >= 0 ? pos[permute ? k : me] : 0;
    if (rank < 2 * rem && rank % 2 == 0) {
        /* Fold-in: the even rank hands its block to the odd one and sits out. */
        vine__sched_send(s, rank + 1, in_buf, in_off, c);
        vine__sched_fence(s);
    } else if (rank < 2 * rem) {
        vine__sched_recv(s, rank - 1, w_buf, own, c);
        if (permute || !a->inplace)
            vine__sched_copy(s, in_buf, in_off, w_buf, own + c, c);
        vine__sched_fence(s);
    } else if (permute) {
        vine__sched_copy(s, in_buf, in_off, w_buf, own, c);
        vine__sched_fence(s);
    }
    if (me >= 0) {
        if (!permute) {
            /* Start with position k, participant k's block: one exchange. */
            int single = fold_nranks(p, b.q, me) == 1;
            if (k != me) {
                int to = vine__bfly_nu_inv(me, b.q);
                if (single)
                    vine__sched_send(s, vine__bfly_real(&b, to), in_buf, in_off, c);
                else
                    vine__sched_send(s, vine__bfly_real(&b, to), VINE_BUF_RECV, own, 2 * c);
                vine__sched_recv(s, vine__bfly_real(&b, k), VINE_BUF_RECV, pos[k],
                                 pos[k + 1] - pos[k]);
            } else if (single && !a->inplace) {
                vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_RECV, own, c);
            }
            vine__sched_fence(s);
        }
        vine__bfly_allgather(&b);
        if (permute) {
            /* Position nu(m) holds participant m's block: put every block in rank order. */
            for (int m = 0; m < b.q; m++) {
                int j = (int)vine__bine_nu(m, b.q);
                if (m == me && a->inplace && fold_nranks(p, b.q, m) == 1)
                    continue;
                vine__sched_copy(s, VINE_BUF_TMP, pos[j], VINE_BUF_RECV,
                                 (size_t)fold_first(p, b.q, m) * c, pos[j + 1] - pos[j]);
            }
            vine__sched_fence(s);
        }
    }
    /* Fold-out: the odd rank passes the whole result to the even one. */
    b.cur_buf = VINE_BUF_RECV;
    b.cur_off = 0;
    vine__bfly_fold_out(&b, 0, total, VINE_BUF_RECV, 0);
    free(pos);
    return vine__sched_finish(s);
}
