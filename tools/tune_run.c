/*
 * vine-tune: the measurement of one case (a collective at one size on one
 * communicator), see tune.h and docs/vine-tune.md, "Method".
 *
 * Every candidate runs once untimed (the warm-up, which also shows whether
 * vine served it or fell back to another algorithm), auto runs once to learn
 * the default, then rounds follow: in each round every candidate runs a
 * batch of iterations, in an order shuffled per round by a generator that
 * every rank seeds alike, each iteration after a barrier.  A round's times
 * are reduced with MPI_MAX to rank 0 at its end, so a sample is the slowest
 * rank's time of one iteration.  Rank 0 decides after each round whether
 * another fits the case's share of the budget and tells the others.
 */
#include "bench/stats.h"
#include "tune.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* One case's buffers and arguments on this rank. */
typedef struct tcase {
    vine_coll coll;
    MPI_Comm comm;
    MPI_Datatype dt;
    size_t tsize;
    int q, rank, root;
    int count;   /* the count argument: elements of one block or of the vector */
    int *counts; /* reduce_scatter and allgatherv: q equal blocks */
    int *displs; /* allgatherv: the blocks packed in rank order */
    unsigned char *send, *recv;
} tcase;

/* Per-case working state of the candidates (every rank), samples on rank 0. */
typedef struct tstate {
    int n; /* candidates */
    tune_cand cand[TUNE_MAX_CANDS];
    int alive[TUNE_MAX_CANDS];   /* still measured */
    double warm[TUNE_MAX_CANDS]; /* the warm-up call's time, seconds, max over ranks */
    double *samples;             /* rank 0: n rows of max_iters, microseconds */
    int nsamples;                /* per alive candidate */
} tstate;

/* The segment sizes tried for the algorithms that pipeline in segments (vine_args.seg_count). */
static const size_t seg_sizes[] = {16 << 10, 64 << 10, 256 << 10, 1 << 20};

/* Does the registry's algorithm pipeline in segments (grep seg_count in src/coll)? */
static int segmented(const vine_algo *a)
{
    return a->coll == VINE_COLL_ALLREDUCE &&
           (strcmp(a->name, "bine_large") == 0 || strcmp(a->name, "hier_large") == 0);
}

int tune_is_reduction(vine_coll coll)
{
    return coll == VINE_COLL_REDUCE || coll == VINE_COLL_ALLREDUCE ||
           coll == VINE_COLL_REDUCE_SCATTER || coll == VINE_COLL_REDUCE_SCATTER_BLOCK ||
           coll == VINE_COLL_SCAN || coll == VINE_COLL_EXSCAN;
}

int tune_case_ints(vine_coll coll, int q, size_t bytes)
{
    /* allgatherv's last displacement, (q - 1) blocks, is an int in the MPI library's call. */
    return coll != VINE_COLL_ALLGATHERV || (size_t)(q - 1) * bytes <= INT_MAX;
}

MPI_Datatype tune_type(vine_coll coll, size_t *tsize)
{
    *tsize = tune_is_reduction(coll) ? sizeof(int) : 1;
    return tune_is_reduction(coll) ? MPI_INT : MPI_BYTE;
}

/* Elements of the send and receive buffers of rank r (root 0) for count n. */
static void shape(vine_coll coll, int q, int r, size_t n, size_t *in, size_t *out)
{
    size_t big = (size_t)q * n;
    *in = n;
    *out = n;
    switch (coll) {
    case VINE_COLL_BCAST:
        *in = 0;
        break;
    case VINE_COLL_REDUCE:
        *out = r == 0 ? n : 0;
        break;
    case VINE_COLL_ALLGATHER:
    case VINE_COLL_ALLGATHERV:
        *out = big;
        break;
    case VINE_COLL_REDUCE_SCATTER:
    case VINE_COLL_REDUCE_SCATTER_BLOCK:
        *in = big;
        break;
    case VINE_COLL_ALLTOALL:
        *in = *out = big;
        break;
    case VINE_COLL_GATHER:
        *out = r == 0 ? big : 0;
        break;
    case VINE_COLL_SCATTER:
        *in = r == 0 ? big : 0;
        break;
    case VINE_COLL_BARRIER:
        *in = *out = 0;
        break;
    default:
        break;
    }
}

