/*
 * Shared-memory broadcast.  Through the regions: the root copies RECV into
 * its region in chunks (slots of at most half the region, at most
 * VINE_SHM_CHUNK_BYTES or seg_count each) and SETs 2c + 1 for chunk c; every
 * other rank WAITs for it and GETs the chunk into its RECV, then SETs 2c + 2,
 * which the root WAITs for before it writes that slot again, so copy-in of
 * chunk c + 1 overlaps the reads of chunk c.  No single copy: p - 1 ranks
 * reading the same pages of the root with process_vm_readv contend in the
 * kernel and were 10 times slower than the regions on 16 ranks (issue 18's
 * measurements, docs/performance.md).  The release broadcast of MPICH's and Open MPI's
 * shared-memory collectives (issue 18), written as a schedule (shm_common.c). Restrictions: one
 * node segment (VINE_ALGO_SHM); any p, any root, any count. Cost: the root copies n bytes in, every
 * other rank n out; latency two chunk copies plus one flag hand-off per chunk.
 * A stream that fits an eager slot (vine_args.shm_par_count elements) goes
 * through the eager slots instead, in one piece, after WAIT PREV rather than
 * the entry wait (shm_common.c, docs/shm.md "Eager slots").
 */
#include "../coll.h"

#include "shm_common.h"

int vine__bcast_shm_build(const vine_args *a, vine_sched *s)
{
    return vine__shm_move(a, s, VINE_SHM_BCAST);
}
