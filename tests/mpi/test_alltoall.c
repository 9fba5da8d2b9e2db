/*
 * MPI tier: vine_alltoall, every algorithm against MPI_Alltoall.
 *
 * Basic types: every test type, the count sweep, out of place and with
 * MPI_IN_PLACE (the receive buffer holds the input; sendcount and sendtype
 * are ignored).  The receive guards and the send buffer must stay intact.
 *
 * Derived types (dtype.h): every type on both sides, out of place and in
 * place, and the vector type sent against contiguous ints received (six per
 * vector element) and the reverse, at a few counts.  The data bytes must equal
 * MPI's result; holes, padding and guards of the receive buffer must keep
 * their pattern, and the send buffer must not change.
 *
 * Run with VINE_INPLACE_BYTES small, the blocking in-place calls go in
 * rounds (coll_move.c), and nonblocking and persistent ones to the MPI
 * library's alltoall (check_req_inplace); with VINE_TEST_INPLACE_BAD set,
 * VINE_INPLACE_BYTES is malformed and only its error is checked.
 */
#include "dtype.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SEND_SEED = 1, RECV_SEED = 2 };

static void run(const char *algo, const mt_type *t, long count, int inplace)
{
    mt_case c = {"alltoall", algo, t->name, "-", count, -1, inplace};
    mt_begin(&c);
    size_t n = (size_t)count, p = (size_t)mt_size, all = n * p, bytes = all * t->extent;
    unsigned char *send = malloc(bytes + 1), *keep = malloc(bytes + 1), *want = malloc(bytes + 1);
    /* Rank r's block b is elements b*n .. of r's input: every element differs by place. */
    mt_fill(t, NULL, send, all, mt_rank, 0);
    memcpy(keep, send, bytes);
    MPI_Alltoall(keep, (int)count, t->type, want, (int)count, t->type, MPI_COMM_WORLD);
    mt_buf r;
    mt_buf_alloc(&r, bytes);
    int rc;
    if (inplace) {
        memcpy(r.data, send, bytes);
        rc = vine_alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, r.data, (int)count, t->type,
                           MPI_COMM_WORLD);
    } else {
        mt_poison(t, r.data, all);
        rc = vine_alltoall(send, (int)count, t->type, r.data, (int)count, t->type, MPI_COMM_WORLD);
    }
    if (mt_check_rc(rc, "vine_alltoall")) {
        mt_check_equal(t, r.data, want, all, "result");
        mt_check_served(VINE_COLL_ALLTOALL, algo, 1, all);
    }
    mt_check_guards(&r);
    mt_check_unchanged(send, keep, bytes);
    mt_buf_free(&r);
    free(send);
    free(keep);
    free(want);
}

/*
 * Writes rank `from`'s input into a, count elements of a's type per block.
 * Block b holds the elements (b p + from) count .. of from's flat field
 * sequence (dt_area_set), so rank R's result is elements R p count' .. of
 * the sequence with rank i / count' supplying element i (count' in the
 * receive type), which is what dt_ref describes.
 */
static void set_input(dt_area *a, size_t count, int from)
{
    size_t p = (size_t)mt_size;
    for (size_t b = 0; b < p; b++)
        dt_area_set(a, b * count, count, from, (b * p + (size_t)from) * count);
}

/*
 * An alltoall of rcount elements of rt per block, sent as scount elements of
 * st (st NULL: in place, the input in the receive buffer as rt).  The
 * reference is MPI_Alltoall out of place on the same input.
 */
static void run_dt(const char *algo, const dt_type *st, long scount, const dt_type *rt, long rcount)
{
    char name[64];
    snprintf(name, sizeof name, "%s%s%s", st ? st->name : "", st ? "->" : "", rt->name);
    mt_case c = {"alltoall", algo, name, "-", rcount, -1, st == NULL};
    mt_begin(&c);
    size_t p = (size_t)mt_size, rn = (size_t)rcount, all = rn * p;
    const dt_type *it = st ? st : rt; /* the type the input is written in */
    size_t in = (size_t)(st ? scount : rcount);
    dt_area send, keep, got, mpi;
    dt_area_init(&send, it, in * p, SEND_SEED);
    set_input(&send, in, mt_rank);
    dt_area_clone(&keep, &send);
    dt_area_init(&got, rt, all, RECV_SEED);
    dt_area_clone(&mpi, &got);
    if (!st)
        set_input(&got, rn, mt_rank);
    MPI_Alltoall(keep.buf, (int)in, it->type, mpi.buf, (int)rcount, rt->type, MPI_COMM_WORLD);
    int rc;
    if (st)
        rc = vine_alltoall(send.buf, (int)scount, st->type, got.buf, (int)rcount, rt->type,
                           MPI_COMM_WORLD);
    else
        rc = vine_alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, got.buf, (int)rcount, rt->type,
                           MPI_COMM_WORLD);
    dt_ref ref = {NULL, 0, rn, (size_t)mt_rank * all};
    if (mt_check_rc(rc, "vine_alltoall")) {
        mt_check_served(VINE_COLL_ALLTOALL, algo, 1, all);
        dt_check_result(&got, &mpi, all, RECV_SEED, &ref);
    }
    dt_check_unchanged(&send, &keep, "send");
    dt_area_free(&send);
    dt_area_free(&keep);
    dt_area_free(&got);
    dt_area_free(&mpi);
}

