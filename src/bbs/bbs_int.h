/*
 * Private helpers of src/bbs shared between bbs.c (the BBS schedule) and
 * hybrid.c (tree start, then the saturated cycle).  MPI-free.
 *
 * The state: which node holds which packet, as one bit set per node plus the
 * counters the packet choice needs.  The cycle: the frames of
 * vine__bbs_frames run in cyclic order from a given state until every node
 * holds every packet, each transfer carrying a packet of largest forward
 * potential (paper, Algorithm 1), in one of the modes below (the default
 * runs two and keeps the shorter schedule).  A caller that has already run some steps
 * (the hybrid's tree start-up) builds the state from its own transfers with
 * vine__bbs_state_add and hands it to vine__bbs_cycle, which appends the rest
 * of the broadcast to the same vine_bsched.
 *
 * Typical use (hybrid.c):
 *
 *     vine_bbs_lp lp; vine_bbs_frames fr; vine_bbs_state st;
 *     vine__bbs_lp(g, root, !bipartite, &lp, err, errlen);
 *     vine__bbs_frames(g, &lp, &fr, err, errlen);
 *     vine__bbs_state_init(&st, g->n, root, npackets);
 *     vine__bsched_init(out, g->n, root, npackets);
 *     for each step of the start-up:
 *         vine__bsched_add(out, u, v, p) for each transfer (a matching, u
 *             holding p before the step), then vine__bsched_step(out), then
 *         vine__bbs_state_add(&st, v, p) for each transfer of that step
 *     vine__bbs_cycle(g, &fr, &st, -1, VINE_BBS_CYCLE_DEFAULT, out, err, errlen);
 *
 * vine__bbs_schedule is exactly this with an empty start-up.
 */
#ifndef VINE_BBS_INT_H
#define VINE_BBS_INT_H

#include "bbs.h"

#include <stdint.h>

/* Who holds what.  Bit p of node v is have[v * words + p / 64] >> (p % 64). */
typedef struct vine_bbs_state {
    int n, npackets, words;
    uint64_t *have;
    int *count;    /* packets node v holds */
    int *lo;       /* the lowest packet v lacks (npackets once v holds all) */
    int *hi;       /* one more than the highest packet v holds (0 while none) */
    int ncomplete; /* nodes holding every packet (the root from the start) */
} vine_bbs_state;

/* The root holds every packet, the others none.  VINE_OK or VINE_ERR_NO_MEM. */
int vine__bbs_state_init(vine_bbs_state *st, int n, int root, int npackets);
void vine__bbs_state_free(vine_bbs_state *st);

static inline int vine__bbs_state_has(const vine_bbs_state *st, int v, int p)
{
    return (int)((st->have[(size_t)v * (size_t)st->words + (size_t)(p >> 6)] >> (p & 63)) & 1u);
}

/* Node v receives packet p (nothing happens if v already holds it). */
void vine__bbs_state_add(vine_bbs_state *st, int v, int p);

/*
 * The packet u should send to its neighbour v: among those u holds and v
 * lacks, one that the most neighbours of v lack (the forward potential of
 * the paper's Algorithm 1), chosen pseudo-randomly among equals (from a hash
 * of the state, so schedules are reproducible).  The paper takes the first
 * found, i.e. the lowest-numbered; that makes neighbours hold the same
 * prefix of the packets, so an arc between them has nothing to carry, and
 * the cycle falls to rate 1/3 (3N steps on the 4x4 grid and on 16K3).  The
 * scan examines at most four non-empty words (256 packets) of the window
 * where u holds packets v lacks, from a pseudo-random word, and stops early
 * at a packet every other neighbour of v lacks.  -1 if u holds nothing v
 * lacks.  Cost O(deg(v)) per word.
 */
int vine__bbs_pick(const vine_graph *g, const vine_bbs_state *st, int u, int v);

