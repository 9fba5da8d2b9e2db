/*
 * Hierarchical reduce with shared memory inside the nodes, the mirror of
 * bcast hier_shm: (1) the shm reduce (docs/shm.md) folds every node's
 * inputs into the node's representative (the root for its own node, the
 * leader, its lowest rank, for every other); (2) the representatives, one
 * per node, reduce the node partials to the root with a point-to-point
 * reduce.  The node frame of phase_shm_nodes.h: the node phase is the shm
 * family's own builder run on the node as a virtual communicator (an shm
 * phase, no single copy), which for large vectors is itself a
 * reduce-scatter on shared memory (every rank of the node reduces 1/m of
 * the vector) followed by the root's reads.  The root stands for its node,
 * so any root works without an extra step.
 *
 * Across the nodes: reduce bine (the mirrored Bine tree, De Sensi et al.,
 * Bine trees, sections 3-4, papers/bine-trees.txt) for short vectors,
 * reduce bine_large (Bine reduce-scatter + gather, section 4.4) from
 * VINE_REDUCE_HIER_SHM_LONG elements on (and at least one element per
 * node): MPICH's switch from the binomial reduce to Rabenseifner's at 2 KiB
 * (Thakur, Rabenseifner and Gropp 2005, section 4.3,
 * papers/mpich-collectives.txt), taken in elements since a builder does not
 * see the datatype.  Levels above the node are not used.
 *
 * Restrictions: a commutative op (the node partials are combined in the
 * Bine tree's order, not in rank order); a level map with locality, a
 * segment in every node (VINE_ALGO_SHM_NODES); nodes of any sizes
 * (VINE_ALGO_SHM_UNEVEN); any p, root and count, MPI_IN_PLACE at the root.
 * Cost, N nodes of up to m ranks, n elements: inside the node the shm
 * reduce (every rank copies n in and reduces (m - 1) n / m, the
 * representative copies n out; small vectors: the representative reduces
 * (m - 1) n from its peers' regions); across, ceil(log2 N) (alpha + n beta
 * + n gamma) (tree) or 2 log2 N' alpha + 2 (N' - 1)/N' n beta + (N' - 1)/N'
 * n gamma with N' = 2^floor(log2 N) (plus a fold step when N is not a power
 * of two).  Scratch: n at a representative that is not the root, plus what
 * the reduce across needs.
 */
#include "../coll.h"
#include "../phase_shm_nodes.h"

/* bine_large across the nodes from this many elements on. */
#define VINE_REDUCE_HIER_SHM_LONG ((size_t)2048)

/* A representative's reduce among the nodes, from its node's partial at in. */
static int across(const vine_args *a, vine_sched *s, const vine_shm_nodes *f, vine_bufpos in,
                  vine_bufpos tmp)
{
    size_t n = a->count;
    int at_root = a->rank == a->root;
    int large = n >= VINE_REDUCE_HIER_SHM_LONG && n >= (size_t)f->nnodes;
    const vine_bufpos at[VINE_BUF_COUNT] = {in, {VINE_BUF_RECV, 0}, tmp};
    return vine__shm_nodes_across(s, a, f, VINE_COLL_REDUCE,
                                  large ? vine__reduce_bine_large_build : vine__reduce_bine_build,
                                  n, at_root, NULL, at);
}

static int build(const vine_args *a, vine_sched *s, const vine_shm_nodes *f)
{
    size_t n = a->count;
    int at_root = a->rank == a->root, rep = vine__shm_nodes_is_rep(f);
    /* A representative that is not the root holds its node's partial in TMP[0, n). */
    int in_tmp = rep && !at_root;
    size_t work = in_tmp ? n : 0;
    const vine_bufpos at[VINE_BUF_COUNT] = {
        {VINE_BUF_SEND, 0}, {in_tmp ? VINE_BUF_TMP : VINE_BUF_RECV, 0}, {VINE_BUF_TMP, work}};
    if (in_tmp)
        vine__sched_need_tmp(s, n);
    int rc = vine__shm_nodes_in_node(s, a, f, VINE_COLL_REDUCE, vine__reduce_shm_build, n,
                                     at_root && a->inplace, at);
    if (rc == VINE_OK && rep)
        rc = across(a, s, f, (vine_bufpos){VINE_BUF_TMP, 0}, (vine_bufpos){VINE_BUF_TMP, work});
    return rc == VINE_OK ? vine__sched_finish(s) : rc;
}

int vine__reduce_hier_shm_build(const vine_args *a, vine_sched *s)
{
    vine_shm_nodes f;
    int rc = vine__shm_nodes_init(a, &f);
    if (rc == VINE_OK)
        rc = build(a, s, &f);
    vine__shm_nodes_free(&f);
    return rc;
}
