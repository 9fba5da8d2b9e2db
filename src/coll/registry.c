/*
 * The algorithm registry: every algorithm once, with its restrictions, a
 * one-line description and its builder.  The selector, the executor, the
 * verifier, `vine list` and the tests all read this table.
 */
#include "coll.h"
#include "ranks.h"
#include "torus.h"

#include <limits.h>
#include <string.h>

#define C VINE_ALGO_COMMUTATIVE
/* reduce_scatter_block runs the reduce_scatter builders with equal counts. */
#define RSB(name, flags, restr, desc)                                                              \
    {                                                                                              \
        VINE_COLL_REDUCE_SCATTER_BLOCK, #name, flags, restr, desc,                                 \
            vine__reduce_scatter_##name##_build                                                    \
    }

/* The MPI library's collective: served through PMPI_<Coll> by the API layer, no builder. */
#define MPI_ALGO(coll)                                                                             \
    {                                                                                              \
        coll, "mpi", VINE_ALGO_MPI, "counts up to INT_MAX",                                        \
            "the MPI library's own collective (PMPI), no vine schedule", NULL                      \
    }
/* The same for the data-movement collectives, which give it any count. */
#define MPI_ALGO_ANY(coll)                                                                         \
    {                                                                                              \
        coll, "mpi", VINE_ALGO_MPI | VINE_ALGO_ANY_COUNT, "-",                                     \
            "the MPI library's own collective (PMPI), no vine schedule", NULL                      \
    }

