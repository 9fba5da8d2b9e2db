/*
 * Van de Geijn broadcast with a recursive-doubling allgather: a binomial
 * scatter cuts the buffer into p blocks and gives relative rank v its
 * subtree's blocks, then at step k rank v swaps its group of 2^k blocks with
 * partner v ^ 2^k.  Messages whose blocks the receiver already holds from the
 * scatter are skipped.  For p not a power of two the partner of v may not
 * exist; then the upper half of v's pair of groups, [top, p), reached only the
 * ranks of the lower half whose partners exist (the first p - top of them),
 * and a fix-up inside the lower half spreads it on by doubling: in round j
 * the first h 2^j ranks send it to the next h 2^j.  This is the subtree
 * fix-up of MPICH's scatter/recursive-doubling broadcast, written from the
 * description.  Source: Thakur, Rabenseifner and Gropp 2005, sections 4.1 and
 * 4.3 (papers/mpich-collectives.txt).  No restrictions: any p, any root;
 * blocks are empty when count < p.  Cost, p a power of two:
 * 2 log2 p alpha + 2 ((p - 1) / p) n beta; otherwise up to about
 * log2 p more rounds for the fix-ups, with the same n beta bound.
 */
#include "../coll.h"
#include "../phase_tree.h"
#include "../ranks.h"

static int min_int(int x, int y)
{
    return x < y ? x : y;
}

/*
 * Sends blocks [lo, hi) from relative rank v to relative rank w (send != 0)
 * or receives them from w, unless the receiver holds them from the scatter.
 */
static void move_blocks(vine_sched *s, const vine_args *a, int send, int v, int w, int lo, int hi)
{
    if (vine__tree_holds(a->p, send ? w : v, lo, hi))
        return;
    int peer = vine__mod(a->rank + (w - v), a->p);
    vine__blocks_msg(s, send, peer, a->count, a->p, lo, hi);
}

/*
 * After the step of distance mask, spreads the blocks [top, p) of a cut upper
 * half over the lower half [base, top) of v's pair of groups, when v lies
 * there: the first p - top ranks of it have them, and the set that has them
 * doubles each round.
 */
static void fill_gap(vine_sched *s, const vine_args *a, int v, int mask)
{
    int p = a->p, base = v & ~(2 * mask - 1), top = base + mask;
    if (v >= top || top >= p || p >= top + mask)
        return;
    int o = v - base;
    for (int h = p - top; h < mask; h *= 2) {
        if (o < h && o + h < mask)
            move_blocks(s, a, 1, v, v + h, top, p);
        else if (o >= h && o < 2 * h)
            move_blocks(s, a, 0, v, v - h, top, p);
        vine__sched_fence(s);
    }
}

int vine__bcast_scatter_allgather_rd_build(const vine_args *a, vine_sched *s)
{
    int p = a->p, v = vine__mod(a->rank - a->root, p);
    vine__tree_scatter(s, p, a->rank, a->root, a->count);
    for (int mask = 1; mask < p; mask <<= 1) {
        int w = v ^ mask;
        if (w < p) {
            /* Each side's group of mask blocks, cut at p. */
            int g = v & ~(mask - 1), wg = w & ~(mask - 1);
            move_blocks(s, a, 1, v, w, g, min_int(g + mask, p));
            move_blocks(s, a, 0, v, w, wg, min_int(wg + mask, p));
            vine__sched_fence(s);
        }
        fill_gap(s, a, v, mask);
    }
    return vine__sched_finish(s);
}
