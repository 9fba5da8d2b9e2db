/*
 * Unit test of the level maps in src/coll/levels.h (no MPI): the synthetic
 * descriptions against maps written out by hand or by a naive rule, the
 * rejection of malformed descriptions and maps, the renumbering in
 * lowest-rank order, every accessor against a scan of all ranks, and the
 * stages and tree order of the hierarchical tree against their definitions
 * for every anchor of random maps.  Also the registry's VINE_ALGO_LEVELS
 * restriction.  Prints "levels: N passed, M failed".
 */
#include "check.h"
#include "coll/coll.h"
#include "coll/levels.h"
#include "coll/phase_node.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Parses spec at p, checks that it worked; returns 0 on success. */
static int parse_ok(const char *spec, int p, vine_levels *m)
{
    char err[256] = "";
    int rc = vine__levels_parse(spec, p, m, err, sizeof err);
    CHECK(rc == VINE_OK, "parse '%s' p=%d: rc %d '%s'", spec, p, rc, err);
    return rc != VINE_OK;
}

/* Checks level l of m against want[] (p entries, already in lowest-rank order). */
static void expect_level(const vine_levels *m, int l, const int *want, const char *what)
{
    int ng = 0;
    for (int r = 0; r < m->p; r++) {
        CHECK(m->group[(size_t)l * m->p + r] == want[r], "%s: level %d rank %d: group %d, want %d",
              what, l, r, m->group[(size_t)l * m->p + r], want[r]);
        ng = want[r] + 1 > ng ? want[r] + 1 : ng;
    }
    CHECK(m->ngroups[l] == ng, "%s: level %d: %d groups, want %d", what, l, m->ngroups[l], ng);
}

static void test_parse_kinds(void)
{
    int want[64], want1[64];
    for (int p = 1; p <= 40; p++) {
        vine_levels m;
        char what[64];
        /* block:4 and block:4,3: runs of 4 ranks, runs of 3 nodes. */
        snprintf(what, sizeof what, "block:4,3 p=%d", p);
        if (!parse_ok("block:4,3", p, &m)) {
            CHECK(m.nlevels == 2, "%s: %d levels", what, m.nlevels);
            for (int r = 0; r < p; r++) {
                want[r] = r / 4;
                want1[r] = r / 12;
            }
            expect_level(&m, 0, want, what);
            expect_level(&m, 1, want1, what);
        }
        vine__levels_free(&m);
        /* cyclic:5: rank r on node r mod 5 (already lowest-rank order). */
        snprintf(what, sizeof what, "cyclic:5 p=%d", p);
        if (!parse_ok("cyclic:5", p, &m)) {
            for (int r = 0; r < p; r++)
                want[r] = r % 5;
            expect_level(&m, 0, want, what);
        }
        vine__levels_free(&m);
        /* sizes:1,3,5,7 dealt out one rank at a time, then block:2 of those nodes. */
        snprintf(what, sizeof what, "sizes:1,3,5,7/block:2 p=%d", p);
        if (!parse_ok("sizes:1,3,5,7/block:2", p, &m)) {
            static const int sz[4] = {1, 3, 5, 7};
            int g = 0, left = sz[0];
            for (int r = 0; r < p; r++) {
                if (left == 0)
                    left = sz[++g % 4];
                want[r] = g;
                want1[r] = g / 2;
                left--;
            }
            expect_level(&m, 0, want, what);
            expect_level(&m, 1, want1, what);
        }
        vine__levels_free(&m);
    }
    /* flat: one level, every rank alone. */
    vine_levels m;
    if (!parse_ok("flat", 5, &m)) {
        int id[5] = {0, 1, 2, 3, 4};
        expect_level(&m, 0, id, "flat");
        CHECK(m.nlevels == 1, "flat: %d levels", m.nlevels);
    }
    vine__levels_free(&m);
    /* ids renumbered in lowest-rank order; the second level groups level-0 groups. */
    if (!parse_ok("ids:9,4,9,0,4,7/ids:5,5,1,1", 6, &m)) {
        int w0[6] = {0, 1, 0, 2, 1, 3}, w1[6] = {0, 0, 0, 1, 0, 1};
        expect_level(&m, 0, w0, "ids");
        expect_level(&m, 1, w1, "ids");
    }
    vine__levels_free(&m);
    /* cyclic above the units: groups that get no unit vanish. */
    if (!parse_ok("cyclic:10", 4, &m)) {
        int id[4] = {0, 1, 2, 3};
        expect_level(&m, 0, id, "cyclic:10 p=4");
    }
    vine__levels_free(&m);
}

