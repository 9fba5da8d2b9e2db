/*
 * MPI tier: the request rules of nonblocking and persistent collectives
 * (issue 19).
 *
 * - Errors: starting an active persistent request, or a nonblocking one,
 *   and freeing an active request return MPI_ERR_REQUEST and leave the
 *   request to complete normally; a bad root, MPI_COMM_NULL and a negative
 *   count make every nonblocking and persistent call (the _c ones too)
 *   return MPI_ERR_ROOT, MPI_ERR_COMM, MPI_ERR_COUNT and set the request to
 *   MPI_REQUEST_NULL, without sending anything (the calls that follow must
 *   still match); vine_wait and vine_test on MPI_REQUEST_NULL and on an
 *   inactive persistent request return at once with an empty status;
 *   vine_request_get_status polls without completing; vine_startall with
 *   an active request in the array starts none; a nonblocking collective
 *   completes on a communicator freed meanwhile, and a persistent one
 *   starts again after it (auto, ring, and the MPI library's own).
 * - Mixed arrays: vine's requests (nonblocking, started persistent,
 *   inactive persistent) with MPI_Isend/MPI_Irecv requests and
 *   MPI_REQUEST_NULL, completed by vine_waitall, vine_testall,
 *   vine_waitsome, vine_testsome, vine_waitany and vine_testany: the
 *   statuses of the receives must give their source, tag and count, those
 *   of the collectives and of the null request must be empty.
 * - Start order: MPI-4 lets the ranks start persistent collectives in
 *   different orders (MPICH's test suite, coll/p_order.c): a bcast, an
 *   allreduce and a barrier, started in that order on even ranks and as
 *   allreduce, barrier, bcast on odd ones, at sizes that auto serves from
 *   shared memory in blocking calls, must still give the right results.
 * - Tag cycle: a persistent allreduce and the nonblocking allreduce made
 *   16,000 requests after it (where the nonblocking tags come round again)
 *   active at once, started in different orders on even and odd ranks.
 * - Freed ops: a user-defined op freed with vine_op_free while nonblocking
 *   allreduces that use it are pending, or after a persistent one was made
 *   with it, still serves them (the request keeps it); an op no request
 *   holds is freed at once.
 */
#include "mpitest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 64, DEADLINE_S = 60 };

static char label[128];
static int ibuf[N * 64], obuf[N * 64], rcounts[64];
static MPI_Count rcounts_c[64];
/* A request that is not MPI_REQUEST_NULL, which a failing call must overwrite. */
static MPI_Request sentinel;

static void begin(const char *what)
{
    mt_case c = {what, "auto", "int", "-", 0, -1, 0};
    mt_begin(&c);
}

static int error_class(int rc)
{
    int cls = rc;
    if (rc != MPI_SUCCESS && MPI_Error_class(rc, &cls) != MPI_SUCCESS)
        cls = -1;
    return cls;
}

/* A checked allreduce on MPI_COMM_WORLD: nothing a failed call did may disturb it. */
static void allreduce_still_works(const char *after)
{
    int in[3] = {mt_rank, 1, -mt_rank}, out[3] = {0};
    snprintf(label, sizeof label, "allreduce after %s", after);
    begin(label);
    if (mt_check_rc(vine_allreduce(in, out, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD), "vine_allreduce"))
        if (out[0] != mt_size * (mt_size - 1) / 2 || out[1] != mt_size || out[2] != -out[0])
            mt_fail("wrong result %d %d %d", out[0], out[1], out[2]);
}

/*
 * One bad call: form is "i" or "init", the error must be want and the
 * request must come back MPI_REQUEST_NULL.
 */
static void expect_bad(const char *call, const char *what, int rc, MPI_Request *q, int want)
{
    snprintf(label, sizeof label, "%s: %s", call, what);
    begin(label);
    if (error_class(rc) != want)
        mt_fail("returned %d (class %d: %s), expected class %d", rc, error_class(rc),
                vine_error_string(rc), want);
    if (*q != MPI_REQUEST_NULL) {
        mt_fail("the request was not set to MPI_REQUEST_NULL");
        if (*q != sentinel && vine_is_request(*q))
            vine_wait(q, MPI_STATUS_IGNORE);
    }
    *q = sentinel;
}

