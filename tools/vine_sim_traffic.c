/*
 * `vine sim traffic`: replays collectives on a network model and prints, per
 * communicator size, collective, algorithm and size, the steps, messages,
 * bytes per link level, cross-group bytes (the Bine paper's global traffic,
 * section 2.4), the most loaded link, the predicted time of src/sim's
 * step-synchronous model, and the cross-group bytes saved against a baseline
 * algorithm; on a topology with several ports per host the busiest and the
 * mean port, and with --ports a table per port.  --csv and --json write the
 * same rows to files.  docs/sim.md describes every option and column.
 */
#include "cli.h"
#include "coll/torus.h"
#include "sched/verify.h"
#include "vine_sim_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RANKS (1L << 24)

static void usage(FILE *f)
{
    fprintf(f, "usage: vine sim traffic --topo SPEC --ranks LIST --coll C[,C...]|all\n"
               "       --size LIST [--algo A[,A...]|all] [--placement SPEC] [--root R]\n"
               "       [--baseline ALGO|none] [--seg BYTES] [--levels SPEC] [--numa K]\n"
               "       [--remap] [--dist SPEC] [--ports] [--lat-factor F] [--bw-factor F]\n"
               "       [--clock step|rank]\n"
               "       [--csv FILE] [--json FILE]\n"
               "  --topo SPEC       lumi, leonardo, marenostrum5, fugaku, dragonfly:a=4,p=2,h=2,\n"
               "                    dragonflyplus:..., fattree:..., torus:4x4x4, mesh:8x8,\n"
               "                    hypercube:6, edges:FILE, slurm:FILE, ibnet:FILE, simgrid:FILE\n"
               "  --ranks LIST      communicator sizes: 1024 | 64,256 | 16..1024 (doubling)\n"
               "  --placement SPEC  block[:ppn=K] (default block), round-robin[:ppn=K],\n"
               "                    random-groups:seed=S[,ppn=K], hosts:FILE[,ppn=K]\n"
               "  --coll            bcast, reduce, allreduce, allgather, reduce_scatter,\n"
               "                    reduce_scatter_block, alltoall, gather, scatter, barrier,\n"
               "                    allgatherv, alltoallv, alltoallw, gatherv, scatterv, scan,\n"
               "                    exscan; all = every one but barrier\n"
               "  --algo            algorithm names (see 'vine list'), 'baseline' for each\n"
               "                    collective's baseline, or all (default)\n"
               "  --size LIST       the call's count in bytes: 8B,1KiB or a doubling range\n"
               "                    32B..512MiB; the whole vector for bcast, reduce,\n"
               "                    allreduce, scan and exscan, the per-rank block for the\n"
               "                    others; reductions use 4-byte elements and a commutative op\n"
               "  --dist SPEC       the blocks of the v collectives (allgatherv ... scatterv),\n"
               "                    in bytes: uniform:N, skew:N,F, zipf:N,S, random:N,SEED,\n"
               "                    file:PATH (docs/sim.md); they then run once per --ranks\n"
               "                    and their size column is the mean block.  Default:\n"
               "                    uniform:SIZE for each --size\n"
               "  --root R          root of rooted collectives (default 0)\n"
               "  --baseline ALGO   the algorithm the 'saved' column compares with (default:\n"
               "                    the classic counterpart, docs/sim.md); none: no comparison\n"
               "  --seg BYTES       segment size of pipelined algorithms (default none)\n"
               "  --levels SPEC     the level map of the hierarchical algorithms: topo (default:\n"
               "                    node, switch and group of each rank's host), flat, or a\n"
               "                    synthetic map such as block:4,2 (docs/hierarchical.md);\n"
               "                    node= marks the node in it: block:2/node=block:4\n"
               "  --numa K          K NUMA domains in every host: the ranks of a host in K\n"
               "                    runs, a level below the node for the hierarchical\n"
               "                    algorithms that take any number of levels (default 1)\n"
               "  --remap           run the flat bcast, reduce, allreduce and barrier\n"
               "                    algorithms on the ranks in block order of the levels\n"
               "  --ports           after each row, per port of the hosts (a direction on a\n"
               "                    torus: ports=K in the topology), the most and the mean\n"
               "                    bytes sent and received over the job's hosts\n"
               "  --lat-factor F, --bw-factor F   per-message factors of the time model, as\n"
               "                    SimGrid's SMPI applies them: a message of b bytes between\n"
               "                    hosts takes lat(b) times its route's latency and its\n"
               "                    bandwidth term over bw(b); F is T0:V0;T1:V1;... (the\n"
               "                    value of the largest threshold T <= b, 1 below them),\n"
               "                    smpi (SimGrid 3.32's defaults) or none (default)\n"
               "  --clock step|rank  step (default): a step lasts as long as its slowest\n"
               "                    message; rank: every rank keeps its own clock and waits\n"
               "                    only for its partners\n"
               "  --csv FILE, --json FILE   also write the rows to FILE\n"
               "Exits 0, 1 when a simulation fails, 2 on bad options.\n");
}

typedef struct opts {
    const char *topo, *ranks, *placement, *coll, *algo, *size, *root, *baseline, *seg, *levels,
        *csv, *json, *numa, *dist, *latf, *bwf, *clock;
    int remap, help, ports;
} opts;

static int parse_opts(int argc, char **argv, opts *o)
{
    static const char *names[] = {"--topo",      "--ranks", "--placement", "--coll", "--algo",
                                  "--size",      "--root",  "--baseline",  "--seg",  "--levels",
                                  "--csv",       "--json",  "--numa",      "--dist", "--lat-factor",
                                  "--bw-factor", "--clock"};
    const char **slots[] = {&o->topo, &o->ranks,    &o->placement, &o->coll,   &o->algo, &o->size,
                            &o->root, &o->baseline, &o->seg,       &o->levels, &o->csv,  &o->json,
                            &o->numa, &o->dist,     &o->latf,      &o->bwf,    &o->clock};
    memset(o, 0, sizeof *o);
    for (int i = 1; i < argc; i++) {
        int hit = 0;
        for (size_t k = 0; k < sizeof names / sizeof *names && !hit; k++)
            hit = vine_cli_take("vine sim traffic", argv[i], names[k], &i, argc, argv, slots[k]);
        if (hit < 0)
            return 2;
        if (hit)
            continue;
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0)
            o->help = 1;
        else if (strcmp(argv[i], "--remap") == 0)
            o->remap = 1;
        else if (strcmp(argv[i], "--ports") == 0)
            o->ports = 1;
        else
            return vine_cli_usage_error("vine sim", "traffic", "unknown option '%s'", argv[i]);
    }
    return 0;
}

