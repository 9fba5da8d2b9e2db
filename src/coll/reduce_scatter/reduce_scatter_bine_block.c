/*
 * Bine reduce-scatter block by block: the distance-doubling Bine butterfly
 * (steps s = 0 .. n-1, n = ceil(log2 p), partner pi(r, s)) where every block
 * travels on its own schedule instead of in nu-contiguous halves: rank r
 * sends its partial of block b at the step t_b(r) at which the block's
 * distance-halving spread from rank b first reaches r, to the rank it came
 * from, so each block's partials flow up a spanning tree rooted at its owner
 * (phase_bine_block.h gives the trees and the closed form of t_b(r), the top
 * bit of nu shifted by b or mirrored, BINE.md "Non-power-of-two p").  Any even
 * p runs on all ranks with no fold and no idle rank: a rank sends each block
 * except its own exactly once, and it receives a block's first partial
 * straight into place, so nothing is copied.  Blocks stay in rank order; a
 * message is a run of consecutive blocks sent at the same step (split where
 * the blocks' partials live in different places), so there are more messages
 * than steps: about 3p/4 per rank in all, against lg p for the nu-block
 * butterfly (phase_bine.h).  Odd p folds its last rank into the one before
 * (which then owns both their blocks) and hands it its block back at the
 * end.  Source: De Sensi et al., Bine trees, sections 3.1 and 4.3
 * (papers/bine-trees.txt), ../shared/BINE.md.
 *
 * Restrictions: commutative op.  Cost for even p and equal counts,
 * n = p * count in total: ceil(log2 p) rounds, (p-1)/p n beta + (p-1)/p n
 * gamma, about 3p/4 messages of alpha.  For a power of two p that is the
 * round count and volume of recursive halving and of the nu-block Bine
 * butterfly (vine dump: p = 8 or 16, count p, the same lg p rounds and
 * (p-1) count elements sent per rank; recursive halving sends 1 message per
 * round, this 5 or 6 messages in all for p = 8, 11 or 12 for p = 16); the
 * volume per step is not halved for other p but each block still moves once
 * per rank.  Odd p: 2 more rounds and n more beta at the last two ranks.
 * Scratch: n elements plus the partials of one step that do not land in place.
 */
#include "../coll.h"
#include "../phase_bine_block.h"
#include "../ranks.h"

#include <stdlib.h>

int vine__reduce_scatter_bine_block_build(const vine_args *a, vine_sched *s)
{
    int p = a->p, r = a->rank, m = p % 2 ? p - 1 : p;
    size_t total = a->displs[p], mine = a->counts[r];
    int in_buf = a->inplace ? VINE_BUF_RECV : VINE_BUF_SEND;
    if (p == 1) {
        if (!a->inplace)
            vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_RECV, 0, mine);
        return vine__sched_finish(s);
    }
    if (r == p - 1 && m < p) {
        /* The folded rank: hand the vector over, get the own block back. */
        vine__sched_send(s, p - 2, in_buf, 0, total);
        vine__sched_fence(s);
        vine__sched_recv(s, p - 2, VINE_BUF_RECV, 0, mine);
        return vine__sched_finish(s);
    }
    vine_bbk k;
    int rc = vine__bbk_init(&k, m, 0);
    /* Participant block b is rank b's block; the last participant of odd p owns two. */
    size_t *off = malloc(((size_t)m + 1) * sizeof *off);
    if (rc != VINE_OK || !off) {
        if (rc == VINE_OK)
            vine__bbk_free(&k);
        free(off);
        return VINE_ERR_NO_MEM;
    }
    for (int b = 0; b < m; b++)
        off[b] = a->displs[b];
    off[m] = total;
    vine__sched_need_tmp(s, total);
    if (m < p && r == m - 1) {
        /* The rank the last one folds into: its partial vector lives in TMP from the start. */
        vine__sched_recv(s, p - 1, VINE_BUF_TMP, 0, total);
        vine__sched_reduce(s, in_buf, 0, VINE_BUF_TMP, 0, total, VINE_SRC_LEFT);
        vine__sched_fence(s);
        vine__bbk_reduce_scatter(&k, s, r, off, VINE_BUF_TMP, 0, 1, 0, VINE_BUF_TMP, off[r], total);
        vine__sched_fence(s);
        vine__sched_send(s, p - 1, VINE_BUF_TMP, a->displs[p - 1], a->counts[p - 1]);
        vine__sched_copy(s, VINE_BUF_TMP, off[r], VINE_BUF_RECV, 0, mine);
    } else if (a->inplace) {
        /* RECV holds the input, so the own block gathers in TMP and moves at the end. */
        vine__bbk_reduce_scatter(&k, s, r, off, in_buf, 0, 0, 0, VINE_BUF_TMP, off[r], total);
        vine__sched_copy(s, VINE_BUF_TMP, off[r], VINE_BUF_RECV, 0, mine);
    } else {
        vine__bbk_reduce_scatter(&k, s, r, off, in_buf, 0, 0, 0, VINE_BUF_RECV, 0, total);
    }
    vine__bbk_free(&k);
    free(off);
    return vine__sched_finish(s);
}
