/*
 * The hybrid broadcast (MPI-free): a pipelined tree while the network fills,
 * then the saturated cycle of Broadcast by Balanced Saturation
 * (../shared/papers/bbs-broadcast.txt; ../shared/BBS.md, last paragraph of
 * the tables: the paper's BBS loses at small N on the large 2D grids, where
 * a tree that starts pipelining at once wins).
 *
 * Why: BBS's cyclic frames move data at the saturated rate C (about 1/2 a
 * packet per node per step) but only once every node has data to forward;
 * at the start most frame arcs have an empty sender, so T = 2N + K with a
 * start-up K that grows with the diameter (245 steps on the 8x64 grid).  A
 * pipelined tree delivers its first packet to every node after about depth
 * steps but then runs at 1/3 (a node with two children receives once and
 * sends twice per packet): T = 3N + depth.  The hybrid takes the first k
 * steps of the binary tree (baselines.c) and then hands the state "who holds
 * what" to the BBS cycle (bbs_int.h: vine__bbs_cycle, frames from the LP of
 * lp.c and the colouring of colour.c), which finishes the broadcast; its
 * default flags let an idle frame arc run backwards and match the nodes a
 * frame leaves idle greedily, which also serves the tail.
 *
 * The switch step k is chosen by building the candidates and keeping the
 * shortest: k = 0 (BBS from the start), k = D, 2D, 4D, ... (D the root's
 * eccentricity) while k is below the tree's own T, and k = the tree's T
 * (the binary tree alone).  So the hybrid is never worse than the binary
 * tree nor than BBS with fill, by construction; that it is also no worse
 * than Greedy and SRDA is a measured result (vine bbs table; docs/bbs.md).
 * Cost: one BBS cycle run per candidate, O(log(T / D)) of them, plus one LP
 * and one colouring.
 */
#include "hybrid.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Copies schedule src into dst (initialised, empty). */
static int copy_sched(const vine_bsched *src, vine_bsched *dst)
{
    vine__bsched_init(dst, src->n, src->root, src->npackets);
    size_t x = 0;
    for (int t = 0; t < src->nsteps; t++) {
        for (; x < src->step_end[t]; x++) {
            int rc =
                vine__bsched_add(dst, src->xfers[x].from, src->xfers[x].to, src->xfers[x].packet);
            if (rc != VINE_OK)
                return rc;
        }
        int rc = vine__bsched_step(dst);
        if (rc != VINE_OK)
            return rc;
    }
    return VINE_OK;
}

/* The first k steps of start, then the BBS cycle from the state they leave. */
static int candidate(const vine_graph *g, const vine_bbs_frames *f, const vine_bsched *start, int k,
                     vine_bsched *out, char *err, size_t errlen)
{
    vine_bbs_state st;
    vine__bsched_init(out, g->n, start->root, start->npackets);
    int rc = vine__bbs_state_init(&st, g->n, start->root, start->npackets);
    if (rc != VINE_OK)
        return rc;
    size_t x = 0;
    for (int t = 0; t < k && rc == VINE_OK; t++) {
        size_t first = x;
        for (; x < start->step_end[t] && rc == VINE_OK; x++)
            rc = vine__bsched_add(out, start->xfers[x].from, start->xfers[x].to,
                                  start->xfers[x].packet);
        if (rc == VINE_OK)
            rc = vine__bsched_step(out);
        /* Applied after the step: a node forwards only what it held before. */
        for (size_t y = first; y < x && rc == VINE_OK; y++)
            vine__bbs_state_add(&st, start->xfers[y].to, start->xfers[y].packet);
    }
    if (rc == VINE_OK && st.ncomplete < g->n)
        rc = vine__bbs_cycle(g, f, &st, -1, VINE_BBS_CYCLE_DEFAULT, out, err, errlen);
    vine__bbs_state_free(&st);
    if (rc != VINE_OK)
        vine__bsched_free(out);
    return rc;
}

