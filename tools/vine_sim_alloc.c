/*
 * `vine sim allocations`: how much cross-group traffic one algorithm saves
 * against another over many job allocations, grouped by node count, as Fig. 5
 * of the Bine paper (De Sensi et al., ../shared/papers/bine-trees.txt,
 * section 2.4.2) shows for allocations taken from LUMI and Leonardo.
 *
 * Allocations are drawn at random (the random-groups placement of
 * src/topo/topo.h with a seed derived from --seed, the node count and the
 * sample number) or read from a file, one Slurm hostlist per line.  For each
 * allocation both algorithms are replayed by src/sim and the reduction
 * 100 (1 - xgroup(algo) / xgroup(baseline)) recorded; each node count gets
 * min, quartiles, median, mean and max, and --plot draws them as a box plot
 * with gnuplot.  Cost: two simulations per allocation.
 */
#include "cli.h"
#include "sched/verify.h"
#include "topo/topo_place.h"
#include "vine_sim_util.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NODES (1L << 22)

static void usage(FILE *f)
{
    fprintf(f, "usage: vine sim allocations --topo SPEC (--nodes LIST | --file ALLOCS)\n"
               "       [--samples K] [--seed S] [--ppn K] [--coll C] [--algo A]\n"
               "       [--baseline B] [--size N] [--dist SPEC] [--root R] [--plot OUT.svg]\n"
               "       [--csv FILE] [-v]\n"
               "  --topo SPEC     a topology, as for 'vine sim traffic' (e.g. lumi)\n"
               "  --nodes LIST    node counts: 16,32,64 or 16..1024 (doubling); with --file,\n"
               "                  the lower bounds of the node-count classes\n"
               "  --samples K     random allocations per node count (default 20)\n"
               "  --seed S        seed of the random allocations (default 1)\n"
               "  --file ALLOCS   real allocations instead: one Slurm hostlist per line\n"
               "                  (node[001-004,010],gpu7); # starts a comment\n"
               "  --ppn K         ranks per node (default 1)\n"
               "  --coll C        collective (default bcast)\n"
               "  --algo A        algorithm measured (default bine)\n"
               "  --baseline B    algorithm compared with (default: the classic counterpart,\n"
               "                  binomial for bcast; docs/sim.md)\n"
               "  --size N        the call's count in bytes, as in 'vine sim traffic'\n"
               "                  (default 1MiB)\n"
               "  --dist SPEC     the blocks of a v collective (allgatherv ... scatterv), as in\n"
               "                  'vine sim traffic' (default uniform:SIZE)\n"
               "  --root R        root of rooted collectives (default 0)\n"
               "  --plot OUT.svg  draw a box plot with gnuplot\n"
               "  --csv FILE      write one row per allocation\n"
               "  -v              print one line per allocation\n"
               "Exits 0, 1 when a simulation or gnuplot fails, 2 on bad options.\n");
}

typedef struct opts {
    const char *topo, *nodes, *samples, *seed, *ppn, *coll, *algo, *baseline, *size, *root, *file,
        *plot, *csv, *dist;
    int help, verbose;
} opts;

static int parse_opts(int argc, char **argv, opts *o)
{
    static const char *const names[] = {"--topo", "--nodes", "--samples",  "--seed", "--ppn",
                                        "--coll", "--algo",  "--baseline", "--size", "--root",
                                        "--file", "--plot",  "--csv",      "--dist"};
    const char **slots[] = {&o->topo, &o->nodes, &o->samples,  &o->seed, &o->ppn,
                            &o->coll, &o->algo,  &o->baseline, &o->size, &o->root,
                            &o->file, &o->plot,  &o->csv,      &o->dist};
    memset(o, 0, sizeof *o);
    for (int i = 1; i < argc; i++) {
        int hit = vine_cli_take_any("vine sim allocations", &i, argc, argv, names, slots,
                                    (int)(sizeof names / sizeof *names));
        if (hit < 0)
            return 2;
        if (hit)
            continue;
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0)
            o->help = 1;
        else if (strcmp(argv[i], "-v") == 0 || strcmp(argv[i], "--verbose") == 0)
            o->verbose = 1;
        else
            return vine_cli_usage_error("vine sim", "allocations", "unknown option '%s'", argv[i]);
    }
    return 0;
}

