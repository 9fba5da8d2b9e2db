/*
 * The MPI library's own collectives as vine's "mpi" algorithm: the calls
 * that need more than handing the user's arguments to PMPI_<Coll>, which the
 * entry points do themselves (coll_reduce.c, coll_move.c).  PMPI names keep
 * libvine-mpi.so, which defines MPI_<Coll> as vine's, from calling itself.
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
