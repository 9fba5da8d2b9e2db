/*
 * Helpers shared by the topology readers (topo_read_*.c), placement and
 * hostlists (MPI-free, private to src/topo): whole-file text buffers walked
 * line by line, "FILE:LINE: problem" messages, a string -> int hash map, and
 * the connectivity check every reader ends with.
 */
#ifndef VINE_TOPO_READ_UTIL_H
#define VINE_TOPO_READ_UTIL_H

#include "topo.h"

#include <stddef.h>
#include <stdint.h>

/* Inputs larger than these are refused with a message, not read. */
#define VINE_RFILE_MAX ((size_t)1 << 30) /* bytes in a file */
#define VINE_RLINE_MAX ((size_t)1 << 20) /* bytes in a line */
#define VINE_READ_MAX_NAMES (1 << 24)    /* hosts, switches or hostlist names */
#define VINE_READ_MAX_LINKS (1 << 26)

/*
 * A text file read whole: buf holds len bytes and a NUL.  vine__rfile_open
 * refuses files with a NUL byte (binary data) or a line over VINE_RLINE_MAX.
 * vine__rfile_line returns the next line with its end of line ("\n", "\r\n")
 * replaced by NULs, and sets lineno (1-based); NULL at the end.
 */
typedef struct vine_rfile {
    const char *path;
    char *buf;
    size_t len;
    size_t pos;
    int lineno;
} vine_rfile;

int vine__rfile_open(vine_rfile *f, const char *path, char *err, size_t errlen);
char *vine__rfile_line(vine_rfile *f);
void vine__rfile_close(vine_rfile *f);

/* Writes "PATH:LINE: message" (no LINE when line <= 0) into err; returns
 * VINE_ERR_UNSUPPORTED. */
int vine__rerr(char *err, size_t errlen, const char *path, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* Skips spaces and tabs. */
static inline char *vine__skip_ws(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

/*
 * String -> int map with open addressing.  Keys are borrowed: they must stay
 * valid while the map is used.
 */
typedef struct vine_strmap {
    const char **keys;
    int *vals;
    size_t cap; /* a power of two, or 0 */
    size_t n;
} vine_strmap;

void vine__strmap_init(vine_strmap *m);
void vine__strmap_free(vine_strmap *m);
/* Inserts key -> val unless key is there; *old = its value then, else -1.
 * Returns VINE_OK or VINE_ERR_NO_MEM. */
int vine__strmap_add(vine_strmap *m, const char *key, int val, int *old);
/* The value of key, or -1. */
int vine__strmap_get(const vine_strmap *m, const char *key);

/*
 * Checks, after vine__topo_finish, that t has a host and that every host
 * reaches host 0; otherwise writes "PATH: ..." and returns
 * VINE_ERR_UNSUPPORTED.
 */
int vine__topo_check_connected(const vine_topo *t, const char *path, char *err, size_t errlen);

/* Sets t->name to "KIND FILE" (the file's base name, truncated to fit). */
void vine__topo_set_file_name(vine_topo *t, const char *kind, const char *path);

/* splitmix64 (Steele, Lea, Flood 2014): the seeded generator of placement. */
static inline uint64_t vine__splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* A uniform integer in [0, n) (n > 0), without modulo bias (rejection). */
static inline uint64_t vine__rand_below(uint64_t *state, uint64_t n)
{
    uint64_t limit = -n % n; /* 2^64 mod n: draws below it would bias the result */
    for (;;) {
        uint64_t r = vine__splitmix64(state);
        if (r >= limit)
            return r % n;
    }
}

#endif
