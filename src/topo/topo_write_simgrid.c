/*
 * Writer of SimGrid platform files (MPI-free): any vine topology as one
 * SimGrid 4.1 zone (routing DijkstraCache by default) that holds a <host> per host
 * and a <router> per switch, in vertex order, a <link> per link (full duplex:
 * sharing_policy SPLITDUPLEX, each direction at the link's bandwidth, as in
 * topo.h) and a <route> of one link between its two ends.  SimGrid computes
 * the other routes (fewest links, one path per pair).  vine's fields that
 * SimGrid has no place for travel in <prop>s that vine__topo_read_simgrid
 * reads back (topo_simgrid_zone.h), so that writing and reading give the same
 * graph: vertices, names, groups, links with their ends, bandwidths,
 * latencies and levels, in the same order, and the intra-host bandwidth and
 * latency.
 *
 * A vertex without a name is written as vine names it (h<host>, s<vertex>).
 * SimGrid routes a pair of neighbours over one link: of parallel links (same
 * two ends) the first carries the route and the sum of their bandwidths, the
 * others name it in vine_parallel.  Refused with a message: two vertices of
 * one name, a link from a vertex to itself, parallel links of different
 * latencies, a routing SimGrid cannot build from neighbour routes.
 * Cost: O(V + L log L) time, the file linear in V + L.  SimGrid then loads
 * DijkstraCache in O(L) and finds a route when first asked; Floyd takes
 * O(V^3) time and O(V^2) memory at load (75 s for the lumi preset's 3744
 * vertices, against 1 s).
 */
#include "topo_read.h"
#include "topo_read_util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct sgw {
    const vine_topo *t;
    FILE *f;
    char **name;  /* per vertex */
    int *first;   /* per link: the first link of its parallel set (itself if none) */
    double *sum;  /* per link: bandwidth of its set when it is the first */
    int *reverse; /* per link: its ends are the first's, swapped */
} sgw;

/* The shortest %g form that reads back as the same double. */
static void put_num(FILE *f, double v, const char *unit)
{
    char buf[40];
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    fprintf(f, "%s%s", buf, unit);
}

static void put_esc(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&':
            fputs("&amp;", f);
            break;
        case '<':
            fputs("&lt;", f);
            break;
        case '>':
            fputs("&gt;", f);
            break;
        case '"':
            fputs("&quot;", f);
            break;
        case '\'':
            fputs("&apos;", f);
            break;
        default:
            fputc(*s, f);
        }
    }
}

/* Names every vertex; refuses a name given twice. */
static int name_verts(sgw *w, char *err, size_t errlen)
{
    const vine_topo *t = w->t;
    vine_strmap m;
    vine__strmap_init(&m);
    int rc = VINE_OK, old;
    for (int v = 0; v < t->nvert && rc == VINE_OK; v++) {
        char buf[32];
        if (!(w->name[v] = strdup(vine__topo_vname(t, v, buf, sizeof buf))))
            rc = VINE_ERR_NO_MEM;
        else if ((rc = vine__strmap_add(&m, w->name[v], v, &old)) == VINE_OK && old >= 0) {
            snprintf(err, errlen,
                     "vertices %d and %d are both named %.60s: SimGrid needs distinct names", old,
                     v, w->name[v]);
            rc = VINE_ERR_UNSUPPORTED;
        }
    }
    vine__strmap_free(&m);
    return rc;
}

static const vine_topo *cmp_topo; /* qsort has no context argument in C11 */

/* Orders links by their unordered pair of ends, then by index. */
static int cmp_links(const void *pa, const void *pb)
{
    const vine_link *x = &cmp_topo->links[*(const int *)pa],
                    *y = &cmp_topo->links[*(const int *)pb];
    int xl = x->a < x->b ? x->a : x->b, xh = x->a ^ x->b ^ xl;
    int yl = y->a < y->b ? y->a : y->b, yh = y->a ^ y->b ^ yl;
    if (xl != yl)
        return (xl > yl) - (xl < yl);
    if (xh != yh)
        return (xh > yh) - (xh < yh);
    return (*(const int *)pa > *(const int *)pb) - (*(const int *)pa < *(const int *)pb);
}

