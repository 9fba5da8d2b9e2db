/*
 * Count distributions of the v collectives: parsing a spec, the blocks, the
 * tables (vdist.h describes the specs).
 */
#include "vdist.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The largest N, F N and number in a file. */
#define VDIST_MAX_BLOCK ((size_t)1 << 50)
/* The largest sum of a row of p blocks (displacements stay far from overflow). */
#define VDIST_MAX_ROW ((size_t)1 << 60)
/* The most entries of one p x p table vine__vdist_tables makes. */
#define VDIST_MAX_ENTRIES ((size_t)1 << 26)
/* The most numbers a file may hold. */
#define VDIST_MAX_FILE ((size_t)1 << 26)

static const char *const kinds_help = "uniform:N, skew:N,F, zipf:N,S, random:N,SEED or file:PATH";

/* Parses a whole decimal integer up to max from [s, s + len). */
static int parse_uint(const char *s, size_t len, uint64_t max, uint64_t *out)
{
    char buf[32];
    if (len == 0 || len >= sizeof buf)
        return -1;
    memcpy(buf, s, len);
    buf[len] = '\0';
    for (size_t k = 0; k < len; k++)
        if (!isdigit((unsigned char)buf[k]))
            return -1;
    errno = 0;
    char *end;
    unsigned long long x = strtoull(buf, &end, 10);
    if (errno || *end || x > max)
        return -1;
    *out = (uint64_t)x;
    return 0;
}

/* Splits "A,B" (b NULL: "A" alone) into its fields; -1 when the count differs. */
static int split2(const char *args, const char **a, size_t *alen, const char **b, size_t *blen)
{
    const char *comma = strchr(args, ',');
    *a = args;
    if (!b)
        return comma ? -1 : (*alen = strlen(args), 0);
    if (!comma || strchr(comma + 1, ','))
        return -1;
    *alen = (size_t)(comma - args);
    *b = comma + 1;
    *blen = strlen(*b);
    return 0;
}

static int parse_n(const char *s, size_t len, vine_vdist *d)
{
    uint64_t x;
    if (parse_uint(s, len, VDIST_MAX_BLOCK, &x))
        return -1;
    d->n = (size_t)x;
    return 0;
}

/* The second field of skew, zipf and random; returns why when it is malformed, else NULL. */
static const char *parse_second(const char *s, size_t len, vine_vdist *d)
{
    uint64_t x;
    if (d->kind == VINE_VD_SKEW) {
        if (parse_uint(s, len, VDIST_MAX_BLOCK, &x) || x < 1 ||
            (d->n && x > VDIST_MAX_BLOCK / d->n))
            return "F is not an integer >= 1 with F N at most 2^50";
        d->f = (size_t)x;
    } else if (d->kind == VINE_VD_RANDOM) {
        if (parse_uint(s, len, UINT64_MAX, &x))
            return "SEED is not an integer below 2^64";
        d->seed = x;
    } else {
        char buf[64], *end;
        if (len == 0 || len >= sizeof buf)
            return "S is not a real number >= 0";
        memcpy(buf, s, len);
        buf[len] = '\0';
        errno = 0;
        double v = strtod(buf, &end);
        if (errno || *end || !isfinite(v) || v < 0 || isspace((unsigned char)buf[0]))
            return "S is not a real number >= 0";
        d->s = v;
    }
    return NULL;
}

/* Appends x to d's table. */
static int push(vine_vdist *d, size_t x, size_t *cap)
{
    if (d->ntable == *cap) {
        size_t c = *cap ? 2 * *cap : 64;
        size_t *q = realloc(d->table, c * sizeof *q);
        if (!q)
            return VINE_ERR_NO_MEM;
        d->table = q;
        *cap = c;
    }
    d->table[d->ntable++] = x;
    return VINE_OK;
}

/* Reads the numbers of one line of a file; VINE_OK or an error with err set. */
static int file_line(const char *path, long ln, char *line, vine_vdist *d, size_t *cap, char *err,
                     size_t errlen)
{
    char *hash = strchr(line, '#');
    if (hash)
        *hash = '\0';
    for (char *w = line; *w;) {
        while (*w && isspace((unsigned char)*w))
            w++;
        size_t len = 0;
        while (w[len] && !isspace((unsigned char)w[len]))
            len++;
        if (!len)
            break;
        uint64_t x;
        if (parse_uint(w, len, VDIST_MAX_BLOCK, &x)) {
            snprintf(err, errlen, "%s:%ld: '%.*s' is not an integer from 0 to 2^50", path, ln,
                     (int)(len > 40 ? 40 : len), w);
            return VINE_ERR_UNSUPPORTED;
        }
        if (d->ntable >= VDIST_MAX_FILE) {
            snprintf(err, errlen, "%s:%ld: more than %zu numbers", path, ln, VDIST_MAX_FILE);
            return VINE_ERR_UNSUPPORTED;
        }
        if (push(d, (size_t)x, cap) != VINE_OK) {
            snprintf(err, errlen, "%s: out of memory", path);
            return VINE_ERR_NO_MEM;
        }
        w += len;
    }
    return VINE_OK;
}

