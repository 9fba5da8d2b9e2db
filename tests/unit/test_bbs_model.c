/*
 * Unit test of the broadcast step model (src/bbs, no MPI): graph parsing
 * (grids checked against adjacency computed from coordinates, the 16K3
 * graph's degree, diameter, girth and mean distance by brute force,
 * edge-list errors naming FILE:LINE), vine__bsched_check on hand-made
 * schedules with every kind of violation, the baselines and the hybrid on
 * several graphs and packet counts (each schedule checked, T against the
 * counting lower bound and hand-computed values).  argv[1]: a scratch
 * directory for the edge-list files (default "."). Prints
 * "bbs_model: N checks, M failed".
 */
#include "bbs/hybrid.h"
#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *scratch = ".";

static int degree(const vine_graph *g, int v)
{
    return g->start[v + 1] - g->start[v];
}

static int has_edge(const vine_graph *g, int u, int v)
{
    for (int k = g->start[u]; k < g->start[u + 1]; k++)
        if (g->nbr[k] == v)
            return 1;
    return 0;
}

/* Compares the grid's adjacency with the one computed from coordinates. */
static void check_grid(const char *spec, int X, int Y, int Z, int wrap)
{
    vine_graph g;
    char err[256];
    int rc = vine__graph_parse(spec, &g, err, sizeof err);
    CHECK(rc == VINE_OK, "%s: %s", spec, err);
    if (rc != VINE_OK)
        return;
    int n = X * Y * Z, m = 0;
    CHECK(g.n == n, "%s: %d nodes, want %d", spec, g.n, n);
    int dims[3] = {X, Y, Z};
    for (int v = 0; v < n && g.n == n; v++) {
        int c[3] = {v % X, (v / X) % Y, v / (X * Y)};
        int want = 0;
        for (int d = 0; d < 3; d++) {
            int step = d == 0 ? 1 : d == 1 ? X : X * Y;
            for (int s = -1; s <= 1; s += 2) {
                int x = c[d] + s;
                if (wrap && dims[d] >= 3)
                    x = (x + dims[d]) % dims[d];
                if (x < 0 || x >= dims[d] || x == c[d])
                    continue;
                int w = v + (x - c[d]) * step;
                want++;
                CHECK(has_edge(&g, v, w), "%s: %d-%d missing", spec, v, w);
            }
        }
        CHECK(degree(&g, v) == want, "%s: degree of %d is %d, want %d", spec, v, degree(&g, v),
              want);
        m += want;
    }
    CHECK(g.m * 2 == m, "%s: %d edges, want %d", spec, g.m, m / 2);
    /* Adjacency lists sorted and consistent with the edge arrays. */
    for (int v = 0; v < g.n; v++)
        for (int k = g.start[v]; k < g.start[v + 1]; k++) {
            int e = g.nbr_edge[k];
            CHECK((g.eu[e] == v && g.ev[e] == g.nbr[k]) || (g.ev[e] == v && g.eu[e] == g.nbr[k]),
                  "%s: nbr_edge of %d", spec, v);
            if (k > g.start[v])
                CHECK(g.nbr[k - 1] < g.nbr[k], "%s: adjacency of %d not sorted", spec, v);
        }
    vine__graph_free(&g);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        CHECK(0, "cannot write %s", path);
        return;
    }
    fputs(text, f);
    fclose(f);
}

/* edges:FILE with text must fail with a message containing want. */
static void edges_error(const char *name, const char *text, const char *want)
{
    char path[512], spec[600], err[512] = "", full[700];
    snprintf(path, sizeof path, "%s/%s", scratch, name);
    if (text)
        write_file(path, text);
    snprintf(spec, sizeof spec, "edges:%s", path);
    vine_graph g;
    int rc = vine__graph_parse(spec, &g, err, sizeof err);
    CHECK(rc == VINE_ERR_UNSUPPORTED, "%s: rc %d", name, rc);
    if (rc == VINE_OK)
        vine__graph_free(&g);
    snprintf(full, sizeof full, "%s%s", path, want);
    CHECK(strstr(err, full) != NULL, "%s: message '%s' lacks '%s'", name, err, full);
}

