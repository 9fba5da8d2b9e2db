/*
 * Bine allgather block by block: the distance-halving Bine butterfly (steps
 * s = n-1 .. 0, n = ceil(log2 p), partner pi(r, s)) where every block spreads
 * on its own from its rank: at each step a rank gives its partner every
 * block the partner lacks, so block b reaches rank r at step t_b(r) along a
 * spanning tree rooted at b (phase_bine_block.h gives the trees and the
 * closed form of t_b(r), the top bit of nu shifted by b or mirrored, BINE.md
 * "Non-power-of-two p").  It is the reduce-scatter bine_block run backwards.
 * Any even p runs on all ranks with no fold and no idle rank; every rank
 * receives each other block once, straight into its place in RECV (rank
 * order), so nothing is copied but the own block.  A message is a run of
 * consecutive blocks received at the same step, so there are more messages
 * than steps: about 3p/4 per rank in all, against lg p for the nu-block
 * butterfly (phase_bine.h).  Odd p folds its last rank into the one before
 * (whose block then covers both) and sends it everything at the end.
 * Source: De Sensi et al., Bine trees, sections 3.1 and 4.3
 * (papers/bine-trees.txt), ../shared/BINE.md.
 *
 * No restrictions.  Cost for even p, n = p * count: ceil(log2 p) rounds,
 * (p-1)/p n beta, about 3p/4 messages of alpha, the copy of the own block.
 * For a power of two p that is the round count and volume of recursive
 * doubling and of the nu-block Bine butterfly (vine dump: p = 8 or 16, the
 * same lg p rounds and (p-1) count elements received per rank; recursive
 * doubling sends 1 message per round, this 5 or 6 in all for p = 8, 11 or 12
 * for p = 16).  Odd p: 2 more rounds at the last two ranks, and n more beta
 * at the last one.  No scratch.
 */
#include "../coll.h"
#include "../phase_bine_block.h"

#include <stdlib.h>

int vine__allgather_bine_block_build(const vine_args *a, vine_sched *s)
{
    int p = a->p, r = a->rank, m = p % 2 ? p - 1 : p;
    size_t c = a->count;
    int own_buf = a->inplace ? VINE_BUF_RECV : VINE_BUF_SEND;
    size_t own_off = a->inplace ? (size_t)r * c : 0;
    if (p == 1) {
        if (!a->inplace)
            vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_RECV, 0, c);
        return vine__sched_finish(s);
    }
    if (r == p - 1 && m < p) {
        /* The folded rank: its block to the rank before, then all the others from it. */
        vine__sched_send(s, p - 2, own_buf, own_off, c);
        vine__sched_fence(s);
        vine__sched_recv(s, p - 2, VINE_BUF_RECV, 0, (size_t)(p - 1) * c);
        if (!a->inplace)
            vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_RECV, (size_t)r * c, c);
        return vine__sched_finish(s);
    }
    vine_bbk k;
    int rc = vine__bbk_init(&k, m, 0);
    /* Participant block b is rank b's block; the last participant of odd p has two. */
    size_t *off = malloc(((size_t)m + 1) * sizeof *off);
    if (rc != VINE_OK || !off) {
        if (rc == VINE_OK)
            vine__bbk_free(&k);
        free(off);
        return VINE_ERR_NO_MEM;
    }
    for (int b = 0; b <= m; b++)
        off[b] = (size_t)b * c;
    off[m] = (size_t)p * c;
    if (m < p && r == m - 1) {
        vine__sched_recv(s, p - 1, VINE_BUF_RECV, (size_t)(p - 1) * c, c);
        if (!a->inplace)
            vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_RECV, (size_t)r * c, c);
        vine__sched_fence(s);
        vine__bbk_allgather(&k, s, r, off, VINE_BUF_RECV, VINE_BUF_RECV, off[r]);
        vine__sched_fence(s);
        vine__sched_send(s, p - 1, VINE_BUF_RECV, 0, (size_t)(p - 1) * c);
    } else {
        vine__bbk_allgather(&k, s, r, off, VINE_BUF_RECV, own_buf, own_off);
    }
    vine__bbk_free(&k);
    free(off);
    return vine__sched_finish(s);
}
