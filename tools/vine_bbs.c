/*
 * `vine bbs`: the broadcast step model of the BBS paper
 * (../shared/papers/bbs-broadcast.txt; docs/bbs.md) from the command line.
 *
 *   vine bbs table [--n LIST] [--topo LIST] [--csv FILE] [--seed S]
 *       T for BBS, Greedy, Binary tree, SRDA and the hybrid beside the
 *       paper's figures (its Tables 2-6), the average number of active edges,
 *       T / T_BBS and two flags per topology and N: our BBS within 2% of the
 *       paper's T (or better), and the hybrid no worse than every baseline.
 *   vine bbs plot --topo T --n N --out FILE.svg [--seed S]
 *       active edges per step of every algorithm (the paper's Fig. 4), drawn
 *       by gnuplot.
 *
 * Every schedule is checked with vine__bsched_check before a number of it is
 * printed; a failing check is an error (exit 1), never a printed figure.
 * Nothing here needs MPI.
 */
#include "vine_bbs.h"
#include "bbs/hybrid.h"
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

enum { A_BBS, A_GREEDY, A_TREE, A_SRDA, A_HYBRID, A_COUNT };
static const char *const algo_name[A_COUNT] = {"BBS", "Greedy", "Binary tree", "SRDA", "Hybrid"};

#define SRDA_NOTE                                                                                  \
    "SRDA: scatter of P segments down the BFS tree, then an allgather by neighbour exchange "      \
    "on every edge (odd-even order, first in first out); not recursive doubling (it needs P "      \
    "a power of two and multi-hop routes)"

/* The paper's Tables 2-6 (../shared/BBS.md): T for BBS, Greedy, Binary tree,
 * SRDA at N = 100, 500, 2500; root node 0. */
static const int paper_n[3] = {100, 500, 2500};
typedef struct paper_row {
    const char *name, *spec;
    int t[3][4];
} paper_row;
static const paper_row paper[] = {
    {"4x4", "grid:4x4", {{212, 266, 303, 360}, {1012, 1294, 1503, 1771}, {5012, 6365, 7503, 8790}}},
    {"2x2x4",
     "grid:2x2x4",
     {{209, 278, 305, 308}, {1009, 1324, 1505, 1522}, {5009, 6678, 7505, 7586}}},
    {"16K3", "16k3", {{206, 303, 302, 309}, {1006, 1505, 1502, 1528}, {5006, 7517, 7502, 7609}}},
    {"4x16",
     "grid:4x16",
     {{250, 288, 315, 432}, {1050, 1332, 1515, 2035}, {5050, 6501, 7515, 9944}}},
    {"8x8", "grid:8x8", {{231, 292, 311, 409}, {1031, 1334, 1511, 1945}, {5031, 6589, 7511, 9621}}},
    {"4x4x4",
     "grid:4x4x4",
     {{224, 316, 414, 356}, {1026, 1579, 2014, 1768}, {5024, 7811, 10014, 8799}}},
    {"6x32",
     "grid:6x32",
     {{317, 321, 333, 463}, {1114, 1384, 1533, 2122}, {5114, 6633, 7533, 10240}}},
    {"12x16",
     "grid:12x16",
     {{273, 308, 323, 431}, {1073, 1359, 1523, 2054}, {5073, 6600, 7523, 9990}}},
    {"4x6x8",
     "grid:4x6x8",
     {{242, 322, 422, 335}, {1042, 1564, 2022, 1787}, {5042, 7830, 10022, 8961}}},
    {"8x64",
     "grid:8x64",
     {{442, 371, 367, 504}, {1245, 1424, 1567, 2195}, {5245, 6700, 7567, 10499}}},
    {"16x32",
     "grid:16x32",
     {{328, 332, 343, 463}, {1128, 1387, 1543, 2132}, {5128, 6641, 7543, 10254}}},
    {"4x8x16",
     "grid:4x8x16",
     {{275, 342, 434, 405}, {1073, 1588, 2034, 1849}, {5075, 7820, 10034, 9040}}},
    {"8x8x8",
     "grid:8x8x8",
     {{259, 329, 438, 352}, {1062, 1595, 2038, 1946}, {5059, 7844, 10038, 9583}}},
    {"16x64",
     "grid:16x64",
     {{442, 375, 375, 505}, {1247, 1437, 1575, 2181}, {5247, 6647, 7575, 10478}}},
    {"32x32",
     "grid:32x32",
     {{385, 343, 359, 478}, {1182, 1395, 1559, 2132}, {5182, 6676, 7559, 10287}}},
    {"8x8x16",
     "grid:8x8x16",
     {{284, 350, 446, 410}, {1084, 1609, 2046, 1861}, {5113, 7839, 10046, 9553}}},
};
#define NPAPER ((int)(sizeof paper / sizeof paper[0]))

