/*
 * Broadcast by Balanced Saturation on a network graph: the step-model
 * schedule of src/bbs (Reza et al., papers/bbs-broadcast.txt, sections 2.3
 * and 3, with the gaps fixed in ../shared/BBS.md) run as an MPI broadcast.
 *
 * The graph comes from VINE_BBS_GRAPH (a vine__graph_parse spec: "grid:4x4",
 * "16k3", "edges:FILE"); rank i is node i.  The registry's VINE_ALGO_GRAPH
 * flag admits the algorithm only when the graph has exactly p nodes, so a
 * graph with nodes that host no rank (or too few nodes) is rejected with the
 * restriction "VINE_BBS_GRAPH with p nodes"; a graph vine__graph_parse refuses
 * (unreadable, malformed, disconnected) counts as no graph at all.  Any root.
 *
 * Packets are segments of the buffer.  With a segment size (vine_args
 * seg_count, from vine_set_segment_size or VINE_SEGMENT_SIZE) packet k is
 * bytes [k seg, min((k + 1) seg, n)), so N = ceil(n / seg).  Without one,
 * N = min(4 p, floor(n / 1 KiB)), at least 1, and the buffer is cut into N
 * near-equal packets: 4 p packets keep the saturated cycle running for most of
 * the broadcast (T is about 2N plus a start-up of a few graph diameters), and
 * the 1 KiB floor keeps small broadcasts from paying a message per step for
 * a few bytes.  N is capped at BBS_MAX_PACKETS (packets then grow beyond the
 * segment size), which bounds the step schedule's size and cost.  A packet
 * may be empty (never with these rules unless n = 0, which builds nothing);
 * its messages are dropped at both ends alike.
 *
 * Each step of the schedule in which this rank sends or receives becomes a
 * round holding that one SEND or RECV of the packet's byte range of RECV;
 * idle steps add nothing.  Deadlock freedom: by induction on the step, every
 * transfer of step t has both ends posted once all transfers of steps < t have
 * completed, since each rank runs its transfers in step order.  A rank sends
 * only a packet it received in an earlier step (vine__bsched_check proves the
 * schedule before it is used).
 *
 * Cost: at most T rounds per rank, T the schedule's steps; each rank receives
 * n bytes in all (every packet once) and sends at most deg n (a packet at most
 * once to each neighbour).  With steps of alpha + (n / N) beta and T = 2N + K
 * (BBS.md), about 2 n beta + (2N + K) alpha + K (n / N) beta.  E.g. on 16k3,
 * root 0, 100000 bytes (64 packets): 82 to 163 rounds per rank (vine dump).
 *
 * State: the parsed graph and the last BBS_CACHE step schedules, keyed by
 * (root, N), are kept process-wide, so that building the p ranks' schedules
 * of one case (the verifier, the simulator) solves the LP once.  Like the
 * rest of the library's process-wide state (docs/api.md) it is unlocked: one
 * thread at a time.  The memory stays reachable from static pointers until
 * exit.
 */
#include "../../bbs/bbs.h"
#include "../coll.h"

#include <stdlib.h>
#include <string.h>

enum {
    BBS_MIN_PACKET = 1024,    /* bytes: the default packet's lower bound */
    BBS_PACKETS_PER_NODE = 4, /* default N = 4 p (before the floor) */
    BBS_MAX_PACKETS = 1024,   /* N never exceeds this */
    BBS_CACHE = 16            /* step schedules kept */
};

/* The graph of VINE_BBS_GRAPH, read once. */
static struct {
    int read;   /* the environment has been looked at */
    int usable; /* g holds a connected graph */
    vine_graph g;
} env;

/* A step schedule with each node's transfers listed in step order. */
typedef struct bbs_plan {
    int root, npackets; /* the key; npackets 0: an empty slot */
    vine_bsched s;
    size_t *start; /* node v's transfers: s.xfers[at[start[v] .. start[v + 1])] */
    size_t *at;
} bbs_plan;

static bbs_plan cache[BBS_CACHE];
static int cache_next; /* the slot the next new plan replaces */

int vine__bbs_env_nodes(void)
{
    if (!env.read) {
        const char *spec = getenv("VINE_BBS_GRAPH");
        char err[256];
        env.read = 1;
        /* vine__graph_parse refuses a disconnected edge list, and the named
         * graphs are connected, so a parsed graph is one BBS can serve. */
        env.usable = spec && *spec && vine__graph_parse(spec, &env.g, err, sizeof err) == VINE_OK;
    }
    return env.usable ? env.g.n : -1;
}

static void plan_free(bbs_plan *pl)
{
    vine__bsched_free(&pl->s); /* safe on a zeroed slot */
    free(pl->start);
    free(pl->at);
    memset(pl, 0, sizeof *pl);
}

