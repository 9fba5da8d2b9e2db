/*
 * libvine-mpi under Open MPI's Fortran bindings (docs/pmpi.md, "Fortran
 * programs").  Open MPI's mpif.h and "use mpi" bindings are C functions
 * (mpi_allreduce_ and its other spellings, in libmpi_mpifh) that call
 * PMPI_Allreduce, and its mpi_f08 bindings call the same C function under
 * the name ompi_allreduce_f: no Fortran call reaches a library that
 * defines MPI_Allreduce.  This file defines those names for
 * - the seventeen blocking collectives and their nonblocking forms (of
 *   MPI_Ialltoallw, only the calls vine serves, which copy the C datatype
 *   arrays made here at the start: the others go to Open MPI's own
 *   function, which keeps its arrays until the request completes);
 * - the calls that complete requests (MPI_Wait, MPI_Test, their all, any
 *   and some forms, MPI_Request_free, MPI_Cancel, MPI_Request_get_status),
 *   which must see vine's requests (pmpi.c); Open MPI 4.1 has no
 *   persistent collectives in Fortran, so MPI_Start stays MPI's;
 * - the blocking sends, receives and probes that pmpi.c makes advance
 *   vine's requests while some run;
 * - MPI_Comm_free, MPI_Comm_disconnect and MPI_Finalize, during which
 *   pmpi.c passes collectives (made from delete callbacks) to MPI.
 * Each turns the Fortran handles into C ones, the Fortran MPI_IN_PLACE,
 * MPI_BOTTOM, MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE (addresses of
 * common blocks) into C's, calls pmpi.c's MPI_<name>, where vine decides as
 * for a C call, and turns requests, statuses and indices back.
 *
 * The conversions are those of Open MPI's own bindings (MPI_Fint is int on
 * Debian's Open MPI, so count and displacement arrays pass as they are).
 * Under MPICH, whose Fortran bindings call MPI_ names themselves
 * (pmpi.c, from_f08), this file is empty.
 */
#define _GNU_SOURCE /* RTLD_NEXT */
#include <mpi.h>

#ifdef OPEN_MPI

#include "vine.h"

#include <dlfcn.h>
#include <stdlib.h>

/* pmpi.c: whether a call of coll on comm goes to MPI (intercommunicator ...). */
__attribute__((visibility("hidden"))) int vine_pmpi__passes(MPI_Comm comm, vine_coll coll);

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
 * The Fortran names of one MPI function, all aliases of f_<name>: Open MPI
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

/* ---- Nonblocking collectives and the calls that complete requests ---- */

/*
 * Fortran's MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE, and the length of a
 * Fortran status (MPI_STATUS_SIZE), which Open MPI makes a C status's.
 */
SENTINELS(status_ignore, STATUS_IGNORE)
SENTINELS(statuses_ignore, STATUSES_IGNORE)
#define FSTATUS (sizeof(MPI_Status) / sizeof(MPI_Fint))

/* Fortran's .true. and .false. (gfortran: 1 and 0). */
static MPI_Fint logical(int flag)
{
    return flag ? 1 : 0;
}

/* Where a C call writes the status of Fortran's status f. */
static MPI_Status *status_in(MPI_Fint *f, MPI_Status *c)
{
    return is_status_ignore(f) ? MPI_STATUS_IGNORE : c;
}

static void status_out(const MPI_Status *c, MPI_Fint *f)
{
    if (!is_status_ignore(f))
        PMPI_Status_c2f(c, f);
}

/* Where a C array call writes its statuses: c, or MPI_STATUSES_IGNORE. */
static MPI_Status *statuses_in(MPI_Fint *f, MPI_Status *c)
{
    return is_statuses_ignore(f) ? MPI_STATUSES_IGNORE : c;
}

/* Status i of n back to Fortran's array f (nothing when it is ignored). */
static void statuses_out(const MPI_Status *c, MPI_Fint *f, int i)
{
    if (!is_statuses_ignore(f))
        PMPI_Status_c2f(&c[i], f + (size_t)i * FSTATUS);
}

