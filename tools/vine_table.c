/*
 * vine table: Markdown tables of ratios from vine-bench result files (JSON
 * or CSV, written by `vine-bench coll --json/--csv`, read by
 * src/bench/results.h).  MPI-free.
 *
 *   vine table best --in FILE [--in FILE ...] [--base ALGO] [--metric M]
 *                   [--exclude A,...] [--mark R]
 *       per (ranks, collective, size) the base's time (default mpi), auto's
 *       ratio to it, and the algorithm whose ratios to it have the smallest
 *       geometric mean
 *   vine table pairs --in FILE [--in FILE ...] --pair COLL:ALGO/REF [--pair ...]
 *                   [--metric M] [--mark R]
 *       a row per pair, a column per size: ALGO's metric over REF's
 *   vine table tuning --in FILE [--coll C,...]
 *       a table per collective and class of a tuning file (docs/tuning.md):
 *       a row per (ranks, size range) with the chosen algorithm, the
 *       runner-up and the margin between their medians
 *
 * A ratio is always taken between two rows of one file, measured side by
 * side in one run; the files are repeated runs, or runs of other collectives,
 * sizes or rank counts, and a cell gives the range of the ratios over the
 * files that hold both rows.  Exit status: 0, 1 when there is nothing to
 * tabulate, 2 for bad options or an unreadable result or tuning file.  docs/bench.md
 * describes the tables.
 */
#include "vine_table.h"
#include "bench/results.h"
#include "cli.h"
#include "select/tuning.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FILES 64
#define MAX_PAIRS 64

/* Which time of a row is compared. */
enum metric { M_MEDIAN, M_MIN, M_MEAN, M_P99, M_MAX, M_COUNT };

static const char *const metric_name[M_COUNT] = {"median", "min", "mean", "p99", "max"};

static double metric_of(const vine_bench_row *x, int m)
{
    const double v[M_COUNT] = {x->median, x->min, x->mean, x->p99, x->max};
    return v[m];
}

static int out_of_memory(const char *cmd)
{
    fprintf(stderr, "vine table %s: out of memory\n", cmd);
    return 1;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: vine table best --in FILE [--in FILE ...] [--base ALGO] [--metric M]\n"
               "                 [--exclude A,...] [--mark R]\n"
               "       vine table pairs --in FILE [--in FILE ...] --pair COLL:ALGO/REF\n"
               "                 [--pair ...] [--metric M] [--mark R]\n"
               "       vine table tuning --in FILE [--coll C,...]\n"
               "  FILE      a result file of 'vine-bench coll --json FILE' or '--csv FILE'; a\n"
               "            ratio is taken between two rows of one file, and a cell gives its\n"
               "            range (min-max) over the files that hold both rows\n"
               "  best      per (ranks, collective, size): the base's M in us (--base, default\n"
               "            mpi), auto's ratio to it, and the algorithm whose ratios to it have\n"
               "            the smallest geometric mean; --exclude names algorithms left out of\n"
               "            that choice (default: auto)\n"
               "  pairs     a row per pair (--pair repeated or comma-separated), a column per\n"
               "            size: ALGO's M / REF's M\n"
               "  tuning    FILE is a tuning file of vine-tune: a table per collective (--coll\n"
               "            chooses) and class, a row per (ranks, size range): the algorithm,\n"
               "            its median, the runner-up's and the margin runner-up / chosen\n"
               "  --metric  median (default), min, mean, p99, max\n"
               "  --mark R  write ratios above R in bold\n"
               "Exits 0, 1 when there is nothing to tabulate, 2 for bad options or an\n"
               "unreadable file.\n");
}

/* One measured row: the metric of an algorithm at (ranks, collective, size) in a file. */
typedef struct point {
    int ranks, coll, file; /* coll: the index of the collective in table.colls */
    long long size;        /* bytes; -1 for barrier, which has no size */
    size_t seq;            /* the order of reading */
    const char *algo;
    double v;
} point;

/* The values of a cell, one per file: their range and the sum of their logarithms. */
typedef struct span {
    double lo, hi, logsum;
    int n;
} span;