/*
 * Reads the n options names[k] of `vine bbs CMD` into *slots[k]; returns -1
 * when the command goes on, else its exit status: 0 after --help, 2 after a
 * message for a bad argument.
 */
static int parse_opts(const char *cmd, void (*usage)(FILE *), const char *const *names,
                      const char **const *slots, int n, int argc, char **argv)
{
    char who[32];
    snprintf(who, sizeof who, "vine bbs %.16s", cmd);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            return 0;
        }
        int r = vine_cli_take_any(who, &i, argc, argv, names, slots, n);
        if (r < 0)
            return 2;
        if (!r) {
            usage(stderr);
            return vine_cli_usage_error("vine bbs", cmd, "unknown argument '%s'", argv[i]);
        }
    }
    return -1;
}

static int parse_long(const char *s, long lo, long hi, long *out)
{
    char *end;
    if (!*s)
        return -1;
    errno = 0;
    long x = strtol(s, &end, 10);
    if (errno || *end || x < lo || x > hi)
        return -1;
    *out = x;
    return 0;
}

/* The paper's row of a topology name ("4x4", "16K3", ...), or NULL. */
static const paper_row *paper_find(const char *name)
{
    for (int i = 0; i < NPAPER; i++)
        if (!strcasecmp(name, paper[i].name) || !strcmp(name, paper[i].spec))
            return &paper[i];
    return NULL;
}

/* Loads a topology: a paper name, "AxB[xC]" (a grid) or any vine__graph_parse spec. */
static int load_graph(const char *name, vine_graph *g, char *err, size_t errlen)
{
    const paper_row *pr = paper_find(name);
    if (pr) {
        int rc = vine__graph_parse(pr->spec, g, err, errlen);
        if (rc == VINE_OK)
            snprintf(g->name, sizeof g->name, "%s", pr->name);
        return rc;
    }
    if (name[0] >= '0' && name[0] <= '9' && !strchr(name, ':')) {
        char spec[256];
        snprintf(spec, sizeof spec, "grid:%s", name);
        return vine__graph_parse(spec, g, err, errlen);
    }
    return vine__graph_parse(name, g, err, errlen);
}

/*
 * The LP and frames of g rooted at node 0, computed once per topology: they
 * depend on neither N nor the algorithm, and the LP is the dearest part of
 * BBS (seconds on 1024 nodes).
 */
typedef struct bbs_core {
    vine_bbs_lp lp;
    vine_bbs_frames fr;
} bbs_core;

static int core_build(const vine_graph *g, bbs_core *c)
{
    char err[512] = "";
    memset(c, 0, sizeof *c);
    int rc = vine__bbs_lp(g, 0, !vine__graph_bipartite(g), &c->lp, err, sizeof err);
    if (rc == VINE_OK) {
        rc = vine__bbs_frames(g, &c->lp, &c->fr, err, sizeof err);
        if (rc != VINE_OK)
            vine__bbs_lp_free(&c->lp);
    }
    if (rc != VINE_OK) {
        fflush(stdout);
        fprintf(stderr, "vine bbs: BBS LP or frames on %s: %s\n", g->name,
                rc == VINE_ERR_NO_MEM ? "out of memory" : err);
        return 1;
    }
    return 0;
}

static void core_free(bbs_core *c)
{
    vine__bbs_frames_free(&c->fr);
    vine__bbs_lp_free(&c->lp);
}

/* BBS from the precomputed frames: what vine__bbs_schedule does after its
 * LP and colouring (the unit test checks that both agree). */
