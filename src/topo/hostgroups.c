/*
 * Host groups from a map, a Slurm topology.conf, an ibnetdiscover dump or a
 * hostname rule (MPI-free); the formats are described in hostgroups.h.
 * Files are read once into a table host -> path of group names, looked up
 * by hash; rules are POSIX extended regular expressions compiled once.
 */
#include "hostgroups.h"

#include "../sched/sched.h"
#include "topo.h"
#include "topo_read.h"
#include "topo_read_util.h"

#include <regex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum hg_kind { HG_MAP, HG_SLURM, HG_IBNET, HG_REGEX, HG_BLOCK, HG_TORUS };

static const char *const kind_name[] = {"map", "slurm", "ibnet", "regex", "block", "torus"};

/* The default rule of block: the last number in the host name. */
#define HG_BLOCK_DEFAULT_RE "([0-9]+)[^0-9]*$"
/* Digits of a captured node number (fits in 63 bits). */
#define HG_NUM_DIGITS 18

struct vine_hostgroups {
    int kind;
    int nlevels;
    char *spec; /* the whole spec, for messages */
    char *path; /* the file, for files */
    /* Files: host h's groups are grp[h * nlevels ...]; names borrowed from own or topo. */
    vine_strmap hosts;
    const char **grp;
    int *line; /* the map line that listed each host */
    int nhosts, hcap;
    char **own; /* strings this object owns */
    int nown, owncap;
    vine_topo topo; /* Slurm and ibnetdiscover: the graph the names live in */
    int has_topo;
    /* Rules. */
    regex_t re;
    int has_re;
    uint64_t div[VINE_HOSTGROUPS_MAX]; /* block: N1, N1 N2, ...; torus: Dk-1, Dk-1 Dk-2, ... */
    uint64_t nodes;                    /* torus: D0 ... Dk-1, the node numbers below it */
};

/* Takes ownership of s (freed with hg); NULL s means out of memory. */
static const char *keep(vine_hostgroups *hg, char *s)
{
    if (!s)
        return NULL;
    if (hg->nown == hg->owncap) {
        int cap = hg->owncap ? 2 * hg->owncap : 64;
        char **n = realloc(hg->own, (size_t)cap * sizeof *n);
        if (!n) {
            free(s);
            return NULL;
        }
        hg->own = n;
        hg->owncap = cap;
    }
    hg->own[hg->nown++] = s;
    return s;
}

/*
 * Adds host name (borrowed: it must live as long as hg) with its groups;
 * *dup gets the index of an earlier host of the same name, else -1.
 */
static int add_host(vine_hostgroups *hg, const char *name, const char *const *grp, int line,
                    int *dup)
{
    if (hg->nhosts >= VINE_READ_MAX_NAMES)
        return VINE_ERR_UNSUPPORTED;
    if (hg->nhosts == hg->hcap) {
        int cap = hg->hcap ? 2 * hg->hcap : 64;
        const char **g = realloc(hg->grp, (size_t)cap * (size_t)hg->nlevels * sizeof *g);
        if (!g)
            return VINE_ERR_NO_MEM;
        hg->grp = g;
        int *l = realloc(hg->line, (size_t)cap * sizeof *l);
        if (!l)
            return VINE_ERR_NO_MEM;
        hg->line = l;
        hg->hcap = cap;
    }
    if (vine__strmap_add(&hg->hosts, name, hg->nhosts, dup) != VINE_OK)
        return VINE_ERR_NO_MEM;
    if (*dup >= 0)
        return VINE_OK;
    memcpy(hg->grp + (size_t)hg->nhosts * (size_t)hg->nlevels, grp,
           (size_t)hg->nlevels * sizeof *grp);
    hg->line[hg->nhosts++] = line;
    return VINE_OK;
}

/* ---- the map ------------------------------------------------------------ */

/* Splits s at spaces and tabs into at most max fields; returns their number. */
static int split_fields(char *s, char **f, int max)
{
    int n = 0;
    for (;;) {
        s = vine__skip_ws(s);
        if (*s == '\0')
            return n;
        if (n < max)
            f[n] = s;
        n++;
        while (*s && *s != ' ' && *s != '\t')
            s++;
        if (*s)
            *s++ = '\0';
    }
}