/* Random maps: deterministic per seed, nested, at most N groups per level. */
static void test_parse_random(void)
{
    for (int p = 1; p <= 50; p += 7) {
        vine_levels a, b, c;
        int bad = parse_ok("random:42:6,3", p, &a);
        bad |= parse_ok("random:42:6,3", p, &b);
        bad |= parse_ok("random:43:6,3", p, &c);
        if (bad) {
            vine__levels_free(&a);
            vine__levels_free(&b);
            vine__levels_free(&c);
            continue;
        }
        CHECK(a.nlevels == 2 && a.ngroups[0] <= 6 && a.ngroups[1] <= 3 &&
                  a.ngroups[1] <= a.ngroups[0],
              "random p=%d: %d levels, %d and %d groups", p, a.nlevels, a.ngroups[0], a.ngroups[1]);
        CHECK(memcmp(a.group, b.group, 2 * (size_t)p * sizeof *a.group) == 0,
              "random p=%d: the same seed gives another map", p);
        if (p >= 30)
            CHECK(memcmp(a.group, c.group, 2 * (size_t)p * sizeof *a.group) != 0,
                  "random p=%d: seeds 42 and 43 give the same map", p);
        for (int r = 0; r < p; r++)
            for (int s = 0; s < p; s++)
                if (a.group[r] == a.group[s])
                    CHECK(a.group[p + r] == a.group[p + s], "random p=%d: ranks %d, %d not nested",
                          p, r, s);
        vine__levels_free(&a);
        vine__levels_free(&b);
        vine__levels_free(&c);
    }
}

static void test_parse_errors(void)
{
    static const char *bad[] = {"",
                                "block",
                                "block:",
                                "block:0",
                                "block:2,",
                                "block:-2",
                                "block:2x",
                                "block:99999999999",
                                "foo:3",
                                "sizes:1,,2",
                                "sizes:0",
                                "random:x:3",
                                "random:3",
                                "random:3:0",
                                "ids:1,2",
                                "ids:1,2,3,-1",
                                "block:2/",
                                "/block:2",
                                "block:1,1,1,1,1,1,1,1,1",
                                "block:1/block:1/block:1/block:1/block:1/block:1/block:1/block:1/"
                                "block:1",
                                "flat/block:2"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        vine_levels m;
        char err[256] = "";
        int rc = vine__levels_parse(bad[i], 4, &m, err, sizeof err);
        CHECK(rc == VINE_ERR_UNSUPPORTED && err[0] != '\0' && m.group == NULL && m.idx == NULL,
              "parse '%s' p=4: rc %d '%s', want a rejection with a message", bad[i], rc, err);
        vine__levels_free(&m);
    }
    vine_levels m;
    CHECK(vine__levels_parse("block:2", 0, &m, NULL, 0) == VINE_ERR_UNSUPPORTED, "p = 0");
    CHECK(vine__levels_parse(NULL, 4, &m, NULL, 0) == VINE_ERR_UNSUPPORTED, "NULL spec");
    /* Eight levels are the most. */
    CHECK(vine__levels_parse("block:1,1,1,1,1,1,1,2", 4, &m, NULL, 0) == VINE_OK &&
              m.nlevels == VINE_LEVELS_MAX,
          "8 levels");
    vine__levels_free(&m);
}

