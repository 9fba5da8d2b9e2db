/*
 * vine-tune: the cost model (src/select/cost.h) fitted to the run's medians.
 *
 * A flat call (no level map) is priced with every message alike: with one
 * parameter class and a contention factor of 1 the model's time of an
 * algorithm is linear in alpha, beta and gamma, t = A alpha + B beta + G
 * gamma, so pricing it with the unit parameter sets (1, 0, 0), (0, 1, 0) and
 * (0, 0, 1) gives its terms A, B and G; a fourth pricing with other values
 * checks the linearity on every sample.  The parameters are then the
 * non-negative least-squares fit of the relative error, each sample's row
 * divided by its measured median (vine__bench_nnls), so that a 10 us case
 * weighs as much as a 10 ms one.  The report compares, per case, the
 * model's cheapest algorithm with the measured fastest among the algorithms
 * the model prices, and the model's time for the measured fastest with its
 * median: both on the medians the fit was made from.
 *
 * The shm family (measured where the ranks share a node segment) is priced
 * by the model's shm level (cost_shm.c), linear in its alpha, beta and
 * gamma once beta_node is tied to beta in the built-in ratio (7.8 / 80.5:
 * vine-tune does not measure the node's copy bandwidth).  The six
 * parameters are fitted together; a p2p candidate has no shm terms and an
 * shm one no p2p terms.  The agreement is reported with the shm
 * candidates among the compared ones and without them (the model before
 * its shm level); the file keeps the first.
 */
#include "bench/stats.h"
#include "sched/exec.h"
#include "tune.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    FIT_ALPHA,
    FIT_BETA,
    FIT_GAMMA,
    FIT_SHM_ALPHA,
    FIT_SHM_BETA,
    FIT_SHM_GAMMA,
    FIT_RNDV,
    FIT_N
};

/* The thresholds tried for the large-message start-up (rndv_bytes): 256 B to 4 MiB. */
enum { RNDV_MIN_LOG2 = 8, RNDV_MAX_LOG2 = 22 };

/* The share of the residual the start-up term must remove to be kept. */
#define RNDV_GAIN 0.2

/* The samples of the fit: rows of terms over the median, and the right-hand side 1. */
typedef struct fit {
    double *a, *b;
    int m, cap;
    double rndv_bytes;  /* the threshold of the FIT_RNDV column; 0: no such term */
    double rndv_gain;   /* the share of the residual without the column that it removed */
    int nonlinear;      /* samples left out: the model was not linear there */
    int present[FIT_N]; /* some sample has a term of this parameter */
} fit;

/* beta_node over beta in the built-in shm parameters: the fit keeps this ratio. */
static double node_ratio(void)
{
    vine_cost_shm s;
    vine__cost_shm_defaults(&s);
    return s.beta_node / s.beta;
}

/* Sets the shm copy cost to beta, with beta_node in the built-in ratio. */
static void shm_beta(vine_cost *c, double beta)
{
    c->shm.beta = beta;
    c->shm.beta_node = beta * node_ratio();
}

/*
 * One class, contention 1, every parameter 0 except which (-1: none) set to
 * 1; FIT_RNDV is the start-up of messages of rndv_bytes or more (none when 0).
 */
static void unit_cost(vine_cost *c, int which, double rndv_bytes)
{
    memset(c, 0, sizeof *c);
    c->nclasses = 1;
    c->cls[0].contention = 1;
    c->shm_given = 1;
    if (which == FIT_ALPHA)
        c->cls[0].alpha = 1;
    else if (which == FIT_BETA)
        c->cls[0].beta = 1;
    else if (which == FIT_GAMMA)
        c->gamma = 1;
    else if (which == FIT_SHM_ALPHA)
        c->shm.alpha = 1;
    else if (which == FIT_SHM_BETA)
        shm_beta(c, 1);
    else if (which == FIT_SHM_GAMMA)
        c->shm.gamma = 1;
    else if (which == FIT_RNDV && rndv_bytes > 0) {
        c->cls[0].rndv_alpha = 1;
        c->cls[0].rndv_bytes = rndv_bytes;
    }
}

/* Whether k is one of the shm family (priced by the model's shm level). */
static int is_shm(const tune_cand *k)
{
    return !k->mpi && strcmp(k->algo->name, "shm") == 0;
}

