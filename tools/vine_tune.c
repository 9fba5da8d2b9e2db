/*
 * vine-tune: measures every algorithm of every collective (and the MPI
 * library's own) on the ranks it runs on and writes a tuning file that auto
 * follows (src/select/tuning.h, docs/tuning.md).
 *
 *   mpirun -np P vine-tune --out FILE [--budget S] [--min-size B] [--max-size B]
 *          [--coll LIST|all|all+v] [--ranks LIST] [--alpha A] [--max-iters N]
 *          [--max-mem B] [--progress]
 *
 * The cases are (communicator size, collective, size): the whole
 * communicator first, then p/2, p/4 ... 2 and p - 1 (and, on several
 * nodes, one and half the ranks of every node), every collective, the
 * sizes doubling from --min-size to --max-size.  Each case gets a share of
 * the budget left (tune_run.c measures it); the run ends within --budget
 * seconds, skipping what does not fit, and says what it skipped.  Rank 0
 * then fits the cost model (tune_model.c), writes the file and prints a
 * summary (tune_out.c).  docs/vine-tune.md describes the method.
 */
#include "bench/stats.h"
#include "tune.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* One case of the plan. */
typedef struct pcase {
    int comm; /* index into the plan's communicators */
    vine_coll coll;
    size_t bytes;
    long key; /* the order of the output: communicator, collective, size */
} pcase;

typedef struct plan {
    tune_comm comm[TUNE_MAX_COMMS];
    int ncomms;
    pcase *cases;
    long ncases;
} plan;

static int rank0;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: mpirun -np P vine-tune --out FILE [--budget S] [--min-size B] [--max-size B]\n"
            "              [--coll LIST|all|all+v] [--ranks LIST] [--alpha A] [--max-iters N]\n"
            "              [--max-mem B] [--progress]\n"
            "  --out FILE      the tuning file to write (required)\n"
            "  --budget S      seconds the whole run may take (default 300)\n"
            "  --min-size B    the smallest size (default 8B); sizes double up to --max-size\n"
            "  --max-size B    the largest size (default 64MiB); B is bytes with an optional\n"
            "                  unit B, KiB, MiB, GiB (K, M, G alike), the collective's count\n"
            "                  argument in bytes (one rank's block for allgather, allgatherv,\n"
            "                  alltoall, gather, scatter, reduce_scatter_block and\n"
            "                  reduce_scatter)\n"
            "  --coll LIST     collectives, comma-separated, or all (default: the ten classic\n"
            "                  ones), or all+v (also allgatherv, scan and exscan)\n"
            "  --ranks LIST    communicator sizes, comma-separated, each 2..P (default P,\n"
            "                  P/2, P/4 ... 2 and P-1; on several nodes also 1 and half the\n"
            "                  ranks of every node)\n"
            "  --alpha A       significance level of the Mann-Whitney U test that lets a\n"
            "                  winner replace the default (default 0.01)\n"
            "  --mpi-margin F  the MPI library's collective serves a size when its median is\n"
            "                  at most F (a fraction) above the choice's (default 0.05)\n"
            "  --max-iters N   the most timed iterations per algorithm and case (default 200,\n"
            "                  at least %d)\n"
            "  --max-mem B     skip cases whose send and receive buffers exceed B per rank\n"
            "                  (default 512MiB)\n"
            "  --progress      a progress line per case on stderr (always shown, rewritten in\n"
            "                  place, when stderr is a terminal)\n",
            TUNE_MIN_SAMPLES);
}

