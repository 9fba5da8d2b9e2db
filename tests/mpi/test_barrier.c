/*
 * MPI tier: vine_barrier, every algorithm (and auto), checked through shared
 * memory.  The ranks share a window of one slot per rank.  In each of
 * EPOCHS epochs every rank writes the epoch's number into its slot, then
 * enters the barrier; after it, no slot may hold an older number (a newer
 * one means that rank has left and gone on: epoch numbers only grow).  The
 * ranks enter at staggered moments: in even epochs one rank, a different
 * one each time, sleeps 20 ms before writing; in odd epochs rank r sleeps
 * r * 0.5 ms.  A barrier that let a rank out early would show a stale slot;
 * the sleeps only make that likely, the slots decide.  The same on a split
 * communicator (even and odd ranks apart, each checking its own members'
 * slots) and on MPI_COMM_SELF.  A case is one epoch: its "type" names the
 * communicator and its "count" the epoch.
 */
#include "mpitest.h"

#include <time.h>

enum { EPOCHS = 20 };

static void sleep_us(long us)
{
    struct timespec ts = {us / 1000000, (us % 1000000) * 1000};
    while (nanosleep(&ts, &ts) != 0)
        ;
}

/* The shared slots, slot i for rank i of MPI_COMM_WORLD. */
static volatile int *slots;
static MPI_Win win;

/*
 * Epochs on comm, whose members are the world ranks r with r % stride ==
 * mt_rank % stride.  ids are unique and increasing over the whole run.
 */
static void run(const char *algo, MPI_Comm comm, const char *label, int stride, int *id)
{
    int size, rank;
    MPI_Comm_size(comm, &size);
    MPI_Comm_rank(comm, &rank);
    for (int e = 0; e < EPOCHS; e++) {
        mt_case c = {"barrier", algo, label, "-", e, -1, 0};
        mt_begin(&c);
        int epoch = ++*id;
        if (e % 2 == 0 && rank == (e / 2 + size - 1) % size)
            sleep_us(20000);
        else if (e % 2 == 1)
            sleep_us(500L * rank);
        slots[mt_rank] = epoch;
        MPI_Win_sync(win);
        int rc = vine_barrier(comm);
        MPI_Win_sync(win);
        if (mt_check_rc(rc, "vine_barrier"))
            mt_check_served(VINE_COLL_BARRIER, algo, 1, size > 1);
        for (int r = mt_rank % stride; r < mt_size; r += stride) {
            int v = slots[r];
            if (v < epoch) {
                mt_fail("after the barrier, rank %d's slot holds %d: it has not entered epoch %d",
                        r, v, epoch);
                break;
            }
        }
    }
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "barrier");
    MPI_Comm node, half;
    int node_size, node_rank;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &node_size);
    MPI_Comm_rank(node, &node_rank);
    int one_node = node_size == mt_size && node_rank == mt_rank, all_one;
    MPI_Allreduce(&one_node, &all_one, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (!all_one) {
        mt_case c = {"barrier", "-", "-", "-", 0, -1, 0};
        mt_begin(&c);
        mt_fail("the test needs every rank on one node (shared memory)");
        MPI_Comm_free(&node);
        return mt_finish();
    }
    int *base;
    MPI_Win_allocate_shared(mt_rank == 0 ? (MPI_Aint)sizeof(int) * mt_size : 0, sizeof(int),
                            MPI_INFO_NULL, node, &base, &win);
    MPI_Aint bytes;
    int unit;
    MPI_Win_shared_query(win, 0, &bytes, &unit, &base);
    slots = base;
    MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
    slots[mt_rank] = 0;
    MPI_Win_sync(win);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_sync(win);
    MPI_Comm_split(MPI_COMM_WORLD, mt_rank % 2, mt_rank, &half);
    int id = 0;
    for (int a = 0; a < mt_nalgos(VINE_COLL_BARRIER); a++) {
        const char *algo = mt_algo_at(VINE_COLL_BARRIER, a);
        mt_select(VINE_COLL_BARRIER, algo);
        run(algo, MPI_COMM_WORLD, "world", 1, &id);
        /* The halves run apart; the world barrier above keeps epochs ordered. */
        run(algo, half, "split", 2, &id);
        MPI_Barrier(MPI_COMM_WORLD);
        mt_case c = {"barrier", algo, "self", "-", 0, -1, 0};
        mt_begin(&c);
        mt_check_rc(vine_barrier(MPI_COMM_SELF), "vine_barrier");
    }
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    MPI_Comm_free(&half);
    MPI_Comm_free(&node);
    return mt_finish();
}
