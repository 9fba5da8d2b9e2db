/*
 * Broadcast by Balanced Saturation: frames and the cyclic schedule
 * (../shared/papers/bbs-broadcast.txt, section 2.3 and Algorithm 1;
 * ../shared/BBS.md).
 *
 * Frames (vine__bbs_frames): the LP's occupancies scaled by L give each
 * undirected edge L (O(i->j) + O(j->i)) copies; the multigraph is
 * edge-coloured (colour.c: exactly max-degree colours when the graph is
 * bipartite, a Kempe-chain heuristic otherwise), each colour a matching,
 * i.e. one frame.  The classes of the colouring come with repetition counts;
 * their copies are spread evenly over the cycle (class k with r copies at
 * the positions (j + 1/2) / r of the cycle) rather than back to back, so
 * that every arc recurs at a steady pace (back to back, the 6x32 grid at
 * N = 2500 takes 40% longer).  The copies of each edge then take the LP's
 * directions, the forward ones (away from the root by BFS distance) spread
 * evenly among the edge's occurrences (a Bresenham split).  The rate is the
 * one the frames can carry: the least root cut of the per-cycle copies over
 * the number of frames (Edmonds' branching theorem: that many packets per
 * cycle reach every node; it is C L when every cut of the LP holds), so at
 * most C, and below C when the colouring needs more than L frames or the
 * rounding of lp.c cost a cut a copy.
 *
 * The cycle (vine__bbs_cycle) runs the frames in order until every node
 * holds every packet; step t uses frame (first + t) mod nframes.  Modes:
 *   - pure (flags 0): the paper's scheme, every arc of the frame carries the
 *     packet Algorithm 1 picks (vine__bbs_pick), or idles;
 *   - VINE_BBS_REVERSE, VINE_BBS_FILL: an idle arc may run backwards, idle
 *     nodes are matched greedily (start-up and tail);
 *   - VINE_BBS_ARBITRATE (the default): the frame names each receiver's
 *     preferred sender and the step's matching is built receiver by
 *     receiver, most missing packets first, each taking its frame sender
 *     when that one is free and holds something new for it, else the free
 *     neighbour that does and holds the fewest packets, then improved by
 *     augmenting paths of length three.  A fixed cycle gives every node
 *     exactly C per cycle, so a node that fell behind (a packet choice that
 *     did not suit the cut it sits behind) can never catch up and the tail
 *     grows with N: at N = 2500 on the 32x32 grid the pure cycle takes
 *     10441 steps, with reversal and fill 5362, arbitrated 5223 (on 4x4:
 *     4730, 4700, 4794; the paper's BBS 5012).
 *   - VINE_BBS_AUTO (the default, and vine__bbs_schedule): both the
 *     arbitrated and the frame-driven mode with reversal and fill from the
 *     same state, the shorter kept.
 *
 * Cost: a step costs O(n deg) packet choices, each O(deg) per examined word
 * (at most four); frames cost O(E (E + V)) for E distinct edges (colour.c)
 * plus O(nframes n) to list them.
 */
#include "bbs.h"
#include "bbs_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Refused above this many frame entries (nframes * arcs per frame). */
#define FRAMES_MAX_ARCS ((size_t)1 << 27)
/* Words of the window (64 packets each) the packet choice examines. */
#define PICK_WORDS 4

static int64_t gcd64(int64_t a, int64_t b)
{
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a < 0 ? -a : a;
}

/* ---- the state ---- */

int vine__bbs_state_init(vine_bbs_state *st, int n, int root, int npackets)
{
    memset(st, 0, sizeof *st);
    st->n = n;
    st->npackets = npackets;
    st->words = (npackets + 63) / 64;
    size_t w = (size_t)(st->words ? st->words : 1);
    st->have = calloc((size_t)n * w, sizeof *st->have);
    st->count = calloc((size_t)n, sizeof *st->count);
    st->lo = calloc((size_t)n, sizeof *st->lo);
    st->hi = calloc((size_t)n, sizeof *st->hi);
    if (!st->have || !st->count || !st->lo || !st->hi) {
        vine__bbs_state_free(st);
        return VINE_ERR_NO_MEM;
    }
    for (int v = 0; v < n; v++)
        if (v == root || npackets == 0) {
            for (int p = 0; p < npackets; p++)
                st->have[(size_t)v * w + (size_t)(p >> 6)] |= (uint64_t)1 << (p & 63);
            st->count[v] = npackets;
            st->lo[v] = npackets;
            st->hi[v] = npackets;
            st->ncomplete++;
        }
    return VINE_OK;
}

