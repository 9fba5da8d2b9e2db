/*
 * vine's pattern benchmarks: the API of CommBench (Hidayetoglu et al., ICS
 * 2024; ../shared/papers/commbench.txt, listing 1 and section 4) on MPI
 * point-to-point messages.  A pattern is a set of messages registered on a
 * communicator; start() posts them all, wait() completes this rank's share,
 * measure() times repeated runs.  A sequence of patterns (steps) runs either
 * asynchronously, each rank starting a step as soon as its own messages of
 * the previous step are done (no barrier between steps; figure 5a), or
 * concurrently, all steps started before any is waited for (figure 5c).
 * docs/patterns.md has the details and the built-in patterns.
 *
 *   vine_bench_pattern pat;
 *   vine_bench_create(MPI_COMM_WORLD, &pat);
 *   for (int j = 1; j < p; j++)       // every rank makes the same calls
 *       vine_bench_add(pat, sendbuf, 0, recvbuf, 0, 1 << 20, 0, j);
 *   double t[100];
 *   vine_bench_measure(pat, 10, 100, t);   // t[i]: slowest rank, seconds
 *   vine_bench_free(&pat);
 *
 * Counts and offsets are in bytes (messages travel as MPI_BYTE).  Every
 * function returns MPI_SUCCESS or an MPI error class (MPI_ERR_ARG,
 * MPI_ERR_COMM, MPI_ERR_BUFFER, MPI_ERR_NO_MEM, MPI_ERR_PENDING, or the
 * class of a failed MPI call) and never aborts; the pattern's messages travel
 * on a private duplicate of the communicator whose error handler returns.
 * The MPI-free matrix, footprints, generators and readers are in
 * vine/bench_matrix.h.
 */
#ifndef VINE_BENCH_H
#define VINE_BENCH_H

#include <mpi.h>

#include "vine/bench_matrix.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vine_bench_pattern_s *vine_bench_pattern;

/* How vine_bench_measure_steps runs a sequence of steps. */
enum vine_bench_mode {
    VINE_BENCH_ASYNC = 0,     /* step after step, each rank waiting only on its own messages */
    VINE_BENCH_CONCURRENT = 1 /* all steps started, then all waited for */
};

/* An empty pattern on comm.  Collective over comm (it duplicates comm). */
int vine_bench_create(MPI_Comm comm, vine_bench_pattern *pat);
/* Completes outstanding messages and frees the pattern; *pat becomes NULL.  Collective. */
int vine_bench_free(vine_bench_pattern *pat);

/*
 * Registers a message of count bytes from sendbuf + sendoffset at rank
 * sender to recvbuf + recvoffset at rank receiver.  Every rank of the
 * communicator makes the same sequence of calls: each records the whole
 * matrix, and only the sender and the receiver use their buffer argument
 * (the others may pass NULL).  Local; MPI_ERR_ARG for a rank outside the
 * communicator, MPI_ERR_BUFFER for a NULL buffer of a message this rank
 * takes part in, MPI_ERR_PENDING while the pattern is started.
 */
int vine_bench_add(vine_bench_pattern pat, const void *sendbuf, size_t sendoffset, void *recvbuf,
                   size_t recvoffset, size_t count, int sender, int receiver);
/*
 * Registers every message of m (m->p must be the communicator's size) with
 * this rank's buffers bufs[VINE_BENCH_BUF_SEND], bufs[VINE_BENCH_BUF_RECV]
 * and bufs[VINE_BENCH_BUF_TMP], each at least as long as this rank's
 * footprint extent (vine_bench_matrix_footprint).  Every rank calls it with
 * the same matrix.
 */
int vine_bench_add_matrix(vine_bench_pattern pat, const vine_bench_matrix *m,
                          void *const bufs[VINE_BENCH_NBUF]);

/*
 * Posts this rank's receives, then its sends, and returns; the buffers are in
 * use until vine_bench_wait.  MPI_ERR_PENDING when already started.
 */
int vine_bench_start(vine_bench_pattern pat);
/* Completes this rank's messages of the last start (nothing when not started). */
int vine_bench_wait(vine_bench_pattern pat);

/*
 * Runs warmup untimed iterations and then `iterations` timed ones (each
 * after a barrier: start, wait) and writes to times[0 .. iterations-1], on
 * every rank, each iteration's time in seconds on the slowest rank.
 * Collective; MPI_ERR_ARG when the ranks registered different matrices.
 */
int vine_bench_measure(vine_bench_pattern pat, int warmup, int iterations, double *times);

/*
 * The same for a sequence of nsteps patterns on congruent communicators, run
 * in mode (enum vine_bench_mode).  A step's data may depend on the previous
 * steps' only in VINE_BENCH_ASYNC mode; in VINE_BENCH_CONCURRENT mode each
 * pattern may appear once.  times[i] covers the whole sequence.
 */
int vine_bench_measure_steps(const vine_bench_pattern *steps, int nsteps, int mode, int warmup,
                             int iterations, double *times);
/* One untimed run of the sequence (start and wait as in mode); local apart from the messages. */
int vine_bench_run_steps(const vine_bench_pattern *steps, int nsteps, int mode);

/*
 * The matrix registered so far (every message of every rank; messages made
 * with vine_bench_add name VINE_BENCH_BUF_SEND and VINE_BENCH_BUF_RECV).  The
 * pointer stays valid until the next add or free.  Report it with
 * vine_bench_matrix_pairs and vine_bench_matrix_footprint.
 */
int vine_bench_get_matrix(vine_bench_pattern pat, const vine_bench_matrix **m);
/* The pattern's communicator (the private duplicate). */
int vine_bench_get_comm(vine_bench_pattern pat, MPI_Comm *comm);

#ifdef __cplusplus
}
#endif

#endif
