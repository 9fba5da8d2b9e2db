/*
 * The baseline broadcasts of the BBS paper (../shared/papers/bbs-broadcast.txt,
 * section 4; exact definitions in ../shared/BBS.md), in the step model of
 * bbs.h.  All three build their schedule step by step from the state "who
 * holds what" (a bit set per node):
 *
 * Greedy: each step, the arcs (u -> v) of the graph are taken in a fresh
 *   pseudo-random order (splitmix64 from the seed: reproducible); an arc whose
 *   two ends are still free in this step and whose sender holds a packet the
 *   receiver lacks is added to the step, carrying the lowest-numbered such
 *   packet.  The result is a maximal matching of the useful arcs.  Cost per
 *   step O(m + matched arcs * N / 64).
 *
 * Binary tree: a BFS spanning tree in which every node but the root adopts at
 *   most 2 children (the root adopts all its neighbours); a node that no
 *   parent with room can reach is attached to its tree neighbour with the
 *   fewest children, the only case where the fan-out exceeds 2 (a star whose
 *   centre is not the root, say).  Packets go down in order 0, 1, ..., N-1:
 *   each step, nodes in decreasing depth (forwarding before filling) that are
 *   free send to a free child the next packet that child needs, choosing the
 *   child that is furthest behind, the deepest subtree first among equals.
 *   An internal node receives each packet once and sends it twice, so the
 *   pipeline moves a packet every 3 steps: T about 3N + depth.
 *
 * SRDA: the packets are cut into P segments (node s owns packets
 *   [s N / P, (s + 1) N / P)), scattered down the BFS tree (a node's parent:
 *   the node that discovers it first), each node forwarding to each child
 *   the packets of that child's subtree, deepest destinations first, to the
 *   free child with the most packets left; then, once the scatter is over
 *   everywhere, an allgather by neighbour exchange on every edge of the
 *   graph: each step, edges in odd-even order by BFS distance (with a
 *   rotating start), an edge whose ends are free carries, in one direction,
 *   the packet its sender got first among those its receiver lacks (first
 *   in, first out).  Recursive doubling is not used: it needs P a power of
 *   two and routes of several hops on a grid, which the one-hop step model
 *   does not have.  T about N to 2N for the scatter (the root's one port;
 *   half rate down chains) + 2N for the allgather.

 * Every function refuses a graph that is not connected and returns the
 * schedule in out (initialised here; the caller frees it).
 */
#include "bbs.h"
#include "bbs_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Who holds what: one bit set per node. */
typedef struct hold {
    int n, np, words;
    uint64_t *bits;
    int *count;
    int ncomplete;
} hold;

static int hold_init(hold *h, int n, int root, int np)
{
    h->n = n;
    h->np = np;
    h->words = (np + 63) / 64;
    size_t w = (size_t)n * (size_t)h->words;
    h->bits = calloc(w ? w : 1, sizeof *h->bits);
    h->count = calloc((size_t)n, sizeof *h->count);
    if (!h->bits || !h->count) {
        free(h->bits);
        free(h->count);
        return VINE_ERR_NO_MEM;
    }
    uint64_t *r = h->bits + (size_t)root * (size_t)h->words;
    for (int k = 0; k < np; k++)
        r[k >> 6] |= (uint64_t)1 << (k & 63);
    h->count[root] = np;
    /* With no packets every node is complete from the start. */
    h->ncomplete = np == 0 ? n : 1;
    return VINE_OK;
}

static void hold_free(hold *h)
{
    free(h->bits);
    free(h->count);
}

static int hold_has(const hold *h, int v, int k)
{
    return (int)((h->bits[(size_t)v * (size_t)h->words + (size_t)(k >> 6)] >> (k & 63)) & 1u);
}

static void hold_add(hold *h, int v, int k)
{
    uint64_t *w = &h->bits[(size_t)v * (size_t)h->words + (size_t)(k >> 6)];
    uint64_t bit = (uint64_t)1 << (k & 63);
    if (*w & bit)
        return;
    *w |= bit;
    if (++h->count[v] == h->np)
        h->ncomplete++;
}

