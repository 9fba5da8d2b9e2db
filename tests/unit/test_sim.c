/*
 * Unit test of the simulator (src/sim, no MPI): hand-computed cases.
 *
 *   - the Bine paper's Fig. 1 network (8 hosts, 4 leaves of 2, one uplink
 *     each to a core switch): distance-doubling against distance-halving
 *     binomial broadcast, global bytes as the paper counts them, steps,
 *     bytes, the most loaded arc and the time;
 *   - exact times on a 2-host line, with and without a switch;
 *   - the even split at every vertex over next hops on minimal paths (a
 *     4-cycle; a DAG where a per-path split would give another answer);
 *   - intra-host messages; counts 0; p = 1; zero-byte barrier messages;
 *   - the step rule on hand-written schedules and on binomial trees, the
 *     k-th-send-meets-k-th-receive matching, and the errors (unsupported
 *     cases, unmatched messages, deadlock, bad placement, no path);
 *   - a Dragonfly run is identical with tiny route and row caches.
 *
 * `test_sim bench` instead times the cases of issue 5 (not a test).
 * Prints "sim: N checks, M failed".
 */
#include "check.h"
#include "coll/coll.h"
#include "sched/verify.h"
#include "sim/sim.h"
#include "sim/sim_int.h"
#include "topo/topo.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int near(double x, double want)
{
    return fabs(x - want) <= 1e-12 * (fabs(want) > 1e-300 ? fabs(want) : 1.0) + 1e-300;
}

static vine_args args(vine_coll c, int p, size_t count)
{
    vine_args a;
    memset(&a, 0, sizeof a);
    a.coll = c;
    a.p = p;
    a.count = count;
    a.commutative = 1;
    return a;
}

/* Runs one case; returns the status, result in *res. */
static int run(const vine_topo *t, const int *rank_host, const char *coll, const char *algo,
               vine_args a, size_t elem_bytes, vine_sim_result *res, char *err, size_t errlen)
{
    const vine_algo *al = vine__algo_find((vine_coll)vine__coll_parse(coll), algo);
    if (!al) {
        snprintf(err, errlen, "no algorithm %s %s", coll, algo);
        return -1;
    }
    vine_router *r;
    int rc = vine__router_new(t, &r);
    if (rc != VINE_OK)
        return rc;
    rc = vine__sim_run(r, rank_host, al, &a, elem_bytes, res, err, errlen);
    vine__router_free(r);
    return rc;
}

/* h0 -(1 GB/s, 1 us)- s -(2 GB/s, 3 us)- h1: two hosts on one switch. */
static void line_topo(vine_topo *t)
{
    vine__topo_init(t);
    int h0 = vine__topo_add_vertex(t, VINE_V_HOST, 0, NULL);
    int s = vine__topo_add_vertex(t, VINE_V_SWITCH, 0, NULL);
    int h1 = vine__topo_add_vertex(t, VINE_V_HOST, 0, NULL);
    vine__topo_add_link(t, h0, s, 1e9, 1e-6, VINE_LVL_HOST);
    vine__topo_add_link(t, s, h1, 2e9, 3e-6, VINE_LVL_HOST);
    vine__topo_finish(t);
}

/* ---- per-message factors (SMPI's lat-factor and bw-factor) -------------------------------- */

static void test_factors(void)
{
    char err[256];
    vine_sim_factor f, g;
    /* Parsing: any order, the step function, SMPI's defaults, errors. */
    CHECK(vine__sim_factor_parse("100:3;0:2;1000:0.5", &f, err, sizeof err) == VINE_OK && f.n == 3,
          "parse: %s", err);
    CHECK(f.at[0] == 0 && f.at[1] == 100 && f.at[2] == 1000, "parse: not sorted");
    CHECK(vine__sim_factor_at(&f, 0) == 2 && vine__sim_factor_at(&f, 99) == 2 &&
              vine__sim_factor_at(&f, 100) == 3 && vine__sim_factor_at(&f, 999.5) == 3 &&
              vine__sim_factor_at(&f, 1e9) == 0.5,
          "factor_at");
    CHECK(vine__sim_factor_parse("10:4", &f, err, sizeof err) == VINE_OK &&
              vine__sim_factor_at(&f, 9) == 1 && vine__sim_factor_at(&f, 10) == 4,
          "below the smallest threshold: 1");
    CHECK(vine__sim_factor_parse("smpi-lat", &f, err, sizeof err) == VINE_OK && f.n == 9 &&
              vine__sim_factor_at(&f, 8) == 2.01467 && vine__sim_factor_at(&f, 65472) == 11.6436,
          "smpi-lat");
    CHECK(vine__sim_factor_parse("smpi-bw", &g, err, sizeof err) == VINE_OK && g.n == 9 &&
              vine__sim_factor_at(&g, 300) == 0.338112,
          "smpi-bw");
    CHECK(vine__sim_factor_parse("none", &g, err, sizeof err) == VINE_OK && g.n == 0 &&
              vine__sim_factor_at(&g, 5) == 1,
          "none");
    static const char *bad[] = {"",        "5",    "5:",  ":5",    "5:0",     "5:-1", "-1:2",
                                "5:2;5:3", "5:2x", "a:1", "5:inf", "0:2;bad", "0:2;;"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        err[0] = 0;
        CHECK(vine__sim_factor_parse(bad[i], &g, err, sizeof err) == VINE_ERR_UNSUPPORTED &&
                  strstr(err, "factor '") && g.n == 0,
              "bad factor '%s' accepted (%s)", bad[i], err);
    }

    /* The time: h0 -(1 GB/s, 1 us)- s -(2 GB/s, 3 us)- h1, one message of n bytes:
     * lat(n) (1 + 3) us + n / (bw(n) 1 GB/s). */
    int rh[2] = {0, 1};
    vine_topo t;
    line_topo(&t);
    const vine_algo *al = vine__algo_find(VINE_COLL_BCAST, "binomial");
    vine_router *r;
    CHECK(al && vine__router_new(&t, &r) == VINE_OK, "factors: router");
    vine__sim_factor_parse("0:2;4096:10", &f, err, sizeof err);
    vine__sim_factor_parse("0:0.5;4096:0.25", &g, err, sizeof err);
    vine__router_set_factors(r, &f, &g);
    vine_sim_result res;
    vine_args a = args(VINE_COLL_BCAST, 2, 1000);
    int rc = vine__sim_run(r, rh, al, &a, 1, &res, err, sizeof err);
    CHECK(rc == VINE_OK && near(res.time, 2 * 4e-6 + 1000 / 0.5e9), "factors 1000 B: %.12g",
          res.time);
    a = args(VINE_COLL_BCAST, 2, 4096);
    rc = vine__sim_run(r, rh, al, &a, 1, &res, err, sizeof err);
    CHECK(rc == VINE_OK && near(res.time, 10 * 4e-6 + 4096 / 0.25e9), "factors 4096 B: %.12g",
          res.time);
    vine__router_set_factors(r, NULL, NULL); /* off again: the plain line time */
    rc = vine__sim_run(r, rh, al, &a, 1, &res, err, sizeof err);
    CHECK(rc == VINE_OK && near(res.time, 4e-6 + 4096 / 1e9), "factors off: %.12g", res.time);
    vine__router_free(r);
    vine__topo_free(&t);
}

/* ---- the per-rank clock -------------------------------------------------------------------- */

