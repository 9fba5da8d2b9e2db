/*
 * Slurm hostlist expressions (MPI-free), as Slurm writes them in
 * topology.conf, SLURM_JOB_NODELIST and `scontrol show hostlist`:
 *
 *   list   := item { sep item }        sep: ',' or white space outside brackets
 *   item   := { text | '[' ranges ']' } at least one character
 *   ranges := range { ',' range }
 *   range  := NUM | NUM '-' NUM        (NUM: at most 18 decimal digits)
 *
 * "node[001-004,010],gpu7" is node001 .. node004, node010, gpu7: a range whose
 * first number has a leading zero keeps its width (zero padding), so
 * "[08-10]" gives 08 09 10 and "[8-10]" gives 8 9 10.  Several brackets in
 * one item give every combination, the leftmost varying slowest:
 * "rack[1-2]n[01-02]" is rack1n01 rack1n02 rack2n01 rack2n02.  Names come out
 * in the order written; duplicates are kept (callers decide).  Anything else
 * (unbalanced or nested brackets, an empty item or range, lo > hi, more than
 * VINE_HOSTLIST_MAX names) is refused with a message.  Cost: linear in the
 * expression and the names produced.
 */
#include "topo.h"
#include "topo_read_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Six times the largest machine's node count (Fugaku: 158,976); a list of
 * 4M names took 5 s and over 1 GB, which a typo should not cost. */
#define VINE_HOSTLIST_MAX (1 << 20)
#define NUM_MAX_DIGITS 18

typedef struct hl_range {
    uint64_t lo, hi;
    int width; /* minimum digits (zero padding) */
} hl_range;

/* One part of an item: a literal text, or a bracket of ranges. */
typedef struct hl_seg {
    const char *lit;
    size_t litlen;
    hl_range *r;
    int nr;
    uint64_t count; /* values in the bracket (1 for a literal) */
} hl_seg;

typedef struct hl_out {
    char **names;
    int n, cap;
} hl_out;

static int hl_fail(char *err, size_t errlen, const char *expr, const char *what)
{
    if (err && errlen)
        snprintf(err, errlen, "hostlist \"%.200s\": %s", expr, what);
    return VINE_ERR_UNSUPPORTED;
}

