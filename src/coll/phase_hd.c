/*
 * Recursive halving / doubling phases (see phase_hd.h).
 */
#include "phase_hd.h"

void vine__hd_init(vine_hd *h, vine_sched *s, const vine_args *a, size_t total, int in_buf,
                   size_t in_off, int w_buf, size_t w_off, size_t t_off)
{
    h->s = s;
    h->commutative = a->commutative;
    h->q = vine__floor_pow2(a->p);
    h->me = vine__fold_newrank(a->p, a->rank);
    h->base = 0;
    h->fold_p = a->p;
    h->total = total;
    h->nfine = h->q;
    h->stride = 1;
    h->displs = NULL;
    h->cur_buf = in_buf;
    h->cur_off = in_off;
    h->w_buf = w_buf;
    h->w_off = w_off;
    h->t_off = t_off;
}

size_t vine__hd_boff(const vine_hd *h, int i)
{
    if (!h->displs)
        return vine__block_off(h->total, h->nfine, i * h->stride);
    /* Participant i < rem stands for ranks 2i and 2i + 1, the others for i + rem. */
    int rem = h->fold_p - h->q;
    return h->displs[i < rem ? 2 * i : i + rem];
}

void vine__hd_recv_reduce(vine_hd *h, int peer, size_t off, size_t len, size_t toff, int peer_lower)
{
    vine_sched *s = h->s;
    int at_w = h->cur_buf == h->w_buf && h->cur_off == h->w_off;
    if (!len)
        return;
    if (!at_w && (h->commutative || !peer_lower)) {
        /* The own data is the left operand (or order does not matter): reduce it into the
         * received copy, which saves copying the input into w first. */
        vine__sched_recv(s, peer, h->w_buf, h->w_off + off, len);
        vine__sched_reduce(s, h->cur_buf, h->cur_off + off, h->w_buf, h->w_off + off, len,
                           VINE_SRC_LEFT);
        return;
    }
    vine__sched_need_tmp(s, h->t_off + toff + len);
    vine__sched_recv(s, peer, VINE_BUF_TMP, h->t_off + toff, len);
    if (!at_w)
        vine__sched_copy(s, h->cur_buf, h->cur_off + off, h->w_buf, h->w_off + off, len);
    /* VINE_SRC_RIGHT clobbers only the scratch copy, which is not needed afterwards. */
    vine__sched_reduce(s, VINE_BUF_TMP, h->t_off + toff, h->w_buf, h->w_off + off, len,
                       peer_lower ? VINE_SRC_LEFT : VINE_SRC_RIGHT);
}

void vine__hd_fold_in(vine_hd *h, int p, int rank)
{
    vine_sched *s = h->s;
    int rem = p - vine__floor_pow2(p);
    size_t half = h->total / 2;
    if (rank >= 2 * rem)
        return;
    if (rank % 2 == 0) {
        /* The even rank reduces the first half and hands it over. */
        vine__sched_send(s, rank + 1, h->cur_buf, h->cur_off + half, h->total - half);
        vine__hd_recv_reduce(h, rank + 1, 0, half, 0, 0);
        vine__sched_fence(s);
        vine__hd_settle(h);
        vine__sched_send(s, rank + 1, h->w_buf, h->w_off, half);
        vine__sched_fence(s);
        return;
    }
    /* The odd rank reduces the second half and receives the reduced first half. */
    vine__sched_send(s, rank - 1, h->cur_buf, h->cur_off, half);
    vine__hd_recv_reduce(h, rank - 1, half, h->total - half, 0, 1);
    vine__sched_fence(s);
    vine__hd_settle(h);
    vine__sched_recv(s, rank - 1, h->w_buf, h->w_off, half);
    vine__sched_fence(s);
}

void vine__hd_fold_out(vine_hd *h, int p, int rank, size_t off, size_t len, int dbuf, size_t doff)
{
    int rem = p - vine__floor_pow2(p);
    if (rank >= 2 * rem)
        return;
    if (rank % 2)
        vine__sched_send(h->s, rank - 1, h->cur_buf, h->cur_off + off, len);
    else
        vine__sched_recv(h->s, rank + 1, dbuf, doff, len);
    vine__sched_fence(h->s);
}

