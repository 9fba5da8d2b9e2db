/*
 * The reducing collectives of include/vine.h (reduce, allreduce,
 * reduce_scatter_block, reduce_scatter) and their MPI_Count variants.  Their
 * schedules run on elements of the user's datatype, since MPI_Reduce_local
 * and user-defined ops need the datatype's own layout.
 */
#include "api.h"
#include "vine.h"

#include <limits.h>

/* The checks of an op-taking call: communicator, count, datatype, op. */
static int start_reduction(vine_call *c, vine_coll coll, MPI_Comm comm, MPI_Count count,
                           MPI_Datatype dt, MPI_Op op, struct vine_nbreq *nb)
{
    int rc = vine__call_start(c, coll, comm);
    c->nb = nb;
    if (rc == MPI_SUCCESS)
        rc = vine__call_check_type(count, dt, &c->t);
    if (rc == MPI_SUCCESS)
        rc = vine__call_check_op(c, op);
    c->a.count = (size_t)count;
    return rc;
}

static int reduce_impl(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype dt,
                       MPI_Op op, int root, MPI_Comm comm, struct vine_nbreq *nb)
{
    vine_comm_state *st = vine__last_state;
    int inplace = sendbuf == MPI_IN_PLACE;
    if (!nb && st && st->user == comm &&
        vine__call_memo_hit(st, VINE_COLL_REDUCE, dt, op, count, root, inplace)) {
        /* The same call as the last one on comm, which passed every check that
         * does not depend on the buffers. */
        int at_root = st->rank == root;
        if ((inplace || sendbuf) && (!at_root || (recvbuf && recvbuf != MPI_IN_PLACE)))
            return vine__call_memo_run(st, inplace ? NULL : sendbuf, at_root ? recvbuf : NULL);
    }
    vine_call c;
    int rc = start_reduction(&c, VINE_COLL_REDUCE, comm, count, dt, op, nb);
    if (rc != MPI_SUCCESS)
        return rc;
    if (root < 0 || root >= c.a.p)
        return MPI_ERR_ROOT;
    int at_root = c.a.rank == root;
    if ((inplace && !at_root) || (at_root && recvbuf == MPI_IN_PLACE))
        return MPI_ERR_BUFFER;
    if ((!inplace && (rc = vine__call_check_buf(sendbuf, c.a.count, &c.t))) ||
        (at_root && (rc = vine__call_check_buf(recvbuf, c.a.count, &c.t))) ||
        (rc = vine__call_check_request(&c)))
        return rc;
    if (count == 0)
        return vine__call_none(&c);
    c.a.root = root;
    c.a.inplace = inplace;
    c.sendbuf = inplace ? NULL : sendbuf;
    c.recvbuf = at_root ? recvbuf : NULL;
    if ((rc = vine__call_attach(&c)) || (rc = vine__call_plan(&c)))
        return rc;
    if (vine__call_to_mpi(&c) && nb)
        return vine__nb_mpi(&c);
    if (vine__call_to_mpi(&c))
        rc = vine__call_mpi_done(&c, PMPI_Reduce(sendbuf, recvbuf, (int)count, dt, op, root, comm));
    else
        rc = vine__call_exec(&c);
    if (rc == MPI_SUCCESS)
        vine__call_memo_keep(&c, &c.t, c.a.count, root, inplace);
    return rc;
}

/* The MPI library's allreduce, scan or exscan. */
static int mpi_allreduce_like(vine_coll coll, const void *sendbuf, void *recvbuf, int count,
                              MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
    if (coll == VINE_COLL_SCAN)
        return PMPI_Scan(sendbuf, recvbuf, count, dt, op, comm);
    if (coll == VINE_COLL_EXSCAN)
        return PMPI_Exscan(sendbuf, recvbuf, count, dt, op, comm);
    return PMPI_Allreduce(sendbuf, recvbuf, count, dt, op, comm);
}

/*
 * allreduce, and scan and exscan, which take the same arguments and checks
 * (exscan leaves rank 0's recvbuf as it was: MPI does not define it).
 */
