/*
 * The node segment of a communicator (docs/shm.md).
 *
 * The ranks of each node (MPI_Comm_split_type with MPI_COMM_TYPE_SHARED on
 * vine's private communicator) allocate one window with
 * MPI_Win_allocate_shared: per rank a line of VINE_SHM_LINE bytes (its flag
 * and inline parity and eager slots), a parity area and an eager area of two
 * slots of VINE_SHM_PAR_BYTES each, and a region of VINE_SHM_BYTES bytes (default 1 MiB), each
 * rank's part on its own pages (alloc_shared_noncontig), so that first touch places it in the
 * rank's NUMA node.  Set-up then probes cross-memory attach: every rank reads a word of the next
 * rank of its node with process_vm_readv; single copy is on when that works everywhere on the node
 * and VINE_SHM_SINGLE_COPY is not 0.  Every outcome is agreed over the whole communicator, so that
 * all ranks choose the same algorithms.  Anything that fails leaves the
 * communicator without a segment: the shm family is then never chosen, and
 * the point-to-point algorithms serve every call.
 *
 * The collectives and window calls of set-up go to the MPI library by their
 * PMPI_ names, so that libvine-mpi.so, which serves MPI_<Coll> and counts
 * the program's windows (vine_shm_sync_progress), neither calls itself nor
 * counts vine's own window.
 *
 * The SimGrid build has no segment (SMPI simulates networks, not memory).
 */
#define _GNU_SOURCE
#include "api.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if !defined(VINE_NO_SHM)
#include <sys/mman.h>
#include <sys/statvfs.h>
#include <sys/uio.h>
#endif

/* Each rank's region unless VINE_SHM_BYTES says otherwise. */
#define SHM_BYTES_DEFAULT ((size_t)1 << 20)
/* The most bytes of node segments one rank holds unless VINE_SHM_MAX says otherwise. */
#define SHM_MAX_DEFAULT ((size_t)64 << 20)
/* Flag polls before a waiting rank starts yielding its core. */
#define SHM_SPINS_DEFAULT 20000UL

/* vine_shm_sync_progress's count (read by call.c and request.c as a call on the segment ends). */
atomic_int vine__shm_sync_count;

int vine_shm_sync_progress(int delta)
{
    int n = atomic_load_explicit(&vine__shm_sync_count, memory_order_relaxed), want;
    do
        want =
            delta < 0 ? (n < -delta ? 0 : n + delta) : (n > INT_MAX - delta ? INT_MAX : n + delta);
    while (!atomic_compare_exchange_weak_explicit(&vine__shm_sync_count, &n, want,
                                                  memory_order_relaxed, memory_order_relaxed));
    return want;
}

#if defined(VINE_NO_SHM)

void vine__shm_setup(vine_comm_state *st)
{
    snprintf(st->shm.msg, sizeof st->shm.msg, "none (the SimGrid build has no shared memory)");
}

void vine__shm_free(vine_comm_state *st, int mpi_ok)
{
    (void)st;
    (void)mpi_ok;
}

int vine__shm_own_take(vine_comm_state *st, int region)
{
    (void)st;
    (void)region;
    return -1;
}

void vine__shm_own_give(vine_comm_state *st, int i)
{
    (void)st;
    (void)i;
}

vine_exec_shm *vine__shm_own_exec(vine_comm_state *st, int i)
{
    (void)st;
    (void)i;
    return NULL;
}

void vine__shm_own_release(vine_comm_state *st)
{
    (void)st;
}

void vine__shm_own_drop(vine_comm_state *st)
{
    (void)st;
}

#else

static int env_off(const char *name)
{
    const char *v = getenv(name);
    return v && strcmp(v, "0") == 0;
}

