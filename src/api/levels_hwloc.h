/*
 * Where this process lies inside its node (issue 18): the NUMA node, the
 * package and the last-level (shared) cache that its CPU binding lies in,
 * from hwloc.  The level discovery (levels_mpi.c) sends what each rank finds
 * to rank 0, which makes levels below the node of them (src/coll/
 * levels_inner.h).  Nothing here communicates.
 *
 * VINE_NODE_LEVELS says which kinds to look for (levels_inner.h: none, the
 * default, or numa, package, cache, all); with none, hwloc is not touched.
 * The topology is loaded once per process (without I/O devices) and kept
 * until vine__inner_release(); the binding is read anew at every call.
 * hwloc's own HWLOC_SYNTHETIC and HWLOC_XMLFILE make it read a pretend
 * machine instead of this one.
 *
 * Test only: VINE_TOPOLOGY_FAKE_BIND stands in for the process's binding,
 * which a pretend machine cannot have (w: the rank in MPI_COMM_WORLD):
 *
 *   block:K   the PUs w K .. w K + K - 1 (logical indices, modulo the PUs)
 *   all       every PU: a process bound to the whole machine (unbound)
 *
 * Built without hwloc (CMake did not find it, or VINE_HWLOC=OFF; the SimGrid
 * build), a request for levels says so and finds none.
 */
#ifndef VINE_API_LEVELS_HWLOC_H
#define VINE_API_LEVELS_HWLOC_H

#include "../coll/levels_inner.h"

#include <stddef.h>

/* What stopped a rank from looking (vine_inner_where.state). */
enum {
    VINE_WHERE_OK = 0,
    VINE_WHERE_NO_HWLOC = 1, /* built without hwloc */
    VINE_WHERE_NO_TOPO = 2   /* hwloc could not load the topology */
};

typedef struct vine_inner_where {
    int want;                  /* the kinds VINE_NODE_LEVELS asks for (mask); 0: none */
    int state;                 /* VINE_WHERE_*; with want 0 always OK */
    int dom[VINE_INNER_KINDS]; /* the domain of each kind asked for, or VINE_INNER_UNBOUND/ABSENT */
} vine_inner_where;

/*
 * Fills *w for this process, world_rank its rank in MPI_COMM_WORLD (for
 * VINE_TOPOLOGY_FAKE_BIND).  Returns VINE_OK (also when hwloc is missing or
 * fails: w->state says so), or VINE_ERR_UNSUPPORTED for a malformed
 * VINE_NODE_LEVELS or VINE_TOPOLOGY_FAKE_BIND, with one line in err.
 */
int vine__inner_where(int world_rank, vine_inner_where *w, char *err, size_t errlen);

/* Frees the topology kept by vine__inner_where (MPI_Finalize calls it). */
void vine__inner_release(void);

#endif
