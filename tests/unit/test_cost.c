/*
 * Unit test of the multi-level cost model (src/select/cost.h) and of auto
 * selection from it (no MPI): message classes on small maps, costs worked
 * out by hand in the comments from the formulas of docs/selection.md, the
 * choices on a map whose top level is costly and on one where it is as
 * cheap as the node, the unchanged MPICH choice without a map, the
 * parameter file's loader (good files, malformed ones and their messages,
 * a round trip through the writer) and that the choice does not depend on
 * the caller's rank; the v collectives and the scans (uniform tables priced
 * as the regular collective, one large block deciding the ring, auto's
 * choice for allgatherv and the scans on a map, the rule for the others);
 * the large-message (rendezvous) term, its fit and its keys; contention in
 * proportion to the messages that share a way out.
 * Prints "cost: N passed, M failed".
 */
#include "check.h"
#include "coll/coll.h"
#include "coll/levels.h"
#include "select/cost.h"
#include "select/select.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Costs are sums of a few products: equal up to rounding. */
static int near(double a, double b)
{
    return fabs(a - b) <= 1e-9 * (fabs(a) + fabs(b)) + 1e-12;
}

static vine_levels map_of(const char *spec, int p)
{
    vine_levels m;
    char err[256] = "";
    int rc = vine__levels_parse(spec, p, &m, err, sizeof err);
    CHECK(rc == VINE_OK, "parse %s p=%d: %s", spec, p, err);
    return m;
}

/*
 * Parameters with round numbers: class c costs alpha 1, 10, 100 and beta
 * 0.1, 1, 10 per byte; contention as given for classes 1 and 2.
 */
static vine_cost simple_cost(double cont1, double cont2, double gamma)
{
    vine_cost c;
    vine__cost_defaults(&c);
    c.nclasses = 3;
    c.cls[0] = (vine_cost_level){1, 0.1, 1, 0, 0, 0};
    c.cls[1] = (vine_cost_level){10, 1, cont1, 0, 0, 0};
    c.cls[2] = (vine_cost_level){100, 10, cont2, 0, 0, 0};
    c.gamma = gamma;
    return c;
}

static vine_args args_of(vine_coll coll, const vine_levels *m, int p, int root, size_t count)
{
    vine_args a;
    memset(&a, 0, sizeof a);
    a.coll = coll;
    a.p = p;
    a.root = root;
    a.count = count;
    a.commutative = 1;
    a.levels = m;
    return a;
}

/* The model's cost of (coll, name) for a, or -1 when it has none or it is not registered. */
static double cost_of(const vine_cost *c, const vine_args *a, const char *name)
{
    const vine_algo *algo = vine__algo_find(a->coll, name);
    double t = -1;
    if (!algo || vine__cost_algo(c, algo, a, 1, &t) != VINE_OK)
        return -1;
    return t;
}

static void test_classes(void)
{
    vine_levels m = map_of("block:2,2", 8); /* nodes of 2, switches of 2 nodes */
    CHECK(vine__cost_class(&m, 0, 1) == 0, "same node");
    CHECK(vine__cost_class(&m, 0, 2) == 1, "same switch");
    CHECK(vine__cost_class(&m, 3, 4) == 2, "different switches");
    CHECK(vine__cost_class(&m, 5, 5) == 0, "a rank with itself");
    CHECK(vine__cost_class(NULL, 0, 7) == 1, "no map: one rank per node");
    vine__levels_free(&m);
    vine_cost c = simple_cost(1, 1, 0);
    CHECK(vine__cost_level(&c, 7)->alpha == 100, "a class beyond the entries uses the last");
}

/*
 * block:2,2 at p = 8, root 0, 1-byte blocks.  Binomial gather: the subtree
 * of step k, ranks 2^k .. 2^(k+1) - 1, is of class k here and sends 2^k
 * blocks; no step has more senders than groups below its class: (1 + 0.1)
 * + (10 + 2) + (100 + 40) = 153.1.  Bine: subtrees {1}, {6,7} and {2..5}
 * reach classes 0, 2, 2: 1.1 + 120 + 140 = 261.1.  Leader: stage s has 2
 * participants and receives the other half of the root's level s group:
 * the same 153.1.  A tie keeps the classic.
 */
static void test_block_gather(void)
{
    vine_levels m = map_of("block:2,2", 8);
    vine_cost c = simple_cost(1, 2, 0);
    vine_args a = args_of(VINE_COLL_GATHER, &m, 8, 0, 1);
    CHECK(near(cost_of(&c, &a, "binomial"), 153.1), "binomial %g", cost_of(&c, &a, "binomial"));
    CHECK(near(cost_of(&c, &a, "bine"), 261.1), "bine %g", cost_of(&c, &a, "bine"));
    CHECK(near(cost_of(&c, &a, "leader"), 153.1), "leader %g", cost_of(&c, &a, "leader"));
    vine__select_set_cost(&c);
    CHECK(strcmp(vine__select_auto(&a, 1)->name, "binomial") == 0, "a tie keeps binomial");
    vine__select_set_cost(NULL);
    vine__levels_free(&m);
}

/*
 * Bine where the model favours it (issue 4): nodes {0,1,3,7} and {2,4,5,6},
 * 1 byte.  Rank 0's Bine partners at rho = 1, -1, 3 (ranks 1, 7, 3) are all
 * on its node: 3 x (1 + 0.1) = 3.3; recursive doubling's (1, 2, 4) leave it
 * twice: 1.1 + 2 x (10 + 1) = 23.1; bine_large's six half steps stay home
 * too but are twice as many.  Auto takes bine.
 */
static void test_bine_allreduce(void)
{
    vine_levels m = map_of("ids:0,0,1,0,1,1,1,0", 8);
    vine_cost c = simple_cost(1, 1, 0);
    vine_args a = args_of(VINE_COLL_ALLREDUCE, &m, 8, 0, 1);
    CHECK(near(cost_of(&c, &a, "bine"), 3.3), "bine %g", cost_of(&c, &a, "bine"));
    CHECK(near(cost_of(&c, &a, "recursive_doubling"), 23.1), "recursive_doubling %g",
          cost_of(&c, &a, "recursive_doubling"));
    vine__select_set_cost(&c);
    CHECK(strcmp(vine__select_auto(&a, 1)->name, "bine") == 0, "allreduce: bine, got %s",
          vine__select_auto(&a, 1)->name);
    a.commutative = 0;
    CHECK(strcmp(vine__select_auto(&a, 1)->name, "recursive_doubling") == 0,
          "non-commutative: recursive_doubling, got %s", vine__select_auto(&a, 1)->name);
    vine__select_set_cost(NULL);
    vine__levels_free(&m);
}

/*
 * The SimGrid experiment's job (docs/performance.md): switch A with 4 nodes
 * of 16 ranks, switch B with 29 nodes of 8, root 0, every alpha 0 and every
 * beta 1, 1-byte blocks.  Binomial moves p - 1 = 295 blocks into the root.
 * Leader's root path takes 15 + 48 + 232 = 295 too, but switch B's leader
 * first gathers 7 + 224 blocks and then sends all 232: 463, so binomial
 * is chosen.  With the start-ups back (alpha 1, 10, 100) and beta 0 the
 * fewer steps of leader win.
 */
static void test_two_switches(void)
{
    vine_levels m = map_of(
        "sizes:16,16,16,16,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8/sizes:4,29",
        296);
    vine_cost c = simple_cost(1, 1, 0);
    for (int i = 0; i < 3; i++)
        c.cls[i] = (vine_cost_level){0, 1, 1, 0, 0, 0};
    vine_args a = args_of(VINE_COLL_GATHER, &m, 296, 0, 1);
    CHECK(near(cost_of(&c, &a, "binomial"), 295), "binomial %g", cost_of(&c, &a, "binomial"));
    CHECK(near(cost_of(&c, &a, "leader"), 463), "leader %g", cost_of(&c, &a, "leader"));
    vine__select_set_cost(&c);
    CHECK(strcmp(vine__select_auto(&a, 1)->name, "binomial") == 0, "bandwidth-bound: binomial");
    a.coll = VINE_COLL_SCATTER;
    CHECK(strcmp(vine__select_auto(&a, 1)->name, "binomial") == 0, "scatter too");
    a.coll = VINE_COLL_GATHER;
    c = simple_cost(1, 1, 0);
    for (int i = 0; i < 3; i++)
        c.cls[i].beta = 0;
    vine__select_set_cost(&c);
    CHECK(strcmp(vine__select_auto(&a, 1)->name, "leader") == 0, "latency-bound: leader, got %s",
          vine__select_auto(&a, 1)->name);
    vine__select_set_cost(NULL);
    vine__levels_free(&m);
}

