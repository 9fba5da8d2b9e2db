/*
 * `vine sim`: the simulator's command line (docs/sim.md).
 *
 *   vine sim traffic ...       one table row per collective, algorithm and size
 *                              (tools/vine_sim_traffic.c)
 *   vine sim allocations ...   the distribution of one algorithm's cross-group
 *                              traffic reduction over many allocations, as in
 *                              Fig. 5 of the Bine paper (tools/vine_sim_alloc.c)
 *   vine sim export ...        the network model as a SimGrid platform file
 *                              (below; src/topo/topo_write_simgrid.c)
 *
 * This file dispatches and holds the helpers both share (vine_sim_util.h).
 * Nothing here needs MPI: the schedules are replayed by src/sim on a network
 * model from src/topo.
 */
#include "vine_sim.h"
#include "bench/results.h"
#include "cli.h"
#include "sched/verify.h"
#include "topo/topo_read.h"
#include "vine_sim_util.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void usage_sim(FILE *f)
{
    fprintf(f,
            "usage: vine sim traffic --topo SPEC --ranks LIST --coll C --algo A --size LIST ...\n"
            "       vine sim allocations --topo SPEC --nodes LIST [--samples K] ...\n"
            "       vine sim export --topo SPEC --simgrid FILE [--hostfile FILE] ...\n"
            "  traffic       bytes per link level, cross-group bytes, the most loaded link\n"
            "                and a predicted time, per collective, algorithm and size\n"
            "  allocations   the spread over random (or given) allocations of an\n"
            "                algorithm's cross-group traffic reduction against a baseline\n"
            "  export        the network model as a SimGrid platform file (for smpirun)\n"
            "Run 'vine sim traffic --help', 'vine sim allocations --help' or\n"
            "'vine sim export --help' for options;\n"
            "docs/sim.md describes the model.\n");
}

static void usage_export(FILE *f)
{
    fprintf(f, "usage: vine sim export --topo SPEC --simgrid FILE [--hostfile FILE]\n"
               "                       [--map FILE] [--routing DijkstraCache|Dijkstra|Floyd]\n"
               "                       [--cluster]\n"
               "  Writes the network model of --topo (hosts, switches, links with their\n"
               "  bandwidth and latency) as a SimGrid 4.1 platform for smpirun -platform:\n"
               "  one zone, a <host> per host in vine's host order, a <router> per switch,\n"
               "  a full-duplex <link> per link; --topo simgrid:FILE reads it back into the\n"
               "  same graph.\n"
               "  --hostfile FILE   also write the host names, one per line in host order,\n"
               "                    for smpirun -hostfile (rank r on host r)\n"
               "  --map FILE        also write vine's host-to-groups map of the hosts (switch,\n"
               "                    group), for VINE_TOPOLOGY=map:FILE in the smpirun job\n"
               "  --routing R       SimGrid's routing of the zone: DijkstraCache (default),\n"
               "                    Dijkstra, or Floyd (O(V^3) at load: small graphs only)\n"
               "  --cluster         write SimGrid's own cluster of the same network instead of\n"
               "                    the graph, routed by SimGrid's cluster routing: FAT_TREE\n"
               "                    for the fattree generator's trees, TORUS for its tori\n"
               "                    (every link of one bandwidth and latency)\n"
               "docs/sim.md describes the format.\n");
}

/*
 * The host names of t, one per line in host order (an smpirun host file);
 * with map, each followed by its groups as VINE_TOPOLOGY's map has them
 * (docs/topology-files.md): the switch the host hangs off (the host itself
 * where it has none or several), then its group, as vine sim's level map.
 */
