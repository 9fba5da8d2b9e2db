/*
 * The automatic algorithm selector: MPICH's size-keyed decision rules.
 *
 * Source: Thakur, Rabenseifner and Gropp 2005, sections 4.1-4.6 and 5.3 of
 * papers/mpich-collectives.txt.  All cutoffs are in vine__select_cutoffs
 * below; docs/selection.md gives the rules in prose.  The choice is a pure
 * function of (collective, p, payload bytes, commutativity), so every rank of
 * a communicator makes the same one.
 */
#include "select.h"

#include "../coll/ranks.h"

#include <stdint.h>

#define KIB ((size_t)1024)

/* The one table of cutoffs (see select.h for the meaning of each field). */
const vine_select_cutoffs vine__select_cutoffs = {
    .bcast_short = 12 * KIB,
    .bcast_min_p = 8,
    .bcast_long = 512 * KIB,
    .reduce_short = 2 * KIB,
    .allreduce_short = 2 * KIB,
    .allreduce_ring_max_p = 11,
    .allreduce_bb_min = 16 * KIB,
    .allreduce_bb_min_p = 33,
    .reduce_scatter_long = 512 * KIB,
    .allgather_rd_max = 512 * KIB,
    .allgather_bruck_max = 80 * KIB,
    .alltoall_short = 256,
    .alltoall_bruck_min_p = 8,
    .alltoall_medium = 32 * KIB,
};

/* a * b, saturating at SIZE_MAX so that huge payloads still compare as long. */
static size_t mul_sat(size_t a, size_t b)
{
    if (a && b > SIZE_MAX / a)
        return SIZE_MAX;
    return a * b;
}

size_t vine__select_bytes(const vine_args *a, size_t type_size)
{
    switch (a->coll) {
    case VINE_COLL_ALLGATHER:
        return mul_sat(mul_sat(a->count, (size_t)a->p), type_size);
    case VINE_COLL_REDUCE_SCATTER:
    case VINE_COLL_REDUCE_SCATTER_BLOCK:
        if (a->displs)
            return mul_sat(a->displs[a->p], type_size);
        return mul_sat(mul_sat(a->count, (size_t)a->p), type_size);
    default:
        return mul_sat(a->count, type_size);
    }
}

int vine__select_delta_expo_max(int p)
{
    int prev = -1, gap = 0;
    for (int e = 0; e < 31; e++) {
        if (!(p & (1 << e)))
            continue;
        if (prev >= 0 && e - prev > gap)
            gap = e - prev;
        prev = e;
    }
    return gap;
}

const vine_algo *vine__select_default(vine_coll coll)
{
    switch (coll) {
    case VINE_COLL_BCAST:
    case VINE_COLL_REDUCE:
        return vine__algo_find(coll, "binomial");
    case VINE_COLL_ALLREDUCE:
    case VINE_COLL_REDUCE_SCATTER:
    case VINE_COLL_REDUCE_SCATTER_BLOCK:
        return vine__algo_find(coll, "recursive_doubling");
    case VINE_COLL_ALLGATHER:
        return vine__algo_find(coll, "ring");
    case VINE_COLL_ALLTOALL:
        return vine__algo_find(coll, "pairwise");
    case VINE_COLL_GATHER:
    case VINE_COLL_SCATTER:
        return vine__algo_find(coll, "binomial");
    case VINE_COLL_BARRIER:
        return vine__algo_find(coll, "dissemination");
    default:
        return NULL;
    }
}

/* Binomial for short messages or few ranks, else van de Geijn's scatter + allgather. */
static const char *bcast_rule(int p, size_t n)
{
    const vine_select_cutoffs *c = &vine__select_cutoffs;
    if (n < c->bcast_short || p < c->bcast_min_p)
        return "binomial";
    if (n < c->bcast_long && vine__is_pow2(p))
        return "scatter_allgather_rd";
    return "scatter_allgather_ring";
}

static const char *reduce_rule(size_t n, int commutative)
{
    if (!commutative || n <= vine__select_cutoffs.reduce_short)
        return "binomial";
    return "rabenseifner";
}

/*
 * Binary blocks pays off when p is not a power of two, p and n are large and
 * the blocks of p are close in size: delta_expo_max < lg(n)/2 - 2.5, that is
 * n > 2^(2 * delta_expo_max + 5) (section 5.2 of the paper).
 */
static int binary_blocks_fits(int p, size_t n)
{
    const vine_select_cutoffs *c = &vine__select_cutoffs;
    if (vine__is_pow2(p) || p < c->allreduce_bb_min_p || n < c->allreduce_bb_min)
        return 0;
    int shift = 2 * vine__select_delta_expo_max(p) + 5;
    return shift < 63 && n > ((size_t)1 << shift);
}

static const char *allreduce_rule(int p, size_t n, int commutative)
{
    const vine_select_cutoffs *c = &vine__select_cutoffs;
    if (!commutative || n <= c->allreduce_short)
        return "recursive_doubling";
    if (!vine__is_pow2(p) && p <= c->allreduce_ring_max_p)
        return "ring";
    if (binary_blocks_fits(p, n))
        return "binary_blocks";
    return "rabenseifner";
}

static const char *reduce_scatter_rule(size_t n, int commutative)
{
    if (!commutative)
        return "recursive_doubling";
    return n < vine__select_cutoffs.reduce_scatter_long ? "recursive_halving" : "pairwise";
}

static const char *allgather_rule(int p, size_t n)
{
    const vine_select_cutoffs *c = &vine__select_cutoffs;
    if (vine__is_pow2(p) && n < c->allgather_rd_max)
        return "recursive_doubling";
    if (!vine__is_pow2(p) && n < c->allgather_bruck_max)
        return "bruck";
    return "ring";
}

/* n is the bytes of one block (one rank to one rank). */
static const char *alltoall_rule(int p, size_t n)
{
    const vine_select_cutoffs *c = &vine__select_cutoffs;
    if (n <= c->alltoall_short && p >= c->alltoall_bruck_min_p)
        return "bruck";
    if (n <= c->alltoall_medium)
        return "linear";
    return "pairwise";
}

/* The name the decision rules give for a. */
static const char *rule_name(const vine_args *a, size_t n)
{
    switch (a->coll) {
    case VINE_COLL_BCAST:
        return bcast_rule(a->p, n);
    case VINE_COLL_REDUCE:
        return reduce_rule(n, a->commutative);
    case VINE_COLL_ALLREDUCE:
        return allreduce_rule(a->p, n, a->commutative);
    case VINE_COLL_REDUCE_SCATTER:
    case VINE_COLL_REDUCE_SCATTER_BLOCK:
        return reduce_scatter_rule(n, a->commutative);
    case VINE_COLL_ALLGATHER:
        return allgather_rule(a->p, n);
    case VINE_COLL_ALLTOALL:
        return alltoall_rule(a->p, n);
    case VINE_COLL_GATHER:
    case VINE_COLL_SCATTER:
        return "binomial";
    case VINE_COLL_BARRIER:
        return "dissemination";
    default:
        return NULL;
    }
}

const vine_algo *vine__select_auto(const vine_args *a, size_t type_size)
{
    const char *name = rule_name(a, vine__select_bytes(a, type_size));
    if (!name)
        return NULL;
    const vine_algo *algo = vine__algo_find(a->coll, name);
    if (!algo || vine__algo_admits(algo, a) != VINE_OK)
        algo = vine__select_default(a->coll);
    return algo;
}
