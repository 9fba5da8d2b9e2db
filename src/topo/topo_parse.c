/*
 * Topology specs (vine__topo_parse) and the one-paragraph summary
 * (vine__topo_describe).  Syntax in topo.h and docs/topology.md:
 *
 *   NAME[:OPTIONS]        a preset (topo_preset.c), OPTIONS = link options
 *   GEN:OPTIONS           a generator (topo_gen.c)
 *   edges:FILE  slurm:FILE  ibnet:FILE  simgrid:FILE     a reader (topo_read.h)
 *
 * OPTIONS is a comma-separated list of KEY=VALUE, for torus, mesh and
 * hypercube led by the positional size ("4x4x4", "6").  Every problem
 * (unknown name or key, a key given twice, a value that is not a number, out
 * of range, a network too large) is VINE_ERR_UNSUPPORTED with one line in
 * err, "NAME: problem" (the caller names the spec; a reader's message names
 * the file and line).
 */
#include "topo_gen.h"
#include "topo_read.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXOPT 24

typedef struct opt {
    const char *key, *val;
    size_t klen, vlen;
    int used;
} opt;

typedef struct ctx {
    const char *spec;
    const char *gen; /* the preset or generator being parsed, or NULL */
    char *err;
    size_t errlen;
    opt o[MAXOPT];
    int n;
    const char *pos; /* the positional first item, or NULL */
    size_t poslen;
} ctx;

#if defined(__GNUC__)
#define VINE_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define VINE_PRINTF(f, a)
#endif

VINE_PRINTF(2, 3) static int fail(ctx *c, const char *fmt, ...)
{
    if (!c->err || !c->errlen)
        return VINE_ERR_UNSUPPORTED;
    int k = c->gen ? snprintf(c->err, c->errlen, "%s: ", c->gen) : 0;
    if (k < 0 || (size_t)k >= c->errlen)
        return VINE_ERR_UNSUPPORTED;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err + k, c->errlen - (size_t)k, fmt, ap);
    va_end(ap);
    return VINE_ERR_UNSUPPORTED;
}

/* Splits s (may be NULL or empty) into KEY=VALUE items; a first item with no
 * '=' is the positional one when allow_pos. */
static int split(ctx *c, const char *s, int allow_pos)
{
    c->n = 0;
    c->pos = NULL;
    c->poslen = 0;
    if (!s || !*s)
        return VINE_OK;
    for (int first = 1;; first = 0) {
        const char *e = strchr(s, ',');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        const char *eq = memchr(s, '=', len);
        if (len == 0)
            return fail(c, "empty option (a stray ',')");
        if (!eq) {
            if (!(first && allow_pos))
                return fail(c, "'%.*s' is not KEY=VALUE", (int)len, s);
            c->pos = s;
            c->poslen = len;
        } else {
            size_t klen = (size_t)(eq - s);
            if (klen == 0 || klen + 1 == len)
                return fail(c, "'%.*s': empty key or value", (int)len, s);
            for (int i = 0; i < c->n; i++)
                if (c->o[i].klen == klen && memcmp(c->o[i].key, s, klen) == 0)
                    return fail(c, "option '%.*s' given twice", (int)klen, s);
            if (c->n == MAXOPT)
                return fail(c, "too many options");
            c->o[c->n++] = (opt){s, eq + 1, klen, len - klen - 1, 0};
        }
        if (!e)
            break;
        s = e + 1;
    }
    return VINE_OK;
}

static opt *find(ctx *c, const char *key)
{
    for (int i = 0; i < c->n; i++)
        if (c->o[i].klen == strlen(key) && memcmp(c->o[i].key, key, c->o[i].klen) == 0) {
            c->o[i].used = 1;
            return &c->o[i];
        }
    return NULL;
}

/* A whole number in [lo, hi] made of decimal digits only. */
static int parse_int(ctx *c, const char *name, const char *s, size_t len, long lo, long hi,
                     int *out)
{
    long v = 0;
    if (len == 0)
        return fail(c, "%s: empty number", name);
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return fail(c, "%s=%.*s: not a whole number", name, (int)len, s);
        if (v > hi) /* keeps v far from overflow */
            break;
        v = v * 10 + (s[i] - '0');
    }
    if (v < lo || v > hi)
        return fail(c, "%s=%.*s: out of range (%ld .. %ld)", name, (int)len, s, lo, hi);
    *out = (int)v;
    return VINE_OK;
}

