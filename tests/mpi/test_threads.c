/*
 * Concurrent collectives from several threads (issue 22, docs/api.md
 * "Threads"): under MPI_THREAD_MULTIPLE, VINE_TEST_THREADS threads per rank
 * (default 8), each on its own duplicate of MPI_COMM_WORLD, loop over every
 * collective with changing sizes, roots and ops, and compare each result
 * with the MPI library's own collective (PMPI_) on the same communicator.
 * The sizes make auto choose different algorithms, so schedules are built
 * and cached on all the communicators at once; one thread also sets every
 * collective's algorithm to "auto" now and then (vine_set_algorithm races
 * the calls, and every repeat-call memo goes stale) and reads the
 * introspection functions.  A few nonblocking calls test the requests.
 *
 * Built twice: calling vine_<coll> (mpitest_threads), and calling MPI_<Coll>
 * with nothing of vine (TEST_THREADS_MPI, mpitest_threads_mpi), run with
 * libvine-mpi.so preloaded: then the program checks that vine is loaded.
 *
 * Exit status 77 (a skip) only when the MPI library does not provide
 * MPI_THREAD_MULTIPLE.
 */
#include <mpi.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef TEST_THREADS_MPI
#include <dlfcn.h>
/* T(Bcast, bcast): the tested function, MPI's name or vine's. */
#define T(mpi, vine) MPI_##mpi
#else
#include <vine.h>
#define T(mpi, vine) vine_##vine
#endif

#define MAX_THREADS 16
#define NSIZES 6
/* Element counts per rank: small ones take the latency algorithms, large ones the bandwidth ones.
 */
static const int sizes[NSIZES] = {1, 3, 64, 1000, 5000, 40000};

static int rank_, size_, nthreads, iters;
static MPI_Comm comms[MAX_THREADS];

typedef struct worker {
    int id;
    long checks, failures;
    char first[256]; /* the first failure */
} worker;

static void fail(worker *w, const char *coll, int i, int count, int root, const char *what)
{
    if (!w->failures++)
        snprintf(w->first, sizeof w->first, "thread %d iter %d %s count %d root %d: %s", w->id, i,
                 coll, count, root, what);
}

static void fill(int *b, size_t n, int seed)
{
    for (size_t i = 0; i < n; i++)
        b[i] = (int)((seed * 131 + (int)i * 7 + rank_ * 1009) % 1000) - 500;
}

/* Compares n ints; rc is the tested call's return code. */
static void check(worker *w, int rc, const int *got, const int *want, size_t n, const char *coll,
                  int i, int count, int root)
{
    w->checks++;
    if (rc != MPI_SUCCESS) {
        char msg[64];
        snprintf(msg, sizeof msg, "returned %d", rc);
        fail(w, coll, i, count, root, msg);
    } else if (n && memcmp(got, want, n * sizeof *got) != 0) {
        fail(w, coll, i, count, root, "result differs from the MPI library's");
    }
}

