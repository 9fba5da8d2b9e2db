/*
 * Unit test of vine-bench's result files (src/bench/results.h, no MPI):
 * results with every kind of row (measured, n/a, error, barrier, failed
 * check; awkward text with commas, quotes and spaces) are written as JSON
 * and as CSV, read back (JSON through jansson), and compared field by field
 * with what was written; malformed files must be refused with the file and
 * line in the message.  The writer's CSV text is also checked line by line
 * against lines written here from docs/bench.md, and valid CSV and JSON files
 * written here by hand are read and checked against the values written into
 * them, so that the round trip does not only compare the code with itself.
 * argv[1] is a directory for the files.
 *
 * With "--run JSON CSV P" it checks instead the two files of one real
 * `vine-bench coll --json JSON --csv CSV` run on P ranks (tests/mpi/
 * bench.cmake): both read back, describe the same run and rows field by
 * field, and every row is consistent (statistics in order, the warm-up drop,
 * the mpi row's ratio of 1, the checks passed), and, when the run measured
 * the copy bandwidth (--copy-bw), that both bandwidths are positive and each
 * row's copy_fraction is its busbw over the all-rank one.
 * The copy bandwidth's fields are optional: a run with them round-trips in
 * both formats, and files without them (all the others here) read as a run
 * that did not measure it.
 * Prints "results: N checks, M failed".
 */
#include "bench/results.h"
#include "check.h"
#include "sched/sched.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *dir = ".";

static void path_of(char *buf, size_t cap, const char *name)
{
    snprintf(buf, cap, "%s/%s", dir, name);
}

static void make_results(vine_bench_results *r)
{
    vine__bench_results_init(r);
    vine__bench_results_set(&r->command, "vine-bench coll --coll allreduce --size '8B,1KiB'");
    vine__bench_results_set(&r->date, "2025-01-02T03:04:05Z");
    vine__bench_results_set(&r->mpi_library, "Open MPI v4.1.4, package: Debian OpenMPI, \"x\"");
    snprintf(r->dtype, sizeof r->dtype, "int");
    snprintf(r->op, sizeof r->op, "sum");
    r->root = 1;
    r->inplace = 1;
    r->check = 1;
    r->iters = 50;
    r->warmup = -1;
    vine__bench_results_set_ranks(r, 3);
    vine__bench_results_set_host(r, 0, "node-a");
    vine__bench_results_set_host(r, 1, "node-a");
    vine__bench_results_set_host(r, 2, "node b,2"); /* a comma: harmless in either format */

    vine_bench_row x;
    vine__bench_row_init(&x, "allreduce", "mpi", "8B");
    x.size = 8;
    x.count = 2;
    x.kept = 40;
    x.dropped = 10;
    x.min = 1.25;
    x.median = 1.5;
    x.mean = 1.0 / 3; /* rounded to 15 digits when added */
    x.p99 = 2.75;
    x.max = 3;
    x.ratio = 1;
    x.algbw = 0.00533333333333333;
    x.busbw = 0.00711111111111111;
    vine__bench_results_add(r, &x);

    x.check = 1;
    snprintf(x.algo, sizeof x.algo, "recursive_doubling");
    x.median = 1.875;
    x.ratio = 1.25;
    vine__bench_results_add(r, &x);

    x.check = 0; /* a failed check */
    snprintf(x.algo, sizeof x.algo, "ring");
    x.median = 123456.789;
    x.ratio = 82304.526;
    x.algbw = 6.48e-8; /* an exponent in the output */
    vine__bench_results_add(r, &x);

    vine__bench_row_init(&x, "allreduce", "bine_large", "1KiB");
    x.size = 1024;
    x.count = 256;
    x.status = VINE_BENCH_ROW_NA;
    vine__bench_results_add(r, &x);

    vine__bench_row_init(&x, "allreduce", "swing", "1KiB");
    x.size = 1024;
    x.count = 256;
    x.status = VINE_BENCH_ROW_ERROR;
    snprintf(x.error, sizeof x.error, "MPI_ERR_OTHER: \"known\", error, class ");
    vine__bench_results_add(r, &x);

    vine__bench_row_init(&x, "barrier", "dissemination", "-");
    x.size = 0;
    x.count = -1;
    x.check = -1;
    x.kept = 8;
    x.dropped = 2;
    x.min = x.median = x.mean = x.p99 = x.max = 10;
    x.ratio = 0.5;
    vine__bench_results_add(r, &x);
}

