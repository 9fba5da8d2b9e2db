/*
 * Distance-doubling Bine tree phases for the large Bine broadcast and reduce
 * (MPI-free): the scatter along the tree, its mirror the gather, and the
 * allgather that follows the scatter, skipping the blocks the scatter
 * delivered.  The reduce-scatter before the gather is phase_bine.h's
 * butterfly with the same participants (VINE_BFLY_FOLD_PAIR).  Formulas: ../shared/BINE.md, sections
 * "Block owner nu" and "Distance-doubling Bine tree"; papers/bine-trees.txt,
 * sections 3.2 and 4.4.
 *
 * Everything runs among q = 2^floor(log2 p) participants numbered relative to
 * the root, so the root is participant 0 for every root and the butterfly
 * partner pi (which depends on parity) is taken on participant numbers.  With
 * e = p - q, relative rank v = (rank - root) mod p maps to participants as
 * follows (VINE_BFLY_FOLD_PAIR in phase_bine.h): among v < 2e the even v is
 * participant v/2 and the odd v is an extra rank served by v - 1, its fold
 * partner; v >= 2e is participant
 * v - e.  Pairing neighbours keeps the fold traffic local, and the root never
 * folds away.
 *
 * The data are cut into q blocks (vine__block_off), and participant j owns
 * block nu(j): in the tree, j's subtree is the participants whose nu lies in
 * [nu(j), nu(j) + span(j)), with span(j) = lowbit(nu(j)) (q for the root), so
 * every message is one contiguous range of blocks and, in the butterflies,
 * the range of w = q >> (s + 1) blocks around nu(partner) (send) or nu(j)
 * (keep).  In nu order the tree is a binomial tree and the butterfly a
 * recursive doubling/halving, so on q = p the phases have the rounds and
 * volume of their binomial counterparts; only the partners differ.
 */
#ifndef VINE_PHASE_BINE_DD_H
#define VINE_PHASE_BINE_DD_H

#include "../sched/sched.h"

#include <stddef.h>

typedef struct vine_bine_dd {
    vine_sched *s;
    int p, rank, root;
    int q, n;     /* participants (a power of two) and log2 q */
    int me;       /* this rank's participant number, -1 for an extra rank */
    int partner;  /* fold partner (real rank), -1 when there is none */
    size_t total; /* elements cut into q blocks */
} vine_bine_dd;

/* Sets up t for rank of p ranks, tree rooted at root, total elements. */
void vine__bine_dd_init(vine_bine_dd *t, vine_sched *s, int p, int rank, int root, size_t total);

/* The real rank of participant j. */
int vine__bine_dd_real(const vine_bine_dd *t, int j);

/* The first element of block i (i = q gives total). */
size_t vine__bine_dd_boff(const vine_bine_dd *t, int i);

/* The number of blocks in participant j's subtree: lowbit(nu(j)), q for the root. */
int vine__bine_dd_span(const vine_bine_dd *t, int j);

/* The step at which participant j receives in the tree (-1 for the root). */
int vine__bine_dd_recv_step(const vine_bine_dd *t, int j);

/*
 * Scatter along the distance-doubling tree inside buf[off, off + total): at
 * step s = 0 .. n-1 every holder j sends to pi(j, s) the w = q >> (s + 1)
 * blocks from nu(pi(j, s)) on.  Afterwards participant j holds blocks
 * [nu(j), nu(j) + span(j)); extra ranks do nothing.  Cost:
 * lg q alpha + ((q - 1) / q) total beta at the root.
 */
void vine__bine_dd_scatter(const vine_bine_dd *t, int buf, size_t off);

/*
 * The mirror: gather to the root along the same tree, steps n-1 .. 0
 * (distance halving).  Participant j starts with block nu(j) in
 * buf[off + boff(nu(j)), ...), collects its subtree's blocks there and sends
 * them on at its receive step of the scatter; the root ends with all blocks.
 */
void vine__bine_dd_gather(const vine_bine_dd *t, int buf, size_t off);

/*
 * Allgather on the distance-halving Bine butterfly after
 * vine__bine_dd_scatter() (steps n-1 .. 0, w = q >> (s + 1)): participant j
 * sends its w blocks around nu(j) to pi(j, s) and receives the w blocks
 * around nu(pi(j, s)), except when the receiver holds them from the scatter.
 * Afterwards every participant holds all blocks.
 */
void vine__bine_dd_allgather(const vine_bine_dd *t, int buf, size_t off);

#endif
