/*
 * Unit test of the cost model's shm level (src/select/cost_shm.c, cost.h)
 * and of auto's choice with it (no MPI): the shm formulas against values
 * worked out by hand from docs/shm.md's "What the cost model charges" (a
 * few p, counts and chunk boundaries; the par schedules of the small
 * allreduce and reduce-scatters, inline and not), monotonicity in the
 * count, the parameter file and the tuning file's model with and without
 * "shm" (malformed values and their messages), auto's unchanged default on
 * one node (vine__select_shm's ranges) without parameters, the model's
 * choice following given parameters on one node (an 8 B allreduce on 16
 * ranks goes to shm on the parity slots) and on a level map, and gather
 * and scatter leader_shm priced on nodes of different sizes.  Prints
 * "cost_shm: N passed, M failed".
 */
#include "check.h"
#include "coll/coll.h"
#include "coll/levels.h"
#include "coll/shm/shm_common.h"
#include "select/cost.h"
#include "select/select.h"
#include "select/tuning.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int near(double a, double b)
{
    return fabs(a - b) <= 1e-9 * (fabs(a) + fabs(b)) + 1e-12;
}

/* Round numbers: alpha 1, beta 0.01, beta_node 0.001 (so 10 ranks reach the node's), gamma 0.1. */
static vine_cost_shm round_shm(void)
{
    return (vine_cost_shm){1, 0.01, 0.001, 0.1};
}

static vine_cost_shm_call call_of(vine_coll coll, int p, double n, double elem)
{
    vine_cost_shm_call c;
    memset(&c, 0, sizeof c);
    c.coll = coll;
    c.p = p;
    c.n = c.total = c.most = n;
    c.elem = elem;
    return c;
}

static void test_copy_rate(void)
{
    vine_cost_shm s = round_shm();
    CHECK(near(vine__cost_shm_copy(&s, 1), 0.01), "one rank: its own bandwidth");
    CHECK(near(vine__cost_shm_copy(&s, 10), 0.01), "10 ranks: exactly the node's");
    CHECK(near(vine__cost_shm_copy(&s, 16), 0.016), "16 ranks share the node's");
}

static void test_hand_values(void)
{
    vine_cost_shm s = round_shm();
    vine_cost_shm_call c;
    /* barrier, radix 8: p 16 waits 7 children of rank 1, 8 of rank 0, and the release. */
    c = call_of(VINE_COLL_BARRIER, 16, 0, 1);
    CHECK(near(vine__cost_shm(&s, &c), 16), "barrier p=16: %g", vine__cost_shm(&s, &c));
    c.p = 9;
    CHECK(near(vine__cost_shm(&s, &c), 9), "barrier p=9: 8 children + release");
    c.p = 2;
    CHECK(near(vine__cost_shm(&s, &c), 2), "barrier p=2");
    c.p = 1;
    CHECK(near(vine__cost_shm(&s, &c), 0), "barrier p=1");

    /* bcast p=4, 100 B, one chunk: entry 3 + root in 1 + (wait, GET) 2 + out 1. */
    c = call_of(VINE_COLL_BCAST, 4, 100, 1);
    CHECK(near(vine__cost_shm(&s, &c), 7), "bcast p=4 100B: %g", vine__cost_shm(&s, &c));
    /* bcast p=16, 64 KiB: one chunk; copies at 0.016 s/B: 15 + 1048.576 + 2 + 1048.576. */
    c = call_of(VINE_COLL_BCAST, 16, 65536, 1);
    CHECK(near(vine__cost_shm(&s, &c), 2114.152), "bcast 64KiB: %g", vine__cost_shm(&s, &c));
    /* 64 KiB + 1: two chunks, the second of 1 byte: 15 + w + max(w', r) + r'. */
    c.n = 65537;
    CHECK(near(vine__cost_shm(&s, &c), 15 + 1048.576 + 1050.576 + 2.016), "bcast 64KiB+1: %g",
          vine__cost_shm(&s, &c));
    /* Three chunks in a 1 MiB region of 16 slots: no slot is reused, the readers pace it. */
    c.n = 3 * 65536;
    double w = 1048.576, r = 2 + 1048.576;
    CHECK(near(vine__cost_shm(&s, &c), 15 + w + r + r + r), "bcast 3 chunks: %g",
          vine__cost_shm(&s, &c));
    /* In a region of two slots the slot of chunk 0 is reused: w adds the 15 readers' flags. */
    c.region = 2 * 65536;
    w += 15;
    CHECK(near(vine__cost_shm(&s, &c), 15 + w + w + w + r), "bcast 3 chunks, 2 slots: %g",
          vine__cost_shm(&s, &c));
    /* gather p=4, 100 B: entry 3, writer 1, the root reads 3 x (2 + 1) alone, its own block 1. */
    c = call_of(VINE_COLL_GATHER, 4, 100, 1);
    CHECK(near(vine__cost_shm(&s, &c), 14), "gather p=4: %g", vine__cost_shm(&s, &c));
    /* alltoall p=4, 100 B blocks: stream 300 in one chunk, 3 writers read, own block. */
    c = call_of(VINE_COLL_ALLTOALL, 4, 100, 1);
    CHECK(near(vine__cost_shm(&s, &c), 3 + 3 + 9 + 1), "alltoall p=4: %g", vine__cost_shm(&s, &c));
    /* scatter single copy, 256 KiB: (p + 1) hand-offs and the block at 3 readers' rate. */
    c = call_of(VINE_COLL_SCATTER, 4, 262144, 1);
    c.single = 1;
    CHECK(near(vine__cost_shm(&s, &c), 5 + 2621.44), "scatter single: %g", vine__cost_shm(&s, &c));

    /* allreduce small path (10 ints, p 4): 3 + 0.4 + 6 + (1.6 + 12). */
    c = call_of(VINE_COLL_ALLREDUCE, 4, 40, 4);
    CHECK(near(vine__cost_shm(&s, &c), 23), "allreduce small: %g", vine__cost_shm(&s, &c));
    /* reduce small path: the root folds alone: 3 + 0.4 + 6 + (1.6 + 12). */
    c.coll = VINE_COLL_REDUCE;
    CHECK(near(vine__cost_shm(&s, &c), 23), "reduce small: %g", vine__cost_shm(&s, &c));
    /* allreduce 32769 ints: chunks of 16384, three, in 3 of the region's slots (no reuse):
     * 3 + 3*4*3 + 131076 (0.03 + 0.075). */
    c = call_of(VINE_COLL_ALLREDUCE, 4, 131076, 4);
    CHECK(near(vine__cost_shm(&s, &c), 3 + 36 + 131076 * 0.105), "allreduce 3 chunks: %g",
          vine__cost_shm(&s, &c));
    /* In a region of two slots chunk 2 waits for the 3 readers of chunk 0: + 1*3. */
    c.region = 2 * 65536;
    CHECK(near(vine__cost_shm(&s, &c), 3 + 36 + 3 + 131076 * 0.105),
          "allreduce 3 chunks, 2 slots: %g", vine__cost_shm(&s, &c));
    c.region = 0;
    /* 16384 ints: one chunk: 3 + 12 + 65536 x 0.105. */
    c.n = 65536;
    CHECK(near(vine__cost_shm(&s, &c), 3 + 12 + 65536 * 0.105), "allreduce 1 chunk: %g",
          vine__cost_shm(&s, &c));
    /* reduce_scatter_block, 1000 ints a block on 4: 3 + 6 + 16000 x 0.01 + 4000 (0.05 + 0.3). */
    c = call_of(VINE_COLL_REDUCE_SCATTER_BLOCK, 4, 4000, 4);
    c.total = 16000;
    CHECK(near(vine__cost_shm(&s, &c), 3 + 6 + 160 + 1400), "reduce_scatter_block: %g",
          vine__cost_shm(&s, &c));
}

