/*
 * vine-tune's internal interface (tools/vine_tune.c, tune_run.c, tune_out.c,
 * tune_model.c): the options, the plan of cases, one case's measurement, and
 * what rank 0 keeps of it for the tuning file, the summary and the model fit.
 * docs/vine-tune.md describes the tool.
 */
#ifndef VINE_TOOLS_TUNE_H
#define VINE_TOOLS_TUNE_H

#include "select/cost.h"
#include "select/tuning.h"
#include <vine.h>

#include <stddef.h>

#define TUNE_MAX_COMMS 32
/* Candidates of one case: mpi, every algorithm, and the segmented variants. */
#define TUNE_MAX_CANDS 48
/* Fewer samples per candidate than this and a case is not judged. */
#define TUNE_MIN_SAMPLES 5

/* The command line. */
typedef struct tune_opts {
    const char *out;
    double budget; /* seconds */
    size_t min_size, max_size, max_mem;
    int colls[VINE_COLL_COUNT];
    int ncolls;
    int ranks[TUNE_MAX_COMMS]; /* --ranks; nranks 0: the default list */
    int nranks;
    double alpha;      /* significance level of the U test */
    double mpi_margin; /* mpi serves when at most this much slower than the choice */
    int max_iters;
    int progress;
} tune_opts;

/* A communicator size of the plan: the first q ranks, or (spread) k ranks of every node. */
typedef struct tune_comm {
    int q;
    int per_node; /* 0: the first q ranks; k > 0: the first k ranks of every node */
} tune_comm;

/* One candidate of a case. */
typedef struct tune_cand {
    const vine_algo *algo; /* a registry entry; the "mpi" entry stands for the direct call */
    int mpi;               /* 1: the MPI library's collective, called directly */
    size_t segment;        /* bytes; 0: none */
    double median_us;      /* rank 0, after the case */
} tune_cand;

/* What rank 0 keeps of one measured case. */
typedef struct tune_result {
    long key; /* the order of the file and the summary: communicator, collective, size */
    vine_coll coll;
    int q;
    size_t bytes;
    int ncand;
    tune_cand cand[TUNE_MAX_CANDS];
    int samples;    /* per candidate */
    int def;        /* auto's choice without a tuning file; -1 when not among the candidates */
    int winner;     /* the lowest median */
    int chosen;     /* what the file says: the winner when significantly faster, else def */
    int runner_up;  /* the best other than chosen; -1 when alone */
    double p_value; /* of the winner against the default; NAN when they are the same */
} tune_result;

/* A case not measured, and why (rank 0). */
typedef struct tune_skip {
    long key; /* as tune_result's */
    vine_coll coll;
    int q;
    size_t bytes;
    int why; /* enum tune_skip_why */
} tune_skip;

enum tune_skip_why {
    TUNE_SKIP_MEM,
    TUNE_SKIP_BUDGET,
    TUNE_SKIP_NOMEM,
    TUNE_SKIP_NOCAND,
    TUNE_SKIP_INTS /* the tables exceed the MPI library's int counts and displacements */
};

/* The state of the run that every part reads (rank 0 fills the lists). */
typedef struct tune_run {
    const tune_opts *o;
    int p, rank;
    double start, deadline; /* MPI_Wtime */
    long cases_total, cases_done;
    int tty;
    tune_result *res;
    int nres, capres;
    tune_skip *skip;
    int nskip, capskip;
    int nomem; /* rank 0 ran out of memory for the lists */
} tune_run;

/* ---- tune_run.c: one case -------------------------------------------------- */

/* The element type and size of coll's buffers: MPI_INT for reductions and scans, else MPI_BYTE. */
MPI_Datatype tune_type(vine_coll coll, size_t *tsize);
/* Is coll a reduction or a scan (its rules serve commutative ops)? */
int tune_is_reduction(vine_coll coll);
/* The bytes of send and receive buffers the busiest rank of q needs for coll at bytes. */
double tune_case_mem(vine_coll coll, int q, size_t bytes);
/* Do the MPI library's int counts and displacements hold coll's tables on q ranks at bytes? */
int tune_case_ints(vine_coll coll, int q, size_t bytes);

/*
 * Collective over comm (q ranks): measures coll at bytes, every candidate
 * interleaved, within share seconds and before the run's deadline.  Returns
 * 0 with *r filled on rank 0, or a tune_skip_why when the case was given up
 * (every rank returns the same).  *est_iter (rank 0) is the sum over the
 * candidates of one call's time in seconds, for the budget of the next size.
 */
int tune_measure(tune_run *t, MPI_Comm comm, vine_coll coll, size_t bytes, double share,
                 tune_result *r, double *est_iter);

/* ---- tune_out.c: the file and the summary ----------------------------------- */

/*
 * Collective over MPI_COMM_WORLD: the header of the tuning file on rank 0,
 * rpn being rank 0's ranks per node; -1 on rank 0 when memory ran out.
 */
int tune_describe(vine_tuning *tab, int p, int rpn);
/* Rank 0: one rule per (collective, size) measured; 0, or 1 after a message. */
int tune_rules(const tune_run *t, vine_tuning *tab);
/* Rank 0: the summary table, the skipped cases and the totals on stdout / stderr. */
void tune_summary(const tune_run *t, const vine_tuning *tab);
/* Rank 0: the list of skipped cases on stderr, runs of sizes joined. */
void tune_print_skipped(const tune_run *t);
/* A size label (8B, 64KiB) into buf. */
void tune_size_label(char *buf, size_t cap, size_t bytes);

/* ---- tune_model.c: the cost model fitted to the measurements -------------- */

/* Rank 0: fits the model to the results into m and prints what it found. */
void tune_fit_model(const tune_run *t, vine_tune_model *m);

#endif