/* One allocation and its result. */
typedef struct alloc {
    int nodes, bucket;
    long line;          /* line of --file, or 0 */
    unsigned long seed; /* random-groups seed, or 0 */
    int groups;
    int status; /* VINE_OK or VINE_ERR_UNSUPPORTED (skipped) */
    double base_x, algo_x, reduction;
} alloc;

typedef struct run {
    opts o;
    vs_net net;
    const vine_algo *algo, *base;
    long *nodes;
    size_t nnodes;
    long samples, ppn, root;
    unsigned long seed;
    size_t size;
    vine_vdist dist; /* --dist, when has_dist */
    int has_dist;
    alloc *allocs;
    size_t nallocs, cap;
    long dropped;   /* --file allocations below the smallest --nodes bound */
    long undefined; /* reduction undefined: only the baseline had no cross-group bytes */
    char skip_note[200];
    vine_hostmap *hosts; /* host names of --file's allocations */
} run;

static int parse_all(run *w)
{
    opts *o = &w->o;
    if (!o->topo || (!o->nodes && !o->file))
        return vine_cli_usage_error("vine sim", "allocations",
                                    "--topo and --nodes (or --file) are required");
    const char *cname = o->coll ? o->coll : "bcast";
    int c = vine__coll_parse(cname);
    vine_coll_info info;
    if (c < 0 || vine__verify_coll_info((vine_coll)c, &info) != VINE_OK)
        return vine_cli_usage_error("vine sim", "allocations", "unknown collective '%s'", cname);
    const char *aname = o->algo ? o->algo : "bine";
    const char *bname = o->baseline ? o->baseline : vs_default_baseline((vine_coll)c);
    w->algo = vine__algo_find((vine_coll)c, aname);
    w->base = vine__algo_find((vine_coll)c, bname);
    if (!w->algo || !w->base)
        return vine_cli_usage_error("vine sim", "allocations",
                                    "no algorithm '%s' for %s; see 'vine list'",
                                    w->algo ? bname : aname, cname);
    if (o->nodes && vs_parse_ints(o->nodes, MAX_NODES, &w->nodes, &w->nnodes))
        return vine_cli_usage_error("vine sim", "allocations",
                                    "malformed --nodes '%s' (e.g. 16,32 or 16..1024)", o->nodes);
    long seed = 1;
    w->samples = 20;
    w->ppn = 1;
    if (o->samples && (vs_parse_long(o->samples, 1000000, &w->samples) || w->samples < 1))
        return vine_cli_usage_error("vine sim", "allocations", "malformed --samples '%s'",
                                    o->samples);
    if (o->seed && vs_parse_long(o->seed, 2147483647L, &seed))
        return vine_cli_usage_error("vine sim", "allocations", "malformed --seed '%s' (0..2^31-1)",
                                    o->seed);
    w->seed = (unsigned long)seed;
    if (o->ppn && (vs_parse_long(o->ppn, 4096, &w->ppn) || w->ppn < 1))
        return vine_cli_usage_error("vine sim", "allocations", "malformed --ppn '%s'", o->ppn);
    if (o->root && vs_parse_long(o->root, MAX_NODES, &w->root))
        return vine_cli_usage_error("vine sim", "allocations", "malformed --root '%s'", o->root);
    w->size = 1u << 20;
    if (o->size && vs_parse_size(o->size, &w->size))
        return vine_cli_usage_error("vine sim", "allocations", "malformed --size '%s' (e.g. 1MiB)",
                                    o->size);
    if (info.reduction && w->size % VS_REDUCE_ELEM)
        return vine_cli_usage_error("vine sim", "allocations",
                                    "--size of a reduction must be a multiple of %d",
                                    VS_REDUCE_ELEM);
    if (o->dist && !vine__coll_is_v((vine_coll)c))
        return vine_cli_usage_error("vine sim", "allocations",
                                    "--dist gives the blocks of allgatherv, alltoallv, alltoallw, "
                                    "gatherv and scatterv, not of %s",
                                    cname);
    char err[1024] = "";
    int rc = o->dist ? vine__vdist_parse(o->dist, &w->dist, err, sizeof err) : VINE_OK;
    if (rc == VINE_ERR_NO_MEM)
        return 1;
    if (rc != VINE_OK)
        return vine_cli_usage_error("vine sim", "allocations", "--dist %s: %s", o->dist, err);
    w->has_dist = o->dist != NULL;
    if (w->nodes && (long)w->nodes[0] * w->ppn <= w->root)
        return vine_cli_usage_error("vine sim", "allocations", "--root %ld is not below %ld ranks",
                                    w->root, (long)w->nodes[0] * w->ppn);
    return 0;
}