/* alloc + finish: renumbering, nesting, bad ids and shapes. */
static void test_finish(void)
{
    vine_levels m;
    char err[256];
    CHECK(vine__levels_alloc(&m, 4, 0) == VINE_ERR_UNSUPPORTED && !m.group, "0 levels");
    CHECK(vine__levels_alloc(&m, 4, VINE_LEVELS_MAX + 1) == VINE_ERR_UNSUPPORTED, "9 levels");
    CHECK(vine__levels_alloc(&m, 0, 1) == VINE_ERR_UNSUPPORTED, "0 ranks");
    CHECK(vine__levels_finish(NULL, err, sizeof err) == VINE_ERR_UNSUPPORTED, "NULL map");

    /* Sparse ids renumbered in lowest-rank order, on both levels. */
    if (vine__levels_alloc(&m, 6, 2) == VINE_OK) {
        int g0[6] = {1000000, 7, 1000000, 7, 3, 3}, g1[6] = {50, 2, 50, 2, 2, 2};
        memcpy(m.group, g0, sizeof g0);
        memcpy(m.group + 6, g1, sizeof g1);
        int rc = vine__levels_finish(&m, err, sizeof err);
        CHECK(rc == VINE_OK, "sparse ids: rc %d '%s'", rc, err);
        int w0[6] = {0, 1, 0, 1, 2, 2}, w1[6] = {0, 1, 0, 1, 1, 1};
        expect_level(&m, 0, w0, "sparse ids");
        expect_level(&m, 1, w1, "sparse ids");
        CHECK(vine__levels_ready(&m, 6) && !vine__levels_ready(&m, 5), "ready");
        /* Finishing twice is fine (the index is rebuilt). */
        CHECK(vine__levels_finish(&m, err, sizeof err) == VINE_OK, "finish twice");
        expect_level(&m, 0, w0, "finished twice");
        /* A map broken after it was finished loses its index when finished again. */
        m.group[0] = -5;
        CHECK(vine__levels_finish(&m, err, sizeof err) == VINE_ERR_UNSUPPORTED &&
                  !vine__levels_ready(&m, 6),
              "a map that fails a second finish is not ready");
    }
    vine__levels_free(&m);
    vine__levels_free(&m); /* an emptied map frees again */

    /* Not nested: ranks 1 and 2 share a node but not a switch. */
    if (vine__levels_alloc(&m, 4, 2) == VINE_OK) {
        int g0[4] = {0, 1, 1, 2}, g1[4] = {0, 0, 1, 1};
        memcpy(m.group, g0, sizeof g0);
        memcpy(m.group + 4, g1, sizeof g1);
        err[0] = '\0';
        int rc = vine__levels_finish(&m, err, sizeof err);
        CHECK(rc == VINE_ERR_UNSUPPORTED && strstr(err, "nest") && strstr(err, "1") &&
                  strstr(err, "2"),
              "not nested: rc %d '%s'", rc, err);
        CHECK(!vine__levels_ready(&m, 4), "a rejected map is not ready");
    }
    vine__levels_free(&m);

    /* A negative id. */
    if (vine__levels_alloc(&m, 3, 1) == VINE_OK) {
        m.group[2] = -1;
        int rc = vine__levels_finish(&m, err, sizeof err);
        CHECK(rc == VINE_ERR_UNSUPPORTED && strstr(err, "negative"), "negative id: rc %d '%s'", rc,
              err);
        CHECK(vine__levels_finish(&m, NULL, 0) == VINE_ERR_UNSUPPORTED, "no err buffer");
    }
    vine__levels_free(&m);
}