/* Integer option key: *out keeps its value when absent and not required. */
static int get_int(ctx *c, const char *key, int required, long lo, long hi, int *out)
{
    opt *o = find(c, key);
    if (!o)
        return required ? fail(c, "missing option %s=", key) : VINE_OK;
    return parse_int(c, key, o->val, o->vlen, lo, hi, out);
}

/* A list "N<sep>N<sep>..." of whole numbers in [lo, hi]; at most max of them. */
static int parse_list(ctx *c, const char *name, const char *s, size_t len, char sep, long lo,
                      long hi, int max, int *out, int *count)
{
    *count = 0;
    const char *end = s + len;
    for (;;) {
        const char *e = memchr(s, sep, (size_t)(end - s));
        size_t l = e ? (size_t)(e - s) : (size_t)(end - s);
        if (*count == max)
            return fail(c, "%s: more than %d entries", name, max);
        int rc = parse_int(c, name, s, l, lo, hi, &out[*count]);
        if (rc != VINE_OK)
            return rc;
        (*count)++;
        if (!e)
            return VINE_OK;
        s = e + 1;
    }
}

static int parse_double(ctx *c, opt *o, double lo, double hi, double *out)
{
    char buf[64];
    if (o->vlen >= sizeof buf)
        return fail(c, "%.*s: value too long", (int)o->klen, o->key);
    memcpy(buf, o->val, o->vlen);
    buf[o->vlen] = '\0';
    char *end;
    double v = strtod(buf, &end);
    if (end == buf || *end || !isfinite(v))
        return fail(c, "%.*s=%s: not a number", (int)o->klen, o->key, buf);
    if (v < lo || v > hi)
        return fail(c, "%.*s=%s: out of range (%g .. %g)", (int)o->klen, o->key, buf, lo, hi);
    *out = v;
    return VINE_OK;
}

/* The link options: bw/lat set every level, hbw/lbw/gbw and hlat/llat/glat
 * one level each (they win over bw/lat), nbw/nlat two ranks on one host;
 * ports the ports per host (check_ports). */
static int link_opts(ctx *c, vine_topo_linkparams *lp)
{
    static const struct {
        const char *key;
        int lat;   /* a latency, else a bandwidth */
        int level; /* 0: every link level; else enum vine_level; -1: intra-node */
    } keys[] = {{"bw", 0, 0},   {"lat", 1, 0}, {"hbw", 0, 1},  {"hlat", 1, 1}, {"lbw", 0, 2},
                {"llat", 1, 2}, {"gbw", 0, 3}, {"glat", 1, 3}, {"nbw", 0, -1}, {"nlat", 1, -1}};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        opt *o = find(c, keys[i].key);
        double v;
        if (!o)
            continue;
        int rc = keys[i].lat ? parse_double(c, o, 0, 10, &v) : parse_double(c, o, 1, 1e18, &v);
        if (rc != VINE_OK)
            return rc;
        double *fields[4][2] = {{&lp->node_bw, &lp->node_lat},
                                {&lp->host_bw, &lp->host_lat},
                                {&lp->local_bw, &lp->local_lat},
                                {&lp->global_bw, &lp->global_lat}};
        if (keys[i].level == 0) /* the per-level keys come later and win */
            for (int l = 1; l < 4; l++)
                *fields[l][keys[i].lat] = v;
        else
            *fields[keys[i].level < 0 ? 0 : keys[i].level][keys[i].lat] = v;
    }
    return get_int(c, "ports", 0, 1, VINE_TOPO_MAXPORTS, &lp->ports);
}

static const char link_keys[] = "bw, lat, hbw, hlat, lbw, llat, gbw, glat, nbw, nlat, ports";

/*
 * Several ports per host are a direct network's (topo.h: a torus, mesh or
 * hypercube, whose routers hold one host each and whose shape names the
 * ports' directions); elsewhere ports= is refused.
 */
static int check_ports(ctx *c, const vine_topo *t, int rc)
{
    if (rc == VINE_OK && t->ports > 1 && t->shape_nd == 0)
        return fail(c, "ports=%d: several ports per host need a torus, mesh or hypercube",
                    t->ports);
    return rc;
}

static int check_used(ctx *c, const char *gen, const char *keys)
{
    for (int i = 0; i < c->n; i++)
        if (!c->o[i].used)
            return fail(c, "unknown option '%.*s' (%s takes %s%s%s)", (int)c->o[i].klen,
                        c->o[i].key, gen, keys, *keys ? ", " : "", link_keys);
    return VINE_OK;
}

