/*
 * MPI tier: calls that repeat the previous one on a communicator.  vine runs
 * such a call straight from its remembered schedule, skipping the checks
 * that cannot change (src/api/call.c, vine_memo); this test makes sure the
 * shortcut still sees what does change: new buffers, a new algorithm choice,
 * a NULL or MPI_IN_PLACE buffer, another communicator, another root.  Every
 * result is compared with the MPI library's collective.
 */
#include "mpitest.h"

#include <string.h>

enum { N = 6, REPS = 4 };

static void check(const int *got, const int *want, int n, const char *what)
{
    for (int i = 0; i < n; i++)
        if (got[i] != want[i]) {
            mt_fail("%s: element %d is %d, expected %d", what, i, got[i], want[i]);
            return;
        }
}

static void begin(const char *coll, const char *algo, int root)
{
    mt_case c = {coll, algo, "int", coll[0] == 'b' ? "-" : "sum", N, root, 0};
    mt_begin(&c);
}

/* The same allreduce REPS times, each time on other buffers holding other values. */
static void allreduce_new_buffers(MPI_Comm comm, const char *what)
{
    static int in[REPS][N], out[REPS][N];
    int want[N];
    begin("allreduce", what, -1);
    for (int k = 0; k < REPS; k++) {
        for (int i = 0; i < N; i++)
            in[k][i] = 100 * k + 10 * mt_rank + i;
        MPI_Allreduce(in[k], want, N, MPI_INT, MPI_SUM, comm);
        if (mt_check_rc(vine_allreduce(in[k], out[k], N, MPI_INT, MPI_SUM, comm),
                        "vine_allreduce"))
            check(out[k], want, N, what);
    }
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "repeat");
    MPI_Comm w = MPI_COMM_WORLD, half;
    MPI_Comm_split(w, mt_rank % 2, mt_rank, &half);
    int in[N], out[N], want[N];

    allreduce_new_buffers(w, "world");
    /* Another communicator in between, then back. */
    allreduce_new_buffers(half, "half");
    allreduce_new_buffers(w, "world again");

    /* A new algorithm choice between two identical calls must be obeyed. */
    begin("allreduce", "ring then recursive_doubling", -1);
    for (int i = 0; i < N; i++)
        in[i] = mt_rank + i;
    MPI_Allreduce(in, want, N, MPI_INT, MPI_SUM, w);
    const char *algos[] = {"ring", "recursive_doubling", "ring"};
    for (int k = 0; k < 3; k++) {
        mt_select(VINE_COLL_ALLREDUCE, algos[k]);
        memset(out, 0, sizeof out);
        if (mt_check_rc(vine_allreduce(in, out, N, MPI_INT, MPI_SUM, w), "vine_allreduce")) {
            check(out, want, N, algos[k]);
            mt_check_served(VINE_COLL_ALLREDUCE, algos[k], 1, N);
        }
    }

    /* Bad buffers right after a good call are still refused, before any message. */
    begin("allreduce", "bad buffers after a repeat", -1);
    vine_allreduce(in, out, N, MPI_INT, MPI_SUM, w);
    int rc = vine_allreduce(in, NULL, N, MPI_INT, MPI_SUM, w);
    if (rc != MPI_ERR_BUFFER)
        mt_fail("NULL recvbuf after a repeat: %d, not MPI_ERR_BUFFER", rc);
    rc = vine_allreduce(in, MPI_IN_PLACE, N, MPI_INT, MPI_SUM, w);
    if (rc != MPI_ERR_BUFFER)
        mt_fail("MPI_IN_PLACE recvbuf after a repeat: %d, not MPI_ERR_BUFFER", rc);
    rc = vine_allreduce(NULL, out, N, MPI_INT, MPI_SUM, w);
    if (rc != MPI_ERR_BUFFER)
        mt_fail("NULL sendbuf after a repeat: %d, not MPI_ERR_BUFFER", rc);
    /* In place after out of place: the input is in recvbuf now. */
    memcpy(out, in, sizeof out);
    if (mt_check_rc(vine_allreduce(MPI_IN_PLACE, out, N, MPI_INT, MPI_SUM, w), "in place"))
        check(out, want, N, "in place after out of place");

    /* Reduce and bcast repeated, with the root moving between repeats. */
    mt_select(VINE_COLL_ALLREDUCE, NULL);
    for (int k = 0; k < 2 * mt_size; k++) {
        int root = (k / 2) % mt_size;
        begin("reduce", "auto", root);
        for (int i = 0; i < N; i++)
            in[i] = k * 7 + mt_rank * 3 + i;
        MPI_Reduce(in, want, N, MPI_INT, MPI_SUM, root, w);
        memset(out, 0, sizeof out);
        if (mt_check_rc(vine_reduce(in, out, N, MPI_INT, MPI_SUM, root, w), "vine_reduce") &&
            mt_rank == root)
            check(out, want, N, "reduce");
        begin("bcast", "auto", root);
        for (int i = 0; i < N; i++)
            out[i] = want[i] = mt_rank == root ? k * 11 + i : -1;
        MPI_Bcast(want, N, MPI_INT, root, w);
        if (mt_check_rc(vine_bcast(out, N, MPI_INT, root, w), "vine_bcast"))
            check(out, want, N, "bcast");
    }
    MPI_Comm_free(&half);
    return mt_finish();
}
