/*
 * Internal interface of the MPI API layer: per-communicator state, the
 * schedule cache and the algorithm choice.
 */
#ifndef VINE_API_H
#define VINE_API_H

#include "../coll/coll.h"
#include "../sched/exec.h"

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

/* Room for what level discovery says about a communicator. */
#define VINE_LEVELS_MSG_MAX 512

/* Built schedules kept per communicator; the least recently used one goes first. */
#define VINE_CACHE_SIZE 64

/* What identifies a built schedule on one communicator (p and rank are fixed). */
typedef struct vine_key {
    vine_coll coll;
    int root;
    int inplace;
    int commutative;
    const vine_algo *req; /* the algorithm asked for; NULL for auto */
    size_t type_size;     /* auto's choice depends on the payload in bytes */
    size_t count;
    size_t seg_count;
    const size_t *counts; /* reduce_scatter: p entries; the v collectives: their tables */
    size_t ncounts;       /* entries of counts */
    unsigned tuning_gen;  /* auto's choice depends on the tuning file in use */
    size_t shm_count;     /* the shm family's region in elements (depends on the extent) */
    int shm_single;
    size_t shm_node_count;
    size_t shm_par_count; /* elements of a parity slot (depends on the extent) */
} vine_key;

typedef struct vine_cache_entry {
    vine_key key; /* key.counts is owned by the entry */
    uint64_t stamp;
    int used;
    const vine_algo *served; /* the algorithm that built sched */
    vine_sched sched;
    size_t max_reqs;
    vine_exec_plan plan;
    int has_plan;
    int pins; /* requests that run sched (request.c): never evicted while pinned */
    int heap; /* allocated alone because every slot was pinned: freed by its last unpin */
} vine_cache_entry;

/* Scratch of the data-movement collectives: packed input and output bytes. */
enum { VINE_PACK_IN = 0, VINE_PACK_OUT = 1, VINE_PACK_COUNT = 2 };

/*
 * The previous call on a communicator, kept when a repeat of it needs none of
 * the checks: its datatypes and op are predefined (their handles never change
 * meaning) and vine_set_algorithm() has not been called since (gen).  A
 * repeat with the same collective, datatypes, op, counts, root and in-place
 * choice runs the same cached schedule (or the same MPI library call) on the
 * new buffers.  The data-movement collectives with two sides (allgather,
 * alltoall, gather, scatter) keep the send side in dt and count and the
 * receive side in dt2 and count2; reduce_scatter's counts are the cache
 * entry's own (e->key.counts).
 */
typedef struct vine_memo {
    int valid;
    vine_coll coll;
    MPI_Datatype dt, dt2;
    MPI_Op op;
    size_t count, count2;
    int root, inplace;
    unsigned gen;
    struct vine_cache_entry *e;
    vine_exec_type xt; /* the type the schedule runs on (bytes for the data-movement calls) */
    int commutative;
} vine_memo;

/*
 * The previous irregular collective (allgatherv, alltoallv, alltoallw,
 * gatherv, scatterv) on a communicator that a repeat may run without the
 * checks (coll_v.c), kept apart from memo so that other collectives between
 * two repeats do not evict it.  Like memo it qualifies only with predefined
 * datatypes used in place (or the MPI library's collective) and the same
 * algorithm choice (gen); a repeat also passes equal count and displacement
 * tables (and alltoallw's types): their values, copied into tab, are
 * compared, not their addresses.  e is the cached schedule it runs on bytes;
 * lo the offsets of the lowest blocks of the sides in the user's buffers.
 */
#ifndef VINE_VMEMO_INLINE /* bytes of tables kept without an allocation (lower: tests the heap) */
#define VINE_VMEMO_INLINE 3072
#endif
typedef struct vine_vmemo {
    int valid;
    vine_coll coll;
    int root, inplace;
    unsigned gen;
    MPI_Datatype sdt, rdt; /* the types of the one-type sides (MPI_DATATYPE_NULL: not used) */
    MPI_Count scount;      /* the one-block side's count (allgatherv, gatherv, scatterv) */
    MPI_Aint slo, rlo;
    struct vine_cache_entry *e;
    size_t bytes;        /* of the tables kept */
    unsigned char *heap; /* when they exceed in */
    size_t heap_bytes;
    unsigned char in[VINE_VMEMO_INLINE];
} vine_vmemo;

