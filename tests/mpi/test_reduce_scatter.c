/*
 * MPI tier: vine_reduce_scatter, every algorithm against MPI_Reduce_scatter
 * (and, for the non-commutative matrix op, against the rank-ordered product
 * computed here), every type and op, MPI_IN_PLACE, and irregular recvcounts:
 * equal blocks, growing blocks, and blocks of 0 on every other rank.
 */
#include "mpitest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { EQUAL, GROWING, HOLES, NSHAPES };

static void make_counts(int shape, long c, int *counts, size_t *displs)
{
    displs[0] = 0;
    for (int i = 0; i < mt_size; i++) {
        if (shape == EQUAL)
            counts[i] = (int)c;
        else if (shape == GROWING)
            counts[i] = (int)(c * (i + 1) / mt_size);
        else
            counts[i] = i % 2 ? 0 : (int)c + i;
        displs[i + 1] = displs[i] + (size_t)counts[i];
    }
}

static void run(const char *algo, const mt_type *t, const mt_op *o, long c, int shape, int inplace)
{
    int *counts = malloc(sizeof(int) * (size_t)mt_size);
    size_t *displs = malloc(sizeof(size_t) * ((size_t)mt_size + 1));
    make_counts(shape, c, counts, displs);
    static const char *shapes[] = {"equal", "growing", "holes"};
    char tname[64];
    snprintf(tname, sizeof tname, "%s/%s", t->name, shapes[shape]);
    mt_case cs = {"reduce_scatter", algo, tname, o->name, c, -1, inplace};
    mt_begin(&cs);
    size_t n = (size_t)counts[mt_rank], total = displs[mt_size];
    size_t bytes = n * t->extent, tbytes = total * t->extent;
    unsigned char *send = malloc(tbytes + 1), *keep = malloc(tbytes + 1);
    unsigned char *want = malloc(bytes + 1);
    mt_fill(t, o, send, total, mt_rank, 0);
    memcpy(keep, send, tbytes);
    if (o->commutative)
        MPI_Reduce_scatter(send, want, counts, t->type, o->op, MPI_COMM_WORLD);
    else
        mt_matmul_ref(want, n, mt_size, displs[mt_rank]);
    mt_buf r;
    mt_buf_alloc(&r, inplace ? tbytes : bytes);
    int rc;
    if (inplace) {
        memcpy(r.data, send, tbytes);
        rc = vine_reduce_scatter(MPI_IN_PLACE, r.data, counts, t->type, o->op, MPI_COMM_WORLD);
    } else {
        mt_poison(t, r.data, n);
        rc = vine_reduce_scatter(send, r.data, counts, t->type, o->op, MPI_COMM_WORLD);
    }
    if (mt_check_rc(rc, "vine_reduce_scatter")) {
        mt_check_equal(t, r.data, want, n, "result");
        mt_check_served(VINE_COLL_REDUCE_SCATTER, algo, o->commutative, total);
        /* In place, the input past the rank's result stays as it was, as MPI
         * libraries leave it (mpi4py's tests check it); under mpi the library decides. */
        if (inplace && strcmp(vine_last_algorithm(VINE_COLL_REDUCE_SCATTER), "mpi") != 0)
            mt_check_equal(t, (unsigned char *)r.data + bytes, keep + bytes, total - n,
                           "input past the result");
    }
    mt_check_guards(&r);
    mt_check_unchanged(send, keep, tbytes);
    mt_buf_free(&r);
    free(send);
    free(keep);
    free(want);
    free(counts);
    free(displs);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "reduce_scatter");
    static const long matrix_counts[] = {1, 7, 1031};
    long counts[8];
    int ncounts = mt_counts(counts);
    vine_coll coll = VINE_COLL_REDUCE_SCATTER;
    for (int a = 0; a < mt_nalgos(coll); a++) {
        const char *algo = mt_algo_at(coll, a);
        mt_select(coll, algo);
        for (int ti = 0; ti < mt_ntypes(); ti++) {
            const mt_type *t = mt_type_at(ti);
            for (int oi = 0; oi < mt_nops(t); oi++)
                for (int k = 0; k < 3; k++)
                    for (int inplace = 0; inplace < 2; inplace++)
                        run(algo, t, mt_op_at(t, oi), matrix_counts[k], k % 2 ? GROWING : EQUAL,
                            inplace);
        }
        for (int k = 0; k < ncounts; k++)
            for (int shape = 0; shape < NSHAPES; shape++)
                for (int inplace = 0; inplace < 2; inplace++) {
                    run(algo, mt_type_int(), mt_op_sum(), counts[k], shape, inplace);
                    run(algo, mt_type_mat(), mt_op_matmul(), counts[k], shape, inplace);
                }
    }
    return mt_finish();
}