/* A generator's result; its message (already "GEN: problem") goes to err. */
static int gen_done(ctx *c, int rc, const char *msg)
{
    if (rc == VINE_ERR_UNSUPPORTED) {
        c->gen = NULL;
        return fail(c, "%s", msg);
    }
    return rc;
}

#define INTMAX_OPT VINE_TOPO_GEN_MAX

static int parse_dragonfly(ctx *c, vine_topo *t, vine_topo_linkparams *lp, char *m, size_t ml)
{
    int a = 0, p = 0, h = 0, g = 0, n = 0, rc;
    if ((rc = get_int(c, "a", 1, 1, INTMAX_OPT, &a)) ||
        (rc = get_int(c, "p", 1, 1, INTMAX_OPT, &p)) ||
        (rc = get_int(c, "h", 1, 1, INTMAX_OPT, &h)) ||
        (rc = get_int(c, "g", 0, 1, INTMAX_OPT, &g)) ||
        (rc = get_int(c, "n", 0, 1, INTMAX_OPT, &n)) || (rc = link_opts(c, lp)) ||
        (rc = check_used(c, "dragonfly", "a, p, h, g, n")))
        return rc;
    return gen_done(c, vine__topo_gen_dragonfly(t, a, p, h, g, n, lp, m, ml), m);
}

static int parse_dragonflyplus(ctx *c, vine_topo *t, vine_topo_linkparams *lp, char *m, size_t ml)
{
    int g = 0, leaves = 0, spines = 0, p = 0, h = 0, rc;
    if ((rc = get_int(c, "leaves", 1, 1, INTMAX_OPT, &leaves)) ||
        (rc = get_int(c, "spines", 1, 1, INTMAX_OPT, &spines)) ||
        (rc = get_int(c, "p", 1, 1, INTMAX_OPT, &p)) ||
        (rc = get_int(c, "h", 1, 1, INTMAX_OPT, &h)) ||
        (rc = get_int(c, "g", 0, 1, INTMAX_OPT, &g)) || (rc = link_opts(c, lp)) ||
        (rc = check_used(c, "dragonflyplus", "g, leaves, spines, p, h")))
        return rc;
    return gen_done(c, vine__topo_gen_dragonflyplus(t, g, leaves, spines, p, h, lp, m, ml), m);
}

static int parse_fattree(ctx *c, vine_topo *t, vine_topo_linkparams *lp, char *m, size_t ml)
{
    int down[VINE_TOPO_FT_MAXLEV], up[VINE_TOPO_FT_MAXLEV], nd, nu, levels = 0, glevel = -1, rc;
    opt *od = find(c, "down"), *ou = find(c, "up");
    if (!od || !ou)
        return fail(c, "missing option %s= (fattree:down=D0/D1/...,up=U0/U1/...)",
                    od ? "up" : "down");
    if ((rc = parse_list(c, "down", od->val, od->vlen, '/', 1, INTMAX_OPT, VINE_TOPO_FT_MAXLEV,
                         down, &nd)) ||
        (rc = parse_list(c, "up", ou->val, ou->vlen, '/', 1, INTMAX_OPT, VINE_TOPO_FT_MAXLEV, up,
                         &nu)) ||
        (rc = get_int(c, "levels", 0, 2, VINE_TOPO_FT_MAXLEV, &levels)) ||
        (rc = get_int(c, "glevel", 0, 0, VINE_TOPO_FT_MAXLEV - 1, &glevel)) ||
        (rc = link_opts(c, lp)) || (rc = check_used(c, "fattree", "down, up, levels, glevel")))
        return rc;
    if (nd < 2)
        return fail(c, "down= needs an entry per level, at least 2");
    if (levels && levels != nd)
        return fail(c, "levels=%d but down= has %d entries", levels, nd);
    if (nu != nd - 1)
        return fail(c, "up= needs %d entries (one per level below the top), has %d", nd - 1, nu);
    if (glevel >= nd)
        return fail(c, "glevel=%d out of range (0 .. %d)", glevel, nd - 1);
    return gen_done(c, vine__topo_gen_fattree(t, nd, down, up, glevel, lp, m, ml), m);
}

