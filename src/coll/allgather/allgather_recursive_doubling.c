/*
 * Recursive-doubling allgather: at the stage of distance d = 1, 2, 4, ...
 * each rank exchanges with rank XOR d all the blocks of its aligned group of
 * d ranks, so the blocks it holds (contiguous in RECV) double every stage.
 * For p not a power of two, a rank whose partner rank XOR d does not exist
 * gets the partner group's blocks through a subtree fix-up (the idea of MPICH's
 * implementation): in the lower group G of d ranks beside the incomplete upper
 * group H of h < d ranks, the first h ranks have H's blocks after the
 * exchange, and for t = d/2, ..., 1 each rank of G that has them passes them
 * to the rank t above it when that one lacks them (offset o in G holds them
 * before the round of t exactly when o mod 2t < h).
 * Source: Thakur, Rabenseifner and Gropp 2005, section 4.2
 * (papers/mpich-collectives.txt).  No restrictions.
 * Cost: lg p alpha + n (p - 1)/p beta for p a power of two, n = p * count.
 * Otherwise every rank still receives each block once, but the fix-ups add
 * rounds that forward the incomplete group's blocks: a rank takes part in
 * the fix-up of one stage at most, and the critical path stays below
 * 2 ceil(lg p) rounds (checked for p < 300).
 */
#include "../coll.h"
#include "../ranks.h"

/*
 * The fix-up inside the lower group G = [groot, groot + d), after an exchange
 * in which only the first h ranks of G had partners in H; H's blocks lie at
 * RECV[hroot * count, + h * count).
 */
static void subtree_fixup(const vine_args *a, vine_sched *s, int groot, int d, int hroot, int h)
{
    int o = a->rank - groot;
    size_t off = (size_t)hroot * a->count, len = (size_t)h * a->count;
    for (int t = d / 2; t >= 1; t /= 2) {
        int q = o % (2 * t);
        if (q < t && q < h && q + t >= h)
            vine__sched_send(s, a->rank + t, VINE_BUF_RECV, off, len);
        else if (q >= t && q >= h && q - t < h)
            vine__sched_recv(s, a->rank - t, VINE_BUF_RECV, off, len);
        vine__sched_fence(s);
    }
}

/* The stage of distance d: the exchange, then the fix-up where it is needed. */
static void stage(const vine_args *a, vine_sched *s, int d)
{
    int p = a->p, r = a->rank, peer = r ^ d;
    int groot = r & ~(d - 1), hroot = groot ^ d;
    int g = p - groot < d ? p - groot : d;
    int h = hroot >= p ? 0 : (p - hroot < d ? p - hroot : d);
    size_t c = a->count;
    if (peer < p) {
        /* Out of place the first message comes straight from SEND. */
        if (d == 1 && !a->inplace)
            vine__sched_send(s, peer, VINE_BUF_SEND, 0, c);
        else
            vine__sched_send(s, peer, VINE_BUF_RECV, (size_t)groot * c, (size_t)g * c);
        vine__sched_recv(s, peer, VINE_BUF_RECV, (size_t)hroot * c, (size_t)h * c);
    }
    vine__sched_fence(s);
    if (hroot > groot && h > 0 && h < d)
        subtree_fixup(a, s, groot, d, hroot, h);
}

int vine__allgather_recursive_doubling_build(const vine_args *a, vine_sched *s)
{
    /* The copy joins the first round and runs after its messages, which leave block rank alone. */
    if (!a->inplace)
        vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_RECV, (size_t)a->rank * a->count, a->count);
    /* The step to p ends the loop without overflowing d when p is near INT_MAX. */
    for (int d = 1; d < a->p; d = d <= a->p / 2 ? 2 * d : a->p)
        stage(a, s, d);
    return vine__sched_finish(s);
}
