/*
 * vine-bench: times vine's collective algorithms against the MPI library's
 * own collectives on the communicator it runs on.
 *
 *   vine-bench coll --coll C|all --algo A|all --size LIST|--dist SPEC...
 *              [--iters N] [--warmup N] [--check] [--dtype T] [--op OP] [--root R]
 *              [--in-place] [--json FILE] [--csv FILE] [--progress]
 *              [--copy-bw [--copy-bytes SIZE]]
 *              [--nonblocking [--progress-interval US] | --persistent]
 *   vine-bench overhead [--batches N] [--iters N]
 *   vine-bench pattern ...   (tools/bench_pattern.c, docs/patterns.md)
 *   vine-bench probe [--out FILE] [--bytes N] [--iters N]
 *                            (tools/bench_probe.c, docs/selection.md)
 *
 * For each collective, size and algorithm (and "mpi", the MPI library's
 * collective) `coll` times iterations, each after a barrier, takes per
 * iteration the maximum over ranks, drops the first 20% of the iterations
 * as warm-up (the method of the Bine trees paper, section 5, after Hoefler
 * and Belli 2015), and prints on rank 0 the median, minimum, mean, 99th
 * percentile and maximum in microseconds, nccl-tests' algbw and busbw, and
 * median / median(mpi).  With --check it compares each algorithm's result
 * with the MPI library's for the same buffers (barrier has no result: it is
 * timed only, once, whatever the sizes).  --json and --csv write the rows
 * with the command line, the MPI library, the date and every rank's host
 * (src/bench/results.h).  With --copy-bw it first measures the node's memory
 * copy bandwidth, every rank copying at once and rank 0 alone
 * (src/bench/copybw.h), and gives each row's busbw as a percentage of the
 * first.  --nonblocking times the nonblocking collectives instead, alone and
 * overlapped with a compute loop, and --persistent the persistent ones next
 * to the blocking ones (tools/bench_nb.h).  The irregular collectives and
 * the scans, with uniform blocks or those of a count distribution (--dist),
 * are shaped and called by tools/bench_v.h.  docs/bench.md describes the
 * options and the output.
 *
 * Test-only: VINE_BENCH_CORRUPT=ALGO (or COLL:ALGO) flips a byte of that
 * algorithm's result in the --check run, so that the check must fail.
 */
#include "bench/copybw.h"
#include "bench/results.h"
#include "bench/stats.h"
#include "bench_nb.h"
#include "bench_overhead.h"
#include "bench_pattern.h"
#include "bench_probe.h"
#include "bench_v.h"
#include <vine.h>

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_SIZES 64
#define MAX_ALGOS 32

/* The command line. */
typedef struct options {
    int colls[VINE_COLL_COUNT];
    int ncolls;
    const char *algos[MAX_ALGOS]; /* names as given; empty means all */
    int nalgos;
    size_t sizes[MAX_SIZES];
    const char *labels[MAX_SIZES];
    char label_store[MAX_SIZES][BENCH_V_LABEL];
    int nsizes;
    vine_vdist dists[MAX_SIZES]; /* --dist: the rows' distributions instead of sizes */
    int ndists;
    int iters, warmup; /* warmup -1: drop the first 20% of iters */
    int check, root, inplace;
    MPI_Datatype dt;
    const char *dtype_name;
    MPI_Op op;
    const char *op_name;
    const char *json, *csv; /* result files, NULL when not asked for */
    int progress;           /* --progress: the progress line even when stderr is no terminal */
    int copy_bw;            /* --copy-bw: measure the copy bandwidth first */
    size_t copy_bytes;      /* --copy-bytes: what each rank copies (0 until the default is set) */
    int nonblocking;        /* --nonblocking: time the nonblocking collectives and their overlap */
    int persistent;         /* --persistent: time the persistent collectives and the blocking */
    int mode;               /* enum vine_bench_mode, from the two above */
    double interval_us;     /* --progress-interval: compute between progress calls (0 until set) */
} options;

/* --progress-interval's default: a progress call every 10 microseconds of computation. */
#define PROGRESS_INTERVAL_US 10.0

/* What one row measured (the statistics on rank 0 only). */
typedef struct row {
    vine_bench_stats st; /* --nonblocking, --persistent: those of bench_nb_result */
    int na;              /* the algorithm does not serve this case */
    int check;           /* -1 not checked, 0 failed, 1 passed */
    int err;             /* an MPI error code, MPI_SUCCESS when all went well */
    bench_nb_result nb;  /* --nonblocking, --persistent: the mode's other numbers */
} row;

/* The progress line on stderr (rank 0): rows done of the total. */
typedef struct progress {
    int on, tty;
    long done, total;
} progress;

static int rank0;

/* --copy-bw: the copy bandwidths in GB/s measured before the rows (on rank 0), NAN when not. */
static struct {
    int on;
    double all, one;
} copybw = {0, NAN, NAN};

/* VINE_BENCH_CORRUPT (test only): the algorithm whose checked result is corrupted. */
static const char *corrupt_coll, *corrupt_algo;

static void usage(FILE *f)
{
    fprintf(f, "usage: vine-bench overhead [--batches N] [--iters N]\n"
               "       vine-bench pattern ... (see vine-bench pattern --help)\n"
               "       vine-bench probe [--out FILE] [--bytes N] [--iters N]\n"
               "       vine-bench coll --coll C|all --algo A|all --size LIST|--dist SPEC...\n"
               "                  [--iters N] [--warmup N] [--check]\n"
               "                  [--dtype int|float|double|char|long]\n"
               "                  [--op sum|prod|max|min|land|lor|lxor|band|bor|bxor]\n"
               "                  [--root R] [--in-place] [--json FILE] [--csv FILE]\n"
               "                  [--progress] [--copy-bw [--copy-bytes SIZE]]\n"
               "                  [--nonblocking [--progress-interval US] | --persistent]\n"
               "  C     a collective (bcast, reduce, allreduce, allgather, reduce_scatter,\n"
               "        reduce_scatter_block, alltoall, gather, scatter, barrier, allgatherv,\n"
               "        alltoallv, alltoallw, gatherv, scatterv, scan, exscan), a\n"
               "        comma-separated list, all (the first ten), v (the last seven) or\n"
               "        all+v\n"
               "  A     an algorithm name, mpi (the MPI library), auto (vine's choice),\n"
               "        a comma-separated list, or all (mpi, auto and every algorithm)\n"
               "  LIST  comma-separated sizes in bytes with an optional unit (B, KiB, MiB,\n"
               "        GiB), or a doubling range such as 8B..1MiB; the size is the\n"
               "        collective's count argument in bytes (per rank's block for\n"
               "        allgather, alltoall, gather, scatter and the v collectives, whose\n"
               "        blocks are then uniform; barrier runs once, sizeless)\n"
               "  --dist SPEC  instead of --size, for allgatherv, alltoallv, alltoallw,\n"
               "              gatherv and scatterv: irregular blocks uniform:N, skew:N,F,\n"
               "              zipf:N,S, random:N,SEED or file:PATH, N in elements or a\n"
               "              doubling range LO..HI; one row per spec, the option repeated\n"
               "  --iters N   timed iterations per row (default 100); the first 20%% are\n"
               "              dropped as warm-up unless --warmup is given\n"
               "  --warmup N  untimed iterations first, then all N of --iters are kept\n"
               "  --check     compare each result with the MPI library's collective\n"
               "  --json FILE, --csv FILE  write the rows, the command, the MPI library,\n"
               "              the date and every rank's host (docs/bench.md)\n"
               "  --progress  a progress line on stderr even when it is not a terminal\n"
               "  --copy-bw   first measure the memcpy bandwidth of all ranks copying at\n"
               "              once and of rank 0 alone (the best of 5 each), and add the\n"
               "              column %%copy = busbw / the all-rank copy bandwidth\n"
               "  --copy-bytes SIZE  what each rank copies for --copy-bw (default 64MiB)\n"
               "  --nonblocking  time the nonblocking collectives: start + wait alone, a\n"
               "              compute loop as long, both overlapped with and without\n"
               "              progress calls, and the share of the communication hidden\n"
               "  --progress-interval US  with --nonblocking: microseconds of compute\n"
               "              between two progress calls (default 10)\n"
               "  --persistent  time the persistent collectives (made once, start + wait)\n"
               "              next to the blocking ones\n"
               "Times are in microseconds, per iteration the slowest rank's; algbw and\n"
               "busbw in GB/s as nccl-tests defines them; ratio = median / median(mpi).\n");
}

/* Reports a usage error on rank 0; the caller exits with status 2. */
static int bad_usage(const char *fmt, const char *arg)
{
    if (rank0) {
        fprintf(stderr, "vine-bench: ");
        fprintf(stderr, fmt, arg);
        fprintf(stderr, "\n");
        usage(stderr);
    }
    return 2;
}

/* A size of the sweep: at most INT32_MAX bytes, as counts are ints. */
static int parse_size(const char *s, size_t *out)
{
    return vine__bench_parse_size(s, INT32_MAX, out);
}