/* Candidates on one start schedule: k = depth, 2 depth, 4 depth, ... while k
 * is below the start's T, stopping once a candidate is worse than the one
 * before (the later ones only lengthen the slower start).  *best is replaced
 * by a shorter candidate (and the old one freed unless it is keep). */
static int try_prefixes(const vine_graph *g, const vine_bbs_frames *f, const vine_bsched *start,
                        int depth, vine_bsched *best, const vine_bsched *keep, char *err,
                        size_t errlen)
{
    int prev = -1;
    for (long k = depth; k < start->nsteps; k *= 2) {
        vine_bsched c;
        int rc = candidate(g, f, start, (int)k, &c, err, errlen);
        if (rc != VINE_OK)
            return rc;
        int T = c.nsteps;
        if (T < best->nsteps) {
            if (best->xfers != keep->xfers)
                vine__bsched_free(best);
            *best = c;
        } else {
            vine__bsched_free(&c);
        }
        if (prev >= 0 && T > prev)
            break;
        prev = T;
    }
    return VINE_OK;
}

int vine__bcast_hybrid_frames(const vine_graph *g, int root, int npackets,
                              const vine_bbs_frames *frames, vine_bsched *out, char *err,
                              size_t errlen)
{
    vine__bsched_init(out, g->n, root, npackets);
    if (root < 0 || root >= g->n)
        return vine__bbs_err(err, errlen, VINE_ERR_UNSUPPORTED, "hybrid: root %d outside 0..%d",
                             root, g->n - 1);
    if (npackets < 0)
        return vine__bbs_err(err, errlen, VINE_ERR_UNSUPPORTED, "hybrid: %d packets", npackets);
    /* The tree first: it also refuses a graph that is not connected. */
    vine_bsched tree;
    int rc = vine__bcast_bintree(g, root, npackets, &tree, err, errlen);
    if (rc != VINE_OK)
        return rc;
    if (g->n == 1 || npackets == 0 || tree.nsteps <= 1) {
        /* Nothing to send, or one step: the tree is optimal. */
        rc = copy_sched(&tree, out);
        vine__bsched_free(&tree);
        if (rc != VINE_OK)
            vine__bsched_free(out);
        return rc;
    }
    int *dist = malloc((size_t)g->n * sizeof *dist);
    if (!dist) {
        vine__bsched_free(&tree);
        return VINE_ERR_NO_MEM;
    }
    int depth = vine__graph_bfs(g, root, dist);
    free(dist);
    if (depth < 1)
        depth = 1;
    vine_bbs_frames own;
    const vine_bbs_frames *fr = frames;
    if (!fr) {
        vine_bbs_lp lp;
        rc = vine__bbs_lp(g, root, !vine__graph_bipartite(g), &lp, err, errlen);
        if (rc == VINE_OK) {
            rc = vine__bbs_frames(g, &lp, &own, err, errlen);
            vine__bbs_lp_free(&lp);
        }
        if (rc != VINE_OK) {
            vine__bsched_free(&tree);
            return rc;
        }
        fr = &own;
    }
    /* The best so far: the binary tree alone (k = its T); then k = 0 (BBS
     * from the start) and the tree prefixes. */
    vine_bsched best = tree, c;
    rc = candidate(g, fr, &tree, 0, &c, err, errlen);
    if (rc == VINE_OK) {
        if (c.nsteps < best.nsteps)
            best = c;
        else
            vine__bsched_free(&c);
        rc = try_prefixes(g, fr, &tree, depth, &best, &tree, err, errlen);
    }
    if (fr == &own)
        vine__bbs_frames_free(&own);
    if (rc != VINE_OK) {
        if (best.xfers != tree.xfers)
            vine__bsched_free(&best);
        vine__bsched_free(&tree);
        return rc;
    }
    if (best.xfers != tree.xfers)
        vine__bsched_free(&tree);
    *out = best;
    return VINE_OK;
}

int vine__bcast_hybrid(const vine_graph *g, int root, int npackets, vine_bsched *out, char *err,
                       size_t errlen)
{
    return vine__bcast_hybrid_frames(g, root, npackets, NULL, out, err, errlen);
}
