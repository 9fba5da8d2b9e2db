/*
 * Nonblocking and persistent collectives (include/vine.h, docs/api.md):
 * requests, their progress, and the completion functions.
 *
 * A request is the cached schedule of its call (pinned in the cache, so it
 * is never evicted while the request exists), run by the executor's state
 * machine (exec.h) with the request's own scratch and tag; or, where "mpi"
 * serves the call, the MPI library's own nonblocking collective.  The
 * handle the program holds is an MPI generalized request, found again
 * through a hash table of vine's handles; every other MPI_Request goes to
 * the MPI library.
 *
 * Progress: every completion function (and vine_progress) advances every
 * outstanding request, in start order, as far as it goes without waiting,
 * as MPI advances all its operations inside any completion call; a blocking
 * collective's waits do the same while requests are outstanding
 * (vine__exec_others, advance_others).  Requests
 * of one communicator never match each other's messages: each has its own
 * tag (exec.h, VINE_EXEC_NB_TAG), taken in call order, which is the same on
 * every rank.  Schedules of the shm family share the node segment and its
 * flags: they run one at a time per communicator, in start order (tickets),
 * and a blocking call of the family first lets the earlier ones finish.
 * A persistent one runs on a segment of its own instead (vine__nb_own),
 * with no ticket: MPI 4 lets the ranks start persistent requests in
 * different orders.
 *
 * VINE_PROGRESS_THREAD=1 (with MPI_THREAD_MULTIPLE) adds a thread that
 * advances the outstanding requests while the program computes.  Under
 * MPI_THREAD_MULTIPLE (vine__mt), thread or not, one mutex guards the
 * requests, their list and the handle table, taken by every function here
 * (and by the thread for each pass); no function here blocks while it
 * holds it, so that the program's threads, each waiting for its own
 * requests, keep everybody's moving.
 */
#include "api.h"
#include "vine.h"

#include <limits.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sched.h>

#ifndef VINE_NO_THREADS
#include <pthread.h>
#include <time.h>
#endif

typedef struct vine_nbreq {
    MPI_Request handle; /* the generalized request the program holds */
    int persistent;
    int active; /* started and not yet completed by a completion function */
    int done;   /* finished: rc is its outcome */
    int rc;
    int in_table;        /* its handle is in the table */
    int op_held;         /* holds a.op (vine__op_hold) */
    vine_comm_state *st; /* NULL for a call with nothing to move, and for mpi without a state */
    int rank;            /* this rank in the communicator (mpi) */
    vine_nb_args a;
    int *icounts; /* reduce_scatter's counts for the MPI library (p entries) */
    /* The irregular collectives' int tables for the MPI library (vine__nb_mpi_v):
     * send side [0], receive side [1], NULL where the call has none; alltoallw's
     * types (p per side, the derived ones duplicates that the request frees). */
    int *vtab;
    const int *vcnt[2], *vdsp[2];
    MPI_Datatype *vtypes;
    int nvtypes;
    /* The MPI library's collective. */
    int mpi;
    MPI_Request mreq;
    /* vine's schedule. */
    vine_cache_entry *e;
    vine_exec_type t;
    MPI_Op op;
    int commutative;
    const void *sendbuf;
    void *recvbuf;
    int tag;
    unsigned seq;  /* a nonblocking request's number on st (st->nb_seq when it was made) */
    MPI_Comm comm; /* of its messages: st's private communicator, or pcomm (take_tag) */
    int shm;       /* the schedule uses the node segment */
    int own;       /* ... a persistent request's own one, st->own[own - 1] (0: st's) */
    int ticketed; /* this start holds ticket */
    uint64_t ticket;
    int started; /* the executor has started this start */
    vine_exec_scratch scr;
    vine_exec_state x;
    vine_exec_persist pp; /* a persistent request's messages as persistent requests */
    /* Packing of derived datatypes, done at each start and completion. */
    int has_pack, has_unpack;
    vine_side pack, unpack;
    char *pack_dst;
    const char *unpack_src;
    char *mem[VINE_PACK_COUNT];
    size_t mem_bytes[VINE_PACK_COUNT];
    MPI_Datatype own_types[2];      /* duplicates of derived datatypes the request uses */
    struct vine_nbreq *prev, *next; /* the list of outstanding requests */
    int dead;                       /* MPI has freed its handle: released at the next bury() */
    struct vine_nbreq *grave;
} vine_nbreq;

/* The outstanding requests (active and not done), in start order.  The
 * count is atomic so that the idle progress thread can look at it without
 * the lock. */
static vine_nbreq *first, *last;
static atomic_size_t outstanding;
/* Whether this thread is inside a PMPI_Wait or PMPI_Test of an mpi request
 * (vine__nb_drain_comm). */
static _Thread_local int in_mpi_completion;
/* How deep this thread is in the functions here (enter/leave): a blocking
 * wait inside them must not advance the requests again (advance_others). */
static _Thread_local int in_requests;

/* ---- The progress thread ---- */

#ifndef VINE_NO_THREADS
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_int threaded; /* set before the thread starts, cleared after it is joined */
static pthread_t thread;
static atomic_int stop;
static pthread_cond_t wake = PTHREAD_COND_INITIALIZER; /* wakes the sleeping thread */
static int sleeping;                                   /* the thread waits on wake (under lock) */
static int wake_due; /* a request started while it slept: leave() signals (under lock) */

/* The thread needs MPI_THREAD_MULTIPLE, so vine__mt() covers it (its answer
 * changes only from 1, before MPI_Init, to the level MPI gives). */
static void enter(void)
{
    if (vine__mt())
        pthread_mutex_lock(&lock);
    in_requests++;
}

/* Signals the sleeping thread after letting go of the lock, so that it does
 * not wake only to wait for the lock. */
static void leave(void)
{
    in_requests--;
    if (!vine__mt())
        return;
    int w = wake_due;
    wake_due = 0;
    pthread_mutex_unlock(&lock);
    if (w)
        pthread_cond_signal(&wake);
}

/* Whether another thread may use the requests: then nothing waits holding the lock. */
static int threaded_now(void)
{
    return vine__mt();
}
#else
static void enter(void)
{
    in_requests++;
}

static void leave(void)
{
    in_requests--;
}

static int threaded_now(void)
{
    return 0;
}
#endif

/*
 * A wait loop's pass that found nothing finished: after a while of polling
 * the core is yielded at each pass, so that a peer sharing it (an
 * oversubscribed node, or a flag writer of the shm family) can run.
 */
#define SPINS_BEFORE_YIELD 256
static void idle(unsigned *spins)
{
    if (++*spins > SPINS_BEFORE_YIELD)
        sched_yield();
}

/* ---- The table of vine's handles ---- */

typedef struct slot {
    uint64_t key;
    vine_nbreq *r; /* NULL: free */
} slot;
static slot *table;
static size_t table_cap, table_n;

_Static_assert(sizeof(MPI_Request) <= sizeof(uint64_t), "an MPI_Request fits 64 bits");

static uint64_t key_of(MPI_Request h)
{
    uint64_t k = 0;
    memcpy(&k, &h, sizeof h);
    return k;
}

static size_t home(uint64_t k, size_t cap)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return (size_t)k & (cap - 1);
}

/* The request found last: a persistent request's start and wait find it first. */
static vine_nbreq *hot;

