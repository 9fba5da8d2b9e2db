/*
 * Schedule builders and the algorithm registry (MPI-free).
 *
 * A builder is a pure function of its vine_args: it appends to an initialised
 * vine_sched the operations of rank a->rank and returns VINE_OK, or
 * VINE_ERR_UNSUPPORTED when the case lies outside its restrictions.  It calls
 * vine__sched_finish() itself before returning VINE_OK.
 *
 * Buffer layout of each collective (counts in elements; "input" is what the
 * rank contributes, "result" what it must hold at the end).  The executor, the
 * verifier and every builder follow this contract.
 *
 *   bcast           RECV[count] on every rank.  Input: RECV[0,count) at the
 *                   root.  Result: RECV[0,count) everywhere.  No SEND.
 *   reduce          SEND[count] input on every rank, or, with inplace at the
 *                   root, RECV[0,count) holds the root's input (no SEND there).
 *                   RECV[count] exists at the root only (size 0 elsewhere).
 *                   Result: RECV[0,count) at the root = x_0 op ... op x_{p-1}.
 *   allreduce       SEND[count] input, or RECV[0,count) when inplace.
 *                   Result: RECV[0,count) on every rank.
 *   allgather       SEND[count] input, or RECV[rank*count, +count) when
 *                   inplace.  RECV[p*count].  Result: RECV[i*count, +count)
 *                   holds rank i's input, on every rank.
 *   reduce_scatter  counts[i] elements go to rank i; displs[i] is their offset
 *                   in the full vector of total = displs[p] elements.
 *                   SEND[total] input, or RECV[0,total) when inplace (then
 *                   RECV has total elements, else counts[rank]).  Result:
 *                   RECV[0,counts[rank]) = elements displs[rank].. of the
 *                   reduction.  A rank may use all of RECV as scratch.
 *   reduce_scatter_block  the same with counts[i] = count for every i.
 *   alltoall        SEND[p*count] input: block i = SEND[i*count, +count) goes
 *                   to rank i.  RECV[p*count].  Result: RECV[i*count, +count)
 *                   holds block `rank` of rank i's input.  No inplace: the
 *                   API layer copies an MPI_IN_PLACE input into scratch and
 *                   passes it as SEND.
 *   gather          SEND[count] input on every rank, or, with inplace at the
 *                   root, RECV[root*count, +count) holds the root's input (no
 *                   SEND there).  RECV[p*count] at the root only (size 0
 *                   elsewhere).  Result: RECV[i*count, +count) at the root
 *                   holds rank i's input.
 *   scatter         SEND[p*count] input at the root only (size 0 elsewhere):
 *                   block i goes to rank i.  RECV[count] on every rank, except
 *                   the root with inplace (size 0: its block stays in SEND).
 *                   Result: RECV[0, count) = block `rank` of the root's SEND.
 *   barrier         no buffers (count is ignored).  Result: no rank finishes
 *                   its schedule before every rank has started its own; the
 *                   messages are zero-byte (vine__sched_sync_send/recv).
 *
 * The v collectives place blocks of any size anywhere in a buffer: the
 * tables scounts/sdispls (blocks of SEND) and rcounts/rdispls (blocks of
 * RECV) of vine_args, p entries each, in elements.  Blocks of one buffer
 * never overlap; they may come in any order, with gaps between them, and
 * count 0.  A schedule never writes a gap of RECV (MPI leaves the receive
 * buffer outside the blocks alone), and reads SEND only inside its blocks.
 * "The size" of a buffer below is the end of its last block,
 * max_i (displs[i] + counts[i]).
 *
 *   allgatherv      rcounts[i]: rank i's block, the same table on every rank;
 *                   rdispls[i]: where it lies in this rank's RECV.  SEND
 *                   [rcounts[rank]] input, or RECV[rdispls[rank], +
 *                   rcounts[rank]) when inplace.  Result: RECV[rdispls[i],
 *                   +rcounts[i]) holds rank i's input, on every rank.
 *   gatherv         rcounts[i]: rank i's block; rdispls (read at the root
 *                   only): its place in the root's RECV.  SEND[rcounts[rank]]
 *                   input, or, with inplace at the root, RECV[rdispls[root],
 *                   +rcounts[root]) (no SEND there).  RECV at the root only.
 *                   Result: the root's RECV[rdispls[i], +rcounts[i]) holds
 *                   rank i's input.  At run time a rank other than the root
 *                   knows rcounts[rank] only (the other entries are 0), unless
 *                   the algorithm is marked VINE_ALGO_ALLCOUNTS: then the API
 *                   layer first broadcasts the root's table to every rank.
 *   scatterv        scounts[i]: rank i's block, sdispls (read at the root
 *                   only): its place in the root's SEND, the input (size 0
 *                   elsewhere).  RECV[scounts[rank]] on every rank except the
 *                   root with inplace (size 0).  Result: RECV[0, scounts[rank])
 *                   = the root's SEND[sdispls[rank], +scounts[rank]).  Run-time
 *                   knowledge of scounts as for gatherv.
 *   alltoallv       the four tables are this rank's row of p x p tables (see
 *   alltoallw       vine__args_row: the verifier holds every rank's): block i
 *                   of SEND, SEND[sdispls[i], +scounts[i]), goes to rank i;
 *                   block i of RECV, RECV[rdispls[i], +rcounts[i]), comes
 *                   from rank i, so rcounts[i] of rank r = scounts[r] of rank
 *                   i.  SEND is the input.  Result: RECV[rdispls[i], +
 *                   rcounts[i]) = rank i's SEND[sdispls_i[rank], +...).  No
 *                   inplace (the API layer copies an MPI_IN_PLACE input into
 *                   scratch).  alltoallw runs on bytes with the same layout:
 *                   the API layer turns its per-peer datatypes into byte
 *                   blocks.
 *   scan            SEND[count] input, or RECV[0,count) when inplace.
 *                   RECV[count].  Result: RECV[0,count) = x_0 op ... op
 *                   x_rank, in rank order for a non-commutative op.
 *   exscan          the same, with result x_0 op ... op x_{rank-1} on ranks
 *                   1..p-1; rank 0's RECV is left undefined (it may be used
 *                   as scratch, it is not checked).
 *
 * allgatherv, gatherv, scatterv, alltoallv and alltoallw run on bytes like
 * the data-movement collectives above (count and the tables in bytes).
 *
 * The data-movement collectives (bcast, allgather, alltoall, gather, scatter)
 * run on bytes: the API layer passes count in bytes and packs non-contiguous
 * datatypes once into scratch, so their builders never see a datatype.
 *
 * Element e of a reduction result must combine element e of every rank's
 * input exactly once; for a non-commutative op the operands must appear in
 * rank order (any association).
 */
