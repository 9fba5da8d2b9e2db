/*
 * Hierarchical allreduce on the nodes (level 0) of vine_args.levels, the
 * scheme of the Bine paper's section 6.2 (papers/bine-trees.txt) with a ring
 * inside the node: with q ranks per node, (1) a ring reduce-scatter inside
 * each node leaves the rank with local index i the node's sum of block i of
 * q; (2) the ranks with local index i, one per node, allreduce that block by
 * recursive doubling (MPICH's fold for a node count that is not a power of
 * two); (3) a ring allgather inside each node spreads the q reduced blocks.
 * Only 1/q of the vector leaves each rank's node, and every inter-node
 * message is between ranks with the same local index, so the q ranks of a
 * node use the network in parallel.  Ranks of a node need not be
 * consecutive; levels above the node are not used.
 *
 * Restrictions: commutative op, a level map with locality whose nodes all
 * have the same size q (VINE_ALGO_LEVELS_UNIFORM).  Cost, N nodes, n =
 * count: 2 (q - 1) (alpha_0 + n/q beta_0) + (q - 1)/q n gamma inside the
 * node, ceil(log2 N) (alpha_1 + n/q beta_1 + n/q gamma) across nodes (plus
 * two steps of the fold when N is not a power of two).  Scratch: one block
 * (n/q elements), none when not in place and N is 1.
 */
#include "../coll.h"
#include "../ranks.h"

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

/* One exchange of recursive doubling: both sides send their block and fold in the other's. */
static void exchange(vine_sched *s, int peer, size_t off, size_t len)
{
    vine__sched_send(s, peer, VINE_BUF_RECV, off, len);
    vine__sched_recv(s, peer, VINE_BUF_TMP, 0, len);
    vine__sched_reduce(s, VINE_BUF_TMP, 0, VINE_BUF_RECV, off, len, VINE_SRC_RIGHT);
    vine__sched_fence(s);
}

/*
 * Recursive doubling of RECV[off, off + len) among the N ranks peers[0..N-1]
 * (one per node, this rank is peers[j]), folded onto a power of two.
 */
static void across_nodes(vine_sched *s, const int *peers, int N, int j, size_t off, size_t len)
{
    int n2 = vine__floor_pow2(N), rem = N - n2, nr = vine__fold_newrank(N, j);
    if (len)
        vine__sched_need_tmp(s, len);
    if (j < 2 * rem && j % 2 == 0) {
        vine__sched_send(s, peers[j + 1], VINE_BUF_RECV, off, len);
        vine__sched_fence(s);
        vine__sched_recv(s, peers[j + 1], VINE_BUF_RECV, off, len);
        vine__sched_fence(s);
        return;
    }
    if (j < 2 * rem) {
        vine__sched_recv(s, peers[j - 1], VINE_BUF_TMP, 0, len);
        vine__sched_reduce(s, VINE_BUF_TMP, 0, VINE_BUF_RECV, off, len, VINE_SRC_LEFT);
        vine__sched_fence(s);
    }
    for (int mask = 1; mask < n2; mask *= 2)
        exchange(s, peers[vine__fold_oldrank(N, nr ^ mask)], off, len);
    if (j < 2 * rem) {
        vine__sched_send(s, peers[j - 1], VINE_BUF_RECV, off, len);
        vine__sched_fence(s);
    }
}

int vine__allreduce_hier_build(const vine_args *a, vine_sched *s)
{
    const vine_levels *m = a->levels;
    int node = vine__levels_group(m, 0, a->rank), nnodes = vine__levels_ngroups(m, 0);
    ring g;
    g.mem = vine__levels_members(m, 0, node, &g.q);
    g.i = vine__levels_local(m, 0, a->rank);
    g.n = a->count;
    /* The ranks with local index i on every node, in node order. */
    int *peers = malloc((size_t)nnodes * sizeof *peers);
    if (!peers)
        return VINE_ERR_NO_MEM;
    for (int h = 0, n; h < nnodes; h++)
        peers[h] = vine__levels_members(m, 0, h, &n)[g.i];
    ring_reduce_scatter(s, &g, a->inplace);
    across_nodes(s, peers, nnodes, node, boff(&g, g.i), blen(&g, g.i));
    ring_allgather(s, &g);
    free(peers);
    return vine__sched_finish(s);
}
