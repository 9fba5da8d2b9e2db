/*
 * Tuning files (see tuning.h; the schema, the lookup rules and every message
 * are in docs/tuning.md).
 *
 * The reader decodes the file with jansson and then checks it key by key.
 * jansson keeps no positions, so a message finds the line of the value it
 * is about in the text with jsonpos.h; the rules and ranges are walked in
 * order, so every range learns its line in one pass over the text.  The
 * checks that do not depend on JSON (the order of the ranges, the
 * algorithms' collective, duplicate rules) are shared with
 * vine__tuning_add_rule and vine__tuning_save, so a table that any of them
 * accepts is one that the others accept too.
 */
#include "tuning.h"

#include "jsonpos.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SCHEMA "vine-tuning"
/* The most bytes of a name from the file that a message quotes. */
#define SHOWN_MAX 48
/* The longest message body before "FILE:LINE: ". */
#define MSG_MAX 512
/* Byte counts as the file can hold them (JSON integers are long long in jansson). */
#define BYTES_MAX                                                                                  \
    ((unsigned long long)SIZE_MAX < (unsigned long long)LLONG_MAX ? (long long)SIZE_MAX : LLONG_MAX)

static const char *const ops_names[] = {"any", "commutative", "noncommutative", NULL};
static const char *const inplace_names[] = {"any", "no", "yes", NULL};

const char *vine__tuning_ops_name(int ops)
{
    return ops >= 0 && ops <= VINE_TUNE_OPS_NONCOMMUTATIVE ? ops_names[ops] : "?";
}

const char *vine__tuning_inplace_name(int inplace)
{
    return inplace >= 0 && inplace <= VINE_TUNE_INPLACE_YES ? inplace_names[inplace] : "?";
}

/* The index of s in the NULL-terminated names, or -1. */
static int name_index(const char *const *names, const char *s)
{
    for (int k = 0; names[k]; k++)
        if (strcmp(names[k], s) == 0)
            return k;
    return -1;
}

void vine__tuning_init(vine_tuning *t)
{
    memset(t, 0, sizeof *t);
    t->version = VINE_TUNING_VERSION;
}

/*
 * Chains rule k behind the table's other rules of its collective, so that a
 * lookup visits the rules of one collective only (auto's choice must cost
 * far less than a call, whatever the size of the file).
 */
static void link_rule(vine_tuning *t, int k)
{
    vine_tune_rule *r = &t->rules[k];
    int c = (int)r->coll;
    r->next = 0;
    if (t->last[c])
        t->rules[t->last[c] - 1].next = k + 1;
    else
        t->first[c] = k + 1;
    t->last[c] = k + 1;
}

void vine__tuning_free(vine_tuning *t)
{
    for (int i = 0; t->hosts && i < t->nhosts; i++)
        free(t->hosts[i]);
    free(t->hosts);
    for (int i = 0; t->rules && i < t->nrules; i++)
        free(t->rules[i].ranges);
    free(t->rules);
    vine__tuning_init(t);
}

/* ---- checks shared by the reader, add_rule and the writer --------------- */

/* s as a message quotes it: at most SHOWN_MAX bytes, control characters as '?'. */
static const char *shown(const char *s, char buf[SHOWN_MAX + 4])
{
    size_t k = 0;
    for (; s[k] && k < SHOWN_MAX; k++)
        buf[k] = (unsigned char)s[k] < 0x20 || s[k] == 0x7f ? '?' : s[k];
    if (s[k])
        memcpy(buf + k, "...", 4);
    else
        buf[k] = '\0';
    return buf;
}

/* "a bcast", "an allreduce": the collective's name with its article. */
static void coll_with_article(vine_coll coll, char *buf, size_t n)
{
    const char *name = vine__coll_name(coll);
    snprintf(buf, n, "%s %s", strchr("aeiou", name[0]) ? "an" : "a", name);
}

/* The message about key naming an algorithm (name) that coll does not have. */
static void not_coll_algo(const char *key, const char *name, vine_coll coll, char *msg, size_t n)
{
    char b[SHOWN_MAX + 4], c[64];
    coll_with_article(coll, c, sizeof c);
    snprintf(msg, n, "%s \"%s\" is not %s algorithm", key, shown(name, b), c);
}

/* A measured time: NAN (not given) or a finite number >= 0. */
static const char *time_problem(const char *key, double v, char *msg, size_t n)
{
    if (isnan(v))
        return NULL;
    if (v < 0)
        snprintf(msg, n, "%s %g is below 0", key, v);
    else if (!isfinite(v))
        snprintf(msg, n, "%s %g is not finite", key, v);
    else
        return NULL;
    return key;
}

/* A byte count the file can hold. */
static const char *bytes_problem(const char *key, size_t v, char *msg, size_t n)
{
    if ((unsigned long long)v <= (unsigned long long)BYTES_MAX)
        return NULL;
    snprintf(msg, n, "%s %zu is above %lld", key, v, (long long)BYTES_MAX);
    return key;
}

/*
 * The first problem of range j of r that the JSON types do not rule out:
 * writes it to msg and returns the key it is about, or NULL when none.
 */
static const char *range_problem(const vine_tune_rule *r, int j, char *msg, size_t n)
{
    const vine_tune_range *g = &r->ranges[j];
    const char *key;
    if ((key = bytes_problem("min", g->min, msg, n)) ||
        (key = bytes_problem("max", g->max, msg, n)))
        return key;
    if (g->max < g->min) {
        snprintf(msg, n, "max %zu is below min %zu", g->max, g->min);
        return "max";
    }
    if (j > 0 && g->min <= r->ranges[j - 1].max) {
        snprintf(msg, n, "min %zu is not above the previous range's max %zu", g->min,
                 r->ranges[j - 1].max);
        return "min";
    }
    if (!g->algo) {
        snprintf(msg, n, "\"algorithm\" is missing");
        return "algorithm";
    }
    if (g->algo->coll != r->coll) {
        not_coll_algo("algorithm", g->algo->name, r->coll, msg, n);
        return "algorithm";
    }
    if ((key = bytes_problem("segment", g->segment, msg, n)) ||
        (key = time_problem("median_us", g->median_us, msg, n)))
        return key;
    if (g->runner_up && g->runner_up->coll != r->coll) {
        not_coll_algo("runner_up", g->runner_up->name, r->coll, msg, n);
        return "runner_up";
    }
    return time_problem("runner_up_us", g->runner_up_us, msg, n);
}

