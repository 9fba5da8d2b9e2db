/*
 * The reduction engine of the shm family (shm_common.h): reduce-scatter on
 * shared memory, then, for allreduce and reduce, the reduced pieces read by
 * every rank or by the root.
 *
 * The input vector goes through the regions in chunks, and each chunk is cut
 * into pieces, each owned by one rank.  For allreduce and reduce, chunk c is
 * elements [c S, c S + S) of the vector and piece j its j-th of p even parts;
 * for reduce_scatter the blocks of a->counts are dealt round-robin, m
 * elements of each rank's block a round, and chunk c is the c-th run of S
 * elements of that stream, so that every chunk keeps all ranks busy.  In
 * chunk c every rank copies its input of the chunk into slot c % slots of its
 * region (as many slots as the region holds chunks) and SETs 3c + 1; the
 * owner of a piece folds the piece of all ranks' regions into its own
 * region's copy of it, x_{p-1} first, then x_j op (...) for j = p - 2 down
 * to 0 (GET, GETRED and one local REDUCE of its own input, all dst = src op
 * dst, so operands stay in rank order); SETs 3c + 2 when others will read
 * the result; and ranks that want the result GET the other owners' pieces.
 * A rank SETs 3c + 3 after its reads of chunk c, which the region's owner
 * WAITs for before it writes the slot again.  No rank but the owner reads a
 * region's copy of the owner's own piece, which is why the owner may fold
 * into it.
 *
 * Small vectors (count * p <= VINE_SHM_SMALL_TOTAL within one region) skip
 * the slicing: every rank copies its input into its region and SETs 1, and
 * each rank that wants the result folds all p inputs itself.  So does a
 * reduce_scatter of at most VINE_SHM_SMALL_TOTAL elements in all, each rank
 * folding only its own block.  Allreduce and reduce_scatter do so in the
 * parity slots (VINE_BUF_PAR) when the vector fits one, without the entry
 * wait (docs/shm.md "Parity slots"), and reduce in the eager slots
 * (VINE_BUF_EAG, "Eager slots").
 */
#include "../ranks.h"
#include "shm_common.h"

#include <stdlib.h>

/* Elements [x, x + len) of the input vector, owned by owner, at so in the region. */
typedef struct piece {
    int owner;
    size_t x, boff, len, so; /* boff: the offset in the owner's block (reduce_scatter) */
} piece;

typedef struct red {
    const vine_args *a;
    vine_shm_red_kind kind;
    int inbuf; /* the input vector: SEND, or RECV in place */
    vine_shm_plan pl;
    size_t len, m; /* the stream's length and (reduce_scatter) its piece length */
    size_t t, done;
    int j;              /* the stream's cursor: round t, rank j, done elements of the piece */
    piece **pc;         /* the pieces of chunk c in pc[c % ring], ring = slots + 1 */
    size_t *npc;        /* their number */
    size_t ring, cap;   /* room for cap pieces each */
    size_t *seen;       /* p stamps: which ranks a phase has waited for */
} red;

/* Pieces of chunk c for allreduce and reduce: the chunk in p even parts. */
static size_t vector_pieces(const red *R, size_t c, piece *out)
{
    int p = R->a->p;
    size_t lo = c * R->pl.chunk, base = (c % (size_t)R->pl.slots) * R->pl.chunk, k = 0;
    size_t len = R->len - lo < R->pl.chunk ? R->len - lo : R->pl.chunk;
    for (int j = 0; j < p; j++) {
        size_t off = vine__block_off(len, p, j), l = vine__block_len(len, p, j);
        if (l)
            out[k++] = (piece){j, lo + off, lo + off, l, base + off};
    }
    return k;
}

/* Pieces of chunk c for reduce_scatter, from the stream's cursor (chunks in order). */
static size_t stream_pieces(red *R, size_t c, piece *out)
{
    const size_t *counts = R->a->counts, *displs = R->a->displs;
    size_t lo = c * R->pl.chunk, base = (c % (size_t)R->pl.slots) * R->pl.chunk, k = 0, so = 0;
    size_t want = R->len - lo < R->pl.chunk ? R->len - lo : R->pl.chunk;
    while (so < want) {
        size_t b0 = R->t * R->m, plen = 0;
        if (counts[R->j] > b0)
            plen = counts[R->j] - b0 < R->m ? counts[R->j] - b0 : R->m;
        size_t take = plen - R->done < want - so ? plen - R->done : want - so;
        if (take) {
            size_t boff = b0 + R->done;
            out[k++] = (piece){R->j, displs[R->j] + boff, boff, take, base + so};
            so += take;
            R->done += take;
        }
        if (R->done == plen) {
            R->done = 0;
            R->t += R->j + 1 == R->a->p;
            R->j = R->j + 1 == R->a->p ? 0 : R->j + 1;
        }
    }
    return k;
}

