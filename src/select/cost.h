/*
 * The multi-level cost model of the auto selector (MPI-free).
 *
 * After Kandalla et al. (papers/topology-aware-scatter-gather.txt, sections
 * 3-4): a message costs a start-up time and a time per byte that depend on
 * the level of the hierarchy it crosses, and traffic that crosses a level
 * of the network while other messages cross it too pays a contention
 * factor.  The classic algorithms' step structure and their alpha / beta /
 * gamma terms come from Thakur, Rabenseifner and Gropp 2005
 * (papers/mpich-collectives.txt, section 4).
 *
 * The class of a message between ranks r and s of a level map with L levels
 * is the lowest level l at which they share a group (0: the same node), or
 * L when they share none (different top groups).  Parameter entry c of a
 * vine_cost describes class c; a class beyond the entries given uses the
 * last one, so a file measured on a machine with fewer levels still prices
 * every message.
 *
 * The cost functions are analytic: they read group counts, sizes and the
 * class of a few representative pairs of ranks, O(levels + log p), and never
 * build a schedule.  docs/selection.md, "The cost model", gives the formulas.
 */
#ifndef VINE_SELECT_COST_H
#define VINE_SELECT_COST_H

#include "../coll/coll.h"

#include <stddef.h>

/* Message classes: levels 0 .. VINE_LEVELS_MAX - 1 and the one above the top. */
#define VINE_COST_CLASSES (VINE_LEVELS_MAX + 1)

typedef struct vine_cost_level {
    double alpha;      /* seconds per message */
    double beta;       /* seconds per byte */
    double contention; /* >= 1: multiplies beta when messages share a group's way out */
    /*
     * The messages that shared one group's way out when contention was
     * measured (vine-bench probe), or 0.  With it, k messages sharing a way
     * out multiply beta by max(1, k contention / contention_flows), their
     * share of the links' capacity; without it, by contention whenever k > 1.
     */
    double contention_flows;
    /*
     * The large-message protocol (rendezvous): a message of at least
     * rndv_bytes bytes costs rndv_alpha seconds more (the handshake before
     * its data moves).  rndv_alpha 0: none, the built-in case.
     */
    double rndv_bytes;
    double rndv_alpha;
} vine_cost_level;

/*
 * The shared-memory level (the shm family, docs/shm.md): what a node's
 * segment costs, priced apart from the message classes because no MPI
 * message moves.  A copy by one of k ranks that copy at once costs
 * max(beta, k beta_node) per byte: each rank gets its own copy bandwidth
 * until together they reach the node's.
 */
typedef struct vine_cost_shm {
    double alpha;     /* seconds per flag hand-off (one cache line from one core to another) */
    double beta;      /* seconds per byte one rank copies alone */
    double beta_node; /* seconds per byte of the node's copy bandwidth, all ranks at once */
    double gamma;     /* seconds per byte reduced out of shared memory */
} vine_cost_shm;

typedef struct vine_cost {
    int nclasses;                           /* entries given, 1 .. VINE_COST_CLASSES */
    vine_cost_level cls[VINE_COST_CLASSES]; /* entry c prices messages of class c */
    double gamma;                           /* seconds per byte reduced */
    vine_cost_shm shm;                      /* the shm level: built-in or given */
    int shm_given;                          /* 1: a file (or a fit) gave "shm" */
} vine_cost;

/*
 * The built-in parameters, used when no file is given (docs/selection.md):
 * class 0 (inside a node) 0.5 us and 0.05 ns/B; class 1 (between nodes of
 * one switch) 1.57 us, Table 1's intra-switch latency, and 0.08 ns/B (100
 * Gb/s); class 2 2.45 us (across one spine) and class 3 and above 2.85 us
 * (Table 1's 1.8 times the intra-switch latency), both 0.08 ns/B with a
 * contention factor of 2 (a 2:1 tapered network); gamma 0.25 ns/B.  The
 * shm level (not given: shm_given 0): alpha 0.09 us, beta 1 / 7.8 GB/s,
 * beta_node 1 / 80.5 GB/s and gamma 0.25 ns/B, from issue 18's runs on 16
 * ranks of one 16-core machine (docs/performance.md).
 */
void vine__cost_defaults(vine_cost *c);

/* The shm level's built-in parameters (part of vine__cost_defaults). */
void vine__cost_shm_defaults(vine_cost_shm *s);

/*
 * Loads parameters from a JSON file (format in docs/selection.md).  Returns
 * VINE_OK with *c filled, or VINE_ERR_UNSUPPORTED with one line in err,
 * "FILE: problem" or "FILE:LINE: problem" for a syntax error; *c then holds
 * the defaults.  Never prints.  err may be NULL.
 */
int vine__cost_load(vine_cost *c, const char *path, char *err, size_t errlen);

/*
 * Writes *c to path in the format vine__cost_load reads, with the optional
 * per-class notes (NULL, or nclasses strings, NULL entries skipped) and a
 * "source" string (may be NULL).  Returns VINE_OK, or VINE_ERR_UNSUPPORTED
 * with "FILE: problem" in err.
 */