#define BAD(call, what, want)                                                                      \
    do {                                                                                           \
        q = sentinel;                                                                              \
        expect_bad(#call, what, call, &q, want);                                                   \
    } while (0)

/* Bad roots, MPI_COMM_NULL and negative counts, in every nonblocking and persistent form. */
static void bad_arguments(void)
{
    MPI_Comm w = MPI_COMM_WORLD, nc = MPI_COMM_NULL;
    MPI_Info in = MPI_INFO_NULL;
    MPI_Datatype t = MPI_INT;
    MPI_Op s = MPI_SUM;
    MPI_Request q;
    int *a = ibuf, *b = obuf, p = mt_size;
    for (int i = 0; i < p; i++)
        rcounts[i] = 1, rcounts_c[i] = 1;
    for (int k = 0; k < 2; k++) {
        int root = k ? p : -1;
        const char *what = k ? "root p" : "root -1";
        BAD(vine_ibcast(a, 4, t, root, w, &q), what, MPI_ERR_ROOT);
        BAD(vine_bcast_init(a, 4, t, root, w, in, &q), what, MPI_ERR_ROOT);
        BAD(vine_ibcast_c(a, 4, t, root, w, &q), what, MPI_ERR_ROOT);
        BAD(vine_bcast_init_c(a, 4, t, root, w, in, &q), what, MPI_ERR_ROOT);
        BAD(vine_ireduce(a, b, 4, t, s, root, w, &q), what, MPI_ERR_ROOT);
        BAD(vine_reduce_init(a, b, 4, t, s, root, w, in, &q), what, MPI_ERR_ROOT);
        BAD(vine_ireduce_c(a, b, 4, t, s, root, w, &q), what, MPI_ERR_ROOT);
        BAD(vine_reduce_init_c(a, b, 4, t, s, root, w, in, &q), what, MPI_ERR_ROOT);
        BAD(vine_igather(a, 4, t, b, 4, t, root, w, &q), what, MPI_ERR_ROOT);
        BAD(vine_gather_init(a, 4, t, b, 4, t, root, w, in, &q), what, MPI_ERR_ROOT);
        BAD(vine_igather_c(a, 4, t, b, 4, t, root, w, &q), what, MPI_ERR_ROOT);
        BAD(vine_gather_init_c(a, 4, t, b, 4, t, root, w, in, &q), what, MPI_ERR_ROOT);
        BAD(vine_iscatter(a, 4, t, b, 4, t, root, w, &q), what, MPI_ERR_ROOT);
        BAD(vine_scatter_init(a, 4, t, b, 4, t, root, w, in, &q), what, MPI_ERR_ROOT);
        BAD(vine_iscatter_c(a, 4, t, b, 4, t, root, w, &q), what, MPI_ERR_ROOT);
        BAD(vine_scatter_init_c(a, 4, t, b, 4, t, root, w, in, &q), what, MPI_ERR_ROOT);
    }
    allreduce_still_works("bad roots");
    const char *nul = "MPI_COMM_NULL";
    int e = MPI_ERR_COMM;
    BAD(vine_ibcast(a, 4, t, 0, nc, &q), nul, e);
    BAD(vine_bcast_init(a, 4, t, 0, nc, in, &q), nul, e);
    BAD(vine_ireduce(a, b, 4, t, s, 0, nc, &q), nul, e);
    BAD(vine_reduce_init(a, b, 4, t, s, 0, nc, in, &q), nul, e);
    BAD(vine_iallreduce(a, b, 4, t, s, nc, &q), nul, e);
    BAD(vine_allreduce_init(a, b, 4, t, s, nc, in, &q), nul, e);
    BAD(vine_iallgather(a, 4, t, b, 4, t, nc, &q), nul, e);
    BAD(vine_allgather_init(a, 4, t, b, 4, t, nc, in, &q), nul, e);
    BAD(vine_ireduce_scatter_block(a, b, 4, t, s, nc, &q), nul, e);
    BAD(vine_reduce_scatter_block_init(a, b, 4, t, s, nc, in, &q), nul, e);
    BAD(vine_ireduce_scatter(a, b, rcounts, t, s, nc, &q), nul, e);
    BAD(vine_reduce_scatter_init(a, b, rcounts, t, s, nc, in, &q), nul, e);
    BAD(vine_ialltoall(a, 4, t, b, 4, t, nc, &q), nul, e);
    BAD(vine_alltoall_init(a, 4, t, b, 4, t, nc, in, &q), nul, e);
    BAD(vine_igather(a, 4, t, b, 4, t, 0, nc, &q), nul, e);
    BAD(vine_gather_init(a, 4, t, b, 4, t, 0, nc, in, &q), nul, e);
    BAD(vine_iscatter(a, 4, t, b, 4, t, 0, nc, &q), nul, e);
    BAD(vine_scatter_init(a, 4, t, b, 4, t, 0, nc, in, &q), nul, e);
    BAD(vine_ibarrier(nc, &q), nul, e);
    BAD(vine_barrier_init(nc, in, &q), nul, e);
    BAD(vine_iallreduce_c(a, b, 4, t, s, nc, &q), nul, e);
    BAD(vine_allgather_init_c(a, 4, t, b, 4, t, nc, in, &q), nul, e);
    allreduce_still_works("MPI_COMM_NULL");
    const char *neg = "count -1";
    e = MPI_ERR_COUNT;
    BAD(vine_ibcast(a, -1, t, 0, w, &q), neg, e);
    BAD(vine_bcast_init(a, -1, t, 0, w, in, &q), neg, e);
    BAD(vine_ireduce(a, b, -1, t, s, 0, w, &q), neg, e);
    BAD(vine_reduce_init(a, b, -1, t, s, 0, w, in, &q), neg, e);
    BAD(vine_iallreduce(a, b, -1, t, s, w, &q), neg, e);
    BAD(vine_allreduce_init(a, b, -1, t, s, w, in, &q), neg, e);
    BAD(vine_iallgather(a, -1, t, b, -1, t, w, &q), neg, e);
    BAD(vine_allgather_init(a, -1, t, b, -1, t, w, in, &q), neg, e);
    BAD(vine_ireduce_scatter_block(a, b, -1, t, s, w, &q), neg, e);
    BAD(vine_reduce_scatter_block_init(a, b, -1, t, s, w, in, &q), neg, e);
    rcounts[p - 1] = -1, rcounts_c[p - 1] = -1;
    BAD(vine_ireduce_scatter(a, b, rcounts, t, s, w, &q), "a count -1", e);
    BAD(vine_reduce_scatter_init(a, b, rcounts, t, s, w, in, &q), "a count -1", e);
    BAD(vine_ireduce_scatter_c(a, b, rcounts_c, t, s, w, &q), "a count -1", e);
    BAD(vine_reduce_scatter_init_c(a, b, rcounts_c, t, s, w, in, &q), "a count -1", e);
    BAD(vine_ialltoall(a, -1, t, b, -1, t, w, &q), neg, e);
    BAD(vine_alltoall_init(a, -1, t, b, -1, t, w, in, &q), neg, e);
    BAD(vine_igather(a, -1, t, b, -1, t, 0, w, &q), neg, e);
    BAD(vine_gather_init(a, -1, t, b, -1, t, 0, w, in, &q), neg, e);
    BAD(vine_iscatter(a, -1, t, b, -1, t, 0, w, &q), neg, e);
    BAD(vine_scatter_init(a, -1, t, b, -1, t, 0, w, in, &q), neg, e);
    BAD(vine_ibcast_c(a, -1, t, 0, w, &q), neg, e);
    BAD(vine_reduce_init_c(a, b, -1, t, s, 0, w, in, &q), neg, e);
    BAD(vine_iallreduce_c(a, b, -1, t, s, w, &q), neg, e);
    BAD(vine_allreduce_init_c(a, b, -1, t, s, w, in, &q), neg, e);
    BAD(vine_iallgather_c(a, -1, t, b, -1, t, w, &q), neg, e);
    BAD(vine_reduce_scatter_block_init_c(a, b, -1, t, s, w, in, &q), neg, e);
    BAD(vine_ialltoall_c(a, -1, t, b, -1, t, w, &q), neg, e);
    BAD(vine_gather_init_c(a, -1, t, b, -1, t, 0, w, in, &q), neg, e);
    BAD(vine_iscatter_c(a, -1, t, b, -1, t, 0, w, &q), neg, e);
    allreduce_still_works("negative counts");
}

static void expect_class(int rc, int want, const char *what)
{
    if (error_class(rc) != want)
        mt_fail("%s returned %d (class %d: %s), expected class %d", what, rc, error_class(rc),
                vine_error_string(rc), want);
}

/* Fails unless the allreduce of N ints i * 10 + rank + seed is in out. */
static void check_sum(const int *out, int seed)
{
    for (int i = 0; i < N; i++) {
        int want = mt_size * (i * 10 + seed) + mt_size * (mt_size - 1) / 2;
        if (out[i] != want) {
            mt_fail("element %d is %d, expected %d", i, out[i], want);
            return;
        }
    }
}

static void set_input(int seed)
{
    for (int i = 0; i < N; i++)
        ibuf[i] = i * 10 + mt_rank + seed, obuf[i] = -1;
}

/* The rules of starting, freeing and completing vine's requests. */
static void request_rules(void)
{
    MPI_Comm w = MPI_COMM_WORLD;
    MPI_Request q = MPI_REQUEST_NULL;
    MPI_Status st;
    int flag = 0;
    begin("vine_wait/vine_test on MPI_REQUEST_NULL");
    mt_check_rc(vine_wait(&q, &st), "vine_wait");
    mt_check_empty_status(&st, "vine_wait");
    mt_check_rc(vine_test(&q, &flag, &st), "vine_test");
    mt_check_empty_status(&st, "vine_test");
    if (!flag || q != MPI_REQUEST_NULL)
        mt_fail("vine_test: flag %d, request %s", flag, q ? "set" : "null");

    begin("persistent allreduce: inactive, then started twice, freed while active");
    set_input(1);
    if (!mt_check_rc(vine_allreduce_init(ibuf, obuf, N, MPI_INT, MPI_SUM, w, MPI_INFO_NULL, &q),
                     "vine_allreduce_init"))
        return;
    MPI_Request keep = q;
    mt_check_rc(vine_wait(&q, &st), "vine_wait on an inactive request");
    mt_check_empty_status(&st, "vine_wait on an inactive request");
    flag = 0;
    mt_check_rc(vine_test(&q, &flag, &st), "vine_test on an inactive request");
    if (!flag || q != keep)
        mt_fail("vine_test on an inactive request: flag %d, request %s", flag,
                q == keep ? "kept" : "changed");
    flag = 0;
    mt_check_rc(vine_request_get_status(q, &flag, &st), "get_status on an inactive request");
    if (!flag)
        mt_fail("vine_request_get_status on an inactive request: flag 0");
    mt_check_rc(vine_start(&q), "vine_start");
    expect_class(vine_start(&q), MPI_ERR_REQUEST, "vine_start on an active request");
    expect_class(vine_request_free(&q), MPI_ERR_REQUEST, "vine_request_free on an active request");
    if (q != keep)
        mt_fail("the failed calls changed the request");
    mt_check_rc(vine_wait(&q, &st), "vine_wait");
    check_sum(obuf, 1);
    if (q != keep)
        mt_fail("vine_wait changed the persistent request");
    set_input(2);
    if (mt_check_rc(vine_start(&q), "vine_start after the errors") &&
        mt_check_rc(vine_wait(&q, &st), "vine_wait"))
        check_sum(obuf, 2);
    mt_check_rc(vine_request_free(&q), "vine_request_free");
    if (q != MPI_REQUEST_NULL)
        mt_fail("vine_request_free left the request set");

    begin("nonblocking allreduce: started, freed while active");
    set_input(3);
    if (mt_check_rc(vine_iallreduce(ibuf, obuf, N, MPI_INT, MPI_SUM, w, &q), "vine_iallreduce")) {
        keep = q;
        expect_class(vine_start(&q), MPI_ERR_REQUEST, "vine_start on a nonblocking request");
        expect_class(vine_request_free(&q), MPI_ERR_REQUEST,
                     "vine_request_free on an active nonblocking request");
        if (q != keep)
            mt_fail("the failed calls changed the request");
        mt_check_rc(vine_wait(&q, &st), "vine_wait");
        check_sum(obuf, 3);
        if (q != MPI_REQUEST_NULL)
            mt_fail("vine_wait left the nonblocking request set");
    }

    begin("vine_request_get_status: polls without completing");
    set_input(6);
    if (mt_check_rc(vine_iallreduce(ibuf, obuf, N, MPI_INT, MPI_SUM, w, &q), "vine_iallreduce")) {
        double t0 = MPI_Wtime();
        flag = 0;
        while (!flag && mt_check_rc(vine_request_get_status(q, &flag, &st), "get_status")) {
            if (MPI_Wtime() - t0 > DEADLINE_S) {
                fprintf(stderr, "nb_err: rank %d: vine_request_get_status never says complete\n",
                        mt_rank);
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
        }
        mt_check_empty_status(&st, "vine_request_get_status");
        if (q == MPI_REQUEST_NULL || !vine_is_request(q))
            mt_fail("vine_request_get_status freed the request");
        mt_check_rc(vine_wait(&q, &st), "vine_wait");
        check_sum(obuf, 6);
        if (q != MPI_REQUEST_NULL)
            mt_fail("vine_wait left the request set");
    }
    flag = 0;
    mt_check_rc(vine_request_get_status(MPI_REQUEST_NULL, &flag, &st), "get_status on null");
    if (!flag)
        mt_fail("vine_request_get_status on MPI_REQUEST_NULL: flag 0");
    mt_check_empty_status(&st, "vine_request_get_status on MPI_REQUEST_NULL");

    begin("vine_startall with an active request: none starts");
    MPI_Request pr[2];
    int bc[N];
    set_input(4);
    for (int i = 0; i < N; i++)
        bc[i] = mt_rank == 0 ? 7 * i : -1;
    if (mt_check_rc(vine_allreduce_init(ibuf, obuf, N, MPI_INT, MPI_SUM, w, MPI_INFO_NULL, &pr[0]),
                    "vine_allreduce_init") &&
        mt_check_rc(vine_bcast_init(bc, N, MPI_INT, 0, w, MPI_INFO_NULL, &pr[1]),
                    "vine_bcast_init")) {
        mt_check_rc(vine_start(&pr[1]), "vine_start");
        expect_class(vine_startall(2, pr), MPI_ERR_REQUEST, "vine_startall");
        /* Had vine_startall started the allreduce, this start would be refused. */
        mt_check_rc(vine_start(&pr[0]), "vine_start of the request vine_startall refused");
        mt_check_rc(vine_waitall(2, pr, MPI_STATUSES_IGNORE), "vine_waitall");
        check_sum(obuf, 4);
        for (int i = 0; i < N; i++)
            if (bc[i] != 7 * i) {
                mt_fail("bcast element %d is %d, expected %d", i, bc[i], 7 * i);
                break;
            }
        mt_check_rc(vine_request_free(&pr[0]), "vine_request_free");
        mt_check_rc(vine_request_free(&pr[1]), "vine_request_free");
    }

    /* MPI_Comm_free lets pending operations on the communicator complete
     * normally: on vine's schedules, and on the MPI library's own (mpi),
     * where MPICH frees the communicator inside the wait. */
    MPI_Comm d;
    for (int a = 0; a < 2; a++) {
        begin(a == 0 ? "nonblocking allreduce on a communicator freed before the wait"
                     : "the same, mpi");
        vine_set_algorithm(VINE_COLL_ALLREDUCE, a == 0 ? NULL : "mpi");
        MPI_Comm_dup(w, &d);
        set_input(5);
        if (mt_check_rc(vine_iallreduce(ibuf, obuf, N, MPI_INT, MPI_SUM, d, &q),
                        "vine_iallreduce")) {
            MPI_Comm_free(&d);
            if (mt_check_rc(vine_wait(&q, MPI_STATUS_IGNORE), "vine_wait"))
                check_sum(obuf, 5);
        } else {
            MPI_Comm_free(&d);
        }
    }
    vine_set_algorithm(VINE_COLL_ALLREDUCE, NULL);

    /* MPI lets a persistent request start again after MPI_Comm_free (MPICH's
     * own do): vine's schedules, and the MPI library's own request (mpi). */
    static const char *const again[] = {NULL, "ring", "mpi"};
    for (int a = 0; a < 3; a++) {
        begin(a == 0   ? "a persistent request started after its communicator was freed"
              : a == 1 ? "the same, ring"
                       : "the same, mpi");
        vine_set_algorithm(VINE_COLL_ALLREDUCE, again[a]);
        MPI_Comm_dup(w, &d);
        set_input(6);
        if (mt_check_rc(vine_allreduce_init(ibuf, obuf, N, MPI_INT, MPI_SUM, d, MPI_INFO_NULL, &q),
                        "vine_allreduce_init")) {
            mt_check_rc(vine_start(&q), "vine_start");
            /* The running start finishes inside MPI_Comm_free. */
            MPI_Comm_free(&d);
            if (mt_check_rc(vine_wait(&q, MPI_STATUS_IGNORE), "vine_wait"))
                check_sum(obuf, 6);
            for (int k = 7; k < 10; k++) {
                set_input(k);
                if (mt_check_rc(vine_start(&q), "vine_start after MPI_Comm_free") &&
                    mt_check_rc(vine_wait(&q, MPI_STATUS_IGNORE), "vine_wait"))
                    check_sum(obuf, k);
            }
            mt_check_rc(vine_request_free(&q), "vine_request_free");
        } else {
            MPI_Comm_free(&d);
        }
    }
    vine_set_algorithm(VINE_COLL_ALLREDUCE, NULL);

    begin("vine_request_free on an MPI persistent request");
    if (mt_check_rc(MPI_Send_init(ibuf, 1, MPI_INT, 0, 0, w, &q), "MPI_Send_init")) {
        if (vine_is_request(q))
            mt_fail("vine_is_request is true for an MPI_Send_init request");
        mt_check_rc(vine_request_free(&q), "vine_request_free");
        if (q != MPI_REQUEST_NULL)
            mt_fail("vine_request_free left the request set");
    }
    allreduce_still_works("the request errors");
}

/* Persistent requests started in different orders on different ranks. */
static void start_orders(void)
{
    static const int counts[] = {1, N, N * 64};
    static int bbuf[N * 64];
    static const vine_coll colls[] = {VINE_COLL_BCAST, VINE_COLL_ALLREDUCE};
    MPI_Comm w = MPI_COMM_WORLD;
    /* auto, then algorithms of several rounds; not "mpi", which the MPI
     * library's nonblocking collectives serve, started in call order, so
     * that they need the same order everywhere (docs/api.md). */
    for (int k = 0; k < 4; k++) {
        int n = counts[k % 3];
        const char *algo = k < 3 ? "auto" : "scatter_allgather_ring, ring";
        vine_set_algorithm(colls[0], k < 3 ? NULL : "scatter_allgather_ring");
        vine_set_algorithm(colls[1], k < 3 ? NULL : "ring");
        snprintf(label, sizeof label,
                 "persistent bcast, allreduce, barrier of %d ints (%s), "
                 "started in another order on odd ranks",
                 n, algo);
        begin(label);
        MPI_Request q[3];
        int ok = mt_check_rc(vine_bcast_init(bbuf, n, MPI_INT, 0, w, MPI_INFO_NULL, &q[0]),
                             "vine_bcast_init") &&
                 mt_check_rc(
                     vine_allreduce_init(ibuf, obuf, N, MPI_INT, MPI_SUM, w, MPI_INFO_NULL, &q[1]),
                     "vine_allreduce_init") &&
                 mt_check_rc(vine_barrier_init(w, MPI_INFO_NULL, &q[2]), "vine_barrier_init");
        if (!ok)
            break;
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < n; i++)
                bbuf[i] = mt_rank == 0 ? i * 3 + round : -1;
            set_input(round);
            if (mt_rank % 2 == 0)
                mt_check_rc(vine_startall(3, q), "vine_startall");
            else
                for (int j = 1; j <= 3; j++)
                    mt_check_rc(vine_start(&q[j % 3]), "vine_start");
            mt_check_rc(vine_waitall(3, q, MPI_STATUSES_IGNORE), "vine_waitall");
            check_sum(obuf, round);
            for (int i = 0; i < n; i++)
                if (bbuf[i] != i * 3 + round) {
                    mt_fail("round %d: bcast element %d is %d, expected %d", round, i, bbuf[i],
                            i * 3 + round);
                    break;
                }
        }
        for (int j = 0; j < 3; j++)
            mt_check_rc(vine_request_free(&q[j]), "vine_request_free");
    }
    for (int c = 0; c < 2; c++)
        vine_set_algorithm(colls[c], NULL);
}