/* Does the file at path hold the whole line `want` (without its newline)? */
static int has_line(const char *path, const char *want)
{
    FILE *f = fopen(path, "r");
    char line[1024];
    int found = 0;
    if (!f)
        return 0;
    while (!found && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        found = strcmp(line, want) == 0;
    }
    fclose(f);
    return found;
}

/* Writes text to dir/name; returns 0 when it cannot. */
static int write_text(const char *name, const char *text, char *path, size_t cap)
{
    snprintf(path, cap, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        return 0;
    fputs(text, f);
    fclose(f);
    return 1;
}

/* Equal numbers, NAN equal to NAN. */
static int same(double a, double b)
{
    return (isnan(a) && isnan(b)) || a == b;
}

static int same_str(const char *a, const char *b)
{
    return a && b && strcmp(a, b) == 0;
}

static void compare(const vine_bench_results *a, const vine_bench_results *b, const char *fmt)
{
    CHECK(same_str(a->command, b->command), "%s: command '%s'", fmt, b->command);
    CHECK(same_str(a->date, b->date), "%s: date '%s'", fmt, b->date);
    CHECK(same_str(a->mpi_library, b->mpi_library), "%s: mpi_library '%s'", fmt, b->mpi_library);
    CHECK(same_str(a->dtype, b->dtype) && same_str(a->op, b->op), "%s: dtype/op", fmt);
    CHECK(a->copy_bytes == b->copy_bytes && a->copy_reps == b->copy_reps &&
              same(a->copy_all, b->copy_all) && same(a->copy_one, b->copy_one),
          "%s: copy_bytes %lld copy_reps %d copy_all %g copy_one %g", fmt, b->copy_bytes,
          b->copy_reps, b->copy_all, b->copy_one);
    CHECK(a->ranks == b->ranks && a->root == b->root && a->inplace == b->inplace &&
              a->check == b->check && a->iters == b->iters && a->warmup == b->warmup,
          "%s: ranks %d root %d in_place %d check %d iters %d warmup %d", fmt, b->ranks, b->root,
          b->inplace, b->check, b->iters, b->warmup);
    for (int i = 0; i < a->ranks && i < b->ranks; i++)
        CHECK(same_str(a->hosts[i], b->hosts[i]), "%s: host %d '%s'", fmt, i, b->hosts[i]);
    CHECK(a->nrows == b->nrows, "%s: %zu rows, want %zu", fmt, b->nrows, a->nrows);
    for (size_t i = 0; i < a->nrows && i < b->nrows; i++) {
        const vine_bench_row *x = &a->rows[i], *y = &b->rows[i];
        CHECK(same_str(x->coll, y->coll) && same_str(x->algo, y->algo) &&
                  same_str(x->label, y->label),
              "%s: row %zu names '%s' '%s' '%s'", fmt, i, y->coll, y->algo, y->label);
        CHECK(x->size == y->size && x->count == y->count, "%s: row %zu size %lld count %lld", fmt,
              i, y->size, y->count);
        CHECK(x->status == y->status && same_str(x->error, y->error) && x->check == y->check,
              "%s: row %zu status %d error '%s' check %d", fmt, i, y->status, y->error, y->check);
        CHECK(x->kept == y->kept && x->dropped == y->dropped, "%s: row %zu kept/dropped", fmt, i);
        const double xs[] = {x->min,   x->median, x->mean,  x->p99,          x->max,
                             x->ratio, x->algbw,  x->busbw, x->copy_fraction};
        const double ys[] = {y->min,   y->median, y->mean,  y->p99,          y->max,
                             y->ratio, y->algbw,  y->busbw, y->copy_fraction};
        for (int k = 0; k < 9; k++)
            CHECK(same(xs[k], ys[k]), "%s: row %zu number %d: %.17g, want %.17g", fmt, i, k, ys[k],
                  xs[k]);
    }
}

static void test_round_trip(void)
{
    vine_bench_results r, back;
    char json[512], csv[512], err[512];
    make_results(&r);
    CHECK(r.nrows == 6, "built %zu rows", r.nrows);
    CHECK(r.rows[0].mean == strtod("0.333333333333333", NULL), "mean rounded to 15 digits: %.17g",
          r.rows[0].mean);
    path_of(json, sizeof json, "results.json");
    path_of(csv, sizeof csv, "results.csv");

    int rc = vine__bench_write_json(&r, json, err, sizeof err);
    CHECK(rc == VINE_OK, "write json: %s", err);
    rc = vine__bench_read_json(&back, json, err, sizeof err);
    CHECK(rc == VINE_OK, "read json: %s", err);
    if (rc == VINE_OK)
        compare(&r, &back, "json");
    vine__bench_results_free(&back);
    rc = vine__bench_read(&back, json, err, sizeof err); /* the format found by content */
    CHECK(rc == VINE_OK && back.nrows == r.nrows, "read (json) by content: %s", err);
    vine__bench_results_free(&back);

    rc = vine__bench_write_csv(&r, csv, err, sizeof err);
    CHECK(rc == VINE_OK, "write csv: %s", err);
    /* The written text against lines written here from docs/bench.md's
     * rules (RFC 4180 quoting, empty fields for missing numbers, `-` for the
     * default warm-up), not from the writer. */
    static const char *const want_lines[] = {
        "# format: vine-bench-results 1",
        "# warmup: -",
        "# in_place: yes",
        "# host 2: node b,2",
        "collective,algorithm,size_label,size,count,status,error,check,kept,dropped,min_us,"
        "median_us,mean_us,p99_us,max_us,ratio,algbw_GBps,busbw_GBps",
        "allreduce,mpi,8B,8,2,ok,,,40,10,1.25,1.5,0.333333333333333,2.75,3,1,0.00533333333333333,"
        "0.00711111111111111",
        "allreduce,recursive_doubling,8B,8,2,ok,,OK,40,10,1.25,1.875,0.333333333333333,2.75,3,1.25,"
        "0.00533333333333333,0.00711111111111111",
        "allreduce,bine_large,1KiB,1024,256,n/a,,,0,0,,,,,,,,",
        "allreduce,swing,1KiB,1024,256,error,\"MPI_ERR_OTHER: \"\"known\"\", error, class "
        "\",,0,0,,,,,,"
        ",,",
        "barrier,dissemination,-,0,,ok,,,8,2,10,10,10,10,10,0.5,,",
    };
    for (size_t i = 0; i < sizeof want_lines / sizeof want_lines[0]; i++)
        CHECK(has_line(csv, want_lines[i]), "csv lacks the line '%s'", want_lines[i]);
    rc = vine__bench_read_csv(&back, csv, err, sizeof err);
    CHECK(rc == VINE_OK, "read csv: %s", err);
    if (rc == VINE_OK)
        compare(&r, &back, "csv");
    vine__bench_results_free(&back);
    rc = vine__bench_read(&back, csv, err, sizeof err);
    CHECK(rc == VINE_OK && back.nrows == r.nrows, "read (csv) by content: %s", err);
    vine__bench_results_free(&back);

    /* An explicit warm-up and no rows survive as well. */
    path_of(json, sizeof json, "empty.json");
    path_of(csv, sizeof csv, "empty.csv");
    r.warmup = 7;
    r.nrows = 0;
    CHECK(vine__bench_write_csv(&r, csv, err, sizeof err) == VINE_OK, "csv no rows");
    CHECK(vine__bench_read_csv(&back, csv, err, sizeof err) == VINE_OK && back.warmup == 7 &&
              back.nrows == 0,
          "csv no rows read back: %s", err);
    vine__bench_results_free(&back);
    CHECK(vine__bench_write_json(&r, json, err, sizeof err) == VINE_OK, "json no rows");
    CHECK(vine__bench_read_json(&back, json, err, sizeof err) == VINE_OK && back.warmup == 7 &&
              back.nrows == 0,
          "json no rows read back: %s", err);
    vine__bench_results_free(&back);
    vine__bench_results_free(&r);
}

/* Does the text file at path contain want anywhere? */
static int has_text(const char *path, const char *want)
{
    FILE *f = fopen(path, "r");
    char buf[8192];
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = '\0';
    return strstr(buf, want) != NULL;
}

/* The copy bandwidth of --copy-bw: its description and the rows' fractions, in both formats. */
static void test_copy_round_trip(void)
{
    vine_bench_results r, back;
    char json[512], csv[512], err[512];
    make_results(&r);
    r.copy_bytes = 67108864;
    r.copy_reps = 5;
    r.copy_all = 41.25;
    r.copy_one = 7.75;
    /* The rows with a busbw get busbw / copy_all; the others (n/a, error, barrier) NAN. */
    for (size_t i = 0; i < r.nrows; i++)
        if (isfinite(r.rows[i].busbw))
            r.rows[i].copy_fraction = 0.000172390572390572;
    r.rows[2].copy_fraction = 1.5; /* above 1 is allowed: a comparison, not an efficiency */
    path_of(json, sizeof json, "copy.json");
    path_of(csv, sizeof csv, "copy.csv");
    int rc = vine__bench_write_json(&r, json, err, sizeof err);
    CHECK(rc == VINE_OK, "write copy json: %s", err);
    CHECK(has_text(json, "\"copy_all_GBps\": 41.25") &&
              has_text(json, "\"copy_bytes\": 67108864") &&
              has_text(json, "\"copy_fraction\": null"),
          "copy json lacks the copy fields");
    rc = vine__bench_read_json(&back, json, err, sizeof err);
    CHECK(rc == VINE_OK, "read copy json: %s", err);
    if (rc == VINE_OK)
        compare(&r, &back, "copy json");
    vine__bench_results_free(&back);

    rc = vine__bench_write_csv(&r, csv, err, sizeof err);
    CHECK(rc == VINE_OK, "write copy csv: %s", err);
    static const char *const want_lines[] = {
        "# copy_bytes: 67108864",
        "# copy_reps: 5",
        "# copy_all_GBps: 41.25",
        "# copy_one_GBps: 7.75",
        "collective,algorithm,size_label,size,count,status,error,check,kept,dropped,min_us,"
        "median_us,mean_us,p99_us,max_us,ratio,algbw_GBps,busbw_GBps,copy_fraction",
        "allreduce,mpi,8B,8,2,ok,,,40,10,1.25,1.5,0.333333333333333,2.75,3,1,0.00533333333333333,"
        "0.00711111111111111,0.000172390572390572",
        "allreduce,bine_large,1KiB,1024,256,n/a,,,0,0,,,,,,,,,",
        "barrier,dissemination,-,0,,ok,,,8,2,10,10,10,10,10,0.5,,,",
    };
    for (size_t i = 0; i < sizeof want_lines / sizeof want_lines[0]; i++)
        CHECK(has_line(csv, want_lines[i]), "copy csv lacks the line '%s'", want_lines[i]);
    rc = vine__bench_read(&back, csv, err, sizeof err);
    CHECK(rc == VINE_OK, "read copy csv: %s", err);
    if (rc == VINE_OK)
        compare(&r, &back, "copy csv");
    vine__bench_results_free(&back);
    vine__bench_results_free(&r);

    /* A run without the copy bandwidth writes none of its fields. */
    make_results(&r);
    path_of(json, sizeof json, "nocopy.json");
    path_of(csv, sizeof csv, "nocopy.csv");
    CHECK(vine__bench_write_json(&r, json, err, sizeof err) == VINE_OK && !has_text(json, "copy"),
          "json without --copy-bw mentions copy");
    CHECK(vine__bench_write_csv(&r, csv, err, sizeof err) == VINE_OK && !has_text(csv, "copy"),
          "csv without --copy-bw mentions copy");
    CHECK(vine__bench_read(&back, json, err, sizeof err) == VINE_OK && back.copy_bytes == 0 &&
              isnan(back.copy_all) && isnan(back.copy_one) && back.nrows &&
              isnan(back.rows[0].copy_fraction),
          "json without --copy-bw read back: %s", err);
    vine__bench_results_free(&back);
    vine__bench_results_free(&r);
}

/* The fields of the row of read_hand()'s files. */
static void check_hand_rows(const vine_bench_results *r, const char *fmt)
{
    CHECK(same_str(r->command, "vine-bench coll") && same_str(r->date, "2025-06-07T08:09:10Z") &&
              same_str(r->mpi_library, "M") && same_str(r->dtype, "float") &&
              same_str(r->op, "max"),
          "%s: description strings", fmt);
    CHECK(r->ranks == 2 && r->root == 1 && r->inplace == 0 && r->check == 1 && r->iters == 10 &&
              r->warmup == 3,
          "%s: ranks %d root %d in_place %d check %d iters %d warmup %d", fmt, r->ranks, r->root,
          r->inplace, r->check, r->iters, r->warmup);
    CHECK(r->ranks == 2 && same_str(r->hosts[0], "h0") && same_str(r->hosts[1], "h 1"), "%s: hosts",
          fmt);
    CHECK(r->copy_bytes == 0 && r->copy_reps == 0 && isnan(r->copy_all) && isnan(r->copy_one),
          "%s: a file without the copy bandwidth read as copy_bytes %lld copy_all %g", fmt,
          r->copy_bytes, r->copy_all);
    CHECK(r->nrows == 2, "%s: %zu rows, want 2", fmt, r->nrows);
    if (r->nrows != 2)
        return;
    CHECK(isnan(r->rows[0].copy_fraction) && isnan(r->rows[1].copy_fraction),
          "%s: a row without copy_fraction read as %g", fmt, r->rows[0].copy_fraction);
    const vine_bench_row *x = &r->rows[0], *y = &r->rows[1];
    CHECK(same_str(x->coll, "bcast") && same_str(x->algo, "a,b") && same_str(x->label, "4KiB") &&
              x->size == 4096 && x->count == 1024 && x->status == VINE_BENCH_ROW_OK &&
              same_str(x->error, "") && x->check == 1 && x->kept == 7 && x->dropped == 3,
          "%s: row 0 '%s' '%s' '%s' %lld %lld %d '%s' %d %d %d", fmt, x->coll, x->algo, x->label,
          x->size, x->count, x->status, x->error, x->check, x->kept, x->dropped);
    CHECK(x->min == 1.5 && x->median == 2 && x->mean == 2.25 && x->p99 == 4 && x->max == 4.5 &&
              x->ratio == 0.5 && x->algbw == 2.048 && x->busbw == 1.024,
          "%s: row 0 numbers %g %g %g %g %g %g %g %g", fmt, x->min, x->median, x->mean, x->p99,
          x->max, x->ratio, x->algbw, x->busbw);
    CHECK(same_str(y->algo, "mpi") && y->status == VINE_BENCH_ROW_ERROR &&
              same_str(y->error, "say \"no\"") && y->check == -1 && isnan(y->median) &&
              isnan(y->busbw),
          "%s: row 1 '%s' status %d error '%s' check %d median %g", fmt, y->algo, y->status,
          y->error, y->check, y->median);
}

/* Valid files written here by hand (docs/bench.md), read back and checked
 * field by field against the values written into them. */
static void test_hand_written(void)
{
    static const char *csv_text =
        "# format: vine-bench-results 1\n# command: vine-bench coll\n"
        "# date: 2025-06-07T08:09:10Z\n# mpi_library: M\n# ranks: 2\n# dtype: float\n"
        "# op: max\n# root: 1\n# in_place: no\n# check: yes\n# iters: 10\n# warmup: 3\n"
        "# host 0: h0\n# host 1: h 1\n"
        "collective,algorithm,size_label,size,count,status,error,check,kept,dropped,min_us,"
        "median_us,mean_us,p99_us,max_us,ratio,algbw_GBps,busbw_GBps\n"
        "bcast,\"a,b\",4KiB,4096,1024,ok,,OK,7,3,1.5,2,2.25,4,4.5,0.5,2.048,1.024\n"
        "bcast,mpi,4KiB,4096,1024,error,\"say \"\"no\"\"\",,0,0,,,,,,,,\n";
    static const char *json_text =
        "{\"format\": \"vine-bench-results\", \"version\": 1, \"command\": \"vine-bench coll\", "
        "\"date\": \"2025-06-07T08:09:10Z\", \"mpi_library\": \"M\", \"ranks\": 2, "
        "\"dtype\": \"float\", \"op\": \"max\", \"root\": 1, \"iters\": 10, \"warmup\": 3, "
        "\"in_place\": false, \"check\": true, \"hosts\": [\"h0\", \"h 1\"], \"rows\": [\n"
        "{\"collective\": \"bcast\", \"algorithm\": \"a,b\", \"size_label\": \"4KiB\", "
        "\"size\": 4096, \"count\": 1024, \"status\": \"ok\", \"error\": null, \"check\": "
        "\"OK\", \"kept\": 7, \"dropped\": 3, \"min_us\": 1.5, \"median_us\": 2, "
        "\"mean_us\": 2.25, \"p99_us\": 4, \"max_us\": 4.5, \"ratio\": 0.5, "
        "\"algbw_GBps\": 2.048, \"busbw_GBps\": 1.024},\n"
        "{\"collective\": \"bcast\", \"algorithm\": \"mpi\", \"size_label\": \"4KiB\", "
        "\"size\": 4096, \"count\": 1024, \"status\": \"error\", \"error\": \"say \\\"no\\\"\", "
        "\"check\": null, \"kept\": 0, \"dropped\": 0, \"min_us\": null, \"median_us\": null, "
        "\"mean_us\": null, \"p99_us\": null, \"max_us\": null, \"ratio\": null, "
        "\"algbw_GBps\": null, \"busbw_GBps\": null}]}\n";
    char path[512], err[512] = "";
    vine_bench_results r;
    CHECK(write_text("hand.csv", csv_text, path, sizeof path), "cannot write %s", path);
    int rc = vine__bench_read(&r, path, err, sizeof err);
    CHECK(rc == VINE_OK, "hand.csv: %s", err);
    if (rc == VINE_OK)
        check_hand_rows(&r, "hand.csv");
    vine__bench_results_free(&r);
    CHECK(write_text("hand.json", json_text, path, sizeof path), "cannot write %s", path);
    rc = vine__bench_read(&r, path, err, sizeof err);
    CHECK(rc == VINE_OK, "hand.json: %s", err);
    if (rc == VINE_OK)
        check_hand_rows(&r, "hand.json");
    vine__bench_results_free(&r);
}

/* Writes text to dir/name and expects the reader to refuse it with want in the message. */
static void refuse(const char *name, const char *text, const char *want)
{
    char path[512], err[512] = "";
    path_of(path, sizeof path, name);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL, "cannot write %s", path);
    if (!f)
        return;
    fputs(text, f);
    fclose(f);
    vine_bench_results r;
    int rc = vine__bench_read(&r, path, err, sizeof err);
    CHECK(rc == VINE_ERR_UNSUPPORTED, "%s: accepted (rc %d)", name, rc);
    CHECK(strstr(err, path) && strstr(err, want), "%s: message '%s' lacks '%s'", name, err, want);
    CHECK(r.nrows == 0 && r.rows == NULL && r.hosts == NULL, "%s: results not left empty", name);
}

