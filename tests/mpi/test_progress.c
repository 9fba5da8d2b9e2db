/*
 * MPI tier: MPI's progress rule inside vine's collectives.  A rank blocked
 * in an MPI call must let the MPI library progress what other ranks wait on,
 * passive-target RMA included; vine's shm algorithms wait on flags in shared
 * memory, which by themselves call no MPI function.  Rank 0 puts a value
 * into every other rank's window, each under an exclusive lock (under
 * MPICH's UCX device the lock needs the target's progress engine), while
 * the other ranks already wait for rank 0 in the collective; then rank 0
 * joins it.  Without progress in the waits this hangs under MPICH, as
 * mpi4py's test_rma did on the shm barrier, and the test's time limit
 * fails it.  After the collective every rank checks its window and the
 * collective's result.
 *
 * Then an active-target epoch ordered by the collective, as mpi4py's
 * test_rma orders one: the other ranks post an exposure epoch to rank 0,
 * rank 0 puts into each of them and completes its access epoch before it
 * enters the collective (blocking, then nonblocking completed by vine_wait),
 * and after it each target's MPI_Win_test must say
 * the epoch has ended whenever it does so after the MPI library's own
 * barrier, tried first in the same way as the reference (under MPICH's UCX
 * device it does; a collective on the node segment then needs the pass of
 * progress that vine_shm_sync_progress asks for, which the test turns on as
 * libvine-mpi does for a program's window).
 *
 * Every algorithm of barrier and bcast (root 0), and auto; a case's count is
 * the round.
 */
#include "mpitest.h"

enum { ROUNDS = 3 };

static MPI_Win win;

/* Rank 0's puts: value v into every other rank's window. */
static void put_all(int v)
{
    for (int r = 1; r < mt_size; r++) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, r, 0, win);
        MPI_Put(&v, 1, MPI_INT, r, 0, 1, MPI_INT, win);
        MPI_Win_unlock(r, win);
    }
}

/* This rank's window, read with MPI_Get (MPICH's windows may be separate). */
static int own_value(void)
{
    int v = -1;
    MPI_Win_lock(MPI_LOCK_SHARED, mt_rank, 0, win);
    MPI_Get(&v, 1, MPI_INT, mt_rank, 0, 1, MPI_INT, win);
    MPI_Win_unlock(mt_rank, win);
    return v;
}

