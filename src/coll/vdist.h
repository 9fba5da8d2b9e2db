/*
 * Count distributions of the v collectives (MPI-free): a spec such as
 * "zipf:1024,1.1" turned into the block sizes, and into the tables of a
 * vine_args (coll.h), for the tools that run v collectives without a real
 * application: `vine sim traffic --dist`, `vine-bench coll --dist`.
 * docs/sim.md describes the syntax for users.
 *
 * A block is what one rank contributes (allgatherv, gatherv: rank i's
 * input; scatterv: what rank i gets from the root), or for alltoallv and
 * alltoallw (a2a = 1) what rank i sends to rank j.  Sizes are in elements
 * (bytes for the data-movement collectives).  p ranks:
 *
 *   uniform:N        every block N.
 *   skew:N,F         rank 0's block F N (F an integer >= 1), the others N;
 *                    a2a: every block rank 0 sends is F N, the others N.
 *   zipf:N,S         rank k's block round(N p (k + 1)^-S / H_p), with
 *                    H_p = sum_{m=1..p} m^-S (S >= 0 a real number), so
 *                    rank 0's is the largest and the blocks add up to
 *                    N p, give or take the rounding (at most p / 2).
 *                    S = 0 is uniform:N.  a2a: block i -> j is that of
 *                    k = (i - j) mod p, so every rank receives (and sends)
 *                    about N p, the most from itself and then from the
 *                    ranks just above it.
 *   random:N,SEED    every block drawn uniformly from 0 .. 2N (mean N) by
 *                    a hash of (SEED, i, j): the same spec gives the same
 *                    blocks, whatever p (j = 0 unless a2a).
 *   file:PATH        the blocks listed in a file: whitespace-separated
 *                    non-negative integers, '#' starts a comment that runs
 *                    to the end of the line.  p numbers: rank i's block,
 *                    and for a2a every block rank i sends (the same to
 *                    every j, as skew does); p * p numbers (a2a only):
 *                    block i -> j is number i p + j, row by row.
 *
 * N and the file's numbers are at most 2^50, F N too, SEED below 2^64.
 */
#ifndef VINE_VDIST_H
#define VINE_VDIST_H

#include "../sched/verify.h"
#include "coll.h"

#include <stddef.h>
#include <stdint.h>

/* The kinds of vine_vdist.kind. */
enum vine_vdist_kind {
    VINE_VD_UNIFORM = 0,
    VINE_VD_SKEW,
    VINE_VD_ZIPF,
    VINE_VD_RANDOM,
    VINE_VD_FILE
};

/*
 * A parsed spec.  (The tag is not vine_vdist: verify.h has an enum of that
 * name, and C's tags share one name space.)
 */
typedef struct vine_vdist_spec {
    int kind;      /* enum vine_vdist_kind */
    size_t n;      /* N: the base block (0 for file) */
    double s;      /* zipf: the exponent S */
    size_t *table; /* file: its numbers, in file order (malloc'd) */
    size_t ntable; /* file: how many */
    int square;    /* file: ntable is k * k for some k >= 2 (a p x p table for p = k) */
    size_t f;      /* skew: the factor F */
    uint64_t seed; /* random: SEED */
    int zipf_p;    /* zipf: the p whose H_p zipf_h holds (vine__vdist_prepare), 0: none */
    double zipf_h;
} vine_vdist;

/*
 * Parses spec into *d (which then owns its table: vine__vdist_free).
 * VINE_OK; VINE_ERR_UNSUPPORTED with one line in err for a malformed spec or
 * file (naming the file and line); VINE_ERR_NO_MEM.  *d is empty on failure.
 */
int vine__vdist_parse(const char *spec, vine_vdist *d, char *err, size_t errlen);

/*
 * Whether d gives blocks for p ranks (a2a 1: alltoallv and alltoallw):
 * VINE_OK, or VINE_ERR_UNSUPPORTED with one line in err when a file has
 * neither p numbers nor (a2a) p * p, or when a row of p blocks would pass
 * 2^60 elements.  Call it before vine__vdist_block.
 */
int vine__vdist_check(const vine_vdist *d, int p, int a2a, char *err, size_t errlen);

/*
 * The block of rank i (a2a 0; j ignored) or from rank i to rank j (a2a 1),
 * for p ranks that vine__vdist_check admitted (0 otherwise).  zipf costs
 * O(p) per call (the normaliser H_p) unless vine__vdist_prepare(d, p) ran;
 * vine__vdist_tables computes it once itself.
 */
size_t vine__vdist_block(const vine_vdist *d, int p, int i, int j, int a2a);

/* Makes vine__vdist_block O(1) for p ranks (zipf: keeps H_p in d); optional. */
void vine__vdist_prepare(vine_vdist *d, int p);

/*
 * Makes the tables of a->coll, a v collective, for a->p ranks from d, packed
 * in rank order without gaps, and points a's table fields (and vstride) at
 * them, as vine__verify_vtables does: allgatherv and gatherv rcounts and
 * rdispls (rank i's block), scatterv scounts and sdispls, alltoallv and
 * alltoallw all four as p x p tables (row r is rank r's, vstride p:
 * scounts[i p + j] = rcounts[j p + i] = block i -> j).  Does nothing for
 * other collectives.  t owns the tables: free them with
 * vine__verify_vtables_free(a, t).  VINE_OK; VINE_ERR_UNSUPPORTED when
 * vine__vdist_check refuses p; VINE_ERR_NO_MEM (also for p x p tables of
 * more than 2^26 entries, p > 8192, which no simulation could hold).
 */
int vine__vdist_tables(const vine_vdist *d, vine_args *a, vine_vtables *t);

/* Frees d's table and empties d. */
void vine__vdist_free(vine_vdist *d);

#endif