#define CSV_HEAD                                                                                   \
    "# format: vine-bench-results 1\n# ranks: 1\n# host 0: h\n"                                    \
    "collective,algorithm,size_label,size,count,status,error,check,kept,dropped,min_us,"           \
    "median_us,mean_us,p99_us,max_us,ratio,algbw_GBps,busbw_GBps\n"

static void test_refused(void)
{
    refuse("trunc.json", "{\"format\": \"vine-bench-results\", \"rows\": [", ":1:");
    refuse("other.json", "{\"format\": \"something else\"}", "not a vine-bench result file");
    refuse("norows.json",
           "{\"format\": \"vine-bench-results\", \"version\": 1, \"command\": \"\", \"date\": "
           "\"\", \"mpi_library\": \"\", \"ranks\": 1, \"dtype\": \"int\", \"op\": \"sum\", "
           "\"root\": 0, \"iters\": 1, \"warmup\": null, \"in_place\": false, \"check\": false, "
           "\"hosts\": [\"h\"], \"rows\": [{\"collective\": \"bcast\"}]}",
           "rows[0]");
    refuse("nohead.csv", "bcast,mpi\n", "not a vine-bench result file");
    refuse("badnum.csv", CSV_HEAD "bcast,mpi,8B,8,2,ok,,,4,1,1.5,x,1,1,1,1,1,1\n",
           ":5: bad median_us");
    refuse("fields.csv", CSV_HEAD "bcast,mpi,8B\n", ":5: 3 fields");
    refuse("quote.csv", CSV_HEAD "\"bcast,mpi,8B,8,2,ok,,,4,1,1,1,1,1,1,1,1,1\n", "bad quoting");
    refuse("status.csv", CSV_HEAD "bcast,mpi,8B,8,2,done,,,4,1,1,1,1,1,1,1,1,1\n",
           ":5: bad status");
    refuse("nohost.csv",
           "# format: vine-bench-results 1\n# ranks: 2\n# host 0: h\n"
           "collective,algorithm,size_label,size,count,status,error,check,kept,dropped,min_us,"
           "median_us,mean_us,p99_us,max_us,ratio,algbw_GBps,busbw_GBps\n",
           "host 1");
    refuse("copycol.csv",
           "# format: vine-bench-results 1\n# ranks: 1\n# host 0: h\n"
           "collective,algorithm,size_label,size,count,status,error,check,kept,dropped,min_us,"
           "median_us,mean_us,p99_us,max_us,ratio,algbw_GBps,busbw_GBps,copy\n",
           "column 19 is \"copy\", expected \"copy_fraction\"");
    refuse("copyfrac.csv",
           "# format: vine-bench-results 1\n# ranks: 1\n# host 0: h\n# copy_bytes: 1024\n"
           "collective,algorithm,size_label,size,count,status,error,check,kept,dropped,min_us,"
           "median_us,mean_us,p99_us,max_us,ratio,algbw_GBps,busbw_GBps,copy_fraction\n"
           "bcast,mpi,8B,8,2,ok,,,4,1,1,1,1,1,1,1,1,1,x\n",
           ":6: bad copy_fraction");
    refuse("copyrow.csv",
           "# format: vine-bench-results 1\n# ranks: 1\n# host 0: h\n"
           "collective,algorithm,size_label,size,count,status,error,check,kept,dropped,min_us,"
           "median_us,mean_us,p99_us,max_us,ratio,algbw_GBps,busbw_GBps,copy_fraction\n"
           "bcast,mpi,8B,8,2,ok,,,4,1,1,1,1,1,1,1,1,1\n",
           ":5: 18 fields, expected 19");
    refuse("copybytes.csv", "# format: vine-bench-results 1\n# copy_bytes: 0\n",
           ":2: bad copy_bytes");
    refuse("copybw.json",
           "{\"format\": \"vine-bench-results\", \"version\": 1, \"command\": \"\", \"date\": "
           "\"\", \"mpi_library\": \"\", \"ranks\": 1, \"dtype\": \"int\", \"op\": \"sum\", "
           "\"root\": 0, \"iters\": 1, \"warmup\": null, \"in_place\": false, \"check\": false, "
           "\"copy_bytes\": 1024, \"copy_reps\": 5, \"copy_all_GBps\": \"fast\", "
           "\"hosts\": [\"h\"], \"rows\": []}",
           "\"copy_all_GBps\" missing or of the wrong type");
    refuse("copyfrac.json",
           "{\"format\": \"vine-bench-results\", \"version\": 1, \"command\": \"\", \"date\": "
           "\"\", \"mpi_library\": \"\", \"ranks\": 1, \"dtype\": \"int\", \"op\": \"sum\", "
           "\"root\": 0, \"iters\": 1, \"warmup\": null, \"in_place\": false, \"check\": false, "
           "\"hosts\": [\"h\"], \"rows\": [{\"collective\": \"bcast\", \"algorithm\": \"mpi\", "
           "\"size_label\": \"8B\", \"size\": 8, \"count\": 2, \"status\": \"ok\", \"error\": "
           "null, \"check\": null, \"kept\": 1, \"dropped\": 0, \"min_us\": 1, \"median_us\": 1, "
           "\"mean_us\": 1, \"p99_us\": 1, \"max_us\": 1, \"ratio\": 1, \"algbw_GBps\": 1, "
           "\"busbw_GBps\": 1, \"copy_fraction\": \"x\"}]}",
           "rows[0]: \"copy_fraction\"");
    /* Corrupt rank counts fail before the host names are allocated (the
     * fuzzer's inputs took 3 GiB; tests/data/fuzz/results). */
    refuse("manyranks.csv", "# format: vine-bench-results 1\n# ranks: 402666267\n",
           ":2: 402666267 ranks, but the file is too short");
    refuse("manyranks.json",
           "{\"format\": \"vine-bench-results\", \"version\": 1, \"command\": \"\", \"date\": "
           "\"\", \"mpi_library\": \"\", \"ranks\": 2000000000, \"dtype\": \"int\", \"op\": "
           "\"sum\", \"root\": 0, \"iters\": 1, \"warmup\": null, \"in_place\": false, "
           "\"check\": false, \"hosts\": [\"h\"], \"rows\": []}",
           "not an array of 2000000000 names");
    char path[512], err[512];
    vine_bench_results r;
    path_of(path, sizeof path, "does-not-exist.json");
    CHECK(vine__bench_read(&r, path, err, sizeof err) == VINE_ERR_UNSUPPORTED &&
              strstr(err, "cannot open"),
          "missing file: '%s'", err);
}

