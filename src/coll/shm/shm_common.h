/*
 * Helpers of the shared-memory builders (the shm family, docs/shm.md;
 * operations in sched.h), MPI-free.
 *
 * Rules every shm builder follows:
 *   - A rank writes its region only after WAIT 0 on every other rank (the
 *     entry wait): whatever collective ran before on the communicator, its
 *     readers of this region have finished it.  So no schedule waits at its
 *     end for the readers of its region.
 *   - Data that passes through a region goes in chunks of at most half the
 *     region, in slots (at least two, so that the owner writes chunk c + 1
 *     while readers read chunk c; as many as the region holds); a slot is
 *     written again only after every reader of its previous chunk has said,
 *     with a SET, that it has read it.
 *   - A GET from a peer's SEND or RECV (single copy) follows WAIT 0 on that
 *     peer, and the peer returns only after the reader's SET: user buffers
 *     are never read after their owner has left the call.
 */
#ifndef VINE_SHM_COMMON_H
#define VINE_SHM_COMMON_H

#include "../coll.h"

/*
 * Default chunk caps (vine_args.seg_count overrides both): bytes for the
 * data-movement collectives, elements for the reductions.  A chunk of every
 * rank together stays within a last-level cache on a 16-rank node.
 */
#define VINE_SHM_CHUNK_BYTES ((size_t)65536)
#define VINE_SHM_CHUNK_ELEMS ((size_t)16384)
/*
 * Single copy serves scatter's blocks of at least this many bytes; smaller
 * ones go through regions (a 64 KiB scatter on 16 ranks was 1.3 times the MPI
 * library's time with single copy, 1 MiB 0.16 times).
 */
#define VINE_SHM_SINGLE_MIN ((size_t)256 << 10)
/* Reductions with count * p at most this, within one region, read whole inputs (small path). */
#define VINE_SHM_SMALL_TOTAL ((size_t)4096)
/* Pieces of the reduce_scatter stream hold at least this many elements (or the whole slot). */
#define VINE_SHM_MIN_PIECE ((size_t)64)
/* Fan-in of the barrier's arrival tree. */
#define VINE_SHM_RADIX 8
/*
 * Above this many ranks an eager bcast runs down a tree of radix
 * VINE_SHM_RADIX (each rank's inline slot read by at most that many), not
 * from the root's slot alone (shm_common.c).  A guess: 16 ranks read one
 * line fine (docs/performance.md); larger nodes are not measured.
 */
#define VINE_SHM_BCAST_FLAT 32

/* The most slots a region is cut into (vine_shm_plan). */
#define VINE_SHM_MAX_SLOTS 64

/* How a stream of len elements goes through a region: nchunks chunks in slots. */
typedef struct vine_shm_plan {
    size_t chunk;   /* elements per chunk (the slot size) */
    size_t nchunks; /* ceil(len / chunk); 0 when len is 0 */
    int slots;      /* chunk c lies at (c % slots) * chunk; 1 when the region holds one
                       element, else 2 or up to VINE_SHM_MAX_SLOTS, as many chunks as
                       the region holds */
} vine_shm_plan;

/*
 * Plans a stream of len elements through regions of a->shm_count elements
 * with at most cap elements a chunk (a->seg_count when set), using
 * per_chunk flag values per chunk.  Flag values stay below VINE_SHM_PHASE
 * (phase_sub.h), so that every shm schedule can also be a phase of a
 * composed one.  Returns VINE_ERR_UNSUPPORTED only when even whole slots
 * would need more flag values than that (count above about
 * VINE_SHM_PHASE / per_chunk times half the region).
 */
int vine__shm_plan(const vine_args *a, size_t len, size_t cap, size_t per_chunk, vine_shm_plan *pl);

/* The length of the part of a block of len elements that chunk [lo, lo + chunk) holds. */
size_t vine__shm_piece(size_t len, size_t lo, size_t chunk);

/* The entry wait: WAIT 0 on every other rank, starting after a->rank. */
void vine__shm_enter(const vine_args *a, vine_sched *s);

/* WAIT v on every other rank, starting after a->rank. */
void vine__shm_wait_all(const vine_args *a, vine_sched *s, size_t v);

/*
 * Whether len elements a rank fit a parity or eager slot (a->shm_par_count)
 * and s may use the slots: not as a phase of a composed schedule, whose
 * flags and calls are another schedule's (docs/shm.md, "Parity slots",
 * "Eager slots").
 */
int vine__shm_slot_fits(const vine_args *a, const vine_sched *s, size_t len);

/*
 * Before a rank writes its eager slot: WAIT PREV on every other rank,
 * starting after a->rank (sched.h, "Eager slots").
 */
void vine__shm_enter_eag(const vine_args *a, vine_sched *s);

/* The data-movement collectives, as streams of equal segments (shm_common.c). */
typedef enum vine_shm_move_kind {
    VINE_SHM_BCAST,
    VINE_SHM_GATHER,
    VINE_SHM_SCATTER,
    VINE_SHM_ALLGATHER,
    VINE_SHM_ALLTOALL
} vine_shm_move_kind;

/*
 * Builds collective kind for a->rank (bytes, a->count a block) and finishes
 * s: through the eager slots when a writer's whole stream fits one, through
 * the regions in chunks, or by single copy when a->shm_single and a block
 * holds at least VINE_SHM_SINGLE_MIN bytes.
 */
int vine__shm_move(const vine_args *a, vine_sched *s, vine_shm_move_kind kind);

/*
 * alltoallv and alltoallw shm on p ranks: blocks of at least this many
 * elements go as point-to-point messages (alltoallv_shm.c).
 */
size_t vine__shm_a2av_msg_min(int p);

/* Whether gatherv shm on p ranks sends a block of len elements as a message (gatherv_shm.c). */
int vine__shm_gatherv_message(int p, size_t len);

/*
 * scatterv shm on p ranks with eager slots of par_count elements: the
 * elements of the root's slot for each reader; larger blocks go as
 * messages (scatterv_shm.c).
 */
size_t vine__shm_scatterv_part(int p, size_t par_count);

/* What the reductions leave where (shm_red.c). */
typedef enum vine_shm_red_kind {
    VINE_SHM_RED_ALL,  /* allreduce: the whole result on every rank */
    VINE_SHM_RED_ROOT, /* reduce: the whole result at a->root */
    VINE_SHM_RED_SCAT  /* reduce_scatter: block r of a->counts at rank r */
} vine_shm_red_kind;

/* Builds reduction kind for a->rank, operands in rank order, and finishes s. */
int vine__shm_reduce(const vine_args *a, vine_sched *s, vine_shm_red_kind kind);

#endif
