/*
 * Shared-memory allgather.  Through the regions: every rank copies its block
 * into its region in chunks (slots, at most VINE_SHM_CHUNK_BYTES or
 * seg_count each) and SETs 2c + 1 for chunk c, then WAITs for chunk c of
 * every other rank (starting after itself, so readers spread over the
 * regions), GETs it into its place in RECV and SETs 2c + 2; a rank writes a
 * slot again only after every rank's SET for its previous chunk.  No single
 * copy: it was slower than the regions on 16 ranks (shm_common.c).  Direct
 * reads of issue 18 (shm_common.c).  Restrictions: one node segment
 * (VINE_ALGO_SHM); any p, any count, MPI_IN_PLACE.  Cost: every rank copies
 * n bytes in and (p - 1) n out.
 * A stream that fits an eager slot (vine_args.shm_par_count elements) goes
 * through the eager slots instead, in one piece, after WAIT PREV rather than
 * the entry wait (shm_common.c, docs/shm.md "Eager slots").
 */
#include "../coll.h"

#include "shm_common.h"

int vine__allgather_shm_build(const vine_args *a, vine_sched *s)
{
    return vine__shm_move(a, s, VINE_SHM_ALLGATHER);
}
