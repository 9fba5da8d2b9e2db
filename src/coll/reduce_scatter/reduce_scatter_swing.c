/*
 * Reduce-scatter by Swing (De Sensi, Bonato, Saam and Hoefler, NSDI 2024,
 * section 3: the reduce-scatter half of the Swing allreduce), on the torus
 * of the level map (one dimension of p without a map; phase_swing.h).
 *
 * Step s runs along dimension s mod nd (dimensions whose lg D steps are used
 * up drop out of the turn), to the participant whose coordinate there is
 * c + rho(j) (even c) or c - rho(j) (odd c), j the dimension's own step
 * count.  At step s a participant sends its peer the blocks of every rank
 * the peer still reaches after step s (Swing's block set: the top s + 1
 * position bits of phase_swing.h) and reduces the blocks of the ranks it
 * still reaches itself, so after lg p steps it holds its own block.  In rank
 * order those sets are scattered (in one dimension the first step's p/2
 * blocks lie in p/4 runs); the published implementation sends each as one
 * message with an MPI datatype.  Where no dimension folds, the positions
 * are the blocks where they lie in rank order (position j: rank j's
 * block), so each set is still one range of the vector: the steps reduce
 * the input straight into scratch, the butterfly leaves the rank with
 * block pos[me], and one more exchange sends each block to its rank
 * (phase_swing.h, vine__swing_holder; on one line of 2^k ranks in rank
 * order these are bine_send's messages).  Where a dimension folds, a
 * position holds the blocks of several ranks, which need not lie together:
 * the input is copied into scratch in position order first, and the
 * rank's block out at the end.
 * A dimension whose size D is no power of two folds onto D' = 2^floor(lg D)
 * first, one dimension after another (vine's fold along the dimension: of
 * the coordinates below 2 (D - D') the odd one sends its whole vector to its
 * even neighbour and sits out; at the end it gets the blocks of the ranks
 * it stood for back), not the Swing paper's own scheme for non-powers of
 * two.  Also serves reduce_scatter_block.
 *
 * Restrictions: commutative op; a level map, when there is one, whose groups
 * are uniform (torus.h).  Any counts, in place.  Cost for a power of two in
 * every dimension and equal counts: lg p alpha + ((p-1)/p) n beta +
 * ((p-1)/p) n gamma, n the total count (recursive halving's), plus one
 * exchange of a block (alpha + n/p beta); with a fold instead a local copy
 * of n, and each folded dimension adds 2 alpha + n beta + n gamma on the
 * ranks that fold.  Scratch: the vector (n) and the largest range received
 * into it (n/4 without a fold; n/2, and n on a rank that receives a fold,
 * with one).
 */
#include "../coll.h"
#include "../phase_bine.h"
#include "../phase_swing.h"

#include <stdlib.h>
#include <string.h>

/* Fold-in along every dimension; returns 1 when the rank handed its vector over. */
static int fold_in(const vine_swing *w, vine_bfly *b, const vine_args *a)
{
    size_t total = a->displs[a->p];
    for (int d = 0; d < w->nd; d++) {
        int sits, partner = vine__swing_fold_partner(w, a->rank, d, &sits);
        if (partner < 0)
            continue;
        if (sits)
            vine__sched_send(b->s, partner, b->cur_buf, b->cur_off, total);
        else
            vine__bfly_recv_reduce(b, partner, 0, total);
        vine__sched_fence(b->s);
        if (sits)
            return 1;
        vine__bfly_settle(b);
    }
    return 0;
}

/* The input, in rank order at in_buf, copied into the layout in TMP (neighbours in one copy). */
static void permute_in(vine_sched *s, const vine_swing_lay *l, const vine_args *a, int in_buf)
{
    for (int x = 0, y; x < a->p; x = y) {
        for (y = x + 1; y < a->p && l->at[y] == l->at[y - 1] + l->len[y - 1];)
            y++;
        vine__sched_copy(s, in_buf, a->displs[x], VINE_BUF_TMP, l->at[x],
                         a->displs[y] - a->displs[x]);
    }
    vine__sched_fence(s);
}

/*
 * No dimension folds: the steps run on the blocks in rank order, reducing
 * from in_buf into TMP[0, total), and the block the butterfly leaves here
 * goes to its rank.
 */
static void in_rank_order(const vine_swing *w, const vine_args *a, vine_sched *s, int in_buf)
{
    size_t total = a->displs[a->p], mine = a->counts[a->rank];
    vine_bfly b;
    memset(&b, 0, sizeof b);
    b.s = s;
    b.cur_buf = in_buf;
    b.w_buf = VINE_BUF_TMP;
    b.t_off = total;
    vine__sched_need_tmp(s, total);
    int me = vine__swing_me(w, a->rank), k = w->pos[me];
    vine__swing_reduce_scatter(w, &b, a->displs, me);
    if (k == a->rank) {
        vine__sched_copy(s, VINE_BUF_TMP, a->displs[k], VINE_BUF_RECV, 0, mine);
    } else {
        vine__sched_send(s, k, VINE_BUF_TMP, a->displs[k], a->counts[k]);
        vine__sched_recv(s, w->real[vine__swing_holder(w, a->rank)], VINE_BUF_RECV, 0, mine);
    }
    vine__sched_fence(s);
}

int vine__reduce_scatter_swing_build(const vine_args *a, vine_sched *s)
{
    size_t total = a->displs[a->p], mine = a->counts[a->rank];
    int in_buf = a->inplace ? VINE_BUF_RECV : VINE_BUF_SEND;
    if (a->p == 1) {
        if (!a->inplace)
            vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_RECV, 0, mine);
        return vine__sched_finish(s);
    }
    vine_swing w;
    vine_swing_lay l;
    int rc = vine__swing_init(&w, a);
    if (rc != VINE_OK)
        return rc;
    if (w.np == a->p) {
        in_rank_order(&w, a, s, in_buf);
        vine__swing_free(&w);
        return vine__sched_finish(s);
    }
    unsigned char *mask = malloc((size_t)a->p);
    rc = mask ? vine__swing_lay_init(&l, &w, a->counts, 0) : VINE_ERR_NO_MEM;
    if (rc != VINE_OK) {
        free(mask);
        vine__swing_free(&w);
        return rc;
    }
    /* The vector is reduced in TMP[0, total) in the layout; received ranges go after it. */
    vine_bfly b;
    memset(&b, 0, sizeof b);
    b.s = s;
    b.cur_buf = b.w_buf = VINE_BUF_TMP;
    b.t_off = total;
    vine__sched_need_tmp(s, total);
    permute_in(s, &l, a, in_buf);
    int me = vine__swing_me(&w, a->rank);
    if (!fold_in(&w, &b, a))
        vine__swing_reduce_scatter(&w, &b, l.off, me);
    vine__swing_fold_out(&w, &l, s, a->rank, 0, mask);
    vine__sched_copy(s, VINE_BUF_TMP, l.at[a->rank], VINE_BUF_RECV, 0, mine);
    vine__swing_lay_free(&l);
    free(mask);
    vine__swing_free(&w);
    return vine__sched_finish(s);
}