/* Finds the parallel sets; refuses self links and sets of different latencies. */
static int parallel_sets(sgw *w, char *err, size_t errlen)
{
    const vine_topo *t = w->t;
    int *ord = malloc(((size_t)t->nlinks + 1) * sizeof *ord);
    if (!ord)
        return VINE_ERR_NO_MEM;
    for (int i = 0; i < t->nlinks; i++) {
        ord[i] = i;
        if (t->links[i].a == t->links[i].b) {
            snprintf(err, errlen, "link %d joins %.60s to itself: SimGrid cannot route it", i,
                     w->name[t->links[i].a]);
            free(ord);
            return VINE_ERR_UNSUPPORTED;
        }
    }
    cmp_topo = t;
    qsort(ord, (size_t)t->nlinks, sizeof *ord, cmp_links);
    for (int k = 0; k < t->nlinks; k++) {
        int i = ord[k], f = i;
        const vine_link *l = &t->links[i];
        if (k > 0) { /* the previous link in pair order: same ends, same set */
            const vine_link *p = &t->links[w->first[ord[k - 1]]];
            if ((p->a == l->a && p->b == l->b) || (p->a == l->b && p->b == l->a))
                f = w->first[ord[k - 1]];
        }
        w->first[i] = f;
        w->reverse[i] = t->links[f].a != l->a;
        w->sum[i] = f == i ? l->bw : 0;
        if (f != i) {
            w->sum[f] += l->bw;
            if (t->links[f].lat != l->lat) {
                snprintf(err, errlen,
                         "links %d and %d join %.60s and %.60s with different latencies: "
                         "SimGrid routes the pair over one link",
                         f, i, w->name[l->a], w->name[l->b]);
                free(ord);
                return VINE_ERR_UNSUPPORTED;
            }
        }
    }
    free(ord);
    return VINE_OK;
}

static void write_head(sgw *w, const char *routing)
{
    const vine_topo *t = w->t;
    FILE *f = w->f;
    fprintf(f, "<?xml version='1.0'?>\n"
               "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n");
    fprintf(f,
            "<!-- Written by vine sim export: %d hosts, %d routers, %d links (full duplex).\n"
            "     Read back with vine's topology spec simgrid:FILE; the vine_* props\n"
            "     keep what SimGrid ignores (groups, link levels, parallel links). -->\n",
            t->nhosts, t->nvert - t->nhosts, t->nlinks);
    fprintf(f, "<platform version=\"4.1\">\n  <zone id=\"vine\" routing=\"%s\">\n", routing);
    fputs("    <prop id=\"vine_name\" value=\"", f);
    put_esc(f, t->name);
    fputs("\"/>\n    <prop id=\"vine_node_bw\" value=\"", f);
    put_num(f, t->node_bw, "Bps");
    fputs("\"/>\n    <prop id=\"vine_node_lat\" value=\"", f);
    put_num(f, t->node_lat, "s");
    fputs("\"/>\n", f);
    for (int v = 0; v < t->nvert; v++) /* a <router> holds no <prop> */
        if (t->kind[v] == VINE_V_SWITCH) {
            fputs("    <prop id=\"vine_group:", f);
            put_esc(f, w->name[v]);
            fprintf(f, "\" value=\"%d\"/>\n", t->group[v]);
        }
}