static int write_hostfile(const vine_topo *t, const char *path, int map)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    if (map)
        fprintf(f, "# written by vine sim export from %s: HOST SWITCH GROUP\n", t->name);
    for (int h = 0; h < t->nhosts; h++) {
        char buf[32], sw[32];
        int v = t->host_vert[h];
        fputs(vine__topo_vname(t, v, buf, sizeof buf), f);
        if (map)
            fprintf(f, " %s g%d", vine__topo_vname(t, vine__sim_host_switch(t, v), sw, sizeof sw),
                    t->group[v]);
        fputc('\n', f);
    }
    int bad = ferror(f);
    return fclose(f) != 0 || bad ? -1 : 0;
}

static int cmd_export(int argc, char **argv)
{
    const char *topo = NULL, *out = NULL, *hosts = NULL, *routing = NULL, *map = NULL;
    int cluster = 0;
    const char *const names[] = {"--topo", "--simgrid", "--hostfile", "--routing", "--map"};
    const char **const slots[] = {&topo, &out, &hosts, &routing, &map};
    for (int i = 1; i < argc; i++) {
        int hit = vine_cli_take_any("vine sim export", &i, argc, argv, names, slots, 5);
        if (hit < 0)
            return 2;
        if (hit)
            continue;
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            usage_export(stdout);
            return 0;
        }
        if (strcmp(argv[i], "--cluster") == 0) {
            cluster = 1;
            continue;
        }
        return vine_cli_usage_error("vine sim", "export", "unknown option '%s'", argv[i]);
    }
    if (!topo || !out)
        return vine_cli_usage_error("vine sim", "export", "needs --topo SPEC and --simgrid FILE");
    if (cluster && routing)
        return vine_cli_usage_error("vine sim", "export",
                                    "--routing and --cluster: a cluster has its own routing");
    char err[1024] = "";
    vine_topo t;
    vine__topo_init(&t);
    int rc = vine__topo_parse(topo, &t, err, sizeof err);
    if (rc == VINE_ERR_UNSUPPORTED)
        return vine_cli_usage_error("vine sim", "export", "--topo %s: %s", topo,
                                    err[0] ? err : "not a topology");
    if (rc == VINE_OK)
        rc = cluster ? vine__topo_write_simgrid_cluster(&t, out, err, sizeof err)
                     : vine__topo_write_simgrid(&t, out, routing, err, sizeof err);
    if (rc != VINE_OK) {
        fprintf(stderr, "vine sim export: %s\n", rc == VINE_ERR_NO_MEM ? "out of memory" : err);
        vine__topo_free(&t);
        return rc == VINE_ERR_UNSUPPORTED ? 2 : 1;
    }
    const char *files[2] = {hosts, map};
    for (int k = 0; k < 2; k++)
        if (files[k] && write_hostfile(&t, files[k], k) != 0) {
            fprintf(stderr, "vine sim export: %s: cannot write: %s\n", files[k], strerror(errno));
            vine__topo_free(&t);
            return 1;
        }
    if (cluster)
        printf("wrote %s: %s as SimGrid's own %s cluster, %d hosts\n", out, t.name,
               t.ft_levels ? "FAT_TREE" : "TORUS", t.nhosts);
    else
        printf("wrote %s: %s, %d hosts, %d routers, %d links (routing %s)\n", out, t.name, t.nhosts,
               t.nvert - t.nhosts, t.nlinks, routing ? routing : "DijkstraCache");
    if (hosts)
        printf("wrote %s: %d host names in host order\n", hosts, t.nhosts);
    if (map)
        printf("wrote %s: the switch and group of %d hosts\n", map, t.nhosts);
    vine__topo_free(&t);
    return 0;
}

int vine_cmd_sim(int argc, char **argv)
{
    if (argc < 2) {
        usage_sim(stderr);
        return 2;
    }
    const char *sub = argv[1];
    if (strcmp(sub, "-h") == 0 || strcmp(sub, "--help") == 0 || strcmp(sub, "help") == 0) {
        usage_sim(stdout);
        return 0;
    }
    if (strcmp(sub, "traffic") == 0)
        return vs_cmd_traffic(argc - 1, argv + 1);
    if (strcmp(sub, "allocations") == 0)
        return vs_cmd_allocations(argc - 1, argv + 1);
    if (strcmp(sub, "export") == 0)
        return cmd_export(argc - 1, argv + 1);
    fprintf(stderr, "vine sim: unknown subcommand '%s'\n", sub);
    usage_sim(stderr);
    return 2;
}

