/*
 * MPI-free types of vine's public interface, shared by include/vine.h and
 * the MPI-free core (schedule builders, verifier, simulator).
 */
#ifndef VINE_TYPES_H
#define VINE_TYPES_H

/* The collectives vine implements.  The order is part of the ABI. */
typedef enum vine_coll {
    VINE_COLL_BCAST = 0,
    VINE_COLL_REDUCE,
    VINE_COLL_ALLREDUCE,
    VINE_COLL_ALLGATHER,
    VINE_COLL_REDUCE_SCATTER,
    VINE_COLL_REDUCE_SCATTER_BLOCK,
    VINE_COLL_ALLTOALL,
    VINE_COLL_GATHER,
    VINE_COLL_SCATTER,
    VINE_COLL_BARRIER,
    VINE_COLL_ALLGATHERV,
    VINE_COLL_ALLTOALLV,
    VINE_COLL_ALLTOALLW,
    VINE_COLL_GATHERV,
    VINE_COLL_SCATTERV,
    VINE_COLL_SCAN,
    VINE_COLL_EXSCAN,
    VINE_COLL_COUNT /* the number of collectives; not a collective */
} vine_coll;

#endif
