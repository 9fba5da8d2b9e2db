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

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if !defined(VINE_NO_SHM)
#include <sys/uio.h>
#endif

/* Each rank's region unless VINE_SHM_BYTES says otherwise. */
#define SHM_BYTES_DEFAULT ((size_t)1 << 20)
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

#else

static int env_off(const char *name)
{
    const char *v = getenv(name);
    return v && strcmp(v, "0") == 0;
}

/* VINE_SHM_BYTES: a byte count (K, M, G suffixes); 0 on a bad value. */
static size_t env_bytes(void)
{
    const char *v = getenv("VINE_SHM_BYTES");
    if (!v || !*v)
        return SHM_BYTES_DEFAULT;
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

/* Fills the per-rank tables of x from the window; returns 0 on failure. */
static int map_ranks(vine_comm_state *st, int nn)
{
    vine_shm_state *sh = &st->shm;
    int *who = malloc((size_t)nn * sizeof *who);
    sh->x.line = calloc((size_t)st->p, sizeof *sh->x.line);
    sh->x.region = calloc((size_t)st->p, sizeof *sh->x.region);
    if (!who || !sh->x.line || !sh->x.region ||
        PMPI_Allgather(&st->rank, 1, MPI_INT, who, 1, MPI_INT, sh->node) != MPI_SUCCESS) {
        free(who);
        return 0;
    }
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
    free(who);
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

void vine__shm_setup(vine_comm_state *st)
{
    vine_shm_state *sh = &st->shm;
    int nn = 0, me = 0, rc;
    sh->bytes = env_bytes();
    int want = !env_off("VINE_SHM") && sh->bytes > 0;
    /* Every rank takes part in every collective below, whatever it found. */
    rc = MPI_Comm_split_type(st->comm, MPI_COMM_TYPE_SHARED, st->rank, MPI_INFO_NULL, &sh->node);
    if (rc != MPI_SUCCESS)
        sh->node = MPI_COMM_NULL; /* undefined after an error */
    if (rc == MPI_SUCCESS)
        rc = MPI_Comm_size(sh->node, &nn);
    if (rc == MPI_SUCCESS)
        rc = MPI_Comm_rank(sh->node, &me);
    int all = agree(rc == MPI_SUCCESS && nn == st->p, st->comm);
    if (!agree(want && rc == MPI_SUCCESS, st->comm)) {
        snprintf(sh->msg, sizeof sh->msg, "none (%s)",
                 want ? "MPI_Comm_split_type failed" : "VINE_SHM=0 or VINE_SHM_BYTES invalid");
        return;
    }
    MPI_Info info;
    void *base = NULL;
    int made = MPI_Info_create(&info) == MPI_SUCCESS;
    if (made) {
        MPI_Info_set(info, "alloc_shared_noncontig", "true");
        made = PMPI_Win_allocate_shared((MPI_Aint)(VINE_SHM_HEAD + sh->bytes), 1, info, sh->node,
                                        &base, &sh->win) == MPI_SUCCESS;
        MPI_Info_free(&info);
    }
    /* A window's default error handler aborts: errors here are fallbacks. */
    if (made)
        made = PMPI_Win_set_errhandler(sh->win, MPI_ERRORS_RETURN) == MPI_SUCCESS;
    if (made) {
        memset(base, 0, VINE_SHM_LINE);
        made = sh->locked = PMPI_Win_lock_all(MPI_MODE_NOCHECK, sh->win) == MPI_SUCCESS;
    }
    made = made && map_ranks(st, nn);
    /* The agreement also orders the zeroed lines before anyone polls them. */
    if (!agree(made, st->comm)) {
        snprintf(sh->msg, sizeof sh->msg, "none (MPI_Win_allocate_shared of %zu bytes failed)",
                 VINE_SHM_HEAD + sh->bytes);
        vine__shm_free(st, 1);
        return;
    }
    sh->x.p = st->p;
    sh->x.me = st->rank;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    /* More ranks than cores: a spinning rank would hold the core its peer needs. */
    sh->x.spins = cores > 0 && nn > cores ? 0 : SHM_SPINS_DEFAULT;
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
    sh->ok = 1;
    sh->all = all;
    snprintf(sh->msg, sizeof sh->msg, "%zu bytes per rank, %d ranks on this node%s, single copy %s",
             sh->bytes, nn, all ? " (all)" : "",
             sh->x.single ? "on" : single ? "off (VINE_SHM_SINGLE_COPY=0 or a peer)" : "refused");
}

void vine__shm_free(vine_comm_state *st, int mpi_ok)
{
    vine_shm_state *sh = &st->shm;
    if (sh->win != MPI_WIN_NULL && mpi_ok) {
        if (sh->locked)
            PMPI_Win_unlock_all(sh->win);
        PMPI_Win_free(&sh->win);
    }
    sh->locked = 0;
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
