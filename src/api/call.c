/*
 * What every collective call shares: argument checks (all before any
 * message), vine's state for the communicator, the cached schedule and its
 * run by the executor on the private communicator.
 */
#include "api.h"

#include <limits.h>

#include <stdint.h>

int vine__call_start(vine_call *c, vine_coll coll, MPI_Comm comm)
{
    c->st = NULL;
    c->comm = comm;
    c->a = (vine_args){.coll = coll, .commutative = 1};
    c->op = MPI_OP_NULL;
    c->sendbuf = NULL;
    c->recvbuf = NULL;
    c->req = NULL;
    c->e = NULL;
    c->nb = NULL;
    c->vkey = NULL;
    c->nvkey = 0;
    c->big = 0;
    return vine__comm_lookup(comm, &c->st, &c->a.p, &c->a.rank);
}

int vine__call_check_type(MPI_Count count, MPI_Datatype dt, vine_exec_type *t)
{
    if (count < 0)
        return MPI_ERR_COUNT;
    if (dt == MPI_DATATYPE_NULL)
        return MPI_ERR_TYPE;
    return vine__exec_type_init(t, dt);
}

int vine__call_check_buf(const void *buf, size_t count, const vine_exec_type *t)
{
    /* A derived type may address memory from MPI_BOTTOM (NULL). */
    if (buf == NULL && count > 0 && t->size > 0 && t->named)
        return MPI_ERR_BUFFER;
    return MPI_SUCCESS;
}

int vine__call_bytes(size_t count, MPI_Count size, size_t *bytes)
{
    if (size < 0 || (size > 0 && count > SIZE_MAX / (size_t)size))
        return MPI_ERR_COUNT;
    *bytes = count * (size_t)size;
    return MPI_SUCCESS;
}

/*
 * Frees a handle MPI_Comm_get_errhandler returned.  SimGrid's SMPI returns
 * MPI_ERRHANDLER_NULL for a communicator's default handler (and complains
 * when it is freed); its default is MPI_ERRORS_ARE_FATAL, which is then what
 * restore() sets back.
 */
static void release(MPI_Errhandler *e)
{
    if (*e != MPI_ERRHANDLER_NULL)
        MPI_Errhandler_free(e);
}

static void restore(MPI_Comm comm, MPI_Errhandler e)
{
    MPI_Comm_set_errhandler(comm, e != MPI_ERRHANDLER_NULL ? e : MPI_ERRORS_ARE_FATAL);
}

/* The groups of predefined types of MPI 4.0, section 6.9.2, as bits. */
enum {
    T_CINT = 1,
    T_FINT = 2,
    T_FLOAT = 4,
    T_LOGICAL = 8,
    T_COMPLEX = 16,
    T_BYTE = 32,
    T_PAIR = 64,
    T_NONE = 128 /* characters and packed bytes: no op */
};