int vs_parse_size(const char *s, size_t *out)
{
    static const struct {
        const char *unit;
        int shift;
    } units[] = {{"", 0},     {"B", 0},  {"K", 10},   {"KiB", 10}, {"M", 20},
                 {"MiB", 20}, {"G", 30}, {"GiB", 30}, {"T", 40},   {"TiB", 40}};
    char *end;
    if (*s < '0' || *s > '9')
        return -1;
    errno = 0;
    unsigned long long n = strtoull(s, &end, 10);
    if (errno)
        return -1;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcmp(end, units[i].unit) == 0) {
            /* 2^50 bytes: far beyond any real call, and exact in a double. */
            if (n > (1ULL << 50) >> units[i].shift)
                return -1;
            *out = (size_t)(n << units[i].shift);
            return 0;
        }
    return -1;
}

/* Appends x to the growing array *v of *n elements. */
static int push_size(size_t **v, size_t *n, size_t x)
{
    if ((*n & (*n - 1)) == 0) { /* grow at powers of two */
        size_t *q = realloc(*v, (*n ? 2 * *n : 8) * sizeof *q);
        if (!q)
            return -1;
        *v = q;
    }
    (*v)[(*n)++] = x;
    return 0;
}

int vs_parse_sizes(const char *s, size_t **out, size_t *n)
{
    char *copy = strdup(s), *save = NULL;
    int rc = copy ? 0 : -1;
    *out = NULL;
    *n = 0;
    for (char *item = copy ? strtok_r(copy, ",", &save) : NULL; item && !rc;
         item = strtok_r(NULL, ",", &save)) {
        char *dots = strstr(item, "..");
        size_t lo, hi;
        if (!dots) {
            rc = vs_parse_size(item, &lo) || push_size(out, n, lo);
            continue;
        }
        *dots = '\0';
        if (vs_parse_size(item, &lo) || vs_parse_size(dots + 2, &hi) || lo == 0 || lo > hi) {
            rc = -1;
            break;
        }
        for (size_t x = lo; !rc && x <= hi; x *= 2)
            rc = push_size(out, n, x);
    }
    free(copy);
    if (rc || *n == 0) {
        free(*out);
        *out = NULL;
        return -1;
    }
    return 0;
}

int vs_parse_long(const char *s, long max, long *out)
{
    char *end;
    if (*s < '0' || *s > '9')
        return -1;
    errno = 0;
    long x = strtol(s, &end, 10);
    if (errno || *end || x > max)
        return -1;
    *out = x;
    return 0;
}

static int long_cmp(const void *x, const void *y)
{
    long a = *(const long *)x, b = *(const long *)y;
    return a < b ? -1 : a > b;
}

static int push_long(long **v, size_t *n, long x)
{
    if ((*n & (*n - 1)) == 0) {
        long *q = realloc(*v, (*n ? 2 * *n : 8) * sizeof *q);
        if (!q)
            return -1;
        *v = q;
    }
    (*v)[(*n)++] = x;
    return 0;
}

/* Parses item "a", "a-b" or "a..b" of an integer list. */
static int parse_int_item(char *item, long max, long **out, size_t *n)
{
    char *dots = strstr(item, ".."), *dash = strchr(item, '-');
    long lo, hi;
    if (dots || dash) {
        char *second = dots ? dots + 2 : dash + 1;
        *(dots ? dots : dash) = '\0';
        if (vs_parse_long(item, max, &lo) || vs_parse_long(second, max, &hi) || lo < 1 || lo > hi)
            return -1;
        for (long x = lo; x <= hi; x = dots ? 2 * x : x + 1)
            if (push_long(out, n, x))
                return -1;
        return 0;
    }
    if (vs_parse_long(item, max, &lo) || lo < 1)
        return -1;
    return push_long(out, n, lo);
}