static int is_sep(char c)
{
    return c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Reads a NUM at *p; returns its digit count, 0 when none, -1 when too long. */
static int read_num(const char **p, uint64_t *v)
{
    const char *s = *p;
    int n = 0;
    uint64_t x = 0;
    while (*s >= '0' && *s <= '9') {
        if (++n > NUM_MAX_DIGITS)
            return -1;
        x = x * 10 + (uint64_t)(*s - '0');
        s++;
    }
    *p = s;
    *v = x;
    return n;
}

/* Parses "[ranges]" at *p (pointing at '['); appends to seg. */
static int parse_bracket(const char **p, hl_seg *seg, const char *expr, char *err, size_t errlen)
{
    const char *s = *p + 1;
    int cap = 0;
    seg->count = 0;
    for (;;) {
        hl_range r;
        const char *start = s;
        int nd = read_num(&s, &r.lo);
        if (nd <= 0)
            return hl_fail(err, errlen, expr,
                           nd < 0       ? "number too long in brackets"
                           : *s == '\0' ? "unterminated '['"
                                        : "expected a number in brackets");
        r.width = (start[0] == '0' && nd > 1) ? nd : 1;
        r.hi = r.lo;
        if (*s == '-') {
            s++;
            int nh = read_num(&s, &r.hi);
            if (nh <= 0)
                return hl_fail(err, errlen, expr,
                               nh < 0 ? "number too long in brackets"
                                      : "expected a number after '-'");
            if (r.hi < r.lo)
                return hl_fail(err, errlen, expr, "range with its end below its start");
        }
        uint64_t c = r.hi - r.lo + 1;
        if (c > VINE_HOSTLIST_MAX || seg->count + c > VINE_HOSTLIST_MAX)
            return hl_fail(err, errlen, expr, "expands to too many names");
        seg->count += c;
        if (seg->nr == cap) {
            cap = cap ? 2 * cap : 4;
            hl_range *nr = realloc(seg->r, (size_t)cap * sizeof *nr);
            if (!nr)
                return VINE_ERR_NO_MEM;
            seg->r = nr;
        }
        seg->r[seg->nr++] = r;
        if (*s == ',') {
            s++;
            continue;
        }
        if (*s == ']')
            break;
        return hl_fail(err, errlen, expr,
                       *s == '\0' ? "unterminated '['" : "unexpected character in brackets");
    }
    *p = s + 1;
    return VINE_OK;
}

static int out_push(hl_out *o, char *name)
{
    if (o->n == o->cap) {
        int cap = o->cap ? 2 * o->cap : 16;
        char **nn = realloc(o->names, (size_t)cap * sizeof *nn);
        if (!nn)
            return VINE_ERR_NO_MEM;
        o->names = nn;
        o->cap = cap;
    }
    o->names[o->n++] = name;
    return VINE_OK;
}

/* The idx-th value of a bracket segment. */
static void seg_value(const hl_seg *g, uint64_t idx, uint64_t *v, int *width)
{
    for (int i = 0; i < g->nr; i++) {
        uint64_t c = g->r[i].hi - g->r[i].lo + 1;
        if (idx < c) {
            *v = g->r[i].lo + idx;
            *width = g->r[i].width;
            return;
        }
        idx -= c;
    }
    *v = 0;
    *width = 1;
}

/* Writes every name of one item (segments seg[0..ns)) into o. */
static int emit_item(const hl_seg *seg, size_t ns, uint64_t total, hl_out *o)
{
    size_t maxlen = 1;
    for (size_t i = 0; i < ns; i++)
        maxlen += seg[i].r ? NUM_MAX_DIGITS + 2 : seg[i].litlen;
    uint64_t *idx = calloc(ns, sizeof *idx);
    if (!idx)
        return VINE_ERR_NO_MEM;
    int rc = VINE_OK;
    for (uint64_t k = 0; k < total && rc == VINE_OK; k++) {
        char *name = malloc(maxlen);
        if (!name) {
            rc = VINE_ERR_NO_MEM;
            break;
        }
        size_t len = 0;
        for (size_t i = 0; i < ns; i++) {
            if (!seg[i].r) {
                memcpy(name + len, seg[i].lit, seg[i].litlen);
                len += seg[i].litlen;
            } else {
                uint64_t v;
                int w;
                seg_value(&seg[i], idx[i], &v, &w);
                len +=
                    (size_t)snprintf(name + len, maxlen - len, "%0*llu", w, (unsigned long long)v);
            }
        }
        name[len] = '\0';
        rc = out_push(o, name);
        if (rc != VINE_OK)
            free(name);
        /* Odometer: the rightmost bracket varies fastest. */
        for (size_t i = ns; i-- > 0;) {
            if (++idx[i] < seg[i].count)
                break;
            idx[i] = 0;
        }
    }
    free(idx);
    return rc;
}

void vine__hostlist_free(char **names, int n)
{
    if (!names)
        return;
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

int vine__hostlist_expand(const char *expr, char ***names, int *n, char *err, size_t errlen)
{
    *names = NULL;
    *n = 0;
    if (!expr)
        return hl_fail(err, errlen, "", "no expression");
    hl_out o = {0};
    hl_seg *seg = NULL;
    int segcap = 0, rc = VINE_OK;
    const char *s = expr;
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
        s++;
    if (*s == '\0') {
        rc = hl_fail(err, errlen, expr, "empty");
        goto out;
    }
    while (rc == VINE_OK && *s) {
        /* One item: segments up to a separator outside brackets. */
        int ns = 0;
        uint64_t total = 1;
        while (*s && !is_sep(*s)) {
            if (ns == segcap) {
                int cap = segcap ? 2 * segcap : 8;
                hl_seg *ng = realloc(seg, (size_t)cap * sizeof *ng);
                if (!ng) {
                    rc = VINE_ERR_NO_MEM;
                    break;
                }
                seg = ng;
                segcap = cap;
            }
            hl_seg *g = &seg[ns];
            memset(g, 0, sizeof *g);
            ns++;
            if (*s == '[') {
                rc = parse_bracket(&s, g, expr, err, errlen);
                if (rc != VINE_OK)
                    break;
            } else if (*s == ']') {
                rc = hl_fail(err, errlen, expr, "']' without '['");
                break;
            } else {
                g->lit = s;
                while (*s && !is_sep(*s) && *s != '[' && *s != ']')
                    s++;
                g->litlen = (size_t)(s - g->lit);
                g->count = 1;
            }
            if (g->count > VINE_HOSTLIST_MAX || total * g->count > VINE_HOSTLIST_MAX) {
                rc = hl_fail(err, errlen, expr, "expands to too many names");
                break;
            }
            total *= g->count;
        }
        if (rc == VINE_OK && ns == 0)
            rc = hl_fail(err, errlen, expr, "empty name");
        if (rc == VINE_OK && (uint64_t)o.n + total > VINE_HOSTLIST_MAX)
            rc = hl_fail(err, errlen, expr, "expands to too many names");
        if (rc == VINE_OK)
            rc = emit_item(seg, (size_t)ns, total, &o);
        for (int i = 0; i < ns; i++)
            free(seg[i].r);
        if (rc != VINE_OK)
            break;
        /* A separator: commas delimit exactly one item, white space folds. */
        while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
            s++;
        if (*s == ',') {
            s++;
            while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
                s++;
            if (*s == '\0' || *s == ',')
                rc = hl_fail(err, errlen, expr, "empty name");
        }
    }
out:
    free(seg);
    if (rc != VINE_OK) {
        vine__hostlist_free(o.names, o.n);
        return rc;
    }
    *names = o.names;
    *n = o.n;
    return VINE_OK;
}
