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
    case VINE_COLL_ALLGATHERV:
    case VINE_COLL_ALLTOALLV:
    case VINE_COLL_ALLTOALLW:
    case VINE_COLL_GATHERV:
    case VINE_COLL_SCATTERV:
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
    case VINE_COLL_ALLGATHERV:
    case VINE_COLL_ALLTOALLV:
    case VINE_COLL_ALLTOALLW:
    case VINE_COLL_GATHERV:
    case VINE_COLL_SCATTERV:
        return (double)(p - 1) / p;
    case VINE_COLL_BCAST:
    case VINE_COLL_REDUCE:
    case VINE_COLL_SCAN:
    case VINE_COLL_EXSCAN:
        return 1;
    default:
        return 0;
    }
}

int vine__bench_bandwidth(vine_coll coll, int p, size_t size, double time_us, double *algbw,
                          double *busbw)
{
    return vine__bench_bandwidth_of(coll, p, vine__bench_op_bytes(coll, size, p), time_us, algbw,
                                    busbw);
}

int vine__bench_bandwidth_of(vine_coll coll, int p, double op_bytes, double time_us, double *algbw,
                             double *busbw)
{
    *algbw = *busbw = 0;
    if (coll == VINE_COLL_BARRIER || coll >= VINE_COLL_COUNT || p < 1 || !isfinite(time_us) ||
        time_us <= 0 || !(op_bytes >= 0))
        return -1;
    /* bytes / (time_us * 1e-6 s) / 1e9 = bytes / (time_us * 1e3) GB/s */
    *algbw = op_bytes / (time_us * 1e3);
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

/* A pooled sample of the U test: its value and whether it came from x. */
typedef struct ranked {
    double v;
    int from_x;
} ranked;

static int cmp_ranked(const void *a, const void *b)
{
    return cmp_double(&((const ranked *)a)->v, &((const ranked *)b)->v);
}

/*
 * Ranks the n pooled samples v (sorted here) from 1, ties the mean of their
 * ranks; returns the rank sum of x's samples and adds sum(t^3 - t) to *ties.
 */
static double rank_sum_x(ranked *v, int n, double *ties)
{
    qsort(v, (size_t)n, sizeof *v, cmp_ranked);
    double sum = 0;
    for (int i = 0; i < n;) {
        int j = i;
        while (j < n && v[j].v == v[i].v)
            j++;
        double t = j - i, rank = (i + 1 + j) / 2.0; /* the mean of ranks i+1 .. j */
        *ties += t * t * t - t;
        for (int k = i; k < j; k++)
            sum += v[k].from_x ? rank : 0;
        i = j;
    }
    return sum;
}

int vine__bench_mann_whitney(const double *x, int nx, const double *y, int ny, double *u, double *p)
{
    if (!x || !y || nx < 1 || ny < 1)
        return VINE_ERR_UNSUPPORTED;
    int n = nx + ny;
    ranked *v = malloc(sizeof *v * (size_t)n);
    if (!v)
        return VINE_ERR_NO_MEM;
    int finite = 1;
    for (int i = 0; i < n; i++) {
        v[i].v = i < nx ? x[i] : y[i - nx];
        v[i].from_x = i < nx;
        finite &= isfinite(v[i].v) != 0;
    }
    if (!finite) {
        free(v);
        return VINE_ERR_UNSUPPORTED;
    }
    double ties = 0, N = n, mx = nx, my = ny;
    double ux = rank_sum_x(v, n, &ties) - mx * (mx + 1) / 2;
    free(v);
    double var = mx * my / 12 * ((N + 1) - ties / (N * (N - 1)));
    double z = var > 0 ? (fabs(ux - mx * my / 2) - 0.5) / sqrt(var) : 0;
    if (u)
        *u = ux;
    *p = z > 0 ? erfc(z / sqrt(2.0)) : 1;
    return VINE_OK;
}

/* Solves the k-by-k system g x = h in place by Gaussian elimination; -1 when singular. */
static int solve_small(double *g, double *h, int k)
{
    for (int c = 0; c < k; c++) {
        int piv = c;
        for (int r = c + 1; r < k; r++)
            if (fabs(g[r * k + c]) > fabs(g[piv * k + c]))
                piv = r;
        /* The columns have unit length, so the pivots compare with 1. */
        if (fabs(g[piv * k + c]) < 1e-10)
            return -1;
        for (int j = 0; j < k; j++) {
            double t = g[c * k + j];
            g[c * k + j] = g[piv * k + j];
            g[piv * k + j] = t;
        }
        double t = h[c];
        h[c] = h[piv];
        h[piv] = t;
        for (int r = c + 1; r < k; r++) {
            double f = g[r * k + c] / g[c * k + c];
            for (int j = c; j < k; j++)
                g[r * k + j] -= f * g[c * k + j];
            h[r] -= f * h[c];
        }
    }
    for (int c = k - 1; c >= 0; c--) {
        for (int j = c + 1; j < k; j++)
            h[c] -= g[c * k + j] * h[j];
        h[c] /= g[c * k + c];
    }
    return 0;
}

/* |A x - b|^2 for the columns of a scaled by 1 / norm. */
static double residual(const double *a, const double *b, int m, int n, const double *norm,
                       const double *x)
{
    double r = 0;
    for (int i = 0; i < m; i++) {
        double e = -b[i];
        for (int j = 0; j < n; j++)
            e += norm[j] > 0 ? a[i * n + j] / norm[j] * x[j] : 0;
        r += e * e;
    }
    return r;
}

/*
 * The least-squares solution on the columns of mask (scaled: g is the Gram
 * matrix of the unit columns, h their products with b) into x, the others 0;
 * -1 when the subset is singular or its solution has a negative unknown.
 */
static int subset_solve(const double *g, const double *h, int n, unsigned mask, double *x)
{
    int idx[VINE_BENCH_NNLS_MAX], k = 0;
    double gs[VINE_BENCH_NNLS_MAX * VINE_BENCH_NNLS_MAX], hs[VINE_BENCH_NNLS_MAX];
    for (int j = 0; j < n; j++)
        if (mask & (1u << j))
            idx[k++] = j;
    for (int r = 0; r < k; r++) {
        hs[r] = h[idx[r]];
        for (int c = 0; c < k; c++)
            gs[r * k + c] = g[idx[r] * n + idx[c]];
    }
    if (solve_small(gs, hs, k) != 0)
        return -1;
    for (int j = 0; j < n; j++)
        x[j] = 0;
    for (int r = 0; r < k; r++) {
        if (!(hs[r] >= 0))
            return -1;
        x[idx[r]] = hs[r];
    }
    return 0;
}

/* The column norms of a, its unit columns' Gram matrix g and products h with b. */
static void normal_equations(const double *a, const double *b, int m, int n, double *norm,
                             double *g, double *h)
{
    for (int j = 0; j < n; j++) {
        norm[j] = 0;
        for (int i = 0; i < m; i++)
            norm[j] += a[i * n + j] * a[i * n + j];
        norm[j] = sqrt(norm[j]);
    }
    for (int r = 0; r < n; r++) {
        h[r] = 0;
        for (int i = 0; i < m && norm[r] > 0; i++)
            h[r] += a[i * n + r] / norm[r] * b[i];
        for (int c = 0; c < n; c++) {
            g[r * n + c] = 0;
            for (int i = 0; i < m && norm[r] > 0 && norm[c] > 0; i++)
                g[r * n + c] += a[i * n + r] / norm[r] * (a[i * n + c] / norm[c]);
        }
    }
}

int vine__bench_nnls(const double *a, const double *b, int m, int n, double *x, double *resid)
{
    if (!a || !b || !x || m < 1 || n < 1 || n > VINE_BENCH_NNLS_MAX)
        return VINE_ERR_UNSUPPORTED;
    for (int i = 0; i < m * n; i++)
        if (!isfinite(a[i]))
            return VINE_ERR_UNSUPPORTED;
    for (int i = 0; i < m; i++)
        if (!isfinite(b[i]))
            return VINE_ERR_UNSUPPORTED;
    double norm[VINE_BENCH_NNLS_MAX], g[VINE_BENCH_NNLS_MAX * VINE_BENCH_NNLS_MAX];
    double h[VINE_BENCH_NNLS_MAX], best[VINE_BENCH_NNLS_MAX] = {0}, cur[VINE_BENCH_NNLS_MAX];
    normal_equations(a, b, m, n, norm, g, h);
    double best_r = residual(a, b, m, n, norm, best);
    for (unsigned mask = 1; mask < (1u << n); mask++) {
        if (subset_solve(g, h, n, mask, cur) != 0)
            continue;
        double r = residual(a, b, m, n, norm, cur);
        if (r < best_r) {
            best_r = r;
            memcpy(best, cur, sizeof best);
        }
    }
    for (int j = 0; j < n; j++)
        x[j] = norm[j] > 0 ? best[j] / norm[j] : 0;
    if (resid)
        *resid = best_r;
    return VINE_OK;
}
