/*
 * Graphs of the broadcast step model (MPI-free): a simple undirected graph in
 * adjacency-array form, the named graphs of the BBS paper
 * (../shared/papers/bbs-broadcast.txt, section 4: 2D and 3D grids, the 16K3
 * cubic graph of ../shared/BBS.md), tori, and edge-list files.
 *
 * Grid "grid:XxY[xZ]": node (x, y, z) is x + X (y + Y z), edges join nodes
 * at distance 1 along one axis, so node 0 is the top, front, left corner
 * where the paper roots its broadcasts.  "torus:..." adds the wrap-around
 * edge of each ring of length >= 3 (a ring of 2 is one edge, a ring of 1
 * none).  Building costs O(n + m log m) (sorting each adjacency list).
 */
#include "bbs.h"
#include "bbs_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Refused above these sizes: the step-model tools are quadratic or worse. */
#define GRAPH_MAX_NODES (1 << 22)
#define GRAPH_MAX_EDGES (1 << 24)
#define GRAPH_MAX_LINE 4096

int vine__bbs_err(char *err, size_t errlen, int code, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return code;
}

/* A message into err, and the status VINE_ERR_UNSUPPORTED. */
#define gerr(err, errlen, ...) vine__bbs_err(err, errlen, VINE_ERR_UNSUPPORTED, __VA_ARGS__)

void vine__graph_free(vine_graph *g)
{
    if (!g)
        return;
    free(g->eu);
    free(g->ev);
    free(g->start);
    free(g->nbr);
    free(g->nbr_edge);
    memset(g, 0, sizeof *g);
}

typedef struct adj_pair {
    int nbr, edge;
} adj_pair;

static int cmp_pair(const void *a, const void *b)
{
    const adj_pair *x = a, *y = b;
    if (x->nbr != y->nbr)
        return x->nbr < y->nbr ? -1 : 1;
    return (x->edge > y->edge) - (x->edge < y->edge);
}

int vine__graph_from_edges(vine_graph *g, int n, int m, const int *eu, const int *ev,
                           const char *name, char *err, size_t errlen)
{
    memset(g, 0, sizeof *g);
    if (n < 1 || n > GRAPH_MAX_NODES)
        return gerr(err, errlen, "graph: %d nodes (1 to %d allowed)", n, GRAPH_MAX_NODES);
    if (m < 0 || m > GRAPH_MAX_EDGES)
        return gerr(err, errlen, "graph: %d edges (0 to %d allowed)", m, GRAPH_MAX_EDGES);
    for (int e = 0; e < m; e++) {
        if (eu[e] < 0 || eu[e] >= n || ev[e] < 0 || ev[e] >= n)
            return gerr(err, errlen, "graph: edge %d (%d %d) names a node outside 0..%d", e, eu[e],
                        ev[e], n - 1);
        if (eu[e] == ev[e])
            return gerr(err, errlen, "graph: edge %d is a self-loop at node %d", e, eu[e]);
    }
    g->n = n;
    g->m = m;
    g->eu = malloc((size_t)(m ? m : 1) * sizeof *g->eu);
    g->ev = malloc((size_t)(m ? m : 1) * sizeof *g->ev);
    g->start = calloc((size_t)n + 1, sizeof *g->start);
    size_t slots = m ? 2 * (size_t)m : 1;
    g->nbr = malloc(slots * sizeof *g->nbr);
    g->nbr_edge = malloc(slots * sizeof *g->nbr_edge);
    adj_pair *pairs = malloc(slots * sizeof *pairs);
    int *fill = malloc((size_t)n * sizeof *fill);
    if (!g->eu || !g->ev || !g->start || !g->nbr || !g->nbr_edge || !pairs || !fill) {
        free(pairs);
        free(fill);
        vine__graph_free(g);
        return VINE_ERR_NO_MEM;
    }
    if (m) {
        memcpy(g->eu, eu, (size_t)m * sizeof *eu);
        memcpy(g->ev, ev, (size_t)m * sizeof *ev);
    }
    for (int e = 0; e < m; e++) {
        g->start[eu[e] + 1]++;
        g->start[ev[e] + 1]++;
    }
    for (int v = 0; v < n; v++)
        g->start[v + 1] += g->start[v];
    memcpy(fill, g->start, (size_t)n * sizeof *fill);
    for (int e = 0; e < m; e++) {
        pairs[fill[eu[e]]++] = (adj_pair){ev[e], e};
        pairs[fill[ev[e]]++] = (adj_pair){eu[e], e};
    }
    int rc = VINE_OK;
    for (int v = 0; v < n && rc == VINE_OK; v++) {
        int lo = g->start[v], hi = g->start[v + 1];
        qsort(pairs + lo, (size_t)(hi - lo), sizeof *pairs, cmp_pair);
        for (int k = lo; k < hi; k++) {
            if (k > lo && pairs[k].nbr == pairs[k - 1].nbr) {
                rc = gerr(err, errlen, "graph: edges %d and %d both join nodes %d and %d",
                          pairs[k - 1].edge, pairs[k].edge, v, pairs[k].nbr);
                break;
            }
            g->nbr[k] = pairs[k].nbr;
            g->nbr_edge[k] = pairs[k].edge;
        }
    }
    free(pairs);
    free(fill);
    if (rc != VINE_OK) {
        vine__graph_free(g);
        return rc;
    }
    snprintf(g->name, sizeof g->name, "%s", name ? name : "");
    return VINE_OK;
}