/* A byte count (K, M, G suffixes) in variable name, dflt when unset; 0 on a bad value. */
static size_t env_bytes(const char *name, size_t dflt)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return dflt;
    char *end;
    unsigned long long n = strtoull(v, &end, 10);
    if (end == v)
        return 0;
    int shift = *end == 'K' ? 10 : *end == 'M' ? 20 : *end == 'G' ? 30 : 0;
    if (shift)
        end++;
    if (*end == 'i' && shift)
        end++;
    if (*end == 'B' && shift)
        end++;
    if (*end || n > ((unsigned long long)1 << 40) >> shift)
        return 0;
    return (size_t)(n << shift) / 64 * 64;
}

/* Bytes of the node segments this process holds (its own parts), against VINE_SHM_MAX. */
static atomic_size_t held_bytes;

/*
 * The directory of the windows' backing files: Open MPI's
 * osc_sm_backing_directory when the environment sets it, /dev/shm otherwise
 * (Open MPI's default on Linux, and where MPICH's shared memory lies).
 */
static const char *backing_dir(void)
{
    const char *d = getenv("OMPI_MCA_osc_sm_backing_directory");
    return d && *d ? d : "/dev/shm";
}

/*
 * Whether the backing directory's file system has room for need bytes and
 * still an eighth of its size free after them, so that the MPI library's own
 * shared memory keeps room too.  1 also when statvfs cannot tell.  Open MPI
 * 4.1 checks the room on one rank of the node only and hangs the others when
 * it is short, so the check comes first, on every rank.
 */
static int room_for(size_t need)
{
    struct statvfs fs;
    if (statvfs(backing_dir(), &fs) != 0 || fs.f_frsize == 0)
        return 1;
    unsigned long long avail = (unsigned long long)fs.f_bavail * fs.f_frsize;
    unsigned long long total = (unsigned long long)fs.f_blocks * fs.f_frsize;
    return avail >= need && avail - need >= total / 8;
}

#if !defined(MADV_POPULATE_WRITE)
#define MADV_POPULATE_WRITE 23
#endif

/*
 * Claims every page of this rank's part now (the owner faults them in, so
 * first touch still places them on its NUMA node).  The window's memory is a
 * file of a tmpfs: a page first written when that file system is full raises
 * SIGBUS, and MADV_POPULATE_WRITE (Linux 5.14) says so as an error instead.
 * Older kernels refuse the advice (EINVAL): the pages are touched one by one
 * there, and room_for, checked just before, stands for the kernel's answer.
 */
static int claim(void *base, size_t len)
{
    long pg = sysconf(_SC_PAGESIZE);
    if (pg <= 0)
        pg = 4096;
    uintptr_t from = (uintptr_t)base & ~(uintptr_t)(pg - 1);
    if (madvise((void *)from, len + ((uintptr_t)base - from), MADV_POPULATE_WRITE) == 0)
        return 1;
    if (errno != EINVAL)
        return 0;
    volatile char *c = base;
    for (size_t off = 0; off < len; off += (size_t)pg)
        c[off] = 0;
    c[len - 1] = 0;
    return 1;
}

/* Why a communicator has no segment, worst last: set-up agrees on the largest. */
enum { SHM_YES, SHM_NO_ROOM, SHM_AT_MAX, SHM_SPLIT_FAILED, SHM_OFF };
enum { WIN_YES, WIN_NO_CLAIM, WIN_NO_MEM, WIN_NO_WINDOW };

/* The largest of every rank's why over comm; failed if the call fails. */
static int agree_why(int why, MPI_Comm comm, int failed)
{
    int worst = failed;
    if (PMPI_Allreduce(&why, &worst, 1, MPI_INT, MPI_MAX, comm) != MPI_SUCCESS)
        return failed;
    return worst;
}

/* A word that peers read with process_vm_readv to see whether single copy works. */
static volatile uint64_t probe_word = 0x76696e65u;

/* Every rank's answer to yes, over comm (logical and). */
static int agree(int yes, MPI_Comm comm)
{
    int all = 0;
    if (PMPI_Allreduce(&yes, &all, 1, MPI_INT, MPI_LAND, comm) != MPI_SUCCESS)
        return 0;
    return all;
}

