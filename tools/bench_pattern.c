/*
 * vine-bench pattern: CommBench's microbenchmarks (Hidayetoglu et al., ICS
 * 2024; ../shared/papers/commbench.txt sections 4.2-4.4) on vine's pattern
 * API (include/vine/bench.h).
 *
 *   vine-bench pattern --pattern rail|asymmetric|symmetric|stripe|csv:FILE|mtx:FILE
 *              [--n N] [--g G] [--k K] [--dir uni|bi|omni] [--size BYTES]
 *              [--iters N] [--warmup N] [--json FILE] [--csv FILE]
 *              [--nic-bw BW [--ranks-per-nic P] [--nics R]]
 *
 * It builds the pattern's steps (one for the group patterns and files; split,
 * translate and assemble for striping), prints each step's sparse matrix
 * and every rank's footprint, then measures rows: each step alone and, for
 * striping, the three steps as an asynchronous sequence; for a file split
 * into groups of --g ranks, the intra-group and inter-group messages alone
 * and concurrently.  A row's statistics are those of the Bine paper's method
 * (src/bench/stats.h): per iteration the slowest rank's time, the first 20%
 * of the iterations dropped.  With --nic-bw, the group patterns' rows also
 * show CommBench's bandwidth models (eq. 1 and 2, src/bench/bwmodel.h).
 * docs/patterns.md describes options and output.
 */
#include "bench_pattern.h"

#include "bench/bwmodel.h"
#include "bench/stats.h"
#include "vine/bench.h"
#include <vine.h>

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { SRC_GROUP, SRC_STRIPE, SRC_CSV, SRC_MTX };
enum { MAX_STEPS = 4, MAX_ROWS = 5 };
/* Matrices up to this many ranks print as a grid, footprints up to the next as a table. */
enum { GRID_MAX = 16, TABLE_MAX = 64, PAIRS_MAX = 64 };

typedef struct popts {
    int source; /* SRC_* */
    int kind;   /* enum vine_bench_group for SRC_GROUP */
    const char *pattern, *file;
    int n, g, k, dir; /* -1: not given */
    size_t size;
    int size_set;
    int iters, warmup;
    const char *json, *csv;
    double nic_bw;           /* --nic-bw in GB/s; 0: no bandwidth models */
    int ranks_per_nic, nics; /* 0: not given */
    const char *nic_bw_arg;  /* as written */
} popts;

/* A step: a matrix and the pattern that runs it. */
typedef struct pstep {
    char name[16];
    vine_bench_matrix m;
    vine_bench_pattern pat;
    int shown; /* printed with its matrix and footprints */
} pstep;

/* A measured row: steps run together in a mode. */
typedef struct prow {
    char name[24];
    int steps[MAX_STEPS], nsteps;
    int mode;        /* enum vine_bench_mode */
    const char *how; /* "single", "async", "concurrent" */
    double bytes;    /* what the bandwidth divides */
    size_t messages; /* of all its steps */
    double *times;   /* microseconds, iters of them */
    vine_bench_stats st;
    int ok, err;
} prow;

typedef struct bench {
    popts o;
    int p, rank;
    pstep steps[MAX_STEPS];
    int nsteps;
    prow rows[MAX_ROWS];
    int nrows;
    unsigned char *bufs[VINE_BENCH_NBUF];
    int modelled;       /* --nic-bw given: model holds the predictions */
    vine_bwmodel model; /* of the group pattern (its one row) */
} bench;

static int rank0;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: vine-bench pattern --pattern P [--n N] [--g G] [--k K] [--dir D]\n"
            "                  [--size BYTES] [--iters N] [--warmup N] [--json FILE] [--csv FILE]\n"
            "                  [--nic-bw BW [--ranks-per-nic P] [--nics R]]\n"
            "  P        rail, asymmetric, symmetric (groups), stripe, csv:FILE (a traffic\n"
            "           matrix: sender,receiver,bytes) or mtx:FILE (Matrix Market: the\n"
            "           messages of a row-partitioned sparse matrix-vector product)\n"
            "  --n N    groups (default 2); striping uses two\n"
            "  --g G    ranks per group (default: ranks / n); for files, split the matrix into\n"
            "           intra- and inter-group messages of groups of G ranks\n"
            "  --k K    active ranks per group, or stripes (default g)\n"
            "  --dir D  uni, bi or omni (default uni; asymmetric has no omni, stripe only uni)\n"
            "  --size BYTES  bytes per message (default 1MiB); the whole message for\n"
            "           stripe; bytes per vector entry for mtx (default 8); unused for csv\n"
            "  --iters N     timed iterations (default 100; the first 20%% are dropped)\n"
            "  --warmup N    untimed iterations before them (default 0)\n"
            "  --json FILE, --csv FILE  write the results\n"
            "  --nic-bw BW   bandwidth of one NIC per direction: show the packed and\n"
            "           round-robin predictions (CommBench eq. 1, 2) beside the measured\n"
            "           GB/s (rail, asymmetric, symmetric); BW in GB/s, or with a unit:\n"
            "           25GB/s, 200Gb/s, 400MB/s, ...  Needs --ranks-per-nic or --nics\n"
            "  --ranks-per-nic P  packed binding: ranks i*P .. i*P+P-1 of a node on NIC i\n"
            "           (default ceil(g / R))\n"
            "  --nics R  round-robin binding: rank i of a node on NIC i mod R\n"
            "           (default ceil(g / P))\n");
}