/* Flat maps, and the lanes (smallest node) of the others (phase_node.h). */
static void test_flat_lanes(void)
{
    static const struct {
        const char *spec;
        int p, flat, lanes;
    } cases[] = {
        {"flat", 7, 1, 0},           {"block:1", 7, 1, 0},      {"block:7", 7, 1, 0},
        {"block:100", 7, 1, 0},      {"block:1,100", 7, 1, 0},  {"block:2", 4, 0, 2},
        {"block:2", 5, 0, 1},        {"block:1,2", 4, 0, 1},    {"cyclic:3", 9, 0, 3},
        {"sizes:1,3,5,7", 16, 0, 1}, {"sizes:2", 8, 0, 2},      {"block:4/block:1", 8, 0, 4},
        {"sizes:3,1", 8, 0, 1},      {"sizes:5,3,4", 12, 0, 3}, {"random:1:3", 1, 1, 0},
        {"block:3", 1, 1, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        vine_levels m;
        if (!parse_ok(cases[i].spec, cases[i].p, &m)) {
            CHECK(vine__levels_flat(&m) == cases[i].flat, "flat('%s', p=%d) = %d", cases[i].spec,
                  cases[i].p, vine__levels_flat(&m));
            if (!cases[i].flat)
                CHECK(vine__node_lanes(&m) == cases[i].lanes, "lanes('%s', p=%d) = %d",
                      cases[i].spec, cases[i].p, vine__node_lanes(&m));
        }
        vine__levels_free(&m);
    }
    CHECK(vine__levels_flat(NULL), "NULL is flat");
}

/* The naive group of r at level l (-1: r, nlevels: 0). */
static int naive_group(const vine_levels *m, int l, int r)
{
    return l < 0 ? r : l >= m->nlevels ? 0 : m->group[(size_t)l * m->p + r];
}

/* Every accessor against a scan of all ranks. */
static void check_accessors(const vine_levels *m, const char *what)
{
    int p = m->p, L = m->nlevels;
    for (int l = -1; l <= L; l++) {
        int ng = vine__levels_ngroups(m, l);
        CHECK(ng == (l < 0 ? p : l == L ? 1 : m->ngroups[l]), "%s: ngroups(%d)", what, l);
        int prev_leader = -1;
        for (int g = 0; g < ng; g++) {
            int n, cnt = 0, lowest = -1;
            const int *mem = vine__levels_members(m, l, g, &n);
            for (int r = 0; r < p; r++) {
                if (naive_group(m, l, r) != g)
                    continue;
                if (lowest < 0)
                    lowest = r;
                CHECK(cnt < n && mem[cnt] == r, "%s: members(%d, %d)[%d] = %d, want %d", what, l, g,
                      cnt, cnt < n ? mem[cnt] : -1, r);
                CHECK(vine__levels_local(m, l, r) == cnt, "%s: local(%d, %d)", what, l, r);
                CHECK(vine__levels_group(m, l, r) == g, "%s: group(%d, %d)", what, l, r);
                cnt++;
            }
            CHECK(n == cnt && vine__levels_size(m, l, g) == cnt, "%s: size(%d, %d) = %d, want %d",
                  what, l, g, n, cnt);
            CHECK(vine__levels_leader(m, l, g) == lowest, "%s: leader(%d, %d) = %d, want %d", what,
                  l, g, vine__levels_leader(m, l, g), lowest);
            /* Ids in lowest-rank order: leaders increase with the id. */
            CHECK(lowest > prev_leader, "%s: level %d ids not in lowest-rank order", what, l);
            prev_leader = lowest;
            if (l >= 0 && l < L)
                CHECK(vine__levels_parent(m, l, g) == naive_group(m, l + 1, lowest),
                      "%s: parent(%d, %d)", what, l, g);
            if (l < 0)
                continue;
            /* The subgroups: the level l-1 groups whose leader lies in g, in id order. */
            int ns, k = 0;
            const int *sub = vine__levels_subgroups(m, l, g, &ns);
            for (int u = 0; u < vine__levels_ngroups(m, l - 1); u++) {
                int lead = -1;
                for (int r = 0; r < p && lead < 0; r++)
                    if (naive_group(m, l - 1, r) == u)
                        lead = r;
                if (naive_group(m, l, lead) != g)
                    continue;
                CHECK(k < ns && sub[k] == u, "%s: subgroups(%d, %d)[%d]", what, l, g, k);
                CHECK(vine__levels_subindex(m, l - 1, u) == k, "%s: subindex(%d, %d) = %d, want %d",
                      what, l - 1, u, vine__levels_subindex(m, l - 1, u), k);
                k++;
            }
            CHECK(ns == k, "%s: %d subgroups of (%d, %d), want %d", what, ns, l, g, k);
        }
    }
}

/*
 * The tree for every anchor: the tree order is a permutation starting at the
 * anchor in which every group is consecutive; every rank's stages follow the
 * definition in levels.h.
 */
static void check_tree(const vine_levels *m, const char *what)
{
    int p = m->p, L = m->nlevels;
    int *rank_at = malloc((size_t)p * sizeof *rank_at), *pos = malloc((size_t)p * sizeof *pos);
    if (!rank_at || !pos) {
        free(rank_at);
        free(pos);
        CHECK(0, "out of memory");
        return;
    }
    for (int anchor = 0; anchor < p; anchor++) {
        vine__levels_tree_order(m, anchor, rank_at);
        for (int r = 0; r < p; r++)
            pos[r] = -1;
        for (int y = 0; y < p; y++)
            if (rank_at[y] >= 0 && rank_at[y] < p)
                pos[rank_at[y]] = y;
        int perm = 1;
        for (int r = 0; r < p; r++)
            perm &= pos[r] >= 0;
        CHECK(perm && rank_at[0] == anchor, "%s anchor %d: tree order", what, anchor);
        if (!perm)
            continue;
        /* Every group at every level is an interval of the tree order. */
        for (int l = 0; l < L; l++)
            for (int y = 1; y < p; y++) {
                int ga = naive_group(m, l, rank_at[y - 1]), gb = naive_group(m, l, rank_at[y]);
                if (ga == gb)
                    continue;
                for (int z = y + 1; z < p; z++)
                    CHECK(naive_group(m, l, rank_at[z]) != ga,
                          "%s anchor %d: level %d group %d split in the tree order", what, anchor,
                          l, ga);
            }
        for (int r = 0; r < p; r++) {
            vine_levels_path path;
            if (vine__levels_path(m, r, anchor, &path) != VINE_OK) {
                CHECK(0, "out of memory");
                continue;
            }
            CHECK(path.nstages >= 1 && path.nstages <= L + 1, "%s: %d stages", what, path.nstages);
            for (int s = 0; s < path.nstages; s++) {
                const vine_levels_stage *st = &path.stage[s];
                int g = naive_group(m, s, r);
                CHECK(st->level == s && st->rank[st->v] == r, "%s: rank %d stage %d: v %d", what, r,
                      s, st->v);
                CHECK(st->lo[0] == 0 && st->lo[st->k] == vine__levels_size(m, s, g),
                      "%s: rank %d stage %d: lo", what, r, s);
                /* The target: the anchor in its groups, else the leader. */
                int target = naive_group(m, s, anchor) == g ? anchor : vine__levels_leader(m, s, g);
                CHECK(st->rank[0] == target, "%s anchor %d: rank %d stage %d target %d, want %d",
                      what, anchor, r, s, st->rank[0], target);
                /* Participant w's blocks lie in the tree order at lo[w] from the group's start. */
                int base = p;
                for (int q = 0; q < p; q++)
                    if (naive_group(m, s, q) == g && pos[q] < base)
                        base = pos[q];
                for (int w = 0; w < st->k; w++)
                    CHECK(pos[st->rank[w]] == base + st->lo[w],
                          "%s anchor %d: rank %d stage %d participant %d at %d, want %d", what,
                          anchor, r, s, w, pos[st->rank[w]], base + st->lo[w]);
                CHECK((s + 1 < path.nstages) == (st->v == 0 && s < L),
                      "%s: rank %d stage %d: goes on wrongly", what, r, s);
            }
            vine__levels_path_free(&path);
        }
    }
    free(rank_at);
    free(pos);
}

/*
 * The block order against its definition: a permutation with its inverse in
 * block_pos, every group of every level one interval of it, the groups of a
 * parent in id order, a node's ranks in rank order, and the reordered flag
 * set exactly when it is not the identity.
 */
static void check_block(const vine_levels *m, const char *what)
{
    const int *b = vine__levels_block(m);
    int p = m->p, ident = 1, ok = 1;
    for (int y = 0; y < p; y++) {
        ok &= b[y] >= 0 && b[y] < p && vine__levels_block_pos(m, b[y]) == y;
        ident &= b[y] == y;
    }
    CHECK(ok, "%s: block order is a permutation with its inverse", what);
    CHECK(m->reordered == !ident, "%s: reordered %d, identity %d", what, m->reordered, ident);
    for (int l = 0; l < m->nlevels; l++) {
        int prev_first = -1, prev_parent = -1;
        for (int g = 0; g < m->ngroups[l]; g++) {
            int n, lo = p, hi = -1;
            const int *mem = vine__levels_members(m, l, g, &n);
            for (int i = 0; i < n; i++) {
                int y = vine__levels_block_pos(m, mem[i]);
                lo = y < lo ? y : lo;
                hi = y > hi ? y : hi;
                if (l == 0 && i > 0)
                    ok &= vine__levels_block_pos(m, mem[i - 1]) < y;
            }
            ok &= hi - lo + 1 == n;
            /* Groups of one parent come in id order; a new parent starts a new run. */
            int parent = l + 1 < m->nlevels ? vine__levels_parent(m, l, g) : 0;
            ok &= parent != prev_parent || lo > prev_first;
            prev_first = lo;
            prev_parent = parent;
        }
    }
    CHECK(ok, "%s: every group one interval, in id order, nodes in rank order", what);
}

static void test_maps(void)
{
    static const char *specs[] = {
        "block:4",    "block:2,2,2",    "sizes:1,3,5,7",    "sizes:1,3,5,7/block:2",
        "random:5:4", "random:9:6,3,2", "cyclic:3/block:2", "ids:3,3,1,1,2,0,2,0,1,3,3,2,0,1"};
    static const int ps[] = {1, 2, 5, 9, 14, 16};
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++)
        for (size_t j = 0; j < sizeof ps / sizeof *ps; j++) {
            vine_levels m;
            char what[128];
            snprintf(what, sizeof what, "%s p=%d", specs[i], ps[j]);
            if (strncmp(specs[i], "ids:", 4) == 0 && ps[j] != 14)
                continue;
            if (!parse_ok(specs[i], ps[j], &m)) {
                check_accessors(&m, what);
                check_tree(&m, what);
                check_block(&m, what);
            }
            vine__levels_free(&m);
        }
}

