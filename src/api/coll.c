/*
 * The collectives of include/vine.h: argument checks (before any message),
 * then the cached schedule of the requested algorithm, run by the executor
 * on vine's private communicator.
 */
#include "api.h"
#include "vine.h"

#include <stdint.h>

/* One call in flight: the builder's arguments and what the executor needs. */
typedef struct vine_call {
    vine_comm_state *st; /* NULL until the first call on the communicator */
    vine_args a;
    vine_exec_type t;
    MPI_Op op;
    const void *sendbuf;
    void *recvbuf;
    const vine_algo *req;
} vine_call;

/*
 * MPI_ERR_BUFFER for a NULL buffer that must hold count > 0 elements of a
 * predefined type (a derived type may address memory from MPI_BOTTOM).
 */
static int check_buf(const void *buf, size_t count, MPI_Datatype dt)
{
    if (buf == NULL && count > 0 && vine__exec_is_named(dt))
        return MPI_ERR_BUFFER;
    return MPI_SUCCESS;
}

/* The checks every collective shares: communicator, count and datatype. */
static int check_common(vine_call *c, vine_coll coll, MPI_Comm comm, int count, MPI_Datatype dt)
{
    int rc;
    c->a = (vine_args){.coll = coll, .commutative = 1};
    c->op = MPI_OP_NULL;
    c->sendbuf = NULL;
    c->recvbuf = NULL;
    if ((rc = vine__comm_lookup(comm, &c->st, &c->a.p, &c->a.rank)) != MPI_SUCCESS)
        return rc;
    if (count < 0)
        return MPI_ERR_COUNT;
    if (dt == MPI_DATATYPE_NULL)
        return MPI_ERR_TYPE;
    c->a.count = (size_t)count;
    return vine__exec_type_init(&c->t, dt);
}

/* The predefined reduction ops, all commutative: no need to ask MPI. */
static int is_predefined_op(MPI_Op op)
{
    return op == MPI_SUM || op == MPI_PROD || op == MPI_MAX || op == MPI_MIN || op == MPI_LAND ||
           op == MPI_LOR || op == MPI_LXOR || op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR ||
           op == MPI_MAXLOC || op == MPI_MINLOC;
}

/*
 * Whether MPI_Reduce_local applies the predefined op to dt, asked for zero
 * elements.  MPI reports a refusal through MPI_COMM_WORLD's error handler
 * (MPI_COMM_SELF's under MPI 4), which by default aborts; both return errors
 * for the moment of the question.
 */
static int ask_reduce_local(MPI_Datatype dt, MPI_Op op)
{
    static char none;
    MPI_Errhandler world, self;
    if (MPI_Comm_get_errhandler(MPI_COMM_WORLD, &world) != MPI_SUCCESS)
        return MPI_ERR_OTHER;
    if (MPI_Comm_get_errhandler(MPI_COMM_SELF, &self) != MPI_SUCCESS) {
        MPI_Errhandler_free(&world);
        return MPI_ERR_OTHER;
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    int rc = MPI_Reduce_local(&none, &none, 0, dt, op);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, world);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, self);
    MPI_Errhandler_free(&world);
    MPI_Errhandler_free(&self);
    return rc == MPI_SUCCESS ? MPI_SUCCESS : MPI_ERR_OP;
}

/*
 * MPI_ERR_OP, before any message, when MPI_Reduce_local would refuse a
 * predefined op with dt (MPI_BAND with MPI_DOUBLE; Open MPI 4 and MPICH 4.0
 * refuse every derived type): found out later, the refusal would abort, or
 * leave the ranks that do not reduce waiting.  Answers for predefined types
 * are remembered (their handles are never freed); a derived type's handle
 * may be freed and reused, so it is asked every time.
 */
#define APPLIES_CACHE 16
static struct {
    MPI_Datatype dt;
    MPI_Op op;
    int rc;
} applies[APPLIES_CACHE];
static int applies_cached, applies_next;

static int check_applies(MPI_Datatype dt, MPI_Op op)
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

static int check_op(vine_call *c, MPI_Op op)
{
    if (op == MPI_OP_NULL)
        return MPI_ERR_OP;
    c->op = op;
    c->a.commutative = 1;
    if (is_predefined_op(op))
        return check_applies(c->t.dt, op);
    if (MPI_Op_commutative(op, &c->a.commutative) != MPI_SUCCESS)
        return MPI_ERR_OP;
    return MPI_SUCCESS;
}

/* The last check: an unknown algorithm named in the environment. */
static int check_request(vine_call *c)
{
    return vine__choose_requested(c->a.coll, &c->req);
}

/* vine's state for comm, created by the first call that communicates. */
static int attach(vine_call *c, MPI_Comm comm)
{
    return c->st ? MPI_SUCCESS : vine__comm_state(comm, &c->st);
}