static int add_size(options *o, size_t bytes, const char *label)
{
    if (o->nsizes == MAX_SIZES)
        return -1;
    snprintf(o->label_store[o->nsizes], sizeof o->label_store[0], "%s", label);
    o->labels[o->nsizes] = o->label_store[o->nsizes];
    o->sizes[o->nsizes++] = bytes;
    return 0;
}

/* "8B..1MiB": 8, 16, 32, ... up to 1 MiB. */
static int parse_range(options *o, char *item, char *dots)
{
    size_t lo, hi;
    *dots = '\0';
    if (parse_size(item, &lo) || parse_size(dots + 2, &hi) || lo > hi)
        return -1;
    for (size_t s = lo;; s = s ? 2 * s : 1) {
        char label[32];
        if (s % (1u << 20) == 0 && s)
            snprintf(label, sizeof label, "%zuMiB", s >> 20);
        else if (s % 1024 == 0 && s)
            snprintf(label, sizeof label, "%zuKiB", s >> 10);
        else
            snprintf(label, sizeof label, "%zuB", s);
        if (add_size(o, s, label))
            return -1;
        if (s >= hi || s > hi / 2)
            break;
    }
    return 0;
}

static int parse_sizes(options *o, const char *list)
{
    char *copy = strdup(list), *save = NULL;
    int rc = copy ? 0 : -1;
    for (char *item = copy ? strtok_r(copy, ",", &save) : NULL; item && !rc;
         item = strtok_r(NULL, ",", &save)) {
        char *dots = strstr(item, "..");
        size_t bytes;
        if (dots)
            rc = parse_range(o, item, dots);
        else
            rc = parse_size(item, &bytes) || add_size(o, bytes, item);
    }
    free(copy);
    return rc || o->nsizes == 0 ? -1 : 0;
}

static int coll_from_name(const char *name)
{
    for (int c = 0; c < VINE_COLL_COUNT; c++)
        if (strcmp(name, vine_coll_name((vine_coll)c)) == 0)
            return c;
    return -1;
}

/* Appends coll unless it is chosen already. */
static void add_coll(options *o, int coll)
{
    for (int i = 0; i < o->ncolls; i++)
        if (o->colls[i] == coll)
            return;
    o->colls[o->ncolls++] = coll;
}

/*
 * Adds a group: "all", the ten collectives before issue 20 (which scripts
 * and the demo run: their time stays what it was); "v", the irregular
 * collectives and the scans; "all+v", both.  Returns 0, -1 for another name.
 */
static int add_group(options *o, const char *name)
{
    static const int ten[] = {VINE_COLL_BCAST,
                              VINE_COLL_REDUCE,
                              VINE_COLL_ALLREDUCE,
                              VINE_COLL_ALLGATHER,
                              VINE_COLL_REDUCE_SCATTER_BLOCK,
                              VINE_COLL_REDUCE_SCATTER,
                              VINE_COLL_ALLTOALL,
                              VINE_COLL_GATHER,
                              VINE_COLL_SCATTER,
                              VINE_COLL_BARRIER};
    static const int seven[] = {VINE_COLL_ALLGATHERV, VINE_COLL_ALLTOALLV, VINE_COLL_ALLTOALLW,
                                VINE_COLL_GATHERV,    VINE_COLL_SCATTERV,  VINE_COLL_SCAN,
                                VINE_COLL_EXSCAN};
    int all = strcmp(name, "all") == 0 || strcmp(name, "all+v") == 0;
    int v = strcmp(name, "v") == 0 || strcmp(name, "all+v") == 0;
    for (size_t i = 0; all && i < sizeof ten / sizeof *ten; i++)
        add_coll(o, ten[i]);
    for (size_t i = 0; v && i < sizeof seven / sizeof *seven; i++)
        add_coll(o, seven[i]);
    return all || v ? 0 : -1;
}

/* A comma-separated list of collectives and groups; each collective once, in the list's order. */
static int parse_colls(options *o, const char *list)
{
    char *copy = strdup(list), *save = NULL;
    int rc = copy ? 0 : -1;
    for (char *item = copy ? strtok_r(copy, ",", &save) : NULL; item && !rc;
         item = strtok_r(NULL, ",", &save)) {
        int c = coll_from_name(item);
        if (c >= 0)
            add_coll(o, c);
        else
            rc = add_group(o, item);
    }
    free(copy);
    return rc || o->ncolls == 0 ? -1 : 0;
}

/* Keeps the names; each must exist for at least one chosen collective (checked later). */
static int parse_algos(options *o, char *list)
{
    if (strcmp(list, "all") == 0)
        return 0;
    char *save = NULL;
    for (char *item = strtok_r(list, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        if (o->nalgos == MAX_ALGOS)
            return -1;
        o->algos[o->nalgos++] = item;
    }
    return o->nalgos ? 0 : -1;
}

static int parse_int(const char *s, int min, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end || errno || v < min || v > INT32_MAX)
        return -1;
    *out = (int)v;
    return 0;
}

static int parse_dtype(options *o, const char *name)
{
    static const char *names[] = {"char", "int", "long", "float", "double"};
    MPI_Datatype types[] = {MPI_CHAR, MPI_INT, MPI_LONG, MPI_FLOAT, MPI_DOUBLE};
    for (int i = 0; i < 5; i++) {
        if (strcmp(name, names[i]) == 0) {
            o->dt = types[i];
            o->dtype_name = names[i];
            return 0;
        }
    }
    return -1;
}

/* The predefined ops; the logical and bitwise ones only for integer types. */
static int parse_op(options *o, const char *name)
{
    static const char *names[] = {"sum", "prod", "max",  "min", "land",
                                  "lor", "lxor", "band", "bor", "bxor"};
    MPI_Op ops[] = {MPI_SUM, MPI_PROD, MPI_MAX,  MPI_MIN, MPI_LAND,
                    MPI_LOR, MPI_LXOR, MPI_BAND, MPI_BOR, MPI_BXOR};
    for (int i = 0; i < 10; i++) {
        if (strcmp(name, names[i]) == 0) {
            o->op = ops[i];
            o->op_name = names[i];
            return 0;
        }
    }
    return -1;
}

static int is_floating(MPI_Datatype dt)
{
    return dt == MPI_FLOAT || dt == MPI_DOUBLE;
}

/* A positive number of microseconds, at most a second. */
static int parse_interval(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno || !(v > 0) || v > 1e6)
        return -1;
    *out = v;
    return 0;
}

/* --dist SPEC: its rows after those of earlier --dist options; 0, or 2 after a usage error. */
static int parse_dist(options *o, const char *spec)
{
    char err[512], labels[MAX_SIZES][BENCH_V_LABEL];
    int first = o->ndists;
    int rc = bench_v_parse_dist(spec, o->dists, labels, MAX_SIZES, &o->ndists, err, sizeof err);
    if (rc)
        return bad_usage("--dist: %s", err);
    for (int k = first; k < o->ndists; k++)
        if (add_size(o, 0, labels[k]) != 0)
            return bad_usage("--dist %s: more sizes and distributions than 64", spec);
    return 0;
}

/* The value of option argv[*i], advancing *i; NULL when it is missing. */
static char *option_value(int argc, char **argv, int *i)
{
    return *i + 1 < argc ? argv[++*i] : NULL;
}

/* Parses the value v of option opt; returns 0, -1 for a bad value, -2 for an unknown option. */
static int parse_value(options *o, const char *opt, char *v)
{
    if (strcmp(opt, "--coll") == 0)
        return parse_colls(o, v);
    if (strcmp(opt, "--algo") == 0)
        return parse_algos(o, v);
    if (strcmp(opt, "--size") == 0)
        return parse_sizes(o, v);
    if (strcmp(opt, "--iters") == 0)
        return parse_int(v, 1, &o->iters);
    if (strcmp(opt, "--warmup") == 0)
        return parse_int(v, 0, &o->warmup);
    if (strcmp(opt, "--root") == 0)
        return parse_int(v, 0, &o->root);
    if (strcmp(opt, "--dtype") == 0)
        return parse_dtype(o, v);
    if (strcmp(opt, "--op") == 0)
        return parse_op(o, v);
    if (strcmp(opt, "--json") == 0 || strcmp(opt, "--csv") == 0) {
        *(opt[2] == 'j' ? &o->json : &o->csv) = v;
        return *v ? 0 : -1;
    }
    if (strcmp(opt, "--copy-bytes") == 0)
        return vine__bench_parse_size(v, SIZE_MAX / 2, &o->copy_bytes) || !o->copy_bytes ? -1 : 0;
    if (strcmp(opt, "--progress-interval") == 0)
        return parse_interval(v, &o->interval_us);
    return -2;
}