/*
 * A persistent request and the nonblocking one that takes the same place in
 * the cycle of request tags (16,000 requests later, exec.h) must not match
 * each other's messages, started in different orders.
 */
static void tag_cycle(void)
{
    enum { CYCLE = 16000 };
    MPI_Comm w = MPI_COMM_WORLD;
    static int obuf2[N], ibuf2[N];
    if (mt_size < 2)
        return;
    begin("a persistent and a nonblocking allreduce a tag cycle apart, active at once");
    vine_set_algorithm(VINE_COLL_ALLREDUCE, "recursive_doubling");
    MPI_Request q[2];
    if (!mt_check_rc(vine_allreduce_init(ibuf, obuf, N, MPI_INT, MPI_SUM, w, MPI_INFO_NULL, &q[0]),
                     "vine_allreduce_init")) {
        vine_set_algorithm(VINE_COLL_ALLREDUCE, NULL);
        return;
    }
    for (int k = 1; k < CYCLE; k++) {
        MPI_Request b;
        if (!mt_check_rc(vine_ibarrier(w, &b), "vine_ibarrier") ||
            !mt_check_rc(vine_wait(&b, MPI_STATUS_IGNORE), "vine_wait"))
            break;
    }
    set_input(3);
    for (int i = 0; i < N; i++)
        ibuf2[i] = i * 10 + mt_rank + 5, obuf2[i] = -1;
    int rc = MPI_SUCCESS;
    if (mt_rank % 2 == 0) {
        rc = vine_start(&q[0]);
        if (rc == MPI_SUCCESS)
            rc = vine_iallreduce(ibuf2, obuf2, N, MPI_INT, MPI_SUM, w, &q[1]);
    } else {
        rc = vine_iallreduce(ibuf2, obuf2, N, MPI_INT, MPI_SUM, w, &q[1]);
        if (rc == MPI_SUCCESS)
            rc = vine_start(&q[0]);
    }
    if (mt_check_rc(rc, "the starts") &&
        mt_check_rc(vine_waitall(2, q, MPI_STATUSES_IGNORE), "vine_waitall")) {
        check_sum(obuf, 3);
        check_sum(obuf2, 5);
    }
    mt_check_rc(vine_request_free(&q[0]), "vine_request_free");
    vine_set_algorithm(VINE_COLL_ALLREDUCE, NULL);
}