/* A seed for sample s of node count n: a mix of the three (splitmix64), below 2^31. */
static unsigned long sample_seed(unsigned long seed, long n, long s)
{
    uint64_t z = (uint64_t)seed * 0x9E3779B97F4A7C15ULL + (uint64_t)n * 0xBF58476D1CE4E5B9ULL +
                 (uint64_t)s * 0x94D049BB133111EBULL + 1;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return (unsigned long)(z & 0x7FFFFFFFULL);
}

static alloc *new_alloc(run *w)
{
    if (w->nallocs == w->cap) {
        size_t cap = w->cap ? 2 * w->cap : 64;
        alloc *a = realloc(w->allocs, cap * sizeof *a);
        if (!a)
            return NULL;
        w->allocs = a;
        w->cap = cap;
    }
    alloc *a = &w->allocs[w->nallocs++];
    memset(a, 0, sizeof *a);
    return a;
}

/* Simulates both algorithms on one placement; 0, or 1 after printing an error. */
static int measure(run *w, alloc *a, const int *rank_host)
{
    vine_sim_result rb, ra;
    char err[512] = "";
    int p = a->nodes * (int)w->ppn;
    vs_spread sp;
    vs_placement_spread(&w->net.t, rank_host, p, &sp);
    a->groups = sp.groups;
    /* The hierarchical algorithms see this allocation's own levels. */
    vine_levels lv;
    const vine_vdist *dist = w->has_dist ? &w->dist : NULL;
    int rc = vine__sim_levels(&w->net.t, rank_host, p, &lv, NULL, err, sizeof err);
    if (rc == VINE_OK)
        rc = vs_simulate(w->net.router, rank_host, &lv, NULL, 0, w->base, p, w->size, dist,
                         (int)w->root, 0, &rb, err, sizeof err);
    const vine_algo *at = w->base;
    if (rc == VINE_OK) {
        at = w->algo;
        rc = vs_simulate(w->net.router, rank_host, &lv, NULL, 0, w->algo, p, w->size, dist,
                         (int)w->root, 0, &ra, err, sizeof err);
    }
    vine__levels_free(&lv);
    a->status = rc;
    a->reduction = NAN;
    if (rc == VINE_ERR_UNSUPPORTED) {
        snprintf(w->skip_note, sizeof w->skip_note, "%s on %d ranks: %.150s", at->name, p, err);
        return 0;
    }
    if (rc != VINE_OK) {
        fprintf(stderr, "vine sim allocations: %s %s on %d ranks: %s\n", vine__coll_name(at->coll),
                at->name, p, rc == VINE_ERR_NO_MEM ? "out of memory" : err);
        return 1;
    }
    a->base_x = rb.cross_group_bytes;
    a->algo_x = ra.cross_group_bytes;
    a->reduction = vs_reduction(a->algo_x, a->base_x);
    w->undefined += isnan(a->reduction);
    if (w->o.verbose) {
        char b1[32], b2[32];
        vs_fmt_bytes(a->base_x, b1, sizeof b1);
        vs_fmt_bytes(a->algo_x, b2, sizeof b2);
        if (a->line)
            printf("line %-5ld", a->line);
        else
            printf("seed %-10lu", a->seed);
        printf(" nodes %-6d groups %-4d xgroup %s %s, %s %s: %.1f%%\n", a->nodes, a->groups,
               w->base->name, b1, w->algo->name, b2, a->reduction);
    }
    return 0;
}

/*
 * Checks that --dist fits p ranks (a file of blocks has one number per rank);
 * 0, or 2 after a message that names where (the allocation's file line).
 */
static int check_dist(const run *w, long p, const char *path, long line)
{
    char err[1024] = "", at[600] = "";
    vine_coll c = w->algo->coll;
    int a2a = c == VINE_COLL_ALLTOALLV || c == VINE_COLL_ALLTOALLW;
    if (!w->has_dist || vine__vdist_check(&w->dist, (int)p, a2a, err, sizeof err) == VINE_OK)
        return 0;
    if (path)
        snprintf(at, sizeof at, "%s:%ld: ", path, line);
    return vine_cli_usage_error("vine sim", "allocations", "%s--dist %s with %ld ranks: %s", at,
                                w->o.dist, p, err);
}

