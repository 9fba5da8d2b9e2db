/*
 * Reader of SimGrid platform files (MPI-free): the <cluster> element of a
 * SimGrid XML platform (https://simgrid.org/doc/latest/Platform_describing.html
 * and the zones of SimGrid's src/kernel/routing), built into the same graph
 * SimGrid describes.  The file must be well-formed XML with a <platform>
 * root holding exactly one <cluster> (anywhere inside); other elements
 * (zones, hosts, links, routes, props) are skipped.  Attributes read:
 *
 *   prefix, suffix, radical  hosts PREFIX N SUFFIX for each N of the radical
 *                            ("0-63" or "0-3,8,10-12"), in that order
 *   bw, lat                  every link (SimGrid units: 10Gbps, 1.25GBps,
 *                            1GiBps, 100MBps ...; 1us, 50ns, 0.1ms ...; a
 *                            bare number is bytes/s or seconds)
 *   topology                 FLAT (default), TORUS, FAT_TREE, DRAGONFLY
 *   topo_parameters          as below
 *
 * sharing_policy is ignored: links are always full duplex (topo.h);
 * backbones (bb_bw), limiters and loopbacks are not modelled.
 *
 *   DRAGONFLY "G,Lb;C,Lk;R,Lg;N"  G groups of C chassis of R routers (blades)
 *     of N hosts; routers of a chassis all-to-all (green links, Lg cables:
 *     bandwidth Lg bw), same-blade routers of the chassis of a group
 *     all-to-all (black, Lk bw), and one blue link (Lb bw) between groups i
 *     and j from router j of group i to router i of group j, routers counted
 *     chassis-major in their group (SimGrid's DragonflyZone; needs G <= C R).
 *     Host k hangs off router k / N.  Groups: the dragonfly groups.  Levels:
 *     host links HOST, green and black LOCAL, blue GLOBAL.
 *   FAT_TREE "L;m1,..,mL;w1,..,wL;p1,..,pL"  Zahavi's parallel-ports
 *     generalised fat tree as SimGrid's FatTreeZone builds it: m_i children
 *     and w_i parents per node at level i, p_i parallel links (separate links)
 *     per parent-child pair; hosts are level 0 (m1 m2 .. mL of them).  A
 *     level-l node has label digits d_0..d_{L-1} (d_j < w_j for j < l, < m_j
 *     otherwise, d_0 fastest in position order); parent and child agree on
 *     every digit but d_l.  Groups: the subtrees under the top level (digit
 *     d_{L-1}); the top switches are in no group (one group when L = 1).
 *     Levels: host links HOST, below the top LOCAL, into the top GLOBAL.
 *   TORUS "d1,d2,..,dk"  one host per position, no switch; each host links
 *     to its successor in every dimension with wrap-around (SimGrid's
 *     TorusZone: a dimension of size 2 has two parallel links per pair, size
 *     1 none).  Every host is its own group; every link GLOBAL.  The grid
 *     is kept as vine_topo.shape (dimensions reversed: SimGrid's first is
 *     the fastest, vine's last), as the torus generator keeps it.
 *   FLAT  every host on a private link (HOST) to one switch; one group.
 *
 * The host count must equal the topology's.  Cost: linear in the file and
 * in the graph built.
 *
 * A file without a <cluster> is read as an explicit graph instead: <host>s,
 * <router>s, <link>s and <route>s of one link between neighbours, as
 * vine__topo_write_simgrid writes them (topo_read_simgrid_zone.c).
 */
#include "topo_read.h"
#include "topo_read_util.h"
#include "topo_simgrid_zone.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define XML_MAX_DEPTH 256
#define XML_MAX_ATTRS 64
#define SG_MAX_DIMS 16

typedef struct xml_ctx {
    const char *path;
    char *err;
    size_t errlen;
    char *buf;
    char *p;
    char *lpos; /* line counted up to here */
    int line;
} xml_ctx;

typedef struct sg_cluster {
    int line;
    const char *id, *prefix, *suffix, *radical, *topology, *params, *bw, *lat;
} sg_cluster;

static int cur_line(xml_ctx *x, const char *at)
{
    while (x->lpos < at) {
        if (*x->lpos == '\n')
            x->line++;
        x->lpos++;
    }
    return x->line;
}

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static int
xerr(xml_ctx *x, const char *at, const char *fmt, ...)
{
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return vine__rerr(x->err, x->errlen, x->path, cur_line(x, at), "%s", msg);
}

