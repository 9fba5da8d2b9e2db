/*
 * MPI tier: vine_reduce_scatter_block, every algorithm against
 * MPI_Reduce_scatter_block (and, for the non-commutative matrix op, against
 * the rank-ordered product computed here), every type and op, MPI_IN_PLACE
 * (the receive buffer holds the whole input vector), the count sweep.
 */
#include "mpitest.h"

#include <stdlib.h>
#include <string.h>

static void run(const char *algo, const mt_type *t, const mt_op *o, long count, int inplace)
{
    mt_case c = {"reduce_scatter_block", algo, t->name, o->name, count, -1, inplace};
    mt_begin(&c);
    size_t n = (size_t)count, total = n * (size_t)mt_size;
    size_t bytes = n * t->extent, tbytes = total * t->extent;
    unsigned char *send = malloc(tbytes + 1), *keep = malloc(tbytes + 1);
    unsigned char *want = malloc(bytes + 1);
    mt_fill(t, o, send, total, mt_rank, 0);
    memcpy(keep, send, tbytes);
    if (o->commutative)
        MPI_Reduce_scatter_block(send, want, (int)count, t->type, o->op, MPI_COMM_WORLD);
    else
        mt_matmul_ref(want, n, mt_size, (size_t)mt_rank * n);
    mt_buf r;
    mt_buf_alloc(&r, inplace ? tbytes : bytes);
    int rc;
    if (inplace) {
        memcpy(r.data, send, tbytes);
        rc = vine_reduce_scatter_block(MPI_IN_PLACE, r.data, (int)count, t->type, o->op,
                                       MPI_COMM_WORLD);
    } else {
        mt_poison(t, r.data, n);
        rc = vine_reduce_scatter_block(send, r.data, (int)count, t->type, o->op, MPI_COMM_WORLD);
    }
    if (mt_check_rc(rc, "vine_reduce_scatter_block")) {
        mt_check_equal(t, r.data, want, n, "result");
        mt_check_served(VINE_COLL_REDUCE_SCATTER_BLOCK, algo, o->commutative, n);
        /* In place, the input past the rank's result stays as it was, as MPI
         * libraries leave it (mpi4py's tests check it); under mpi the library decides. */
        if (inplace && strcmp(vine_last_algorithm(VINE_COLL_REDUCE_SCATTER_BLOCK), "mpi") != 0)
            mt_check_equal(t, (unsigned char *)r.data + bytes, keep + bytes, total - n,
                           "input past the result");
    }
    mt_check_guards(&r);
    mt_check_unchanged(send, keep, tbytes);
    mt_buf_free(&r);
    free(send);
    free(keep);
    free(want);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "reduce_scatter_block");
    static const long matrix_counts[] = {1, 7, 1031};
    long counts[8];
    int ncounts = mt_counts(counts);
    vine_coll coll = VINE_COLL_REDUCE_SCATTER_BLOCK;
    for (int a = 0; a < mt_nalgos(coll); a++) {
        const char *algo = mt_algo_at(coll, a);
        mt_select(coll, algo);
        for (int ti = 0; ti < mt_ntypes(); ti++) {
            const mt_type *t = mt_type_at(ti);
            for (int oi = 0; oi < mt_nops(t); oi++)
                for (int k = 0; k < 3; k++)
                    for (int inplace = 0; inplace < 2; inplace++)
                        run(algo, t, mt_op_at(t, oi), matrix_counts[k], inplace);
        }
        for (int k = 0; k < ncounts; k++)
            for (int inplace = 0; inplace < 2; inplace++) {
                run(algo, mt_type_int(), mt_op_sum(), counts[k], inplace);
                run(algo, mt_type_mat(), mt_op_matmul(), counts[k], inplace);
            }
    }
    return mt_finish();
}