static vine_nbreq *lookup(MPI_Request h)
{
    if (table_n == 0 || h == MPI_REQUEST_NULL)
        return NULL;
    if (hot && hot->handle == h && !hot->dead)
        return hot;
    uint64_t k = key_of(h);
    for (size_t i = home(k, table_cap);; i = (i + 1) & (table_cap - 1)) {
        if (!table[i].r)
            return NULL;
        if (table[i].key == k)
            return table[i].r->dead ? NULL : (hot = table[i].r);
    }
}

static void place(slot *t, size_t cap, uint64_t k, vine_nbreq *r)
{
    size_t i = home(k, cap);
    while (t[i].r)
        i = (i + 1) & (cap - 1);
    t[i].key = k;
    t[i].r = r;
}

static int table_add(vine_nbreq *r)
{
    if (2 * (table_n + 1) > table_cap) {
        size_t cap = table_cap ? 2 * table_cap : 64;
        slot *t = calloc(cap, sizeof *t);
        if (!t)
            return MPI_ERR_NO_MEM;
        for (size_t i = 0; i < table_cap; i++)
            if (table[i].r)
                place(t, cap, table[i].key, table[i].r);
        free(table);
        table = t;
        table_cap = cap;
    }
    place(table, table_cap, key_of(r->handle), r);
    table_n++;
    r->in_table = 1;
    return MPI_SUCCESS;
}

/* Removes r's handle, shifting back the entries that probed past its slot. */
static void table_remove(vine_nbreq *r)
{
    uint64_t k = key_of(r->handle);
    size_t i = home(k, table_cap);
    if (hot == r)
        hot = NULL;
    while (table[i].r != r)
        i = (i + 1) & (table_cap - 1);
    table[i].r = NULL;
    table_n--;
    for (size_t j = (i + 1) & (table_cap - 1); table[j].r; j = (j + 1) & (table_cap - 1)) {
        size_t h = home(table[j].key, table_cap);
        /* Entry j may move to the hole at i when its home is not in (i, j]. */
        if ((j > i && (h <= i || h > j)) || (j < i && h <= i && h > j)) {
            table[i] = table[j];
            table[j].r = NULL;
            i = j;
        }
    }
}

/* ---- Requests ---- */

static void list_add(vine_nbreq *r)
{
    r->prev = last;
    r->next = NULL;
    if (last)
        last->next = r;
    else
        first = r;
    last = r;
    outstanding++;
#ifndef VINE_NO_THREADS
    wake_due |= sleeping; /* the caller holds the lock, and leave() wakes the thread */
#endif
}

static void list_remove(vine_nbreq *r)
{
    if (r->prev)
        r->prev->next = r->next;
    else
        first = r->next;
    if (r->next)
        r->next->prev = r->prev;
    else
        last = r->prev;
    r->prev = r->next = NULL;
    outstanding--;
}

/* Frees r and what it holds (its handle is already gone or never made). */
static void release(vine_nbreq *r)
{
    if (r->e)
        vine__cache_unpin(r->e);
    vine__exec_scratch_free(&r->scr);
    vine__exec_persist_free(&r->pp);
    for (int i = 0; i < VINE_PACK_COUNT; i++)
        free(r->mem[i]);
    for (int i = 0; i < 2; i++)
        if (r->own_types[i] != MPI_DATATYPE_NULL)
            MPI_Type_free(&r->own_types[i]);
    free(r->icounts);
    free(r->vtab);
    for (int i = 0; i < r->nvtypes; i++)
        if (r->vtypes[i] != MPI_DATATYPE_NULL && !vine__exec_is_named(r->vtypes[i]))
            MPI_Type_free(&r->vtypes[i]);
    free(r->vtypes);
    if (r->op_held)
        vine__op_drop(r->a.op);
    if (r->own)
        vine__shm_own_give(r->st, r->own - 1);
    if (r->st)
        vine__comm_release(r->st);
    free(r);
}

/*
 * The generalized request's callbacks (MPI-3.1 section 12.2) call no MPI
 * function: MPICH runs them inside its own critical section, which a
 * nested call (MPI_Type_free, say) finds taken under MPI_THREAD_MULTIPLE.
 * vine fills the statuses of its requests itself (empty_status), and a
 * request MPI has freed waits in the graveyard until vine releases it,
 * right after the MPI call that freed it or at the next request.
 */
static vine_nbreq *graveyard;

static int query_fn(void *extra, MPI_Status *status)
{
    (void)extra;
    status->MPI_SOURCE = MPI_ANY_SOURCE;
    status->MPI_TAG = MPI_ANY_TAG;
    return MPI_SUCCESS;
}

static int free_fn(void *extra)
{
    vine_nbreq *r = extra;
    r->dead = 1;
    r->grave = graveyard;
    graveyard = r;
    return MPI_SUCCESS;
}

/* Releases the requests MPI has freed. */
static void bury(void)
{
    while (graveyard) {
        vine_nbreq *r = graveyard;
        graveyard = r->grave;
        if (r->in_table)
            table_remove(r);
        release(r);
    }
}

static int cancel_fn(void *extra, int complete)
{
    (void)extra;
    (void)complete;
    return MPI_SUCCESS; /* a collective cannot be cancelled (MPI_Cancel is erroneous) */
}

/* ---- The progress thread ---- */

static void progress_all(void);
static int advance_others(void);

/* VINE_PROGRESS_THREAD set to anything but empty or "0". */
static int thread_wanted(void)
{
    const char *v = getenv("VINE_PROGRESS_THREAD");
    return v && *v && strcmp(v, "0") != 0;
}

/* Whether this process speaks for all: rank 0 of MPI_COMM_WORLD, or of st's
 * communicator under the sessions model alone (no MPI_COMM_WORLD). */
static int speaker(const vine_comm_state *st)
{
    return vine__world_up() ? vine__world_speaker() : st->rank == 0;
}

#ifndef VINE_NO_THREADS
/*
 * How long the idle thread keeps looking for a new request before it
 * sleeps until one starts.  A program that starts its next collective
 * within this time finds the thread awake; one that starts it later pays
 * the wake-up of a sleeping thread once (docs/api.md, "Progress").
 */
#define IDLE_LOOK_NS 200000L

static long since_ns(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (t.tv_sec - t0->tv_sec) * 1000000000L + (t.tv_nsec - t0->tv_nsec);
}

/*
 * The thread takes the lock without sleeping in it: the program's thread
 * that holds it (in a start, a test) then has no sleeper to wake when it
 * lets go, which would be a system call on its path.
 */
static void lock_spinning(void)
{
    while (pthread_mutex_trylock(&lock) != 0)
        sched_yield();
}

/* Called holding the lock with nothing outstanding; returns holding it when
 * something is, or when the thread must stop. */
static void idle_wait(void)
{
    pthread_mutex_unlock(&lock);
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    while (!atomic_load_explicit(&outstanding, memory_order_relaxed) && !atomic_load(&stop) &&
           since_ns(&t0) < IDLE_LOOK_NS)
        sched_yield(); /* a rank sharing the core runs */
    lock_spinning();
    while (!outstanding && !atomic_load(&stop)) {
        sleeping = 1;
        pthread_cond_wait(&wake, &lock);
        sleeping = 0;
    }
}

static void *progress_main(void *arg)
{
    (void)arg;
    lock_spinning();
    while (!atomic_load(&stop)) {
        if (!outstanding) {
            idle_wait();
            continue;
        }
        progress_all();
        pthread_mutex_unlock(&lock);
        sched_yield();
        lock_spinning();
    }
    pthread_mutex_unlock(&lock);
    return NULL;
}
#endif

