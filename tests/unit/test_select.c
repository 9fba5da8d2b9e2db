/*
 * Unit test of the auto selector (no MPI).  Over a grid of collectives,
 * communicator sizes, payloads around every cutoff and both kinds of op, the
 * selector's choice must be admitted by the algorithm's restrictions and must
 * equal the decision table of docs/selection.md, written out again here from
 * the paper's rules.  Spot checks pin the cutoffs to the paper's numbers.
 */
#include "coll/coll.h"
#include "coll/ranks.h"
#include "select/select.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures, checks;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        checks++;                                                                                  \
        if (!(cond)) {                                                                             \
            failures++;                                                                            \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                                            \
            printf(__VA_ARGS__);                                                                   \
            printf("\n");                                                                          \
        }                                                                                          \
    } while (0)

/* The decision table, restated: what the selector must pick for n payload bytes. */
static const char *expected(vine_coll c, int p, size_t n, int comm)
{
    int pow2 = vine__is_pow2(p);
    switch (c) {
    case VINE_COLL_BCAST:
        if (n < 12 * 1024 || p < 8)
            return "binomial";
        return n < 512 * 1024 && pow2 ? "scatter_allgather_rd" : "bine_large";
    case VINE_COLL_REDUCE:
        return !comm || n <= 2048 || (p == 2 && n < 1024 * 1024) ? "binomial" : "rabenseifner";
    case VINE_COLL_ALLREDUCE:
        if (!comm || n <= 2048)
            return "recursive_doubling";
        if (!pow2 && p <= 11)
            return "ring";
        if (!pow2 && p > 32 && n >= 16 * 1024 &&
            (double)vine__select_delta_expo_max(p) < log2((double)n) / 2 - 2.5)
            return "binary_blocks";
        return "rabenseifner";
    case VINE_COLL_REDUCE_SCATTER:
    case VINE_COLL_REDUCE_SCATTER_BLOCK:
        if (!comm)
            return "recursive_doubling";
        return n < 512 * 1024 ? "recursive_halving" : "pairwise";
    case VINE_COLL_ALLGATHER:
        if (pow2 && n < 512 * 1024)
            return "recursive_doubling";
        return !pow2 && n < 80 * 1024 ? "bruck" : "ring";
    case VINE_COLL_ALLTOALL: /* n: one block */
        if (n <= 256 && p >= 8)
            return "bruck";
        return n <= 32 * 1024 ? "linear" : "pairwise";
    case VINE_COLL_GATHER:
    case VINE_COLL_SCATTER:
        return "binomial";
    case VINE_COLL_BARRIER:
        return "dissemination";
    default:
        return NULL;
    }
}

/* Runs the selector for (c, p, count elements of type_size bytes, comm). */
static const vine_algo *choose(vine_coll c, int p, size_t count, size_t type_size, int comm)
{
    vine_args a = {.coll = c, .p = p, .rank = p - 1, .count = count, .commutative = comm};
    return vine__select_auto(&a, type_size);
}

/* The element count whose payload is (about) n bytes for collective c. */
static size_t count_for(vine_coll c, int p, size_t n, size_t type_size)
{
    size_t per = type_size;
    if (c == VINE_COLL_ALLGATHER || c == VINE_COLL_REDUCE_SCATTER ||
        c == VINE_COLL_REDUCE_SCATTER_BLOCK)
        per *= (size_t)p;
    return n / per;
}

static void grid_case(vine_coll c, int p, size_t count, size_t type_size, int comm)
{
    vine_args a = {.coll = c, .p = p, .rank = 0, .count = count, .commutative = comm};
    size_t n = vine__select_bytes(&a, type_size);
    const vine_algo *got = choose(c, p, count, type_size, comm);
    const char *want = expected(c, p, n, comm);
    CHECK(got != NULL, "%s p=%d: no algorithm", vine__coll_name(c), p);
    if (!got)
        return;
    CHECK(vine__algo_admits(got, &a) == VINE_OK, "%s p=%d n=%zu comm=%d: %s not admitted",
          vine__coll_name(c), p, n, comm, got->name);
    CHECK(strcmp(got->name, want) == 0, "%s p=%d n=%zu comm=%d: got %s, want %s",
          vine__coll_name(c), p, n, comm, got->name, want);
}

