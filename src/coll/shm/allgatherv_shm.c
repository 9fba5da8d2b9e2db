/*
 * Shared-memory allgatherv: allgather shm's schedule on blocks of any size
 * (allgather_shm.c, shm_common.c).  Every rank knows every block's size, so
 * all plan alike on the largest block m.
 *
 * When m fits an eager slot (vine_args.shm_par_count elements), a rank with
 * a block WAITs PREV for every other rank, copies its block into its eager
 * slot and SETs 1; every rank WAITs for the SET 1 of each other rank that
 * has a block and GETs it into its place in RECV (docs/shm.md, "Eager
 * slots").  Otherwise the blocks go through the regions in chunks of the
 * plan for m: in chunk c a rank whose block reaches into the chunk copies
 * that piece into slot c % slots of its region (after the entry wait for
 * c = 0, after every other rank's SET 2(c - slots) + 2 for a reused slot)
 * and SETs 2c + 1; every rank WAITs for the writers of chunk c (starting
 * after itself), GETs their pieces and SETs 2c + 2 when a later chunk
 * reuses the slot.  Ranks with shorter blocks write fewer chunks and still
 * read and SET for every chunk, so a writer's reuse wait is always met.
 *
 * Source: vine's own (issue 18), allgather shm's protocol on irregular
 * blocks.  Restrictions: one node segment (VINE_ALGO_SHM); any p, any counts and
 * displacements (zeros, gaps), MPI_IN_PLACE.  Cost: every rank copies its
 * block in and the p - 1 others out: n_r in and sum of the others' out, the
 * largest block setting the number of chunks.
 */
#include "../coll.h"

#include "shm_common.h"

/* This rank's block into RECV, when it is not there already. */
static void own_copy(const vine_args *a, vine_sched *s)
{
    size_t mine = a->rcounts[a->rank];
    if (!a->inplace && mine)
        vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_RECV, a->rdispls[a->rank], mine);
}

/* The blocks through the eager slots, each in one piece. */
static void eager(const vine_args *a, vine_sched *s, size_t most, int in_buf, size_t in_off)
{
    int p = a->p, r = a->rank;
    vine__sched_eag(s, most);
    if (a->rcounts[r]) {
        vine__shm_enter_eag(a, s);
        vine__sched_copy(s, in_buf, in_off, VINE_BUF_EAG, 0, a->rcounts[r]);
        vine__sched_set(s, 1);
    }
    for (int k = 1; k < p; k++) {
        int w = (r + k) % p;
        if (!a->rcounts[w])
            continue;
        vine__sched_wait(s, w, 1);
        vine__sched_get(s, w, VINE_BUF_EAG, 0, VINE_BUF_RECV, a->rdispls[w], a->rcounts[w]);
    }
}

int vine__allgatherv_shm_build(const vine_args *a, vine_sched *s)
{
    int p = a->p, r = a->rank;
    int in_buf = a->inplace ? VINE_BUF_RECV : VINE_BUF_SEND;
    size_t in_off = a->inplace ? a->rdispls[r] : 0, most = 0;
    vine__sched_shm(s);
    for (int w = 0; w < p; w++)
        most = a->rcounts[w] > most ? a->rcounts[w] : most;
    if (p == 1 || most == 0) {
        own_copy(a, s);
        return vine__sched_finish(s);
    }
    if (vine__shm_slot_fits(a, s, most)) {
        eager(a, s, most, in_buf, in_off);
        own_copy(a, s);
        return vine__sched_finish(s);
    }
    vine_shm_plan pl;
    int rc = vine__shm_plan(a, most, VINE_SHM_CHUNK_BYTES, 2, &pl);
    if (rc != VINE_OK)
        return rc;
    for (size_t c = 0; c < pl.nchunks; c++) {
        size_t lo = c * pl.chunk, base = (c % (size_t)pl.slots) * pl.chunk;
        size_t len = vine__shm_piece(a->rcounts[r], lo, pl.chunk);
        if (len) {
            if (c == 0)
                vine__shm_enter(a, s);
            else if (c >= (size_t)pl.slots)
                vine__shm_wait_all(a, s, 2 * (c - (size_t)pl.slots) + 2);
            vine__sched_copy(s, in_buf, in_off + lo, VINE_BUF_SHM, base, len);
            vine__sched_set(s, 2 * c + 1);
        }
        for (int k = 1; k < p; k++) {
            int w = (r + k) % p;
            size_t got = vine__shm_piece(a->rcounts[w], lo, pl.chunk);
            if (!got)
                continue;
            vine__sched_wait(s, w, 2 * c + 1);
            vine__sched_get(s, w, VINE_BUF_SHM, base, VINE_BUF_RECV, a->rdispls[w] + lo, got);
        }
        if (c + (size_t)pl.slots < pl.nchunks)
            vine__sched_set(s, 2 * c + 2);
        vine__sched_fence(s);
    }
    own_copy(a, s);
    return vine__sched_finish(s);
}
