/*
 * Unit test of the SimGrid platform writer (src/topo/topo_write_simgrid.c)
 * and of reading its files back (topo_read_simgrid.c with
 * topo_read_simgrid_zone.c), no MPI: for generators, presets and the
 * samples of tests/data/topo, export then read back and compare the graphs
 * field by field (vertices in order with kind, name, group; hosts in order;
 * links in order with ends, bandwidth, latency, level; intra-host bandwidth
 * and latency; the name); then what the writer and the explicit reader
 * refuse, with their messages.
 */
#include "check.h"
#include "topo/topo.h"
#include "topo/topo_read.h"
#include "topo_bfs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tmpdir[256];

static const char *tmp_path(const char *name)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    return path;
}

/* Compares a and b field by field; what names the case in messages. */
static void same_graph(const vine_topo *a, const vine_topo *b, const char *what)
{
    CHECK(strcmp(a->name, b->name) == 0, "%s: name '%s' read back as '%s'", what, a->name, b->name);
    CHECK(a->nvert == b->nvert && a->nhosts == b->nhosts && a->nlinks == b->nlinks &&
              a->ngroups == b->ngroups,
          "%s: %d/%d/%d/%d vertices/hosts/links/groups read back as %d/%d/%d/%d", what, a->nvert,
          a->nhosts, a->nlinks, a->ngroups, b->nvert, b->nhosts, b->nlinks, b->ngroups);
    CHECK(a->node_bw == b->node_bw && a->node_lat == b->node_lat, "%s: node bw/lat differ", what);
    if (a->nvert != b->nvert || a->nhosts != b->nhosts || a->nlinks != b->nlinks)
        return;
    int bad = 0;
    for (int v = 0; v < a->nvert && bad < 5; v++) {
        char ba[32], bb[32];
        const char *na = vine__topo_vname(a, v, ba, sizeof ba);
        const char *nb = vine__topo_vname(b, v, bb, sizeof bb);
        int ok = a->kind[v] == b->kind[v] && a->group[v] == b->group[v] && strcmp(na, nb) == 0 &&
                 a->vert_host[v] == b->vert_host[v];
        bad += !ok;
        CHECK(ok, "%s: vertex %d (%s, kind %d, group %d) read back as (%s, kind %d, group %d)",
              what, v, na, a->kind[v], a->group[v], nb, b->kind[v], b->group[v]);
    }
    for (int h = 0; h < a->nhosts; h++)
        bad += a->host_vert[h] != b->host_vert[h];
    CHECK(bad == 0, "%s: %d vertices or hosts differ", what, bad);
    for (int i = 0; i < a->nlinks && bad < 5; i++) {
        const vine_link *x = &a->links[i], *y = &b->links[i];
        int ok = x->a == y->a && x->b == y->b && x->bw == y->bw && x->lat == y->lat &&
                 x->level == y->level;
        bad += !ok;
        CHECK(ok, "%s: link %d %d-%d bw %.17g lat %.17g level %d read back as %d-%d %.17g %.17g %d",
              what, i, x->a, x->b, x->bw, x->lat, x->level, y->a, y->b, y->bw, y->lat, y->level);
    }
}

/* Exports the topology of spec, reads it back, compares; returns the links written. */
static int round_trip(const char *spec, const char *routing)
{
    char err[1024] = "";
    vine_topo a, b;
    vine__topo_init(&a);
    vine__topo_init(&b);
    int rc = vine__topo_parse(spec, &a, err, sizeof err);
    CHECK(rc == VINE_OK, "%s: %s", spec, err);
    const char *path = tmp_path("export.xml");
    if (rc == VINE_OK) {
        rc = vine__topo_write_simgrid(&a, path, routing, err, sizeof err);
        CHECK(rc == VINE_OK, "%s: write: %s", spec, err);
    }
    if (rc == VINE_OK) {
        rc = vine__topo_read_simgrid(path, &b, err, sizeof err);
        CHECK(rc == VINE_OK, "%s: read back: %s", spec, err);
    }
    if (rc == VINE_OK)
        same_graph(&a, &b, spec);
    int n = a.nlinks;
    vine__topo_free(&a);
    vine__topo_free(&b);
    return n;
}

