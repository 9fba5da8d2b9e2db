/*
 * The MPI executor (see exec.h).  It is the hot path of every vine call: a
 * cached schedule runs with no allocation, three passes over each round's
 * operations and one MPI_Waitall per round that communicates.
 */
#include "exec.h"

#include <limits.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The MPI error class of an MPI return code. */
static int err_class(int rc)
{
    int cls = MPI_ERR_OTHER;
    if (rc == MPI_SUCCESS)
        return MPI_SUCCESS;
    if (MPI_Error_class(rc, &cls) != MPI_SUCCESS)
        return MPI_ERR_OTHER;
    return cls;
}

/* base + bytes; integer arithmetic lets base be MPI_BOTTOM (NULL) for derived
 * types with absolute displacements. */
static inline char *shift(const void *base, MPI_Aint bytes)
{
    return (char *)((uintptr_t)base + (uintptr_t)bytes);
}

/* Element off of a buffer whose element 0 is at base. */
static inline char *elem(const void *base, size_t off, MPI_Aint extent)
{
    return shift(base, (MPI_Aint)off * extent);
}

/* The largest piece an int count can describe. */
static inline int chunk(size_t left)
{
    return left > (size_t)INT_MAX ? INT_MAX : (int)left;
}

/*
 * Predefined datatypes are never freed, so what MPI says of them can be kept:
 * the last few seen are remembered, which saves four MPI queries per call.
 * Derived types are queried every time (a freed handle may be reused).
 * Each thread keeps its own: threads under MPI_THREAD_MULTIPLE need no lock.
 */
#define NAMED_CACHE 8
static _Thread_local vine_exec_type named_cache[NAMED_CACHE];
static _Thread_local int named_cached, named_next;

int vine__exec_is_named(MPI_Datatype dt)
{
    int ni, na, nd, combiner;
    return MPI_Type_get_envelope(dt, &ni, &na, &nd, &combiner) == MPI_SUCCESS &&
           combiner == MPI_COMBINER_NAMED;
}

static int type_query(vine_exec_type *t, MPI_Datatype dt)
{
    MPI_Aint lb;
    int rc;
    t->dt = dt;
    if ((rc = MPI_Type_get_extent(dt, &lb, &t->extent)) != MPI_SUCCESS ||
        (rc = MPI_Type_get_true_extent(dt, &t->true_lb, &t->true_extent)) != MPI_SUCCESS ||
        (rc = MPI_Type_size_x(dt, &t->size)) != MPI_SUCCESS)
        return err_class(rc);
    t->dense =
        t->size > 0 && t->size == (MPI_Count)t->extent && t->size == (MPI_Count)t->true_extent;
    return MPI_SUCCESS;
}

int vine__exec_type_init(vine_exec_type *t, MPI_Datatype dt)
{
    for (int i = 0; i < named_cached; i++)
        if (named_cache[i].dt == dt) {
            *t = named_cache[i];
            return MPI_SUCCESS;
        }
    int rc = type_query(t, dt);
    t->named = rc == MPI_SUCCESS && vine__exec_is_named(dt);
    if (t->named) {
        named_cache[named_next] = *t;
        named_next = (named_next + 1) % NAMED_CACHE;
        if (named_cached < NAMED_CACHE)
            named_cached++;
    }
    return rc;
}

size_t vine__exec_max_requests(const vine_sched *s)
{
    size_t best = 0;
    for (size_t k = 0; k < s->nrounds; k++) {
        size_t b, e, n = 0;
        vine__sched_round(s, k, &b, &e);
        for (size_t i = b; i < e; i++) {
            const vine_op *op = &s->ops[i];
            if (op->kind == VINE_OP_SEND || op->kind == VINE_OP_RECV)
                n += op->count ? (op->count + INT_MAX - 1) / INT_MAX : 1;
        }
        if (n > best)
            best = n;
    }
    return best;
}

/* A local copy of a derived datatype: the rank sends to itself on comm. */
static int copy_derived(const vine_exec_type *t, const void *src, void *dst, size_t count,
                        MPI_Comm comm, int tag)
{
    int me, rc = MPI_Comm_rank(comm, &me);
    for (size_t done = 0; rc == MPI_SUCCESS && done < count;) {
        int k = chunk(count - done);
        rc = PMPI_Sendrecv(elem(src, done, t->extent), k, t->dt, me, tag,
                           elem(dst, done, t->extent), k, t->dt, me, tag, comm, MPI_STATUS_IGNORE);
        done += (size_t)k;
    }
    return err_class(rc);
}