/* Room for what the shared-memory set-up says about a communicator. */
#define VINE_SHM_MSG_MAX 160

/*
 * The node segment of a communicator (shm.c, docs/shm.md): made with the
 * state, by MPI_Win_allocate_shared on the ranks of each node, and freed
 * with it.  ok and all are the same on every rank.
 */
typedef struct vine_shm_state {
    int ok;       /* every rank of the communicator has its node's segment */
    int all;      /* ... and all p ranks share one node (the flat shm family applies) */
    int nodes;    /* ... and each group of level 0 of the level map lies in one segment */
    size_t bytes; /* each rank's region */
    size_t held;  /* this rank's part, counted against VINE_SHM_MAX while the segment lives */
    MPI_Comm node;
    MPI_Win win;
    int locked; /* win is in a passive-target epoch (MPI_Win_lock_all) */
    vine_exec_shm x;
    char msg[VINE_SHM_MSG_MAX]; /* what set-up found, for VINE_VERBOSE */
} vine_shm_state;

/*
 * A persistent request's own node segment (shm.c, vine__shm_own_take): a
 * window like the communicator's (full), or without its region for
 * schedules that use only the flags and slots, which one request of this
 * rank holds at a time (busy).
 */
typedef struct vine_shm_own {
    vine_shm_state sh;
    int full;
    atomic_int busy;
} vine_shm_own;
/* The most own segments of one communicator. */
#define VINE_SHM_OWN_MAX 64

typedef struct vine_comm_state {
    MPI_Comm user; /* the user's communicator, which holds this state */
    MPI_Comm comm; /* vine's private copy of it: messages never match the user's */
    int p, rank;
    size_t *counts, *displs; /* p and p + 1 entries for reduce_scatter(_block) */
    vine_exec_scratch scr;
    void *pack[VINE_PACK_COUNT];
    size_t pack_bytes[VINE_PACK_COUNT];
    vine_cache_entry cache[VINE_CACHE_SIZE];
    vine_cache_entry spare; /* a blocking call's schedule when every entry is pinned */
    int mru;
    uint64_t clock;
    vine_memo memo;
    /* The last datatype and predefined op a reduction checked (call.c, under vine__mt). */
    MPI_Datatype op_dt;
    MPI_Op op_op;
    /*
     * The levels of locality found when the state was made (levels_mpi.h):
     * levels_rc is MPI_SUCCESS with a finished map (flat when nothing is
     * known), or the error every collective on the communicator returns
     * (an unusable VINE_TOPOLOGY), levels_msg what discovery said.
     */
    vine_levels levels;
    /* The full map when levels lie inside the nodes (VINE_NODE_LEVELS), else empty. */
    vine_levels levels_full;
    int levels_rc;
    char levels_msg[VINE_LEVELS_MSG_MAX];
    vine_shm_state shm;
    /* The MPI library refused the private communicator (or the levels' node
     * communicator): every collective on the communicator is its (comm.c). */
    int mpi_only;
    /*
     * Requests (request.c): nb_seq numbers the requests made on the
     * communicator, which take their tags from it; shm requests take
     * tickets in start order and run one at a time, in ticket order
     * (shm_done is the ticket whose turn it is); nreqs requests point at
     * this state, which outlives the communicator (orphan: without its
     * private communicator and segment) until the last is freed.
     */
    unsigned nb_seq;
    /* Persistent requests' messages go on pcomm (a second private copy, made
     * at the first of them), their tags numbered by p_seq (request.c). */
    MPI_Comm pcomm;
    unsigned p_seq;
    uint64_t shm_tickets;
    _Atomic uint64_t shm_done; /* read by blocking calls beside the progress thread */
    int nreqs;
    int nactive;     /* requests on it started and not yet finished */
    int nactive_mpi; /* of them, served by the MPI library's own (mpi) */
    int orphan;
    /* Persistent requests' own segments, nown of them (taken in _init order:
     * the same on every rank); an entry MPI_Comm_free freed is NULL. */
    vine_shm_own **own;
    int nown;
    struct vine_comm_state *prev, *next;
    vine_vmemo vmemo; /* last: it is large, and the hot fields above keep their places */
} vine_comm_state;

