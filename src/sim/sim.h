/*
 * The traffic and time simulator (MPI-free): replays the schedules of every
 * rank of a collective on a topology model (src/topo/topo.h).
 *
 * Steps.  Messages are matched as the executor and the verifier match them
 * (the k-th send from a to b meets the k-th receive at b from a) and each gets
 * a step.  A rank's first round starts at step 0 and each later round when the
 * previous one ends; a message travels in the step when both its send's and
 * its receive's rounds have started (the larger of the two start steps); a
 * round ends one step after its last message (at its start when it has none).
 * `steps` is the number of steps in which some message travels.
 *
 * Routing.  A message between ranks on different hosts follows the minimal
 * paths between the two hosts: those with the fewest GLOBAL links and, among
 * them, the fewest links (on a Dragonfly Kim et al.'s minimal routing,
 * local-global-local, where the fewest links alone would also take
 * global-global paths through a third group; on tori and fat trees simply the
 * fewest links).  Where several exist, its bytes split evenly over the next
 * hops that lie on a minimal path, at every vertex (deterministic).  Two
 * ranks on one host use no link (level NODE).
 *
 * Counts.  bytes: the sum of message sizes.  level_bytes[L]: bytes times the
 * links of level L they traverse (NODE: the bytes of intra-host messages).
 * cross_group_bytes: bytes of messages between hosts in different groups,
 * each counted once, as the Bine paper counts global traffic (section 2.4.2);
 * two hosts in no group (-1) count as one group.
 *
 * Time.  Step-synchronous: a step lasts as long as its slowest message, a
 * message's time being the sum of the latencies of the hops on its (longest)
 * minimal path plus, over the arcs it uses, the largest bytes-over-bandwidth
 * of that arc in this step (all the step's flows on an arc share it).
 * Intra-host messages take node_lat + bytes / node_bw (each alone).  Local
 * reductions and copies cost nothing here.
 */
#ifndef VINE_SIM_H
#define VINE_SIM_H

#include "../coll/coll.h"
#include "../topo/topo.h"

#include <stddef.h>

typedef struct vine_sim_result {
    int steps;
    size_t messages;
    double bytes;
    double level_bytes[VINE_LVL_COUNT];
    double cross_group_bytes;
    double max_arc_bytes; /* the most loaded arc over the whole run */
    int max_arc;          /* its arc index (topo.h), -1 when no link carried bytes */
    double time;          /* predicted seconds */
} vine_sim_result;

/* Routing state for one topology: caches minimal paths; not thread-safe. */
typedef struct vine_router vine_router;

int vine__router_new(const vine_topo *t, vine_router **out);
void vine__router_free(vine_router *r);

/*
 * Replays algorithm algo for the case a (a->p ranks; a->rank ignored;
 * a->counts/displs as the verifier fills them for vector collectives) with
 * rank r on host rank_host[r].  Counts in a are elements of elem_bytes bytes.
 * Returns VINE_OK, VINE_ERR_UNSUPPORTED (the algorithm's restrictions exclude
 * the case), VINE_ERR_INTERNAL (schedules whose messages do not match, or
 * that deadlock) or VINE_ERR_NO_MEM (out of memory, or past the simulator's
 * 3 GiB limit on message records); err says which in one line.
 */
int vine__sim_run(vine_router *r, const int *rank_host, const vine_algo *algo, const vine_args *a,
                  size_t elem_bytes, vine_sim_result *res, char *err, size_t errlen);

#endif
