/*
 * The sparse communication matrix of a pattern benchmark, footprints, the
 * built-in patterns of CommBench (Hidayetoglu et al., ICS 2024;
 * ../shared/papers/commbench.txt: group patterns and directions section 4.3,
 * figures 6 and 7; striping section 4.2, figure 4 and listing 2) and the
 * readers of traffic matrices (CSV) and Matrix Market files (the messages of
 * a row-partitioned sparse matrix-vector product, section 4.4).  MPI-free;
 * docs/patterns.md is the specification.
 *
 * Cost: adding a message is amortised O(1); pairs, totals and footprints
 * are O(messages) (pairs O(messages log messages)); the Matrix Market reader
 * is O(nnz log nnz) time and O(nnz) memory.
 */
#include "vine/bench_matrix.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

__attribute__((format(printf, 3, 4))) static int fail(char *err, size_t errlen, const char *fmt,
                                                      ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return VINE_BENCH_ERR_ARG;
}

int vine_bench_matrix_init(vine_bench_matrix *m, int p)
{
    memset(m, 0, sizeof *m);
    if (p < 1)
        return VINE_BENCH_ERR_ARG;
    m->extent = calloc((size_t)p * VINE_BENCH_NBUF, sizeof(size_t));
    if (!m->extent)
        return VINE_BENCH_ERR_NO_MEM;
    m->p = p;
    return VINE_BENCH_OK;
}

void vine_bench_matrix_free(vine_bench_matrix *m)
{
    free(m->msgs);
    free(m->extent);
    memset(m, 0, sizeof *m);
}

void vine_bench_matrix_clear(vine_bench_matrix *m)
{
    m->count = 0;
    if (m->extent)
        memset(m->extent, 0, (size_t)m->p * VINE_BENCH_NBUF * sizeof(size_t));
}

int vine_bench_matrix_add(vine_bench_matrix *m, int sendbuf, size_t sendoff, int recvbuf,
                          size_t recvoff, size_t bytes, int sender, int receiver)
{
    if (sender < 0 || sender >= m->p || receiver < 0 || receiver >= m->p || sendbuf < 0 ||
        sendbuf >= VINE_BENCH_NBUF || recvbuf < 0 || recvbuf >= VINE_BENCH_NBUF ||
        bytes > SIZE_MAX - sendoff || bytes > SIZE_MAX - recvoff)
        return VINE_BENCH_ERR_ARG;
    if (m->count == m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 16;
        if (cap > SIZE_MAX / sizeof(vine_bench_msg))
            return VINE_BENCH_ERR_NO_MEM;
        vine_bench_msg *msgs = realloc(m->msgs, cap * sizeof *msgs);
        if (!msgs)
            return VINE_BENCH_ERR_NO_MEM;
        m->msgs = msgs;
        m->cap = cap;
    }
    m->msgs[m->count++] =
        (vine_bench_msg){sender, receiver, sendbuf, recvbuf, sendoff, recvoff, bytes};
    size_t *se = &m->extent[(size_t)sender * VINE_BENCH_NBUF + (size_t)sendbuf];
    size_t *re = &m->extent[(size_t)receiver * VINE_BENCH_NBUF + (size_t)recvbuf];
    if (sendoff + bytes > *se)
        *se = sendoff + bytes;
    if (recvoff + bytes > *re)
        *re = recvoff + bytes;
    return VINE_BENCH_OK;
}

int vine_bench_matrix_add_packed(vine_bench_matrix *m, size_t bytes, int sender, int receiver)
{
    if (sender < 0 || sender >= m->p || receiver < 0 || receiver >= m->p)
        return VINE_BENCH_ERR_ARG;
    size_t so = m->extent[(size_t)sender * VINE_BENCH_NBUF + VINE_BENCH_BUF_SEND];
    size_t ro = m->extent[(size_t)receiver * VINE_BENCH_NBUF + VINE_BENCH_BUF_RECV];
    return vine_bench_matrix_add(m, VINE_BENCH_BUF_SEND, so, VINE_BENCH_BUF_RECV, ro, bytes, sender,
                                 receiver);
}

