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
 *
 * Ports.  A host with a NIC link (one link, to a switch or router) and
 * k = vine_topo.ports ports sends and receives through k ports of the
 * link's bandwidth / k each.  A message's bytes leave the source host
 * through the port of its route's first link: the share of its bytes that
 * takes core arc a out of the source router goes through port
 * port(a), and the share that enters the destination router over arc b
 * comes in through the destination's port port(b ^ 1) (the reverse arc,
 * which leaves it).  port(a): on a grid (torus, mesh, hypercube: topo.h
 * shape) the arc's direction, 2 d for +d and 2 d + 1 for -d, modulo k; on
 * other graphs the arc's position among its tail's core arcs, modulo k.  A
 * message between two hosts on one switch (no core arc) uses port
 * (destination host mod k) at the source and (source host mod k) at the
 * destination.  In the time model a port is one more shared resource:
 * the message's bandwidth term takes, beside its core arcs, the largest
 * (this step's bytes through the port) / (bandwidth / k) over the ports
 * its shares use, in place of the NIC arc's load / bandwidth.  So messages
 * of one step through one port serialise (their bytes add up), messages
 * through different ports do not.  With k = 1 the port is the NIC arc and
 * the model is the one above, unchanged.  A host with several links (a
 * file's multi-rail host) has no NIC link: its links are its ports already.
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
    /*
     * Ports (above) over the whole run: the most bytes through one port in
     * one direction, that port (host * ports + port, -1 when none carried
     * bytes) and its direction (0 sent, 1 received); the mean bytes sent
     * through a port (= the mean received) over the ports of the hosts that
     * hold ranks and have a NIC link.  With one port per host a port is the
     * host's NIC arc.
     */
    double max_port_bytes;
    int max_port, max_port_in;
    double mean_port_bytes;
} vine_sim_result;

/* Routing state for one topology: caches minimal paths; not thread-safe. */
typedef struct vine_router vine_router;

int vine__router_new(const vine_topo *t, vine_router **out);
void vine__router_free(vine_router *r);

/*
 * Per-message factors of the time model, as SimGrid's SMPI applies them
 * (smpi/lat-factor, smpi/bw-factor): a message of b bytes between two hosts
 * takes lat(b) times its route's latency, and its bandwidth term divided by
 * bw(b).  Each is a step function given as "T0:V0;T1:V1;..." (SMPI's
 * syntax): the value of the largest threshold T <= b, 1 below the smallest;
 * thresholds in any order, at most VINE_SIM_FACTORS_MAX.  Messages inside a
 * host keep the host's own latency and bandwidth.  A new router has none
 * (every factor 1).
 */
#define VINE_SIM_FACTORS_MAX 32
typedef struct vine_sim_factor {
    int n;                            /* 0: the factor is 1 */
    double at[VINE_SIM_FACTORS_MAX];  /* thresholds in bytes, ascending */
    double val[VINE_SIM_FACTORS_MAX]; /* the factor from at[i] up */
} vine_sim_factor;

/* SimGrid 3.32's defaults of smpi/lat-factor and smpi/bw-factor. */
#define VINE_SIM_SMPI_LAT_FACTOR                                                                   \
    "65472:11.6436;15424:3.48845;9376:2.59299;5776:2.18796;3484:1.88101;1426:1.61075;"             \
    "732:1.9503;257:1.95341;0:2.01467"
#define VINE_SIM_SMPI_BW_FACTOR                                                                    \
    "65472:0.940694;15424:0.697866;9376:0.58729;5776:1.08739;3484:0.77493;1426:0.608902;"          \
    "732:0.341987;257:0.338112;0:0.812084"

/*
 * Parses spec into f: SMPI's syntax above, or "smpi-lat" / "smpi-bw" for
 * the defaults, or "none" (every factor 1).  Values must be positive and
 * finite, thresholds non-negative and distinct.  VINE_OK, or
 * VINE_ERR_UNSUPPORTED with one line in err.
 */
int vine__sim_factor_parse(const char *spec, vine_sim_factor *f, char *err, size_t errlen);
/* The factor of a message of b bytes. */
double vine__sim_factor_at(const vine_sim_factor *f, double b);
/*
 * The time model's clock.  By default (per_rank 0) step-synchronous: a step
 * lasts as long as its slowest message and the time is the sum of the steps.
 * With per_rank 1 each rank keeps its own clock: a message of a step starts
 * when both its sender and its receiver are there (the later of their
 * clocks), takes the same duration as in the step model (its latency and
 * the step's contention on its links), and moves both ends' clocks to its
 * end (a rank's several messages of one step run side by side); the time is
 * the latest rank's clock.  A rank then waits only for its own partners.
 */
void vine__router_set_clock(vine_router *r, int per_rank);
/* Sets the router's factors (NULL: none). */
void vine__router_set_factors(vine_router *r, const vine_sim_factor *lat,
                              const vine_sim_factor *bw);

/*
 * Replays algorithm algo for the case a (a->p ranks; a->rank ignored;
 * a->counts/displs as the verifier fills them for vector collectives; the v
 * collectives' tables of every rank, vstride p for alltoallv and alltoallw,
 * as vine__verify_vtables or vine__vdist_tables make them) with
 * rank r on host rank_host[r].  Counts in a are elements of elem_bytes bytes.
 * a->levels goes to the builders as it is: for the hierarchical algorithms
 * make it with vine__sim_levels from the same rank_host (below), so that they
 * group the ranks as the routes do.
 * Returns VINE_OK, VINE_ERR_UNSUPPORTED (the algorithm's restrictions exclude
 * the case), VINE_ERR_INTERNAL (schedules whose messages do not match, or
 * that deadlock) or VINE_ERR_NO_MEM (out of memory, or past the simulator's
 * 3 GiB limit on message records); err says which in one line.
 */
int vine__sim_run(vine_router *r, const int *rank_host, const vine_algo *algo, const vine_args *a,
                  size_t elem_bytes, vine_sim_result *res, char *err, size_t errlen);

/*
 * vine__sim_run, and when port_bytes is not NULL the bytes through every
 * port over the run into it: 2 * nhosts * ports entries (nhosts and ports
 * of the router's topology), sent by host h through its port j at
 * [h * ports + j], received at [(nhosts + h) * ports + j]; zero for the
 * hosts without a NIC link.
 */
int vine__sim_run_ports(vine_router *r, const int *rank_host, const vine_algo *algo,
                        const vine_args *a, size_t elem_bytes, vine_sim_result *res,
                        double *port_bytes, char *err, size_t errlen);

/*
 * The name of port j of t's hosts into buf: on a grid the directions it
 * serves, "+x", "-y" (dimensions x, y, z up to three, else "+d0" ...),
 * comma-separated when several share it; elsewhere "port<j>".
 */
void vine__sim_port_name(const vine_topo *t, int port, char *buf, size_t len);

/*
 * Levels of a placement (sim_levels.c).  The hierarchical algorithms
 * (VINE_ALGO_LEVELS) read a level map from vine_args.levels; to simulate them
 * on what the network really groups, the map comes from the same topology
 * and rank_host that vine__sim_run routes on.  Three groupings are
 * candidates, finest first:
 *
 *   VINE_SIM_LV_NODE    ranks on one host
 *   VINE_SIM_LV_SWITCH  hosts on one switch: the host link's other end (a
 *                       Dragonfly router, a Dragonfly+ or fat-tree leaf); a
 *                       host linked to no switch or to several is alone
 *   VINE_SIM_LV_GROUP   hosts in one topology group (vine_topo.group: a
 *                       Dragonfly or Dragonfly+ group, a fat-tree subtree);
 *                       hosts in no group (-1) count as one group, as the
 *                       simulator's cross-group bytes count them
 *
 * A level's group is its key together with every coarser key, so the levels
 * nest whatever a topology file says.  A grouping that separates no ranks
 * (all ranks in one group, or the same partition as the grouping below it:
 * one rank per host makes the node level go, one host per switch the switch
 * level) is dropped.  Meshes make every router with its host a group of
 * its own, so only the node level can remain there.
 *
 * Tori (issue 23; topo.h: a grid with shape_wrap, the torus generator, the
 * fugaku preset, a hypercube of d <= 16) give instead the map of the job's
 * torus (coll/torus.h), when the ranks' hosts are a box of the torus (the
 * product of one set of coordinates per dimension: the whole torus, a
 * sub-torus, any slice) with the same number c of ranks on each: the
 * dimensions in which the box has more than one coordinate, A x B x ...,
 * and with c > 1 the host's ranks as one more dimension, the fastest (so
 * level 0 stays the node): A x B x ... x c.  Its levels, finest first: the
 * node (c > 1), then groups of hosts agreeing on every coordinate but the
 * last 1, 2, ... dimensions of the box (torus lines, planes ...; kind
 * VINE_SIM_LV_TORUS + the dimensions a group spans).  With block placement
 * on a whole torus AxBxC (no dimension of 1) this is "torus:AxBxC", with
 * ppn=c "torus:AxBxCxc".  Coordinates follow torus.h (a group's position
 * among its parent's groups, in order of their lowest ranks), which is the
 * network's order when ranks fill hosts in host order (block,
 * random-groups).  A box of one dimension (a ring) with one rank per host
 * is flat (torus.h: one dimension of p).  Other placements (hosts not a
 * box, uneven ranks per host, more than VINE_LEVELS_MAX levels) get the
 * node, switch and group levels as above.
 */
enum vine_sim_lkind {
    VINE_SIM_LV_NODE = 0,
    VINE_SIM_LV_SWITCH = 1,
    VINE_SIM_LV_GROUP = 2,
    VINE_SIM_LV_COUNT = 3,
    VINE_SIM_LV_TORUS = 16 /* + k: torus groups spanning k dimensions, 1 .. */
};

/*
 * Makes the finished level map of p ranks placed by rank_host on t into *m
 * (free it with vine__levels_free).  kind, when not NULL, holds
 * VINE_LEVELS_MAX entries and gets the grouping of each level of the map;
 * when no grouping separates the ranks, *m is one level with every rank alone
 * (vine__levels_flat says so: the hierarchical algorithms skip) and kind[0]
 * is -1.  Returns VINE_OK; VINE_ERR_UNSUPPORTED (p < 1, a host out of range)
 * with one line in err; VINE_ERR_NO_MEM.  On failure *m is empty.
 */
int vine__sim_levels(const vine_topo *t, const int *rank_host, int p, vine_levels *m, int *kind,
                     char *err, size_t errlen);

/* "node", "switch", "group", "torus line", "torus plane", "torus 3D" ... for a
 * vine_sim_lkind; "level" for anything else. */
const char *vine__sim_level_name(int kind);

/*
 * The switch that host vertex v hangs off (its one switch neighbour), or v
 * itself for a host with no switch or with links to several.
 */
int vine__sim_host_switch(const vine_topo *t, int v);

/*
 * Levels inside the hosts (issue 18; `vine sim traffic --numa K`): the ranks
 * of each host, in rank order, split into k domains of consecutive ranks
 * (sizes differing by one at most; a host of fewer than k ranks has
 * domains of one).  *full gets a finished map with the domains at level 0,
 * the hosts at level 1 (full->node = 1) and above them the levels of m (the
 * map vine__sim_levels made from the same placement) that are coarser than
 * the hosts.  When the domains are the hosts everywhere, or single ranks
 * everywhere, there is no level inside the hosts and *full stays empty.
 * Returns VINE_OK, VINE_ERR_UNSUPPORTED (k < 1, a host out of range) with
 * one line in err, or VINE_ERR_NO_MEM.
 */
int vine__sim_levels_numa(const vine_levels *m, const int *rank_host, int nhosts, int p, int k,
                          vine_levels *full, char *err, size_t errlen);

#endif
