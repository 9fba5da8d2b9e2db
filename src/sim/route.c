/*
 * Minimal-path routing with the even split of sim.h, for the simulator
 * (design in sim_int.h).
 *
 * Cost: a distance row is one BFS of the core graph, O(V + E), done once per
 * destination that messages go to while the rows fit their budget (all of
 * them up to about 16,000 switches at one byte per entry); with the
 * global-first metric a row is one BFS over local links per number of global
 * links, the sources of each phase sorted.  A route walk touches the arcs
 * leaving the vertices of its minimal-path DAG.  On a Dragonfly the DAG has a
 * handful of vertices, on a torus it can span the box between the two ends,
 * which is why walked routes are cached.
 */
#include "sim_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Memory budgets: distance rows, cached routes, cached arcs. */
#define ROW_BUDGET ((size_t)256 << 20)
#define MAX_ROUTES ((size_t)1 << 20)
#define MAX_POOL ((size_t)1 << 22)

static inline uint32_t rdist(const vine_router *r, const unsigned char *row, int i)
{
    switch (r->width) {
    case 1:
        return row[i];
    case 2:
        return ((const uint16_t *)(const void *)row)[i];
    default:
        return ((const uint32_t *)(const void *)row)[i];
    }
}

static inline void wdist(const vine_router *r, unsigned char *row, int i, uint32_t d)
{
    switch (r->width) {
    case 1:
        row[i] = (unsigned char)d;
        break;
    case 2:
        ((uint16_t *)(void *)row)[i] = (uint16_t)d;
        break;
    default:
        ((uint32_t *)(void *)row)[i] = d;
        break;
    }
}

void vine__router_free(vine_router *r)
{
    if (!r)
        return;
    free(r->core_vert);
    free(r->anchor);
    free(r->up_arc);
    free(r->cadj_start);
    free(r->cadj_arc);
    free(r->cadj_head);
    free(r->cadj_wt);
    free(r->vkey);
    free(r->vindeg);
    free(r->vhops);
    free(r->arc_lat);
    free(r->arc_ibw);
    free(r->arc_lvl);
    free(r->arc_port);
    free(r->rows);
    free(r->slot_of);
    free(r->slot_dest);
    free(r->queue);
    free(r->queue2);
    free(r->vgen);
    free(r->vflow);
    free(r->vlat);
    free(r->tarc);
    free(r->tfrac);
    free(r->keys);
    free(r->ids);
    free(r->routes);
    free(r->parc);
    free(r->pfrac);
    free(r);
}

static int degree(const vine_topo *t, int v)
{
    return t->adj_start[v + 1] - t->adj_start[v];
}

/* A fresh stamp for vgen (clearing the stamps when the counter wraps). */
static uint32_t next_gen(vine_router *r)
{
    if (++r->gen == 0) {
        memset(r->vgen, 0, (size_t)r->ncore * sizeof *r->vgen);
        r->gen = 1;
    }
    return r->gen;
}

static int is_global(const vine_router *r, int k)
{
    return r->arc_lvl[r->cadj_arc[k]] == VINE_LVL_GLOBAL;
}

/*
 * The direction of a grid link from host h1's router to host h2's: 2 d for
 * +d (one step up along dimension d, wrapping on a torus; a dimension of 2
 * has one link, +d), 2 d + 1 for -d; -1 when the two are not grid neighbours.
 */
static int grid_direction(const vine_topo *t, int h1, int h2)
{
    int c1[VINE_TOPO_MAXDIM], c2[VINE_TOPO_MAXDIM], dir = -1;
    if (h1 < 0 || h2 < 0 || h1 >= t->nhosts || h2 >= t->nhosts)
        return -1;
    vine__topo_grid_coords(t, h1, c1);
    vine__topo_grid_coords(t, h2, c2);
    for (int d = 0; d < t->shape_nd; d++) {
        if (c1[d] == c2[d])
            continue;
        int n = t->shape[d], up = (c2[d] - c1[d] + n) % n;
        if (dir >= 0 || (up != 1 && up != n - 1))
            return -1;
        dir = 2 * d + (up == 1 ? 0 : 1);
    }
    return dir;
}