/* Starts the progress thread on the first request when VINE_PROGRESS_THREAD asks for it. */
static void thread_check_locked(const vine_comm_state *st)
{
    static int checked;
    if (checked)
        return;
    checked = 1;
    if (!thread_wanted())
        return;
    int level = MPI_THREAD_SINGLE;
    /* Under the sessions model alone no MPI_Finalize would join it. */
    if (!vine__world_up()) {
        if (speaker(st))
            fprintf(stderr, "vine: VINE_PROGRESS_THREAD=1 needs MPI_Init_thread (the sessions "
                            "model alone has no MPI_Finalize to join it): no progress thread, "
                            "requests advance in vine's test and wait calls only\n");
        return;
    }
    MPI_Query_thread(&level);
#ifdef VINE_NO_THREADS
    if (speaker(st))
        fprintf(stderr, "vine: VINE_PROGRESS_THREAD=1 ignored: this build has no threads\n");
#else
    if (level != MPI_THREAD_MULTIPLE) {
        if (speaker(st))
            fprintf(stderr,
                    "vine: VINE_PROGRESS_THREAD=1 needs MPI_THREAD_MULTIPLE (MPI_Init_thread "
                    "provided level %d): no progress thread, requests advance in vine's "
                    "test and wait calls only\n",
                    level);
        return;
    }
    threaded = 1;
    atomic_store(&stop, 0);
    if (pthread_create(&thread, NULL, progress_main, NULL) != 0) {
        threaded = 0;
        if (speaker(st))
            fprintf(stderr, "vine: VINE_PROGRESS_THREAD=1: the thread could not start\n");
        return;
    }
    if (vine__verbose() && speaker(st))
        fprintf(stderr, "vine: progress thread started\n");
#endif
}

/* Once, whichever threads make the first requests at the same time. */
static void thread_check(const vine_comm_state *st)
{
    static atomic_int checked;
    if (atomic_load_explicit(&checked, memory_order_acquire))
        return;
    vine__lock();
    thread_check_locked(st);
    atomic_store_explicit(&checked, 1, memory_order_release);
    vine__unlock();
}

void vine__nb_finalize(void)
{
    bury();
#ifndef VINE_NO_THREADS
    if (threaded) {
        pthread_mutex_lock(&lock);
        atomic_store(&stop, 1);
        pthread_cond_signal(&wake);
        pthread_mutex_unlock(&lock);
        pthread_join(thread, NULL);
        threaded = 0;
    }
#endif
}

int vine__nb_begin(vine_nbreq **out, const vine_nb_args *a, int persistent, MPI_Request *request)
{
    *out = NULL;
    if (!request)
        return MPI_ERR_REQUEST;
    *request = MPI_REQUEST_NULL;
    vine_nbreq *r = calloc(1, sizeof *r);
    if (!r)
        return MPI_ERR_NO_MEM;
    atomic_store_explicit(&vine__exec_others, advance_others, memory_order_relaxed);
    r->persistent = persistent;
    r->a = *a;
    r->handle = MPI_REQUEST_NULL;
    r->mreq = MPI_REQUEST_NULL;
    r->own_types[0] = r->own_types[1] = MPI_DATATYPE_NULL;
    r->op_held = vine__op_hold(a->op);
    *out = r;
    return MPI_SUCCESS;
}

/* Takes a reference on st for r (once). */
static void attach(vine_nbreq *r, vine_comm_state *st)
{
    /* The progress thread starts with the first request that has a state,
     * whose creation set up the hook that joins it at MPI_Finalize. */
    thread_check(st);
    if (!r->st) {
        r->st = st;
        st->nreqs++;
    }
}

/* The next request tag of st: the same sequence on every rank. */
static int next_tag(vine_comm_state *st)
{
    return VINE_EXEC_NB_TAG + (int)(st->nb_seq++ % VINE_EXEC_NB_TAGS);
}

/*
 * Blocks of VINE_EXEC_NB_TAGS persistent tags, each followed by the block of
 * its local copies' tags (vine__exec_copy_tag), that fit below MPI_TAG_UB:
 * 1 at the standard's least bound (32767), 65536 at most.  The attribute is
 * the same in every process, so every rank counts alike.
 */
static unsigned persistent_tag_blocks(MPI_Comm comm)
{
    static atomic_uint blocks; /* 0: not read yet */
    unsigned b = atomic_load_explicit(&blocks, memory_order_relaxed);
    if (b)
        return b;
    int *ub = NULL, flag = 0;
    long top = 32767;
    /* MPI_COMM_WORLD carries it; under the sessions model alone, ask the
     * communicator (MPICH answers on any), else the least MPI allows. */
    if (vine__world_up())
        comm = MPI_COMM_WORLD;
    if (MPI_Comm_get_attr(comm, MPI_TAG_UB, &ub, &flag) == MPI_SUCCESS && flag && ub && *ub > top)
        top = *ub;
    long n = (top - VINE_EXEC_NB_TAG + 1) / (2L * VINE_EXEC_NB_TAGS);
    b = n < 1 ? 1 : n > 65536 ? 65536 : (unsigned)n;
    atomic_store_explicit(&blocks, b, memory_order_relaxed);
    return b;
}

/*
 * r's tag and the communicator of its messages.  A nonblocking request
 * takes the next tag of st's private communicator (tag_gated keeps two
 * with the same tag from running at once).  A persistent one lives on, and
 * tags cycle: 16,000 calls later a nonblocking request would take its tag
 * again, and the two may be active at once, started in different orders
 * (MPI 4), which no waiting on one rank can keep apart.  Persistent
 * requests take their tags on a second private communicator, made
 * (collectively: the _init calls come in one order) at the first of them,
 * in a cycle of their own as long as MPI_TAG_UB allows: 16,000 at its least
 * bound, about a billion where it is 2^31 - 1 (Open MPI).
 */
static int take_tag(vine_nbreq *r, vine_comm_state *st)
{
    if (!r->persistent) {
        r->seq = st->nb_seq;
        r->tag = next_tag(st);
        r->comm = st->comm;
        return MPI_SUCCESS;
    }
    if (st->pcomm == MPI_COMM_NULL &&
        (MPI_Comm_dup(st->comm, &st->pcomm) != MPI_SUCCESS ||
         MPI_Comm_set_errhandler(st->pcomm, MPI_ERRORS_RETURN) != MPI_SUCCESS))
        return MPI_ERR_OTHER;
    unsigned k = st->p_seq++ % (VINE_EXEC_NB_TAGS * persistent_tag_blocks(st->comm));
    r->tag = VINE_EXEC_NB_TAG +
             (int)(k / VINE_EXEC_NB_TAGS * 2 * VINE_EXEC_NB_TAGS + k % VINE_EXEC_NB_TAGS);
    r->comm = st->pcomm;
    return MPI_SUCCESS;
}

/*
 * A derived datatype the request uses later: duplicated, so that the
 * program may free its own handle before the request completes, as MPI
 * allows.  *dt becomes the duplicate.
 */
static int keep_type(vine_nbreq *r, MPI_Datatype *dt)
{
    if (vine__exec_is_named(*dt))
        return MPI_SUCCESS;
    int i = r->own_types[0] == MPI_DATATYPE_NULL ? 0 : 1;
    if (r->own_types[i] != MPI_DATATYPE_NULL)
        return MPI_ERR_INTERN;
    if (MPI_Type_dup(*dt, &r->own_types[i]) != MPI_SUCCESS)
        return MPI_ERR_TYPE;
    *dt = r->own_types[i];
    return MPI_SUCCESS;
}