#ifndef VINE_COLL_H
#define VINE_COLL_H

#include "../sched/sched.h"
#include "levels.h"
#include "vine/types.h"

#include <stddef.h>

typedef struct vine_args {
    vine_coll coll;
    int p;                /* communicator size, >= 1 */
    int rank;             /* 0 <= rank < p */
    int root;             /* rooted collectives; 0 otherwise */
    /*
     * The collective's count argument (see above).  The v collectives'
     * builders do not read it (their tables hold the sizes); the API layer
     * sets it above INT_MAX when the MPI library's classic interface cannot
     * take the call's tables, so that "mpi" does not admit it, and the
     * verifier draws the tables from it.
     */
    size_t count;
    const size_t *counts; /* reduce_scatter(_block): p entries; NULL otherwise */
    const size_t *displs; /* reduce_scatter(_block): p + 1 prefix sums */
    /*
     * The v collectives (the layouts above): blocks of SEND (scounts,
     * sdispls) and of RECV (rcounts, rdispls), p entries each; NULL where a
     * collective has no such table.  vstride: alltoallv and alltoallw read
     * row a->rank of p x p tables (vine__args_row): 0 at run time, where the
     * tables are the rank's own; p in the verifier and the simulator, which
     * hold every rank's row.
     */
    const size_t *scounts, *sdispls, *rcounts, *rdispls;
    size_t vstride;
    int inplace;          /* MPI_IN_PLACE was given (where the layout allows) */
    int commutative;      /* the op is commutative */
    size_t seg_count;     /* segment size in elements for pipelined builders; 0: none */
    /*
     * Levels of locality (levels.h), finished, for p ranks; NULL: flat, no
     * information.  Only the hierarchical builders (VINE_ALGO_LEVELS) read it.
     */
    const vine_levels *levels;
    /*
     * The full map (levels.h) when levels lie inside the nodes (NUMA
     * domains, packages, caches; levels_full->node > 0), with the levels of
     * `levels` above them; NULL otherwise.  Only the builders that work on
     * any number of levels (VINE_ALGO_LEVELS_ANY) read it, through
     * vine__args_levels(); `levels` keeps level 0 the node for all others.
     */
    const vine_levels *levels_full;
    /*
     * Run flat algorithms on the ranks in block order of levels (remap.c):
     * ignored where it does not apply (see vine__remap_applies).
     */
    int remap;
    /*
     * Shared memory (the shm family, sched.h): the elements each rank's
     * region of the node segment holds, or 0 when the p ranks do not all
     * share one segment.  shm_single: peers' SEND and RECV buffers may be
     * read directly (GET from them), the single-copy transport.
     */
    size_t shm_count;
    int shm_single;
    /*
     * The elements of one parity slot (buffer VINE_BUF_PAR, sched.h), 0 when
     * there are none; only with shm_count.
     */
    size_t shm_par_count;
    /*
     * The hierarchical shm algorithms (VINE_ALGO_SHM_NODES): the elements of
     * each rank's region when the ranks of every node share a segment, 0
     * when they do not.  Peers of their shared-memory operations lie in the
     * rank's node (level 0 of levels).
     */
    size_t shm_node_count;
} vine_args;

