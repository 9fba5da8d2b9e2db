/*
 * Fuzz harnesses of vine's parsers: everything that reads a file or a
 * description a user writes.  One function per parser:
 *
 *   topo_spec   vine__topo_parse (--topo SPEC: presets, generators)
 *   topo_edges  vine__topo_read_edges (edges:FILE)
 *   topo_slurm  vine__topo_read_slurm (slurm:FILE, topology.conf)
 *   topo_ibnet  vine__topo_read_ibnet (ibnet:FILE, ibnetdiscover)
 *   topo_sg     vine__topo_read_simgrid (simgrid:FILE, platform XML)
 *   hostgroups  vine__hostgroups_open + lookup (VINE_TOPOLOGY): the first
 *               byte picks map:/slurm:/ibnet: of a file or regex:/block:
 *   levels      vine__levels_parse (--levels SPEC), p from the first 2 bytes
 *   cost        vine__cost_load (VINE_COST_FILE, JSON)
 *   tuning      vine__tuning_parse (VINE_TUNING_FILE, JSON), the input as the text
 *   results     vine__bench_read (vine-bench result files, JSON or CSV)
 *   traffic     vine_bench_read_csv and vine_bench_read_mtx (vine-bench
 *               pattern csv:/mtx:), p from the first byte
 *   graph       vine__graph_parse (BBS graphs: grid:, torus:, edges:FILE)
 *   place       vine__place (--placement SPEC, hosts:FILE) on a fat tree of 64
 *               hosts, ranks from the first byte
 *   hostlist    vine__hostlist_expand (Slurm hostlists: node[001-004,010])
 *   sched       not a parser: every algorithm's schedules against the
 *               verifier on cases drawn from the input (fuzz_sched.c)
 *
 * Each input either parses or fails with a message; a crash, a sanitizer
 * report, a leak or a time-out is a bug.  Built with FUZZ_NAME="topo_spec"
 * (and clang's -fsanitize=fuzzer), the file is that libFuzzer harness
 * (tests/fuzz/run.sh); without it, replay.c runs any of them on files
 * (unit.fuzz_replay.*).
 */
#include "fuzz.h"

#include "bbs/bbs.h"
#include "bench/results.h"
#include "coll/levels.h"
#include "select/cost.h"
#include "select/tuning.h"
#include "topo/hostgroups.h"
#include "topo/topo.h"
#include "topo/topo_read.h"
#include "vine/bench_matrix.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A private file that holds the input; rewritten for every input. */
static const char *input_file(const uint8_t *data, size_t size)
{
    static char path[64];
    if (!path[0])
        snprintf(path, sizeof path, "/tmp/vine-fuzz-%d", (int)getpid());
    FILE *f = fopen(path, "wb");
    if (!f)
        abort();
    if (size && fwrite(data, 1, size, f) != size)
        abort();
    fclose(f);
    return path;
}

