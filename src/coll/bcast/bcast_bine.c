/*
 * Bine-tree broadcast, distance halving (the small-message broadcast of
 * De Sensi et al., Bine trees, section 4.1, papers/bine-trees.txt, with the
 * tree of ../shared/BINE.md).  With ranks relative to the root written in
 * negabinary, the holders at step t = 0 .. n-1 send to the rank whose n - t
 * low digits are flipped; rank v receives once, at step n - run(v), and then
 * sends to its children, the nearest step first.  The tree's shape for any p
 * is in phase_bine_tree.h: for p not a power of two the absent patterns are
 * pruned and the ranks below them are chained onto the nearest existing rank
 * before them, so every rank still receives once, sends at most once per
 * step, and all within n steps.  No restrictions: any p, any root.
 * Cost: n = ceil(log2 p) rounds, ceil(log2 p) (alpha + count beta) on the
 * critical path; the root sends at most n count bytes, every other rank
 * receives count bytes once.  On a power of two it has exactly the binomial
 * tree's rounds and volume (each rank's sends and receives are one to one
 * with bcast binomial's; checked with vine dump), only the partners differ.
 */
#include "../coll.h"
#include "../phase_bine_tree.h"
#include "../ranks.h"

int vine__bcast_bine_build(const vine_args *a, vine_sched *s)
{
    int p = a->p, root = a->root;
    vine_bine_node node;
    vine__bine_tree_node(p, vine__mod((long)a->rank - root, p), &node);
    if (node.parent >= 0) {
        vine__sched_recv(s, vine__mod((long)node.parent + root, p), VINE_BUF_RECV, 0, a->count);
        vine__sched_fence(s);
    }
    for (int i = 0; i < node.nchild; i++) {
        vine__sched_send(s, vine__mod((long)node.child[i].v + root, p), VINE_BUF_RECV, 0, a->count);
        vine__sched_fence(s);
    }
    return vine__sched_finish(s);
}
