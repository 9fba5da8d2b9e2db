/*
 * The Bine paper's traffic claims, checked with the simulator (src/sim) on the
 * `lumi` Dragonfly preset, as issue 5 states them:
 *
 *   1. Against the classic algorithm (binomial tree for bcast, reduce, gather
 *      and scatter; recursive doubling for the allreduce butterfly), Bine's
 *      reduction of cross-group bytes never exceeds the paper's bound of 1/3
 *      (section 2.4.1, Eq. 2) beyond rounding: at most 33.4% on every
 *      allocation;
 *   2. and it is positive on average over the allocations from 256 nodes up
 *      (section 2.4.2, Fig. 5);
 *   3. bcast bine_large cuts the cross-group bytes of scatter_allgather_rd
 *      (van de Geijn's binomial scatter + recursive-doubling allgather) by at
 *      least 80% from 256 ranks up.
 *
 * What we found, and what is asserted instead where the claim is not
 * universal (docs/sim.md, "The Bine paper's claims"):
 *   - claim 1 is the paper's observation, not a theorem: its argument assumes
 *     groups of a power-of-two size, and random allocations make groups of
 *     any size.  Seeds 1..8 stay under the bound; one allocation found by a
 *     200-sample sweep, random-groups:seed=296655508 on 1024 nodes, gives
 *     34.78% for bcast.  The test asserts both: the bound on the sample, and
 *     that this allocation exceeds it (so the finding stays true of the code).
 *   - claim 3 holds for block placement and for every random allocation from
 *     512 ranks up; at 256 single random allocations reach only 79.5% (2 of
 *     the 8 seeds; 78.9% the lowest of 200), so there the test asserts the
 *     mean over the seeds.
 *
 * Allocations: one rank per node, node counts 16..1024, random hosts drawn by
 * the random-groups placement with seeds 1..8 (plus block placement for
 * claim 3).  The references are the claimed bounds; the simulator's
 * cross-group bytes are checked on every case against a count made straight
 * from the schedules (every send between hosts of different groups).  A
 * failing case is printed with its numbers; the per-node-count summary is
 * printed either way.
 */
#include "sim/sim.h"
#include "topo/topo.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NSEEDS 8
#define BOUND 33.4     /* percent: 100/3 plus rounding */
#define LARGE_CUT 80.0 /* percent, claim 3 */

typedef struct pair {
    vine_coll coll;
    const char *algo, *base;
    size_t bytes; /* the call's count in bytes (per-rank block for gather/scatter) */
    size_t elem;  /* bytes per element */
} pair;

static const pair pairs[] = {
    {VINE_COLL_BCAST, "bine", "binomial", 1u << 20, 1},
    {VINE_COLL_REDUCE, "bine", "binomial", 1u << 20, 4},
    {VINE_COLL_ALLREDUCE, "bine", "recursive_doubling", 1u << 20, 4},
    {VINE_COLL_GATHER, "bine", "binomial", 1024, 1},
    {VINE_COLL_SCATTER, "bine", "binomial", 1024, 1},
};

static int failures;
static const vine_topo *topo;

/* The group of the host rank r runs on. */
static int group_of(const int *rank_host, int r)
{
    return topo->group[topo->host_vert[rank_host[r]]];
}

/*
 * The cross-group bytes counted straight from the schedules, without the
 * simulator: every SEND between ranks whose hosts lie in different groups.
 * The simulator's cross_group_bytes must equal it.
 */
static double direct_xgroup(const vine_algo *algo, const vine_args *a0, size_t elem,
                            const int *rank_host)
{
    double sum = 0;
    vine_args a = *a0;
    for (int r = 0; r < a.p; r++) {
        vine_sched sc;
        a.rank = r;
        if (vine__algo_build(algo, &a, &sc) != VINE_OK)
            return -1;
        for (size_t i = 0; i < sc.nops; i++) {
            const vine_op *op = &sc.ops[i];
            if (op->kind == VINE_OP_SEND && group_of(rank_host, r) != group_of(rank_host, op->peer))
                sum += (double)op->count * (double)elem;
        }
        vine__sched_free(&sc);
    }
    return sum;
}