/*
 * The ports of the core arcs (sim.h), when hosts have several: on a grid
 * whose routers hold one host each, an arc's direction modulo the ports;
 * otherwise (and for an arc that is no grid link) its position among its
 * tail's core arcs modulo the ports.
 */
static int set_arc_ports(vine_router *r)
{
    const vine_topo *t = r->t;
    r->ports = t->ports > 1 ? t->ports : 1;
    if (r->ports == 1)
        return VINE_OK;
    int *core_host = malloc(((size_t)r->ncore + 1) * sizeof *core_host);
    r->arc_port = malloc(((size_t)r->narcs + 1) * sizeof *r->arc_port);
    if (!core_host || !r->arc_port) {
        free(core_host);
        return VINE_ERR_NO_MEM;
    }
    for (int c = 0; c < r->ncore; c++)
        core_host[c] = -1;
    for (int h = 0; h < t->nhosts; h++) { /* -2: a router of several hosts */
        int c = r->anchor[t->host_vert[h]];
        core_host[c] = core_host[c] == -1 ? h : -2;
    }
    for (int a = 0; a < r->narcs; a++)
        r->arc_port[a] = 0;
    for (int c = 0; c < r->ncore; c++)
        for (int k = r->cadj_start[c]; k < r->cadj_start[c + 1]; k++) {
            int dir =
                t->shape_nd > 0 ? grid_direction(t, core_host[c], core_host[r->cadj_head[k]]) : -1;
            r->arc_port[r->cadj_arc[k]] = (dir >= 0 ? dir : k - r->cadj_start[c]) % r->ports;
        }
    free(core_host);
    return VINE_OK;
}

void vine__sim_port_name(const vine_topo *t, int port, char *buf, size_t len)
{
    static const char axis[] = "xyz";
    size_t used = 0;
    int k = t->ports > 1 ? t->ports : 1;
    buf[0] = '\0';
    for (int dir = 0; t->shape_nd > 0 && dir < 2 * t->shape_nd && used < len; dir++) {
        int d = dir / 2, n = t->shape[d];
        /* A dimension of 1 has no link, a torus dimension of 2 only +d. */
        if (dir % k != port || n < 2 || (dir % 2 && n == 2 && t->shape_wrap))
            continue;
        int w = t->shape_nd <= 3 ? snprintf(buf + used, len - used, "%s%c%c", used ? "," : "",
                                            "+-"[dir % 2], axis[d])
                                 : snprintf(buf + used, len - used, "%s%cd%d", used ? "," : "",
                                            "+-"[dir % 2], d);
        used += w > 0 ? (size_t)w : 0;
    }
    if (!buf[0])
        snprintf(buf, len, "port%d", port);
}

/*
 * An upper bound of the core graph's diameter (of its non-global links only
 * when local_only): twice the largest eccentricity of one vertex per
 * connected component.
 */
static uint64_t diameter_bound(vine_router *r, int local_only)
{
    uint64_t bound = 0;
    uint32_t gen = next_gen(r);
    for (int s = 0; s < r->ncore; s++) {
        if (r->vgen[s] == gen)
            continue;
        /* BFS by layers from s; queue2 holds the depths. */
        int head = 0, tail = 0, ecc = 0;
        r->queue[tail] = s;
        r->queue2[tail++] = 0;
        r->vgen[s] = gen;
        while (head < tail) {
            int v = r->queue[head], dv = r->queue2[head++];
            if (dv > ecc)
                ecc = dv;
            for (int k = r->cadj_start[v]; k < r->cadj_start[v + 1]; k++) {
                int w = r->cadj_head[k];
                if (r->vgen[w] != gen && !(local_only && is_global(r, k))) {
                    r->vgen[w] = gen;
                    r->queue[tail] = w;
                    r->queue2[tail++] = dv + 1;
                }
            }
        }
        if (2 * (uint64_t)ecc > bound)
            bound = 2 * (uint64_t)ecc;
    }
    return bound;
}

