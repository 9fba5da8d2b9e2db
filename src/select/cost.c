/*
 * The multi-level cost model (see cost.h and docs/selection.md, "The cost
 * model"): parameters, their JSON file, and one analytic formula per
 * algorithm that auto chooses between on a level map.
 *
 * Each formula follows the algorithm's critical path step by step.  A step
 * whose messages cross class c costs alpha_c + bytes * beta_c (alpha_c plus
 * the class's rndv_alpha for a message of rndv_bytes or more), and beta_c is
 * multiplied by the contention factor of class c when the step sends more
 * messages than there are groups one level below c: then at least two of
 * them leave one group through the same links at once (with the class's
 * contention_flows, in proportion to how many do).  For a flat
 * algorithm the class of a step is read off one or two representative
 * pairs (the root and the ends of the subtree it serves in rooted trees,
 * rank 0 and its partner otherwise), and every message of the step is
 * assumed to cross that class: the paper's C1/C2/C3 split of the log p
 * steps, read off the map instead of guessed.
 */
#include "cost.h"

#include "../coll/bine.h"
#include "../coll/phase_node.h"
#include "../coll/phase_swing.h"
#include "../coll/phase_torus.h"
#include "../coll/shm/shm_common.h"
#include "../coll/torus.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define US 1e-6
#define NS 1e-9

void vine__cost_defaults(vine_cost *c)
{
    memset(c, 0, sizeof *c);
    c->nclasses = 4;
    c->cls[0] = (vine_cost_level){0.5 * US, 0.05 * NS, 1.0, 0, 0, 0};
    c->cls[1] = (vine_cost_level){1.57 * US, 0.08 * NS, 1.0, 0, 0, 0};
    c->cls[2] = (vine_cost_level){2.45 * US, 0.08 * NS, 2.0, 0, 0, 0};
    c->cls[3] = (vine_cost_level){2.85 * US, 0.08 * NS, 2.0, 0, 0, 0};
    c->gamma = 0.25 * NS;
    vine__cost_shm_defaults(&c->shm);
}

/*
 * The shm level's built-in parameters, from issue 18's runs on 16 ranks of
 * one 16-core machine (xeon16, docs/performance.md): vine-bench --copy-bw
 * measured 7.8 GB/s for one rank copying alone and 80.5 GB/s for all 16 at
 * once; the 8-byte medians of the shm barrier, bcast and allreduce (1.48,
 * 1.68 and 3.25 us) over the hand-offs their formulas count (16, 17 and 45)
 * give 0.09, 0.10 and 0.07 us per hand-off; gamma is the model's built-in
 * one, which also fits the 16 MiB shm allreduce (14.3 ms against 13.9).
 */
void vine__cost_shm_defaults(vine_cost_shm *s)
{
    s->alpha = 0.09 * US;
    s->beta = 1 / 7.8e9;
    s->beta_node = 1 / 80.5e9;
    s->gamma = 0.25 * NS;
}

const vine_cost_level *vine__cost_level(const vine_cost *c, int cls)
{
    if (cls >= c->nclasses)
        cls = c->nclasses - 1;
    return &c->cls[cls < 0 ? 0 : cls];
}

double vine__cost_latency(const vine_cost_level *lv, double bytes)
{
    return lv->alpha + (lv->rndv_alpha > 0 && bytes >= lv->rndv_bytes ? lv->rndv_alpha : 0);
}

void vine__cost_fit_pair(vine_cost_level *lv, double t0, const double *sizes, const double *t,
                         int n)
{
    double big = sizes[n - 1];
    lv->alpha = t0 > 0 ? t0 : 0;
    lv->rndv_bytes = lv->rndv_alpha = 0;
    if (n >= 2 && sizes[n - 1] > sizes[n - 2]) {
        double beta = (t[n - 1] - t[n - 2]) / (sizes[n - 1] - sizes[n - 2]);
        double jump = t[n - 1] - big * beta - lv->alpha;
        if (beta > 0 && jump > 0 && jump > 0.5 * lv->alpha) {
            lv->beta = beta;
            lv->rndv_alpha = jump;
            lv->rndv_bytes = big;
            for (int i = 0; i < n; i++)
                if (t[i] - sizes[i] * beta - lv->alpha >= jump / 2) {
                    lv->rndv_bytes = sizes[i] > 1 ? sizes[i] : 1;
                    break;
                }
            return;
        }
    }
    double per_byte = t[n - 1] - lv->alpha;
    lv->beta = per_byte > 0 ? per_byte / big : 0;
}

int vine__cost_class(const vine_levels *m, int r, int s)
{
    if (r == s)
        return 0;
    if (!m)
        return 1;
    for (int l = 0; l < m->nlevels; l++)
        if (vine__levels_group(m, l, r) == vine__levels_group(m, l, s))
            return l;
    return m->nlevels;
}

/* ---- the parameter file ------------------------------------------------- */

/* Reads key of o as a number >= lo into *v; def < 0 makes the key required. */
static int get_num(json_t *o, const char *key, double lo, double def, double *v)
{
    json_t *x = json_object_get(o, key);
    if (!x) {
        *v = def;
        return def >= 0 ? 0 : -1;
    }
    if (!json_is_number(x) || json_number_value(x) < lo)
        return -1;
    *v = json_number_value(x);
    return 0;
}

/* The first key of o outside the NULL-terminated list, or NULL. */
static const char *unknown_key(json_t *o, const char *const *known)
{
    const char *key;
    json_t *v;
    json_object_foreach(o, key, v)
    {
        int i = 0;
        while (known[i] && strcmp(known[i], key) != 0)
            i++;
        if (!known[i])
            return key;
    }
    return NULL;
}

static int level_from_json(json_t *o, vine_cost_level *lv, const char *path, size_t i, char *err,
                           size_t errlen)
{
    static const char *const known[] = {"name",       "note",       "pair",
                                        "alpha",      "beta",       "contention",
                                        "rndv_bytes", "rndv_alpha", "contention_flows",
                                        NULL};
    const char *bad;
    if (!json_is_object(o))
        return vine__errmsg(err, errlen, "%s: levels[%zu] is not an object", path, i);
    if ((bad = unknown_key(o, known)))
        return vine__errmsg(err, errlen, "%s: levels[%zu]: unknown key \"%s\"", path, i, bad);
    if (get_num(o, "alpha", 0, -1, &lv->alpha))
        return vine__errmsg(err, errlen, "%s: levels[%zu]: \"alpha\" missing or not a number >= 0",
                            path, i);
    if (get_num(o, "beta", 0, -1, &lv->beta))
        return vine__errmsg(err, errlen, "%s: levels[%zu]: \"beta\" missing or not a number >= 0",
                            path, i);
    if (get_num(o, "contention", 1, 1, &lv->contention))
        return vine__errmsg(err, errlen, "%s: levels[%zu]: \"contention\" is not a number >= 1",
                            path, i);
    if (get_num(o, "contention_flows", 1, 0, &lv->contention_flows))
        return vine__errmsg(err, errlen,
                            "%s: levels[%zu]: \"contention_flows\" is not a number >= 1", path, i);
    if (get_num(o, "rndv_alpha", 0, 0, &lv->rndv_alpha))
        return vine__errmsg(err, errlen, "%s: levels[%zu]: \"rndv_alpha\" is not a number >= 0",
                            path, i);
    if (get_num(o, "rndv_bytes", 1, 0, &lv->rndv_bytes))
        return vine__errmsg(err, errlen, "%s: levels[%zu]: \"rndv_bytes\" is not a number >= 1",
                            path, i);
    if (lv->rndv_alpha > 0 && lv->rndv_bytes < 1)
        return vine__errmsg(err, errlen, "%s: levels[%zu]: \"rndv_alpha\" needs \"rndv_bytes\"",
                            path, i);
    return VINE_OK;
}

/* The optional "shm" object: each key a number >= 0, the built-in value when absent. */
static int shm_from_json(json_t *o, vine_cost_shm *s, const char *path, char *err, size_t errlen)
{
    static const char *const known[] = {"note",      "source", "alpha", "beta",
                                        "beta_node", "gamma",  NULL};
    static const char *const keys[] = {"alpha", "beta", "beta_node", "gamma"};
    double *v[] = {&s->alpha, &s->beta, &s->beta_node, &s->gamma};
    const char *bad;
    if (!json_is_object(o))
        return vine__errmsg(err, errlen, "%s: \"shm\" is not an object", path);
    if ((bad = unknown_key(o, known)))
        return vine__errmsg(err, errlen, "%s: shm: unknown key \"%s\"", path, bad);
    for (int i = 0; i < 4; i++)
        if (get_num(o, keys[i], 0, *v[i], v[i]))
            return vine__errmsg(err, errlen, "%s: shm: \"%s\" is not a number >= 0", path, keys[i]);
    return VINE_OK;
}

int vine__cost_from_json(json_t *o, vine_cost *c, const char *path, char *err, size_t errlen)
{
    static const char *const known[] = {"version", "source", "comment", "gamma",
                                        "levels",  "shm",    NULL};
    const char *bad;
    if (!json_is_object(o))
        return vine__errmsg(err, errlen, "%s: the top level is not an object", path);
    if ((bad = unknown_key(o, known)))
        return vine__errmsg(err, errlen, "%s: unknown key \"%s\"", path, bad);
    json_t *ver = json_object_get(o, "version");
    if (ver && (!json_is_integer(ver) || json_integer_value(ver) != 1))
        return vine__errmsg(err, errlen, "%s: \"version\" must be 1", path);
    if (get_num(o, "gamma", 0, c->gamma, &c->gamma))
        return vine__errmsg(err, errlen, "%s: \"gamma\" is not a number >= 0", path);
    json_t *levels = json_object_get(o, "levels");
    size_t n = json_array_size(levels);
    if (!json_is_array(levels) || n == 0)
        return vine__errmsg(err, errlen, "%s: \"levels\" missing, not an array or empty", path);
    if (n > VINE_COST_CLASSES)
        return vine__errmsg(err, errlen, "%s: %zu levels, at most %d", path, n, VINE_COST_CLASSES);
    for (size_t i = 0; i < n; i++)
        if (level_from_json(json_array_get(levels, i), &c->cls[i], path, i, err, errlen))
            return VINE_ERR_UNSUPPORTED;
    c->nclasses = (int)n;
    json_t *shm = json_object_get(o, "shm");
    if (shm && shm_from_json(shm, &c->shm, path, err, errlen))
        return VINE_ERR_UNSUPPORTED;
    c->shm_given = shm != NULL;
    return VINE_OK;
}

int vine__cost_load(vine_cost *c, const char *path, char *err, size_t errlen)
{
    vine__cost_defaults(c);
    json_error_t je;
    json_t *o = json_load_file(path, 0, &je);
    if (!o && je.line > 0)
        return vine__errmsg(err, errlen, "%s:%d: %s", path, je.line, je.text);
    if (!o)
        return vine__errmsg(err, errlen, "%s: %s", path, je.text);
    vine_cost x = *c;
    int rc = vine__cost_from_json(o, &x, path, err, errlen);
    json_decref(o);
    if (rc == VINE_OK)
        *c = x;
    return rc;
}

static json_t *level_to_json(const vine_cost_level *lv, const char *note)
{
    json_t *o = json_object();
    if (note)
        json_object_set_new(o, "note", json_string(note));
    json_object_set_new(o, "alpha", json_real(lv->alpha));
    json_object_set_new(o, "beta", json_real(lv->beta));
    json_object_set_new(o, "contention", json_real(lv->contention));
    if (lv->contention_flows > 0)
        json_object_set_new(o, "contention_flows", json_real(lv->contention_flows));
    if (lv->rndv_alpha > 0) {
        json_object_set_new(o, "rndv_bytes", json_real(lv->rndv_bytes));
        json_object_set_new(o, "rndv_alpha", json_real(lv->rndv_alpha));
    }
    return o;
}

