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
 * The rank that stands for lane j of node h: its local index j, except in
 * the root's lane of the root's node, where the root does (root < 0: no
 * root).
 */
static int lane_rep(const vine_levels *m, int h, int j, int root, int q)
{
    int n;
    const int *mem = vine__levels_members(m, 0, h, &n);
    if (root >= 0 && vine__levels_group(m, 0, root) == h && vine__levels_local(m, 0, root) % q == j)
        return root;
    return mem[j];
}

/*
 * The ranks of rank's lane in its node, its representative first and the
 * others in local order, as a virtual communicator for the lane's fold:
 * fills *lane (ranks malloc'd, NULL when the lane is the rank alone).
 */
typedef struct node_lane {
    int n, pos; /* the lane's ranks and rank's place among them */
    int *ranks;
} node_lane;

static int lane_of(const vine_levels *m, int rank, int q, int root, node_lane *l)
{
    int n, h = vine__levels_group(m, 0, rank), j = vine__levels_local(m, 0, rank) % q;
    const int *mem = vine__levels_members(m, 0, h, &n);
    int rep = lane_rep(m, h, j, root, q);
    l->n = (n - j + q - 1) / q;
    l->pos = 0;
    l->ranks = NULL;
    if (l->n == 1)
        return VINE_OK;
    l->ranks = malloc((size_t)l->n * sizeof *l->ranks);
    if (!l->ranks)
        return VINE_ERR_NO_MEM;
    l->ranks[0] = rep;
    for (int k = 1, x = j; x < n; x += q)
        if (mem[x] != rep)
            l->ranks[k++] = mem[x];
    for (int k = 0; k < l->n; k++)
        if (l->ranks[k] == rank)
            l->pos = k;
    return VINE_OK;
}

/* a, for the virtual communicator of p ranks in which a->rank is rank. */
static vine_args sub_args(const vine_args *a, int p, int rank, int root)
{
    vine_args sub = *a;
    sub.p = p;
    sub.rank = rank;
    sub.root = root;
    sub.levels = NULL;
    sub.remap = 0;
    return sub;
}

/* Where a frame works: the whole vector, and the scratch of its phases. */
typedef struct node_bufs {
    vine_bufpos w, scr;
} node_bufs;

/* The allreduce and bcast frames work in RECV, their phases' scratch at TMP 0. */
static const node_bufs in_recv = {{VINE_BUF_RECV, 0}, {VINE_BUF_TMP, 0}};

/*
 * The map of m's levels 1 .. m->node (those above level 0 up to the node)
 * for the virtual communicator of peers[0 .. n-1], one rank of each level-0
 * group in group order: level l - 1 of *up is level l of m, its node level
 * m->node - 1.  Finished; VINE_OK, VINE_ERR_NO_MEM.
 */
static int map_above(const vine_levels *m, const int *peers, int n, vine_levels *up)
{
    int rc = vine__levels_alloc(up, n, m->node);
    if (rc != VINE_OK)
        return rc;
    up->node = m->node - 1;
    for (int l = 0; l < m->node; l++)
        for (int k = 0; k < n; k++)
            up->group[(size_t)l * (size_t)n + (size_t)k] = vine__levels_group(m, l + 1, peers[k]);
    if ((rc = vine__levels_finish(up, NULL, 0)) != VINE_OK)
        vine__levels_free(up);
    return rc;
}

/*
 * The collective of the rank's block v of q (at its block offset in b->w)
 * among the representatives of its lane j, one per node: across runs on a
 * virtual communicator of the nodes rooted at root_node, with that block as
 * its send and receive buffer (inplace as given), its scratch at b->scr
 * (the node phase's scratch is free by then).  With above, level 0 is a
 * unit inside the node and across gets the map of the levels above it up to
 * the node (map_above); otherwise no map.
 */