/*
 * Checks comm (MPI_ERR_COMM for MPI_COMM_NULL and intercommunicators) and
 * returns its size and rank, and vine's state for it when there is one
 * already (*st NULL otherwise).  Communicates with nobody.
 */
int vine__comm_lookup(MPI_Comm comm, vine_comm_state **st, int *p, int *rank);
/*
 * vine's state for comm, created on first use (collective: duplicates comm
 * and discovers its levels).  A state whose discovery failed is kept, with
 * the error in levels_rc, so that every later call fails alike without
 * communicating.  When the MPI library refuses the communicators the state
 * needs (MPICH runs out of context IDs), the state is mpi_only: every call
 * goes to the MPI library (vine__call_attach).
 */
int vine__comm_state(MPI_Comm comm, vine_comm_state **st);
/*
 * Marks comm, which has no state, as having requests that vine left to the
 * MPI library (vine__call_attach): freeing it finishes them first.  Local.
 */
int vine__comm_mark_early(MPI_Comm comm);
/*
 * The state of the communicator used last (NULL when none): the hot path's
 * shortcut.  Never set under MPI_THREAD_MULTIPLE (vine__mt), where another
 * thread's communicator may be freed under it.
 */
extern vine_comm_state *vine__last_state;
/* Bumped by vine_set_algorithm(): a remembered call may no longer choose the same way. */
extern _Atomic unsigned vine__choice_gen;
/* Bumped whenever the tuning file in use changes: schedules auto built before are stale. */
extern _Atomic unsigned vine__tuning_gen;

/*
 * Threads (threads.c): whether MPI provides MPI_THREAD_MULTIPLE (asked once;
 * 1 until MPI_Init, so also under the sessions model alone; always 0 in the
 * VINE_NO_THREADS build), and the process-wide lock of the
 * slow paths, taken only then and never across communication.
 */
int vine__mt(void);
void vine__lock(void);
void vine__unlock(void);
/*
 * Whether MPI's world model is up (MPI_Init done, MPI_Finalize not): only
 * then do MPI_COMM_WORLD and MPI_COMM_SELF exist.  A program of the MPI 4
 * sessions model alone (MPI_Session_init, MPI_Comm_create_from_group) has
 * neither, and any use of them aborts (comm.c).
 */
int vine__world_up(void);
/* Whether this process says what is said once per job: rank 0 of
 * MPI_COMM_WORLD, or every process under the sessions model alone. */
int vine__world_speaker(void);

/*
 * Reduction ops (ops.c).  The predefined ones that apply to collectives
 * (all commutative: no need to ask MPI).  A request holds a user-defined op
 * it will apply later, so that vine_op_free (MPI_Op_free in libvine-mpi)
 * leaves it to the request: vine__op_hold returns 1 when it took a
 * reference (a user-defined op, memory permitting), which vine__op_drop
 * gives back, freeing an op the program has freed with the last one.
 */
int vine__op_is_predefined(MPI_Op op);
int vine__op_hold(MPI_Op op);
void vine__op_drop(MPI_Op op);

/* The cached entry for k, or NULL. */
vine_cache_entry *vine__cache_find(vine_comm_state *st, const vine_key *k);
/*
 * A fresh entry for k (evicting the least recently used one that is not
 * pinned); pin: a request will pin it.  NULL when out of memory.
 */
vine_cache_entry *vine__cache_add(vine_comm_state *st, const vine_key *k, int pin);
/* Forgets an entry whose schedule could not be built. */
void vine__cache_drop(vine_cache_entry *e);
/* A request runs e's schedule from now on / no longer. */
void vine__cache_pin(vine_cache_entry *e);
void vine__cache_unpin(vine_cache_entry *e);
void vine__cache_clear(vine_comm_state *st);