/* One host line of the map: fields f[0 .. nf-1], nf >= 2. */
static int map_line(vine_hostgroups *hg, char **f, int nf, int lineno, int *first, char *err,
                    size_t errlen)
{
    const char *path = hg->path;
    if (nf - 1 > VINE_HOSTGROUPS_MAX)
        return vine__rerr(err, errlen, path, lineno, "%d groups; at most %d levels are supported",
                          nf - 1, VINE_HOSTGROUPS_MAX);
    if (hg->nlevels == 0) {
        hg->nlevels = nf - 1;
        *first = lineno;
    } else if (nf - 1 != hg->nlevels) {
        return vine__rerr(err, errlen, path, lineno,
                          "%d groups, but line %d names %d (every line names as many)", nf - 1,
                          *first, hg->nlevels);
    }
    const char *grp[VINE_HOSTGROUPS_MAX];
    for (int l = 0; l < hg->nlevels; l++)
        if (!(grp[l] = keep(hg, strdup(f[l + 1]))))
            return VINE_ERR_NO_MEM;
    char sub[256];
    char **names;
    int n, rc = vine__hostlist_expand(f[0], &names, &n, sub, sizeof sub);
    if (rc == VINE_ERR_NO_MEM)
        return rc;
    if (rc != VINE_OK)
        return vine__rerr(err, errlen, path, lineno, "%s", sub);
    /* Names are kept (owned by hg) until a failure; the rest are freed. */
    for (int k = 0; k < n; k++) {
        if (rc != VINE_OK) {
            free(names[k]);
            continue;
        }
        if (!keep(hg, names[k])) {
            rc = VINE_ERR_NO_MEM;
            continue;
        }
        int dup;
        rc = add_host(hg, names[k], grp, lineno, &dup);
        if (rc == VINE_ERR_UNSUPPORTED)
            rc = vine__rerr(err, errlen, path, lineno, "too many hosts");
        else if (rc == VINE_OK && dup >= 0)
            rc = vine__rerr(err, errlen, path, lineno, "host %s is already listed on line %d",
                            names[k], hg->line[dup]);
    }
    free(names);
    return rc;
}

static int read_map(vine_hostgroups *hg, char *err, size_t errlen)
{
    vine_rfile f;
    int rc = vine__rfile_open(&f, hg->path, err, errlen);
    if (rc != VINE_OK)
        return rc;
    int first = 0;
    char *s;
    while (rc == VINE_OK && (s = vine__rfile_line(&f))) {
        char *hash = strchr(s, '#');
        if (hash)
            *hash = '\0';
        char *fld[VINE_HOSTGROUPS_MAX + 1];
        int nf = split_fields(s, fld, VINE_HOSTGROUPS_MAX + 1);
        if (nf == 0)
            continue;
        if (nf == 1)
            rc = vine__rerr(err, errlen, hg->path, f.lineno,
                            "host %.100s has no group (expected HOST GROUP [GROUP ...])", fld[0]);
        else
            rc = map_line(hg, fld, nf, f.lineno, &first, err, errlen);
    }
    vine__rfile_close(&f);
    if (rc == VINE_OK && hg->nhosts == 0)
        rc = vine__rerr(err, errlen, hg->path, 0, "no host line (expected HOST GROUP [GROUP ...])");
    return rc;
}

/* ---- Slurm and ibnetdiscover: paths in the reader's graph ---------------- */

/* The first switch linked to vertex v, or -1. */
static int first_switch(const vine_topo *t, int v)
{
    for (int i = t->adj_start[v]; i < t->adj_start[v + 1]; i++) {
        int w = vine__topo_arc_head(t, t->adj_arc[i]);
        if (t->kind[w] == VINE_V_SWITCH)
            return w;
    }
    return -1;
}

/*
 * Slurm: every switch's distance from the top switches and its parent.  The
 * reader puts exactly the top switches that have child switches in no group
 * (-1); a tree of one leaf switch has none, and that leaf is its own top.
 */
