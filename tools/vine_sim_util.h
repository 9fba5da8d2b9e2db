/*
 * Helpers shared by the `vine sim` subcommands (tools/vine_sim*.c): option
 * parsing, sizes and lists, number formatting, loading a topology, and one
 * simulated case of a collective at a size in bytes.
 */
#ifndef VINE_TOOLS_SIM_UTIL_H
#define VINE_TOOLS_SIM_UTIL_H

#include "coll/vdist.h"
#include "sim/sim.h"
#include "topo/topo.h"

#include <stddef.h>
#include <stdio.h>

/* Bytes per element of the reductions (a 4-byte type such as MPI_INT or MPI_FLOAT). */
#define VS_REDUCE_ELEM 4

/* Parses "512", "32B", "1KiB", "64MiB", "2GiB", "1TiB" (also K, M, G, T) into bytes. */
int vs_parse_size(const char *s, size_t *out);

/*
 * Parses a list of sizes: items separated by commas, each a size or a
 * doubling range "32B..512MiB" (32, 64, ... up to 512 MiB).  *out is malloc'd.
 */
int vs_parse_sizes(const char *s, size_t **out, size_t *n);

/*
 * Parses a list of positive integers within [1, max]: items separated by
 * commas, each a number, a range "a-b" (every integer) or a doubling range
 * "a..b" (a, 2a, 4a, ... up to b).  Sorted, duplicates removed; *out malloc'd.
 */
int vs_parse_ints(const char *s, long max, long **out, size_t *n);

/* Parses one non-negative integer up to max. */
int vs_parse_long(const char *s, long max, long *out);

/* "512B", "1KiB", "1.5MiB", "12.3GiB": bytes with three significant digits. */
void vs_fmt_bytes(double b, char *buf, size_t len);
/* An exact size: "32B", "1KiB", "512MiB", "1000B". */
void vs_fmt_size(size_t b, char *buf, size_t len);
/* Seconds with three significant digits: "850ns", "12.3us", "4.56ms", "1.20s". */
void vs_fmt_time(double s, char *buf, size_t len);

/* Writes s as a JSON string (quotes and escapes included). */
void vs_json_str(FILE *f, const char *s);
/* Writes a number for JSON: null when it is not finite. */
void vs_json_num(FILE *f, double x);
/* Writes s as a CSV field (quoted when it holds a comma, quote or newline). */
void vs_csv_str(FILE *f, const char *s);

/* The subcommands (argv[0] is "traffic" or "allocations"); return the exit status. */
int vs_cmd_traffic(int argc, char **argv);
int vs_cmd_allocations(int argc, char **argv);

/* The classic algorithm a collective's Bine algorithms are compared with. */
const char *vs_default_baseline(vine_coll c);

/* A parsed topology and its router. */
typedef struct vs_net {
    vine_topo t;
    vine_router *router;
    char desc[4096];
} vs_net;

/*
 * Builds the topology of spec and its router.  Returns 0, 2 after printing a
 * message for a bad spec, or 1 for another failure (out of memory).
 */
int vs_net_open(const char *cmd, const char *spec, vs_net *net);
void vs_net_close(vs_net *net);

/* Groups spanned by a placement, and the fewest and most ranks in one of them. */
typedef struct vs_spread {
    int hosts, groups, min_per_group, max_per_group;
} vs_spread;
void vs_placement_spread(const vine_topo *t, const int *rank_host, int p, vs_spread *s);

/*
 * Simulates collective algo->coll with algorithm algo on p ranks placed by
 * rank_host, for a call of `size` bytes (see docs/sim.md: the whole vector for
 * bcast, reduce, allreduce, scan and exscan, the per-rank block for the
 * others; reductions use VS_REDUCE_ELEM-byte elements and a commutative op).
 * The v collectives (allgatherv ... scatterv) take their blocks, in bytes,
 * from dist, or with dist NULL every block `size` (uniform:size).  seg is a
 * segment size in bytes for pipelined algorithms (0: none).  Returns as
 * vine__sim_run; VINE_ERR_UNSUPPORTED also when a reduction's size is not a
 * whole number of elements, root >= p, or dist does not fit p ranks (err
 * says why).  remap: flat bcast, reduce, allreduce and barrier algorithms run
 * on the ranks in block order of levels (coll.h).  full: the map with levels
 * inside the hosts (vine_args.levels_full), or NULL.
 */
int vs_simulate(vine_router *r, const int *rank_host, const vine_levels *levels,
                const vine_levels *full, int remap, const vine_algo *algo, int p, size_t size,
                const vine_vdist *dist, int root, size_t seg, vine_sim_result *res, char *err,
                size_t errlen);

/* vs_simulate, with the bytes through every port into port_bytes (vine__sim_run_ports). */
int vs_simulate_ports(vine_router *r, const int *rank_host, const vine_levels *levels,
                      const vine_levels *full, int remap, const vine_algo *algo, int p, size_t size,
                      const vine_vdist *dist, int root, size_t seg, vine_sim_result *res,
                      double *port_bytes, char *err, size_t errlen);

/*
 * The mean block of v collective c on p ranks with distribution d, rounded
 * down: its blocks' sum over p, or p * p for alltoallv and alltoallw.
 * VINE_OK, or an error with one line in err (vine__vdist_check's, or out of
 * memory).
 */
int vs_vdist_mean(const vine_vdist *d, vine_coll c, int p, size_t *mean, char *err, size_t errlen);

/* The kind of a level inside the hosts made by --numa (beside enum vine_sim_lkind). */
#define VS_KIND_NUMA (-2)

/*
 * The level maps the hierarchical algorithms see for p ranks placed by
 * rank_host: spec NULL or "topo" derives them from the topology
 * (vine__sim_levels), any other spec is a synthetic map of levels.h
 * ("flat", "block:4,2", "block:2/node=block:4" ...).  *m gets the map from
 * the node up, *full the whole map when there are levels inside the node
 * (a spec's node= mark, or numa > 1 domains per host with the topology's
 * levels, vine__sim_levels_numa), else it stays empty.  kind gets the
 * grouping of each level of the map shown (full when set, else m): a
 * vine_sim_lkind, VS_KIND_NUMA, or -1 for a synthetic level or a flat map
 * (VINE_LEVELS_MAX entries).  Returns as vine__sim_levels, with one line in
 * err.
 */
int vs_make_levels(const vine_topo *t, const int *rank_host, int p, const char *spec, int numa,
                   vine_levels *m, vine_levels *full, int *kind, char *err, size_t errlen);

/* The name of a level's kind: vine__sim_level_name, or "numa" for VS_KIND_NUMA. */
const char *vs_level_name(int kind);

/*
 * "switch (253 groups), group (24 groups)", or "none (flat)": a map in
 * words (m the map shown, kind its kinds; a synthetic map's node level,
 * when m->node > 0, says "node").
 */
void vs_levels_text(const vine_levels *m, const int *kind, char *buf, size_t len);

/*
 * 100 (1 - algo / base): the percentage of cross-group bytes saved; 0 when
 * both are 0 (nothing crosses groups either way), NAN when only base is 0.
 */
double vs_reduction(double algo_bytes, double base_bytes);

#endif