static void test_clock(void)
{
    /* Switches A (hosts 0-4) and B (hosts 5-7), host links 1 us, A-B 10 us, all 1 TB/s;
     * the binomial bcast of 8 bytes from rank 0 on 8 ranks, ranks 1, 6, 7 under B:
     * 0->4 (2 us); 0->2 (2), 4->6 (12); 0->1 (12), 2->3, 4->5, 6->7 (2 each), each message
     * also 8 bytes / 1 TB/s = d.  Step model: 2 + 12 + 12 us + 3 d.  Per-rank clock: rank
     * 0 is at 4 us after 0->2, so 0->1 ends at 16; 4->6 ends at 14, 4->5 and 6->7 at 16:
     * 16 us + 3 d. */
    char err[256];
    vine_topo t;
    vine__topo_init(&t);
    int h[8];
    for (int i = 0; i < 8; i++)
        h[i] = vine__topo_add_vertex(&t, VINE_V_HOST, i < 5 ? 0 : 1, NULL);
    int sa = vine__topo_add_vertex(&t, VINE_V_SWITCH, 0, NULL);
    int sb = vine__topo_add_vertex(&t, VINE_V_SWITCH, 1, NULL);
    for (int i = 0; i < 8; i++)
        vine__topo_add_link(&t, h[i], i < 5 ? sa : sb, 1e12, 1e-6, VINE_LVL_HOST);
    vine__topo_add_link(&t, sa, sb, 1e12, 10e-6, VINE_LVL_GLOBAL);
    vine__topo_finish(&t);
    int rh[8] = {0, 5, 1, 2, 3, 4, 6, 7};
    const vine_algo *al = vine__algo_find(VINE_COLL_BCAST, "binomial");
    vine_router *r;
    CHECK(al && vine__router_new(&t, &r) == VINE_OK, "clock: router");
    vine_args a = args(VINE_COLL_BCAST, 8, 8);
    vine_sim_result res;
    const double d = 8 / 1e12;
    int rc = vine__sim_run(r, rh, al, &a, 1, &res, err, sizeof err);
    CHECK(rc == VINE_OK && res.steps == 3 && near(res.time, 26e-6 + 3 * d),
          "clock step: %d %s steps %d time %.12g", rc, err, res.steps, res.time);
    vine__router_set_clock(r, 1);
    rc = vine__sim_run(r, rh, al, &a, 1, &res, err, sizeof err);
    CHECK(rc == VINE_OK && near(res.time, 16e-6 + 3 * d), "clock rank: time %.12g", res.time);
    /* A latency factor of 2 doubles every latency: 32 us on the per-rank clock. */
    vine_sim_factor f;
    vine__sim_factor_parse("0:2", &f, err, sizeof err);
    vine__router_set_factors(r, &f, NULL);
    rc = vine__sim_run(r, rh, al, &a, 1, &res, err, sizeof err);
    CHECK(rc == VINE_OK && near(res.time, 32e-6 + 3 * d), "clock rank, factor 2: %.12g", res.time);
    vine__router_free(r);
    vine__topo_free(&t);
}

/* ---- the Bine paper's Fig. 1 ------------------------------------------------------------- */

#define BW 1e9
#define LAT 1e-6

/* 8 hosts, 4 leaves (groups 0..3) of 2 hosts, one GLOBAL uplink per leaf to a core;
 * nic[h] = host h's link. */
static void fig1(vine_topo *t, int *uplink, int *nic)
{
    vine__topo_init(t);
    int core = vine__topo_add_vertex(t, VINE_V_SWITCH, -1, "core");
    for (int l = 0; l < 4; l++) {
        int leaf = vine__topo_add_vertex(t, VINE_V_SWITCH, l, NULL);
        uplink[l] = vine__topo_add_link(t, leaf, core, BW, LAT, VINE_LVL_GLOBAL);
        for (int k = 0; k < 2; k++) {
            int h = vine__topo_add_vertex(t, VINE_V_HOST, l, NULL);
            nic[2 * l + k] = vine__topo_add_link(t, h, leaf, BW, LAT, VINE_LVL_HOST);
        }
    }
    vine__topo_finish(t);
}

static void test_fig1(void)
{
    vine_topo t;
    int up[4], nic[8], rh[8];
    fig1(&t, up, nic);
    for (int i = 0; i < 8; i++)
        rh[i] = i;
    const double n = 1000;
    char err[256];
    vine_sim_result res;

    /* Distance doubling: 0->1 | 0->2 1->3 | 0->4 1->5 2->6 3->7: 6 messages cross. */
    vine_args a = args(VINE_COLL_BCAST, 8, (size_t)n);
    int rc = run(&t, rh, "bcast", "binomial_doubling", a, 1, &res, err, sizeof err);
    CHECK(rc == VINE_OK, "doubling: %d %s", rc, err);
    CHECK(res.steps == 3, "doubling steps %d", res.steps);
    CHECK(res.messages == 7, "doubling messages %zu", res.messages);
    CHECK(near(res.bytes, 7 * n), "doubling bytes %g", res.bytes);
    CHECK(near(res.cross_group_bytes, 6 * n), "doubling cross %g", res.cross_group_bytes);
    CHECK(near(res.level_bytes[VINE_LVL_GLOBAL], 12 * n), "doubling global %g",
          res.level_bytes[VINE_LVL_GLOBAL]);
    CHECK(near(res.level_bytes[VINE_LVL_HOST], 14 * n), "doubling host %g",
          res.level_bytes[VINE_LVL_HOST]);
    CHECK(res.level_bytes[VINE_LVL_LOCAL] == 0 && res.level_bytes[VINE_LVL_NODE] == 0,
          "doubling local/node");
    /* Leaf 0's uplink (leaf -> core, arc 2 * link) carries 0->2, 1->3, 0->4, 1->5. */
    CHECK(res.max_arc == 2 * up[0], "doubling max arc %d, want %d", res.max_arc, 2 * up[0]);
    CHECK(near(res.max_arc_bytes, 4 * n), "doubling max arc bytes %g", res.max_arc_bytes);
    /* 2 lat + n/bw; 4 lat + 2n/bw (two flows on the uplink); 4 lat + 2n/bw. */
    double want = (2 * LAT + n / BW) + 2 * (4 * LAT + 2 * n / BW);
    CHECK(near(res.time, want), "doubling time %.12g, want %.12g", res.time, want);

    /* Distance halving: 0->4 | 0->2 4->6 | 0->1 2->3 4->5 6->7: 3 messages cross. */
    rc = run(&t, rh, "bcast", "binomial", a, 1, &res, err, sizeof err);
    CHECK(rc == VINE_OK, "halving: %d %s", rc, err);
    CHECK(res.steps == 3, "halving steps %d", res.steps);
    CHECK(res.messages == 7, "halving messages %zu", res.messages);
    CHECK(near(res.bytes, 7 * n), "halving bytes %g", res.bytes);
    CHECK(near(res.cross_group_bytes, 3 * n), "halving cross %g", res.cross_group_bytes);
    CHECK(near(res.level_bytes[VINE_LVL_GLOBAL], 6 * n), "halving global %g",
          res.level_bytes[VINE_LVL_GLOBAL]);
    CHECK(near(res.level_bytes[VINE_LVL_HOST], 14 * n), "halving host %g",
          res.level_bytes[VINE_LVL_HOST]);
    /* Host 0's NIC (host -> leaf: arc 2 * link) carries its 3 sends; uplinks at most 2n. */
    CHECK(res.max_arc == 2 * nic[0], "halving max arc %d, want %d", res.max_arc, 2 * nic[0]);
    CHECK(near(res.max_arc_bytes, 3 * n), "halving max arc bytes %g", res.max_arc_bytes);
    want = 2 * (4 * LAT + n / BW) + (2 * LAT + n / BW);
    CHECK(near(res.time, want), "halving time %.12g, want %.12g", res.time, want);

    /* Two ranks per host (block): halving now keeps 0->1-type messages inside hosts. */
    int rh2[16];
    for (int i = 0; i < 16; i++)
        rh2[i] = i / 2;
    a = args(VINE_COLL_BCAST, 16, (size_t)n);
    rc = run(&t, rh2, "bcast", "binomial", a, 2, &res, err, sizeof err);
    CHECK(rc == VINE_OK, "ppn 2: %d %s", rc, err);
    /* 0->8 | 0->4 8->12 | 0->2 4->6 8->10 12->14 | 8 messages r->r+1 inside hosts. */
    CHECK(res.steps == 4 && res.messages == 15, "ppn 2 steps %d messages %zu", res.steps,
          res.messages);
    CHECK(near(res.level_bytes[VINE_LVL_NODE], 8 * 2 * n), "ppn 2 node bytes %g",
          res.level_bytes[VINE_LVL_NODE]);
    CHECK(near(res.cross_group_bytes, 3 * 2 * n), "ppn 2 cross %g", res.cross_group_bytes);
    CHECK(near(res.bytes, 15 * 2 * n), "ppn 2 bytes %g", res.bytes);
    want = 2 * (4 * LAT + 2 * n / BW) + (2 * LAT + 2 * n / BW) +
           (VINE_TOPO_NODE_LAT + 2 * n / VINE_TOPO_NODE_BW);
    CHECK(near(res.time, want), "ppn 2 time %.12g, want %.12g", res.time, want);
    vine__topo_free(&t);
}