static int allreduce_impl(vine_coll coll, const void *sendbuf, void *recvbuf, MPI_Count count,
                          MPI_Datatype dt, MPI_Op op, MPI_Comm comm, struct vine_nbreq *nb)
{
    vine_comm_state *st = vine__last_state;
    int inplace = sendbuf == MPI_IN_PLACE;
    if (!nb && st && st->user == comm && vine__call_memo_hit(st, coll, dt, op, count, 0, inplace) &&
        (inplace || sendbuf) && recvbuf && recvbuf != MPI_IN_PLACE)
        return vine__call_memo_run(st, inplace ? NULL : sendbuf, recvbuf);
    vine_call c;
    int rc = start_reduction(&c, coll, comm, count, dt, op, nb);
    if (rc != MPI_SUCCESS)
        return rc;
    if (recvbuf == MPI_IN_PLACE)
        return MPI_ERR_BUFFER;
    if ((!inplace && (rc = vine__call_check_buf(sendbuf, c.a.count, &c.t))) ||
        (rc = vine__call_check_buf(recvbuf, c.a.count, &c.t)) ||
        (rc = vine__call_check_request(&c)))
        return rc;
    if (count == 0)
        return vine__call_none(&c);
    c.a.inplace = inplace;
    c.sendbuf = inplace ? NULL : sendbuf;
    c.recvbuf = recvbuf;
    if ((rc = vine__call_attach(&c)) || (rc = vine__call_plan(&c)))
        return rc;
    if (vine__call_to_mpi(&c) && nb)
        return vine__nb_mpi(&c);
    if (vine__call_to_mpi(&c))
        rc = vine__call_mpi_done(
            &c, mpi_allreduce_like(coll, sendbuf, recvbuf, (int)count, dt, op, comm));
    else
        rc = vine__call_exec(&c);
    if (rc == MPI_SUCCESS)
        vine__call_memo_keep(&c, &c.t, c.a.count, 0, inplace);
    return rc;
}

int vine_scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
              MPI_Comm comm)
{
    return allreduce_impl(VINE_COLL_SCAN, sendbuf, recvbuf, count, datatype, op, comm, NULL);
}

int vine_scan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                MPI_Op op, MPI_Comm comm)
{
    return allreduce_impl(VINE_COLL_SCAN, sendbuf, recvbuf, count, datatype, op, comm, NULL);
}

int vine_exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                MPI_Comm comm)
{
    return allreduce_impl(VINE_COLL_EXSCAN, sendbuf, recvbuf, count, datatype, op, comm, NULL);
}

int vine_exscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                  MPI_Op op, MPI_Comm comm)
{
    return allreduce_impl(VINE_COLL_EXSCAN, sendbuf, recvbuf, count, datatype, op, comm, NULL);
}

/* The buffer checks of both reduce-scatters; total is the full input vector's length. */
static int check_reduce_scatter(vine_call *c, const void *sendbuf, void *recvbuf, size_t own,
                                size_t total)
{
    int inplace = sendbuf == MPI_IN_PLACE, rc;
    if (recvbuf == MPI_IN_PLACE)
        return MPI_ERR_BUFFER;
    if ((!inplace && (rc = vine__call_check_buf(sendbuf, total, &c->t))) ||
        (rc = vine__call_check_buf(recvbuf, inplace ? total : own, &c->t)))
        return rc;
    c->a.inplace = inplace;
    c->sendbuf = inplace ? NULL : sendbuf;
    c->recvbuf = recvbuf;
    return vine__call_check_request(c);
}

/* Entry i of recvcounts given as ints (ic) or MPI_Counts (cc). */
static MPI_Count count_at(const int *ic, const MPI_Count *cc, int i)
{
    return ic ? (MPI_Count)ic[i] : cc[i];
}

/* The buffers of a repeated reduce-scatter pass the checks (sendbuf: MPI_IN_PLACE or memory). */
static int repeat_bufs(const void *sendbuf, const void *recvbuf)
{
    return sendbuf && recvbuf && recvbuf != MPI_IN_PLACE;
}

static int reduce_scatter_block_impl(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                     MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                                     struct vine_nbreq *nb)
{
    vine_comm_state *ms = vine__last_state;
    int inplace = sendbuf == MPI_IN_PLACE;
    if (!nb && ms && ms->user == comm &&
        vine__call_memo_hit(ms, VINE_COLL_REDUCE_SCATTER_BLOCK, dt, op, recvcount, 0, inplace) &&
        repeat_bufs(sendbuf, recvbuf))
        return vine__call_memo_run(ms, inplace ? NULL : sendbuf, recvbuf);
    vine_call c;
    int rc = start_reduction(&c, VINE_COLL_REDUCE_SCATTER_BLOCK, comm, recvcount, dt, op, nb);
    if (rc != MPI_SUCCESS)
        return rc;
    size_t total;
    if ((rc = vine__call_bytes(c.a.count, (MPI_Count)c.a.p, &total)) ||
        (rc = check_reduce_scatter(&c, sendbuf, recvbuf, c.a.count, total)))
        return rc;
    if (recvcount == 0)
        return vine__call_none(&c);
    if ((rc = vine__call_attach(&c)) != MPI_SUCCESS)
        return rc;
    if (!c.st)
        return vine__nb_mpi(&c);
    vine_comm_state *st = c.st;
    for (int i = 0; i < st->p; i++) {
        st->counts[i] = c.a.count;
        st->displs[i] = (size_t)i * c.a.count;
    }
    st->displs[st->p] = total;
    c.a.counts = st->counts;
    c.a.displs = st->displs;
    if ((rc = vine__call_plan(&c)))
        return rc;
    if (vine__call_to_mpi(&c) && nb)
        return vine__nb_mpi(&c);
    if (vine__call_to_mpi(&c))
        rc = vine__call_mpi_done(
            &c, PMPI_Reduce_scatter_block(sendbuf, recvbuf, (int)recvcount, dt, op, comm));
    else
        rc = vine__call_exec(&c);
    if (rc == MPI_SUCCESS)
        vine__call_memo_keep(&c, &c.t, c.a.count, 0, inplace);
    return rc;
}


