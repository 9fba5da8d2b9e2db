/*
 * vine-tune: the tuning file's header and rules, the list of skipped cases
 * and the summary table (see tune.h, docs/vine-tune.md).
 */
#include "tune.h"

#include "api/api.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef VINE_PROJECT_VERSION
#define VINE_PROJECT_VERSION "unknown"
#endif

void tune_size_label(char *buf, size_t cap, size_t s)
{
    if (s && s % ((size_t)1 << 30) == 0)
        snprintf(buf, cap, "%zuGiB", s >> 30);
    else if (s && s % ((size_t)1 << 20) == 0)
        snprintf(buf, cap, "%zuMiB", s >> 20);
    else if (s && s % 1024 == 0)
        snprintf(buf, cap, "%zuKiB", s >> 10);
    else
        snprintf(buf, cap, "%zuB", s);
}

/* ---- the header ------------------------------------------------------------- */

/* Rank 0: the distinct names among p names of len bytes each, into tab->hosts. */
static int distinct_hosts(vine_tuning *tab, const char *all, int p, size_t len)
{
    tab->hosts = calloc((size_t)p, sizeof(char *));
    if (!tab->hosts)
        return -1;
    for (int r = 0; r < p; r++) {
        const char *name = all + (size_t)r * len;
        int seen = 0;
        for (int h = 0; h < tab->nhosts && !seen; h++)
            seen = strcmp(tab->hosts[h], name) == 0;
        if (seen)
            continue;
        tab->hosts[tab->nhosts] = strdup(name);
        if (!tab->hosts[tab->nhosts])
            return -1;
        tab->nhosts++;
    }
    return 0;
}

