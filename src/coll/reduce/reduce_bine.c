/*
 * Bine-tree reduce: the distance-halving Bine tree of the broadcast run
 * backwards (De Sensi et al., Bine trees, sections 3-4,
 * papers/bine-trees.txt; ../shared/BINE.md).  With ranks relative to the root
 * written in negabinary, each rank receives the partial results of its
 * children in reverse step order (the leaves' first), one per round,
 * combines each into its own, and then sends the result to its parent; at
 * mirrored step s a rank sends once its low s + 2 digits are no longer all
 * equal.  A child's subtree is not a range of ranks next to the parent's, so
 * the operands do not come in rank order: commutative ops only.  For p not a
 * power of two the absent patterns are pruned and the ranks below them are
 * chained onto the nearest existing rank before them (phase_bine_tree.h).
 * Restrictions: commutative op; any p, any root, in place at the root.
 * Cost: n = ceil(log2 p) rounds, n (alpha + count beta + count gamma) on the
 * critical path; every non-root sends count elements once.  On a power of
 * two it has exactly the binomial reduce's rounds and volume (each rank's
 * receives and its send are one to one with reduce binomial's; checked with
 * vine dump), only the partners differ.
 */
#include "../coll.h"
#include "../phase_bine_tree.h"
#include "../ranks.h"

int vine__reduce_bine_build(const vine_args *a, vine_sched *s)
{
    int p = a->p, root = a->root;
    size_t c = a->count;
    vine_bine_node node;
    vine__bine_tree_node(p, vine__mod((long)a->rank - root, p), &node);
    int is_root = node.parent < 0;
    /* cur: where this rank's running result lies; acc: where it accumulates. */
    int cur = a->inplace && is_root ? VINE_BUF_RECV : VINE_BUF_SEND;
    int acc = is_root ? VINE_BUF_RECV : VINE_BUF_TMP;
    size_t tmp = is_root ? 0 : c; /* TMP offset of a received partial result */
    for (int i = node.nchild - 1; i >= 0; i--) {
        int src = vine__mod((long)node.child[i].v + root, p);
        if (cur == acc) {
            /* Later children land in scratch and join the accumulator. */
            vine__sched_need_tmp(s, tmp + c);
            vine__sched_recv(s, src, VINE_BUF_TMP, tmp, c);
            vine__sched_reduce(s, VINE_BUF_TMP, tmp, acc, 0, c, VINE_SRC_RIGHT);
        } else {
            /* The first child lands in the accumulator; the input joins it. */
            if (acc == VINE_BUF_TMP)
                vine__sched_need_tmp(s, c);
            vine__sched_recv(s, src, acc, 0, c);
            vine__sched_reduce(s, cur, 0, acc, 0, c, VINE_SRC_LEFT);
            cur = acc;
        }
        vine__sched_fence(s);
    }
    if (!is_root)
        vine__sched_send(s, vine__mod((long)node.parent + root, p), cur, 0, c);
    else if (cur != acc)
        vine__sched_copy(s, cur, 0, acc, 0, c);
    return vine__sched_finish(s);
}