int vine__graph_bfs(const vine_graph *g, int root, int *dist)
{
    for (int v = 0; v < g->n; v++)
        dist[v] = -1;
    if (root < 0 || root >= g->n)
        return -1;
    /* dist doubles as the visited mark; the queue is a separate array so the
     * caller's buffer is all it must provide -- allocate it here. */
    int *queue = malloc((size_t)g->n * sizeof *queue);
    if (!queue)
        return -1;
    int head = 0, tail = 0, ecc = 0;
    queue[tail++] = root;
    dist[root] = 0;
    while (head < tail) {
        int u = queue[head++];
        if (dist[u] > ecc)
            ecc = dist[u];
        for (int k = g->start[u]; k < g->start[u + 1]; k++) {
            int w = g->nbr[k];
            if (dist[w] < 0) {
                dist[w] = dist[u] + 1;
                queue[tail++] = w;
            }
        }
    }
    free(queue);
    return ecc;
}

/* A growable edge list for the builders below. */
typedef struct elist {
    int *u, *v;
    int m, cap;
} elist;

static int elist_add(elist *l, int a, int b)
{
    if (l->m == l->cap) {
        if (l->cap >= GRAPH_MAX_EDGES)
            return VINE_ERR_UNSUPPORTED;
        int cap = l->cap ? 2 * l->cap : 64;
        int *nu = realloc(l->u, (size_t)cap * sizeof *nu);
        if (!nu)
            return VINE_ERR_NO_MEM;
        l->u = nu;
        int *nv = realloc(l->v, (size_t)cap * sizeof *nv);
        if (!nv)
            return VINE_ERR_NO_MEM;
        l->v = nv;
        l->cap = cap;
    }
    l->u[l->m] = a;
    l->v[l->m] = b;
    l->m++;
    return VINE_OK;
}

static void elist_free(elist *l)
{
    free(l->u);
    free(l->v);
}

/* Parses "AxB[xC]" (positive decimal sizes) into dims; returns the number of
 * dimensions, 0 on a malformed string. */
static int parse_dims(const char *s, long dims[3])
{
    int nd = 0;
    const char *p = s;
    for (;;) {
        if (!isdigit((unsigned char)*p) || nd == 3)
            return 0;
        char *end;
        errno = 0;
        long x = strtol(p, &end, 10);
        if (errno || x < 1 || x > GRAPH_MAX_NODES)
            return 0;
        dims[nd++] = x;
        p = end;
        if (*p == '\0')
            break;
        if (*p != 'x' && *p != 'X')
            return 0;
        p++;
    }
    return nd >= 2 ? nd : 0;
}