const vine_algo vine__algos[] = {
    {VINE_COLL_BCAST, "binomial", 0, "-", "binomial tree, distance halving (MPICH)",
     vine__bcast_binomial_build},
    {VINE_COLL_BCAST, "binomial_doubling", 0, "-", "binomial tree, distance doubling (Open MPI)",
     vine__bcast_binomial_doubling_build},
    {VINE_COLL_BCAST, "scatter_allgather_rd", 0, "-",
     "binomial scatter, recursive-doubling allgather (van de Geijn)",
     vine__bcast_scatter_allgather_rd_build},
    {VINE_COLL_BCAST, "scatter_allgather_ring", 0, "-",
     "binomial scatter, ring allgather (van de Geijn)", vine__bcast_scatter_allgather_ring_build},
    {VINE_COLL_BCAST, "linear", 0, "-", "root sends to every rank", vine__bcast_linear_build},
    {VINE_COLL_BCAST, "bine", 0, "-", "distance-halving Bine tree, pruned for any p",
     vine__bcast_bine_build},
    {VINE_COLL_BCAST, "bine_large", 0, "-",
     "Bine scatter on the distance-doubling tree, then distance-halving allgather",
     vine__bcast_bine_large_build},
    {VINE_COLL_BCAST, "bbs", VINE_ALGO_GRAPH, "VINE_BBS_GRAPH with p nodes",
     "Broadcast by Balanced Saturation on a network graph, packets as segments",
     vine__bcast_bbs_build},

    {VINE_COLL_REDUCE, "binomial", 0, "-", "binomial tree, keeps operand order",
     vine__reduce_binomial_build},
    {VINE_COLL_REDUCE, "rabenseifner", C, "commutative op",
     "recursive-halving reduce-scatter (nearest first), then gather to the root",
     vine__reduce_rabenseifner_build},
    {VINE_COLL_REDUCE, "linear", 0, "-", "root receives from every rank and reduces in order",
     vine__reduce_linear_build},
    {VINE_COLL_REDUCE, "bine", C, "commutative op", "the mirrored distance-halving Bine tree",
     vine__reduce_bine_build},
    {VINE_COLL_REDUCE, "bine_large", C, "commutative op",
     "Bine reduce-scatter (distance doubling), then distance-halving gather",
     vine__reduce_bine_large_build},

    {VINE_COLL_ALLREDUCE, "recursive_doubling", 0, "-",
     "recursive doubling on the whole vector, fold for non-powers of two",
     vine__allreduce_recursive_doubling_build},
    {VINE_COLL_ALLREDUCE, "rabenseifner", C, "commutative op",
     "recursive-halving reduce-scatter + allgather, nearest partner first, with fold",
     vine__allreduce_rabenseifner_build},
    {VINE_COLL_ALLREDUCE, "binary_blocks", C, "commutative op",
     "Rabenseifner's binary blocks: halving-doubling inside power-of-two blocks",
     vine__allreduce_binary_blocks_build},
    {VINE_COLL_ALLREDUCE, "ring", C, "commutative op", "ring reduce-scatter + ring allgather",
     vine__allreduce_ring_build},
    {VINE_COLL_ALLREDUCE, "reduce_bcast", 0, "-", "binomial reduce to rank 0, then binomial bcast",
     vine__allreduce_reduce_bcast_build},
    {VINE_COLL_ALLREDUCE, "bine", C, "commutative op",
     "Bine butterfly on the whole vector (distance halving), fold for other p",
     vine__allreduce_bine_build},
    {VINE_COLL_ALLREDUCE, "bine_large", C, "commutative op",
     "Bine reduce-scatter + allgather on contiguous blocks (nu), no reordering",
     vine__allreduce_bine_large_build},

    {VINE_COLL_REDUCE_SCATTER, "recursive_halving", C, "commutative op",
     "recursive vector halving, distance doubling, with fold",
     vine__reduce_scatter_recursive_halving_build},
    {VINE_COLL_REDUCE_SCATTER, "recursive_doubling", 0, "-",
     "recursive doubling on the whole vector (non-commutative ops)",
     vine__reduce_scatter_recursive_doubling_build},
    {VINE_COLL_REDUCE_SCATTER, "pairwise", C, "commutative op",
     "p-1 pairwise exchanges, send to rank+i, receive from rank-i",
     vine__reduce_scatter_pairwise_build},
    {VINE_COLL_REDUCE_SCATTER, "ring", C, "commutative op", "ring of p-1 neighbour steps",
     vine__reduce_scatter_ring_build},
    {VINE_COLL_REDUCE_SCATTER, "bine_permute", C, "commutative op",
     "Bine butterfly reduce-scatter, blocks permuted locally into rank order",
     vine__reduce_scatter_bine_permute_build},
    {VINE_COLL_REDUCE_SCATTER, "bine_send", C, "commutative op",
     "Bine butterfly reduce-scatter, one extra exchange into rank order",
     vine__reduce_scatter_bine_send_build},
    {VINE_COLL_REDUCE_SCATTER, "bine_block", C, "commutative op",
     "Bine butterfly block by block, no fold for even p", vine__reduce_scatter_bine_block_build},

    RSB(recursive_halving, C, "commutative op",
        "recursive vector halving, distance doubling, with fold"),
    RSB(recursive_doubling, 0, "-", "recursive doubling on the whole vector (non-commutative ops)"),
    RSB(pairwise, C, "commutative op",
        "p-1 pairwise exchanges, send to rank+i, receive from rank-i"),
    RSB(ring, C, "commutative op", "ring of p-1 neighbour steps"),
    RSB(bine_permute, C, "commutative op",
        "Bine butterfly reduce-scatter, blocks permuted locally into rank order"),
    RSB(bine_send, C, "commutative op",
        "Bine butterfly reduce-scatter, one extra exchange into rank order"),
    RSB(bine_block, C, "commutative op", "Bine butterfly block by block, no fold for even p"),

    {VINE_COLL_ALLGATHER, "recursive_doubling", 0, "-",
     "recursive doubling; non-powers of two by a subtree fix-up (MPICH)",
     vine__allgather_recursive_doubling_build},
    {VINE_COLL_ALLGATHER, "bruck", 0, "-", "Bruck's ceil(log2 p) steps, then a local rotation",
     vine__allgather_bruck_build},
    {VINE_COLL_ALLGATHER, "ring", 0, "-", "p-1 steps to the right-hand neighbour",
     vine__allgather_ring_build},
    {VINE_COLL_ALLGATHER, "bine_permute", 0, "-",
     "Bine butterfly allgather (distance halving), blocks permuted locally",
     vine__allgather_bine_permute_build},
    {VINE_COLL_ALLGATHER, "bine_send", 0, "-",
     "Bine butterfly allgather after one exchange out of rank order",
     vine__allgather_bine_send_build},
    {VINE_COLL_ALLGATHER, "bine_block", 0, "-", "Bine butterfly block by block, no fold for even p",
     vine__allgather_bine_block_build},

    {VINE_COLL_ALLTOALL, "bruck", 0, "-",
     "Bruck's index algorithm: ceil(log2 p) steps of store and forward",
     vine__alltoall_bruck_build},
    {VINE_COLL_ALLTOALL, "linear", 0, "-",
     "every receive and send posted at once, peers in rank-rotated order",
     vine__alltoall_linear_build},
    {VINE_COLL_ALLTOALL, "pairwise", 0, "-",
     "p-1 exchanges: XOR partner for powers of two, else send rank+i, receive rank-i",
     vine__alltoall_pairwise_build},
    {VINE_COLL_ALLTOALL, "bine", 0, "-",
     "ceil(log2 p) Bine butterfly steps of about p/2 blocks, placed as they arrive; odd p folds",
     vine__alltoall_bine_build},

    {VINE_COLL_GATHER, "binomial", 0, "-", "binomial tree towards the root (MPICH)",
     vine__gather_binomial_build},
    {VINE_COLL_GATHER, "linear", 0, "-", "root receives from every rank",
     vine__gather_linear_build},
    {VINE_COLL_GATHER, "bine", 0, "-", "the mirrored distance-halving Bine tree, pruned for any p",
     vine__gather_bine_build},

    {VINE_COLL_SCATTER, "binomial", 0, "-", "binomial tree from the root (MPICH)",
     vine__scatter_binomial_build},
    {VINE_COLL_SCATTER, "linear", 0, "-", "root sends to every rank", vine__scatter_linear_build},
    {VINE_COLL_SCATTER, "bine", 0, "-", "distance-halving Bine tree, pruned for any p",
     vine__scatter_bine_build},

    {VINE_COLL_BARRIER, "dissemination", 0, "-",
     "ceil(log2 p) rounds: send to rank+2^k, receive from rank-2^k",
     vine__barrier_dissemination_build},

/* Hierarchical, on a level map (levels.h, docs/hierarchical.md).  A: on any
 * number of levels, those inside the node included (levels_full). */
#define A VINE_ALGO_LEVELS_ANY
    {VINE_COLL_GATHER, "leader", VINE_ALGO_LEVELS | A, "level map",
     "gather to the group leaders level by level, binomial among the leaders",
     vine__gather_leader_build},
    {VINE_COLL_SCATTER, "leader", VINE_ALGO_LEVELS | A, "level map",
     "scatter from the group leaders level by level, binomial among the leaders",
     vine__scatter_leader_build},
    {VINE_COLL_GATHER, "leader_bine", VINE_ALGO_LEVELS | A, "level map",
     "gather to the group leaders level by level, a Bine tree inside every stage",
     vine__gather_leader_bine_build},
    {VINE_COLL_SCATTER, "leader_bine", VINE_ALGO_LEVELS | A, "level map",
     "scatter from the group leaders level by level, a Bine tree inside every stage",
     vine__scatter_leader_bine_build},
    {VINE_COLL_BCAST, "hier", VINE_ALGO_LEVELS | A, "level map",
     "binomial broadcast level by level, from the top groups down to the nodes",
     vine__bcast_hier_build},
    {VINE_COLL_BCAST, "hier_large", VINE_ALGO_LEVELS | A, "level map",
     "scatter in the root's node, bcast bine_large of each block across nodes, ring allgather "
     "in the node",
     vine__bcast_hier_large_build},
    {VINE_COLL_REDUCE, "hier", C | VINE_ALGO_LEVELS | A, "commutative op, level map",
     "binomial reduce level by level, from the nodes up to the top groups",
     vine__reduce_hier_build},
    {VINE_COLL_REDUCE, "hier_large", C | VINE_ALGO_LEVELS | A, "commutative op, level map",
     "ring reduce-scatter in the node, reduce bine_large of each block across nodes, blocks "
     "to the root",
     vine__reduce_hier_large_build},
    {VINE_COLL_ALLGATHER, "hier", VINE_ALGO_LEVELS | A, "level map",
     "gather to the top leaders level by level, Bruck among them, broadcast down the groups",
     vine__allgather_hier_build},
    {VINE_COLL_ALLREDUCE, "hier", C | VINE_ALGO_LEVELS | A, "commutative op, level map",
     "ring reduce-scatter in the node, Bine butterfly across nodes, ring allgather in the node",
     vine__allreduce_hier_build},
    {VINE_COLL_ALLREDUCE, "hier_rd", C | VINE_ALGO_LEVELS | A, "commutative op, level map",
     "ring reduce-scatter in the node, recursive doubling across nodes, ring allgather in the node",
     vine__allreduce_hier_rd_build},
    {VINE_COLL_ALLREDUCE, "hier_large", C | VINE_ALGO_LEVELS | A, "commutative op, level map",
     "ring reduce-scatter in the node, Bine reduce-scatter + allgather across nodes, ring "
     "allgather in the node",
     vine__allreduce_hier_large_build},
    {VINE_COLL_ALLREDUCE, "hier_rab", C | VINE_ALGO_LEVELS | A, "commutative op, level map",
     "ring reduce-scatter in the node, Rabenseifner across nodes, ring allgather in the node",
     vine__allreduce_hier_rab_build},
#undef A

/* Shared memory inside one node (src/coll/shm, docs/shm.md). */
#define S VINE_ALGO_SHM
#define SHM_R "one node segment"
    {VINE_COLL_BARRIER, "shm", S, SHM_R,
     "flags: arrival tree of fan-in 8, release by rank 0's flag", vine__barrier_shm_build},
    {VINE_COLL_BCAST, "shm", S, SHM_R,
     "root copies chunks into its region, all read them (or its buffer, single copy)",
     vine__bcast_shm_build},
    {VINE_COLL_REDUCE, "shm", S, SHM_R,
     "rank j reduces part j of each chunk from all regions, the root reads the parts",
     vine__reduce_shm_build},
    {VINE_COLL_ALLREDUCE, "shm", S, SHM_R,
     "rank j reduces part j of each chunk from all regions, all read the parts",
     vine__allreduce_shm_build},
    {VINE_COLL_REDUCE_SCATTER, "shm", S, SHM_R,
     "each rank reduces its block from all regions, chunks dealt round-robin",
     vine__reduce_scatter_shm_build},
    RSB(shm, S, SHM_R, "each rank reduces its block from all regions, chunks dealt round-robin"),
    {VINE_COLL_ALLGATHER, "shm", S, SHM_R,
     "every rank copies its block into its region, all read all (or single copy)",
     vine__allgather_shm_build},
    {VINE_COLL_ALLTOALL, "shm", S, SHM_R,
     "every rank streams its blocks through its region, each reads its own (or single copy)",
     vine__alltoall_shm_build},
    {VINE_COLL_GATHER, "shm", S, SHM_R,
     "every rank copies its block into its region, the root reads all (or single copy)",
     vine__gather_shm_build},
    {VINE_COLL_SCATTER, "shm", S, SHM_R,
     "root streams the blocks through its region, each rank reads its own (or single copy)",
     vine__scatter_shm_build},
    {VINE_COLL_ALLREDUCE, "hier_shm", C | VINE_ALGO_LEVELS | VINE_ALGO_SHM_NODES,
     "commutative op, levels, nodes of one size, a segment in every node",
     "shm reduce-scatter in the node, Bine allreduce (bine_large) across nodes, shm allgather",
     vine__allreduce_hier_shm_build},
#define SN (VINE_ALGO_LEVELS | VINE_ALGO_SHM_NODES)
    {VINE_COLL_BCAST, "hier_shm", SN | VINE_ALGO_SHM_UNEVEN, "levels, a segment in every node",
     "Bine bcast (bine_large when long) among the nodes, shm bcast in every node",
     vine__bcast_hier_shm_build},
    {VINE_COLL_REDUCE, "hier_shm", C | SN | VINE_ALGO_SHM_UNEVEN,
     "commutative op, levels, a segment in every node",
     "shm reduce in every node, Bine reduce (bine_large when long) among the nodes",
     vine__reduce_hier_shm_build},
    {VINE_COLL_GATHER, "leader_shm", SN | VINE_ALGO_SHM_UNEVEN, "levels, a segment in every node",
     "shm gather in every node, gather leader among the nodes", vine__gather_leader_shm_build},
    {VINE_COLL_SCATTER, "leader_shm", SN | VINE_ALGO_SHM_UNEVEN, "levels, a segment in every node",
     "scatter leader among the nodes, shm scatter in every node", vine__scatter_leader_shm_build},
#undef SN
#undef S
#undef SHM_R

/* The torus algorithms (torus.h, docs/torus.md): the torus of a uniform level map, or one
 * dimension of p without a map. */
#define T VINE_ALGO_TORUS
#define TORUS_R "uniform level map or none"
    {VINE_COLL_ALLREDUCE, "swing", C | T, "commutative op, " TORUS_R,
     "Swing butterfly through the torus dimensions in turn, contiguous blocks, fold per dimension",
     vine__allreduce_swing_build},
    {VINE_COLL_REDUCE_SCATTER, "swing", C | T, "commutative op, " TORUS_R,
     "Swing butterfly through the torus dimensions in turn, blocks in place unless folding",
     vine__reduce_scatter_swing_build},
    RSB(swing, C | T, "commutative op, " TORUS_R,
        "Swing butterfly through the torus dimensions in turn, blocks in place unless folding"),
    {VINE_COLL_ALLGATHER, "swing", T, TORUS_R,
     "Swing butterfly through the torus dimensions in turn, blocks in place unless folding",
     vine__allgather_swing_build},
    {VINE_COLL_ALLREDUCE, "bucket", C | T, "commutative op, " TORUS_R,
     "multidimensional ring: ring reduce-scatter per torus dimension, allgathers back",
     vine__allreduce_bucket_build},
    {VINE_COLL_REDUCE_SCATTER, "bucket", C | T, "commutative op, " TORUS_R,
     "multidimensional ring: ring reduce-scatter per torus dimension in turn",
     vine__reduce_scatter_bucket_build},
    RSB(bucket, C | T, "commutative op, " TORUS_R,
        "multidimensional ring: ring reduce-scatter per torus dimension in turn"),
    {VINE_COLL_ALLGATHER, "bucket", T, TORUS_R,
     "multidimensional ring: ring allgather per torus dimension, the last first",
     vine__allgather_bucket_build},
    {VINE_COLL_ALLREDUCE, "bine_torus", C | T, "commutative op, " TORUS_R,
     "Bine reduce-scatter per torus dimension in turn, Bine allgathers back",
     vine__allreduce_bine_torus_build},
    {VINE_COLL_ALLREDUCE, "bine_torus_multiport", C | T, "commutative op, " TORUS_R,
     "bine_torus on 2D parts side by side, one per dimension and direction (port)",
     vine__allreduce_bine_torus_multiport_build},
    {VINE_COLL_REDUCE_SCATTER, "bine_torus", C | T, "commutative op, " TORUS_R,
     "Bine block butterfly per torus dimension in turn, blocks in rank order",
     vine__reduce_scatter_bine_torus_build},
    RSB(bine_torus, C | T, "commutative op, " TORUS_R,
        "Bine block butterfly per torus dimension in turn, blocks in rank order"),
    {VINE_COLL_ALLGATHER, "bine_torus", T, TORUS_R,
     "Bine block butterfly per torus dimension, the last first", vine__allgather_bine_torus_build},
    {VINE_COLL_BCAST, "bine_torus", T, TORUS_R,
     "Bine tree along each torus dimension in turn from the root's line",
     vine__bcast_bine_torus_build},
    {VINE_COLL_REDUCE, "bine_torus", C | T, "commutative op, " TORUS_R,
     "mirrored Bine tree along each torus dimension, the last first, to the root",
     vine__reduce_bine_torus_build},
    {VINE_COLL_REDUCE_SCATTER, "bine_torus_multiport", C | T, "commutative op, " TORUS_R,
     "bine_torus butterflies on 2D parts side by side (slice k of every block), one per port",
     vine__reduce_scatter_bine_torus_multiport_build},
    RSB(bine_torus_multiport, C | T, "commutative op, " TORUS_R,
        "bine_torus butterflies on 2D parts side by side (slice k of every block), one per port"),
    {VINE_COLL_ALLGATHER, "bine_torus_multiport", T, TORUS_R,
     "bine_torus butterflies on 2D parts side by side (slice k of every block), one per port",
     vine__allgather_bine_torus_multiport_build},
    {VINE_COLL_BCAST, "bine_torus_multiport", T, TORUS_R,
     "bcast bine_torus on 2D parts side by side, one per dimension and direction (port)",
     vine__bcast_bine_torus_multiport_build},
    {VINE_COLL_REDUCE, "bine_torus_multiport", C | T, "commutative op, " TORUS_R,
     "reduce bine_torus on 2D parts side by side, one per dimension and direction (port)",
     vine__reduce_bine_torus_multiport_build},
#undef TORUS_R
#undef T

    /* The MPI library's own collective of each (docs/selection.md). */
    MPI_ALGO_ANY(VINE_COLL_BCAST),
    MPI_ALGO(VINE_COLL_REDUCE),
    MPI_ALGO(VINE_COLL_ALLREDUCE),
    MPI_ALGO(VINE_COLL_REDUCE_SCATTER),
    MPI_ALGO(VINE_COLL_REDUCE_SCATTER_BLOCK),
    MPI_ALGO_ANY(VINE_COLL_ALLGATHER),
    MPI_ALGO_ANY(VINE_COLL_ALLTOALL),
    MPI_ALGO_ANY(VINE_COLL_GATHER),
    MPI_ALGO_ANY(VINE_COLL_SCATTER),
    MPI_ALGO_ANY(VINE_COLL_BARRIER),

    {VINE_COLL_ALLGATHERV, "ring", 0, "-", "ring: p-1 steps, each passes one rank's block on",
     vine__allgatherv_ring_build},
    {VINE_COLL_ALLGATHERV, "recursive_doubling", 0, "-",
     "recursive doubling on irregular blocks, fold for non-powers of two",
     vine__allgatherv_recursive_doubling_build},
    {VINE_COLL_ALLGATHERV, "bruck", 0, "-", "Bruck's ceil(log2 p) rounds on irregular blocks",
     vine__allgatherv_bruck_build},
    {VINE_COLL_ALLGATHERV, "bine_block", 0, "-",
     "Bine butterfly on contiguous irregular blocks (distance halving)",
     vine__allgatherv_bine_block_build},
    {VINE_COLL_ALLGATHERV, "shm", VINE_ALGO_SHM, "one node segment",
     "every rank copies its block into its region, all read all (allgather shm's schedule)",
     vine__allgatherv_shm_build},
    MPI_ALGO(VINE_COLL_ALLGATHERV),

    {VINE_COLL_ALLTOALLV, "pairwise", 0, "-", "p-1 rounds, one send and one receive each",
     vine__alltoallv_pairwise_build},
    {VINE_COLL_ALLTOALLV, "linear", 0, "-",
     "scattered: rounds of at most 32 peers, all sends and receives of a round at once",
     vine__alltoallv_linear_build},
    {VINE_COLL_ALLTOALLV, "shm", VINE_ALGO_SHM, "one node segment",
     "each block through its part of the writer's eager slot or region, read by its rank",
     vine__alltoallv_shm_build},
    MPI_ALGO(VINE_COLL_ALLTOALLV),
    {VINE_COLL_ALLTOALLW, "pairwise", 0, "-", "p-1 rounds, one send and one receive each",
     vine__alltoallv_pairwise_build},
    {VINE_COLL_ALLTOALLW, "linear", 0, "-",
     "scattered: rounds of at most 32 peers, all sends and receives of a round at once",
     vine__alltoallv_linear_build},
    {VINE_COLL_ALLTOALLW, "shm", VINE_ALGO_SHM, "one node segment",
     "each block through its part of the writer's eager slot or region, read by its rank",
     vine__alltoallv_shm_build},
    MPI_ALGO(VINE_COLL_ALLTOALLW),

    {VINE_COLL_GATHERV, "linear", 0, "-", "root receives every rank's block at once",
     vine__gatherv_linear_build},
    {VINE_COLL_GATHERV, "binomial", VINE_ALGO_ALLCOUNTS, "counts broadcast first",
     "binomial tree carrying each subtree's blocks", vine__gatherv_binomial_build},
    {VINE_COLL_GATHERV, "shm", VINE_ALGO_SHM, "one node segment",
     "each block through its writer's eager slot or region, the root reads all",
     vine__gatherv_shm_build},
    MPI_ALGO(VINE_COLL_GATHERV),
    {VINE_COLL_SCATTERV, "linear", 0, "-", "root sends every rank its block at once",
     vine__scatterv_linear_build},
    {VINE_COLL_SCATTERV, "binomial", VINE_ALGO_ALLCOUNTS, "counts broadcast first",
     "binomial tree carrying each subtree's blocks", vine__scatterv_binomial_build},
    {VINE_COLL_SCATTERV, "shm", VINE_ALGO_SHM, "one node segment",
     "small blocks through parts of the root's eager slot, large ones as messages",
     vine__scatterv_shm_build},
    MPI_ALGO(VINE_COLL_SCATTERV),

    {VINE_COLL_SCAN, "recursive_doubling", 0, "-",
     "recursive doubling of partial prefixes, operands in rank order",
     vine__scan_recursive_doubling_build},
    {VINE_COLL_SCAN, "linear", 0, "-", "a chain: each rank adds its input and passes on",
     vine__scan_linear_build},
    MPI_ALGO(VINE_COLL_SCAN),
    {VINE_COLL_EXSCAN, "recursive_doubling", 0, "-",
     "recursive doubling of partial prefixes, operands in rank order",
     vine__exscan_recursive_doubling_build},
    {VINE_COLL_EXSCAN, "linear", 0, "-", "a chain: each rank passes on the prefix so far",
     vine__exscan_linear_build},
    MPI_ALGO(VINE_COLL_EXSCAN),
};
#undef C
#undef RSB
#undef MPI_ALGO
#undef MPI_ALGO_ANY