/* A --pair: ALGO's metric over REF's, for the collective COLL. */
typedef struct pair {
    char coll[32], algo[64], ref[64];
} pair;

/* The files, their measured rows sorted into groups, and the options. */
typedef struct table {
    const char *files[MAX_FILES];
    vine_bench_results res[MAX_FILES];
    int nfiles, nread, m;
    double mark;                /* 0: no --mark */
    const char *base, *exclude; /* best */
    pair pairs[MAX_PAIRS];      /* pairs */
    int npairs;
    point *pts; /* sorted by ranks, collective, size, then the order of reading */
    size_t npts;
    const char **colls; /* the collectives in order of first appearance */
    int ncolls;
    long long ranks[MAX_FILES]; /* the files' distinct rank counts, ascending */
    size_t nr;
} table;

/* Is name an item of the comma-separated list? */
static int in_list(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *s = list; *s;) {
        size_t len = strcspn(s, ",");
        if (len == n && strncmp(s, name, n) == 0)
            return 1;
        s += len + (s[len] == ',');
    }
    return 0;
}

/* Appends the items of "COLL:ALGO/REF[,...]" to t->pairs; 0, or -1 when malformed. */
static int parse_pairs(table *t, const char *s)
{
    do {
        size_t len = strcspn(s, ",");
        pair *p = &t->pairs[t->npairs];
        char item[192];
        int end = -1;
        if (t->npairs == MAX_PAIRS || len >= sizeof item)
            return -1;
        memcpy(item, s, len);
        item[len] = '\0';
        if (sscanf(item, "%31[^:/]:%63[^:/]/%63[^:/]%n", p->coll, p->algo, p->ref, &end) != 3 ||
            end != (int)len)
            return -1;
        t->npairs++;
        s += len;
    } while (*s++ == ',');
    return 0;
}

/*
 * Reads the options of `vine table CMD` into t: best takes --base and
 * --exclude, pairs --pair.  Returns -1 when the command goes on, else its
 * exit status: 0 after --help, 2 after a message.
 */
static int parse_opts(const char *cmd, int argc, char **argv, table *t)
{
    int best = strcmp(cmd, "best") == 0;
    char who[32];
    snprintf(who, sizeof who, "vine table %s", cmd);
    const char *metric = "median", *mark = NULL, *val = NULL;
    t->base = "mpi";
    t->exclude = "auto";
    static const char *const names[] = {"--metric", "--mark", "--base", "--exclude"};
    const char **slots[] = {&metric, &mark, &t->base, &t->exclude};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            return 0;
        }
        int r = vine_cli_take(who, argv[i], "--in", &i, argc, argv, &val);
        if (r > 0 && t->nfiles == MAX_FILES)
            return vine_cli_usage_error("vine table", cmd, "more than %d --in files", MAX_FILES);
        if (r > 0)
            t->files[t->nfiles++] = val;
        if (!r && !best && (r = vine_cli_take(who, argv[i], "--pair", &i, argc, argv, &val)) > 0 &&
            parse_pairs(t, val))
            return vine_cli_usage_error("vine table", cmd,
                                        "--pair %s: not COLL:ALGO/REF[,...] (at most %d pairs)",
                                        val, MAX_PAIRS);
        if (!r)
            r = vine_cli_take_any(who, &i, argc, argv, names, slots, best ? 4 : 2);
        if (r < 0)
            return 2;
        if (!r) {
            usage(stderr);
            return vine_cli_usage_error("vine table", cmd, "unknown argument '%s'", argv[i]);
        }
    }
    if (!t->nfiles || (!best && !t->npairs)) {
        usage(stderr);
        return vine_cli_usage_error("vine table", cmd,
                                    best ? "--in is required" : "--in and --pair are required");
    }
    for (t->m = 0; t->m < M_COUNT && strcmp(metric, metric_name[t->m]) != 0; t->m++)
        ;
    if (t->m == M_COUNT)
        return vine_cli_usage_error("vine table", cmd,
                                    "--metric %s: not one of median, min, mean, p99, max", metric);
    char *end = NULL;
    if (mark && ((t->mark = strtod(mark, &end)) <= 0 || *end || end == mark || !isfinite(t->mark)))
        return vine_cli_usage_error("vine table", cmd, "--mark %s: not a positive number", mark);
    return -1;
}

