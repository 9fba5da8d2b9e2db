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
 * The irregular collectives and the scans: MPI's arguments and semantics
 * (MPI_IN_PLACE where MPI allows it; alltoallw's displacements in bytes).
 */
int vine_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                    MPI_Comm comm);
int vine_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                   const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm);
int vine_alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                   const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm);
int vine_gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                 MPI_Comm comm);
int vine_scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                  MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                  int root, MPI_Comm comm);
int vine_scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
              MPI_Comm comm);
int vine_exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                MPI_Comm comm);

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
int vine_allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                      void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                      MPI_Datatype recvtype, MPI_Comm comm);
int vine_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                     MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                     const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm);
int vine_alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                     const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                     const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm);
int vine_gatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                   void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                   MPI_Datatype recvtype, int root, MPI_Comm comm);
int vine_scatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                    MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                    MPI_Datatype recvtype, int root, MPI_Comm comm);
int vine_scan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                MPI_Op op, MPI_Comm comm);
int vine_exscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                  MPI_Op op, MPI_Comm comm);

/*
 * Nonblocking collectives (MPI-3's MPI_I<coll>): the arguments of the
 * blocking call and a request.  The call checks its arguments, chooses the
 * algorithm as the blocking call does (vine_set_algorithm, VINE_<COLL>_
 * ALGORITHM, auto) and posts the first round of messages before it
 * returns; the rest runs as the program calls vine's completion functions
 * (vine_test, vine_wait ...) or vine_progress.  Buffers must not be touched
 * until the request is complete.  Collectives on one communicator must
 * start in the same order on every rank, blocking and nonblocking alike;
 * any number may be outstanding, on one communicator or several.
 *
 * A request is an MPI_Request (a generalized request of the MPI library),
 * so one array may hold vine's requests and the program's point-to-point
 * requests: vine_wait, vine_test, vine_waitall ... accept both.  vine's
 * requests advance only inside vine's functions: complete them with
 * vine_wait/vine_test and their kin, not with MPI_Wait (which would wait
 * for ever), unless libvine-mpi.so serves the program, whose MPI_Wait and
 * kin are vine's.  On an error the call returns it and sets *request to
 * MPI_REQUEST_NULL; an error found later (out of memory, MPI failure) is
 * returned by the completion function.
 */
int vine_ibcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                MPI_Request *request);
int vine_ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                 int root, MPI_Comm comm, MPI_Request *request);
int vine_iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                    MPI_Op op, MPI_Comm comm, MPI_Request *request);
int vine_iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
int vine_ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                               MPI_Request *request);
int vine_ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request);
int vine_ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
int vine_igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                 MPI_Request *request);
int vine_iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                  MPI_Request *request);
int vine_ibarrier(MPI_Comm comm, MPI_Request *request);

int vine_ibcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                  MPI_Request *request);
int vine_ireduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                   MPI_Op op, int root, MPI_Comm comm, MPI_Request *request);
int vine_iallreduce_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                      MPI_Op op, MPI_Comm comm, MPI_Request *request);
int vine_iallgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                      void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                      MPI_Request *request);
int vine_ireduce_scatter_block_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                 MPI_Request *request);
int vine_ireduce_scatter_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request);
int vine_ialltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                     void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                     MPI_Request *request);
int vine_igather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                   MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                   MPI_Request *request);
int vine_iscatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                    void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                    MPI_Comm comm, MPI_Request *request);

/*
 * Persistent collectives (MPI-4's MPI_<Coll>_init): checked, chosen and
 * planned once, collectively, with the arguments of the nonblocking call
 * and an info object (may be MPI_INFO_NULL; vine reads no keys).  The
 * request is inactive until vine_start; each start reads the buffers anew
 * (their contents may change between starts, their addresses not), and
 * completes like a nonblocking call, after which the request is inactive
 * again.  The _init calls must come in the same order on every rank; the
 * starts may come in different orders, as MPI 4 allows, except for a
 * request that "mpi" serves (the MPI library's nonblocking collective,
 * started at each start).  A persistent request never runs on the node
 * segment (the shm family), whose calls must come in one order.  Starting
 * an active request, and freeing one, returns MPI_ERR_REQUEST; an inactive
 * one is freed with vine_request_free, before its communicator.
 */
int vine_bcast_init(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                    MPI_Info info, MPI_Request *request);
int vine_reduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                     MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request);
int vine_allreduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                        MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request);
int vine_allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                        MPI_Request *request);
int vine_reduce_scatter_block_init(const void *sendbuf, void *recvbuf, int recvcount,
                                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                   MPI_Request *request);