static int slurm_depths(const vine_topo *t, int *depth, int *parent)
{
    int *queue = malloc((size_t)t->nvert * sizeof *queue);
    if (!queue)
        return VINE_ERR_NO_MEM;
    int head = 0, tail = 0;
    for (int v = 0; v < t->nvert; v++) {
        depth[v] = -1;
        parent[v] = -1;
        if (t->kind[v] == VINE_V_SWITCH && t->group[v] < 0) {
            depth[v] = 0;
            queue[tail++] = v;
        }
    }
    while (head < tail) {
        int v = queue[head++];
        for (int i = t->adj_start[v]; i < t->adj_start[v + 1]; i++) {
            int w = vine__topo_arc_head(t, t->adj_arc[i]);
            if (t->kind[w] == VINE_V_SWITCH && depth[w] < 0) {
                depth[w] = depth[v] + 1;
                parent[w] = v;
                queue[tail++] = w;
            }
        }
    }
    free(queue);
    /* The parent is the first switch one step up in link order, whatever
     * reached it first. */
    for (int v = 0; v < t->nvert; v++) {
        if (t->kind[v] != VINE_V_SWITCH)
            continue;
        if (depth[v] < 0)
            depth[v] = 0;
        for (int i = t->adj_start[v]; depth[v] > 0 && i < t->adj_start[v + 1]; i++) {
            int w = vine__topo_arc_head(t, t->adj_arc[i]);
            if (t->kind[w] == VINE_V_SWITCH && depth[w] == depth[v] - 1) {
                parent[v] = w;
                break;
            }
        }
    }
    return VINE_OK;
}

static const char *vert_name(vine_hostgroups *hg, int v)
{
    if (hg->topo.vname[v])
        return hg->topo.vname[v];
    char buf[32];
    return keep(hg, strdup(vine__topo_vname(&hg->topo, v, buf, sizeof buf)));
}

static int slurm_paths(vine_hostgroups *hg, const int *depth, const int *parent, char *err,
                       size_t errlen)
{
    const vine_topo *t = &hg->topo;
    int maxd = 0;
    for (int h = 0; h < t->nhosts; h++) {
        int s = first_switch(t, t->host_vert[h]);
        if (s >= 0 && depth[s] > maxd)
            maxd = depth[s];
    }
    if (maxd + 1 > VINE_HOSTGROUPS_MAX)
        return vine__rerr(err, errlen, hg->path, 0,
                          "switches %d levels deep; at most %d levels are supported", maxd + 1,
                          VINE_HOSTGROUPS_MAX);
    hg->nlevels = maxd + 1;
    for (int h = 0; h < t->nhosts; h++) {
        int v = t->host_vert[h], s = first_switch(t, v);
        const char *chain[VINE_HOSTGROUPS_MAX], *grp[VINE_HOSTGROUPS_MAX];
        char nb[32];
        if (s < 0)
            return vine__rerr(err, errlen, hg->path, 0, "node %s hangs from no switch",
                              vine__topo_vname(t, v, nb, sizeof nb));
        int d = depth[s];
        for (int w = s, i = d; i >= 0; i--, w = parent[w])
            if (w < 0 || !(chain[i] = vert_name(hg, w)))
                return w < 0 ? VINE_ERR_INTERNAL : VINE_ERR_NO_MEM;
        for (int k = 0; k < hg->nlevels; k++) {
            int i = hg->nlevels - 1 - k;
            grp[k] = chain[i < d ? i : d];
        }
        int dup, rc = add_host(hg, vert_name(hg, v), grp, 0, &dup);
        if (rc != VINE_OK)
            return rc == VINE_ERR_UNSUPPORTED ? VINE_ERR_NO_MEM : rc;
    }
    return VINE_OK;
}

static int read_slurm(vine_hostgroups *hg, char *err, size_t errlen)
{
    vine__topo_init(&hg->topo);
    int rc = vine__topo_read_slurm(hg->path, &hg->topo, err, errlen);
    if (rc != VINE_OK)
        return rc;
    hg->has_topo = 1;
    int n = hg->topo.nvert;
    int *depth = malloc((size_t)n * sizeof *depth), *parent = malloc((size_t)n * sizeof *parent);
    rc = depth && parent ? slurm_depths(&hg->topo, depth, parent) : VINE_ERR_NO_MEM;
    if (rc == VINE_OK)
        rc = slurm_paths(hg, depth, parent, err, errlen);
    free(depth);
    free(parent);
    return rc;
}

