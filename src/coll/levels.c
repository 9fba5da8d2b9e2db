/*
 * Level maps: validation, normalisation, the index behind the accessors,
 * the synthetic descriptions of the verifier and the tests, and the stages
 * of the hierarchical tree that the leader-based builders walk.  See
 * levels.h.
 */
#include "levels.h"

#include "../sched/sched.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int vine__levels_alloc(vine_levels *m, int p, int nlevels)
{
    memset(m, 0, sizeof *m);
    if (p < 1 || nlevels < 1 || nlevels > VINE_LEVELS_MAX)
        return VINE_ERR_UNSUPPORTED;
    m->group = calloc((size_t)nlevels * (size_t)p, sizeof *m->group);
    if (!m->group)
        return VINE_ERR_NO_MEM;
    m->p = p;
    m->nlevels = nlevels;
    return VINE_OK;
}

void vine__levels_free(vine_levels *m)
{
    if (!m)
        return;
    free(m->group);
    free(m->idx);
    memset(m, 0, sizeof *m);
}

/* ---- normalisation --------------------------------------------------------- */

typedef struct id_rank {
    int id, rank;
} id_rank;

static int id_rank_cmp(const void *x, const void *y)
{
    const id_rank *a = x, *b = y;
    if (a->id != b->id)
        return a->id < b->id ? -1 : 1;
    return (a->rank > b->rank) - (a->rank < b->rank);
}

/*
 * Renumbers the n non-negative ids of g densely in order of first occurrence
 * (the lowest index holding each id).  Returns the number of distinct ids, or
 * -1 when out of memory.  Any ids are fine: they are sorted, not tabled.
 */
static int renumber(int *g, int n)
{
    id_rank *pr = malloc((size_t)n * sizeof *pr);
    int *first = malloc((size_t)n * sizeof *first);
    if (!pr || !first) {
        free(pr);
        free(first);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        pr[i].id = g[i];
        pr[i].rank = i;
        first[i] = -1;
    }
    qsort(pr, (size_t)n, sizeof *pr, id_rank_cmp);
    /* first[i] = the run (distinct id) whose lowest index is i. */
    int runs = 0;
    for (int i = 0; i < n; i++)
        if (i == 0 || pr[i].id != pr[i - 1].id)
            first[pr[i].rank] = runs++;
    /* Runs in order of their lowest index get the new ids; reuse pr[].id for them. */
    int *newid = malloc((size_t)(runs ? runs : 1) * sizeof *newid);
    if (!newid) {
        free(pr);
        free(first);
        return -1;
    }
    int next = 0;
    for (int i = 0; i < n; i++)
        if (first[i] >= 0)
            newid[first[i]] = next++;
    for (int i = 0, run = -1; i < n; i++) {
        if (i == 0 || pr[i].id != pr[i - 1].id)
            run++;
        g[pr[i].rank] = newid[run];
    }
    free(newid);
    free(pr);
    free(first);
    return runs;
}

/* Checks that level l's groups lie inside level l+1's; ids already renumbered. */
static int check_nested(const vine_levels *m, int l, int *lead, char *err, size_t errlen)
{
    int p = m->p;
    const int *g = m->group + (size_t)l * p, *up = g + p;
    for (int i = 0; i < m->ngroups[l]; i++)
        lead[i] = -1;
    for (int r = 0; r < p; r++) {
        if (lead[g[r]] < 0)
            lead[g[r]] = r;
        else if (up[r] != up[lead[g[r]]]) {
            vine__errmsg(err, errlen,
                         "levels do not nest: ranks %d and %d share a group at level %d but not at "
                         "level %d",
                         lead[g[r]], r, l, l + 1);
            return VINE_ERR_UNSUPPORTED;
        }
    }
    return VINE_OK;
}

/* ---- the index ------------------------------------------------------------- */

