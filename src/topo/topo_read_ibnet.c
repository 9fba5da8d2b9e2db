/*
 * Reader of ibnetdiscover's topology output (MPI-free), the text format of
 * ibnetdiscover(8) (infiniband-diags):
 *
 *   Switch 36 "S-248a070300f88a10"  # "MF0;leaf01:MQM8700/U1" enhanced port 0 lid 1 lmc 0
 *   [1]   "H-1c34da0300a1b2c0"[1](1c34da0300a1b2c1)  # "node01 mlx5_0" lid 7 4xHDR
 *   [33]  "S-248a070300f88b20"[1]   # "MF0;spine01:MQM8700/U1" lid 3 4xHDR
 *   Ca 1 "H-1c34da0300a1b2c0"  # "node01 mlx5_0"
 *   [1](1c34da0300a1b2c1)  "S-248a070300f88a10"[1]  # lid 7 lmc 0 "MF0;leaf01..." lid 1 4xHDR
 *
 * A node line (Switch, Ca, or Rt for a router: TYPE PORTS "ID" # "DESCRIPTION")
 * opens a block of port lines ([PORT](PORTGUID)[ext N] "PEER-ID"[PEER-PORT]
 * ...).  Lines starting with '#', the vendid=/devid=/...guid= lines and the
 * "Chassis" headings of -g output are skipped; any other line is an error.
 * Each link appears once from each end; both must agree (a port listed by
 * one end only is still a link).  Refused: a node or a port defined twice, a
 * port outside 1..PORTS, a peer that is never defined, a self-link, two ends
 * that disagree.
 *
 * The graph.  Hosts are the CAs, named by the first word of their
 * description (the host name, as in "node01 mlx5_0"; the ID when there is no
 * description); CAs with the same name are one host with several links
 * (multi-rail nodes).  CAs described as an "Aggregation Node" (SHARP) are
 * not hosts and are left out with their links.  Switches and routers are
 * switches, named by their description when no other switch has the same
 * one, else by their ID.  Link bandwidth comes from the width and speed
 * ibnetdiscover prints at the end of the port line (4xHDR: 4 lanes of
 * 50 Gb/s = 25e9 bytes/s; SDR 2, DDR 4, QDR 8, FDR10 10, FDR 13.64, EDR 25,
 * HDR 50, NDR 100, XDR 200 Gb/s per lane), VINE_TOPO_BW when absent;
 * latency VINE_TOPO_LAT.
 *
 * Groups.  Leaves are the switches linked to a host; a switch's height is 1
 * for a leaf and 1 + the height of its nearest lower neighbour otherwise
 * (breadth-first from the leaves).  If some link joins two switches of equal
 * height (the spine-spine global links of a Dragonfly+), the groups are the
 * connected parts of the switch graph without those links (the Dragonfly+
 * groups).  Otherwise, in a tree, the groups are the connected parts left when
 * the top-height switches are removed (the pods of a 3-level fat tree, the
 * single leaves of a 2-level one); top switches are in no group (-1); a
 * fabric of leaves only is one group per connected part.  Groups are numbered
 * in host order; a host is in the group of the first switch it is linked to.
 * Links: to a host VINE_LVL_HOST, between switches of one group
 * VINE_LVL_LOCAL, else VINE_LVL_GLOBAL.  Cost: O(E log E) for E port lines.
 */
#include "topo_read.h"
#include "topo_read_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IB_MAX_PORTS 1024

enum { IB_SWITCH = 0, IB_CA = 1, IB_ROUTER = 2 };

typedef struct ib_node {
    const char *id;
    char *desc; /* NULL when none */
    int type, nports, line;
    int skip;    /* an aggregation node */
    int dupdesc; /* a switch whose description another switch has too */
    int vert;    /* vertex in the graph, -1 when skipped */
} ib_node;

typedef struct ib_port {
    int node, port;
    const char *peer_id;
    int peer, pport;
    double bw;
    int line;
} ib_port;