static int bbs_from_frames(const vine_graph *g, const bbs_core *c, int n, vine_bsched *s, char *err,
                           size_t errlen)
{
    vine__bsched_init(s, g->n, 0, n);
    if (g->n == 1 || n == 0)
        return VINE_OK;
    vine_bbs_state st;
    int rc = vine__bbs_state_init(&st, g->n, 0, n);
    if (rc != VINE_OK)
        return rc;
    rc = vine__bbs_cycle(g, &c->fr, &st, -1, VINE_BBS_CYCLE_DEFAULT, s, err, errlen);
    vine__bbs_state_free(&st);
    if (rc != VINE_OK)
        vine__bsched_free(s);
    return rc;
}

/* Builds algorithm a's schedule and checks it; 0 or 1 (message printed). */
static int build(int a, const vine_graph *g, const bbs_core *c, int n, uint64_t seed,
                 vine_bsched *s)
{
    char err[512] = "";
    int rc;
    switch (a) {
    case A_BBS:
        rc = bbs_from_frames(g, c, n, s, err, sizeof err);
        break;
    case A_GREEDY:
        rc = vine__bcast_greedy(g, 0, n, seed, s, err, sizeof err);
        break;
    case A_TREE:
        rc = vine__bcast_bintree(g, 0, n, s, err, sizeof err);
        break;
    case A_SRDA:
        rc = vine__bcast_srda(g, 0, n, s, err, sizeof err);
        break;
    default:
        rc = vine__bcast_hybrid_frames(g, 0, n, &c->fr, s, err, sizeof err);
        break;
    }
    if (rc != VINE_OK) {
        fflush(stdout);
        fprintf(stderr, "vine bbs: %s on %s, N = %d: %s\n", algo_name[a], g->name, n,
                rc == VINE_ERR_NO_MEM ? "out of memory" : err);
        return 1;
    }
    rc = vine__bsched_check(g, s, err, sizeof err);
    if (rc != VINE_OK) {
        fflush(stdout);
        fprintf(stderr, "vine bbs: %s on %s, N = %d: the schedule fails the step-model check: %s\n",
                algo_name[a], g->name, n, rc == VINE_ERR_NO_MEM ? "out of memory" : err);
        vine__bsched_free(s);
        return 1;
    }
    return 0;
}

/* "8/15" */
static void fmt_frac(vine_frac f, char *buf, size_t len)
{
    snprintf(buf, len, "%lld/%lld", (long long)f.num, (long long)f.den);
}

/* ceil(N (P - 1) / floor(P / 2)): deliveries needed over deliveries per step. */
static long lower_bound(int p, int n)
{
    if (p < 2)
        return 0;
    long need = (long)n * (p - 1), per = p / 2;
    return (need + per - 1) / per;
}

static void usage_table(FILE *f)
{
    fprintf(f, "usage: vine bbs table [--n LIST] [--topo LIST] [--csv FILE] [--seed S]\n"
               "  --n     packet counts N, comma-separated; default 100,500,2500\n"
               "  --topo  topologies, comma-separated: the paper's names (4x4, 2x2x4, 16K3,\n"
               "          4x16, 8x8, 4x4x4, 6x32, 12x16, 4x6x8, 8x64, 16x32, 4x8x16, 8x8x8,\n"
               "          16x64, 32x32, 8x8x16), AxB[xC] grids, torus:AxB[xC],\n"
               "          edges:FILE; default the paper's 16\n"
               "  --csv   also write the rows as CSV\n"
               "  --seed  the greedy baseline's seed; default 1\n"
               "The root is node 0 (the top, front, left corner of a grid).  Per topology\n"
               "and N: T for each algorithm and the paper's T, the average active edges,\n"
               "T / T_BBS; flags: BBS within 2%% of the paper's T or better, the hybrid no\n"
               "worse than every baseline.  Failing rows are marked '<<< FAIL' and listed\n"
               "at the end.  Exits 0 (flags do not change it), 1 when a schedule cannot\n"
               "be built or fails the step-model check, 2 on bad options.\n");
}

