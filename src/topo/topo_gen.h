/*
 * Topology generators and presets (MPI-free).  docs/topology.md describes
 * every generator's vertices, groups and link levels, the spec syntax of
 * vine__topo_parse (topo_parse.c) and the presets' sources and assumptions.
 *
 * Each generator fills a topology initialised with vine__topo_init, names it
 * (t->name), sets its intra-node bandwidth and latency from the link
 * parameters and calls vine__topo_finish.  Parameters are checked first:
 * out of range -> VINE_ERR_UNSUPPORTED with a one-line message in err and *t
 * untouched; out of memory while building -> VINE_ERR_NO_MEM with *t holding
 * a partial graph (free it with vine__topo_free).  No generator builds more
 * than VINE_TOPO_GEN_MAX vertices or links.
 *
 * Vertex order: hosts are added in the order of their position (group by
 * group, switch by switch), so host indices, and with them block placement,
 * follow the network's locality.
 */
#ifndef VINE_TOPO_GEN_H
#define VINE_TOPO_GEN_H

#include "topo.h"

#include <stddef.h>

#define VINE_TOPO_GEN_MAX (1 << 24)

/* Bandwidth (bytes per second, each direction) and latency (seconds per
 * traversal) per link level, the intra-node pair for two ranks on one host,
 * and the ports of every host (topo.h: vine_topo.ports). */
typedef struct vine_topo_linkparams {
    double host_bw, local_bw, global_bw;
    double host_lat, local_lat, global_lat;
    double node_bw, node_lat;
    int ports;
} vine_topo_linkparams;

/* Every link VINE_TOPO_BW / VINE_TOPO_LAT, intra-node VINE_TOPO_NODE_BW / _LAT, one port. */
void vine__topo_linkparams_default(vine_topo_linkparams *lp);

/*
 * Dragonfly (Kim, Dally, Scott, Abts, ISCA 2008): g groups of a routers,
 * routers of a group joined all-to-all (LOCAL), p host ports per router
 * (HOST) and h global ports per router (GLOBAL).  g = 0 means a h + 1 (the
 * largest g; one global link between each pair of groups); 1 <= g <= a h + 1.
 * n = hosts per group (0 means a p; fewer leave the last routers' host
 * ports empty, filled p at a time in router order).  Global links: every
 * pair of groups gets floor(a h / (g - 1)) links, then the remaining r ports
 * of each group join groups at circulant offsets 1 .. r/2 (and g/2 when r is
 * odd and g even; when both are odd one port per group stays empty).  Group
 * x's global ports are numbered, the k-th on router k / h, and taken in the
 * order the links are made (pairs in lexicographic order, round after
 * round): with g = a h + 1 this is the "absolute" arrangement, port k of
 * group x going to group k (k < x) or k + 1.  Group = dragonfly group.
 */
int vine__topo_gen_dragonfly(vine_topo *t, int a, int p, int h, int g, int n,
                             const vine_topo_linkparams *lp, char *err, size_t errlen);

/*
 * Dragonfly+ (Shpiner et al., HiPINEB 2017): g groups, each a two-level fat
 * tree of `leaves` leaf switches with p hosts each (HOST) and `spines` spine
 * switches, every leaf joined to every spine (LOCAL); each spine has h global
 * ports (GLOBAL) arranged as in the dragonfly with a = spines.  g = 0 means
 * spines h + 1; 1 <= g <= spines h + 1.  Group = dragonfly+ group.
 */
int vine__topo_gen_dragonflyplus(vine_topo *t, int g, int leaves, int spines, int p, int h,
                                 const vine_topo_linkparams *lp, char *err, size_t errlen);

/*
 * Fat tree of `levels` switch levels (2 .. VINE_TOPO_FT_MAXLEV; level 0 the
 * leaves), the extended generalized fat tree XGFT of Ohring et al. (1995): a
 * level-i switch has down[i] children (hosts for i = 0) and up[i] parents
 * (i < levels - 1; the top level has none), so down[i] : up[i] is the
 * oversubscription of level i.  Hosts = the product of down[].  Level i has
 * prod(down[j], j > i) * prod(up[j], j < i) switches; switch (s, r) at level
 * i (s = its subtree, r = its replica) links to the parents
 * (s / down[i + 1], r + k prod(up[j], j < i)), k < up[i].  Groups: the
 * subtrees under level glevel (0 <= glevel < levels; -1 means levels - 2);
 * links from level glevel up are GLOBAL, those below LOCAL, host links HOST;
 * switches above glevel are in no group (-1).  The Bine paper's Fig. 1 is
 * down = {2, 4}, up = {1}, glevel 0.
 */
int vine__topo_gen_fattree(vine_topo *t, int levels, const int *down, const int *up, int glevel,
                           const vine_topo_linkparams *lp, char *err, size_t errlen);

/*
 * Torus (wrap = 1) or mesh (wrap = 0) of nd dimensions (1 .. VINE_TOPO_MAXDIM,
 * topo.h) of sizes dims[] >= 1, one router per point with one host (HOST);
 * router links are GLOBAL and each router with its host is a group of its
 * own (a torus has no tighter unit; every hop between hosts crosses the
 * network).  Points in row-major order (the last dimension fastest), which
 * vine_topo.shape records.  A torus dimension of size 2 has one link between
 * its two points, not two.
 */
int vine__topo_gen_torus(vine_topo *t, int nd, const int *dims, int wrap,
                         const vine_topo_linkparams *lp, char *err, size_t errlen);

/* Hypercube of 2^d routers (1 <= d <= 24), one host each; levels and
 * groups as for the torus.  Router i links to i ^ 2^k.  Up to d = 16 its
 * shape is the torus 2x2x...x2 (bit d-1-k of i is coordinate k). */
int vine__topo_gen_hypercube(vine_topo *t, int d, const vine_topo_linkparams *lp, char *err,
                             size_t errlen);

/*
 * Presets (topo_preset.c): a machine of the Bine paper built by one
 * generator; lp holds the preset's own link parameters, possibly changed
 * by the spec's options.  docs/topology.md gives sources and assumptions.
 */
typedef struct vine_topo_preset {
    const char *name;
    const char *summary; /* one line: the generator spec it stands for, sizes */
    int hosts, groups;   /* what it builds (checked by the unit test) */
    void (*links)(vine_topo_linkparams *lp);
    int (*build)(vine_topo *t, const vine_topo_linkparams *lp, char *err, size_t errlen);
} vine_topo_preset;

int vine__topo_preset_count(void);
const vine_topo_preset *vine__topo_preset_at(int i);
/* NULL when no preset has that name. */
const vine_topo_preset *vine__topo_preset_find(const char *name);

#endif