static int build_grid(const char *spec, const char *dimstr, int wrap, vine_graph *g, char *err,
                      size_t errlen)
{
    long dims[3] = {1, 1, 1};
    int nd = parse_dims(dimstr, dims);
    if (!nd)
        return gerr(err, errlen, "graph '%s': expected %s:AxB or %s:AxBxC with sizes >= 1", spec,
                    wrap ? "torus" : "grid", wrap ? "torus" : "grid");
    long n = dims[0] * dims[1];
    if (n > GRAPH_MAX_NODES || n * dims[2] > GRAPH_MAX_NODES)
        return gerr(err, errlen, "graph '%s': more than %d nodes", spec, GRAPH_MAX_NODES);
    n *= dims[2];
    long X = dims[0], Y = dims[1], Z = dims[2];
    elist l = {0};
    int rc = VINE_OK;
    for (long z = 0; z < Z && rc == VINE_OK; z++)
        for (long y = 0; y < Y && rc == VINE_OK; y++)
            for (long x = 0; x < X && rc == VINE_OK; x++) {
                int id = (int)(x + X * (y + Y * z));
                long c[3] = {x, y, z};
                for (int d = 0; d < 3 && rc == VINE_OK; d++) {
                    long step = d == 0 ? 1 : d == 1 ? X : X * Y;
                    if (c[d] + 1 < dims[d])
                        rc = elist_add(&l, id, (int)(id + step));
                    else if (wrap && dims[d] >= 3)
                        rc = elist_add(&l, id, (int)(id - (dims[d] - 1) * step));
                }
            }
    if (rc == VINE_OK) {
        char name[64];
        snprintf(name, sizeof name, "%s%s", wrap ? "torus:" : "", dimstr);
        rc = vine__graph_from_edges(g, (int)n, l.m, l.u, l.v, name, err, errlen);
    } else if (rc == VINE_ERR_UNSUPPORTED) {
        gerr(err, errlen, "graph '%s': too many edges", spec);
    }
    elist_free(&l);
    return rc;
}

/* BBS.md's cubic graph on 16 nodes (diameter 3, girth 5). */
static const int k3_adj[16][3] = {
    {1, 2, 3},   {0, 6, 10},  {0, 8, 12},  {0, 4, 14},  {3, 5, 9},   {4, 6, 11},
    {1, 5, 7},   {6, 8, 13},  {2, 7, 9},   {4, 8, 15},  {1, 11, 15}, {5, 10, 12},
    {2, 11, 13}, {7, 12, 14}, {3, 13, 15}, {9, 10, 14},
};

static int build_16k3(vine_graph *g, char *err, size_t errlen)
{
    int eu[24], ev[24], m = 0;
    for (int v = 0; v < 16; v++)
        for (int k = 0; k < 3; k++)
            if (v < k3_adj[v][k]) {
                eu[m] = v;
                ev[m] = k3_adj[v][k];
                m++;
            }
    return vine__graph_from_edges(g, 16, m, eu, ev, "16K3", err, errlen);
}

/* Reads one decimal node number at *p; advances *p.  0 on failure. */
static int read_node(char **p, long *x)
{
    char *s = *p;
    while (*s == ' ' || *s == '\t')
        s++;
    if (!isdigit((unsigned char)*s))
        return 0;
    char *end;
    errno = 0;
    *x = strtol(s, &end, 10);
    if (errno || *x >= GRAPH_MAX_NODES || (*end && !isspace((unsigned char)*end)))
        return 0;
    *p = end;
    return 1;
}

