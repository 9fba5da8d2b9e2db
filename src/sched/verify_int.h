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
    VINE_VRES_SYNC,     /* barrier: the rank's end depends on every rank's start */
    VINE_VRES_BLOCKS,   /* v collectives: the blocks of RECV (coll.h), its gaps untouched */
    VINE_VRES_PREFIX    /* scan, exscan: RECV[0, len) = ranks 0..res_from combined */
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

/*
 * One call of a run of consecutive calls on one communicator: its case, its
 * schedules and what the static checks derived from them.  Calls with the
 * same case and schedules share lay, partner and round_of (owner 0).
 */
typedef struct vine_vcall {
    const vine_args *a;
    vine_sched *s;
    vine_vlayout *lay;
    vine_vpeer **partner;
    uint32_t **round_of;
    uint64_t hash_all; /* sum of the hashes of all ranks' inputs of this call */
    int owner;
} vine_vcall;

/*
 * The last write of a piece of a rank's shared buffer (verify_race.c): the
 * owner's epoch at its end (a receive runs from the post of its round to the
 * round's completion: VINE_VEP_OPEN until then), its call and its op, or one
 * of the VINE_VW_* events.  A reader must have heard of the end.
 */
typedef struct vine_vwrite {
    uint32_t end;
    int call;
    uint32_t op;
} vine_vwrite;

#define VINE_VEP_OPEN UINT32_MAX
#define VINE_VW_NONE UINT32_MAX        /* never written (shm before the first call) */
#define VINE_VW_START (UINT32_MAX - 1) /* the user's buffer, handed over at the call's start */
#define VINE_VW_END (UINT32_MAX - 2)   /* the user's buffer, handed back at the call's end */

/* A read of [off, off + len) of another rank's shared buffer: by whom, its epoch, its op. */
typedef struct vine_vread {
    size_t off, len;
    int rank, call;
    uint32_t ep, op;
} vine_vread;

/*
 * Shadow state of [off, off + len): its last write and the reads since that
 * overlap it (reads keep their own ranges, so that many readers of small
 * pieces do not fragment the segments).
 */
typedef struct vine_vshseg {
    size_t off, len;
    vine_vwrite w;
    vine_vread *rd;
    uint32_t nrd, rd_cap;
} vine_vshseg;

/* A shared buffer's shadow: sorted segments covering [0, size). */
typedef struct vine_vshadow {
    vine_vshseg *a;
    size_t n, cap, size;
    int on; /* some GET reads this buffer: tracked */
} vine_vshadow;

/*
 * The flag of a rank in one call: its SET values in order and, per event the
 * WAITs can name (0: the call's start, k + 1: SET number k), how many WAITs
 * of the call it satisfies and the rank's vector clock at it, kept while some
 * of those WAITs have not run.  wait_t: the event that each of the rank's own
 * WAITs of the call waits for, in order (vine__vflag_target).
 */
typedef struct vine_vflag {
    size_t *set_val, nsets;
    uint32_t *refs;
    uint32_t **snap;
    uint32_t *wait_t;
} vine_vflag;

/* Result of a local operation that must wait for another rank's flag. */
#define VINE_VBLOCKED (-1)