/* Collective: every rank's processor name to rank 0, kept once each. */
static int gather_hosts(vine_tuning *tab, int p)
{
    char name[MPI_MAX_PROCESSOR_NAME + 1] = "";
    int len = 0, rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Get_processor_name(name, &len);
    name[len < 0 ? 0 : len > MPI_MAX_PROCESSOR_NAME ? MPI_MAX_PROCESSOR_NAME : len] = '\0';
    size_t w = MPI_MAX_PROCESSOR_NAME + 1;
    char *all = rank == 0 ? calloc((size_t)p, w) : NULL;
    int nomem = rank == 0 && !all;
    MPI_Bcast(&nomem, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (nomem)
        return -1;
    MPI_Gather(name, (int)w, MPI_CHAR, all, (int)w, MPI_CHAR, 0, MPI_COMM_WORLD);
    int rc = rank == 0 ? distinct_hosts(tab, all, p, w) : 0;
    free(all);
    return rc;
}

int tune_describe(vine_tuning *tab, int p, int rpn)
{
    int rc = gather_hosts(tab, p), rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank != 0)
        return 0;
    vine__mpi_library_line(tab->mpi_library, sizeof tab->mpi_library);
    time_t now = time(NULL);
    struct tm tm;
    if (gmtime_r(&now, &tm))
        strftime(tab->date, sizeof tab->date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    snprintf(tab->vine_version, sizeof tab->vine_version, "%s", VINE_PROJECT_VERSION);
    tab->ranks = p;
    tab->ranks_per_node = rpn;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    tab->cores = cores > 0 ? (int)cores : 0;
    return rc;
}

/* ---- the rules ---------------------------------------------------------------- */

/* The end of the run of results of one (collective, size) that starts at i. */
static int group_end(const tune_run *t, int i)
{
    int j = i;
    while (j < t->nres && t->res[j].coll == t->res[i].coll && t->res[j].q == t->res[i].q)
        j++;
    return j;
}

static vine_tune_point point_of(const tune_result *r)
{
    vine_tune_point pt;
    const tune_cand *c = &r->cand[r->chosen];
    pt.bytes = r->bytes;
    pt.algo = c->algo;
    pt.segment = c->segment;
    pt.median_us = c->median_us;
    pt.runner_up = r->runner_up >= 0 ? r->cand[r->runner_up].algo : NULL;
    pt.runner_up_us = r->runner_up >= 0 ? r->cand[r->runner_up].median_us : NAN;
    return pt;
}

/* One rule from results [i, j): their points joined into ranges. */
static int add_group(const tune_run *t, vine_tuning *tab, int i, int j)
{
    char err[512];
    vine_tune_point *pts = malloc(sizeof *pts * (size_t)(j - i));
    vine_tune_rule rule;
    memset(&rule, 0, sizeof rule);
    int rc = pts ? VINE_OK : VINE_ERR_NO_MEM;
    for (int k = i; pts && k < j; k++)
        pts[k - i] = point_of(&t->res[k]);
    if (rc == VINE_OK)
        rc = vine__tuning_merge(pts, j - i, &rule.ranges, &rule.nranges);
    free(pts);
    if (rc != VINE_OK) {
        fprintf(stderr, "vine-tune: out of memory for the rules\n");
        return 1;
    }
    rule.coll = t->res[i].coll;
    rule.p = t->res[i].q;
    rule.ops = tune_is_reduction(rule.coll) ? VINE_TUNE_OPS_COMMUTATIVE : VINE_TUNE_OPS_ANY;
    rule.inplace = VINE_TUNE_INPLACE_ANY;
    rc = vine__tuning_add_rule(tab, &rule, err, sizeof err);
    free(rule.ranges);
    if (rc != VINE_OK) {
        fprintf(stderr, "vine-tune: %s\n", rc == VINE_ERR_NO_MEM ? "out of memory" : err);
        return 1;
    }
    return 0;
}

int tune_rules(const tune_run *t, vine_tuning *tab)
{
    for (int i = 0; i < t->nres;) {
        int j = group_end(t, i);
        if (add_group(t, tab, i, j) != 0)
            return 1;
        i = j;
    }
    return 0;
}

/* ---- what was skipped ----------------------------------------------------------- */

static const char *skip_reason(int why)
{
    switch (why) {
    case TUNE_SKIP_MEM:
        return "the send and receive buffers exceed --max-mem per rank";
    case TUNE_SKIP_BUDGET:
        return "no time left in --budget";
    case TUNE_SKIP_NOMEM:
        return "out of memory";
    case TUNE_SKIP_INTS:
        return "the displacements exceed the MPI library's int";
    default:
        return "no algorithm could be measured";
    }
}

void tune_print_skipped(const tune_run *t)
{
    for (int i = 0; i < t->nskip;) {
        const tune_skip *a = &t->skip[i];
        int j = i + 1;
        while (j < t->nskip && t->skip[j].coll == a->coll && t->skip[j].q == a->q &&
               t->skip[j].why == a->why)
            j++;
        char lo[32], hi[32], sizes[96] = "";
        tune_size_label(lo, sizeof lo, a->bytes);
        tune_size_label(hi, sizeof hi, t->skip[j - 1].bytes);
        if (a->coll != VINE_COLL_BARRIER && j - i > 1)
            snprintf(sizes, sizeof sizes, " at %s..%s (%d sizes)", lo, hi, j - i);
        else if (a->coll != VINE_COLL_BARRIER)
            snprintf(sizes, sizeof sizes, " at %s", lo);
        fprintf(stderr, "vine-tune: skipped %s on %d ranks%s: %s\n", vine_coll_name(a->coll), a->q,
                sizes, skip_reason(a->why));
        i = j;
    }
}

/* ---- the summary ---------------------------------------------------------------- */

static const vine_tune_rule *find_rule(const vine_tuning *tab, vine_coll coll, int q)
{
    for (int i = 0; i < tab->nrules; i++)
        if (tab->rules[i].coll == coll && tab->rules[i].p == q)
            return &tab->rules[i];
    return NULL;
}

/* "8B-4KiB ring, 8KiB-64MiB bine_large/256KiB" (barrier: "dissemination"). */
static void print_ranges(const vine_tune_rule *r)
{
    for (int i = 0; r && i < r->nranges; i++) {
        const vine_tune_range *g = &r->ranges[i];
        char lo[32], hi[32], seg[40] = "";
        tune_size_label(lo, sizeof lo, g->min);
        tune_size_label(hi, sizeof hi, g->max);
        if (g->segment) {
            seg[0] = '/';
            tune_size_label(seg + 1, sizeof seg - 1, g->segment);
        }
        if (r->coll == VINE_COLL_BARRIER)
            printf("%s%s", i ? ", " : "", g->algo->name);
        else if (g->min == g->max)
            printf("%s%s %s%s", i ? ", " : "", lo, g->algo->name, seg);
        else
            printf("%s%s-%s %s%s", i ? ", " : "", lo, hi, g->algo->name, seg);
    }
    printf("\n");
}

/* Counts of results [i, j): switched away from the default, and of those to mpi. */
static void count_switches(const tune_run *t, int i, int j, int *sw, int *mpi)
{
    *sw = *mpi = 0;
    for (int k = i; k < j; k++) {
        const tune_result *r = &t->res[k];
        if (r->chosen != r->def) {
            ++*sw;
            *mpi += r->cand[r->chosen].mpi;
        }
    }
}

static void count_skips(const tune_run *t, int *mem, int *budget, int *other)
{
    *mem = *budget = *other = 0;
    for (int i = 0; i < t->nskip; i++) {
        if (t->skip[i].why == TUNE_SKIP_MEM)
            ++*mem;
        else if (t->skip[i].why == TUNE_SKIP_BUDGET)
            ++*budget;
        else
            ++*other;
    }
}

void tune_summary(const tune_run *t, const vine_tuning *tab)
{
    int sw_all = 0, mpi_all = 0, mem, budget, other;
    printf("# vine-tune: %d ranks on %d host%s (%d ranks and %d cores per node); budget %.0f s, "
           "measured in %.1f s\n",
           t->p, tab->nhosts, tab->nhosts == 1 ? "" : "s", tab->ranks_per_node, tab->cores,
           t->o->budget, MPI_Wtime() - t->start);
    printf("# per case the median over iterations of the slowest rank's time; the fastest "
           "replaces auto's default\n# only when a two-sided Mann-Whitney U test gives "
           "p < %g\n",
           t->o->alpha);
    printf("%-20s %5s %5s %8s %6s  %s\n", "collective", "ranks", "cases", "switched", "to_mpi",
           "ranges (size: algorithm[/segment])");
    for (int i = 0; i < t->nres;) {
        int j = group_end(t, i), sw, mpi;
        count_switches(t, i, j, &sw, &mpi);
        sw_all += sw;
        mpi_all += mpi;
        printf("%-20s %5d %5d %8d %6d  ", vine_coll_name(t->res[i].coll), t->res[i].q, j - i, sw,
               mpi);
        print_ranges(find_rule(tab, t->res[i].coll, t->res[i].q));
        i = j;
    }
    count_skips(t, &mem, &budget, &other);
    printf("# %d cases measured, %d switched away from the default (%d to mpi); %d skipped "
           "(%d over --max-mem, %d out of time, %d other)\n",
           t->nres, sw_all, mpi_all, t->nskip, mem, budget, other);
}