static int run_random(run *w)
{
    for (size_t i = 0; i < w->nnodes; i++) /* before the first simulation */
        if (check_dist(w, w->nodes[i] * w->ppn, NULL, 0))
            return 2;
    for (size_t i = 0; i < w->nnodes; i++) {
        long n = w->nodes[i], p = n * w->ppn;
        if (n > w->net.t.nhosts)
            return vine_cli_usage_error("vine sim", "allocations",
                                        "--nodes %ld: the topology has only %d hosts", n,
                                        w->net.t.nhosts);
        int *rank_host = malloc((size_t)p * sizeof *rank_host);
        if (!rank_host)
            return 1;
        for (long s = 0; s < w->samples; s++) {
            alloc *a = new_alloc(w);
            char spec[96], err[512] = "";
            if (!a) {
                free(rank_host);
                return 1;
            }
            a->nodes = (int)n;
            a->bucket = (int)i;
            a->seed = sample_seed(w->seed, n, s);
            snprintf(spec, sizeof spec, "random-groups:seed=%lu,ppn=%ld", a->seed, w->ppn);
            int rc = vine__place(&w->net.t, spec, (int)p, rank_host, err, sizeof err);
            if (rc != VINE_OK) {
                free(rank_host);
                if (rc == VINE_ERR_UNSUPPORTED)
                    return vine_cli_usage_error("vine sim", "allocations", "placement %s: %s", spec,
                                                err);
                return 1;
            }
            if (measure(w, a, rank_host)) {
                free(rank_host);
                return 1;
            }
        }
        free(rank_host);
    }
    return 0;
}

/* The bucket of an allocation of n nodes read from a file; -1 when below every bound. */
static int file_bucket(run *w, long n, int *added)
{
    *added = 0;
    if (w->o.nodes) {
        int b = -1;
        for (size_t i = 0; i < w->nnodes; i++)
            if (w->nodes[i] <= n)
                b = (int)i;
        return b;
    }
    /* No bounds: one class per distinct node count, kept sorted at the end. */
    for (size_t i = 0; i < w->nnodes; i++)
        if (w->nodes[i] == n)
            return (int)i;
    long *q = realloc(w->nodes, (w->nnodes + 1) * sizeof *q);
    if (!q)
        return -2;
    w->nodes = q;
    w->nodes[w->nnodes] = n;
    *added = 1;
    return (int)w->nnodes++;
}

/* Turns one hostlist line into rank_host; 0, 2 after a message, or 1. */
static int line_hosts(run *w, const char *path, long ln, const char *expr, int **rank_host,
                      int *nodes)
{
    char **names = NULL, err[512] = "";
    int n = 0;
    int rc = vine__hostlist_expand(expr, &names, &n, err, sizeof err);
    if (rc == VINE_ERR_UNSUPPORTED)
        return vine_cli_usage_error("vine sim", "allocations", "%s:%ld: %s", path, ln, err);
    if (rc != VINE_OK)
        return 1;
    *nodes = n;
    *rank_host = malloc(((size_t)n * (size_t)w->ppn + 1) * sizeof **rank_host);
    rc = *rank_host ? vine__place_host_names(&w->net.t, w->hosts, names, n, (int)w->ppn,
                                             n * (int)w->ppn, *rank_host, err, sizeof err)
                    : VINE_ERR_NO_MEM;
    vine__hostlist_free(names, n);
    if (rc == VINE_ERR_UNSUPPORTED)
        return vine_cli_usage_error("vine sim", "allocations", "%s:%ld: %s", path, ln, err);
    return rc == VINE_OK ? 0 : 1;
}

static char *trim(char *s)
{
    char *hash = strchr(s, '#');
    if (hash)
        *hash = '\0';
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r'))
        s[--n] = '\0';
    return s;
}

