/*
 * Lines of values in JSON text (see jsonpos.h).  A scan moves forward one
 * byte at a time and counts the newlines it passes, so stepping from a
 * value to its next sibling costs the length of the value, and walking the
 * elements of an array in order costs one pass over the array's text.
 */
#include "jsonpos.h"

typedef struct scan {
    const char *s;
    size_t n, i;
    int line;
} scan;

static scan scan_at(const vine_jsonpos *p)
{
    return (scan){p->text, p->len, p->off, p->line};
}

static vine_jsonpos pos_at(const scan *x)
{
    return (vine_jsonpos){x->s, x->n, x->i, x->line};
}

/* The current byte, or '\0' at the end of the text. */
static char cur(const scan *x)
{
    return x->i < x->n ? x->s[x->i] : '\0';
}

static void adv(scan *x)
{
    if (x->i < x->n) {
        if (x->s[x->i] == '\n')
            x->line++;
        x->i++;
    }
}

static void skip_ws(scan *x)
{
    for (char c = cur(x); c == ' ' || c == '\t' || c == '\r' || c == '\n'; c = cur(x))
        adv(x);
}

/* Skips the string that starts at the current byte (a quote); 0, or -1 when unterminated. */
static int skip_string(scan *x)
{
    adv(x);
    while (x->i < x->n) {
        char c = cur(x);
        adv(x);
        if (c == '\\')
            adv(x);
        else if (c == '"')
            return 0;
    }
    return -1;
}

/* Skips one value (string, object, array, number or literal); 0, or -1 at a malformed end. */
static int skip_value(scan *x)
{
    char c = cur(x);
    if (c == '"')
        return skip_string(x);
    if (c == '{' || c == '[') {
        size_t depth = 0;
        while (x->i < x->n) {
            c = cur(x);
            if (c == '"') {
                if (skip_string(x))
                    return -1;
                continue;
            }
            if (c == '{' || c == '[')
                depth++;
            else if ((c == '}' || c == ']') && --depth == 0) {
                adv(x);
                return 0;
            }
            adv(x);
        }
        return -1;
    }
    if (x->i >= x->n)
        return -1;
    while (x->i < x->n && c != ',' && c != ']' && c != '}' && c != ' ' && c != '\t' && c != '\r' &&
           c != '\n') {
        adv(x);
        c = cur(x);
    }
    return 0;
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* The four hex digits at the current byte as a number, or -1. */
static long hex4(scan *x)
{
    long v = 0;
    for (int k = 0; k < 4; k++) {
        int d = hex_digit(cur(x));
        if (d < 0)
            return -1;
        v = v * 16 + d;
        adv(x);
    }
    return v;
}

/* The code point of a \u escape (the 'u' passed), joining a surrogate pair; -1 when malformed. */
static long code_point(scan *x)
{
    long cp = hex4(x);
    if (cp >= 0xD800 && cp <= 0xDBFF && cur(x) == '\\' && x->i + 1 < x->n &&
        x->s[x->i + 1] == 'u') {
        adv(x);
        adv(x);
        long low = hex4(x);
        if (low < 0xDC00 || low > 0xDFFF)
            return -1;
        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
    }
    return cp;
}

/* UTF-8 of cp into b; the number of bytes. */
static int utf8(long cp, unsigned char *b)
{
    if (cp < 0x80) {
        b[0] = (unsigned char)cp;
        return 1;
    }
    if (cp < 0x800) {
        b[0] = (unsigned char)(0xC0 | cp >> 6);
        b[1] = (unsigned char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        b[0] = (unsigned char)(0xE0 | cp >> 12);
        b[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
        b[2] = (unsigned char)(0x80 | (cp & 0x3F));
        return 3;
    }
    b[0] = (unsigned char)(0xF0 | cp >> 18);
    b[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3F));
    b[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
    b[3] = (unsigned char)(0x80 | (cp & 0x3F));
    return 4;
}

/* The bytes of the escape after a backslash into b; their number, or 0 when malformed. */
static int unescape(scan *x, unsigned char *b)
{
    static const char from[] = "bfnrt\"\\/", to[] = "\b\f\n\r\t\"\\/";
    char c = cur(x);
    adv(x);
    for (int k = 0; from[k]; k++)
        if (c == from[k]) {
            b[0] = (unsigned char)to[k];
            return 1;
        }
    if (c != 'u')
        return 0;
    long cp = code_point(x);
    return cp < 0 ? 0 : utf8(cp, b);
}

/* Reads the string at the current byte: 1 when it decodes to key, 0 when not, -1 when malformed. */
static int key_equals(scan *x, const char *key)
{
    const unsigned char *k = (const unsigned char *)key;
    int same = 1;
    adv(x);
    while (x->i < x->n) {
        unsigned char b[4] = {(unsigned char)cur(x)};
        int nb = 1;
        adv(x);
        if (b[0] == '"')
            return same && *k == '\0';
        if (b[0] == '\\' && (nb = unescape(x, b)) == 0)
            return -1;
        for (int j = 0; j < nb; j++) {
            same = same && *k != '\0' && *k == b[j];
            k += same;
        }
    }
    return -1;
}

vine_jsonpos vine__jsonpos_root(const char *text, size_t len)
{
    scan x = {text, text ? len : 0, 0, 1};
    skip_ws(&x);
    return pos_at(&x);
}

int vine__jsonpos_key(const vine_jsonpos *obj, const char *key, vine_jsonpos *out)
{
    scan x = scan_at(obj);
    if (cur(&x) != '{')
        return -1;
    adv(&x);
    for (;;) {
        skip_ws(&x);
        if (cur(&x) != '"')
            return -1;
        int eq = key_equals(&x, key);
        skip_ws(&x);
        if (eq < 0 || cur(&x) != ':')
            return -1;
        adv(&x);
        skip_ws(&x);
        if (eq) {
            *out = pos_at(&x);
            return 0;
        }
        if (skip_value(&x))
            return -1;
        skip_ws(&x);
        if (cur(&x) != ',')
            return -1;
        adv(&x);
    }
}

int vine__jsonpos_next(const vine_jsonpos *elem, vine_jsonpos *out)
{
    scan x = scan_at(elem);
    if (skip_value(&x))
        return -1;
    skip_ws(&x);
    if (cur(&x) != ',')
        return -1;
    adv(&x);
    skip_ws(&x);
    if (x.i >= x.n)
        return -1;
    *out = pos_at(&x);
    return 0;
}

int vine__jsonpos_index(const vine_jsonpos *arr, size_t i, vine_jsonpos *out)
{
    scan x = scan_at(arr);
    if (cur(&x) != '[')
        return -1;
    adv(&x);
    skip_ws(&x);
    if (x.i >= x.n || cur(&x) == ']')
        return -1;
    vine_jsonpos p = pos_at(&x);
    for (size_t k = 0; k < i; k++)
        if (vine__jsonpos_next(&p, &p))
            return -1;
    *out = p;
    return 0;
}
