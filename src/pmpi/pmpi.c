/*
 * libvine-mpi: vine under the names of MPI's collectives, through the MPI
 * profiling interface (MPI-3.1, chapter 14.2).  An unmodified MPI program
 * that loads this library before the MPI library (LD_PRELOAD, or linked with
 * -lvine-mpi ahead of it) has its MPI_Bcast, MPI_Reduce, MPI_Allreduce,
 * MPI_Reduce_scatter, MPI_Reduce_scatter_block, MPI_Allgather,
 * MPI_Alltoall, MPI_Gather, MPI_Scatter, MPI_Barrier, MPI_Allgatherv,
 * MPI_Alltoallv, MPI_Alltoallw, MPI_Gatherv, MPI_Scatterv, MPI_Scan and
 * MPI_Exscan served by the vine_<coll>() of the same arguments; MPI's own
 * collective stays reachable as PMPI_<Coll>.  Likewise the nonblocking
 * MPI_I<coll> of all seventeen (vine_i<coll>), and where MPI's header is
 * MPI 4 the _c forms of both and the persistent MPI_<Coll>_init and
 * MPI_<Coll>_init_c (vine_<coll>_init[_c]).  vine's requests advance only
 * inside vine's functions, so this library also defines MPI's completion
 * calls (MPI_Wait, MPI_Test, their all/any/some forms, MPI_Start,
 * MPI_Startall, MPI_Request_free, MPI_Cancel, MPI_Request_get_status),
 * which hand every other request to PMPI_, and MPI_Op_free, which leaves
 * an op that vine's requests still use to them (vine_op_free).  While one
 * of vine's requests runs on the rank, its blocking sends, receives and
 * probes (MPI_Send, MPI_Ssend, MPI_Rsend, MPI_Recv, MPI_Sendrecv,
 * MPI_Sendrecv_replace, MPI_Probe, MPI_Mprobe, MPI_Mrecv) wait through
 * vine, which advances those
 * requests meanwhile (where the header is MPI 4, their _c forms too).  It
 * counts the program's RMA windows (MPI_Win_create
 * and its kin, MPI_Win_free) for vine_shm_sync_progress.
 *
 * What vine does not handle goes to PMPI_<Coll> unchanged:
 * - intercommunicators (vine serves intracommunicators only);
 * - calls made while MPI_Comm_free (or MPI_Comm_disconnect) of their
 *   communicator runs, from the delete callback of one of its attributes,
 *   and calls made while MPI_Finalize runs (from callbacks on
 *   MPI_COMM_SELF): vine's state of the communicator may be gone already,
 *   and a new one could not be hung on a communicator in the middle of its
 *   end (this library wraps the three to know);
 * - nonblocking and persistent calls from Fortran bindings that complete
 *   requests through PMPI_ names (MPICH's mpi_f08: from_f08 below);
 * - MPI_COMM_NULL, so that MPI reports the error exactly as its own;
 * - a reduction whose predefined op vine refuses with MPI_ERR_OP because
 *   the standard's table (MPI 4.0, 6.9.2) or MPI_Reduce_local refuses it on
 *   the datatype (Open MPI 4.1 and MPICH 4.0 refuse every predefined op on a
 *   derived datatype).  vine checks its
 *   arguments before any message (include/vine.h), and op and datatype are
 *   the same on every rank, so every rank makes the same decision before
 *   anything was sent, and MPI's collective starts from a clean state.
 * Every other error vine returns goes through the communicator's error
 * handler, as an error of MPI's collective would: the default handler
 * aborts, MPI_ERRORS_RETURN returns the error class.
 *
 * Under VINE_VERBOSE vine prints which algorithm served each collective;
 * this library prints, once per collective and communicator, the line of a
 * call passed to MPI.  Cost per call: one PMPI_Comm_test_inter on top of
 * vine's own, and for a nonblocking or persistent start a look-up of its
 * return address in a short table; nothing else unless VINE_VERBOSE is
 * set.  A completion call in a program that never started one of vine's
 * requests costs vine's test of a count on top of MPI's own function.
 *
 * Only MPI functions are called here, through their PMPI names (and the
 * dynamic linker's, for from_f08; and libvine's vine__say_comm_name, for
 * VINE_VERBOSE's name of a communicator), so that a second profiling tool
 * layered on top sees the application's calls only.  fortran.c, beside this file,
 * defines Open MPI's Fortran entry points.
 */
#define _GNU_SOURCE /* dladdr1 */
#include "vine.h"

#include <dlfcn.h>
#include <link.h>
#include <mpi.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Why a reduction goes to MPI: printed under VINE_VERBOSE. */
#define WHY_INTER "intercommunicator"
#define WHY_OP "this predefined op does not apply to this datatype"
#define WHY_FREEING "called while MPI_Comm_free of it runs"
#define WHY_FINALIZE "called while MPI_Finalize runs"
#define WHY_F08 "called from Fortran bindings that complete requests through PMPI_"

/* ---- VINE_VERBOSE ---- */

/* VINE_VERBOSE set to anything but empty or "0", as vine reads it. */
static int verbose(void)
{
    static atomic_int value = -1; /* threads that race to read it store the same answer */
    int on = atomic_load_explicit(&value, memory_order_relaxed);
    if (on < 0) {
        const char *v = getenv("VINE_VERBOSE");
        on = v && *v && strcmp(v, "0") != 0;
        atomic_store_explicit(&value, on, memory_order_relaxed);
    }
    return on;
}

/*
 * What has been said about a communicator lives in an attribute on it, so
 * that it goes when the communicator is freed (a later communicator may
 * reuse the handle) and is not copied by MPI_Comm_dup.  The attribute value
 * is an integer, not a pointer to memory: the bits of the collectives
 * already reported.  A communicator without a name is named by libvine
 * (vine__say_comm_name), so that its "communicator #N" is the same in the
 * lines of both libraries.  The keyval is made once (a thread that loses
 * the race frees its own): calls on different communicators may come from
 * several threads (MPI_THREAD_MULTIPLE).
 */
void vine__say_comm_name(MPI_Comm comm, char *name, int size);
static atomic_int said_keyval = MPI_KEYVAL_INVALID;

/* The keyval, made on first use; MPI_KEYVAL_INVALID when MPI refuses one. */
static int said_key(void)
{
    int k = atomic_load(&said_keyval), mine = MPI_KEYVAL_INVALID, none = MPI_KEYVAL_INVALID;
    if (k != MPI_KEYVAL_INVALID)
        return k;
    if (PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &mine, NULL) !=
        MPI_SUCCESS)
        return MPI_KEYVAL_INVALID;
    if (atomic_compare_exchange_strong(&said_keyval, &none, mine))
        return mine;
    PMPI_Comm_free_keyval(&mine);
    return none; /* the winner's */
}

/*
 * Whether MPI_COMM_WORLD exists: MPI_Init done and MPI_Finalize not.  A
 * program of the MPI 4 sessions model alone has none (nor MPI_COMM_SELF),
 * and MPI aborts on any use of it.
 */
static int world_up(void)
{
    int up = 0, down = 1;
    return PMPI_Initialized(&up) == MPI_SUCCESS && up && PMPI_Finalized(&down) == MPI_SUCCESS &&
           !down;
}

/*
 * Whether this process prints for an intercommunicator: rank 0 of the group
 * whose rank 0 comes first in MPI_COMM_WORLD, so that one line stands for
 * both groups.  When either rank 0 is outside MPI_COMM_WORLD (dynamic
 * processes, or no MPI_COMM_WORLD under the sessions model) each group's
 * rank 0 speaks.
 */
static int inter_speaker(MPI_Comm comm)
{
    MPI_Group local, remote, world;
    int zero = 0, lw = MPI_UNDEFINED, rw = MPI_UNDEFINED;
    if (PMPI_Comm_group(comm, &local) != MPI_SUCCESS)
        return 1;
    if (PMPI_Comm_remote_group(comm, &remote) == MPI_SUCCESS) {
        if (world_up() && PMPI_Comm_group(MPI_COMM_WORLD, &world) == MPI_SUCCESS) {
            PMPI_Group_translate_ranks(local, 1, &zero, world, &lw);
            PMPI_Group_translate_ranks(remote, 1, &zero, world, &rw);
            PMPI_Group_free(&world);
        }
        PMPI_Group_free(&remote);
    }
    PMPI_Group_free(&local);
    return lw == MPI_UNDEFINED || rw == MPI_UNDEFINED || lw < rw;
}

/*
 * Prints, once per collective and communicator, that a call of coll on comm
 * goes to MPI and why.  p is the communicator's size; for an
 * intercommunicator, both groups together.
 */
static void say_passed(MPI_Comm comm, vine_coll coll, int inter, const char *why)
{
    if (!verbose())
        return;
    int key = said_key();
    if (key == MPI_KEYVAL_INVALID)
        return;
    void *v = NULL;
    int flag = 0;
    uintptr_t said = 0, bit = (uintptr_t)1 << coll;
    if (PMPI_Comm_get_attr(comm, key, &v, &flag) == MPI_SUCCESS && flag)
        said = (uintptr_t)v;
    if (said & bit)
        return;
    said |= bit;

    int rank = -1, p = 0, remote = 0;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &p);
    if (inter && PMPI_Comm_remote_size(comm, &remote) == MPI_SUCCESS)
        p += remote;
    if (rank == 0 && (!inter || inter_speaker(comm))) {
        char name[MPI_MAX_OBJECT_NAME + 32];
        vine__say_comm_name(comm, name, (int)sizeof name);
        fprintf(stderr, "vine: %s on %s (p=%d) passed to MPI (%s)\n", vine_coll_name(coll), name, p,
                why);
    }
    PMPI_Comm_set_attr(comm, key, (void *)said);
}

