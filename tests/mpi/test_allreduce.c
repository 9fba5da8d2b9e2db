/*
 * MPI tier: vine_allreduce, every algorithm against MPI_Allreduce (and, for
 * the non-commutative matrix op, against the rank-ordered product computed
 * here), every type and op, MPI_IN_PLACE, the count sweep, and a check that
 * floating results are bitwise identical on all ranks, also for sums whose
 * bits depend on the association (run_wild).
 */
#include "mpitest.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void run(const char *algo, const mt_type *t, const mt_op *o, long count, int inplace)
{
    mt_case c = {"allreduce", algo, t->name, o->name, count, -1, inplace};
    mt_begin(&c);
    size_t n = (size_t)count, bytes = n * t->extent;
    unsigned char *send = malloc(bytes + 1), *keep = malloc(bytes + 1), *want = malloc(bytes + 1);
    mt_fill(t, o, send, n, mt_rank, 0);
    memcpy(keep, send, bytes);
    if (o->commutative)
        MPI_Allreduce(send, want, (int)count, t->type, o->op, MPI_COMM_WORLD);
    else
        mt_matmul_ref(want, n, mt_size, 0);
    mt_buf r;
    mt_buf_alloc(&r, bytes);
    int rc;
    if (inplace) {
        memcpy(r.data, send, bytes);
        rc = vine_allreduce(MPI_IN_PLACE, r.data, (int)count, t->type, o->op, MPI_COMM_WORLD);
    } else {
        mt_poison(t, r.data, n);
        rc = vine_allreduce(send, r.data, (int)count, t->type, o->op, MPI_COMM_WORLD);
    }
    if (mt_check_rc(rc, "vine_allreduce")) {
        mt_check_equal(t, r.data, want, n, "result");
        mt_check_served(VINE_COLL_ALLREDUCE, algo, o->commutative, n);
    }
    mt_check_guards(&r);
    mt_check_unchanged(send, keep, bytes);
    if (t->kind == MT_FLOAT)
        mt_check_same_everywhere(r.data, bytes);
    mt_buf_free(&r);
    free(send);
    free(keep);
    free(want);
}

/*
 * Floating sums of values whose magnitudes span twelve decades, where the
 * association changes the bits: every rank must still get the same bits
 * (MPI's allreduce gives one result; MPICH's test suite checks it,
 * coll/allred_float.c).  The small integers of run() sum exactly in any
 * order and cannot show it.
 */
static void run_wild(const char *algo, int dbl, long count, int inplace)
{
    mt_case c = {"allreduce", algo,   dbl ? "double (wild)" : "float (wild)", "sum", count,
                 -1,          inplace};
    mt_begin(&c);
    size_t n = (size_t)count, size = dbl ? sizeof(double) : sizeof(float);
    unsigned char *send = malloc(n * size + 1), *out = malloc(n * size + 1);
    uint64_t h = 0x9E3779B97F4A7C15u * (uint64_t)(mt_rank + 1) + (uint64_t)count;
    for (size_t i = 0; i < n; i++) {
        h ^= h << 13, h ^= h >> 7, h ^= h << 17;
        double v = (double)(h % 1000 + 1) / 1000.0;
        for (int e = (int)((h >> 20) % 13) - 6; e != 0; e += e > 0 ? -1 : 1)
            v = e > 0 ? v * 10 : v / 10;
        v = (h >> 40) & 1 ? v : -v;
        if (dbl)
            memcpy(send + i * size, &v, size);
        else {
            float f = (float)v;
            memcpy(send + i * size, &f, size);
        }
    }
    MPI_Datatype t = dbl ? MPI_DOUBLE : MPI_FLOAT;
    int rc;
    if (inplace) {
        memcpy(out, send, n * size);
        rc = vine_allreduce(MPI_IN_PLACE, out, (int)count, t, MPI_SUM, MPI_COMM_WORLD);
    } else {
        rc = vine_allreduce(send, out, (int)count, t, MPI_SUM, MPI_COMM_WORLD);
    }
    if (mt_check_rc(rc, "vine_allreduce"))
        mt_check_same_everywhere(out, n * size);
    free(send);
    free(out);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "allreduce");
    static const long matrix_counts[] = {1, 7, 1031};
    long counts[8];
    int ncounts = mt_counts(counts);
    for (int a = 0; a < mt_nalgos(VINE_COLL_ALLREDUCE); a++) {
        const char *algo = mt_algo_at(VINE_COLL_ALLREDUCE, a);
        mt_select(VINE_COLL_ALLREDUCE, algo);
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
                for (int dbl = 0; dbl < 2; dbl++)
                    run_wild(algo, dbl, counts[k], inplace);
            }
    }
    return mt_finish();
}
