/*
 * Irregular blocks on the distance-halving binomial tree (phase_tree.h), for
 * the binomial gatherv and scatterv (MPI-free).
 *
 * Ranks are relative to the tree root: relative rank u is rank (root + u) mod
 * p, and its block is counts[(root + u) mod p] elements at displs[...] in the
 * root's buffer.  A subtree is a range [lo, hi) of relative ranks, so its
 * blocks packed in relative order form one message; where they already lie
 * back to back in the root's buffer in that order, the root sends or receives
 * them in place.
 */
#ifndef VINE_PHASE_VTREE_H
#define VINE_PHASE_VTREE_H

#include "../sched/sched.h"

#include <stddef.h>

/* The blocks of relative ranks [lo, hi). */
typedef struct vine_vblocks {
    size_t total; /* the sum of their counts */
    /*
     * With displs: the non-empty blocks lie back to back in relative order
     * from displs offset off (every block empty: adjacent, off 0).
     */
    int adjacent;
    size_t off;
} vine_vblocks;

/*
 * The blocks of relative ranks [lo, hi) of a tree rooted at root; displs may
 * be NULL (then only total is computed and adjacent is 0).  O(hi - lo).
 */
vine_vblocks vine__vtree_blocks(const size_t *counts, const size_t *displs, int p, int root, int lo,
                                int hi);

/*
 * Copies between the packed blocks of relative ranks [lo, hi), which start at
 * pbuf[poff], and their places buf[displs[i]]: into the places (unpack != 0,
 * the gather direction) or from them into the packed range (the scatter
 * direction).  Blocks that lie back to back in both go in one copy.
 */
void vine__vtree_copy(vine_sched *s, const size_t *counts, const size_t *displs, int p, int root,
                      int lo, int hi, int pbuf, size_t poff, int buf, int unpack);

#endif