static int count_in_file(const char *path, const char *needle)
{
    FILE *f = fopen(path, "r");
    char line[4096];
    int n = 0;
    while (f && fgets(line, sizeof line, f))
        n += strstr(line, needle) != NULL;
    if (f)
        fclose(f);
    return n;
}

static void test_round_trips(const char *datadir)
{
    static const char *specs[] = {
        "dragonfly:a=2,p=2,h=1,g=2", /* the 8-host example of docs/sim.md */
        "dragonfly:a=4,p=2,h=2",
        "dragonfly:a=2,p=2,h=2,g=2", /* parallel global links */
        "dragonflyplus:leaves=2,spines=2,p=2,h=2,g=3",
        "fattree:down=2/4,up=1",
        "fattree:down=4/4/4,up=4/2,glevel=1,gbw=10e9",
        "torus:4x4x2",
        "torus:3x3,bw=1.25e9,lat=3.3e-7,nbw=7e10,nlat=1e-7",
        "mesh:4x3",
        "hypercube:4",
        "lumi",
    };
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++)
        round_trip(specs[i], NULL);
    round_trip("dragonfly:a=4,p=2,h=2", "Floyd");
    /* The parallel links: one route for each pair, the others named. */
    round_trip("dragonfly:a=2,p=2,h=2,g=2", NULL);
    int routes = count_in_file(tmp_path("export.xml"), "<route ");
    int par = count_in_file(tmp_path("export.xml"), "vine_parallel");
    CHECK(routes == 12 && par == 2, "dragonfly a=2 p=2 h=2 g=2: %d routes, %d parallel", routes,
          par);
    static const char *files[] = {
        "simgrid-dragonfly.xml", "simgrid-fattree.xml", "simgrid-torus.xml", "edges.txt",
        "slurm-tree.conf",       "ibnet-fattree.txt",   "ibnet-dfplus.txt"};
    static const char *kinds[] = {"simgrid", "simgrid", "simgrid", "edges",
                                  "slurm",   "ibnet",   "ibnet"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char spec[1024];
        snprintf(spec, sizeof spec, "%s:%s/%s", kinds[i], datadir, files[i]);
        CHECK(round_trip(spec, NULL) > 0, "%s: no links", spec);
    }
}

/* Writes a file of the given content; returns its path. */
static const char *put_file(const char *name, const char *content)
{
    const char *path = tmp_path(name);
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(content, f);
        fclose(f);
    }
    return path;
}

static void expect_write_fail(vine_topo *t, const char *path, const char *routing, const char *want)
{
    char err[1024] = "";
    int rc = vine__topo_write_simgrid(t, path, routing, err, sizeof err);
    CHECK(rc == VINE_ERR_UNSUPPORTED && strstr(err, want), "expected \"%s\", got %d \"%s\"", want,
          rc, err);
}