/* ---- What goes to MPI ---- */

/*
 * The communicators whose MPI_Comm_free or MPI_Comm_disconnect this thread
 * is inside, innermost last (a delete callback may free another one), and
 * whether MPI_Finalize runs.  The callbacks run in the thread that frees.
 */
#define FREEING_MAX 16
static _Thread_local MPI_Comm freeing[FREEING_MAX];
static _Thread_local int nfreeing;
static atomic_int finalizing;

/* Why a call on comm goes to MPI because comm or MPI is ending; NULL if not. */
static const char *ending(MPI_Comm comm)
{
    if (atomic_load_explicit(&finalizing, memory_order_relaxed))
        return WHY_FINALIZE;
    for (int i = 0; i < nfreeing && i < FREEING_MAX; i++)
        if (freeing[i] == comm)
            return WHY_FREEING;
    return NULL;
}

/*
 * The line of a call passed to MPI on an ending communicator, printed every
 * time: say_passed would hang its record on the communicator.
 */
static void say_ending(MPI_Comm comm, vine_coll coll, const char *why)
{
    int rank = -1, p = 0;
    if (!verbose() || PMPI_Comm_rank(comm, &rank) != MPI_SUCCESS || rank != 0)
        return;
    PMPI_Comm_size(comm, &p);
    fprintf(stderr, "vine: %s on a communicator (p=%d) passed to MPI (%s)\n", vine_coll_name(coll),
            p, why);
}

/*
 * Whether a call of coll on comm goes to MPI's collective for its
 * communicator: MPI_COMM_NULL, a handle MPI rejects (MPI has reported that
 * through its error handler already, and its collective reports it again as
 * its own), an ending communicator and intercommunicators.
 */
static int pass_comm(MPI_Comm comm, vine_coll coll)
{
    int inter = 0;
    if (comm == MPI_COMM_NULL || PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS)
        return 1;
    const char *why = ending(comm);
    if (why) {
        say_ending(comm, coll, why);
        return 1;
    }
    if (inter)
        say_passed(comm, coll, 1, WHY_INTER);
    return inter;
}

/*
 * For fortran.c (not exported): whether a call of coll on comm goes to MPI
 * by pass_comm's rules, said as pass_comm says it.
 */
__attribute__((visibility("hidden"))) int vine_pmpi__passes(MPI_Comm comm, vine_coll coll);
int vine_pmpi__passes(MPI_Comm comm, vine_coll coll)
{
    return pass_comm(comm, coll);
}

/*
 * Calls from Fortran bindings whose completion calls bypass this library.
 * MPICH's mpi_f08 bindings (libmpichfort, MPICH 4.0) hand a choice buffer to
 * the C function of MPI's name, so that MPI_Iallreduce reaches vine, but
 * wait, test, start and free requests through PMPI_Wait, PMPI_Start ...:
 * a request of vine's made from there would never complete (PMPI_Wait
 * waits for ever, PMPI_Start refuses it).  The nonblocking and persistent
 * calls made from such code go to MPI.  The code is known by the call's
 * return address: it lies in the shared object that defines mpi_wait_f08_
 * (the mpi_f08 MPI_Wait), and not inside one of that object's exported
 * functions whose names lack "f08": those are the wrappers of "use mpi" and
 * mpif.h (mpi_iallreduce_ ...), whose completion calls do reach this
 * library (mpi_wait_ calls MPI_Wait).  Open MPI 4.1's Fortran bindings call
 * PMPI_ names only; fortran.c defines their entry points, completion calls
 * included, and calls these functions from its own code.  Each return
 * address's verdict is kept: a program has few call sites.
 */
#define CALLER __builtin_return_address(0)
#define SITES_MAX 256
static const void *site_at[SITES_MAX];
static unsigned char site_f08[SITES_MAX];
static atomic_int nsites; /* entries below it are written (release) */
static pthread_mutex_t sites_lock = PTHREAD_MUTEX_INITIALIZER;

/* Whether the code at address at is such a binding's. */
static int f08_code(const void *at)
{
    Dl_info in, def;
    const ElfW(Sym) *sym = NULL;
    if (!at || !dladdr1(at, &in, (void **)&sym, RTLD_DL_SYMENT) || !in.dli_fname ||
        !in.dli_fname[0])
        return 0;
    void *h = dlopen(in.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
    if (!h)
        return 0;
    void *wait = dlsym(h, "mpi_wait_f08_");
    int same = wait && dladdr(wait, &def) && def.dli_fbase == in.dli_fbase;
    dlclose(h);
    if (!same)
        return 0;
    int inside = in.dli_sname && sym && (const char *)at >= (const char *)in.dli_saddr &&
                 (const char *)at < (const char *)in.dli_saddr + sym->st_size;
    return !inside || strstr(in.dli_sname, "f08") != NULL;
}

static int from_f08(const void *at)
{
    int n = atomic_load_explicit(&nsites, memory_order_acquire);
    for (int i = 0; i < n; i++)
        if (site_at[i] == at)
            return site_f08[i];
    int f08 = f08_code(at);
    pthread_mutex_lock(&sites_lock);
    n = atomic_load_explicit(&nsites, memory_order_relaxed);
    if (n < SITES_MAX) {
        site_at[n] = at;
        site_f08[n] = (unsigned char)f08;
        atomic_store_explicit(&nsites, n + 1, memory_order_release);
    }
    pthread_mutex_unlock(&sites_lock);
    return f08;
}

/*
 * Whether the start of a nonblocking or persistent call of coll on comm,
 * made from caller, goes to MPI: pass_comm's cases, and calls from Fortran
 * bindings that complete requests without this library.
 */
static int pass_start(MPI_Comm comm, const void *caller, vine_coll coll)
{
    if (pass_comm(comm, coll))
        return 1;
    if (!from_f08(caller))
        return 0;
    say_passed(comm, coll, 0, WHY_F08);
    return 1;
}

/* The predefined reduction ops, the ones whose datatypes vine checks. */
static int is_predefined_op(MPI_Op op)
{
    return op == MPI_SUM || op == MPI_PROD || op == MPI_MAX || op == MPI_MIN || op == MPI_LAND ||
           op == MPI_LOR || op == MPI_LXOR || op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR ||
           op == MPI_MAXLOC || op == MPI_MINLOC;
}

/*
 * Whether a reduction that vine answered with rc goes to MPI instead: vine
 * refused a predefined op (MPI_ERR_OP), which it does only when the op does
 * not apply to the datatype (call.c), before any message.
 */
static int pass_op(int rc, MPI_Op op, MPI_Comm comm, vine_coll coll)
{
    if (rc != MPI_ERR_OP || !is_predefined_op(op))
        return 0;
    say_passed(comm, coll, 0, WHY_OP);
    return 1;
}

/* vine's answer, an error going through comm's error handler as MPI's would. */
static int report(MPI_Comm comm, int rc)
{
    if (rc != MPI_SUCCESS)
        PMPI_Comm_call_errhandler(comm, rc);
    return rc;
}

/*
 * The start of a nonblocking or persistent call that vine served: the
 * completion calls look for vine's requests only once there may be some.
 */
/* Set once; relaxed is enough: a thread that completes a request saw it made. */
static atomic_int made;

static int made_request(MPI_Comm comm, int rc)
{
    if (rc == MPI_SUCCESS && !atomic_load_explicit(&made, memory_order_relaxed))
        atomic_store_explicit(&made, 1, memory_order_relaxed);
    return report(comm, rc);
}

/* ---- The collectives ---- */

int MPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    if (pass_comm(comm, VINE_COLL_BCAST))
        return PMPI_Bcast(buffer, count, datatype, root, comm);
    return report(comm, vine_bcast(buffer, count, datatype, root, comm));
}

int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               int root, MPI_Comm comm)
{
    if (pass_comm(comm, VINE_COLL_REDUCE))
        return PMPI_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm);
    int rc = vine_reduce(sendbuf, recvbuf, count, datatype, op, root, comm);
    if (pass_op(rc, op, comm, VINE_COLL_REDUCE))
        return PMPI_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm);
    return report(comm, rc);
}

int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                  MPI_Comm comm)
{
    if (pass_comm(comm, VINE_COLL_ALLREDUCE))
        return PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm);
    int rc = vine_allreduce(sendbuf, recvbuf, count, datatype, op, comm);
    if (pass_op(rc, op, comm, VINE_COLL_ALLREDUCE))
        return PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm);
    return report(comm, rc);
}

int MPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    if (pass_comm(comm, VINE_COLL_REDUCE_SCATTER))
        return PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm);
    int rc = vine_reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm);
    if (pass_op(rc, op, comm, VINE_COLL_REDUCE_SCATTER))
        return PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm);
    return report(comm, rc);
}

int MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    if (pass_comm(comm, VINE_COLL_REDUCE_SCATTER_BLOCK))
        return PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm);
    int rc = vine_reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm);
    if (pass_op(rc, op, comm, VINE_COLL_REDUCE_SCATTER_BLOCK))
        return PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm);
    return report(comm, rc);
}

int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    if (pass_comm(comm, VINE_COLL_ALLGATHER))
        return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    return report(comm,
                  vine_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm));
}

