/*
 * The MPI runtime of the pattern benchmarks (include/vine/bench.h): the
 * persistent communicator, add/start/wait/measure and the asynchronous and
 * concurrent step sequences of CommBench (Hidayetoglu et al., ICS 2024;
 * ../shared/papers/commbench.txt section 4.1, listing 1, and figure 5).
 *
 * Every rank records the whole matrix (for the report and for a consistency
 * check across ranks when measuring) and keeps, apart from it, the messages
 * it sends or receives with their addresses.  start() posts all receives,
 * then all sends, as MPI_Irecv/MPI_Isend of MPI_BYTE, split into pieces of at
 * most INT_MAX bytes; wait() is one MPI_Waitall.  Messages match by order:
 * every rank posts the messages of a (sender, receiver) pair in the order
 * they were added, on one tag of a private duplicate communicator, so a
 * pattern's messages never match another pattern's or the user's.
 *
 * An asynchronous sequence runs start(step), wait(step) for each step in
 * turn on each rank: a rank blocks only on its own messages of the current
 * step, and a rank without messages in a step moves straight on, so a step's
 * data dependencies are kept without a barrier between steps.  A concurrent
 * sequence starts every step and then waits for each.
 *
 * Cost per start/wait on a rank: O(its messages + pieces) MPI calls; the
 * matrix costs O(all messages) memory on every rank.
 */
#include "vine/bench.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { PATTERN_TAG = 0 };

/* A message this rank sends or receives. */
typedef struct local_msg {
    int peer;
    int send; /* 1: this rank sends; 0: it receives */
    char *addr;
    size_t bytes;
} local_msg;

struct vine_bench_pattern_s {
    MPI_Comm comm; /* the private duplicate */
    int p, rank;
    vine_bench_matrix m;
    local_msg *local;
    size_t nlocal, caplocal;
    size_t npieces; /* requests one start posts */
    MPI_Request *reqs;
    size_t capreqs;
    int active;    /* started and not yet waited for */
    size_t posted; /* requests of the current start */
};

static int err_class(int rc)
{
    int cls = rc;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &cls);
    return cls;
}

static int from_status(int st)
{
    return st == VINE_BENCH_OK           ? MPI_SUCCESS
           : st == VINE_BENCH_ERR_NO_MEM ? MPI_ERR_NO_MEM
                                         : MPI_ERR_ARG;
}

/* Requests a message of this many bytes takes: pieces of at most INT_MAX, at least one. */
static size_t pieces(size_t bytes)
{
    return bytes ? (bytes - 1) / (size_t)INT_MAX + 1 : 1;
}

int vine_bench_create(MPI_Comm comm, vine_bench_pattern *pat)
{
    if (!pat)
        return MPI_ERR_ARG;
    *pat = NULL;
    if (comm == MPI_COMM_NULL)
        return MPI_ERR_COMM;
    int inter = 0, rc = MPI_Comm_test_inter(comm, &inter);
    if (rc != MPI_SUCCESS)
        return err_class(rc);
    if (inter)
        return MPI_ERR_COMM;
    struct vine_bench_pattern_s *s = calloc(1, sizeof *s);
    if (!s)
        return MPI_ERR_NO_MEM;
    rc = MPI_Comm_dup(comm, &s->comm);
    if (rc != MPI_SUCCESS) {
        free(s);
        return err_class(rc);
    }
    MPI_Comm_set_errhandler(s->comm, MPI_ERRORS_RETURN);
    MPI_Comm_size(s->comm, &s->p);
    MPI_Comm_rank(s->comm, &s->rank);
    rc = from_status(vine_bench_matrix_init(&s->m, s->p));
    if (rc != MPI_SUCCESS) {
        MPI_Comm_free(&s->comm);
        free(s);
        return rc;
    }
    *pat = s;
    return MPI_SUCCESS;
}

int vine_bench_free(vine_bench_pattern *pat)
{
    if (!pat || !*pat)
        return MPI_ERR_ARG;
    struct vine_bench_pattern_s *s = *pat;
    int rc = vine_bench_wait(s);
    int rc2 = MPI_Comm_free(&s->comm);
    vine_bench_matrix_free(&s->m);
    free(s->local);
    free(s->reqs);
    free(s);
    *pat = NULL;
    return rc != MPI_SUCCESS ? rc : err_class(rc2);
}