/*
 * Two nodes of 4 with ranks scattered, {0,3,5,6} and {1,2,4,7}, root 0.
 * Binomial: subtrees {1}, {2,3}, {4..7} each reach the other node: (10 +
 * 1) + (10 + 2) + (10 + 4) = 37.  Bine: subtrees {1}, {6,7}, {2..5}, the
 * same 37.  Leader: 2 steps in the node (2 + 0.3), one across (10 + 4):
 * 16.3, chosen.  With root 3 (not its node's leader) leader pays one more
 * step of all 8 blocks in the node, 1 + 0.8: 18.1.  With every class priced like the
 * node, binomial costs 3 + 0.7 = 3.7 and leader 2.3 + 1.4 = 3.7: the tie
 * keeps binomial, and with root 3 leader's extra step makes it strictly
 * dearer.
 */
static void test_scattered_gather(void)
{
    vine_levels m = map_of("ids:0,1,1,0,1,0,0,1", 8);
    vine_cost c = simple_cost(1, 1, 0);
    vine_args a = args_of(VINE_COLL_GATHER, &m, 8, 0, 1);
    CHECK(near(cost_of(&c, &a, "binomial"), 37), "binomial %g", cost_of(&c, &a, "binomial"));
    CHECK(near(cost_of(&c, &a, "bine"), 37), "bine %g", cost_of(&c, &a, "bine"));
    CHECK(near(cost_of(&c, &a, "leader"), 16.3), "leader %g", cost_of(&c, &a, "leader"));
    vine__select_set_cost(&c);
    CHECK(strcmp(vine__select_auto(&a, 1)->name, "leader") == 0, "costly top: leader, got %s",
          vine__select_auto(&a, 1)->name);
    a.coll = VINE_COLL_SCATTER;
    CHECK(strcmp(vine__select_auto(&a, 1)->name, "leader") == 0, "scatter: leader");
    a.coll = VINE_COLL_GATHER;
    a.root = 3;
    CHECK(near(cost_of(&c, &a, "leader"), 18.1), "leader root 3 %g", cost_of(&c, &a, "leader"));

    vine_cost cheap = simple_cost(1, 1, 0);
    cheap.cls[1] = cheap.cls[2] = cheap.cls[0];
    vine__select_set_cost(&cheap);
    a.root = 0;
    CHECK(near(cost_of(&cheap, &a, "binomial"), 3.7), "cheap binomial");
    CHECK(near(cost_of(&cheap, &a, "leader"), 3.7), "cheap leader");
    CHECK(strcmp(vine__select_auto(&a, 1)->name, "binomial") == 0, "cheap top: binomial");
    a.root = 3;
    CHECK(strcmp(vine__select_auto(&a, 1)->name, "binomial") == 0, "cheap top, root 3");
    vine__select_set_cost(NULL);
    vine__levels_free(&m);
}

/*
 * Allreduce of 8 bytes on two nodes of 4 (block:4), contention 3 across
 * nodes, gamma 0.01.  Recursive doubling: two steps in the node (1 + 0.8 +
 * 0.08 each), one across with 8 senders for 2 nodes, so contended: 10 + 8 *
 * 3 + 0.08: 37.84 in all.  Rabenseifner, nearest partner first: 4 bytes
 * in the node twice (2 * 1.4) + 0.04, then 2 * 1.2 + 0.02, then 1 byte
 * across twice (2 * (10 + 3)) + 0.01: 31.27.  Ring: 14 steps across (one sender per node: no
 * contention) of 1 byte, 14 * 11 + 0.07 = 154.07.  Hierarchical: 6 ring
 * steps of 2 bytes in the node (7.2) + 0.06 reduced, one step of 2 bytes
 * across with 8 senders (10 + 6) + 0.02: 23.28, chosen.
 */
static void test_allreduce(void)
{
    vine_levels m = map_of("block:4", 8);
    vine_cost c = simple_cost(3, 3, 0.01);
    vine_args a = args_of(VINE_COLL_ALLREDUCE, &m, 8, 0, 8);
    CHECK(near(cost_of(&c, &a, "recursive_doubling"), 37.84), "rd %g",
          cost_of(&c, &a, "recursive_doubling"));
    CHECK(near(cost_of(&c, &a, "rabenseifner"), 31.27), "rab %g", cost_of(&c, &a, "rabenseifner"));
    CHECK(near(cost_of(&c, &a, "ring"), 154.07), "ring %g", cost_of(&c, &a, "ring"));
    if (vine__algo_find(VINE_COLL_ALLREDUCE, "hier")) {
        CHECK(near(cost_of(&c, &a, "hier"), 23.28), "hier %g", cost_of(&c, &a, "hier"));
        vine__select_set_cost(&c);
        CHECK(strcmp(vine__select_auto(&a, 1)->name, "hier") == 0, "allreduce: hier");
        vine__select_set_cost(NULL);
    }
    if (vine__algo_find(VINE_COLL_ALLREDUCE, "hier_rd"))
        CHECK(near(cost_of(&c, &a, "hier_rd"), 23.28), "hier_rd %g", cost_of(&c, &a, "hier_rd"));
    a.commutative = 0; /* only recursive doubling is admitted */
    vine__select_set_cost(&c);
    CHECK(strcmp(vine__select_auto(&a, 1)->name, "recursive_doubling") == 0, "non-commutative");
    vine__select_set_cost(NULL);
    vine__levels_free(&m);
}

/*
 * The same 8 bytes on nodes of 5 and 3 ranks (sizes:5,3): 3 lanes, and in
 * the node of 5 the lanes of local indices 0, 3 and 1, 4 fold one step
 * each way (2 (1 + 0.8) + 0.08 = 3.68).  Rings of 3 on 8/3 bytes: 4 (1 +
 * 0.8/3) + 2/3 * 0.08; across, one step of 8/3 bytes with 6 senders for 2
 * nodes, contended: 10 + 8 + 0.08/3.  26.8267 in all, for hier and hier_rd.
 */
static void test_allreduce_lanes(void)
{
    vine_levels m = map_of("sizes:5,3", 8);
    vine_cost c = simple_cost(3, 3, 0.01);
    vine_args a = args_of(VINE_COLL_ALLREDUCE, &m, 8, 0, 8);
    double want = 3.68 + 4 * (1 + 0.8 / 3) + 0.16 / 3 + 18 + 0.08 / 3;
    CHECK(near(cost_of(&c, &a, "hier"), want), "hier on lanes %g", cost_of(&c, &a, "hier"));
    CHECK(near(cost_of(&c, &a, "hier_rd"), want), "hier_rd on lanes %g",
          cost_of(&c, &a, "hier_rd"));
    vine__levels_free(&m);
}

/*
 * 1 MiB on four nodes of 2 (block:2, p = 8), contention 3 across nodes,
 * gamma 0.01.  In the node, both rings: 2 (1 + 2^19 * 0.1) + 2^19 * 0.01.
 * Across, 8 senders for 4 nodes (contended): hier exchanges the whole block
 * of 2^19 bytes twice (2 (10 + 3 * 2^19) + 2 * 2^19 * 0.01); hier_large and
 * hier_rab reduce-scatter and allgather it, 2^18 then 2^17 bytes each way
 * (2 (10 + 3 * 2^18) + 2^18 * 0.01 + 2 (10 + 3 * 2^17) + 2^17 * 0.01).
 * Every step across crosses one class, so Bine and Rabenseifner tie.
 */
static void test_allreduce_large(void)
{
    vine_levels m = map_of("block:2", 8);
    vine_cost c = simple_cost(3, 3, 0.01);
    vine_args a = args_of(VINE_COLL_ALLREDUCE, &m, 8, 0, 1 << 20);
    double h = 0x1p19, node = 2 * (1 + h * 0.1) + h * 0.01;
    double rs_ag = 2 * (10 + 3 * h / 2) + h / 2 * 0.01 + 2 * (10 + 3 * h / 4) + h / 4 * 0.01;
    double whole = 2 * (10 + 3 * h) + 2 * h * 0.01;
    CHECK(near(cost_of(&c, &a, "hier"), node + whole), "hier %g", cost_of(&c, &a, "hier"));
    CHECK(near(cost_of(&c, &a, "hier_large"), node + rs_ag), "hier_large %g",
          cost_of(&c, &a, "hier_large"));
    CHECK(near(cost_of(&c, &a, "hier_rab"), node + rs_ag), "hier_rab %g",
          cost_of(&c, &a, "hier_rab"));
    vine__levels_free(&m);
}

