/*
 * The traffic and time simulator: replays every rank's schedule on a topology
 * (semantics in sim.h, routing in route.c).
 *
 * Four passes:
 *   1. extract: build rank 0, 1, ... p-1's schedule one at a time with
 *      vine__algo_build_msgs (no local operations recorded) and keep only its
 *      messages, grouped in the rounds
 *      that have any (16 bytes per send, 8 per receive, 24 per round); the
 *      schedule is freed at once, so p = 100,000 costs a few tens of MB;
 *   2. match: per sender the sends sorted by destination, per receiver the
 *      receives sorted by source, then the k-th of each pair (a, b) meet;
 *   3. steps: a worklist of started rounds; a message is resolved by the
 *      second of its two rounds to start (step = the later start), a round
 *      ends one step after its last message and starts the next one;
 *   4. route: the messages bucketed by step; per step, one pass adds every
 *      message's bytes to its arcs (even split), a second pass takes every
 *      message's latency plus the worst load/bandwidth on its arcs.
 * Cost: O(M log M) for M messages plus the routing (route.c); memory at the
 * peak 40 bytes per message plus 24 per round, bounded by MEM_LIMIT: a case
 * above it (a pairwise alltoall on 8,192 ranks, a linear one on 16,384) fails
 * with VINE_ERR_NO_MEM and says so in err.
 */
#include "../sched/verify.h"
#include "sim_int.h"

#include <errno.h>
#include <math.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The most memory the message records may take (see mem_estimate). */
#define MEM_LIMIT ((size_t)3 << 30)

enum { RF_LAST = 1, RF_POPPED = 2 };

typedef struct ssend {
    int dst;
    uint32_t mround; /* the round of the matching receive */
    uint64_t count;
} ssend;

typedef struct srecv {
    int src;
    uint32_t mround; /* the round of the matching send */
} srecv;

/* A round that holds messages (rounds without any take no time). */
typedef struct sround {
    uint32_t send_end, recv_end; /* its messages end here (they begin at the previous round's) */
    int32_t start, endmax, pending;
    uint8_t flags;
} sround;

typedef struct sim {
    int p;
    ssend *sends;
    size_t nsend, send_cap;
    srecv *recvs;
    size_t nrecv, recv_cap;
    sround *rounds;
    size_t nround, round_cap;
    uint32_t *rank_round, *rank_send, *rank_recv; /* p + 1 prefix sums each */
    int nsteps;
    size_t *bstart; /* nsteps + 1: messages of step t are bidx[bstart[t] .. bstart[t + 1]) */
    uint32_t *bidx; /* send index */
    int *bsrc;      /* its sender */
} sim;

static void sim_free(sim *s)
{
    free(s->sends);
    free(s->recvs);
    free(s->rounds);
    free(s->rank_round);
    free(s->rank_send);
    free(s->rank_recv);
    free(s->bstart);
    free(s->bidx);
    free(s->bsrc);
}

/* vine__grow with room for 1024 items at least: a simulation holds many. */
static int grow(void **p, size_t *cap, size_t need, size_t sz)
{
    return vine__grow(p, cap, need < 1024 ? 1024 : need, sz);
}

/*
 * The peak of the passes: sends, receives and rounds plus the matching's
 * two indices per receive, or sends and rounds plus the buckets' 8 bytes per
 * send (the receives are freed by then).
 */
static size_t mem_estimate(const sim *s)
{
    return s->nsend * (sizeof(ssend) + 8) + s->nrecv * (sizeof(srecv) + 8) +
           s->nround * sizeof(sround);
}

static uint32_t round_begin_send(const sim *s, size_t g)
{
    return g ? s->rounds[g - 1].send_end : 0;
}

static uint32_t round_begin_recv(const sim *s, size_t g)
{
    return g ? s->rounds[g - 1].recv_end : 0;
}

