/*
 * The MPI executor: runs one rank's vine_sched on a communicator.
 *
 * Each round posts all its receives (MPI_Irecv), then all its sends
 * (MPI_Isend) with one tag, waits for them (MPI_Waitall) and then runs the
 * round's COPY and REDUCE operations in order.  Element i of a buffer lies at
 * base + i * extent.  Scratch memory and the request array live in a
 * vine_exec_scratch that the caller keeps (one per communicator), so running
 * a cached schedule allocates nothing once the scratch has grown.
 */
#ifndef VINE_EXEC_H
#define VINE_EXEC_H

#include "sched.h"

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

/* A datatype with the properties the executor needs, queried once per call. */
typedef struct vine_exec_type {
    MPI_Datatype dt;
    MPI_Aint extent, true_lb, true_extent;
    MPI_Count size;
    /* Elements are contiguous bytes (size == extent == true extent), so a copy
     * is one memmove.  This holds for every predefined type except the pair
     * types of MINLOC/MAXLOC, whose padding a copy must not write. */
    int dense;
    int named; /* a predefined datatype (its handle is never freed) */
} vine_exec_type;

/* Scratch kept between calls: the TMP buffer and the request array. */
typedef struct vine_exec_scratch {
    void *tmp;
    size_t tmp_bytes;
    MPI_Request *reqs;
    size_t nreqs;
} vine_exec_scratch;

/* One message of a plan: element offset off of buffer buf, count elements. */
typedef struct vine_exec_msg {
    size_t off;
    int count;
    int peer;
    uint8_t recv; /* 1: MPI_Irecv, 0: MPI_Isend */
    uint8_t buf;
} vine_exec_msg;

/*
 * A schedule laid out for the executor once, when it is cached: per round its
 * messages, receives first, each one MPI call, then the indices of its COPY
 * and REDUCE operations in order.  A round then costs its MPI calls and
 * little else.  Schedules with a message above INT_MAX elements have no plan
 * (they run op by op, splitting messages).
 *
 * defer[k] says that round k's local operations touch none of the ranges of
 * round k + 1's messages (they write nothing a send reads or a receive
 * writes, and read nothing a receive writes): then round k + 1 is posted
 * first and round k's reductions run while its messages travel.  The
 * result is the one the round semantics of sched.h define, since no
 * message sees the difference; pipelined builders (phase_bine.h) rely on it.
 */
typedef struct vine_exec_plan {
    size_t nrounds;
    size_t *msg_end;   /* round k's messages: msgs[msg_end[k-1] .. msg_end[k]) */
    size_t *local_end; /* round k's local operations: locals[local_end[k-1] .. local_end[k]) */
    vine_exec_msg *msgs;
    size_t *locals; /* indices into the schedule's ops */
    uint8_t *defer; /* per round: its local operations may run after the next round is posted */
} vine_exec_plan;

/* What one call runs: the schedule, the user's buffers, the type and the op. */
typedef struct vine_exec_call {
    const vine_sched *sched;
    const vine_exec_plan *plan; /* NULL: run the schedule op by op */
    size_t max_reqs; /* vine__exec_max_requests(sched), computed once */
    const void *sendbuf;
    void *recvbuf;
    const vine_exec_type *type;
    MPI_Op op;
    int commutative;
    MPI_Comm comm; /* vine's private communicator */
} vine_exec_call;

/* Whether dt is a predefined (named) datatype. */
int vine__exec_is_named(MPI_Datatype dt);
/* Fills t for dt; returns MPI_SUCCESS or an MPI error class. */
int vine__exec_type_init(vine_exec_type *t, MPI_Datatype dt);

/* The most requests any round of s posts (messages above INT_MAX elements are split). */
size_t vine__exec_max_requests(const vine_sched *s);

/*
 * Lays out s as a plan.  Returns MPI_SUCCESS, MPI_ERR_NO_MEM, or
 * MPI_ERR_COUNT when a message exceeds INT_MAX elements (then run without).
 */
int vine__exec_plan_build(const vine_sched *s, vine_exec_plan *plan);
void vine__exec_plan_free(vine_exec_plan *plan);

/* Runs c; returns MPI_SUCCESS or an MPI error class. */
int vine__exec_run(const vine_exec_call *c, vine_exec_scratch *scr);

/* Copies count elements of t from src to dst (a local copy on the private comm). */
int vine__exec_copy(const vine_exec_type *t, const void *src, void *dst, size_t count,
                    MPI_Comm comm);

void vine__exec_scratch_free(vine_exec_scratch *scr);

/* The tag of every message vine sends on its private communicator. */
#define VINE_EXEC_TAG 7
/* The tag of local copies of derived datatypes (a rank sends to itself). */
#define VINE_EXEC_COPY_TAG 8

#endif