/* ---- exact times on lines ------------------------------------------------------------------ */

static void test_line(void)
{
    char err[256];
    vine_sim_result res;
    int rh[2] = {0, 1};
    const double n = 4096;
    vine_args a = args(VINE_COLL_BCAST, 2, (size_t)n);

    /* h0 -(1 GB/s, 1 us)- s -(2 GB/s, 3 us)- h1 */
    vine_topo t;
    line_topo(&t);
    int rc = run(&t, rh, "bcast", "binomial", a, 1, &res, err, sizeof err);
    CHECK(rc == VINE_OK, "line: %d %s", rc, err);
    CHECK(res.steps == 1 && res.messages == 1, "line steps %d messages %zu", res.steps,
          res.messages);
    CHECK(near(res.time, 1e-6 + 3e-6 + n / 1e9), "line time %.12g", res.time);
    CHECK(near(res.level_bytes[VINE_LVL_HOST], 2 * n), "line host bytes %g",
          res.level_bytes[VINE_LVL_HOST]);
    CHECK(res.max_arc == 0 && near(res.max_arc_bytes, n), "line max arc %d %g", res.max_arc,
          res.max_arc_bytes);
    CHECK(res.cross_group_bytes == 0, "line cross");
    /* The other way (root 1): h1 -> s -> h0 on the arcs 3 and 1. */
    a.root = 1;
    rc = run(&t, rh, "bcast", "binomial", a, 1, &res, err, sizeof err);
    CHECK(rc == VINE_OK && near(res.time, 1e-6 + 3e-6 + n / 1e9), "line back time %.12g", res.time);
    CHECK(res.max_arc == 1, "line back max arc %d", res.max_arc);
    vine__topo_free(&t);

    /* Two hosts joined directly (different groups): one arc. */
    vine__topo_init(&t);
    int h0 = vine__topo_add_vertex(&t, VINE_V_HOST, 0, NULL);
    int h1 = vine__topo_add_vertex(&t, VINE_V_HOST, 1, NULL);
    vine__topo_add_link(&t, h0, h1, 5e9, 2e-6, VINE_LVL_GLOBAL);
    vine__topo_finish(&t);
    a.root = 0;
    rc = run(&t, rh, "bcast", "binomial", a, 8, &res, err, sizeof err);
    CHECK(rc == VINE_OK, "direct: %d %s", rc, err);
    CHECK(near(res.time, 2e-6 + 8 * n / 5e9), "direct time %.12g", res.time);
    CHECK(near(res.cross_group_bytes, 8 * n), "direct cross %g", res.cross_group_bytes);
    CHECK(near(res.level_bytes[VINE_LVL_GLOBAL], 8 * n), "direct global %g",
          res.level_bytes[VINE_LVL_GLOBAL]);
    CHECK(res.max_arc == 0, "direct max arc %d", res.max_arc);
    vine__topo_free(&t);
}

/* ---- even split ------------------------------------------------------------------------------ */