/* Drops the messages past the first `count` of the matrix (after a failed add). */
static void truncate_matrix(vine_bench_matrix *m, size_t count)
{
    /* Re-adding message i writes slot i again, so the extents come out right. */
    vine_bench_matrix_clear(m);
    for (size_t i = 0; i < count; i++) {
        const vine_bench_msg x = m->msgs[i];
        (void)vine_bench_matrix_add(m, x.sendbuf, x.sendoff, x.recvbuf, x.recvoff, x.bytes,
                                    x.sender, x.receiver);
    }
}

static int reserve_local(struct vine_bench_pattern_s *s, size_t more)
{
    if (s->nlocal + more <= s->caplocal)
        return MPI_SUCCESS;
    size_t cap = s->caplocal ? 2 * s->caplocal : 16;
    while (cap < s->nlocal + more)
        cap *= 2;
    local_msg *v = realloc(s->local, cap * sizeof *v);
    if (!v)
        return MPI_ERR_NO_MEM;
    s->local = v;
    s->caplocal = cap;
    return MPI_SUCCESS;
}

/* Checks one message against this rank; 0 when it may be added. */
static int check_msg(const struct vine_bench_pattern_s *s, const void *sbase, size_t soff,
                     const void *rbase, size_t roff, size_t bytes, int sender, int receiver)
{
    if (sender < 0 || sender >= s->p || receiver < 0 || receiver >= s->p)
        return MPI_ERR_ARG;
    if (bytes > SIZE_MAX - soff || bytes > SIZE_MAX - roff)
        return MPI_ERR_ARG;
    if (bytes > 0 && ((s->rank == sender && !sbase) || (s->rank == receiver && !rbase)))
        return MPI_ERR_BUFFER;
    return MPI_SUCCESS;
}

/* Adds one checked message: to the matrix, and to this rank's list when it takes part. */
static int add_one(struct vine_bench_pattern_s *s, int sbuf, const void *sbase, size_t soff,
                   int rbuf, void *rbase, size_t roff, size_t bytes, int sender, int receiver)
{
    int rc = reserve_local(s, 2);
    if (rc == MPI_SUCCESS)
        rc = from_status(
            vine_bench_matrix_add(&s->m, sbuf, soff, rbuf, roff, bytes, sender, receiver));
    if (rc != MPI_SUCCESS)
        return rc;
    /* The receive first: a message to itself posts its receive before its send. */
    if (s->rank == receiver) {
        char *a = rbase ? (char *)rbase + roff : NULL;
        s->local[s->nlocal++] = (local_msg){sender, 0, a, bytes};
        s->npieces += pieces(bytes);
    }
    if (s->rank == sender) {
        char *a = sbase ? (char *)(uintptr_t)sbase + soff : NULL;
        s->local[s->nlocal++] = (local_msg){receiver, 1, a, bytes};
        s->npieces += pieces(bytes);
    }
    return MPI_SUCCESS;
}

int vine_bench_add(vine_bench_pattern pat, const void *sendbuf, size_t sendoffset, void *recvbuf,
                   size_t recvoffset, size_t count, int sender, int receiver)
{
    if (!pat)
        return MPI_ERR_ARG;
    if (pat->active)
        return MPI_ERR_PENDING;
    int rc = check_msg(pat, sendbuf, sendoffset, recvbuf, recvoffset, count, sender, receiver);
    if (rc == MPI_SUCCESS)
        rc = add_one(pat, VINE_BENCH_BUF_SEND, sendbuf, sendoffset, VINE_BENCH_BUF_RECV, recvbuf,
                     recvoffset, count, sender, receiver);
    return rc;
}

