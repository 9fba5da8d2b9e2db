/*
 * Reader of vine's own edge-list format (MPI-free), for any graph:
 *
 *   # comment (from '#' to the end of the line)
 *   host NAME [group=G]          NAME is a host (rank-bearing vertex)
 *   switch NAME [group=G]        NAME is a switch, in group G
 *   A B [bw=BYTES/s] [lat=SECONDS] [level=host|local|global]   a link
 *
 * Tokens are separated by blanks; names are any run of non-blank characters
 * without '=' or '#', other than the words host and switch.  A name is a
 * vertex from its first mention, declared before or after its links; it is a
 * host only when a host line names it.  bw and lat default to VINE_TOPO_BW
 * and VINE_TOPO_LAT; numbers are C decimal or exponent forms (25e9).  Links
 * named twice are parallel links (two cables).  A host without group= takes
 * the group of the first switch it is linked to; other vertices without
 * group= are in no group (-1).  A link without level= is
 * host when it joins a host and a switch, local when both ends are in the
 * same group, global otherwise (so with no groups at all every switch-switch
 * link counts as global).  Refused: a vertex declared twice, a self-link, an
 * unknown option, a malformed number, a graph whose hosts are not connected.
 * Vertices are numbered in order of first mention, hosts too.  Cost: linear.
 */
#include "topo_read.h"
#include "topo_read_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ev_rec {
    const char *name;
    int kind;  /* -1 until declared, else enum vine_vkind */
    int group; /* -1 when unset */
    int line;  /* declaration line */
} ev_rec;

typedef struct el_rec {
    int a, b;
    double bw, lat;
    int level; /* -1: infer */
} el_rec;

typedef struct edges_state {
    const char *path;
    char *err;
    size_t errlen;
    ev_rec *v;
    int nv, vcap;
    el_rec *l;
    int nl, lcap;
    vine_strmap map;
} edges_state;

static int vertex(edges_state *st, const char *name, int line, int *id)
{
    int old;
    if (vine__strmap_add(&st->map, name, st->nv, &old) != VINE_OK)
        return VINE_ERR_NO_MEM;
    if (old >= 0) {
        *id = old;
        return VINE_OK;
    }
    if (st->nv >= VINE_READ_MAX_NAMES)
        return vine__rerr(st->err, st->errlen, st->path, line, "too many vertices");
    if (st->nv == st->vcap) {
        int cap = st->vcap ? 2 * st->vcap : 64;
        ev_rec *nv = realloc(st->v, (size_t)cap * sizeof *nv);
        if (!nv)
            return VINE_ERR_NO_MEM;
        st->v = nv;
        st->vcap = cap;
    }
    st->v[st->nv] = (ev_rec){name, -1, -1, 0};
    *id = st->nv++;
    return VINE_OK;
}

/* Parses a number that must be finite; 0 on failure. */
static int parse_real(const char *s, double *x)
{
    char *end;
    *x = strtod(s, &end);
    return end != s && *end == '\0' && isfinite(*x);
}

static int parse_group(const char *s, int *g)
{
    long v = 0;
    if (*s == '\0')
        return 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return 0;
        v = v * 10 + (*s - '0');
        if (v >= VINE_READ_MAX_NAMES)
            return 0;
    }
    *g = (int)v;
    return 1;
}

