/*
 * The level map of a placement on a topology model (sim.h): which ranks share
 * a host, a switch, a topology group.  The simulator hands it to the
 * hierarchical builders, so that they group ranks exactly as the routes the
 * simulator then follows do.
 *
 * Every rank gets one key per grouping, finest first: its host, the switch
 * its host hangs off, its host's group.  A level's group is the tuple of its
 * own key and every coarser one, so the levels nest even where a file puts a
 * switch's hosts in different groups.  One sort of the ranks by the tuples,
 * coarsest key first, makes each level's groups runs of the sorted order.
 *
 * On a torus whose hosts the ranks fill as a box, the map is instead the
 * job's torus (sim.h, torus_levels): a level per torus dimension but the
 * first, keyed by the coordinates of the slower dimensions.
 */
#include "sim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct rank_key {
    int key[VINE_SIM_LV_COUNT]; /* host index, switch vertex, group id */
    int rank;
} rank_key;

static int rank_key_cmp(const void *x, const void *y)
{
    const rank_key *a = x, *b = y;
    for (int k = VINE_SIM_LV_COUNT - 1; k >= 0; k--)
        if (a->key[k] != b->key[k])
            return a->key[k] < b->key[k] ? -1 : 1;
    return (a->rank > b->rank) - (a->rank < b->rank);
}

const char *vine__sim_level_name(int kind)
{
    static const char *names[VINE_SIM_LV_COUNT] = {"node", "switch", "group"};
    static const char *tnames[VINE_TOPO_MAXDIM] = {
        "torus line", "torus plane", "torus 3D",  "torus 4D",  "torus 5D",  "torus 6D",
        "torus 7D",   "torus 8D",    "torus 9D",  "torus 10D", "torus 11D", "torus 12D",
        "torus 13D",  "torus 14D",   "torus 15D", "torus 16D"};
    if (kind > VINE_SIM_LV_TORUS && kind <= VINE_SIM_LV_TORUS + VINE_TOPO_MAXDIM)
        return tnames[kind - VINE_SIM_LV_TORUS - 1];
    return kind >= 0 && kind < VINE_SIM_LV_COUNT ? names[kind] : "level";
}

/*
 * The switch host vertex v hangs off: its one switch neighbour.  A host with
 * no switch, or with links to several (multi-rail, read from a file), has no
 * switch that holds it alone, so it stands for itself (its own vertex, which
 * no switch shares).
 */
int vine__sim_host_switch(const vine_topo *t, int v)
{
    int sw = -1;
    for (int i = t->adj_start[v]; i < t->adj_start[v + 1]; i++) {
        int u = vine__topo_arc_head(t, t->adj_arc[i]);
        if (t->kind[u] != VINE_V_SWITCH || u == sw)
            continue;
        if (sw >= 0)
            return v;
        sw = u;
    }
    return sw >= 0 ? sw : v;
}

/* Fills keys[] for every rank; VINE_ERR_UNSUPPORTED for a host out of range. */
static int fill_keys(const vine_topo *t, const int *rank_host, int p, rank_key *keys, char *err,
                     size_t errlen)
{
    for (int r = 0; r < p; r++) {
        int h = rank_host[r];
        if (h < 0 || h >= t->nhosts) {
            snprintf(err, errlen, "rank %d is on host %d; the topology has %d hosts", r, h,
                     t->nhosts);
            return VINE_ERR_UNSUPPORTED;
        }
        int v = t->host_vert[h];
        keys[r].key[VINE_SIM_LV_NODE] = h;
        keys[r].key[VINE_SIM_LV_SWITCH] = vine__sim_host_switch(t, v);
        /* Hosts in no group (-1) form one group, as the simulator counts them. */
        keys[r].key[VINE_SIM_LV_GROUP] = t->group[v];
        keys[r].rank = r;
    }
    return VINE_OK;
}

/*
 * Numbers the groups of grouping k in ids[k * p + rank] (runs of sorted keys
 * equal from key k up) and returns how many there are.
 */
static int number_groups(const rank_key *sorted, int p, int k, int *ids)
{
    int n = 0;
    for (int i = 0; i < p; i++) {
        int same = i > 0;
        for (int j = k; j < VINE_SIM_LV_COUNT && same; j++)
            same = sorted[i].key[j] == sorted[i - 1].key[j];
        n += !same;
        ids[(size_t)k * p + sorted[i].rank] = n - 1;
    }
    return n;
}

/*
 * Copies the groupings that separate ranks into *m: those with more than
 * one group and fewer groups than the grouping below (nested partitions with
 * as many groups are the same partition).  Returns the levels kept.
 */
static int keep_levels(const int *ids, const int *count, int p, vine_levels *m, int *kind)
{
    int n = 0, finer = p;
    for (int k = 0; k < VINE_SIM_LV_COUNT; k++) {
        if (count[k] > 1 && count[k] < finer) {
            memcpy(m->group + (size_t)n * p, ids + (size_t)k * p, (size_t)p * sizeof *ids);
            if (kind)
                kind[n] = k;
            n++;
        }
        finer = count[k];
    }
    return n;
}

