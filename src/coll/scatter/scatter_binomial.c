/*
 * Binomial scatter: the distance-halving binomial tree of the broadcast on
 * ranks relative to the root (v = (rank - root) mod p), where each message
 * carries only the blocks of the receiver's subtree [v, v + span) cut at p,
 * which are contiguous in relative order.  The root sends each child's
 * subtree straight from SEND, largest subtree first so that the deepest path
 * starts earliest; only the one subtree whose relative range wraps past rank
 * p - 1 is first copied into scratch in relative order.  A non-root with
 * children receives its subtree into scratch, keeps its own block and
 * forwards the rest the same way; a leaf receives straight into RECV.
 * Source: MPICH's binomial scatter, on the binomial tree of Thakur,
 * Rabenseifner and Gropp 2005 (papers/mpich-collectives.txt).  No restrictions: any p, any root.
 * Cost: ceil(log2 p) alpha + (p - 1) count beta at the root; scratch of up to
 * p/2 count elements on the root's children, the wrapped part at the root.
 */
#include "../coll.h"
#include "../phase_tree.h"
#include "../ranks.h"

/* The subtree of the root's child at relative rank mask: [mask, 2 mask) cut at p. */
static vine_tree_wrap child_blocks(int p, int root, int mask)
{
    return vine__tree_wrap(p, root, mask, mask < p - mask ? 2 * mask : p);
}

/*
 * The root: one round per child, largest subtree first.  Its own block and
 * the wrapping subtree (put in relative order in scratch) are copied in the
 * first round, after its message; a wrapping first child waits one round.
 */
static void scatter_root(const vine_args *a, vine_sched *s)
{
    int p = a->p, root = a->root, first = 1;
    size_t c = a->count;
    int span = vine__tree_span(p, 0);
    if (!a->inplace)
        vine__sched_copy(s, VINE_BUF_SEND, (size_t)root * c, VINE_BUF_RECV, 0, c);
    for (int mask = span / 2; mask > 0; mask /= 2) {
        vine_tree_wrap w = mask < p ? child_blocks(p, root, mask) : (vine_tree_wrap){0, 0, 0};
        if (w.n1 == 0)
            continue;
        vine__sched_need_tmp(s, (size_t)(w.n0 + w.n1) * c);
        vine__sched_copy(s, VINE_BUF_SEND, (size_t)w.first * c, VINE_BUF_TMP, 0, (size_t)w.n0 * c);
        vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_TMP, (size_t)w.n0 * c, (size_t)w.n1 * c);
    }
    for (int mask = span / 2; mask > 0; mask /= 2) {
        if (mask >= p)
            continue;
        vine_tree_wrap w = child_blocks(p, root, mask);
        if (w.n1 == 0) {
            vine__sched_send(s, w.first, VINE_BUF_SEND, (size_t)w.first * c, (size_t)w.n0 * c);
        } else {
            if (first)
                vine__sched_fence(s);
            vine__sched_send(s, w.first, VINE_BUF_TMP, 0, (size_t)(w.n0 + w.n1) * c);
        }
        vine__sched_fence(s);
        first = 0;
    }
}

int vine__scatter_binomial_build(const vine_args *a, vine_sched *s)
{
    int p = a->p, r = a->rank, v = vine__mod((long)r - a->root, p);
    size_t c = a->count;
    if (v == 0) {
        scatter_root(a, s);
        return vine__sched_finish(s);
    }
    int span = vine__tree_span(p, v), end = vine__tree_end(p, v);
    int parent = vine__mod((long)r - span, p);
    if (end - v == 1) {
        vine__sched_recv(s, parent, VINE_BUF_RECV, 0, c);
        return vine__sched_finish(s);
    }
    /* TMP block j holds relative rank v + j's block. */
    vine__sched_need_tmp(s, (size_t)(end - v) * c);
    vine__sched_recv(s, parent, VINE_BUF_TMP, 0, (size_t)(end - v) * c);
    vine__sched_copy(s, VINE_BUF_TMP, 0, VINE_BUF_RECV, 0, c);
    vine__sched_fence(s);
    for (int mask = span / 2; mask > 0; mask /= 2) {
        if (v + mask >= p)
            continue;
        int hi = mask < end - v - mask ? v + 2 * mask : end;
        vine__sched_send(s, vine__mod((long)r + mask, p), VINE_BUF_TMP, (size_t)mask * c,
                         (size_t)(hi - v - mask) * c);
        vine__sched_fence(s);
    }
    return vine__sched_finish(s);
}
