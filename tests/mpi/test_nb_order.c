/*
 * MPI tier: collectives of different communicators in different orders on
 * different ranks, which MPI allows for nonblocking calls, and MPI's
 * progress rule across communicators (docs/api.md, "Order" and "Progress").
 *
 * - First calls: two fresh duplicates A and B of MPI_COMM_WORLD, each
 *   collective of the seventeen started nonblocking on A then B on even
 *   ranks and on B then A on odd ranks, completed by one vine_waitall.
 *   vine used to make a communicator's state (a collective set-up) inside
 *   such a first call, so that each half of the ranks waited in the set-up
 *   of a different communicator: the program hung.  Such a call now goes to
 *   the MPI library (vine_last_algorithm says "mpi"), and the state comes
 *   with the communicator's first blocking call, after which a forced
 *   algorithm serves the nonblocking calls again.
 * - Blocking calls while a peer waits: rank 0 starts a nonblocking allreduce
 *   on B (ring, many rounds; then shm), makes a blocking collective on A and
 *   then completes the allreduce; the other ranks complete the allreduce
 *   first and then make the blocking call.  The allreduce needs rank 0's
 *   later rounds, so the blocking call must advance it (it used to wait
 *   for its own messages only, and the run hung); every algorithm but mpi
 *   of the ten collectives, at 1000 elements.
 *
 * - Counts beyond INT_MAX in a first nonblocking call (big_tables).
 *
 * vine_requests_outstanding() must count at most the requests started and
 * be 0 once they have completed.  Results are compared with the MPI
 * library's blocking collectives, and
 * every wait is polled with a deadline, so that a hang fails with a message.
 */
#include "mpitest.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { DEADLINE_S = 60, N_FIRST = 5, N_BLOCK = 1000 };

static int *counts, *displs, *bdispls;
static MPI_Datatype *types;

/* The length of coll's result on this rank for n elements a block. */
static size_t result_len(vine_coll coll, int n)
{
    size_t p = (size_t)mt_size;
    switch (coll) {
    case VINE_COLL_REDUCE:
        return mt_rank == 0 ? (size_t)n : 0;
    case VINE_COLL_ALLGATHER:
    case VINE_COLL_ALLTOALL:
    case VINE_COLL_ALLGATHERV:
    case VINE_COLL_ALLTOALLV:
    case VINE_COLL_ALLTOALLW:
        return (size_t)n * p;
    case VINE_COLL_GATHER:
    case VINE_COLL_GATHERV:
        return mt_rank == mt_size - 1 ? (size_t)n * p : 0;
    case VINE_COLL_BARRIER:
        return 0;
    case VINE_COLL_EXSCAN:
        return mt_rank == 0 ? 0 : (size_t)n; /* MPI leaves rank 0's undefined */
    default:
        return (size_t)n;
    }
}

/*
 * coll on comm with MPI_INT and MPI_SUM, n elements a block (roots: p - 1
 * for bcast, gather and gatherv, 0 for reduce, scatter and scatterv): the
 * MPI library's blocking call when q is NULL, else vine's nonblocking one.
 */
