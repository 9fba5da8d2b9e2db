/*
 * MPI tier: persistent requests on segments of their own (src/api/shm.c,
 * vine__shm_own_take; docs/shm.md, "Persistent requests").  MPI 4 lets the
 * ranks start persistent collectives in different orders; a persistent
 * request whose schedule uses shared memory takes a window of its own at
 * _init, so that such starts cannot read each other's flags.
 *
 * - Orders: an allreduce, a bcast (root p - 1), an allgather, a reduce and
 *   a barrier made persistent on a duplicate of MPI_COMM_WORLD, forced to
 *   shm and then under auto, started 60 times, each time in an order that
 *   differs between ranks and between rounds (vine_start one by one, or
 *   vine_startall), with new values each round, completed by vine_testall
 *   (polled, with a deadline), each result checked against values computed
 *   here; a blocking shm allreduce on the same communicator sits between
 *   the starts and the completion on odd rounds.
 * - Reuse: 100 allreduces made persistent, started twice and freed one
 *   after the other, more than the 64 segments a communicator may hold, so
 *   the later ones take the segments the earlier ones gave back; one int
 *   and 512 KiB in turn, so that segments without a region (flags and slots
 *   only) and with one are both made and taken again.
 * - Many at once: 70 requests alive together: those beyond what the pool
 *   and VINE_SHM_MAX allow run point-to-point, every result still right.
 * - After MPI_Comm_free: a request on its own segment starts again after
 *   its communicator is freed.
 *
 * Where MPI_COMM_WORLD has no single node segment (several nodes, or
 * VINE_SHM=0) shm serves nothing and the results are still checked.
 */
#include "mpitest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ROUNDS = 60, NREQ = 5, NA = 6, NB = 100, NG = 3, REUSE = 100, MANY = 70, DEADLINE_S = 60 };
/* Ints of the large calls: 512 KiB, which the shm allreduce moves through the regions. */
#define BIG ((size_t)1 << 17)

static int seg; /* vine_shm_info of MPI_COMM_WORLD: 2 when one segment holds every rank */

static const vine_coll colls[NREQ] = {VINE_COLL_ALLREDUCE, VINE_COLL_BCAST, VINE_COLL_ALLGATHER,
                                      VINE_COLL_REDUCE, VINE_COLL_BARRIER};

static void select_all(const char *algo)
{
    for (int k = 0; k < NREQ; k++)
        mt_select(colls[k], algo);
}

/* Fails unless coll's last call was served by shm where the segment serves comm (shm forced). */
static void check_shm(vine_coll coll, const char *algo, const char *what)
{
    const char *served = vine_last_algorithm(coll);
    if (strcmp(algo, "shm") == 0 && seg == 2 && strcmp(served, "shm") != 0)
        mt_fail("%s: %s served by %s, not shm", what, vine_coll_name(coll), served);
}

/* Completes n requests by polling vine_testall under a deadline. */
static void complete(int n, MPI_Request *q, const char *what)
{
    double t0 = MPI_Wtime();
    for (int flag = 0; !flag;) {
        if (!mt_check_rc(vine_testall(n, q, &flag, MPI_STATUSES_IGNORE), "vine_testall"))
            return;
        if (!flag)
            mt_deadline(t0, DEADLINE_S, what);
    }
}