/* Sets "gamma" and "levels" of o from *c. */
static void cost_fill_json(json_t *o, const vine_cost *c, const char *const *notes)
{
    json_t *levels = json_array();
    json_object_set_new(o, "gamma", json_real(c->gamma));
    for (int i = 0; i < c->nclasses; i++)
        json_array_append_new(levels, level_to_json(&c->cls[i], notes ? notes[i] : NULL));
    json_object_set_new(o, "levels", levels);
    if (c->shm_given) {
        json_t *shm = json_object();
        json_object_set_new(shm, "alpha", json_real(c->shm.alpha));
        json_object_set_new(shm, "beta", json_real(c->shm.beta));
        json_object_set_new(shm, "beta_node", json_real(c->shm.beta_node));
        json_object_set_new(shm, "gamma", json_real(c->shm.gamma));
        json_object_set_new(o, "shm", shm);
    }
}

json_t *vine__cost_to_json(const vine_cost *c)
{
    for (int i = 0; i < c->nclasses; i++)
        if (!isfinite(c->cls[i].alpha) || !isfinite(c->cls[i].beta) ||
            !isfinite(c->cls[i].contention) || !isfinite(c->cls[i].rndv_bytes) ||
            !isfinite(c->cls[i].rndv_alpha) || !isfinite(c->cls[i].contention_flows))
            return NULL;
    if (!isfinite(c->gamma) || c->nclasses < 1 || c->nclasses > VINE_COST_CLASSES)
        return NULL;
    if (c->shm_given && (!isfinite(c->shm.alpha) || !isfinite(c->shm.beta) ||
                         !isfinite(c->shm.beta_node) || !isfinite(c->shm.gamma)))
        return NULL;
    json_t *o = json_object();
    if (o)
        cost_fill_json(o, c, NULL);
    return o;
}

int vine__cost_save(const vine_cost *c, const char *path, const char *source,
                    const char *const *notes, char *err, size_t errlen)
{
    json_t *o = json_object();
    json_object_set_new(o, "version", json_integer(1));
    if (source)
        json_object_set_new(o, "source", json_string(source));
    cost_fill_json(o, c, notes);
    int rc = json_dump_file(o, path, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6));
    json_decref(o);
    if (rc)
        return vine__errmsg(err, errlen, "%s: cannot write the file", path);
    return VINE_OK;
}

/* ---- evaluation helpers -------------------------------------------------- */

/*
 * What every formula reads: the parameters, the map (NULL: one rank per
 * node) and p; node 1 prices every message as class 0 (vine__cost_algo_node).
 */
typedef struct ctx {
    const vine_cost *c;
    const vine_levels *m;
    int p;
    int node;
    size_t type_size;
} ctx;

/* The parameters of class cls as this evaluation sees it. */
static const vine_cost_level *lvl(const ctx *x, int cls)
{
    return vine__cost_level(x->c, x->node ? 0 : cls);
}

static double lat(const vine_cost_level *lv, double bytes)
{
    return vine__cost_latency(lv, bytes);
}

/* The start-up times of a binomial tree's steps, messages doubling from first bytes. */
static double lat_doubling(const vine_cost_level *lv, int steps, double first)
{
    double t = 0;
    for (int i = 0; i < steps; i++, first *= 2)
        t += lat(lv, first);
    return t;
}

static int ceil_log2(long n)
{
    int k = 0;
    while ((1L << k) < n)
        k++;
    return k;
}

static long floor_pow2(long n)
{
    return 1L << (ceil_log2(n + 1) - 1);
}

static int mod(long x, int p)
{
    return (int)(((x % p) + p) % p);
}

static double dmin(double a, double b)
{
    return a < b ? a : b;
}

/* The groups one level below class cls: a message of that class leaves one of them. */
static double groups_below(const ctx *x, int cls)
{
    if (cls == 0 || !x->m || x->node)
        return x->p;
    return vine__levels_ngroups(x->m, cls - 1);
}

/*
 * The factor on beta of class lv when flows messages share one group's way
 * out: none for one, or for a class without contention; with
 * contention_flows measured, their share of the links (flows times the
 * factor measured with contention_flows of them); else the class's factor.
 */
static double contention_of(const vine_cost_level *lv, double flows)
{
    if (flows <= 1 || lv->contention <= 1)
        return 1.0;
    if (lv->contention_flows > 0) {
        double f = flows * lv->contention / lv->contention_flows;
        return f > 1 ? f : 1.0;
    }
    return lv->contention;
}

/*
 * One step moving bytes: the latency of class typ, the bandwidth of class
 * cls, contended by flows messages sharing a way out (contention_of).  For a
 * butterfly step priced from every pair (pair_step) typ is the median
 * message's class and cls the most loaded one: a rank waits only for its
 * own partner, so a few pairs of a higher class lengthen their own ranks'
 * step, not every rank's.
 */
static double step_at(const ctx *x, int typ, int cls, double bytes, double flows)
{
    const vine_cost_level *lv = lvl(x, cls);
    return vine__cost_latency(lvl(x, typ), bytes) + bytes * lv->beta * contention_of(lv, flows);
}

/*
 * One step: senders messages of bytes each, all crossing class cls at once,
 * as many from each group one level below (more than one a group: contended).
 */
static double step(const ctx *x, int cls, double bytes, double senders)
{
    return step_at(x, cls, cls, bytes, senders / groups_below(x, cls));
}

/* The unit's representative rank: unit i is rank i (level -1) or group i's leader. */
static int rep(const ctx *x, int level, int i)
{
    return level < 0 ? i : vine__levels_leader(x->m, level, i);
}

static int units(const ctx *x, int level)
{
    return level < 0 ? x->p : vine__levels_ngroups(x->m, level);
}

static int partner_of(int r, int s, long xor_dist, int q)
{
    return xor_dist ? (int)(r ^ xor_dist) : vine__bine_pi(r, s, q);
}

/*
 * The messages of one step, as pairs of ranks: message i goes from src[i] to
 * dst[i] and stands for stride messages of width each (a sample of every
 * stride-th pair, width ranks of a unit at once).
 */
typedef struct pair_list {
    const int *src, *dst;
    long n;
    int stride;
    double width;
} pair_list;

/*
 * The most messages of class c in the step of list l (n of its pairs of
 * class c) that go between the same two groups one level below c; without
 * memory to count them, the class's messages a group below.
 */
static double class_flows(const ctx *x, const pair_list *l, int c, long n)
{
    size_t cap = 4;
    while (cap < 2 * (size_t)n)
        cap *= 2;
    uint64_t *key = malloc(cap * sizeof *key);
    uint32_t *cnt = calloc(cap, sizeof *cnt);
    if (!key || !cnt) {
        free(key);
        free(cnt);
        return (double)n * l->stride * l->width / groups_below(x, c);
    }
    uint32_t most = 1;
    for (long i = 0; i < l->n; i++) {
        int r = l->src[i], v = l->dst[i];
        if (vine__cost_class(x->m, r, v) != c)
            continue;
        uint64_t k = (uint64_t)(uint32_t)vine__levels_group(x->m, c - 1, r) << 32 |
                     (uint32_t)vine__levels_group(x->m, c - 1, v);
        size_t h = (size_t)((k * 0x9E3779B97F4A7C15ull) >> 17) & (cap - 1);
        while (cnt[h] && key[h] != k)
            h = (h + 1) & (cap - 1);
        key[h] = k;
        most = ++cnt[h] > most ? cnt[h] : most;
    }
    free(key);
    free(cnt);
    return most * l->width > 1 ? (double)most * l->stride * l->width : 1;
}

/*
 * The step of list l (x->m set): the class of its most loaded messages,
 * per class beta times the contention of that class's messages between one
 * pair of groups (class_flows), with *flows that class's count, and in
 * *typical the median message's class (the highest that half of them
 * cross).
 */
static int list_step(const ctx *x, const pair_list *l, double *flows, int *typical)
{
    long n[VINE_LEVELS_MAX + 1] = {0};
    int top = 0;
    *flows = 1;
    for (long i = 0; i < l->n; i++) {
        int c = vine__cost_class(x->m, l->src[i], l->dst[i]);
        n[c]++;
        top = c > top ? c : top;
    }
    long ge = 0;
    for (*typical = top; *typical > 0; --*typical)
        if (2 * (ge += n[*typical]) >= l->n)
            break;
    int cls = top;
    double load = -1;
    for (int c = top; c >= 1; c--) {
        if (!n[c])
            continue;
        double f = class_flows(x, l, c, n[c]);
        double ld = lvl(x, c)->beta * contention_of(lvl(x, c), f);
        if (ld > load) {
            load = ld;
            cls = c;
            *flows = f;
        }
    }
    return cls;
}

/*
 * A step of a butterfly on the first q units of a level (level -1: the
 * ranks; 0: one rank per node, width ranks of each node at once; q a power
 * of two when xor_dist is set): unit u exchanges with u XOR xor_dist, or
 * with its Bine partner of step s when xor_dist is 0; priced from every
 * unit's pair (every (q / 16384)-th on more units) by list_step.  Without
 * memory for the pairs, or without a map, rank 0's pair decides.
 */
static int pair_step(const ctx *x, int level, int s, long xor_dist, int q, double width,
                     double *flows, int *typical)
{
    *flows = 1;
    if (!x->m)
        return *typical = vine__cost_class(NULL, 0, partner_of(0, s, xor_dist, q));
    int stride = q > 16384 ? q / 16384 : 1;
    long n = (q + stride - 1) / stride;
    int *src = malloc(2 * (size_t)n * sizeof *src);
    if (!src)
        return *typical = vine__cost_class(x->m, rep(x, level, 0),
                                           rep(x, level, partner_of(0, s, xor_dist, q)));
    int *dst = src + n;
    for (long i = 0; i < n; i++) {
        int u = (int)(i * stride);
        src[i] = rep(x, level, u);
        dst[i] = rep(x, level, partner_of(u, s, xor_dist, q));
    }
    pair_list l = {src, dst, n, stride, width};
    int cls = list_step(x, &l, flows, typical);
    free(src);
    return cls;
}

/*
 * Step s of a Bine butterfly on the first q ranks, in which rank r exchanges
 * with vine__bine_pi(r, s, q) (pair_step): the class whose bandwidth prices
 * the step, its flows and the median message's class.  Bine's distances are
 * modular, so at every other step rank 0's partner is q - |rho(s)|, across
 * the whole job; rank 0's class with every rank sending would price such a
 * step as if all its messages crossed the top level at once, while only the
 * pairs that wrap around the ends of a group do, one or two per pair of
 * groups (docs/selection.md).  Every rank's pair is classified, or every
 * (q / 16384)-th on more ranks (two sampled messages between the same
 * groups count as that many times the stride); without memory for the
 * pairs, rank 0's pair decides.
 */
static int bine_step(const ctx *x, int s, int q, double *flows, int *typical)
{
    return pair_step(x, -1, s, 0, q, 1, flows, typical);
}

static int unit_class(const ctx *x, int level, int i, int j)
{
    return vine__cost_class(x->m, rep(x, level, i), rep(x, level, j));
}

/* ---- flat algorithms ------------------------------------------------------ */