int vs_parse_ints(const char *s, long max, long **out, size_t *n)
{
    char *copy = strdup(s), *save = NULL;
    int rc = copy ? 0 : -1;
    *out = NULL;
    *n = 0;
    for (char *item = copy ? strtok_r(copy, ",", &save) : NULL; item && !rc;
         item = strtok_r(NULL, ",", &save))
        rc = parse_int_item(item, max, out, n);
    free(copy);
    if (rc || *n == 0) {
        free(*out);
        *out = NULL;
        return -1;
    }
    qsort(*out, *n, sizeof **out, long_cmp);
    size_t m = 0;
    for (size_t i = 0; i < *n; i++)
        if (m == 0 || (*out)[m - 1] != (*out)[i])
            (*out)[m++] = (*out)[i];
    *n = m;
    return 0;
}

void vs_fmt_bytes(double b, char *buf, size_t len)
{
    static const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    int u = 0;
    while (u < 5 && b >= 1024 * 0.9995)
        b /= 1024, u++;
    if (u == 0)
        snprintf(buf, len, "%.0fB", b);
    else if (b < 9.995)
        snprintf(buf, len, "%.2f%s", b, units[u]);
    else if (b < 99.95)
        snprintf(buf, len, "%.1f%s", b, units[u]);
    else
        snprintf(buf, len, "%.0f%s", b, units[u]);
}

void vs_fmt_size(size_t b, char *buf, size_t len)
{
    if (b && b % (1ULL << 40) == 0)
        snprintf(buf, len, "%zuTiB", b >> 40);
    else if (b && b % (1u << 30) == 0)
        snprintf(buf, len, "%zuGiB", b >> 30);
    else if (b && b % (1u << 20) == 0)
        snprintf(buf, len, "%zuMiB", b >> 20);
    else if (b && b % 1024 == 0)
        snprintf(buf, len, "%zuKiB", b >> 10);
    else
        snprintf(buf, len, "%zuB", b);
}

void vs_fmt_time(double s, char *buf, size_t len)
{
    static const char *units[] = {"ns", "us", "ms", "s"};
    double x = s * 1e9;
    int u = 0;
    while (u < 3 && x >= 999.5)
        x /= 1000, u++;
    if (x < 9.995)
        snprintf(buf, len, "%.2f%s", x, units[u]);
    else if (x < 99.95)
        snprintf(buf, len, "%.1f%s", x, units[u]);
    else
        snprintf(buf, len, "%.0f%s", x, units[u]);
}

void vs_json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        if (*c == '"' || *c == '\\')
            fprintf(f, "\\%c", *c);
        else if (*c == '\n')
            fputs("\\n", f);
        else if (*c < 0x20)
            fprintf(f, "\\u%04x", *c);
        else
            fputc(*c, f);
    }
    fputc('"', f);
}

void vs_json_num(FILE *f, double x)
{
    if (isfinite(x))
        fprintf(f, "%.17g", x);
    else
        fputs("null", f);
}

void vs_csv_str(FILE *f, const char *s)
{
    vine__bench_csv_field(f, s);
}

const char *vs_default_baseline(vine_coll c)
{
    switch (c) {
    case VINE_COLL_BCAST:
    case VINE_COLL_REDUCE:
    case VINE_COLL_GATHER:
    case VINE_COLL_SCATTER:
        return "binomial";
    case VINE_COLL_ALLREDUCE:
    case VINE_COLL_ALLGATHER:
        return "recursive_doubling";
    case VINE_COLL_REDUCE_SCATTER:
    case VINE_COLL_REDUCE_SCATTER_BLOCK:
        return "recursive_halving";
    case VINE_COLL_ALLTOALL:
        return "bruck";
    case VINE_COLL_BARRIER:
        return "dissemination";
    case VINE_COLL_ALLGATHERV:
    case VINE_COLL_SCAN:
    case VINE_COLL_EXSCAN:
        return "recursive_doubling";
    case VINE_COLL_ALLTOALLV:
    case VINE_COLL_ALLTOALLW:
        return "pairwise";
    case VINE_COLL_GATHERV:
    case VINE_COLL_SCATTERV:
        return "binomial";
    default:
        return NULL;
    }
}

