/*
 * Shared-memory scatter.  Through the regions: the root's blocks for ranks
 * root + 1, root + 2, ... (mod p) form one stream of (p - 1) n bytes, which
 * the root copies into its region in chunks (slots, at most
 * VINE_SHM_CHUNK_BYTES or seg_count each), SETting 2c + 1 for chunk c; each
 * rank WAITs for the chunks that hold part of its block, GETs that part and
 * SETs 2c + 2, which the root WAITs for before it reuses the slot.  Single
 * copy (shm_single, blocks of at least VINE_SHM_SINGLE_MIN bytes): every rank
 * GETs its block from the root's SEND after the root's WAIT 0 and SETs 1;
 * the root leaves after all SETs.  Direct reads of issue 18 (shm_common.c).
 * Restrictions: one node segment (VINE_ALGO_SHM); any p, any root, any
 * count, MPI_IN_PLACE at the root.  Cost: the root copies (p - 1) n bytes in,
 * every rank n out, in parallel; single copy: n per rank.
 * A stream that fits an eager slot (vine_args.shm_par_count elements) goes
 * through the eager slots instead, in one piece, after WAIT PREV rather than
 * the entry wait (shm_common.c, docs/shm.md "Eager slots").
 */
#include "../coll.h"

#include "shm_common.h"

int vine__scatter_shm_build(const vine_args *a, vine_sched *s)
{
    return vine__shm_move(a, s, VINE_SHM_SCATTER);
}
