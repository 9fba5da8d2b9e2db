/*
 * Unit test of the bandwidth models of the group patterns (src/bench/bwmodel.h,
 * CommBench section 5.2.1, eq. 1 and 2; no MPI): equations 1 and 2 at values
 * computed by hand in the comments, their bounds, the direction factor, the
 * parser of NIC bandwidths, the pattern predictions by hand, and, as an
 * independent reference, every group pattern's predicted bandwidth against a
 * count of the bytes on each NIC of each node in the pattern's matrix
 * (vine_bench_group_pattern).  Bad arguments must be refused with
 * VINE_BENCH_ERR_ARG and leave the outputs alone.
 * Prints "bwmodel: N checks, M failed".
 */
#include "bench/bwmodel.h"
#include "check.h"
#include "vine/bench_matrix.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int near(double a, double b)
{
    return fabs(a - b) <= 1e-12 * (fabs(b) > 1 ? fabs(b) : 1);
}

static void test_packed(void)
{
    /* f * (1 + max(0, k - p) / p) */
    static const struct {
        double f;
        int k, p;
        double want;
    } c[] = {
        {25, 1, 2, 25},      /* k < p: one NIC */
        {25, 2, 2, 25},      /* k = p: one NIC, full */
        {25, 3, 2, 37.5},    /* 25 * (1 + 1/2) */
        {25, 4, 2, 50},      /* two NICs of two */
        {25, 8, 2, 100},     /* 25 * (1 + 6/2): Frontier-like, 8 ranks on 4 NICs */
        {25, 1, 1, 25},      /* one rank per NIC */
        {25, 4, 1, 100},     /* 25 * (1 + 3) */
        {12.5, 6, 3, 25},    /* 12.5 * (1 + 3/3): two NICs of three */
        {25, 5, 4, 31.25},   /* 25 * (1 + 1/4) */
        {10, 1, 100, 10},    /* p far above k */
        {0.5, 7, 3, 7.0 / 6} /* 0.5 * (1 + 4/3) */
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        double bw = -1;
        int rc = vine__bwmodel_packed(c[i].f, c[i].k, c[i].p, &bw);
        CHECK(rc == VINE_BENCH_OK && near(bw, c[i].want),
              "packed(%g, k=%d, p=%d) = %g rc %d, want %g", c[i].f, c[i].k, c[i].p, bw, rc,
              c[i].want);
    }
}

static void test_round_robin(void)
{
    /* f * k / ceil(k / r) */
    static const struct {
        double f;
        int k, r;
        double want;
    } c[] = {
        {25, 1, 8, 25},             /* one rank, one NIC */
        {25, 3, 8, 75},             /* k <= r: k NICs, as printed in the paper */
        {25, 8, 8, 200},            /* all eight NICs */
        {25, 9, 8, 112.5},          /* NIC 0 serves two ranks: 25 * 9 / 2 */
        {25, 12, 8, 150},           /* Aurora-like: 25 * 12 / 2 */
        {25, 16, 8, 200},           /* 25 * 16 / 2 */
        {25, 17, 8, 25.0 * 17 / 3}, /* ceil(17/8) = 3 */
        {25, 3, 2, 37.5},           /* 25 * 3 / 2 */
        {25, 5, 2, 25.0 * 5 / 3},   /* ceil(5/2) = 3 */
        {25, 4, 1, 25},             /* one NIC: f whatever k */
        {10, 6, 3, 30}              /* 10 * 6 / 2 */
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        double bw = -1;
        int rc = vine__bwmodel_round_robin(c[i].f, c[i].k, c[i].r, &bw);
        CHECK(rc == VINE_BENCH_OK && near(bw, c[i].want),
              "round_robin(%g, k=%d, r=%d) = %g rc %d, want %g", c[i].f, c[i].k, c[i].r, bw, rc,
              c[i].want);
    }
}

