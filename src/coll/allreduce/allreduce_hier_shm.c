/*
 * Hierarchical allreduce with shared memory inside the nodes: (1) the shm
 * reduce-scatter on each node's m ranks leaves local index i with the node's
 * partial of block i of m (vine__block_off's even split); (2) the ranks with
 * local index i, one per node, allreduce block i in place with the allreduce
 * bine_large builder (Bine reduce-scatter + allgather on contiguous blocks);
 * (3) the shm allgather spreads the m reduced blocks inside each node.  The
 * frame of allreduce hier_large (phase_node.h) with its two rings replaced
 * by the node segment, so that inside the node every byte crosses memory a
 * few times instead of travelling p - 1 ring steps as messages.
 *
 * Both node phases are the shm family's own builders, run on the node as a
 * virtual communicator (phase_sub.h: shm phases 0 and 1, no single copy).
 * When m does not divide n the blocks differ by one element, which the shm
 * allgather (equal blocks) cannot take: the blocks then go through scratch
 * in slots of ceil(n / m) elements, one copy more each way.
 *
 * Restrictions: commutative op (bine_large), a level map with locality whose
 * nodes all have m ranks, a segment in every node (VINE_ALGO_SHM_NODES).
 * Cost, N nodes: the shm reduce-scatter and allgather of n elements on m
 * ranks, and allreduce bine_large of n / m elements on N ranks.
 */
#include "../coll.h"
#include "../phase_shm_nodes.h"
#include "../phase_sub.h"
#include "../ranks.h"

#include <stdlib.h>

/* a, for a virtual communicator of p ranks in which a->rank is rank. */
static vine_args sub_args(const vine_args *a, vine_coll coll, int p, int rank)
{
    vine_args sub = *a;
    sub.coll = coll;
    sub.p = p;
    sub.rank = rank;
    sub.root = 0;
    sub.levels = NULL;
    sub.levels_full = NULL;
    sub.remap = 0;
    sub.counts = NULL;
    sub.displs = NULL;
    return sub;
}

/* The node frame; counts and displs hold m and m + 1 entries of scratch. */
static int build(const vine_args *a, vine_sched *s, size_t *counts, size_t *displs, int *peers)
{
    const vine_levels *lv = a->levels;
    int h = vine__levels_group(lv, 0, a->rank), i = vine__levels_local(lv, 0, a->rank), m;
    const int *node = vine__levels_members(lv, 0, h, &m);
    int nnodes = vine__levels_ngroups(lv, 0);
    size_t n = a->count, slot = (n + (size_t)m - 1) / (size_t)m;
    int even = n % (size_t)m == 0;
    for (int j = 0; j <= m; j++) {
        displs[j] = vine__block_off(n, m, j);
        if (j < m)
            counts[j] = vine__block_len(n, m, j);
    }
    size_t mine = counts[i], off = displs[i];
    /* Scratch: the allgather's slots when blocks differ (m slots), else the
     * in-place reduce-scatter's output block (one slot); then the phases'. */
    size_t work = even ? (a->inplace ? slot : 0) : (size_t)m * slot;

    /* (1) Reduce-scatter in the node, into RECV at the block's offset or into scratch. */
    vine_args rs = sub_args(a, VINE_COLL_REDUCE_SCATTER, m, i);
    rs.count = mine;
    rs.counts = counts;
    rs.displs = displs;
    rs.inplace = 0;
    rs.shm_count = a->shm_node_count;
    rs.shm_single = 0;
    rs.seg_count = 0;
    /* Other nodes' ranks may still read this rank's region when they share the segment. */
    vine__shm_nodes_enter(s, a);
    int into_tmp = a->inplace || !even;
    size_t res_off = even ? 0 : (size_t)i * slot;
    const vine_bufpos at_rs[VINE_BUF_COUNT] = {
        {a->inplace ? VINE_BUF_RECV : VINE_BUF_SEND, 0},
        {into_tmp ? VINE_BUF_TMP : VINE_BUF_RECV, into_tmp ? res_off : off},
        {VINE_BUF_TMP, work}};
    int rc = vine__sub_run(s, vine__reduce_scatter_shm_build, &rs, node, at_rs);
    if (rc != VINE_OK)
        return rc;
    if (into_tmp) {
        vine__sched_copy(s, VINE_BUF_TMP, res_off, VINE_BUF_RECV, off, mine);
        vine__sched_fence(s);
    }

    /* (2) Block i among the ranks of local index i, one per node. */
    for (int g = 0; g < nnodes; g++) {
        int k;
        peers[g] = vine__levels_members(lv, 0, g, &k)[i];
    }
    vine_args ar = sub_args(a, VINE_COLL_ALLREDUCE, nnodes, h);
    ar.count = mine;
    ar.inplace = 1;
    const vine_bufpos at_ar[VINE_BUF_COUNT] = {
        {VINE_BUF_RECV, off}, {VINE_BUF_RECV, off}, {VINE_BUF_TMP, work}};
    if ((rc = vine__sub_run(s, vine__allreduce_bine_large_build, &ar, peers, at_ar)) != VINE_OK)
        return rc;

    /* (3) Allgather in the node: in place in RECV, or through the scratch slots. */
    if (!even) {
        vine__sched_copy(s, VINE_BUF_RECV, off, VINE_BUF_TMP, res_off, mine);
        vine__sched_fence(s);
    }
    vine_args ag = sub_args(a, VINE_COLL_ALLGATHER, m, i);
    ag.count = even ? mine : slot;
    ag.inplace = 1;
    ag.shm_count = a->shm_node_count;
    ag.shm_single = 0;
    ag.seg_count = 0;
    const vine_bufpos at_ag[VINE_BUF_COUNT] = {
        {VINE_BUF_SEND, 0}, {even ? VINE_BUF_RECV : VINE_BUF_TMP, 0}, {VINE_BUF_TMP, work}};
    if ((rc = vine__sub_run(s, vine__allgather_shm_build, &ag, node, at_ag)) != VINE_OK)
        return rc;
    if (!even) {
        for (int j = 0; j < m; j++)
            if (j != i)
                vine__sched_copy(s, VINE_BUF_TMP, (size_t)j * slot, VINE_BUF_RECV, displs[j],
                                 counts[j]);
        vine__sched_fence(s);
    }
    vine__sched_need_tmp(s, work);
    return vine__sched_finish(s);
}

int vine__allreduce_hier_shm_build(const vine_args *a, vine_sched *s)
{
    int m = vine__levels_size(a->levels, 0, vine__levels_group(a->levels, 0, a->rank));
    int nnodes = vine__levels_ngroups(a->levels, 0);
    size_t *counts = malloc((size_t)m * sizeof *counts);
    size_t *displs = malloc(((size_t)m + 1) * sizeof *displs);
    int *peers = malloc((size_t)nnodes * sizeof *peers);
    int rc = counts && displs && peers ? build(a, s, counts, displs, peers) : VINE_ERR_NO_MEM;
    free(counts);
    free(displs);
    free(peers);
    return rc;
}
