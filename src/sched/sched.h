/*
 * Schedule IR: what one rank of a collective does, as data.
 *
 * A schedule is an ordered list of operations on three symbolic buffers (the
 * user's send buffer, the user's receive buffer and scratch space), grouped
 * into rounds.  Offsets and counts are in elements of the collective's
 * datatype; the executor turns them into bytes with the datatype's extent.
 *
 * Semantics of a round, shared by the executor, the verifier and the
 * simulator:
 *   1. all SEND and RECV operations of the round are posted together (receives
 *      first) and run concurrently; a round must not read (SEND) and write
 *      (RECV) overlapping element ranges of the same buffer;
 *   2. when every SEND and RECV of the round has completed, the local
 *      operations of the round (COPY, REDUCE and the shared-memory operations
 *      below) run one after the other, in list order.
 * A round that holds only local operations sends nothing.  Messages
 * between two ranks match in the order they are posted (one tag, MPI's
 * non-overtaking rule), so the k-th SEND from a to b meets the k-th RECV at b
 * from a and both must have the same count.
 *
 * Shared memory (the `shm` family, docs/shm.md).  Ranks that share a node
 * also share a segment: each rank owns a region of it (buffer VINE_BUF_SHM,
 * vine_args.shm_count elements) and one flag, a 64-bit counter that only its
 * owner writes.  Four local operations use them:
 *   SET v          the owner publishes progress v of this call (release):
 *                  everything it did before the SET is visible to whoever
 *                  waits for v.  v >= 1, strictly increasing within a
 *                  schedule, below VINE_SHM_FLAG_MAX.
 *   WAIT peer v    blocks until peer has SET v or more in this call
 *                  (acquire).  v = 0 means: peer has entered this call, so
 *                  it has finished every operation of its previous call on
 *                  this communicator (the executor publishes 0 at the start of
 *                  each call of a schedule with vine_sched.shm set).
 *   GET peer       copies count elements of peer's buffer `buf` (SHM, or SEND
 *                  or RECV when the schedule was built for single copy,
 *                  vine_args.shm_single) at off into this rank's dbuf at doff.
 *   GETRED peer    the same, reduced into dbuf: dst = src op dst (order must
 *                  be VINE_SRC_LEFT; the peer's data is never written).
 * A rank writes only its own buffers.  Readers and writers of a range must be
 * ordered by flags (a writer's SET before the reader's WAIT, and for a reuse
 * the reader's SET, or its next call's start, before the writer's WAIT): the
 * verifier rejects schedules where they are not, across two consecutive
 * calls too.  Peers of shared-memory operations must share the node.
 *
 * Parity slots (buffer VINE_BUF_PAR, docs/shm.md "Parity slots").  Besides
 * its region each rank owns a parity area of two slots that only schedules
 * with vine_sched.par touch.  The executor counts those schedules on the
 * communicator (all ranks agree, as for the call number); the j-th one sees
 * slot j mod 2 as buffer PAR (vine_args.shm_par_count elements).  A par
 * schedule writes its own PAR, SETs, and WAITs for every other rank's SET
 * in the same call before the schedule ends; then the slot it writes was
 * last read two par calls ago, by readers that SET after those reads in the
 * par call in between, which it WAITed for: no entry wait is needed.  The
 * verifier models both slots and checks three calls in a row.
 *
 * Eager slots (buffer VINE_BUF_EAG, docs/shm.md "Eager slots").  Each rank
 * also owns an eager area of two slots that only schedules with
 * vine_sched.eag touch; in the shm call numbered j (the executor's call
 * counter, all ranks agree) buffer EAG is slot j mod 2 (vine_args.
 * shm_par_count elements, the size of a parity slot).  A rank writes its EAG
 * only after WAIT PREV for every other rank: that rank has entered the
 * previous shm call, so it has finished every read of the call before it,
 * the last one that can have used the same slot.  Readers read a writer's
 * EAG after its SET of this call.  No rank waits for another to enter the
 * current call, so a bcast's root or a gather's non-roots leave as soon as
 * their data is in.  The verifier checks three calls in a row.
 *
 * This header is MPI-free: builders, the verifier, the simulator and the tests
 * use it without an MPI library.
 */
#ifndef VINE_SCHED_H
#define VINE_SCHED_H

#include <stddef.h>
#include <stdint.h>

/* Status codes of the MPI-free core; src/api maps them to MPI error classes. */
enum vine_status {
    VINE_OK = 0,
    VINE_ERR_NO_MEM = 1,      /* an allocation failed */
    VINE_ERR_UNSUPPORTED = 2, /* the algorithm's restrictions exclude this case */
    VINE_ERR_INTERNAL = 3     /* a builder produced an inconsistent schedule */
};

