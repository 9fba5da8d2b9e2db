/*
 * MPI tier: large counts (issue 3).
 *
 * Part 1, always: every MPI_Count entry point (vine_<coll>_c) on small data
 * gives what the MPI library's int collective gives, and a negative MPI_Count
 * is MPI_ERR_COUNT.
 *
 * Part 2, when the machine has the memory: byte sizes above INT_MAX end to
 * end.  vine_bcast_c moves INT_MAX + 4097 bytes, a count above INT_MAX, in
 * messages that must be split.  vine_allreduce_c reduces INT_MAX + 4097
 * uint8 elements in place with MPI_BOR over the ring algorithm (its scratch
 * is n/p, where recursive doubling's would be n).  MPI_BOR rather than
 * MPI_MAX: MPICH 4.0.2's MPI_Reduce_local compares MPI_UINT8_T as signed
 * for MPI_MAX (max(70, 130) gives 70, at any count), an MPICH bug.  Results
 * are checked against values each rank computes itself.  Without the memory
 * (MemAvailable from /proc/meminfo), the program says so and exits 77, which
 * ctest reports as skipped, never as passed.
 */
#include "mpitest.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SKIPPED = 77 };

/* Byte i of rank r's input. */
static uint8_t pattern(size_t i, int r)
{
    return (uint8_t)((i * 131u + (size_t)r * 29u + (i >> 20)) & 0xffu);
}

/* Ints for the small cases: element i of rank r's input. */
static int value(int i, int r)
{
    return 1000 * r + i;
}

static void check_ints(const int *got, const int *want, int n, const char *what)
{
    for (int i = 0; i < n; i++)
        if (got[i] != want[i]) {
            mt_fail("%s: element %d is %d, expected %d", what, i, got[i], want[i]);
            return;
        }
}

static void small_case(const char *coll)
{
    mt_case c = {coll, "auto", "int", "-", 5, -1, 0};
    mt_begin(&c);
}

/* Part 1: each _c function against the MPI library's int collective. */
static void small(void)
{
    enum { N = 5 };
    int p = mt_size, r = mt_rank, root = p - 1;
    int in[N * 64], got[N * 64], want[N * 64];
    MPI_Comm w = MPI_COMM_WORLD;
    MPI_Count counts_c[64];
    int counts[64];
    for (int i = 0; i < N * p; i++)
        in[i] = value(i, r);
    for (int i = 0; i < p; i++) {
        counts[i] = N;
        counts_c[i] = N;
    }

    small_case("bcast_c");
    memcpy(got, in, sizeof(int) * N);
    memcpy(want, in, sizeof(int) * N);
    MPI_Bcast(want, N, MPI_INT, root, w);
    if (mt_check_rc(vine_bcast_c(got, N, MPI_INT, root, w), "vine_bcast_c"))
        check_ints(got, want, N, "bcast_c");

    small_case("reduce_c");
    MPI_Reduce(in, want, N, MPI_INT, MPI_SUM, root, w);
    if (mt_check_rc(vine_reduce_c(in, got, N, MPI_INT, MPI_SUM, root, w), "vine_reduce_c") &&
        r == root)
        check_ints(got, want, N, "reduce_c");

    small_case("allreduce_c");
    MPI_Allreduce(in, want, N, MPI_INT, MPI_SUM, w);
    if (mt_check_rc(vine_allreduce_c(in, got, N, MPI_INT, MPI_SUM, w), "vine_allreduce_c"))
        check_ints(got, want, N, "allreduce_c");

    small_case("allgather_c");
    MPI_Allgather(in, N, MPI_INT, want, N, MPI_INT, w);
    if (mt_check_rc(vine_allgather_c(in, N, MPI_INT, got, N, MPI_INT, w), "vine_allgather_c"))
        check_ints(got, want, N * p, "allgather_c");

    small_case("reduce_scatter_block_c");
    MPI_Reduce_scatter_block(in, want, N, MPI_INT, MPI_SUM, w);
    if (mt_check_rc(vine_reduce_scatter_block_c(in, got, N, MPI_INT, MPI_SUM, w),
                    "vine_reduce_scatter_block_c"))
        check_ints(got, want, N, "reduce_scatter_block_c");

    small_case("reduce_scatter_c");
    MPI_Reduce_scatter(in, want, counts, MPI_INT, MPI_SUM, w);
    if (mt_check_rc(vine_reduce_scatter_c(in, got, counts_c, MPI_INT, MPI_SUM, w),
                    "vine_reduce_scatter_c"))
        check_ints(got, want, N, "reduce_scatter_c");

    small_case("alltoall_c");
    MPI_Alltoall(in, N, MPI_INT, want, N, MPI_INT, w);
    if (mt_check_rc(vine_alltoall_c(in, N, MPI_INT, got, N, MPI_INT, w), "vine_alltoall_c"))
        check_ints(got, want, N * p, "alltoall_c");

    small_case("gather_c");
    MPI_Gather(in, N, MPI_INT, want, N, MPI_INT, root, w);
    if (mt_check_rc(vine_gather_c(in, N, MPI_INT, got, N, MPI_INT, root, w), "vine_gather_c") &&
        r == root)
        check_ints(got, want, N * p, "gather_c");

    small_case("scatter_c");
    MPI_Scatter(in, N, MPI_INT, want, N, MPI_INT, root, w);
    if (mt_check_rc(vine_scatter_c(in, N, MPI_INT, got, N, MPI_INT, root, w), "vine_scatter_c"))
        check_ints(got, want, N, "scatter_c");

    small_case("negative MPI_Count");
    const MPI_Count neg = -1;
    int rc[6] = {vine_bcast_c(got, neg, MPI_INT, 0, w),
                 vine_allreduce_c(in, got, neg, MPI_INT, MPI_SUM, w),
                 vine_allgather_c(in, neg, MPI_INT, got, N, MPI_INT, w),
                 vine_alltoall_c(in, N, MPI_INT, got, neg, MPI_INT, w),
                 vine_gather_c(in, neg, MPI_INT, got, N, MPI_INT, 0, w),
                 vine_reduce_scatter_c(in, got, (counts_c[0] = neg, counts_c), MPI_INT, MPI_SUM, w)};
    for (int i = 0; i < 6; i++)
        if (rc[i] != MPI_ERR_COUNT)
            mt_fail("call %d with a negative MPI_Count returned %d, not MPI_ERR_COUNT", i, rc[i]);
}

