/*
 * Binomial gatherv: the binomial gather (gather_binomial.c) on irregular
 * blocks.  The distance-halving binomial tree runs backwards on ranks
 * relative to the root (v = (rank - root) mod p); a subtree's blocks are
 * contiguous in relative order, so every non-root with children collects its
 * subtree [v, v + span) cut at p packed in scratch, its own block first, and
 * forwards it to its parent in one message; a leaf, or a rank whose
 * descendants' blocks are all empty, sends its block straight from SEND.  The
 * root posts the receives of all its children at once: a child's subtree
 * whose blocks lie back to back in RECV in relative order (the common case of
 * blocks in rank order, unless the subtree wraps past rank p - 1) lands there
 * directly, any other goes through scratch and is copied to its blocks, runs
 * of adjacent blocks in one copy.  Empty subtrees send nothing.  Every rank
 * reads the counts of its own subtree (the root's, all of them), so the API
 * layer broadcasts the root's table first (VINE_ALGO_ALLCOUNTS).  Source:
 * MPICH's binomial gather on the tree of Thakur, Rabenseifner and Gropp 2005
 * (papers/mpich-collectives.txt), carrying irregular blocks as Open MPI's
 * and MPICH's binomial gatherv variants do.  Restrictions: all counts known
 * on every rank; any p, any root.  Cost: ceil(log2 p) alpha + the root's
 * total receive bytes beta at the root; scratch of the subtree's bytes on a
 * non-root with children, of the scattered subtrees at the root.
 */
#include "../coll.h"
#include "../phase_tree.h"
#include "../phase_vtree.h"
#include "../ranks.h"

/* The root: every child's subtree into RECV (directly or through TMP), plus its own block. */
static void gatherv_root(const vine_args *a, vine_sched *s)
{
    int p = a->p, root = a->root;
    const size_t *rc = a->rcounts, *rd = a->rdispls;
    size_t toff = 0;
    /* The step to p ends the loop without overflowing mask when p is near INT_MAX. */
    for (int mask = 1; mask < p; mask = mask <= p / 2 ? 2 * mask : p) {
        int hi = mask < p - mask ? 2 * mask : p, child = vine__mod((long)root + mask, p);
        vine_vblocks b = vine__vtree_blocks(rc, rd, p, root, mask, hi);
        if (b.adjacent) {
            vine__sched_recv(s, child, VINE_BUF_RECV, b.off, b.total);
            continue;
        }
        /* The copies run after the round's messages. */
        vine__sched_need_tmp(s, toff + b.total);
        vine__sched_recv(s, child, VINE_BUF_TMP, toff, b.total);
        vine__vtree_copy(s, rc, rd, p, root, mask, hi, VINE_BUF_TMP, toff, VINE_BUF_RECV, 1);
        toff += b.total;
    }
    if (!a->inplace)
        vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_RECV, rd[root], rc[root]);
}

int vine__gatherv_binomial_build(const vine_args *a, vine_sched *s)
{
    int p = a->p, r = a->rank, root = a->root, v = vine__mod((long)r - root, p);
    const size_t *rc = a->rcounts;
    if (v == 0) {
        gatherv_root(a, s);
        return vine__sched_finish(s);
    }
    int span = vine__tree_span(p, v), end = vine__tree_end(p, v);
    int parent = vine__mod((long)r - span, p);
    size_t own = rc[r], total = vine__vtree_blocks(rc, NULL, p, root, v, end).total;
    if (total == own) {
        vine__sched_send(s, parent, VINE_BUF_SEND, 0, own);
        return vine__sched_finish(s);
    }
    /* TMP holds the blocks of relative ranks v, v + 1 ... end - 1, packed. */
    vine__sched_need_tmp(s, total);
    size_t off = own;
    for (int mask = 1; mask < span && v + mask < p; mask *= 2) {
        int hi = mask < end - v - mask ? v + 2 * mask : end;
        size_t n = vine__vtree_blocks(rc, NULL, p, root, v + mask, hi).total;
        vine__sched_recv(s, vine__mod((long)r + mask, p), VINE_BUF_TMP, off, n);
        off += n;
    }
    vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_TMP, 0, own);
    vine__sched_fence(s);
    vine__sched_send(s, parent, VINE_BUF_TMP, 0, total);
    return vine__sched_finish(s);
}
