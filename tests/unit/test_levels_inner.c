/*
 * Unit test of the levels inside the node (issue 18, no MPI): level maps
 * with a node level above level 0 (the "node=" mark of the synthetic
 * descriptions, vine__levels_split_node, the check of the node level), the
 * registry's choice of map for the algorithms that run on any number of
 * levels, VINE_NODE_LEVELS, and rank 0's plan of the levels inside the
 * nodes (src/coll/levels_inner.h) on hand-made bindings.  Prints
 * "levels_inner: N passed, M failed".
 */
#include "check.h"
#include "coll/coll.h"
#include "coll/levels.h"
#include "coll/levels_inner.h"
#include "sim/sim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int parse_ok(const char *spec, int p, vine_levels *m)
{
    char err[256] = "";
    int rc = vine__levels_parse(spec, p, m, err, sizeof err);
    CHECK(rc == VINE_OK, "parse '%s' p=%d: rc %d '%s'", spec, p, rc, err);
    return rc != VINE_OK;
}

static void parse_fails(const char *spec, int p, const char *text)
{
    vine_levels m;
    char err[256] = "";
    int rc = vine__levels_parse(spec, p, &m, err, sizeof err);
    CHECK(rc == VINE_ERR_UNSUPPORTED && !m.group && strstr(err, text),
          "parse '%s': rc %d, '%s' lacks '%s'", spec, rc, err, text);
    vine__levels_free(&m);
}

/* Level l of a and level k of b group p ranks alike (both finished). */
static int same_level(const vine_levels *a, int l, const vine_levels *b, int k)
{
    return memcmp(a->group + (size_t)l * a->p, b->group + (size_t)k * b->p,
                  (size_t)a->p * sizeof *a->group) == 0;
}

static void test_parse_node(void)
{
    vine_levels m, plain;
    if (!parse_ok("block:2/node=block:4,2", 32, &m) && !parse_ok("block:2,4,2", 32, &plain)) {
        CHECK(m.nlevels == 3 && m.node == 1, "node=: %d levels, node %d", m.nlevels, m.node);
        for (int l = 0; l < 3; l++)
            CHECK(same_level(&m, l, &plain, l), "node=: level %d as without the mark", l);
        CHECK(plain.node == 0, "no mark: node %d", plain.node);
    }
    vine__levels_free(&m);
    vine__levels_free(&plain);
    if (!parse_ok("node=block:4", 8, &m))
        CHECK(m.node == 0 && m.nlevels == 1, "node= on the first level: node %d", m.node);
    vine__levels_free(&m);
    if (!parse_ok("cyclic:2,2/node=sizes:1,2", 12, &m))
        CHECK(m.node == 2 && m.nlevels == 3, "cyclic inside: node %d of %d", m.node, m.nlevels);
    vine__levels_free(&m);
    parse_fails("block:2/node=block:2/node=block:2", 16, "more than one node=");
    parse_fails("node=", 8, "is not KIND:ARGS");
    parse_fails("block:2/node=flat", 8, "is not KIND:ARGS");
    parse_fails("node=bogus:2", 8, "unknown kind");
}

static void test_split(void)
{
    vine_levels full, node, plain;
    if (parse_ok("block:2,2/node=block:2/block:2", 32, &full) ||
        parse_ok("block:8,2", 32, &plain)) {
        vine__levels_free(&full);
        vine__levels_free(&plain);
        return;
    }
    int rc = vine__levels_split_node(&full, &node);
    CHECK(rc == VINE_OK && full.group && full.node == 2 && node.node == 0 && node.nlevels == 2 &&
              vine__levels_ready(&node, 32) && vine__levels_ready(&full, 32),
          "split: rc %d, full node %d, node map %d levels", rc, full.node, node.nlevels);
    for (int l = 0; rc == VINE_OK && l < 2; l++)
        CHECK(same_level(&node, l, &plain, l) && same_level(&full, l + 2, &plain, l),
              "split: node map level %d", l);
    CHECK(rc != VINE_OK || vine__levels_dividing(&full) == 4, "split: full map divides 4 times");
    vine__levels_free(&full);
    vine__levels_free(&node);
    vine__levels_free(&plain);
    /* Without levels inside the node the map moves. */
    if (!parse_ok("block:4", 8, &full)) {
        rc = vine__levels_split_node(&full, &node);
        CHECK(rc == VINE_OK && !full.group && !full.idx && vine__levels_ready(&node, 8),
              "split of a node map: rc %d, full %p", rc, (void *)full.group);
    }
    vine__levels_free(&full);
    vine__levels_free(&node);
    /* A node level outside the map is refused. */
    vine_levels bad;
    char err[200] = "";
    if (vine__levels_alloc(&bad, 4, 2) == VINE_OK) {
        bad.node = 2;
        CHECK(vine__levels_finish(&bad, err, sizeof err) == VINE_ERR_UNSUPPORTED &&
                  strstr(err, "node level 2"),
              "node level out of range: '%s'", err);
        bad.node = 1;
        CHECK(vine__levels_finish(&bad, err, sizeof err) == VINE_OK && bad.node == 1,
              "node level 1 of 2 kept: '%s'", err);
    }
    vine__levels_free(&bad);
}