static int type_group(MPI_Datatype dt)
{
    /* The first entry that matches counts: some MPIs give one type two
     * names (SimGrid's MPI_CHARACTER is MPI_CHAR, its MPI_INTEGER MPI_INT),
     * and MPI_CHAR, in no group, is left to MPI. */
    static const struct {
        MPI_Datatype dt;
        int group;
    } table[] = {
        {MPI_CHAR, 0},
        {MPI_INT, T_CINT},
        {MPI_LONG, T_CINT},
        {MPI_SHORT, T_CINT},
        {MPI_UNSIGNED_SHORT, T_CINT},
        {MPI_UNSIGNED, T_CINT},
        {MPI_UNSIGNED_LONG, T_CINT},
        {MPI_LONG_LONG_INT, T_CINT},
        {MPI_LONG_LONG, T_CINT},
        {MPI_UNSIGNED_LONG_LONG, T_CINT},
        {MPI_SIGNED_CHAR, T_CINT},
        {MPI_UNSIGNED_CHAR, T_CINT},
        {MPI_INT8_T, T_CINT},
        {MPI_INT16_T, T_CINT},
        {MPI_INT32_T, T_CINT},
        {MPI_INT64_T, T_CINT},
        {MPI_UINT8_T, T_CINT},
        {MPI_UINT16_T, T_CINT},
        {MPI_UINT32_T, T_CINT},
        {MPI_UINT64_T, T_CINT},
        {MPI_AINT, T_CINT | T_FINT},
        {MPI_OFFSET, T_CINT | T_FINT},
        {MPI_COUNT, T_CINT | T_FINT},
        {MPI_INTEGER, T_FINT},
        {MPI_INTEGER1, T_FINT},
        {MPI_INTEGER2, T_FINT},
        {MPI_INTEGER4, T_FINT},
        {MPI_INTEGER8, T_FINT},
        {MPI_FLOAT, T_FLOAT},
        {MPI_DOUBLE, T_FLOAT},
        {MPI_LONG_DOUBLE, T_FLOAT},
        {MPI_REAL, T_FLOAT},
        {MPI_DOUBLE_PRECISION, T_FLOAT},
        {MPI_REAL4, T_FLOAT},
        {MPI_REAL8, T_FLOAT},
        {MPI_C_COMPLEX, T_COMPLEX},
        {MPI_C_FLOAT_COMPLEX, T_COMPLEX},
        {MPI_C_DOUBLE_COMPLEX, T_COMPLEX},
        {MPI_C_LONG_DOUBLE_COMPLEX, T_COMPLEX},
        {MPI_COMPLEX, T_COMPLEX},
        {MPI_DOUBLE_COMPLEX, T_COMPLEX},
        {MPI_COMPLEX8, T_COMPLEX},
        {MPI_COMPLEX16, T_COMPLEX},
        {MPI_LOGICAL, T_LOGICAL},
        {MPI_C_BOOL, T_LOGICAL},
        {MPI_BYTE, T_BYTE},
        {MPI_FLOAT_INT, T_PAIR},
        {MPI_DOUBLE_INT, T_PAIR},
        {MPI_LONG_INT, T_PAIR},
        {MPI_2INT, T_PAIR},
        {MPI_SHORT_INT, T_PAIR},
        {MPI_LONG_DOUBLE_INT, T_PAIR},
        {MPI_2REAL, T_PAIR},
        {MPI_2DOUBLE_PRECISION, T_PAIR},
        {MPI_2INTEGER, T_PAIR},
        {MPI_WCHAR, T_NONE},
        {MPI_PACKED, T_NONE},
        {MPI_CHARACTER, T_NONE},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (dt == table[i].dt)
            return table[i].group;
    return 0;
}

/*
 * The standard's answer (MPI 4.0, section 6.9.2) for a predefined type:
 * MPI_ERR_OP where it gives op no such type, MPI_SUCCESS where it does or
 * does not list the type (MPI_CHAR, optional ones such as MPI_LOGICAL4: MPI
 * decides), -1 for a derived type.  MPICH 4.0 accepts MPI_LAND on
 * doubles when asked for no elements, then fails an assertion and aborts
 * when it applies it: the table refuses it first.
 */
static int standard_applies(MPI_Datatype dt, MPI_Op op)
{
    if (!vine__exec_is_named(dt))
        return -1;
    int g = type_group(dt), want;
    if (op == MPI_MAXLOC || op == MPI_MINLOC)
        return g == T_PAIR ? MPI_SUCCESS : MPI_ERR_OP;
    if (!g)
        return MPI_SUCCESS;
    if (op == MPI_MAX || op == MPI_MIN)
        want = T_CINT | T_FINT | T_FLOAT;
    else if (op == MPI_SUM || op == MPI_PROD)
        want = T_CINT | T_FINT | T_FLOAT | T_COMPLEX;
    else if (op == MPI_LAND || op == MPI_LOR || op == MPI_LXOR)
        want = T_CINT | T_LOGICAL;
    else
        want = T_CINT | T_FINT | T_BYTE; /* MPI_BAND, MPI_BOR, MPI_BXOR */
    return g & want ? MPI_SUCCESS : MPI_ERR_OP;
}

/*
 * Whether the predefined op applies to dt: not where the standard says no
 * (standard_applies), else as MPI_Reduce_local answers, asked for zero
 * elements.  MPI reports a refusal through MPI_COMM_WORLD's error handler
 * (MPI_COMM_SELF's under MPI 4), which by default aborts; both return errors
 * for the moment of the question.
 */
static int ask_reduce_local(MPI_Datatype dt, MPI_Op op)
{
    static char none;
    MPI_Errhandler world, self;
    int std = standard_applies(dt, op);
    if (std == MPI_ERR_OP)
        return MPI_ERR_OP;
    /* Under the sessions model alone a refusal would go to the initial
     * error handler, which aborts by default: no question, and a derived
     * type is refused as the MPI libraries refuse it. */
    if (!vine__world_up())
        return std == MPI_SUCCESS ? MPI_SUCCESS : MPI_ERR_OP;
    if (MPI_Comm_get_errhandler(MPI_COMM_WORLD, &world) != MPI_SUCCESS)
        return MPI_ERR_OTHER;
    if (MPI_Comm_get_errhandler(MPI_COMM_SELF, &self) != MPI_SUCCESS) {
        release(&world);
        return MPI_ERR_OTHER;
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    int rc = MPI_Reduce_local(&none, &none, 0, dt, op);
    restore(MPI_COMM_WORLD, world);
    restore(MPI_COMM_SELF, self);
    release(&world);
    release(&self);
    return rc == MPI_SUCCESS ? MPI_SUCCESS : MPI_ERR_OP;
}

/*
 * MPI_ERR_OP, before any message, when MPI_Reduce_local would refuse a
 * predefined op with dt (MPI_BAND with MPI_DOUBLE; Open MPI 4 and MPICH 4.0
 * refuse every derived type): found out later, the refusal would abort, or
 * leave the ranks that do not reduce waiting.  Answers for predefined types
 * are remembered (their handles are never freed); a derived type's handle
 * may be freed and reused, so it is asked every time.  Under
 * MPI_THREAD_MULTIPLE the question and the cache go under vine__lock: the
 * question swaps process-wide error handlers, which two threads must not
 * interleave.
 */
#define APPLIES_CACHE 16
static struct {
    MPI_Datatype dt;
    MPI_Op op;
    int rc;
} applies[APPLIES_CACHE];
static int applies_cached, applies_next;

static int check_applies_locked(MPI_Datatype dt, MPI_Op op)
{
    for (int i = 0; i < applies_cached; i++)
        if (applies[i].dt == dt && applies[i].op == op)
            return applies[i].rc;
    int rc = ask_reduce_local(dt, op);
    if (rc != MPI_ERR_OTHER && vine__exec_is_named(dt)) {
        applies[applies_next].dt = dt;
        applies[applies_next].op = op;
        applies[applies_next].rc = rc;
        applies_next = (applies_next + 1) % APPLIES_CACHE;
        if (applies_cached < APPLIES_CACHE)
            applies_cached++;
    }
    return rc;
}

static int check_applies(MPI_Datatype dt, MPI_Op op)
{
    vine__lock();
    int rc = check_applies_locked(dt, op);
    vine__unlock();
    return rc;
}

int vine__call_check_op(vine_call *c, MPI_Op op)
{
    /* The pair of the previous call, when it was predefined and accepted:
     * a loop of calls with one type and op asks nothing more.  Under
     * MPI_THREAD_MULTIPLE the communicator's state keeps it (none before
     * the state exists), so that only calls on one communicator share it. */
    static MPI_Datatype last_dt = MPI_DATATYPE_NULL;
    static MPI_Op last_op = MPI_OP_NULL;
    MPI_Datatype none_dt = MPI_DATATYPE_NULL;
    MPI_Op none_op = MPI_OP_NULL;
    MPI_Datatype *ldt = &last_dt;
    MPI_Op *lop = &last_op;
    if (vine__mt()) {
        ldt = c->st ? &c->st->op_dt : &none_dt;
        lop = c->st ? &c->st->op_op : &none_op;
    }
    c->op = op;
    c->a.commutative = 1;
    if (op == *lop && c->t.dt == *ldt && op != MPI_OP_NULL)
        return MPI_SUCCESS;
    if (op == MPI_OP_NULL)
        return MPI_ERR_OP;
    if (vine__op_is_predefined(op)) {
        int rc = check_applies(c->t.dt, op);
        if (rc == MPI_SUCCESS && c->t.named) {
            *ldt = c->t.dt;
            *lop = op;
        }
        return rc;
    }
    if (MPI_Op_commutative(op, &c->a.commutative) != MPI_SUCCESS)
        return MPI_ERR_OP;
    return MPI_SUCCESS;
}

int vine__call_check_request(vine_call *c)
{
    int rc = vine__choose_seg_env();
    if (rc == MPI_SUCCESS)
        rc = vine__choose_tuning_check();
    return rc ? rc : vine__choose_requested(c->a.coll, &c->req);
}

/* The cache entry of the MPI library's algorithm for coll, which runs no schedule. */
static vine_cache_entry *mpi_entry(vine_coll coll)
{
    static vine_cache_entry entries[VINE_COLL_COUNT];
    vine__lock();
    vine_cache_entry *e = &entries[coll];
    if (!e->served)
        e->served = vine__algo_find(coll, "mpi");
    vine__unlock();
    return e->served ? e : NULL;
}

int vine__call_attach(vine_call *c)
{
    /*
     * A nonblocking call must not wait for the other ranks (MPI makes it a
     * local call), and making the state does: it splits the communicator,
     * finds the levels and the node segment collectively.  Two ranks making
     * the states of two communicators whose first calls they start in
     * different orders, as MPI allows, would each wait for the other.  So a
     * nonblocking call on a communicator that has no state yet goes to the
     * MPI library's nonblocking collective, and the state waits for the
     * communicator's first blocking call or persistent _init (which MPI lets
     * wait), at the same point of its sequence of calls on every rank.
     * Counts above what the MPI library's int interface takes are the
     * exception: where every rank passes the same counts (the reductions,
     * scans, reduce_scatter, allgatherv) the state is made as before; where
     * they differ (alltoallv, alltoallw, gatherv, scatterv) making it on
     * some ranks only would hang, and the call fails instead.
     */
    if (!c->st && c->nb && !vine__nb_persistent(c->nb)) {
        vine_cache_entry *e = mpi_entry(c->a.coll);
        if (!e)
            return MPI_ERR_INTERN;
        if ((e->served->flags & VINE_ALGO_ANY_COUNT) ||
            (!c->big && c->a.count <= (size_t)INT_MAX)) {
            c->e = e;
            return vine__comm_mark_early(c->comm);
        }
        vine_coll k = c->a.coll;
        if (k == VINE_COLL_ALLTOALLV || k == VINE_COLL_ALLTOALLW || k == VINE_COLL_GATHERV ||
            k == VINE_COLL_SCATTERV)
            return MPI_ERR_COUNT;
    }
    int rc = c->st ? MPI_SUCCESS : vine__comm_state(c->comm, &c->st);
    if (rc != MPI_SUCCESS)
        return rc;
    /* Without a private communicator only the MPI library's collective can serve. */
    if (c->st->mpi_only && !(c->req = vine__algo_find(c->a.coll, "mpi")))
        return MPI_ERR_INTERN;
    return c->st->levels_rc;
}

int vine__call_none(const vine_call *c)
{
    vine__say_served(c->comm, c->a.rank, c->a.p, c->a.coll, NULL);
    return MPI_SUCCESS;
}

/* The cached schedule for c, built on a miss. */
static int schedule(vine_call *c, vine_cache_entry **out)
{
    vine_comm_state *st = c->st;
    vine_key k = {c->a.coll,
                  c->a.root,
                  c->a.inplace,
                  c->a.commutative,
                  c->req,
                  (size_t)c->t.size,
                  c->a.count,
                  c->a.seg_count,
                  NULL,
                  0,
                  vine__tuning_gen,
                  c->a.shm_count,
                  c->a.shm_single,
                  c->a.shm_node_count,
                  c->a.shm_par_count};
    if (c->a.coll == VINE_COLL_REDUCE_SCATTER) {
        k.counts = c->a.counts;
        k.ncounts = (size_t)c->a.p;
    } else if (c->vkey) {
        k.counts = c->vkey;
        k.ncounts = c->nvkey;
    }
    if ((*out = vine__cache_find(st, &k)))
        return MPI_SUCCESS;
    vine_cache_entry *e = vine__cache_add(st, &k, c->nb != NULL);
    if (!e)
        return MPI_ERR_NO_MEM;
    int rc = vine__choose_build(&c->a, c->req, (size_t)c->t.size, &e->sched, &e->served);
    if (rc != MPI_SUCCESS) {
        vine__cache_drop(e);
        return rc;
    }
    /* The MPI library's collective runs no schedule. */
    if (e->served->flags & VINE_ALGO_MPI) {
        *out = e;
        return MPI_SUCCESS;
    }
    e->max_reqs = vine__exec_max_requests(&e->sched);
    /* Without a plan (no memory, or a message above INT_MAX elements) the
     * schedule runs op by op. */
    e->has_plan = vine__exec_plan_build(&e->sched, &e->plan) == MPI_SUCCESS;
    *out = e;
    return MPI_SUCCESS;
}

/* Whether s reads or writes a rank's region of the node segment (not only flags and slots). */
static int uses_region(const vine_sched *s)
{
    for (size_t i = 0; i < s->nops; i++) {
        const vine_op *op = &s->ops[i];
        if (op->buf == VINE_BUF_SHM || (vine__op_local(op->kind) && op->dbuf == VINE_BUF_SHM))
            return 1;
    }
    return 0;
}

/* The node segment's sizes in c->a, or none (seg 0). */
static void seg_counts(vine_call *c, int seg)
{
    c->a.shm_count = seg ? vine__shm_count(c->st, &c->t) : 0;
    c->a.shm_par_count = seg ? vine__shm_par_count(c->st, &c->t) : 0;
    c->a.shm_node_count = seg ? vine__shm_node_count(c->st, &c->t) : 0;
    /* Single copy reads peers' user buffers as bytes: the data-movement
     * collectives, which run on bytes, use it. */
    c->a.shm_single = c->a.shm_count && c->st->shm.x.single && c->t.dense && c->t.size == 1;
}

int vine__call_plan(vine_call *c)
{
    if (!c->st)
        return MPI_SUCCESS; /* a request without a state: mpi (vine__call_attach) */
    c->a.seg_count = vine__choose_seg_count((size_t)c->t.size);
    c->a.levels = &c->st->levels;
    c->a.levels_full = c->st->levels_full.group ? &c->st->levels_full : NULL;
    c->a.remap = vine__choose_remap();
    seg_counts(c, 1);
    int rc = schedule(c, &c->e);
    /* MPI 4 lets the ranks start persistent collectives in different orders,
     * which the node segment cannot serve: its calls run one at a time, in
     * the same order everywhere (request.c).  A persistent request whose
     * schedule would use it takes a segment of its own (collective: _init
     * calls come in one order), or else runs the point-to-point algorithms,
     * whose messages each request tags apart. */
    if (rc == MPI_SUCCESS && c->nb && vine__nb_off_segment(c->nb) && c->e->sched.shm) {
        int own = vine__shm_own_take(c->st, uses_region(&c->e->sched));
        if (own >= 0) {
            vine__nb_own(c->nb, c->st, own);
        } else {
            seg_counts(c, 0);
            rc = schedule(c, &c->e);
        }
    }
    /* A schedule would need the private communicator: only counts above
     * INT_MAX keep the MPI library's collective from serving such a call. */
    if (rc == MPI_SUCCESS && c->st->mpi_only && !(c->e->served->flags & VINE_ALGO_MPI))
        return MPI_ERR_COUNT;
    return rc;
}

/* Records and (VINE_VERBOSE) says which algorithm served c. */
static void served(const vine_call *c)
{
    vine__choose_note(c->a.coll, c->e->served);
    if (vine__verbose() && !c->st)
        vine__say_early(c->comm, c->a.rank, c->a.p, c->a.coll);
    else if (vine__verbose())
        vine__say_served(c->comm, c->a.rank, c->a.p, c->a.coll, c->e->served->name);
}

/*
 * A blocking run of x on st.  A schedule of the shm family first waits for
 * the shm requests started before it on st, which own the node segment
 * until they complete (request.c), and ends with a pass of MPI's progress
 * engine while vine_shm_sync_progress asks for one.
 */
static int run(vine_comm_state *st, const vine_exec_call *x)
{
    if (!x->sched->shm)
        return vine__exec_run(x, &st->scr);
    if (st->shm_done != st->shm_tickets)
        vine__nb_drain_shm(st);
    int rc = vine__exec_run(x, &st->scr);
    if (atomic_load_explicit(&vine__shm_sync_count, memory_order_relaxed) > 0)
        vine__exec_shm_poke(x->comm);
    return rc;
}

int vine__call_exec(vine_call *c)
{
    vine_cache_entry *e = c->e;
    if (c->nb) {
        int rc = vine__nb_launch(c);
        if (rc == MPI_SUCCESS)
            served(c);
        return rc;
    }
    vine_exec_call x = {&e->sched,   e->has_plan ? &e->plan : NULL,
                        e->max_reqs, c->sendbuf,
                        c->recvbuf,  &c->t,
                        c->op,       c->a.commutative,
                        c->st->comm, vine__shm_exec(c->st),
                        VINE_EXEC_TAG};
    int rc = run(c->st, &x);
    if (rc == MPI_SUCCESS)
        served(c);
    return rc;
}

int vine__call_mpi_done(const vine_call *c, int rc)
{
    if (rc == MPI_SUCCESS)
        served(c);
    return rc;
}

int vine__call_run(vine_call *c)
{
    int rc = vine__call_plan(c);
    return rc ? rc : vine__call_exec(c);
}

/* Remembers c with the given sides (MPI_DATATYPE_NULL: a side not compared). */
static void keep(const vine_call *c, MPI_Datatype dt, size_t count, MPI_Datatype dt2,
                 size_t count2, int root, int inplace)
{
    c->st->memo = (vine_memo){.valid = 1,
                              .coll = c->a.coll,
                              .dt = dt,
                              .dt2 = dt2,
                              .op = c->op,
                              .count = count,
                              .count2 = count2,
                              .root = root,
                              .inplace = inplace,
                              .gen = vine__choice_gen,
                              .e = c->e,
                              .xt = c->t,
                              .commutative = c->a.commutative};
}

void vine__call_memo_keep(const vine_call *c, const vine_exec_type *user_t, size_t count, int root,
                          int inplace)
{
    if (c->nb)
        return; /* a request's call is not repeated by the blocking shortcut */
    if (!user_t->named || (c->op != MPI_OP_NULL && !vine__op_is_predefined(c->op)))
        c->st->memo.valid = 0;
    else
        keep(c, user_t->dt, count, MPI_DATATYPE_NULL, 0, root, inplace);
}

void vine__call_memo_keep2(const vine_call *c, const vine_exec_type *st, size_t scount,
                           const vine_exec_type *rt, size_t rcount, int root, int inplace)
{
    if (c->nb)
        return;
    if ((st && !st->named) || (rt && !rt->named))
        c->st->memo.valid = 0;
    else
        keep(c, st ? st->dt : MPI_DATATYPE_NULL, scount, rt ? rt->dt : MPI_DATATYPE_NULL, rcount,
             root, inplace);
}

int vine__call_memo_done(const vine_comm_state *st, int rc)
{
    if (rc == MPI_SUCCESS)
        vine__choose_note(st->memo.coll, st->memo.e->served);
    return rc;
}

int vine__call_memo_run(vine_comm_state *st, const void *sendbuf, void *recvbuf)
{
    const vine_memo *m = &st->memo;
    const vine_cache_entry *e = m->e;
    if (e->served->flags & VINE_ALGO_MPI)
        return vine__call_memo_done(st, vine__mpi_memo(st, sendbuf, recvbuf));
    vine_exec_call x = {&e->sched,   e->has_plan ? &e->plan : NULL,
                        e->max_reqs, sendbuf,
                        recvbuf,     &m->xt,
                        m->op,       m->commutative,
                        st->comm,    vine__shm_exec(st),
                        VINE_EXEC_TAG};
    return vine__call_memo_done(st, run(st, &x));
}

int vine__call_vmemo_done(const vine_comm_state *st, int rc)
{
    if (rc == MPI_SUCCESS)
        vine__choose_note(st->vmemo.coll, st->vmemo.e->served);
    return rc;
}

int vine__call_vmemo_run(vine_comm_state *st, const void *sendbuf, void *recvbuf)
{
    const vine_cache_entry *e = st->vmemo.e;
    vine_exec_call x = {&e->sched,    e->has_plan ? &e->plan : NULL,
                        e->max_reqs,  sendbuf,
                        recvbuf,      vine__byte_type(),
                        MPI_OP_NULL,  1,
                        st->comm,     vine__shm_exec(st),
                        VINE_EXEC_TAG};
    return vine__call_vmemo_done(st, run(st, &x));
}