/* The groupings of every rank, ids[k * p + r], with their group counts. */
static int groupings(const vine_topo *t, const int *rank_host, int p, int *ids, int *count,
                     char *err, size_t errlen)
{
    rank_key *keys = malloc((size_t)p * sizeof *keys);
    if (!keys)
        return VINE_ERR_NO_MEM;
    int rc = fill_keys(t, rank_host, p, keys, err, errlen);
    if (rc == VINE_OK) {
        qsort(keys, (size_t)p, sizeof *keys, rank_key_cmp);
        for (int k = 0; k < VINE_SIM_LV_COUNT; k++)
            count[k] = number_groups(keys, p, k, ids);
    }
    free(keys);
    return rc;
}

/* ---- tori (sim.h, issue 23) ------------------------------------------------ */

/*
 * The box the ranks' hosts fill: c ranks on every host used, *nkept
 * dimensions with more than one coordinate used, kept[] in the topology's
 * order.  Returns 1 when the hosts are a box with even ranks, else 0.
 */
static int torus_box(const vine_topo *t, const int *rank_host, int p, int *cnt, char *seen, int *c,
                     int *kept, int *nkept)
{
    int nd = t->shape_nd, off[VINE_TOPO_MAXDIM + 1], n[VINE_TOPO_MAXDIM] = {0}, used = 0;
    off[0] = 0;
    for (int d = 0; d < nd; d++)
        off[d + 1] = off[d] + t->shape[d];
    for (int r = 0; r < p; r++) {
        if (rank_host[r] < 0 || rank_host[r] >= t->nhosts)
            return 0; /* the general path says why */
        cnt[rank_host[r]]++;
    }
    *c = cnt[rank_host[0]];
    for (int h = 0; h < t->nhosts; h++) {
        if (!cnt[h])
            continue;
        if (cnt[h] != *c)
            return 0;
        int x[VINE_TOPO_MAXDIM];
        vine__topo_grid_coords(t, h, x);
        for (int d = 0; d < nd; d++) {
            n[d] += !seen[off[d] + x[d]];
            seen[off[d] + x[d]] = 1;
        }
        used++;
    }
    long long box = 1;
    *nkept = 0;
    for (int d = 0; d < nd; d++) {
        box *= n[d];
        if (n[d] > 1)
            kept[(*nkept)++] = d;
    }
    return box == used;
}

/*
 * The torus map of sim.h into *m (finished) and kind; VINE_ERR_UNSUPPORTED
 * (nothing in err) when it does not apply, VINE_ERR_NO_MEM.
 */
static int torus_levels(const vine_topo *t, const int *rank_host, int p, vine_levels *m, int *kind,
                        char *err, size_t errlen)
{
    if (t->shape_nd < 1 || !t->shape_wrap || t->nhosts < 1)
        return VINE_ERR_UNSUPPORTED;
    size_t cells = 0;
    for (int d = 0; d < t->shape_nd; d++)
        cells += (size_t)t->shape[d];
    int *cnt = calloc((size_t)t->nhosts, sizeof *cnt);
    char *seen = calloc(cells, 1);
    int c = 0, kept[VINE_TOPO_MAXDIM], nk = 0, nlev = 0, stride[VINE_TOPO_MAXDIM], l = 0;
    int rc = VINE_ERR_NO_MEM;
    if (!cnt || !seen)
        goto out;
    rc = VINE_ERR_UNSUPPORTED;
    if (!torus_box(t, rank_host, p, cnt, seen, &c, kept, &nk))
        goto out;
    nlev = (nk > 1 ? nk - 1 : 0) + (c > 1);
    if (nlev < 1 || nlev > VINE_LEVELS_MAX)
        goto out;
    if ((rc = vine__levels_alloc(m, p, nlev)) != VINE_OK)
        goto out;
    stride[t->shape_nd - 1] = 1;
    for (int d = t->shape_nd - 2; d >= 0; d--)
        stride[d] = stride[d + 1] * t->shape[d + 1];
    if (c > 1) {
        for (int r = 0; r < p; r++)
            m->group[r] = rank_host[r];
        if (kind)
            kind[l] = VINE_SIM_LV_NODE;
        l++;
    }
    /* A level spanning the box's last nk - i dimensions: hosts agreeing on the first i. */
    for (int i = nk - 1; i >= 1; i--, l++) {
        for (int r = 0; r < p; r++) {
            int x[VINE_TOPO_MAXDIM], key = 0;
            vine__topo_grid_coords(t, rank_host[r], x);
            for (int j = 0; j < i; j++)
                key += x[kept[j]] * stride[kept[j]];
            m->group[(size_t)l * p + r] = key;
        }
        if (kind)
            kind[l] = VINE_SIM_LV_TORUS + (nk - i);
    }
    rc = vine__levels_finish(m, err, errlen);
    if (rc != VINE_OK)
        vine__levels_free(m);
out:
    free(cnt);
    free(seen);
    return rc;
}

