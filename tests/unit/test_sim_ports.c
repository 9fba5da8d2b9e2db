/*
 * Unit test of the simulator's ports (src/sim/sim.h: ports; issue 23), no
 * MPI: hand-computed times on a ring of 4 and a 2x2 torus with one and two
 * (four) ports per host, messages of one step to different neighbours
 * (different ports, no shared bandwidth) and through one port (serialised),
 * on the sending and the receiving side; the split of a message over two
 * first links; the per-port bytes and the summary; the rule for hosts on
 * one switch; the ports= option and the fugaku preset's six ports.
 * Prints "sim_ports: N checks, M failed".
 */
#include "check.h"
#include "coll/coll.h"
#include "sim/sim.h"
#include "topo/topo.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 1000.0 /* bytes per message */
#define LAT 1e-6 /* every link */

static int near(double x, double want)
{
    return fabs(x - want) <= 1e-12 * (fabs(want) > 1e-300 ? fabs(want) : 1.0) + 1e-300;
}

/* The messages of the current case, all in one round of every rank (step 0). */
static const int (*msgs)[2];
static int nmsgs;

static int table_build(const vine_args *a, vine_sched *s)
{
    for (int i = 0; i < nmsgs; i++) {
        if (msgs[i][0] == a->rank)
            vine__sched_send(s, msgs[i][1], VINE_BUF_RECV, 0, a->count);
        if (msgs[i][1] == a->rank)
            vine__sched_recv(s, msgs[i][0], VINE_BUF_RECV, 0, a->count);
    }
    return vine__sched_finish(s);
}

static const vine_algo table = {VINE_COLL_BCAST, "table",    0, "messages of a table, one step",
                                "test",          table_build};

/* Runs the messages m[0 .. n-1] (N bytes each) on t, rank r on host r; port bytes into pb. */
static int run(const vine_topo *t, int p, const int (*m)[2], int n, vine_sim_result *res,
               double *pb)
{
    int rh[64];
    char err[256] = "";
    for (int r = 0; r < p; r++)
        rh[r] = r;
    msgs = m;
    nmsgs = n;
    vine_args a;
    memset(&a, 0, sizeof a);
    a.coll = VINE_COLL_BCAST;
    a.p = p;
    a.count = (size_t)N;
    a.commutative = 1;
    vine_router *r;
    int rc = vine__router_new(t, &r);
    if (rc == VINE_OK)
        rc = vine__sim_run_ports(r, rh, &table, &a, 1, res, pb, err, sizeof err);
    if (rc != VINE_OK)
        printf("run: %d %s\n", rc, err);
    vine__router_free(r);
    return rc;
}

static int topo(const char *spec, vine_topo *t)
{
    char err[256];
    int rc = vine__topo_parse(spec, t, err, sizeof err);
    CHECK(rc == VINE_OK, "%s: %s", spec, err);
    return rc;
}

/* The time of messages m on spec, rank r on host r; -1 on failure. */
static double time_of(const char *spec, int p, const int (*m)[2], int n)
{
    vine_topo t;
    vine_sim_result res;
    if (topo(spec, &t) != VINE_OK)
        return -1;
    int rc = run(&t, p, m, n, &res, NULL);
    vine__topo_free(&t);
    return rc == VINE_OK ? res.time : -1;
}

/*
 * A ring of 4 (torus:4: host i's router linked to i +- 1), torus links of
 * 10 GB/s, so that the host side decides: three hops of LAT (NIC, torus
 * link, NIC) plus the busiest port's bytes over its bandwidth.
 */