static int is_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-' || c == ':' || c == '.';
}

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Decodes the five predefined entities and character references in place. */
static int decode(xml_ctx *x, char *s)
{
    static const struct {
        const char *ent;
        char c;
    } ents[] = {{"lt;", '<'}, {"gt;", '>'}, {"amp;", '&'}, {"quot;", '"'}, {"apos;", '\''}};
    char *w = s;
    for (char *r = s; *r;) {
        if (*r != '&') {
            *w++ = *r++;
            continue;
        }
        int done = 0;
        for (size_t i = 0; i < sizeof ents / sizeof ents[0] && !done; i++) {
            size_t n = strlen(ents[i].ent);
            if (strncmp(r + 1, ents[i].ent, n) == 0) {
                *w++ = ents[i].c;
                r += 1 + n;
                done = 1;
            }
        }
        if (!done && r[1] == '#') {
            int hex = r[2] == 'x';
            char *q = r + 2 + hex;
            long v = 0;
            int nd = 0;
            while (nd < 7 && ((*q >= '0' && *q <= '9') ||
                              (hex && ((*q >= 'a' && *q <= 'f') || (*q >= 'A' && *q <= 'F'))))) {
                int d = *q <= '9' ? *q - '0' : (*q | 0x20) - 'a' + 10;
                v = v * (hex ? 16 : 10) + d;
                q++;
                nd++;
            }
            /* Only plain ASCII is useful in the attributes read here. */
            if (nd > 0 && *q == ';' && v > 0 && v < 128) {
                *w++ = (char)v;
                r = q + 1;
                done = 1;
            }
        }
        if (!done)
            return xerr(x, r, "unknown or malformed entity in an attribute");
    }
    *w = '\0';
    return VINE_OK;
}

/* Skips past the string end (e.g. "-->"); error when the file ends first. */
static int skip_past(xml_ctx *x, const char *end, const char *what)
{
    char *q = strstr(x->p, end);
    if (!q)
        return xerr(x, x->p, "unterminated %s", what);
    x->p = q + strlen(end);
    return VINE_OK;
}

static int take_cluster(xml_ctx *x, sg_cluster *c, int *seen, char **an, char **av, int na,
                        int line)
{
    if (*seen)
        return vine__rerr(x->err, x->errlen, x->path, line,
                          "a second <cluster> (the first is on line %d); one per file is read",
                          c->line);
    *seen = 1;
    memset(c, 0, sizeof *c);
    c->line = line;
    for (int i = 0; i < na; i++) {
        const char **slot = strcmp(an[i], "id") == 0                ? &c->id
                            : strcmp(an[i], "prefix") == 0          ? &c->prefix
                            : strcmp(an[i], "suffix") == 0          ? &c->suffix
                            : strcmp(an[i], "radical") == 0         ? &c->radical
                            : strcmp(an[i], "topology") == 0        ? &c->topology
                            : strcmp(an[i], "topo_parameters") == 0 ? &c->params
                            : strcmp(an[i], "bw") == 0              ? &c->bw
                            : strcmp(an[i], "lat") == 0             ? &c->lat
                                                                    : NULL;
        if (slot)
            *slot = av[i];
    }
    return VINE_OK;
}

/* Walks the whole document; fills *c from its only <cluster> (c->line stays 0
 * without one) and *z with the elements of an explicit graph. */
