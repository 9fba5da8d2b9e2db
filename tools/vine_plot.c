/*
 * vine plot: SVG plots of vine-bench result files (JSON or CSV, written by
 * `vine-bench coll --json/--csv`, read by src/bench/results.h), drawn by
 * gnuplot.  MPI-free.
 *
 *   vine plot time --in FILE --out OUT.svg [--coll C,...] [--algo A,...]
 *                  [--metric M] [--script FILE]
 *       time (or bandwidth) against size, one line per algorithm, one panel
 *       per collective
 *   vine plot heatmap --in FILE [--in FILE ...] --out OUT.svg [--coll C]
 *                  [--metric M] [--exclude A,...] [--script FILE]
 *       per (ranks, size) cell the best algorithm and its ratio to the
 *       runner-up, after Fig. 8(a) of the Bine trees paper
 *       (../shared/papers/bine-trees.txt, section 5.1.2), from one file per
 *       rank count
 *   vine plot heatmap --in TUNING.json --out OUT.svg [--coll C] [--script FILE]
 *       the same grid from a tuning file (docs/tuning.md, told apart by its
 *       "schema"): per (rule, power-of-two size) the algorithm the file
 *       chooses and the margin of its runner-up
 *
 * The heatmap's table is also printed on stdout.  Exit status: 0, 1 when
 * there is nothing to plot or gnuplot is missing or fails, 2 for bad options
 * or an unreadable result or tuning file.  docs/bench.md describes the plots.
 */
#include "vine_plot.h"
#include "bench/results.h"
#include "cli.h"
#include "select/tuning.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FILES 64
#define MAX_NAMES 64

/* Which number of a row is plotted. */
enum metric { M_MEDIAN, M_MIN, M_MEAN, M_P99, M_MAX, M_ALGBW, M_BUSBW, M_COUNT };

static const char *const metric_name[M_COUNT] = {"median", "min",   "mean", "p99",
                                                 "max",    "algbw", "busbw"};

static double metric_of(const vine_bench_row *x, int m)
{
    const double v[M_COUNT] = {x->median, x->min, x->mean, x->p99, x->max, x->algbw, x->busbw};
    return v[m];
}

static const char *metric_label(int m)
{
    static const char *const l[M_COUNT] = {
        "median time per call (us)",  "minimum time per call (us)",
        "mean time per call (us)",    "99th percentile time per call (us)",
        "maximum time per call (us)", "algbw (GB/s, nccl-tests)",
        "busbw (GB/s, nccl-tests)"};
    return l[m];
}

static void usage(FILE *f)
{
    fprintf(f, "usage: vine plot time --in FILE --out OUT.svg [--coll C,...] [--algo A,...]\n"
               "                 [--metric M] [--script FILE]\n"
               "       vine plot heatmap --in FILE [--in FILE ...] --out OUT.svg [--coll C]\n"
               "                 [--metric M] [--exclude A,...] [--script FILE]\n"
               "       vine plot heatmap --in TUNING --out OUT.svg [--coll C] [--script FILE]\n"
               "  FILE      a result file of 'vine-bench coll --json FILE' or '--csv FILE'\n"
               "  time      M against size, a line per algorithm, a panel per collective\n"
               "            (barrier, which has no size, is left out); default: every\n"
               "            collective and algorithm of the file\n"
               "  heatmap   per (ranks, size) cell the best algorithm by M (a letter, named\n"
               "            in the key) and its ratio to the runner-up (the cell's colour);\n"
               "            one file per rank count; --coll is needed when the files hold\n"
               "            more than one collective; --exclude names algorithms left out\n"
               "            (default: auto, which repeats another algorithm's row)\n"
               "  TUNING    a tuning file of vine-tune (told apart by its \"schema\"): the\n"
               "            heatmap has a row per rule of the collective (--coll; default:\n"
               "            the first rule's), a column per power of two, and in a cell the\n"
               "            algorithm the file chooses there and its runner-up's median over\n"
               "            its own\n"
               "  --metric  median (default), min, mean, p99, max; for 'time' also algbw and\n"
               "            busbw\n"
               "  --script FILE  also write the gnuplot script there\n"
               "Needs gnuplot.  Exits 0, 1 when there is nothing to plot or gnuplot fails,\n"
               "2 for bad options or an unreadable file.\n");
}

/* ---- small helpers ------------------------------------------------------ */

/* A comma-separated list of names, split in place into at most MAX_NAMES. */
typedef struct names {
    char *v[MAX_NAMES];
    int n;
    char *store;
} names;