void vine__bbs_state_free(vine_bbs_state *st)
{
    if (!st)
        return;
    free(st->have);
    free(st->count);
    free(st->lo);
    free(st->hi);
    memset(st, 0, sizeof *st);
}

void vine__bbs_state_add(vine_bbs_state *st, int v, int p)
{
    uint64_t *row = st->have + (size_t)v * (size_t)st->words;
    uint64_t bit = (uint64_t)1 << (p & 63);
    if (row[p >> 6] & bit)
        return;
    row[p >> 6] |= bit;
    st->count[v]++;
    if (p + 1 > st->hi[v])
        st->hi[v] = p + 1;
    if (p == st->lo[v]) {
        int q = p;
        int w = q >> 6;
        /* next zero bit from q on */
        uint64_t x = ~row[w] & (~(uint64_t)0 << (q & 63));
        while (!x && ++w < st->words)
            x = ~row[w];
        q = w < st->words ? w * 64 + __builtin_ctzll(x) : st->npackets;
        st->lo[v] = q < st->npackets ? q : st->npackets;
    }
    if (st->count[v] == st->npackets)
        st->ncomplete++;
}

/* ---- packet choice (Algorithm 1) ---- */

int vine__bbs_pick(const vine_graph *g, const vine_bbs_state *st, int u, int v)
{
    if (st->count[u] == 0 || st->lo[v] >= st->hi[u])
        return -1;
    const uint64_t *hu = st->have + (size_t)u * (size_t)st->words;
    const uint64_t *hv = st->have + (size_t)v * (size_t)st->words;
    int w0 = st->lo[v] >> 6, w1 = (st->hi[u] - 1) >> 6, nw = w1 - w0 + 1;
    int deg = g->start[v + 1] - g->start[v];
    int planes = 1;
    while ((1 << planes) <= deg)
        planes++;
    /* a deterministic pseudo-random start and choice, from the state */
    uint64_t rnd = ((uint64_t)(unsigned)u * 0x9E3779B97F4A7C15ULL) ^ ((uint64_t)(unsigned)v << 32) ^
                   ((uint64_t)(unsigned)st->count[u] * 40503u) ^
                   ((uint64_t)(unsigned)st->count[v] << 17);
    rnd = rnd * 6364136223846793005ULL + 1442695040888963407ULL;
    int start = (int)((rnd >> 33) % (uint64_t)nw);
    int best = -1, bestval = -1, top = deg - 1; /* u is a neighbour: it holds them all */
    uint64_t total = 0;
    int seen = 0;
    for (int i = 0; i < nw; i++) {
        int w = w0 + (start + i) % nw;
        uint64_t d = hu[w] & ~hv[w];
        if (!d)
            continue;
        /* bit-sliced count, per packet of d, of the neighbours of v that
         * lack it (u holds all of d, so it never counts) */
        uint64_t plane[16];
        for (int b = 0; b < planes; b++)
            plane[b] = 0;
        if (++seen > PICK_WORDS)
            break;
        for (int k = g->start[v]; k < g->start[v + 1]; k++) {
            int x = g->nbr[k];
            if (x == u)
                continue;
            uint64_t carry = ~st->have[(size_t)x * (size_t)st->words + (size_t)w] & d;
            for (int b = 0; carry && b < planes; b++) {
                uint64_t t = plane[b] & carry;
                plane[b] ^= carry;
                carry = t;
            }
        }
        /* the packets of d with the largest count */
        uint64_t cand = d;
        int val = 0;
        for (int b = planes - 1; b >= 0; b--) {
            uint64_t t = cand & plane[b];
            if (t) {
                cand = t;
                val |= 1 << b;
            }
        }
        if (val < bestval)
            continue;
        if (val > bestval) {
            bestval = val;
            total = 0;
        }
        /* uniform among the best so far (reservoir sampling) */
        uint64_t pc = (uint64_t)__builtin_popcountll(cand);
        total += pc;
        rnd = rnd * 6364136223846793005ULL + 1442695040888963407ULL;
        if ((rnd >> 33) % total < pc) {
            uint64_t k = (rnd >> 11) % pc;
            while (k--)
                cand &= cand - 1;
            best = w * 64 + __builtin_ctzll(cand);
        }
        if (val >= top)
            break; /* no packet can do better */
    }
    return best;
}

