/*
 * Remapping ranks to block order (coll.h; papers/bine-trees.txt section
 * 2.2).  A flat algorithm pairs ranks by their numbers: on a job whose ranks
 * were dealt round-robin over nodes, or whose nodes lie scattered over
 * switches, its nearest partners are far apart in the network.  Built for
 * virtual ranks in block order (levels.h) and translated back to real ranks
 * (phase_sub.h), the same algorithm keeps its first, most frequent or
 * largest exchanges inside nodes and groups.
 *
 * Only collectives whose buffers mean the same on every rank can be
 * remapped without moving data: bcast, reduce and allreduce with a
 * commutative op (the virtual order would change the operand order), and
 * barrier.  The others (gather, scatter, allgather, alltoall, the
 * reduce-scatters) place blocks by rank, and are built as they are.
 * Cost: the algorithm's own, with its messages on other pairs; building
 * takes O(1) more per operation.
 */
#include "coll.h"
#include "phase_sub.h"

static int coll_remappable(const vine_args *a)
{
    switch (a->coll) {
    case VINE_COLL_BCAST:
    case VINE_COLL_BARRIER:
        return 1;
    case VINE_COLL_REDUCE:
    case VINE_COLL_ALLREDUCE:
        return a->commutative;
    default:
        return 0;
    }
}

int vine__remap_applies(const vine_algo *algo, const vine_args *a)
{
    return a->remap && !(algo->flags & (VINE_ALGO_LEVELS | VINE_ALGO_SHM | VINE_ALGO_TORUS)) &&
           coll_remappable(a) && vine__levels_ready(a->levels, a->p) &&
           !vine__levels_flat(a->levels) && a->levels->reordered;
}

int vine__remap_build(const vine_algo *algo, const vine_args *a, vine_sched *s)
{
    static const vine_bufpos at[VINE_BUF_COUNT] = {
        {VINE_BUF_SEND, 0}, {VINE_BUF_RECV, 0}, {VINE_BUF_TMP, 0}};
    vine_args sub = *a;
    sub.rank = vine__levels_block_pos(a->levels, a->rank);
    sub.root = vine__levels_block_pos(a->levels, a->root);
    sub.levels = NULL;
    sub.remap = 0;
    int rc = vine__sub_run(s, algo->build, &sub, vine__levels_block(a->levels), at);
    return rc == VINE_OK ? vine__sched_finish(s) : rc;
}
