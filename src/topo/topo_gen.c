/*
 * Topology generators: dragonfly (Kim et al. 2008), dragonfly+ (Shpiner et
 * al. 2017), fat tree (the XGFT of Ohring et al. 1995), torus, mesh,
 * hypercube.  See topo_gen.h for each one's vertices, groups and link levels
 * and docs/topology.md for the spec syntax.  Cost: linear in the links
 * built; sizes are checked in 64-bit arithmetic before anything is built.
 */
#include "topo_gen.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void vine__topo_linkparams_default(vine_topo_linkparams *lp)
{
    lp->host_bw = lp->local_bw = lp->global_bw = VINE_TOPO_BW;
    lp->host_lat = lp->local_lat = lp->global_lat = VINE_TOPO_LAT;
    lp->node_bw = VINE_TOPO_NODE_BW;
    lp->node_lat = VINE_TOPO_NODE_LAT;
    lp->ports = 1;
}

/* t->name from a format, cut to fit. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void
set_name(vine_topo *t, const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    size_t n = strlen(buf);
    if (n >= sizeof t->name)
        n = sizeof t->name - 1;
    memcpy(t->name, buf, n);
    t->name[n] = '\0';
}

static int bad(char *err, size_t errlen, const char *what, const char *msg)
{
    snprintf(err, errlen, "%s: %s", what, msg);
    return VINE_ERR_UNSUPPORTED;
}

/* a * b for sizes >= 0, saturating far above VINE_TOPO_GEN_MAX (no overflow). */
#define SAT ((int64_t)1 << 40)
static int64_t smul(int64_t a, int64_t b)
{
    if (a == 0 || b == 0)
        return 0;
    return a > SAT / b ? SAT : a * b;
}

/* Checks the sizes a generator is about to build. */
static int check_size(int64_t nvert, int64_t nlinks, const char *what, char *err, size_t errlen)
{
    if (nvert > VINE_TOPO_GEN_MAX || nlinks > VINE_TOPO_GEN_MAX) {
        snprintf(err, errlen, "%s: too large (more than %d vertices or links)", what,
                 VINE_TOPO_GEN_MAX);
        return VINE_ERR_UNSUPPORTED;
    }
    return VINE_OK;
}

static int check_links(const vine_topo_linkparams *lp, const char *what, char *err, size_t errlen)
{
    if (!(lp->host_bw > 0) || !(lp->local_bw > 0) || !(lp->global_bw > 0) || !(lp->node_bw > 0))
        return bad(err, errlen, what, "every bandwidth must be positive");
    if (!(lp->host_lat >= 0) || !(lp->local_lat >= 0) || !(lp->global_lat >= 0) ||
        !(lp->node_lat >= 0))
        return bad(err, errlen, what, "every latency must be zero or positive");
    return VINE_OK;
}

static int add_link(vine_topo *t, int a, int b, const vine_topo_linkparams *lp, int level)
{
    double bw = level == VINE_LVL_HOST    ? lp->host_bw
                : level == VINE_LVL_LOCAL ? lp->local_bw
                                          : lp->global_bw;
    double lat = level == VINE_LVL_HOST    ? lp->host_lat
                 : level == VINE_LVL_LOCAL ? lp->local_lat
                                           : lp->global_lat;
    return vine__topo_add_link(t, a, b, bw, lat, level) < 0 ? VINE_ERR_NO_MEM : VINE_OK;
}

static int finish(vine_topo *t, const vine_topo_linkparams *lp)
{
    t->node_bw = lp->node_bw;
    t->node_lat = lp->node_lat;
    t->ports = lp->ports > 1 ? lp->ports : 1;
    return vine__topo_finish(t);
}

/*
 * Global links among g groups whose router r of group x is vertex
 * base + x * stride + r, nr routers of h global ports each (topo_gen.h
 * describes the arrangement).  Returns VINE_OK or VINE_ERR_NO_MEM.
 */