int vine__router_new(const vine_topo *t, vine_router **out)
{
    *out = NULL;
    vine_router *r = calloc(1, sizeof *r);
    if (!r)
        return VINE_ERR_NO_MEM;
    r->t = t;
    r->narcs = 2 * t->nlinks;
    size_t nv = (size_t)t->nvert, na = (size_t)r->narcs;
    r->anchor = malloc((nv + 1) * sizeof *r->anchor);
    r->up_arc = malloc((nv + 1) * sizeof *r->up_arc);
    r->core_vert = malloc((nv + 1) * sizeof *r->core_vert);
    r->arc_lat = malloc((na + 1) * sizeof *r->arc_lat);
    r->arc_ibw = malloc((na + 1) * sizeof *r->arc_ibw);
    r->arc_lvl = malloc(na + 1);
    if (!r->anchor || !r->up_arc || !r->core_vert || !r->arc_lat || !r->arc_ibw || !r->arc_lvl)
        goto nomem;
    for (int a = 0; a < r->narcs; a++) {
        const vine_link *l = &t->links[a >> 1];
        r->arc_lat[a] = l->lat;
        r->arc_ibw[a] = 1.0 / l->bw;
        r->arc_lvl[a] = (uint8_t)l->level;
    }

    /* Core vertices and anchors. */
    for (int v = 0; v < t->nvert; v++) {
        r->up_arc[v] = -1;
        if (t->kind[v] == VINE_V_HOST && degree(t, v) == 1) {
            int arc = t->adj_arc[t->adj_start[v]];
            if (degree(t, vine__topo_arc_head(t, arc)) > 1)
                r->up_arc[v] = arc;
        }
        if (r->up_arc[v] < 0) {
            r->anchor[v] = r->ncore;
            r->core_vert[r->ncore++] = v;
        }
    }
    for (int v = 0; v < t->nvert; v++)
        if (r->up_arc[v] >= 0)
            r->anchor[v] = r->anchor[vine__topo_arc_head(t, r->up_arc[v])];

    /* Core adjacency: the arcs between core vertices, in topo.h's order. */
    size_t nc = (size_t)r->ncore;
    r->cadj_start = malloc((nc + 1) * sizeof *r->cadj_start);
    if (!r->cadj_start)
        goto nomem;
    r->cadj_start[0] = 0;
    for (int c = 0; c < r->ncore; c++) {
        int v = r->core_vert[c], n = 0;
        for (int k = t->adj_start[v]; k < t->adj_start[v + 1]; k++)
            n += r->up_arc[vine__topo_arc_head(t, t->adj_arc[k])] < 0;
        r->cadj_start[c + 1] = r->cadj_start[c] + n;
    }
    size_t ncarc = (size_t)r->cadj_start[r->ncore];
    r->cadj_arc = malloc((ncarc + 1) * sizeof *r->cadj_arc);
    r->cadj_head = malloc((ncarc + 1) * sizeof *r->cadj_head);
    r->tarc = malloc((ncarc + 1) * sizeof *r->tarc);
    r->tfrac = malloc((ncarc + 1) * sizeof *r->tfrac);
    r->queue = malloc((nc + 1) * sizeof *r->queue);
    r->queue2 = malloc((nc + 1) * sizeof *r->queue2);
    r->vgen = calloc(nc + 1, sizeof *r->vgen);
    r->vflow = malloc((nc + 1) * sizeof *r->vflow);
    r->vlat = malloc((nc + 1) * sizeof *r->vlat);
    r->vkey = malloc((nc + 1) * sizeof *r->vkey);
    r->vindeg = malloc((nc + 1) * sizeof *r->vindeg);
    r->vhops = malloc((nc + 1) * sizeof *r->vhops);
    r->slot_of = malloc((nc + 1) * sizeof *r->slot_of);
    r->cadj_wt = malloc((ncarc + 1) * sizeof *r->cadj_wt);
    if (!r->cadj_arc || !r->cadj_head || !r->tarc || !r->tfrac || !r->queue || !r->queue2 ||
        !r->vgen || !r->vflow || !r->vlat || !r->vkey || !r->vindeg || !r->vhops || !r->slot_of ||
        !r->cadj_wt)
        goto nomem;
    for (int c = 0, k2 = 0; c < r->ncore; c++) {
        int v = r->core_vert[c];
        for (int k = t->adj_start[v]; k < t->adj_start[v + 1]; k++) {
            int arc = t->adj_arc[k], w = vine__topo_arc_head(t, arc);
            if (r->up_arc[w] < 0) {
                r->cadj_arc[k2] = arc;
                r->cadj_head[k2++] = r->anchor[w];
            }
        }
    }

    /* Route cache. */
    r->max_routes = MAX_ROUTES;
    r->max_pool = MAX_POOL;
    r->tab_cap = 1024;
    r->keys = malloc(r->tab_cap * sizeof *r->keys);
    r->ids = malloc(r->tab_cap * sizeof *r->ids);
    if (!r->keys || !r->ids)
        goto nomem;
    memset(r->keys, 0xff, r->tab_cap * sizeof *r->keys);
    int rc = set_arc_ports(r);
    if (rc == VINE_OK)
        rc = vine__router_set_metric(r, VINE_ROUTE_GLOBAL_FIRST);
    if (rc != VINE_OK) {
        vine__router_free(r);
        return rc;
    }
    *out = r;
    return VINE_OK;
nomem:
    vine__router_free(r);
    return VINE_ERR_NO_MEM;
}