/*
 * Fills the per-rank tables of sh->x (allocated) from its window, with who
 * (nn entries) for scratch; returns 0 on failure.  Collective over the node.
 */
static int map_ranks(const vine_comm_state *st, vine_shm_state *sh, int nn, int *who)
{
    if (PMPI_Allgather(&st->rank, 1, MPI_INT, who, 1, MPI_INT, sh->node) != MPI_SUCCESS)
        return 0;
    int ok = 1;
    for (int i = 0; i < nn && ok; i++) {
        MPI_Aint size;
        int disp;
        void *base;
        ok = PMPI_Win_shared_query(sh->win, i, &size, &disp, &base) == MPI_SUCCESS &&
             (size_t)size >= VINE_SHM_HEAD + sh->bytes && who[i] >= 0 && who[i] < st->p;
        if (ok) {
            sh->x.line[who[i]] = base;
            sh->x.region[who[i]] = (char *)base + VINE_SHM_HEAD;
        }
    }
    return ok;
}

/* Whether this rank can read the next rank of its node with process_vm_readv. */
static int probe_single(vine_comm_state *st, int nn, int me)
{
    vine_shm_line *mine = st->shm.x.line[st->rank];
    mine->pid = (uint64_t)getpid();
    mine->sendbuf = (uint64_t)(uintptr_t)&probe_word;
    if (PMPI_Barrier(st->shm.node) != MPI_SUCCESS)
        return 0;
    if (nn == 1)
        return 1;
    int next = -1;
    for (int r = 0, seen = 0; r < st->p && next < 0; r++)
        if (st->shm.x.line[r] && seen++ == (me + 1) % nn)
            next = r;
    vine_shm_line *l = st->shm.x.line[next];
    uint64_t got = 0;
    struct iovec local = {&got, sizeof got};
    struct iovec remote = {(void *)(uintptr_t)l->sendbuf, sizeof got};
    ssize_t n = process_vm_readv((pid_t)l->pid, &local, 1, &remote, 1, 0);
    return n == (ssize_t)sizeof got && got == probe_word;
}

/* Frees sh's window (mpi_ok: the MPI library may still be called) and its tables. */
static void segment_free(vine_shm_state *sh, int mpi_ok)
{
    if (sh->win != MPI_WIN_NULL && mpi_ok) {
        if (sh->locked)
            PMPI_Win_unlock_all(sh->win);
        PMPI_Win_free(&sh->win);
    }
    sh->locked = 0;
    atomic_fetch_sub(&held_bytes, sh->held);
    sh->held = 0;
    if (sh->node != MPI_COMM_NULL && mpi_ok)
        MPI_Comm_free(&sh->node);
    sh->win = MPI_WIN_NULL;
    sh->node = MPI_COMM_NULL;
    free(sh->x.line);
    free(sh->x.region);
    sh->x.line = NULL;
    sh->x.region = NULL;
    sh->ok = sh->all = sh->nodes = 0;
}

/*
 * Makes sh's window of sh->bytes a rank on st's nodes (the split by node,
 * the room, VINE_SHM_MAX, the window, its pages, its lock, the ranks' map),
 * every outcome agreed over st->comm; want 0 makes none (VINE_SHM=0).
 * Returns 1 with sh->node still open, *nn and *me its size and this rank's
 * rank there, and *all whether it holds all p ranks; 0 with sh->msg saying
 * why and nothing left to free.  Collective over st->comm.
 */
