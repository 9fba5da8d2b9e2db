/*
 * Shared-memory allreduce.  Small vectors (count p <= VINE_SHM_SMALL_TOTAL
 * within one region): every rank copies its input into its region and SETs
 * 1, then folds all p inputs into RECV.  Otherwise a reduce-scatter and an
 * allgather on shared memory, chunk by chunk (slots of at most
 * VINE_SHM_CHUNK_ELEMS or seg_count elements): every rank copies its chunk
 * in and SETs 3c + 1; rank j reduces part j of the chunk, reading it in all
 * regions, into its own region's copy of part j (which no other rank reads),
 * and SETs 3c + 2; every rank GETs the other parts into RECV and SETs 3c + 3
 * for the slot's reuse.  Operands are folded x_{p-1} first, then x_j op (...)
 * down to x_0 with dst = src op dst, so non-commutative ops keep rank order.
 * The scheme of issue 18 (xhc, MPICH's shared-memory reduce; shm_red.c).
 * Restrictions: one node segment (VINE_ALGO_SHM); any p, any op, any count,
 * MPI_IN_PLACE.  Cost: every rank copies n in, reduces (p - 1) n / p read
 * from peers and copies n out: about 3n loads and n (p - 1) / p gamma;
 * small path: (p - 1) n loads and gamma per rank, one flag hand-off.
 */
#include "../coll.h"

#include "shm_common.h"

int vine__allreduce_shm_build(const vine_args *a, vine_sched *s)
{
    return vine__shm_reduce(a, s, VINE_SHM_RED_ALL);
}
