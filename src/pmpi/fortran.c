/*
 * libvine-mpi under Open MPI's Fortran bindings (docs/pmpi.md, "Fortran
 * programs").  Open MPI's mpif.h and "use mpi" bindings are C functions
 * (mpi_allreduce_ and its other spellings, in libmpi_mpifh) that call
 * PMPI_Allreduce, and its mpi_f08 bindings call the same C function under
 * the name ompi_allreduce_f: no Fortran call reaches a library that
 * defines MPI_Allreduce.  This file defines those names for the seventeen
 * blocking collectives: each turns the Fortran handles into C ones, the
 * Fortran MPI_IN_PLACE and MPI_BOTTOM (addresses of common blocks) into
 * C's, and calls MPI_Allreduce ..., that is, pmpi.c's, where vine decides
 * as for a C call.  The nonblocking and persistent calls stay MPI's: their
 * requests are completed by Fortran's MPI_Wait, which calls PMPI_Wait.
 *
 * The conversions are those of Open MPI's own bindings (MPI_Fint is int on
 * Debian's Open MPI, so count and displacement arrays pass as they are).
 * Under MPICH, whose Fortran bindings call MPI_ names themselves
 * (pmpi.c, from_f08), this file is empty.
 */
#include <mpi.h>

#ifdef OPEN_MPI

#include <stdlib.h>

_Static_assert(sizeof(MPI_Fint) == sizeof(int), "Fortran INTEGER is not a C int");

/*
 * Fortran's MPI_IN_PLACE and MPI_BOTTOM: common blocks whose C name follows
 * the Fortran compiler's naming (gfortran: mpi_fortran_in_place_).  Weak,
 * so that the spellings the library does not define are null.
 */