/*
 * The algorithm requested for coll (vine_set_algorithm, else the
 * environment); *req NULL means auto.  MPI_ERR_ARG when the environment
 * names an unknown algorithm.
 */
int vine__choose_requested(vine_coll coll, const vine_algo **req);
/*
 * VINE_REMAP set (to anything but empty or "0"): flat bcast, reduce,
 * allreduce and barrier algorithms run on the ranks in block order of the
 * communicator's levels (coll.h, vine__remap_applies).  Read once, so that
 * cached schedules never disagree with it.
 */
int vine__choose_remap(void);
/*
 * Reads VINE_SEGMENT_SIZE on the first call; MPI_ERR_ARG (on every call) when
 * it is malformed and vine_set_segment_size() has not overridden it.
 */
int vine__choose_seg_env(void);
/* The segment size in elements of type_size bytes (0: no segmentation),
 * after vine__choose_seg_env(). */
size_t vine__choose_seg_count(size_t type_size);
/* VINE_INPLACE_BYTES (default 64 MiB), read once: the most scratch an
 * in-place alltoall takes (coll_move.c); MPI_ERR_ARG when malformed or 0. */
int vine__choose_inplace_bytes(size_t *bytes);
/*
 * Builds the schedule of a into s: req if it admits a and builds, else
 * auto's choice, else the collective's default.  Returns an MPI error class.
 */
int vine__choose_build(const vine_args *a, const vine_algo *req, size_t type_size, vine_sched *s,
                       const vine_algo **served);
/*
 * Reads the tuning file on the first call (VINE_TUNING_FILE, else the
 * default location; docs/tuning.md); MPI_ERR_OTHER on every call when it is
 * unusable, MPI_SUCCESS otherwise (also when there is none).
 */
int vine__choose_tuning_check(void);
/*
 * The first line of the MPI library's version string, trailing spaces cut,
 * into buf (len > 0 bytes): what tuning files record as "mpi_library".
 */
void vine__mpi_library_line(char *buf, size_t len);
/* Under VINE_VERBOSE: warns when the tuning file's ranks per node differ from node_ranks. */
void vine__choose_tuning_node(int node_ranks);
/* Records the algorithm that served the latest call of coll. */
void vine__choose_note(vine_coll coll, const vine_algo *served);

/* The MPI error class for an enum vine_status. */
int vine__status_to_mpi(int status);

/*
 * VINE_VERBOSE: says once per collective and communicator, on the
 * communicator's rank 0, which algorithm served it (algo NULL: the call had
 * nothing to move).  Does nothing unless VINE_VERBOSE is set.
 */
void vine__say_served(MPI_Comm comm, int rank, int p, vine_coll coll, const char *algo);
/*
 * The same for a nonblocking call that the MPI library served because the
 * communicator had no state yet (vine__call_attach): once per collective and
 * communicator, apart from the line of the calls after the state.
 */
void vine__say_early(MPI_Comm comm, int rank, int p, vine_coll coll);
/*
 * The name VINE_VERBOSE gives comm: its MPI name, or "communicator #N",
 * numbered in order of first mention (the same number in every line, those
 * of libvine-mpi too).
 */
void vine__say_comm_name(MPI_Comm comm, char *name, int size);
/* Frees the keyval of what was said, at MPI_Finalize as comm.c frees its own. */
void vine__say_release(void);
/* Whether VINE_VERBOSE is set (read once). */
int vine__verbose(void);

/* ---- The node segment (shm.c) ---- */