typedef int (*vine_build_fn)(const vine_args *a, vine_sched *s);

/* Restriction flags of an algorithm. */
enum vine_algo_flags {
    VINE_ALGO_COMMUTATIVE = 1u << 0, /* needs a commutative op */
    VINE_ALGO_POW2 = 1u << 1,        /* needs p a power of two */
    VINE_ALGO_EVEN = 1u << 2,        /* needs p even */
    VINE_ALGO_GRAPH = 1u << 3,       /* needs VINE_BBS_GRAPH naming a graph of p nodes */
    VINE_ALGO_LEVELS = 1u << 4,      /* needs a level map with locality (vine_args.levels) */
    /*
     * The MPI library's own collective ("mpi"): no schedule and no builder.
     * The API layer hands the call to PMPI_<Coll>; the verifier, the
     * simulator and the schedule builders skip it.  Needs count to fit in an
     * int (the library's classic interface), unless VINE_ALGO_ANY_COUNT.
     */
    VINE_ALGO_MPI = 1u << 5,
    /* Shared memory: needs all p ranks on one node segment (vine_args.shm_count > 0). */
    VINE_ALGO_SHM = 1u << 6,
    /*
     * Shared memory in every node of a level map with locality: needs
     * shm_node_count > 0 and nodes (level 0) of one size (any sizes with
     * VINE_ALGO_SHM_UNEVEN).
     */
    VINE_ALGO_SHM_NODES = 1u << 7,
    /*
     * With VINE_ALGO_LEVELS: runs on any number of levels, so it takes the
     * levels inside the node too (vine_args.levels_full) when there are any.
     */
    VINE_ALGO_LEVELS_ANY = 1u << 8,
    /* With VINE_ALGO_SHM_NODES: nodes of any sizes will do. */
    VINE_ALGO_SHM_UNEVEN = 1u << 9,
    /*
     * gatherv and scatterv: every rank needs the root's table of counts
     * (the API layer broadcasts it before the schedule is built).
     */
    VINE_ALGO_ALLCOUNTS = 1u << 10,
    /*
     * The torus algorithms (torus.h): the ranks are a torus from the level
     * map (vine_args.levels), or one dimension of p without one; needs a map,
     * when there is one, whose groups are uniform.  Never remapped.
     */
    VINE_ALGO_TORUS = 1u << 11,
    /*
     * With VINE_ALGO_MPI: any count.  The data-movement collectives (count in
     * bytes) hand the MPI library the user's own counts, and a count above
     * INT_MAX as one element of a datatype made for it (vine__mpi_side).
     */
    VINE_ALGO_ANY_COUNT = 1u << 12
};

