/*
 * vine: the MPI-free command-line tool of the vine library.
 *
 *   vine list [--coll C]            the algorithm registry
 *   vine verify --coll C ...        the symbolic verifier over a sweep of cases
 *   vine dump --coll C --algo A ... every rank's schedule of one case
 *
 * It links only the MPI-free core.  docs/verify.md describes the verifier and
 * the options; `vine --help` and `vine verify --help` summarise them.
 */
#include "cli.h"
#include "coll/coll.h"
#include "sched/verify.h"
#include "vine_bbs.h"
#include "vine_plot.h"
#include "vine_sim.h"
#include "vine_table.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __GLIBC__
#include <malloc.h>
#endif

#define STANDARD_RANKS "1-64,100,127,128,129,255,256,1000,1024"
#define STANDARD_COUNTS "0,1,p-1,p,p+1,1000,4099"
/* Region sizes for shared-memory algorithms: chunked through a small region, and in one go. */
#define STANDARD_SHM_COUNTS "64,1000000"

static const char *prog = "vine";

static void usage_main(FILE *f)
{
    fprintf(f,
            "usage: %s <command> [options]\n"
            "commands:\n"
            "  list [--coll C]       list the algorithms (collective, name, restrictions, "
            "description)\n"
            "  verify --coll C ...   prove schedules correct for a sweep of cases\n"
            "  dump --coll C --algo A --ranks P --count N [--root R] ...\n"
            "                        print every rank's schedule of one case\n"
            "  sim traffic|allocations ...\n"
            "                        replay algorithms on a network model (no MPI)\n"
            "  bbs table|plot ...    the BBS broadcast step model (no MPI)\n"
            "  plot time|heatmap ... draw vine-bench result files (heatmap: tuning files\n"
            "                        too) as SVG (gnuplot)\n"
            "  table best|pairs|tuning ...\n"
            "                        Markdown tables of vine-bench result files (ratios)\n"
            "                        and of tuning files (docs/bench.md)\n"
            "Run '%s verify --help' for the verifier's options.\n",
            prog, prog);
}

static void usage_verify(FILE *f)
{
    fprintf(f,
            "usage: %s verify --coll C[,C...]|all [--algo A[,A...]|all] [--ranks LIST]\n"
            "       [--count LIST] [--root LIST|all] [--noncommutative]\n"
            "       [--inplace yes|no|both] [--seg N] [--levels SPEC [--remap]]\n"
            "       [--shm-count LIST] [--shm-single yes|no|both]\n"
            "       [--dist D[,D...]|all] [--gaps yes|no|both] [-v]\n"
            "  --coll      bcast, reduce, allreduce, allgather, reduce_scatter,\n"
            "              reduce_scatter_block, alltoall, gather, scatter, barrier,\n"
            "              allgatherv, alltoallv, alltoallw, gatherv, scatterv, scan,\n"
            "              exscan, or all\n"
            "  --algo      algorithm names (see '%s list'); default all\n"
            "  --ranks     communicator sizes; default " STANDARD_RANKS "\n"
            "  --count     counts; items p, p-1, p+1 (p+N, p-N) are taken per size;\n"
            "              default " STANDARD_COUNTS "; barrier ignores the count\n"
            "              and runs once per size, at the largest\n"
            "  --root      roots (items >= p are skipped); default every root when\n"
            "              p <= 16, else 0,1,p/2,p-1\n"
            "  --noncommutative  reductions must combine in rank order; algorithms\n"
            "              for commutative ops only are skipped\n"
            "  --inplace   MPI_IN_PLACE forms to check; default both\n"
            "  --seg N     segment size in elements for pipelined algorithms\n"
            "  --levels SPEC  a synthetic level map, made for each size, for the\n"
            "              hierarchical algorithms (skipped without one): flat, or\n"
            "              levels joined by '/': block:N[,N..], cyclic:N[,N..],\n"
            "              sizes:N,N.., random:SEED:N[,N..], ids:I,I..\n"
            "              (docs/hierarchical.md), e.g. sizes:1,3,5,7/block:2;\n"
            "              node= marks the node, the levels before it lie inside\n"
            "              it (NUMA domains), e.g. block:2/node=block:4\n"
            "  --remap     run flat bcast, reduce, allreduce and barrier algorithms\n"
            "              on the ranks in block order of the --levels map\n"
            "  --shm-count LIST  elements of each rank's shared-memory region, for\n"
            "              every algorithm; default " STANDARD_SHM_COUNTS " for the shm\n"
            "              algorithms (skipped without a region), 0 for the others\n"
            "  --shm-single  peers' send and recv buffers readable (single copy);\n"
            "              default both for the shm algorithms, no for the others\n"
            "  --dist      the v collectives' blocks, from the count c: uniform (c\n"
            "              each), irregular (c (7i mod 5)/2), zero, one (rank p-1\n"
            "              holds everything), random (0..2c); default all\n"
            "  --gaps      v collectives: blocks packed in rank order (no), in\n"
            "              reversed order with gaps (yes); default both\n"
            "  -v          print passing and skipped cases too\n"
            "LIST: comma-separated integers and ranges a-b, e.g. 1-64,100,p-1.\n"
            "Schedules that use shared memory are checked over two calls in a row.\n"
            "Prints one line per failing case, then 'N passed, M failed, K skipped';\n"
            "exits 1 when a case fails, 2 on bad options.\n",
            prog, prog);
}

