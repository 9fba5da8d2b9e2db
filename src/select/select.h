/*
 * The automatic algorithm selector ("auto"), MPI-free.
 *
 * It follows MPICH's decision rules as described by Thakur, Rabenseifner and
 * Gropp 2005 (papers/mpich-collectives.txt, sections 4.1-4.6): the choice
 * depends on the collective, the communicator size p, the payload in bytes
 * and whether the op is commutative.  Every cutoff lives in the table
 * vine__select_cutoffs (select.c); docs/selection.md explains them.
 *
 * On a communicator whose level map carries locality (vine_args.levels ready
 * and not flat) the rules give way to the multi-level cost model of cost.h:
 * auto takes the cheapest admitted candidate by the model, for the
 * collectives the model covers (bcast, reduce, allreduce, allgather, gather,
 * scatter).  The choice stays a pure function of the arguments and the
 * parameter set, so every rank that holds the same parameters chooses alike.
 */
#ifndef VINE_SELECT_H
#define VINE_SELECT_H

#include "../coll/coll.h"
#include "cost.h"
#include "tuning.h"

#include <stddef.h>

/* The cutoffs of the auto selector; sizes are payload bytes (see vine__select_bytes). */
typedef struct vine_select_cutoffs {
    size_t bcast_short;         /* bcast: binomial below this many bytes */
    int bcast_min_p;            /* bcast: binomial when p is below this */
    size_t bcast_long;          /* bcast: bine_large from here on (and for other p) */
    size_t reduce_short;        /* reduce: binomial up to this many bytes */
    size_t reduce_pair_long;    /* reduce on 2 ranks: binomial below this (vine's own) */
    size_t allreduce_short;     /* allreduce: recursive doubling up to this */
    int allreduce_ring_max_p;   /* allreduce: ring for non-power-of-two p up to this */
    size_t allreduce_bb_min;    /* allreduce: binary blocks from this many bytes */
    int allreduce_bb_min_p;     /* allreduce: binary blocks from this p on */
    size_t reduce_scatter_long; /* reduce_scatter: pairwise from here on */
    size_t allgather_rd_max;    /* allgather: recursive doubling below this (p = 2^k) */
    size_t allgather_bruck_max; /* allgather: Bruck below this (other p) */
    size_t alltoall_short;      /* alltoall: Bruck up to this many bytes per block */
    int alltoall_bruck_min_p;   /* alltoall: Bruck only from this p on */
    size_t alltoall_medium;     /* alltoall: linear up to this, pairwise above */
} vine_select_cutoffs;

extern const vine_select_cutoffs vine__select_cutoffs;

/*
 * Where the rules hand a call to the collective's shm algorithm when it is
 * admitted (all ranks on one node segment, docs/shm.md): payloads (as
 * vine__select_bytes counts them) in [min, max] of either of two ranges per
 * collective; min > max means none.  vine__select_shm: measured on 16 ranks
 * of one node (docs/performance.md, issue 18), for every size but 2;
 * vine__select_shm_pair: measured on 2 ranks, for communicators of 2.
 */
typedef struct vine_select_shm_range {
    size_t min, max;
} vine_select_shm_range;

#define VINE_SELECT_SHM_RANGES 2
extern const vine_select_shm_range vine__select_shm[VINE_COLL_COUNT][VINE_SELECT_SHM_RANGES];
extern const vine_select_shm_range vine__select_shm_pair[VINE_COLL_COUNT][VINE_SELECT_SHM_RANGES];

/* The ranges above for coll on p ranks (coll < VINE_COLL_COUNT). */
const vine_select_shm_range *vine__select_shm_ranges(vine_coll coll, int p);

/*
 * The payload the selector compares with the cutoffs: count * type_size for
 * bcast, reduce and allreduce; the gathered total p * count * type_size for
 * allgather; the full input vector (displs[p], or p * count when displs is
 * NULL) times type_size for reduce_scatter and reduce_scatter_block; one
 * block, count * type_size, for alltoall, gather and scatter (MPICH's
 * alltoall cutoffs are per message).
 */
size_t vine__select_bytes(const vine_args *a, size_t type_size);

/* The largest gap between successive set bits of p (0 for a power of two). */
int vine__select_delta_expo_max(int p);

/* The algorithm that supports every p and every op: the last resort of coll. */
const vine_algo *vine__select_default(vine_coll coll);

/*
 * The automatic choice for a; never an algorithm whose restrictions exclude
 * a (then the collective's default).  NULL only for an unknown collective.
 */
const vine_algo *vine__select_auto(const vine_args *a, size_t type_size);

/*
 * The tuning table auto consults before the cost model and the rules (not
 * copied: it must outlive every later choice); NULL: none.
 */
void vine__select_set_tuning(const vine_tuning *t);

/*
 * auto's choice as vine__select_auto makes it, and *segment (may be NULL):
 * the segment size in bytes of the tuning range that chose it, 0 when no
 * range did or the range names none.
 */
const vine_algo *vine__select_auto_seg(const vine_args *a, size_t type_size, size_t *segment);

/*
 * Sets the cost model's parameters for every later choice (copied); NULL
 * restores the built-in defaults (vine__cost_defaults).
 */
void vine__select_set_cost(const vine_cost *c);
/* The parameters in use. */
const vine_cost *vine__select_get_cost(void);

/*
 * The parameters auto prices shm with against the rules on one node: VINE_COST_FILE's
 * when they give "shm", else the tuning file's model's when it gives "shm"; NULL when
 * neither does, and vine__select_shm's measured ranges decide (docs/selection.md).
 */
const vine_cost *vine__select_shm_model(void);

#define VINE_SELECT_CANDIDATES_MAX 16

/* Why auto chose what it chose: every candidate the model looked at. */
typedef struct vine_select_why {
    int by_model; /* 1: the cost model chose; 0: the MPICH rules (or the tuning table) did */
    /* The tuning range that chose (by_model 0 then), or NULL. */
    const vine_tune_range *tuned;
    int n; /* candidates (registered algorithms the model covers) */
    struct {
        const vine_algo *algo;
        int admitted; /* its restrictions admit the call */
        int priced;   /* the model gave it a cost */
        double cost;  /* seconds, when admitted and priced */
    } cand[VINE_SELECT_CANDIDATES_MAX];
    const vine_algo *chosen; /* what vine__select_auto returns */
} vine_select_why;

/*
 * Fills *why for a and returns the same choice as vine__select_auto.  The
 * candidates are listed (with their costs) whenever the collective has some,
 * even when the map is flat and the rules choose.
 */
const vine_algo *vine__select_explain(const vine_args *a, size_t type_size, vine_select_why *why);

#endif