static int split_names(names *l, const char *s)
{
    free(l->store);
    l->n = 0;
    l->store = strdup(s);
    if (!l->store)
        return -1;
    char *save = NULL;
    for (char *t = strtok_r(l->store, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (l->n == MAX_NAMES)
            return -1;
        l->v[l->n++] = t;
    }
    return 0;
}

static int has_name(const names *l, const char *s)
{
    for (int i = 0; i < l->n; i++)
        if (strcmp(l->v[i], s) == 0)
            return 1;
    return 0;
}

static int parse_metric(const char *s, int allow_bw)
{
    for (int m = 0; m < M_COUNT; m++)
        if (strcmp(s, metric_name[m]) == 0)
            return m >= M_ALGBW && !allow_bw ? -1 : m;
    return -1;
}

/* Is the row plottable: measured, with a size, and a finite metric? */
static int usable(const vine_bench_row *x, int m)
{
    return x->status == VINE_BENCH_ROW_OK && strcmp(x->coll, "barrier") != 0 &&
           isfinite(metric_of(x, m));
}

/* The options of `vine plot time` and `vine plot heatmap`. */
typedef struct plot_opts {
    const char *files[MAX_FILES]; /* --in: one for the time plot */
    int nfiles;
    const char *out, *coll, *algo, *metric, *exclude, *keep;
    int m;           /* the metric */
    int result_opts; /* --metric or --exclude given, which only result files take */
} plot_opts;

/*
 * Reads the options of `vine plot CMD` into o: the heatmap's --in may repeat
 * and it takes --exclude, the time plot takes --algo and the bandwidth
 * metrics.  Returns -1 when the command goes on, else its exit status: 0
 * after --help, 2 after a message.
 */
static int parse_opts(const char *cmd, int argc, char **argv, plot_opts *o)
{
    int heatmap = strcmp(cmd, "heatmap") == 0;
    char who[32];
    snprintf(who, sizeof who, "vine plot %.16s", cmd);
    memset(o, 0, sizeof *o);
    static const char *const opts[] = {"--out", "--coll", "--metric", "--script"};
    const char **slots[] = {&o->out, &o->coll, &o->metric, &o->keep};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            return 0;
        }
        const char *in;
        int r = vine_cli_take(who, argv[i], "--in", &i, argc, argv, &in);
        if (r > 0) {
            if (o->nfiles == (heatmap ? MAX_FILES : 1))
                return heatmap ? vine_cli_usage_error("vine plot", cmd, "more than %d --in files",
                                                      MAX_FILES)
                               : vine_cli_usage_error("vine plot", cmd, "more than one --in file");
            o->files[o->nfiles++] = in;
            continue;
        }
        if (!r)
            r = vine_cli_take_any(who, &i, argc, argv, opts, slots, 4);
        if (!r)
            r = heatmap ? vine_cli_take(who, argv[i], "--exclude", &i, argc, argv, &o->exclude)
                        : vine_cli_take(who, argv[i], "--algo", &i, argc, argv, &o->algo);
        if (r < 0)
            return 2;
        if (!r) {
            usage(stderr);
            return vine_cli_usage_error("vine plot", cmd, "unknown argument '%s'", argv[i]);
        }
    }
    if (!o->nfiles || !o->out) {
        usage(stderr);
        return vine_cli_usage_error("vine plot", cmd, "--in and --out are required");
    }
    /* The defaults come after the options, so that a tuning heatmap can refuse those given. */
    o->result_opts = o->metric || o->exclude;
    o->metric = o->metric ? o->metric : "median";
    o->exclude = o->exclude ? o->exclude : "auto";
    o->m = parse_metric(o->metric, !heatmap);
    if (o->m < 0)
        return vine_cli_usage_error("vine plot", cmd,
                                    "--metric %s: not one of median, min, mean, p99, max%s",
                                    o->metric, heatmap ? "" : ", algbw, busbw");
    return -1;
}

/* ---- vine plot time ----------------------------------------------------- */

/* What the time plot shows. */
typedef struct time_plot {
    const vine_bench_results *r;
    const char *out;
    const names *colls, *algos;
    int m;
} time_plot;