/*
 * The class of the root's step with the subtree of 2^k ranks: the highest
 * class between the root and the ends of the interval of relative ranks
 * the subtree holds, [2^k, 2^(k+1) - 1] in a binomial tree and (-2)^k plus
 * the k-digit negabinary range in a Bine tree (phase_bine_tree.h).  Pricing
 * the root's own partner alone would hide the crossings inside a subtree
 * whose first rank is close to the root but whose last is not; on a map of
 * consecutive groups the ends reach the farthest class.
 */
static int subtree_class(const ctx *x, int root, int k, int bine)
{
    long lo = 1L << k, hi = (2L << k) - 1;
    if (bine) {
        long first = k % 2 ? -(1L << k) : 1L << k;
        lo = first + vine__bine_lo(k);
        hi = first + vine__bine_hi(k);
    } else if (hi > x->p - 1) {
        hi = x->p - 1;
    }
    int a = vine__cost_class(x->m, root, mod(root + lo, x->p));
    int b = vine__cost_class(x->m, root, mod(root + hi, x->p));
    return a > b ? a : b;
}

/*
 * A binomial (bine = 0) or Bine tree rooted at root, one step per subtree
 * of the root, the largest last (gather) or first (the others; the sum is
 * the same).  With subtree set a step moves the subtree's blocks (gather,
 * scatter), else one vector (bcast, reduce); red bytes are reduced per
 * step.  Step k runs ceil((p - 2^k) / 2^(k+1)) messages at once.
 */
static double tree(const ctx *x, int root, int bine, double bytes, int subtree, double red)
{
    double t = 0;
    for (int k = 0; k < ceil_log2(x->p); k++) {
        long size = 1L << k;
        int cls = subtree_class(x, root, k, bine);
        double blocks = subtree ? dmin((double)size, (double)(x->p - size)) : 1;
        double senders = ceil((double)(x->p - size) / (double)(2 * size));
        t += step(x, cls, blocks * bytes, senders) + red * x->c->gamma;
    }
    return t;
}

/*
 * An allreduce by exchanges of the whole vector among the units of a level
 * (level -1: the ranks; 0: one rank per node, width ranks of each node at
 * once): MPICH's fold onto a power of two (two steps between units 0 and
 * 1), then recursive doubling (partner at 2^k) or a Bine butterfly (rho(k)).
 */
static double butterfly(const ctx *x, int level, int bine, double bytes, double width)
{
    int q = units(x, level);
    long q2 = floor_pow2(q);
    double t = 0, red = bytes * x->c->gamma;
    if (q2 < q)
        t += 2 * step(x, unit_class(x, level, 0, 1), bytes, (double)(q - q2) * width) + red;
    for (int k = 0; (1L << k) < q2; k++) {
        long dist = bine ? vine__bine_rho(k) : 1L << k;
        int cls = unit_class(x, level, 0, mod(dist, (int)q2));
        t += step(x, cls, bytes, (double)q2 * width) + red;
    }
    return t;
}

/*
 * Rabenseifner's halving reduce-scatter, nearest partner first as vine's
 * builder runs it (phase_hd.h: step k moves n / 2^(k+1) to the partner at
 * 2^k), with the allgather that mirrors it when both is set, after the
 * halved fold for p not a power of two (3 steps between ranks 0 and 1, 2 n
 * bytes, n/2 reduced).  With bine set the partner of step k is the Bine
 * partner at rho(k), as allreduce bine_large sends them; with bine
 * HALVING_FAR the farthest partner first (step k moves n / 2^(k+1) to the
 * partner at q/2^(k+1)), as the reduce-scatter's recursive halving runs
 * (phase_hd.c).  Among the units of a level (as butterfly(): level -1 the
 * ranks, 0 one rank per node with width ranks of each node at once).
 */
#define HALVING_FAR 2
static double halving(const ctx *x, int level, double n, int both, int bine, double width)
{
    int q = units(x, level);
    long q2 = floor_pow2(q);
    double t = 0;
    if (q2 < q) {
        int cls = unit_class(x, level, 0, 1);
        double senders = (double)(q - q2) * width;
        t += 2 * step(x, cls, n / 2, senders) + step(x, cls, n, senders) + n / 2 * x->c->gamma;
    }
    for (int k = 0; (1L << (k + 1)) <= q2; k++) {
        double b = n / (double)(2L << k);
        long dist = bine == HALVING_FAR ? q2 >> (k + 1) : bine ? vine__bine_rho(k) : 1L << k;
        double one, flows;
        int typ, cls;
        if (bine != 1 || level < 0) { /* from every unit's pair */
            cls = bine == 1 ? bine_step(x, k, (int)q2, &flows, &typ)
                            : pair_step(x, level, 0, dist, (int)q2, width, &flows, &typ);
            one = step_at(x, typ, cls, b, flows);
        } else { /* Bine among the nodes: rank 0's unit's partner */
            cls = unit_class(x, level, 0, mod(dist, (int)q2));
            one = step(x, cls, b, (double)q2 * width);
        }
        t += (both ? 2 : 1) * one + b * x->c->gamma;
    }
    return t;
}

/* The lowest level that holds all ranks in one group: the class a ring must cross. */
static int ring_class(const ctx *x)
{
    if (!x->m)
        return x->p > 1;
    for (int l = 0; l < x->m->nlevels; l++)
        if (vine__levels_ngroups(x->m, l) == 1)
            return l;
    return x->m->nlevels;
}

/*
 * The messages of one ring step that cross its class: one per group below
 * it when rank 0's group there is a run of consecutive ranks (a block
 * placement), else every rank's.
 */
static double ring_senders(const ctx *x, int cls)
{
    if (cls == 0 || !x->m)
        return x->p;
    int n;
    const int *mem = vine__levels_members(x->m, cls - 1, 0, &n);
    return mem[n - 1] - mem[0] == n - 1 ? vine__levels_ngroups(x->m, cls - 1) : x->p;
}

/* A ring of nsteps steps of bytes each. */
static double ring(const ctx *x, double nsteps, double bytes)
{
    int cls = ring_class(x);
    return nsteps * step(x, cls, bytes, ring_senders(x, cls));
}

/*
 * An allgather of bytes per unit among the units of level: step k moves
 * min(2^k, q - 2^k) units' blocks to the partner at 2^k (recursive doubling)
 * or -2^k (Bruck, which then rotates all blocks locally, a copy inside the
 * node); every unit sends in every step.
 */
static double allgather_log(const ctx *x, int level, double bytes, double width, int bruck)
{
    int q = units(x, level);
    double t = 0;
    for (int k = 0; (1L << k) < q; k++) {
        long size = 1L << k;
        int cls = unit_class(x, level, 0, mod(bruck ? -size : size, q));
        t += step(x, cls, dmin((double)size, (double)(q - size)) * bytes, (double)q * width);
    }
    if (bruck)
        t += (double)q * bytes * lvl(x, 0)->beta;
    return t;
}

/* ---- hierarchical algorithms ---------------------------------------------- */

/*
 * Stage s (0 .. nlevels) of the root's path: k participants (the level s-1
 * groups inside the root's level s group), that group's ranks, and the ranks
 * of the root's own subgroup.
 */
typedef struct stage {
    int k;
    double ranks, own;
} stage;

static stage stage_of(const ctx *x, int root, int s)
{
    stage st;
    int g = vine__levels_group(x->m, s, root);
    vine__levels_subgroups(x->m, s, g, &st.k);
    st.ranks = vine__levels_size(x->m, s, g);
    st.own = vine__levels_size(x->m, s - 1, vine__levels_group(x->m, s - 1, root));
    return st;
}

/*
 * The store-and-forward chain of a leader gather (a scatter's mirror) through
 * the largest top group other than the root's: its blocks are gathered at
 * its leader level by level, each stage receiving all but its largest
 * subgroup's blocks (the path follows the largest subgroup down), and then
 * cross the top level in one message.  The root's own path does not see
 * this wait: on two switches of 64 and 232 ranks the big switch's leader
 * takes in 224 blocks and then sends 232, against 295 for a flat tree
 * (docs/performance.md, the SimGrid experiment).
 */
static double leader_relay(const ctx *x, int root, double bytes, int lowest)
{
    int L = x->m->nlevels, rg = vine__levels_group(x->m, L - 1, root), g = -1;
    for (int h = 0; h < vine__levels_ngroups(x->m, L - 1); h++)
        if (h != rg &&
            (g < 0 || vine__levels_size(x->m, L - 1, h) > vine__levels_size(x->m, L - 1, g)))
            g = h;
    if (g < 0)
        return 0;
    double size_top = vine__levels_size(x->m, L - 1, g), t = 0;
    for (int l = L - 1; l >= lowest; l--) {
        int k, big = -1;
        const int *sub = vine__levels_subgroups(x->m, l, g, &k);
        for (int i = 0; i < k; i++)
            if (big < 0 ||
                vine__levels_size(x->m, l - 1, sub[i]) > vine__levels_size(x->m, l - 1, sub[big]))
                big = i;
        const vine_cost_level *lv = lvl(x, l);
        double inner = vine__levels_size(x->m, l, g) - vine__levels_size(x->m, l - 1, sub[big]);
        t += lat_doubling(lv, ceil_log2(k), k > 1 ? inner * bytes / (k - 1) : 0) +
             inner * bytes * lv->beta;
        g = sub[big];
    }
    const vine_cost_level *top = lvl(x, L);
    return t + lat(top, size_top * bytes) + size_top * bytes * top->beta;
}

/*
 * Leader-based gather or scatter: binomial among the representatives at
 * every stage, each subgroup's leader sending one message per step (no
 * contention), the root's group receiving all its other ranks' blocks;
 * a root that is not its node's leader adds one step of all p blocks
 * inside the node.  The largest other top group's relay (leader_relay)
 * bounds it from below.
 */
static double leader_stages(const ctx *x, int root, double bytes, int from)
{
    double t = 0;
    for (int s = from; s <= x->m->nlevels; s++) {
        stage st = stage_of(x, root, s);
        const vine_cost_level *lv = lvl(x, s);
        double others = (st.ranks - st.own) * bytes;
        t += lat_doubling(lv, ceil_log2(st.k), st.k > 1 ? others / (st.k - 1) : 0) +
             others * lv->beta;
    }
    return t;
}

static double leader(const ctx *x, int root, double bytes)
{
    double t = leader_stages(x, root, bytes, 0);
    if (root != vine__levels_leader(x->m, 0, vine__levels_group(x->m, 0, root))) {
        const vine_cost_level *lv = lvl(x, 0);
        t += lat(lv, (double)x->p * bytes) + (double)x->p * bytes * lv->beta;
    }
    double relay = leader_relay(x, root, bytes, 0);
    return relay > t ? relay : t;
}

/*
 * Broadcast (red 0) or reduce (red = bytes) level by level along the root's
 * path, from stage from (0: inside the node; 1: among the nodes) up.
 */
static double hier_tree_from(const ctx *x, int root, double bytes, double red, int from)
{
    double t = 0;
    for (int s = from; s <= x->m->nlevels; s++) {
        const vine_cost_level *lv = lvl(x, s);
        t += ceil_log2(stage_of(x, root, s).k) *
             (lat(lv, bytes) + bytes * lv->beta + red * x->c->gamma);
    }
    return t;
}

static double hier_tree(const ctx *x, int root, double bytes, double red)
{
    return hier_tree_from(x, root, bytes, red, 0);
}

/* The most ranks of one node in one of q lanes. */
static int widest_lane(const ctx *x, int q)
{
    int widest = 1;
    for (int g = 0; g < vine__levels_ngroups(x->m, 0); g++) {
        int w = (vine__levels_size(x->m, 0, g) + q - 1) / q;
        widest = w > widest ? w : widest;
    }
    return widest;
}