static int across_nodes(const vine_args *a, vine_sched *s, vine_build_fn across, int q, int j,
                        int v, int root, int root_node, const node_bufs *b, int inplace, int above)
{
    const vine_levels *m = a->levels;
    int nnodes = vine__levels_ngroups(m, 0);
    int *peers = malloc((size_t)nnodes * sizeof *peers);
    if (!peers)
        return VINE_ERR_NO_MEM;
    for (int h = 0; h < nnodes; h++)
        peers[h] = lane_rep(m, h, j, root, q);
    size_t off = b->w.off + vine__block_off(a->count, q, v);
    vine_args sub = sub_args(a, nnodes, vine__levels_group(m, 0, a->rank), root_node);
    sub.count = vine__block_len(a->count, q, v);
    sub.inplace = inplace;
    vine_levels up = {0};
    int rc = above ? map_above(m, peers, nnodes, &up) : VINE_OK;
    if (above)
        sub.levels = &up;
    vine_bufpos at[VINE_BUF_COUNT] = {{b->w.buf, off}, {b->w.buf, off}, b->scr};
    if (rc == VINE_OK)
        rc = vine__sub_run(s, across, &sub, peers, at);
    vine__levels_free(&up);
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

/* The frame on level 0 of a->levels; above: across gets the map above it (across_nodes). */
static int node_allreduce(const vine_args *a, vine_sched *s, vine_build_fn across, int above)
{
    const vine_levels *m = a->levels;
    int n, i = vine__levels_local(m, 0, a->rank), q = vine__node_lanes(m);
    const int *mem = vine__levels_members(m, 0, vine__levels_group(m, 0, a->rank), &n);
    node_lane l;
    int rc = lane_of(m, a->rank, q, -1, &l);
    if (rc != VINE_OK)
        return rc;
    vine_args fold = sub_args(a, l.n, l.pos, 0);
    if (l.n > 1)
        rc = vine__sub_run(s, lane_fold_in, &fold, l.ranks, same);
    if (rc == VINE_OK && i < q) {
        vine_args node = sub_args(a, q, i, 0);
        /* After a fold the lane's partial is in RECV. */
        node.inplace = a->inplace || l.n > 1;
        rc = vine__sub_run(s, node_reduce_scatter, &node, mem, same);
        if (rc == VINE_OK)
            rc = across_nodes(a, s, across, q, i, i, -1, 0, &in_recv, 1, above);
        if (rc == VINE_OK)
            rc = vine__sub_run(s, node_allgather, &node, mem, same);
    }
    if (rc == VINE_OK && l.n > 1)
        rc = vine__sub_run(s, lane_fold_out, &fold, l.ranks, same);
    free(l.ranks);
    return rc == VINE_OK ? vine__sched_finish(s) : rc;
}

typedef int (*node_frame_fn)(const vine_args *a, vine_sched *s, vine_build_fn across, int above);

/* A frame on the full map: with levels inside the node, up across its innermost units. */
static int on_levels(const vine_args *a, vine_sched *s, vine_build_fn flat, vine_build_fn up,
                     node_frame_fn frame)
{
    const vine_levels *m = vine__args_levels(a);
    vine_args b = vine__args_all_levels(a);
    return m->node > 0 ? frame(&b, s, up, 1) : frame(&b, s, flat, 0);
}

int vine__node_allreduce(const vine_args *a, vine_sched *s, vine_build_fn flat, vine_build_fn up)
{
    return on_levels(a, s, flat, up, node_allreduce);
}

/*
 * The representatives of node h's q lanes as a virtual communicator of the
 * rooted frames, rotated so that the root's lane is virtual rank 0 (and
 * lane j virtual rank (j - the root's lane) mod q); malloc'd, NULL when out
 * of memory.
 */
static int *node_reps(const vine_levels *m, int h, int q, int root)
{
    int j_root = vine__levels_local(m, 0, root) % q;
    int *reps = malloc((size_t)q * sizeof *reps);
    for (int v = 0; reps && v < q; v++)
        reps[v] = lane_rep(m, h, (v + j_root) % q, root, q);
    return reps;
}

/* Binomial scatter of the q blocks of RECV from virtual rank 0. */
static int node_scatter(const vine_args *a, vine_sched *s)
{
    vine__tree_scatter(s, a->p, a->rank, 0, a->count);
    return vine__sched_finish(s);
}

static int node_bcast(const vine_args *a, vine_sched *s, vine_build_fn across, int above)
{
    const vine_levels *m = a->levels;
    int q = vine__node_lanes(m), h = vine__levels_group(m, 0, a->rank);
    int h_root = vine__levels_group(m, 0, a->root);
    int j_root = vine__levels_local(m, 0, a->root) % q;
    node_lane l;
    int rc = lane_of(m, a->rank, q, a->root, &l);
    if (rc != VINE_OK)
        return rc;
    if (l.pos == 0) {
        /* Lane j carries block (j - j_root) mod q: the root's lane block 0. */
        int j = vine__levels_local(m, 0, a->rank) % q, v = vine__mod(j - j_root, q);
        int *reps = node_reps(m, h, q, a->root);
        if (!reps)
            rc = VINE_ERR_NO_MEM;
        vine_args node = sub_args(a, q, v, 0);
        if (rc == VINE_OK && h == h_root)
            rc = vine__sub_run(s, node_scatter, &node, reps, same);
        if (rc == VINE_OK)
            rc = across_nodes(a, s, across, q, j, v, a->root, h_root, &in_recv, 1, above);
        if (rc == VINE_OK)
            rc = vine__sub_run(s, node_allgather, &node, reps, same);
        free(reps);
    }
    vine_args fold = sub_args(a, l.n, l.pos, 0);
    if (rc == VINE_OK && l.n > 1)
        rc = vine__sub_run(s, lane_fold_out, &fold, l.ranks, same);
    free(l.ranks);
    return rc == VINE_OK ? vine__sched_finish(s) : rc;
}

/* The root's node: each representative sends its reduced block v to the root. */
static void reduce_gather(const vine_args *a, vine_sched *s, int q, int v, int root,
                          const int *reps, vine_bufpos w)
{
    vine__sched_fence(s);
    if (v != 0) {
        vine__sched_send(s, root, w.buf, w.off + vine__block_off(a->count, q, v),
                         vine__block_len(a->count, q, v));
    } else {
        for (int u = 1; u < q; u++)
            vine__sched_recv(s, reps[u], w.buf, w.off + vine__block_off(a->count, q, u),
                             vine__block_len(a->count, q, u));
    }
    vine__sched_fence(s);
}

static int node_reduce(const vine_args *a, vine_sched *s, vine_build_fn across, int above)
{
    const vine_levels *m = a->levels;
    size_t n = a->count;
    int q = vine__node_lanes(m), h = vine__levels_group(m, 0, a->rank);
    int h_root = vine__levels_group(m, 0, a->root), at_root = a->rank == a->root;
    int j_root = vine__levels_local(m, 0, a->root) % q;
    /*
     * Only the root's receive buffer exists, so every other rank works in
     * scratch: b.w is where a rank builds its partial results (RECV at the
     * root, TMP[0, n) elsewhere), b.scr the scratch of the phases after it.
     */
    vine_bufpos in = {at_root && a->inplace ? VINE_BUF_RECV : VINE_BUF_SEND, 0};
    node_bufs b = {{at_root ? VINE_BUF_RECV : VINE_BUF_TMP, 0}, {VINE_BUF_TMP, at_root ? 0 : n}};
    if (!at_root && n)
        vine__sched_need_tmp(s, n);
    node_lane l;
    int rc = lane_of(m, a->rank, q, a->root, &l);
    if (rc != VINE_OK)
        return rc;
    const vine_bufpos io[VINE_BUF_COUNT] = {in, b.w, b.scr};
    vine_args fold = sub_args(a, l.n, l.pos, 0);
    fold.inplace = in.buf == b.w.buf; /* the root's input in place */
    if (l.n > 1)
        rc = vine__sub_run(s, lane_fold_in, &fold, l.ranks, io);
    if (rc == VINE_OK && l.pos == 0) {
        /* Lane j reduces block (j - j_root) mod q: the root's lane block 0. */
        int j = vine__levels_local(m, 0, a->rank) % q, v = vine__mod(j - j_root, q);
        int *reps = node_reps(m, h, q, a->root);
        if (!reps)
            rc = VINE_ERR_NO_MEM;
        vine_args node = sub_args(a, q, v, 0);
        /* After a fold, or in place at the root, the input is in w. */
        node.inplace = l.n > 1 || in.buf == b.w.buf;
        if (rc == VINE_OK)
            rc = vine__sub_run(s, node_reduce_scatter, &node, reps, io);
        /* The reduce across the nodes reads its input in place at its root. */
        if (rc == VINE_OK)
            rc = across_nodes(a, s, across, q, j, v, a->root, h_root, &b, h == h_root, above);
        if (rc == VINE_OK && h == h_root)
            reduce_gather(a, s, q, v, a->root, reps, b.w);
        free(reps);
    }
    free(l.ranks);
    return rc == VINE_OK ? vine__sched_finish(s) : rc;
}

int vine__node_bcast(const vine_args *a, vine_sched *s, vine_build_fn flat, vine_build_fn up)
{
    return on_levels(a, s, flat, up, node_bcast);
}

int vine__node_reduce(const vine_args *a, vine_sched *s, vine_build_fn flat, vine_build_fn up)
{
    return on_levels(a, s, flat, up, node_reduce);
}
