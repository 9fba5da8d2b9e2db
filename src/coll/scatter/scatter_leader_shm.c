/*
 * Leader-based hierarchical scatter with shared memory inside the nodes,
 * the mirror of gather leader_shm: (1) the root scatters the nodes' blocks
 * among the nodes' representatives (the root for its own node, the leader,
 * its lowest rank, for every other) as scatter leader does (Kandalla et
 * al., topology-aware scatter and gather, section 4.2,
 * papers/topology-aware-scatter-gather.txt): stage by stage down the levels
 * above the node, a binomial tree inside each group, each node one unit of
 * its ranks times count elements, units of different sizes when the nodes
 * differ (vine__leader_scatterv, phase_leader.h; run on the level map of
 * the nodes as a virtual communicator, vine__shm_nodes_map); (2) the shm
 * scatter (docs/shm.md) hands every rank its block through the segment
 * from its node's representative.  The node frame of phase_shm_nodes.h:
 * the node phase is the shm family's own builder (an shm phase, no single
 * copy).  Since the root represents its node, a root that is not its
 * node's leader costs no extra step, unlike scatter leader.
 *
 * The nodes' blocks travel in node order (node 0's ranks, then node 1's
 * ..., each node's in rank order).  When that is rank order (every node's
 * ranks consecutive, block maps) they leave from SEND directly; otherwise
 * (cyclic or random maps) the root first copies them into node order in p
 * count elements of scratch, one copy per run of consecutive ranks.
 *
 * Restrictions: a level map with locality, nodes of any sizes, a segment
 * in every node (VINE_ALGO_SHM_NODES, VINE_ALGO_SHM_UNEVEN); any p, root
 * and count, MPI_IN_PLACE at the root.  Cost, N nodes, m_g the ranks of
 * node g, M the largest, n = count bytes: across, sum_s ceil(log2 k_s)
 * alpha_s start-ups on the critical path (k_s the participants of the
 * root's group at stage s) and (p - m_root) n beta out of the root (every
 * other node's units); inside the node the representative copies
 * (m_g - 1) n into its region and every rank n out (the largest node
 * finishes last: (M - 1) n); plus a copy of p n at the root for maps whose
 * nodes are not consecutive.  Scratch: m_g n at a representative other
 * than the root (more where it forwards to a subtree), p n at the root
 * when it reorders.
 */
#include "../coll.h"
#include "../phase_leader.h"
#include "../phase_shm_nodes.h"

/* scatter leader among the representatives, node g a block of a->counts[g] elements. */
static int scatter_units(const vine_args *a, vine_sched *s)
{
    return vine__leader_scatterv(a, s, VINE_LEADER_BINOMIAL);
}

/* The root: the other nodes' blocks to their representatives, then its own node's. */
static int at_root(const vine_args *a, vine_sched *s, const vine_shm_nodes *f,
                   const vine_levels *nodes, const int *rank_at, int direct)
{
    size_t c = a->count, all = (size_t)a->p * c;
    /* Direct: from SEND.  Else from TMP[0, p c), the blocks put in node order first. */
    vine_bufpos src = {direct ? VINE_BUF_SEND : VINE_BUF_TMP, 0};
    vine_bufpos tmp = {VINE_BUF_TMP, direct ? 0 : all};
    if (!direct) {
        vine__sched_need_tmp(s, all);
        vine__shm_nodes_permute(s, rank_at, a->p, c, VINE_BUF_TMP, 0, VINE_BUF_SEND, 0, 0);
        vine__sched_fence(s);
    }
    const vine_bufpos at_across[VINE_BUF_COUNT] = {src, {VINE_BUF_RECV, 0}, tmp};
    int rc = vine__shm_nodes_across_units(s, a, f, VINE_COLL_SCATTER, scatter_units, c, 1, nodes,
                                          at_across);
    const vine_bufpos at_node[VINE_BUF_COUNT] = {
        {src.buf, src.off + (size_t)f->first[f->node] * c}, {VINE_BUF_RECV, 0}, tmp};
    if (rc == VINE_OK)
        rc = vine__shm_nodes_in_node(s, a, f, VINE_COLL_SCATTER, vine__scatter_shm_build, c,
                                     a->inplace, at_node);
    return rc;
}

/* Any other rank: a representative gets its node's blocks; then the node's scatter. */
static int elsewhere(const vine_args *a, vine_sched *s, const vine_shm_nodes *f,
                     const vine_levels *nodes)
{
    size_t c = a->count, unit = (size_t)f->m * c;
    int rep = vine__shm_nodes_is_rep(f), rc = VINE_OK;
    const vine_bufpos at_across[VINE_BUF_COUNT] = {
        {VINE_BUF_SEND, 0}, {VINE_BUF_TMP, 0}, {VINE_BUF_TMP, unit}};
    if (rep) {
        vine__sched_need_tmp(s, unit);
        rc = vine__shm_nodes_across_units(s, a, f, VINE_COLL_SCATTER, scatter_units, c, 0, nodes,
                                          at_across);
    }
    const vine_bufpos at[VINE_BUF_COUNT] = {{rep ? VINE_BUF_TMP : VINE_BUF_SEND, 0},
                                            {VINE_BUF_RECV, 0},
                                            {VINE_BUF_TMP, rep ? unit : 0}};
    if (rc == VINE_OK)
        rc = vine__shm_nodes_in_node(s, a, f, VINE_COLL_SCATTER, vine__scatter_shm_build, c, 0, at);
    return rc;
}

int vine__scatter_leader_shm_build(const vine_args *a, vine_sched *s)
{
    return vine__shm_nodes_rooted(a, s, at_root, elsewhere);
}