static int segment_make(vine_comm_state *st, vine_shm_state *sh, int want, int *nn, int *me,
                        int *all)
{
    size_t max = env_bytes("VINE_SHM_MAX", SHM_MAX_DEFAULT), part = VINE_SHM_HEAD + sh->bytes;
    want = want && sh->bytes > 0 && max > 0;
    *nn = *me = 0;
    sh->win = MPI_WIN_NULL;
    sh->locked = 0;
    /* Every rank takes part in every collective below, whatever it found. */
    int rc =
        MPI_Comm_split_type(st->comm, MPI_COMM_TYPE_SHARED, st->rank, MPI_INFO_NULL, &sh->node);
    if (rc != MPI_SUCCESS)
        sh->node = MPI_COMM_NULL; /* undefined after an error */
    if (rc == MPI_SUCCESS)
        rc = MPI_Comm_size(sh->node, nn);
    if (rc == MPI_SUCCESS)
        rc = MPI_Comm_rank(sh->node, me);
    *all = agree(rc == MPI_SUCCESS && *nn == st->p, st->comm);
    int why = SHM_YES;
    if (!want)
        why = SHM_OFF;
    else if (rc != MPI_SUCCESS)
        why = SHM_SPLIT_FAILED;
    else if (atomic_load(&held_bytes) + part > max)
        why = SHM_AT_MAX;
    else if (!room_for(part * (size_t)*nn))
        why = SHM_NO_ROOM;
    why = agree_why(why, st->comm, SHM_SPLIT_FAILED);
    if (why != SHM_YES) {
        static const char *const text[] = {
            [SHM_NO_ROOM] = "too little free space in the backing directory of a rank's node: "
                            "a segment must leave an eighth of the file system free",
            [SHM_AT_MAX] = "a rank holds VINE_SHM_MAX bytes of other communicators' segments",
            [SHM_SPLIT_FAILED] = "MPI_Comm_split_type failed",
            [SHM_OFF] = "VINE_SHM=0, or VINE_SHM_BYTES or VINE_SHM_MAX invalid"};
        snprintf(sh->msg, sizeof sh->msg, "none (%s)", text[why]);
        if (sh->node != MPI_COMM_NULL)
            MPI_Comm_free(&sh->node);
        return 0;
    }
    MPI_Info info;
    void *base = NULL;
    int made = MPI_Info_create(&info) == MPI_SUCCESS;
    if (made) {
        MPI_Info_set(info, "alloc_shared_noncontig", "true");
        made = PMPI_Win_allocate_shared((MPI_Aint)part, 1, info, sh->node, &base, &sh->win) ==
               MPI_SUCCESS;
        MPI_Info_free(&info);
    }
    /* A window's default error handler aborts: errors here are fallbacks. */
    if (made)
        made = PMPI_Win_set_errhandler(sh->win, MPI_ERRORS_RETURN) == MPI_SUCCESS;
    int *who = malloc((size_t)*nn * sizeof *who);
    sh->x.line = calloc((size_t)st->p, sizeof *sh->x.line);
    sh->x.region = calloc((size_t)st->p, sizeof *sh->x.region);
    int win = !made                                  ? WIN_NO_WINDOW
              : !who || !sh->x.line || !sh->x.region ? WIN_NO_MEM
              : !claim(base, part)                   ? WIN_NO_CLAIM
                                                     : WIN_YES;
    if (win == WIN_YES) {
        memset(base, 0, VINE_SHM_LINE);
        sh->locked = PMPI_Win_lock_all(MPI_MODE_NOCHECK, sh->win) == MPI_SUCCESS;
        win = sh->locked ? WIN_YES : WIN_NO_WINDOW;
    }
    /* Agreed before map_ranks, which is collective over the node. */
    win = agree_why(win, st->comm, WIN_NO_WINDOW);
    /* The second agreement also orders the zeroed lines before anyone polls them. */
    int mapped = win == WIN_YES && agree(map_ranks(st, sh, *nn, who), st->comm);
    free(who);
    if (!mapped) {
        if (win == WIN_NO_CLAIM)
            snprintf(sh->msg, sizeof sh->msg,
                     "none (a rank could not claim the pages of its "
                     "part: the backing file system is full)");
        else if (win == WIN_NO_MEM)
            snprintf(sh->msg, sizeof sh->msg, "none (out of memory on a rank)");
        else
            snprintf(sh->msg, sizeof sh->msg, "none (%s of %zu bytes failed on a rank)",
                     win == WIN_NO_WINDOW ? "MPI_Win_allocate_shared" : "MPI_Win_shared_query",
                     part);
        segment_free(sh, 1);
        return 0;
    }
    sh->held = part;
    atomic_fetch_add(&held_bytes, part);
    sh->x.p = st->p;
    sh->x.me = st->rank;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    /* More ranks than cores: a spinning rank would hold the core its peer needs. */
    sh->x.spins = cores > 0 && *nn > cores ? 0 : SHM_SPINS_DEFAULT;
    return 1;
}