int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    if (pass_comm(comm, VINE_COLL_ALLTOALL))
        return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    return report(comm,
                  vine_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm));
}

int MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
               int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    if (pass_comm(comm, VINE_COLL_GATHER))
        return PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
    return report(
        comm, vine_gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm));
}

int MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    if (pass_comm(comm, VINE_COLL_SCATTER))
        return PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
    return report(
        comm, vine_scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm));
}

int MPI_Barrier(MPI_Comm comm)
{
    if (pass_comm(comm, VINE_COLL_BARRIER))
        return PMPI_Barrier(comm);
    return report(comm, vine_barrier(comm));
}

int MPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
    if (pass_comm(comm, VINE_COLL_ALLGATHERV))
        return PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                               comm);
    return report(comm, vine_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                        recvtype, comm));
}

int MPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                  MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
                  MPI_Datatype recvtype, MPI_Comm comm)
{
    if (pass_comm(comm, VINE_COLL_ALLTOALLV))
        return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                              recvtype, comm);
    return report(comm, vine_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                       rdispls, recvtype, comm));
}

int MPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                  const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                  const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    if (pass_comm(comm, VINE_COLL_ALLTOALLW))
        return PMPI_Alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                              recvtypes, comm);
    return report(comm, vine_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                                       rdispls, recvtypes, comm));
}

int MPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                MPI_Comm comm)
{
    if (pass_comm(comm, VINE_COLL_GATHERV))
        return PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                            root, comm);
    return report(comm, vine_gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                     recvtype, root, comm));
}

int MPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                 MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                 int root, MPI_Comm comm)
{
    if (pass_comm(comm, VINE_COLL_SCATTERV))
        return PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype,
                             root, comm);
    return report(comm, vine_scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                                      recvtype, root, comm));
}

int MPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
             MPI_Comm comm)
{
    if (pass_comm(comm, VINE_COLL_SCAN))
        return PMPI_Scan(sendbuf, recvbuf, count, datatype, op, comm);
    int rc = vine_scan(sendbuf, recvbuf, count, datatype, op, comm);
    if (pass_op(rc, op, comm, VINE_COLL_SCAN))
        return PMPI_Scan(sendbuf, recvbuf, count, datatype, op, comm);
    return report(comm, rc);
}

int MPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               MPI_Comm comm)
{
    if (pass_comm(comm, VINE_COLL_EXSCAN))
        return PMPI_Exscan(sendbuf, recvbuf, count, datatype, op, comm);
    int rc = vine_exscan(sendbuf, recvbuf, count, datatype, op, comm);
    if (pass_op(rc, op, comm, VINE_COLL_EXSCAN))
        return PMPI_Exscan(sendbuf, recvbuf, count, datatype, op, comm);
    return report(comm, rc);
}

#if MPI_VERSION >= 4
/* MPI-4's large-count forms (MPICH 4.0's header; Open MPI 4.1's says MPI 3). */

int MPI_Bcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    if (pass_comm(comm, VINE_COLL_BCAST))
        return PMPI_Bcast_c(buffer, count, datatype, root, comm);
    return report(comm, vine_bcast_c(buffer, count, datatype, root, comm));
}

int MPI_Reduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                 MPI_Op op, int root, MPI_Comm comm)
{
    if (pass_comm(comm, VINE_COLL_REDUCE))
        return PMPI_Reduce_c(sendbuf, recvbuf, count, datatype, op, root, comm);
    int rc = vine_reduce_c(sendbuf, recvbuf, count, datatype, op, root, comm);
    if (pass_op(rc, op, comm, VINE_COLL_REDUCE))
        return PMPI_Reduce_c(sendbuf, recvbuf, count, datatype, op, root, comm);
    return report(comm, rc);
}

int MPI_Allreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                    MPI_Op op, MPI_Comm comm)
{
    if (pass_comm(comm, VINE_COLL_ALLREDUCE))
        return PMPI_Allreduce_c(sendbuf, recvbuf, count, datatype, op, comm);
    int rc = vine_allreduce_c(sendbuf, recvbuf, count, datatype, op, comm);
    if (pass_op(rc, op, comm, VINE_COLL_ALLREDUCE))
        return PMPI_Allreduce_c(sendbuf, recvbuf, count, datatype, op, comm);
    return report(comm, rc);
}

int MPI_Reduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    if (pass_comm(comm, VINE_COLL_REDUCE_SCATTER))
        return PMPI_Reduce_scatter_c(sendbuf, recvbuf, recvcounts, datatype, op, comm);
    int rc = vine_reduce_scatter_c(sendbuf, recvbuf, recvcounts, datatype, op, comm);
    if (pass_op(rc, op, comm, VINE_COLL_REDUCE_SCATTER))
        return PMPI_Reduce_scatter_c(sendbuf, recvbuf, recvcounts, datatype, op, comm);
    return report(comm, rc);
}

int MPI_Reduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    if (pass_comm(comm, VINE_COLL_REDUCE_SCATTER_BLOCK))
        return PMPI_Reduce_scatter_block_c(sendbuf, recvbuf, recvcount, datatype, op, comm);
    int rc = vine_reduce_scatter_block_c(sendbuf, recvbuf, recvcount, datatype, op, comm);
    if (pass_op(rc, op, comm, VINE_COLL_REDUCE_SCATTER_BLOCK))
        return PMPI_Reduce_scatter_block_c(sendbuf, recvbuf, recvcount, datatype, op, comm);
    return report(comm, rc);
}

int MPI_Allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                    MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    if (pass_comm(comm, VINE_COLL_ALLGATHER))
        return PMPI_Allgather_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    return report(
        comm, vine_allgather_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm));
}

int MPI_Alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                   MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    if (pass_comm(comm, VINE_COLL_ALLTOALL))
        return PMPI_Alltoall_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    return report(
        comm, vine_alltoall_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm));
}

int MPI_Gather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                 MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    if (pass_comm(comm, VINE_COLL_GATHER))
        return PMPI_Gather_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                             comm);
    return report(comm, vine_gather_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                      root, comm));
}

int MPI_Scatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                  MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    if (pass_comm(comm, VINE_COLL_SCATTER))
        return PMPI_Scatter_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                              comm);
    return report(comm, vine_scatter_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                       root, comm));
}
int MPI_Allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                     const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                     MPI_Comm comm)
{
    if (pass_comm(comm, VINE_COLL_ALLGATHERV))
        return PMPI_Allgatherv_c(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                 recvtype, comm);
    return report(comm, vine_allgatherv_c(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                          recvtype, comm));
}

int MPI_Alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                    MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                    const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    if (pass_comm(comm, VINE_COLL_ALLTOALLV))
        return PMPI_Alltoallv_c(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                rdispls, recvtype, comm);
    return report(comm, vine_alltoallv_c(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                         recvcounts, rdispls, recvtype, comm));
}

int MPI_Alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                    const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                    const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    if (pass_comm(comm, VINE_COLL_ALLTOALLW))
        return PMPI_Alltoallw_c(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                                rdispls, recvtypes, comm);
    return report(comm, vine_alltoallw_c(sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                                         recvcounts, rdispls, recvtypes, comm));
}

int MPI_Gatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                  const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                  int root, MPI_Comm comm)
{
    if (pass_comm(comm, VINE_COLL_GATHERV))
        return PMPI_Gatherv_c(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                              root, comm);
    return report(comm, vine_gatherv_c(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                       recvtype, root, comm));
}

int MPI_Scatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                   MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                   int root, MPI_Comm comm)
{
    if (pass_comm(comm, VINE_COLL_SCATTERV))
        return PMPI_Scatterv_c(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype,
                               root, comm);
    return report(comm, vine_scatterv_c(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                                        recvtype, root, comm));
}

int MPI_Scan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
               MPI_Op op, MPI_Comm comm)
{
    if (pass_comm(comm, VINE_COLL_SCAN))
        return PMPI_Scan_c(sendbuf, recvbuf, count, datatype, op, comm);
    int rc = vine_scan_c(sendbuf, recvbuf, count, datatype, op, comm);
    if (pass_op(rc, op, comm, VINE_COLL_SCAN))
        return PMPI_Scan_c(sendbuf, recvbuf, count, datatype, op, comm);
    return report(comm, rc);
}

int MPI_Exscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                 MPI_Op op, MPI_Comm comm)
{
    if (pass_comm(comm, VINE_COLL_EXSCAN))
        return PMPI_Exscan_c(sendbuf, recvbuf, count, datatype, op, comm);
    int rc = vine_exscan_c(sendbuf, recvbuf, count, datatype, op, comm);
    if (pass_op(rc, op, comm, VINE_COLL_EXSCAN))
        return PMPI_Exscan_c(sendbuf, recvbuf, count, datatype, op, comm);
    return report(comm, rc);
}
#endif

/* ---- Nonblocking collectives ---- */

/*
 * The same cases go to MPI as for the blocking calls, to MPI_I<coll>: the
 * request is then MPI's own, which the completion calls below pass to MPI.
 * An error vine finds at the start goes through comm's error handler, and
 * *request is MPI_REQUEST_NULL (vine sets it).
 */

int MPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
               MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_BCAST))
        return PMPI_Ibcast(buffer, count, datatype, root, comm, request);
    return made_request(comm, vine_ibcast(buffer, count, datatype, root, comm, request));
}

int MPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                int root, MPI_Comm comm, MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_REDUCE))
        return PMPI_Ireduce(sendbuf, recvbuf, count, datatype, op, root, comm, request);
    int rc = vine_ireduce(sendbuf, recvbuf, count, datatype, op, root, comm, request);
    if (pass_op(rc, op, comm, VINE_COLL_REDUCE))
        return PMPI_Ireduce(sendbuf, recvbuf, count, datatype, op, root, comm, request);
    return made_request(comm, rc);
}

int MPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                   MPI_Comm comm, MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_ALLREDUCE))
        return PMPI_Iallreduce(sendbuf, recvbuf, count, datatype, op, comm, request);
    int rc = vine_iallreduce(sendbuf, recvbuf, count, datatype, op, comm, request);
    if (pass_op(rc, op, comm, VINE_COLL_ALLREDUCE))
        return PMPI_Iallreduce(sendbuf, recvbuf, count, datatype, op, comm, request);
    return made_request(comm, rc);
}

int MPI_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_REDUCE_SCATTER))
        return PMPI_Ireduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm, request);
    int rc = vine_ireduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm, request);
    if (pass_op(rc, op, comm, VINE_COLL_REDUCE_SCATTER))
        return PMPI_Ireduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm, request);
    return made_request(comm, rc);
}

int MPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_REDUCE_SCATTER_BLOCK))
        return PMPI_Ireduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm, request);
    int rc = vine_ireduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm, request);
    if (pass_op(rc, op, comm, VINE_COLL_REDUCE_SCATTER_BLOCK))
        return PMPI_Ireduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm, request);
    return made_request(comm, rc);
}

int MPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_ALLGATHER))
        return PMPI_Iallgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                               request);
    return made_request(comm, vine_iallgather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                              recvtype, comm, request));
}

int MPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_ALLTOALL))
        return PMPI_Ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                              request);
    return made_request(comm, vine_ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                             recvtype, comm, request));
}

int MPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_GATHER))
        return PMPI_Igather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                            request);
    return made_request(comm, vine_igather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                           recvtype, root, comm, request));
}

int MPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                 MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_SCATTER))
        return PMPI_Iscatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                             request);
    return made_request(comm, vine_iscatter(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                            recvtype, root, comm, request));
}

int MPI_Ibarrier(MPI_Comm comm, MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_BARRIER))
        return PMPI_Ibarrier(comm, request);
    return made_request(comm, vine_ibarrier(comm, request));
}

int MPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                    MPI_Comm comm, MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_ALLGATHERV))
        return PMPI_Iallgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                                comm, request);
    return made_request(comm, vine_iallgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                                               displs, recvtype, comm, request));
}

int MPI_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                   const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_ALLTOALLV))
        return PMPI_Ialltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                               recvtype, comm, request);
    return made_request(comm, vine_ialltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                              recvcounts, rdispls, recvtype, comm, request));
}

int MPI_Ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                   const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                   MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_ALLTOALLW))
        return PMPI_Ialltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                               rdispls, recvtypes, comm, request);
    return made_request(comm, vine_ialltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                                              recvcounts, rdispls, recvtypes, comm, request));
}

int MPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                 MPI_Comm comm, MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_GATHERV))
        return PMPI_Igatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                             root, comm, request);
    return made_request(comm, vine_igatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                                            displs, recvtype, root, comm, request));
}

int MPI_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                  MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                  int root, MPI_Comm comm, MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_SCATTERV))
        return PMPI_Iscatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype,
                              root, comm, request);
    return made_request(comm, vine_iscatterv(sendbuf, sendcounts, displs, sendtype, recvbuf,
                                             recvcount, recvtype, root, comm, request));
}

int MPI_Iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
              MPI_Comm comm, MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_SCAN))
        return PMPI_Iscan(sendbuf, recvbuf, count, datatype, op, comm, request);
    int rc = vine_iscan(sendbuf, recvbuf, count, datatype, op, comm, request);
    if (pass_op(rc, op, comm, VINE_COLL_SCAN))
        return PMPI_Iscan(sendbuf, recvbuf, count, datatype, op, comm, request);
    return made_request(comm, rc);
}

int MPI_Iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                MPI_Comm comm, MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_EXSCAN))
        return PMPI_Iexscan(sendbuf, recvbuf, count, datatype, op, comm, request);
    int rc = vine_iexscan(sendbuf, recvbuf, count, datatype, op, comm, request);
    if (pass_op(rc, op, comm, VINE_COLL_EXSCAN))
        return PMPI_Iexscan(sendbuf, recvbuf, count, datatype, op, comm, request);
    return made_request(comm, rc);
}

/* ---- MPI-4: large counts and persistent collectives ---- */

/*
 * Where the MPI library's header declares them (MPI_VERSION 4: MPICH 4.0;
 * Open MPI 4.1's header says 3): the nonblocking calls' _c forms, the
 * persistent MPI_<Coll>_init and their _c forms, with the same cases passed
 * to MPI.  A persistent request of vine's is started by MPI_Start or
 * MPI_Startall and completed by the calls below; vine plans it once.
 */
#if MPI_VERSION >= 4

int MPI_Ibcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                 MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_BCAST))
        return PMPI_Ibcast_c(buffer, count, datatype, root, comm, request);
    return made_request(comm, vine_ibcast_c(buffer, count, datatype, root, comm, request));
}

int MPI_Ireduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                  MPI_Op op, int root, MPI_Comm comm, MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_REDUCE))
        return PMPI_Ireduce_c(sendbuf, recvbuf, count, datatype, op, root, comm, request);
    int rc = vine_ireduce_c(sendbuf, recvbuf, count, datatype, op, root, comm, request);
    if (pass_op(rc, op, comm, VINE_COLL_REDUCE))
        return PMPI_Ireduce_c(sendbuf, recvbuf, count, datatype, op, root, comm, request);
    return made_request(comm, rc);
}

int MPI_Iallreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                     MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_ALLREDUCE))
        return PMPI_Iallreduce_c(sendbuf, recvbuf, count, datatype, op, comm, request);
    int rc = vine_iallreduce_c(sendbuf, recvbuf, count, datatype, op, comm, request);
    if (pass_op(rc, op, comm, VINE_COLL_ALLREDUCE))
        return PMPI_Iallreduce_c(sendbuf, recvbuf, count, datatype, op, comm, request);
    return made_request(comm, rc);
}

int MPI_Ireduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_REDUCE_SCATTER))
        return PMPI_Ireduce_scatter_c(sendbuf, recvbuf, recvcounts, datatype, op, comm, request);
    int rc = vine_ireduce_scatter_c(sendbuf, recvbuf, recvcounts, datatype, op, comm, request);
    if (pass_op(rc, op, comm, VINE_COLL_REDUCE_SCATTER))
        return PMPI_Ireduce_scatter_c(sendbuf, recvbuf, recvcounts, datatype, op, comm, request);
    return made_request(comm, rc);
}

int MPI_Ireduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_REDUCE_SCATTER_BLOCK))
        return PMPI_Ireduce_scatter_block_c(sendbuf, recvbuf, recvcount, datatype, op, comm,
                                            request);
    int rc = vine_ireduce_scatter_block_c(sendbuf, recvbuf, recvcount, datatype, op, comm, request);
    if (pass_op(rc, op, comm, VINE_COLL_REDUCE_SCATTER_BLOCK))
        return PMPI_Ireduce_scatter_block_c(sendbuf, recvbuf, recvcount, datatype, op, comm,
                                            request);
    return made_request(comm, rc);
}

int MPI_Iallgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                     MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                     MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_ALLGATHER))
        return PMPI_Iallgather_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                                 request);
    return made_request(comm, vine_iallgather_c(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                                recvtype, comm, request));
}

int MPI_Ialltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                    MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_ALLTOALL))
        return PMPI_Ialltoall_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                                request);
    return made_request(comm, vine_ialltoall_c(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                               recvtype, comm, request));
}

int MPI_Igather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                  MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                  MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_GATHER))
        return PMPI_Igather_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                              comm, request);
    return made_request(comm, vine_igather_c(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                             recvtype, root, comm, request));
}

int MPI_Iscatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                   MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                   MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_SCATTER))
        return PMPI_Iscatter_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                               comm, request);
    return made_request(comm, vine_iscatter_c(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                              recvtype, root, comm, request));
}

int MPI_Iallgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                      void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                      MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_ALLGATHERV))
        return PMPI_Iallgatherv_c(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                  recvtype, comm, request);
    return made_request(comm, vine_iallgatherv_c(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                                                 displs, recvtype, comm, request));
}

int MPI_Ialltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                     MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                     const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                     MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_ALLTOALLV))
        return PMPI_Ialltoallv_c(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                 rdispls, recvtype, comm, request);
    return made_request(comm, vine_ialltoallv_c(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                                recvcounts, rdispls, recvtype, comm, request));
}

int MPI_Ialltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                     const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                     const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                     MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_ALLTOALLW))
        return PMPI_Ialltoallw_c(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                                 rdispls, recvtypes, comm, request);
    return made_request(comm, vine_ialltoallw_c(sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                                                recvcounts, rdispls, recvtypes, comm, request));
}

int MPI_Igatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                   const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                   int root, MPI_Comm comm, MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_GATHERV))
        return PMPI_Igatherv_c(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                               root, comm, request);
    return made_request(comm, vine_igatherv_c(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                                              displs, recvtype, root, comm, request));
}

int MPI_Iscatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                    MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                    MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_SCATTERV))
        return PMPI_Iscatterv_c(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype,
                                root, comm, request);
    return made_request(comm, vine_iscatterv_c(sendbuf, sendcounts, displs, sendtype, recvbuf,
                                               recvcount, recvtype, root, comm, request));
}

