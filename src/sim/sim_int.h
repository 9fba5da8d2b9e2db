/*
 * The simulator's router (private to src/sim): minimal-path routes with the
 * even split of sim.h, cached.
 *
 * Leaf hosts (a host with one link, to a vertex of degree > 1) never lie
 * inside a minimal path, so routes are computed on the "core" graph without
 * them: a message from host u to host v takes u's NIC arc, the core route
 * from u's anchor (its switch) to v's anchor, and v's NIC arc.  A host with
 * several links stays in the core and is its own anchor.
 *
 * Distances come from rows: row d holds every core vertex's hop distance to
 * core vertex d (one BFS, computed when a route to d is first needed), one
 * byte per entry when the diameter allows, within a memory budget (rows are
 * evicted round-robin past it).  A route is walked along the arcs that lower
 * the distance to d by one, splitting each vertex's share evenly over them,
 * and cached by (source anchor, destination anchor), also within a budget
 * (the whole cache is dropped when full; `epoch` counts the drops).
 */
#ifndef VINE_SIM_INT_H
#define VINE_SIM_INT_H

#include "sim.h"

#include <stdint.h>

typedef struct vine_route {
    uint32_t off, n; /* arcs r->parc[off, off + n) with shares r->pfrac[...] */
    double lat;      /* the largest latency sum over the minimal paths */
    double cmax;     /* simulator scratch: max load / bw over the arcs ... */
    uint32_t stamp;  /* ... valid while it equals the router's stamp (set per step) */
} vine_route;

struct vine_router {
    const vine_topo *t;
    int narcs;
    int ncore;
    int *core_vert;    /* core index -> vertex */
    int *anchor;       /* vertex -> core index where its traffic enters the core */
    int *up_arc;       /* vertex -> arc from a leaf host to its anchor; -1 for core vertices */
    int *cadj_start;   /* core adjacency (CSR over core indices) */
    int *cadj_arc;     /* the arc */
    int *cadj_head;    /* the core index of its head */
    uint32_t *cadj_wt; /* its weight in the metric (below) */
    double *arc_lat;   /* per arc */
    double *arc_ibw;   /* per arc: 1 / bandwidth */
    uint8_t *arc_lvl;  /* per arc: the link's level */
    int ports;         /* per host (topo.h), >= 1 */
    int *arc_port;     /* ports > 1: per core arc, its port at its tail (sim.h); else NULL */

    /* Distance rows: per core vertex, the metric's distance to the row's vertex. */
    int metric;    /* enum vine_route_metric */
    uint32_t kmul; /* VINE_ROUTE_GLOBAL_FIRST: distance = globals * kmul + links */
    int width;     /* bytes per entry: 1, 2 or 4 */
    uint32_t inf;  /* "unreachable" in that width */
    size_t row_bytes;
    int nslots;
    unsigned char *rows; /* nslots rows */
    int *slot_of;        /* core index -> slot holding its row, or -1 */
    int *slot_dest;      /* slot -> core index, or -1 */
    int next_slot;       /* round-robin eviction */
    int *queue;          /* BFS and layer scratch (ncore) */
    int *queue2;

    /* Route walk scratch, per core vertex, stamped with gen. */
    uint32_t *vgen;
    uint32_t gen;
    double *vflow, *vlat;
    uint64_t *vkey;      /* sorting scratch (ncore) */
    int *vindeg, *vhops; /* DAG arcs into and out of each vertex */
    int *tarc;           /* the route being built: arcs and shares (core arcs) */
    double *tfrac;

    /* Route cache: open addressing on (source << 32 | destination). */
    uint64_t *keys; /* UINT64_MAX: empty */
    uint32_t *ids;
    size_t tab_cap, tab_used;
    vine_route *routes;
    size_t nroutes, routes_cap;
    int *parc;
    double *pfrac;
    size_t pool_n, pool_cap;
    size_t max_routes, max_pool; /* cache budgets */
    unsigned epoch;              /* bumped whenever the cache is dropped */
    uint32_t stamp;              /* the simulator's step stamp, never 0 */
    vine_sim_factor latf, bwf;   /* per-message factors (sim.h); n = 0: none */
    int clock;                   /* 1: per-rank clock (sim.h) */
};

/*
 * Which paths are minimal.  VINE_ROUTE_HOPS: the fewest links.
 * VINE_ROUTE_GLOBAL_FIRST (the default, as sim.h says): the fewest GLOBAL
 * links, then the fewest links; on a Dragonfly this is Kim et al.'s minimal routing
 * (local, global, local), where the fewest links alone would also take
 * global-global and global-local-global paths between some router pairs.
 * Drops the cached rows and routes; VINE_ERR_UNSUPPORTED when the graph's
 * distances do not fit the rows (paths of more than 65,534 links).
 */
enum vine_route_metric { VINE_ROUTE_HOPS = 0, VINE_ROUTE_GLOBAL_FIRST = 1 };
int vine__router_set_metric(vine_router *r, int metric);

/*
 * Index of the route between core vertices cs and cd (computing and caching
 * it when needed); the pointer &r->routes[i] stays valid until the next call.
 * Returns -1 when out of memory, -2 when cd cannot be reached from cs.
 */
long vine__route_get(vine_router *r, int cs, int cd);

/* Drops every cached route (and their stamps). */
void vine__route_clear(vine_router *r);

/*
 * Shrinks the router's budgets (for tests of the eviction paths): at most
 * nslots distance rows, max_routes cached routes, max_pool cached arcs;
 * 0 keeps a budget as it is.  Drops the cached rows and routes.
 */
void vine__router_limit(vine_router *r, int nslots, size_t max_routes, size_t max_pool);

/* One message of a replay: sender, receiver, step, count in elements. */
typedef struct vine_sim_msg {
    int src, dst, step;
    uint64_t count;
} vine_sim_msg;

/*
 * The messages of a case with their steps (sim.h), ordered by step, then
 * sender, then posting order; *msgs is malloc'd (NULL when there are none).
 * Returns as vine__sim_run.  For tests and tools.
 */
int vine__sim_steps(const vine_algo *algo, const vine_args *a, vine_sim_msg **msgs, size_t *n,
                    char *err, size_t errlen);

#endif
