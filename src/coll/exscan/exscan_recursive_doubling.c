/*
 * Exclusive scan by recursive doubling of partial prefixes.
 *
 * As the inclusive scan: in step k every rank swaps the reduction of its
 * current block of 2^k ranks (the partial scan) with rank ^ 2^k.  A lower
 * partner's vector joins the partial scan on the left and becomes, or joins
 * on the left, the result, which never holds the rank's own input; a higher
 * partner's joins the partial scan on the right.  The first lower vector is
 * received straight into RECV.  Partners >= p are skipped, so any p works
 * without a fold, and rank 0 never writes RECV.  A vector its receiver
 * would only fold into a partial scan it never sends again is not sent.
 * Source: MPICH, MPIR_Exscan_intra_recursive_doubling (src/mpi/coll/exscan).
 * No restrictions: any p, non-commutative ops.  Cost: ceil(lg p)(alpha +
 * n beta) and at most 2 ceil(lg p) n gamma; scratch of 2n elements.
 */
#include "../coll.h"
#include "../ranks.h"

/*
 * Where the partial scan lives: the input (SEND, or RECV with inplace) until
 * the first step moves it to scratch slot `cur` of the two slots of n
 * elements.  have: RECV holds a result (a lower partner has been met).
 */
typedef struct exscan_state {
    int pbuf, cur, have;
    size_t poff;
} exscan_state;

/* Moves the partial scan to the slot at f (n elements), the other becoming free. */
static void moved(vine_sched *s, exscan_state *x, size_t f, size_t n)
{
    vine__sched_need_tmp(s, f + n);
    x->pbuf = VINE_BUF_TMP;
    x->poff = f;
    x->cur = f != 0;
}

/* A step with a lower partner: its vector is received into RECV or into the slot at f. */
static void lower_step(vine_sched *s, exscan_state *x, int peer, int last, size_t f, size_t n)
{
    if (!x->have && x->pbuf == VINE_BUF_RECV) {
        /* In place, and the last step (the build moved the input otherwise):
         * RECV is being sent from, so the result arrives in scratch. */
        vine__sched_need_tmp(s, f + n);
        vine__sched_recv(s, peer, VINE_BUF_TMP, f, n);
        vine__sched_copy(s, VINE_BUF_TMP, f, VINE_BUF_RECV, 0, n);
        return;
    }
    if (!x->have) {
        /* The result is the partner's vector: receive it in place. */
        vine__sched_recv(s, peer, VINE_BUF_RECV, 0, n);
        if (last)
            return;
        if (x->pbuf != VINE_BUF_TMP) {
            vine__sched_copy(s, x->pbuf, 0, VINE_BUF_TMP, f, n);
            moved(s, x, f, n);
        }
        vine__sched_reduce(s, VINE_BUF_RECV, 0, VINE_BUF_TMP, x->poff, n, VINE_SRC_LEFT);
        x->have = 1;
        return;
    }
    vine__sched_need_tmp(s, f + n);
    vine__sched_recv(s, peer, VINE_BUF_TMP, f, n);
    if (!last)
        vine__sched_reduce(s, VINE_BUF_TMP, f, VINE_BUF_TMP, x->poff, n, VINE_SRC_LEFT);
    vine__sched_reduce(s, VINE_BUF_TMP, f, VINE_BUF_RECV, 0, n, VINE_SRC_LEFT);
}

/*
 * One step: exchange with peer and combine.  last: this rank's partial scan
 * is not needed again, so a higher peer's vector is not either; peer_last:
 * the same for the peer, so a lower one gets nothing.
 */
static void step(vine_sched *s, exscan_state *x, int peer, int lower, int last, int peer_last,
                 size_t n)
{
    /* The free slot: the one the partial scan does not hold. */
    size_t f = x->pbuf == VINE_BUF_TMP && x->cur == 0 ? n : 0;
    if (!lower || !peer_last)
        vine__sched_send(s, peer, x->pbuf, x->poff, n);
    if (lower) {
        lower_step(s, x, peer, last, f, n);
        return;
    }
    if (last)
        return;
    vine__sched_need_tmp(s, f + n);
    vine__sched_recv(s, peer, VINE_BUF_TMP, f, n);
    /* partial = partial op theirs, in the free slot. */
    vine__sched_reduce(s, x->pbuf, x->poff, VINE_BUF_TMP, f, n, VINE_SRC_LEFT);
    moved(s, x, f, n);
}

int vine__exscan_recursive_doubling_build(const vine_args *a, vine_sched *s)
{
    size_t n = a->count;
    int r = a->rank;
    exscan_state x = {a->inplace ? VINE_BUF_RECV : VINE_BUF_SEND, 0, 0, 0};
    unsigned m = vine__xor_next_mask(r, a->p, 1);
    /* In place, a first partner below this rank writes RECV while the input
     * is still needed there: move the input to scratch first. */
    if (m && a->inplace && ((unsigned)r ^ m) < (unsigned)r && vine__xor_next_mask(r, a->p, m << 1)) {
        vine__sched_copy(s, VINE_BUF_RECV, 0, VINE_BUF_TMP, 0, n);
        moved(s, &x, 0, n);
        vine__sched_fence(s);
    }
    while (m) {
        unsigned next = vine__xor_next_mask(r, a->p, m << 1);
        int peer = (int)((unsigned)r ^ m);
        step(s, &x, peer, peer < r, !next, !vine__xor_next_mask(peer, a->p, m << 1), n);
        vine__sched_fence(s);
        m = next;
    }
    return vine__sched_finish(s);
}