/*
 * The par schedules (docs/shm.md, "Parity slots"): the small allreduce and
 * reduce-scatters of a flat call (par, the slot's bytes, > 0) skip the
 * entry wait, and a vector of at most 16 B, inline in the flag's line, costs
 * one hand-off per peer instead of two.  Without par (a node phase of a
 * hierarchical schedule) and above the slot the prices stay the region's.
 * Parameters as round_shm: shm_copy 0.01 s/B on 2 and 4 ranks, 0.016 on 16.
 */
static void test_par_values(void)
{
    static const struct {
        vine_coll coll;
        int p;
        double n, total, elem, par, want; /* total: reduce_scatter's vector, else n */
        const char *what;
    } cases[] = {
        /* 8 B on 4, inline: in 0.08, 3 hand-offs, fold 0.32 + 2.4; no par: entry 3 + 6. */
        {VINE_COLL_ALLREDUCE, 4, 8, 8, 8, 32768, 5.8, "allreduce 8 B p=4"},
        {VINE_COLL_ALLREDUCE, 4, 8, 8, 8, 0, 11.8, "allreduce 8 B p=4, no par"},
        /* 8 and 16 B on 16 inline (15 hand-offs), 24 B in the area (30); in n 0.016, fold
         * n 16 x 0.016 + n 15 x 0.1. */
        {VINE_COLL_ALLREDUCE, 16, 8, 8, 8, 32768, 0.128 + 15 + 2.048 + 12, "allreduce 8 B p=16"},
        {VINE_COLL_ALLREDUCE, 16, 16, 16, 8, 32768, 0.256 + 15 + 4.096 + 24, "allreduce 16 B"},
        {VINE_COLL_ALLREDUCE, 16, 24, 24, 8, 32768, 0.384 + 30 + 6.144 + 36, "allreduce 24 B"},
        /* 1 KiB (256 ints) on 4: in 10.24, 6 hand-offs, fold 40.96 + 307.2; on 16, the small
         * path's last count (256 x 16 = 4096). */
        {VINE_COLL_ALLREDUCE, 4, 1024, 1024, 4, 32768, 364.4, "allreduce 1 KiB p=4"},
        {VINE_COLL_ALLREDUCE, 16, 1024, 1024, 4, 32768, 16.384 + 30 + 262.144 + 1536,
         "allreduce 1 KiB p=16"},
        /* 257 ints on 16: chunked, as before: 15 + 4 x 15 + 1028 (0.048 + 0.09375). */
        {VINE_COLL_ALLREDUCE, 16, 1028, 1028, 4, 32768, 15 + 60 + 1028 * (0.048 + 0.09375),
         "allreduce 257 ints p=16"},
        /* 1500 elements of 32 B on 2 (small, 48000 B > the slot): the region's path. */
        {VINE_COLL_ALLREDUCE, 2, 48000, 48000, 32, 32768, 1 + 480 + 2 + 960 + 4800,
         "allreduce above the slot"},
        /* reduce on the eager slots: no entry wait (3 less than the region's 23); inline at
         * 8 B: in 0.08, 3 hand-offs, fold 0.32 + 2.4. */
        {VINE_COLL_REDUCE, 4, 40, 40, 4, 32768, 20, "reduce 40 B, eager"},
        {VINE_COLL_REDUCE, 4, 40, 40, 4, 0, 23, "reduce 40 B, no slots"},
        {VINE_COLL_REDUCE, 4, 8, 8, 4, 32768, 5.8, "reduce 8 B, inline eager"},
        /* bcast on the eager slots: no entry wait; the root in 0.08, a reader 1 hand-off
         * (inline) and 0.08 out; at 40 B 2 hand-offs, 0.4 each way; the region adds 3. */
        {VINE_COLL_BCAST, 4, 8, 8, 1, 32768, 1.16, "bcast 8 B, inline eager"},
        {VINE_COLL_BCAST, 4, 40, 40, 1, 32768, 2.8, "bcast 40 B, eager"},
        {VINE_COLL_BCAST, 4, 40, 40, 1, 0, 5.8, "bcast 40 B, no slots"},
        /* bcast 8 B on 40, down the eager tree of radix 8 (two levels): the root in 0.32
         * (40 copying, 0.04 a byte), then per level 1 hand-off and 0.32 out. */
        {VINE_COLL_BCAST, 40, 8, 8, 1, 32768, 2.96, "bcast 8 B p=40, eager tree"},
        /* gather 8 B, eager: a writer in 0.08; the root 3 x (1 + 0.08), its own block 0.08. */
        {VINE_COLL_GATHER, 4, 8, 8, 1, 32768, 3.4, "gather 8 B, inline eager"},
        /* A stream above the slot (scatter: 3 x 12000 B > 32768) keeps the region's price. */
        {VINE_COLL_SCATTER, 4, 12000, 12000, 1, 32768, -1, "scatter above the slot"},
        /* One int a block on 4 (16 B, inline): 0.16 + 3 + 4 (0.04 + 0.3). */
        {VINE_COLL_REDUCE_SCATTER_BLOCK, 4, 4, 16, 4, 32768, 4.52, "reduce_scatter_block 16 B"},
        /* 1000 ints a block on 4: 160 + 6 + 4000 (0.04 + 0.3); the region's price
         * (test_hand_values) adds the entry 3 and the block's copy out 40. */
        {VINE_COLL_REDUCE_SCATTER_BLOCK, 4, 4000, 16000, 4, 32768, 1526,
         "reduce_scatter_block 16000 B"},
        /* On 16, 8 B the largest block, 128 B in all: 2.048 + 30 + 8 (0.256 + 1.5). */
        {VINE_COLL_REDUCE_SCATTER, 16, 8, 128, 4, 32768, 46.096, "reduce_scatter p=16"},
        /* 4097 ints in all: the chunked path as before. */
        {VINE_COLL_REDUCE_SCATTER, 16, 1028, 16388, 4, 32768,
         15 + 30 + 16388 * 0.016 + 1028 * (17 * 0.016 + 1.5), "reduce_scatter above the small"}};
    vine_cost_shm s = round_shm();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        vine_cost_shm_call c = call_of(cases[i].coll, cases[i].p, cases[i].n, cases[i].elem);
        c.total = cases[i].total;
        c.par = cases[i].par;
        double t = vine__cost_shm(&s, &c);
        if (cases[i].want < 0) { /* the same price as without the slots */
            vine_cost_shm_call d = c;
            d.par = 0;
            double u = vine__cost_shm(&s, &d);
            CHECK(near(t, u), "%s: %g, without the slots %g", cases[i].what, t, u);
            continue;
        }
        CHECK(near(t, cases[i].want), "%s: %g, by hand %g", cases[i].what, t, cases[i].want);
    }
}