/* floor(sqrt(n)). */
static size_t isqrt(size_t n)
{
    size_t k = (size_t)sqrt((double)n);
    while (k && k * k > n)
        k--;
    while ((k + 1) * (k + 1) <= n)
        k++;
    return k;
}

static int parse_file(const char *path, vine_vdist *d, char *err, size_t errlen)
{
    if (!*path) {
        snprintf(err, errlen, "file: needs a path (file:PATH)");
        return VINE_ERR_UNSUPPORTED;
    }
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open (%s)", path, strerror(errno));
        return VINE_ERR_UNSUPPORTED;
    }
    char *line = NULL;
    size_t linecap = 0, cap = 0;
    long ln = 0;
    int rc = VINE_OK;
    while (rc == VINE_OK && getline(&line, &linecap, f) >= 0)
        rc = file_line(path, ++ln, line, d, &cap, err, errlen);
    if (rc == VINE_OK && ferror(f)) {
        snprintf(err, errlen, "%s: read error", path);
        rc = VINE_ERR_UNSUPPORTED;
    }
    free(line);
    fclose(f);
    if (rc == VINE_OK && d->ntable == 0) {
        snprintf(err, errlen, "%s: no numbers (one block per rank, or p x p for alltoallv)", path);
        rc = VINE_ERR_UNSUPPORTED;
    }
    size_t k = isqrt(d->ntable);
    d->square = k >= 2 && k * k == d->ntable;
    return rc;
}

/* The kind named by [s, s + len), or -1. */
static int kind_of(const char *s, size_t len)
{
    static const char *const names[] = {"uniform", "skew", "zipf", "random", "file"};
    for (int k = 0; k < (int)(sizeof names / sizeof *names); k++)
        if (strlen(names[k]) == len && strncmp(s, names[k], len) == 0)
            return k;
    return -1;
}

int vine__vdist_parse(const char *spec, vine_vdist *d, char *err, size_t errlen)
{
    static const char *const forms[] = {"uniform:N", "skew:N,F", "zipf:N,S", "random:N,SEED"};
    memset(d, 0, sizeof *d);
    if (errlen)
        err[0] = '\0';
    const char *colon = spec ? strchr(spec, ':') : NULL;
    int kind = colon ? kind_of(spec, (size_t)(colon - spec)) : -1;
    if (kind < 0) {
        snprintf(err, errlen, "'%s': not a distribution (%s)", spec ? spec : "", kinds_help);
        return VINE_ERR_UNSUPPORTED;
    }
    d->kind = kind;
    if (kind == VINE_VD_FILE) {
        int rc = parse_file(colon + 1, d, err, errlen);
        if (rc != VINE_OK)
            vine__vdist_free(d);
        return rc;
    }
    const char *a, *b = NULL;
    size_t alen, blen = 0;
    const char *bad = NULL;
    if (split2(colon + 1, &a, &alen, kind == VINE_VD_UNIFORM ? NULL : &b, &blen))
        bad = "wrong number of fields";
    else if (parse_n(a, alen, d))
        bad = "N is not an integer from 0 to 2^50";
    else if (b)
        bad = parse_second(b, blen, d);
    if (bad) {
        snprintf(err, errlen, "'%s': %s; expected %s", spec, bad, forms[kind]);
        memset(d, 0, sizeof *d);
        return VINE_ERR_UNSUPPORTED;
    }
    return VINE_OK;
}

/* The largest block of d, for p ranks; zipf: N (its rows add up to about N p). */
static size_t max_block(const vine_vdist *d)
{
    size_t m = 0;
    switch (d->kind) {
    case VINE_VD_UNIFORM:
    case VINE_VD_ZIPF:
        return d->n;
    case VINE_VD_SKEW:
        return d->n * d->f;
    case VINE_VD_RANDOM:
        return 2 * d->n;
    default:
        for (size_t k = 0; k < d->ntable; k++)
            m = d->table[k] > m ? d->table[k] : m;
        return m;
    }
}

/* The message of a file whose length does not fit p ranks. */
static void file_length_error(const vine_vdist *d, int p, int a2a, char *err, size_t errlen)
{
    size_t k = isqrt(d->ntable), pp = (size_t)p * (size_t)p;
    if (!a2a)
        snprintf(err, errlen, "the file has %zu numbers; %d ranks need %d, one per rank", d->ntable,
                 p, p);
    else if (d->square)
        snprintf(err, errlen,
                 "the file has %zu numbers; %d ranks need %d (one per sending rank) or %zu (a p x "
                 "p table); it is the table of %zu ranks",
                 d->ntable, p, p, pp, k);
    else
        snprintf(err, errlen,
                 "the file has %zu numbers; %d ranks need %d (one per sending rank) or %zu (a p x "
                 "p table)",
                 d->ntable, p, p, pp);
}

