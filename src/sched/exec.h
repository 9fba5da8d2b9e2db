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

/* A datatype with the properties the executor needs, queried once per call. */
typedef struct vine_exec_type {
    MPI_Datatype dt;
    MPI_Aint extent, true_lb, true_extent;
    MPI_Count size;
    /* Elements are contiguous bytes (size == extent == true extent), so a copy
     * is one memmove.  This holds for every predefined type except the pair
     * types of MINLOC/MAXLOC, whose padding a copy must not write. */
    int dense;
    int named; /* a predefined datatype (never freed, so safe to keep in requests) */
} vine_exec_type;

/* Scratch kept between calls: the TMP buffer and the request array. */
typedef struct vine_exec_scratch {
    void *tmp;
    size_t tmp_bytes;
    MPI_Request *reqs;
    size_t nreqs;
} vine_exec_scratch;

/* What one call runs: the schedule, the user's buffers, the type and the op. */
typedef struct vine_exec_call {
    const vine_sched *sched;
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

/* Runs c; returns MPI_SUCCESS or an MPI error class. */
int vine__exec_run(const vine_exec_call *c, vine_exec_scratch *scr);

/*
 * vine__exec_run in two steps: the addresses of the SEND, RECV and TMP
 * buffers (growing the scratch as needed), then the run itself.
 */
int vine__exec_bases(const vine_exec_call *c, vine_exec_scratch *scr, char *base[]);
int vine__exec_run_at(const vine_exec_call *c, char *const base[], vine_exec_scratch *scr);

/*
 * Persistent requests for a schedule that runs again and again on the same
 * buffers: MPI_Send_init/MPI_Recv_init once, then MPI_Startall per round,
 * which spares MPI the set-up of every message on every call.
 * vine__exec_persist_count is the number of requests s needs (one per message
 * operation), or 0 when a message exceeds INT_MAX elements (such schedules
 * run the ordinary way).  The requests are bound to base, the datatype and
 * the communicator of c: the caller reuses them only while all three hold.
 */
size_t vine__exec_persist_count(const vine_sched *s);
int vine__exec_persist_init(const vine_exec_call *c, char *const base[], MPI_Request *preq);
int vine__exec_run_persistent(const vine_exec_call *c, char *const base[], MPI_Request *preq);
void vine__exec_persist_free(MPI_Request *preq, size_t n);

/* Copies count elements of t from src to dst (a local copy on the private comm). */
int vine__exec_copy(const vine_exec_type *t, const void *src, void *dst, size_t count,
                    MPI_Comm comm);

void vine__exec_scratch_free(vine_exec_scratch *scr);

/* The tag of every message vine sends on its private communicator. */
#define VINE_EXEC_TAG 7
/* The tag of local copies of derived datatypes (a rank sends to itself). */
#define VINE_EXEC_COPY_TAG 8

#endif
