/*
 * The frame of the rooted hierarchical shm algorithms (MPI-free): bcast and
 * reduce hier_shm, gather and scatter leader_shm (docs/hierarchical.md,
 * docs/shm.md).  Inside each node (level 0 of the level map) a collective of
 * the shm family runs on the node's ranks as a virtual communicator, rooted
 * at the node's representative: the root itself in the root's node, the
 * node's leader (its lowest rank) in every other node.  Across the nodes a
 * point-to-point builder runs among the representatives, one per node in
 * node (id) order, rooted at the root's node.  Both are spliced in with
 * vine__sub_run (phase_sub.h): the node phase as an shm phase, without
 * single copy (peers' buffers lie at other positions of the composed
 * schedule).
 *
 * Every rank takes part in its node's shm phase, so all ranks of a node go
 * through the same shm phases and every rank's schedule is an shm schedule
 * (vine_sched.shm), as the flag protocol needs.
 */
#ifndef VINE_PHASE_SHM_NODES_H
#define VINE_PHASE_SHM_NODES_H

#include "coll.h"
#include "phase_sub.h"

/* A rank's place in the frame. */
typedef struct vine_shm_nodes {
    int node;           /* this rank's node: its group at level 0 */
    int local;          /* its index among the node's ranks */
    int m;              /* the node's ranks */
    const int *members; /* those ranks, in rank order */
    int nnodes;         /* nodes of the map */
    int root_node;      /* the root's node */
    int rep;            /* the local index of the node's representative */
    int *reps;          /* nnodes: every node's representative (a rank), in node order */
    int *first;         /* nnodes + 1: node g's ranks are [first[g], first[g + 1]) in node order */
} vine_shm_nodes;

/* Fills *f for a->rank and a->root (a->levels ready); VINE_OK or VINE_ERR_NO_MEM. */
int vine__shm_nodes_init(const vine_args *a, vine_shm_nodes *f);
void vine__shm_nodes_free(vine_shm_nodes *f);

/* Whether a->rank represents its node. */
static inline int vine__shm_nodes_is_rep(const vine_shm_nodes *f)
{
    return f->local == f->rep;
}

/*
 * The entry wait across the nodes, before the first shm phase of a composed
 * schedule.  The shm builders' own entry wait covers the node; but when all
 * p ranks share one segment (a->shm_count > 0: pretend nodes inside one real
 * node, VINE_TOPOLOGY_FAKE_HOSTS), the flat shm algorithms run on the
 * communicator too, and a rank of another node may still read this rank's
 * region in the previous call.  Then this appends WAIT q 0 for every other
 * rank q (q has entered this call, so it is done with the previous one);
 * otherwise, and after the first shm phase, nothing.
 * vine__shm_nodes_in_node calls it.
 */
void vine__shm_nodes_enter(vine_sched *s, const vine_args *a);

/*
 * Runs build (an shm builder of coll) on the rank's node, rooted at the
 * representative, for count elements, in place (at the representative) when
 * inplace, with the node's regions of a->shm_node_count elements, its
 * buffers placed at at[].  Returns VINE_OK, VINE_ERR_NO_MEM or build's status.
 */
int vine__shm_nodes_in_node(vine_sched *s, const vine_args *a, const vine_shm_nodes *f,
                            vine_coll coll, vine_build_fn build, size_t count, int inplace,
                            const vine_bufpos at[VINE_BUF_COUNT]);

/*
 * Runs build (a point-to-point builder of coll) among the representatives,
 * rooted at the root's node, for count elements, with levels as the level
 * map of the nodes (NULL, or vine__shm_nodes_map's) and a's segment size.
 * Only a representative calls it.  Returns VINE_OK, VINE_ERR_NO_MEM or
 * build's status.
 */
int vine__shm_nodes_across(vine_sched *s, const vine_args *a, const vine_shm_nodes *f,
                           vine_coll coll, vine_build_fn build, size_t count, int inplace,
                           const vine_levels *levels, const vine_bufpos at[VINE_BUF_COUNT]);

/*
 * As vine__shm_nodes_across, for gather and scatter leader_shm: node g is
 * one block of its ranks times c elements (nodes may differ in size), and
 * build, a builder of irregular blocks (vine__leader_gatherv's and
 * scatterv's kind), reads them from its a->counts.  Only a representative
 * calls it.  Returns VINE_OK, VINE_ERR_NO_MEM or build's status.
 */
int vine__shm_nodes_across_units(vine_sched *s, const vine_args *a, const vine_shm_nodes *f,
                                 vine_coll coll, vine_build_fn build, size_t c, int inplace,
                                 const vine_levels *levels, const vine_bufpos at[VINE_BUF_COUNT]);

/*
 * The level map of the nodes of lv, for the gather and scatter among the
 * representatives: node g is rank g, alone at level 0 (so that the root's
 * node anchors the hierarchical tree, levels.h), and at every level l >= 1
 * in lv's group of its ranks.  *out is finished; free it with
 * vine__levels_free.  Returns VINE_OK or VINE_ERR_NO_MEM.
 */
int vine__shm_nodes_map(const vine_levels *lv, vine_levels *out);

/*
 * The frame of gather and scatter leader_shm: at the root, at_root with the
 * map of the nodes (vine__shm_nodes_map), the node order of the ranks and
 * whether it is rank order (vine__shm_nodes_order); elsewhere, elsewhere
 * with the map.  Then finishes s.  Returns VINE_OK, VINE_ERR_NO_MEM or the
 * callbacks' status.
 */
typedef int (*vine_shm_nodes_root_fn)(const vine_args *a, vine_sched *s, const vine_shm_nodes *f,
                                      const vine_levels *nodes, const int *rank_at, int direct);
typedef int (*vine_shm_nodes_rank_fn)(const vine_args *a, vine_sched *s, const vine_shm_nodes *f,
                                      const vine_levels *nodes);
int vine__shm_nodes_rooted(const vine_args *a, vine_sched *s, vine_shm_nodes_root_fn at_root,
                           vine_shm_nodes_rank_fn elsewhere);

/*
 * The node order of lv's ranks: the ranks of node 0, then of node 1 ...,
 * each node's in rank order, into rank_at (lv->p entries).  Returns 1 when
 * it is rank order (every node's ranks consecutive, as in block maps).
 */
int vine__shm_nodes_order(const vine_levels *lv, int *rank_at);

/*
 * Copies blocks of c elements between node order (nbuf from noff, position
 * y) and rank order (rbuf from roff, block rank_at[y]), one copy per run of
 * consecutive ranks: to rank order when to_rank, else from it.
 */
void vine__shm_nodes_permute(vine_sched *s, const int *rank_at, int p, size_t c, int nbuf,
                             size_t noff, int rbuf, size_t roff, int to_rank);

#endif
