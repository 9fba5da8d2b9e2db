/*
 * Discovering the levels of locality of a communicator (issue 8, item 1):
 * the level map of src/coll/levels.h that hierarchical collectives build on.
 *
 * Level 0 is the node: the ranks that MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)
 * puts together.  The levels above it come from VINE_TOPOLOGY, read on the
 * communicator's rank 0 (src/topo/hostgroups.h: a host-to-groups map, a Slurm
 * topology.conf, an ibnetdiscover dump, or a hostname rule), applied to every
 * rank's MPI_Get_processor_name.  Levels that separate no ranks of this
 * communicator (one group holding all of them, or the same groups as the
 * level below) are left out, so nlevels is 1 .. 1 + VINE_HOSTGROUPS_MAX.
 *
 * Test only: VINE_TOPOLOGY_FAKE_HOSTS gives each process a pretend host in
 * place of its processor name, and the node level follows the pretend hosts
 * (ranks with the same pretend host form a node), so that one machine can
 * stand for many.  The process's rank in MPI_COMM_WORLD w (in the
 * communicator under the MPI 4 sessions model alone) picks its host:
 *
 *   block:K          host "h<w / K>": K consecutive ranks per host
 *   sizes:A,B,...    runs of A, B, ... consecutive ranks on hosts h0, h1, ...,
 *                    the sizes repeating ("sizes:1,3,5,7": hosts of 1, 3, 5, 7 ranks)
 *   list:N0,N1,...   host N<w>; as many names as processes
 *
 * Below the node, VINE_NODE_LEVELS adds the NUMA domains, packages and
 * shared caches the ranks are bound to (levels_hwloc.h, issue 18), in a
 * full map apart from the one above: vine__levels_discover_all.
 *
 * Docs: docs/topology-files.md, "Levels for hierarchical collectives" and
 * "Levels inside the node".
 */
#ifndef VINE_API_LEVELS_MPI_H
#define VINE_API_LEVELS_MPI_H

#include "../coll/levels.h"

#include <mpi.h>
#include <stddef.h>

/*
 * Discovers the levels of comm (collective over comm; an intracommunicator).
 * Returns MPI_SUCCESS with *out finished (free it with vine__levels_free) and
 * one line in msg saying what was found: the levels, or, when VINE_TOPOLOGY
 * is not set, "no topology information above the nodes ..." with the nodes
 * as the only level (flat when there is one node, or one rank per node).  Every rank returns the same outcome: MPI_ERR_OTHER when the
 * topology information cannot be used (a malformed file, named with its line;
 * a host the file does not list; groups that do not nest; a bad
 * VINE_TOPOLOGY_FAKE_HOSTS), MPI_ERR_NO_MEM, or the error of a failed MPI
 * call, with *out empty and the reason in msg.  msg may be NULL.
 */
int vine__levels_discover(MPI_Comm comm, vine_levels *out, char *msg, size_t msglen);

/*
 * The same, with the levels inside the nodes that VINE_NODE_LEVELS asks for
 * (levels_hwloc.h, levels_inner.h): *out as above (level 0 the node), and
 * *full the full map (full->node > 0: levels 0 .. node-1 inside the nodes,
 * the levels of *out above) when any level inside the nodes was found,
 * else empty (group NULL).  msg ends with what was found inside the nodes
 * ("; inside the nodes: numa (4 groups)") or why nothing was ("; no levels
 * inside the nodes: built without hwloc"), nothing when none were asked
 * for.  A malformed VINE_NODE_LEVELS or VINE_TOPOLOGY_FAKE_BIND, or one that
 * differs between ranks, is an error like a bad VINE_TOPOLOGY.  Free both.
 */
int vine__levels_discover_all(MPI_Comm comm, vine_levels *out, vine_levels *full, char *msg,
                              size_t msglen);
/* What msg says when an MPI call failed during discovery (not the settings' fault). */
#define VINE_LEVELS_MPI_FAILED "an MPI call failed while discovering the levels"

#endif