/*
 * C handles of n Fortran requests, with room for n statuses after them;
 * NULL (out of memory) only for n > 0.
 */
static MPI_Request *requests_in(int n, const MPI_Fint *f, MPI_Status **st)
{
    if (n <= 0) {
        *st = NULL;
        return NULL;
    }
    MPI_Request *c = malloc((size_t)n * (sizeof *c + sizeof **st));
    if (!c)
        return NULL;
    for (int i = 0; i < n; i++)
        c[i] = PMPI_Request_f2c(f[i]);
    *st = (MPI_Status *)(void *)(c + n);
    return c;
}

/* Whether rc leaves the requests and statuses of an array call to read. */
static int array_done(int rc)
{
    return rc == MPI_SUCCESS || rc == MPI_ERR_IN_STATUS;
}

/* An array call that could not start: no memory for the C handles. */
static void no_memory(MPI_Fint *ierr)
{
    PMPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_NO_MEM);
    set(ierr, MPI_ERR_NO_MEM);
}

static void f_wait(MPI_Fint *request, MPI_Fint *status, MPI_Fint *ierr)
{
    MPI_Request c = PMPI_Request_f2c(*request);
    MPI_Status s;
    int rc = MPI_Wait(&c, status_in(status, &s));
    set(ierr, rc);
    if (rc == MPI_SUCCESS) {
        *request = PMPI_Request_c2f(c);
        status_out(&s, status);
    }
}
NAMES(wait, WAIT)

static void f_test(MPI_Fint *request, MPI_Fint *flag, MPI_Fint *status, MPI_Fint *ierr)
{
    MPI_Request c = PMPI_Request_f2c(*request);
    MPI_Status s;
    int done = 0, rc = MPI_Test(&c, &done, status_in(status, &s));
    set(ierr, rc);
    if (rc == MPI_SUCCESS) {
        *flag = logical(done);
        if (done) {
            *request = PMPI_Request_c2f(c);
            status_out(&s, status);
        }
    }
}
NAMES(test, TEST)

static void f_waitall(MPI_Fint *count, MPI_Fint *requests, MPI_Fint *statuses, MPI_Fint *ierr)
{
    int n = *count;
    MPI_Status *st;
    MPI_Request *c = requests_in(n, requests, &st);
    if (n > 0 && !c) {
        no_memory(ierr);
        return;
    }
    int rc = MPI_Waitall(n, c, n > 0 ? statuses_in(statuses, st) : MPI_STATUSES_IGNORE);
    set(ierr, rc);
    for (int i = 0; i < n && array_done(rc); i++) {
        requests[i] = PMPI_Request_c2f(c[i]);
        statuses_out(st, statuses, i);
    }
    free(c);
}
NAMES(waitall, WAITALL)

static void f_testall(MPI_Fint *count, MPI_Fint *requests, MPI_Fint *flag, MPI_Fint *statuses,
                      MPI_Fint *ierr)
{
    int n = *count, done = 0;
    MPI_Status *st;
    MPI_Request *c = requests_in(n, requests, &st);
    if (n > 0 && !c) {
        no_memory(ierr);
        return;
    }
    int rc = MPI_Testall(n, c, &done, n > 0 ? statuses_in(statuses, st) : MPI_STATUSES_IGNORE);
    set(ierr, rc);
    if (array_done(rc))
        *flag = logical(done);
    for (int i = 0; i < n && array_done(rc) && done; i++) {
        requests[i] = PMPI_Request_c2f(c[i]);
        statuses_out(st, statuses, i);
    }
    free(c);
}
NAMES(testall, TESTALL)

/* Fortran's index of request i (counted from 1), after a call that completed it. */
static void any_out(int rc, const MPI_Request *c, MPI_Fint *requests, int i, MPI_Fint *index)
{
    if (rc != MPI_SUCCESS)
        return;
    if (i != MPI_UNDEFINED) {
        requests[i] = PMPI_Request_c2f(c[i]);
        i++;
    }
    *index = i;
}

