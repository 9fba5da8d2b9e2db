/*
 * Levels of locality of a communicator (MPI-free): which ranks share a node,
 * a switch, a Dragonfly group ... (issue 8; papers/topology-aware-scatter-
 * gather.txt section 3).  Hierarchical builders read it from vine_args; the
 * API layer discovers it once per communicator, the verifier and the
 * simulator make it from a synthetic description or a placement.
 *
 * Level 0 is the finest (usually the node), level nlevels-1 the coarsest
 * below the whole communicator.  group[l * p + r] is rank r's group at level
 * l, numbered 0 .. ngroups[l]-1 in order of each group's lowest rank.  The
 * groups nest: two ranks in one group at level l are in one group at every
 * level above l.  A map with every rank alone at every level, or all ranks in
 * one group, carries no locality (vine__levels_flat says so).
 *
 * Making a map: vine__levels_alloc(), fill group[] with any non-negative ids
 * (they need not be dense nor ordered), then vine__levels_finish(), which
 * validates the map, renumbers the ids in lowest-rank order, sets ngroups and
 * builds the index that the accessors below read.  Or vine__levels_parse()
 * from a synthetic description.  vine__levels_free() releases either.  A
 * map handed to a builder (vine_args.levels) must be finished.
 *
 * The accessors take a level l from -1 to nlevels: level -1 is the ranks
 * themselves (group r is {r}), level nlevels is the whole communicator (one
 * group, 0).  This lets a builder treat "the ranks of a node" and "the nodes
 * of a switch" alike.  Every group's leader is its lowest rank, so the leader
 * of a group is also the leader of the subgroup that holds it, at every
 * level below.
 *
 * Levels inside the node (issue 18: NUMA domains, packages, shared caches)
 * make a *full* map, whose field node says which level is the node: levels
 * 0 .. node-1 lie inside it.  Builders get the map from the node up as
 * vine_args.levels (node 0: level 0 is the node, what every algorithm that
 * means "the ranks sharing memory" reads) and the full map apart, as
 * vine_args.levels_full, which only the algorithms that work on any number
 * of levels read (VINE_ALGO_LEVELS_ANY).  vine__levels_split_node makes the
 * pair from a full map.
 */
#ifndef VINE_COLL_LEVELS_H
#define VINE_COLL_LEVELS_H

#include <stddef.h>

#define VINE_LEVELS_MAX 8

typedef struct vine_levels {
    int p;       /* ranks */
    int nlevels; /* 1 .. VINE_LEVELS_MAX */
    int node;    /* the node level, 0 .. nlevels-1; 0 unless levels lie inside it */
    /*
     * 1 when the map describes a torus network (the description torus:, vine
     * sim's map of a torus job): auto then prices the torus algorithms too
     * (select.c).  Any uniform map makes a torus for them (torus.h); this
     * says that the network is one.
     */
    int torus;
    int ngroups[VINE_LEVELS_MAX]; /* groups per level */
    int *group;                   /* nlevels * p entries, see above */
    /*
     * The index, built by vine__levels_finish() (all NULL before); read it
     * through the accessors.  They point into one allocation, idx, so a copy
     * of the struct stays valid as long as the original is not freed.
     */
    int *idx;
    int *ident;                      /* 0 .. p-1 */
    int *order[VINE_LEVELS_MAX];     /* ranks sorted by (group, rank) */
    int *start[VINE_LEVELS_MAX];     /* ngroups + 1: group g is order[start[g], start[g+1]) */
    int *local[VINE_LEVELS_MAX];     /* rank r's index inside its group */
    int *sub[VINE_LEVELS_MAX];       /* level l-1 groups sorted by (parent, id), l >= 1 */
    int *sub_start[VINE_LEVELS_MAX]; /* ngroups[l] + 1 offsets into sub[l], l >= 1 */
    int *subidx[VINE_LEVELS_MAX];    /* group g's index among its parent's subgroups */
    int *block;                      /* block order, see vine__levels_block (p entries) */
    int *block_pos;                  /* rank r's position in it (p entries) */
    int reordered;                   /* 1 when the block order is not the identity */
} vine_levels;

/* ---- making and checking maps ------------------------------------------- */

/*
 * Initialises *m for p ranks and nlevels levels with a zeroed group array
 * (every rank in group 0 at every level) and no index.  Returns VINE_OK,
 * VINE_ERR_NO_MEM, or VINE_ERR_UNSUPPORTED when p < 1 or nlevels is outside
 * 1 .. VINE_LEVELS_MAX (then *m is empty and safe to free).
 */