int vs_net_open(const char *cmd, const char *spec, vs_net *net)
{
    char err[1024] = "";
    memset(net, 0, sizeof *net);
    vine__topo_init(&net->t);
    int rc = vine__topo_parse(spec, &net->t, err, sizeof err);
    if (rc == VINE_ERR_UNSUPPORTED) {
        vine__topo_free(&net->t);
        return vine_cli_usage_error("vine sim", cmd, "--topo %s: %s", spec,
                                    err[0] ? err : "not a topology");
    }
    if (rc == VINE_OK && net->t.nhosts == 0) {
        vine__topo_free(&net->t);
        return vine_cli_usage_error("vine sim", cmd, "--topo %s: the topology has no hosts", spec);
    }
    if (rc == VINE_OK)
        rc = vine__router_new(&net->t, &net->router);
    if (rc == VINE_OK && vine__topo_describe(&net->t, net->desc, sizeof net->desc) != VINE_OK)
        snprintf(net->desc, sizeof net->desc, "%s", net->t.name);
    if (rc != VINE_OK) {
        fprintf(stderr, "vine sim %s: --topo %s: %s\n", cmd, spec,
                rc == VINE_ERR_NO_MEM ? "out of memory" : "the router could not be built");
        vs_net_close(net);
        return 1;
    }
    return 0;
}

void vs_net_close(vs_net *net)
{
    if (net->router)
        vine__router_free(net->router);
    net->router = NULL;
    vine__topo_free(&net->t);
}

void vs_placement_spread(const vine_topo *t, const int *rank_host, int p, vs_spread *s)
{
    int ng = t->ngroups > 0 ? t->ngroups : 1;
    int *per_group = calloc((size_t)ng + 1, sizeof *per_group);
    unsigned char *used = calloc((size_t)t->nhosts, 1);
    memset(s, 0, sizeof *s);
    if (!per_group || !used) {
        free(per_group);
        free(used);
        return;
    }
    for (int r = 0; r < p; r++) {
        int h = rank_host[r];
        if (h < 0 || h >= t->nhosts)
            continue;
        s->hosts += !used[h];
        used[h] = 1;
        int g = t->group[t->host_vert[h]];
        per_group[g >= 0 && g < ng ? g : ng]++; /* slot ng: hosts in no group */
    }
    s->min_per_group = p;
    for (int g = 0; g <= ng; g++)
        if (per_group[g]) {
            s->groups++;
            s->min_per_group = per_group[g] < s->min_per_group ? per_group[g] : s->min_per_group;
            s->max_per_group = per_group[g] > s->max_per_group ? per_group[g] : s->max_per_group;
        }
    free(per_group);
    free(used);
}

/* Points a's tables at t's, from dist or else uniform:size; VINE_OK or an error with err set. */
static int sim_vtables(const vine_vdist *dist, size_t size, vine_args *a, vine_vtables *t,
                       char *err, size_t errlen)
{
    vine_vdist uniform = {.kind = VINE_VD_UNIFORM, .n = size};
    const vine_vdist *d = dist ? dist : &uniform;
    int a2a = a->coll == VINE_COLL_ALLTOALLV || a->coll == VINE_COLL_ALLTOALLW;
    int rc = vine__vdist_check(d, a->p, a2a, err, errlen);
    if (rc == VINE_OK)
        rc = vine__vdist_tables(d, a, t);
    if (rc == VINE_ERR_NO_MEM)
        snprintf(err, errlen, "out of memory for the count tables of %d ranks", a->p);
    return rc;
}

