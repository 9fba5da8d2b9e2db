/*
 * Recursive-doubling allgatherv: at the stage of distance d = 1, 2, 4, ...
 * each rank exchanges with rank XOR d all the blocks of its aligned group of
 * d ranks, so the blocks it holds double every stage.  The blocks live in a
 * working vector packed in rank order (phase_v.h): RECV itself when rdispls
 * lay them out that way (the MPI_Allgather layout, any base), else TMP, from
 * which each block is copied to its place in RECV in the last round (only
 * the blocks, never the gaps).  A group's blocks are then one range, and
 * every message one range whose length both ends compute from rcounts.
 * Non-powers of two: MPICH's allgatherv recursive doubling, as in allgather
 * recursive_doubling: in the lower group G of d ranks beside an incomplete
 * upper group H of h < d ranks, the first h ranks get H's blocks in the
 * exchange, and for t = d/2, ..., 1 each rank of G that has them passes them
 * to the rank t above it when that one lacks them (offset o in G holds them
 * before the round of t exactly when o mod 2t < h).
 * Source: Thakur, Rabenseifner and Gropp 2005, section 4.2
 * (papers/mpich-collectives.txt); MPICH's MPIR_Allgatherv_intra_recursive_doubling.
 * No restrictions: any p, any counts (all zero, one rank holding all).
 * Scratch: N = sum of rcounts elements when the layout is not packed.
 * Cost, N = sum of rcounts: lg p rounds for p a power of two, each rank
 * receiving N - c_r elements; a stage's time is that of its largest group
 * exchange, so uneven counts cost up to about lg p alpha + N beta.  Other
 * p: the fix-up rounds forward the incomplete group's blocks once more (a
 * rank takes part in the fix-up of one stage at most, below 2 ceil(lg p)
 * rounds in all).  Plus the local copy of N elements when the layout is
 * not packed.
 */
#include "../coll.h"
#include "../phase_v.h"

/*
 * The fix-up inside the lower group G = [groot, groot + d), after an exchange
 * in which only the first h ranks of G had partners in H = [hroot, hroot + h).
 */
static void subtree_fixup(const vine_args *a, vine_sched *s, const vine__vwork *w, int groot, int d,
                          int hroot, int h)
{
    int o = a->rank - groot;
    size_t off = w->off[hroot], len = w->off[hroot + h] - off;
    for (int t = d / 2; t >= 1; t /= 2) {
        int q = o % (2 * t), give = q < t && q < h && q + t >= h;
        int take = q >= t && q >= h && q - t < h;
        /* Fenced only where this rank takes part, so the final copies join its last round. */
        if (give || take)
            vine__sched_fence(s);
        if (give)
            vine__sched_send(s, a->rank + t, w->buf, off, len);
        else if (take)
            vine__sched_recv(s, a->rank - t, w->buf, off, len);
    }
}

/* The stage of distance d: the exchange, then the fix-up where it is needed. */
static void stage(const vine_args *a, vine_sched *s, const vine__vwork *w, int d)
{
    int p = a->p, r = a->rank, peer = r ^ d;
    int groot = r & ~(d - 1), hroot = groot ^ d;
    int g = p - groot < d ? p - groot : d;
    int h = hroot >= p ? 0 : (p - hroot < d ? p - hroot : d);
    vine__sched_fence(s);
    if (peer < p) {
        /* At d = 1 the group is this rank: its block comes from where the input is. */
        if (d == 1 && w->away)
            vine__sched_send(s, peer, w->own_buf, w->own_off, a->rcounts[r]);
        else
            vine__sched_send(s, peer, w->buf, w->off[groot], w->off[groot + g] - w->off[groot]);
        vine__sched_recv(s, peer, w->buf, w->off[hroot], w->off[hroot + h] - w->off[hroot]);
    }
    /* The input joins the working vector after the first round's messages. */
    if (d == 1 && w->away)
        vine__sched_copy(s, w->own_buf, w->own_off, w->buf, w->off[r], a->rcounts[r]);
    if (hroot > groot && h > 0 && h < d)
        subtree_fixup(a, s, w, groot, d, hroot, h);
}

int vine__allgatherv_recursive_doubling_build(const vine_args *a, vine_sched *s)
{
    if (a->p == 1) {
        if (!a->inplace)
            vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_RECV, a->rdispls[0], a->rcounts[0]);
        return vine__sched_finish(s);
    }
    vine__vwork w;
    if (vine__vwork_init(&w, a, s) != VINE_OK)
        return VINE_ERR_NO_MEM;
    /* The step to p ends the loop without overflowing d when p is near INT_MAX. */
    for (int d = 1; d < a->p; d = d <= a->p / 2 ? 2 * d : a->p)
        stage(a, s, &w, d);
    /* The copies out of TMP join the last round and run after its messages. */
    vine__vwork_finish(&w, a, s);
    vine__vwork_free(&w);
    return vine__sched_finish(s);
}