static int connect_groups(vine_topo *t, int g, int nr, int h, int base, int stride,
                          const vine_topo_linkparams *lp)
{
    if (g < 2)
        return VINE_OK;
    int *used = calloc((size_t)g, sizeof *used);
    if (!used)
        return VINE_ERR_NO_MEM;
    long ports = (long)nr * h, q = ports / (g - 1), r = ports % (g - 1);
    int rc = VINE_OK;
#define GLINK(i, j)                                                                                \
    do {                                                                                           \
        int va_ = base + (i)*stride + used[i]++ / h;                                               \
        int vb_ = base + (j)*stride + used[j]++ / h;                                               \
        if ((rc = add_link(t, va_, vb_, lp, VINE_LVL_GLOBAL)) != VINE_OK)                          \
            goto out;                                                                              \
    } while (0)
    for (long round = 0; round < q; round++)
        for (int i = 0; i < g; i++)
            for (int j = i + 1; j < g; j++)
                GLINK(i, j);
    /* r <= g - 2, so every offset d <= r / 2 is below g / 2: each pair once. */
    for (long d = 1; d <= r / 2; d++)
        for (int i = 0; i < g; i++)
            GLINK(i, (int)((i + d) % g));
    if (r % 2 && g % 2 == 0)
        for (int i = 0; i < g / 2; i++)
            GLINK(i, i + g / 2);
#undef GLINK
out:
    free(used);
    return rc;
}

/*
 * The group count of a dragonfly-like generator: g in 1 .. gmax (the ports
 * allow one global link between each pair of groups up to gmax), 0 meaning
 * gmax.  gname spells gmax in the message.
 */
static int resolve_groups(int *g, int64_t gmax, const char *what, const char *gname, char *err,
                          size_t errlen)
{
    if (*g < 0 || *g > gmax) {
        snprintf(err, errlen, "%s: g=%d out of range (1 .. %s = %lld)", what, *g, gname,
                 (long long)gmax);
        return VINE_ERR_UNSUPPORTED;
    }
    if (*g == 0) {
        if (gmax > VINE_TOPO_GEN_MAX)
            return check_size(gmax, gmax, what, err, errlen);
        *g = (int)gmax;
    }
    return VINE_OK;
}

int vine__topo_gen_dragonfly(vine_topo *t, int a, int p, int h, int g, int n,
                             const vine_topo_linkparams *lp, char *err, size_t errlen)
{
    const char *what = "dragonfly";
    if (a < 1 || p < 1 || h < 1)
        return bad(err, errlen, what, "a, p and h must be at least 1");
    int rc = resolve_groups(&g, (int64_t)a * h + 1, what, "a*h+1", err, errlen);
    if (rc != VINE_OK)
        return rc;
    int64_t hosts_pg = (int64_t)a * p;
    if (n < 0 || n > hosts_pg) {
        snprintf(err, errlen, "dragonfly: n=%d out of range (1 .. a*p = %lld)", n,
                 (long long)hosts_pg);
        return VINE_ERR_UNSUPPORTED;
    }
    if (n == 0) {
        if (hosts_pg > VINE_TOPO_GEN_MAX)
            return check_size(hosts_pg, hosts_pg, what, err, errlen);
        n = (int)hosts_pg;
    }
    int64_t nvert = smul(g, (int64_t)a + n);
    int64_t nlinks = smul(g, n) + smul(smul(g, a), a - 1) / 2 + smul(smul(g, a), h) / 2;
    rc = check_size(nvert, nlinks, what, err, errlen);
    if (rc == VINE_OK)
        rc = check_links(lp, what, err, errlen);
    if (rc != VINE_OK)
        return rc;

    int stride = a + n;
    for (int x = 0; x < g; x++) {
        int base = x * stride;
        for (int r = 0; r < a; r++)
            if (vine__topo_add_vertex(t, VINE_V_SWITCH, x, NULL) < 0)
                return VINE_ERR_NO_MEM;
        for (int k = 0; k < n; k++) {
            int v = vine__topo_add_vertex(t, VINE_V_HOST, x, NULL);
            if (v < 0)
                return VINE_ERR_NO_MEM;
            if ((rc = add_link(t, v, base + k / p, lp, VINE_LVL_HOST)) != VINE_OK)
                return rc;
        }
        for (int r = 0; r < a; r++)
            for (int s = r + 1; s < a; s++)
                if ((rc = add_link(t, base + r, base + s, lp, VINE_LVL_LOCAL)) != VINE_OK)
                    return rc;
    }
    if ((rc = connect_groups(t, g, a, h, 0, stride, lp)) != VINE_OK)
        return rc;
    if (n == hosts_pg)
        set_name(t, "dragonfly a=%d p=%d h=%d g=%d", a, p, h, g);
    else
        set_name(t, "dragonfly a=%d p=%d h=%d g=%d n=%d", a, p, h, g, n);
    return finish(t, lp);
}