/* The model's time in seconds of candidate k on case r as a flat call; -1 when unpriced. */
static int price(const vine_cost *c, const tune_result *r, const tune_cand *k, double *t)
{
    if (k->mpi || k->segment || !vine__cost_known(r->coll, k->algo->name))
        return -1; /* the model knows neither the library's algorithms nor segments */
    size_t tsize;
    tune_type(r->coll, &tsize);
    vine_args a;
    memset(&a, 0, sizeof a);
    a.coll = r->coll;
    a.p = r->q;
    a.count = r->bytes / tsize;
    a.commutative = 1;
    /* The shm algorithm ran its small calls on the parity slots (docs/shm.md), as priced. */
    if (is_shm(k))
        a.shm_par_count = VINE_SHM_PAR_BYTES / tsize;
    /* allgatherv's formulas read its blocks: q equal ones, packed, as vine-tune calls it. */
    size_t *tab = NULL;
    if (r->coll == VINE_COLL_ALLGATHERV) {
        if (!(tab = malloc(2 * sizeof *tab * (size_t)r->q)))
            return -1;
        for (int i = 0; i < r->q; i++) {
            tab[i] = r->bytes;
            tab[r->q + i] = (size_t)i * r->bytes;
        }
        a.rcounts = tab;
        a.rdispls = tab + r->q;
    }
    int rc = vine__cost_algo(c, k->algo, &a, tsize, t) == VINE_OK ? 0 : -1;
    free(tab);
    return rc;
}

/* The terms of the parameters in k's time on r; -1 when unpriced or not linear. */
static int terms(const tune_result *r, const tune_cand *k, double rndv_bytes, double *co,
                 int *nonlinear)
{
    vine_cost c;
    for (int u = 0; u < FIT_N; u++) {
        unit_cost(&c, u, rndv_bytes);
        if (price(&c, r, k, &co[u]) != 0)
            return -1;
    }
    static const double probe[FIT_N] = {1.3e-6, 0.7e-9, 0.3e-9, 0.11e-6, 0.13e-9, 0.27e-9, 2.9e-6};
    unit_cost(&c, -1, 0);
    if (rndv_bytes > 0) {
        c.cls[0].rndv_alpha = probe[FIT_RNDV];
        c.cls[0].rndv_bytes = rndv_bytes;
    }
    c.cls[0].alpha = probe[FIT_ALPHA];
    c.cls[0].beta = probe[FIT_BETA];
    c.gamma = probe[FIT_GAMMA];
    c.shm.alpha = probe[FIT_SHM_ALPHA];
    shm_beta(&c, probe[FIT_SHM_BETA]);
    c.shm.gamma = probe[FIT_SHM_GAMMA];
    double direct = 0, lin = 0;
    for (int u = 0; u < FIT_N; u++)
        lin += probe[u] * co[u];
    if (price(&c, r, k, &direct) != 0 || fabs(direct - lin) > 1e-9 * fabs(direct) + 1e-18) {
        ++*nonlinear;
        return -1;
    }
    return 0;
}

/*
 * The rows of the fit, with the start-up column for rndv_bytes (0: none):
 * every priced candidate of every case; -1 without memory.
 */
static int collect(const tune_run *t, double rndv_bytes, fit *f)
{
    memset(f, 0, sizeof *f);
    f->rndv_bytes = rndv_bytes;
    for (int i = 0; i < t->nres; i++)
        f->cap += t->res[i].ncand;
    f->a = malloc(sizeof(double) * FIT_N * (size_t)(f->cap + 1));
    f->b = malloc(sizeof(double) * (size_t)(f->cap + 1));
    if (!f->a || !f->b)
        return -1;
    for (int i = 0; i < t->nres; i++)
        for (int k = 0; k < t->res[i].ncand; k++) {
            const tune_result *r = &t->res[i];
            double co[FIT_N], y = r->cand[k].median_us * 1e-6;
            if (!(y > 0) || !isfinite(y) ||
                terms(r, &r->cand[k], rndv_bytes, co, &f->nonlinear) != 0)
                continue;
            for (int u = 0; u < FIT_N; u++) {
                f->a[f->m * FIT_N + u] = co[u] / y;
                f->present[u] |= co[u] != 0;
            }
            f->b[f->m++] = 1;
        }
    return 0;
}

/*
 * The fitted parameters into c (one class); a parameter whose terms never
 * appear in the samples (gamma without a reduction) keeps its built-in value.
 * The shm level is given (written to the file) only when some shm
 * candidate was priced.
 */
