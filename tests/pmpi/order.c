/*
 * libvine-mpi and MPI's rules across communicators and calls (docs/pmpi.md,
 * "Nonblocking and persistent calls"), in a program written against MPI
 * alone.  Each part once hung under libvine-mpi and runs without it:
 *
 * 1. First calls: nonblocking collectives started on two fresh duplicates
 *    of MPI_COMM_WORLD in opposite orders on even and odd ranks (MPI allows
 *    it); vine made a communicator's state, collectively, inside such a
 *    call.
 * 2. Blocking collectives while a peer waits: rank 0 makes a blocking
 *    collective on A while the others wait for an allreduce on B that rank
 *    0 started before; the blocking call must advance it.
 * 3. Blocking point-to-point while a peer waits: every rank starts a bcast
 *    from rank 0, then ranks wait for each other in a chain through
 *    MPI_Sendrecv_replace (on a derived type), MPI_Recv, MPI_Probe,
 *    MPI_Mprobe with MPI_Mrecv, MPI_Ssend or MPI_Sendrecv (where the header
 *    is MPI 4 also MPI_Recv_c, MPI_Sendrecv_c and MPI_Sendrecv_replace_c)
 *    before their MPI_Wait, so that an inner node of the bcast
 *    sits in one of these while a leaf waits for its data.
 *
 * Every result is checked; an alarm ends a hung run with a message.
 */
#include <mpi.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* MPICH's MPI_STATUSES_IGNORE, (MPI_Status *)1, passed where its header declares an array
 * (see tests/pmpi/app_nb.c). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif

enum { N = 4096, ALARM_S = 60 };

static int me, np, fails;
static const char *part = "start";

static void on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = "order: hung, no progress for 60 s\n";
    if (write(2, msg, sizeof msg - 1) < 0)
        _exit(2);
    _exit(1);
}

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "order rank %d: %s: %s wrong\n", me, part, what);
        fails++;
    }
}

/* 1. First nonblocking calls on two new communicators, in opposite orders. */
static void first_calls(void)
{
    part = "first calls";
    MPI_Comm c[2];
    MPI_Comm_dup(MPI_COMM_WORLD, &c[0]);
    MPI_Comm_dup(MPI_COMM_WORLD, &c[1]);
    int x = me + 1, sum[2] = {0, 0}, *all = malloc((size_t)np * 2 * sizeof *all);
    MPI_Request q[4];
    for (int k = 0; k < 2; k++) {
        int i = me % 2 ? 1 - k : k;
        MPI_Iallreduce(&x, &sum[i], 1, MPI_INT, MPI_SUM, c[i], &q[2 * i]);
        MPI_Iallgather(&x, 1, MPI_INT, all + i * np, 1, MPI_INT, c[i], &q[2 * i + 1]);
    }
    MPI_Waitall(4, q, MPI_STATUSES_IGNORE);
    for (int i = 0; i < 2; i++) {
        check(sum[i] == np * (np + 1) / 2, "allreduce");
        for (int r = 0; r < np; r++)
            check(all[i * np + r] == r + 1, "allgather");
    }
    free(all);
    MPI_Comm_free(&c[0]);
    MPI_Comm_free(&c[1]);
}

/* 2. Rank 0 in a blocking collective on a, the others waiting for an allreduce on b. */
static void blocking_among(MPI_Comm a, MPI_Comm b, int which)
{
    static const char *const names[] = {"blocking allreduce", "blocking bcast", "blocking alltoall",
                                        "blocking barrier"};
    part = names[which];
    int *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
    int *s = malloc((size_t)np * sizeof *s), *t = malloc((size_t)np * sizeof *t), z = me;
    for (int i = 0; i < N; i++)
        x[i] = me + i;
    for (int r = 0; r < np; r++)
        s[r] = me * 100 + r;
    MPI_Request q;
    MPI_Iallreduce(x, y, N, MPI_INT, MPI_SUM, b, &q);
    for (int round = 0; round < 2; round++) {
        if ((round == 0) == (me == 0)) {
            if (which == 0)
                MPI_Allreduce(MPI_IN_PLACE, &z, 1, MPI_INT, MPI_SUM, a);
            else if (which == 1)
                MPI_Bcast(&z, 1, MPI_INT, np - 1, a);
            else if (which == 2)
                MPI_Alltoall(s, 1, MPI_INT, t, 1, MPI_INT, a);
            else
                MPI_Barrier(a);
        } else {
            MPI_Wait(&q, MPI_STATUS_IGNORE);
        }
    }
    for (int i = 0; i < N; i++)
        check(y[i] == np * (np - 1) / 2 + np * i, "allreduce on B");
    if (which == 0)
        check(z == np * (np - 1) / 2, "allreduce on A");
    if (which == 1)
        check(z == np - 1, "bcast on A");
    for (int r = 0; which == 2 && r < np; r++)
        check(t[r] == r * 100 + me, "alltoall on A");
    free(x);
    free(y);
    free(s);
    free(t);
}