/* Builds order, start and local of level l from its renumbered ids. */
static void index_level(vine_levels *m, int l)
{
    int p = m->p, ng = m->ngroups[l];
    const int *g = m->group + (size_t)l * p;
    int *start = m->start[l];
    for (int i = 0; i <= ng; i++)
        start[i] = 0;
    for (int r = 0; r < p; r++)
        start[g[r] + 1]++;
    for (int i = 0; i < ng; i++)
        start[i + 1] += start[i];
    /* Ranks in ascending order fill each group's slice in rank order; local counts them. */
    for (int i = 0; i < ng; i++)
        m->subidx[l][i] = 0; /* scratch fill counters, set properly by index_subgroups */
    for (int r = 0; r < p; r++) {
        int k = m->subidx[l][g[r]]++;
        m->order[l][start[g[r]] + k] = r;
        m->local[l][r] = k;
    }
}

/* Builds sub and sub_start of level l >= 1 and subidx of level l - 1. */
static void index_subgroups(vine_levels *m, int l)
{
    int nsub = m->ngroups[l - 1], ng = m->ngroups[l];
    int *ss = m->sub_start[l];
    for (int i = 0; i <= ng; i++)
        ss[i] = 0;
    for (int u = 0; u < nsub; u++)
        ss[vine__levels_parent(m, l - 1, u) + 1]++;
    for (int i = 0; i < ng; i++)
        ss[i + 1] += ss[i];
    for (int i = 0; i < ng; i++)
        m->subidx[l][i] = 0; /* fill counters; set for real by level l + 1 */
    for (int u = 0; u < nsub; u++) {
        int par = vine__levels_parent(m, l - 1, u);
        int k = m->subidx[l][par]++;
        m->sub[l][ss[par] + k] = u;
        m->subidx[l - 1][u] = k;
    }
}

static int build_index(vine_levels *m)
{
    int p = m->p, L = m->nlevels;
    size_t need = 3 * (size_t)p;
    for (int l = 0; l < L; l++) {
        need += 2 * (size_t)p + 2 * (size_t)m->ngroups[l] + 1;
        if (l >= 1)
            need += (size_t)m->ngroups[l - 1] + (size_t)m->ngroups[l] + 1;
    }
    int *mem = malloc(need * sizeof *mem);
    if (!mem)
        return VINE_ERR_NO_MEM;
    m->idx = mem;
    m->ident = mem;
    mem += p;
    for (int r = 0; r < p; r++)
        m->ident[r] = r;
    m->block = mem;
    m->block_pos = mem + p;
    mem += 2 * (size_t)p;
    for (int l = 0; l < L; l++) {
        int ng = m->ngroups[l];
        m->order[l] = mem;
        m->local[l] = mem + p;
        m->start[l] = mem + 2 * (size_t)p;
        m->subidx[l] = m->start[l] + ng + 1;
        mem = m->subidx[l] + ng;
        m->sub[l] = m->sub_start[l] = NULL;
        if (l >= 1) {
            m->sub[l] = mem;
            m->sub_start[l] = mem + m->ngroups[l - 1];
            mem = m->sub_start[l] + ng + 1;
        }
    }
    for (int l = 0; l < L; l++)
        index_level(m, l);
    /* Bottom-up: index_subgroups(l) uses subidx[l] as scratch and sets subidx[l - 1]. */
    for (int l = 1; l < L; l++)
        index_subgroups(m, l);
    for (int g = 0; g < m->ngroups[L - 1]; g++)
        m->subidx[L - 1][g] = g;
    /* Rank 0 leads its group at every level, so its tree order is the id order. */
    vine__levels_tree_order(m, 0, m->block);
    for (int y = 0; y < p; y++) {
        m->block_pos[m->block[y]] = y;
        m->reordered |= m->block[y] != y;
    }
    return VINE_OK;
}