static int parse_xml(xml_ctx *x, sg_cluster *c, vine_sgz *z)
{
    char *stack[XML_MAX_DEPTH];
    int sline[XML_MAX_DEPTH];
    int depth = 0, roots = 0, seen = 0, rc;
    char *an[XML_MAX_ATTRS], *av[XML_MAX_ATTRS];
    for (;;) {
        /* A plain scan: an intercepted strchr (ASan's strict string checks)
         * measures the rest of the file at every tag. */
        char *lt = x->p;
        while (*lt && *lt != '<')
            lt++;
        if (!*lt)
            break;
        x->p = lt;
        if (strncmp(x->p, "<!--", 4) == 0) {
            x->p += 4;
            if ((rc = skip_past(x, "-->", "comment")) != VINE_OK)
                return rc;
            continue;
        }
        if (strncmp(x->p, "<?", 2) == 0) {
            if ((rc = skip_past(x, "?>", "processing instruction")) != VINE_OK)
                return rc;
            continue;
        }
        if (strncmp(x->p, "<![CDATA[", 9) == 0) {
            if ((rc = skip_past(x, "]]>", "CDATA section")) != VINE_OK)
                return rc;
            continue;
        }
        if (strncmp(x->p, "<!", 2) == 0) { /* DOCTYPE, with an optional [internal subset] */
            char *q = x->p + 2, quote = 0;
            int br = 0;
            for (; *q; q++) {
                if (quote) {
                    if (*q == quote)
                        quote = 0;
                } else if (*q == '"' || *q == '\'') {
                    quote = *q;
                } else if (*q == '[') {
                    br++;
                } else if (*q == ']') {
                    br--;
                } else if (*q == '>' && br <= 0) {
                    break;
                }
            }
            if (!*q)
                return xerr(x, x->p, "unterminated <!...> declaration");
            x->p = q + 1;
            continue;
        }
        if (x->p[1] == '/') { /* end tag */
            char *name = x->p + 2, *q = name;
            while (is_name_char(*q))
                q++;
            char *e = q;
            while (is_space(*q))
                q++;
            if (e == name || *q != '>')
                return xerr(x, x->p, "malformed end tag");
            cur_line(x, q); /* before the NUL below hides a line end */
            *e = '\0';
            if (depth == 0)
                return xerr(x, x->p, "</%.40s> without an open element", name);
            if (strcmp(stack[depth - 1], name) != 0)
                return xerr(x, x->p, "</%.40s> closes <%.40s> (opened on line %d)", name,
                            stack[depth - 1], sline[depth - 1]);
            depth--;
            x->p = q + 1;
            continue;
        }
        /* Start tag.  Names and values are cut out with NULs once the tag is
         * read, so that the line count never misses a line end. */
        char *tag = x->p;
        int line = cur_line(x, tag);
        char *name = x->p + 1, *q = name;
        while (is_name_char(*q))
            q++;
        if (q == name)
            return xerr(x, tag, "malformed tag");
        char *name_end = q, *an_end[XML_MAX_ATTRS], *av_end[XML_MAX_ATTRS];
        int na = 0, selfclose = 0;
        for (;;) {
            int sp = is_space(*q);
            while (is_space(*q))
                q++;
            if (*q == '>') {
                q++;
                break;
            }
            if (q[0] == '/' && q[1] == '>') {
                selfclose = 1;
                q += 2;
                break;
            }
            if (*q == '\0')
                return xerr(x, q, "the file ends inside a tag");
            if (!sp || !is_name_char(*q))
                return xerr(x, q, "malformed attribute");
            char *a = q;
            while (is_name_char(*q))
                q++;
            char *a_end = q;
            while (is_space(*q))
                q++;
            if (*q != '=')
                return xerr(x, q, "attribute without '='");
            q++;
            while (is_space(*q))
                q++;
            char quote = *q;
            if (quote != '"' && quote != '\'')
                return xerr(x, q, "attribute value without quotes");
            char *v = ++q;
            while (*q && *q != quote && *q != '<')
                q++;
            if (*q != quote)
                return xerr(x, v, "unterminated attribute value");
            if (na == XML_MAX_ATTRS)
                return xerr(x, a, "too many attributes in a tag");
            for (int i = 0; i < na; i++)
                if ((size_t)(an_end[i] - an[i]) == (size_t)(a_end - a) &&
                    strncmp(an[i], a, (size_t)(a_end - a)) == 0)
                    return xerr(x, a, "attribute %.*s given twice", (int)(a_end - a), a);
            an[na] = a;
            an_end[na] = a_end;
            av[na] = v;
            av_end[na] = q;
            na++;
            q++;
        }
        cur_line(x, q);
        *name_end = '\0';
        for (int i = 0; i < na; i++) {
            *an_end[i] = '\0';
            *av_end[i] = '\0';
        }
        x->p = q;
        for (int i = 0; i < na; i++)
            if ((rc = decode(x, av[i])) != VINE_OK)
                return rc;
        if (depth == 0) {
            if (roots++ > 0)
                return vine__rerr(x->err, x->errlen, x->path, line, "a second root element <%s>",
                                  name);
            if (strcmp(name, "platform") != 0)
                return vine__rerr(x->err, x->errlen, x->path, line,
                                  "root element <%s>, expected <platform>", name);
        }
        if ((rc = vine__sgz_elem(z, name, depth ? stack[depth - 1] : NULL, an, av, na, line)) !=
            VINE_OK)
            return rc;
        if (strcmp(name, "cluster") == 0 &&
            (rc = take_cluster(x, c, &seen, an, av, na, line)) != VINE_OK)
            return rc;
        if (!selfclose) {
            if (depth == XML_MAX_DEPTH)
                return vine__rerr(x->err, x->errlen, x->path, line, "elements nested too deep");
            stack[depth] = name;
            sline[depth] = line;
            depth++;
        }
    }
    char *eof = x->p + strlen(x->p); /* reported on the last line, not after it */
    if (eof > x->buf && eof[-1] == '\n')
        eof--;
    if (depth > 0)
        return vine__rerr(x->err, x->errlen, x->path, cur_line(x, eof),
                          "the file ends inside <%s> (opened on line %d)", stack[depth - 1],
                          sline[depth - 1]);
    if (roots == 0)
        return vine__rerr(x->err, x->errlen, x->path, 0, "no <platform> element");
    if (!seen && z->nv == 0)
        return vine__rerr(x->err, x->errlen, x->path, 0, "no <cluster> element (nor <host>s)");
    return VINE_OK;
}

