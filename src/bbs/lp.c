/*
 * The balanced-saturation LP of BBS (../shared/papers/bbs-broadcast.txt,
 * section 2.2-2.3; ../shared/BBS.md), solved with GLPK and returned as exact
 * fractions.
 *
 * Variables: the occupancy O(a) >= 0 of every directed edge a (arcs into the
 * root fixed at 0) and the common receive rate C.  Maximise C subject to
 *   sum_a O(a) <= floor(P/2)                       (graph constraint)
 *   sum of O over the arcs touching i <= 1         (node normalisation)
 *   sum of O over the arcs into i = C, i != root   (balance)
 *   O(i -> j) <= C, i != root                      (strong data constraint)
 * and, added lazily, two families the paper leaves out:
 *   - cut rows: sum of O over the arcs entering S >= C for a node set S
 *     without the root.  The paper's rows allow a closed circulation (two
 *     nodes feeding each other at rate C with nothing from the root); such a
 *     solution claims a rate no schedule reaches.  By Edmonds' branching
 *     theorem rate C is reachable iff every such cut holds, i.e. the maximum
 *     flow from the root to each node is at least C.  When the arcs of
 *     positive occupancy form a DAG every cut holds (the first node of S in
 *     topological order receives C from outside S), so the check only runs
 *     (n - 1 local max flows, see maxflow) when the support has a cycle.
 *   - odd-set rows (odd_sets): sum of O over the arcs inside S <=
 *     (|S| - 1) / 2 for odd |S| >= 3, the blossom rows of the matching
 *     polytope (BBS.md: without them the multigraph of an odd-cycle graph
 *     such as 16K3 can need more than L colours).  Exhaustive over all odd
 *     subsets up to 20 nodes; on larger graphs a heuristic over BFS balls
 *     (the colouring then adds frames where one is missed, and the frames
 *     report the rate they really reach).
 *
 * Phase A: glp_simplex (presolved the first time, then from the last
 * basis) in floating point, adding the lazy rows the solution breaks until
 * it breaks none.  The paper's rows alone are far from enough: on the 4x4
 * grid GLPK's first optimum leaves a node a root cut of 2/15 for C = 8/15,
 * and on 32x32 most nodes sit behind such cuts; five rounds fix 32x32.
 *
 * Phase B, exactness: glp_exact (rational simplex from phase A's basis) and
 * every double turned into a fraction by continued fractions.  GLPK's
 * vertex is kept when the lcm L of its denominators is at most 4 den(C)
 * (4x4: L = 15); from 192 nodes on its lcm passes 2^31, so the same optimum is
 * rounded to multiples of 1 / (k den(C)), k = 1 .. 4: each x(a) = L O(a) is
 * the floor or the ceiling of L O(a), chosen by a max flow that keeps every
 * in-sum at exactly C L (the in/out rows form a bipartite incidence matrix,
 * totally unimodular, so the fractional point guarantees an integral one).
 * Either way every row of BBS.md is then checked again in 64-bit integers on
 * L O; a solution failing it is VINE_ERR_INTERNAL, never passed on.  C is
 * GLPK's exact optimum in all cases.  Rounding may cost a cut a copy or two
 * (the frames then report the lower rate, vine__bbs_frames); the first k
 * keeping 99.5% of C L at every cut is taken.  The rows imply
 * C <= floor(P/2) / (P - 1).
 *
 * Cost: an LP of 2m + 1 columns and about n + 2m rows plus the lazy rows;
 * each round checks the rooted cuts with n - 1 local max flows.  About 1 s
 * for a 1024-node grid.
 */
#include "bbs.h"
#include "bbs_int.h"

#include <glpk.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LP_MAX_ROUNDS 200
#define LP_MAX_LCM ((int64_t)1 << 31)
#define LP_EXACT_MAX 4 /* GLPK's vertex kept while its lcm is at most 4 den(C) */
#define LP_ROUND_MAX 4
/* a rounding that keeps 99.5% of C at every cut is taken without trying finer ones */
#define LP_GOOD_SCORE 0.995
#define ODD_EXHAUSTIVE_MAX 20
#define ROWS_PER_ROUND 4096 /* lazy rows added per round at most */

void vine__bbs_lp_free(vine_bbs_lp *lp)
{
    if (!lp)
        return;
    free(lp->occ);
    memset(lp, 0, sizeof *lp);
}

static int64_t gcd64(int64_t a, int64_t b)
{
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a < 0 ? -a : a;
}

/*
 * The fraction nearest x whose continued-fraction expansion stops once it is
 * within tol of x (x >= 0).  Returns 0, or -1 if x is negative beyond noise
 * or the denominator grows past 2^40.
 */
