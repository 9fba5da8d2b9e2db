/*
 * MPI tier: large counts (issue 3).
 *
 * Part 1, always: every MPI_Count entry point (vine_<coll>_c) on small data
 * gives what the MPI library's int collective gives, a negative MPI_Count
 * is MPI_ERR_COUNT, and the datatype that carries a count above INT_MAX to
 * the MPI library (vine__mpi_side) has the bounds of that many elements.
 *
 * Part 2, when the machine has the memory: byte sizes above INT_MAX end to
 * end.  vine_bcast_c moves INT_MAX + 4097 bytes, a count above INT_MAX, in
 * messages that must be split, and again through the MPI library's bcast
 * ("mpi") in its three forms.  vine_allreduce_c reduces INT_MAX + 4097
 * uint8 elements in place with MPI_BOR over the ring algorithm (its scratch
 * is n/p, where recursive doubling's would be n).  MPI_BOR rather than
 * MPI_MAX: MPICH 4.0.2's MPI_Reduce_local compares MPI_UINT8_T as signed
 * for MPI_MAX (max(70, 130) gives 70, at any count), an MPICH bug.  Results
 * are checked against values each rank computes itself.  Without the memory
 * (MemAvailable from /proc/meminfo), the program says so and exits 77, which
 * ctest reports as skipped, never as passed.
 *
 * Part 3, alone (VINE_TEST_LARGE_ALLTOALL), with the same rule: an in-place
 * alltoall of blocks above INT_MAX bytes (large_alltoall).
 */
#include "mpitest.h"

#include "api/api.h"

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

/*
 * The datatype that carries a count above INT_MAX to the MPI library's int
 * interface (vine__mpi_side): it has the size, the bounds and the true
 * bounds of count elements of the type, for types with a lower bound,
 * padding and gaps; a count that fits, or a side MPI ignores, goes as it is.
 */