static int cmp_point(const void *a, const void *b)
{
    const point *x = a, *y = b;
    if (x->ranks != y->ranks)
        return x->ranks < y->ranks ? -1 : 1;
    if (x->coll != y->coll)
        return x->coll < y->coll ? -1 : 1;
    if (x->size != y->size)
        return x->size < y->size ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The index of coll in t->colls, appended when new; -1 when out of memory. */
static int coll_index(table *t, const char *coll)
{
    for (int c = 0; c < t->ncolls; c++)
        if (strcmp(t->colls[c], coll) == 0)
            return c;
    if (t->ncolls % 16 == 0) {
        const char **p = realloc(t->colls, (size_t)(t->ncolls + 16) * sizeof *p);
        if (!p)
            return -1;
        t->colls = p;
    }
    t->colls[t->ncolls] = coll;
    return t->ncolls++;
}

/*
 * Reads the files and keeps their measured rows (status ok, a finite positive
 * metric) as points.  Returns -1 when the command goes on, else the exit status
 * after a message.
 */
static int load(const char *cmd, table *t)
{
    for (; t->nread < t->nfiles; t->nread++) {
        char err[512] = "";
        const char *file = t->files[t->nread];
        if (vine__bench_read(&t->res[t->nread], file, err, sizeof err) == 0)
            continue;
        /* The result loader's message would not say what the file is. */
        if (*err && vine_cli_is_tuning(file))
            return vine_cli_usage_error("vine table", cmd,
                                        "%s is a tuning file: see 'vine table tuning --in %s'",
                                        file, file);
        return *err ? vine_cli_usage_error("vine table", cmd, "%s", err) : out_of_memory(cmd);
    }
    for (int k = 0; k < t->nfiles; k++) {
        t->ranks[k] = t->res[k].ranks;
        for (size_t i = 0; i < t->res[k].nrows; i++) {
            const vine_bench_row *x = &t->res[k].rows[i];
            double v = metric_of(x, t->m);
            if (x->status != VINE_BENCH_ROW_OK || !isfinite(v) || v <= 0)
                continue;
            if (t->npts % 1024 == 0) {
                point *p = realloc(t->pts, (t->npts + 1024) * sizeof *p);
                if (!p)
                    return out_of_memory(cmd);
                t->pts = p;
            }
            int c = coll_index(t, x->coll);
            if (c < 0)
                return out_of_memory(cmd);
            long long size = strcmp(x->coll, "barrier") == 0 ? -1 : x->size;
            t->pts[t->npts] = (point){t->res[k].ranks, c, k, size, t->npts, x->algo, v};
            t->npts++;
        }
    }
    t->nr = vine_cli_unique_ll(t->ranks, (size_t)t->nfiles);
    if (t->npts)
        qsort(t->pts, t->npts, sizeof *t->pts, cmp_point);
    return -1;
}

/* The end of the group of points with the (ranks, collective, size) of pts[a]. */
static size_t group_end(const table *t, size_t a)
{
    const point *p = &t->pts[a];
    size_t b = a;
    while (b < t->npts && t->pts[b].ranks == p->ranks && t->pts[b].coll == p->coll &&
           t->pts[b].size == p->size)
        b++;
    return b;
}

/*
 * Over the files of the group g[0..n-1] (each file's points together): algo's
 * value, or with ref its ratio to ref's value in the same file; a file's first
 * row of an algorithm counts.
 */
static span over_files(const point *g, size_t n, const char *algo, const char *ref)
{
    span s = {0, 0, 0, 0};
    for (size_t a = 0, b; a < n; a = b) {
        const point *x = NULL, *y = NULL;
        for (b = a; b < n && g[b].file == g[a].file; b++) {
            if (!x && strcmp(g[b].algo, algo) == 0)
                x = &g[b];
            if (ref && !y && strcmp(g[b].algo, ref) == 0)
                y = &g[b];
        }
        if (!x || (ref && !y))
            continue;
        double v = ref ? x->v / y->v : x->v;
        s.lo = s.n && s.lo < v ? s.lo : v;
        s.hi = s.n && s.hi > v ? s.hi : v;
        s.logsum += log(v);
        s.n++;
    }
    return s;
}

/* A number of a cell: a ratio with 2 decimals, a time with 3 significant digits
 * (at least the units: 0.781, 8.00, 12.3, 138, 1235). */
static void put_number(char *buf, size_t cap, double v, int ratio)
{
    int dec = ratio ? 2 : v >= 100 ? 0 : v >= 10 ? 1 : v >= 1 ? 2 : 3;
    snprintf(buf, cap, "%.*f", dec, v);
}

/* Prints a cell: "-", a value, or "lo-hi"; a ratio above mark (when > 0) in bold. */
static void put_span(const span *s, int ratio, double mark)
{
    char lo[32], hi[32];
    if (!s->n) {
        printf(" - |");
        return;
    }
    put_number(lo, sizeof lo, s->lo, ratio);
    put_number(hi, sizeof hi, s->hi, ratio);
    const char *b = ratio && mark > 0 && s->hi > mark ? "**" : "";
    if (strcmp(lo, hi) == 0)
        printf(" %s%s%s |", b, lo, b);
    else
        printf(" %s%s-%s%s |", b, lo, hi, b);
}

static void size_label(char *buf, size_t cap, long long size)
{
    if (size < 0)
        snprintf(buf, cap, "-");
    else
        vine_cli_size_label(buf, cap, size);
}

/* The line above a table: the rank count (when there is one), the metric, the ratio. */
static void caption(const table *t, const char *ref)
{
    if (t->nr == 1)
        printf("%lld ranks; ", t->ranks[0]);
    printf("%s; ratio = algorithm / %s within one file", metric_name[t->m], ref);
    if (t->nfiles > 1)
        printf(", a range: min-max over the files that hold both (%d read)", t->nfiles);
    if (t->mark > 0)
        printf("; bold: above %g", t->mark);
    printf("\n\n");
}

/* The best algorithm of the group g[0..n-1]: the smallest geometric mean of its
 * ratios to the base, ties broken by name; NULL when none has a ratio. */
static const char *best_of(const table *t, const point *g, size_t n, span *sb)
{
    const char *best = NULL;
    double gbest = 0;
    for (size_t i = 0; i < n; i++) {
        const char *algo = g[i].algo;
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++)
            seen = strcmp(g[j].algo, algo) == 0;
        if (seen || strcmp(algo, t->base) == 0 || in_list(t->exclude, algo))
            continue;
        span s = over_files(g, n, algo, t->base);
        double gm = s.n ? s.logsum / s.n : 0;
        if (s.n && (!best || gm < gbest || (gm == gbest && strcmp(algo, best) < 0))) {
            best = algo;
            gbest = gm;
            *sb = s;
        }
    }
    return best;
}

