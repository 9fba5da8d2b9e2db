/*
 * The node's memory copy bandwidth for `vine-bench coll --copy-bw`
 * (MPI-free part): the buffers, one timed memcpy, the bandwidth of bytes
 * copied in a time, the fraction of it a collective's busbw reaches, and
 * the line that reports the measurement.  The MPI part (every rank copying
 * at once after a barrier, then rank 0 alone) is in tools/vine-bench.c;
 * docs/bench.md, "Copy bandwidth", defines the numbers.
 *
 * A copy of B bytes counts B bytes, although memcpy reads B and writes B
 * (and the memory system may move more, reading a destination line before
 * writing it): the bandwidth is the rate of bytes copied, half of what
 * STREAM's Copy kernel reports for the same rate, since STREAM counts the
 * bytes read and the bytes written.
 */
#ifndef VINE_BENCH_COPYBW_H
#define VINE_BENCH_COPYBW_H

#include <stddef.h>

/* The default bytes each rank copies: larger than the caches of one core. */
#define VINE_BENCH_COPY_BYTES ((size_t)64 << 20)

/* The repetitions of each measurement; the best (the highest bandwidth) is kept. */
#define VINE_BENCH_COPY_REPS 5

/* A source and a destination of bytes each. */
typedef struct vine_bench_copybuf {
    unsigned char *src, *dst;
    size_t bytes;
} vine_bench_copybuf;

/*
 * Allocates both buffers and writes every byte of them, so that no page
 * fault falls in a timed copy.  Returns 0, or -1 (nothing left allocated)
 * when bytes is 0 or memory runs out.
 */
int vine__bench_copy_alloc(vine_bench_copybuf *b, size_t bytes);
void vine__bench_copy_free(vine_bench_copybuf *b);

/* Copies src to dst once with memcpy. */
void vine__bench_copy(vine_bench_copybuf *b);

/* vine__bench_copy, timed: returns the seconds it took (a monotonic clock). */
double vine__bench_copy_time(vine_bench_copybuf *b);

/* GB/s (1e9 bytes per second) of bytes copied in seconds; NAN unless both are positive. */
double vine__bench_copy_gbps(double bytes, double seconds);

/*
 * busbw / copy, both in GB/s: the fraction of the copy bandwidth that a
 * collective's bus bandwidth reaches; NAN when busbw is not a number >= 0
 * or copy is not a number > 0.
 */
double vine__bench_copy_fraction(double busbw, double copy);

/*
 * The report of a measurement on p ranks, for a "# " line of the table:
 * "copy bandwidth: all 4 ranks 41.2 GB/s, one rank 7.8 GB/s (64 MiB per
 * rank, memcpy, best of 5)"; bytes as MiB, KiB or B, whichever divides it.
 */
void vine__bench_copy_describe(char *buf, size_t cap, int p, double all, double one, size_t bytes,
                               int reps);

#endif
