/*
 * Checks a tuning file written by vine-tune (tests/mpi/tune.cmake):
 *
 *   tune_check FILE RANKS MIN MAX COLL...
 *
 * The file loads with vine__tuning_load; its machine says RANKS ranks; every
 * COLL has exactly one rule on RANKS ranks (commutative ops for the
 * reductions and the scans, any op otherwise; any in-place) whose ranges run from MIN to
 * MAX bytes, each naming an algorithm of that collective with a measured
 * median; the model is present with one parameter class and finite,
 * non-negative parameters.  Prints "tune_check: N rules, OK" or the first
 * problem, and exits 1 then.  No measured value is asserted.
 */
#include "select/tuning.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int problem(const char *what, const char *detail)
{
    printf("tune_check: FAIL: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    return 1;
}

static int is_reduction(vine_coll c)
{
    return c == VINE_COLL_REDUCE || c == VINE_COLL_ALLREDUCE || c == VINE_COLL_REDUCE_SCATTER ||
           c == VINE_COLL_REDUCE_SCATTER_BLOCK || c == VINE_COLL_SCAN || c == VINE_COLL_EXSCAN;
}

/* The rule of coll on p ranks: exactly one, the expected class, ranges MIN..MAX. */
static int check_rule(const vine_tuning *t, vine_coll coll, int p, size_t min, size_t max)
{
    const vine_tune_rule *r = NULL;
    int n = 0;
    for (int i = 0; i < t->nrules; i++)
        if (t->rules[i].coll == coll && t->rules[i].p == p) {
            r = &t->rules[i];
            n++;
        }
    const char *name = vine__coll_name(coll);
    if (n != 1)
        return problem("not exactly one rule on the ranks for", name);
    int ops = is_reduction(coll) ? VINE_TUNE_OPS_COMMUTATIVE : VINE_TUNE_OPS_ANY;
    if (r->ops != ops || r->inplace != VINE_TUNE_INPLACE_ANY)
        return problem("the wrong ops or inplace class for", name);
    if (r->ranges[0].min != min || r->ranges[r->nranges - 1].max != max)
        return problem("the ranges do not run from MIN to MAX for", name);
    for (int j = 0; j < r->nranges; j++)
        if (!r->ranges[j].algo || r->ranges[j].algo->coll != coll || !(r->ranges[j].median_us > 0))
            return problem("a range without an algorithm of its own or a median for", name);
    return 0;
}

static int check_model(const vine_tune_model *m)
{
    if (!m->present)
        return problem("no model", NULL);
    if (m->cost.nclasses != 1)
        return problem("the model has more than one class", NULL);
    const vine_cost_level *l = &m->cost.cls[0];
    if (!(l->alpha >= 0 && l->beta >= 0 && m->cost.gamma >= 0) || !isfinite(l->alpha) ||
        !isfinite(l->beta) || !isfinite(m->cost.gamma))
        return problem("a model parameter is negative or not finite", NULL);
    if (m->cases > 0 && !(m->agreement >= 0 && m->agreement <= 1))
        return problem("the model's agreement is not a share", NULL);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 6) {
        fprintf(stderr, "usage: tune_check FILE RANKS MIN MAX COLL...\n");
        return 2;
    }
    vine_tuning t;
    char err[512];
    vine__tuning_init(&t);
    if (vine__tuning_load(&t, argv[1], err, sizeof err) != VINE_OK)
        return problem("the file does not load", err);
    int p = atoi(argv[2]), bad = 0;
    size_t min = strtoull(argv[3], NULL, 10), max = strtoull(argv[4], NULL, 10);
    if (t.ranks != p)
        bad = problem("machine.ranks is not RANKS", NULL);
    for (int i = 5; i < argc && !bad; i++) {
        int c = vine__coll_parse(argv[i]);
        bad = c < 0 ? problem("unknown collective", argv[i])
                    : check_rule(&t, (vine_coll)c, p, c == VINE_COLL_BARRIER ? 0 : min,
                                 c == VINE_COLL_BARRIER ? 0 : max);
    }
    if (!bad)
        bad = check_model(&t.model);
    if (!bad)
        printf("tune_check: %d rules, OK\n", t.nrules);
    vine__tuning_free(&t);
    return bad;
}
