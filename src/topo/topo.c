/*
 * The network graph: building, adjacency, names (MPI-free).  See topo.h.
 */
#include "topo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void vine__topo_init(vine_topo *t)
{
    memset(t, 0, sizeof *t);
    t->node_bw = VINE_TOPO_NODE_BW;
    t->node_lat = VINE_TOPO_NODE_LAT;
    t->ports = 1;
}

void vine__topo_free(vine_topo *t)
{
    if (t->vname)
        for (int v = 0; v < t->nvert; v++)
            free(t->vname[v]);
    free(t->vname);
    free(t->kind);
    free(t->group);
    free(t->host_vert);
    free(t->vert_host);
    free(t->links);
    free(t->adj_start);
    free(t->adj_arc);
    vine__topo_init(t);
}

/* Grows *p (elements of size sz) to hold n; 0 on success. */
static int grow(void **p, int *cap, int n, size_t sz)
{
    if (n <= *cap)
        return 0;
    int c = *cap ? *cap : 64;
    while (c < n)
        c *= 2;
    void *q = realloc(*p, (size_t)c * sz);
    if (!q)
        return -1;
    *p = q;
    *cap = c;
    return 0;
}

static int grow_vertices(vine_topo *t, int n)
{
    if (n <= t->vcap)
        return 0;
    int c = t->vcap ? 2 * t->vcap : 64;
    while (c < n)
        c *= 2;
    uint8_t *k = realloc(t->kind, (size_t)c * sizeof *k);
    if (k)
        t->kind = k;
    int *g = realloc(t->group, (size_t)c * sizeof *g);
    if (g)
        t->group = g;
    char **nm = realloc(t->vname, (size_t)c * sizeof *nm);
    if (nm)
        t->vname = nm;
    int *vh = realloc(t->vert_host, (size_t)c * sizeof *vh);
    if (vh)
        t->vert_host = vh;
    if (!k || !g || !nm || !vh)
        return -1;
    t->vcap = c;
    return 0;
}

int vine__topo_add_vertex(vine_topo *t, int kind, int group, const char *name)
{
    if (grow_vertices(t, t->nvert + 1))
        return -1;
    int v = t->nvert;
    t->vname[v] = NULL;
    if (name && !(t->vname[v] = strdup(name)))
        return -1;
    t->kind[v] = (uint8_t)kind;
    t->group[v] = group;
    t->vert_host[v] = -1;
    if (kind == VINE_V_HOST) {
        void *hv = t->host_vert;
        if (grow(&hv, &t->hcap, t->nhosts + 1, sizeof *t->host_vert)) {
            free(t->vname[v]);
            return -1;
        }
        t->host_vert = hv;
        t->vert_host[v] = t->nhosts;
        t->host_vert[t->nhosts++] = v;
    }
    t->nvert++;
    return v;
}

int vine__topo_add_link(vine_topo *t, int a, int b, double bw, double lat, int level)
{
    if (a < 0 || b < 0 || a >= t->nvert || b >= t->nvert || a == b || !(bw > 0) || lat < 0 ||
        level <= VINE_LVL_NODE || level >= VINE_LVL_COUNT)
        return -1;
    void *l = t->links;
    if (grow(&l, &t->lcap, t->nlinks + 1, sizeof *t->links))
        return -1;
    t->links = l;
    t->links[t->nlinks] = (vine_link){a, b, bw, lat, level};
    return t->nlinks++;
}

int vine__topo_finish(vine_topo *t)
{
    free(t->adj_start);
    free(t->adj_arc);
    t->adj_start = calloc((size_t)t->nvert + 1, sizeof *t->adj_start);
    t->adj_arc = malloc(((size_t)t->nlinks * 2 + 1) * sizeof *t->adj_arc);
    if (!t->adj_start || !t->adj_arc)
        return VINE_ERR_NO_MEM;
    for (int i = 0; i < t->nlinks; i++) {
        t->adj_start[t->links[i].a + 1]++;
        t->adj_start[t->links[i].b + 1]++;
    }
    for (int v = 0; v < t->nvert; v++)
        t->adj_start[v + 1] += t->adj_start[v];
    int *fill = malloc(((size_t)t->nvert + 1) * sizeof *fill);
    if (!fill)
        return VINE_ERR_NO_MEM;
    memcpy(fill, t->adj_start, (size_t)t->nvert * sizeof *fill);
    /* Arcs in link order: adjacency lists are deterministic. */
    for (int i = 0; i < t->nlinks; i++) {
        t->adj_arc[fill[t->links[i].a]++] = 2 * i;
        t->adj_arc[fill[t->links[i].b]++] = 2 * i + 1;
    }
    free(fill);
    t->ngroups = 0;
    for (int v = 0; v < t->nvert; v++)
        if (t->group[v] >= t->ngroups)
            t->ngroups = t->group[v] + 1;
    return VINE_OK;
}

const char *vine__topo_vname(const vine_topo *t, int v, char *buf, size_t len)
{
    if (t->vname[v])
        return t->vname[v];
    if (t->kind[v] == VINE_V_HOST)
        snprintf(buf, len, "h%d", t->vert_host[v]);
    else
        snprintf(buf, len, "s%d", v);
    return buf;
}

int vine__topo_find_host(const vine_topo *t, const char *name)
{
    char buf[32];
    for (int h = 0; h < t->nhosts; h++)
        if (strcmp(vine__topo_vname(t, t->host_vert[h], buf, sizeof buf), name) == 0)
            return h;
    return -1;
}