/* A usage error on rank 0 ("vine-tune: message" and the usage); returns 2, the exit status. */
static int bad_usage(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

static int bad_usage(const char *fmt, ...)
{
    if (rank0) {
        va_list ap;
        fflush(stdout);
        fprintf(stderr, "vine-tune: ");
        va_start(ap, fmt);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
        fprintf(stderr, "\n");
        usage(stderr);
    }
    return 2;
}

/* What option opt takes, for the message about a bad value. */
static const char *wanted(const char *opt)
{
    static const char *const what[][2] = {
        {"--out", "a file name"},
        {"--budget", "a number of seconds above 0"},
        {"--min-size", "a size from 1B to 2GiB-1, such as 8, 8B, 4KiB, 1MiB"},
        {"--max-size", "a size from 1B to 2GiB-1, such as 8, 8B, 4KiB, 1MiB"},
        {"--max-mem", "a size in bytes, such as 512MiB"},
        {"--coll", "collectives among bcast, reduce, allreduce, allgather, reduce_scatter, "
                   "reduce_scatter_block, alltoall, gather, scatter, barrier, allgatherv, scan, "
                   "exscan, each once, or all, or all+v"},
        {"--ranks", "communicator sizes from 2 to the ranks started, each once"},
        {"--alpha", "a number between 0 and 1"},
        {"--mpi-margin", "a number between 0 and 1"},
        {"--max-iters", "a whole number from 5"}};
    for (size_t i = 0; i < sizeof what / sizeof what[0]; i++)
        if (strcmp(opt, what[i][0]) == 0)
            return what[i][1];
    return "something else";
}

/*
 * The collectives whose size every rank of a call knows alike, so that a
 * size-keyed rule chooses alike on every rank: the ten classic ones, then
 * allgatherv (every rank holds the whole rcounts table: the mean block) and
 * the scans.  alltoallv and alltoallw (each rank knows its own row of the
 * table only), gatherv and scatterv (the ranks but the root know their own
 * count only) are not measured (docs/vine-tune.md).
 */
static const int tunable[] = {VINE_COLL_BCAST,
                              VINE_COLL_REDUCE,
                              VINE_COLL_ALLREDUCE,
                              VINE_COLL_ALLGATHER,
                              VINE_COLL_REDUCE_SCATTER_BLOCK,
                              VINE_COLL_REDUCE_SCATTER,
                              VINE_COLL_ALLTOALL,
                              VINE_COLL_GATHER,
                              VINE_COLL_SCATTER,
                              VINE_COLL_BARRIER,
                              VINE_COLL_ALLGATHERV,
                              VINE_COLL_SCAN,
                              VINE_COLL_EXSCAN};
/* "all": the first ten of tunable; "all+v": every one. */
#define TUNE_ALL 10

/* A collective --coll names that vine-tune does not measure (for the message). */
static int unmeasured = -1;

/* Why vine-tune does not measure coll (one of alltoallv, alltoallw, gatherv, scatterv). */
static const char *why_unmeasured(int coll)
{
    if (coll == VINE_COLL_ALLTOALLV || coll == VINE_COLL_ALLTOALLW)
        return "each rank knows its own row of the counts only";
    return "the ranks other than the root know their own count only";
}

/* Parses --coll; 0, -1 for a bad list, -3 for a collective not measured (unmeasured). */
static int parse_colls(tune_opts *o, const char *list)
{
    o->ncolls = 0;
    int every = (int)(sizeof tunable / sizeof *tunable);
    int whole = strcmp(list, "all") == 0 ? TUNE_ALL : strcmp(list, "all+v") == 0 ? every : 0;
    if (whole) {
        memcpy(o->colls, tunable, sizeof(int) * (size_t)whole);
        o->ncolls = whole;
        return 0;
    }
    char *copy = strdup(list), *save = NULL;
    int rc = copy ? 0 : -1;
    for (char *item = copy ? strtok_r(copy, ",", &save) : NULL; item && !rc;
         item = strtok_r(NULL, ",", &save)) {
        int c = vine__coll_parse(item), known = 0;
        for (int i = 0; i < every; i++)
            known |= tunable[i] == c;
        if (c >= 0 && !known) {
            unmeasured = c;
            rc = -3;
            break;
        }
        for (int i = 0; i < o->ncolls && c >= 0; i++)
            c = o->colls[i] == c ? -1 : c;
        rc = c < 0 ? -1 : 0;
        if (!rc)
            o->colls[o->ncolls++] = c;
    }
    free(copy);
    return rc ? rc : o->ncolls == 0 ? -1 : 0;
}

static int parse_long(const char *s, long min, long max, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end || errno || v < min || v > max)
        return -1;
    *out = v;
    return 0;
}