static int read_ibnet(vine_hostgroups *hg, char *err, size_t errlen)
{
    vine__topo_init(&hg->topo);
    int rc = vine__topo_read_ibnet(hg->path, &hg->topo, err, errlen);
    if (rc != VINE_OK)
        return rc;
    hg->has_topo = 1;
    hg->nlevels = 2;
    const vine_topo *t = &hg->topo;
    for (int h = 0; h < t->nhosts; h++) {
        int v = t->host_vert[h], s = first_switch(t, v);
        const char *grp[2];
        char nb[32];
        if (s < 0)
            return vine__rerr(err, errlen, hg->path, 0, "host %s is linked to no switch",
                              vine__topo_vname(t, v, nb, sizeof nb));
        char gbuf[32];
        snprintf(gbuf, sizeof gbuf, "group%d", t->group[v]);
        grp[0] = vert_name(hg, s);
        grp[1] = t->group[v] >= 0 ? keep(hg, strdup(gbuf)) : grp[0];
        if (!grp[0] || !grp[1])
            return VINE_ERR_NO_MEM;
        int dup;
        if ((rc = add_host(hg, vert_name(hg, v), grp, 0, &dup)) != VINE_OK)
            return rc == VINE_ERR_UNSUPPORTED ? VINE_ERR_NO_MEM : rc;
    }
    return VINE_OK;
}

/* ---- telling the file formats apart -------------------------------------- */

/* The first word of s, up to white space or '=', compared without case. */
static int first_word_is(const char *s, const char *w)
{
    size_t n = strlen(w);
    return strncasecmp(s, w, n) == 0 &&
           (s[n] == ' ' || s[n] == '\t' || s[n] == '=' || s[n] == '\0');
}

static int detect(const char *path, int *kind, char *err, size_t errlen)
{
    static const char *const slurm_keys[] = {"SwitchName", "Switches",  "Nodes",
                                             "LinkSpeed",  "BlockName", "BlockSizes"};
    static const char *const ib_words[] = {"vendid", "devid",  "sysimgguid", "switchguid",
                                           "caguid", "rtguid", "Switch",     "Ca",
                                           "Rt",     "Chassis"};
    vine_rfile f;
    int rc = vine__rfile_open(&f, path, err, errlen);
    if (rc != VINE_OK)
        return rc;
    *kind = HG_MAP;
    char *s;
    while ((s = vine__rfile_line(&f))) {
        s = vine__skip_ws(s);
        if (*s == '\0' || *s == '#')
            continue;
        for (size_t i = 0; i < sizeof slurm_keys / sizeof *slurm_keys; i++) {
            size_t n = strlen(slurm_keys[i]);
            if (strncasecmp(s, slurm_keys[i], n) == 0 && *vine__skip_ws(s + n) == '=')
                *kind = HG_SLURM;
        }
        for (size_t i = 0; i < sizeof ib_words / sizeof *ib_words; i++)
            if (first_word_is(s, ib_words[i]))
                *kind = HG_IBNET;
        break;
    }
    vine__rfile_close(&f);
    return VINE_OK;
}

/* ---- rules ---------------------------------------------------------------- */

/* The most atoms an expression may expand to (see re_weight). */
#define RE_WEIGHT_MAX 4096
/* POSIX's smallest RE_DUP_MAX: larger bounds are not portable. */
#define RE_BOUND_MAX 255

/*
 * About how many atoms regcomp's automaton for the ERE at *p holds, up to the
 * ')' that closes depth (or the end): glibc copies an atom once per count of
 * a bound {m,n}, so nested bounds multiply, and a short expression such as
 * "(((a{99}){99}){99})" or "s++++..." takes gigabytes.  Returns the weight
 * with *p at where it stopped; -1 for two repetition operators in a row
 * (undefined in POSIX), -2 for a bound above RE_BOUND_MAX, nesting deeper than
 * 32 or a weight above RE_WEIGHT_MAX.  Anything else malformed is left to
 * regcomp.
 */
