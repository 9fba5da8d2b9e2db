/*
 * Shared-memory gatherv: gather shm's schedule on blocks of any size
 * (gather_shm.c, shm_common.c).  A non-root knows only its own block, so
 * each block goes its own way, decided from its size alone, which its
 * writer and the root both know: a block that fits an eager slot
 * (vine_args.shm_par_count elements) goes through the writer's eager slot
 * (WAIT PREV for every other rank, copy, SET 1; docs/shm.md, "Eager
 * slots"), a larger one through the writer's region in chunks of its own
 * plan (vine__shm_plan on the block): chunk c into slot c % slots after the
 * entry wait (c = 0) or the root's SET 2(c - slots) + 2 (a reused slot),
 * then SET 2c + 1.  The root takes chunk c of every block that has one,
 * writers in turn from the one after it, WAITing for each writer's SET
 * 2c + 1 (SET 1 of an eager block), GETs it into its place in RECV and
 * SETs 2c + 2 after chunk c of all while a later chunk follows, so a
 * writer's reuse wait is met whatever the other blocks' sizes.  A block
 * goes as a point-to-point message instead on 2 ranks from 8 KiB below 512
 * KiB (vine__shm_gatherv_message, below), and when its chunks would need
 * more flag values than a call has; the root posts its receives in its
 * first round, before any WAIT.  Every rank marks the eager slots, so all
 * agree on the mark.
 *
 * Source: vine's own (issue 18), gather shm's protocol per block.
 * Restrictions: one node segment (VINE_ALGO_SHM); any p, any root, any
 * counts and displacements, MPI_IN_PLACE at the root.  Cost: each non-root
 * copies its block in, the root copies every block out, but for the
 * messages.
 */
#include "../coll.h"
#include "../ranks.h"

#include "shm_common.h"

enum route { REGION, EAGER, MESSAGE };

/*
 * Whether a block of len elements (bytes: the v collectives run on bytes)
 * goes as a message for its size: on 2 ranks of the development machine
 * gather shm took 1.14-2.55 of the MPI library's time from 8 to 256 KiB
 * blocks, where the library's one message is copied once, and 0.75-0.85
 * from 512 KiB (docs/performance.md, "Shared memory on 2 ranks").
 */
int vine__shm_gatherv_message(int p, size_t len)
{
    return p == 2 && len >= ((size_t)8 << 10) && len < ((size_t)512 << 10);
}

/* The route of a writer's block of len elements; pl: its chunks when REGION. */
static enum route plan_block(const vine_args *a, const vine_sched *s, size_t len, vine_shm_plan *pl)
{
    if (vine__shm_gatherv_message(a->p, len))
        return MESSAGE;
    if (vine__shm_slot_fits(a, s, len))
        return EAGER;
    if (vine__shm_plan(a, len, VINE_SHM_CHUNK_BYTES, 2, pl) != VINE_OK)
        return MESSAGE;
    return REGION;
}

/* A non-root: its block through its eager slot, its region or a message. */
static void write_block(const vine_args *a, vine_sched *s)
{
    size_t len = a->rcounts[a->rank];
    vine_shm_plan pl;
    enum route how = plan_block(a, s, len, &pl);
    if (how == MESSAGE) {
        vine__sched_send(s, a->root, VINE_BUF_SEND, 0, len);
        return;
    }
    if (how == EAGER) {
        vine__shm_enter_eag(a, s);
        vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_EAG, 0, len);
        vine__sched_set(s, 1);
        return;
    }
    for (size_t c = 0; c < pl.nchunks; c++) {
        size_t lo = c * pl.chunk, base = (c % (size_t)pl.slots) * pl.chunk;
        if (c == 0)
            vine__shm_enter(a, s);
        else if (c >= (size_t)pl.slots)
            vine__sched_wait(s, a->root, 2 * (c - (size_t)pl.slots) + 2);
        vine__sched_copy(s, VINE_BUF_SEND, lo, VINE_BUF_SHM, base,
                         vine__shm_piece(len, lo, pl.chunk));
        vine__sched_set(s, 2 * c + 1);
        vine__sched_fence(s);
    }
}

/*
 * The root: the messages' receives first, then chunk c of every block in
 * turn and SET 2c + 2 while a later chunk follows.
 */
static void read_blocks(const vine_args *a, vine_sched *s)
{
    int p = a->p, root = a->root;
    size_t rounds = 0;
    for (int k = 1; k < p; k++) {
        int w = vine__mod((long)root + k, p);
        vine_shm_plan pl;
        if (a->rcounts[w] == 0)
            continue;
        enum route how = plan_block(a, s, a->rcounts[w], &pl);
        if (how == MESSAGE)
            vine__sched_recv(s, w, VINE_BUF_RECV, a->rdispls[w], a->rcounts[w]);
        else if (how == REGION && pl.nchunks > rounds)
            rounds = pl.nchunks;
    }
    rounds = rounds ? rounds : 1;
    for (size_t c = 0; c < rounds; c++) {
        for (int k = 1; k < p; k++) {
            int w = vine__mod((long)root + k, p);
            size_t len = a->rcounts[w];
            vine_shm_plan pl;
            if (len == 0)
                continue;
            enum route how = plan_block(a, s, len, &pl);
            if (how == MESSAGE)
                continue;
            if (how == EAGER) {
                if (c == 0) {
                    vine__sched_wait(s, w, 1);
                    vine__sched_get(s, w, VINE_BUF_EAG, 0, VINE_BUF_RECV, a->rdispls[w], len);
                }
                continue;
            }
            size_t lo = c * pl.chunk;
            if (c >= pl.nchunks)
                continue;
            vine__sched_wait(s, w, 2 * c + 1);
            vine__sched_get(s, w, VINE_BUF_SHM, (c % (size_t)pl.slots) * pl.chunk, VINE_BUF_RECV,
                            a->rdispls[w] + lo, vine__shm_piece(len, lo, pl.chunk));
        }
        if (c + 1 < rounds)
            vine__sched_set(s, 2 * c + 2);
        vine__sched_fence(s);
    }
}

int vine__gatherv_shm_build(const vine_args *a, vine_sched *s)
{
    vine__sched_shm(s);
    if (a->p > 1 && a->shm_par_count && !s->sub)
        vine__sched_eag(s, a->shm_par_count);
    if (a->p == 1) {
        /* Nothing but the root's own block. */
    } else if (a->rank != a->root) {
        if (a->rcounts[a->rank])
            write_block(a, s);
    } else {
        read_blocks(a, s);
    }
    if (a->rank == a->root && !a->inplace && a->rcounts[a->root])
        vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_RECV, a->rdispls[a->root],
                         a->rcounts[a->root]);
    return vine__sched_finish(s);
}
