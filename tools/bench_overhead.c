/*
 * vine-bench overhead: the per-call cost of vine's dispatch and executor.
 *
 * An 8-byte allreduce (one double, MPI_SUM) runs three ways, interleaved in
 * batches so that drift and noise hit all three alike: MPI_Allreduce,
 * vine_allreduce with the recursive_doubling algorithm (its schedule cached
 * after the first call), and a hand-written loop of the same algorithm
 * (MPI_Irecv, MPI_Isend, MPI_Waitall, MPI_Reduce_local on a private
 * communicator).  The difference between the last two is what vine adds.
 * The hand-written loop needs a power-of-two number of ranks.  A fourth
 * variant, vine_allreduce served by "mpi", is what vine adds where a tuning
 * file hands a call to the MPI library.
 *
 * Then every collective with 8 bytes per block (one double), served by "mpi"
 * through vine against the same MPI_<Coll> call, interleaved the same way:
 * what vine's entry point adds before it hands a repeated call to the MPI
 * library.
 *
 * Then, without MPI, the cost of auto's lookup in a tuning table (the rule
 * for the communicator size, the range for the size): paid once per
 * schedule built, not per call, but measured on its own so that a large
 * table can be seen not to matter.
 */
#include "bench_overhead.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "select/select.h"
#include "vine.h"

#include <time.h>