/* One collective of the run: its algorithms and its baseline. */
typedef struct coll_plan {
    vine_coll coll;
    const vine_algo **algos;
    int nalgos;
    const vine_algo *base; /* NULL: no comparison */
} coll_plan;

/* One row of the table. */
typedef struct row {
    int p;
    const vine_algo *algo;
    size_t size; /* a v collective with --dist: the mean block */
    int status; /* VINE_OK or VINE_ERR_UNSUPPORTED (a skip) */
    char note[200];
    vine_sim_result res;
    const vine_algo *base;
    double reduction; /* NAN: none */
    char link[160];
    char port[96]; /* the busiest port, with several ports per host */
    double *ptab;  /* --ports: per port sent max, mean, received max, mean; or NULL */
} row;

/* One communicator size's placement and the level map made from it. */
typedef struct place_rec {
    int p;
    int *rank_host;
    vs_spread spread;
    vine_levels levels;         /* from the node up: what the node-level algorithms see */
    vine_levels full;           /* with levels inside the node (--numa, node=); else empty */
    int lkind[VINE_LEVELS_MAX]; /* each shown level's grouping (vs_make_levels), -1: synthetic */
} place_rec;

/* The map a placement's levels: line and JSON field show. */
static const vine_levels *shown(const place_rec *pr)
{
    return pr->full.group ? &pr->full : &pr->levels;
}

typedef struct run {
    opts o;
    vs_net net;
    long *ranks;
    size_t nranks;
    size_t *sizes;
    size_t nsizes;
    long root;
    size_t seg;
    int numa; /* --numa: domains per host, 1 without */
    vine_vdist dist; /* --dist, when has_dist */
    int has_dist;
    coll_plan plans[VINE_COLL_COUNT];
    int nplans;
    row *rows;
    size_t nrows, rowcap;
    place_rec *places;
    size_t nplaces;
    int wcoll, walgo;
    long failed;    /* rows whose simulation failed */
    int ports;      /* per host (vine_topo.ports) */
    double *pbytes; /* --ports: the bytes through every port (vine__sim_run_ports) */
    vine_sim_factor latf, bwf; /* --lat-factor, --bw-factor */
    int rank_clock;            /* --clock rank */
} run;

/* Is name one of the comma-separated words of list? */
static int in_list(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *c = list; c && *c;) {
        const char *end = strchr(c, ',');
        size_t len = end ? (size_t)(end - c) : strlen(c);
        if (len == n && strncmp(c, name, n) == 0)
            return 1;
        c = end ? end + 1 : NULL;
    }
    return 0;
}

static int parse_colls(run *w)
{
    const char *s = w->o.coll;
    int chosen[VINE_COLL_COUNT] = {0};
    if (strcmp(s, "all") == 0) {
        for (int c = 0; c < VINE_COLL_COUNT; c++)
            chosen[c] = c != VINE_COLL_BARRIER;
    } else {
        char *copy = strdup(s), *save = NULL;
        if (!copy)
            return 1;
        for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            int c = vine__coll_parse(t);
            vine_coll_info info;
            if (c < 0 || vine__verify_coll_info((vine_coll)c, &info) != VINE_OK) {
                vine_cli_usage_error("vine sim", "traffic", "unknown collective '%s'", t);
                free(copy);
                return 2;
            }
            chosen[c] = 1;
        }
        free(copy);
    }
    for (int c = 0; c < VINE_COLL_COUNT; c++)
        if (chosen[c])
            w->plans[w->nplans++].coll = (vine_coll)c;
    return w->nplans ? 0
                     : vine_cli_usage_error("vine sim", "traffic", "--coll names no collective");
}

/* Checks that every name of the --algo list exists for some chosen collective. */
static int check_algo_names(run *w)
{
    char *copy = strdup(w->o.algo), *save = NULL;
    if (!copy)
        return 1;
    int rc = 0;
    for (char *t = strtok_r(copy, ",", &save); t && !rc; t = strtok_r(NULL, ",", &save)) {
        int found = strcmp(t, "baseline") == 0;
        for (int k = 0; k < w->nplans && !found; k++)
            found = vine__algo_find(w->plans[k].coll, t) != NULL;
        if (!found)
            rc = vine_cli_usage_error(
                "vine sim", "traffic",
                "no algorithm '%s' for the chosen collective(s); see 'vine list'", t);
    }
    free(copy);
    return rc;
}

/* Fills each plan's algorithms and baseline. */
static int plan_algos(run *w)
{
    const char *bname = w->o.baseline;
    int none = bname && strcmp(bname, "none") == 0, found = bname == NULL || none;
    for (int k = 0; k < w->nplans && bname && !none; k++)
        found |= vine__algo_find(w->plans[k].coll, bname) != NULL;
    if (!found)
        return vine_cli_usage_error("vine sim", "traffic",
                                    "--baseline: no algorithm '%s' for the chosen collective(s)",
                                    bname);
    int all = strcmp(w->o.algo, "all") == 0, selected = 0;
    if (!all) {
        int rc = check_algo_names(w);
        if (rc)
            return rc;
    }
    for (int k = 0; k < w->nplans; k++) {
        coll_plan *pl = &w->plans[k];
        /* A collective without the named baseline falls back to its default one. */
        pl->base = none ? NULL : vine__algo_find(pl->coll, bname);
        if (!pl->base && !none)
            pl->base = vine__algo_find(pl->coll, vs_default_baseline(pl->coll));
        int n = vine__algo_count(pl->coll);
        pl->algos = calloc((size_t)n + 1, sizeof *pl->algos);
        if (!pl->algos)
            return 1;
        for (int i = 0; i < n; i++) {
            const vine_algo *al = vine__algo_nth(pl->coll, i);
            if (all || in_list(w->o.algo, al->name) ||
                (al == pl->base && in_list(w->o.algo, "baseline")))
                pl->algos[pl->nalgos++] = al;
        }
        selected += pl->nalgos;
    }
    if (!selected)
        return vine_cli_usage_error("vine sim", "traffic", "--algo %s selects no algorithm%s",
                                    w->o.algo, none ? " (--baseline none leaves no baseline)" : "");
    return 0;
}