/* The collectives and a count step that crosses several chunk boundaries. */
static void test_monotone(void)
{
    static const vine_coll colls[] = {
        VINE_COLL_BCAST,    VINE_COLL_GATHER, VINE_COLL_SCATTER,   VINE_COLL_ALLGATHER,
        VINE_COLL_ALLTOALL, VINE_COLL_REDUCE, VINE_COLL_ALLREDUCE, VINE_COLL_REDUCE_SCATTER_BLOCK};
    static const int ps[] = {2, 5, 16, 64};
    vine_cost c;
    vine__cost_defaults(&c);
    for (size_t i = 0; i < sizeof colls / sizeof colls[0]; i++)
        for (size_t j = 0; j < sizeof ps / sizeof ps[0]; j++) {
            int p = ps[j], red = colls[i] == VINE_COLL_REDUCE || colls[i] == VINE_COLL_ALLREDUCE;
            double elem = red || colls[i] == VINE_COLL_REDUCE_SCATTER_BLOCK ? 4 : 1;
            /* The reductions switch from the small path at count p > 4096: from there on. */
            double first = red ? floor(4096.0 / p) + 1 : 1, prev = -1, prev_n = 0;
            int bad = 0;
            for (double k = first; k < 4e6 && !bad; k = k < 70000 ? k + 97 : k * 1.07) {
                vine_cost_shm_call s = call_of(colls[i], p, floor(k) * elem, elem);
                s.total = p * s.n;
                double t = vine__cost_shm(&c.shm, &s);
                bad = t < prev;
                CHECK(!bad, "%s p=%d: %g s at %g B below %g s at %g B", vine__coll_name(colls[i]),
                      p, t, s.n, prev, prev_n);
                prev = t;
                prev_n = s.n;
            }
        }
}

static const char *write_file(const char *text)
{
    static char path[64];
    strcpy(path, "/tmp/vine_cost_shm_XXXXXX");
    int fd = mkstemp(path);
    CHECK(fd >= 0, "mkstemp");
    if (fd < 0)
        return "";
    size_t len = strlen(text);
    CHECK(write(fd, text, len) == (ssize_t)len, "write");
    close(fd);
    return path;
}

static void expect_load_error(const char *text, const char *want)
{
    vine_cost c;
    char err[512] = "";
    const char *path = write_file(text);
    int rc = vine__cost_load(&c, path, err, sizeof err);
    char full[600];
    snprintf(full, sizeof full, "%s%s", path, want);
    CHECK(rc == VINE_ERR_UNSUPPORTED && strcmp(err, full) == 0, "want '%s', got '%s'", full, err);
    unlink(path);
}