/* MemAvailable in bytes, or 0 when unknown. */
static size_t mem_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    char line[256];
    size_t kib = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %zu kB", &kib) == 1)
            break;
    if (f)
        fclose(f);
    return kib * 1024;
}

/* Part 2: above INT_MAX bytes; returns 0, or SKIPPED. */
static int large(void)
{
    const size_t n = (size_t)INT_MAX + 4097;
    /* Per rank: the buffer, and the ring's scratch of n / p bytes. */
    size_t need = (size_t)mt_size * (n + n / (size_t)mt_size + (64u << 20));
    size_t have = mem_available();
    int go = have >= need + need / 4;
    MPI_Bcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!go) {
        if (mt_rank == 0)
            printf("SKIPPED: above-INT_MAX cases need about %.1f GiB for %d ranks; MemAvailable "
                   "is %.1f GiB\n",
                   (double)(need + need / 4) / (1u << 30), mt_size, (double)have / (1u << 30));
        return SKIPPED;
    }
    uint8_t *buf = malloc(n);
    if (!buf) {
        mt_fail("malloc of %zu bytes failed", n);
        return 0;
    }
    int root = mt_size - 1;

    mt_case c = {"bcast_c", "auto", "byte", "-", (long)n, root, 0};
    mt_begin(&c);
    for (size_t i = 0; i < n; i++)
        buf[i] = mt_rank == root ? pattern(i, root) : 0;
    if (mt_check_rc(vine_bcast_c(buf, (MPI_Count)n, MPI_BYTE, root, MPI_COMM_WORLD),
                    "vine_bcast_c"))
        for (size_t i = 0; i < n; i++)
            if (buf[i] != pattern(i, root)) {
                mt_fail("byte %zu is %u, expected %u", i, buf[i], pattern(i, root));
                break;
            }

    c = (mt_case){"allreduce_c", "ring", "uint8", "bor", (long)n, -1, 1};
    mt_begin(&c);
    mt_select(VINE_COLL_ALLREDUCE, "ring");
    for (size_t i = 0; i < n; i++)
        buf[i] = pattern(i, mt_rank);
    if (mt_check_rc(vine_allreduce_c(MPI_IN_PLACE, buf, (MPI_Count)n, MPI_UINT8_T, MPI_BOR,
                                     MPI_COMM_WORLD),
                    "vine_allreduce_c"))
        for (size_t i = 0; i < n; i++) {
            uint8_t want = 0;
            for (int r = 0; r < mt_size; r++)
                want |= pattern(i, r);
            if (buf[i] != want) {
                mt_fail("element %zu is %u, expected %u", i, buf[i], want);
                break;
            }
        }
    mt_check_served(VINE_COLL_ALLREDUCE, "ring", 1, n);
    mt_select(VINE_COLL_ALLREDUCE, NULL);
    free(buf);
    return 0;
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "large");
    small();
    int skipped = getenv("VINE_TEST_LARGE_SMALL_ONLY") ? 0 : large();
    int rc = mt_finish();
    return rc ? rc : skipped;
}
