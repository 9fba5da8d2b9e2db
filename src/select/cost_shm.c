/*
 * The shm level of the cost model (cost.h): one formula per collective of
 * the shm family (src/coll/shm, docs/shm.md), read off its two engines.
 * docs/shm.md, "What the cost model charges", gives them in prose.
 *
 * What a formula counts, on the busiest rank's path:
 *   - flag hand-offs, alpha each: a WAIT that sees a peer's new flag value
 *     and the first line of a GET from a peer's region, both a cache line
 *     that another core has just written.  A rank waits for its peers one
 *     after the other, so k peers cost k alpha; the entry wait (WAIT 0 on
 *     the p - 1 others) costs (p - 1) alpha;
 *   - bytes copied (into and out of the regions, reduction operands read),
 *     max(beta, k beta_node) each while k ranks copy at once
 *     (vine__cost_shm_copy);
 *   - bytes reduced, gamma each.
 *
 * The data-movement engine (shm_common.c) is a pipeline: a writer
 * copies chunk c + 1 in while its readers copy chunk c out, so with a
 * writer's time w and a reader's time r per chunk, C chunks take
 * w + (C - 2) max(w, r) + max(w', r) + r' (primes: the last, shorter
 * chunk), and one chunk w + r.  The reductions (shm_red.c) go chunk by
 * chunk through phases that every rank finishes before the next one
 * starts (copy in, fold, read the results), so their chunks add up.
 *
 * The small allreduce and reduce-scatters that run on the parity slots
 * (par schedules, docs/shm.md "Parity slots") skip the entry wait; when the
 * vector fits an inline slot, in the flag's own cache line, the WAIT that
 * sees a peer's flag brings its data too, so each peer costs one hand-off.
 * The small reduce and data-movement calls whose writer's whole stream fits
 * an eager slot (docs/shm.md "Eager slots") skip it too: their WAIT PREV
 * waits for peers to have entered the previous call, which in a run of
 * calls they have, so it costs no hand-off; an inline eager slot (8 bytes)
 * makes a peer's read one hand-off as well.
 */
#include "cost.h"

#include "../coll/shm/shm_common.h"

#include <math.h>

/* A rank's region when the call does not say: VINE_SHM_BYTES' default, 1 MiB. */
#define REGION_DEFAULT 1048576.0
/* Bytes of an inline parity slot (exec.h's VINE_SHM_INLINE; this file stays MPI-free). */
#define PAR_INLINE 16.0
/* Bytes of an inline eager slot (exec.h's VINE_SHM_EAG_INLINE). */
#define EAG_INLINE 8.0

double vine__cost_shm_copy(const vine_cost_shm *s, double k)
{
    double all = (k < 1 ? 1 : k) * s->beta_node;
    return all > s->beta ? all : s->beta;
}

static double dmax(double a, double b)
{
    return a > b ? a : b;
}

/* How vine__shm_plan cuts a stream of len bytes: chunks, their size and the last one's. */
typedef struct plan {
    double chunks, chunk, last, slots;
} plan;

/* cap and the region in bytes, elem the bytes of an element (slots hold whole elements). */
static plan plan_of(double len, double cap, double region, double elem)
{
    plan pl = {len > 0, len, len, 2};
    if (len <= 0 || (len <= region && len <= cap))
        return pl;
    double per = floor(region / elem), slot = (per >= 2 ? floor(per / 2) : per) * elem;
    pl.chunk = cap < slot ? cap : slot;
    if (pl.chunk <= 0)
        pl.chunk = elem;
    pl.chunks = ceil(len / pl.chunk);
    pl.last = len - (pl.chunks - 1) * pl.chunk;
    /* As many slots as the region holds chunks (vine__shm_plan). */
    pl.slots = fmin(fmin(floor(region / pl.chunk), pl.chunks), VINE_SHM_MAX_SLOTS);
    if (pl.slots < 2)
        pl.slots = per >= 2 ? 2 : 1;
    return pl;
}

/* What the move engine's per-chunk times read. */
typedef struct move {
    const vine_cost_shm *s;
    const vine_cost_shm_call *c;
    double reuse;  /* 1 when a slot is written twice (more chunks than slots) */
    double blocks; /* scatter, alltoall: the blocks of a chunk, on average */
    double h;      /* hand-offs of a read from a writer: 2, or 1 from an inline eager slot */
} move;

/*
 * The blocks in a chunk of a stream of p - 1 blocks cut into C chunks, on
 * average: a block spans one chunk more for every chunk boundary inside it,
 * so the (block, chunk) pieces number at most p - 2 + C.
 */
static double blocks_in(double C, int p)
{
    double k = C <= 1 ? p - 1 : (p - 2 + C) / C;
    return k < p - 1 ? k : p - 1;
}

/*
 * The writer's (*w) and the reader's (*r) time for a chunk of len bytes:
 * the busiest writer and reader of each collective (docs/shm.md).  A
 * writer that reuses a slot first waits for the chunk's readers.
 */
