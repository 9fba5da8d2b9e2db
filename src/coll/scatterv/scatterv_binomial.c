/*
 * Binomial scatterv: the binomial scatter (scatter_binomial.c) on irregular
 * blocks.  The distance-halving binomial tree runs on ranks relative to the
 * root (v = (rank - root) mod p), each message carrying the blocks of the
 * receiver's subtree [v, v + span) cut at p, packed in relative order.  The
 * root sends each child's subtree in a round of its own, largest subtree
 * first so that the deepest path starts earliest: straight from SEND when its
 * blocks lie back to back there in relative order (blocks in rank order,
 * unless the subtree wraps past rank p - 1), otherwise packed into scratch
 * first (runs of adjacent blocks in one copy).  A non-root with children
 * receives its subtree into scratch, keeps its own block and forwards the
 * rest the same way; a leaf, or a rank whose descendants' blocks are all
 * empty, receives straight into RECV.  Empty subtrees send nothing.  Every
 * rank reads the counts of its own subtree (the root's, all of them), so the
 * API layer broadcasts the root's table first (VINE_ALGO_ALLCOUNTS).
 * Source: MPICH's binomial scatter on the tree of Thakur, Rabenseifner and
 * Gropp 2005 (papers/mpich-collectives.txt), carrying irregular blocks.
 * Restrictions: all counts known on every rank; any p, any root.  Cost:
 * ceil(log2 p) alpha + the root's total send bytes beta at the root; scratch
 * of the subtree's bytes on a non-root with children, of the scattered
 * subtrees at the root.
 */
#include "../coll.h"
#include "../phase_tree.h"
#include "../phase_vtree.h"
#include "../ranks.h"

/* Children of the root: at most one per bit of an int. */
#define VINE_SCATTERV_MAX_CHILDREN 32

/*
 * The root: packs the subtrees that are not back to back in SEND into TMP and
 * copies its own block, all in the first round, after its first message; then
 * one round per child, largest subtree first.  A first child sent from TMP
 * waits one round for the packing.
 */
static void scatterv_root(const vine_args *a, vine_sched *s)
{
    int p = a->p, root = a->root, n = 0, first = 1;
    const size_t *sc = a->scounts, *sd = a->sdispls;
    int masks[VINE_SCATTERV_MAX_CHILDREN];
    vine_vblocks bs[VINE_SCATTERV_MAX_CHILDREN];
    size_t toffs[VINE_SCATTERV_MAX_CHILDREN], toff = 0;
    for (int mask = vine__tree_span(p, 0) / 2; mask > 0; mask /= 2) {
        if (mask >= p)
            continue;
        int hi = mask < p - mask ? 2 * mask : p;
        vine_vblocks b = vine__vtree_blocks(sc, sd, p, root, mask, hi);
        if (b.total == 0)
            continue;
        masks[n] = mask;
        bs[n] = b;
        toffs[n] = toff;
        if (!b.adjacent) {
            vine__sched_need_tmp(s, toff + b.total);
            vine__vtree_copy(s, sc, sd, p, root, mask, hi, VINE_BUF_TMP, toff, VINE_BUF_SEND, 0);
            toff += b.total;
        }
        n++;
    }
    if (!a->inplace)
        vine__sched_copy(s, VINE_BUF_SEND, sd[root], VINE_BUF_RECV, 0, sc[root]);
    for (int k = 0; k < n; k++) {
        int child = vine__mod((long)root + masks[k], p);
        if (bs[k].adjacent) {
            vine__sched_send(s, child, VINE_BUF_SEND, bs[k].off, bs[k].total);
        } else {
            if (first)
                vine__sched_fence(s);
            vine__sched_send(s, child, VINE_BUF_TMP, toffs[k], bs[k].total);
        }
        vine__sched_fence(s);
        first = 0;
    }
}

int vine__scatterv_binomial_build(const vine_args *a, vine_sched *s)
{
    int p = a->p, r = a->rank, root = a->root, v = vine__mod((long)r - root, p);
    const size_t *sc = a->scounts;
    if (v == 0) {
        scatterv_root(a, s);
        return vine__sched_finish(s);
    }
    int span = vine__tree_span(p, v), end = vine__tree_end(p, v);
    int parent = vine__mod((long)r - span, p);
    size_t own = sc[r], total = vine__vtree_blocks(sc, NULL, p, root, v, end).total;
    if (total == own) {
        vine__sched_recv(s, parent, VINE_BUF_RECV, 0, own);
        return vine__sched_finish(s);
    }
    /* TMP holds the blocks of relative ranks v, v + 1 ... end - 1, packed. */
    vine__sched_need_tmp(s, total);
    vine__sched_recv(s, parent, VINE_BUF_TMP, 0, total);
    vine__sched_copy(s, VINE_BUF_TMP, 0, VINE_BUF_RECV, 0, own);
    vine__sched_fence(s);
    for (int mask = span / 2; mask > 0; mask /= 2) {
        if (v + mask >= p)
            continue;
        int hi = mask < end - v - mask ? v + 2 * mask : end;
        size_t off = vine__vtree_blocks(sc, NULL, p, root, v, v + mask).total;
        size_t n = vine__vtree_blocks(sc, NULL, p, root, v + mask, hi).total;
        vine__sched_send(s, vine__mod((long)r + mask, p), VINE_BUF_TMP, off, n);
        vine__sched_fence(s);
    }
    return vine__sched_finish(s);
}