int MPI_Iscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_SCAN))
        return PMPI_Iscan_c(sendbuf, recvbuf, count, datatype, op, comm, request);
    int rc = vine_iscan_c(sendbuf, recvbuf, count, datatype, op, comm, request);
    if (pass_op(rc, op, comm, VINE_COLL_SCAN))
        return PMPI_Iscan_c(sendbuf, recvbuf, count, datatype, op, comm, request);
    return made_request(comm, rc);
}

int MPI_Iexscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                  MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_EXSCAN))
        return PMPI_Iexscan_c(sendbuf, recvbuf, count, datatype, op, comm, request);
    int rc = vine_iexscan_c(sendbuf, recvbuf, count, datatype, op, comm, request);
    if (pass_op(rc, op, comm, VINE_COLL_EXSCAN))
        return PMPI_Iexscan_c(sendbuf, recvbuf, count, datatype, op, comm, request);
    return made_request(comm, rc);
}

int MPI_Bcast_init(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                   MPI_Info info, MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_BCAST))
        return PMPI_Bcast_init(buffer, count, datatype, root, comm, info, request);
    return made_request(comm, vine_bcast_init(buffer, count, datatype, root, comm, info, request));
}

int MPI_Reduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                    int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_REDUCE))
        return PMPI_Reduce_init(sendbuf, recvbuf, count, datatype, op, root, comm, info, request);
    int rc = vine_reduce_init(sendbuf, recvbuf, count, datatype, op, root, comm, info, request);
    if (pass_op(rc, op, comm, VINE_COLL_REDUCE))
        return PMPI_Reduce_init(sendbuf, recvbuf, count, datatype, op, root, comm, info, request);
    return made_request(comm, rc);
}

int MPI_Allreduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                       MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_ALLREDUCE))
        return PMPI_Allreduce_init(sendbuf, recvbuf, count, datatype, op, comm, info, request);
    int rc = vine_allreduce_init(sendbuf, recvbuf, count, datatype, op, comm, info, request);
    if (pass_op(rc, op, comm, VINE_COLL_ALLREDUCE))
        return PMPI_Allreduce_init(sendbuf, recvbuf, count, datatype, op, comm, info, request);
    return made_request(comm, rc);
}

int MPI_Reduce_scatter_init(const void *sendbuf, void *recvbuf, const int recvcounts[],
                            MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                            MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_REDUCE_SCATTER))
        return PMPI_Reduce_scatter_init(sendbuf, recvbuf, recvcounts, datatype, op, comm, info,
                                        request);
    int rc =
        vine_reduce_scatter_init(sendbuf, recvbuf, recvcounts, datatype, op, comm, info, request);
    if (pass_op(rc, op, comm, VINE_COLL_REDUCE_SCATTER))
        return PMPI_Reduce_scatter_init(sendbuf, recvbuf, recvcounts, datatype, op, comm, info,
                                        request);
    return made_request(comm, rc);
}

int MPI_Reduce_scatter_block_init(const void *sendbuf, void *recvbuf, int recvcount,
                                  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                  MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_REDUCE_SCATTER_BLOCK))
        return PMPI_Reduce_scatter_block_init(sendbuf, recvbuf, recvcount, datatype, op, comm, info,
                                              request);
    int rc = vine_reduce_scatter_block_init(sendbuf, recvbuf, recvcount, datatype, op, comm, info,
                                            request);
    if (pass_op(rc, op, comm, VINE_COLL_REDUCE_SCATTER_BLOCK))
        return PMPI_Reduce_scatter_block_init(sendbuf, recvbuf, recvcount, datatype, op, comm, info,
                                              request);
    return made_request(comm, rc);
}

int MPI_Allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                       MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_ALLGATHER))
        return PMPI_Allgather_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                                   info, request);
    return made_request(comm, vine_allgather_init(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                                  recvtype, comm, info, request));
}

int MPI_Alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                      MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_ALLTOALL))
        return PMPI_Alltoall_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                                  info, request);
    return made_request(comm, vine_alltoall_init(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                                 recvtype, comm, info, request));
}

int MPI_Gather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                    MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_GATHER))
        return PMPI_Gather_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                                comm, info, request);
    return made_request(comm, vine_gather_init(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                               recvtype, root, comm, info, request));
}

int MPI_Scatter_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                     MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_SCATTER))
        return PMPI_Scatter_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                                 comm, info, request);
    return made_request(comm, vine_scatter_init(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                                recvtype, root, comm, info, request));
}

int MPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_BARRIER))
        return PMPI_Barrier_init(comm, info, request);
    return made_request(comm, vine_barrier_init(comm, info, request));
}

int MPI_Allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                        MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_ALLGATHERV))
        return PMPI_Allgatherv_init(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                    recvtype, comm, info, request);
    return made_request(comm,
                        vine_allgatherv_init(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                                             displs, recvtype, comm, info, request));
}

int MPI_Alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                       MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                       const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                       MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_ALLTOALLV))
        return PMPI_Alltoallv_init(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                   rdispls, recvtype, comm, info, request);
    return made_request(comm,
                        vine_alltoallv_init(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                            recvcounts, rdispls, recvtype, comm, info, request));
}

int MPI_Alltoallw_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                       const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                       const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                       MPI_Info info, MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_ALLTOALLW))
        return PMPI_Alltoallw_init(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                                   rdispls, recvtypes, comm, info, request);
    return made_request(comm,
                        vine_alltoallw_init(sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                                            recvcounts, rdispls, recvtypes, comm, info, request));
}

int MPI_Gatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                     MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_GATHERV))
        return PMPI_Gatherv_init(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                 recvtype, root, comm, info, request);
    return made_request(comm, vine_gatherv_init(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                                                displs, recvtype, root, comm, info, request));
}

int MPI_Scatterv_init(const void *sendbuf, const int sendcounts[], const int displs[],
                      MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                      int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_SCATTERV))
        return PMPI_Scatterv_init(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                                  recvtype, root, comm, info, request);
    return made_request(comm, vine_scatterv_init(sendbuf, sendcounts, displs, sendtype, recvbuf,
                                                 recvcount, recvtype, root, comm, info, request));
}

int MPI_Scan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                  MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_SCAN))
        return PMPI_Scan_init(sendbuf, recvbuf, count, datatype, op, comm, info, request);
    int rc = vine_scan_init(sendbuf, recvbuf, count, datatype, op, comm, info, request);
    if (pass_op(rc, op, comm, VINE_COLL_SCAN))
        return PMPI_Scan_init(sendbuf, recvbuf, count, datatype, op, comm, info, request);
    return made_request(comm, rc);
}

int MPI_Exscan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                    MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_EXSCAN))
        return PMPI_Exscan_init(sendbuf, recvbuf, count, datatype, op, comm, info, request);
    int rc = vine_exscan_init(sendbuf, recvbuf, count, datatype, op, comm, info, request);
    if (pass_op(rc, op, comm, VINE_COLL_EXSCAN))
        return PMPI_Exscan_init(sendbuf, recvbuf, count, datatype, op, comm, info, request);
    return made_request(comm, rc);
}

int MPI_Bcast_init_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                     MPI_Info info, MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_BCAST))
        return PMPI_Bcast_init_c(buffer, count, datatype, root, comm, info, request);
    return made_request(comm,
                        vine_bcast_init_c(buffer, count, datatype, root, comm, info, request));
}

int MPI_Reduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                      MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_REDUCE))
        return PMPI_Reduce_init_c(sendbuf, recvbuf, count, datatype, op, root, comm, info, request);
    int rc = vine_reduce_init_c(sendbuf, recvbuf, count, datatype, op, root, comm, info, request);
    if (pass_op(rc, op, comm, VINE_COLL_REDUCE))
        return PMPI_Reduce_init_c(sendbuf, recvbuf, count, datatype, op, root, comm, info, request);
    return made_request(comm, rc);
}

int MPI_Allreduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                         MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_ALLREDUCE))
        return PMPI_Allreduce_init_c(sendbuf, recvbuf, count, datatype, op, comm, info, request);
    int rc = vine_allreduce_init_c(sendbuf, recvbuf, count, datatype, op, comm, info, request);
    if (pass_op(rc, op, comm, VINE_COLL_ALLREDUCE))
        return PMPI_Allreduce_init_c(sendbuf, recvbuf, count, datatype, op, comm, info, request);
    return made_request(comm, rc);
}

int MPI_Reduce_scatter_init_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                              MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_REDUCE_SCATTER))
        return PMPI_Reduce_scatter_init_c(sendbuf, recvbuf, recvcounts, datatype, op, comm, info,
                                          request);
    int rc =
        vine_reduce_scatter_init_c(sendbuf, recvbuf, recvcounts, datatype, op, comm, info, request);
    if (pass_op(rc, op, comm, VINE_COLL_REDUCE_SCATTER))
        return PMPI_Reduce_scatter_init_c(sendbuf, recvbuf, recvcounts, datatype, op, comm, info,
                                          request);
    return made_request(comm, rc);
}

int MPI_Reduce_scatter_block_init_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                    MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_REDUCE_SCATTER_BLOCK))
        return PMPI_Reduce_scatter_block_init_c(sendbuf, recvbuf, recvcount, datatype, op, comm,
                                                info, request);
    int rc = vine_reduce_scatter_block_init_c(sendbuf, recvbuf, recvcount, datatype, op, comm, info,
                                              request);
    if (pass_op(rc, op, comm, VINE_COLL_REDUCE_SCATTER_BLOCK))
        return PMPI_Reduce_scatter_block_init_c(sendbuf, recvbuf, recvcount, datatype, op, comm,
                                                info, request);
    return made_request(comm, rc);
}