/* Whether c is alltoallv or alltoallw (p x p blocks). */
static int is_a2a(vine_coll c)
{
    return c == VINE_COLL_ALLTOALLV || c == VINE_COLL_ALLTOALLW;
}

/* Whether plan k takes its blocks from --dist (so neither --size nor a loop over it). */
static int from_dist(const run *w, int k)
{
    return w->has_dist && vine__coll_is_v(w->plans[k].coll);
}

/* Parses --dist; 0, 1 when out of memory, or 2 after a message. */
static int parse_dist(run *w)
{
    char err[1024] = "";
    int any_v = 0;
    for (int k = 0; k < w->nplans; k++)
        any_v |= vine__coll_is_v(w->plans[k].coll);
    if (!w->o.dist)
        return 0;
    if (!any_v)
        return vine_cli_usage_error("vine sim", "traffic",
                                    "--dist gives the blocks of allgatherv, alltoallv, alltoallw, "
                                    "gatherv and scatterv; --coll names none of them");
    int rc = vine__vdist_parse(w->o.dist, &w->dist, err, sizeof err);
    if (rc == VINE_ERR_NO_MEM)
        return 1;
    if (rc != VINE_OK)
        return vine_cli_usage_error("vine sim", "traffic", "--dist %s: %s", w->o.dist, err);
    w->has_dist = 1;
    return 0;
}

/* Checks that --dist fits every communicator size; 0 or 2 after a message. */
static int check_dist(const run *w)
{
    char err[1024] = "";
    for (size_t i = 0; w->has_dist && i < w->nranks; i++)
        for (int k = 0; k < w->nplans; k++) {
            vine_coll c = w->plans[k].coll;
            if (vine__coll_is_v(c) &&
                vine__vdist_check(&w->dist, (int)w->ranks[i], is_a2a(c), err, sizeof err))
                return vine_cli_usage_error("vine sim", "traffic",
                                            "--dist %s with %ld ranks (%s): %s", w->o.dist,
                                            w->ranks[i], vine__coll_name(c), err);
        }
    return 0;
}

static int parse_all(run *w)
{
    opts *o = &w->o;
    if (!o->topo || !o->ranks || !o->coll)
        return vine_cli_usage_error("vine sim", "traffic",
                                    "--topo, --ranks and --coll are required");
    if (!o->algo)
        o->algo = "all";
    if (!o->placement)
        o->placement = "block";
    int rc = parse_colls(w);
    if (!rc)
        rc = parse_dist(w);
    if (rc)
        return rc;
    int sized = 0; /* some collective takes its count from --size */
    for (int k = 0; k < w->nplans; k++)
        sized |= w->plans[k].coll != VINE_COLL_BARRIER && !from_dist(w, k);
    if (!o->size && sized)
        return vine_cli_usage_error("vine sim", "traffic",
                                    "--size is required (e.g. 8B,1KiB or 32B..512MiB)");
    if (vs_parse_ints(o->ranks, MAX_RANKS, &w->ranks, &w->nranks))
        return vine_cli_usage_error("vine sim", "traffic",
                                    "malformed --ranks '%s' (sizes 1..%ld, a-b, a..b)", o->ranks,
                                    MAX_RANKS);
    if (o->size && vs_parse_sizes(o->size, &w->sizes, &w->nsizes))
        return vine_cli_usage_error("vine sim", "traffic",
                                    "malformed --size '%s' (e.g. 8B,1KiB or 32B..512MiB)", o->size);
    if (!o->size) {
        w->sizes = calloc(1, sizeof *w->sizes);
        if (!w->sizes)
            return 1;
        w->nsizes = 1;
    }
    if ((rc = check_dist(w)) != 0)
        return rc;
    if (o->root && vs_parse_long(o->root, MAX_RANKS, &w->root))
        return vine_cli_usage_error("vine sim", "traffic", "malformed --root '%s'", o->root);
    for (size_t i = 0; i < w->nranks; i++)
        if (w->root >= w->ranks[i])
            return vine_cli_usage_error(
                "vine sim", "traffic", "--root %ld is not below --ranks %ld", w->root, w->ranks[i]);
    if (o->seg && vs_parse_size(o->seg, &w->seg))
        return vine_cli_usage_error("vine sim", "traffic", "malformed --seg '%s'", o->seg);
    long numa = 1;
    if (o->numa && vs_parse_long(o->numa, 1024, &numa))
        return vine_cli_usage_error("vine sim", "traffic", "malformed --numa '%s' (1 to 1024)",
                                    o->numa);
    if (numa < 1)
        return vine_cli_usage_error("vine sim", "traffic", "--numa %ld: expected 1 to 1024", numa);
    w->numa = (int)numa;
    char ferr[256];
    if (o->latf && vine__sim_factor_parse(strcmp(o->latf, "smpi") ? o->latf : "smpi-lat", &w->latf,
                                          ferr, sizeof ferr))
        return vine_cli_usage_error("vine sim", "traffic", "--lat-factor: %s", ferr);
    if (o->bwf && vine__sim_factor_parse(strcmp(o->bwf, "smpi") ? o->bwf : "smpi-bw", &w->bwf, ferr,
                                         sizeof ferr))
        return vine_cli_usage_error("vine sim", "traffic", "--bw-factor: %s", ferr);
    if (o->clock && strcmp(o->clock, "step") && strcmp(o->clock, "rank"))
        return vine_cli_usage_error("vine sim", "traffic", "--clock %s: expected step or rank",
                                    o->clock);
    w->rank_clock = o->clock && strcmp(o->clock, "rank") == 0;
    rc = plan_algos(w);
    for (int k = 0; k < w->nplans && !rc; k++) {
        int l = (int)strlen(vine__coll_name(w->plans[k].coll));
        w->wcoll = l > w->wcoll ? l : w->wcoll;
        for (int i = 0; i < w->plans[k].nalgos; i++) {
            l = (int)strlen(w->plans[k].algos[i]->name);
            w->walgo = l > w->walgo ? l : w->walgo;
        }
    }
    return rc;
}

