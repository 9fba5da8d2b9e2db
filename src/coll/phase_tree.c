/*
 * Binomial-tree phases: broadcast, scatter and order-keeping reduce on the
 * distance-halving binomial tree (Thakur, Rabenseifner and Gropp 2005,
 * sections 4.1 and 4.3, papers/mpich-collectives.txt).  See phase_tree.h.
 */
#include "phase_tree.h"

#include "ranks.h"

int vine__tree_span(int p, int v)
{
    return v ? (v & -v) : 1 << vine__ceil_log2(p);
}

int vine__tree_holds(int p, int w, int lo, int hi)
{
    return lo >= w && hi <= w + vine__tree_span(p, w);
}

void vine__tree_bcast(vine_sched *s, int p, int rank, int root, int buf, size_t off, size_t count)
{
    int v = vine__mod(rank - root, p);
    int span = vine__tree_span(p, v);
    if (v > 0) {
        vine__sched_recv(s, vine__mod(rank - span, p), buf, off, count);
        vine__sched_fence(s);
    }
    /* The largest subtree first, so that the deepest path starts earliest. */
    for (int mask = span / 2; mask > 0; mask /= 2) {
        if (v + mask < p) {
            vine__sched_send(s, vine__mod(rank + mask, p), buf, off, count);
            vine__sched_fence(s);
        }
    }
}

void vine__tree_scatter(vine_sched *s, int p, int rank, int root, size_t count)
{
    int v = vine__mod(rank - root, p);
    int span = vine__tree_span(p, v);
    if (v > 0) {
        int hi = v + span < p ? v + span : p;
        vine__blocks_msg(s, 0, vine__mod(rank - span, p), count, p, v, hi);
        vine__sched_fence(s);
    }
    for (int mask = span / 2; mask > 0; mask /= 2) {
        if (v + mask < p) {
            int hi = v + 2 * mask < p ? v + 2 * mask : p;
            vine__blocks_msg(s, 1, vine__mod(rank + mask, p), count, p, v + mask, hi);
            vine__sched_fence(s);
        }
    }
}

static int same_pos(vine_bufpos a, vine_bufpos b)
{
    return a.buf == b.buf && a.off == b.off;
}

/* Declares the scratch that a count-element range at pos needs. */
static void need(vine_sched *s, vine_bufpos pos, size_t count)
{
    if (pos.buf == VINE_BUF_TMP && count)
        vine__sched_need_tmp(s, pos.off + count);
}

/*
 * The first child's data lands straight in acc and the rank's own input joins
 * it as the left operand, which saves a copy; later children go through tmp
 * and are the right operand.
 */
vine_bufpos vine__tree_reduce_child(vine_sched *s, const vine_tree_red *t, int child,
                                    vine_bufpos cur)
{
    size_t n = t->count;
    if (same_pos(cur, t->acc)) {
        need(s, t->tmp, n);
        vine__sched_recv(s, child, t->tmp.buf, t->tmp.off, n);
        vine__sched_reduce(s, t->tmp.buf, t->tmp.off, t->acc.buf, t->acc.off, n, VINE_SRC_RIGHT);
    } else {
        need(s, t->acc, n);
        vine__sched_recv(s, child, t->acc.buf, t->acc.off, n);
        vine__sched_reduce(s, cur.buf, cur.off, t->acc.buf, t->acc.off, n, VINE_SRC_LEFT);
    }
    vine__sched_fence(s);
    return t->acc;
}

void vine__tree_reduce(vine_sched *s, const vine_tree_red *t)
{
    int p = t->p, v = vine__mod(t->rank - t->root, p);
    vine_bufpos cur = t->in;
    int mask = 1;
    /* Children v + 1, v + 2, v + 4 ... cover [v, v + 2 mask) step by step. */
    for (; mask < p && !(v & mask); mask <<= 1)
        if (v + mask < p)
            cur = vine__tree_reduce_child(s, t, vine__mod(t->rank + mask, p), cur);
    if (v > 0) {
        vine__sched_send(s, vine__mod(t->rank - mask, p), cur.buf, cur.off, t->count);
        vine__sched_fence(s);
    } else if (!same_pos(cur, t->acc)) {
        need(s, t->acc, t->count);
        vine__sched_copy(s, cur.buf, cur.off, t->acc.buf, t->acc.off, t->count);
        vine__sched_fence(s);
    }
}