/*
 * Hierarchical allreduce on Q lanes (the smallest node's size): in nodes of
 * more than Q ranks each lane folds the whole vector onto its first rank
 * on a binomial tree and broadcasts the result back at the end (the
 * widest lane sets the time); ring reduce-scatter and ring allgather among
 * the first Q ranks of the node, and the Q blocks of n/Q bytes allreduced
 * across the nodes at once: by a Bine butterfly or recursive doubling on the
 * whole block, or (large) by a reduce-scatter + allgather, Bine's or
 * Rabenseifner's.
 */
static double hier_allreduce(const ctx *x, double n, int bine, int large)
{
    int q = vine__node_lanes(x->m), widest = widest_lane(x, q);
    const vine_cost_level *lv = lvl(x, 0);
    double fold = ceil_log2(widest);
    double t = fold * (2 * (lat(lv, n) + n * lv->beta) + n * x->c->gamma);
    t += 2 * (q - 1) * (lat(lv, n / q) + n / q * lv->beta) + (q - 1.0) / q * n * x->c->gamma;
    if (vine__levels_ngroups(x->m, 0) > 1)
        t += large ? halving(x, 0, n / q, 1, bine, q) : butterfly(x, 0, bine, n / q, q);
    return t;
}

/*
 * Hierarchical broadcast of large buffers (bcast hier_large) on Q lanes: a
 * binomial scatter of Q blocks in the root's node, each block broadcast
 * across the nodes by a scatter + allgather with Q ranks of every node at
 * once (both priced as a recursive-doubling allgather of its N blocks, the
 * scatter being the mirror of the allgather's volume), a ring allgather in
 * every node, and the lanes' binomial broadcast of the whole buffer where
 * a node has more than Q ranks.
 */
static double hier_bcast_large(const ctx *x, double n)
{
    int q = vine__node_lanes(x->m), nodes = vine__levels_ngroups(x->m, 0);
    const vine_cost_level *lv = lvl(x, 0);
    double m = n / q;
    double t = lat_doubling(lv, ceil_log2(q), m) + (q - 1) * m * lv->beta;
    t += (q - 1) * (lat(lv, m) + m * lv->beta);
    t += ceil_log2(widest_lane(x, q)) * (lat(lv, n) + n * lv->beta);
    if (nodes > 1)
        t += 2 * allgather_log(x, 0, m / nodes, q, 0);
    return t;
}

/*
 * Hierarchical reduce of large vectors (reduce hier_large) on Q lanes: the
 * lanes' binomial fold where a node has more than Q ranks, a ring
 * reduce-scatter among Q ranks of every node, each block reduced across the
 * nodes by Bine's reduce-scatter and gather (Q ranks of every node at
 * once), and the Q - 1 other blocks sent to the root in one step.
 */
static double hier_reduce_large(const ctx *x, double n)
{
    int q = vine__node_lanes(x->m);
    const vine_cost_level *lv = lvl(x, 0);
    double m = n / q, g = x->c->gamma;
    double t = ceil_log2(widest_lane(x, q)) * (lat(lv, n) + n * lv->beta + n * g);
    t += (q - 1) * (lat(lv, m) + m * lv->beta + m * g);
    t += lat(lv, (q - 1) * m) + (q - 1) * m * lv->beta;
    if (vine__levels_ngroups(x->m, 0) > 1)
        t += halving(x, 0, m, 1, 1, q);
    return t;
}

/*
 * Hierarchical allgather: every group's blocks gathered at its leader level
 * by level up to the top leaders, Bruck among the top leaders (each with its
 * top group's blocks), and the whole result broadcast down the groups; the
 * stages are priced along rank 0's groups.
 */
static double hier_allgather(const ctx *x, double bytes)
{
    double t = 0, all = (double)x->p * bytes;
    int top = x->m->nlevels - 1;
    for (int s = 0; s < x->m->nlevels; s++) {
        stage st = stage_of(x, 0, s);
        const vine_cost_level *lv = lvl(x, s);
        double others = (st.ranks - st.own) * bytes;
        t += lat_doubling(lv, ceil_log2(st.k), st.k > 1 ? others / (st.k - 1) : 0) +
             ceil_log2(st.k) * (lat(lv, all) + all * lv->beta) + others * lv->beta;
    }
    return t + allgather_log(x, top, vine__levels_size(x->m, top, 0) * bytes, 1, 1);
}

/* ---- the v collectives and the scans -------------------------------------- */

/*
 * The irregular blocks of the v collectives: a step costs the largest
 * message moved in it, so a table's largest block, or its largest group of
 * blocks, decides where the regular formulas read count.  Tables hold
 * elements of x->type_size bytes.
 */
static double vbytes(const ctx *x, size_t count)
{
    return (double)count * (double)x->type_size;
}

/*
 * Prefix sums in bytes of the p blocks of t taken from block `first` on,
 * cyclically: s[0] = 0, s[i + 1] = s[i] + block (first + i) mod p.  NULL
 * when memory runs out; the caller frees it.
 */
static double *vprefix(const ctx *x, const size_t *t, int first)
{
    double *s = malloc(((size_t)x->p + 1) * sizeof *s);
    if (!s)
        return NULL;
    s[0] = 0;
    for (int i = 0; i < x->p; i++)
        s[i + 1] = s[i] + vbytes(x, t[mod((long)first + i, x->p)]);
    return s;
}

/* The blocks [lo, lo + len) of prefix sums s over p blocks, cyclically (len <= p). */
static double vwindow(const double *s, int p, long lo, long len)
{
    if (lo + len <= p)
        return s[lo + len] - s[lo];
    return s[p] - s[lo] + s[lo + len - p];
}

static double dmax(double a, double b)
{
    return a > b ? a : b;
}

/*
 * allgatherv ring: p - 1 steps, in each of which every block but one moves,
 * so every step waits for the largest block: (p - 1) ring steps of c_max.
 */
static double agv_ring(const ctx *x, const vine_args *a, double u)
{
    (void)u;
    double most = 0;
    for (int i = 0; i < x->p; i++)
        most = dmax(most, vbytes(x, a->rcounts[i]));
    return ring(x, x->p - 1, most);
}

/*
 * allgatherv recursive_doubling: the stage of distance d exchanges the
 * aligned groups of d ranks with their partner groups (those with a
 * partner below p), the largest group sum deciding the step (class(0, d),
 * p messages).  Where the last pair's upper group H holds h < d ranks,
 * the fix-up forwards H's blocks in the rounds t = d/2 .. 1 with 2t > h
 * (class(G's first rank, + t), h messages).
 */
static double agv_rd(const ctx *x, const vine_args *a, double u)
{
    (void)u;
    int p = x->p;
    double *s = vprefix(x, a->rcounts, 0), t = 0;
    if (!s)
        return -1;
    for (long d = 1; d < p; d *= 2) {
        double most = 0;
        for (long g = 0; g < p; g += d)
            if ((g ^ d) < p)
                most = dmax(most, s[g + d < p ? g + d : p] - s[g]);
        t += step(x, unit_class(x, -1, 0, (int)d), most, p);
        long groot = p - p % (2 * d), h = p - groot - d;
        for (long f = d / 2; h > 0 && h < d && f >= 1; f /= 2)
            if (2 * f > h)
                t += step(x, vine__cost_class(x->m, (int)groot, (int)(groot + f)),
                          s[p] - s[groot + d], (double)h);
    }
    free(s);
    return t;
}

/*
 * allgatherv bruck: the step of distance 2^k sends every rank's next
 * min(2^k, p - 2^k) blocks from its own on, so it waits for the largest
 * such cyclic run (class(0, p - 2^k), p messages); then the local rotation
 * of all N bytes at beta_0.
 */
static double agv_bruck(const ctx *x, const vine_args *a, double u)
{
    (void)u;
    int p = x->p;
    double *s = vprefix(x, a->rcounts, 0), t = 0;
    if (!s)
        return -1;
    for (long d = 1; d < p; d *= 2) {
        long len = d < p - d ? d : p - d;
        double most = 0;
        for (long r = 0; r < p; r++)
            most = dmax(most, vwindow(s, p, r, len));
        t += step(x, unit_class(x, -1, 0, mod(-d, p)), most, p);
    }
    t += s[p] * lvl(x, 0)->beta;
    free(s);
    return t;
}

static int desc(const void *l, const void *r)
{
    double a = *(const double *)l, b = *(const double *)r;
    return (a < b) - (a > b);
}

/*
 * allgatherv bine_block on m = p (even) or p - 1 participants (odd p folds
 * its last rank into the one before): the distance-halving Bine butterfly,
 * step j = 0 .. n-1 (s = n-1-j, partner pi(0, s)) receiving
 * min(2^j, m - 2^j) blocks, priced as the sum of that many of the largest
 * participant blocks (a bound: which blocks a rank gets when depends on the
 * ranks only, and the exact runs would need the trees), m messages at once.
 * Odd p adds the folded rank's block in and all the others out.
 */
static double agv_bine_block(const ctx *x, const vine_args *a, double u)
{
    (void)u;
    int p = x->p, m = p % 2 ? p - 1 : p, n = ceil_log2(m);
    double *b = malloc((size_t)m * sizeof *b), t = 0, all = 0, last = vbytes(x, a->rcounts[p - 1]);
    if (!b)
        return -1;
    for (int i = 0; i < m; i++)
        all += b[i] = vbytes(x, a->rcounts[i]);
    if (m < p)
        all += b[m - 1] += last;
    qsort(b, (size_t)m, sizeof *b, desc);
    for (int i = 1; i < m; i++)
        b[i] += b[i - 1];
    for (int j = 0; j < n; j++) {
        long size = 1L << j, cnt = size < m - size ? size : m - size;
        int cls = vine__cost_class(x->m, 0, vine__bine_pi(0, n - 1 - j, m));
        t += step(x, cls, b[cnt - 1], m);
    }
    if (m < p) {
        int cls = vine__cost_class(x->m, p - 2, p - 1);
        t += step(x, cls, last, 1) + step(x, cls, all - last, 1);
    }
    free(b);
    return t;
}

/* The blocks of gatherv (rcounts) or scatterv (scounts). */
static const size_t *rooted_table(const vine_args *a)
{
    return a->coll == VINE_COLL_GATHERV ? a->rcounts : a->scounts;
}

/*
 * gatherv and scatterv linear: the root's p - 1 messages, each of its peer's
 * class, one after the other in the root's bandwidth: the sum over the
 * peers of alpha_c + c_i beta_c.
 */
static double rooted_linear(const ctx *x, const vine_args *a, double u)
{
    (void)u;
    const size_t *t = rooted_table(a);
    double sum = 0;
    for (int i = 1; i < x->p; i++) {
        int peer = mod((long)a->root + i, x->p);
        const vine_cost_level *lv = lvl(x, vine__cost_class(x->m, a->root, peer));
        double b = vbytes(x, t[peer]);
        sum += lat(lv, b) + b * lv->beta;
    }
    return sum;
}

/*
 * gatherv and scatterv binomial: the binomial tree of gather, the step of
 * subtrees of 2^k ranks (relative ranks v = 2^k mod 2^(k+1)) taking the
 * largest subtree's sum, at the class of the root's subtree; plus the
 * binomial broadcast of the root's table of p counts that the API layer
 * sends first (VINE_ALGO_ALLCOUNTS).
 */