/* The registry: algorithms on any number of levels take the full map, the others the node map. */
static void test_admits(void)
{
    static const char *const any[][2] = {
        {"gather", "leader"},        {"gather", "leader_bine"}, {"scatter", "leader"},
        {"scatter", "leader_bine"},  {"bcast", "hier"},         {"reduce", "hier"},
        {"allgather", "hier"},       {"allreduce", "hier"},     {"allreduce", "hier_rd"},
        {"allreduce", "hier_large"}, {"allreduce", "hier_rab"}, {"bcast", "hier_large"},
        {"reduce", "hier_large"}};
    static const char *const node_only[][2] = {
        {"bcast", "hier_shm"}, {"reduce", "hier_shm"}, {"allreduce", "hier_shm"}};
    vine_levels full, node;
    /* One node of 8 ranks in 4 NUMA domains: the node map is flat. */
    if (parse_ok("block:2/node=block:4", 8, &full) || vine__levels_split_node(&full, &node)) {
        vine__levels_free(&full);
        return;
    }
    CHECK(vine__levels_flat(&node) && !vine__levels_flat(&full), "one node: node map flat");
    vine_args a = {.p = 8, .count = 1, .commutative = 1, .levels = &node, .levels_full = &full};
    CHECK(vine__args_levels(&a) == &full, "vine__args_levels: the full map");
    for (size_t i = 0; i < sizeof any / sizeof *any; i++) {
        vine_coll c = (vine_coll)vine__coll_parse(any[i][0]);
        const vine_algo *al = vine__algo_find(c, any[i][1]);
        a.coll = c;
        CHECK(al && (al->flags & VINE_ALGO_LEVELS_ANY) && vine__algo_admits(al, &a) == VINE_OK,
              "%s %s runs on the levels inside one node", any[i][0], any[i][1]);
        a.levels = NULL;
        CHECK(al && vine__algo_admits(al, &a) == VINE_ERR_UNSUPPORTED,
              "%s %s: no full map without a node map", any[i][0], any[i][1]);
        a.levels = &node;
    }
    for (size_t i = 0; i < sizeof node_only / sizeof *node_only; i++) {
        vine_coll c = (vine_coll)vine__coll_parse(node_only[i][0]);
        const vine_algo *al = vine__algo_find(c, node_only[i][1]);
        a.coll = c;
        CHECK(al && !(al->flags & VINE_ALGO_LEVELS_ANY) &&
                  vine__algo_admits(al, &a) == VINE_ERR_UNSUPPORTED,
              "%s %s stays on the nodes", node_only[i][0], node_only[i][1]);
    }
    a.p = 9;
    CHECK(vine__args_levels(&a) == &node, "vine__args_levels: a full map of another p is ignored");
    vine__levels_free(&full);
    vine__levels_free(&node);
}

static void test_parse_env(void)
{
    static const struct {
        const char *v;
        int mask, rc;
    } cases[] = {{NULL, 0, 0},         {"", 0, 0},          {"none", 0, 0},
                 {"all", 7, 0},        {"numa", 1, 0},      {"package,cache", 6, 0},
                 {"cache,numa", 5, 0}, {"numa,numa", 1, 0}, {"socket", 0, -1},
                 {"numa,", 0, -1},     {",numa", 0, -1},    {"numa,,cache", 0, -1},
                 {"NUMA", 0, -1}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        int mask = -1;
        char err[200] = "";
        int rc = vine__inner_parse(cases[i].v, &mask, err, sizeof err);
        CHECK(rc == cases[i].rc && mask == cases[i].mask &&
                  (rc == 0 || strstr(err, "expected none, all or a list")),
              "VINE_NODE_LEVELS=%s: rc %d mask %d '%s'", cases[i].v ? cases[i].v : "(unset)", rc,
              mask, err);
    }
}

/* ---- rank 0's plan ----------------------------------------------------------- */

#define P 8