static int run_file(run *w)
{
    const char *path = w->o.file;
    FILE *f = fopen(path, "r");
    if (!f)
        return vine_cli_usage_error("vine sim", "allocations", "--file %s: cannot open", path);
    if (vine__hostmap_new(&w->net.t, &w->hosts) != VINE_OK) {
        fclose(f);
        return 1;
    }
    char *line = NULL;
    size_t cap = 0;
    long ln = 0;
    int rc = 0;
    while (!rc && getline(&line, &cap, f) >= 0) {
        ln++;
        char *expr = trim(line);
        if (!*expr)
            continue;
        int *rank_host = NULL, n = 0, added;
        rc = line_hosts(w, path, ln, expr, &rank_host, &n);
        int b = rc ? -1 : file_bucket(w, n, &added);
        if (!rc && b == -2)
            rc = 1;
        if (!rc && (n == 0 || (long)n * w->ppn <= w->root || b < 0)) {
            w->dropped++;
        } else if (!rc && !(rc = check_dist(w, (long)n * w->ppn, path, ln))) {
            alloc *a = new_alloc(w);
            if (!a) {
                rc = 1;
            } else {
                a->nodes = n;
                a->bucket = b;
                a->line = ln;
                rc = measure(w, a, rank_host);
            }
        }
        free(rank_host);
    }
    free(line);
    fclose(f);
    if (!rc && w->nallocs == 0)
        rc = vine_cli_usage_error("vine sim", "allocations", "--file %s: no allocation to measure",
                                  path);
    return rc;
}

static int long_cmp(const void *x, const void *y)
{
    long a = *(const long *)x, b = *(const long *)y;
    return a < b ? -1 : a > b;
}