int vine__cost_save(const vine_cost *c, const char *path, const char *source,
                    const char *const *notes, char *err, size_t errlen);

/* jansson's value type (jansson.h), kept opaque here. */
struct json_t;

/*
 * Reads the parameters of a decoded JSON object o (the file's format) into
 * *c, which holds the defaults for keys that are optional.  VINE_OK, or
 * VINE_ERR_UNSUPPORTED with "WHERE: problem" in err (vine__cost_load's
 * messages with where in place of the file name); *c may then be changed.
 */
int vine__cost_from_json(struct json_t *o, vine_cost *c, const char *where, char *err,
                         size_t errlen);

/*
 * A new JSON object with "gamma" and "levels" (the file's format, without
 * "version"), or NULL when a parameter is not finite, nclasses is out of
 * range or memory runs out.  The caller owns the reference.
 */
struct json_t *vine__cost_to_json(const vine_cost *c);

/* The parameters of message class cls (clamped to the entries given). */
const vine_cost_level *vine__cost_level(const vine_cost *c, int cls);

/* The start-up time of one message of bytes on level lv: alpha, plus rndv_alpha from rndv_bytes. */
double vine__cost_latency(const vine_cost_level *lv, double bytes);

/*
 * Fits one class's parameters to one-way ping-pong times (vine-bench probe):
 * t0 for 0 bytes, and t[i] for sizes[i] bytes, n >= 1 sizes in increasing
 * order, the last the probe's large message.  alpha = t0.  When the latency
 * left at the two largest sizes after their slope (beta) exceeds 1.5 alpha,
 * the excess is rndv_alpha and rndv_bytes the smallest size whose latency
 * is at least halfway there; otherwise beta = (t[n-1] - t0) / sizes[n-1]
 * and no rndv term.  Sets alpha, beta, rndv_bytes and rndv_alpha of *lv.
 */
void vine__cost_fit_pair(vine_cost_level *lv, double t0, const double *sizes, const double *t,
                         int n);

/*
 * The class of a message between ranks r and s: the lowest level at which
 * they share a group, nlevels when none.  Without a map (NULL) every
 * message between two ranks is class 1, one process per node as in the
 * classic model; r == s is class 0.
 */
int vine__cost_class(const vine_levels *m, int r, int s);

/*
 * The model's time in seconds for algo serving a (a->levels ready or NULL;
 * a->rank is ignored, so every rank computes the same), with element size
 * type_size.  Returns VINE_OK, or VINE_ERR_UNSUPPORTED when the model has no
 * formula for algo (or its level restrictions fail, or a v collective's
 * table is missing); *t is then unchanged.  The v collectives are priced
 * from the tables a holds: allgatherv's rcounts are the same on every
 * rank, but gatherv's and scatterv's are complete at the root only, and
 * alltoallv and alltoallw read row a->rank alone when vstride is 0 (every
 * row when it is p), so their prices may differ between ranks at run time
 * and auto does not choose by them (docs/selection.md).
 */
int vine__cost_algo(const vine_cost *c, const vine_algo *algo, const vine_args *a, size_t type_size,
                    double *t);

/*
 * As vine__cost_algo, but every message between two ranks is of class 0:
 * the p ranks share one node (a communicator with a node segment and no
 * level map), where the classic model's one rank per node would price
 * them as class 1.
 */
int vine__cost_algo_node(const vine_cost *c, const vine_algo *algo, const vine_args *a,
                         size_t type_size, double *t);

/* 1 when the model has a formula for (coll, name). */
int vine__cost_known(vine_coll coll, const char *name);

/*
 * One call of the shm family on one node, as its formulas read it
 * (cost_shm.c; docs/shm.md, "What the cost model charges").
 */
typedef struct vine_cost_shm_call {
    vine_coll coll;
    int p;         /* ranks of the node that take part */
    double n;      /* bytes: the vector (bcast, reduce, allreduce), else one block */
    double total;  /* reduce_scatter(_block): bytes of the whole vector */
    double most;   /* reduce_scatter(_block): bytes of the largest block */
    double elem;   /* bytes of one element (the reductions' chunks count elements) */
    double region; /* bytes of one rank's region; 0: the default, 1 MiB */
    int inplace;   /* the root's (all ranks' for allgather) MPI_IN_PLACE */
    int single;    /* single copy allowed (scatter's large blocks) */
    double par;    /* bytes of a parity slot (vine_args.shm_par_count); 0: no par schedules */
} vine_cost_shm_call;

/* Seconds for the shm algorithm of c->coll on one node, or -1 for a collective without one. */
double vine__cost_shm(const vine_cost_shm *s, const vine_cost_shm_call *c);

/* Seconds per byte of a copy while k ranks of a node copy at once: max(beta, k beta_node). */
double vine__cost_shm_copy(const vine_cost_shm *s, double k);

#endif
