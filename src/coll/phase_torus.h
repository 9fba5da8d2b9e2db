/*
 * The torus frame (MPI-free; issue 23, the Bine paper's section 5.4): runs a
 * flat collective along each dimension of the torus of a communicator
 * (torus.h) in turn, on the ranks of one line at a time as a virtual
 * communicator (phase_sub.h), so that every message of a stage travels
 * along one dimension.  Shared by the bucket algorithms (a ring on every
 * line, Jain and Sabharwal 2010) and the bine_torus ones (a Bine phase on
 * every line).  Dimensions of size 1 are skipped; without a torus (levels
 * NULL or flat) there is one dimension of p and the frame is the flat
 * algorithm itself.
 *
 * Torus order.  A rank's torus index is its coordinates read row-major
 * (dimension 0 the slowest).  The ranks that share coordinates 0 .. d-1 hold
 * consecutive torus indices, so a vector laid out block by block in torus
 * order gives each such set one contiguous range, cut into dims[d]
 * contiguous sub-ranges by coordinate d.  The reduce-scatter frame runs the
 * stage along dimension 0 on the whole vector (sub-range j to the rank of
 * coordinate j), then along dimension 1 on the sub-range kept, and so on, so
 * the rank ends with its own block; the allgather frame runs the stages in
 * the reverse order.  When the map places the ranks in torus order (torus
 * index = rank: a block map, e.g. torus:AxBxC) that order is the rank order
 * of the collective's blocks and the frames work in the user's buffers;
 * otherwise the reduce-scatter first copies the blocks into torus order in
 * scratch and the allgather copies them out of it at the end.
 */
#ifndef VINE_PHASE_TORUS_H
#define VINE_PHASE_TORUS_H

#include "coll.h"
#include "phase_tree.h"
#include "torus.h"

/*
 * One rank's view of the torus of a communicator.  The frames run the
 * active dimensions (size > 1) in the view's order, positions k = 0 ..
 * nact-1: position k is dimension vd[k] of the torus, of size vdim[k], and
 * the rank's coordinate there is vc[k].  The torus order of the frames is
 * the row-major order of those positions (vstride), so the ranks that share
 * the positions before k hold one contiguous range.  The plain view
 * (vine__tview_init) takes the dimensions in order and vc = c; a part of
 * the multiport algorithms (vine__tview_init_part) starts at another
 * dimension and may shift every line by one coordinate (virtual coordinate
 * j is coordinate (j + shift) mod D), which turns each Bine step's
 * direction around.  The block a rank keeps at a stage is the one of its
 * line coordinate lc, or, in a view made for the Bine allreduce
 * (vine__torus_allreduce_bine), block nu(lc) on lines whose size is a power
 * of two: there the butterfly's messages are contiguous ranges
 * (phase_bine.h), where in line order they are scattered blocks.
 */
typedef struct vine_tview {
    vine_torus t;
    int c[VINE_TORUS_MAXD];        /* the rank's coordinates */
    int nact;                      /* dimensions of size > 1 ... */
    int act[VINE_TORUS_MAXD];      /* ... in order */
    int vd[VINE_TORUS_MAXD];       /* position k's dimension */
    int vdim[VINE_TORUS_MAXD];     /* its size */
    int lc[VINE_TORUS_MAXD];       /* the rank's coordinate on its line there (shifted) */
    int vc[VINE_TORUS_MAXD];       /* the index of the block it keeps there: lc, or nu(lc) */
    long vstride[VINE_TORUS_MAXD]; /* torus index stride of position k */
    int shift;                     /* 0, or 1: lines shifted by one coordinate */
    int nu;                        /* blocks in Bine's nu order on lines of 2^k (allreduce) */
    long self;                     /* the rank's torus index */
    int *line, *line2;             /* scratch: the ranks of one line (malloc'd) */
    size_t *cnt, *dsp;             /* scratch: one stage's table (malloc'd) */
    const int *at; /* at[i]: the rank of torus index i in the plain view (NULL: i) */
    int identity;  /* 1 when torus index i is rank i for every i (plain view) */
} vine_tview;

/*
 * Where torus index i's block lies in a vector: [off(i), off(i + 1)), with
 * off(i) = displs[i] (p + 1 entries), or with displs NULL the even partition
 * vine__block_off(total, p, i).
 */
typedef struct vine_tlayout {
    const size_t *displs;
    size_t total;
} vine_tlayout;

/*
 * Makes the view of rank a->rank from a->levels (NULL, or not ready for p:
 * one dimension of p, as VINE_ALGO_TORUS admits it).  at[] is the map's block order, which is the
 * torus order (torus.h numbers the groups of every level in the order of their lowest ranks).
 * Returns VINE_OK, VINE_ERR_NO_MEM, or VINE_ERR_UNSUPPORTED when the map
 * makes no torus (vine__torus_make); free with vine__tview_free.
 */