/* ---- helpers ---- */

int vine__graph_bipartite(const vine_graph *g)
{
    signed char *side = malloc((size_t)(g->n ? g->n : 1));
    int *queue = malloc(sizeof *queue * (size_t)(g->n ? g->n : 1));
    if (!side || !queue) {
        free(side);
        free(queue);
        return 0;
    }
    memset(side, -1, (size_t)g->n);
    int ok = 1;
    for (int s = 0; s < g->n && ok; s++) {
        if (side[s] >= 0)
            continue;
        int qh = 0, qt = 0;
        side[s] = 0;
        queue[qt++] = s;
        while (qh < qt && ok) {
            int u = queue[qh++];
            for (int k = g->start[u]; k < g->start[u + 1]; k++) {
                int w = g->nbr[k];
                if (side[w] < 0) {
                    side[w] = (signed char)(1 - side[u]);
                    queue[qt++] = w;
                } else if (side[w] == side[u]) {
                    ok = 0;
                    break;
                }
            }
        }
    }
    free(side);
    free(queue);
    return ok;
}

/* 2-colouring from BFS distances (valid when g is bipartite). */
static void sides_from_dist(const vine_graph *g, const int *dist, signed char *side)
{
    for (int v = 0; v < g->n; v++)
        side[v] = (signed char)(dist[v] & 1);
}

/* ---- frames ---- */

void vine__bbs_frames_free(vine_bbs_frames *f)
{
    if (!f)
        return;
    free(f->fstart);
    free(f->arc);
    memset(f, 0, sizeof *f);
}

typedef struct slot {
    double pos;
    int cls;
} slot;

static int cmp_slot(const void *a, const void *b)
{
    const slot *x = a, *y = b;
    if (x->pos != y->pos)
        return x->pos < y->pos ? -1 : 1;
    return (x->cls > y->cls) - (x->cls < y->cls);
}