static void usage_dump(FILE *f)
{
    fprintf(f,
            "usage: %s dump --coll C --algo A --ranks P --count N [--root R]\n"
            "       [--rank R] [--inplace yes|no] [--noncommutative] [--seg N]\n"
            "       [--levels SPEC [--remap]] [--shm-count N] [--shm-single yes|no]\n"
            "       [--dist D] [--gaps yes|no]\n"
            "Prints the schedule of every rank (or of --rank R only).  barrier\n"
            "ignores --count and may leave it out.  --levels gives the level map of\n"
            "the hierarchical algorithms (see '%s verify --help').  --shm-count: the\n"
            "elements of each rank's shared-memory region (default 64 for the shm\n"
            "algorithms, else 0); --shm-single: peers' buffers readable (default no).\n"
            "The v collectives take one --dist (default uniform) and --gaps yes|no\n"
            "(default no): see '%s verify --help'.\n",
            prog, prog, prog);
}

/* One item of a list: the integers lo..hi, plus p when prel is set. */
typedef struct item {
    long long lo, hi;
    int prel;
} item;

typedef struct list {
    item *it;
    size_t n;
    int all; /* the word "all" */
} list;

/* The integers of a list for communicator size p, sorted, unique, >= 0. */
typedef struct vals {
    long long *v;
    size_t n, cap;
} vals;

static int parse_ll(const char *s, const char *end, long long *out)
{
    if (s == end || *s < '0' || *s > '9' || end - s > 18)
        return -1;
    long long x = 0;
    for (; s < end; s++) {
        if (*s < '0' || *s > '9')
            return -1;
        x = 10 * x + (*s - '0');
    }
    *out = x;
    return 0;
}

/* Parses "12", "3-9", "p", "p-1", "p+2" (the p forms only when prel_ok). */
static int parse_item(const char *s, const char *end, int prel_ok, item *it)
{
    const char *dash = memchr(s, '-', (size_t)(end - s));
    it->prel = 0;
    if (s < end && *s == 'p') {
        long long d = 0;
        if (!prel_ok)
            return -1;
        if (end - s > 1 && ((s[1] != '-' && s[1] != '+') || parse_ll(s + 2, end, &d)))
            return -1;
        it->prel = 1;
        it->lo = it->hi = end - s > 1 && s[1] == '-' ? -d : d;
        return 0;
    }
    if (!dash)
        return parse_ll(s, end, &it->lo) ? -1 : (it->hi = it->lo, 0);
    if (parse_ll(s, dash, &it->lo) || parse_ll(dash + 1, end, &it->hi) || it->hi < it->lo)
        return -1;
    return 0;
}

static int parse_list(const char *s, int prel_ok, int all_ok, list *l)
{
    memset(l, 0, sizeof *l);
    if (all_ok && strcmp(s, "all") == 0) {
        l->all = 1;
        return 0;
    }
    size_t n = 1;
    for (const char *c = s; *c; c++)
        n += *c == ',';
    l->it = calloc(n, sizeof *l->it);
    if (!l->it)
        return -1;
    for (const char *c = s;; l->n++) {
        const char *end = strchr(c, ',');
        end = end ? end : c + strlen(c);
        if (parse_item(c, end, prel_ok, &l->it[l->n]))
            return -1;
        if (!*end)
            break;
        c = end + 1;
    }
    l->n++;
    return 0;
}

static int vals_push(vals *v, long long x)
{
    if (v->n == v->cap) {
        size_t ncap = v->cap ? 2 * v->cap : 16;
        long long *n = realloc(v->v, ncap * sizeof *n);
        if (!n)
            return -1;
        v->v = n;
        v->cap = ncap;
    }
    v->v[v->n++] = x;
    return 0;
}

static int ll_cmp(const void *x, const void *y)
{
    long long a = *(const long long *)x, b = *(const long long *)y;
    return a < b ? -1 : a > b;
}