/* Lists each node's transfers of pl->s in step order (a counting sort). */
static int plan_index(bbs_plan *pl)
{
    int n = pl->s.n;
    size_t nx = pl->s.nxfers;
    pl->start = calloc((size_t)n + 1, sizeof *pl->start);
    pl->at = malloc((2 * nx + 1) * sizeof *pl->at);
    if (!pl->start || !pl->at)
        return VINE_ERR_NO_MEM;
    for (size_t i = 0; i < nx; i++) {
        pl->start[pl->s.xfers[i].from]++;
        pl->start[pl->s.xfers[i].to]++;
    }
    for (int v = 1; v < n; v++) /* start[v]: the end of node v's range */
        pl->start[v] += pl->start[v - 1];
    pl->start[n] = 2 * nx;
    /* Filling each range from its end, last transfer first, keeps the step
     * order and leaves start[v] at the range's beginning. */
    for (size_t i = nx; i-- > 0;) {
        pl->at[--pl->start[pl->s.xfers[i].from]] = i;
        pl->at[--pl->start[pl->s.xfers[i].to]] = i;
    }
    return VINE_OK;
}

/* The step schedule of (root, npackets) on env.g, from the cache or computed. */
static int plan_get(int root, int npackets, const bbs_plan **out)
{
    for (int i = 0; i < BBS_CACHE; i++)
        if (cache[i].npackets == npackets && cache[i].root == root) {
            *out = &cache[i];
            return VINE_OK;
        }
    bbs_plan *pl = &cache[cache_next];
    plan_free(pl);
    char err[256];
    int rc = vine__bbs_schedule(&env.g, root, npackets, &pl->s, err, sizeof err);
    pl->npackets = npackets;
    pl->root = root;
    if (rc == VINE_OK && (pl->s.n != env.g.n || pl->s.root != root || pl->s.npackets != npackets ||
                          vine__bsched_check(&env.g, &pl->s, err, sizeof err) != VINE_OK))
        rc = VINE_ERR_INTERNAL;
    if (rc == VINE_OK)
        rc = plan_index(pl);
    if (rc != VINE_OK) {
        plan_free(pl);
        return rc;
    }
    cache_next = (cache_next + 1) % BBS_CACHE;
    *out = pl;
    return VINE_OK;
}

/* How the buffer is cut: npk packets of seg bytes (the last one shorter), or,
 * when seg is 0, npk near-equal ones. */
typedef struct bbs_cut {
    int npk;
    size_t seg;
} bbs_cut;

static bbs_cut cut_of(const vine_args *a)
{
    size_t n = a->count, k;
    bbs_cut c = {0, 0};
    if (a->seg_count) {
        k = n / a->seg_count + (n % a->seg_count != 0);
        c.seg = a->seg_count;
    } else {
        k = n / BBS_MIN_PACKET;
        if (k > (size_t)BBS_PACKETS_PER_NODE * (size_t)a->p)
            k = (size_t)BBS_PACKETS_PER_NODE * (size_t)a->p;
    }
    if (k < 1)
        k = 1;
    if (k > BBS_MAX_PACKETS) {
        k = BBS_MAX_PACKETS;
        c.seg = 0;
    }
    c.npk = (int)k;
    return c;
}

/* Byte range [*off, *off + *len) of packet k of a->count bytes cut as c. */
static void packet_range(const vine_args *a, bbs_cut c, int k, size_t *off, size_t *len)
{
    size_t n = a->count, uk = (size_t)k;
    if (c.seg) {
        *off = uk * c.seg;
        *len = n - *off < c.seg ? n - *off : c.seg;
        return;
    }
    size_t q = n / (size_t)c.npk, r = n % (size_t)c.npk;
    *off = uk * q + (uk < r ? uk : r);
    *len = q + (uk < r);
}

int vine__bcast_bbs_build(const vine_args *a, vine_sched *s)
{
    if (vine__bbs_env_nodes() != a->p)
        return VINE_ERR_UNSUPPORTED;
    if (a->p == 1 || a->count == 0)
        return vine__sched_finish(s);
    bbs_cut c = cut_of(a);
    const bbs_plan *pl;
    int rc = plan_get(a->root, c.npk, &pl);
    if (rc != VINE_OK)
        return rc;
    for (size_t i = pl->start[a->rank]; i < pl->start[a->rank + 1]; i++) {
        const vine_xfer *x = &pl->s.xfers[pl->at[i]];
        size_t off, len;
        packet_range(a, c, x->packet, &off, &len);
        if (x->from == a->rank)
            vine__sched_send(s, x->to, VINE_BUF_RECV, off, len);
        else
            vine__sched_recv(s, x->from, VINE_BUF_RECV, off, len);
        vine__sched_fence(s);
    }
    return vine__sched_finish(s);
}