/* A SimGrid quantity: number then unit, scaled. */
static int parse_unit(const char *s, int bandwidth, double *out)
{
    static const struct {
        const char *p;
        double f;
    } pre[] = {{"Ki", 1024.0},
               {"Mi", 1048576.0},
               {"Gi", 1073741824.0},
               {"Ti", 1099511627776.0},
               {"Pi", 1125899906842624.0},
               {"Ei", 1152921504606846976.0},
               {"k", 1e3},
               {"K", 1e3},
               {"M", 1e6},
               {"G", 1e9},
               {"T", 1e12},
               {"P", 1e15},
               {"E", 1e18},
               {"", 1}};
    static const struct {
        const char *u;
        double f;
    } tu[] = {{"ps", 1e-12}, {"ns", 1e-9}, {"us", 1e-6}, {"ms", 1e-3}, {"s", 1},
              {"m", 60},     {"h", 3600},  {"d", 86400}, {"w", 604800}};
    char *end;
    double v = strtod(s, &end);
    if (end == s || !isfinite(v) || v < 0)
        return 0;
    if (*end == '\0') {
        *out = v;
        return 1;
    }
    if (bandwidth) {
        for (size_t i = 0; i < sizeof pre / sizeof pre[0]; i++) {
            size_t n = strlen(pre[i].p);
            if (strncmp(end, pre[i].p, n) != 0)
                continue;
            if (strcmp(end + n, "Bps") == 0) {
                *out = v * pre[i].f;
                return isfinite(*out);
            }
            if (strcmp(end + n, "bps") == 0) {
                *out = v * pre[i].f / 8;
                return isfinite(*out);
            }
        }
        return 0;
    }
    for (size_t i = 0; i < sizeof tu / sizeof tu[0]; i++) {
        if (strcmp(end, tu[i].u) == 0) {
            *out = v * tu[i].f;
            return isfinite(*out);
        }
    }
    return 0;
}

/* Parses "a<sep>b<sep>..." of positive integers (<= 1e6) into v; count or -1. */
static int parse_uints(const char *s, size_t len, char sep, long *v, int max)
{
    int n = 0;
    const char *e = s + len;
    for (;;) {
        long x = 0;
        int nd = 0;
        while (s < e && *s >= '0' && *s <= '9') {
            x = x * 10 + (*s - '0');
            if (++nd > 7)
                return -1;
            s++;
        }
        if (nd == 0 || x < 1 || x > 1000000 || n == max)
            return -1;
        v[n++] = x;
        if (s == e)
            return n;
        if (*s != sep)
            return -1;
        s++;
    }
}