/* The values of l for size p, below limit (negative limit: none). */
static int list_eval(const list *l, long long p, long long limit, vals *out)
{
    out->n = 0;
    for (size_t i = 0; i < l->n; i++)
        for (long long x = l->it[i].lo; x <= l->it[i].hi; x++) {
            long long y = l->it[i].prel ? p + x : x;
            if (y >= 0 && (limit < 0 || y < limit) && vals_push(out, y))
                return -1;
        }
    qsort(out->v, out->n, sizeof *out->v, ll_cmp);
    size_t m = 0;
    for (size_t i = 0; i < out->n; i++)
        if (m == 0 || out->v[m - 1] != out->v[i])
            out->v[m++] = out->v[i];
    out->n = m;
    return 0;
}

/* The roots of a case loop for size p: the list, all ranks, or the default. */
static int roots_eval(const list *l, int given, long long p, vals *out)
{
    out->n = 0;
    if (given && !l->all)
        return list_eval(l, p, p, out);
    if (given || p <= 16) {
        for (long long r = 0; r < p; r++)
            if (vals_push(out, r))
                return -1;
        return 0;
    }
    list dflt = {(item[]){{0, 1, 0}, {p / 2, p / 2, 0}, {-1, -1, 1}}, 3, 0};
    return list_eval(&dflt, p, p, out);
}

/* Options of verify and dump. */
typedef struct opts {
    const char *coll, *algo, *ranks, *count, *root, *inplace, *seg, *rank, *levels;
    const char *shm_count, *shm_single, *dist, *gaps;
    int noncomm, remap, verbose, help;
} opts;

static int parse_opts(int argc, char **argv, opts *o)
{
    static const char *names[] = {"--coll",   "--algo",      "--ranks",      "--count",
                                  "--root",   "--inplace",   "--seg",        "--rank",
                                  "--levels", "--shm-count", "--shm-single", "--dist",
                                  "--gaps"};
    memset(o, 0, sizeof *o);
    const char **slots[] = {&o->coll,   &o->algo,      &o->ranks,      &o->count,
                            &o->root,   &o->inplace,   &o->seg,        &o->rank,
                            &o->levels, &o->shm_count, &o->shm_single, &o->dist,
                            &o->gaps};
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        int hit = 0;
        for (size_t k = 0; k < sizeof names / sizeof *names && !hit; k++)
            hit = vine_cli_take(prog, a, names[k], &i, argc, argv, slots[k]);
        if (hit < 0)
            return -1;
        if (hit)
            continue;
        if (strcmp(a, "--noncommutative") == 0)
            o->noncomm = 1;
        else if (strcmp(a, "--remap") == 0)
            o->remap = 1;
        else if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0)
            o->verbose = 1;
        else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)
            o->help = 1;
        else {
            fprintf(stderr, "%s: unknown option '%s'\n", prog, a);
            return -1;
        }
    }
    return 0;
}

/* The sweep of `vine verify`, parsed. */
typedef struct sweep {
    int colls[VINE_COLL_COUNT], ncolls;
    list algos_all;
    char **algos;
    size_t nalgos;
    list ranks, counts, roots;
    int roots_given, inplace_mask; /* bit 0: not in place, bit 1: in place */
    size_t seg;
    int noncomm, remap, verbose;
    const char *levels; /* --levels: the description of a level map, or NULL */
    list shm_counts;    /* --shm-count, when shm_given */
    int shm_given, single_mask, single_given; /* single_mask as inplace_mask */
    unsigned dist_mask;                       /* v collectives: bit d for enum vine_vdist d */
    int gaps_mask;                            /* as inplace_mask: bit 1 with gaps */
    long passed, failed, skipped;
} sweep;

/* Parses --dist: names of enum vine_vdist, or all. */
static int parse_dist(const char *s, unsigned *mask)
{
    *mask = 0;
    if (!s || strcmp(s, "all") == 0) {
        *mask = (1u << VINE_VDIST_COUNT) - 1;
        return 0;
    }
    char *copy = strdup(s), *save = NULL;
    int rc = copy ? 0 : -1;
    for (char *t = copy ? strtok_r(copy, ",", &save) : NULL; t && !rc;
         t = strtok_r(NULL, ",", &save)) {
        int d = 0;
        while (d < VINE_VDIST_COUNT && strcmp(t, vine__vdist_names[d]) != 0)
            d++;
        if (d == VINE_VDIST_COUNT)
            rc = -1;
        else
            *mask |= 1u << d;
    }
    free(copy);
    return rc;
}