typedef struct ib_state {
    const char *path;
    char *err;
    size_t errlen;
    ib_node *nd;
    int nn, ncap;
    ib_port *pt;
    int np, pcap;
    vine_strmap idmap;
} ib_state;

/* Reads an unsigned decimal at *p (at most 9 digits); -1 when none. */
static long read_uint(char **p)
{
    char *s = *p;
    long v = 0;
    int n = 0;
    while (*s >= '0' && *s <= '9' && n < 9) {
        v = v * 10 + (*s - '0');
        s++;
        n++;
    }
    if (n == 0 || (*s >= '0' && *s <= '9'))
        return -1;
    *p = s;
    return v;
}

/* A quoted string at *p ('"' expected): NUL-terminates it in place. */
static char *read_quoted(char **p)
{
    char *s = *p;
    if (*s != '"')
        return NULL;
    char *q = strchr(s + 1, '"');
    if (!q)
        return NULL;
    *q = '\0';
    *p = q + 1;
    return s + 1;
}

/* Bytes per second of a "4xHDR" width-speed token; 0 when not one. */
static double link_speed(const char *tok)
{
    static const struct {
        const char *name;
        double gbps; /* data rate per lane */
    } sp[] = {{"SDR", 2},  {"DDR", 4},  {"QDR", 8},   {"FDR10", 10}, {"FDR", 13.64},
              {"EDR", 25}, {"HDR", 50}, {"NDR", 100}, {"XDR", 200}};
    int w = 0;
    while (*tok >= '0' && *tok <= '9' && w < 1000)
        w = w * 10 + (*tok++ - '0');
    if (w == 0 || *tok != 'x')
        return 0;
    tok++;
    for (size_t i = 0; i < sizeof sp / sizeof sp[0]; i++)
        if (strcmp(tok, sp[i].name) == 0)
            return w * sp[i].gbps * 1e9 / 8;
    return 0;
}

static int node_line(ib_state *st, char *s, int type, int line)
{
    char *p = vine__skip_ws(s);
    long nports = read_uint(&p);
    if (nports < 1 || nports > IB_MAX_PORTS)
        return vine__rerr(st->err, st->errlen, st->path, line,
                          "expected a port count (1..%d) after the node type", IB_MAX_PORTS);
    p = vine__skip_ws(p);
    char *id = read_quoted(&p);
    if (!id || !*id)
        return vine__rerr(st->err, st->errlen, st->path, line, "expected a quoted node ID");
    char *desc = NULL;
    char *hash = strchr(p, '#');
    if (hash) {
        char *q0 = strchr(hash, '"'), *q1 = strrchr(hash, '"');
        if (q0 && q1 > q0) {
            *q1 = '\0';
            desc = q0 + 1;
        }
    }
    if (st->nn >= VINE_READ_MAX_NAMES)
        return vine__rerr(st->err, st->errlen, st->path, line, "too many nodes");
    if (st->nn == st->ncap) {
        int cap = st->ncap ? 2 * st->ncap : 64;
        ib_node *nn = realloc(st->nd, (size_t)cap * sizeof *nn);
        if (!nn)
            return VINE_ERR_NO_MEM;
        st->nd = nn;
        st->ncap = cap;
    }
    int old;
    if (vine__strmap_add(&st->idmap, id, st->nn, &old) != VINE_OK)
        return VINE_ERR_NO_MEM;
    if (old >= 0)
        return vine__rerr(st->err, st->errlen, st->path, line,
                          "node \"%s\" is already defined on line %d", id, st->nd[old].line);
    ib_node *n = &st->nd[st->nn++];
    *n = (ib_node){id, desc, type, (int)nports, line, 0, 0, -1};
    if (type == IB_CA && desc && strstr(desc, "Aggregation Node"))
        n->skip = 1;
    return VINE_OK;
}

