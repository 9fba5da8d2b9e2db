/*
 * Rabenseifner's reduce: recursive-halving reduce-scatter, then a binomial
 * gather of the blocks to the root.
 *
 * A non-power-of-two p is folded onto p' = 2^floor(lg p) participants with
 * the halved fold of phase_hd.h.  The participants reduce-scatter the vector
 * by vector halving and distance doubling, the nearest partner first
 * (participant i ends with block bitrev(i), phase_hd.h), then gather the
 * blocks by distance halving on participant indices taken relative (by
 * exclusive or) to the root's participant, so each message is one contiguous
 * range of blocks and the largest ones pass between the nearest partners
 * (MPICH's order).  When the root folded away, its odd
 * neighbour gathers in its place and forwards the result.  Source: Thakur,
 * Rabenseifner and Gropp 2005, section 4 (reduce) and section 5
 * (papers/mpich-collectives.txt).  Restrictions: commutative op.  Cost for
 * power-of-two p: 2 lg p alpha + 2 ((p-1)/p) n beta + ((p-1)/p) n gamma;
 * otherwise up to 3 more alpha, 2 n more beta and n/2 more gamma.
 */
#include "../coll.h"
#include "../phase_hd.h"

/*
 * Gathers the participants' blocks at participant root_me by distance
 * halving, undoing the near-first reduce-scatter: at distance d the
 * participants whose index relative to the root's has bit d set send what
 * they hold (a contiguous range of blocks) to their partner and are done.
 */
static void gather_blocks(vine_hd *h, int root_me)
{
    int v = h->me ^ root_me, lo = vine__hd_near_block(h), len = 1;
    for (int d = h->q / 2; d > 0; d >>= 1) {
        int peer = vine__hd_real(h, h->me ^ d);
        if (v & d) {
            size_t off = vine__hd_boff(h, lo);
            vine__sched_send(h->s, peer, h->w_buf, h->w_off + off, vine__hd_boff(h, lo + len) - off);
            vine__sched_fence(h->s);
            return;
        }
        int sib = lo ^ len;
        size_t off = vine__hd_boff(h, sib);
        vine__sched_recv(h->s, peer, h->w_buf, h->w_off + off, vine__hd_boff(h, sib + len) - off);
        vine__sched_fence(h->s);
        lo &= ~len;
        len *= 2;
    }
}

int vine__reduce_rabenseifner_build(const vine_args *a, vine_sched *s)
{
    size_t n = a->count;
    int is_root = a->rank == a->root;
    int in_buf = is_root && a->inplace ? VINE_BUF_RECV : VINE_BUF_SEND;
    /* The root works in its result; the others have no RECV and work in TMP[0, n). */
    int w_buf = is_root ? VINE_BUF_RECV : VINE_BUF_TMP;
    vine_hd h;
    vine__hd_init(&h, s, a, n, in_buf, 0, w_buf, 0, is_root ? 0 : n);
    if (!is_root)
        vine__sched_need_tmp(s, n);
    vine__hd_fold_in(&h, a->p, a->rank);
    /* A root that folded away is stood in for by the odd rank above it. */
    int root_me = vine__fold_newrank(a->p, a->root);
    int proxy = root_me < 0 ? a->root + 1 : a->root;
    if (root_me < 0)
        root_me = vine__fold_newrank(a->p, proxy);
    if (h.me >= 0) {
        vine__hd_reduce_scatter_near(&h);
        gather_blocks(&h, root_me);
        /* Only p = 1 leaves the input where it was. */
        if (is_root && h.cur_buf != VINE_BUF_RECV)
            vine__sched_copy(s, h.cur_buf, h.cur_off, VINE_BUF_RECV, 0, n);
    }
    if (proxy != a->root && a->rank == proxy)
        vine__sched_send(s, a->root, h.w_buf, h.w_off, n);
    if (proxy != a->root && is_root)
        vine__sched_recv(s, proxy, VINE_BUF_RECV, 0, n);
    return vine__sched_finish(s);
}