static int parse_colls(const char *s, sweep *w)
{
    if (strcmp(s, "all") == 0) {
        vine_coll_info info;
        for (int c = 0; c < VINE_COLL_COUNT; c++)
            if (vine__verify_coll_info((vine_coll)c, &info) == VINE_OK)
                w->colls[w->ncolls++] = c;
        return 0;
    }
    char *copy = strdup(s), *save = NULL;
    int rc = copy ? 0 : -1;
    for (char *t = copy ? strtok_r(copy, ",", &save) : NULL; t && !rc;
         t = strtok_r(NULL, ",", &save)) {
        vine_coll_info info;
        int c = vine__coll_parse(t);
        if (c < 0 || vine__verify_coll_info((vine_coll)c, &info) != VINE_OK) {
            fprintf(stderr, "%s: unknown collective '%s'\n", prog, t);
            rc = -1;
        } else if (w->ncolls < VINE_COLL_COUNT) {
            w->colls[w->ncolls++] = c;
        }
    }
    free(copy);
    return rc;
}

/* Splits the --algo list and checks that every name exists for some chosen collective. */
static int parse_algos(const char *s, sweep *w)
{
    if (strcmp(s, "all") == 0) {
        w->algos_all.all = 1;
        return 0;
    }
    char *copy = strdup(s), *save = NULL;
    if (!copy)
        return -1;
    w->algos = calloc(strlen(s) + 1, sizeof *w->algos);
    int rc = w->algos ? 0 : -1;
    for (char *t = strtok_r(copy, ",", &save); t && !rc; t = strtok_r(NULL, ",", &save)) {
        int found = 0;
        for (int k = 0; k < w->ncolls; k++)
            found |= vine__algo_find((vine_coll)w->colls[k], t) != NULL;
        if (!found) {
            fprintf(stderr, "%s: no algorithm '%s' for the chosen collective(s); see '%s list'\n",
                    prog, t, prog);
            rc = -1;
        } else {
            w->algos[w->nalgos] = strdup(t);
            rc = w->algos[w->nalgos++] ? 0 : -1;
        }
    }
    free(copy);
    return rc;
}

static int parse_size(const char *s, size_t *out)
{
    long long x;
    if (parse_ll(s, s + strlen(s), &x))
        return -1;
    *out = (size_t)x;
    return 0;
}

static int parse_inplace(const char *s, int *mask)
{
    if (!s || strcmp(s, "both") == 0)
        *mask = 3;
    else if (strcmp(s, "no") == 0)
        *mask = 1;
    else if (strcmp(s, "yes") == 0)
        *mask = 2;
    else
        return -1;
    return 0;
}

static int bad(const char *what, const char *val)
{
    fprintf(stderr, "%s: malformed %s '%s'\n", prog, what, val);
    return -1;
}

static int ranks_positive(const list *l)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->it[i].lo < 1 || l->it[i].hi > 1000000)
            return 0;
    return 1;
}

static int build_sweep(const opts *o, sweep *w)
{
    memset(w, 0, sizeof *w);
    w->noncomm = o->noncomm;
    w->remap = o->remap;
    w->verbose = o->verbose;
    w->levels = o->levels;
    if (!o->coll) {
        fprintf(stderr, "%s: --coll is required\n", prog);
        return -1;
    }
    if (parse_colls(o->coll, w) || parse_algos(o->algo ? o->algo : "all", w))
        return -1;
    const char *ranks = o->ranks ? o->ranks : STANDARD_RANKS;
    const char *counts = o->count ? o->count : STANDARD_COUNTS;
    if (parse_list(ranks, 0, 0, &w->ranks) || !ranks_positive(&w->ranks))
        return bad("--ranks list (sizes 1..1000000)", ranks);
    if (parse_list(counts, 1, 0, &w->counts))
        return bad("--count list", counts);
    w->roots_given = o->root != NULL;
    if (o->root && parse_list(o->root, 1, 1, &w->roots))
        return bad("--root list", o->root);
    if (parse_inplace(o->inplace, &w->inplace_mask))
        return bad("--inplace value (yes, no or both)", o->inplace);
    if (o->seg && parse_size(o->seg, &w->seg))
        return bad("--seg value", o->seg);
    w->shm_given = o->shm_count != NULL;
    if (o->shm_count && parse_list(o->shm_count, 0, 0, &w->shm_counts))
        return bad("--shm-count list", o->shm_count);
    w->single_given = o->shm_single != NULL;
    if (parse_inplace(o->shm_single, &w->single_mask))
        return bad("--shm-single value (yes, no or both)", o->shm_single);
    if (parse_dist(o->dist, &w->dist_mask))
        return bad("--dist list (uniform, irregular, zero, one, random or all)", o->dist);
    if (parse_inplace(o->gaps, &w->gaps_mask))
        return bad("--gaps value (yes, no or both)", o->gaps);
    return 0;
}

static int algo_selected(const sweep *w, const vine_algo *algo)
{
    if (w->algos_all.all)
        return 1;
    for (size_t i = 0; i < w->nalgos; i++)
        if (strcmp(w->algos[i], algo->name) == 0)
            return 1;
    return 0;
}