static int to_frac(double x, double tol, vine_frac *f)
{
    if (x < 0) {
        if (x < -1e-9)
            return -1;
        x = 0;
    }
    int64_t h0 = 0, h1 = 1, k0 = 1, k1 = 0;
    double r = x;
    for (int it = 0; it < 64; it++) {
        double a = floor(r);
        if (a > 1e12)
            return -1;
        int64_t ai = (int64_t)a;
        int64_t h2 = ai * h1 + h0, k2 = ai * k1 + k0;
        if (k2 > ((int64_t)1 << 40))
            return -1;
        h0 = h1, h1 = h2, k0 = k1, k1 = k2;
        if (fabs(x - (double)h1 / (double)k1) <= tol * (x > 1 ? x : 1))
            break;
        double fr = r - a;
        if (fr <= 0)
            break;
        r = 1.0 / fr;
    }
    int64_t g = gcd64(h1, k1);
    f->num = h1 / g;
    f->den = k1 / g;
    return 0;
}

/* The LP under construction. */
typedef struct lpctx {
    const vine_graph *g;
    int root, m2; /* m2 = 2m arcs */
    glp_prob *P;
    int *ind; /* 1-based row buffer of GLPK */
    double *val;
    /* the exact solution of the last round */
    vine_frac c;
    vine_frac *occ;
    int64_t L, cl; /* lcm, C * L */
    int solved;    /* a solve has run: later ones restart from its basis */
    int64_t tol;   /* slack of the odd-set test (phase A's rounding noise) */
    int64_t *x;    /* L * O(a) */
    /* max-flow scratch */
    int64_t *phi; /* net flow eu -> ev per edge */
    int *level, *iter, *queue;
    int *order; /* the nodes in BFS order from the root */
    char *mark;
} lpctx;

static int arc_tail(const vine_graph *g, int a)
{
    return (a & 1) ? g->ev[a >> 1] : g->eu[a >> 1];
}

static int arc_head(const vine_graph *g, int a)
{
    return (a & 1) ? g->eu[a >> 1] : g->ev[a >> 1];
}

/* Appends a row lb <= sum val[k] * col[ind[k]] <= ub (type as GLPK). */
static void add_row(lpctx *c, int len, int type, double lb, double ub)
{
    int r = glp_add_rows(c->P, 1);
    glp_set_mat_row(c->P, r, len, c->ind, c->val);
    glp_set_row_bnds(c->P, r, type, lb, ub);
}

static void build_base(lpctx *c)
{
    const vine_graph *g = c->g;
    int n = g->n, root = c->root;
    glp_prob *P = c->P;
    glp_set_obj_dir(P, GLP_MAX);
    glp_add_cols(P, 1 + c->m2);
    /* column 1 is C, column 2 + a is arc a */
    glp_set_col_bnds(P, 1, GLP_LO, 0.0, 0.0);
    glp_set_obj_coef(P, 1, 1.0);
    for (int a = 0; a < c->m2; a++) {
        if (arc_head(g, a) == root)
            glp_set_col_bnds(P, 2 + a, GLP_FX, 0.0, 0.0);
        else
            glp_set_col_bnds(P, 2 + a, GLP_DB, 0.0, 1.0);
    }
    /* graph constraint */
    for (int a = 0; a < c->m2; a++) {
        c->ind[1 + a] = 2 + a;
        c->val[1 + a] = 1.0;
    }
    add_row(c, c->m2, GLP_UP, 0.0, (double)(n / 2));
    for (int i = 0; i < n; i++) {
        int len = 0;
        /* node normalisation: both directions of every edge at i */
        for (int k = g->start[i]; k < g->start[i + 1]; k++) {
            int e = g->nbr_edge[k];
            c->ind[++len] = 2 + 2 * e;
            c->val[len] = 1.0;
            c->ind[++len] = 2 + 2 * e + 1;
            c->val[len] = 1.0;
        }
        if (len)
            add_row(c, len, GLP_UP, 0.0, 1.0);
        if (i == root)
            continue;
        /* balance: the arcs into i sum to C */
        len = 0;
        for (int k = g->start[i]; k < g->start[i + 1]; k++) {
            int e = g->nbr_edge[k];
            int in = g->ev[e] == i ? 2 * e : 2 * e + 1;
            c->ind[++len] = 2 + in;
            c->val[len] = 1.0;
        }
        c->ind[++len] = 1;
        c->val[len] = -1.0;
        add_row(c, len, GLP_FX, 0.0, 0.0);
        /* strong data constraint: O(i -> j) - C <= 0 */
        for (int k = g->start[i]; k < g->start[i + 1]; k++) {
            int e = g->nbr_edge[k];
            int out = g->eu[e] == i ? 2 * e : 2 * e + 1;
            c->ind[1] = 2 + out;
            c->val[1] = 1.0;
            c->ind[2] = 1;
            c->val[2] = -1.0;
            add_row(c, 2, GLP_UP, 0.0, 0.0);
        }
    }
}