/* The rule's own fields (a rule built in memory); 0 when fine, else -1 and the message. */
static int class_problem(const vine_tune_rule *r, int k, char *msg, size_t n)
{
    if ((int)r->coll < 0 || r->coll >= VINE_COLL_COUNT)
        snprintf(msg, n, "rules[%d]: collective %d is unknown", k, (int)r->coll);
    else if (r->p < 1)
        snprintf(msg, n, "rules[%d]: ranks %d is below 1", k, r->p);
    else if (r->p > VINE_TUNING_RANKS_MAX)
        snprintf(msg, n, "rules[%d]: ranks %d is above %d", k, r->p, VINE_TUNING_RANKS_MAX);
    else if (r->ops < VINE_TUNE_OPS_ANY || r->ops > VINE_TUNE_OPS_NONCOMMUTATIVE)
        snprintf(msg, n, "rules[%d]: ops %d is unknown", k, r->ops);
    else if (r->inplace < VINE_TUNE_INPLACE_ANY || r->inplace > VINE_TUNE_INPLACE_YES)
        snprintf(msg, n, "rules[%d]: inplace %d is unknown", k, r->inplace);
    else if (r->nranges < 1 || !r->ranges)
        snprintf(msg, n, "rules[%d]: \"ranges\" is empty", k);
    else if (r->nranges > VINE_TUNING_RANGES_MAX)
        snprintf(msg, n, "rules[%d]: \"ranges\" has %d entries, at most %d", k, r->nranges,
                 VINE_TUNING_RANGES_MAX);
    else
        return 0;
    return -1;
}

/* The first problem of r as rules[k] of a table: 0 when none, else -1 and the message. */
static int rule_problem(const vine_tune_rule *r, int k, char *msg, size_t n)
{
    if (class_problem(r, k, msg, n))
        return -1;
    char body[MSG_MAX - 64];
    for (int j = 0; j < r->nranges; j++)
        if (range_problem(r, j, body, sizeof body)) {
            snprintf(msg, n, "rules[%d].ranges[%d]: %s", k, j, body);
            return -1;
        }
    return 0;
}

/* The index of the first of t's first n rules with r's collective, size and class, or -1. */
static int same_rule(const vine_tuning *t, int n, const vine_tune_rule *r)
{
    for (int i = 0; i < n; i++) {
        const vine_tune_rule *q = &t->rules[i];
        if (q->coll == r->coll && q->p == r->p && q->ops == r->ops && q->inplace == r->inplace)
            return i;
    }
    return -1;
}

/* "allreduce on 16 ranks (ops commutative, inplace any)". */
static void rule_name(const vine_tune_rule *r, char *buf, size_t n)
{
    snprintf(buf, n, "%s on %d ranks (ops %s, inplace %s)", vine__coll_name(r->coll), r->p,
             vine__tuning_ops_name(r->ops), vine__tuning_inplace_name(r->inplace));
}

/* Rules[k] (r) against t's first n rules: 0 when new, else -1 and the message. */
static int dup_problem(const vine_tuning *t, int n, int k, const vine_tune_rule *r, char *msg,
                       size_t len)
{
    int i = same_rule(t, n, r);
    if (i < 0)
        return 0;
    char name[128];
    rule_name(r, name, sizeof name);
    snprintf(msg, len, "rules[%d]: %s named twice, first as rules[%d]", k, name, i);
    return -1;
}

/* ---- the reader ----------------------------------------------------------- */

typedef struct parser {
    const char *name; /* the file, for messages */
    char *err;
    size_t errlen;
} parser;

/* A JSON object being read: where it starts and how messages name it ("rules[2]: " or ""). */
typedef struct node {
    const parser *ps;
    json_t *o;
    vine_jsonpos pos;
    const char *where;
} node;