/* The orders case under algo. */
static void orders(const char *algo)
{
    mt_case c = {"persistent", algo, "int", "sum", NA, -1, 0};
    mt_begin(&c);
    select_all(algo);
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    int p = mt_size, me = mt_rank, root = p - 1;
    int a_in[NA], a_out[NA], b[NB], g_in[NG], *g_out = mt_xmalloc((size_t)p * NG * sizeof *g_out);
    int r_in[NA], r_out[NA], x[NA], y[NA];
    MPI_Request q[NREQ];
    int rc = vine_allreduce_init(a_in, a_out, NA, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &q[0]);
    if (mt_check_rc(rc, "vine_allreduce_init"))
        check_shm(VINE_COLL_ALLREDUCE, algo, "init");
    rc = vine_bcast_init(b, NB, MPI_INT, root, comm, MPI_INFO_NULL, &q[1]);
    if (mt_check_rc(rc, "vine_bcast_init"))
        check_shm(VINE_COLL_BCAST, algo, "init");
    rc = vine_allgather_init(g_in, NG, MPI_INT, g_out, NG, MPI_INT, comm, MPI_INFO_NULL, &q[2]);
    if (mt_check_rc(rc, "vine_allgather_init"))
        check_shm(VINE_COLL_ALLGATHER, algo, "init");
    rc = vine_reduce_init(r_in, r_out, NA, MPI_INT, MPI_SUM, 0, comm, MPI_INFO_NULL, &q[3]);
    if (mt_check_rc(rc, "vine_reduce_init"))
        check_shm(VINE_COLL_REDUCE, algo, "init");
    rc = vine_barrier_init(comm, MPI_INFO_NULL, &q[4]);
    if (mt_check_rc(rc, "vine_barrier_init") && p > 1)
        check_shm(VINE_COLL_BARRIER, algo, "init");
    for (int round = 0; round < ROUNDS; round++) {
        for (int j = 0; j < NA; j++) {
            a_in[j] = (me + 1) * (j + 1) + round;
            r_in[j] = me * 7 + j - round;
            a_out[j] = r_out[j] = -1;
            x[j] = me + j + round;
        }
        for (int j = 0; j < NB; j++)
            b[j] = me == root ? j * 3 + round : -1;
        for (int j = 0; j < NG; j++)
            g_in[j] = me * 100 + j + round;
        for (int j = 0; j < p * NG; j++)
            g_out[j] = -1;
        /* Each rank its own order: a rotation by rank and round, reversed on odd ranks. */
        if (round % 3 == 2) {
            MPI_Request order[NREQ];
            for (int k = 0; k < NREQ; k++)
                order[k] = q[(k + me + round) % NREQ];
            mt_check_rc(vine_startall(NREQ, order), "vine_startall");
        } else {
            for (int k = 0; k < NREQ; k++) {
                int i = (me % 2 ? NREQ - 1 - k : k) + me + round;
                mt_check_rc(vine_start(&q[i % NREQ]), "vine_start");
            }
        }
        if (round % 2) {
            /* The communicator's segment while the requests' run. */
            mt_check_rc(vine_allreduce(x, y, NA, MPI_INT, MPI_SUM, comm), "vine_allreduce");
            for (int j = 0; j < NA; j++)
                if (y[j] != p * (p - 1) / 2 + p * (j + round))
                    mt_fail("round %d: blocking allreduce element %d is %d", round, j, y[j]);
        }
        complete(NREQ, q, "the persistent requests");
        for (int j = 0; j < NA; j++) {
            int want_a = (j + 1) * p * (p + 1) / 2 + p * round;
            int want_r = 7 * p * (p - 1) / 2 + p * (j - round);
            if (a_out[j] != want_a)
                mt_fail("round %d: allreduce element %d is %d, expected %d", round, j, a_out[j],
                        want_a);
            if (me == 0 && r_out[j] != want_r)
                mt_fail("round %d: reduce element %d is %d, expected %d", round, j, r_out[j],
                        want_r);
        }
        for (int j = 0; j < NB; j++)
            if (b[j] != j * 3 + round)
                mt_fail("round %d: bcast element %d is %d", round, j, b[j]);
        for (int j = 0; j < p * NG; j++)
            if (g_out[j] != j / NG * 100 + j % NG + round)
                mt_fail("round %d: allgather element %d is %d", round, j, g_out[j]);
    }
    for (int k = 0; k < NREQ; k++)
        mt_check_rc(vine_request_free(&q[k]), "vine_request_free");
    free(g_out);
    MPI_Comm_free(&comm);
    select_all("auto");
}

/* An allreduce of n ints (rank + i + k + j at element j of start k) checked after each start. */
static void run_allreduce(MPI_Request *q, int *in, int *out, size_t n, int i, int starts,
                          const char *what)
{
    for (int k = 0; k < starts; k++) {
        for (size_t j = 0; j < n; j++) {
            in[j] = mt_rank + i + k + (int)(j % 1000);
            out[j] = -1;
        }
        if (!mt_check_rc(vine_start(q), "vine_start"))
            return;
        complete(1, q, what);
        for (size_t j = 0; j < n; j++) {
            int want = mt_size * (mt_size - 1) / 2 + mt_size * (i + k + (int)(j % 1000));
            if (out[j] != want) {
                mt_fail("%s %d, start %d, element %zu: %d, expected %d", what, i, k, j, out[j],
                        want);
                return;
            }
        }
    }
}