int vine__bbs_frames(const vine_graph *g, const vine_bbs_lp *lp, vine_bbs_frames *f, char *err,
                     size_t errlen)
{
    memset(f, 0, sizeof *f);
    f->rate.den = 1;
    if (!lp || lp->n != g->n || lp->m != g->m)
        return vine__bbs_err(err, errlen, VINE_ERR_UNSUPPORTED, "bbs frames: LP of another graph");
    int n = g->n, m = g->m;
    int64_t L = lp->lcm;
    int rc = VINE_OK;
    int64_t *x = malloc(sizeof *x * (size_t)(2 * m + 1));
    int64_t *mult = malloc(sizeof *mult * (size_t)(m + 1));
    int *dist = malloc(sizeof *dist * (size_t)(n ? n : 1));
    signed char *side = malloc((size_t)(n ? n : 1));
    vine_mcolouring col;
    memset(&col, 0, sizeof col);
    slot *slots = NULL;
    int *seen = NULL;
    if (!x || !mult || !dist || !side) {
        rc = VINE_ERR_NO_MEM;
        goto out;
    }
    for (int a = 0; a < 2 * m; a++) {
        if (lp->occ[a].den <= 0 || L % lp->occ[a].den) {
            rc = vine__bbs_err(err, errlen, VINE_ERR_INTERNAL, "bbs frames: occupancy off the lcm");
            goto out;
        }
        x[a] = lp->occ[a].num * (L / lp->occ[a].den);
    }
    for (int e = 0; e < m; e++)
        mult[e] = x[2 * e] + x[2 * e + 1];
    vine__graph_bfs(g, lp->root, dist);
    int bip = vine__graph_bipartite(g);
    sides_from_dist(g, dist, side);
    rc = vine__mcolour(n, m, g->eu, g->ev, mult, bip ? side : NULL, &col);
    if (rc) {
        if (rc == VINE_ERR_UNSUPPORTED)
            vine__bbs_err(err, errlen, rc, "bbs frames: multigraph too large to colour (L = %lld)",
                          (long long)L);
        else if (rc == VINE_ERR_INTERNAL)
            vine__bbs_err(err, errlen, rc, "bbs frames: colouring failed");
        goto out;
    }
    size_t entries = 0;
    for (int k = 0; k < col.nclass; k++)
        entries += (size_t)col.crep[k] * (size_t)(col.cstart[k + 1] - col.cstart[k]);
    if (col.ncolours > INT32_MAX / 2 || entries > FRAMES_MAX_ARCS) {
        rc = vine__bbs_err(err, errlen, VINE_ERR_UNSUPPORTED,
                           "bbs frames: %lld frames, %zu arcs: too many to list",
                           (long long)col.ncolours, entries);
        goto out;
    }
    int nf = (int)col.ncolours;
    f->nframes = nf;
    f->bipartite = bip;
    f->fstart = malloc(sizeof *f->fstart * ((size_t)nf + 1));
    f->arc = malloc(sizeof *f->arc * (entries ? entries : 1));
    slots = malloc(sizeof *slots * (size_t)(nf ? nf : 1));
    seen = calloc((size_t)(m ? m : 1), sizeof *seen);
    if (!f->fstart || !f->arc || !slots || !seen) {
        rc = VINE_ERR_NO_MEM;
        goto out;
    }
    /* spread each class's repetitions evenly over the cycle */
    {
        int s = 0;
        for (int k = 0; k < col.nclass; k++)
            for (int64_t j = 0; j < col.crep[k]; j++) {
                slots[s].pos = ((double)j + 0.5) / (double)col.crep[k];
                slots[s].cls = k;
                s++;
            }
        qsort(slots, (size_t)nf, sizeof *slots, cmp_slot);
    }
    /* list the frames, orienting the copies: the forward arc of edge e (from
     * the end nearer the root) takes its copies first, the rest evenly */
    size_t pos = 0;
    for (int t = 0; t < nf; t++) {
        f->fstart[t] = (int)pos;
        int k = slots[t].cls;
        for (int i = col.cstart[k]; i < col.cstart[k + 1]; i++) {
            int e = col.cedge[i];
            int fwd = dist[g->eu[e]] <= dist[g->ev[e]] ? 2 * e : 2 * e + 1;
            int64_t nfwd = x[fwd], tot = mult[e];
            int64_t j = seen[e]++;
            /* occurrence j of tot: forward while the forward copies last,
             * in the Bresenham pattern of nfwd out of tot */
            int64_t before = j * nfwd / tot, after = (j + 1) * nfwd / tot;
            f->arc[pos++] = after > before ? fwd : fwd ^ 1;
        }
    }
    f->fstart[nf] = (int)pos;
    /* the rate: least root cut of the per-cycle copies over the frames */
    if (n > 1 && nf > 0) {
        int64_t cl = lp->c.num * (L / lp->c.den);
        int64_t cut = vine__bbs_min_cut(g, lp->root, x, cl);
        if (cut < 0) {
            rc = VINE_ERR_NO_MEM;
            goto out;
        }
        int64_t gd = gcd64(cut, nf);
        f->rate.num = cut / (gd ? gd : 1);
        f->rate.den = nf / (gd ? gd : 1);
        if (!f->rate.num)
            f->rate.den = 1;
    } else {
        f->rate.num = 0;
        f->rate.den = 1;
    }
out:
    free(x);
    free(mult);
    free(dist);
    free(side);
    free(slots);
    free(seen);
    vine__mcolouring_free(&col);
    if (rc)
        vine__bbs_frames_free(f);
    return rc;
}

/* ---- the cycle ---- */

typedef struct cyc {
    const vine_graph *g;
    vine_bbs_state *st;
    int stamp;  /* the step being built */
    int *busy;  /* busy[v] == stamp: v sends or receives in this step */
    int *sendx; /* index in xf of the transfer busy node u sends */
    int *fpart; /* fstamp[v] == stamp: fpart[v] sends to v in this step's frame */
    int *fstamp;
    vine_xfer *xf;
    int nx;
    int *order; /* receivers, most missing first */
    int *bucket;
} cyc;

static void take(cyc *c, int u, int v, int p)
{
    c->busy[u] = c->busy[v] = c->stamp;
    c->sendx[u] = c->nx;
    c->xf[c->nx].from = u;
    c->xf[c->nx].to = v;
    c->xf[c->nx].packet = p;
    c->nx++;
}

/* 1 if u holds a packet v lacks (the first differing word ends the scan). */
static int has_new(const vine_bbs_state *st, int u, int v)
{
    if (st->count[u] == 0 || st->lo[v] >= st->hi[u])
        return 0;
    const uint64_t *hu = st->have + (size_t)u * (size_t)st->words;
    const uint64_t *hv = st->have + (size_t)v * (size_t)st->words;
    for (int w = st->lo[v] >> 6; w <= (st->hi[u] - 1) >> 6; w++)
        if (hu[w] & ~hv[w])
            return 1;
    return 0;
}

