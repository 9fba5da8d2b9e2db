/*
 * Shared-memory reduce-scatter (and reduce_scatter_block).  The blocks of
 * counts are dealt round-robin into one stream, m elements of each block a
 * round (m = S / p for chunks of S elements, at least VINE_SHM_MIN_PIECE), so
 * that every chunk holds work for all ranks.  Chunk by chunk (slots of at
 * most VINE_SHM_CHUNK_ELEMS or seg_count elements) every rank copies its
 * input of the chunk into its region and SETs 3c + 1; each rank reduces its
 * pieces, reading them in all regions, into its own region's copy (which no
 * other rank reads), copies them to RECV and SETs 3c + 3 for the slot's
 * reuse.  Operands are folded x_{p-1} first, then x_j op (...) down to x_0
 * with dst = src op dst, so non-commutative ops keep rank order.  Issue 18's
 * reduce-scatter on shared memory (shm_red.c).  Restrictions: one node
 * segment (VINE_ALGO_SHM); any p, any counts, any op, MPI_IN_PLACE.  Cost:
 * every rank copies the whole vector (total elements) in, and rank r reduces
 * counts[r] elements of all p regions: total loads plus p counts[r] loads
 * and gamma.
 */
#include "../coll.h"

#include "shm_common.h"

int vine__reduce_scatter_shm_build(const vine_args *a, vine_sched *s)
{
    return vine__shm_reduce(a, s, VINE_SHM_RED_SCAT);
}