/* Whether ranks other than a piece's owner read its result, and whether this rank reads them. */
static int others_read(const red *R)
{
    return R->kind == VINE_SHM_RED_ALL ||
           (R->kind == VINE_SHM_RED_ROOT && R->a->rank != R->a->root);
}

static int reads_results(const red *R)
{
    return R->kind == VINE_SHM_RED_ALL ||
           (R->kind == VINE_SHM_RED_ROOT && R->a->rank == R->a->root);
}

/* WAIT v on peer unless this phase (stamp) has already waited for it. */
static void wait_once(red *R, vine_sched *s, int peer, size_t v, size_t stamp)
{
    if (R->seen[peer] == stamp)
        return;
    R->seen[peer] = stamp;
    vine__sched_wait(s, peer, v);
}

/* WAITs for every reader of this rank's slot in chunk c to have read it (SET 3c + 3). */
static void reuse_wait(red *R, vine_sched *s, size_t c)
{
    const vine_args *a = R->a;
    const piece *P = R->pc[c % R->ring];
    size_t np = R->npc[c % R->ring], stamp = 4 * c + 1, v = 3 * c + 3;
    for (size_t k = 0; k < np && R->kind == VINE_SHM_RED_ALL; k++) {
        /* Every rank has read this rank's result: all are readers. */
        if (P[k].owner == a->rank) {
            vine__shm_wait_all(a, s, v);
            return;
        }
    }
    for (size_t k = 0; k < np; k++) {
        if (P[k].owner != a->rank)
            wait_once(R, s, P[k].owner, v, stamp);
        else if (others_read(R))
            wait_once(R, s, a->root, v, stamp);
    }
}

/* Copies this rank's input of the chunk into its slot, runs of adjacent pieces at once. */
static void copy_in(const red *R, vine_sched *s, const piece *P, size_t np)
{
    int r = R->a->rank, last = R->a->p - 1;
    size_t x = 0, so = 0, len = 0;
    for (size_t k = 0; k <= np; k++) {
        /* The owner's own piece is overwritten by x_{p-1} unless it is x_{p-1}. */
        if (k < np && P[k].owner == r && r != last)
            continue;
        if (k < np && len && P[k].x == x + len && P[k].so == so + len) {
            len += P[k].len;
            continue;
        }
        vine__sched_copy(s, R->inbuf, x, VINE_BUF_SHM, so, len);
        if (k < np) {
            x = P[k].x;
            so = P[k].so;
            len = P[k].len;
        }
    }
}

/* Folds piece q of every rank into this rank's region, in rank order, and places the result. */
static void fold(red *R, vine_sched *s, const piece *q, size_t c)
{
    int p = R->a->p, r = R->a->rank;
    size_t stamp = 4 * c + 2, v = 3 * c + 1;
    if (r != p - 1) {
        wait_once(R, s, p - 1, v, stamp);
        vine__sched_get(s, p - 1, VINE_BUF_SHM, q->so, VINE_BUF_SHM, q->so, q->len);
    }
    for (int j = p - 2; j >= 0; j--) {
        if (j == r) {
            vine__sched_reduce(s, R->inbuf, q->x, VINE_BUF_SHM, q->so, q->len, VINE_SRC_LEFT);
            continue;
        }
        wait_once(R, s, j, v, stamp);
        vine__sched_getred(s, j, VINE_BUF_SHM, q->so, VINE_BUF_SHM, q->so, q->len);
    }
    if (R->kind == VINE_SHM_RED_SCAT)
        vine__sched_copy(s, VINE_BUF_SHM, q->so, VINE_BUF_RECV, q->boff, q->len);
    else if (reads_results(R))
        vine__sched_copy(s, VINE_BUF_SHM, q->so, VINE_BUF_RECV, q->x, q->len);
}

/* GETs the other owners' results of chunk c, starting after this rank's pieces. */
static void gather(red *R, vine_sched *s, const piece *P, size_t np, size_t c)
{
    int r = R->a->rank;
    size_t first = 0, stamp = 4 * c + 3, v = 3 * c + 2;
    while (first < np && P[first].owner <= r)
        first++;
    for (size_t i = 0; i < np; i++) {
        const piece *q = &P[(first + i) % np];
        if (q->owner == r)
            continue;
        wait_once(R, s, q->owner, v, stamp);
        vine__sched_get(s, q->owner, VINE_BUF_SHM, q->so, VINE_BUF_RECV, q->x, q->len);
    }
}