/* The cached schedule for c, built on a miss. */
static int schedule(vine_call *c, vine_cache_entry **out)
{
    vine_comm_state *st = c->st;
    vine_key k = {c->a.coll,        c->a.root,      c->a.inplace,
                  c->a.commutative, c->req,         (size_t)c->t.size,
                  c->a.count,       c->a.seg_count, NULL};
    if (c->a.coll == VINE_COLL_REDUCE_SCATTER)
        k.counts = c->a.counts;
    if ((*out = vine__cache_find(st, &k)))
        return MPI_SUCCESS;
    vine_cache_entry *e = vine__cache_add(st, &k);
    if (!e)
        return MPI_ERR_NO_MEM;
    int rc = vine__choose_build(&c->a, c->req, (size_t)c->t.size, &e->sched, &e->served);
    if (rc != MPI_SUCCESS) {
        vine__cache_drop(e);
        return rc;
    }
    e->max_reqs = vine__exec_max_requests(&e->sched);
    *out = e;
    return MPI_SUCCESS;
}

/* Runs the call on its communicator's state (attach() first). */
static int run(vine_call *c)
{
    vine_cache_entry *e;
    c->a.seg_count = vine__choose_seg_count((size_t)c->t.size);
    int rc = schedule(c, &e);
    if (rc != MPI_SUCCESS)
        return rc;
    vine_exec_call x = {&e->sched, e->max_reqs, c->sendbuf,       c->recvbuf,
                        &c->t,     c->op,       c->a.commutative, c->st->comm};
    rc = vine__exec_run(&x, &c->st->scr);
    if (rc == MPI_SUCCESS)
        vine__choose_note(c->a.coll, e->served);
    return rc;
}

int vine_bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    vine_call c;
    int rc = check_common(&c, VINE_COLL_BCAST, comm, count, datatype);
    if (rc != MPI_SUCCESS)
        return rc;
    if (root < 0 || root >= c.a.p)
        return MPI_ERR_ROOT;
    if (buffer == MPI_IN_PLACE)
        return MPI_ERR_BUFFER;
    if ((rc = check_buf(buffer, c.a.count, datatype)) || (rc = check_request(&c)))
        return rc;
    if (count == 0)
        return MPI_SUCCESS;
    c.a.root = root;
    c.recvbuf = buffer;
    return (rc = attach(&c, comm)) ? rc : run(&c);
}

int vine_reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                int root, MPI_Comm comm)
{
    vine_call c;
    int rc = check_common(&c, VINE_COLL_REDUCE, comm, count, datatype);
    if (rc != MPI_SUCCESS || (rc = check_op(&c, op)) != MPI_SUCCESS)
        return rc;
    if (root < 0 || root >= c.a.p)
        return MPI_ERR_ROOT;
    int at_root = c.a.rank == root, inplace = sendbuf == MPI_IN_PLACE;
    if ((inplace && !at_root) || (at_root && recvbuf == MPI_IN_PLACE))
        return MPI_ERR_BUFFER;
    if ((!inplace && (rc = check_buf(sendbuf, c.a.count, datatype))) ||
        (at_root && (rc = check_buf(recvbuf, c.a.count, datatype))) || (rc = check_request(&c)))
        return rc;
    if (count == 0)
        return MPI_SUCCESS;
    c.a.root = root;
    c.a.inplace = inplace;
    c.sendbuf = inplace ? NULL : sendbuf;
    c.recvbuf = at_root ? recvbuf : NULL;
    return (rc = attach(&c, comm)) ? rc : run(&c);
}

int vine_allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                   MPI_Comm comm)
{
    vine_call c;
    int rc = check_common(&c, VINE_COLL_ALLREDUCE, comm, count, datatype);
    if (rc != MPI_SUCCESS || (rc = check_op(&c, op)) != MPI_SUCCESS)
        return rc;
    int inplace = sendbuf == MPI_IN_PLACE;
    if (recvbuf == MPI_IN_PLACE)
        return MPI_ERR_BUFFER;
    if ((!inplace && (rc = check_buf(sendbuf, c.a.count, datatype))) ||
        (rc = check_buf(recvbuf, c.a.count, datatype)) || (rc = check_request(&c)))
        return rc;
    if (count == 0)
        return MPI_SUCCESS;
    c.a.inplace = inplace;
    c.sendbuf = inplace ? NULL : sendbuf;
    c.recvbuf = recvbuf;
    return (rc = attach(&c, comm)) ? rc : run(&c);
}

/* The send side of an allgather that is not in place: counts, type, signature. */
static int check_allgather_send(const vine_call *c, const void *sendbuf, int sendcount,
                                MPI_Datatype sendtype)
{
    MPI_Count send_size;
    if (sendcount < 0)
        return MPI_ERR_COUNT;
    if (sendtype == MPI_DATATYPE_NULL)
        return MPI_ERR_TYPE;
    if (MPI_Type_size_x(sendtype, &send_size) != MPI_SUCCESS)
        return MPI_ERR_TYPE;
    if (send_size * sendcount != c->t.size * (MPI_Count)c->a.count)
        return MPI_ERR_TRUNCATE;
    return check_buf(sendbuf, (size_t)sendcount, sendtype);
}

