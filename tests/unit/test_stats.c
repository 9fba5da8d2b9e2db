/*
 * Unit test of vine-bench's statistics (src/bench/stats.h, no MPI) on
 * synthetic timings whose results are computed by hand in the comments:
 * the 20% warm-up drop, median of odd and even counts, the nearest-rank
 * 99th percentile, mean, min, max, nccl-tests' algbw and busbw, vine-tune's
 * Mann-Whitney U test and its non-negative least squares.
 * Prints "stats: N checks, M failed".
 */
#include "bench/stats.h"
#include "check.h"
#include "sched/sched.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int near(double a, double b)
{
    return fabs(a - b) <= 1e-12 * (fabs(b) > 1 ? fabs(b) : 1);
}

static void test_drop(void)
{
    /* floor(n / 5) */
    static const int n[] = {0, 1, 4, 5, 9, 10, 11, 99, 100, 101};
    static const int want[] = {0, 0, 0, 1, 1, 2, 2, 19, 20, 20};
    for (size_t i = 0; i < sizeof n / sizeof n[0]; i++)
        CHECK(vine__bench_warmup_drop(n[i]) == want[i], "drop(%d) = %d, want %d", n[i],
              vine__bench_warmup_drop(n[i]), want[i]);
}

static void test_even(void)
{
    /* 10 samples, drop 2 (the slow warm-up 100 and 90): kept 5 3 1 4 2 8 7 6 = 1..8.
     * min 1, max 8, median (4 + 5) / 2 = 4.5, mean 36 / 8 = 4.5,
     * p99: k = ceil(0.99 * 8) = 8, the 8th smallest = 8. */
    double t[] = {100, 90, 5, 3, 1, 4, 2, 8, 7, 6}, copy[10];
    memcpy(copy, t, sizeof t);
    vine_bench_stats s;
    int rc = vine__bench_stats(t, 10, vine__bench_warmup_drop(10), &s);
    CHECK(rc == VINE_OK, "even: rc %d", rc);
    CHECK(s.kept == 8 && s.dropped == 2, "even: kept %d dropped %d", s.kept, s.dropped);
    CHECK(s.min == 1 && s.max == 8, "even: min %g max %g", s.min, s.max);
    CHECK(s.median == 4.5, "even: median %g", s.median);
    CHECK(s.mean == 4.5, "even: mean %g", s.mean);
    CHECK(s.p99 == 8, "even: p99 %g", s.p99);
    CHECK(memcmp(t, copy, sizeof t) == 0, "even: the samples were modified");
}

static void test_odd(void)
{
    /* 11 samples, drop floor(11/5) = 2: kept 9 1 7 3 5 2 8 6 4.5 =
     * {1, 2, 3, 4.5, 5, 6, 7, 8, 9}: median 5 (the 5th), mean 45.5 / 9,
     * p99: k = ceil(8.91) = 9 -> 9. */
    double t[] = {50, 40, 9, 1, 7, 3, 5, 2, 8, 6, 4.5};
    vine_bench_stats s;
    int rc = vine__bench_stats(t, 11, vine__bench_warmup_drop(11), &s);
    CHECK(rc == VINE_OK, "odd: rc %d", rc);
    CHECK(s.kept == 9 && s.dropped == 2, "odd: kept %d dropped %d", s.kept, s.dropped);
    CHECK(s.min == 1 && s.max == 9, "odd: min %g max %g", s.min, s.max);
    CHECK(s.median == 5, "odd: median %g", s.median);
    CHECK(near(s.mean, 45.5 / 9), "odd: mean %.17g", s.mean);
    CHECK(s.p99 == 9, "odd: p99 %g", s.p99);
}

/* 1..n in a scrambled order (i * 7 mod n is a permutation when gcd(7, n) = 1). */
static void ramp(double *t, int n)
{
    for (int i = 0; i < n; i++)
        t[i] = 1 + (i * 7) % n;
}