static int call(vine_coll coll, MPI_Comm w, int n, const int *in, int *out, MPI_Request *q)
{
    int p = mt_size, last = p - 1;
    for (int i = 0; i < p; i++) {
        counts[i] = n;
        displs[i] = i * n;
        bdispls[i] = i * n * (int)sizeof(int);
        types[i] = MPI_INT;
    }
    switch (coll) {
    case VINE_COLL_BCAST:
        if (mt_rank == last)
            memcpy(out, in, (size_t)n * sizeof *in);
        return q ? vine_ibcast(out, n, MPI_INT, last, w, q) : MPI_Bcast(out, n, MPI_INT, last, w);
    case VINE_COLL_REDUCE:
        return q ? vine_ireduce(in, out, n, MPI_INT, MPI_SUM, 0, w, q)
                 : MPI_Reduce(in, out, n, MPI_INT, MPI_SUM, 0, w);
    case VINE_COLL_ALLREDUCE:
        return q ? vine_iallreduce(in, out, n, MPI_INT, MPI_SUM, w, q)
                 : MPI_Allreduce(in, out, n, MPI_INT, MPI_SUM, w);
    case VINE_COLL_ALLGATHER:
        return q ? vine_iallgather(in, n, MPI_INT, out, n, MPI_INT, w, q)
                 : MPI_Allgather(in, n, MPI_INT, out, n, MPI_INT, w);
    case VINE_COLL_REDUCE_SCATTER:
        return q ? vine_ireduce_scatter(in, out, counts, MPI_INT, MPI_SUM, w, q)
                 : MPI_Reduce_scatter(in, out, counts, MPI_INT, MPI_SUM, w);
    case VINE_COLL_REDUCE_SCATTER_BLOCK:
        return q ? vine_ireduce_scatter_block(in, out, n, MPI_INT, MPI_SUM, w, q)
                 : MPI_Reduce_scatter_block(in, out, n, MPI_INT, MPI_SUM, w);
    case VINE_COLL_ALLTOALL:
        return q ? vine_ialltoall(in, n, MPI_INT, out, n, MPI_INT, w, q)
                 : MPI_Alltoall(in, n, MPI_INT, out, n, MPI_INT, w);
    case VINE_COLL_GATHER:
        return q ? vine_igather(in, n, MPI_INT, out, n, MPI_INT, last, w, q)
                 : MPI_Gather(in, n, MPI_INT, out, n, MPI_INT, last, w);
    case VINE_COLL_SCATTER:
        return q ? vine_iscatter(in, n, MPI_INT, out, n, MPI_INT, 0, w, q)
                 : MPI_Scatter(in, n, MPI_INT, out, n, MPI_INT, 0, w);
    case VINE_COLL_BARRIER:
        return q ? vine_ibarrier(w, q) : MPI_Barrier(w);
    case VINE_COLL_ALLGATHERV:
        return q ? vine_iallgatherv(in, n, MPI_INT, out, counts, displs, MPI_INT, w, q)
                 : MPI_Allgatherv(in, n, MPI_INT, out, counts, displs, MPI_INT, w);
    case VINE_COLL_ALLTOALLV:
        return q ? vine_ialltoallv(in, counts, displs, MPI_INT, out, counts, displs, MPI_INT, w, q)
                 : MPI_Alltoallv(in, counts, displs, MPI_INT, out, counts, displs, MPI_INT, w);
    case VINE_COLL_ALLTOALLW:
        return q ? vine_ialltoallw(in, counts, bdispls, types, out, counts, bdispls, types, w, q)
                 : MPI_Alltoallw(in, counts, bdispls, types, out, counts, bdispls, types, w);
    case VINE_COLL_GATHERV:
        return q ? vine_igatherv(in, n, MPI_INT, out, counts, displs, MPI_INT, last, w, q)
                 : MPI_Gatherv(in, n, MPI_INT, out, counts, displs, MPI_INT, last, w);
    case VINE_COLL_SCATTERV:
        return q ? vine_iscatterv(in, counts, displs, MPI_INT, out, n, MPI_INT, 0, w, q)
                 : MPI_Scatterv(in, counts, displs, MPI_INT, out, n, MPI_INT, 0, w);
    case VINE_COLL_SCAN:
        return q ? vine_iscan(in, out, n, MPI_INT, MPI_SUM, w, q)
                 : MPI_Scan(in, out, n, MPI_INT, MPI_SUM, w);
    case VINE_COLL_EXSCAN:
        return q ? vine_iexscan(in, out, n, MPI_INT, MPI_SUM, w, q)
                 : MPI_Exscan(in, out, n, MPI_INT, MPI_SUM, w);
    default:
        return MPI_ERR_ARG;
    }
}

static int *ints(size_t n, int seed)
{
    int *v = mt_xmalloc(n * sizeof *v);
    for (size_t i = 0; i < n; i++)
        v[i] = seed * 131 + (int)(i % 977) - 400;
    return v;
}

/* Polls *q with vine_test until it completes, failing the run after DEADLINE_S. */
static void wait_polled(MPI_Request *q, const char *what)
{
    int flag = 0;
    double t0 = MPI_Wtime();
    while (!flag) {
        mt_check_rc(vine_test(q, &flag, MPI_STATUS_IGNORE), what);
        mt_deadline(t0, DEADLINE_S, what);
    }
}

/* The same with vine_testall over count requests. */
static void waitall_polled(int count, MPI_Request *q, const char *what)
{
    int flag = 0;
    double t0 = MPI_Wtime();
    while (!flag) {
        mt_check_rc(vine_testall(count, q, &flag, MPI_STATUSES_IGNORE), what);
        mt_deadline(t0, DEADLINE_S, what);
    }
}

