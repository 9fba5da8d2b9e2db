/*
 * Shared-memory alltoallv, and alltoallw on bytes.  A rank knows the sizes
 * of its own blocks only (its rows of the tables), so it cannot find its
 * place in a peer's stream as alltoall shm lays the streams out.  Instead
 * every pair of ranks has places of its own that both ends can compute: of
 * writer w's eager slot (vine_args.shm_par_count elements) and of its region
 * (shm_count elements), part k - 1 of p - 1 equal parts belongs to reader
 * w + k (mod p).  The block from w to q takes one of four routes, decided
 * from its size alone, which both ends know (w's scounts[q], q's
 * rcounts[w]):
 *   - none when empty;
 *   - a point-to-point message from vine__shm_a2av_msg_min(p) elements
 *     (below: 16 KiB on 2 ranks, 256 KiB on more);
 *   - eager when it fits its part of the eager slot: w WAITs PREV for every
 *     other rank, copies all such blocks in and SETs 1; q WAITs for 1 and
 *     GETs its part (docs/shm.md, "Eager slots");
 *   - region otherwise: chunks of a plan of its own (vine__shm_plan on the
 *     block with the part of the region as the region).  In round c, w
 *     writes chunk c of every block that has one into slot c % slots of
 *     that block's part, after the entry wait (first write) or the reader's
 *     SET 2(c - slots) + 3 (a reused slot), and SETs 2c + 2; q WAITs for 2c
 *     + 2 of each writer with a chunk c for it, GETs it into place and SETs
 *     2c + 3 while a later round follows, which is what a writer's reuse
 *     wait needs, whatever the other blocks' sizes;
 *   - a message too when the parts of the region are below
 *     VINE_SHM_MIN_PIECE elements or even whole slots would need more flag
 *     values than a call has (vine__shm_plan fails).
 * Messages are posted in the first round, which every rank posts before
 * any WAIT, and complete before the shared-memory rounds.
 * Flags only grow (eager 1, then 2c + 2 and 2c + 3 in round order), so a
 * larger value than the one waited for says as much.
 *
 * Source: vine's own (issues 18 and 20), alltoall shm's protocol per pair.
 * Restrictions: one node segment (VINE_ALGO_SHM); any p, any counts and
 * displacements, MPI_IN_PLACE (the API layer moves the input out first).
 * Cost: each block below that size copied in by its writer and out by its
 * reader, one flag hand-off per round; a writer waits for a reader only
 * when its block is longer than its part of the region.
 */
#include "../coll.h"
#include "../ranks.h"

#include "shm_common.h"

enum route { NONE, EAGER, REGION, MESSAGE };

/*
 * Blocks of at least vine__shm_a2av_msg_min(p) elements (bytes: the v
 * collectives run on bytes) go as messages, which the MPI library copies
 * once (Open MPI's cross-memory attach) where the slots and regions copy
 * twice.  On 2 ranks of the development machine, without messages, this
 * alltoallv took 0.84-0.95 of the library's time at 8 KiB, 1.24-1.34 at 16
 * KiB, 1.45-1.79 at 32 KiB (all through the eager slot) and 2.4 at 256 KiB
 * (the regions); on 8 and 16 ranks of the 16-core machine, where a
 * process's pages are read by many peers at once, alltoall shm took 0.65 at
 * 32 KiB and 0.87-0.98 from 256 KiB (docs/performance.md).
 */
size_t vine__shm_a2av_msg_min(int p)
{
    return p == 2 ? (size_t)16 << 10 : (size_t)256 << 10;
}

/* Elements of a writer's eager slot (eag) and of its region (shm) for each reader. */
typedef struct parts {
    size_t eag, shm;
} parts;

static parts parts_of(const vine_args *a, const vine_sched *s)
{
    parts pt = {0, 0};
    if (a->p > 1) {
        pt.eag = s->sub ? 0 : a->shm_par_count / (size_t)(a->p - 1);
        pt.shm = a->shm_count / (size_t)(a->p - 1);
        /* Parts too small to carry a piece of a block in each of two slots carry none. */
        if (pt.shm < VINE_SHM_MIN_PIECE)
            pt.shm = 0;
    }
    return pt;
}

/* The route of a block of len elements; pl: its chunks when REGION. */
static enum route route(const vine_args *a, const parts *pt, size_t len, vine_shm_plan *pl)
{
    if (len == 0)
        return NONE;
    if (len >= vine__shm_a2av_msg_min(a->p))
        return MESSAGE;
    if (len <= pt->eag)
        return EAGER;
    vine_args pa = *a;
    pa.shm_count = pt->shm;
    if (vine__shm_plan(&pa, len, VINE_SHM_CHUNK_BYTES, 2, pl) == VINE_OK)
        return REGION;
    return MESSAGE;
}

/* Where chunk c of a REGION block lies in its part, k - 1 of the writer's region. */
static size_t region_at(const parts *pt, const vine_shm_plan *pl, int k, size_t c)
{
    return (size_t)(k - 1) * pt->shm + (c % (size_t)pl->slots) * pl->chunk;
}

