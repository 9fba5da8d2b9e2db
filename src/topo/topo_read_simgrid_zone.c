/*
 * Reader half of the explicit SimGrid graph (topo_simgrid_zone.h): keeps the
 * <host>, <router>, <link>, <route> and <link_ctn> elements and the vine_*
 * props of a platform, then builds the graph: vertices in the order of their
 * elements (hosts and routers interleaved as written), links in the order of
 * their <link> elements, each between the two ends of the one route that
 * names it (direction DOWN swaps them).  A platform written by hand reads too
 * when every route is between neighbours over one link: groups are 0 and
 * levels are host (a host to a router) or local without the props.
 * Cost: linear in the elements (hash maps of names).
 */
#include "topo_read_util.h"
#include "topo_simgrid_zone.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

void vine__sgz_init(vine_sgz *z)
{
    memset(z, 0, sizeof *z);
}

void vine__sgz_free(vine_sgz *z)
{
    free(z->v);
    free(z->l);
    free(z->r);
    free(z->g);
    vine__sgz_init(z);
}

/* Makes room for one more element of size sz in *arr (count n, capacity *cap). */
static int grow(void **arr, int n, int *cap, size_t sz)
{
    if (n < *cap)
        return VINE_OK;
    int nc = *cap ? 2 * *cap : 64;
    void *p = realloc(*arr, (size_t)nc * sz);
    if (!p)
        return VINE_ERR_NO_MEM;
    *arr = p;
    *cap = nc;
    return VINE_OK;
}

static const char *attr(char **an, char **av, int na, const char *key)
{
    for (int i = 0; i < na; i++)
        if (strcmp(an[i], key) == 0)
            return av[i];
    return NULL;
}

static int add_vert(vine_sgz *z, const char *id, int host, int line)
{
    if (grow((void **)&z->v, z->nv, &z->cv, sizeof *z->v) != VINE_OK)
        return VINE_ERR_NO_MEM;
    z->v[z->nv++] = (vine_sgz_vert){id, line, host};
    return VINE_OK;
}

/* A <prop> of the zone, of the last host or of the last link. */
static int take_prop(vine_sgz *z, const char *parent, const char *key, const char *val, int line)
{
    if (!key || !val)
        return VINE_OK;
    if (strcmp(parent, "zone") == 0) {
        if (strcmp(key, "vine_name") == 0)
            z->name = val;
        else if (strcmp(key, "vine_node_bw") == 0)
            z->node_bw = val;
        else if (strcmp(key, "vine_node_lat") == 0)
            z->node_lat = val;
        else if (strncmp(key, "vine_group:", 11) == 0) {
            if (grow((void **)&z->g, z->ng, &z->cg, sizeof *z->g) != VINE_OK)
                return VINE_ERR_NO_MEM;
            z->g[z->ng++] = (vine_sgz_gprop){key + 11, val, line};
        }
    } else if (strcmp(parent, "host") == 0 && z->nv > 0 && strcmp(key, "vine_group") == 0) {
        if (grow((void **)&z->g, z->ng, &z->cg, sizeof *z->g) != VINE_OK)
            return VINE_ERR_NO_MEM;
        z->g[z->ng++] = (vine_sgz_gprop){z->v[z->nv - 1].id, val, line};
    } else if (strcmp(parent, "link") == 0 && z->nl > 0) {
        vine_sgz_link *l = &z->l[z->nl - 1];
        if (strcmp(key, "vine_level") == 0)
            l->level = val;
        else if (strcmp(key, "vine_bw") == 0)
            l->own_bw = val;
        else if (strcmp(key, "vine_parallel") == 0)
            l->parallel = val;
        else if (strcmp(key, "vine_direction") == 0)
            l->direction = val;
    }
    return VINE_OK;
}