static void f_waitany(MPI_Fint *count, MPI_Fint *requests, MPI_Fint *index, MPI_Fint *status,
                      MPI_Fint *ierr)
{
    int n = *count, i = MPI_UNDEFINED;
    MPI_Status *st, s;
    MPI_Request *c = requests_in(n, requests, &st);
    if (n > 0 && !c) {
        no_memory(ierr);
        return;
    }
    int rc = MPI_Waitany(n, c, &i, status_in(status, &s));
    set(ierr, rc);
    any_out(rc, c, requests, i, index);
    if (rc == MPI_SUCCESS)
        status_out(&s, status);
    free(c);
}
NAMES(waitany, WAITANY)

static void f_testany(MPI_Fint *count, MPI_Fint *requests, MPI_Fint *index, MPI_Fint *flag,
                      MPI_Fint *status, MPI_Fint *ierr)
{
    int n = *count, i = MPI_UNDEFINED, done = 0;
    MPI_Status *st, s;
    MPI_Request *c = requests_in(n, requests, &st);
    if (n > 0 && !c) {
        no_memory(ierr);
        return;
    }
    int rc = MPI_Testany(n, c, &i, &done, status_in(status, &s));
    set(ierr, rc);
    any_out(rc, c, requests, i, index);
    if (rc == MPI_SUCCESS) {
        *flag = logical(done);
        if (done)
            status_out(&s, status);
    }
    free(c);
}
NAMES(testany, TESTANY)

/* The requests some call completed, and their Fortran indices (from 1). */
static void some_out(int rc, const MPI_Request *c, MPI_Fint *requests, int out, MPI_Fint *indices,
                     const MPI_Status *st, MPI_Fint *statuses)
{
    for (int k = 0; k < out && out != MPI_UNDEFINED && array_done(rc); k++) {
        int i = indices[k];
        requests[i] = PMPI_Request_c2f(c[i]);
        indices[k] = i + 1;
        statuses_out(st, statuses, k);
    }
}

/* MPI_Waitsome or MPI_Testsome, which have one signature, from Fortran. */
typedef int some_fn(int, MPI_Request *, int *, int *, MPI_Status *);
static void some(some_fn *fn, MPI_Fint *incount, MPI_Fint *requests, MPI_Fint *outcount,
                 MPI_Fint *indices, MPI_Fint *statuses, MPI_Fint *ierr)
{
    int n = *incount, out = MPI_UNDEFINED;
    MPI_Status *st;
    MPI_Request *c = requests_in(n, requests, &st);
    if (n > 0 && !c) {
        no_memory(ierr);
        return;
    }
    int rc = fn(n, c, &out, indices, n > 0 ? statuses_in(statuses, st) : MPI_STATUSES_IGNORE);
    set(ierr, rc);
    if (array_done(rc))
        *outcount = out;
    some_out(rc, c, requests, out, indices, st, statuses);
    free(c);
}

static void f_waitsome(MPI_Fint *incount, MPI_Fint *requests, MPI_Fint *outcount, MPI_Fint *indices,
                       MPI_Fint *statuses, MPI_Fint *ierr)
{
    some(MPI_Waitsome, incount, requests, outcount, indices, statuses, ierr);
}
NAMES(waitsome, WAITSOME)

static void f_testsome(MPI_Fint *incount, MPI_Fint *requests, MPI_Fint *outcount, MPI_Fint *indices,
                       MPI_Fint *statuses, MPI_Fint *ierr)
{
    some(MPI_Testsome, incount, requests, outcount, indices, statuses, ierr);
}
NAMES(testsome, TESTSOME)

static void f_request_free(MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request c = PMPI_Request_f2c(*request);
    int rc = MPI_Request_free(&c);
    set(ierr, rc);
    if (rc == MPI_SUCCESS)
        *request = PMPI_Request_c2f(MPI_REQUEST_NULL);
}
NAMES(request_free, REQUEST_FREE)

static void f_cancel(MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request c = PMPI_Request_f2c(*request);
    set(ierr, MPI_Cancel(&c));
}
NAMES(cancel, CANCEL)