static void test_percentile(void)
{
    double t[300];
    vine_bench_stats s;
    /* kept 100: k = ceil(99) = 99 -> 99, not the maximum 100; median 50.5, mean 50.5 */
    ramp(t, 100);
    CHECK(vine__bench_stats(t, 100, 0, &s) == VINE_OK, "p99 100");
    CHECK(s.p99 == 99 && s.max == 100, "p99 of 1..100 = %g (max %g)", s.p99, s.max);
    CHECK(s.median == 50.5 && s.mean == 50.5, "1..100: median %g mean %g", s.median, s.mean);
    /* kept 101: k = ceil(99.99) = 100 -> 100 */
    ramp(t, 101);
    CHECK(vine__bench_stats(t, 101, 0, &s) == VINE_OK && s.p99 == 100, "p99 of 1..101 = %g", s.p99);
    CHECK(s.median == 51, "1..101: median %g", s.median);
    /* kept 200: k = ceil(198) = 198 */
    ramp(t, 200);
    CHECK(vine__bench_stats(t, 200, 0, &s) == VINE_OK && s.p99 == 198, "p99 of 1..200 = %g", s.p99);
    /* kept 50: k = ceil(49.5) = 50, the maximum */
    ramp(t, 50);
    CHECK(vine__bench_stats(t, 50, 0, &s) == VINE_OK && s.p99 == 50, "p99 of 1..50 = %g", s.p99);
    /* 250 samples, drop 50 (each 1000): kept 1..200 -> same as above, the drop worked */
    for (int i = 0; i < 50; i++)
        t[i] = 1000;
    ramp(t + 50, 200);
    CHECK(vine__bench_stats(t, 250, vine__bench_warmup_drop(250), &s) == VINE_OK, "250 samples");
    CHECK(s.dropped == 50 && s.kept == 200 && s.max == 200 && s.p99 == 198,
          "250: dropped %d kept %d max %g p99 %g", s.dropped, s.kept, s.max, s.p99);
    /* one sample: everything is that sample */
    double one = 3.25;
    CHECK(vine__bench_stats(&one, 1, vine__bench_warmup_drop(1), &s) == VINE_OK, "one sample");
    CHECK(s.kept == 1 && s.min == 3.25 && s.median == 3.25 && s.mean == 3.25 && s.p99 == 3.25 &&
              s.max == 3.25,
          "one sample: %g %g %g %g %g", s.min, s.median, s.mean, s.p99, s.max);
    /* an explicit drop of 0 keeps the slow first samples */
    double t2[] = {10, 1, 2, 3};
    CHECK(vine__bench_stats(t2, 4, 0, &s) == VINE_OK && s.max == 10 && s.median == 2.5 &&
              s.mean == 4,
          "drop 0: max %g median %g mean %g", s.max, s.median, s.mean);
}

static void test_errors(void)
{
    double t[] = {1, 2, NAN, 4};
    vine_bench_stats s;
    CHECK(vine__bench_stats(t, 2, 2, &s) == VINE_ERR_UNSUPPORTED, "drop == n");
    CHECK(vine__bench_stats(t, 2, -1, &s) == VINE_ERR_UNSUPPORTED, "drop < 0");
    CHECK(vine__bench_stats(t, 0, 0, &s) == VINE_ERR_UNSUPPORTED, "n == 0");
    CHECK(vine__bench_stats(t, 4, 0, &s) == VINE_ERR_UNSUPPORTED, "NAN sample");
    CHECK(vine__bench_stats(t, 4, 3, &s) == VINE_OK && s.min == 4, "NAN sample dropped");
}

