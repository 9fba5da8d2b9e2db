/*
 * The node frame of the hierarchical allreduces (see phase_node.h).  The two
 * ring phases inside the node are the ring allreduce's own (phase_ring.h),
 * run on the node's ranks as a virtual communicator (phase_sub.h).
 */
#include "phase_node.h"

#include "phase_ring.h"
#include "phase_sub.h"
#include "phase_tree.h"
#include "ranks.h"

#include <stdlib.h>

/* The buffers of the virtual communicators are the real ones, unmoved. */
static const vine_bufpos same[VINE_BUF_COUNT] = {
    {VINE_BUF_SEND, 0}, {VINE_BUF_RECV, 0}, {VINE_BUF_TMP, 0}};

/*
 * Ring reduce-scatter among the node's q ranks: local index i ends with the
 * node's partial of block i of q in RECV at its block offset (out of place
 * the partials accumulate in RECV; in place over the input, with a scratch
 * block for messages).
 */
static int node_reduce_scatter(const vine_args *a, vine_sched *s)
{
    if (a->p == 1 && !a->inplace)
        vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_RECV, 0, a->count);
    vine__ring_reduce_scatter_vector(s, a->p, a->rank, a->count, a->inplace);
    return vine__sched_finish(s);
}

/* Ring allgather among the node's ranks of the q reduced blocks, in RECV. */
static int node_allgather(const vine_args *a, vine_sched *s)
{
    vine__blocks b = {a->p, a->count, NULL};
    vine__ring_allgather(s, a->rank, &b, VINE_BUF_RECV, VINE_BUF_RECV,
                         vine__blocks_off(&b, a->rank));
    return vine__sched_finish(s);
}

/*
 * The allreduce of the rank's block i of q among the ranks with local index
 * i, one per node: across runs in place on a virtual communicator of the
 * nodes, its scratch at the start of TMP (the reduce-scatter's scratch is
 * free by then).
 */
static int across_nodes(const vine_args *a, vine_sched *s, vine_build_fn across, int q, int i)
{
    const vine_levels *m = a->levels;
    int nnodes = vine__levels_ngroups(m, 0);
    int *peers = malloc((size_t)nnodes * sizeof *peers);
    if (!peers)
        return VINE_ERR_NO_MEM;
    for (int h = 0, n; h < nnodes; h++)
        peers[h] = vine__levels_members(m, 0, h, &n)[i];
    size_t off = vine__block_off(a->count, q, i);
    vine_args sub = *a;
    sub.p = nnodes;
    sub.rank = vine__levels_group(m, 0, a->rank);
    sub.root = 0;
    sub.count = vine__block_len(a->count, q, i);
    sub.inplace = 1;
    sub.levels = NULL;
    sub.remap = 0;
    vine_bufpos at[VINE_BUF_COUNT] = {
        {VINE_BUF_RECV, off}, {VINE_BUF_RECV, off}, {VINE_BUF_TMP, 0}};
    int rc = vine__sub_run(s, across, &sub, peers, at);
    free(peers);
    return rc;
}

/* The smallest node's size: the number of lanes Q. */
int vine__node_lanes(const vine_levels *m)
{
    int q = vine__levels_size(m, 0, 0);
    for (int g = 1, n = vine__levels_ngroups(m, 0); g < n; g++)
        if (vine__levels_size(m, 0, g) < q)
            q = vine__levels_size(m, 0, g);
    return q;
}

/* Binomial reduce of the whole vector to the lane's first rank, into RECV. */
static int lane_fold_in(const vine_args *a, vine_sched *s)
{
    vine_tree_red t = {.p = a->p, .rank = a->rank, .root = 0, .count = a->count};
    t.in = (vine_bufpos){a->inplace ? VINE_BUF_RECV : VINE_BUF_SEND, 0};
    t.acc = (vine_bufpos){VINE_BUF_RECV, 0};
    t.tmp = (vine_bufpos){VINE_BUF_TMP, 0};
    vine__tree_reduce(s, &t);
    return vine__sched_finish(s);
}

/* Binomial broadcast of the result from the lane's first rank, in RECV. */
static int lane_fold_out(const vine_args *a, vine_sched *s)
{
    vine__tree_bcast(s, a->p, a->rank, 0, VINE_BUF_RECV, 0, a->count);
    return vine__sched_finish(s);
}

int vine__node_allreduce(const vine_args *a, vine_sched *s, vine_build_fn across)
{
    const vine_levels *m = a->levels;
    int qh, i = vine__levels_local(m, 0, a->rank), q = vine__node_lanes(m);
    const int *mem = vine__levels_members(m, 0, vine__levels_group(m, 0, a->rank), &qh);
    /* The lane of local index i: local indices i mod q, i mod q + q ... */
    int lane = i % q, nlane = (qh - lane + q - 1) / q, rc = VINE_OK;
    int *lane_ranks = NULL;
    vine_args fold = *a;
    if (nlane > 1) {
        lane_ranks = malloc((size_t)nlane * sizeof *lane_ranks);
        if (!lane_ranks)
            return VINE_ERR_NO_MEM;
        for (int k = 0; k < nlane; k++)
            lane_ranks[k] = mem[lane + k * q];
        fold.p = nlane;
        fold.rank = i / q;
        fold.root = 0;
        fold.levels = NULL;
        fold.remap = 0;
        rc = vine__sub_run(s, lane_fold_in, &fold, lane_ranks, same);
    }
    if (rc == VINE_OK && i < q) {
        vine_args node = *a;
        node.p = q;
        node.rank = i;
        node.root = 0;
        node.levels = NULL;
        node.remap = 0;
        /* After a fold the lane's partial is in RECV. */
        node.inplace = a->inplace || nlane > 1;
        rc = vine__sub_run(s, node_reduce_scatter, &node, mem, same);
        if (rc == VINE_OK)
            rc = across_nodes(a, s, across, q, i);
        if (rc == VINE_OK)
            rc = vine__sub_run(s, node_allgather, &node, mem, same);
    }
    if (rc == VINE_OK && nlane > 1)
        rc = vine__sub_run(s, lane_fold_out, &fold, lane_ranks, same);
    free(lane_ranks);
    return rc == VINE_OK ? vine__sched_finish(s) : rc;
}
