/*
 * Bine-tree gather: the distance-halving Bine tree of the broadcast run
 * backwards (De Sensi et al., Bine trees, sections 3-4,
 * papers/bine-trees.txt; ../shared/BINE.md), each message carrying the
 * blocks of the sender's whole subtree.  Ranks are relative to the root and
 * written in negabinary; a subtree is one interval of negabinary values
 * (phase_bine_tree.h), so with blocks ordered by value every message is one
 * contiguous range.  A non-root with children collects its subtree in
 * scratch in value order, its own block included, and forwards it to its
 * parent in one message; a leaf sends its input straight from SEND.  The
 * value order is a rotation of rank order (value w is rank (w + root) mod p),
 * so the root receives each child's subtree directly into its place in RECV;
 * only the one subtree that wraps past rank p - 1 goes through scratch and
 * is copied in two pieces.  A rank posts the receives of all its children at
 * once (they land in disjoint ranges).  For p not a power of two the absent
 * patterns are pruned and the ranks below them are chained onto the nearest
 * existing rank before them (phase_bine_tree.h), which keeps every subtree
 * an interval.  No restrictions: any p, any root.
 * Cost: n = ceil(log2 p) rounds, n alpha + (p - 1) count beta at the root;
 * scratch of up to the subtree's blocks on inner ranks, the wrapped part at
 * the root.  On a power of two it has exactly the binomial gather's rounds
 * and volume (the subtree sizes 2^(n-1), ..., 1 below each rank are the
 * same; checked with vine dump).
 */
#include "../coll.h"
#include "../phase_bine_tree.h"
#include "../phase_tree.h"
#include "../ranks.h"

/* The root: every child's subtree into RECV in rank order, plus its own block. */
static void gather_root(const vine_args *a, vine_sched *s, const vine_bine_node *node)
{
    int p = a->p, root = a->root;
    size_t c = a->count;
    for (int i = node->nchild - 1; i >= 0; i--) {
        const vine_bine_child *ch = &node->child[i];
        int src = vine__mod((long)ch->v + root, p);
        vine_tree_wrap w = vine__tree_wrap(p, root, (int)ch->lo, (int)ch->hi + 1);
        if (w.n1 == 0) {
            vine__sched_recv(s, src, VINE_BUF_RECV, (size_t)w.first * c, (size_t)w.n0 * c);
            continue;
        }
        /* The wrapping subtree: the copies run after the round's messages. */
        vine__sched_need_tmp(s, (size_t)(w.n0 + w.n1) * c);
        vine__sched_recv(s, src, VINE_BUF_TMP, 0, (size_t)(w.n0 + w.n1) * c);
        vine__sched_copy(s, VINE_BUF_TMP, 0, VINE_BUF_RECV, (size_t)w.first * c, (size_t)w.n0 * c);
        vine__sched_copy(s, VINE_BUF_TMP, (size_t)w.n0 * c, VINE_BUF_RECV, 0, (size_t)w.n1 * c);
    }
    if (!a->inplace)
        vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_RECV, (size_t)root * c, c);
}

int vine__gather_bine_build(const vine_args *a, vine_sched *s)
{
    int p = a->p, root = a->root;
    size_t c = a->count;
    vine_bine_node node;
    vine__bine_tree_node(p, vine__mod((long)a->rank - root, p), &node);
    if (node.parent < 0) {
        gather_root(a, s, &node);
        return vine__sched_finish(s);
    }
    int parent = vine__mod((long)node.parent + root, p);
    if (node.nchild == 0) {
        vine__sched_send(s, parent, VINE_BUF_SEND, 0, c);
        return vine__sched_finish(s);
    }
    /* TMP block j holds the block of value lo + j. */
    size_t nblocks = (size_t)(node.hi - node.lo + 1);
    vine__sched_need_tmp(s, nblocks * c);
    for (int i = node.nchild - 1; i >= 0; i--) {
        const vine_bine_child *ch = &node.child[i];
        vine__sched_recv(s, vine__mod((long)ch->v + root, p), VINE_BUF_TMP,
                         (size_t)(ch->lo - node.lo) * c, (size_t)(ch->hi - ch->lo + 1) * c);
    }
    vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_TMP, (size_t)(node.val - node.lo) * c, c);
    vine__sched_fence(s);
    vine__sched_send(s, parent, VINE_BUF_TMP, 0, nblocks * c);
    return vine__sched_finish(s);
}
