/*
 * The pruned distance-halving Bine tree: see phase_bine_tree.h for the rule
 * and why it holds.  Work per rank: O(n^3) digit operations at most, with
 * n = ceil(log2 p).
 */
#include "phase_bine_tree.h"

#include "bine.h"
#include "ranks.h"

#include <stdint.h>

/* The tree's constants: n digits, ranks are the values [bot, top]. */
typedef struct tree {
    int p, n;
    long bot, top;
    long lo[33], hi[33]; /* lo(m), hi(m) of bine.h for m = 0 .. n */
} tree;

static uint32_t low_mask(int k)
{
    return k >= 32 ? 0xFFFFFFFFu : ((uint32_t)1 << k) - 1;
}

static int exists(const tree *t, uint32_t d)
{
    long w = vine__bine_val(d);
    return w >= t->bot && w <= t->top;
}

/* The step at which pattern d != 0 receives in the power-of-two tree. */
static int step_of(const tree *t, uint32_t d)
{
    return t->n - vine__bine_run(d, t->n);
}

static uint32_t parent_of(const tree *t, uint32_t d)
{
    return d ^ low_mask(vine__bine_run(d, t->n));
}

/* The largest k of d's children d XOR (2^k - 1); they come for k = top .. 1. */
static int kid_top(const tree *t, uint32_t d)
{
    return d ? vine__bine_run(d, t->n) - 1 : t->n;
}

/* The values that share the digits m and up of d. */
static void span(const tree *t, uint32_t d, int m, long *lo, long *hi)
{
    long base = vine__bine_val(d & ~low_mask(m));
    *lo = base + t->lo[m];
    *hi = base + t->hi[m];
}

/* Cuts [*lo, *hi] to the ranks; returns whether anything is left. */
static int cut(const tree *t, long *lo, long *hi)
{
    if (*lo < t->bot)
        *lo = t->bot;
    if (*hi > t->top)
        *hi = t->top;
    return *lo <= *hi;
}

/* Whether the nominal subtree of d != 0 holds any rank. */
static int has_ranks(const tree *t, uint32_t d)
{
    long lo, hi;
    span(t, d, vine__bine_run(d, t->n) - 1, &lo, &hi);
    return cut(t, &lo, &hi);
}

/* Whether the existing d != 0 is an orphan (its parent is absent). */
static int orphan(const tree *t, uint32_t d)
{
    uint32_t x = parent_of(t, d);
    return x != 0 && !exists(t, x);
}

/*
 * The first rank of the chain under an absent c whose subtree holds ranks:
 * descend into the first child with ranks until it exists.
 */
static uint32_t first_of_chain(const tree *t, uint32_t c)
{
    while (!exists(t, c)) {
        uint32_t next = c;
        for (int k = kid_top(t, c); k >= 1; k--) {
            uint32_t kid = c ^ low_mask(k);
            if (has_ranks(t, kid)) {
                next = kid;
                break;
            }
        }
        if (next == c)
            break; /* not reached: c's subtree holds ranks */
        c = next;
    }
    return c;
}

/* The sender of the existing y != 0 and the step it receives at. */
static uint32_t sender_of(const tree *t, uint32_t y, int *step)
{
    uint32_t u = y;
    for (;;) {
        uint32_t x = parent_of(t, u);
        if (x == 0 || exists(t, x)) {
            *step = step_of(t, u);
            return x;
        }
        /* The latest existing child of x that comes before u. */
        for (int k = vine__bine_run(u, t->n) + 1; k <= kid_top(t, x); k++) {
            uint32_t c = x ^ low_mask(k);
            if (exists(t, c)) {
                *step = step_of(t, c);
                return c;
            }
        }
        u = x;
    }
}

/* The subtree of the existing d: [*lo, *hi] in values. */
static void subtree(const tree *t, uint32_t d, long *lo, long *hi)
{
    if (d == 0) {
        *lo = t->bot;
        *hi = t->top;
        return;
    }
    int run = vine__bine_run(d, t->n);
    span(t, d, orphan(t, d) ? run : run - 1, lo, hi);
    cut(t, lo, hi);
}

static void add_child(const tree *t, vine_bine_node *node, uint32_t c, int step)
{
    vine_bine_child *ch = &node->child[node->nchild++];
    ch->v = vine__bine_rank(c, t->p);
    ch->step = step;
    subtree(t, c, &ch->lo, &ch->hi);
}

void vine__bine_tree_node(int p, int v, vine_bine_node *node)
{
    tree t = {.p = p, .n = vine__ceil_log2(p)};
    for (int m = 0; m <= t.n; m++) {
        t.lo[m] = vine__bine_lo(m);
        t.hi[m] = vine__bine_hi(m);
    }
    t.top = t.hi[t.n] < p - 1 ? t.hi[t.n] : p - 1;
    t.bot = t.top - p + 1;

    uint32_t d = vine__bine_digits(v, p);
    node->n = t.n;
    node->v = v;
    node->val = vine__bine_val(d);
    node->nchild = 0;
    node->parent = -1;
    node->recv_step = -1;
    if (d != 0) {
        uint32_t x = sender_of(&t, d, &node->recv_step);
        node->parent = vine__bine_rank(x, p);
    }
    subtree(&t, d, &node->lo, &node->hi);

    /*
     * An orphan first forwards to its successor in the chain, at its own step
     * (before all its other sends): the first later sibling with ranks, or
     * the first rank of the chain below it when that sibling is absent.
     */
    if (d != 0 && orphan(&t, d)) {
        uint32_t x = parent_of(&t, d);
        for (int k = vine__bine_run(d, t.n) - 1; k >= 1; k--) {
            uint32_t c = x ^ low_mask(k);
            if (has_ranks(&t, c)) {
                add_child(&t, node, first_of_chain(&t, c), step_of(&t, d));
                break;
            }
        }
    }
    /* The children of the power-of-two tree, or the chains below absent ones. */
    for (int k = kid_top(&t, d); k >= 1; k--) {
        uint32_t c = d ^ low_mask(k);
        if (has_ranks(&t, c))
            add_child(&t, node, first_of_chain(&t, c), t.n - k);
    }
}