int vs_vdist_mean(const vine_vdist *d, vine_coll c, int p, size_t *mean, char *err, size_t errlen)
{
    vine_args a;
    vine_vtables t;
    memset(&a, 0, sizeof a);
    a.coll = c;
    a.p = p;
    *mean = 0;
    int rc = sim_vtables(d, 0, &a, &t, err, errlen);
    if (rc != VINE_OK)
        return rc;
    /*
     * The blocks are in t.t[0] (scounts), p or p rows of p.  A row adds up to
     * 2^60 at most (vine__vdist_check), p rows may not: divide row by row.
     */
    size_t rows = a.vstride ? (size_t)p : 1, n = rows * (size_t)p, rem = 0;
    for (size_t i = 0; i < rows; i++) {
        size_t sum = 0;
        for (size_t j = 0; j < (size_t)p; j++)
            sum += t.t[0][i * (size_t)p + j];
        *mean += sum / n;
        rem += sum % n;
        *mean += rem / n;
        rem %= n;
    }
    vine__verify_vtables_free(&a, &t);
    return VINE_OK;
}

int vs_simulate(vine_router *r, const int *rank_host, const vine_levels *levels,
                const vine_levels *full, int remap, const vine_algo *algo, int p, size_t size,
                const vine_vdist *dist, int root, size_t seg, vine_sim_result *res, char *err,
                size_t errlen)
{
    return vs_simulate_ports(r, rank_host, levels, full, remap, algo, p, size, dist, root, seg, res,
                             NULL, err, errlen);
}

int vs_simulate_ports(vine_router *r, const int *rank_host, const vine_levels *levels,
                      const vine_levels *full, int remap, const vine_algo *algo, int p, size_t size,
                      const vine_vdist *dist, int root, size_t seg, vine_sim_result *res,
                      double *port_bytes, char *err, size_t errlen)
{
    vine_coll_info info;
    memset(res, 0, sizeof *res);
    res->max_arc = -1;
    res->max_port = -1;
    if (vine__verify_coll_info(algo->coll, &info) != VINE_OK) {
        snprintf(err, errlen, "unknown collective");
        return VINE_ERR_UNSUPPORTED;
    }
    size_t elem = info.reduction ? VS_REDUCE_ELEM : 1;
    if (size % elem || seg % elem) {
        snprintf(err, errlen, "size or segment is not a whole number of %zu-byte elements", elem);
        return VINE_ERR_UNSUPPORTED;
    }
    if (info.rooted && root >= p) {
        snprintf(err, errlen, "root %d is not below %d ranks", root, p);
        return VINE_ERR_UNSUPPORTED;
    }
    vine_args a;
    memset(&a, 0, sizeof a);
    a.coll = algo->coll;
    a.p = p;
    a.root = info.rooted ? root : 0;
    a.count = algo->coll == VINE_COLL_BARRIER ? 0 : size / elem;
    a.commutative = 1; /* a sum, as MPI_SUM on MPI_INT */
    a.seg_count = seg / elem;
    a.levels = levels;
    a.levels_full = full;
    a.remap = remap;
    size_t *counts = NULL, *displs = NULL;
    vine_vtables vt;
    memset(&vt, 0, sizeof vt);
    if (info.vector) {
        /* Every rank gets the same block: size is the per-rank block (docs/sim.md). */
        counts = malloc((size_t)p * sizeof *counts);
        displs = malloc(((size_t)p + 1) * sizeof *displs);
        if (!counts || !displs) {
            free(counts);
            free(displs);
            return VINE_ERR_NO_MEM;
        }
        displs[0] = 0;
        for (int i = 0; i < p; i++) {
            counts[i] = a.count;
            displs[i + 1] = displs[i] + a.count;
        }
        a.counts = counts;
        a.displs = displs;
    }
    int rc = VINE_OK;
    /* The v collectives run on bytes (elem 1): the blocks are bytes too. */
    if (vine__coll_is_v(a.coll))
        rc = sim_vtables(dist, size, &a, &vt, err, errlen);
    if (rc == VINE_OK)
        rc = vine__sim_run_ports(r, rank_host, algo, &a, elem, res, port_bytes, err, errlen);
    vine__verify_vtables_free(&a, &vt);
    free(counts);
    free(displs);
    return rc;
}