const int vine__nalgos = (int)(sizeof vine__algos / sizeof vine__algos[0]);

static const char *coll_names[VINE_COLL_COUNT] = {
    "bcast",     "reduce",   "allreduce", "allgather", "reduce_scatter", "reduce_scatter_block",
    "alltoall",  "gather",   "scatter",   "barrier",   "allgatherv",     "alltoallv",
    "alltoallw", "gatherv",  "scatterv",  "scan",      "exscan"};

const char *vine__coll_name(vine_coll c)
{
    return (int)c >= 0 && c < VINE_COLL_COUNT ? coll_names[c] : "unknown";
}

int vine__coll_parse(const char *name)
{
    for (int c = 0; c < VINE_COLL_COUNT; c++)
        if (name && strcmp(name, coll_names[c]) == 0)
            return c;
    return -1;
}

const vine_algo *vine__algo_find(vine_coll c, const char *name)
{
    for (int i = 0; name && i < vine__nalgos; i++)
        if (vine__algos[i].coll == c && strcmp(vine__algos[i].name, name) == 0)
            return &vine__algos[i];
    return NULL;
}

const vine_algo *vine__algo_nth(vine_coll c, int n)
{
    for (int i = 0; i < vine__nalgos; i++)
        if (vine__algos[i].coll == c && n-- == 0)
            return &vine__algos[i];
    return NULL;
}