static double rooted_binomial(const ctx *x, const vine_args *a, double u)
{
    (void)u;
    int p = x->p;
    double *s = vprefix(x, rooted_table(a), a->root), t = 0;
    if (!s)
        return -1;
    for (int k = 0; k < ceil_log2(p); k++) {
        long size = 1L << k;
        double most = 0;
        for (long v = size; v < p; v += 2 * size)
            most = dmax(most, s[v + size < p ? v + size : p] - s[v]);
        double senders = ceil((double)(p - size) / (double)(2 * size));
        t += step(x, subtree_class(x, a->root, k, 0), most, senders);
    }
    free(s);
    return t + tree(x, a->root, 0, (double)p * (double)sizeof(size_t), 0, 0);
}

/*
 * The rows of alltoallv and alltoallw present in a: all p when the tables
 * are p x p (vstride > 0: the verifier, the simulator), else the caller's
 * own (run time), whose rank *first is.  Returns how many.
 */
static int a2av_rows(const vine_args *a, int *first)
{
    *first = a->vstride ? 0 : a->rank;
    return a->vstride ? a->p : 1;
}

/*
 * alltoallv and alltoallw pairwise: p - 1 steps, in step k rank r sends
 * its block for rank r XOR k (p a power of two) or r + k and receives from
 * the same or r - k; the step costs its larger message at that pair's class
 * (p messages at once), the largest over the rows present.  At run time
 * only the caller's row is known, so the price is that rank's.
 */
static double a2av_pairwise(const ctx *x, const vine_args *a, double u)
{
    (void)u;
    int p = x->p, first, rows = a2av_rows(a, &first), pow2 = (p & (p - 1)) == 0;
    double t = 0;
    for (int k = 1; k < p; k++) {
        double most = 0;
        for (int r = first; r < first + rows; r++) {
            const size_t *sc = vine__args_row(a, a->scounts, r);
            const size_t *rc = vine__args_row(a, a->rcounts, r);
            int to = pow2 ? r ^ k : mod((long)r + k, p), from = pow2 ? to : mod((long)r - k, p);
            int cls = vine__cost_class(x->m, r, to), c2 = vine__cost_class(x->m, r, from);
            double b = dmax(vbytes(x, sc[to]), vbytes(x, rc[from]));
            most = dmax(most, step(x, cls > c2 ? cls : c2, b, p));
        }
        t += most;
    }
    return t;
}

/*
 * alltoallv and alltoallw linear: every message posted at once (in rounds
 * of 32 peers), so a rank pays alpha_c + c_i beta_c per message, its sends
 * and its receives each in turn through its link: the larger of the two
 * sums, the largest over the rows present (p messages at once).
 */
static double a2av_linear(const ctx *x, const vine_args *a, double u)
{
    (void)u;
    int p = x->p, first, rows = a2av_rows(a, &first);
    double t = 0;
    for (int r = first; r < first + rows; r++) {
        const size_t *sc = vine__args_row(a, a->scounts, r);
        const size_t *rc = vine__args_row(a, a->rcounts, r);
        double out = 0, in = 0;
        for (int i = 0; i < p; i++) {
            if (i == r)
                continue;
            int cls = vine__cost_class(x->m, r, i);
            out += step(x, cls, vbytes(x, sc[i]), p);
            in += step(x, cls, vbytes(x, rc[i]), p);
        }
        t = dmax(t, dmax(out, in));
    }
    return t;
}

/*
 * scan and exscan recursive_doubling: ceil(lg p) exchanges of the whole
 * vector with rank XOR 2^k (class(0, 2^k), p messages at once); rank p - 1,
 * whose partners are all below it, reduces twice a step (the partial scan
 * and the result) but once in the last: 2 ceil(lg p) - 1 reductions of n
 * (exscan: one fewer, its first lower vector is received as the result).
 */
static double scan_rd(const ctx *x, const vine_args *a, double n)
{
    int steps = ceil_log2(x->p);
    double t = 0, red = 2.0 * steps - (a->coll == VINE_COLL_EXSCAN ? 2 : 1);
    for (int k = 0; k < steps; k++)
        t += step(x, unit_class(x, -1, 0, 1 << k), n, x->p);
    return t + dmax(red, 0) * n * x->c->gamma;
}

/*
 * scan and exscan linear: the chain 0 -> 1 -> ... -> p - 1, hop r of
 * class(r, r + 1) carrying a segment of b bytes (the vector, or
 * seg_count elements) and the receiver reducing it (exscan: not rank
 * p - 1).  One message in flight without segments (the sum of the hops);
 * with m segments the pipeline, sum of the hops + (m - 1) times the
 * slowest, its hops in flight at once as a ring's.
 */
static double scan_linear(const ctx *x, const vine_args *a, double n)
{
    size_t cnt = a->count, seg = a->seg_count && a->seg_count < cnt ? a->seg_count : cnt;
    size_t m = cnt && seg ? (cnt + seg - 1) / seg : 1;
    double b = m > 1 ? vbytes(x, seg) : n, sum = 0, most = 0;
    for (int r = 0; r + 1 < x->p; r++) {
        int cls = vine__cost_class(x->m, r, r + 1);
        double hop = step(x, cls, b, m > 1 ? ring_senders(x, cls) : 1);
        if (a->coll == VINE_COLL_SCAN || r + 1 < x->p - 1)
            hop += b * x->c->gamma;
        sum += hop;
        most = dmax(most, hop);
    }
    return sum + (double)(m - 1) * most;
}

/* ---- the shm level (cost_shm.c) ------------------------------------------- */

/*
 * A call of the shm family on p ranks of one node: n bytes, regions of
 * region elements (vine_args.shm_count or shm_node_count), the builder's
 * element of type_size bytes.
 */
static vine_cost_shm_call shm_call(const ctx *x, const vine_args *a, vine_coll coll, int p,
                                   double n, size_t region)
{
    vine_cost_shm_call c;
    memset(&c, 0, sizeof c);
    c.coll = coll;
    c.p = p;
    c.n = c.total = c.most = n;
    c.elem = (double)x->type_size;
    c.region = (double)region * (double)x->type_size;
    c.inplace = a->inplace;
    c.single = a->shm_single;
    return c;
}

/*
 * The flat shm algorithm: all p ranks share one node segment (the map, if
 * any, is not read).  Only its schedules run on the parity slots; the node
 * phases of the hierarchical ones are phases of a composed schedule.
 */
static double flat_shm(const ctx *x, const vine_args *a, double u)
{
    vine_cost_shm_call c = shm_call(x, a, a->coll, x->p, u, a->shm_count);
    c.par = (double)a->shm_par_count * (double)x->type_size;
    if (a->coll == VINE_COLL_REDUCE_SCATTER || a->coll == VINE_COLL_REDUCE_SCATTER_BLOCK) {
        double ts = (double)x->type_size, most = (double)a->count;
        c.total = (double)a->count * x->p * ts;
        if (a->counts && a->displs) {
            most = 0;
            for (int r = 0; r < x->p; r++)
                most = a->counts[r] > most ? (double)a->counts[r] : most;
            c.total = (double)a->displs[x->p] * ts;
        }
        c.n = c.most = most * ts;
    }
    return vine__cost_shm(&x->c->shm, &c);
}

/* The most ranks of one node: the node that finishes its shm phase last. */
static int largest_node(const ctx *x)
{
    int most = 1;
    for (int g = 0; g < vine__levels_ngroups(x->m, 0); g++) {
        int n = vine__levels_size(x->m, 0, g);
        most = n > most ? n : most;
    }
    return most;
}

/* Whether every node's ranks are consecutive (leader_shm then needs no reordering at the root). */
static int nodes_in_rank_order(const ctx *x)
{
    for (int r = 1; r < x->p; r++)
        if (vine__levels_group(x->m, 0, r) < vine__levels_group(x->m, 0, r - 1))
            return 0;
    return 1;
}

/*
 * allreduce hier_shm: the shm reduce-scatter of n on the m ranks of a node,
 * allreduce bine_large of the n/m block among the nodes (m ranks of every
 * node at once, as allreduce hier_large prices it), the shm allgather of
 * the blocks in place; when m does not divide the count the blocks go
 * through scratch, one copy more each way.
 */
static double hier_shm_allreduce(const ctx *x, const vine_args *a, double u)
{
    int m = largest_node(x), nodes = vine__levels_ngroups(x->m, 0);
    size_t slot = (a->count + (size_t)m - 1) / (size_t)m;
    double blk = (double)slot * (double)x->type_size;
    vine_cost_shm_call rs = shm_call(x, a, VINE_COLL_REDUCE_SCATTER, m, blk, a->shm_node_count);
    vine_cost_shm_call ag = shm_call(x, a, VINE_COLL_ALLGATHER, m, blk, a->shm_node_count);
    rs.total = u;
    ag.inplace = 1;
    double t = vine__cost_shm(&x->c->shm, &rs) + vine__cost_shm(&x->c->shm, &ag);
    if (nodes > 1)
        t += halving(x, 0, u / m, 1, 1, m);
    if (a->count % (size_t)m)
        t += (u + blk) * vine__cost_shm_copy(&x->c->shm, m);
    return t;
}

/* bcast_hier_shm.c's switch to bine_large among the nodes: from 12 KiB on 8 nodes or more. */
#define HIER_SHM_BCAST_LONG 12288.0
#define HIER_SHM_BCAST_MIN_NODES 8
/* reduce_hier_shm.c's: from 2048 elements (and one per node). */
#define HIER_SHM_REDUCE_LONG 2048

/*
 * bcast hier_shm: among the nodes' representatives a Bine tree (priced as
 * bcast hier's stages above the node) or, long, bine_large (a scatter and
 * an allgather of the N blocks of n/N); then the shm bcast in the largest
 * node.
 */
static double hier_shm_bcast(const ctx *x, const vine_args *a, double u)
{
    int nodes = vine__levels_ngroups(x->m, 0);
    double t = 0;
    if (nodes > 1 && u >= HIER_SHM_BCAST_LONG && nodes >= HIER_SHM_BCAST_MIN_NODES)
        t = 2 * allgather_log(x, 0, u / nodes, 1, 0);
    else if (nodes > 1)
        t = hier_tree_from(x, a->root, u, 0, 1);
    vine_cost_shm_call c = shm_call(x, a, VINE_COLL_BCAST, largest_node(x), u, a->shm_node_count);
    return t + vine__cost_shm(&x->c->shm, &c);
}

/*
 * reduce hier_shm: the shm reduce in the largest node, then among the
 * representatives a Bine tree (reduce hier's stages above the node) or,
 * long, bine_large (Bine's halving reduce-scatter, and the blocks' gather
 * priced as the mirror allgather).
 */
static double hier_shm_reduce(const ctx *x, const vine_args *a, double u)
{
    int nodes = vine__levels_ngroups(x->m, 0);
    vine_cost_shm_call c = shm_call(x, a, VINE_COLL_REDUCE, largest_node(x), u, a->shm_node_count);
    double t = vine__cost_shm(&x->c->shm, &c);
    if (nodes > 1 && a->count >= HIER_SHM_REDUCE_LONG && a->count >= (size_t)nodes)
        t += halving(x, 0, u, 0, 1, 1) + allgather_log(x, 0, u / nodes, 1, 0);
    else if (nodes > 1)
        t += hier_tree_from(x, a->root, u, u, 1);
    return t;
}

/*
 * gather and scatter leader_shm: the shm gather (scatter) of blocks of n in
 * the largest node (nodes may differ in size; the largest finishes last),
 * and gather (scatter) leader's stages above the node, at least the relay
 * of the largest other top group from its nodes' representatives: both
 * count a stage's bytes in ranks, so node units of different sizes are
 * priced as they travel; the root reorders p blocks when the nodes' ranks
 * are not consecutive.
 */
