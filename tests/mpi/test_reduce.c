/*
 * MPI tier: vine_reduce, every algorithm against MPI_Reduce (and, for the
 * non-commutative matrix op, against the rank-ordered product computed here),
 * every type and op, MPI_IN_PLACE at the root, the count sweep at every root.
 * The receive buffer of a non-root is all guard: nothing may be written there.
 */
#include "mpitest.h"

#include <stdlib.h>
#include <string.h>

static void run(const char *algo, const mt_type *t, const mt_op *o, long count, int root,
                int inplace)
{
    mt_case c = {"reduce", algo, t->name, o->name, count, root, inplace};
    mt_begin(&c);
    int me = mt_rank == root;
    size_t n = (size_t)count, bytes = n * t->extent;
    unsigned char *send = malloc(bytes + 1), *keep = malloc(bytes + 1), *want = malloc(bytes + 1);
    mt_fill(t, o, send, n, mt_rank, 0);
    memcpy(keep, send, bytes);
    if (o->commutative)
        MPI_Reduce(send, want, (int)count, t->type, o->op, root, MPI_COMM_WORLD);
    else
        mt_matmul_ref(want, n, mt_size, 0);
    mt_buf r;
    mt_buf_alloc(&r, me ? bytes : 0);
    int rc;
    if (inplace && me) {
        memcpy(r.data, send, bytes);
        rc = vine_reduce(MPI_IN_PLACE, r.data, (int)count, t->type, o->op, root, MPI_COMM_WORLD);
    } else {
        mt_poison(t, r.data, me ? n : 0);
        rc = vine_reduce(send, r.data, (int)count, t->type, o->op, root, MPI_COMM_WORLD);
    }
    if (mt_check_rc(rc, "vine_reduce")) {
        if (me)
            mt_check_equal(t, r.data, want, n, "result");
        mt_check_served(VINE_COLL_REDUCE, algo, o->commutative, n);
    }
    mt_check_guards(&r);
    mt_check_unchanged(send, keep, bytes);
    mt_buf_free(&r);
    free(send);
    free(keep);
    free(want);
}

/* Every type and op at a few counts, at the first and the last root. */
static void type_op_matrix(const char *algo)
{
    static const long counts[] = {1, 7, 1031};
    int roots[2] = {0, mt_size - 1};
    for (int ti = 0; ti < mt_ntypes(); ti++) {
        const mt_type *t = mt_type_at(ti);
        for (int oi = 0; oi < mt_nops(t); oi++)
            for (int k = 0; k < 3; k++)
                for (int ri = 0; ri < (mt_size > 1 ? 2 : 1); ri++)
                    for (int inplace = 0; inplace < 2; inplace++)
                        run(algo, t, mt_op_at(t, oi), counts[k], roots[ri], inplace);
    }
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "reduce");
    long counts[8];
    int ncounts = mt_counts(counts);
    for (int a = 0; a < mt_nalgos(VINE_COLL_REDUCE); a++) {
        const char *algo = mt_algo_at(VINE_COLL_REDUCE, a);
        mt_select(VINE_COLL_REDUCE, algo);
        type_op_matrix(algo);
        for (int k = 0; k < ncounts; k++)
            for (int root = 0; root < mt_size; root++)
                for (int inplace = 0; inplace < 2; inplace++) {
                    run(algo, mt_type_int(), mt_op_sum(), counts[k], root, inplace);
                    run(algo, mt_type_mat(), mt_op_matmul(), counts[k], root, inplace);
                }
    }
    return mt_finish();
}
