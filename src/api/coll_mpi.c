/*
 * The MPI library's own collectives as vine's "mpi" algorithm: the calls
 * that need more than handing the user's arguments to PMPI_<Coll>, which the
 * entry points do themselves (coll_reduce.c, coll_v.c), and the data-movement
 * collectives, whose counts may need a datatype made for them.  PMPI names
 * keep libvine-mpi.so, which defines MPI_<Coll> as vine's, from calling
 * itself.
 */
#include "api.h"

#include <limits.h>
#include <stdlib.h>

int vine__mpi_reduce_scatter(const void *sendbuf, void *recvbuf, const int *ic,
                             const size_t *counts, MPI_Datatype dt, MPI_Op op, MPI_Comm comm)
{
    if (ic)
        return PMPI_Reduce_scatter(sendbuf, recvbuf, ic, dt, op, comm);
    /* The MPI_Count variant: the classic interface takes ints (each fits, as
     * the total does: the "mpi" algorithm admits totals up to INT_MAX). */
    int p;
    if (PMPI_Comm_size(comm, &p) != MPI_SUCCESS)
        return MPI_ERR_COMM;
    int *n = malloc((size_t)p * sizeof *n);
    if (!n)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < p; i++)
        n[i] = (int)counts[i];
    int rc = PMPI_Reduce_scatter(sendbuf, recvbuf, n, dt, op, comm);
    free(n);
    return rc;
}

/* Elements of dt per piece of a side above INT_MAX elements (vine__mpi_side). */
#define MPI_SIDE_PIECE ((MPI_Count)1 << 30)

/*
 * count elements of dt (count above INT_MAX) as one element of *out: q
 * pieces of MPI_SIDE_PIECE elements and a tail, each where count elements
 * have it.  The struct's bounds are its parts', so *out has the bounds (lb,
 * extent, true extent) of count elements of dt.
 */
static int mpi_side_type(MPI_Count count, MPI_Datatype dt, MPI_Datatype *out)
{
    MPI_Count q = count / MPI_SIDE_PIECE, r = count % MPI_SIDE_PIECE;
    MPI_Aint lb, ext;
    if (q > INT_MAX)
        return MPI_ERR_COUNT;
    int rc = PMPI_Type_get_extent(dt, &lb, &ext);
    MPI_Datatype piece = MPI_DATATYPE_NULL, body = MPI_DATATYPE_NULL, tail = MPI_DATATYPE_NULL;
    if (rc == MPI_SUCCESS)
        rc = PMPI_Type_contiguous((int)MPI_SIDE_PIECE, dt, &piece);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Type_contiguous((int)q, piece, &body);
    /* No empty tail: MPICH counts its bounds in the struct's. */
    if (rc == MPI_SUCCESS && r)
        rc = PMPI_Type_contiguous((int)r, dt, &tail);
    if (rc == MPI_SUCCESS) {
        int lens[2] = {1, 1};
        MPI_Aint at[2] = {0, (MPI_Aint)(q * MPI_SIDE_PIECE) * ext};
        MPI_Datatype parts[2] = {body, tail};
        rc = PMPI_Type_create_struct(r ? 2 : 1, lens, at, parts, out);
    }
    if (rc == MPI_SUCCESS && (rc = PMPI_Type_commit(out)) != MPI_SUCCESS)
        PMPI_Type_free(out);
    MPI_Datatype *made[3] = {&piece, &body, &tail};
    for (int i = 0; i < 3; i++)
        if (*made[i] != MPI_DATATYPE_NULL)
            PMPI_Type_free(made[i]);
    return vine__err_class(rc);
}

int vine__mpi_side(vine_mpi_side *s, MPI_Count count, MPI_Datatype dt, int used)
{
    s->n = count <= INT_MAX ? (int)count : 0;
    s->dt = dt;
    s->own = MPI_DATATYPE_NULL;
    if (!used || count <= INT_MAX)
        return MPI_SUCCESS;
    int rc = mpi_side_type(count, dt, &s->own);
    if (rc == MPI_SUCCESS) {
        s->n = 1;
        s->dt = s->own;
    }
    return rc;
}