/* Runs the simplex, then with exact the exact simplex; 0 on an optimum. */
static int solve(lpctx *c, int exact, char *err, size_t errlen)
{
    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    parm.meth = GLP_DUALP;
    /* the first solve with GLPK's presolver (twice as fast on the large
     * grids); later ones start from the last basis */
    if (!c->solved)
        parm.presolve = GLP_ON;
    c->solved = 1;
    int rc = glp_simplex(c->P, &parm);
    if (rc != 0 || glp_get_status(c->P) != GLP_OPT) {
        /* a basis made invalid by the new rows: start again from scratch */
        glp_std_basis(c->P);
        rc = glp_simplex(c->P, &parm);
    }
    if (rc != 0 || glp_get_status(c->P) != GLP_OPT)
        return vine__bbs_err(err, errlen, VINE_ERR_INTERNAL,
                             "bbs lp: glp_simplex failed (%d, status %d)", rc,
                             glp_get_status(c->P));
    if (!exact)
        return VINE_OK;
    rc = glp_exact(c->P, &parm);
    if (rc != 0 || glp_get_status(c->P) != GLP_OPT)
        return vine__bbs_err(err, errlen, VINE_ERR_INTERNAL,
                             "bbs lp: glp_exact failed (%d, status %d)", rc, glp_get_status(c->P));
    return VINE_OK;
}

/* lcm with overflow check against LP_MAX_LCM; 0 on overflow. */
static int64_t lcm_cap(int64_t a, int64_t b)
{
    int64_t g = gcd64(a, b);
    int64_t q = b / g;
    if (a > LP_MAX_LCM / q)
        return 0;
    return a * q;
}

/*
 * L = lcm of the fractions' denominators, x = L * O, and every base row
 * checked in integers.  Returns 0 when all hold, 1 when one fails, -1 when
 * L passes LP_MAX_LCM.  Values are at most L <= 2^31 each and sums hold at
 * most 2^25 of them, so 64 bits do not overflow.
 */
static int verify_base(lpctx *c)
{
    const vine_graph *g = c->g;
    int n = g->n;
    int64_t L = c->c.den;
    for (int a = 0; a < c->m2; a++) {
        if (c->occ[a].den <= 0 || c->occ[a].num < 0)
            return 1;
        L = lcm_cap(L, c->occ[a].den);
        if (!L)
            return -1;
    }
    c->L = L;
    c->cl = c->c.num * (L / c->c.den);
    for (int a = 0; a < c->m2; a++)
        c->x[a] = c->occ[a].num * (L / c->occ[a].den);
    int64_t total = 0;
    for (int a = 0; a < c->m2; a++) {
        if (c->x[a] < 0 || c->x[a] > L)
            return 1;
        if (arc_head(g, a) == c->root && c->x[a] != 0)
            return 1;
        total += c->x[a];
    }
    if (total > (int64_t)(n / 2) * L)
        return 1;
    for (int i = 0; i < n; i++) {
        int64_t touch = 0, in = 0;
        for (int k = g->start[i]; k < g->start[i + 1]; k++) {
            int e = g->nbr_edge[k];
            int ia = g->ev[e] == i ? 2 * e : 2 * e + 1;
            touch += c->x[2 * e] + c->x[2 * e + 1];
            in += c->x[ia];
            if (i != c->root && c->x[ia ^ 1] > c->cl)
                return 1;
        }
        if (touch > L)
            return 1;
        if (i != c->root && in != c->cl)
            return 1;
    }
    if (n > 1 && c->cl * (int64_t)(n - 1) > (int64_t)(n / 2) * L)
        return 1;
    return 0;
}

/* Every occupancy of GLPK's solution as a fraction (tolerance tol), then
 * verify_base: 0, 1 or -1 as verify_base. */
static int rationalise(lpctx *c, double tol)
{
    for (int a = 0; a < c->m2; a++)
        if (to_frac(glp_get_col_prim(c->P, 2 + a), tol, &c->occ[a]))
            return 1;
    return verify_base(c);
}

/* A small Dinic max flow on an explicit arc list (the rounding network). */
typedef struct net {
    int nv, na, cap_a;
    int *head, *next, *to, *first, *level, *iter, *queue;
    int64_t *cap;
} net;

static int net_init(net *w, int nv, int max_arcs)
{
    memset(w, 0, sizeof *w);
    w->nv = nv;
    w->cap_a = 2 * max_arcs;
    w->first = malloc(sizeof *w->first * (size_t)nv);
    w->level = malloc(sizeof *w->level * (size_t)nv);
    w->iter = malloc(sizeof *w->iter * (size_t)nv);
    w->queue = malloc(sizeof *w->queue * (size_t)nv);
    w->next = malloc(sizeof *w->next * (size_t)w->cap_a);
    w->to = malloc(sizeof *w->to * (size_t)w->cap_a);
    w->cap = malloc(sizeof *w->cap * (size_t)w->cap_a);
    w->head = NULL;
    if (!w->first || !w->level || !w->iter || !w->queue || !w->next || !w->to || !w->cap)
        return -1;
    for (int i = 0; i < nv; i++)
        w->first[i] = -1;
    return 0;
}

