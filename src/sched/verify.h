/*
 * Symbolic verifier (MPI-free).
 *
 * Runs the schedules of all p ranks of a collective without MPI and proves
 * that they are correct under the round semantics of sched.h and the buffer
 * layout contract of coll.h: every range lies inside its buffer, the send
 * buffer is never written, sends and receives match one to one with equal
 * counts, nothing deadlocks under rendezvous semantics, and at the end every
 * result element holds exactly the right contributions (in rank order for a
 * non-commutative op); for a barrier, that no rank finishes before every rank
 * has started.  Shared-memory schedules (sched.h) are also proved free of
 * races: every read of another rank's memory is ordered by flags (or
 * messages) after the write it reads and before the owner's next write, so
 * the result does not depend on timing, over two consecutive calls.  Buffers
 * are tracked as lists of segments, not per element, so p = 1024 with an
 * allgather of 4099 elements per rank is cheap.  docs/verify.md describes the
 * checks and the `vine verify` tool.
 */
#ifndef VINE_VERIFY_H
#define VINE_VERIFY_H

#include "../coll/coll.h"

#include <stddef.h>

/* What the case loops of the tools need to know about a collective. */
typedef struct vine_coll_info {
    int rooted;      /* takes a root argument */
    int has_inplace; /* MPI_IN_PLACE is allowed */
    int reduction;   /* combines the ranks' inputs with an op */
    int vector;      /* uses vine_args.counts and displs (p and p + 1 entries) */
} vine_coll_info;

/*
 * Fills *info for collective c; returns VINE_ERR_UNSUPPORTED when the
 * verifier does not know the collective.
 */
int vine__verify_coll_info(vine_coll c, vine_coll_info *info);

/*
 * Checks the prebuilt schedules of all a->p ranks (scheds[r] is rank r's;
 * a->rank is ignored).  Returns VINE_OK, VINE_ERR_NO_MEM, or
 * VINE_ERR_INTERNAL with a one-line explanation in msg naming the rank, round
 * and operation at fault.  Schedules of the shm family (vine_sched.shm) run
 * twice in a row, as vine__verify_calls with the same case twice.
 */
int vine__verify_scheds(const vine_args *a, vine_sched *scheds, char *msg, size_t msglen);

/* The most calls vine__verify_cases takes. */
#define VINE_VERIFY_MAX_CALLS 8

/*
 * Checks ncalls consecutive calls on one communicator: call c is case
 * args[c] with the schedules scheds[c][0 .. p-1].  Every rank runs its
 * schedules of all calls one after the other, entering a call as soon as it
 * finished the previous one; user buffers and scratch are fresh in each
 * call, shm regions and flags carry over.  Every call's result is checked
 * and no read of shared memory may race with a write, in a call or across
 * calls.  All calls need the same p and shm_count.  Messages name the call
 * ("call 2: rank ...") when ncalls > 1.  Returns as vine__verify_scheds.
 */
int vine__verify_calls(int ncalls, const vine_args *const *args, vine_sched *const *scheds,
                       char *msg, size_t msglen);

/*
 * Builds the schedules of all ranks with vine__algo_build() and checks them.
 * Returns VINE_ERR_UNSUPPORTED (a skip) when the algorithm's restrictions
 * exclude the case; otherwise as vine__verify_scheds().  Frees everything.
 */
int vine__verify_case(const vine_algo *algo, const vine_args *a, char *msg, size_t msglen);

/*
 * Builds the cases (algos[c], args[c]) of ncalls (1 .. VINE_VERIFY_MAX_CALLS)
 * consecutive calls and checks them with vine__verify_calls, e.g. a bcast
 * from root 0 followed by one from root 1, or two counts in turn.
 * VINE_ERR_UNSUPPORTED when some algorithm's restrictions exclude its case.
 */
int vine__verify_cases(int ncalls, const vine_algo *const *algos, const vine_args *args, char *msg,
                       size_t msglen);

/*
 * The irregular receive counts of the reduce_scatter cases:
 * counts[i] = count * ((7 i) mod 5) / 2 (zeros included); displs gets the
 * p + 1 prefix sums.
 */
void vine__verify_rs_counts(int p, size_t count, size_t *counts, size_t *displs);

/*
 * Fills counts (p entries) and displs (p + 1) for a vector collective c:
 * the irregular counts above for reduce_scatter, count for every rank for
 * reduce_scatter_block.  Does nothing for other collectives.
 */
void vine__verify_counts(vine_coll c, int p, size_t count, size_t *counts, size_t *displs);

/*
 * The v collectives' cases (coll.h): how the count is spread over the
 * blocks, with count c and p ranks.
 *   uniform    every block c;
 *   irregular  rank i's block c ((7 i) mod 5) / 2 (zeros included);
 *              alltoallv c ((7 i + 3 j) mod 5) / 2 from rank i to rank j;
 *   zero       every block 0;
 *   one        rank p - 1 holds everything: its block c p, the others 0
 *              (alltoallv: only blocks from or to rank p - 1, c each);
 *   random     random blocks of 0 .. 2c (a fixed seed per case).
 * Blocks lie packed in rank order, or, with gaps, in reversed rank order
 * with a gap of 1 .. 3 elements before each.
 */
enum vine_vdist {
    VINE_VDIST_UNIFORM = 0,
    VINE_VDIST_IRREGULAR,
    VINE_VDIST_ZERO,
    VINE_VDIST_ONE,
    VINE_VDIST_RANDOM,
    VINE_VDIST_COUNT
};
extern const char *const vine__vdist_names[VINE_VDIST_COUNT];

/* The tables of a v collective's case, owned here. */
typedef struct vine_vtables {
    size_t *t[4]; /* scounts, sdispls, rcounts, rdispls */
} vine_vtables;

/*
 * Makes the tables of a->coll for a->p and a->count with distribution dist
 * and layout gaps (0: packed), and points a's table fields (and vstride) at
 * them.  Does nothing for other collectives.  VINE_OK or VINE_ERR_NO_MEM.
 */
int vine__verify_vtables(vine_args *a, int dist, int gaps, vine_vtables *t);
/*
 * The same from any source of blocks: block(ctx, i, j, a2a) is the block of
 * rank i (a2a 0, j 0) or from rank i to rank j (a2a 1).  src/coll/vdist.c
 * uses it for its distributions.
 */
typedef size_t (*vine_vblock_fn)(const void *ctx, int i, int j, int a2a);
int vine__vtables_make(vine_args *a, vine_vblock_fn block, const void *ctx, int gaps,
                       vine_vtables *t);
/* Frees t and clears a's table fields. */
void vine__verify_vtables_free(vine_args *a, vine_vtables *t);
/* Whether a has the tables its v collective needs (alltoallv: full, vstride p). */
int vine__verify_vtables_ok(const vine_args *a);

#endif
