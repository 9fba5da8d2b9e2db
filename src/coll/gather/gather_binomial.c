/*
 * Binomial gather: the distance-halving binomial tree of the broadcast, run
 * backwards on ranks relative to the root (v = (rank - root) mod p).  A
 * subtree's blocks are contiguous in relative order, so every non-root with
 * children collects its subtree [v, v + span) cut at p in scratch, its own
 * block first, and forwards it to its parent in one message; a leaf sends its
 * input straight from SEND.  The root receives each child's subtree directly
 * into its place in RECV; only the one subtree whose relative range wraps
 * past rank p - 1 goes through scratch and is copied in two pieces.  A rank
 * posts the receives of all its children at once (they land in disjoint
 * ranges), so a child's data is taken as soon as it is ready.
 * Source: MPICH's binomial gather, on the binomial tree of Thakur,
 * Rabenseifner and Gropp 2005 (papers/mpich-collectives.txt).  No restrictions: any p, any root.
 * Cost: ceil(log2 p) alpha + (p - 1) count beta at the root; scratch of up to
 * p/2 count elements on the root's children, the wrapped part at the root.
 */
#include "../coll.h"
#include "../phase_tree.h"
#include "../ranks.h"

/* The root: every child's subtree into RECV in rank order, plus its own block. */
static void gather_root(const vine_args *a, vine_sched *s)
{
    int p = a->p, root = a->root;
    size_t c = a->count;
    /* The step to p ends the loop without overflowing mask when p is near INT_MAX. */
    for (int mask = 1; mask < p; mask = mask <= p / 2 ? 2 * mask : p) {
        int hi = mask < p - mask ? 2 * mask : p;
        vine_tree_wrap w = vine__tree_wrap(p, root, mask, hi);
        int child = w.first;
        if (w.n1 == 0) {
            vine__sched_recv(s, child, VINE_BUF_RECV, (size_t)w.first * c, (size_t)w.n0 * c);
            continue;
        }
        /* The wrapping subtree: the copies run after the round's messages. */
        vine__sched_need_tmp(s, (size_t)(hi - mask) * c);
        vine__sched_recv(s, child, VINE_BUF_TMP, 0, (size_t)(hi - mask) * c);
        vine__sched_copy(s, VINE_BUF_TMP, 0, VINE_BUF_RECV, (size_t)w.first * c, (size_t)w.n0 * c);
        vine__sched_copy(s, VINE_BUF_TMP, (size_t)w.n0 * c, VINE_BUF_RECV, 0, (size_t)w.n1 * c);
    }
    if (!a->inplace)
        vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_RECV, (size_t)root * c, c);
}

int vine__gather_binomial_build(const vine_args *a, vine_sched *s)
{
    int p = a->p, r = a->rank, v = vine__mod((long)r - a->root, p);
    size_t c = a->count;
    if (v == 0) {
        gather_root(a, s);
        return vine__sched_finish(s);
    }
    int span = vine__tree_span(p, v), end = vine__tree_end(p, v);
    int parent = vine__mod((long)r - span, p);
    if (end - v == 1) {
        vine__sched_send(s, parent, VINE_BUF_SEND, 0, c);
        return vine__sched_finish(s);
    }
    /* TMP block j holds relative rank v + j's input. */
    vine__sched_need_tmp(s, (size_t)(end - v) * c);
    for (int mask = 1; mask < span && v + mask < p; mask *= 2) {
        int hi = mask < end - v - mask ? v + 2 * mask : end;
        vine__sched_recv(s, vine__mod((long)r + mask, p), VINE_BUF_TMP, (size_t)mask * c,
                         (size_t)(hi - v - mask) * c);
    }
    vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_TMP, 0, c);
    vine__sched_fence(s);
    vine__sched_send(s, parent, VINE_BUF_TMP, 0, (size_t)(end - v) * c);
    return vine__sched_finish(s);
}
