/*
 * Network model (MPI-free): a graph of hosts and switches joined by links.
 *
 * Vertices are hosts (compute nodes, where ranks run) and switches (routers).
 * Every vertex belongs to a group: a Dragonfly group, a fat-tree subtree (pod),
 * a torus plane ... as the generator or reader defines it, written beside
 * each generator; -1 for a vertex above all groups (a core switch).  Links
 * are undirected and full duplex: link i is two arcs, 2i (a -> b) and
 * 2i + 1 (b -> a), each with the link's bandwidth, so traffic in one
 * direction does not slow the other.  Each link has a level:
 *
 *   VINE_LVL_HOST    a host to its first switch (NIC link)
 *   VINE_LVL_LOCAL   switch to switch inside one group
 *   VINE_LVL_GLOBAL  between groups (Dragonfly global links, links above the
 *                    tapered level of a fat tree, every link of a torus or mesh)
 *
 * Two ranks on the same host talk through memory (VINE_LVL_NODE): no arc,
 * the host's intra-node bandwidth and latency.
 *
 * Building: vine__topo_init, add vertices and links, vine__topo_finish (which
 * builds the adjacency); then the topology is read-only and may be shared.
 * Every function returns VINE_OK or an enum vine_status and never aborts.
 */
#ifndef VINE_TOPO_H
#define VINE_TOPO_H

#include "../sched/sched.h"

#include <stddef.h>
#include <stdint.h>

enum vine_level {
    VINE_LVL_NODE = 0,   /* inside a host (no link) */
    VINE_LVL_HOST = 1,   /* host to switch */
    VINE_LVL_LOCAL = 2,  /* inside a group */
    VINE_LVL_GLOBAL = 3, /* between groups */
    VINE_LVL_COUNT = 4
};

enum vine_vkind { VINE_V_HOST = 0, VINE_V_SWITCH = 1 };

/* The most ports per host (vine_topo.ports). */
#define VINE_TOPO_MAXPORTS 64

/* The most dimensions of a torus or mesh. */
#define VINE_TOPO_MAXDIM 16

/* The most switch levels of a fat tree (vine__topo_gen_fattree). */
#define VINE_TOPO_FT_MAXLEV 8

typedef struct vine_link {
    int a, b;   /* vertices */
    double bw;  /* bytes per second, each direction */
    double lat; /* seconds per traversal */
    int level;  /* enum vine_level */
} vine_link;

typedef struct vine_topo {
    char name[64]; /* e.g. "dragonfly a=4 p=2 h=2 g=9" or the preset's name */
    int nvert;
    uint8_t *kind; /* per vertex: enum vine_vkind */
    int *group;    /* per vertex: group id, or -1 */
    char **vname;  /* per vertex: malloc'd name, or NULL (printed as h<i>/s<i>) */
    int nhosts;
    int *host_vert; /* host index -> vertex (hosts in the order they were added) */
    int *vert_host; /* vertex -> host index, -1 for a switch */
    int ngroups;    /* group ids are 0 .. ngroups-1 */
    vine_link *links;
    int nlinks;
    /* Adjacency (built by vine__topo_finish): arcs leaving vertex v are
     * adj_arc[adj_start[v] .. adj_start[v + 1]); arc a goes to arc_head(a). */
    int *adj_start;
    int *adj_arc;
    double node_bw, node_lat; /* two ranks on one host */
    /*
     * Ports per host, >= 1 (vine__topo_init sets 1; a generator's ports=
     * option more): a host's NIC link (its one link to a switch) is that
     * many ports of the link's bandwidth / ports each, and the simulator
     * sends a message's bytes through the port of its route's first link
     * (src/sim/sim.h, docs/sim.md).
     */
    int ports;
    /*
     * The grid of the torus, mesh and hypercube generators: host i sits at
     * the row-major coordinates of i in shape[0 .. shape_nd-1] (the last
     * dimension fastest); shape_wrap is 1 for a torus and a hypercube (a
     * torus of 2s), 0 for a mesh.  shape_nd = 0 for every other topology.
     */
    int shape_nd, shape_wrap;
    int shape[VINE_TOPO_MAXDIM];
    /*
     * The fat tree generator's levels, down[] and up[] (topo_gen.h), for
     * vine sim export --cluster (SimGrid's FAT_TREE of the same tree);
     * ft_levels = 0 for every other topology.
     */
    int ft_levels;
    int ft_down[VINE_TOPO_FT_MAXLEV], ft_up[VINE_TOPO_FT_MAXLEV];
    /* growth capacities (private to topo.c) */
    int vcap, lcap, hcap;
} vine_topo;

/* Defaults used by generators unless a spec says otherwise (Slingshot-like). */
#define VINE_TOPO_BW 25e9  /* 200 Gb/s */
#define VINE_TOPO_LAT 1e-6 /* per hop */
#define VINE_TOPO_NODE_BW 100e9
#define VINE_TOPO_NODE_LAT 2e-7