int vine__vdist_check(const vine_vdist *d, int p, int a2a, char *err, size_t errlen)
{
    if (p < 1) {
        snprintf(err, errlen, "%d ranks: the distribution needs at least one", p);
        return VINE_ERR_UNSUPPORTED;
    }
    if (d->kind == VINE_VD_FILE && d->ntable != (size_t)p &&
        !(a2a && d->ntable == (size_t)p * (size_t)p)) {
        file_length_error(d, p, a2a, err, errlen);
        return VINE_ERR_UNSUPPORTED;
    }
    /* zipf: a block is at most N p and a row N p + p (the rounding). */
    size_t m = max_block(d), lim = VDIST_MAX_ROW / (size_t)p / (d->kind == VINE_VD_ZIPF ? 2 : 1);
    if (m > lim) {
        snprintf(err, errlen, "blocks of %zu elements on %d ranks: a row of blocks would pass 2^60",
                 m, p);
        return VINE_ERR_UNSUPPORTED;
    }
    return VINE_OK;
}

/* rank k's zipf block for p ranks, with h = H_p. */
static size_t zipf_block(const vine_vdist *d, int p, int k, double h)
{
    double x = (double)d->n * (double)p * pow((double)k + 1, -d->s) / h;
    return (size_t)floor(x + 0.5);
}

static double zipf_h(const vine_vdist *d, int p)
{
    double h = 0;
    for (int m = p; m >= 1; m--) /* smallest terms first */
        h += pow((double)m, -d->s);
    return h;
}

static uint64_t mix64(uint64_t x)
{
    uint64_t z = x + 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static size_t random_block(const vine_vdist *d, int i, int j)
{
    uint64_t key = (uint64_t)(uint32_t)i << 32 | (uint32_t)j;
    return (size_t)(mix64(mix64(d->seed) ^ key) % (2 * (uint64_t)d->n + 1));
}

/* The block i -> j (j 0 unless a2a), with h = H_p for zipf. */
static size_t block(const vine_vdist *d, int p, int i, int j, int a2a, double h)
{
    j = a2a ? j : 0;
    switch (d->kind) {
    case VINE_VD_UNIFORM:
        return d->n;
    case VINE_VD_SKEW:
        return i == 0 ? d->n * d->f : d->n;
    case VINE_VD_ZIPF:
        return zipf_block(d, p, a2a ? (int)(((long)i - j + p) % p) : i, h);
    case VINE_VD_RANDOM:
        return random_block(d, i, j);
    default:
        return d->ntable == (size_t)p ? d->table[i] : d->table[(size_t)i * (size_t)p + (size_t)j];
    }
}

size_t vine__vdist_block(const vine_vdist *d, int p, int i, int j, int a2a)
{
    char err[8];
    if (i < 0 || i >= p || (a2a && (j < 0 || j >= p)) || vine__vdist_check(d, p, a2a, err, 0))
        return 0;
    double h = d->kind != VINE_VD_ZIPF ? 1 : d->zipf_p == p ? d->zipf_h : zipf_h(d, p);
    return block(d, p, i, j, a2a, h);
}

void vine__vdist_prepare(vine_vdist *d, int p)
{
    if (d->kind == VINE_VD_ZIPF && p >= 1) {
        d->zipf_h = zipf_h(d, p);
        d->zipf_p = p;
    }
}

/* displs of p counts packed in rank order. */
/* A distribution for vine__vtables_make. */
typedef struct vctx {
    const vine_vdist *d;
    int p;
    double h;
} vctx;

static size_t vctx_block(const void *ctx, int i, int j, int a2a)
{
    const vctx *c = ctx;
    return block(c->d, c->p, i, j, a2a, c->h);
}

int vine__vdist_tables(const vine_vdist *d, vine_args *a, vine_vtables *t)
{
    memset(t, 0, sizeof *t);
    if (!vine__coll_is_v(a->coll))
        return VINE_OK;
    int p = a->p, a2a = a->coll == VINE_COLL_ALLTOALLV || a->coll == VINE_COLL_ALLTOALLW;
    char err[8];
    if (vine__vdist_check(d, p, a2a, err, 0) != VINE_OK)
        return VINE_ERR_UNSUPPORTED;
    if ((a2a ? (size_t)p * (size_t)p : (size_t)p) > VDIST_MAX_ENTRIES)
        return VINE_ERR_NO_MEM;
    vctx c = {d, p, d->kind == VINE_VD_ZIPF ? zipf_h(d, p) : 1};
    return vine__vtables_make(a, vctx_block, &c, 0, t);
}

void vine__vdist_free(vine_vdist *d)
{
    free(d->table);
    memset(d, 0, sizeof *d);
}