static void write_body(sgw *w)
{
    static const char *levels[] = {"node", "host", "local", "global"};
    const vine_topo *t = w->t;
    FILE *f = w->f;
    for (int v = 0; v < t->nvert; v++) {
        fputs(t->kind[v] == VINE_V_HOST ? "    <host id=\"" : "    <router id=\"", f);
        put_esc(f, w->name[v]);
        if (t->kind[v] == VINE_V_HOST)
            fprintf(f, "\" speed=\"1Gf\"><prop id=\"vine_group\" value=\"%d\"/></host>\n",
                    t->group[v]);
        else
            fputs("\"/>\n", f);
    }
    for (int i = 0; i < t->nlinks; i++) {
        const vine_link *l = &t->links[i];
        int lv = l->level >= 0 && l->level < VINE_LVL_COUNT ? l->level : VINE_LVL_LOCAL;
        fprintf(f, "    <link id=\"l%d\" bandwidth=\"", i);
        put_num(f, w->first[i] == i ? w->sum[i] : l->bw, "Bps");
        fputs("\" latency=\"", f);
        put_num(f, l->lat, "s");
        fprintf(f,
                "\" sharing_policy=\"SPLITDUPLEX\">\n      <prop id=\"vine_level\" "
                "value=\"%s\"/>\n",
                levels[lv]);
        if (w->first[i] != i)
            fprintf(f, "      <prop id=\"vine_parallel\" value=\"l%d\"/>\n%s", w->first[i],
                    w->reverse[i] ? "      <prop id=\"vine_direction\" value=\"DOWN\"/>\n" : "");
        else if (w->sum[i] != l->bw) {
            fputs("      <prop id=\"vine_bw\" value=\"", f);
            put_num(f, l->bw, "Bps");
            fputs("\"/>\n", f);
        }
        fputs("    </link>\n", f);
    }
    for (int i = 0; i < t->nlinks; i++) {
        if (w->first[i] != i)
            continue;
        fputs("    <route src=\"", f);
        put_esc(f, w->name[t->links[i].a]);
        fputs("\" dst=\"", f);
        put_esc(f, w->name[t->links[i].b]);
        fprintf(f, "\"><link_ctn id=\"l%d\" direction=\"UP\"/></route>\n", i);
    }
    fputs("  </zone>\n</platform>\n", f);
}

int vine__topo_write_simgrid(const vine_topo *t, const char *path, const char *routing, char *err,
                             size_t errlen)
{
    if (!routing)
        routing = "DijkstraCache";
    if (strcmp(routing, "Floyd") != 0 && strcmp(routing, "Dijkstra") != 0 &&
        strcmp(routing, "DijkstraCache") != 0) {
        snprintf(err, errlen,
                 "routing %.40s: expected Floyd, Dijkstra or DijkstraCache (SimGrid routings "
                 "that compute paths from routes between neighbours)",
                 routing);
        return VINE_ERR_UNSUPPORTED;
    }
    size_t nv = (size_t)t->nvert + 1, nl = (size_t)t->nlinks + 1;
    sgw w = {t,
             NULL,
             calloc(nv, sizeof(char *)),
             malloc(nl * sizeof(int)),
             malloc(nl * sizeof(double)),
             malloc(nl * sizeof(int))};
    int rc = w.name && w.first && w.sum && w.reverse ? VINE_OK : VINE_ERR_NO_MEM;
    if (rc == VINE_OK)
        rc = name_verts(&w, err, errlen);
    if (rc == VINE_OK)
        rc = parallel_sets(&w, err, errlen);
    if (rc == VINE_OK && !(w.f = fopen(path, "w"))) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        rc = VINE_ERR_UNSUPPORTED;
    }
    if (rc == VINE_OK) {
        write_head(&w, routing);
        write_body(&w);
        int bad = ferror(w.f);
        if (fclose(w.f) != 0 || bad) {
            snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
            rc = VINE_ERR_UNSUPPORTED;
        }
    }
    if (rc == VINE_ERR_NO_MEM)
        snprintf(err, errlen, "%s: out of memory", path);
    for (int v = 0; w.name && v < t->nvert; v++)
        free(w.name[v]);
    free(w.name);
    free(w.first);
    free(w.sum);
    free(w.reverse);
    return rc;
}

/*
 * SimGrid's own cluster of t (vine__topo_write_simgrid_cluster): the
 * topology's one bandwidth and latency, or a message in err.
 */
static int uniform_links(const vine_topo *t, int skip_host_links, double *bw, double *lat,
                         char *err, size_t errlen)
{
    int n = 0;
    for (int i = 0; i < t->nlinks; i++) {
        const vine_link *l = &t->links[i];
        if (skip_host_links && l->level == VINE_LVL_HOST)
            continue;
        if (n++ == 0) {
            *bw = l->bw;
            *lat = l->lat;
        } else if (l->bw != *bw || l->lat != *lat) {
            snprintf(err, errlen,
                     "links of %g B/s, %g s and %g B/s, %g s: SimGrid's cluster has one "
                     "bandwidth and latency for every link (write the graph without --cluster)",
                     *bw, *lat, l->bw, l->lat);
            return VINE_ERR_UNSUPPORTED;
        }
    }
    return VINE_OK;
}