static void case_label(const vine_algo *algo, const vine_args *a, const vine_coll_info *info,
                       char *out, size_t len)
{
    int n = snprintf(out, len, "%s %s p=%d count=%zu", vine__coll_name(algo->coll), algo->name,
                     a->p, a->count);
    if (info->rooted && n > 0 && (size_t)n < len)
        n += snprintf(out + n, len - (size_t)n, " root=%d", a->root);
    if (info->has_inplace && n > 0 && (size_t)n < len)
        n += snprintf(out + n, len - (size_t)n, " inplace=%s", a->inplace ? "yes" : "no");
    if (a->seg_count && n > 0 && (size_t)n < len)
        n += snprintf(out + n, len - (size_t)n, " seg=%zu", a->seg_count);
    if (a->shm_node_count && n > 0 && (size_t)n < len)
        n += snprintf(out + n, len - (size_t)n, " shm=%zu", a->shm_node_count);
    if (a->shm_single && n > 0 && (size_t)n < len)
        snprintf(out + n, len - (size_t)n, " single=yes");
}

/* Counts the outcome of one case. */
static void count_case(sweep *w, int rc, const char *label, const char *msg)
{
    if (rc == VINE_OK) {
        w->passed++;
        if (w->verbose)
            printf("ok    %s\n", label);
    } else if (rc == VINE_ERR_UNSUPPORTED) {
        w->skipped++;
        if (w->verbose)
            printf("skip  %s\n", label);
    } else {
        w->failed++;
        printf("FAIL  %s: %s\n", label, msg);
        fflush(stdout);
    }
}

/* A v collective's case: every distribution and layout asked for. */
static int run_vcase(sweep *w, const vine_algo *algo, vine_args *a, const vine_coll_info *info)
{
    char msg[1024], label[256];
    for (int d = 0; d < VINE_VDIST_COUNT; d++)
        for (int g = 0; (w->dist_mask >> d & 1) && g < 2; g++) {
            if (!(w->gaps_mask >> g & 1))
                continue;
            vine_vtables t;
            if (vine__verify_vtables(a, d, g, &t))
                return -1;
            int rc = vine__verify_case(algo, a, msg, sizeof msg);
            case_label(algo, a, info, label, sizeof label);
            size_t n = strlen(label);
            snprintf(label + n, sizeof label - n, " dist=%s%s", vine__vdist_names[d],
                     g ? " gaps" : "");
            count_case(w, rc, label, msg);
            vine__verify_vtables_free(a, &t);
        }
    return 0;
}

/* Runs one case and counts it. */
static int run_case(sweep *w, const vine_algo *algo, vine_args *a, const vine_coll_info *info)
{
    if (vine__coll_is_v(algo->coll))
        return run_vcase(w, algo, a, info);
    char msg[1024], label[256];
    size_t *counts = NULL, *displs = NULL;
    if (info->vector) {
        counts = malloc((size_t)a->p * sizeof *counts);
        displs = malloc(((size_t)a->p + 1) * sizeof *displs);
        if (!counts || !displs) {
            free(counts);
            free(displs);
            return -1;
        }
        vine__verify_counts(algo->coll, a->p, a->count, counts, displs);
    }
    a->counts = counts;
    a->displs = displs;
    int rc = vine__verify_case(algo, a, msg, sizeof msg);
    case_label(algo, a, info, label, sizeof label);
    count_case(w, rc, label, msg);
    free(counts);
    free(displs);
    a->counts = a->displs = NULL;
    return 0;
}

/*
 * Makes the level map of --levels for p ranks into *m, from the node up, and
 * into *full the whole map when the description has levels inside the node
 * (node=; levels.h), both left empty without --levels.  Returns 0, -1 when
 * out of memory, or -2 after printing why the description does not fit.
 */
static int make_levels(const char *spec, int p, vine_levels *m, vine_levels *full)
{
    char err[256];
    memset(m, 0, sizeof *m);
    memset(full, 0, sizeof *full);
    if (!spec)
        return 0;
    int rc = vine__levels_parse(spec, p, full, err, sizeof err);
    if (rc == VINE_OK)
        rc = vine__levels_split_node(full, m);
    if (rc == VINE_OK)
        return 0;
    if (rc == VINE_ERR_NO_MEM)
        return -1;
    fprintf(stderr, "%s: --levels at p=%d: %s\n", prog, p, err);
    return -2;
}

/*
 * The region sizes and single-copy forms of algo: the options, or for the
 * shm algorithms the standard sizes and both forms, for the others none.
 */