int vine__levels_alloc(vine_levels *m, int p, int nlevels);

/*
 * Validates and normalises *m in place: p >= 1, 1 <= nlevels <=
 * VINE_LEVELS_MAX, 0 <= node < nlevels, group non-NULL, ids >= 0 and nested.  Renumbers every
 * level's ids 0 .. ngroups-1 in order of the groups' lowest ranks (ngroups[]
 * on input is ignored) and builds the index (replacing an older one).
 * Returns VINE_OK; VINE_ERR_UNSUPPORTED for a malformed map, with one line in
 * err naming the level and ranks at fault; VINE_ERR_NO_MEM.  On failure the
 * map has no index (not ready; levels may be renumbered already) and must
 * still be freed.  err may be NULL.
 */
int vine__levels_finish(vine_levels *m, char *err, size_t errlen);

/* Frees the group array and the index; *m becomes empty.  NULL is fine. */
void vine__levels_free(vine_levels *m);

/*
 * 1 when the map carries no locality: m is NULL, or every level has each rank
 * alone or all ranks together.  m must be finished (or NULL).
 */
int vine__levels_flat(const vine_levels *m);

/* The levels that divide the ranks (neither each rank alone nor all together); 0 for NULL. */
int vine__levels_dividing(const vine_levels *m);

/* 1 when m is non-NULL and finished for p ranks (usable by builders). */
int vine__levels_ready(const vine_levels *m, int p);

/*
 * Splits a finished map at its node: *node_map gets levels m->node ..
 * nlevels-1 (a finished map whose level 0 is the node) and *m keeps all of
 * them, the full map.  When m has no level inside the node (m->node is 0)
 * the map moves to *node_map and *m becomes empty, so that afterwards
 * m->group != NULL says "there are levels inside the node".  Returns VINE_OK
 * or VINE_ERR_NO_MEM (then both are empty).  O(nlevels p log p).
 */
int vine__levels_split_node(vine_levels *m, vine_levels *node_map);

/*
 * Makes a finished map for p ranks from a synthetic description:
 *
 *   SPEC  := "flat" | LEVEL ( "/" LEVEL )*
 *   LEVEL := "block:" N ("," N)*        one level per N: runs of N consecutive units
 *          | "cyclic:" N ("," N)*       one level per N: unit u joins group u mod N
 *          | "sizes:" N ("," N)*        one level: consecutive runs of N1, N2, ...
 *                                       units, the sizes repeating until none is left
 *          | "random:" SEED ":" N ("," N)*  one level per N: each unit joins one of
 *                                       N groups drawn from a generator seeded by SEED
 *          | "ids:" I ("," I)*          one level: unit u joins group I_u (as many ids
 *                                       as there are units)
 *          | "torus:" D ("x" D)*        a torus D0 x D1 x ... of exactly the units in
 *                                       row-major order (torus.h): "block:Dn-1,...,D1"
 *                                       (one dimension D0: one level of all together),
 *                                       and the map's torus flag
 *
 * The units of the first level are the ranks, those of every next level the
 * groups of the level before it, in id (lowest-rank) order, so the levels nest
 * by construction.  The last run of block and sizes may be short; groups that
 * get no unit (random, cyclic with N above the units) vanish.  "flat" is one
 * level with every rank alone.  Examples, p = 16: "block:4" (4 nodes of 4),
 * "block:4,2" (nodes of 4, switches of 2 nodes), "sizes:1,3,5,7" (nodes of
 * 1, 3, 5, 7 ranks), "sizes:1,3,5,7/block:2" (those nodes in pairs),
 * "random:7:5,2" (ranks scattered over 5 nodes, the nodes over 2 switches),
 * "cyclic:4" (rank r on node r mod 4).  N >= 1, SEED a decimal integer,
 * ids >= 0; at most VINE_LEVELS_MAX levels.
 *
 * One LEVEL may start with "node=": the first level it makes is the node,
 * and the levels before it lie inside the node (m->node says which).  So
 * "block:2/node=block:4,2" is NUMA domains of 2 ranks, nodes of 4 domains,
 * switches of 2 nodes.  Without it level 0 is the node.
 *
 * Returns VINE_OK with *m finished (free it with vine__levels_free);
 * VINE_ERR_UNSUPPORTED for a malformed description, with one line in err;
 * VINE_ERR_NO_MEM.  On failure *m is empty.
 */
int vine__levels_parse(const char *spec, int p, vine_levels *m, char *err, size_t errlen);

/* ---- accessors (m finished; -1 <= l <= nlevels, see above) --------------- */

