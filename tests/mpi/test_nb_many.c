/*
 * MPI tier: more nonblocking collectives outstanding on one communicator
 * than vine has tags for them (VINE_EXEC_NB_TAGS, 16,000), which MPI allows.
 * 8,200 allreduces of 4 ints and 8,200 bcasts of 2 (VINE_TEST_NB_MANY
 * overrides the number) are started on MPI_COMM_WORLD before any is
 * completed, with two pairs of point-to-point algorithms forced in turn,
 * then completed by one vine_waitall over all of them in reverse.  A request
 * whose tag an older active one still holds must wait for it: without that
 * it took the older one's messages, and tens of thousands of elements came
 * out wrong.  Every result is compared with the MPI library's blocking
 * collective on the same input, made after the vine calls.
 *
 * Then as many persistent allreduces (ring), all started by one
 * vine_startall and completed by one vine_waitall, twice.  Persistent
 * requests cannot wait for each other (MPI 4 lets the ranks start them in
 * different orders), so their tags cycle as far as MPI_TAG_UB allows: with
 * a cycle of 16,000 this hung.
 */
#include "mpitest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AR_N 4
#define BC_N 2

static void run(const char *ar_algo, const char *bc_algo, int n)
{
    mt_case c = {"iallreduce+ibcast", ar_algo, "int", "sum", AR_N, -1, 0};
    mt_begin(&c);
    mt_select(VINE_COLL_ALLREDUCE, ar_algo);
    mt_select(VINE_COLL_BCAST, bc_algo);
    size_t na = (size_t)n * AR_N, nb = (size_t)n * BC_N;
    int *in = mt_xmalloc(na * sizeof *in), *out = mt_xmalloc(na * sizeof *out);
    int *bc = mt_xmalloc(nb * sizeof *bc), *want = mt_xmalloc(na * sizeof *want);
    MPI_Request *q = mt_xmalloc(2 * (size_t)n * sizeof *q);
    for (size_t i = 0; i < na; i++) {
        in[i] = (int)(i % 1000) * (mt_rank + 1) - 7;
        out[i] = -1;
    }
    for (size_t i = 0; i < nb; i++)
        bc[i] = mt_rank == (int)(i / BC_N) % mt_size ? (int)i * 3 + 1 : -1;
    /* Alternating kinds, so that the two share the tag cycle. */
    for (int i = 0; i < n; i++) {
        mt_check_rc(vine_iallreduce(in + (size_t)i * AR_N, out + (size_t)i * AR_N, AR_N, MPI_INT,
                                    MPI_SUM, MPI_COMM_WORLD, &q[2 * i]),
                    "vine_iallreduce");
        mt_check_rc(vine_ibcast(bc + (size_t)i * BC_N, BC_N, MPI_INT, i % mt_size, MPI_COMM_WORLD,
                                &q[2 * i + 1]),
                    "vine_ibcast");
    }
    /* In reverse: the newest requests first. */
    for (int i = 0, j = 2 * n - 1; i < j; i++, j--) {
        MPI_Request t = q[i];
        q[i] = q[j];
        q[j] = t;
    }
    mt_check_rc(vine_waitall(2 * n, q, MPI_STATUSES_IGNORE), "vine_waitall");
    MPI_Allreduce(in, want, (int)na, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    mt_check_equal(mt_type_int(), out, want, na, "allreduce results");
    for (int i = 0; i < n; i++) {
        int b[BC_N];
        for (int k = 0; k < BC_N; k++)
            b[k] = (int)((size_t)i * BC_N + (size_t)k) * 3 + 1;
        mt_check_equal(mt_type_int(), bc + (size_t)i * BC_N, b, BC_N, "bcast results");
    }
    free(in);
    free(out);
    free(bc);
    free(want);
    free(q);
}

static void run_persistent(const char *algo, int n)
{
    mt_case c = {"allreduce_init", algo, "int", "sum", AR_N, -1, 0};
    mt_begin(&c);
    mt_select(VINE_COLL_ALLREDUCE, algo);
    size_t na = (size_t)n * AR_N;
    int *in = mt_xmalloc(na * sizeof *in), *out = mt_xmalloc(na * sizeof *out);
    int *want = mt_xmalloc(na * sizeof *want);
    MPI_Request *q = mt_xmalloc((size_t)n * sizeof *q);
    for (int i = 0; i < n; i++)
        mt_check_rc(vine_allreduce_init(in + (size_t)i * AR_N, out + (size_t)i * AR_N, AR_N,
                                        MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &q[i]),
                    "vine_allreduce_init");
    for (int rep = 0; rep < 2; rep++) {
        for (size_t i = 0; i < na; i++) {
            in[i] = (int)(i % 1000) * (mt_rank + 1) + rep;
            out[i] = -1;
        }
        mt_check_rc(vine_startall(n, q), "vine_startall");
        mt_check_rc(vine_waitall(n, q, MPI_STATUSES_IGNORE), "vine_waitall");
        MPI_Allreduce(in, want, (int)na, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        mt_check_equal(mt_type_int(), out, want, na, "persistent allreduce results");
    }
    for (int i = 0; i < n; i++)
        mt_check_rc(vine_request_free(&q[i]), "vine_request_free");
    free(in);
    free(out);
    free(want);
    free(q);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "nb_many");
    const char *e = getenv("VINE_TEST_NB_MANY");
    int n = e ? atoi(e) : 8200;
    const char *algos[][2] = {{"recursive_doubling", "binomial"}, {"ring", "linear"}};
    for (size_t k = 0; k < sizeof algos / sizeof *algos; k++)
        run(algos[k][0], algos[k][1], n);
    run_persistent("ring", 2 * n);
    return mt_finish();
}