static int shm_eval(const sweep *w, const vine_algo *algo, vals *sizes, int *single)
{
    int shm = (algo->flags & (VINE_ALGO_SHM | VINE_ALGO_SHM_NODES)) != 0;
    list dflt = {0};
    *single = w->single_given ? w->single_mask : (algo->flags & VINE_ALGO_SHM) ? 3 : 1;
    if (w->shm_given)
        return list_eval(&w->shm_counts, 0, -1, sizes);
    if (!shm)
        return vals_push(sizes, 0);
    if (parse_list(STANDARD_SHM_COUNTS, 0, 0, &dflt))
        return -1;
    int rc = list_eval(&dflt, 0, -1, sizes);
    free(dflt.it);
    return rc;
}

/*
 * A region of n elements: every node's (shm_node_count), and the segment of
 * all p ranks (shm_count) only when they share one node, which a level map
 * with locality denies (as the API layer sets them).  Parity slots of
 * min(n, 4096) elements (a slot of the parity area holds 4096 doubles).
 */
static void set_shm(vine_args *a, size_t n)
{
    a->shm_node_count = n;
    a->shm_count = vine__levels_ready(a->levels, a->p) && !vine__levels_flat(a->levels) ? 0 : n;
    a->shm_par_count = a->shm_count < 4096 ? a->shm_count : 4096;
}

/* Every form of a case at size p with a count and root: in place, shm size, single copy. */
static int run_forms(sweep *w, const vine_algo *algo, vine_args *a, const vine_coll_info *info,
                     const vals *shm, int single)
{
    int forms = info->has_inplace ? w->inplace_mask : 1, rc = 0;
    for (int ip = 0; !rc && ip < 2; ip++)
        for (size_t m = 0; !rc && m < shm->n; m++)
            for (int sc = 0; !rc && sc < 2; sc++) {
                if (!(forms & (1 << ip)) || !(single & (1 << sc)))
                    continue;
                a->inplace = ip;
                set_shm(a, (size_t)shm->v[m]);
                a->shm_single = sc;
                rc = run_case(w, algo, a, info);
            }
    return rc;
}

/* Every count, root and form of one algorithm at size p. */
static int run_size(sweep *w, const vine_algo *algo, int p, const vine_coll_info *info)
{
    vals counts = {0}, roots = {0}, shm = {0};
    vine_levels lv, full;
    int single;
    int rc = make_levels(w->levels, p, &lv, &full);
    if (rc)
        return rc;
    rc = list_eval(&w->counts, p, -1, &counts);
    /*
     * A barrier ignores its count, so one case per size is enough.  The largest
     * count is the one kept: a builder that wrongly moved count elements would
     * then overrun the barrier's empty buffers and fail.
     */
    if (!rc && algo->coll == VINE_COLL_BARRIER && counts.n > 1) {
        counts.v[0] = counts.v[counts.n - 1];
        counts.n = 1;
    }
    if (!rc && info->rooted)
        rc = roots_eval(&w->roots, w->roots_given, p, &roots);
    else if (!rc)
        rc = vals_push(&roots, 0);
    if (!rc)
        rc = shm_eval(w, algo, &shm, &single);
    for (size_t c = 0; !rc && c < counts.n; c++)
        for (size_t r = 0; !rc && r < roots.n; r++) {
            vine_args a = {.coll = algo->coll,
                           .p = p,
                           .root = (int)roots.v[r],
                           .count = (size_t)counts.v[c],
                           .commutative = !w->noncomm,
                           .seg_count = w->seg,
                           .levels = w->levels ? &lv : NULL,
                           .levels_full = full.group ? &full : NULL,
                           .remap = w->remap};
            rc = run_forms(w, algo, &a, info, &shm, single);
        }
    free(counts.v);
    free(roots.v);
    free(shm.v);
    vine__levels_free(&lv);
    vine__levels_free(&full);
    return rc;
}

static int run_sweep(sweep *w)
{
    vals ranks = {0};
    if (list_eval(&w->ranks, 0, -1, &ranks))
        return -1;
    int rc = 0;
    for (int k = 0; !rc && k < w->ncolls; k++) {
        vine_coll c = (vine_coll)w->colls[k];
        vine_coll_info info;
        vine__verify_coll_info(c, &info);
        const vine_algo *algo;
        for (int i = 0; !rc && (algo = vine__algo_nth(c, i)) != NULL; i++) {
            if (!algo_selected(w, algo))
                continue;
            /* Not a case: nothing to count.  Named alone or with -v, it says why. */
            if (algo->flags & VINE_ALGO_MPI) {
                if (w->verbose || !w->algos_all.all)
                    printf("skip  %s %s: %s\n", vine__coll_name(c), algo->name, VINE_ALGO_MPI_WHY);
                continue;
            }
            for (size_t j = 0; !rc && j < ranks.n; j++)
                rc = run_size(w, algo, (int)ranks.v[j], &info);
        }
    }
    free(ranks.v);
    return rc;
}

