/*
 * MPI tier: vine_bcast, every algorithm against MPI_Bcast, every type, the
 * count sweep, every root; the guards around the buffer must stay intact.
 */
#include "mpitest.h"

#include <stdlib.h>
#include <string.h>

static void run(const char *algo, const mt_type *t, long count, int root)
{
    mt_case c = {"bcast", algo, t->name, "-", count, root, 0};
    mt_begin(&c);
    size_t n = (size_t)count, bytes = n * t->extent;
    unsigned char *want = malloc(bytes + 1);
    if (mt_rank == root)
        mt_fill(t, NULL, want, n, root, 0);
    else
        mt_poison(t, want, n);
    MPI_Bcast(want, (int)count, t->type, root, MPI_COMM_WORLD);
    mt_buf b;
    mt_buf_alloc(&b, bytes);
    if (mt_rank == root)
        mt_fill(t, NULL, b.data, n, root, 0);
    else
        mt_poison(t, b.data, n);
    int rc = vine_bcast(b.data, (int)count, t->type, root, MPI_COMM_WORLD);
    if (mt_check_rc(rc, "vine_bcast")) {
        mt_check_equal(t, b.data, want, n, "result");
        mt_check_served(VINE_COLL_BCAST, algo, 1, n);
    }
    mt_check_guards(&b);
    mt_buf_free(&b);
    free(want);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "bcast");
    long counts[8];
    int ncounts = mt_counts(counts);
    for (int a = 0; a < mt_nalgos(VINE_COLL_BCAST); a++) {
        const char *algo = mt_algo_at(VINE_COLL_BCAST, a);
        mt_select(VINE_COLL_BCAST, algo);
        for (int ti = 0; ti < mt_ntypes(); ti++)
            for (int k = 0; k < ncounts; k++)
                for (int root = 0; root < mt_size; root++)
                    run(algo, mt_type_at(ti), counts[k], root);
    }
    return mt_finish();
}