typedef struct plan_case {
    const char *what;
    int node[P];
    int dom[VINE_INNER_KINDS][P];
    int want, room;
    int nsub;
    int kinds[VINE_INNER_KINDS];
    int groups[VINE_INNER_KINDS][P]; /* finest first, in lowest-rank order */
    const char *msg;
} plan_case;

static const plan_case plan_cases[] = {
    {"numa = cache, packages",
     {0, 0, 0, 0, 0, 0, 0, 0},
     {{0, 0, 1, 1, 2, 2, 3, 3}, {0, 0, 0, 0, 1, 1, 1, 1}, {0, 0, 1, 1, 2, 2, 3, 3}},
     7,
     8,
     2,
     {5, 2},
     {{0, 0, 1, 1, 2, 2, 3, 3}, {0, 0, 0, 0, 1, 1, 1, 1}},
     "inside the nodes: numa=cache (4 groups), package (2 groups)"},
    {"two hosts, ids per machine",
     {0, 0, 0, 0, 1, 1, 1, 1},
     {{0, 0, 1, 1, 0, 0, 1, 1}, {0, 0, 0, 0, 0, 0, 0, 0}, {0, 1, 2, 3, 0, 1, 2, 3}},
     7,
     8,
     1,
     {1},
     {{0, 0, 1, 1, 2, 2, 3, 3}},
     "inside the nodes: numa (4 groups); left out: package (the same groups as the nodes), "
     "cache (one rank each)"},
    {"cache inside numa, finest first",
     {0, 0, 0, 0, 0, 0, 0, 0},
     {{0, 0, 0, 0, 1, 1, 1, 1}, {0, 0, 0, 0, 0, 0, 0, 0}, {0, 0, 1, 1, 2, 2, 3, 3}},
     7,
     8,
     2,
     {4, 1},
     {{0, 0, 1, 1, 2, 2, 3, 3}, {0, 0, 0, 0, 1, 1, 1, 1}},
     "inside the nodes: cache (4 groups), numa (2 groups); left out: package (the same groups "
     "as the nodes)"},
    {"unbound and absent",
     {0, 0, 0, 0, 0, 0, 0, 0},
     {{0, 0, 1, -1, 2, 2, 3, 3}, {-2, -2, -2, -2, -2, -2, -2, -2}, {0, 0, 0, 0, 1, 1, 1, 1}},
     7,
     8,
     1,
     {4},
     {{0, 0, 0, 0, 1, 1, 1, 1}},
     "inside the nodes: cache (2 groups); left out: numa (rank 3 is not bound inside one), "
     "package (none on the machine of rank 0)"},
    {"not nested",
     {0, 0, 0, 0, 0, 0, 0, 0},
     {{0, 0, 1, 1, 2, 2, 3, 3}, {0, 0, 0, 0, 0, 0, 0, 0}, {0, 1, 1, 2, 2, 3, 3, 0}},
     5,
     8,
     1,
     {1},
     {{0, 0, 1, 1, 2, 2, 3, 3}},
     "inside the nodes: numa (4 groups); left out: cache (does not nest with numa)"},
    {"no room for a second level",
     {0, 0, 0, 0, 0, 0, 0, 0},
     {{0, 0, 1, 1, 2, 2, 3, 3}, {0, 0, 0, 0, 1, 1, 1, 1}, {0}},
     3,
     1,
     1,
     {1},
     {{0, 0, 1, 1, 2, 2, 3, 3}},
     "inside the nodes: numa (4 groups); left out: package (no room for more levels)"},
    {"only what is asked for",
     {0, 0, 0, 0, 0, 0, 0, 0},
     {{0, 0, 1, 1, 2, 2, 3, 3}, {0, 0, 0, 0, 1, 1, 1, 1}, {0}},
     2,
     8,
     1,
     {2},
     {{0, 0, 0, 0, 1, 1, 1, 1}},
     "inside the nodes: package (2 groups)"},
    {"nothing splits",
     {0, 1, 2, 3, 4, 5, 6, 7},
     {{0, 0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 0, 0}},
     7,
     8,
     0,
     {0},
     {{0}},
     "no levels inside the nodes: numa (the same groups as the nodes), package (the same "
     "groups as the nodes), cache (the same groups as the nodes)"},
};

/* Renumbers g (P ids) in lowest-rank order. */
static void normalise(int *g)
{
    int key[P], n = 0, out[P];
    for (int r = 0; r < P; r++) {
        int k = 0;
        while (k < n && key[k] != g[r])
            k++;
        if (k == n)
            key[n++] = g[r];
        out[r] = k;
    }
    memcpy(g, out, sizeof out);
}