/* First calls on two fresh communicators, in opposite orders on the two halves of the ranks. */
static void first_calls(vine_coll coll)
{
    const char *name = vine_coll_name(coll);
    mt_case c = {name, "auto", "int", "sum", N_FIRST, -1, 0};
    mt_begin(&c);
    size_t big = (size_t)N_FIRST * (size_t)mt_size;
    int *in = ints(big, mt_rank), *want = ints(big, -1), *ra = ints(big, -2), *rb = ints(big, -3);
    mt_check_rc(call(coll, MPI_COMM_WORLD, N_FIRST, in, want, NULL), "the MPI library's call");
    MPI_Comm a, b;
    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    MPI_Comm_dup(MPI_COMM_WORLD, &b);
    MPI_Request q[2];
    int odd = mt_rank % 2;
    for (int k = 0; k < 2; k++) {
        int on_a = (k == 0) != odd;
        mt_check_rc(call(coll, on_a ? a : b, N_FIRST, in, on_a ? ra : rb, &q[on_a ? 0 : 1]),
                    "the first nonblocking call");
        /* (A barrier of one rank has nothing to do.) */
        if (strcmp(vine_last_algorithm(coll), "mpi") != 0 &&
            !(coll == VINE_COLL_BARRIER && mt_size == 1))
            mt_fail("a first nonblocking call was served by %s, not mpi",
                    vine_last_algorithm(coll));
    }
    if (vine_requests_outstanding() > 2)
        mt_fail("vine_requests_outstanding() is %d with two requests started",
                vine_requests_outstanding());
    waitall_polled(2, q, "first calls in different orders");
    size_t len = result_len(coll, N_FIRST);
    mt_check_equal(mt_type_int(), ra, want, len, "first call on A");
    mt_check_equal(mt_type_int(), rb, want, len, "first call on B");
    /* A blocking call makes the state; the forced algorithm then serves. */
    int one = 1, sum = 0;
    mt_check_rc(vine_allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, a), "vine_allreduce");
    const char *algo = coll == VINE_COLL_BARRIER ? "dissemination" : "linear";
    if (coll == VINE_COLL_ALLREDUCE || coll == VINE_COLL_SCAN || coll == VINE_COLL_EXSCAN)
        algo = "recursive_doubling";
    else if (coll == VINE_COLL_REDUCE_SCATTER || coll == VINE_COLL_REDUCE_SCATTER_BLOCK ||
             coll == VINE_COLL_ALLGATHER || coll == VINE_COLL_ALLGATHERV)
        algo = "ring";
    else if (coll == VINE_COLL_ALLTOALL || coll == VINE_COLL_ALLTOALLV ||
             coll == VINE_COLL_ALLTOALLW)
        algo = "pairwise";
    else if (coll == VINE_COLL_BCAST || coll == VINE_COLL_REDUCE)
        algo = "binomial";
    mt_select(coll, algo);
    c.algo = algo;
    mt_begin(&c);
    memset(ra, 0xff, big * sizeof *ra);
    mt_check_rc(call(coll, a, N_FIRST, in, ra, &q[0]), "a nonblocking call after the state");
    mt_check_served(coll, algo, 1, coll == VINE_COLL_BARRIER ? (size_t)(mt_size > 1) : N_FIRST);
    wait_polled(&q[0], "a nonblocking call after the state");
    mt_check_equal(mt_type_int(), ra, want, len, "call on A after its state");
    mt_select(coll, "auto");
    MPI_Comm_free(&a);
    MPI_Comm_free(&b);
    free(in);
    free(want);
    free(ra);
    free(rb);
}

/*
 * Rank 0 makes a blocking coll (algorithm algo) on a while the others wait
 * for an allreduce on b (algorithm nb_algo) that rank 0 started before.
 */