/* The state of one verification. */
typedef struct vine_vctx {
    /* The call in view (vine__vview): what the static checks and messages see. */
    const vine_args *a;
    int p;
    vine_sched *s;
    vine_vlayout *lay;    /* p layouts */
    vine_vpeer **partner; /* partner[r][i] of rank r's message op i */
    uint32_t **round_of;  /* round_of[r][i]: the round of rank r's op i */
    uint64_t hash_all;    /* sum of the hashes of all ranks */
    int call;             /* the call in view, 0 .. ncalls-1 */
    vine_vcall *calls;
    int ncalls;
    vine_vbuf *bufs;  /* bufs[r * VINE_BUF_COUNT + b] */
    vine_vbuf *saved; /* several calls: saved[c * p + r], rank r's recv at the end of call c */
    /* The run (verify_sim.c): per rank */
    int *callno;     /* the call it is in */
    size_t *cur;     /* the round it has posted (nrounds: done with the call) */
    size_t *pending; /* unmatched messages of that round */
    size_t *pc;      /* the next local op of a completed round */
    uint8_t *phase;  /* 1 once the round's messages completed */
    size_t *nset;    /* SETs run in the current call */
    size_t *nwait;   /* WAITs passed in the current call */
    int *blocked;    /* the rank whose flag it waits for, or -1 */
    long *wtarget;   /* and the flag event it waits for (vine__vflag_target) */
    int *whead, *wnext;
    int *stack; /* ranks whose posted round is complete, or whose WAIT may pass */
    size_t nstack;
    vine_vvec v1, v2, v3, tmp;
    /*
     * Barriers only (a layout with VINE_VRES_SYNC), else NULL: bitsets of
     * sync_words words per rank.  heard[r] holds the ranks whose start rank r
     * has causally heard of as of the start of its posted round; news[r] what
     * the receives of that round bring, merged into heard[r] when it completes.
     * With vector clocks heard is filled from them at the end of each call,
     * and holds ncalls sets per rank: call c's from heard + c * p * sync_words.
     */
    uint64_t *heard, *news;
    size_t sync_words;
    /*
     * Vector clocks (verify_race.c), kept when a schedule uses shared memory
     * or calls follow each other (else vc is NULL): vc[r * p + q] is the last
     * epoch of rank q that rank r has heard of; vc[r * p + r] is r's own
     * clock, ticked at every event.  vnews[r * p ..] gathers what the messages
     * of r's posted round carry.  start_ep[c * p + r]: r's epoch at the start
     * of call c (0 before).  flags[c * p + r]: r's flag in call c.
     * shadow[r * VINE_BUF_COUNT + b]: the shadow of r's buffer b.
     */
    int clocks; /* keep them (set before the run) */
    uint32_t *vc, *vnews, *start_ep;
    vine_vflag *flags;
    vine_vshadow *shadow;
    uint32_t **spare; /* clocks of p entries to reuse for SETs */
    size_t nspare, spare_cap;
    /*
     * Parity slots (sched.h): par_slot[c] is the slot that call c's par
     * schedules see (the par calls before c, mod 2); par_size the elements of
     * one slot.  Rank r's buffer VINE_BUF_PAR holds both slots, slot k at
     * k * par_size, in the data and in the shadows.
     */
    int *par_slot;
    size_t par_size;
    /*
     * Eager slots (sched.h): eag_slot[c] is the slot of call c (the shm calls
     * before c, mod 2), prev_shm[c] the shm call before c (-1: none, WAIT
     * PREV passes at once).  Rank r's buffer VINE_BUF_EAG holds both slots,
     * slot k at k * par_size.  wcall[r]: the call whose flag event rank r is
     * blocked on.
     */
    int *eag_slot, *prev_shm, *wcall;
    char *msg;
    size_t msglen;
} vine_vctx;

/* Puts call c in view. */
static inline void vine__vview(vine_vctx *ctx, int c)
{
    const vine_vcall *k = &ctx->calls[c];
    ctx->call = c;
    ctx->a = k->a;
    ctx->s = k->s;
    ctx->lay = k->lay;
    ctx->partner = k->partner;
    ctx->round_of = k->round_of;
    ctx->hash_all = k->hash_all;
}

/* Rank r's schedule in the call it is in. */
static inline const vine_sched *vine__vsched(const vine_vctx *ctx, int r)
{
    return &ctx->calls[ctx->callno[r]].s[r];
}

