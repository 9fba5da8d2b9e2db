/*
 * Bine allgatherv block by block: the block-by-block Bine allgather
 * (allgather bine_block, phase_bine_block.h) on irregular blocks.  On the
 * distance-halving Bine butterfly (steps s = n-1 .. 0, n = ceil(log2 m),
 * partner pi(r, s)) every block spreads on its own from its rank along a
 * spanning tree, and a message is a run of consecutive blocks that the
 * partner receives at the same step.  Which blocks travel when depends on
 * ranks only, never on counts, so the generalisation is exact: the blocks
 * live in a working vector packed in rank order (phase_v.h), RECV itself
 * when rdispls lay them out that way (the MPI_Allgather layout, any base),
 * else TMP, and a run of blocks [lo, hi) is the range [off[lo], off[hi])
 * whose length both ends compute from rcounts.  With TMP the last round
 * copies each block to its place in RECV (only the blocks, never the gaps).
 * Non-powers of two: any even p runs on all ranks with no fold and no idle
 * rank (the trees of phase_bine_block.h exist for every even m).  Odd p
 * folds its last rank into the one before, whose participant block then
 * covers both blocks (adjacent in the working vector); that rank sends it
 * all the other blocks at the end.
 * Source: De Sensi et al., Bine trees, sections 3.1 and 4.3
 * (papers/bine-trees.txt), ../shared/BINE.md ("Non-power-of-two p").
 * No restrictions: any p, any counts (all zero, one rank holding all).
 * Scratch: N = sum of rcounts elements when the layout is not packed.
 * Cost, N = sum of rcounts, even p: ceil(log2 p) rounds, each rank receiving
 * N - c_r elements once, about 3p/4 messages per rank in all (runs of
 * blocks); a step takes its largest run, so uneven counts cost up to about
 * N beta per step in the worst case.  Odd p: 2 more rounds at the last two
 * ranks and N - c_{p-1} more beta at the last one.  Plus the local copy of
 * N elements when the layout is not packed.
 */
#include "../coll.h"
#include "../phase_v.h"

int vine__allgatherv_bine_block_build(const vine_args *a, vine_sched *s)
{
    int p = a->p, r = a->rank, m = p % 2 ? p - 1 : p;
    if (p == 1) {
        if (!a->inplace)
            vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_RECV, a->rdispls[0], a->rcounts[0]);
        return vine__sched_finish(s);
    }
    vine__vwork w;
    if (vine__vwork_init(&w, a, s) != VINE_OK)
        return VINE_ERR_NO_MEM;
    if (r == p - 1 && m < p) {
        /* The folded rank: its block to the rank before, then all the others from it. */
        vine__sched_send(s, p - 2, w.own_buf, w.own_off, a->rcounts[r]);
        vine__sched_fence(s);
        vine__sched_recv(s, p - 2, w.buf, w.off[0], w.off[p - 1] - w.off[0]);
        if (w.buf == VINE_BUF_TMP)
            vine__v_copy_out(a, s, VINE_BUF_TMP, 0, 0, r);
        if (!a->inplace)
            vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_RECV, a->rdispls[r], a->rcounts[r]);
        vine__vwork_free(&w);
        return vine__sched_finish(s);
    }
    vine_bbk k;
    if (vine__bbk_init(&k, m, 0) != VINE_OK) {
        vine__vwork_free(&w);
        return VINE_ERR_NO_MEM;
    }
    /*
     * Participant b is rank b, its block w.off[b, b + 1); the last one of odd
     * p has two, blocks p - 2 and p - 1, the latter from `split` on.
     */
    size_t split = w.off[p - 1];
    w.off[m] = w.off[p];
    if (m < p && r == m - 1) {
        vine__sched_recv(s, p - 1, w.buf, split, a->rcounts[p - 1]);
        if (w.away)
            vine__sched_copy(s, w.own_buf, w.own_off, w.buf, w.off[r], a->rcounts[r]);
        vine__sched_fence(s);
        vine__bbk_allgather(&k, s, r, w.off, w.buf, w.buf, w.off[r]);
        vine__sched_fence(s);
        vine__sched_send(s, p - 1, w.buf, w.off[0], split - w.off[0]);
    } else {
        vine__bbk_allgather(&k, s, r, w.off, w.buf, w.own_buf, w.own_off);
    }
    /* The copies out of TMP join the last round and run after its messages. */
    vine__vwork_finish(&w, a, s);
    vine__bbk_free(&k);
    vine__vwork_free(&w);
    return vine__sched_finish(s);
}