static void net_free(net *w)
{
    free(w->first);
    free(w->level);
    free(w->iter);
    free(w->queue);
    free(w->next);
    free(w->to);
    free(w->cap);
}

/* Adds u -> v with capacity cap (and its residual twin); returns its index. */
static int net_arc(net *w, int u, int v, int64_t cap)
{
    int k = w->na;
    w->to[k] = v, w->cap[k] = cap, w->next[k] = w->first[u], w->first[u] = k;
    w->to[k + 1] = u, w->cap[k + 1] = 0, w->next[k + 1] = w->first[v], w->first[v] = k + 1;
    w->na += 2;
    return k;
}

static int net_bfs(net *w, int s, int t)
{
    for (int i = 0; i < w->nv; i++)
        w->level[i] = -1;
    int qh = 0, qt = 0;
    w->queue[qt++] = s;
    w->level[s] = 0;
    while (qh < qt) {
        int u = w->queue[qh++];
        for (int k = w->first[u]; k >= 0; k = w->next[k])
            if (w->cap[k] > 0 && w->level[w->to[k]] < 0) {
                w->level[w->to[k]] = w->level[u] + 1;
                w->queue[qt++] = w->to[k];
            }
    }
    return w->level[t] >= 0;
}

static int64_t net_dfs(net *w, int u, int t, int64_t lim)
{
    if (u == t)
        return lim;
    for (; w->iter[u] >= 0; w->iter[u] = w->next[w->iter[u]]) {
        int k = w->iter[u], v = w->to[k];
        if (w->cap[k] <= 0 || w->level[v] != w->level[u] + 1)
            continue;
        int64_t f = net_dfs(w, v, t, lim < w->cap[k] ? lim : w->cap[k]);
        if (f > 0) {
            w->cap[k] -= f;
            w->cap[k ^ 1] += f;
            return f;
        }
    }
    return 0;
}

static int64_t net_flow(net *w, int s, int t)
{
    int64_t flow = 0, f;
    while (net_bfs(w, s, t)) {
        for (int i = 0; i < w->nv; i++)
            w->iter[i] = w->first[i];
        while ((f = net_dfs(w, s, t, INT64_MAX)) > 0)
            flow += f;
    }
    return flow;
}

/*
 * Rounds GLPK's solution to multiples of 1/D, D a multiple of C's
 * denominator, keeping every balance row exact: x(a) is floor or ceil of
 * D * O(a), chosen by a max flow.  The rows on x (in-sums fixed at C * D,
 * out-sums bounded, box bounds) form the incidence matrix of a bipartite
 * graph, totally unimodular, so the fractional point D * O guarantees an
 * integral one in the same box.  Fills c->occ, then verify_base; returns 0,
 * 1 when the doubles are too far off for the box or a row fails, -1 on
 * memory.
 */
static int round_to(lpctx *c, int64_t D)
{
    const vine_graph *g = c->g;
    int n = g->n;
    int64_t cl = c->c.num * (D / c->c.den);
    int64_t *need = calloc((size_t)n, sizeof *need);   /* cl - sum lo(in) */
    int64_t *slack = calloc((size_t)n, sizeof *slack); /* out bound - sum lo(out) */
    int *arcidx = malloc(sizeof *arcidx * ((size_t)c->m2 + 1));
    net w;
    int rc = net_init(&w, 2 * n + 2, c->m2 + 2 * n);
    if (!need || !slack || !arcidx || rc) {
        free(need);
        free(slack);
        free(arcidx);
        net_free(&w);
        return -1;
    }
    rc = 0;
    for (int i = 0; i < n; i++) {
        need[i] = i == c->root ? 0 : cl;
        slack[i] = i == c->root ? D : D - cl;
    }
    for (int a = 0; a < c->m2; a++) {
        double f = (double)D * glp_get_col_prim(c->P, 2 + a);
        double lo = floor(f + 1e-7), hi = ceil(f - 1e-7);
        if (lo < 0)
            lo = 0;
        if (hi < lo)
            hi = lo;
        if (arc_head(g, a) == c->root)
            lo = hi = 0;
        c->x[a] = (int64_t)lo;
        need[arc_head(g, a)] -= c->x[a];
        slack[arc_tail(g, a)] -= c->x[a];
        arcidx[a] = -1;
        if (hi > lo)
            arcidx[a] = net_arc(&w, 2 + arc_tail(g, a), 2 + n + arc_head(g, a), 1);
    }
    int64_t want = 0;
    for (int i = 0; i < n; i++) {
        if (need[i] < 0 || slack[i] < 0) {
            rc = 1;
            goto out;
        }
        want += need[i];
        if (slack[i])
            net_arc(&w, 0, 2 + i, slack[i]);
        if (need[i])
            net_arc(&w, 2 + n + i, 1, need[i]);
    }
    if (net_flow(&w, 0, 1) != want) {
        rc = 1;
        goto out;
    }
    for (int a = 0; a < c->m2; a++)
        if (arcidx[a] >= 0 && w.cap[arcidx[a]] == 0)
            c->x[a]++;
    for (int a = 0; a < c->m2; a++) {
        int64_t gd = gcd64(c->x[a], D);
        c->occ[a].num = c->x[a] / gd;
        c->occ[a].den = D / gd;
    }
    rc = verify_base(c) ? 1 : 0;
out:
    free(need);
    free(slack);
    free(arcidx);
    net_free(&w);
    return rc;
}