int vine__levels_finish(vine_levels *m, char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = '\0';
    if (!m || m->p < 1 || m->nlevels < 1 || m->nlevels > VINE_LEVELS_MAX || !m->group) {
        vine__errmsg(err, errlen, "malformed level map (p %d, %d levels, group array %s)",
                     m ? m->p : 0, m ? m->nlevels : 0, m && m->group ? "set" : "missing");
        return VINE_ERR_UNSUPPORTED;
    }
    if (m->node < 0 || m->node >= m->nlevels) {
        vine__errmsg(err, errlen, "malformed level map: node level %d of %d levels", m->node,
                     m->nlevels);
        return VINE_ERR_UNSUPPORTED;
    }
    /* An old index goes first, so that a map that fails here is not ready. */
    int *group = m->group, p = m->p, nlevels = m->nlevels, node = m->node, torus = m->torus;
    free(m->idx);
    memset(m, 0, sizeof *m);
    m->group = group;
    m->p = p;
    m->nlevels = nlevels;
    m->node = node;
    m->torus = torus;
    for (int l = 0; l < m->nlevels; l++)
        for (int r = 0; r < p; r++)
            if (m->group[(size_t)l * p + r] < 0) {
                vine__errmsg(err, errlen, "level %d: rank %d has a negative group id %d", l, r,
                             m->group[(size_t)l * p + r]);
                return VINE_ERR_UNSUPPORTED;
            }
    for (int l = 0; l < m->nlevels; l++) {
        int n = renumber(m->group + (size_t)l * p, p);
        if (n < 0)
            return VINE_ERR_NO_MEM;
        m->ngroups[l] = n;
    }
    int *lead = malloc((size_t)p * sizeof *lead);
    if (!lead)
        return VINE_ERR_NO_MEM;
    int rc = VINE_OK;
    for (int l = 0; rc == VINE_OK && l + 1 < m->nlevels; l++)
        rc = check_nested(m, l, lead, err, errlen);
    free(lead);
    return rc == VINE_OK ? build_index(m) : rc;
}

int vine__levels_ready(const vine_levels *m, int p)
{
    return m && m->idx && m->p == p;
}

int vine__levels_split_node(vine_levels *m, vine_levels *node_map)
{
    if (m->node == 0) {
        *node_map = *m;
        memset(m, 0, sizeof *m);
        return VINE_OK;
    }
    int p = m->p, n = m->nlevels - m->node;
    int rc = vine__levels_alloc(node_map, p, n);
    if (rc == VINE_OK) {
        memcpy(node_map->group, m->group + (size_t)m->node * p,
               (size_t)n * (size_t)p * sizeof *m->group);
        node_map->torus = m->torus;
        rc = vine__levels_finish(node_map, NULL, 0);
    }
    if (rc != VINE_OK) {
        vine__levels_free(node_map);
        vine__levels_free(m);
        return VINE_ERR_NO_MEM;
    }
    return VINE_OK;
}

int vine__levels_dividing(const vine_levels *m)
{
    int n = 0;
    for (int l = 0; m && l < m->nlevels; l++)
        n += m->ngroups[l] != 1 && m->ngroups[l] != m->p;
    return n;
}

int vine__levels_flat(const vine_levels *m)
{
    return vine__levels_dividing(m) == 0;
}

/* ---- accessors --------------------------------------------------------------- */

int vine__levels_ngroups(const vine_levels *m, int l)
{
    return l < 0 ? m->p : l >= m->nlevels ? 1 : m->ngroups[l];
}

int vine__levels_group(const vine_levels *m, int l, int r)
{
    return l < 0 ? r : l >= m->nlevels ? 0 : m->group[(size_t)l * m->p + r];
}

int vine__levels_size(const vine_levels *m, int l, int g)
{
    return l < 0 ? 1 : l >= m->nlevels ? m->p : m->start[l][g + 1] - m->start[l][g];
}

const int *vine__levels_members(const vine_levels *m, int l, int g, int *n)
{
    *n = vine__levels_size(m, l, g);
    return l < 0 ? m->ident + g : l >= m->nlevels ? m->ident : m->order[l] + m->start[l][g];
}

int vine__levels_leader(const vine_levels *m, int l, int g)
{
    return l < 0 ? g : l >= m->nlevels ? 0 : m->order[l][m->start[l][g]];
}

int vine__levels_local(const vine_levels *m, int l, int r)
{
    return l < 0 ? 0 : l >= m->nlevels ? r : m->local[l][r];
}

int vine__levels_parent(const vine_levels *m, int l, int g)
{
    if (l >= m->nlevels - 1)
        return 0;
    return vine__levels_group(m, l + 1, vine__levels_leader(m, l, g));
}