static void f_request_get_status(MPI_Fint *request, MPI_Fint *flag, MPI_Fint *status,
                                 MPI_Fint *ierr)
{
    MPI_Status s;
    int done = 0,
        rc = MPI_Request_get_status(PMPI_Request_f2c(*request), &done, status_in(status, &s));
    set(ierr, rc);
    if (rc == MPI_SUCCESS) {
        *flag = logical(done);
        if (done)
            status_out(&s, status);
    }
}
NAMES(request_get_status, REQUEST_GET_STATUS)

/*
 * A request's Fortran handle, where the C call that made *c succeeded (a
 * pointer: the call, an argument beside it, runs before this reads it).
 */
static void made(int rc, const MPI_Request *c, MPI_Fint *request, MPI_Fint *ierr)
{
    set(ierr, rc);
    if (rc == MPI_SUCCESS)
        *request = PMPI_Request_c2f(*c);
}

static void f_ibcast(void *buffer, MPI_Fint *count, MPI_Fint *datatype, MPI_Fint *root,
                     MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request c;
    made(MPI_Ibcast(buf(buffer, 0), *count, T(datatype), *root, C(comm), &c), &c, request, ierr);
}
NAMES(ibcast, IBCAST)

static void f_ireduce(void *sendbuf, void *recvbuf, MPI_Fint *count, MPI_Fint *datatype,
                      MPI_Fint *op, MPI_Fint *root, MPI_Fint *comm, MPI_Fint *request,
                      MPI_Fint *ierr)
{
    MPI_Request c;
    made(MPI_Ireduce(buf(sendbuf, 1), buf(recvbuf, 0), *count, T(datatype), O(op), *root, C(comm),
                     &c),
         &c, request, ierr);
}
NAMES(ireduce, IREDUCE)

static void f_iallreduce(void *sendbuf, void *recvbuf, MPI_Fint *count, MPI_Fint *datatype,
                         MPI_Fint *op, MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request c;
    made(MPI_Iallreduce(buf(sendbuf, 1), buf(recvbuf, 0), *count, T(datatype), O(op), C(comm), &c),
         &c, request, ierr);
}
NAMES(iallreduce, IALLREDUCE)

static void f_ireduce_scatter(void *sendbuf, void *recvbuf, MPI_Fint *recvcounts,
                              MPI_Fint *datatype, MPI_Fint *op, MPI_Fint *comm, MPI_Fint *request,
                              MPI_Fint *ierr)
{
    MPI_Request c;
    made(MPI_Ireduce_scatter(buf(sendbuf, 1), buf(recvbuf, 0), recvcounts, T(datatype), O(op),
                             C(comm), &c),
         &c, request, ierr);
}
NAMES(ireduce_scatter, IREDUCE_SCATTER)

static void f_ireduce_scatter_block(void *sendbuf, void *recvbuf, MPI_Fint *recvcount,
                                    MPI_Fint *datatype, MPI_Fint *op, MPI_Fint *comm,
                                    MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request c;
    made(MPI_Ireduce_scatter_block(buf(sendbuf, 1), buf(recvbuf, 0), *recvcount, T(datatype), O(op),
                                   C(comm), &c),
         &c, request, ierr);
}
NAMES(ireduce_scatter_block, IREDUCE_SCATTER_BLOCK)

static void f_iallgather(void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf,
                         MPI_Fint *recvcount, MPI_Fint *recvtype, MPI_Fint *comm, MPI_Fint *request,
                         MPI_Fint *ierr)
{
    MPI_Request c;
    made(MPI_Iallgather(buf(sendbuf, 1), *sendcount, T(sendtype), buf(recvbuf, 0), *recvcount,
                        T(recvtype), C(comm), &c),
         &c, request, ierr);
}
NAMES(iallgather, IALLGATHER)

static void f_ialltoall(void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf,
                        MPI_Fint *recvcount, MPI_Fint *recvtype, MPI_Fint *comm, MPI_Fint *request,
                        MPI_Fint *ierr)
{
    MPI_Request c;
    made(MPI_Ialltoall(buf(sendbuf, 1), *sendcount, T(sendtype), buf(recvbuf, 0), *recvcount,
                       T(recvtype), C(comm), &c),
         &c, request, ierr);
}
NAMES(ialltoall, IALLTOALL)