/* The lowest-numbered packet u holds and v lacks; -1 if none. */
static int hold_first(const hold *h, int u, int v)
{
    const uint64_t *a = h->bits + (size_t)u * (size_t)h->words;
    const uint64_t *b = h->bits + (size_t)v * (size_t)h->words;
    for (int w = 0; w < h->words; w++) {
        uint64_t x = a[w] & ~b[w];
        if (x)
            return w * 64 + __builtin_ctzll(x);
    }
    return -1;
}

/* Adds a transfer to the open step of out and to the state. */
static int xfer(vine_bsched *out, hold *h, int u, int v, int k)
{
    hold_add(h, v, k);
    return vine__bsched_add(out, u, v, k);
}

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Checks the arguments and that g is connected; dist gets BFS distances. */
static int prologue(const vine_graph *g, int root, int npackets, int *dist, const char *who,
                    char *err, size_t errlen)
{
    if (root < 0 || root >= g->n)
        return vine__bbs_err(err, errlen, VINE_ERR_UNSUPPORTED, "%s: root %d outside 0..%d", who,
                             root, g->n - 1);
    if (npackets < 0)
        return vine__bbs_err(err, errlen, VINE_ERR_UNSUPPORTED, "%s: %d packets", who, npackets);
    vine__graph_bfs(g, root, dist);
    for (int v = 0; v < g->n; v++)
        if (dist[v] < 0)
            return vine__bbs_err(err, errlen, VINE_ERR_UNSUPPORTED,
                                 "%s: graph %s is not connected (node %d unreachable from %d)", who,
                                 g->name, v, root);
    return VINE_OK;
}

int vine__bcast_greedy(const vine_graph *g, int root, int npackets, uint64_t seed, vine_bsched *out,
                       char *err, size_t errlen)
{
    vine__bsched_init(out, g->n, root, npackets);
    int n = g->n, narcs = 2 * g->m;
    int *dist = malloc((size_t)n * sizeof *dist);
    int *busy = malloc((size_t)n * sizeof *busy);
    int *arcs = malloc((size_t)(narcs ? narcs : 1) * sizeof *arcs);
    hold h = {0};
    int rc = (!dist || !busy || !arcs) ? VINE_ERR_NO_MEM : VINE_OK;
    if (rc == VINE_OK)
        rc = prologue(g, root, npackets, dist, "greedy", err, errlen);
    if (rc == VINE_OK)
        rc = hold_init(&h, n, root, npackets);
    uint64_t rng = seed;
    for (int a = 0; a < narcs; a++)
        arcs[a] = a;
    for (int v = 0; v < n && rc == VINE_OK; v++)
        busy[v] = -1;
    for (int t = 0; rc == VINE_OK && h.ncomplete < n; t++) {
        /* Fisher-Yates: a fresh order of the arcs for this step. */
        for (int a = narcs - 1; a > 0; a--) {
            int b = (int)(splitmix(&rng) % (uint64_t)(a + 1));
            int tmp = arcs[a];
            arcs[a] = arcs[b];
            arcs[b] = tmp;
        }
        size_t before = out->nxfers;
        for (int i = 0; i < narcs && rc == VINE_OK; i++) {
            int e = arcs[i] >> 1;
            int u = (arcs[i] & 1) ? g->ev[e] : g->eu[e];
            int v = (arcs[i] & 1) ? g->eu[e] : g->ev[e];
            if (busy[u] == t || busy[v] == t || h.count[u] == 0 || h.count[v] == npackets)
                continue;
            int k = hold_first(&h, u, v);
            if (k < 0)
                continue;
            busy[u] = busy[v] = t;
            rc = xfer(out, &h, u, v, k);
        }
        if (rc == VINE_OK && out->nxfers == before)
            rc = vine__bbs_err(err, errlen, VINE_ERR_INTERNAL, "greedy: step %d moves nothing", t);
        if (rc == VINE_OK)
            rc = vine__bsched_step(out);
    }
    hold_free(&h);
    free(dist);
    free(busy);
    free(arcs);
    if (rc != VINE_OK)
        vine__bsched_free(out);
    return rc;
}

/* A spanning tree: parent[v] (-1 at the root), children of v in
 * child[cstart[v] .. cstart[v] + nchild[v]), nodes in BFS order in order[]. */
typedef struct tree {
    int *parent, *nchild, *cstart, *child, *order, *depth, *height;
} tree;

