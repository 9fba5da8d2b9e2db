/*
 * Reader of Slurm's topology.conf for the topology/tree plugin (MPI-free).
 * Format, as in Slurm's topology.conf(5): one switch per line,
 *
 *   SwitchName=NAME Switches=HOSTLIST     a switch and its child switches
 *   SwitchName=NAME Nodes=HOSTLIST        a leaf switch and its nodes
 *   LinkSpeed=N                           optional on either line
 *
 * keys case-insensitive, "Key = Value" and "Key="quoted value"" accepted,
 * '#' starts a comment, a line ending in '\' continues on the next.  Slurm's
 * rules are enforced: every switch is named once; a switch has child switches
 * or nodes, not both; child switches must be defined (anywhere in the file);
 * no switch is its own ancestor.  LinkSpeed is in arbitrary units and unused
 * by Slurm: it is checked to be a number and ignored, so every link gets
 * VINE_TOPO_BW and VINE_TOPO_LAT.  The topology/block plugin's
 * BlockName= lines are refused.
 *
 * The graph.  Hosts are the nodes (in order of first mention), switches the
 * switches, links the child relations: host-switch links are
 * VINE_LVL_HOST.  Groups: the top switches are the roots (children of no
 * switch); each child switch of a root heads a group holding its whole
 * subtree (a switch under several such heads joins the first, in file
 * order); a root that is itself a leaf switch is a group of its own (a
 * one-switch cluster is one group).  Roots other than those belong to no
 * group (-1).  A host joins the group of the first leaf switch listing it.
 * A switch-switch link is VINE_LVL_LOCAL when both ends are in one group,
 * else VINE_LVL_GLOBAL (the links into the roots).  Cost: linear in the file
 * and the names it expands to.
 */
#include "topo_read.h"
#include "topo_read_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct sw_rec {
    char *name;
    int line;
    char **sw; /* child switch names */
    int nsw;
    char **nodes;
    int nn;
    int *child; /* child switch indices */
    int *host;  /* host index of each node */
    int nparent;
    int group;
} sw_rec;

typedef struct slurm_state {
    const char *path;
    char *err;
    size_t errlen;
    sw_rec *sw;
    int n, cap;
    vine_strmap swmap;
    vine_strmap hostmap;
    char **hname; /* host index -> name (borrowed from the switches' lists) */
    int *hgroup;
    int nhosts, hcap;
} slurm_state;

/* A logical line: physical lines joined at a trailing backslash, comments cut. */
typedef struct lbuf {
    char *s;
    size_t len, cap;
} lbuf;

static int lbuf_add(lbuf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *ns = realloc(b->s, cap);
        if (!ns)
            return VINE_ERR_NO_MEM;
        b->s = ns;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
    return VINE_OK;
}

static int parse_linkspeed(const char *v)
{
    char *end;
    double x = strtod(v, &end);
    return end != v && *end == '\0' && x >= 0;
}

static int add_names(slurm_state *st, int line, const char *key, const char *val, char ***names,
                     int *n)
{
    char sub[256];
    int rc = vine__hostlist_expand(val, names, n, sub, sizeof sub);
    if (rc == VINE_ERR_NO_MEM)
        return rc;
    if (rc != VINE_OK)
        return vine__rerr(st->err, st->errlen, st->path, line, "%s=: %s", key, sub);
    return VINE_OK;
}