static void test_cost_file(void)
{
    vine_cost c, def;
    char err[512] = "";
    vine__cost_defaults(&def);
    CHECK(!def.shm_given, "the built-in parameters give no shm");
    /* Without "shm": loads as before, the built-in shm level, not given. */
    const char *path = write_file("{\"levels\": [{\"alpha\": 1e-6, \"beta\": 1e-10}]}");
    CHECK(vine__cost_load(&c, path, err, sizeof err) == VINE_OK, "no shm: %s", err);
    CHECK(!c.shm_given && c.shm.alpha == def.shm.alpha && c.shm.beta == def.shm.beta,
          "no shm: built-in level");
    unlink(path);
    /* With "shm": given; absent keys keep the built-in values. */
    path = write_file("{\"levels\": [{\"alpha\": 1e-6, \"beta\": 1e-10}],\n"
                      " \"shm\": {\"note\": \"x\", \"alpha\": 2e-7, \"beta\": 1e-10,\n"
                      "          \"beta_node\": 2e-11}}");
    CHECK(vine__cost_load(&c, path, err, sizeof err) == VINE_OK, "shm: %s", err);
    CHECK(c.shm_given && c.shm.alpha == 2e-7 && c.shm.beta == 1e-10 && c.shm.beta_node == 2e-11 &&
              c.shm.gamma == def.shm.gamma,
          "shm values");
    /* A round trip through the writer keeps them. */
    vine_cost back;
    CHECK(vine__cost_save(&c, path, "test", NULL, err, sizeof err) == VINE_OK, "save: %s", err);
    CHECK(vine__cost_load(&back, path, err, sizeof err) == VINE_OK, "reload: %s", err);
    CHECK(back.shm_given && near(back.shm.alpha, 2e-7) && near(back.shm.beta_node, 2e-11),
          "round trip");
    unlink(path);
    expect_load_error("{\"levels\": [{\"alpha\": 1, \"beta\": 1}], \"shm\": {\"alpha\": -1}}",
                      ": shm: \"alpha\" is not a number >= 0");
    expect_load_error("{\"levels\": [{\"alpha\": 1, \"beta\": 1}], \"shm\": {\"gamma\": \"x\"}}",
                      ": shm: \"gamma\" is not a number >= 0");
    expect_load_error("{\"levels\": [{\"alpha\": 1, \"beta\": 1}], \"shm\": {\"alhpa\": 1}}",
                      ": shm: unknown key \"alhpa\"");
    expect_load_error("{\"levels\": [{\"alpha\": 1, \"beta\": 1}], \"shm\": 3}",
                      ": \"shm\" is not an object");
    expect_load_error("{\"levels\": [{\"alpha\": 1, \"beta\": 1}],\n \"shm\": {\"alpha\": 1e-7,,}}",
                      ":2: string or '}' expected near ','");
}

#define TUNING_HEAD "{\"schema\":\"vine-tuning\",\"version\":1,\"rules\":[],\n"

static void test_tuning_model(void)
{
    vine_tuning t;
    char err[512] = "";
    vine__tuning_init(&t);
    const char *plain =
        TUNING_HEAD "\"model\": {\"levels\": [{\"alpha\": 1e-6, \"beta\": 1e-10}]}}";
    CHECK(vine__tuning_parse(&t, plain, strlen(plain), "t.json", err, sizeof err) == VINE_OK,
          "model without shm: %s", err);
    CHECK(t.model.present && !t.model.cost.shm_given, "model without shm: not given");
    const char *with = TUNING_HEAD "\"model\": {\"levels\": [{\"alpha\": 1e-6, \"beta\": 1e-10}],\n"
                                   "\"shm\": {\"alpha\": 1e-7, \"gamma\": 1e-10}}}";
    CHECK(vine__tuning_parse(&t, with, strlen(with), "t.json", err, sizeof err) == VINE_OK,
          "model with shm: %s", err);
    CHECK(t.model.cost.shm_given && t.model.cost.shm.alpha == 1e-7, "model with shm: given");
    /* Written and read back. */
    char path[] = "/tmp/vine_cost_shm_tuneXXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0, "mkstemp");
    close(fd);
    CHECK(vine__tuning_save(&t, path, err, sizeof err) == VINE_OK, "save: %s", err);
    vine_tuning back;
    vine__tuning_init(&back);
    CHECK(vine__tuning_load(&back, path, err, sizeof err) == VINE_OK, "load: %s", err);
    CHECK(back.model.cost.shm_given && near(back.model.cost.shm.alpha, 1e-7), "round trip");
    unlink(path);
    vine__tuning_free(&back);
    const char *bad = TUNING_HEAD "\"model\": {\"levels\": [{\"alpha\": 1e-6, \"beta\": 1e-10}],\n"
                                  "\"shm\": {\"beta\": -2}}}";
    CHECK(vine__tuning_parse(&t, bad, strlen(bad), "t.json", err, sizeof err) ==
                  VINE_ERR_UNSUPPORTED &&
              strcmp(err, "t.json:2: model: shm: \"beta\" is not a number >= 0") == 0,
          "malformed shm in the model: '%s'", err);
    vine__tuning_free(&t);
}

static vine_args one_node(vine_coll coll, int p, size_t count)
{
    vine_args a;
    memset(&a, 0, sizeof a);
    a.coll = coll;
    a.p = p;
    a.count = count;
    a.commutative = 1;
    a.shm_count = 1 << 20;
    return a;
}

static int in_ranges(vine_coll coll, int p, size_t bytes)
{
    const vine_select_shm_range *r = vine__select_shm_ranges(coll, p);
    for (int k = 0; k < VINE_SELECT_SHM_RANGES; k++)
        if (bytes >= r[k].min && bytes <= r[k].max)
            return 1;
    return 0;
}