static double leader_shm(const ctx *x, const vine_args *a, double u)
{
    vine_cost_shm_call c = shm_call(x, a, a->coll, largest_node(x), u, a->shm_node_count);
    c.inplace = 0;
    double across = leader_stages(x, a->root, u, 1), relay = leader_relay(x, a->root, u, 1);
    double t = vine__cost_shm(&x->c->shm, &c) + (relay > across ? relay : across);
    if (!nodes_in_rank_order(x))
        t += (double)x->p * u * vine__cost_shm_copy(&x->c->shm, 1);
    return t;
}

/* ---- the torus algorithms ------------------------------------------------ */

/*
 * The torus algorithms (phase_torus.h) run one stage per dimension of the
 * torus of the map (torus.h; one dimension of p without a map), every line
 * of a stage at once.  A stage is priced on rank 0's line: the class
 * between the line's first rank and the rank a step reaches (a ring: the
 * farthest rank of the line).  Only dimensions of size > 1 cost anything.
 */
typedef struct tor {
    vine_torus t;
    int *line;    /* rank 0's line along the current dimension */
    double extra; /* further messages a rank posts in each Bine step (multiport parts) */
} tor;

/* The torus of x's map into *o; 0 when the map makes none (no formula) or out of memory. */
static int tor_init(const ctx *x, tor *o)
{
    o->line = NULL;
    o->extra = 0;
    if (vine__torus_make(x->m, x->p, &o->t, NULL, 0) != VINE_OK)
        return 0;
    int maxd = 1;
    for (int d = 0; d < o->t.nd; d++)
        maxd = o->t.dims[d] > maxd ? o->t.dims[d] : maxd;
    o->line = malloc((size_t)maxd * sizeof *o->line);
    return o->line != NULL;
}

/* The class between rank 0 and the rank at coordinate j (mod dims[d]) of its line along d. */
static int tor_class(const ctx *x, tor *o, int d, long j)
{
    vine__torus_line(&o->t, 0, d, o->line);
    return vine__cost_class(x->m, o->line[0], o->line[mod(j, o->t.dims[d])]);
}

/* The farthest class on rank 0's line along d: what a ring along d crosses. */
static int tor_ring_class(const ctx *x, tor *o, int d)
{
    int cls = 0;
    for (int j = 1; j < o->t.dims[d]; j++) {
        int c = tor_class(x, o, d, j);
        cls = c > cls ? c : cls;
    }
    return cls;
}

/*
 * The reduce-scatter (rs) or allgather of one stage along d on n bytes, the
 * range of the stage: a ring (D - 1 steps of n/D) or the Bine butterfly
 * block by block (step k moves n/2^(k+1) to the partner at rho(k), the
 * allgather the mirror; an odd D folds its last rank, a step of n each way).
 */
static double tor_stage(const ctx *x, tor *o, int d, double n, int bine, int rs)
{
    int dim = o->t.dims[d];
    double red = rs ? x->c->gamma : 0, t = 0;
    if (!bine)
        return (dim - 1) * step(x, tor_ring_class(x, o, d), n / dim, x->p) +
               n * (dim - 1) / dim * red;
    for (int k = 0; (1L << k) < dim; k++) {
        double b = n / (double)(2L << k);
        int cls = tor_class(x, o, d, vine__bine_rho(k));
        t += step(x, cls, b, x->p) + b * red + o->extra * lat(lvl(x, cls), b);
    }
    if (dim % 2)
        t += step(x, tor_class(x, o, d, 1), n, x->p) + n * red;
    return t;
}

/*
 * The allreduce of count elements (u bytes) in parts side by side
 * (bine_torus_multiport, its parts as vine__torus_multiport_parts gives
 * them; count 0: one part), each of u / parts bytes on its own ports: a
 * Bine step costs what one part's costs, plus alpha for each of the parts -
 * 1 further messages the rank posts.  The parts' lockstep (a round waits for
 * its slowest part) is not priced: every part is priced on bine_torus's
 * dimension order.
 */
static double torus_allreduce_parts(const ctx *x, double u, int bine, size_t count)
{
    tor o;
    if (!tor_init(x, &o)) {
        free(o.line);
        return -1;
    }
    int parts = count ? vine__torus_multiport_parts(&o.t, x->m, count) : 1;
    double t = 0, n = u / parts;
    o.extra = parts - 1;
    for (int d = 0; d < o.t.nd; d++) {
        t += tor_stage(x, &o, d, n, bine, 1) + tor_stage(x, &o, d, n, bine, 0);
        n /= o.t.dims[d];
    }
    free(o.line);
    return t;
}

/* allreduce bucket (bine 0) and bine_torus (1): the stages down, then back up. */
static double torus_allreduce(const ctx *x, double u, int bine)
{
    return torus_allreduce_parts(x, u, bine, 0);
}

/*
 * allgather bucket and bine_torus (count 0: one part): the last dimension
 * first, runs of u times the lines so far.  With count, the parts of
 * bine_torus_multiport on the vector of p count elements, each of u / parts
 * bytes a block as torus_allreduce_parts prices them, and its copy of the
 * p u bytes gathered into place.
 */
static double torus_allgather(const ctx *x, double u, int bine, size_t count)
{
    tor o;
    if (!tor_init(x, &o)) {
        free(o.line);
        return -1;
    }
    int parts = count ? vine__torus_multiport_parts(&o.t, x->m, (size_t)x->p * count) : 1;
    double t = 0, run = u / parts;
    o.extra = parts - 1;
    for (int d = o.t.nd - 1; d >= 0; d--) {
        run *= o.t.dims[d];
        t += tor_stage(x, &o, d, run, bine, 0);
        /* bine_torus's small lines run bine_permute: the line's vector copied into place. */
        if (bine && parts == 1 && run < (double)VINE_TORUS_PERMUTE_BYTES)
            t += run * vine__cost_shm_copy(&x->c->shm, 1);
    }
    if (parts > 1)
        t += (double)x->p * u * vine__cost_shm_copy(&x->c->shm, 1);
    free(o.line);
    return t;
}

/*
 * bcast (red 0) and reduce (red = the bytes reduced a step) bine_torus: a
 * Bine tree of the whole vector on every line of a stage, dimension 0 first
 * (the reduce mirrors it, the same sum); stage d runs D_0 ... D_{d-1} lines
 * at once, step k of a line ceil((D - 2^k) / 2^(k+1)) messages.  With
 * count, bine_torus_multiport's parts (vine__torus_multiport_tree_parts):
 * every step on u / parts bytes, plus alpha for each further message.
 */
static double torus_tree(const ctx *x, double u, double red, size_t count)
{
    tor o;
    if (!tor_init(x, &o)) {
        free(o.line);
        return -1;
    }
    int parts = count ? vine__torus_multiport_tree_parts(&o.t, x->m, count) : 1;
    double t = 0, lines = 1;
    u /= parts;
    red /= parts;
    for (int d = 0; d < o.t.nd; d++) {
        int dim = o.t.dims[d];
        for (int k = 0; (1L << k) < dim; k++) {
            double size = (double)(1L << k);
            double senders = lines * ceil((dim - size) / (2 * size));
            long lo = k % 2 ? -(1L << k) : 1L << k;
            int cls = tor_class(x, &o, d, lo);
            t += step(x, cls, u, senders) + red * x->c->gamma + (parts - 1) * lat(lvl(x, cls), u);
        }
        lines *= dim;
    }
    free(o.line);
    return t;
}

static double ar_bucket(const ctx *x, const vine_args *a, double u)
{
    (void)a;
    return torus_allreduce(x, u, 0);
}

static double ar_bine_torus(const ctx *x, const vine_args *a, double u)
{
    (void)a;
    return torus_allreduce(x, u, 1);
}

static double ar_bine_torus_multiport(const ctx *x, const vine_args *a, double u)
{
    return torus_allreduce_parts(x, u, 1, a->count);
}

static double ag_bucket(const ctx *x, const vine_args *a, double u)
{
    (void)a;
    return torus_allgather(x, u, 0, 0);
}

static double ag_bine_torus(const ctx *x, const vine_args *a, double u)
{
    (void)a;
    return torus_allgather(x, u, 1, 0);
}

static double ag_bine_torus_multiport(const ctx *x, const vine_args *a, double u)
{
    return torus_allgather(x, u, 1, a->count);
}

static double bcast_bine_torus(const ctx *x, const vine_args *a, double u)
{
    (void)a;
    return torus_tree(x, u, 0, 0);
}

static double bcast_bine_torus_multiport(const ctx *x, const vine_args *a, double u)
{
    return torus_tree(x, u, 0, a->count);
}

static double reduce_bine_torus_multiport(const ctx *x, const vine_args *a, double u)
{
    return torus_tree(x, u, u, a->count);
}

static double reduce_bine_torus(const ctx *x, const vine_args *a, double u)
{
    (void)a;
    return torus_tree(x, u, u, 0);
}

/*
 * allreduce (allreduce 1, u the vector) and allgather (0, u a rank's block)
 * swing (phase_swing.h), priced on rank 0, participant 0: the fold of every
 * dimension that needs one (a message to the neighbour along it, the whole
 * vector each way for the allreduce, a participant's share in and all back
 * out for the allgather), then the butterfly's steps, step s along dim[s]
 * to the participant at rho(sub[s]) there, moving the vector's
 * 1/2^(s+1) (the reduce-scatter reduces it, the allreduce's allgather
 * mirrors it), every participant at once.
 */
static double swing_cost(const ctx *x, double u, int allreduce)
{
    vine_swing w;
    if (vine__swing_shape(&w, x->m, x->p) != VINE_OK)
        return -1;
    int c[VINE_TORUS_MAXD] = {0}, r0 = vine__torus_rank(&w.t, c);
    double n = allreduce ? u : u * x->p, t = 0;
    for (int d = 0; d < w.nd; d++) {
        if (!w.e[d])
            continue;
        c[d] = 1;
        int cls = vine__cost_class(x->m, r0, vine__torus_rank(&w.t, c));
        c[d] = 0;
        t += allreduce ? 2 * step(x, cls, n, x->p) + n * x->c->gamma
                       : step(x, cls, n / w.np, x->p) + step(x, cls, n, x->p);
    }
    for (int s = 0; s < w.n; s++) {
        int d = w.dim[s];
        c[d] = vine__swing_unfold(&w, d, mod(vine__bine_rho(w.sub[s]), w.q[d]));
        int cls = vine__cost_class(x->m, r0, vine__torus_rank(&w.t, c));
        c[d] = 0;
        double b = n / (double)(2L << s);
        t += step(x, cls, b, w.np) + (allreduce ? step(x, cls, b, w.np) + b * x->c->gamma : 0);
    }
    return t;
}

static double ar_swing(const ctx *x, const vine_args *a, double u)
{
    (void)a;
    return swing_cost(x, u, 1);
}

static double ag_swing(const ctx *x, const vine_args *a, double u)
{
    (void)a;
    return swing_cost(x, u, 0);
}

/* ---- the table of formulas ------------------------------------------------ */

/* A formula: seconds for a, with unit the bytes of count elements; < 0: none. */
typedef double (*cost_fn)(const ctx *x, const vine_args *a, double unit);

static double binomial_tree(const ctx *x, const vine_args *a, double u)
{
    int subtree = a->coll == VINE_COLL_GATHER || a->coll == VINE_COLL_SCATTER;
    return tree(x, a->root, 0, u, subtree, a->coll == VINE_COLL_REDUCE ? u : 0);
}