/* Whether recvcounts (ic or cc) are the counts of the reduce-scatter remembered on st. */
static int memo_counts(const vine_comm_state *st, const int *ic, const MPI_Count *cc)
{
    const vine_memo *m = &st->memo;
    if (!m->valid || m->coll != VINE_COLL_REDUCE_SCATTER || (!ic && !cc))
        return 0;
    const size_t *k = m->e->key.counts;
    for (int i = 0; i < st->p; i++) {
        MPI_Count n = count_at(ic, cc, i);
        if (n < 0 || (size_t)n != k[i])
            return 0;
    }
    return 1;
}

static int reduce_scatter_impl(const void *sendbuf, void *recvbuf, const int *ic,
                               const MPI_Count *cc, MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                               struct vine_nbreq *nb)
{
    vine_comm_state *ms = vine__last_state;
    int inplace = sendbuf == MPI_IN_PLACE;
    if (!nb && ms && ms->user == comm && memo_counts(ms, ic, cc) &&
        vine__call_memo_hit(ms, VINE_COLL_REDUCE_SCATTER, dt, op, (MPI_Count)ms->memo.count, 0,
                            inplace) &&
        repeat_bufs(sendbuf, recvbuf)) {
        if (vine__call_memo_mpi(ms))
            return vine__call_memo_done(ms, vine__mpi_reduce_scatter(sendbuf, recvbuf, ic,
                                                                     ms->memo.e->key.counts, dt,
                                                                     op, comm));
        return vine__call_memo_run(ms, inplace ? NULL : sendbuf, recvbuf);
    }
    vine_call c;
    int rc = start_reduction(&c, VINE_COLL_REDUCE_SCATTER, comm, 0, dt, op, nb);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!ic && !cc)
        return MPI_ERR_ARG;
    size_t total = 0;
    for (int i = 0; i < c.a.p; i++) {
        MPI_Count n = count_at(ic, cc, i);
        if (n < 0)
            return MPI_ERR_COUNT;
        c.big |= n > INT_MAX;
        if ((size_t)n > SIZE_MAX - total)
            return MPI_ERR_COUNT;
        total += (size_t)n;
    }
    size_t own = (size_t)count_at(ic, cc, c.a.rank);
    if ((rc = check_reduce_scatter(&c, sendbuf, recvbuf, own, total)))
        return rc;
    if (total == 0)
        return vine__call_none(&c);
    if ((rc = vine__call_attach(&c)) != MPI_SUCCESS)
        return rc;
    if (!c.st)
        return vine__nb_mpi(&c);
    vine_comm_state *st = c.st;
    st->displs[0] = 0;
    for (int i = 0; i < st->p; i++) {
        st->counts[i] = (size_t)count_at(ic, cc, i);
        st->displs[i + 1] = st->displs[i] + st->counts[i];
    }
    c.a.count = total;
    c.a.counts = st->counts;
    c.a.displs = st->displs;
    if ((rc = vine__call_plan(&c)))
        return rc;
    if (vine__call_to_mpi(&c) && nb)
        return vine__nb_mpi(&c);
    if (vine__call_to_mpi(&c))
        rc = vine__call_mpi_done(
            &c, vine__mpi_reduce_scatter(sendbuf, recvbuf, ic, st->counts, dt, op, comm));
    else
        rc = vine__call_exec(&c);
    /* The counts are the cache entry's own (memo_counts), total the vector's length. */
    if (rc == MPI_SUCCESS && c.e->key.counts)
        vine__call_memo_keep(&c, &c.t, total, 0, inplace);
    return rc;
}

