/*
 * vine-bench coll --nonblocking and --persistent (docs/bench.md, "Nonblocking
 * and persistent collectives"): the nonblocking and persistent calls of a
 * benchmarked case, vine's and the MPI library's, the compute loop that
 * overlaps them, and their timings.
 *
 * --nonblocking times, per case, start + wait alone (t_pure), then rank 0
 * calibrates a compute loop to last about t_pure and broadcasts its
 * iteration count, then the compute loop alone (t_comp), start + compute
 * with a progress call every interval + wait (t_overlap), and the same
 * without progress calls, in alternation.  The overlap, the share of the
 * communication hidden behind the computation, is OSU's:
 * max(0, min(1, (t_pure + t_comp - t_overlap) / t_pure)), of the medians.
 *
 * --persistent times start + wait of a request made once, in alternation
 * with the blocking call.
 *
 * Every time is, per iteration, the slowest rank's, after a barrier; the
 * statistics are rank 0's, as in the rest of vine-bench coll.
 */
#ifndef VINE_BENCH_NB_H
#define VINE_BENCH_NB_H

#include "bench/stats.h"
#include <vine.h>

#include <stddef.h>

/* One benchmarked case (vine-bench.c): a collective at one size, with its buffers. */
typedef struct bcase {
    vine_coll coll;
    MPI_Datatype dt;
    size_t tsize;
    MPI_Op op;
    int root, inplace, p, rank;
    int count;                 /* the collective's count argument */
    int *counts;               /* reduce_scatter: p entries */
    size_t in_elems;           /* the input vector (all p blocks for alltoall, scatter) */
    size_t recv_elems;         /* the receive buffer */
    size_t res_off, res_elems; /* where the result lies in the receive buffer */
    unsigned char *send, *recv, *input, *ref;
    MPI_Request preq; /* --persistent: the row's persistent request, else MPI_REQUEST_NULL */
    /* The irregular collectives (tools/bench_v.h): this rank's tables, packed in rank order. */
    int vcount;             /* allgatherv, gatherv: the send count; scatterv: the receive count */
    int *scounts, *sdispls; /* p entries each; alltoallw: displacements in bytes */
    int *rcounts, *rdispls; /* p entries each; alltoallw: displacements in bytes */
    MPI_Datatype *types;    /* alltoallw: p times dt */
    size_t own_off;         /* allgatherv, gatherv: where this rank's block lies in recv */
    double op_bytes;        /* nccl-tests' S of the row, in bytes (src/bench/stats.h) */
    int moves;              /* some rank sends or receives something (the same on all) */
} bcase;

/* The buffer arguments of b's call at this rank, MPI_IN_PLACE where it is in place (vine-bench.c).
 */
const void *bench_send_arg(const bcase *b);
void *bench_recv_arg(const bcase *b);
/* One blocking call of b: vine's (mpi 0) or the MPI library's (vine-bench.c). */
int bench_run_blocking(const bcase *b, int mpi);

/* What the timings need of the command line. */
typedef struct bench_nb_timing {
    int iters;          /* --iters: timed iterations */
    int warmup;         /* --warmup, or -1: the first 20% of iters are dropped */
    double interval_us; /* --progress-interval: compute between two progress calls */
} bench_nb_timing;

/* What one row measured (rank 0; the other ranks' are unset). */
typedef struct bench_nb_result {
    /* --nonblocking: start + wait alone.  --persistent: start + wait of the persistent
     * request, or the blocking call where there is none (persistent 0). */
    vine_bench_stats st;
    double comp, ovl, ovl_np; /* --nonblocking: medians in microseconds */
    double np_start, np_wait; /* --nonblocking: of the run without progress calls, the medians
                                 of the start alone and of the wait alone (microseconds) */
    long comp_iters, chunk;   /* --nonblocking: the compute loop's iterations, and between
                                 two progress calls */
    double blocking;          /* --persistent: the median of the blocking call */
    int persistent;           /* --persistent: st is the persistent request's */
} bench_nb_result;

/* Starts b's nonblocking collective: vine_i<coll> (mpi 0) or MPI_I<coll>. */
int bench_nb_start(const bcase *b, int mpi, MPI_Request *req);
/* Waits for a request of vine (mpi 0: vine_wait) or of the MPI library (MPI_Wait). */
int bench_nb_wait(int mpi, MPI_Request *req);
/* One start + progress calls between short computations + wait: the --check form. */
int bench_nb_run_progressed(const bcase *b, int mpi);

/*
 * Does vine-bench time the MPI library's persistent coll?  Where it has
 * persistent collectives (MPI_VERSION >= 4), but for MPICH's scatter, whose
 * second start fails (bench_nb.c).
 */
int bench_nb_mpi_persistent(vine_coll coll);
/*
 * Creates b's persistent collective, inactive, in *req: vine_<coll>_init
 * (mpi 0) or MPI_<Coll>_init; MPI_ERR_OTHER for mpi where
 * bench_nb_mpi_persistent says no.  Collective.
 */
int bench_nb_init(const bcase *b, int mpi, MPI_Request *req);
/* One start + wait of the persistent request *req. */
int bench_nb_start_wait(int mpi, MPI_Request *req);
/* Frees *req (MPI_REQUEST_NULL: nothing) and sets it to MPI_REQUEST_NULL. */
void bench_nb_free(int mpi, MPI_Request *req);

/*
 * The compute loop: iters passes over a small array that the compiler
 * cannot remove, with progress calls (vine_progress, or MPI_Test of *req
 * for mpi) after every chunk iterations when chunk > 0.
 */
void bench_nb_compute(long iters);
int bench_nb_compute_progress(long iters, long chunk, int mpi, MPI_Request *req);

/* max(0, min(1, (pure + comp - ovl) / pure)); NAN when a time is missing or pure <= 0. */
double bench_nb_overlap(double pure, double comp, double ovl);

/*
 * Collective: the --nonblocking timings of b (vine's or the MPI library's
 * collective), in out on rank 0.  Returns MPI_SUCCESS or the first error.
 */
int bench_nb_time(const bcase *b, int mpi, const bench_nb_timing *t, bench_nb_result *out);
/*
 * Collective: the --persistent timings of b: the blocking call, and in
 * alternation with it start + wait of *preq unless that is MPI_REQUEST_NULL.
 */
int bench_nb_time_persistent(const bcase *b, int mpi, MPI_Request *preq, const bench_nb_timing *t,
                             bench_nb_result *out);

#endif