/* Payloads on both sides of every cutoff, and some far from all of them. */
static const size_t sizes[] = {0,      1,      8,      2047,    2048,    2049,    12287,   12288,
                               16383,  16384,  16385,  65536,   81919,   81920,   81921,   262144,
                               524287, 524288, 524289, 1048575, 1048576, 8388608, 67108864};

static void test_grid(void)
{
    int ps[] = {1,   2,   3,   4,    5,    7,    8,    9,    11,    12,    13,  16,
                17,  31,  32,  33,   48,   63,   64,   65,   96,    100,   127, 128,
                129, 255, 256, 1000, 1023, 1024, 1025, 4095, 65536, 100000};
    size_t tsizes[] = {1, 4, 8, 24};
    /* The v collectives need tables (their own tests cover them). */
    for (int c = 0; c < VINE_COLL_ALLGATHERV; c++)
        for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++)
            for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
                for (size_t t = 0; t < sizeof tsizes / sizeof tsizes[0]; t++)
                    for (int comm = 0; comm < 2; comm++)
                        grid_case((vine_coll)c, ps[i],
                                  count_for((vine_coll)c, ps[i], sizes[s], tsizes[t]) + (s % 2),
                                  tsizes[t], comm);
}

static const char *name_of(vine_coll c, int p, size_t count, size_t ts, int comm)
{
    const vine_algo *a = choose(c, p, count, ts, comm);
    return a ? a->name : "(null)";
}

#define EXPECT_NAME(want, c, p, count, ts, comm)                                                   \
    do {                                                                                           \
        const char *got_ = name_of(c, p, count, ts, comm);                                         \
        CHECK(strcmp(got_, want) == 0, "%s p=%d count=%zu: got %s, want %s", vine__coll_name(c),   \
              p, (size_t)(count), got_, want);                                                     \
    } while (0)

/* The paper's numbers, checked at the exact cutoffs. */
static void test_spots(void)
{
    EXPECT_NAME("binomial", VINE_COLL_BCAST, 64, 12287, 1, 1);
    EXPECT_NAME("scatter_allgather_rd", VINE_COLL_BCAST, 64, 12288, 1, 1);
    EXPECT_NAME("binomial", VINE_COLL_BCAST, 7, 1 << 24, 1, 1);
    EXPECT_NAME("bine_large", VINE_COLL_BCAST, 12, 12288, 1, 1);
    EXPECT_NAME("bine_large", VINE_COLL_BCAST, 64, 524288, 1, 1);
    EXPECT_NAME("binomial", VINE_COLL_REDUCE, 64, 256, 8, 1);
    EXPECT_NAME("rabenseifner", VINE_COLL_REDUCE, 64, 257, 8, 1);
    EXPECT_NAME("binomial", VINE_COLL_REDUCE, 64, 1 << 20, 8, 0);
    EXPECT_NAME("recursive_doubling", VINE_COLL_ALLREDUCE, 64, 256, 8, 1);
    EXPECT_NAME("rabenseifner", VINE_COLL_ALLREDUCE, 64, 257, 8, 1);
    EXPECT_NAME("recursive_doubling", VINE_COLL_ALLREDUCE, 64, 1 << 20, 8, 0);
    EXPECT_NAME("ring", VINE_COLL_ALLREDUCE, 7, 4096, 8, 1);
    /* p = 100 = 64 + 32 + 4: delta_expo_max 3, so binary blocks needs n > 2^11 bytes. */
    EXPECT_NAME("binary_blocks", VINE_COLL_ALLREDUCE, 100, 2048, 8, 1);
    /* p = 65 = 64 + 1: delta_expo_max 6, so binary blocks needs n > 2^17 bytes. */
    EXPECT_NAME("rabenseifner", VINE_COLL_ALLREDUCE, 65, 16384, 8, 1);
    EXPECT_NAME("binary_blocks", VINE_COLL_ALLREDUCE, 65, 16385, 8, 1);
    EXPECT_NAME("recursive_halving", VINE_COLL_REDUCE_SCATTER_BLOCK, 8, 65535, 1, 1);
    EXPECT_NAME("pairwise", VINE_COLL_REDUCE_SCATTER_BLOCK, 8, 65536, 1, 1);
    EXPECT_NAME("recursive_doubling", VINE_COLL_REDUCE_SCATTER, 8, 1, 1, 0);
    EXPECT_NAME("recursive_doubling", VINE_COLL_ALLGATHER, 8, 65535, 1, 1);
    EXPECT_NAME("ring", VINE_COLL_ALLGATHER, 8, 65536, 1, 1);
    EXPECT_NAME("bruck", VINE_COLL_ALLGATHER, 10, 8191, 1, 1);
    EXPECT_NAME("ring", VINE_COLL_ALLGATHER, 10, 8192, 1, 1);
    EXPECT_NAME("recursive_doubling", VINE_COLL_ALLGATHER, 1, 0, 1, 1);
    EXPECT_NAME("bruck", VINE_COLL_ALLTOALL, 8, 256, 1, 1);
    EXPECT_NAME("linear", VINE_COLL_ALLTOALL, 7, 256, 1, 1);
    EXPECT_NAME("linear", VINE_COLL_ALLTOALL, 8, 257, 1, 1);
    EXPECT_NAME("linear", VINE_COLL_ALLTOALL, 8, 32768, 1, 1);
    EXPECT_NAME("pairwise", VINE_COLL_ALLTOALL, 8, 32769, 1, 1);
}