/* Whether c is one of the v collectives (tables scounts ... rdispls). */
static inline int vine__coll_is_v(int c)
{
    return c == VINE_COLL_ALLGATHERV || c == VINE_COLL_ALLTOALLV || c == VINE_COLL_ALLTOALLW ||
           c == VINE_COLL_GATHERV || c == VINE_COLL_SCATTERV;
}

/* Row rank of table t of a's v collective (t itself when vstride is 0). */
static inline const size_t *vine__args_row(const vine_args *a, const size_t *t, int rank)
{
    return t ? t + (size_t)rank * a->vstride : NULL;
}

/*
 * The size of a buffer holding p blocks: max_i (displs[i] + counts[i]), 0
 * when every count is 0.
 */
static inline size_t vine__vsize(int p, const size_t *counts, const size_t *displs)
{
    size_t n = 0;
    for (int i = 0; counts && displs && i < p; i++)
        if (counts[i] && displs[i] + counts[i] > n)
            n = displs[i] + counts[i];
    return n;
}

/*
 * The level map of a VINE_ALGO_LEVELS_ANY builder: levels_full when it is
 * there (and levels too), else levels.
 */
static inline const vine_levels *vine__args_levels(const vine_args *a)
{
    return a->levels && a->levels_full && a->levels_full->p == a->p ? a->levels_full : a->levels;
}

/* A copy of *a whose levels are vine__args_levels(a), for frames that read levels alone. */
static inline vine_args vine__args_all_levels(const vine_args *a)
{
    vine_args b = *a;
    b.levels = vine__args_levels(a);
    b.levels_full = NULL;
    return b;
}

typedef struct vine_algo {
    vine_coll coll;
    const char *name;
    unsigned flags;           /* enum vine_algo_flags */
    const char *restrictions; /* human-readable, "-" when none */
    const char *desc;         /* one line */
    vine_build_fn build;      /* NULL for VINE_ALGO_MPI */
} vine_algo;

/* Why `vine sim` has nothing to show of an shm algorithm. */
#define VINE_ALGO_SHM_WHY                                                                          \
    "shared memory inside one node moves no message over the network the simulator prices"

/* Why `vine verify`, `vine sim` and `vine dump` have nothing to show of an "mpi" algorithm. */
#define VINE_ALGO_MPI_WHY "the MPI library's own collective has no vine schedule"

/* The registry: every algorithm once, grouped by collective. */
extern const vine_algo vine__algos[];
extern const int vine__nalgos;

const char *vine__coll_name(vine_coll c);
/* Parses a collective name ("allreduce" ...); returns -1 when unknown. */
int vine__coll_parse(const char *name);
/* Finds an algorithm by collective and name; NULL when unknown. */
const vine_algo *vine__algo_find(vine_coll c, const char *name);
/* The i-th algorithm of collective c, or NULL past the end. */
const vine_algo *vine__algo_nth(vine_coll c, int i);
int vine__algo_count(vine_coll c);
/* VINE_OK when algo's restriction flags admit a, else VINE_ERR_UNSUPPORTED. */
int vine__algo_admits(const vine_algo *algo, const vine_args *a);
/*
 * Builds the schedule of a->rank: initialises s, checks the restrictions and
 * runs the builder.  On failure s is freed and the status returned.
 */