static int bad_usage(const char *fmt, const char *arg)
{
    if (rank0) {
        fprintf(stderr, "vine-bench pattern: ");
        fprintf(stderr, fmt, arg);
        fprintf(stderr, "\n");
        usage(stderr);
    }
    return 2;
}

static int parse_int(const char *s, int min, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end || errno || v < min || v > 1 << 30)
        return -1;
    *out = (int)v;
    return 0;
}

/* Returns 0, 1 (help printed) or 2 (usage error). */
static int parse_options(popts *o, int argc, char **argv)
{
    memset(o, 0, sizeof *o);
    o->n = o->g = o->k = o->dir = -1;
    o->iters = 100;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            if (rank0)
                usage(stdout);
            return 1;
        }
        if (!v)
            return bad_usage("%s needs a value", a);
        i++;
        if (strcmp(a, "--pattern") == 0) {
            o->pattern = v;
            if (strncmp(v, "csv:", 4) == 0 || strncmp(v, "mtx:", 4) == 0) {
                o->source = v[0] == 'c' ? SRC_CSV : SRC_MTX;
                o->file = v + 4;
                if (!*o->file)
                    return bad_usage("--pattern %s names no file", v);
            } else if (strcmp(v, "stripe") == 0) {
                o->source = SRC_STRIPE;
            } else if ((o->kind = vine_bench_group_from_name(v)) >= 0) {
                o->source = SRC_GROUP;
            } else {
                return bad_usage("unknown pattern '%s'", v);
            }
        } else if (strcmp(a, "--n") == 0 || strcmp(a, "--g") == 0 || strcmp(a, "--k") == 0) {
            int *dst = a[2] == 'n' ? &o->n : a[2] == 'g' ? &o->g : &o->k;
            if (parse_int(v, 1, dst))
                return bad_usage("%s needs a positive integer", a);
        } else if (strcmp(a, "--dir") == 0) {
            if ((o->dir = vine_bench_dir_from_name(v)) < 0)
                return bad_usage("unknown direction '%s' (uni, bi or omni)", v);
        } else if (strcmp(a, "--size") == 0) {
            if (vine__bench_parse_size(v, SIZE_MAX, &o->size))
                return bad_usage("bad size '%s'", v);
            o->size_set = 1;
        } else if (strcmp(a, "--iters") == 0) {
            if (parse_int(v, 1, &o->iters))
                return bad_usage("--iters needs a positive integer, not '%s'", v);
        } else if (strcmp(a, "--warmup") == 0) {
            if (parse_int(v, 0, &o->warmup))
                return bad_usage("--warmup needs a non-negative integer, not '%s'", v);
        } else if (strcmp(a, "--json") == 0) {
            o->json = v;
        } else if (strcmp(a, "--csv") == 0) {
            o->csv = v;
        } else if (strcmp(a, "--nic-bw") == 0) {
            if (vine__bwmodel_parse_bw(v, &o->nic_bw))
                return bad_usage("bad NIC bandwidth '%s' (a positive number of GB/s, or with a "
                                 "unit: 25GB/s, 200Gb/s, 400MB/s, 1.6Tb/s)",
                                 v);
            o->nic_bw_arg = v;
        } else if (strcmp(a, "--ranks-per-nic") == 0) {
            if (parse_int(v, 1, &o->ranks_per_nic))
                return bad_usage("--ranks-per-nic needs a positive integer, not '%s'", v);
        } else if (strcmp(a, "--nics") == 0) {
            if (parse_int(v, 1, &o->nics))
                return bad_usage("--nics needs a positive integer, not '%s'", v);
        } else {
            return bad_usage("unknown option '%s'", a);
        }
    }
    if (!o->pattern)
        return bad_usage("%s", "--pattern is required");
    if (!o->size_set)
        o->size = o->source == SRC_MTX ? 8 : (size_t)1 << 20;
    if (o->dir < 0)
        o->dir = VINE_BENCH_UNI;
    if (o->source == SRC_STRIPE && o->dir != VINE_BENCH_UNI)
        return bad_usage("%s", "striping is unidirectional (--dir uni)");
    if (o->source == SRC_STRIPE && o->n > 0 && o->n != 2)
        return bad_usage("%s", "striping runs between two nodes (--n 2)");
    if (o->source == SRC_MTX && o->size == 0)
        return bad_usage("%s", "--size (bytes per vector entry) must be at least 1");
    if ((o->ranks_per_nic || o->nics) && !o->nic_bw_arg)
        return bad_usage("%s", "--ranks-per-nic and --nics need --nic-bw");
    if (o->nic_bw_arg && !o->ranks_per_nic && !o->nics)
        return bad_usage("%s", "--nic-bw needs --ranks-per-nic P or --nics R (or both)");
    if (o->nic_bw_arg && o->source != SRC_GROUP)
        return bad_usage("%s", "the bandwidth models (--nic-bw) are for the group patterns "
                               "rail, asymmetric and symmetric");
    return 0;
}

