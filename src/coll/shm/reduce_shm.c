/*
 * Shared-memory reduce.  Small vectors (count p <= VINE_SHM_SMALL_TOTAL
 * within one region): every rank but the root copies its input into its
 * region (its eager slot, after WAIT PREV instead of the entry wait, when
 * the vector fits one: docs/shm.md "Eager slots") and SETs 1; the root folds
 * all p inputs into RECV.  Otherwise a
 * reduce-scatter on shared memory chunk by chunk (slots of at most
 * VINE_SHM_CHUNK_ELEMS or seg_count elements), as allreduce shm: rank j
 * reduces part j of each chunk from all regions into its region and SETs
 * 3c + 2, and only the root GETs the parts into RECV.  Operands are folded
 * x_{p-1} first, then x_j op (...) down to x_0 with dst = src op dst, so
 * non-commutative ops keep rank order.  The scheme of issue 18 (shm_red.c).
 * Restrictions: one node segment (VINE_ALGO_SHM); any p, any root, any op,
 * any count, MPI_IN_PLACE at the root.  Cost: every rank copies n in and
 * reduces (p - 1) n / p read from peers; the root copies n out; small path:
 * the root reads and reduces (p - 1) n.
 */
#include "../coll.h"

#include "shm_common.h"

int vine__reduce_shm_build(const vine_args *a, vine_sched *s)
{
    return vine__shm_reduce(a, s, VINE_SHM_RED_ROOT);
}