static void test_split(void)
{
    char err[256];
    vine_sim_result res;
    int rh[2] = {0, 1};
    const double n = 1e6;
    vine_args a = args(VINE_COLL_BCAST, 2, (size_t)n);

    /* A 4-cycle s0-s1-s2-s3-s0, hosts on s0 and s2: two minimal paths, half on each.  The host
     * links are very fast so that the switch arcs decide the time; the path through s3 has
     * the larger latency, and the longest minimal path's latency counts. */
    vine_topo t;
    vine__topo_init(&t);
    int sw[4];
    for (int i = 0; i < 4; i++)
        sw[i] = vine__topo_add_vertex(&t, VINE_V_SWITCH, 0, NULL);
    vine__topo_add_link(&t, sw[0], sw[1], 1e9, 1e-6, VINE_LVL_LOCAL);
    vine__topo_add_link(&t, sw[1], sw[2], 1e9, 1e-6, VINE_LVL_LOCAL);
    vine__topo_add_link(&t, sw[2], sw[3], 1e9, 4e-6, VINE_LVL_LOCAL);
    vine__topo_add_link(&t, sw[3], sw[0], 1e9, 1e-6, VINE_LVL_LOCAL);
    int ha = vine__topo_add_vertex(&t, VINE_V_HOST, 0, NULL);
    int hb = vine__topo_add_vertex(&t, VINE_V_HOST, 0, NULL);
    vine__topo_add_link(&t, ha, sw[0], 1e15, 0, VINE_LVL_HOST);
    vine__topo_add_link(&t, hb, sw[2], 1e15, 0, VINE_LVL_HOST);
    vine__topo_finish(&t);
    int rc = run(&t, rh, "bcast", "binomial", a, 1, &res, err, sizeof err);
    CHECK(rc == VINE_OK, "cycle: %d %s", rc, err);
    CHECK(near(res.level_bytes[VINE_LVL_LOCAL], 2 * n), "cycle local %g",
          res.level_bytes[VINE_LVL_LOCAL]);
    CHECK(near(res.max_arc_bytes, n), "cycle max arc bytes %g (host arcs carry n)",
          res.max_arc_bytes);
    double want = 5e-6 + ((n / 2) / 1e9 > n / 1e15 ? (n / 2) / 1e9 : n / 1e15);
    CHECK(near(res.time, want), "cycle time %.12g, want %.12g", res.time, want);
    /* Both directions at once (allgather of 2): each arc carries half of one message. */
    vine_args g = args(VINE_COLL_ALLGATHER, 2, (size_t)n);
    rc = run(&t, rh, "allgather", "recursive_doubling", g, 1, &res, err, sizeof err);
    CHECK(rc == VINE_OK && res.steps == 1 && res.messages == 2, "cycle allgather %d %s", rc, err);
    CHECK(near(res.time, want), "cycle allgather time %.12g, want %.12g", res.time, want);
    CHECK(near(res.level_bytes[VINE_LVL_LOCAL], 4 * n), "cycle allgather local %g",
          res.level_bytes[VINE_LVL_LOCAL]);
    vine__topo_free(&t);

    /* src -> {a, b}; a -> {c1, c2}; b -> c1; c1, c2 -> dst.  Three minimal paths; the even
     * split per vertex gives c1 -> dst 1/4 + 1/2 = 3/4 of the bytes (a split per path would
     * give 2/3).  All switch links alike (1 GB/s, 1 us). */
    vine__topo_init(&t);
    int S = vine__topo_add_vertex(&t, VINE_V_SWITCH, 0, "src");
    int A = vine__topo_add_vertex(&t, VINE_V_SWITCH, 0, "a");
    int B = vine__topo_add_vertex(&t, VINE_V_SWITCH, 0, "b");
    int C1 = vine__topo_add_vertex(&t, VINE_V_SWITCH, 0, "c1");
    int C2 = vine__topo_add_vertex(&t, VINE_V_SWITCH, 0, "c2");
    int D = vine__topo_add_vertex(&t, VINE_V_SWITCH, 0, "dst");
    int pairs[7][2] = {{S, A}, {S, B}, {A, C1}, {A, C2}, {B, C1}, {C1, D}, {C2, D}};
    int lk[7];
    for (int i = 0; i < 7; i++)
        lk[i] = vine__topo_add_link(&t, pairs[i][0], pairs[i][1], 1e9, 1e-6, VINE_LVL_LOCAL);
    ha = vine__topo_add_vertex(&t, VINE_V_HOST, 0, NULL);
    hb = vine__topo_add_vertex(&t, VINE_V_HOST, 0, NULL);
    vine__topo_add_link(&t, ha, S, 1e15, 0, VINE_LVL_HOST);
    vine__topo_add_link(&t, hb, D, 1e15, 0, VINE_LVL_HOST);
    vine__topo_finish(&t);
    rc = run(&t, rh, "bcast", "binomial", a, 1, &res, err, sizeof err);
    CHECK(rc == VINE_OK, "dag: %d %s", rc, err);
    /* Every path has 3 switch hops: 3n on LOCAL in all. */
    CHECK(near(res.level_bytes[VINE_LVL_LOCAL], 3 * n), "dag local %g",
          res.level_bytes[VINE_LVL_LOCAL]);
    want = 3e-6 + 0.75 * n / 1e9;
    CHECK(near(res.time, want), "dag time %.12g, want %.12g", res.time, want);
    (void)lk;
    /* The reverse direction: dst splits over c1, c2 (1/2 each); c1 over a, b (1/4 each);
     * a gets 1/4 + 1/2 = 3/4 and sends it on a -> src. */
    a.root = 1;
    rc = run(&t, rh, "bcast", "binomial", a, 1, &res, err, sizeof err);
    CHECK(rc == VINE_OK && near(res.time, want), "dag back time %.12g, want %.12g", res.time, want);
    vine__topo_free(&t);

    /* The metrics: X (group 0) reaches Y (group 1) over two global links through Z (group
     * 2), or over X - X2 (local), X2 - Y2 (global), Y2 - Y (local). */
    vine__topo_init(&t);
    int X = vine__topo_add_vertex(&t, VINE_V_SWITCH, 0, "X");
    int X2 = vine__topo_add_vertex(&t, VINE_V_SWITCH, 0, "X2");
    int Y = vine__topo_add_vertex(&t, VINE_V_SWITCH, 1, "Y");
    int Y2 = vine__topo_add_vertex(&t, VINE_V_SWITCH, 1, "Y2");
    int Z = vine__topo_add_vertex(&t, VINE_V_SWITCH, 2, "Z");
    vine__topo_add_link(&t, X, Z, 1e9, 1e-6, VINE_LVL_GLOBAL);
    vine__topo_add_link(&t, Z, Y, 1e9, 1e-6, VINE_LVL_GLOBAL);
    vine__topo_add_link(&t, X, X2, 1e9, 1e-6, VINE_LVL_LOCAL);
    vine__topo_add_link(&t, X2, Y2, 1e9, 1e-6, VINE_LVL_GLOBAL);
    vine__topo_add_link(&t, Y2, Y, 1e9, 1e-6, VINE_LVL_LOCAL);
    ha = vine__topo_add_vertex(&t, VINE_V_HOST, 0, NULL);
    hb = vine__topo_add_vertex(&t, VINE_V_HOST, 1, NULL);
    vine__topo_add_link(&t, ha, X, 1e9, 1e-6, VINE_LVL_HOST);
    vine__topo_add_link(&t, hb, Y, 1e9, 1e-6, VINE_LVL_HOST);
    vine__topo_finish(&t);
    a = args(VINE_COLL_BCAST, 2, 1000);
    for (int metric = 0; metric < 2; metric++) {
        vine_router *r;
        CHECK(vine__router_new(&t, &r) == VINE_OK, "router");
        CHECK(vine__router_set_metric(r, metric) == VINE_OK, "metric %d", metric);
        rc = vine__sim_run(r, rh, vine__algo_find(VINE_COLL_BCAST, "binomial"), &a, 1, &res, err,
                           sizeof err);
        double g = metric ? 1000 : 2000, l = metric ? 2000 : 0;
        CHECK(rc == VINE_OK && near(res.level_bytes[VINE_LVL_GLOBAL], g) &&
                  near(res.level_bytes[VINE_LVL_LOCAL], l) && near(res.cross_group_bytes, 1000),
              "metric %d: %d %s global %g local %g", metric, rc, err,
              res.level_bytes[VINE_LVL_GLOBAL], res.level_bytes[VINE_LVL_LOCAL]);
        CHECK(near(res.time, (metric ? 5e-6 : 4e-6) + 1e-6), "metric %d time %.12g", metric,
              res.time);
        vine__router_free(r);
    }
    vine__topo_free(&t);
}

/* A ring of 600 switches (local links), hosts on switches 0 and 300: two minimal paths of
 * 300 links, half the bytes on each; distances need 2 bytes (hops) or 4 (global first). */
static void test_ring(void)
{
    vine_topo t;
    vine__topo_init(&t);
    for (int i = 0; i < 600; i++)
        vine__topo_add_vertex(&t, VINE_V_SWITCH, 0, NULL);
    for (int i = 0; i < 600; i++)
        vine__topo_add_link(&t, i, (i + 1) % 600, 1e9, 1e-7, VINE_LVL_LOCAL);
    int ha = vine__topo_add_vertex(&t, VINE_V_HOST, 0, NULL);
    int hb = vine__topo_add_vertex(&t, VINE_V_HOST, 0, NULL);
    vine__topo_add_link(&t, ha, 0, 1e15, 0, VINE_LVL_HOST);
    vine__topo_add_link(&t, hb, 300, 1e15, 0, VINE_LVL_HOST);
    vine__topo_finish(&t);
    int rh[2] = {0, 1};
    const double n = 1e6;
    vine_args a = args(VINE_COLL_BCAST, 2, (size_t)n);
    char err[256];
    for (int metric = 0; metric < 2; metric++)
        for (int tiny = 0; tiny < 2; tiny++) {
            vine_router *r;
            vine_sim_result res;
            CHECK(vine__router_new(&t, &r) == VINE_OK, "router");
            CHECK(vine__router_set_metric(r, metric) == VINE_OK, "metric %d", metric);
            CHECK(r->width == (metric ? 4 : 2), "metric %d width %d", metric, r->width);
            if (tiny)
                vine__router_limit(r, 1, 1, 1);
            int rc = vine__sim_run(r, rh, vine__algo_find(VINE_COLL_BCAST, "binomial"), &a, 1, &res,
                                   err, sizeof err);
            CHECK(rc == VINE_OK, "ring: %d %s", rc, err);
            CHECK(near(res.level_bytes[VINE_LVL_LOCAL], 300 * n), "ring %d local %g", metric,
                  res.level_bytes[VINE_LVL_LOCAL]);
            CHECK(fabs(res.time - (300 * 1e-7 + n / 2 / 1e9)) < 1e-15, "ring %d time %.15g", metric,
                  res.time);
            vine__router_free(r);
        }
    vine__topo_free(&t);
}

