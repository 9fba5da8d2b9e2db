/*
 * Placement helpers beyond vine__place (topo.h), for the simulator's command
 * line (`vine sim allocations`): host-name lookup in constant time, seeded
 * random allocations, and placement on an explicit list of hosts.
 * MPI-free; every function returns VINE_OK or an enum vine_status, with a
 * message in err for VINE_ERR_UNSUPPORTED.
 */
#ifndef VINE_TOPO_PLACE_H
#define VINE_TOPO_PLACE_H

#include "topo.h"

#include <stddef.h>
#include <stdint.h>

/* Host name -> host index of one topology (names as vine__topo_vname prints
 * them, "h<i>" for unnamed hosts).  Read-only once built; keeps no pointer
 * into t. */
typedef struct vine_hostmap vine_hostmap;

int vine__hostmap_new(const vine_topo *t, vine_hostmap **out);
/* The host index of name, or -1. */
int vine__hostmap_find(const vine_hostmap *m, const char *name);
void vine__hostmap_free(vine_hostmap *m);

/*
 * Draws nhosts distinct hosts of t uniformly at random (every subset of that
 * size equally likely; seeded splitmix64, the same hosts for the same seed on
 * every platform) and writes their indices to hosts[0..nhosts) in ascending
 * order.  This is the allocation of random-groups:seed=S.  Cost: O(t->nhosts).
 */
int vine__place_random_hosts(const vine_topo *t, int nhosts, uint64_t seed, int *hosts, char *err,
                             size_t errlen);

/*
 * Ranks in block order on the given hosts: rank r on hosts[r / ppn].  Fails
 * when nh * ppn < nranks.
 */
int vine__place_on_hosts(const int *hosts, int nh, int ppn, int nranks, int *rank_host, char *err,
                         size_t errlen);

/*
 * The same on hosts given by name (e.g. one allocation from a hostlist
 * expanded with vine__hostlist_expand): fails, naming the host, on a name t
 * does not have or a name given twice.  m may be NULL (built and freed here);
 * pass one to place many allocations on one topology.
 */
int vine__place_host_names(const vine_topo *t, const vine_hostmap *m, char *const *names,
                           int nnames, int ppn, int nranks, int *rank_host, char *err,
                           size_t errlen);

#endif
