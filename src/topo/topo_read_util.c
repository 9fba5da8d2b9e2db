/*
 * Helpers shared by the topology readers, placement and hostlists: see
 * topo_read_util.h.
 */
#include "topo_read_util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int vine__rerr(char *err, size_t errlen, const char *path, int line, const char *fmt, ...)
{
    if (!err || errlen == 0)
        return VINE_ERR_UNSUPPORTED;
    int k = line > 0 ? snprintf(err, errlen, "%s:%d: ", path, line)
                     : snprintf(err, errlen, "%s: ", path);
    if (k >= 0 && (size_t)k < errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err + k, errlen - (size_t)k, fmt, ap);
        va_end(ap);
    }
    return VINE_ERR_UNSUPPORTED;
}

/* The line number of byte off (1-based). */
static int line_of(const char *buf, size_t off)
{
    int line = 1;
    for (size_t i = 0; i < off; i++)
        line += buf[i] == '\n';
    return line;
}

int vine__rfile_open(vine_rfile *f, const char *path, char *err, size_t errlen)
{
    memset(f, 0, sizeof *f);
    f->path = path;
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return vine__rerr(err, errlen, path, 0, "cannot open: %s", strerror(errno));
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    if (!buf) {
        fclose(fp);
        return VINE_ERR_NO_MEM;
    }
    for (;;) {
        if (len + 1 >= cap) {
            if (cap > VINE_RFILE_MAX) {
                free(buf);
                fclose(fp);
                return vine__rerr(err, errlen, path, 0, "file larger than %zu bytes",
                                  (size_t)VINE_RFILE_MAX);
            }
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                fclose(fp);
                return VINE_ERR_NO_MEM;
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + len, 1, cap - 1 - len, fp);
        len += got;
        if (got == 0)
            break;
    }
    int bad = ferror(fp);
    fclose(fp);
    if (bad) {
        free(buf);
        return vine__rerr(err, errlen, path, 0, "read error");
    }
    buf[len] = '\0';
    const char *nul = memchr(buf, '\0', len);
    if (nul) {
        int line = line_of(buf, (size_t)(nul - buf));
        free(buf);
        return vine__rerr(err, errlen, path, line, "NUL byte (not a text file)");
    }
    size_t start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i == len || buf[i] == '\n') {
            if (i - start > VINE_RLINE_MAX) {
                int line = line_of(buf, start);
                free(buf);
                return vine__rerr(err, errlen, path, line, "line longer than %zu bytes",
                                  (size_t)VINE_RLINE_MAX);
            }
            start = i + 1;
        }
    }
    f->buf = buf;
    f->len = len;
    return VINE_OK;
}

char *vine__rfile_line(vine_rfile *f)
{
    if (!f->buf || f->pos >= f->len)
        return NULL;
    char *s = f->buf + f->pos;
    char *nl = memchr(s, '\n', f->len - f->pos);
    size_t n = nl ? (size_t)(nl - s) : f->len - f->pos;
    s[n] = '\0';
    if (n > 0 && s[n - 1] == '\r')
        s[n - 1] = '\0';
    f->pos += n + 1;
    f->lineno++;
    return s;
}

void vine__rfile_close(vine_rfile *f)
{
    free(f->buf);
    f->buf = NULL;
}

/* FNV-1a: short keys, good spread for names that differ in their digits. */
static uint64_t hash_str(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
    return h ^ (h >> 29);
}

void vine__strmap_init(vine_strmap *m)
{
    memset(m, 0, sizeof *m);
}

void vine__strmap_free(vine_strmap *m)
{
    free(m->keys);
    free(m->vals);
    vine__strmap_init(m);
}

static int strmap_grow(vine_strmap *m)
{
    size_t cap = m->cap ? m->cap * 2 : 64;
    const char **keys = calloc(cap, sizeof *keys);
    int *vals = malloc(cap * sizeof *vals);
    if (!keys || !vals) {
        free(keys);
        free(vals);
        return VINE_ERR_NO_MEM;
    }
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->keys[i])
            continue;
        size_t j = hash_str(m->keys[i]) & (cap - 1);
        while (keys[j])
            j = (j + 1) & (cap - 1);
        keys[j] = m->keys[i];
        vals[j] = m->vals[i];
    }
    free(m->keys);
    free(m->vals);
    m->keys = keys;
    m->vals = vals;
    m->cap = cap;
    return VINE_OK;
}

int vine__strmap_add(vine_strmap *m, const char *key, int val, int *old)
{
    *old = -1;
    if (2 * (m->n + 1) > m->cap && strmap_grow(m) != VINE_OK)
        return VINE_ERR_NO_MEM;
    size_t j = hash_str(key) & (m->cap - 1);
    while (m->keys[j]) {
        if (strcmp(m->keys[j], key) == 0) {
            *old = m->vals[j];
            return VINE_OK;
        }
        j = (j + 1) & (m->cap - 1);
    }
    m->keys[j] = key;
    m->vals[j] = val;
    m->n++;
    return VINE_OK;
}

int vine__strmap_get(const vine_strmap *m, const char *key)
{
    if (m->cap == 0)
        return -1;
    size_t j = hash_str(key) & (m->cap - 1);
    while (m->keys[j]) {
        if (strcmp(m->keys[j], key) == 0)
            return m->vals[j];
        j = (j + 1) & (m->cap - 1);
    }
    return -1;
}

int vine__topo_check_connected(const vine_topo *t, const char *path, char *err, size_t errlen)
{
    if (t->nhosts == 0)
        return vine__rerr(err, errlen, path, 0, "no hosts");
    int *queue = malloc((size_t)t->nvert * sizeof *queue);
    unsigned char *seen = calloc((size_t)t->nvert, 1);
    if (!queue || !seen) {
        free(queue);
        free(seen);
        return VINE_ERR_NO_MEM;
    }
    int head = 0, tail = 0;
    queue[tail++] = t->host_vert[0];
    seen[t->host_vert[0]] = 1;
    while (head < tail) {
        int v = queue[head++];
        for (int i = t->adj_start[v]; i < t->adj_start[v + 1]; i++) {
            int w = vine__topo_arc_head(t, t->adj_arc[i]);
            if (!seen[w]) {
                seen[w] = 1;
                queue[tail++] = w;
            }
        }
    }
    int rc = VINE_OK;
    for (int h = 0; h < t->nhosts; h++) {
        if (!seen[t->host_vert[h]]) {
            char b0[32], b1[32];
            rc = vine__rerr(err, errlen, path, 0,
                            "the network is not connected: no path from host %s to host %s",
                            vine__topo_vname(t, t->host_vert[0], b0, sizeof b0),
                            vine__topo_vname(t, t->host_vert[h], b1, sizeof b1));
            break;
        }
    }
    free(queue);
    free(seen);
    return rc;
}

void vine__topo_set_file_name(vine_topo *t, const char *kind, const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    snprintf(t->name, sizeof t->name, "%s %.*s", kind, (int)(sizeof t->name - 2 - strlen(kind)),
             base);
}