/* reduce_scatter with uneven counts: the payload is the whole vector, displs[p]. */
static void test_displs(void)
{
    size_t counts[4] = {0, 100000, 0, 31073}, displs[5] = {0};
    for (int i = 0; i < 4; i++)
        displs[i + 1] = displs[i] + counts[i];
    vine_args a = {.coll = VINE_COLL_REDUCE_SCATTER,
                   .p = 4,
                   .count = 7,
                   .counts = counts,
                   .displs = displs,
                   .commutative = 1};
    CHECK(vine__select_bytes(&a, 4) == 131073 * 4, "bytes %zu", vine__select_bytes(&a, 4));
    CHECK(strcmp(vine__select_auto(&a, 4)->name, "pairwise") == 0, "uneven counts");
    CHECK(strcmp(vine__select_auto(&a, 3)->name, "recursive_halving") == 0, "uneven counts");
}

/*
 * allgatherv: where allgather's rule takes the ring (all blocks together at
 * least 512 KiB on 16 ranks), a largest block above twice the mean block
 * (both halved and rounded down) moves it to bine_block; below that, and
 * below the ring's range, nothing moves.
 */
static void test_allgatherv_skew(void)
{
    size_t rc[16];
    vine_args a = {.coll = VINE_COLL_ALLGATHERV, .p = 16, .rcounts = rc};
    for (int i = 0; i < 16; i++)
        rc[i] = 32768;
    CHECK(strcmp(vine__select_auto(&a, 1)->name, "ring") == 0, "uniform, 512 KiB");
    rc[3] = 70216; /* mean 35108.5: the largest block not above twice */
    CHECK(strcmp(vine__select_auto(&a, 1)->name, "ring") == 0, "twice the mean");
    rc[3] = 70220; /* mean 35108.75: 70220 / 2 = 35110 above it */
    CHECK(strcmp(vine__select_auto(&a, 1)->name, "bine_block") == 0, "above twice the mean");
    for (int i = 0; i < 16; i++)
        rc[i] = i == 0 ? 16000 : 100; /* 17500 bytes: recursive doubling's range */
    CHECK(strcmp(vine__select_auto(&a, 1)->name, "recursive_doubling") == 0, "small, skewed");
}

static void test_helpers(void)
{
    CHECK(vine__select_delta_expo_max(1) == 0, "dem(1)");
    CHECK(vine__select_delta_expo_max(64) == 0, "dem(64)");
    CHECK(vine__select_delta_expo_max(13) == 2, "dem(13)");
    CHECK(vine__select_delta_expo_max(100) == 3, "dem(100)");
    CHECK(vine__select_delta_expo_max(65) == 6, "dem(65)");
    for (int c = 0; c < VINE_COLL_COUNT; c++) {
        const vine_algo *d = vine__select_default((vine_coll)c);
        CHECK(d && d->flags == 0, "default of %s must have no restrictions",
              vine__coll_name((vine_coll)c));
    }
    vine_args bad = {.coll = VINE_COLL_COUNT, .p = 4};
    CHECK(vine__select_auto(&bad, 4) == NULL, "unknown collective");
    bad.shm_count = 1024; /* the shm ranges are indexed by collective too */
    CHECK(vine__select_auto(&bad, 4) == NULL, "unknown collective on a node segment");
}