static void fitted_cost(const fit *f, const double *x, vine_cost *c)
{
    vine_cost def;
    vine__cost_defaults(&def);
    unit_cost(c, -1, 0);
    /* Class 1 is the built-in price of a message between two ranks of a flat call. */
    c->cls[0].alpha = f->present[FIT_ALPHA] ? x[FIT_ALPHA] : def.cls[1].alpha;
    c->cls[0].beta = f->present[FIT_BETA] ? x[FIT_BETA] : def.cls[1].beta;
    c->gamma = f->present[FIT_GAMMA] ? x[FIT_GAMMA] : def.gamma;
    if (f->rndv_bytes > 0 && x[FIT_RNDV] > 0) {
        c->cls[0].rndv_alpha = x[FIT_RNDV];
        c->cls[0].rndv_bytes = f->rndv_bytes;
    }
    c->shm = def.shm;
    c->shm_given = f->present[FIT_SHM_ALPHA] || f->present[FIT_SHM_BETA];
    if (f->present[FIT_SHM_ALPHA])
        c->shm.alpha = x[FIT_SHM_ALPHA];
    if (f->present[FIT_SHM_BETA])
        shm_beta(c, x[FIT_SHM_BETA]);
    if (f->present[FIT_SHM_GAMMA])
        c->shm.gamma = x[FIT_SHM_GAMMA];
}

/* How often the model's cheapest was the measured fastest. */
typedef struct agreement {
    int cases;
    double share, median_error;
} agreement;

/*
 * Per case with two or more priced candidates (the shm ones only with
 * with_shm): does the model's cheapest equal the measured fastest, and its
 * relative error on that one.  err holds room for t->nres errors.
 */
static agreement evaluate(const tune_run *t, const vine_cost *c, int with_shm, double *err)
{
    int agree = 0;
    agreement g = {0, NAN, NAN};
    for (int i = 0; i < t->nres; i++) {
        const tune_result *r = &t->res[i];
        int fast = -1, cheap = -1, priced = 0;
        double tm[TUNE_MAX_CANDS];
        for (int k = 0; k < r->ncand; k++) {
            if ((!with_shm && is_shm(&r->cand[k])) || price(c, r, &r->cand[k], &tm[k]) != 0 ||
                !(r->cand[k].median_us > 0))
                continue;
            priced++;
            if (fast < 0 || r->cand[k].median_us < r->cand[fast].median_us)
                fast = k;
            if (cheap < 0 || tm[k] < tm[cheap])
                cheap = k;
        }
        if (priced < 2)
            continue;
        double meas = r->cand[fast].median_us * 1e-6;
        agree += cheap == fast;
        err[g.cases++] = fabs(tm[fast] - meas) / meas;
    }
    vine_bench_stats st;
    g.share = g.cases ? (double)agree / g.cases : NAN;
    g.median_error =
        g.cases && vine__bench_stats(err, g.cases, 0, &st) == VINE_OK ? st.median : NAN;
    return g;
}

static void report(const fit *f, const vine_tune_model *m, const agreement *p2p,
                   const agreement *no_rndv)
{
    const char *names[FIT_N] = {"alpha",    "beta",      "gamma", "shm alpha",
                                "shm beta", "shm gamma", "rndv"};
    printf("# model: alpha %.3f us, beta %.4f ns/B, gamma %.4f ns/B: one level, every message "
           "priced alike;\n# fitted to %d medians (least squares of the relative error, "
           "parameters >= 0)",
           m->cost.cls[0].alpha * 1e6, m->cost.cls[0].beta * 1e9, m->cost.gamma * 1e9, f->m);
    for (int u = 0; u < FIT_SHM_ALPHA; u++)
        if (!f->present[u])
            printf("; %s not in any priced term: the built-in value", names[u]);
    if (m->cost.shm_given)
        for (int u = FIT_SHM_ALPHA; u < FIT_N; u++)
            if (!f->present[u])
                printf("; %s not in any priced term: the built-in value", names[u]);
    if (f->nonlinear)
        printf("; %d medians left out where the model was not linear", f->nonlinear);
    printf("\n");
    const vine_cost_level *lv = &m->cost.cls[0];
    if (lv->rndv_alpha > 0)
        printf("# model: a message of %.0f bytes or more starts %.3f us later (rndv; it took "
               "%.0f%% off the fit's residual; without it the cheapest was the fastest in %.0f%% "
               "of %d cases, median error %.0f%%)\n",
               lv->rndv_bytes, lv->rndv_alpha * 1e6, 100 * f->rndv_gain, 100 * no_rndv->share,
               no_rndv->cases, 100 * no_rndv->median_error);
    else
        printf("# model: no large-message start-up (rndv): no threshold from %lu bytes to %lu "
               "took %.0f%% off the fit's residual\n",
               1UL << RNDV_MIN_LOG2, 1UL << RNDV_MAX_LOG2, 100 * RNDV_GAIN);
    if (m->cost.shm_given)
        printf("# model: shm alpha %.3f us per hand-off, beta %.4f ns/B (one rank), beta_node "
               "%.4f ns/B (the node), gamma %.4f ns/B: fitted to the shm medians\n",
               m->cost.shm.alpha * 1e6, m->cost.shm.beta * 1e9, m->cost.shm.beta_node * 1e9,
               m->cost.shm.gamma * 1e9);
    if (m->cases)
        printf("# model: its cheapest algorithm was the measured fastest in %.0f%% of %d cases; "
               "median error of its time for the fastest %.0f%%\n",
               100 * m->agreement, m->cases, 100 * m->median_error);
    else
        printf("# model: no case with two algorithms it prices: agreement not measured\n");
    if (m->cost.shm_given && p2p->cases)
        printf("# model: without the shm terms (shm not compared): %.0f%% of %d cases, median "
               "error %.0f%%\n",
               100 * p2p->share, p2p->cases, 100 * p2p->median_error);
}

