/*
 * MPI tier: bad arguments.  Every collective must return the right MPI error
 * class for a negative count, a root out of range, a NULL buffer that must
 * hold data, MPI_DATATYPE_NULL, MPI_OP_NULL and MPI_COMM_NULL, without
 * sending anything; vine_set_algorithm must reject unknown names.  The very
 * first vine calls are bad ones made by rank 0 alone: if vine communicated
 * before checking (say, to set up its private communicator) the valid
 * collectives that follow would hang or go wrong.  Calls with nothing to move
 * and NULL buffers, and reduce with a NULL receive buffer off the root, are
 * valid and must succeed.
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

static void all_bad_calls(void)
{
    bad_bcast();
    bad_reduce();
    bad_allreduce();
    bad_allgather();
    bad_reduce_scatter_block();
    bad_reduce_scatter();
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
    free(zeros);
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