static int parse_torus(ctx *c, vine_topo *t, vine_topo_linkparams *lp, int wrap, char *m, size_t ml)
{
    const char *gen = wrap ? "torus" : "mesh";
    int dims[VINE_TOPO_MAXDIM], nd, rc;
    if (!c->pos)
        return fail(c, "missing the dimensions (%s:4x4x4)", gen);
    if ((rc = parse_list(c, "dimensions", c->pos, c->poslen, 'x', 1, INTMAX_OPT, VINE_TOPO_MAXDIM,
                         dims, &nd)) ||
        (rc = link_opts(c, lp)) || (rc = check_used(c, gen, "")))
        return rc;
    return gen_done(c, vine__topo_gen_torus(t, nd, dims, wrap, lp, m, ml), m);
}

static int parse_hypercube(ctx *c, vine_topo *t, vine_topo_linkparams *lp, char *m, size_t ml)
{
    int d = 0, rc;
    if (!c->pos)
        return fail(c, "missing the dimension (hypercube:6)");
    if ((rc = parse_int(c, "d", c->pos, c->poslen, 1, 24, &d)) || (rc = link_opts(c, lp)) ||
        (rc = check_used(c, "hypercube", "")))
        return rc;
    return gen_done(c, vine__topo_gen_hypercube(t, d, lp, m, ml), m);
}

typedef int (*reader_fn)(const char *, vine_topo *, char *, size_t);

static int dispatch(ctx *c, const char *head, size_t hlen, const char *rest, vine_topo *t)
{
    static const struct {
        const char *name;
        reader_fn fn;
    } readers[] = {{"edges", vine__topo_read_edges},
                   {"slurm", vine__topo_read_slurm},
                   {"ibnet", vine__topo_read_ibnet},
                   {"simgrid", vine__topo_read_simgrid}};
    char name[32];
    if (hlen == 0)
        return fail(c, "no topology name");
    if (hlen >= sizeof name)
        return fail(c, "unknown topology '%.*s'", (int)hlen, head);
    memcpy(name, head, hlen);
    name[hlen] = '\0';

    c->gen = name;
    for (size_t i = 0; i < sizeof readers / sizeof readers[0]; i++)
        if (strcmp(name, readers[i].name) == 0) {
            if (!rest || !*rest)
                return fail(c, "missing the file name (%s:FILE)", name);
            int rc = readers[i].fn(rest, t, c->err, c->errlen);
            if (rc == VINE_OK && !t->name[0])
                snprintf(t->name, sizeof t->name, "%s", c->spec);
            return rc;
        }

    char m[256] = "";
    vine_topo_linkparams lp;
    vine__topo_linkparams_default(&lp);
    const vine_topo_preset *pr = vine__topo_preset_find(name);
    if (pr) {
        int rc = split(c, rest, 0);
        if (rc == VINE_OK) {
            pr->links(&lp);
            rc = link_opts(c, &lp);
        }
        if (rc == VINE_OK)
            rc = check_used(c, name, "");
        if (rc != VINE_OK)
            return rc;
        rc = check_ports(c, t, gen_done(c, pr->build(t, &lp, m, sizeof m), m));
        if (rc == VINE_OK)
            snprintf(t->name, sizeof t->name, "%s", pr->name);
        return rc;
    }
    int pos =
        strcmp(name, "torus") == 0 || strcmp(name, "mesh") == 0 || strcmp(name, "hypercube") == 0;
    if (strcmp(name, "dragonfly") == 0 || strcmp(name, "dragonflyplus") == 0 ||
        strcmp(name, "fattree") == 0 || pos) {
        int rc = split(c, rest, pos);
        if (rc != VINE_OK)
            return rc;
        if (name[0] == 'd')
            rc = name[9] ? parse_dragonflyplus(c, t, &lp, m, sizeof m)
                         : parse_dragonfly(c, t, &lp, m, sizeof m);
        else if (name[0] == 'f')
            rc = parse_fattree(c, t, &lp, m, sizeof m);
        else if (name[0] == 'h')
            rc = parse_hypercube(c, t, &lp, m, sizeof m);
        else
            rc = parse_torus(c, t, &lp, name[0] == 't', m, sizeof m);
        return check_ports(c, t, rc);
    }
    c->gen = NULL;
    return fail(c,
                "unknown topology '%s' (presets: lumi, leonardo, marenostrum5, fugaku; "
                "generators: dragonfly, dragonflyplus, fattree, torus, mesh, hypercube; "
                "files: edges:, slurm:, ibnet:, simgrid:)",
                name);
}