int vine_reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                int root, MPI_Comm comm)
{
    return reduce_impl(sendbuf, recvbuf, count, datatype, op, root, comm, NULL);
}

int vine_reduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                  MPI_Op op, int root, MPI_Comm comm)
{
    return reduce_impl(sendbuf, recvbuf, count, datatype, op, root, comm, NULL);
}

int vine_allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                   MPI_Comm comm)
{
    return allreduce_impl(VINE_COLL_ALLREDUCE, sendbuf, recvbuf, count, datatype, op, comm, NULL);
}

int vine_allreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                     MPI_Op op, MPI_Comm comm)
{
    return allreduce_impl(VINE_COLL_ALLREDUCE, sendbuf, recvbuf, count, datatype, op, comm, NULL);
}

int vine_reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return reduce_scatter_block_impl(sendbuf, recvbuf, recvcount, datatype, op, comm, NULL);
}

int vine_reduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return reduce_scatter_block_impl(sendbuf, recvbuf, recvcount, datatype, op, comm, NULL);
}

int vine_reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return reduce_scatter_impl(sendbuf, recvbuf, recvcounts, NULL, datatype, op, comm, NULL);
}

int vine_reduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return reduce_scatter_impl(sendbuf, recvbuf, NULL, recvcounts, datatype, op, comm, NULL);
}

/* ---- Nonblocking and persistent forms ---- */

/* The arguments of a reduction for the MPI library's nonblocking collective. */
static vine_nb_args red_args(vine_coll coll, const void *sendbuf, void *recvbuf, MPI_Count count,
                             MPI_Datatype dt, MPI_Op op, int root, MPI_Comm comm)
{
    return (vine_nb_args){.coll = coll,
                          .sendbuf = sendbuf,
                          .recvbuf = recvbuf,
                          .scount = count,
                          .stype = dt,
                          .op = op,
                          .root = root,
                          .comm = comm};
}

static int reduce_nb(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype dt,
                     MPI_Op op, int root, MPI_Comm comm, int persistent, MPI_Request *request)
{
    vine_nb_args a = red_args(VINE_COLL_REDUCE, sendbuf, recvbuf, count, dt, op, root, comm);
    struct vine_nbreq *r;
    int rc = vine__nb_begin(&r, &a, persistent, request);
    if (rc == MPI_SUCCESS)
        rc = reduce_impl(sendbuf, recvbuf, count, dt, op, root, comm, r);
    return vine__nb_end(r, rc, request);
}

/* allreduce, scan or exscan (which take allreduce's arguments), nonblocking or persistent. */
static int allreduce_nb(vine_coll coll, const void *sendbuf, void *recvbuf, MPI_Count count,
                        MPI_Datatype dt, MPI_Op op, MPI_Comm comm, int persistent,
                        MPI_Request *request)
{
    vine_nb_args a = red_args(coll, sendbuf, recvbuf, count, dt, op, 0, comm);
    struct vine_nbreq *r;
    int rc = vine__nb_begin(&r, &a, persistent, request);
    if (rc == MPI_SUCCESS)
        rc = allreduce_impl(coll, sendbuf, recvbuf, count, dt, op, comm, r);
    return vine__nb_end(r, rc, request);
}

static int reduce_scatter_block_nb(const void *sendbuf, void *recvbuf, MPI_Count count,
                                   MPI_Datatype dt, MPI_Op op, MPI_Comm comm, int persistent,
                                   MPI_Request *request)
{
    vine_nb_args a =
        red_args(VINE_COLL_REDUCE_SCATTER_BLOCK, sendbuf, recvbuf, count, dt, op, 0, comm);
    struct vine_nbreq *r;
    int rc = vine__nb_begin(&r, &a, persistent, request);
    if (rc == MPI_SUCCESS)
        rc = reduce_scatter_block_impl(sendbuf, recvbuf, count, dt, op, comm, r);
    return vine__nb_end(r, rc, request);
}

static int reduce_scatter_nb(const void *sendbuf, void *recvbuf, const int *ic, const MPI_Count *cc,
                             MPI_Datatype dt, MPI_Op op, MPI_Comm comm, int persistent,
                             MPI_Request *request)
{
    vine_nb_args a = red_args(VINE_COLL_REDUCE_SCATTER, sendbuf, recvbuf, 0, dt, op, 0, comm);
    a.icounts = ic;
    a.ccounts = cc;
    struct vine_nbreq *r;
    int rc = vine__nb_begin(&r, &a, persistent, request);
    if (rc == MPI_SUCCESS)
        rc = reduce_scatter_impl(sendbuf, recvbuf, ic, cc, dt, op, comm, r);
    return vine__nb_end(r, rc, request);
}