/* Useful transfers frame fr would make from the current state. */
static int frame_use(const cyc *c, const vine_bbs_frames *f, int fr)
{
    const vine_graph *g = c->g;
    int use = 0;
    for (int i = f->fstart[fr]; i < f->fstart[fr + 1]; i++) {
        int a = f->arc[i], e = a >> 1;
        int u = (a & 1) ? g->ev[e] : g->eu[e], v = (a & 1) ? g->eu[e] : g->ev[e];
        use += has_new(c->st, u, v);
    }
    return use;
}

/*
 * The incomplete nodes not yet busy in this step, most missing first (a
 * counting sort on the number held), into c->order; returns how many.
 */
static int receivers(cyc *c)
{
    const vine_bbs_state *st = c->st;
    int n = c->g->n, np = st->npackets, nr = 0;
    for (int i = 0; i <= np; i++)
        c->bucket[i] = 0;
    for (int v = 0; v < n; v++)
        if (c->busy[v] != c->stamp && st->count[v] < np)
            c->bucket[st->count[v]]++, nr++;
    for (int i = 1; i <= np; i++)
        c->bucket[i] += c->bucket[i - 1];
    for (int v = n - 1; v >= 0; v--)
        if (c->busy[v] != c->stamp && st->count[v] < np)
            c->order[--c->bucket[st->count[v]]] = v;
    return nr;
}

/*
 * Matches the receivers of c->order greedily, most missing first: each takes
 * its sender of this step's frame when that one is free and holds
 * something new for it, else the free neighbour holding something new that
 * holds the fewest packets (the least useful elsewhere).  Then augmenting
 * paths of length three: an idle receiver v takes a busy sender u whose
 * receiver w an idle neighbour x of w can serve instead.
 */
static void match(cyc *c, int nr)
{
    const vine_graph *g = c->g;
    const vine_bbs_state *st = c->st;
    for (int i = 0; i < nr; i++) {
        int v = c->order[i];
        if (c->busy[v] == c->stamp)
            continue;
        if (c->fstamp[v] == c->stamp && c->busy[c->fpart[v]] != c->stamp) {
            int p = vine__bbs_pick(g, st, c->fpart[v], v);
            if (p >= 0) {
                take(c, c->fpart[v], v, p);
                continue;
            }
        }
        int bu = -1;
        for (int k = g->start[v]; k < g->start[v + 1]; k++) {
            int u = g->nbr[k];
            if (c->busy[u] == c->stamp || (bu >= 0 && st->count[u] >= st->count[bu]))
                continue;
            if (has_new(st, u, v))
                bu = u;
        }
        if (bu >= 0)
            take(c, bu, v, vine__bbs_pick(g, st, bu, v));
    }
    for (int i = 0; i < nr; i++) {
        int v = c->order[i];
        if (c->busy[v] == c->stamp)
            continue;
        for (int k = g->start[v]; k < g->start[v + 1]; k++) {
            int u = g->nbr[k];
            if (c->busy[u] != c->stamp)
                continue;
            int t = c->sendx[u];
            if (t >= c->nx || c->xf[t].from != u || !has_new(st, u, v))
                continue; /* u receives in this step, or has nothing for v */
            int w = c->xf[t].to, x = -1;
            for (int q = g->start[w]; q < g->start[w + 1] && x < 0; q++) {
                int y = g->nbr[q];
                if (y != v && c->busy[y] != c->stamp && has_new(st, y, w))
                    x = y;
            }
            if (x < 0)
                continue;
            c->xf[t].from = x;
            c->xf[t].packet = vine__bbs_pick(g, st, x, w);
            c->busy[x] = c->stamp;
            c->sendx[x] = t;
            take(c, u, v, vine__bbs_pick(g, st, u, v));
            break;
        }
    }
}

