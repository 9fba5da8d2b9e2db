/*
 * Reduce-scatter by recursive doubling, keeping operand order.
 *
 * A non-power-of-two p is folded onto p' = 2^floor(lg p) participants with
 * the order-keeping halved fold of phase_hd.h; participant i owns the result
 * blocks of the ranks it stands for.  In step k a participant exchanges with
 * the participant whose index differs in bit k: with G the aligned group of
 * 2^(k+1) participants holding both, it sends its partial of every block
 * outside G and of the partner's own block, and combines what it receives
 * (lower ranks' data on the left).  So after the last step a participant
 * holds its own blocks reduced over all ranks, in rank order; the odd rank of
 * each folded pair then sends the even rank its block.  The blocks sent form
 * up to three ranges, sent as separate messages in one round.  Source:
 * Thakur, Rabenseifner and Gropp 2005, section 4.4
 * (papers/mpich-collectives.txt).  No restrictions: non-commutative ops, any
 * p, irregular counts.  Cost for power-of-two p and equal counts, n the
 * total count: lg p alpha + (lg p - 2 + (lg p + 2)/p) n (beta + gamma), no
 * more than the paper's (lg p - (p-1)/p) n, counting the up to three
 * messages of a step as one alpha; a fold adds 3 alpha + (1 + 1/p) n beta +
 * n/2 gamma.
 * Scratch: up to 2 n elements (the vector and the ranges received).
 */
#include "../coll.h"
#include "../phase_hd.h"

/*
 * The participant block ranges exchanged in the step with group [glo, ghi):
 * the blocks outside the group and block own (the receiver's), merged where
 * adjacent.  Returns the number of ranges written to lo[] and hi[].
 */
static int exchange_ranges(int q, int glo, int ghi, int own, int lo[3], int hi[3])
{
    int cand_lo[3] = {0, own, ghi}, cand_hi[3] = {glo, own + 1, q}, n = 0;
    for (int i = 0; i < 3; i++) {
        if (cand_lo[i] == cand_hi[i])
            continue;
        if (n > 0 && hi[n - 1] == cand_lo[i]) {
            hi[n - 1] = cand_hi[i];
            continue;
        }
        lo[n] = cand_lo[i];
        hi[n++] = cand_hi[i];
    }
    return n;
}

static void step(vine_hd *h, int d)
{
    int partner = h->me ^ d, peer = vine__hd_real(h, partner);
    int glo = h->me & ~(2 * d - 1), ghi = glo + 2 * d;
    int lo[3], hi[3];
    int n = exchange_ranges(h->q, glo, ghi, partner, lo, hi);
    for (int i = 0; i < n; i++) {
        size_t off = vine__hd_boff(h, lo[i]);
        vine__sched_send(h->s, peer, h->cur_buf, h->cur_off + off, vine__hd_boff(h, hi[i]) - off);
    }
    n = exchange_ranges(h->q, glo, ghi, h->me, lo, hi);
    for (int i = 0; i < n; i++) {
        size_t off = vine__hd_boff(h, lo[i]);
        vine__hd_recv_reduce(h, peer, off, vine__hd_boff(h, hi[i]) - off, off, partner < h->me);
    }
    vine__sched_fence(h->s);
    vine__hd_settle(h);
}

/* The power-of-two part: one exchange per distance d = 1, 2, 4, ... */
static void doubling(vine_hd *h)
{
    for (int d = 1; d < h->q; d <<= 1)
        step(h, d);
}

int vine__reduce_scatter_recursive_doubling_build(const vine_args *a, vine_sched *s)
{
    return vine__hd_reduce_scatter_frame(a, s, doubling);
}