static row *new_row(run *w)
{
    if (w->nrows == w->rowcap) {
        size_t cap = w->rowcap ? 2 * w->rowcap : 64;
        row *r = realloc(w->rows, cap * sizeof *r);
        if (!r)
            return NULL;
        w->rows = r;
        w->rowcap = cap;
    }
    row *r = &w->rows[w->nrows++];
    memset(r, 0, sizeof *r);
    r->reduction = NAN;
    return r;
}

static void link_name(const vine_topo *t, int arc, char *buf, size_t len)
{
    char a[64], b[64];
    if (arc < 0) {
        snprintf(buf, len, "-");
        return;
    }
    snprintf(buf, len, "%s->%s", vine__topo_vname(t, vine__topo_arc_tail(t, arc), a, sizeof a),
             vine__topo_vname(t, vine__topo_arc_head(t, arc), b, sizeof b));
}

static void print_header(const run *w)
{
    printf("%6s  %-*s  %-*s  %7s  %5s  %9s  %8s  %8s  %8s  %8s  %8s  %8s  %7s  %8s  %8s  ", "ranks",
           w->wcoll, "coll", w->walgo, "algo", "size", "steps", "messages", "bytes", "node", "host",
           "local", "global", "xgroup", "saved", "time", "maxlink");
    if (w->ports > 1)
        printf("%8s  %8s  %s\n", "maxport", "meanport", "max link; max port");
    else
        printf("%s\n", "max link");
}

/* The name of port j of host h ("h3:+x"), with one port "h3:nic". */
static void port_name(const run *w, int h, int j, char *buf, size_t len)
{
    char nm[64], hn[64];
    if (w->ports > 1)
        vine__sim_port_name(&w->net.t, j, nm, sizeof nm);
    else
        snprintf(nm, sizeof nm, "nic");
    snprintf(buf, len, "%s:%s", vine__topo_vname(&w->net.t, w->net.t.host_vert[h], hn, sizeof hn),
             nm);
}

/* --ports: one line per port of the row's table. */
static void print_ports(const run *w, const row *r)
{
    for (int j = 0; r->ptab && j < w->ports; j++) {
        char nm[64], b[4][32];
        if (w->ports > 1)
            vine__sim_port_name(&w->net.t, j, nm, sizeof nm);
        else
            snprintf(nm, sizeof nm, "nic");
        for (int i = 0; i < 4; i++)
            vs_fmt_bytes(r->ptab[4 * j + i], b[i], sizeof b[i]);
        printf("        port %-8s sent max %8s mean %8s   received max %8s mean %8s\n", nm, b[0],
               b[1], b[2], b[3]);
    }
}

static void print_row(const run *w, const row *r)
{
    char sz[32];
    vs_fmt_size(r->size, sz, sizeof sz);
    if (r->algo->coll == VINE_COLL_BARRIER)
        snprintf(sz, sizeof sz, "-");
    printf("%6d  %-*s  %-*s  %7s  ", r->p, w->wcoll, vine__coll_name(r->algo->coll), w->walgo,
           r->algo->name, sz);
    if (r->status != VINE_OK) {
        printf("%s: %s\n", r->status == VINE_ERR_UNSUPPORTED ? "skip" : "error", r->note);
        return;
    }
    char b[8][32], red[32];
    vs_fmt_bytes(r->res.bytes, b[0], sizeof b[0]);
    for (int l = 0; l < VINE_LVL_COUNT; l++)
        vs_fmt_bytes(r->res.level_bytes[l], b[1 + l], sizeof b[1 + l]);
    vs_fmt_bytes(r->res.cross_group_bytes, b[5], sizeof b[5]);
    vs_fmt_time(r->res.time, b[6], sizeof b[6]);
    vs_fmt_bytes(r->res.max_arc_bytes, b[7], sizeof b[7]);
    if (r->base == r->algo)
        snprintf(red, sizeof red, "base");
    else if (isnan(r->reduction))
        snprintf(red, sizeof red, "-");
    else
        snprintf(red, sizeof red, "%.1f%%", r->reduction);
    printf("%5d  %9zu  %8s  %8s  %8s  %8s  %8s  %8s  %7s  %8s  %8s  ", r->res.steps,
           r->res.messages, b[0], b[1], b[2], b[3], b[4], b[5], red, b[6], b[7]);
    if (w->ports > 1) {
        char mp[32], mm[32];
        vs_fmt_bytes(r->res.max_port_bytes, mp, sizeof mp);
        vs_fmt_bytes(r->res.mean_port_bytes, mm, sizeof mm);
        printf("%8s  %8s  %s; %s\n", mp, mm, r->link, r->port);
    } else {
        printf("%s\n", r->link);
    }
    print_ports(w, r);
}

/*
 * --ports: the row's table from the run's port bytes, over the hosts that
 * hold ranks: per port the most and the mean bytes sent, then received.
 */