static int port_line(ib_state *st, char *s, int line)
{
    if (st->nn == 0)
        return vine__rerr(st->err, st->errlen, st->path, line, "port line before any node line");
    ib_node *n = &st->nd[st->nn - 1];
    /* The width-speed token ends the line, when there is one. */
    size_t len = strlen(s);
    while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t'))
        s[--len] = '\0';
    char *last = s + len;
    while (last > s && last[-1] != ' ' && last[-1] != '\t')
        last--;
    double bw = link_speed(last);

    char *p = s + 1;
    long port = read_uint(&p);
    if (port < 0 || *p != ']')
        return vine__rerr(st->err, st->errlen, st->path, line, "expected [PORT]");
    p++;
    if (port < 1 || port > n->nports)
        return vine__rerr(st->err, st->errlen, st->path, line,
                          "port %ld outside 1..%d of node \"%s\"", port, n->nports, n->id);
    if (*p == '(') { /* port GUID */
        p = strchr(p, ')');
        if (!p)
            return vine__rerr(st->err, st->errlen, st->path, line, "unterminated '('");
        p++;
    }
    if (*p == '[') { /* [ext N] of grouped output */
        p = strchr(p, ']');
        if (!p)
            return vine__rerr(st->err, st->errlen, st->path, line, "unterminated '['");
        p++;
    }
    p = vine__skip_ws(p);
    char *peer = read_quoted(&p);
    if (!peer || !*peer)
        return vine__rerr(st->err, st->errlen, st->path, line, "expected a quoted peer ID");
    if (*p != '[')
        return vine__rerr(st->err, st->errlen, st->path, line, "expected [PEER-PORT]");
    p++;
    long pport = read_uint(&p);
    if (pport < 1 || *p != ']')
        return vine__rerr(st->err, st->errlen, st->path, line, "expected [PEER-PORT]");
    if (st->np >= VINE_READ_MAX_LINKS)
        return vine__rerr(st->err, st->errlen, st->path, line, "too many ports");
    if (st->np == st->pcap) {
        int cap = st->pcap ? 2 * st->pcap : 256;
        ib_port *np = realloc(st->pt, (size_t)cap * sizeof *np);
        if (!np)
            return VINE_ERR_NO_MEM;
        st->pt = np;
        st->pcap = cap;
    }
    st->pt[st->np++] = (ib_port){st->nn - 1, (int)port, peer, -1, (int)pport, bw, line};
    return VINE_OK;
}

static int starts_word(const char *s, const char *w)
{
    size_t n = strlen(w);
    return strncmp(s, w, n) == 0 && (s[n] == ' ' || s[n] == '\t');
}