static int parse_line(edges_state *st, char *s, int line)
{
    char *tok[64];
    int nt = 0;
    char *hash = strchr(s, '#');
    if (hash)
        *hash = '\0';
    for (;;) {
        s = vine__skip_ws(s);
        if (*s == '\0' || *s == '\r')
            break;
        if (nt == 64)
            return vine__rerr(st->err, st->errlen, st->path, line, "too many fields");
        tok[nt++] = s;
        while (*s && *s != ' ' && *s != '\t' && *s != '\r')
            s++;
        if (*s)
            *s++ = '\0';
    }
    if (nt == 0)
        return VINE_OK;
    int decl = strcmp(tok[0], "host") == 0     ? VINE_V_HOST
               : strcmp(tok[0], "switch") == 0 ? VINE_V_SWITCH
                                               : -1;
    int first_opt = 2; /* options follow "host NAME" and "A B" */
    if (decl >= 0 && (nt < 2 || strchr(tok[1], '=')))
        return vine__rerr(st->err, st->errlen, st->path, line, "%s: expected a name", tok[0]);
    if (decl < 0 && (nt < 2 || strchr(tok[0], '=') || strchr(tok[1], '=')))
        return vine__rerr(st->err, st->errlen, st->path, line, "a link needs two names");
    if (decl >= 0) {
        int id, rc = vertex(st, tok[1], line, &id);
        if (rc != VINE_OK)
            return rc;
        ev_rec *v = &st->v[id];
        if (v->kind >= 0)
            return vine__rerr(st->err, st->errlen, st->path, line,
                              "%s is already declared on line %d", tok[1], v->line);
        v->kind = decl;
        v->line = line;
        for (int i = first_opt; i < nt; i++) {
            if (strncmp(tok[i], "group=", 6) == 0) {
                if (!parse_group(tok[i] + 6, &v->group))
                    return vine__rerr(st->err, st->errlen, st->path, line,
                                      "group=%s is not a group number", tok[i] + 6);
            } else {
                return vine__rerr(st->err, st->errlen, st->path, line, "unexpected \"%s\"", tok[i]);
            }
        }
        return VINE_OK;
    }
    el_rec e = {0, 0, VINE_TOPO_BW, VINE_TOPO_LAT, -1};
    int rc = vertex(st, tok[0], line, &e.a);
    if (rc == VINE_OK)
        rc = vertex(st, tok[1], line, &e.b);
    if (rc != VINE_OK)
        return rc;
    if (e.a == e.b)
        return vine__rerr(st->err, st->errlen, st->path, line, "self-link %s - %s", tok[0], tok[1]);
    for (int i = first_opt; i < nt; i++) {
        char *o = tok[i];
        if (strncmp(o, "bw=", 3) == 0) {
            if (!parse_real(o + 3, &e.bw) || !(e.bw > 0))
                return vine__rerr(st->err, st->errlen, st->path, line,
                                  "bw=%s is not a positive number", o + 3);
        } else if (strncmp(o, "lat=", 4) == 0) {
            if (!parse_real(o + 4, &e.lat) || e.lat < 0)
                return vine__rerr(st->err, st->errlen, st->path, line,
                                  "lat=%s is not a non-negative number", o + 4);
        } else if (strncmp(o, "level=", 6) == 0) {
            const char *lv = o + 6;
            e.level = strcmp(lv, "host") == 0     ? VINE_LVL_HOST
                      : strcmp(lv, "local") == 0  ? VINE_LVL_LOCAL
                      : strcmp(lv, "global") == 0 ? VINE_LVL_GLOBAL
                                                  : -2;
            if (e.level == -2)
                return vine__rerr(st->err, st->errlen, st->path, line,
                                  "level=%s: expected host, local or global", lv);
        } else {
            return vine__rerr(st->err, st->errlen, st->path, line, "unexpected \"%s\"", o);
        }
    }
    if (st->nl >= VINE_READ_MAX_LINKS)
        return vine__rerr(st->err, st->errlen, st->path, line, "too many links");
    if (st->nl == st->lcap) {
        int cap = st->lcap ? 2 * st->lcap : 64;
        el_rec *nl = realloc(st->l, (size_t)cap * sizeof *nl);
        if (!nl)
            return VINE_ERR_NO_MEM;
        st->l = nl;
        st->lcap = cap;
    }
    st->l[st->nl++] = e;
    return VINE_OK;
}

static int build(edges_state *st, vine_topo *t)
{
    for (int i = 0; i < st->nv; i++)
        if (st->v[i].kind < 0)
            st->v[i].kind = VINE_V_SWITCH;
    /* A host without a group takes that of the first switch it is linked to. */
    unsigned char *linked = calloc((size_t)st->nv, 1);
    if (!linked)
        return VINE_ERR_NO_MEM;
    for (int i = 0; i < st->nl; i++) {
        const el_rec *e = &st->l[i];
        for (int side = 0; side < 2; side++) {
            int h = side ? e->b : e->a, o = side ? e->a : e->b;
            if (st->v[h].kind != VINE_V_HOST || st->v[o].kind != VINE_V_SWITCH || linked[h])
                continue;
            linked[h] = 1;
            if (st->v[h].group < 0)
                st->v[h].group = st->v[o].group;
        }
    }
    free(linked);
    for (int i = 0; i < st->nv; i++)
        if (vine__topo_add_vertex(t, st->v[i].kind, st->v[i].group, st->v[i].name) < 0)
            return VINE_ERR_NO_MEM;
    for (int i = 0; i < st->nl; i++) {
        el_rec *e = &st->l[i];
        int lvl = e->level;
        if (lvl < 0) {
            const ev_rec *a = &st->v[e->a], *b = &st->v[e->b];
            if (a->kind != b->kind)
                lvl = VINE_LVL_HOST;
            else if (a->group >= 0 && a->group == b->group)
                lvl = VINE_LVL_LOCAL;
            else
                lvl = VINE_LVL_GLOBAL;
        }
        if (vine__topo_add_link(t, e->a, e->b, e->bw, e->lat, lvl) < 0)
            return VINE_ERR_NO_MEM;
    }
    int rc = vine__topo_finish(t);
    if (rc != VINE_OK)
        return rc;
    return vine__topo_check_connected(t, st->path, st->err, st->errlen);
}

int vine__topo_read_edges(const char *path, vine_topo *t, char *err, size_t errlen)
{
    edges_state st = {.path = path, .err = err, .errlen = errlen};
    vine__strmap_init(&st.map);
    vine_rfile f;
    int rc = vine__rfile_open(&f, path, err, errlen);
    if (rc == VINE_OK) {
        char *s;
        while (rc == VINE_OK && (s = vine__rfile_line(&f)))
            rc = parse_line(&st, s, f.lineno);
        if (rc == VINE_OK && st.nl == 0)
            rc = vine__rerr(err, errlen, path, 0, "no links");
        if (rc == VINE_OK) {
            vine__topo_set_file_name(t, "edges", path);
            rc = build(&st, t);
        }
    }
    vine__rfile_close(&f);
    free(st.v);
    free(st.l);
    vine__strmap_free(&st.map);
    if (rc != VINE_OK)
        vine__topo_free(t);
    if (rc == VINE_ERR_NO_MEM && err && errlen)
        snprintf(err, errlen, "%s: out of memory", path);
    return rc;
}