/* What the flat shm algorithm's price reads from the call: the parity slot of shm_par_count. */
static void test_par_from_args(void)
{
    vine_cost c;
    vine__cost_defaults(&c);
    const vine_algo *shm = vine__algo_find(VINE_COLL_ALLREDUCE, "shm");
    vine_args a = one_node(VINE_COLL_ALLREDUCE, 16, 1);
    a.shm_par_count = 4096;
    double t_par = 0, t_reg = 0;
    CHECK(shm && vine__cost_algo(&c, shm, &a, 8, &t_par) == VINE_OK, "allreduce shm priced");
    a.shm_par_count = 0;
    CHECK(shm && vine__cost_algo(&c, shm, &a, 8, &t_reg) == VINE_OK, "allreduce shm priced");
    /* Off the slots: the entry wait and a second hand-off a peer, 30 alpha more. */
    CHECK(near(t_reg - t_par, 30 * c.shm.alpha), "8 B on 16: %g s with par, %g s without", t_par,
          t_reg);
    /* The built-in level: 8 B x 0.199 ns, 15 x 0.09 us, 128 B x 0.199 ns + 120 B x 0.25 ns. */
    double cp = vine__cost_shm_copy(&c.shm, 16);
    CHECK(near(t_par, 8 * cp + 15 * c.shm.alpha + 128 * cp + 120 * c.shm.gamma),
          "8 B on 16 with par: %g s", t_par);
}

/* Without parameters auto gives a one-node call to shm exactly in the measured ranges. */
static void test_default_unchanged(void)
{
    static const size_t sizes[] = {0,    1,    8,     512,   1023,  1024,    2047,
                                   2048, 4096, 16384, 16385, 32768, 1 << 20, (size_t)1 << 24};
    static const int ps[] = {2, 3, 16};
    vine__select_set_cost(NULL);
    vine__select_set_tuning(NULL);
    CHECK(vine__select_shm_model() == NULL, "no shm parameters by default");
    for (int coll = 0; coll < VINE_COLL_ALLGATHERV; coll++) /* the ten with shm algorithms */
        for (size_t j = 0; j < sizeof ps / sizeof ps[0]; j++)
            for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
                int red = coll == VINE_COLL_REDUCE || coll == VINE_COLL_ALLREDUCE ||
                          coll == VINE_COLL_REDUCE_SCATTER ||
                          coll == VINE_COLL_REDUCE_SCATTER_BLOCK;
                size_t ts = red ? 4 : 1;
                vine_args a = one_node((vine_coll)coll, ps[j], sizes[i] / ts);
                const vine_algo *got = vine__select_auto(&a, ts);
                int want = in_ranges((vine_coll)coll, ps[j], vine__select_bytes(&a, ts));
                CHECK(got && (strcmp(got->name, "shm") == 0) == want,
                      "%s p=%d %zu B: auto chose %s, the ranges say %s",
                      vine__coll_name((vine_coll)coll), ps[j], sizes[i],
                      got ? got->name : "nothing", want ? "shm" : "not shm");
            }
}

static const char *auto_name(const vine_args *a, size_t ts)
{
    const vine_algo *algo = vine__select_auto(a, ts);
    return algo ? algo->name : "(none)";
}

/* With shm parameters the model decides between shm and the rules' choice. */
static void test_model_decides(void)
{
    vine_cost c;
    vine__cost_defaults(&c);
    c.shm_given = 1;
    vine__select_set_tuning(NULL);
    /* Reduce of 8 B on 16 ranks: the ranges give it to binomial (below 1 KiB). */
    vine_args a = one_node(VINE_COLL_REDUCE, 16, 2);
    c.shm = (vine_cost_shm){1e-9, 1e-12, 1e-13, 1e-12};
    vine__select_set_cost(&c);
    CHECK(vine__select_shm_model() == vine__select_get_cost(), "the cost file's shm level");
    CHECK(strcmp(auto_name(&a, 4), "shm") == 0, "cheap shm: reduce 8 B to shm, got %s",
          auto_name(&a, 4));
    /* The built-in level given: allreduce of 8 B (a double) on 16 prices at 1.41 us on the
     * parity slots against recursive doubling's 2.01 us (class 0), and at 4.11 us without. */
    vine__cost_shm_defaults(&c.shm);
    vine__select_set_cost(&c);
    a = one_node(VINE_COLL_ALLREDUCE, 16, 1);
    a.shm_par_count = 4096;
    CHECK(strcmp(auto_name(&a, 8), "shm") == 0, "allreduce 8 B, par: got %s", auto_name(&a, 8));
    a.shm_par_count = 0;
    CHECK(strcmp(auto_name(&a, 8), "recursive_doubling") == 0, "allreduce 8 B, no par: got %s",
          auto_name(&a, 8));
    a = one_node(VINE_COLL_REDUCE, 16, 2);
    /* A costly shm level: bcast of 1 MiB leaves shm for the rules' choice. */
    c.shm = (vine_cost_shm){1e-3, 1e-6, 1e-7, 1e-6};
    vine__select_set_cost(&c);
    a = one_node(VINE_COLL_BCAST, 16, 1 << 20);
    CHECK(strcmp(auto_name(&a, 1), "bine_large") == 0, "costly shm: bcast, got %s",
          auto_name(&a, 1));
    a = one_node(VINE_COLL_ALLREDUCE, 16, 1 << 18);
    CHECK(strcmp(auto_name(&a, 4), "shm") != 0, "costly shm: allreduce, got %s", auto_name(&a, 4));
    /* No formula for the rules' alltoall and barrier: the ranges still decide. */
    a = one_node(VINE_COLL_ALLTOALL, 16, 64);
    CHECK(strcmp(auto_name(&a, 1), "shm") == 0, "alltoall: the ranges, got %s", auto_name(&a, 1));
    a = one_node(VINE_COLL_BARRIER, 16, 0);
    CHECK(strcmp(auto_name(&a, 1), "shm") == 0, "barrier: the ranges, got %s", auto_name(&a, 1));

    /* The same from a tuning file's model when no cost file gives shm. */
    vine__select_set_cost(NULL);
    vine_tuning t;
    vine__tuning_init(&t);
    t.model.present = 1;
    vine__cost_defaults(&t.model.cost);
    t.model.cost.shm_given = 1;
    t.model.cost.shm = (vine_cost_shm){1e-3, 1e-6, 1e-7, 1e-6};
    vine__select_set_tuning(&t);
    CHECK(vine__select_shm_model() == &t.model.cost, "the tuning model's shm level");
    a = one_node(VINE_COLL_BCAST, 16, 1 << 20);
    CHECK(strcmp(auto_name(&a, 1), "bine_large") == 0,
          "tuning model, costly shm: bcast, got %s", auto_name(&a, 1));
    vine__select_set_tuning(NULL);
    vine__tuning_free(&t);
    vine__select_set_cost(NULL);
}