/* Where offset off of buffer b lies for rank r in its call: PAR's or EAG's slot added. */
static inline size_t vine__vphys(const vine_vctx *ctx, int r, int b, size_t off)
{
    if (b == VINE_BUF_PAR)
        return off + (size_t)ctx->par_slot[ctx->callno[r]] * ctx->par_size;
    if (b == VINE_BUF_EAG)
        return off + (size_t)ctx->eag_slot[ctx->callno[r]] * ctx->par_size;
    return off;
}

/* The 64-bit mixer naming rank r's contribution (splitmix64's finaliser). */
uint64_t vine__vhash(int r);
/* The hash of rank r's input in call c (vine__vhash(r) in call 0). */
uint64_t vine__vhash_call(int r, int c);

/*
 * Sets ctx->msg to "rank r round k op i (op): <fmt>" (op i of the call in
 * view, prefixed "call c: " when calls follow each other) and returns
 * VINE_ERR_INTERNAL.
 */
int vine__verr_op(vine_vctx *ctx, int r, size_t i, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* Sets ctx->msg to the formatted text (with the call's prefix) and returns VINE_ERR_INTERNAL. */
int vine__verr(vine_vctx *ctx, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Writes a short description of op into out. */
void vine__vop_str(const vine_op *op, char *out, size_t outlen);
const char *vine__vbuf_name(int b);
/* Whether ranks r and q may share memory: the same node (level 0) of a->levels. */
int vine__vsame_node(const vine_args *a, int r, int q);

/* Checks 1 and 2 of the call in view: structure, bounds, the read-only send buffer, overlaps. */
int vine__verify_static(vine_vctx *ctx);
/* Check 3: pairs the k-th send from a to b with the k-th receive at b from a. */
int vine__verify_match(vine_vctx *ctx);
/*
 * Checks 4 and 5: runs all ranks through all calls with rendezvous
 * semantics, moving the data; for a barrier also records in heard which
 * starts each rank has heard of; with vector clocks checks the races
 * (verify_race.c); with several calls keeps each call's receive buffers in
 * saved.
 */
int vine__verify_run(vine_vctx *ctx);
/* Check 6 for the call in view: every rank's result (for a barrier: that it heard of every rank).
 */
int vine__verify_result(vine_vctx *ctx);
/* Gives rank r fresh user buffers and scratch for the call it is in (its input filled in). */
int vine__verify_init_rank(vine_vctx *ctx, int r);

/*
 * Happens-before and races (verify_race.c), used by the run when ctx->vc is
 * set.  Epochs tick at every event of a rank: the start and end of a call,
 * the post and completion of a round, every local operation.
 */
int vine__vrace_init(vine_vctx *ctx);
void vine__vrace_free(vine_vctx *ctx);
/* Rank r entered the call callno[r] (its buffers are set up). */
int vine__vrace_start(vine_vctx *ctx, int r);
/* Rank r finished its call: hands its user buffers back. */
int vine__vrace_end(vine_vctx *ctx, int r);
/* Rank r posted the round [b, e) of its call: receives into shared buffers start. */
int vine__vrace_post(vine_vctx *ctx, int r, size_t b, size_t e);
/* A message from rank from to rank to matched: it carries from's clock. */
void vine__vrace_msg(vine_vctx *ctx, int from, int to);
/* The messages of rank r's round [b, e) completed. */
void vine__vrace_complete(vine_vctx *ctx, int r, size_t b, size_t e);
/* Rank r runs its local op i (not SET or WAIT): checks what it reads of others and writes. */
int vine__vrace_local(vine_vctx *ctx, int r, size_t i);
/* Rank r ran its SET number k of the call. */
int vine__vrace_set(vine_vctx *ctx, int r, size_t k);
/* The flag event of rank q in call c that satisfies a WAIT for v: 0 the start, k + 1 SET k; -1
 * none. */
long vine__vflag_target(const vine_vctx *ctx, int c, int q, size_t v);
/* Rank r's WAIT for event t of rank q in call c passes: r learns q's clock there. */
void vine__vrace_acquire(vine_vctx *ctx, int r, int q, int c, long t);

#endif