static long re_weight(const char **p, int depth)
{
    long total = 0, last = 0; /* last: the weight of the atom a quantifier would repeat */
    int quantified = 0;
    const char *s = *p;
    while (*s && !(*s == ')' && depth > 0)) {
        char c = *s;
        if (c == '|') {
            s++;
            last = quantified = 0;
            continue;
        }
        long mult = 0;
        const char *next = s + 1;
        if (c == '*' || c == '+' || c == '?') {
            mult = c == '?' ? 1 : 2;
        } else if (c == '{' && next[0] >= '0' && next[0] <= '9') {
            char *end;
            long m = strtol(next, &end, 10), n = m;
            if (*end == ',') {
                end++;
                /* {m,}: m copies and a starred one, about m + 1 */
                n = *end >= '0' && *end <= '9' ? strtol(end, &end, 10) : m + 1;
            }
            if (*end == '}') {
                if (m > RE_BOUND_MAX || n > RE_BOUND_MAX)
                    return -2;
                mult = n > 0 ? n : 1;
                next = end + 1;
            }
        }
        if (mult) {
            if (quantified)
                return -1;
            quantified = 1;
            total += last * (mult - 1); /* the atom itself is counted already */
            s = next;
        } else {
            quantified = 0;
            last = 1;
            if (c == '(') {
                if (depth >= 32)
                    return -2;
                s++;
                long w = re_weight(&s, depth + 1);
                if (w < 0)
                    return w;
                if (*s == ')')
                    s++;
                last = w > 0 ? w : 1;
            } else if (c == '[') { /* a bracket expression: ']' first is literal */
                s += s[1] == '^' ? 2 : 1;
                s += *s == ']';
                while (*s && *s != ']') {
                    char d = s[1];
                    if (*s == '[' && (d == ':' || d == '.' || d == '=')) {
                        for (s += 2; *s && !(*s == d && s[1] == ']'); s++)
                            ;
                        s += *s ? 2 : 0;
                    } else {
                        s++;
                    }
                }
                s += *s == ']';
            } else {
                s += c == '\\' && s[1] ? 2 : 1;
            }
            total += last;
        }
        if (total > RE_WEIGHT_MAX)
            return -2;
    }
    *p = s;
    return total;
}

static int compile(vine_hostgroups *hg, const char *ere, char *err, size_t errlen)
{
    const char *scan = ere;
    long w = re_weight(&scan, 0);
    if (w == -1)
        return vine__errmsg(err, errlen,
                            "%s: two repetition operators in a row (such as \"++\" or \"*{2}\"), "
                            "undefined in POSIX extended regular expressions",
                            hg->spec);
    if (w < 0)
        return vine__errmsg(err, errlen,
                            "%s: the expression repeats too much (a bound above %d, nesting "
                            "deeper than 32, or more than %d atoms once bounds are expanded)",
                            hg->spec, RE_BOUND_MAX, RE_WEIGHT_MAX);
    int rc = regcomp(&hg->re, ere, REG_EXTENDED);
    if (rc != 0) {
        char why[160];
        regerror(rc, &hg->re, why, sizeof why);
        return vine__errmsg(err, errlen, "%s: bad regular expression: %s", hg->spec, why);
    }
    hg->has_re = 1;
    return VINE_OK;
}

static int open_regex(vine_hostgroups *hg, const char *ere, char *err, size_t errlen)
{
    int rc = compile(hg, ere, err, errlen);
    if (rc != VINE_OK)
        return rc;
    if (hg->re.re_nsub < 1)
        return vine__errmsg(err, errlen,
                            "%s: no capture group (put the group's part of the name in ( ))",
                            hg->spec);
    if (hg->re.re_nsub > VINE_HOSTGROUPS_MAX)
        return vine__errmsg(err, errlen, "%s: %zu capture groups; at most %d levels are supported",
                            hg->spec, hg->re.re_nsub, VINE_HOSTGROUPS_MAX);
    hg->nlevels = (int)hg->re.re_nsub;
    return VINE_OK;
}

/* The rule after a number list (s at ':' or the end): one capture group, the node number. */
static int compile_number(vine_hostgroups *hg, const char *s, char *err, size_t errlen)
{
    int rc = compile(hg, *s == ':' ? s + 1 : HG_BLOCK_DEFAULT_RE, err, errlen);
    if (rc == VINE_OK && hg->re.re_nsub != 1)
        rc = vine__errmsg(err, errlen,
                          "%s: the expression needs exactly one capture group (the node number)",
                          hg->spec);
    return rc;
}

