/*
 * Bine-tree scatter: the distance-halving Bine tree of the broadcast
 * (De Sensi et al., Bine trees, sections 3-4, papers/bine-trees.txt;
 * ../shared/BINE.md), where each message carries only the blocks of the
 * receiver's subtree.  Ranks are relative to the root and written in
 * negabinary; a subtree is one interval of negabinary values
 * (phase_bine_tree.h), so with blocks ordered by value every message is one
 * contiguous range.  The value order is a rotation of rank order (value w is
 * rank (w + root) mod p), so the root sends each child's subtree straight
 * from SEND, and only the one subtree that wraps past rank p - 1 is first
 * copied into scratch in value order.  A non-root with children receives its
 * subtree into scratch in value order, keeps its own block and forwards each
 * child's range; a leaf receives straight into RECV.  For p not a power of
 * two the absent patterns are pruned and the ranks below them are chained
 * onto the nearest existing rank before them (phase_bine_tree.h), which keeps
 * every subtree an interval.  No restrictions: any p, any root.
 * Cost: n = ceil(log2 p) rounds, n alpha + (p - 1) count beta at the root;
 * scratch of up to the subtree's blocks on inner ranks, the wrapped part at
 * the root.  On a power of two it has exactly the binomial scatter's rounds
 * and volume (the subtree sizes 2^(n-1), ..., 1 below each rank are the
 * same; checked with vine dump).
 */
#include "../coll.h"
#include "../phase_bine_tree.h"
#include "../phase_tree.h"
#include "../ranks.h"

/*
 * The root: one round per child, nearest step first.  Its own block and the
 * wrapping subtree (in value order in scratch) are copied in the first round,
 * after its message; a wrapping first child waits one round.
 */
static void scatter_root(const vine_args *a, vine_sched *s, const vine_bine_node *node)
{
    int p = a->p, root = a->root;
    size_t c = a->count;
    if (!a->inplace)
        vine__sched_copy(s, VINE_BUF_SEND, (size_t)root * c, VINE_BUF_RECV, 0, c);
    for (int i = 0; i < node->nchild; i++) {
        const vine_bine_child *ch = &node->child[i];
        vine_tree_wrap w = vine__tree_wrap(p, root, (int)ch->lo, (int)ch->hi + 1);
        if (w.n1 == 0)
            continue;
        vine__sched_need_tmp(s, (size_t)(w.n0 + w.n1) * c);
        vine__sched_copy(s, VINE_BUF_SEND, (size_t)w.first * c, VINE_BUF_TMP, 0, (size_t)w.n0 * c);
        vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_TMP, (size_t)w.n0 * c, (size_t)w.n1 * c);
    }
    for (int i = 0; i < node->nchild; i++) {
        const vine_bine_child *ch = &node->child[i];
        int dest = vine__mod((long)ch->v + root, p);
        vine_tree_wrap w = vine__tree_wrap(p, root, (int)ch->lo, (int)ch->hi + 1);
        if (w.n1 == 0) {
            vine__sched_send(s, dest, VINE_BUF_SEND, (size_t)w.first * c, (size_t)w.n0 * c);
        } else {
            if (i == 0)
                vine__sched_fence(s);
            vine__sched_send(s, dest, VINE_BUF_TMP, 0, (size_t)(w.n0 + w.n1) * c);
        }
        vine__sched_fence(s);
    }
}

int vine__scatter_bine_build(const vine_args *a, vine_sched *s)
{
    int p = a->p, root = a->root;
    size_t c = a->count;
    vine_bine_node node;
    vine__bine_tree_node(p, vine__mod((long)a->rank - root, p), &node);
    if (node.parent < 0) {
        scatter_root(a, s, &node);
        return vine__sched_finish(s);
    }
    int parent = vine__mod((long)node.parent + root, p);
    if (node.nchild == 0) {
        vine__sched_recv(s, parent, VINE_BUF_RECV, 0, c);
        return vine__sched_finish(s);
    }
    /* TMP block j holds the block of value lo + j. */
    size_t nblocks = (size_t)(node.hi - node.lo + 1);
    vine__sched_need_tmp(s, nblocks * c);
    vine__sched_recv(s, parent, VINE_BUF_TMP, 0, nblocks * c);
    vine__sched_copy(s, VINE_BUF_TMP, (size_t)(node.val - node.lo) * c, VINE_BUF_RECV, 0, c);
    vine__sched_fence(s);
    for (int i = 0; i < node.nchild; i++) {
        const vine_bine_child *ch = &node.child[i];
        vine__sched_send(s, vine__mod((long)ch->v + root, p), VINE_BUF_TMP,
                         (size_t)(ch->lo - node.lo) * c, (size_t)(ch->hi - ch->lo + 1) * c);
        vine__sched_fence(s);
    }
    return vine__sched_finish(s);
}
