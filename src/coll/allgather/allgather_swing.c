/*
 * Allgather by Swing (De Sensi, Bonato, Saam and Hoefler, NSDI 2024,
 * section 3: the allgather half of the Swing allreduce), on the torus of the
 * level map (one dimension of p without a map; phase_swing.h).
 *
 * The reduce-scatter's steps backwards: step s (from lg p - 1 down to 0)
 * runs along dimension s mod nd while every dimension has steps left, to
 * the participant whose coordinate there is c + rho(j) (even c) or
 * c - rho(j) (odd c), j the dimension's own step count.  At step s a
 * participant sends the blocks it holds (the ranks that share its top s + 1
 * position bits, phase_swing.h) and receives its peer's, so its set doubles
 * at every step.  In rank order those sets are scattered; the published
 * implementation sends each as one message with an MPI datatype.  Where no
 * dimension folds, the positions are the blocks where they lie in rank
 * order (position j: rank j's block), so each set is still one range:
 * one exchange first gives the rank block pos[me], and the steps gather
 * straight into RECV (phase_swing.h, vine__swing_holder; on one line of
 * 2^k ranks in rank order these are bine_send's messages).  Where a
 * dimension folds, a position holds the blocks of several ranks, which
 * need not lie together: the blocks gather in scratch in position order
 * and are copied into rank order at the end.  A dimension whose size D is
 * no power of two folds onto D' = 2^floor(lg D) first, one dimension after
 * another (vine's fold along the dimension: of the coordinates below
 * 2 (D - D') the odd one sends the blocks it holds to its even neighbour
 * and sits out; at the end it receives every block it lacks), not the
 * Swing paper's own scheme for non-powers of two.
 *
 * Restrictions: a level map, when there is one, whose groups are uniform
 * (torus.h).  Any count, in place.  Cost for a power of two in every
 * dimension: lg p alpha + ((p-1)/p) n beta, n = p count (recursive
 * doubling's), plus one exchange of a block (alpha + (n/p) beta); with a
 * fold instead a local copy of n, and each folded dimension adds 2 alpha +
 * n beta on the ranks that fold.  Scratch: none without a fold, n with one.
 */
#include "../coll.h"
#include "../phase_swing.h"

#include <stdlib.h>
#include <string.h>

/* Fold-in along every dimension; returns 1 when the rank handed its blocks over. */
static int fold_in(const vine_swing *w, const vine_swing_lay *l, vine_sched *s, int rank,
                   unsigned char *mask)
{
    for (int d = 0; d < w->nd; d++) {
        int sits, partner = vine__swing_fold_partner(w, rank, d, &sits);
        if (partner < 0)
            continue;
        vine__swing_mark_stands(w, sits ? rank : partner, d, 0, mask);
        vine__swing_lay_msgs(s, l, w->p, mask, !sits, partner, VINE_BUF_TMP, 0);
        vine__sched_fence(s);
        if (sits)
            return 1;
    }
    return 0;
}

/*
 * No dimension folds: the own block goes to the participant that starts
 * with it, the block pos[me] comes in, and the steps gather in RECV.
 */
static int in_rank_order(const vine_swing *w, const vine_args *a, vine_sched *s, int in_buf,
                         size_t in_off)
{
    size_t c = a->count;
    size_t *displs = malloc(((size_t)a->p + 1) * sizeof *displs);
    if (!displs)
        return VINE_ERR_NO_MEM;
    for (int i = 0; i <= a->p; i++)
        displs[i] = (size_t)i * c;
    int me = vine__swing_me(w, a->rank), k = w->pos[me];
    if (k != a->rank) {
        vine__sched_send(s, w->real[vine__swing_holder(w, a->rank)], in_buf, in_off, c);
        vine__sched_recv(s, k, VINE_BUF_RECV, (size_t)k * c, c);
    } else if (!a->inplace) {
        vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_RECV, (size_t)k * c, c);
    }
    vine__sched_fence(s);
    vine_bfly b;
    memset(&b, 0, sizeof b);
    b.s = s;
    b.cur_buf = b.w_buf = VINE_BUF_RECV;
    vine__swing_allgather(w, &b, displs, me);
    free(displs);
    return VINE_OK;
}

int vine__allgather_swing_build(const vine_args *a, vine_sched *s)
{
    size_t c = a->count, own = (size_t)a->rank * c;
    int in_buf = a->inplace ? VINE_BUF_RECV : VINE_BUF_SEND;
    size_t in_off = a->inplace ? own : 0;
    if (a->p == 1) {
        if (!a->inplace)
            vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_RECV, 0, c);
        return vine__sched_finish(s);
    }
    vine_swing w;
    vine_swing_lay l;
    int rc = vine__swing_init(&w, a);
    if (rc != VINE_OK)
        return rc;
    if (w.np == a->p) {
        rc = in_rank_order(&w, a, s, in_buf, in_off);
        vine__swing_free(&w);
        return rc == VINE_OK ? vine__sched_finish(s) : rc;
    }
    unsigned char *mask = malloc((size_t)a->p);
    rc = mask ? vine__swing_lay_init(&l, &w, NULL, c) : VINE_ERR_NO_MEM;
    if (rc != VINE_OK) {
        free(mask);
        vine__swing_free(&w);
        return rc;
    }
    /* The blocks gather in TMP[0, p c) in the layout. */
    vine__sched_need_tmp(s, (size_t)a->p * c);
    vine__sched_copy(s, in_buf, in_off, VINE_BUF_TMP, l.at[a->rank], c);
    vine__sched_fence(s);
    vine_bfly b;
    memset(&b, 0, sizeof b);
    b.s = s;
    b.cur_buf = b.w_buf = VINE_BUF_TMP;
    int me = vine__swing_me(&w, a->rank);
    if (!fold_in(&w, &l, s, a->rank, mask))
        vine__swing_allgather(&w, &b, l.off, me);
    vine__swing_fold_out(&w, &l, s, a->rank, 1, mask);
    /* Into rank order, neighbours in one copy; in place, the own block is there already. */
    for (int x = 0, y; x < a->p; x = y) {
        int skip = a->inplace ? a->rank : -1;
        for (y = x + 1; y < a->p && y != skip && x != skip && l.at[y] == l.at[y - 1] + c;)
            y++;
        if (x != skip)
            vine__sched_copy(s, VINE_BUF_TMP, l.at[x], VINE_BUF_RECV, (size_t)x * c,
                             (size_t)(y - x) * c);
    }
    vine__swing_lay_free(&l);
    free(mask);
    vine__swing_free(&w);
    return vine__sched_finish(s);
}