/* Whether every host of t has vine's default name h<host>, as the cluster names them. */
static int default_host_names(const vine_topo *t)
{
    for (int h = 0; h < t->nhosts; h++) {
        char buf[32], want[32];
        snprintf(want, sizeof want, "h%d", h);
        if (strcmp(vine__topo_vname(t, t->host_vert[h], buf, sizeof buf), want) != 0)
            return 0;
    }
    return 1;
}

int vine__topo_write_simgrid_cluster(const vine_topo *t, const char *path, char *err, size_t errlen)
{
    char params[512];
    const char *kind;
    double bw = 0, lat = 0;
    size_t len = 0;
    int rc;
    if (!default_host_names(t)) {
        snprintf(err, errlen,
                 "%.60s: hosts with names of their own; a SimGrid cluster names "
                 "them h0, h1, ...",
                 t->name);
        return VINE_ERR_UNSUPPORTED;
    }
    if (t->ft_levels >= 2) {
        /* Zahavi's PGFT: m = down[], w = 1 (a host's leaf) then up[], one link a pair. */
        int L = t->ft_levels;
        if ((rc = uniform_links(t, 0, &bw, &lat, err, errlen)) != VINE_OK)
            return rc;
        kind = "FAT_TREE";
        len = (size_t)snprintf(params, sizeof params, "%d;", L);
        for (int i = 0; i < L && len < sizeof params; i++)
            len += (size_t)snprintf(params + len, sizeof params - len, "%s%d", i ? "," : "",
                                    t->ft_down[i]);
        for (int i = 0; i < L && len < sizeof params; i++)
            len += (size_t)snprintf(params + len, sizeof params - len, "%s%d", i ? "," : ";",
                                    i ? t->ft_up[i - 1] : 1);
        for (int i = 0; i < L && len < sizeof params; i++)
            len += (size_t)snprintf(params + len, sizeof params - len, "%s1", i ? "," : ";");
    } else if (t->shape_nd >= 1 && t->shape_wrap && t->nvert == 2 * t->nhosts) {
        /* One router a point with one host: SimGrid's TORUS joins the hosts themselves,
         * its first dimension the fastest (vine's last). */
        if ((rc = uniform_links(t, 1, &bw, &lat, err, errlen)) != VINE_OK)
            return rc;
        kind = "TORUS";
        for (int k = t->shape_nd - 1; k >= 0 && len < sizeof params; k--)
            len += (size_t)snprintf(params + len, sizeof params - len, "%s%d",
                                    k < t->shape_nd - 1 ? "," : "", t->shape[k]);
    } else {
        snprintf(err, errlen,
                 "%.60s: SimGrid has no cluster of this topology (--cluster writes the fat tree "
                 "and torus generators' networks); write the graph without --cluster",
                 t->name);
        return VINE_ERR_UNSUPPORTED;
    }
    if (len >= sizeof params) {
        snprintf(err, errlen, "%.60s: topo_parameters too long", t->name);
        return VINE_ERR_UNSUPPORTED;
    }
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        return VINE_ERR_UNSUPPORTED;
    }
    fprintf(f, "<?xml version='1.0'?>\n"
               "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n");
    fputs("<!-- Written by vine sim export --cluster: SimGrid's own ", f);
    put_esc(f, kind);
    fputs(" cluster of ", f);
    put_esc(f, t->name);
    fprintf(f, "\n     (%d hosts h0 ..., routed by SimGrid's %s routing). -->\n", t->nhosts, kind);
    fprintf(f,
            "<platform version=\"4.1\">\n  <cluster id=\"vine\" prefix=\"h\" suffix=\"\" "
            "radical=\"0-%d\" speed=\"1Gf\" bw=\"",
            t->nhosts - 1);
    put_num(f, bw, "Bps");
    fputs("\" lat=\"", f);
    put_num(f, lat, "s");
    fprintf(f, "\"\n           topology=\"%s\" topo_parameters=\"%s\" loopback_bw=\"", kind,
            params);
    put_num(f, t->node_bw, "Bps");
    fputs("\" loopback_lat=\"", f);
    put_num(f, t->node_lat, "s");
    fputs("\"/>\n</platform>\n", f);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        return VINE_ERR_UNSUPPORTED;
    }
    return VINE_OK;
}