int vine__algo_count(vine_coll c)
{
    int n = 0;
    for (int i = 0; i < vine__nalgos; i++)
        n += vine__algos[i].coll == c;
    return n;
}

/* Whether a's level map has nodes (level 0) of one size. */
static int equal_nodes(const vine_args *a)
{
    if (!vine__levels_ready(a->levels, a->p))
        return 0;
    int n = vine__levels_ngroups(a->levels, 0);
    for (int g = 1; g < n; g++)
        if (vine__levels_size(a->levels, 0, g) != vine__levels_size(a->levels, 0, 0))
            return 0;
    return 1;
}

int vine__algo_admits(const vine_algo *algo, const vine_args *a)
{
    if ((algo->flags & VINE_ALGO_COMMUTATIVE) && !a->commutative)
        return VINE_ERR_UNSUPPORTED;
    if ((algo->flags & VINE_ALGO_POW2) && !vine__is_pow2(a->p))
        return VINE_ERR_UNSUPPORTED;
    if ((algo->flags & VINE_ALGO_EVEN) && a->p % 2)
        return VINE_ERR_UNSUPPORTED;
    if ((algo->flags & VINE_ALGO_GRAPH) && vine__bbs_env_nodes() != a->p)
        return VINE_ERR_UNSUPPORTED;
    if ((algo->flags & VINE_ALGO_MPI) && !(algo->flags & VINE_ALGO_ANY_COUNT) && a->count > INT_MAX)
        return VINE_ERR_UNSUPPORTED;
    if ((algo->flags & VINE_ALGO_SHM) && a->shm_count == 0)
        return VINE_ERR_UNSUPPORTED;
    if ((algo->flags & VINE_ALGO_SHM_NODES) &&
        (a->shm_node_count == 0 || (!(algo->flags & VINE_ALGO_SHM_UNEVEN) && !equal_nodes(a))))
        return VINE_ERR_UNSUPPORTED;
    const vine_levels *lv = (algo->flags & VINE_ALGO_LEVELS_ANY) ? vine__args_levels(a) : a->levels;
    if ((algo->flags & VINE_ALGO_LEVELS) &&
        (!vine__levels_ready(lv, a->p) || vine__levels_flat(lv)))
        return VINE_ERR_UNSUPPORTED;
    if ((algo->flags & VINE_ALGO_TORUS) && vine__levels_ready(a->levels, a->p) &&
        !vine__torus_applies(a->levels, a->p))
        return VINE_ERR_UNSUPPORTED;
    return VINE_OK;
}

static int build(const vine_algo *algo, const vine_args *a, vine_sched *s, int msgs_only)
{
    vine__sched_init(s, a->p, a->rank);
    s->msgs_only = msgs_only;
    int rc = vine__algo_admits(algo, a);
    if (rc == VINE_OK && !algo->build)
        rc = VINE_ERR_UNSUPPORTED;
    if (rc == VINE_OK)
        rc = vine__remap_applies(algo, a) ? vine__remap_build(algo, a, s) : algo->build(a, s);
    if (rc == VINE_OK && s->err)
        rc = s->err;
    if (rc != VINE_OK)
        vine__sched_free(s);
    return rc;
}

int vine__algo_build(const vine_algo *algo, const vine_args *a, vine_sched *s)
{
    return build(algo, a, s, 0);
}

int vine__algo_build_msgs(const vine_algo *algo, const vine_args *a, vine_sched *s)
{
    return build(algo, a, s, 1);
}