size_t vine_bench_matrix_bytes(const vine_bench_matrix *m, int sender, int receiver)
{
    size_t sum = 0;
    for (size_t i = 0; i < m->count; i++)
        if (m->msgs[i].sender == sender && m->msgs[i].receiver == receiver)
            sum += m->msgs[i].bytes;
    return sum;
}

size_t vine_bench_matrix_total(const vine_bench_matrix *m)
{
    size_t sum = 0;
    for (size_t i = 0; i < m->count; i++)
        sum += m->msgs[i].bytes;
    return sum;
}

static int cmp_pair(const void *a, const void *b)
{
    const vine_bench_pair *x = a, *y = b;
    if (x->sender != y->sender)
        return x->sender < y->sender ? -1 : 1;
    return (x->receiver > y->receiver) - (x->receiver < y->receiver);
}

int vine_bench_matrix_pairs(const vine_bench_matrix *m, vine_bench_pair **pairs, size_t *npairs)
{
    *pairs = NULL;
    *npairs = 0;
    if (m->count == 0)
        return VINE_BENCH_OK;
    vine_bench_pair *v = malloc(m->count * sizeof *v);
    if (!v)
        return VINE_BENCH_ERR_NO_MEM;
    for (size_t i = 0; i < m->count; i++)
        v[i] = (vine_bench_pair){m->msgs[i].sender, m->msgs[i].receiver, m->msgs[i].bytes, 1};
    qsort(v, m->count, sizeof *v, cmp_pair);
    size_t n = 0;
    for (size_t i = 0; i < m->count; i++) {
        if (n && v[n - 1].sender == v[i].sender && v[n - 1].receiver == v[i].receiver) {
            v[n - 1].bytes += v[i].bytes;
            v[n - 1].msgs++;
        } else {
            v[n++] = v[i];
        }
    }
    *pairs = v;
    *npairs = n;
    return VINE_BENCH_OK;
}

void vine_bench_matrix_footprint(const vine_bench_matrix *m, int rank, vine_bench_footprint *f)
{
    memset(f, 0, sizeof *f);
    if (rank < 0 || rank >= m->p)
        return;
    for (size_t i = 0; i < m->count; i++) {
        const vine_bench_msg *x = &m->msgs[i];
        if (x->sender == rank) {
            f->send_bytes += x->bytes;
            f->send_msgs++;
        }
        if (x->receiver == rank) {
            f->recv_bytes += x->bytes;
            f->recv_msgs++;
        }
    }
    for (int b = 0; b < VINE_BENCH_NBUF; b++)
        f->extent[b] = m->extent[(size_t)rank * VINE_BENCH_NBUF + (size_t)b];
}

/* ---- built-in patterns ---- */

static const char *const group_names[] = {"rail", "asymmetric", "symmetric"};
static const char *const dir_names[] = {"uni", "bi", "omni"};

const char *vine_bench_group_name(int kind)
{
    return kind >= 0 && kind < 3 ? group_names[kind] : NULL;
}

const char *vine_bench_dir_name(int dir)
{
    return dir >= 0 && dir < 3 ? dir_names[dir] : NULL;
}

int vine_bench_group_from_name(const char *name)
{
    for (int i = 0; i < 3; i++)
        if (strcmp(name, group_names[i]) == 0)
            return i;
    return -1;
}

int vine_bench_dir_from_name(const char *name)
{
    for (int i = 0; i < 3; i++)
        if (strcmp(name, dir_names[i]) == 0)
            return i;
    return -1;
}

/*
 * Messages from the active ranks of group a to group b: rail pairs rank j
 * with rank j (j < k); asymmetric sends from k ranks to all g; symmetric
 * from k ranks to k ranks.  When back is set each message is followed by
 * its reverse (the bidirectional form).
 */
