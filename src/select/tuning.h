/*
 * Tuning files (MPI-free): the rules that `vine-tune` measures on a machine
 * and auto follows (VINE_TUNING_FILE), docs/tuning.md gives the schema.
 *
 * A rule holds, for one collective, one communicator size and one class of
 * call (commutative or not, in place or not), size ranges of the call's size
 * in bytes as vine-bench counts it (vine__tuning_bytes), each with the
 * algorithm that won there, its segment size, and the measured medians of
 * the winner and of the runner-up.  The lookup is a pure function of the
 * table and the call, so every rank that reads the same file chooses alike.
 */
#ifndef VINE_SELECT_TUNING_H
#define VINE_SELECT_TUNING_H

#include "../coll/coll.h"
#include "cost.h"

#include <stddef.h>

/* The schema version this vine writes and reads. */
#define VINE_TUNING_VERSION 1
/* Text fields of the file's header (longer values are refused). */
#define VINE_TUNING_TEXT_MAX 256
/* Limits of the schema (docs/tuning.md): larger files are refused. */
#define VINE_TUNING_RULES_MAX 4096      /* rules in a table */
#define VINE_TUNING_RANGES_MAX 4096     /* ranges in a rule */
#define VINE_TUNING_HOSTS_MAX (1 << 20) /* machine.hosts entries */
#define VINE_TUNING_RANKS_MAX (1 << 24) /* a rule's ranks and the machine's counts */

/* Which calls a rule serves: the op's commutativity (reductions only). */
enum vine_tune_ops {
    VINE_TUNE_OPS_ANY = 0,       /* "any": every op (and the collectives without one) */
    VINE_TUNE_OPS_COMMUTATIVE,   /* "commutative" */
    VINE_TUNE_OPS_NONCOMMUTATIVE /* "noncommutative" */
};

/* Which calls a rule serves: MPI_IN_PLACE or not. */
enum vine_tune_inplace {
    VINE_TUNE_INPLACE_ANY = 0, /* "any" */
    VINE_TUNE_INPLACE_NO,      /* "no" */
    VINE_TUNE_INPLACE_YES      /* "yes" */
};

/* One size range: calls of min..max bytes (vine__tuning_bytes, inclusive) run algo. */
typedef struct vine_tune_range {
    size_t min, max;
    const vine_algo *algo;      /* a registry entry of the rule's collective ("mpi" included) */
    size_t segment;             /* segment size in bytes; 0: none */
    double median_us;           /* the winner's measured median; NAN when not given */
    const vine_algo *runner_up; /* NULL when not given */
    double runner_up_us;        /* NAN when not given */
    int line;                   /* where the range starts in its file (0: not from a file) */
} vine_tune_range;

typedef struct vine_tune_rule {
    vine_coll coll;
    int p;       /* communicator size, >= 1 */
    int ops;     /* enum vine_tune_ops */
    int inplace; /* enum vine_tune_inplace */
    int nranges; /* >= 1, sorted by min, not overlapping */
    vine_tune_range *ranges;
    int line;
    int next; /* 1 + the index of the table's next rule of coll; 0: none (set by the table) */
} vine_tune_rule;

/* The cost model fitted to the same measurements ("model" in the file). */
typedef struct vine_tune_model {
    int present;
    vine_cost cost;
    int cases;           /* (collective, p, size) cases compared */
    double agreement;    /* share of cases where the model's choice was the measured winner */
    double median_error; /* median of |model - measured| / measured over the winners */
} vine_tune_model;

typedef struct vine_tuning {
    int version;
    /* Where the file was measured ("" when not given). */
    char mpi_library[VINE_TUNING_TEXT_MAX]; /* first line of MPI_Get_library_version */
    char date[VINE_TUNING_TEXT_MAX];        /* ISO 8601 */
    char vine_version[VINE_TUNING_TEXT_MAX];
    int ranks;          /* ranks of the tuning run; 0 when not given */
    int ranks_per_node; /* 0 when not given */
    int cores;          /* cores per node; 0 when not given */
    int nhosts;
    char **hosts; /* distinct host names */
    vine_tune_model model;
    int nrules;
    vine_tune_rule *rules;
    /* 1 + the index of the first and last rule of each collective; 0: none. */
    int first[VINE_COLL_COUNT], last[VINE_COLL_COUNT];
} vine_tuning;

