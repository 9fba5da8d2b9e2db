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
 * collective's result.  Every algorithm of barrier and bcast (root 0), and
 * auto; a case's count is the round.
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
    static const vine_coll colls[] = {VINE_COLL_BARRIER, VINE_COLL_BCAST};
    for (int k = 0; k < 2; k++)
        for (int a = 0; a < mt_nalgos(colls[k]); a++) {
            const char *algo = mt_algo_at(colls[k], a);
            mt_select(colls[k], algo);
            for (int round = 0; round < ROUNDS; round++)
                run(colls[k], algo, round, &v);
        }
    MPI_Win_free(&win);
    return mt_finish();
}