static void chunk_times(const move *m, double len, double *w, double *r)
{
    const vine_cost_shm *s = m->s;
    int p = m->c->p;
    double a = s->alpha, n = m->c->n, all = vine__cost_shm_copy(s, p);
    double k = m->blocks, h = m->h;
    switch (m->c->coll) {
    case VINE_COLL_BCAST: /* the root in, p - 1 readers out */
        *w = len * all + m->reuse * (p - 1) * a;
        *r = h * a + len * all;
        break;
    case VINE_COLL_ALLGATHER: /* every rank in, and out of p - 1 regions */
        *w = len * all + m->reuse * (p - 1) * a;
        *r = (p - 1) * (h * a + len * all);
        break;
    case VINE_COLL_ALLTOALL: /* every rank in, and out of the k writers holding its blocks */
        *w = len * all + m->reuse * k * a;
        *r = k * h * a + len * all;
        break;
    case VINE_COLL_GATHER: /* p - 1 writers in, the root out of each, mostly alone */
        *w = len * all + m->reuse * a;
        *r = (p - 1) * (h * a + len * vine__cost_shm_copy(s, 1));
        break;
    default: /* scatter: the root in alone, each rank out of its block */
        *w = len * vine__cost_shm_copy(s, 1) + m->reuse * k * a;
        *r = h * a + (len < n ? len : n) * all;
        break;
    }
}

/* The bytes one rank copies of its own block, after the pipeline. */
static double own_copy(const vine_cost_shm *s, const vine_cost_shm_call *c)
{
    switch (c->coll) {
    case VINE_COLL_ALLGATHER:
        return c->inplace ? 0 : c->n * vine__cost_shm_copy(s, c->p);
    case VINE_COLL_ALLTOALL:
        return c->n * vine__cost_shm_copy(s, c->p);
    case VINE_COLL_GATHER:
    case VINE_COLL_SCATTER:
        return c->inplace ? 0 : c->n * vine__cost_shm_copy(s, 1);
    default:
        return 0;
    }
}

/*
 * Whether a rank's len bytes fit a parity or eager slot (c->par bytes,
 * whole elements; 0: the call runs no slot schedules).
 */
static int fits_slot(const vine_cost_shm_call *c, double len)
{
    double elem = c->elem > 0 ? c->elem : 1;
    return c->par > 0 && floor(len / elem + 0.5) <= floor(c->par / elem);
}

/* The levels below the root of the shm trees of radix VINE_SHM_RADIX on p ranks. */
static double tree_depth(int p)
{
    double d = 0;
    for (long v = p - 1; v > 0; v = (v - 1) / VINE_SHM_RADIX)
        d++;
    return d;
}

/* bcast, gather, scatter, allgather, alltoall (shm_common.c). */
static double move_time(const vine_cost_shm *s, const vine_cost_shm_call *c, double region)
{
    int p = c->p;
    if (c->coll == VINE_COLL_SCATTER && c->single && c->n >= (double)VINE_SHM_SINGLE_MIN)
        /* WAIT root 0, GET the block from the root's SEND, SET 1; the root waits for all. */
        return (p + 1) * s->alpha + c->n * vine__cost_shm_copy(s, p - 1);
    int long_stream = c->coll == VINE_COLL_SCATTER || c->coll == VINE_COLL_ALLTOALL;
    double len = (long_stream ? p - 1 : 1) * c->n;
    double elem = c->elem > 0 ? c->elem : 1;
    plan pl = plan_of(len, (double)VINE_SHM_CHUNK_BYTES * elem, region, elem);
    /* A stream that fits an eager slot: one piece, no entry wait. */
    int eag = fits_slot(c, len);
    if (eag)
        pl = (plan){1, len, len, 2};
    double entry = eag ? 0 : (p - 1) * s->alpha;
    move m = {s, c, pl.chunks > pl.slots, blocks_in(pl.chunks, p),
              eag && len <= EAG_INLINE ? 1 : 2};
    double w, r, wl, rl, t;
    if (pl.chunks <= 1) {
        chunk_times(&m, len, &w, &r);
        t = w + r;
        /* An eager bcast on many ranks runs down a tree: a reader's hand-off and copy per
         * level below the first. */
        if (eag && c->coll == VINE_COLL_BCAST && p > VINE_SHM_BCAST_FLAT)
            t += (tree_depth(p) - 1) * r;
    } else {
        chunk_times(&m, pl.chunk, &w, &r);
        chunk_times(&m, pl.last, &wl, &rl);
        t = w + (pl.chunks - 2) * dmax(w, r) + dmax(wl, r) + rl;
    }
    return entry + t + own_copy(s, c);
}

/*
 * The flag hand-offs of a peer in a small path on a vector of len bytes
 * (count elements), and whether it runs on the parity slots (*par): 2 (the
 * WAIT and the GET's first line), or 1 when the vector fits an inline
 * slot, whose data arrives with the flag.  Only flat calls (c->par > 0)
 * run par schedules, and only when the vector fits a slot.
 */