int vine__nb_off_segment(const vine_nbreq *r)
{
    if (!r->persistent)
        return 0;
    /* VINE_PERSISTENT_SHM=1: the program starts its persistent requests in
     * one order with its other collectives on every rank. */
    const char *v = getenv("VINE_PERSISTENT_SHM");
    return !(v && *v && strcmp(v, "0") != 0);
}

void vine__nb_own(vine_nbreq *r, vine_comm_state *st, int i)
{
    attach(r, st);
    r->own = i + 1;
}

int vine__nb_launch(vine_call *c)
{
    vine_nbreq *r = c->nb;
    vine_cache_entry *e = c->e;
    attach(r, c->st);
    vine__cache_pin(e);
    r->e = e;
    r->t = c->t;
    r->op = c->op;
    r->commutative = c->a.commutative;
    r->sendbuf = c->sendbuf;
    r->recvbuf = c->recvbuf;
    r->shm = e->sched.shm != 0;
    int rc = take_tag(r, c->st);
    if (rc != MPI_SUCCESS)
        return rc;
    /* Reductions run on the user's datatype. */
    return r->t.named ? MPI_SUCCESS : keep_type(r, &r->t.dt);
}

void vine__nb_significant(const vine_nb_args *a, int rank, int *send, int *recv)
{
    int at_root = rank == a->root;
    *send = *recv = 1;
    switch (a->coll) {
    case VINE_COLL_BCAST:
        *send = 0;
        break;
    case VINE_COLL_ALLGATHER:
    case VINE_COLL_ALLTOALL:
    case VINE_COLL_ALLGATHERV:
    case VINE_COLL_ALLTOALLV:
        *send = a->sendbuf != MPI_IN_PLACE;
        break;
    case VINE_COLL_GATHER:
    case VINE_COLL_GATHERV:
        *send = a->sendbuf != MPI_IN_PLACE;
        *recv = at_root;
        break;
    case VINE_COLL_SCATTER:
    case VINE_COLL_SCATTERV:
        *send = at_root;
        *recv = a->recvbuf != MPI_IN_PLACE;
        break;
    case VINE_COLL_BARRIER:
    case VINE_COLL_ALLTOALLW: /* its types are kept by vine__nb_mpi_v */
        *send = *recv = 0;
        break;
    default: /* the reductions: one datatype, kept as the send side's */
        *recv = 0;
        break;
    }
}

int vine__nb_persistent(const vine_nbreq *r)
{
    return r->persistent;
}