/* Flags of vine__bbs_cycle. */
enum {
    /* An arc of the frame whose sender has nothing its receiver lacks runs
     * the other way if the receiver has something the sender lacks (the
     * pair is matched in this frame either way). */
    VINE_BBS_REVERSE = 1,
    /* After the frame's transfers, nodes left idle in the step are matched
     * greedily (receivers with the most missing packets first) to a
     * neighbour holding something they lack, then improved by augmenting
     * paths of length three.  It shortens the start-up (before data has
     * reached the whole graph) and the tail (when the frame's arcs join
     * complete nodes). */
    VINE_BBS_FILL = 2,
    /* The frame names, for each receiver, its preferred sender; the step's
     * matching is built receiver by receiver, most missing packets first,
     * each taking its frame sender when that one is free and useful, else
     * as VINE_BBS_FILL does.  A fixed cycle cannot let a node that fell
     * behind catch up (every node receives exactly C per cycle); this lets
     * the laggards go first and still follows the LP where it can. */
    VINE_BBS_ARBITRATE = 4,
    /* Runs VINE_BBS_ARBITRATE and VINE_BBS_REVERSE | VINE_BBS_FILL from
     * copies of the state and appends the shorter continuation (the other
     * bits are ignored).  Arbitrated wins on the large grids, frame-driven
     * on the small graphs where C is well above 1/2. */
    VINE_BBS_AUTO = 8,
    VINE_BBS_CYCLE_DEFAULT = VINE_BBS_AUTO
};

/*
 * Runs the cyclic schedule of f on g from state st until every node holds
 * every packet.  Step t (t = 0, 1, ...) uses frame (first + t) mod
 * f->nframes; first < 0 picks the frame of most useful transfers in st.
 * Each step's transfers are chosen from the state before the step (a node
 * forwards only what it held before it), appended to out as one step
 * (vine__bsched_add, then vine__bsched_step) and then applied to st.  out
 * must have been initialised with st's n and npackets and the same root;
 * steps already in out are kept.  In the pure mode (flags 0, or
 * VINE_BBS_REVERSE alone) a cycle of f->nframes steps that moves nothing is
 * reported as VINE_ERR_INTERNAL (frames that cannot finish the broadcast);
 * with VINE_BBS_FILL, VINE_BBS_ARBITRATE or VINE_BBS_AUTO every step moves a
 * packet while one is missing (g connected), even with no frames.  Returns VINE_OK,
 * VINE_ERR_NO_MEM or VINE_ERR_INTERNAL (message in err).
 */
int vine__bbs_cycle(const vine_graph *g, const vine_bbs_frames *f, vine_bbs_state *st, int first,
                    unsigned flags, vine_bsched *out, char *err, size_t errlen);

/* 1 if g is bipartite (2-colourable), else 0. */
int vine__graph_bipartite(const vine_graph *g);

/*
 * Edge colouring of a multigraph (colour.c): m distinct edges joining a[e]
 * and b[e] on n nodes, mult[e] >= 0 copies each.  The colours come as
 * nclass classes; class k is the matching of edges cedge[cstart[k] ..
 * cstart[k + 1]) (each edge once) and stands for crep[k] colours that are
 * that same matching.  ncolours = sum of crep.  With side (a 2-colouring of
 * the nodes, side[v] in {0, 1}, every edge between the sides) ncolours is
 * exactly the maximum degree; without it a Kempe-chain heuristic uses
 * between the maximum degree and floor(3 Delta / 2).  Returns VINE_OK,
 * VINE_ERR_NO_MEM, VINE_ERR_UNSUPPORTED (too many copies for the general
 * method) or VINE_ERR_INTERNAL (bad input).
 */
typedef struct vine_mcolouring {
    int nclass;
    int *cstart, *cedge;
    int64_t *crep;
    int64_t ncolours;
} vine_mcolouring;

int vine__mcolour(int n, int m, const int *a, const int *b, const int64_t *mult,
                  const signed char *side, vine_mcolouring *out);
void vine__mcolouring_free(vine_mcolouring *c);

/*
 * The least capacity of a cut entering a node set without the root, with
 * capacity cap[a] >= 0 on arc a (numbering of vine_bbs_lp), computed up to
 * target (the result is min(that cut, target)); -1 on memory (lp.c).  By
 * Edmonds' branching theorem it is the rate at which the root can feed
 * every node through those capacities.
 */
int64_t vine__bbs_min_cut(const vine_graph *g, int root, const int64_t *cap, int64_t target);

/* Formats a one-line message into err (when err and errlen allow) and returns code. */
int vine__bbs_err(char *err, size_t errlen, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

#endif