double tune_case_mem(vine_coll coll, int q, size_t bytes)
{
    size_t in, out, tsize;
    tune_type(coll, &tsize);
    shape(coll, q, 0, bytes / tsize, &in, &out); /* rank 0, the root, holds the most */
    return ((double)in + (double)out) * (double)tsize;
}

static void tcase_free(tcase *c)
{
    free(c->counts);
    free(c->displs);
    free(c->send);
    free(c->recv);
}

/* Allocates this rank's buffers; -1 when memory ran out. */
static int tcase_init(tcase *c, MPI_Comm comm, vine_coll coll, size_t bytes)
{
    memset(c, 0, sizeof *c);
    c->coll = coll;
    c->comm = comm;
    c->dt = tune_type(coll, &c->tsize);
    MPI_Comm_size(comm, &c->q);
    MPI_Comm_rank(comm, &c->rank);
    size_t n = bytes / c->tsize, in, out;
    c->count = (int)n;
    shape(coll, c->q, c->rank, n, &in, &out);
    c->counts = malloc(sizeof(int) * (size_t)c->q);
    c->displs = malloc(sizeof(int) * (size_t)c->q);
    /* One spare byte: no buffer is of size 0, which malloc may answer with NULL. */
    c->send = malloc(in * c->tsize + 1);
    c->recv = malloc(out * c->tsize + 1);
    if (!c->counts || !c->displs || !c->send || !c->recv || !tune_case_ints(coll, c->q, bytes))
        return -1;
    for (int i = 0; i < c->q; i++) {
        c->counts[i] = c->count;
        c->displs[i] = i * c->count;
    }
    /* Zeros: a sum of them never overflows, and the pages are touched before the timing. */
    memset(c->send, 0, in * c->tsize + 1);
    memset(c->recv, 0, out * c->tsize + 1);
    return 0;
}

static int call_vine(const tcase *c)
{
    MPI_Comm w = c->comm;
    int n = c->count;
    switch (c->coll) {
    case VINE_COLL_BCAST:
        return vine_bcast(c->recv, n, c->dt, 0, w);
    case VINE_COLL_REDUCE:
        return vine_reduce(c->send, c->recv, n, c->dt, MPI_SUM, 0, w);
    case VINE_COLL_ALLREDUCE:
        return vine_allreduce(c->send, c->recv, n, c->dt, MPI_SUM, w);
    case VINE_COLL_ALLGATHER:
        return vine_allgather(c->send, n, c->dt, c->recv, n, c->dt, w);
    case VINE_COLL_REDUCE_SCATTER_BLOCK:
        return vine_reduce_scatter_block(c->send, c->recv, n, c->dt, MPI_SUM, w);
    case VINE_COLL_REDUCE_SCATTER:
        return vine_reduce_scatter(c->send, c->recv, c->counts, c->dt, MPI_SUM, w);
    case VINE_COLL_ALLTOALL:
        return vine_alltoall(c->send, n, c->dt, c->recv, n, c->dt, w);
    case VINE_COLL_GATHER:
        return vine_gather(c->send, n, c->dt, c->recv, n, c->dt, 0, w);
    case VINE_COLL_SCATTER:
        return vine_scatter(c->send, n, c->dt, c->recv, n, c->dt, 0, w);
    case VINE_COLL_ALLGATHERV:
        return vine_allgatherv(c->send, n, c->dt, c->recv, c->counts, c->displs, c->dt, w);
    case VINE_COLL_SCAN:
        return vine_scan(c->send, c->recv, n, c->dt, MPI_SUM, w);
    case VINE_COLL_EXSCAN:
        return vine_exscan(c->send, c->recv, n, c->dt, MPI_SUM, w);
    default:
        return vine_barrier(w);
    }
}