/* Starts the case named what on a fresh duplicate of MPI_COMM_WORLD, allreduce forced to shm. */
static void begin_allreduce(const char *what, MPI_Comm *comm)
{
    mt_case c = {what, "shm", "int", "sum", 1, -1, 0};
    mt_begin(&c);
    mt_select(VINE_COLL_ALLREDUCE, "shm");
    MPI_Comm_dup(MPI_COMM_WORLD, comm);
}

static void reuse(void)
{
    MPI_Comm comm;
    begin_allreduce("persistent reuse", &comm);
    /* Small calls (flags and slots only) and large ones (the regions) in turn. */
    int *in = mt_xmalloc(BIG * sizeof *in), *out = mt_xmalloc(BIG * sizeof *out);
    for (int i = 0; i < REUSE; i++) {
        size_t n = i % 2 ? BIG : 1;
        MPI_Request q;
        if (!mt_check_rc(
                vine_allreduce_init(in, out, (int)n, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &q),
                "vine_allreduce_init"))
            break;
        check_shm(VINE_COLL_ALLREDUCE, "shm", "reuse");
        run_allreduce(&q, in, out, n, i, 2, "reuse");
        mt_check_rc(vine_request_free(&q), "vine_request_free");
    }
    free(in);
    free(out);
    MPI_Comm_free(&comm);
    mt_select(VINE_COLL_ALLREDUCE, "auto");
}

static void many(void)
{
    MPI_Comm comm;
    begin_allreduce("persistent many", &comm);
    MPI_Request q[MANY];
    int in[MANY], out[MANY], made = 0, on_shm = 0;
    for (; made < MANY; made++) {
        if (!mt_check_rc(vine_allreduce_init(&in[made], &out[made], 1, MPI_INT, MPI_SUM, comm,
                                             MPI_INFO_NULL, &q[made]),
                         "vine_allreduce_init"))
            break;
        on_shm += strcmp(vine_last_algorithm(VINE_COLL_ALLREDUCE), "shm") == 0;
    }
    if (seg == 2 && (on_shm == 0 || on_shm == made))
        mt_fail("%d of %d persistent requests on shm: expected some, not all", on_shm, made);
    /* Started in reverse, completed together. */
    for (int i = made - 1; i >= 0; i--) {
        in[i] = mt_rank * i;
        out[i] = -1;
        mt_check_rc(vine_start(&q[i]), "vine_start");
    }
    complete(made, q, "many requests");
    for (int i = 0; i < made; i++) {
        if (out[i] != i * mt_size * (mt_size - 1) / 2)
            mt_fail("request %d: %d, expected %d", i, out[i], i * mt_size * (mt_size - 1) / 2);
        mt_check_rc(vine_request_free(&q[i]), "vine_request_free");
    }
    MPI_Comm_free(&comm);
    mt_select(VINE_COLL_ALLREDUCE, "auto");
}

static void after_free(void)
{
    MPI_Comm comm;
    begin_allreduce("persistent after MPI_Comm_free", &comm);
    MPI_Request q;
    int in, out;
    if (mt_check_rc(vine_allreduce_init(&in, &out, 1, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &q),
                    "vine_allreduce_init")) {
        check_shm(VINE_COLL_ALLREDUCE, "shm", "after free");
        run_allreduce(&q, &in, &out, 1, 0, 1, "before MPI_Comm_free");
        MPI_Comm_free(&comm);
        run_allreduce(&q, &in, &out, 1, 1, 3, "after MPI_Comm_free");
        mt_check_rc(vine_request_free(&q), "vine_request_free");
    }
    mt_select(VINE_COLL_ALLREDUCE, "auto");
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "persistent_own");
    vine_shm_info(MPI_COMM_WORLD, &seg, NULL, NULL, 0);
    orders("shm");
    orders("auto");
    reuse();
    many();
    after_free();
    return mt_finish();
}