/* Recursive doubling for a power-of-two p: the schedule vine builds. */
static void hand_allreduce(const double *in, double *out, double *tmp, MPI_Comm comm, int p,
                           int rank)
{
    *out = *in;
    for (int mask = 1; mask < p; mask <<= 1) {
        MPI_Request req[2];
        int peer = rank ^ mask;
        MPI_Irecv(tmp, 1, MPI_DOUBLE, peer, 0, comm, &req[0]);
        MPI_Isend(out, 1, MPI_DOUBLE, peer, 0, comm, &req[1]);
        /* GCC 11 and later wrongly warn on MPICH's MPI_STATUSES_IGNORE, a
         * constant pointer it takes for an empty array (see wait_all in
         * src/sched/exec.c); the executor's call is silenced the same way. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif
        MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
        MPI_Reduce_local(tmp, out, 1, MPI_DOUBLE, MPI_SUM);
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Runs iters calls of variant k and returns the slowest rank's time per call (us). */
static double batch(int k, int iters, MPI_Comm dup, int p, int rank)
{
    double in = rank + 1, out = 0, tmp = 0, dt, slowest;
    if (k == 1 || k == 3) /* the first call of the batch finds the cached schedule again */
        vine_set_algorithm(VINE_COLL_ALLREDUCE, k == 1 ? "recursive_doubling" : "mpi");
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int i = 0; i < iters; i++) {
        if (k == 0)
            MPI_Allreduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        else if (k == 1 || k == 3)
            vine_allreduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        else
            hand_allreduce(&in, &out, &tmp, dup, p, rank);
    }
    dt = (MPI_Wtime() - t0) / iters * 1e6;
    MPI_Allreduce(&dt, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return slowest;
}

/* The ten collectives coll_call knows (not yet the v ones and the scans). */
enum { COLLS = VINE_COLL_ALLGATHERV, MAXB = 1024 };

/* One call of collective c with 8 bytes per block, by vine (served by mpi) or by MPI. */
static void coll_call(int c, int by_vine, const double *in, double *out, const int *counts)
{
    MPI_Comm w = MPI_COMM_WORLD;
    switch ((vine_coll)c) {
    case VINE_COLL_BCAST:
        (void)(by_vine ? vine_bcast(out, 1, MPI_DOUBLE, 0, w) : MPI_Bcast(out, 1, MPI_DOUBLE, 0, w));
        break;
    case VINE_COLL_REDUCE:
        (void)(by_vine ? vine_reduce(in, out, 1, MPI_DOUBLE, MPI_SUM, 0, w)
                       : MPI_Reduce(in, out, 1, MPI_DOUBLE, MPI_SUM, 0, w));
        break;
    case VINE_COLL_ALLREDUCE:
        (void)(by_vine ? vine_allreduce(in, out, 1, MPI_DOUBLE, MPI_SUM, w)
                       : MPI_Allreduce(in, out, 1, MPI_DOUBLE, MPI_SUM, w));
        break;
    case VINE_COLL_ALLGATHER:
        (void)(by_vine ? vine_allgather(in, 1, MPI_DOUBLE, out, 1, MPI_DOUBLE, w)
                       : MPI_Allgather(in, 1, MPI_DOUBLE, out, 1, MPI_DOUBLE, w));
        break;
    case VINE_COLL_REDUCE_SCATTER:
        (void)(by_vine ? vine_reduce_scatter(in, out, counts, MPI_DOUBLE, MPI_SUM, w)
                       : MPI_Reduce_scatter(in, out, counts, MPI_DOUBLE, MPI_SUM, w));
        break;
    case VINE_COLL_REDUCE_SCATTER_BLOCK:
        (void)(by_vine ? vine_reduce_scatter_block(in, out, 1, MPI_DOUBLE, MPI_SUM, w)
                       : MPI_Reduce_scatter_block(in, out, 1, MPI_DOUBLE, MPI_SUM, w));
        break;
    case VINE_COLL_ALLTOALL:
        (void)(by_vine ? vine_alltoall(in, 1, MPI_DOUBLE, out, 1, MPI_DOUBLE, w)
                       : MPI_Alltoall(in, 1, MPI_DOUBLE, out, 1, MPI_DOUBLE, w));
        break;
    case VINE_COLL_GATHER:
        (void)(by_vine ? vine_gather(in, 1, MPI_DOUBLE, out, 1, MPI_DOUBLE, 0, w)
                       : MPI_Gather(in, 1, MPI_DOUBLE, out, 1, MPI_DOUBLE, 0, w));
        break;
    case VINE_COLL_SCATTER:
        (void)(by_vine ? vine_scatter(in, 1, MPI_DOUBLE, out, 1, MPI_DOUBLE, 0, w)
                       : MPI_Scatter(in, 1, MPI_DOUBLE, out, 1, MPI_DOUBLE, 0, w));
        break;
    default:
        (void)(by_vine ? vine_barrier(w) : MPI_Barrier(w));
        break;
    }
}

/* iters calls of c by vine or MPI; the slowest rank's time per call (us). */
static double coll_batch(int c, int by_vine, int iters, const double *in, double *out,
                         const int *counts)
{
    double dt, slowest;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int i = 0; i < iters; i++)
        coll_call(c, by_vine, in, out, counts);
    dt = (MPI_Wtime() - t0) / iters * 1e6;
    MPI_Allreduce(&dt, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return slowest;
}

/* The per-collective table: vine served by mpi against MPI_<Coll>. */
static int coll_overhead(int batches, int iters, int p, int rank)
{
    if (p > MAXB) {
        if (rank == 0)
            printf("(per-collective table skipped: more than %d ranks)\n", MAXB);
        return 0;
    }
    double *in = calloc(MAXB, sizeof *in), *out = calloc(MAXB, sizeof *out);
    double *t = calloc((size_t)batches * 2, sizeof *t);
    int *counts = malloc(MAXB * sizeof *counts);
    if (!in || !out || !t || !counts) {
        free(in);
        free(out);
        free(t);
        free(counts);
        return -1;
    }
    for (int i = 0; i < MAXB; i++)
        counts[i] = 1;
    if (rank == 0)
        printf("# every collective, 8 bytes per block (MPI_DOUBLE), vine served by mpi against\n"
               "# MPI_<Coll>, median over %d batches of %d calls each, slowest rank per batch\n"
               "%-22s %12s %12s %10s\n",
               batches, iters, "collective", "MPI us/call", "vine us/call", "vine - MPI");
    for (int c = 0; c < COLLS; c++) {
        vine_set_algorithm((vine_coll)c, "mpi");
        for (int b = -2; b < batches; b++)
            for (int v = 0; v < 2; v++) {
                double x = coll_batch(c, v, iters, in, out, counts);
                if (b >= 0)
                    t[v * batches + b] = x;
            }
        vine_set_algorithm((vine_coll)c, "auto");
        qsort(t, (size_t)batches, sizeof *t, cmp_double);
        qsort(t + batches, (size_t)batches, sizeof *t, cmp_double);
        double m = t[batches / 2], v = t[batches + batches / 2];
        if (rank == 0)
            printf("%-22s %12.3f %12.3f %+9.3f\n", vine_coll_name((vine_coll)c), m, v, v - m);
    }
    free(in);
    free(out);
    free(t);
    free(counts);
    return 0;
}

static int parse_count(const char *s, int *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < 1 || v > 100000000)
        return -1;
    *out = (int)v;
    return 0;
}

enum { VARIANTS = 4 };

/*
 * ns per auto choice with a tuning table of every collective on 2, 4 ...
 * 1024 ranks and 24 size ranges each, and the number of rules; -1 when out
 * of memory.  The choices are made for sizes and ranks spread over the
 * table, every one of them served by it (rule, range, restrictions).
 */
static double lookup_ns(int *nrules)
{
    vine_tuning t;
    vine__tuning_init(&t);
    vine_tune_range g[24];
    for (int c = 0; c < VINE_COLL_COUNT; c++)
        for (int p = 2; p <= 1024; p *= 2) {
            for (int i = 0; i < 24; i++)
                g[i] = (vine_tune_range){(size_t)1 << i,
                                         ((size_t)2 << i) - 1,
                                         vine__algo_find((vine_coll)c, "mpi"),
                                         0,
                                         0,
                                         NULL,
                                         0,
                                         0};
            vine_tune_rule r = {
                (vine_coll)c, p, VINE_TUNE_OPS_ANY, VINE_TUNE_INPLACE_ANY, 24, g, 0, 0};
            if (vine__tuning_add_rule(&t, &r, NULL, 0) != VINE_OK) {
                vine__tuning_free(&t);
                return -1;
            }
        }
    *nrules = t.nrules;
    vine__select_set_tuning(&t);
    const int n = 1 << 20;
    unsigned long sum = 0;
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (int i = 0; i < n; i++) {
        /* Sizes the table holds or is near (p = 2^k or 3 * 2^(k-1)): every choice is the table's.
         */
        int k = 1 + (i / VINE_COLL_BARRIER) % 10;
        vine_args x = {.coll = (vine_coll)(i % VINE_COLL_BARRIER),
                       .p = (i & 1) ? 1 << k : 3 << (k - 1),
                       .count = (size_t)1 << (i % 24),
                       .commutative = 1};
        sum += (unsigned long)(uintptr_t)vine__select_auto(&x, 1);
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    vine__select_set_tuning(NULL);
    vine__tuning_free(&t);
    double ns = ((double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec)) / n;
    return sum ? ns : -1;
}

static void print_result(double *t[VARIANTS], int batches, int iters, int p, int hand)
{
    double m[VARIANTS];
    for (int k = 0; k < VARIANTS; k++) {
        qsort(t[k], (size_t)batches, sizeof(double), cmp_double);
        m[k] = t[k][batches / 2];
    }
    printf("# vine-bench overhead: %d ranks, 8-byte allreduce (MPI_DOUBLE, MPI_SUM),\n"
           "# median over %d batches of %d calls, slowest rank per batch\n",
           p, batches, iters);
    printf("%-30s %10s %14s\n", "variant", "us/call", "ratio to MPI");
    printf("%-30s %10.3f %14.3f\n", "MPI_Allreduce", m[0], 1.0);
    printf("%-30s %10.3f %14.3f\n", "vine_allreduce (rd, cached)", m[1], m[1] / m[0]);
    if (hand) {
        printf("%-30s %10.3f %14.3f\n", "hand-written rd loop", m[2], m[2] / m[0]);
        printf("vine overhead over the hand-written loop: %+.3f us per call\n", m[1] - m[2]);
    } else {
        printf("(hand-written loop skipped: it needs a power-of-two number of ranks)\n");
    }
    printf("%-30s %10.3f %14.3f\n", "vine_allreduce (mpi)", m[3], m[3] / m[0]);
    printf("vine overhead over MPI_Allreduce when mpi serves: %+.3f us per call\n", m[3] - m[0]);
    int nrules = 0;
    double ns = lookup_ns(&nrules);
    if (ns >= 0)
        printf("tuning lookup (auto's choice, %d rules of 24 ranges): %.1f ns per choice\n", nrules,
               ns);
}

int vine__bench_overhead(int argc, char **argv)
{
    int p, rank, batches = 50, iters = 2000;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 2; i < argc; i++) {
        int *dst = strcmp(argv[i], "--batches") == 0 ? &batches
                   : strcmp(argv[i], "--iters") == 0 ? &iters
                                                     : NULL;
        if (!dst || i + 1 >= argc || parse_count(argv[++i], dst)) {
            if (rank == 0)
                fprintf(stderr, "usage: vine-bench overhead [--batches N] [--iters N]\n");
            return 2;
        }
    }
    int hand = (p & (p - 1)) == 0;
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    double *t[VARIANTS];
    for (int k = 0; k < VARIANTS; k++)
        t[k] = calloc((size_t)batches, sizeof(double));
    for (int b = -5; b < batches; b++)
        for (int k = 0; k < VARIANTS; k++) {
            if (k == 2 && !hand)
                continue;
            double v = batch(k, iters, dup, p, rank);
            if (b >= 0)
                t[k][b] = v;
        }
    if (rank == 0)
        print_result(t, batches, iters, p, hand);
    for (int k = 0; k < VARIANTS; k++)
        free(t[k]);
    vine_set_algorithm(VINE_COLL_ALLREDUCE, "auto");
    MPI_Comm_free(&dup);
    if (rank == 0)
        fflush(stdout);
    return coll_overhead(batches, iters, p, rank) ? 1 : 0;
}