/* Communicator sizes 2..p, each once. */
static int parse_ranks(tune_opts *o, const char *list, int p)
{
    char *copy = strdup(list), *save = NULL;
    int rc = copy ? 0 : -1;
    o->nranks = 0;
    for (char *item = copy ? strtok_r(copy, ",", &save) : NULL; item && !rc;
         item = strtok_r(NULL, ",", &save)) {
        long q;
        rc = parse_long(item, 2, p, &q) || o->nranks == TUNE_MAX_COMMS ? -1 : 0;
        for (int i = 0; i < o->nranks && !rc; i++)
            rc = o->ranks[i] == q ? -1 : 0;
        if (!rc)
            o->ranks[o->nranks++] = (int)q;
    }
    free(copy);
    return rc || o->nranks == 0 ? -1 : 0;
}

static int parse_double(const char *s, double lo, double hi, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno || !(v > lo) || !(v < hi))
        return -1;
    *out = v;
    return 0;
}

/* Parses the value v of option opt; 0, -1 for a bad value, -2 for an unknown option. */
static int parse_value(tune_opts *o, const char *opt, const char *v, int p)
{
    long n;
    if (strcmp(opt, "--out") == 0)
        return *v ? (o->out = v, 0) : -1;
    if (strcmp(opt, "--budget") == 0)
        return parse_double(v, 0, 1e9, &o->budget);
    if (strcmp(opt, "--min-size") == 0)
        return vine__bench_parse_size(v, INT32_MAX, &o->min_size) || !o->min_size ? -1 : 0;
    if (strcmp(opt, "--max-size") == 0)
        return vine__bench_parse_size(v, INT32_MAX, &o->max_size) || !o->max_size ? -1 : 0;
    if (strcmp(opt, "--max-mem") == 0)
        return vine__bench_parse_size(v, SIZE_MAX, &o->max_mem);
    if (strcmp(opt, "--coll") == 0)
        return parse_colls(o, v);
    if (strcmp(opt, "--ranks") == 0)
        return parse_ranks(o, v, p);
    if (strcmp(opt, "--alpha") == 0)
        return parse_double(v, 0, 1, &o->alpha);
    if (strcmp(opt, "--mpi-margin") == 0)
        return parse_double(v, 0, 1, &o->mpi_margin);
    if (strcmp(opt, "--max-iters") == 0) {
        if (parse_long(v, TUNE_MIN_SAMPLES, 1000000, &n))
            return -1;
        o->max_iters = (int)n;
        return 0;
    }
    return -2;
}

static int known_option(const char *opt)
{
    static const char *const names[] = {"--out",      "--budget",    "--min-size",
                                        "--max-size", "--coll",      "--ranks",
                                        "--alpha",    "--max-iters", "--max-mem",
                                        "--mpi-margin"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(opt, names[i]) == 0)
            return 1;
    return 0;
}

/* Can rank 0 write the file?  Probes without leaving a new file behind. */
static int writable(const char *path)
{
    int existed = access(path, F_OK) == 0;
    FILE *f = fopen(path, "a");
    if (!f)
        return 0;
    fclose(f);
    if (!existed)
        remove(path);
    return 1;
}