/* "100B", "4KiB", "1.5MiB" */
static const char *human(double b, char *out, size_t len)
{
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (b >= 1024 && u < 4) {
        b /= 1024;
        u++;
    }
    if (b == floor(b))
        snprintf(out, len, "%.0f%s", b, unit[u]);
    else
        snprintf(out, len, "%.1f%s", b, unit[u]);
    return out;
}

/* ---- building the steps ---- */

static int init_step(bench *b, const char *name)
{
    pstep *s = &b->steps[b->nsteps];
    snprintf(s->name, sizeof s->name, "%s", name);
    s->pat = NULL;
    s->shown = 1;
    if (vine_bench_matrix_init(&s->m, b->p))
        return -1;
    b->nsteps++;
    return 0;
}

/* Rank 0 reads the file; every rank gets its messages.  Returns 0 or an exit status. */
static int read_file(bench *b, vine_bench_matrix *m)
{
    char err[512] = "";
    int rc = 0;
    if (b->rank == 0)
        rc = b->o.source == SRC_CSV ? vine_bench_read_csv(m, b->o.file, err, sizeof err)
                                    : vine_bench_read_mtx(m, b->o.file, b->o.size, err, sizeof err);
    unsigned long long hdr[2] = {(unsigned long long)rc, m->count};
    MPI_Bcast(hdr, 2, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
    if (hdr[0]) {
        if (rank0)
            fprintf(stderr, "vine-bench pattern: %s\n", err);
        return 2;
    }
    if (hdr[1] > (unsigned long long)INT32_MAX / sizeof(vine_bench_msg)) {
        if (rank0)
            fprintf(stderr, "vine-bench pattern: %s: too many messages (%llu)\n", b->o.file,
                    hdr[1]);
        return 2;
    }
    size_t n = (size_t)hdr[1];
    vine_bench_msg *msgs = b->rank == 0 ? m->msgs : malloc((n ? n : 1) * sizeof *msgs);
    int ok = msgs != NULL, all;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (!all) {
        if (b->rank != 0)
            free(msgs);
        return 1;
    }
    MPI_Bcast(msgs, (int)(n * sizeof *msgs), MPI_BYTE, 0, MPI_COMM_WORLD);
    rc = 0;
    for (size_t i = 0; i < n && b->rank != 0 && !rc; i++)
        rc =
            vine_bench_matrix_add(m, msgs[i].sendbuf, msgs[i].sendoff, msgs[i].recvbuf,
                                  msgs[i].recvoff, msgs[i].bytes, msgs[i].sender, msgs[i].receiver);
    if (b->rank != 0)
        free(msgs);
    MPI_Allreduce(&rc, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return all ? 1 : 0;
}

static void add_row(bench *b, const char *name, int mode, const int *steps, int nsteps,
                    double bytes)
{
    prow *r = &b->rows[b->nrows++];
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%s", name);
    r->mode = mode;
    r->how = nsteps == 1 ? "single" : mode == VINE_BENCH_ASYNC ? "async" : "concurrent";
    r->nsteps = nsteps;
    double total = 0;
    for (int i = 0; i < nsteps; i++) {
        r->steps[i] = steps[i];
        r->messages += b->steps[steps[i]].m.count;
        total += (double)vine_bench_matrix_total(&b->steps[steps[i]].m);
    }
    r->bytes = bytes >= 0 ? bytes : total;
}

/* Builds steps and rows; returns 0 or an exit status. */
static int build(bench *b)
{
    popts *o = &b->o;
    char err[512] = "";
    int rc = 0;
    if (o->source == SRC_GROUP) {
        int n = o->n > 0 ? o->n : 2;
        int g = o->g > 0 ? o->g : b->p / n;
        int k = o->k > 0 ? o->k : g;
        o->n = n, o->g = g, o->k = k;
        if (g < 1)
            return bad_usage("%s", "too few ranks for --n groups (set --g)");
        if (init_step(b, vine_bench_group_name(o->kind)))
            return 1;
        rc = vine_bench_group_pattern(&b->steps[0].m, o->kind, o->dir, n, g, k, o->size, err,
                                      sizeof err);
        add_row(b, b->steps[0].name, VINE_BENCH_ASYNC, (int[]){0}, 1, -1);
    } else if (o->source == SRC_STRIPE) {
        int g = o->g > 0 ? o->g : b->p / 2;
        int k = o->k > 0 ? o->k : g;
        o->n = 2, o->g = g, o->k = k;
        if (g < 1)
            return bad_usage("%s", "striping needs at least two ranks");
        static const char *const names[3] = {"split", "translate", "assemble"};
        for (int i = 0; i < 3; i++)
            if (init_step(b, names[i]))
                return 1;
        vine_bench_matrix st[3] = {b->steps[0].m, b->steps[1].m, b->steps[2].m};
        rc = vine_bench_stripe_pattern(st, g, k, o->size, err, sizeof err);
        for (int i = 0; i < 3; i++)
            b->steps[i].m = st[i];
        for (int i = 0; i < 3; i++)
            add_row(b, names[i], VINE_BENCH_ASYNC, (int[]){i}, 1, -1);
        add_row(b, "stripe", VINE_BENCH_ASYNC, (int[]){0, 1, 2}, 3, (double)o->size);
    } else {
        if (init_step(b, "all"))
            return 1;
        int st = read_file(b, &b->steps[0].m);
        if (st)
            return st;
        add_row(b, "all", VINE_BENCH_ASYNC, (int[]){0}, 1, -1);
        if (o->g > 0) {
            /* Groups of g ranks: intra- and inter-group messages as steps of their own. */
            if (init_step(b, "intra") || init_step(b, "inter"))
                return 1;
            const vine_bench_matrix *all = &b->steps[0].m;
            for (size_t i = 0; i < all->count && !rc; i++) {
                const vine_bench_msg *x = &all->msgs[i];
                vine_bench_matrix *dst =
                    &b->steps[x->sender / o->g == x->receiver / o->g ? 1 : 2].m;
                rc = vine_bench_matrix_add(dst, x->sendbuf, x->sendoff, x->recvbuf, x->recvoff,
                                           x->bytes, x->sender, x->receiver);
            }
            b->steps[1].shown = b->steps[2].shown = 0;
            add_row(b, "intra", VINE_BENCH_ASYNC, (int[]){1}, 1, -1);
            add_row(b, "inter", VINE_BENCH_ASYNC, (int[]){2}, 1, -1);
            add_row(b, "intra+inter", VINE_BENCH_CONCURRENT, (int[]){1, 2}, 2, -1);
        }
    }
    if (rc) {
        if (rank0)
            fprintf(stderr, "vine-bench pattern: %s\n", err[0] ? err : "out of memory");
        return rc == VINE_BENCH_ERR_NO_MEM ? 1 : 2;
    }
    if (o->nic_bw_arg) {
        if (vine__bwmodel_group(o->nic_bw, o->kind, o->dir, o->n, o->g, o->k, o->ranks_per_nic,
                                o->nics, &b->model, err, sizeof err))
            return bad_usage("%s", err);
        b->modelled = 1;
    }
    return 0;
}

/* Allocates this rank's buffers, fills the send buffer, creates the patterns. */
static int setup(bench *b)
{
    size_t size[VINE_BENCH_NBUF] = {0, 0, 0};
    for (int s = 0; s < b->nsteps; s++) {
        vine_bench_footprint f;
        vine_bench_matrix_footprint(&b->steps[s].m, b->rank, &f);
        for (int i = 0; i < VINE_BENCH_NBUF; i++)
            if (f.extent[i] > size[i])
                size[i] = f.extent[i];
    }
    int ok = 1, all;
    for (int i = 0; i < VINE_BENCH_NBUF; i++) {
        b->bufs[i] = malloc(size[i] ? size[i] : 1);
        ok = ok && b->bufs[i];
        if (b->bufs[i])
            memset(b->bufs[i], i == VINE_BENCH_BUF_SEND ? 0x5a : 0, size[i]);
    }
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (!all) {
        if (rank0)
            fprintf(stderr, "vine-bench pattern: out of memory for the buffers\n");
        return 1;
    }
    void *bufs[VINE_BENCH_NBUF] = {b->bufs[0], b->bufs[1], b->bufs[2]};
    int rc = MPI_SUCCESS;
    for (int s = 0; s < b->nsteps && rc == MPI_SUCCESS; s++) {
        rc = vine_bench_create(MPI_COMM_WORLD, &b->steps[s].pat);
        if (rc == MPI_SUCCESS)
            rc = vine_bench_add_matrix(b->steps[s].pat, &b->steps[s].m, bufs);
    }
    MPI_Allreduce(MPI_IN_PLACE, &rc, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rc != MPI_SUCCESS) {
        if (rank0)
            fprintf(stderr, "vine-bench pattern: setting up the patterns failed: %s\n",
                    vine_error_string(rc));
        return 1;
    }
    return 0;
}

static int measure(bench *b)
{
    int failures = 0;
    double *sec = malloc(sizeof(double) * (size_t)b->o.iters);
    for (int i = 0; i < b->nrows; i++) {
        prow *r = &b->rows[i];
        vine_bench_pattern pats[MAX_STEPS];
        for (int s = 0; s < r->nsteps; s++)
            pats[s] = b->steps[r->steps[s]].pat;
        r->times = malloc(sizeof(double) * (size_t)b->o.iters);
        int ok = sec && r->times, all;
        MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
        r->err =
            all ? vine_bench_measure_steps(pats, r->nsteps, r->mode, b->o.warmup, b->o.iters, sec)
                : MPI_ERR_NO_MEM;
        if (r->err == MPI_SUCCESS) {
            for (int t = 0; t < b->o.iters; t++)
                r->times[t] = sec[t] * 1e6;
            r->ok = vine__bench_stats(r->times, b->o.iters, vine__bench_warmup_drop(b->o.iters),
                                      &r->st) == 0;
        }
        failures += !r->ok;
    }
    free(sec);
    return failures;
}

/* ---- output ---- */

static void print_matrix(const pstep *s, int p)
{
    vine_bench_pair *pairs = NULL;
    size_t np = 0;
    char h[32];
    if (vine_bench_matrix_pairs(&s->m, &pairs, &np))
        return;
    printf("# step %s: %zu messages, %zu sender-receiver pairs, %s in all\n", s->name, s->m.count,
           np, human((double)vine_bench_matrix_total(&s->m), h, sizeof h));
    if (p <= GRID_MAX) {
        printf("# matrix (bytes; rows: senders, columns: receivers)\n%6s", "");
        for (int r = 0; r < p; r++)
            printf(" %7d", r);
        printf("\n");
        size_t k = 0;
        for (int sd = 0; sd < p; sd++) {
            printf("%6d", sd);
            for (int r = 0; r < p; r++) {
                if (k < np && pairs[k].sender == sd && pairs[k].receiver == r)
                    printf(" %7s", human((double)pairs[k++].bytes, h, sizeof h));
                else
                    printf(" %7s", ".");
            }
            printf("\n");
        }
    } else {
        printf("# matrix (sparse): sender receiver bytes messages\n");
        for (size_t k = 0; k < np && k < PAIRS_MAX; k++)
            printf("%6d %8d %10zu %8zu\n", pairs[k].sender, pairs[k].receiver, pairs[k].bytes,
                   pairs[k].msgs);
        if (np > PAIRS_MAX)
            printf("# ... %zu more pairs (all of them in --json)\n", np - PAIRS_MAX);
    }
    free(pairs);
}

static void print_footprints(const pstep *s, int p)
{
    printf("# footprints of step %s: bytes and messages each rank sends and receives\n", s->name);
    if (p <= TABLE_MAX) {
        printf("%6s %12s %9s %12s %9s\n", "rank", "send_bytes", "send_msgs", "recv_bytes",
               "recv_msgs");
        for (int r = 0; r < p; r++) {
            vine_bench_footprint f;
            vine_bench_matrix_footprint(&s->m, r, &f);
            printf("%6d %12zu %9zu %12zu %9zu\n", r, f.send_bytes, f.send_msgs, f.recv_bytes,
                   f.recv_msgs);
        }
        return;
    }
    size_t lo[4], hi[4];
    for (int r = 0; r < p; r++) {
        vine_bench_footprint f;
        vine_bench_matrix_footprint(&s->m, r, &f);
        size_t v[4] = {f.send_bytes, f.send_msgs, f.recv_bytes, f.recv_msgs};
        for (int i = 0; i < 4; i++) {
            lo[i] = r == 0 || v[i] < lo[i] ? v[i] : lo[i];
            hi[i] = r == 0 || v[i] > hi[i] ? v[i] : hi[i];
        }
    }
    printf("#   send_bytes %zu..%zu, send_msgs %zu..%zu, recv_bytes %zu..%zu, recv_msgs "
           "%zu..%zu over %d ranks\n",
           lo[0], hi[0], lo[1], hi[1], lo[2], hi[2], lo[3], hi[3], p);
}

static double bandwidth(const prow *r)
{
    return r->ok && r->st.median > 0 ? r->bytes / r->st.median / 1e3 : 0;
}

/* The bandwidth models' lines (--nic-bw), before the rows. */
static void print_model(const bench *b)
{
    const vine_bwmodel *m = &b->model;
    static const char *const why[] = {"uni: group 0 sends everything",
                                      "bi: group 0 sends and receives as much",
                                      "omni: every group sends and receives as much"};
    printf("# bandwidth models (CommBench eq. 1 and 2): f_NIC = %.3f GB/s per NIC and direction "
           "(--nic-bw %s), k = %d active ranks per node (group of g = %d)\n",
           m->nic, b->o.nic_bw_arg, m->k, b->o.g);
    char lp[48], lr[48];
    snprintf(lp, sizeof lp, "packed, p = %d ranks per NIC:", m->p);
    snprintf(lr, sizeof lr, "round-robin, r = %d NICs per node:", m->r);
    printf("#   %-36s f_NIC * (1 + ReLU(k - p) / p) = %.3f GB/s per node and direction\n", lp,
           m->packed_node);
    printf("#   %-36s f_NIC * k / ceil(k / r)       = %.3f GB/s per node and direction\n", lr,
           m->rr_node);
    if (m->far != m->k)
        printf("#   the other groups move their bytes through all g = %d ranks: packed %.3f, "
               "round-robin %.3f GB/s per node and direction\n",
               m->far, m->packed_far, m->rr_far);
    printf("#   pattern (bytes / time, beside GB/s): packed_GB/s = %.3f, rr_GB/s = %.3f (%d x "
           "group 0's rate, %s",
           m->packed, m->rr, m->factor, why[b->o.dir]);
    if (m->packed_far_limits)
        printf("; packed: limited by the other groups' nodes");
    if (m->rr_far_limits)
        printf("; round-robin: limited by the other groups' nodes");
    printf(")");
    printf("\n");
}

static void print_rows(const bench *b)
{
    if (b->modelled)
        print_model(b);
    printf("# times in microseconds: per iteration the slowest rank; the first %d of %d "
           "iterations dropped; GB/s = bytes / median\n",
           vine__bench_warmup_drop(b->o.iters), b->o.iters);
    printf("%-12s %-10s %8s %12s %10s %10s %10s %10s %10s %9s", "row", "mode", "messages", "bytes",
           "min_us", "median_us", "mean_us", "p99_us", "max_us", "GB/s");
    if (b->modelled)
        printf(" %11s %9s", "packed_GB/s", "rr_GB/s");
    printf("\n");
    for (int i = 0; i < b->nrows; i++) {
        const prow *r = &b->rows[i];
        printf("%-12s %-10s %8zu %12.0f ", r->name, r->how, r->messages, r->bytes);
        if (!r->ok) {
            printf("error: %s\n", r->err ? vine_error_string(r->err) : "no statistics");
            continue;
        }
        printf("%10.2f %10.2f %10.2f %10.2f %10.2f %9.3f", r->st.min, r->st.median, r->st.mean,
               r->st.p99, r->st.max, bandwidth(r));
        if (b->modelled)
            printf(" %11.3f %9.3f", b->model.packed, b->model.rr);
        printf("\n");
    }
}

static void print_header(const bench *b)
{
    const popts *o = &b->o;
    char h[32];
    printf("# vine-bench pattern: %s", o->pattern);
    if (o->source == SRC_GROUP)
        printf(" %s n=%d g=%d k=%d size=%s", vine_bench_dir_name(o->dir), o->n, o->g, o->k,
               human((double)o->size, h, sizeof h));
    else if (o->source == SRC_STRIPE)
        printf(" g=%d k=%d size=%s", o->g, o->k, human((double)o->size, h, sizeof h));
    else if (o->source == SRC_MTX)
        printf(" entry=%zuB", o->size);
    if ((o->source == SRC_CSV || o->source == SRC_MTX) && o->g > 0)
        printf(" groups of g=%d", o->g);
    printf(" p=%d iters=%d warmup=%d\n", b->p, o->iters, o->warmup);
}

/* The direction, for the group patterns and striping only. */
static const char *dir_label(const popts *o)
{
    return o->source == SRC_GROUP || o->source == SRC_STRIPE ? vine_bench_dir_name(o->dir) : NULL;
}

static json_t *jnum(double x)
{
    return isfinite(x) ? json_real(x) : json_null();
}

static json_t *json_step(const pstep *s, int p)
{
    json_t *o = json_object(), *m = json_array(), *fp = json_array();
    vine_bench_pair *pairs = NULL;
    size_t np = 0;
    vine_bench_matrix_pairs(&s->m, &pairs, &np);
    for (size_t k = 0; k < np; k++) {
        json_t *e = json_object();
        json_object_set_new(e, "sender", json_integer(pairs[k].sender));
        json_object_set_new(e, "receiver", json_integer(pairs[k].receiver));
        json_object_set_new(e, "bytes", json_integer((json_int_t)pairs[k].bytes));
        json_object_set_new(e, "messages", json_integer((json_int_t)pairs[k].msgs));
        json_array_append_new(m, e);
    }
    free(pairs);
    for (int r = 0; r < p; r++) {
        vine_bench_footprint f;
        vine_bench_matrix_footprint(&s->m, r, &f);
        json_t *e = json_object();
        json_object_set_new(e, "rank", json_integer(r));
        json_object_set_new(e, "send_bytes", json_integer((json_int_t)f.send_bytes));
        json_object_set_new(e, "send_messages", json_integer((json_int_t)f.send_msgs));
        json_object_set_new(e, "recv_bytes", json_integer((json_int_t)f.recv_bytes));
        json_object_set_new(e, "recv_messages", json_integer((json_int_t)f.recv_msgs));
        json_array_append_new(fp, e);
    }
    json_object_set_new(o, "name", json_string(s->name));
    json_object_set_new(o, "messages", json_integer((json_int_t)s->m.count));
    json_object_set_new(o, "bytes", json_integer((json_int_t)vine_bench_matrix_total(&s->m)));
    json_object_set_new(o, "matrix", m);
    json_object_set_new(o, "footprints", fp);
    return o;
}

static json_t *json_row(const bench *b, const prow *r)
{
    json_t *o = json_object(), *steps = json_array(), *t = json_array();
    for (int s = 0; s < r->nsteps; s++)
        json_array_append_new(steps, json_string(b->steps[r->steps[s]].name));
    for (int i = 0; r->ok && i < b->o.iters; i++)
        json_array_append_new(t, jnum(r->times[i]));
    json_object_set_new(o, "name", json_string(r->name));
    json_object_set_new(o, "mode", json_string(r->how));
    json_object_set_new(o, "steps", steps);
    json_object_set_new(o, "messages", json_integer((json_int_t)r->messages));
    json_object_set_new(o, "bytes", json_real(r->bytes));
    json_object_set_new(o, "status", json_string(r->ok ? "ok" : "error"));
    json_object_set_new(o, "error", json_string(r->ok ? "" : vine_error_string(r->err)));
    json_object_set_new(o, "kept", json_integer(r->st.kept));
    json_object_set_new(o, "dropped", json_integer(r->st.dropped));
    json_object_set_new(o, "min_us", r->ok ? jnum(r->st.min) : json_null());
    json_object_set_new(o, "median_us", r->ok ? jnum(r->st.median) : json_null());
    json_object_set_new(o, "mean_us", r->ok ? jnum(r->st.mean) : json_null());
    json_object_set_new(o, "p99_us", r->ok ? jnum(r->st.p99) : json_null());
    json_object_set_new(o, "max_us", r->ok ? jnum(r->st.max) : json_null());
    json_object_set_new(o, "bandwidth_GBps", r->ok ? jnum(bandwidth(r)) : json_null());
    if (b->modelled) {
        json_object_set_new(o, "packed_GBps", jnum(b->model.packed));
        json_object_set_new(o, "round_robin_GBps", jnum(b->model.rr));
    }
    json_object_set_new(o, "times_us", t);
    return o;
}

/* The bandwidth models' parameters and predictions (--nic-bw). */
static json_t *json_model(const vine_bwmodel *m)
{
    json_t *o = json_object();
    json_object_set_new(o, "nic_GBps", jnum(m->nic));
    json_object_set_new(o, "k", json_integer(m->k));
    json_object_set_new(o, "far_ranks", json_integer(m->far));
    json_object_set_new(o, "ranks_per_nic", json_integer(m->p));
    json_object_set_new(o, "nics", json_integer(m->r));
    json_object_set_new(o, "factor", json_integer(m->factor));
    json_object_set_new(o, "packed_node_GBps", jnum(m->packed_node));
    json_object_set_new(o, "round_robin_node_GBps", jnum(m->rr_node));
    json_object_set_new(o, "packed_far_GBps", jnum(m->packed_far));
    json_object_set_new(o, "round_robin_far_GBps", jnum(m->rr_far));
    json_object_set_new(o, "packed_GBps", jnum(m->packed));
    json_object_set_new(o, "round_robin_GBps", jnum(m->rr));
    return o;
}

static int write_json(const bench *b, const char *command, const char *date, const char *lib,
                      char **hosts)
{
    const popts *o = &b->o;
    json_t *root = json_object(), *h = json_array(), *steps = json_array(), *rows = json_array();
    json_object_set_new(root, "format", json_string("vine-bench-pattern"));
    json_object_set_new(root, "version", json_integer(1));
    json_object_set_new(root, "command", json_string(command));
    json_object_set_new(root, "date", json_string(date));
    json_object_set_new(root, "mpi_library", json_string(lib));
    json_object_set_new(root, "ranks", json_integer(b->p));
    for (int r = 0; r < b->p; r++)
        json_array_append_new(h, json_string(hosts[r]));
    json_object_set_new(root, "hosts", h);
    json_object_set_new(root, "pattern", json_string(o->pattern));
    json_object_set_new(root, "direction", dir_label(o) ? json_string(dir_label(o)) : json_null());
    json_object_set_new(root, "n", o->n > 0 ? json_integer(o->n) : json_null());
    json_object_set_new(root, "g", o->g > 0 ? json_integer(o->g) : json_null());
    json_object_set_new(root, "k", o->k > 0 ? json_integer(o->k) : json_null());
    json_object_set_new(root, "size", json_integer((json_int_t)o->size));
    json_object_set_new(root, "iters", json_integer(o->iters));
    json_object_set_new(root, "warmup", json_integer(o->warmup));
    json_object_set_new(root, "bandwidth_model", b->modelled ? json_model(&b->model) : json_null());
    for (int s = 0; s < b->nsteps; s++)
        json_array_append_new(steps, json_step(&b->steps[s], b->p));
    for (int i = 0; i < b->nrows; i++)
        json_array_append_new(rows, json_row(b, &b->rows[i]));
    json_object_set_new(root, "steps", steps);
    json_object_set_new(root, "rows", rows);
    int rc = json_dump_file(root, o->json, JSON_INDENT(1) | JSON_REAL_PRECISION(15));
    json_decref(root);
    if (rc)
        fprintf(stderr, "vine-bench pattern: %s: cannot write\n", o->json);
    return rc != 0;
}

static int write_csv(const bench *b)
{
    const popts *o = &b->o;
    FILE *f = fopen(o->csv, "w");
    if (!f) {
        fprintf(stderr, "vine-bench pattern: %s: cannot write: %s\n", o->csv, strerror(errno));
        return 1;
    }
    fprintf(f,
            "pattern,direction,n,g,k,size,ranks,row,mode,messages,bytes,iters,kept,"
            "min_us,median_us,mean_us,p99_us,max_us,bandwidth_GBps%s\n",
            b->modelled ? ",nic_GBps,ranks_per_nic,nics,packed_GBps,round_robin_GBps" : "");
    for (int i = 0; i < b->nrows; i++) {
        const prow *r = &b->rows[i];
        char nums[6][32] = {"", "", "", "", "", ""};
        if (r->ok) {
            double v[6] = {r->st.min, r->st.median, r->st.mean, r->st.p99, r->st.max, bandwidth(r)};
            for (int k = 0; k < 6; k++)
                snprintf(nums[k], sizeof nums[k], "%.15g", v[k]);
        }
        /* A file name may hold a comma: quote the pattern field. */
        fprintf(f, "\"");
        for (const char *c = o->pattern; *c; c++)
            fprintf(f, *c == '"' ? "\"\"" : "%c", *c);
        fprintf(f, "\",%s,", dir_label(o) ? dir_label(o) : "");
        int par[3] = {o->n, o->g, o->k};
        for (int k = 0; k < 3; k++) {
            if (par[k] > 0)
                fprintf(f, "%d", par[k]);
            fprintf(f, ",");
        }
        fprintf(f, "%zu,%d,%s,%s,%zu,%.15g,%d,%d,%s,%s,%s,%s,%s,%s", o->size, b->p, r->name, r->how,
                r->messages, r->bytes, o->iters, r->st.kept, nums[0], nums[1], nums[2], nums[3],
                nums[4], nums[5]);
        if (b->modelled)
            fprintf(f, ",%.15g,%d,%d,%.15g,%.15g", b->model.nic, b->model.p, b->model.r,
                    b->model.packed, b->model.rr);
        fprintf(f, "\n");
    }
    int bad = ferror(f);
    bad |= fclose(f) != 0;
    if (bad)
        fprintf(stderr, "vine-bench pattern: %s: write error\n", o->csv);
    return bad;
}

/* Writes the result files on rank 0; returns 0 or 1 on every rank. */
static int write_files(const bench *b, int argc, char **argv)
{
    char name[MPI_MAX_PROCESSOR_NAME] = "";
    int len = 0;
    MPI_Get_processor_name(name, &len);
    char *all = rank0 ? calloc((size_t)b->p, MPI_MAX_PROCESSOR_NAME) : NULL;
    MPI_Gather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0,
               MPI_COMM_WORLD);
    int bad = 0;
    if (rank0) {
        char **hosts = malloc(sizeof(char *) * (size_t)b->p);
        size_t cmdlen = 16;
        for (int i = 0; i < argc; i++)
            cmdlen += strlen(argv[i]) + 1;
        char *cmd = malloc(cmdlen), lib[MPI_MAX_LIBRARY_VERSION_STRING] = "", date[32] = "";
        if (!hosts || !cmd || !all) {
            bad = 1;
        } else {
            for (int r = 0; r < b->p; r++)
                hosts[r] = all + (size_t)r * MPI_MAX_PROCESSOR_NAME;
            strcpy(cmd, "vine-bench");
            for (int i = 0; i < argc; i++)
                strcat(strcat(cmd, " "), argv[i]);
            MPI_Get_library_version(lib, &len);
            lib[strcspn(lib, "\n")] = '\0';
            time_t now = time(NULL);
            struct tm tm;
            gmtime_r(&now, &tm);
            strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
            if (b->o.json)
                bad |= write_json(b, cmd, date, lib, hosts);
            if (b->o.csv)
                bad |= write_csv(b);
        }
        free(hosts);
        free(cmd);
    }
    free(all);
    MPI_Bcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return bad;
}

static void cleanup(bench *b)
{
    for (int s = 0; s < b->nsteps; s++) {
        if (b->steps[s].pat)
            vine_bench_free(&b->steps[s].pat);
        vine_bench_matrix_free(&b->steps[s].m);
    }
    for (int i = 0; i < b->nrows; i++)
        free(b->rows[i].times);
    for (int i = 0; i < VINE_BENCH_NBUF; i++)
        free(b->bufs[i]);
}

int bench_pattern_main(int argc, char **argv)
{
    bench b;
    memset(&b, 0, sizeof b);
    MPI_Comm_rank(MPI_COMM_WORLD, &b.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &b.p);
    rank0 = b.rank == 0;
    int status = parse_options(&b.o, argc, argv);
    if (status)
        return status == 1 ? 0 : status;
    status = build(&b);
    if (!status)
        status = setup(&b);
    if (!status) {
        if (rank0) {
            print_header(&b);
            for (int s = 0; s < b.nsteps; s++)
                if (b.steps[s].shown) {
                    print_matrix(&b.steps[s], b.p);
                    print_footprints(&b.steps[s], b.p);
                }
            fflush(stdout);
        }
        int failures = measure(&b);
        if (rank0) {
            print_rows(&b);
            fflush(stdout);
        }
        status = failures ? 1 : 0;
        if (b.o.json || b.o.csv)
            status |= write_files(&b, argc, argv);
    }
    cleanup(&b);
    return status;
}