/*
 * Bcast of 1 MiB on four nodes of 2 (block:2, p = 8), no contention.  hier:
 * one binomial step of the whole buffer in the node (1 + 2^20 * 0.1) and
 * two among the nodes (2 (10 + 2^20)).  hier_large: the scatter in the
 * root's node (1 + 2^19 * 0.1) and the ring (1 + 2^19 * 0.1); across, the
 * 2^19-byte block in 4 pieces of 2^17, scatter and allgather priced as two
 * recursive-doubling allgathers: 2 ((10 + 2^17) + (10 + 2^18)).  auto picks
 * hier_large.
 */
static void test_bcast_large(void)
{
    vine_levels m = map_of("block:2", 8);
    vine_cost c = simple_cost(1, 1, 0.01);
    vine_args a = args_of(VINE_COLL_BCAST, &m, 8, 0, 1 << 20);
    double n = 0x1p20, h = n / 2, piece = h / 4;
    double hier = 1 + n * 0.1 + 2 * (10 + n);
    double large = 2 * (1 + h * 0.1) + 2 * ((10 + piece) + (10 + 2 * piece));
    CHECK(near(cost_of(&c, &a, "hier"), hier), "bcast hier %g", cost_of(&c, &a, "hier"));
    CHECK(near(cost_of(&c, &a, "hier_large"), large), "bcast hier_large %g",
          cost_of(&c, &a, "hier_large"));
    vine__select_set_cost(&c);
    CHECK(strcmp(vine__select_auto(&a, 1)->name, "hier_large") == 0,
          "bcast 1 MiB: hier_large, got %s", vine__select_auto(&a, 1)->name);
    vine__select_set_cost(NULL);
    vine__levels_free(&m);
}

/*
 * Reduce of 1 MiB to rank 0 on the same map and costs.  hier_large: the ring
 * in the node (1 + 2^19 * 0.11), the other block to the root (1 + 2^19 *
 * 0.1); across, Bine's reduce-scatter and gather of the 2^19-byte block, 2^18
 * then 2^17 bytes each way with the first half reduced: 2 (10 + 2^18) +
 * 2^18 * 0.01 + 2 (10 + 2^17) + 2^17 * 0.01.  Rabenseifner, nearest partner
 * first: the reduce-scatter sends 2^19 bytes in the node, 2^18 and 2^17
 * across, each reduced; the gather 2^17 and 2^18 across, 2^19 in the node.
 * It keeps the largest pieces in the node as hier_large does and saves
 * hier_large's extra pass in the node: cheaper by 0.6%, and auto's choice.
 */
static void test_reduce_large(void)
{
    vine_levels m = map_of("block:2", 8);
    vine_cost c = simple_cost(1, 1, 0.01);
    vine_args a = args_of(VINE_COLL_REDUCE, &m, 8, 0, 1 << 20);
    double h = 0x1p19;
    double want = (1 + h * 0.11) + (1 + h * 0.1) + 2 * (10 + h / 2) + h / 2 * 0.01 +
                  2 * (10 + h / 4) + h / 4 * 0.01;
    CHECK(near(cost_of(&c, &a, "hier_large"), want), "reduce hier_large %g",
          cost_of(&c, &a, "hier_large"));
    double rab = (1 + h * 0.1) + h * 0.01 + (10 + h / 2) + h / 2 * 0.01 + (10 + h / 4) +
                 h / 4 * 0.01 + (10 + h / 4) + (10 + h / 2) + (1 + h * 0.1);
    CHECK(near(cost_of(&c, &a, "rabenseifner"), rab), "reduce rabenseifner %g, want %g",
          cost_of(&c, &a, "rabenseifner"), rab);
    vine__select_set_cost(&c);
    CHECK(strcmp(vine__select_auto(&a, 1)->name, "rabenseifner") == 0,
          "reduce 1 MiB: rabenseifner, got %s", vine__select_auto(&a, 1)->name);
    vine__select_set_cost(NULL);
    vine__levels_free(&m);
}

/*
 * reduce bine_large's gather, priced from its own senders (cost.c,
 * halving_gather): p = 16 in nodes of 4 (block:4), root 0, one-byte blocks,
 * classes 0 (alpha 1, beta 0.1) and 1 (10, 1, contention 2), gamma 0.  The
 * Bine steps reach from the root {1}, then {15, 2}, {3, 14, 12, 5} and
 * {11, 6, 4, 13, 8, 9, 7, 10}; the gather undoes them, the last first:
 *   8 ranks send a byte each: 11, 8 -> 0, 3 (node 2 to node 0) and 4, 7 ->
 *     15, 12 (node 1 to 3) go two between one pair of nodes, contended:
 *     10 + 1 x 2 = 12;
 *   {3, 14, 12, 5} send 2 bytes to {0, 1, 15, 2}: two cross, to different
 *     nodes: 10 + 2 = 12;  {15, 2} send 4 to {0, 1}: 10 + 4 = 14;
 *   1 sends 8 to 0 in its node: 1 + 0.8 = 1.8;  39.8 in all.
 * The reduce-scatter, from every rank's pair: 8 bytes in the nodes (1.8),
 * 4 across at rho = -1 (14), 2 at 3 (12) and 1 at -5 (12; 0 -> 11 and
 * 3 -> 8 both go from node 0 to 2: contended), 39.8.  The gather with its
 * senders counted the other way round (one rank at the first step, eight at
 * the last) priced the first step uncontended: 78.6.
 */
static void test_reduce_gather_senders(void)
{
    vine_levels m = map_of("block:4", 16);
    vine_cost c = simple_cost(2, 2, 0);
    vine_args a = args_of(VINE_COLL_REDUCE, &m, 16, 0, 16);
    CHECK(near(cost_of(&c, &a, "bine_large"), 79.6), "reduce bine_large %g, want 79.6",
          cost_of(&c, &a, "bine_large"));
    vine__levels_free(&m);
    /* On the SimGrid study's LUMI job the gather's senders decide reduce of 1 MiB for
     * bine_large (SimGrid: rabenseifner 1.09 of its time) and keep rabenseifner at 64 KiB
     * (the fastest there; docs/scale.md). */
    m = map_of("block:1,4,31", 1024);
    a = args_of(VINE_COLL_REDUCE, &m, 1024, 0, 1 << 20);
    CHECK(strcmp(vine__select_auto(&a, 1)->name, "bine_large") == 0,
          "reduce 1 MiB on the LUMI job: bine_large, got %s", vine__select_auto(&a, 1)->name);
    a.count = 1 << 16;
    CHECK(strcmp(vine__select_auto(&a, 1)->name, "rabenseifner") == 0,
          "reduce 64 KiB on the LUMI job: rabenseifner, got %s", vine__select_auto(&a, 1)->name);
    vine__levels_free(&m);
}

/*
 * The Bine candidates of bcast (bine_large), reduce (bine_large) and
 * allgather (bine_permute).  With every class alike (alpha 1, beta 0.1, no
 * contention, gamma 0.01) the partners' classes do not matter: reduce
 * bine_large has rabenseifner's steps and bytes, so their prices are equal
 * and the tie keeps rabenseifner; bcast bine_large ties with
 * scatter_allgather_rd; allgather bine_permute is recursive doubling's
 * 3 steps of 1, 2 and 4 one-byte blocks, (1 + 0.1) + (1 + 0.2) + (1 + 0.4)
 * = 3.7, plus its copy of the 8 blocks into rank order, 8 x 0.1: 4.5.  On a
 * map like the SimGrid study's LUMI job (1,024 ranks, a rank a node,
 * switches of 4, groups of 124) with the built-in parameters, bcast of
 * 1 MiB goes to bine_large: its allgather keeps the large steps near, where
 * scatter_allgather_rd's recursive doubling sends them across the groups
 * (SimGrid: 451 against 971 us, docs/scale.md).  The reduce_scatter_block
 * prices below are worked out beside them.
 */
