/*
 * A checker for the files `vine sim` writes, used by tests/unit/sim_cli.sh
 * (no python or jq needed):
 *
 *   sim_file_check json FILE KEY...   FILE is one valid JSON value (RFC 8259
 *                                     grammar, checked by recursive descent)
 *                                     and every KEY occurs as an object key
 *   sim_file_check csv FILE MINROWS   FILE is CSV (RFC 4180 quoting) whose
 *                                     rows all have the header's number of
 *                                     fields, with at least MINROWS data rows
 *
 * Exits 0 when the file passes, 1 with a message naming the offset or line
 * when it does not, 2 on bad arguments.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct parser {
    const char *s;
    size_t i, n;
    const char *err;
    char **keys; /* keys to find; found ones are set to NULL */
    int nkeys;
} parser;

static void ws(parser *p)
{
    while (p->i < p->n && strchr(" \t\r\n", p->s[p->i]))
        p->i++;
}

static int fail(parser *p, const char *why)
{
    if (!p->err)
        p->err = why;
    return -1;
}

static int value(parser *p, int depth);

/* A string; when key is set, marks it found if it is one of the keys. */
static int string(parser *p, int key)
{
    size_t start = ++p->i;
    while (p->i < p->n && p->s[p->i] != '"') {
        unsigned char c = (unsigned char)p->s[p->i];
        if (c < 0x20)
            return fail(p, "control character in a string");
        if (c == '\\') {
            p->i++;
            if (p->i >= p->n || !strchr("\"\\/bfnrtu", p->s[p->i]))
                return fail(p, "bad escape");
            if (p->s[p->i] == 'u') {
                for (int k = 1; k <= 4; k++)
                    if (p->i + k >= p->n || !strchr("0123456789abcdefABCDEF", p->s[p->i + k]))
                        return fail(p, "bad \\u escape");
                p->i += 4;
            }
        }
        p->i++;
    }
    if (p->i >= p->n)
        return fail(p, "unterminated string");
    size_t len = p->i - start;
    for (int k = 0; key && k < p->nkeys; k++)
        if (p->keys[k] && strlen(p->keys[k]) == len && memcmp(p->keys[k], p->s + start, len) == 0)
            p->keys[k] = NULL;
    p->i++;
    return 0;
}

static int digits(parser *p)
{
    size_t start = p->i;
    while (p->i < p->n && p->s[p->i] >= '0' && p->s[p->i] <= '9')
        p->i++;
    return p->i > start ? 0 : fail(p, "digit expected");
}

static int number(parser *p)
{
    if (p->s[p->i] == '-')
        p->i++;
    if (p->i < p->n && p->s[p->i] == '0')
        p->i++;
    else if (digits(p))
        return -1;
    if (p->i < p->n && p->s[p->i] == '.') {
        p->i++;
        if (digits(p))
            return -1;
    }
    if (p->i < p->n && (p->s[p->i] == 'e' || p->s[p->i] == 'E')) {
        p->i++;
        if (p->i < p->n && (p->s[p->i] == '+' || p->s[p->i] == '-'))
            p->i++;
        if (digits(p))
            return -1;
    }
    return 0;
}

static int literal(parser *p, const char *word)
{
    size_t len = strlen(word);
    if (p->n - p->i < len || memcmp(p->s + p->i, word, len) != 0)
        return fail(p, "unexpected character");
    p->i += len;
    return 0;
}

/* An object or array after its opening bracket. */
static int members(parser *p, int depth, int object)
{
    char close = object ? '}' : ']';
    p->i++;
    ws(p);
    if (p->i < p->n && p->s[p->i] == close) {
        p->i++;
        return 0;
    }
    for (;;) {
        ws(p);
        if (object) {
            if (p->i >= p->n || p->s[p->i] != '"' || string(p, 1))
                return fail(p, "object key expected");
            ws(p);
            if (p->i >= p->n || p->s[p->i++] != ':')
                return fail(p, "':' expected");
        }
        if (value(p, depth + 1))
            return -1;
        ws(p);
        if (p->i >= p->n)
            return fail(p, "unterminated object or array");
        char c = p->s[p->i++];
        if (c == close)
            return 0;
        if (c != ',')
            return fail(p, "',' or closing bracket expected");
    }
}

static int value(parser *p, int depth)
{
    ws(p);
    if (depth > 64)
        return fail(p, "nested too deeply");
    if (p->i >= p->n)
        return fail(p, "value expected");
    char c = p->s[p->i];
    if (c == '{' || c == '[')
        return members(p, depth, c == '{');
    if (c == '"')
        return string(p, 0);
    if (c == '-' || (c >= '0' && c <= '9'))
        return number(p);
    if (c == 't')
        return literal(p, "true");
    if (c == 'f')
        return literal(p, "false");
    return literal(p, "null");
}

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            char *b = realloc(buf, cap *= 2);
            if (!b) {
                free(buf);
                buf = NULL;
            }
            buf = b;
        }
    }
    fclose(f);
    *n = len;
    return buf;
}

static int check_json(const char *path, char **keys, int nkeys)
{
    size_t n;
    char *s = slurp(path, &n);
    if (!s) {
        printf("%s: cannot read\n", path);
        return 1;
    }
    parser p = {s, 0, n, NULL, keys, nkeys};
    int rc = value(&p, 0);
    ws(&p);
    if (!rc && p.i != n)
        rc = fail(&p, "text after the value");
    if (rc)
        printf("%s: invalid JSON at byte %zu: %s\n", path, p.i, p.err);
    for (int k = 0; !rc && k < nkeys; k++)
        if (p.keys[k]) {
            printf("%s: no key \"%s\"\n", path, p.keys[k]);
            rc = -1;
        }
    free(s);
    return rc ? 1 : 0;
}

static int check_csv(const char *path, long minrows)
{
    size_t n;
    char *s = slurp(path, &n);
    if (!s) {
        printf("%s: cannot read\n", path);
        return 1;
    }
    long line = 1, fields = 1, header = -1, rows = 0;
    int quoted = 0, rc = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        char c = s[i];
        if (quoted) {
            if (c == '"' && i + 1 < n && s[i + 1] == '"')
                i++;
            else if (c == '"')
                quoted = 0;
        } else if (c == '"') {
            quoted = 1;
        } else if (c == ',') {
            fields++;
        } else if (c == '\n') {
            if (header < 0)
                header = fields;
            else if (fields != header) {
                printf("%s:%ld: %ld fields, the header has %ld\n", path, line, fields, header);
                rc = 1;
            } else
                rows++;
            line++;
            fields = 1;
        }
    }
    if (!rc && (quoted || (n && s[n - 1] != '\n'))) {
        printf("%s:%ld: unterminated last line or quote\n", path, line);
        rc = 1;
    }
    if (!rc && rows < minrows) {
        printf("%s: %ld data rows, expected at least %ld\n", path, rows, minrows);
        rc = 1;
    }
    free(s);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc >= 3 && strcmp(argv[1], "json") == 0)
        return check_json(argv[2], argv + 3, argc - 3);
    if (argc == 4 && strcmp(argv[1], "csv") == 0)
        return check_csv(argv[2], atol(argv[3]));
    fprintf(stderr, "usage: sim_file_check json FILE KEY... | csv FILE MINROWS\n");
    return 2;
}