/* Residual capacity of edge e from its end 'from'. */
static int64_t resid(const lpctx *c, int e, int from)
{
    if (from == c->g->eu[e])
        return c->x[2 * e] - c->phi[e];
    return c->x[2 * e + 1] + c->phi[e];
}

static void push(lpctx *c, int e, int from, int64_t f)
{
    if (from == c->g->eu[e])
        c->phi[e] += f;
    else
        c->phi[e] -= f;
}

/*
 * BFS levels over the residual graph from the source set (the first ns
 * nodes of c->order); returns 1 if t is reached.
 */
static int flow_bfs(lpctx *c, int ns, int t)
{
    const vine_graph *g = c->g;
    for (int i = 0; i < g->n; i++)
        c->level[i] = -1;
    int qh = 0, qt = 0;
    for (int i = 0; i < ns; i++) {
        c->queue[qt++] = c->order[i];
        c->level[c->order[i]] = 0;
    }
    while (qh < qt) {
        int u = c->queue[qh++];
        for (int k = g->start[u]; k < g->start[u + 1]; k++) {
            int w = g->nbr[k];
            if (c->level[w] < 0 && resid(c, g->nbr_edge[k], u) > 0) {
                c->level[w] = c->level[u] + 1;
                c->queue[qt++] = w;
                if (w == t)
                    return 1;
            }
        }
    }
    return t >= 0 && c->level[t] >= 0;
}

/* Blocking-flow DFS of Dinic from u to t, at most lim. */
static int64_t flow_dfs(lpctx *c, int u, int t, int64_t lim)
{
    const vine_graph *g = c->g;
    if (u == t)
        return lim;
    for (; c->iter[u] < g->start[u + 1]; c->iter[u]++) {
        int k = c->iter[u];
        int w = g->nbr[k], e = g->nbr_edge[k];
        if (c->level[w] != c->level[u] + 1 || (c->level[w] > c->level[t] && w != t))
            continue;
        int64_t r = resid(c, e, u);
        if (r <= 0)
            continue;
        int64_t f = flow_dfs(c, w, t, lim < r ? lim : r);
        if (f > 0) {
            push(c, e, u, f);
            return f;
        }
    }
    return 0;
}

/*
 * Max flow from the source set (the first ns nodes of c->order, merged) to
 * t = c->order[ns], stopped once it reaches target.  The rooted cuts are
 * checked with the BFS order from the root: the least cut entering a set S
 * without the root is the flow to the first node of S in that order from
 * everything before it (Hao and Orlin's reduction), and the flows stay
 * local, so n - 1 of them cost little more than one.
 */
static int64_t maxflow(lpctx *c, int ns, int64_t target)
{
    const vine_graph *g = c->g;
    int t = c->order[ns];
    memset(c->phi, 0, sizeof *c->phi * (size_t)g->m);
    int64_t flow = 0;
    while (flow < target && flow_bfs(c, ns, t)) {
        for (int i = 0; i < g->n; i++)
            c->iter[i] = g->start[i];
        int64_t f;
        for (int i = 0; i < ns && flow < target; i++)
            while (flow < target && (f = flow_dfs(c, c->order[i], t, target - flow)) > 0)
                flow += f;
    }
    return flow;
}

/* 1 if the arcs of positive occupancy hold a directed cycle (Kahn's order). */
static int support_cyclic(lpctx *c)
{
    const vine_graph *g = c->g;
    int n = g->n;
    int *indeg = c->iter;
    for (int i = 0; i < n; i++)
        indeg[i] = 0;
    for (int a = 0; a < c->m2; a++)
        if (c->x[a] > 0)
            indeg[arc_head(g, a)]++;
    int qh = 0, qt = 0;
    for (int i = 0; i < n; i++)
        if (!indeg[i])
            c->queue[qt++] = i;
    while (qh < qt) {
        int u = c->queue[qh++];
        for (int k = g->start[u]; k < g->start[u + 1]; k++) {
            int e = g->nbr_edge[k];
            int out = g->eu[e] == u ? 2 * e : 2 * e + 1;
            if (c->x[out] > 0 && --indeg[g->nbr[k]] == 0)
                c->queue[qt++] = g->nbr[k];
        }
    }
    return qt < n;
}