static void test_bine_candidates(void)
{
    vine_levels m = map_of("block:2,2", 8);
    vine_cost c = simple_cost(1, 1, 0.01);
    for (int i = 0; i < 3; i++)
        c.cls[i] = (vine_cost_level){1, 0.1, 1, 0, 0, 0};
    vine_args a = args_of(VINE_COLL_REDUCE, &m, 8, 0, 1 << 20);
    double rab = cost_of(&c, &a, "rabenseifner"), bl = cost_of(&c, &a, "bine_large");
    CHECK(rab > 0 && near(bl, rab), "reduce bine_large %g, rabenseifner %g", bl, rab);
    vine__select_set_cost(&c);
    CHECK(strcmp(vine__select_auto(&a, 1)->name, "rabenseifner") == 0,
          "reduce: a tie keeps rabenseifner, got %s", vine__select_auto(&a, 1)->name);
    a.coll = VINE_COLL_BCAST;
    double sag = cost_of(&c, &a, "scatter_allgather_rd");
    bl = cost_of(&c, &a, "bine_large");
    CHECK(sag > 0 && near(bl, sag), "bcast bine_large %g, scatter_allgather_rd %g", bl, sag);
    a = args_of(VINE_COLL_ALLGATHER, &m, 8, 0, 1);
    CHECK(near(cost_of(&c, &a, "recursive_doubling"), 3.7), "allgather rd %g",
          cost_of(&c, &a, "recursive_doubling"));
    CHECK(near(cost_of(&c, &a, "bine_permute"), 4.5), "allgather bine_permute %g",
          cost_of(&c, &a, "bine_permute"));
    /* reduce_scatter_block of one-byte blocks, n = 8: recursive halving's 4, 2 and 1 bytes,
     * each reduced: (1 + 0.4 + 0.04) + (1 + 0.2 + 0.02) + (1 + 0.1 + 0.01) = 3.77;
     * bine_permute the same plus its copy, 8 x 0.1: 4.57; pairwise 7 x (1 + 0.1 + 0.01). */
    a = args_of(VINE_COLL_REDUCE_SCATTER_BLOCK, &m, 8, 0, 1);
    CHECK(near(cost_of(&c, &a, "recursive_halving"), 3.77), "rsb recursive_halving %g",
          cost_of(&c, &a, "recursive_halving"));
    CHECK(near(cost_of(&c, &a, "bine_permute"), 4.57), "rsb bine_permute %g",
          cost_of(&c, &a, "bine_permute"));
    CHECK(near(cost_of(&c, &a, "pairwise"), 7.77), "rsb pairwise %g", cost_of(&c, &a, "pairwise"));
    CHECK(strcmp(vine__select_auto(&a, 1)->name, "recursive_halving") == 0,
          "rsb: recursive_halving, got %s", vine__select_auto(&a, 1)->name);
    a.commutative = 0;
    CHECK(strcmp(vine__select_auto(&a, 1)->name, "recursive_doubling") == 0,
          "rsb, non-commutative: the rule's recursive_doubling, got %s",
          vine__select_auto(&a, 1)->name);
    vine__select_set_cost(NULL);
    vine__levels_free(&m);
    m = map_of("block:1,4,31", 1024);
    a = args_of(VINE_COLL_BCAST, &m, 1024, 0, 1 << 20);
    CHECK(strcmp(vine__select_auto(&a, 1)->name, "bine_large") == 0,
          "bcast 1 MiB on the LUMI job: bine_large, got %s", vine__select_auto(&a, 1)->name);
    /* 1 KiB blocks: bine_permute, where MPICH's rule (1 MiB in all) takes pairwise's 1,023
     * steps and recursive halving sends its half vector across the groups first (SimGrid:
     * 238 against 9,241 and 815 us).  The same for allgather's 1 KiB blocks (SimGrid:
     * bine_permute 234, recursive doubling 869 us) and allreduce's 1 MiB (bine_large 461,
     * rabenseifner 532 us). */
    a = args_of(VINE_COLL_REDUCE_SCATTER_BLOCK, &m, 1024, 0, 1024);
    CHECK(strcmp(vine__select_auto(&a, 1)->name, "bine_permute") == 0,
          "rsb 1 KiB blocks on the LUMI job: bine_permute, got %s", vine__select_auto(&a, 1)->name);
    a = args_of(VINE_COLL_ALLGATHER, &m, 1024, 0, 1024);
    CHECK(strcmp(vine__select_auto(&a, 1)->name, "bine_permute") == 0,
          "allgather 1 KiB blocks on the LUMI job: bine_permute, got %s",
          vine__select_auto(&a, 1)->name);
    a = args_of(VINE_COLL_ALLREDUCE, &m, 1024, 0, 1 << 20);
    CHECK(strcmp(vine__select_auto(&a, 1)->name, "bine_large") == 0,
          "allreduce 1 MiB on the LUMI job: bine_large, got %s", vine__select_auto(&a, 1)->name);
    vine__levels_free(&m);
}

/*
 * A Bine step is priced from every rank's pair (cost.c, bine_step): the
 * latency of the median message's class, the bandwidth of the highest class
 * any message crosses, contended only when two of those messages go
 * between the same two groups.  Classes 0 (alpha 1, beta 0.1), 1 (10, 1)
 * and 2 (100, 10), contention 3 above class 0, one-byte blocks.
 *   p = 16, two nodes of 8 (block:8), allgather bine_permute, step j to
 *   the partner at rho(3 - j) (r + rho for even r, r - rho for odd):
 *   rho = -5: 12 of 16 messages cross the nodes: 10 + 1 x 1 x 3 = 13;
 *   rho = 3: 4 cross (6-9, 14-1 both ways), median class 0, two of them
 *   from node 0 to node 1: 1 + 2 x 3 = 7; rho = -1: 4 cross (0-15, 7-8):
 *   1 + 4 x 3 = 13; rho = 1: inside the nodes, 1 + 8 x 0.1 = 1.8; the copy
 *   into rank order 16 x 0.1 = 1.6: 36.4.  (Rank 0's pairs alone, as
 *   before: 13 + 1.2 + 22 + 1.8 + 1.6 = 39.6.)  reduce_scatter_block
 *   bine_permute sends the same steps in reverse with the halves: 36.4;
 *   recursive halving, the farthest first: 10 + 8 x 3, then 1.4, 1.2, 1.1:
 *   37.7.
 *   p = 8, switches of two nodes of 2 (block:2,2): rho = 3 and -1 send half
 *   the messages across the switches, two of them between the same two:
 *   100 + 1 x 10 x 3 = 130 and 100 + 2 x 10 x 3 = 160; rho = 1 inside the
 *   nodes, 1.4; the copy 0.8: 292.2.
 */
static void test_bine_steps(void)
{
    vine_cost c = simple_cost(3, 3, 0);
    vine_levels m = map_of("block:8", 16);
    vine_args a = args_of(VINE_COLL_ALLGATHER, &m, 16, 0, 1);
    CHECK(near(cost_of(&c, &a, "bine_permute"), 36.4), "p=16 allgather bine_permute %g",
          cost_of(&c, &a, "bine_permute"));
    a = args_of(VINE_COLL_REDUCE_SCATTER_BLOCK, &m, 16, 0, 1);
    CHECK(near(cost_of(&c, &a, "bine_permute"), 36.4), "p=16 rsb bine_permute %g",
          cost_of(&c, &a, "bine_permute"));
    CHECK(near(cost_of(&c, &a, "recursive_halving"), 37.7), "p=16 rsb recursive_halving %g",
          cost_of(&c, &a, "recursive_halving"));
    vine__levels_free(&m);
    m = map_of("block:2,2", 8);
    a = args_of(VINE_COLL_ALLGATHER, &m, 8, 0, 1);
    CHECK(near(cost_of(&c, &a, "bine_permute"), 292.2), "p=8 allgather bine_permute %g",
          cost_of(&c, &a, "bine_permute"));
    vine__levels_free(&m);
}

/* Without a map, or with a flat one, auto keeps MPICH's rules. */
static void test_flat_unchanged(void)
{
    vine_cost c = simple_cost(50, 50, 0);
    vine__select_set_cost(&c);
    vine_args a = args_of(VINE_COLL_GATHER, NULL, 8, 0, 1);
    CHECK(strcmp(vine__select_auto(&a, 1)->name, "binomial") == 0, "gather, no map");
    vine_levels flat = map_of("flat", 8);
    a.levels = &flat;
    CHECK(strcmp(vine__select_auto(&a, 1)->name, "binomial") == 0, "gather, flat map");
    a.coll = VINE_COLL_ALLREDUCE;
    a.count = 1 << 20;
    CHECK(strcmp(vine__select_auto(&a, 1)->name, "rabenseifner") == 0, "allreduce, flat map");
    vine_select_why why;
    vine__select_explain(&a, 1, &why);
    CHECK(!why.by_model && why.n >= 3, "explain on a flat map: rules, %d candidates", why.n);
    vine__levels_free(&flat);
    vine__select_set_cost(NULL);
}

/*
 * Every candidate is priced, finite and positive on assorted maps, the
 * choice is admitted, and it is the same whatever the caller's rank.
 */