int vine__topo_gen_dragonflyplus(vine_topo *t, int g, int leaves, int spines, int p, int h,
                                 const vine_topo_linkparams *lp, char *err, size_t errlen)
{
    const char *what = "dragonflyplus";
    if (leaves < 1 || spines < 1 || p < 1 || h < 1)
        return bad(err, errlen, what, "leaves, spines, p and h must be at least 1");
    int rc = resolve_groups(&g, (int64_t)spines * h + 1, what, "spines*h+1", err, errlen);
    if (rc != VINE_OK)
        return rc;
    int64_t hosts_pg = (int64_t)leaves * p;
    int64_t nvert = smul(g, (int64_t)leaves + spines + hosts_pg);
    int64_t nlinks =
        smul(g, hosts_pg) + smul(smul(g, leaves), spines) + smul(smul(g, spines), h) / 2;
    rc = check_size(nvert, nlinks, what, err, errlen);
    if (rc == VINE_OK)
        rc = check_links(lp, what, err, errlen);
    if (rc != VINE_OK)
        return rc;

    int stride = leaves + spines + (int)hosts_pg;
    for (int x = 0; x < g; x++) {
        int base = x * stride;
        for (int s = 0; s < leaves + spines; s++)
            if (vine__topo_add_vertex(t, VINE_V_SWITCH, x, NULL) < 0)
                return VINE_ERR_NO_MEM;
        for (int k = 0; k < (int)hosts_pg; k++) {
            int v = vine__topo_add_vertex(t, VINE_V_HOST, x, NULL);
            if (v < 0)
                return VINE_ERR_NO_MEM;
            if ((rc = add_link(t, v, base + k / p, lp, VINE_LVL_HOST)) != VINE_OK)
                return rc;
        }
        for (int l = 0; l < leaves; l++)
            for (int s = 0; s < spines; s++)
                if ((rc = add_link(t, base + l, base + leaves + s, lp, VINE_LVL_LOCAL)) != VINE_OK)
                    return rc;
    }
    if ((rc = connect_groups(t, g, spines, h, leaves, stride, lp)) != VINE_OK)
        return rc;
    set_name(t, "dragonflyplus g=%d leaves=%d spines=%d p=%d h=%d", g, leaves, spines, p, h);
    return finish(t, lp);
}