static int port_table(const run *w, const place_rec *pr, row *r)
{
    const vine_topo *t = &w->net.t;
    int k = w->ports, nh = t->nhosts, used = 0;
    char *holds = calloc((size_t)nh + 1, 1);
    r->ptab = calloc(4 * (size_t)k, sizeof *r->ptab);
    if (!holds || !r->ptab) {
        free(holds);
        return 1;
    }
    for (int i = 0; i < pr->p; i++)
        holds[pr->rank_host[i]] = 1;
    for (int h = 0; h < nh; h++) {
        used += holds[h];
        for (int j = 0; holds[h] && j < k; j++)
            for (int d = 0; d < 2; d++) {
                double x = w->pbytes[((size_t)d * nh + h) * k + j];
                double *q = &r->ptab[4 * j + 2 * d];
                q[0] = x > q[0] ? x : q[0];
                q[1] += x;
            }
    }
    for (int j = 0; j < k; j++)
        for (int d = 0; d < 2; d++)
            r->ptab[4 * j + 2 * d + 1] /= used ? used : 1;
    free(holds);
    return 0;
}

/*
 * Runs one case into *res.  A simulation error (the simulator's memory limit,
 * an inconsistent schedule) is reported on stderr and becomes an error row;
 * the run goes on and exits 1 at the end.
 */
static void simulate(run *w, const place_rec *pr, const vine_algo *algo, size_t size,
                     vine_sim_result *res, int *status, char *note, size_t notelen)
{
    note[0] = '\0';
    const vine_vdist *dist = w->has_dist && vine__coll_is_v(algo->coll) ? &w->dist : NULL;
    *status = vs_simulate_ports(w->net.router, pr->rank_host, &pr->levels,
                                pr->full.group ? &pr->full : NULL, w->o.remap, algo, pr->p, size,
                                dist, (int)w->root, w->seg, res, w->pbytes, note, notelen);
    if (*status == VINE_OK || *status == VINE_ERR_UNSUPPORTED)
        return;
    if (!note[0])
        snprintf(note, notelen, "%s",
                 *status == VINE_ERR_NO_MEM ? "out of memory" : "inconsistent schedule");
    if (strncmp(note, vine__coll_name(algo->coll), strlen(vine__coll_name(algo->coll))) == 0)
        fprintf(stderr, "vine sim traffic: %s\n", note); /* it names the case already */
    else
        fprintf(stderr, "vine sim traffic: %s %s on %d ranks, size %zu: %s\n",
                vine__coll_name(algo->coll), algo->name, pr->p, size, note);
    w->failed++;
}

/* The rows of one collective and size. */
static int run_size(run *w, const place_rec *pr, const coll_plan *pl, size_t size)
{
    vine_sim_result base_res;
    int base_status = VINE_ERR_UNSUPPORTED;
    char base_note[200] = "";
    if (pl->base)
        simulate(w, pr, pl->base, size, &base_res, &base_status, base_note, sizeof base_note);
    for (int i = 0; i < pl->nalgos; i++) {
        row *r = new_row(w);
        if (!r) {
            fprintf(stderr, "vine sim traffic: out of memory\n");
            return 1;
        }
        r->p = pr->p;
        r->algo = pl->algos[i];
        r->size = size;
        r->base = pl->base;
        if (r->algo == pl->base) {
            r->res = base_res;
            r->status = base_status;
            snprintf(r->note, sizeof r->note, "%s", base_note);
        } else {
            simulate(w, pr, r->algo, size, &r->res, &r->status, r->note, sizeof r->note);
        }
        if (r->status == VINE_OK && pl->base && base_status == VINE_OK)
            r->reduction = vs_reduction(r->res.cross_group_bytes, base_res.cross_group_bytes);
        else if (r->status == VINE_OK && pl->base)
            snprintf(r->note, sizeof r->note, "baseline %s %s: %.150s", pl->base->name,
                     base_status == VINE_ERR_UNSUPPORTED ? "skipped" : "failed", base_note);
        if (r->status == VINE_OK) {
            link_name(&w->net.t, r->res.max_arc, r->link, sizeof r->link);
            snprintf(r->port, sizeof r->port, "-");
            if (r->res.max_port >= 0) {
                char nm[80];
                port_name(w, r->res.max_port / w->ports, r->res.max_port % w->ports, nm, sizeof nm);
                snprintf(r->port, sizeof r->port, "%s %s", nm,
                         r->res.max_port_in ? "received" : "sent");
            }
            /* The base row's port bytes are gone when the baseline ran first: again. */
            if (w->pbytes && r->algo == pl->base && i > 0)
                simulate(w, pr, r->algo, size, &r->res, &r->status, r->note, sizeof r->note);
            if (w->pbytes && port_table(w, pr, r)) {
                fprintf(stderr, "vine sim traffic: out of memory\n");
                return 1;
            }
        }
        print_row(w, r);
    }
    fflush(stdout);
    return 0;
}

static int place(run *w, int p, place_rec **out)
{
    char err[1024] = "";
    place_rec *q = realloc(w->places, (w->nplaces + 1) * sizeof *q);
    if (!q)
        return 1;
    w->places = q;
    place_rec *pr = &w->places[w->nplaces];
    memset(pr, 0, sizeof *pr);
    pr->p = p;
    pr->rank_host = malloc((size_t)p * sizeof *pr->rank_host);
    if (!pr->rank_host)
        return 1;
    w->nplaces++;
    int rc = vine__place(&w->net.t, w->o.placement, p, pr->rank_host, err, sizeof err);
    if (rc == VINE_ERR_UNSUPPORTED)
        return vine_cli_usage_error("vine sim", "traffic", "--placement %s with %d ranks: %s",
                                    w->o.placement, p, err);
    if (rc != VINE_OK)
        return 1;
    vs_placement_spread(&w->net.t, pr->rank_host, p, &pr->spread);
    /* The map comes from this very placement, so the hierarchical algorithms
     * group ranks as the simulator's routes do. */
    rc = vs_make_levels(&w->net.t, pr->rank_host, p, w->o.levels, w->numa, &pr->levels, &pr->full,
                        pr->lkind, err, sizeof err);
    if (rc == VINE_ERR_UNSUPPORTED)
        return vine_cli_usage_error("vine sim", "traffic", "--levels %s with %d ranks: %s",
                                    w->o.levels ? w->o.levels : "topo", p, err);
    if (rc != VINE_OK)
        return 1;
    *out = pr;
    return 0;
}