static int cycle_mode(const vine_graph *g, const vine_bbs_frames *f, vine_bbs_state *st, int first,
                      unsigned flags, vine_bsched *out, char *err, size_t errlen)
{
    int n = g->n;
    if (st->n != n || out->n != n || out->npackets != st->npackets)
        return vine__bbs_err(err, errlen, VINE_ERR_INTERNAL,
                             "bbs cycle: state of another broadcast");
    if (st->ncomplete == n)
        return VINE_OK;
    int nf = f->nframes;
    if (nf <= 0 && !(flags & (VINE_BBS_FILL | VINE_BBS_ARBITRATE)))
        return vine__bbs_err(err, errlen, VINE_ERR_INTERNAL, "bbs cycle: no frames");
    cyc c;
    memset(&c, 0, sizeof c);
    c.g = g;
    c.st = st;
    c.busy = calloc((size_t)n, sizeof *c.busy);
    c.sendx = calloc((size_t)n, sizeof *c.sendx);
    c.fpart = calloc((size_t)n, sizeof *c.fpart);
    c.fstamp = calloc((size_t)n, sizeof *c.fstamp);
    c.xf = malloc(sizeof *c.xf * (size_t)(n / 2 + 1));
    c.order = malloc(sizeof *c.order * (size_t)n);
    c.bucket = malloc(sizeof *c.bucket * ((size_t)st->npackets + 1));
    int rc = VINE_OK;
    if (!c.busy || !c.sendx || !c.fpart || !c.fstamp || !c.xf || !c.order || !c.bucket) {
        rc = VINE_ERR_NO_MEM;
        goto out;
    }
    if (nf > 0 && first < 0) {
        int bu = -1;
        for (int fr = 0; fr < nf; fr++) {
            int u = frame_use(&c, f, fr);
            if (u > bu)
                bu = u, first = fr;
        }
    }
    int fr = nf > 0 ? first % nf : 0;
    int idle = 0;
    while (st->ncomplete < n) {
        c.stamp++;
        c.nx = 0;
        if (nf > 0 && (flags & VINE_BBS_ARBITRATE)) {
            /* the frame only names each receiver's preferred sender */
            for (int i = f->fstart[fr]; i < f->fstart[fr + 1]; i++) {
                int a = f->arc[i], e = a >> 1;
                int u = (a & 1) ? g->ev[e] : g->eu[e], v = (a & 1) ? g->eu[e] : g->ev[e];
                c.fpart[v] = u;
                c.fstamp[v] = c.stamp;
            }
        } else if (nf > 0) {
            for (int i = f->fstart[fr]; i < f->fstart[fr + 1]; i++) {
                int a = f->arc[i], e = a >> 1;
                int u = (a & 1) ? g->ev[e] : g->eu[e], v = (a & 1) ? g->eu[e] : g->ev[e];
                int p = vine__bbs_pick(g, st, u, v);
                if (p >= 0) {
                    take(&c, u, v, p);
                } else if (flags & VINE_BBS_REVERSE) {
                    p = vine__bbs_pick(g, st, v, u);
                    if (p >= 0)
                        take(&c, v, u, p);
                }
            }
        }
        if (nf > 0)
            fr = fr + 1 == nf ? 0 : fr + 1;
        if (flags & (VINE_BBS_FILL | VINE_BBS_ARBITRATE))
            match(&c, receivers(&c));
        if (c.nx == 0) {
            if (++idle > (nf > 0 ? nf : 1)) {
                rc = vine__bbs_err(err, errlen, VINE_ERR_INTERNAL,
                                   "bbs cycle: a whole cycle of %d frames moves nothing", nf);
                goto out;
            }
        } else {
            idle = 0;
        }
        for (int i = 0; i < c.nx; i++) {
            rc = vine__bsched_add(out, c.xf[i].from, c.xf[i].to, c.xf[i].packet);
            if (rc)
                goto out;
        }
        rc = vine__bsched_step(out);
        if (rc)
            goto out;
        for (int i = 0; i < c.nx; i++)
            vine__bbs_state_add(st, c.xf[i].to, c.xf[i].packet);
    }
out:
    free(c.busy);
    free(c.sendx);
    free(c.fpart);
    free(c.fstamp);
    free(c.xf);
    free(c.order);
    free(c.bucket);
    return rc;
}

static int state_copy(vine_bbs_state *dst, const vine_bbs_state *src)
{
    memset(dst, 0, sizeof *dst);
    size_t w = (size_t)(src->words ? src->words : 1), n = (size_t)src->n;
    dst->have = malloc(sizeof *dst->have * n * w);
    dst->count = malloc(sizeof *dst->count * n);
    dst->lo = malloc(sizeof *dst->lo * n);
    dst->hi = malloc(sizeof *dst->hi * n);
    if (!dst->have || !dst->count || !dst->lo || !dst->hi) {
        vine__bbs_state_free(dst);
        return VINE_ERR_NO_MEM;
    }
    dst->n = src->n;
    dst->npackets = src->npackets;
    dst->words = src->words;
    dst->ncomplete = src->ncomplete;
    memcpy(dst->have, src->have, sizeof *dst->have * n * w);
    memcpy(dst->count, src->count, sizeof *dst->count * n);
    memcpy(dst->lo, src->lo, sizeof *dst->lo * n);
    memcpy(dst->hi, src->hi, sizeof *dst->hi * n);
    return VINE_OK;
}

