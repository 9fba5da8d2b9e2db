/*
 * Block-by-block Bine butterflies (see phase_bine_block.h).
 */
#include "phase_bine_block.h"

#include "bine.h"
#include "ranks.h"

#include <stdlib.h>

/* The step at which the integer v is reached from 0 on 2^n ranks (-1 for v = 0). */
static int pow2_step(long v, int n)
{
    uint32_t mask = n >= 32 ? 0xFFFFFFFFu : ((uint32_t)1 << n) - 1;
    uint32_t g = vine__bine_gray(vine__bine_nb(v % 2 ? v : -v) & mask);
    int t = 0;
    if (!g)
        return -1;
    while (!((g >> t) & 1u))
        t++;
    return t;
}

/* t_0(z): the latest step over the integers of the n-digit range congruent to z mod m. */
static int tree0_step(int z, int m, int n)
{
    long lo = vine__bine_lo(n), hi = vine__bine_hi(n);
    int best = -1;
    if (z == 0)
        return -1;
    /* The range holds 2^n < 2m integers: one or two candidates. */
    for (long v = lo + vine__mod((long)z - lo, m); v <= hi; v += m) {
        int t = pow2_step(v, n);
        best = t > best ? t : best;
    }
    return best;
}

/* Fills pre, at and size: an iterative depth-first walk, children by step. */
static int build_order(vine_bbk *k)
{
    int m = k->m, top = 0, next = 0;
    int *stack = malloc((size_t)m * sizeof *stack);
    if (!stack)
        return VINE_ERR_NO_MEM;
    stack[top++] = 0;
    while (top) {
        int z = stack[--top];
        k->at[z] = next;
        k->pre[next++] = z;
        /* Pushed from the largest step down, so the child of the smallest step comes first. */
        int lim = z ? k->up[z] : k->n;
        for (int st = lim - 1; st >= 0; st--) {
            int c = vine__bine_pi(z, st, m);
            if (k->up[c] == st)
                stack[top++] = c;
        }
    }
    free(stack);
    for (int z = 0; z < m; z++)
        k->size[z] = 1;
    for (int i = m - 1; i > 0; i--) {
        int z = k->pre[i];
        k->size[vine__bine_pi(z, k->up[z], m)] += k->size[z];
    }
    return VINE_OK;
}

int vine__bbk_init(vine_bbk *k, int m, int order)
{
    k->m = m;
    k->n = vine__ceil_log2(m);
    k->up = malloc((size_t)m);
    k->first = malloc((size_t)m);
    k->pre = k->at = k->size = NULL;
    if (order) {
        k->pre = malloc((size_t)m * sizeof *k->pre);
        k->at = malloc((size_t)m * sizeof *k->at);
        k->size = malloc((size_t)m * sizeof *k->size);
    }
    if (!k->up || !k->first || (order && (!k->pre || !k->at || !k->size))) {
        vine__bbk_free(k);
        return VINE_ERR_NO_MEM;
    }
    for (int z = 0; z < m; z++)
        k->up[z] = (signed char)tree0_step(z, m, k->n);
    for (int z = 0; z < m; z++) {
        int f = k->n;
        for (int st = 0; st < k->n && f == k->n; st++)
            if (k->up[vine__bine_pi(z, st, m)] == st)
                f = st;
        k->first[z] = (signed char)f;
    }
    if (order && build_order(k) != VINE_OK) {
        vine__bbk_free(k);
        return VINE_ERR_NO_MEM;
    }
    return VINE_OK;
}

void vine__bbk_free(vine_bbk *k)
{
    free(k->up);
    free(k->first);
    free(k->pre);
    free(k->at);
    free(k->size);
    k->up = k->first = NULL;
    k->pre = k->at = k->size = NULL;
}

/* Properties of a block in a reduce-scatter message that decide where it lives. */
enum { RUN_LEAF = 1, RUN_FIRST = 2, RUN_OWN = 4 };

/*
 * The next run of the blocks that `from` sends to its partner `to` at step st
 * of the reduce-scatter, scanning from *b: consecutive blocks with the same
 * key, where the key says whether `from` is a leaf of the block's tree (its
 * partial is still its input), whether `from` is the first child of `to`
 * (the block has no partial at `to` yet), and whether the block is `to`'s
 * own.  Both ends compute the same runs, so each run is one message.
 * Returns 0 when there is none left.
 */