/*
 * Reads N (sep N)* >= 1 at *sp into v[0 .. *n - 1], at most max numbers whose
 * product stays below 2^62, and leaves *sp just past them (at ':' or the
 * end).  Returns 0, or 1 for a malformed number (*sp at it), 2 for too many,
 * 3 for too large.
 */
static int read_numbers(const char **sp, char sep, uint64_t *v, int max, int *n)
{
    const char *s = *sp;
    uint64_t prod = 1;
    for (*n = 0;; s++) {
        uint64_t x = 0;
        int nd = 0;
        *sp = s;
        while (*s >= '0' && *s <= '9' && nd <= HG_NUM_DIGITS) {
            x = x * 10 + (uint64_t)(*s++ - '0');
            nd++;
        }
        if (nd == 0 || nd > HG_NUM_DIGITS || x == 0 || (*s && *s != sep && *s != ':'))
            return 1;
        if (*n == max)
            return 2;
        if (x > (UINT64_C(1) << 62) / prod)
            return 3;
        prod *= x;
        v[(*n)++] = x;
        if (*s != sep)
            break;
    }
    *sp = s;
    return 0;
}

/* "block:" N ("," N)* [":" ERE], s just past "block:". */
static int open_block(vine_hostgroups *hg, const char *s, char *err, size_t errlen)
{
    uint64_t v[VINE_HOSTGROUPS_MAX], prod = 1;
    int n, bad = read_numbers(&s, ',', v, VINE_HOSTGROUPS_MAX, &n);
    if (bad == 1)
        return vine__errmsg(err, errlen, "%s: expected block sizes N[,N...] >= 1, found \"%.20s\"",
                            hg->spec, s);
    if (bad)
        return vine__errmsg(err, errlen, "%s: %s", hg->spec,
                            bad == 2 ? "too many levels" : "block sizes too large");
    for (int i = 0; i < n; i++)
        hg->div[hg->nlevels++] = prod *= v[i];
    return compile_number(hg, s, err, errlen);
}

/*
 * "torus:" D ("x" D)* [":" ERE], s just past "torus:": node n has the
 * coordinates of n in row-major order (the last dimension fastest), so its
 * groups are those of "block:Dk-1,...,D1" (its line of the last dimension,
 * then its plane ...), or one group of all for one dimension; node numbers
 * must lie below D0 ... Dk-1.
 */
static int open_torus(vine_hostgroups *hg, const char *s, char *err, size_t errlen)
{
    uint64_t d[VINE_HOSTGROUPS_MAX + 1], prod = 1;
    int n, bad = read_numbers(&s, 'x', d, VINE_HOSTGROUPS_MAX + 1, &n);
    if (bad == 1)
        return vine__errmsg(err, errlen, "%s: expected dimensions D[xD...] >= 1, found \"%.20s\"",
                            hg->spec, s);
    if (bad)
        return vine__errmsg(err, errlen, "%s: %s", hg->spec,
                            bad == 2 ? "too many dimensions" : "dimensions too large");
    for (int i = n - 1; i >= (n == 1 ? 0 : 1); i--)
        hg->div[hg->nlevels++] = prod *= d[i];
    hg->nodes = n == 1 ? prod : prod * d[0];
    return compile_number(hg, s, err, errlen);
}

/* ---- opening ------------------------------------------------------------- */

static int open_spec(vine_hostgroups *hg, const char *spec, char *err, size_t errlen)
{
    static const struct {
        const char *prefix;
        int kind;
    } files[] = {{"map:", HG_MAP}, {"slurm:", HG_SLURM}, {"ibnet:", HG_IBNET}};
    if (strncmp(spec, "regex:", 6) == 0) {
        hg->kind = HG_REGEX;
        return open_regex(hg, spec + 6, err, errlen);
    }
    if (strncmp(spec, "block:", 6) == 0) {
        hg->kind = HG_BLOCK;
        return open_block(hg, spec + 6, err, errlen);
    }
    if (strncmp(spec, "torus:", 6) == 0) {
        hg->kind = HG_TORUS;
        return open_torus(hg, spec + 6, err, errlen);
    }
    const char *path = spec;
    int kind = -1;
    for (size_t i = 0; i < sizeof files / sizeof *files; i++)
        if (strncmp(spec, files[i].prefix, strlen(files[i].prefix)) == 0) {
            path = spec + strlen(files[i].prefix);
            kind = files[i].kind;
        }
    if (*path == '\0')
        return vine__errmsg(err, errlen, "%s: no file named", spec);
    if (!(hg->path = strdup(path)))
        return VINE_ERR_NO_MEM;
    int rc = kind < 0 ? detect(path, &kind, err, errlen) : VINE_OK;
    if (rc != VINE_OK)
        return rc;
    hg->kind = kind;
    if (kind == HG_SLURM)
        return read_slurm(hg, err, errlen);
    if (kind == HG_IBNET)
        return read_ibnet(hg, err, errlen);
    return read_map(hg, err, errlen);
}