/* The input as a string (NUL-terminated copy); free it. */
static char *input_string(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        abort();
    memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

static int topo_spec(const uint8_t *data, size_t size)
{
    char err[256];
    /* Generators allocate what they describe: keep descriptions short. */
    if (size > 64)
        return 0;
    char *spec = input_string(data, size);
    vine_topo t;
    memset(&t, 0xa5, sizeof t); /* a caller's uninitialised variable */
    vine__topo_parse(spec, &t, err, sizeof err);
    vine__topo_free(&t); /* safe on success and on failure */
    free(spec);
    return 0;
}

static int topo_file(int (*reader)(const char *, vine_topo *, char *, size_t), const uint8_t *data,
                     size_t size)
{
    char err[256];
    vine_topo t;
    vine__topo_init(&t); /* the readers' callers initialise */
    reader(input_file(data, size), &t, err, sizeof err);
    vine__topo_free(&t);
    return 0;
}

static int topo_edges(const uint8_t *data, size_t size)
{
    return topo_file(vine__topo_read_edges, data, size);
}

static int topo_slurm(const uint8_t *data, size_t size)
{
    return topo_file(vine__topo_read_slurm, data, size);
}

static int topo_ibnet(const uint8_t *data, size_t size)
{
    return topo_file(vine__topo_read_ibnet, data, size);
}

static int topo_sg(const uint8_t *data, size_t size)
{
    return topo_file(vine__topo_read_simgrid, data, size);
}

static int hostgroups(const uint8_t *data, size_t size)
{
    char err[256];
    if (size < 1)
        return 0;
    static const char *const kind[] = {"map:", "slurm:", "ibnet:", "regex:", "block:"};
    int k = data[0] % 5;
    char spec[256];
    if (k < 3) {
        snprintf(spec, sizeof spec, "%s%s", kind[k], input_file(data + 1, size - 1));
    } else {
        char *s = input_string(data + 1, size - 1 < 200 ? size - 1 : 200);
        snprintf(spec, sizeof spec, "%s%s", kind[k], s);
        free(s);
    }
    vine_hostgroups *hg = NULL;
    if (vine__hostgroups_open(spec, &hg, err, sizeof err) == VINE_OK) {
        static const char *const hosts[] = {"nid001234", "a-0", "node1", "", "x1000c0s0b0n0"};
        char buf[512];
        const char *names[VINE_HOSTGROUPS_MAX];
        for (int i = 0; i < 5; i++)
            vine__hostgroups_lookup(hg, hosts[i], buf, sizeof buf, names, err, sizeof err);
        vine__hostgroups_free(hg);
    }
    return 0;
}

static int levels(const uint8_t *data, size_t size)
{
    char err[256];
    if (size < 2 || size > 128)
        return 0;
    int p = 1 + (data[0] | data[1] << 8) % 1024;
    char *spec = input_string(data + 2, size - 2);
    vine_levels m;
    if (vine__levels_parse(spec, p, &m, err, sizeof err) == VINE_OK)
        vine__levels_free(&m);
    free(spec);
    return 0;
}

static int cost(const uint8_t *data, size_t size)
{
    char err[256];
    vine_cost c;
    vine__cost_load(&c, input_file(data, size), err, sizeof err);
    return 0;
}

static int tuning(const uint8_t *data, size_t size)
{
    char err[256];
    vine_tuning t;
    vine__tuning_init(&t);
    vine__tuning_parse(&t, (const char *)data, size, "fuzz", err, sizeof err);
    vine__tuning_free(&t); /* empty after a failure, the table after a success */
    return 0;
}

static int results(const uint8_t *data, size_t size)
{
    char err[256];
    vine_bench_results r;
    if (vine__bench_read(&r, input_file(data, size), err, sizeof err) == VINE_OK)
        vine__bench_results_free(&r);
    return 0;
}

static int traffic(const uint8_t *data, size_t size)
{
    char err[256];
    if (size < 1)
        return 0;
    vine_bench_matrix m;
    if (vine_bench_matrix_init(&m, 1 + data[0] % 64) != VINE_OK)
        return 0;
    const char *path = input_file(data + 1, size - 1);
    if (data[0] & 0x80)
        vine_bench_read_mtx(&m, path, 8, err, sizeof err);
    else
        vine_bench_read_csv(&m, path, err, sizeof err);
    vine_bench_matrix_free(&m);
    return 0;
}

static int graph(const uint8_t *data, size_t size)
{
    char err[256];
    if (size < 1)
        return 0;
    char spec[256];
    if (data[0] & 1) {
        snprintf(spec, sizeof spec, "edges:%s", input_file(data + 1, size - 1));
    } else {
        if (size > 64)
            return 0;
        char *s = input_string(data + 1, size - 1);
        snprintf(spec, sizeof spec, "%s", s);
        free(s);
    }
    vine_graph g;
    if (vine__graph_parse(spec, &g, err, sizeof err) == VINE_OK)
        vine__graph_free(&g);
    return 0;
}

static int place(const uint8_t *data, size_t size)
{
    static vine_topo t;
    static int made;
    char err[256];
    if (!made) {
        if (vine__topo_parse("fattree:down=8/8,up=2", &t, err, sizeof err) != VINE_OK)
            abort();
        made = 1;
    }
    if (size < 2 || size > 4096)
        return 0;
    int nranks = 1 + data[0] % 128, rank_host[128];
    char spec[256];
    if (data[1] & 1) { /* hosts:FILE[,ppn=K] with the rest as the file */
        snprintf(spec, sizeof spec, "hosts:%s%s", input_file(data + 2, size - 2),
                 data[1] & 2 ? ",ppn=2" : "");
    } else {
        if (size > 66)
            return 0;
        char *s = input_string(data + 2, size - 2);
        snprintf(spec, sizeof spec, "%s", s);
        free(s);
    }
    vine__place(&t, spec, nranks, rank_host, err, sizeof err);
    return 0;
}

static int hostlist(const uint8_t *data, size_t size)
{
    char err[256];
    if (size > 256)
        return 0;
    char *s = input_string(data, size), **names = NULL;
    int n = 0;
    if (vine__hostlist_expand(s, &names, &n, err, sizeof err) == VINE_OK)
        vine__hostlist_free(names, n);
    free(s);
    return 0;
}

static const struct {
    const char *name;
    vine_fuzz_fn *fn;
} harness[] = {{"topo_spec", topo_spec},   {"topo_edges", topo_edges},
               {"topo_slurm", topo_slurm}, {"topo_ibnet", topo_ibnet},
               {"topo_sg", topo_sg},       {"hostgroups", hostgroups},
               {"levels", levels},         {"cost", cost},
               {"results", results},       {"traffic", traffic},
               {"graph", graph},           {"place", place},
               {"hostlist", hostlist},     {"sched", vine_fuzz_sched},
               {"tuning", tuning}};

vine_fuzz_fn *vine_fuzz_find(const char *name)
{
    for (size_t i = 0; i < sizeof harness / sizeof harness[0]; i++)
        if (strcmp(harness[i].name, name) == 0)
            return harness[i].fn;
    return NULL;
}

#ifdef FUZZ_NAME
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static vine_fuzz_fn *fn;
    if (!fn && !(fn = vine_fuzz_find(FUZZ_NAME)))
        abort(); /* run.sh names only harnesses of the table */
    return fn(data, size);
}
#endif