static void test_write_errors(void)
{
    char err[1024];
    vine_topo t;
    vine__topo_init(&t);
    CHECK(vine__topo_parse("torus:3", &t, err, sizeof err) == VINE_OK, "torus:3: %s", err);
    expect_write_fail(&t, "/nonexistent-dir/x.xml", NULL, "/nonexistent-dir/x.xml: cannot write");
    expect_write_fail(&t, tmp_path("x.xml"), "Full", "routing Full: expected Floyd");
    vine__topo_free(&t);

    /* Built by hand: what no generator makes. */
    vine__topo_init(&t);
    int h0 = vine__topo_add_vertex(&t, VINE_V_HOST, 0, "n");
    int s0 = vine__topo_add_vertex(&t, VINE_V_SWITCH, 0, "n");
    vine__topo_add_link(&t, h0, s0, 1e9, 1e-6, VINE_LVL_HOST);
    vine__topo_finish(&t);
    expect_write_fail(&t, tmp_path("x.xml"), NULL, "both named n: SimGrid needs distinct names");
    vine__topo_free(&t);

    vine__topo_init(&t);
    h0 = vine__topo_add_vertex(&t, VINE_V_HOST, 0, NULL);
    s0 = vine__topo_add_vertex(&t, VINE_V_SWITCH, 0, NULL);
    vine__topo_add_link(&t, h0, s0, 1e9, 1e-6, VINE_LVL_HOST);
    vine__topo_add_link(&t, s0, h0, 2e9, 1e-6, VINE_LVL_HOST);
    vine__topo_finish(&t);
    /* Parallel links of one latency, one reversed: written and read back. */
    char rerr[1024] = "";
    const char *path = tmp_path("par.xml");
    CHECK(vine__topo_write_simgrid(&t, path, NULL, err, sizeof err) == VINE_OK, "%s", err);
    vine_topo b;
    vine__topo_init(&b);
    CHECK(vine__topo_read_simgrid(path, &b, rerr, sizeof rerr) == VINE_OK, "%s", rerr);
    same_graph(&t, &b, "reversed parallel links");
    CHECK(count_in_file(path, "bandwidth=\"3000000000Bps\"") == 1, "the sum on the routed link");
    vine__topo_free(&b);
    vine__topo_free(&t);

    vine__topo_init(&t);
    h0 = vine__topo_add_vertex(&t, VINE_V_HOST, 0, NULL);
    s0 = vine__topo_add_vertex(&t, VINE_V_SWITCH, 0, NULL);
    vine__topo_add_link(&t, h0, s0, 1e9, 1e-6, VINE_LVL_HOST);
    vine__topo_add_link(&t, h0, s0, 1e9, 2e-6, VINE_LVL_HOST);
    vine__topo_finish(&t);
    expect_write_fail(&t, tmp_path("x.xml"), NULL, "different latencies");
    vine__topo_free(&t);
}

static void expect_read_fail(const char *body, const char *want)
{
    char content[4096], err[1024] = "";
    snprintf(content, sizeof content,
             "<platform version=\"4.1\"><zone id=\"z\" routing=\"Floyd\">"
             "\n%s\n</zone></platform>\n",
             body);
    const char *path = put_file("bad.xml", content);
    vine_topo t;
    vine__topo_init(&t);
    int rc = vine__topo_read_simgrid(path, &t, err, sizeof err);
    CHECK(rc == VINE_ERR_UNSUPPORTED && strstr(err, want) && strncmp(err, path, strlen(path)) == 0,
          "expected \"%s\", got %d \"%s\"", want, rc, err);
    CHECK(t.nvert == 0, "a failed read leaves a topology");
    vine__topo_free(&t);
}