/* Both equations between one NIC and all the NICs the ranks can reach. */
static void test_bounds(void)
{
    for (int k = 1; k <= 40; k++)
        for (int x = 1; x <= 12; x++) {
            double pk = 0, rr = 0, prev = 0;
            vine__bwmodel_packed(20, k, x, &pk);
            vine__bwmodel_round_robin(20, k, x, &rr);
            /* packed: ceil(k/x) NICs reached; at least one NIC, at most that many */
            int nics = (k + x - 1) / x;
            CHECK(pk >= 20 - 1e-9 && pk <= 20.0 * nics + 1e-9, "packed k=%d p=%d: %g", k, x, pk);
            /* round-robin: min(k, r) NICs; at least one NIC, at most r and at most k */
            CHECK(rr >= 20 - 1e-9 && rr <= 20.0 * x + 1e-9 && rr <= 20.0 * k + 1e-9,
                  "round_robin k=%d r=%d: %g", k, x, rr);
            if (k > 1) {
                vine__bwmodel_packed(20, k - 1, x, &prev);
                CHECK(pk >= prev, "packed not monotone at k=%d p=%d", k, x);
            }
            /* Every multiple of r fills all r NICs evenly. */
            if (k % x == 0)
                CHECK(near(rr, 20.0 * x), "round_robin k=%d r=%d: %g, want %g", k, x, rr, 20.0 * x);
        }
}

static void test_bad_equations(void)
{
    static const double bad_f[] = {0, -1, NAN, INFINITY, -INFINITY};
    double bw = 42;
    for (size_t i = 0; i < sizeof bad_f / sizeof bad_f[0]; i++) {
        CHECK(vine__bwmodel_packed(bad_f[i], 2, 2, &bw) == VINE_BENCH_ERR_ARG, "packed f=%g",
              bad_f[i]);
        CHECK(vine__bwmodel_round_robin(bad_f[i], 2, 2, &bw) == VINE_BENCH_ERR_ARG,
              "round_robin f=%g", bad_f[i]);
    }
    static const int bad_int[] = {0, -1, -1000};
    for (size_t i = 0; i < sizeof bad_int / sizeof bad_int[0]; i++) {
        int v = bad_int[i];
        CHECK(vine__bwmodel_packed(25, v, 2, &bw) == VINE_BENCH_ERR_ARG, "packed k=%d", v);
        CHECK(vine__bwmodel_packed(25, 2, v, &bw) == VINE_BENCH_ERR_ARG, "packed p=%d", v);
        CHECK(vine__bwmodel_round_robin(25, v, 2, &bw) == VINE_BENCH_ERR_ARG, "rr k=%d", v);
        CHECK(vine__bwmodel_round_robin(25, 2, v, &bw) == VINE_BENCH_ERR_ARG, "rr r=%d", v);
    }
    CHECK(bw == 42, "an error wrote the output: %g", bw);
    CHECK(vine__bwmodel_packed(25, 2, 2, NULL) == VINE_BENCH_ERR_ARG, "packed NULL");
    CHECK(vine__bwmodel_round_robin(25, 2, 2, NULL) == VINE_BENCH_ERR_ARG, "rr NULL");
}

static void test_factor(void)
{
    int f = -1;
    CHECK(vine__bwmodel_factor(VINE_BENCH_UNI, 2, &f) == 0 && f == 1, "uni n=2: %d", f);
    CHECK(vine__bwmodel_factor(VINE_BENCH_UNI, 5, &f) == 0 && f == 1, "uni n=5: %d", f);
    CHECK(vine__bwmodel_factor(VINE_BENCH_BI, 2, &f) == 0 && f == 2, "bi n=2: %d", f);
    CHECK(vine__bwmodel_factor(VINE_BENCH_BI, 7, &f) == 0 && f == 2, "bi n=7: %d", f);
    CHECK(vine__bwmodel_factor(VINE_BENCH_OMNI, 2, &f) == 0 && f == 2, "omni n=2: %d", f);
    CHECK(vine__bwmodel_factor(VINE_BENCH_OMNI, 5, &f) == 0 && f == 5, "omni n=5: %d", f);
    f = -1;
    CHECK(vine__bwmodel_factor(VINE_BENCH_UNI, 1, &f) == VINE_BENCH_ERR_ARG, "n=1");
    CHECK(vine__bwmodel_factor(VINE_BENCH_OMNI, 0, &f) == VINE_BENCH_ERR_ARG, "n=0");
    CHECK(vine__bwmodel_factor(3, 2, &f) == VINE_BENCH_ERR_ARG, "dir 3");
    CHECK(vine__bwmodel_factor(-1, 2, &f) == VINE_BENCH_ERR_ARG, "dir -1");
    CHECK(vine__bwmodel_factor(VINE_BENCH_BI, 2, NULL) == VINE_BENCH_ERR_ARG, "NULL");
    CHECK(f == -1, "an error wrote the output: %d", f);
}