/* 3. A chain of point-to-point waits between a bcast's start and its wait. */
static void chain(int how)
{
    static const char *const names[] = {
        "MPI_Sendrecv_replace", "MPI_Recv",       "MPI_Probe",
        "MPI_Mprobe",           "MPI_Ssend",      "MPI_Sendrecv",
        "MPI_Recv_c",           "MPI_Sendrecv_c", "MPI_Sendrecv_replace_c"};
    part = names[how];
    int *b = malloc(N * sizeof *b), tok = me, got = -1;
    /* Sendrecv_replace on a derived type: elements 0 and 2 of four ints. */
    MPI_Datatype vec;
    MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    int rb[4] = {me, -7, me + 100, -7};
    for (int i = 0; i < N; i++)
        b[i] = me == 0 ? i * 3 + how : -1;
    MPI_Request q;
    MPI_Ibcast(b, N, MPI_INT, 0, MPI_COMM_WORLD, &q);
    int up = me + 1 < np, down = me > 0;
    MPI_Status st;
    MPI_Message m;
    /* Before the wait: with the next rank, which answers only after its own wait. */
    if (up) {
        switch (how) {
        case 0:
            MPI_Sendrecv_replace(rb, 1, vec, me + 1, 5, me + 1, 5, MPI_COMM_WORLD, &st);
            got = rb[0];
            check(rb[1] == -7 && rb[2] == me + 101 && rb[3] == -7, "replaced buffer");
            break;
        case 1:
            MPI_Recv(&got, 1, MPI_INT, me + 1, 5, MPI_COMM_WORLD, &st);
            break;
        case 2:
            MPI_Probe(me + 1, 5, MPI_COMM_WORLD, &st);
            check(st.MPI_SOURCE == me + 1, "probe status");
            MPI_Recv(&got, 1, MPI_INT, me + 1, 5, MPI_COMM_WORLD, &st);
            break;
        case 3:
            MPI_Mprobe(me + 1, 5, MPI_COMM_WORLD, &m, &st);
            MPI_Mrecv(&got, 1, MPI_INT, &m, &st);
            break;
        case 4:
            MPI_Ssend(&tok, 1, MPI_INT, me + 1, 5, MPI_COMM_WORLD);
            break;
        case 5:
            MPI_Sendrecv(&tok, 1, MPI_INT, me + 1, 5, &got, 1, MPI_INT, me + 1, 5, MPI_COMM_WORLD,
                         &st);
            break;
#if MPI_VERSION >= 4
        case 6:
            MPI_Recv_c(&got, 1, MPI_INT, me + 1, 5, MPI_COMM_WORLD, &st);
            break;
        case 7:
            MPI_Sendrecv_c(&tok, 1, MPI_INT, me + 1, 5, &got, 1, MPI_INT, me + 1, 5, MPI_COMM_WORLD,
                           &st);
            break;
        case 8:
            MPI_Sendrecv_replace_c(rb, 1, vec, me + 1, 5, me + 1, 5, MPI_COMM_WORLD, &st);
            got = rb[0];
            check(rb[1] == -7 && rb[2] == me + 101 && rb[3] == -7, "replaced buffer");
            break;
#endif
        default:
            break;
        }
        if (how != 4)
            check(got == me + 1 && st.MPI_SOURCE == me + 1 && st.MPI_TAG == 5, "message");
    }
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    int replace = how == 0 || how == 8;
    if (down) {
        if (how == 4)
            MPI_Recv(&got, 1, MPI_INT, me - 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        else if (how == 5 || how == 7)
            MPI_Sendrecv(&tok, 1, MPI_INT, me - 1, 5, &got, 1, MPI_INT, me - 1, 5, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
        else if (replace) {
            /* The same call, through to MPI now: the other side sent its data packed. */
            int low[4] = {me, -7, me + 100, -7};
            MPI_Sendrecv_replace(low, 1, vec, me - 1, 5, me - 1, 5, MPI_COMM_WORLD,
                                 MPI_STATUS_IGNORE);
            got = low[0];
            check(low[1] == -7 && low[2] == me + 99 && low[3] == -7, "replaced buffer from below");
        }
#if MPI_VERSION >= 4
        else if (how == 6)
            MPI_Send_c(&tok, 1, MPI_INT, me - 1, 5, MPI_COMM_WORLD);
#endif
        else
            MPI_Send(&tok, 1, MPI_INT, me - 1, 5, MPI_COMM_WORLD);
        if (how == 4 || how == 5 || how == 7 || replace)
            check(got == me - 1, "message from below");
    }
    MPI_Type_free(&vec);
    for (int i = 0; i < N; i++)
        check(b[i] == i * 3 + how, "bcast");
    free(b);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    signal(SIGALRM, on_alarm);
    alarm(ALARM_S);
    first_calls();
    MPI_Comm a, b;
    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    MPI_Comm_dup(MPI_COMM_WORLD, &b);
    /* Blocking calls first: vine's states of the three communicators exist from here on. */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Barrier(a);
    MPI_Barrier(b);
    for (int which = 0; which < 4; which++) {
        alarm(ALARM_S);
        blocking_among(a, b, which);
    }
    /* Where the header is MPI 4, libvine-mpi wraps the _c forms too. */
    int ways = MPI_VERSION >= 4 ? 9 : 6;
    for (int how = 0; how < ways; how++) {
        alarm(ALARM_S);
        chain(how);
    }
    alarm(0);
    MPI_Comm_free(&a);
    MPI_Comm_free(&b);
    int all = 0;
    MPI_Allreduce(&fails, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0)
        printf("order: %s (%d ranks)\n", all ? "FAILED" : "passed", np);
    MPI_Finalize();
    return all != 0;
}