static int build_edges_file(const char *path, vine_graph *g, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return gerr(err, errlen, "%s: cannot open: %s", path, strerror(errno));
    elist l = {0};
    int *lineof = NULL; /* line of each edge, for the duplicate message */
    int rc = VINE_OK, line = 0;
    long maxnode = -1;
    char buf[GRAPH_MAX_LINE];
    while (rc == VINE_OK && fgets(buf, sizeof buf, f)) {
        line++;
        size_t len = strlen(buf);
        if (len == sizeof buf - 1 && buf[len - 1] != '\n' && !feof(f)) {
            rc = gerr(err, errlen, "%s:%d: line longer than %d bytes", path, line,
                      GRAPH_MAX_LINE - 2);
            break;
        }
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = '\0';
        char *p = buf;
        while (isspace((unsigned char)*p))
            p++;
        if (*p == '\0')
            continue;
        long a, b;
        if (!read_node(&p, &a) || !read_node(&p, &b)) {
            rc = gerr(err, errlen, "%s:%d: expected 'A B' with node numbers 0 to %d", path, line,
                      GRAPH_MAX_NODES - 1);
            break;
        }
        while (isspace((unsigned char)*p))
            p++;
        if (*p) {
            rc = gerr(err, errlen, "%s:%d: unexpected text after the edge: '%.40s'", path, line, p);
            break;
        }
        if (a == b) {
            rc = gerr(err, errlen, "%s:%d: self-loop at node %ld", path, line, a);
            break;
        }
        rc = elist_add(&l, (int)a, (int)b);
        if (rc == VINE_ERR_UNSUPPORTED) {
            gerr(err, errlen, "%s:%d: more than %d edges", path, line, GRAPH_MAX_EDGES);
            break;
        }
        if (rc != VINE_OK)
            break;
        int *nl = realloc(lineof, (size_t)l.cap * sizeof *nl);
        if (!nl) {
            rc = VINE_ERR_NO_MEM;
            break;
        }
        lineof = nl;
        lineof[l.m - 1] = line;
        if (a > maxnode)
            maxnode = a;
        if (b > maxnode)
            maxnode = b;
    }
    if (rc == VINE_OK && ferror(f))
        rc = gerr(err, errlen, "%s: read error", path);
    fclose(f);
    if (rc == VINE_OK && l.m == 0)
        rc = gerr(err, errlen, "%s: no edges", path);
    if (rc == VINE_OK) {
        char name[64];
        const char *base = strrchr(path, '/');
        snprintf(name, sizeof name, "%s", base ? base + 1 : path);
        char gerrbuf[256];
        rc = vine__graph_from_edges(g, (int)maxnode + 1, l.m, l.u, l.v, name, gerrbuf,
                                    sizeof gerrbuf);
        if (rc == VINE_ERR_UNSUPPORTED) {
            /* The only refusal left is a repeated edge: find it to name its line. */
            int e1 = -1, e2 = -1;
            if (sscanf(gerrbuf, "graph: edges %d and %d", &e1, &e2) == 2 && e1 >= 0 && e2 >= 0 &&
                e1 < l.m && e2 < l.m) {
                int first = e1 < e2 ? e1 : e2, second = e1 < e2 ? e2 : e1;
                gerr(err, errlen, "%s:%d: edge %d %d repeats the edge of line %d", path,
                     lineof[second], l.u[second], l.v[second], lineof[first]);
            } else {
                gerr(err, errlen, "%s: %s", path, gerrbuf);
            }
        }
    }
    if (rc == VINE_OK) {
        int *dist = malloc((size_t)g->n * sizeof *dist);
        if (!dist) {
            rc = VINE_ERR_NO_MEM;
        } else {
            vine__graph_bfs(g, 0, dist);
            for (int v = 0; v < g->n; v++)
                if (dist[v] < 0) {
                    rc = gerr(err, errlen, "%s: node %d is not connected to node 0%s", path, v,
                              g->start[v] == g->start[v + 1] ? " (no edge names it)" : "");
                    break;
                }
            free(dist);
        }
        if (rc != VINE_OK)
            vine__graph_free(g);
    }
    free(lineof);
    elist_free(&l);
    return rc;
}

int vine__graph_parse(const char *spec, vine_graph *g, char *err, size_t errlen)
{
    memset(g, 0, sizeof *g);
    if (!spec || !*spec)
        return gerr(err, errlen, "graph: empty name");
    if (!strncmp(spec, "grid:", 5))
        return build_grid(spec, spec + 5, 0, g, err, errlen);
    if (!strncmp(spec, "torus:", 6))
        return build_grid(spec, spec + 6, 1, g, err, errlen);
    if (!strcmp(spec, "16k3") || !strcmp(spec, "16K3"))
        return build_16k3(g, err, errlen);
    if (!strncmp(spec, "edges:", 6)) {
        if (!spec[6])
            return gerr(err, errlen, "graph '%s': edges: needs a file name", spec);
        return build_edges_file(spec + 6, g, err, errlen);
    }
    return gerr(err, errlen, "graph '%s': unknown (grid:AxB[xC], torus:AxB[xC], 16k3, edges:FILE)",
                spec);
}