/* Is s "YYYY-MM-DDTHH:MM:SSZ"? */
static int iso_date(const char *s)
{
    static const char *shape = "dddd-dd-ddTdd:dd:ddZ";
    if (!s || strlen(s) != strlen(shape))
        return 0;
    for (size_t i = 0; shape[i]; i++)
        if (shape[i] == 'd' ? !isdigit((unsigned char)s[i]) : s[i] != shape[i])
            return 0;
    return 1;
}

/* The rows of a real run: consistent numbers, and every check passed. */
static void check_run_rows(const vine_bench_results *r)
{
    int drop = r->warmup < 0 ? r->iters / 5 : 0, kept = r->warmup < 0 ? r->iters - drop : r->iters;
    for (size_t i = 0; i < r->nrows; i++) {
        const vine_bench_row *x = &r->rows[i];
        int barrier = strcmp(x->coll, "barrier") == 0, mpi = strcmp(x->algo, "mpi") == 0;
        CHECK(x->status != VINE_BENCH_ROW_ERROR, "row %zu %s %s: error %s", i, x->coll, x->algo,
              x->error);
        if (x->status != VINE_BENCH_ROW_OK)
            continue;
        CHECK(x->kept == kept && x->dropped == drop, "row %zu %s %s: kept %d dropped %d", i,
              x->coll, x->algo, x->kept, x->dropped);
        CHECK(x->min > 0 && x->min <= x->median && x->median <= x->max && x->min <= x->mean &&
                  x->mean <= x->max && x->min <= x->p99 && x->p99 <= x->max,
              "row %zu %s %s: min %g median %g mean %g p99 %g max %g out of order", i, x->coll,
              x->algo, x->min, x->median, x->mean, x->p99, x->max);
        CHECK(barrier ? x->size == 0 && x->count == -1 && isnan(x->algbw) && isnan(x->busbw)
                      : x->size >= 0 && x->count >= 0 && x->algbw >= 0 && x->busbw >= 0,
              "row %zu %s %s: size %lld count %lld algbw %g busbw %g", i, x->coll, x->algo, x->size,
              x->count, x->algbw, x->busbw);
        if (mpi)
            CHECK(x->ratio == 1 && x->check == -1, "row %zu: mpi ratio %g check %d", i, x->ratio,
                  x->check);
        else if (r->check && !barrier)
            CHECK(x->check == 1, "row %zu %s %s %s: check %d", i, x->coll, x->algo, x->label,
                  x->check);
    }
}

