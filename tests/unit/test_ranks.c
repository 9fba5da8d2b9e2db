/*
 * Unit test of the rank arithmetic in src/coll/ranks.h (no MPI).  Every
 * helper is checked against an independent, deliberately naive computation:
 * powers of two by enumeration, remainders by search, block partitions by
 * dealing out elements one at a time, and the fold by walking the ranks in
 * order as the rule describes.  Prints "ranks: N passed, M failed".
 */
#include "check.h"
#include "coll/ranks.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* Communicator sizes to test: all small ones and some large ones. */
static const int big_sizes[] = {1023,   1024,   1025,          4095,    4096,          100000,
                                131071, 131072, (1 << 30) - 1, 1 << 30, (1 << 30) + 1, INT_MAX};
#define NBIG ((int)(sizeof big_sizes / sizeof big_sizes[0]))

static int size_at(int i)
{
    return i < 2100 ? i + 1 : big_sizes[i - 2100];
}
#define NSIZES (2100 + NBIG)

/* Powers of two up to 2^30, listed by repeated doubling. */
static int naive_is_pow2(long p)
{
    for (long q = 1; q <= (1L << 30); q *= 2)
        if (q == p)
            return 1;
    return 0;
}

static void test_pow2(void)
{
    for (int p = -70; p <= 5000; p++)
        CHECK(vine__is_pow2(p) == naive_is_pow2(p), "is_pow2(%d)", p);
    for (int i = 0; i < NBIG; i++)
        CHECK(vine__is_pow2(big_sizes[i]) == naive_is_pow2(big_sizes[i]), "is_pow2(%d)",
              big_sizes[i]);
    CHECK(!vine__is_pow2(INT_MIN), "is_pow2(INT_MIN)");
}

static void test_floor_pow2_ceil_log2(void)
{
    for (int i = 0; i < NSIZES; i++) {
        int p = size_at(i);
        long best = 0;
        for (long q = 1; q <= p; q *= 2)
            best = q;
        CHECK(vine__floor_pow2(p) == best, "floor_pow2(%d) = %d, want %ld", p, vine__floor_pow2(p),
              best);
        int n = 0;
        for (long q = 1; q < p; q *= 2)
            n++;
        CHECK(vine__ceil_log2(p) == n, "ceil_log2(%d) = %d, want %d", p, vine__ceil_log2(p), n);
    }
}

/* The r in [0, p) with p dividing x - r, found by search. */
static int naive_mod(long x, int p)
{
    for (int r = 0; r < p; r++)
        if ((x - r) % p == 0)
            return r;
    return -1;
}

static void test_mod(void)
{
    for (int p = 1; p <= 64; p++)
        for (long x = -4L * p - 3; x <= 4L * p + 3; x++)
            CHECK(vine__mod(x, p) == naive_mod(x, p), "mod(%ld, %d)", x, p);
    const long far[] = {LONG_MIN + 1, -(1L << 40) - 5, (1L << 40) + 5, LONG_MAX};
    const int ps[] = {1, 2, 3, 7, 1000, 1024, INT_MAX};
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 7; j++) {
            long x = far[i];
            int p = ps[j], m = vine__mod(x, p);
            /* x - m must be a multiple of p: check it without overflow. */
            CHECK(m >= 0 && m < p && ((x % p) - m) % p == 0, "mod(%ld, %d) = %d", x, p, m);
        }
}

/*
 * Deals total elements into p blocks: first floor(total / p) rounds of one
 * element per block, then one more element each to the first blocks until
 * none are left.  Fills len[0..p) and off[0..p].
 */
static void naive_blocks(size_t total, int p, size_t *len, size_t *off)
{
    size_t left = total;
    for (int i = 0; i < p; i++)
        len[i] = 0;
    while (left >= (size_t)p) {
        for (int i = 0; i < p; i++)
            len[i]++;
        left -= (size_t)p;
    }
    for (int i = 0; left > 0; i++, left--)
        len[i]++;
    off[0] = 0;
    for (int i = 0; i < p; i++)
        off[i + 1] = off[i] + len[i];
}

