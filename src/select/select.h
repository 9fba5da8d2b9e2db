/*
 * The automatic algorithm selector ("auto"), MPI-free.
 *
 * It follows MPICH's decision rules as described by Thakur, Rabenseifner and
 * Gropp 2005 (papers/mpich-collectives.txt, sections 4.1-4.6): the choice
 * depends on the collective, the communicator size p, the payload in bytes
 * and whether the op is commutative.  Every cutoff lives in the table
 * vine__select_cutoffs (select.c); docs/selection.md explains them.
 */
#ifndef VINE_SELECT_H
#define VINE_SELECT_H

#include "../coll/coll.h"

#include <stddef.h>

/* The cutoffs of the auto selector; sizes are payload bytes (see vine__select_bytes). */
typedef struct vine_select_cutoffs {
    size_t bcast_short;         /* bcast: binomial below this many bytes */
    int bcast_min_p;            /* bcast: binomial when p is below this */
    size_t bcast_long;          /* bcast: scatter + ring allgather from here on */
    size_t reduce_short;        /* reduce: binomial up to this many bytes */
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

#endif