static void free_sweep(sweep *w)
{
    for (size_t i = 0; i < w->nalgos; i++)
        free(w->algos[i]);
    free(w->algos);
    free(w->ranks.it);
    free(w->counts.it);
    free(w->roots.it);
    free(w->shm_counts.it);
}

static int cmd_verify(int argc, char **argv)
{
    opts o;
    if (parse_opts(argc, argv, &o)) {
        usage_verify(stderr);
        return 2;
    }
    if (o.help) {
        usage_verify(stdout);
        return 0;
    }
    if (o.rank) {
        fprintf(stderr, "%s: --rank belongs to 'dump'\n", prog);
        usage_verify(stderr);
        return 2;
    }
    sweep w;
    if (build_sweep(&o, &w)) {
        free_sweep(&w);
        usage_verify(stderr);
        return 2;
    }
    int rc = run_sweep(&w);
    if (rc == -1)
        fprintf(stderr, "%s: out of memory\n", prog);
    printf("%ld passed, %ld failed, %ld skipped\n", w.passed, w.failed, w.skipped);
    free_sweep(&w);
    return rc == -2 ? 2 : rc || w.failed ? 1 : 0;
}

/* Prints the registry, one aligned line per algorithm. */
static int cmd_list(int argc, char **argv)
{
    opts o;
    int c = -1;
    if (parse_opts(argc, argv, &o) || o.algo || o.ranks || o.count || o.root || o.inplace ||
        o.seg || o.rank || o.levels || o.remap || o.shm_count || o.shm_single ||
        (o.coll && (c = vine__coll_parse(o.coll)) < 0)) {
        if (o.coll && c < 0)
            fprintf(stderr, "%s: unknown collective '%s'\n", prog, o.coll);
        fprintf(stderr, "usage: %s list [--coll C]\n", prog);
        return 2;
    }
    int w[3] = {10, 4, 12};
    for (int i = 0; i < vine__nalgos; i++) {
        const vine_algo *al = &vine__algos[i];
        int l[3] = {(int)strlen(vine__coll_name(al->coll)), (int)strlen(al->name),
                    (int)strlen(al->restrictions)};
        for (int k = 0; k < 3; k++)
            w[k] = l[k] > w[k] ? l[k] : w[k];
    }
    printf("%-*s  %-*s  %-*s  %s\n", w[0], "collective", w[1], "name", w[2], "restrictions",
           "description");
    for (int i = 0; i < vine__nalgos; i++) {
        const vine_algo *al = &vine__algos[i];
        if (c < 0 || (int)al->coll == c)
            printf("%-*s  %-*s  %-*s  %s\n", w[0], vine__coll_name(al->coll), w[1], al->name, w[2],
                   al->restrictions, al->desc);
    }
    return 0;
}

/* Parses one non-negative integer option of dump; absent leaves *out. */
static int dump_int(const char *name, const char *s, long long max, long long *out)
{
    if (!s)
        return 0;
    if (parse_ll(s, s + strlen(s), out) || *out > max)
        return bad(name, s);
    return 0;
}

static int dump_case(const vine_algo *algo, vine_args *a, long long only, int dist, int gaps)
{
    vine_vtables vt;
    if (vine__verify_vtables(a, dist, gaps, &vt))
        return 1;
    vine_coll_info info;
    vine__verify_coll_info(algo->coll, &info);
    size_t *counts = NULL, *displs = NULL;
    if (info.vector) {
        counts = malloc((size_t)a->p * sizeof *counts);
        displs = malloc(((size_t)a->p + 1) * sizeof *displs);
        if (!counts || !displs) {
            free(counts);
            free(displs);
            return 1;
        }
        vine__verify_counts(algo->coll, a->p, a->count, counts, displs);
        a->counts = counts;
        a->displs = displs;
    }
    int rc = VINE_OK;
    for (int r = 0; r < a->p && rc == VINE_OK; r++) {
        if (only >= 0 && r != only)
            continue;
        vine_sched s;
        a->rank = r;
        rc = vine__algo_build(algo, a, &s);
        char *text = rc == VINE_OK ? vine__sched_dump(&s) : NULL;
        if (text)
            fputs(text, stdout);
        free(text);
        if (rc == VINE_OK)
            vine__sched_free(&s);
    }
    if (rc == VINE_ERR_UNSUPPORTED && (algo->flags & VINE_ALGO_MPI))
        fprintf(stderr, "%s: %s %s: %s\n", prog, vine__coll_name(algo->coll), algo->name,
                VINE_ALGO_MPI_WHY);
    else if (rc == VINE_ERR_UNSUPPORTED)
        fprintf(stderr, "%s: %s %s does not build this case (restrictions: %s)\n", prog,
                vine__coll_name(algo->coll), algo->name, algo->restrictions);
    else if (rc != VINE_OK)
        fprintf(stderr, "%s: building rank %d failed (status %d)\n", prog, a->rank, rc);
    free(counts);
    free(displs);
    vine__verify_vtables_free(a, &vt);
    return rc == VINE_OK ? 0 : 1;
}

