/*
 * Chunk plans, entry waits and the data-movement engine of the shm family
 * (shm_common.h).
 *
 * The data-movement collectives are written as streams.  Each rank (a
 * writer) has a stream of equal segments of n bytes, each for one reader or
 * for every other rank: bcast is the root's RECV for all, gather one segment
 * of each rank's SEND for the root, scatter the root's p - 1 blocks, allgather
 * each rank's block for all, alltoall each rank's p - 1 blocks.  Streams of
 * p - 1 blocks list them for ranks w + 1, w + 2, ... (mod p), so that in any
 * chunk the ranks read from different writers.  All streams are cut into the
 * same chunks; in chunk c every writer copies its chunk into slot c % slots of
 * its region (as many slots as the region holds chunks, vine__shm_plan) and
 * SETs 2c + 1, every rank then WAITs for the writers of its pieces of chunk
 * c, GETs them and SETs 2c + 2 (when a later chunk reuses the slot), which
 * the writer WAITs for before it writes chunk c + slots.  Streams that fit
 * an eager slot go through the eager slots in one piece instead (move_eager).
 */
#include "shm_common.h"

#include "../phase_sub.h"
#include "../ranks.h"

int vine__shm_plan(const vine_args *a, size_t len, size_t cap, size_t per_chunk, vine_shm_plan *pl)
{
    /* Flag values stay below VINE_SHM_PHASE, so that the schedule can be a phase of another. */
    size_t m = a->shm_count, budget = (VINE_SHM_PHASE - 1) / per_chunk;
    if (a->seg_count)
        cap = a->seg_count;
    pl->slots = 1;
    pl->chunk = len;
    pl->nchunks = len ? 1 : 0;
    if (m == 0)
        return VINE_ERR_UNSUPPORTED;
    if (len <= m && len <= cap)
        return VINE_OK;
    pl->slots = m >= 2 ? 2 : 1;
    size_t slot = m / (size_t)pl->slots, need = (len - 1) / budget + 1;
    pl->chunk = cap < slot ? cap : slot;
    /* Chunks grow up to a whole slot before the call runs out of flag values. */
    if (pl->chunk < need)
        pl->chunk = need < slot ? need : slot;
    pl->nchunks = (len - 1) / pl->chunk + 1;
    /* As many slots as the region holds chunks: a writer waits for a slot's readers only
     * when its stream is longer than the region, so that within it writers never wait
     * for readers (a gather's non-roots leave once their block is in). */
    size_t k = m / pl->chunk;
    k = k < pl->nchunks ? k : pl->nchunks;
    k = k < VINE_SHM_MAX_SLOTS ? k : VINE_SHM_MAX_SLOTS;
    if (pl->slots == 2 && k > 2)
        pl->slots = (int)k;
    return pl->nchunks <= budget ? VINE_OK : VINE_ERR_UNSUPPORTED;
}

void vine__shm_wait_all(const vine_args *a, vine_sched *s, size_t v)
{
    for (int k = 1; k < a->p; k++)
        vine__sched_wait(s, vine__mod((long)a->rank + k, a->p), v);
}

size_t vine__shm_piece(size_t len, size_t lo, size_t chunk)
{
    return lo >= len ? 0 : len - lo < chunk ? len - lo : chunk;
}

void vine__shm_enter(const vine_args *a, vine_sched *s)
{
    vine__shm_wait_all(a, s, 0);
}

int vine__shm_slot_fits(const vine_args *a, const vine_sched *s, size_t len)
{
    return !s->sub && len <= a->shm_par_count;
}

void vine__shm_enter_eag(const vine_args *a, vine_sched *s)
{
    for (int k = 1; k < a->p; k++)
        vine__sched_wait_prev(s, vine__mod((long)a->rank + k, a->p));
}

/* One collective as streams of segments of n bytes (the top of this file). */
typedef struct move {
    const vine_args *a;
    vine_shm_move_kind kind;
    size_t n;
} move;