static void test_parse(void)
{
    static const struct {
        const char *s;
        double want;
    } good[] = {{"25", 25},       {"25GB/s", 25},     {"200Gb/s", 25},     {"400MB/s", 0.4},
                {"1.6Tb/s", 200}, {"1TB/s", 1000},    {"100Mb/s", 0.0125}, {"2.5e1", 25},
                {".5", 0.5},      {"12.5GB/s", 12.5}, {"1E2Gb/s", 12.5}};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        double v = -1;
        int rc = vine__bwmodel_parse_bw(good[i].s, &v);
        CHECK(rc == VINE_BENCH_OK && near(v, good[i].want), "parse '%s' = %g rc %d, want %g",
              good[i].s, v, rc, good[i].want);
    }
    static const char *const bad[] = {"",        "0",      "0GB/s", "-25",     "+25",  " 25",
                                      "25 GB/s", "25gb/s", "25GB",  "25Gbps",  "GB/s", "inf",
                                      "nan",     "1e400",  "0x19",  "25GB/sx", "25/s", "."};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        double v = -1;
        CHECK(vine__bwmodel_parse_bw(bad[i], &v) == VINE_BENCH_ERR_ARG && v == -1,
              "parse '%s' accepted: %g", bad[i], v);
    }
    double v = -1;
    CHECK(vine__bwmodel_parse_bw(NULL, &v) == VINE_BENCH_ERR_ARG, "parse NULL");
    CHECK(vine__bwmodel_parse_bw("25", NULL) == VINE_BENCH_ERR_ARG, "parse into NULL");
}

