/*
 * The node's memory copy bandwidth (MPI-free part; copybw.h).  The timed
 * copy is a plain memcpy of the C library, in this file apart from its
 * callers so that the compiler sees a copy into memory that escapes, and
 * one byte of the result is read afterwards, so that the copy cannot be
 * left out.  Cost: one pass over 2 x bytes to touch the buffers, one copy
 * per call.
 */
#include "bench/copybw.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Where the byte read after each copy goes. */
static volatile unsigned char copy_sink;

int vine__bench_copy_alloc(vine_bench_copybuf *b, size_t bytes)
{
    memset(b, 0, sizeof *b);
    if (bytes == 0)
        return -1;
    b->src = malloc(bytes);
    b->dst = malloc(bytes);
    if (!b->src || !b->dst) {
        vine__bench_copy_free(b);
        return -1;
    }
    b->bytes = bytes;
    /* Every page written once: the page faults happen here, not in a timed copy. */
    for (size_t i = 0; i < bytes; i++)
        b->src[i] = (unsigned char)(i * 31 + 7);
    memset(b->dst, 0, bytes);
    return 0;
}

void vine__bench_copy_free(vine_bench_copybuf *b)
{
    free(b->src);
    free(b->dst);
    memset(b, 0, sizeof *b);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void vine__bench_copy(vine_bench_copybuf *b)
{
    memcpy(b->dst, b->src, b->bytes);
    copy_sink = b->dst[b->bytes - 1];
}

double vine__bench_copy_time(vine_bench_copybuf *b)
{
    double t0 = now_s();
    vine__bench_copy(b);
    return now_s() - t0;
}

double vine__bench_copy_gbps(double bytes, double seconds)
{
    if (!(bytes > 0) || !(seconds > 0) || !isfinite(bytes) || !isfinite(seconds))
        return NAN;
    return bytes / seconds * 1e-9;
}

double vine__bench_copy_fraction(double busbw, double copy)
{
    if (!(busbw >= 0) || !isfinite(busbw) || !(copy > 0) || !isfinite(copy))
        return NAN;
    return busbw / copy;
}

void vine__bench_copy_describe(char *buf, size_t cap, int p, double all, double one, size_t bytes,
                               int reps)
{
    char size[32];
    if (bytes && bytes % ((size_t)1 << 20) == 0)
        snprintf(size, sizeof size, "%zu MiB", bytes >> 20);
    else if (bytes && bytes % 1024 == 0)
        snprintf(size, sizeof size, "%zu KiB", bytes >> 10);
    else
        snprintf(size, sizeof size, "%zu B", bytes);
    snprintf(buf, cap,
             "copy bandwidth: all %d rank%s %.1f GB/s, one rank %.1f GB/s (%s per rank, memcpy, "
             "best of %d)",
             p, p == 1 ? "" : "s", all, one, size, reps);
}
