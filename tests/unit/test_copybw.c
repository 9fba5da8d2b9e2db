/*
 * Unit test of vine-bench's copy bandwidth helpers (src/bench/copybw.h, no
 * MPI): the buffers are filled and a copy lands in the destination; a timed
 * copy takes a positive time; GB/s and the busbw fraction on hand-computed
 * values, with NAN wherever a number is not defined; the report line.
 * Timing decides nothing: only that the time is positive.
 * Prints "copybw: N checks, M failed".
 */
#include "bench/copybw.h"
#include "check.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int near(double a, double b)
{
    return fabs(a - b) <= 1e-12 * (fabs(b) > 1 ? fabs(b) : 1);
}

static void test_buffers(void)
{
    vine_bench_copybuf b;
    CHECK(vine__bench_copy_alloc(&b, 0) == -1 && !b.src && !b.dst, "0 bytes accepted");
    /* 3 pages and a bit: not a multiple of anything. */
    size_t n = 3 * 4096 + 17;
    CHECK(vine__bench_copy_alloc(&b, n) == 0 && b.src && b.dst && b.bytes == n, "alloc %zu", n);
    if (!b.src)
        return;
    CHECK(memcmp(b.src, b.dst, n) != 0, "source and destination equal before the copy");
    double t = vine__bench_copy_time(&b);
    CHECK(t > 0 && isfinite(t), "copy time %g", t);
    CHECK(memcmp(b.src, b.dst, n) == 0, "the destination is not the source after the copy");
    memset(b.dst, 0, n);
    vine__bench_copy(&b);
    CHECK(memcmp(b.src, b.dst, n) == 0, "the untimed copy did not copy");
    vine__bench_copy_free(&b);
    CHECK(!b.src && !b.dst && b.bytes == 0, "free leaves the buffers set");
}

static void test_numbers(void)
{
    /* 4 ranks x 64 MiB in 10 ms: 268435456 / 0.01 = 26843545600 B/s = 26.8435456 GB/s. */
    CHECK(near(vine__bench_copy_gbps(4.0 * 67108864, 0.01), 26.8435456), "gbps %g",
          vine__bench_copy_gbps(4.0 * 67108864, 0.01));
    CHECK(near(vine__bench_copy_gbps(1e9, 1), 1), "1e9 B in 1 s");
    CHECK(isnan(vine__bench_copy_gbps(1e9, 0)) && isnan(vine__bench_copy_gbps(0, 1)) &&
              isnan(vine__bench_copy_gbps(1e9, -1)) && isnan(vine__bench_copy_gbps(1e9, NAN)) &&
              isnan(vine__bench_copy_gbps(1e9, INFINITY)),
          "gbps of a bad time or size is a number");
    /* busbw 2.5 GB/s of 40 GB/s: 1/16; above 1 stays (a comparison, not an efficiency). */
    CHECK(near(vine__bench_copy_fraction(2.5, 40), 0.0625), "fraction %g",
          vine__bench_copy_fraction(2.5, 40));
    CHECK(near(vine__bench_copy_fraction(60, 40), 1.5), "fraction above 1");
    CHECK(vine__bench_copy_fraction(0, 40) == 0, "busbw 0: fraction 0");
    CHECK(isnan(vine__bench_copy_fraction(NAN, 40)) && isnan(vine__bench_copy_fraction(-1, 40)) &&
              isnan(vine__bench_copy_fraction(1, NAN)) && isnan(vine__bench_copy_fraction(1, 0)) &&
              isnan(vine__bench_copy_fraction(1, INFINITY)) &&
              isnan(vine__bench_copy_fraction(INFINITY, 40)),
          "fraction of an undefined number is a number");
}

static void test_describe(void)
{
    static const struct {
        int p;
        double all, one;
        size_t bytes;
        const char *want;
    } cases[] = {
        {16, 41.24, 7.76, (size_t)64 << 20,
         "copy bandwidth: all 16 ranks 41.2 GB/s, one rank 7.8 GB/s (64 MiB per rank, memcpy, "
         "best of 5)"},
        {1, 9, 9, 1024,
         "copy bandwidth: all 1 rank 9.0 GB/s, one rank 9.0 GB/s (1 KiB per rank, memcpy, best of "
         "5)"},
        {2, 10, 5, 1000,
         "copy bandwidth: all 2 ranks 10.0 GB/s, one rank 5.0 GB/s (1000 B per rank, memcpy, best "
         "of 5)"},
    };
    char buf[160];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        vine__bench_copy_describe(buf, sizeof buf, cases[i].p, cases[i].all, cases[i].one,
                                  cases[i].bytes, 5);
        CHECK(strcmp(buf, cases[i].want) == 0, "describe '%s', want '%s'", buf, cases[i].want);
    }
}

int main(void)
{
    test_buffers();
    test_numbers();
    test_describe();
    printf("copybw: %ld checks, %ld failed\n", checks, failures);
    return failures != 0;
}