static void f_igather(void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf,
                      MPI_Fint *recvcount, MPI_Fint *recvtype, MPI_Fint *root, MPI_Fint *comm,
                      MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request c;
    made(MPI_Igather(buf(sendbuf, 1), *sendcount, T(sendtype), buf(recvbuf, 0), *recvcount,
                     T(recvtype), *root, C(comm), &c),
         &c, request, ierr);
}
NAMES(igather, IGATHER)

static void f_iscatter(void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf,
                       MPI_Fint *recvcount, MPI_Fint *recvtype, MPI_Fint *root, MPI_Fint *comm,
                       MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request c;
    made(MPI_Iscatter(buf(sendbuf, 0), *sendcount, T(sendtype), buf(recvbuf, 1), *recvcount,
                      T(recvtype), *root, C(comm), &c),
         &c, request, ierr);
}
NAMES(iscatter, ISCATTER)

static void f_ibarrier(MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request c;
    made(MPI_Ibarrier(C(comm), &c), &c, request, ierr);
}
NAMES(ibarrier, IBARRIER)

static void f_iallgatherv(void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf,
                          MPI_Fint *recvcounts, MPI_Fint *displs, MPI_Fint *recvtype,
                          MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request c;
    made(MPI_Iallgatherv(buf(sendbuf, 1), *sendcount, T(sendtype), buf(recvbuf, 0), recvcounts,
                         displs, T(recvtype), C(comm), &c),
         &c, request, ierr);
}
NAMES(iallgatherv, IALLGATHERV)

static void f_ialltoallv(void *sendbuf, MPI_Fint *sendcounts, MPI_Fint *sdispls, MPI_Fint *sendtype,
                         void *recvbuf, MPI_Fint *recvcounts, MPI_Fint *rdispls, MPI_Fint *recvtype,
                         MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request c;
    made(MPI_Ialltoallv(buf(sendbuf, 1), sendcounts, sdispls, T(sendtype), buf(recvbuf, 0),
                        recvcounts, rdispls, T(recvtype), C(comm), &c),
         &c, request, ierr);
}
NAMES(ialltoallv, IALLTOALLV)

/* Open MPI's own Fortran MPI_Ialltoallw (ompi_ialltoallw_f). */
typedef void ialltoallw_fn(void *, MPI_Fint *, MPI_Fint *, MPI_Fint *, void *, MPI_Fint *,
                           MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *);

/*
 * The datatype arrays made here must live as long as a request that reads
 * them.  vine's requests copy them at the start (their plan, or the tables
 * they hand the MPI library), so they are freed on return; a call that
 * goes to MPI (pass_comm's cases) goes to Open MPI's own function instead,
 * which releases its arrays when the request completes.
 */
static void f_ialltoallw(void *sendbuf, MPI_Fint *sendcounts, MPI_Fint *sdispls,
                         MPI_Fint *sendtypes, void *recvbuf, MPI_Fint *recvcounts,
                         MPI_Fint *rdispls, MPI_Fint *recvtypes, MPI_Fint *comm, MPI_Fint *request,
                         MPI_Fint *ierr)
{
    MPI_Comm c = C(comm);
    if (vine_pmpi__passes(c, VINE_COLL_ALLTOALLW)) {
        ialltoallw_fn *own;
        *(void **)&own = dlsym(RTLD_NEXT, "ompi_ialltoallw_f");
        if (own) {
            own(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
                comm, request, ierr);
            return;
        }
        set(ierr, MPI_ERR_INTERN);
        PMPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_INTERN);
        return;
    }
    int n = 0, rc = MPI_SUCCESS;
    if (PMPI_Comm_size(c, &n) != MPI_SUCCESS)
        n = 0;
    void *s = buf(sendbuf, 1);
    MPI_Datatype *st = s == MPI_IN_PLACE ? NULL : types(sendtypes, n, &rc);
    MPI_Datatype *rt = types(recvtypes, n, &rc);
    MPI_Request r = MPI_REQUEST_NULL;
    if (rc == MPI_SUCCESS)
        rc = MPI_Ialltoallw(s, sendcounts, sdispls, st, buf(recvbuf, 0), recvcounts, rdispls, rt, c,
                            &r);
    else
        PMPI_Comm_call_errhandler(c, rc);
    free(st);
    free(rt);
    made(rc, &r, request, ierr);
}
NAMES(ialltoallw, IALLTOALLW)