/* Makes st's node segment; collective over st->comm.  Never fails: without one, shm.ok is 0. */
void vine__shm_setup(vine_comm_state *st);
/* Frees it (collective over the node, as MPI_Comm_free of the communicator is). */
void vine__shm_free(vine_comm_state *st, int mpi_ok);
/* vine_shm_sync_progress's count: above 0, a call on the segment ends with vine__exec_shm_poke. */
extern atomic_int vine__shm_sync_count;
/* vine_args.shm_count for elements of t on st (0: the flat shm family does not apply). */
size_t vine__shm_count(const vine_comm_state *st, const vine_exec_type *t);
/* vine_args.shm_par_count: elements of t in a slot of the parity area (0 without shm_count). */
size_t vine__shm_par_count(const vine_comm_state *st, const vine_exec_type *t);
/* vine_args.shm_node_count: the same wherever every node has its segment. */
size_t vine__shm_node_count(const vine_comm_state *st, const vine_exec_type *t);
/* The segment for the executor, or NULL. */
static inline vine_exec_shm *vine__shm_exec(vine_comm_state *st)
{
    return st->shm.ok ? &st->shm.x : NULL;
}

/*
 * Persistent requests' own segments (shm.c).  vine__shm_own_take (collective
 * over st->comm, in a persistent _init) returns the index of a segment this
 * rank's request now holds, one that every rank's earlier holder has given
 * back or a new one, with the region of st's segment where any rank's
 * schedule uses it (region), or -1 where st has no segment or none can be
 * made; vine__shm_own_give gives it back (local).  vine__shm_own_release, in
 * MPI_Comm_free (collective), frees those that no rank holds, and
 * vine__shm_own_drop forgets the rest as the state goes.
 */
int vine__shm_own_take(vine_comm_state *st, int region);
void vine__shm_own_give(vine_comm_state *st, int i);
vine_exec_shm *vine__shm_own_exec(vine_comm_state *st, int i);
void vine__shm_own_release(vine_comm_state *st);
void vine__shm_own_drop(vine_comm_state *st);

/* Releases st once its communicator is freed and no request points at it (comm.c). */
void vine__comm_release(vine_comm_state *st);

/* ---- One collective call (call.c) ---- */

struct vine_nbreq;

/* A call in flight: the builder's arguments and what the executor needs. */
typedef struct vine_call {
    vine_comm_state *st; /* NULL until the first call on the communicator */
    MPI_Comm comm;       /* the user's communicator */
    vine_args a;
    vine_exec_type t;
    MPI_Op op;
    const void *sendbuf;
    void *recvbuf;
    const vine_algo *req;
    vine_cache_entry *e; /* the schedule that ran (set by vine__call_run) */
    /*
     * A nonblocking or persistent call: the request it fills (request.c).
     * Then vine__call_exec records the run instead of running, packing and
     * unpacking are recorded too (vine__nb_scratch, vine__nb_pack,
     * vine__nb_unpack), the MPI library's collective is left to the request
     * (vine__nb_mpi) and the call is not remembered.  NULL: a blocking call.
     */
    struct vine_nbreq *nb;
    /* The v collectives: their tables, one after the other, for the cache key (coll_v.c). */
    const size_t *vkey;
    size_t nvkey;
    /*
     * Set before vine__call_attach by the collectives whose "mpi" takes int
     * counts (the reductions' count is c->a.count): some count or
     * displacement of this rank's exceeds what the MPI library's classic
     * interface takes.
     */
    int big;
} vine_call;

/* Starts c for coll on comm: MPI_ERR_COMM for MPI_COMM_NULL or an intercommunicator. */
int vine__call_start(vine_call *c, vine_coll coll, MPI_Comm comm);
/* MPI_ERR_COUNT for count < 0, MPI_ERR_TYPE for MPI_DATATYPE_NULL or a type MPI rejects. */
int vine__call_check_type(MPI_Count count, MPI_Datatype dt, vine_exec_type *t);
/* MPI_ERR_BUFFER for NULL holding count > 0 elements of a predefined type. */
int vine__call_check_buf(const void *buf, size_t count, const vine_exec_type *t);
/* Checks op (MPI_ERR_OP) against c->t and records it and its commutativity. */
int vine__call_check_op(vine_call *c, MPI_Op op);
/* MPI_ERR_ARG when the environment names an unknown algorithm of the collective. */
int vine__call_check_request(vine_call *c);
/*
 * vine's state for the communicator, created by the first call that
 * communicates; but a nonblocking call on a communicator without a state
 * leaves c->st NULL and c->e the MPI library's algorithm (see call.c).
 */
