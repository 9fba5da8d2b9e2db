/*
 * The node frame of the hierarchical allreduces (see phase_node.h).
 */
#include "phase_node.h"

#include "phase_sub.h"
#include "ranks.h"

#include <stdlib.h>

/* The node's ring: members, size q, this rank's index i, and the vector's blocks. */
typedef struct ring {
    const int *mem;
    int q, i;
    size_t n;
} ring;

static size_t boff(const ring *g, int j)
{
    return vine__block_off(g->n, g->q, vine__mod(j, g->q));
}

static size_t blen(const ring *g, int j)
{
    return vine__block_len(g->n, g->q, vine__mod(j, g->q));
}

/*
 * Ring reduce-scatter: at step t the rank sends block i - t - 1 to its right
 * and folds block i - t - 2 from its left into RECV; block i is complete after
 * q - 1 steps.  Not in place, a received block lands in RECV and the rank's
 * own input joins it from SEND, so no scratch is needed.
 */
static void ring_reduce_scatter(vine_sched *s, const ring *g, int inplace)
{
    int right = g->mem[(g->i + 1) % g->q], left = g->mem[(g->i + g->q - 1) % g->q];
    if (g->q == 1 && !inplace) {
        vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_RECV, 0, g->n);
        vine__sched_fence(s);
    }
    for (int t = 0; t + 1 < g->q; t++) {
        int bs = g->i - t - 1, br = g->i - t - 2;
        int sbuf = t == 0 && !inplace ? VINE_BUF_SEND : VINE_BUF_RECV;
        vine__sched_send(s, right, sbuf, boff(g, bs), blen(g, bs));
        if (inplace) {
            vine__sched_need_tmp(s, blen(g, br));
            vine__sched_recv(s, left, VINE_BUF_TMP, 0, blen(g, br));
            vine__sched_reduce(s, VINE_BUF_TMP, 0, VINE_BUF_RECV, boff(g, br), blen(g, br),
                               VINE_SRC_RIGHT);
        } else {
            vine__sched_recv(s, left, VINE_BUF_RECV, boff(g, br), blen(g, br));
            vine__sched_reduce(s, VINE_BUF_SEND, boff(g, br), VINE_BUF_RECV, boff(g, br),
                               blen(g, br), VINE_SRC_LEFT);
        }
        vine__sched_fence(s);
    }
}

/* Ring allgather: at step t block i - t goes right and block i - t - 1 comes from the left. */
static void ring_allgather(vine_sched *s, const ring *g)
{
    int right = g->mem[(g->i + 1) % g->q], left = g->mem[(g->i + g->q - 1) % g->q];
    for (int t = 0; t + 1 < g->q; t++) {
        int bs = g->i - t, br = g->i - t - 1;
        vine__sched_send(s, right, VINE_BUF_RECV, boff(g, bs), blen(g, bs));
        vine__sched_recv(s, left, VINE_BUF_RECV, boff(g, br), blen(g, br));
        vine__sched_fence(s);
    }
}

/*
 * The allreduce of the rank's block RECV[off, off + len) among the ranks
 * with its local index, one per node: across runs in place on a virtual
 * communicator of the nodes, its scratch at the start of TMP (the ring
 * reduce-scatter's receive scratch is free by then).
 */
static int across_nodes(const vine_args *a, vine_sched *s, vine_build_fn across, const ring *g)
{
    const vine_levels *m = a->levels;
    int nnodes = vine__levels_ngroups(m, 0);
    int *peers = malloc((size_t)nnodes * sizeof *peers);
    if (!peers)
        return VINE_ERR_NO_MEM;
    for (int h = 0, n; h < nnodes; h++)
        peers[h] = vine__levels_members(m, 0, h, &n)[g->i];
    vine_args sub = *a;
    sub.p = nnodes;
    sub.rank = vine__levels_group(m, 0, a->rank);
    sub.root = 0;
    sub.count = blen(g, g->i);
    sub.inplace = 1;
    sub.levels = NULL;
    vine_bufpos at[VINE_BUF_COUNT] = {
        {VINE_BUF_RECV, boff(g, g->i)}, {VINE_BUF_RECV, boff(g, g->i)}, {VINE_BUF_TMP, 0}};
    int rc = vine__sub_run(s, across, &sub, peers, at);
    free(peers);
    return rc;
}

int vine__node_allreduce(const vine_args *a, vine_sched *s, vine_build_fn across)
{
    const vine_levels *m = a->levels;
    ring g;
    g.mem = vine__levels_members(m, 0, vine__levels_group(m, 0, a->rank), &g.q);
    g.i = vine__levels_local(m, 0, a->rank);
    g.n = a->count;
    ring_reduce_scatter(s, &g, a->inplace);
    int rc = across_nodes(a, s, across, &g);
    if (rc != VINE_OK)
        return rc;
    ring_allgather(s, &g);
    return vine__sched_finish(s);
}