const int *vine__levels_subgroups(const vine_levels *m, int l, int g, int *n)
{
    if (l <= 0)
        return l == 0 ? vine__levels_members(m, 0, g, n) : (*n = 0, NULL);
    if (l >= m->nlevels) {
        *n = m->ngroups[m->nlevels - 1];
        return m->ident;
    }
    *n = m->sub_start[l][g + 1] - m->sub_start[l][g];
    return m->sub[l] + m->sub_start[l][g];
}

int vine__levels_subindex(const vine_levels *m, int l, int g)
{
    return l < 0 ? m->local[0][g] : l >= m->nlevels ? 0 : m->subidx[l][g];
}

/* ---- the hierarchical tree --------------------------------------------------- */

/* The rank that talks for group g of level l: the anchor in its groups, else the leader. */
static int rep(const vine_levels *m, int l, int g, int anchor)
{
    return vine__levels_group(m, l, anchor) == g ? anchor : vine__levels_leader(m, l, g);
}

/* The index of the target's subgroup among group g of level l's subgroups. */
static int target_index(const vine_levels *m, int l, int g, int anchor)
{
    if (vine__levels_group(m, l, anchor) != g)
        return 0;
    return vine__levels_subindex(m, l - 1, vine__levels_group(m, l - 1, anchor));
}

void vine__levels_path_free(vine_levels_path *path)
{
    for (int s = 0; s < path->nstages; s++)
        free(path->stage[s].rank);
    memset(path, 0, sizeof *path);
}

int vine__levels_path(const vine_levels *m, int rank, int anchor, vine_levels_path *path)
{
    memset(path, 0, sizeof *path);
    for (int s = 0; s <= m->nlevels; s++) {
        int g = vine__levels_group(m, s, rank), k;
        const int *units = vine__levels_subgroups(m, s, g, &k);
        int t = target_index(m, s, g, anchor);
        int me = vine__levels_subindex(m, s - 1, vine__levels_group(m, s - 1, rank));
        vine_levels_stage *st = &path->stage[s];
        st->rank = malloc((2 * (size_t)k + 1) * sizeof *st->rank);
        if (!st->rank) {
            vine__levels_path_free(path);
            return VINE_ERR_NO_MEM;
        }
        path->nstages++;
        st->level = s;
        st->k = k;
        st->v = ((me - t) % k + k) % k;
        st->lo = st->rank + k;
        st->lo[0] = 0;
        for (int w = 0; w < k; w++) {
            int u = units[(w + t) % k];
            st->rank[w] = rep(m, s - 1, u, anchor);
            st->lo[w + 1] = st->lo[w] + vine__levels_size(m, s - 1, u);
        }
        if (st->v != 0)
            break;
    }
    return VINE_OK;
}

/* Lays out group g of level l from position pos; returns the position after it. */
static int tree_fill(const vine_levels *m, int anchor, int l, int g, int *rank_at, int pos)
{
    if (l < 0) {
        rank_at[pos] = g;
        return pos + 1;
    }
    int k;
    const int *units = vine__levels_subgroups(m, l, g, &k);
    int t = target_index(m, l, g, anchor);
    for (int w = 0; w < k; w++)
        pos = tree_fill(m, anchor, l - 1, units[(w + t) % k], rank_at, pos);
    return pos;
}

void vine__levels_tree_order(const vine_levels *m, int anchor, int *rank_at)
{
    tree_fill(m, anchor, m->nlevels, 0, rank_at, 0);
}

/* ---- synthetic descriptions -------------------------------------------------- */

/* Parses the decimal integer [s, end) into *out (0 .. max); -1 when malformed. */
static int parse_num(const char *s, const char *end, unsigned long long max,
                     unsigned long long *out)
{
    if (s == end)
        return -1;
    unsigned long long x = 0;
    for (; s < end; s++) {
        if (*s < '0' || *s > '9' || x > (max - (unsigned long long)(*s - '0')) / 10)
            return -1;
        x = 10 * x + (unsigned long long)(*s - '0');
    }
    *out = x;
    return 0;
}

