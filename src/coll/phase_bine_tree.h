/*
 * The distance-halving Bine tree for any p and any root (MPI-free), shared
 * by the Bine bcast, reduce, gather and scatter builders.  Source: De Sensi
 * et al., Bine trees, section 3 (papers/bine-trees.txt) and ../shared/BINE.md;
 * the digit arithmetic is in bine.h.
 *
 * Everything is relative to the root: v = (rank - root) mod p, written with
 * n = ceil(log2 p) negabinary digits d (vine__bine_digits).  In the
 * power-of-two tree a pattern d != 0 with run j = vine__bine_run(d, n)
 * receives at step(d) = n - j from parent(d) = d XOR (2^j - 1) and has the
 * children d XOR (2^k - 1), k = j - 1 .. 1, at steps n - k; the root (d = 0)
 * has the children k = n .. 1 at steps 0 .. n - 1.  The nominal subtree of d
 * is the patterns that share its digits j - 1 and up: an interval of 2^(j-1)
 * consecutive values.
 *
 * Pruning (p not a power of two).  The ranks are the values [bot, top],
 * top = min(hi(n), p - 1), bot = top - p + 1 (bine.h); the other patterns are
 * absent.  The subtree of an absent pattern x is an interval of values that
 * does not hold 0, so it crosses at most one end of [bot, top]; its children
 * with ranks in their subtrees therefore come, in step order, as existing
 * ranks followed by at most one absent child (the one that crosses the end),
 * and below that the same again.  The ranks whose parent is absent (orphans)
 * under a maximal absent subtree, taken level by level in step order, thus
 * form one chain with increasing steps, and each is given to the nearest
 * existing rank before it:
 *
 *   An orphan y receives from the previous orphan of its chain at that
 *   orphan's own step; the first orphan receives from the existing ancestor
 *   A at the step at which A would have sent to the absent top of the chain.
 *   To find the sender, walk up from u = y: with x = parent(u), if x exists
 *   the sender is x at step(u); else if x has an existing child c with
 *   step(x) < step(c) < step(u), the sender is the latest such c at step(c);
 *   else continue with u = x.
 *
 * An orphan thus receives strictly before its own step, from a rank that
 * holds the data and is idle then (A's send to an absent child does not
 * happen; an orphan c received before step(c) and sends to its own children
 * only after it), and forwards to its successor in the chain at its own step,
 * when it would otherwise have received.  So every rank receives exactly
 * once, from a rank that has the data, sends at most one message per step,
 * and every step lies in 0 .. n - 1: n rounds, as on a power of two.  An
 * orphan's subtree is its nominal subtree plus the rest of its chain: the
 * values that share its digits j and up.  Every subtree, cut to [bot, top],
 * is one interval of values.  On a power of two nothing is absent and the
 * tree is exactly BINE.md's.
 *
 * Blocks: a value w is relative rank w mod p and rank (w + root) mod p.
 * Ordered by value, the blocks of any subtree are one contiguous range, and
 * the p values in rank order are a rotation of [bot, top].
 */
#ifndef VINE_PHASE_BINE_TREE_H
#define VINE_PHASE_BINE_TREE_H

/* At most n <= 31 steps, so at most 31 children. */
#define VINE_BINE_TREE_MAXCHILD 32

/* A child in the tree: its relative rank, the step it receives, its subtree. */
typedef struct vine_bine_child {
    int v;
    int step;
    long lo, hi; /* its subtree: the values [lo, hi] */
} vine_bine_child;

/* One rank's place in the pruned distance-halving Bine tree. */
typedef struct vine_bine_node {
    int n;         /* ceil(log2 p): the number of steps */
    int v;         /* relative rank */
    long val;      /* its value (negabinary representative) */
    int parent;    /* relative rank of the parent, -1 at the root */
    int recv_step; /* the step it receives at, -1 at the root */
    long lo, hi;   /* its subtree: the values [lo, hi] (the root: [bot, top]) */
    int nchild;
    vine_bine_child child[VINE_BINE_TREE_MAXCHILD]; /* in step order */
} vine_bine_node;

/*
 * Fills node with the place of relative rank v (0 <= v < p) in the tree of
 * p ranks.  The mirrored tree (reduce, gather) runs the same links backwards:
 * children in reverse step order, then the parent.
 */
void vine__bine_tree_node(int p, int v, vine_bine_node *node);

#endif
