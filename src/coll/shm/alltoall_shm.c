/*
 * Shared-memory alltoall.  Through the regions: rank w's blocks for ranks
 * w + 1, w + 2, ... (mod p) form a stream of (p - 1) n bytes, which it copies
 * into its region in chunks (slots, at most VINE_SHM_CHUNK_BYTES or
 * seg_count each), SETting 2c + 1 for chunk c; each rank then WAITs for the
 * writers whose chunk c holds part of its block, GETs it and SETs 2c + 2,
 * which a writer WAITs for before it reuses the slot.  Since every stream
 * starts after its writer, in any chunk the ranks read from different
 * writers.  No single copy: it was slower than the regions on 16 ranks
 * (shm_common.c).  Direct reads of issue 18 (shm_common.c).  Restrictions:
 * one node segment (VINE_ALGO_SHM); any p, any count.  Cost: every rank
 * copies (p - 1) n bytes in and (p - 1) n out.
 * A stream that fits an eager slot (vine_args.shm_par_count elements) goes
 * through the eager slots instead, in one piece, after WAIT PREV rather than
 * the entry wait (shm_common.c, docs/shm.md "Eager slots").
 */
#include "../coll.h"

#include "shm_common.h"

int vine__alltoall_shm_build(const vine_args *a, vine_sched *s)
{
    return vine__shm_move(a, s, VINE_SHM_ALLTOALL);
}