static int group_to_group(vine_bench_matrix *m, int kind, int a, int b, int g, int k, size_t bytes,
                          int back)
{
    int rc = VINE_BENCH_OK;
    int nrecv = kind == VINE_BENCH_RAIL ? 1 : kind == VINE_BENCH_ASYMMETRIC ? g : k;
    for (int s = 0; s < k && rc == VINE_BENCH_OK; s++) {
        for (int t = 0; t < nrecv && rc == VINE_BENCH_OK; t++) {
            int r = kind == VINE_BENCH_RAIL ? s : t;
            int sender = a * g + s, receiver = b * g + r;
            rc = vine_bench_matrix_add_packed(m, bytes, sender, receiver);
            if (back && rc == VINE_BENCH_OK)
                rc = vine_bench_matrix_add_packed(m, bytes, receiver, sender);
        }
    }
    return rc;
}

int vine_bench_group_pattern(vine_bench_matrix *m, int kind, int dir, int n, int g, int k,
                             size_t bytes, char *err, size_t errlen)
{
    if (!vine_bench_group_name(kind))
        return fail(err, errlen, "unknown group pattern %d", kind);
    if (!vine_bench_dir_name(dir))
        return fail(err, errlen, "unknown direction %d", dir);
    if (n < 1 || g < 1)
        return fail(err, errlen, "n and g must be at least 1 (n=%d, g=%d)", n, g);
    if (k < 1 || k > g)
        return fail(err, errlen, "k must lie in 1..g (k=%d, g=%d)", k, g);
    if ((long long)n * g > m->p)
        return fail(err, errlen, "n*g = %lld ranks needed, only %d available", (long long)n * g,
                    m->p);
    if (kind == VINE_BENCH_ASYMMETRIC && dir == VINE_BENCH_OMNI)
        return fail(err, errlen, "the asymmetric pattern has no omnidirectional form");
    int rc = VINE_BENCH_OK;
    if (dir == VINE_BENCH_OMNI) {
        for (int a = 0; a < n && rc == VINE_BENCH_OK; a++)
            for (int b = 0; b < n && rc == VINE_BENCH_OK; b++)
                if (a != b)
                    rc = group_to_group(m, kind, a, b, g, k, bytes, 0);
    } else {
        for (int b = 1; b < n && rc == VINE_BENCH_OK; b++)
            rc = group_to_group(m, kind, 0, b, g, k, bytes, dir == VINE_BENCH_BI);
    }
    if (rc == VINE_BENCH_ERR_ARG)
        return fail(err, errlen, "message offsets overflow (bytes=%zu)", bytes);
    if (rc == VINE_BENCH_ERR_NO_MEM)
        fail(err, errlen, "out of memory");
    return rc;
}

/* floor(i * total / k) without overflow. */
static size_t share(size_t total, size_t i, size_t k)
{
    return total / k * i + total % k * i / k;
}

int vine_bench_stripe_pattern(vine_bench_matrix steps[3], int g, int k, size_t bytes, char *err,
                              size_t errlen)
{
    if (g < 1 || k < 1 || k > g)
        return fail(err, errlen, "striping needs g >= 1 and 1 <= k <= g (g=%d, k=%d)", g, k);
    int p = steps[0].p;
    if (steps[1].p != p || steps[2].p != p)
        return fail(err, errlen, "the three steps of striping must have the same ranks");
    if (2LL * g > p)
        return fail(err, errlen, "striping needs two nodes of g=%d ranks, only %d ranks", g, p);
    vine_bench_matrix *split = &steps[0], *translate = &steps[1], *assemble = &steps[2];
    int rc = vine_bench_matrix_add(translate, VINE_BENCH_BUF_SEND, 0, VINE_BENCH_BUF_RECV, 0,
                                   share(bytes, 1, (size_t)k), 0, g);
    for (int i = 1; i < k && rc == VINE_BENCH_OK; i++) {
        size_t lo = share(bytes, (size_t)i, (size_t)k);
        size_t len = share(bytes, (size_t)i + 1, (size_t)k) - lo;
        rc =
            vine_bench_matrix_add(split, VINE_BENCH_BUF_SEND, lo, VINE_BENCH_BUF_TMP, 0, len, 0, i);
        if (rc == VINE_BENCH_OK)
            rc = vine_bench_matrix_add(translate, VINE_BENCH_BUF_TMP, 0, VINE_BENCH_BUF_TMP, 0, len,
                                       i, g + i);
        if (rc == VINE_BENCH_OK)
            rc = vine_bench_matrix_add(assemble, VINE_BENCH_BUF_TMP, 0, VINE_BENCH_BUF_RECV, lo,
                                       len, g + i, g);
    }
    if (rc == VINE_BENCH_ERR_NO_MEM)
        fail(err, errlen, "out of memory");
    return rc;
}