static void check_blocks(size_t total, int p, const size_t *len, const size_t *off)
{
    for (int i = 0; i <= p; i++)
        CHECK(vine__block_off(total, p, i) == off[i], "block_off(%zu, %d, %d)", total, p, i);
    for (int i = 0; i < p; i++)
        CHECK(vine__block_len(total, p, i) == len[i], "block_len(%zu, %d, %d)", total, p, i);
}

static void test_blocks(void)
{
    size_t len[130], off[131];
    for (int p = 1; p <= 130; p++)
        for (size_t total = 0; total <= 400; total++) {
            naive_blocks(total, p, len, off);
            check_blocks(total, p, len, off);
        }
    /* Large totals: dealing one element at a time would take too long, so the
     * reference is the defining property instead: lengths differ by at most
     * one, longer blocks first, offsets are their prefix sums. */
    const size_t totals[] = {(size_t)1 << 33, ((size_t)1 << 40) + 12345, SIZE_MAX / 4};
    for (int t = 0; t < 3; t++)
        for (int p = 1; p <= 130; p += 7) {
            size_t q = totals[t] / (size_t)p, sum = 0;
            for (int i = 0; i < p; i++) {
                size_t l = vine__block_len(totals[t], p, i);
                CHECK(vine__block_off(totals[t], p, i) == sum, "block_off(%zu, %d, %d)", totals[t],
                      p, i);
                CHECK(l == q || l == q + 1, "block_len(%zu, %d, %d) = %zu", totals[t], p, i, l);
                CHECK(i == 0 || l <= vine__block_len(totals[t], p, i - 1),
                      "block_len(%zu, %d, %d) grows", totals[t], p, i);
                sum += l;
            }
            CHECK(sum == totals[t] && vine__block_off(totals[t], p, p) == totals[t],
                  "blocks of %zu over %d sum to %zu", totals[t], p, sum);
        }
}

/*
 * The fold, by walking the ranks in order: while fewer than p - p2 ranks have
 * been folded away, an even rank followed by another rank hands its data up
 * and sits out; every other rank becomes the next participant.
 */
static void naive_fold(int p, int *newrank, int *oldrank)
{
    int p2 = 1;
    while (2 * p2 <= p)
        p2 *= 2;
    int to_fold = p - p2, next = 0;
    for (int r = 0; r < p; r++) {
        if (to_fold > 0 && r % 2 == 0) {
            newrank[r] = -1;
            to_fold--;
        } else {
            newrank[r] = next;
            oldrank[next++] = r;
        }
    }
    if (next != p2)
        printf("FAIL naive_fold(%d): %d participants, want %d\n", p, next, p2);
}

static void test_fold(void)
{
    enum { MAXP = 2100 };
    static int newrank[MAXP], oldrank[MAXP];
    for (int p = 1; p <= MAXP; p++) {
        naive_fold(p, newrank, oldrank);
        int p2 = vine__floor_pow2(p);
        for (int r = 0; r < p; r++)
            CHECK(vine__fold_newrank(p, r) == newrank[r], "fold_newrank(%d, %d) = %d, want %d", p,
                  r, vine__fold_newrank(p, r), newrank[r]);
        for (int v = 0; v < p2; v++)
            CHECK(vine__fold_oldrank(p, v) == oldrank[v], "fold_oldrank(%d, %d) = %d, want %d", p,
                  v, vine__fold_oldrank(p, v), oldrank[v]);
    }
}

int main(void)
{
    test_pow2();
    test_floor_pow2_ceil_log2();
    test_mod();
    test_blocks();
    test_fold();
    printf("ranks: %ld passed, %ld failed\n", checks - failures, failures);
    return failures != 0;
}
