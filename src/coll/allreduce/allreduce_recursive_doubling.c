/*
 * Allreduce by recursive doubling on the whole vector.
 *
 * In step k every participant swaps its whole partial vector with the partner
 * whose rank differs in bit k and combines the two, the lower ranks' data as
 * the left operand, so after lg p' steps all hold the full reduction.  A
 * non-power-of-two p is first folded onto p' = 2^floor(lg p) participants
 * (vine__fold_newrank, with Rabenseifner's halved fold of phase_hd.h) and the
 * ranks that folded away get the result at the end.  Source: Thakur,
 * Rabenseifner and Gropp 2005, section 4.5 (papers/mpich-collectives.txt).
 * No restrictions: any p, non-commutative ops (operand order is kept).
 * Cost: lg p (alpha + n beta + n gamma) for power-of-two p; otherwise
 * (lg p' + 3) alpha + (lg p' + 2) n beta + (lg p' + 1/2) n gamma.
 */
#include "../coll.h"
#include "../phase_hd.h"
#include "../ranks.h"

int vine__allreduce_recursive_doubling_build(const vine_args *a, vine_sched *s)
{
    size_t n = a->count;
    vine_hd h;
    vine__hd_init(&h, s, a, n, a->inplace ? VINE_BUF_RECV : VINE_BUF_SEND, 0, VINE_BUF_RECV, 0, 0);
    vine__hd_fold_in(&h, a->p, a->rank);
    if (h.me >= 0) {
        for (int d = 1; d < h.q; d <<= 1) {
            int partner = h.me ^ d, peer = vine__hd_real(&h, partner);
            vine__sched_send(s, peer, h.cur_buf, h.cur_off, n);
            vine__hd_recv_reduce(&h, peer, 0, n, 0, partner < h.me);
            vine__sched_fence(s);
            vine__hd_settle(&h);
        }
        /* Only p = 1 leaves the input where it was. */
        if (h.cur_buf != VINE_BUF_RECV)
            vine__sched_copy(s, h.cur_buf, h.cur_off, VINE_BUF_RECV, 0, n);
    }
    vine__hd_fold_out(&h, a->p, a->rank, 0, n, VINE_BUF_RECV, 0);
    return vine__sched_finish(s);
}