static void test_graphs(void)
{
    check_grid("grid:4x4", 4, 4, 1, 0);
    check_grid("grid:2x2x4", 2, 2, 4, 0);
    check_grid("grid:4x16", 4, 16, 1, 0);
    check_grid("grid:4x6x8", 4, 6, 8, 0);
    check_grid("grid:8x8x16", 8, 8, 16, 0);
    check_grid("grid:1x1", 1, 1, 1, 0);
    check_grid("grid:1x2", 1, 2, 1, 0);
    check_grid("torus:4x4", 4, 4, 1, 1);
    check_grid("torus:3x5x2", 3, 5, 2, 1);
    check_grid("torus:2x3", 2, 3, 1, 1);

    vine_graph g;
    char err[256];
    /* Counts of the paper's graphs. */
    static const struct {
        const char *spec;
        int n, m, deg0;
    } counts[] = {{"grid:4x4", 16, 24, 2},        {"grid:2x2x4", 16, 28, 3},
                  {"grid:32x32", 1024, 1984, 2},  {"grid:16x64", 1024, 1968, 2},
                  {"grid:8x8x16", 1024, 2752, 3}, {"torus:4x4", 16, 32, 4}};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        int rc = vine__graph_parse(counts[i].spec, &g, err, sizeof err);
        CHECK(rc == VINE_OK, "%s: %s", counts[i].spec, err);
        if (rc != VINE_OK)
            continue;
        CHECK(g.n == counts[i].n && g.m == counts[i].m, "%s: n %d m %d", counts[i].spec, g.n, g.m);
        CHECK(degree(&g, 0) == counts[i].deg0, "%s: corner degree %d", counts[i].spec,
              degree(&g, 0));
        vine__graph_free(&g);
    }
    /* Corner indexing: node x + X (y + Y z). */
    if (vine__graph_parse("grid:2x2x4", &g, err, sizeof err) == VINE_OK) {
        CHECK(has_edge(&g, 0, 1) && has_edge(&g, 0, 2) && has_edge(&g, 0, 4), "2x2x4 corner");
        CHECK(has_edge(&g, 7, 3) && has_edge(&g, 7, 6) && has_edge(&g, 7, 5) &&
                  has_edge(&g, 7, 11) && degree(&g, 7) == 4,
              "2x2x4 node 7 = (1,1,1)");
        int dist[16];
        CHECK(vine__graph_bfs(&g, 0, dist) == 5 && dist[15] == 5, "2x2x4 eccentricity");
        vine__graph_free(&g);
    }
    if (vine__graph_parse("grid:4x4", &g, err, sizeof err) == VINE_OK) {
        int dist[16];
        CHECK(vine__graph_bfs(&g, 0, dist) == 6 && dist[15] == 6 && dist[5] == 2, "4x4 BFS");
        CHECK(vine__graph_bfs(&g, 5, dist) == 4, "4x4 BFS from 5");
        CHECK(strcmp(g.name, "4x4") == 0, "4x4 name '%s'", g.name);
        vine__graph_free(&g);
    }

    /* 16K3: 3-regular, diameter 3, girth 5, mean distance 2.2 (BBS.md). */
    int rc = vine__graph_parse("16k3", &g, err, sizeof err);
    CHECK(rc == VINE_OK, "16k3: %s", err);
    if (rc == VINE_OK) {
        CHECK(g.n == 16 && g.m == 24, "16k3 counts");
        long sum = 0;
        int diam = 0;
        for (int v = 0; v < 16; v++) {
            CHECK(degree(&g, v) == 3, "16k3 degree of %d", v);
            int dist[16];
            int e = vine__graph_bfs(&g, v, dist);
            diam = e > diam ? e : diam;
            for (int w = 0; w < 16; w++)
                sum += dist[w];
        }
        CHECK(diam == 3, "16k3 diameter %d", diam);
        CHECK(sum * 10 == 22 * 16 * 15, "16k3 mean distance %g", (double)sum / 240);
        /* Girth: the shortest cycle through an edge is 1 + the distance of
         * its ends without it. */
        int girth = 1000;
        for (int e = 0; e < g.m; e++) {
            int eu[24], ev[24], k = 0;
            for (int f = 0; f < g.m; f++)
                if (f != e) {
                    eu[k] = g.eu[f];
                    ev[k] = g.ev[f];
                    k++;
                }
            vine_graph h;
            if (vine__graph_from_edges(&h, 16, k, eu, ev, "", err, sizeof err) != VINE_OK)
                continue;
            int dist[16];
            vine__graph_bfs(&h, g.eu[e], dist);
            if (dist[g.ev[e]] > 0 && dist[g.ev[e]] + 1 < girth)
                girth = dist[g.ev[e]] + 1;
            vine__graph_free(&h);
        }
        CHECK(girth == 5, "16k3 girth %d", girth);
        vine__graph_free(&g);
    }
    CHECK(vine__graph_parse("16K3", &g, err, sizeof err) == VINE_OK, "16K3 upper case");
    vine__graph_free(&g);

    /* vine__graph_from_edges refusals. */
    int a1[] = {0, 1}, b1[] = {1, 1};
    CHECK(vine__graph_from_edges(&g, 2, 2, a1, b1, "", err, sizeof err) == VINE_ERR_UNSUPPORTED &&
              strstr(err, "self-loop"),
          "self-loop: %s", err);
    int a2[] = {0, 1}, b2[] = {1, 0};
    CHECK(vine__graph_from_edges(&g, 2, 2, a2, b2, "", err, sizeof err) == VINE_ERR_UNSUPPORTED &&
              strstr(err, "both join"),
          "duplicate: %s", err);
    int a3[] = {0}, b3[] = {5};
    CHECK(vine__graph_from_edges(&g, 3, 1, a3, b3, "", err, sizeof err) == VINE_ERR_UNSUPPORTED,
          "out of range");
    CHECK(vine__graph_from_edges(&g, 0, 0, a3, b3, "", err, sizeof err) == VINE_ERR_UNSUPPORTED,
          "no nodes");
    CHECK(vine__graph_from_edges(&g, 1, 0, a3, b3, "one", err, sizeof err) == VINE_OK && g.n == 1 &&
              g.m == 0,
          "one node");
    vine__graph_free(&g);

    /* Malformed names. */
    const char *bad[] = {
        "grid:4", "grid:0x3", "grid:4x4x4x4", "grid:4x", "grid:ax4", "torus:", "foo", "", "edges:"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        CHECK(vine__graph_parse(bad[i], &g, err, sizeof err) == VINE_ERR_UNSUPPORTED && err[0],
              "'%s' accepted", bad[i]);
    }

    /* Edge lists. */
    char path[512], spec[600];
    snprintf(path, sizeof path, "%s/bbs_ok.txt", scratch);
    write_file(path, "# a triangle with a tail\n0 1\n1 2   # comment\n\n  2 0\n2 3\r\n");
    snprintf(spec, sizeof spec, "edges:%s", path);
    rc = vine__graph_parse(spec, &g, err, sizeof err);
    CHECK(rc == VINE_OK, "edge list: %s", err);
    if (rc == VINE_OK) {
        CHECK(g.n == 4 && g.m == 4 && has_edge(&g, 3, 2) && degree(&g, 2) == 3, "edge list");
        CHECK(strcmp(g.name, "bbs_ok.txt") == 0, "edge list name '%s'", g.name);
        vine__graph_free(&g);
    }
    edges_error("bbs_bad1.txt", "0 1\n1 x\n", ":2: expected 'A B'");
    edges_error("bbs_bad2.txt", "0 1\n# c\n2 2\n", ":3: self-loop at node 2");
    edges_error("bbs_bad3.txt", "0 1\n1 2\n\n2 1\n", ":4: edge 2 1 repeats the edge of line 2");
    edges_error("bbs_bad4.txt", "0 1 7\n", ":1: unexpected text");
    edges_error("bbs_bad5.txt", "0 1\n-1 2\n", ":2: expected");
    edges_error("bbs_bad6.txt", "0 1\n2 3\n", ": node 2 is not connected to node 0");
    edges_error("bbs_bad7.txt", "0 1\n1 3\n", ": node 2 is not connected to node 0 (no edge");
    edges_error("bbs_bad8.txt", "# nothing\n", ": no edges");
    edges_error("bbs_missing.txt", NULL, ": cannot open");
}