/*
 * Counts the nodes whose max flow from the root is below C (at most
 * ROWS_PER_ROUND) and, with add, adds a cut row for each: the cut is the set
 * of nodes the final residual graph does not reach.
 */
static int cut_rows(lpctx *c, int add)
{
    const vine_graph *g = c->g;
    if (c->cl == 0 || !support_cyclic(c))
        return 0;
    int added = 0;
    for (int i = 1; i < g->n && added < ROWS_PER_ROUND; i++) {
        if (maxflow(c, i, c->cl) >= c->cl)
            continue;
        added++;
        if (!add)
            continue;
        flow_bfs(c, i, -1);
        int len = 0;
        for (int a = 0; a < c->m2; a++)
            if (c->level[arc_tail(g, a)] >= 0 && c->level[arc_head(g, a)] < 0) {
                c->ind[++len] = 2 + a;
                c->val[len] = 1.0;
            }
        c->ind[++len] = 1;
        c->val[len] = -1.0;
        add_row(c, len, GLP_LO, 0.0, 0.0);
    }
    return added;
}

/* min over non-root t of maxflow(root, t) / (C L), capped at 1. */
static double cut_score(lpctx *c)
{
    if (c->cl == 0 || !support_cyclic(c))
        return 1.0;
    int64_t mn = c->cl;
    for (int i = 1; i < c->g->n; i++) {
        int64_t f = maxflow(c, i, c->cl);
        if (f < mn)
            mn = f;
    }
    return (double)mn / (double)c->cl;
}

/* 2 * (copies inside S) - (|S| - 1) * L for the node set marked in c->mark. */
static int64_t odd_excess(const lpctx *c, int size)
{
    const vine_graph *g = c->g;
    int64_t in = 0;
    for (int e = 0; e < g->m; e++)
        if (c->mark[g->eu[e]] && c->mark[g->ev[e]])
            in += c->x[2 * e] + c->x[2 * e + 1];
    return 2 * in - (int64_t)(size - 1) * c->L - c->tol;
}

static void add_odd_row(lpctx *c, int size)
{
    const vine_graph *g = c->g;
    int len = 0;
    for (int e = 0; e < g->m; e++)
        if (c->mark[g->eu[e]] && c->mark[g->ev[e]]) {
            c->ind[++len] = 2 + 2 * e;
            c->val[len] = 1.0;
            c->ind[++len] = 2 + 2 * e + 1;
            c->val[len] = 1.0;
        }
    add_row(c, len, GLP_UP, 0.0, (double)((size - 1) / 2));
}

/* Counts violated odd-set rows (at most ROWS_PER_ROUND), adding them with add. */
static int odd_rows(lpctx *c, int add)
{
    const vine_graph *g = c->g;
    int n = g->n, added = 0;
    if (n <= ODD_EXHAUSTIVE_MAX) {
        /* every odd subset of at least 3 nodes, the most violated first is
         * not needed: any violated one tightens the LP */
        for (uint32_t s = 1; s < (1u << n) && added < ROWS_PER_ROUND; s++) {
            int size = __builtin_popcount(s);
            if (size < 3 || !(size & 1))
                continue;
            for (int i = 0; i < n; i++)
                c->mark[i] = (char)((s >> i) & 1);
            if (odd_excess(c, size) > 0) {
                if (add)
                    add_odd_row(c, size);
                added++;
            }
        }
        return added;
    }
    /* heuristic: balls of radius 1 and 2 around each node, made odd by
     * dropping the member of least inside weight */
    int *dist = c->level;
    for (int v = 0; v < n && added < ROWS_PER_ROUND; v++) {
        for (int r = 1; r <= 2; r++) {
            int size = 0;
            memset(c->mark, 0, (size_t)n);
            int qh = 0, qt = 0;
            for (int i = 0; i < n; i++)
                dist[i] = -1;
            dist[v] = 0;
            c->queue[qt++] = v;
            while (qh < qt) {
                int u = c->queue[qh++];
                c->mark[u] = 1;
                size++;
                if (dist[u] == r)
                    continue;
                for (int k = g->start[u]; k < g->start[u + 1]; k++)
                    if (dist[g->nbr[k]] < 0) {
                        dist[g->nbr[k]] = dist[u] + 1;
                        c->queue[qt++] = g->nbr[k];
                    }
            }
            if (!(size & 1)) {
                int best = -1;
                int64_t bw = 0;
                for (int q = 1; q < qt; q++) {
                    int u = c->queue[q];
                    int64_t w = 0;
                    for (int k = g->start[u]; k < g->start[u + 1]; k++)
                        if (c->mark[g->nbr[k]])
                            w += c->x[2 * g->nbr_edge[k]] + c->x[2 * g->nbr_edge[k] + 1];
                    if (best < 0 || w < bw)
                        best = u, bw = w;
                }
                if (best < 0)
                    continue;
                c->mark[best] = 0;
                size--;
            }
            if (size >= 3 && odd_excess(c, size) > 0) {
                if (add)
                    add_odd_row(c, size);
                added++;
            }
        }
    }
    return added;
}