/* Radical "0-3,8,10-12" into a malloc'd array of numbers. */
static int parse_radical(xml_ctx *x, const sg_cluster *c, long **ids, int *n)
{
    const char *s = c->radical;
    long *v = NULL;
    int cnt = 0, cap = 0;
    *ids = NULL;
    *n = 0;
    for (;;) {
        long lo = 0, hi;
        int nd = 0;
        while (*s >= '0' && *s <= '9' && nd < 10) {
            lo = lo * 10 + (*s++ - '0');
            nd++;
        }
        if (nd == 0 || (*s >= '0' && *s <= '9') || lo > 2000000000L)
            goto bad;
        hi = lo;
        if (*s == '-') {
            s++;
            hi = 0;
            nd = 0;
            while (*s >= '0' && *s <= '9' && nd < 10) {
                hi = hi * 10 + (*s++ - '0');
                nd++;
            }
            if (nd == 0 || (*s >= '0' && *s <= '9') || hi > 2000000000L || hi < lo)
                goto bad;
        }
        if (hi - lo + 1 > VINE_READ_MAX_NAMES - (long)cnt) {
            free(v);
            return vine__rerr(x->err, x->errlen, x->path, c->line, "radical has too many hosts");
        }
        if (cnt + (hi - lo + 1) > cap) {
            while (cnt + (hi - lo + 1) > cap)
                cap = cap ? 2 * cap : 64;
            long *nv = realloc(v, (size_t)cap * sizeof *nv);
            if (!nv) {
                free(v);
                return VINE_ERR_NO_MEM;
            }
            v = nv;
        }
        for (long i = lo; i <= hi; i++)
            v[cnt++] = i;
        if (*s == '\0')
            break;
        if (*s != ',')
            goto bad;
        s++;
    }
    *ids = v;
    *n = cnt;
    return VINE_OK;
bad:
    free(v);
    return vine__rerr(x->err, x->errlen, x->path, c->line,
                      "radical=\"%.60s\": expected N or N-M items separated by commas", c->radical);
}

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

typedef struct sg_build {
    xml_ctx *x;
    const sg_cluster *c;
    vine_topo *t;
    double bw, lat;
    const long *ids; /* radical numbers, in order */
    int nh;
    int *hgroup;
} sg_build;

static int sg_link(sg_build *b, int u, int v, double mult, int level)
{
    return vine__topo_add_link(b->t, u, v, b->bw * mult, b->lat, level) < 0 ? VINE_ERR_NO_MEM
                                                                            : VINE_OK;
}

static int sg_switch(sg_build *b, int group, const char *name)
{
    return vine__topo_add_vertex(b->t, VINE_V_SWITCH, group, name) < 0 ? VINE_ERR_NO_MEM : VINE_OK;
}

/* Adds the hosts as vertices 0 .. nh-1, in radical order, in b->hgroup's groups. */
static int add_hosts(sg_build *b)
{
    const char *pre = b->c->prefix ? b->c->prefix : "", *suf = b->c->suffix ? b->c->suffix : "";
    size_t len = strlen(pre) + strlen(suf) + 24;
    char *name = malloc(len);
    if (!name)
        return VINE_ERR_NO_MEM;
    int rc = VINE_OK;
    for (int h = 0; h < b->nh && rc == VINE_OK; h++) {
        snprintf(name, len, "%s%ld%s", pre, b->ids[h], suf);
        if (vine__topo_add_vertex(b->t, VINE_V_HOST, b->hgroup[h], name) < 0)
            rc = VINE_ERR_NO_MEM;
    }
    free(name);
    return rc;
}

static int too_big(sg_build *b, double verts, double links)
{
    if (verts > VINE_READ_MAX_NAMES || links > VINE_READ_MAX_LINKS)
        return vine__rerr(b->x->err, b->x->errlen, b->x->path, b->c->line,
                          "topology too large (%.0f vertices, %.0f links)", verts, links);
    return VINE_OK;
}

static int bad_params(sg_build *b, const char *topo, const char *form)
{
    return vine__rerr(b->x->err, b->x->errlen, b->x->path, b->c->line,
                      "%s topo_parameters=\"%.60s\": expected %s", topo,
                      b->c->params ? b->c->params : "", form);
}

static int wrong_count(sg_build *b, const char *topo, long have, double need)
{
    return vine__rerr(b->x->err, b->x->errlen, b->x->path, b->c->line,
                      "radical gives %ld hosts, the %s topology has %.0f", have, topo, need);
}