static int print_best(const table *t)
{
    int any = 0;
    for (size_t i = 0; i < t->npts && !any; i++)
        any = strcmp(t->pts[i].algo, t->base) == 0;
    if (!any) {
        fprintf(stderr, "vine table best: no measured %s rows in the files\n", t->base);
        return 1;
    }
    caption(t, t->base);
    const char *rk = t->nr > 1 ? " ranks |" : "", *rka = t->nr > 1 ? " ---: |" : "";
    printf("|%s collective | size | %s (us) | auto | best | ratio |\n", rk, t->base);
    printf("|%s --- | --- | ---: | ---: | --- | ---: |\n", rka);
    for (size_t a = 0, b; a < t->npts; a = b) {
        b = group_end(t, a);
        const point *g = &t->pts[a];
        span base = over_files(g, b - a, t->base, NULL);
        if (!base.n)
            continue;
        span sa = over_files(g, b - a, "auto", t->base), sb = {0, 0, 0, 0};
        const char *best = best_of(t, g, b - a, &sb);
        char lab[32];
        size_label(lab, sizeof lab, g->size);
        printf("|");
        if (t->nr > 1)
            printf(" %d |", g->ranks);
        printf(" %s | %s |", t->colls[g->coll], lab);
        put_span(&base, 0, 0);
        put_span(&sa, 1, t->mark);
        printf(" %s |", best ? best : "-");
        put_span(&sb, 1, t->mark);
        printf("\n");
    }
    return 0;
}