static void test_sweep(void)
{
    static const char *const specs[] = {"block:4", "block:2,2", "cyclic:3", "random:5:4,2",
                                        "sizes:1,3,5,7/block:2"};
    static const vine_coll colls[] = {VINE_COLL_BCAST,     VINE_COLL_REDUCE, VINE_COLL_ALLREDUCE,
                                      VINE_COLL_ALLGATHER, VINE_COLL_GATHER, VINE_COLL_SCATTER};
    for (int si = 0; si < 5; si++)
        for (int p = 2; p <= 40; p += 7) {
            vine_levels m = map_of(specs[si], p);
            for (int ci = 0; ci < 6; ci++)
                for (size_t count = 1; count < (1u << 22); count <<= 7) {
                    vine_args a = args_of(colls[ci], &m, p, p / 3, count);
                    vine_select_why w0, w1;
                    const vine_algo *c0 = vine__select_explain(&a, 4, &w0);
                    CHECK(c0 && vine__algo_admits(c0, &a) == VINE_OK, "%s p=%d admitted", specs[si],
                          p);
                    for (int i = 0; i < w0.n; i++)
                        CHECK(!w0.cand[i].priced ||
                                  (isfinite(w0.cand[i].cost) && w0.cand[i].cost > 0),
                              "%s %s p=%d cost %g", specs[si], w0.cand[i].algo->name, p,
                              w0.cand[i].cost);
                    a.rank = p - 1;
                    const vine_algo *c1 = vine__select_explain(&a, 4, &w1);
                    CHECK(c0 == c1 && w0.n == w1.n, "rank-independent");
                    for (int i = 0; i < w0.n && i < w1.n; i++)
                        CHECK(w0.cand[i].cost == w1.cand[i].cost, "same costs");
                    CHECK(vine__select_auto(&a, 4) == c0, "auto == explain");
                }
            vine__levels_free(&m);
        }
}

/* ---- the v collectives and the scans ------------------------------------ */

/* a with the table t (p entries) as allgatherv's rcounts, gatherv's or scatterv's. */
static vine_args v_args(vine_coll coll, const vine_levels *m, int p, int root, const size_t *t)
{
    vine_args a = args_of(coll, m, p, root, 0);
    if (coll == VINE_COLL_SCATTERV)
        a.scounts = t;
    else
        a.rcounts = t;
    return a;
}

/*
 * Uniform tables price as the regular collective where the schedules are
 * the same: allgatherv ring, recursive doubling (p a power of two) and
 * Bruck as allgather's; gatherv and scatterv binomial as gather's binomial
 * tree plus the binomial broadcast of the p counts (8 bytes each) that
 * precedes them.  On assorted maps and sizes.
 */
static void test_v_uniform(void)
{
    static const char *const specs[] = {"block:2,2", "block:4", "cyclic:3",
                                        "sizes:1,3,5,7/block:2"};
    size_t t[64];
    vine_cost c = simple_cost(2, 3, 0.5);
    for (int si = 0; si < 4; si++)
        for (int p = 2; p <= 40; p += 3) {
            vine_levels m = map_of(specs[si], p);
            for (size_t b = 1; b < 100000; b *= 37) {
                for (int i = 0; i < p; i++)
                    t[i] = b;
                vine_args v = v_args(VINE_COLL_ALLGATHERV, &m, p, 0, t);
                vine_args r = args_of(VINE_COLL_ALLGATHER, &m, p, 0, b);
                CHECK(near(cost_of(&c, &v, "ring"), cost_of(&c, &r, "ring")), "%s p=%d ring %g %g",
                      specs[si], p, cost_of(&c, &v, "ring"), cost_of(&c, &r, "ring"));
                CHECK(near(cost_of(&c, &v, "bruck"), cost_of(&c, &r, "bruck")), "%s p=%d bruck",
                      specs[si], p);
                if ((p & (p - 1)) == 0)
                    CHECK(near(cost_of(&c, &v, "recursive_doubling"),
                               cost_of(&c, &r, "recursive_doubling")),
                          "%s p=%d rd", specs[si], p);
                else
                    CHECK(cost_of(&c, &v, "recursive_doubling") >=
                              cost_of(&c, &r, "recursive_doubling"),
                          "%s p=%d rd with its fix-up", specs[si], p);
                CHECK(cost_of(&c, &v, "bine_block") > 0, "%s p=%d bine_block", specs[si], p);
                vine_args bc = args_of(VINE_COLL_BCAST, &m, p, p / 3, (size_t)p * 8);
                for (int g = 0; g < 2; g++) {
                    vine_coll vc = g ? VINE_COLL_SCATTERV : VINE_COLL_GATHERV;
                    v = v_args(vc, &m, p, p / 3, t);
                    r = args_of(g ? VINE_COLL_SCATTER : VINE_COLL_GATHER, &m, p, p / 3, b);
                    double want = cost_of(&c, &r, "binomial") + cost_of(&c, &bc, "binomial");
                    CHECK(near(cost_of(&c, &v, "binomial"), want), "%s p=%d %sv binomial %g %g",
                          specs[si], p, g ? "scatter" : "gather", cost_of(&c, &v, "binomial"),
                          want);
                    CHECK(cost_of(&c, &v, "linear") > 0, "%s p=%d linear", specs[si], p);
                }
            }
            vine__levels_free(&m);
        }
}

/*
 * One block 10 times the others decides the ring: block:2,2 at p = 8,
 * blocks of 10 bytes but one of 100, contention 1.  The ring crosses class
 * 2 in all 7 steps, each waiting for the 100 bytes: 7 (100 + 1000) = 7700,
 * allgather ring's price for blocks of 100, not for the mean (21.25).
 * Recursive doubling: the groups holding the large block, 100, 110 and
 * 130 bytes at classes 0, 1, 2: 11 + 120 + 1400 = 1531.  Bruck: runs of 1,
 * 2, 4 blocks with the large one, 100, 110, 130 bytes, all of class 2
 * (partners 7, 6, 4), + the rotation of 170 bytes at 0.1: 3717.  Bine
 * block (uniform 1 byte: 1, 2 and 4 blocks at rank 0's partners 3, 7, 1,
 * classes 1, 2, 0: 11 + 120 + 1.4 = 132.4; one block of 10: the largest
 * 1, 2, 4 blocks, 10, 11, 13 bytes: 20 + 210 + 2.3 = 232.3; the skewed
 * table: 100, 110, 130 bytes at classes 1, 2, 0: 110 + 1200 + 14 = 1324,
 * its largest step inside the node).  gatherv linear, root 0, 1-byte
 * blocks: 1.1 + 2 x 11 + 4 x 110 = 463.1.  Auto with the map prices every
 * allgatherv candidate and takes the cheapest, bine_block, whatever the
 * caller's rank.
 */