/* Writes "FILE:LINE: " and the message into the error; VINE_ERR_UNSUPPORTED. */
static int fail_at(const parser *ps, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static int fail_at(const parser *ps, int line, const char *fmt, ...)
{
    char msg[MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return vine__errmsg(ps->err, ps->errlen, "%s:%d: %s", ps->name, line, msg);
}

static int out_of_memory(const char *name, char *err, size_t errlen)
{
    vine__errmsg(err, errlen, "%s: out of memory", name);
    return VINE_ERR_NO_MEM;
}

/* The line of key's value in n, or of n itself when the key is absent. */
static int line_of(const node *n, const char *key)
{
    vine_jsonpos v;
    return vine__jsonpos_key(&n->pos, key, &v) == 0 ? v.line : n->pos.line;
}

/* The line of element i of the array under key in n (n's line when not found). */
static int element_line(const node *n, const char *key, size_t i)
{
    vine_jsonpos a, v;
    if (vine__jsonpos_key(&n->pos, key, &a) || vine__jsonpos_index(&a, i, &v))
        return n->pos.line;
    return v.line;
}

/* Key's value in n into *v (NULL when absent); a message when it is required and absent. */
static int get(const node *n, const char *key, int required, json_t **v)
{
    *v = json_object_get(n->o, key);
    if (!*v && required)
        return fail_at(n->ps, n->pos.line, "%s\"%s\" is missing", n->where, key);
    return VINE_OK;
}

static int not_a(const node *n, const char *key, const char *what)
{
    return fail_at(n->ps, line_of(n, key), "%s\"%s\" is not %s", n->where, key, what);
}

/* An integer in lo..hi into *v (unchanged when absent and optional). */
static int get_int(const node *n, const char *key, int required, long long lo, long long hi,
                   long long *v)
{
    json_t *x;
    int rc = get(n, key, required, &x);
    if (rc || !x)
        return rc;
    if (!json_is_integer(x))
        return not_a(n, key, "an integer");
    long long i = (long long)json_integer_value(x);
    if (i < lo)
        return fail_at(n->ps, line_of(n, key), "%s%s %lld is below %lld", n->where, key, i, lo);
    if (i > hi)
        return fail_at(n->ps, line_of(n, key), "%s%s %lld is above %lld", n->where, key, i, hi);
    *v = i;
    return VINE_OK;
}

/* An optional number in lo..hi into *v (unchanged when absent). */
static int get_num(const node *n, const char *key, double lo, double hi, double *v)
{
    json_t *x = json_object_get(n->o, key);
    if (!x)
        return VINE_OK;
    if (!json_is_number(x))
        return not_a(n, key, "a number");
    double d = json_number_value(x);
    if (d < lo)
        return fail_at(n->ps, line_of(n, key), "%s%s %g is below %g", n->where, key, d, lo);
    if (d > hi)
        return fail_at(n->ps, line_of(n, key), "%s%s %g is above %g", n->where, key, d, hi);
    *v = d;
    return VINE_OK;
}

/* A string into *s (unchanged when absent and optional). */
static int get_str(const node *n, const char *key, int required, const char **s)
{
    json_t *x;
    int rc = get(n, key, required, &x);
    if (rc || !x)
        return rc;
    if (!json_is_string(x))
        return not_a(n, key, "a string");
    *s = json_string_value(x);
    return VINE_OK;
}

/* An optional header text into buf (VINE_TUNING_TEXT_MAX bytes). */
static int get_text(const node *n, const char *key, char *buf)
{
    const char *s = NULL;
    int rc = get_str(n, key, 0, &s);
    if (rc || !s)
        return rc;
    size_t len = strlen(s);
    if (len >= VINE_TUNING_TEXT_MAX)
        return fail_at(n->ps, line_of(n, key), "%s\"%s\" is longer than %d bytes", n->where, key,
                       VINE_TUNING_TEXT_MAX - 1);
    memcpy(buf, s, len + 1);
    return VINE_OK;
}

/* An array of at most max entries into *a (NULL when absent and optional). */
static int get_array(const node *n, const char *key, int required, size_t max, json_t **a)
{
    int rc = get(n, key, required, a);
    if (rc || !*a)
        return rc;
    if (!json_is_array(*a))
        return not_a(n, key, "an array");
    if (json_array_size(*a) > max)
        return fail_at(n->ps, line_of(n, key), "%s\"%s\" has %zu entries, at most %zu", n->where,
                       key, json_array_size(*a), max);
    return VINE_OK;
}

/* The object under key of n (present) as a node named where; a message when not an object. */
static int get_object(const node *n, const char *key, const char *where, node *out)
{
    json_t *x = json_object_get(n->o, key);
    if (!json_is_object(x))
        return not_a(n, key, "an object");
    *out = (node){n->ps, x, n->pos, where};
    vine__jsonpos_key(&n->pos, key, &out->pos);
    return VINE_OK;
}

/* A message when n has a key outside the NULL-terminated list known. */
static int check_keys(const node *n, const char *const *known)
{
    const char *key;
    json_t *v;
    json_object_foreach(n->o, key, v)
    {
        if (name_index(known, key) < 0) {
            char b[SHOWN_MAX + 4];
            return fail_at(n->ps, line_of(n, key), "%sunknown key \"%s\"", n->where, shown(key, b));
        }
    }
    return VINE_OK;
}

static int parse_hosts(const node *m, vine_tuning *t)
{
    json_t *a;
    int rc = get_array(m, "hosts", 0, VINE_TUNING_HOSTS_MAX, &a);
    if (rc || !a || json_array_size(a) == 0)
        return rc;
    size_t n = json_array_size(a);
    if (!(t->hosts = calloc(n, sizeof *t->hosts)))
        return out_of_memory(m->ps->name, m->ps->err, m->ps->errlen);
    for (size_t i = 0; i < n; i++) {
        json_t *h = json_array_get(a, i);
        if (!json_is_string(h))
            return fail_at(m->ps, element_line(m, "hosts", i),
                           "machine: hosts[%zu] is not a string", i);
        if (json_string_length(h) >= VINE_TUNING_TEXT_MAX)
            return fail_at(m->ps, element_line(m, "hosts", i),
                           "machine: hosts[%zu] is longer than %d bytes", i,
                           VINE_TUNING_TEXT_MAX - 1);
        if (!(t->hosts[i] = strdup(json_string_value(h))))
            return out_of_memory(m->ps->name, m->ps->err, m->ps->errlen);
        t->nhosts++;
    }
    return VINE_OK;
}

static int parse_machine(const node *top, vine_tuning *t)
{
    static const char *const known[] = {"hosts", "ranks", "ranks_per_node", "cores", NULL};
    if (!json_object_get(top->o, "machine"))
        return VINE_OK;
    node m;
    long long ranks = 0, rpn = 0, cores = 0;
    int rc = get_object(top, "machine", "machine: ", &m);
    if (!rc)
        rc = check_keys(&m, known);
    if (!rc)
        rc = parse_hosts(&m, t);
    if (!rc)
        rc = get_int(&m, "ranks", 0, 1, VINE_TUNING_RANKS_MAX, &ranks);
    if (!rc)
        rc = get_int(&m, "ranks_per_node", 0, 1, VINE_TUNING_RANKS_MAX, &rpn);
    if (!rc)
        rc = get_int(&m, "cores", 0, 1, VINE_TUNING_RANKS_MAX, &cores);
    t->ranks = (int)ranks;
    t->ranks_per_node = (int)rpn;
    t->cores = (int)cores;
    return rc;
}

/* The cost parameters of the model object, read by cost.c (its messages after "model: "). */
static int model_cost(const node *m, vine_cost *c)
{
    json_t *o = json_copy(m->o);
    if (!o)
        return out_of_memory(m->ps->name, m->ps->err, m->ps->errlen);
    json_object_del(o, "cases");
    json_object_del(o, "agreement");
    json_object_del(o, "median_error");
    char msg[MSG_MAX];
    vine__cost_defaults(c);
    int rc = vine__cost_from_json(o, c, "model", msg, sizeof msg);
    json_decref(o);
    return rc ? fail_at(m->ps, m->pos.line, "%s", msg) : VINE_OK;
}

static int parse_model(const node *top, vine_tuning *t)
{
    static const char *const known[] = {"gamma",     "levels",       "shm", "cases",
                                        "agreement", "median_error", NULL};
    if (!json_object_get(top->o, "model"))
        return VINE_OK;
    node m;
    long long cases = 0;
    vine_tune_model *md = &t->model;
    int rc = get_object(top, "model", "model: ", &m);
    if (!rc)
        rc = check_keys(&m, known);
    if (!rc)
        rc = model_cost(&m, &md->cost);
    if (!rc)
        rc = get_int(&m, "cases", 0, 0, INT_MAX, &cases);
    if (!rc)
        rc = get_num(&m, "agreement", 0, 1, &md->agreement);
    if (!rc)
        rc = get_num(&m, "median_error", 0, INFINITY, &md->median_error);
    md->cases = (int)cases;
    md->present = rc == VINE_OK;
    return rc;
}

/* The algorithm of r's collective named by key (when present) into *algo. */
static int get_algo(const node *n, const char *key, int required, vine_coll coll,
                    const vine_algo **algo)
{
    const char *name = NULL;
    int rc = get_str(n, key, required, &name);
    if (rc || !name)
        return rc;
    if (!(*algo = vine__algo_find(coll, name))) {
        char msg[MSG_MAX];
        not_coll_algo(key, name, coll, msg, sizeof msg);
        return fail_at(n->ps, line_of(n, key), "%s%s", n->where, msg);
    }
    return VINE_OK;
}

/* Range j of r (its first j ranges read) from x, which starts at pos. */
static int parse_range(const node *rule, size_t i, size_t j, json_t *x, vine_jsonpos pos,
                       vine_tune_rule *r)
{
    static const char *const known[] = {"min",       "max",       "algorithm",    "segment",
                                        "median_us", "runner_up", "runner_up_us", NULL};
    char where[64], msg[MSG_MAX];
    if (!json_is_object(x))
        return fail_at(rule->ps, pos.line, "rules[%zu].ranges[%zu] is not an object", i, j);
    snprintf(where, sizeof where, "rules[%zu].ranges[%zu]: ", i, j);
    node n = {rule->ps, x, pos, where};
    vine_tune_range *g = &r->ranges[j];
    long long min = 0, max = 0, seg = 0;
    *g = (vine_tune_range){.median_us = NAN, .runner_up_us = NAN, .line = pos.line};
    int rc = check_keys(&n, known);
    if (!rc)
        rc = get_int(&n, "min", 1, 0, BYTES_MAX, &min);
    if (!rc)
        rc = get_int(&n, "max", 1, 0, BYTES_MAX, &max);
    if (!rc)
        rc = get_algo(&n, "algorithm", 1, r->coll, &g->algo);
    if (!rc)
        rc = get_int(&n, "segment", 0, 0, BYTES_MAX, &seg);
    if (!rc)
        rc = get_num(&n, "median_us", 0, INFINITY, &g->median_us);
    if (!rc)
        rc = get_algo(&n, "runner_up", 0, r->coll, &g->runner_up);
    if (!rc)
        rc = get_num(&n, "runner_up_us", 0, INFINITY, &g->runner_up_us);
    if (rc)
        return rc;
    g->min = (size_t)min;
    g->max = (size_t)max;
    g->segment = (size_t)seg;
    const char *key = range_problem(r, (int)j, msg, sizeof msg);
    return key ? fail_at(n.ps, line_of(&n, key), "%s%s", where, msg) : VINE_OK;
}

/* The ranges of rule i (n) into r->ranges, walked in the order of the text. */
static int parse_ranges(const node *n, size_t i, vine_tune_rule *r)
{
    json_t *a;
    int rc = get_array(n, "ranges", 1, VINE_TUNING_RANGES_MAX, &a);
    if (rc)
        return rc;
    size_t m = json_array_size(a);
    if (m == 0)
        return fail_at(n->ps, line_of(n, "ranges"), "%s\"ranges\" is empty", n->where);
    if (!(r->ranges = calloc(m, sizeof *r->ranges)))
        return out_of_memory(n->ps->name, n->ps->err, n->ps->errlen);
    vine_jsonpos apos = n->pos, pos = n->pos;
    if (vine__jsonpos_key(&n->pos, "ranges", &apos) == 0)
        vine__jsonpos_index(&apos, 0, &pos);
    for (size_t j = 0; j < m; j++) {
        if (j)
            vine__jsonpos_next(&pos, &pos);
        if ((rc = parse_range(n, i, j, json_array_get(a, j), pos, r)))
            return rc;
        r->nranges++;
    }
    return VINE_OK;
}

/* The collective, size and class of rule n into r. */
static int parse_class(const node *n, vine_tune_rule *r)
{
    const char *coll = NULL, *ops = "any", *inplace = "any";
    char b[SHOWN_MAX + 4];
    long long p = 0;
    int c = -1, rc = get_str(n, "collective", 1, &coll);
    if (!rc && (c = vine__coll_parse(coll)) < 0)
        rc = fail_at(n->ps, line_of(n, "collective"), "%scollective \"%s\" is unknown", n->where,
                     shown(coll, b));
    if (!rc)
        rc = get_int(n, "ranks", 1, 1, VINE_TUNING_RANKS_MAX, &p);
    if (!rc)
        rc = get_str(n, "ops", 0, &ops);
    if (!rc && (r->ops = name_index(ops_names, ops)) < 0)
        rc = fail_at(n->ps, line_of(n, "ops"),
                     "%sops \"%s\" is not \"any\", \"commutative\" or \"noncommutative\"", n->where,
                     shown(ops, b));
    if (!rc)
        rc = get_str(n, "inplace", 0, &inplace);
    if (!rc && (r->inplace = name_index(inplace_names, inplace)) < 0)
        rc = fail_at(n->ps, line_of(n, "inplace"),
                     "%sinplace \"%s\" is not \"any\", \"no\" or \"yes\"", n->where,
                     shown(inplace, b));
    r->coll = (vine_coll)(c < 0 ? 0 : c);
    r->p = (int)p;
    return rc;
}

/* Rule i from x, which starts at pos, appended to t->rules (room for it allocated). */
static int parse_rule(const parser *ps, size_t i, json_t *x, vine_jsonpos pos, vine_tuning *t)
{
    static const char *const known[] = {"collective", "ranks", "ops", "inplace", "ranges", NULL};
    if (!json_is_object(x))
        return fail_at(ps, pos.line, "rules[%zu] is not an object", i);
    char where[48], name[128];
    snprintf(where, sizeof where, "rules[%zu]: ", i);
    node n = {ps, x, pos, where};
    vine_tune_rule r = {.line = pos.line};
    int rc = check_keys(&n, known);
    if (!rc)
        rc = parse_class(&n, &r);
    if (!rc)
        rc = parse_ranges(&n, i, &r);
    int first = rc ? -1 : same_rule(t, t->nrules, &r);
    if (first >= 0) {
        rule_name(&r, name, sizeof name);
        rc = fail_at(ps, pos.line, "%s%s named twice, first at line %d", where, name,
                     t->rules[first].line);
    }
    if (rc) {
        free(r.ranges);
        return rc;
    }
    t->rules[t->nrules++] = r;
    link_rule(t, t->nrules - 1);
    return VINE_OK;
}

static int parse_rules(const node *top, vine_tuning *t)
{
    json_t *a;
    int rc = get_array(top, "rules", 1, VINE_TUNING_RULES_MAX, &a);
    if (rc || json_array_size(a) == 0)
        return rc;
    size_t n = json_array_size(a);
    if (!(t->rules = calloc(n, sizeof *t->rules)))
        return out_of_memory(top->ps->name, top->ps->err, top->ps->errlen);
    vine_jsonpos apos = top->pos, pos = top->pos;
    if (vine__jsonpos_key(&top->pos, "rules", &apos) == 0)
        vine__jsonpos_index(&apos, 0, &pos);
    for (size_t i = 0; i < n; i++) {
        if (i)
            vine__jsonpos_next(&pos, &pos);
        if ((rc = parse_rule(top->ps, i, json_array_get(a, i), pos, t)))
            return rc;
    }
    return VINE_OK;
}

/* "schema" and "version" first, so that another kind of file or version says so. */
static int parse_header(const node *top, vine_tuning *t)
{
    static const char *const known[] = {"schema",  "version", "vine_version", "date", "mpi_library",
                                        "machine", "model",   "rules",        NULL};
    const char *schema = NULL;
    long long version = 0;
    char b[SHOWN_MAX + 4];
    int rc = get_str(top, "schema", 1, &schema);
    if (!rc && strcmp(schema, SCHEMA) != 0)
        rc = fail_at(top->ps, line_of(top, "schema"), "schema \"%s\" is not \"%s\"",
                     shown(schema, b), SCHEMA);
    if (!rc)
        rc = get_int(top, "version", 1, LLONG_MIN, LLONG_MAX, &version);
    if (!rc && version != VINE_TUNING_VERSION)
        rc = fail_at(top->ps, line_of(top, "version"),
                     "version %lld is not supported (this vine reads version %d)", version,
                     VINE_TUNING_VERSION);
    if (!rc)
        rc = check_keys(top, known);
    if (!rc)
        rc = get_text(top, "vine_version", t->vine_version);
    if (!rc)
        rc = get_text(top, "date", t->date);
    if (!rc)
        rc = get_text(top, "mpi_library", t->mpi_library);
    return rc;
}

/* The message of a file jansson refused. */
static int syntax_error(const parser *ps, const json_error_t *je)
{
    if (json_error_code(je) == json_error_out_of_memory)
        return out_of_memory(ps->name, ps->err, ps->errlen);
    if (je->line > 0)
        return vine__errmsg(ps->err, ps->errlen, "%s:%d: %s", ps->name, je->line, je->text);
    return vine__errmsg(ps->err, ps->errlen, "%s: %s", ps->name, je->text);
}

int vine__tuning_parse(vine_tuning *t, const char *text, size_t len, const char *name, char *err,
                       size_t errlen)
{
    vine__tuning_free(t);
    parser ps = {name ? name : "(tuning)", err, errlen};
    if (!text) {
        text = "";
        len = 0;
    }
    json_error_t je;
    json_t *o = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    if (!o)
        return syntax_error(&ps, &je);
    node top = {&ps, o, vine__jsonpos_root(text, len), ""};
    int rc = VINE_OK;
    if (!json_is_object(o))
        rc = fail_at(&ps, top.pos.line, "the top level is not an object");
    if (!rc)
        rc = parse_header(&top, t);
    if (!rc)
        rc = parse_machine(&top, t);
    if (!rc)
        rc = parse_model(&top, t);
    if (!rc)
        rc = parse_rules(&top, t);
    json_decref(o);
    if (rc)
        vine__tuning_free(t);
    return rc;
}

/* The whole file at path into a malloc'ed buffer. */
static int read_file(const char *path, char **text, size_t *len, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return vine__errmsg(err, errlen, "%s: cannot open: %s", path, strerror(errno));
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
        n += got;
        char *b = n < cap ? buf : cap > SIZE_MAX / 2 ? NULL : realloc(buf, cap *= 2);
        if (!b)
            free(buf);
        buf = b;
    }
    int bad = ferror(f), e = errno;
    fclose(f);
    if (!buf)
        return out_of_memory(path, err, errlen);
    if (bad) {
        free(buf);
        return vine__errmsg(err, errlen, "%s: cannot read: %s", path, strerror(e));
    }
    *text = buf;
    *len = n;
    return VINE_OK;
}

int vine__tuning_load(vine_tuning *t, const char *path, char *err, size_t errlen)
{
    char *text = NULL;
    size_t len = 0;
    vine__tuning_free(t);
    int rc = read_file(path, &text, &len, err, errlen);
    if (rc)
        return rc;
    rc = vine__tuning_parse(t, text, len, path, err, errlen);
    free(text);
    return rc;
}

/* ---- the writer ------------------------------------------------------------ */

/* Medians are written to 1 ns (3 decimals of a microsecond), so files stay readable. */
static json_t *median_json(double us)
{
    return json_real(fabs(us) < 1e12 ? round(us * 1000) / 1000 : us);
}

static json_t *range_json(const vine_tune_range *g)
{
    json_t *o = json_object();
    if (!o)
        return NULL;
    int bad = json_object_set_new(o, "min", json_integer((json_int_t)g->min));
    bad |= json_object_set_new(o, "max", json_integer((json_int_t)g->max));
    bad |= json_object_set_new(o, "algorithm", json_string(g->algo->name));
    if (g->segment)
        bad |= json_object_set_new(o, "segment", json_integer((json_int_t)g->segment));
    if (!isnan(g->median_us))
        bad |= json_object_set_new(o, "median_us", median_json(g->median_us));
    if (g->runner_up)
        bad |= json_object_set_new(o, "runner_up", json_string(g->runner_up->name));
    if (!isnan(g->runner_up_us))
        bad |= json_object_set_new(o, "runner_up_us", median_json(g->runner_up_us));
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static json_t *rule_json(const vine_tune_rule *r)
{
    json_t *o = json_object(), *ranges = json_array();
    int bad = !o || !ranges;
    for (int j = 0; !bad && j < r->nranges; j++)
        bad = json_array_append_new(ranges, range_json(&r->ranges[j]));
    if (!bad) {
        bad |= json_object_set_new(o, "collective", json_string(vine__coll_name(r->coll)));
        bad |= json_object_set_new(o, "ranks", json_integer(r->p));
        bad |= json_object_set_new(o, "ops", json_string(vine__tuning_ops_name(r->ops)));
        bad |=
            json_object_set_new(o, "inplace", json_string(vine__tuning_inplace_name(r->inplace)));
        bad |= json_object_set_new(o, "ranges", ranges);
        ranges = NULL;
    }
    json_decref(ranges);
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

/* Text s (what names it in messages) as a JSON string into *v; -1 with a message. */
static int text_json(const char *s, const char *what, json_t **v, char *msg, size_t n)
{
    size_t len = s ? strlen(s) : 0;
    if (!s)
        snprintf(msg, n, "%s is not a string", what);
    else if (len >= VINE_TUNING_TEXT_MAX)
        snprintf(msg, n, "%s is longer than %d bytes", what, VINE_TUNING_TEXT_MAX - 1);
    else if (!(*v = json_stringn(s, len)))
        snprintf(msg, n, "%s is not valid UTF-8", what);
    else
        return 0;
    return -1;
}

/* The header's text key, unless empty; -1 with a message. */
static int put_text(json_t *o, const char *key, const char *s, char *msg, size_t n)
{
    char what[32];
    json_t *v;
    snprintf(what, sizeof what, "\"%s\"", key);
    if (strnlen(s, VINE_TUNING_TEXT_MAX) == VINE_TUNING_TEXT_MAX) {
        snprintf(msg, n, "%s is longer than %d bytes", what, VINE_TUNING_TEXT_MAX - 1);
        return -1;
    }
    if (!s[0])
        return 0;
    if (text_json(s, what, &v, msg, n))
        return -1;
    json_object_set_new(o, key, v);
    return 0;
}

/* A machine count, unless 0 (not given); -1 with a message. */
static int put_count(json_t *o, const char *key, int v, char *msg, size_t n)
{
    if (v < 0 || v > VINE_TUNING_RANKS_MAX) {
        snprintf(msg, n, "machine: %s %d is %s %d", key, v, v < 0 ? "below" : "above",
                 v < 0 ? 0 : VINE_TUNING_RANKS_MAX);
        return -1;
    }
    if (v)
        json_object_set_new(o, key, json_integer(v));
    return 0;
}

static int machine_json(const vine_tuning *t, json_t *top, char *msg, size_t n)
{
    json_t *m = json_object(), *hosts = json_array();
    int bad = 0;
    if (t->nhosts > VINE_TUNING_HOSTS_MAX) {
        snprintf(msg, n, "machine: \"hosts\" has %d entries, at most %d", t->nhosts,
                 VINE_TUNING_HOSTS_MAX);
        bad = -1;
    }
    for (int i = 0; !bad && i < t->nhosts; i++) {
        char what[48];
        json_t *v;
        snprintf(what, sizeof what, "machine: hosts[%d]", i);
        if (!(bad = text_json(t->hosts ? t->hosts[i] : NULL, what, &v, msg, n)))
            json_array_append_new(hosts, v);
    }
    if (!bad && t->nhosts > 0)
        json_object_set_new(m, "hosts", json_incref(hosts));
    if (!bad)
        bad = put_count(m, "ranks", t->ranks, msg, n) ||
              put_count(m, "ranks_per_node", t->ranks_per_node, msg, n) ||
              put_count(m, "cores", t->cores, msg, n);
    if (!bad && json_object_size(m) > 0)
        json_object_set(top, "machine", m);
    json_decref(hosts);
    json_decref(m);
    return bad ? -1 : 0;
}

/* The model's statistics, each unless unset (0 cases, NAN). */
static int model_stats(const vine_tune_model *md, json_t *m, char *msg, size_t n)
{
    if (md->cases < 0) {
        snprintf(msg, n, "model: cases %d is below 0", md->cases);
        return -1;
    }
    if (md->agreement > 1) {
        snprintf(msg, n, "model: agreement %g is above 1", md->agreement);
        return -1;
    }
    char body[MSG_MAX - 16];
    if (time_problem("agreement", md->agreement, body, sizeof body) ||
        time_problem("median_error", md->median_error, body, sizeof body)) {
        snprintf(msg, n, "model: %s", body);
        return -1;
    }
    if (md->cases > 0)
        json_object_set_new(m, "cases", json_integer(md->cases));
    if (!isnan(md->agreement))
        json_object_set_new(m, "agreement", json_real(md->agreement));
    if (!isnan(md->median_error))
        json_object_set_new(m, "median_error", json_real(md->median_error));
    return 0;
}

/* The model, checked by cost.c's own reader so that the file loads back. */
static int model_json(const vine_tune_model *md, json_t *top, char *msg, size_t n)
{
    if (!md->present)
        return 0;
    json_t *m = vine__cost_to_json(&md->cost);
    vine_cost back;
    vine__cost_defaults(&back);
    if (!m) {
        snprintf(msg, n, "model: the cost parameters are not finite or not 1 to %d levels",
                 VINE_COST_CLASSES);
        return -1;
    }
    int bad = vine__cost_from_json(m, &back, "model", msg, n) ? -1 : model_stats(md, m, msg, n);
    if (!bad)
        json_object_set(top, "model", m);
    json_decref(m);
    return bad;
}

/* Every rule checked as add_rule checks it, then written. */
static int rules_json(const vine_tuning *t, json_t *top, char *msg, size_t n)
{
    if (t->nrules > VINE_TUNING_RULES_MAX) {
        snprintf(msg, n, "\"rules\" has %d entries, at most %d", t->nrules, VINE_TUNING_RULES_MAX);
        return -1;
    }
    for (int i = 0; i < t->nrules; i++)
        if (rule_problem(&t->rules[i], i, msg, n) || dup_problem(t, i, i, &t->rules[i], msg, n))
            return -1;
    json_t *rules = json_array();
    int bad = !rules;
    for (int i = 0; !bad && i < t->nrules; i++)
        bad = json_array_append_new(rules, rule_json(&t->rules[i]));
    if (bad) {
        json_decref(rules);
        return VINE_ERR_NO_MEM;
    }
    json_object_set_new(top, "rules", rules);
    return 0;
}

/* The file's JSON into *out: VINE_OK, VINE_ERR_UNSUPPORTED with msg, or VINE_ERR_NO_MEM. */
static int table_json(const vine_tuning *t, json_t **out, char *msg, size_t n)
{
    json_t *o = json_object();
    if (!o)
        return VINE_ERR_NO_MEM;
    json_object_set_new(o, "schema", json_string(SCHEMA));
    json_object_set_new(o, "version", json_integer(VINE_TUNING_VERSION));
    int bad = put_text(o, "vine_version", t->vine_version, msg, n) ||
              put_text(o, "date", t->date, msg, n) ||
              put_text(o, "mpi_library", t->mpi_library, msg, n) || machine_json(t, o, msg, n) ||
              model_json(&t->model, o, msg, n);
    int rc = bad ? -1 : rules_json(t, o, msg, n);
    if (rc < 0)
        rc = VINE_ERR_UNSUPPORTED;
    if (rc)
        json_decref(o);
    else
        *out = o;
    return rc;
}

static int write_text(const char *path, const char *s, char *err, size_t errlen)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return vine__errmsg(err, errlen, "%s: cannot write: %s", path, strerror(errno));
    int bad = fputs(s, f) == EOF || fputc('\n', f) == EOF;
    int e = errno;
    if (fclose(f) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    if (bad)
        return vine__errmsg(err, errlen, "%s: cannot write: %s", path, strerror(e));
    return VINE_OK;
}

int vine__tuning_save(const vine_tuning *t, const char *path, char *err, size_t errlen)
{
    char msg[MSG_MAX];
    json_t *o = NULL;
    int rc = table_json(t, &o, msg, sizeof msg);
    if (rc == VINE_ERR_NO_MEM)
        return out_of_memory(path, err, errlen);
    if (rc)
        return vine__errmsg(err, errlen, "%s: %s", path, msg);
    char *s = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15));
    json_decref(o);
    if (!s)
        return out_of_memory(path, err, errlen);
    rc = write_text(path, s, err, errlen);
    free(s);
    return rc;
}

/* ---- building a table ------------------------------------------------------ */

int vine__tuning_add_rule(vine_tuning *t, const vine_tune_rule *r, char *err, size_t errlen)
{
    char msg[MSG_MAX];
    int k = t->nrules;
    if (k >= VINE_TUNING_RULES_MAX)
        return vine__errmsg(err, errlen, "rules[%d]: a table holds at most %d rules", k,
                            VINE_TUNING_RULES_MAX);
    if (rule_problem(r, k, msg, sizeof msg) || dup_problem(t, k, k, r, msg, sizeof msg))
        return vine__errmsg(err, errlen, "%s", msg);
    vine_tune_range *g = malloc((size_t)r->nranges * sizeof *g);
    vine_tune_rule *rules = g ? realloc(t->rules, (size_t)(k + 1) * sizeof *rules) : NULL;
    if (!rules) {
        free(g);
        vine__errmsg(err, errlen, "out of memory");
        return VINE_ERR_NO_MEM;
    }
    memcpy(g, r->ranges, (size_t)r->nranges * sizeof *g);
    t->rules = rules;
    t->rules[k] = *r;
    t->rules[k].ranges = g;
    t->nrules = k + 1;
    link_rule(t, k);
    return VINE_OK;
}

int vine__tuning_merge(const vine_tune_point *pts, int n, vine_tune_range **out, int *nout)
{
    *out = NULL;
    *nout = 0;
    if (n <= 0 || !pts)
        return VINE_OK;
    vine_tune_range *g = malloc((size_t)n * sizeof *g);
    if (!g)
        return VINE_ERR_NO_MEM;
    int k = 0;
    for (int i = 0; i < n; i++) {
        const vine_tune_point *q = &pts[i];
        if (k > 0 && g[k - 1].algo == q->algo && g[k - 1].segment == q->segment) {
            g[k - 1].max = q->bytes;
            continue;
        }
        g[k++] = (vine_tune_range){q->bytes,     q->bytes,     q->algo,         q->segment,
                                   q->median_us, q->runner_up, q->runner_up_us, 0};
    }
    *out = g;
    *nout = k;
    return VINE_OK;
}

/* ---- lookup ------------------------------------------------------------------ */

/* How a rule's class value fits a call's exact class: 0 exactly, 1 as "any" (0), -1 not. */
static int class_fit(int rule, int exact)
{
    return rule == exact ? 0 : rule == 0 ? 1 : -1;
}

/* a and p within a factor of 2 of each other. */
static int within2(long long a, long long p)
{
    return a <= 2 * p && p <= 2 * a;
}

/*
 * 1 when a is nearer to p than b on a log scale: the ratios max / min are
 * compared crosswise in integers (both sizes are within a factor of 2 of p,
 * so the products stay below 2^63); a tie goes to the smaller size.
 */
static int nearer(long long a, long long b, long long p)
{
    unsigned long long ha = (unsigned long long)(a > p ? a : p),
                       la = (unsigned long long)(a > p ? p : a);
    unsigned long long hb = (unsigned long long)(b > p ? b : p),
                       lb = (unsigned long long)(b > p ? p : b);
    unsigned long long x = ha * lb, y = hb * la;
    return x < y || (x == y && a < b);
}

const vine_tune_rule *vine__tuning_rule(const vine_tuning *t, vine_coll coll, int p,
                                        int commutative, int inplace)
{
    const vine_tune_rule *best = NULL;
    int best_fit = 0;
    if (!t || p < 1)
        return NULL;
    int ops = commutative ? VINE_TUNE_OPS_COMMUTATIVE : VINE_TUNE_OPS_NONCOMMUTATIVE;
    int inp = inplace ? VINE_TUNE_INPLACE_YES : VINE_TUNE_INPLACE_NO;
    if ((int)coll < 0 || coll >= VINE_COLL_COUNT)
        return NULL;
    for (int i = t->first[coll] - 1; i >= 0; i = t->rules[i].next - 1) {
        const vine_tune_rule *r = &t->rules[i];
        int fo = class_fit(r->ops, ops), fi = class_fit(r->inplace, inp);
        if (fo < 0 || fi < 0 || r->nranges < 1 || !within2(r->p, p))
            continue;
        int fit = 2 * fo + fi;
        if (!best || fit < best_fit || (fit == best_fit && nearer(r->p, best->p, p))) {
            best = r;
            best_fit = fit;
        }
    }
    return best;
}

const vine_tune_range *vine__tuning_range(const vine_tune_rule *r, size_t bytes)
{
    if (!r || r->nranges < 1 || !r->ranges)
        return NULL;
    /* The first range whose min is above bytes: the one before it serves. */
    int lo = 0, hi = r->nranges;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (r->ranges[mid].min <= bytes)
            lo = mid + 1;
        else
            hi = mid;
    }
    return &r->ranges[lo > 0 ? lo - 1 : 0];
}