int vine__call_attach(vine_call *c);
/*
 * Finds or builds the call's cached schedule (after vine__call_attach) and
 * sets c->e; then either vine__call_exec runs it, or, when vine__call_to_mpi
 * says the MPI library's collective serves the call, the caller hands the
 * user's own arguments to PMPI (coll_mpi.c) and passes the result to
 * vine__call_mpi_done.
 */
int vine__call_plan(vine_call *c);
int vine__call_exec(vine_call *c);
static inline int vine__call_to_mpi(const vine_call *c)
{
    return (c->e->served->flags & VINE_ALGO_MPI) != 0;
}
/* Records (and says under VINE_VERBOSE) that "mpi" served c when rc is MPI_SUCCESS; returns rc. */
int vine__call_mpi_done(const vine_call *c, int rc);
/* vine__call_plan, then vine__call_exec (for collectives that never reach the MPI one here). */
int vine__call_run(vine_call *c);
/*
 * After a successful vine__call_run: remembers c on its communicator when it
 * qualifies (see vine_memo); user_t is the user's datatype, count, root and
 * inplace the call's own arguments.
 */
void vine__call_memo_keep(const vine_call *c, const vine_exec_type *user_t, size_t count, int root,
                          int inplace);
/*
 * The same for a call with a send and a receive side: send type st and
 * count, receive type rt and count (NULL types where the side is
 * MPI_IN_PLACE or not significant on this rank: then dt or dt2 is
 * MPI_DATATYPE_NULL and the count is kept as given).
 */
void vine__call_memo_keep2(const vine_call *c, const vine_exec_type *st, size_t scount,
                           const vine_exec_type *rt, size_t rcount, int root, int inplace);
/* Whether a call on st repeats the remembered one. */
static inline int vine__call_memo_hit(const vine_comm_state *st, vine_coll coll, MPI_Datatype dt,
                                      MPI_Op op, MPI_Count count, int root, int inplace)
{
    const vine_memo *m = &st->memo;
    return m->valid && m->coll == coll && m->dt == dt && m->op == op && count > 0 &&
           (size_t)count == m->count && m->root == root && m->inplace == inplace &&
           m->gen == vine__choice_gen;
}
/*
 * The same for a call with two sides.  A side the call does not use on this
 * rank (kept as MPI_DATATYPE_NULL) matches whatever the repeat passes there.
 */
static inline int vine__call_memo_hit2(const vine_comm_state *st, vine_coll coll,
                                       MPI_Datatype sdt, MPI_Count scount, MPI_Datatype rdt,
                                       MPI_Count rcount, int root, int inplace)
{
    const vine_memo *m = &st->memo;
    return m->valid && m->coll == coll && m->root == root && m->inplace == inplace &&
           m->gen == vine__choice_gen &&
           (m->dt == MPI_DATATYPE_NULL || (m->dt == sdt && (size_t)scount == m->count &&
                                           scount >= 0)) &&
           (m->dt2 == MPI_DATATYPE_NULL || (m->dt2 == rdt && (size_t)rcount == m->count2 &&
                                            rcount >= 0));
}
/* Whether the remembered call of st goes to the MPI library's collective. */
static inline int vine__call_memo_mpi(const vine_comm_state *st)
{
    return (st->memo.e->served->flags & VINE_ALGO_MPI) != 0;
}
/* Records that the remembered call of st served a repeat when rc is MPI_SUCCESS; returns rc. */
int vine__call_memo_done(const vine_comm_state *st, int rc);
/* Runs the remembered call of st on new buffers (NULL where the call has none). */
int vine__call_memo_run(vine_comm_state *st, const void *sendbuf, void *recvbuf);