int vine__algo_build(const vine_algo *algo, const vine_args *a, vine_sched *s);
/* The same, recording messages only (vine_sched.msgs_only): for the simulator. */
int vine__algo_build_msgs(const vine_algo *algo, const vine_args *a, vine_sched *s);

/*
 * Remapping (remap.c; the Bine paper's section 2.2): a flat algorithm run on
 * the ranks in block order of the level map, so that its close partners are
 * close in the network too.  vine__remap_applies says whether a->remap asks
 * for it and it applies: a flat algorithm (no VINE_ALGO_LEVELS) of bcast,
 * reduce or allreduce with a commutative op, or barrier, whose data layout
 * does not depend on ranks; a ready map with locality that is not in block
 * order already.  vine__remap_build builds algo that way for a->rank.
 */
int vine__remap_applies(const vine_algo *algo, const vine_args *a);
int vine__remap_build(const vine_algo *algo, const vine_args *a, vine_sched *s);

/* Builders, one per file in src/coll/<coll>/<coll>_<algo>.c. */
#define VINE_BUILDER(coll, algo)                                                                   \
    int vine__##coll##_##algo##_build(const vine_args *a, vine_sched *s)
VINE_BUILDER(bcast, binomial);
VINE_BUILDER(bcast, binomial_doubling);
VINE_BUILDER(bcast, scatter_allgather_rd);
VINE_BUILDER(bcast, scatter_allgather_ring);
VINE_BUILDER(bcast, linear);
VINE_BUILDER(reduce, binomial);
VINE_BUILDER(reduce, rabenseifner);
VINE_BUILDER(reduce, linear);
VINE_BUILDER(allreduce, recursive_doubling);
VINE_BUILDER(allreduce, rabenseifner);
VINE_BUILDER(allreduce, binary_blocks);
VINE_BUILDER(allreduce, ring);
VINE_BUILDER(allreduce, reduce_bcast);
VINE_BUILDER(reduce_scatter, recursive_halving);
VINE_BUILDER(reduce_scatter, recursive_doubling);
VINE_BUILDER(reduce_scatter, pairwise);
VINE_BUILDER(reduce_scatter, ring);
VINE_BUILDER(allgather, recursive_doubling);
VINE_BUILDER(allgather, bruck);
VINE_BUILDER(allgather, ring);
VINE_BUILDER(alltoall, bruck);
VINE_BUILDER(alltoall, linear);
VINE_BUILDER(alltoall, pairwise);
VINE_BUILDER(gather, binomial);
VINE_BUILDER(gather, linear);
VINE_BUILDER(scatter, binomial);
VINE_BUILDER(scatter, linear);
VINE_BUILDER(barrier, dissemination);
/* Bine trees and butterflies (../shared/BINE.md; arithmetic in bine.h). */
VINE_BUILDER(bcast, bine);
VINE_BUILDER(bcast, bine_large);
/* Broadcast by Balanced Saturation on the graph of VINE_BBS_GRAPH (src/bbs/bbs.h). */
VINE_BUILDER(bcast, bbs);
/*
 * The number of nodes of the graph VINE_BBS_GRAPH names (read and parsed
 * once), or -1 when it is unset or cannot be read (bcast_bbs.c).
 */