/* Checks the options together; 0 or 2 after a usage error. */
static int check_options(const tune_opts *o, int p)
{
    if (!o->out)
        return bad_usage("--out FILE is required");
    if (o->min_size > o->max_size)
        return bad_usage("--min-size is above --max-size");
    for (int c = 0; c < o->ncolls && o->max_size < sizeof(int); c++)
        if (tune_is_reduction((vine_coll)o->colls[c]))
            return bad_usage("--max-size is below one element of %s (an int, %zu bytes)",
                             vine_coll_name((vine_coll)o->colls[c]), sizeof(int));
    if (p < 2)
        return bad_usage("needs at least 2 ranks: there is nothing to choose on one");
    if (rank0 && !writable(o->out)) {
        return bad_usage("%s: cannot open for writing: %s", o->out, strerror(errno));
    }
    return 0;
}

/* Parses the command line; 0, 1 after --help, or 2 after a usage error (every rank alike). */
static int parse_options(tune_opts *o, int argc, char **argv, int p)
{
    memset(o, 0, sizeof *o);
    o->budget = 300;
    o->min_size = 8;
    o->max_size = 64 << 20;
    o->max_mem = (size_t)512 << 20;
    o->alpha = 0.01;
    o->mpi_margin = 0.05;
    o->max_iters = 200;
    parse_colls(o, "all");
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i];
        if (strcmp(opt, "--help") == 0 || strcmp(opt, "-h") == 0) {
            if (rank0)
                usage(stdout);
            return 1;
        }
        if (strcmp(opt, "--progress") == 0) {
            o->progress = 1;
            continue;
        }
        if (!known_option(opt))
            return bad_usage("unknown option %s", opt);
        if (i + 1 >= argc)
            return bad_usage("option %s needs a value", opt);
        int bad = parse_value(o, opt, argv[i + 1], p);
        if (bad == -3)
            return bad_usage("--coll %s is not measured: %s, so a choice by size could differ "
                             "between the ranks (of the v collectives and the scans, vine-tune "
                             "measures allgatherv, scan and exscan)",
                             vine_coll_name((vine_coll)unmeasured), why_unmeasured(unmeasured));
        if (bad != 0)
            return bad_usage("bad value for %s: %s (want %s)", opt, argv[i + 1], wanted(opt));
        i++;
    }
    int rc = check_options(o, p);
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD); /* the file probe happened on rank 0 */
    return rc;
}

/* ---- the plan ---------------------------------------------------------------- */

/* Where the ranks live: this rank's place in its node, rank 0's node size, the nodes. */
typedef struct nodes {
    int local, rpn, count;
} nodes;

static void node_info(nodes *n)
{
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &n->local);
    MPI_Comm_size(node, &n->rpn);
    MPI_Comm_free(&node);
    int lead = n->local == 0;
    MPI_Allreduce(&lead, &n->count, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Bcast(&n->rpn, 1, MPI_INT, 0, MPI_COMM_WORLD);
}

static int has_size(const plan *pl, int q)
{
    for (int i = 0; i < pl->ncomms; i++)
        if (pl->comm[i].q == q)
            return 1;
    return 0;
}

static void add_comm(plan *pl, int q, int per_node)
{
    if (pl->ncomms < TUNE_MAX_COMMS && q >= 2 && !has_size(pl, q))
        pl->comm[pl->ncomms++] = (tune_comm){q, per_node};
}

/*
 * The communicator sizes: --ranks, or p, p/2, p/4 ... 2, then p - 1, then on
 * several nodes the first k ranks of every node for k = 1 and half of rank
 * 0's node (a size already listed is measured once, as the first q ranks:
 * a tuning file has one rule per size).  Collective.
 */