/*
 * Runs the remembered irregular call of st (vine_vmemo) on the bytes at
 * sendbuf and recvbuf (NULL where the call has none) / records that it
 * served a repeat when rc is MPI_SUCCESS, returning rc.
 */
int vine__call_vmemo_run(vine_comm_state *st, const void *sendbuf, void *recvbuf);
int vine__call_vmemo_done(const vine_comm_state *st, int rc);

/*
 * The remembered call of st (see vine_memo) by the MPI library's collective
 * with the memo's datatype, op, count and root on the user's communicator
 * (coll_mpi.c): bcast, reduce, allreduce and reduce_scatter_block.  The
 * others' entry points hand a repeat's own arguments to PMPI_<Coll> and
 * report it with vine__call_memo_done.
 */
int vine__mpi_memo(const vine_comm_state *st, const void *sendbuf, void *recvbuf);
/* PMPI_Reduce_scatter with the int counts ic, or counts (p entries) made ints. */
int vine__mpi_reduce_scatter(const void *sendbuf, void *recvbuf, const int *ic,
                             const size_t *counts, MPI_Datatype dt, MPI_Op op, MPI_Comm comm);

/* A call with nothing to move: says so under VINE_VERBOSE and succeeds. */
int vine__call_none(const vine_call *c);
/* count * size in size_t, or MPI_ERR_COUNT when it does not fit. */
int vine__call_bytes(size_t count, MPI_Count size, size_t *bytes);

/* ---- The byte path of the data-movement collectives (pack.c) ---- */

/*
 * count elements of dt at buf, seen as bytes.  A predefined type whose size
 * equals its extent is used in place (raw); any other type is packed into
 * scratch (MPI_Pack) before the schedule runs and unpacked after it, once.
 */
typedef struct vine_side {
    void *buf;
    MPI_Datatype dt;
    size_t count;
    size_t bytes;
    MPI_Aint extent;
    int raw;
} vine_side;

void vine__side_init(vine_side *s, const void *buf, size_t count, const vine_exec_type *t);
/* Scratch number `which` (VINE_PACK_IN/OUT) of at least bytes bytes. */
int vine__pack_scratch(vine_comm_state *st, int which, size_t bytes, char **out);
/* The error class of an MPI error code rc (MPI_ERR_OTHER when MPI cannot say). */
int vine__err_class(int rc);
/* Writes the bytes of s into dst (packing when not raw). */
int vine__side_pack(const vine_side *s, char *dst, MPI_Comm comm);
/* Reads the bytes of s from src into the user's buffer (unpacking). */
int vine__side_unpack(const vine_side *s, const char *src, MPI_Comm comm);
/* Packing scratch number which (VINE_PACK_IN/OUT) of c: the communicator's, or its request's own.
 */
int vine__call_scratch(vine_call *c, int which, size_t bytes, char **out);
/* Packs s into dst: now, or, for a request, at each start. */
int vine__call_pack(vine_call *c, const vine_side *s, char *dst);
/* The byte type the data-movement schedules run on. */
const vine_exec_type *vine__byte_type(void);


/* ---- Nonblocking and persistent requests (request.c) ---- */

/*
 * The user's arguments of a nonblocking or persistent call, kept for the
 * MPI library's nonblocking collective when "mpi" serves it: bcast's buffer
 * and count are the receive side; the reductions' count is scount; counts
 * (reduce_scatter) one of icounts or ccounts.
 */
typedef struct vine_nb_args {
    vine_coll coll;
    const void *sendbuf;
    void *recvbuf;
    MPI_Count scount, rcount;
    MPI_Datatype stype, rtype;
    MPI_Op op;
    int root;
    MPI_Comm comm;
    const int *icounts;
    const MPI_Count *ccounts;
} vine_nb_args;

/*
 * A nonblocking (persistent 0) or persistent call with arguments a: *r gets
 * the request to pass to the collective's implementation as its call's nb
 * (NULL on failure: the error is returned).  *request is MPI_REQUEST_NULL
 * until vine__nb_end.
 */
int vine__nb_begin(struct vine_nbreq **r, const vine_nb_args *a, int persistent,
                   MPI_Request *request);