/* The cell of pair q at (ranks, size): its ratios over the files of that group. */
static span pair_cell(const table *t, const pair *q, long long ranks, long long size)
{
    for (size_t a = 0, b; a < t->npts; a = b) {
        b = group_end(t, a);
        const point *g = &t->pts[a];
        if (g->ranks == ranks && g->size == size && strcmp(t->colls[g->coll], q->coll) == 0)
            return over_files(g, b - a, q->algo, q->ref);
    }
    return (span){0, 0, 0, 0};
}

static void print_pairs(const table *t, const long long *sizes, size_t ns)
{
    caption(t, "reference");
    char lab[32];
    printf("|%s collective | algorithm | reference |", t->nr > 1 ? " ranks |" : "");
    for (size_t s = 0; s < ns; s++) {
        size_label(lab, sizeof lab, sizes[s]);
        printf(" %s |", lab);
    }
    printf("\n|%s --- | --- | --- |", t->nr > 1 ? " ---: |" : "");
    for (size_t s = 0; s < ns; s++)
        printf(" ---: |");
    printf("\n");
    for (size_t r = 0; r < t->nr; r++)
        for (const pair *q = t->pairs; q < t->pairs + t->npairs; q++) {
            printf("|");
            if (t->nr > 1)
                printf(" %lld |", t->ranks[r]);
            printf(" %s | %s | %s |", q->coll, q->algo, q->ref);
            for (size_t s = 0; s < ns; s++) {
                span c = pair_cell(t, q, t->ranks[r], sizes[s]);
                put_span(&c, 1, t->mark);
            }
            printf("\n");
        }
}

static int run_pairs(const table *t)
{
    /* The columns: every size of the pairs' collectives. */
    long long *sizes = malloc((t->npts + 1) * sizeof *sizes);
    if (!sizes)
        return out_of_memory("pairs");
    size_t ns = 0;
    for (size_t i = 0; i < t->npts; i++)
        for (int p = 0; p < t->npairs; p++)
            if (strcmp(t->colls[t->pts[i].coll], t->pairs[p].coll) == 0) {
                sizes[ns++] = t->pts[i].size;
                break;
            }
    ns = vine_cli_unique_ll(sizes, ns);
    int any = 0;
    for (size_t r = 0; r < t->nr && !any; r++)
        for (int p = 0; p < t->npairs && !any; p++)
            for (size_t s = 0; s < ns && !any; s++)
                any = pair_cell(t, &t->pairs[p], t->ranks[r], sizes[s]).n > 0;
    if (any)
        print_pairs(t, sizes, ns);
    else
        fprintf(stderr, "vine table pairs: no file holds both rows of a pair at any size\n");
    free(sizes);
    return !any;
}

/* ---- vine table tuning -------------------------------------------------- */

/* The options and the file of `vine table tuning`. */
typedef struct tuning_table {
    const char *file, *colls; /* --in; --coll, NULL for every collective */
    vine_tuning t;
    const vine_tune_rule **rules; /* the rules shown, in the order of the tables */
    int n;
} tuning_table;

/* Checks that every item of the --coll list names a collective; 0 or 2 after a message. */
static int check_colls(const char *list)
{
    for (const char *s = list;; s++) {
        size_t len = strcspn(s, ",");
        char name[32];
        snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name ? len : sizeof name - 1), s);
        if (len == 0 || len >= sizeof name || vine__coll_parse(name) < 0)
            return vine_cli_usage_error("vine table", "tuning",
                                        "--coll %s: '%.*s' is not a collective", list, (int)len, s);
        s += len;
        if (!*s)
            return 0;
    }
}

/*
 * Reads the options of `vine table tuning` into tt.  Returns -1 when the
 * command goes on, else its exit status: 0 after --help, 2 after a message.
 */