/* On a map of 4 nodes of 4 ranks the model prices hier_shm against the rest. */
static void test_levels(void)
{
    vine_levels m;
    char err[256] = "";
    CHECK(vine__levels_parse("block:4", 16, &m, err, sizeof err) == VINE_OK, "map: %s", err);
    vine_args a = one_node(VINE_COLL_ALLREDUCE, 16, 1 << 18);
    a.shm_count = 0;
    a.shm_node_count = 1 << 20;
    a.levels = &m;
    vine_cost c;
    vine__cost_defaults(&c);
    c.shm = (vine_cost_shm){1e-9, 1e-13, 1e-14, 1e-13};
    vine__select_set_cost(&c);
    vine_select_why why;
    const vine_algo *got = vine__select_explain(&a, 4, &why);
    int priced = 0;
    for (int i = 0; i < why.n; i++)
        priced |= strcmp(why.cand[i].algo->name, "hier_shm") == 0 && why.cand[i].priced;
    CHECK(priced, "hier_shm is a priced candidate");
    CHECK(why.by_model && got && strcmp(got->name, "hier_shm") == 0, "cheap shm: got %s",
          got ? got->name : "(none)");
    c.shm = (vine_cost_shm){1e-3, 1e-6, 1e-7, 1e-6};
    vine__select_set_cost(&c);
    got = vine__select_auto(&a, 4);
    CHECK(got && strcmp(got->name, "hier_shm") != 0, "costly shm: got %s",
          got ? got->name : "(none)");
    /* hier_shm = the shm reduce-scatter and allgather of 256 KiB blocks on 4 ranks, plus
     * bine_large of the block among the 4 nodes, 4 ranks of each at once (16 messages over 4
     * nodes, class 1 with contention 1): step k moves b = 2^17 >> k bytes twice and
     * reduces it, 2 (1.57 us + b 0.08 ns) + b 0.25 ns: 56.87952 + 30.00976 us. */
    const vine_algo *hs = vine__algo_find(VINE_COLL_ALLREDUCE, "hier_shm");
    double t_hs = 0;
    vine__cost_defaults(&c);
    CHECK(hs && vine__cost_algo(&c, hs, &a, 4, &t_hs) == VINE_OK, "hier_shm priced");
    vine_cost_shm_call rs = call_of(VINE_COLL_REDUCE_SCATTER, 4, 262144, 4);
    vine_cost_shm_call ag = call_of(VINE_COLL_ALLGATHER, 4, 262144, 4);
    rs.total = 1 << 20;
    rs.region = ag.region = (double)(1 << 20) * 4;
    ag.inplace = 1;
    double want = vine__cost_shm(&c.shm, &rs) + vine__cost_shm(&c.shm, &ag) + 86.88928e-6;
    CHECK(near(t_hs, want), "hier_shm: %.9g, by hand %.9g", t_hs, want);
    vine__levels_free(&m);
    vine__select_set_cost(NULL);
}

/*
 * gather and scatter leader_shm on nodes of different sizes (1 and 3 ranks,
 * one level): the shm phase on the node of 3 plus one step across of the
 * other node's blocks, 3 x 100 B into (out of) a root alone in its node, 100 B
 * for a root in the node of 3; the relay of the other node is the same step.
 */
static void test_leader_shm_uneven(void)
{
    vine_levels m;
    char err[256] = "";
    CHECK(vine__levels_parse("sizes:1,3", 4, &m, err, sizeof err) == VINE_OK, "map: %s", err);
    vine_cost c;
    vine__cost_defaults(&c);
    const vine_cost_level *across = vine__cost_level(&c, 1);
    static const vine_coll colls[] = {VINE_COLL_GATHER, VINE_COLL_SCATTER};
    for (int i = 0; i < 2; i++)
        for (int root = 0; root < 2; root++) {
            vine_args a = one_node(colls[i], 4, 100);
            a.shm_count = 0;
            a.shm_node_count = 1 << 20;
            a.levels = &m;
            a.root = root;
            const vine_algo *ls = vine__algo_find(colls[i], "leader_shm");
            double t = 0;
            CHECK(ls && vine__algo_admits(ls, &a) == VINE_OK, "%s leader_shm admitted",
                  vine__coll_name(colls[i]));
            CHECK(ls && vine__cost_algo(&c, ls, &a, 1, &t) == VINE_OK, "%s leader_shm priced",
                  vine__coll_name(colls[i]));
            vine_cost_shm_call in = call_of(colls[i], 3, 100, 1);
            in.region = 1 << 20;
            double want =
                vine__cost_shm(&c.shm, &in) + across->alpha + (root ? 1 : 3) * 100 * across->beta;
            CHECK(near(t, want), "%s leader_shm root %d: %g, by hand %g", vine__coll_name(colls[i]),
                  root, t, want);
        }
    vine__levels_free(&m);
}

/*
 * allgatherv and gatherv shm: allgather's and gather's shm price on the
 * largest block (equal blocks: theirs exactly), and auto gives them one-node
 * calls as the regular collectives' ranges do.
 */