/* ---- intra-host, counts 0, p = 1, barrier ---------------------------------------------------- */

static void test_small_cases(void)
{
    vine_topo t;
    int up[4], nic[8], rh[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    fig1(&t, up, nic);
    char err[256];
    vine_sim_result res;

    /* Two ranks on one host: level NODE, no arc. */
    vine_args a = args(VINE_COLL_BCAST, 2, 1000);
    int rc = run(&t, rh, "bcast", "binomial", a, 4, &res, err, sizeof err);
    CHECK(rc == VINE_OK, "node: %d %s", rc, err);
    CHECK(res.steps == 1 && res.messages == 1, "node steps %d", res.steps);
    CHECK(near(res.level_bytes[VINE_LVL_NODE], 4000) && res.level_bytes[VINE_LVL_HOST] == 0 &&
              res.level_bytes[VINE_LVL_GLOBAL] == 0,
          "node levels");
    CHECK(res.max_arc == -1 && res.max_arc_bytes == 0, "node max arc %d", res.max_arc);
    CHECK(near(res.time, VINE_TOPO_NODE_LAT + 4000 / VINE_TOPO_NODE_BW), "node time %.12g",
          res.time);

    /* Count 0: no messages at all. */
    for (int i = 0; i < 8; i++)
        rh[i] = i;
    const char *cases[][2] = {{"bcast", "binomial"},      {"allreduce", "recursive_doubling"},
                              {"allgather", "bruck"},     {"alltoall", "bine"},
                              {"reduce_scatter", "ring"}, {"gather", "binomial"},
                              {"scatter", "bine"},        {"reduce", "bine"}};
    size_t counts[9], displs[10];
    for (int c = 0; c < 8; c++) {
        vine_coll coll = (vine_coll)vine__coll_parse(cases[c][0]);
        a = args(coll, 8, 0);
        vine__verify_counts(coll, 8, 0, counts, displs);
        if (coll == VINE_COLL_REDUCE_SCATTER) {
            a.counts = counts;
            a.displs = displs;
        }
        rc = run(&t, rh, cases[c][0], cases[c][1], a, 8, &res, err, sizeof err);
        CHECK(rc == VINE_OK, "count 0 %s: %d %s", cases[c][0], rc, err);
        CHECK(res.steps == 0 && res.messages == 0 && res.bytes == 0 && res.time == 0 &&
                  res.max_arc == -1,
              "count 0 %s: steps %d messages %zu", cases[c][0], res.steps, res.messages);
    }

    /* p = 1. */
    for (int c = 0; c < 8; c++) {
        vine_coll coll = (vine_coll)vine__coll_parse(cases[c][0]);
        a = args(coll, 1, 100);
        vine__verify_counts(coll, 1, 100, counts, displs);
        if (coll == VINE_COLL_REDUCE_SCATTER) {
            a.counts = counts;
            a.displs = displs;
        }
        rc = run(&t, rh, cases[c][0], cases[c][1], a, 8, &res, err, sizeof err);
        CHECK(rc == VINE_OK && res.steps == 0 && res.messages == 0 && res.time == 0,
              "p = 1 %s: %d %s", cases[c][0], rc, err);
    }

    /* Barrier (dissemination, p = 4 on hosts 0, 1, 2, 3): zero-byte messages still take
     * steps and latency.  Round k: r -> r + 2^k.  Step 0: 0->1 and 2->3 inside leaves (2 hops),
     * 1->2, 3->0 across (4 hops); step 1: all across. */
    a = args(VINE_COLL_BARRIER, 4, 0);
    rc = run(&t, rh, "barrier", "dissemination", a, 1, &res, err, sizeof err);
    CHECK(rc == VINE_OK, "barrier: %d %s", rc, err);
    CHECK(res.steps == 2 && res.messages == 8 && res.bytes == 0, "barrier steps %d msgs %zu",
          res.steps, res.messages);
    CHECK(near(res.time, 8 * LAT), "barrier time %.12g", res.time);
    CHECK(res.max_arc == -1, "barrier max arc %d", res.max_arc);
    vine__topo_free(&t);
}

/* ---- the step rule ------------------------------------------------------------------------- */

/* A hand-written schedule per rank (p = 4), selected by `which`. */
static int which;

static int custom_build(const vine_args *a, vine_sched *s)
{
    int r = a->rank;
    switch (which) {
    case 0:
        /* 0: [send 1] [send 2] [send 3]    1: [recv 0] [copy] [send 3]
         * 2: [recv 0]                      3: [recv 1] [recv 0]
         * Steps: 0->1 at 0; 0->2 at 1 (rank 0's second round); 1->3 at 1 (rank 1's copy-only
         * round takes no time); 0->3 at 2 (rank 3's second round starts at 2, rank 0's at 2). */
        if (r == 0) {
            vine__sched_send(s, 1, VINE_BUF_RECV, 0, 1);
            vine__sched_fence(s);
            vine__sched_send(s, 2, VINE_BUF_RECV, 0, 1);
            vine__sched_fence(s);
            vine__sched_send(s, 3, VINE_BUF_RECV, 0, 1);
        } else if (r == 1) {
            vine__sched_recv(s, 0, VINE_BUF_RECV, 0, 1);
            vine__sched_fence(s);
            vine__sched_copy(s, VINE_BUF_RECV, 0, VINE_BUF_RECV, 0, 1);
            vine__sched_fence(s);
            vine__sched_send(s, 3, VINE_BUF_RECV, 0, 1);
        } else if (r == 2) {
            vine__sched_recv(s, 0, VINE_BUF_RECV, 0, 1);
        } else {
            vine__sched_recv(s, 1, VINE_BUF_RECV, 0, 1);
            vine__sched_fence(s);
            vine__sched_recv(s, 0, VINE_BUF_RECV, 0, 1);
        }
        break;
    case 1:
        /* Two messages 0 -> 1 in one round of rank 0, received in two rounds of rank 1: the
         * first (5 elements) at step 0, the second (7) at step 1. */
        if (r == 0) {
            vine__sched_send(s, 1, VINE_BUF_RECV, 0, 5);
            vine__sched_send(s, 1, VINE_BUF_RECV, 0, 7);
        } else if (r == 1) {
            vine__sched_recv(s, 0, VINE_BUF_RECV, 0, 5);
            vine__sched_fence(s);
            vine__sched_recv(s, 0, VINE_BUF_RECV, 0, 7);
            vine__sched_fence(s);
            vine__sched_send(s, 2, VINE_BUF_RECV, 0, 1);
        } else if (r == 2) {
            vine__sched_recv(s, 1, VINE_BUF_RECV, 0, 1);
        }
        break;
    case 2: /* unmatched: 0 sends to 1 twice, 1 receives once */
        if (r == 0) {
            vine__sched_send(s, 1, VINE_BUF_RECV, 0, 1);
            vine__sched_send(s, 1, VINE_BUF_RECV, 0, 1);
        } else if (r == 1) {
            vine__sched_recv(s, 0, VINE_BUF_RECV, 0, 1);
        }
        break;
    case 3: /* unmatched receive: 2 receives from 3, which sends nothing */
        if (r == 2)
            vine__sched_recv(s, 3, VINE_BUF_RECV, 0, 1);
        break;
    case 4: /* deadlock: 0 and 1 each receive before they send */
        if (r < 2) {
            vine__sched_recv(s, 1 - r, VINE_BUF_RECV, 0, 1);
            vine__sched_fence(s);
            vine__sched_send(s, 1 - r, VINE_BUF_RECV, 0, 1);
        }
        break;
    default: /* unsupported */
        return VINE_ERR_UNSUPPORTED;
    }
    return vine__sched_finish(s);
}

static const vine_algo custom = {VINE_COLL_BCAST, "custom",    0, "hand-written test schedules",
                                 "test",          custom_build};

/* The messages' steps, as "src>dst@step" joined by spaces. */
static int steps_string(const vine_algo *al, vine_args a, char *out, size_t len, char *err,
                        size_t errlen)
{
    vine_sim_msg *m;
    size_t n;
    int rc = vine__sim_steps(al, &a, &m, &n, err, errlen);
    out[0] = '\0';
    for (size_t i = 0; rc == VINE_OK && i < n; i++) {
        size_t l = strlen(out);
        snprintf(out + l, len - l, "%s%d>%d@%d:%llu", i ? " " : "", m[i].src, m[i].dst, m[i].step,
                 (unsigned long long)m[i].count);
    }
    free(m);
    return rc;
}

static void test_steps(void)
{
    char out[1024], err[256];
    vine_args a = args(VINE_COLL_BCAST, 4, 1);
    which = 0;
    int rc = steps_string(&custom, a, out, sizeof out, err, sizeof err);
    CHECK(rc == VINE_OK && strcmp(out, "0>1@0:1 0>2@1:1 1>3@1:1 0>3@2:1") == 0,
          "custom 0: %d %s %s", rc, out, err);
    which = 1;
    rc = steps_string(&custom, a, out, sizeof out, err, sizeof err);
    CHECK(rc == VINE_OK && strcmp(out, "0>1@0:5 0>1@1:7 1>2@2:1") == 0, "custom 1: %d %s %s", rc,
          out, err);

    /* Binomial trees (vine dump shows the rounds). */
    a = args(VINE_COLL_BCAST, 8, 3);
    rc = steps_string(vine__algo_find(VINE_COLL_BCAST, "binomial"), a, out, sizeof out, err,
                      sizeof err);
    CHECK(rc == VINE_OK && strcmp(out, "0>4@0:3 0>2@1:3 4>6@1:3 0>1@2:3 2>3@2:3 4>5@2:3 "
                                       "6>7@2:3") == 0,
          "bcast binomial: %s %s", out, err);
    a = args(VINE_COLL_REDUCE, 4, 2);
    rc = steps_string(vine__algo_find(VINE_COLL_REDUCE, "binomial"), a, out, sizeof out, err,
                      sizeof err);
    CHECK(rc == VINE_OK && strcmp(out, "1>0@0:2 3>2@0:2 2>0@1:2") == 0, "reduce binomial: %s %s",
          out, err);
    /* Root 5 of 6, distance halving on relative ranks: 5->2 | 5->0 2->3 | 5->4 0->1. */
    a = args(VINE_COLL_BCAST, 6, 1);
    a.root = 5;
    rc = steps_string(vine__algo_find(VINE_COLL_BCAST, "binomial"), a, out, sizeof out, err,
                      sizeof err);
    CHECK(rc == VINE_OK && strcmp(out, "5>3@0:1 3>4@1:1 5>1@1:1 1>2@2:1 5>0@2:1") == 0,
          "root 5: %s %s", out, err);

    /* Errors. */
    vine_topo t;
    int up[4], nic[8], rh[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    fig1(&t, up, nic);
    vine_router *r;
    CHECK(vine__router_new(&t, &r) == VINE_OK, "router");
    vine_sim_result res;
    a = args(VINE_COLL_BCAST, 4, 1);
    const char *want[] = {"sends 2 messages to rank 1", "no send matches", "deadlock",
                          "does not support"};
    int wantrc[] = {VINE_ERR_INTERNAL, VINE_ERR_INTERNAL, VINE_ERR_INTERNAL, VINE_ERR_UNSUPPORTED};
    for (int w = 2; w <= 5; w++) {
        which = w;
        err[0] = '\0';
        rc = vine__sim_run(r, rh, &custom, &a, 1, &res, err, sizeof err);
        CHECK(rc == wantrc[w - 2] && strstr(err, want[w - 2]), "custom %d: %d '%s'", w, rc, err);
        CHECK(res.steps == 0 && res.messages == 0 && res.max_arc == -1, "custom %d: result", w);
    }

    /* The registry's restrictions: a commutative-only algorithm with a non-commutative op. */
    a = args(VINE_COLL_ALLREDUCE, 8, 10);
    a.commutative = 0;
    rc = vine__sim_run(r, rh, vine__algo_find(VINE_COLL_ALLREDUCE, "rabenseifner"), &a, 4, &res,
                       err, sizeof err);
    CHECK(rc == VINE_ERR_UNSUPPORTED && strstr(err, "commutative"), "rabenseifner: %d '%s'", rc,
          err);
    /* An algorithm of another collective. */
    a = args(VINE_COLL_BCAST, 8, 10);
    rc = vine__sim_run(r, rh, vine__algo_find(VINE_COLL_ALLREDUCE, "ring"), &a, 4, &res, err,
                       sizeof err);
    CHECK(rc == VINE_ERR_UNSUPPORTED && err[0], "wrong collective: %d '%s'", rc, err);
    /* reduce_scatter without counts. */
    a = args(VINE_COLL_REDUCE_SCATTER, 8, 10);
    rc = vine__sim_run(r, rh, vine__algo_find(VINE_COLL_REDUCE_SCATTER, "ring"), &a, 4, &res, err,
                       sizeof err);
    CHECK(rc == VINE_ERR_UNSUPPORTED && strstr(err, "counts"), "no counts: %d '%s'", rc, err);
    /* A rank on a host that does not exist. */
    int bad[8] = {0, 1, 2, 3, 4, 5, 6, 8};
    a = args(VINE_COLL_BCAST, 8, 10);
    rc = vine__sim_run(r, bad, vine__algo_find(VINE_COLL_BCAST, "binomial"), &a, 4, &res, err,
                       sizeof err);
    CHECK(rc == VINE_ERR_UNSUPPORTED && strstr(err, "rank 7"), "bad host: %d '%s'", rc, err);
    vine__router_free(r);
    vine__topo_free(&t);

    /* No path: two hosts on switches that are not joined. */
    vine__topo_init(&t);
    for (int i = 0; i < 2; i++) {
        int s = vine__topo_add_vertex(&t, VINE_V_SWITCH, i, NULL);
        for (int k = 0; k < 2; k++)
            vine__topo_add_link(&t, vine__topo_add_vertex(&t, VINE_V_HOST, i, NULL), s, 1e9, 1e-6,
                                VINE_LVL_HOST);
    }
    vine__topo_finish(&t);
    int rh4[4] = {0, 1, 2, 3};
    a = args(VINE_COLL_BCAST, 4, 10);
    rc = run(&t, rh4, "bcast", "binomial", a, 1, &res, err, sizeof err);
    CHECK(rc == VINE_ERR_UNSUPPORTED && strstr(err, "no path"), "no path: %d '%s'", rc, err);
    /* Hosts 0 and 1 are joined: a bcast among them works. */
    a = args(VINE_COLL_BCAST, 2, 10);
    rc = run(&t, rh4, "bcast", "binomial", a, 1, &res, err, sizeof err);
    CHECK(rc == VINE_OK && res.messages == 1, "connected part: %d '%s'", rc, err);
    vine__topo_free(&t);
}

/* ---- Dragonfly ------------------------------------------------------------------------------- */

/*
 * A Dragonfly (Kim et al. 2008) built by hand: g groups of a routers, all-to-all inside a
 * group (LOCAL), p hosts per router (HOST), h global ports per router (GLOBAL).  Global
 * links are dealt round by round over the pairs of groups in order while both groups have
 * free ports, so with g = a h + 1 every pair gets one link.  Hosts in group order.
 */
static int dragonfly(vine_topo *t, int a, int p, int h, int g)
{
    vine__topo_init(t);
    int *router = malloc((size_t)a * g * sizeof *router);
    int *used = calloc((size_t)g, sizeof *used);
    if (!router || !used)
        return -1;
    for (int G = 0; G < g; G++)
        for (int r = 0; r < a; r++) {
            int v = router[G * a + r] = vine__topo_add_vertex(t, VINE_V_SWITCH, G, NULL);
            for (int k = 0; k < p; k++) {
                int hv = vine__topo_add_vertex(t, VINE_V_HOST, G, NULL);
                vine__topo_add_link(t, hv, v, VINE_TOPO_BW, VINE_TOPO_LAT, VINE_LVL_HOST);
            }
        }
    for (int G = 0; G < g; G++)
        for (int r = 0; r < a; r++)
            for (int r2 = r + 1; r2 < a; r2++)
                vine__topo_add_link(t, router[G * a + r], router[G * a + r2], VINE_TOPO_BW,
                                    VINE_TOPO_LAT, VINE_LVL_LOCAL);
    int ports = a * h, added = 1;
    while (added) {
        added = 0;
        for (int x = 0; x < g; x++)
            for (int y = x + 1; y < g; y++)
                if (used[x] < ports && used[y] < ports) {
                    int rx = router[x * a + used[x]++ / h], ry = router[y * a + used[y]++ / h];
                    vine__topo_add_link(t, rx, ry, VINE_TOPO_BW, VINE_TOPO_LAT, VINE_LVL_GLOBAL);
                    added = 1;
                }
    }
    free(router);
    free(used);
    return vine__topo_finish(t);
}

/* A k x k x k torus, one host per router, every link GLOBAL, groups = z planes. */
static int torus3(vine_topo *t, int k)
{
    vine__topo_init(t);
    int n = k * k * k;
    for (int i = 0; i < n; i++)
        vine__topo_add_vertex(t, VINE_V_SWITCH, i / (k * k), NULL);
    for (int i = 0; i < n; i++) {
        int x = i % k, y = i / k % k, z = i / (k * k);
        int nb[3] = {(x + 1) % k + y * k + z * k * k, x + (y + 1) % k * k + z * k * k,
                     x + y * k + (z + 1) % k * k * k};
        for (int d = 0; d < 3; d++)
            vine__topo_add_link(t, i, nb[d], VINE_TOPO_BW, VINE_TOPO_LAT, VINE_LVL_GLOBAL);
    }
    for (int i = 0; i < n; i++) {
        int h = vine__topo_add_vertex(t, VINE_V_HOST, i / (k * k), NULL);
        vine__topo_add_link(t, h, i, VINE_TOPO_BW, VINE_TOPO_LAT, VINE_LVL_HOST);
    }
    return vine__topo_finish(t);
}

static int same_result(const vine_sim_result *x, const vine_sim_result *y)
{
    return x->steps == y->steps && x->messages == y->messages && near(y->bytes, x->bytes) &&
           near(y->cross_group_bytes, x->cross_group_bytes) &&
           near(y->level_bytes[1], x->level_bytes[1]) &&
           near(y->level_bytes[2], x->level_bytes[2]) &&
           near(y->level_bytes[3], x->level_bytes[3]) && x->max_arc == y->max_arc &&
           near(y->max_arc_bytes, x->max_arc_bytes) && near(y->time, x->time);
}

static void test_dragonfly(void)
{
    vine_topo t;
    /* a = 4, p = 2, h = 2, g = 9: 36 routers, 72 hosts, one global link per pair of groups. */
    CHECK(dragonfly(&t, 4, 2, 2, 9) == VINE_OK, "dragonfly");
    CHECK(t.nhosts == 72 && t.nlinks == 72 + 9 * 6 + 36, "dragonfly size %d %d", t.nhosts,
          t.nlinks);
    int rh[72];
    for (int i = 0; i < 72; i++)
        rh[i] = i;
    char err[256];
    const char *algos[] = {"bine", "recursive_doubling", "rabenseifner", "ring", "bine_large"};
    for (int metric = 0; metric < 2; metric++)
        for (int k = 0; k < 5; k++) {
            vine_args a = args(VINE_COLL_ALLREDUCE, 64, 1 << 12);
            vine_sim_result x, y;
            const vine_algo *al = vine__algo_find(VINE_COLL_ALLREDUCE, algos[k]);
            vine_router *r;
            CHECK(vine__router_new(&t, &r) == VINE_OK, "router");
            CHECK(vine__router_set_metric(r, metric) == VINE_OK, "metric");
            int rc = vine__sim_run(r, rh, al, &a, 4, &x, err, sizeof err);
            CHECK(rc == VINE_OK, "%s: %d %s", algos[k], rc, err);
            /* The same case again on the warm router, then with tiny caches. */
            rc = vine__sim_run(r, rh, al, &a, 4, &y, err, sizeof err);
            CHECK(rc == VINE_OK && same_result(&x, &y), "%s warm: %d %s", algos[k], rc, err);
            vine__router_limit(r, 1, 2, 3);
            rc = vine__sim_run(r, rh, al, &a, 4, &y, err, sizeof err);
            CHECK(rc == VINE_OK && same_result(&x, &y), "%s tiny caches: %d %s, time %.9g vs %.9g",
                  algos[k], rc, err, x.time, y.time);
            vine__router_free(r);
            /* Every message between different hosts crosses two NIC arcs. */
            CHECK(near(x.level_bytes[VINE_LVL_HOST], 2 * (x.bytes - x.level_bytes[VINE_LVL_NODE])),
                  "%s host bytes", algos[k]);
            /* Global first: exactly one global link between two groups (local, global,
             * local).  Fewest links: some router pairs are as close, or closer, through a
             * third group, so global links carry more. */
            double gb = x.level_bytes[VINE_LVL_GLOBAL], cb = x.cross_group_bytes;
            if (metric == VINE_ROUTE_GLOBAL_FIRST)
                CHECK(near(gb, cb), "%s global first: global %g cross %g", algos[k], gb, cb);
            else
                CHECK(gb > cb && gb < 3 * cb, "%s hops: global %g cross %g", algos[k], gb, cb);
            CHECK(x.time > 0 && x.max_arc >= 0, "%s time", algos[k]);
        }
    vine__topo_free(&t);
}

/* ---- bench mode (timings, not a test) ------------------------------------------------------ */

/* CPU seconds of this process (the machine may be busy with other work). */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static void bench_case(vine_router *r, const int *rh, const char *coll, const char *algo, int p,
                       size_t count)
{
    vine_coll c = (vine_coll)vine__coll_parse(coll);
    vine_args a = args(c, p, count);
    size_t *counts = NULL, *displs = NULL;
    if (c == VINE_COLL_REDUCE_SCATTER || c == VINE_COLL_REDUCE_SCATTER_BLOCK) {
        counts = malloc((size_t)p * sizeof *counts);
        displs = malloc(((size_t)p + 1) * sizeof *displs);
        vine__verify_counts(c, p, count, counts, displs);
        a.counts = counts;
        a.displs = displs;
    }
    vine_sim_result res;
    char err[256];
    double t0 = now();
    int rc = vine__sim_run(r, rh, vine__algo_find(c, algo), &a, 1, &res, err, sizeof err);
    double dt = now() - t0;
    if (rc == VINE_OK)
        printf("%-15s %-20s p=%-6d %8.3f s  msgs %10zu steps %6d  global %.4g B  time %.4g s\n",
               coll, algo, p, dt, res.messages, res.steps, res.level_bytes[VINE_LVL_GLOBAL],
               res.time);
    else
        printf("%-15s %-20s p=%-6d %8.3f s  status %d: %s\n", coll, algo, p, dt, rc, err);
    fflush(stdout);
    free(counts);
    free(displs);
}

static int bench(int argc, char **argv)
{
    const char *what = argc > 2 ? argv[2] : "all";
    vine_topo t;
    vine_router *r;
    int *rh = malloc(200000 * sizeof *rh);
    for (int i = 0; i < 200000; i++)
        rh[i] = i;
    if (!strcmp(what, "all") || !strcmp(what, "16k")) {
        double t0 = now();
        dragonfly(&t, 16, 8, 8, 129);
        vine__router_new(&t, &r);
        printf("dragonfly a=16 p=8 h=8 g=129: %d hosts, %d links, built in %.3f s\n", t.nhosts,
               t.nlinks, now() - t0);
        const char *cases[][2] = {{"bcast", "binomial"},
                                  {"reduce", "binomial"},
                                  {"allreduce", "recursive_doubling"},
                                  {"reduce_scatter", "recursive_halving"},
                                  {"allgather", "recursive_doubling"},
                                  {"alltoall", "bruck"},
                                  {"gather", "binomial"},
                                  {"scatter", "binomial"}};
        double t1 = now();
        for (int k = 0; k < 8; k++)
            bench_case(r, rh, cases[k][0], cases[k][1], 16384, 1 << 20);
        printf("eight collectives, 16384 ranks: %.3f s (router warm-up included)\n", now() - t1);
        t1 = now();
        const char *bine[][2] = {{"bcast", "bine"},          {"reduce", "bine"},
                                 {"allreduce", "bine"},      {"reduce_scatter", "bine_send"},
                                 {"allgather", "bine_send"}, {"alltoall", "bine"},
                                 {"gather", "bine"},         {"scatter", "bine"}};
        for (int k = 0; k < 8; k++)
            bench_case(r, rh, bine[k][0], bine[k][1], 16384, 1 << 20);
        printf("eight bine collectives, 16384 ranks: %.3f s\n", now() - t1);
        vine__router_free(r);
        vine__topo_free(&t);
    }
    if (!strcmp(what, "all") || !strcmp(what, "100k")) {
        double t0 = now();
        dragonfly(&t, 32, 16, 16, 196);
        vine__router_new(&t, &r);
        printf("dragonfly a=32 p=16 h=16 g=196: %d hosts, %d links, built in %.3f s\n", t.nhosts,
               t.nlinks, now() - t0);
        bench_case(r, rh, "allreduce", "bine", 100000, 1 << 20);
        bench_case(r, rh, "allreduce", "recursive_doubling", 100000, 1 << 20);
        vine__router_free(r);
        /* Cold routers each. */
        vine__router_new(&t, &r);
        bench_case(r, rh, "allreduce", "recursive_doubling", 100000, 1 << 20);
        vine__router_free(r);
        vine__topo_free(&t);
    }
    if (!strcmp(what, "all") || !strcmp(what, "torus")) {
        double t0 = now();
        torus3(&t, 16);
        vine__router_new(&t, &r);
        printf("torus 16x16x16: %d hosts, %d links, built in %.3f s\n", t.nhosts, t.nlinks,
               now() - t0);
        bench_case(r, rh, "allreduce", "recursive_doubling", 4096, 1 << 20);
        bench_case(r, rh, "allreduce", "bine", 4096, 1 << 20);
        bench_case(r, rh, "allreduce", "ring", 4096, 1 << 20);
        bench_case(r, rh, "bcast", "binomial", 4096, 1 << 20);
        bench_case(r, rh, "allgather", "bine_send", 4096, 1 << 10);
        bench_case(r, rh, "alltoall", "bruck", 4096, 1 << 10);
        bench_case(r, rh, "alltoall", "pairwise", 4096, 1 << 10);
        vine__router_free(r);
        vine__topo_free(&t);
    }
    if (!strcmp(what, "spec") && argc > 4) {
        /* test_sim bench spec SPEC P [coll algo]...: block placement, one rank per host. */
        char err[256];
        double t0 = now();
        if (vine__topo_parse(argv[3], &t, err, sizeof err) != VINE_OK) {
            printf("%s\n", err);
            free(rh);
            return 1;
        }
        vine__router_new(&t, &r);
        int p = atoi(argv[4]);
        printf("%s: %d hosts, %d links, built in %.3f s\n", t.name, t.nhosts, t.nlinks, now() - t0);
        double t1 = now();
        for (int k = 5; k + 1 < argc; k += 2)
            bench_case(r, rh, argv[k], argv[k + 1], p, 1 << 20);
        printf("total %.3f s\n", now() - t1);
        vine__router_free(r);
        vine__topo_free(&t);
    }
    if (!strcmp(what, "torus-a2a")) {
        torus3(&t, 12);
        vine__router_new(&t, &r);
        bench_case(r, rh, "alltoall", "pairwise", 1728, 1 << 10);
        vine__router_free(r);
        vine__topo_free(&t);
    }
    if (!strcmp(what, "a2a4k")) {
        dragonfly(&t, 16, 8, 8, 129);
        vine__router_new(&t, &r);
        bench_case(r, rh, "alltoall", "linear", 4096, 1024);
        vine__router_free(r);
        vine__topo_free(&t);
    }
    if (!strcmp(what, "all") || !strcmp(what, "a2a")) {
        dragonfly(&t, 16, 8, 8, 129);
        vine__router_new(&t, &r);
        for (int p = 1024; p <= 16384; p *= 2) {
            bench_case(r, rh, "alltoall", "linear", p, 1024);
            bench_case(r, rh, "alltoall", "pairwise", p, 1024);
        }
        vine__router_free(r);
        vine__topo_free(&t);
    }
    free(rh);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "bench") == 0)
        return bench(argc, argv);
    test_fig1();
    test_line();
    test_factors();
    test_clock();
    test_split();
    test_ring();
    test_small_cases();
    test_steps();
    test_dragonfly();
    printf("sim: %ld checks, %ld failed\n", checks, failures);
    return failures ? 1 : 0;
}