/*
 * Ends the call: with rc MPI_SUCCESS makes the MPI request and (nonblocking)
 * starts it; otherwise frees r.  Returns the call's error class.
 */
int vine__nb_end(struct vine_nbreq *r, int rc, MPI_Request *request);
/* Records the run of c's planned schedule in c->nb (vine__call_exec). */
int vine__nb_launch(vine_call *c);
/*
 * Whether r may not run on its communicator's node segment: a persistent
 * request, which MPI 4 lets the ranks start in different orders, unless
 * VINE_PERSISTENT_SHM promises one order (docs/api.md); such a request may
 * take a segment of its own (vine__nb_own).
 */
int vine__nb_off_segment(const struct vine_nbreq *r);
/* r, persistent, holds own segment i of st (vine__shm_own_take) until it is freed. */
void vine__nb_own(struct vine_nbreq *r, vine_comm_state *st, int i);
/* Whether r is a persistent request. */
int vine__nb_persistent(const struct vine_nbreq *r);
/* Leaves c to the MPI library's nonblocking collective, started with the request. */
int vine__nb_mpi(vine_call *c);
/*
 * One side (count elements of dt) of a call to the MPI library's classic
 * interface, whose counts are ints: n elements of dt itself when count fits,
 * else one element of own, a datatype of count elements of dt with their
 * bounds, so that block j of a side of several blocks still starts j *
 * count elements in.  So the data-movement collectives' "mpi" takes any
 * count (VINE_ALGO_ANY_COUNT).
 */
typedef struct vine_mpi_side {
    int n;
    MPI_Datatype dt;
    MPI_Datatype own; /* MPI_DATATYPE_NULL unless made here */
} vine_mpi_side;

/* Fills s for count elements of dt; a side MPI ignores (used 0) is passed on as it is. */
int vine__mpi_side(vine_mpi_side *s, MPI_Count count, MPI_Datatype dt, int used);
void vine__mpi_side_free(vine_mpi_side *s);
/*
 * The MPI library's bcast, allgather, alltoall, gather or scatter on a's
 * arguments, on this rank of a->comm: started into *q, or blocking when q is
 * NULL.  A count above INT_MAX goes as one element of a datatype made for it
 * (vine__mpi_side); *wrapped (when not NULL) says whether one was.
 */
int vine__mpi_move(const vine_nb_args *a, int rank, MPI_Request *q, int *wrapped);
/*
 * Which datatype arguments of a's call MPI reads on this rank (rank): the
 * others may be anything (MPI_IN_PLACE sides, gather's receive side and
 * scatter's send side off the root).
 */
void vine__nb_significant(const vine_nb_args *a, int rank, int *send, int *recv);
/*
 * vine__nb_mpi for an irregular collective: its int tables for the MPI
 * library, send side [0] and receive side [1] (NULL where the call has
 * none), and alltoallw's types (NULL for the others), copied into the request.
 */
int vine__nb_mpi_v(vine_call *c, const int *const counts[2], const int *const displs[2],
                   const MPI_Datatype *const types[2]);
/* The request's own packing scratch number which (VINE_PACK_IN/OUT). */
int vine__nb_scratch(struct vine_nbreq *r, int which, size_t bytes, char **out);
/* Packs s into dst when the request starts / unpacks it from src when it completes. */
int vine__nb_pack(struct vine_nbreq *r, const vine_side *s, char *dst);
int vine__nb_unpack(struct vine_nbreq *r, const vine_side *s, const char *src);
/* Advances every outstanding request until st's shm requests are all done. */
void vine__nb_drain_shm(vine_comm_state *st);
/* Advances every outstanding request until none of st's is running. */
void vine__nb_drain_comm(vine_comm_state *st);
/* The same for the requests without a state on comm (vine__comm_mark_early). */
void vine__nb_drain_early(MPI_Comm comm);
/* Stops and joins the progress thread (VINE_PROGRESS_THREAD), at MPI_Finalize. */
void vine__nb_finalize(void);

#endif