/* Pass 1: every rank's messages, in posted order, by round. */
static int extract(sim *s, const vine_algo *algo, const vine_args *a, char *err, size_t errlen)
{
    vine_args ar = *a;
    vine_sched sc;
    s->rank_round[0] = s->rank_send[0] = s->rank_recv[0] = 0;
    for (int r = 0; r < s->p; r++) {
        ar.rank = r;
        int rc = vine__algo_build_msgs(algo, &ar, &sc);
        if (rc == VINE_ERR_UNSUPPORTED && (algo->flags & (VINE_ALGO_MPI | VINE_ALGO_SHM))) {
            snprintf(err, errlen, "%s %s: %s", vine__coll_name(algo->coll), algo->name,
                     (algo->flags & VINE_ALGO_MPI) ? VINE_ALGO_MPI_WHY : VINE_ALGO_SHM_WHY);
            return rc;
        }
        if (rc == VINE_ERR_UNSUPPORTED) {
            snprintf(err, errlen,
                     "%s %s does not support this case (p=%d, count=%zu, root=%d, %s op%s); "
                     "restrictions: %s",
                     vine__coll_name(algo->coll), algo->name, a->p, a->count, a->root,
                     a->commutative ? "commutative" : "non-commutative",
                     a->inplace ? ", in place" : "", algo->restrictions);
            return rc;
        }
        if (rc == VINE_ERR_NO_MEM) {
            snprintf(err, errlen, "out of memory building rank %d's schedule", r);
            return rc;
        }
        if (rc != VINE_OK) {
            snprintf(err, errlen, "%s %s: the builder failed for rank %d (status %d)",
                     vine__coll_name(algo->coll), algo->name, r, rc);
            return VINE_ERR_INTERNAL;
        }
        size_t first_round = s->nround;
        for (size_t k = 0; k < sc.nrounds; k++) {
            size_t b, e, ns = s->nsend, nr = s->nrecv;
            vine__sched_round(&sc, k, &b, &e);
            for (size_t i = b; i < e; i++) {
                const vine_op *op = &sc.ops[i];
                if (op->kind != VINE_OP_SEND && op->kind != VINE_OP_RECV)
                    continue;
                if (op->peer < 0 || op->peer >= s->p) {
                    snprintf(err, errlen, "%s %s: rank %d, round %zu: peer %d out of range",
                             vine__coll_name(algo->coll), algo->name, r, k, op->peer);
                    vine__sched_free(&sc);
                    return VINE_ERR_INTERNAL;
                }
                if (op->kind == VINE_OP_SEND) {
                    if (grow((void **)&s->sends, &s->send_cap, s->nsend + 1, sizeof *s->sends))
                        goto nomem;
                    s->sends[s->nsend++] = (ssend){op->peer, UINT32_MAX, op->count};
                } else {
                    if (grow((void **)&s->recvs, &s->recv_cap, s->nrecv + 1, sizeof *s->recvs))
                        goto nomem;
                    s->recvs[s->nrecv++] = (srecv){op->peer, UINT32_MAX};
                }
            }
            if (s->nsend == ns && s->nrecv == nr)
                continue;
            if (grow((void **)&s->rounds, &s->round_cap, s->nround + 1, sizeof *s->rounds))
                goto nomem;
            s->rounds[s->nround++] = (sround){(uint32_t)s->nsend, (uint32_t)s->nrecv, -1, 0, 0, 0};
        }
        if (s->nround > first_round)
            s->rounds[s->nround - 1].flags = RF_LAST;
        vine__sched_free(&sc);
        s->rank_round[r + 1] = (uint32_t)s->nround;
        s->rank_send[r + 1] = (uint32_t)s->nsend;
        s->rank_recv[r + 1] = (uint32_t)s->nrecv;
        if (mem_estimate(s) > MEM_LIMIT) {
            snprintf(err, errlen,
                     "%s %s on %d ranks: more than %zu MiB of messages (%zu sends by rank %d); "
                     "the simulator's limit is %zu MiB",
                     vine__coll_name(algo->coll), algo->name, a->p, mem_estimate(s) >> 20, s->nsend,
                     r, MEM_LIMIT >> 20);
            return VINE_ERR_NO_MEM;
        }
    }
    return VINE_OK;
nomem:
    vine__sched_free(&sc);
    snprintf(err, errlen, "out of memory");
    return VINE_ERR_NO_MEM;
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

/* Sorting scratch: keys (peer << 32 | position), and a histogram over peers. */
typedef struct sorter {
    int p;
    uint64_t *keys, *tmp;
    uint32_t *hist; /* p + 1 */
} sorter;

/*
 * Sorts s->keys[0, n) by peer, stably (positions ascend already): a counting
 * sort when n is a fair share of p (alltoall-like lists), else insertion
 * sort or qsort.
 */
static void sort_keys(sorter *so, size_t n)
{
    uint64_t *k = so->keys;
    int sorted = 1;
    for (size_t i = 1; i < n && sorted; i++)
        sorted = k[i - 1] <= k[i];
    if (sorted)
        return;
    if (n >= 64 && 4 * n >= (size_t)so->p) {
        memset(so->hist, 0, ((size_t)so->p + 1) * sizeof *so->hist);
        for (size_t i = 0; i < n; i++)
            so->hist[(k[i] >> 32) + 1]++;
        for (int q = 0; q < so->p; q++)
            so->hist[q + 1] += so->hist[q];
        for (size_t i = 0; i < n; i++)
            so->tmp[so->hist[k[i] >> 32]++] = k[i];
        memcpy(k, so->tmp, n * sizeof *k);
    } else if (n > 24) {
        qsort(k, n, sizeof *k, cmp_u64);
    } else {
        for (size_t i = 1; i < n; i++) {
            uint64_t x = k[i];
            size_t j = i;
            for (; j > 0 && k[j - 1] > x; j--)
                k[j] = k[j - 1];
            k[j] = x;
        }
    }
}

/*
 * Pass 2: the k-th send from a to b meets the k-th receive at b from a.
 * Receives sorted by source per receiver; senders taken in rank order, each
 * one's sends sorted by destination, so that b's receives from a are next at
 * b's cursor.
 */
static int match(sim *s, char *err, size_t errlen)
{
    size_t maxn = 1;
    for (int r = 0; r < s->p; r++) {
        size_t ns = s->rank_send[r + 1] - s->rank_send[r];
        size_t nr = s->rank_recv[r + 1] - s->rank_recv[r];
        maxn = ns > maxn ? ns : maxn;
        maxn = nr > maxn ? nr : maxn;
    }
    int rc = VINE_ERR_NO_MEM;
    uint32_t *rperm = malloc((s->nrecv + 1) * sizeof *rperm);
    uint32_t *rround = malloc((s->nrecv + 1) * sizeof *rround);
    uint32_t *sround = malloc(maxn * sizeof *sround);
    uint32_t *cur = malloc(((size_t)s->p + 1) * sizeof *cur);
    sorter so = {s->p, malloc(maxn * sizeof(uint64_t)), malloc(maxn * sizeof(uint64_t)),
                 malloc(((size_t)s->p + 1) * sizeof(uint32_t))};
    if (!rperm || !rround || !sround || !cur || !so.keys || !so.tmp || !so.hist)
        goto out;
    for (size_t g = 0; g < s->nround; g++)
        for (uint32_t j = round_begin_recv(s, g); j < s->rounds[g].recv_end; j++)
            rround[j] = (uint32_t)g;
    for (int b = 0; b < s->p; b++) {
        uint32_t lo = s->rank_recv[b], n = s->rank_recv[b + 1] - lo;
        for (uint32_t i = 0; i < n; i++)
            so.keys[i] = (uint64_t)(uint32_t)s->recvs[lo + i].src << 32 | i;
        sort_keys(&so, n);
        for (uint32_t i = 0; i < n; i++)
            rperm[lo + i] = lo + (uint32_t)so.keys[i];
        cur[b] = lo;
    }
    rc = VINE_ERR_INTERNAL;
    for (int a = 0; a < s->p; a++) {
        uint32_t lo = s->rank_send[a], n = s->rank_send[a + 1] - lo;
        for (uint32_t g = s->rank_round[a]; g < s->rank_round[a + 1]; g++)
            for (uint32_t i = round_begin_send(s, g); i < s->rounds[g].send_end; i++)
                sround[i - lo] = g;
        for (uint32_t i = 0; i < n; i++)
            so.keys[i] = (uint64_t)(uint32_t)s->sends[lo + i].dst << 32 | i;
        sort_keys(&so, n);
        for (uint32_t x = 0; x < n;) {
            int b = (int)(so.keys[x] >> 32);
            uint32_t y = x + 1;
            while (y < n && (int)(so.keys[y] >> 32) == b)
                y++;
            uint32_t c = cur[b], bhi = s->rank_recv[b + 1], e = c;
            if (c < bhi && s->recvs[rperm[c]].src < a) {
                snprintf(err, errlen, "rank %d posts a receive from rank %d that no send matches",
                         b, s->recvs[rperm[c]].src);
                goto out;
            }
            while (e < bhi && e - c < y - x && s->recvs[rperm[e]].src == a)
                e++;
            if (e - c != y - x || (e < bhi && s->recvs[rperm[e]].src == a)) {
                uint32_t f = e;
                while (f < bhi && s->recvs[rperm[f]].src == a)
                    f++;
                snprintf(err, errlen,
                         "rank %d sends %u messages to rank %d, which posts %u receives from it", a,
                         y - x, b, f - c);
                goto out;
            }
            for (uint32_t k = 0; k < y - x; k++) {
                uint32_t i = lo + (uint32_t)so.keys[x + k], j = rperm[c + k];
                s->sends[i].mround = rround[j];
                s->recvs[j].mround = sround[i - lo];
            }
            cur[b] = e;
            x = y;
        }
    }
    for (int b = 0; b < s->p; b++)
        if (cur[b] < s->rank_recv[b + 1]) {
            snprintf(err, errlen, "rank %d posts a receive from rank %d that no send matches", b,
                     s->recvs[rperm[cur[b]]].src);
            goto out;
        }
    rc = VINE_OK;
out:
    if (rc == VINE_ERR_NO_MEM)
        snprintf(err, errlen, "out of memory");
    free(rperm);
    free(rround);
    free(sround);
    free(cur);
    free(so.keys);
    free(so.tmp);
    free(so.hist);
    return rc;
}

/* Pass 3 helpers: a round's message resolved at step t; a round's end. */
static void round_done(sim *s, size_t x, uint32_t *stack, size_t *sp)
{
    sround *rd = &s->rounds[x];
    if (rd->flags & RF_LAST)
        return;
    s->rounds[x + 1].start = rd->endmax > rd->start ? rd->endmax : rd->start;
    stack[(*sp)++] = (uint32_t)(x + 1);
}

static void resolve(sim *s, size_t g, size_t h, uint32_t *stack, size_t *sp)
{
    int32_t t = s->rounds[g].start > s->rounds[h].start ? s->rounds[g].start : s->rounds[h].start;
    if (t + 1 > s->nsteps)
        s->nsteps = t + 1;
    size_t both[2] = {g, h};
    for (int k = 0; k < 2; k++) {
        sround *rd = &s->rounds[both[k]];
        if (rd->endmax < t + 1)
            rd->endmax = t + 1;
        rd->pending--;
    }
    if (h != g && s->rounds[h].pending == 0)
        round_done(s, h, stack, sp);
}

/* Pass 3: the step of every message (sim.h). */
static int assign_steps(sim *s, char *err, size_t errlen)
{
    uint32_t *stack = malloc(((size_t)s->p + 1) * sizeof *stack);
    if (!stack) {
        snprintf(err, errlen, "out of memory");
        return VINE_ERR_NO_MEM;
    }
    size_t sp = 0;
    for (size_t g = 0; g < s->nround; g++) {
        sround *rd = &s->rounds[g];
        rd->pending = (int32_t)((rd->send_end - round_begin_send(s, g)) +
                                (rd->recv_end - round_begin_recv(s, g)));
    }
    for (int r = 0; r < s->p; r++)
        if (s->rank_round[r] < s->rank_round[r + 1]) {
            s->rounds[s->rank_round[r]].start = 0;
            stack[sp++] = s->rank_round[r];
        }
    s->nsteps = 0;
    while (sp > 0) {
        size_t g = stack[--sp];
        sround *rd = &s->rounds[g];
        rd->flags |= RF_POPPED;
        rd->endmax = rd->start;
        for (uint32_t i = round_begin_send(s, g); i < rd->send_end; i++) {
            uint32_t h = s->sends[i].mround;
            if (h == g || (s->rounds[h].flags & RF_POPPED))
                resolve(s, g, h, stack, &sp);
        }
        for (uint32_t j = round_begin_recv(s, g); j < rd->recv_end; j++) {
            uint32_t h = s->recvs[j].mround;
            if (h != g && (s->rounds[h].flags & RF_POPPED))
                resolve(s, g, h, stack, &sp);
        }
        if (rd->pending == 0)
            round_done(s, g, stack, &sp);
    }
    free(stack);
    for (int r = 0; r < s->p; r++)
        for (uint32_t g = s->rank_round[r]; g < s->rank_round[r + 1]; g++)
            if (!(s->rounds[g].flags & RF_POPPED) || s->rounds[g].pending != 0) {
                snprintf(err, errlen,
                         "rank %d never completes its messages: the schedules deadlock (its "
                         "round %u with messages waits for a peer that never gets there)",
                         r, g - s->rank_round[r]);
                return VINE_ERR_INTERNAL;
            }
    return VINE_OK;
}

/* The messages bucketed by step, senders in rank order. */
static int bucket(sim *s)
{
    s->bstart = calloc((size_t)s->nsteps + 2, sizeof *s->bstart);
    s->bidx = malloc((s->nsend + 1) * sizeof *s->bidx);
    s->bsrc = malloc((s->nsend + 1) * sizeof *s->bsrc);
    if (!s->bstart || !s->bidx || !s->bsrc)
        return VINE_ERR_NO_MEM;
    for (int pass = 0; pass < 2; pass++) {
        for (int r = 0; r < s->p; r++)
            for (uint32_t g = s->rank_round[r]; g < s->rank_round[r + 1]; g++)
                for (uint32_t i = round_begin_send(s, g); i < s->rounds[g].send_end; i++) {
                    int32_t t = s->rounds[g].start, u = s->rounds[s->sends[i].mround].start;
                    if (u > t)
                        t = u;
                    if (pass == 0) {
                        s->bstart[t + 1]++;
                    } else {
                        size_t pos = s->bstart[t]++;
                        s->bidx[pos] = i;
                        s->bsrc[pos] = r;
                    }
                }
        if (pass == 0)
            for (int t = 0; t < s->nsteps; t++)
                s->bstart[t + 1] += s->bstart[t];
    }
    /* The fill advanced bstart[t] to the end of step t: shift back. */
    for (int t = s->nsteps; t > 0; t--)
        s->bstart[t] = s->bstart[t - 1];
    s->bstart[0] = 0;
    return VINE_OK;
}

/* Per-step arc loads. */
typedef struct loads {
    double *load, *total;
    uint32_t *stamp;
    int *touched;
    int ntouched;
} loads;

static inline void add_load(loads *L, const vine_router *rt, vine_sim_result *res, uint32_t st,
                            int arc, double b)
{
    if (L->stamp[arc] != st) {
        L->stamp[arc] = st;
        L->touched[L->ntouched++] = arc;
    }
    L->load[arc] += b;
    res->level_bytes[rt->arc_lvl[arc]] += b;
}

/*
 * Port loads (sim.h: ports), used when hosts have several ports: this
 * step's bytes through every port, sent (out) and received (in), host h's
 * port j at h * k + j; the hosts touched in this step; the run's totals.
 */
typedef struct ports {
    int k;
    double *out, *in, *tot_out, *tot_in;
    uint32_t *stamp; /* per host */
    int *touched, ntouched;
} ports;

static void ports_free(ports *P)
{
    free(P->out);
    free(P->in);
    free(P->tot_out);
    free(P->tot_in);
    free(P->stamp);
    free(P->touched);
}

static int ports_new(ports *P, int nhosts, int k)
{
    size_t n = (size_t)nhosts * (size_t)k + 1;
    memset(P, 0, sizeof *P);
    P->k = k;
    if (k < 2)
        return VINE_OK;
    P->out = calloc(n, sizeof(double));
    P->in = calloc(n, sizeof(double));
    P->tot_out = calloc(n, sizeof(double));
    P->tot_in = calloc(n, sizeof(double));
    P->stamp = calloc((size_t)nhosts + 1, sizeof(uint32_t));
    P->touched = malloc(((size_t)nhosts + 1) * sizeof(int));
    return P->out && P->in && P->tot_out && P->tot_in && P->stamp && P->touched ? VINE_OK
                                                                                : VINE_ERR_NO_MEM;
}

static inline void port_touch(ports *P, int h, uint32_t st)
{
    if (P->stamp[h] != st) {
        P->stamp[h] = st;
        P->touched[P->ntouched++] = h;
    }
}

/*
 * Pass 4 with ports: adds a message's bytes to its ports, or (out != NULL)
 * takes the largest time of them, bytes over the port's bandwidth, into
 * *out.  hu, hv: the hosts; vu, vv: their vertices.  A side without a NIC
 * link has no ports.
 */
static void port_pass(ports *P, const vine_router *rt, int hu, int hv, const vine_route *ro,
                      double bytes, uint32_t st, double *out)
{
    const vine_topo *t = rt->t;
    int k = P->k, vu = t->host_vert[hu], vv = t->host_vert[hv];
    int up = rt->up_arc[vu], down = rt->up_arc[vv];
    double iu = up >= 0 ? k * rt->arc_ibw[up] : 0, iv = down >= 0 ? k * rt->arc_ibw[down ^ 1] : 0;
    double *po = P->out + (size_t)hu * k, *pi = P->in + (size_t)hv * k, x = 0;
    if (!out) {
        if (up >= 0)
            port_touch(P, hu, st);
        if (down >= 0)
            port_touch(P, hv, st);
    }
    if (ro->n == 0) { /* one switch: ports by the other end's host index */
        if (out) {
            x = up >= 0 ? po[hv % k] * iu : 0;
            x = down >= 0 && pi[hu % k] * iv > x ? pi[hu % k] * iv : x;
        } else {
            po[hv % k] += up >= 0 ? bytes : 0;
            pi[hu % k] += down >= 0 ? bytes : 0;
        }
    }
    int cs = rt->core_vert[rt->anchor[vu]], cd = rt->core_vert[rt->anchor[vv]];
    for (uint32_t i = 0; i < ro->n; i++) {
        int arc = rt->parc[ro->off + i];
        if (up >= 0 && vine__topo_arc_tail(t, arc) == cs) {
            double *q = &po[rt->arc_port[arc]];
            if (out)
                x = *q * iu > x ? *q * iu : x;
            else
                *q += bytes * rt->pfrac[ro->off + i];
        }
        if (down >= 0 && vine__topo_arc_head(t, arc) == cd) {
            double *q = &pi[rt->arc_port[arc ^ 1]];
            if (out)
                x = *q * iv > x ? *q * iv : x;
            else
                *q += bytes * rt->pfrac[ro->off + i];
        }
    }
    if (out)
        *out = x;
}

/* The end of a step: the touched ports' bytes go to the totals. */
static void ports_step_end(ports *P)
{
    for (int i = 0; i < P->ntouched; i++) {
        size_t b = (size_t)P->touched[i] * (size_t)P->k;
        for (int j = 0; j < P->k; j++) {
            P->tot_out[b + j] += P->out[b + j];
            P->tot_in[b + j] += P->in[b + j];
            P->out[b + j] = P->in[b + j] = 0;
        }
    }
    P->ntouched = 0;
}

/*
 * The run's port bytes into pb (sim.h: vine__sim_run_ports; NULL: none) and
 * the result's port summary.  With one port, a port is the NIC arc.
 */
static int port_summary(const ports *P, const vine_router *rt, const double *arc_total,
                        const int *rank_host, int p, vine_sim_result *res, double *pb)
{
    const vine_topo *t = rt->t;
    int k = P->k, nh = t->nhosts, used = 0;
    double sum = 0;
    char *holds = calloc((size_t)nh + 1, 1);
    if (!holds)
        return VINE_ERR_NO_MEM;
    for (int r = 0; r < p; r++)
        holds[rank_host[r]] = 1;
    for (int h = 0; h < nh; h++) {
        int up = rt->up_arc[t->host_vert[h]];
        for (int j = 0; j < k; j++) {
            size_t i = (size_t)h * k + j;
            double o = up < 0 ? 0 : k > 1 ? P->tot_out[i] : arc_total[up];
            double n = up < 0 ? 0 : k > 1 ? P->tot_in[i] : arc_total[up ^ 1];
            if (pb) {
                pb[i] = o;
                pb[(size_t)nh * k + i] = n;
            }
            if (o > res->max_port_bytes || n > res->max_port_bytes) {
                res->max_port_in = n > o;
                res->max_port_bytes = n > o ? n : o;
                res->max_port = (int)i;
            }
            sum += holds[h] && up >= 0 ? o : 0;
        }
        used += holds[h] && up >= 0;
    }
    res->mean_port_bytes = used ? sum / ((double)used * k) : 0;
    free(holds);
    return VINE_OK;
}

static void no_path(vine_router *rt, int hu, int hv, char *err, size_t errlen)
{
    char b1[32], b2[32];
    snprintf(err, errlen, "no path between hosts %s and %s", vine__topo_vname(rt->t, hu, b1, 32),
             vine__topo_vname(rt->t, hv, b2, 32));
}

int vine__sim_factor_parse(const char *spec, vine_sim_factor *f, char *err, size_t errlen)
{
    memset(f, 0, sizeof *f);
    if (strcmp(spec, "none") == 0)
        return VINE_OK;
    if (strcmp(spec, "smpi-lat") == 0)
        spec = VINE_SIM_SMPI_LAT_FACTOR;
    else if (strcmp(spec, "smpi-bw") == 0)
        spec = VINE_SIM_SMPI_BW_FACTOR;
    const char *q = spec;
    while (*q) {
        char *end;
        errno = 0;
        double at = strtod(q, &end);
        if (end == q || *end != ':' || errno || !(at >= 0) || !isfinite(at)) {
            snprintf(err, errlen, "factor '%s': expected THRESHOLD:VALUE;... at '%s'", spec, q);
            goto bad;
        }
        q = end + 1;
        double v = strtod(q, &end);
        if (end == q || (*end && *end != ';') || errno || !(v > 0) || !isfinite(v)) {
            snprintf(err, errlen, "factor '%s': expected a positive value at '%s'", spec, q);
            goto bad;
        }
        if (f->n == VINE_SIM_FACTORS_MAX) {
            snprintf(err, errlen, "factor '%s': more than %d thresholds", spec,
                     VINE_SIM_FACTORS_MAX);
            goto bad;
        }
        int i = f->n++;
        for (; i > 0 && f->at[i - 1] > at; i--) { /* insertion: ascending thresholds */
            f->at[i] = f->at[i - 1];
            f->val[i] = f->val[i - 1];
        }
        if (i > 0 && f->at[i - 1] == at) {
            snprintf(err, errlen, "factor '%s': threshold %.17g given twice", spec, at);
            goto bad;
        }
        f->at[i] = at;
        f->val[i] = v;
        q = *end ? end + 1 : end;
    }
    if (f->n == 0) {
        snprintf(err, errlen, "factor '%s': no THRESHOLD:VALUE", spec);
        goto bad;
    }
    return VINE_OK;
bad:
    memset(f, 0, sizeof *f);
    return VINE_ERR_UNSUPPORTED;
}

double vine__sim_factor_at(const vine_sim_factor *f, double b)
{
    double v = 1;
    for (int i = 0; i < f->n && f->at[i] <= b; i++)
        v = f->val[i];
    return v;
}

void vine__router_set_clock(vine_router *r, int per_rank)
{
    r->clock = per_rank != 0;
}

void vine__router_set_factors(vine_router *r, const vine_sim_factor *lat, const vine_sim_factor *bw)
{
    if (lat)
        r->latf = *lat;
    else
        r->latf.n = 0;
    if (bw)
        r->bwf = *bw;
    else
        r->bwf.n = 0;
}

/* Pass 4: routes, loads and time, step by step. */
static int route_all(sim *s, vine_router *rt, const int *rank_host, size_t elem_bytes,
                     vine_sim_result *res, double *port_bytes, char *err, size_t errlen)
{
    const vine_topo *t = rt->t;
    size_t na = (size_t)rt->narcs + 1, maxb = 1;
    for (int st = 0; st < s->nsteps; st++)
        if (s->bstart[st + 1] - s->bstart[st] > maxb)
            maxb = s->bstart[st + 1] - s->bstart[st];
    loads L = {calloc(na, sizeof(double)), calloc(na, sizeof(double)), calloc(na, sizeof(uint32_t)),
               malloc(na * sizeof(int)), 0};
    uint32_t *rid = malloc(maxb * sizeof *rid);
    /* The per-rank clock (vine__router_set_clock): each rank's time, the
     * next one within a step, and the step's message durations. */
    double *clk = NULL, *nclk = NULL, *mdur = NULL;
    if (rt->clock) {
        clk = calloc((size_t)s->p, sizeof *clk);
        nclk = malloc((size_t)s->p * sizeof *nclk);
        mdur = malloc(maxb * sizeof *mdur);
    }
    ports P;
    int rc = ports_new(&P, t->nhosts, rt->ports);
    if (rc != VINE_OK || !L.load || !L.total || !L.stamp || !L.touched || !rid ||
        (rt->clock && (!clk || !nclk || !mdur))) {
        rc = VINE_ERR_NO_MEM;
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    rc = VINE_ERR_NO_MEM; /* what a failure below means unless it says otherwise */
    for (int st = 0; st < s->nsteps; st++) {
        if (++rt->stamp == 0) { /* wrapped: no route may keep an old stamp */
            vine__route_clear(rt);
            memset(L.stamp, 0, na * sizeof *L.stamp);
            if (P.stamp)
                memset(P.stamp, 0, ((size_t)t->nhosts + 1) * sizeof *P.stamp);
            rt->stamp = 1;
        }
        uint32_t stv = rt->stamp;
        size_t fresh = s->bstart[st]; /* route ids from here on date from the last drop */
        double dur = 0;
        L.ntouched = 0;
        size_t b0 = s->bstart[st], b1 = s->bstart[st + 1];
        for (size_t m = b0; m < b1; m++) {
            const ssend *sd = &s->sends[s->bidx[m]];
            int hu = t->host_vert[rank_host[s->bsrc[m]]], hv = t->host_vert[rank_host[sd->dst]];
            double bytes = (double)sd->count * (double)elem_bytes;
            res->bytes += bytes;
            if (hu == hv) {
                res->level_bytes[VINE_LVL_NODE] += bytes;
                double d = t->node_lat + bytes / t->node_bw;
                dur = d > dur ? d : dur;
                if (mdur)
                    mdur[m - b0] = d;
                rid[m - b0] = UINT32_MAX;
                continue;
            }
            if (t->group[hu] != t->group[hv])
                res->cross_group_bytes += bytes;
            unsigned epoch = rt->epoch;
            long id = vine__route_get(rt, rt->anchor[hu], rt->anchor[hv]);
            if (rt->epoch != epoch)
                fresh = m;
            if (id < 0) {
                if (id == -2) {
                    no_path(rt, hu, hv, err, errlen);
                    rc = VINE_ERR_UNSUPPORTED;
                } else {
                    snprintf(err, errlen, "out of memory");
                }
                goto out;
            }
            rid[m - b0] = (uint32_t)id;
            const vine_route *ro = &rt->routes[id];
            if (rt->up_arc[hu] >= 0)
                add_load(&L, rt, res, stv, rt->up_arc[hu], bytes);
            for (uint32_t k = 0; k < ro->n; k++)
                add_load(&L, rt, res, stv, rt->parc[ro->off + k], bytes * rt->pfrac[ro->off + k]);
            if (rt->up_arc[hv] >= 0)
                add_load(&L, rt, res, stv, rt->up_arc[hv] ^ 1, bytes);
            if (P.k > 1)
                port_pass(&P, rt, rank_host[s->bsrc[m]], rank_host[sd->dst], ro, bytes, stv, NULL);
        }
        /* Routes looked up before the cache was last dropped are looked up again (and
         * every route once the cache is dropped during this pass). */
        unsigned epoch = rt->epoch;
        for (size_t m = b0; m < b1; m++) {
            if (rid[m - b0] == UINT32_MAX)
                continue;
            const ssend *sd = &s->sends[s->bidx[m]];
            int hu = t->host_vert[rank_host[s->bsrc[m]]], hv = t->host_vert[rank_host[sd->dst]];
            long id = rid[m - b0];
            if ((m < fresh || rt->epoch != epoch) &&
                (id = vine__route_get(rt, rt->anchor[hu], rt->anchor[hv])) < 0) {
                snprintf(err, errlen, "out of memory");
                goto out;
            }
            vine_route *ro = &rt->routes[id];
            if (ro->stamp != stv) {
                double c = 0;
                for (uint32_t k = 0; k < ro->n; k++) {
                    int arc = rt->parc[ro->off + k];
                    double x = L.load[arc] * rt->arc_ibw[arc];
                    c = x > c ? x : c;
                }
                ro->cmax = c;
                ro->stamp = stv;
            }
            double lat = ro->lat, bw = ro->cmax;
            int up = rt->up_arc[hu], down = rt->up_arc[hv];
            if (up >= 0) {
                lat += rt->arc_lat[up];
                double x = P.k > 1 ? 0 : L.load[up] * rt->arc_ibw[up];
                bw = x > bw ? x : bw;
            }
            if (down >= 0) {
                down ^= 1;
                lat += rt->arc_lat[down];
                double x = P.k > 1 ? 0 : L.load[down] * rt->arc_ibw[down];
                bw = x > bw ? x : bw;
            }
            if (P.k > 1) { /* the NIC arcs' terms are the ports' */
                double x;
                port_pass(&P, rt, rank_host[s->bsrc[m]], rank_host[sd->dst], ro, 0, stv, &x);
                bw = x > bw ? x : bw;
            }
            if (rt->latf.n || rt->bwf.n) {
                double bytes = (double)sd->count * (double)elem_bytes;
                lat *= vine__sim_factor_at(&rt->latf, bytes);
                bw /= vine__sim_factor_at(&rt->bwf, bytes);
            }
            dur = lat + bw > dur ? lat + bw : dur;
            if (mdur)
                mdur[m - b0] = lat + bw;
        }
        res->time += dur;
        if (clk) { /* a message starts when both ends are ready; its ends move on after it */
            for (size_t m = b0; m < b1; m++) {
                int u = s->bsrc[m], v = s->sends[s->bidx[m]].dst;
                nclk[u] = clk[u];
                nclk[v] = clk[v];
            }
            for (size_t m = b0; m < b1; m++) {
                int u = s->bsrc[m], v = s->sends[s->bidx[m]].dst;
                double e = (clk[u] > clk[v] ? clk[u] : clk[v]) + mdur[m - b0];
                nclk[u] = e > nclk[u] ? e : nclk[u];
                nclk[v] = e > nclk[v] ? e : nclk[v];
            }
            for (size_t m = b0; m < b1; m++) {
                int u = s->bsrc[m], v = s->sends[s->bidx[m]].dst;
                clk[u] = nclk[u];
                clk[v] = nclk[v];
            }
        }
        for (int k = 0; k < L.ntouched; k++) {
            int arc = L.touched[k];
            L.total[arc] += L.load[arc];
            L.load[arc] = 0;
        }
        if (P.k > 1)
            ports_step_end(&P);
    }
    for (int arc = 0; arc < rt->narcs; arc++)
        if (L.total[arc] > res->max_arc_bytes) {
            res->max_arc_bytes = L.total[arc];
            res->max_arc = arc;
        }
    if (clk) {
        res->time = 0;
        for (int k = 0; k < s->p; k++)
            res->time = clk[k] > res->time ? clk[k] : res->time;
    }
    rc = port_summary(&P, rt, L.total, rank_host, s->p, res, port_bytes);
    if (rc != VINE_OK)
        snprintf(err, errlen, "out of memory");
out:
    free(clk);
    free(nclk);
    free(mdur);
    ports_free(&P);
    free(L.load);
    free(L.total);
    free(L.stamp);
    free(L.touched);
    free(rid);
    return rc;
}

/* Passes 1-3 and the buckets; validates the case first. */
static int prepare(sim *s, const vine_algo *algo, const vine_args *a, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    if (!algo || !a || a->p < 1) {
        snprintf(err, errlen, "simulator: missing algorithm or case, or p < 1");
        return VINE_ERR_UNSUPPORTED;
    }
    if (algo->coll != a->coll) {
        snprintf(err, errlen, "simulator: algorithm %s is a %s algorithm, the case a %s",
                 algo->name, vine__coll_name(algo->coll), vine__coll_name(a->coll));
        return VINE_ERR_UNSUPPORTED;
    }
    if ((a->coll == VINE_COLL_REDUCE_SCATTER || a->coll == VINE_COLL_REDUCE_SCATTER_BLOCK) &&
        (!a->counts || !a->displs)) {
        snprintf(err, errlen, "simulator: %s needs counts and displs", vine__coll_name(a->coll));
        return VINE_ERR_UNSUPPORTED;
    }
    /* The v builders read their tables unchecked: refuse a case without them. */
    if (vine__coll_is_v(a->coll) && !vine__verify_vtables_ok(a)) {
        snprintf(err, errlen,
                 "simulator: %s needs its count tables (scounts/sdispls, rcounts/rdispls; "
                 "alltoallv and alltoallw: p x p with vstride p)",
                 vine__coll_name(a->coll));
        return VINE_ERR_UNSUPPORTED;
    }
    s->p = a->p;
    int rc;
    s->rank_round = malloc(((size_t)a->p + 1) * sizeof *s->rank_round);
    s->rank_send = malloc(((size_t)a->p + 1) * sizeof *s->rank_send);
    s->rank_recv = malloc(((size_t)a->p + 1) * sizeof *s->rank_recv);
    if (!s->rank_round || !s->rank_send || !s->rank_recv) {
        snprintf(err, errlen, "out of memory");
        return VINE_ERR_NO_MEM;
    }
    if ((rc = extract(s, algo, a, err, errlen)) != VINE_OK)
        return rc;
    if ((rc = match(s, err, errlen)) != VINE_OK)
        return rc;
    if ((rc = assign_steps(s, err, errlen)) != VINE_OK)
        return rc;
    free(s->recvs);
    s->recvs = NULL;
    if ((rc = bucket(s)) != VINE_OK) {
        snprintf(err, errlen, "out of memory");
        return rc;
    }
    free(s->rounds);
    s->rounds = NULL;
    return VINE_OK;
}

int vine__sim_run(vine_router *r, const int *rank_host, const vine_algo *algo, const vine_args *a,
                  size_t elem_bytes, vine_sim_result *res, char *err, size_t errlen)
{
    return vine__sim_run_ports(r, rank_host, algo, a, elem_bytes, res, NULL, err, errlen);
}

int vine__sim_run_ports(vine_router *r, const int *rank_host, const vine_algo *algo,
                        const vine_args *a, size_t elem_bytes, vine_sim_result *res,
                        double *port_bytes, char *err, size_t errlen)
{
    memset(res, 0, sizeof *res);
    res->max_arc = -1;
    res->max_port = -1;
    if (errlen)
        err[0] = '\0';
    if (!r || !rank_host || !a) {
        snprintf(err, errlen, "simulator: missing router, placement or case");
        return VINE_ERR_UNSUPPORTED;
    }
    for (int k = 0; k < a->p; k++)
        if (rank_host[k] < 0 || rank_host[k] >= r->t->nhosts) {
            snprintf(err, errlen, "simulator: rank %d is placed on host %d, the topology has %d", k,
                     rank_host[k], r->t->nhosts);
            return VINE_ERR_UNSUPPORTED;
        }
    sim s;
    int rc = prepare(&s, algo, a, err, errlen);
    if (rc == VINE_OK) {
        res->steps = s.nsteps;
        res->messages = s.nsend;
        rc = route_all(&s, r, rank_host, elem_bytes, res, port_bytes, err, errlen);
    }
    sim_free(&s);
    if (rc != VINE_OK) {
        memset(res, 0, sizeof *res);
        res->max_arc = -1;
        res->max_port = -1;
    }
    return rc;
}

int vine__sim_steps(const vine_algo *algo, const vine_args *a, vine_sim_msg **msgs, size_t *n,
                    char *err, size_t errlen)
{
    *msgs = NULL;
    *n = 0;
    if (errlen)
        err[0] = '\0';
    sim s;
    int rc = prepare(&s, algo, a, err, errlen);
    if (rc == VINE_OK) {
        vine_sim_msg *m = malloc((s.nsend + 1) * sizeof *m);
        if (!m) {
            snprintf(err, errlen, "out of memory");
            rc = VINE_ERR_NO_MEM;
        } else {
            for (int t = 0; t < s.nsteps; t++)
                for (size_t k = s.bstart[t]; k < s.bstart[t + 1]; k++) {
                    const ssend *sd = &s.sends[s.bidx[k]];
                    m[k] = (vine_sim_msg){s.bsrc[k], sd->dst, t, sd->count};
                }
            *msgs = m;
            *n = s.nsend;
        }
    }
    sim_free(&s);
    return rc;
}