/* check must fail with a message containing want. */
static void expect_bad(const vine_graph *g, const vine_bsched *s, const char *want,
                       const char *what)
{
    char err[256] = "";
    int rc = vine__bsched_check(g, s, err, sizeof err);
    CHECK(rc == VINE_ERR_INTERNAL && strstr(err, want), "%s: rc %d '%s' (want '%s')", what, rc, err,
          want);
}

/* Builds a schedule from steps written "f>t:p f>t:p|f>t:p|..." ('|' ends a step). */
static void sched_of(vine_bsched *s, int n, int root, int np, const char *text, int close)
{
    vine__bsched_init(s, n, root, np);
    const char *p = text;
    while (*p) {
        int f, t, k, used;
        if (*p == '|') {
            vine__bsched_step(s);
            p++;
        } else if (*p == ' ') {
            p++;
        } else if (sscanf(p, "%d>%d:%d%n", &f, &t, &k, &used) == 3) {
            vine__bsched_add(s, f, t, k);
            p += used;
        } else {
            CHECK(0, "bad schedule text at '%s'", p);
            break;
        }
    }
    if (close)
        vine__bsched_step(s);
}

static void test_check(void)
{
    vine_graph path, grid, one;
    char err[256];
    CHECK(vine__graph_parse("grid:3x1", &path, err, sizeof err) == VINE_OK && path.n == 3,
          "grid:3x1"); /* 0 - 1 - 2 */
    CHECK(vine__graph_parse("grid:2x2", &grid, err, sizeof err) == VINE_OK && grid.n == 4,
          "grid:2x2"); /* 0-1, 0-2, 1-3, 2-3 */
    CHECK(vine__graph_parse("grid:1x1", &one, err, sizeof err) == VINE_OK && one.n == 1,
          "grid:1x1");
    vine_bsched s;

    /* A correct pipeline of 2 packets down the path: T = 4 = 2N. */
    sched_of(&s, 3, 0, 2, "0>1:0|1>2:0|0>1:1|1>2:1", 1);
    CHECK(vine__bsched_check(&path, &s, err, sizeof err) == VINE_OK, "path pipeline: %s", err);
    CHECK(s.nsteps == 4 && vine__bsched_active(&s) == 1.0, "path pipeline counts");
    vine__bsched_free(&s);
    /* Root in the middle, idle step included. */
    sched_of(&s, 3, 1, 1, "1>0:0||1>2:0", 1);
    CHECK(vine__bsched_check(&path, &s, err, sizeof err) == VINE_OK, "idle step: %s", err);
    CHECK(s.nsteps == 3, "idle step counts");
    vine__bsched_free(&s);
    /* On the square, two disjoint transfers in one step. */
    sched_of(&s, 4, 0, 1, "0>1:0|1>3:0 0>2:0", 1);
    CHECK(vine__bsched_check(&grid, &s, err, sizeof err) == VINE_OK, "square: %s", err);
    vine__bsched_free(&s);
    /* Nothing to do. */
    sched_of(&s, 1, 0, 5, "", 0);
    CHECK(vine__bsched_check(&one, &s, err, sizeof err) == VINE_OK, "one node: %s", err);
    vine__bsched_free(&s);
    sched_of(&s, 3, 0, 0, "", 0);
    CHECK(vine__bsched_check(&path, &s, err, sizeof err) == VINE_OK, "no packets: %s", err);
    vine__bsched_free(&s);

    /* Violations, one each. */
    sched_of(&s, 3, 0, 1, "0>2:0|0>1:0", 1);
    expect_bad(&path, &s, "step 0: 0->2 is not an edge", "non-edge");
    vine__bsched_free(&s);
    sched_of(&s, 4, 0, 1, "0>3:0|0>1:0 2>3:0", 1);
    expect_bad(&grid, &s, "not an edge", "diagonal");
    vine__bsched_free(&s);
    sched_of(&s, 3, 0, 2, "0>1:0|1>2:0 0>1:1", 1);
    expect_bad(&path, &s, "step 1: node 1 takes part in two transfers", "send and receive");
    vine__bsched_free(&s);
    sched_of(&s, 4, 0, 2, "0>1:0 0>2:1", 1);
    expect_bad(&grid, &s, "node 0 takes part in two transfers", "two sends");
    vine__bsched_free(&s);
    sched_of(&s, 4, 0, 1, "0>1:0|1>3:0 0>2:0|2>3:0", 1);
    expect_bad(&grid, &s, "step 2: node 3 receives packet 0 again", "duplicate receive");
    vine__bsched_free(&s);
    sched_of(&s, 4, 0, 1, "0>1:0|1>3:0|3>2:0 1>0:0", 1);
    expect_bad(&grid, &s, "receives packet 0 again (it is the root)", "root receives");
    vine__bsched_free(&s);
    sched_of(&s, 3, 0, 1, "1>2:0|0>1:0", 1);
    expect_bad(&path, &s, "step 0: node 1 sends packet 0 it does not hold", "not held");
    vine__bsched_free(&s);
    sched_of(&s, 3, 0, 2, "0>1:0|1>2:1|0>1:1", 1);
    expect_bad(&path, &s, "node 1 sends packet 1 it does not hold", "wrong packet");
    vine__bsched_free(&s);
    sched_of(&s, 3, 0, 2, "0>1:0|1>2:0|0>1:1", 1);
    expect_bad(&path, &s, "after 3 steps node 2 lacks packet 1", "undelivered");
    vine__bsched_free(&s);
    sched_of(&s, 3, 0, 1, "", 0);
    expect_bad(&path, &s, "node 1 lacks packet 0", "empty schedule");
    vine__bsched_free(&s);
    sched_of(&s, 3, 0, 1, "0>1:0|1>2:0", 0);
    expect_bad(&path, &s, "1 transfers after the last closed step", "open step");
    vine__bsched_free(&s);
    sched_of(&s, 3, 0, 1, "0>1:1|1>2:0", 1);
    expect_bad(&path, &s, "packet 1 outside 0..0", "packet range");
    vine__bsched_free(&s);
    sched_of(&s, 3, 0, 1, "0>7:0", 1);
    expect_bad(&path, &s, "outside 0..2", "node range");
    vine__bsched_free(&s);
    sched_of(&s, 4, 0, 1, "0>1:0|1>2:0", 1);
    expect_bad(&path, &s, "schedule for 4 nodes on a graph of 3", "size");
    vine__bsched_free(&s);
    sched_of(&s, 3, 5, 1, "", 0);
    expect_bad(&path, &s, "root 5", "root range");
    vine__bsched_free(&s);

    vine__graph_free(&path);
    vine__graph_free(&grid);
    vine__graph_free(&one);
}