/*
 * The reduce-scatter of either order: at each step this rank keeps half of
 * the participant blocks [lo, lo + len) it still reduces, the upper half
 * where bit d of its index is set, d = q/2, ..., 1 (far first) or 1, ...,
 * q/2 (near first).
 */
static void hd_reduce_scatter(vine_hd *h, int near)
{
    int lo = 0, len = h->q;
    for (int i = 0; (1 << i) < h->q; i++) {
        int d = near ? 1 << i : h->q >> (i + 1);
        int partner = h->me ^ d, half = len / 2, upper = (h->me & d) != 0;
        int keep = upper ? lo + half : lo, give = upper ? lo : lo + half;
        size_t koff = vine__hd_boff(h, keep), klen = vine__hd_boff(h, keep + half) - koff;
        size_t goff = vine__hd_boff(h, give), glen = vine__hd_boff(h, give + half) - goff;
        int peer = vine__hd_real(h, partner);
        vine__sched_send(h->s, peer, h->cur_buf, h->cur_off + goff, glen);
        vine__hd_recv_reduce(h, peer, koff, klen, 0, partner < h->me);
        vine__sched_fence(h->s);
        vine__hd_settle(h);
        lo = keep;
        len = half;
    }
}

void vine__hd_reduce_scatter(vine_hd *h)
{
    hd_reduce_scatter(h, 0);
}

void vine__hd_allgather(vine_hd *h)
{
    for (int d = 1; d < h->q; d <<= 1) {
        int partner = h->me ^ d;
        int mine = h->me & ~(d - 1), theirs = partner & ~(d - 1);
        size_t moff = vine__hd_boff(h, mine), toff = vine__hd_boff(h, theirs);
        int peer = vine__hd_real(h, partner);
        vine__sched_send(h->s, peer, h->w_buf, h->w_off + moff, vine__hd_boff(h, mine + d) - moff);
        vine__sched_recv(h->s, peer, h->w_buf, h->w_off + toff,
                         vine__hd_boff(h, theirs + d) - toff);
        vine__sched_fence(h->s);
    }
}

int vine__hd_reduce_scatter_frame(const vine_args *a, vine_sched *s, void (*middle)(vine_hd *h))
{
    size_t total = a->displs[a->p], mine = a->counts[a->rank];
    int in_buf = a->inplace ? VINE_BUF_RECV : VINE_BUF_SEND;
    vine_hd h;
    vine__hd_init(&h, s, a, total, in_buf, 0, VINE_BUF_TMP, 0, total);
    h.displs = a->displs;
    if (a->p == 1) {
        if (!a->inplace)
            vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_RECV, 0, mine);
        return vine__sched_finish(s);
    }
    vine__sched_need_tmp(s, total);
    vine__hd_fold_in(&h, a->p, a->rank);
    if (h.me >= 0) {
        middle(&h);
        vine__sched_copy(s, VINE_BUF_TMP, a->displs[a->rank], VINE_BUF_RECV, 0, mine);
        vine__sched_fence(s);
    }
    int even = a->rank & ~1;
    vine__hd_fold_out(&h, a->p, a->rank, a->displs[even], a->counts[even], VINE_BUF_RECV, 0);
    return vine__sched_finish(s);
}

int vine__hd_near_block(const vine_hd *h)
{
    return vine__bitrev_pow2(h->me, h->q);
}

void vine__hd_reduce_scatter_near(vine_hd *h)
{
    hd_reduce_scatter(h, 1);
}

void vine__hd_allgather_near(vine_hd *h)
{
    /* This rank holds blocks [lo, lo + len); its partner at distance d the sibling range. */
    int lo = vine__hd_near_block(h), len = 1;
    for (int d = h->q / 2; d > 0; d >>= 1) {
        int peer = vine__hd_real(h, h->me ^ d), sib = lo ^ len;
        size_t moff = vine__hd_boff(h, lo), toff = vine__hd_boff(h, sib);
        vine__sched_send(h->s, peer, h->w_buf, h->w_off + moff, vine__hd_boff(h, lo + len) - moff);
        vine__sched_recv(h->s, peer, h->w_buf, h->w_off + toff, vine__hd_boff(h, sib + len) - toff);
        vine__sched_fence(h->s);
        lo &= ~len;
        len *= 2;
    }
}