int vine__bbs_env_nodes(void);
VINE_BUILDER(reduce, bine);
VINE_BUILDER(reduce, bine_large);
VINE_BUILDER(allreduce, bine);
VINE_BUILDER(allreduce, bine_large);
VINE_BUILDER(reduce_scatter, bine_permute);
VINE_BUILDER(reduce_scatter, bine_send);
VINE_BUILDER(reduce_scatter, bine_block);
VINE_BUILDER(allgather, bine_permute);
VINE_BUILDER(allgather, bine_send);
VINE_BUILDER(allgather, bine_block);
VINE_BUILDER(alltoall, bine);
VINE_BUILDER(gather, bine);
VINE_BUILDER(scatter, bine);
/* Hierarchical, on the level map of vine_args.levels (levels.h; docs/hierarchical.md). */
VINE_BUILDER(gather, leader);
VINE_BUILDER(scatter, leader);
VINE_BUILDER(bcast, hier);
VINE_BUILDER(bcast, hier_large);
VINE_BUILDER(allreduce, hier);
VINE_BUILDER(allreduce, hier_rd);
VINE_BUILDER(allreduce, hier_large);
VINE_BUILDER(allreduce, hier_rab);
VINE_BUILDER(reduce, hier);
VINE_BUILDER(reduce, hier_large);
VINE_BUILDER(allgather, hier);
VINE_BUILDER(gather, leader_bine);
VINE_BUILDER(scatter, leader_bine);
/* Shared memory inside one node (VINE_ALGO_SHM; src/coll/shm, docs/shm.md). */
VINE_BUILDER(barrier, shm);
VINE_BUILDER(bcast, shm);
VINE_BUILDER(reduce, shm);
VINE_BUILDER(allreduce, shm);
VINE_BUILDER(reduce_scatter, shm);
VINE_BUILDER(allgather, shm);
VINE_BUILDER(gather, shm);
VINE_BUILDER(scatter, shm);
VINE_BUILDER(alltoall, shm);
VINE_BUILDER(allgatherv, shm);
VINE_BUILDER(gatherv, shm);
VINE_BUILDER(alltoallv, shm);
VINE_BUILDER(scatterv, shm);
/* shm in the nodes, a point-to-point algorithm across them (VINE_ALGO_SHM_NODES). */
VINE_BUILDER(allreduce, hier_shm);
VINE_BUILDER(bcast, hier_shm);
VINE_BUILDER(reduce, hier_shm);
VINE_BUILDER(gather, leader_shm);
VINE_BUILDER(scatter, leader_shm);
/* The v collectives and the scans (issue 20). */
VINE_BUILDER(allgatherv, ring);
VINE_BUILDER(allgatherv, recursive_doubling);
VINE_BUILDER(allgatherv, bruck);
VINE_BUILDER(allgatherv, bine_block);
VINE_BUILDER(alltoallv, pairwise); /* alltoallw too: the same layout on bytes */
VINE_BUILDER(alltoallv, linear);
VINE_BUILDER(gatherv, linear);
VINE_BUILDER(gatherv, binomial);
VINE_BUILDER(scatterv, linear);
VINE_BUILDER(scatterv, binomial);
VINE_BUILDER(scan, recursive_doubling);
VINE_BUILDER(scan, linear);
VINE_BUILDER(exscan, recursive_doubling);
VINE_BUILDER(exscan, linear);
/* The torus algorithms (VINE_ALGO_TORUS; torus.h, issue 23). */
VINE_BUILDER(allreduce, swing);
VINE_BUILDER(reduce_scatter, swing);
VINE_BUILDER(allgather, swing);
VINE_BUILDER(allreduce, bucket);
VINE_BUILDER(reduce_scatter, bucket);
VINE_BUILDER(allgather, bucket);
VINE_BUILDER(allreduce, bine_torus);
VINE_BUILDER(allreduce, bine_torus_multiport);
VINE_BUILDER(reduce_scatter, bine_torus);
VINE_BUILDER(allgather, bine_torus);
VINE_BUILDER(bcast, bine_torus);
VINE_BUILDER(reduce, bine_torus);
VINE_BUILDER(reduce_scatter, bine_torus_multiport);
VINE_BUILDER(allgather, bine_torus_multiport);
VINE_BUILDER(bcast, bine_torus_multiport);
VINE_BUILDER(reduce, bine_torus_multiport);

#endif
