/*
 * Shared-memory scatterv for small blocks.  A non-root knows only its own
 * block, so it cannot find its place in a stream of the root's blocks as
 * scatter shm lays them out; instead the root's eager slot
 * (vine_args.shm_par_count elements) is cut into p - 1 equal parts, the
 * part of rank root + k (k = 1 .. p - 1) at (k - 1) times the part's size
 * (below 8 KiB on 2 ranks, vine__shm_scatterv_part).  A block that fits its
 * part goes through it: the root WAITs PREV for every other rank, copies
 * such blocks in and SETs 1, and their ranks WAIT for it and GET their part
 * (docs/shm.md, "Eager slots").  A larger block goes as one point-to-point
 * message, as scatterv linear sends it.  Both ends decide from the block's
 * size, which both know.  Every rank marks the eager slots, so all agree on
 * the mark.
 *
 * Source: vine's own (issue 18), the eager slots of docs/shm.md cut per
 * reader.  Restrictions: one node segment (VINE_ALGO_SHM); any p, any root, any
 * counts and displacements, MPI_IN_PLACE at the root.  Cost: the root copies
 * the small blocks in (no entry wait) and sends the large ones; a rank with a
 * small block copies it out after one flag hand-off.
 */
#include "../coll.h"
#include "../ranks.h"

#include "shm_common.h"

/*
 * On 2 ranks a part holds less than 8 KiB, so that blocks from 8 KiB go as
 * messages: scatterv shm on 2 ranks of the development machine took
 * 1.13-1.67 of the MPI library's time with blocks of 8-32 KiB in the slot,
 * where the library's one message is copied once (docs/performance.md,
 * "Shared memory on 2 ranks").
 */
size_t vine__shm_scatterv_part(int p, size_t par_count)
{
    size_t each = p < 2 ? 0 : par_count / (size_t)(p - 1);
    return p == 2 && each >= ((size_t)8 << 10) ? ((size_t)8 << 10) - 1 : each;
}

/* Elements of the root's eager slot for each other rank (0: none). */
static size_t part(const vine_args *a, const vine_sched *s)
{
    return s->sub ? 0 : vine__shm_scatterv_part(a->p, a->shm_par_count);
}

int vine__scatterv_shm_build(const vine_args *a, vine_sched *s)
{
    int p = a->p, root = a->root, r = a->rank;
    const size_t *sc = a->scounts, *sd = a->sdispls;
    size_t each = part(a, s);
    vine__sched_shm(s);
    if (each)
        vine__sched_eag(s, each * (size_t)(p - 1));
    if (r != root) {
        size_t len = sc[r], k = (size_t)vine__mod((long)r - root, p);
        if (len && len <= each) {
            vine__sched_wait(s, root, 1);
            vine__sched_get(s, root, VINE_BUF_EAG, (k - 1) * each, VINE_BUF_RECV, 0, len);
        } else if (len) {
            vine__sched_recv(s, root, VINE_BUF_RECV, 0, len);
        }
        return vine__sched_finish(s);
    }
    int any = 0;
    for (int k = 1; k < p; k++) {
        int q = vine__mod((long)root + k, p);
        if (sc[q] > each)
            vine__sched_send(s, q, VINE_BUF_SEND, sd[q], sc[q]);
        else if (sc[q])
            any = 1;
    }
    if (any) {
        vine__shm_enter_eag(a, s);
        for (int k = 1; k < p; k++) {
            int q = vine__mod((long)root + k, p);
            if (sc[q] && sc[q] <= each)
                vine__sched_copy(s, VINE_BUF_SEND, sd[q], VINE_BUF_EAG, (size_t)(k - 1) * each,
                                 sc[q]);
        }
        vine__sched_set(s, 1);
    }
    if (!a->inplace && sc[root])
        vine__sched_copy(s, VINE_BUF_SEND, sd[root], VINE_BUF_RECV, 0, sc[root]);
    return vine__sched_finish(s);
}