/* Parses one option at argv[*i]; returns 0, or 2 after reporting a usage error. */
static int parse_option(options *o, int argc, char **argv, int *i)
{
    static const char *with_value[] = {"--coll",   "--algo", "--size",       "--iters",
                                       "--warmup", "--root", "--dtype",      "--op",
                                       "--json",   "--csv",  "--copy-bytes", "--progress-interval",
                                       "--dist"};
    const struct {
        const char *name;
        int *flag;
    } flags[] = {{"--check", &o->check},
                 {"--in-place", &o->inplace},
                 {"--progress", &o->progress},
                 {"--copy-bw", &o->copy_bw},
                 {"--nonblocking", &o->nonblocking},
                 {"--persistent", &o->persistent}};
    const char *opt = argv[*i];
    for (size_t k = 0; k < sizeof flags / sizeof flags[0]; k++) {
        if (strcmp(opt, flags[k].name) == 0) {
            *flags[k].flag = 1;
            return 0;
        }
    }
    int known = 0;
    for (size_t k = 0; k < sizeof with_value / sizeof with_value[0]; k++)
        known |= strcmp(opt, with_value[k]) == 0;
    if (!known)
        return bad_usage("unknown option %s", opt);
    char *v = option_value(argc, argv, i);
    if (!v)
        return bad_usage("option %s needs a value", opt);
    if (strcmp(opt, "--dist") == 0)
        return parse_dist(o, v);
    return parse_value(o, opt, v) ? bad_usage("bad value for %s", opt) : 0;
}

/* Does some chosen collective know algorithm name? */
static int algo_known(const options *o, const char *name)
{
    if (strcmp(name, "mpi") == 0 || strcmp(name, "auto") == 0)
        return 1;
    for (int c = 0; c < o->ncolls; c++)
        for (int i = 0; vine_algorithm_name((vine_coll)o->colls[c], i); i++)
            if (strcmp(vine_algorithm_name((vine_coll)o->colls[c], i), name) == 0)
                return 1;
    return 0;
}

/* Checks what the options say of one chosen collective. */
static int check_coll(const options *o, vine_coll coll, int p)
{
    const char *name = vine_coll_name(coll);
    if (o->ndists && !bench_v_irregular(coll))
        return bad_usage("--dist applies to allgatherv, alltoallv, alltoallw, gatherv and "
                         "scatterv, not to %s",
                         name);
    for (int k = 0; k < o->ndists; k++) {
        char err[512];
        if (vine__vdist_check(&o->dists[k], p, bench_v_a2a(coll), err, sizeof err) != 0)
            return bad_usage("--dist: %s", err);
    }
    return 0;
}

/* Checks what the options say together once all are read. */
static int check_options(const options *o, int p)
{
    if (!o->ncolls)
        return bad_usage("%s", "--coll is required");
    if (!o->nsizes)
        return bad_usage("%s", "--size or --dist is required");
    if (o->ndists && o->ndists != o->nsizes)
        return bad_usage("%s", "--dist and --size do not go together");
    for (int c = 0; c < o->ncolls; c++) {
        int rc = check_coll(o, (vine_coll)o->colls[c], p);
        if (rc)
            return rc;
    }
    for (int i = 0; i < o->nalgos; i++)
        if (!algo_known(o, o->algos[i]))
            return bad_usage("no chosen collective has an algorithm named %s", o->algos[i]);
    if (o->root >= p) {
        char msg[64];
        snprintf(msg, sizeof msg, "%d is not a rank of the communicator (p=%d)", o->root, p);
        return bad_usage("--root %s", msg);
    }
    if (is_floating(o->dt) && o->op != MPI_SUM && o->op != MPI_PROD && o->op != MPI_MAX &&
        o->op != MPI_MIN)
        return bad_usage("--op %s does not apply to floating types", o->op_name);
    if (o->copy_bytes && !o->copy_bw)
        return bad_usage("%s", "--copy-bytes needs --copy-bw");
    if (o->nonblocking && o->persistent)
        return bad_usage("%s", "--nonblocking and --persistent do not go together");
    if (o->interval_us > 0 && !o->nonblocking)
        return bad_usage("%s", "--progress-interval needs --nonblocking");
    if (o->nonblocking && o->copy_bw)
        return bad_usage("%s", "--copy-bw does not go with --nonblocking");
    return 0;
}

static int parse_options(options *o, int argc, char **argv, int p)
{
    memset(o, 0, sizeof *o);
    o->iters = 100;
    o->warmup = -1;
    parse_dtype(o, "int");
    parse_op(o, "sum");
    if (argc < 2)
        return bad_usage("%s", "a command is required (coll, pattern, probe or overhead)");
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        if (rank0)
            usage(stdout);
        return 1;
    }
    if (strcmp(argv[1], "coll") != 0)
        return bad_usage("unknown command %s", argv[1]);
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            if (rank0)
                usage(stdout);
            return 1;
        }
        int rc = parse_option(o, argc, argv, &i);
        if (rc)
            return rc;
    }
    int rc = check_options(o, p);
    if (!rc && !o->copy_bytes)
        o->copy_bytes = VINE_BENCH_COPY_BYTES;
    if (!rc && !(o->interval_us > 0))
        o->interval_us = PROGRESS_INTERVAL_US;
    o->mode = o->nonblocking  ? VINE_BENCH_MODE_NONBLOCKING
              : o->persistent ? VINE_BENCH_MODE_PERSISTENT
                              : VINE_BENCH_MODE_BLOCKING;
    return rc;
}

/* The shape of coll's buffers for count elements (see docs/bench.md). */
static void bcase_shape(bcase *b, size_t n)
{
    size_t p = (size_t)b->p, r = (size_t)b->rank;
    b->count = (int)n;
    b->in_elems = n;
    b->recv_elems = n;
    b->res_off = 0;
    b->res_elems = n;
    switch (b->coll) {
    case VINE_COLL_REDUCE:
        b->res_elems = b->rank == b->root ? n : 0;
        break;
    case VINE_COLL_ALLGATHER:
        b->recv_elems = b->res_elems = n * p;
        break;
    case VINE_COLL_REDUCE_SCATTER_BLOCK:
        b->in_elems = n * p;
        b->recv_elems = b->inplace ? n * p : n;
        break;
    case VINE_COLL_REDUCE_SCATTER:
        for (size_t i = 0; i < p; i++)
            b->counts[i] = (int)(n / p + (i < n % p));
        b->res_elems = (size_t)b->counts[r];
        b->recv_elems = b->inplace ? n : b->res_elems;
        break;
    case VINE_COLL_ALLTOALL:
        b->in_elems = b->recv_elems = b->res_elems = n * p;
        break;
    case VINE_COLL_GATHER:
        b->recv_elems = b->res_elems = b->rank == b->root ? n * p : 0;
        break;
    case VINE_COLL_SCATTER:
        b->in_elems = b->rank == b->root ? n * p : 0;
        b->res_elems = b->rank == b->root && b->inplace ? 0 : n;
        break;
    case VINE_COLL_BARRIER:
        b->count = 0;
        b->in_elems = b->recv_elems = b->res_elems = 0;
        break;
    default:
        break;
    }
}

/*
 * Collective: every rank learns what bcase_init found on any rank (the
 * worst of the enum bench_v_shape_error values, 0 when all is well), and
 * the row's S and whether it moves anything, from what each rank sends.
 */