int MPI_Allgather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                         void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                         MPI_Info info, MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_ALLGATHER))
        return PMPI_Allgather_init_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                     comm, info, request);
    return made_request(comm, vine_allgather_init_c(sendbuf, sendcount, sendtype, recvbuf,
                                                    recvcount, recvtype, comm, info, request));
}

int MPI_Alltoall_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                        void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                        MPI_Info info, MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_ALLTOALL))
        return PMPI_Alltoall_init_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                    comm, info, request);
    return made_request(comm, vine_alltoall_init_c(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                                   recvtype, comm, info, request));
}

int MPI_Gather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                      void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                      MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_GATHER))
        return PMPI_Gather_init_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                                  comm, info, request);
    return made_request(comm, vine_gather_init_c(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                                 recvtype, root, comm, info, request));
}

int MPI_Scatter_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                       void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                       MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_SCATTER))
        return PMPI_Scatter_init_c(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                                   comm, info, request);
    return made_request(comm, vine_scatter_init_c(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                                  recvtype, root, comm, info, request));
}

int MPI_Allgatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                          void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                          MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_ALLGATHERV))
        return PMPI_Allgatherv_init_c(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                      recvtype, comm, info, request);
    return made_request(comm,
                        vine_allgatherv_init_c(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                                               displs, recvtype, comm, info, request));
}

int MPI_Alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                         const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                         const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                         MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_ALLTOALLV))
        return PMPI_Alltoallv_init_c(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                     rdispls, recvtype, comm, info, request);
    return made_request(comm,
                        vine_alltoallv_init_c(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                              recvcounts, rdispls, recvtype, comm, info, request));
}

int MPI_Alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                         const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
                         const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                         const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                         MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_ALLTOALLW))
        return PMPI_Alltoallw_init_c(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                                     rdispls, recvtypes, comm, info, request);
    return made_request(comm,
                        vine_alltoallw_init_c(sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                                              recvcounts, rdispls, recvtypes, comm, info, request));
}

int MPI_Gatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                       void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                       MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                       MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_GATHERV))
        return PMPI_Gatherv_init_c(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                   recvtype, root, comm, info, request);
    return made_request(comm, vine_gatherv_init_c(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                                                  displs, recvtype, root, comm, info, request));
}

int MPI_Scatterv_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                        MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                        MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                        MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_SCATTERV))
        return PMPI_Scatterv_init_c(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                                    recvtype, root, comm, info, request);
    return made_request(comm, vine_scatterv_init_c(sendbuf, sendcounts, displs, sendtype, recvbuf,
                                                   recvcount, recvtype, root, comm, info, request));
}

int MPI_Scan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                    MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_SCAN))
        return PMPI_Scan_init_c(sendbuf, recvbuf, count, datatype, op, comm, info, request);
    int rc = vine_scan_init_c(sendbuf, recvbuf, count, datatype, op, comm, info, request);
    if (pass_op(rc, op, comm, VINE_COLL_SCAN))
        return PMPI_Scan_init_c(sendbuf, recvbuf, count, datatype, op, comm, info, request);
    return made_request(comm, rc);
}

int MPI_Exscan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                      MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    if (pass_start(comm, CALLER, VINE_COLL_EXSCAN))
        return PMPI_Exscan_init_c(sendbuf, recvbuf, count, datatype, op, comm, info, request);
    int rc = vine_exscan_init_c(sendbuf, recvbuf, count, datatype, op, comm, info, request);
    if (pass_op(rc, op, comm, VINE_COLL_EXSCAN))
        return PMPI_Exscan_init_c(sendbuf, recvbuf, count, datatype, op, comm, info, request);
    return made_request(comm, rc);
}

#endif /* MPI_VERSION >= 4 */

/* ---- Completion ---- */

/*
 * vine's requests are generalized requests of the MPI library
 * (MPI_Grequest_start) that advance only inside vine's functions, so the
 * program's completion calls are vine's: each advances every outstanding
 * vine request and passes the program's own requests to the MPI library's
 * function (PMPI_), so that one array may mix both.  A program that never
 * started a vine request pays a test of a count inside vine.
 *
 * Errors.  Arguments MPI would reject before looking at a request (a NULL
 * array, a negative count) go to the MPI library's function, which reports
 * them as its own.  The errors of the program's own requests the MPI
 * library reports itself, through the handler it chooses.  An error of one
 * of vine's requests (MPI_ERR_REQUEST for starting or freeing an active
 * one, or an error its collective found after the start) goes through
 * MPI_COMM_WORLD's error handler, where MPI raises the errors of
 * generalized requests, once per call (under the sessions model alone,
 * which has no MPI_COMM_WORLD, it is only returned).  To tell whose error
 * it is, the array functions note which requests are vine's before the
 * call (vine frees them on completion), and supply statuses when the
 * program ignores them; they do so only after this library has made a vine
 * request.
 */

/* An error of one of vine's requests. */
static int report_request(int rc)
{
    /* Under the sessions model alone there is no such handler to call. */
    return world_up() ? report(MPI_COMM_WORLD, rc) : rc;
}

/* Whether one request is vine's. */
static int is_vine(const MPI_Request *request)
{
    return atomic_load_explicit(&made, memory_order_relaxed) && request &&
           vine_is_request(*request);
}

/* The arrays' bookkeeping up to this many requests lives on the stack. */
#define LOCAL_REQUESTS 32

/*
 * Which requests of an array are vine's, noted before the call, and the
 * statuses the call fills: the program's, or (when it ignores them) ours.
 * vine NULL: the array holds none of vine's requests, or there was no
 * memory to find out; then errors are returned only.
 */
typedef struct owners {
    unsigned char *vine;
    MPI_Status *statuses;
    int ignored; /* the program passed MPI_STATUSES_IGNORE */
    unsigned char local_vine[LOCAL_REQUESTS];
    MPI_Status local_statuses[LOCAL_REQUESTS];
} owners;

static void owners_note(owners *o, int count, const MPI_Request requests[], MPI_Status *statuses,
                        int with_statuses)
{
    o->vine = NULL;
    o->statuses = statuses;
    o->ignored = with_statuses && statuses == MPI_STATUSES_IGNORE;
    if (!atomic_load_explicit(&made, memory_order_relaxed) || count <= 0)
        return;
    size_t n = (size_t)count;
    unsigned char *v = n <= LOCAL_REQUESTS ? o->local_vine : malloc(n);
    if (!v)
        return;
    int any = 0;
    for (size_t i = 0; i < n; i++) {
        v[i] = (unsigned char)(vine_is_request(requests[i]) != 0);
        any |= v[i];
    }
    if (any && o->ignored)
        o->statuses = n <= LOCAL_REQUESTS ? o->local_statuses : malloc(n * sizeof *o->statuses);
    if (!any || (o->ignored && !o->statuses)) {
        o->statuses = statuses;
        if (v != o->local_vine)
            free(v);
        return;
    }
    o->vine = v;
}

/*
 * The array call's answer rc, its n completed requests described by
 * statuses[k] and indices[k] (NULL: k itself): an error of one of vine's
 * requests goes through MPI_COMM_WORLD's handler.  Where the program
 * ignored the statuses, MPI_ERR_IN_STATUS becomes the first error.
 */
static int owners_done(owners *o, int rc, int n, const int indices[])
{
    if (!o->vine)
        return rc;
    int first = MPI_SUCCESS, vine_err = MPI_SUCCESS;
    if (rc == MPI_ERR_IN_STATUS && n != MPI_UNDEFINED) {
        for (int k = 0; k < n; k++) {
            int e = o->statuses[k].MPI_ERROR, i = indices ? indices[k] : k;
            if (e == MPI_SUCCESS || e == MPI_ERR_PENDING)
                continue;
            if (first == MPI_SUCCESS)
                first = e;
            if (o->vine[i] && vine_err == MPI_SUCCESS)
                vine_err = e;
        }
    }
    if (o->ignored && o->statuses != o->local_statuses)
        free(o->statuses);
    if (o->vine != o->local_vine)
        free(o->vine);
    if (vine_err != MPI_SUCCESS)
        report_request(vine_err);
    return o->ignored && rc == MPI_ERR_IN_STATUS && first != MPI_SUCCESS ? first : rc;
}

int MPI_Start(MPI_Request *request)
{
    if (!request)
        return PMPI_Start(request);
    int rc = vine_start(request);
    /* A request that failed to start is still there. */
    return rc != MPI_SUCCESS && is_vine(request) ? report_request(rc) : rc;
}

int MPI_Startall(int count, MPI_Request array_of_requests[])
{
    if (count < 0 || (count > 0 && !array_of_requests))
        return PMPI_Startall(count, array_of_requests);
    int rc = vine_startall(count, array_of_requests);
    if (rc != MPI_ERR_REQUEST)
        return rc;
    /*
     * vine checks its requests before it starts any, and refuses with
     * MPI_ERR_REQUEST, the class itself: that answer with one of vine's
     * requests in the array is taken for vine's.  MPICH's own errors are
     * codes that carry more than the class; Open MPI's are classes, so a
     * request of the program's that PMPI_Start refuses in such an array
     * reaches MPI_COMM_WORLD's handler twice (an erroneous program anyway).
     */
    for (int i = 0; i < count; i++)
        if (is_vine(&array_of_requests[i]))
            return report_request(rc);
    return rc;
}

