/*
 * The shared-memory operations of the executor (sched.h, exec.h): flags as
 * single-writer 64-bit counters in the node segment, copies and reductions
 * straight from peers' regions, and single copy from peers' user buffers
 * with Linux cross-memory attach (process_vm_readv).
 *
 * A flag holds (call number << VINE_SHM_FLAG_BITS) | v.  Every rank counts
 * the calls of shm schedules on the communicator in x->seq, and all ranks run
 * the same calls in the same order (MPI's rule for collectives), so the call
 * numbers agree without a message.  Since a flag only grows, a WAIT for v of
 * this call is also satisfied by any value of a later call, which the peer
 * can only reach after it has finished this one.
 */
#define _GNU_SOURCE
#include "exec.h"

#include <sched.h>
#include <stddef.h>
#include <sys/uio.h>
#include <unistd.h>

char *vine__exec_shm_base(const vine_exec_shm *x, int r, const vine_exec_type *t)
{
    /* Element 0's lowest data byte is the region's first byte. */
    return x->region[r] - t->true_lb;
}

_Static_assert(sizeof(vine_shm_line) <= VINE_SHM_LINE, "the line outgrows VINE_SHM_LINE");
/* The slots share the flag's 64-byte cache line.  The struct asks for no more than 8-byte
 * alignment: MPI_Win_allocate_shared may place a rank's part at any 8-byte boundary. */
_Static_assert(offsetof(vine_shm_line, par) + 2 * VINE_SHM_INLINE <= 64,
               "the inline parity slots leave the flag's cache line");
_Static_assert(offsetof(vine_shm_line, eag) + 2 * VINE_SHM_EAG_INLINE <= 64,
               "the inline eager slots leave the flag's cache line");
_Static_assert(_Alignof(vine_shm_line) <= 8, "the line asks for more than 8-byte alignment");

char *vine__exec_shm_par(const vine_exec_shm *x, int r, const vine_exec_type *t)
{
    return (char *)x->line[r] + x->par_at - t->true_lb;
}

char *vine__exec_shm_eag(const vine_exec_shm *x, int r, const vine_exec_type *t)
{
    return (char *)x->line[r] + x->eag_at - t->true_lb;
}

/*
 * Whether n elements of t fit in bytes bytes, element 0's lowest data byte
 * first (n - 1 extents and one true extent).
 */
static int fits(const vine_exec_type *t, size_t n, size_t bytes)
{
    if (n == 0)
        return 1;
    if (t->extent <= 0 || t->true_extent < 0 || (size_t)t->true_extent > bytes)
        return 0;
    return n - 1 <= (bytes - (size_t)t->true_extent) / (size_t)t->extent;
}

void vine__exec_shm_start(vine_exec_shm *x, const vine_sched *s, const vine_exec_type *t,
                          const void *sendbuf, const void *recvbuf)
{
    vine_shm_line *l = x->line[x->me];
    x->seq++;
    if (s->par) {
        /* The j-th par call (j from 0) takes slot j mod 2 on every rank. */
        size_t slot = (size_t)(x->pseq++ & 1);
        if (fits(t, s->par_count, VINE_SHM_INLINE))
            x->par_at = offsetof(vine_shm_line, par) + slot * VINE_SHM_INLINE;
        else
            x->par_at = VINE_SHM_LINE + slot * VINE_SHM_PAR_BYTES;
    }
    if (s->eag) {
        /* The shm call numbered j takes eager slot j mod 2 on every rank (sched.h). */
        size_t slot = (size_t)(x->seq & 1);
        if (fits(t, s->eag_count, VINE_SHM_EAG_INLINE))
            x->eag_at = offsetof(vine_shm_line, eag) + slot * VINE_SHM_EAG_INLINE;
        else
            x->eag_at = VINE_SHM_EAG_AT + slot * VINE_SHM_PAR_BYTES;
    }
    l->sendbuf = (uint64_t)(uintptr_t)sendbuf;
    l->recvbuf = (uint64_t)(uintptr_t)recvbuf;
    atomic_store_explicit(&l->flag, x->seq << VINE_SHM_FLAG_BITS, memory_order_release);
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/*
 * Lets the MPI library progress while this rank waits on a flag.  MPI
 * promises that a rank blocked in an MPI call progresses what other ranks
 * wait on, passive-target RMA included (MPICH's MPI_Win_lock_all waits for
 * the target's progress engine: mpi4py's tests hung on a rank in the shm
 * barrier), and a flag wait calls no MPI function of its own.  An
 * MPI_Iprobe on vine's private communicator receives nothing and runs a pass
 * of the library's progress engine (on MPI_COMM_SELF, MPICH 4.0.2's does
 * not).  tests/mpi/test_progress.c checks it.
 */
#define POKE_EVERY 16
void vine__exec_shm_poke(MPI_Comm comm)
{
    int flag;
    PMPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &flag, MPI_STATUS_IGNORE);
}