/*
 * A real run's copy bandwidth, when it measured one (--copy-bw in the
 * command): both bandwidths positive, and copy_fraction in every row that
 * has a busbw, equal to busbw / copy_all to the 6 digits written.  Timing
 * decides nothing else.
 */
static void check_run_copy(const vine_bench_results *r)
{
    int asked = strstr(r->command, " --copy-bw") != NULL;
    CHECK(asked == (r->copy_bytes > 0), "--copy-bw %s, copy_bytes %lld",
          asked ? "given" : "not given", r->copy_bytes);
    if (!asked)
        return;
    CHECK(r->copy_reps > 0 && r->copy_all > 0 && r->copy_one > 0,
          "copy_reps %d copy_all %g copy_one %g", r->copy_reps, r->copy_all, r->copy_one);
    for (size_t i = 0; i < r->nrows; i++) {
        const vine_bench_row *x = &r->rows[i];
        if (!isfinite(x->busbw)) {
            CHECK(isnan(x->copy_fraction), "row %zu %s %s: copy_fraction %g without busbw", i,
                  x->coll, x->algo, x->copy_fraction);
            continue;
        }
        double want = x->busbw / r->copy_all;
        CHECK(x->copy_fraction >= 0 && fabs(x->copy_fraction - want) <= 1e-5 * want + 1e-12,
              "row %zu %s %s: copy_fraction %g, busbw / copy_all %g", i, x->coll, x->algo,
              x->copy_fraction, want);
    }
}