/* The gnuplot script of the time plot (a vine_cli_gp_script). */
static void time_script(FILE *f, const void *arg)
{
    const time_plot *tp = arg;
    const vine_bench_results *r = tp->r;
    const names *colls = tp->colls, *algos = tp->algos;
    const char *out = tp->out;
    int m = tp->m;
    int npanels = colls->n, cols = npanels > 1 ? 2 : 1, rows = (npanels + cols - 1) / cols;
    fprintf(f, "set terminal svg size %d,%d noenhanced font 'sans,11' background rgb 'white'\n",
            560 * cols, 520 * rows + 40);
    fprintf(f, "set output ");
    vine_cli_gp_str(f, out);
    fprintf(f, "\nset logscale xy 2\nset logscale y 10\nset grid\nset format y '%%g'\n");
    fprintf(f, "set key top outside center horizontal font ',9' samplen 2\nset xtics rotate by -45 "
               "font ',9'\n");
    fprintf(f, "set xlabel 'size'\nset ylabel ");
    vine_cli_gp_str(f, metric_label(m));
    fprintf(f, "\nset multiplot layout %d,%d\n", rows, cols);
    static const char *const colour[] = {"#3465a4", "#cc0000", "#4e9a06", "#75507b",
                                         "#c17d11", "#f57900", "#06989a", "#5c3566",
                                         "#8f5902", "#a40000", "#204a87", "#ce5c00"};
    for (int c = 0; c < colls->n; c++) {
        /* The sizes of this panel, for the tics. */
        long long *sizes = malloc(sizeof(long long) * (r->nrows + 1));
        size_t ns = 0;
        for (size_t i = 0; sizes && i < r->nrows; i++)
            if (strcmp(r->rows[i].coll, colls->v[c]) == 0 && usable(&r->rows[i], m) &&
                r->rows[i].size > 0)
                sizes[ns++] = r->rows[i].size;
        ns = sizes ? vine_cli_unique_ll(sizes, ns) : 0;
        char title[256];
        snprintf(title, sizeof title, "%s, %d ranks, %s %s", colls->v[c], r->ranks, r->dtype,
                 r->op);
        fprintf(f, "set title ");
        vine_cli_gp_str(f, title);
        fprintf(f, "\nset xtics (");
        for (size_t k = 0; k < ns; k++) {
            char lab[32];
            vine_cli_size_label(lab, sizeof lab, sizes[k]);
            fprintf(f, "%s'%s' %lld", k ? ", " : "", lab, sizes[k]);
        }
        fprintf(f, ")\n");
        /* A margin of a third of a doubling on either side keeps the end tics inside. */
        if (ns)
            fprintf(f, "set xrange [%.6g:%.6g]\n", sizes[0] / 1.26, sizes[ns - 1] * 1.26);
        free(sizes);
        /* One data block per algorithm, in the file's order. */
        int nseries = 0;
        char *seen[MAX_NAMES * 4];
        for (size_t i = 0; i < r->nrows; i++) {
            const vine_bench_row *x = &r->rows[i];
            if (strcmp(x->coll, colls->v[c]) != 0 || !usable(x, m) || x->size <= 0 ||
                (algos->n && !has_name(algos, x->algo)))
                continue;
            int known = 0;
            for (int k = 0; k < nseries; k++)
                known |= strcmp(seen[k], x->algo) == 0;
            if (known || nseries == (int)(sizeof seen / sizeof seen[0]))
                continue;
            seen[nseries] = (char *)x->algo;
            fprintf(f, "$p%d_%d << EOD\n", c, nseries);
            for (size_t j = i; j < r->nrows; j++) {
                const vine_bench_row *y = &r->rows[j];
                if (strcmp(y->coll, x->coll) == 0 && strcmp(y->algo, x->algo) == 0 &&
                    usable(y, m) && y->size > 0 && metric_of(y, m) > 0)
                    fprintf(f, "%lld %.9g\n", y->size, metric_of(y, m));
            }
            fprintf(f, "EOD\n");
            nseries++;
        }
        fprintf(f, "plot ");
        for (int k = 0; k < nseries; k++) {
            int mpi = strcmp(seen[k], "mpi") == 0;
            fprintf(f, "%s$p%d_%d using 1:2 with linespoints ", k ? ", \\\n  " : "", c, k);
            if (mpi)
                fprintf(f, "lw 2 pt 7 lc rgb '#000000'");
            else
                fprintf(f, "lw 1.5 pt %d lc rgb '%s'", 1 + k % 12, colour[k % 12]);
            fprintf(f, " title ");
            vine_cli_gp_str(f, seen[k]);
        }
        if (nseries == 0) /* gnuplot refuses an empty plot: an empty frame says so */
            fprintf(f, "1/0 title 'no measured rows'");
        fprintf(f, "\n");
    }
    fprintf(f, "unset multiplot\n");
}

static int cmd_time(int argc, char **argv)
{
    plot_opts o;
    int rc = parse_opts("time", argc, argv, &o);
    if (rc >= 0)
        return rc;
    const char *in = o.files[0], *out = o.out, *collv = o.coll, *algov = o.algo, *keep = o.keep;
    int m = o.m;
    names colls = {{0}, 0, NULL}, algos = {{0}, 0, NULL};
    if ((collv && split_names(&colls, collv)) || (algov && split_names(&algos, algov))) {
        free(colls.store);
        free(algos.store);
        return vine_cli_usage_error("vine plot", "time", "too many names in --coll or --algo");
    }
    vine_bench_results r;
    char err[512];
    if (vine__bench_read(&r, in, err, sizeof err) != 0) {
        free(colls.store);
        free(algos.store);
        /* The result loader's message would not say what the file is. */
        if (vine_cli_is_tuning(in))
            return vine_cli_usage_error("vine plot", "time",
                                        "%s is a tuning file: 'vine plot heatmap --in %s' draws it",
                                        in, in);
        return vine_cli_usage_error("vine plot", "time", "%s", err);
    }
    /* Default: every collective of the file with a usable row, in the file's order. */
    int status = 0;
    for (size_t i = 0; !collv && i < r.nrows; i++)
        if (usable(&r.rows[i], m) && !has_name(&colls, r.rows[i].coll) && colls.n < MAX_NAMES)
            colls.v[colls.n++] = r.rows[i].coll;
    for (int c = 0; c < colls.n && !status; c++) {
        int any = 0;
        for (size_t i = 0; i < r.nrows; i++)
            any |= strcmp(r.rows[i].coll, colls.v[c]) == 0 && usable(&r.rows[i], m) &&
                   r.rows[i].size > 0 && (!algos.n || has_name(&algos, r.rows[i].algo));
        if (!any) {
            fprintf(stderr, "vine plot time: %s has no measured %s row with a size%s\n", in,
                    colls.v[c], algos.n ? " for the chosen algorithms" : "");
            status = 1;
        }
    }
    if (!status && colls.n == 0) {
        fprintf(stderr, "vine plot time: %s has no measured row with a size\n", in);
        status = 1;
    }
    if (!status)
        status = vine_cli_need_gnuplot("vine plot time", NULL);
    if (!status) {
        time_plot tp = {&r, out, &colls, &algos, m};
        status = vine_cli_gnuplot("vine plot time", out, keep, time_script, &tp);
    }
    free(colls.store);
    free(algos.store);
    vine__bench_results_free(&r);
    return status;
}

