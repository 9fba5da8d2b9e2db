/*
 * MPI tier: bad arguments.  Every collective must return the right MPI error
 * class for a negative count, a root out of range, a NULL buffer that must
 * hold data, MPI_DATATYPE_NULL, MPI_OP_NULL, MPI_COMM_NULL, a misplaced
 * MPI_IN_PLACE and send and receive sizes that differ, without sending
 * anything; vine_set_algorithm must reject unknown names.  The very first vine
 * calls are bad ones made by rank 0 alone: if vine communicated before
 * checking (say, to set up its private communicator) the valid collectives
 * that follow would hang or go wrong.
 *
 * Some arguments matter only at the root (gather's receive side, scatter's
 * send side).  A case that spoils one of those at the root spoils, on every
 * other rank, an argument that matters there, so that every rank returns an
 * error and none waits for a peer; each rank expects its own class.
 *
 * Calls with nothing to move and NULL buffers, reduce with a NULL receive
 * buffer off the root, gather and scatter with garbage in the arguments that
 * MPI ignores (off the root, and the in-place root's other side) are valid
 * and must succeed with the MPI library's result.
 */
#include "mpitest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int ibuf[64], obuf[64 * 16];

static void expect(const char *coll, const char *what, int rc, int want_class)
{
    mt_case c = {coll, "auto", "int", what, 0, -1, 0};
    mt_begin(&c);
    int cls = rc;
    if (rc != MPI_SUCCESS && MPI_Error_class(rc, &cls) != MPI_SUCCESS)
        cls = -1;
    if (cls != want_class) {
        char a[MPI_MAX_ERROR_STRING], b[MPI_MAX_ERROR_STRING];
        int len;
        if (cls < 0 || MPI_Error_string(cls, a, &len) != MPI_SUCCESS)
            snprintf(a, sizeof a, "code %d", rc);
        MPI_Error_string(want_class, b, &len);
        mt_fail("%s: returned %d (%s), expected %s", what, rc, a, b);
    }
}