static void test_ring(void)
{
    static const int two_ways[][2] = {{0, 1}, {0, 3}}; /* +x and -x */
    static const int one_way[][2] = {{0, 1}, {0, 1}};  /* +x twice */
    static const int two_in[][2] = {{1, 0}, {3, 0}};   /* into 0 from +x and -x */
    static const int one_in[][2] = {{1, 0}, {1, 0}};
    const char *k1 = "torus:4,bw=10e9,hbw=2e9,lat=1e-6";
    const char *k2 = "torus:4,bw=10e9,hbw=4e9,lat=1e-6,ports=2";      /* 2 ports of 2 GB/s */
    const char *k2split = "torus:4,bw=10e9,hbw=2e9,lat=1e-6,ports=2"; /* 2 ports of 1 GB/s */
    double t;

    /* One port of 2 GB/s: both messages share it, 2N / 2e9. */
    t = time_of(k1, 4, two_ways, 2);
    CHECK(near(t, 3 * LAT + 2 * N / 2e9), "ring k=1 two ways: %.12g", t);
    /* Two ports of 2 GB/s: one message each, N / 2e9. */
    t = time_of(k2, 4, two_ways, 2);
    CHECK(near(t, 3 * LAT + N / 2e9), "ring k=2 two ways: %.12g", t);
    /* The same NIC split in two ports of 1 GB/s: as fast as one port when balanced. */
    t = time_of(k2split, 4, two_ways, 2);
    CHECK(near(t, 3 * LAT + N / 1e9), "ring k=2 split two ways: %.12g", t);

    /* Two messages through one port serialise: 2N / 2e9 with two ports as with one. */
    t = time_of(k1, 4, one_way, 2);
    CHECK(near(t, 3 * LAT + 2 * N / 2e9), "ring k=1 one way: %.12g", t);
    t = time_of(k2, 4, one_way, 2);
    CHECK(near(t, 3 * LAT + 2 * N / 2e9), "ring k=2 one way: %.12g", t);
    t = time_of(k2split, 4, one_way, 2);
    CHECK(near(t, 3 * LAT + 2 * N / 1e9), "ring k=2 split one way: %.12g", t);

    /* The receiving side: host 0 takes the message from 1 on its +x port, from 3 on -x. */
    t = time_of(k1, 4, two_in, 2);
    CHECK(near(t, 3 * LAT + 2 * N / 2e9), "ring k=1 two in: %.12g", t);
    t = time_of(k2, 4, two_in, 2);
    CHECK(near(t, 3 * LAT + N / 2e9), "ring k=2 two in: %.12g", t);
    t = time_of(k2, 4, one_in, 2);
    CHECK(near(t, 3 * LAT + 2 * N / 2e9), "ring k=2 one in: %.12g", t);

    /* Port bytes and the summary. */
    vine_topo tp;
    vine_sim_result res;
    double pb[2 * 4 * 2];
    if (topo(k2, &tp) != VINE_OK)
        return;
    CHECK(run(&tp, 4, two_ways, 2, &res, pb) == VINE_OK, "ring k=2 ports run");
    /* Sent: host 0's +x (port 0) and -x (port 1) N each; received: host 1 on -x, 3 on +x. */
    static const double want_out[8] = {N, N, 0, 0, 0, 0, 0, 0};
    static const double want_in[8] = {0, 0, 0, N, 0, 0, N, 0};
    for (int i = 0; i < 8; i++) {
        CHECK(near(pb[i], want_out[i]), "ring sent port %d: %g", i, pb[i]);
        CHECK(near(pb[8 + i], want_in[i]), "ring received port %d: %g", i, pb[8 + i]);
    }
    CHECK(near(res.max_port_bytes, N) && res.max_port == 0 && res.max_port_in == 0,
          "ring max port %g %d %d", res.max_port_bytes, res.max_port, res.max_port_in);
    CHECK(near(res.mean_port_bytes, 2 * N / 8), "ring mean port %g", res.mean_port_bytes);
    char name[64];
    vine__sim_port_name(&tp, 0, name, sizeof name);
    CHECK(strcmp(name, "+x") == 0, "ring port 0 '%s'", name);
    vine__sim_port_name(&tp, 1, name, sizeof name);
    CHECK(strcmp(name, "-x") == 0, "ring port 1 '%s'", name);
    vine__topo_free(&tp);

    /* One port: the NIC arcs are the ports. */
    if (topo(k1, &tp) != VINE_OK)
        return;
    CHECK(run(&tp, 4, two_ways, 2, &res, pb) == VINE_OK, "ring k=1 ports run");
    CHECK(near(pb[0], 2 * N) && near(pb[4 + 1], N) && near(pb[4 + 3], N) && pb[4] == 0,
          "ring k=1 port bytes %g %g %g", pb[0], pb[5], pb[7]);
    CHECK(near(res.max_port_bytes, 2 * N) && res.max_port == 0 && res.max_port_in == 0,
          "ring k=1 max port %g %d", res.max_port_bytes, res.max_port);
    CHECK(near(res.mean_port_bytes, 2 * N / 4), "ring k=1 mean port %g", res.mean_port_bytes);
    vine__topo_free(&tp);
}

/*
 * A 2x2 torus (host i at (i / 2, i % 2); a dimension of 2 has one link, +x
 * or +y from either end) with four ports of 1 GB/s: host 0 sends to 1 (+y,
 * port 2), 2 (+x, port 0) and 3, whose two minimal paths start on +x and
 * +y: N/2 on each port.  So ports 0 and 2 carry 1.5 N, 1 and 3 nothing.
 */