static void test_v_skewed(void)
{
    vine_levels m = map_of("block:2,2", 8);
    vine_cost c = simple_cost(1, 1, 0);
    size_t t[8], big[8];
    for (int i = 0; i < 8; i++)
        t[i] = 10, big[i] = 100;
    t[5] = 100;
    vine_args v = v_args(VINE_COLL_ALLGATHERV, &m, 8, 0, t);
    vine_args r = args_of(VINE_COLL_ALLGATHER, &m, 8, 0, 100);
    CHECK(near(cost_of(&c, &v, "ring"), 7700), "ring %g", cost_of(&c, &v, "ring"));
    CHECK(near(cost_of(&c, &v, "ring"), cost_of(&c, &r, "ring")), "ring as blocks of 100");
    vine_args vb = v_args(VINE_COLL_ALLGATHERV, &m, 8, 0, big);
    CHECK(near(cost_of(&c, &v, "ring"), cost_of(&c, &vb, "ring")), "ring: the largest decides");
    CHECK(near(cost_of(&c, &v, "recursive_doubling"), 1531), "rd %g",
          cost_of(&c, &v, "recursive_doubling"));
    CHECK(near(cost_of(&c, &v, "bruck"), 3717), "bruck %g", cost_of(&c, &v, "bruck"));
    CHECK(near(cost_of(&c, &v, "bine_block"), 1324), "bine_block %g",
          cost_of(&c, &v, "bine_block"));
    size_t one[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    vine_args v1 = v_args(VINE_COLL_ALLGATHERV, &m, 8, 0, one);
    CHECK(near(cost_of(&c, &v1, "bine_block"), 132.4), "bine_block %g",
          cost_of(&c, &v1, "bine_block"));
    one[6] = 10;
    CHECK(near(cost_of(&c, &v1, "bine_block"), 232.3), "bine_block skewed %g",
          cost_of(&c, &v1, "bine_block"));
    one[6] = 1;
    vine_args g = v_args(VINE_COLL_GATHERV, &m, 8, 0, one);
    CHECK(near(cost_of(&c, &g, "linear"), 463.1), "gatherv linear %g", cost_of(&c, &g, "linear"));

    vine__select_set_cost(&c);
    for (int rank = 0; rank < 8; rank += 7) {
        v.rank = rank;
        vine_select_why w;
        const vine_algo *got = vine__select_explain(&v, 1, &w);
        int best = -1;
        for (int i = 0; i < w.n; i++)
            if (w.cand[i].priced && (best < 0 || w.cand[i].cost < w.cand[best].cost))
                best = i;
        CHECK(w.by_model && w.n == 4 && best >= 0 && got == w.cand[best].algo,
              "allgatherv by the model: %s, %d candidates", got ? got->name : "-", w.n);
        CHECK(got && strcmp(got->name, "bine_block") == 0, "allgatherv: bine_block, got %s",
              got ? got->name : "-");
        CHECK(vine__select_auto(&v, 1) == got, "auto == explain");
    }
    vine__select_set_cost(NULL);
    vine__levels_free(&m);
}

/*
 * Scans of 10 bytes on block:2,2 at p = 8, contention 1, gamma 0.5.
 * Recursive doubling: steps of classes 0, 1, 2 (2 + 20 + 200) and 5
 * reductions of 10 bytes on rank 7's path: 247 (exscan 4: 242).  Linear:
 * hops of classes 0 1 0 2 0 1 0, (4 x 2 + 2 x 20 + 200) and 7 reductions:
 * 283 (exscan, rank 7 reduces nothing: 278); in segments of 5 bytes
 * (two), hops of 1.5, 15, 150 and 2.5 reduced each: 7 hops + one more of
 * the slowest, 152.5: 4 x 4 + 2 x 17.5 + 152.5 + 152.5 = 356.  Auto takes
 * recursive doubling.
 */
static void test_scans(void)
{
    vine_levels m = map_of("block:2,2", 8);
    vine_cost c = simple_cost(1, 1, 0.5);
    vine_args a = args_of(VINE_COLL_SCAN, &m, 8, 0, 10);
    CHECK(near(cost_of(&c, &a, "recursive_doubling"), 247), "scan rd %g",
          cost_of(&c, &a, "recursive_doubling"));
    CHECK(near(cost_of(&c, &a, "linear"), 283), "scan linear %g", cost_of(&c, &a, "linear"));
    a.seg_count = 5;
    CHECK(near(cost_of(&c, &a, "linear"), 356), "scan linear segmented %g",
          cost_of(&c, &a, "linear"));
    a.seg_count = 0;
    vine__select_set_cost(&c);
    CHECK(strcmp(vine__select_auto(&a, 1)->name, "recursive_doubling") == 0, "scan: rd");
    a.coll = VINE_COLL_EXSCAN;
    CHECK(near(cost_of(&c, &a, "recursive_doubling"), 242), "exscan rd %g",
          cost_of(&c, &a, "recursive_doubling"));
    CHECK(near(cost_of(&c, &a, "linear"), 278), "exscan linear %g", cost_of(&c, &a, "linear"));
    vine_select_why w;
    CHECK(vine__select_explain(&a, 1, &w) && w.by_model && w.n == 2, "exscan by the model");
    vine__select_set_cost(NULL);
    vine__levels_free(&m);
}

/*
 * alltoallv on p = 4 without a map (class 1: alpha 10, beta 1), blocks of
 * 5 bytes, rank 0 sending 50 to rank 1: with every row (vstride p)
 * pairwise pays 60 in the step pairing 0 and 1 and 15 in the two others,
 * linear 60 + 15 + 15 at rank 0: both 90.  With the caller's row alone
 * (run time) rank 2 sees 45, rank 0 90: prices differ between ranks, so
 * auto leaves alltoallv, alltoallw, gatherv and scatterv to the rule
 * (linear), map or not.
 */
static void test_alltoallv(void)
{
    size_t sc[16], rc[16];
    for (int i = 0; i < 16; i++)
        sc[i] = rc[i] = 5;
    sc[0 * 4 + 1] = rc[1 * 4 + 0] = 50;
    vine_cost c = simple_cost(1, 1, 0);
    vine_args a = args_of(VINE_COLL_ALLTOALLV, NULL, 4, 0, 0);
    a.scounts = sc;
    a.rcounts = rc;
    a.vstride = 4;
    CHECK(near(cost_of(&c, &a, "pairwise"), 90), "pairwise %g", cost_of(&c, &a, "pairwise"));
    CHECK(near(cost_of(&c, &a, "linear"), 90), "linear %g", cost_of(&c, &a, "linear"));
    a.vstride = 0;
    a.rank = 2;
    a.scounts = sc + 8;
    a.rcounts = rc + 8;
    CHECK(near(cost_of(&c, &a, "pairwise"), 45), "row 2 %g", cost_of(&c, &a, "pairwise"));
    a.rank = 0;
    a.scounts = sc;
    a.rcounts = rc;
    CHECK(near(cost_of(&c, &a, "pairwise"), 90), "row 0 %g", cost_of(&c, &a, "pairwise"));
    vine_levels m = map_of("block:2", 4);
    a.levels = &m;
    vine__select_set_cost(&c);
    static const vine_coll colls[] = {VINE_COLL_ALLTOALLV, VINE_COLL_ALLTOALLW, VINE_COLL_GATHERV,
                                      VINE_COLL_SCATTERV};
    for (int i = 0; i < 4; i++) {
        a.coll = colls[i];
        a.scounts = sc;
        vine_select_why w;
        const vine_algo *got = vine__select_explain(&a, 1, &w);
        CHECK(got && !w.by_model && w.n == 0 && strcmp(got->name, "linear") == 0,
              "coll %d: the rule's linear", (int)colls[i]);
    }
    vine__select_set_cost(NULL);
    vine__levels_free(&m);
}

/* allgatherv and the scans: every candidate priced, finite, and the choice rank-independent. */
static void test_v_sweep(void)
{
    static const char *const specs[] = {"block:4", "block:2,2", "cyclic:3", "random:5:4,2",
                                        "sizes:1,3,5,7/block:2"};
    static const vine_coll colls[] = {VINE_COLL_ALLGATHERV, VINE_COLL_SCAN, VINE_COLL_EXSCAN};
    size_t t[40];
    for (int si = 0; si < 5; si++)
        for (int p = 2; p <= 40; p += 7) {
            vine_levels m = map_of(specs[si], p);
            for (int ci = 0; ci < 3; ci++)
                for (size_t count = 1; count < (1u << 22); count <<= 7) {
                    for (int i = 0; i < p; i++)
                        t[i] = (count * (size_t)(i * 7 % 5 + 1)) % 1000003;
                    vine_args a = args_of(colls[ci], &m, p, 0, count);
                    a.rcounts = t;
                    vine_select_why w0, w1;
                    const vine_algo *c0 = vine__select_explain(&a, 4, &w0);
                    CHECK(c0 && w0.by_model == !vine__levels_flat(&m) && w0.n > 0,
                          "%s p=%d by the model", specs[si], p);
                    for (int i = 0; i < w0.n; i++)
                        CHECK(w0.cand[i].priced && isfinite(w0.cand[i].cost) && w0.cand[i].cost > 0,
                              "%s %s p=%d cost %g", specs[si], w0.cand[i].algo->name, p,
                              w0.cand[i].cost);
                    a.rank = p - 1;
                    CHECK(vine__select_explain(&a, 4, &w1) == c0, "rank-independent");
                }
            vine__levels_free(&m);
        }
}

/* Writes text to a fresh file under dir and returns its path (static buffer). */
static const char *write_file(const char *dir, const char *name, const char *text)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL, "cannot write %s", path);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
    return path;
}

/* Loads text as a file and checks that it fails with a message holding want. */
static void expect_bad(const char *dir, const char *text, const char *want)
{
    const char *path = write_file(dir, "bad.json", text);
    vine_cost c;
    char err[512] = "";
    int rc = vine__cost_load(&c, path, err, sizeof err);
    CHECK(rc == VINE_ERR_UNSUPPORTED, "accepted: %s", text);
    CHECK(strstr(err, want) != NULL && strncmp(err, path, strlen(path)) == 0,
          "message '%s' lacks '%s' or the path", err, want);
    vine_cost d;
    vine__cost_defaults(&d);
    CHECK(memcmp(&c, &d, sizeof c) == 0, "a failed load leaves the defaults");
}