/* Copies this rank's block into its place in recvbuf, converting between the types. */
static int place_own_block(const vine_call *c, const void *sendbuf, int sendcount,
                           MPI_Datatype sendtype, void *recvbuf)
{
    MPI_Aint off = (MPI_Aint)c->a.rank * (MPI_Aint)c->a.count * c->t.extent;
    void *dst = (void *)((uintptr_t)recvbuf + (uintptr_t)off);
    int rc = MPI_Sendrecv(sendbuf, sendcount, sendtype, c->a.rank, VINE_EXEC_COPY_TAG, dst,
                          (int)c->a.count, c->t.dt, c->a.rank, VINE_EXEC_COPY_TAG, c->st->comm,
                          MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS && MPI_Error_class(rc, &rc) != MPI_SUCCESS)
        rc = MPI_ERR_OTHER;
    return rc;
}

int vine_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    vine_call c;
    int rc = check_common(&c, VINE_COLL_ALLGATHER, comm, recvcount, recvtype);
    if (rc != MPI_SUCCESS)
        return rc;
    int inplace = sendbuf == MPI_IN_PLACE;
    if (recvbuf == MPI_IN_PLACE)
        return MPI_ERR_BUFFER;
    if ((!inplace && (rc = check_allgather_send(&c, sendbuf, sendcount, sendtype))) ||
        (rc = check_buf(recvbuf, c.a.count * (size_t)c.a.p, recvtype)) || (rc = check_request(&c)))
        return rc;
    if (recvcount == 0)
        return MPI_SUCCESS;
    if ((rc = attach(&c, comm)) != MPI_SUCCESS)
        return rc;
    if (!inplace && (sendtype != recvtype || sendcount != recvcount)) {
        /* Different types: place the own block, then gather the rest in place. */
        if ((rc = place_own_block(&c, sendbuf, sendcount, sendtype, recvbuf)) != MPI_SUCCESS)
            return rc;
        inplace = 1;
    }
    c.a.inplace = inplace;
    c.sendbuf = inplace ? NULL : sendbuf;
    c.recvbuf = recvbuf;
    return run(&c);
}

/* The checks of both reduce-scatters; total is the length of the full input vector. */
static int check_reduce_scatter(vine_call *c, const void *sendbuf, void *recvbuf, size_t own,
                                size_t total, MPI_Datatype dt)
{
    int inplace = sendbuf == MPI_IN_PLACE, rc;
    if (recvbuf == MPI_IN_PLACE)
        return MPI_ERR_BUFFER;
    if ((!inplace && (rc = check_buf(sendbuf, total, dt))) ||
        (rc = check_buf(recvbuf, inplace ? total : own, dt)))
        return rc;
    c->a.inplace = inplace;
    c->sendbuf = inplace ? NULL : sendbuf;
    c->recvbuf = recvbuf;
    return check_request(c);
}

int vine_reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    vine_call c;
    int rc = check_common(&c, VINE_COLL_REDUCE_SCATTER_BLOCK, comm, recvcount, datatype);
    if (rc != MPI_SUCCESS || (rc = check_op(&c, op)) != MPI_SUCCESS)
        return rc;
    size_t total = c.a.count * (size_t)c.a.p;
    if ((rc = check_reduce_scatter(&c, sendbuf, recvbuf, c.a.count, total, datatype)))
        return rc;
    if (recvcount == 0)
        return MPI_SUCCESS;
    if ((rc = attach(&c, comm)) != MPI_SUCCESS)
        return rc;
    vine_comm_state *st = c.st;
    for (int i = 0; i < st->p; i++) {
        st->counts[i] = c.a.count;
        st->displs[i] = (size_t)i * c.a.count;
    }
    st->displs[st->p] = total;
    c.a.counts = st->counts;
    c.a.displs = st->displs;
    return run(&c);
}

int vine_reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    vine_call c;
    int rc = check_common(&c, VINE_COLL_REDUCE_SCATTER, comm, 0, datatype);
    if (rc != MPI_SUCCESS || (rc = check_op(&c, op)) != MPI_SUCCESS)
        return rc;
    if (!recvcounts)
        return MPI_ERR_ARG;
    size_t total = 0;
    for (int i = 0; i < c.a.p; i++) {
        if (recvcounts[i] < 0)
            return MPI_ERR_COUNT;
        total += (size_t)recvcounts[i];
    }
    size_t own = (size_t)recvcounts[c.a.rank];
    if ((rc = check_reduce_scatter(&c, sendbuf, recvbuf, own, total, datatype)))
        return rc;
    if (total == 0)
        return MPI_SUCCESS;
    if ((rc = attach(&c, comm)) != MPI_SUCCESS)
        return rc;
    vine_comm_state *st = c.st;
    st->displs[0] = 0;
    for (int i = 0; i < st->p; i++) {
        st->counts[i] = (size_t)recvcounts[i];
        st->displs[i + 1] = st->displs[i] + st->counts[i];
    }
    c.a.count = total;
    c.a.counts = st->counts;
    c.a.displs = st->displs;
    return run(&c);
}
