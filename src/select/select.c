/*
 * The automatic algorithm selector: MPICH's size-keyed decision rules.
 *
 * Source: Thakur, Rabenseifner and Gropp 2005, sections 4.1-4.6 and 5.3 of
 * papers/mpich-collectives.txt.  All cutoffs are in vine__select_cutoffs
 * below; docs/selection.md gives the rules in prose.  The choice is a pure
 * function of (collective, p, payload bytes, commutativity), so every rank of
 * a communicator makes the same one.  On a level map with locality the
 * cheapest candidate by the cost model (cost.h) is taken instead; that
 * choice reads the map and the root but never the caller's rank.  A tuning
 * table (tuning.h, measured by vine-tune) outranks both where it has a rule.
 */
#include "select.h"

#include "../coll/ranks.h"

#include <stdint.h>
#include <string.h>

#define KIB ((size_t)1024)
#define MIB (KIB * KIB)

/* The one table of cutoffs (see select.h for the meaning of each field). */
const vine_select_cutoffs vine__select_cutoffs = {
    .bcast_short = 12 * KIB,
    .bcast_min_p = 8,
    .bcast_long = 512 * KIB,
    .reduce_short = 2 * KIB,
    .reduce_pair_long = 1 * MIB,
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

/* The sum of the p entries of t (0 without t), saturating. */
static size_t table_sum(const size_t *t, int p)
{
    size_t n = 0;
    for (int i = 0; t && i < p; i++)
        n = n + t[i] < n ? SIZE_MAX : n + t[i];
    return n;
}

/*
 * Collectives whose choice may not depend on the size: a rank knows only
 * its own rows of alltoallv's and alltoallw's tables, and a non-root of
 * gatherv and scatterv only its own block, so a choice by size could
 * differ between ranks.
 */
static int size_free(vine_coll coll)
{
    return coll == VINE_COLL_ALLTOALLV || coll == VINE_COLL_ALLTOALLW ||
           coll == VINE_COLL_GATHERV || coll == VINE_COLL_SCATTERV;
}

size_t vine__select_bytes(const vine_args *a, size_t type_size)
{
    if (size_free(a->coll))
        return 0;
    switch (a->coll) {
    case VINE_COLL_ALLGATHERV:
        return mul_sat(table_sum(a->rcounts, a->p), type_size);
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
    case VINE_COLL_ALLGATHERV:
        return vine__algo_find(coll, "ring");
    case VINE_COLL_ALLTOALLV:
    case VINE_COLL_ALLTOALLW:
    case VINE_COLL_GATHERV:
    case VINE_COLL_SCATTERV:
        return vine__algo_find(coll, "linear");
    case VINE_COLL_SCAN:
    case VINE_COLL_EXSCAN:
        return vine__algo_find(coll, "recursive_doubling");
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
    /*
     * MPICH takes the scatter + ring allgather here; its p - 1 latency-bound
     * steps lost to bine_large everywhere vine measured both: on 16 ranks of
     * one node (1 MiB: 0.91 of the MPI library's time against 0.73, 16 MiB:
     * 0.82 against 0.75) and under SimGrid on a Dragonfly (256 ranks, 1 MiB:
     * 2398 us against 695; 200 ranks, 16 KiB: 1744 against 130).
     */
    return "bine_large";
}

/*
 * MPICH's rule, but on 2 ranks binomial (one message, reduced at the root)
 * up to reduce_pair_long, where Rabenseifner's halves take two messages in
 * turn: on 2 ranks of the development machine binomial took 0.76-1.08 of
 * the MPI library's time from 2 to 512 KiB, Rabenseifner 1.2-3.6, which won
 * from 1 MiB (0.79-0.90; docs/performance.md, "Shared memory on 2 ranks").
 */
static const char *reduce_rule(int p, size_t n, int commutative)
{
    const vine_select_cutoffs *c = &vine__select_cutoffs;
    if (!commutative || n <= c->reduce_short || (p == 2 && n < c->reduce_pair_long))
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

/* allgatherv whose largest block is more than twice the mean (halves rounded down). */
static int skewed(const vine_args *a)
{
    if (a->coll != VINE_COLL_ALLGATHERV || !a->rcounts || a->p < 1)
        return 0;
    size_t sum = table_sum(a->rcounts, a->p), max = 0;
    for (int i = 0; i < a->p; i++)
        max = a->rcounts[i] > max ? a->rcounts[i] : max;
    return max / 2 > sum / (size_t)a->p;
}

/*
 * allgatherv: allgather's rule on the bytes of all blocks, but where it
 * takes the ring and the largest block is more than twice the mean, Bine
 * block by block.  Every step of the ring waits for the largest block; on 16
 * ranks of one machine, with blocks drawn from Zipf (s 1.2) or one rank's 10
 * times the others', the ring took 1.8-2.3 times bine_block's time from a
 * mean block of 64 KiB (docs/performance.md, issue 20).  Every rank holds
 * the whole table, so all choose alike.
 */
static const char *allgatherv_rule(const vine_args *a, size_t n)
{
    const char *name = allgather_rule(a->p, n);
    return strcmp(name, "ring") == 0 && skewed(a) ? "bine_block" : name;
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
        return reduce_rule(a->p, n, a->commutative);
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
    case VINE_COLL_ALLGATHERV:
        return allgatherv_rule(a, n);
    default:
        /*
         * MPICH's defaults: scattered (linear) alltoallv and alltoallw,
         * linear gatherv and scatterv (a rank other than the root does not
         * know the sizes, so every rank must choose without them), recursive
         * doubling for the scans.
         */
        return vine__select_default(a->coll) ? vine__select_default(a->coll)->name : NULL;
    }
}

/*
 * From vine-bench sweeps of mpi, shm and the point-to-point rules on 16
 * ranks of one node (docs/measurements/2026-11-26-shm-np16): shm where it
 * was the fastest.  Below 1 KiB the binomial reduce was faster (8 B: 0.92 of
 * the MPI library's time against 1.15); the reduce-scatters lose from 32 KiB
 * of vector on (every rank copies the whole vector into its region, where
 * recursive halving sends n (p - 1) / p), reduce_scatter_block also below
 * 2 KiB.  At 32 KiB scatter shm lost to the MPI library (1.21) but less
 * than binomial (1.63).  {1, 0}: no second range.
 */
const vine_select_shm_range vine__select_shm[VINE_COLL_COUNT][VINE_SELECT_SHM_RANGES] = {
    [VINE_COLL_BCAST] = {{0, SIZE_MAX}, {1, 0}},
    [VINE_COLL_REDUCE] = {{1 * KIB, SIZE_MAX}, {1, 0}},
    [VINE_COLL_ALLREDUCE] = {{0, SIZE_MAX}, {1, 0}},
    [VINE_COLL_ALLGATHER] = {{0, SIZE_MAX}, {1, 0}},
    [VINE_COLL_REDUCE_SCATTER] = {{0, 16 * KIB}, {1, 0}},
    [VINE_COLL_REDUCE_SCATTER_BLOCK] = {{2 * KIB, 16 * KIB}, {1, 0}},
    [VINE_COLL_ALLTOALL] = {{0, SIZE_MAX}, {1, 0}},
    [VINE_COLL_GATHER] = {{0, SIZE_MAX}, {1, 0}},
    [VINE_COLL_SCATTER] = {{0, SIZE_MAX}, {1, 0}},
    [VINE_COLL_BARRIER] = {{0, SIZE_MAX}, {1, 0}},
    /* allgatherv and gatherv shm run allgather and gather shm's schedules (with equal
     * blocks the same copies and flags; on 2 ranks within the runs' spread of their
     * time): their ranges, not measured on 16 ranks.  scatterv shm sends what does not
     * fit its part of the eager slot as scatterv linear does: every size.  alltoallv and
     * alltoallw shm run alltoall shm's protocol per pair, blocks from 256 KiB as
     * messages: alltoall's range, not measured on 16 ranks.  The payload of alltoallv,
     * alltoallw, gatherv and scatterv counts as 0 (size_free): one range for all sizes.
     * No shm algorithm (yet) for the scans. */
    [VINE_COLL_ALLGATHERV] = {{0, SIZE_MAX}, {1, 0}},
    [VINE_COLL_ALLTOALLV] = {{0, SIZE_MAX}, {1, 0}},
    [VINE_COLL_ALLTOALLW] = {{0, SIZE_MAX}, {1, 0}},
    [VINE_COLL_GATHERV] = {{0, SIZE_MAX}, {1, 0}},
    [VINE_COLL_SCATTERV] = {{0, SIZE_MAX}, {1, 0}},
    [VINE_COLL_SCAN] = {{1, 0}, {1, 0}},
    [VINE_COLL_EXSCAN] = {{1, 0}, {1, 0}},
};

/*
 * On 2 ranks the library's collective is one message, which Open MPI
 * copies once (cross-memory attach), where the regions copy twice: shm lost
 * from 8-16 KiB on (up to 512 KiB for bcast and reduce, 256 KiB for gather,
 * 64 KiB for scatter, at every larger size for allgather and alltoall),
 * where the 16 ranks of the table above, whose collectives are trees and
 * exchanges of many messages, favoured shm at every size.  From vine-bench
 * sweeps of shm, the MPI library and the rules' choice (VINE_SHM=0) on 2
 * ranks of the 2-core development machine, three runs each
 * (docs/performance.md, "Shared memory on 2 ranks"): shm where it was
 * faster than the rules' choice in all three (reduce: than binomial, the
 * 2-rank rule below 1 MiB).  The v collectives as in the table above;
 * alltoallv, alltoallw, gatherv and scatterv choose without sizes.
 */
const vine_select_shm_range vine__select_shm_pair[VINE_COLL_COUNT][VINE_SELECT_SHM_RANGES] = {
    [VINE_COLL_BCAST] = {{0, 4 * KIB}, {2 * MIB, SIZE_MAX}},
    [VINE_COLL_REDUCE] = {{0, 4 * KIB}, {1, 0}},
    [VINE_COLL_ALLREDUCE] = {{0, 32 * KIB}, {1, 0}},
    [VINE_COLL_ALLGATHER] = {{0, 16 * KIB}, {1, 0}},
    [VINE_COLL_REDUCE_SCATTER] = {{0, 16 * KIB}, {1, 0}},
    [VINE_COLL_REDUCE_SCATTER_BLOCK] = {{0, 16 * KIB}, {1, 0}},
    [VINE_COLL_ALLTOALL] = {{0, 8 * KIB}, {1, 0}},
    [VINE_COLL_GATHER] = {{0, 4 * KIB}, {512 * KIB, SIZE_MAX}},
    [VINE_COLL_SCATTER] = {{0, 4 * KIB}, {256 * KIB, SIZE_MAX}},
    [VINE_COLL_BARRIER] = {{0, SIZE_MAX}, {1, 0}},
    [VINE_COLL_ALLGATHERV] = {{0, 16 * KIB}, {1, 0}},
    [VINE_COLL_ALLTOALLV] = {{0, SIZE_MAX}, {1, 0}},
    [VINE_COLL_ALLTOALLW] = {{0, SIZE_MAX}, {1, 0}},
    [VINE_COLL_GATHERV] = {{0, SIZE_MAX}, {1, 0}},
    [VINE_COLL_SCATTERV] = {{0, SIZE_MAX}, {1, 0}},
    [VINE_COLL_SCAN] = {{1, 0}, {1, 0}},
    [VINE_COLL_EXSCAN] = {{1, 0}, {1, 0}},
};

const vine_select_shm_range *vine__select_shm_ranges(vine_coll coll, int p)
{
    return p == 2 ? vine__select_shm_pair[coll] : vine__select_shm[coll];
}

/* Whether the measured ranges for a's size give its payload to shm. */
static int in_shm_ranges(const vine_args *a, size_t bytes)
{
    const vine_select_shm_range *r = vine__select_shm_ranges(a->coll, a->p);
    int in = 0;
    for (int k = 0; k < VINE_SELECT_SHM_RANGES; k++)
        in |= bytes >= r[k].min && bytes <= r[k].max;
    return in;
}

/* The MPICH rules' choice, or the default when the rule's algorithm is excluded. */
static const vine_algo *rule_choice(const vine_args *a, size_t bytes)
{
    const char *name = rule_name(a, bytes);
    if (!name)
        return NULL;
    const vine_algo *algo = vine__algo_find(a->coll, name);
    if (!algo || vine__algo_admits(algo, a) != VINE_OK)
        algo = vine__select_default(a->coll);
    return algo;
}

static vine_cost cost_params;
static int cost_params_set;
static const vine_tuning *tuning;

/*
 * The parameters that price shm against the rules on one node: those of
 * VINE_COST_FILE when it gives "shm", else the tuning file's fitted model
 * when that gives "shm"; NULL when neither does (the measured ranges
 * decide).
 */
const vine_cost *vine__select_shm_model(void)
{
    const vine_cost *c = vine__select_get_cost();
    if (c->shm_given)
        return c;
    if (tuning && tuning->model.present && tuning->model.cost.shm_given)
        return &tuning->model.cost;
    return NULL;
}

/*
 * 1 when the model prices shm below the rules' choice rule, 0 when not, -1
 * when it cannot tell (no shm parameters, or no formula for rule).  Both
 * on one node: the rule's messages all of class 0.
 */
static int shm_by_model(const vine_args *a, size_t type_size, const vine_algo *shm,
                        const vine_algo *rule)
{
    const vine_cost *c = vine__select_shm_model();
    double ts, tr;
    if (!c || vine__cost_algo(c, shm, a, type_size, &ts) != VINE_OK)
        return -1;
    if (!rule)
        return 1;
    if (vine__cost_algo_node(c, rule, a, type_size, &tr) != VINE_OK)
        return -1;
    return ts < tr;
}

/*
 * On a node segment the shm algorithm where it wins, else the MPICH rules'
 * choice.  shm wins where the model prices it below the rules' choice when
 * shm parameters were given (vine__select_shm_model), else (and where the
 * model has no formula for the rules' choice) in the measured ranges for
 * the communicator's size (vine__select_shm_ranges).
 */
static const vine_algo *rules_choice(const vine_args *a, size_t type_size)
{
    size_t bytes = vine__select_bytes(a, type_size);
    const vine_algo *rule = rule_choice(a, bytes);
    if (a->shm_count == 0 || (unsigned)a->coll >= VINE_COLL_COUNT)
        return rule;
    const vine_algo *shm = vine__algo_find(a->coll, "shm");
    if (!shm || vine__algo_admits(shm, a) != VINE_OK)
        return rule;
    /* The model prices by size: not for the collectives whose choice may not depend on it. */
    int model = size_free(a->coll) ? -1 : shm_by_model(a, type_size, shm, rule);
    if (model == 1 || (model < 0 && in_shm_ranges(a, bytes)))
        return shm;
    return rule;
}

/* ---- the cost model's choice (cost.h) ------------------------------------ */

void vine__select_set_cost(const vine_cost *c)
{
    if (c)
        cost_params = *c;
    else
        vine__cost_defaults(&cost_params);
    cost_params_set = 1;
}

const vine_cost *vine__select_get_cost(void)
{
    if (!cost_params_set)
        vine__select_set_cost(NULL);
    return &cost_params;
}

/*
 * The candidates the model chooses between, in order of preference on a
 * tie: the flat classics first, so that a hierarchy that saves nothing
 * changes nothing.  Names not registered (yet) are skipped.
 */
static const char *const *candidates(vine_coll coll)
{
    static const char *const gather[] = {"binomial",    "bine",       "leader",
                                         "leader_bine", "leader_shm", NULL};
    static const char *const bcast[] = {
        "binomial",   "bine", "scatter_allgather_rd", "scatter_allgather_ring",
        "bine_large", "hier", "hier_large",           "hier_shm",
        NULL};
    static const char *const reduce[] = {"binomial", "bine",       "rabenseifner", "bine_large",
                                         "hier",     "hier_large", "hier_shm",     NULL};
    static const char *const allreduce[] = {
        "recursive_doubling", "rabenseifner", "ring",     "bine", "bine_large", "hier", "hier_rd",
        "hier_rab",           "hier_large",   "hier_shm", NULL};
    static const char *const allgather[] = {"recursive_doubling", "bruck", "ring",
                                            "bine_permute",       "hier",  NULL};
    static const char *const allgatherv[] = {"recursive_doubling", "bruck", "ring", "bine_block",
                                             NULL};
    static const char *const scan[] = {"recursive_doubling", "linear", NULL};
    static const char *const rsb[] = {"recursive_halving", "pairwise", "bine_permute", NULL};
    /*
     * alltoallv and alltoallw are left to the rule: a rank knows only its own
     * rows of the tables, so a price by size could differ between ranks.  So
     * are gatherv and scatterv: a rank other than the root knows only its own
     * count, and auto cannot take binomial anyway (its counts are broadcast
     * only when it is requested, VINE_ALGO_ALLCOUNTS).
     */
    switch (coll) {
    case VINE_COLL_GATHER:
    case VINE_COLL_SCATTER:
        return gather;
    case VINE_COLL_BCAST:
        return bcast;
    case VINE_COLL_REDUCE:
        return reduce;
    case VINE_COLL_ALLREDUCE:
        return allreduce;
    case VINE_COLL_ALLGATHER:
        return allgather;
    case VINE_COLL_ALLGATHERV:
        return allgatherv;
    case VINE_COLL_REDUCE_SCATTER_BLOCK:
        return rsb;
    case VINE_COLL_SCAN:
    case VINE_COLL_EXSCAN:
        return scan;
    default:
        return NULL;
    }
}

/*
 * The torus algorithms, candidates too on a map that describes a torus
 * network (vine_levels.torus), after the others.  On other maps the model,
 * which knows neither hops nor ports, would price them as if the levels were
 * a torus.  The multiport allreduce is priced with its parts on their own
 * ports (cost.c).
 */
static const char *const torus_candidates[] = {"bucket", "bine_torus", "swing",
                                               "bine_torus_multiport", NULL};

/* Adds candidate name of a->coll to *why, priced when admitted (skipped when not registered). */
static void price_one(const vine_args *a, size_t type_size, vine_select_why *why, const char *name)
{
    const vine_algo *algo = vine__algo_find(a->coll, name);
    if (!algo)
        return;
    int k = why->n++;
    why->cand[k].algo = algo;
    why->cand[k].admitted = vine__algo_admits(algo, a) == VINE_OK;
    why->cand[k].priced =
        why->cand[k].admitted &&
        vine__cost_algo(vine__select_get_cost(), algo, a, type_size, &why->cand[k].cost) == VINE_OK;
}

/* Lists and prices the registered candidates of a->coll into *why. */
static void price(const vine_args *a, size_t type_size, vine_select_why *why)
{
    const char *const *lists[2] = {candidates(a->coll), NULL};
    if (lists[0] && vine__levels_ready(a->levels, a->p) && a->levels->torus)
        lists[1] = torus_candidates;
    for (int l = 0; l < 2; l++)
        for (int i = 0; lists[l] && lists[l][i] && why->n < VINE_SELECT_CANDIDATES_MAX; i++)
            price_one(a, type_size, why, lists[l][i]);
}

/* The cheapest admitted, priced candidate of *why (the first on a tie), or NULL. */
static const vine_algo *cheapest(const vine_select_why *why)
{
    int best = -1;
    for (int i = 0; i < why->n; i++)
        if (why->cand[i].priced && (best < 0 || why->cand[i].cost < why->cand[best].cost))
            best = i;
    return best < 0 ? NULL : why->cand[best].algo;
}

/* ---- the tuning table's choice (tuning.h) -------------------------------- */

void vine__select_set_tuning(const vine_tuning *t)
{
    tuning = t;
}

/* The range of the tuning table that decides a, when its algorithm admits a; else NULL. */
static const vine_tune_range *tuned_range(const vine_args *a, size_t type_size)
{
    /* Other ranks than the root of gatherv and scatterv cannot know the size: no tuning. */
    if (!tuning || a->coll == VINE_COLL_GATHERV || a->coll == VINE_COLL_SCATTERV)
        return NULL;
    /* Only the root of reduce, gather and scatter may be in place: every rank
     * looks the call up as not in place, so that all of them choose alike. */
    int rooted =
        a->coll == VINE_COLL_REDUCE || a->coll == VINE_COLL_GATHER || a->coll == VINE_COLL_SCATTER;
    const vine_tune_rule *r =
        vine__tuning_rule(tuning, a->coll, a->p, a->commutative, rooted ? 0 : a->inplace);
    const vine_tune_range *g = r ? vine__tuning_range(r, vine__tuning_bytes(a, type_size)) : NULL;
    return g && vine__algo_admits(g->algo, a) == VINE_OK ? g : NULL;
}

/*
 * The tuning table's algorithm for a: allgatherv's table is measured with
 * equal blocks (its size is the mean block), so where it names the ring and
 * the blocks are skewed (allgatherv_rule) bine_block serves instead.
 */
static const vine_algo *tuned_algo(const vine_args *a, const vine_tune_range *g)
{
    if (strcmp(g->algo->name, "ring") == 0 && skewed(a)) {
        const vine_algo *b = vine__algo_find(a->coll, "bine_block");
        if (b && vine__algo_admits(b, a) == VINE_OK)
            return b;
    }
    return g->algo;
}

const vine_algo *vine__select_explain(const vine_args *a, size_t type_size, vine_select_why *why)
{
    memset(why, 0, sizeof *why);
    price(a, type_size, why);
    if ((why->tuned = tuned_range(a, type_size)))
        return why->chosen = tuned_algo(a, why->tuned);
    const vine_algo *algo = NULL;
    if (vine__levels_ready(a->levels, a->p) && !vine__levels_flat(a->levels))
        algo = cheapest(why);
    why->by_model = algo != NULL;
    why->chosen = algo ? algo : rules_choice(a, type_size);
    return why->chosen;
}

const vine_algo *vine__select_auto_seg(const vine_args *a, size_t type_size, size_t *segment)
{
    const vine_tune_range *g = tuned_range(a, type_size);
    const vine_algo *t = g ? tuned_algo(a, g) : NULL;
    if (segment)
        *segment = t && t == g->algo ? g->segment : 0;
    if (t)
        return t;
    /* Without locality the rules decide alone, and nothing is priced. */
    if (!vine__levels_ready(a->levels, a->p) || vine__levels_flat(a->levels))
        return rules_choice(a, type_size);
    vine_select_why why;
    return vine__select_explain(a, type_size, &why);
}

const vine_algo *vine__select_auto(const vine_args *a, size_t type_size)
{
    return vine__select_auto_seg(a, type_size, NULL);
}