/* The symbolic buffers. */
enum vine_buf {
    VINE_BUF_SEND = 0, /* the user's send buffer: read-only */
    VINE_BUF_RECV = 1, /* the user's receive buffer */
    VINE_BUF_TMP = 2,  /* scratch of vine_sched.tmp_count elements */
    VINE_BUF_SHM = 3,  /* this rank's region of the node's shared segment (shm family) */
    VINE_BUF_PAR = 4,  /* this call's parity slot of the rank's parity area (see vine_sched.par) */
    VINE_BUF_EAG = 5,  /* this call's eager slot of the rank's eager area (see vine_sched.eag) */
    VINE_BUF_COUNT = 6
};

enum vine_op_kind {
    VINE_OP_SEND = 0,
    VINE_OP_RECV = 1,
    VINE_OP_COPY = 2,
    VINE_OP_REDUCE = 3,
    VINE_OP_SET = 4,   /* count: the flag value v; peer -1 */
    VINE_OP_WAIT = 5,  /* peer, count: the flag value v; order VINE_WAIT_PREV: see below */
    VINE_OP_GET = 6,   /* peer, buf/off: the peer's range; dbuf/doff: ours */
    VINE_OP_GETRED = 7 /* as GET, reduced into dbuf (order VINE_SRC_LEFT) */
};

/* Flag values of one call lie below this; the executor keeps the call's number above. */
#define VINE_SHM_FLAG_BITS 24
#define VINE_SHM_FLAG_MAX ((size_t)1 << VINE_SHM_FLAG_BITS)

/*
 * A WAIT whose order field is VINE_WAIT_PREV (count 0) waits until the peer
 * has entered the previous shm call on the communicator, so it has finished
 * every operation of the calls before that one (WAIT PREV, for the eager
 * slots).  In the first shm call it passes at once.
 */
#define VINE_WAIT_PREV 1

/* Whether b is one of the node segment's buffers (SHM, PAR, EAG). */
static inline int vine__buf_shared(int b)
{
    return b == VINE_BUF_SHM || b == VINE_BUF_PAR || b == VINE_BUF_EAG;
}

/* Whether op is one of the local operations (run after the round's messages). */
static inline int vine__op_local(int kind)
{
    return kind >= VINE_OP_COPY;
}

/*
 * Operand order of a REDUCE.  With op written as an infix operator:
 *   VINE_SRC_LEFT:  dst = src op dst   (src holds lower ranks' contributions)
 *   VINE_SRC_RIGHT: dst = dst op src   (src holds higher ranks' contributions);
 *                   the source range is clobbered (its contents are undefined
 *                   afterwards), so it may not lie in the send buffer.
 * For a commutative op both give the same value.
 */
enum vine_red_order { VINE_SRC_LEFT = 0, VINE_SRC_RIGHT = 1 };

typedef struct vine_op {
    uint8_t kind;  /* enum vine_op_kind */
    uint8_t buf;   /* SEND/RECV: the buffer; COPY/REDUCE/GET/GETRED: the source buffer */
    uint8_t dbuf;  /* COPY/REDUCE/GET/GETRED: the destination buffer */
    uint8_t order; /* REDUCE, GETRED: enum vine_red_order */
    int peer;      /* SEND/RECV/WAIT/GET/GETRED: the other rank; -1 otherwise */
    size_t off;    /* SEND/RECV: offset; COPY/REDUCE/GET/GETRED: source offset */
    size_t doff;   /* COPY/REDUCE/GET/GETRED: destination offset */
    size_t count;  /* elements; SET/WAIT: the flag value */
} vine_op;