int vine__exec_copy(const vine_exec_type *t, const void *src, void *dst, size_t count,
                    MPI_Comm comm, int tag)
{
    if (count == 0)
        return MPI_SUCCESS;
    if (t->dense) {
        memmove(shift(dst, t->true_lb), shift(src, t->true_lb), count * (size_t)t->extent);
        return MPI_SUCCESS;
    }
    return copy_derived(t, src, dst, count, comm, vine__exec_copy_tag(tag));
}

int vine__exec_reduce(const vine_exec_type *t, MPI_Op op, const void *in, void *inout,
                      size_t count)
{
    for (size_t done = 0; done < count;) {
        int k = chunk(count - done);
        int rc =
            MPI_Reduce_local(elem(in, done, t->extent), elem(inout, done, t->extent), k, t->dt, op);
        if (rc != MPI_SUCCESS)
            return err_class(rc);
        done += (size_t)k;
    }
    return MPI_SUCCESS;
}

/* Runs one local operation: COPY, REDUCE or a shared-memory one. */
static int run_local(const vine_exec_call *c, char *const base[], const vine_op *op)
{
    const vine_exec_type *t = c->type;
    if (op->kind > VINE_OP_REDUCE)
        return vine__exec_shm_op(c, base, op);
    char *src = elem(base[op->buf], op->off, t->extent);
    char *dst = elem(base[op->dbuf], op->doff, t->extent);
    if (op->kind == VINE_OP_COPY)
        return vine__exec_copy(t, src, dst, op->count, c->comm, c->tag);
    if (op->order == VINE_SRC_LEFT || c->commutative)
        return vine__exec_reduce(t, c->op, src, dst, op->count);
    /* dst = dst op src for a non-commutative op: compute it in src (which
     * the contract lets us clobber), then move it to dst. */
    int rc = vine__exec_reduce(t, c->op, dst, src, op->count);
    if (rc == MPI_SUCCESS)
        rc = vine__exec_copy(t, src, dst, op->count, c->comm, c->tag);
    return rc;
}

/* Posts the messages of one SEND or RECV, split into pieces of at most INT_MAX. */
static int post(const vine_exec_call *c, char *const base[], const vine_op *op, MPI_Request *reqs,
                size_t *n)
{
    size_t off = op->off, left = op->count;
    do {
        int k = chunk(left), rc;
        char *addr = elem(base[op->buf], off, c->type->extent);
        if (op->kind == VINE_OP_RECV)
            rc = MPI_Irecv(addr, k, c->type->dt, op->peer, c->tag, c->comm, &reqs[*n]);
        else
            rc = MPI_Isend(addr, k, c->type->dt, op->peer, c->tag, c->comm, &reqs[*n]);
        if (rc != MPI_SUCCESS)
            return err_class(rc);
        (*n)++;
        off += (size_t)k;
        left -= (size_t)k;
    } while (left);
    return MPI_SUCCESS;
}

/*
 * MPI_Waitall without statuses.  MPICH defines MPI_STATUSES_IGNORE as
 * (MPI_Status *)1 and declares the parameter as an array, so GCC 11 and later
 * take the constant for a pointer to an empty object and warn that
 * MPI_Waitall would overflow it (MPICH issue 5687).  The warning is false, as
 * MPI never writes statuses it is told to ignore, and -Werror would stop the
 * build; it is silenced for this call alone.
 */
static int wait_all_mpi(size_t n, MPI_Request *reqs)
{
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif
    return err_class(PMPI_Waitall((int)n, reqs, MPI_STATUSES_IGNORE));
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
}

/*
 * MPI_Testall without statuses (see wait_all for the pragma; PMPI, as the
 * drop-in library defines MPI_Testall as vine's): *flag says
 * whether every request is complete.
 */
static int test_all(size_t n, MPI_Request *reqs, int *flag)
{
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif
    return err_class(PMPI_Testall((int)n, reqs, flag, MPI_STATUSES_IGNORE));
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
}

_Atomic(vine_exec_others_fn) vine__exec_others;