static void f_igatherv(void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf,
                       MPI_Fint *recvcounts, MPI_Fint *displs, MPI_Fint *recvtype, MPI_Fint *root,
                       MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request c;
    made(MPI_Igatherv(buf(sendbuf, 1), *sendcount, T(sendtype), buf(recvbuf, 0), recvcounts, displs,
                      T(recvtype), *root, C(comm), &c),
         &c, request, ierr);
}
NAMES(igatherv, IGATHERV)

static void f_iscatterv(void *sendbuf, MPI_Fint *sendcounts, MPI_Fint *displs, MPI_Fint *sendtype,
                        void *recvbuf, MPI_Fint *recvcount, MPI_Fint *recvtype, MPI_Fint *root,
                        MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request c;
    made(MPI_Iscatterv(buf(sendbuf, 0), sendcounts, displs, T(sendtype), buf(recvbuf, 1),
                       *recvcount, T(recvtype), *root, C(comm), &c),
         &c, request, ierr);
}
NAMES(iscatterv, ISCATTERV)

static void f_iscan(void *sendbuf, void *recvbuf, MPI_Fint *count, MPI_Fint *datatype, MPI_Fint *op,
                    MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request c;
    made(MPI_Iscan(buf(sendbuf, 1), buf(recvbuf, 0), *count, T(datatype), O(op), C(comm), &c), &c,
         request, ierr);
}
NAMES(iscan, ISCAN)

static void f_iexscan(void *sendbuf, void *recvbuf, MPI_Fint *count, MPI_Fint *datatype,
                      MPI_Fint *op, MPI_Fint *comm, MPI_Fint *request, MPI_Fint *ierr)
{
    MPI_Request c;
    made(MPI_Iexscan(buf(sendbuf, 1), buf(recvbuf, 0), *count, T(datatype), O(op), C(comm), &c), &c,
         request, ierr);
}
NAMES(iexscan, IEXSCAN)

/* ---- Blocking point-to-point: pmpi.c advances vine's requests in them ---- */

static void f_send(void *b, MPI_Fint *count, MPI_Fint *datatype, MPI_Fint *dest, MPI_Fint *tag,
                   MPI_Fint *comm, MPI_Fint *ierr)
{
    set(ierr, MPI_Send(buf(b, 0), *count, T(datatype), *dest, *tag, C(comm)));
}
NAMES(send, SEND)

static void f_ssend(void *b, MPI_Fint *count, MPI_Fint *datatype, MPI_Fint *dest, MPI_Fint *tag,
                    MPI_Fint *comm, MPI_Fint *ierr)
{
    set(ierr, MPI_Ssend(buf(b, 0), *count, T(datatype), *dest, *tag, C(comm)));
}
NAMES(ssend, SSEND)

static void f_rsend(void *b, MPI_Fint *count, MPI_Fint *datatype, MPI_Fint *dest, MPI_Fint *tag,
                    MPI_Fint *comm, MPI_Fint *ierr)
{
    set(ierr, MPI_Rsend(buf(b, 0), *count, T(datatype), *dest, *tag, C(comm)));
}
NAMES(rsend, RSEND)

static void f_recv(void *b, MPI_Fint *count, MPI_Fint *datatype, MPI_Fint *source, MPI_Fint *tag,
                   MPI_Fint *comm, MPI_Fint *status, MPI_Fint *ierr)
{
    MPI_Status s;
    int rc =
        MPI_Recv(buf(b, 0), *count, T(datatype), *source, *tag, C(comm), status_in(status, &s));
    set(ierr, rc);
    if (rc == MPI_SUCCESS)
        status_out(&s, status);
}
NAMES(recv, RECV)