int vine__hostgroups_open(const char *spec, vine_hostgroups **out, char *err, size_t errlen)
{
    *out = NULL;
    if (err && errlen)
        err[0] = '\0';
    if (!spec || !*spec)
        return vine__errmsg(err, errlen, "empty topology setting");
    vine_hostgroups *hg = calloc(1, sizeof *hg);
    if (!hg || !(hg->spec = strdup(spec))) {
        free(hg);
        return VINE_ERR_NO_MEM;
    }
    vine__strmap_init(&hg->hosts);
    int rc = open_spec(hg, spec, err, errlen);
    if (rc != VINE_OK) {
        if (rc == VINE_ERR_NO_MEM && err && errlen)
            snprintf(err, errlen, "%s: out of memory", spec);
        vine__hostgroups_free(hg);
        return rc;
    }
    *out = hg;
    return VINE_OK;
}

void vine__hostgroups_free(vine_hostgroups *hg)
{
    if (!hg)
        return;
    for (int i = 0; i < hg->nown; i++)
        free(hg->own[i]);
    free(hg->own);
    free(hg->grp);
    free(hg->line);
    vine__strmap_free(&hg->hosts);
    if (hg->has_topo)
        vine__topo_free(&hg->topo);
    if (hg->has_re)
        regfree(&hg->re);
    free(hg->spec);
    free(hg->path);
    free(hg);
}

int vine__hostgroups_nlevels(const vine_hostgroups *hg)
{
    return hg->nlevels;
}

const char *vine__hostgroups_kind(const vine_hostgroups *hg)
{
    return kind_name[hg->kind];
}

/* ---- lookups --------------------------------------------------------------- */

/* Appends the n bytes of s and a NUL at *pos; 0 when buf is full. */
static int put(char *buf, size_t buflen, size_t *pos, const char *s, size_t n)
{
    if (n + 1 > buflen - *pos)
        return 0;
    memcpy(buf + *pos, s, n);
    buf[*pos + n] = '\0';
    *pos += n + 1;
    return 1;
}

static int too_long(const vine_hostgroups *hg, const char *host, char *err, size_t errlen)
{
    return vine__errmsg(err, errlen, "%s: the group names of host %.200s are too long", hg->spec,
                        host);
}

/* The host's index in the table: as given, then cut at its first '.'. */
static int find_host(const vine_hostgroups *hg, const char *host)
{
    int h = vine__strmap_get(&hg->hosts, host);
    const char *dot = strchr(host, '.');
    if (h >= 0 || !dot || dot == host)
        return h;
    size_t n = (size_t)(dot - host);
    char *shrt = malloc(n + 1);
    if (!shrt)
        return -2;
    memcpy(shrt, host, n);
    shrt[n] = '\0';
    h = vine__strmap_get(&hg->hosts, shrt);
    free(shrt);
    return h;
}

static int lookup_file(const vine_hostgroups *hg, const char *host, char *buf, size_t buflen,
                       const char **names, char *err, size_t errlen)
{
    int h = find_host(hg, host);
    if (h == -2)
        return VINE_ERR_NO_MEM;
    if (h < 0)
        return vine__errmsg(err, errlen, "%s: host %.200s is not listed", hg->path, host);
    size_t pos = 0;
    for (int l = 0; l < hg->nlevels; l++) {
        const char *g = hg->grp[(size_t)h * (size_t)hg->nlevels + (size_t)l];
        names[l] = buf + pos;
        if (!put(buf, buflen, &pos, g, strlen(g)))
            return too_long(hg, host, err, errlen);
    }
    return VINE_OK;
}