void vine__shm_setup(vine_comm_state *st)
{
    vine_shm_state *sh = &st->shm;
    int nn, me, all;
    sh->bytes = env_bytes("VINE_SHM_BYTES", SHM_BYTES_DEFAULT);
    if (!segment_make(st, sh, !env_off("VINE_SHM"), &nn, &me, &all))
        return;
    /* The hierarchical shm algorithms take level 0 of the level map for the
     * nodes: with pretend hosts it may differ from the real ones. */
    int nodes = st->levels_rc == MPI_SUCCESS && vine__levels_ready(&st->levels, st->p);
    if (nodes) {
        int n;
        const int *mem = vine__levels_members(
            &st->levels, 0, vine__levels_group(&st->levels, 0, st->rank), &n);
        for (int k = 0; k < n; k++)
            nodes = nodes && sh->x.line[mem[k]] != NULL;
    }
    sh->nodes = agree(nodes, st->comm);
    int single = probe_single(st, nn, me);
    sh->x.single = agree(single && !env_off("VINE_SHM_SINGLE_COPY"), st->comm);
    /* The window lives on without it, and MPICH has 2,048 communicators in all. */
    MPI_Comm_free(&sh->node);
    sh->ok = 1;
    sh->all = all;
    snprintf(sh->msg, sizeof sh->msg, "%zu bytes per rank, %d ranks on this node%s, single copy %s",
             sh->bytes, nn, all ? " (all)" : "",
             sh->x.single ? "on" : single ? "off (VINE_SHM_SINGLE_COPY=0 or a peer)" : "refused");
}

void vine__shm_free(vine_comm_state *st, int mpi_ok)
{
    segment_free(&st->shm, mpi_ok);
}

/*
 * Persistent requests' own segments.  MPI 4 lets the ranks start persistent
 * collectives in different orders, which the communicator's segment, whose
 * calls run in one order everywhere, cannot serve; a persistent request whose
 * schedule uses shared memory gets a window of its own at its _init instead
 * (collective, in one order everywhere), with its own call numbers.  A window
 * whose request every rank has freed goes to a later persistent request;
 * MPI_Comm_free frees the rest that no rank holds.
 */
/* The region of a segment whose schedules use only the flags and slots. */
#define OWN_SMALL_BYTES 64