static void *run(void *arg)
{
    worker *w = arg;
    MPI_Comm comm = comms[w->id];
    int p = size_, me = rank_;
    size_t maxn = 2 * (size_t)sizes[NSIZES - 1] * (size_t)p; /* reduce_scatter: 2n a rank */
    int *sb = malloc(maxn * sizeof *sb), *a = malloc(maxn * sizeof *a);
    int *b = malloc(maxn * sizeof *b);
    int *counts = malloc((size_t)p * sizeof *counts), *displs = malloc((size_t)p * sizeof *displs);
    if (!sb || !a || !b || !counts || !displs) {
        fail(w, "-", 0, 0, 0, "out of memory");
        goto out;
    }
    for (int i = 0; i < iters; i++) {
        int n = sizes[(i + w->id) % NSIZES], root = (i + w->id) % p;
        size_t np = (size_t)n * (size_t)p;
        MPI_Op op = (i + w->id) % 3 ? MPI_SUM : MPI_MAX;
        int seed = i * 31 + w->id;
        int rc;

        /* bcast */
        fill(a, (size_t)n, seed);
        memcpy(b, a, (size_t)n * sizeof *a);
        rc = T(Bcast, bcast)(a, n, MPI_INT, root, comm);
        PMPI_Bcast(b, n, MPI_INT, root, comm);
        check(w, rc, a, b, (size_t)n, "bcast", i, n, root);

        /* reduce */
        fill(sb, (size_t)n, seed + 1);
        rc = T(Reduce, reduce)(sb, a, n, MPI_INT, op, root, comm);
        PMPI_Reduce(sb, b, n, MPI_INT, op, root, comm);
        check(w, rc, a, b, me == root ? (size_t)n : 0, "reduce", i, n, root);

        /* allreduce, in place every other time */
        fill(sb, (size_t)n, seed + 2);
        if (i % 2) {
            memcpy(a, sb, (size_t)n * sizeof *a);
            rc = T(Allreduce, allreduce)(MPI_IN_PLACE, a, n, MPI_INT, op, comm);
        } else {
            rc = T(Allreduce, allreduce)(sb, a, n, MPI_INT, op, comm);
        }
        PMPI_Allreduce(sb, b, n, MPI_INT, op, comm);
        check(w, rc, a, b, (size_t)n, "allreduce", i, n, -1);

        /* allgather */
        fill(sb, (size_t)n, seed + 3);
        rc = T(Allgather, allgather)(sb, n, MPI_INT, a, n, MPI_INT, comm);
        PMPI_Allgather(sb, n, MPI_INT, b, n, MPI_INT, comm);
        check(w, rc, a, b, np, "allgather", i, n, -1);

        /* reduce_scatter_block */
        fill(sb, np, seed + 4);
        rc = T(Reduce_scatter_block, reduce_scatter_block)(sb, a, n, MPI_INT, op, comm);
        PMPI_Reduce_scatter_block(sb, b, n, MPI_INT, op, comm);
        check(w, rc, a, b, (size_t)n, "reduce_scatter_block", i, n, -1);

        /* reduce_scatter with uneven counts (one rank may get none) */
        size_t total = 0;
        for (int r = 0; r < p; r++) {
            counts[r] = (n + r * (i + 1)) % (2 * n + 1);
            total += (size_t)counts[r];
        }
        fill(sb, total, seed + 5);
        rc = T(Reduce_scatter, reduce_scatter)(sb, a, counts, MPI_INT, op, comm);
        PMPI_Reduce_scatter(sb, b, counts, MPI_INT, op, comm);
        check(w, rc, a, b, (size_t)counts[me], "reduce_scatter", i, n, -1);

        /* alltoall */
        int m = n > 5000 ? n / p : n;
        fill(sb, (size_t)m * (size_t)p, seed + 6);
        rc = T(Alltoall, alltoall)(sb, m, MPI_INT, a, m, MPI_INT, comm);
        PMPI_Alltoall(sb, m, MPI_INT, b, m, MPI_INT, comm);
        check(w, rc, a, b, (size_t)m * (size_t)p, "alltoall", i, m, -1);

        /* gather */
        fill(sb, (size_t)n, seed + 7);
        rc = T(Gather, gather)(sb, n, MPI_INT, a, n, MPI_INT, root, comm);
        PMPI_Gather(sb, n, MPI_INT, b, n, MPI_INT, root, comm);
        check(w, rc, a, b, me == root ? np : 0, "gather", i, n, root);

        /* scatter */
        fill(sb, np, seed + 8);
        rc = T(Scatter, scatter)(sb, n, MPI_INT, a, n, MPI_INT, root, comm);
        PMPI_Scatter(sb, n, MPI_INT, b, n, MPI_INT, root, comm);
        check(w, rc, a, b, (size_t)n, "scatter", i, n, root);

        /* barrier */
        rc = T(Barrier, barrier)(comm);
        check(w, rc, NULL, NULL, 0, "barrier", i, 0, -1);

        /* the v collectives, with the counts above */
        displs[0] = 0;
        for (int r = 1; r < p; r++)
            displs[r] = displs[r - 1] + counts[r - 1];
        fill(sb, (size_t)counts[me], seed + 9);
        rc = T(Allgatherv, allgatherv)(sb, counts[me], MPI_INT, a, counts, displs, MPI_INT, comm);
        PMPI_Allgatherv(sb, counts[me], MPI_INT, b, counts, displs, MPI_INT, comm);
        check(w, rc, a, b, total, "allgatherv", i, n, -1);

        rc = T(Gatherv, gatherv)(sb, counts[me], MPI_INT, a, counts, displs, MPI_INT, root, comm);
        PMPI_Gatherv(sb, counts[me], MPI_INT, b, counts, displs, MPI_INT, root, comm);
        check(w, rc, a, b, me == root ? total : 0, "gatherv", i, n, root);

        fill(sb, total, seed + 10);
        rc = T(Scatterv, scatterv)(sb, counts, displs, MPI_INT, a, counts[me], MPI_INT, root, comm);
        PMPI_Scatterv(sb, counts, displs, MPI_INT, b, counts[me], MPI_INT, root, comm);
        check(w, rc, a, b, (size_t)counts[me], "scatterv", i, n, root);

        fill(sb, (size_t)n, seed + 11);
        rc = T(Scan, scan)(sb, a, n, MPI_INT, op, comm);
        PMPI_Scan(sb, b, n, MPI_INT, op, comm);
        check(w, rc, a, b, (size_t)n, "scan", i, n, -1);

        /* nonblocking: the requests of every thread share vine's request table */
        MPI_Request req;
        fill(sb, (size_t)n, seed + 12);
        rc = T(Iallreduce, iallreduce)(sb, a, n, MPI_INT, op, comm, &req);
        if (rc == MPI_SUCCESS)
            rc = T(Wait, wait)(&req, MPI_STATUS_IGNORE);
        PMPI_Allreduce(sb, b, n, MPI_INT, op, comm);
        check(w, rc, a, b, (size_t)n, "iallreduce", i, n, -1);

        fill(a, (size_t)n, seed + 13);
        memcpy(b, a, (size_t)n * sizeof *a);
        rc = T(Ibcast, ibcast)(a, n, MPI_INT, root, comm, &req);
        if (rc == MPI_SUCCESS)
            rc = T(Wait, wait)(&req, MPI_STATUS_IGNORE);
        PMPI_Bcast(b, n, MPI_INT, root, comm);
        check(w, rc, a, b, (size_t)n, "ibcast", i, n, root);

#ifndef TEST_THREADS_MPI
        /* Every rank's thread 0 sets auto for all collectives at the same
         * iterations: the same choice everywhere, racing the other threads'
         * calls, which see the old setting or the new one. */
        if (w->id == 0 && i % 4 == 3)
            for (int c = 0; c < VINE_COLL_COUNT; c++)
                if (vine_set_algorithm((vine_coll)c, "auto") != MPI_SUCCESS)
                    fail(w, "set_algorithm", i, 0, -1, "refused auto");
        if (strcmp(vine_get_algorithm(VINE_COLL_ALLREDUCE), "auto") != 0 ||
            strcmp(vine_last_algorithm(VINE_COLL_ALLREDUCE), "none") == 0)
            fail(w, "get/last_algorithm", i, 0, -1, "unexpected answer");
#endif
    }
out:
    free(sb);
    free(a);
    free(b);
    free(counts);
    free(displs);
    return NULL;
}