int vine__sgz_elem(vine_sgz *z, const char *name, const char *parent, char **an, char **av, int na,
                   int line)
{
    if (strcmp(name, "host") == 0 || strcmp(name, "router") == 0)
        return add_vert(z, attr(an, av, na, "id"), name[0] == 'h', line);
    if (strcmp(name, "link") == 0) {
        if (grow((void **)&z->l, z->nl, &z->cl, sizeof *z->l) != VINE_OK)
            return VINE_ERR_NO_MEM;
        z->l[z->nl++] = (vine_sgz_link){attr(an, av, na, "id"),
                                        attr(an, av, na, "bandwidth"),
                                        attr(an, av, na, "latency"),
                                        NULL,
                                        NULL,
                                        NULL,
                                        NULL,
                                        line,
                                        -1,
                                        -1};
        return VINE_OK;
    }
    if (strcmp(name, "route") == 0) {
        if (grow((void **)&z->r, z->nr, &z->cr, sizeof *z->r) != VINE_OK)
            return VINE_ERR_NO_MEM;
        z->r[z->nr++] =
            (vine_sgz_route){attr(an, av, na, "src"), attr(an, av, na, "dst"), NULL, line, 0, 0};
        return VINE_OK;
    }
    if (!parent)
        return VINE_OK;
    if (strcmp(name, "link_ctn") == 0 && strcmp(parent, "route") == 0 && z->nr > 0) {
        vine_sgz_route *r = &z->r[z->nr - 1];
        const char *dir = attr(an, av, na, "direction");
        if (r->nlinks++ == 0) {
            r->link = attr(an, av, na, "id");
            r->down = dir && strcmp(dir, "DOWN") == 0;
        }
        return VINE_OK;
    }
    if (strcmp(name, "prop") == 0)
        return take_prop(z, parent, attr(an, av, na, "id"), attr(an, av, na, "value"), line);
    return VINE_OK;
}

static int parse_group(const char *s, int *g)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end || errno || v < -1 || v > INT_MAX / 2)
        return 0;
    *g = (int)v;
    return 1;
}

typedef struct sgz_ctx {
    const vine_sgz *z;
    vine_sg_unit_fn unit;
    vine_topo *t;
    const char *path;
    char *err;
    size_t errlen;
    vine_strmap verts, links;
} sgz_ctx;

/* Vertices with their groups, then the name maps. */
static int build_verts(sgz_ctx *c, int *group)
{
    const vine_sgz *z = c->z;
    int old, rc;
    for (int i = 0; i < z->nv; i++) {
        if (!z->v[i].id)
            return vine__rerr(c->err, c->errlen, c->path, z->v[i].line,
                              "<%s> without id=", z->v[i].host ? "host" : "router");
        if ((rc = vine__strmap_add(&c->verts, z->v[i].id, i, &old)) != VINE_OK)
            return rc;
        if (old >= 0)
            return vine__rerr(c->err, c->errlen, c->path, z->v[i].line,
                              "%.60s named twice (first on line %d)", z->v[i].id, z->v[old].line);
        group[i] = 0;
    }
    for (int i = 0; i < z->ng; i++) {
        int v = vine__strmap_get(&c->verts, z->g[i].router), g;
        if (v < 0)
            return vine__rerr(c->err, c->errlen, c->path, z->g[i].line,
                              "vine_group of %.60s, which is no host or router", z->g[i].router);
        if (!parse_group(z->g[i].value, &g))
            return vine__rerr(c->err, c->errlen, c->path, z->g[i].line,
                              "vine_group \"%.40s\": expected an integer >= -1", z->g[i].value);
        group[v] = g;
    }
    for (int i = 0; i < z->nv; i++)
        if (vine__topo_add_vertex(c->t, z->v[i].host ? VINE_V_HOST : VINE_V_SWITCH, group[i],
                                  z->v[i].id) < 0)
            return VINE_ERR_NO_MEM;
    return VINE_OK;
}

/* Sets the two ends of every link from the routes and vine_parallel props. */
static int link_ends(sgz_ctx *c, int *la, int *lb)
{
    const vine_sgz *z = c->z;
    int old, rc;
    for (int i = 0; i < z->nl; i++) {
        if (!z->l[i].id)
            return vine__rerr(c->err, c->errlen, c->path, z->l[i].line, "<link> without id=");
        if ((rc = vine__strmap_add(&c->links, z->l[i].id, i, &old)) != VINE_OK)
            return rc;
        if (old >= 0)
            return vine__rerr(c->err, c->errlen, c->path, z->l[i].line,
                              "link %.60s declared twice (first on line %d)", z->l[i].id,
                              z->l[old].line);
        la[i] = lb[i] = -1;
    }
    for (int i = 0; i < z->nr; i++) {
        const vine_sgz_route *r = &z->r[i];
        int s = r->src ? vine__strmap_get(&c->verts, r->src) : -1;
        int d = r->dst ? vine__strmap_get(&c->verts, r->dst) : -1;
        int l = r->link ? vine__strmap_get(&c->links, r->link) : -1;
        if (s < 0 || d < 0)
            return vine__rerr(c->err, c->errlen, c->path, r->line,
                              "<route> between unknown hosts or routers (src=, dst=)");
        if (r->nlinks != 1 || l < 0)
            return vine__rerr(c->err, c->errlen, c->path, r->line,
                              "<route> of %d known links: only routes of one link between "
                              "neighbours are read",
                              r->nlinks == 1 ? 0 : r->nlinks);
        if (la[l] >= 0)
            return vine__rerr(c->err, c->errlen, c->path, r->line,
                              "link %.60s is in a second route", r->link);
        la[l] = r->down ? d : s;
        lb[l] = r->down ? s : d;
    }
    for (int i = 0; i < z->nl; i++) {
        if (!z->l[i].parallel)
            continue;
        int p = vine__strmap_get(&c->links, z->l[i].parallel);
        if (la[i] >= 0 || p < 0 || la[p] < 0 || z->l[p].parallel)
            return vine__rerr(c->err, c->errlen, c->path, z->l[i].line,
                              "vine_parallel=\"%.60s\": expected a routed link, this one in no "
                              "route",
                              z->l[i].parallel);
        int down = z->l[i].direction && strcmp(z->l[i].direction, "DOWN") == 0;
        la[i] = down ? lb[p] : la[p];
        lb[i] = down ? la[p] : lb[p];
    }
    return VINE_OK;
}