static void red_chunk(red *R, vine_sched *s, size_t c)
{
    int r = R->a->rank, own = 0;
    size_t slots = (size_t)R->pl.slots, i = c % R->ring;
    R->npc[i] = R->kind == VINE_SHM_RED_SCAT ? stream_pieces(R, c, R->pc[i])
                                             : vector_pieces(R, c, R->pc[i]);
    if (c == 0)
        vine__shm_enter(R->a, s);
    else if (c >= slots)
        reuse_wait(R, s, c - slots);
    copy_in(R, s, R->pc[i], R->npc[i]);
    vine__sched_set(s, 3 * c + 1);
    for (size_t k = 0; k < R->npc[i]; k++) {
        if (R->pc[i][k].owner == r) {
            fold(R, s, &R->pc[i][k], c);
            own = 1;
        }
    }
    if (own && others_read(R))
        vine__sched_set(s, 3 * c + 2);
    if (reads_results(R))
        gather(R, s, R->pc[i], R->npc[i], c);
    if (c + slots < R->pl.nchunks)
        vine__sched_set(s, 3 * c + 3);
    vine__sched_fence(s);
}

/* Sets up the chunks and pieces of R; VINE_ERR_UNSUPPORTED or VINE_ERR_NO_MEM on failure. */
static int red_init(red *R)
{
    int p = R->a->p;
    int rc = vine__shm_plan(R->a, R->len, VINE_SHM_CHUNK_ELEMS, 3, &R->pl);
    if (rc != VINE_OK || R->pl.nchunks == 0)
        return rc;
    size_t S = R->pl.chunk;
    R->m = S / (size_t)p;
    if (R->m < VINE_SHM_MIN_PIECE)
        R->m = S < VINE_SHM_MIN_PIECE ? S : VINE_SHM_MIN_PIECE;
    /* Whole pieces of m, plus the two cut by the chunk's ends and the p blocks' last pieces. */
    R->cap = S / R->m + (size_t)p + 2;
    /* A chunk's pieces are kept until the reuse wait of chunk c + slots has read them. */
    R->ring = (size_t)R->pl.slots + 1;
    R->seen = calloc((size_t)p, sizeof *R->seen);
    R->npc = calloc(R->ring, sizeof *R->npc);
    R->pc = calloc(R->ring, sizeof *R->pc);
    if (!R->seen || !R->npc || !R->pc)
        return VINE_ERR_NO_MEM;
    for (size_t i = 0; i < R->ring; i++)
        if (!(R->pc[i] = malloc(R->cap * sizeof *R->pc[i])))
            return VINE_ERR_NO_MEM;
    return VINE_OK;
}

static void red_free(red *R)
{
    free(R->seen);
    free(R->npc);
    for (size_t i = 0; R->pc && i < R->ring; i++)
        free(R->pc[i]);
    free(R->pc);
}

/*
 * The small path: every rank that others read copies its input into its
 * region and SETs 1; every rank that wants the result folds x_{p-1}, then
 * x_j op (...) down to x_0, into RECV, its own input from a copy that the
 * fold cannot overwrite.  Allreduce copies into its parity slot (PAR)
 * instead, with no entry wait: every rank WAITs for every other rank's SET 1
 * of the call, which is what makes the slot of two par calls later free.
 * Reduce copies into its eager slot (EAG), after WAIT PREV instead of the
 * entry wait, so that the non-roots leave as soon as their input is in.
 */
