/*
 * Bine butterfly phases (MPI-free): the distance-doubling reduce-scatter and
 * the distance-halving allgather over blocks laid out in nu order, shared by
 * the allreduce, reduce_scatter and allgather Bine builders and usable by the
 * large bcast and reduce.  Specification: ../shared/BINE.md ("Butterfly
 * partner", "Block owner nu") and De Sensi et al., Bine trees, sections 3.1
 * and 4.3 (papers/bine-trees.txt).
 *
 * A phase runs among q participants (q a power of two, n = lg q steps) on a
 * vector of total elements cut into q *positions*.  Participant m ends the
 * reduce-scatter with position nu(m) (vine__bine_nu(m, q)) and starts the
 * allgather with it: at step s, w = q >> (s + 1), partner m' = pi(m, s, q), the
 * participants exchange the w positions starting at nu(m') & ~(w-1) and at
 * nu(m) & ~(w-1), so every message is one contiguous range of the vector.
 * Which data a position holds is the caller's choice: the allreduce keeps the
 * vector's own blocks (the permutation cancels between the two phases), the
 * standalone reduce-scatter and allgather either lay the blocks out in nu
 * order in scratch ("permute") or exchange one block at the end ("send").
 *
 * Like phase_hd.h, a rank keeps three positions: cur, where its partial vector
 * lives now (its input at first, maybe the read-only SEND); w, the working
 * vector results go to; and t, receive scratch in TMP.  Offsets inside the
 * vector are added to each.
 */
#ifndef VINE_PHASE_BINE_H
#define VINE_PHASE_BINE_H

#include "../sched/sched.h"
#include "coll.h"

#include <stddef.h>

/* How a non-power-of-two p maps onto the q participants (vine_bfly.fold). */
enum vine_bfly_fold {
    VINE_BFLY_FOLD_NONE = 0,  /* participant i is relative rank i; ranks >= q sit out */
    VINE_BFLY_FOLD_MPICH = 1, /* vine__fold_newrank: of the first 2(p - q), the odd ones */
    VINE_BFLY_FOLD_PAIR = 2   /* of the first 2(p - q), the even ones (the root stays in) */
};

typedef struct vine_bfly {
    vine_sched *s;
    int p;    /* communicator size */
    int q;    /* participants: vine__floor_pow2(p) */
    int me;   /* this rank's participant number, -1 when it sits out */
    int fold; /* enum vine_bfly_fold: which rank participant i is */
    int root; /* ... rotated: the real rank of participant i is (that + root) mod p */
    size_t total;
    /*
     * Position j covers [pos[j], pos[j + 1]) of the vector (q + 1 entries,
     * pos[q] = total); NULL: the even partition vine__block_off(total, q, j).
     */
    const size_t *pos;
    int cur_buf, w_buf;
    size_t cur_off, w_off, t_off; /* t lies in TMP */
} vine_bfly;

/*
 * Sets up b for rank `rank` of p with q = vine__floor_pow2(p) participants
 * taken from the relative ranks v = (rank - root) mod p as fold says
 * (enum vine_bfly_fold; for a power of two p all take part, participant i
 * being relative rank i).  With VINE_BFLY_FOLD_PAIR, among v < 2(p - q) the
 * even v is participant v / 2 and the odd one sits out; v >= 2(p - q) is
 * participant v - (p - q).  Positions default to the even partition of total (set b->pos
 * afterwards for another layout).  The input lives at (in_buf, in_off), the
 * working vector at (w_buf, w_off), receive scratch at TMP[t_off, ...).
 */
void vine__bfly_init(vine_bfly *b, vine_sched *s, int p, int rank, int root, int fold, size_t total,
                     int in_buf, size_t in_off, int w_buf, size_t w_off, size_t t_off);

/* The first element of position j (j = q gives total). */
size_t vine__bfly_pos(const vine_bfly *b, int j);
/* The real rank of participant i. */
int vine__bfly_real(const vine_bfly *b, int i);
/* The participant whose block owner nu is j: the inverse of vine__bine_nu(., q). */
int vine__bfly_nu_inv(int j, int q);

/*
 * Appends to the current round: receive the partner's partial of vector range
 * [off, off + len) and combine it into w (straight into w, combining cur into
 * it, while cur is not w; else through t).  Operand order is ignored: the Bine
 * butterflies need a commutative op.  The caller fences and settles.
 */
void vine__bfly_recv_reduce(vine_bfly *b, int peer, size_t off, size_t len);

/* Makes w the position of the rank's partial vector (after a reduction). */
static inline void vine__bfly_settle(vine_bfly *b)
{
    b->cur_buf = b->w_buf;
    b->cur_off = b->w_off;
}

/*
 * Reduce-scatter on the distance-doubling Bine butterfly, lg q rounds: the
 * participant starts with its whole partial vector at cur and ends with
 * position nu(me), reduced over all participants, in w (cur is set to w).
 * Each step sends the partner's w positions from cur and reduces the kept w
 * positions into w.  Scratch: TMP[t_off, + the largest range kept after the
 * first step), or of the first step too when cur is w at the start.  Does
 * nothing for a rank that sits out.  Commutative ops only.
 */
void vine__bfly_reduce_scatter(vine_bfly *b);

/*
 * Allgather on the distance-halving Bine butterfly, lg q rounds: the
 * participant starts with position nu(me) in w and ends with every position
 * in w.  Does nothing for a rank that sits out.
 */
void vine__bfly_allgather(vine_bfly *b);

/*
 * The two phases pipelined over segments: segs[0 .. nseg) are butterflies of
 * the same rank, one per contiguous segment of the vector (each with its own
 * total, offsets and receive scratch, set up by the caller).  Every
 * reduce-scatter step takes nseg rounds, segment k's exchange in round k, so
 * the executor can reduce segment k while segment k + 1's messages travel
 * (exec.h: a round's local operations run after the next round is posted
 * when they touch none of its ranges; alternate the segments' t_off so they
 * do).  Every allgather step is one round with every segment's messages.
 * nseg = 1 is the plain phase.
 */
void vine__bfly_reduce_scatter_segs(vine_bfly *segs, int nseg);
void vine__bfly_allgather_segs(vine_bfly *segs, int nseg);

/*
 * Fold-in and fold-out of the first 2 (p - q) ranks around a phase, for b set
 * up with fold and root 0: the halved fold of phase_hd.h (vine__hd_fold_in,
 * which leaves a participant's partial vector in w when it folded), and the
 * odd rank 2i + 1 sending cur[off, off + len) to the even rank 2i, which
 * receives it at (dbuf, doff).
 */
void vine__bfly_fold_in(vine_bfly *b, const vine_args *a);
void vine__bfly_fold_out(vine_bfly *b, size_t off, size_t len, int dbuf, size_t doff);

/*
 * Whole builders of the reduce_scatter (and reduce_scatter_block) and
 * allgather Bine algorithms: permute (blocks laid out in nu order in TMP,
 * local copies into and out of it) or not (blocks in rank order, one extra
 * exchange of a block).  Both fold a non-power-of-two p.  Finish s.
 */
int vine__bfly_reduce_scatter_build(const vine_args *a, vine_sched *s, int permute);
int vine__bfly_allgather_build(const vine_args *a, vine_sched *s, int permute);

#endif
