/*
 * Unit test of the topology readers (src/topo/topo_read_*.c) and Slurm
 * hostlist expansion (src/topo/hostlist.c), no MPI.
 *
 * Each sample file of tests/data/topo is read and its graph checked against
 * counts worked out by hand from the file (hosts, switches, links per level,
 * groups, names, bandwidths); the SimGrid samples are also checked against
 * SimGrid 3.32 itself: the sum over ordered host pairs of the hop counts of
 * SimGrid's routes (Host::route_to, measured once and written here) equals
 * the sum of the graph's shortest distances, as both route minimally (and
 * SimGrid's link counts, less its loopback, equal the graph's; also checked
 * by hand for other parameters: FAT_TREE 2;4,4;1,2;1,2 and 3;4,4,3;1,2,2;
 * 1,1,2, TORUS 3,5 / 2,2,2 / 6, DRAGONFLY 2,2;2,1;2,1;2 and 3,2;3,2;3,2;2).
 * Malformed inputs must fail with "FILE:LINE: problem"; a deterministic fuzz
 * (random bytes, truncations, line mutations of every sample, fed to every
 * reader) must never crash, and run clean under the sanitizer build.
 * Usage: test_topo_read DATA_DIR.  Prints "topo_read: N checks, M failed".
 */
#include "check.h"
#include "topo/topo.h"
#include "topo/topo_read.h"
#include "topo_bfs.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *data_dir;
static char tmp_dir[256];

typedef int (*reader_fn)(const char *, vine_topo *, char *, size_t);

static const struct {
    const char *name;
    reader_fn fn;
} readers[] = {{"edges", vine__topo_read_edges},
               {"slurm", vine__topo_read_slurm},
               {"ibnet", vine__topo_read_ibnet},
               {"simgrid", vine__topo_read_simgrid}};
#define NREADERS 4

static const char *samples[] = {"edges.txt",         "slurm-tree.conf",       "ibnet-fattree.txt",
                                "ibnet-dfplus.txt",  "simgrid-dragonfly.xml", "simgrid-fattree.xml",
                                "simgrid-torus.xml", "hosts-slurm.txt"};
#define NSAMPLES 8

static uint64_t rng = 0x5eed0f70b0ULL;

