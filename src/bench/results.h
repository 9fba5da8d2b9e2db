/*
 * vine-bench's result files (MPI-free): the rows of a `vine-bench coll` run
 * with what is needed to reproduce and place them (the command line, the
 * MPI library, the date, the run's options, and the host of every rank),
 * written as JSON (with jansson) or CSV, and read back by `vine plot`.
 * docs/bench.md describes both formats.
 *
 * Numbers are kept to 15 significant digits: vine__bench_results_add rounds
 * every number of a row to that, and the writers print 15 digits, so that a
 * file read back gives the rows that were added, bit for bit.  A missing
 * number (an n/a row's times, a barrier's bandwidth, a ratio without an mpi
 * row) is NAN in memory, null in JSON and an empty field in CSV.
 *
 * The copy bandwidth of --copy-bw (copy_bytes > 0) is optional: without it
 * the files hold none of its fields (the description's copy_* keys, the
 * rows' copy_fraction), as they did before the option existed, and a file
 * without them reads as a run that did not measure it.
 *
 * So is the call form of `vine-bench coll --nonblocking` and `--persistent`
 * (mode not VINE_BENCH_MODE_BLOCKING): a run in one of them adds the mode
 * to the description and the mode's fields to every row (comp_us ...
 * overlap_noprog, or blocking_us and persistent_ratio); a blocking run's
 * files hold none of them, as before the options existed.
 */
#ifndef VINE_BENCH_RESULTS_H
#define VINE_BENCH_RESULTS_H

#include <stddef.h>
#include <stdio.h>

/* The format's name and version, written in both formats. */
#define VINE_BENCH_FORMAT "vine-bench-results"
#define VINE_BENCH_FORMAT_VERSION 1

/* What became of a row. */
enum vine_bench_row_status {
    VINE_BENCH_ROW_OK = 0,    /* measured */
    VINE_BENCH_ROW_NA = 1,    /* the forced algorithm does not serve the case: not measured */
    VINE_BENCH_ROW_ERROR = 2, /* the call returned an error (message in error) */
};

/* The form of the calls a run timed: vine-bench coll, --nonblocking, --persistent. */
enum vine_bench_mode {
    VINE_BENCH_MODE_BLOCKING = 0,    /* the blocking collective (no mode fields in the files) */
    VINE_BENCH_MODE_NONBLOCKING = 1, /* start + wait of the nonblocking one, and the overlap */
    VINE_BENCH_MODE_PERSISTENT = 2,  /* start + wait of the persistent one, and the blocking */
};

/* One measured (or skipped) row: a collective, a size and an algorithm. */
typedef struct vine_bench_row {
    char coll[32];                      /* the collective's name, vine_coll_name() */
    char algo[64];                      /* the algorithm: a registry name, "auto" or "mpi" */
    char label[32];                     /* the size as written ("1KiB"); "-" for barrier */
    long long size;                     /* the size in bytes (count argument times element size) */
    long long count;                    /* the collective's count argument; -1 for barrier */
    int status;                         /* enum vine_bench_row_status */
    char error[128];                    /* the error message of an error row, else "" */
    int check;                          /* -1 not checked, 0 failed, 1 passed */
    int kept, dropped;                  /* the samples summarised and those dropped as warm-up */
    double min, median, mean, p99, max; /* microseconds, per iteration the slowest rank */
    double ratio;         /* median / median of the mpi row of the same collective and size */
    double algbw, busbw;  /* GB/s, nccl-tests' definitions (src/bench/stats.h) */
    double copy_fraction; /* busbw / the run's copy_all (--copy-bw); NAN when either is missing */
    /* Mode NONBLOCKING (min ... max are then those of start + wait alone): the medians in
     * microseconds of the compute loop alone, of start + compute with progress calls + wait,
     * and of the same without progress calls, and the fractions of the communication hidden
     * by each, in [0, 1] (docs/bench.md), and of the run without progress calls the medians
     * of its start alone and of its wait alone.  NAN in other modes and where not measured
     * (files written before the last two existed lack them). */
    double comp, overlap_time, overlap, overlap_np_time, overlap_np, np_start, np_wait;
    /* Mode PERSISTENT (min ... max are then those of start + wait of the persistent
     * collective): the median of the blocking call in microseconds, and median / it. */
    double blocking, persistent_ratio;
} vine_bench_row;