static void plan_comms(plan *pl, const tune_opts *o, int p, const nodes *nd)
{
    pl->ncomms = 0;
    for (int i = 0; i < o->nranks; i++)
        add_comm(pl, o->ranks[i], 0);
    if (o->nranks)
        return;
    for (int q = p; q >= 2; q /= 2)
        add_comm(pl, q, 0);
    if (p > 2)
        add_comm(pl, p - 1, 0);
    int ks[2] = {1, nd->rpn / 2};
    for (int i = 0; i < 2 && nd->count > 1; i++) {
        int in = nd->local < ks[i], q;
        MPI_Allreduce(&in, &q, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        if (ks[i] >= 1 && ks[i] < nd->rpn && (i == 0 || ks[1] != ks[0]))
            add_comm(pl, q, ks[i]);
    }
}

/* The sizes of coll: from --min-size doubling to --max-size, whole elements only. */
static int coll_sizes(const tune_opts *o, vine_coll coll, size_t *sizes)
{
    size_t tsize;
    tune_type(coll, &tsize);
    if (coll == VINE_COLL_BARRIER) {
        sizes[0] = 0;
        return 1;
    }
    int n = 0;
    for (size_t s = o->min_size; s <= o->max_size && n < 64; s *= 2)
        if (s >= tsize)
            sizes[n++] = s;
    return n;
}

/*
 * Every case in the order of value: communicator by communicator, and in
 * each the sizes ascending, every collective at one size before the next
 * size, so that a short budget still covers every collective's small and
 * middle sizes.  -1 without memory.
 */
static int plan_cases(plan *pl, const tune_opts *o)
{
    size_t sizes[VINE_COLL_COUNT][64];
    int ns[VINE_COLL_COUNT], most = 0;
    long n = 0;
    for (int c = 0; c < o->ncolls; c++) {
        ns[c] = coll_sizes(o, (vine_coll)o->colls[c], sizes[c]);
        n += ns[c];
        most = ns[c] > most ? ns[c] : most;
    }
    pl->cases = malloc(sizeof(pcase) * (size_t)(n * pl->ncomms + 1));
    if (!pl->cases)
        return -1;
    pl->ncases = 0;
    for (int i = 0; i < pl->ncomms; i++)
        for (int s = 0; s < most; s++)
            for (int c = 0; c < o->ncolls; c++) {
                long key = ((long)i * VINE_COLL_COUNT + c) * 64 + s;
                if (s < ns[c])
                    pl->cases[pl->ncases++] = (pcase){i, (vine_coll)o->colls[c], sizes[c][s], key};
            }
    return 0;
}

/* Why case c cannot run (--max-mem, the MPI library's int tables), or 0 when it can. */
static int unfit(const tune_opts *o, const plan *pl, const pcase *c)
{
    int q = pl->comm[c->comm].q;
    if (tune_case_mem(c->coll, q, c->bytes) > (double)o->max_mem)
        return TUNE_SKIP_MEM + 1;
    return tune_case_ints(c->coll, q, c->bytes) ? 0 : TUNE_SKIP_INTS + 1;
}

/* ---- the run ------------------------------------------------------------------- */

static void add_skip(tune_run *t, const pcase *c, int q, int why)
{
    if (!rank0)
        return;
    if (t->nskip == t->capskip) {
        int cap = t->capskip ? 2 * t->capskip : 64;
        tune_skip *s = realloc(t->skip, sizeof *s * (size_t)cap);
        if (!s) {
            t->nomem = 1;
            return;
        }
        t->skip = s;
        t->capskip = cap;
    }
    t->skip[t->nskip++] = (tune_skip){c->key, c->coll, q, c->bytes, why};
}

static void add_result(tune_run *t, const tune_result *r, long key)
{
    if (t->nres == t->capres) {
        int cap = t->capres ? 2 * t->capres : 64;
        tune_result *x = realloc(t->res, sizeof *x * (size_t)cap);
        if (!x) {
            t->nomem = 1;
            return;
        }
        t->res = x;
        t->capres = cap;
    }
    t->res[t->nres] = *r;
    t->res[t->nres++].key = key;
}

/* Rank 0: "[ 12%]  264 s left, case 17/240: allreduce on 8 ranks, 64KiB" on stderr. */
static void progress(const tune_run *t, const pcase *c, int q)
{
    if (!rank0 || !(t->o->progress || t->tty))
        return;
    double now = MPI_Wtime(), left = t->deadline - now;
    char line[160], size[32] = "-";
    if (c->coll != VINE_COLL_BARRIER)
        tune_size_label(size, sizeof size, c->bytes);
    snprintf(line, sizeof line,
             "vine-tune: [%3.0f%%] %5.0f s left, case %ld/%ld: %s on %d ranks, %s",
             100 * (now - t->start) / t->o->budget, left > 0 ? left : 0, t->cases_done + 1,
             t->cases_total, vine_coll_name(c->coll), q, size);
    if (t->tty)
        fprintf(stderr, "\r%-79.79s", line);
    else
        fprintf(stderr, "%s\n", line);
    fflush(stderr);
}

/*
 * Rank 0: is there time for case c?  Not when the deadline has passed, nor
 * when the last size of its collective here, doubled, would not give every
 * candidate its warm-up and minimum of samples before the deadline.
 */
static int time_for(const tune_run *t, double est)
{
    double now = MPI_Wtime();
    return now < t->deadline && now + est * 2 * (2 + TUNE_MIN_SAMPLES) < t->deadline;
}

/* Collective over comm: case i of the plan; left is the measurable cases from it on. */
static void run_case(tune_run *t, const plan *pl, long i, long left, MPI_Comm comm, double *est)
{
    const pcase *c = &pl->cases[i];
    int q = pl->comm[c->comm].q;
    double msg[2] = {0, 0}; /* go, the share in seconds */
    if (rank0) {
        msg[0] = time_for(t, est[c->coll]);
        msg[1] = (t->deadline - MPI_Wtime()) / (double)(left > 0 ? left : 1);
        progress(t, c, q);
    }
    MPI_Bcast(msg, 2, MPI_DOUBLE, 0, comm);
    if (!msg[0]) {
        add_skip(t, c, q, TUNE_SKIP_BUDGET);
        est[c->coll] *= 2;
        return;
    }
    tune_result *r = rank0 ? malloc(sizeof *r) : NULL;
    double e = 0;
    int why = tune_measure(t, comm, c->coll, c->bytes, msg[1], r, &e);
    if (rank0) {
        if (why)
            add_skip(t, c, q, why);
        else if (r)
            add_result(t, r, c->key);
        est[c->coll] = e > 0 ? e : 2 * est[c->coll];
    }
    free(r);
}

/* Collective over MPI_COMM_WORLD: the communicator of plan entry tc; MPI_COMM_NULL outside. */
static MPI_Comm make_comm(const tune_comm *tc, int rank, const nodes *nd)
{
    int in = tc->per_node ? nd->local < tc->per_node : rank < tc->q;
    MPI_Comm comm;
    MPI_Comm_split(MPI_COMM_WORLD, in ? 0 : MPI_UNDEFINED, rank, &comm);
    return comm;
}

/* Collective over MPI_COMM_WORLD: waits for every rank, the idle ones sleeping, not spinning. */
static void world_sync(void)
{
    MPI_Request req;
    int done = 0;
    /* A variable, not a compound literal: SimGrid's smpi.h makes nanosleep a macro. */
    struct timespec ms = {0, 1000000};
    MPI_Ibarrier(MPI_COMM_WORLD, &req);
    while (!done) {
        MPI_Test(&req, &done, MPI_STATUS_IGNORE);
        if (!done)
            nanosleep(&ms, NULL);
    }
}

/* Collective over MPI_COMM_WORLD: every case of every communicator, in the plan's order. */
static void run_plan(tune_run *t, const plan *pl, const nodes *nd)
{
    long i = 0, left = 0;
    for (long k = 0; k < pl->ncases; k++)
        left += !unfit(t->o, pl, &pl->cases[k]);
    for (int ci = 0; ci < pl->ncomms; ci++) {
        MPI_Comm comm = make_comm(&pl->comm[ci], t->rank, nd);
        double est[VINE_COLL_COUNT] = {0};
        for (; i < pl->ncases && pl->cases[i].comm == ci; i++, t->cases_done++) {
            const pcase *c = &pl->cases[i];
            int why = unfit(t->o, pl, c);
            if (why) {
                add_skip(t, c, pl->comm[ci].q, why - 1);
                continue;
            }
            if (comm != MPI_COMM_NULL)
                run_case(t, pl, i, left, comm, est);
            left--;
        }
        if (comm != MPI_COMM_NULL)
            MPI_Comm_free(&comm);
        world_sync();
    }
    if (rank0 && t->tty) {
        fprintf(stderr, "\r%79s\r", "");
        fflush(stderr);
    }
}

static int cmp_result(const void *a, const void *b)
{
    long x = ((const tune_result *)a)->key, y = ((const tune_result *)b)->key;
    return x < y ? -1 : x > y;
}

static int cmp_skip(const void *a, const void *b)
{
    long x = ((const tune_skip *)a)->key, y = ((const tune_skip *)b)->key;
    return x < y ? -1 : x > y;
}

/* Rank 0: the rules, the summary, the fit and the file; returns the exit status. */
static int finish(tune_run *t, vine_tuning *tab)
{
    char err[512];
    /* Measured size by size, reported collective by collective. */
    if (t->nres)
        qsort(t->res, (size_t)t->nres, sizeof *t->res, cmp_result);
    if (t->nskip)
        qsort(t->skip, (size_t)t->nskip, sizeof *t->skip, cmp_skip);
    tune_print_skipped(t);
    if (t->nomem) {
        fprintf(stderr, "vine-tune: out of memory for the results\n");
        return 1;
    }
    if (tune_rules(t, tab) != 0)
        return 1;
    tune_summary(t, tab);
    tune_fit_model(t, &tab->model);
    if (vine__tuning_save(tab, t->o->out, err, sizeof err) != VINE_OK) {
        fprintf(stderr, "vine-tune: %s\n", err);
        return 1;
    }
    printf("# tuning file written: %s (%d rules); use it with VINE_TUNING_FILE=%s\n", t->o->out,
           tab->nrules, t->o->out);
    return 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    /* vine-tune measures what auto does without a tuning file: none may be read. */
    vine_set_tuning_file(NULL);
    int rank, p;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    rank0 = rank == 0;
    tune_opts o;
    int rc = parse_options(&o, argc, argv, p);
    if (rc) {
        MPI_Finalize();
        return rc == 1 ? 0 : rc;
    }
    vine_set_segment_size(0); /* no VINE_SEGMENT_SIZE: the default is unsegmented */
    tune_run t;
    memset(&t, 0, sizeof t);
    t.o = &o;
    t.p = p;
    t.rank = rank;
    t.start = MPI_Wtime();
    MPI_Bcast(&t.start, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    t.deadline = t.start + o.budget;
    t.tty = rank0 && isatty(STDERR_FILENO);
    nodes nd;
    node_info(&nd);
    plan pl;
    plan_comms(&pl, &o, p, &nd);
    int bad = plan_cases(&pl, &o) != 0, any;
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    if (any) {
        if (rank0)
            fprintf(stderr, "vine-tune: out of memory for the plan\n");
        MPI_Finalize();
        return 1;
    }
    t.cases_total = pl.ncases;
    run_plan(&t, &pl, &nd);
    vine_tuning tab;
    vine__tuning_init(&tab);
    rc = tune_describe(&tab, p, nd.rpn) != 0;
    if (rank0)
        rc = rc ? (fprintf(stderr, "vine-tune: out of memory\n"), 1) : finish(&t, &tab);
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    vine__tuning_free(&tab);
    free(pl.cases);
    free(t.res);
    free(t.skip);
    MPI_Finalize();
    return rc;
}
