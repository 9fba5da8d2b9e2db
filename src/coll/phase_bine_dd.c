/*
 * Distance-doubling Bine tree phases: see phase_bine_dd.h, ../shared/BINE.md
 * and papers/bine-trees.txt (De Sensi et al., Bine trees), sections 3-4.
 */
#include "phase_bine_dd.h"

#include "bine.h"
#include "ranks.h"

void vine__bine_dd_init(vine_bine_dd *t, vine_sched *s, int p, int rank, int root, size_t total)
{
    int v = vine__mod((long)rank - root, p);
    t->s = s;
    t->p = p;
    t->rank = rank;
    t->root = root;
    t->q = vine__floor_pow2(p);
    t->n = vine__ceil_log2(t->q);
    t->total = total;
    int e = p - t->q;
    t->partner = -1;
    if (v < 2 * e) {
        t->me = v % 2 ? -1 : v / 2;
        t->partner = vine__mod(v % 2 ? (long)rank - 1 : (long)rank + 1, p);
    } else {
        t->me = v - e;
    }
}

int vine__bine_dd_real(const vine_bine_dd *t, int j)
{
    int e = t->p - t->q;
    int v = j < e ? 2 * j : j + e;
    return vine__mod((long)v + t->root, t->p);
}

size_t vine__bine_dd_boff(const vine_bine_dd *t, int i)
{
    return vine__block_off(t->total, t->q, i);
}

int vine__bine_dd_span(const vine_bine_dd *t, int j)
{
    int nu = (int)vine__bine_nu(j, t->q);
    return nu ? (nu & -nu) : t->q;
}

int vine__bine_dd_recv_step(const vine_bine_dd *t, int j)
{
    if (j == 0)
        return -1;
    return t->n - 1 - vine__ceil_log2(vine__bine_dd_span(t, j));
}

/* The first of the w blocks (w a power of two) around participant j's block. */
static int group(const vine_bine_dd *t, int j, int w)
{
    return (int)vine__bine_nu(j, t->q) & ~(w - 1);
}

/* Sends (send != 0) or receives blocks [lo, lo + w) of buf[off, ...) to or from participant j. */
static void blocks_msg(const vine_bine_dd *t, int send, int j, int buf, size_t off, int lo, int w)
{
    size_t b = vine__bine_dd_boff(t, lo), len = vine__bine_dd_boff(t, lo + w) - b;
    int peer = vine__bine_dd_real(t, j);
    if (send)
        vine__sched_send(t->s, peer, buf, off + b, len);
    else
        vine__sched_recv(t->s, peer, buf, off + b, len);
}

void vine__bine_dd_scatter(const vine_bine_dd *t, int buf, size_t off)
{
    if (t->me < 0)
        return;
    int rs = vine__bine_dd_recv_step(t, t->me);
    for (int s = 0; s < t->n; s++) {
        int w = t->q >> (s + 1), k = vine__bine_pi(t->me, s, t->q);
        if (s == rs)
            blocks_msg(t, 0, k, buf, off, group(t, t->me, w), w);
        else if (s > rs)
            blocks_msg(t, 1, k, buf, off, group(t, k, w), w);
        vine__sched_fence(t->s);
    }
}

void vine__bine_dd_gather(const vine_bine_dd *t, int buf, size_t off)
{
    if (t->me < 0)
        return;
    int rs = vine__bine_dd_recv_step(t, t->me);
    for (int s = t->n - 1; s >= 0 && s >= rs; s--) {
        int w = t->q >> (s + 1), k = vine__bine_pi(t->me, s, t->q);
        if (s == rs)
            blocks_msg(t, 1, k, buf, off, group(t, t->me, w), w);
        else
            blocks_msg(t, 0, k, buf, off, group(t, k, w), w);
        vine__sched_fence(t->s);
    }
}

void vine__bine_dd_allgather(const vine_bine_dd *t, int buf, size_t off)
{
    if (t->me < 0)
        return;
    int mine = vine__bine_dd_span(t, t->me);
    for (int s = t->n - 1; s >= 0; s--) {
        int w = t->q >> (s + 1), k = vine__bine_pi(t->me, s, t->q);
        /* A span of 2w or more covers both groups of w, so the scatter delivered them. */
        if (vine__bine_dd_span(t, k) < 2 * w)
            blocks_msg(t, 1, k, buf, off, group(t, t->me, w), w);
        if (mine < 2 * w)
            blocks_msg(t, 0, k, buf, off, group(t, k, w), w);
        vine__sched_fence(t->s);
    }
}