/* Splits a comma-separated list in place; returns the item count. */
static int split(char *s, char **items, int max)
{
    int n = 0;
    for (char *save = NULL, *t = strtok_r(s, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (n == max)
            return -1;
        items[n++] = t;
    }
    return n;
}

#define MAX_ITEMS 64
#define MAX_FAILS 64

static int cmd_table(int argc, char **argv)
{
    const char *nlist = "100,500,2500", *tlist = NULL, *csv = NULL, *seedstr = "1";
    static const char *const names[] = {"--n", "--topo", "--csv", "--seed"};
    const char **slots[] = {&nlist, &tlist, &csv, &seedstr};
    int rc = parse_opts("table", usage_table, names, slots, 4, argc, argv);
    if (rc >= 0)
        return rc;
    long seed;
    if (parse_long(seedstr, 0, LONG_MAX, &seed))
        return vine_cli_usage_error("vine bbs", "table", "--seed %s: not a non-negative integer",
                                    seedstr);
    char nbuf[1024], tbuf[4096];
    char *nitems[MAX_ITEMS], *titems[MAX_ITEMS];
    snprintf(nbuf, sizeof nbuf, "%s", nlist);
    int nn = split(nbuf, nitems, MAX_ITEMS);
    if (nn <= 0)
        return vine_cli_usage_error("vine bbs", "table", "--n %s: expected a comma-separated list",
                                    nlist);
    long ns[MAX_ITEMS];
    for (int i = 0; i < nn; i++)
        if (parse_long(nitems[i], 1, 1000000, &ns[i]))
            return vine_cli_usage_error("vine bbs", "table",
                                        "--n: '%s' is not a packet count from 1 to 1000000",
                                        nitems[i]);
    int nt;
    if (tlist) {
        snprintf(tbuf, sizeof tbuf, "%s", tlist);
        nt = split(tbuf, titems, MAX_ITEMS);
        if (nt <= 0)
            return vine_cli_usage_error("vine bbs", "table",
                                        "--topo %s: expected a comma-separated list", tlist);
    } else {
        nt = NPAPER;
        for (int i = 0; i < nt; i++)
            titems[i] = (char *)paper[i].name;
    }
    /* Load every topology first: a bad name is a usage error before any work. */
    vine_graph *gs = calloc((size_t)nt, sizeof *gs);
    if (!gs)
        return 1;
    for (int i = 0; i < nt; i++) {
        char err[512];
        if (load_graph(titems[i], &gs[i], err, sizeof err) != VINE_OK) {
            for (int j = 0; j < i; j++)
                vine__graph_free(&gs[j]);
            free(gs);
            return vine_cli_usage_error("vine bbs", "table", "--topo %s: %s", titems[i], err);
        }
    }
    FILE *cf = NULL;
    if (csv) {
        cf = fopen(csv, "w");
        if (!cf) {
            for (int j = 0; j < nt; j++)
                vine__graph_free(&gs[j]);
            free(gs);
            return vine_cli_usage_error("vine bbs", "table", "--csv %s: cannot open for writing",
                                        csv);
        }
        fprintf(cf, "topology,nodes,edges,N,algorithm,T,paper_T,diff_pct,active_edges,"
                    "T_over_T_BBS,paper_T_over_T_BBS,lower_bound,flag\n");
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    printf("vine bbs table: root node 0; T = steps; AE = average active edges per step;\n"
           "bound = ceil(N (P-1) / floor(P/2)); paper = the BBS paper's Tables 2-6.\n"
           "greedy seed %ld; %s.\n\n",
           seed, SRDA_NOTE);
    printf("%-8s %5s %6s  %-11s %7s %7s %7s %8s %7s %7s %7s  %s\n", "topology", "P", "N",
           "algorithm", "T", "paper", "diff", "AE", "T/T_BBS", "paper", "bound", "flag");
    int status = 0, nfail = 0, nrows = 0;
    /* The first MAX_FAILS failing rows, listed at the end (the names live in gs). */
    struct {
        const char *topo;
        int n, algo;
        char flag[96];
    } fails[MAX_FAILS];
    for (int ti = 0; ti < nt && !status; ti++) {
        const vine_graph *g = &gs[ti];
        const paper_row *pr = paper_find(g->name);
        bbs_core core;
        memset(&core, 0, sizeof core);
        if (g->n > 1 && core_build(g, &core)) {
            status = 1;
            break;
        }
        if (g->n > 1) {
            char cs[48], rs[48];
            fmt_frac(core.lp.c, cs, sizeof cs);
            fmt_frac(core.fr.rate, rs, sizeof rs);
            printf("%-8s LP: C = %s (bound %d/%d), L = %lld; %d frames%s; rate %s\n", g->name, cs,
                   g->n / 2, g->n - 1, (long long)core.lp.lcm, core.fr.nframes,
                   core.fr.bipartite ? " (bipartite: L colours)" : "", rs);
        }
        for (int ni = 0; ni < nn && !status; ni++) {
            int n = (int)ns[ni];
            int pi = -1;
            for (int k = 0; pr && k < 3; k++)
                if (paper_n[k] == n)
                    pi = k;
            vine_bsched s[A_COUNT];
            int built = 0;
            for (int a = 0; a < A_COUNT; a++, built++)
                if (build(a, g, &core, n, (uint64_t)seed, &s[a])) {
                    status = 1;
                    break;
                }
            if (status) {
                for (int a = 0; a < built; a++)
                    vine__bsched_free(&s[a]);
                break;
            }
            nrows++;
            int tb = s[A_BBS].nsteps;
            int best_base = A_GREEDY;
            for (int a = A_TREE; a <= A_SRDA; a++)
                if (s[a].nsteps < s[best_base].nsteps)
                    best_base = a;
            long lb = lower_bound(g->n, n);
            for (int a = 0; a < A_COUNT; a++) {
                int T = s[a].nsteps;
                int paperT = (pi >= 0 && a < A_HYBRID) ? pr->t[pi][a] : -1;
                char ps[16] = "-", ds[16] = "-", prs[16] = "-", flag[96] = "";
                if (paperT > 0) {
                    snprintf(ps, sizeof ps, "%d", paperT);
                    snprintf(ds, sizeof ds, "%+.1f%%", 100.0 * (T - paperT) / paperT);
                    snprintf(prs, sizeof prs, "%.2f", (double)paperT / pr->t[pi][A_BBS]);
                }
                int fail = 0;
                if (a == A_BBS) {
                    if (paperT > 0) {
                        fail = T > 1.02 * paperT;
                        snprintf(flag, sizeof flag, "%s",
                                 fail ? "BBS more than 2% over the paper" : "ok (<= paper + 2%)");
                    }
                } else if (a == A_HYBRID) {
                    fail = T > s[best_base].nsteps;
                    if (fail)
                        snprintf(flag, sizeof flag, "hybrid worse than %s (%d)",
                                 algo_name[best_base], s[best_base].nsteps);
                    else
                        snprintf(flag, sizeof flag, "ok (<= every baseline%s)",
                                 T <= tb ? ", <= BBS" : "");
                }
                if (T < lb) { /* cannot happen for a checked schedule */
                    fail = 1;
                    snprintf(flag, sizeof flag, "below the lower bound %ld", lb);
                }
                printf("%-8s %5d %6d  %-11s %7d %7s %7s %8.1f %7.2f %7s %7ld  %s%s\n",
                       a == 0 ? g->name : "", g->n, n, algo_name[a], T, ps, ds,
                       vine__bsched_active(&s[a]), tb ? (double)T / tb : 1.0, prs, lb, flag,
                       fail ? "  <<< FAIL" : "");
                if (fail) {
                    if (nfail < MAX_FAILS) {
                        fails[nfail].topo = g->name;
                        fails[nfail].n = n;
                        fails[nfail].algo = a;
                        snprintf(fails[nfail].flag, sizeof fails[nfail].flag, "%s", flag);
                    }
                    nfail++;
                }
                if (cf)
                    fprintf(cf, "%s,%d,%d,%d,%s,%d,%s,%s,%.3f,%.4f,%s,%ld,%s\n", g->name, g->n,
                            g->m, n, algo_name[a], T, paperT > 0 ? ps : "", paperT > 0 ? ds : "",
                            vine__bsched_active(&s[a]), tb ? (double)T / tb : 1.0,
                            paperT > 0 ? prs : "", lb, fail ? "FAIL" : (flag[0] ? "ok" : ""));
            }
            for (int a = 0; a < A_COUNT; a++)
                vine__bsched_free(&s[a]);
            fflush(stdout);
        }
        if (g->n > 1)
            core_free(&core);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (!status) {
        printf("\n%d rows (topology x N), every schedule checked against the step model.\n", nrows);
        if (nfail) {
            printf("FAILING ROWS (%d):\n", nfail);
            for (int i = 0; i < nfail && i < MAX_FAILS; i++)
                printf("  %s N=%d: %s: %s\n", fails[i].topo, fails[i].n, algo_name[fails[i].algo],
                       fails[i].flag);
        } else {
            printf("No failing rows: BBS within 2%% of the paper (where it has a figure) and "
                   "the hybrid no worse than any baseline.\n");
        }
        printf("time: %.1f s\n",
               (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
    }
    if (cf) {
        int bad = ferror(cf);
        if (fclose(cf) || bad) {
            fprintf(stderr, "vine bbs table: writing %s failed\n", csv);
            status = 1;
        }
    }
    for (int i = 0; i < nt; i++)
        vine__graph_free(&gs[i]);
    free(gs);
    return status;
}

/* Drawn in this order, BBS last (on top); the hybrid dashed, as it often
 * follows BBS step for step. */
static const int plot_order[A_COUNT] = {A_SRDA, A_TREE, A_GREEDY, A_HYBRID, A_BBS};
static const char *const plot_colour[A_COUNT] = {"#c17d11", "#75507b", "#4e9a06", "#3465a4",
                                                 "#cc0000"};

/* What the plot shows: the schedules of every algorithm on g for n packets. */
typedef struct plot_data {
    const vine_graph *g;
    const vine_bsched *s;
    long n;
    const char *out;
} plot_data;

/* The gnuplot script of the plot (a vine_cli_gp_script). */
static void plot_script(FILE *gp, const void *arg)
{
    const plot_data *d = arg;
    const vine_graph *g = d->g;
    char title[256];
    snprintf(title, sizeof title, "Active edges per step: %s (P = %d), N = %ld, root 0", g->name,
             g->n, d->n);
    int tmax = 0;
    for (int a = 0; a < A_COUNT; a++)
        tmax = d->s[a].nsteps > tmax ? d->s[a].nsteps : tmax;
    fprintf(gp, "set terminal svg size 900,520 noenhanced font 'sans,12' "
                "background rgb 'white'\nset output ");
    vine_cli_gp_str(gp, d->out);
    fprintf(gp, "\nset title ");
    vine_cli_gp_str(gp, title);
    fprintf(gp,
            "\nset xlabel 'step'\nset ylabel 'active edges'\nset grid\n"
            "set key below horizontal\nset yrange [0:%d]\nset xrange [0:%d]\n",
            g->n / 2 + 1 + g->n / 20, tmax + 1);
    for (int k = 0; k < A_COUNT; k++) {
        const vine_bsched *x = &d->s[plot_order[k]];
        fprintf(gp, "$d%d << EOD\n", k);
        for (int t = 0; t < x->nsteps; t++)
            fprintf(gp, "%d %zu\n", t + 1, x->step_end[t] - (t ? x->step_end[t - 1] : 0));
        if (x->nsteps == 0)
            fprintf(gp, "0 0\n");
        fprintf(gp, "EOD\n");
    }
    fprintf(gp, "plot ");
    for (int k = 0; k < A_COUNT; k++) {
        int a = plot_order[k];
        const vine_bsched *x = &d->s[a];
        char key[96];
        snprintf(key, sizeof key, "%s (T = %d, mean %.1f)", algo_name[a], x->nsteps,
                 vine__bsched_active(x));
        fprintf(gp, "$d%d using 1:2 with steps lw %s dt %d lc rgb '%s' title ", k,
                a == A_HYBRID ? "2.5" : "1.5", a == A_HYBRID ? 2 : 1, plot_colour[k]);
        vine_cli_gp_str(gp, key);
        fprintf(gp, ", \\\n  ");
    }
    fprintf(gp, "%d with lines dt 2 lc rgb '#555555' title 'floor(P/2)'\n", g->n / 2);
}

static void usage_plot(FILE *f)
{
    fprintf(f, "usage: vine bbs plot --topo T --n N --out FILE.svg [--seed S]\n"
               "  Draws the active edges per step of BBS, the hybrid, Greedy, Binary tree\n"
               "  and SRDA (the paper's Fig. 4) with gnuplot.  --topo as for 'vine bbs\n"
               "  table'.  Exits 0, 1 when gnuplot is missing or fails or a schedule\n"
               "  cannot be built, 2 on bad options.\n");
}

static int cmd_plot(int argc, char **argv)
{
    const char *topo = NULL, *nstr = NULL, *outp = NULL, *seedstr = "1";
    static const char *const names[] = {"--topo", "--n", "--out", "--seed"};
    const char **slots[] = {&topo, &nstr, &outp, &seedstr};
    int rc = parse_opts("plot", usage_plot, names, slots, 4, argc, argv);
    if (rc >= 0)
        return rc;
    if (!topo || !nstr || !outp) {
        usage_plot(stderr);
        return vine_cli_usage_error("vine bbs", "plot", "--topo, --n and --out are required");
    }
    long n, seed;
    if (parse_long(nstr, 1, 1000000, &n))
        return vine_cli_usage_error("vine bbs", "plot",
                                    "--n %s: not a packet count from 1 to 1000000", nstr);
    if (parse_long(seedstr, 0, LONG_MAX, &seed))
        return vine_cli_usage_error("vine bbs", "plot", "--seed %s: not a non-negative integer",
                                    seedstr);
    if (vine_cli_need_gnuplot("vine bbs plot", NULL))
        return 1;
    vine_graph g;
    char err[512];
    if (load_graph(topo, &g, err, sizeof err) != VINE_OK)
        return vine_cli_usage_error("vine bbs", "plot", "--topo %s: %s", topo, err);
    FILE *probe = fopen(outp, "w");
    if (!probe) {
        vine__graph_free(&g);
        return vine_cli_usage_error("vine bbs", "plot", "--out %s: cannot open for writing", outp);
    }
    fclose(probe);
    vine_bsched s[A_COUNT];
    int built = 0, status = 0;
    bbs_core core;
    memset(&core, 0, sizeof core);
    int have_core = 0;
    if (g.n > 1) {
        if (core_build(&g, &core))
            status = 1;
        else
            have_core = 1;
    }
    for (; !status && built < A_COUNT; built++)
        if (build(built, &g, &core, (int)n, (uint64_t)seed, &s[built])) {
            status = 1;
            break;
        }
    if (have_core)
        core_free(&core);
    if (!status) {
        for (int k = 0; k < A_COUNT; k++)
            printf("%-11s T = %d, mean active edges %.2f\n", algo_name[plot_order[k]],
                   s[plot_order[k]].nsteps, vine__bsched_active(&s[plot_order[k]]));
        plot_data d = {&g, s, n, outp};
        status = vine_cli_gnuplot("vine bbs plot", outp, NULL, plot_script, &d);
    }
    for (int a = 0; a < built; a++)
        vine__bsched_free(&s[a]);
    vine__graph_free(&g);
    return status;
}

static void usage_bbs(FILE *f)
{
    fprintf(f, "usage: vine bbs table [--n LIST] [--topo LIST] [--csv FILE] [--seed S]\n"
               "       vine bbs plot --topo T --n N --out FILE.svg [--seed S]\n"
               "  table  the BBS paper's Tables 2-6 beside our BBS, baselines and hybrid\n"
               "  plot   active edges per step (the paper's Fig. 4), with gnuplot\n"
               "docs/bbs.md describes the step model and the algorithms.\n");
}

int vine_cmd_bbs(int argc, char **argv)
{
    if (argc < 2) {
        usage_bbs(stderr);
        return 2;
    }
    const char *sub = argv[1];
    if (!strcmp(sub, "-h") || !strcmp(sub, "--help") || !strcmp(sub, "help")) {
        usage_bbs(stdout);
        return 0;
    }
    if (!strcmp(sub, "table"))
        return cmd_table(argc - 1, argv + 1);
    if (!strcmp(sub, "plot"))
        return cmd_plot(argc - 1, argv + 1);
    fprintf(stderr, "vine bbs: unknown subcommand '%s'\n", sub);
    usage_bbs(stderr);
    return 2;
}