static void f_sendrecv(void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, MPI_Fint *dest,
                       MPI_Fint *sendtag, void *recvbuf, MPI_Fint *recvcount, MPI_Fint *recvtype,
                       MPI_Fint *source, MPI_Fint *recvtag, MPI_Fint *comm, MPI_Fint *status,
                       MPI_Fint *ierr)
{
    MPI_Status s;
    int rc =
        MPI_Sendrecv(buf(sendbuf, 0), *sendcount, T(sendtype), *dest, *sendtag, buf(recvbuf, 0),
                     *recvcount, T(recvtype), *source, *recvtag, C(comm), status_in(status, &s));
    set(ierr, rc);
    if (rc == MPI_SUCCESS)
        status_out(&s, status);
}
NAMES(sendrecv, SENDRECV)

static void f_sendrecv_replace(void *b, MPI_Fint *count, MPI_Fint *datatype, MPI_Fint *dest,
                               MPI_Fint *sendtag, MPI_Fint *source, MPI_Fint *recvtag,
                               MPI_Fint *comm, MPI_Fint *status, MPI_Fint *ierr)
{
    MPI_Status s;
    int rc = MPI_Sendrecv_replace(buf(b, 0), *count, T(datatype), *dest, *sendtag, *source,
                                  *recvtag, C(comm), status_in(status, &s));
    set(ierr, rc);
    if (rc == MPI_SUCCESS)
        status_out(&s, status);
}
NAMES(sendrecv_replace, SENDRECV_REPLACE)

static void f_probe(MPI_Fint *source, MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *status,
                    MPI_Fint *ierr)
{
    MPI_Status s;
    int rc = MPI_Probe(*source, *tag, C(comm), status_in(status, &s));
    set(ierr, rc);
    if (rc == MPI_SUCCESS)
        status_out(&s, status);
}
NAMES(probe, PROBE)

static void f_mprobe(MPI_Fint *source, MPI_Fint *tag, MPI_Fint *comm, MPI_Fint *message,
                     MPI_Fint *status, MPI_Fint *ierr)
{
    MPI_Status s;
    MPI_Message m;
    int rc = MPI_Mprobe(*source, *tag, C(comm), &m, status_in(status, &s));
    set(ierr, rc);
    if (rc == MPI_SUCCESS) {
        *message = PMPI_Message_c2f(m);
        status_out(&s, status);
    }
}
NAMES(mprobe, MPROBE)

static void f_mrecv(void *b, MPI_Fint *count, MPI_Fint *datatype, MPI_Fint *message,
                    MPI_Fint *status, MPI_Fint *ierr)
{
    MPI_Status s;
    MPI_Message m = PMPI_Message_f2c(*message);
    int rc = MPI_Mrecv(buf(b, 0), *count, T(datatype), &m, status_in(status, &s));
    set(ierr, rc);
    if (rc == MPI_SUCCESS) {
        *message = PMPI_Message_c2f(m);
        status_out(&s, status);
    }
}
NAMES(mrecv, MRECV)

/* ---- The ends that pmpi.c watches for calls made from delete callbacks ---- */

static void f_comm_free(MPI_Fint *comm, MPI_Fint *ierr)
{
    MPI_Comm c = C(comm);
    int rc = MPI_Comm_free(&c);
    set(ierr, rc);
    if (rc == MPI_SUCCESS)
        *comm = PMPI_Comm_c2f(c);
}
NAMES(comm_free, COMM_FREE)

static void f_comm_disconnect(MPI_Fint *comm, MPI_Fint *ierr)
{
    MPI_Comm c = C(comm);
    int rc = MPI_Comm_disconnect(&c);
    set(ierr, rc);
    if (rc == MPI_SUCCESS)
        *comm = PMPI_Comm_c2f(c);
}
NAMES(comm_disconnect, COMM_DISCONNECT)

static void f_finalize(MPI_Fint *ierr)
{
    set(ierr, MPI_Finalize());
}
NAMES(finalize, FINALIZE)

#else
/* MPICH's Fortran bindings call MPI_ names: nothing to define. */
typedef int vine_fortran_nothing;
#endif
