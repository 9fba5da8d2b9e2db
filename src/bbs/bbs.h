/*
 * Broadcast by Balanced Saturation and the broadcast step model (MPI-free).
 * Specification: ../shared/papers/bbs-broadcast.txt, with the gaps fixed in
 * ../shared/BBS.md (read it first).
 *
 * The step model: an undirected connected graph of n nodes; the root holds
 * npackets equal packets.  In a step each node sends one packet to one
 * neighbour, or receives one packet from one neighbour, or idles (one port,
 * half duplex): the transfers of a step form a matching of the graph.  A node
 * may send only a packet it held before the step.  The broadcast ends when
 * every node holds every packet; T is the number of steps.
 *
 * Files: graph.c (graphs), bsched.c (schedules and their check), lp.c (the
 * balanced-saturation LP with GLPK, exact rationals), colour.c (multigraph
 * edge colouring), bbs.c (frames, ordering, packet choice: the BBS schedule),
 * baselines.c (greedy, binary tree, SRDA), hybrid.c (tree start, then the
 * saturated cycle).  Every function returns VINE_OK or an enum vine_status
 * (src/sched/sched.h) with a one-line message in err for
 * VINE_ERR_UNSUPPORTED; nothing aborts or prints.
 */
#ifndef VINE_BBS_H
#define VINE_BBS_H

#include "../sched/sched.h"

#include <stddef.h>
#include <stdint.h>

/* An undirected simple graph; edge e joins eu[e] and ev[e]. */
typedef struct vine_graph {
    int n, m;
    int *eu, *ev;
    /* Adjacency: the neighbours of v are nbr[start[v] .. start[v + 1]), in
     * increasing order, reached through edge nbr_edge[...]. */
    int *start, *nbr, *nbr_edge;
    char name[64];
} vine_graph;

/* Builds g from m edges on n nodes (duplicates and self-loops refused). */
int vine__graph_from_edges(vine_graph *g, int n, int m, const int *eu, const int *ev,
                           const char *name, char *err, size_t errlen);
/*
 * Named graphs: "grid:4x4" (2D or 3D mesh, no wrap-around; node index
 * x + X (y + Y z), so node 0 is the top, front, left corner the paper roots
 * at), "torus:4x4", "16k3" (BBS.md's cubic graph), "edges:FILE" (one edge
 * "A B" per line, node numbers from 0, '#' comments; errors name FILE:LINE).
 */
int vine__graph_parse(const char *spec, vine_graph *g, char *err, size_t errlen);
void vine__graph_free(vine_graph *g);
/* BFS distances from root into dist[n] (-1 unreachable); returns the eccentricity. */
int vine__graph_bfs(const vine_graph *g, int root, int *dist);

/* One transfer of the step model. */
typedef struct vine_xfer {
    int from, to, packet;
} vine_xfer;

/* A broadcast schedule: step t holds xfers[step_end[t-1] .. step_end[t]). */
typedef struct vine_bsched {
    int n, root, npackets;
    int nsteps;
    size_t *step_end;
    vine_xfer *xfers;
    size_t nxfers, xcap, scap;
} vine_bsched;

void vine__bsched_init(vine_bsched *s, int n, int root, int npackets);
void vine__bsched_free(vine_bsched *s);
/* Appends a transfer to the current (open) step. */
int vine__bsched_add(vine_bsched *s, int from, int to, int packet);
/* Closes the current step (an empty step counts: it is an idle step). */
int vine__bsched_step(vine_bsched *s);

/*
 * Checks s against the step model on g: every transfer on an edge of g,
 * every step a matching, a sender holding the packet before the step, no
 * packet received twice, and at the end every node holding every packet.
 * Returns VINE_OK or VINE_ERR_INTERNAL with the first violation in err.
 */
int vine__bsched_check(const vine_graph *g, const vine_bsched *s, char *err, size_t errlen);
/* Average number of active edges (transfers) per step. */
double vine__bsched_active(const vine_bsched *s);

/* An exact non-negative fraction. */
typedef struct vine_frac {
    int64_t num, den; /* den > 0, reduced */
} vine_frac;

/*
 * The balanced-saturation LP of BBS.md on g rooted at root: occupancies of
 * every directed edge (arc 2e is eu[e] -> ev[e], 2e + 1 the reverse), exact,
 * and the common receive rate C.  L = lcm of the denominators.  With
 * odd_sets, adds the odd-set (blossom) constraints that make the multigraph
 * colourable with L colours (BBS.md: the paper's pipeline breaks on odd
 * cycles) -- the implementation chooses how (e.g. iteratively adding
 * violated ones).
 */
typedef struct vine_bbs_lp {
    int n, m, root;
    vine_frac c;
    vine_frac *occ; /* 2m entries */
    int64_t lcm;
} vine_bbs_lp;

int vine__bbs_lp(const vine_graph *g, int root, int odd_sets, vine_bbs_lp *lp, char *err,
                 size_t errlen);
void vine__bbs_lp_free(vine_bbs_lp *lp);

/*
 * The frames of the cyclic schedule: the multigraph with L * O(i -> j)
 * copies of each arc, edge-coloured (each colour a matching: a frame),
 * ordered as BBS.md says.  frame f holds arcs arc[fstart[f] .. fstart[f+1])
 * (arc numbers as in vine_bbs_lp).  rate = (C * L) / nframes as an exact
 * fraction: the rate the frames actually achieve (never more than C).
 */
typedef struct vine_bbs_frames {
    int nframes;
    int *fstart;
    int *arc;
    vine_frac rate;
    int bipartite; /* the multigraph was bipartite: nframes = max degree = L */
} vine_bbs_frames;

int vine__bbs_frames(const vine_graph *g, const vine_bbs_lp *lp, vine_bbs_frames *f, char *err,
                     size_t errlen);
void vine__bbs_frames_free(vine_bbs_frames *f);

/* The whole BBS schedule of npackets packets (LP, frames, packet choice). */
int vine__bbs_schedule(const vine_graph *g, int root, int npackets, vine_bsched *out, char *err,
                       size_t errlen);

/* Baselines of BBS.md in the same model. */
int vine__bcast_greedy(const vine_graph *g, int root, int npackets, uint64_t seed, vine_bsched *out,
                       char *err, size_t errlen);
int vine__bcast_bintree(const vine_graph *g, int root, int npackets, vine_bsched *out, char *err,
                        size_t errlen);
int vine__bcast_srda(const vine_graph *g, int root, int npackets, vine_bsched *out, char *err,
                     size_t errlen);
/* Tree pipelining while the network fills, then the saturated BBS cycle. */
int vine__bcast_hybrid(const vine_graph *g, int root, int npackets, vine_bsched *out, char *err,
                       size_t errlen);

#endif
