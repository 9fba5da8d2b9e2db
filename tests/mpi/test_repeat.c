/*
 * MPI tier: calls that repeat the previous one on a communicator.  vine runs
 * such a call straight from its remembered schedule, skipping the checks
 * that cannot change (src/api/call.c, vine_memo); this test makes sure the
 * shortcut still sees what does change: new buffers, a new algorithm choice,
 * a NULL or MPI_IN_PLACE buffer, another communicator, another root, other
 * counts (reduce_scatter's counts changed inside the same array).  Every
 * result is compared with the MPI library's collective.
 */
#include "mpitest.h"

#include <stdlib.h>
#include <string.h>

enum { N = 6, REPS = 4, MAXP = 64 };

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

/* Call k of a series: the count (element per block) and the root. */
static int rep_count(int k)
{
    return k < 2 ? N : N - k + 1;
}

static int rep_root(int k, int p)
{
    return (k / 2) % p;
}

/*
 * The collectives with two buffer sides and the reduce-scatters, REPS calls
 * each on other buffers, with the count changing after two calls and the root
 * moving, in place every other series, checked against the MPI library.
 */
static void two_sided(MPI_Comm comm, const char *algo, int inplace)
{
    int p, r;
    MPI_Comm_size(comm, &p);
    MPI_Comm_rank(comm, &r);
    static int in[REPS][MAXP * N], out[REPS][MAXP * N], want[MAXP * N], rcounts[MAXP];
    for (int c = 0; c < 6; c++) {
        static const vine_coll colls[] = {VINE_COLL_ALLGATHER, VINE_COLL_ALLTOALL,
                                          VINE_COLL_GATHER, VINE_COLL_SCATTER,
                                          VINE_COLL_REDUCE_SCATTER_BLOCK,
                                          VINE_COLL_REDUCE_SCATTER};
        static const char *names[] = {"allgather", "alltoall",       "gather",
                                      "scatter",   "reduce_scatter_block", "reduce_scatter"};
        /* "vine": a schedule of vine's own for each collective. */
        static const char *own[] = {"ring", "linear", "linear", "linear", "ring", "ring"};
        vine_coll coll = colls[c];
        const char *use = algo && !strcmp(algo, "vine") ? own[c] : algo;
        /* alltoall in place goes through the checks every time: still checked. */
        mt_select(coll, use);
        for (int k = 0; k < REPS; k++) {
            int n = rep_count(k), root = rep_root(k, p), rc = MPI_SUCCESS;
            mt_case cs = {names[c], use ? use : "auto", "int",
                          c >= 4 ? "sum" : "-", n, coll == VINE_COLL_GATHER ||
                          coll == VINE_COLL_SCATTER ? root : -1, inplace};
            mt_begin(&cs);
            for (int i = 0; i < p * N; i++)
                in[k][i] = 1000 * k + 100 * r + i;
            memset(out[k], 0xff, sizeof out[k]);
            memset(want, 0xff, sizeof want);
            int *sb = in[k], *ob = out[k], at_root = r == root, len = p * n;
            switch (coll) {
            case VINE_COLL_ALLGATHER:
                MPI_Allgather(sb, n, MPI_INT, want, n, MPI_INT, comm);
                if (inplace)
                    memcpy(ob + r * n, sb, (size_t)n * sizeof *sb);
                rc = vine_allgather(inplace ? MPI_IN_PLACE : sb, n, MPI_INT, ob, n, MPI_INT, comm);
                break;
            case VINE_COLL_ALLTOALL:
                MPI_Alltoall(sb, n, MPI_INT, want, n, MPI_INT, comm);
                if (inplace)
                    memcpy(ob, sb, (size_t)len * sizeof *sb);
                rc = vine_alltoall(inplace ? MPI_IN_PLACE : sb, n, MPI_INT, ob, n, MPI_INT, comm);
                break;
            case VINE_COLL_GATHER:
                MPI_Gather(sb, n, MPI_INT, want, n, MPI_INT, root, comm);
                if (inplace && at_root)
                    memcpy(ob + r * n, sb, (size_t)n * sizeof *sb);
                rc = vine_gather(inplace && at_root ? MPI_IN_PLACE : sb, n, MPI_INT, ob, n, MPI_INT,
                                 root, comm);
                len = at_root ? len : 0;
                break;
            case VINE_COLL_SCATTER:
                MPI_Scatter(sb, n, MPI_INT, want, n, MPI_INT, root, comm);
                if (inplace && at_root) {
                    memcpy(ob, sb, (size_t)len * sizeof *sb);
                    rc = vine_scatter(ob, n, MPI_INT, MPI_IN_PLACE, n, MPI_INT, root, comm);
                    memcpy(want, sb + r * n, (size_t)n * sizeof *sb);
                    ob += r * n;
                } else {
                    rc = vine_scatter(sb, n, MPI_INT, ob, n, MPI_INT, root, comm);
                }
                len = n;
                break;
            case VINE_COLL_REDUCE_SCATTER_BLOCK:
                MPI_Reduce_scatter_block(sb, want, n, MPI_INT, MPI_SUM, comm);
                if (inplace)
                    memcpy(ob, sb, (size_t)len * sizeof *sb);
                rc = vine_reduce_scatter_block(inplace ? MPI_IN_PLACE : sb, ob, n, MPI_INT, MPI_SUM,
                                               comm);
                len = n;
                break;
            default:
                /* The same counts array, its entries changed from the third call on. */
                for (int i = 0; i < p; i++)
                    rcounts[i] = k < 2 ? n : (i + k) % (n + 1);
                MPI_Reduce_scatter(sb, want, rcounts, MPI_INT, MPI_SUM, comm);
                if (inplace)
                    memcpy(ob, sb, (size_t)p * N * sizeof *sb);
                rc = vine_reduce_scatter(inplace ? MPI_IN_PLACE : sb, ob, rcounts, MPI_INT,
                                         MPI_SUM, comm);
                len = rcounts[r];
                break;
            }
            if (mt_check_rc(rc, names[c]))
                check(ob, want, len, names[c]);
        }
        mt_select(coll, NULL);
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

    /* The two-sided collectives and the reduce-scatters: auto, the MPI
     * library's own (its repeats go straight to PMPI), and a vine schedule. */
    if (mt_size <= MAXP) {
        const char *algos[] = {NULL, "mpi", "vine"};
        for (int a = 0; a < 3; a++)
            for (int inplace = 0; inplace < 2; inplace++) {
                two_sided(w, algos[a], inplace);
                two_sided(half, algos[a], inplace);
            }
        /* A bad buffer right after a repeat is still refused. */
        int g[MAXP * N];
        mt_case cs = {"allgather", "auto", "int", "-", N, -1, 0};
        mt_begin(&cs);
        for (int k = 0; k < 2; k++)
            mt_check_rc(vine_allgather(in, N, MPI_INT, g, N, MPI_INT, w), "vine_allgather");
        rc = vine_allgather(in, N, MPI_INT, NULL, N, MPI_INT, w);
        if (rc != MPI_ERR_BUFFER)
            mt_fail("NULL recvbuf after a repeat: %d, not MPI_ERR_BUFFER", rc);
        rc = vine_allgather(in, N, MPI_INT, g, N + 1, MPI_INT, w);
        if (rc != MPI_ERR_TRUNCATE)
            mt_fail("recvcount changed after a repeat: %d, not MPI_ERR_TRUNCATE", rc);
    }
    MPI_Comm_free(&half);
    return mt_finish();
}
