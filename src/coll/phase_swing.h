/*
 * Swing on a torus (MPI-free; De Sensi, Bonato, Saam and Hoefler, "Swing:
 * Short-cutting Rings for Higher Bandwidth Allreduce", NSDI 2024): the peer
 * sequence, the fold of a non-power-of-two torus and the block sets of its
 * butterfly, shared by the allreduce, reduce_scatter and allgather builders.
 *
 * The ranks are the torus of the level map (torus.h; one dimension of p
 * without a map).  A dimension of size D folds onto its largest power of two
 * D' = 2^k: of the coordinates below 2 (D - D'), the odd one hands its data
 * to its even neighbour (coordinate - 1) and sits out, the others keep their
 * place, dimension after dimension, so the participants form a torus of
 * D'_0 x D'_1 x ... and every fold message goes to a torus neighbour.  This
 * is vine's fold (phase_bine.h), done along each dimension; the Swing paper
 * instead sends each block once over ceil(lg p) steps of its own.
 *
 * The butterfly runs on participant coordinates.  Its steps go through the
 * dimensions in turn: round j takes, for each dimension d in order whose
 * k_d = lg D'_d steps are not all used, the step j of d; so step s is
 * along dimension s mod nd while every dimension has steps left, and
 * dimensions of size 1 take none.  At step j of dimension d the peer of a
 * participant with coordinate c there is c + rho(j) for even c, c - rho(j)
 * for odd c, modulo D'_d (rho as in bine.h: 1, -1, 3, -5 ...), the other
 * coordinates unchanged: in one dimension, Swing's pi(r, s).
 *
 * Block sets.  After step s of the distance-doubling order a participant
 * still reaches, with steps s + 1 ... n - 1, the participants that share the
 * top s + 1 bits of its position pos(m): the bits of the Bine block owners
 * nu(c_d) of its coordinates (bine.h; Swing's butterfly in one dimension is
 * Bine's), interleaved in step order, the first step's bit the highest.  So
 * the reduce-scatter sends the peer at step s the blocks of every
 * participant whose top s + 1 position bits are the peer's, and keeps its
 * own; the allgather runs the same exchanges backwards.  In rank order
 * these sets are scattered; laid out by position every set is one range, so
 * each step is one message: the allreduce cuts its vector in position order,
 * the reduce_scatter and allgather, where no dimension folds, take the
 * blocks where they lie (vine__swing_holder) and otherwise lay them out so
 * in scratch (vine_swing_lay) and copy in and out of rank order.
 */
#ifndef VINE_PHASE_SWING_H
#define VINE_PHASE_SWING_H

#include "coll.h"
#include "phase_bine.h"
#include "torus.h"

#define VINE_SWING_MAXSTEPS 32

typedef struct vine_swing {
    vine_torus t;
    int p, nd;
    int q[VINE_TORUS_MAXD];       /* folded size of each dimension: the largest power of two */
    int e[VINE_TORUS_MAXD];       /* dims[d] - q[d]: the folded pairs of dimension d */
    int n;                        /* butterfly steps: sum of lg q[d] */
    int dim[VINE_SWING_MAXSTEPS]; /* step s runs along dimension dim[s] ... */
    int sub[VINE_SWING_MAXSTEPS]; /* ... as that dimension's step sub[s] */
    int np;                       /* participants: the product of q[] */
    int *coord;                   /* p * nd: every rank's coordinates */
    int *part;                    /* p: the participant every rank stands in (folds into) */
    int *pos;                     /* np: each participant's position */
    int *real;                    /* np: the rank of each participant */
} vine_swing;

/*
 * Sets up w for a's communicator: the torus of a->levels (one dimension of
 * p when it is not ready), the fold and the positions.  Returns VINE_OK,
 * VINE_ERR_NO_MEM, or VINE_ERR_UNSUPPORTED for a map whose groups are not
 * uniform (the registry's VINE_ALGO_TORUS excludes it first).  O(p nd).
 */
int vine__swing_init(vine_swing *w, const vine_args *a);
void vine__swing_free(vine_swing *w);

/*
 * The shape alone (t, p, nd, q, e, n, dim, sub, np; no tables, nothing to
 * free) for the torus of map m for p ranks (one dimension of p when m is
 * not ready), as vine__swing_init makes it: for the cost model.
 */
int vine__swing_shape(vine_swing *w, const vine_levels *m, int p);