/* Cross-group bytes of one algorithm; -1 on failure (printed). */
static double xgroup(vine_router *r, const int *rank_host, int p, vine_coll c, const char *name,
                     size_t bytes, size_t elem, const char *where)
{
    const vine_algo *algo = vine__algo_find(c, name);
    if (!algo) {
        printf("FAIL %s: no algorithm %s %s\n", where, vine__coll_name(c), name);
        failures++;
        return -1;
    }
    vine_args a;
    memset(&a, 0, sizeof a);
    a.coll = c;
    a.p = p;
    a.count = bytes / elem;
    a.commutative = 1;
    vine_sim_result res;
    char err[512] = "";
    int rc = vine__sim_run(r, rank_host, algo, &a, elem, &res, err, sizeof err);
    if (rc != VINE_OK) {
        printf("FAIL %s: %s %s on %d ranks: status %d: %s\n", where, vine__coll_name(c), name, p,
               rc, err);
        failures++;
        return -1;
    }
    double direct = direct_xgroup(algo, &a, elem, rank_host);
    if (direct != res.cross_group_bytes) {
        printf("FAIL %s: %s %s on %d ranks: simulator %.0f cross-group bytes, schedules %.0f\n",
               where, vine__coll_name(c), name, p, res.cross_group_bytes, direct);
        failures++;
        return -1;
    }
    return res.cross_group_bytes;
}

static double reduction(double algo, double base)
{
    return base > 0 ? 100.0 * (1.0 - algo / base) : 0.0;
}

/* Places p ranks by spec; 0 on success. */
static int place(const vine_topo *t, const char *spec, int p, int *rank_host)
{
    char err[512] = "";
    int rc = vine__place(t, spec, p, rank_host, err, sizeof err);
    if (rc != VINE_OK) {
        printf("FAIL placement %s, %d ranks: status %d: %s\n", spec, p, rc, err);
        failures++;
    }
    return rc;
}

/* Claims 1 and 2 for one pair. */
static void check_pair(const vine_topo *t, vine_router *r, const pair *pr, int *rank_host)
{
    printf("%s %s vs %s, %zu bytes: reduction of cross-group bytes (%%), %d seeds\n",
           vine__coll_name(pr->coll), pr->algo, pr->base, pr->bytes, NSEEDS);
    printf("  %5s  %7s  %7s  %7s\n", "nodes", "min", "mean", "max");
    for (int p = 16; p <= 1024; p *= 2) {
        double sum = 0, lo = INFINITY, hi = -INFINITY;
        int n = 0;
        for (int seed = 1; seed <= NSEEDS; seed++) {
            char spec[64], where[128];
            snprintf(spec, sizeof spec, "random-groups:seed=%d", seed);
            snprintf(where, sizeof where, "lumi %s, %d nodes", spec, p);
            if (place(t, spec, p, rank_host))
                return;
            double b = xgroup(r, rank_host, p, pr->coll, pr->base, pr->bytes, pr->elem, where);
            double x = xgroup(r, rank_host, p, pr->coll, pr->algo, pr->bytes, pr->elem, where);
            if (b < 0 || x < 0)
                return;
            double red = reduction(x, b);
            if (red > BOUND) {
                printf("FAIL claim 1 (bound %.1f%%): %s: %s %s %.0f vs %s %.0f cross-group "
                       "bytes: %.2f%%\n",
                       BOUND, where, vine__coll_name(pr->coll), pr->algo, x, pr->base, b, red);
                failures++;
            }
            sum += red;
            n++;
            lo = red < lo ? red : lo;
            hi = red > hi ? red : hi;
        }
        double mean = sum / n;
        printf("  %5d  %7.2f  %7.2f  %7.2f\n", p, lo, mean, hi);
        if (p >= 256 && !(mean > 0)) {
            printf("FAIL claim 2 (positive mean from 256 nodes): lumi, %s %s vs %s, %d nodes: "
                   "mean %.2f%% over %d seeds\n",
                   vine__coll_name(pr->coll), pr->algo, pr->base, p, mean, n);
            failures++;
        }
    }
}