/* The numbers of a list [s, end) separated by sep; their count, or -1 (malformed). */
static int parse_nums(const char *s, const char *end, char sep, unsigned long long max,
                      unsigned long long **out)
{
    int n = 1;
    for (const char *c = s; c < end; c++)
        n += *c == sep;
    *out = malloc((size_t)n * sizeof **out);
    if (!*out)
        return -2;
    for (int i = 0; i < n; i++) {
        const char *c = memchr(s, sep, (size_t)(end - s));
        c = c ? c : end;
        if (parse_num(s, c, max, &(*out)[i])) {
            free(*out);
            *out = NULL;
            return -1;
        }
        s = c + 1;
    }
    return n;
}

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* The levels being made: lv[l * p + r], the current units cur[r] (n of them). */
typedef struct maker {
    int p, nl, n;
    int node; /* the level marked node=, -1 when none is */
    int *lv, *cur, *ug;
    const char *spec;
    char *err;
    size_t errlen;
    int torus; /* a torus: item made levels */
} maker;

/* Adds a level whose unit u joins group ug[u]; renumbers it. */
static int add_level(maker *k)
{
    if (k->nl == VINE_LEVELS_MAX) {
        vine__errmsg(k->err, k->errlen, "levels '%s': more than %d levels", k->spec,
                     VINE_LEVELS_MAX);
        return VINE_ERR_UNSUPPORTED;
    }
    int *g = k->lv + (size_t)k->nl * k->p;
    for (int r = 0; r < k->p; r++)
        g[r] = k->ug[k->cur[r]];
    int n = renumber(g, k->p);
    if (n < 0)
        return VINE_ERR_NO_MEM;
    memcpy(k->cur, g, (size_t)k->p * sizeof *g);
    k->n = n;
    k->nl++;
    return VINE_OK;
}

enum kind { K_BLOCK, K_CYCLIC, K_SIZES, K_RANDOM, K_IDS, K_TORUS, K_COUNT };
static const char *const kind_names[K_COUNT] = {"block",  "cyclic", "sizes",
                                                "random", "ids",    "torus"};

static int malformed(const maker *k, const char *item, const char *end)
{
    vine__errmsg(k->err, k->errlen, "levels '%s': malformed '%.*s'", k->spec, (int)(end - item),
                 item);
    return VINE_ERR_UNSUPPORTED;
}

/* Adds the levels of one item: kind kd with the nv numbers v. */
static int gen_levels(maker *k, int kd, const unsigned long long *v, int nv, uint64_t rng)
{
    if (kd == K_IDS) {
        if (nv != k->n) {
            vine__errmsg(k->err, k->errlen, "levels '%s': ids: %d ids for %d units", k->spec, nv,
                         k->n);
            return VINE_ERR_UNSUPPORTED;
        }
        for (int u = 0; u < k->n; u++)
            k->ug[u] = (int)v[u];
        return add_level(k);
    }
    if (kd == K_SIZES) {
        /* Runs of v[0], v[1], ... units, the sizes repeating. */
        for (int u = 0, i = 0, left = 0, g = -1; u < k->n; u++, left--) {
            if (left == 0) {
                left = (int)v[i++ % nv];
                g++;
            }
            k->ug[u] = g;
        }
        return add_level(k);
    }
    if (kd == K_TORUS) {
        /* D0 x D1 x ... x Dn-1 of exactly the units: blocks of Dn-1, then of Dn-2 ... D1. */
        unsigned long long prod = 1;
        for (int i = 0; i < nv && prod <= (unsigned long long)k->n; i++)
            prod *= v[i];
        if (prod != (unsigned long long)k->n) {
            vine__errmsg(k->err, k->errlen, "levels '%s': torus: the dimensions' product is not %d",
                         k->spec, k->n);
            return VINE_ERR_UNSUPPORTED;
        }
        int rc = VINE_OK;
        k->torus = 1;
        for (int i = nv - 1; i >= (nv == 1 ? 0 : 1) && rc == VINE_OK; i--) {
            for (int u = 0; u < k->n; u++)
                k->ug[u] = u / (int)v[i];
            rc = add_level(k); /* one dimension: one group of all (1 x D0) */
        }
        return rc;
    }
    int rc = VINE_OK;
    for (int i = 0; i < nv && rc == VINE_OK; i++) {
        int n = (int)v[i];
        for (int u = 0; u < k->n; u++)
            k->ug[u] = kd == K_BLOCK    ? u / n
                       : kd == K_CYCLIC ? u % n
                                        : (int)(splitmix(&rng) % v[i]);
        rc = add_level(k);
    }
    return rc;
}