/*
 * Waits until peer's flag reaches want: a short spin for the common case of a
 * peer a few hundred nanoseconds behind, then sched_yield between polls, so
 * that oversubscribed ranks (more ranks than cores) let the peer run, and
 * the MPI library's progress every POKE_EVERY of them.
 */
static void wait_flag(const vine_exec_shm *x, MPI_Comm comm, int peer, uint64_t want)
{
    _Atomic uint64_t *f = &x->line[peer]->flag;
    for (unsigned long i = 0; atomic_load_explicit(f, memory_order_acquire) < want; i++) {
        if (i < x->spins) {
            cpu_relax();
            continue;
        }
        /* vine's other outstanding requests advance too (a peer may wait
         * for them before it writes the flag), and so does the library. */
        if ((i - x->spins) % POKE_EVERY == POKE_EVERY - 1 && !vine__exec_advance_others())
            vine__exec_shm_poke(comm);
        sched_yield();
    }
}

/* The flag value a WAIT waits for: this call's v, or the previous call's start (WAIT PREV). */
static uint64_t wait_target(const vine_exec_shm *x, const vine_op *op)
{
    if (op->order == VINE_WAIT_PREV)
        return (x->seq - 1) << VINE_SHM_FLAG_BITS;
    return (x->seq << VINE_SHM_FLAG_BITS) | op->count;
}

int vine__exec_shm_ready(const vine_exec_call *c, const vine_op *op)
{
    if (op->kind != VINE_OP_WAIT)
        return 1;
    const vine_exec_shm *x = c->shm;
    uint64_t want = wait_target(x, op);
    int ready = atomic_load_explicit(&x->line[op->peer]->flag, memory_order_acquire) >= want;
    /* A program waiting on this request polls here: the library progresses
     * too (vine__exec_shm_poke), at a pace that keeps a poll cheap. */
    static _Thread_local unsigned polls;
    if (!ready && ++polls % POKE_EVERY == 0)
        vine__exec_shm_poke(c->comm);
    /* More ranks than cores (no spinning, see wait_flag): the flag's writer
     * may need this core, and a program polling vine_test would keep it. */
    if (!ready && x->spins == 0)
        sched_yield();
    return ready;
}

/* Reads bytes bytes at the peer's address from into to, with process_vm_readv. */
static int read_peer(const vine_exec_shm *x, int peer, uint64_t from, char *to, size_t bytes)
{
    pid_t pid = (pid_t)x->line[peer]->pid;
    while (bytes) {
        struct iovec local = {to, bytes};
        struct iovec remote = {(void *)(uintptr_t)from, bytes};
        ssize_t n = process_vm_readv(pid, &local, 1, &remote, 1, 0);
        if (n <= 0)
            return MPI_ERR_OTHER;
        to += n;
        from += (uint64_t)n;
        bytes -= (size_t)n;
    }
    return MPI_SUCCESS;
}

int vine__exec_shm_op(const vine_exec_call *c, char *const base[], const vine_op *op)
{
    const vine_exec_shm *x = c->shm;
    const vine_exec_type *t = c->type;
    uint64_t call = x->seq << VINE_SHM_FLAG_BITS;
    switch (op->kind) {
    case VINE_OP_SET:
        atomic_store_explicit(&x->line[x->me]->flag, call | op->count, memory_order_release);
        return MPI_SUCCESS;
    case VINE_OP_WAIT:
        wait_flag(x, c->comm, op->peer, wait_target(x, op));
        return MPI_SUCCESS;
    default:
        break;
    }
    char *dst = vine__exec_elem(base[op->dbuf], op->doff, t->extent);
    if (vine__buf_shared(op->buf)) {
        const char *src = op->buf == VINE_BUF_SHM   ? vine__exec_shm_base(x, op->peer, t)
                          : op->buf == VINE_BUF_PAR ? vine__exec_shm_par(x, op->peer, t)
                                                    : vine__exec_shm_eag(x, op->peer, t);
        src = vine__exec_elem(src, op->off, t->extent);
        if (op->kind == VINE_OP_GET)
            return vine__exec_copy(t, src, dst, op->count, c->comm, c->tag);
        return vine__exec_reduce(t, c->op, src, dst, op->count);
    }
    /* Single copy: the peer's user buffer, only for dense types and GET (docs/shm.md). */
    if (op->kind != VINE_OP_GET || !t->dense || !x->single ||
        (op->buf != VINE_BUF_SEND && op->buf != VINE_BUF_RECV))
        return MPI_ERR_INTERN;
    const vine_shm_line *l = x->line[op->peer];
    uint64_t from = op->buf == VINE_BUF_SEND ? l->sendbuf : l->recvbuf;
    from += (uint64_t)((MPI_Aint)op->off * t->extent + t->true_lb);
    return read_peer(x, op->peer, from, dst + t->true_lb, op->count * (size_t)t->extent);
}