static int call_mpi(const tcase *c)
{
    MPI_Comm w = c->comm;
    int n = c->count;
    switch (c->coll) {
    case VINE_COLL_BCAST:
        return MPI_Bcast(c->recv, n, c->dt, 0, w);
    case VINE_COLL_REDUCE:
        return MPI_Reduce(c->send, c->recv, n, c->dt, MPI_SUM, 0, w);
    case VINE_COLL_ALLREDUCE:
        return MPI_Allreduce(c->send, c->recv, n, c->dt, MPI_SUM, w);
    case VINE_COLL_ALLGATHER:
        return MPI_Allgather(c->send, n, c->dt, c->recv, n, c->dt, w);
    case VINE_COLL_REDUCE_SCATTER_BLOCK:
        return MPI_Reduce_scatter_block(c->send, c->recv, n, c->dt, MPI_SUM, w);
    case VINE_COLL_REDUCE_SCATTER:
        return MPI_Reduce_scatter(c->send, c->recv, c->counts, c->dt, MPI_SUM, w);
    case VINE_COLL_ALLTOALL:
        return MPI_Alltoall(c->send, n, c->dt, c->recv, n, c->dt, w);
    case VINE_COLL_GATHER:
        return MPI_Gather(c->send, n, c->dt, c->recv, n, c->dt, 0, w);
    case VINE_COLL_SCATTER:
        return MPI_Scatter(c->send, n, c->dt, c->recv, n, c->dt, 0, w);
    case VINE_COLL_ALLGATHERV:
        return MPI_Allgatherv(c->send, n, c->dt, c->recv, c->counts, c->displs, c->dt, w);
    case VINE_COLL_SCAN:
        return MPI_Scan(c->send, c->recv, n, c->dt, MPI_SUM, w);
    case VINE_COLL_EXSCAN:
        return MPI_Exscan(c->send, c->recv, n, c->dt, MPI_SUM, w);
    default:
        return MPI_Barrier(w);
    }
}

/* Makes vine run candidate k (nothing to set for the MPI library's direct call). */
static void choose(const tcase *c, const tune_cand *k)
{
    if (k->mpi)
        return;
    vine_set_algorithm(c->coll, k->algo->name);
    if (vine_get_segment_size() != (MPI_Count)k->segment)
        vine_set_segment_size((MPI_Count)k->segment);
}

/* Back to what auto serves without a tuning file: no forced algorithm, no segments. */
static void choose_auto(vine_coll coll)
{
    vine_set_algorithm(coll, "auto");
    if (vine_get_segment_size() != 0)
        vine_set_segment_size(0);
}

static void add_cand(tstate *s, const vine_algo *a, int mpi, size_t seg)
{
    if (s->n == TUNE_MAX_CANDS)
        return;
    tune_cand *k = &s->cand[s->n];
    k->algo = a;
    k->mpi = mpi;
    k->segment = seg;
    k->median_us = NAN;
    s->alive[s->n++] = 1;
}

/*
 * The candidates of c, the same list on every rank: the MPI library's
 * collective, then every registry algorithm but the registry's "mpi" entry
 * (the same call) and those that need a graph file, with the segmented
 * variants where the size holds at least 4 segments.  Power-of-two and
 * even-only algorithms are left out where they cannot apply; other
 * restrictions show in the warm-up call.
 */
static void list_cands(const tcase *c, size_t bytes, tstate *s)
{
    s->n = 0;
    add_cand(s, vine__algo_find(c->coll, "mpi"), 1, 0);
    for (int i = 0; i < vine__algo_count(c->coll); i++) {
        const vine_algo *a = vine__algo_nth(c->coll, i);
        if (a->flags & (VINE_ALGO_MPI | VINE_ALGO_GRAPH))
            continue;
        if (((a->flags & VINE_ALGO_POW2) && (c->q & (c->q - 1))) ||
            ((a->flags & VINE_ALGO_EVEN) && c->q % 2))
            continue;
        add_cand(s, a, 0, 0);
        for (size_t j = 0; segmented(a) && j < sizeof seg_sizes / sizeof seg_sizes[0]; j++)
            if (bytes >= 4 * seg_sizes[j])
                add_cand(s, a, 0, seg_sizes[j]);
    }
}

/*
 * Collective: one untimed call of every candidate.  A candidate that failed
 * or that vine served with another algorithm on any rank is dropped; warm[k]
 * is the call's time on the slowest rank.
 */