/* One item of a description: kind [kind, kind + klen) and its arguments [a, end). */
static int make_item(maker *k, const char *kind, size_t klen, const char *a, const char *end)
{
    int kd = 0;
    while (kd < K_COUNT &&
           !(strlen(kind_names[kd]) == klen && memcmp(kind, kind_names[kd], klen) == 0))
        kd++;
    if (kd == K_COUNT) {
        vine__errmsg(k->err, k->errlen,
                     "levels '%s': unknown kind '%.*s' (block, cyclic, sizes, random, ids, torus)",
                     k->spec, (int)klen, kind);
        return VINE_ERR_UNSUPPORTED;
    }
    unsigned long long seed = 0, *v = NULL;
    if (kd == K_RANDOM) {
        const char *colon = memchr(a, ':', (size_t)(end - a));
        if (!colon || parse_num(a, colon, ~0ULL, &seed))
            return malformed(k, kind, end);
        a = colon + 1;
    }
    int nv = parse_nums(a, end, kd == K_TORUS ? 'x' : ',', 2147483647ULL, &v);
    if (nv == -2)
        return VINE_ERR_NO_MEM;
    int ok = nv > 0;
    for (int i = 0; ok && kd != K_IDS && i < nv; i++)
        ok = v[i] > 0;
    int rc = ok ? gen_levels(k, kd, v, nv, (uint64_t)seed) : malformed(k, kind, end);
    free(v);
    return rc;
}

static int make_levels(maker *k)
{
    if (strcmp(k->spec, "flat") == 0) {
        for (int u = 0; u < k->n; u++)
            k->ug[u] = u;
        return add_level(k);
    }
    int rc = VINE_OK;
    for (const char *s = k->spec; rc == VINE_OK;) {
        const char *end = strchr(s, '/'), *colon;
        end = end ? end : s + strlen(s);
        if (strncmp(s, "node=", 5) == 0 && end - s >= 5) {
            if (k->node >= 0) {
                vine__errmsg(k->err, k->errlen, "levels '%s': more than one node= level", k->spec);
                return VINE_ERR_UNSUPPORTED;
            }
            k->node = k->nl;
            s += 5;
        }
        colon = memchr(s, ':', (size_t)(end - s));
        if (!colon) {
            vine__errmsg(k->err, k->errlen, "levels '%s': '%.*s' is not KIND:ARGS", k->spec,
                         (int)(end - s), s);
            return VINE_ERR_UNSUPPORTED;
        }
        rc = make_item(k, s, (size_t)(colon - s), colon + 1, end);
        if (!*end)
            break;
        s = end + 1;
    }
    return rc;
}

int vine__levels_parse(const char *spec, int p, vine_levels *m, char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    if (err && errlen)
        err[0] = '\0';
    if (!spec || p < 1) {
        vine__errmsg(err, errlen, "levels: %s", spec ? "no ranks" : "no description");
        return VINE_ERR_UNSUPPORTED;
    }
    maker k = {p, 0, p, -1, NULL, NULL, NULL, spec, err, errlen, 0};
    k.lv = malloc((size_t)VINE_LEVELS_MAX * (size_t)p * sizeof *k.lv);
    k.cur = malloc((size_t)p * sizeof *k.cur);
    k.ug = malloc((size_t)p * sizeof *k.ug);
    int rc = k.lv && k.cur && k.ug ? VINE_OK : VINE_ERR_NO_MEM;
    for (int r = 0; rc == VINE_OK && r < p; r++)
        k.cur[r] = r;
    if (rc == VINE_OK)
        rc = make_levels(&k);
    if (rc == VINE_OK)
        rc = vine__levels_alloc(m, p, k.nl);
    if (rc == VINE_OK) {
        memcpy(m->group, k.lv, (size_t)k.nl * (size_t)p * sizeof *k.lv);
        m->node = k.node > 0 ? k.node : 0;
        m->torus = k.torus;
        rc = vine__levels_finish(m, err, errlen);
    }
    if (rc != VINE_OK)
        vine__levels_free(m);
    free(k.lv);
    free(k.cur);
    free(k.ug);
    return rc;
}
