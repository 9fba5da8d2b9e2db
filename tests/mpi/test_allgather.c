/*
 * MPI tier: vine_allgather, every algorithm against MPI_Allgather, every
 * type, the count sweep, MPI_IN_PLACE (the rank's block of the receive buffer
 * holds its input); the send buffer and the guards must stay intact.
 */
#include "mpitest.h"

#include <stdlib.h>
#include <string.h>

static void run(const char *algo, const mt_type *t, long count, int inplace)
{
    mt_case c = {"allgather", algo, t->name, "-", count, -1, inplace};
    mt_begin(&c);
    size_t n = (size_t)count, bytes = n * t->extent, all = bytes * (size_t)mt_size;
    unsigned char *send = malloc(bytes + 1), *keep = malloc(bytes + 1), *want = malloc(all + 1);
    mt_fill(t, NULL, send, n, mt_rank, (size_t)mt_rank * n);
    memcpy(keep, send, bytes);
    MPI_Allgather(send, (int)count, t->type, want, (int)count, t->type, MPI_COMM_WORLD);
    mt_buf r;
    mt_buf_alloc(&r, all);
    mt_poison(t, r.data, n * (size_t)mt_size);
    int rc;
    if (inplace) {
        memcpy(r.data + (size_t)mt_rank * bytes, send, bytes);
        rc = vine_allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, r.data, (int)count, t->type,
                            MPI_COMM_WORLD);
    } else {
        rc = vine_allgather(send, (int)count, t->type, r.data, (int)count, t->type, MPI_COMM_WORLD);
    }
    if (mt_check_rc(rc, "vine_allgather")) {
        mt_check_equal(t, r.data, want, n * (size_t)mt_size, "result");
        mt_check_served(VINE_COLL_ALLGATHER, algo, 1, n);
    }
    mt_check_guards(&r);
    mt_check_unchanged(send, keep, bytes);
    mt_buf_free(&r);
    free(send);
    free(keep);
    free(want);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "allgather");
    long counts[8];
    int ncounts = mt_counts(counts);
    for (int a = 0; a < mt_nalgos(VINE_COLL_ALLGATHER); a++) {
        const char *algo = mt_algo_at(VINE_COLL_ALLGATHER, a);
        mt_select(VINE_COLL_ALLGATHER, algo);
        for (int ti = 0; ti < mt_ntypes(); ti++)
            for (int k = 0; k < ncounts; k++)
                for (int inplace = 0; inplace < 2; inplace++)
                    run(algo, mt_type_at(ti), counts[k], inplace);
    }
    return mt_finish();
}