typedef struct vine_sched {
    int p;            /* communicator size */
    int rank;         /* the rank this schedule is for */
    size_t tmp_count; /* scratch elements the schedule needs */
    vine_op *ops;
    size_t nops, ops_cap;
    size_t *round_end; /* round k holds ops [round_end[k-1], round_end[k]) */
    size_t nrounds, rounds_cap;
    int err; /* sticky error (enum vine_status); VINE_OK while all is well */
    /*
     * Set for consumers that look at messages alone (the simulator): COPY and
     * REDUCE operations are not recorded, which makes the schedules of
     * algorithms with O(p) local copies per rank cheap at 100,000 ranks.
     * Such a schedule must not be executed or verified.
     */
    int msgs_only;
    /*
     * A schedule of the shm family: the executor counts the call and
     * publishes flag value 0 before running it.  Every rank of a call must
     * agree (builders set it with vine__sched_shm on every rank, even one
     * with nothing to do).
     */
    int shm;
    /* Shared-memory sub-schedules spliced into this one so far (phase_sub.h). */
    int shm_phases;
    /*
     * Uses the parity slots (VINE_BUF_PAR, par_count elements of them): the
     * executor counts the call among the par calls and maps PAR to slot
     * j mod 2.  Every rank of a call must agree (vine__sched_par).
     */
    int par;
    size_t par_count;
    /*
     * Uses the eager slots (VINE_BUF_EAG, eag_count elements of them): the
     * executor maps EAG to slot j mod 2 in the shm call numbered j.  Every
     * rank of a call must agree (vine__sched_eag).
     */
    int eag;
    size_t eag_count;
    /*
     * Set by vine__sub_run before it builds a sub-schedule: the schedule
     * becomes a phase of another one, so it must not use the parity or eager
     * slots.
     */
    int sub;
    /*
     * Keeps empty rounds: vine__sched_fence closes the open round even when
     * it holds no operation, so round k is the k-th fence on every rank (the
     * parts of vine__sub_zip, phase_sub.h).  Off by default.
     */
    int keep_rounds;
} vine_sched;

void vine__sched_init(vine_sched *s, int p, int rank);
void vine__sched_free(vine_sched *s);
/* Empties s for reuse, keeping its memory. */
void vine__sched_reset(vine_sched *s, int p, int rank);

/*
 * Appending operations.  Operations with count 0 are dropped: both ends of a
 * message compute the same count, so they drop it together.  Allocation
 * failure sets s->err (VINE_ERR_NO_MEM) and later calls do nothing.
 */
void vine__sched_send(vine_sched *s, int peer, int buf, size_t off, size_t count);
void vine__sched_recv(vine_sched *s, int peer, int buf, size_t off, size_t count);
void vine__sched_copy(vine_sched *s, int sbuf, size_t soff, int dbuf, size_t doff, size_t count);
void vine__sched_reduce(vine_sched *s, int sbuf, size_t soff, int dbuf, size_t doff, size_t count,
                        int order);
/* A zero-byte message kept even though its count is 0 (synchronisation). */
void vine__sched_sync_send(vine_sched *s, int peer);
void vine__sched_sync_recv(vine_sched *s, int peer);
/* Shared-memory operations (see the top of this file); GET/GETRED with count 0 are dropped. */
void vine__sched_shm(vine_sched *s);
/* Marks s as a par schedule (and an shm one) that uses n elements of its parity slot. */
void vine__sched_par(vine_sched *s, size_t n);
/* Marks s as an eager schedule (and an shm one) that uses n elements of its eager slot. */
void vine__sched_eag(vine_sched *s, size_t n);
/* WAIT PREV: peer has entered the previous shm call (see VINE_WAIT_PREV). */
void vine__sched_wait_prev(vine_sched *s, int peer);

/*
 * Grows the array *arr of *cap items of size sz (realloc, doubling from 16)
 * so that it holds at least need; *arr and *cap change only on success.
 * Returns VINE_OK or VINE_ERR_NO_MEM.  Shared by the IR, the verifier and
 * the simulator.
 */
int vine__grow(void **arr, size_t *cap, size_t need, size_t sz);
void vine__sched_set(vine_sched *s, size_t v);
void vine__sched_wait(vine_sched *s, int peer, size_t v);
void vine__sched_get(vine_sched *s, int peer, int sbuf, size_t soff, int dbuf, size_t doff,
                     size_t count);
void vine__sched_getred(vine_sched *s, int peer, int sbuf, size_t soff, int dbuf, size_t doff,
                        size_t count);
/* Closes the current round; does nothing when the round is empty, unless s->keep_rounds. */
void vine__sched_fence(vine_sched *s);
/* Declares that the schedule needs at least n scratch elements. */
void vine__sched_need_tmp(vine_sched *s, size_t n);
/* Closes the last round; call once when the builder is done. */
int vine__sched_finish(vine_sched *s);

/*
 * Writes a formatted message into err (errlen bytes; nothing when err is
 * NULL or errlen 0) and returns VINE_ERR_UNSUPPORTED: the one error
 * formatter of the MPI-free parsers and checks.
 */
int vine__errmsg(char *err, size_t errlen, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Operations of round k: [*begin, *end). */
static inline void vine__sched_round(const vine_sched *s, size_t k, size_t *begin, size_t *end)
{
    *begin = k ? s->round_end[k - 1] : 0;
    *end = s->round_end[k];
}

/* Writes a human-readable listing of s to a malloc'd string (NULL on failure). */
char *vine__sched_dump(const vine_sched *s);

#endif