static long lower_bound(int p, int n)
{
    if (p < 2)
        return 0;
    long need = (long)n * (p - 1), per = p / 2;
    return (need + per - 1) / per;
}

typedef int (*bcast_fn)(const vine_graph *, int, int, vine_bsched *, char *, size_t);

static int greedy1(const vine_graph *g, int root, int n, vine_bsched *s, char *err, size_t len)
{
    return vine__bcast_greedy(g, root, n, 1, s, err, len);
}

static const struct {
    const char *name;
    bcast_fn fn;
} baselines[] = {
    {"greedy", greedy1}, {"binary tree", vine__bcast_bintree}, {"SRDA", vine__bcast_srda}};
#define NBASE 3

/* Builds and checks; returns T or -1. */
static int run_checked(const char *what, bcast_fn fn, const vine_graph *g, int root, int n)
{
    vine_bsched s;
    char err[512] = "";
    int rc = fn(g, root, n, &s, err, sizeof err);
    CHECK(rc == VINE_OK, "%s on %s root %d N %d: %s", what, g->name, root, n, err);
    if (rc != VINE_OK)
        return -1;
    rc = vine__bsched_check(g, &s, err, sizeof err);
    CHECK(rc == VINE_OK, "%s on %s root %d N %d fails the check: %s", what, g->name, root, n, err);
    int T = s.nsteps;
    CHECK(T >= lower_bound(g->n, n), "%s on %s N %d: T %d below the bound %ld", what, g->name, n, T,
          lower_bound(g->n, n));
    CHECK(s.n == g->n && s.root == root && s.npackets == n, "%s header", what);
    vine__bsched_free(&s);
    return rc == VINE_OK ? T : -1;
}