static int bcase_agree(bcase *b, int rc, size_t sent)
{
    int worst;
    double mine = (double)sent, all;
    MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(&mine, &all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (bench_v_irregular(b->coll)) {
        /* S: all blocks (alltoallv, alltoallw: a rank's send buffer, on average). */
        b->moves = all > 0;
        b->op_bytes = all * (double)b->tsize / (bench_v_a2a(b->coll) ? b->p : 1);
    } else {
        b->moves = b->coll == VINE_COLL_BARRIER ? b->p > 1 : b->count > 0;
        b->op_bytes = vine__bench_op_bytes(b->coll, (size_t)b->count * b->tsize, b->p);
    }
    return worst;
}

/* Collective: the case of row s of coll; 0, or an enum bench_v_shape_error value on every rank. */
static int bcase_init(bcase *b, const options *o, vine_coll coll, int s)
{
    memset(b, 0, sizeof *b);
    b->preq = MPI_REQUEST_NULL;
    b->coll = coll;
    b->dt = o->dt;
    MPI_Aint lb, extent;
    MPI_Type_get_extent(o->dt, &lb, &extent);
    b->tsize = (size_t)extent;
    b->op = o->op;
    b->root = o->root;
    b->inplace = o->inplace && coll != VINE_COLL_BCAST && coll != VINE_COLL_BARRIER;
    MPI_Comm_size(MPI_COMM_WORLD, &b->p);
    MPI_Comm_rank(MPI_COMM_WORLD, &b->rank);
    b->counts = malloc(sizeof(int) * (size_t)b->p);
    size_t n = o->sizes[s] / b->tsize, sent = 0;
    int rc = b->counts ? 0 : BENCH_V_NOMEM;
    if (!rc && bench_v_new(coll))
        rc = bench_v_shape(b, o->ndists ? &o->dists[s] : NULL, n, &sent);
    else if (!rc)
        bcase_shape(b, n);
    if (!rc) {
        size_t in = b->in_elems * b->tsize + 1, out = b->recv_elems * b->tsize + 1;
        b->send = malloc(in);
        b->input = malloc(in);
        b->recv = malloc(out);
        b->ref = malloc(out);
        rc = b->send && b->input && b->recv && b->ref ? 0 : BENCH_V_NOMEM;
    }
    return bcase_agree(b, rc, sent);
}

static void bcase_free(bcase *b)
{
    free(b->counts);
    free(b->send);
    free(b->input);
    free(b->recv);
    free(b->ref);
    bench_v_free(b);
}

/* A small integer for element i of rank r, so that floating results are exact. */
static long value(MPI_Op op, int r, size_t i)
{
    if (op == MPI_PROD)
        return (r + i) % 8 == 0 ? 2 : ((r + 3 * i) % 5 == 0 ? -1 : 1);
    if (op == MPI_LAND || op == MPI_LOR || op == MPI_LXOR)
        return ((i * 37 + 11) >> (r % 8)) & 1;
    if (op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR)
        return (long)((r + 1) * 37 + i * 11) & 0x7f;
    return (long)((r * 7 + i * 3) % 5) - 2;
}

static void put(const bcase *b, unsigned char *dst, long v)
{
    if (b->dt == MPI_FLOAT) {
        float f = (float)v;
        memcpy(dst, &f, sizeof f);
    } else if (b->dt == MPI_DOUBLE) {
        double d = (double)v;
        memcpy(dst, &d, sizeof d);
    } else if (b->dt == MPI_CHAR) {
        char c = (char)v;
        memcpy(dst, &c, 1);
    } else if (b->dt == MPI_INT) {
        int x = (int)v;
        memcpy(dst, &x, sizeof x);
    } else {
        memcpy(dst, &v, sizeof v);
    }
}

/* scatter and scatterv, whose MPI_IN_PLACE is the root's receive buffer. */
static int is_scatter(const bcase *b)
{
    return b->coll == VINE_COLL_SCATTER || b->coll == VINE_COLL_SCATTERV;
}

/*
 * Is this rank's call in place?  Off the root, reduce, gather(v) and
 * scatter(v) are not; scatter's MPI_IN_PLACE is its receive buffer, the
 * others' the send buffer.
 */
static int inplace_here(const bcase *b)
{
    int rooted = b->coll == VINE_COLL_REDUCE || b->coll == VINE_COLL_GATHER ||
                 b->coll == VINE_COLL_GATHERV || is_scatter(b);
    return b->inplace && (!rooted || b->rank == b->root);
}

/* Where an in-place (all)gather(v) finds this rank's block in the receive buffer, in bytes. */
static size_t own_block(const bcase *b, size_t bytes)
{
    if (b->coll == VINE_COLL_ALLGATHERV || b->coll == VINE_COLL_GATHERV)
        return b->own_off * b->tsize;
    return (size_t)b->rank * bytes;
}

/* Writes this rank's input where the collective reads it. */
static void bcase_input(bcase *b)
{
    for (size_t i = 0; i < b->in_elems; i++)
        put(b, b->input + i * b->tsize, value(b->op, b->rank, i));
    size_t bytes = b->in_elems * b->tsize;
    if (b->coll == VINE_COLL_BCAST) {
        if (b->rank == b->root)
            memcpy(b->recv, b->input, bytes);
    } else if (inplace_here(b) &&
               (b->coll == VINE_COLL_ALLGATHER || b->coll == VINE_COLL_GATHER ||
                b->coll == VINE_COLL_ALLGATHERV || b->coll == VINE_COLL_GATHERV)) {
        memcpy(b->recv + own_block(b, bytes), b->input, bytes);
    } else if (inplace_here(b) && !is_scatter(b)) {
        memcpy(b->recv, b->input, bytes);
    } else {
        memcpy(b->send, b->input, bytes);
    }
}

/* The send buffer argument: MPI_IN_PLACE where the case is in place at this rank. */
const void *bench_send_arg(const bcase *b)
{
    return inplace_here(b) && !is_scatter(b) ? MPI_IN_PLACE : b->send;
}

/* The receive buffer argument: scatter's MPI_IN_PLACE at the root. */
void *bench_recv_arg(const bcase *b)
{
    return inplace_here(b) && is_scatter(b) ? MPI_IN_PLACE : b->recv;
}

static int run_vine(const bcase *b)
{
    MPI_Comm w = MPI_COMM_WORLD;
    const void *s = bench_send_arg(b);
    switch (b->coll) {
    case VINE_COLL_BCAST:
        return vine_bcast(b->recv, b->count, b->dt, b->root, w);
    case VINE_COLL_REDUCE:
        return vine_reduce(s, b->recv, b->count, b->dt, b->op, b->root, w);
    case VINE_COLL_ALLREDUCE:
        return vine_allreduce(s, b->recv, b->count, b->dt, b->op, w);
    case VINE_COLL_ALLGATHER:
        return vine_allgather(s, b->count, b->dt, b->recv, b->count, b->dt, w);
    case VINE_COLL_REDUCE_SCATTER_BLOCK:
        return vine_reduce_scatter_block(s, b->recv, b->count, b->dt, b->op, w);
    case VINE_COLL_ALLTOALL:
        return vine_alltoall(s, b->count, b->dt, b->recv, b->count, b->dt, w);
    case VINE_COLL_GATHER:
        return vine_gather(s, b->count, b->dt, b->recv, b->count, b->dt, b->root, w);
    case VINE_COLL_SCATTER:
        return vine_scatter(s, b->count, b->dt, bench_recv_arg(b), b->count, b->dt, b->root, w);
    case VINE_COLL_BARRIER:
        return vine_barrier(w);
    default:
        return vine_reduce_scatter(s, b->recv, b->counts, b->dt, b->op, w);
    }
}

static int run_mpi(const bcase *b)
{
    MPI_Comm w = MPI_COMM_WORLD;
    const void *s = bench_send_arg(b);
    switch (b->coll) {
    case VINE_COLL_BCAST:
        return MPI_Bcast(b->recv, b->count, b->dt, b->root, w);
    case VINE_COLL_REDUCE:
        return MPI_Reduce(s, b->recv, b->count, b->dt, b->op, b->root, w);
    case VINE_COLL_ALLREDUCE:
        return MPI_Allreduce(s, b->recv, b->count, b->dt, b->op, w);
    case VINE_COLL_ALLGATHER:
        return MPI_Allgather(s, b->count, b->dt, b->recv, b->count, b->dt, w);
    case VINE_COLL_REDUCE_SCATTER_BLOCK:
        return MPI_Reduce_scatter_block(s, b->recv, b->count, b->dt, b->op, w);
    case VINE_COLL_ALLTOALL:
        return MPI_Alltoall(s, b->count, b->dt, b->recv, b->count, b->dt, w);
    case VINE_COLL_GATHER:
        return MPI_Gather(s, b->count, b->dt, b->recv, b->count, b->dt, b->root, w);
    case VINE_COLL_SCATTER:
        return MPI_Scatter(s, b->count, b->dt, bench_recv_arg(b), b->count, b->dt, b->root, w);
    case VINE_COLL_BARRIER:
        return MPI_Barrier(w);
    default:
        return MPI_Reduce_scatter(s, b->recv, b->counts, b->dt, b->op, w);
    }
}

int bench_run_blocking(const bcase *b, int mpi)
{
    if (bench_v_new(b->coll))
        return bench_v_run(b, mpi);
    return mpi ? run_mpi(b) : run_vine(b);
}

/* One call on fresh input and a poisoned receive buffer. */
static int run_fresh(bcase *b, int mpi)
{
    memset(b->recv, 0xEE, b->recv_elems * b->tsize);
    bcase_input(b);
    return bench_run_blocking(b, mpi);
}

/* Does VINE_BENCH_CORRUPT name algo of b's collective? */
static int corrupted(const bcase *b, const char *algo)
{
    return corrupt_algo && strcmp(corrupt_algo, algo) == 0 &&
           (!corrupt_coll || strcmp(corrupt_coll, vine_coll_name(b->coll)) == 0);
}

/*
 * The forms of vine's call that --check compares with the MPI library's
 * blocking collective: the blocking call; start + wait of the nonblocking
 * call and start + many progress calls + wait; or two starts of the
 * persistent request (b->preq), each on fresh input.
 */
static int forms_of(const options *o)
{
    return o->mode == VINE_BENCH_MODE_BLOCKING ? 1 : 2;
}

static const char *form_name(const options *o, int f)
{
    if (o->mode == VINE_BENCH_MODE_NONBLOCKING)
        return f ? "nonblocking, start + progress calls + wait" : "nonblocking, start + wait";
    if (o->mode == VINE_BENCH_MODE_PERSISTENT)
        return f ? "persistent, second start + wait" : "persistent, first start + wait";
    return "blocking";
}

/* One nonblocking call: start + wait. */
static int run_nb(const bcase *b, int mpi)
{
    MPI_Request req = MPI_REQUEST_NULL;
    int rc = bench_nb_start(b, mpi, &req);
    return rc == MPI_SUCCESS ? bench_nb_wait(mpi, &req) : rc;
}

/* One call of vine's collective in form f on fresh input and a poisoned receive buffer. */
static int run_form(bcase *b, const options *o, int f)
{
    memset(b->recv, 0xEE, b->recv_elems * b->tsize);
    bcase_input(b);
    if (o->mode == VINE_BENCH_MODE_NONBLOCKING)
        return f ? bench_nb_run_progressed(b, 0) : run_nb(b, 0);
    if (o->mode == VINE_BENCH_MODE_PERSISTENT)
        return bench_nb_start_wait(0, &b->preq);
    return bench_run_blocking(b, 0);
}

/*
 * Collective: 1 when every rank's result matches the MPI library's, in
 * every form of the mode.  On a mismatch rank 0 says on stderr which
 * algorithm, case and ranks (and, but for blocking calls, which form).
 */
static int check(bcase *b, const char *algo, const char *label, const options *o, int *err)
{
    size_t off = b->res_off * b->tsize, bytes = b->res_elems * b->tsize;
    int rc = run_fresh(b, 1), ok = rc == MPI_SUCCESS, form = forms_of(o);
    memcpy(b->ref, b->recv + off, bytes);
    /* Every rank runs every form, whatever its own results, as the calls are collective. */
    for (int f = 0; rc == MPI_SUCCESS && f < forms_of(o); f++) {
        rc = run_form(b, o, f);
        if (rc == MPI_SUCCESS && bytes && corrupted(b, algo))
            b->recv[off + bytes / 2] ^= 0x5a; /* test only: a wrong result that --check must see */
        int same = rc == MPI_SUCCESS && memcmp(b->ref, b->recv + off, bytes) == 0;
        if (!same && ok)
            form = f;
        ok &= same;
    }
    int bad = !ok, me = ok ? b->p : b->rank, nbad, first, first_form;
    MPI_Allreduce(&bad, &nbad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&me, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&form, &first_form, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (rc != MPI_SUCCESS)
        *err = rc;
    if (nbad && rank0)
        fprintf(stderr,
                "vine-bench: check FAILED: %s algorithm %s at size %s: the result does not "
                "match the MPI library's on %d of %d ranks (the first: rank %d)%s%s\n",
                vine_coll_name(b->coll), algo, label, nbad, b->p, first,
                o->mode == VINE_BENCH_MODE_BLOCKING ? "" : "; the call: ",
                o->mode == VINE_BENCH_MODE_BLOCKING ? "" : form_name(o, first_form));
    return nbad == 0;
}

/*
 * Times --iters iterations (after --warmup untimed ones when given); rank 0
 * gets the statistics of the per-iteration maxima over ranks, the first 20%
 * dropped unless --warmup was given.
 */
static int time_case(const bcase *b, int mpi, const options *o, vine_bench_stats *st)
{
    int warm = o->warmup > 0 ? o->warmup : 0, n = o->iters;
    int drop = o->warmup >= 0 ? 0 : vine__bench_warmup_drop(n);
    double *t = malloc(sizeof(double) * (size_t)n), *tmax = malloc(sizeof(double) * (size_t)n);
    int rc = t && tmax ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    for (int k = 0; k < warm + n && rc == MPI_SUCCESS; k++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        rc = bench_run_blocking(b, mpi);
        if (k >= warm)
            t[k - warm] = (MPI_Wtime() - t0) * 1e6;
    }
    if (rc == MPI_SUCCESS) {
        MPI_Reduce(t, tmax, n, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        if (rank0 && vine__bench_stats(tmax, n, drop, st) != 0)
            rc = MPI_ERR_NO_MEM;
    }
    free(t);
    free(tmax);
    return rc;
}

/* Collective: does the forced algorithm serve b, or did vine fall back? */
static int served_by(const bcase *b, const char *algo)
{
    /* A call that moves nothing runs no algorithm, nor does a barrier on one rank. */
    int fell_back = 0, any;
    if (b->moves && strcmp(algo, "auto") != 0)
        fell_back = strcmp(vine_last_algorithm(b->coll), algo) != 0;
    MPI_Allreduce(&fell_back, &any, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    return !any;
}

/*
 * Collective, --nonblocking and --persistent: vine's first call of the
 * mode, untimed (start + wait; the persistent request's creation, into
 * b->preq); 1 in *na when it was served by another algorithm than algo.
 */
static int first_of_mode(bcase *b, const options *o, const char *algo, int *na)
{
    int rc;
    if (o->mode == VINE_BENCH_MODE_PERSISTENT) {
        bcase_input(b);
        rc = bench_nb_init(b, 0, &b->preq);
    } else {
        rc = run_form(b, o, 0);
    }
    *na = rc == MPI_SUCCESS && !served_by(b, algo);
    return rc;
}

/* Collective: times the row in the run's mode; the statistics in r->st on rank 0. */
static int time_row(bcase *b, int mpi, const options *o, row *r)
{
    bench_nb_timing t = {o->iters, o->warmup, o->interval_us};
    int rc;
    if (o->mode == VINE_BENCH_MODE_NONBLOCKING)
        rc = bench_nb_time(b, mpi, &t, &r->nb);
    else if (o->mode == VINE_BENCH_MODE_PERSISTENT)
        rc = bench_nb_time_persistent(b, mpi, &b->preq, &t, &r->nb);
    else
        return time_case(b, mpi, o, &r->st);
    r->st = r->nb.st;
    return rc;
}

/*
 * Measures one row: algo "mpi" is the MPI library's collective.  With
 * --nonblocking and --persistent, a row that vine serves with another
 * algorithm in either the blocking or the mode's form is n/a.
 */
static row measure(bcase *b, const char *algo, const char *label, const options *o)
{
    row r;
    memset(&r, 0, sizeof r);
    r.check = -1;
    r.err = MPI_SUCCESS;
    r.nb.comp = r.nb.ovl = r.nb.ovl_np = r.nb.np_start = r.nb.np_wait = r.nb.blocking = NAN;
    int mpi = strcmp(algo, "mpi") == 0;
    if (!mpi) {
        vine_set_algorithm(b->coll, algo);
        r.err = run_fresh(b, 0);
        if (r.err == MPI_SUCCESS && !served_by(b, algo))
            r.na = 1;
        if (r.err == MPI_SUCCESS && !r.na && o->mode != VINE_BENCH_MODE_BLOCKING)
            r.err = first_of_mode(b, o, algo, &r.na);
        /* A barrier has no result to compare: its check column stays '-'. */
        if (r.err == MPI_SUCCESS && !r.na && o->check && b->coll != VINE_COLL_BARRIER)
            r.check = check(b, algo, label, o, &r.err);
    } else if (o->mode == VINE_BENCH_MODE_PERSISTENT && bench_nb_mpi_persistent(b->coll)) {
        r.err = bench_nb_init(b, 1, &b->preq);
    }
    if (r.err == MPI_SUCCESS && !r.na) {
        bcase_input(b);
        r.err = time_row(b, mpi, o, &r);
    }
    bench_nb_free(mpi, &b->preq);
    return r;
}

/* The lines of the header that explain --nonblocking's columns, and the columns. */
static void print_header_nb(const options *o)
{
    const char *thread = getenv("VINE_PROGRESS_THREAD");
    printf("# nonblocking: pure_us = start + wait alone; comp_us = a compute loop alone, "
           "calibrated on rank 0\n# to last about pure_us; ovl_us = start + that loop + wait, "
           "with a progress call (vine_progress;\n# MPI_Test for mpi) every %g us of it; "
           "ovl_np_us = the same without progress calls;\n# %%ovl = 100 max(0, min(1, "
           "(pure_us + comp_us - ovl_us) / pure_us)), the share of the communication\n"
           "# hidden (OSU's overlap), %%ovl_np the same of ovl_np_us; start_us, wait_us: the "
           "start alone and\n# the wait alone in the runs of ovl_np_us; times: medians in "
           "microseconds of\n# per-iteration maxima over ranks; ratio = pure_us / "
           "pure_us(mpi)%s%s\n",
           o->interval_us, thread ? "; VINE_PROGRESS_THREAD=" : "", thread ? thread : "");
    printf("%-20s %-22s %8s %9s %10s %10s %10s %6s %10s %7s %9s %9s %7s %5s\n", "collective",
           "algorithm", "size", "count", "pure_us", "comp_us", "ovl_us", "%ovl", "ovl_np_us",
           "%ovl_np", "start_us", "wait_us", "ratio", "check");
}

/* Is a collective whose persistent form the MPI library lacks (or vine-bench skips) chosen? */
static int mpi_persistent_missing(const options *o)
{
    for (int c = 0; c < o->ncolls; c++)
        if (!bench_nb_mpi_persistent((vine_coll)o->colls[c]))
            return 1;
    return 0;
}

/* The lines of the header that explain --persistent's numbers. */
static void print_header_persistent(const options *o)
{
    printf("# persistent: median_us ... max_us = start + wait of a request made once by "
           "vine_<coll>_init\n# (mpi: MPI_<Coll>_init); blocking_us = the median of the "
           "blocking call, timed in\n# alternation with it; p/b = median_us / blocking_us\n");
    if (MPI_VERSION < 4)
        printf("# the MPI library has no persistent collectives (MPI_VERSION < 4): its rows "
               "time its\n# blocking calls, p/b -\n");
    else if (mpi_persistent_missing(o))
        printf("# MPICH's MPI_Scatter_init fails on its second start: the mpi row of scatter "
               "times its\n# blocking call, p/b -\n");
}

/* The width of the size column: 8, or with --dist the longest spec's. */
static int size_width(const options *o)
{
    int w = 8;
    for (int s = 0; o->ndists && s < o->nsizes; s++)
        if ((int)strlen(o->labels[s]) > w)
            w = (int)strlen(o->labels[s]);
    return w;
}

static void print_header(const options *o, int p)
{
    int drop = vine__bench_warmup_drop(o->iters);
    printf("# vine-bench coll: p=%d dtype=%s op=%s root=%d in-place=%s iters=%d ", p, o->dtype_name,
           o->op_name, o->root, o->inplace ? "yes" : "no", o->iters);
    if (o->warmup >= 0)
        printf("warmup=%d (untimed, before the %d kept)\n", o->warmup, o->iters);
    else
        printf("warmup=%d (the first 20%% of iters, dropped)\n", drop);
    if (o->mode == VINE_BENCH_MODE_NONBLOCKING) {
        print_header_nb(o);
        return;
    }
    if (o->mode == VINE_BENCH_MODE_PERSISTENT)
        print_header_persistent(o);
    if (o->ndists)
        printf("# --dist: the size column is the distribution's spec; count and the files' size: "
               "its N\n# (a file's mean block) in elements and bytes; algbw = the bytes of all "
               "blocks / median\n# (alltoallv, alltoallw: divided by p)\n");
    printf("# times in microseconds, per iteration the maximum over ranks; algbw and busbw "
           "in GB/s (nccl-tests);\n# ratio = median / median(mpi)\n");
    if (copybw.on && isfinite(copybw.all)) {
        char line[160];
        vine__bench_copy_describe(line, sizeof line, p, copybw.all, copybw.one, o->copy_bytes,
                                  VINE_BENCH_COPY_REPS);
        printf("# %s\n# %%copy = busbw / the all-rank copy bandwidth, in percent; a copy of B "
               "bytes counts B\n# (read once and written once): a comparison, not an efficiency "
               "(docs/bench.md)\n",
               line);
    } else if (copybw.on) {
        printf("# copy bandwidth: not measured\n");
    }
    printf("%-20s %-22s %*s %9s %10s %10s %10s %10s %10s %8s %8s ", "collective", "algorithm",
           size_width(o), "size", "count", "median_us", "min_us", "mean_us", "p99_us", "max_us",
           "algbw", "busbw");
    if (copybw.on)
        printf("%6s ", "%copy");
    if (o->mode == VINE_BENCH_MODE_PERSISTENT)
        printf("%7s %11s %6s %5s\n", "ratio", "blocking_us", "p/b", "check");
    else
        printf("%7s %5s\n", "ratio", "check");
}

/* Rounds a time to a nanosecond, far below the clock's noise, so that the files stay short. */
static double round_ns(double us)
{
    return round(us * 1000) / 1000;
}

/* x to 6 significant digits (bandwidths and ratios in the files). */
static double sig6(double x)
{
    char buf[32];
    if (!isfinite(x))
        return NAN;
    snprintf(buf, sizeof buf, "%.6g", x);
    return strtod(buf, NULL);
}

/* The row for the result files (rank 0). */
/* The fields of --nonblocking and --persistent of a measured row for the result files. */
static void file_row_mode(const options *o, const row *r, vine_bench_row *x)
{
    const bench_nb_result *n = &r->nb;
    if (o->mode == VINE_BENCH_MODE_NONBLOCKING) {
        x->comp = round_ns(n->comp);
        x->overlap_time = round_ns(n->ovl);
        x->overlap = sig6(bench_nb_overlap(r->st.median, n->comp, n->ovl));
        x->overlap_np_time = round_ns(n->ovl_np);
        x->overlap_np = sig6(bench_nb_overlap(r->st.median, n->comp, n->ovl_np));
        x->np_start = round_ns(n->np_start);
        x->np_wait = round_ns(n->np_wait);
    } else if (o->mode == VINE_BENCH_MODE_PERSISTENT) {
        x->blocking = round_ns(n->blocking);
        if (n->persistent && n->blocking > 0)
            x->persistent_ratio = sig6(r->st.median / n->blocking);
    }
}

static void file_row(const options *o, const bcase *b, const char *label, const char *algo,
                     const row *r, double mpi_median, vine_bench_row *x)
{
    int barrier = b->coll == VINE_COLL_BARRIER;
    vine__bench_row_init(x, vine_coll_name(b->coll), algo, barrier ? "-" : label);
    size_t bytes = (size_t)b->count * b->tsize;
    x->size = barrier ? 0 : (long long)bytes;
    x->count = barrier ? -1 : b->count;
    x->check = r->check;
    if (r->err != MPI_SUCCESS) {
        x->status = VINE_BENCH_ROW_ERROR;
        snprintf(x->error, sizeof x->error, "%s", vine_error_string(r->err));
        return;
    }
    if (r->na) {
        x->status = VINE_BENCH_ROW_NA;
        return;
    }
    x->kept = r->st.kept;
    x->dropped = r->st.dropped;
    x->min = round_ns(r->st.min);
    x->median = round_ns(r->st.median);
    x->mean = round_ns(r->st.mean);
    x->p99 = round_ns(r->st.p99);
    x->max = round_ns(r->st.max);
    if (mpi_median > 0)
        x->ratio = sig6(r->st.median / mpi_median);
    double algbw, busbw;
    if (vine__bench_bandwidth_of(b->coll, b->p, b->op_bytes, r->st.median, &algbw, &busbw) == 0) {
        x->algbw = sig6(algbw);
        x->busbw = sig6(busbw);
        x->copy_fraction = sig6(vine__bench_copy_fraction(busbw, copybw.all));
    }
    file_row_mode(o, r, x);
}

/* A time for a table cell, "-" when it is missing. */
static const char *cell_time(char *buf, size_t cap, double us)
{
    if (isfinite(us))
        snprintf(buf, cap, "%.2f", us);
    else
        snprintf(buf, cap, "-");
    return buf;
}

/* A fraction as a percentage with one decimal for a table cell, "-" when it is missing. */
static const char *cell_pct(char *buf, size_t cap, double f)
{
    if (isfinite(f))
        snprintf(buf, cap, "%.1f", 100 * f);
    else
        snprintf(buf, cap, "-");
    return buf;
}

/* The rest of a measured row of --nonblocking, after its count. */
static void print_row_nb(const row *r, double mpi_median, const char *chk)
{
    const bench_nb_result *n = &r->nb;
    char ratio[16] = "-", c[7][24];
    if (mpi_median > 0)
        snprintf(ratio, sizeof ratio, "%.2f", r->st.median / mpi_median);
    printf("%10.2f %10s %10s %6s %10s %7s %9s %9s %7s %5s\n", r->st.median,
           cell_time(c[0], sizeof c[0], n->comp), cell_time(c[1], sizeof c[1], n->ovl),
           cell_pct(c[2], sizeof c[2], bench_nb_overlap(r->st.median, n->comp, n->ovl)),
           cell_time(c[3], sizeof c[3], n->ovl_np),
           cell_pct(c[4], sizeof c[4], bench_nb_overlap(r->st.median, n->comp, n->ovl_np)),
           cell_time(c[5], sizeof c[5], n->np_start), cell_time(c[6], sizeof c[6], n->np_wait),
           ratio, chk);
}

/* The last columns of a row of --persistent: ratio, blocking_us, p/b and check. */
static void print_tail_persistent(const row *r, const char *ratio, const char *chk)
{
    char blk[24] = "n/a", pb[16] = "n/a";
    if (!r->na) {
        cell_time(blk, sizeof blk, r->nb.blocking);
        snprintf(pb, sizeof pb, "-");
        if (r->nb.persistent && r->nb.blocking > 0)
            snprintf(pb, sizeof pb, "%.2f", r->st.median / r->nb.blocking);
    }
    printf("%7s %11s %6s %5s\n", ratio, blk, pb, chk);
}

/* Prints one row on rank 0; returns 1 when it counts as a failure. */
static int print_row(const options *o, const bcase *b, const char *label, const char *algo,
                     const row *r, double mpi_median)
{
    if (!rank0)
        return r->err != MPI_SUCCESS || r->check == 0;
    int nb = o->mode == VINE_BENCH_MODE_NONBLOCKING, pers = o->mode == VINE_BENCH_MODE_PERSISTENT;
    if (b->coll == VINE_COLL_BARRIER)
        printf("%-20s %-22s %*s %9s ", vine_coll_name(b->coll), algo, size_width(o), "-", "-");
    else
        printf("%-20s %-22s %*s %9d ", vine_coll_name(b->coll), algo, size_width(o), label,
               b->count);
    if (r->err != MPI_SUCCESS) {
        printf("error: %s\n", vine_error_string(r->err));
    } else if (r->na && nb) {
        printf("%10s %10s %10s %6s %10s %7s %9s %9s %7s %5s\n", "n/a", "n/a", "n/a", "n/a", "n/a",
               "n/a", "n/a", "n/a", "n/a", "n/a");
    } else if (nb) {
        print_row_nb(r, mpi_median, r->check < 0 ? "-" : r->check ? "OK" : "FAIL");
    } else if (r->na) {
        printf("%10s %10s %10s %10s %10s %8s %8s ", "n/a", "n/a", "n/a", "n/a", "n/a", "n/a",
               "n/a");
        if (copybw.on)
            printf("%6s ", "n/a");
        if (pers)
            print_tail_persistent(r, "n/a", "n/a");
        else
            printf("%7s %5s\n", "n/a", "n/a");
    } else {
        char ratio[16] = "-", algbw[16] = "-", busbw[16] = "-", pct[16] = "-";
        double a, bb;
        if (mpi_median > 0)
            snprintf(ratio, sizeof ratio, "%.2f", r->st.median / mpi_median);
        if (vine__bench_bandwidth_of(b->coll, b->p, b->op_bytes, r->st.median, &a, &bb) == 0) {
            snprintf(algbw, sizeof algbw, "%.3f", a);
            snprintf(busbw, sizeof busbw, "%.3f", bb);
            double f = vine__bench_copy_fraction(bb, copybw.all);
            if (isfinite(f))
                snprintf(pct, sizeof pct, "%.1f", 100 * f);
        }
        const char *chk = r->check < 0 ? "-" : r->check ? "OK" : "FAIL";
        printf("%10.2f %10.2f %10.2f %10.2f %10.2f %8s %8s ", r->st.median, r->st.min, r->st.mean,
               r->st.p99, r->st.max, algbw, busbw);
        if (copybw.on)
            printf("%6s ", pct);
        if (pers)
            print_tail_persistent(r, ratio, chk);
        else
            printf("%7s %5s\n", ratio, chk);
    }
    fflush(stdout);
    return r->err != MPI_SUCCESS || r->check == 0;
}

/* Is algorithm name (or "auto") asked for? */
static int wanted(const options *o, const char *name)
{
    if (o->nalgos == 0)
        return 1;
    for (int i = 0; i < o->nalgos; i++)
        if (strcmp(o->algos[i], name) == 0)
            return 1;
    return 0;
}

/*
 * Row i of coll after the mpi row: auto (i = -1), then the registry's
 * algorithms; NULL when not wanted.  The registry's own "mpi" (vine handing
 * the call to the MPI library) is the mpi row already.
 */
static const char *vine_row(const options *o, vine_coll coll, int i)
{
    const char *algo = i < 0 ? "auto" : vine_algorithm_name(coll, i);
    return strcmp(algo, "mpi") != 0 && wanted(o, algo) ? algo : NULL;
}

/* The rows of one collective at one size: mpi, then auto and every wanted algorithm. */
static int rows_of(const options *o, vine_coll coll)
{
    int n = 1;
    for (int i = -1; i < vine_algorithm_count(coll); i++)
        n += vine_row(o, coll, i) != NULL;
    return n;
}

/* Rank 0 shows "[done/total] coll size algo" on stderr (overwritten on a terminal). */
static void progress_show(progress *pr, vine_coll coll, const char *label, const char *algo)
{
    if (!pr->on)
        return;
    char line[128];
    snprintf(line, sizeof line, "vine-bench: [%ld/%ld] %s %s %s", pr->done + 1, pr->total,
             vine_coll_name(coll), coll == VINE_COLL_BARRIER ? "-" : label, algo);
    if (pr->tty)
        fprintf(stderr, "\r%-79.79s", line);
    else
        fprintf(stderr, "%s\n", line);
    fflush(stderr);
}

/* Rank 0 clears the progress line before stdout writes on the same terminal. */
static void progress_clear(progress *pr)
{
    if (pr->on && pr->tty) {
        fprintf(stderr, "\r%79s\r", "");
        fflush(stderr);
    }
}

/*
 * One row: measure, print, add to the results; returns 1 for a failure.
 * mpi_median < 0 stands for the row's own median (the mpi row).
 */
static int one_row(bcase *b, const options *o, int s, const char *algo, double mpi_median, row *out,
                   progress *pr, vine_bench_results *res, int *nomem)
{
    progress_show(pr, b->coll, o->labels[s], algo);
    row r = measure(b, algo, o->labels[s], o);
    progress_clear(pr);
    pr->done++;
    if (mpi_median < 0) /* the mpi row: its ratio to itself */
        mpi_median = rank0 && r.err == MPI_SUCCESS ? r.st.median : 0;
    int failed = print_row(o, b, o->labels[s], algo, &r, mpi_median);
    if (rank0 && res) {
        vine_bench_row x;
        file_row(o, b, o->labels[s], algo, &r, mpi_median, &x);
        *nomem |= vine__bench_results_add(res, &x) != 0;
    }
    if (out)
        *out = r;
    return failed;
}

/* Every requested row of one collective at one size; returns the failures. */
static int bench_size(const options *o, vine_coll coll, int s, progress *pr,
                      vine_bench_results *res, int *nomem)
{
    static const char *why[] = {"", "out of memory",
                                "a count or displacement would pass INT_MAX, which MPI's int "
                                "arguments cannot hold",
                                "--in-place needs as many elements from rank i to rank j as "
                                "from j to i, which this distribution does not give"};
    bcase b;
    int failures = 0, rc = bcase_init(&b, o, coll, s);
    if (rc) {
        if (rank0)
            fprintf(stderr, "vine-bench: %s at %s: %s\n", vine_coll_name(coll), o->labels[s],
                    why[rc]);
        bcase_free(&b);
        return 1;
    }
    row mpi;
    failures += one_row(&b, o, s, "mpi", -1, &mpi, pr, res, nomem);
    double mpi_median = rank0 && mpi.err == MPI_SUCCESS ? mpi.st.median : 0;
    for (int i = -1; i < vine_algorithm_count(coll); i++) {
        const char *algo = vine_row(o, coll, i);
        if (algo)
            failures += one_row(&b, o, s, algo, mpi_median, NULL, pr, res, nomem);
    }
    vine_set_algorithm(coll, "auto");
    bcase_free(&b);
    return failures;
}

/* Appends s to the command line in buf, single-quoted when the shell would need it. */
static void append_arg(char *buf, size_t cap, const char *s)
{
    size_t n = strlen(buf);
    int plain = *s != '\0';
    for (const char *c = s; *c; c++)
        plain &= (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
                 strchr("-_./:=,+@%", *c) != NULL;
    if (n && n + 1 < cap)
        buf[n++] = ' ';
    if (!plain && n + 1 < cap)
        buf[n++] = '\'';
    for (; *s && n + 5 < cap; s++) {
        if (*s == '\'' && !plain) {
            memcpy(buf + n, "'\\''", 4);
            n += 4;
        } else {
            buf[n++] = *s;
        }
    }
    if (!plain && n + 1 < cap)
        buf[n++] = '\'';
    buf[n] = '\0';
}

/*
 * Collective: the description of the run for the result files: the command
 * line (taken before the options were parsed, which splits some), the date, the MPI library, the
 * options and every rank's host (gathered to rank 0).  Returns 0, or -1 on rank 0 when memory ran
 * out.
 */
static int describe(vine_bench_results *res, const options *o, const char *cmd, int p)
{
    char name[MPI_MAX_PROCESSOR_NAME + 1] = "";
    int len = 0, rc = 0;
    MPI_Get_processor_name(name, &len);
    name[len < 0 ? 0 : len > MPI_MAX_PROCESSOR_NAME ? MPI_MAX_PROCESSOR_NAME : len] = '\0';
    char *all = rank0 ? calloc((size_t)p, MPI_MAX_PROCESSOR_NAME + 1) : NULL;
    int nomem = rank0 && !all;
    MPI_Bcast(&nomem, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (nomem)
        return -1;
    MPI_Gather(name, MPI_MAX_PROCESSOR_NAME + 1, MPI_CHAR, all, MPI_MAX_PROCESSOR_NAME + 1,
               MPI_CHAR, 0, MPI_COMM_WORLD);
    if (!rank0)
        return 0;
    char lib[MPI_MAX_LIBRARY_VERSION_STRING + 1] = "", date[32] = "";
    MPI_Get_library_version(lib, &len);
    lib[len < 0                                ? 0
        : len > MPI_MAX_LIBRARY_VERSION_STRING ? MPI_MAX_LIBRARY_VERSION_STRING
                                               : len] = '\0';
    lib[strcspn(lib, "\r\n")] = '\0'; /* the first line */
    while (len > 0 && strlen(lib) && lib[strlen(lib) - 1] == ' ')
        lib[strlen(lib) - 1] = '\0';
    time_t now = time(NULL);
    struct tm tm;
    if (gmtime_r(&now, &tm))
        strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    rc |= vine__bench_results_set(&res->command, cmd);
    rc |= vine__bench_results_set(&res->date, date);
    rc |= vine__bench_results_set(&res->mpi_library, lib);
    snprintf(res->dtype, sizeof res->dtype, "%s", o->dtype_name);
    snprintf(res->op, sizeof res->op, "%s", o->op_name);
    res->root = o->root;
    res->inplace = o->inplace;
    res->check = o->check;
    res->iters = o->iters;
    res->warmup = o->warmup;
    rc |= vine__bench_results_set_ranks(res, p);
    for (int r = 0; rc == 0 && r < p; r++)
        rc |= vine__bench_results_set_host(res, r, all + (size_t)r * (MPI_MAX_PROCESSOR_NAME + 1));
    free(all);
    return rc ? -1 : 0;
}

/* Collective: can rank 0 write the result files?  Probes without leaving a new file behind. */
static int outputs_writable(const options *o)
{
    int ok = 1;
    const char *paths[2] = {o->json, o->csv};
    for (int i = 0; rank0 && i < 2; i++) {
        if (!paths[i])
            continue;
        int existed = access(paths[i], F_OK) == 0;
        FILE *f = fopen(paths[i], "a");
        if (!f) {
            fprintf(stderr, "vine-bench: %s: cannot open for writing: %s\n", paths[i],
                    strerror(errno));
            ok = 0;
            continue;
        }
        fclose(f);
        if (!existed)
            remove(paths[i]);
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return ok;
}

/* Reads VINE_BENCH_CORRUPT ("ALGO" or "COLL:ALGO"); rank 0 warns that it is set. */
static void read_corrupt(void)
{
    static char buf[128];
    const char *v = getenv("VINE_BENCH_CORRUPT");
    if (!v || !*v)
        return;
    snprintf(buf, sizeof buf, "%s", v);
    char *colon = strchr(buf, ':');
    if (colon) {
        *colon = '\0';
        corrupt_coll = buf;
        corrupt_algo = colon + 1;
    } else {
        corrupt_algo = buf;
    }
    if (rank0)
        fprintf(stderr,
                "vine-bench: VINE_BENCH_CORRUPT=%s: corrupting that algorithm's "
                "checked results on purpose (a test-only switch)\n",
                v);
}

/* Rank 0 writes the result files; returns the number that failed. */
static int write_files(const options *o, const vine_bench_results *res)
{
    char err[512];
    int failed = 0;
    if (!rank0)
        return 0;
    if (o->json && vine__bench_write_json(res, o->json, err, sizeof err) != 0) {
        fprintf(stderr, "vine-bench: %s\n", err);
        failed++;
    }
    if (o->csv && vine__bench_write_csv(res, o->csv, err, sizeof err) != 0) {
        fprintf(stderr, "vine-bench: %s\n", err);
        failed++;
    }
    return failed;
}

/*
 * Collective (--copy-bw): the node's memory copy bandwidth, before the rows.
 * First every rank copies o->copy_bytes at once: each rank's time runs from
 * its leaving a barrier to its leaving a second barrier after its copy, so
 * that it spans every rank's copy (oversubscribed ranks that take turns
 * included), and the time of a repetition is the slowest rank's, in which p
 * times the bytes were copied.  Then rank 0 times its own copy while the
 * others wait at a barrier.  Each runs VINE_BENCH_COPY_REPS times after one
 * untimed copy on every rank, and rank 0 keeps the highest bandwidth of each
 * in copybw.  Returns 0, or -1 when some rank ran out of memory for its
 * buffers (nothing measured).
 */
static int measure_copy(const options *o, int p)
{
    vine_bench_copybuf b;
    int mine = vine__bench_copy_alloc(&b, o->copy_bytes) != 0, any;
    MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    if (any) {
        vine__bench_copy_free(&b);
        return -1;
    }
    double all = 0, one = 0, bytes = (double)b.bytes;
    MPI_Barrier(MPI_COMM_WORLD);
    vine__bench_copy(&b); /* untimed: the first pass through caches and TLBs */
    for (int k = 0; k < VINE_BENCH_COPY_REPS; k++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        vine__bench_copy(&b);
        MPI_Barrier(MPI_COMM_WORLD);
        double t = MPI_Wtime() - t0, tmax = 0;
        MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        double bw = vine__bench_copy_gbps((double)p * bytes, tmax);
        if (rank0 && bw > all)
            all = bw;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (int k = 0; k < VINE_BENCH_COPY_REPS; k++) {
        if (rank0) {
            double bw = vine__bench_copy_gbps(bytes, vine__bench_copy_time(&b));
            if (bw > one)
                one = bw;
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    vine__bench_copy_free(&b);
    copybw.all = all > 0 ? sig6(all) : NAN;
    copybw.one = one > 0 ? sig6(one) : NAN;
    return 0;
}

static int bench_coll(const options *o, const char *cmd, int p)
{
    vine_bench_results res, *files = o->json || o->csv ? &res : NULL;
    vine__bench_results_init(&res);
    if (!outputs_writable(o))
        return 2;
    int nomem = files && describe(files, o, cmd, p) != 0;
    progress pr = {0, 0, 0, 0};
    pr.tty = isatty(STDERR_FILENO);
    pr.on = rank0 && (o->progress || pr.tty);
    for (int c = 0; c < o->ncolls; c++)
        pr.total += (long)(o->colls[c] == VINE_COLL_BARRIER ? 1 : o->nsizes) *
                    rows_of(o, (vine_coll)o->colls[c]);
    copybw.on = o->copy_bw;
    int copy_failed = o->copy_bw && measure_copy(o, p) != 0;
    if (rank0 && copy_failed)
        fprintf(stderr,
                "vine-bench: out of memory for --copy-bw's buffers (2 x %zu bytes a rank)\n",
                o->copy_bytes);
    if (rank0 && files) {
        files->mode = o->mode;
        if (o->mode == VINE_BENCH_MODE_NONBLOCKING)
            files->progress_interval = o->interval_us;
    }
    if (rank0 && files && o->copy_bw && !copy_failed) {
        files->copy_bytes = (long long)o->copy_bytes;
        files->copy_reps = VINE_BENCH_COPY_REPS;
        files->copy_all = copybw.all;
        files->copy_one = copybw.one;
    }
    if (rank0)
        print_header(o, p);
    int failures = 0;
    for (int c = 0; c < o->ncolls; c++) {
        /* A barrier has no size: one set of rows, not one per size. */
        int nsizes = o->colls[c] == VINE_COLL_BARRIER ? 1 : o->nsizes;
        for (int s = 0; s < nsizes; s++)
            failures += bench_size(o, (vine_coll)o->colls[c], s, &pr, files, &nomem);
    }
    if (rank0 && o->check)
        printf("# %s\n", failures ? "some checks FAILED" : "all checks passed");
    if (rank0 && nomem)
        fprintf(stderr, "vine-bench: out of memory for the result files\n");
    int bad_files = nomem ? 1 : files ? write_files(o, files) : 0;
    if (rank0 && files && !bad_files)
        printf("# results written to%s%s%s%s\n", o->json ? " " : "", o->json ? o->json : "",
               o->csv ? " " : "", o->csv ? o->csv : "");
    vine__bench_results_free(&res);
    return failures || bad_files || copy_failed ? 1 : 0;
}

static void free_dists(options *o)
{
    for (int k = 0; k < o->ndists; k++)
        vine__vdist_free(&o->dists[k]);
    o->ndists = 0;
}

int main(int argc, char **argv)
{
    /* vine's progress thread (VINE_PROGRESS_THREAD) needs MPI_THREAD_MULTIPLE;
     * vine says so itself when the library provides less. */
    const char *pt = getenv("VINE_PROGRESS_THREAD");
    if (pt && *pt && strcmp(pt, "0") != 0) {
        int provided;
        MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    } else {
        MPI_Init(&argc, &argv);
    }
    int rank, p;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    rank0 = rank == 0;
    if (argc > 1 && strcmp(argv[1], "overhead") == 0) {
        int status = vine__bench_overhead(argc, argv);
        MPI_Finalize();
        return status;
    }
    if (argc > 1 && strcmp(argv[1], "pattern") == 0) {
        int status = bench_pattern_main(argc - 1, argv + 1);
        MPI_Finalize();
        return status;
    }
    if (argc > 1 && strcmp(argv[1], "probe") == 0) {
        int status = bench_probe_main(argc - 1, argv + 1);
        MPI_Finalize();
        return status;
    }
    static char cmd[8192];
    for (int i = 0; i < argc; i++)
        append_arg(cmd, sizeof cmd, argv[i]);
    options o;
    int rc = parse_options(&o, argc, argv, p);
    if (rc) {
        free_dists(&o);
        MPI_Finalize();
        return rc == 1 ? 0 : rc;
    }
    read_corrupt();
    /* vine sets MPI_COMM_WORLD up here (collectively), so that a nonblocking
     * series is vine's from its first call: a nonblocking call on a
     * communicator that vine has not set up goes to the MPI library
     * (docs/api.md, "Order").  An error shows again in the first call. */
    (void)vine_topology_info(MPI_COMM_WORLD, NULL, NULL, 0);
    int status = bench_coll(&o, cmd, p);
    free_dists(&o);
    MPI_Finalize();
    return status;
}