static void test_bandwidth(void)
{
    double a, b;
    /* allreduce, 8 ranks, 1 MiB in 1000 us: S = 1048576 B, algbw = 1048576 / 1e6 GB/s,
     * busbw = algbw * 2 * 7 / 8 */
    CHECK(vine__bench_bandwidth(VINE_COLL_ALLREDUCE, 8, 1048576, 1000, &a, &b) == 0, "ar");
    CHECK(near(a, 1.048576) && near(b, 1.048576 * 1.75), "allreduce: %g %g", a, b);
    /* allgather, 4 ranks, 1000 B per rank in 2 us: S = 4000 B -> 2 GB/s, busbw 2 * 3/4 */
    CHECK(vine__bench_bandwidth(VINE_COLL_ALLGATHER, 4, 1000, 2, &a, &b) == 0, "ag");
    CHECK(near(a, 2) && near(b, 1.5), "allgather: %g %g", a, b);
    /* the per-block collectives: S = p * size, factor (p-1)/p */
    vine_coll block[] = {VINE_COLL_ALLTOALL,   VINE_COLL_GATHER,
                         VINE_COLL_SCATTER,    VINE_COLL_REDUCE_SCATTER_BLOCK,
                         VINE_COLL_ALLGATHERV, VINE_COLL_ALLTOALLV,
                         VINE_COLL_ALLTOALLW,  VINE_COLL_GATHERV,
                         VINE_COLL_SCATTERV};
    for (int i = 0; i < (int)(sizeof block / sizeof *block); i++) {
        CHECK(vine__bench_bandwidth(block[i], 4, 1000, 1, &a, &b) == 0 && near(a, 4) && near(b, 3),
              "per-block coll %d: %g %g", (int)block[i], a, b);
        CHECK(vine__bench_op_bytes(block[i], 1000, 4) == 4000, "op bytes %d", (int)block[i]);
    }
    /* reduce_scatter: the size is the whole vector, S = size, factor (p-1)/p */
    CHECK(vine__bench_bandwidth(VINE_COLL_REDUCE_SCATTER, 4, 4000, 1, &a, &b) == 0 && near(a, 4) &&
              near(b, 3),
          "reduce_scatter: %g %g", a, b);
    /* bcast and reduce: factor 1 */
    CHECK(vine__bench_bandwidth(VINE_COLL_BCAST, 16, 5000, 1, &a, &b) == 0 && near(a, 5) &&
              near(b, 5),
          "bcast: %g %g", a, b);
    CHECK(vine__bench_bus_factor(VINE_COLL_REDUCE, 16) == 1, "reduce factor");
    /* scan and exscan: S = size, factor 1, like reduce */
    CHECK(vine__bench_bandwidth(VINE_COLL_SCAN, 16, 5000, 1, &a, &b) == 0 && near(a, 5) &&
              near(b, 5),
          "scan: %g %g", a, b);
    CHECK(vine__bench_op_bytes(VINE_COLL_EXSCAN, 5000, 16) == 5000 &&
              vine__bench_bus_factor(VINE_COLL_EXSCAN, 16) == 1,
          "exscan");
    /* S given (irregular blocks): gatherv, 4 ranks, 13000 B in all in 2 us: 6.5 GB/s, x 3/4 */
    CHECK(vine__bench_bandwidth_of(VINE_COLL_GATHERV, 4, 13000, 2, &a, &b) == 0 && near(a, 6.5) &&
              near(b, 6.5 * 0.75),
          "gatherv, S given: %g %g", a, b);
    a = b = 1;
    CHECK(vine__bench_bandwidth_of(VINE_COLL_GATHERV, 4, -1, 2, &a, &b) == -1 && a == 0 && b == 0,
          "S negative: %g %g", a, b);
    CHECK(vine__bench_bus_factor(VINE_COLL_ALLREDUCE, 1) == 0, "allreduce on 1 rank: factor 0");
    CHECK(vine__bench_bus_factor(VINE_COLL_ALLREDUCE, 2) == 1, "allreduce on 2 ranks: factor 1");
    /* undefined: barrier, a time that is not positive */
    a = b = 1;
    CHECK(vine__bench_bandwidth(VINE_COLL_BARRIER, 4, 0, 1, &a, &b) == -1 && a == 0 && b == 0,
          "barrier");
    a = b = 1;
    CHECK(vine__bench_bandwidth(VINE_COLL_BCAST, 4, 8, 0, &a, &b) == -1 && a == 0 && b == 0,
          "time 0: %g %g", a, b);
    a = b = 1;
    CHECK(vine__bench_bandwidth(VINE_COLL_BCAST, 4, 8, NAN, &a, &b) == -1 && a == 0 && b == 0,
          "time NAN: %g %g", a, b);
    a = b = 1;
    CHECK(vine__bench_bandwidth(VINE_COLL_BCAST, 4, 8, -5, &a, &b) == -1 && a == 0 && b == 0,
          "time -5: %g %g", a, b);
    /* a size of 0 moves nothing in positive time: 0 GB/s */
    CHECK(vine__bench_bandwidth(VINE_COLL_BCAST, 4, 0, 1, &a, &b) == 0 && a == 0, "size 0");
}