/* MPI_SUM on ints as a user-defined op. */
static void int_sum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((const int *)in)[i];
}

/* User-defined ops freed while requests use them. */
static void freed_ops(void)
{
    static const char *const algos[] = {"auto", "mpi", "recursive_doubling", "ring"};
    MPI_Comm w = MPI_COMM_WORLD;
    static int obuf2[N];
    for (int a = 0; a < 4; a++) {
        snprintf(label, sizeof label, "two iallreduce (%s) of an op freed before the wait",
                 algos[a]);
        begin(label);
        vine_set_algorithm(VINE_COLL_ALLREDUCE, algos[a]);
        MPI_Op op;
        MPI_Op_create(int_sum, 1, &op);
        MPI_Request q[2];
        set_input(7);
        for (int i = 0; i < N; i++)
            obuf2[i] = -1;
        mt_check_rc(vine_iallreduce(ibuf, obuf, N, MPI_INT, op, w, &q[0]), "vine_iallreduce");
        mt_check_rc(vine_iallreduce(ibuf, obuf2, N, MPI_INT, op, w, &q[1]), "vine_iallreduce");
        mt_check_rc(vine_op_free(&op), "vine_op_free");
        if (op != MPI_OP_NULL)
            mt_fail("vine_op_free left the op set");
        if (mt_check_rc(vine_wait(&q[1], MPI_STATUS_IGNORE), "vine_wait"))
            check_sum(obuf2, 7);
        if (mt_check_rc(vine_wait(&q[0], MPI_STATUS_IGNORE), "vine_wait"))
            check_sum(obuf, 7);
    }
    vine_set_algorithm(VINE_COLL_ALLREDUCE, NULL);

    begin("persistent allreduce of an op freed after the init");
    MPI_Op op;
    MPI_Request q;
    MPI_Op_create(int_sum, 1, &op);
    if (mt_check_rc(vine_allreduce_init(ibuf, obuf, N, MPI_INT, op, w, MPI_INFO_NULL, &q),
                    "vine_allreduce_init")) {
        mt_check_rc(vine_op_free(&op), "vine_op_free");
        for (int seed = 8; seed < 11; seed++) {
            set_input(seed);
            if (mt_check_rc(vine_start(&q), "vine_start") &&
                mt_check_rc(vine_wait(&q, MPI_STATUS_IGNORE), "vine_wait"))
                check_sum(obuf, seed);
        }
        mt_check_rc(vine_request_free(&q), "vine_request_free");
    }

    begin("vine_op_free of an op no request holds");
    MPI_Op_create(int_sum, 1, &op);
    mt_check_rc(vine_op_free(&op), "vine_op_free");
    if (op != MPI_OP_NULL)
        mt_fail("vine_op_free left the op set");
    allreduce_still_works("the freed ops");
}

