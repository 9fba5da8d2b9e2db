/*
 * The MPI executor: runs one rank's vine_sched on a communicator.
 *
 * Each round posts all its receives (MPI_Irecv), then all its sends
 * (MPI_Isend) with the call's tag, waits for them (PMPI_Waitall: the
 * drop-in library defines MPI_Waitall as vine's) and then runs the
 * round's COPY and REDUCE operations in order.  Element i of a buffer lies at
 * base + i * extent.  Scratch memory and the request array live in a
 * vine_exec_scratch that the caller keeps (one per communicator), so running
 * a cached schedule allocates nothing once the scratch has grown.
 */
#ifndef VINE_EXEC_H
#define VINE_EXEC_H

#include "sched.h"

#include <mpi.h>
#include <stdatomic.h>
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

/*
 * Shared memory (src/api/shm.c, docs/shm.md).  Each rank of a node owns one
 * line of VINE_SHM_LINE bytes at the start of its part of the node segment:
 * its flag, which only it writes (sched.h: SET and WAIT), two inline parity
 * slots of VINE_SHM_INLINE bytes and two inline eager slots of
 * VINE_SHM_EAG_INLINE bytes in the flag's own cache line, and what peers
 * need for single copy.  Its parity area of two slots of VINE_SHM_PAR_BYTES
 * follows the line, then its eager area of two slots of as many bytes, and
 * its region (buffer VINE_BUF_SHM) follows that, VINE_SHM_HEAD bytes after
 * the part's start.  A par call (vine_sched.par) maps VINE_BUF_PAR to its
 * inline slot when the call's par_count elements fit there, else to the
 * slot of the parity area, and an eager call (vine_sched.eag) maps
 * VINE_BUF_EAG alike by its eag_count; all ranks decide alike (same count
 * and type), and each of the eight slots is disjoint from everything else,
 * so either way the two slots a rank's par (eager) calls alternate between
 * are apart.
 */
#define VINE_SHM_LINE 128
#define VINE_SHM_INLINE 16
#define VINE_SHM_EAG_INLINE 8
#define VINE_SHM_PAR_BYTES ((size_t)32 << 10)
#define VINE_SHM_EAG_AT (VINE_SHM_LINE + 2 * VINE_SHM_PAR_BYTES)
#define VINE_SHM_HEAD (VINE_SHM_EAG_AT + 2 * VINE_SHM_PAR_BYTES)
typedef struct vine_shm_line {
    _Atomic uint64_t flag; /* (call number << VINE_SHM_FLAG_BITS) | v */
    uint64_t pid;          /* for process_vm_readv */
    unsigned char par[2][VINE_SHM_INLINE];     /* the inline parity slots, at byte 16 */
    unsigned char eag[2][VINE_SHM_EAG_INLINE]; /* the inline eager slots, at byte 48 */
    uint64_t sendbuf; /* this call's user buffers, published with flag value 0 */
    uint64_t recvbuf;
} vine_shm_line;

/* A communicator's view of its node segment, indexed by rank of the communicator. */
typedef struct vine_exec_shm {
    int p;
    int me;
    vine_shm_line **line; /* p entries: NULL for ranks on other nodes */
    char **region;        /* p entries: region base (element 0 at true lb 0) */
    uint64_t seq;         /* shm calls run so far on this communicator */
    uint64_t pseq;        /* par calls (vine_sched.par) run so far */
    size_t par_at;        /* the current par call's slot: its byte offset from the line */
    size_t eag_at;        /* the current eager call's slot: its byte offset from the line */
    int single;           /* process_vm_readv reads every peer of the node */
    unsigned long spins;  /* flag polls before a WAIT starts yielding the core */
} vine_exec_shm;

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
    vine_exec_shm *shm; /* the node segment; NULL when there is none (then no shm schedule runs) */
    int tag; /* of every message: VINE_EXEC_TAG for a blocking call, one per request otherwise */
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

/*
 * A persistent collective's messages as persistent point-to-point requests
 * (MPI_Send_init, MPI_Recv_init), made at its first start and started with
 * MPI_Start at every start after it, so that a start does not build the
 * library's requests again: only the messages of more than
 * VINE_EXEC_PERSIST_BYTES, since Open MPI sends a small message at once
 * from MPI_Isend (inline, no request), which a persistent request cannot
 * (on 2 ranks of the 2-core machine a persistent 128-byte allreduce took
 * 1.5 times the blocking call with them, docs/performance.md).  They hold
 * the buffers' addresses: base says which they were made for.
 */
#define VINE_EXEC_PERSIST_BYTES 256

typedef struct vine_exec_persist {
    MPI_Request *reqs; /* one a message of the plan (MPI_REQUEST_NULL: small); NULL: none */
    size_t n;
    char *base[VINE_BUF_COUNT];
} vine_exec_persist;

/*
 * A call in progress: the executor as a state machine, one round at a time
 * (the groundwork of nonblocking collectives, issue 19).  vine__exec_run is
 * vine__exec_start and then progress until done, blocking.  The state holds
 * a copy of the call and points into scr, which must stay unused by other
 * calls until this one is done.
 */
typedef struct vine_exec_state {
    vine_exec_call call;
    char *base[VINE_BUF_COUNT];
    MPI_Request *reqs;
    MPI_Request *preq;     /* the plan's persistent requests (vine__exec_persist); NULL: none */
    size_t k;              /* the round in progress */
    size_t m, l;           /* the next message (plan) and the next local operation */
    size_t pend, pend_end; /* the previous round's deferred local operations (plan) */
    size_t nreq;           /* round k's requests not yet complete */
    int posted;            /* round k's messages are posted */
} vine_exec_state;