/* Hand-computed predictions of whole patterns. */
static void test_group_hand(void)
{
    static const struct {
        int kind, dir, n, g, k, p, r;
        double nic;
        int want_p, want_r; /* the parameters after derivation */
        double packed, rr;
        int packed_far, rr_far;
    } c[] = {
        /* rail uni, g=4, k=2, two NICs: p = ceil(4/2) = 2; packed: both ranks on NIC 0 = 25;
         * round-robin: NICs 0 and 1 = 50 */
        {VINE_BENCH_RAIL, VINE_BENCH_UNI, 2, 4, 2, 0, 2, 25, 2, 2, 25, 50, 0, 0},
        /* the same bi: group 0 sends and receives at that rate, twice the bytes */
        {VINE_BENCH_RAIL, VINE_BENCH_BI, 2, 4, 2, 0, 2, 25, 2, 2, 50, 100, 0, 0},
        /* symmetric omni, n=3, g=4, k=3, p=2 (r = 2): eq.1 = 25 * 1.5 = 37.5,
         * eq.2 = 25 * 3 / 2 = 37.5; three groups at once: 112.5 */
        {VINE_BENCH_SYMMETRIC, VINE_BENCH_OMNI, 3, 4, 3, 2, 0, 25, 2, 2, 112.5, 112.5, 0, 0},
        /* Frontier-like rail uni, g=8, k=8, p=2 (r = 4): 25 * 4 = 100 both */
        {VINE_BENCH_RAIL, VINE_BENCH_UNI, 2, 8, 8, 2, 0, 25, 2, 4, 100, 100, 0, 0},
        /* asymmetric uni, g=3, k=2, r=2 (p = 2): group 0 packed 25, round-robin 50; the
         * receiving node's 3 ranks: packed 25 * 1.5 = 37.5, round-robin 25 * 3 / 2 = 37.5.
         * Times V/25 vs V/37.5 (packed), V/50 vs V/37.5 (round-robin): 25 and 37.5 */
        {VINE_BENCH_ASYMMETRIC, VINE_BENCH_UNI, 2, 3, 2, 0, 2, 25, 2, 2, 25, 37.5, 0, 1},
        /* Aurora-like asymmetric uni, g=12, k=7, r=8 (p = 2): group 0 round-robin 175,
         * receivers 25 * 12 / 2 = 150: 150; packed 25 * 3.5 = 87.5 vs 150: 87.5 */
        {VINE_BENCH_ASYMMETRIC, VINE_BENCH_UNI, 2, 12, 7, 0, 8, 25, 2, 8, 87.5, 150, 0, 1},
        /* asymmetric bi, n=3, g=3, k=2, r=2 (p=2), nic 10: group 0 moves 2V each way at
         * rr 20 (time 0.1 V), the others V at 15 (0.067 V): 2 * 2V / 0.1V = 40;
         * packed 10 (0.2 V) vs 15: 2 * 2 / 0.2 = 20 */
        {VINE_BENCH_ASYMMETRIC, VINE_BENCH_BI, 3, 3, 2, 0, 2, 10, 2, 2, 20, 40, 0, 0},
        /* asymmetric bi, n=2, g=3, k=2, r=2: the other group sets round-robin's time:
         * 2 * 1 / (1/37.5) = 75; packed 2 * 25 = 50 */
        {VINE_BENCH_ASYMMETRIC, VINE_BENCH_BI, 2, 3, 2, 0, 2, 25, 2, 2, 50, 75, 0, 1},
        /* k = 1: one rank, one NIC under either binding */
        {VINE_BENCH_SYMMETRIC, VINE_BENCH_UNI, 2, 4, 1, 1, 4, 25, 1, 4, 25, 25, 0, 0},
        /* rail uni, n=4: group 0 sends 3V at eq(k), the others receive V: eq(k) */
        {VINE_BENCH_RAIL, VINE_BENCH_UNI, 4, 6, 4, 3, 0, 25, 3, 2, 25.0 * 4 / 3, 50, 0, 0},
        /* both given, each binding with its own: p=1 packed 4 * 25; r=3 round-robin 4/2 * 25 */
        {VINE_BENCH_RAIL, VINE_BENCH_UNI, 2, 4, 4, 1, 3, 25, 1, 3, 100, 50, 0, 0},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        vine_bwmodel m;
        char err[128] = "x";
        int rc = vine__bwmodel_group(c[i].nic, c[i].kind, c[i].dir, c[i].n, c[i].g, c[i].k, c[i].p,
                                     c[i].r, &m, err, sizeof err);
        CHECK(rc == VINE_BENCH_OK && err[0] == '\0', "case %zu: rc %d: %s", i, rc, err);
        if (rc)
            continue;
        CHECK(m.p == c[i].want_p && m.r == c[i].want_r, "case %zu: p=%d r=%d, want %d %d", i, m.p,
              m.r, c[i].want_p, c[i].want_r);
        CHECK(near(m.packed, c[i].packed) && near(m.rr, c[i].rr),
              "case %zu: packed %g round-robin %g, want %g %g", i, m.packed, m.rr, c[i].packed,
              c[i].rr);
        CHECK(m.packed_far_limits == c[i].packed_far && m.rr_far_limits == c[i].rr_far,
              "case %zu: far limits %d %d, want %d %d", i, m.packed_far_limits, m.rr_far_limits,
              c[i].packed_far, c[i].rr_far);
        double e1, e2;
        vine__bwmodel_packed(c[i].nic, c[i].k, m.p, &e1);
        vine__bwmodel_round_robin(c[i].nic, c[i].k, m.r, &e2);
        CHECK(near(m.packed_node, e1) && near(m.rr_node, e2) && m.k == c[i].k,
              "case %zu: node rates %g %g, want eq. 1, 2 = %g %g", i, m.packed_node, m.rr_node, e1,
              e2);
        CHECK(m.far == (c[i].kind == VINE_BENCH_ASYMMETRIC ? c[i].g : c[i].k), "case %zu: far %d",
              i, m.far);
    }
    /* Derivations: p = ceil(g / r), r = ceil(g / p). */
    static const int der[][4] = {/* g, p, r, the derived one */
                                 {8, 0, 4, 2}, {12, 0, 8, 2}, {6, 0, 4, 2}, {4, 0, 8, 1},
                                 {6, 4, 0, 2}, {4, 1, 0, 4},  {8, 3, 0, 3}, {5, 9, 0, 1}};
    for (size_t i = 0; i < sizeof der / sizeof der[0]; i++) {
        vine_bwmodel m;
        int rc = vine__bwmodel_group(25, VINE_BENCH_RAIL, VINE_BENCH_UNI, 2, der[i][0], 1,
                                     der[i][1], der[i][2], &m, NULL, 0);
        int got = rc ? -1 : der[i][1] == 0 ? m.p : m.r;
        CHECK(got == der[i][3], "g=%d p=%d r=%d: derived %d, want %d", der[i][0], der[i][1],
              der[i][2], got, der[i][3]);
    }
}