static void bad_bcast(void)
{
    int p = mt_size;
    expect("bcast", "count -1", vine_bcast(ibuf, -1, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_COUNT);
    expect("bcast", "root -1", vine_bcast(ibuf, 4, MPI_INT, -1, MPI_COMM_WORLD), MPI_ERR_ROOT);
    expect("bcast", "root p", vine_bcast(ibuf, 4, MPI_INT, p, MPI_COMM_WORLD), MPI_ERR_ROOT);
    expect("bcast", "NULL buffer", vine_bcast(NULL, 4, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    expect("bcast", "MPI_DATATYPE_NULL", vine_bcast(ibuf, 4, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD),
           MPI_ERR_TYPE);
    expect("bcast", "MPI_COMM_NULL", vine_bcast(ibuf, 4, MPI_INT, 0, MPI_COMM_NULL), MPI_ERR_COMM);
}

static void bad_reduce(void)
{
    MPI_Comm w = MPI_COMM_WORLD;
    expect("reduce", "count -1", vine_reduce(ibuf, obuf, -1, MPI_INT, MPI_SUM, 0, w),
           MPI_ERR_COUNT);
    expect("reduce", "root -1", vine_reduce(ibuf, obuf, 4, MPI_INT, MPI_SUM, -1, w), MPI_ERR_ROOT);
    expect("reduce", "root p", vine_reduce(ibuf, obuf, 4, MPI_INT, MPI_SUM, mt_size, w),
           MPI_ERR_ROOT);
    expect("reduce", "NULL sendbuf", vine_reduce(NULL, obuf, 4, MPI_INT, MPI_SUM, 0, w),
           MPI_ERR_BUFFER);
    expect("reduce", "MPI_DATATYPE_NULL",
           vine_reduce(ibuf, obuf, 4, MPI_DATATYPE_NULL, MPI_SUM, 0, w), MPI_ERR_TYPE);
    expect("reduce", "MPI_OP_NULL", vine_reduce(ibuf, obuf, 4, MPI_INT, MPI_OP_NULL, 0, w),
           MPI_ERR_OP);
    expect("reduce", "MPI_COMM_NULL",
           vine_reduce(ibuf, obuf, 4, MPI_INT, MPI_SUM, 0, MPI_COMM_NULL), MPI_ERR_COMM);
}

static void bad_allreduce(void)
{
    MPI_Comm w = MPI_COMM_WORLD;
    expect("allreduce", "count -1", vine_allreduce(ibuf, obuf, -1, MPI_INT, MPI_SUM, w),
           MPI_ERR_COUNT);
    expect("allreduce", "NULL sendbuf", vine_allreduce(NULL, obuf, 4, MPI_INT, MPI_SUM, w),
           MPI_ERR_BUFFER);
    expect("allreduce", "NULL recvbuf", vine_allreduce(ibuf, NULL, 4, MPI_INT, MPI_SUM, w),
           MPI_ERR_BUFFER);
    expect("allreduce", "MPI_DATATYPE_NULL",
           vine_allreduce(ibuf, obuf, 4, MPI_DATATYPE_NULL, MPI_SUM, w), MPI_ERR_TYPE);
    expect("allreduce", "MPI_OP_NULL", vine_allreduce(ibuf, obuf, 4, MPI_INT, MPI_OP_NULL, w),
           MPI_ERR_OP);
    expect("allreduce", "MPI_COMM_NULL",
           vine_allreduce(ibuf, obuf, 4, MPI_INT, MPI_SUM, MPI_COMM_NULL), MPI_ERR_COMM);
    /* Pairs the standard's table refuses (MPI 4.0, 6.9.2), before any
     * message; MPICH 4.0 accepts MPI_LAND on doubles when asked for no
     * elements, then aborts on an assertion when it applies it. */
    expect("allreduce", "MPI_LAND on MPI_DOUBLE",
           vine_allreduce(ibuf, obuf, 2, MPI_DOUBLE, MPI_LAND, w), MPI_ERR_OP);
    expect("allreduce", "MPI_MAXLOC on MPI_INT",
           vine_allreduce(ibuf, obuf, 4, MPI_INT, MPI_MAXLOC, w), MPI_ERR_OP);
    expect("allreduce", "MPI_SUM on MPI_BYTE", vine_allreduce(ibuf, obuf, 4, MPI_BYTE, MPI_SUM, w),
           MPI_ERR_OP);
    expect("allreduce", "MPI_MAX on MPI_C_BOOL",
           vine_allreduce(ibuf, obuf, 4, MPI_C_BOOL, MPI_MAX, w), MPI_ERR_OP);
    expect("allreduce", "MPI_BOR on MPI_WCHAR",
           vine_allreduce(ibuf, obuf, 4, MPI_WCHAR, MPI_BOR, w), MPI_ERR_OP);
}

static void bad_allgather(void)
{
    MPI_Comm w = MPI_COMM_WORLD;
    MPI_Datatype i = MPI_INT, n = MPI_DATATYPE_NULL;
    expect("allgather", "sendcount -1", vine_allgather(ibuf, -1, i, obuf, 4, i, w), MPI_ERR_COUNT);
    expect("allgather", "recvcount -1", vine_allgather(ibuf, 4, i, obuf, -1, i, w), MPI_ERR_COUNT);
    expect("allgather", "NULL sendbuf", vine_allgather(NULL, 4, i, obuf, 4, i, w), MPI_ERR_BUFFER);
    expect("allgather", "NULL recvbuf", vine_allgather(ibuf, 4, i, NULL, 4, i, w), MPI_ERR_BUFFER);
    expect("allgather", "sendtype MPI_DATATYPE_NULL", vine_allgather(ibuf, 4, n, obuf, 4, i, w),
           MPI_ERR_TYPE);
    expect("allgather", "recvtype MPI_DATATYPE_NULL", vine_allgather(ibuf, 4, i, obuf, 4, n, w),
           MPI_ERR_TYPE);
    expect("allgather", "MPI_COMM_NULL", vine_allgather(ibuf, 4, i, obuf, 4, i, MPI_COMM_NULL),
           MPI_ERR_COMM);
}

static void bad_reduce_scatter_block(void)
{
    const char *c = "reduce_scatter_block";
    MPI_Comm w = MPI_COMM_WORLD;
    expect(c, "count -1", vine_reduce_scatter_block(ibuf, obuf, -1, MPI_INT, MPI_SUM, w),
           MPI_ERR_COUNT);
    expect(c, "NULL sendbuf", vine_reduce_scatter_block(NULL, obuf, 2, MPI_INT, MPI_SUM, w),
           MPI_ERR_BUFFER);
    expect(c, "NULL recvbuf", vine_reduce_scatter_block(obuf, NULL, 2, MPI_INT, MPI_SUM, w),
           MPI_ERR_BUFFER);
    expect(c, "MPI_DATATYPE_NULL",
           vine_reduce_scatter_block(obuf, ibuf, 2, MPI_DATATYPE_NULL, MPI_SUM, w), MPI_ERR_TYPE);
    expect(c, "MPI_OP_NULL", vine_reduce_scatter_block(obuf, ibuf, 2, MPI_INT, MPI_OP_NULL, w),
           MPI_ERR_OP);
    expect(c, "MPI_COMM_NULL",
           vine_reduce_scatter_block(obuf, ibuf, 2, MPI_INT, MPI_SUM, MPI_COMM_NULL), MPI_ERR_COMM);
}

static void bad_reduce_scatter(void)
{
    const char *c = "reduce_scatter";
    MPI_Comm w = MPI_COMM_WORLD;
    int *two = malloc(sizeof(int) * (size_t)mt_size), *neg = malloc(sizeof(int) * (size_t)mt_size);
    for (int i = 0; i < mt_size; i++) {
        two[i] = 2;
        neg[i] = i == mt_size - 1 ? -1 : 2;
    }
    expect(c, "a recvcount -1", vine_reduce_scatter(obuf, ibuf, neg, MPI_INT, MPI_SUM, w),
           MPI_ERR_COUNT);
    expect(c, "NULL sendbuf", vine_reduce_scatter(NULL, ibuf, two, MPI_INT, MPI_SUM, w),
           MPI_ERR_BUFFER);
    expect(c, "NULL recvbuf", vine_reduce_scatter(obuf, NULL, two, MPI_INT, MPI_SUM, w),
           MPI_ERR_BUFFER);
    expect(c, "MPI_DATATYPE_NULL",
           vine_reduce_scatter(obuf, ibuf, two, MPI_DATATYPE_NULL, MPI_SUM, w), MPI_ERR_TYPE);
    expect(c, "MPI_OP_NULL", vine_reduce_scatter(obuf, ibuf, two, MPI_INT, MPI_OP_NULL, w),
           MPI_ERR_OP);
    expect(c, "MPI_COMM_NULL",
           vine_reduce_scatter(obuf, ibuf, two, MPI_INT, MPI_SUM, MPI_COMM_NULL), MPI_ERR_COMM);
    free(two);
    free(neg);
}

static void bad_alltoall(void)
{
    MPI_Comm w = MPI_COMM_WORLD;
    MPI_Datatype i = MPI_INT, n = MPI_DATATYPE_NULL;
    const char *c = "alltoall";
    expect(c, "sendcount -1", vine_alltoall(ibuf, -1, i, obuf, 4, i, w), MPI_ERR_COUNT);
    expect(c, "recvcount -1", vine_alltoall(ibuf, 4, i, obuf, -1, i, w), MPI_ERR_COUNT);
    expect(c, "recvcount -1, in place", vine_alltoall(MPI_IN_PLACE, 4, i, obuf, -1, i, w),
           MPI_ERR_COUNT);
    expect(c, "sendtype MPI_DATATYPE_NULL", vine_alltoall(ibuf, 4, n, obuf, 4, i, w), MPI_ERR_TYPE);
    expect(c, "recvtype MPI_DATATYPE_NULL", vine_alltoall(ibuf, 4, i, obuf, 4, n, w), MPI_ERR_TYPE);
    expect(c, "NULL sendbuf", vine_alltoall(NULL, 4, i, obuf, 4, i, w), MPI_ERR_BUFFER);
    expect(c, "NULL recvbuf", vine_alltoall(ibuf, 4, i, NULL, 4, i, w), MPI_ERR_BUFFER);
    expect(c, "recvbuf MPI_IN_PLACE", vine_alltoall(ibuf, 4, i, MPI_IN_PLACE, 4, i, w),
           MPI_ERR_BUFFER);
    expect(c, "sendcount 4, recvcount 5", vine_alltoall(ibuf, 4, i, obuf, 5, i, w),
           MPI_ERR_TRUNCATE);
    expect(c, "4 ints sent, 4 doubles received", vine_alltoall(ibuf, 4, i, obuf, 4, MPI_DOUBLE, w),
           MPI_ERR_TRUNCATE);
    expect(c, "MPI_COMM_NULL", vine_alltoall(ibuf, 4, i, obuf, 4, i, MPI_COMM_NULL), MPI_ERR_COMM);
}

/*
 * gather with root p - 1.  Send-side faults are made on every rank; a fault
 * of the root's receive side is paired with a send-side fault elsewhere.
 */
static void bad_gather(void)
{
    MPI_Comm w = MPI_COMM_WORLD;
    MPI_Datatype i = MPI_INT, n = MPI_DATATYPE_NULL;
    const char *c = "gather";
    int p = mt_size, root = p - 1, at_root = mt_rank == root;
    expect(c, "root -1", vine_gather(ibuf, 4, i, obuf, 4, i, -1, w), MPI_ERR_ROOT);
    expect(c, "root p", vine_gather(ibuf, 4, i, obuf, 4, i, p, w), MPI_ERR_ROOT);
    expect(c, "sendcount -1", vine_gather(ibuf, -1, i, obuf, 4, i, root, w), MPI_ERR_COUNT);
    expect(c, "sendtype MPI_DATATYPE_NULL", vine_gather(ibuf, 4, n, obuf, 4, i, root, w),
           MPI_ERR_TYPE);
    expect(c, "NULL sendbuf", vine_gather(NULL, 4, i, obuf, 4, i, root, w), MPI_ERR_BUFFER);
    expect(c, "MPI_COMM_NULL", vine_gather(ibuf, 4, i, obuf, 4, i, root, MPI_COMM_NULL),
           MPI_ERR_COMM);
    expect(c, "recvcount -1 at the root, sendcount -1 elsewhere",
           vine_gather(ibuf, at_root ? 4 : -1, i, obuf, at_root ? -1 : 4, i, root, w),
           MPI_ERR_COUNT);
    expect(c, "recvtype MPI_DATATYPE_NULL at the root, sendtype elsewhere",
           vine_gather(ibuf, 4, at_root ? i : n, obuf, 4, at_root ? n : i, root, w), MPI_ERR_TYPE);
    expect(c, "NULL recvbuf at the root, NULL sendbuf elsewhere",
           vine_gather(at_root ? ibuf : NULL, 4, i, at_root ? NULL : obuf, 4, i, root, w),
           MPI_ERR_BUFFER);
    expect(c, "recvbuf MPI_IN_PLACE at the root, sendbuf MPI_IN_PLACE elsewhere",
           vine_gather(at_root ? ibuf : MPI_IN_PLACE, 4, i, at_root ? MPI_IN_PLACE : obuf, 4, i,
                       root, w),
           MPI_ERR_BUFFER);
    expect(c, "recvcount 5 at the root for 4 sent, sendcount -1 elsewhere",
           vine_gather(ibuf, at_root ? 4 : -1, i, obuf, 5, i, root, w),
           at_root ? MPI_ERR_TRUNCATE : MPI_ERR_COUNT);
}

/* scatter with root 0: the mirror image of gather. */
static void bad_scatter(void)
{
    MPI_Comm w = MPI_COMM_WORLD;
    MPI_Datatype i = MPI_INT, n = MPI_DATATYPE_NULL;
    const char *c = "scatter";
    int p = mt_size, root = 0, at_root = mt_rank == root;
    expect(c, "root -1", vine_scatter(obuf, 4, i, ibuf, 4, i, -1, w), MPI_ERR_ROOT);
    expect(c, "root p", vine_scatter(obuf, 4, i, ibuf, 4, i, p, w), MPI_ERR_ROOT);
    expect(c, "recvcount -1", vine_scatter(obuf, 4, i, ibuf, -1, i, root, w), MPI_ERR_COUNT);
    expect(c, "recvtype MPI_DATATYPE_NULL", vine_scatter(obuf, 4, i, ibuf, 4, n, root, w),
           MPI_ERR_TYPE);
    expect(c, "NULL recvbuf", vine_scatter(obuf, 4, i, NULL, 4, i, root, w), MPI_ERR_BUFFER);
    expect(c, "MPI_COMM_NULL", vine_scatter(obuf, 4, i, ibuf, 4, i, root, MPI_COMM_NULL),
           MPI_ERR_COMM);
    expect(c, "sendcount -1 at the root, recvcount -1 elsewhere",
           vine_scatter(obuf, at_root ? -1 : 4, i, ibuf, at_root ? 4 : -1, i, root, w),
           MPI_ERR_COUNT);
    expect(c, "sendtype MPI_DATATYPE_NULL at the root, recvtype elsewhere",
           vine_scatter(obuf, 4, at_root ? n : i, ibuf, 4, at_root ? i : n, root, w), MPI_ERR_TYPE);
    expect(c, "NULL sendbuf at the root, NULL recvbuf elsewhere",
           vine_scatter(at_root ? NULL : obuf, 4, i, at_root ? ibuf : NULL, 4, i, root, w),
           MPI_ERR_BUFFER);
    expect(c, "sendbuf MPI_IN_PLACE at the root, recvbuf MPI_IN_PLACE elsewhere",
           vine_scatter(at_root ? MPI_IN_PLACE : obuf, 4, i, at_root ? ibuf : MPI_IN_PLACE, 4, i,
                        root, w),
           MPI_ERR_BUFFER);
    expect(c, "sendcount 5 at the root for 4 received, recvcount -1 elsewhere",
           vine_scatter(obuf, 5, i, ibuf, at_root ? 4 : -1, i, root, w),
           at_root ? MPI_ERR_TRUNCATE : MPI_ERR_COUNT);
}

static void bad_barrier(void)
{
    expect("barrier", "MPI_COMM_NULL", vine_barrier(MPI_COMM_NULL), MPI_ERR_COMM);
}

static void bad_algorithm_names(void)
{
    for (int c = 0; c < VINE_COLL_COUNT; c++)
        expect(vine_coll_name((vine_coll)c), "vine_set_algorithm(no_such_algorithm)",
               vine_set_algorithm((vine_coll)c, "no_such_algorithm"), MPI_ERR_ARG);
    expect("unknown", "vine_set_algorithm(VINE_COLL_COUNT)",
           vine_set_algorithm(VINE_COLL_COUNT, "auto"), MPI_ERR_ARG);
    expect("unknown", "vine_set_algorithm(-1)", vine_set_algorithm((vine_coll)-1, NULL),
           MPI_ERR_ARG);
}

/* The irregular collectives and the scans: every rank gets an error of its own. */
static void bad_vcolls(void)
{
    MPI_Comm w = MPI_COMM_WORLD;
    MPI_Datatype i = MPI_INT, n = MPI_DATATYPE_NULL;
    int p = mt_size, me = mt_rank, root = mt_rank == 0;
    int *ones = malloc((size_t)p * sizeof(int)), *zeros = calloc((size_t)p, sizeof(int));
    int *neg = malloc((size_t)p * sizeof(int)), *packed = malloc((size_t)p * sizeof(int));
    MPI_Datatype *ints = malloc((size_t)p * sizeof *ints),
                 *nulls = malloc((size_t)p * sizeof *nulls);
    for (int k = 0; k < p; k++) {
        ones[k] = 1;
        neg[k] = k == p - 1 ? -1 : 1;
        packed[k] = k;
        ints[k] = MPI_INT;
        nulls[k] = k == p - 1 ? MPI_DATATYPE_NULL : MPI_INT;
    }
    const char *c = "allgatherv";
    expect(c, "recvcounts NULL", vine_allgatherv(ibuf, 1, i, obuf, NULL, packed, i, w),
           MPI_ERR_ARG);
    expect(c, "displs NULL", vine_allgatherv(ibuf, 1, i, obuf, ones, NULL, i, w), MPI_ERR_ARG);
    expect(c, "a recvcount -1", vine_allgatherv(ibuf, 1, i, obuf, neg, packed, i, w),
           MPI_ERR_COUNT);
    expect(c, "sendcount 2, recvcount 1", vine_allgatherv(ibuf, 2, i, obuf, ones, packed, i, w),
           MPI_ERR_TRUNCATE);
    expect(c, "recvbuf MPI_IN_PLACE", vine_allgatherv(ibuf, 1, i, MPI_IN_PLACE, ones, packed, i, w),
           MPI_ERR_BUFFER);
    expect(c, "recvtype MPI_DATATYPE_NULL", vine_allgatherv(ibuf, 1, i, obuf, ones, packed, n, w),
           MPI_ERR_TYPE);
    if (p > 1)
        expect(c, "overlapping blocks", vine_allgatherv(ibuf, 1, i, obuf, ones, zeros, i, w),
               MPI_ERR_BUFFER);
    c = "alltoallv";
    expect(c, "sendcounts NULL", vine_alltoallv(ibuf, NULL, packed, i, obuf, ones, packed, i, w),
           MPI_ERR_ARG);
    expect(c, "a sendcount -1", vine_alltoallv(ibuf, neg, packed, i, obuf, ones, packed, i, w),
           MPI_ERR_COUNT);
    expect(c, "sendtype MPI_DATATYPE_NULL",
           vine_alltoallv(ibuf, ones, packed, n, obuf, ones, packed, i, w), MPI_ERR_TYPE);
    expect(c, "recvbuf MPI_IN_PLACE",
           vine_alltoallv(ibuf, ones, packed, i, MPI_IN_PLACE, ones, packed, i, w), MPI_ERR_BUFFER);
    c = "alltoallw";
    expect(c, "sendtypes NULL",
           vine_alltoallw(ibuf, ones, packed, NULL, obuf, ones, packed, ints, w), MPI_ERR_ARG);
    expect(c, "a recvtype MPI_DATATYPE_NULL",
           vine_alltoallw(ibuf, ones, packed, ints, obuf, ones, packed, nulls, w), MPI_ERR_TYPE);
    c = "gatherv";
    expect(c, "root -1", vine_gatherv(ibuf, 1, i, obuf, ones, packed, i, -1, w), MPI_ERR_ROOT);
    /* At the root its table is missing; elsewhere the send count is negative. */
    expect(c, root ? "recvcounts NULL at the root" : "sendcount -1",
           vine_gatherv(ibuf, root ? 1 : -1, i, obuf, NULL, packed, i, 0, w),
           root ? MPI_ERR_ARG : MPI_ERR_COUNT);
    c = "scatterv";
    expect(c, "root p", vine_scatterv(ibuf, ones, packed, i, obuf, 1, i, p, w), MPI_ERR_ROOT);
    expect(c, me == 0 ? "sendbuf MPI_IN_PLACE at the root" : "recvbuf MPI_IN_PLACE off the root",
           vine_scatterv(me == 0 ? MPI_IN_PLACE : ibuf, ones, packed, i,
                         me == 0 ? obuf : MPI_IN_PLACE, 1, i, 0, w),
           MPI_ERR_BUFFER);
    c = "scan";
    expect(c, "count -1", vine_scan(ibuf, obuf, -1, i, MPI_SUM, w), MPI_ERR_COUNT);
    expect(c, "MPI_OP_NULL", vine_scan(ibuf, obuf, 4, i, MPI_OP_NULL, w), MPI_ERR_OP);
    expect(c, "recvbuf MPI_IN_PLACE", vine_scan(ibuf, MPI_IN_PLACE, 4, i, MPI_SUM, w),
           MPI_ERR_BUFFER);
    c = "exscan";
    expect(c, "MPI_DATATYPE_NULL", vine_exscan(ibuf, obuf, 4, n, MPI_SUM, w), MPI_ERR_TYPE);
    expect(c, "MPI_COMM_NULL", vine_exscan(ibuf, obuf, 4, i, MPI_SUM, MPI_COMM_NULL), MPI_ERR_COMM);
    free(ones);
    free(zeros);
    free(neg);
    free(packed);
    free(ints);
    free(nulls);
}

static void all_bad_calls(void)
{
    bad_bcast();
    bad_reduce();
    bad_allreduce();
    bad_allgather();
    bad_reduce_scatter_block();
    bad_reduce_scatter();
    bad_alltoall();
    bad_gather();
    bad_scatter();
    bad_barrier();
    bad_vcolls();
}

/* Calls that move nothing are valid with NULL buffers. */
static void empty_calls(void)
{
    MPI_Comm w = MPI_COMM_WORLD;
    int *zeros = calloc((size_t)mt_size, sizeof(int));
    const char *what = "count 0, NULL buffers";
    expect("bcast", what, vine_bcast(NULL, 0, MPI_INT, 0, w), MPI_SUCCESS);
    expect("reduce", what, vine_reduce(NULL, NULL, 0, MPI_INT, MPI_SUM, 0, w), MPI_SUCCESS);
    expect("allreduce", what, vine_allreduce(NULL, NULL, 0, MPI_INT, MPI_SUM, w), MPI_SUCCESS);
    expect("allgather", what, vine_allgather(NULL, 0, MPI_INT, NULL, 0, MPI_INT, w), MPI_SUCCESS);
    expect("reduce_scatter_block", what,
           vine_reduce_scatter_block(NULL, NULL, 0, MPI_INT, MPI_SUM, w), MPI_SUCCESS);
    expect("reduce_scatter", what, vine_reduce_scatter(NULL, NULL, zeros, MPI_INT, MPI_SUM, w),
           MPI_SUCCESS);
    expect("alltoall", what, vine_alltoall(NULL, 0, MPI_INT, NULL, 0, MPI_INT, w), MPI_SUCCESS);
    expect("gather", what, vine_gather(NULL, 0, MPI_INT, NULL, 0, MPI_INT, 0, w), MPI_SUCCESS);
    expect("scatter", what, vine_scatter(NULL, 0, MPI_INT, NULL, 0, MPI_INT, 0, w), MPI_SUCCESS);
    expect("allgatherv", what, vine_allgatherv(NULL, 0, MPI_INT, NULL, zeros, zeros, MPI_INT, w),
           MPI_SUCCESS);
    expect("scan", what, vine_scan(NULL, NULL, 0, MPI_INT, MPI_SUM, w), MPI_SUCCESS);
    expect("exscan", what, vine_exscan(NULL, NULL, 0, MPI_INT, MPI_SUM, w), MPI_SUCCESS);
    free(zeros);
}

/* alltoall, also in place with garbage in the ignored send count and type. */
static void valid_alltoall(void)
{
    MPI_Comm w = MPI_COMM_WORLD;
    size_t n = 2 * (size_t)mt_size;
    int *in = malloc(sizeof(int) * n), *out = malloc(sizeof(int) * n),
        *ref = malloc(sizeof(int) * n);
    for (size_t k = 0; k < n; k++)
        in[k] = mt_rank * 1000 + (int)k;
    MPI_Alltoall(in, 2, MPI_INT, ref, 2, MPI_INT, w);
    expect("alltoall", "valid call", vine_alltoall(in, 2, MPI_INT, out, 2, MPI_INT, w),
           MPI_SUCCESS);
    mt_check_equal(mt_type_int(), out, ref, n, "result");
    memcpy(out, in, sizeof(int) * n);
    expect("alltoall", "in place, sendcount -1 and MPI_DATATYPE_NULL ignored",
           vine_alltoall(MPI_IN_PLACE, -1, MPI_DATATYPE_NULL, out, 2, MPI_INT, w), MPI_SUCCESS);
    mt_check_equal(mt_type_int(), out, ref, n, "result");
    free(in);
    free(out);
    free(ref);
}

/*
 * gather and scatter where MPI ignores arguments: off the root gather's
 * receive side and scatter's send side, and at an in-place root the other
 * side.  The ignored arguments are NULL, -1 and MPI_DATATYPE_NULL.
 */
static void valid_rooted(void)
{
    MPI_Comm w = MPI_COMM_WORLD;
    MPI_Datatype i = MPI_INT, n = MPI_DATATYPE_NULL;
    int p = mt_size, root = p - 1, at_root = mt_rank == root, in[3], out[3];
    int *all = malloc(sizeof(int) * 3 * (size_t)p), *ref = malloc(sizeof(int) * 3 * (size_t)p);
    for (int k = 0; k < 3; k++)
        in[k] = mt_rank * 10 + k;
    MPI_Gather(in, 3, i, ref, 3, i, root, w);
    memset(all, 0, sizeof(int) * 3 * (size_t)p);
    expect("gather", "receive side NULL, -1, MPI_DATATYPE_NULL off the root",
           vine_gather(in, 3, i, at_root ? all : NULL, at_root ? 3 : -1, at_root ? i : n, root, w),
           MPI_SUCCESS);
    if (at_root)
        mt_check_equal(mt_type_int(), all, ref, 3 * (size_t)p, "result");
    memset(all, 0, sizeof(int) * 3 * (size_t)p);
    if (at_root)
        memcpy(all + 3 * root, in, sizeof in);
    expect("gather", "in place at the root, its sendcount -1 and sendtype ignored",
           vine_gather(at_root ? MPI_IN_PLACE : in, at_root ? -1 : 3, at_root ? n : i, all, 3, i,
                       root, w),
           MPI_SUCCESS);
    if (at_root)
        mt_check_equal(mt_type_int(), all, ref, 3 * (size_t)p, "result");

    root = 0;
    at_root = mt_rank == root;
    for (int k = 0; k < 3 * p; k++)
        all[k] = mt_rank * 1000 + k;
    MPI_Scatter(all, 3, i, ref, 3, i, root, w);
    memset(out, 0, sizeof out);
    expect(
        "scatter", "send side NULL, -1, MPI_DATATYPE_NULL off the root",
        vine_scatter(at_root ? all : NULL, at_root ? 3 : -1, at_root ? i : n, out, 3, i, root, w),
        MPI_SUCCESS);
    mt_check_equal(mt_type_int(), out, ref, 3, "result");
    memset(out, 0, sizeof out);
    expect("scatter", "in place at the root, its recvcount -1 and recvtype ignored",
           vine_scatter(all, 3, i, at_root ? MPI_IN_PLACE : out, at_root ? -1 : 3, at_root ? n : i,
                        root, w),
           MPI_SUCCESS);
    if (!at_root)
        mt_check_equal(mt_type_int(), out, ref, 3, "result");
    else
        mt_check_equal(mt_type_int(), all + 3 * root, ref, 3, "the root's own block");
    free(all);
    free(ref);
}

/* Valid calls with real data after the bad ones: vine must still be in step. */
static void valid_calls(void)
{
    MPI_Comm w = MPI_COMM_WORLD;
    int p = mt_size, root = p - 1, in[4], out[4], ref[4];
    for (int i = 0; i < 4; i++)
        in[i] = mt_rank * 10 + i;
    MPI_Reduce(in, ref, 4, MPI_INT, MPI_SUM, root, w);
    memset(out, 0, sizeof out);
    /* Off the root the receive buffer is not significant and may be NULL. */
    expect("reduce", "NULL recvbuf off the root",
           vine_reduce(in, mt_rank == root ? out : NULL, 4, MPI_INT, MPI_SUM, root, w),
           MPI_SUCCESS);
    if (mt_rank == root)
        mt_check_equal(mt_type_int(), out, ref, 4, "result");
    MPI_Allreduce(in, ref, 4, MPI_INT, MPI_MAX, w);
    expect("allreduce", "valid call", vine_allreduce(in, out, 4, MPI_INT, MPI_MAX, w), MPI_SUCCESS);
    mt_check_equal(mt_type_int(), out, ref, 4, "result");
    /* Only rank 0 receives anything: the others may pass NULL. */
    int *counts = calloc((size_t)p, sizeof(int));
    counts[0] = 3;
    MPI_Reduce_scatter(in, ref, counts, MPI_INT, MPI_SUM, w);
    expect("reduce_scatter", "NULL recvbuf where the own count is 0",
           vine_reduce_scatter(in, mt_rank == 0 ? out : NULL, counts, MPI_INT, MPI_SUM, w),
           MPI_SUCCESS);
    if (mt_rank == 0)
        mt_check_equal(mt_type_int(), out, ref, 3, "result");
    free(counts);
    int *all = malloc(sizeof(int) * 2 * (size_t)p), *allref = malloc(sizeof(int) * 2 * (size_t)p);
    MPI_Allgather(in, 2, MPI_INT, allref, 2, MPI_INT, w);
    expect("allgather", "valid call", vine_allgather(in, 2, MPI_INT, all, 2, MPI_INT, w),
           MPI_SUCCESS);
    mt_check_equal(mt_type_int(), all, allref, 2 * (size_t)p, "result");
    free(all);
    free(allref);
    valid_alltoall();
    valid_rooted();
    expect("barrier", "valid call", vine_barrier(w), MPI_SUCCESS);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "errors");
    /* Rank 0 alone makes the first vine calls, all bad; the others follow later. */
    if (mt_rank == 0) {
        all_bad_calls();
        empty_calls();
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (mt_rank != 0) {
        all_bad_calls();
        empty_calls();
    }
    valid_calls();
    all_bad_calls();
    empty_calls();
    bad_algorithm_names();
    mt_case c = {"all", "auto", "-", "vine_get_algorithm after rejected names", 0, -1, 0};
    mt_begin(&c);
    for (int c = 0; c < VINE_COLL_COUNT; c++)
        if (strcmp(vine_get_algorithm((vine_coll)c), "auto") != 0)
            mt_fail("a rejected vine_set_algorithm changed the algorithm of %s to %s",
                    vine_coll_name((vine_coll)c), vine_get_algorithm((vine_coll)c));
    valid_calls();
    return mt_finish();
}