/* The dist column of row r: the spec of a v collective's blocks, "" for the others. */
static void row_dist(const run *w, const row *r, char *buf, size_t len)
{
    if (!vine__coll_is_v(r->algo->coll))
        buf[0] = '\0';
    else if (w->has_dist)
        snprintf(buf, len, "%s", w->o.dist);
    else
        snprintf(buf, len, "uniform:%zu", r->size);
}

/* What the v collectives' blocks are, when --coll has any. */
static void print_dist_line(const run *w)
{
    int any = 0;
    for (int k = 0; k < w->nplans; k++)
        any |= vine__coll_is_v(w->plans[k].coll) && w->plans[k].nalgos;
    if (any && w->has_dist)
        printf("\nv collectives: blocks of --dist %s (bytes); size = the mean block", w->o.dist);
    else if (any)
        printf("\nv collectives: every block the size (uniform:SIZE; --dist to change)");
}

static void print_intro(const run *w)
{
    printf("topology: %s\n  %s\n", w->o.topo, w->net.desc);
    if (w->rank_clock || w->o.latf || w->o.bwf)
        printf("time model: %s clock, latency factor %s, bandwidth factor %s\n",
               w->rank_clock ? "per-rank" : "step", w->o.latf ? w->o.latf : "none",
               w->o.bwf ? w->o.bwf : "none");
    printf("sizes: the call's count in bytes (whole vector for bcast, reduce, allreduce; "
           "per-rank block otherwise);\n  reductions on %d-byte elements\n",
           VS_REDUCE_ELEM);
    printf("baseline:");
    int any = 0;
    for (int k = 0; k < w->nplans; k++)
        if (w->plans[k].nalgos) {
            const vine_algo *b = w->plans[k].base;
            printf("%s %s %s", any ? "," : "", vine__coll_name(w->plans[k].coll),
                   b ? b->name : "none");
            any = 1;
        }
    print_dist_line(w);
    printf("\ncolumns: node/host/local/global = bytes x links crossed per level; xgroup = bytes "
           "of messages\n  between groups (each once: the Bine paper's global bytes); saved = "
           "xgroup reduction\n  against the baseline; maxlink = bytes on the most loaded link "
           "direction\n");
    if (w->ports > 1) {
        char bw[32] = "?", names[256] = "";
        const vine_topo *t = &w->net.t;
        for (int i = 0; i < t->nlinks; i++)
            if (t->links[i].level == VINE_LVL_HOST) {
                snprintf(bw, sizeof bw, "%.4g GB/s", t->links[i].bw / w->ports / 1e9);
                break;
            }
        for (int j = 0; j < w->ports && strlen(names) + 40 < sizeof names; j++) {
            char nm[64];
            vine__sim_port_name(t, j, nm, sizeof nm);
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", j ? " " : "", nm);
        }
        printf("ports: %d per host of %s each (%s); maxport = bytes through the busiest port in\n"
               "  one direction, meanport = the mean bytes sent through a port of the job's "
               "hosts\n",
               w->ports, bw, names);
    }
}

/* The job's torus in words when the map is one (sim.h: tori), else nothing. */
static void print_torus(const place_rec *pr)
{
    const vine_levels *m = shown(pr);
    int torus = 0;
    for (int l = 0; l < m->nlevels; l++)
        torus |= pr->lkind[l] > VINE_SIM_LV_TORUS;
    vine_torus tt;
    if (!torus || vine__torus_make(m, pr->p, &tt, NULL, 0) != VINE_OK)
        return;
    printf("torus: ");
    for (int d = 0; d < tt.nd; d++)
        printf("%s%d", d ? "x" : "", tt.dims[d]);
    printf(" (the job's torus the torus algorithms see)\n");
}

static int run_all(run *w)
{
    print_intro(w);
    for (size_t i = 0; i < w->nranks; i++) {
        place_rec *pr = NULL;
        int rc = place(w, (int)w->ranks[i], &pr);
        if (rc) {
            if (rc == 1)
                fprintf(stderr, "vine sim traffic: out of memory\n");
            return rc;
        }
        printf("\nplacement: %s: %d ranks on %d hosts in %d groups (%d..%d ranks per group)\n",
               w->o.placement, pr->p, pr->spread.hosts, pr->spread.groups, pr->spread.min_per_group,
               pr->spread.max_per_group);
        char lv[512];
        vs_levels_text(shown(pr), pr->lkind, lv, sizeof lv);
        printf("levels: %s%s%s\n", lv, w->o.levels ? "" : " (from the topology)",
               w->o.remap ? "; flat bcast, reduce, allreduce, barrier remapped to block order"
                          : "");
        print_torus(pr);
        print_header(w);
        for (int k = 0; k < w->nplans; k++) {
            const coll_plan *pl = &w->plans[k];
            size_t nsz = pl->coll == VINE_COLL_BARRIER ? 1 : w->nsizes;
            if (from_dist(w, k)) {
                /* One row per algorithm, sized by the mean block.  Where the
                 * tables cannot be made (memory), the simulation says so. */
                size_t mean = 0;
                char err[256];
                vs_vdist_mean(&w->dist, pl->coll, pr->p, &mean, err, sizeof err);
                if (pl->nalgos && run_size(w, pr, pl, mean))
                    return 1;
                continue;
            }
            for (size_t s = 0; pl->nalgos && s < nsz; s++)
                if (run_size(w, pr, pl, w->sizes[s]))
                    return 1;
        }
    }
    return 0;
}

static const char *status_word(int status)
{
    return status == VINE_OK ? "ok" : status == VINE_ERR_UNSUPPORTED ? "skip" : "error";
}