int vine_reduce_scatter_init(const void *sendbuf, void *recvbuf, const int recvcounts[],
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                             MPI_Request *request);
int vine_alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                       MPI_Request *request);
int vine_gather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                     MPI_Request *request);
int vine_scatter_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                      MPI_Request *request);
int vine_barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *request);

int vine_bcast_init_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root,
                      MPI_Comm comm, MPI_Info info, MPI_Request *request);
int vine_reduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                       MPI_Op op, int root, MPI_Comm comm, MPI_Info info, MPI_Request *request);
int vine_allreduce_init_c(const void *sendbuf, void *recvbuf, MPI_Count count,
                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                          MPI_Request *request);
int vine_allgather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                          void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                          MPI_Comm comm, MPI_Info info, MPI_Request *request);
int vine_reduce_scatter_block_init_c(const void *sendbuf, void *recvbuf, MPI_Count recvcount,
                                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                     MPI_Info info, MPI_Request *request);
int vine_reduce_scatter_init_c(const void *sendbuf, void *recvbuf, const MPI_Count recvcounts[],
                               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                               MPI_Request *request);
int vine_alltoall_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                         void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                         MPI_Info info, MPI_Request *request);
int vine_gather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                       void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                       MPI_Comm comm, MPI_Info info, MPI_Request *request);
int vine_scatter_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                        void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                        MPI_Comm comm, MPI_Info info, MPI_Request *request);

/*
 * The nonblocking and persistent forms of the irregular collectives and the
 * scans (MPI_Iallgatherv ... MPI_Iexscan, MPI_Allgatherv_init ...), with
 * the semantics of the forms above.  The count, displacement and type
 * arrays are read by the call (vine plans with them and keeps what it needs),
 * but MPI's rule holds: they must stay unchanged until the request is
 * complete (nonblocking) or freed (persistent).  A derived datatype is packed
 * at each start and unpacked at completion; one side of such a call packs at
 * most INT_MAX bytes (MPI_ERR_COUNT above).  gatherv and scatterv forced to
 * an algorithm that needs every block's size on every rank (binomial), whose
 * blocking call broadcasts the root's table first, run "linear" instead: a
 * nonblocking or persistent call must not wait for other ranks.
 */
int vine_iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                     MPI_Comm comm, MPI_Request *request);
int vine_ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                    MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                    const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                    MPI_Request *request);
int vine_ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                    const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                    const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                    MPI_Request *request);
int vine_igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                  MPI_Comm comm, MPI_Request *request);
int vine_iscatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                   MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                   int root, MPI_Comm comm, MPI_Request *request);
int vine_iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               MPI_Comm comm, MPI_Request *request);
int vine_iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                 MPI_Comm comm, MPI_Request *request);

int vine_iallgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                       void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                       MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request);
int vine_ialltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                      MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                      const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                      MPI_Request *request);
int vine_ialltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                      const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                      const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                      MPI_Request *request);
int vine_igatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                    int root, MPI_Comm comm, MPI_Request *request);
int vine_iscatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                     MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                     MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request);
int vine_iscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                 MPI_Op op, MPI_Comm comm, MPI_Request *request);
int vine_iexscan_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                   MPI_Op op, MPI_Comm comm, MPI_Request *request);

int vine_allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                         const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                         MPI_Comm comm, MPI_Info info, MPI_Request *request);
int vine_alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                        MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                        const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                        MPI_Request *request);
int vine_alltoallw_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                        const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                        const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                        MPI_Info info, MPI_Request *request);
int vine_gatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                      MPI_Comm comm, MPI_Info info, MPI_Request *request);
int vine_scatterv_init(const void *sendbuf, const int sendcounts[], const int displs[],
                       MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                       int root, MPI_Comm comm, MPI_Info info, MPI_Request *request);
int vine_scan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                   MPI_Comm comm, MPI_Info info, MPI_Request *request);
int vine_exscan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                     MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request);

int vine_allgatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                           void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                           MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                           MPI_Request *request);
int vine_alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                          const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                          const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                          MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                          MPI_Request *request);
int vine_alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                          const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
                          const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                          const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                          MPI_Request *request);
int vine_gatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                        void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                        MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                        MPI_Request *request);
int vine_scatterv_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                         MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                         MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                         MPI_Request *request);
int vine_scan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                     MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request);
int vine_exscan_init_c(const void *sendbuf, void *recvbuf, MPI_Count count, MPI_Datatype datatype,
                       MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request);

