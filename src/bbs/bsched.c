/*
 * Step-model broadcast schedules (MPI-free): building them step by step and
 * checking them against the model of ../shared/papers/bbs-broadcast.txt,
 * section 2 (one port, half duplex: the transfers of a step form a matching
 * of the graph; a node forwards only what it held before the step).
 *
 * The check keeps, for every node and packet, the step at which the node got
 * the packet: O(n * npackets) memory and O(transfers * log degree) time.
 */
#include "bbs.h"
#include "bbs_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void vine__bsched_init(vine_bsched *s, int n, int root, int npackets)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    s->root = root;
    s->npackets = npackets;
}

void vine__bsched_free(vine_bsched *s)
{
    if (!s)
        return;
    free(s->step_end);
    free(s->xfers);
    memset(s, 0, sizeof *s);
}

int vine__bsched_add(vine_bsched *s, int from, int to, int packet)
{
    if (s->nxfers == s->xcap) {
        size_t cap = s->xcap ? 2 * s->xcap : 256;
        vine_xfer *nx = realloc(s->xfers, cap * sizeof *nx);
        if (!nx)
            return VINE_ERR_NO_MEM;
        s->xfers = nx;
        s->xcap = cap;
    }
    s->xfers[s->nxfers++] = (vine_xfer){from, to, packet};
    return VINE_OK;
}

int vine__bsched_step(vine_bsched *s)
{
    if ((size_t)s->nsteps == s->scap) {
        size_t cap = s->scap ? 2 * s->scap : 256;
        size_t *ne = realloc(s->step_end, cap * sizeof *ne);
        if (!ne)
            return VINE_ERR_NO_MEM;
        s->step_end = ne;
        s->scap = cap;
    }
    s->step_end[s->nsteps++] = s->nxfers;
    return VINE_OK;
}

double vine__bsched_active(const vine_bsched *s)
{
    return s->nsteps ? (double)s->nxfers / s->nsteps : 0.0;
}

/* A message into err, and the status VINE_ERR_INTERNAL. */
#define cerr(err, errlen, ...) vine__bbs_err(err, errlen, VINE_ERR_INTERNAL, __VA_ARGS__)

/* Is {u, v} an edge of g?  Binary search in u's sorted neighbour list. */
static int is_edge(const vine_graph *g, int u, int v)
{
    int lo = g->start[u], hi = g->start[u + 1];
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (g->nbr[mid] == v)
            return 1;
        if (g->nbr[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return 0;
}

int vine__bsched_check(const vine_graph *g, const vine_bsched *s, char *err, size_t errlen)
{
    if (s->n != g->n)
        return cerr(err, errlen, "schedule for %d nodes on a graph of %d", s->n, g->n);
    if (s->root < 0 || s->root >= g->n)
        return cerr(err, errlen, "root %d outside 0..%d", s->root, g->n - 1);
    if (s->npackets < 0)
        return cerr(err, errlen, "%d packets", s->npackets);
    if (s->nsteps < 0 || (s->nsteps > 0 && s->step_end[s->nsteps - 1] > s->nxfers))
        return cerr(err, errlen, "malformed step list");
    if ((s->nsteps == 0 && s->nxfers > 0) ||
        (s->nsteps > 0 && s->step_end[s->nsteps - 1] != s->nxfers))
        return cerr(err, errlen, "%zu transfers after the last closed step",
                    s->nxfers - (s->nsteps ? s->step_end[s->nsteps - 1] : 0));
    size_t n = (size_t)g->n, np = (size_t)s->npackets;
    /* got[v * np + k]: step + 1 at which v got packet k; 0: not yet; the
     * root holds everything from "step 0". */
    int *got = calloc(n * np > 0 ? n * np : 1, sizeof *got);
    int *busy = malloc(n * sizeof *busy); /* last step a node took part in */
    if (!got || !busy) {
        free(got);
        free(busy);
        return VINE_ERR_NO_MEM;
    }
    for (size_t v = 0; v < n; v++)
        busy[v] = -1;
    for (size_t k = 0; k < np; k++)
        got[(size_t)s->root * np + k] = -1;
    int rc = VINE_OK;
    size_t x = 0;
    for (int t = 0; t < s->nsteps && rc == VINE_OK; t++) {
        if (s->step_end[t] < x) {
            rc = cerr(err, errlen, "step %d: step list goes backwards", t);
            break;
        }
        for (; x < s->step_end[t]; x++) {
            const vine_xfer *a = &s->xfers[x];
            if (a->from < 0 || a->from >= g->n || a->to < 0 || a->to >= g->n) {
                rc = cerr(err, errlen, "step %d: transfer %d->%d names a node outside 0..%d", t,
                          a->from, a->to, g->n - 1);
                break;
            }
            if (a->packet < 0 || a->packet >= s->npackets) {
                rc = cerr(err, errlen, "step %d: transfer %d->%d of packet %d outside 0..%d", t,
                          a->from, a->to, a->packet, s->npackets - 1);
                break;
            }
            if (a->from == a->to || !is_edge(g, a->from, a->to)) {
                rc = cerr(err, errlen, "step %d: %d->%d is not an edge of the graph", t, a->from,
                          a->to);
                break;
            }
            if (busy[a->from] == t || busy[a->to] == t) {
                rc = cerr(err, errlen,
                          "step %d: node %d takes part in two transfers (%d->%d is not in a "
                          "matching)",
                          t, busy[a->from] == t ? a->from : a->to, a->from, a->to);
                break;
            }
            busy[a->from] = busy[a->to] = t;
            int hs = got[(size_t)a->from * np + (size_t)a->packet];
            if (hs == 0 || hs > t) {
                rc = cerr(err, errlen, "step %d: node %d sends packet %d %s", t, a->from, a->packet,
                          hs == 0 ? "it does not hold" : "it receives in this step");
                break;
            }
            int *hr = &got[(size_t)a->to * np + (size_t)a->packet];
            if (*hr != 0) {
                rc = cerr(err, errlen, "step %d: node %d receives packet %d again (%s)", t, a->to,
                          a->packet, *hr < 0 ? "it is the root" : "it got it before");
                break;
            }
            *hr = t + 1;
        }
    }
    for (size_t v = 0; v < n && rc == VINE_OK; v++)
        for (size_t k = 0; k < np; k++)
            if (got[v * np + k] == 0) {
                rc = cerr(err, errlen, "after %d steps node %zu lacks packet %zu", s->nsteps, v, k);
                break;
            }
    free(got);
    free(busy);
    return rc;
}