static void test_read(void)
{
    /* A platform written by hand, without vine's props: groups 0, levels guessed. */
    const char *path =
        put_file("hand.xml",
                 "<?xml version='1.0'?>\n<platform version=\"4.1\">\n"
                 "<zone id=\"z\" routing=\"Floyd\">\n"
                 "<host id=\"a\" speed=\"1Gf\"/><host id=\"b\" speed=\"1Gf\"/><router id=\"r\"/>\n"
                 "<link id=\"x\" bandwidth=\"10Gbps\" latency=\"1us\"/>\n"
                 "<link id=\"y\" bandwidth=\"1GBps\"/><link id=\"z\" bandwidth=\"5GBps\"/>\n"
                 "<route src=\"a\" dst=\"r\"><link_ctn id=\"x\"/></route>\n"
                 "<route src=\"b\" dst=\"r\"><link_ctn id=\"y\" direction=\"DOWN\"/></route>\n"
                 "<route src=\"a\" dst=\"b\"><link_ctn id=\"z\"/></route>\n"
                 "</zone></platform>\n");
    char err[1024] = "";
    vine_topo t;
    vine__topo_init(&t);
    int rc = vine__topo_read_simgrid(path, &t, err, sizeof err);
    CHECK(rc == VINE_OK, "hand.xml: %s", err);
    if (rc == VINE_OK) {
        CHECK(t.nvert == 3 && t.nhosts == 2 && t.nlinks == 3 && t.ngroups == 1, "hand.xml: shape");
        CHECK(t.links[0].a == 0 && t.links[0].b == 2 && t.links[0].bw == 1.25e9 &&
                  t.links[0].lat == 1e-6 && t.links[0].level == VINE_LVL_HOST,
              "hand.xml: link x");
        CHECK(t.links[1].a == 2 && t.links[1].b == 1 && t.links[1].lat == 0,
              "hand.xml: link y (DOWN)");
        CHECK(t.links[2].level == VINE_LVL_LOCAL, "hand.xml: host-host link z is local");
    }
    vine__topo_free(&t);
    const char *ab = "<host id=\"a\" speed=\"1Gf\"/><host id=\"b\" speed=\"1Gf\"/>"
                     "<link id=\"x\" bandwidth=\"1GBps\"/><link id=\"y\" bandwidth=\"1GBps\"/>";
    char body[2048];
    snprintf(body, sizeof body,
             "%s<route src=\"a\" dst=\"b\"><link_ctn id=\"x\"/>"
             "<link_ctn id=\"y\"/></route>",
             ab);
    expect_read_fail(body, "only routes of one link between neighbours are read");
    snprintf(body, sizeof body, "%s<route src=\"a\" dst=\"b\"><link_ctn id=\"x\"/></route>", ab);
    expect_read_fail(body, "link y is in no route");
    snprintf(body, sizeof body, "%s<route src=\"a\" dst=\"c\"><link_ctn id=\"x\"/></route>", ab);
    expect_read_fail(body, "unknown hosts or routers");
    expect_read_fail("<host id=\"a\" speed=\"1Gf\"/><router id=\"a\"/>", "a named twice");
    snprintf(body, sizeof body,
             "%s<route src=\"a\" dst=\"b\"><link_ctn id=\"x\"/></route>"
             "<route src=\"b\" dst=\"a\"><link_ctn id=\"x\"/></route>",
             ab);
    expect_read_fail(body, "link x is in a second route");
    expect_read_fail("<host id=\"a\" speed=\"1Gf\"><prop id=\"vine_group\" value=\"x\"/></host>",
                     "vine_group \"x\": expected an integer");
    expect_read_fail("<host id=\"a\" speed=\"1Gf\"/><host id=\"b\" speed=\"1Gf\"/>"
                     "<link id=\"x\" bandwidth=\"fast\"/>"
                     "<route src=\"a\" dst=\"b\"><link_ctn id=\"x\"/></route>",
                     "bandwidth \"fast\"");
    expect_read_fail("<host id=\"a\" speed=\"1Gf\"/><host id=\"b\" speed=\"1Gf\"/>",
                     "not connected");
}

/*
 * vine sim export --cluster: a fat tree as SimGrid's FAT_TREE and a torus as its TORUS, read
 * back by vine's reader of SimGrid's clusters: the same tree (vertices, links, host
 * distances), the same torus grid (without the torus generator's host links and routers).
 */