static void run(vine_coll coll, const char *algo, int round, int *v)
{
    const char *name = coll == VINE_COLL_BARRIER ? "barrier" : "bcast";
    mt_case c = {name, algo, "int", "-", round, coll == VINE_COLL_BARRIER ? -1 : 0, 0};
    mt_begin(&c);
    int want = ++*v, data = mt_rank == 0 ? want : -1, rc;
    if (mt_rank == 0)
        put_all(want);
    if (coll == VINE_COLL_BARRIER)
        rc = vine_barrier(MPI_COMM_WORLD);
    else
        rc = vine_bcast(&data, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (mt_check_rc(rc, "the collective")) {
        mt_check_served(coll, algo, 1, mt_size > 1);
        if (coll == VINE_COLL_BCAST && data != want)
            mt_fail("bcast gave %d, expected %d", data, want);
        /* Rank 0's puts completed before it entered the collective. */
        int got = mt_rank == 0 ? want : own_value();
        if (got != want)
            mt_fail("the window holds %d after the collective, expected %d", got, want);
    }
    /* The library's barrier keeps the next round's puts after these reads. */
    MPI_Barrier(MPI_COMM_WORLD);
}

/* What orders an epoch: the library's barrier, vine's collective, or its nonblocking form. */
enum { BY_MPI, BY_VINE, BY_VINE_NB };

/*
 * One active-target epoch from rank 0 to every other rank, ordered by coll as
 * by says; returns on a target whether MPI_Win_test said the epoch had ended
 * right after it (1 on rank 0).  The target ends its epoch and checks the
 * value either way.
 */
static int pscw(vine_coll coll, int by, int *v, int *rc)
{
    MPI_Group world, peers;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int zero = 0, want = ++*v, data = mt_rank == 0 ? want : -1, ended = 1;
    if (mt_rank == 0)
        MPI_Group_excl(world, 1, &zero, &peers);
    else
        MPI_Group_incl(world, 1, &zero, &peers);
    if (mt_rank != 0)
        MPI_Win_post(peers, 0, win);
    else {
        MPI_Win_start(peers, 0, win);
        for (int r = 1; r < mt_size; r++)
            MPI_Put(&want, 1, MPI_INT, r, 0, 1, MPI_INT, win);
        MPI_Win_complete(win);
    }
    *rc = MPI_SUCCESS;
    MPI_Request req = MPI_REQUEST_NULL;
    if (by == BY_MPI)
        MPI_Barrier(MPI_COMM_WORLD);
    else if (by == BY_VINE && coll == VINE_COLL_BARRIER)
        *rc = vine_barrier(MPI_COMM_WORLD);
    else if (by == BY_VINE)
        *rc = vine_bcast(&data, 1, MPI_INT, 0, MPI_COMM_WORLD);
    else if (coll == VINE_COLL_BARRIER)
        *rc = vine_ibarrier(MPI_COMM_WORLD, &req);
    else
        *rc = vine_ibcast(&data, 1, MPI_INT, 0, MPI_COMM_WORLD, &req);
    if (by == BY_VINE_NB && *rc == MPI_SUCCESS)
        *rc = vine_wait(&req, MPI_STATUS_IGNORE);
    if (mt_rank != 0) {
        MPI_Win_test(win, &ended);
        if (!ended)
            MPI_Win_wait(win);
        int got = own_value();
        if (got != want)
            mt_fail("the window holds %d after the epoch, expected %d", got, want);
    }
    if (by != BY_MPI && coll == VINE_COLL_BCAST && *rc == MPI_SUCCESS && data != want)
        mt_fail("bcast gave %d, expected %d", data, want);
    MPI_Group_free(&peers);
    MPI_Group_free(&world);
    MPI_Barrier(MPI_COMM_WORLD);
    return ended;
}

static void run_pscw(vine_coll coll, const char *algo, int round, int *v)
{
    const char *name = coll == VINE_COLL_BARRIER ? "barrier" : "bcast";
    mt_case c = {name, algo, "int", "pscw", round, coll == VINE_COLL_BARRIER ? -1 : 0, 0};
    mt_begin(&c);
    int rc, ref = pscw(coll, BY_MPI, v, &rc);
    for (int by = BY_VINE; by <= BY_VINE_NB; by++) {
        int got = pscw(coll, by, v, &rc);
        if (!mt_check_rc(rc, by == BY_VINE ? "the collective" : "the nonblocking collective"))
            continue;
        mt_check_served(coll, algo, 1, mt_size > 1);
        if (ref && !got)
            mt_fail("MPI_Win_test said the epoch was open after the %scollective (closed after "
                    "MPI_Barrier)",
                    by == BY_VINE ? "" : "nonblocking ");
    }
}

/* ROUNDS cases of each algorithm of barrier and bcast, and auto. */
static void sweep(void (*one)(vine_coll, const char *, int, int *), int *v)
{
    static const vine_coll colls[] = {VINE_COLL_BARRIER, VINE_COLL_BCAST};
    for (int k = 0; k < 2; k++)
        for (int a = 0; a < mt_nalgos(colls[k]); a++) {
            const char *algo = mt_algo_at(colls[k], a);
            mt_select(colls[k], algo);
            for (int round = 0; round < ROUNDS; round++)
                one(colls[k], algo, round, v);
        }
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "progress");
    int *mem;
    MPI_Win_allocate((MPI_Aint)sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    int zero = 0;
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, mt_rank, 0, win);
    MPI_Put(&zero, 1, MPI_INT, mt_rank, 0, 1, MPI_INT, win);
    MPI_Win_unlock(mt_rank, win);
    MPI_Barrier(MPI_COMM_WORLD);
    int v = 0;
    sweep(run, &v);
    /* As libvine-mpi counts a program's window. */
    if (vine_shm_sync_progress(1) != 1)
        mt_fail("vine_shm_sync_progress(1) did not count 1");
    sweep(run_pscw, &v);
    if (vine_shm_sync_progress(-1) != 0 || vine_shm_sync_progress(-5) != 0)
        mt_fail("vine_shm_sync_progress(-1) did not bring the count back to 0");
    MPI_Win_free(&win);
    return mt_finish();
}