static void warm_up(const tcase *c, tstate *s)
{
    double v[2 * TUNE_MAX_CANDS], all[2 * TUNE_MAX_CANDS];
    for (int k = 0; k < s->n; k++) {
        choose(c, &s->cand[k]);
        double t0 = MPI_Wtime();
        int rc = s->cand[k].mpi ? call_mpi(c) : call_vine(c);
        v[s->n + k] = MPI_Wtime() - t0;
        int fell = !s->cand[k].mpi && c->coll != VINE_COLL_BARRIER && c->count == 0;
        if (!s->cand[k].mpi && rc == MPI_SUCCESS)
            fell |= strcmp(vine_last_algorithm(c->coll), s->cand[k].algo->name) != 0;
        v[k] = rc != MPI_SUCCESS || fell;
    }
    MPI_Allreduce(v, all, 2 * s->n, MPI_DOUBLE, MPI_MAX, c->comm);
    for (int k = 0; k < s->n; k++) {
        s->alive[k] = all[k] == 0;
        s->warm[k] = all[s->n + k];
    }
}

/* Collective: the candidate auto serves without a tuning file; -1 when none of the list. */
static int find_default(const tcase *c, const tstate *s)
{
    choose_auto(c->coll);
    if (call_vine(c) != MPI_SUCCESS)
        return -1;
    /* An "mpi" served by vine is the direct call's candidate: the same library collective. */
    const char *name = vine_last_algorithm(c->coll);
    for (int k = 0; k < s->n; k++)
        if (s->alive[k] && s->cand[k].segment == 0 && strcmp(s->cand[k].algo->name, name) == 0)
            return k;
    return -1;
}

/* A small generator (xorshift64*) that every rank seeds alike. */
static uint64_t next_random(uint64_t *x)
{
    *x ^= *x >> 12;
    *x ^= *x << 25;
    *x ^= *x >> 27;
    return *x * 2685821657736338717ULL;
}

/* The alive candidates in an order shuffled by seed (Fisher-Yates); returns how many. */
static int shuffled(const tstate *s, uint64_t seed, int *order)
{
    int m = 0;
    for (int k = 0; k < s->n; k++)
        if (s->alive[k])
            order[m++] = k;
    uint64_t x = seed * 0x9E3779B97F4A7C15ULL + 1;
    for (int i = m - 1; i > 0; i--) {
        int j = (int)(next_random(&x) % (uint64_t)(i + 1));
        int t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    return m;
}

/* b timed iterations of candidate k into t (microseconds); a failed call counts as infinite. */
static void batch(const tcase *c, const tune_cand *k, int b, double *t)
{
    choose(c, k);
    for (int i = 0; i < b; i++) {
        MPI_Barrier(c->comm);
        double t0 = MPI_Wtime();
        int rc = k->mpi ? call_mpi(c) : call_vine(c);
        t[i] = rc == MPI_SUCCESS ? (MPI_Wtime() - t0) * 1e6 : INFINITY;
    }
}

/*
 * Collective: one round, b iterations of every alive candidate in a
 * shuffled order; rank 0 appends the maxima over ranks to the samples and
 * drops a candidate whose call failed (an infinite sample).
 */
static int round_run(const tcase *c, tstate *s, uint64_t seed, int b, int max_iters)
{
    int order[TUNE_MAX_CANDS], m = shuffled(s, seed, order);
    double *t = malloc(sizeof(double) * (size_t)(m * b)), *mx = NULL;
    int bad = !t || (c->rank == 0 && !(mx = malloc(sizeof(double) * (size_t)(m * b))));
    int any_bad;
    MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_LOR, c->comm);
    if (any_bad) {
        free(t);
        free(mx);
        return -1;
    }
    for (int i = 0; i < m; i++)
        batch(c, &s->cand[order[i]], b, t + i * b);
    MPI_Reduce(t, mx, m * b, MPI_DOUBLE, MPI_MAX, 0, c->comm);
    for (int i = 0; c->rank == 0 && i < m; i++) {
        double *row = s->samples + (size_t)order[i] * (size_t)max_iters + s->nsamples;
        for (int j = 0; j < b; j++) {
            row[j] = mx[i * b + j];
            if (!isfinite(row[j]))
                s->alive[order[i]] = 0;
        }
    }
    s->nsamples += b;
    free(t);
    free(mx);
    return 0;
}

