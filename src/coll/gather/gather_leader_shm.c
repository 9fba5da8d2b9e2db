/*
 * Leader-based hierarchical gather with shared memory inside the nodes:
 * (1) the shm gather (docs/shm.md) collects every node's blocks at the
 * node's representative through the segment (the root for its own node,
 * the leader, its lowest rank, for every other); (2) the representatives
 * gather the nodes' blocks at the root as gather leader does (Kandalla et
 * al., topology-aware scatter and gather, section 4.2,
 * papers/topology-aware-scatter-gather.txt): stage by stage up the levels
 * above the node, a binomial tree inside each group, each node one unit of
 * its ranks times count elements, units of different sizes when the nodes
 * differ (vine__leader_gatherv, phase_leader.h: a subtree's units are one
 * interval of the tree order, so still one message; run on the level map
 * of the nodes as a virtual communicator, vine__shm_nodes_map).  The node
 * frame of phase_shm_nodes.h: the node phase is the shm family's own
 * builder (an shm phase, no single copy).  Since the root represents its
 * node, a root that is not its node's leader costs no extra step, unlike
 * gather leader.
 *
 * The nodes' blocks arrive in node order (node 0's ranks, then node 1's
 * ..., each node's in rank order).  When that is rank order (every node's
 * ranks consecutive, block maps) they land in RECV directly; otherwise
 * (cyclic or random maps) the root gathers into p count elements of scratch
 * and puts them into rank order at the end, one copy per run of consecutive
 * ranks.
 *
 * Restrictions: a level map with locality, nodes of any sizes, a segment
 * in every node (VINE_ALGO_SHM_NODES, VINE_ALGO_SHM_UNEVEN); any p, root
 * and count, MPI_IN_PLACE at the root.  Cost, N nodes, m_g the ranks of
 * node g, M the largest, n = count bytes: inside the node every rank
 * copies n into its region and the representative (m_g - 1) n out (the
 * largest node finishes last: (M - 1) n); across, with k_s the
 * participants of the root's group at stage s, sum_s ceil(log2 k_s)
 * alpha_s start-ups on the critical path and (p - m_root) n beta into the
 * root (every other node's units); plus a copy of p n at the root for maps
 * whose nodes are not consecutive.  Scratch: m_g n at a representative
 * other than the root (more where it collects for a subtree), p n at the
 * root when it reorders.
 */
#include "../coll.h"
#include "../phase_leader.h"
#include "../phase_shm_nodes.h"

/* gather leader among the representatives, node g a block of a->counts[g] elements. */
static int gather_units(const vine_args *a, vine_sched *s)
{
    return vine__leader_gatherv(a, s, VINE_LEADER_BINOMIAL);
}

/* The root: its node through the segment, the others from the representatives, then order. */
static int at_root(const vine_args *a, vine_sched *s, const vine_shm_nodes *f,
                   const vine_levels *nodes, const int *rank_at, int direct)
{
    size_t c = a->count, all = (size_t)a->p * c;
    size_t mine = (size_t)f->first[f->node] * c;
    /* Direct: into RECV, in place there.  Else into TMP[0, p c) in node order, then RECV. */
    vine_bufpos res = {direct ? VINE_BUF_RECV : VINE_BUF_TMP, 0};
    vine_bufpos tmp = {VINE_BUF_TMP, direct ? 0 : all};
    vine_bufpos in = {VINE_BUF_SEND, 0};
    if (!direct && a->inplace)
        in = (vine_bufpos){VINE_BUF_RECV, (size_t)a->root * c};
    if (!direct)
        vine__sched_need_tmp(s, all);
    const vine_bufpos at_node[VINE_BUF_COUNT] = {in, {res.buf, res.off + mine}, tmp};
    int rc = vine__shm_nodes_in_node(s, a, f, VINE_COLL_GATHER, vine__gather_shm_build, c,
                                     direct && a->inplace, at_node);
    const vine_bufpos at_across[VINE_BUF_COUNT] = {{VINE_BUF_SEND, 0}, res, tmp};
    if (rc == VINE_OK)
        rc = vine__shm_nodes_across_units(s, a, f, VINE_COLL_GATHER, gather_units, c, 1, nodes,
                                          at_across);
    if (rc == VINE_OK && !direct) {
        vine__shm_nodes_permute(s, rank_at, a->p, c, VINE_BUF_TMP, 0, VINE_BUF_RECV, 0, 1);
        vine__sched_fence(s);
    }
    return rc;
}

/* Any other rank: its block into the node's gather; a representative sends the node's on. */
static int elsewhere(const vine_args *a, vine_sched *s, const vine_shm_nodes *f,
                     const vine_levels *nodes)
{
    size_t c = a->count, unit = (size_t)f->m * c;
    int rep = vine__shm_nodes_is_rep(f);
    size_t work = rep ? unit : 0;
    if (rep)
        vine__sched_need_tmp(s, unit);
    const vine_bufpos at[VINE_BUF_COUNT] = {
        {VINE_BUF_SEND, 0}, {rep ? VINE_BUF_TMP : VINE_BUF_RECV, 0}, {VINE_BUF_TMP, work}};
    int rc = vine__shm_nodes_in_node(s, a, f, VINE_COLL_GATHER, vine__gather_shm_build, c, 0, at);
    const vine_bufpos at_across[VINE_BUF_COUNT] = {
        {VINE_BUF_TMP, 0}, {VINE_BUF_RECV, 0}, {VINE_BUF_TMP, unit}};
    if (rc == VINE_OK && rep)
        rc = vine__shm_nodes_across_units(s, a, f, VINE_COLL_GATHER, gather_units, c, 0, nodes,
                                          at_across);
    return rc;
}

int vine__gather_leader_shm_build(const vine_args *a, vine_sched *s)
{
    return vine__shm_nodes_rooted(a, s, at_root, elsewhere);
}
