/*
 * Allreduce as a binomial reduce to rank 0 followed by a binomial broadcast
 * from rank 0.  The reduce runs along absolute ranks, so a child's data is
 * always the right operand and non-commutative ops are served; every rank
 * accumulates in its receive buffer.  Source: Thakur, Rabenseifner and Gropp
 * 2005, section 5.1, the old MPICH allreduce (papers/mpich-collectives.txt).
 * No restrictions: any p, any op.  Cost:
 * 2 ceil(log2 p) (alpha + n beta) + ceil(log2 p) n gamma.
 */
#include "../coll.h"
#include "../phase_tree.h"

int vine__allreduce_reduce_bcast_build(const vine_args *a, vine_sched *s)
{
    vine_tree_red t = {.p = a->p, .rank = a->rank, .root = 0, .count = a->count};
    t.in = (vine_bufpos){a->inplace ? VINE_BUF_RECV : VINE_BUF_SEND, 0};
    t.acc = (vine_bufpos){VINE_BUF_RECV, 0};
    t.tmp = (vine_bufpos){VINE_BUF_TMP, 0};
    vine__tree_reduce(s, &t);
    vine__tree_bcast(s, a->p, a->rank, 0, VINE_BUF_RECV, 0, a->count);
    return vine__sched_finish(s);
}