void vine__topo_init(vine_topo *t);
void vine__topo_free(vine_topo *t);
/* Adds a vertex; returns its id, or -1 when out of memory.  name may be NULL. */
int vine__topo_add_vertex(vine_topo *t, int kind, int group, const char *name);
/* Adds an undirected link; returns its index, or -1 (out of memory, bad vertex). */
int vine__topo_add_link(vine_topo *t, int a, int b, double bw, double lat, int level);
/* Builds the adjacency and ngroups; call once after the last addition. */
int vine__topo_finish(vine_topo *t);

static inline int vine__topo_arc_head(const vine_topo *t, int arc)
{
    const vine_link *l = &t->links[arc >> 1];
    return (arc & 1) ? l->a : l->b;
}
static inline int vine__topo_arc_tail(const vine_topo *t, int arc)
{
    const vine_link *l = &t->links[arc >> 1];
    return (arc & 1) ? l->b : l->a;
}

/* Host h's coordinates c[0 .. shape_nd-1] on the grid of t (row-major, the last fastest). */
static inline void vine__topo_grid_coords(const vine_topo *t, int h, int *c)
{
    for (int k = t->shape_nd - 1; k >= 0; k--) {
        c[k] = h % t->shape[k];
        h /= t->shape[k];
    }
}

/* The vertex's name: its own, or "h<host>" / "s<vertex>" (buf holds >= 32 bytes). */
const char *vine__topo_vname(const vine_topo *t, int v, char *buf, size_t len);
/* Finds a host by name; -1 when none has it. */
int vine__topo_find_host(const vine_topo *t, const char *name);

/*
 * Generators (topo_gen.c, declared in topo_gen.h).  Parameters as in the
 * issue; the group of each vertex and the level of each link are documented
 * with each generator.
 *   dragonfly:     a routers per group, p hosts per router, h global links per
 *                  router, g groups (g <= a h + 1; 0 means a h + 1), n hosts
 *                  per group (0 means a p), Kim et al. 2008
 *   dragonflyplus: g groups, each a two-level fat tree of `leaves` leaf and
 *                  `spines` spine switches, p hosts per leaf, h global links
 *                  per spine
 *   fattree:       levels >= 2, down[i]/up[i] ports of a level-i switch (i = 0
 *                  the leaves), groups = the subtrees under level `glevel`
 *   torus / mesh:  nd dimensions of sizes dims[], one host per router
 *   hypercube:     2^d routers, one host each
 */
/*
 * Builds a topology from a spec string (unset *t first with vine__topo_init):
 *   lumi | leonardo | marenostrum5 | fugaku          presets (topo_preset.c)
 *   dragonfly:a=4,p=2,h=2[,g=9]   dragonflyplus:...  fattree:...  torus:4x4x4
 *   mesh:8x8   hypercube:6
 *   edges:FILE   slurm:FILE   ibnet:FILE   simgrid:FILE   (topo_read*.c)
 * Common options after the generator's own: bw=, lat= (every link),
 * hbw=/lbw=/gbw= and hlat=/llat=/glat= (one level), nbw=/nlat= (two ranks
 * on one host), ports= (ports per host: torus, mesh, hypercube and the
 * fugaku preset only); docs/topology.md lists them.  Ranks per host are
 * placement's business, not the topology's.  On failure returns
 * VINE_ERR_UNSUPPORTED (bad spec or malformed file) with a one-line message in
 * err naming the file and line where there is one, or VINE_ERR_NO_MEM; *t is
 * then empty (vine__topo_free may still be called on it).
 */
int vine__topo_parse(const char *spec, vine_topo *t, char *err, size_t errlen);

/* Writes a one-paragraph summary (vertices, hosts, switches, links per level, groups). */
int vine__topo_describe(const vine_topo *t, char *out, size_t len);

/*
 * Placement (topo_place.c): rank_host[r] = the host index of rank r for
 * nranks ranks.  Spec:
 *   block[:ppn=K]            ranks K per host, hosts in order (K default 1)
 *   round-robin[:ppn=K]      rank r on host r mod H' (H' = ceil(nranks / K))
 *   random-groups[:seed=S][,ppn=K]  ceil(nranks / K) hosts drawn at random
 *                            (seeded, uniform over all hosts), sorted by host
 *                            index, ranks in block order on them, as a batch
 *                            scheduler hands out a fragmented allocation
 *   hosts:FILE[,ppn=K]       hosts named one per line (scontrol show hostnames;
 *                            blank and '#' lines skipped)
 * Fails with a message when the hosts are too few or a name is unknown.
 */
int vine__place(const vine_topo *t, const char *spec, int nranks, int *rank_host, char *err,
                size_t errlen);

/*
 * Expands a Slurm hostlist expression ("node[001-004,010],gpu7") into names,
 * written into *names (malloc'd array of malloc'd strings, *n of them).
 * Returns VINE_ERR_UNSUPPORTED on a malformed expression (message in err).
 */
int vine__hostlist_expand(const char *expr, char ***names, int *n, char *err, size_t errlen);
void vine__hostlist_free(char **names, int n);

#endif