static int cmd_dump(int argc, char **argv)
{
    opts o;
    if (parse_opts(argc, argv, &o) || o.help) {
        usage_dump(o.help ? stdout : stderr);
        return o.help ? 0 : 2;
    }
    int c = o.coll ? vine__coll_parse(o.coll) : -1;
    const vine_algo *algo = c >= 0 ? vine__algo_find((vine_coll)c, o.algo) : NULL;
    long long p = 0, count = 0, root = 0, seg = 0, only = -1, shm = 0;
    int ip = 1, single = 1, gaps = 1, dist = 0;
    unsigned dmask = 1;
    if (o.dist && (parse_dist(o.dist, &dmask) || (dmask & (dmask - 1)))) {
        fprintf(stderr, "%s: dump takes one --dist\n", prog);
        return 2;
    }
    while (!(dmask >> dist & 1))
        dist++;
    if (algo && (algo->flags & (VINE_ALGO_SHM | VINE_ALGO_SHM_NODES)))
        shm = 64;
    if (!algo || !o.ranks || (!o.count && c != VINE_COLL_BARRIER)) {
        fprintf(stderr, "%s: dump needs a known --coll and --algo, --ranks and --count\n", prog);
    } else if (!dump_int("--ranks", o.ranks, 1000000, &p) && p > 0 &&
               !dump_int("--count", o.count, 1LL << 40, &count) &&
               !dump_int("--root", o.root, p - 1, &root) &&
               !dump_int("--rank", o.rank, p - 1, &only) &&
               !dump_int("--seg", o.seg, 1LL << 40, &seg) &&
               !dump_int("--shm-count", o.shm_count, 1LL << 40, &shm) &&
               !parse_inplace(o.inplace ? o.inplace : "no", &ip) && ip != 3 &&
               !parse_inplace(o.shm_single ? o.shm_single : "no", &single) && single != 3 &&
               !parse_inplace(o.gaps ? o.gaps : "no", &gaps) && gaps != 3) {
        vine_levels lv, full;
        int lrc = make_levels(o.levels, (int)p, &lv, &full);
        if (lrc)
            return lrc == -1 ? 1 : 2;
        vine_args a = {.coll = (vine_coll)c,
                       .p = (int)p,
                       .root = (int)root,
                       .count = (size_t)count,
                       .inplace = ip == 2,
                       .commutative = !o.noncomm,
                       .seg_count = (size_t)seg,
                       .levels = o.levels ? &lv : NULL,
                       .levels_full = full.group ? &full : NULL,
                       .remap = o.remap,
                       .shm_single = single == 2};
        set_shm(&a, (size_t)shm);
        int rc = dump_case(algo, &a, only, dist, gaps == 2);
        vine__levels_free(&lv);
        vine__levels_free(&full);
        return rc;
    }
    usage_dump(stderr);
    return 2;
}

/*
 * The verifier and the simulator allocate and free buffers of a few MiB case
 * after case.  glibc gives the top of its heap back to the system at each
 * such free and faults it in again at the next case: keeping it (and large
 * blocks out of mmap) made `vine verify` three times faster.
 */
static void keep_heap(void)
{
#ifdef __GLIBC__
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    mallopt(M_MMAP_THRESHOLD, 1 << 30);
    mallopt(M_TOP_PAD, 64 << 20);
#endif
}

int main(int argc, char **argv)
{
    keep_heap();
    if (argc < 2) {
        usage_main(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "help") == 0) {
        usage_main(stdout);
        return 0;
    }
    if (strcmp(cmd, "list") == 0)
        return cmd_list(argc, argv);
    if (strcmp(cmd, "verify") == 0)
        return cmd_verify(argc, argv);
    if (strcmp(cmd, "dump") == 0)
        return cmd_dump(argc, argv);
    if (strcmp(cmd, "sim") == 0)
        return vine_cmd_sim(argc - 1, argv + 1);
    if (strcmp(cmd, "bbs") == 0)
        return vine_cmd_bbs(argc - 1, argv + 1);
    if (strcmp(cmd, "plot") == 0)
        return vine_cmd_plot(argc - 1, argv + 1);
    if (strcmp(cmd, "table") == 0)
        return vine_cmd_table(argc - 1, argv + 1);
    fprintf(stderr, "%s: unknown command '%s'\n", prog, cmd);
    usage_main(stderr);
    return 2;
}