static double bine_tree(const ctx *x, const vine_args *a, double u)
{
    int subtree = a->coll == VINE_COLL_GATHER || a->coll == VINE_COLL_SCATTER;
    return tree(x, a->root, 1, u, subtree, a->coll == VINE_COLL_REDUCE ? u : 0);
}

static double sag_rd(const ctx *x, const vine_args *a, double u)
{
    double b = u / x->p;
    return tree(x, a->root, 0, b, 1, 0) + allgather_log(x, -1, b, 1, 0);
}

static double sag_ring(const ctx *x, const vine_args *a, double u)
{
    double b = u / x->p;
    return tree(x, a->root, 0, b, 1, 0) + ring(x, x->p - 1, b);
}

/*
 * The distance-halving Bine allgather of p blocks of b bytes: step j moves
 * min(2^j, p - 2^j) blocks to the partner at rho(n - 1 - j), the farthest
 * first, p messages at once (so the large steps stay near, where recursive
 * doubling sends its largest ones the farthest); each step's class and
 * crossing messages from every rank's pair (bine_step).
 */
static double bine_allgather(const ctx *x, double b)
{
    double t = 0;
    int n = ceil_log2(x->p);
    for (int j = 0; j < n; j++) {
        double size = (double)(1L << j);
        double flows;
        int typ, cls = bine_step(x, n - 1 - j, x->p, &flows, &typ);
        t += step_at(x, typ, cls, dmin(size, (double)x->p - size) * b, flows);
    }
    return t;
}

/* bcast bine_large: the scatter of the p blocks of n/p on the Bine tree, then its allgather. */
static double bcast_bine_large(const ctx *x, const vine_args *a, double u)
{
    double b = u / x->p;
    return tree(x, a->root, 1, b, 1, 0) + bine_allgather(x, b);
}

/*
 * allgather bine_permute: the Bine allgather of the blocks in scratch in nu
 * order, then a local copy of the p blocks into rank order (priced as
 * Bruck's rotation, class 0's beta).
 */
static double ag_bine_permute(const ctx *x, const vine_args *a, double u)
{
    (void)a;
    return bine_allgather(x, u) + (double)x->p * u * lvl(x, 0)->beta;
}

/* The rank of participant j relative to root: root + j (Bine), root XOR j (rabenseifner). */
static int at_rel(const ctx *x, int root, int j, int bine)
{
    return bine || (root ^ j) >= x->p ? mod((long)root + j, x->p) : root ^ j;
}

/*
 * reduce's gather of the q2 participants' blocks of b bytes to the root,
 * undoing the reduce-scatter's halving (rabenseifner: partners root XOR
 * 2^k ...; bine_large: Bine partners relative to the root; both nearest
 * first): at step k = lg q2 - 1 down to 0, the 2^k participants that steps
 * 0 .. k-1 do not reach from the root each pass their q2 / 2^(k+1) blocks to
 * their step-k partner, which those steps reach (the fold of p not a power
 * of two is left out).  So the first step moves one block from half of the
 * ranks, the last half the vector from the root's own partner, and each step
 * is priced from its own senders' pairs (list_step, every (2^k / 16384)-th
 * on more): a step with few senders costs what their pairs cost, not what
 * the butterfly's other pairs of that distance would.  Without memory for
 * the pairs, the root's partner at each step decides.
 */
static double halving_gather(const ctx *x, int root, double b, int bine)
{
    int q2 = (int)floor_pow2(x->p), top = ceil_log2(q2);
    long cap = q2 / 2 > 16384 ? 16384 : q2 / 2 + 1;
    /* reach[0, 2^k): the participants steps 0 .. k-1 reach from the root. */
    int *reach = x->m ? malloc(((size_t)q2 + 2 * (size_t)cap) * sizeof *reach) : NULL;
    double t = 0;
    if (reach) {
        reach[0] = 0;
        for (int k = 0; k < top; k++)
            for (int i = 0; i < 1 << k; i++)
                reach[(1 << k) + i] = bine ? vine__bine_pi(reach[i], k, q2) : reach[i] ^ (1 << k);
    }
    for (int k = top - 1; k >= 0; k--) {
        double bytes = (double)(q2 >> (k + 1)) * b;
        int senders = 1 << k;
        if (!reach) {
            int to = bine ? vine__bine_pi(0, k, q2) : 1 << k;
            t += step(x, vine__cost_class(x->m, root, at_rel(x, root, to, bine)), bytes, senders);
            continue;
        }
        int stride = senders > 16384 ? senders / 16384 : 1, *src = reach + q2, *dst = src + cap;
        long n = 0;
        for (int i = 0; i < senders; i += stride, n++) {
            int j = reach[senders + i], to = bine ? vine__bine_pi(j, k, q2) : j ^ (1 << k);
            src[n] = at_rel(x, root, j, bine);
            dst[n] = at_rel(x, root, to, bine);
        }
        pair_list l = {src, dst, n, stride, 1};
        double flows;
        int typ, cls = list_step(x, &l, &flows, &typ);
        t += step_at(x, typ, cls, bytes, flows);
    }
    free(reach);
    return t;
}

static double reduce_rab(const ctx *x, const vine_args *a, double u)
{
    double q2 = (double)floor_pow2(x->p);
    return halving(x, -1, u, 0, 0, 1) + halving_gather(x, a->root, u / q2, 0);
}

/*
 * reduce bine_large: the reduce-scatter on the distance-doubling Bine
 * butterfly (step k to the partner at rho(k), n / 2^(k+1) bytes), then the
 * gather of the q2 blocks to the root on the Bine tree run backwards: as
 * Rabenseifner's, the partner at rho(k) instead of 2^k, the farthest first.
 */
static double reduce_bine_large(const ctx *x, const vine_args *a, double u)
{
    double q2 = (double)floor_pow2(x->p);
    return halving(x, -1, u, 0, 1, 1) + halving_gather(x, a->root, u / q2, 1);
}

static double ar_rd(const ctx *x, const vine_args *a, double u)
{
    (void)a;
    return butterfly(x, -1, 0, u, 1);
}

static double ar_rab(const ctx *x, const vine_args *a, double u)
{
    (void)a;
    return halving(x, -1, u, 1, 0, 1);
}

static double ar_bine(const ctx *x, const vine_args *a, double u)
{
    (void)a;
    return butterfly(x, -1, 1, u, 1);
}

static double ar_bine_large(const ctx *x, const vine_args *a, double u)
{
    (void)a;
    return halving(x, -1, u, 1, 1, 1);
}

static double ar_ring(const ctx *x, const vine_args *a, double u)
{
    (void)a;
    double b = u / x->p;
    return ring(x, 2.0 * (x->p - 1), b) + (double)(x->p - 1) * b * x->c->gamma;
}

static double ag_ring(const ctx *x, const vine_args *a, double u)
{
    (void)a;
    return ring(x, x->p - 1, u);
}

/*
 * reduce_scatter_block of blocks of u bytes, n = p u in all: recursive
 * halving is Rabenseifner's reduce-scatter half on n with the farthest
 * partner first (distance halving, as vine's builder runs it: each rank
 * must end with its own block, so the halves follow the rank's bits from
 * the top); bine_permute the
 * same on the Bine butterfly (partner at rho(k)) plus its local copy of the
 * input into nu order at beta_0; pairwise p - 1 steps, step k a block to
 * the rank k further, class(0, k), every rank at once, each block reduced.
 */
static double rsb_halving(const ctx *x, const vine_args *a, double u)
{
    (void)a;
    return halving(x, -1, (double)x->p * u, 0, HALVING_FAR, 1);
}

static double rsb_bine_permute(const ctx *x, const vine_args *a, double u)
{
    (void)a;
    return halving(x, -1, (double)x->p * u, 0, 1, 1) + (double)x->p * u * lvl(x, 0)->beta;
}

static double rsb_pairwise(const ctx *x, const vine_args *a, double u)
{
    (void)a;
    double t = 0;
    for (int k = 1; k < x->p; k++)
        t += step(x, vine__cost_class(x->m, 0, k), u, (double)x->p) + u * x->c->gamma;
    return t;
}

static double ag_rd(const ctx *x, const vine_args *a, double u)
{
    (void)a;
    return allgather_log(x, -1, u, 1, 0);
}

static double ag_bruck(const ctx *x, const vine_args *a, double u)
{
    (void)a;
    return allgather_log(x, -1, u, 1, 1);
}

static double h_leader(const ctx *x, const vine_args *a, double u)
{
    return x->m ? leader(x, a->root, u) : -1;
}

static double h_bcast(const ctx *x, const vine_args *a, double u)
{
    return x->m ? hier_tree(x, a->root, u, 0) : -1;
}

static double h_bcast_large(const ctx *x, const vine_args *a, double u)
{
    (void)a;
    return x->m ? hier_bcast_large(x, u) : -1;
}

static double h_reduce(const ctx *x, const vine_args *a, double u)
{
    return x->m ? hier_tree(x, a->root, u, u) : -1;
}

static double h_ar_bine(const ctx *x, const vine_args *a, double u)
{
    (void)a;
    return x->m ? hier_allreduce(x, u, 1, 0) : -1;
}

static double h_ar_rd(const ctx *x, const vine_args *a, double u)
{
    (void)a;
    return x->m ? hier_allreduce(x, u, 0, 0) : -1;
}

static double h_ar_bine_large(const ctx *x, const vine_args *a, double u)
{
    (void)a;
    return x->m ? hier_allreduce(x, u, 1, 1) : -1;
}

static double h_ar_rab(const ctx *x, const vine_args *a, double u)
{
    (void)a;
    return x->m ? hier_allreduce(x, u, 0, 1) : -1;
}

static double h_reduce_large(const ctx *x, const vine_args *a, double u)
{
    (void)a;
    return x->m ? hier_reduce_large(x, u) : -1;
}

static double h_allgather(const ctx *x, const vine_args *a, double u)
{
    (void)a;
    return x->m ? hier_allgather(x, u) : -1;
}

static double shm_any(const ctx *x, const vine_args *a, double u)
{
    return flat_shm(x, a, u);
}

/*
 * allgatherv, gatherv and scatterv shm: allgather's, gather's and scatter's
 * shm schedules, priced on the largest block of table t (allgatherv_shm.c,
 * gatherv_shm.c, scatterv_shm.c).
 */
static double v_shm(const ctx *x, const vine_args *a, vine_coll coll, const size_t *t)
{
    double most = 0;
    for (int i = 0; i < x->p; i++)
        most = dmax(most, vbytes(x, t[i]));
    vine_cost_shm_call c = shm_call(x, a, coll, x->p, most, a->shm_count);
    c.par = (double)a->shm_par_count * (double)x->type_size;
    return vine__cost_shm(&x->c->shm, &c);
}

static double agv_shm(const ctx *x, const vine_args *a, double u)
{
    (void)u;
    return v_shm(x, a, VINE_COLL_ALLGATHER, a->rcounts);
}

/* gatherv shm: gather shm on the largest block, or linear when that block goes as a message. */
static double gv_shm(const ctx *x, const vine_args *a, double u)
{
    size_t most = 0;
    for (int i = 0; i < x->p; i++)
        most = a->rcounts[i] > most ? a->rcounts[i] : most;
    if (vine__shm_gatherv_message(x->p, most))
        return rooted_linear(x, a, u);
    return v_shm(x, a, VINE_COLL_GATHER, a->rcounts);
}