/* When remapping applies: block:4 is in block order already, cyclic:4 is not. */
static void test_remap_applies(const vine_levels *blocked, const vine_levels *uneven)
{
    const vine_algo *bin = vine__algo_find(VINE_COLL_BCAST, "binomial");
    const vine_algo *rd = vine__algo_find(VINE_COLL_ALLREDUCE, "recursive_doubling");
    const vine_algo *hier = vine__algo_find(VINE_COLL_BCAST, "hier");
    const vine_algo *ag = vine__algo_find(VINE_COLL_ALLGATHER, "ring");
    vine_levels cyc;
    if (!bin || !rd || !hier || !ag || parse_ok("cyclic:4", 8, &cyc))
        return;
    vine_args a = {.coll = VINE_COLL_BCAST, .p = 8, .count = 1, .commutative = 1, .remap = 1};
    a.levels = &cyc;
    CHECK(vine__remap_applies(bin, &a), "bcast binomial remapped on cyclic:4");
    CHECK(!vine__remap_applies(hier, &a), "bcast hier is never remapped");
    a.remap = 0;
    CHECK(!vine__remap_applies(bin, &a), "no remap unless asked");
    a.remap = 1;
    a.levels = blocked;
    CHECK(!vine__remap_applies(bin, &a), "block:4 is in block order: nothing to remap");
    a.levels = uneven;
    CHECK(!vine__remap_applies(bin, &a), "sizes:3,5 is in block order: nothing to remap");
    a.levels = &cyc;
    a.coll = VINE_COLL_ALLREDUCE;
    CHECK(vine__remap_applies(rd, &a), "allreduce recursive_doubling remapped on cyclic:4");
    a.commutative = 0;
    CHECK(!vine__remap_applies(rd, &a), "a non-commutative allreduce is not remapped");
    a.coll = VINE_COLL_ALLGATHER;
    a.commutative = 1;
    CHECK(!vine__remap_applies(ag, &a), "allgather places blocks by rank: not remapped");
    vine__levels_free(&cyc);
}

