/*
 * Statistics of vine-bench's timings (MPI-free): the warm-up drop, the
 * summary of the kept samples, and nccl-tests' algbw and busbw.  See
 * stats.h for the rules and their sources.  Cost: O(n log n) for the sort
 * of one copy of the samples.
 */
#include "bench/stats.h"
#include "sched/sched.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int vine__bench_warmup_drop(int n)
{
    return n > 0 ? n / 5 : 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int vine__bench_stats(const double *t, int n, int drop, vine_bench_stats *s)
{
    memset(s, 0, sizeof *s);
    if (!t || drop < 0 || drop >= n)
        return VINE_ERR_UNSUPPORTED;
    int kept = n - drop;
    for (int i = drop; i < n; i++)
        if (!isfinite(t[i]))
            return VINE_ERR_UNSUPPORTED;
    double *v = malloc(sizeof(double) * (size_t)kept);
    if (!v)
        return VINE_ERR_NO_MEM;
    memcpy(v, t + drop, sizeof(double) * (size_t)kept);
    qsort(v, (size_t)kept, sizeof(double), cmp_double);
    double sum = 0;
    for (int i = 0; i < kept; i++)
        sum += v[i];
    /* Nearest rank: k = ceil(99 kept / 100), in integers so that no rounding moves it. */
    long k = (99L * kept + 99) / 100;
    s->kept = kept;
    s->dropped = drop;
    s->min = v[0];
    s->max = v[kept - 1];
    s->median = kept % 2 ? v[kept / 2] : (v[kept / 2 - 1] + v[kept / 2]) / 2;
    s->mean = sum / kept;
    s->p99 = v[k - 1];
    free(v);
    return VINE_OK;
}

double vine__bench_op_bytes(vine_coll coll, size_t size, int p)
{
    switch (coll) {
    case VINE_COLL_ALLGATHER:
    case VINE_COLL_ALLTOALL:
    case VINE_COLL_GATHER:
    case VINE_COLL_SCATTER:
    case VINE_COLL_REDUCE_SCATTER_BLOCK:
        return (double)size * p;
    case VINE_COLL_BARRIER:
        return 0;
    default:
        return (double)size;
    }
}

double vine__bench_bus_factor(vine_coll coll, int p)
{
    if (p < 1)
        return 0;
    switch (coll) {
    case VINE_COLL_ALLREDUCE:
        return 2.0 * (p - 1) / p;
    case VINE_COLL_ALLGATHER:
    case VINE_COLL_REDUCE_SCATTER:
    case VINE_COLL_REDUCE_SCATTER_BLOCK:
    case VINE_COLL_ALLTOALL:
    case VINE_COLL_GATHER:
    case VINE_COLL_SCATTER:
        return (double)(p - 1) / p;
    case VINE_COLL_BCAST:
    case VINE_COLL_REDUCE:
        return 1;
    default:
        return 0;
    }
}

int vine__bench_bandwidth(vine_coll coll, int p, size_t size, double time_us, double *algbw,
                          double *busbw)
{
    *algbw = *busbw = 0;
    if (coll == VINE_COLL_BARRIER || coll >= VINE_COLL_COUNT || p < 1 || !isfinite(time_us) ||
        time_us <= 0)
        return -1;
    /* bytes / (time_us * 1e-6 s) / 1e9 = bytes / (time_us * 1e3) GB/s */
    *algbw = vine__bench_op_bytes(coll, size, p) / (time_us * 1e3);
    *busbw = *algbw * vine__bench_bus_factor(coll, p);
    return 0;
}

int vine__bench_parse_size(const char *s, size_t max, size_t *out)
{
    static const struct {
        const char *unit;
        int shift;
    } units[] = {{"", 0},   {"B", 0},    {"K", 10}, {"KiB", 10},
                 {"M", 20}, {"MiB", 20}, {"G", 30}, {"GiB", 30}};
    char *end;
    errno = 0;
    unsigned long long n = strtoull(s, &end, 10);
    if (end == s || errno || *s == '-')
        return -1;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcmp(end, units[i].unit) == 0) {
            if (n > (SIZE_MAX >> units[i].shift) || (size_t)(n << units[i].shift) > max)
                return -1;
            *out = (size_t)(n << units[i].shift);
            return 0;
        }
    return -1;
}