int vine__tview_init(vine_tview *v, const vine_args *a);
/*
 * The view of part (first, shift) of a multiport algorithm: the active
 * dimensions from the first-th on, cyclically, lines shifted by shift (0 or
 * 1).  Its torus order is its own; only the frames that leave the block
 * order free (allreduce) take such a view.
 */
int vine__tview_init_part(vine_tview *v, const vine_args *a, int first, int shift, int nu);
void vine__tview_free(vine_tview *v);

/*
 * Reduce-scatter along the active dimensions in order, with rs a
 * reduce_scatter builder (any counts; the ring or a Bine one), for a vector
 * laid out by lay that lies at `in`.  The rank's own block (torus index v->self)
 * ends at `out`; with out NULL it ends in scratch and *own tells where.
 * Scratch is used from TMP[tmp_off] on.  Each stage but a lone one that
 * works in place reads its range from one place and writes the sub-range
 * kept to another (two areas of scratch alternate).  Commutative ops only.
 */
int vine__torus_rs(vine_sched *s, const vine_args *a, const vine_tview *v, vine_build_fn rs,
                   const vine_tlayout *lay, vine_bufpos in, const vine_bufpos *out, size_t tmp_off,
                   vine_bufpos *own);

/*
 * Allgather along the active dimensions in reverse order, with ag an
 * allgatherv builder, into the vector at w laid out by lay; the rank's own block starts at `own`
 * (anywhere, or in place at its position in w).  Scratch from TMP[tmp_off] on.
 */
int vine__torus_ag(vine_sched *s, const vine_args *a, const vine_tview *v, vine_build_fn ag,
                   const vine_tlayout *lay, vine_bufpos w, vine_bufpos own, size_t tmp_off);

/*
 * Whole builders on the frame: allreduce (reduce-scatter then allgather of
 * the vector cut evenly into p blocks in torus order), reduce_scatter (and
 * reduce_scatter_block), allgather; finish s.
 */
int vine__torus_allreduce(const vine_args *a, vine_sched *s, vine_build_fn rs, vine_build_fn ag);
/*
 * The allreduce of the frame on view v without finishing s: a->count
 * elements at `in` (SEND or, in place, RECV), the result at `w` (RECV),
 * scratch from TMP[tmp_off] on.  The multiport algorithms run one per part.
 * vine__torus_rs_nu and vine__torus_ag_nu are the line builders of a view
 * made with nu: the Bine butterflies of phase_bine.h on a line of 2^k, where
 * the rank keeps block nu(rank), else reduce_scatter and allgatherv
 * bine_block.
 */
/* allreduce bine_torus: the frame's allreduce on a view with nu, with those builders. */
int vine__torus_allreduce_bine(const vine_args *a, vine_sched *s);
int vine__torus_rs_nu(const vine_args *a, vine_sched *s);
int vine__torus_ag_nu(const vine_args *a, vine_sched *s);
int vine__torus_allreduce_view(const vine_args *a, vine_sched *s, const vine_tview *v,
                               vine_build_fn rs, vine_build_fn ag, vine_bufpos in, vine_bufpos w,
                               size_t tmp_off);
int vine__torus_reduce_scatter(const vine_args *a, vine_sched *s, vine_build_fn rs);
int vine__torus_allgather(const vine_args *a, vine_sched *s, vine_build_fn ag);

/*
 * allgather bine_torus's line builder (allgatherv arguments): a line whose
 * runs are equal and in line order, below VINE_TORUS_PERMUTE_BYTES in all,
 * runs allgather bine_permute on them, one message a step through scratch
 * in Bine order and a local copy into place at the end; any other line runs
 * allgatherv bine_block, which sends each step's blocks as separate ranges
 * of RECV (up to 5 messages a step on a line of 16) and copies nothing.  On
 * 16 ranks of one machine the scattered form took 1.49 times bine_permute's
 * time for 8-byte blocks, 1.20 for 4 KiB, 0.97 for 16 KiB and 0.70 for
 * 64 KiB (docs/torus.md).
 */
#define VINE_TORUS_PERMUTE_BYTES ((size_t)256 << 10)
int vine__torus_ag_line(const vine_args *a, vine_sched *s);

/*
 * Broadcast from a->root in RECV with a bcast builder per dimension: stage
 * d broadcasts along dimension d from the ranks that share the root's
 * coordinates d .. nd-1, to those that share d+1 .. nd-1.  The reduce is
 * its mirror with a reduce builder (commutative op): dimension nd-1 first,
 * each stage reducing to the rank of the root's coordinate on the line;
 * ranks other than the root accumulate in count elements of scratch.
 */
int vine__torus_bcast(const vine_args *a, vine_sched *s, vine_build_fn bc);
int vine__torus_reduce(const vine_args *a, vine_sched *s, vine_build_fn red);

#endif