/* Rank 0: the seconds one iteration of every alive candidate takes, by the warm-up. */
static double iter_cost(const tstate *s)
{
    double sum = 0;
    for (int k = 0; k < s->n; k++)
        sum += s->alive[k] ? s->warm[k] + 2e-6 : 0; /* 2 us for the barrier before it */
    return sum;
}

/*
 * Rank 0: another round, of per_round seconds, in a case started at
 * case_start (its warm-up included)?  1 yes, 0 enough, -1 give the case up:
 * the deadline comes before every candidate has its minimum of samples.
 */
static int another_round(const tune_run *t, const tstate *s, double case_start, double per_round,
                         double share)
{
    double now = MPI_Wtime();
    if (s->nsamples >= t->o->max_iters)
        return 0;
    if (now + per_round > t->deadline)
        return s->nsamples >= TUNE_MIN_SAMPLES ? 0 : -1;
    if (s->nsamples < TUNE_MIN_SAMPLES)
        return 1;
    return now - case_start + per_round <= share;
}

/*
 * Collective: rounds until rank 0 says stop; returns 0, or TUNE_SKIP_BUDGET
 * when the deadline came before every candidate had its minimum of samples,
 * TUNE_SKIP_NOMEM when memory ran out.
 */
static int rounds(const tune_run *t, const tcase *c, tstate *s, double share, uint64_t seed,
                  double case_start)
{
    int max = t->o->max_iters, cap = max / 8 > 1 ? max / 8 : 1, go = 1, b = 1;
    if (c->rank == 0) {
        /* About 8 rounds fill the share; more when the iterations are slow. */
        double per_iter = iter_cost(s);
        double want = per_iter > 0 ? share / 8 / per_iter : cap;
        b = want < 1 ? 1 : want > cap ? cap : (int)want;
    }
    MPI_Bcast(&b, 1, MPI_INT, 0, c->comm);
    double rounds_start = MPI_Wtime();
    for (int r = 0; go == 1; r++) {
        int bb = b < max - s->nsamples ? b : max - s->nsamples;
        if (round_run(c, s, seed * 1000003ULL + (uint64_t)r, bb, max) != 0)
            return TUNE_SKIP_NOMEM;
        int msg[1 + TUNE_MAX_CANDS];
        if (c->rank == 0) {
            msg[0] = another_round(t, s, case_start, (MPI_Wtime() - rounds_start) / (r + 1), share);
            memcpy(msg + 1, s->alive, sizeof(int) * (size_t)s->n);
        }
        MPI_Bcast(msg, 1 + s->n, MPI_INT, 0, c->comm);
        go = msg[0];
        memcpy(s->alive, msg + 1, sizeof(int) * (size_t)s->n);
    }
    int alive = 0;
    for (int k = 0; k < s->n; k++)
        alive += s->alive[k];
    return go < 0 ? TUNE_SKIP_BUDGET : alive ? 0 : TUNE_SKIP_NOCAND;
}

/* Rank 0: the median of candidate k's samples. */
static double median_of(const tstate *s, int k, int max_iters)
{
    vine_bench_stats st;
    const double *row = s->samples + (size_t)k * (size_t)max_iters;
    return vine__bench_stats(row, s->nsamples, 0, &st) == VINE_OK ? st.median : NAN;
}

/* The index of the lowest median among the alive candidates other than skip; -1 when none. */
static int best_of(const tstate *s, int skip)
{
    int best = -1;
    for (int k = 0; k < s->n; k++)
        if (s->alive[k] && k != skip &&
            (best < 0 || s->cand[k].median_us < s->cand[best].median_us))
            best = k;
    return best;
}

/*
 * The MPI library's candidate when it should serve instead of chosen: its
 * median at most mpi_margin above chosen's.  A vine algorithm must win by
 * more than that, since a win of a few percent in vine-tune's interleaved
 * rounds may not survive in the application (docs/vine-tune.md).
 */
static int prefer_mpi(const tune_run *t, const tstate *s, int chosen)
{
    for (int k = 0; k < s->n; k++)
        if (s->alive[k] && s->cand[k].mpi && k != chosen &&
            s->cand[k].median_us <= s->cand[chosen].median_us * (1 + t->o->mpi_margin))
            return k;
    return chosen;
}