static void test_v(vine_coll vcoll, vine_coll coll)
{
    vine_cost c;
    vine__cost_defaults(&c);
    vine__select_set_cost(NULL); /* auto by the fixed ranges */
    vine__select_set_tuning(NULL);
    const vine_algo *vs = vine__algo_find(vcoll, "shm"), *rs = vine__algo_find(coll, "shm");
    const char *vn = vine__coll_name(vcoll);
    CHECK(vs && rs, "%s and %s shm registered", vn, vine__coll_name(coll));
    if (!vs || !rs)
        return;
    static const size_t blocks[] = {1, 8, 4096, 65536, 1 << 20};
    for (size_t i = 0; i < sizeof blocks / sizeof *blocks; i++) {
        int p = 16;
        size_t counts[16], displs[16], most = blocks[i];
        for (int r = 0; r < p; r++) {
            counts[r] = blocks[i];
            displs[r] = (size_t)r * blocks[i];
        }
        vine_args g = one_node(coll, p, blocks[i]);
        vine_args v = one_node(vcoll, p, 0);
        g.shm_par_count = v.shm_par_count = 32768;
        v.rcounts = counts;
        v.rdispls = displs;
        double tg = 0, tv = 0, tskew = 0, tmost = 0;
        CHECK(vine__cost_algo(&c, rs, &g, 1, &tg) == VINE_OK &&
                  vine__cost_algo(&c, vs, &v, 1, &tv) == VINE_OK && near(tg, tv),
              "%s, equal blocks of %zu B: %g s, the regular shm %g s", vn, blocks[i], tv, tg);
        CHECK(strcmp(auto_name(&v, 1), "shm") == 0, "%s of %zu B blocks: auto %s", vn, blocks[i],
              auto_name(&v, 1));
        /* One block ten times the others (displacements left alone: the price reads counts). */
        counts[5] = most = 10 * blocks[i];
        g.count = most;
        CHECK(vine__cost_algo(&c, vs, &v, 1, &tskew) == VINE_OK &&
                  vine__cost_algo(&c, rs, &g, 1, &tmost) == VINE_OK && near(tskew, tmost),
              "%s, one block of %zu B: %g s, the regular shm on it %g s", vn, most, tskew, tmost);
    }
}

/*
 * scatterv shm: small blocks priced as scatter shm's eager path on the
 * largest block, large ones as scatterv linear; auto takes it on one node.
 */
static void test_scatterv(void)
{
    vine_cost c;
    vine__cost_defaults(&c);
    vine__select_set_cost(NULL);
    vine__select_set_tuning(NULL);
    const vine_algo *sv = vine__algo_find(VINE_COLL_SCATTERV, "shm");
    const vine_algo *lin = vine__algo_find(VINE_COLL_SCATTERV, "linear");
    const vine_algo *sc = vine__algo_find(VINE_COLL_SCATTER, "shm");
    CHECK(sv && lin && sc, "scatterv shm and linear, scatter shm registered");
    if (!sv || !lin || !sc)
        return;
    /* On 2 ranks the part stops below 8 KiB (blocks from 8 KiB go as messages). */
    CHECK(vine__shm_scatterv_part(2, 32768) == 8191 && vine__shm_scatterv_part(2, 4096) == 4096 &&
              vine__shm_scatterv_part(3, 32768) == 16384 &&
              vine__shm_scatterv_part(16, 32768) == 2184 && vine__shm_scatterv_part(1, 32768) == 0,
          "scatterv shm's parts: %zu on 2 ranks, %zu on 3", vine__shm_scatterv_part(2, 32768),
          vine__shm_scatterv_part(3, 32768));
    int p = 16;
    size_t counts[16], displs[16];
    static const size_t blocks[] = {1, 64, 2184, 2185, 1 << 20};
    for (size_t i = 0; i < sizeof blocks / sizeof *blocks; i++) {
        for (int r = 0; r < p; r++) {
            counts[r] = blocks[i];
            displs[r] = (size_t)r * blocks[i];
        }
        vine_args v = one_node(VINE_COLL_SCATTERV, p, 0), g = one_node(VINE_COLL_SCATTER, p, 0);
        v.shm_par_count = g.shm_par_count = 32768; /* parts of 32768 / 15 = 2184 */
        v.scounts = counts;
        v.sdispls = displs;
        g.count = blocks[i];
        double ts = 0, tref = 0;
        int small = blocks[i] <= 2184;
        CHECK(vine__cost_algo(&c, sv, &v, 1, &ts) == VINE_OK &&
                  vine__cost_algo(&c, small ? sc : lin, small ? &g : &v, 1, &tref) == VINE_OK &&
                  near(ts, tref),
              "scatterv shm of %zu B blocks: %g s, %s %g s", blocks[i], ts,
              small ? "scatter shm" : "scatterv linear", tref);
        CHECK(strcmp(auto_name(&v, 1), "shm") == 0, "scatterv of %zu B blocks: auto %s", blocks[i],
              auto_name(&v, 1));
    }
}

/*
 * alltoallv and alltoallw shm: alltoall shm's price on the largest block of
 * the rank's row, sent or received (at run time the row is the rank's own),
 * linear's when that block goes as a message.
 */
static void test_alltoallv(void)
{
    vine_cost c;
    vine__cost_defaults(&c);
    const vine_algo *rs = vine__algo_find(VINE_COLL_ALLTOALL, "shm");
    static const vine_coll colls[] = {VINE_COLL_ALLTOALLV, VINE_COLL_ALLTOALLW};
    static const size_t blocks[] = {1, 64, 4096, 65536};
    for (size_t i = 0; i < 2; i++)
        for (size_t b = 0; b < sizeof blocks / sizeof *blocks; b++) {
            const vine_algo *vs = vine__algo_find(colls[i], "shm");
            const vine_algo *lin = vine__algo_find(colls[i], "linear");
            CHECK(vs && lin && rs, "%s shm and linear, alltoall shm registered",
                  vine__coll_name(colls[i]));
            if (!vs || !lin || !rs)
                return;
            int p = 16;
            size_t sc[16], rc[16], d[16];
            for (int r = 0; r < p; r++) {
                sc[r] = rc[r] = blocks[b];
                d[r] = (size_t)r * 10 * blocks[b];
            }
            vine_args v = one_node(colls[i], p, 0), g = one_node(VINE_COLL_ALLTOALL, p, blocks[b]);
            v.shm_par_count = g.shm_par_count = 32768;
            v.scounts = sc;
            v.rcounts = rc;
            v.sdispls = v.rdispls = d;
            v.rank = 3;
            double tv = 0, tg = 0;
            CHECK(vine__cost_algo(&c, vs, &v, 1, &tv) == VINE_OK &&
                      vine__cost_algo(&c, rs, &g, 1, &tg) == VINE_OK && near(tv, tg),
                  "%s, equal blocks of %zu B: %g s, alltoall shm %g s", vine__coll_name(colls[i]),
                  blocks[b], tv, tg);
            /* One received block ten times the others: priced as alltoall on it, or as
             * linear when it goes as a message (from 256 KiB on 16 ranks). */
            rc[7] = 10 * blocks[b];
            g.count = rc[7];
            int msg = rc[7] >= vine__shm_a2av_msg_min(p);
            CHECK(msg == (blocks[b] == 65536), "%zu B a message on 16 ranks: %d", rc[7], msg);
            CHECK(vine__cost_algo(&c, vs, &v, 1, &tv) == VINE_OK &&
                      vine__cost_algo(&c, msg ? lin : rs, msg ? &v : &g, 1, &tg) == VINE_OK &&
                      near(tv, tg),
                  "%s, one block of %zu B: %g s, %s on it %g s", vine__coll_name(colls[i]), rc[7],
                  tv, msg ? "linear" : "alltoall shm", tg);
        }
}

