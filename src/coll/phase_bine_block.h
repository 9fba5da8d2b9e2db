/*
 * Block-by-block Bine butterflies (MPI-free): the routing trees of every block
 * on the Bine butterfly of any even number of participants, and the
 * distance-doubling reduce-scatter and distance-halving allgather that move
 * each block along its tree.  Shared by reduce_scatter bine_block (and
 * reduce_scatter_block through it), allgather bine_block and alltoall bine.
 * Specification: ../shared/BINE.md ("Butterfly partner", "Block owner nu",
 * "Non-power-of-two p", second bullet) and De Sensi et al., Bine trees,
 * sections 3.1 and 4.3 (papers/bine-trees.txt).
 *
 * The trees.  On m participants (m even, n = ceil(log2 m) steps) the partner
 * pi(r, s) of bine.h is a perfect matching at every step (partners have
 * opposite parity, and m even keeps parity mod m).  Block b spreads from
 * rank b over the distance-halving butterfly: at step s = n-1, ..., 0 every
 * rank holding it gives it to its partner unless the partner holds it too.
 * The first step at which rank r gets b, t_b(r), and its giver pi(r, t_b(r))
 * make a spanning tree rooted at b whose steps fall from the root to the
 * leaves; the reduce-scatter runs every tree backwards (rank r sends its
 * partial of b to pi(r, t_b(r)) at step t_b(r), after its children, which
 * sent at smaller steps), the allgather forwards, and the alltoall routes
 * every block (x -> b) along b's tree from x up to b.
 *
 * The rule.  x -> x + 2k and x -> c - x (c odd) map the butterfly onto itself,
 * so every tree is tree 0 relabelled: t_b(r) = t_0(z) with z = r - b for even
 * b and z = b - r for odd b (mod m).  Seen from rank r this is BINE.md's shift
 * and mirror: r sends block b at the step at which rank 0 sends block b - r
 * (even r) or r - b (odd r).  Tree 0 is the Bine butterfly on 2^n ranks folded mod m: the
 * integers v in [lo(n), hi(n)] (bine.h) reach each other by adding +-rho(s)
 * exactly as ranks do, and on 2^n ranks v is reached at step
 * T(v) = ctz(gray(nb(v or -v))) (odd or even v), the top bit of nu(v) of
 * BINE.md.  So t_0(z) = max T(v) over the integers v == z (mod m) of the
 * range (one or two of them).  For a power of two m that is nu's rule
 * itself, and the schedules coincide in rounds and volume with the nu-block
 * butterfly of phase_bine.h; for other m, nu's choice of representative
 * (vine__bine_nu) is not enough: a rank can be reached first through the
 * other one (m = 6: rank 4 is reached at step 1 through v = 4 but nu takes
 * v = -2, step 0).
 */
#ifndef VINE_PHASE_BINE_BLOCK_H
#define VINE_PHASE_BINE_BLOCK_H

#include "../sched/sched.h"

#include <stddef.h>

typedef struct vine_bbk {
    int m;              /* participants: even, >= 2 */
    int n;              /* steps: ceil(log2 m) */
    signed char *up;    /* up[z]: the step at which node z of tree 0 sends to its parent; -1 at 0 */
    signed char *first; /* first[z]: the step of z's first child in tree 0, n when it has none */
    /* With the order only (vine__bbk_init's `order`): tree 0 in pre-order, children by step. */
    int *pre;  /* pre[i]: the node at position i */
    int *at;   /* at[z]: the position of node z */
    int *size; /* size[z]: the size of z's subtree, which is pre[at[z], at[z] + size[z]) */
} vine_bbk;

/*
 * Builds tree 0 on m participants (m even, >= 2), with its pre-order when
 * order is set.  Returns VINE_OK or VINE_ERR_NO_MEM (then k holds nothing).
 */
int vine__bbk_init(vine_bbk *k, int m, int order);
void vine__bbk_free(vine_bbk *k);

/* The node of rank r in block b's tree, and the rank of node z there. */
static inline int vine__bbk_node(const vine_bbk *k, int b, int r)
{
    long z = b % 2 ? (long)b - r : (long)r - b;
    return (int)(z < 0 ? z + k->m : z);
}

static inline int vine__bbk_rank(const vine_bbk *k, int b, int z)
{
    long r = b % 2 ? (long)b - z : (long)z + b;
    return (int)(r < 0 ? r + k->m : r >= k->m ? r - k->m : r);
}

/* t_b(r): the step at which rank r sends block b up its tree (-1 when r == b). */
static inline int vine__bbk_up(const vine_bbk *k, int b, int r)
{
    return k->up[vine__bbk_node(k, b, r)];
}

/*
 * Reduce-scatter among participants 0..m-1; this rank is participant r.
 * Participant block b is elements [off[b], off[b + 1]) of the vector.  The
 * input vector lies at (in_buf, in_off); with in_acc it lies in the
 * accumulator already (TMP[w_off, ...), which is then also the input).
 * Partials of blocks other than r accumulate at TMP[w_off + off[b], ...);
 * block r's at (own_buf, own_off), where it ends fully reduced.  Receive
 * scratch starts at TMP[t_off] (need_tmp is called for it).  Commutative ops
 * only.  The caller fences before; the last step's round is left open.
 */
void vine__bbk_reduce_scatter(const vine_bbk *k, vine_sched *s, int r, const size_t *off,
                              int in_buf, size_t in_off, int in_acc, size_t w_off, int own_buf,
                              size_t own_off, size_t t_off);

/*
 * Allgather among participants 0..m-1 in buffer buf (RECV, or TMP for
 * allgatherv's packed blocks), participant block b at buf[off[b], off[b + 1]).
 * This rank, participant r, has its block at (own_buf, own_off); when that is
 * not buf[off[r]] it is sent from there at the first step and copied into buf
 * in that step's round.  The caller fences before; the last step's round is
 * left open.
 */
void vine__bbk_allgather(const vine_bbk *k, vine_sched *s, int r, const size_t *off, int buf,
                         int own_buf, size_t own_off);

#endif