int MPI_Wait(MPI_Request *request, MPI_Status *status)
{
    if (!request)
        return PMPI_Wait(request, status);
    int vine = is_vine(request), rc = vine_wait(request, status);
    return rc != MPI_SUCCESS && vine ? report_request(rc) : rc;
}

int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    if (!request || !flag)
        return PMPI_Test(request, flag, status);
    int vine = is_vine(request), rc = vine_test(request, flag, status);
    return rc != MPI_SUCCESS && vine ? report_request(rc) : rc;
}

int MPI_Waitall(int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[])
{
    if (count < 0 || (count > 0 && !array_of_requests))
        return PMPI_Waitall(count, array_of_requests, array_of_statuses);
    owners o;
    owners_note(&o, count, array_of_requests, array_of_statuses, 1);
    int rc = vine_waitall(count, array_of_requests, o.statuses);
    return owners_done(&o, rc, count, NULL);
}

int MPI_Testall(int count, MPI_Request array_of_requests[], int *flag,
                MPI_Status array_of_statuses[])
{
    if (count < 0 || (count > 0 && !array_of_requests) || !flag)
        return PMPI_Testall(count, array_of_requests, flag, array_of_statuses);
    owners o;
    owners_note(&o, count, array_of_requests, array_of_statuses, 1);
    int rc = vine_testall(count, array_of_requests, flag, o.statuses);
    return owners_done(&o, rc, count, NULL);
}

/* The answer of MPI_Waitany or MPI_Testany: index names the request it completed. */
static int any_done(owners *o, int rc, const int *index)
{
    int vine = rc != MPI_SUCCESS && o->vine && *index >= 0 && o->vine[*index];
    owners_done(o, MPI_SUCCESS, 0, NULL);
    return vine ? report_request(rc) : rc;
}

int MPI_Waitany(int count, MPI_Request array_of_requests[], int *index, MPI_Status *status)
{
    if (count < 0 || (count > 0 && !array_of_requests) || !index)
        return PMPI_Waitany(count, array_of_requests, index, status);
    owners o;
    owners_note(&o, count, array_of_requests, NULL, 0);
    int rc = vine_waitany(count, array_of_requests, index, status);
    return any_done(&o, rc, index);
}

int MPI_Testany(int count, MPI_Request array_of_requests[], int *index, int *flag,
                MPI_Status *status)
{
    if (count < 0 || (count > 0 && !array_of_requests) || !index || !flag)
        return PMPI_Testany(count, array_of_requests, index, flag, status);
    owners o;
    owners_note(&o, count, array_of_requests, NULL, 0);
    int rc = vine_testany(count, array_of_requests, index, flag, status);
    return any_done(&o, rc, index);
}

int MPI_Waitsome(int incount, MPI_Request array_of_requests[], int *outcount,
                 int array_of_indices[], MPI_Status array_of_statuses[])
{
    if (incount < 0 || (incount > 0 && (!array_of_requests || !array_of_indices)) || !outcount)
        return PMPI_Waitsome(incount, array_of_requests, outcount, array_of_indices,
                             array_of_statuses);
    owners o;
    owners_note(&o, incount, array_of_requests, array_of_statuses, 1);
    int rc = vine_waitsome(incount, array_of_requests, outcount, array_of_indices, o.statuses);
    return owners_done(&o, rc, *outcount, array_of_indices);
}

int MPI_Testsome(int incount, MPI_Request array_of_requests[], int *outcount,
                 int array_of_indices[], MPI_Status array_of_statuses[])
{
    if (incount < 0 || (incount > 0 && (!array_of_requests || !array_of_indices)) || !outcount)
        return PMPI_Testsome(incount, array_of_requests, outcount, array_of_indices,
                             array_of_statuses);
    owners o;
    owners_note(&o, incount, array_of_requests, array_of_statuses, 1);
    int rc = vine_testsome(incount, array_of_requests, outcount, array_of_indices, o.statuses);
    return owners_done(&o, rc, *outcount, array_of_indices);
}

int MPI_Request_free(MPI_Request *request)
{
    if (!request)
        return PMPI_Request_free(request);
    int rc = vine_request_free(request);
    /* An active request vine refuses to free is still there. */
    return rc != MPI_SUCCESS && is_vine(request) ? report_request(rc) : rc;
}

/*
 * A collective request cannot be cancelled: MPI-3.1 section 5.12 makes
 * MPI_Cancel of one erroneous.  vine's is refused with MPI_ERR_REQUEST, and
 * the request goes on: complete it as usual.
 */
int MPI_Cancel(MPI_Request *request)
{
    if (is_vine(request))
        return report_request(MPI_ERR_REQUEST);
    return PMPI_Cancel(request);
}

/*
 * Once this library has made a request, the status query is vine's, which
 * advances vine's requests first and knows a persistent request's state;
 * it hands the program's own requests to MPI.
 */
int MPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status)
{
    if (atomic_load_explicit(&made, memory_order_relaxed) && flag)
        return vine_request_get_status(request, flag, status);
    return PMPI_Request_get_status(request, flag, status);
}

/*
 * MPI lets a program free a user-defined op while collectives that use it
 * are pending: vine's requests keep such an op until they are freed, and
 * vine_op_free hands every other op to PMPI_Op_free, errors included.
 */
int MPI_Op_free(MPI_Op *op)
{
    return vine_op_free(op);
}

/* ---- RMA windows ---- */

/*
 * A barrier that vine serves on a node segment calls no MPI function when
 * its peers are on time, so it does not progress the one-sided epochs that
 * MPI's own barrier would have (vine_shm_sync_progress in vine.h).  While the
 * program holds windows, every collective served on a node segment (blocking
 * or a request) therefore ends with one pass of MPI's progress engine.
 */
static int counted(int rc)
{
    if (rc == MPI_SUCCESS)
        vine_shm_sync_progress(1);
    return rc;
}

int MPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                   MPI_Win *win)
{
    return counted(PMPI_Win_create(base, size, disp_unit, info, comm, win));
}

int MPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void *baseptr,
                     MPI_Win *win)
{
    return counted(PMPI_Win_allocate(size, disp_unit, info, comm, baseptr, win));
}

int MPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
                            void *baseptr, MPI_Win *win)
{
    return counted(PMPI_Win_allocate_shared(size, disp_unit, info, comm, baseptr, win));
}

int MPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    return counted(PMPI_Win_create_dynamic(info, comm, win));
}

#if MPI_VERSION >= 4
int MPI_Win_create_c(void *base, MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
                     MPI_Win *win)
{
    return counted(PMPI_Win_create_c(base, size, disp_unit, info, comm, win));
}

int MPI_Win_allocate_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
                       void *baseptr, MPI_Win *win)
{
    return counted(PMPI_Win_allocate_c(size, disp_unit, info, comm, baseptr, win));
}

int MPI_Win_allocate_shared_c(MPI_Aint size, MPI_Aint disp_unit, MPI_Info info, MPI_Comm comm,
                              void *baseptr, MPI_Win *win)
{
    return counted(PMPI_Win_allocate_shared_c(size, disp_unit, info, comm, baseptr, win));
}
#endif

int MPI_Win_free(MPI_Win *win)
{
    int live = win && *win != MPI_WIN_NULL;
    int rc = PMPI_Win_free(win);
    if (rc == MPI_SUCCESS && live)
        vine_shm_sync_progress(-1);
    return rc;
}

/* ---- Blocking point-to-point ---- */

/*
 * MPI's progress rule holds inside a blocking send, receive or probe too: a
 * rank waiting there must still advance the collectives it started, since a
 * peer may wait for its next round before it sends (a bcast's inner node
 * in MPI_Recv from a leaf that waits for the bcast: that hung).  vine's
 * requests advance only inside vine's functions, so while one of them runs
 * on this rank (vine_requests_outstanding) these calls start the MPI
 * library's nonblocking form and wait for it with vine_wait, which advances
 * vine's requests as it waits.  Otherwise no peer can need this rank's
 * progress, and they go straight to MPI.
 */
/* Whether one of vine's requests runs here now: only then may a peer need this rank. */
static int vine_busy(void)
{
    return atomic_load_explicit(&made, memory_order_relaxed) && vine_requests_outstanding() > 0;
}

static int p2p_wait(int rc, MPI_Request *q, MPI_Status *status)
{
    return rc == MPI_SUCCESS ? vine_wait(q, status) : rc;
}

/*
 * The body of such a call: direct, the MPI library's blocking call, unless
 * one of vine's requests runs here; then start, its nonblocking form into
 * q_, waited for with vine_wait.
 */
#define VIA_VINE(direct, start, status)                                                            \
    do {                                                                                           \
        if (!vine_busy())                                                                          \
            return direct;                                                                         \
        MPI_Request q_;                                                                            \
        return p2p_wait(start, &q_, status);                                                       \
    } while (0)

int MPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    VIA_VINE(PMPI_Send(buf, count, datatype, dest, tag, comm),
             PMPI_Isend(buf, count, datatype, dest, tag, comm, &q_), MPI_STATUS_IGNORE);
}

int MPI_Ssend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    VIA_VINE(PMPI_Ssend(buf, count, datatype, dest, tag, comm),
             PMPI_Issend(buf, count, datatype, dest, tag, comm, &q_), MPI_STATUS_IGNORE);
}

