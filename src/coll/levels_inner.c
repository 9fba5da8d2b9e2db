/*
 * Levels inside the node: VINE_NODE_LEVELS and rank 0's plan (levels_inner.h).
 */
#include "levels_inner.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[VINE_INNER_KINDS] = {"numa", "package", "cache"};

const char *vine__inner_name(int kind)
{
    return kind >= 0 && kind < VINE_INNER_KINDS ? names[kind] : "?";
}

int vine__inner_parse(const char *value, int *mask, char *err, size_t errlen)
{
    *mask = 0;
    if (!value || !*value || strcmp(value, "none") == 0)
        return 0;
    if (strcmp(value, "all") == 0) {
        *mask = (1 << VINE_INNER_KINDS) - 1;
        return 0;
    }
    for (const char *s = value;;) {
        size_t n = strcspn(s, ",");
        int k = 0;
        while (k < VINE_INNER_KINDS && !(strlen(names[k]) == n && strncmp(s, names[k], n) == 0))
            k++;
        if (k == VINE_INNER_KINDS) {
            if (err && errlen)
                snprintf(err, errlen,
                         "VINE_NODE_LEVELS=%.100s: expected none, all or a list of numa, "
                         "package, cache",
                         value);
            *mask = 0;
            return -1;
        }
        *mask |= 1 << k;
        if (!s[n])
            return 0;
        s += n + 1;
    }
}

void vine__inner_kinds_text(int mask, char *buf, size_t len)
{
    size_t used = 0;
    if (len)
        buf[0] = '\0';
    for (int k = 0; k < VINE_INNER_KINDS && used < len; k++)
        if (mask & (1 << k)) {
            int n = snprintf(buf + used, len - used, "%s%s", used ? "=" : "", names[k]);
            used += n > 0 ? (size_t)n : 0;
        }
}

/* ---- the groups of a kind ------------------------------------------------- */

typedef struct triple {
    int node, dom, rank;
} triple;

static int triple_cmp(const void *x, const void *y)
{
    const triple *a = x, *b = y;
    if (a->node != b->node)
        return a->node < b->node ? -1 : 1;
    if (a->dom != b->dom)
        return a->dom < b->dom ? -1 : 1;
    return (a->rank > b->rank) - (a->rank < b->rank);
}

/* Dense ids of the pairs (node, domain) into ids; returns their number, -1 out of memory. */
static int pair_ids(int p, const int *node, const int *dom, int *ids)
{
    triple *t = malloc((size_t)p * sizeof *t);
    if (!t)
        return -1;
    for (int r = 0; r < p; r++)
        t[r] = (triple){node[r], dom[r], r};
    qsort(t, (size_t)p, sizeof *t, triple_cmp);
    int n = 0;
    for (int i = 0; i < p; i++) {
        if (i == 0 || t[i].node != t[i - 1].node || t[i].dom != t[i - 1].dom)
            n++;
        ids[t[i].rank] = n - 1;
    }
    free(t);
    return n;
}

/* Whether every group of a (na groups) lies inside one group of b; scratch: na ints. */
static int nests_in(int p, const int *a, int na, const int *b, int *scratch)
{
    for (int g = 0; g < na; g++)
        scratch[g] = -1;
    for (int r = 0; r < p; r++) {
        if (scratch[a[r]] < 0)
            scratch[a[r]] = b[r];
        else if (scratch[a[r]] != b[r])
            return 0;
    }
    return 1;
}

/* ---- the plan ---------------------------------------------------------------- */

typedef struct plan {
    int p, nodes;
    int *ids[VINE_INNER_KINDS];
    int ngroups[VINE_INNER_KINDS];
    int taken[VINE_INNER_KINDS]; /* the kind standing for each level taken */
    int mask[VINE_INNER_KINDS];  /* the kinds each level taken stands for */
    int ntaken;
    char why[VINE_INNER_KINDS][96]; /* why a kind was left out; "" when it was not */
} plan;

/* Why kind k cannot be a level on its own, before comparing it with others; "" when it can. */
static void check_kind(plan *pl, int k, const int *dom)
{
    for (int r = 0; r < pl->p; r++) {
        if (dom[r] == VINE_INNER_ABSENT) {
            snprintf(pl->why[k], sizeof pl->why[k], "none on the machine of rank %d", r);
            return;
        }
        if (dom[r] < 0) {
            snprintf(pl->why[k], sizeof pl->why[k], "rank %d is not bound inside one", r);
            return;
        }
    }
    if (pl->ngroups[k] == pl->nodes)
        snprintf(pl->why[k], sizeof pl->why[k], "the same groups as the nodes");
    else if (pl->ngroups[k] == pl->p)
        snprintf(pl->why[k], sizeof pl->why[k], "one rank each");
}