/*
 * Phase A: solves in floating point and adds the cut (and odd-set) rows the
 * solution breaks, until it breaks none.  The tests run on O and C scaled
 * by 2^30 and floored, so a row counts as broken only beyond that rounding
 * noise.
 */
static int lazy_rounds(lpctx *c, int odd_sets, char *err, size_t errlen)
{
    const double scale = (double)((int64_t)1 << 30);
    for (int round = 0; round < LP_MAX_ROUNDS; round++) {
        int rc = solve(c, 0, err, errlen);
        if (rc)
            return rc;
        for (int a = 0; a < c->m2; a++) {
            double o = glp_get_col_prim(c->P, 2 + a);
            c->x[a] = o > 0 ? (int64_t)floor(o * scale) : 0;
        }
        c->L = (int64_t)1 << 30;
        c->tol = 2 * (int64_t)c->m2 + 2;
        c->cl = (int64_t)floor(glp_get_col_prim(c->P, 1) * scale) - c->tol;
        if (c->cl < 0)
            c->cl = 0;
        int added = cut_rows(c, 1);
        if (odd_sets)
            added += odd_rows(c, 1);
        if (!added) {
            c->tol = 0;
            return VINE_OK;
        }
    }
    return vine__bbs_err(err, errlen, VINE_ERR_INTERNAL,
                         "bbs lp: still adding cut/odd-set rows after %d rounds", LP_MAX_ROUNDS);
}

int64_t vine__bbs_min_cut(const vine_graph *g, int root, const int64_t *cap, int64_t target)
{
    if (g->n <= 1 || target <= 0)
        return target > 0 ? target : 0;
    lpctx c;
    memset(&c, 0, sizeof c);
    c.g = g;
    c.root = root;
    c.m2 = 2 * g->m;
    c.x = (int64_t *)cap; /* read only below */
    c.cl = target;
    c.phi = malloc(sizeof *c.phi * ((size_t)g->m + 1));
    c.level = malloc(sizeof *c.level * (size_t)g->n);
    c.iter = malloc(sizeof *c.iter * (size_t)g->n);
    c.queue = malloc(sizeof *c.queue * (size_t)g->n);
    c.order = malloc(sizeof *c.order * (size_t)g->n);
    int64_t mn = -1;
    if (c.phi && c.level && c.iter && c.queue && c.order) {
        int qh = 0, qt = 0;
        for (int i = 0; i < g->n; i++)
            c.level[i] = -1;
        c.level[root] = 0;
        c.order[qt++] = root;
        while (qh < qt) {
            int u = c.order[qh++];
            for (int k = g->start[u]; k < g->start[u + 1]; k++)
                if (c.level[g->nbr[k]] < 0) {
                    c.level[g->nbr[k]] = c.level[u] + 1;
                    c.order[qt++] = g->nbr[k];
                }
        }
        mn = qt < g->n ? 0 : target;
        for (int i = 1; i < qt && mn > 0; i++) {
            int64_t f = maxflow(&c, i, target);
            if (f < mn)
                mn = f;
        }
    }
    free(c.phi);
    free(c.level);
    free(c.iter);
    free(c.queue);
    free(c.order);
    return mn;
}