static int parse_tuning_opts(int argc, char **argv, tuning_table *tt)
{
    const char *who = "vine table tuning", *in = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            return 0;
        }
        int r = vine_cli_take(who, argv[i], "--in", &i, argc, argv, &in);
        if (r > 0 && tt->file)
            return vine_cli_usage_error("vine table", "tuning", "more than one --in file");
        if (r > 0)
            tt->file = in;
        if (!r)
            r = vine_cli_take(who, argv[i], "--coll", &i, argc, argv, &tt->colls);
        if (r < 0)
            return 2;
        if (!r) {
            usage(stderr);
            return vine_cli_usage_error("vine table", "tuning", "unknown argument '%s'", argv[i]);
        }
    }
    if (!tt->file) {
        usage(stderr);
        return vine_cli_usage_error("vine table", "tuning", "--in is required");
    }
    return tt->colls ? (check_colls(tt->colls) ? 2 : -1) : -1;
}

/* The order of the tables: collective, ops class, inplace class, then ranks. */
static int cmp_rule(const void *a, const void *b)
{
    const vine_tune_rule *x = *(const vine_tune_rule *const *)a;
    const vine_tune_rule *y = *(const vine_tune_rule *const *)b;
    const int kx[4] = {(int)x->coll, x->ops, x->inplace, x->p};
    const int ky[4] = {(int)y->coll, y->ops, y->inplace, y->p};
    for (int k = 0; k < 4; k++)
        if (kx[k] != ky[k])
            return kx[k] < ky[k] ? -1 : 1;
    return 0;
}

/* The line above the tables: where the file was measured, the parts it gives. */
static void tuning_caption(const tuning_table *tt)
{
    const vine_tuning *t = &tt->t;
    printf("%s", tt->file);
    if (*t->mpi_library)
        printf("; %s", t->mpi_library);
    if (*t->date)
        printf("; %s", t->date);
    if (t->ranks)
        printf("; %d ranks", t->ranks);
    if (t->ranks_per_node)
        printf("%s%d per node", t->ranks ? ", " : "; ", t->ranks_per_node);
    if (t->cores)
        printf("%s%d cores per node", t->ranks || t->ranks_per_node ? ", " : "; ", t->cores);
    for (int h = 0; h < t->nhosts && h < 4; h++)
        printf("%s%s", h ? ", " : "; hosts ", t->hosts[h]);
    if (t->nhosts > 4)
        printf(", ... (%d)", t->nhosts);
    if (*t->vine_version)
        printf("; vine %s", t->vine_version);
    printf("\n");
}

/* The size range of g: "8B - 2KiB", one label when min is max, "-" for barrier. */
static void range_label(char *buf, size_t cap, const vine_tune_rule *r, const vine_tune_range *g)
{
    char lo[32], hi[32];
    vine_cli_size_label(lo, sizeof lo, (long long)g->min);
    vine_cli_size_label(hi, sizeof hi, (long long)g->max);
    if (r->coll == VINE_COLL_BARRIER)
        snprintf(buf, cap, "-");
    else if (g->min == g->max)
        snprintf(buf, cap, "%s", lo);
    else
        snprintf(buf, cap, "%s - %s", lo, hi);
}

/* A median in us as put_number writes times, or "-" when the file gives none. */
static void median_label(char *buf, size_t cap, double us)
{
    if (isfinite(us))
        put_number(buf, cap, us, 0);
    else
        snprintf(buf, cap, "-");
}

/* One row of a table: a range of rule r. */
static void tuning_row(const vine_tune_rule *r, const vine_tune_range *g)
{
    char size[80], algo[128], med[32], ru_med[32], margin[32] = "-";
    range_label(size, sizeof size, r, g);
    if (g->segment) {
        char seg[32];
        vine_cli_size_label(seg, sizeof seg, (long long)g->segment);
        snprintf(algo, sizeof algo, "%s, seg %s", g->algo->name, seg);
    } else {
        snprintf(algo, sizeof algo, "%s", g->algo->name);
    }
    median_label(med, sizeof med, g->median_us);
    median_label(ru_med, sizeof ru_med, g->runner_up_us);
    /* The margin needs both medians; a winner of 0 us would divide by zero. */
    if (isfinite(g->median_us) && isfinite(g->runner_up_us) && g->median_us > 0)
        snprintf(margin, sizeof margin, "%.2fx", g->runner_up_us / g->median_us);
    printf("| %d | %s | %s | %s | %s | %s | %s |\n", r->p, size, algo, med,
           g->runner_up ? g->runner_up->name : "-", ru_med, margin);
}