int vine__shm_own_take(vine_comm_state *st, int region)
{
    if (!st->shm.ok)
        return -1; /* agreed at set-up */
    /* The segments free here, full and small, and whether this rank's schedule
     * leaves the region alone: one agreement (bitwise and) for all three. */
    uint64_t mine[3] = {0, 0, !region}, all[3];
    for (int i = 0; i < st->nown; i++)
        if (st->own[i] && !atomic_load(&st->own[i]->busy))
            mine[st->own[i]->full ? 0 : 1] |= (uint64_t)1 << i;
    if (PMPI_Allreduce(mine, all, 3, MPI_UINT64_T, MPI_BAND, st->comm) != MPI_SUCCESS)
        return -1;
    int small = (int)(all[2] & 1);
    uint64_t free_all = small && all[1] ? all[1] : all[0];
    for (int i = 0; i < st->nown; i++)
        if (free_all >> i & 1) {
            atomic_store(&st->own[i]->busy, 1);
            return i;
        }
    if (st->nown == VINE_SHM_OWN_MAX)
        return -1; /* the same count on every rank */
    if (!st->own)
        st->own = calloc(VINE_SHM_OWN_MAX, sizeof *st->own);
    vine_shm_own *o = st->own ? calloc(1, sizeof *o) : NULL;
    vine_shm_state none = {0};
    vine_shm_state *sh = o ? &o->sh : &none;
    int nn, me, all_ranks;
    sh->bytes = small ? OWN_SMALL_BYTES : st->shm.bytes;
    /* Out of memory on a rank: its want of 0 makes none anywhere. */
    if (!segment_make(st, sh, o != NULL, &nn, &me, &all_ranks)) {
        free(o);
        return -1;
    }
    /* The communicator's segment found the same nodes, ranks and kernel. */
    sh->x.line[st->rank]->pid = (uint64_t)getpid();
    sh->x.single = st->shm.x.single;
    sh->nodes = st->shm.nodes;
    sh->all = st->shm.all;
    MPI_Comm_free(&sh->node);
    sh->ok = 1;
    o->full = !small;
    atomic_store(&o->busy, 1);
    st->own[st->nown] = o;
    return st->nown++;
}

void vine__shm_own_give(vine_comm_state *st, int i)
{
    if (i >= 0 && i < st->nown && st->own[i])
        atomic_store(&st->own[i]->busy, 0);
}

vine_exec_shm *vine__shm_own_exec(vine_comm_state *st, int i)
{
    return &st->own[i]->sh.x;
}

void vine__shm_own_release(vine_comm_state *st)
{
    if (!st->nown)
        return; /* the same count on every rank */
    uint64_t mine = 0, free_all = 0;
    for (int i = 0; i < st->nown; i++)
        if (st->own[i] && !atomic_load(&st->own[i]->busy))
            mine |= (uint64_t)1 << i;
    if (PMPI_Allreduce(&mine, &free_all, 1, MPI_UINT64_T, MPI_BAND, st->comm) != MPI_SUCCESS)
        free_all = 0;
    for (int i = 0; i < st->nown; i++)
        if (free_all >> i & 1) {
            segment_free(&st->own[i]->sh, 1);
            free(st->own[i]);
            st->own[i] = NULL;
        }
}

void vine__shm_own_drop(vine_comm_state *st)
{
    /* A window that some rank still held at MPI_Comm_free: freeing it would
     * need every rank of the node, so it stays with the process. */
    for (int i = 0; i < st->nown; i++)
        if (st->own[i]) {
            segment_free(&st->own[i]->sh, 0);
            free(st->own[i]);
        }
    free(st->own);
    st->own = NULL;
    st->nown = 0;
}

#endif

/* Elements of t that fit in bytes: n elements span (n - 1) extents and one true extent. */
static size_t elems_in(size_t bytes, const vine_exec_type *t)
{
    if (t->extent <= 0 || t->true_extent < 0 || (size_t)t->true_extent > bytes)
        return 0;
    return (bytes - (size_t)t->true_extent) / (size_t)t->extent + 1;
}

static size_t region_elems(const vine_shm_state *sh, const vine_exec_type *t)
{
    return elems_in(sh->bytes, t);
}

size_t vine__shm_count(const vine_comm_state *st, const vine_exec_type *t)
{
    return st->shm.ok && st->shm.all ? region_elems(&st->shm, t) : 0;
}

size_t vine__shm_par_count(const vine_comm_state *st, const vine_exec_type *t)
{
    return vine__shm_count(st, t) ? elems_in(VINE_SHM_PAR_BYTES, t) : 0;
}

size_t vine__shm_node_count(const vine_comm_state *st, const vine_exec_type *t)
{
    return st->shm.ok && st->shm.nodes ? region_elems(&st->shm, t) : 0;
}