static void tree_free(tree *t)
{
    free(t->parent);
    free(t->nchild);
    free(t->cstart);
    free(t->child);
    free(t->order);
    free(t->depth);
    free(t->height);
}

/*
 * BFS tree in which a node other than the root adopts at most cap children
 * (cap <= 0: no limit).  Children are listed deepest subtree first (then by
 * node number).
 */
static int tree_build(const vine_graph *g, int root, int cap, tree *t)
{
    int n = g->n;
    memset(t, 0, sizeof *t);
    t->parent = malloc((size_t)n * sizeof *t->parent);
    t->nchild = calloc((size_t)n, sizeof *t->nchild);
    t->cstart = malloc(((size_t)n + 1) * sizeof *t->cstart);
    t->child = malloc((size_t)n * sizeof *t->child);
    t->order = malloc((size_t)n * sizeof *t->order);
    t->depth = malloc((size_t)n * sizeof *t->depth);
    t->height = calloc((size_t)n, sizeof *t->height);
    if (!t->parent || !t->nchild || !t->cstart || !t->child || !t->order || !t->depth ||
        !t->height) {
        tree_free(t);
        return VINE_ERR_NO_MEM;
    }
    for (int v = 0; v < n; v++)
        t->parent[v] = -2; /* not in the tree */
    t->parent[root] = -1;
    t->depth[root] = 0;
    int head = 0, tail = 0;
    t->order[tail++] = root;
    for (;;) {
        while (head < tail) {
            int u = t->order[head++];
            for (int k = g->start[u]; k < g->start[u + 1]; k++) {
                int w = g->nbr[k];
                if (t->parent[w] != -2)
                    continue;
                if (u != root && cap > 0 && t->nchild[u] >= cap)
                    break;
                t->parent[w] = u;
                t->depth[w] = t->depth[u] + 1;
                t->nchild[u]++;
                t->order[tail++] = w;
            }
        }
        if (tail == n)
            break;
        /* Some node is reachable only through full parents: attach the first
         * such node to its tree neighbour with the fewest children. */
        int best = -1, bestp = -1;
        for (int v = 0; v < n && best < 0; v++) {
            if (t->parent[v] != -2)
                continue;
            for (int k = g->start[v]; k < g->start[v + 1]; k++) {
                int u = g->nbr[k];
                if (t->parent[u] != -2 && (bestp < 0 || t->nchild[u] < t->nchild[bestp]))
                    bestp = u;
            }
            if (bestp >= 0)
                best = v;
        }
        if (best < 0)
            return VINE_ERR_INTERNAL; /* not connected: the caller checked */
        t->parent[best] = bestp;
        t->depth[best] = t->depth[bestp] + 1;
        t->nchild[bestp]++;
        t->order[tail++] = best;
    }
    /* Heights, bottom-up (order[] is a BFS order of the tree, so children
     * follow their parent). */
    for (int i = n - 1; i > 0; i--) {
        int v = t->order[i], p = t->parent[v];
        if (t->height[v] + 1 > t->height[p])
            t->height[p] = t->height[v] + 1;
    }
    t->cstart[0] = 0;
    for (int v = 0; v < n; v++)
        t->cstart[v + 1] = t->cstart[v] + t->nchild[v];
    int *fill = calloc((size_t)n, sizeof *fill);
    if (!fill) {
        tree_free(t);
        return VINE_ERR_NO_MEM;
    }
    for (int i = 1; i < n; i++) {
        int v = t->order[i], p = t->parent[v];
        int *c = t->child + t->cstart[p];
        /* Insertion: deepest subtree first, then node number. */
        int j = fill[p]++;
        while (j > 0 && (t->height[c[j - 1]] < t->height[v] ||
                         (t->height[c[j - 1]] == t->height[v] && c[j - 1] > v))) {
            c[j] = c[j - 1];
            j--;
        }
        c[j] = v;
    }
    free(fill);
    return VINE_OK;
}