static size_t mul_sat(size_t a, size_t b)
{
    return b && a > SIZE_MAX / b ? SIZE_MAX : a * b;
}

/*
 * allgatherv's mean block: the sum of the p entries of rcounts over p,
 * rounded down, in the table's unit (bytes at run time, where the API passes
 * the tables in bytes with a byte type); count without a table.  Every rank
 * holds the whole table, so every rank computes the same size.
 */
static size_t mean_block(const vine_args *a)
{
    if (!a->rcounts || a->p < 1)
        return a->count;
    size_t sum = 0, np = (size_t)a->p;
    for (size_t i = 0; i < np; i++)
        sum = a->rcounts[i] > SIZE_MAX - sum ? SIZE_MAX : sum + a->rcounts[i];
    return sum / np;
}

size_t vine__tuning_bytes(const vine_args *a, size_t type_size)
{
    switch (a->coll) {
    case VINE_COLL_BARRIER:
    /* Each rank of these knows its own sizes only: a size-keyed choice could
     * differ between ranks, so every call counts 0 (a rule's first range). */
    case VINE_COLL_ALLTOALLV:
    case VINE_COLL_ALLTOALLW:
    case VINE_COLL_GATHERV:
    case VINE_COLL_SCATTERV:
        return 0;
    case VINE_COLL_ALLGATHERV:
        return mul_sat(mean_block(a), type_size);
    case VINE_COLL_REDUCE_SCATTER:
        if (a->p < 1)
            return 0;
        return mul_sat((a->displs ? a->displs[a->p] : a->count) / (size_t)a->p, type_size);
    default:
        return mul_sat(a->count, type_size);
    }
}