/* ---- readers ---- */

/* A text file read line by line, with the line number for messages. */
typedef struct reader {
    const char *path;
    FILE *f;
    char *line;
    size_t cap;
    long lineno;
} reader;

static int reader_open(reader *r, const char *path, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    r->path = path;
    r->f = fopen(path, "r");
    if (!r->f) {
        fail(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return VINE_BENCH_ERR_FILE;
    }
    return VINE_BENCH_OK;
}

/* The next line without its end of line, or NULL at the end (*rc set on a read error). */
static char *reader_next(reader *r, int *rc, char *err, size_t errlen)
{
    ssize_t n = getline(&r->line, &r->cap, r->f);
    if (n < 0) {
        if (ferror(r->f)) {
            fail(err, errlen, "%s:%ld: read error", r->path, r->lineno + 1);
            *rc = VINE_BENCH_ERR_FILE;
        }
        return NULL;
    }
    r->lineno++;
    while (n > 0 && (r->line[n - 1] == '\n' || r->line[n - 1] == '\r'))
        r->line[--n] = '\0';
    if ((size_t)n != strlen(r->line)) {
        *rc = fail(err, errlen, "%s:%ld: NUL byte in a text file", r->path, r->lineno);
        return NULL;
    }
    return r->line;
}

static void reader_close(reader *r)
{
    if (r->f)
        fclose(r->f);
    free(r->line);
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

/* A non-negative decimal integer filling all of s, at most max. */
static int parse_uint(const char *s, unsigned long long max, unsigned long long *out)
{
    if (!isdigit((unsigned char)*s))
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end || v > max)
        return -1;
    *out = v;
    return 0;
}

typedef struct triple {
    int sender, receiver;
    size_t bytes;
} triple;

/* Appends msgs[0..n) packed; NO_MEM or OK. */
static int add_triples(vine_bench_matrix *m, const triple *msgs, size_t n, char *err, size_t errlen)
{
    for (size_t i = 0; i < n; i++) {
        int rc = vine_bench_matrix_add_packed(m, msgs[i].bytes, msgs[i].sender, msgs[i].receiver);
        if (rc == VINE_BENCH_ERR_ARG)
            return fail(err, errlen, "the messages overflow a buffer offset");
        if (rc) {
            fail(err, errlen, "out of memory");
            return rc;
        }
    }
    return VINE_BENCH_OK;
}

static int push_triple(triple **v, size_t *n, size_t *cap, triple t)
{
    if (*n == *cap) {
        size_t c = *cap ? 2 * *cap : 64;
        triple *nv = c < SIZE_MAX / sizeof *nv ? realloc(*v, c * sizeof *nv) : NULL;
        if (!nv)
            return VINE_BENCH_ERR_NO_MEM;
        *v = nv;
        *cap = c;
    }
    (*v)[(*n)++] = t;
    return VINE_BENCH_OK;
}

/* Splits s at commas into at most max trimmed fields; returns how many there are. */
static int split_csv(char *s, char **fields, int max)
{
    int n = 0;
    for (;;) {
        char *comma = strchr(s, ',');
        if (comma)
            *comma = '\0';
        if (n < max)
            fields[n] = trim(s);
        n++;
        if (!comma)
            return n;
        s = comma + 1;
    }
}

int vine_bench_read_csv(vine_bench_matrix *m, const char *path, char *err, size_t errlen)
{
    static const char *const names[3] = {"sender", "receiver", "bytes"};
    reader r;
    int rc = reader_open(&r, path, err, errlen), first = 1;
    triple *msgs = NULL;
    size_t n = 0, cap = 0;
    char *line;
    while (rc == VINE_BENCH_OK && (line = reader_next(&r, &rc, err, errlen))) {
        char *s = trim(line), *f[3];
        if (*s == '\0' || *s == '#')
            continue;
        int nf = split_csv(s, f, 3);
        if (nf != 3) {
            rc = fail(err, errlen, "%s:%ld: expected 3 fields sender,receiver,bytes, found %d",
                      path, r.lineno, nf);
            break;
        }
        if (first && strcasecmp(f[0], names[0]) == 0 && strcasecmp(f[1], names[1]) == 0 &&
            strcasecmp(f[2], names[2]) == 0) {
            first = 0;
            continue;
        }
        first = 0;
        unsigned long long v[3];
        for (int i = 0; i < 3 && rc == VINE_BENCH_OK; i++) {
            unsigned long long max = i < 2 ? (unsigned long long)m->p - 1 : SIZE_MAX;
            if (parse_uint(f[i], SIZE_MAX, &v[i]))
                rc = fail(err, errlen, "%s:%ld: %s '%s' is not a non-negative integer", path,
                          r.lineno, names[i], f[i]);
            else if (v[i] > max)
                rc = fail(err, errlen, "%s:%ld: %s %llu is outside ranks 0..%d", path, r.lineno,
                          names[i], v[i], m->p - 1);
        }
        if (rc == VINE_BENCH_OK &&
            push_triple(&msgs, &n, &cap, (triple){(int)v[0], (int)v[1], (size_t)v[2]})) {
            rc = VINE_BENCH_ERR_NO_MEM;
            fail(err, errlen, "out of memory");
        }
    }
    reader_close(&r);
    if (rc == VINE_BENCH_OK)
        rc = add_triples(m, msgs, n, err, errlen);
    free(msgs);
    return rc;
}

/* ---- Matrix Market ---- */

/* The first index of block r when total items are split over p ranks. */
static unsigned long long block_lo(unsigned long long total, int r, int p)
{
    unsigned long long q = total / (unsigned)p, rem = total % (unsigned)p;
    return (unsigned long long)r * q + (unsigned long long)r * rem / (unsigned)p;
}

/* The rank whose block holds item i (0 <= i < total). */
static int block_owner(unsigned long long i, unsigned long long total, int p)
{
    int lo = 0, hi = p - 1;
    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        if (block_lo(total, mid, p) <= i)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* A remote x entry a rank needs: the needer and the column. */
typedef struct need {
    int needer, owner;
    unsigned long long col;
} need;

static int cmp_need(const void *a, const void *b)
{
    const need *x = a, *y = b;
    if (x->owner != y->owner)
        return x->owner < y->owner ? -1 : 1;
    if (x->needer != y->needer)
        return x->needer < y->needer ? -1 : 1;
    return (x->col > y->col) - (x->col < y->col);
}

enum { MTX_PATTERN, MTX_REAL, MTX_INTEGER, MTX_COMPLEX };
enum { MTX_GENERAL, MTX_SYMMETRIC };

/* The banner "%%MatrixMarket matrix coordinate FIELD SYMMETRY". */
static int mtx_banner(char *line, const char *path, int *field, int *sym, char *err, size_t errlen)
{
    char *save = NULL, *tok[6];
    int n = 0;
    for (char *t = strtok_r(line, " \t", &save); t; t = strtok_r(NULL, " \t", &save))
        if (n < 6)
            tok[n++] = t;
        else
            n++;
    if (n < 1 || strcasecmp(tok[0], "%%MatrixMarket") != 0)
        return fail(err, errlen, "%s:1: not a Matrix Market file (no %%%%MatrixMarket banner)",
                    path);
    if (n != 5)
        return fail(err, errlen, "%s:1: the banner needs 4 words: matrix coordinate FIELD SYMMETRY",
                    path);
    if (strcasecmp(tok[1], "matrix") != 0)
        return fail(err, errlen, "%s:1: object '%s' is not 'matrix'", path, tok[1]);
    if (strcasecmp(tok[2], "coordinate") != 0)
        return fail(err, errlen, "%s:1: format '%s' is not supported (only coordinate)", path,
                    tok[2]);
    static const struct {
        const char *name;
        int value;
    } fields[] = {{"pattern", MTX_PATTERN},
                  {"real", MTX_REAL},
                  {"double", MTX_REAL},
                  {"integer", MTX_INTEGER},
                  {"complex", MTX_COMPLEX}},
      syms[] = {{"general", MTX_GENERAL},
                {"symmetric", MTX_SYMMETRIC},
                {"skew-symmetric", MTX_SYMMETRIC},
                {"hermitian", MTX_SYMMETRIC}};
    *field = *sym = -1;
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        if (strcasecmp(tok[3], fields[i].name) == 0)
            *field = fields[i].value;
    for (size_t i = 0; i < sizeof syms / sizeof syms[0]; i++)
        if (strcasecmp(tok[4], syms[i].name) == 0)
            *sym = syms[i].value;
    if (*field < 0)
        return fail(err, errlen, "%s:1: unknown field '%s'", path, tok[3]);
    if (*sym < 0)
        return fail(err, errlen, "%s:1: unknown symmetry '%s'", path, tok[4]);
    if (*field != MTX_COMPLEX && strcasecmp(tok[4], "hermitian") == 0)
        return fail(err, errlen, "%s:1: hermitian needs the complex field", path);
    return VINE_BENCH_OK;
}

/* Splits s at spaces and tabs into at most max words; returns how many there are. */
static int words(char *s, char **w, int max)
{
    char *save = NULL;
    int n = 0;
    for (char *t = strtok_r(s, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
        if (n < max)
            w[n] = t;
        n++;
    }
    return n;
}

static int is_number(const char *s, int integer)
{
    char *end;
    errno = 0;
    if (integer)
        (void)strtoll(s, &end, 10);
    else
        (void)strtod(s, &end);
    return end != s && *end == '\0' && errno != ERANGE;
}

/* Reads the entries; appends to needs every (row owner, column) pair across ranks. */
static int mtx_entries(reader *r, int field, int sym, unsigned long long rows,
                       unsigned long long cols, unsigned long long nnz, int p, need **needs,
                       size_t *nneeds, char *err, size_t errlen)
{
    int nwords = field == MTX_PATTERN ? 2 : field == MTX_COMPLEX ? 4 : 3, rc = VINE_BENCH_OK;
    size_t cap = 0;
    unsigned long long seen = 0;
    char *line;
    while (rc == VINE_BENCH_OK && (line = reader_next(r, &rc, err, errlen))) {
        char *s = trim(line), *w[4];
        if (*s == '\0' || *s == '%')
            continue;
        if (seen == nnz)
            return fail(err, errlen, "%s:%ld: more entries than the %llu declared", r->path,
                        r->lineno, nnz);
        int n = words(s, w, 4);
        if (n != nwords)
            return fail(err, errlen, "%s:%ld: expected %d values per entry, found %d", r->path,
                        r->lineno, nwords, n);
        unsigned long long ij[2];
        for (int k = 0; k < 2; k++) {
            unsigned long long max = k ? cols : rows;
            if (parse_uint(w[k], ~0ULL, &ij[k]) || ij[k] < 1 || ij[k] > max)
                return fail(err, errlen, "%s:%ld: %s index '%s' outside 1..%llu", r->path,
                            r->lineno, k ? "column" : "row", w[k], max);
        }
        for (int k = 2; k < n; k++)
            if (!is_number(w[k], field == MTX_INTEGER))
                return fail(err, errlen, "%s:%ld: value '%s' is not a%s number", r->path, r->lineno,
                            w[k], field == MTX_INTEGER ? "n integer" : "");
        seen++;
        /* Entry (i, j) makes row i's owner need x[j]; a mirrored entry also (j, i). */
        for (int mirror = 0; mirror < 1 + (sym == MTX_SYMMETRIC && ij[0] != ij[1]); mirror++) {
            unsigned long long row = ij[mirror] - 1, col = ij[1 - mirror] - 1;
            need x = {block_owner(row, rows, p), block_owner(col, cols, p), col};
            if (x.needer == x.owner)
                continue;
            if (*nneeds == cap) {
                size_t c = cap ? 2 * cap : 256;
                need *v = c < SIZE_MAX / sizeof *v ? realloc(*needs, c * sizeof *v) : NULL;
                if (!v) {
                    fail(err, errlen, "out of memory");
                    return VINE_BENCH_ERR_NO_MEM;
                }
                *needs = v;
                cap = c;
            }
            (*needs)[(*nneeds)++] = x;
        }
    }
    if (rc == VINE_BENCH_OK && seen < nnz)
        rc = fail(err, errlen, "%s:%ld: the file ends after %llu of the %llu declared entries",
                  r->path, r->lineno, seen, nnz);
    return rc;
}

int vine_bench_read_mtx(vine_bench_matrix *m, const char *path, size_t elem_bytes, char *err,
                        size_t errlen)
{
    if (elem_bytes == 0)
        return fail(err, errlen, "%s: the bytes per vector entry must be at least 1", path);
    reader r;
    int rc = reader_open(&r, path, err, errlen), field = 0, sym = 0;
    need *needs = NULL;
    triple *msgs = NULL;
    size_t nneeds = 0, nmsgs = 0, cap = 0;
    char *line = rc ? NULL : reader_next(&r, &rc, err, errlen);
    if (rc == VINE_BENCH_OK && !line)
        rc = fail(err, errlen, "%s:1: empty file, no %%%%MatrixMarket banner", path);
    if (rc == VINE_BENCH_OK)
        rc = mtx_banner(line, path, &field, &sym, err, errlen);
    /* The size line follows the comments. */
    unsigned long long size[3] = {0, 0, 0};
    while (rc == VINE_BENCH_OK) {
        line = reader_next(&r, &rc, err, errlen);
        if (!line) {
            if (rc == VINE_BENCH_OK)
                rc = fail(err, errlen, "%s:%ld: no size line 'ROWS COLUMNS ENTRIES'", path,
                          r.lineno + 1);
            break;
        }
        char *s = trim(line), *w[3];
        if (*s == '\0' || *s == '%')
            continue;
        int n = words(s, w, 3);
        for (int k = 0; k < n && k < 3 && n == 3; k++)
            if (parse_uint(w[k], 1ULL << 62, &size[k]))
                n = -1;
        if (n != 3)
            rc = fail(err, errlen, "%s:%ld: expected the size line 'ROWS COLUMNS ENTRIES'", path,
                      r.lineno);
        else if (sym == MTX_SYMMETRIC && size[0] != size[1])
            rc = fail(err, errlen, "%s:%ld: a symmetric matrix must be square (%llu x %llu)", path,
                      r.lineno, size[0], size[1]);
        break;
    }
    if (rc == VINE_BENCH_OK)
        rc = mtx_entries(&r, field, sym, size[0], size[1], size[2], m->p, &needs, &nneeds, err,
                         errlen);
    reader_close(&r);
    /* Distinct x entries per (owner, needer): one message each pair. */
    if (rc == VINE_BENCH_OK && nneeds) {
        qsort(needs, nneeds, sizeof *needs, cmp_need);
        for (size_t i = 0; i < nneeds && rc == VINE_BENCH_OK; i++) {
            const need *x = &needs[i];
            if (i && x->owner == needs[i - 1].owner && x->needer == needs[i - 1].needer) {
                if (x->col != needs[i - 1].col) {
                    if (msgs[nmsgs - 1].bytes > SIZE_MAX - elem_bytes)
                        rc = fail(err, errlen, "%s: a message exceeds SIZE_MAX bytes", path);
                    else
                        msgs[nmsgs - 1].bytes += elem_bytes;
                }
            } else if (push_triple(&msgs, &nmsgs, &cap,
                                   (triple){x->owner, x->needer, elem_bytes})) {
                rc = VINE_BENCH_ERR_NO_MEM;
                fail(err, errlen, "out of memory");
            }
        }
    }
    if (rc == VINE_BENCH_OK)
        rc = add_triples(m, msgs, nmsgs, err, errlen);
    free(needs);
    free(msgs);
    return rc;
}