double vs_reduction(double algo_bytes, double base_bytes)
{
    if (base_bytes > 0)
        return 100.0 * (1.0 - algo_bytes / base_bytes);
    return algo_bytes > 0 ? NAN : 0.0;
}

/* The topology's levels, and with numa > 1 the domains inside the hosts below them. */
static int topo_levels(const vine_topo *t, const int *rank_host, int p, int numa, vine_levels *m,
                       vine_levels *full, int *kind, char *err, size_t errlen)
{
    int mk[VINE_LEVELS_MAX];
    int rc = vine__sim_levels(t, rank_host, p, m, mk, err, errlen);
    if (rc == VINE_OK && numa > 1)
        rc = vine__sim_levels_numa(m, rank_host, t->nhosts, p, numa, full, err, errlen);
    if (rc != VINE_OK) {
        vine__levels_free(m);
        return rc;
    }
    for (int l = 0; kind && l < VINE_LEVELS_MAX; l++)
        kind[l] = l < m->nlevels ? mk[l] : -1;
    if (kind && full->group) {
        /* Domains, hosts, then the levels of m above the hosts (the last ones of m). */
        kind[0] = VS_KIND_NUMA;
        kind[1] = VINE_SIM_LV_NODE;
        for (int l = 2; l < full->nlevels; l++)
            kind[l] = mk[m->nlevels - (full->nlevels - l)];
    }
    return VINE_OK;
}

int vs_make_levels(const vine_topo *t, const int *rank_host, int p, const char *spec, int numa,
                   vine_levels *m, vine_levels *full, int *kind, char *err, size_t errlen)
{
    memset(full, 0, sizeof *full);
    if (!spec || strcmp(spec, "topo") == 0)
        return topo_levels(t, rank_host, p, numa, m, full, kind, err, errlen);
    for (int l = 0; kind && l < VINE_LEVELS_MAX; l++)
        kind[l] = -1;
    if (numa > 1) {
        memset(m, 0, sizeof *m);
        snprintf(err, errlen,
                 "--numa takes the topology's levels; in a synthetic map mark the node "
                 "instead (block:2/node=block:4)");
        return VINE_ERR_UNSUPPORTED;
    }
    int rc = vine__levels_parse(spec, p, full, err, errlen);
    if (rc == VINE_OK)
        rc = vine__levels_split_node(full, m);
    else
        memset(m, 0, sizeof *m);
    return rc;
}

const char *vs_level_name(int kind)
{
    return kind == VS_KIND_NUMA ? "numa" : vine__sim_level_name(kind);
}

void vs_levels_text(const vine_levels *m, const int *kind, char *buf, size_t len)
{
    size_t used = 0;
    if (vine__levels_flat(m)) {
        snprintf(buf, len, "none (flat: hierarchical algorithms skip)");
        return;
    }
    buf[0] = '\0';
    for (int l = 0; l < m->nlevels && used < len; l++) {
        int n = kind[l] != -1 ? snprintf(buf + used, len - used, "%s%s (%d groups)", l ? ", " : "",
                                         vs_level_name(kind[l]), vine__levels_ngroups(m, l))
                              : snprintf(buf + used, len - used, "%slevel %d (%d groups%s)",
                                         l ? ", " : "", l, vine__levels_ngroups(m, l),
                                         m->node > 0 && l == m->node ? ", node" : "");
        used += n > 0 ? (size_t)n : 0;
    }
}