/* Each builder checks its parameters, then adds the hosts, switches, links. */
static int build_dragonfly(sg_build *b)
{
    const char *s = b->c->params ? b->c->params : "";
    long v[7];
    const char *part[4];
    size_t plen[4];
    int np = 0;
    const char *q = s;
    for (;;) {
        const char *e = strchr(q, ';');
        if (np == 4)
            return bad_params(b, "DRAGONFLY", "\"G,Lb;C,Lk;R,Lg;N\"");
        part[np] = q;
        plen[np] = e ? (size_t)(e - q) : strlen(q);
        np++;
        if (!e)
            break;
        q = e + 1;
    }
    if (np != 4 || parse_uints(part[0], plen[0], ',', v, 2) != 2 ||
        parse_uints(part[1], plen[1], ',', v + 2, 2) != 2 ||
        parse_uints(part[2], plen[2], ',', v + 4, 2) != 2 ||
        parse_uints(part[3], plen[3], ',', v + 6, 1) != 1)
        return bad_params(b, "DRAGONFLY", "\"G,Lb;C,Lk;R,Lg;N\" of positive integers");
    long G = v[0], Lb = v[1], C = v[2], Lk = v[3], R = v[4], Lg = v[5], N = v[6];
    double nr = (double)G * C * R, hosts = nr * N;
    int rc = too_big(b, nr + hosts,
                     hosts + G * C * (R * (R - 1.0) / 2) + G * R * (C * (C - 1.0) / 2) +
                         G * (G - 1.0) / 2);
    if (rc != VINE_OK)
        return rc;
    int nh = b->nh;
    if (hosts != nh)
        return wrong_count(b, "DRAGONFLY", nh, hosts);
    if (G > C * R)
        return vine__rerr(b->x->err, b->x->errlen, b->x->path, b->c->line,
                          "DRAGONFLY: %ld groups need at least %ld routers per group (have %ld)", G,
                          G, C * R);
    for (int h = 0; h < nh; h++)
        b->hgroup[h] = (int)(h / N / (C * R));
    if ((rc = add_hosts(b)) != VINE_OK)
        return rc;
    int r0 = nh; /* router (g, c, k) is vertex r0 + (g C + c) R + k */
    char name[96];
    for (long g = 0; g < G; g++)
        for (long c = 0; c < C; c++)
            for (long k = 0; k < R; k++) {
                snprintf(name, sizeof name, "router-g%ld-c%ld-b%ld", g, c, k);
                if ((rc = sg_switch(b, (int)g, name)) != VINE_OK)
                    return rc;
            }
    for (int h = 0; h < nh; h++)
        if ((rc = sg_link(b, h, r0 + (int)(h / N), 1, VINE_LVL_HOST)) != VINE_OK)
            return rc;
    for (long gc = 0; gc < G * C; gc++) /* green: all-to-all in a chassis */
        for (long j = 0; j < R; j++)
            for (long k = j + 1; k < R; k++)
                if ((rc = sg_link(b, r0 + (int)(gc * R + j), r0 + (int)(gc * R + k), (double)Lg,
                                  VINE_LVL_LOCAL)) != VINE_OK)
                    return rc;
    for (long g = 0; g < G; g++) /* black: same blade, all chassis of a group */
        for (long j = 0; j < C; j++)
            for (long k = j + 1; k < C; k++)
                for (long l = 0; l < R; l++)
                    if ((rc = sg_link(b, r0 + (int)((g * C + j) * R + l),
                                      r0 + (int)((g * C + k) * R + l), (double)Lk,
                                      VINE_LVL_LOCAL)) != VINE_OK)
                        return rc;
    for (long i = 0; i < G; i++) /* blue: router j of group i to router i of group j */
        for (long j = i + 1; j < G; j++)
            if ((rc = sg_link(b, r0 + (int)(i * C * R + j), r0 + (int)(j * C * R + i), (double)Lb,
                              VINE_LVL_GLOBAL)) != VINE_OK)
                return rc;
    return VINE_OK;
}