void vine__mpi_side_free(vine_mpi_side *s)
{
    if (s->own != MPI_DATATYPE_NULL)
        PMPI_Type_free(&s->own);
}

int vine__mpi_move(const vine_nb_args *a, int rank, MPI_Request *q, int *wrapped)
{
    int su, ru;
    vine__nb_significant(a, rank, &su, &ru);
    vine_mpi_side sd, rd;
    int rc = vine__mpi_side(&sd, a->scount, a->stype, su);
    if (rc != MPI_SUCCESS)
        return rc;
    if ((rc = vine__mpi_side(&rd, a->rcount, a->rtype, ru)) != MPI_SUCCESS) {
        vine__mpi_side_free(&sd);
        return rc;
    }
    if (wrapped)
        *wrapped = sd.own != MPI_DATATYPE_NULL || rd.own != MPI_DATATYPE_NULL;
    const void *sb = a->sendbuf;
    void *rb = a->recvbuf;
    MPI_Comm comm = a->comm;
    switch (a->coll) {
    case VINE_COLL_BCAST:
        rc = q ? PMPI_Ibcast(rb, rd.n, rd.dt, a->root, comm, q)
               : PMPI_Bcast(rb, rd.n, rd.dt, a->root, comm);
        break;
    case VINE_COLL_ALLGATHER:
        rc = q ? PMPI_Iallgather(sb, sd.n, sd.dt, rb, rd.n, rd.dt, comm, q)
               : PMPI_Allgather(sb, sd.n, sd.dt, rb, rd.n, rd.dt, comm);
        break;
    case VINE_COLL_ALLTOALL:
        rc = q ? PMPI_Ialltoall(sb, sd.n, sd.dt, rb, rd.n, rd.dt, comm, q)
               : PMPI_Alltoall(sb, sd.n, sd.dt, rb, rd.n, rd.dt, comm);
        break;
    case VINE_COLL_GATHER:
        rc = q ? PMPI_Igather(sb, sd.n, sd.dt, rb, rd.n, rd.dt, a->root, comm, q)
               : PMPI_Gather(sb, sd.n, sd.dt, rb, rd.n, rd.dt, a->root, comm);
        break;
    case VINE_COLL_SCATTER:
        rc = q ? PMPI_Iscatter(sb, sd.n, sd.dt, rb, rd.n, rd.dt, a->root, comm, q)
               : PMPI_Scatter(sb, sd.n, sd.dt, rb, rd.n, rd.dt, a->root, comm);
        break;
    default:
        rc = MPI_ERR_INTERN;
        break;
    }
    /* MPI keeps what a started call needs of a datatype freed here. */
    vine__mpi_side_free(&sd);
    vine__mpi_side_free(&rd);
    return rc;
}

int vine__mpi_memo(const vine_comm_state *st, const void *sendbuf, void *recvbuf)
{
    const vine_memo *m = &st->memo;
    const void *in = m->inplace ? MPI_IN_PLACE : sendbuf;
    int n = (int)m->count;
    switch (m->coll) {
    case VINE_COLL_BCAST:
        return PMPI_Bcast(recvbuf, n, m->dt, m->root, st->user);
    case VINE_COLL_REDUCE:
        return PMPI_Reduce(in, recvbuf, n, m->dt, m->op, m->root, st->user);
    case VINE_COLL_ALLREDUCE:
        return PMPI_Allreduce(in, recvbuf, n, m->dt, m->op, st->user);
    case VINE_COLL_REDUCE_SCATTER_BLOCK:
        return PMPI_Reduce_scatter_block(in, recvbuf, n, m->dt, m->op, st->user);
    case VINE_COLL_SCAN:
        return PMPI_Scan(in, recvbuf, n, m->dt, m->op, st->user);
    case VINE_COLL_EXSCAN:
        return PMPI_Exscan(in, recvbuf, n, m->dt, m->op, st->user);
    default:
        return MPI_ERR_INTERN;
    }
}