/*
 * Completion, with MPI's semantics, for vine's requests and any other
 * MPI_Request alike (others go to the MPI library's own function): each
 * advances every outstanding vine request before it looks at its own.  A
 * completed nonblocking request is freed and set to MPI_REQUEST_NULL; a
 * persistent one becomes inactive.  A status (may be MPI_STATUS_IGNORE)
 * of a collective request is empty (MPI_ANY_SOURCE, MPI_ANY_TAG, count 0).
 * An error of a collective is returned by vine_wait and vine_test, and by
 * the array functions as MPI_ERR_IN_STATUS with the error in the status's
 * MPI_ERROR (when statuses are not ignored; the first error otherwise).
 */
int vine_start(MPI_Request *request);
int vine_startall(int count, MPI_Request requests[]);
int vine_wait(MPI_Request *request, MPI_Status *status);
int vine_test(MPI_Request *request, int *flag, MPI_Status *status);
int vine_waitall(int count, MPI_Request requests[], MPI_Status *statuses);
int vine_testall(int count, MPI_Request requests[], int *flag, MPI_Status *statuses);
int vine_waitany(int count, MPI_Request requests[], int *index, MPI_Status *status);
int vine_testany(int count, MPI_Request requests[], int *index, int *flag, MPI_Status *status);
int vine_waitsome(int incount, MPI_Request requests[], int *outcount, int indices[],
                  MPI_Status *statuses);
int vine_testsome(int incount, MPI_Request requests[], int *outcount, int indices[],
                  MPI_Status *statuses);
/*
 * Frees an inactive persistent request, or any request that is not vine's
 * (MPI_Request_free).  MPI_ERR_REQUEST for a vine request still active,
 * since MPI makes freeing an active collective request erroneous.
 */
int vine_request_free(MPI_Request *request);
/*
 * MPI_Request_get_status for any request: advances vine's requests, then
 * says whether request is complete (1 also for an inactive persistent one)
 * without completing it; a finished collective's error is returned.
 */
int vine_request_get_status(MPI_Request request, int *flag, MPI_Status *status);
/* Whether request is one of vine's collective requests (not MPI_REQUEST_NULL). */
int vine_is_request(MPI_Request request);
/*
 * How many of vine's requests this process has started that have not
 * finished yet here (0: no peer can be waiting for this rank's next round
 * of one).  A program that waits inside MPI itself (a blocking send,
 * receive or probe) while it is above 0 must keep them moving, as
 * libvine-mpi does for those calls (docs/pmpi.md).  Under
 * MPI_THREAD_MULTIPLE, a snapshot.
 */
int vine_requests_outstanding(void);
/*
 * Advances every outstanding vine request as far as it can go without
 * waiting, and returns: a program that computes between start and wait
 * calls it now and then to keep its collectives moving.  While the progress
 * thread (VINE_PROGRESS_THREAD) runs, it returns at once when the thread
 * is in a pass.
 */
int vine_progress(void);
/*
 * MPI_Op_free for programs that free a user-defined op while vine's
 * nonblocking collectives that use it are pending, or while persistent ones
 * that use it exist, as MPI allows: such requests keep the op, and it is
 * freed when the last of them is freed (completed, or for a persistent
 * request vine_request_free).  *op becomes MPI_OP_NULL at once either way.
 * Every other op, and every error, goes to MPI_Op_free.  libvine-mpi's
 * MPI_Op_free is this function; a program of vine's own API that frees
 * such an op with MPI_Op_free must wait for those requests first.
 */
int vine_op_free(MPI_Op *op);

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
 * A collective served on a node segment calls no MPI function while its
 * peers' flags arrive in time, so unlike MPI's own collective it need not
 * progress the MPI library: a barrier meant to order one-sided epochs may
 * return before the target has processed an access epoch that its origin
 * completed before the barrier (under MPICH's UCX device, MPI_Win_test
 * after such a barrier said false).  While a count is above zero, every
 * collective that ran on a node segment, blocking or a request, ends with
 * one pass of the MPI library's progress engine (an MPI_Iprobe, a few tens of
 * nanoseconds).  This function adds delta to the count (not below zero)
 * and returns the new count.  libvine-mpi counts the program's RMA windows
 * here (MPI_Win_create, _allocate, _allocate_shared and _create_dynamic
 * add one, MPI_Win_free removes one); a program of vine's own API that
 * orders one-sided epochs with vine's collectives can do the same.
 * docs/shm.md, "Waiting".
 */
int vine_shm_sync_progress(int delta);

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