static void test_group_bad(void)
{
    static const struct {
        double nic;
        int kind, dir, n, g, k, p, r;
    } c[] = {
        {0, VINE_BENCH_RAIL, VINE_BENCH_UNI, 2, 4, 2, 2, 2},         /* nic 0 */
        {-3, VINE_BENCH_RAIL, VINE_BENCH_UNI, 2, 4, 2, 2, 2},        /* nic < 0 */
        {NAN, VINE_BENCH_RAIL, VINE_BENCH_UNI, 2, 4, 2, 2, 2},       /* nic NaN */
        {INFINITY, VINE_BENCH_RAIL, VINE_BENCH_UNI, 2, 4, 2, 2, 2},  /* nic inf */
        {25, 3, VINE_BENCH_UNI, 2, 4, 2, 2, 2},                      /* kind */
        {25, -1, VINE_BENCH_UNI, 2, 4, 2, 2, 2},                     /* kind */
        {25, VINE_BENCH_RAIL, 3, 2, 4, 2, 2, 2},                     /* dir */
        {25, VINE_BENCH_ASYMMETRIC, VINE_BENCH_OMNI, 2, 4, 2, 2, 2}, /* asymmetric omni */
        {25, VINE_BENCH_RAIL, VINE_BENCH_UNI, 1, 4, 2, 2, 2},        /* one group */
        {25, VINE_BENCH_RAIL, VINE_BENCH_UNI, 0, 4, 2, 2, 2},        /* no group */
        {25, VINE_BENCH_RAIL, VINE_BENCH_UNI, 2, 0, 1, 2, 2},        /* g 0 */
        {25, VINE_BENCH_RAIL, VINE_BENCH_UNI, 2, 4, 0, 2, 2},        /* k 0 */
        {25, VINE_BENCH_RAIL, VINE_BENCH_UNI, 2, 4, 5, 2, 2},        /* k > g */
        {25, VINE_BENCH_RAIL, VINE_BENCH_UNI, 2, 4, 2, -1, 2},       /* p < 0 */
        {25, VINE_BENCH_RAIL, VINE_BENCH_UNI, 2, 4, 2, 2, -2},       /* r < 0 */
        {25, VINE_BENCH_RAIL, VINE_BENCH_UNI, 2, 4, 2, 0, 0},        /* neither p nor r */
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        vine_bwmodel m;
        memset(&m, 0x7f, sizeof m);
        vine_bwmodel before = m;
        char err[128] = "";
        int rc = vine__bwmodel_group(c[i].nic, c[i].kind, c[i].dir, c[i].n, c[i].g, c[i].k, c[i].p,
                                     c[i].r, &m, err, sizeof err);
        CHECK(rc == VINE_BENCH_ERR_ARG, "bad case %zu accepted (rc %d)", i, rc);
        CHECK(err[0] != '\0', "bad case %zu: no message", i);
        CHECK(memcmp(&m, &before, sizeof m) == 0, "bad case %zu wrote the model", i);
        /* No message buffer: still refused, nothing written. */
        CHECK(vine__bwmodel_group(c[i].nic, c[i].kind, c[i].dir, c[i].n, c[i].g, c[i].k, c[i].p,
                                  c[i].r, &m, NULL, 0) == VINE_BENCH_ERR_ARG,
              "bad case %zu accepted without err", i);
    }
    char err[8] = "";
    CHECK(vine__bwmodel_group(25, VINE_BENCH_RAIL, VINE_BENCH_UNI, 2, 4, 2, 2, 2, NULL, err,
                              sizeof err) == VINE_BENCH_ERR_ARG &&
              strlen(err) < sizeof err,
          "NULL model");
}