int vine__topo_parse(const char *spec, vine_topo *t, char *err, size_t errlen)
{
    ctx c;
    memset(&c, 0, sizeof c);
    vine__topo_init(t); /* empty on every failure, the early ones included */
    c.spec = spec ? spec : "";
    c.err = err;
    c.errlen = errlen;
    if (err && errlen)
        err[0] = '\0';
    if (!spec || !*spec) {
        if (err && errlen)
            snprintf(err, errlen, "empty topology spec");
        return VINE_ERR_UNSUPPORTED;
    }
    const char *colon = strchr(spec, ':');
    size_t hlen = colon ? (size_t)(colon - spec) : strlen(spec);
    int rc = dispatch(&c, spec, hlen, colon ? colon + 1 : NULL, t);
    if (rc != VINE_OK)
        vine__topo_free(t);
    return rc;
}

static const char *level_names[VINE_LVL_COUNT] = {"node", "host", "local", "global"};

/* Appends to out at *k (bounded by len). */
VINE_PRINTF(4, 5) static void put(char *out, size_t len, size_t *k, const char *fmt, ...)
{
    if (*k >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    int r = vsnprintf(out + *k, len - *k, fmt, ap);
    va_end(ap);
    if (r > 0)
        *k += (size_t)r;
}

static void put_range(char *out, size_t len, size_t *k, double lo, double hi, double unit,
                      const char *name)
{
    if (lo == hi)
        put(out, len, k, "%g %s", lo / unit, name);
    else
        put(out, len, k, "%g-%g %s", lo / unit, hi / unit, name);
}

int vine__topo_describe(const vine_topo *t, char *out, size_t len)
{
    if (!out || !len)
        return VINE_OK;
    size_t k = 0;
    out[0] = '\0';
    int nlev[VINE_LVL_COUNT] = {0};
    double bwlo[VINE_LVL_COUNT], bwhi[VINE_LVL_COUNT], latlo[VINE_LVL_COUNT], lathi[VINE_LVL_COUNT];
    for (int i = 0; i < t->nlinks; i++) {
        const vine_link *l = &t->links[i];
        int v = l->level;
        if (!nlev[v]++) {
            bwlo[v] = bwhi[v] = l->bw;
            latlo[v] = lathi[v] = l->lat;
        }
        bwlo[v] = fmin(bwlo[v], l->bw);
        bwhi[v] = fmax(bwhi[v], l->bw);
        latlo[v] = fmin(latlo[v], l->lat);
        lathi[v] = fmax(lathi[v], l->lat);
    }
    put(out, len, &k, "%s: %d vertices (%d hosts, %d switches), %d links",
        t->name[0] ? t->name : "topology", t->nvert, t->nhosts, t->nvert - t->nhosts, t->nlinks);
    const char *sep = " (";
    for (int v = VINE_LVL_HOST; v < VINE_LVL_COUNT; v++) {
        if (!nlev[v])
            continue;
        put(out, len, &k, "%s%d %s at ", sep, nlev[v], level_names[v]);
        put_range(out, len, &k, bwlo[v], bwhi[v], 1e9, "GB/s");
        put(out, len, &k, ", ");
        put_range(out, len, &k, latlo[v], lathi[v], 1e-6, "us");
        sep = "; ";
    }
    if (*sep == ';')
        put(out, len, &k, ")");
    /* hosts per group */
    int *per = t->ngroups > 0 ? calloc((size_t)t->ngroups, sizeof *per) : NULL;
    if (t->ngroups > 0 && !per)
        return VINE_ERR_NO_MEM;
    int outside = 0;
    for (int h = 0; h < t->nhosts; h++) {
        int g = t->group[t->host_vert[h]];
        if (g >= 0 && g < t->ngroups)
            per[g]++;
        else
            outside++;
    }
    int lo = 0, hi = 0;
    for (int g = 0; g < t->ngroups; g++) {
        if (g == 0 || per[g] < lo)
            lo = per[g];
        if (g == 0 || per[g] > hi)
            hi = per[g];
    }
    free(per);
    if (t->ngroups > 0) {
        put(out, len, &k, ", %d group%s of ", t->ngroups, t->ngroups == 1 ? "" : "s");
        if (lo == hi)
            put(out, len, &k, "%d host%s", lo, lo == 1 ? "" : "s");
        else
            put(out, len, &k, "%d to %d hosts", lo, hi);
    } else {
        put(out, len, &k, ", no groups");
    }
    if (outside)
        put(out, len, &k, " (%d hosts in no group)", outside);
    put(out, len, &k, "; two ranks on one host: %g GB/s, %g us.", t->node_bw / 1e9,
        t->node_lat / 1e-6);
    return VINE_OK;
}