/* Parses one logical line (comment already cut). */
static int parse_line(slurm_state *st, char *s, int line)
{
    char *name = NULL, *sws = NULL, *nodes = NULL, *speed = NULL;
    s = vine__skip_ws(s);
    while (*s) {
        char *key = s;
        while ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z'))
            s++;
        size_t klen = (size_t)(s - key);
        s = vine__skip_ws(s);
        if (klen == 0 || *s != '=')
            return vine__rerr(st->err, st->errlen, st->path, line,
                              "expected Key=Value, found \"%.40s\"", key);
        key[klen] = '\0';
        s = vine__skip_ws(s + 1);
        char *val;
        if (*s == '"') {
            val = ++s;
            while (*s && *s != '"')
                s++;
            if (*s != '"')
                return vine__rerr(st->err, st->errlen, st->path, line, "unterminated quote");
            *s++ = '\0';
            if (*s && *s != ' ' && *s != '\t')
                return vine__rerr(st->err, st->errlen, st->path, line,
                                  "text after a closing quote");
        } else {
            val = s;
            while (*s && *s != ' ' && *s != '\t')
                s++;
            if (*s)
                *s++ = '\0';
        }
        s = vine__skip_ws(s);
        if (*val == '\0')
            return vine__rerr(st->err, st->errlen, st->path, line, "%s= has no value", key);
        char **slot;
        if (strcasecmp(key, "SwitchName") == 0)
            slot = &name;
        else if (strcasecmp(key, "Switches") == 0)
            slot = &sws;
        else if (strcasecmp(key, "Nodes") == 0)
            slot = &nodes;
        else if (strcasecmp(key, "LinkSpeed") == 0)
            slot = &speed;
        else if (strcasecmp(key, "BlockName") == 0 || strcasecmp(key, "BlockSizes") == 0)
            return vine__rerr(st->err, st->errlen, st->path, line,
                              "%s= belongs to topology/block; only topology/tree is read", key);
        else
            return vine__rerr(st->err, st->errlen, st->path, line, "unknown key %s=", key);
        if (*slot)
            return vine__rerr(st->err, st->errlen, st->path, line, "%s= given twice", key);
        *slot = val;
    }
    if (!name && !sws && !nodes && !speed)
        return VINE_OK;
    if (!name)
        return vine__rerr(st->err, st->errlen, st->path, line, "line without SwitchName=");
    if (!sws && !nodes)
        return vine__rerr(st->err, st->errlen, st->path, line,
                          "switch %s has neither Switches= nor Nodes=", name);
    if (sws && nodes)
        return vine__rerr(st->err, st->errlen, st->path, line,
                          "switch %s has both Switches= and Nodes= (Slurm allows one)", name);
    if (speed && !parse_linkspeed(speed))
        return vine__rerr(st->err, st->errlen, st->path, line, "LinkSpeed=%s is not a number",
                          speed);
    if (st->n >= VINE_READ_MAX_NAMES)
        return vine__rerr(st->err, st->errlen, st->path, line, "too many switches");
    if (st->n == st->cap) {
        int cap = st->cap ? 2 * st->cap : 64;
        sw_rec *ns = realloc(st->sw, (size_t)cap * sizeof *ns);
        if (!ns)
            return VINE_ERR_NO_MEM;
        st->sw = ns;
        st->cap = cap;
    }
    sw_rec *r = &st->sw[st->n];
    memset(r, 0, sizeof *r);
    r->line = line;
    r->group = -1;
    if (!(r->name = strdup(name)))
        return VINE_ERR_NO_MEM;
    st->n++;
    int rc = sws ? add_names(st, line, "Switches", sws, &r->sw, &r->nsw)
                 : add_names(st, line, "Nodes", nodes, &r->nodes, &r->nn);
    if (rc != VINE_OK)
        return rc;
    int old;
    if (vine__strmap_add(&st->swmap, r->name, st->n - 1, &old) != VINE_OK)
        return VINE_ERR_NO_MEM;
    if (old >= 0)
        return vine__rerr(st->err, st->errlen, st->path, line,
                          "switch %s is already defined on line %d", r->name, st->sw[old].line);
    return VINE_OK;
}

static int read_lines(slurm_state *st)
{
    vine_rfile f;
    int rc = vine__rfile_open(&f, st->path, st->err, st->errlen);
    if (rc != VINE_OK)
        return rc;
    lbuf b = {0};
    int first = 0;
    char *s;
    while (rc == VINE_OK && (s = vine__rfile_line(&f))) {
        char *hash = strchr(s, '#');
        if (hash)
            *hash = '\0';
        size_t n = strlen(s);
        while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
            n--;
        int cont = n > 0 && s[n - 1] == '\\';
        if (cont)
            n--;
        if (b.len == 0)
            first = f.lineno;
        if (b.len + n > VINE_RLINE_MAX) {
            rc = vine__rerr(st->err, st->errlen, st->path, first, "line longer than %zu bytes",
                            (size_t)VINE_RLINE_MAX);
            break;
        }
        /* Joined lines are separated by a space, as if on one line. */
        if ((rc = lbuf_add(&b, s, n)) != VINE_OK || (cont && (rc = lbuf_add(&b, " ", 1))))
            break;
        if (cont)
            continue;
        rc = parse_line(st, b.s, first);
        b.len = 0;
    }
    if (rc == VINE_OK && b.len > 0)
        rc = parse_line(st, b.s, first); /* a continuation at the end of the file */
    free(b.s);
    vine__rfile_close(&f);
    return rc;
}