/* The caption of the table of rule r's collective and class: the class when not "any". */
static void class_caption(const vine_tune_rule *r)
{
    printf("\n%s", vine__coll_name(r->coll));
    if (r->ops != VINE_TUNE_OPS_ANY || r->inplace != VINE_TUNE_INPLACE_ANY)
        printf(" (");
    if (r->ops != VINE_TUNE_OPS_ANY)
        printf("ops %s%s", vine__tuning_ops_name(r->ops),
               r->inplace != VINE_TUNE_INPLACE_ANY ? ", " : ")");
    if (r->inplace != VINE_TUNE_INPLACE_ANY)
        printf("inplace %s)", vine__tuning_inplace_name(r->inplace));
    printf("\n\n| ranks | size | algorithm | median (us) | runner-up | median (us) | margin |\n");
    printf("| ---: | --- | --- | ---: | --- | ---: | ---: |\n");
}

/* Prints the tables of the rules chosen; 0, or 1 when there are none. */
static int print_tuning(tuning_table *tt)
{
    const vine_tuning *t = &tt->t;
    tt->rules = malloc(((size_t)t->nrules + 1) * sizeof *tt->rules);
    if (!tt->rules)
        return out_of_memory("tuning");
    for (int i = 0; i < t->nrules; i++)
        if (!tt->colls || in_list(tt->colls, vine__coll_name(t->rules[i].coll)))
            tt->rules[tt->n++] = &t->rules[i];
    if (!tt->n) {
        fprintf(stderr, "vine table tuning: %s has no rules%s%s\n", tt->file,
                tt->colls ? " for " : "", tt->colls ? tt->colls : "");
        return 1;
    }
    qsort(tt->rules, (size_t)tt->n, sizeof *tt->rules, cmp_rule);
    tuning_caption(tt);
    for (int i = 0; i < tt->n; i++) {
        const vine_tune_rule *r = tt->rules[i];
        if (i == 0 || r->coll != tt->rules[i - 1]->coll || r->ops != tt->rules[i - 1]->ops ||
            r->inplace != tt->rules[i - 1]->inplace)
            class_caption(r);
        for (int j = 0; j < r->nranges; j++)
            tuning_row(r, &r->ranges[j]);
    }
    return 0;
}

/* `vine table tuning`: argv[0] is "tuning". */
static int cmd_tuning(int argc, char **argv)
{
    tuning_table tt;
    memset(&tt, 0, sizeof tt);
    vine__tuning_init(&tt.t);
    int status = parse_tuning_opts(argc, argv, &tt);
    char err[512] = "";
    if (status < 0 && vine__tuning_load(&tt.t, tt.file, err, sizeof err) != VINE_OK)
        status = *err ? vine_cli_usage_error("vine table", "tuning", "%s", err)
                      : out_of_memory("tuning");
    if (status < 0)
        status = print_tuning(&tt);
    free(tt.rules);
    vine__tuning_free(&tt.t);
    return status;
}

int vine_cmd_table(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "tuning") == 0)
        return cmd_tuning(argc - 1, argv + 1);
    if (strcmp(cmd, "best") != 0 && strcmp(cmd, "pairs") != 0) {
        usage(stderr);
        return vine_cli_usage_error("vine table", NULL,
                                    "unknown table '%s' (best, pairs or tuning)", cmd);
    }
    table *t = calloc(1, sizeof *t);
    if (!t) {
        fprintf(stderr, "vine table: out of memory\n");
        return 1;
    }
    int status = parse_opts(cmd, argc - 1, argv + 1, t);
    if (status < 0)
        status = load(cmd, t);
    if (status < 0)
        status = strcmp(cmd, "best") == 0 ? print_best(t) : run_pairs(t);
    for (int k = 0; k < t->nread; k++)
        vine__bench_results_free(&t->res[k]);
    free(t->pts);
    free(t->colls);
    free(t);
    return status;
}