static void mpi_side(void)
{
    mt_case c = {"mpi side", "-", "int, shifted int, vector", "-", 0, -1, 0};
    mt_begin(&c);
    MPI_Datatype shifted, vec;
    MPI_Type_create_resized(MPI_INT, -8, 12, &shifted);
    MPI_Type_vector(3, 2, 5, MPI_DOUBLE, &vec);
    MPI_Type_commit(&shifted);
    MPI_Type_commit(&vec);
    MPI_Datatype types[3] = {MPI_INT, shifted, vec};
    const MPI_Count counts[4] = {(MPI_Count)INT_MAX + 1, (MPI_Count)INT_MAX + 5,
                                 ((MPI_Count)3 << 31) + 7, ((MPI_Count)1 << 30) * 5};
    for (int t = 0; t < 3; t++)
        for (int k = 0; k < 4; k++) {
            MPI_Count n = counts[k], size, lb, ext, tlb, text, size1, lb1, ext1, tlb1, text1;
            MPI_Type_size_x(types[t], &size1);
            MPI_Type_get_extent_x(types[t], &lb1, &ext1);
            MPI_Type_get_true_extent_x(types[t], &tlb1, &text1);
            vine_mpi_side ms;
            int rc = vine__mpi_side(&ms, n, types[t], 1);
            if (rc != MPI_SUCCESS || ms.n != 1 || ms.own == MPI_DATATYPE_NULL || ms.dt != ms.own) {
                mt_fail("type %d, count %lld: error %d, int count %d", t, (long long)n, rc, ms.n);
                continue;
            }
            MPI_Type_size_x(ms.dt, &size);
            MPI_Type_get_extent_x(ms.dt, &lb, &ext);
            MPI_Type_get_true_extent_x(ms.dt, &tlb, &text);
            if (size != n * size1 || lb != lb1 || ext != n * ext1 || tlb != tlb1 ||
                text != (n - 1) * ext1 + text1)
                mt_fail("type %d, count %lld: size %lld lb %lld extent %lld true lb %lld true "
                        "extent %lld",
                        t, (long long)n, (long long)size, (long long)lb, (long long)ext,
                        (long long)tlb, (long long)text);
            vine__mpi_side_free(&ms);
            if (ms.own != MPI_DATATYPE_NULL)
                mt_fail("vine__mpi_side_free left the datatype");
            if (vine__mpi_side(&ms, n, types[t], 0) != MPI_SUCCESS || ms.own != MPI_DATATYPE_NULL ||
                ms.dt != types[t])
                mt_fail("type %d, count %lld: a side MPI ignores was changed", t, (long long)n);
            if (vine__mpi_side(&ms, INT_MAX, types[t], 1) != MPI_SUCCESS || ms.n != INT_MAX ||
                ms.own != MPI_DATATYPE_NULL || ms.dt != types[t])
                mt_fail("type %d: a count of INT_MAX was changed", t);
        }
    MPI_Type_free(&shifted);
    MPI_Type_free(&vec);
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

    /* The MPI library's bcast takes the count as one element of a datatype
     * made for it: blocking, nonblocking and persistent (one request started
     * twice, on new data). */
    static const char *forms[3] = {"mpi", "mpi (nonblocking)", "mpi (persistent)"};
    mt_select(VINE_COLL_BCAST, "mpi");
    for (int f = 0; f < 3; f++) {
        c = (mt_case){"bcast_c", forms[f], "byte", "-", (long)n, root, 0};
        mt_begin(&c);
        MPI_Request q = MPI_REQUEST_NULL;
        int rc = f == 2 ? vine_bcast_init_c(buf, (MPI_Count)n, MPI_BYTE, root, MPI_COMM_WORLD,
                                            MPI_INFO_NULL, &q)
                        : MPI_SUCCESS;
        for (int start = 0; rc == MPI_SUCCESS && start < (f == 2 ? 2 : 1); start++) {
            int key = root + 1 + f + start;
            for (size_t i = 0; i < n; i++)
                buf[i] = mt_rank == root ? pattern(i, key) : 0;
            rc = f == 0   ? vine_bcast_c(buf, (MPI_Count)n, MPI_BYTE, root, MPI_COMM_WORLD)
                 : f == 1 ? vine_ibcast_c(buf, (MPI_Count)n, MPI_BYTE, root, MPI_COMM_WORLD, &q)
                          : vine_start(&q);
            if (rc == MPI_SUCCESS && f > 0)
                rc = vine_wait(&q, MPI_STATUS_IGNORE);
            if (rc != MPI_SUCCESS)
                break;
            for (size_t i = 0; i < n; i++)
                if (buf[i] != pattern(i, key)) {
                    mt_fail("start %d: byte %zu is %u, expected %u", start, i, buf[i],
                            pattern(i, key));
                    break;
                }
            if (strcmp(vine_last_algorithm(VINE_COLL_BCAST), "mpi") != 0)
                mt_fail("served by %s, not mpi", vine_last_algorithm(VINE_COLL_BCAST));
        }
        if (rc == MPI_SUCCESS && f == 2)
            rc = vine_request_free(&q);
        mt_check_rc(rc, forms[f]);
    }
    mt_select(VINE_COLL_BCAST, NULL);

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

/* Element k of block j of rank r's alltoall input. */
static int a2a_value(size_t k, int j, int r)
{
    return (int)((k * 2654435761u) ^ ((size_t)j << 24) ^ ((size_t)r << 28));
}

/* Fails unless rank r's p blocks of n ints at buf hold rank j's block r (swapped) or its own. */
static void a2a_check(const int *buf, size_t n, int swapped, const char *what)
{
    for (int j = 0; j < mt_size; j++)
        for (size_t k = 0; k < n; k++) {
            int want = swapped ? a2a_value(k, mt_rank, j) : a2a_value(k, j, mt_rank);
            if (buf[(size_t)j * n + k] != want) {
                mt_fail("%s: block %d element %zu is %d, expected %d", what, j, k,
                        buf[(size_t)j * n + k], want);
                return;
            }
        }
}

/*
 * Part 3 (VINE_TEST_LARGE_ALLTOALL): an in-place alltoall whose blocks
 * exceed INT_MAX bytes, in int counts that fit.  Blocking, it runs in rounds
 * (VINE_INPLACE_BYTES); nonblocking, the MPI library's own serves it on the
 * user's buffer, never a schedule on a copy of the whole input (which took
 * the memory of Open MPI's collective-big-count test).  Returns 0 or SKIPPED.
 */
static int large_alltoall(void)
{
    const size_t n = ((size_t)INT_MAX + 4097) / sizeof(int), block = n * sizeof(int);
    size_t p = (size_t)mt_size;
    /* Per rank: the buffer and the MPI library's block of scratch. */
    size_t need = p * (p * block + block + (128u << 20));
    size_t have = mem_available();
    int go = have >= need + need / 4;
    MPI_Bcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!go) {
        if (mt_rank == 0)
            printf("SKIPPED: the alltoall above INT_MAX bytes a block needs about %.1f GiB for "
                   "%d ranks; MemAvailable is %.1f GiB\n",
                   (double)(need + need / 4) / (1u << 30), mt_size, (double)have / (1u << 30));
        return SKIPPED;
    }
    int *buf = malloc(p * block);
    if (!buf) {
        mt_fail("malloc of %zu bytes failed", p * block);
        return 0;
    }
    for (int j = 0; j < mt_size; j++)
        for (size_t k = 0; k < n; k++)
            buf[(size_t)j * n + k] = a2a_value(k, j, mt_rank);
    mt_case c = {"alltoall", "auto (rounds)", "int", "-", (long)n, -1, 1};
    mt_begin(&c);
    if (mt_check_rc(
            vine_alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, (int)n, MPI_INT, MPI_COMM_WORLD),
            "vine_alltoall"))
        a2a_check(buf, n, 1, "blocking");
    c = (mt_case){"alltoall", "auto (nonblocking)", "int", "-", (long)n, -1, 1};
    mt_begin(&c);
    MPI_Request q;
    int rc = vine_ialltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, (int)n, MPI_INT,
                            MPI_COMM_WORLD, &q);
    if (rc == MPI_SUCCESS)
        rc = vine_wait(&q, MPI_STATUS_IGNORE);
    /* The second transpose gives back every rank's own input. */
    if (mt_check_rc(rc, "vine_ialltoall"))
        a2a_check(buf, n, 0, "nonblocking");
    if (strcmp(vine_last_algorithm(VINE_COLL_ALLTOALL), "mpi") != 0)
        mt_fail("the nonblocking in-place alltoall was served by %s, not mpi",
                vine_last_algorithm(VINE_COLL_ALLTOALL));
    free(buf);
    return 0;
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "large");
    if (getenv("VINE_TEST_LARGE_ALLTOALL")) {
        int skipped = large_alltoall();
        int rc = mt_finish();
        return rc ? rc : skipped;
    }
    small();
    mpi_side();
    int skipped = getenv("VINE_TEST_LARGE_SMALL_ONLY") ? 0 : large();
    int rc = mt_finish();
    return rc ? rc : skipped;
}