int vine__bcast_bintree(const vine_graph *g, int root, int npackets, vine_bsched *out, char *err,
                        size_t errlen)
{
    vine__bsched_init(out, g->n, root, npackets);
    int n = g->n;
    int *dist = malloc((size_t)n * sizeof *dist);
    int *busy = malloc((size_t)n * sizeof *busy);
    int *got = calloc((size_t)n, sizeof *got);   /* packets 0..got-1 held */
    int *sent = calloc((size_t)n, sizeof *sent); /* packets sent to v by its parent */
    int *byd = malloc((size_t)n * sizeof *byd);  /* nodes by decreasing depth */
    tree t = {0};
    int rc = (!dist || !busy || !got || !sent || !byd) ? VINE_ERR_NO_MEM : VINE_OK;
    if (rc == VINE_OK)
        rc = prologue(g, root, npackets, dist, "binary tree", err, errlen);
    if (rc == VINE_OK)
        rc = tree_build(g, root, 2, &t);
    if (rc == VINE_OK) {
        for (int i = 0; i < n; i++)
            byd[i] = t.order[n - 1 - i];
        for (int v = 0; v < n; v++)
            busy[v] = -1;
        got[root] = npackets;
    }
    int done = npackets == 0 ? n : 1;
    for (int s = 0; rc == VINE_OK && done < n; s++) {
        size_t before = out->nxfers;
        for (int i = 0; i < n && rc == VINE_OK; i++) {
            int u = byd[i];
            if (busy[u] == s || t.nchild[u] == 0)
                continue;
            int best = -1;
            for (int j = 0; j < t.nchild[u]; j++) {
                int c = t.child[t.cstart[u] + j];
                if (busy[c] == s || sent[c] >= got[u])
                    continue;
                if (best < 0 || sent[c] < sent[best])
                    best = c;
            }
            if (best < 0)
                continue;
            busy[u] = busy[best] = s;
            rc = vine__bsched_add(out, u, best, sent[best]);
            sent[best]++;
        }
        /* The receivers got their packets at the end of the step. */
        for (size_t x = before; x < out->nxfers; x++) {
            int v = out->xfers[x].to;
            if (++got[v] == npackets)
                done++;
        }
        if (rc == VINE_OK && out->nxfers == before)
            rc = vine__bbs_err(err, errlen, VINE_ERR_INTERNAL, "binary tree: step %d moves nothing",
                               s);
        if (rc == VINE_OK)
            rc = vine__bsched_step(out);
    }
    tree_free(&t);
    free(dist);
    free(busy);
    free(got);
    free(sent);
    free(byd);
    if (rc != VINE_OK)
        vine__bsched_free(out);
    return rc;
}

/* Packets of the segment of node s: [seg_lo(s), seg_lo(s + 1)). */
static int seg_lo(int s, int p, int np)
{
    return (int)((int64_t)s * np / p);
}

