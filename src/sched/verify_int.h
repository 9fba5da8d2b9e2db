/*
 * Internals of the symbolic verifier, shared by src/sched/verify*.c only.
 */
#ifndef VINE_VERIFY_INT_H
#define VINE_VERIFY_INT_H

#include "verify.h"

#include <stddef.h>
#include <stdint.h>

/*
 * What one element holds: the number of contributions, the sum (mod 2^64) of
 * the ranks' hashes, and, for the operand order of non-commutative ops, the
 * lowest and highest contributing rank and whether they were combined in
 * rank order.  Undefined elements have every field zero.
 */
typedef struct vine_vdesc {
    uint64_t hash;
    int32_t n, lo, hi;
    uint8_t defined, ordered;
} vine_vdesc;

/*
 * A segment: elements [off, off + len) of a buffer hold the descriptor d for
 * the consecutive element indices e0, e0 + 1, ... (e0 is 0 when undefined).
 */
typedef struct vine_vseg {
    size_t off, len, e0;
    vine_vdesc d;
} vine_vseg;

/* A plain growable list of segments, offsets relative to a range's start. */
typedef struct vine_vvec {
    vine_vseg *a;
    size_t n, cap;
} vine_vvec;

/*
 * A buffer: sorted segments covering [0, size) exactly, kept in a gap buffer
 * (logical segment i lies at a[i] before the gap, a[i + gap length] after),
 * so writes near the previous write cost O(1) moves instead of O(n).
 */
typedef struct vine_vbuf {
    vine_vseg *a;
    size_t cap, n, gap;
    size_t size;
    size_t hint; /* the segment found last: where the next search starts */
} vine_vbuf;

static inline vine_vseg *vine__vbuf_at(const vine_vbuf *b, size_t i)
{
    return &b->a[i < b->gap ? i : i + (b->cap - b->n)];
}

int vine__vdesc_eq(const vine_vdesc *x, const vine_vdesc *y);
/* Appends s to v, merging it into the last segment when they continue. */
int vine__vvec_push(vine_vvec *v, const vine_vseg *s);
void vine__vvec_free(vine_vvec *v);

/* A buffer of size elements, all undefined. */
int vine__vbuf_init(vine_vbuf *b, size_t size);
void vine__vbuf_free(vine_vbuf *b);
/* Index of the segment holding element off (off < b->size). */
size_t vine__vbuf_locate(vine_vbuf *b, size_t off);
/* v := the segments of [off, off + len), offsets relative to off. */
int vine__vbuf_read(vine_vbuf *b, size_t off, size_t len, vine_vvec *v);
/* Replaces [off, off + length of v) by v; tmp is scratch. */
int vine__vbuf_write(vine_vbuf *b, size_t off, const vine_vvec *v, vine_vvec *tmp);
/* Writes one segment of len elements with descriptor d and first index e0. */
int vine__vbuf_fill(vine_vbuf *b, size_t off, size_t len, size_t e0, const vine_vdesc *d,
                    vine_vvec *v, vine_vvec *tmp);

/* What a rank's result must be. */
enum vine_vres {
    VINE_VRES_NONE = 0, /* no result on this rank */
    VINE_VRES_REDUCED,  /* RECV[0, len) = every rank's element e0 + i, combined */
    VINE_VRES_FROM,     /* RECV[0, len) = rank from's element e0 + i */
    VINE_VRES_GATHER,   /* RECV[i * len, +len) = rank i's elements e0 + ... */
    VINE_VRES_SYNC      /* barrier: the rank's end depends on every rank's start */
};

/* A rank's buffers and where its input and result lie (coll.h's contract). */
typedef struct vine_vlayout {
    size_t size[VINE_BUF_COUNT];
    int in_buf;
    size_t in_off, in_len; /* input element e sits at in_buf[in_off + e] */
    int res;               /* enum vine_vres */
    size_t res_len, res_e0;
    int res_from;
} vine_vlayout;

/* Fills *l for rank of the case a (size[VINE_BUF_TMP] is left 0). */
int vine__verify_layout(const vine_args *a, int rank, vine_vlayout *l);

/* Where a message operation's partner lies. */
typedef struct vine_vpeer {
    int rank;
    uint32_t op, round;
} vine_vpeer;

/* The state of one verification. */
typedef struct vine_vctx {
    const vine_args *a;
    int p;
    vine_sched *s;
    vine_vlayout *lay;    /* p layouts */
    vine_vpeer **partner; /* partner[r][i] of rank r's message op i */
    uint32_t **round_of;  /* round_of[r][i]: the round of rank r's op i */
    vine_vbuf *bufs;      /* bufs[r * VINE_BUF_COUNT + b] */
    size_t *cur;          /* the round each rank has posted (nrounds: done) */
    size_t *pending;      /* unmatched messages of that round */
    int *stack;           /* ranks whose posted round is complete */
    size_t nstack;
    vine_vvec v1, v2, v3, tmp;
    uint64_t hash_all; /* sum of the hashes of all ranks */
    /*
     * Barriers only (a layout with VINE_VRES_SYNC), else NULL: bitsets of
     * sync_words words per rank.  heard[r] holds the ranks whose start rank r
     * has causally heard of as of the start of its posted round; news[r] what
     * the receives of that round bring, merged into heard[r] when it completes.
     */
    uint64_t *heard, *news;
    size_t sync_words;
    char *msg;
    size_t msglen;
} vine_vctx;

/* The 64-bit mixer naming rank r's contribution (splitmix64's finaliser). */
uint64_t vine__vhash(int r);

/* Sets ctx->msg to "rank r round k op i (op): <fmt>" and returns VINE_ERR_INTERNAL. */
int vine__verr_op(vine_vctx *ctx, int r, size_t i, const char *fmt, ...);
/* Sets ctx->msg to the formatted text and returns VINE_ERR_INTERNAL. */
int vine__verr(vine_vctx *ctx, const char *fmt, ...);
/* Writes a short description of op into out. */
void vine__vop_str(const vine_op *op, char *out, size_t outlen);

/* Checks 1 and 2: structure, bounds, the read-only send buffer, overlaps. */
int vine__verify_static(vine_vctx *ctx);
/* Check 3: pairs the k-th send from a to b with the k-th receive at b from a. */
int vine__verify_match(vine_vctx *ctx);
/*
 * Checks 4 and 5: runs all ranks with rendezvous semantics, moving the data;
 * for a barrier also records in heard which starts each rank has heard of.
 */
int vine__verify_run(vine_vctx *ctx);
/* Check 6: every rank's result (for a barrier: that it heard of every rank). */
int vine__verify_result(vine_vctx *ctx);

#endif
