/*
 * vine-bench's result files (MPI-free): JSON through jansson, and CSV with
 * "# key: value" lines for the run's description before a header line and
 * one line per row (RFC 4180 quoting).  See results.h and docs/bench.md.
 * Cost: linear in the size of the file.
 */
#include "bench/results.h"
#include "sched/sched.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- the in-memory results ---------------------------------------------- */

void vine__bench_results_init(vine_bench_results *r)
{
    memset(r, 0, sizeof *r);
    r->warmup = -1;
    r->check = 0;
    r->copy_all = r->copy_one = NAN;
    r->mode = VINE_BENCH_MODE_BLOCKING;
    r->progress_interval = NAN;
}

void vine__bench_results_free(vine_bench_results *r)
{
    free(r->command);
    free(r->date);
    free(r->mpi_library);
    for (int i = 0; r->hosts && i < r->ranks; i++)
        free(r->hosts[i]);
    free(r->hosts);
    free(r->rows);
    vine__bench_results_init(r);
}

int vine__bench_results_set(char **field, const char *s)
{
    char *copy = strdup(s ? s : "");
    if (!copy)
        return VINE_ERR_NO_MEM;
    free(*field);
    *field = copy;
    return VINE_OK;
}

int vine__bench_results_set_ranks(vine_bench_results *r, int p)
{
    if (p < 1 || r->hosts)
        return VINE_ERR_UNSUPPORTED;
    r->hosts = calloc((size_t)p, sizeof(char *));
    if (!r->hosts)
        return VINE_ERR_NO_MEM;
    r->ranks = p;
    return VINE_OK;
}

int vine__bench_results_set_host(vine_bench_results *r, int rank, const char *host)
{
    if (rank < 0 || rank >= r->ranks)
        return VINE_ERR_UNSUPPORTED;
    return vine__bench_results_set(&r->hosts[rank], host);
}

static void copy_name(char *dst, size_t cap, const char *src)
{
    snprintf(dst, cap, "%s", src ? src : "");
}

void vine__bench_row_init(vine_bench_row *row, const char *coll, const char *algo,
                          const char *label)
{
    memset(row, 0, sizeof *row);
    copy_name(row->coll, sizeof row->coll, coll);
    copy_name(row->algo, sizeof row->algo, algo);
    copy_name(row->label, sizeof row->label, label);
    row->status = VINE_BENCH_ROW_OK;
    row->check = -1;
    row->min = row->median = row->mean = row->p99 = row->max = NAN;
    row->ratio = row->algbw = row->busbw = row->copy_fraction = NAN;
    row->comp = row->overlap_time = row->overlap = row->overlap_np_time = row->overlap_np = NAN;
    row->np_start = row->np_wait = NAN;
    row->blocking = row->persistent_ratio = NAN;
}

/* x to 15 significant digits, the precision of the files; NAN for anything not finite. */
static double round15(double x)
{
    if (!isfinite(x))
        return NAN;
    char buf[40];
    snprintf(buf, sizeof buf, "%.15g", x);
    return strtod(buf, NULL);
}

int vine__bench_results_add(vine_bench_results *r, const vine_bench_row *row)
{
    if (r->nrows == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 64;
        vine_bench_row *rows = realloc(r->rows, cap * sizeof *rows);
        if (!rows)
            return VINE_ERR_NO_MEM;
        r->rows = rows;
        r->cap = cap;
    }
    vine_bench_row *x = &r->rows[r->nrows++];
    *x = *row;
    double *nums[] = {&x->min,
                      &x->median,
                      &x->mean,
                      &x->p99,
                      &x->max,
                      &x->ratio,
                      &x->algbw,
                      &x->busbw,
                      &x->copy_fraction,
                      &x->comp,
                      &x->overlap_time,
                      &x->overlap,
                      &x->overlap_np_time,
                      &x->overlap_np,
                      &x->np_start,
                      &x->np_wait,
                      &x->blocking,
                      &x->persistent_ratio};
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++)
        *nums[i] = round15(*nums[i]);
    return VINE_OK;
}

const char *vine__bench_status_name(int status)
{
    return status == VINE_BENCH_ROW_NA ? "n/a" : status == VINE_BENCH_ROW_ERROR ? "error" : "ok";
}

int vine__bench_status_from_name(const char *name)
{
    if (strcmp(name, "ok") == 0)
        return VINE_BENCH_ROW_OK;
    if (strcmp(name, "n/a") == 0)
        return VINE_BENCH_ROW_NA;
    if (strcmp(name, "error") == 0)
        return VINE_BENCH_ROW_ERROR;
    return -1;
}

static const char *const mode_names[] = {"blocking", "nonblocking", "persistent"};

const char *vine__bench_mode_name(int mode)
{
    return mode > 0 && mode < 3 ? mode_names[mode] : mode_names[0];
}

int vine__bench_mode_from_name(const char *name)
{
    for (int m = 0; m < 3; m++)
        if (strcmp(name, mode_names[m]) == 0)
            return m;
    return -1;
}

/*
 * The optional numbers of a row, in the order of the files: copy_fraction
 * (--copy-bw), then those of mode NONBLOCKING, then those of PERSISTENT.
 */