static int build_fattree(sg_build *b)
{
    const char *s = b->c->params ? b->c->params : "";
    const char *form = "\"L;m1,..,mL;w1,..,wL;p1,..,pL\" of positive integers";
    const char *part[4];
    size_t plen[4];
    int np = 0;
    const char *q = s;
    for (;;) {
        const char *e = strchr(q, ';');
        if (np == 4)
            return bad_params(b, "FAT_TREE", form);
        part[np] = q;
        plen[np] = e ? (size_t)(e - q) : strlen(q);
        np++;
        if (!e)
            break;
        q = e + 1;
    }
    long L, m[SG_MAX_DIMS], w[SG_MAX_DIMS], p[SG_MAX_DIMS];
    if (np != 4 || parse_uints(part[0], plen[0], ',', &L, 1) != 1 || L > SG_MAX_DIMS ||
        parse_uints(part[1], plen[1], ',', m, SG_MAX_DIMS) != L ||
        parse_uints(part[2], plen[2], ',', w, SG_MAX_DIMS) != L ||
        parse_uints(part[3], plen[3], ',', p, SG_MAX_DIMS) != L)
        return bad_params(b, "FAT_TREE", form);
    /* count[l]: nodes at level l; radix of digit j at level l: w_j if j < l else m_j. */
    double count[SG_MAX_DIMS + 1], verts = 0, links = 0;
    for (int l = 0; l <= L; l++) {
        count[l] = 1;
        for (int j = 0; j < L; j++)
            count[l] *= j < l ? w[j] : m[j];
        verts += count[l];
        if (l < L)
            links += count[l] * w[l] * p[l];
    }
    int rc = too_big(b, verts, links);
    if (rc != VINE_OK)
        return rc;
    int nh = b->nh;
    if (count[0] != nh)
        return wrong_count(b, "FAT_TREE", nh, count[0]);
    /* The group is digit L-1, the most significant below the top: a level-l
     * position over the product of the other radices. */
    for (int h = 0; h < nh; h++)
        b->hgroup[h] = L == 1 ? 0 : (int)(h / (nh / m[L - 1]));
    if ((rc = add_hosts(b)) != VINE_OK)
        return rc;
    int base[SG_MAX_DIMS + 1]; /* first vertex of each level */
    char name[96];
    base[0] = 0;
    for (int l = 1; l <= L; l++) {
        base[l] = base[l - 1] + (int)count[l - 1];
        for (long i = 0; i < (long)count[l]; i++) {
            long g = L == 1 ? 0 : l == L ? -1 : i / ((long)count[l] / m[L - 1]);
            snprintf(name, sizeof name, "switch-l%d-%ld", l, i);
            if ((rc = sg_switch(b, (int)g, name)) != VINE_OK)
                return rc;
        }
    }
    long dig[SG_MAX_DIMS];
    for (int l = 0; l < L; l++) {
        int lvl = l == 0 ? VINE_LVL_HOST : l + 1 == L ? VINE_LVL_GLOBAL : VINE_LVL_LOCAL;
        for (long i = 0; i < (long)count[l]; i++) {
            long r = i;
            for (int j = 0; j < L; j++) {
                long rad = j < l ? w[j] : m[j];
                dig[j] = r % rad;
                r /= rad;
            }
            for (long xw = 0; xw < w[l]; xw++) {
                /* The parent's position: digit l replaced, radices of level l+1. */
                long pos = 0, mul = 1;
                for (int j = 0; j < L; j++) {
                    long rad = j < l + 1 ? w[j] : m[j];
                    pos += (j == l ? xw : dig[j]) * mul;
                    mul *= rad;
                }
                for (long k = 0; k < p[l]; k++)
                    if ((rc = sg_link(b, base[l] + (int)i, base[l + 1] + (int)pos, 1, lvl)) !=
                        VINE_OK)
                        return rc;
            }
        }
    }
    return VINE_OK;
}

static int build_torus(sg_build *b)
{
    long d[SG_MAX_DIMS];
    const char *s = b->c->params ? b->c->params : "";
    int nd = parse_uints(s, strlen(s), ',', d, SG_MAX_DIMS);
    if (nd < 1)
        return bad_params(b, "TORUS", "\"d1,d2,..\" of positive integers");
    double hosts = 1;
    for (int j = 0; j < nd; j++)
        hosts *= d[j];
    int rc = too_big(b, hosts, hosts * nd);
    if (rc != VINE_OK)
        return rc;
    int nh = b->nh;
    if (hosts != nh)
        return wrong_count(b, "TORUS", nh, hosts);
    for (int h = 0; h < nh; h++)
        b->hgroup[h] = h;
    if ((rc = add_hosts(b)) != VINE_OK)
        return rc;
    for (int h = 0; h < nh; h++) {
        long dp = 1;
        for (int j = 0; j < nd; j++) {
            long nb = (h / dp) % d[j] == d[j] - 1 ? h - (d[j] - 1) * dp : h + dp;
            if (nb != h && (rc = sg_link(b, h, (int)nb, 1, VINE_LVL_GLOBAL)) != VINE_OK)
                return rc;
            dp *= d[j];
        }
    }
    /* The grid (topo.h's shape, the last dimension fastest; SimGrid's first is), so that
     * vine sim gives the ranks torus coordinates as it does for the torus generator. */
    if (nd <= VINE_TOPO_MAXDIM) {
        b->t->shape_nd = nd;
        b->t->shape_wrap = 1;
        for (int k = 0; k < nd; k++)
            b->t->shape[k] = (int)d[nd - 1 - k];
    }
    return VINE_OK;
}