int vine__topo_gen_fattree(vine_topo *t, int levels, const int *down, const int *up, int glevel,
                           const vine_topo_linkparams *lp, char *err, size_t errlen)
{
    const char *what = "fattree";
    if (levels < 2 || levels > VINE_TOPO_FT_MAXLEV) {
        snprintf(err, errlen, "fattree: %d levels (2 .. %d)", levels, VINE_TOPO_FT_MAXLEV);
        return VINE_ERR_UNSUPPORTED;
    }
    for (int i = 0; i < levels; i++)
        if (down[i] < 1 || (i < levels - 1 && up[i] < 1))
            return bad(err, errlen, what, "every down and up port count must be at least 1");
    if (glevel == -1)
        glevel = levels - 2;
    if (glevel < 0 || glevel >= levels) {
        snprintf(err, errlen, "fattree: glevel=%d out of range (0 .. %d)", glevel, levels - 1);
        return VINE_ERR_UNSUPPORTED;
    }
    /* above[i] = prod(down[j], j > i), below[i] = prod(up[j], j < i); capped
     * so that the products cannot overflow before the size check fails. */
    const int64_t cap = (int64_t)VINE_TOPO_GEN_MAX + 1;
    int64_t above[VINE_TOPO_FT_MAXLEV], below[VINE_TOPO_FT_MAXLEV];
    above[levels - 1] = 1;
    for (int i = levels - 2; i >= 0; i--) {
        above[i] = above[i + 1] * down[i + 1];
        if (above[i] > cap)
            above[i] = cap;
    }
    below[0] = 1;
    for (int i = 1; i < levels; i++) {
        below[i] = below[i - 1] * up[i - 1];
        if (below[i] > cap)
            below[i] = cap;
    }
    int64_t hosts = smul(above[0], down[0]), nvert = hosts, nlinks = hosts;
    for (int i = 0; i < levels; i++) {
        int64_t ns = smul(above[i], below[i]);
        nvert += ns;
        if (i < levels - 1)
            nlinks += smul(ns, up[i]);
        if (nvert > cap || nlinks > cap)
            break;
    }
    int rc = check_size(nvert, nlinks, what, err, errlen);
    if (rc == VINE_OK)
        rc = check_links(lp, what, err, errlen);
    if (rc != VINE_OK)
        return rc;

    /* Vertices: hosts, then level 0, level 1, ...; switch (s, r) of level i
     * is first[i] + s * below[i] + r. */
    int first[VINE_TOPO_FT_MAXLEV];
    int64_t hosts_pgroup = down[0];
    for (int j = 1; j <= glevel; j++)
        hosts_pgroup *= down[j];
    for (int64_t x = 0; x < hosts; x++)
        if (vine__topo_add_vertex(t, VINE_V_HOST, (int)(x / hosts_pgroup), NULL) < 0)
            return VINE_ERR_NO_MEM;
    for (int i = 0; i < levels; i++) {
        first[i] = t->nvert;
        /* subtrees of level i per group: prod(down[j], i < j <= glevel) */
        int64_t per_group = 1;
        for (int j = i + 1; j <= glevel; j++)
            per_group *= down[j];
        for (int64_t s = 0; s < above[i]; s++)
            for (int64_t r = 0; r < below[i]; r++)
                if (vine__topo_add_vertex(t, VINE_V_SWITCH, i <= glevel ? (int)(s / per_group) : -1,
                                          NULL) < 0)
                    return VINE_ERR_NO_MEM;
    }
    for (int64_t x = 0; x < hosts; x++)
        if ((rc = add_link(t, (int)x, first[0] + (int)(x / down[0]), lp, VINE_LVL_HOST)) != VINE_OK)
            return rc;
    for (int i = 0; i < levels - 1; i++) {
        int level = i + 1 <= glevel ? VINE_LVL_LOCAL : VINE_LVL_GLOBAL;
        for (int64_t s = 0; s < above[i]; s++)
            for (int64_t r = 0; r < below[i]; r++)
                for (int k = 0; k < up[i]; k++) {
                    int64_t ps = s / down[i + 1], pr = r + k * below[i];
                    int va = first[i] + (int)(s * below[i] + r);
                    int vb = first[i + 1] + (int)(ps * below[i + 1] + pr);
                    if ((rc = add_link(t, va, vb, lp, level)) != VINE_OK)
                        return rc;
                }
    }
    char nm[256];
    size_t len = (size_t)snprintf(nm, sizeof nm, "fattree down=");
    for (int i = 0; i < levels; i++)
        len += (size_t)snprintf(nm + len, sizeof nm - len, "%s%d", i ? "/" : "", down[i]);
    for (int i = 0; i < levels - 1; i++)
        len += (size_t)snprintf(nm + len, sizeof nm - len, "%s%d", i ? "/" : " up=", up[i]);
    set_name(t, "%s glevel=%d", nm, glevel);
    t->ft_levels = levels;
    for (int i = 0; i < levels; i++) {
        t->ft_down[i] = down[i];
        t->ft_up[i] = i < levels - 1 ? up[i] : 0;
    }
    return finish(t, lp);
}

/* Records the grid of the hosts (topo.h: vine_topo.shape). */
static void set_shape(vine_topo *t, int nd, const int *dims, int wrap)
{
    t->shape_nd = nd;
    t->shape_wrap = wrap;
    for (int k = 0; k < nd; k++)
        t->shape[k] = dims[k];
}

/* Routers 0 .. n-1, then hosts n .. 2n-1, host i on router i, group i. */
static int points(vine_topo *t, int64_t n, const vine_topo_linkparams *lp)
{
    for (int64_t i = 0; i < n; i++)
        if (vine__topo_add_vertex(t, VINE_V_SWITCH, (int)i, NULL) < 0)
            return VINE_ERR_NO_MEM;
    for (int64_t i = 0; i < n; i++) {
        int v = vine__topo_add_vertex(t, VINE_V_HOST, (int)i, NULL);
        if (v < 0)
            return VINE_ERR_NO_MEM;
        int rc = add_link(t, v, (int)i, lp, VINE_LVL_HOST);
        if (rc != VINE_OK)
            return rc;
    }
    return VINE_OK;
}

