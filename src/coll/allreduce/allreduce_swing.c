/*
 * Allreduce by Swing (De Sensi, Bonato, Saam and Hoefler, NSDI 2024,
 * sections 3 and 4): a reduce-scatter on Swing's butterfly, then the
 * allgather on the same butterfly backwards, on the torus of the level map
 * (one dimension of p without a map; phase_swing.h).
 *
 * Step s of the reduce-scatter runs along dimension s mod nd (dimensions
 * whose lg D steps are used up drop out of the turn), to the participant
 * whose coordinate there is c + rho(j) (even c) or c - rho(j) (odd c), j the
 * dimension's own step count; the other coordinates stay.  The vector is
 * cut into P near-equal blocks, P the participants, laid out by Swing
 * position, so the blocks a participant sends at step s (those its peer
 * still reaches after s) are one contiguous range of the vector, and the
 * blocks return to their places in the allgather: no reordering.  The
 * published implementation sends the same sets as non-contiguous blocks in
 * one message (MPI datatypes); here each step is one plain message of the
 * same size.  A dimension whose size D is no power of two folds onto D' =
 * 2^floor(lg D) first, one dimension after another (vine's fold along the
 * dimension: of the coordinates below 2 (D - D') the odd one sends its
 * vector to its even neighbour, which reduces it, and gets the result back
 * at the end), not the Swing paper's own scheme for non-powers of two.
 *
 * Restrictions: commutative op; a level map, when there is one, whose groups
 * are uniform (torus.h).  Any count (blocks may be empty), in place.  Cost
 * for P = p a power of two in every dimension: 2 lg p alpha +
 * 2 ((p-1)/p) n beta + ((p-1)/p) n gamma, the rounds and bytes of
 * Rabenseifner's algorithm, on peers at most (2^(j+1) + 1)/3 hops apart
 * along one dimension; each folded dimension adds 2 alpha + 2 n beta +
 * n gamma on the ranks that fold.  Scratch: the largest range received while
 * the partial vector and the result share a buffer (n/2, n when in place
 * and folding).
 */
#include "../coll.h"
#include "../phase_bine.h"
#include "../phase_swing.h"
#include "../ranks.h"

#include <stdlib.h>
#include <string.h>

int vine__allreduce_swing_build(const vine_args *a, vine_sched *s)
{
    vine_swing w;
    int rc = vine__swing_init(&w, a);
    if (rc != VINE_OK)
        return rc;
    size_t n = a->count;
    vine_bfly b;
    memset(&b, 0, sizeof b);
    b.s = s;
    b.cur_buf = a->inplace ? VINE_BUF_RECV : VINE_BUF_SEND;
    b.w_buf = VINE_BUF_RECV;
    /* Fold-in, dimension by dimension: a rank that hands its vector over is done. */
    int out = 0;
    for (int d = 0; d < w.nd && !out; d++) {
        int sits, partner = vine__swing_fold_partner(&w, a->rank, d, &sits);
        if (partner < 0)
            continue;
        if (sits) {
            vine__sched_send(s, partner, b.cur_buf, 0, n);
            out = 1;
        } else {
            vine__bfly_recv_reduce(&b, partner, 0, n);
            vine__bfly_settle(&b);
        }
        vine__sched_fence(s);
    }
    int me = vine__swing_me(&w, a->rank);
    size_t *off = malloc(((size_t)w.np + 1) * sizeof *off);
    if (!off) {
        vine__swing_free(&w);
        return VINE_ERR_NO_MEM;
    }
    for (int j = 0; j <= w.np; j++)
        off[j] = vine__block_off(n, w.np, j);
    if (me >= 0) {
        vine__swing_reduce_scatter(&w, &b, off, me);
        vine__swing_allgather(&w, &b, off, me);
        /* Only a lone participant (p = 1) still has its input where it was. */
        if (b.cur_buf != VINE_BUF_RECV)
            vine__sched_copy(s, b.cur_buf, 0, VINE_BUF_RECV, 0, n);
    }
    /* Fold-out in reverse: the rank that kept its place passes the result on. */
    for (int d = w.nd - 1; d >= 0; d--) {
        int sits, partner = vine__swing_fold_partner(&w, a->rank, d, &sits);
        if (partner < 0)
            continue;
        if (sits)
            vine__sched_recv(s, partner, VINE_BUF_RECV, 0, n);
        else
            vine__sched_send(s, partner, VINE_BUF_RECV, 0, n);
        vine__sched_fence(s);
    }
    free(off);
    vine__swing_free(&w);
    return vine__sched_finish(s);
}