static void test_torus2x2(void)
{
    static const int m[][2] = {{0, 1}, {0, 2}, {0, 3}};
    vine_topo t;
    vine_sim_result res;
    double pb[2 * 4 * 4];
    if (topo("torus:2x2,bw=10e9,hbw=4e9,lat=1e-6,ports=4", &t) != VINE_OK)
        return;
    CHECK(run(&t, 4, m, 3, &res, pb) == VINE_OK, "2x2 run");
    /* 0 -> 3 crosses two torus links: NIC, 2 links, NIC; its ports hold 1.5 N. */
    CHECK(near(res.time, 4 * LAT + 1.5 * N / 1e9), "2x2 time %.12g", res.time);
    CHECK(near(pb[0], 1.5 * N) && pb[1] == 0 && near(pb[2], 1.5 * N) && pb[3] == 0,
          "2x2 host 0 sent %g %g %g %g", pb[0], pb[1], pb[2], pb[3]);
    /* Received: host 1 from -y (its +y port, 2), host 2 on port 0, host 3 N/2 on each. */
    const double *in = pb + 16;
    CHECK(near(in[4 + 2], N) && near(in[8 + 0], N) && near(in[12 + 0], N / 2) &&
              near(in[12 + 2], N / 2),
          "2x2 received %g %g %g %g", in[6], in[8], in[12], in[14]);
    CHECK(near(res.max_port_bytes, 1.5 * N) && res.max_port == 0, "2x2 max port %g %d",
          res.max_port_bytes, res.max_port);
    CHECK(near(res.mean_port_bytes, 3 * N / 16), "2x2 mean port %g", res.mean_port_bytes);
    char name[64];
    vine__sim_port_name(&t, 2, name, sizeof name);
    CHECK(strcmp(name, "+y") == 0, "2x2 port 2 '%s'", name);
    vine__topo_free(&t);

    /* Two ports: the directions fold modulo 2, +x and +y to port 0, which takes all 3 N. */
    double t2 = time_of("torus:2x2,bw=10e9,hbw=2e9,lat=1e-6,ports=2", 4, m, 3);
    CHECK(near(t2, 4 * LAT + 3 * N / 1e9), "2x2 two ports %.12g", t2);
}

/* Hosts on one switch: no first link, ports by the other end's host index. */
static void test_switch(void)
{
    static const int m[][2] = {{0, 1}, {0, 2}};
    vine_topo t;
    vine__topo_init(&t);
    int s = vine__topo_add_vertex(&t, VINE_V_SWITCH, 0, NULL);
    for (int h = 0; h < 3; h++)
        vine__topo_add_link(&t, vine__topo_add_vertex(&t, VINE_V_HOST, 0, NULL), s, 2e9, LAT,
                            VINE_LVL_HOST);
    vine__topo_finish(&t);
    t.ports = 2;
    vine_sim_result res;
    double pb[2 * 3 * 2];
    CHECK(run(&t, 3, m, 2, &res, pb) == VINE_OK, "switch run");
    /* Host 0 sends to 1 on port 1, to 2 on port 0; both receive on port 0 (0 mod 2). */
    CHECK(near(pb[0], N) && near(pb[1], N) && near(pb[6 + 2], N) && near(pb[6 + 4], N),
          "switch ports %g %g %g %g", pb[0], pb[1], pb[8], pb[10]);
    CHECK(near(res.time, 2 * LAT + N / 1e9), "switch time %.12g", res.time);
    vine__topo_free(&t);
}

/* The ports= option and the fugaku preset. */
static void test_option(void)
{
    vine_topo t;
    char err[256];
    if (topo("fugaku", &t) == VINE_OK) {
        CHECK(t.ports == 6 && t.shape_nd == 3 && t.shape_wrap && t.shape[0] == 16,
              "fugaku: %d ports, shape %d", t.ports, t.shape_nd);
        static const char *want[6] = {"+x", "-x", "+y", "-y", "+z", "-z"};
        for (int j = 0; j < 6; j++) {
            char name[64];
            vine__sim_port_name(&t, j, name, sizeof name);
            CHECK(strcmp(name, want[j]) == 0, "fugaku port %d '%s'", j, name);
        }
        vine__topo_free(&t);
    }
    if (topo("fugaku:ports=1", &t) == VINE_OK) {
        CHECK(t.ports == 1, "fugaku:ports=1: %d", t.ports);
        vine__topo_free(&t);
    }
    if (topo("torus:4x4", &t) == VINE_OK) {
        CHECK(t.ports == 1 && t.shape_nd == 2 && t.shape[1] == 4, "torus default ports");
        vine__topo_free(&t);
    }
    if (topo("hypercube:3,ports=3", &t) == VINE_OK) {
        CHECK(t.ports == 3 && t.shape_nd == 3 && t.shape[2] == 2, "hypercube shape");
        vine__topo_free(&t);
    }
    int rc = vine__topo_parse("dragonfly:a=2,p=1,h=1,ports=2", &t, err, sizeof err);
    CHECK(rc == VINE_ERR_UNSUPPORTED && strstr(err, "torus, mesh or hypercube"), "dragonfly: %s",
          err);
    rc = vine__topo_parse("torus:4,ports=0", &t, err, sizeof err);
    CHECK(rc == VINE_ERR_UNSUPPORTED && strstr(err, "ports"), "ports=0: %s", err);
    rc = vine__topo_parse("torus:4,ports=65", &t, err, sizeof err);
    CHECK(rc == VINE_ERR_UNSUPPORTED && strstr(err, "ports"), "ports=65: %s", err);
}

int main(void)
{
    test_ring();
    test_torus2x2();
    test_switch();
    test_option();
    printf("sim_ports: %ld checks, %ld failed\n", checks, failures);
    return failures > 0;
}