static void blocking_among(vine_coll coll, const char *algo, const char *nb_algo, MPI_Comm a,
                           MPI_Comm b)
{
    mt_case c = {vine_coll_name(coll), algo, "int", "sum", N_BLOCK, -1, 0};
    mt_begin(&c);
    size_t big = (size_t)N_BLOCK * (size_t)mt_size;
    int *in = ints(big, mt_rank + 5), *want = ints(big, -1), *got = ints(big, -2);
    int *x = ints(N_BLOCK, mt_rank), *y = ints(N_BLOCK, -4), *ywant = ints(N_BLOCK, -5);
    int rc = MPI_SUCCESS, len = 0;
    mt_call_int(coll, 0, MPI_COMM_WORLD, N_BLOCK, in, want, &rc);
    mt_check_rc(rc, "the MPI library's call");
    MPI_Allreduce(x, ywant, N_BLOCK, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Request q;
    mt_select(VINE_COLL_ALLREDUCE, nb_algo);
    mt_check_rc(vine_iallreduce(x, y, N_BLOCK, MPI_INT, MPI_SUM, b, &q), "vine_iallreduce");
    mt_select(coll, algo);
    if (mt_rank == 0) {
        len = mt_call_int(coll, 1, a, N_BLOCK, in, got, &rc);
        mt_check_rc(rc, "the blocking call");
        mt_check_served(coll, algo, 1, coll == VINE_COLL_BARRIER ? (size_t)(mt_size > 1) : N_BLOCK);
        wait_polled(&q, "the allreduce on B");
    } else {
        wait_polled(&q, "the allreduce on B, rank 0 in a blocking call on A");
        len = mt_call_int(coll, 1, a, N_BLOCK, in, got, &rc);
        mt_check_rc(rc, "the blocking call");
    }
    /* Every request has finished here, so none can need this rank any more. */
    if (vine_requests_outstanding() != 0)
        mt_fail("vine_requests_outstanding() is %d after every request completed",
                vine_requests_outstanding());
    mt_check_equal(mt_type_int(), got, want, (size_t)len, "the blocking call on A");
    mt_check_equal(mt_type_int(), y, ywant, N_BLOCK, "the allreduce on B");
    mt_select(coll, "auto");
    mt_select(VINE_COLL_ALLREDUCE, "auto");
    free(in);
    free(want);
    free(got);
    free(x);
    free(y);
    free(ywant);
}

/*
 * Counts the MPI library's int interface cannot take: a nonblocking
 * alltoallv_c on a fresh communicator with a displacement past INT_MAX (and
 * nothing to move) cannot go to the MPI library, and setting the
 * communicator up on the ranks with such tables only would hang: it fails
 * with MPI_ERR_COUNT.  After a blocking call the same call runs.  (A
 * reduction of more than INT_MAX elements sets the communicator up instead,
 * every rank alike; at 2 GiB a buffer that is not tested here.)
 */
static void big_tables(void)
{
    mt_case c = {"alltoallv_c", "auto", "char", "-", 0, -1, 0};
    mt_begin(&c);
    MPI_Count *n = mt_xmalloc((size_t)mt_size * sizeof *n);
    MPI_Aint *d = mt_xmalloc((size_t)mt_size * sizeof *d);
    for (int i = 0; i < mt_size; i++) {
        n[i] = 0;
        d[i] = (MPI_Aint)INT_MAX + 10;
    }
    char x = 0;
    MPI_Comm a;
    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    MPI_Request q = MPI_REQUEST_NULL;
    int rc = vine_ialltoallv_c(&x, n, d, MPI_CHAR, &x, n, d, MPI_CHAR, a, &q);
    if (rc != MPI_ERR_COUNT || q != MPI_REQUEST_NULL)
        mt_fail("a first nonblocking alltoallv_c with a displacement past INT_MAX returned %d", rc);
    int one = 1, sum = 0;
    mt_check_rc(vine_allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, a), "vine_allreduce");
    mt_check_rc(vine_ialltoallv_c(&x, n, d, MPI_CHAR, &x, n, d, MPI_CHAR, a, &q),
                "vine_ialltoallv_c after the state");
    wait_polled(&q, "vine_ialltoallv_c after the state");
    MPI_Comm_free(&a);
    free(n);
    free(d);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "nb_order");
    counts = mt_xmalloc((size_t)mt_size * sizeof *counts);
    displs = mt_xmalloc((size_t)mt_size * sizeof *displs);
    bdispls = mt_xmalloc((size_t)mt_size * sizeof *bdispls);
    types = mt_xmalloc((size_t)mt_size * sizeof *types);
    for (int coll = 0; coll < VINE_COLL_COUNT; coll++)
        first_calls((vine_coll)coll);
    big_tables();

    MPI_Comm a, b;
    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    MPI_Comm_dup(MPI_COMM_WORLD, &b);
    mt_check_rc(vine_barrier(a), "vine_barrier");
    mt_check_rc(vine_barrier(b), "vine_barrier");
    const char *nb_algos[] = {"ring", "shm"};
    for (int k = 0; k < 2; k++)
        for (int coll = 0; coll <= VINE_COLL_BARRIER; coll++)
            for (int i = 0; i < mt_nalgos((vine_coll)coll); i++) {
                const char *algo = mt_algo_at((vine_coll)coll, i);
                /* The MPI library's blocking collective cannot advance vine's requests
                 * (docs/api.md, "Progress"). */
                if (strcmp(algo, "mpi") != 0)
                    blocking_among((vine_coll)coll, algo, nb_algos[k], a, b);
            }
    MPI_Comm_free(&a);
    MPI_Comm_free(&b);
    free(counts);
    free(displs);
    free(bdispls);
    free(types);
    return mt_finish();
}
