/*
 * Allreduce as a Bine reduce-scatter followed by a Bine allgather (the
 * bandwidth-optimal form, Rabenseifner's scheme on Bine butterflies).
 *
 * The vector is cut into p' = 2^floor(lg p) near-equal contiguous blocks.
 * The reduce-scatter runs on the distance-doubling butterfly: at step s,
 * w = p' >> (s + 1), participant r sends partner q = pi(r, s) the w blocks
 * starting at nu(q) & ~(w-1) and reduces the w blocks starting at
 * nu(r) & ~(w-1), so every message is one contiguous range and r ends with
 * block nu(r).  The allgather runs the same exchanges backwards on the
 * distance-halving butterfly and returns every block to its place: the nu
 * permutation cancels, no block is ever reordered.  A non-power-of-two p is
 * folded with the halved MPICH fold (vine__hd_fold_in) and the ranks that
 * folded away get the result at the end.  Source: De Sensi et al., Bine
 * trees, sections 4.3 and 4.4 (papers/bine-trees.txt); ../shared/BINE.md.
 * Restrictions: commutative op.  Any count: blocks may be empty when
 * count < p'.  Cost for power-of-two p:
 * 2 lg p alpha + 2 ((p-1)/p) n beta + ((p-1)/p) n gamma, the rounds and
 * bytes of recursive halving + recursive doubling (Rabenseifner; checked with
 * `vine dump`); otherwise (3 + 2 lg p') alpha + 4 n beta + (3/2) n gamma.
 * Scratch: the largest range received into it, n/4 (n/2 in place).
 */
#include "../coll.h"
#include "../phase_bine.h"

int vine__allreduce_bine_large_build(const vine_args *a, vine_sched *s)
{
    size_t n = a->count;
    vine_bfly b;
    vine__bfly_init(&b, s, a->p, a->rank, 0, 1, n, a->inplace ? VINE_BUF_RECV : VINE_BUF_SEND, 0,
                    VINE_BUF_RECV, 0, 0);
    vine__bfly_fold_in(&b, a);
    if (b.me >= 0) {
        vine__bfly_reduce_scatter(&b);
        vine__bfly_allgather(&b);
        /* Only p = 1 leaves the input where it was. */
        if (b.cur_buf != VINE_BUF_RECV)
            vine__sched_copy(s, b.cur_buf, b.cur_off, VINE_BUF_RECV, 0, n);
    }
    vine__bfly_fold_out(&b, 0, n, VINE_BUF_RECV, 0);
    return vine__sched_finish(s);
}