int vine__bcast_srda(const vine_graph *g, int root, int npackets, vine_bsched *out, char *err,
                     size_t errlen)
{
    vine__bsched_init(out, g->n, root, npackets);
    int n = g->n;
    int *dist = malloc((size_t)n * sizeof *dist);
    int *busy = malloc((size_t)n * sizeof *busy);
    int *byd = malloc((size_t)n * sizeof *byd);
    int *qpos = calloc((size_t)n, sizeof *qpos); /* next queue entry for child v */
    int *qstart = malloc(((size_t)n + 1) * sizeof *qstart);
    int *queue = NULL;
    int *arcs = malloc((size_t)(2 * n) * sizeof *arcs);
    tree t = {0};
    hold h = {0};
    int rc = (!dist || !busy || !byd || !qpos || !qstart || !arcs) ? VINE_ERR_NO_MEM : VINE_OK;
    if (rc == VINE_OK)
        rc = prologue(g, root, npackets, dist, "SRDA", err, errlen);
    if (rc == VINE_OK)
        rc = tree_build(g, root, 0, &t);
    if (rc == VINE_OK)
        rc = hold_init(&h, n, root, npackets);
    /*
     * The scatter queue of each non-root node v: the packets of the segments
     * of v's subtree, in the order v's parent sends them (destination depth
     * decreasing, then packet number).  The same key everywhere makes the
     * order in which v receives its subtree's packets agree with the order in
     * which it forwards them to each child, so a queue's head is always the
     * next packet to arrive.  Node v's subtree is a contiguous block of a
     * DFS order; the queue of v lists its subtree's nodes by that key.
     */
    int *sub = NULL, *subsize = NULL, *dfs = NULL, *pos = NULL;
    if (rc == VINE_OK) {
        sub = malloc((size_t)n * sizeof *sub);
        subsize = malloc((size_t)n * sizeof *subsize);
        dfs = malloc((size_t)n * sizeof *dfs);
        pos = malloc((size_t)n * sizeof *pos);
        if (!sub || !subsize || !dfs || !pos)
            rc = VINE_ERR_NO_MEM;
    }
    if (rc == VINE_OK) {
        /* Preorder DFS with an explicit stack (sub[] doubles as the stack). */
        int sp = 0, nd = 0;
        sub[sp++] = root;
        while (sp > 0) {
            int v = sub[--sp];
            pos[v] = nd;
            dfs[nd++] = v;
            for (int j = t.nchild[v] - 1; j >= 0; j--)
                sub[sp++] = t.child[t.cstart[v] + j];
        }
        for (int v = 0; v < n; v++)
            subsize[v] = 1;
        for (int i = n - 1; i > 0; i--)
            subsize[t.parent[t.order[i]]] += subsize[t.order[i]];
        /* Queue sizes: the packets of the subtree of each non-root v. */
        size_t total = 0;
        qstart[0] = 0;
        for (int v = 0; v < n; v++) {
            int cnt = 0;
            if (v != root)
                for (int i = pos[v]; i < pos[v] + subsize[v]; i++)
                    cnt += seg_lo(dfs[i] + 1, n, npackets) - seg_lo(dfs[i], n, npackets);
            total += (size_t)cnt;
            qstart[v + 1] = (int)total;
        }
        queue = malloc((total ? total : 1) * sizeof *queue);
        if (!queue)
            rc = VINE_ERR_NO_MEM;
        for (int v = 0; v < n && rc == VINE_OK; v++) {
            if (v == root)
                continue;
            int m = 0;
            for (int i = pos[v]; i < pos[v] + subsize[v]; i++)
                sub[m++] = dfs[i];
            /* Sort the subtree's nodes: depth decreasing, then node number
             * (segments of higher nodes hold higher packets). */
            for (int i = 1; i < m; i++) {
                int x = sub[i], j = i;
                while (j > 0 && (t.depth[sub[j - 1]] < t.depth[x] ||
                                 (t.depth[sub[j - 1]] == t.depth[x] && sub[j - 1] > x))) {
                    sub[j] = sub[j - 1];
                    j--;
                }
                sub[j] = x;
            }
            int q = qstart[v];
            for (int i = 0; i < m; i++)
                for (int k = seg_lo(sub[i], n, npackets); k < seg_lo(sub[i] + 1, n, npackets); k++)
                    queue[q++] = k;
        }
    }
    if (rc == VINE_OK) {
        for (int i = 0; i < n; i++)
            byd[i] = t.order[n - 1 - i];
        for (int v = 0; v < n; v++)
            busy[v] = -1;
    }
    /* Phase 1: the scatter. */
    int s = 0;
    for (;; s++) {
        if (rc != VINE_OK)
            break;
        int pending = 0;
        for (int v = 0; v < n; v++)
            if (v != root && qpos[v] < qstart[v + 1] - qstart[v])
                pending = 1;
        if (!pending)
            break;
        size_t before = out->nxfers;
        for (int i = 0; i < n && rc == VINE_OK; i++) {
            int u = byd[i];
            if (busy[u] == s)
                continue;
            /* The free child with the most packets still to send whose next
             * packet u holds (it held it before this step: a node that got
             * a packet in this step is busy). */
            int best = -1, bestleft = 0;
            for (int j = 0; j < t.nchild[u]; j++) {
                int c = t.child[t.cstart[u] + j];
                int left = qstart[c + 1] - qstart[c] - qpos[c];
                if (busy[c] == s || left == 0 || !hold_has(&h, u, queue[qstart[c] + qpos[c]]))
                    continue;
                if (best < 0 || left > bestleft) {
                    best = c;
                    bestleft = left;
                }
            }
            if (best < 0)
                continue;
            busy[u] = busy[best] = s;
            rc = xfer(out, &h, u, best, queue[qstart[best] + qpos[best]]);
            qpos[best]++;
        }
        if (rc == VINE_OK && out->nxfers == before)
            rc = vine__bbs_err(err, errlen, VINE_ERR_INTERNAL,
                               "SRDA: scatter step %d moves nothing", s);
        if (rc == VINE_OK)
            rc = vine__bsched_step(out);
    }
    /*
     * Phase 2: the allgather by neighbour exchange on every edge of the graph
     * (both directions; the tree alone would make the few nodes with three
     * tree edges carry three times N: 5 to 7 N on the 3D grids).  Each node
     * forwards in the order it got its packets (first its holdings after the
     * scatter, by packet number): a per-arc cursor into the sender's log
     * skips what the receiver holds, so finding the packet costs O(1)
     * amortised instead of a scan of the bit sets.  (Lowest-numbered first
     * gives T within 2% of this on the paper's grids.)
     */
    int narcs = 0;
    int *log = NULL, *loglen = NULL, *cur = NULL;
    if (rc == VINE_OK) {
        free(arcs);
        arcs = malloc((size_t)(2 * g->m + 1) * sizeof *arcs);
        if (!arcs)
            rc = VINE_ERR_NO_MEM;
        /* Each edge as (upper end, lower end) by BFS distance. */
        for (int e = 0; rc == VINE_OK && e < g->m; e++) {
            int a = g->eu[e], b = g->ev[e];
            int lo = dist[a] <= dist[b] ? a : b;
            arcs[narcs++] = lo;
            arcs[narcs++] = lo == a ? b : a;
        }
    }
    if (rc == VINE_OK) {
        size_t cells = (size_t)n * (size_t)npackets;
        log = malloc((cells ? cells : 1) * sizeof *log);
        loglen = calloc((size_t)n, sizeof *loglen);
        cur = calloc((size_t)(narcs ? narcs : 1), sizeof *cur);
        if (!log || !loglen || !cur)
            rc = VINE_ERR_NO_MEM;
        for (int v = 0; v < n && rc == VINE_OK; v++)
            for (int k = 0; k < npackets; k++)
                if (hold_has(&h, v, k))
                    log[(size_t)v * (size_t)npackets + (size_t)loglen[v]++] = k;
    }
    for (int r = 0; rc == VINE_OK && h.ncomplete < n; r++, s++) {
        size_t before = out->nxfers;
        /* Odd-even order: first the edges whose lower end's BFS distance
         * has the parity of the step, then the others (fill); within each
         * class a rotating start, and on each edge a direction that
         * alternates every two steps, the other one if the first has nothing
         * to carry.  (A fixed order would let the edge nearest the source of
         * a stream take every step and starve the stream's front.) */
        int nedges = narcs / 2;
        for (int pass = 0; pass < 2 && rc == VINE_OK; pass++)
            for (int i = 0; i < nedges && rc == VINE_OK; i++) {
                int e = (i + r) % nedges, p = arcs[2 * e], v = arcs[2 * e + 1];
                if ((dist[v] & 1) != ((r + pass) & 1))
                    continue;
                if (busy[v] == s || busy[p] == s)
                    continue;
                for (int d = 0; d < 2; d++) {
                    int ai = 2 * e + (((r >> 1) + e + d) & 1);
                    int from = (ai & 1) ? v : p, to = (ai & 1) ? p : v;
                    if (h.count[to] == npackets)
                        continue;
                    const int *fl = log + (size_t)from * (size_t)npackets;
                    while (cur[ai] < loglen[from] && hold_has(&h, to, fl[cur[ai]]))
                        cur[ai]++;
                    if (cur[ai] == loglen[from])
                        continue;
                    int k = fl[cur[ai]++];
                    busy[from] = busy[to] = s;
                    log[(size_t)to * (size_t)npackets + (size_t)loglen[to]++] = k;
                    rc = xfer(out, &h, from, to, k);
                    break;
                }
            }
        if (rc == VINE_OK && out->nxfers == before)
            rc = vine__bbs_err(err, errlen, VINE_ERR_INTERNAL,
                               "SRDA: allgather step %d moves nothing", r);
        if (rc == VINE_OK)
            rc = vine__bsched_step(out);
    }
    free(log);
    free(loglen);
    free(cur);
    hold_free(&h);
    tree_free(&t);
    free(dist);
    free(busy);
    free(byd);
    free(qpos);
    free(qstart);
    free(queue);
    free(arcs);
    free(sub);
    free(subsize);
    free(dfs);
    free(pos);
    if (rc != VINE_OK)
        vine__bsched_free(out);
    return rc;
}