static int rs_run(const vine_bbk *k, int from, int to, int st, int *b, int *lo, int *hi, int *key)
{
    int m = k->m, cur = -1;
    *lo = -1;
    for (; *b < m; (*b)++) {
        int x = *b;
        if (vine__bbk_up(k, x, from) != st) {
            if (*lo >= 0)
                break;
            continue;
        }
        int kx = (k->first[vine__bbk_node(k, x, from)] >= st ? RUN_LEAF : 0) |
                 (k->first[vine__bbk_node(k, x, to)] == st ? RUN_FIRST : 0) |
                 (x == to ? RUN_OWN : 0);
        if (*lo < 0) {
            *lo = x;
            cur = kx;
        } else if (kx != cur || (cur & RUN_OWN)) {
            break;
        }
    }
    *hi = *b;
    *key = cur;
    return *lo >= 0;
}

void vine__bbk_reduce_scatter(const vine_bbk *k, vine_sched *s, int r, const size_t *off,
                              int in_buf, size_t in_off, int in_acc, size_t w_off, int own_buf,
                              size_t own_off, size_t t_off)
{
    int lo, hi, key;
    for (int st = 0; st < k->n; st++) {
        int q = vine__bine_pi(r, st, k->m);
        size_t t = 0;
        if (st)
            vine__sched_fence(s);
        for (int b = 0; rs_run(k, r, q, st, &b, &lo, &hi, &key);) {
            size_t o = off[lo], len = off[hi] - o;
            if ((key & RUN_LEAF) && !in_acc)
                vine__sched_send(s, q, in_buf, in_off + o, len);
            else
                vine__sched_send(s, q, VINE_BUF_TMP, w_off + o, len);
        }
        for (int b = 0; rs_run(k, q, r, st, &b, &lo, &hi, &key);) {
            size_t o = off[lo], len = off[hi] - o;
            int dbuf = key & RUN_OWN ? own_buf : VINE_BUF_TMP;
            size_t doff = key & RUN_OWN ? own_off : w_off + o;
            if ((key & RUN_FIRST) && !in_acc) {
                /* The first partial lands in place and the input joins it. */
                vine__sched_recv(s, q, dbuf, doff, len);
                vine__sched_reduce(s, in_buf, in_off + o, dbuf, doff, len, VINE_SRC_LEFT);
            } else {
                vine__sched_recv(s, q, VINE_BUF_TMP, t_off + t, len);
                vine__sched_reduce(s, VINE_BUF_TMP, t_off + t, dbuf, doff, len, VINE_SRC_LEFT);
                t += len;
            }
        }
        vine__sched_need_tmp(s, t_off + t);
    }
}

/* The next run of consecutive blocks that rank `to` receives at step st of the allgather. */
static int ag_run(const vine_bbk *k, int to, int st, int *b, int *lo, int *hi)
{
    *lo = -1;
    for (; *b < k->m; (*b)++) {
        if (vine__bbk_up(k, *b, to) == st) {
            if (*lo < 0)
                *lo = *b;
        } else if (*lo >= 0) {
            break;
        }
    }
    *hi = *b;
    return *lo >= 0;
}

void vine__bbk_allgather(const vine_bbk *k, vine_sched *s, int r, const size_t *off, int buf,
                         int own_buf, size_t own_off)
{
    int lo, hi, away = own_buf != buf || own_off != off[r];
    for (int st = k->n - 1; st >= 0; st--) {
        int q = vine__bine_pi(r, st, k->m), first = st == k->n - 1;
        if (!first)
            vine__sched_fence(s);
        for (int b = 0; ag_run(k, q, st, &b, &lo, &hi);) {
            if (first && away && lo <= r && r < hi) {
                /* At the first step a rank holds, and so sends, its own block only. */
                if (lo != r || hi != r + 1)
                    s->err = VINE_ERR_INTERNAL;
                vine__sched_send(s, q, own_buf, own_off, off[r + 1] - off[r]);
            } else {
                vine__sched_send(s, q, buf, off[lo], off[hi] - off[lo]);
            }
        }
        for (int b = 0; ag_run(k, r, st, &b, &lo, &hi);)
            vine__sched_recv(s, q, buf, off[lo], off[hi] - off[lo]);
        if (first && away)
            vine__sched_copy(s, own_buf, own_off, buf, off[r], off[r + 1] - off[r]);
    }
}