static int parse_file(ib_state *st, vine_rfile *f)
{
    char *s;
    int rc = VINE_OK;
    while (rc == VINE_OK && (s = vine__rfile_line(f))) {
        s = vine__skip_ws(s);
        if (*s == '\0' || *s == '#')
            continue;
        if (starts_word(s, "Switch"))
            rc = node_line(st, s + 6, IB_SWITCH, f->lineno);
        else if (starts_word(s, "Ca"))
            rc = node_line(st, s + 2, IB_CA, f->lineno);
        else if (starts_word(s, "Rt"))
            rc = node_line(st, s + 2, IB_ROUTER, f->lineno);
        else if (*s == '[')
            rc = port_line(st, s, f->lineno);
        else if (strncmp(s, "Non-Chassis Nodes", 17) == 0 || starts_word(s, "Chassis"))
            continue;
        else {
            char *q = s;
            while ((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z'))
                q++;
            if (q == s || *q != '=') /* vendid=, devid=, sysimgguid=, switchguid=, caguid= */
                rc = vine__rerr(st->err, st->errlen, st->path, f->lineno,
                                "unrecognised line \"%.40s\"", s);
        }
    }
    return rc;
}

/* A port line's (node, port), sorted to find each link's other end. */
typedef struct ib_key {
    int node, port, idx;
} ib_key;

static int cmp_key(const void *x, const void *y)
{
    const ib_key *a = x, *b = y;
    if (a->node != b->node)
        return a->node < b->node ? -1 : 1;
    return (a->port > b->port) - (a->port < b->port);
}

/* The port line of (node, port), or -1 (keys sorted by cmp_key). */
static int find_port(const ib_key *key, int n, int node, int port)
{
    int lo = 0, hi = n - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        const ib_key *q = &key[mid];
        int c = q->node != node ? (q->node < node ? -1 : 1) : (q->port > port) - (q->port < port);
        if (c == 0)
            return q->idx;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

typedef struct ib_link {
    int a, b; /* vertices */
    double bw;
} ib_link;

/* Heights, groups, levels; then the graph.  nh hosts are vertices 0..nh-1. */
static int build_graph(ib_state *st, vine_topo *t, char **vname, int nv, int nh, ib_link *lk,
                       int nl)
{
    int rc = VINE_ERR_NO_MEM;
    int *start = calloc((size_t)nv + 1, sizeof *start),
        *adj = malloc((2 * (size_t)nl + 1) * sizeof *adj);
    int *height = calloc((size_t)nv, sizeof *height), *comp = malloc((size_t)nv * sizeof *comp);
    int *queue = malloc((size_t)nv * sizeof *queue), *gid = NULL, *group = NULL;
    if (!start || !adj || !height || !comp || !queue)
        goto out;
    for (int i = 0; i < nl; i++) {
        start[lk[i].a + 1]++;
        start[lk[i].b + 1]++;
    }
    for (int v = 0; v < nv; v++)
        start[v + 1] += start[v];
    {
        int *fill = malloc(((size_t)nv + 1) * sizeof *fill);
        if (!fill)
            goto out;
        memcpy(fill, start, ((size_t)nv + 1) * sizeof *fill);
        for (int i = 0; i < nl; i++) {
            adj[fill[lk[i].a]++] = lk[i].b;
            adj[fill[lk[i].b]++] = lk[i].a;
        }
        free(fill);
    }
    /* Heights: breadth-first from the leaves over switch-switch links. */
    int head = 0, tail = 0, hmax = 0;
    for (int v = nh; v < nv; v++)
        for (int k = start[v]; k < start[v + 1]; k++)
            if (adj[k] < nh) {
                height[v] = 1;
                queue[tail++] = v;
                break;
            }
    while (head < tail) {
        int v = queue[head++];
        if (height[v] > hmax)
            hmax = height[v];
        for (int k = start[v]; k < start[v + 1]; k++) {
            int w = adj[k];
            if (w >= nh && height[w] == 0) {
                height[w] = height[v] + 1;
                queue[tail++] = w;
            }
        }
    }
    int flat = 0; /* a link between switches of equal height */
    for (int i = 0; i < nl && !flat; i++)
        flat = lk[i].a >= nh && lk[i].b >= nh && height[lk[i].a] == height[lk[i].b] &&
               height[lk[i].a] > 0;
    /* Connected parts of the switches that may be in a group. */
    for (int v = 0; v < nv; v++)
        comp[v] = -1;
    int ncomp = 0;
    for (int s = nh; s < nv; s++) {
        if (comp[s] >= 0 || height[s] == 0 || (!flat && hmax >= 2 && height[s] == hmax))
            continue;
        head = tail = 0;
        queue[tail++] = s;
        comp[s] = ncomp;
        while (head < tail) {
            int v = queue[head++];
            for (int k = start[v]; k < start[v + 1]; k++) {
                int w = adj[k];
                if (w < nh || comp[w] >= 0 || height[w] == 0)
                    continue;
                if (flat ? height[w] == height[v] : (hmax >= 2 && height[w] == hmax))
                    continue;
                comp[w] = ncomp;
                queue[tail++] = w;
            }
        }
        ncomp++;
    }
    /* Group ids in host order, then the parts no host reaches. */
    gid = malloc(((size_t)ncomp + 1) * sizeof *gid);
    group = malloc((size_t)nv * sizeof *group);
    if (!gid || !group)
        goto out;
    for (int c = 0; c < ncomp; c++)
        gid[c] = -1;
    int ng = 0;
    for (int h = 0; h < nh; h++) {
        group[h] = -1;
        for (int k = start[h]; k < start[h + 1]; k++) {
            if (adj[k] >= nh) {
                int c = comp[adj[k]];
                if (c >= 0 && gid[c] < 0)
                    gid[c] = ng++;
                group[h] = c >= 0 ? gid[c] : -1;
                break;
            }
        }
    }
    for (int s = nh; s < nv; s++) {
        int c = comp[s];
        if (c >= 0 && gid[c] < 0)
            gid[c] = ng++;
        group[s] = c >= 0 ? gid[c] : -1;
    }
    for (int v = 0; v < nv; v++)
        if (vine__topo_add_vertex(t, v < nh ? VINE_V_HOST : VINE_V_SWITCH, group[v], vname[v]) < 0)
            goto out;
    for (int i = 0; i < nl; i++) {
        int a = lk[i].a, b = lk[i].b;
        int lvl = (a < nh || b < nh)                        ? VINE_LVL_HOST
                  : (group[a] >= 0 && group[a] == group[b]) ? VINE_LVL_LOCAL
                                                            : VINE_LVL_GLOBAL;
        if (vine__topo_add_link(t, a, b, lk[i].bw > 0 ? lk[i].bw : VINE_TOPO_BW, VINE_TOPO_LAT,
                                lvl) < 0)
            goto out;
    }
    rc = vine__topo_finish(t);
    if (rc == VINE_OK)
        rc = vine__topo_check_connected(t, st->path, st->err, st->errlen);
out:
    free(start);
    free(adj);
    free(height);
    free(comp);
    free(queue);
    free(gid);
    free(group);
    return rc;
}

static int build(ib_state *st, vine_topo *t)
{
    int rc = VINE_ERR_NO_MEM;
    ib_key *key = malloc(((size_t)st->np + 1) * sizeof *key);
    char **vname = malloc(((size_t)st->nn + 1) * sizeof *vname);
    ib_link *lk = malloc(((size_t)st->np + 1) * sizeof *lk);
    vine_strmap hosts, descs;
    vine__strmap_init(&hosts);
    vine__strmap_init(&descs);
    if (!key || !vname || !lk)
        goto out;
    /* Peers and ports. */
    for (int i = 0; i < st->np; i++) {
        ib_port *e = &st->pt[i];
        key[i] = (ib_key){e->node, e->port, i};
        e->peer = vine__strmap_get(&st->idmap, e->peer_id);
        if (e->peer < 0) {
            rc = vine__rerr(st->err, st->errlen, st->path, e->line,
                            "peer \"%s\" is not defined in the file", e->peer_id);
            goto out;
        }
        if (e->peer == e->node) {
            rc = vine__rerr(st->err, st->errlen, st->path, e->line, "self-link of \"%s\"",
                            e->peer_id);
            goto out;
        }
        if (e->pport > st->nd[e->peer].nports) {
            rc = vine__rerr(st->err, st->errlen, st->path, e->line,
                            "port %d outside 1..%d of node \"%s\"", e->pport,
                            st->nd[e->peer].nports, e->peer_id);
            goto out;
        }
    }
    qsort(key, (size_t)st->np, sizeof *key, cmp_key);
    for (int i = 1; i < st->np; i++) {
        const ib_port *a = &st->pt[key[i - 1].idx], *b = &st->pt[key[i].idx];
        if (a->node == b->node && a->port == b->port) {
            const ib_port *l = a->line > b->line ? a : b;
            rc = vine__rerr(st->err, st->errlen, st->path, l->line,
                            "port %d of \"%s\" is listed twice", l->port, st->nd[l->node].id);
            goto out;
        }
    }
    /* Vertices: hosts (CAs merged by name) first, then switches. */
    int nh = 0, nv;
    for (int i = 0; i < st->nn; i++) {
        ib_node *n = &st->nd[i];
        if (n->type != IB_CA || n->skip)
            continue;
        char *name = (char *)n->id;
        if (n->desc) {
            char *w = vine__skip_ws(n->desc), *e = w;
            while (*e && *e != ' ' && *e != '\t')
                e++;
            *e = '\0';
            if (*w)
                name = w;
        }
        int old;
        if (vine__strmap_add(&hosts, name, nh, &old) != VINE_OK)
            goto out;
        if (old >= 0) {
            n->vert = old;
        } else {
            vname[nh] = name;
            n->vert = nh++;
        }
    }
    nv = nh;
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < st->nn; i++) {
            ib_node *n = &st->nd[i];
            if (n->type == IB_CA)
                continue;
            if (pass == 0) { /* count descriptions */
                int old;
                if (n->desc && *n->desc) {
                    if (vine__strmap_add(&descs, n->desc, i, &old) != VINE_OK)
                        goto out;
                    if (old >= 0)
                        n->dupdesc = st->nd[old].dupdesc = 1;
                }
                continue;
            }
            vname[nv] = (n->desc && *n->desc && !n->dupdesc) ? n->desc : (char *)n->id;
            n->vert = nv++;
        }
    }
    /* Links, each once: from its lower (node, port) end, or its only end. */
    int nl = 0;
    for (int i = 0; i < st->np; i++) {
        const ib_port *e = &st->pt[i];
        int r = find_port(key, st->np, e->peer, e->pport);
        if (r >= 0 && (st->pt[r].peer != e->node || st->pt[r].pport != e->port)) {
            rc = vine__rerr(st->err, st->errlen, st->path, e->line,
                            "\"%s\"[%d] leads to \"%s\"[%d] but that port leads to \"%s\"[%d] "
                            "(line %d)",
                            st->nd[e->node].id, e->port, e->peer_id, e->pport, st->pt[r].peer_id,
                            st->pt[r].pport, st->pt[r].line);
            goto out;
        }
        if (r >= 0 && e->node > e->peer)
            continue; /* the other end adds it */
        int a = st->nd[e->node].vert, b = st->nd[e->peer].vert;
        if (a < 0 || b < 0)
            continue; /* an aggregation node */
        if (a == b) {
            rc = vine__rerr(st->err, st->errlen, st->path, e->line,
                            "link between two CAs of host %s", vname[a]);
            goto out;
        }
        lk[nl++] = (ib_link){a, b, e->bw > 0 ? e->bw : (r >= 0 ? st->pt[r].bw : 0)};
    }
    rc = build_graph(st, t, vname, nv, nh, lk, nl);
out:
    free(key);
    free(vname);
    free(lk);
    vine__strmap_free(&hosts);
    vine__strmap_free(&descs);
    return rc;
}

int vine__topo_read_ibnet(const char *path, vine_topo *t, char *err, size_t errlen)
{
    ib_state st = {.path = path, .err = err, .errlen = errlen};
    vine__strmap_init(&st.idmap);
    vine_rfile f;
    int rc = vine__rfile_open(&f, path, err, errlen);
    if (rc == VINE_OK)
        rc = parse_file(&st, &f);
    if (rc == VINE_OK && st.nn == 0)
        rc = vine__rerr(err, errlen, path, 0, "no Switch or Ca lines");
    if (rc == VINE_OK) {
        vine__topo_set_file_name(t, "ibnet", path);
        rc = build(&st, t);
    }
    vine__rfile_close(&f);
    free(st.nd);
    free(st.pt);
    vine__strmap_free(&st.idmap);
    if (rc != VINE_OK)
        vine__topo_free(t);
    if (rc == VINE_ERR_NO_MEM && err && errlen)
        snprintf(err, errlen, "%s: out of memory", path);
    return rc;
}