/*
 * The large-message (rendezvous) term: a message of rndv_bytes or more costs
 * rndv_alpha more.  On the simple costs (block:2,2, p = 8), one-byte blocks:
 * the ring's 7 steps each send one 1-byte message, recursive doubling's 3
 * steps 1, 2 and 4 bytes; with rndv_alpha 1000 on every class from 2 bytes
 * the ring is unchanged and recursive doubling pays 2 x 1000 more, from 1
 * byte the ring 7 x 1000 more.  The fit (vine-bench probe) recovers the
 * term from one-way times made of alpha 2 us, 40 ps/B and 30 us more from
 * 64 KiB, and leaves it out when the large messages' latency is within 1.5
 * alpha.  On vine's LUMI model (256 ranks, block:1,4,31), with the
 * parameters vine-bench probe measured under SimGrid (class 1: 4.03 us,
 * 10.6 ps/B, 19.3 us more from 64 KiB; classes 2 and 3: 6.05 us, 42.5 ps/B,
 * 28.9 us more, contention 4 and 6.3), allgather of 64 KiB blocks goes to
 * bine_permute (SimGrid: 1,076 us, the ring 12,597), and the ring costs
 * 255 rndv_alpha more than without the term; with 256 KiB blocks the term
 * is what moves auto from the ring to bine_permute.
 */
static void test_rndv(void)
{
    vine_cost_level one = {1, 0.1, 1, 0, 100, 5};
    CHECK(near(vine__cost_latency(&one, 99), 1) && near(vine__cost_latency(&one, 100), 6),
          "latency below and at rndv_bytes");

    vine_levels m = map_of("block:2,2", 8);
    vine_cost c = simple_cost(1, 1, 0.01), r = c;
    vine_args a = args_of(VINE_COLL_ALLGATHER, &m, 8, 0, 1);
    for (int i = 0; i < 3; i++)
        r.cls[i].rndv_bytes = 2, r.cls[i].rndv_alpha = 1000;
    CHECK(near(cost_of(&r, &a, "ring"), cost_of(&c, &a, "ring")), "ring below rndv_bytes");
    CHECK(near(cost_of(&r, &a, "recursive_doubling"), cost_of(&c, &a, "recursive_doubling") + 2000),
          "recursive doubling: two steps of 2 bytes or more");
    for (int i = 0; i < 3; i++)
        r.cls[i].rndv_bytes = 1;
    CHECK(near(cost_of(&r, &a, "ring"), cost_of(&c, &a, "ring") + 7000), "ring from 1 byte");
    vine__levels_free(&m);

    double sizes[] = {1024, 4096, 16384, 65536, 262144, 1048576}, t[6];
    for (int i = 0; i < 6; i++)
        t[i] = 2e-6 + sizes[i] * 4e-11 + (sizes[i] >= 65536 ? 3e-5 : 0);
    vine_cost_level lv;
    vine__cost_fit_pair(&lv, 2e-6, sizes, t, 6);
    CHECK(near(lv.alpha, 2e-6) && near(lv.beta, 4e-11) && near(lv.rndv_alpha, 3e-5) &&
              lv.rndv_bytes == 65536,
          "fit: alpha %g beta %g rndv %g from %g", lv.alpha, lv.beta, lv.rndv_alpha, lv.rndv_bytes);
    for (int i = 0; i < 6; i++)
        t[i] = 2e-6 + sizes[i] * 4e-11 + (sizes[i] >= 65536 ? 0.9e-6 : 0);
    vine__cost_fit_pair(&lv, 2e-6, sizes, t, 6);
    CHECK(lv.rndv_alpha == 0 && near(lv.beta, (t[5] - 2e-6) / sizes[5]),
          "fit: an excess of 0.45 alpha is no rndv term (%g)", lv.rndv_alpha);
    vine__cost_fit_pair(&lv, 2e-6, sizes + 5, t + 5, 1);
    CHECK(lv.rndv_alpha == 0 && near(lv.beta, (t[5] - 2e-6) / sizes[5]), "fit: one size");

    m = map_of("block:1,4,31", 256);
    vine__cost_defaults(&c);
    c.cls[1] = (vine_cost_level){4.03e-6, 1.06e-11, 1, 0, 65536, 1.93e-5};
    c.cls[2] = (vine_cost_level){6.05e-6, 4.25e-11, 4, 0, 65536, 2.89e-5};
    c.cls[3] = (vine_cost_level){6.05e-6, 4.25e-11, 6.3, 0, 65536, 2.89e-5};
    a = args_of(VINE_COLL_ALLGATHER, &m, 256, 0, 65536);
    vine__select_set_cost(&c);
    CHECK(strcmp(vine__select_auto(&a, 1)->name, "bine_permute") == 0,
          "allgather 64 KiB blocks, LUMI's 256 ranks: bine_permute, got %s",
          vine__select_auto(&a, 1)->name);
    vine__select_set_cost(NULL);
    r = c;
    for (int i = 1; i < 4; i++)
        r.cls[i].rndv_alpha = 0;
    CHECK(near(cost_of(&c, &a, "ring"), cost_of(&r, &a, "ring") + 255 * 2.89e-5),
          "ring on LUMI: 255 rndv_alpha more (%g, %g)", cost_of(&c, &a, "ring"),
          cost_of(&r, &a, "ring"));
    a.count = 262144;
    vine__select_set_cost(&c);
    CHECK(strcmp(vine__select_auto(&a, 1)->name, "bine_permute") == 0,
          "allgather 256 KiB blocks, LUMI's 256 ranks: bine_permute, got %s",
          vine__select_auto(&a, 1)->name);
    vine__select_set_cost(&r);
    CHECK(strcmp(vine__select_auto(&a, 1)->name, "ring") == 0,
          "allgather 256 KiB blocks without the term: ring, got %s",
          vine__select_auto(&a, 1)->name);
    vine__select_set_cost(NULL);
    vine__levels_free(&m);
}

/*
 * Contention in proportion to the messages that share a way out, when the
 * class says with how many its factor was measured (contention_flows).
 * allgather recursive doubling on two nodes of 4 (block:4, p = 8), one-byte
 * blocks: its last step sends 4 bytes from each of the 8 ranks across the
 * nodes, 4 messages a node's way out; class 1 (alpha 10, beta 1) with
 * factor 3 charges them 4 x 3 = 12, with the factor measured on 6 messages
 * 4 x 3 x 4 / 6 = 8, on 12 messages 4 x max(1, 1) = 4.  On the LUMI model's
 * 256 ranks with the probe's parameters (classes 2 and 3 measured with 4 and
 * 124 messages between two groups), allreduce of 1 MiB goes to bine_large
 * (SimGrid: 436.5 us; rabenseifner 499.7), whose steps send one or two
 * messages between two groups where rabenseifner's first sends 120, and
 * bine_large costs less than with one factor whatever the count.
 *
 * The classic butterflies are priced from every rank's pair too, each step
 * at the bandwidth of its most loaded class.  allreduce rabenseifner on
 * nodes of 3 and 5 ranks (sizes:3,5, p = 8; contention 1, gamma 0, 8
 * bytes): at distance 1 only ranks 2 and 3 cross the nodes, so the median
 * message stays inside (alpha 1) and the crossing pair sets the bandwidth,
 * 1 + 4 x 1; at 2 ranks 1 and 3 cross: 1 + 2 x 1; at 4 six of eight
 * messages cross: 10 + 1 x 1; reduce-scatter and allgather: 2 x 19 = 38.
 * Rank 0's partners alone (0-1 and 0-2 inside node 0) gave 2 x (1.4 + 1.2
 * + 11) = 27.2.
 */
