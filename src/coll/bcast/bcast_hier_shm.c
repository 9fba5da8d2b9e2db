/*
 * Hierarchical broadcast with shared memory inside the nodes: (1) the
 * representatives of the nodes, one per node (the root for its own node,
 * the leader, its lowest rank, for every other), broadcast the buffer
 * among themselves from the root's node; (2) the shm bcast (docs/shm.md)
 * spreads it inside every node from its representative.  The node frame of
 * phase_shm_nodes.h: the node phase is the shm family's own builder run on
 * the node as a virtual communicator (an shm phase, no single copy), so
 * inside the node the buffer crosses memory twice instead of travelling
 * ceil(log2 m) tree steps as messages.  The root stands for its node, so
 * any root works without an extra step.
 *
 * Across the nodes: bcast bine (the distance-halving Bine tree, De Sensi et
 * al., Bine trees, section 3, papers/bine-trees.txt) for short messages,
 * bcast bine_large (Bine scatter + allgather, section 4.4) from
 * VINE_BCAST_HIER_SHM_LONG bytes on at least VINE_BCAST_HIER_SHM_MIN_NODES
 * nodes: MPICH's short-message rule for bcast (a tree below 12 KiB or below
 * 8 ranks; Thakur, Rabenseifner and Gropp 2005, section 4.1,
 * papers/mpich-collectives.txt) applied to the nodes.  Levels above the
 * node are not used.
 *
 * Restrictions: a level map with locality, a segment in every node
 * (VINE_ALGO_SHM_NODES); nodes of any sizes (VINE_ALGO_SHM_UNEVEN); any p,
 * root and count.  Cost, N nodes of up to m ranks, n bytes: across,
 * ceil(log2 N) (alpha + n beta) (tree), or 2 log2 N' alpha + 2 (N' - 1)/N'
 * n beta with N' = 2^floor(log2 N) (plus alpha + n beta when N is not a
 * power of two); inside the node the representative copies n into its
 * region and every other rank n out, chunk by chunk (about two chunk copies
 * and a flag hand-off per chunk of latency).  No scratch.
 */
#include "../coll.h"
#include "../phase_shm_nodes.h"

/* bine_large across the nodes from this many bytes ... */
#define VINE_BCAST_HIER_SHM_LONG ((size_t)12288)
/* ... and this many nodes on. */
#define VINE_BCAST_HIER_SHM_MIN_NODES 8

static int build(const vine_args *a, vine_sched *s, const vine_shm_nodes *f)
{
    size_t n = a->count;
    const vine_bufpos at[VINE_BUF_COUNT] = {
        {VINE_BUF_SEND, 0}, {VINE_BUF_RECV, 0}, {VINE_BUF_TMP, 0}};
    int large = n >= VINE_BCAST_HIER_SHM_LONG && f->nnodes >= VINE_BCAST_HIER_SHM_MIN_NODES;
    int rc = VINE_OK;
    if (vine__shm_nodes_is_rep(f))
        rc = vine__shm_nodes_across(s, a, f, VINE_COLL_BCAST,
                                    large ? vine__bcast_bine_large_build : vine__bcast_bine_build,
                                    n, 0, NULL, at);
    if (rc == VINE_OK)
        rc = vine__shm_nodes_in_node(s, a, f, VINE_COLL_BCAST, vine__bcast_shm_build, n, 0, at);
    return rc == VINE_OK ? vine__sched_finish(s) : rc;
}

int vine__bcast_hier_shm_build(const vine_args *a, vine_sched *s)
{
    vine_shm_nodes f;
    int rc = vine__shm_nodes_init(a, &f);
    if (rc == VINE_OK)
        rc = build(a, s, &f);
    vine__shm_nodes_free(&f);
    return rc;
}