/* Claim 3 on one placement; strict: every allocation must reach the cut. */
static void check_large(const vine_topo *t, vine_router *r, const char *spec, int p, int *rank_host,
                        double *red_out, int strict)
{
    char where[128];
    snprintf(where, sizeof where, "lumi %s, %d ranks", spec, p);
    *red_out = NAN;
    if (place(t, spec, p, rank_host))
        return;
    double b = xgroup(r, rank_host, p, VINE_COLL_BCAST, "scatter_allgather_rd", 1u << 20, 1, where);
    double x = xgroup(r, rank_host, p, VINE_COLL_BCAST, "bine_large", 1u << 20, 1, where);
    if (b < 0 || x < 0)
        return;
    *red_out = reduction(x, b);
    if (strict && !(*red_out >= LARGE_CUT)) {
        printf("FAIL claim 3 (>= %.0f%%): %s: bcast bine_large %.0f vs scatter_allgather_rd "
               "%.0f cross-group bytes: %.2f%%\n",
               LARGE_CUT, where, x, b, *red_out);
        failures++;
    }
}

/* The allocation where bcast bine saves more than the paper's bound (see the top). */
static void check_exceedance(const vine_topo *t, vine_router *r, int *rank_host)
{
    const char *spec = "random-groups:seed=296655508", *where = "lumi seed 296655508, 1024 nodes";
    if (place(t, spec, 1024, rank_host))
        return;
    double b = xgroup(r, rank_host, 1024, VINE_COLL_BCAST, "binomial", 1u << 20, 1, where);
    double x = xgroup(r, rank_host, 1024, VINE_COLL_BCAST, "bine", 1u << 20, 1, where);
    double red = reduction(x, b);
    printf("bcast bine vs binomial on %s: %.2f%% (above the paper's bound)\n", where, red);
    if (!(red > BOUND)) {
        printf("FAIL: the documented exceedance is gone: %.2f%%; update docs/sim.md\n", red);
        failures++;
    }
}

int main(void)
{
    vine_topo t;
    vine_router *r = NULL;
    char err[512] = "";
    vine__topo_init(&t);
    topo = &t;
    int rc = vine__topo_parse("lumi", &t, err, sizeof err);
    if (rc != VINE_OK) {
        printf("FAIL: topology lumi: status %d: %s\n", rc, err);
        return 1;
    }
    if (vine__router_new(&t, &r) != VINE_OK) {
        printf("FAIL: router for lumi\n");
        vine__topo_free(&t);
        return 1;
    }
    int *rank_host = malloc(1024 * sizeof *rank_host);
    if (!rank_host)
        return 1;
    for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++)
        check_pair(&t, r, &pairs[i], rank_host);

    printf("bcast bine_large vs scatter_allgather_rd, 1 MiB: reduction of cross-group bytes "
           "(%%)\n");
    printf("  %5s  %7s  %7s  %7s  %7s\n", "ranks", "block", "min", "mean", "max");
    for (int p = 256; p <= 1024; p *= 2) {
        double blk, lo = INFINITY, hi = -INFINITY, sum = 0;
        check_large(&t, r, "block", p, rank_host, &blk, 1);
        for (int seed = 1; seed <= NSEEDS; seed++) {
            char spec[64];
            double red;
            snprintf(spec, sizeof spec, "random-groups:seed=%d", seed);
            check_large(&t, r, spec, p, rank_host, &red, p >= 512);
            lo = red < lo ? red : lo;
            hi = red > hi ? red : hi;
            sum += red;
        }
        printf("  %5d  %7.2f  %7.2f  %7.2f  %7.2f\n", p, blk, lo, sum / NSEEDS, hi);
        if (!(sum / NSEEDS >= LARGE_CUT)) {
            printf("FAIL claim 3 (mean >= %.0f%%): lumi, %d ranks: mean %.2f%% over %d seeds\n",
                   LARGE_CUT, p, sum / NSEEDS, NSEEDS);
            failures++;
        }
    }
    check_exceedance(&t, r, rank_host);
    free(rank_host);
    vine__router_free(r);
    vine__topo_free(&t);
    printf("%s: %d failure(s)\n", failures ? "FAIL" : "ok", failures);
    return failures ? 1 : 0;
}