/* A run: its description and its rows. */
typedef struct vine_bench_results {
    char *command;     /* the command line, arguments separated by spaces */
    char *date;        /* when the run started, ISO 8601 UTC */
    char *mpi_library; /* the first line of MPI_Get_library_version() */
    char dtype[16], op[16];
    int ranks; /* the communicator size */
    int root, inplace, check;
    int iters;    /* --iters */
    int warmup;   /* --warmup, or -1: the first 20% of iters are dropped */
    char **hosts; /* ranks entries: hosts[r] is rank r's MPI_Get_processor_name() */
    /* --copy-bw (src/bench/copybw.h): the bytes each rank copied, 0 when not measured (the
     * files then hold no copy fields); the repetitions; the best bandwidths in GB/s of all
     * ranks copying at once and of rank 0 alone (NAN when not measured). */
    long long copy_bytes;
    int copy_reps;
    double copy_all, copy_one;
    int mode;                 /* enum vine_bench_mode */
    double progress_interval; /* mode NONBLOCKING: microseconds of compute between progress
                                 calls; NAN otherwise */
    vine_bench_row *rows;
    size_t nrows, cap;
} vine_bench_results;

/* An empty description (strings NULL, ranks 0, no copy bandwidth, blocking) and no rows. */
void vine__bench_results_init(vine_bench_results *r);
void vine__bench_results_free(vine_bench_results *r);

/* Sets one of the string fields (command, date, mpi_library) to a copy of s. */
int vine__bench_results_set(char **field, const char *s);

/* Sets ranks to p and allocates p empty host names; then set_host fills them. */
int vine__bench_results_set_ranks(vine_bench_results *r, int p);
int vine__bench_results_set_host(vine_bench_results *r, int rank, const char *host);

/* A row with no numbers (all NAN), check -1, status OK and the given names. */
void vine__bench_row_init(vine_bench_row *row, const char *coll, const char *algo,
                          const char *label);

/* Appends a copy of row, its numbers rounded to 15 significant digits. */
int vine__bench_results_add(vine_bench_results *r, const vine_bench_row *row);

/*
 * Writers and readers.  Each returns VINE_OK, VINE_ERR_UNSUPPORTED with
 * "FILE[:LINE]: problem" in err (unwritable file, malformed or incomplete
 * input), or VINE_ERR_NO_MEM.  A reader initialises *r itself and leaves it
 * empty (freed) on failure.  vine__bench_read takes either format: a file
 * whose first non-blank character is '{' is JSON, any other CSV.
 */
/* Writes s as one CSV field (RFC 4180), quoted when it holds a comma, a quote, a
 * line break or a leading or trailing space. */
void vine__bench_csv_field(FILE *f, const char *s);
int vine__bench_write_json(const vine_bench_results *r, const char *path, char *err, size_t errlen);
int vine__bench_write_csv(const vine_bench_results *r, const char *path, char *err, size_t errlen);
int vine__bench_read_json(vine_bench_results *r, const char *path, char *err, size_t errlen);
int vine__bench_read_csv(vine_bench_results *r, const char *path, char *err, size_t errlen);
int vine__bench_read(vine_bench_results *r, const char *path, char *err, size_t errlen);

/* "ok", "n/a", "error" and back (-1 for another word). */
const char *vine__bench_status_name(int status);
int vine__bench_status_from_name(const char *name);

/* "blocking", "nonblocking", "persistent" and back (-1 for another word). */
const char *vine__bench_mode_name(int mode);
int vine__bench_mode_from_name(const char *name);

#endif
