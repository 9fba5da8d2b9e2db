/*
 * The seventeen collectives that libvine-mpi serves, in vine's order, and
 * their names: for the plain MPI programs of tests/pmpi (app_nb.c,
 * stress.c), which know nothing of vine.h.  Header-only, as app.h.
 */
#ifndef VINE_TESTS_PMPI_COLLS_H
#define VINE_TESTS_PMPI_COLLS_H

enum {
    BCAST,
    REDUCE,
    ALLREDUCE,
    REDUCE_SCATTER,
    REDUCE_SCATTER_BLOCK,
    ALLGATHER,
    ALLTOALL,
    GATHER,
    SCATTER,
    BARRIER,
    ALLGATHERV,
    ALLTOALLV,
    ALLTOALLW,
    GATHERV,
    SCATTERV,
    SCAN,
    EXSCAN,
    NCOLL
};

static const char *const coll_name[NCOLL] = {
    "bcast",      "reduce",    "allreduce", "reduce_scatter", "reduce_scatter_block",
    "allgather",  "alltoall",  "gather",    "scatter",        "barrier",
    "allgatherv", "alltoallv", "alltoallw", "gatherv",        "scatterv",
    "scan",       "exscan"};

#endif