static int build_flat(sg_build *b)
{
    int nh = b->nh;
    int rc = too_big(b, nh + 1.0, nh);
    if (rc != VINE_OK)
        return rc;
    for (int h = 0; h < nh; h++)
        b->hgroup[h] = 0;
    if ((rc = add_hosts(b)) != VINE_OK || (rc = sg_switch(b, 0, "backbone")) != VINE_OK)
        return rc;
    for (int h = 0; h < nh; h++)
        if ((rc = sg_link(b, h, nh, 1, VINE_LVL_HOST)) != VINE_OK)
            return rc;
    return VINE_OK;
}

static int build(xml_ctx *x, const sg_cluster *c, vine_topo *t)
{
    sg_build b = {x, c, t, 0, 0, NULL, 0, NULL};
    if (!c->radical)
        return vine__rerr(x->err, x->errlen, x->path, c->line, "<cluster> without radical=");
    if (!c->bw || !parse_unit(c->bw, 1, &b.bw) || !(b.bw > 0))
        return vine__rerr(x->err, x->errlen, x->path, c->line,
                          "<cluster> bw=\"%.40s\": expected a bandwidth such as 10Gbps",
                          c->bw ? c->bw : "");
    if (!c->lat || !parse_unit(c->lat, 0, &b.lat))
        return vine__rerr(x->err, x->errlen, x->path, c->line,
                          "<cluster> lat=\"%.40s\": expected a latency such as 1us",
                          c->lat ? c->lat : "");
    const char *topo = c->topology ? c->topology : "FLAT";
    int kind = strcasecmp(topo, "FLAT") == 0        ? 0
               : strcasecmp(topo, "TORUS") == 0     ? 1
               : strcasecmp(topo, "FAT_TREE") == 0  ? 2
               : strcasecmp(topo, "DRAGONFLY") == 0 ? 3
                                                    : -1;
    if (kind < 0)
        return vine__rerr(x->err, x->errlen, x->path, c->line,
                          "topology=\"%.40s\": expected FLAT, TORUS, FAT_TREE or DRAGONFLY", topo);
    long *ids;
    int rc = parse_radical(x, c, &ids, &b.nh);
    if (rc != VINE_OK)
        return rc;
    b.ids = ids;
    long *sorted = malloc((size_t)b.nh * sizeof *sorted);
    b.hgroup = malloc((size_t)b.nh * sizeof *b.hgroup);
    if (!sorted || !b.hgroup) {
        rc = VINE_ERR_NO_MEM;
        goto out;
    }
    memcpy(sorted, ids, (size_t)b.nh * sizeof *sorted);
    qsort(sorted, (size_t)b.nh, sizeof *sorted, cmp_long);
    for (int i = 1; i < b.nh; i++) {
        if (sorted[i] == sorted[i - 1]) {
            rc =
                vine__rerr(x->err, x->errlen, x->path, c->line, "radical has %ld twice", sorted[i]);
            goto out;
        }
    }
    rc = kind == 0   ? build_flat(&b)
         : kind == 1 ? build_torus(&b)
         : kind == 2 ? build_fattree(&b)
                     : build_dragonfly(&b);
    if (rc == VINE_OK)
        rc = vine__topo_finish(t);
    if (rc == VINE_OK)
        rc = vine__topo_check_connected(t, x->path, x->err, x->errlen);
out:
    free(ids);
    free(sorted);
    free(b.hgroup);
    return rc;
}

int vine__topo_read_simgrid(const char *path, vine_topo *t, char *err, size_t errlen)
{
    vine_rfile f;
    int rc = vine__rfile_open(&f, path, err, errlen);
    if (rc == VINE_OK) {
        xml_ctx x = {path, err, errlen, f.buf, f.buf, f.buf, 1};
        sg_cluster c = {0};
        vine_sgz z;
        vine__sgz_init(&z);
        rc = parse_xml(&x, &c, &z);
        if (rc == VINE_OK && c.line == 0) { /* an explicit graph (topo_simgrid_zone.h) */
            snprintf(t->name, sizeof t->name, "%.63s", z.name ? z.name : "simgrid graph");
            rc = vine__sgz_build(&z, parse_unit, t, path, err, errlen);
        } else if (rc == VINE_OK) {
            snprintf(t->name, sizeof t->name, "simgrid %.40s %.12s", c.id ? c.id : "cluster",
                     c.topology ? c.topology : "FLAT");
            rc = build(&x, &c, t);
        }
        vine__sgz_free(&z);
    }
    vine__rfile_close(&f);
    if (rc != VINE_OK)
        vine__topo_free(t);
    if (rc == VINE_ERR_NO_MEM && err && errlen)
        snprintf(err, errlen, "%s: out of memory", path);
    return rc;
}