int MPI_Rsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    VIA_VINE(PMPI_Rsend(buf, count, datatype, dest, tag, comm),
             PMPI_Irsend(buf, count, datatype, dest, tag, comm, &q_), MPI_STATUS_IGNORE);
}

int MPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
             MPI_Status *status)
{
    VIA_VINE(PMPI_Recv(buf, count, datatype, source, tag, comm, status),
             PMPI_Irecv(buf, count, datatype, source, tag, comm, &q_), status);
}

/*
 * The end of a send-receive started as a receive (rr, q[0]) and a send (rs,
 * q[1]): MPI 4's MPI_Isendrecv would do, but MPICH 4.0.2 gives its
 * requests (and MPI_Isendrecv_replace's) a status with source and tag 0.
 */
static int sendrecv_wait(int rr, int rs, MPI_Request q[2], MPI_Status *status)
{
    if (rr != MPI_SUCCESS)
        return rr;
    if (rs == MPI_SUCCESS)
        rs = vine_wait(&q[1], MPI_STATUS_IGNORE);
    if (rs != MPI_SUCCESS) {
        /* The call failed: its receive goes too, as a failed MPI_Sendrecv leaves none. */
        PMPI_Cancel(&q[0]);
        PMPI_Request_free(&q[0]);
        return rs;
    }
    return vine_wait(&q[0], status);
}

int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                 void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                 MPI_Comm comm, MPI_Status *status)
{
    if (!vine_busy())
        return PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                             recvtype, source, recvtag, comm, status);
    MPI_Request q[2];
    int rr = PMPI_Irecv(recvbuf, recvcount, recvtype, source, recvtag, comm, &q[0]);
    int rs = rr == MPI_SUCCESS
                 ? PMPI_Isend(sendbuf, sendcount, sendtype, dest, sendtag, comm, &q[1])
                 : rr;
    return sendrecv_wait(rr, rs, q, status);
}

/*
 * MPI_Sendrecv_replace while one of vine's requests runs: the outgoing
 * data packed into memory of its own, then a send-receive as above that
 * sends it as MPI_PACKED (a receive of any datatype with the same type
 * signature matches it, MPI 4.1 section 5.2) and receives into buf.
 * Where the header is MPI 4 the _c functions serve both forms.  A buffer
 * at MPI_BOTTOM (a type of absolute addresses) goes to MPI's own call, as
 * when no request runs: MPICH 4.0.2's MPI_Pack refuses a null buffer.
 */
static int replace_via_vine(void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                            int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    int rc;
    void *packed = NULL;
#if MPI_VERSION >= 4
    MPI_Count size = 0, at = 0;
    if ((rc = PMPI_Pack_size_c(count, datatype, comm, &size)) == MPI_SUCCESS &&
        (packed = malloc(size ? (size_t)size : 1)) != NULL)
        rc = PMPI_Pack_c(buf, count, datatype, packed, size, &at, comm);
#else
    int size = 0, at = 0;
    if ((rc = PMPI_Pack_size((int)count, datatype, comm, &size)) == MPI_SUCCESS &&
        (packed = malloc(size ? (size_t)size : 1)) != NULL)
        rc = PMPI_Pack(buf, (int)count, datatype, packed, size, &at, comm);
#endif
    if (rc == MPI_SUCCESS && !packed)
        rc = MPI_ERR_NO_MEM;
    MPI_Request q[2];
    int rr = rc;
    if (rr == MPI_SUCCESS)
#if MPI_VERSION >= 4
        rr = PMPI_Irecv_c(buf, count, datatype, source, recvtag, comm, &q[0]);
#else
        rr = PMPI_Irecv(buf, (int)count, datatype, source, recvtag, comm, &q[0]);
#endif
    int rs = rr;
    if (rs == MPI_SUCCESS)
#if MPI_VERSION >= 4
        rs = PMPI_Isend_c(packed, at, MPI_PACKED, dest, sendtag, comm, &q[1]);
#else
        rs = PMPI_Isend(packed, at, MPI_PACKED, dest, sendtag, comm, &q[1]);
#endif
    rc = sendrecv_wait(rr, rs, q, status);
    free(packed);
    return rc == MPI_ERR_NO_MEM ? report(comm, rc) : rc;
}

int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                         int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    if (!vine_busy() || buf == MPI_BOTTOM)
        return PMPI_Sendrecv_replace(buf, count, datatype, dest, sendtag, source, recvtag, comm,
                                     status);
    return replace_via_vine(buf, count, datatype, dest, sendtag, source, recvtag, comm, status);
}

/* A probe, nonblocking (flag) or blocking (flag NULL); message NULL for the unmatched kind. */
static int probe_any(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
                     MPI_Status *status)
{
    if (message)
        return flag ? PMPI_Improbe(source, tag, comm, flag, message, status)
                    : PMPI_Mprobe(source, tag, comm, message, status);
    return flag ? PMPI_Iprobe(source, tag, comm, flag, status)
                : PMPI_Probe(source, tag, comm, status);
}

/*
 * Polls for a message, advancing vine's requests between polls, until one
 * comes or none of vine's requests runs here any more (then MPI's blocking
 * probe waits for it).
 */
#define PROBE_SPINS_BEFORE_YIELD 256
static int probe_polled(int source, int tag, MPI_Comm comm, MPI_Message *message,
                        MPI_Status *status)
{
    for (unsigned spins = 0; vine_busy(); spins++) {
        int flag = 0, rc = probe_any(source, tag, comm, &flag, message, status);
        if (rc != MPI_SUCCESS || flag)
            return rc;
        vine_progress();
        if (spins > PROBE_SPINS_BEFORE_YIELD)
            sched_yield();
    }
    return probe_any(source, tag, comm, NULL, message, status);
}

int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    return probe_polled(source, tag, comm, NULL, status);
}

int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status)
{
    if (!message) /* MPI's error to report */
        return PMPI_Mprobe(source, tag, comm, message, status);
    return probe_polled(source, tag, comm, message, status);
}

int MPI_Mrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message, MPI_Status *status)
{
    VIA_VINE(PMPI_Mrecv(buf, count, datatype, message, status),
             PMPI_Imrecv(buf, count, datatype, message, &q_), status);
}

#if MPI_VERSION >= 4
/* The large-count forms of MPI 4. */
int MPI_Send_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm)
{
    VIA_VINE(PMPI_Send_c(buf, count, datatype, dest, tag, comm),
             PMPI_Isend_c(buf, count, datatype, dest, tag, comm, &q_), MPI_STATUS_IGNORE);
}

int MPI_Ssend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm)
{
    VIA_VINE(PMPI_Ssend_c(buf, count, datatype, dest, tag, comm),
             PMPI_Issend_c(buf, count, datatype, dest, tag, comm, &q_), MPI_STATUS_IGNORE);
}

int MPI_Rsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                MPI_Comm comm)
{
    VIA_VINE(PMPI_Rsend_c(buf, count, datatype, dest, tag, comm),
             PMPI_Irsend_c(buf, count, datatype, dest, tag, comm, &q_), MPI_STATUS_IGNORE);
}

int MPI_Recv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
               MPI_Comm comm, MPI_Status *status)
{
    VIA_VINE(PMPI_Recv_c(buf, count, datatype, source, tag, comm, status),
             PMPI_Irecv_c(buf, count, datatype, source, tag, comm, &q_), status);
}

int MPI_Sendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                   int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                   int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    if (!vine_busy())
        return PMPI_Sendrecv_c(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                               recvtype, source, recvtag, comm, status);
    MPI_Request q[2];
    int rr = PMPI_Irecv_c(recvbuf, recvcount, recvtype, source, recvtag, comm, &q[0]);
    int rs = rr == MPI_SUCCESS
                 ? PMPI_Isend_c(sendbuf, sendcount, sendtype, dest, sendtag, comm, &q[1])
                 : rr;
    return sendrecv_wait(rr, rs, q, status);
}

int MPI_Sendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag,
                           int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    if (!vine_busy() || buf == MPI_BOTTOM)
        return PMPI_Sendrecv_replace_c(buf, count, datatype, dest, sendtag, source, recvtag, comm,
                                       status);
    return replace_via_vine(buf, count, datatype, dest, sendtag, source, recvtag, comm, status);
}

int MPI_Mrecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message,
                MPI_Status *status)
{
    VIA_VINE(PMPI_Mrecv_c(buf, count, datatype, message, status),
             PMPI_Imrecv_c(buf, count, datatype, message, &q_), status);
}
#endif /* MPI_VERSION >= 4 */

/* ---- Communicators and MPI ending ---- */

/* Runs free (PMPI_Comm_free or PMPI_Comm_disconnect) with *comm marked as ending. */
static int ending_call(MPI_Comm *comm, int (*free_fn)(MPI_Comm *))
{
    int depth = nfreeing;
    if (depth < FREEING_MAX)
        freeing[depth] = comm ? *comm : MPI_COMM_NULL;
    nfreeing = depth + 1;
    int rc = free_fn(comm);
    nfreeing = depth;
    return rc;
}

int MPI_Comm_free(MPI_Comm *comm)
{
    return ending_call(comm, PMPI_Comm_free);
}

int MPI_Comm_disconnect(MPI_Comm *comm)
{
    return ending_call(comm, PMPI_Comm_disconnect);
}

int MPI_Finalize(void)
{
    atomic_store(&finalizing, 1);
    return PMPI_Finalize();
}