static double peer_handoffs(const vine_cost_shm_call *c, double len, double count, int *par)
{
    double elem = c->elem > 0 ? c->elem : 1;
    *par = c->par > 0 && count <= floor(c->par / elem);
    return *par && len <= PAR_INLINE ? 1 : 2;
}

/*
 * The small path of reduce and allreduce: every input read by each rank
 * that wants the result, after the entry wait unless allreduce runs on the
 * parity slots or reduce on the eager slots.
 */
static double red_small(const vine_cost_shm *s, const vine_cost_shm_call *c, double count)
{
    int p = c->p, all = c->coll == VINE_COLL_ALLREDUCE, par = 0;
    double n = c->n, in = n * vine__cost_shm_copy(s, all ? p : p - 1);
    double fold = p * n * vine__cost_shm_copy(s, all ? p : 1) + (p - 1) * n * s->gamma;
    double h = 2;
    if (all)
        h = peer_handoffs(c, n, count, &par);
    else if ((par = fits_slot(c, n)) != 0)
        h = n <= EAG_INLINE ? 1 : 2;
    return (par ? 0 : (p - 1) * s->alpha) + in + h * (p - 1) * s->alpha + fold;
}

/*
 * The small path of reduce_scatter on the parity slots: every rank copies
 * the whole vector into its slot, and the rank of the largest block reads
 * that block of every slot (p of them, its own included) and reduces p - 1.
 */
static double scat_small_par(const vine_cost_shm *s, const vine_cost_shm_call *c, double h)
{
    int p = c->p;
    double all = vine__cost_shm_copy(s, p);
    return c->total * all + h * (p - 1) * s->alpha + c->most * (p * all + (p - 1) * s->gamma);
}

/* reduce, allreduce, reduce_scatter (shm_red.c). */
static double red_time(const vine_cost_shm *s, const vine_cost_shm_call *c, double region)
{
    int p = c->p, scat = c->coll != VINE_COLL_REDUCE && c->coll != VINE_COLL_ALLREDUCE;
    double len = scat ? c->total : c->n, elem = c->elem > 0 ? c->elem : 1;
    if (len <= 0)
        return 0;
    double count = floor(len / elem + 0.5);
    if (!scat && count <= floor(region / elem) && count <= floor((double)VINE_SHM_SMALL_TOTAL / p))
        return red_small(s, c, count);
    if (scat && count <= floor(region / elem) && count <= (double)VINE_SHM_SMALL_TOTAL) {
        /* The small path off the parity slots is priced as one chunk, as it was before. */
        int par;
        double h = peer_handoffs(c, len, count, &par);
        if (par)
            return scat_small_par(s, c, h);
    }
    plan pl = plan_of(len, (double)VINE_SHM_CHUNK_ELEMS * elem, region, elem);
    double a = s->alpha, all = vine__cost_shm_copy(s, p), q = (p - 1.0) / p;
    /* Per chunk: the fold's waits and reads (and the results' for reduce and allreduce). */
    double flags =
        pl.chunks * (scat ? 2 : 4) * (p - 1) * a + dmax(0, pl.chunks - pl.slots) * (p - 1) * a;
    double bytes;
    if (c->coll == VINE_COLL_ALLREDUCE) /* in, the fold's p parts, the p parts out */
        bytes = len * (3 * all + q * s->gamma);
    else if (c->coll == VINE_COLL_REDUCE) /* in, the fold, the root reads p - 1 parts alone */
        bytes = len * ((2 + 1.0 / p) * all + q * (vine__cost_shm_copy(s, 1) + s->gamma));
    else /* in, the largest block folded from p regions and copied out */
        bytes = len * all + c->most * ((p + 1) * all + (p - 1) * s->gamma);
    return (p - 1) * a + flags + bytes;
}

/* The barrier's arrival tree: the children of every rank on the deepest path, and the release. */
static double barrier_time(const vine_cost_shm *s, int p)
{
    double h = 1;
    for (long r = p - 1; r > 0;) {
        long q = (r - 1) / VINE_SHM_RADIX, first = q * VINE_SHM_RADIX + 1;
        long last = first + VINE_SHM_RADIX - 1 < p - 1 ? first + VINE_SHM_RADIX - 1 : p - 1;
        h += (double)(last - first + 1);
        r = q;
    }
    return h * s->alpha;
}

double vine__cost_shm(const vine_cost_shm *s, const vine_cost_shm_call *c)
{
    double region = c->region > 0 ? c->region : REGION_DEFAULT;
    if ((unsigned)c->coll >= VINE_COLL_COUNT)
        return -1;
    if (c->p <= 1)
        return 0;
    switch (c->coll) {
    case VINE_COLL_BARRIER:
        return barrier_time(s, c->p);
    case VINE_COLL_REDUCE:
    case VINE_COLL_ALLREDUCE:
    case VINE_COLL_REDUCE_SCATTER:
    case VINE_COLL_REDUCE_SCATTER_BLOCK:
        return red_time(s, c, region);
    default:
        return c->n > 0 ? move_time(s, c, region) : 0;
    }
}