enum { NMIX = 9, TAG_A = 17, TAG_B = 99 };

/*
 * Entries: 0 vine_iallreduce, 1 MPI_Irecv from the left with any tag, 2 MPI_REQUEST_NULL,
 * 3 MPI_Isend to the right, 4 vine_ibcast, 5 inactive persistent (allreduce),
 * 6 started persistent (bcast), 7 MPI_Irecv from any source (the right),
 * 8 MPI_Isend to the left.
 */
static int mix_is_coll(int k)
{
    return k == 0 || k == 4 || k == 5 || k == 6;
}

static const char *const mix_modes[] = {"vine_waitall",  "vine_testall", "vine_waitsome",
                                        "vine_testsome", "vine_waitany", "vine_testany"};

static void mix_complete(int m, MPI_Request *q, MPI_Status *st)
{
    int rc = MPI_SUCCESS, flag = 0, idx, out, ind[NMIX];
    MPI_Status tst[NMIX];
    double t0 = MPI_Wtime();
    if (m == 0) {
        mt_check_rc(vine_waitall(NMIX, q, st), "vine_waitall");
        return;
    }
    for (;;) {
        if (MPI_Wtime() - t0 > DEADLINE_S) {
            fprintf(stderr, "nb_err: rank %d: %s never completed\n", mt_rank, mix_modes[m]);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        if (m == 1) {
            rc = vine_testall(NMIX, q, &flag, st);
            if (rc != MPI_SUCCESS || flag)
                break;
        } else if (m == 2 || m == 3) {
            rc = m == 2 ? vine_waitsome(NMIX, q, &out, ind, tst)
                        : vine_testsome(NMIX, q, &out, ind, tst);
            if (rc != MPI_SUCCESS || out == MPI_UNDEFINED)
                break;
            for (int i = 0; i < out; i++)
                st[ind[i]] = tst[i];
        } else {
            flag = 1;
            rc =
                m == 4 ? vine_waitany(NMIX, q, &idx, tst) : vine_testany(NMIX, q, &idx, &flag, tst);
            if (rc != MPI_SUCCESS || (flag && idx == MPI_UNDEFINED))
                break;
            if (flag)
                st[idx] = tst[0];
        }
    }
    mt_check_rc(rc, mix_modes[m]);
}

/* Check 4: mixed arrays, each completion function in turn. */
static void mixed_arrays(void)
{
    MPI_Comm w = MPI_COMM_WORLD;
    int left = (mt_rank + mt_size - 1) % mt_size, right = (mt_rank + 1) % mt_size;
    int red_in[N], red_out[N], bc[N], bc2[N], inact_out[N], ra = -1, rb = -1, sa, sb;
    MPI_Request pers_inactive, pers_bcast;
    begin("mixed array: the persistent requests");
    if (!mt_check_rc(vine_allreduce_init(red_in, inact_out, N, MPI_INT, MPI_SUM, w, MPI_INFO_NULL,
                                         &pers_inactive),
                     "vine_allreduce_init") ||
        !mt_check_rc(vine_bcast_init(bc2, N, MPI_INT, 0, w, MPI_INFO_NULL, &pers_bcast),
                     "vine_bcast_init"))
        return;
    for (int m = 0; m < 6; m++) {
        snprintf(label, sizeof label, "mixed array, %s", mix_modes[m]);
        begin(label);
        MPI_Request q[NMIX];
        MPI_Status st[NMIX];
        for (int i = 0; i < N; i++) {
            red_in[i] = i + mt_rank + m;
            red_out[i] = inact_out[i] = -1;
            bc[i] = mt_rank == mt_size - 1 ? i * m : -1;
            bc2[i] = mt_rank == 0 ? i + 100 * m : -1;
        }
        sa = 1000 * m + mt_rank, sb = 2000 * m + mt_rank, ra = rb = -1;
        memset(st, 0x5a, sizeof st);
        mt_check_rc(vine_iallreduce(red_in, red_out, N, MPI_INT, MPI_SUM, w, &q[0]), "iallreduce");
        MPI_Irecv(&ra, 1, MPI_INT, left, MPI_ANY_TAG, w, &q[1]);
        q[2] = MPI_REQUEST_NULL;
        MPI_Isend(&sa, 1, MPI_INT, right, TAG_A + m, w, &q[3]);
        mt_check_rc(vine_ibcast(bc, N, MPI_INT, mt_size - 1, w, &q[4]), "ibcast");
        q[5] = pers_inactive;
        q[6] = pers_bcast;
        mt_check_rc(vine_start(&q[6]), "vine_start");
        MPI_Irecv(&rb, 1, MPI_INT, MPI_ANY_SOURCE, TAG_B + m, w, &q[7]);
        MPI_Isend(&sb, 1, MPI_INT, left, TAG_B + m, w, &q[8]);
        if (!vine_is_request(q[0]) || vine_is_request(q[1]) || vine_is_request(q[3]) ||
            !vine_is_request(q[4]) || !vine_is_request(q[5]) || !vine_is_request(q[6]))
            mt_fail("vine_is_request is wrong on the mixed array");
        mix_complete(m, q, st);
        for (int k = 0; k < NMIX; k++) {
            int persistent = k == 5 || k == 6;
            if (persistent ? q[k] == MPI_REQUEST_NULL : q[k] != MPI_REQUEST_NULL)
                mt_fail("entry %d: request %s after completion", k, q[k] ? "set" : "null");
            /* Only the array functions give the null and inactive entries a status. */
            if (mix_is_coll(k) && (m < 2 || (k != 5)))
                mt_check_empty_status(&st[k], "collective");
            if (k == 2 && m < 2)
                mt_check_empty_status(&st[k], "MPI_REQUEST_NULL");
        }
        int cnt = -1;
        MPI_Get_count(&st[1], MPI_INT, &cnt);
        if (st[1].MPI_SOURCE != left || st[1].MPI_TAG != TAG_A + m || cnt != 1)
            mt_fail("MPI_Irecv's status: source %d tag %d count %d, expected %d %d 1",
                    st[1].MPI_SOURCE, st[1].MPI_TAG, cnt, left, TAG_A + m);
        MPI_Get_count(&st[7], MPI_INT, &cnt);
        if (st[7].MPI_SOURCE != right || st[7].MPI_TAG != TAG_B + m || cnt != 1)
            mt_fail("any-source MPI_Irecv's status: source %d tag %d count %d, expected %d %d 1",
                    st[7].MPI_SOURCE, st[7].MPI_TAG, cnt, right, TAG_B + m);
        if (ra != 1000 * m + left || rb != 2000 * m + right)
            mt_fail("received %d and %d, expected %d and %d", ra, rb, 1000 * m + left,
                    2000 * m + right);
        for (int i = 0; i < N; i++) {
            int sum = mt_size * (i + m) + mt_size * (mt_size - 1) / 2;
            if (red_out[i] != sum || bc[i] != i * m || bc2[i] != i + 100 * m ||
                inact_out[i] != -1) {
                mt_fail("element %d: allreduce %d (expected %d), ibcast %d (%d), started "
                        "bcast_init %d (%d), inactive allreduce_init wrote %d",
                        i, red_out[i], sum, bc[i], i * m, bc2[i], i + 100 * m, inact_out[i]);
                break;
            }
        }
        pers_inactive = q[5];
        pers_bcast = q[6];
    }
    begin("mixed array: freeing the persistent requests");
    mt_check_rc(vine_request_free(&pers_inactive), "vine_request_free");
    mt_check_rc(vine_request_free(&pers_bcast), "vine_request_free");
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "nb_err");
    if (mt_size > 64) {
        fprintf(stderr, "nb_err: at most 64 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Recv_init(ibuf, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &sentinel);
    bad_arguments();
    request_rules();
    mixed_arrays();
    start_orders();
    tag_cycle();
    freed_ops();
    MPI_Request_free(&sentinel);
    return mt_finish();
}