static int red_small(const vine_args *a, vine_sched *s, int inbuf, int all)
{
    int p = a->p, r = a->rank, writer = all || r != a->root;
    size_t n = a->count;
    int own = inbuf, reg = VINE_BUF_SHM;
    if (all && vine__shm_slot_fits(a, s, n)) {
        vine__sched_par(s, n);
        reg = VINE_BUF_PAR;
    } else if (vine__shm_slot_fits(a, s, n)) {
        vine__sched_eag(s, n);
        reg = VINE_BUF_EAG;
        if (writer)
            vine__shm_enter_eag(a, s);
    } else if (writer) {
        vine__shm_enter(a, s);
    }
    if (writer) {
        vine__sched_copy(s, inbuf, 0, reg, 0, n);
        vine__sched_set(s, 1);
    }
    if (!all && r != a->root)
        return vine__sched_finish(s);
    if (inbuf == VINE_BUF_RECV && r != p - 1) {
        own = writer ? reg : VINE_BUF_TMP;
        if (!writer) {
            vine__sched_need_tmp(s, n);
            vine__sched_copy(s, VINE_BUF_RECV, 0, VINE_BUF_TMP, 0, n);
        }
    }
    if (r == p - 1) {
        if (inbuf != VINE_BUF_RECV)
            vine__sched_copy(s, inbuf, 0, VINE_BUF_RECV, 0, n);
    } else {
        vine__sched_wait(s, p - 1, 1);
        vine__sched_get(s, p - 1, reg, 0, VINE_BUF_RECV, 0, n);
    }
    for (int j = p - 2; j >= 0; j--) {
        if (j == r) {
            vine__sched_reduce(s, own, 0, VINE_BUF_RECV, 0, n, VINE_SRC_LEFT);
            continue;
        }
        vine__sched_wait(s, j, 1);
        vine__sched_getred(s, j, reg, 0, VINE_BUF_RECV, 0, n);
    }
    return vine__sched_finish(s);
}

/*
 * The small path of reduce_scatter: every rank copies its whole input into
 * its region and SETs 1; each rank folds its own block of all p copies,
 * x_{p-1} first, into RECV (its own operand from its region's copy, which an
 * in-place result cannot overwrite).  Each rank reads p blocks and no rank
 * waits for a piece's owner, where the chunked path adds a second hand-off.
 * On the parity slots (PAR, no entry wait) a rank with an empty block still
 * WAITs for every other rank's SET 1: the next par call's writes rely on it.
 */
static int red_small_scat(const vine_args *a, vine_sched *s, int inbuf)
{
    int p = a->p, r = a->rank, reg = VINE_BUF_SHM;
    size_t len = a->displs[p], off = a->displs[r], n = a->counts[r];
    if (vine__shm_slot_fits(a, s, len)) {
        vine__sched_par(s, len);
        reg = VINE_BUF_PAR;
    } else {
        vine__shm_enter(a, s);
    }
    vine__sched_copy(s, inbuf, 0, reg, 0, len);
    vine__sched_set(s, 1);
    if (n == 0) {
        if (reg == VINE_BUF_PAR)
            vine__shm_wait_all(a, s, 1);
        return vine__sched_finish(s);
    }
    if (r == p - 1) {
        vine__sched_copy(s, reg, off, VINE_BUF_RECV, 0, n);
    } else {
        vine__sched_wait(s, p - 1, 1);
        vine__sched_get(s, p - 1, reg, off, VINE_BUF_RECV, 0, n);
    }
    for (int j = p - 2; j >= 0; j--) {
        if (j == r) {
            vine__sched_reduce(s, reg, off, VINE_BUF_RECV, 0, n, VINE_SRC_LEFT);
            continue;
        }
        vine__sched_wait(s, j, 1);
        vine__sched_getred(s, j, reg, off, VINE_BUF_RECV, 0, n);
    }
    return vine__sched_finish(s);
}

int vine__shm_reduce(const vine_args *a, vine_sched *s, vine_shm_red_kind kind)
{
    int inplace = a->inplace && (kind != VINE_SHM_RED_ROOT || a->rank == a->root);
    red R = {.a = a, .kind = kind, .inbuf = inplace ? VINE_BUF_RECV : VINE_BUF_SEND};
    R.len = kind == VINE_SHM_RED_SCAT ? a->displs[a->p] : a->count;
    vine__sched_shm(s);
    if (a->p == 1 || R.len == 0) {
        if (!inplace)
            vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_RECV, 0, R.len);
        return vine__sched_finish(s);
    }
    if (kind != VINE_SHM_RED_SCAT && R.len <= a->shm_count &&
        R.len <= VINE_SHM_SMALL_TOTAL / (size_t)a->p)
        return red_small(a, s, R.inbuf, kind == VINE_SHM_RED_ALL);
    if (kind == VINE_SHM_RED_SCAT && R.len <= a->shm_count && R.len <= VINE_SHM_SMALL_TOTAL)
        return red_small_scat(a, s, R.inbuf);
    int rc = red_init(&R);
    for (size_t c = 0; rc == VINE_OK && c < R.pl.nchunks; c++)
        red_chunk(&R, s, c);
    red_free(&R);
    return rc == VINE_OK ? vine__sched_finish(s) : rc;
}
