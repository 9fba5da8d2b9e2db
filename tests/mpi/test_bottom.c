/*
 * MPI tier: buffers at MPI_BOTTOM, described by struct types of absolute
 * addresses, as mpi4py's testAlltoallwBottom passes them: bcast (every
 * root), allgather and alltoallw (a different type per peer), every
 * algorithm and auto, counts 1, 5 and 1000 ints a block.  The values are
 * computed here.  MPICH 4.0.2's MPI_Pack refuses a null buffer, which vine's
 * byte path has to work around (src/api/pack.c).
 */
#include "mpitest.h"

#include <stdlib.h>

/* A type of n ints at the absolute address of p. */
static MPI_Datatype at(const int *p, int n)
{
    MPI_Aint a;
    MPI_Datatype in = MPI_INT, t;
    MPI_Get_address(p, &a);
    MPI_Type_create_struct(1, &n, &a, &in, &t);
    MPI_Type_commit(&t);
    return t;
}

static void check(const int *got, const int *want, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i]) {
            mt_fail("int %zu is %d, expected %d", i, got[i], want[i]);
            return;
        }
}

static void run_bcast(const char *algo, int n, int root)
{
    mt_case c = {"bcast", algo, "bottom", "-", n, root, 0};
    mt_begin(&c);
    int *buf = malloc(sizeof(int) * (size_t)n), *want = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++) {
        want[i] = root * 1000 + i;
        buf[i] = mt_rank == root ? want[i] : -1;
    }
    MPI_Datatype t = at(buf, n);
    if (mt_check_rc(vine_bcast(MPI_BOTTOM, 1, t, root, MPI_COMM_WORLD), "vine_bcast")) {
        check(buf, want, (size_t)n);
        mt_check_served(VINE_COLL_BCAST, algo, 1, (size_t)n);
    }
    MPI_Type_free(&t);
    free(buf);
    free(want);
}

static void run_allgather(const char *algo, int n)
{
    mt_case c = {"allgather", algo, "bottom", "-", n, -1, 0};
    mt_begin(&c);
    size_t all = (size_t)n * (size_t)mt_size;
    int *s = malloc(sizeof(int) * (size_t)n), *r = malloc(sizeof(int) * all);
    int *want = malloc(sizeof(int) * all);
    for (int i = 0; i < n; i++)
        s[i] = mt_rank * 1000 + i;
    for (size_t i = 0; i < all; i++) {
        r[i] = -1;
        want[i] = (int)(i / (size_t)n) * 1000 + (int)(i % (size_t)n);
    }
    /* Block j lands at MPI_BOTTOM + j * extent: rt's extent is n ints from r. */
    MPI_Datatype st = at(s, n), rt = at(r, n);
    if (mt_check_rc(vine_allgather(MPI_BOTTOM, 1, st, MPI_BOTTOM, 1, rt, MPI_COMM_WORLD),
                    "vine_allgather")) {
        check(r, want, all);
        mt_check_served(VINE_COLL_ALLGATHER, algo, 1, all);
    }
    MPI_Type_free(&st);
    MPI_Type_free(&rt);
    free(s);
    free(r);
    free(want);
}

static void run_alltoallw(const char *algo, int n)
{
    mt_case c = {"alltoallw", algo, "bottom", "-", n, -1, 0};
    mt_begin(&c);
    int p = mt_size;
    size_t all = (size_t)n * (size_t)p;
    int *s = malloc(sizeof(int) * all), *r = malloc(sizeof(int) * all);
    int *want = malloc(sizeof(int) * all), *counts = malloc(sizeof(int) * (size_t)p);
    int *displs = calloc((size_t)p, sizeof(int));
    MPI_Datatype *st = malloc(sizeof(MPI_Datatype) * (size_t)p);
    MPI_Datatype *rt = malloc(sizeof(MPI_Datatype) * (size_t)p);
    for (size_t i = 0; i < all; i++) {
        s[i] = mt_rank * 100000 + (int)i;
        r[i] = -1;
        /* Block j comes from rank j, its block for this rank. */
        size_t j = i / (size_t)n, e = i % (size_t)n;
        want[i] = (int)j * 100000 + mt_rank * n + (int)e;
    }
    for (int j = 0; j < p; j++) {
        counts[j] = 1;
        st[j] = at(s + (size_t)j * (size_t)n, n);
        rt[j] = at(r + (size_t)j * (size_t)n, n);
    }
    if (mt_check_rc(vine_alltoallw(MPI_BOTTOM, counts, displs, st, MPI_BOTTOM, counts, displs, rt,
                                   MPI_COMM_WORLD),
                    "vine_alltoallw")) {
        check(r, want, all);
        mt_check_served(VINE_COLL_ALLTOALLW, algo, 1, all);
    }
    for (int j = 0; j < p; j++) {
        MPI_Type_free(&st[j]);
        MPI_Type_free(&rt[j]);
    }
    free(s);
    free(r);
    free(want);
    free(counts);
    free(displs);
    free(st);
    free(rt);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "bottom");
    static const int ns[] = {1, 5, 1000};
    for (int k = 0; k < 3; k++) {
        for (int a = 0; a < mt_nalgos(VINE_COLL_BCAST); a++) {
            const char *algo = mt_algo_at(VINE_COLL_BCAST, a);
            mt_select(VINE_COLL_BCAST, algo);
            for (int root = 0; root < mt_size; root++)
                run_bcast(algo, ns[k], root);
        }
        for (int a = 0; a < mt_nalgos(VINE_COLL_ALLGATHER); a++) {
            const char *algo = mt_algo_at(VINE_COLL_ALLGATHER, a);
            mt_select(VINE_COLL_ALLGATHER, algo);
            run_allgather(algo, ns[k]);
        }
        for (int a = 0; a < mt_nalgos(VINE_COLL_ALLTOALLW); a++) {
            const char *algo = mt_algo_at(VINE_COLL_ALLTOALLW, a);
            mt_select(VINE_COLL_ALLTOALLW, algo);
            run_alltoallw(algo, ns[k]);
        }
    }
    return mt_finish();
}