int vine__exec_advance_others(void)
{
    vine_exec_others_fn f = atomic_load_explicit(&vine__exec_others, memory_order_relaxed);
    return f && f();
}

/*
 * Waits for n requests.  While vine has other work outstanding (requests
 * started earlier, on any communicator), it polls and advances that work
 * between polls, yielding the core after a while; otherwise it blocks in
 * MPI_Waitall.
 */
#define WAIT_SPINS_BEFORE_YIELD 256
static int wait_all(size_t n, MPI_Request *reqs)
{
    for (unsigned spins = 0; vine__exec_advance_others(); spins++) {
        int flag = 0, rc = test_all(n, reqs, &flag);
        if (rc != MPI_SUCCESS || flag)
            return rc;
        if (spins > WAIT_SPINS_BEFORE_YIELD)
            sched_yield();
    }
    return wait_all_mpi(n, reqs);
}

/*
 * Makes the scratch hold n elements of t and returns the address of element
 * 0 in *base.  The span of n elements is |n-1| extents plus the true extent;
 * element 0 sits so that the lowest data byte lands at the start of the
 * allocation, which makes a non-zero (or negative) true lower bound work.
 */
static int scratch_tmp(vine_exec_scratch *scr, const vine_exec_type *t, size_t n, char **base)
{
    static char none;
    if (n == 0) {
        *base = &none;
        return MPI_SUCCESS;
    }
    size_t step = (size_t)(t->extent < 0 ? -t->extent : t->extent);
    size_t bytes = (n - 1) * step + (size_t)t->true_extent;
    if (bytes > scr->tmp_bytes) {
        free(scr->tmp);
        scr->tmp = malloc(bytes ? bytes : 1);
        scr->tmp_bytes = scr->tmp ? bytes : 0;
        if (!scr->tmp)
            return MPI_ERR_NO_MEM;
    }
    *base = shift(scr->tmp, -t->true_lb + (t->extent < 0 ? (MPI_Aint)((n - 1) * step) : 0));
    return MPI_SUCCESS;
}

static int scratch_reqs(vine_exec_scratch *scr, size_t n)
{
    if (n <= scr->nreqs)
        return MPI_SUCCESS;
    MPI_Request *r = realloc(scr->reqs, n * sizeof *r);
    if (!r)
        return MPI_ERR_NO_MEM;
    scr->reqs = r;
    scr->nreqs = n;
    return MPI_SUCCESS;
}

/* Whether [o1, o1 + n1) of buffer b1 and [o2, o2 + n2) of b2 share an element. */
static int overlap(int b1, size_t o1, size_t n1, int b2, size_t o2, size_t n2)
{
    return b1 == b2 && n1 && n2 && o1 < o2 + n2 && o2 < o1 + n1;
}

/* Whether local operation l conflicts with message m of the next round. */
static int conflict(const vine_op *l, const vine_op *m)
{
    /* l writes its destination, and its source too when a reduction clobbers it. */
    int clobbers = l->kind == VINE_OP_REDUCE && l->order == VINE_SRC_RIGHT;
    if (overlap(l->dbuf, l->doff, l->count, m->buf, m->off, m->count))
        return 1;
    if (m->kind == VINE_OP_RECV || clobbers)
        return overlap(l->buf, l->off, l->count, m->buf, m->off, m->count);
    return 0;
}

/* Pairs of operations a deferral check may compare; past it rounds do not defer. */
#define DEFER_CHECK_MAX 4096

/* Whether round k's local operations may run after round k + 1 is posted. */
static int can_defer(const vine_sched *s, size_t k)
{
    size_t b, e, nb, ne, nl = 0, nm = 0;
    vine__sched_round(s, k, &b, &e);
    vine__sched_round(s, k + 1, &nb, &ne);
    for (size_t i = b; i < e; i++) {
        /* A WAIT must not spin while this rank's messages are posted (a peer
         * may need them to progress): shared-memory rounds never defer. */
        if (s->ops[i].kind > VINE_OP_REDUCE)
            return 0;
        nl += s->ops[i].kind == VINE_OP_COPY || s->ops[i].kind == VINE_OP_REDUCE;
    }
    for (size_t j = nb; j < ne; j++)
        nm += s->ops[j].kind == VINE_OP_SEND || s->ops[j].kind == VINE_OP_RECV;
    if (!nl || !nm || nl * nm > DEFER_CHECK_MAX)
        return 0;
    for (size_t i = b; i < e; i++) {
        const vine_op *l = &s->ops[i];
        if (l->kind != VINE_OP_COPY && l->kind != VINE_OP_REDUCE)
            continue;
        for (size_t j = nb; j < ne; j++)
            if ((s->ops[j].kind == VINE_OP_SEND || s->ops[j].kind == VINE_OP_RECV) &&
                conflict(l, &s->ops[j]))
                return 0;
    }
    return 1;
}