static const char *const graphs[] = {"grid:1x1", "grid:1x2",   "grid:1x3",  "grid:1x7",
                                     "grid:4x4", "grid:2x2x4", "16k3",      "torus:3x5",
                                     "grid:3x5", "grid:4x6x8", "edges:STAR"};
#define NGRAPHS ((int)(sizeof graphs / sizeof graphs[0]))

static int load(const char *spec, vine_graph *g)
{
    char err[512], buf[600];
    if (!strcmp(spec, "edges:STAR")) {
        /* A star whose centre (1) is not the root: the binary tree must give
         * the centre three children. */
        char path[512];
        snprintf(path, sizeof path, "%s/bbs_star.txt", scratch);
        write_file(path, "0 1\n1 2\n1 3\n1 4\n");
        snprintf(buf, sizeof buf, "edges:%s", path);
        spec = buf;
    }
    int rc = vine__graph_parse(spec, g, err, sizeof err);
    CHECK(rc == VINE_OK, "%s: %s", spec, err);
    return rc;
}

static void test_baselines(void)
{
    static const int ns[] = {0, 1, 2, 7, 64, 100};
    for (int gi = 0; gi < NGRAPHS; gi++) {
        vine_graph g;
        if (load(graphs[gi], &g) != VINE_OK)
            continue;
        int roots[3] = {0, g.n - 1, g.n / 2};
        for (int ri = 0; ri < 3; ri++)
            for (size_t ni = 0; ni < sizeof ns / sizeof ns[0]; ni++) {
                int n = ns[ni];
                if (g.n > 100 && n > 7)
                    continue;
                for (int b = 0; b < NBASE; b++) {
                    int T = run_checked(baselines[b].name, baselines[b].fn, &g, roots[ri], n);
                    if (g.n == 1 || n == 0)
                        CHECK(T == 0, "%s on %s N %d: T %d, want 0", baselines[b].name, g.name, n,
                              T);
                    if (g.n == 2)
                        CHECK(T == n, "%s on 2 nodes N %d: T %d, want N", baselines[b].name, n, T);
                }
            }
        vine__graph_free(&g);
    }
    /* Hand-computed: a pipeline down a path of L nodes from an end takes
     * 2N + L - 3 steps (packet k leaves at step 2k, needs L - 1 hops). */
    for (int L = 3; L <= 9; L += 2) {
        char spec[32];
        snprintf(spec, sizeof spec, "grid:1x%d", L);
        vine_graph g;
        if (load(spec, &g) != VINE_OK)
            continue;
        for (int n = 1; n <= 20; n += 19) {
            int T = run_checked("binary tree", vine__bcast_bintree, &g, 0, n);
            CHECK(T == 2 * n + L - 3, "binary tree on a path of %d, N %d: T %d, want %d", L, n, T,
                  2 * n + L - 3);
        }
        vine__graph_free(&g);
    }
    /* Greedy is reproducible: the same seed gives the same schedule. */
    vine_graph g;
    if (load("grid:4x4", &g) == VINE_OK) {
        vine_bsched a, b;
        char err[256];
        int ra = vine__bcast_greedy(&g, 0, 50, 7, &a, err, sizeof err);
        int rb = vine__bcast_greedy(&g, 0, 50, 7, &b, err, sizeof err);
        CHECK(ra == VINE_OK && rb == VINE_OK && a.nxfers > 0, "greedy seed 7: %s", err);
        CHECK(a.nsteps == b.nsteps && a.nxfers == b.nxfers &&
                  !memcmp(a.xfers, b.xfers, a.nxfers * sizeof *a.xfers),
              "greedy not reproducible");
        vine__bsched_free(&a);
        vine__bsched_free(&b);
        /* A 4x4 binary tree: 3 steps a packet once the pipeline is full;
         * the paper's Table 2 has 303 for N = 100. */
        CHECK(run_checked("binary tree", vine__bcast_bintree, &g, 0, 100) == 303,
              "binary tree on 4x4, N = 100");
        vine__graph_free(&g);
    }
    /* A graph that is not connected is refused. */
    int eu[] = {0, 2}, ev[] = {1, 3};
    char err[256];
    if (vine__graph_from_edges(&g, 4, 2, eu, ev, "two pieces", err, sizeof err) == VINE_OK) {
        for (int b = 0; b < NBASE; b++) {
            vine_bsched s;
            err[0] = '\0';
            CHECK(baselines[b].fn(&g, 0, 3, &s, err, sizeof err) == VINE_ERR_UNSUPPORTED &&
                      strstr(err, "not connected"),
                  "%s on a disconnected graph: '%s'", baselines[b].name, err);
        }
        vine_bsched s;
        CHECK(vine__bcast_hybrid(&g, 0, 3, &s, err, sizeof err) == VINE_ERR_UNSUPPORTED,
              "hybrid on a disconnected graph");
        vine__graph_free(&g);
    }
}