int vine__levels_ngroups(const vine_levels *m, int l);
/* Rank r's group at level l. */
int vine__levels_group(const vine_levels *m, int l, int r);
/* The number of ranks of group g at level l. */
int vine__levels_size(const vine_levels *m, int l, int g);
/* The ranks of group g at level l in rank order; *n gets their number. */
const int *vine__levels_members(const vine_levels *m, int l, int g, int *n);
/* The leader of group g at level l: its lowest rank. */
int vine__levels_leader(const vine_levels *m, int l, int g);
/* Rank r's index among the members of its group at level l. */
int vine__levels_local(const vine_levels *m, int l, int r);
/* The group at level l + 1 that holds group g of level l (l < nlevels). */
int vine__levels_parent(const vine_levels *m, int l, int g);
/*
 * The groups of level l - 1 inside group g of level l (0 <= l <= nlevels), in
 * id order, which is the order of their leaders; at l = 0 these are the
 * group's ranks.  *n gets their number.  Their leaders are the ranks that
 * talk for them one level up.
 */
const int *vine__levels_subgroups(const vine_levels *m, int l, int g, int *n);
/* Group g of level l's index in vine__levels_subgroups() of its parent (l < nlevels). */
int vine__levels_subindex(const vine_levels *m, int l, int g);

/*
 * The ranks in block order: the ranks of every group at every level
 * consecutive, groups in id order, ranks in rank order inside a node (the
 * tree order of anchor 0, below).  The identity exactly when the ranks are
 * already placed in blocks (m->reordered is 0 then).  O(1): built by
 * vine__levels_finish.
 */
static inline const int *vine__levels_block(const vine_levels *m)
{
    return m->block;
}
/* Rank r's position in the block order. */
static inline int vine__levels_block_pos(const vine_levels *m, int r)
{
    return m->block_pos[r];
}

/* ---- the hierarchical tree of a rooted collective ------------------------ */

/*
 * A rooted hierarchical collective towards (gather) or from (scatter,
 * broadcast) an anchor rank a runs in stages 0 .. nlevels.  Stage s runs
 * inside every group G of level s (stage nlevels: among all ranks); its
 * participants are the representatives of the level s-1 groups inside G (at
 * stage 0, G's ranks).  The representative of a group is its leader, except
 * that every group holding a is represented by a.  The stage's target is G's
 * own representative; participants are numbered relative to it: relative
 * index w is the subgroup at (w + t) mod k in id order, t the target's
 * subgroup, so the target is 0 and the others follow cyclically.
 *
 * The tree order lays all ranks out so that the ranks of every group at
 * every level are consecutive, each group's subgroups in relative order;
 * the anchor comes first.  A participant's blocks, and those of a run of
 * consecutive participants (a subtree of a binomial tree on relative
 * indices), are then one interval of the tree order.  Gather and scatter
 * keep their blocks in this order and put them in rank order at the root.
 */
typedef struct vine_levels_stage {
    int level; /* the stage runs inside this rank's group at this level */
    int k;     /* participants */
    int v;     /* this rank's relative index; 0: it is the target */
    int *rank; /* k participants in relative order (rank[0] the target) */
    int *lo;   /* k + 1: participant w's blocks are [lo[w], lo[w+1]) of the group */
} vine_levels_stage;

/* The stages one rank takes part in: 0 .. nstages-1, the last where v != 0 or nlevels. */
typedef struct vine_levels_path {
    int nstages;
    vine_levels_stage stage[VINE_LEVELS_MAX + 1];
} vine_levels_path;

/*
 * Fills *path for rank with the given anchor.  A rank takes part in stage 0
 * and in every next stage for as long as it was the target of the one
 * before.  Returns VINE_OK or VINE_ERR_NO_MEM (then *path is empty).
 */
int vine__levels_path(const vine_levels *m, int rank, int anchor, vine_levels_path *path);
void vine__levels_path_free(vine_levels_path *path);

/* The tree order for the anchor: rank_at[y] is the rank at position y (p entries). */
void vine__levels_tree_order(const vine_levels *m, int anchor, int *rank_at);

/*
 * The length of the run of consecutive ranks rank_at[y], rank_at[y] + 1, ...
 * that starts at position y and ends at end at the latest: the positions
 * that are one range of a buffer in rank order.
 */
static inline int vine__levels_run(const int *rank_at, int y, int end)
{
    int n = 1;
    while (y + n < end && rank_at[y + n] == rank_at[y] + n)
        n++;
    return n;
}

#endif