enum {
    OPT_COPY,
    OPT_NB_FIRST,
    OPT_NB_LAST = OPT_NB_FIRST + 6,
    OPT_P_FIRST,
    OPT_P_LAST = OPT_P_FIRST + 1,
    NOPT
};
static const char *const opt_names[NOPT] = {"copy_fraction",
                                            "comp_us",
                                            "overlap_us",
                                            "overlap",
                                            "overlap_noprog_us",
                                            "overlap_noprog",
                                            "overlap_noprog_start_us",
                                            "overlap_noprog_wait_us",
                                            "blocking_us",
                                            "persistent_ratio"};

static double *opt_field(vine_bench_row *x, int k)
{
    double *f[NOPT] = {
        &x->copy_fraction, &x->comp,     &x->overlap_time, &x->overlap,  &x->overlap_np_time,
        &x->overlap_np,    &x->np_start, &x->np_wait,      &x->blocking, &x->persistent_ratio};
    return f[k];
}

/* The optional numbers a run's files hold: their indices into opt, in file order; the count. */
static int opt_columns(const vine_bench_results *r, int *opt)
{
    int n = 0;
    if (r->copy_bytes > 0)
        opt[n++] = OPT_COPY;
    if (r->mode == VINE_BENCH_MODE_NONBLOCKING)
        for (int k = OPT_NB_FIRST; k <= OPT_NB_LAST; k++)
            opt[n++] = k;
    if (r->mode == VINE_BENCH_MODE_PERSISTENT)
        for (int k = OPT_P_FIRST; k <= OPT_P_LAST; k++)
            opt[n++] = k;
    return n;
}

static const char *check_name(int check)
{
    return check < 0 ? "" : check ? "OK" : "FAIL";
}

/* -1 for "", 1 for OK, 0 for FAIL, -2 for anything else. */
static int check_from_name(const char *s)
{
    return !*s ? -1 : strcmp(s, "OK") == 0 ? 1 : strcmp(s, "FAIL") == 0 ? 0 : -2;
}

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (err && errlen)
        vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return VINE_ERR_UNSUPPORTED;
}

/* ---- JSON ------------------------------------------------------------- */

static json_t *jnum(double x)
{
    return isfinite(x) ? json_real(x) : json_null();
}

static json_t *jstr_or_null(const char *s)
{
    return s && *s ? json_string(s) : json_null();
}

/* Adds key = v to o, taking v's reference; 1 when it failed (v NULL counts). */
static int put(json_t *o, const char *key, json_t *v)
{
    return !v || json_object_set_new(o, key, v) != 0;
}