static void test_hybrid(void)
{
    static const char *const hg[] = {"grid:1x2", "grid:1x5",  "grid:4x4", "grid:2x2x4",
                                     "16k3",     "torus:3x3", "grid:3x5", "edges:STAR"};
    static const int ns[] = {1, 10, 60};
    for (size_t gi = 0; gi < sizeof hg / sizeof hg[0]; gi++) {
        vine_graph g;
        if (load(hg[gi], &g) != VINE_OK)
            continue;
        for (size_t ni = 0; ni < sizeof ns / sizeof ns[0]; ni++) {
            int n = ns[ni];
            int T = run_checked("hybrid", vine__bcast_hybrid, &g, 0, n);
            for (int b = 0; b < NBASE; b++) {
                int Tb = run_checked(baselines[b].name, baselines[b].fn, &g, 0, n);
                CHECK(T >= 0 && T <= Tb, "hybrid on %s N %d: T %d worse than %s's %d", g.name, n, T,
                      baselines[b].name, Tb);
            }
        }
        vine__graph_free(&g);
    }
    vine_graph g;
    if (load("grid:1x1", &g) == VINE_OK) {
        CHECK(run_checked("hybrid", vine__bcast_hybrid, &g, 0, 5) == 0, "hybrid on one node");
        vine__graph_free(&g);
    }
    /* `vine bbs` builds the LP and frames once per topology and runs BBS as
     * vine__bbs_cycle from the empty state, the hybrid with those frames:
     * both must give exactly the schedules of the one-call functions. */
    static const char *const fg[] = {"grid:4x4", "16k3", "grid:2x3x2"};
    for (size_t gi = 0; gi < sizeof fg / sizeof fg[0]; gi++) {
        if (load(fg[gi], &g) != VINE_OK)
            continue;
        char err[512] = "";
        vine_bbs_lp lp;
        vine_bbs_frames fr;
        int rc = vine__bbs_lp(&g, 0, !vine__graph_bipartite(&g), &lp, err, sizeof err);
        CHECK(rc == VINE_OK, "LP on %s: %s", g.name, err);
        if (rc != VINE_OK) {
            vine__graph_free(&g);
            continue;
        }
        rc = vine__bbs_frames(&g, &lp, &fr, err, sizeof err);
        CHECK(rc == VINE_OK, "frames on %s: %s", g.name, err);
        for (int n = 1; rc == VINE_OK && n <= 40; n += 39) {
            vine_bsched a, b;
            vine_bbs_state st;
            vine__bsched_init(&a, g.n, 0, n);
            vine__bbs_state_init(&st, g.n, 0, n);
            int r1 = vine__bbs_cycle(&g, &fr, &st, -1, VINE_BBS_CYCLE_DEFAULT, &a, err, sizeof err);
            vine__bbs_state_free(&st);
            int r2 = vine__bbs_schedule(&g, 0, n, &b, err, sizeof err);
            CHECK(r1 == VINE_OK && r2 == VINE_OK && a.nsteps == b.nsteps && a.nxfers == b.nxfers &&
                      !memcmp(a.xfers, b.xfers, a.nxfers * sizeof *a.xfers),
                  "BBS from frames differs from vine__bbs_schedule on %s N %d", g.name, n);
            vine__bsched_free(&a);
            vine__bsched_free(&b);
            r1 = vine__bcast_hybrid_frames(&g, 0, n, &fr, &a, err, sizeof err);
            r2 = vine__bcast_hybrid(&g, 0, n, &b, err, sizeof err);
            CHECK(r1 == VINE_OK && r2 == VINE_OK && a.nsteps == b.nsteps && a.nxfers == b.nxfers &&
                      !memcmp(a.xfers, b.xfers, a.nxfers * sizeof *a.xfers),
                  "hybrid with frames differs on %s N %d", g.name, n);
            vine__bsched_free(&a);
            vine__bsched_free(&b);
        }
        if (rc == VINE_OK)
            vine__bbs_frames_free(&fr);
        vine__bbs_lp_free(&lp);
        vine__graph_free(&g);
    }
}

int main(int argc, char **argv)
{
    if (argc > 1)
        scratch = argv[1];
    test_graphs();
    test_check();
    test_baselines();
    test_hybrid();
    printf("bbs_model: %ld checks, %ld failed\n", checks, failures);
    return failures ? 1 : 0;
}