static int build_links(sgz_ctx *c, const int *la, const int *lb)
{
    const vine_sgz *z = c->z;
    static const char *levels[] = {"node", "host", "local", "global"};
    for (int i = 0; i < z->nl; i++) {
        const vine_sgz_link *l = &z->l[i];
        const char *bws = l->own_bw ? l->own_bw : l->bw;
        double bw, lat;
        if (la[i] < 0)
            return vine__rerr(c->err, c->errlen, c->path, l->line, "link %.60s is in no route",
                              l->id);
        if (!bws || !c->unit(bws, 1, &bw) || !(bw > 0))
            return vine__rerr(c->err, c->errlen, c->path, l->line,
                              "link %.60s: bandwidth \"%.40s\": expected one such as 10Gbps", l->id,
                              bws ? bws : "");
        if (!l->lat || !c->unit(l->lat, 0, &lat))
            lat = 0; /* SimGrid's default latency */
        int level = -1;
        for (int k = 1; k < VINE_LVL_COUNT && l->level; k++)
            if (strcmp(l->level, levels[k]) == 0)
                level = k;
        if (l->level && level < 0)
            return vine__rerr(c->err, c->errlen, c->path, l->line,
                              "link %.60s: vine_level \"%.20s\": expected host, local or global",
                              l->id, l->level);
        if (level < 0)
            level = z->v[la[i]].host != z->v[lb[i]].host ? VINE_LVL_HOST : VINE_LVL_LOCAL;
        if (la[i] == lb[i])
            return vine__rerr(c->err, c->errlen, c->path, l->line,
                              "link %.60s joins %.60s to itself", l->id, z->v[la[i]].id);
        if (vine__topo_add_link(c->t, la[i], lb[i], bw, lat, level) < 0)
            return VINE_ERR_NO_MEM;
    }
    return VINE_OK;
}

static int node_params(sgz_ctx *c)
{
    double v;
    if (c->z->node_bw && c->unit(c->z->node_bw, 1, &v) && v > 0)
        c->t->node_bw = v;
    if (c->z->node_lat && c->unit(c->z->node_lat, 0, &v))
        c->t->node_lat = v;
    return VINE_OK;
}

int vine__sgz_build(const vine_sgz *z, vine_sg_unit_fn unit, vine_topo *t, const char *path,
                    char *err, size_t errlen)
{
    if (z->nv > VINE_READ_MAX_NAMES || z->nl > VINE_READ_MAX_LINKS)
        return vine__rerr(err, errlen, path, 0, "topology too large (%d vertices, %d links)", z->nv,
                          z->nl);
    sgz_ctx c = {z, unit, t, path, err, errlen, {0}, {0}};
    vine__strmap_init(&c.verts);
    vine__strmap_init(&c.links);
    int *group = malloc(((size_t)z->nv + 1) * sizeof *group);
    int *la = malloc(((size_t)z->nl + 1) * sizeof *la);
    int *lb = malloc(((size_t)z->nl + 1) * sizeof *lb);
    int rc = group && la && lb ? VINE_OK : VINE_ERR_NO_MEM;
    if (rc == VINE_OK)
        rc = build_verts(&c, group);
    if (rc == VINE_OK)
        rc = link_ends(&c, la, lb);
    if (rc == VINE_OK)
        rc = build_links(&c, la, lb);
    if (rc == VINE_OK)
        rc = node_params(&c);
    if (rc == VINE_OK)
        rc = vine__topo_finish(t);
    if (rc == VINE_OK)
        rc = vine__topo_check_connected(t, path, err, errlen);
    vine__strmap_free(&c.verts);
    vine__strmap_free(&c.links);
    free(group);
    free(la);
    free(lb);
    return rc;
}