/* Resolves child switch names and node names; checks duplicates. */
static int resolve(slurm_state *st)
{
    int *stamp = malloc(((size_t)st->n + 1) * sizeof *stamp);
    if (!stamp)
        return VINE_ERR_NO_MEM;
    for (int i = 0; i < st->n; i++)
        stamp[i] = -1;
    int rc = VINE_OK;
    for (int i = 0; i < st->n && rc == VINE_OK; i++) {
        sw_rec *r = &st->sw[i];
        if (r->nsw && !(r->child = malloc((size_t)r->nsw * sizeof *r->child))) {
            rc = VINE_ERR_NO_MEM;
            break;
        }
        for (int k = 0; k < r->nsw; k++) {
            int c = vine__strmap_get(&st->swmap, r->sw[k]);
            if (c < 0) {
                rc = vine__rerr(st->err, st->errlen, st->path, r->line,
                                "switch %s: unknown switch %s in Switches=", r->name, r->sw[k]);
                break;
            }
            if (c == i) {
                rc = vine__rerr(st->err, st->errlen, st->path, r->line,
                                "switch %s lists itself in Switches=", r->name);
                break;
            }
            if (stamp[c] == i) {
                rc = vine__rerr(st->err, st->errlen, st->path, r->line,
                                "switch %s lists switch %s twice", r->name, r->sw[k]);
                break;
            }
            stamp[c] = i;
            r->child[k] = c;
            st->sw[c].nparent++;
        }
    }
    free(stamp);
    if (rc != VINE_OK)
        return rc;
    /* Hosts, in order of first mention; hstamp catches a node listed twice
     * by one switch. */
    int *hstamp = NULL;
    for (int i = 0; i < st->n && rc == VINE_OK; i++) {
        sw_rec *r = &st->sw[i];
        if (r->nn && !(r->host = malloc((size_t)r->nn * sizeof *r->host))) {
            rc = VINE_ERR_NO_MEM;
            break;
        }
        for (int k = 0; k < r->nn; k++) {
            int h;
            if (vine__strmap_add(&st->hostmap, r->nodes[k], st->nhosts, &h) != VINE_OK) {
                rc = VINE_ERR_NO_MEM;
                break;
            }
            if (h < 0) {
                if (st->nhosts >= VINE_READ_MAX_NAMES) {
                    rc = vine__rerr(st->err, st->errlen, st->path, r->line, "too many nodes");
                    break;
                }
                if (st->nhosts == st->hcap) {
                    int cap = st->hcap ? 2 * st->hcap : 256;
                    char **nn = realloc(st->hname, (size_t)cap * sizeof *nn);
                    int *ng = nn ? realloc(st->hgroup, (size_t)cap * sizeof *ng) : NULL;
                    int *ns = ng ? realloc(hstamp, (size_t)cap * sizeof *ns) : NULL;
                    if (nn)
                        st->hname = nn;
                    if (ng)
                        st->hgroup = ng;
                    if (ns)
                        hstamp = ns;
                    if (!nn || !ng || !ns) {
                        rc = VINE_ERR_NO_MEM;
                        break;
                    }
                    st->hcap = cap;
                }
                h = st->nhosts++;
                st->hname[h] = r->nodes[k];
                st->hgroup[h] = -2; /* set below, from the first leaf */
                hstamp[h] = -1;
            } else if (hstamp[h] == i) {
                rc = vine__rerr(st->err, st->errlen, st->path, r->line,
                                "switch %s lists node %s twice", r->name, r->nodes[k]);
                break;
            }
            hstamp[h] = i;
            r->host[k] = h;
        }
    }
    free(hstamp);
    return rc;
}

/* Refuses a switch that is its own ancestor (iterative depth-first search). */
static int check_cycles(slurm_state *st)
{
    unsigned char *color = calloc((size_t)st->n, 1);
    int *stk = malloc((size_t)st->n * sizeof *stk), *pos = malloc((size_t)st->n * sizeof *pos);
    int rc = VINE_OK;
    if (!color || !stk || !pos) {
        rc = VINE_ERR_NO_MEM;
        goto out;
    }
    for (int s0 = 0; s0 < st->n && rc == VINE_OK; s0++) {
        if (color[s0])
            continue;
        int top = 0;
        stk[0] = s0;
        pos[0] = 0;
        color[s0] = 1;
        while (top >= 0) {
            sw_rec *r = &st->sw[stk[top]];
            if (pos[top] == r->nsw) {
                color[stk[top]] = 2;
                top--;
                continue;
            }
            int c = r->child[pos[top]++];
            if (color[c] == 1) {
                rc = vine__rerr(st->err, st->errlen, st->path, st->sw[c].line,
                                "switch %s is its own ancestor (a cycle through %s)",
                                st->sw[c].name, r->name);
                break;
            }
            if (color[c] == 0) {
                color[c] = 1;
                ++top;
                stk[top] = c;
                pos[top] = 0;
            }
        }
    }
out:
    free(color);
    free(stk);
    free(pos);
    return rc;
}