static int dbl_cmp(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

/* The q-quantile of n sorted values, interpolated linearly between ranks. */
static double quantile(const double *v, size_t n, double q)
{
    double h = (double)(n - 1) * q;
    size_t lo = (size_t)floor(h);
    if (lo + 1 >= n)
        return v[n - 1];
    return v[lo] + (h - (double)lo) * (v[lo + 1] - v[lo]);
}

typedef struct stats {
    char label[48];
    size_t n, skipped;
    double min, q1, med, q3, max, mean, groups;
} stats;

/* Statistics of bucket b; n == 0 when it has no defined value. */
static int bucket_stats(const run *w, size_t b, stats *st)
{
    memset(st, 0, sizeof *st);
    if (w->o.file && w->o.nodes && b + 1 < w->nnodes)
        snprintf(st->label, sizeof st->label, "%ld-%ld", w->nodes[b], w->nodes[b + 1] - 1);
    else if (w->o.file && w->o.nodes)
        snprintf(st->label, sizeof st->label, "%ld+", w->nodes[b]);
    else
        snprintf(st->label, sizeof st->label, "%ld", w->nodes[b]);
    double *v = malloc((w->nallocs + 1) * sizeof *v);
    if (!v)
        return 1;
    double gsum = 0, sum = 0;
    for (size_t i = 0; i < w->nallocs; i++) {
        const alloc *a = &w->allocs[i];
        if (a->bucket != (int)b)
            continue;
        if (a->status != VINE_OK || isnan(a->reduction)) {
            st->skipped++;
            continue;
        }
        v[st->n++] = a->reduction;
        sum += a->reduction;
        gsum += a->groups;
    }
    if (st->n) {
        qsort(v, st->n, sizeof *v, dbl_cmp);
        st->min = v[0];
        st->q1 = quantile(v, st->n, 0.25);
        st->med = quantile(v, st->n, 0.5);
        st->q3 = quantile(v, st->n, 0.75);
        st->max = v[st->n - 1];
        st->mean = sum / (double)st->n;
        st->groups = gsum / (double)st->n;
    }
    free(v);
    return 0;
}

static void print_table(const run *w, const stats *st, size_t nb)
{
    char sz[32];
    vs_fmt_size(w->size, sz, sizeof sz);
    printf("topology: %s\n  %s\n", w->o.topo, w->net.desc);
    if (w->o.file)
        printf("allocations: %s, %ld rank(s) per node\n", w->o.file, w->ppn);
    else
        printf("allocations: %ld random per node count (random-groups, seed %lu), %ld rank(s) "
               "per node\n",
               w->samples, w->seed, w->ppn);
    if (w->has_dist)
        printf("%s, blocks of --dist %s: cross-group bytes saved by %s against %s, per "
               "allocation (%%)\n\n",
               vine__coll_name(w->algo->coll), w->o.dist, w->algo->name, w->base->name);
    else
        printf("%s, size %s: cross-group bytes saved by %s against %s, per allocation (%%)\n\n",
               vine__coll_name(w->algo->coll), sz, w->algo->name, w->base->name);
    printf("%-10s  %6s  %6s  %8s  %8s  %8s  %8s  %8s  %8s  %8s\n", "nodes", "allocs", "groups",
           "min", "q1", "median", "q3", "max", "mean", "skipped");
    for (size_t b = 0; b < nb; b++) {
        const stats *s = &st[b];
        printf("%-10s  %6zu  ", s->label, s->n);
        if (!s->n) {
            printf("%6s  %8s  %8s  %8s  %8s  %8s  %8s  %8zu\n", "-", "-", "-", "-", "-", "-", "-",
                   s->skipped);
            continue;
        }
        printf("%6.1f  %7.1f%%  %7.1f%%  %7.1f%%  %7.1f%%  %7.1f%%  %7.1f%%  %8zu\n", s->groups,
               s->min, s->q1, s->med, s->q3, s->max, s->mean, s->skipped);
    }
    if (w->skip_note[0])
        printf("skipped: the algorithm's restrictions exclude the case, e.g. %s\n", w->skip_note);
    if (w->undefined)
        printf("skipped: %ld allocation(s) where only %s crossed groups (reduction undefined)\n",
               w->undefined, w->algo->name);
    if (w->dropped)
        printf("%ld allocation(s) of the file left out (below the smallest --nodes bound, or "
               "too few ranks for --root)\n",
               w->dropped);
}

/* What the box plot shows: the statistics of nb node-count classes. */
typedef struct box_plot {
    const run *w;
    const stats *st;
    size_t nb;
} box_plot;

/*
 * The gnuplot script of the box plot (a vine_cli_gp_script): whiskers at min
 * and max, box from q1 to q3, a line at the median.
 */
static void box_script(FILE *g, const void *arg)
{
    const box_plot *bp = arg;
    const run *w = bp->w;
    const stats *st = bp->st;
    size_t nb = bp->nb;
    char title[512], sz[32];
    if (w->has_dist)
        snprintf(sz, sizeof sz, "%.24s", w->o.dist);
    else
        vs_fmt_size(w->size, sz, sizeof sz);
    snprintf(title, sizeof title, "%s %s vs %s, %s, %s: %s", vine__coll_name(w->algo->coll),
             w->algo->name, w->base->name, sz, w->net.t.name[0] ? w->net.t.name : w->o.topo,
             w->o.file ? w->o.file : "random allocations");
    fprintf(g, "set terminal svg size 800,480 noenhanced font 'sans,12' background rgb 'white'\n");
    fprintf(g, "set output ");
    vine_cli_gp_str(g, w->o.plot);
    fprintf(g, "\nset title ");
    vine_cli_gp_str(g, title);
    fprintf(g,
            "\nset xlabel 'nodes'\nset ylabel 'cross-group bytes saved (%%)'\n"
            "set grid ytics\nset key below horizontal\nset boxwidth 0.5\n"
            "set style fill solid 0.3 border -1\nset xrange [-0.6:%zu.6]\n",
            nb ? nb - 1 : 0);
    fprintf(g, "$boxes << EOD\n");
    size_t shown = 0;
    for (size_t b = 0; b < nb; b++)
        if (st[b].n) {
            fprintf(g, "%zu %.6g %.6g %.6g %.6g %.6g %.6g \"%s\"\n", b, st[b].min, st[b].q1,
                    st[b].med, st[b].q3, st[b].max, st[b].mean, st[b].label);
            shown++;
        }
    fprintf(g, "EOD\n");
    if (!shown) /* gnuplot refuses an empty data block: plot an empty frame */
        fprintf(g, "set yrange [-10:40]\nplot 1/0 notitle\n");
    else {
        fprintf(g, "plot $boxes using 1:3:2:6:5:xticlabels(8) with candlesticks whiskerbars 0.5 "
                   "lc rgb '#3465a4' title 'min, quartiles, max', \\\n"
                   "  $boxes using 1:4:4:4:4 with candlesticks lc rgb '#000000' lw 2 "
                   "title 'median', \\\n"
                   "  $boxes using 1:7 with points pt 2 lc rgb '#cc0000' title 'mean'");
        if (strncmp(w->algo->name, "bine", 4) == 0)
            fprintf(g, ", \\\n  100.0/3 with lines dt 2 lc rgb '#555555' "
                       "title 'bound 33.3%% (Bine paper, Eq. 2)'");
        fprintf(g, "\n");
    }
}

static int write_csv(const run *w)
{
    FILE *f = fopen(w->o.csv, "w");
    if (!f) {
        fprintf(stderr, "vine sim allocations: --csv %s: cannot open for writing\n", w->o.csv);
        return 1;
    }
    fprintf(f, "class,nodes,ranks,source,seed,line,groups,status,baseline,baseline_cross_group_"
               "bytes,algo,algo_cross_group_bytes,reduction_pct\n");
    for (size_t i = 0; i < w->nallocs; i++) {
        const alloc *a = &w->allocs[i];
        stats st;
        bucket_stats(w, (size_t)a->bucket, &st); /* only for the label */
        fprintf(f, "%s,%d,%ld,%s,", st.label, a->nodes, a->nodes * w->ppn,
                a->line ? "file" : "random");
        if (a->line)
            fprintf(f, ",%ld,", a->line);
        else
            fprintf(f, "%lu,,", a->seed);
        fprintf(f, "%d,%s,%s,", a->groups, a->status == VINE_OK ? "ok" : "skip", w->base->name);
        if (a->status == VINE_OK)
            fprintf(f, "%.0f,%s,%.0f,", a->base_x, w->algo->name, a->algo_x);
        else
            fprintf(f, ",%s,,", w->algo->name);
        if (a->status == VINE_OK && !isnan(a->reduction))
            fprintf(f, "%.4f", a->reduction);
        fputc('\n', f);
    }
    int bad = ferror(f);
    if (fclose(f) || bad) {
        fprintf(stderr, "vine sim allocations: writing %s failed\n", w->o.csv);
        return 1;
    }
    return 0;
}

/* Sorts the classes of --file without bounds by node count and renumbers the allocations. */
static int sort_buckets(run *w)
{
    if (!w->o.file || w->o.nodes || w->nnodes < 2)
        return 0;
    int *map = malloc(w->nnodes * sizeof *map);
    if (!map)
        return 1;
    /* Class i's new index: the number of classes with fewer nodes (all differ). */
    for (size_t i = 0; i < w->nnodes; i++) {
        map[i] = 0;
        for (size_t j = 0; j < w->nnodes; j++)
            map[i] += w->nodes[j] < w->nodes[i];
    }
    for (size_t i = 0; i < w->nallocs; i++)
        w->allocs[i].bucket = map[w->allocs[i].bucket];
    qsort(w->nodes, w->nnodes, sizeof *w->nodes, long_cmp);
    free(map);
    return 0;
}

static int check_outputs(run *w)
{
    if (w->o.plot) {
        if (vine_cli_need_gnuplot("vine sim allocations", "--plot"))
            return 1;
        FILE *f = fopen(w->o.plot, "w");
        if (!f)
            return vine_cli_usage_error("vine sim", "allocations",
                                        "--plot %s: cannot open for writing", w->o.plot);
        fclose(f);
    }
    if (w->o.csv) {
        FILE *f = fopen(w->o.csv, "w");
        if (!f)
            return vine_cli_usage_error("vine sim", "allocations",
                                        "--csv %s: cannot open for writing", w->o.csv);
        fclose(f);
    }
    return 0;
}

int vs_cmd_allocations(int argc, char **argv)
{
    run w;
    memset(&w, 0, sizeof w);
    vine__topo_init(&w.net.t);
    int rc = parse_opts(argc, argv, &w.o);
    if (!rc && w.o.help) {
        usage(stdout);
        return 0;
    }
    if (!rc)
        rc = parse_all(&w);
    if (!rc)
        rc = check_outputs(&w);
    if (!rc)
        rc = vs_net_open("allocations", w.o.topo, &w.net);
    if (!rc)
        rc = w.o.file ? run_file(&w) : run_random(&w);
    if (!rc)
        rc = sort_buckets(&w);
    stats *st = NULL;
    if (!rc) {
        st = calloc(w.nnodes + 1, sizeof *st);
        rc = st ? 0 : 1;
        for (size_t b = 0; !rc && b < w.nnodes; b++)
            rc = bucket_stats(&w, b, &st[b]);
        if (rc)
            fprintf(stderr, "vine sim allocations: out of memory\n");
    }
    if (!rc)
        print_table(&w, st, w.nnodes);
    if (!rc && w.o.csv)
        rc = write_csv(&w);
    if (!rc && w.o.plot) {
        box_plot bp = {&w, st, w.nnodes};
        rc = vine_cli_gnuplot("vine sim allocations", w.o.plot, NULL, box_script, &bp);
    }
    if (rc == 2)
        fprintf(stderr, "Run 'vine sim allocations --help' for the options.\n");
    free(st);
    free(w.allocs);
    free(w.nodes);
    vine__vdist_free(&w.dist);
    vine__hostmap_free(w.hosts);
    vs_net_close(&w.net);
    return rc;
}