static void check_plan(const plan_case *c)
{
    int dom[VINE_INNER_KINDS * P], out[VINE_INNER_KINDS * P], kinds[VINE_INNER_KINDS], nsub = -1;
    char msg[400] = "";
    for (int k = 0; k < VINE_INNER_KINDS; k++)
        memcpy(dom + k * P, c->dom[k], sizeof c->dom[k]);
    int rc =
        vine__inner_plan(P, c->node, dom, c->want, c->room, out, kinds, &nsub, msg, sizeof msg);
    CHECK(rc == 0 && nsub == c->nsub, "%s: rc %d, %d levels (want %d)", c->what, rc, nsub, c->nsub);
    CHECK(strcmp(msg, c->msg) == 0, "%s: message '%s'\n  want '%s'", c->what, msg, c->msg);
    for (int l = 0; rc == 0 && l < nsub && l < c->nsub; l++) {
        normalise(out + l * P);
        CHECK(kinds[l] == c->kinds[l] &&
                  memcmp(out + l * P, c->groups[l], sizeof c->groups[l]) == 0,
              "%s: level %d (kinds %d, want %d)", c->what, l, kinds[l], c->kinds[l]);
    }
    /* The levels and the node make a map that nests. */
    vine_levels m;
    if (rc == 0 && vine__levels_alloc(&m, P, nsub + 1) == VINE_OK) {
        memcpy(m.group, out, (size_t)nsub * P * sizeof *out);
        memcpy(m.group + (size_t)nsub * P, c->node, sizeof c->node);
        m.node = nsub;
        char err[200] = "";
        CHECK(vine__levels_finish(&m, err, sizeof err) == VINE_OK, "%s: map: %s", c->what, err);
    }
    vine__levels_free(&m);
}

/* vine sim's --numa: the ranks of each host in k runs, below the hosts. */
static void test_sim_numa(void)
{
    /* Hosts 3 and 1 with 5 ranks each, ranks of host 1 interleaved; host 3 first. */
    const int host[10] = {3, 3, 3, 1, 3, 1, 3, 1, 1, 1};
    const int want0[10] = {0, 0, 0, 1, 2, 1, 2, 1, 3, 3},
              want1[10] = {0, 0, 0, 1, 0, 1, 0, 1, 1, 1};
    vine_levels m, full;
    char err[200] = "";
    int rc = vine__levels_alloc(&m, 10, 1);
    if (rc == VINE_OK) {
        memcpy(m.group, host, sizeof host);
        rc = vine__levels_finish(&m, err, sizeof err);
    }
    CHECK(rc == VINE_OK, "host map: %s", err);
    rc = vine__sim_levels_numa(&m, host, 4, 10, 2, &full, err, sizeof err);
    CHECK(rc == VINE_OK && full.group && full.nlevels == 2 && full.node == 1,
          "numa 2: rc %d, %d levels, node %d (%s)", rc, full.nlevels, full.node, err);
    if (rc == VINE_OK && full.group)
        CHECK(memcmp(full.group, want0, sizeof want0) == 0 &&
                  memcmp(full.group + 10, want1, sizeof want1) == 0,
              "numa 2: runs of 3 and 2 ranks per host");
    vine__levels_free(&full);
    rc = vine__sim_levels_numa(&m, host, 4, 10, 1, &full, err, sizeof err);
    CHECK(rc == VINE_OK && !full.group, "numa 1: the hosts, no level inside");
    rc = vine__sim_levels_numa(&m, host, 4, 10, 5, &full, err, sizeof err);
    CHECK(rc == VINE_OK && !full.group, "numa 5: single ranks, no level inside");
    rc = vine__sim_levels_numa(&m, host, 3, 10, 2, &full, err, sizeof err);
    CHECK(rc == VINE_ERR_UNSUPPORTED && !full.group && strstr(err, "rank 0 is on host 3"),
          "a host out of range: '%s'", err);
    rc = vine__sim_levels_numa(&m, host, 4, 10, 0, &full, err, sizeof err);
    CHECK(rc == VINE_ERR_UNSUPPORTED && !full.group, "numa 0 refused: '%s'", err);
    vine__levels_free(&m);
}

int main(void)
{
    test_sim_numa();
    test_parse_node();
    test_split();
    test_admits();
    test_parse_env();
    for (size_t i = 0; i < sizeof plan_cases / sizeof *plan_cases; i++)
        check_plan(&plan_cases[i]);
    char buf[64];
    vine__inner_kinds_text(7, buf, sizeof buf);
    CHECK(strcmp(buf, "numa=package=cache") == 0, "kinds text '%s'", buf);
    printf("levels_inner: %ld passed, %ld failed\n", checks - failures, failures);
    return failures != 0;
}