static void write_csv(const run *w, FILE *f)
{
    fprintf(f,
            "ranks,coll,algo,size_bytes,status,steps,messages,bytes,node_bytes,host_bytes,"
            "local_bytes,global_bytes,cross_group_bytes,max_link,max_link_bytes,time_s,"
            "baseline,reduction_pct,note,dist%s\n",
            w->ports > 1 ? ",max_port,max_port_bytes,mean_port_bytes" : "");
    for (size_t i = 0; i < w->nrows; i++) {
        const row *r = &w->rows[i];
        fprintf(f, "%d,%s,%s,%zu,%s,", r->p, vine__coll_name(r->algo->coll), r->algo->name, r->size,
                status_word(r->status));
        if (r->status == VINE_OK) {
            fprintf(f, "%d,%zu,%.0f", r->res.steps, r->res.messages, r->res.bytes);
            for (int l = 0; l < VINE_LVL_COUNT; l++)
                fprintf(f, ",%.0f", r->res.level_bytes[l]);
            fprintf(f, ",%.0f,", r->res.cross_group_bytes);
            vs_csv_str(f, r->link);
            fprintf(f, ",%.0f,%.6g,", r->res.max_arc_bytes, r->res.time);
        } else {
            fprintf(f, ",,,,,,,,,,,");
        }
        fprintf(f, "%s,", r->base ? r->base->name : "");
        if (!isnan(r->reduction))
            fprintf(f, "%.4f", r->reduction);
        fputc(',', f);
        vs_csv_str(f, r->note);
        char dist[1024];
        row_dist(w, r, dist, sizeof dist);
        fputc(',', f);
        vs_csv_str(f, dist);
        if (w->ports > 1 && r->status == VINE_OK)
            fprintf(f, ",%s,%.0f,%.0f", r->port, r->res.max_port_bytes, r->res.mean_port_bytes);
        else if (w->ports > 1)
            fprintf(f, ",,,");
        fputc('\n', f);
    }
}

static void json_row(FILE *f, const run *w, const row *r)
{
    static const char *lv[VINE_LVL_COUNT] = {"node", "host", "local", "global"};
    fprintf(f, "    {\"ranks\": %d, \"coll\": ", r->p);
    vs_json_str(f, vine__coll_name(r->algo->coll));
    fprintf(f, ", \"algo\": ");
    vs_json_str(f, r->algo->name);
    fprintf(f, ", \"size_bytes\": %zu, \"status\": \"%s\"", r->size, status_word(r->status));
    if (r->status == VINE_OK) {
        fprintf(f, ", \"steps\": %d, \"messages\": %zu, \"bytes\": ", r->res.steps,
                r->res.messages);
        vs_json_num(f, r->res.bytes);
        fprintf(f, ", \"level_bytes\": {");
        for (int l = 0; l < VINE_LVL_COUNT; l++) {
            fprintf(f, "%s\"%s\": ", l ? ", " : "", lv[l]);
            vs_json_num(f, r->res.level_bytes[l]);
        }
        fprintf(f, "}, \"cross_group_bytes\": ");
        vs_json_num(f, r->res.cross_group_bytes);
        fprintf(f, ", \"max_link\": ");
        vs_json_str(f, r->link);
        fprintf(f, ", \"max_link_bytes\": ");
        vs_json_num(f, r->res.max_arc_bytes);
        fprintf(f, ", \"time_s\": ");
        vs_json_num(f, r->res.time);
        if (w->ports > 1) {
            fprintf(f, ", \"max_port\": ");
            vs_json_str(f, r->port);
            fprintf(f, ", \"max_port_bytes\": ");
            vs_json_num(f, r->res.max_port_bytes);
            fprintf(f, ", \"mean_port_bytes\": ");
            vs_json_num(f, r->res.mean_port_bytes);
        }
        for (int j = 0; r->ptab && j < w->ports; j++) {
            static const char *keys[4] = {"sent_max", "sent_mean", "received_max", "received_mean"};
            char nm[64];
            if (w->ports > 1)
                vine__sim_port_name(&w->net.t, j, nm, sizeof nm);
            else
                snprintf(nm, sizeof nm, "nic");
            fprintf(f, "%s{\"port\": ", j ? ", " : ", \"ports\": [");
            vs_json_str(f, nm);
            for (int i = 0; i < 4; i++) {
                fprintf(f, ", \"%s\": ", keys[i]);
                vs_json_num(f, r->ptab[4 * j + i]);
            }
            fprintf(f, "}%s", j + 1 == w->ports ? "]" : "");
        }
    }
    fprintf(f, ", \"baseline\": ");
    if (r->base)
        vs_json_str(f, r->base->name);
    else
        fputs("null", f);
    fprintf(f, ", \"reduction_pct\": ");
    vs_json_num(f, r->reduction);
    if (r->note[0]) {
        fprintf(f, ", \"note\": ");
        vs_json_str(f, r->note);
    }
    char dist[1024];
    row_dist(w, r, dist, sizeof dist);
    if (dist[0]) {
        fprintf(f, ", \"dist\": ");
        vs_json_str(f, dist);
    }
    fputc('}', f);
}

/* The level map in brief: per level, its grouping and number of groups; [] when flat. */
static void json_levels(FILE *f, const place_rec *pr)
{
    const vine_levels *m = shown(pr);
    int flat = vine__levels_flat(m);
    fputc('[', f);
    for (int l = 0; !flat && l < m->nlevels; l++) {
        fprintf(f, "%s{\"level\": ", l ? ", " : "");
        vs_json_str(f, vs_level_name(pr->lkind[l]));
        fprintf(f, ", \"groups\": %d}", vine__levels_ngroups(m, l));
    }
    fputc(']', f);
}

