/*
 * Shared-memory gather.  Through the regions: every rank but the root copies
 * its block into its region in chunks (slots, at most
 * VINE_SHM_CHUNK_BYTES or seg_count each) and SETs 2c + 1 for chunk c; the
 * root WAITs for each rank in turn (starting after itself), GETs its chunk
 * into RECV, and SETs 2c + 2 once it has read chunk c of all, which each
 * rank WAITs for before it reuses the slot.  No single copy: it was slower
 * than the regions on 16 ranks (shm_common.c).  Direct reads of issue 18
 * (shm_common.c).  Restrictions: one node segment (VINE_ALGO_SHM); any p,
 * any root, any count, MPI_IN_PLACE at the root.  Cost: every rank copies n
 * bytes in, the root (p - 1) n out.
 * A stream that fits an eager slot (vine_args.shm_par_count elements) goes
 * through the eager slots instead, in one piece, after WAIT PREV rather than
 * the entry wait (shm_common.c, docs/shm.md "Eager slots").
 */
#include "../coll.h"

#include "shm_common.h"

int vine__gather_shm_build(const vine_args *a, vine_sched *s)
{
    return vine__shm_move(a, s, VINE_SHM_GATHER);
}
