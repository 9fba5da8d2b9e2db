/*
 * Statistics of vine-bench's timings (MPI-free).
 *
 * The measurement method is the one of the Bine trees paper, section 5
 * (../shared/papers/bine-trees.txt), after Hoefler and Belli 2015: per
 * iteration the time is the maximum over ranks, and the first 20% of the
 * iterations are dropped as warm-up.  The kept samples are summarised by
 * their minimum, median, mean, 99th percentile and maximum.
 *
 * Bandwidths follow nccl-tests (doc/PERFORMANCE.md): algbw = S / t, with S
 * the bytes of the whole operation, and busbw = algbw * factor, a factor per
 * collective that makes the number comparable with a link's peak bandwidth
 * whatever the number of ranks.  docs/bench.md lists S and the factors.
 */
#ifndef VINE_BENCH_STATS_H
#define VINE_BENCH_STATS_H

#include "vine/types.h"

#include <stddef.h>

/* The summary of one row's samples; times in the unit of the samples. */
typedef struct vine_bench_stats {
    int kept;    /* samples summarised */
    int dropped; /* leading samples left out as warm-up */
    double min, median, mean, p99, max;
} vine_bench_stats;

/* The leading samples of n dropped as warm-up: the first 20%, floor(n / 5). */
int vine__bench_warmup_drop(int n);

/*
 * Summarises t[drop .. n-1] into *s (t is not modified).  The median of an
 * even number of samples is the mean of the two middle ones; the 99th
 * percentile is the nearest-rank one: the k-th smallest sample with
 * k = ceil(0.99 * kept).  The mean adds the samples in ascending order.
 * Returns VINE_OK, VINE_ERR_UNSUPPORTED when no sample is left (drop < 0 or
 * drop >= n) or a sample is not a finite number, VINE_ERR_NO_MEM.
 */
int vine__bench_stats(const double *t, int n, int drop, vine_bench_stats *s);

/*
 * nccl-tests' S for coll on p ranks, given vine-bench's size in bytes (the
 * collective's count argument times the element size): the size for bcast,
 * reduce, allreduce, reduce_scatter (whose size is the whole vector), scan
 * and exscan, p times the size for allgather, alltoall, gather, scatter and
 * reduce_scatter_block (whose size is one rank's block) and for allgatherv,
 * alltoallv, alltoallw, gatherv and scatterv with uniform blocks of that
 * size; 0 for barrier.
 */
double vine__bench_op_bytes(vine_coll coll, size_t size, int p);

/*
 * nccl-tests' bus bandwidth factor of coll on p ranks: 2(p-1)/p for
 * allreduce; (p-1)/p for allgather, reduce_scatter, reduce_scatter_block,
 * alltoall, gather and scatter, and for their irregular forms allgatherv,
 * alltoallv, alltoallw, gatherv and scatterv; 1 for bcast and reduce, and
 * for scan and exscan (which nccl-tests lacks: like reduce, each rank's
 * result is one vector); 0 for barrier, which has no bandwidth.
 */
double vine__bench_bus_factor(vine_coll coll, int p);

/*
 * algbw and busbw in GB/s (1e9 bytes per second) of coll on p ranks with
 * vine-bench's size in bytes and a time in microseconds.  Returns 0, or -1
 * (both set to 0) when the bandwidth is not defined: for barrier, and for a
 * time that is not a positive number.
 */
int vine__bench_bandwidth(vine_coll coll, int p, size_t size, double time_us, double *algbw,
                          double *busbw);

/*
 * The same given S itself, op_bytes (not negative): for irregular blocks,
 * whose S vine__bench_op_bytes cannot know (docs/bench.md).
 */
int vine__bench_bandwidth_of(vine_coll coll, int p, double op_bytes, double time_us, double *algbw,
                             double *busbw);

/*
 * Parses a byte size: a decimal number with no unit or B, K or KiB, M or MiB,
 * G or GiB (powers of 1024), e.g. "8", "8B", "64KiB", "1M".  Returns 0 and
 * sets *out, or -1 for anything else or a size above max.
 */
int vine__bench_parse_size(const char *s, size_t max, size_t *out);

/*
 * The two-sided Mann-Whitney U test (Wilcoxon rank-sum) of samples x[0..nx-1]
 * against y[0..ny-1]: do they come from one distribution?  The samples are
 * ranked together, ties getting the mean of their ranks; U = R_x - nx (nx +
 * 1) / 2 with R_x the rank sum of x.  The p-value is the normal
 * approximation with the tie correction and a continuity correction of 1/2:
 * z = (|U - nx ny / 2| - 1/2) / sigma (0 when negative), sigma^2 = nx ny / 12
 * ((N + 1) - sum(t^3 - t) / (N (N - 1))) with N = nx + ny and t the size of
 * each group of ties, and p = erfc(z / sqrt 2), as scipy's mannwhitneyu
 * with method="asymptotic" computes it.  p is 1 when every sample ties.
 * Returns VINE_OK with *u (may be NULL) and *p, VINE_ERR_UNSUPPORTED when a
 * sample set is empty or a sample is not a finite number, VINE_ERR_NO_MEM.
 */
int vine__bench_mann_whitney(const double *x, int nx, const double *y, int ny, double *u,
                             double *p);

/* The most unknowns vine__bench_nnls solves for. */
#define VINE_BENCH_NNLS_MAX 8

/*
 * Non-negative least squares: the x >= 0 that minimises |A x - b|^2, with A
 * an m-by-n matrix in row-major order and n <= VINE_BENCH_NNLS_MAX.  Every
 * non-empty subset of the columns is solved by its normal equations (the
 * columns scaled to unit length first, the other unknowns held at 0), and
 * the non-negative solution with the smallest residual wins: the optimum
 * is one of them, since at the optimum the unknowns above 0 solve the
 * unconstrained problem on their columns.  A subset whose columns are
 * linearly dependent (or a column of zeros) is skipped; its unknowns stay 0.
 * Returns VINE_OK with x[0..n-1] and *resid (the sum of squares; may be
 * NULL), x all 0 when no subset gives a non-negative solution, or
 * VINE_ERR_UNSUPPORTED for n out of range, m < 1 or a value that is not
 * finite.
 */
int vine__bench_nnls(const double *a, const double *b, int m, int n, double *x, double *resid);

#endif