/* gatherv shm on 2 ranks: blocks from 8 KiB below 512 KiB go as messages, priced as linear. */
static void test_gatherv_pair(void)
{
    vine_cost c;
    vine__cost_defaults(&c);
    const vine_algo *vs = vine__algo_find(VINE_COLL_GATHERV, "shm");
    const vine_algo *lin = vine__algo_find(VINE_COLL_GATHERV, "linear");
    const vine_algo *gs = vine__algo_find(VINE_COLL_GATHER, "shm");
    CHECK(vs && lin && gs, "gatherv shm and linear, gather shm registered");
    if (!vs || !lin || !gs)
        return;
    static const size_t blocks[] = {8191, 8192, 524287, 524288};
    for (size_t i = 0; i < sizeof blocks / sizeof *blocks; i++) {
        size_t counts[2] = {blocks[i], blocks[i]}, displs[2] = {0, blocks[i]};
        vine_args v = one_node(VINE_COLL_GATHERV, 2, 0), g = one_node(VINE_COLL_GATHER, 2, 0);
        v.shm_par_count = g.shm_par_count = 32768;
        v.rcounts = counts;
        v.rdispls = displs;
        g.count = blocks[i];
        int msg = vine__shm_gatherv_message(2, blocks[i]);
        CHECK(msg == (i == 1 || i == 2), "%zu B a message on 2 ranks: %d", blocks[i], msg);
        CHECK(!vine__shm_gatherv_message(3, blocks[i]), "%zu B no message on 3 ranks", blocks[i]);
        double tv = 0, tref = 0;
        CHECK(vine__cost_algo(&c, vs, &v, 1, &tv) == VINE_OK &&
                  vine__cost_algo(&c, msg ? lin : gs, msg ? &v : &g, 1, &tref) == VINE_OK &&
                  near(tv, tref),
              "gatherv shm of %zu B blocks on 2 ranks: %g s, %s %g s", blocks[i], tv,
              msg ? "linear" : "gather shm", tref);
    }
}

/*
 * alltoallv, alltoallw, gatherv and scatterv: a rank knows only its own
 * blocks (gatherv's and scatterv's non-roots their own block), so auto must
 * not price them by size, even with shm parameters given, or ranks with
 * different blocks would run different algorithms.  The ranges decide:
 * shm, whatever the blocks and the model.
 */
static void test_size_free(void)
{
    static const vine_coll colls[] = {VINE_COLL_ALLTOALLV, VINE_COLL_ALLTOALLW, VINE_COLL_GATHERV,
                                      VINE_COLL_SCATTERV};
    static const vine_cost_shm levels[] = {{1e-9, 1e-12, 1e-13, 1e-12}, {1e-3, 1e-6, 1e-7, 1e-6}};
    static const size_t blocks[] = {1, 1 << 20};
    vine__select_set_tuning(NULL);
    for (int l = 0; l < 3; l++) {
        vine_cost c;
        vine__cost_defaults(&c);
        c.shm_given = l < 2;
        if (l < 2)
            c.shm = levels[l];
        vine__select_set_cost(&c);
        for (size_t i = 0; i < sizeof colls / sizeof *colls; i++)
            for (size_t b = 0; b < sizeof blocks / sizeof *blocks; b++) {
                int p = 16;
                size_t counts[16], displs[16];
                for (int r = 0; r < p; r++) {
                    counts[r] = blocks[b];
                    displs[r] = (size_t)r * blocks[b];
                }
                vine_args a = one_node(colls[i], p, 0);
                a.shm_par_count = 32768;
                a.scounts = a.rcounts = counts;
                a.sdispls = a.rdispls = displs;
                a.rank = 3;
                CHECK(strcmp(auto_name(&a, 1), "shm") == 0,
                      "%s, blocks of %zu B, shm level %d: auto %s", vine__coll_name(colls[i]),
                      blocks[b], l, auto_name(&a, 1));
            }
    }
    vine__select_set_cost(NULL);
}

int main(void)
{
    test_copy_rate();
    test_hand_values();
    test_par_values();
    test_par_from_args();
    test_monotone();
    test_cost_file();
    test_tuning_model();
    test_default_unchanged();
    test_model_decides();
    test_levels();
    test_leader_shm_uneven();
    test_v(VINE_COLL_ALLGATHERV, VINE_COLL_ALLGATHER);
    test_v(VINE_COLL_GATHERV, VINE_COLL_GATHER);
    test_scatterv();
    test_alltoallv();
    test_gatherv_pair();
    test_size_free();
    printf("cost_shm: %ld passed, %ld failed\n", checks - failures, failures);
    return failures > 0;
}