/*
 * The reference: the bytes each NIC of each node sends and receives in the
 * pattern's matrix, the NIC of local rank i being i / p (packed) or i % r
 * (round-robin); the pattern takes max load / f and moves all inter-node
 * bytes in that time.
 */
static double simulate(const vine_bench_matrix *m, int g, int round_robin, int x, double f)
{
    int nodes = m->p / g;
    size_t *load = calloc((size_t)nodes * (size_t)g * 2, sizeof *load);
    if (!load)
        return -1;
    double total = 0;
    size_t worst = 0;
    for (size_t i = 0; i < m->count; i++) {
        const vine_bench_msg *msg = &m->msgs[i];
        int ns = msg->sender / g, nr = msg->receiver / g;
        if (ns == nr)
            continue;
        int ls = msg->sender % g, lr = msg->receiver % g;
        int cs = round_robin ? ls % x : ls / x, cr = round_robin ? lr % x : lr / x;
        /* at most g NICs per node are used under either binding */
        size_t *s = &load[((size_t)ns * (size_t)g + (size_t)cs) * 2];
        size_t *r = &load[((size_t)nr * (size_t)g + (size_t)cr) * 2 + 1];
        *s += msg->bytes;
        *r += msg->bytes;
        worst = *s > worst ? *s : worst;
        worst = *r > worst ? *r : worst;
        total += (double)msg->bytes;
    }
    free(load);
    return worst ? total * f / (double)worst : 0;
}

static void test_against_matrices(void)
{
    const double f = 12.5;
    long cases = 0;
    for (int kind = VINE_BENCH_RAIL; kind <= VINE_BENCH_SYMMETRIC; kind++)
        for (int dir = VINE_BENCH_UNI; dir <= VINE_BENCH_OMNI; dir++)
            for (int n = 2; n <= 4; n++)
                for (int g = 1; g <= 6; g++)
                    for (int k = 1; k <= g; k++) {
                        if (kind == VINE_BENCH_ASYMMETRIC && dir == VINE_BENCH_OMNI)
                            continue;
                        vine_bench_matrix mat;
                        if (vine_bench_matrix_init(&mat, n * g) ||
                            vine_bench_group_pattern(&mat, kind, dir, n, g, k, 1000, NULL, 0)) {
                            CHECK(0, "cannot build kind %d dir %d n %d g %d k %d", kind, dir, n, g,
                                  k);
                            vine_bench_matrix_free(&mat);
                            continue;
                        }
                        for (int p = 1; p <= g + 1; p++)
                            for (int r = 1; r <= g + 1; r++) {
                                vine_bwmodel m;
                                int rc =
                                    vine__bwmodel_group(f, kind, dir, n, g, k, p, r, &m, NULL, 0);
                                double sp = simulate(&mat, g, 0, p, f);
                                double sr = simulate(&mat, g, 1, r, f);
                                CHECK(rc == 0 && near(m.packed, sp) && near(m.rr, sr),
                                      "%s %s n=%d g=%d k=%d p=%d r=%d: model %g %g, NIC loads "
                                      "give %g %g",
                                      vine_bench_group_name(kind), vine_bench_dir_name(dir), n, g,
                                      k, p, r, m.packed, m.rr, sp, sr);
                                /* rail and symmetric: factor * eq(k) */
                                if (kind != VINE_BENCH_ASYMMETRIC && rc == 0)
                                    CHECK(near(m.packed, m.factor * m.packed_node) &&
                                              near(m.rr, m.factor * m.rr_node) &&
                                              !m.packed_far_limits && !m.rr_far_limits,
                                          "%s n=%d g=%d k=%d: not factor * eq",
                                          vine_bench_group_name(kind), n, g, k);
                                cases++;
                            }
                        vine_bench_matrix_free(&mat);
                    }
    CHECK(cases > 1000, "only %ld cases against matrices", cases);
}

int main(void)
{
    test_packed();
    test_round_robin();
    test_bounds();
    test_bad_equations();
    test_factor();
    test_parse();
    test_group_hand();
    test_group_bad();
    test_against_matrices();
    printf("bwmodel: %ld checks, %ld failed\n", checks, failures);
    return failures > 0;
}