/* A row with the optional numbers opt[0 .. nopt - 1] (opt_columns). */
static json_t *row_to_json(const vine_bench_row *x, const int *opt, int nopt)
{
    json_t *o = json_object();
    if (!o)
        return NULL;
    int bad = 0;
    bad |= put(o, "collective", json_string(x->coll));
    bad |= put(o, "algorithm", json_string(x->algo));
    bad |= put(o, "size_label", json_string(x->label));
    bad |= put(o, "size", json_integer(x->size));
    bad |= put(o, "count", x->count < 0 ? json_null() : json_integer(x->count));
    bad |= put(o, "status", json_string(vine__bench_status_name(x->status)));
    bad |= put(o, "error", jstr_or_null(x->error));
    bad |= put(o, "check", jstr_or_null(check_name(x->check)));
    bad |= put(o, "kept", json_integer(x->kept));
    bad |= put(o, "dropped", json_integer(x->dropped));
    bad |= put(o, "min_us", jnum(x->min));
    bad |= put(o, "median_us", jnum(x->median));
    bad |= put(o, "mean_us", jnum(x->mean));
    bad |= put(o, "p99_us", jnum(x->p99));
    bad |= put(o, "max_us", jnum(x->max));
    bad |= put(o, "ratio", jnum(x->ratio));
    bad |= put(o, "algbw_GBps", jnum(x->algbw));
    bad |= put(o, "busbw_GBps", jnum(x->busbw));
    for (int i = 0; i < nopt; i++)
        bad |= put(o, opt_names[opt[i]], jnum(*opt_field((vine_bench_row *)x, opt[i])));
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static json_t *results_to_json(const vine_bench_results *r)
{
    json_t *o = json_object(), *hosts = json_array(), *rows = json_array();
    int bad = !o || !hosts || !rows, opt[NOPT], nopt = opt_columns(r, opt);
    for (int i = 0; !bad && i < r->ranks; i++)
        bad = json_array_append_new(hosts, json_string(r->hosts[i] ? r->hosts[i] : "")) != 0;
    for (size_t i = 0; !bad && i < r->nrows; i++) {
        json_t *row = row_to_json(&r->rows[i], opt, nopt);
        bad = !row || json_array_append_new(rows, row) != 0;
    }
    if (!bad) {
        bad |= put(o, "format", json_string(VINE_BENCH_FORMAT));
        bad |= put(o, "version", json_integer(VINE_BENCH_FORMAT_VERSION));
        bad |= put(o, "command", json_string(r->command ? r->command : ""));
        bad |= put(o, "date", json_string(r->date ? r->date : ""));
        bad |= put(o, "mpi_library", json_string(r->mpi_library ? r->mpi_library : ""));
        bad |= put(o, "ranks", json_integer(r->ranks));
        bad |= put(o, "dtype", json_string(r->dtype));
        bad |= put(o, "op", json_string(r->op));
        bad |= put(o, "root", json_integer(r->root));
        bad |= put(o, "in_place", json_boolean(r->inplace));
        bad |= put(o, "check", json_boolean(r->check));
        bad |= put(o, "iters", json_integer(r->iters));
        bad |= put(o, "warmup", r->warmup < 0 ? json_null() : json_integer(r->warmup));
        if (r->copy_bytes > 0) {
            bad |= put(o, "copy_bytes", json_integer(r->copy_bytes));
            bad |= put(o, "copy_reps", json_integer(r->copy_reps));
            bad |= put(o, "copy_all_GBps", jnum(r->copy_all));
            bad |= put(o, "copy_one_GBps", jnum(r->copy_one));
        }
        if (r->mode != VINE_BENCH_MODE_BLOCKING)
            bad |= put(o, "mode", json_string(vine__bench_mode_name(r->mode)));
        if (r->mode == VINE_BENCH_MODE_NONBLOCKING)
            bad |= put(o, "progress_interval_us", jnum(r->progress_interval));
        bad |= put(o, "hosts", hosts);
        hosts = NULL;
        bad |= put(o, "rows", rows);
        rows = NULL;
    }
    json_decref(hosts);
    json_decref(rows);
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

int vine__bench_write_json(const vine_bench_results *r, const char *path, char *err, size_t errlen)
{
    json_t *o = results_to_json(r);
    if (!o)
        return VINE_ERR_NO_MEM;
    int rc = json_dump_file(o, path, JSON_INDENT(1) | JSON_REAL_PRECISION(15));
    json_decref(o);
    if (rc != 0)
        return fail(err, errlen, "%s: cannot write the file", path);
    return VINE_OK;
}

/* The string member key of o into dst (NULL allowed as "" when nullable). */
static int get_str(json_t *o, const char *key, int nullable, char *dst, size_t cap,
                   const char **missing)
{
    json_t *v = json_object_get(o, key);
    if (v && json_is_null(v) && nullable) {
        dst[0] = '\0';
        return 0;
    }
    if (!json_is_string(v) || strlen(json_string_value(v)) >= cap) {
        *missing = key;
        return -1;
    }
    memcpy(dst, json_string_value(v), strlen(json_string_value(v)) + 1);
    return 0;
}

static int get_int(json_t *o, const char *key, int nullable, long long min, long long max,
                   long long *out, const char **missing)
{
    json_t *v = json_object_get(o, key);
    if (v && json_is_null(v) && nullable) {
        *out = -1;
        return 0;
    }
    if (!json_is_integer(v) || json_integer_value(v) < min || json_integer_value(v) > max) {
        *missing = key;
        return -1;
    }
    *out = json_integer_value(v);
    return 0;
}

static int get_num(json_t *o, const char *key, double *out, const char **missing)
{
    json_t *v = json_object_get(o, key);
    if (v && json_is_null(v)) {
        *out = NAN;
        return 0;
    }
    if (!json_is_number(v)) {
        *missing = key;
        return -1;
    }
    *out = json_number_value(v);
    return 0;
}

static int row_from_json(json_t *o, vine_bench_row *x, const char **bad)
{
    char status[16], check[16];
    long long kept, dropped;
    vine__bench_row_init(x, "", "", "");
    if (!json_is_object(o)) {
        *bad = "(the row is not an object)";
        return -1;
    }
    if (get_str(o, "collective", 0, x->coll, sizeof x->coll, bad) ||
        get_str(o, "algorithm", 0, x->algo, sizeof x->algo, bad) ||
        get_str(o, "size_label", 0, x->label, sizeof x->label, bad) ||
        get_int(o, "size", 0, 0, INT64_MAX, &x->size, bad) ||
        get_int(o, "count", 1, 0, INT64_MAX, &x->count, bad) ||
        get_str(o, "status", 0, status, sizeof status, bad) ||
        get_str(o, "error", 1, x->error, sizeof x->error, bad) ||
        get_str(o, "check", 1, check, sizeof check, bad) ||
        get_int(o, "kept", 0, 0, INT32_MAX, &kept, bad) ||
        get_int(o, "dropped", 0, 0, INT32_MAX, &dropped, bad) ||
        get_num(o, "min_us", &x->min, bad) || get_num(o, "median_us", &x->median, bad) ||
        get_num(o, "mean_us", &x->mean, bad) || get_num(o, "p99_us", &x->p99, bad) ||
        get_num(o, "max_us", &x->max, bad) || get_num(o, "ratio", &x->ratio, bad) ||
        get_num(o, "algbw_GBps", &x->algbw, bad) || get_num(o, "busbw_GBps", &x->busbw, bad))
        return -1;
    /* Optional: only the rows of a run with --copy-bw, --nonblocking or --persistent have them. */
    for (int k = 0; k < NOPT; k++)
        if (json_object_get(o, opt_names[k]) && get_num(o, opt_names[k], opt_field(x, k), bad))
            return -1;
    x->status = vine__bench_status_from_name(status);
    x->check = check_from_name(check);
    x->kept = (int)kept;
    x->dropped = (int)dropped;
    if (x->status < 0) {
        *bad = "status";
        return -1;
    }
    if (x->check < -1) {
        *bad = "check";
        return -1;
    }
    return 0;
}

static int results_from_json(json_t *o, vine_bench_results *r, const char *path, char *err,
                             size_t errlen)
{
    const char *bad = NULL;
    char format[64];
    long long version, ranks, root, iters, warmup;
    json_t *hosts, *rows;
    if (!json_is_object(o))
        return fail(err, errlen, "%s: not a JSON object", path);
    if (get_str(o, "format", 0, format, sizeof format, &bad) ||
        strcmp(format, VINE_BENCH_FORMAT) != 0)
        return fail(err, errlen, "%s: not a vine-bench result file (format is not \"%s\")", path,
                    VINE_BENCH_FORMAT);
    if (get_int(o, "version", 0, 1, VINE_BENCH_FORMAT_VERSION, &version, &bad))
        return fail(err, errlen, "%s: format version missing or newer than %d", path,
                    VINE_BENCH_FORMAT_VERSION);
    char *strs[3] = {NULL, NULL, NULL};
    static const char *skeys[3] = {"command", "date", "mpi_library"};
    for (int i = 0; i < 3; i++) {
        json_t *v = json_object_get(o, skeys[i]);
        if (!json_is_string(v))
            return fail(err, errlen, "%s: \"%s\" missing or not a string", path, skeys[i]);
        strs[i] = (char *)json_string_value(v);
    }
    if (vine__bench_results_set(&r->command, strs[0]) ||
        vine__bench_results_set(&r->date, strs[1]) ||
        vine__bench_results_set(&r->mpi_library, strs[2]))
        return VINE_ERR_NO_MEM;
    if (get_int(o, "ranks", 0, 1, INT32_MAX, &ranks, &bad) ||
        get_str(o, "dtype", 0, r->dtype, sizeof r->dtype, &bad) ||
        get_str(o, "op", 0, r->op, sizeof r->op, &bad) ||
        get_int(o, "root", 0, 0, INT32_MAX, &root, &bad) ||
        get_int(o, "iters", 0, 0, INT32_MAX, &iters, &bad) ||
        get_int(o, "warmup", 1, 0, INT32_MAX, &warmup, &bad))
        return fail(err, errlen, "%s: \"%s\" missing or of the wrong type", path, bad);
    json_t *ip = json_object_get(o, "in_place"), *ck = json_object_get(o, "check");
    if (!json_is_boolean(ip) || !json_is_boolean(ck))
        return fail(err, errlen, "%s: \"%s\" missing or not a boolean", path,
                    json_is_boolean(ip) ? "check" : "in_place");
    r->root = (int)root;
    r->iters = (int)iters;
    r->warmup = (int)warmup;
    r->inplace = json_is_true(ip);
    r->check = json_is_true(ck);
    /* Optional: the copy bandwidth of --copy-bw, all four fields or none. */
    json_t *cb = json_object_get(o, "copy_bytes");
    if (cb && !json_is_null(cb)) {
        long long reps;
        if (get_int(o, "copy_bytes", 0, 1, INT64_MAX, &r->copy_bytes, &bad) ||
            get_int(o, "copy_reps", 0, 1, INT32_MAX, &reps, &bad) ||
            get_num(o, "copy_all_GBps", &r->copy_all, &bad) ||
            get_num(o, "copy_one_GBps", &r->copy_one, &bad))
            return fail(err, errlen, "%s: \"%s\" missing or of the wrong type", path, bad);
        r->copy_reps = (int)reps;
    }
    /* Optional: the mode of --nonblocking and --persistent (blocking without it). */
    json_t *mode = json_object_get(o, "mode");
    if (mode && (!json_is_string(mode) ||
                 (r->mode = vine__bench_mode_from_name(json_string_value(mode))) < 0))
        return fail(err, errlen, "%s: \"mode\" is not blocking, nonblocking or persistent", path);
    if (json_object_get(o, "progress_interval_us") &&
        get_num(o, "progress_interval_us", &r->progress_interval, &bad))
        return fail(err, errlen, "%s: \"%s\" missing or of the wrong type", path, bad);
    /* The host array first: a corrupt rank count allocates nothing. */
    hosts = json_object_get(o, "hosts");
    if (!json_is_array(hosts) || json_array_size(hosts) != (size_t)ranks)
        return fail(err, errlen, "%s: \"hosts\" is not an array of %lld names", path, ranks);
    int rc = vine__bench_results_set_ranks(r, (int)ranks);
    if (rc)
        return rc;
    for (int i = 0; i < (int)ranks; i++) {
        json_t *h = json_array_get(hosts, (size_t)i);
        if (!json_is_string(h))
            return fail(err, errlen, "%s: hosts[%d] is not a string", path, i);
        if ((rc = vine__bench_results_set_host(r, i, json_string_value(h))))
            return rc;
    }
    rows = json_object_get(o, "rows");
    if (!json_is_array(rows))
        return fail(err, errlen, "%s: \"rows\" missing or not an array", path);
    for (size_t i = 0; i < json_array_size(rows); i++) {
        vine_bench_row x;
        if (row_from_json(json_array_get(rows, i), &x, &bad))
            return fail(err, errlen, "%s: rows[%zu]: \"%s\" missing or of the wrong type", path, i,
                        bad);
        if ((rc = vine__bench_results_add(r, &x)))
            return rc;
    }
    return VINE_OK;
}

int vine__bench_read_json(vine_bench_results *r, const char *path, char *err, size_t errlen)
{
    vine__bench_results_init(r);
    json_error_t je;
    json_t *o = json_load_file(path, 0, &je);
    if (!o)
        return fail(err, errlen, "%s:%d: %s", path, je.line, je.text);
    int rc = results_from_json(o, r, path, err, errlen);
    json_decref(o);
    if (rc)
        vine__bench_results_free(r);
    return rc;
}

/* ---- CSV -------------------------------------------------------------- */

/* The columns of every file; the optional ones (opt_names) follow them. */
static const char *const csv_columns[] = {
    "collective", "algorithm", "size_label", "size",    "count",      "status",
    "error",      "check",     "kept",       "dropped", "min_us",     "median_us",
    "mean_us",    "p99_us",    "max_us",     "ratio",   "algbw_GBps", "busbw_GBps"};
#define NCOLS ((int)(sizeof csv_columns / sizeof csv_columns[0]))

/* Writes s as one CSV field, quoted when it holds a comma, a quote, a line break or edge spaces. */
void vine__bench_csv_field(FILE *f, const char *s)
{
    size_t n = strlen(s);
    int quote = strpbrk(s, ",\"\r\n") != NULL || (n && (s[0] == ' ' || s[n - 1] == ' '));
    if (!quote) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static void csv_num(FILE *f, double x)
{
    if (isfinite(x))
        fprintf(f, "%.15g", x);
}

/* A "# key: value" line; line breaks in value become spaces, which is all the format loses. */
static void csv_meta(FILE *f, const char *key, const char *value)
{
    fprintf(f, "# %s: ", key);
    for (const char *s = value ? value : ""; *s; s++)
        fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
    fputc('\n', f);
}

static void csv_meta_int(FILE *f, const char *key, long long v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%lld", v);
    csv_meta(f, key, buf);
}

/* A "# key: value" line of a number, empty when it is not finite. */
static void csv_meta_num(FILE *f, const char *key, double v)
{
    char buf[40] = "";
    if (isfinite(v))
        snprintf(buf, sizeof buf, "%.15g", v);
    csv_meta(f, key, buf);
}

/* A row with the optional numbers opt[0 .. nopt - 1] (opt_columns). */
static void csv_row(FILE *f, const vine_bench_row *x, const int *opt, int nopt)
{
    vine__bench_csv_field(f, x->coll);
    fputc(',', f);
    vine__bench_csv_field(f, x->algo);
    fputc(',', f);
    vine__bench_csv_field(f, x->label);
    fprintf(f, ",%lld,", x->size);
    if (x->count >= 0)
        fprintf(f, "%lld", x->count);
    fprintf(f, ",%s,", vine__bench_status_name(x->status));
    vine__bench_csv_field(f, x->error);
    fprintf(f, ",%s,%d,%d", check_name(x->check), x->kept, x->dropped);
    const double nums[] = {x->min, x->median, x->mean,  x->p99,
                           x->max, x->ratio,  x->algbw, x->busbw};
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++) {
        fputc(',', f);
        csv_num(f, nums[i]);
    }
    for (int i = 0; i < nopt; i++) {
        fputc(',', f);
        csv_num(f, *opt_field((vine_bench_row *)x, opt[i]));
    }
    fputc('\n', f);
}

int vine__bench_write_csv(const vine_bench_results *r, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return fail(err, errlen, "%s: cannot open for writing: %s", path, strerror(errno));
    char buf[64];
    snprintf(buf, sizeof buf, "%s %d", VINE_BENCH_FORMAT, VINE_BENCH_FORMAT_VERSION);
    csv_meta(f, "format", buf);
    csv_meta(f, "command", r->command);
    csv_meta(f, "date", r->date);
    csv_meta(f, "mpi_library", r->mpi_library);
    csv_meta_int(f, "ranks", r->ranks);
    csv_meta(f, "dtype", r->dtype);
    csv_meta(f, "op", r->op);
    csv_meta_int(f, "root", r->root);
    csv_meta(f, "in_place", r->inplace ? "yes" : "no");
    csv_meta(f, "check", r->check ? "yes" : "no");
    csv_meta_int(f, "iters", r->iters);
    if (r->warmup < 0)
        csv_meta(f, "warmup", "-");
    else
        csv_meta_int(f, "warmup", r->warmup);
    int copy = r->copy_bytes > 0, opt[NOPT], nopt = opt_columns(r, opt);
    if (copy) {
        csv_meta_int(f, "copy_bytes", r->copy_bytes);
        csv_meta_int(f, "copy_reps", r->copy_reps);
        csv_meta_num(f, "copy_all_GBps", r->copy_all);
        csv_meta_num(f, "copy_one_GBps", r->copy_one);
    }
    if (r->mode != VINE_BENCH_MODE_BLOCKING)
        csv_meta(f, "mode", vine__bench_mode_name(r->mode));
    if (r->mode == VINE_BENCH_MODE_NONBLOCKING)
        csv_meta_num(f, "progress_interval_us", r->progress_interval);
    for (int i = 0; i < r->ranks; i++) {
        snprintf(buf, sizeof buf, "host %d", i);
        csv_meta(f, buf, r->hosts[i]);
    }
    for (int c = 0; c < NCOLS; c++)
        fprintf(f, "%s%s", c ? "," : "", csv_columns[c]);
    for (int i = 0; i < nopt; i++)
        fprintf(f, ",%s", opt_names[opt[i]]);
    fputc('\n', f);
    for (size_t i = 0; i < r->nrows; i++)
        csv_row(f, &r->rows[i], opt, nopt);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad)
        return fail(err, errlen, "%s: write failed", path);
    return VINE_OK;
}

/*
 * Splits line (no line break) into at most max fields in place, undoing the
 * quoting; returns the number of fields, or -1 for a malformed quote.
 */
static int csv_split(char *line, char **fields, int max)
{
    int n = 0;
    char *s = line;
    for (;;) {
        if (n == max)
            return -1;
        char *out = s;
        fields[n++] = out;
        if (*s == '"') {
            s++;
            for (;;) {
                if (!*s)
                    return -1;
                if (*s == '"' && s[1] == '"') {
                    *out++ = '"';
                    s += 2;
                } else if (*s == '"') {
                    s++;
                    break;
                } else {
                    *out++ = *s++;
                }
            }
            if (*s && *s != ',')
                return -1;
        } else {
            while (*s && *s != ',') {
                if (*s == '"')
                    return -1;
                *out++ = *s++;
            }
        }
        char sep = *s;
        *out = '\0';
        if (!sep)
            return n;
        s++;
    }
}

static int parse_ll(const char *s, long long min, long long max, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (!*s || *end || errno || v < min || v > max)
        return -1;
    *out = v;
    return 0;
}

static int parse_num(const char *s, double *out)
{
    if (!*s) {
        *out = NAN;
        return 0;
    }
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (*end || errno || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

static int set_text(char *dst, size_t cap, const char *s)
{
    if (strlen(s) >= cap)
        return -1;
    memcpy(dst, s, strlen(s) + 1);
    return 0;
}

/*
 * Fills x from the fields in column order: NCOLS of them, then the optional
 * numbers opt[0 .. nopt - 1]; the failing column's index in *col.
 */
static int csv_fields_to_row(char **f, const int *opt, int nopt, vine_bench_row *x, int *col)
{
    long long v;
    vine__bench_row_init(x, "", "", "");
    int c = 0;
    if (set_text(x->coll, sizeof x->coll, f[c]) || !*f[c])
        goto bad;
    c++;
    if (set_text(x->algo, sizeof x->algo, f[c]) || !*f[c])
        goto bad;
    c++;
    if (set_text(x->label, sizeof x->label, f[c]))
        goto bad;
    c++;
    if (parse_ll(f[c], 0, INT64_MAX, &x->size))
        goto bad;
    c++;
    x->count = -1;
    if (*f[c] && parse_ll(f[c], 0, INT64_MAX, &x->count))
        goto bad;
    c++;
    if ((x->status = vine__bench_status_from_name(f[c])) < 0)
        goto bad;
    c++;
    if (set_text(x->error, sizeof x->error, f[c]))
        goto bad;
    c++;
    if ((x->check = check_from_name(f[c])) < -1)
        goto bad;
    c++;
    if (parse_ll(f[c], 0, INT32_MAX, &v))
        goto bad;
    x->kept = (int)v;
    c++;
    if (parse_ll(f[c], 0, INT32_MAX, &v))
        goto bad;
    x->dropped = (int)v;
    c++;
    double *nums[] = {&x->min, &x->median, &x->mean,  &x->p99,
                      &x->max, &x->ratio,  &x->algbw, &x->busbw};
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++, c++)
        if (parse_num(f[c], nums[i]))
            goto bad;
    for (int i = 0; i < nopt; i++, c++)
        if (parse_num(f[c], opt_field(x, opt[i])))
            goto bad;
    return 0;
bad:
    *col = c;
    return -1;
}

/*
 * One "# key: value" line of the description (line is past the "# ").  max_ranks bounds "ranks" by
 * the file's size (each rank needs a "# host R: NAME" line), so that a corrupt count does not
 * allocate gigabytes of host names before failing.
 */
static int csv_meta_line(vine_bench_results *r, char *line, const char *path, long ln,
                         int *have_format, long long max_ranks, char *err, size_t errlen)
{
    char *colon = strstr(line, ": ");
    if (!colon)
        return VINE_OK; /* a comment that is not a "key: value" pair */
    *colon = '\0';
    const char *value = colon + 2;
    long long v;
    int rc = VINE_OK, host;
    char fmt[64];
    snprintf(fmt, sizeof fmt, "%s %d", VINE_BENCH_FORMAT, VINE_BENCH_FORMAT_VERSION);
    if (strcmp(line, "format") == 0) {
        if (strcmp(value, fmt) != 0)
            return fail(err, errlen, "%s:%ld: format \"%s\", expected \"%s\"", path, ln, value,
                        fmt);
        *have_format = 1;
    } else if (strcmp(line, "command") == 0) {
        rc = vine__bench_results_set(&r->command, value);
    } else if (strcmp(line, "date") == 0) {
        rc = vine__bench_results_set(&r->date, value);
    } else if (strcmp(line, "mpi_library") == 0) {
        rc = vine__bench_results_set(&r->mpi_library, value);
    } else if (strcmp(line, "ranks") == 0) {
        if (parse_ll(value, 1, INT32_MAX, &v) || r->hosts)
            return fail(err, errlen, "%s:%ld: bad or repeated ranks", path, ln);
        if (v > max_ranks)
            return fail(err, errlen,
                        "%s:%ld: %lld ranks, but the file is too short to name their hosts", path,
                        ln, v);
        rc = vine__bench_results_set_ranks(r, (int)v);
    } else if (strcmp(line, "dtype") == 0 || strcmp(line, "op") == 0) {
        if (set_text(line[0] == 'd' ? r->dtype : r->op, sizeof r->dtype, value))
            return fail(err, errlen, "%s:%ld: %s too long", path, ln, line);
    } else if (strcmp(line, "root") == 0 || strcmp(line, "iters") == 0) {
        if (parse_ll(value, 0, INT32_MAX, &v))
            return fail(err, errlen, "%s:%ld: bad %s", path, ln, line);
        *(line[0] == 'r' ? &r->root : &r->iters) = (int)v;
    } else if (strcmp(line, "warmup") == 0) {
        if (strcmp(value, "-") == 0)
            r->warmup = -1;
        else if (parse_ll(value, 0, INT32_MAX, &v))
            return fail(err, errlen, "%s:%ld: bad warmup", path, ln);
        else
            r->warmup = (int)v;
    } else if (strcmp(line, "in_place") == 0 || strcmp(line, "check") == 0) {
        int yes = strcmp(value, "yes") == 0;
        if (!yes && strcmp(value, "no") != 0)
            return fail(err, errlen, "%s:%ld: %s is neither yes nor no", path, ln, line);
        *(line[0] == 'i' ? &r->inplace : &r->check) = yes;
    } else if (strcmp(line, "copy_bytes") == 0 || strcmp(line, "copy_reps") == 0) {
        int bytes = line[5] == 'b';
        if (parse_ll(value, 1, bytes ? INT64_MAX : INT32_MAX, &v))
            return fail(err, errlen, "%s:%ld: bad %s", path, ln, line);
        if (bytes)
            r->copy_bytes = v;
        else
            r->copy_reps = (int)v;
    } else if (strcmp(line, "copy_all_GBps") == 0 || strcmp(line, "copy_one_GBps") == 0) {
        if (parse_num(value, line[5] == 'a' ? &r->copy_all : &r->copy_one))
            return fail(err, errlen, "%s:%ld: bad %s", path, ln, line);
    } else if (strcmp(line, "mode") == 0) {
        if ((r->mode = vine__bench_mode_from_name(value)) < 0)
            return fail(err, errlen,
                        "%s:%ld: mode \"%s\" is not blocking, nonblocking or persistent", path, ln,
                        value);
    } else if (strcmp(line, "progress_interval_us") == 0) {
        if (parse_num(value, &r->progress_interval))
            return fail(err, errlen, "%s:%ld: bad %s", path, ln, line);
    } else if (sscanf(line, "host %d", &host) == 1) {
        if (!r->hosts || host < 0 || host >= r->ranks)
            return fail(err, errlen, "%s:%ld: host of rank %d before \"ranks\" or out of range",
                        path, ln, host);
        rc = vine__bench_results_set_host(r, host, value);
    }
    return rc;
}

/* Reads one line of any length into *buf; returns its length without the line break, or -1 at EOF.
 */
static long read_line(FILE *f, char **buf, size_t *cap)
{
    size_t n = 0;
    int c;
    while ((c = fgetc(f)) != EOF && c != '\n') {
        if (n + 2 > *cap) {
            size_t nc = *cap ? 2 * *cap : 256;
            char *b = realloc(*buf, nc);
            if (!b)
                return -2;
            *buf = b;
            *cap = nc;
        }
        (*buf)[n++] = (char)c;
    }
    if (c == EOF && n == 0)
        return -1;
    if (!*buf) {
        *buf = malloc(1);
        if (!*buf)
            return -2;
        *cap = 1;
    }
    if (n && (*buf)[n - 1] == '\r')
        n--;
    (*buf)[n] = '\0';
    return (long)n;
}

/*
 * The header's optional columns, fields[NCOLS .. nf - 1]: each one of
 * opt_names, in the order of the files (and so none twice); their indices
 * into *opt.  A wrong one is named with the name that could come next.
 */
static int csv_header_opt(char **fields, int nf, int *opt, const char *path, long ln, char *err,
                          size_t errlen)
{
    int next = 0;
    for (int c = NCOLS; c < nf; c++) {
        int k = next;
        while (k < NOPT && strcmp(fields[c], opt_names[k]) != 0)
            k++;
        if (k == NOPT)
            return fail(err, errlen, "%s:%ld: column %d is \"%s\", expected \"%s\"", path, ln,
                        c + 1, fields[c], next < NOPT ? opt_names[next] : "(no more columns)");
        opt[c - NCOLS] = k;
        next = k + 1;
    }
    return VINE_OK;
}

/* The name of column c of a file whose optional columns are opt. */
static const char *csv_column_name(int c, const int *opt)
{
    return c < NCOLS ? csv_columns[c] : opt_names[opt[c - NCOLS]];
}

static int csv_read_all(FILE *f, vine_bench_results *r, const char *path, char *err, size_t errlen)
{
    char *line = NULL, *fields[NCOLS + NOPT + 1];
    size_t cap = 0;
    long n = 0, ln = 0;
    int header = 0, have_format = 0, rc = VINE_OK, ncols = NCOLS, opt[NOPT];
    /* A "#host R: X" line takes 11 bytes or more. */
    struct stat st;
    long long max_ranks = INT32_MAX;
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode))
        max_ranks = (long long)st.st_size / 11;
    while (rc == VINE_OK && (n = read_line(f, &line, &cap)) >= -1) {
        if (n == -1)
            break;
        ln++;
        if (n == 0)
            continue;
        if (line[0] == '#') {
            if (header)
                continue; /* comments among the rows say nothing about the run */
            rc = csv_meta_line(r, line + 1 + (line[1] == ' '), path, ln, &have_format, max_ranks,
                               err, errlen);
            continue;
        }
        int nf = csv_split(line, fields, NCOLS + NOPT + 1);
        if (!header) {
            /* The header says which optional numbers the rows have. */
            ncols = nf;
            if (!have_format)
                rc = fail(err, errlen,
                          "%s:%ld: not a vine-bench result file (no \"# format:\" "
                          "line before the header)",
                          path, ln);
            else if (nf < NCOLS || nf > NCOLS + NOPT)
                rc = fail(err, errlen, "%s:%ld: the header has %d columns, expected %d to %d", path,
                          ln, nf, NCOLS, NCOLS + NOPT);
            for (int c = 0; rc == VINE_OK && c < NCOLS; c++)
                if (strcmp(fields[c], csv_columns[c]) != 0)
                    rc = fail(err, errlen, "%s:%ld: column %d is \"%s\", expected \"%s\"", path, ln,
                              c + 1, fields[c], csv_columns[c]);
            if (rc == VINE_OK)
                rc = csv_header_opt(fields, nf, opt, path, ln, err, errlen);
            header = 1;
            continue;
        }
        if (nf != ncols) {
            rc = fail(err, errlen, "%s:%ld: %d fields, expected %d%s", path, ln, nf < 0 ? 0 : nf,
                      ncols, nf < 0 ? " (bad quoting)" : "");
            break;
        }
        vine_bench_row x;
        int col;
        if (csv_fields_to_row(fields, opt, ncols - NCOLS, &x, &col))
            rc = fail(err, errlen, "%s:%ld: bad %s \"%s\"", path, ln, csv_column_name(col, opt),
                      fields[col]);
        else
            rc = vine__bench_results_add(r, &x);
    }
    if (rc == VINE_OK && n == -2)
        rc = VINE_ERR_NO_MEM;
    free(line);
    if (rc == VINE_OK && !header)
        rc = fail(err, errlen, "%s: no header line (not a vine-bench CSV file?)", path);
    if (rc == VINE_OK && ferror(f))
        rc = fail(err, errlen, "%s: read error", path);
    if (rc == VINE_OK && !r->hosts)
        rc = fail(err, errlen, "%s: no \"# ranks:\" line", path);
    for (int i = 0; rc == VINE_OK && i < r->ranks; i++)
        if (!r->hosts[i])
            rc = fail(err, errlen, "%s: no \"# host %d:\" line", path, i);
    return rc;
}

int vine__bench_read_csv(vine_bench_results *r, const char *path, char *err, size_t errlen)
{
    vine__bench_results_init(r);
    FILE *f = fopen(path, "r");
    if (!f)
        return fail(err, errlen, "%s: cannot open: %s", path, strerror(errno));
    int rc = csv_read_all(f, r, path, err, errlen);
    fclose(f);
    if (rc)
        vine__bench_results_free(r);
    return rc;
}

int vine__bench_read(vine_bench_results *r, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        vine__bench_results_init(r);
        return fail(err, errlen, "%s: cannot open: %s", path, strerror(errno));
    }
    int c;
    while ((c = fgetc(f)) == ' ' || c == '\t' || c == '\n' || c == '\r')
        ;
    fclose(f);
    return c == '{' ? vine__bench_read_json(r, path, err, errlen)
                    : vine__bench_read_csv(r, path, err, errlen);
}