static void test_flows(void)
{
    vine_levels m = map_of("block:4", 8);
    vine_cost c = simple_cost(3, 3, 0.01), k6 = c, k12 = c;
    k6.cls[1].contention_flows = 6;
    k12.cls[1].contention_flows = 12;
    vine_args a = args_of(VINE_COLL_ALLGATHER, &m, 8, 0, 1);
    double t = cost_of(&c, &a, "recursive_doubling");
    CHECK(near(t - cost_of(&k6, &a, "recursive_doubling"), 4) &&
              near(t - cost_of(&k12, &a, "recursive_doubling"), 8),
          "contention by flows: %g, %g, %g", t, cost_of(&k6, &a, "recursive_doubling"),
          cost_of(&k12, &a, "recursive_doubling"));
    vine__levels_free(&m);

    m = map_of("block:1,4,31", 256);
    vine__cost_defaults(&c);
    c.cls[1] = (vine_cost_level){4.03e-6, 1.06e-11, 1, 0, 65536, 1.93e-5};
    c.cls[2] = (vine_cost_level){6.05e-6, 4.25e-11, 4, 4, 65536, 2.89e-5};
    c.cls[3] = (vine_cost_level){6.05e-6, 4.25e-11, 6.3, 124, 65536, 2.89e-5};
    c.gamma = 0;
    a = args_of(VINE_COLL_ALLREDUCE, &m, 256, 0, 1 << 18);
    vine__select_set_cost(&c);
    CHECK(strcmp(vine__select_auto(&a, 4)->name, "bine_large") == 0,
          "allreduce 1 MiB, LUMI's 256 ranks, measured flows: bine_large, got %s",
          vine__select_auto(&a, 4)->name);
    vine__select_set_cost(NULL);
    vine_cost one = c;
    one.cls[2].contention_flows = one.cls[3].contention_flows = 0;
    CHECK(cost_of(&c, &a, "bine_large") < cost_of(&one, &a, "bine_large"),
          "bine_large with flows %g, without %g", cost_of(&c, &a, "bine_large"),
          cost_of(&one, &a, "bine_large"));
    vine__levels_free(&m);

    m = map_of("sizes:3,5", 8);
    c = simple_cost(1, 1, 0);
    a = args_of(VINE_COLL_ALLREDUCE, &m, 8, 0, 8);
    CHECK(near(cost_of(&c, &a, "rabenseifner"), 38), "rabenseifner from every pair: %g",
          cost_of(&c, &a, "rabenseifner"));
    vine__levels_free(&m);
}

static void test_loader(const char *dir)
{
    const char *good =
        "{\"version\": 1, \"source\": \"hand\", \"gamma\": 2e-10,\n"
        " \"levels\": [{\"name\": \"node\", \"alpha\": 4e-7, \"beta\": 5e-11},\n"
        "  {\"alpha\": 2e-6, \"beta\": 1e-10, \"contention\": 3, \"pair\": [0, 4]}]}\n";
    vine_cost c;
    char err[512] = "";
    int rc = vine__cost_load(&c, write_file(dir, "good.json", good), err, sizeof err);
    CHECK(rc == VINE_OK, "good file: %s", err);
    CHECK(c.nclasses == 2 && c.gamma == 2e-10, "good: %d classes", c.nclasses);
    CHECK(c.cls[0].alpha == 4e-7 && c.cls[0].contention == 1 && c.cls[1].contention == 3,
          "good: values");
    CHECK(vine__cost_level(&c, 5)->beta == 1e-10, "good: the last entry prices higher classes");
    rc = vine__cost_load(&c,
                         write_file(dir, "rndv.json",
                                    "{\"levels\": [{\"alpha\": 1e-6, \"beta\": 1e-10, "
                                    "\"rndv_bytes\": 65536, \"rndv_alpha\": 2e-5}]}"),
                         err, sizeof err);
    CHECK(rc == VINE_OK && c.cls[0].rndv_bytes == 65536 && c.cls[0].rndv_alpha == 2e-5,
          "rndv keys: %s", err);
    expect_bad(dir, "{\"levels\": [{\"alpha\": 1, \"beta\": 0, \"contention_flows\": 0}]}",
               "levels[0]: \"contention_flows\" is not a number >= 1");
    expect_bad(dir, "{\"levels\": [{\"alpha\": 1, \"beta\": 0, \"rndv_alpha\": 1}]}",
               "levels[0]: \"rndv_alpha\" needs \"rndv_bytes\"");
    expect_bad(dir, "{\"levels\": [{\"alpha\": 1, \"beta\": 0, \"rndv_bytes\": 0.5}]}",
               "levels[0]: \"rndv_bytes\" is not a number >= 1");
    expect_bad(dir,
               "{\"levels\": [{\"alpha\": 1, \"beta\": 0, \"rndv_alpha\": -1, "
               "\"rndv_bytes\": 9}]}",
               "levels[0]: \"rndv_alpha\" is not a number >= 0");

    expect_bad(dir, "{\"levels\": [ {\"alpha\": 1e-6,\n \"beta\": } ]}", "bad.json:2:");
    expect_bad(dir, "[1, 2]", "the top level is not an object");
    expect_bad(dir, "{\"levels\": []}", "\"levels\" missing, not an array or empty");
    expect_bad(dir, "{\"gamma\": 1}", "\"levels\" missing");
    expect_bad(dir, "{\"levels\": [{\"alpha\": 1e-6}]}", "levels[0]: \"beta\" missing");
    expect_bad(dir, "{\"levels\": [{\"alpha\": -1, \"beta\": 0}]}", "levels[0]: \"alpha\"");
    expect_bad(dir,
               "{\"levels\": [{\"alpha\": 1, \"beta\": 0}, {\"alpha\": 1, \"beta\": 0, "
               "\"contention\": 0.5}]}",
               "levels[1]: \"contention\" is not a number >= 1");
    expect_bad(dir, "{\"levels\": [{\"alpha\": 1, \"beta\": 0, \"alhpa\": 2}]}",
               "levels[0]: unknown key \"alhpa\"");
    expect_bad(dir, "{\"levels\": [{\"alpha\": 1, \"beta\": 0}], \"gama\": 1}",
               "unknown key \"gama\"");
    expect_bad(dir, "{\"version\": 2, \"levels\": [{\"alpha\": 1, \"beta\": 0}]}",
               "\"version\" must be 1");
    expect_bad(dir, "{\"levels\": [{\"alpha\": \"1\", \"beta\": 0}]}", "\"alpha\"");
    char many[2048] = "{\"levels\": [";
    for (int i = 0; i <= VINE_COST_CLASSES; i++)
        strcat(many, i ? ", {\"alpha\": 1, \"beta\": 1}" : "{\"alpha\": 1, \"beta\": 1}");
    strcat(many, "]}");
    expect_bad(dir, many, "levels, at most");

    char missing[600];
    snprintf(missing, sizeof missing, "%s/no-such-file.json", dir);
    rc = vine__cost_load(&c, missing, err, sizeof err);
    CHECK(rc == VINE_ERR_UNSUPPORTED && strncmp(err, missing, strlen(missing)) == 0,
          "missing file: %s", err);
}

/* The writer's file loads back to the same parameters. */
static void test_round_trip(const char *dir)
{
    vine_cost c, back;
    vine__cost_defaults(&c);
    c.cls[2].contention = 1.5;
    c.cls[3].rndv_bytes = 16384;
    c.cls[3].contention_flows = 31;
    c.cls[3].rndv_alpha = 3e-6;
    char path[600], err[512] = "";
    snprintf(path, sizeof path, "%s/round.json", dir);
    const char *notes[VINE_COST_CLASSES] = {"inside a node", NULL, "measured"};
    CHECK(vine__cost_save(&c, path, "test", notes, err, sizeof err) == VINE_OK, "save: %s", err);
    CHECK(vine__cost_load(&back, path, err, sizeof err) == VINE_OK, "load back: %s", err);
    CHECK(back.nclasses == c.nclasses, "round trip: classes");
    for (int i = 0; i < c.nclasses; i++)
        CHECK(near(back.cls[i].alpha, c.cls[i].alpha) && near(back.cls[i].beta, c.cls[i].beta) &&
                  near(back.cls[i].contention, c.cls[i].contention) &&
                  near(back.cls[i].rndv_bytes, c.cls[i].rndv_bytes) &&
                  near(back.cls[i].contention_flows, c.cls[i].contention_flows) &&
                  near(back.cls[i].rndv_alpha, c.cls[i].rndv_alpha),
              "round trip: class %d", i);
    CHECK(near(back.gamma, c.gamma), "round trip: gamma");
    snprintf(path, sizeof path, "%s/no-such-dir/x.json", dir);
    CHECK(vine__cost_save(&c, path, NULL, NULL, err, sizeof err) == VINE_ERR_UNSUPPORTED &&
              strstr(err, "cannot write"),
          "save into a missing directory: %s", err);
}

int main(void)
{
    char dir[] = "/tmp/vine-test-cost-XXXXXX";
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_classes();
    test_block_gather();
    test_scattered_gather();
    test_two_switches();
    test_bine_allreduce();
    test_allreduce();
    test_allreduce_lanes();
    test_allreduce_large();
    test_bcast_large();
    test_reduce_large();
    test_reduce_gather_senders();
    test_bine_candidates();
    test_bine_steps();
    test_flat_unchanged();
    test_sweep();
    test_v_uniform();
    test_v_skewed();
    test_scans();
    test_alltoallv();
    test_v_sweep();
    test_rndv();
    test_flows();
    test_loader(dir);
    test_round_trip(dir);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        printf("note: could not remove %s\n", dir);
    printf("cost: %ld passed, %ld failed\n", checks - failures, failures);
    return failures != 0;
}