/* The number of segments in w's stream. */
static size_t nseg(const move *m, int w)
{
    int p = m->a->p, root = m->a->root;
    switch (m->kind) {
    case VINE_SHM_BCAST:
        return w == root;
    case VINE_SHM_GATHER:
        return w != root;
    case VINE_SHM_SCATTER:
        return w == root ? (size_t)p - 1 : 0;
    case VINE_SHM_ALLGATHER:
        return 1;
    default:
        return (size_t)p - 1;
    }
}

/* The rank segment i of w's stream is for, or -1 for every rank but w. */
static int seg_reader(const move *m, int w, size_t i)
{
    switch (m->kind) {
    case VINE_SHM_BCAST:
    case VINE_SHM_ALLGATHER:
        return -1;
    case VINE_SHM_GATHER:
        return m->a->root;
    default:
        return vine__mod((long)w + 1 + (long)i, m->a->p);
    }
}

/* The segment of w's stream that rank q (not w) reads, or -1 when none. */
static long seg_for(const move *m, int w, int q)
{
    if (nseg(m, w) == 0)
        return -1;
    switch (m->kind) {
    case VINE_SHM_GATHER:
        return q == m->a->root ? 0 : -1;
    case VINE_SHM_SCATTER:
    case VINE_SHM_ALLTOALL:
        return vine__mod((long)q - w - 1, m->a->p);
    default:
        return 0;
    }
}

/* Where segment i of w's stream lies in w's buffers. */
static void seg_src(const move *m, int w, size_t i, int *buf, size_t *off)
{
    const vine_args *a = m->a;
    *buf = VINE_BUF_SEND;
    *off = 0;
    if (m->kind == VINE_SHM_BCAST) {
        *buf = VINE_BUF_RECV;
    } else if (m->kind == VINE_SHM_ALLGATHER && a->inplace) {
        *buf = VINE_BUF_RECV;
        *off = (size_t)w * m->n;
    } else if (m->kind == VINE_SHM_SCATTER || m->kind == VINE_SHM_ALLTOALL) {
        *off = (size_t)seg_reader(m, w, i) * m->n;
    }
}

/* Where segment i of w's stream goes in its reader's RECV. */
static size_t seg_dst(const move *m, int w)
{
    return m->kind == VINE_SHM_BCAST || m->kind == VINE_SHM_SCATTER ? 0 : (size_t)w * m->n;
}

/* WAITs for the readers of chunk c of this rank's stream to have read it. */
static void reuse_wait(const move *m, vine_sched *s, const vine_shm_plan *pl, size_t c)
{
    int r = m->a->rank;
    size_t len = nseg(m, r) * m->n, lo = c * pl->chunk;
    size_t hi = len - lo < pl->chunk ? len : lo + pl->chunk;
    for (size_t i = lo / m->n; i * m->n < hi; i++) {
        int q = seg_reader(m, r, i);
        if (q < 0) {
            vine__shm_wait_all(m->a, s, 2 * c + 2);
            return;
        }
        vine__sched_wait(s, q, 2 * c + 2);
    }
}

/* Chunk c of this rank's stream into its slot, published with SET 2c + 1. */
static void write_chunk(const move *m, vine_sched *s, const vine_shm_plan *pl, size_t c)
{
    int r = m->a->rank, buf;
    size_t n = m->n, len = nseg(m, r) * n, lo = c * pl->chunk, off;
    size_t hi = len - lo < pl->chunk ? len : lo + pl->chunk;
    size_t base = (c % (size_t)pl->slots) * pl->chunk;
    if (c == 0)
        vine__shm_enter(m->a, s);
    else if (c >= (size_t)pl->slots)
        reuse_wait(m, s, pl, c - (size_t)pl->slots);
    for (size_t i = lo / n; i * n < hi; i++) {
        size_t a0 = i * n > lo ? i * n : lo, a1 = (i + 1) * n < hi ? (i + 1) * n : hi;
        seg_src(m, r, i, &buf, &off);
        vine__sched_copy(s, buf, off + a0 - i * n, VINE_BUF_SHM, base + a0 - lo, a1 - a0);
    }
    vine__sched_set(s, 2 * c + 1);
}