/* --run JSON CSV P: the two files of one real run. */
static int check_run(const char *json, const char *csv, int p)
{
    vine_bench_results a, b;
    char err[512];
    int rc = vine__bench_read(&a, json, err, sizeof err);
    CHECK(rc == VINE_OK, "read %s: %s", json, err);
    if (rc)
        return 1;
    rc = vine__bench_read(&b, csv, err, sizeof err);
    CHECK(rc == VINE_OK, "read %s: %s", csv, err);
    if (rc) {
        vine__bench_results_free(&a);
        return 1;
    }
    CHECK(a.ranks == p, "ranks %d, want %d", a.ranks, p);
    for (int i = 0; i < a.ranks; i++)
        CHECK(a.hosts[i] && *a.hosts[i], "rank %d has no host", i);
    CHECK(strstr(a.command, "vine-bench") && strstr(a.command, " coll "), "command '%s'",
          a.command);
    CHECK(a.mpi_library && *a.mpi_library, "no MPI library");
    CHECK(iso_date(a.date), "date '%s'", a.date);
    CHECK(a.nrows > 0, "no rows");
    check_run_rows(&a);
    check_run_copy(&a);
    compare(&a, &b, "json vs csv");
    printf("%s: %zu rows, %d ranks on %s..., %s, %s\n", json, a.nrows, a.ranks,
           a.ranks ? a.hosts[0] : "-", a.date, a.mpi_library);
    vine__bench_results_free(&a);
    vine__bench_results_free(&b);
    printf("results: %ld checks, %ld failed\n", checks, failures);
    return failures != 0;
}

int main(int argc, char **argv)
{
    if (argc == 5 && strcmp(argv[1], "--run") == 0)
        return check_run(argv[2], argv[3], atoi(argv[4]));
    if (argc > 1)
        dir = argv[1];
    test_round_trip();
    test_copy_round_trip();
    test_hand_written();
    test_refused();
    printf("results: %ld checks, %ld failed\n", checks, failures);
    return failures != 0;
}