static void write_json(const run *w, FILE *f)
{
    const vine_topo *t = &w->net.t;
    int nl[VINE_LVL_COUNT] = {0};
    for (int i = 0; i < t->nlinks; i++)
        if (t->links[i].level >= 0 && t->links[i].level < VINE_LVL_COUNT)
            nl[t->links[i].level]++;
    fprintf(f, "{\n  \"tool\": \"vine sim traffic\",\n  \"topology\": {\"spec\": ");
    vs_json_str(f, w->o.topo);
    fprintf(f, ", \"name\": ");
    vs_json_str(f, t->name);
    fprintf(f, ", \"description\": ");
    vs_json_str(f, w->net.desc);
    fprintf(f,
            ", \"vertices\": %d, \"hosts\": %d, \"switches\": %d, \"groups\": %d, "
            "\"links\": %d, \"links_per_level\": {\"host\": %d, \"local\": %d, \"global\": %d}, "
            "\"ports\": %d},\n",
            t->nvert, t->nhosts, t->nvert - t->nhosts, t->ngroups, t->nlinks, nl[VINE_LVL_HOST],
            nl[VINE_LVL_LOCAL], nl[VINE_LVL_GLOBAL], w->ports);
    fprintf(f,
            "  \"size_meaning\": \"the call's count in bytes: the whole vector for bcast, "
            "reduce, allreduce, scan and exscan, the per-rank block otherwise (the mean block "
            "of the v collectives with --dist); reductions on %d-byte elements\",\n",
            VS_REDUCE_ELEM);
    fprintf(f, "  \"time_model\": {\"clock\": \"%s\", \"lat_factor\": ",
            w->rank_clock ? "rank" : "step");
    if (w->o.latf)
        vs_json_str(f, w->o.latf);
    else
        fputs("null", f);
    fprintf(f, ", \"bw_factor\": ");
    if (w->o.bwf)
        vs_json_str(f, w->o.bwf);
    else
        fputs("null", f);
    fprintf(f, "},\n  \"dist\": ");
    if (w->has_dist)
        vs_json_str(f, w->o.dist);
    else
        fputs("null", f);
    fprintf(f, ",\n");
    fprintf(f,
            "  \"root\": %ld,\n  \"segment_bytes\": %zu,\n  \"remap\": %s,\n  \"placement\": "
            "{\"spec\": ",
            w->root, w->seg, w->o.remap ? "true" : "false");
    vs_json_str(f, w->o.placement);
    fprintf(f, ", \"runs\": [");
    for (size_t i = 0; i < w->nplaces; i++) {
        const place_rec *pr = &w->places[i];
        fprintf(f,
                "%s\n    {\"ranks\": %d, \"hosts\": %d, \"groups\": %d, \"min_ranks_per_group\": "
                "%d, \"max_ranks_per_group\": %d, \"rank_host\": [",
                i ? "," : "", pr->p, pr->spread.hosts, pr->spread.groups, pr->spread.min_per_group,
                pr->spread.max_per_group);
        for (int r = 0; r < pr->p; r++)
            fprintf(f, "%s%d", r ? "," : "", pr->rank_host[r]);
        fprintf(f, "], \"levels\": ");
        json_levels(f, pr);
        fprintf(f, "}");
    }
    fprintf(f, "\n  ]},\n  \"rows\": [");
    for (size_t i = 0; i < w->nrows; i++) {
        fputs(i ? ",\n" : "\n", f);
        json_row(f, w, &w->rows[i]);
    }
    fprintf(f, "\n  ]\n}\n");
}

/* Opens an output file; NULL after printing why. */
static FILE *open_out(const char *opt, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        vine_cli_usage_error("vine sim", "traffic", "%s %s: cannot open for writing", opt, path);
    return f;
}

static int close_out(const char *path, FILE *f)
{
    int bad = ferror(f);
    if (fclose(f) || bad) {
        fprintf(stderr, "vine sim traffic: writing %s failed\n", path);
        return 1;
    }
    return 0;
}

static void free_run(run *w)
{
    for (int k = 0; k < w->nplans; k++)
        free(w->plans[k].algos);
    for (size_t i = 0; i < w->nplaces; i++) {
        free(w->places[i].rank_host);
        vine__levels_free(&w->places[i].levels);
        vine__levels_free(&w->places[i].full);
    }
    free(w->places);
    for (size_t i = 0; i < w->nrows; i++)
        free(w->rows[i].ptab);
    free(w->rows);
    free(w->pbytes);
    free(w->ranks);
    free(w->sizes);
    vine__vdist_free(&w->dist);
    vs_net_close(&w->net);
}

int vs_cmd_traffic(int argc, char **argv)
{
    run w;
    memset(&w, 0, sizeof w);
    vine__topo_init(&w.net.t);
    int rc = parse_opts(argc, argv, &w.o);
    if (!rc && w.o.help) {
        usage(stdout);
        return 0;
    }
    if (!rc)
        rc = parse_all(&w);
    FILE *csv = NULL, *json = NULL;
    if (!rc && w.o.csv && !(csv = open_out("--csv", w.o.csv)))
        rc = 2;
    if (!rc && w.o.json && !(json = open_out("--json", w.o.json)))
        rc = 2;
    if (!rc)
        rc = vs_net_open("traffic", w.o.topo, &w.net);
    if (!rc) {
        vine__router_set_factors(w.net.router, &w.latf, &w.bwf);
        vine__router_set_clock(w.net.router, w.rank_clock);
        w.ports = w.net.t.ports > 1 ? w.net.t.ports : 1;
        if (w.o.ports &&
            !(w.pbytes = calloc(2 * (size_t)w.net.t.nhosts * w.ports + 1, sizeof *w.pbytes)))
            rc = 1;
    }
    if (!rc)
        rc = run_all(&w);
    int whole = !rc; /* every row is there */
    if (!rc && w.failed) {
        fprintf(stderr, "vine sim traffic: %ld simulation(s) failed\n", w.failed);
        rc = 1;
    }
    if (rc == 2)
        fprintf(stderr, "Run 'vine sim traffic --help' for the options.\n");
    /* The files are opened first (a bad path fails before a long run) and
     * removed again when the run stops early, so no half-written file
     * remains; failed simulations are error rows in complete files. */
    if (csv && whole)
        write_csv(&w, csv);
    if (csv && close_out(w.o.csv, csv) && !rc)
        rc = 1;
    if (json && whole)
        write_json(&w, json);
    if (json && close_out(w.o.json, json) && !rc)
        rc = 1;
    if (!whole && csv)
        remove(w.o.csv);
    if (!whole && json)
        remove(w.o.json);
    free_run(&w);
    return rc;
}