/* GETs this rank's pieces of every writer's chunk c; returns whether there were any. */
static int read_chunk(const move *m, vine_sched *s, const vine_shm_plan *pl, size_t c)
{
    int p = m->a->p, r = m->a->rank, any = 0;
    size_t n = m->n, lo = c * pl->chunk, hi = lo + pl->chunk;
    size_t base = (c % (size_t)pl->slots) * pl->chunk;
    for (int k = 1; k < p; k++) {
        int w = vine__mod((long)r + k, p);
        long i = seg_for(m, w, r);
        if (i < 0)
            continue;
        size_t s0 = (size_t)i * n, a0 = s0 > lo ? s0 : lo, a1 = s0 + n < hi ? s0 + n : hi;
        if (a0 >= a1)
            continue;
        vine__sched_wait(s, w, 2 * c + 1);
        vine__sched_get(s, w, VINE_BUF_SHM, base + a0 - lo, VINE_BUF_RECV, seg_dst(m, w) + a0 - s0,
                        a1 - a0);
        any = 1;
    }
    return any;
}

/* This rank's own block, which moves inside its buffers. */
static void own_copy(const move *m, vine_sched *s)
{
    const vine_args *a = m->a;
    size_t n = m->n, r = (size_t)a->rank;
    if (m->kind == VINE_SHM_ALLTOALL)
        vine__sched_copy(s, VINE_BUF_SEND, r * n, VINE_BUF_RECV, r * n, n);
    else if (m->kind == VINE_SHM_ALLGATHER && !a->inplace)
        vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_RECV, r * n, n);
    else if (a->rank != a->root || a->inplace)
        return;
    else if (m->kind == VINE_SHM_GATHER)
        vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_RECV, r * n, n);
    else if (m->kind == VINE_SHM_SCATTER)
        vine__sched_copy(s, VINE_BUF_SEND, r * n, VINE_BUF_RECV, 0, n);
}

/*
 * bcast on the eager slots down a tree of radix VINE_SHM_RADIX on the ranks
 * relative to the root (the children of v are v R + 1 ... v R + R): a rank
 * WAITs for its parent's SET 1 and GETs the parent's slot into its own slot
 * (after WAIT PREV: it is a writer too), SETs 1 for its children and copies
 * the slot to RECV.  So no slot has more than R readers, where the flat
 * form has p - 1 ranks read the root's line.
 */
static int bcast_tree_eager(const move *m, vine_sched *s)
{
    int p = m->a->p, root = m->a->root, v = vine__mod((long)m->a->rank - root, p);
    size_t n = m->n;
    int inner = (long)v * VINE_SHM_RADIX + 1 < p;
    if (v == 0) {
        vine__shm_enter_eag(m->a, s);
        vine__sched_copy(s, VINE_BUF_RECV, 0, VINE_BUF_EAG, 0, n);
        vine__sched_set(s, 1);
        return vine__sched_finish(s);
    }
    int parent = vine__mod((long)(v - 1) / VINE_SHM_RADIX + root, p);
    vine__sched_wait(s, parent, 1);
    if (!inner) {
        vine__sched_get(s, parent, VINE_BUF_EAG, 0, VINE_BUF_RECV, 0, n);
        return vine__sched_finish(s);
    }
    vine__shm_enter_eag(m->a, s);
    vine__sched_get(s, parent, VINE_BUF_EAG, 0, VINE_BUF_EAG, 0, n);
    vine__sched_set(s, 1);
    vine__sched_copy(s, VINE_BUF_EAG, 0, VINE_BUF_RECV, 0, n);
    return vine__sched_finish(s);
}

/*
 * The eager slots (docs/shm.md, "Eager slots"): a writer's whole stream fits
 * its slot.  A writer WAITs PREV for every other rank (every reader of its
 * slot two calls ago has finished), copies its stream in and SETs 1; every
 * rank WAITs for the writers of its segments, GETs them and leaves.  No rank
 * waits for another to enter this call, and nobody waits for readers.
 */