int vine__sim_levels(const vine_topo *t, const int *rank_host, int p, vine_levels *m, int *kind,
                     char *err, size_t errlen)
{
    char dummy[8];
    if (!err || !errlen) {
        err = dummy;
        errlen = sizeof dummy;
    }
    err[0] = '\0';
    memset(m, 0, sizeof *m);
    if (p < 1 || !t || !rank_host) {
        snprintf(err, errlen, "no ranks or no placement");
        return VINE_ERR_UNSUPPORTED;
    }
    int rc = torus_levels(t, rank_host, p, m, kind, err, errlen);
    if (rc == VINE_OK)
        m->torus = 1;
    if (rc != VINE_ERR_UNSUPPORTED)
        return rc;
    memset(m, 0, sizeof *m);
    err[0] = '\0';
    int count[VINE_SIM_LV_COUNT];
    int *ids = malloc((size_t)VINE_SIM_LV_COUNT * (size_t)p * sizeof *ids);
    if (!ids)
        return VINE_ERR_NO_MEM;
    rc = groupings(t, rank_host, p, ids, count, err, errlen);
    if (rc == VINE_OK)
        rc = vine__levels_alloc(m, p, VINE_SIM_LV_COUNT);
    int n = rc == VINE_OK ? keep_levels(ids, count, p, m, kind) : 0;
    free(ids);
    if (rc == VINE_OK && n == 0) {
        /* Nothing separates the ranks: one level with every rank alone, flat. */
        for (int r = 0; r < p; r++)
            m->group[r] = r;
        if (kind)
            kind[0] = -1;
    }
    if (rc == VINE_OK) {
        m->nlevels = n ? n : 1;
        rc = vine__levels_finish(m, err, errlen);
    }
    if (rc != VINE_OK)
        vine__levels_free(m);
    return rc;
}

/* ---- levels inside the hosts (--numa) ------------------------------------ */

/* Level 0 (domains) and 1 (hosts) of the numa map; returns the number of hosts used. */
static int numa_ids(const int *rank_host, int nhosts, int p, int k, int *dom, int *host, int *cnt)
{
    int used = 0;
    for (int h = 0; h < nhosts; h++)
        cnt[h] = 0;
    for (int r = 0; r < p; r++)
        used += cnt[rank_host[r]]++ == 0;
    int *seen = cnt + nhosts;
    for (int h = 0; h < nhosts; h++)
        seen[h] = 0;
    for (int r = 0; r < p; r++) {
        int h = rank_host[r], i = seen[h]++;
        host[r] = h;
        dom[r] = (int)(((long long)h * k) + (long long)i * k / cnt[h]);
    }
    return used;
}

int vine__sim_levels_numa(const vine_levels *m, const int *rank_host, int nhosts, int p, int k,
                          vine_levels *full, char *err, size_t errlen)
{
    memset(full, 0, sizeof *full);
    if (k < 1 || nhosts < 1 || p < 1 || (long long)nhosts * k > 2147483647LL) {
        snprintf(err, errlen, "%d domains per host: expected 1 or more", k);
        return VINE_ERR_UNSUPPORTED;
    }
    for (int r = 0; r < p; r++)
        if (rank_host[r] < 0 || rank_host[r] >= nhosts) {
            snprintf(err, errlen, "rank %d is on host %d; the topology has %d hosts", r,
                     rank_host[r], nhosts);
            return VINE_ERR_UNSUPPORTED;
        }
    int *ids = malloc(2 * (size_t)p * sizeof *ids), *cnt = malloc(2 * (size_t)nhosts * sizeof *cnt);
    int rc = ids && cnt ? VINE_OK : VINE_ERR_NO_MEM;
    int hosts = rc == VINE_OK ? numa_ids(rank_host, nhosts, p, k, ids, ids + p, cnt) : 0;
    /* The levels of m above the hosts: fewer groups than hosts (m nests in hosts). */
    int up[VINE_LEVELS_MAX], nup = 0;
    for (int l = 0; m && l < m->nlevels && nup < VINE_LEVELS_MAX - 2; l++)
        if (m->ngroups[l] > 1 && m->ngroups[l] < hosts)
            up[nup++] = l;
    if (rc == VINE_OK)
        rc = vine__levels_alloc(full, p, 2 + nup);
    if (rc == VINE_OK) {
        memcpy(full->group, ids, 2 * (size_t)p * sizeof *ids);
        for (int i = 0; i < nup; i++)
            memcpy(full->group + (size_t)(2 + i) * p, m->group + (size_t)up[i] * p,
                   (size_t)p * sizeof *ids);
        full->node = 1;
        rc = vine__levels_finish(full, err, errlen);
    }
    /* Domains that are the hosts, or single ranks, everywhere divide nothing inside. */
    if (rc == VINE_OK && (full->ngroups[0] == full->ngroups[1] || full->ngroups[0] == p))
        vine__levels_free(full);
    if (rc != VINE_OK)
        vine__levels_free(full);
    free(ids);
    free(cnt);
    return rc;
}