int vine__bbs_cycle(const vine_graph *g, const vine_bbs_frames *f, vine_bbs_state *st, int first,
                    unsigned flags, vine_bsched *out, char *err, size_t errlen)
{
    if (!(flags & VINE_BBS_AUTO))
        return cycle_mode(g, f, st, first, flags, out, err, errlen);
    if (st->n != g->n || out->n != g->n || out->npackets != st->npackets)
        return vine__bbs_err(err, errlen, VINE_ERR_INTERNAL,
                             "bbs cycle: state of another broadcast");
    /*
     * Both modes from copies of the state, the shorter continuation appended
     * to out: arbitrated (best on the large grids, where one fixed cycle
     * lets laggards build up) and frame-driven with reversal and fill (best
     * on the small graphs, where the cycle's rate C is well above 1/2: 4x4
     * at N = 2500 takes 4700 steps against 4794 arbitrated).  Both end with
     * every node complete, so st ends the same either way.
     */
    static const unsigned modes[] = {VINE_BBS_ARBITRATE, VINE_BBS_REVERSE | VINE_BBS_FILL};
    vine_bsched best;
    vine__bsched_init(&best, out->n, out->root, out->npackets);
    int have = 0, rc = VINE_OK;
    for (size_t k = 0; k < sizeof modes / sizeof *modes && !rc; k++) {
        vine_bbs_state cp;
        vine_bsched s;
        vine__bsched_init(&s, out->n, out->root, out->npackets);
        rc = state_copy(&cp, st);
        if (!rc)
            rc = cycle_mode(g, f, &cp, first, modes[k], &s, err, errlen);
        vine__bbs_state_free(&cp);
        if (!rc && (!have || s.nsteps < best.nsteps)) {
            vine_bsched t = best;
            best = s;
            s = t;
            have = 1;
        }
        vine__bsched_free(&s);
    }
    for (int t = 0; !rc && t < best.nsteps; t++) {
        size_t b = t ? best.step_end[t - 1] : 0;
        for (size_t i = b; !rc && i < best.step_end[t]; i++) {
            rc = vine__bsched_add(out, best.xfers[i].from, best.xfers[i].to, best.xfers[i].packet);
            if (!rc)
                vine__bbs_state_add(st, best.xfers[i].to, best.xfers[i].packet);
        }
        if (!rc)
            rc = vine__bsched_step(out);
    }
    vine__bsched_free(&best);
    return rc;
}

/* ---- the whole schedule ---- */

int vine__bbs_schedule(const vine_graph *g, int root, int npackets, vine_bsched *out, char *err,
                       size_t errlen)
{
    vine__bsched_init(out, g ? g->n : 0, root, npackets);
    if (!g || g->n < 1 || root < 0 || root >= g->n)
        return vine__bbs_err(err, errlen, VINE_ERR_UNSUPPORTED, "bbs: root %d outside the graph",
                             root);
    if (npackets < 0)
        return vine__bbs_err(err, errlen, VINE_ERR_UNSUPPORTED, "bbs: %d packets", npackets);
    if (g->n == 1 || npackets == 0)
        return VINE_OK;
    vine_bbs_lp lp;
    vine_bbs_frames fr;
    vine_bbs_state st;
    memset(&fr, 0, sizeof fr);
    memset(&st, 0, sizeof st);
    int rc = vine__bbs_lp(g, root, !vine__graph_bipartite(g), &lp, err, errlen);
    if (rc)
        return rc;
    rc = vine__bbs_frames(g, &lp, &fr, err, errlen);
    if (!rc)
        rc = vine__bbs_state_init(&st, g->n, root, npackets);
    if (!rc)
        rc = vine__bbs_cycle(g, &fr, &st, -1, VINE_BBS_CYCLE_DEFAULT, out, err, errlen);
    vine__bbs_state_free(&st);
    vine__bbs_frames_free(&fr);
    vine__bbs_lp_free(&lp);
    return rc;
}
