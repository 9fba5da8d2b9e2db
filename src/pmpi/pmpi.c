/*
 * libvine-mpi: vine under the names of MPI's collectives, through the MPI
 * profiling interface (MPI-3.1, chapter 14.2).  An unmodified MPI program
 * that loads this library before the MPI library (LD_PRELOAD, or linked with
 * -lvine-mpi ahead of it) has its MPI_Bcast, MPI_Reduce, MPI_Allreduce,
 * MPI_Reduce_scatter, MPI_Reduce_scatter_block, MPI_Allgather,
 * MPI_Alltoall, MPI_Gather, MPI_Scatter and MPI_Barrier served by the
 * vine_<coll>() of the same arguments; MPI's own collective stays reachable
 * as PMPI_<Coll>.
 *
 * What vine does not handle goes to PMPI_<Coll> unchanged:
 * - intercommunicators (vine serves intracommunicators only);
 * - MPI_COMM_NULL, so that MPI reports the error exactly as its own;
 * - a reduction whose predefined op vine refuses with MPI_ERR_OP because
 *   MPI_Reduce_local refuses it on the datatype (Open MPI 4.1 and MPICH 4.0
 *   refuse every predefined op on a derived datatype).  vine checks its
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
 * vine's own; nothing else unless VINE_VERBOSE is set.
 *
 * Only MPI functions are called here, through their PMPI names, so that a
 * second profiling tool layered on top sees the application's calls only.
 */
#include "vine.h"

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Why a reduction goes to MPI: printed under VINE_VERBOSE. */
#define WHY_INTER "intercommunicator"
#define WHY_OP "MPI_Reduce_local refuses this predefined op on this datatype"

/* ---- VINE_VERBOSE ---- */

/* VINE_VERBOSE set to anything but empty or "0", as vine reads it. */
static int verbose(void)
{
    static int value = -1;
    if (value < 0) {
        const char *v = getenv("VINE_VERBOSE");
        value = v && *v && strcmp(v, "0") != 0;
    }
    return value;
}

/*
 * What has been said about a communicator lives in an attribute on it, so
 * that it goes when the communicator is freed (a later communicator may
 * reuse the handle) and is not copied by MPI_Comm_dup.  The attribute value
 * is an integer, not a pointer to memory: the low SAID_BITS bits are the
 * collectives already reported, the rest the N of "communicator #N" for a
 * communicator without a name (0 until it needs one).
 */
#define SAID_BITS 16
static int said_keyval = MPI_KEYVAL_INVALID;
static uintptr_t last_label;

/*
 * Whether this process prints for an intercommunicator: rank 0 of the group
 * whose rank 0 comes first in MPI_COMM_WORLD, so that one line stands for
 * both groups.  When either rank 0 is outside MPI_COMM_WORLD (dynamic
 * processes) each group's rank 0 speaks.
 */
static int inter_speaker(MPI_Comm comm)
{
    MPI_Group local, remote, world;
    int zero = 0, lw = MPI_UNDEFINED, rw = MPI_UNDEFINED;
    if (PMPI_Comm_group(comm, &local) != MPI_SUCCESS)
        return 1;
    if (PMPI_Comm_remote_group(comm, &remote) == MPI_SUCCESS) {
        if (PMPI_Comm_group(MPI_COMM_WORLD, &world) == MPI_SUCCESS) {
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
    if (said_keyval == MPI_KEYVAL_INVALID &&
        PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &said_keyval,
                                NULL) != MPI_SUCCESS) {
        said_keyval = MPI_KEYVAL_INVALID;
        return;
    }
    void *v = NULL;
    int flag = 0;
    uintptr_t said = 0, bit = (uintptr_t)1 << coll;
    if (PMPI_Comm_get_attr(comm, said_keyval, &v, &flag) == MPI_SUCCESS && flag)
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
        int len = 0;
        if (PMPI_Comm_get_name(comm, name, &len) != MPI_SUCCESS || len <= 0) {
            if ((said >> SAID_BITS) == 0)
                said |= ++last_label << SAID_BITS;
            snprintf(name, sizeof name, "communicator #%lu", (unsigned long)(said >> SAID_BITS));
        }
        fprintf(stderr, "vine: %s on %s (p=%d) passed to MPI (%s)\n", vine_coll_name(coll), name, p,
                why);
    }
    PMPI_Comm_set_attr(comm, said_keyval, (void *)said);
}

/* ---- What goes to MPI ---- */

/*
 * Whether a call of coll on comm goes to MPI's collective for its
 * communicator: MPI_COMM_NULL, a handle MPI rejects (MPI has reported that
 * through its error handler already, and its collective reports it again as
 * its own) and intercommunicators.
 */
static int pass_comm(MPI_Comm comm, vine_coll coll)
{
    int inter = 0;
    if (comm == MPI_COMM_NULL || PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS)
        return 1;
    if (inter)
        say_passed(comm, coll, 1, WHY_INTER);
    return inter;
}

/* The predefined reduction ops, the ones vine asks MPI_Reduce_local about. */
static int is_predefined_op(MPI_Op op)
{
    return op == MPI_SUM || op == MPI_PROD || op == MPI_MAX || op == MPI_MIN || op == MPI_LAND ||
           op == MPI_LOR || op == MPI_LXOR || op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR ||
           op == MPI_MAXLOC || op == MPI_MINLOC;
}

/*
 * Whether a reduction that vine answered with rc goes to MPI instead: vine
 * refused a predefined op (MPI_ERR_OP), which it does only when
 * MPI_Reduce_local refuses the op on the datatype, before any message.
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