int vine_bench_add_matrix(vine_bench_pattern pat, const vine_bench_matrix *m,
                          void *const bufs[VINE_BENCH_NBUF])
{
    if (!pat || !m)
        return MPI_ERR_ARG;
    if (pat->active)
        return MPI_ERR_PENDING;
    if (m->p != pat->p)
        return MPI_ERR_ARG;
    /* All or nothing: check every message first, undo on a failed allocation. */
    for (size_t i = 0; i < m->count; i++) {
        const vine_bench_msg *x = &m->msgs[i];
        if (x->sendbuf < 0 || x->sendbuf >= VINE_BENCH_NBUF || x->recvbuf < 0 ||
            x->recvbuf >= VINE_BENCH_NBUF)
            return MPI_ERR_ARG;
        int rc =
            check_msg(pat, bufs ? bufs[x->sendbuf] : NULL, x->sendoff,
                      bufs ? bufs[x->recvbuf] : NULL, x->recvoff, x->bytes, x->sender, x->receiver);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    size_t count = pat->m.count, nlocal = pat->nlocal, npieces = pat->npieces;
    for (size_t i = 0; i < m->count; i++) {
        const vine_bench_msg *x = &m->msgs[i];
        int rc =
            add_one(pat, x->sendbuf, bufs ? bufs[x->sendbuf] : NULL, x->sendoff, x->recvbuf,
                    bufs ? bufs[x->recvbuf] : NULL, x->recvoff, x->bytes, x->sender, x->receiver);
        if (rc != MPI_SUCCESS) {
            truncate_matrix(&pat->m, count);
            pat->nlocal = nlocal;
            pat->npieces = npieces;
            return rc;
        }
    }
    return MPI_SUCCESS;
}

/* Posts the pieces of this rank's messages of one kind (receives or sends). */
static int post(struct vine_bench_pattern_s *s, int send)
{
    for (size_t i = 0; i < s->nlocal; i++) {
        const local_msg *x = &s->local[i];
        if (x->send != send)
            continue;
        size_t done = 0;
        do {
            size_t left = x->bytes - done;
            int k = left > (size_t)INT_MAX ? INT_MAX : (int)left, rc;
            char *a = x->addr ? x->addr + done : NULL;
            MPI_Request *r = &s->reqs[s->posted];
            if (send)
                rc = MPI_Isend(a, k, MPI_BYTE, x->peer, PATTERN_TAG, s->comm, r);
            else
                rc = MPI_Irecv(a, k, MPI_BYTE, x->peer, PATTERN_TAG, s->comm, r);
            if (rc != MPI_SUCCESS)
                return err_class(rc);
            s->posted++;
            done += (size_t)k;
        } while (done < x->bytes);
    }
    return MPI_SUCCESS;
}

int vine_bench_start(vine_bench_pattern pat)
{
    if (!pat)
        return MPI_ERR_ARG;
    if (pat->active)
        return MPI_ERR_PENDING;
    if (pat->capreqs < pat->npieces) {
        MPI_Request *r = realloc(pat->reqs, pat->npieces * sizeof *r);
        if (!r)
            return MPI_ERR_NO_MEM;
        pat->reqs = r;
        pat->capreqs = pat->npieces;
    }
    pat->posted = 0;
    pat->active = 1;
    int rc = post(pat, 0);
    if (rc == MPI_SUCCESS)
        rc = post(pat, 1);
    return rc;
}

/* GCC 11 and later wrongly warn on MPICH's MPI_STATUSES_IGNORE (as in src/sched/exec.c). */
static int wait_all(size_t n, MPI_Request *reqs)
{
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif
    return err_class(MPI_Waitall((int)n, reqs, MPI_STATUSES_IGNORE));
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
}

int vine_bench_wait(vine_bench_pattern pat)
{
    if (!pat)
        return MPI_ERR_ARG;
    if (!pat->active)
        return MPI_SUCCESS;
    pat->active = 0;
    if (pat->posted == 0)
        return MPI_SUCCESS;
    return wait_all(pat->posted, pat->reqs);
}

/* Start and wait of every step in mode; local apart from the messages. */
static int run(const vine_bench_pattern *steps, int nsteps, int mode)
{
    int rc = MPI_SUCCESS;
    if (mode == VINE_BENCH_ASYNC) {
        for (int i = 0; i < nsteps && rc == MPI_SUCCESS; i++) {
            rc = vine_bench_start(steps[i]);
            int rc2 = vine_bench_wait(steps[i]);
            if (rc == MPI_SUCCESS)
                rc = rc2;
        }
        return rc;
    }
    int started = 0;
    while (started < nsteps && rc == MPI_SUCCESS) {
        rc = vine_bench_start(steps[started]);
        started++;
    }
    for (int i = 0; i < started; i++) {
        int rc2 = vine_bench_wait(steps[i]);
        if (rc == MPI_SUCCESS)
            rc = rc2;
    }
    return rc;
}

/* Local checks of a sequence: every rank gets the same answer from the same arguments. */
static int check_steps(const vine_bench_pattern *steps, int nsteps, int mode)
{
    if (!steps || nsteps < 1 || (mode != VINE_BENCH_ASYNC && mode != VINE_BENCH_CONCURRENT))
        return MPI_ERR_ARG;
    for (int i = 0; i < nsteps; i++) {
        if (!steps[i])
            return MPI_ERR_ARG;
        if (steps[i]->active)
            return MPI_ERR_PENDING;
        if (i == 0)
            continue;
        int cmp, rc = MPI_Comm_compare(steps[0]->comm, steps[i]->comm, &cmp);
        if (rc != MPI_SUCCESS)
            return err_class(rc);
        if (cmp != MPI_IDENT && cmp != MPI_CONGRUENT)
            return MPI_ERR_COMM;
        for (int j = 0; j < i && mode == VINE_BENCH_CONCURRENT; j++)
            if (steps[j] == steps[i])
                return MPI_ERR_ARG;
    }
    return MPI_SUCCESS;
}

int vine_bench_run_steps(const vine_bench_pattern *steps, int nsteps, int mode)
{
    int rc = check_steps(steps, nsteps, mode);
    return rc == MPI_SUCCESS ? run(steps, nsteps, mode) : rc;
}

/* FNV-1a over what every rank must agree on: p and each message's ranks and size. */
static unsigned long long matrix_hash(const vine_bench_matrix *m)
{
    unsigned long long h = 1469598103934665603ULL;
    unsigned long long words[3];
    h = (h ^ (unsigned long long)m->p) * 1099511628211ULL;
    for (size_t i = 0; i < m->count; i++) {
        words[0] = (unsigned long long)m->msgs[i].sender;
        words[1] = (unsigned long long)m->msgs[i].receiver;
        words[2] = (unsigned long long)m->msgs[i].bytes;
        for (int w = 0; w < 3; w++)
            h = (h ^ words[w]) * 1099511628211ULL;
    }
    return h;
}

int vine_bench_measure_steps(const vine_bench_pattern *steps, int nsteps, int mode, int warmup,
                             int iterations, double *times)
{
    int rc = check_steps(steps, nsteps, mode);
    if (rc != MPI_SUCCESS)
        return rc;
    if (warmup < 0 || iterations < 0 || warmup > INT_MAX - iterations || (iterations > 0 && !times))
        return MPI_ERR_ARG;
    MPI_Comm comm = steps[0]->comm;
    double *local = malloc((iterations ? (size_t)iterations : 1) * sizeof *local);
    /* Agree, one allreduce per step, that every rank has its memory and the
     * same matrix: MAX of [failed, h, ~h] equals [0, h, ~h] on every rank. */
    for (int i = 0; i < nsteps && rc == MPI_SUCCESS; i++) {
        unsigned long long h = matrix_hash(&steps[i]->m), v[3] = {!local, h, ~h}, all[3];
        rc = err_class(MPI_Allreduce(v, all, 3, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm));
        if (rc == MPI_SUCCESS && all[0])
            rc = MPI_ERR_NO_MEM; /* here or on another rank */
        else if (rc == MPI_SUCCESS && (all[1] != h || all[2] != ~h))
            rc = MPI_ERR_ARG; /* the ranks registered different matrices */
    }
    for (int it = 0; it < warmup + iterations && rc == MPI_SUCCESS; it++) {
        rc = err_class(MPI_Barrier(comm));
        double t0 = MPI_Wtime();
        if (rc == MPI_SUCCESS)
            rc = run(steps, nsteps, mode);
        double t = MPI_Wtime() - t0;
        if (it >= warmup)
            local[it - warmup] = t;
    }
    if (rc == MPI_SUCCESS && iterations > 0)
        rc = err_class(MPI_Allreduce(local, times, iterations, MPI_DOUBLE, MPI_MAX, comm));
    free(local);
    return rc;
}

int vine_bench_measure(vine_bench_pattern pat, int warmup, int iterations, double *times)
{
    return vine_bench_measure_steps(&pat, 1, VINE_BENCH_ASYNC, warmup, iterations, times);
}

int vine_bench_get_matrix(vine_bench_pattern pat, const vine_bench_matrix **m)
{
    if (!pat || !m)
        return MPI_ERR_ARG;
    *m = &pat->m;
    return MPI_SUCCESS;
}

int vine_bench_get_comm(vine_bench_pattern pat, MPI_Comm *comm)
{
    if (!pat || !comm)
        return MPI_ERR_ARG;
    *comm = pat->comm;
    return MPI_SUCCESS;
}