/* ---- vine plot heatmap -------------------------------------------------- */

/*
 * The heatmap is drawn from a grid of cells whichever input fed it, result
 * files (the measured winner of each (ranks, size)) or a tuning file (the
 * algorithm its rules choose there), so that both look and print alike.
 */

/* One cell of the heatmap: the winner and the runner-up at (row, size). */
typedef struct cell {
    const char *best, *second;    /* best NULL: nothing there; second NULL: no runner-up */
    double vbest, vsecond, ratio; /* NAN when not known; ratio = vsecond / vbest */
} cell;

/* A row's label: its rank count, and for a tuning file its rule's class. */
typedef char row_label[64];

/* What the heatmap shows: nr x ns cells, the letters of the nw winners. */
typedef struct heatmap_plot {
    const char *out;
    char title[256];   /* the first line of the plot's title */
    char heading[512]; /* the line above the printed table */
    const char *vname; /* what the values are, in the table's header */
    cell *cells;
    row_label *rows;
    long long *sizes;
    size_t nr, ns;
    const char **winners;
    int nw;
} heatmap_plot;

static void heatmap_free(heatmap_plot *hp)
{
    free(hp->cells);
    free(hp->rows);
    free(hp->sizes);
    free(hp->winners);
}

/* Allocates the cells, row labels and winners of hp (nr and ns set); 0, or 1 after a message. */
static int grid_alloc(heatmap_plot *hp)
{
    hp->cells = calloc(hp->nr * hp->ns + 1, sizeof *hp->cells);
    hp->rows = calloc(hp->nr + 1, sizeof *hp->rows);
    hp->winners = malloc((hp->nr * hp->ns + 1) * sizeof *hp->winners);
    if (hp->cells && hp->rows && hp->winners)
        return 0;
    fprintf(stderr, "vine plot heatmap: out of memory\n");
    return 1;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The letter of algorithm k of the key: A..Z, then a..z. */
static char letter(int k)
{
    return (char)(k < 26 ? 'A' + k : 'a' + (k - 26) % 26);
}

static int letter_of(const char **winners, int nw, const char *algo)
{
    for (int k = 0; k < nw; k++)
        if (strcmp(winners[k], algo) == 0)
            return k;
    return 0;
}

/* The winners of the cells, each once and sorted by name, so that the letters follow names. */
static void find_winners(heatmap_plot *hp)
{
    hp->nw = 0;
    for (size_t i = 0; i < hp->nr * hp->ns; i++) {
        const char *b = hp->cells[i].best;
        int known = 0;
        for (int k = 0; b && k < hp->nw && !known; k++)
            known = strcmp(hp->winners[k], b) == 0;
        if (b && !known)
            hp->winners[hp->nw++] = b;
    }
    qsort(hp->winners, (size_t)hp->nw, sizeof *hp->winners, cmp_str);
}

/* A value of the printed table: dec decimals, "-" when not known. */
static void put_value(double v, int width, int dec)
{
    if (isfinite(v))
        printf("%*.*f", width, dec, v);
    else
        printf("%*s", width, "-");
}

/* Prints the cells as a table on stdout, a line per cell with a winner. */
static void print_cells(const heatmap_plot *hp)
{
    int w = 6;
    for (size_t y = 0; y < hp->nr; y++)
        w = (int)strlen(hp->rows[y]) > w ? (int)strlen(hp->rows[y]) : w;
    printf("%s\n", hp->heading);
    printf("%*s %8s %-24s %12s %-24s %12s %7s\n", w, "ranks", "size", "best", hp->vname,
           "runner-up", hp->vname, "ratio");
    for (size_t y = 0; y < hp->nr; y++)
        for (size_t x = 0; x < hp->ns; x++) {
            const cell *c = &hp->cells[y * hp->ns + x];
            char lab[32];
            if (!c->best)
                continue;
            vine_cli_size_label(lab, sizeof lab, hp->sizes[x]);
            printf("%*s %8s %c %-22s ", w, hp->rows[y], lab,
                   letter(letter_of(hp->winners, hp->nw, c->best)), c->best);
            put_value(c->vbest, 12, 3);
            printf(" %-24s ", c->second ? c->second : "-");
            put_value(c->second ? c->vsecond : NAN, 12, 3);
            printf(" ");
            put_value(c->ratio, 7, 2);
            printf("\n");
        }
}

/* The axes and colours of the heatmap's script. */
static void heatmap_axes(FILE *f, const heatmap_plot *hp)
{
    double top = 1.05;
    for (size_t i = 0; i < hp->nr * hp->ns; i++)
        if (isfinite(hp->cells[i].ratio) && hp->cells[i].ratio > top)
            top = hp->cells[i].ratio;
    fprintf(f, "\nset xlabel 'size'\nset ylabel 'ranks'\nset cblabel 'runner-up / best'\n");
    fprintf(f, "set xrange [-0.5:%zu.5]\nset yrange [-0.5:%zu.5]\n", hp->ns - 1, hp->nr - 1);
    fprintf(f, "set xtics rotate by -45 (");
    for (size_t x = 0; x < hp->ns; x++) {
        char lab[32];
        vine_cli_size_label(lab, sizeof lab, hp->sizes[x]);
        fprintf(f, "%s'%s' %zu", x ? ", " : "", lab, x);
    }
    fprintf(f, ")\nset ytics (");
    for (size_t y = 0; y < hp->nr; y++) {
        fprintf(f, "%s", y ? ", " : "");
        vine_cli_gp_str(f, hp->rows[y]);
        fprintf(f, " %zu", y);
    }
    fprintf(f, ")\nset cbrange [1:%.6g]\n", top);
    fprintf(f, "set palette defined (0 '#ffffff', 0.5 '#fdae6b', 1 '#d94801')\n");
    fprintf(f, "set key outside right top vertical Left reverse samplen 0 font ',9'\n");
    fprintf(f, "set tics nomirror\n");
}

/* The gnuplot script of the heatmap (a vine_cli_gp_script). */
static void heatmap_script(FILE *f, const void *arg)
{
    const heatmap_plot *hp = arg;
    size_t nr = hp->nr, ns = hp->ns;
    int w = 300 + 46 * (int)ns, h = 180 + 40 * (int)nr;
    fprintf(f, "set terminal svg size %d,%d noenhanced font 'sans,10' background rgb 'white'\n",
            w < 560 ? 560 : w, h < 320 ? 320 : h);
    fprintf(f, "set output ");
    vine_cli_gp_str(f, hp->out);
    fprintf(f, "\nset title ");
    vine_cli_gp_str(f, hp->title);
    fprintf(f, " . \"\\nand the runner-up's time / its time (number, colour)\"");
    heatmap_axes(f, hp);
    fprintf(f, "$cells << EOD\n");
    for (size_t y = 0; y < nr; y++)
        for (size_t x = 0; x < ns; x++) {
            const cell *c = &hp->cells[y * ns + x];
            if (!c->best)
                continue;
            char num[32] = "-";
            if (isfinite(c->ratio))
                snprintf(num, sizeof num, "%.2f", c->ratio);
            fprintf(f, "%zu %zu %.6g \"%c\" \"%s\"\n", x, y, isfinite(c->ratio) ? c->ratio : 1.0,
                    letter(letter_of(hp->winners, hp->nw, c->best)), num);
        }
    fprintf(f, "EOD\n");
    fprintf(f, "plot $cells using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder "
               "fc palette notitle, \\\n"
               "  $cells using 1:($2+0.17):4 with labels font ',10' notitle, \\\n"
               "  $cells using 1:($2-0.2):5 with labels font ',8' notitle");
    for (int k = 0; k < hp->nw; k++) {
        char key[128];
        snprintf(key, sizeof key, "%c  %s", letter(k), hp->winners[k]);
        fprintf(f, ", \\\n  keyentry title ");
        vine_cli_gp_str(f, key);
    }
    fprintf(f, "\n");
}

/* Prints the table of the cells and draws them; the exit status. */
static int draw_heatmap(heatmap_plot *hp, const char *keep)
{
    find_winners(hp);
    print_cells(hp);
    int status = vine_cli_need_gnuplot("vine plot heatmap", NULL);
    if (!status)
        status = vine_cli_gnuplot("vine plot heatmap", hp->out, keep, heatmap_script, hp);
    return status;
}

/* ---- the heatmap of result files ---------------------------------------- */

/* One measured value: an algorithm at (ranks, size). */
typedef struct point {
    long long ranks, size;
    const char *algo;
    const char *file;
    double v;
} point;

/* Collects the points of coll from every file; returns 0, or 2 after a message. */
static int collect(vine_bench_results *res, const char *const *files, int nfiles, const char *coll,
                   const names *exclude, int m, point **pts, size_t *npts)
{
    size_t cap = 0;
    *pts = NULL;
    *npts = 0;
    for (int k = 0; k < nfiles; k++) {
        for (size_t i = 0; i < res[k].nrows; i++) {
            const vine_bench_row *x = &res[k].rows[i];
            if (strcmp(x->coll, coll) != 0 || !usable(x, m) || has_name(exclude, x->algo))
                continue;
            for (size_t j = 0; j < *npts; j++) {
                point *q = &(*pts)[j];
                if (q->ranks == res[k].ranks && q->size == x->size && !strcmp(q->algo, x->algo))
                    return vine_cli_usage_error("vine plot", "heatmap",
                                                "%s and %s both hold %s %s at %d ranks and "
                                                "%lld bytes: give one file per rank count",
                                                q->file, files[k], coll, x->algo, res[k].ranks,
                                                x->size);
            }
            if (*npts == cap) {
                cap = cap ? 2 * cap : 256;
                point *p = realloc(*pts, cap * sizeof *p);
                if (!p) {
                    fprintf(stderr, "vine plot heatmap: out of memory\n");
                    return 1;
                }
                *pts = p;
            }
            (*pts)[(*npts)++] = (point){res[k].ranks, x->size, x->algo, files[k], metric_of(x, m)};
        }
    }
    return 0;
}

/* The cells of the grid ranks x hp->sizes: the best point and the runner-up of each. */
static void make_cells(const point *pts, size_t npts, const long long *ranks, heatmap_plot *hp)
{
    for (size_t y = 0; y < hp->nr; y++)
        for (size_t x = 0; x < hp->ns; x++) {
            cell *c = &hp->cells[y * hp->ns + x];
            memset(c, 0, sizeof *c);
            c->ratio = NAN;
            for (size_t i = 0; i < npts; i++) {
                const point *p = &pts[i];
                if (p->ranks != ranks[y] || p->size != hp->sizes[x])
                    continue;
                /* Ties keep the earlier row, so that the order of the files decides. */
                if (!c->best || p->v < c->vbest) {
                    c->second = c->best;
                    c->vsecond = c->vbest;
                    c->best = p->algo;
                    c->vbest = p->v;
                } else if (!c->second || p->v < c->vsecond) {
                    c->second = p->algo;
                    c->vsecond = p->v;
                }
            }
            if (c->best && c->second && c->vbest > 0)
                c->ratio = c->vsecond / c->vbest;
        }
}

/* The grid of the points: a row per rank count, a column per size; 0, or 1 after a message. */
static int results_grid(const point *pts, size_t npts, heatmap_plot *hp)
{
    long long *ranks = malloc(npts * sizeof *ranks);
    hp->sizes = malloc(npts * sizeof *hp->sizes);
    int status = ranks && hp->sizes ? 0 : 1;
    if (status)
        fprintf(stderr, "vine plot heatmap: out of memory\n");
    for (size_t i = 0; !status && i < npts; i++) {
        ranks[i] = pts[i].ranks;
        hp->sizes[i] = pts[i].size;
    }
    if (!status) {
        hp->nr = vine_cli_unique_ll(ranks, npts);
        hp->ns = vine_cli_unique_ll(hp->sizes, npts);
        status = grid_alloc(hp);
    }
    for (size_t y = 0; !status && y < hp->nr; y++)
        snprintf(hp->rows[y], sizeof hp->rows[y], "%lld", ranks[y]);
    if (!status)
        make_cells(pts, npts, ranks, hp);
    free(ranks);
    return status;
}

/* Reads the result files into res, counting them in *nread; 0, or 2 after a message. */
static int read_results(const plot_opts *o, vine_bench_results *res, int *nread)
{
    for (; *nread < o->nfiles; (*nread)++) {
        char err[512];
        if (vine__bench_read(&res[*nread], o->files[*nread], err, sizeof err) != 0)
            return vine_cli_usage_error("vine plot", "heatmap", "%s", err);
    }
    return 0;
}

/* The collective: --coll, or the only one with measured rows; 0, or 2 after a message. */
static int pick_coll(const plot_opts *o, const vine_bench_results *res, const char **coll)
{
    *coll = o->coll;
    for (int k = 0; !o->coll && k < o->nfiles; k++)
        for (size_t i = 0; i < res[k].nrows; i++) {
            const vine_bench_row *x = &res[k].rows[i];
            if (!usable(x, o->m))
                continue;
            if (*coll && strcmp(*coll, x->coll) != 0)
                return vine_cli_usage_error("vine plot", "heatmap",
                                            "the files hold %s and %s: choose one with --coll",
                                            *coll, x->coll);
            *coll = x->coll;
        }
    return 0;
}

/* The heatmap of result files: per (ranks, size) the measured winner. */
static int results_heatmap(const plot_opts *o)
{
    names exclude = {{0}, 0, NULL};
    if (split_names(&exclude, o->exclude))
        return vine_cli_usage_error("vine plot", "heatmap", "too many names in --exclude");
    vine_bench_results *res = calloc((size_t)o->nfiles, sizeof *res);
    int nread = 0, status = res ? read_results(o, res, &nread) : 1;
    const char *coll = NULL;
    if (!status)
        status = pick_coll(o, res, &coll);
    point *pts = NULL;
    size_t npts = 0;
    if (!status && coll)
        status = collect(res, o->files, o->nfiles, coll, &exclude, o->m, &pts, &npts);
    if (!status && npts == 0) {
        fprintf(stderr, "vine plot heatmap: no measured %s rows in the files\n", coll ? coll : "");
        status = 1;
    }
    heatmap_plot hp;
    memset(&hp, 0, sizeof hp);
    if (!status)
        status = results_grid(pts, npts, &hp);
    if (!status) {
        hp.out = o->out;
        hp.vname = metric_name[o->m];
        snprintf(hp.title, sizeof hp.title, "%s: the fastest algorithm by %s time (letter)", coll,
                 metric_name[o->m]);
        snprintf(hp.heading, sizeof hp.heading,
                 "# %s: per (ranks, size) the best algorithm by %s and the runner-up; "
                 "ratio = runner-up / best",
                 coll, metric_name[o->m]);
        status = draw_heatmap(&hp, o->keep);
    }
    heatmap_free(&hp);
    free(pts);
    for (int k = 0; k < nread; k++)
        vine__bench_results_free(&res[k]);
    free(res);
    free(exclude.store);
    return status;
}

/* ---- the heatmap of a tuning file ---------------------------------------- */

/* A cell's algorithm with its segment size ("ring seg 64KiB"): the key's names. */
typedef char algo_label[96];

/* The rows of a tuning heatmap: by ranks, then by class. */
static int cmp_rule(const void *a, const void *b)
{
    const vine_tune_rule *x = *(const vine_tune_rule *const *)a;
    const vine_tune_rule *y = *(const vine_tune_rule *const *)b;
    const int kx[3] = {x->p, x->ops, x->inplace}, ky[3] = {y->p, y->ops, y->inplace};
    for (int k = 0; k < 3; k++)
        if (kx[k] != ky[k])
            return kx[k] < ky[k] ? -1 : 1;
    return 0;
}

/* A row's label: "16", or with the rule's class when not "any", "16 (ops commutative)". */
static void rule_label(row_label lab, const vine_tune_rule *r)
{
    int ops = r->ops != VINE_TUNE_OPS_ANY, inplace = r->inplace != VINE_TUNE_INPLACE_ANY;
    snprintf(lab, sizeof(row_label), "%d%s%s%s%s%s%s", r->p, ops || inplace ? " (" : "",
             ops ? "ops " : "", ops ? vine__tuning_ops_name(r->ops) : "",
             ops && inplace ? ", " : "", inplace ? "inplace " : "",
             inplace ? vine__tuning_inplace_name(r->inplace) : "");
    if (ops || inplace)
        strncat(lab, ")", sizeof(row_label) - strlen(lab) - 1);
}

/*
 * The columns: the powers of two from the smallest min of the rules' ranges
 * to the largest max, or that min alone when no power of two lies between
 * (barrier's 0 bytes).  0, or 1 after a message.
 */
static int tuning_sizes(heatmap_plot *hp, const vine_tune_rule *const *rules)
{
    long long lo = -1, hi = 0;
    for (size_t y = 0; y < hp->nr; y++)
        for (int j = 0; j < rules[y]->nranges; j++) {
            const vine_tune_range *g = &rules[y]->ranges[j];
            lo = lo < 0 || (long long)g->min < lo ? (long long)g->min : lo;
            hi = (long long)g->max > hi ? (long long)g->max : hi;
        }
    hp->sizes = malloc(64 * sizeof *hp->sizes);
    if (!hp->sizes) {
        fprintf(stderr, "vine plot heatmap: out of memory\n");
        return 1;
    }
    hp->ns = 0;
    for (int k = 0; k < 63 && (1LL << k) <= hi; k++)
        if ((1LL << k) >= lo)
            hp->sizes[hp->ns++] = 1LL << k;
    if (!hp->ns)
        hp->sizes[hp->ns++] = lo;
    return 0;
}

/*
 * The cells: per rule and size the range that auto's lookup finds there
 * (vine__tuning_range, which also serves sizes in gaps and outside the
 * ranges), its winner with the segment, and the medians the file gives.
 */
static void tuning_cells(heatmap_plot *hp, const vine_tune_rule *const *rules, algo_label *labels)
{
    for (size_t y = 0; y < hp->nr; y++)
        for (size_t x = 0; x < hp->ns; x++) {
            size_t i = y * hp->ns + x;
            const vine_tune_range *g = vine__tuning_range(rules[y], (size_t)hp->sizes[x]);
            char seg[32];
            vine_cli_size_label(seg, sizeof seg, (long long)g->segment);
            snprintf(labels[i], sizeof labels[i], "%s%s%s", g->algo->name,
                     g->segment ? " seg " : "", g->segment ? seg : "");
            cell *c = &hp->cells[i];
            c->best = labels[i];
            c->second = g->runner_up ? g->runner_up->name : NULL;
            c->vbest = g->median_us;
            c->vsecond = g->runner_up_us;
            c->ratio = isfinite(g->median_us) && isfinite(g->runner_up_us) && g->median_us > 0
                           ? g->runner_up_us / g->median_us
                           : NAN;
        }
}

/* The collective of a tuning heatmap: --coll, or that of the file's first rule; -1 after a
 * message (exit status 2). */
static int tuning_coll(const plot_opts *o, const vine_tuning *t)
{
    int c = o->coll ? vine__coll_parse(o->coll) : t->nrules ? (int)t->rules[0].coll : -1;
    if (o->coll && c < 0)
        vine_cli_usage_error("vine plot", "heatmap", "--coll %s: not a collective", o->coll);
    return c;
}

/* The grid of coll's rules in t; 0, or 1 after a message. */
static int tuning_grid(const plot_opts *o, const vine_tuning *t, int coll, heatmap_plot *hp,
                       algo_label **labels)
{
    const vine_tune_rule **rules = malloc(((size_t)t->nrules + 1) * sizeof *rules);
    int status = rules ? 0 : 1;
    if (status)
        fprintf(stderr, "vine plot heatmap: out of memory\n");
    for (int i = 0; rules && i < t->nrules; i++)
        if ((int)t->rules[i].coll == coll)
            rules[hp->nr++] = &t->rules[i];
    if (rules && !hp->nr) {
        fprintf(stderr, "vine plot heatmap: %s has no rules for %s\n", o->files[0],
                coll >= 0 ? vine__coll_name((vine_coll)coll) : "any collective");
        status = 1;
    }
    if (!status) {
        qsort(rules, hp->nr, sizeof *rules, cmp_rule);
        status = tuning_sizes(hp, rules);
    }
    if (!status)
        status = grid_alloc(hp);
    if (!status && !(*labels = calloc(hp->nr * hp->ns, sizeof **labels))) {
        fprintf(stderr, "vine plot heatmap: out of memory\n");
        status = 1;
    }
    for (size_t y = 0; !status && y < hp->nr; y++)
        rule_label(hp->rows[y], rules[y]);
    if (!status)
        tuning_cells(hp, rules, *labels);
    free(rules);
    return status;
}

/* The heatmap of a tuning file: per (rule, size) the algorithm the file chooses. */
static int tuning_heatmap(const plot_opts *o)
{
    const char *file = o->files[0];
    /* The tuning file holds one median per range: there is no metric or row to leave out. */
    if (o->result_opts)
        return vine_cli_usage_error("vine plot", "heatmap",
                                    "--metric and --exclude do not apply to a tuning file (%s)",
                                    file);
    vine_tuning t;
    vine__tuning_init(&t);
    char err[512] = "";
    int status = 0, coll = -1;
    if (vine__tuning_load(&t, file, err, sizeof err) != VINE_OK) {
        /* Only running out of memory leaves no message. */
        status = *err ? vine_cli_usage_error("vine plot", "heatmap", "%s", err) : 1;
        if (status == 1)
            fprintf(stderr, "vine plot heatmap: out of memory\n");
    }
    if (!status && (coll = tuning_coll(o, &t)) < 0 && o->coll)
        status = 2;
    heatmap_plot hp;
    memset(&hp, 0, sizeof hp);
    algo_label *labels = NULL;
    if (!status)
        status = tuning_grid(o, &t, coll, &hp, &labels);
    if (!status) {
        const char *name = vine__coll_name((vine_coll)coll), *base = strrchr(file, '/');
        hp.out = o->out;
        hp.vname = "median";
        snprintf(hp.title, sizeof hp.title, "%s: the algorithm of %s (letter)", name,
                 base ? base + 1 : file);
        snprintf(hp.heading, sizeof hp.heading,
                 "# %s: per (ranks, size) the algorithm of the tuning file %s and the runner-up, "
                 "with the medians of the range that serves the size; ratio = runner-up / best",
                 name, file);
        status = draw_heatmap(&hp, o->keep);
    }
    heatmap_free(&hp);
    free(labels);
    vine__tuning_free(&t);
    return status;
}

static int cmd_heatmap(int argc, char **argv)
{
    plot_opts o;
    int rc = parse_opts("heatmap", argc, argv, &o);
    if (rc >= 0)
        return rc;
    /* A tuning file is told apart by its "schema" even when broken, for the loader's message. */
    for (int k = 0; k < o.nfiles; k++)
        if (vine_cli_is_tuning(o.files[k]))
            return o.nfiles == 1 ? tuning_heatmap(&o)
                                 : vine_cli_usage_error("vine plot", "heatmap",
                                                        "%s is a tuning file, which is drawn "
                                                        "alone (one --in)",
                                                        o.files[k]);
    return results_heatmap(&o);
}

int vine_cmd_plot(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (strcmp(argv[1], "time") == 0)
        return cmd_time(argc - 1, argv + 1);
    if (strcmp(argv[1], "heatmap") == 0)
        return cmd_heatmap(argc - 1, argv + 1);
    usage(stderr);
    return vine_cli_usage_error("vine plot", NULL, "unknown plot '%s' (time or heatmap)", argv[1]);
}