static void sweep_dt(const char *algo)
{
    long want[] = {0, 1, 2, mt_size + 1, 37}, counts[5];
    int ncounts = mt_unique(want, 5, counts);
    const dt_type *v = dt_type_vector(), *i6 = dt_type_int();
    for (int k = 0; k < ncounts; k++) {
        long c = counts[k];
        for (int ti = 0; ti < dt_ntypes(); ti++) {
            run_dt(algo, dt_type_at(ti), c, dt_type_at(ti), c);
            run_dt(algo, NULL, 0, dt_type_at(ti), c);
        }
        run_dt(algo, v, c, i6, 6 * c);
        run_dt(algo, i6, 6 * c, v, c);
    }
}

/*
 * With VINE_INPLACE_BYTES set (1 KiB in ctest), a nonblocking and a
 * persistent in-place alltoall above it must be served by mpi (they cannot
 * run in rounds) and give MPI's result.
 */
static void check_req_inplace(void)
{
    size_t n = 1031, p = (size_t)mt_size, all = n * p;
    int *in = malloc(all * sizeof(int)), *want = malloc(all * sizeof(int)),
        *got = malloc(all * sizeof(int));
    for (size_t i = 0; i < all; i++)
        in[i] = (int)((size_t)mt_rank * all + i);
    MPI_Alltoall(in, (int)n, MPI_INT, want, (int)n, MPI_INT, MPI_COMM_WORLD);
    for (int persistent = 0; persistent < 2; persistent++) {
        mt_case c = {"alltoall", persistent ? "auto (persistent)" : "auto (nonblocking)",
                     "int",      "-",
                     (long)n,    -1,
                     1};
        mt_begin(&c);
        memcpy(got, in, all * sizeof(int));
        MPI_Request q;
        int rc = persistent ? vine_alltoall_init(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, got, (int)n,
                                                 MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &q)
                            : vine_ialltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, got, (int)n,
                                             MPI_INT, MPI_COMM_WORLD, &q);
        if (rc == MPI_SUCCESS && persistent)
            rc = vine_start(&q);
        if (rc == MPI_SUCCESS)
            rc = vine_wait(&q, MPI_STATUS_IGNORE);
        if (rc == MPI_SUCCESS && persistent)
            rc = vine_request_free(&q);
        if (rc != MPI_SUCCESS)
            mt_fail("in-place %s alltoall above VINE_INPLACE_BYTES: error %d",
                    persistent ? "persistent" : "nonblocking", rc);
        else if (memcmp(got, want, all * sizeof(int)) != 0)
            mt_fail("in-place %s alltoall above VINE_INPLACE_BYTES: wrong result",
                    persistent ? "persistent" : "nonblocking");
        else if (strcmp(vine_last_algorithm(VINE_COLL_ALLTOALL), "mpi") != 0)
            mt_fail("in-place %s alltoall above VINE_INPLACE_BYTES served by %s, not mpi",
                    persistent ? "persistent" : "nonblocking",
                    vine_last_algorithm(VINE_COLL_ALLTOALL));
    }
    free(in);
    free(want);
    free(got);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "alltoall");
    if (getenv("VINE_TEST_INPLACE_BAD")) {
        /* A malformed VINE_INPLACE_BYTES: every blocking in-place alltoall
         * fails with MPI_ERR_ARG before sending anything; calls out of place
         * do not read it. */
        int *a = calloc((size_t)mt_size, sizeof(int)), *b = calloc((size_t)mt_size, sizeof(int));
        if (vine_alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, a, 1, MPI_INT, MPI_COMM_WORLD) !=
            MPI_ERR_ARG)
            mt_fail("VINE_INPLACE_BYTES=%s: an in-place alltoall did not return MPI_ERR_ARG",
                    getenv("VINE_INPLACE_BYTES"));
        if (vine_alltoall(a, 1, MPI_INT, b, 1, MPI_INT, MPI_COMM_WORLD) != MPI_SUCCESS)
            mt_fail("VINE_INPLACE_BYTES=%s failed an alltoall out of place",
                    getenv("VINE_INPLACE_BYTES"));
        free(a);
        free(b);
        return mt_finish();
    }
    dt_init(NULL);
    long counts[8];
    int ncounts = mt_counts(counts);
    for (int a = 0; a < mt_nalgos(VINE_COLL_ALLTOALL); a++) {
        const char *algo = mt_algo_at(VINE_COLL_ALLTOALL, a);
        mt_select(VINE_COLL_ALLTOALL, algo);
        for (int ti = 0; ti < mt_ntypes(); ti++)
            for (int k = 0; k < ncounts; k++)
                for (int inplace = 0; inplace < 2; inplace++)
                    run(algo, mt_type_at(ti), counts[k], inplace);
        sweep_dt(algo);
    }
    mt_select(VINE_COLL_ALLTOALL, "auto");
    if (getenv("VINE_INPLACE_BYTES"))
        check_req_inplace();
    dt_free();
    return mt_finish();
}