static uint64_t next_rand(void)
{
    uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static size_t rand_below(size_t n)
{
    return n ? (size_t)(next_rand() % n) : 0;
}

static char *sample_path(const char *name)
{
    static char buf[1024];
    snprintf(buf, sizeof buf, "%s/%s", data_dir, name);
    return buf;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *b = malloc(cap);
    size_t got;
    while (b && (got = fread(b + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap)
            b = realloc(b, cap *= 2);
    }
    fclose(f);
    *len = n;
    return b;
}

/* Writes len bytes to a temporary file; returns its path (static buffer). */
static const char *write_tmp(const char *name, const char *s, size_t len)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", tmp_dir, name);
    FILE *f = fopen(path, "wb");
    if (!f) {
        printf("cannot write %s\n", path);
        exit(2);
    }
    fwrite(s, 1, len, f);
    fclose(f);
    return path;
}

/* Equal up to rounding (units are scaled by powers of ten). */
static int near(double a, double b)
{
    return a == b || (a - b <= 1e-12 * (a > 0 ? a : -a) && b - a <= 1e-12 * (a > 0 ? a : -a));
}

static int count_level(const vine_topo *t, int lvl)
{
    int n = 0;
    for (int i = 0; i < t->nlinks; i++)
        n += t->links[i].level == lvl;
    return n;
}

static int vert_of(const vine_topo *t, const char *name)
{
    char buf[32];
    for (int v = 0; v < t->nvert; v++)
        if (strcmp(vine__topo_vname(t, v, buf, sizeof buf), name) == 0)
            return v;
    return -1;
}

/* The links joining two named vertices (parallel ones counted). */
static int links_between(const vine_topo *t, const char *a, const char *b, int *idx)
{
    int va = vert_of(t, a), vb = vert_of(t, b), n = 0;
    for (int i = 0; i < t->nlinks; i++)
        if ((t->links[i].a == va && t->links[i].b == vb) ||
            (t->links[i].a == vb && t->links[i].b == va)) {
            if (idx)
                *idx = i;
            n++;
        }
    return n;
}

/* Structural invariants of any topology a reader returns. */
static void check_sane(const vine_topo *t, const char *what)
{
    int ok = t->nhosts > 0 && t->adj_start && t->adj_arc && t->nvert >= t->nhosts;
    for (int i = 0; ok && i < t->nlinks; i++) {
        const vine_link *l = &t->links[i];
        ok = l->a >= 0 && l->b >= 0 && l->a < t->nvert && l->b < t->nvert && l->a != l->b &&
             l->bw > 0 && l->lat >= 0 && l->level > VINE_LVL_NODE && l->level < VINE_LVL_COUNT;
    }
    for (int v = 0; ok && v < t->nvert; v++)
        ok = t->group[v] >= -1 && t->group[v] < t->ngroups &&
             (t->kind[v] == VINE_V_HOST) == (t->vert_host[v] >= 0);
    ok = ok && t->adj_start[t->nvert] == 2 * t->nlinks;
    CHECK(ok, "%s: topology not sane", what);
}

static int read_ok(reader_fn fn, const char *path, vine_topo *t)
{
    char err[512] = "";
    vine__topo_init(t);
    int rc = fn(path, t, err, sizeof err);
    CHECK(rc == VINE_OK, "reading %s: %s", path, err);
    if (rc == VINE_OK)
        check_sane(t, path);
    return rc == VINE_OK;
}

static void test_slurm(void)
{
    vine_topo t;
    if (!read_ok(vine__topo_read_slurm, sample_path("slurm-tree.conf"), &t))
        return;
    int nsw = t.nvert - t.nhosts;
    CHECK(t.nhosts == 18 && nsw == 7, "slurm: %d hosts %d switches", t.nhosts, nsw);
    CHECK(count_level(&t, VINE_LVL_HOST) == 18 && count_level(&t, VINE_LVL_LOCAL) == 4 &&
              count_level(&t, VINE_LVL_GLOBAL) == 2,
          "slurm: links per level %d %d %d", count_level(&t, VINE_LVL_HOST),
          count_level(&t, VINE_LVL_LOCAL), count_level(&t, VINE_LVL_GLOBAL));
    CHECK(t.ngroups == 2, "slurm: %d groups", t.ngroups);
    char b[32];
    /* Hosts in order of first mention: node001..node012, gpu1, gpu2, node013.. */
    CHECK(strcmp(vine__topo_vname(&t, t.host_vert[0], b, sizeof b), "node001") == 0 &&
              strcmp(vine__topo_vname(&t, t.host_vert[12], b, sizeof b), "gpu1") == 0 &&
              strcmp(vine__topo_vname(&t, t.host_vert[17], b, sizeof b), "node016") == 0,
          "slurm: host order");
    CHECK(vine__topo_find_host(&t, "node013") == 14, "slurm: node013 at %d",
          vine__topo_find_host(&t, "node013"));
    CHECK(t.group[vert_of(&t, "node001")] == 0 && t.group[vert_of(&t, "node008")] == 0 &&
              t.group[vert_of(&t, "gpu2")] == 1 && t.group[vert_of(&t, "node016")] == 1,
          "slurm: host groups");
    CHECK(t.group[vert_of(&t, "core")] == -1 && t.group[vert_of(&t, "agg1")] == 1 &&
              t.group[vert_of(&t, "leaf0")] == 0,
          "slurm: switch groups");
    int li = -1;
    CHECK(links_between(&t, "agg0", "core", &li) == 1 && t.links[li].level == VINE_LVL_GLOBAL,
          "slurm: agg0-core global");
    CHECK(links_between(&t, "leaf3", "agg1", &li) == 1 && t.links[li].level == VINE_LVL_LOCAL,
          "slurm: leaf3-agg1 local");
    CHECK(links_between(&t, "gpu1", "leaf2", NULL) == 1, "slurm: gpu1 on leaf2");
    /* Ordered host pairs: on one leaf (4 4 6 4 hosts) 2 links apart, in one pod
     * 4, across pods (8 and 10 hosts) 6. */
    long same_leaf = 4 * 3 + 4 * 3 + 6 * 5 + 4 * 3, same_pod = 2 * (4 * 4 + 6 * 4);
    long across = 2 * 8 * 10;
    CHECK(topo_host_distance_sum(&t) == 2 * same_leaf + 4 * same_pod + 6 * across,
          "slurm: distance sum %ld", topo_host_distance_sum(&t));
    vine__topo_free(&t);

    /* A one-switch cluster: one group. */
    const char *one = "SwitchName=sw Nodes=n[1-3]\n";
    if (read_ok(vine__topo_read_slurm, write_tmp("one.conf", one, strlen(one)), &t)) {
        CHECK(t.nhosts == 3 && t.ngroups == 1 && t.group[0] == 0 && t.nlinks == 3,
              "slurm one switch");
        vine__topo_free(&t);
    }
    /* Two levels: each leaf its own group, leaf-top links global; a node under
     * two leaves is linked to both and takes the first leaf's group. */
    const char *two = "SwitchName=s1 Nodes=a,b\nSwitchName=s2 Nodes=c,b\n"
                      "SwitchName=top Switches=s[1-2]\n";
    if (read_ok(vine__topo_read_slurm, write_tmp("two.conf", two, strlen(two)), &t)) {
        CHECK(t.nhosts == 3 && t.ngroups == 2 && count_level(&t, VINE_LVL_GLOBAL) == 2 &&
                  count_level(&t, VINE_LVL_HOST) == 4 && t.group[vert_of(&t, "b")] == 0,
              "slurm two levels");
        vine__topo_free(&t);
    }
}

static void test_edges(void)
{
    vine_topo t;
    if (!read_ok(vine__topo_read_edges, sample_path("edges.txt"), &t))
        return;
    CHECK(t.nhosts == 4 && t.nvert == 8 && t.nlinks == 8, "edges: %d hosts %d vertices %d links",
          t.nhosts, t.nvert, t.nlinks);
    CHECK(count_level(&t, VINE_LVL_HOST) == 4 && count_level(&t, VINE_LVL_LOCAL) == 2 &&
              count_level(&t, VINE_LVL_GLOBAL) == 2,
          "edges: levels");
    CHECK(t.ngroups == 2 && t.group[vert_of(&t, "a1")] == 0 && t.group[vert_of(&t, "b1")] == 1,
          "edges: groups");
    int li = -1;
    CHECK(links_between(&t, "a1", "sa1", &li) == 1 && t.links[li].bw == 12.5e9 &&
              t.links[li].lat == VINE_TOPO_LAT,
          "edges: bw");
    CHECK(links_between(&t, "b1", "sb1", &li) == 1 && t.links[li].lat == 2e-6 &&
              t.links[li].bw == VINE_TOPO_BW,
          "edges: lat");
    CHECK(links_between(&t, "sa1", "sb0", &li) == 1 && t.links[li].bw == 50e9, "edges: gbw");
    vine__topo_free(&t);
    /* Undeclared hosts and groups: the link levels that follow. */
    const char *g = "host h1\nhost h2\nh1 s1\nh2 s2\ns1 s2\nh1 h2\n";
    if (read_ok(vine__topo_read_edges, write_tmp("g.txt", g, strlen(g)), &t)) {
        CHECK(t.nhosts == 2 && t.ngroups == 0 && count_level(&t, VINE_LVL_HOST) == 2 &&
                  count_level(&t, VINE_LVL_GLOBAL) == 2,
              "edges: no groups");
        vine__topo_free(&t);
    }
}

static void test_ibnet(void)
{
    vine_topo t;
    if (read_ok(vine__topo_read_ibnet, sample_path("ibnet-fattree.txt"), &t)) {
        CHECK(t.nhosts == 4 && t.nvert == 8 && t.nlinks == 10, "ibnet: %d hosts %d vert %d links",
              t.nhosts, t.nvert, t.nlinks);
        char b[32];
        for (int h = 0; h < 4; h++) {
            char want[16];
            snprintf(want, sizeof want, "node%02d", h + 1);
            CHECK(strcmp(vine__topo_vname(&t, t.host_vert[h], b, sizeof b), want) == 0,
                  "ibnet: host %d named %s", h, b);
        }
        CHECK(count_level(&t, VINE_LVL_HOST) == 5 && count_level(&t, VINE_LVL_GLOBAL) == 5 &&
                  count_level(&t, VINE_LVL_LOCAL) == 0,
              "ibnet: levels");
        CHECK(t.ngroups == 2 && t.group[vert_of(&t, "node02")] == 0 &&
                  t.group[vert_of(&t, "node04")] == 1 &&
                  t.group[vert_of(&t, "MF0;spine01:MQM8700/U1")] == -1 &&
                  t.group[vert_of(&t, "MF0;leaf02:MQM8700/U1")] == 1,
              "ibnet: groups");
        int li = -1;
        CHECK(links_between(&t, "node04", "MF0;leaf02:MQM8700/U1", &li) == 2 &&
                  t.links[li].bw == 25e9,
              "ibnet: dual-rail node04");
        CHECK(links_between(&t, "node03", "MF0;leaf02:MQM8700/U1", &li) == 1 &&
                  t.links[li].bw == 12.5e9,
              "ibnet: 2xHDR");
        CHECK(links_between(&t, "MF0;leaf01:MQM8700/U1", "MF0;spine01:MQM8700/U1", NULL) == 2,
              "ibnet: parallel uplinks");
        vine__topo_free(&t);
    }
    if (read_ok(vine__topo_read_ibnet, sample_path("ibnet-dfplus.txt"), &t)) {
        CHECK(t.nhosts == 4 && t.nvert == 12 && t.nlinks == 14, "dfplus: counts");
        CHECK(count_level(&t, VINE_LVL_HOST) == 4 && count_level(&t, VINE_LVL_LOCAL) == 8 &&
                  count_level(&t, VINE_LVL_GLOBAL) == 2,
              "dfplus: levels %d %d %d", count_level(&t, VINE_LVL_HOST),
              count_level(&t, VINE_LVL_LOCAL), count_level(&t, VINE_LVL_GLOBAL));
        CHECK(t.ngroups == 2 && t.group[vert_of(&t, "cn001")] == 0 &&
                  t.group[vert_of(&t, "cn002")] == 0 && t.group[vert_of(&t, "cn003")] == 1 &&
                  t.group[vert_of(&t, "spineB2:MQM8790/U1")] == 1,
              "dfplus: groups");
        int li = -1;
        CHECK(links_between(&t, "spineA2:MQM8790/U1", "spineB2:MQM8790/U1", &li) == 1 &&
                  t.links[li].bw == 12.5e9 && t.links[li].level == VINE_LVL_GLOBAL,
              "dfplus: EDR global link");
        vine__topo_free(&t);
    }
    /* Switches with one description are named by ID. */
    const char *dup = "Switch 8 \"S-01\" # \"sw\" lid 1\n[1] \"H-0a\"[1] # \"x\" lid 2 4xEDR\n"
                      "[2] \"S-02\"[2] # \"sw\" lid 3 4xEDR\n"
                      "Switch 8 \"S-02\" # \"sw\" lid 3\n[2] \"S-01\"[2]\n"
                      "Ca 1 \"H-0a\" # \"hostA mlx5_0\"\n[1](0a) \"S-01\"[1] # lid 2 lmc 0\n";
    if (read_ok(vine__topo_read_ibnet, write_tmp("dup.ib", dup, strlen(dup)), &t)) {
        CHECK(t.nhosts == 1 && vert_of(&t, "S-01") >= 0 && vert_of(&t, "S-02") >= 0 &&
                  vert_of(&t, "hostA") == 0 && t.nlinks == 2,
              "ibnet: names by ID");
        vine__topo_free(&t);
    }
}

static void test_simgrid(void)
{
    vine_topo t;
    if (read_ok(vine__topo_read_simgrid, sample_path("simgrid-dragonfly.xml"), &t)) {
        CHECK(t.nhosts == 18 && t.nvert == 36 && t.nlinks == 48, "dragonfly: counts %d %d %d",
              t.nhosts, t.nvert, t.nlinks);
        CHECK(count_level(&t, VINE_LVL_HOST) == 18 && count_level(&t, VINE_LVL_LOCAL) == 27 &&
                  count_level(&t, VINE_LVL_GLOBAL) == 3,
              "dragonfly: levels");
        CHECK(t.ngroups == 3 && t.group[t.host_vert[5]] == 0 && t.group[t.host_vert[6]] == 1 &&
                  t.group[t.host_vert[17]] == 2,
              "dragonfly: groups");
        char b[32];
        CHECK(strcmp(vine__topo_vname(&t, t.host_vert[7], b, sizeof b), "dfly-7.example.org") == 0,
              "dragonfly: names");
        int li = -1;
        /* green links carry 2 cables: 2 x 125 MB/s; blue: router 1 of group 0
         * to router 0 of group 1 */
        CHECK(links_between(&t, "router-g0-c0-b0", "router-g0-c0-b1", &li) == 1 &&
                  near(t.links[li].bw, 250e6) && near(t.links[li].lat, 50e-6),
              "dragonfly: green");
        CHECK(links_between(&t, "router-g0-c0-b1", "router-g1-c0-b0", &li) == 1 &&
                  t.links[li].level == VINE_LVL_GLOBAL && t.links[li].bw == 125e6,
              "dragonfly: blue");
        CHECK(links_between(&t, "router-g2-c0-b2", "router-g2-c1-b2", &li) == 1 &&
                  t.links[li].level == VINE_LVL_LOCAL,
              "dragonfly: black");
        CHECK(topo_host_distance_sum(&t) == 1458, "dragonfly: distance sum %ld (SimGrid: 1458)",
              topo_host_distance_sum(&t));
        vine__topo_free(&t);
    }
    if (read_ok(vine__topo_read_simgrid, sample_path("simgrid-fattree.xml"), &t)) {
        CHECK(t.nhosts == 8 && t.nvert == 20 && t.nlinks == 24, "fattree: counts");
        CHECK(count_level(&t, VINE_LVL_HOST) == 8 && count_level(&t, VINE_LVL_LOCAL) == 8 &&
                  count_level(&t, VINE_LVL_GLOBAL) == 8,
              "fattree: levels");
        CHECK(t.ngroups == 2 && t.group[t.host_vert[3]] == 0 && t.group[t.host_vert[4]] == 1 &&
                  t.group[vert_of(&t, "switch-l3-0")] == -1,
              "fattree: groups");
        CHECK(topo_host_distance_sum(&t) == 272, "fattree: distance sum %ld (SimGrid: 272)",
              topo_host_distance_sum(&t));
        CHECK(near(t.links[0].bw, 1.25e9) && near(t.links[0].lat, 1e-6), "fattree: bw lat");
        vine__topo_free(&t);
    }
    if (read_ok(vine__topo_read_simgrid, sample_path("simgrid-torus.xml"), &t)) {
        CHECK(t.nhosts == 32 && t.nvert == 32 && t.nlinks == 96, "torus: counts");
        CHECK(count_level(&t, VINE_LVL_GLOBAL) == 96 && t.ngroups == 32, "torus: levels");
        CHECK(topo_host_distance_sum(&t) == 2560, "torus: distance sum %ld (SimGrid: 2560)",
              topo_host_distance_sum(&t));
        CHECK(links_between(&t, "t0", "t16", NULL) == 2 && links_between(&t, "t0", "t3", NULL) == 1,
              "torus: parallel links of the size-2 dimension");
        CHECK(near(t.links[0].bw, 1.25e9) && near(t.links[0].lat, 100e-9), "torus: bw lat");
        /* SimGrid's 4,4,2 (the first dimension fastest) is vine's grid 2x4x4: host 6 is
         * SimGrid's (2,1,0), vine's (0,1,2). */
        int c[VINE_TOPO_MAXDIM] = {0};
        if (t.shape_nd == 3)
            vine__topo_grid_coords(&t, 6, c);
        CHECK(t.shape_nd == 3 && t.shape_wrap && t.shape[0] == 2 && t.shape[1] == 4 &&
                  t.shape[2] == 4 && c[0] == 0 && c[1] == 1 && c[2] == 2,
              "torus: the grid %dD, %dx%dx%d, host 6 at (%d,%d,%d)", t.shape_nd, t.shape[0],
              t.shape[1], t.shape[2], c[0], c[1], c[2]);
        vine__topo_free(&t);
    }
    /* Parallel fat-tree links, unit variants, a non-contiguous radical, FLAT. */
    const char *ft = "<platform version='4.1'><cluster id='c' prefix='n' suffix='' "
                     "radical='0-3,8-15,20-23' bw='1GiBps' lat='0.5ms' topology='FAT_TREE' "
                     "topo_parameters='2;4,4;1,2;1,2'/></platform>";
    if (read_ok(vine__topo_read_simgrid, write_tmp("ft.xml", ft, strlen(ft)), &t)) {
        CHECK(t.nhosts == 16 && t.nvert == 22 && t.nlinks == 32 &&
                  count_level(&t, VINE_LVL_GLOBAL) == 16 && t.ngroups == 4,
              "fattree 2 levels");
        CHECK(links_between(&t, "switch-l1-3", "switch-l2-1", NULL) == 2 &&
                  vert_of(&t, "n23") == 15 && t.links[0].bw == 1073741824.0 &&
                  near(t.links[0].lat, 0.5e-3),
              "fattree 2 levels: parallel links, names, units");
        vine__topo_free(&t);
    }
    const char *flat = "<?xml version='1.0'?><platform version='4.1'><cluster id='f' "
                       "prefix='h' suffix='' radical='1-4' bw='8Gbps' lat='1'/></platform>";
    if (read_ok(vine__topo_read_simgrid, write_tmp("flat.xml", flat, strlen(flat)), &t)) {
        CHECK(t.nhosts == 4 && t.nvert == 5 && t.nlinks == 4 && t.links[0].bw == 1e9 &&
                  t.links[0].lat == 1 && t.ngroups == 1,
              "flat");
        vine__topo_free(&t);
    }
}

/* Reading content must fail with "PATH:LINE: ...want..." (line 0: no line). */
static void expect_fail_n(reader_fn fn, const char *content, size_t len, int line, const char *want)
{
    const char *path = write_tmp("bad.txt", content, len);
    char err[512] = "", prefix[600];
    vine_topo t;
    vine__topo_init(&t);
    int rc = fn(path, &t, err, sizeof err);
    if (line > 0)
        snprintf(prefix, sizeof prefix, "%s:%d: ", path, line);
    else
        snprintf(prefix, sizeof prefix, "%s: ", path);
    CHECK(rc == VINE_ERR_UNSUPPORTED, "expected a failure for [%s], got %d", content, rc);
    CHECK(strncmp(err, prefix, strlen(prefix)) == 0 && strstr(err, want),
          "for [%.60s] expected \"%s...%s\", got \"%s\"", content, prefix, want, err);
    CHECK(t.nvert == 0 && t.nlinks == 0, "failed read leaves a topology");
    vine__topo_free(&t);
}

static void expect_fail(reader_fn fn, const char *content, int line, const char *want)
{
    expect_fail_n(fn, content, strlen(content), line, want);
}

static void test_errors(void)
{
    reader_fn sl = vine__topo_read_slurm, ed = vine__topo_read_edges, ib = vine__topo_read_ibnet,
              sg = vine__topo_read_simgrid;
    expect_fail(sl, "", 0, "no SwitchName");
    expect_fail(sl, "# only a comment\n\n", 0, "no SwitchName");
    expect_fail(sl, "SwitchName=s0 Nodes=n[1-2]\nSwitchName=s0 Nodes=n3\n", 2,
                "switch s0 is already defined on line 1");
    expect_fail(sl, "SwitchName=s0 Nodes=a\n\nSwitchName=s1 Switches=s0,s9\n", 3,
                "unknown switch s9");
    expect_fail(sl, "SwitchName=s0 Switches=s0\n", 1, "lists itself");
    expect_fail(sl, "SwitchName=a Switches=b\nSwitchName=b Switches=c\nSwitchName=c Switches=a\n",
                1, "own ancestor");
    expect_fail(sl, "SwitchName=s0 Nodes=n[1-2\n", 1, "unterminated '['");
    expect_fail(sl, "SwitchName=s0 Nodes=n[3-1]\n", 1, "end below its start");
    expect_fail(sl, "SwitchName=s0 Nodes=n1 Switches=s1\nSwitchName=s1 Nodes=n2\n", 1, "both");
    expect_fail(sl, "SwitchName=s0\n", 1, "neither");
    expect_fail(sl, "SwitchName=s0 Nodes=a\nNodes=n1\n", 2, "without SwitchName");
    expect_fail(sl, "SwitchName=s0 Nodes=n1 Foo=1\n", 1, "unknown key Foo=");
    expect_fail(sl, "BlockName=b1 Nodes=n[1-4]\n", 1, "topology/block");
    expect_fail(sl, "SwitchName=s0 Nodes=n1,n[0-1]\n", 1, "lists node n1 twice");
    expect_fail(sl, "SwitchName=s0 Switches=a,a\nSwitchName=a Nodes=x\n", 1, "twice");
    expect_fail(sl, "SwitchName=s0 Nodes=a\nSwitchName=s1 Nodes=b\n", 0, "not connected");
    expect_fail(sl, "SwitchName=s0 Nodes=a LinkSpeed=fast\n", 1, "LinkSpeed=fast");
    expect_fail(sl, "SwitchName=s0 Nodes=\n", 1, "no value");
    expect_fail(sl, "SwitchName=\"s0 Nodes=a\n", 1, "unterminated quote");
    expect_fail(sl, "SwitchName s0 Nodes=a\n", 1, "expected Key=Value");
    expect_fail(sl, "SwitchName=s0 SwitchName=s1 Nodes=a\n", 1, "given twice");

    expect_fail(ed, "", 0, "no links");
    expect_fail(ed, "a b\nc c\n", 2, "self-link");
    expect_fail(ed, "host a\nhost a\na b\n", 2, "already declared on line 1");
    expect_fail(ed, "host a\nswitch a\na b\n", 2, "already declared on line 1");
    expect_fail(ed, "a b bw=-1\n", 1, "bw=-1");
    expect_fail(ed, "a b bw=1e999\n", 1, "bw=1e999");
    expect_fail(ed, "a b lat=x\n", 1, "lat=x");
    expect_fail(ed, "a b level=core\n", 1, "level=core");
    expect_fail(ed, "a b c\n", 1, "unexpected \"c\"");
    expect_fail(ed, "a b foo=1\n", 1, "unexpected \"foo=1\"");
    expect_fail(ed, "host\n", 1, "expected a name");
    expect_fail(ed, "host a grp=1\na b\n", 1, "unexpected");
    expect_fail(ed, "host a group=-1\na b\n", 1, "group=-1");
    expect_fail(ed, "a\n", 1, "two names");
    expect_fail(ed, "a bw=1\n", 1, "two names");
    expect_fail(ed, "host h1\nhost h2\nh1 s1\nh2 s2\n", 0, "not connected");
    expect_fail(ed, "s1 s2\n", 0, "no hosts");

    const char *sw = "Switch 8 \"S-01\" # \"sw1\" lid 1\n";
    char buf[1024];
    expect_fail(ib, "", 0, "no Switch or Ca");
    expect_fail(ib, "hello world\n", 1, "unrecognised line");
    expect_fail(ib, "[1] \"S-01\"[1]\n", 1, "before any node");
    snprintf(buf, sizeof buf, "%s[1] \"S-99\"[1]\n", sw);
    expect_fail(ib, buf, 2, "peer \"S-99\" is not defined");
    snprintf(buf, sizeof buf, "%s[9] \"H-1\"[1]\nCa 1 \"H-1\" # \"h\"\n", sw);
    expect_fail(ib, buf, 2, "port 9 outside 1..8");
    snprintf(buf, sizeof buf, "%s[1] \"H-1\"[2]\nCa 1 \"H-1\" # \"h\"\n", sw);
    expect_fail(ib, buf, 2, "port 2 outside 1..1");
    snprintf(buf, sizeof buf, "%s\n%s", sw, sw);
    expect_fail(ib, buf, 3, "already defined on line 1");
    snprintf(buf, sizeof buf, "%s[1] \"H-1\"[1]\n[1] \"H-2\"[1]\nCa 1 \"H-1\"\nCa 1 \"H-2\"\n", sw);
    expect_fail(ib, buf, 3, "port 1 of \"S-01\" is listed twice");
    snprintf(buf, sizeof buf,
             "%s[1] \"H-1\"[1]\nCa 1 \"H-1\" # \"h1\"\n[1](1) \"S-01\"[1]\n[1] \"S-01\"[1]\n", sw);
    expect_fail(ib, buf, 5, "port 1 of \"H-1\" is listed twice");
    snprintf(buf, sizeof buf, "%s[1] \"H-1\"[1]\nCa 1 \"H-1\" # \"h1\"\n[1](1) \"S-01\"[2]\n", sw);
    expect_fail(ib, buf, 2, "but that port leads to");
    snprintf(buf, sizeof buf, "%s[1] \"S-01\"[2]\n", sw);
    expect_fail(ib, buf, 2, "self-link");
    expect_fail(ib, "Switch x \"S-01\"\n", 1, "port count");
    expect_fail(ib, "Switch 8 S-01\n", 1, "quoted node ID");
    snprintf(buf, sizeof buf, "%s[1 \"H-1\"[1]\n", sw);
    expect_fail(ib, buf, 2, "[PORT]");
    snprintf(buf, sizeof buf, "%s[1] \"H-1\" [1]\n", sw);
    expect_fail(ib, buf, 2, "[PEER-PORT]");
    snprintf(buf, sizeof buf, "%s[1] \"S-02\"[1]\nSwitch 8 \"S-02\"\n[1] \"S-01\"[1]\n", sw);
    expect_fail(ib, buf, 0, "no hosts");

    const char *h = "<platform version='4.1'>";
    expect_fail(sg, "", 0, "no <platform>");
    expect_fail(sg, "<?xml version='1.0'?>\n<!-- x -->\n", 0, "no <platform>");
    expect_fail(sg, "<root/>", 1, "root element <root>");
    expect_fail(sg, "<platform>\n<zone>\n", 2, "ends inside <zone> (opened on line 2)");
    expect_fail(sg, "<platform>\n<zone>\n</platform>", 3, "</platform> closes <zone>");
    expect_fail(sg, "<platform/>\n<platform/>", 2, "second root");
    expect_fail(sg, "<platform>\n<!-- never closed\n", 2, "unterminated comment");
    expect_fail(sg, "<platform/>", 0, "no <cluster>");
    snprintf(buf, sizeof buf,
             "%s\n<cluster radical='0-1' bw='1Bps' lat='0'/>\n<cluster radical='0' bw='1Bps' "
             "lat='0'/></platform>",
             h);
    expect_fail(sg, buf, 3, "second <cluster> (the first is on line 2)");
    snprintf(buf, sizeof buf, "%s<cluster radical='0-1' bw='1Bps' bw='2Bps' lat='0'/></platform>",
             h);
    expect_fail(sg, buf, 1, "attribute bw given twice");
    snprintf(buf, sizeof buf, "%s<cluster radical='0-1' bw='1Bps'lat='0'/></platform>", h);
    expect_fail(sg, buf, 1, "malformed attribute");
    snprintf(buf, sizeof buf, "%s<cluster radical='0-1' bw=1Bps lat='0'/></platform>", h);
    expect_fail(sg, buf, 1, "without quotes");
    snprintf(buf, sizeof buf, "%s<cluster radical='0-1' bw='1Bps' lat='0' id='&foo;'/></platform>",
             h);
    expect_fail(sg, buf, 1, "entity");
    snprintf(buf, sizeof buf, "%s\n<cluster radical='0-1' bw='1Bps'/></platform>", h);
    expect_fail(sg, buf, 2, "lat=");
    snprintf(buf, sizeof buf, "%s\n<cluster radical='0-1' bw='10Gbits' lat='0'/></platform>", h);
    expect_fail(sg, buf, 2, "bw=\"10Gbits\"");
    snprintf(buf, sizeof buf, "%s\n<cluster radical='0-1' bw='1Bps' lat='3parsecs'/></platform>",
             h);
    expect_fail(sg, buf, 2, "lat=");
    snprintf(buf, sizeof buf, "%s\n<cluster bw='1Bps' lat='0'/></platform>", h);
    expect_fail(sg, buf, 2, "without radical");
    snprintf(buf, sizeof buf, "%s\n<cluster radical='0-3,2' bw='1Bps' lat='0'/></platform>", h);
    expect_fail(sg, buf, 2, "radical has 2 twice");
    snprintf(buf, sizeof buf, "%s\n<cluster radical='0-,2' bw='1Bps' lat='0'/></platform>", h);
    expect_fail(sg, buf, 2, "radical=");
    snprintf(buf, sizeof buf,
             "%s\n<cluster radical='0-3' bw='1Bps' lat='0' topology='HYPERCUBE'/></platform>", h);
    expect_fail(sg, buf, 2, "topology=\"HYPERCUBE\"");
    snprintf(buf, sizeof buf,
             "%s\n<cluster radical='0-3' bw='1Bps' lat='0' topology='TORUS' "
             "topo_parameters='2,x'/></platform>",
             h);
    expect_fail(sg, buf, 2, "TORUS topo_parameters");
    snprintf(buf, sizeof buf,
             "%s\n<cluster radical='0-3' bw='1Bps' lat='0' topology='TORUS' "
             "topo_parameters='2,3'/></platform>",
             h);
    expect_fail(sg, buf, 2, "radical gives 4 hosts, the TORUS topology has 6");
    snprintf(buf, sizeof buf,
             "%s\n<cluster radical='0-7' bw='1Bps' lat='0' topology='FAT_TREE' "
             "topo_parameters='2;4,2;1,2;1'/></platform>",
             h);
    expect_fail(sg, buf, 2, "FAT_TREE topo_parameters");
    snprintf(buf, sizeof buf,
             "%s\n<cluster radical='0-15' bw='1Bps' lat='0' topology='DRAGONFLY' "
             "topo_parameters='4,1;1,1;2,1;2'/></platform>",
             h);
    expect_fail(sg, buf, 2, "4 groups need at least 4 routers");
    snprintf(buf, sizeof buf,
             "%s\n<cluster radical='0-15' bw='1Bps' lat='0' topology='DRAGONFLY' "
             "topo_parameters='4,1;1,1;2,1'/></platform>",
             h);
    expect_fail(sg, buf, 2, "DRAGONFLY topo_parameters");
    snprintf(buf, sizeof buf,
             "%s\n<cluster radical='0-99999999' bw='1Bps' lat='0' topology='TORUS' "
             "topo_parameters='1000000,1000000,1000000'/></platform>",
             h);
    expect_fail(sg, buf, 2, "too many hosts");
    snprintf(buf, sizeof buf,
             "%s\n<cluster radical='0-999' bw='1Bps' lat='0' topology='TORUS' "
             "topo_parameters='1000000,1000000,1000000'/></platform>",
             h);
    expect_fail(sg, buf, 2, "too large");

    /* Every reader: missing file, NUL bytes, an overlong line. */
    for (int r = 0; r < NREADERS; r++) {
        char err[512] = "";
        vine_topo t;
        vine__topo_init(&t);
        char missing[600];
        snprintf(missing, sizeof missing, "%s/no-such-file", tmp_dir);
        CHECK(readers[r].fn(missing, &t, err, sizeof err) == VINE_ERR_UNSUPPORTED &&
                  strstr(err, "cannot open"),
              "%s: missing file: %s", readers[r].name, err);
        expect_fail_n(readers[r].fn, "a b\nc\0d\n", 8, 2, "NUL byte");
        size_t n = (1u << 20) + 10;
        char *big = malloc(n + 8);
        memcpy(big, "x y\n", 4);
        memset(big + 4, 'a', n);
        big[n + 4] = '\0';
        expect_fail(readers[r].fn, big, 2, "line longer than");
        free(big);
    }
}

/* Reads a mutated input with every reader: no crash, sane or a message. */
static long fuzz_ok, fuzz_fail;

static void fuzz_one(const char *s, size_t len)
{
    const char *path = write_tmp("fuzz.txt", s, len);
    for (int r = 0; r < NREADERS; r++) {
        char err[512];
        err[0] = '\0';
        vine_topo t;
        vine__topo_init(&t);
        int rc = readers[r].fn(path, &t, err, sizeof err);
        if (rc == VINE_OK) {
            check_sane(&t, "fuzz");
            fuzz_ok++;
        } else {
            CHECK(rc == VINE_ERR_UNSUPPORTED && strncmp(err, path, strlen(path)) == 0 &&
                      strlen(err) > strlen(path) + 2,
                  "%s: fuzz failure %d without a message naming the file: %s", readers[r].name, rc,
                  err);
            fuzz_fail++;
        }
        vine__topo_free(&t);
    }
}

/* One random edit of a text: line-level or byte-level. */
static size_t mutate(char *s, size_t len, size_t cap)
{
    size_t a = rand_below(len + 1), b = rand_below(len + 1);
    if (a > b) {
        size_t x = a;
        a = b;
        b = x;
    }
    /* extend [a, b) to whole lines for the line operations */
    size_t la = a, lb = b;
    while (la > 0 && s[la - 1] != '\n')
        la--;
    while (lb < len && s[lb] != '\n')
        lb++;
    if (lb < len)
        lb++;
    switch (rand_below(9)) {
    case 0: /* delete lines */
        memmove(s + la, s + lb, len - lb);
        return len - (lb - la);
    case 1: /* duplicate lines */
        if (len + (lb - la) > cap)
            return len;
        memmove(s + lb + (lb - la), s + lb, len - lb);
        memcpy(s + lb, s + la, lb - la);
        return len + (lb - la);
    case 2: /* a random byte */
        if (len)
            s[rand_below(len)] = (char)rand_below(256);
        return len;
    case 3: /* a random printable character */
        if (len)
            s[rand_below(len)] = (char)(32 + rand_below(95));
        return len;
    case 4: { /* a digit changed: counts, ports, ids */
        for (int tries = 0; tries < 50 && len; tries++) {
            size_t i = rand_below(len);
            if (s[i] >= '0' && s[i] <= '9') {
                s[i] = (char)('0' + rand_below(10));
                break;
            }
        }
        return len;
    }
    case 5: /* a syntax character inserted */
        if (len + 1 <= cap) {
            static const char syn[] = "[]-,=\"'<>/#;:() \t\n0x";
            memmove(s + a + 1, s + a, len - a);
            s[a] = syn[rand_below(sizeof syn - 1)];
            return len + 1;
        }
        return len;
    case 6: { /* cut a line short */
        size_t e = a;
        while (e < len && s[e] != '\n')
            e++;
        memmove(s + a, s + e, len - e);
        return len - (e - a);
    }
    case 7: { /* move a line elsewhere */
        size_t n = lb - la, to = rand_below(len - n + 1);
        char *tmp = malloc(n + 1);
        memcpy(tmp, s + la, n);
        memmove(s + la, s + lb, len - lb);
        memmove(s + to + n, s + to, len - n - to);
        memcpy(s + to, tmp, n);
        free(tmp);
        return len;
    }
    default: /* truncate */
        return a;
    }
}

static void test_fuzz(void)
{
    /* Pure noise. */
    static const char alpha[] = "\n\t [],=\"<>/-#x0123456789abcSwitchNodeCa";
    for (int i = 0; i < 120; i++) {
        size_t n = rand_below(600);
        char *b = malloc(n + 1);
        int text = (int)(i & 1);
        for (size_t k = 0; k < n; k++)
            b[k] = text ? alpha[rand_below(sizeof alpha - 1)] : (char)rand_below(256);
        fuzz_one(b, n);
        free(b);
    }
    for (int f = 0; f < NSAMPLES; f++) {
        size_t len;
        char *orig = slurp(sample_path(samples[f]), &len);
        CHECK(orig != NULL, "cannot read sample %s", samples[f]);
        if (!orig)
            continue;
        size_t cap = 2 * len + 64;
        char *s = malloc(cap);
        /* Every truncation point of short files, a sample of the others. */
        for (int i = 0; i < 40; i++)
            fuzz_one(orig, rand_below(len + 1));
        for (int i = 0; i < 60; i++) {
            memcpy(s, orig, len);
            size_t n = len;
            int edits = 1 + (int)rand_below(3);
            for (int e = 0; e < edits; e++)
                n = mutate(s, n, cap);
            fuzz_one(s, n);
        }
        free(s);
        free(orig);
    }
    printf("fuzz: %ld reads accepted, %ld refused with a message\n", fuzz_ok, fuzz_fail);
    CHECK(fuzz_ok > 0 && fuzz_fail > 0, "fuzz did not exercise both outcomes");
}

static void expect_hostlist(const char *expr, const char *want)
{
    char **names, err[256] = "";
    int n;
    int rc = vine__hostlist_expand(expr, &names, &n, err, sizeof err);
    CHECK(rc == VINE_OK, "hostlist %s: %s", expr, err);
    if (rc != VINE_OK)
        return;
    char got[4096] = "";
    for (int i = 0; i < n; i++) {
        if (i)
            strncat(got, " ", sizeof got - strlen(got) - 1);
        strncat(got, names[i], sizeof got - strlen(got) - 1);
    }
    CHECK(strcmp(got, want) == 0, "hostlist %s: got [%s], want [%s]", expr, got, want);
    vine__hostlist_free(names, n);
}

static void expect_hostlist_error(const char *expr, const char *want)
{
    char **names = (char **)1, err[256] = "";
    int n = -1;
    int rc = vine__hostlist_expand(expr, &names, &n, err, sizeof err);
    CHECK(rc == VINE_ERR_UNSUPPORTED && names == NULL && n == 0 && strstr(err, want),
          "hostlist %s: rc %d err \"%s\", want \"%s\"", expr, rc, err, want);
}

static void test_hostlist(void)
{
    expect_hostlist("node[001-004,010],gpu7", "node001 node002 node003 node004 node010 gpu7");
    expect_hostlist("rack[1-2]n[01-02]", "rack1n01 rack1n02 rack2n01 rack2n02");
    expect_hostlist("n[8-10]", "n8 n9 n10");
    expect_hostlist("n[08-10]", "n08 n09 n10");
    expect_hostlist("n[098-101]", "n098 n099 n100 n101");
    expect_hostlist("n[0-1]", "n0 n1");
    expect_hostlist("x[7]-ib", "x7-ib");
    expect_hostlist("a,b c\td", "a b c d");
    expect_hostlist("  lone  ", "lone");
    expect_hostlist("[1-3]", "1 2 3");
    expect_hostlist("a[1-2]b[3]c[5-6]", "a1b3c5 a1b3c6 a2b3c5 a2b3c6");
    expect_hostlist("n[1,1]", "n1 n1"); /* duplicates kept: callers decide */
    expect_hostlist("n[999999999999999998-999999999999999999]",
                    "n999999999999999998 n999999999999999999");
    /* Expanded counts, and the zero padding of every name. */
    char **names, err[256];
    int n;
    if (vine__hostlist_expand("c[0000-4095]", &names, &n, err, sizeof err) == VINE_OK) {
        int ok = n == 4096;
        for (int i = 0; ok && i < n; i++) {
            char want[16];
            snprintf(want, sizeof want, "c%04d", i);
            ok = strcmp(names[i], want) == 0;
        }
        CHECK(ok, "c[0000-4095]");
        vine__hostlist_free(names, n);
    }
    expect_hostlist_error("", "empty");
    expect_hostlist_error("   ", "empty");
    expect_hostlist_error("a,,b", "empty name");
    expect_hostlist_error("a,", "empty name");
    expect_hostlist_error(",a", "empty name");
    expect_hostlist_error("n[1-2", "unterminated '['");
    expect_hostlist_error("n[", "unterminated '['");
    expect_hostlist_error("n1-2]", "']' without '['");
    expect_hostlist_error("n[[1]]", "expected a number");
    expect_hostlist_error("n[]", "expected a number");
    expect_hostlist_error("n[a-b]", "expected a number");
    expect_hostlist_error("n[1-]", "after '-'");
    expect_hostlist_error("n[5-3]", "end below its start");
    expect_hostlist_error("n[1-2,]", "expected a number");
    expect_hostlist_error("n[1 2]", "unexpected character");
    expect_hostlist_error("n[1-2]x[1-3", "unterminated");
    expect_hostlist_error("n[0-99999999]", "too many names");
    expect_hostlist_error("a[0-9999]b[0-9999]", "too many names");
    /* The limit, 2^20 names, in one bracket and across items. */
    expect_hostlist_error("n[0-1048576]", "too many names");
    expect_hostlist_error("a[0-1023]b[0-1023],c", "too many names");
    expect_hostlist_error("n[1234567890123456789]", "number too long");
    expect_hostlist_error(NULL, "no expression");
    /* Noise never crashes the expander. */
    for (int i = 0; i < 3000; i++) {
        char s[40];
        size_t len = rand_below(sizeof s);
        for (size_t k = 0; k < len; k++)
            s[k] = "[]-,0123456789ab \t"[rand_below(18)];
        s[len] = '\0';
        int rc = vine__hostlist_expand(s, &names, &n, err, sizeof err);
        CHECK(rc == VINE_OK || (rc == VINE_ERR_UNSUPPORTED && strstr(err, "hostlist")),
              "hostlist noise %s", s);
        if (rc == VINE_OK)
            vine__hostlist_free(names, n);
    }
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        printf("usage: test_topo_read DATA_DIR\n");
        return 2;
    }
    data_dir = argv[1];
    const char *tmp = getenv("TMPDIR");
    snprintf(tmp_dir, sizeof tmp_dir, "%s/vine_topo_read_XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(tmp_dir)) {
        printf("cannot create a temporary directory\n");
        return 2;
    }
    test_hostlist();
    test_slurm();
    test_edges();
    test_ibnet();
    test_simgrid();
    test_errors();
    test_fuzz();
    const char *names[] = {"bad.txt", "fuzz.txt", "one.conf", "two.conf",
                           "g.txt",   "dup.ib",   "ft.xml",   "flat.xml"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char p[600];
        snprintf(p, sizeof p, "%s/%s", tmp_dir, names[i]);
        remove(p);
    }
    rmdir(tmp_dir);
    printf("topo_read: %ld checks, %ld failed\n", checks, failures);
    return failures ? 1 : 0;
}
