/*
 * vine: locality-aware collective communication on MPI.
 *
 * Every vine_<coll>() takes exactly the arguments of the MPI function of the
 * same name and has its semantics (MPI_IN_PLACE where MPI allows it, any
 * root, any datatype that MPI_Reduce_local accepts for reductions, predefined
 * and user-defined ops, commutative or not).  It returns MPI_SUCCESS or an MPI
 * error class (MPI_ERR_COUNT, MPI_ERR_ROOT, MPI_ERR_BUFFER, MPI_ERR_TYPE,
 * MPI_ERR_OP, MPI_ERR_COMM, MPI_ERR_ARG, MPI_ERR_NO_MEM, ...) and never aborts;
 * the communicator's error handler is not invoked.  Arguments are checked
 * before any message is sent.
 *
 * Algorithm choice, per collective, in this order: vine_set_algorithm(); the
 * environment variable VINE_<COLL>_ALGORITHM (e.g. VINE_ALLREDUCE_ALGORITHM=
 * ring); the built-in selector ("auto").  A chosen algorithm whose
 * restrictions exclude a call (say, a commutative-only algorithm with a
 * non-commutative op) falls back to auto for that call; VINE_VERBOSE=1 says so
 * on stderr.
 */
#ifndef VINE_H
#define VINE_H

#include <mpi.h>

#include "vine/types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VINE_VERSION_MAJOR 0
#define VINE_VERSION_MINOR 1

int vine_bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm);
int vine_reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                int root, MPI_Comm comm);
int vine_allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                   MPI_Op op, MPI_Comm comm);
int vine_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
int vine_reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
int vine_reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
int vine_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
int vine_gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
int vine_scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
int vine_barrier(MPI_Comm comm);

/*
 * Large-count variants (MPI-4's _c functions): counts are MPI_Count, so a
 * call may move more than INT_MAX elements; messages above INT_MAX elements
 * are split.  Same semantics and errors as the int versions.
 */
int vine_bcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm);
int vine_reduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                  MPI_Op op, int root, MPI_Comm comm);
int vine_allreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                     MPI_Op op, MPI_Comm comm);
int vine_allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                     void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm);
int vine_reduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
int vine_reduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
int vine_alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                    void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm);
int vine_gather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                  MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
int vine_scatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                   void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                   MPI_Comm comm);

/*
 * Chooses the algorithm of a collective for the whole process; name NULL or
 * "auto" restores automatic selection.  Returns MPI_ERR_ARG for an unknown
 * collective or name.  Takes precedence over VINE_<COLL>_ALGORITHM.
 */
int vine_set_algorithm(vine_coll coll, const char *name);
/* The algorithm set for coll ("auto" when none). */
const char *vine_get_algorithm(vine_coll coll);

/*
 * The segment size in bytes of the pipelined algorithms (today allreduce
 * bine_large, which pipelines its reduce-scatter in segments of this many
 * bytes, rounded down to whole elements, at least one) for the whole
 * process; 0 turns pipelining off.  Takes precedence over
 * VINE_SEGMENT_SIZE (bytes, with an optional k/m/g suffix).  Returns
 * MPI_ERR_ARG for a negative size.  vine_get_segment_size returns the size
 * in force (0: off).
 */
int vine_set_segment_size(MPI_Count bytes);
MPI_Count vine_get_segment_size(void);

/*
 * What vine knows of where comm's ranks are: found once per communicator, by
 * the first call on it that communicates (this one included, so it is
 * collective then), from the nodes MPI reports and VINE_TOPOLOGY
 * (docs/topology-files.md).  *nlevels (may be NULL) gets the number of
 * levels that divide the ranks (0: flat, the hierarchical algorithms do not
 * run); msg (msglen bytes, may be NULL) one line saying what was found, or
 * why VINE_TOPOLOGY could not be used (naming file and line).  Returns
 * MPI_SUCCESS, MPI_ERR_COMM for MPI_COMM_NULL or an intercommunicator,
 * MPI_ERR_ARG for msglen < 0, or the error that every collective on comm
 * returns because discovery failed (MPI_ERR_OTHER for an unusable
 * VINE_TOPOLOGY).
 */
int vine_topology_info(MPI_Comm comm, int *nlevels, char *msg, int msglen);

/*
 * The shared-memory segment of comm (docs/shm.md), made like the levels by
 * the first call on comm that communicates (collective then).  *shm (may be
 * NULL) gets 2 when all ranks of comm share one node segment (the shm
 * algorithms can serve its calls), 1 when the ranks of each node share one
 * but comm spans several nodes (the hierarchical shm algorithms can), 0
 * without segments; *single (may be NULL) 1 when
 * peers' buffers can be read directly (cross-memory attach); msg (msglen
 * bytes, may be NULL) one line saying what set-up found.  Returns
 * MPI_SUCCESS, MPI_ERR_COMM for MPI_COMM_NULL or an intercommunicator, or
 * MPI_ERR_ARG for msglen < 0.
 */
int vine_shm_info(MPI_Comm comm, int *shm, int *single, char *msg, int msglen);

/*
 * The tuning file auto follows (docs/tuning.md), for the whole process:
 * read once, by the first collective call, from VINE_TUNING_FILE, or from
 * $XDG_CONFIG_HOME/vine/tuning.json (~/.config/vine/tuning.json) when the
 * variable is unset; an empty VINE_TUNING_FILE means none.  A file that
 * cannot be used makes every collective return MPI_ERR_OTHER before it
 * sends anything.  vine_set_tuning_file replaces it (NULL or "": none) and
 * returns MPI_SUCCESS or MPI_ERR_OTHER; vine_tuning_info gives the number of
 * rules in use (may be NULL) and one line saying which file, or why it
 * cannot be used ("FILE:LINE: problem"), and returns MPI_SUCCESS,
 * MPI_ERR_ARG for msglen < 0, or MPI_ERR_OTHER for an unusable file.
 * Neither is collective.
 */
int vine_set_tuning_file(const char *path);
int vine_tuning_info(int *nrules, char *msg, int msglen);

/* The number of algorithms of coll, and the name of the i-th (NULL past the end). */
int vine_algorithm_count(vine_coll coll);
const char *vine_algorithm_name(vine_coll coll, int i);
/* The restrictions ("-" for none) and one-line description of the i-th algorithm. */
const char *vine_algorithm_restrictions(vine_coll coll, int i);
const char *vine_algorithm_description(vine_coll coll, int i);

/* "allreduce" for VINE_COLL_ALLREDUCE ...; "unknown" otherwise. */
const char *vine_coll_name(vine_coll coll);

/*
 * Which algorithm served (or would serve) the latest call of coll in this
 * process, e.g. for logging; "none" before the first call.
 */
const char *vine_last_algorithm(vine_coll coll);

/* A sentence explaining an error code returned by vine (any MPI error class). */
const char *vine_error_string(int errcode);

#ifdef __cplusplus
}
#endif

#endif