/* Starts c in x (shm: counts the call); returns MPI_SUCCESS or an MPI error class. */
int vine__exec_start(vine_exec_state *x, const vine_exec_call *c, vine_exec_scratch *scr);
/*
 * Advances x: with block 1 until it is done; with 0, as far as it can go
 * without waiting (MPI_Testall, and a flag test before each shared-memory
 * WAIT); with VINE_EXEC_POST, only until the round in progress is posted
 * (what a nonblocking call does before it returns).  *done says whether
 * the call is complete.  Returns MPI_SUCCESS or an MPI error class (the
 * call is then over).
 */
#define VINE_EXEC_POST 2
int vine__exec_progress(vine_exec_state *x, int block, int *done);

/*
 * Copies count elements of t from src to dst (a local copy on the private
 * comm; a derived type goes through a message to self with tag
 * vine__exec_copy_tag(tag) of the call's tag).
 */
int vine__exec_copy(const vine_exec_type *t, const void *src, void *dst, size_t count,
                    MPI_Comm comm, int tag);

void vine__exec_scratch_free(vine_exec_scratch *scr);

/*
 * After vine__exec_start of a call with a plan and no node segment: binds
 * x to p's persistent requests, made (again) when p has none or was made
 * for other buffers, so that x's rounds start them instead of posting new
 * ones.  x runs as before when this fails.  Returns MPI_SUCCESS or an MPI
 * error class.
 */
int vine__exec_persist(vine_exec_state *x, vine_exec_persist *p);
/* Frees p's requests, which must be inactive. */
void vine__exec_persist_free(vine_exec_persist *p);

/* ---- Shared-memory operations (exec_shm.c) ---- */

/* inout = in op inout for count elements of t (MPI_Reduce_local in int pieces). */
int vine__exec_reduce(const vine_exec_type *t, MPI_Op op, const void *in, void *inout,
                      size_t count);
/* Element off of a buffer whose element 0 is at base (base may be MPI_BOTTOM). */
static inline char *vine__exec_elem(const void *base, size_t off, MPI_Aint extent)
{
    return (char *)((uintptr_t)base + (uintptr_t)((MPI_Aint)off * extent));
}

/*
 * Whether op can run without waiting: 0 only for a WAIT whose flag has not
 * arrived (which yields the core first where ranks outnumber cores).
 */
int vine__exec_shm_ready(const vine_exec_call *c, const vine_op *op);
/*
 * Counts a call of the shm schedule s and publishes flag value 0 and the
 * user's buffers; a par schedule also takes its parity slot.
 */
void vine__exec_shm_start(vine_exec_shm *x, const vine_sched *s, const vine_exec_type *t,
                          const void *sendbuf, const void *recvbuf);
/* The base of rank r's parity slot of the current par call for elements of t. */
char *vine__exec_shm_par(const vine_exec_shm *x, int r, const vine_exec_type *t);
/* The base of rank r's eager slot of the current eager call for elements of t. */
char *vine__exec_shm_eag(const vine_exec_shm *x, int r, const vine_exec_type *t);
/*
 * Runs one SET, WAIT, GET or GETRED operation; base holds the rank's own
 * buffers, VINE_BUF_SHM included.  Returns MPI_SUCCESS or an MPI error class.
 */
int vine__exec_shm_op(const vine_exec_call *c, char *const base[], const vine_op *op);
/* The base of rank r's region for elements of t (true lower bound applied). */
char *vine__exec_shm_base(const vine_exec_shm *x, int r, const vine_exec_type *t);
/* One pass of the MPI library's progress engine (an MPI_Iprobe on comm that receives nothing). */
void vine__exec_shm_poke(MPI_Comm comm);
/*
 * Set by the request layer (src/api/request.c): advances vine's other
 * outstanding work (nonblocking and persistent requests) once, without
 * waiting, and returns nonzero when there is any; 0 lets a blocking wait
 * block inside MPI.  A blocking call waits through it, because a peer may be
 * waiting for this rank's next round of a request started earlier (MPI's
 * progress rule).  NULL: none.
 */
typedef int (*vine_exec_others_fn)(void);
extern _Atomic(vine_exec_others_fn) vine__exec_others;
/* Advances the other work once through vine__exec_others: 0 when there is none (or no hook). */
int vine__exec_advance_others(void);

/* The tag of every message of a blocking call on vine's private communicator. */
#define VINE_EXEC_TAG 7
/* The tag of local copies of derived datatypes (a rank sends to itself). */
#define VINE_EXEC_COPY_TAG 8
/*
 * Nonblocking and persistent requests (src/api/request.c) take their tags
 * in turn from [VINE_EXEC_NB_TAG, VINE_EXEC_NB_TAG + VINE_EXEC_NB_TAGS);
 * a request's local copies use its tag + VINE_EXEC_NB_TAGS, all within the
 * 32767 that MPI_TAG_UB is at least.
 */
#define VINE_EXEC_NB_TAG 16
#define VINE_EXEC_NB_TAGS 16000

/* The tag of the local copies of a call with message tag tag. */
static inline int vine__exec_copy_tag(int tag)
{
    return tag == VINE_EXEC_TAG ? VINE_EXEC_COPY_TAG : tag + VINE_EXEC_NB_TAGS;
}

#endif