/* The restrictions of the hierarchical algorithms in the registry. */
static void test_admits(void)
{
    const vine_algo *g = vine__algo_find(VINE_COLL_GATHER, "leader");
    const vine_algo *ar = vine__algo_find(VINE_COLL_ALLREDUCE, "hier");
    CHECK(g && ar && vine__algo_find(VINE_COLL_SCATTER, "leader") &&
              vine__algo_find(VINE_COLL_BCAST, "hier"),
          "the hierarchical algorithms are registered");
    if (!g || !ar)
        return;
    vine_levels nodes, flat, uneven;
    int bad = parse_ok("block:4", 8, &nodes);
    bad |= parse_ok("block:1", 8, &flat);
    bad |= parse_ok("sizes:3,5", 8, &uneven);
    if (bad) {
        vine__levels_free(&nodes);
        vine__levels_free(&flat);
        vine__levels_free(&uneven);
        return;
    }
    vine_args a = {.coll = VINE_COLL_GATHER, .p = 8, .count = 1, .commutative = 1};
    CHECK(vine__algo_admits(g, &a) == VINE_ERR_UNSUPPORTED, "gather leader without levels");
    a.levels = &flat;
    CHECK(vine__algo_admits(g, &a) == VINE_ERR_UNSUPPORTED, "gather leader on a flat map");
    a.levels = &nodes;
    CHECK(vine__algo_admits(g, &a) == VINE_OK, "gather leader on block:4");
    a.p = 9;
    CHECK(vine__algo_admits(g, &a) == VINE_ERR_UNSUPPORTED, "gather leader, map of another p");
    a.p = 8;
    a.levels = &uneven;
    CHECK(vine__algo_admits(g, &a) == VINE_OK, "gather leader on sizes:3,5");
    a.coll = VINE_COLL_ALLREDUCE;
    CHECK(vine__algo_admits(ar, &a) == VINE_OK, "allreduce hier on uneven nodes (lanes)");
    a.levels = &nodes;
    CHECK(vine__algo_admits(ar, &a) == VINE_OK, "allreduce hier on block:4");
    a.commutative = 0;
    CHECK(vine__algo_admits(ar, &a) == VINE_ERR_UNSUPPORTED, "allreduce hier, non-commutative");
    test_remap_applies(&nodes, &uneven);
    vine__levels_free(&nodes);
    vine__levels_free(&flat);
    vine__levels_free(&uneven);
}

int main(void)
{
    test_parse_kinds();
    test_parse_random();
    test_parse_errors();
    test_finish();
    test_flat_lanes();
    test_maps();
    test_admits();
    printf("levels: %ld passed, %ld failed\n", checks - failures, failures);
    return failures != 0;
}