int vine_ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                 int root, MPI_Comm comm, MPI_Request *request)
{
    return reduce_nb(sendbuf, recvbuf, count, datatype, op, root, comm, 0, request);
}

int vine_ireduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                   MPI_Op op, int root, MPI_Comm comm, MPI_Request *request)
{
    return reduce_nb(sendbuf, recvbuf, count, datatype, op, root, comm, 0, request);
}

int vine_reduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                     MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info;
    return reduce_nb(sendbuf, recvbuf, count, datatype, op, root, comm, 1, request);
}

int vine_reduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                       MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info;
    return reduce_nb(sendbuf, recvbuf, count, datatype, op, root, comm, 1, request);
}

int vine_iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                    MPI_Comm comm, MPI_Request *request)
{
    return allreduce_nb(VINE_COLL_ALLREDUCE, sendbuf, recvbuf, count, datatype, op, comm, 0,
                        request);
}

int vine_iallreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                      MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    return allreduce_nb(VINE_COLL_ALLREDUCE, sendbuf, recvbuf, count, datatype, op, comm, 0,
                        request);
}

int vine_allreduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                        MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info;
    return allreduce_nb(VINE_COLL_ALLREDUCE, sendbuf, recvbuf, count, datatype, op, comm, 1,
                        request);
}

int vine_allreduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count,
                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                          MPI_Request *request)
{
    (void)info;
    return allreduce_nb(VINE_COLL_ALLREDUCE, sendbuf, recvbuf, count, datatype, op, comm, 1,
                        request);
}

int vine_ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                               MPI_Request *request)
{
    return reduce_scatter_block_nb(sendbuf, recvbuf, recvcount, datatype, op, comm, 0, request);
}

int vine_ireduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                 MPI_Request *request)
{
    return reduce_scatter_block_nb(sendbuf, recvbuf, recvcount, datatype, op, comm, 0, request);
}

int vine_reduce_scatter_block_init(const void *sendbuf, void *recvbuf, int recvcount,
                                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request)
{
    (void)info;
    return reduce_scatter_block_nb(sendbuf, recvbuf, recvcount, datatype, op, comm, 1, request);
}

int vine_reduce_scatter_block_init_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                     MPI_Request *request)
{
    (void)info;
    return reduce_scatter_block_nb(sendbuf, recvbuf, recvcount, datatype, op, comm, 1, request);
}

int vine_ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    return reduce_scatter_nb(sendbuf, recvbuf, recvcounts, NULL, datatype, op, comm, 0, request);
}

int vine_ireduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    return reduce_scatter_nb(sendbuf, recvbuf, NULL, recvcounts, datatype, op, comm, 0, request);
}

int vine_reduce_scatter_init(const void *sendbuf, void *recvbuf, const int recvcounts[],
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                             MPI_Request *request)
{
    (void)info;
    return reduce_scatter_nb(sendbuf, recvbuf, recvcounts, NULL, datatype, op, comm, 1, request);
}

int vine_reduce_scatter_init_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                               MPI_Request *request)
{
    (void)info;
    return reduce_scatter_nb(sendbuf, recvbuf, NULL, recvcounts, datatype, op, comm, 1, request);
}

int vine_iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               MPI_Comm comm, MPI_Request *request)
{
    return allreduce_nb(VINE_COLL_SCAN, sendbuf, recvbuf, count, datatype, op, comm, 0, request);
}

int vine_iscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                 MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    return allreduce_nb(VINE_COLL_SCAN, sendbuf, recvbuf, count, datatype, op, comm, 0, request);
}

int vine_scan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                   MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info;
    return allreduce_nb(VINE_COLL_SCAN, sendbuf, recvbuf, count, datatype, op, comm, 1, request);
}

int vine_scan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                     MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info;
    return allreduce_nb(VINE_COLL_SCAN, sendbuf, recvbuf, count, datatype, op, comm, 1, request);
}

int vine_iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                 MPI_Comm comm, MPI_Request *request)
{
    return allreduce_nb(VINE_COLL_EXSCAN, sendbuf, recvbuf, count, datatype, op, comm, 0, request);
}

int vine_iexscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                   MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    return allreduce_nb(VINE_COLL_EXSCAN, sendbuf, recvbuf, count, datatype, op, comm, 0, request);
}

int vine_exscan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                     MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info;
    return allreduce_nb(VINE_COLL_EXSCAN, sendbuf, recvbuf, count, datatype, op, comm, 1, request);
}

int vine_exscan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                       MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info;
    return allreduce_nb(VINE_COLL_EXSCAN, sendbuf, recvbuf, count, datatype, op, comm, 1, request);
}