int vine__router_set_metric(vine_router *r, int metric)
{
    /* Widths: the unreachable mark (all ones) must exceed every distance. */
    uint64_t diam = r->ncore < 255 ? (uint64_t)r->ncore : diameter_bound(r, 0);
    int ncarc = r->cadj_start[r->ncore];
    if (metric == VINE_ROUTE_GLOBAL_FIRST) {
        /* A path with the fewest global links has at most diam of them, and between two
         * of them a shortest local path: at most (diam + 1) local diameters + diam links. */
        uint64_t dl = diameter_bound(r, 1), hmax = (diam + 1) * dl + diam;
        if (hmax > (uint64_t)r->ncore) /* and a path visits every vertex once at most */
            hmax = (uint64_t)r->ncore;
        if (diam < 255 && hmax < 255) {
            r->width = 2;
            r->kmul = 256;
        } else if (diam < 65535 && hmax < 65535) {
            r->width = 4;
            r->kmul = 65536;
        } else {
            return VINE_ERR_UNSUPPORTED;
        }
        for (int k = 0; k < ncarc; k++)
            r->cadj_wt[k] = is_global(r, k) ? r->kmul + 1 : 1;
    } else {
        r->width = diam < 255 ? 1 : diam < 65535 ? 2 : 4;
        r->kmul = 0;
        for (int k = 0; k < ncarc; k++)
            r->cadj_wt[k] = 1;
    }
    r->metric = metric;
    r->inf = r->width == 1 ? 0xffu : r->width == 2 ? 0xffffu : 0xffffffffu;
    r->row_bytes = (size_t)r->ncore * (size_t)r->width;
    size_t nc = (size_t)r->ncore;
    size_t slots = r->row_bytes ? ROW_BUDGET / r->row_bytes : 1;
    if (slots < 1)
        slots = 1;
    if (slots > nc)
        slots = nc ? nc : 1;
    free(r->rows);
    free(r->slot_dest);
    r->nslots = (int)slots;
    r->rows = malloc(slots * r->row_bytes + 1);
    r->slot_dest = malloc(slots * sizeof *r->slot_dest);
    if (!r->rows || !r->slot_dest)
        return VINE_ERR_NO_MEM;
    for (int c = 0; c < r->ncore; c++)
        r->slot_of[c] = -1;
    for (size_t k = 0; k < slots; k++)
        r->slot_dest[k] = -1;
    r->next_slot = 0;
    vine__route_clear(r);
    return VINE_OK;
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

static void sort_u64(uint64_t *k, size_t n)
{
    if (n > 24) {
        qsort(k, n, sizeof *k, cmp_u64);
        return;
    }
    for (size_t i = 1; i < n; i++) {
        uint64_t x = k[i];
        size_t j = i;
        for (; j > 0 && k[j - 1] > x; j--)
            k[j] = k[j - 1];
        k[j] = x;
    }
}

/*
 * The global-first row of d: phase g finds the vertices whose best path to d
 * has g global links, by a BFS over local links from the vertices that the
 * previous phase reaches over one global link (sources merged in order of
 * their link counts, so the BFS stays in order).
 */
static void row_global_first(vine_router *r, unsigned char *row, int d)
{
    uint64_t *cand = r->vkey; /* (links << 32 | vertex) */
    size_t ncand = 1;
    cand[0] = (uint64_t)d;
    int *q = r->queue;
    for (uint32_t g = 0; ncand > 0; g++) {
        sort_u64(cand, ncand);
        size_t ci = 0;
        int qh = 0, qt = 0;
        for (;;) {
            uint32_t hq = qh < qt ? rdist(r, row, q[qh]) % r->kmul : 0;
            if (ci < ncand && (qh == qt || (cand[ci] >> 32) <= hq)) {
                int v = (int)(uint32_t)cand[ci];
                uint32_t hv = (uint32_t)(cand[ci++] >> 32);
                if (rdist(r, row, v) == r->inf) {
                    wdist(r, row, v, g * r->kmul + hv);
                    q[qt++] = v;
                }
                continue;
            }
            if (qh == qt)
                break;
            int v = q[qh++];
            uint32_t dv = rdist(r, row, v) + 1;
            for (int k = r->cadj_start[v]; k < r->cadj_start[v + 1]; k++) {
                int w = r->cadj_head[k];
                if (r->cadj_wt[k] == 1 && rdist(r, row, w) == r->inf) {
                    wdist(r, row, w, dv);
                    q[qt++] = w;
                }
            }
        }
        /* The next phase's sources: one global link beyond this phase's vertices, each
         * with its fewest links (stamped in vgen, best count in queue2). */
        uint32_t gen = next_gen(r);
        int nn = 0;
        for (int i = 0; i < qt; i++) {
            int v = q[i];
            int hv = (int)(rdist(r, row, v) % r->kmul) + 1;
            for (int k = r->cadj_start[v]; k < r->cadj_start[v + 1]; k++) {
                int w = r->cadj_head[k];
                if (r->cadj_wt[k] == 1 || rdist(r, row, w) != r->inf)
                    continue;
                if (r->vgen[w] != gen) {
                    r->vgen[w] = gen;
                    r->queue2[w] = hv;
                    cand[nn++] = (uint64_t)w;
                } else if (hv < r->queue2[w]) {
                    r->queue2[w] = hv;
                }
            }
        }
        for (int i = 0; i < nn; i++)
            cand[i] |= (uint64_t)(uint32_t)r->queue2[(int)cand[i]] << 32;
        ncand = (size_t)nn;
    }
}

/* Plain BFS rows, one function per entry width (the inner loop is the hot spot). */
#define BFS_ROW(name, type)                                                                        \
    static void name(vine_router *r, type *row, int d)                                             \
    {                                                                                              \
        const type inf = (type)r->inf;                                                             \
        const int *start = r->cadj_start, *head = r->cadj_head;                                    \
        int *q = r->queue, qh = 0, qt = 0;                                                         \
        q[qt++] = d;                                                                               \
        row[d] = 0;                                                                                \
        while (qh < qt) {                                                                          \
            int v = q[qh++];                                                                       \
            type dv = (type)(row[v] + 1);                                                          \
            for (int k = start[v]; k < start[v + 1]; k++) {                                        \
                int w = head[k];                                                                   \
                if (row[w] == inf) {                                                               \
                    row[w] = dv;                                                                   \
                    q[qt++] = w;                                                                   \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
    }
BFS_ROW(bfs_u8, uint8_t)
BFS_ROW(bfs_u16, uint16_t)
BFS_ROW(bfs_u32, uint32_t)
#undef BFS_ROW

/* The distance row of core vertex d (BFS when it is not held). */
static const unsigned char *row_for(vine_router *r, int d)
{
    if (!r->rows) /* a failed vine__router_set_metric */
        return NULL;
    if (r->slot_of[d] >= 0)
        return r->rows + (size_t)r->slot_of[d] * r->row_bytes;
    int s = r->next_slot;
    r->next_slot = (s + 1) % r->nslots;
    if (r->slot_dest[s] >= 0)
        r->slot_of[r->slot_dest[s]] = -1;
    r->slot_dest[s] = d;
    r->slot_of[d] = s;
    unsigned char *row = r->rows + (size_t)s * r->row_bytes;
    memset(row, 0xff, r->row_bytes);
    if (r->metric == VINE_ROUTE_GLOBAL_FIRST) {
        row_global_first(r, row, d);
        return row;
    }
    switch (r->width) {
    case 1:
        bfs_u8(r, row, d);
        break;
    case 2:
        bfs_u16(r, (uint16_t *)(void *)row, d);
        break;
    default:
        bfs_u32(r, (uint32_t *)(void *)row, d);
        break;
    }
    return row;
}

static size_t hash_slot(uint64_t key, size_t cap)
{
    return (size_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & (cap - 1);
}

void vine__route_clear(vine_router *r)
{
    memset(r->keys, 0xff, r->tab_cap * sizeof *r->keys);
    r->tab_used = 0;
    r->nroutes = 0;
    r->pool_n = 0;
    r->epoch++;
}

static int table_grow(vine_router *r)
{
    size_t cap = r->tab_cap * 2;
    uint64_t *keys = malloc(cap * sizeof *keys);
    uint32_t *ids = malloc(cap * sizeof *ids);
    if (!keys || !ids) {
        free(keys);
        free(ids);
        return VINE_ERR_NO_MEM;
    }
    memset(keys, 0xff, cap * sizeof *keys);
    for (size_t i = 0; i < r->tab_cap; i++) {
        if (r->keys[i] == UINT64_MAX)
            continue;
        size_t h = hash_slot(r->keys[i], cap);
        while (keys[h] != UINT64_MAX)
            h = (h + 1) & (cap - 1);
        keys[h] = r->keys[i];
        ids[h] = r->ids[i];
    }
    free(r->keys);
    free(r->ids);
    r->keys = keys;
    r->ids = ids;
    r->tab_cap = cap;
    return VINE_OK;
}

/* Ensures room for one more route of n arcs (dropping the cache when full). */
static int cache_reserve(vine_router *r, size_t n)
{
    if (r->nroutes >= r->max_routes || (r->pool_n > 0 && r->pool_n + n > r->max_pool))
        vine__route_clear(r);
    if ((r->tab_used + 1) * 2 > r->tab_cap && table_grow(r))
        return VINE_ERR_NO_MEM;
    if (r->nroutes == r->routes_cap) {
        size_t cap = r->routes_cap ? 2 * r->routes_cap : 1024;
        vine_route *nr = realloc(r->routes, cap * sizeof *nr);
        if (!nr)
            return VINE_ERR_NO_MEM;
        r->routes = nr;
        r->routes_cap = cap;
    }
    if (r->pool_n + n > r->pool_cap) {
        size_t cap = r->pool_cap ? 2 * r->pool_cap : 4096;
        while (cap < r->pool_n + n)
            cap *= 2;
        int *pa = realloc(r->parc, cap * sizeof *pa);
        if (!pa)
            return VINE_ERR_NO_MEM;
        r->parc = pa;
        double *pf = realloc(r->pfrac, cap * sizeof *pf);
        if (!pf)
            return VINE_ERR_NO_MEM;
        r->pfrac = pf;
        r->pool_cap = cap;
    }
    return VINE_OK;
}

/*
 * Walks the minimal-path DAG from cs to cd: its vertices are found first (a
 * next hop lowers the distance to cd by exactly the arc's weight), with the
 * number of DAG arcs into each; then they are taken in topological order
 * (Kahn's algorithm, first in first out), each passing its share evenly to
 * its next hops.  Leaves the arcs in tarc/tfrac; returns their number, -1
 * (no rows: out of memory) or -2 (no path).
 */
static long walk(vine_router *r, int cs, int cd, double *lat)
{
    const unsigned char *row = row_for(r, cd);
    if (!row)
        return -1;
    if (rdist(r, row, cs) == r->inf)
        return -2;
    *lat = 0;
    if (cs == cd)
        return 0;
    uint32_t gen = next_gen(r);
    /* The DAG's vertices, depth first (queue as a stack). */
    int *q = r->queue, sp = 0;
    q[sp++] = cs;
    r->vgen[cs] = gen;
    r->vindeg[cs] = 0;
    while (sp > 0) {
        int v = q[--sp], hops = 0;
        uint32_t dv = rdist(r, row, v);
        r->vflow[v] = 0.0;
        r->vlat[v] = 0.0;
        if (v != cd) {
            for (int j = r->cadj_start[v]; j < r->cadj_start[v + 1]; j++) {
                int w = r->cadj_head[j];
                if (rdist(r, row, w) + r->cadj_wt[j] != dv)
                    continue;
                hops++;
                if (r->vgen[w] != gen) {
                    r->vgen[w] = gen;
                    r->vindeg[w] = 0;
                    q[sp++] = w;
                }
                r->vindeg[w]++;
            }
        }
        r->vhops[v] = hops;
    }
    /* Topological order from cs. */
    int qh = 0, qt = 0;
    q[qt++] = cs;
    r->vflow[cs] = 1.0;
    long n = 0;
    while (qh < qt) {
        int v = q[qh++];
        if (v == cd)
            continue;
        uint32_t dv = rdist(r, row, v);
        double share = r->vflow[v] / r->vhops[v];
        for (int j = r->cadj_start[v]; j < r->cadj_start[v + 1]; j++) {
            int w = r->cadj_head[j];
            if (rdist(r, row, w) + r->cadj_wt[j] != dv)
                continue;
            int arc = r->cadj_arc[j];
            r->tarc[n] = arc;
            r->tfrac[n++] = share;
            r->vflow[w] += share;
            double l = r->vlat[v] + r->arc_lat[arc];
            if (l > r->vlat[w])
                r->vlat[w] = l;
            if (--r->vindeg[w] == 0)
                q[qt++] = w;
        }
    }
    *lat = r->vlat[cd];
    return n;
}

long vine__route_get(vine_router *r, int cs, int cd)
{
    uint64_t key = (uint64_t)(uint32_t)cs << 32 | (uint32_t)cd;
    size_t h = hash_slot(key, r->tab_cap);
    while (r->keys[h] != UINT64_MAX) {
        if (r->keys[h] == key)
            return (long)r->ids[h];
        h = (h + 1) & (r->tab_cap - 1);
    }
    double lat;
    long n = walk(r, cs, cd, &lat);
    if (n < 0)
        return n;
    if (cache_reserve(r, (size_t)n))
        return -1;
    /* The table may have been cleared or grown: find the free slot again. */
    h = hash_slot(key, r->tab_cap);
    while (r->keys[h] != UINT64_MAX)
        h = (h + 1) & (r->tab_cap - 1);
    size_t id = r->nroutes++;
    r->keys[h] = key;
    r->ids[h] = (uint32_t)id;
    r->tab_used++;
    vine_route *rt = &r->routes[id];
    rt->off = (uint32_t)r->pool_n;
    rt->n = (uint32_t)n;
    rt->lat = lat;
    rt->cmax = 0;
    rt->stamp = 0;
    if (n > 0) {
        memcpy(r->parc + r->pool_n, r->tarc, (size_t)n * sizeof *r->parc);
        memcpy(r->pfrac + r->pool_n, r->tfrac, (size_t)n * sizeof *r->pfrac);
        r->pool_n += (size_t)n;
    }
    return (long)id;
}

void vine__router_limit(vine_router *r, int nslots, size_t max_routes, size_t max_pool)
{
    if (nslots > 0 && nslots < r->nslots)
        r->nslots = nslots;
    for (int c = 0; c < r->ncore; c++)
        r->slot_of[c] = -1;
    for (int s = 0; s < r->nslots; s++)
        r->slot_dest[s] = -1;
    r->next_slot = 0;
    if (max_routes)
        r->max_routes = max_routes;
    if (max_pool)
        r->max_pool = max_pool;
    vine__route_clear(r);
}