static int move_eager(const move *m, vine_sched *s, size_t len)
{
    int p = m->a->p, r = m->a->rank, buf;
    size_t off, n = m->n;
    vine__sched_eag(s, len);
    if (m->kind == VINE_SHM_BCAST && p > VINE_SHM_BCAST_FLAT)
        return bcast_tree_eager(m, s);
    if (nseg(m, r)) {
        vine__shm_enter_eag(m->a, s);
        for (size_t i = 0; i < nseg(m, r); i++) {
            seg_src(m, r, i, &buf, &off);
            vine__sched_copy(s, buf, off, VINE_BUF_EAG, i * n, n);
        }
        vine__sched_set(s, 1);
    }
    for (int k = 1; k < p; k++) {
        int w = vine__mod((long)r + k, p);
        long i = seg_for(m, w, r);
        if (i < 0)
            continue;
        vine__sched_wait(s, w, 1);
        vine__sched_get(s, w, VINE_BUF_EAG, (size_t)i * n, VINE_BUF_RECV, seg_dst(m, w), n);
    }
    own_copy(m, s);
    return vine__sched_finish(s);
}

/*
 * Single copy: every rank GETs its segments straight from the writers'
 * buffers once they have entered the call (WAIT 0), SETs 1, and a writer
 * leaves only after its readers' SET 1.
 */
static int move_single(const move *m, vine_sched *s)
{
    int p = m->a->p, r = m->a->rank, any = 0, buf;
    size_t off;
    for (int k = 1; k < p; k++) {
        int w = vine__mod((long)r + k, p);
        long i = seg_for(m, w, r);
        if (i < 0)
            continue;
        seg_src(m, w, (size_t)i, &buf, &off);
        vine__sched_wait(s, w, 0);
        vine__sched_get(s, w, buf, off, VINE_BUF_RECV, seg_dst(m, w), m->n);
        any = 1;
    }
    own_copy(m, s);
    if (any)
        vine__sched_set(s, 1);
    for (size_t i = 0; i < nseg(m, r); i++) {
        int q = seg_reader(m, r, i);
        if (q < 0) {
            vine__shm_wait_all(m->a, s, 1);
            break;
        }
        vine__sched_wait(s, q, 1);
    }
    return vine__sched_finish(s);
}

int vine__shm_move(const vine_args *a, vine_sched *s, vine_shm_move_kind kind)
{
    move m = {a, kind, a->count};
    vine_shm_plan pl;
    vine__sched_shm(s);
    if (a->p == 1 || m.n == 0) {
        own_copy(&m, s);
        return vine__sched_finish(s);
    }
    /* Only scatter: on 16 ranks single copy made bcast 10 times slower than
     * the regions (p - 1 readers of the same pages of one process contend in
     * process_vm_readv, which pins each page for every reader) and allgather,
     * gather and alltoall 1.3-1.7 times slower, while scatter's readers, each
     * on its own pages of the root, ran 6 times faster (docs/performance.md,
     * issue 18). */
    if (a->shm_single && m.n >= VINE_SHM_SINGLE_MIN && kind == VINE_SHM_SCATTER)
        return move_single(&m, s);
    /* Every stream is empty or as long as the longest. */
    size_t len =
        (kind == VINE_SHM_SCATTER || kind == VINE_SHM_ALLTOALL ? (size_t)a->p - 1 : 1) * m.n;
    if (vine__shm_slot_fits(a, s, len))
        return move_eager(&m, s, len);
    int rc = vine__shm_plan(a, len, VINE_SHM_CHUNK_BYTES, 2, &pl);
    if (rc != VINE_OK)
        return rc;
    size_t mine = nseg(&m, a->rank) * m.n;
    for (size_t c = 0; c < pl.nchunks; c++) {
        if (c * pl.chunk < mine)
            write_chunk(&m, s, &pl, c);
        if (read_chunk(&m, s, &pl, c) && c + (size_t)pl.slots < pl.nchunks)
            vine__sched_set(s, 2 * c + 2);
        vine__sched_fence(s);
    }
    own_copy(&m, s);
    return vine__sched_finish(s);
}