static void test_cluster(void)
{
    char err[1024] = "";
    const char *path = tmp_path("cluster.xml");
    vine_topo a, b;
    vine__topo_init(&a);
    vine__topo_init(&b);
    int rc = vine__topo_parse("fattree:down=4/3/2,up=2/3", &a, err, sizeof err);
    rc = rc ? rc : vine__topo_write_simgrid_cluster(&a, path, err, sizeof err);
    CHECK(rc == VINE_OK && count_in_file(path, "topo_parameters=\"3;4,3,2;1,2,3;1,1,1\"") == 1,
          "fat tree as FAT_TREE: %s", err);
    rc = rc ? rc : vine__topo_read_simgrid(path, &b, err, sizeof err);
    CHECK(rc == VINE_OK && a.nhosts == b.nhosts && a.nvert == b.nvert && a.nlinks == b.nlinks,
          "fat tree read back: %d/%d/%d hosts/vertices/links, %d/%d/%d (%s)", a.nhosts, a.nvert,
          a.nlinks, b.nhosts, b.nvert, b.nlinks, err);
    if (rc == VINE_OK)
        CHECK(topo_host_distance_sum(&a) == topo_host_distance_sum(&b),
              "fat tree: distance sums %ld, %ld", topo_host_distance_sum(&a),
              topo_host_distance_sum(&b));
    vine__topo_free(&a);
    vine__topo_free(&b);

    vine__topo_init(&a);
    vine__topo_init(&b);
    rc = vine__topo_parse("torus:5x4x3,bw=2e9,lat=1e-6", &a, err, sizeof err);
    rc = rc ? rc : vine__topo_write_simgrid_cluster(&a, path, err, sizeof err);
    CHECK(rc == VINE_OK && count_in_file(path, "topo_parameters=\"3,4,5\"") == 1 &&
              count_in_file(path, "bw=\"2000000000Bps\"") == 1,
          "torus as TORUS: %s", err);
    rc = rc ? rc : vine__topo_read_simgrid(path, &b, err, sizeof err);
    CHECK(rc == VINE_OK && b.nhosts == 60 && b.nvert == 60 && b.nlinks == 180 && b.shape_nd == 3 &&
              b.shape[0] == 5 && b.shape[1] == 4 && b.shape[2] == 3,
          "torus read back: %d hosts, %d vertices, %d links, grid %dD (%s)", b.nhosts, b.nvert,
          b.nlinks, b.shape_nd, err);
    /* The generator's hosts hang off their routers: two hops more a pair. */
    if (rc == VINE_OK)
        CHECK(topo_host_distance_sum(&a) == topo_host_distance_sum(&b) + 2L * 60 * 59,
              "torus: distance sums %ld, %ld", topo_host_distance_sum(&a),
              topo_host_distance_sum(&b));
    vine__topo_free(&a);
    vine__topo_free(&b);

    /* Refused: a Dragonfly, links of two bandwidths, a mesh. */
    const char *no[][2] = {
        {"dragonfly:a=2,p=2,h=1", "SimGrid has no cluster of this topology"},
        {"fattree:down=4/4,up=2,hbw=50e9", "one bandwidth and latency for every link"},
        {"mesh:3x3", "SimGrid has no cluster of this topology"}};
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++) {
        vine__topo_init(&a);
        err[0] = '\0';
        rc = vine__topo_parse(no[i][0], &a, err, sizeof err);
        rc = rc ? rc : vine__topo_write_simgrid_cluster(&a, path, err, sizeof err);
        CHECK(rc == VINE_ERR_UNSUPPORTED && strstr(err, no[i][1]), "%s --cluster: rc %d, '%s'",
              no[i][0], rc, err);
        vine__topo_free(&a);
    }
}

int main(int argc, char **argv)
{
    const char *datadir = argc > 1 ? argv[1] : "tests/data/topo";
    snprintf(tmpdir, sizeof tmpdir, "/tmp/vine-test-sgw-XXXXXX");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    test_round_trips(datadir);
    test_write_errors();
    test_read();
    test_cluster();
    static const char *names[] = {"export.xml", "x.xml",    "par.xml",
                                  "bad.xml",    "hand.xml", "cluster.xml"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        unlink(tmp_path(names[i]));
    rmdir(tmpdir);
    printf("topo_write_simgrid: %ld checks, %ld failed\n", checks, failures);
    return failures > 0;
}
