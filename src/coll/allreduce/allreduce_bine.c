/*
 * Allreduce on the Bine butterfly, whole vector (the latency-optimal form).
 *
 * Recursive doubling with Bine partners: at step s = lg p' - 1 .. 0 every
 * participant swaps its whole partial vector with pi(me, s) and combines the
 * two.  Each step joins two disjoint sets of participants into one, so after
 * lg p' steps all hold the full reduction, at distances |rho(s)| = ..., 11, 5,
 * 3, 1, 1 instead of recursive doubling's powers of two, which keeps more
 * traffic inside groups of nearby ranks.  The steps run in distance-halving
 * order, the paper's order for the latency-optimal allreduce being distance
 * doubling: every step carries the whole vector, so the order changes neither
 * the bytes nor the distances, but only distance halving makes the butterfly
 * a hypercube, whose participants merge the same two sets at every step (in
 * distance-doubling order from p' = 8, two ranks that end a step with the
 * same set got there from different pairs of sets).  So every rank combines
 * the same operands in the same association, and floating-point results are
 * bitwise identical on all ranks, as MPI's allreduce promises (MPICH's test
 * suite checks it, coll/allred_float.c; tests/mpi/test_allreduce.c too).
 * A non-power-of-two p is folded onto p' = 2^floor(lg p) participants with
 * the halved MPICH fold (vine__hd_fold_in) and the ranks that folded away
 * get the result at the end.  Source: De Sensi et al., Bine trees, sections
 * 3.1 and 4.4 (papers/bine-trees.txt); ../shared/BINE.md.  Restrictions:
 * commutative op (the butterfly mixes operand order).  Cost for power-of-two
 * p: lg p (alpha + n beta + n gamma), the rounds and bytes of recursive
 * doubling (checked with `vine dump`); otherwise
 * (lg p' + 3) alpha + (lg p' + 2) n beta + (lg p' + 1/2) n gamma.  Scratch: n.
 */
#include "../bine.h"
#include "../coll.h"
#include "../phase_bine.h"
#include "../ranks.h"

int vine__allreduce_bine_build(const vine_args *a, vine_sched *s)
{
    size_t n = a->count;
    vine_bfly b;
    vine__bfly_init(&b, s, a->p, a->rank, 0, VINE_BFLY_FOLD_MPICH, n,
                    a->inplace ? VINE_BUF_RECV : VINE_BUF_SEND, 0, VINE_BUF_RECV, 0, 0);
    vine__bfly_fold_in(&b, a);
    if (b.me >= 0) {
        for (int st = vine__ceil_log2(b.q) - 1; st >= 0; st--) {
            int peer = vine__bfly_real(&b, vine__bine_pi(b.me, st, b.q));
            vine__sched_send(s, peer, b.cur_buf, b.cur_off, n);
            vine__bfly_recv_reduce(&b, peer, 0, n);
            vine__sched_fence(s);
            vine__bfly_settle(&b);
        }
        /* Only p = 1 leaves the input where it was. */
        if (b.cur_buf != VINE_BUF_RECV)
            vine__sched_copy(s, b.cur_buf, b.cur_off, VINE_BUF_RECV, 0, n);
    }
    vine__bfly_fold_out(&b, 0, n, VINE_BUF_RECV, 0);
    return vine__sched_finish(s);
}