int vine__exec_plan_build(const vine_sched *s, vine_exec_plan *plan)
{
    memset(plan, 0, sizeof *plan);
    size_t nmsgs = 0, nlocals = 0;
    for (size_t i = 0; i < s->nops; i++) {
        const vine_op *op = &s->ops[i];
        if (op->kind == VINE_OP_SEND || op->kind == VINE_OP_RECV) {
            if (op->count > (size_t)INT_MAX)
                return MPI_ERR_COUNT;
            nmsgs++;
        } else {
            nlocals++;
        }
    }
    plan->nrounds = s->nrounds;
    plan->msg_end = malloc((s->nrounds + 1) * sizeof *plan->msg_end);
    plan->local_end = malloc((s->nrounds + 1) * sizeof *plan->local_end);
    plan->msgs = malloc((nmsgs + 1) * sizeof *plan->msgs);
    plan->locals = malloc((nlocals + 1) * sizeof *plan->locals);
    plan->defer = calloc(s->nrounds + 1, sizeof *plan->defer);
    if (!plan->msg_end || !plan->local_end || !plan->msgs || !plan->locals || !plan->defer) {
        vine__exec_plan_free(plan);
        return MPI_ERR_NO_MEM;
    }
    size_t m = 0, l = 0;
    for (size_t k = 0; k < s->nrounds; k++) {
        size_t b, e;
        vine__sched_round(s, k, &b, &e);
        for (int pass = VINE_OP_RECV; pass >= VINE_OP_SEND; pass--)
            for (size_t i = b; i < e; i++)
                if (s->ops[i].kind == pass)
                    plan->msgs[m++] =
                        (vine_exec_msg){s->ops[i].off, (int)s->ops[i].count, s->ops[i].peer,
                                        pass == VINE_OP_RECV, s->ops[i].buf};
        for (size_t i = b; i < e; i++)
            if (vine__op_local(s->ops[i].kind))
                plan->locals[l++] = i;
        plan->msg_end[k] = m;
        plan->local_end[k] = l;
        plan->defer[k] = k + 1 < s->nrounds && can_defer(s, k);
    }
    return MPI_SUCCESS;
}

void vine__exec_plan_free(vine_exec_plan *plan)
{
    free(plan->defer);
    free(plan->msg_end);
    free(plan->local_end);
    free(plan->msgs);
    free(plan->locals);
    memset(plan, 0, sizeof *plan);
}

/* What a step of the state machine returns besides an MPI error class. */
enum { AGAIN = -1 };

/*
 * Runs x's local operations from its cursor x->l up to to: plan->locals
 * indices with a plan, schedule indices without.  Without block it stops
 * before a WAIT whose flag has not arrived and returns AGAIN, the cursor on
 * that WAIT.
 */