/* The coordinate of dimension d that holds participant coordinate f there. */
int vine__swing_unfold(const vine_swing *w, int d, int f);

/* Rank r's participant number, or -1 when r folded away (sits out the butterfly). */
int vine__swing_me(const vine_swing *w, int r);

/*
 * The participant that holds position j (the inverse of pos), or -1.  Where
 * no dimension folds (np = p), the reduce-scatter and the allgather lay the
 * positions on the ranks' blocks where they lie in rank order: position j
 * is rank j's block, so every set is a range of the vector in rank order
 * too and nothing is copied into position order.  The butterfly leaves
 * participant m with rank pos[m]'s block, and one exchange puts every
 * block in place (the allgather: one exchange first), as bine_send does in
 * one dimension (phase_bine.h).  O(np).
 */
int vine__swing_holder(const vine_swing *w, int j);

/* The participant that participant m exchanges with at step s. */
int vine__swing_peer(const vine_swing *w, int m, int s);

/*
 * Whether rank r is still in the fold before dimension d is folded (d = 0:
 * every rank; d = nd: the participants).
 */
int vine__swing_active(const vine_swing *w, int r, int d);

/*
 * Rank r's fold partner along dimension d when r takes part in that fold
 * (active before d, coordinate below 2 e[d]): the even coordinate's rank
 * for the odd one and the other way round; -1 otherwise.  *sits is set to 1
 * for the odd one, which hands its data over.
 */
int vine__swing_fold_partner(const vine_swing *w, int r, int d, int *sits);

/*
 * Whether rank x is among the ranks that rank r stands for before
 * dimension d is folded: x's coordinates from d on equal r's, and below d
 * they fold into r's.
 */
int vine__swing_stands_for(const vine_swing *w, int r, int d, int x);

/*
 * The butterfly on a vector cut into np positions, position j covering
 * [off[j], off[j + 1]) (np + 1 entries): the reduce-scatter (steps 0 .. n-1;
 * participant me sends the range of its peer's set from b's cur and reduces
 * its own set into b's w, b settled after each step; ends with position
 * pos[me] reduced) and the allgather (steps n-1 .. 0 in b's w, starting from
 * position pos[me]).  One message each way per step.  b supplies the
 * buffers and receive scratch (phase_bine.h); commutative ops only.
 */
void vine__swing_reduce_scatter(const vine_swing *w, vine_bfly *b, const size_t *off, int me);
void vine__swing_allgather(const vine_swing *w, vine_bfly *b, const size_t *off, int me);

/*
 * The blocks of the reduce_scatter and allgather (rank x's block: the one
 * that ends at rank x) laid out in scratch by position: position j holds
 * the blocks of the ranks that fold into the participant at position j, in
 * rank order, so every set of the butterfly is one range.
 */
typedef struct vine_swing_lay {
    size_t *at;  /* p: where rank x's block starts in the layout */
    size_t *len; /* p: its length */
    int *ord;    /* p: the ranks in layout order */
    size_t *off; /* np + 1: where position j starts */
} vine_swing_lay;

/*
 * Makes the layout of blocks of counts[x] elements (counts NULL: c each).
 * Returns VINE_OK or VINE_ERR_NO_MEM.  O(p).
 */
int vine__swing_lay_init(vine_swing_lay *l, const vine_swing *w, const size_t *counts, size_t c);
void vine__swing_lay_free(vine_swing_lay *l);

/*
 * Marks in mask (p entries) the ranks that r stands for before dimension d,
 * or with invert all the others.
 */
void vine__swing_mark_stands(const vine_swing *w, int r, int d, int invert, unsigned char *mask);

/*
 * Appends a SEND (recv 0) or RECV (recv 1) with peer per run of the marked
 * ranks' blocks that lie next to each other in the layout, at buf[base +
 * layout offset].  Both ends walk the same mask, so their messages match.
 */
void vine__swing_lay_msgs(vine_sched *s, const vine_swing_lay *l, int p, const unsigned char *mask,
                          int recv, int peer, int buf, size_t base);

/*
 * The fold-out of the reduce-scatter (invert 0: the blocks of the ranks a
 * folded rank stood for go back to it) and of the allgather (invert 1:
 * every block but those), dimension by dimension in reverse, the blocks in
 * TMP at their layout offsets.  mask: p entries of scratch.
 */
void vine__swing_fold_out(const vine_swing *w, const vine_swing_lay *l, vine_sched *s, int rank,
                          int invert, unsigned char *mask);

#endif