int vine__nb_mpi(vine_call *c)
{
    vine_nbreq *r = c->nb;
    r->mpi = 1;
    r->rank = c->a.rank;
    /* Without a state (a nonblocking call before the first one that may
     * wait, vine__call_attach) the request is the MPI library's alone. */
    if (c->st) {
        attach(r, c->st);
        (void)next_tag(c->st);
    }
    if (r->persistent) {
        /* Each start calls the MPI library anew with the datatypes, which the
         * program may have freed by then. */
        int send, recv, rc = MPI_SUCCESS;
        vine__nb_significant(&r->a, c->a.rank, &send, &recv);
        if (send)
            rc = keep_type(r, &r->a.stype);
        if (recv && rc == MPI_SUCCESS)
            rc = keep_type(r, &r->a.rtype);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    if (r->a.coll == VINE_COLL_REDUCE_SCATTER) {
        /* The MPI library takes int counts, which must outlive the call. */
        r->icounts = malloc((size_t)c->a.p * sizeof *r->icounts);
        if (!r->icounts)
            return MPI_ERR_NO_MEM;
        for (int i = 0; i < c->a.p; i++)
            r->icounts[i] = (int)(r->a.icounts ? (MPI_Count)r->a.icounts[i] : r->a.ccounts[i]);
    }
    return vine__call_mpi_done(c, MPI_SUCCESS);
}

int vine__nb_mpi_v(vine_call *c, const int *const cnt[2], const int *const dsp[2],
                   const MPI_Datatype *const types[2])
{
    vine_nbreq *r = c->nb;
    size_t p = (size_t)c->a.p;
    /* The MPI library reads the tables when the request starts, after the
     * call's own int copies of the _c forms' tables are gone. */
    if (!(r->vtab = malloc(4 * p * sizeof *r->vtab)))
        return MPI_ERR_NO_MEM;
    for (int k = 0; k < 2; k++) {
        int *tc = r->vtab + 2 * (size_t)k * p, *td = tc + p;
        if (cnt[k])
            r->vcnt[k] = memcpy(tc, cnt[k], p * sizeof *tc);
        if (dsp[k])
            r->vdsp[k] = memcpy(td, dsp[k], p * sizeof *td);
    }
    if (types[0] || types[1]) {
        /* alltoallw: every start calls the MPI library with the types, which
         * the program may free meanwhile; the derived ones are duplicated. */
        if (!(r->vtypes = malloc(2 * p * sizeof *r->vtypes)))
            return MPI_ERR_NO_MEM;
        r->nvtypes = (int)(2 * p);
        for (size_t i = 0; i < 2 * p; i++)
            r->vtypes[i] = MPI_DATATYPE_NULL;
        for (int k = 0; k < 2; k++)
            for (size_t i = 0; types[k] && i < p; i++) {
                MPI_Datatype dt = types[k][i], *own = &r->vtypes[(size_t)k * p + i];
                if (dt == MPI_DATATYPE_NULL || vine__exec_is_named(dt))
                    *own = dt;
                else if (MPI_Type_dup(dt, own) != MPI_SUCCESS)
                    return MPI_ERR_TYPE;
            }
    }
    return vine__nb_mpi(c);
}

int vine__nb_scratch(vine_nbreq *r, int which, size_t bytes, char **out)
{
    if (bytes > r->mem_bytes[which]) {
        free(r->mem[which]);
        r->mem[which] = malloc(bytes ? bytes : 1);
        r->mem_bytes[which] = r->mem[which] ? bytes : 0;
        if (!r->mem[which])
            return MPI_ERR_NO_MEM;
    }
    *out = r->mem[which];
    return MPI_SUCCESS;
}

int vine__nb_pack(vine_nbreq *r, const vine_side *s, char *dst)
{
    if (r->has_pack)
        return MPI_ERR_INTERN;
    r->has_pack = 1;
    r->pack = *s;
    r->pack_dst = dst;
    return s->raw ? MPI_SUCCESS : keep_type(r, &r->pack.dt);
}

int vine__nb_unpack(vine_nbreq *r, const vine_side *s, const char *src)
{
    if (r->has_unpack)
        return MPI_ERR_INTERN;
    r->has_unpack = 1;
    r->unpack = *s;
    r->unpack_src = src;
    return s->raw ? MPI_SUCCESS : keep_type(r, &r->unpack.dt);
}

/* Starts the MPI library's nonblocking collective for r. */
static int mpi_start(vine_nbreq *r)
{
    const vine_nb_args *a = &r->a;
    const void *sb = a->sendbuf;
    void *rb = a->recvbuf;
    int sc = (int)a->scount, rcnt = (int)a->rcount;
    MPI_Request *q = &r->mreq;
    switch (a->coll) {
    case VINE_COLL_BCAST:
    case VINE_COLL_ALLGATHER:
    case VINE_COLL_ALLTOALL:
    case VINE_COLL_GATHER:
    case VINE_COLL_SCATTER:
        return vine__mpi_move(a, r->rank, q, NULL);
    case VINE_COLL_REDUCE:
        return PMPI_Ireduce(sb, rb, sc, a->stype, a->op, a->root, a->comm, q);
    case VINE_COLL_ALLREDUCE:
        return PMPI_Iallreduce(sb, rb, sc, a->stype, a->op, a->comm, q);
    case VINE_COLL_REDUCE_SCATTER_BLOCK:
        return PMPI_Ireduce_scatter_block(sb, rb, sc, a->stype, a->op, a->comm, q);
    case VINE_COLL_REDUCE_SCATTER:
        return PMPI_Ireduce_scatter(sb, rb, r->icounts, a->stype, a->op, a->comm, q);
    case VINE_COLL_BARRIER:
        return PMPI_Ibarrier(a->comm, q);
    case VINE_COLL_SCAN:
        return PMPI_Iscan(sb, rb, sc, a->stype, a->op, a->comm, q);
    case VINE_COLL_EXSCAN:
        return PMPI_Iexscan(sb, rb, sc, a->stype, a->op, a->comm, q);
    case VINE_COLL_ALLGATHERV:
        return PMPI_Iallgatherv(sb, sc, a->stype, rb, r->vcnt[1], r->vdsp[1], a->rtype, a->comm, q);
    case VINE_COLL_ALLTOALLV:
        return PMPI_Ialltoallv(sb, r->vcnt[0], r->vdsp[0], a->stype, rb, r->vcnt[1], r->vdsp[1],
                               a->rtype, a->comm, q);
    case VINE_COLL_ALLTOALLW: {
        size_t p = (size_t)r->nvtypes / 2;
        return PMPI_Ialltoallw(sb, r->vcnt[0], r->vdsp[0], r->vtypes, rb, r->vcnt[1], r->vdsp[1],
                               r->vtypes + p, a->comm, q);
    }
    case VINE_COLL_GATHERV:
        return PMPI_Igatherv(sb, sc, a->stype, rb, r->vcnt[1], r->vdsp[1], a->rtype, a->root,
                             a->comm, q);
    case VINE_COLL_SCATTERV:
        return PMPI_Iscatterv(sb, r->vcnt[0], r->vdsp[0], a->stype, rb, rcnt, a->rtype, a->root,
                              a->comm, q);
    default:
        return MPI_ERR_INTERN;
    }
}

/*
 * r has finished with rc: unpacks, hands the node segment on (after a pass of
 * MPI's progress while vine_shm_sync_progress asks for one, as a blocking
 * call makes), leaves the list.
 */
static void finish(vine_nbreq *r, int rc)
{
    if (rc == MPI_SUCCESS && r->has_unpack)
        rc = vine__side_unpack(&r->unpack, r->unpack_src, r->st->comm);
    if (r->ticketed) {
        r->st->shm_done++;
        r->ticketed = 0;
        if (atomic_load_explicit(&vine__shm_sync_count, memory_order_relaxed) > 0)
            vine__exec_shm_poke(r->st->comm);
    }
    r->done = 1;
    r->rc = rc;
    list_remove(r);
    if (r->st) {
        r->st->nactive--;
        r->st->nactive_mpi -= r->mpi;
    }
    /* A nonblocking request is complete for MPI too, which then frees it
     * in MPI_Wait or MPI_Test (free_fn). */
    if (!r->persistent)
        MPI_Grequest_complete(r->handle);
}

/*
 * Whether r, a nonblocking request not started yet, must wait for older ones
 * of its communicator: tags cycle every VINE_EXEC_NB_TAGS requests, and a
 * request whose tag an active one still holds would take that one's
 * messages (MPI allows any number outstanding).  So no two requests of a
 * communicator run here with numbers VINE_EXEC_NB_TAGS or more apart: r
 * waits until every older one has finished on this rank.  Every rank does
 * the same, so a peer's messages of r come after all of its messages with
 * that tag to this rank of older requests, which this rank has received
 * before it starts r.  Older requests never wait for newer ones, so the wait
 * ends.  The list is in start order: the first request of r's communicator
 * in it is its oldest.
 */
static int tag_gated(const vine_nbreq *r)
{
    if (r->persistent)
        return 0;
    for (const vine_nbreq *q = first; q && q != r; q = q->next)
        if (q->st == r->st && !q->persistent && !q->mpi && q->e)
            return r->seq - q->seq >= VINE_EXEC_NB_TAGS;
    return 0;
}

/* Starts the executor on r's schedule. */
static int launch(vine_nbreq *r)
{
    vine_cache_entry *e = r->e;
    vine_exec_call xc = {
        &e->sched,   e->has_plan ? &e->plan : NULL,
        e->max_reqs, r->sendbuf,
        r->recvbuf,  &r->t,
        r->op,       r->commutative,
        r->comm,     r->own ? vine__shm_own_exec(r->st, r->own - 1) : vine__shm_exec(r->st),
        r->tag};
    r->started = 1;
    int rc = vine__exec_start(&r->x, &xc, &r->scr);
    /* A persistent request starts the same messages every time: it makes
     * them once as persistent requests (and runs without them if it cannot). */
    if (rc == MPI_SUCCESS && r->persistent)
        (void)vine__exec_persist(&r->x, &r->pp);
    return rc;
}

/* Advances r as far as it goes without waiting. */
static void step(vine_nbreq *r)
{
    int rc, flag = 0;
    if (r->mpi) {
        in_mpi_completion++;
        rc = PMPI_Test(&r->mreq, &flag, MPI_STATUS_IGNORE);
        in_mpi_completion--;
        if (rc != MPI_SUCCESS || flag)
            finish(r, vine__err_class(rc));
        return;
    }
    if (!r->started) {
        /* An shm schedule waits for the earlier ones on its communicator. */
        if ((r->ticketed && r->st->shm_done != r->ticket) || tag_gated(r))
            return;
        if ((rc = launch(r)) != MPI_SUCCESS) {
            finish(r, rc);
            return;
        }
    }
    rc = vine__exec_progress(&r->x, 0, &flag);
    if (rc != MPI_SUCCESS || flag)
        finish(r, rc);
}

/*
 * Runs r, the only outstanding request, to its end with blocking waits, as
 * a blocking call would: nothing else needs this rank's progress meanwhile.
 */
static void finish_alone(vine_nbreq *r)
{
    int rc, flag = 0;
    if (r->mpi) {
        in_mpi_completion++;
        rc = PMPI_Wait(&r->mreq, MPI_STATUS_IGNORE);
        in_mpi_completion--;
        finish(r, vine__err_class(rc));
        return;
    }
    if (!r->started && (rc = launch(r)) != MPI_SUCCESS) {
        finish(r, rc);
        return;
    }
    rc = vine__exec_progress(&r->x, 1, &flag);
    finish(r, rc);
}

/* Starts r's schedule when its turn has come and posts its first round, without waiting. */
static void post(vine_nbreq *r)
{
    int rc, flag = 0;
    if ((r->ticketed && r->st->shm_done != r->ticket) || tag_gated(r))
        return;
    if ((rc = launch(r)) == MPI_SUCCESS)
        rc = vine__exec_progress(&r->x, VINE_EXEC_POST, &flag);
    if (rc != MPI_SUCCESS || flag)
        finish(r, rc);
}

/* Advances every outstanding request once. */
static void progress_all(void)
{
    for (vine_nbreq *r = first, *next; r; r = next) {
        next = r->next;
        step(r);
    }
}

/*
 * vine__exec_others: a blocking collective's wait (or any blocking wait of
 * the executor outside this file) advances the outstanding requests, since a
 * peer may be waiting in a completion function for this rank's next round of
 * one of them (MPI lets the ranks complete collectives of different
 * communicators in different orders).  Not inside the functions here (their
 * own blocking waits run with nothing else outstanding) nor while the
 * progress thread runs, which advances them anyway; under
 * MPI_THREAD_MULTIPLE a wait whose lock another thread holds polls on.
 */
static int advance_others(void)
{
    /* The count first: it is the common answer, and cheaper than the thread-local. */
    if (!atomic_load_explicit(&outstanding, memory_order_relaxed) || in_requests)
        return 0;
#ifndef VINE_NO_THREADS
    if (atomic_load(&threaded))
        return 0;
    int locked = vine__mt();
    if (locked && pthread_mutex_trylock(&lock) != 0)
        return 1;
#endif
    in_requests++;
    progress_all();
    in_requests--;
#ifndef VINE_NO_THREADS
    if (locked)
        pthread_mutex_unlock(&lock);
#endif
    return 1;
}

/* Starts r (inactive): packs, takes its turn, posts what it can. */
static int start(vine_nbreq *r)
{
    /* Its communicator was freed (MPI lets a persistent request start
     * again): vine's private copy stands in for it, but the node segment
     * went with it (a request's own segment stays). */
    if (r->st && r->st->orphan && r->shm && !r->own)
        return MPI_ERR_COMM;
    if (r->st && r->st->orphan && r->mpi) {
        if (r->st->comm == MPI_COMM_NULL)
            return MPI_ERR_COMM; /* mpi_only (comm.c): no private copy either */
        r->a.comm = r->st->comm;
    }
    if (r->st) {
        r->st->nactive++;
        r->st->nactive_mpi += r->mpi;
    }
    r->active = 1;
    r->done = 0;
    r->rc = MPI_SUCCESS;
    r->started = 0;
    list_add(r);
    if (!r->mpi && !r->e) {
        finish(r, MPI_SUCCESS); /* nothing to move */
        return MPI_SUCCESS;
    }
    if (r->mpi) {
        int rc = vine__err_class(mpi_start(r));
        if (rc != MPI_SUCCESS)
            finish(r, rc);
        return MPI_SUCCESS;
    }
    if (r->has_pack) {
        int rc = vine__side_pack(&r->pack, r->pack_dst, r->st->comm);
        if (rc != MPI_SUCCESS) {
            finish(r, rc);
            return MPI_SUCCESS;
        }
    }
    /* A request on its own segment waits for no other: every rank runs its
     * starts one after the other, and nothing else uses that segment. */
    if (r->shm && !r->own) {
        r->ticket = r->st->shm_tickets++;
        r->ticketed = 1;
    }
    post(r);
    return MPI_SUCCESS;
}

int vine__nb_end(vine_nbreq *r, int rc, MPI_Request *request)
{
    if (!r)
        return rc;
    if (rc == MPI_SUCCESS &&
        PMPI_Grequest_start(query_fn, free_fn, cancel_fn, r, &r->handle) != MPI_SUCCESS)
        rc = MPI_ERR_OTHER;
    if (rc != MPI_SUCCESS) {
        release(r);
        return rc;
    }
    enter();
    bury(); /* requests a plain MPI_Wait or MPI_Test freed */
    if ((rc = table_add(r)) != MPI_SUCCESS) {
        MPI_Grequest_complete(r->handle);
        PMPI_Request_free(&r->handle); /* free_fn puts r in the graveyard */
        bury();
        leave();
        return rc;
    }
    *request = r->handle;
    rc = r->persistent ? MPI_SUCCESS : start(r);
    leave();
    return rc;
}

/*
 * Runs st's requests to their end, for MPI_Comm_free.  Open MPI runs the
 * delete callback that calls this inside MPI_Comm_free, and its own
 * nonblocking collectives (those of mpi) crash on a communicator freed
 * under them: they finish here too.  MPICH keeps the communicator while
 * they run, and runs the callback when the last of them completes, inside
 * the PMPI_Wait or PMPI_Test of vine's that completes it (under vine's
 * lock), where testing it again fails an assertion: there only the
 * requests on vine's schedules are run.
 */
void vine__nb_drain_comm(vine_comm_state *st)
{
    int nested = in_mpi_completion > 0;
    for (unsigned spins = 0;; idle(&spins)) {
        if (!nested)
            enter();
        int more = nested ? st->nactive > st->nactive_mpi : st->nactive > 0;
        for (vine_nbreq *r = first, *next; more && r; r = next) {
            next = r->next;
            if (!nested || (r->st == st && !r->mpi))
                step(r);
        }
        if (!nested)
            leave();
        if (!more)
            return;
    }
}

void vine__nb_drain_early(MPI_Comm comm)
{
    /* Inside MPICH's completion of one of them (see above) there is nothing
     * to run: these are all the MPI library's own. */
    if (in_mpi_completion > 0)
        return;
    for (unsigned spins = 0;; idle(&spins)) {
        enter();
        int more = 0;
        for (vine_nbreq *r = first, *next; r; r = next) {
            next = r->next;
            if (!r->st && r->mpi && r->a.comm == comm) {
                step(r);
                more = 1;
            }
        }
        leave();
        if (!more)
            return;
    }
}

void vine__nb_drain_shm(vine_comm_state *st)
{
    for (unsigned spins = 0;; idle(&spins)) {
        enter();
        int more = st->shm_done != st->shm_tickets && outstanding;
        if (more)
            progress_all();
        leave();
        if (!more)
            return;
    }
}

/* ---- Completion ---- */

/* A collective's status: empty (vine returns its error itself). */
static void empty_status(MPI_Status *status)
{
    if (status == MPI_STATUS_IGNORE)
        return;
    MPI_Status_set_elements(status, MPI_BYTE, 0);
    MPI_Status_set_cancelled(status, 0);
    status->MPI_SOURCE = MPI_ANY_SOURCE;
    status->MPI_TAG = MPI_ANY_TAG;
    status->MPI_ERROR = MPI_SUCCESS;
}

/*
 * Completes r, which is done or inactive, held in *h: a nonblocking request
 * is freed (MPI_REQUEST_NULL), a persistent one becomes inactive.  Returns
 * the collective's error class.
 */
static int complete(vine_nbreq *r, MPI_Request *h, MPI_Status *status)
{
    int rc = r->active ? r->rc : MPI_SUCCESS;
    if (r->persistent) {
        r->active = 0;
        empty_status(status);
        return rc;
    }
    /* MPI frees the handle (free_fn), vine r (bury) and fills the status. */
    int mrc = PMPI_Wait(h, MPI_STATUS_IGNORE);
    bury();
    empty_status(status);
    return rc != MPI_SUCCESS ? rc : vine__err_class(mrc);
}

/* Whether r has nothing left to do for a completion function. */
static int finished(const vine_nbreq *r)
{
    return !r->active || r->done;
}

int vine_requests_outstanding(void)
{
    size_t n = atomic_load_explicit(&outstanding, memory_order_relaxed);
    return n > INT_MAX ? INT_MAX : (int)n;
}

int vine_progress(void)
{
#ifndef VINE_NO_THREADS
    /* With the progress thread running, a call that finds the thread in a pass leaves at once:
     * the requests are moving, and waiting for the lock would only hold up the caller's
     * computation (docs/api.md, "Progress"). */
    if (atomic_load(&threaded)) {
        if (pthread_mutex_trylock(&lock) == 0) {
            progress_all();
            pthread_mutex_unlock(&lock);
        }
        return MPI_SUCCESS;
    }
#endif
    enter();
    progress_all();
    leave();
    return MPI_SUCCESS;
}

int vine_request_get_status(MPI_Request request, int *flag, MPI_Status *status)
{
    if (!flag)
        return MPI_ERR_ARG;
    enter();
    progress_all();
    vine_nbreq *r = lookup(request);
    int rc = MPI_SUCCESS;
    if (!r) {
        rc = PMPI_Request_get_status(request, flag, status);
    } else {
        *flag = finished(r);
        if (*flag) {
            empty_status(status);
            rc = r->active ? r->rc : MPI_SUCCESS;
        }
    }
    leave();
    return rc;
}

int vine_is_request(MPI_Request request)
{
    enter();
    int is = lookup(request) != NULL;
    leave();
    return is;
}

/* Starts *request: vine's if it is (persistent and inactive), else by the MPI library. */
static int start_one(MPI_Request *request)
{
    vine_nbreq *r = lookup(*request);
    if (!r)
        return PMPI_Start(request);
    if (!r->persistent || r->active)
        return MPI_ERR_REQUEST;
    return start(r);
}

int vine_start(MPI_Request *request)
{
    if (!request)
        return MPI_ERR_REQUEST;
    enter();
    int rc = start_one(request);
    leave();
    return rc;
}

int vine_startall(int count, MPI_Request requests[])
{
    if (count < 0 || (count > 0 && !requests))
        return MPI_ERR_ARG;
    enter();
    /* Every request is checked before any starts. */
    int rc = MPI_SUCCESS;
    for (int i = 0; i < count && rc == MPI_SUCCESS; i++) {
        vine_nbreq *r = lookup(requests[i]);
        if (r && (!r->persistent || r->active))
            rc = MPI_ERR_REQUEST;
    }
    for (int i = 0; i < count && rc == MPI_SUCCESS; i++)
        rc = start_one(&requests[i]);
    leave();
    return rc;
}

int vine_request_free(MPI_Request *request)
{
    if (!request)
        return MPI_ERR_REQUEST;
    enter();
    vine_nbreq *r = lookup(*request);
    int rc;
    if (!r) {
        rc = PMPI_Request_free(request);
    } else if (r->active) {
        rc = MPI_ERR_REQUEST; /* freeing an active collective request is erroneous */
    } else {
        /* An inactive request is persistent (a nonblocking one is freed when it
         * completes); MPI calls free_fn, and vine releases it. */
        MPI_Grequest_complete(r->handle);
        rc = vine__err_class(PMPI_Request_free(request));
        bury();
    }
    leave();
    return rc;
}

/*
 * One pass of vine_test: advances vine's requests, then tests *request
 * (the MPI library's own when it is not vine's).
 */
static int test_one(MPI_Request *request, int *flag, MPI_Status *status)
{
    progress_all();
    vine_nbreq *r = lookup(*request);
    if (!r)
        return PMPI_Test(request, flag, status);
    *flag = finished(r);
    return *flag ? complete(r, request, status) : MPI_SUCCESS;
}

int vine_test(MPI_Request *request, int *flag, MPI_Status *status)
{
    if (!request || !flag)
        return MPI_ERR_ARG;
    enter();
    int rc = test_one(request, flag, status);
    leave();
    return rc;
}

int vine_wait(MPI_Request *request, MPI_Status *status)
{
    if (!request)
        return MPI_ERR_REQUEST;
    enter();
    vine_nbreq *r = lookup(*request);
    if (r && outstanding == 1 && r->active && !r->done && !threaded_now())
        finish_alone(r);
    if (r && finished(r)) {
        int rc = complete(r, request, status);
        leave();
        return rc;
    }
    int direct = !outstanding && !r;
    leave();
    if (direct)
        return PMPI_Wait(request, status);
    /* vine's requests keep moving while the program waits, for its own
     * requests too (a peer's may need this rank's collective rounds). */
    for (unsigned spins = 0;; idle(&spins)) {
        int flag = 0, rc = vine_test(request, &flag, status);
        if (rc != MPI_SUCCESS || flag)
            return rc;
    }
}

/*
 * The requests of an array that are not vine's, gathered into a scratch
 * array so that the MPI library's array functions see them alone: idx[j]
 * is the position of other[j] in the program's array.
 */
typedef struct others {
    int n;
    MPI_Request *req;
    MPI_Status *st;
    int *idx;
    int *out; /* indices for MPI_Testsome */
} others;

static void others_free(others *o)
{
    free(o->req);
    free(o->st);
    free(o->idx);
    free(o->out);
}

static int others_make(others *o, int count, const MPI_Request reqs[])
{
    memset(o, 0, sizeof *o);
    size_t n = count > 0 ? (size_t)count : 1;
    o->req = malloc(n * sizeof *o->req);
    o->st = malloc(n * sizeof *o->st);
    o->idx = malloc(n * sizeof *o->idx);
    o->out = malloc(n * sizeof *o->out);
    if (!o->req || !o->st || !o->idx || !o->out) {
        others_free(o);
        return MPI_ERR_NO_MEM;
    }
    for (int i = 0; i < count; i++)
        if (!lookup(reqs[i])) {
            o->req[o->n] = reqs[i];
            o->idx[o->n++] = i;
        }
    return MPI_SUCCESS;
}

/* Whether an array holds a vine request. */
static int has_vine(int count, const MPI_Request reqs[])
{
    if (table_n == 0)
        return 0;
    for (int i = 0; i < count; i++)
        if (lookup(reqs[i]))
            return 1;
    return 0;
}

static MPI_Status *status_at(MPI_Status statuses[], int i)
{
    return statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
}

/*
 * Completes the vine requests of an array once all are finished and the
 * others completed by the MPI library (their handles and statuses copied
 * back from o).  Returns MPI_SUCCESS or MPI_ERR_IN_STATUS (the first error
 * when statuses are ignored).
 */
static int complete_all(int count, MPI_Request reqs[], MPI_Status statuses[], const others *o,
                        int orc)
{
    int first_err = MPI_SUCCESS, any = 0;
    for (int j = 0; j < o->n; j++) {
        reqs[o->idx[j]] = o->req[j];
        if (statuses != MPI_STATUSES_IGNORE) {
            statuses[o->idx[j]] = o->st[j];
            if (orc != MPI_ERR_IN_STATUS)
                statuses[o->idx[j]].MPI_ERROR = MPI_SUCCESS;
        }
    }
    if (orc != MPI_SUCCESS)
        first_err = orc; /* MPI_ERR_IN_STATUS too: which one it was is in the ignored statuses */
    any = orc == MPI_ERR_IN_STATUS;
    for (int i = 0; i < count; i++) {
        vine_nbreq *r = lookup(reqs[i]);
        if (!r)
            continue;
        int rc = complete(r, &reqs[i], status_at(statuses, i));
        if (statuses != MPI_STATUSES_IGNORE)
            statuses[i].MPI_ERROR = rc;
        if (rc != MPI_SUCCESS) {
            any = 1;
            if (first_err == MPI_SUCCESS)
                first_err = rc;
        }
    }
    if (statuses == MPI_STATUSES_IGNORE)
        return first_err;
    return any ? MPI_ERR_IN_STATUS : MPI_SUCCESS;
}

/* Whether every vine request of the array is finished. */
static int vine_all_finished(int count, const MPI_Request reqs[])
{
    for (int i = 0; i < count; i++) {
        vine_nbreq *r = lookup(reqs[i]);
        if (r && !finished(r))
            return 0;
    }
    return 1;
}

/*
 * MPI_Testall without statuses when they are ignored (see exec.c's
 * wait_all for the pragma: MPICH's MPI_STATUSES_IGNORE).
 */
static int test_others(others *o, int *flag, int ignore)
{
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif
    return PMPI_Testall(o->n, o->req, flag, ignore ? MPI_STATUSES_IGNORE : o->st);
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
}

static int testall_(int count, MPI_Request requests[], int *flag, MPI_Status statuses[])
{
    if (!has_vine(count, requests)) {
        if (outstanding)
            progress_all();
        return PMPI_Testall(count, requests, flag, statuses);
    }
    progress_all();
    *flag = 0;
    if (!vine_all_finished(count, requests))
        return MPI_SUCCESS; /* nothing is completed until all are */
    others o;
    int rc = others_make(&o, count, requests);
    if (rc != MPI_SUCCESS)
        return rc;
    int orc = test_others(&o, flag, statuses == MPI_STATUSES_IGNORE);
    if (*flag)
        rc = complete_all(count, requests, statuses, &o, orc);
    else if (orc != MPI_SUCCESS)
        rc = orc;
    others_free(&o);
    return rc;
}

int vine_testall(int count, MPI_Request requests[], int *flag, MPI_Status *statuses)
{
    if (count < 0 || !flag || (count > 0 && !requests))
        return MPI_ERR_ARG;
    enter();
    int rc = testall_(count, requests, flag, statuses);
    leave();
    return rc;
}

/* Whether a wait on the array can go to the MPI library directly: vine has nothing to do. */
static int direct(int count, const MPI_Request requests[])
{
    enter();
    int d = !outstanding && !has_vine(count, requests);
    leave();
    return d;
}

int vine_waitall(int count, MPI_Request requests[], MPI_Status *statuses)
{
    if (count < 0 || (count > 0 && !requests))
        return MPI_ERR_ARG;
    if (direct(count, requests))
        return PMPI_Waitall(count, requests, statuses);
    for (unsigned spins = 0;; idle(&spins)) {
        int flag = 0, rc = vine_testall(count, requests, &flag, statuses);
        if (rc != MPI_SUCCESS || flag)
            return rc;
    }
}

/*
 * One pass of MPI_Testany over the array: *index gets the position of a
 * completed request, or MPI_UNDEFINED with *flag 1 when none is active.
 */
static int test_any(int count, MPI_Request requests[], int *index, int *flag, MPI_Status *status)
{
    progress_all();
    int active = 0;
    for (int i = 0; i < count; i++) {
        vine_nbreq *r = lookup(requests[i]);
        if (!r || !r->active)
            continue;
        active = 1;
        if (r->done) {
            *index = i;
            *flag = 1;
            return complete(r, &requests[i], status);
        }
    }
    others o;
    int rc = others_make(&o, count, requests);
    if (rc != MPI_SUCCESS)
        return rc;
    int j = MPI_UNDEFINED;
    rc = PMPI_Testany(o.n, o.req, &j, flag, status);
    if (rc == MPI_SUCCESS && *flag && j != MPI_UNDEFINED) {
        requests[o.idx[j]] = o.req[j];
        *index = o.idx[j];
    } else if (rc == MPI_SUCCESS && *flag) {
        /* The MPI library has nothing active: the array has nothing unless vine has. */
        *index = MPI_UNDEFINED;
        *flag = !active;
        if (*flag)
            empty_status(status);
    }
    others_free(&o);
    return rc;
}

int vine_testany(int count, MPI_Request requests[], int *index, int *flag, MPI_Status *status)
{
    if (count < 0 || !index || !flag || (count > 0 && !requests))
        return MPI_ERR_ARG;
    enter();
    int rc;
    if (!has_vine(count, requests)) {
        if (outstanding)
            progress_all();
        rc = PMPI_Testany(count, requests, index, flag, status);
    } else {
        *flag = 0;
        *index = MPI_UNDEFINED;
        rc = test_any(count, requests, index, flag, status);
    }
    leave();
    return rc;
}

int vine_waitany(int count, MPI_Request requests[], int *index, MPI_Status *status)
{
    if (count < 0 || !index || (count > 0 && !requests))
        return MPI_ERR_ARG;
    if (direct(count, requests))
        return PMPI_Waitany(count, requests, index, status);
    for (unsigned spins = 0;; idle(&spins)) {
        int flag = 0, rc = vine_testany(count, requests, index, &flag, status);
        if (rc != MPI_SUCCESS || flag)
            return rc;
    }
}

static int testsome_(int incount, MPI_Request requests[], int *outcount, int indices[],
                     MPI_Status statuses[])
{
    if (!has_vine(incount, requests)) {
        if (outstanding)
            progress_all();
        return PMPI_Testsome(incount, requests, outcount, indices, statuses);
    }
    progress_all();
    int n = 0, active = 0, any_err = 0, first_err = MPI_SUCCESS;
    for (int i = 0; i < incount; i++) {
        vine_nbreq *r = lookup(requests[i]);
        if (!r || !r->active)
            continue;
        active = 1;
        if (r->done) {
            int rc = complete(r, &requests[i], status_at(statuses, n));
            if (statuses != MPI_STATUSES_IGNORE)
                statuses[n].MPI_ERROR = rc;
            if (rc != MPI_SUCCESS && !any_err)
                first_err = rc;
            any_err |= rc != MPI_SUCCESS;
            indices[n++] = i;
        }
    }
    others o;
    int rc = others_make(&o, incount, requests);
    if (rc != MPI_SUCCESS)
        return rc;
    int m = 0, none = 0;
    rc = PMPI_Testsome(o.n, o.req, &m, o.out,
                       statuses == MPI_STATUSES_IGNORE ? MPI_STATUSES_IGNORE : o.st);
    if (rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS) {
        none = m == MPI_UNDEFINED;
        if (none)
            m = 0;
        for (int k = 0; k < m; k++) {
            int j = o.out[k];
            requests[o.idx[j]] = o.req[j];
            if (statuses != MPI_STATUSES_IGNORE) {
                statuses[n] = o.st[k];
                if (rc != MPI_ERR_IN_STATUS)
                    statuses[n].MPI_ERROR = MPI_SUCCESS;
            }
            indices[n++] = o.idx[j];
        }
        if (rc == MPI_ERR_IN_STATUS && !any_err)
            first_err = MPI_ERR_IN_STATUS;
        any_err |= rc == MPI_ERR_IN_STATUS;
        rc = MPI_SUCCESS;
    }
    others_free(&o);
    if (rc != MPI_SUCCESS)
        return rc;
    /* MPI_UNDEFINED: nothing in the array is active, the MPI library's or vine's. */
    *outcount = n == 0 && !active && none ? MPI_UNDEFINED : n;
    if (any_err)
        return statuses == MPI_STATUSES_IGNORE ? first_err : MPI_ERR_IN_STATUS;
    return MPI_SUCCESS;
}

int vine_testsome(int incount, MPI_Request requests[], int *outcount, int indices[],
                  MPI_Status *statuses)
{
    if (incount < 0 || !outcount || (incount > 0 && (!requests || !indices)))
        return MPI_ERR_ARG;
    enter();
    int rc = testsome_(incount, requests, outcount, indices, statuses);
    leave();
    return rc;
}

int vine_waitsome(int incount, MPI_Request requests[], int *outcount, int indices[],
                  MPI_Status *statuses)
{
    if (incount < 0 || !outcount || (incount > 0 && (!requests || !indices)))
        return MPI_ERR_ARG;
    if (direct(incount, requests))
        return PMPI_Waitsome(incount, requests, outcount, indices, statuses);
    for (unsigned spins = 0;; idle(&spins)) {
        int rc = vine_testsome(incount, requests, outcount, indices, statuses);
        if (rc != MPI_SUCCESS || *outcount != 0)
            return rc;
    }
}