#define SENTINELS(x, X)                                                                            \
    extern char MPI_FORTRAN_##X __attribute__((weak));                                             \
    extern char mpi_fortran_##x __attribute__((weak));                                             \
    extern char mpi_fortran_##x##_ __attribute__((weak));                                          \
    extern char mpi_fortran_##x##__ __attribute__((weak));                                         \
    static int is_##x(const void *a)                                                               \
    {                                                                                              \
        return a && (a == &MPI_FORTRAN_##X || a == &mpi_fortran_##x || a == &mpi_fortran_##x##_ || \
                     a == &mpi_fortran_##x##__);                                                   \
    }
SENTINELS(in_place, IN_PLACE)
SENTINELS(bottom, BOTTOM)

/* A buffer argument in C: MPI_BOTTOM, or MPI_IN_PLACE where in_place is 1. */
static void *buf(void *a, int in_place)
{
    if (in_place && is_in_place(a))
        return MPI_IN_PLACE;
    return is_bottom(a) ? MPI_BOTTOM : a;
}

static void set(MPI_Fint *ierr, int rc)
{
    if (ierr)
        *ierr = (MPI_Fint)rc;
}

#define T(x) PMPI_Type_f2c(*(x))
#define C(x) PMPI_Comm_f2c(*(x))
#define O(x) PMPI_Op_f2c(*(x))

/*
 * The Fortran names of one collective, all aliases of f_<name>: Open MPI
 * defines the four spellings of the Fortran compilers and ompi_<name>_f,
 * which its mpi_f08 bindings call.
 */
#define NAMES(name, NAME)                                                                          \
    __typeof__(f_##name) mpi_##name __attribute__((alias("f_" #name)));                            \
    __typeof__(f_##name) mpi_##name##_ __attribute__((alias("f_" #name)));                         \
    __typeof__(f_##name) mpi_##name##__ __attribute__((alias("f_" #name)));                        \
    __typeof__(f_##name) MPI_##NAME __attribute__((alias("f_" #name)));                            \
    __typeof__(f_##name) ompi_##name##_f __attribute__((alias("f_" #name)));

static void f_bcast(void *buffer, MPI_Fint *count, MPI_Fint *datatype, MPI_Fint *root,
                    MPI_Fint *comm, MPI_Fint *ierr)
{
    set(ierr, MPI_Bcast(buf(buffer, 0), *count, T(datatype), *root, C(comm)));
}
NAMES(bcast, BCAST)

static void f_reduce(void *sendbuf, void *recvbuf, MPI_Fint *count, MPI_Fint *datatype,
                     MPI_Fint *op, MPI_Fint *root, MPI_Fint *comm, MPI_Fint *ierr)
{
    set(ierr,
        MPI_Reduce(buf(sendbuf, 1), buf(recvbuf, 0), *count, T(datatype), O(op), *root, C(comm)));
}
NAMES(reduce, REDUCE)

static void f_allreduce(void *sendbuf, void *recvbuf, MPI_Fint *count, MPI_Fint *datatype,
                        MPI_Fint *op, MPI_Fint *comm, MPI_Fint *ierr)
{
    set(ierr, MPI_Allreduce(buf(sendbuf, 1), buf(recvbuf, 0), *count, T(datatype), O(op), C(comm)));
}
NAMES(allreduce, ALLREDUCE)

static void f_reduce_scatter(void *sendbuf, void *recvbuf, MPI_Fint *recvcounts, MPI_Fint *datatype,
                             MPI_Fint *op, MPI_Fint *comm, MPI_Fint *ierr)
{
    set(ierr, MPI_Reduce_scatter(buf(sendbuf, 1), buf(recvbuf, 0), recvcounts, T(datatype), O(op),
                                 C(comm)));
}
NAMES(reduce_scatter, REDUCE_SCATTER)

static void f_reduce_scatter_block(void *sendbuf, void *recvbuf, MPI_Fint *recvcount,
                                   MPI_Fint *datatype, MPI_Fint *op, MPI_Fint *comm, MPI_Fint *ierr)
{
    set(ierr, MPI_Reduce_scatter_block(buf(sendbuf, 1), buf(recvbuf, 0), *recvcount, T(datatype),
                                       O(op), C(comm)));
}
NAMES(reduce_scatter_block, REDUCE_SCATTER_BLOCK)

static void f_allgather(void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf,
                        MPI_Fint *recvcount, MPI_Fint *recvtype, MPI_Fint *comm, MPI_Fint *ierr)
{
    set(ierr, MPI_Allgather(buf(sendbuf, 1), *sendcount, T(sendtype), buf(recvbuf, 0), *recvcount,
                            T(recvtype), C(comm)));
}
NAMES(allgather, ALLGATHER)

static void f_alltoall(void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf,
                       MPI_Fint *recvcount, MPI_Fint *recvtype, MPI_Fint *comm, MPI_Fint *ierr)
{
    set(ierr, MPI_Alltoall(buf(sendbuf, 1), *sendcount, T(sendtype), buf(recvbuf, 0), *recvcount,
                           T(recvtype), C(comm)));
}
NAMES(alltoall, ALLTOALL)

static void f_gather(void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf,
                     MPI_Fint *recvcount, MPI_Fint *recvtype, MPI_Fint *root, MPI_Fint *comm,
                     MPI_Fint *ierr)
{
    set(ierr, MPI_Gather(buf(sendbuf, 1), *sendcount, T(sendtype), buf(recvbuf, 0), *recvcount,
                         T(recvtype), *root, C(comm)));
}
NAMES(gather, GATHER)

static void f_scatter(void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf,
                      MPI_Fint *recvcount, MPI_Fint *recvtype, MPI_Fint *root, MPI_Fint *comm,
                      MPI_Fint *ierr)
{
    set(ierr, MPI_Scatter(buf(sendbuf, 0), *sendcount, T(sendtype), buf(recvbuf, 1), *recvcount,
                          T(recvtype), *root, C(comm)));
}
NAMES(scatter, SCATTER)

static void f_barrier(MPI_Fint *comm, MPI_Fint *ierr)
{
    set(ierr, MPI_Barrier(C(comm)));
}
NAMES(barrier, BARRIER)

static void f_allgatherv(void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf,
                         MPI_Fint *recvcounts, MPI_Fint *displs, MPI_Fint *recvtype, MPI_Fint *comm,
                         MPI_Fint *ierr)
{
    set(ierr, MPI_Allgatherv(buf(sendbuf, 1), *sendcount, T(sendtype), buf(recvbuf, 0), recvcounts,
                             displs, T(recvtype), C(comm)));
}
NAMES(allgatherv, ALLGATHERV)

static void f_alltoallv(void *sendbuf, MPI_Fint *sendcounts, MPI_Fint *sdispls, MPI_Fint *sendtype,
                        void *recvbuf, MPI_Fint *recvcounts, MPI_Fint *rdispls, MPI_Fint *recvtype,
                        MPI_Fint *comm, MPI_Fint *ierr)
{
    set(ierr, MPI_Alltoallv(buf(sendbuf, 1), sendcounts, sdispls, T(sendtype), buf(recvbuf, 0),
                            recvcounts, rdispls, T(recvtype), C(comm)));
}
NAMES(alltoallv, ALLTOALLV)

/* n C datatypes of Fortran handles f (NULL when n is 0), or NULL with *rc set. */
static MPI_Datatype *types(const MPI_Fint *f, int n, int *rc)
{
    if (n <= 0)
        return NULL;
    MPI_Datatype *t = malloc((size_t)n * sizeof *t);
    if (!t) {
        *rc = MPI_ERR_NO_MEM;
        return NULL;
    }
    for (int i = 0; i < n; i++)
        t[i] = PMPI_Type_f2c(f[i]);
    return t;
}

static void f_alltoallw(void *sendbuf, MPI_Fint *sendcounts, MPI_Fint *sdispls, MPI_Fint *sendtypes,
                        void *recvbuf, MPI_Fint *recvcounts, MPI_Fint *rdispls, MPI_Fint *recvtypes,
                        MPI_Fint *comm, MPI_Fint *ierr)
{
    MPI_Comm c = C(comm);
    int n = 0, inter = 0, rc = MPI_SUCCESS;
    /* One type per peer: the remote group's on an intercommunicator.  A
     * handle MPI rejects leaves n 0: MPI_Alltoallw then reports it. */
    if (c != MPI_COMM_NULL && PMPI_Comm_test_inter(c, &inter) == MPI_SUCCESS &&
        (inter ? PMPI_Comm_remote_size(c, &n) : PMPI_Comm_size(c, &n)) != MPI_SUCCESS)
        n = 0;
    void *s = buf(sendbuf, 1);
    MPI_Datatype *st = s == MPI_IN_PLACE ? NULL : types(sendtypes, n, &rc);
    MPI_Datatype *rt = types(recvtypes, n, &rc);
    if (rc == MPI_SUCCESS)
        rc = MPI_Alltoallw(s, sendcounts, sdispls, st, buf(recvbuf, 0), recvcounts, rdispls, rt, c);
    else
        PMPI_Comm_call_errhandler(c, rc);
    free(st);
    free(rt);
    set(ierr, rc);
}
NAMES(alltoallw, ALLTOALLW)

static void f_gatherv(void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf,
                      MPI_Fint *recvcounts, MPI_Fint *displs, MPI_Fint *recvtype, MPI_Fint *root,
                      MPI_Fint *comm, MPI_Fint *ierr)
{
    set(ierr, MPI_Gatherv(buf(sendbuf, 1), *sendcount, T(sendtype), buf(recvbuf, 0), recvcounts,
                          displs, T(recvtype), *root, C(comm)));
}
NAMES(gatherv, GATHERV)

static void f_scatterv(void *sendbuf, MPI_Fint *sendcounts, MPI_Fint *displs, MPI_Fint *sendtype,
                       void *recvbuf, MPI_Fint *recvcount, MPI_Fint *recvtype, MPI_Fint *root,
                       MPI_Fint *comm, MPI_Fint *ierr)
{
    set(ierr, MPI_Scatterv(buf(sendbuf, 0), sendcounts, displs, T(sendtype), buf(recvbuf, 1),
                           *recvcount, T(recvtype), *root, C(comm)));
}
NAMES(scatterv, SCATTERV)

static void f_scan(void *sendbuf, void *recvbuf, MPI_Fint *count, MPI_Fint *datatype, MPI_Fint *op,
                   MPI_Fint *comm, MPI_Fint *ierr)
{
    set(ierr, MPI_Scan(buf(sendbuf, 1), buf(recvbuf, 0), *count, T(datatype), O(op), C(comm)));
}
NAMES(scan, SCAN)

static void f_exscan(void *sendbuf, void *recvbuf, MPI_Fint *count, MPI_Fint *datatype,
                     MPI_Fint *op, MPI_Fint *comm, MPI_Fint *ierr)
{
    set(ierr, MPI_Exscan(buf(sendbuf, 1), buf(recvbuf, 0), *count, T(datatype), O(op), C(comm)));
}
NAMES(exscan, EXSCAN)

#else
/* MPICH's Fortran bindings call MPI_ names: nothing to define. */
typedef int vine_fortran_nothing;
#endif