int vine__bbs_lp(const vine_graph *g, int root, int odd_sets, vine_bbs_lp *lp, char *err,
                 size_t errlen)
{
    memset(lp, 0, sizeof *lp);
    if (!g || g->n < 1 || root < 0 || root >= g->n)
        return vine__bbs_err(err, errlen, VINE_ERR_UNSUPPORTED, "bbs lp: root %d outside the graph",
                             root);
    lp->n = g->n;
    lp->m = g->m;
    lp->root = root;
    lp->lcm = 1;
    lp->c.den = 1;
    lp->occ = calloc((size_t)(2 * g->m) + 1, sizeof *lp->occ);
    if (!lp->occ)
        return VINE_ERR_NO_MEM;
    for (int a = 0; a < 2 * g->m; a++)
        lp->occ[a].den = 1;
    if (g->n == 1)
        return VINE_OK;
    lpctx c;
    memset(&c, 0, sizeof c);
    c.g = g;
    c.root = root;
    c.m2 = 2 * g->m;
    size_t rowcap = (size_t)c.m2 + 2;
    c.ind = malloc(sizeof *c.ind * rowcap);
    c.val = malloc(sizeof *c.val * rowcap);
    c.occ = lp->occ;
    c.x = malloc(sizeof *c.x * ((size_t)c.m2 + 1));
    c.phi = malloc(sizeof *c.phi * ((size_t)g->m + 1));
    c.level = malloc(sizeof *c.level * (size_t)g->n);
    c.iter = malloc(sizeof *c.iter * (size_t)g->n);
    c.queue = malloc(sizeof *c.queue * (size_t)g->n);
    c.mark = malloc((size_t)g->n);
    c.order = malloc(sizeof *c.order * (size_t)g->n);
    vine_frac *best = NULL;
    int rc = VINE_OK;
    if (!c.ind || !c.val || !c.x || !c.phi || !c.level || !c.iter || !c.queue || !c.mark ||
        !c.order) {
        rc = VINE_ERR_NO_MEM;
        goto out;
    }
    /* BFS order from the root (c.level as the distances) */
    {
        int qh = 0, qt = 0;
        for (int i = 0; i < g->n; i++)
            c.level[i] = -1;
        c.level[root] = 0;
        c.order[qt++] = root;
        while (qh < qt) {
            int u = c.order[qh++];
            for (int k = g->start[u]; k < g->start[u + 1]; k++)
                if (c.level[g->nbr[k]] < 0) {
                    c.level[g->nbr[k]] = c.level[u] + 1;
                    c.order[qt++] = g->nbr[k];
                }
        }
        if (qt < g->n) {
            rc = vine__bbs_err(err, errlen, VINE_ERR_UNSUPPORTED,
                               "bbs lp: the graph is not connected (%d of %d nodes reach root %d)",
                               qt, g->n, root);
            goto out;
        }
    }
    glp_term_out(GLP_OFF);
    c.P = glp_create_prob();
    build_base(&c);
    rc = lazy_rounds(&c, odd_sets, err, errlen);
    if (rc)
        goto out;
    /*
     * Phase B: the exact optimum (glp_exact from phase A's basis), as
     * fractions: GLPK's vertex itself when its lcm is small, else the same
     * optimum rounded to multiples of 1 / (k den(C)), k = 1 .. LP_ROUND_MAX
     * (round_to).  Rounding can cost a cut a copy or two; the candidate that
     * keeps every cut wins, else the one of largest min cut (the frames
     * report the rate the min cut allows, see vine__bbs_frames).
     */
    rc = solve(&c, 1, err, errlen);
    if (rc)
        goto out;
    if (to_frac(glp_get_col_prim(c.P, 1), 1e-13, &c.c)) {
        rc = vine__bbs_err(err, errlen, VINE_ERR_INTERNAL, "bbs lp: C = %.17g is no fraction",
                           glp_get_col_prim(c.P, 1));
        goto out;
    }
    best = malloc(sizeof *best * ((size_t)c.m2 + 1));
    if (!best) {
        rc = VINE_ERR_NO_MEM;
        goto out;
    }
    double best_score = -1.0;
    int64_t best_L = 0;
    for (int k = 0; k <= LP_ROUND_MAX && best_score < LP_GOOD_SCORE; k++) {
        int v = 1;
        if (k == 0) {
            static const double tols[] = {1e-12, 1e-14, 4e-16};
            for (size_t t = 0; t < sizeof tols / sizeof *tols && v == 1; t++)
                v = rationalise(&c, tols[t]);
            if (v == 0 && c.L > LP_EXACT_MAX * c.c.den)
                v = 1;
        } else {
            v = round_to(&c, (int64_t)k * c.c.den);
        }
        if (v < 0 && k > 0) {
            rc = VINE_ERR_NO_MEM;
            goto out;
        }
        if (v)
            continue;
        double score = cut_score(&c);
        if (odd_sets && odd_rows(&c, 0))
            score *= 0.5; /* a broken odd set costs frames: last resort */
        if (score > best_score) {
            best_score = score;
            best_L = c.L;
            memcpy(best, c.occ, sizeof *best * (size_t)c.m2);
        }
    }
    if (best_score < 0) {
        rc = vine__bbs_err(err, errlen, VINE_ERR_INTERNAL,
                           "bbs lp: GLPK's solution as fractions fails a constraint");
        goto out;
    }
    memcpy(c.occ, best, sizeof *best * (size_t)c.m2);
    c.L = best_L;
    lp->c = c.c;
    lp->lcm = c.L;
out:
    if (c.P)
        glp_delete_prob(c.P);
    free(c.ind);
    free(c.val);
    free(c.x);
    free(c.phi);
    free(c.level);
    free(c.iter);
    free(c.queue);
    free(c.mark);
    free(c.order);
    free(best);
    if (rc)
        vine__bbs_lp_free(lp);
    return rc;
}
