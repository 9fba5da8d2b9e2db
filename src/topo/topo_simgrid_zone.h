/*
 * SimGrid platforms written as an explicit graph (MPI-free, private to
 * src/topo): one zone of <host>, <router> and <link> elements joined by
 * <route>s of one link each, as vine__topo_write_simgrid writes them and
 * vine__topo_read_simgrid reads them back (when the file holds no <cluster>).
 *
 * The reader's XML walker hands every start tag to vine__sgz_elem, which
 * keeps what the graph needs (pointers into the file's buffer, so the buffer
 * must outlive vine__sgz_build); vine__sgz_build then checks and builds it.
 *
 * vine's own fields ride in <prop>s SimGrid ignores: the zone's vine_name,
 * vine_node_bw, vine_node_lat and vine_group:ROUTER (a router holds no
 * prop); a host's vine_group; a link's vine_level (host, local, global),
 * vine_bw (its own bandwidth where the bandwidth= attribute holds the sum of
 * parallel links) and vine_parallel (the link, named, whose two ends it
 * shares: SimGrid routes a pair of neighbours over one link only), with
 * vine_direction DOWN when it joins them the other way round.
 */
#ifndef VINE_TOPO_SIMGRID_ZONE_H
#define VINE_TOPO_SIMGRID_ZONE_H

#include "topo.h"

#include <stddef.h>

/* A SimGrid quantity ("10Gbps", "1us", or a bare number) into *out; 1 on success. */
typedef int (*vine_sg_unit_fn)(const char *s, int bandwidth, double *out);

typedef struct vine_sgz_vert {
    const char *id;
    int line, host;
} vine_sgz_vert;

typedef struct vine_sgz_link {
    const char *id, *bw, *lat, *level, *own_bw, *parallel, *direction;
    int line, a, b; /* a, b: -1 until a route names the link */
} vine_sgz_link;

typedef struct vine_sgz_route {
    const char *src, *dst, *link;
    int line, nlinks, down;
} vine_sgz_route;

typedef struct vine_sgz_gprop {
    const char *router, *value;
    int line;
} vine_sgz_gprop;

typedef struct vine_sgz {
    vine_sgz_vert *v;
    vine_sgz_link *l;
    vine_sgz_route *r;
    vine_sgz_gprop *g;
    int nv, nl, nr, ng, cv, cl, cr, cg;
    const char *name, *node_bw, *node_lat;
} vine_sgz;

void vine__sgz_init(vine_sgz *z);
void vine__sgz_free(vine_sgz *z);
/* One start tag: its name, its parent's name (NULL for the root), its attributes. */
int vine__sgz_elem(vine_sgz *z, const char *name, const char *parent, char **an, char **av, int na,
                   int line);
/* Builds and finishes *t from the elements kept; errors as the readers' (topo_read.h). */
int vine__sgz_build(const vine_sgz *z, vine_sg_unit_fn unit, vine_topo *t, const char *path,
                    char *err, size_t errlen);

#endif