/* Round c of this rank's region blocks out; returns whether it wrote any. */
static int write_round(const vine_args *a, vine_sched *s, const parts *pt, size_t c, int *entered)
{
    int p = a->p, r = a->rank, any = 0;
    const size_t *sc = vine__args_row(a, a->scounts, r), *sd = vine__args_row(a, a->sdispls, r);
    for (int k = 1; k < p; k++) {
        int to = vine__mod((long)r + k, p);
        vine_shm_plan pl;
        if (route(a, pt, sc[to], &pl) != REGION || c >= pl.nchunks)
            continue;
        if (!*entered) {
            vine__shm_enter(a, s);
            *entered = 1;
        }
        if (c >= (size_t)pl.slots)
            vine__sched_wait(s, to, 2 * (c - (size_t)pl.slots) + 3);
        size_t lo = c * pl.chunk;
        vine__sched_copy(s, VINE_BUF_SEND, sd[to] + lo, VINE_BUF_SHM, region_at(pt, &pl, k, c),
                         vine__shm_piece(sc[to], lo, pl.chunk));
        any = 1;
    }
    if (any)
        vine__sched_set(s, 2 * c + 2);
    return any;
}

/* Round c of this rank's region blocks in; returns whether it read any. */
static int read_round(const vine_args *a, vine_sched *s, const parts *pt, size_t c)
{
    int p = a->p, r = a->rank, any = 0;
    const size_t *rc = vine__args_row(a, a->rcounts, r), *rd = vine__args_row(a, a->rdispls, r);
    for (int k = 1; k < p; k++) {
        int from = vine__mod((long)r - k, p);
        vine_shm_plan pl;
        if (route(a, pt, rc[from], &pl) != REGION || c >= pl.nchunks)
            continue;
        size_t lo = c * pl.chunk;
        vine__sched_wait(s, from, 2 * c + 2);
        vine__sched_get(s, from, VINE_BUF_SHM, region_at(pt, &pl, k, c), VINE_BUF_RECV,
                        rd[from] + lo, vine__shm_piece(rc[from], lo, pl.chunk));
        any = 1;
    }
    return any;
}

/* The messages, the eager blocks out, and the number of region rounds this rank takes part in. */
static size_t first_round(const vine_args *a, vine_sched *s, const parts *pt)
{
    int p = a->p, r = a->rank, eager = 0;
    const size_t *sc = vine__args_row(a, a->scounts, r), *sd = vine__args_row(a, a->sdispls, r);
    const size_t *rc = vine__args_row(a, a->rcounts, r), *rd = vine__args_row(a, a->rdispls, r);
    size_t rounds = 0;
    for (int k = 1; k < p; k++) {
        int to = vine__mod((long)r + k, p), from = vine__mod((long)r - k, p);
        vine_shm_plan pl;
        enum route in = route(a, pt, rc[from], &pl);
        if (in == MESSAGE)
            vine__sched_recv(s, from, VINE_BUF_RECV, rd[from], rc[from]);
        else if (in == REGION && pl.nchunks > rounds)
            rounds = pl.nchunks;
        enum route out = route(a, pt, sc[to], &pl);
        if (out == MESSAGE)
            vine__sched_send(s, to, VINE_BUF_SEND, sd[to], sc[to]);
        else if (out == REGION && pl.nchunks > rounds)
            rounds = pl.nchunks;
        eager |= out == EAGER;
    }
    if (sc[r])
        vine__sched_copy(s, VINE_BUF_SEND, sd[r], VINE_BUF_RECV, rd[r], sc[r]);
    if (!eager)
        return rounds;
    vine__shm_enter_eag(a, s);
    for (int k = 1; k < p; k++) {
        int to = vine__mod((long)r + k, p);
        vine_shm_plan pl;
        if (route(a, pt, sc[to], &pl) == EAGER)
            vine__sched_copy(s, VINE_BUF_SEND, sd[to], VINE_BUF_EAG, (size_t)(k - 1) * pt->eag,
                             sc[to]);
    }
    vine__sched_set(s, 1);
    return rounds;
}

/* The eager blocks in. */
static void read_eager(const vine_args *a, vine_sched *s, const parts *pt)
{
    int p = a->p, r = a->rank;
    const size_t *rc = vine__args_row(a, a->rcounts, r), *rd = vine__args_row(a, a->rdispls, r);
    for (int k = 1; k < p; k++) {
        int from = vine__mod((long)r - k, p);
        vine_shm_plan pl;
        if (route(a, pt, rc[from], &pl) != EAGER)
            continue;
        vine__sched_wait(s, from, 1);
        vine__sched_get(s, from, VINE_BUF_EAG, (size_t)(k - 1) * pt->eag, VINE_BUF_RECV, rd[from],
                        rc[from]);
    }
}

int vine__alltoallv_shm_build(const vine_args *a, vine_sched *s)
{
    parts pt = parts_of(a, s);
    vine__sched_shm(s);
    /* Every rank marks the eager slots, so all agree on the mark. */
    if (pt.eag)
        vine__sched_eag(s, pt.eag * (size_t)(a->p - 1));
    size_t rounds = first_round(a, s, &pt);
    int entered = 0;
    /* Round 0 publishes its region chunks before it waits for the eager blocks. */
    for (size_t c = 0; c < (rounds ? rounds : 1); c++) {
        write_round(a, s, &pt, c, &entered);
        if (c == 0)
            read_eager(a, s, &pt);
        if (read_round(a, s, &pt, c) && c + 1 < rounds)
            vine__sched_set(s, 2 * c + 3);
        vine__sched_fence(s);
    }
    return vine__sched_finish(s);
}