/*
 * On a node segment (shm_count > 0) the rules hand the call to shm inside the
 * ranges of vine__select_shm and keep their own choice outside them; without
 * a segment shm is never chosen.
 */
static void test_shm(void)
{
    for (int c = 0; c < VINE_COLL_COUNT; c++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
            for (int seg = 0; seg < 2; seg++) {
                int p = 16;
                vine_coll coll = (vine_coll)c;
                size_t count = count_for(coll, p, sizes[i], 4);
                vine_args a = {.coll = coll,
                               .p = p,
                               .rank = 3,
                               .count = count,
                               .commutative = 1,
                               .shm_count = seg ? 1024 : 0};
                size_t n = vine__select_bytes(&a, 4);
                int in = 0;
                const vine_select_shm_range *rg = vine__select_shm_ranges(coll, p);
                for (int k = 0; k < VINE_SELECT_SHM_RANGES; k++)
                    in |= n >= rg[k].min && n <= rg[k].max;
                const vine_algo *got = vine__select_auto(&a, 4);
                int is_shm = got && strcmp(got->name, "shm") == 0;
                CHECK(is_shm == (seg && in), "%s n=%zu shm_count=%zu: got %s",
                      vine__coll_name(coll), n, a.shm_count, got ? got->name : "none");
                if (!is_shm && got) {
                    a.shm_count = 0;
                    CHECK(vine__select_auto(&a, 4) == got, "%s n=%zu: not the rules' choice",
                          vine__coll_name(coll), n);
                }
            }
    /* On 2 ranks the table measured on 2: bcast shm up to 4 KiB and from 2 MiB, the rules'
     * choice between; allreduce shm up to 32 KiB (16 ranks: at every size). */
    static const struct {
        vine_coll coll;
        size_t bytes;
        int shm;
    } pair[] = {{VINE_COLL_BCAST, 4096, 1},      {VINE_COLL_BCAST, 8192, 0},
                {VINE_COLL_BCAST, 1 << 20, 0},   {VINE_COLL_BCAST, 2 << 20, 1},
                {VINE_COLL_ALLREDUCE, 32768, 1}, {VINE_COLL_ALLREDUCE, 65536, 0},
                {VINE_COLL_ALLTOALL, 8192, 1},   {VINE_COLL_ALLTOALL, 16384, 0},
                {VINE_COLL_SCATTER, 65536, 0},   {VINE_COLL_SCATTER, 262144, 1}};
    for (size_t i = 0; i < sizeof pair / sizeof pair[0]; i++)
        for (int p = 2; p <= 16; p += 14) {
            vine_args a = {.coll = pair[i].coll,
                           .p = p,
                           .count = pair[i].bytes,
                           .commutative = 1,
                           .shm_count = 1024};
            const vine_algo *got = vine__select_auto(&a, 1);
            int want = p == 2 ? pair[i].shm : 1;
            CHECK(got && (strcmp(got->name, "shm") == 0) == want, "%s of %zu B on %d ranks: %s",
                  vine__coll_name(pair[i].coll), pair[i].bytes, p, got ? got->name : "none");
        }
    /* Spot checks of the measured ranges. */
    vine_args r = {.coll = VINE_COLL_REDUCE, .p = 16, .count = 2, .commutative = 1, .shm_count = 9};
    CHECK(strcmp(vine__select_auto(&r, 4)->name, "shm") != 0, "reduce of 8 B: not shm");
    r.count = 16384;
    CHECK(strcmp(vine__select_auto(&r, 4)->name, "shm") == 0, "reduce of 64 KiB: shm");
    vine_args rs = {.coll = VINE_COLL_REDUCE_SCATTER_BLOCK,
                    .p = 16,
                    .count = 64,
                    .commutative = 1,
                    .shm_count = 9};
    CHECK(strcmp(vine__select_auto(&rs, 4)->name, "shm") == 0,
          "reduce_scatter_block of 4 KiB: shm");
    rs.count = 8192;
    CHECK(strcmp(vine__select_auto(&rs, 4)->name, "shm") != 0,
          "reduce_scatter_block of 512 KiB: not shm");
}

int main(void)
{
    test_grid();
    test_shm();
    test_spots();
    test_displs();
    test_allgatherv_skew();
    test_helpers();
    printf("%d checks, %d failed\n", checks, failures);
    return failures != 0;
}