static int env_int(const char *name, int def, int lo, int hi)
{
    const char *v = getenv(name);
    int n = v && *v ? atoi(v) : def;
    return n < lo ? lo : n > hi ? hi : n;
}

int main(int argc, char **argv)
{
    int provided = MPI_THREAD_SINGLE;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    if (provided < MPI_THREAD_MULTIPLE) {
        if (rank_ == 0)
            printf("SKIP: threads: the MPI library provides thread level %d, not "
                   "MPI_THREAD_MULTIPLE (%d)\n",
                   provided, MPI_THREAD_MULTIPLE);
        MPI_Finalize();
        return 77;
    }
#ifdef TEST_THREADS_MPI
    /* The program knows nothing of vine: libvine-mpi.so must be preloaded. */
    if (!dlsym(RTLD_DEFAULT, "vine_last_algorithm")) {
        if (rank_ == 0)
            printf("FAIL: threads: vine is not loaded (LD_PRELOAD=libvine-mpi.so)\n");
        MPI_Finalize();
        return 1;
    }
#endif
    nthreads = env_int("VINE_TEST_THREADS", 8, 1, MAX_THREADS);
    iters = env_int("VINE_TEST_THREADS_ITERS", 24, 1, 1000000);
    for (int t = 0; t < nthreads; t++)
        MPI_Comm_dup(MPI_COMM_WORLD, &comms[t]);

    worker w[MAX_THREADS];
    pthread_t th[MAX_THREADS];
    double t0 = MPI_Wtime();
    for (int t = 0; t < nthreads; t++) {
        memset(&w[t], 0, sizeof w[t]);
        w[t].id = t;
        if (pthread_create(&th[t], NULL, run, &w[t]) != 0) {
            fprintf(stderr, "threads: rank %d cannot start thread %d\n", rank_, t);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    long checks = 0, failures = 0;
    for (int t = 0; t < nthreads; t++) {
        pthread_join(th[t], NULL);
        checks += w[t].checks;
        failures += w[t].failures;
        if (w[t].failures)
            fprintf(stderr, "FAIL: threads: rank %d %s (%ld failures in the thread)\n", rank_,
                    w[t].first, w[t].failures);
    }
    double secs = MPI_Wtime() - t0;
    for (int t = 0; t < nthreads; t++)
        MPI_Comm_free(&comms[t]);
    long all[2] = {0, 0}, mine[2] = {checks, failures};
    MPI_Allreduce(mine, all, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (rank_ == 0)
        printf("%s: threads: %d ranks x %d threads x %d iterations, %ld checks, %ld failures "
               "(%.3f s, %.0f checks/s)\n",
               all[1] ? "FAIL" : "PASS", size_, nthreads, iters, all[0], all[1], secs,
               secs > 0 ? all[0] / secs : 0.0);
    MPI_Finalize();
    return all[1] ? 1 : 0;
}