static void test_mann_whitney(void)
{
    double u, p;
    /* No ties: x = 1..5 below y = 6..10.  R_x = 15, U = 15 - 15 = 0, mean 12.5,
     * sigma^2 = 25 / 12 * 11 = 22.917, z = (12.5 - 0.5) / 4.7871 = 2.5067,
     * p = erfc(z / sqrt 2) = 0.0121858 (scipy's mannwhitneyu, asymptotic: 0.01219). */
    double a[] = {1, 2, 3, 4, 5}, b[] = {6, 7, 8, 9, 10};
    CHECK(vine__bench_mann_whitney(a, 5, b, 5, &u, &p) == VINE_OK, "mw: rc");
    CHECK(u == 0 && fabs(p - 0.012185780355344818) < 1e-12, "mw: u %g p %.15g", u, p);
    /* Symmetric: U of y is nx ny - U of x = 25, the same p. */
    CHECK(vine__bench_mann_whitney(b, 5, a, 5, &u, &p) == VINE_OK && u == 25 &&
              fabs(p - 0.012185780355344818) < 1e-12,
          "mw swapped: u %g p %g", u, p);
    /* Ties: x = {1, 2, 2, 3}, y = {2, 3, 3, 4, 5}.  Pooled ranks: 1 -> 1, the three 2s
     * -> 3, the three 3s -> 6, 4 -> 8, 5 -> 9; R_x = 1 + 3 + 3 + 6 = 13, U = 13 - 10 = 3,
     * mean 10; ties sum(t^3 - t) = 24 + 24 = 48, sigma^2 = 20 / 12 * (10 - 48 / 72)
     * = 15.556, z = (7 - 0.5) / 3.944 = 1.6481, p = 0.0993422. */
    double c[] = {1, 2, 2, 3}, d[] = {2, 3, 3, 4, 5};
    CHECK(vine__bench_mann_whitney(c, 4, d, 5, &u, &p) == VINE_OK, "mw ties: rc");
    CHECK(u == 3 && fabs(p - 0.09934224785346527) < 1e-12, "mw ties: u %g p %.15g", u, p);
    /* Unequal sizes, one tie across the groups (10): x = 10..17, y = 1..10: R_x = 9.5 +
     * (11 + ... + 17) = 115.5, U = 115.5 - 36 = 79.5, mean 40, ties 6, sigma^2 = 80 / 12
     * * (19 - 6 / 306) = 126.536, z = (39.5 - 0.5) / 11.249 = 3.4670, p = 0.000526242. */
    double e[] = {10, 11, 12, 13, 14, 15, 16, 17}, f[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    CHECK(vine__bench_mann_whitney(e, 8, f, 10, &u, &p) == VINE_OK && u == 79.5 &&
              fabs(p - 0.0005262424287850589) < 1e-12,
          "mw sizes: u %g p %.15g", u, p);
    /* The same samples, and every sample tied: no evidence, p = 1. */
    CHECK(vine__bench_mann_whitney(a, 5, a, 5, &u, &p) == VINE_OK && u == 12.5 && p == 1,
          "mw same: u %g p %g", u, p);
    double g[] = {4, 4, 4}, h[] = {4, 4};
    CHECK(vine__bench_mann_whitney(g, 3, h, 2, NULL, &p) == VINE_OK && p == 1, "mw ties: p %g", p);
    /* One sample each, different: U = 0, sigma^2 = 1 / 12 * 3, z = (0.5 - 0.5) / .. = 0. */
    CHECK(vine__bench_mann_whitney(a, 1, b, 1, &u, &p) == VINE_OK && u == 0 && p == 1,
          "mw 1+1: u %g p %g", u, p);
    double bad[] = {1, NAN};
    CHECK(vine__bench_mann_whitney(a, 0, b, 5, &u, &p) == VINE_ERR_UNSUPPORTED, "mw: nx 0");
    CHECK(vine__bench_mann_whitney(a, 5, b, 0, &u, &p) == VINE_ERR_UNSUPPORTED, "mw: ny 0");
    CHECK(vine__bench_mann_whitney(bad, 2, b, 5, &u, &p) == VINE_ERR_UNSUPPORTED, "mw: NAN");
}

static void test_nnls(void)
{
    double x[VINE_BENCH_NNLS_MAX], r;
    /* An exact fit: b = A (2, 3). */
    double a1[] = {1, 0, 0, 1, 1, 1}, b1[] = {2, 3, 5};
    CHECK(vine__bench_nnls(a1, b1, 3, 2, x, &r) == VINE_OK, "nnls exact: rc");
    CHECK(near(x[0], 2) && near(x[1], 3) && r < 1e-20, "nnls exact: %g %g r %g", x[0], x[1], r);
    /* The bound: b = (1, -1) on the identity: x = (1, 0), residual 1. */
    double a2[] = {1, 0, 0, 1}, b2[] = {1, -1};
    CHECK(vine__bench_nnls(a2, b2, 2, 2, x, &r) == VINE_OK && near(x[0], 1) && x[1] == 0 &&
              near(r, 1),
          "nnls bound: %g %g r %g", x[0], x[1], r);
    /* Least squares with the bound: rows (1, 1), (1, 2), (1, 3), b = (3, 2, 1): the free
     * solution is (4, -1); with x1 >= 0 the best is x = (2, 0), residual 1 + 0 + 1 = 2. */
    double a3[] = {1, 1, 1, 2, 1, 3}, b3[] = {3, 2, 1};
    CHECK(vine__bench_nnls(a3, b3, 3, 2, x, &r) == VINE_OK && near(x[0], 2) && x[1] == 0 &&
              near(r, 2),
          "nnls ls: %g %g r %g", x[0], x[1], r);
    /* Columns 8 orders of magnitude apart, as (steps, bytes, bytes reduced) against
     * (alpha, beta, gamma): b = 1e-6 steps + 1e-10 bytes + 3e-11 reduced, exactly. */
    double a4[5 * 3], b4[5];
    for (int i = 0; i < 5; i++) {
        a4[i * 3] = 2 + i;
        a4[i * 3 + 1] = 1e3 * (1 << (4 * i));
        a4[i * 3 + 2] = i % 2 ? 0 : 5e2 * (1 << (3 * i));
        b4[i] = 1e-6 * a4[i * 3] + 1e-10 * a4[i * 3 + 1] + 3e-11 * a4[i * 3 + 2];
    }
    CHECK(vine__bench_nnls(a4, b4, 5, 3, x, &r) == VINE_OK, "nnls scaled: rc");
    CHECK(fabs(x[0] / 1e-6 - 1) < 1e-9 && fabs(x[1] / 1e-10 - 1) < 1e-9 &&
              fabs(x[2] / 3e-11 - 1) < 1e-9,
          "nnls scaled: %g %g %g", x[0], x[1], x[2]);
    /* A column of zeros stays 0; so does everything when b is negative. */
    double a5[] = {1, 0, 2, 0}, b5[] = {1, 2};
    CHECK(vine__bench_nnls(a5, b5, 2, 2, x, &r) == VINE_OK && near(x[0], 1) && x[1] == 0,
          "nnls zero column: %g %g", x[0], x[1]);
    double a6[] = {1}, b6[] = {-1};
    CHECK(vine__bench_nnls(a6, b6, 1, 1, x, &r) == VINE_OK && x[0] == 0 && near(r, 1),
          "nnls negative: %g r %g", x[0], r);
    /* Bad input. */
    double nan_b[] = {NAN, 1};
    CHECK(vine__bench_nnls(a2, b2, 2, 0, x, &r) == VINE_ERR_UNSUPPORTED, "nnls: n 0");
    CHECK(vine__bench_nnls(a2, b2, 2, VINE_BENCH_NNLS_MAX + 1, x, &r) == VINE_ERR_UNSUPPORTED,
          "nnls: n too large");
    CHECK(vine__bench_nnls(a2, b2, 0, 2, x, &r) == VINE_ERR_UNSUPPORTED, "nnls: m 0");
    CHECK(vine__bench_nnls(a2, nan_b, 2, 2, x, &r) == VINE_ERR_UNSUPPORTED, "nnls: NAN");
}

int main(void)
{
    test_drop();
    test_even();
    test_odd();
    test_percentile();
    test_errors();
    test_bandwidth();
    test_mann_whitney();
    test_nnls();
    printf("stats: %ld checks, %ld failed\n", checks, failures);
    return failures != 0;
}