/* An empty table (no rules, version VINE_TUNING_VERSION). */
void vine__tuning_init(vine_tuning *t);
void vine__tuning_free(vine_tuning *t);

/*
 * Reads a tuning file into *t (freed and re-initialised first).  VINE_OK, or
 * VINE_ERR_UNSUPPORTED with "FILE:LINE: problem" in err (see docs/tuning.md
 * for every message), or VINE_ERR_NO_MEM.  *t is empty after a failure.
 */
int vine__tuning_load(vine_tuning *t, const char *path, char *err, size_t errlen);
/* The same from text in memory; name stands for the file in messages. */
int vine__tuning_parse(vine_tuning *t, const char *text, size_t len, const char *name, char *err,
                       size_t errlen);
/* Writes *t as a tuning file (the schema of docs/tuning.md). */
int vine__tuning_save(const vine_tuning *t, const char *path, char *err, size_t errlen);

/*
 * Appends a rule (its ranges copied); VINE_ERR_UNSUPPORTED with a message
 * when it breaks the schema's rules (unsorted or overlapping ranges, an
 * algorithm of another collective, a rule for the same (coll, p, ops,
 * inplace) already present).
 */
int vine__tuning_add_rule(vine_tuning *t, const vine_tune_rule *r, char *err, size_t errlen);

/* One measured size: what vine__tuning_merge joins into ranges. */
typedef struct vine_tune_point {
    size_t bytes;
    const vine_algo *algo;
    size_t segment;
    double median_us;
    const vine_algo *runner_up;
    double runner_up_us;
} vine_tune_point;

/*
 * Joins points sorted by bytes into ranges: neighbours with the same
 * algorithm and segment become one range (min of the first, max of the last;
 * medians of the range's first point).  *out is malloc'ed; VINE_ERR_NO_MEM.
 */
int vine__tuning_merge(const vine_tune_point *pts, int n, vine_tune_range **out, int *nout);

/*
 * The rule for a call of coll on p ranks: among the rules of coll whose
 * class matches (an exact ops/inplace class before "any"), the one of size
 * p, else the one whose size is nearest to p on a log scale within a factor
 * of 2 (a tie goes to the smaller size); NULL when none is that near.
 */
const vine_tune_rule *vine__tuning_rule(const vine_tuning *t, vine_coll coll, int p,
                                        int commutative, int inplace);
/*
 * The range of r for a payload of bytes: the last range whose min is at most
 * bytes, or the first range when bytes is below every min.
 */
const vine_tune_range *vine__tuning_range(const vine_tune_rule *r, size_t bytes);

/*
 * A call's size as tuning files and vine-bench count it: the collective's
 * count argument times type_size, that is the whole vector for bcast,
 * reduce, allreduce, scan and exscan, one rank's block for allgather,
 * alltoall, gather, scatter and reduce_scatter_block, and the average block
 * (displs[p] / p, rounded down) for reduce_scatter; for allgatherv the mean
 * block (the sum of rcounts over p, rounded down, times type_size: bytes at
 * run time; count without rcounts), the same on every rank; 0 for barrier
 * and for alltoallv, alltoallw, gatherv and scatterv, whose ranks do not all
 * know the call's sizes.  Saturates at SIZE_MAX.
 */
size_t vine__tuning_bytes(const vine_args *a, size_t type_size);

/* Names of the classes in files and messages ("any", "commutative", ...). */
const char *vine__tuning_ops_name(int ops);
const char *vine__tuning_inplace_name(int inplace);

#endif
