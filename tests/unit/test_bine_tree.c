/*
 * Unit test of the pruned distance-halving Bine tree (src/coll/phase_bine_tree.h,
 * no MPI).  For every p up to 2100 and a set of larger ones it checks the
 * whole tree against the properties its builders rely on: every non-root
 * rank has one parent, which lists it as a child at the same step; a parent
 * receives strictly before it sends; a rank sends at most once per step;
 * every step lies in 0 .. n-1; a rank's [lo, hi] is exactly the set of
 * values in its subtree (found by walking the children); and on a power of
 * two the tree is bine.h's unpruned one (BINE.md's vectors are checked there),
 * with BINE.md's p = 16 vector checked here again.  Prints
 * "bine_tree: N checks, M failed".
 */
#include "check.h"
#include "coll/bine.h"
#include "coll/phase_bine_tree.h"
#include "coll/ranks.h"

#include <stdio.h>
#include <stdlib.h>

/* The relative rank of value w. */
static int rel(long w, int p)
{
    return vine__mod(w, p);
}

static void check_tree(int p, vine_bine_node *nodes, int *stack, long *vmin, long *vmax, int *size)
{
    int n = vine__ceil_log2(p), links = 0;
    long failed_before = failures;
    for (int v = 0; v < p; v++)
        vine__bine_tree_node(p, v, &nodes[v]);
    CHECK(nodes[0].parent == -1 && nodes[0].recv_step == -1, "p=%d root has a parent", p);
    for (int v = 0; v < p; v++) {
        const vine_bine_node *x = &nodes[v];
        CHECK(x->n == n && x->v == v && rel(x->val, p) == v, "p=%d v=%d: header", p, v);
        if (v > 0) {
            CHECK(x->parent >= 0 && x->parent < p && x->parent != v, "p=%d v=%d: parent %d", p, v,
                  x->parent);
            CHECK(x->recv_step >= 0 && x->recv_step < n, "p=%d v=%d: step %d", p, v, x->recv_step);
            if (x->parent < 0 || x->parent >= p)
                continue;
            /* The parent lists v once, at v's step, and had the data before. */
            const vine_bine_node *par = &nodes[x->parent];
            int found = 0;
            for (int i = 0; i < par->nchild; i++)
                found += par->child[i].v == v && par->child[i].step == x->recv_step;
            CHECK(found == 1, "p=%d v=%d: parent %d lists it %d times", p, v, x->parent, found);
            CHECK(par->recv_step < x->recv_step, "p=%d v=%d: parent %d receives at %d, sends at %d",
                  p, v, x->parent, par->recv_step, x->recv_step);
        }
        for (int i = 0; i < x->nchild; i++) {
            const vine_bine_child *c = &x->child[i];
            links++;
            CHECK(c->v > 0 && c->v < p, "p=%d v=%d: child %d", p, v, c->v);
            if (c->v <= 0 || c->v >= p)
                continue;
            CHECK(nodes[c->v].parent == v, "p=%d v=%d: child %d has parent %d", p, v, c->v,
                  nodes[c->v].parent);
            CHECK(c->step > x->recv_step && c->step < n, "p=%d v=%d: sends at %d", p, v, c->step);
            CHECK(i == 0 || x->child[i - 1].step < c->step, "p=%d v=%d: steps not increasing", p,
                  v);
            CHECK(c->lo == nodes[c->v].lo && c->hi == nodes[c->v].hi, "p=%d v=%d: child %d's range",
                  p, v, c->v);
        }
    }
    CHECK(links == p - 1, "p=%d: %d links", p, links);
    if (failures != failed_before)
        return; /* the walk below needs sound links */
    /* Subtrees by walking the children from every rank, bottom up: ranks in
     * decreasing receive step, so children come first. */
    int top = 0;
    for (int s = n - 1; s >= -1; s--)
        for (int v = 0; v < p; v++)
            if (nodes[v].recv_step == s)
                stack[top++] = v;
    for (int i = 0; i < top; i++) {
        int v = stack[i];
        vmin[v] = vmax[v] = nodes[v].val;
        size[v] = 1;
        for (int k = 0; k < nodes[v].nchild; k++) {
            int c = nodes[v].child[k].v;
            size[v] += size[c];
            vmin[v] = vmin[c] < vmin[v] ? vmin[c] : vmin[v];
            vmax[v] = vmax[c] > vmax[v] ? vmax[c] : vmax[v];
        }
        /* Values are distinct, so size == span means exactly the interval. */
        CHECK(vmin[v] == nodes[v].lo && vmax[v] == nodes[v].hi && vmax[v] - vmin[v] + 1 == size[v],
              "p=%d v=%d: subtree [%ld,%ld] of %d, node says [%ld,%ld]", p, v, vmin[v], vmax[v],
              size[v], nodes[v].lo, nodes[v].hi);
    }
    CHECK(size[0] == p, "p=%d: the root reaches %d ranks", p, size[0]);
    if (vine__is_pow2(p))
        for (int v = 1; v < p; v++) {
            CHECK(nodes[v].recv_step == vine__bine_halving_recv_step(v, 0, p),
                  "p=%d v=%d: step %d, power-of-two tree says %d", p, v, nodes[v].recv_step,
                  vine__bine_halving_recv_step(v, 0, p));
            int par = vine__bine_halving_partner(v, 0, nodes[v].recv_step, p);
            CHECK(nodes[v].parent == par, "p=%d v=%d: parent %d, power-of-two tree says %d", p, v,
                  nodes[v].parent, par);
        }
}

int main(void)
{
    int maxp = 100000;
    vine_bine_node *nodes = malloc((size_t)maxp * sizeof *nodes);
    int *stack = malloc((size_t)maxp * sizeof *stack), *size = malloc((size_t)maxp * sizeof *size);
    long *vmin = malloc((size_t)maxp * sizeof *vmin), *vmax = malloc((size_t)maxp * sizeof *vmax);
    if (!nodes || !stack || !size || !vmin || !vmax)
        return 1;
    for (int p = 1; p <= 2100; p++)
        check_tree(p, nodes, stack, vmin, vmax, size);
    int big[] = {2731,  4095,  4096,  4097,  5461,  5462,  8191,  8193,  10923,
                 21845, 21846, 43691, 65535, 65536, 65537, 87381, 100000};
    for (size_t i = 0; i < sizeof big / sizeof big[0]; i++)
        check_tree(big[i], nodes, stack, vmin, vmax, size);

    /* BINE.md, p = 16, root 0: the receive step of ranks 1..15. */
    int recv16[] = {3, 3, 1, 2, 3, 3, 2, 1, 3, 3, 0, 2, 3, 3, 2};
    for (int v = 1; v < 16; v++) {
        vine_bine_node x;
        vine__bine_tree_node(16, v, &x);
        CHECK(x.recv_step == recv16[v - 1], "p=16 v=%d: step %d, BINE.md says %d", v, x.recv_step,
              recv16[v - 1]);
    }
    free(nodes);
    free(stack);
    free(size);
    free(vmin);
    free(vmax);
    printf("bine_tree: %ld checks, %ld failed\n", checks, failures);
    return failures != 0;
}