/*
 * alltoallv and alltoallw shm: alltoall shm's schedule on the largest block
 * of the rows present, sent or received (alltoallv_shm.c: each pair's
 * block through its part of the writer's eager slot or region, as
 * alltoall's stream of p - 1 blocks goes through the whole of them); when
 * that block is large enough to go as a message, alltoallv linear's price.
 */
static double a2av_shm(const ctx *x, const vine_args *a, double u)
{
    int first, rows = a2av_rows(a, &first);
    size_t most = 0;
    for (int r = first; r < first + rows; r++) {
        const size_t *sc = vine__args_row(a, a->scounts, r);
        const size_t *rc = vine__args_row(a, a->rcounts, r);
        for (int i = 0; i < x->p; i++)
            most = sc[i] > most ? sc[i] : rc[i] > most ? rc[i] : most;
    }
    if (most >= vine__shm_a2av_msg_min(x->p))
        return a2av_linear(x, a, u);
    vine_cost_shm_call c = shm_call(x, a, VINE_COLL_ALLTOALL, x->p, vbytes(x, most), a->shm_count);
    c.par = (double)a->shm_par_count * (double)x->type_size;
    return vine__cost_shm(&x->c->shm, &c);
}

/*
 * scatterv shm: blocks that fit their part of the root's eager slot as
 * scatter shm's eager path on the largest block, else the linear sends.
 */
static double sv_shm(const ctx *x, const vine_args *a, double u)
{
    size_t each = vine__shm_scatterv_part(x->p, a->shm_par_count), most = 0;
    for (int i = 0; i < x->p; i++)
        most = a->scounts[i] > most ? a->scounts[i] : most;
    if (most <= each)
        return v_shm(x, a, VINE_COLL_SCATTER, a->scounts);
    return rooted_linear(x, a, u);
}

static double h_ar_shm(const ctx *x, const vine_args *a, double u)
{
    return x->m ? hier_shm_allreduce(x, a, u) : -1;
}

static double h_bcast_shm(const ctx *x, const vine_args *a, double u)
{
    return x->m ? hier_shm_bcast(x, a, u) : -1;
}

static double h_reduce_shm(const ctx *x, const vine_args *a, double u)
{
    return x->m ? hier_shm_reduce(x, a, u) : -1;
}

static double h_leader_shm(const ctx *x, const vine_args *a, double u)
{
    return x->m ? leader_shm(x, a, u) : -1;
}

static const struct formula {
    vine_coll coll;
    const char *name;
    cost_fn fn;
} formulas[] = {
    {VINE_COLL_GATHER, "binomial", binomial_tree},
    {VINE_COLL_GATHER, "bine", bine_tree},
    {VINE_COLL_GATHER, "leader", h_leader},
    {VINE_COLL_GATHER, "leader_bine", h_leader},
    {VINE_COLL_SCATTER, "binomial", binomial_tree},
    {VINE_COLL_SCATTER, "bine", bine_tree},
    {VINE_COLL_SCATTER, "leader", h_leader},
    {VINE_COLL_SCATTER, "leader_bine", h_leader},
    {VINE_COLL_BCAST, "binomial", binomial_tree},
    {VINE_COLL_BCAST, "bine", bine_tree},
    {VINE_COLL_BCAST, "scatter_allgather_rd", sag_rd},
    {VINE_COLL_BCAST, "scatter_allgather_ring", sag_ring},
    {VINE_COLL_BCAST, "bine_large", bcast_bine_large},
    {VINE_COLL_BCAST, "hier", h_bcast},
    {VINE_COLL_BCAST, "hier_large", h_bcast_large},
    {VINE_COLL_REDUCE, "binomial", binomial_tree},
    {VINE_COLL_REDUCE, "bine", bine_tree},
    {VINE_COLL_REDUCE, "rabenseifner", reduce_rab},
    {VINE_COLL_REDUCE, "bine_large", reduce_bine_large},
    {VINE_COLL_REDUCE, "hier", h_reduce},
    {VINE_COLL_REDUCE, "hier_large", h_reduce_large},
    {VINE_COLL_ALLREDUCE, "recursive_doubling", ar_rd},
    {VINE_COLL_ALLREDUCE, "rabenseifner", ar_rab},
    {VINE_COLL_ALLREDUCE, "ring", ar_ring},
    {VINE_COLL_ALLREDUCE, "bine", ar_bine},
    {VINE_COLL_ALLREDUCE, "bine_large", ar_bine_large},
    {VINE_COLL_ALLREDUCE, "hier", h_ar_bine},
    {VINE_COLL_ALLREDUCE, "hier_rd", h_ar_rd},
    {VINE_COLL_ALLREDUCE, "hier_large", h_ar_bine_large},
    {VINE_COLL_ALLREDUCE, "hier_rab", h_ar_rab},
    {VINE_COLL_ALLGATHER, "recursive_doubling", ag_rd},
    {VINE_COLL_ALLGATHER, "bruck", ag_bruck},
    {VINE_COLL_ALLGATHER, "ring", ag_ring},
    {VINE_COLL_ALLGATHER, "bine_permute", ag_bine_permute},
    {VINE_COLL_ALLGATHER, "hier", h_allgather},
    {VINE_COLL_REDUCE_SCATTER_BLOCK, "recursive_halving", rsb_halving},
    {VINE_COLL_REDUCE_SCATTER_BLOCK, "pairwise", rsb_pairwise},
    {VINE_COLL_REDUCE_SCATTER_BLOCK, "bine_permute", rsb_bine_permute},
    /* The torus algorithms (phase_torus.h): one stage per dimension of the map's torus. */
    {VINE_COLL_ALLREDUCE, "bucket", ar_bucket},
    {VINE_COLL_ALLREDUCE, "bine_torus", ar_bine_torus},
    {VINE_COLL_ALLREDUCE, "bine_torus_multiport", ar_bine_torus_multiport},
    {VINE_COLL_ALLGATHER, "bucket", ag_bucket},
    {VINE_COLL_ALLGATHER, "bine_torus", ag_bine_torus},
    {VINE_COLL_ALLREDUCE, "swing", ar_swing},
    {VINE_COLL_ALLGATHER, "swing", ag_swing},
    {VINE_COLL_BCAST, "bine_torus", bcast_bine_torus},
    {VINE_COLL_REDUCE, "bine_torus", reduce_bine_torus},
    {VINE_COLL_ALLGATHER, "bine_torus_multiport", ag_bine_torus_multiport},
    {VINE_COLL_BCAST, "bine_torus_multiport", bcast_bine_torus_multiport},
    {VINE_COLL_REDUCE, "bine_torus_multiport", reduce_bine_torus_multiport},
    /* The shm level (cost_shm.c); the hierarchical ones price their node phase with it. */
    {VINE_COLL_BCAST, "shm", shm_any},
    {VINE_COLL_REDUCE, "shm", shm_any},
    {VINE_COLL_ALLREDUCE, "shm", shm_any},
    {VINE_COLL_ALLGATHER, "shm", shm_any},
    {VINE_COLL_REDUCE_SCATTER, "shm", shm_any},
    {VINE_COLL_REDUCE_SCATTER_BLOCK, "shm", shm_any},
    {VINE_COLL_ALLTOALL, "shm", shm_any},
    {VINE_COLL_GATHER, "shm", shm_any},
    {VINE_COLL_SCATTER, "shm", shm_any},
    {VINE_COLL_BARRIER, "shm", shm_any},
    {VINE_COLL_ALLREDUCE, "hier_shm", h_ar_shm},
    {VINE_COLL_BCAST, "hier_shm", h_bcast_shm},
    {VINE_COLL_REDUCE, "hier_shm", h_reduce_shm},
    {VINE_COLL_GATHER, "leader_shm", h_leader_shm},
    {VINE_COLL_SCATTER, "leader_shm", h_leader_shm},
    /* The v collectives (tables of blocks) and the scans. */
    {VINE_COLL_ALLGATHERV, "ring", agv_ring},
    {VINE_COLL_ALLGATHERV, "recursive_doubling", agv_rd},
    {VINE_COLL_ALLGATHERV, "bruck", agv_bruck},
    {VINE_COLL_ALLGATHERV, "bine_block", agv_bine_block},
    {VINE_COLL_ALLGATHERV, "shm", agv_shm},
    {VINE_COLL_GATHERV, "linear", rooted_linear},
    {VINE_COLL_GATHERV, "binomial", rooted_binomial},
    {VINE_COLL_GATHERV, "shm", gv_shm},
    {VINE_COLL_SCATTERV, "shm", sv_shm},
    {VINE_COLL_SCATTERV, "linear", rooted_linear},
    {VINE_COLL_SCATTERV, "binomial", rooted_binomial},
    {VINE_COLL_ALLTOALLV, "pairwise", a2av_pairwise},
    {VINE_COLL_ALLTOALLV, "linear", a2av_linear},
    {VINE_COLL_ALLTOALLV, "shm", a2av_shm},
    {VINE_COLL_ALLTOALLW, "pairwise", a2av_pairwise},
    {VINE_COLL_ALLTOALLW, "linear", a2av_linear},
    {VINE_COLL_ALLTOALLW, "shm", a2av_shm},
    {VINE_COLL_SCAN, "recursive_doubling", scan_rd},
    {VINE_COLL_SCAN, "linear", scan_linear},
    {VINE_COLL_EXSCAN, "recursive_doubling", scan_rd},
    {VINE_COLL_EXSCAN, "linear", scan_linear},
};
#define NFORMULAS ((int)(sizeof formulas / sizeof formulas[0]))

static cost_fn find(vine_coll coll, const char *name)
{
    for (int i = 0; name && i < NFORMULAS; i++)
        if (formulas[i].coll == coll && strcmp(formulas[i].name, name) == 0)
            return formulas[i].fn;
    return NULL;
}

int vine__cost_known(vine_coll coll, const char *name)
{
    return find(coll, name) != NULL;
}

/* Whether a v collective's formula lacks a table it reads. */
static int tables_missing(const vine_args *a)
{
    switch (a->coll) {
    case VINE_COLL_ALLGATHERV:
    case VINE_COLL_GATHERV:
        return !a->rcounts;
    case VINE_COLL_SCATTERV:
        return !a->scounts;
    case VINE_COLL_ALLTOALLV:
    case VINE_COLL_ALLTOALLW:
        return !a->scounts || !a->rcounts || a->rank < 0 || a->rank >= a->p;
    default:
        return 0;
    }
}

/* vine__cost_algo, or with node set vine__cost_algo_node. */
static int evaluate(const vine_cost *c, const vine_algo *algo, const vine_args *a, size_t type_size,
                    int node, double *t)
{
    cost_fn fn = find(algo->coll, algo->name);
    if (!fn || a->p < 1 || a->root < 0 || a->root >= a->p || tables_missing(a))
        return VINE_ERR_UNSUPPORTED;
    const vine_levels *m = vine__levels_ready(a->levels, a->p) ? a->levels : NULL;
    if (a->levels && !m)
        return VINE_ERR_UNSUPPORTED;
    ctx x = {c, node ? NULL : m, a->p, node, type_size ? type_size : 1};
    double v = a->p == 1 ? 0 : fn(&x, a, (double)a->count * (double)type_size);
    if (v < 0)
        return VINE_ERR_UNSUPPORTED;
    *t = v;
    return VINE_OK;
}

int vine__cost_algo(const vine_cost *c, const vine_algo *algo, const vine_args *a, size_t type_size,
                    double *t)
{
    return evaluate(c, algo, a, type_size, 0, t);
}

int vine__cost_algo_node(const vine_cost *c, const vine_algo *algo, const vine_args *a,
                         size_t type_size, double *t)
{
    return evaluate(c, algo, a, type_size, 1, t);
}