/* Takes kind k as a level, as part of one already taken, or says why not. */
static void take_kind(plan *pl, int k, int room, int *scratch)
{
    int p = pl->p;
    for (int i = 0; i < pl->ntaken; i++) {
        int t = pl->taken[i];
        int in = nests_in(p, pl->ids[k], pl->ngroups[k], pl->ids[t], scratch);
        int out = nests_in(p, pl->ids[t], pl->ngroups[t], pl->ids[k], scratch);
        if (in && out) {
            pl->mask[i] |= 1 << k;
            return;
        }
        if (!in && !out) {
            snprintf(pl->why[k], sizeof pl->why[k], "does not nest with %s", names[t]);
            return;
        }
    }
    if (pl->ntaken == room) {
        snprintf(pl->why[k], sizeof pl->why[k], "no room for more levels");
        return;
    }
    pl->taken[pl->ntaken] = k;
    pl->mask[pl->ntaken++] = 1 << k;
}

/* Orders the levels taken finest (most groups) first. */
static void order_taken(plan *pl)
{
    for (int i = 1; i < pl->ntaken; i++)
        for (int j = i; j > 0 && pl->ngroups[pl->taken[j]] > pl->ngroups[pl->taken[j - 1]]; j--) {
            int t = pl->taken[j], m = pl->mask[j];
            pl->taken[j] = pl->taken[j - 1];
            pl->mask[j] = pl->mask[j - 1];
            pl->taken[j - 1] = t;
            pl->mask[j - 1] = m;
        }
}

static void say(const plan *pl, int want, char *msg, size_t len)
{
    if (!msg || !len)
        return;
    size_t used = 0;
    int n = snprintf(msg, len, "%s",
                     pl->ntaken ? "inside the nodes: " : "no levels inside the nodes: ");
    used = n > 0 ? (size_t)n : 0;
    for (int i = 0; i < pl->ntaken && used < len; i++) {
        char kinds[64];
        vine__inner_kinds_text(pl->mask[i], kinds, sizeof kinds);
        n = snprintf(msg + used, len - used, "%s%s (%d groups)", i ? ", " : "", kinds,
                     pl->ngroups[pl->taken[i]]);
        used += n > 0 ? (size_t)n : 0;
    }
    int first = 1;
    for (int k = 0; k < VINE_INNER_KINDS && used < len; k++) {
        if (!(want & (1 << k)) || !pl->why[k][0])
            continue;
        n = snprintf(msg + used, len - used, "%s%s (%s)",
                     first ? (pl->ntaken ? "; left out: " : "") : ", ", names[k], pl->why[k]);
        used += n > 0 ? (size_t)n : 0;
        first = 0;
    }
}

int vine__inner_plan(int p, const int *node, const int *dom, int want, int room, int *out,
                     int *kinds, int *nsub, char *msg, size_t msglen)
{
    plan pl;
    memset(&pl, 0, sizeof pl);
    pl.p = p;
    *nsub = 0;
    for (int r = 0; r < p; r++)
        pl.nodes = node[r] + 1 > pl.nodes ? node[r] + 1 : pl.nodes;
    int rc = 0, *scratch = malloc((size_t)p * sizeof *scratch);
    for (int k = 0; k < VINE_INNER_KINDS && scratch && !rc; k++) {
        if (!(want & (1 << k)))
            continue;
        if (!(pl.ids[k] = malloc((size_t)p * sizeof *pl.ids[k])) ||
            (pl.ngroups[k] = pair_ids(p, node, dom + (size_t)k * p, pl.ids[k])) < 0) {
            rc = -1;
            break;
        }
        check_kind(&pl, k, dom + (size_t)k * p);
        if (!pl.why[k][0])
            take_kind(&pl, k,
                      room < 0                  ? 0
                      : room < VINE_INNER_KINDS ? room
                                                : VINE_INNER_KINDS,
                      scratch);
    }
    if (!scratch || rc) {
        if (msg && msglen)
            snprintf(msg, msglen, "out of memory finding the levels inside the nodes");
        rc = -1;
    } else {
        order_taken(&pl);
        for (int i = 0; i < pl.ntaken; i++) {
            memcpy(out + (size_t)i * p, pl.ids[pl.taken[i]], (size_t)p * sizeof *out);
            kinds[i] = pl.mask[i];
        }
        *nsub = pl.ntaken;
        say(&pl, want, msg, msglen);
    }
    for (int k = 0; k < VINE_INNER_KINDS; k++)
        free(pl.ids[k]);
    free(scratch);
    return rc;
}
