/*
 * Recursive halving / doubling phases shared by the Rabenseifner, binary
 * blocks, recursive-doubling and recursive-halving builders (MPI-free).
 *
 * A phase runs among q participants (q a power of two) on a vector of
 * elements cut into q participant blocks.  Each rank keeps three positions:
 * cur, where its partial vector lives now (at first its input, which may be
 * the read-only SEND); w, the working vector that partial results go to; and
 * t, receive scratch in TMP.  Offsets inside the vector are added to each
 * position.  After the first reduction a rank's partial vector lives in w, so
 * the phases set cur to w; every later step only touches ranges already
 * written there.
 */
#ifndef VINE_PHASE_HD_H
#define VINE_PHASE_HD_H

#include "../sched/sched.h"
#include "coll.h"
#include "ranks.h"

#include <stddef.h>

typedef struct vine_hd {
    vine_sched *s;
    int commutative; /* the op is commutative: operand order may be ignored */
    /*
     * Participants: q of them, this rank is participant me (-1: none).  The
     * real rank of participant i is vine__fold_oldrank(fold_p, i) when
     * fold_p > 0, else base + i.  Both maps keep rank order.
     */
    int q, me, base, fold_p;
    /*
     * Block table.  Without displs, participant block i covers fine blocks
     * [i * stride, (i + 1) * stride) of the even partition of total elements
     * into nfine blocks (vine__block_off).  With displs (reduce_scatter),
     * participant i owns the blocks of the real ranks it stands for in the
     * fold of fold_p ranks, so its block starts at displs of its first rank.
     */
    size_t total;
    int nfine, stride;
    const size_t *displs;
    /* Buffer positions of element 0 of the vector. */
    int cur_buf, w_buf;
    size_t cur_off, w_off, t_off; /* t lies in TMP */
} vine_hd;

/*
 * Sets up h for the fold of a->p ranks onto q = vine__floor_pow2(p)
 * participants with the even partition of total elements into q blocks.
 * The input lives at (in_buf, in_off), the working vector at (w_buf, w_off)
 * and the receive scratch at TMP[t_off, ...).
 */
void vine__hd_init(vine_hd *h, vine_sched *s, const vine_args *a, size_t total, int in_buf,
                   size_t in_off, int w_buf, size_t w_off, size_t t_off);

/* The first element of participant block i (i = q gives the end). */
size_t vine__hd_boff(const vine_hd *h, int i);

/* The real rank of participant i. */
static inline int vine__hd_real(const vine_hd *h, int i)
{
    return h->fold_p > 0 ? vine__fold_oldrank(h->fold_p, i) : h->base + i;
}

/*
 * Appends to the current round: receive the peer's partial of vector range
 * [off, off + len) and combine it with this rank's partial into w.  The peer
 * holds lower ranks' data when peer_lower, and its data is then the left
 * operand.  Scratch, when needed, is t + toff.  The caller fences.
 */
void vine__hd_recv_reduce(vine_hd *h, int peer, size_t off, size_t len, size_t toff,
                          int peer_lower);

/*
 * Fold-in of the first 2 * rem ranks (rem = p - floor_pow2(p)), halved as in
 * Rabenseifner's algorithm: the even rank 2i and the odd rank 2i + 1 swap
 * halves of the vector, each reduces one half in rank order, and the even rank
 * sends its reduced half to the odd one, which then holds the reduction of
 * both and becomes participant i.  Keeps operand order.  Cost:
 * 2 alpha + n beta + (n/2) gamma.
 */
void vine__hd_fold_in(vine_hd *h, int p, int rank);

/*
 * Fold-out: the odd rank 2i + 1 (i < rem) sends cur[off, off + len) to the
 * even rank 2i, which receives it at (dbuf, doff).  Both ranks pass the same
 * off and len.
 */
void vine__hd_fold_out(vine_hd *h, int p, int rank, size_t off, size_t len, int dbuf, size_t doff);

/*
 * Reduce-scatter by recursive vector halving and distance halving among the
 * participants: at distance d = q/2, ..., 1 the participant with bit d set
 * keeps the upper half of its block range.  Afterwards participant me holds
 * block me, reduced over all participants, in w.  Commutative ops only.
 */
void vine__hd_reduce_scatter(vine_hd *h);

/*
 * Allgather by recursive vector doubling and distance doubling: participant
 * me starts with block me in w and ends with every block in w.
 */
void vine__hd_allgather(vine_hd *h);

/*
 * The same two phases with the nearest partner first, as MPICH's allreduce
 * orders them: the reduce-scatter halves the vector at distance 1, 2, ...,
 * q/2 (participant me keeps the lower half where bit d of me is clear), so
 * the largest exchanges stay between near ranks and participant me ends
 * with block vine__hd_near_block(h), the lg q low bits of me reversed; the
 * allgather undoes it at distance q/2, ..., 1.  On a placement in rank
 * order (a node, a group of a Dragonfly) the far partners then exchange
 * the smallest pieces.  The reduce-scatter keeps operand order: at distance
 * d each partial covers an aligned run of d participants.
 */
void vine__hd_reduce_scatter_near(vine_hd *h);
void vine__hd_allgather_near(vine_hd *h);
int vine__hd_near_block(const vine_hd *h);

/*
 * The frame of the reduce-scatters of this family: the vector is reduced in
 * TMP[0, total) (RECV may hold only this rank's block) between the fold and
 * the fold-out; middle() runs the power-of-two part on the participants and
 * leaves the rank's own blocks in the partial vector.  Irregular counts
 * through a->counts and a->displs.  Finishes s.
 */
int vine__hd_reduce_scatter_frame(const vine_args *a, vine_sched *s, void (*middle)(vine_hd *h));

/* Makes w the position of the rank's partial vector (after a reduction). */
static inline void vine__hd_settle(vine_hd *h)
{
    h->cur_buf = h->w_buf;
    h->cur_off = h->w_off;
}

#endif