/*
 * Rank 0: the verdict: the winner (lowest median) replaces the default only
 * when the U test finds their samples different at level alpha; then the MPI
 * library's collective takes the size if it is within --mpi-margin.
 */
static void judge(const tune_run *t, tstate *s, int def, tune_result *r)
{
    int max = t->o->max_iters;
    for (int k = 0; k < s->n; k++)
        s->cand[k].median_us = s->alive[k] ? median_of(s, k, max) : NAN;
    r->ncand = 0;
    int map[TUNE_MAX_CANDS];
    for (int k = 0; k < s->n; k++) {
        map[k] = s->alive[k] ? r->ncand : -1;
        if (s->alive[k])
            r->cand[r->ncand++] = s->cand[k];
    }
    int win = best_of(s, -1), chosen = win;
    r->p_value = NAN;
    if (def >= 0 && s->alive[def] && win != def) {
        double p = 0;
        const double *x = s->samples + (size_t)win * (size_t)max;
        const double *y = s->samples + (size_t)def * (size_t)max;
        if (vine__bench_mann_whitney(x, s->nsamples, y, s->nsamples, NULL, &p) != VINE_OK)
            p = 1;
        r->p_value = p;
        chosen = p < t->o->alpha ? win : def;
    }
    chosen = prefer_mpi(t, s, chosen);
    r->samples = s->nsamples;
    r->def = def >= 0 && s->alive[def] ? map[def] : -1;
    r->winner = map[win];
    r->chosen = map[chosen];
    int ru = best_of(s, chosen);
    r->runner_up = ru >= 0 ? map[ru] : -1;
}

/* Collective: does every rank have its buffers?  Frees them everywhere when not. */
static int buffers(tcase *c, MPI_Comm comm, vine_coll coll, size_t bytes)
{
    int bad = tcase_init(c, comm, coll, bytes) != 0, any;
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_LOR, comm);
    if (any)
        tcase_free(c);
    return !any;
}

/*
 * Collective: warm-up and default, then rank 0 checks that the minimum of
 * samples fits before the deadline; returns 0 to go on or a tune_skip_why.
 */
static int prepare(const tune_run *t, const tcase *c, tstate *s, size_t bytes, int *def)
{
    list_cands(c, bytes, s);
    warm_up(c, s);
    *def = find_default(c, s);
    int go = 0, alive = 0;
    for (int k = 0; k < s->n; k++)
        alive += s->alive[k];
    if (c->rank == 0) {
        if (!alive)
            go = TUNE_SKIP_NOCAND;
        else if (MPI_Wtime() + TUNE_MIN_SAMPLES * iter_cost(s) > t->deadline)
            go = TUNE_SKIP_BUDGET;
    }
    MPI_Bcast(&go, 1, MPI_INT, 0, c->comm);
    return go;
}

int tune_measure(tune_run *t, MPI_Comm comm, vine_coll coll, size_t bytes, double share,
                 tune_result *r, double *est_iter)
{
    tcase c;
    double start = MPI_Wtime();
    if (!buffers(&c, comm, coll, bytes))
        return TUNE_SKIP_NOMEM;
    tstate *s = calloc(1, sizeof *s);
    int def = -1, why = s ? 0 : TUNE_SKIP_NOMEM, any;
    if (s && c.rank == 0) {
        s->samples = malloc(sizeof(double) * TUNE_MAX_CANDS * (size_t)t->o->max_iters);
        why = s->samples ? 0 : TUNE_SKIP_NOMEM;
    }
    MPI_Allreduce(&why, &any, 1, MPI_INT, MPI_MAX, comm);
    why = any;
    if (!why)
        why = prepare(t, &c, s, bytes, &def);
    if (!why)
        why = rounds(t, &c, s, share, (uint64_t)t->cases_done + 1, start);
    if (c.rank == 0 && s) {
        *est_iter = iter_cost(s);
        if (!why && r) {
            memset(r, 0, sizeof *r);
            r->coll = coll;
            r->q = c.q;
            r->bytes = bytes;
            judge(t, s, def, r);
        }
    }
    choose_auto(coll);
    if (s)
        free(s->samples);
    free(s);
    tcase_free(&c);
    return why;
}