/*
 * Fits f's rows into x; *score is the residual per row (the rows differ
 * between thresholds only by the samples that were not linear).
 */
static int solve(const fit *f, double *x, double *score)
{
    double resid = 0;
    memset(x, 0, sizeof(double) * VINE_BENCH_NNLS_MAX);
    if (vine__bench_nnls(f->a, f->b, f->m, FIT_N, x, &resid) != VINE_OK)
        return -1;
    *score = resid / f->m;
    return 0;
}

/*
 * The fit without the start-up term, then with it at each threshold from
 * 2^RNDV_MIN_LOG2 to 2^RNDV_MAX_LOG2 bytes; a threshold is kept when its
 * term is above 0 and removes at least RNDV_GAIN of the residual.  f and x
 * hold the winner, x0 the fit without the term.  Returns 0, 1 when nothing
 * was fitted, -1 without memory.
 */
static int fit_best(const tune_run *t, fit *f, double *x, double *x0)
{
    double score, best;
    if (collect(t, 0, f) != 0)
        return -1;
    if (f->m == 0 || solve(f, x, &best) != 0)
        return 1;
    memcpy(x0, x, sizeof(double) * VINE_BENCH_NNLS_MAX);
    double base = best;
    for (int e = RNDV_MIN_LOG2; e <= RNDV_MAX_LOG2; e++) {
        fit g;
        double y[VINE_BENCH_NNLS_MAX];
        if (collect(t, (double)(1UL << e), &g) != 0 || g.m == 0 || solve(&g, y, &score) != 0 ||
            !(y[FIT_RNDV] > 0) || !(score < best) || !(score <= (1 - RNDV_GAIN) * base)) {
            free(g.a);
            free(g.b);
            continue;
        }
        free(f->a);
        free(f->b);
        *f = g;
        f->rndv_gain = base > 0 ? 1 - score / base : 0;
        memcpy(x, y, sizeof y);
        best = score;
    }
    return 0;
}

void tune_fit_model(const tune_run *t, vine_tune_model *m)
{
    fit f;
    double x[VINE_BENCH_NNLS_MAX] = {0}, x0[VINE_BENCH_NNLS_MAX] = {0};
    memset(m, 0, sizeof *m);
    memset(&f, 0, sizeof f);
    double *err = malloc(sizeof(double) * (size_t)(t->nres + 1));
    int rc = err ? fit_best(t, &f, x, x0) : -1;
    if (rc < 0) {
        fprintf(stderr, "vine-tune: out of memory for the model fit\n");
    } else if (rc > 0) {
        printf("# model: no measured algorithm that the cost model prices: nothing to fit\n");
    } else {
        fitted_cost(&f, x, &m->cost);
        m->present = 1;
        agreement all = evaluate(t, &m->cost, 1, err), p2p = evaluate(t, &m->cost, 0, err);
        m->cases = all.cases;
        m->agreement = all.share;
        m->median_error = all.median_error;
        /* The same evaluation of the fit without the start-up term, for the report. */
        fit f0 = f;
        vine_cost c0;
        f0.rndv_bytes = 0;
        fitted_cost(&f0, x0, &c0);
        agreement no_rndv = evaluate(t, &c0, 1, err);
        report(&f, m, &p2p, &no_rndv);
    }
    free(f.a);
    free(f.b);
    free(err);
}