/* Matches host, or its short name, against the rule; 0 when neither matches. */
static int match(const vine_hostgroups *hg, const char *host, char *shrt, size_t shrtlen,
                 const char **subject, regmatch_t *m)
{
    *subject = host;
    if (regexec(&hg->re, host, VINE_HOSTGROUPS_MAX + 1, m, 0) == 0)
        return 1;
    const char *dot = strchr(host, '.');
    if (!dot || dot == host || (size_t)(dot - host) >= shrtlen)
        return 0;
    memcpy(shrt, host, (size_t)(dot - host));
    shrt[dot - host] = '\0';
    *subject = shrt;
    return regexec(&hg->re, shrt, VINE_HOSTGROUPS_MAX + 1, m, 0) == 0;
}

static int lookup_regex(const vine_hostgroups *hg, const char *s, const regmatch_t *m, char *buf,
                        size_t buflen, const char **names)
{
    size_t pos = 0;
    int k = hg->nlevels;
    for (int l = 0; l < k; l++) {
        /* Level l: captures 1 .. k - l, joined by '/'. */
        size_t start = pos;
        for (int c = 1; c <= k - l; c++) {
            size_t n = m[c].rm_so < 0 ? 0 : (size_t)(m[c].rm_eo - m[c].rm_so);
            size_t need = n + (c > 1);
            if (need + 1 > buflen - pos)
                return 0;
            if (c > 1)
                buf[pos++] = '/';
            if (n)
                memcpy(buf + pos, s + m[c].rm_so, n);
            pos += n;
        }
        buf[pos++] = '\0';
        names[l] = buf + start;
    }
    return 1;
}

static int lookup_block(const vine_hostgroups *hg, const char *host, const char *s,
                        const regmatch_t *m, char *buf, size_t buflen, const char **names,
                        char *err, size_t errlen)
{
    size_t n = m[1].rm_so < 0 ? 0 : (size_t)(m[1].rm_eo - m[1].rm_so);
    uint64_t num = 0;
    int ok = n > 0 && n <= HG_NUM_DIGITS;
    for (size_t i = 0; ok && i < n; i++) {
        char c = s[m[1].rm_so + (regoff_t)i];
        ok = c >= '0' && c <= '9';
        num = num * 10 + (uint64_t)(c - '0');
    }
    if (!ok)
        return vine__errmsg(err, errlen, "%s: host %.200s: the captured part is not a node number",
                            hg->spec, host);
    if (hg->kind == HG_TORUS && num >= hg->nodes)
        return vine__errmsg(err, errlen,
                            "%s: host %.200s: node number %llu lies outside the torus of %llu "
                            "nodes",
                            hg->spec, host, (unsigned long long)num, (unsigned long long)hg->nodes);
    size_t pos = 0;
    for (int l = 0; l < hg->nlevels; l++) {
        char d[24];
        int len = snprintf(d, sizeof d, "%llu", (unsigned long long)(num / hg->div[l]));
        names[l] = buf + pos;
        if (!put(buf, buflen, &pos, d, (size_t)len))
            return too_long(hg, host, err, errlen);
    }
    return VINE_OK;
}

int vine__hostgroups_lookup(const vine_hostgroups *hg, const char *host, char *buf, size_t buflen,
                            const char **names, char *err, size_t errlen)
{
    if (hg->kind != HG_REGEX && hg->kind != HG_BLOCK && hg->kind != HG_TORUS)
        return lookup_file(hg, host, buf, buflen, names, err, errlen);
    regmatch_t m[VINE_HOSTGROUPS_MAX + 1];
    char shrt[256];
    const char *s;
    if (!match(hg, host, shrt, sizeof shrt, &s, m))
        return vine__errmsg(err, errlen, "%s: host %.200s does not match", hg->spec, host);
    if (hg->kind == HG_BLOCK || hg->kind == HG_TORUS)
        return lookup_block(hg, host, s, m, buf, buflen, names, err, errlen);
    if (!lookup_regex(hg, s, m, buf, buflen, names))
        return too_long(hg, host, err, errlen);
    return VINE_OK;
}