/* Gives the subtree under switch head group g (switches not yet in a group). */
static int spread_group(slurm_state *st, int head, int g, int *stk)
{
    int top = 0;
    if (st->sw[head].group >= 0)
        return 0;
    st->sw[head].group = g;
    stk[top++] = head;
    while (top > 0) {
        sw_rec *r = &st->sw[stk[--top]];
        for (int k = 0; k < r->nsw; k++) {
            int c = r->child[k];
            if (st->sw[c].group < 0) {
                st->sw[c].group = g;
                stk[top++] = c;
            }
        }
    }
    return 1;
}

static int build(slurm_state *st, vine_topo *t)
{
    int *stk = malloc(((size_t)st->n + 1) * sizeof *stk);
    if (!stk)
        return VINE_ERR_NO_MEM;
    int ng = 0;
    for (int i = 0; i < st->n; i++) {
        sw_rec *r = &st->sw[i];
        if (r->nparent > 0)
            continue;
        if (r->nn > 0) {
            r->group = ng++;
            continue;
        }
        for (int k = 0; k < r->nsw; k++)
            ng += spread_group(st, r->child[k], ng, stk);
    }
    free(stk);
    for (int i = 0; i < st->n; i++)
        for (int k = 0; k < st->sw[i].nn; k++)
            if (st->hgroup[st->sw[i].host[k]] == -2)
                st->hgroup[st->sw[i].host[k]] = st->sw[i].group;

    /* Vertices: hosts 0..nhosts-1, then switches in file order. */
    for (int h = 0; h < st->nhosts; h++)
        if (vine__topo_add_vertex(t, VINE_V_HOST, st->hgroup[h] >= 0 ? st->hgroup[h] : -1,
                                  st->hname[h]) < 0)
            return VINE_ERR_NO_MEM;
    for (int i = 0; i < st->n; i++)
        if (vine__topo_add_vertex(t, VINE_V_SWITCH, st->sw[i].group, st->sw[i].name) < 0)
            return VINE_ERR_NO_MEM;
    for (int i = 0; i < st->n; i++) {
        sw_rec *r = &st->sw[i];
        int v = st->nhosts + i;
        for (int k = 0; k < r->nn; k++)
            if (vine__topo_add_link(t, r->host[k], v, VINE_TOPO_BW, VINE_TOPO_LAT, VINE_LVL_HOST) <
                0)
                return VINE_ERR_NO_MEM;
        for (int k = 0; k < r->nsw; k++) {
            int c = r->child[k];
            int lvl =
                (r->group >= 0 && r->group == st->sw[c].group) ? VINE_LVL_LOCAL : VINE_LVL_GLOBAL;
            if (vine__topo_add_link(t, st->nhosts + c, v, VINE_TOPO_BW, VINE_TOPO_LAT, lvl) < 0)
                return VINE_ERR_NO_MEM;
        }
    }
    int rc = vine__topo_finish(t);
    if (rc != VINE_OK)
        return rc;
    return vine__topo_check_connected(t, st->path, st->err, st->errlen);
}

int vine__topo_read_slurm(const char *path, vine_topo *t, char *err, size_t errlen)
{
    slurm_state st = {.path = path, .err = err, .errlen = errlen};
    vine__strmap_init(&st.swmap);
    vine__strmap_init(&st.hostmap);
    int rc = read_lines(&st);
    if (rc == VINE_OK && st.n == 0)
        rc = vine__rerr(err, errlen, path, 0, "no SwitchName= line");
    if (rc == VINE_OK)
        rc = resolve(&st);
    if (rc == VINE_OK)
        rc = check_cycles(&st);
    if (rc == VINE_OK) {
        vine__topo_set_file_name(t, "slurm", path);
        rc = build(&st, t);
    }
    for (int i = 0; i < st.n; i++) {
        sw_rec *r = &st.sw[i];
        free(r->name);
        vine__hostlist_free(r->sw, r->nsw);
        vine__hostlist_free(r->nodes, r->nn);
        free(r->child);
        free(r->host);
    }
    free(st.sw);
    free(st.hname);
    free(st.hgroup);
    vine__strmap_free(&st.swmap);
    vine__strmap_free(&st.hostmap);
    if (rc != VINE_OK)
        vine__topo_free(t);
    if (rc == VINE_ERR_NO_MEM && err && errlen)
        snprintf(err, errlen, "%s: out of memory", path);
    return rc;
}