static int run_locals(vine_exec_state *x, size_t to, int block)
{
    const vine_exec_call *c = &x->call;
    const vine_op *ops = c->sched->ops;
    for (; x->l < to; x->l++) {
        const vine_op *op = &ops[c->plan ? c->plan->locals[x->l] : x->l];
        if (!c->plan && !vine__op_local(op->kind))
            continue;
        if (!block && !vine__exec_shm_ready(c, op))
            return AGAIN;
        int rc = run_local(c, x->base, op);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

/* The deferred local operations of the previous round, [pend, pend_end) of the plan. */
static int run_pending(vine_exec_state *x)
{
    const vine_exec_call *c = &x->call;
    for (; x->pend < x->pend_end; x->pend++) {
        int rc = run_local(c, x->base, &c->sched->ops[c->plan->locals[x->pend]]);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

/*
 * Posts round k's messages by the plan: one MPI call each, receives first;
 * MPI_Start for those that have a persistent request.
 */
static int post_plan(vine_exec_state *x, size_t k)
{
    const vine_exec_call *c = &x->call;
    const vine_exec_plan *pl = c->plan;
    MPI_Datatype dt = c->type->dt;
    MPI_Aint extent = c->type->extent;
    size_t n = 0;
    int rc = MPI_SUCCESS;
    for (; x->m < pl->msg_end[k] && rc == MPI_SUCCESS; x->m++, n++) {
        const vine_exec_msg *g = &pl->msgs[x->m];
        if (x->preq && x->preq[x->m] != MPI_REQUEST_NULL) {
            /* The handle is copied for the round's wait: a persistent request's
             * handle stays as it is through MPI_Start and its completion. */
            rc = PMPI_Start(&x->preq[x->m]);
            x->reqs[n] = x->preq[x->m];
            continue;
        }
        char *addr = elem(x->base[g->buf], g->off, extent);
        if (g->recv)
            rc = MPI_Irecv(addr, g->count, dt, g->peer, c->tag, c->comm, &x->reqs[n]);
        else
            rc = MPI_Isend(addr, g->count, dt, g->peer, c->tag, c->comm, &x->reqs[n]);
    }
    x->nreq = n;
    return err_class(rc);
}

/* Posts round [b, e) op by op (no plan): receives, then sends, split at INT_MAX. */
static int post_ops(vine_exec_state *x, size_t b, size_t e)
{
    const vine_exec_call *c = &x->call;
    const vine_op *ops = c->sched->ops;
    size_t n = 0;
    int rc = MPI_SUCCESS;
    for (size_t i = b; i < e && rc == MPI_SUCCESS; i++)
        if (ops[i].kind == VINE_OP_RECV)
            rc = post(c, x->base, &ops[i], x->reqs, &n);
    for (size_t i = b; i < e && rc == MPI_SUCCESS; i++)
        if (ops[i].kind == VINE_OP_SEND)
            rc = post(c, x->base, &ops[i], x->reqs, &n);
    x->nreq = n;
    return rc;
}

/*
 * One round at a time: post round k (and then run the previous round's
 * deferred local operations while its messages travel), complete its
 * messages, run its local operations or defer them.  Without block a step
 * that would wait returns AGAIN and the next call resumes where it stopped.
 */
static int advance(vine_exec_state *x, int block)
{
    const vine_exec_call *c = &x->call;
    const vine_exec_plan *pl = c->plan;
    const vine_sched *s = c->sched;
    int rc;
    while (x->k < s->nrounds) {
        size_t k = x->k, b = 0, e = 0;
        if (!pl)
            vine__sched_round(s, k, &b, &e);
        if (!x->posted) {
            if ((rc = pl ? post_plan(x, k) : post_ops(x, b, e)) != MPI_SUCCESS)
                return rc;
            x->posted = 1;
            if ((rc = run_pending(x)) != MPI_SUCCESS)
                return rc;
            if (!pl)
                x->l = b;
            if (block == VINE_EXEC_POST)
                return AGAIN;
        }
        if (x->nreq) {
            int flag = 1;
            rc = block ? wait_all(x->nreq, x->reqs) : test_all(x->nreq, x->reqs, &flag);
            if (rc != MPI_SUCCESS)
                return rc;
            if (!flag)
                return AGAIN;
            x->nreq = 0;
        }
        /* A deferred round has no WAIT (can_defer), so it never stops halfway. */
        if (pl && pl->defer[k]) {
            x->pend = x->l;
            x->pend_end = x->l = pl->local_end[k];
        } else if ((rc = run_locals(x, pl ? pl->local_end[k] : e, block)) != MPI_SUCCESS) {
            return rc;
        }
        x->k++;
        x->posted = 0;
    }
    return run_pending(x);
}

int vine__exec_start(vine_exec_state *x, const vine_exec_call *c, vine_exec_scratch *scr)
{
    const vine_sched *s = c->sched;
    x->call = *c;
    x->base[VINE_BUF_SEND] = (char *)(uintptr_t)c->sendbuf;
    x->base[VINE_BUF_RECV] = (char *)c->recvbuf;
    x->base[VINE_BUF_TMP] = NULL;
    x->base[VINE_BUF_SHM] = NULL;
    x->base[VINE_BUF_PAR] = NULL;
    x->base[VINE_BUF_EAG] = NULL;
    x->k = x->m = x->l = x->pend = x->pend_end = x->nreq = 0;
    x->posted = 0;
    x->preq = NULL;
    if (s->shm) {
        /* A schedule of the shm family runs only on the node segment it was built for. */
        if (!c->shm)
            return MPI_ERR_INTERN;
        x->base[VINE_BUF_SHM] = vine__exec_shm_base(c->shm, c->shm->me, c->type);
        vine__exec_shm_start(c->shm, s, c->type, c->sendbuf, c->recvbuf);
        if (s->par)
            x->base[VINE_BUF_PAR] = vine__exec_shm_par(c->shm, c->shm->me, c->type);
        if (s->eag)
            x->base[VINE_BUF_EAG] = vine__exec_shm_eag(c->shm, c->shm->me, c->type);
    }
    int rc = scratch_tmp(scr, c->type, s->tmp_count, &x->base[VINE_BUF_TMP]);
    if (rc == MPI_SUCCESS)
        rc = scratch_reqs(scr, c->max_reqs);
    x->reqs = scr->reqs;
    return rc;
}

int vine__exec_progress(vine_exec_state *x, int block, int *done)
{
    if (block == VINE_EXEC_POST && x->posted) {
        *done = 0; /* the round in progress is posted already */
        return MPI_SUCCESS;
    }
    int rc = advance(x, block);
    *done = rc != AGAIN;
    return rc == AGAIN ? MPI_SUCCESS : rc;
}

int vine__exec_run(const vine_exec_call *c, vine_exec_scratch *scr)
{
    vine_exec_state x;
    int rc = vine__exec_start(&x, c, scr);
    return rc == MPI_SUCCESS ? advance(&x, 1) : rc;
}

void vine__exec_persist_free(vine_exec_persist *p)
{
    for (size_t i = 0; i < p->n; i++)
        if (p->reqs[i] != MPI_REQUEST_NULL)
            PMPI_Request_free(&p->reqs[i]);
    free(p->reqs);
    memset(p, 0, sizeof *p);
}

int vine__exec_persist(vine_exec_state *x, vine_exec_persist *p)
{
    const vine_exec_call *c = &x->call;
    const vine_exec_plan *pl = c->plan;
    if (!pl || c->sched->shm || !pl->nrounds)
        return MPI_SUCCESS;
    if (p->reqs && memcmp(p->base, x->base, sizeof p->base) == 0) {
        x->preq = p->reqs;
        return MPI_SUCCESS;
    }
    vine__exec_persist_free(p);
    size_t n = pl->msg_end[pl->nrounds - 1], big = 0;
    for (size_t i = 0; i < n; i++)
        big += (MPI_Count)pl->msgs[i].count * c->type->size > VINE_EXEC_PERSIST_BYTES;
    if (!big)
        return MPI_SUCCESS;
    if (!(p->reqs = malloc(n * sizeof *p->reqs)))
        return MPI_ERR_NO_MEM;
    for (size_t i = 0; i < n; i++)
        p->reqs[i] = MPI_REQUEST_NULL;
    p->n = n;
    int rc = MPI_SUCCESS;
    for (size_t i = 0; i < n && rc == MPI_SUCCESS; i++) {
        const vine_exec_msg *g = &pl->msgs[i];
        if ((MPI_Count)g->count * c->type->size <= VINE_EXEC_PERSIST_BYTES)
            continue;
        char *addr = elem(x->base[g->buf], g->off, c->type->extent);
        if (g->recv)
            rc = PMPI_Recv_init(addr, g->count, c->type->dt, g->peer, c->tag, c->comm, &p->reqs[i]);
        else
            rc = PMPI_Send_init(addr, g->count, c->type->dt, g->peer, c->tag, c->comm, &p->reqs[i]);
    }
    if (rc != MPI_SUCCESS) {
        vine__exec_persist_free(p);
        return err_class(rc);
    }
    memcpy(p->base, x->base, sizeof p->base);
    x->preq = p->reqs;
    return MPI_SUCCESS;
}

void vine__exec_scratch_free(vine_exec_scratch *scr)
{
    free(scr->tmp);
    free(scr->reqs);
    memset(scr, 0, sizeof *scr);
}