int vine__topo_gen_torus(vine_topo *t, int nd, const int *dims, int wrap,
                         const vine_topo_linkparams *lp, char *err, size_t errlen)
{
    const char *what = wrap ? "torus" : "mesh";
    if (nd < 1 || nd > VINE_TOPO_MAXDIM) {
        snprintf(err, errlen, "%s: %d dimensions (1 .. %d)", what, nd, VINE_TOPO_MAXDIM);
        return VINE_ERR_UNSUPPORTED;
    }
    int64_t n = 1, nlinks = 0;
    for (int k = 0; k < nd; k++) {
        if (dims[k] < 1)
            return bad(err, errlen, what, "every dimension must be at least 1");
        n *= dims[k];
        if (n > VINE_TOPO_GEN_MAX)
            return check_size(2 * n, n, what, err, errlen);
    }
    for (int k = 0; k < nd; k++) /* links along dimension k: n / d rows of d - 1 or d */
        nlinks += n / dims[k] * (wrap && dims[k] > 2 ? dims[k] : dims[k] - 1);
    int rc = check_size(2 * n, nlinks + n, what, err, errlen);
    if (rc == VINE_OK)
        rc = check_links(lp, what, err, errlen);
    if (rc == VINE_OK)
        rc = points(t, n, lp);
    if (rc != VINE_OK)
        return rc;
    /* stride[k] = prod(dims[j], j > k): row-major, the last dimension fastest */
    int64_t stride[VINE_TOPO_MAXDIM];
    stride[nd - 1] = 1;
    for (int k = nd - 2; k >= 0; k--)
        stride[k] = stride[k + 1] * dims[k + 1];
    for (int64_t i = 0; i < n; i++)
        for (int k = 0; k < nd; k++) {
            int c = (int)(i / stride[k] % dims[k]);
            int64_t j;
            if (c + 1 < dims[k])
                j = i + stride[k];
            else if (wrap && dims[k] > 2)
                j = i - (int64_t)c * stride[k];
            else
                continue;
            if ((rc = add_link(t, (int)i, (int)j, lp, VINE_LVL_GLOBAL)) != VINE_OK)
                return rc;
        }
    char nm[256];
    size_t len = 0;
    for (int k = 0; k < nd; k++) /* at most 16 entries of 9 digits: fits */
        len += (size_t)snprintf(nm + len, sizeof nm - len, "%s%d", k ? "x" : "", dims[k]);
    set_name(t, "%s %s", what, nm);
    set_shape(t, nd, dims, wrap);
    return finish(t, lp);
}

int vine__topo_gen_hypercube(vine_topo *t, int d, const vine_topo_linkparams *lp, char *err,
                             size_t errlen)
{
    if (d < 1 || d > 24) {
        snprintf(err, errlen, "hypercube: d=%d out of range (1 .. 24)", d);
        return VINE_ERR_UNSUPPORTED;
    }
    int64_t n = (int64_t)1 << d;
    int rc = check_size(2 * n, n + n * d / 2, "hypercube", err, errlen);
    if (rc == VINE_OK)
        rc = check_links(lp, "hypercube", err, errlen);
    if (rc == VINE_OK)
        rc = points(t, n, lp);
    if (rc != VINE_OK)
        return rc;
    for (int64_t i = 0; i < n; i++)
        for (int k = 0; k < d; k++) {
            int64_t j = i ^ ((int64_t)1 << k);
            if (j > i && (rc = add_link(t, (int)i, (int)j, lp, VINE_LVL_GLOBAL)) != VINE_OK)
                return rc;
        }
    set_name(t, "hypercube d=%d", d);
    if (d <= VINE_TOPO_MAXDIM) {
        int twos[VINE_TOPO_MAXDIM];
        for (int k = 0; k < d; k++)
            twos[k] = 2;
        set_shape(t, d, twos, 1);
    }
    return finish(t, lp);
}
