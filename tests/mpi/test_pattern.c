/*
 * MPI test of the pattern benchmarks (include/vine/bench.h,
 * src/bench/pattern_mpi.c) and of `vine-bench pattern` (tools/bench_pattern.c):
 *
 * - every built-in group pattern, direction and a spread of (n, g, k) that
 *   fit the ranks, striping, and the patterns of the sample traffic matrix
 *   and Matrix Market files: each rank's three buffers start with known
 *   bytes, the steps run through the MPI runtime, and every byte of every
 *   buffer must equal a sequential simulation of the messages over all
 *   ranks' buffers (written here, independent of the runtime); striping must
 *   also land rank 0's whole send buffer in rank g's receive buffer;
 * - measure() gives positive, finite times, the same on every rank (timing
 *   values decide nothing else), and the data is still right after it;
 * - vine_bench_add() with raw pointers, concurrent steps, and the errors
 *   (bad ranks, NULL buffers, starting twice, matrices that differ across
 *   ranks, bad sequences);
 * - the subcommand, its JSON read back with jansson and its CSV read back,
 *   and its exit status for bad usage and malformed input;
 * - --nic-bw: the bandwidth models' predictions in the JSON against values
 *   computed by hand, and bad model options refused with exit status 2.
 *
 * VINE_BENCH_DATA names tests/data/bench.
 */
#include "bench_pattern.h"
#include "mpitest.h"
#include "vine/bench.h"

#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *data_dir;

/* The byte buffer b of rank r holds at offset i before any message. */
static unsigned char init_byte(int r, int b, size_t i)
{
    uint32_t x = (uint32_t)r * 0x9E3779B1u + (uint32_t)b * 0x85EBCA77u + (uint32_t)i * 0xC2B2AE3Du;
    x ^= x >> 15;
    x *= 0x2C1B3C6Du;
    x ^= x >> 12;
    return (unsigned char)(x >> 24);
}

static void begin(const char *name, long bytes)
{
    mt_case c = {"pattern", name, "-", "-", bytes, -1, 0};
    mt_begin(&c);
}

/* The largest extent of any buffer of any rank in any step. */
static size_t max_extent(const vine_bench_matrix *steps, int nsteps)
{
    size_t s = 1;
    for (int k = 0; k < nsteps; k++)
        for (size_t i = 0; i < (size_t)steps[k].p * VINE_BENCH_NBUF; i++)
            if (steps[k].extent[i] > s)
                s = steps[k].extent[i];
    return s;
}

/* Every rank's buffers after the steps, done one message at a time. */
static unsigned char *simulate(const vine_bench_matrix *steps, int nsteps, int p, size_t size)
{
    size_t all = (size_t)p * VINE_BENCH_NBUF * size;
    unsigned char *buf = malloc(all), *snap = malloc(all);
    if (!buf || !snap) {
        fprintf(stderr, "test_pattern: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (int r = 0; r < p; r++)
        for (int b = 0; b < VINE_BENCH_NBUF; b++)
            for (size_t i = 0; i < size; i++)
                buf[((size_t)r * VINE_BENCH_NBUF + (size_t)b) * size + i] = init_byte(r, b, i);
    for (int k = 0; k < nsteps; k++) {
        memcpy(snap, buf, all);
        for (size_t i = 0; i < steps[k].count; i++) {
            const vine_bench_msg *x = &steps[k].msgs[i];
            size_t to = ((size_t)x->receiver * VINE_BENCH_NBUF + (size_t)x->recvbuf) * size;
            size_t from = ((size_t)x->sender * VINE_BENCH_NBUF + (size_t)x->sendbuf) * size;
            memcpy(buf + to + x->recvoff, snap + from + x->sendoff, x->bytes);
        }
    }
    free(snap);
    return buf;
}

static void compare(unsigned char *const mine[VINE_BENCH_NBUF], const unsigned char *ref,
                    size_t size, const char *when)
{
    static const char *const names[] = {"send", "recv", "tmp"};
    for (int b = 0; b < VINE_BENCH_NBUF; b++) {
        const unsigned char *want = ref + ((size_t)mt_rank * VINE_BENCH_NBUF + (size_t)b) * size;
        for (size_t i = 0; i < size; i++)
            if (mine[b][i] != want[i]) {
                mt_fail("%s: %s buffer byte %zu is %u, want %u", when, names[b], i, mine[b][i],
                        want[i]);
                break;
            }
    }
}

/* Collective: times must be positive (non-negative for an empty pattern) and the same everywhere.
 */
static void check_times(const double *t, int n, int empty)
{
    for (int i = 0; i < n; i++)
        if (!isfinite(t[i]) || t[i] < 0 || (!empty && t[i] <= 0)) {
            mt_fail("measure: iteration %d took %g s", i, t[i]);
            break;
        }
    double *lo = malloc(sizeof(double) * (size_t)n);
    MPI_Allreduce(t, lo, n, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
    for (int i = 0; i < n; i++)
        if (lo[i] != t[i]) {
            mt_fail("measure: iteration %d differs across ranks (%g here, %g elsewhere)", i, t[i],
                    lo[i]);
            break;
        }
    free(lo);
}

/*
 * Runs steps in mode through the runtime on fresh buffers and compares all
 * three buffers with the simulation; with iters > 0 also measures them and
 * compares again.  Returns this rank's buffers (the caller frees them) via
 * out when out is not NULL.
 */
static void run_case(vine_bench_matrix *steps, int nsteps, int mode, int iters,
                     unsigned char *out[VINE_BENCH_NBUF])
{
    int p = mt_size;
    size_t size = max_extent(steps, nsteps);
    unsigned char *bufs[VINE_BENCH_NBUF];
    void *vb[VINE_BENCH_NBUF];
    for (int b = 0; b < VINE_BENCH_NBUF; b++) {
        bufs[b] = malloc(size);
        for (size_t i = 0; i < size; i++)
            bufs[b][i] = init_byte(mt_rank, b, i);
        vb[b] = bufs[b];
    }
    vine_bench_pattern pats[3];
    for (int k = 0; k < nsteps; k++) {
        mt_check_rc(vine_bench_create(MPI_COMM_WORLD, &pats[k]), "vine_bench_create");
        mt_check_rc(vine_bench_add_matrix(pats[k], &steps[k], vb), "vine_bench_add_matrix");
        const vine_bench_matrix *m;
        vine_bench_get_matrix(pats[k], &m);
        if (m->count != steps[k].count)
            mt_fail("the pattern holds %zu messages, want %zu", m->count, steps[k].count);
    }
    unsigned char *ref = simulate(steps, nsteps, p, size);
    mt_check_rc(vine_bench_run_steps(pats, nsteps, mode), "vine_bench_run_steps");
    compare(bufs, ref, size, "after one run");
    if (iters > 0) {
        double *t = malloc(sizeof(double) * (size_t)iters);
        int empty = 1;
        for (int k = 0; k < nsteps; k++)
            empty = empty && steps[k].count == 0;
        if (mt_check_rc(vine_bench_measure_steps(pats, nsteps, mode, 1, iters, t),
                        "vine_bench_measure_steps"))
            check_times(t, iters, empty);
        free(t);
        compare(bufs, ref, size, "after measure");
    }
    for (int k = 0; k < nsteps; k++)
        mt_check_rc(vine_bench_free(&pats[k]), "vine_bench_free");
    free(ref);
    for (int b = 0; b < VINE_BENCH_NBUF; b++) {
        if (out)
            out[b] = bufs[b];
        else
            free(bufs[b]);
    }
}

static void group_cases(void)
{
    int p = mt_size, shapes[8][2], nshapes = 0;
    int cand[][2] = {{2, p / 2}, {p, 1}, {2, 1}, {1, p}, {3, 2}, {2, 3}, {4, 2}};
    for (size_t i = 0; i < sizeof cand / sizeof cand[0]; i++) {
        int n = cand[i][0], g = cand[i][1], dup = 0;
        if (g < 1 || n * g > p)
            continue;
        for (int j = 0; j < nshapes; j++)
            dup |= shapes[j][0] == n && shapes[j][1] == g;
        if (!dup) {
            shapes[nshapes][0] = n;
            shapes[nshapes++][1] = g;
        }
    }
    for (int kind = 0; kind < 3; kind++)
        for (int dir = 0; dir < 3; dir++) {
            if (kind == VINE_BENCH_ASYMMETRIC && dir == VINE_BENCH_OMNI)
                continue;
            for (int s = 0; s < nshapes; s++) {
                int n = shapes[s][0], g = shapes[s][1];
                for (int k = 1; k <= g; k = k == g ? g + 1 : g) {
                    static const size_t sizes[] = {1, 1000};
                    for (int z = 0; z < 2; z++) {
                        char name[96];
                        snprintf(name, sizeof name, "%s/%s n=%d g=%d k=%d",
                                 vine_bench_group_name(kind), vine_bench_dir_name(dir), n, g, k);
                        begin(name, (long)sizes[z]);
                        vine_bench_matrix m;
                        char err[256];
                        vine_bench_matrix_init(&m, p);
                        if (vine_bench_group_pattern(&m, kind, dir, n, g, k, sizes[z], err,
                                                     sizeof err))
                            mt_fail("generator: %s", err);
                        else
                            run_case(&m, 1, VINE_BENCH_ASYNC, z == 1 && k == g ? 3 : 0, NULL);
                        vine_bench_matrix_free(&m);
                    }
                }
            }
        }
    /* Large messages (the rendezvous protocol), every direction of the rail. */
    if (p >= 2)
        for (int dir = 0; dir < 3; dir++) {
            begin(dir == 0   ? "rail/uni large"
                  : dir == 1 ? "rail/bi large"
                             : "rail/omni large",
                  256 << 10);
            vine_bench_matrix m;
            vine_bench_matrix_init(&m, p);
            vine_bench_group_pattern(&m, VINE_BENCH_RAIL, dir, 2, p / 2, p / 2, 256 << 10, NULL, 0);
            run_case(&m, 1, VINE_BENCH_ASYNC, 2, NULL);
            vine_bench_matrix_free(&m);
        }
}

static void stripe_cases(void)
{
    int p = mt_size;
    if (p < 2)
        return;
    int gs[2] = {1, p / 2};
    static const size_t sizes[] = {10, 100003};
    for (int gi = 0; gi < 2; gi++) {
        int g = gs[gi];
        for (int k = 1; k <= g; k = k == g ? g + 1 : g)
            for (int z = 0; z < 2; z++) {
                char name[64];
                snprintf(name, sizeof name, "stripe g=%d k=%d", g, k);
                begin(name, (long)sizes[z]);
                vine_bench_matrix st[3];
                for (int i = 0; i < 3; i++)
                    vine_bench_matrix_init(&st[i], p);
                char err[256];
                if (vine_bench_stripe_pattern(st, g, k, sizes[z], err, sizeof err)) {
                    mt_fail("generator: %s", err);
                } else {
                    unsigned char *bufs[VINE_BENCH_NBUF];
                    run_case(st, 3, VINE_BENCH_ASYNC, z == 1 ? 3 : 0, bufs);
                    /* End to end: rank g received rank 0's whole message. */
                    if (mt_rank == g)
                        for (size_t i = 0; i < sizes[z]; i++)
                            if (bufs[VINE_BENCH_BUF_RECV][i] !=
                                init_byte(0, VINE_BENCH_BUF_SEND, i)) {
                                mt_fail("stripe: byte %zu of the message is wrong", i);
                                break;
                            }
                    for (int b = 0; b < VINE_BENCH_NBUF; b++)
                        free(bufs[b]);
                }
                for (int i = 0; i < 3; i++)
                    vine_bench_matrix_free(&st[i]);
            }
    }
}

static const char *data_path(const char *name)
{
    static char path[4096];
    snprintf(path, sizeof path, "%s/%s", data_dir, name);
    return path;
}

static void file_cases(void)
{
    int p = mt_size;
    static const struct {
        const char *name;
        size_t elem;
        int min_p;
    } files[] = {{"traffic.csv", 0, 4}, {"spmv.mtx", 8, 1}, {"sym.mtx", 4, 1}, {"rect.mtx", 8, 1}};
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        if (p < files[f].min_p)
            continue;
        begin(files[f].name, (long)files[f].elem);
        vine_bench_matrix m;
        char err[512];
        vine_bench_matrix_init(&m, p);
        int rc = files[f].elem ? vine_bench_read_mtx(&m, data_path(files[f].name), files[f].elem,
                                                     err, sizeof err)
                               : vine_bench_read_csv(&m, data_path(files[f].name), err, sizeof err);
        if (rc) {
            mt_fail("reader: %s", err);
        } else {
            run_case(&m, 1, VINE_BENCH_ASYNC, 3, NULL);
            /* Intra- and inter-group messages (groups of 2) as concurrent steps. */
            begin(files[f].name[0] == 't' ? "traffic.csv intra+inter" : "mtx intra+inter", 0);
            vine_bench_matrix parts[2];
            vine_bench_matrix_init(&parts[0], p);
            vine_bench_matrix_init(&parts[1], p);
            for (size_t i = 0; i < m.count; i++) {
                const vine_bench_msg *x = &m.msgs[i];
                vine_bench_matrix_add(&parts[x->sender / 2 != x->receiver / 2], x->sendbuf,
                                      x->sendoff, x->recvbuf, x->recvoff, x->bytes, x->sender,
                                      x->receiver);
            }
            run_case(parts, 2, VINE_BENCH_CONCURRENT, 3, NULL);
            vine_bench_matrix_free(&parts[0]);
            vine_bench_matrix_free(&parts[1]);
        }
        vine_bench_matrix_free(&m);
    }
}

/* vine_bench_add with the ranks' own pointers: a ring plus a message to self. */
static void raw_add_case(void)
{
    int p = mt_size, me = mt_rank;
    begin("add ring+self", 13);
    unsigned char send[64], recv[64];
    for (int i = 0; i < 64; i++) {
        send[i] = init_byte(me, 0, (size_t)i);
        recv[i] = 0xEE;
    }
    vine_bench_pattern pat;
    mt_check_rc(vine_bench_create(MPI_COMM_WORLD, &pat), "vine_bench_create");
    for (int r = 0; r < p; r++) {
        /* Only the sender's and the receiver's buffers matter: others pass NULL. */
        int involved = r == me || (r + 1) % p == me;
        mt_check_rc(vine_bench_add(pat, involved ? send : NULL, 3, involved ? recv : NULL, 5, 13, r,
                                   (r + 1) % p),
                    "vine_bench_add ring");
        mt_check_rc(
            vine_bench_add(pat, r == me ? send : NULL, 20, r == me ? recv : NULL, 30, 7, r, r),
            "vine_bench_add self");
    }
    const vine_bench_matrix *m;
    vine_bench_get_matrix(pat, &m);
    if (m->count != 2 * (size_t)p)
        mt_fail("the matrix holds %zu messages, want %d", m->count, 2 * p);
    vine_bench_footprint f;
    vine_bench_matrix_footprint(m, me, &f);
    if (f.send_bytes != 20 || f.recv_bytes != 20 || f.send_msgs != 2 || f.recv_msgs != 2)
        mt_fail("footprint %zu/%zu bytes, %zu/%zu messages", f.send_bytes, f.recv_bytes,
                f.send_msgs, f.recv_msgs);
    mt_check_rc(vine_bench_start(pat), "vine_bench_start");
    mt_check_rc(vine_bench_wait(pat), "vine_bench_wait");
    int from = (me + p - 1) % p;
    for (int i = 0; i < 64; i++) {
        /* With one rank the ring message is a second message to self. */
        unsigned char want = 0xEE;
        if (i >= 5 && i < 18)
            want = init_byte(from, 0, (size_t)(i - 5 + 3));
        if (i >= 30 && i < 37)
            want = init_byte(me, 0, (size_t)(i - 30 + 20));
        if (recv[i] != want) {
            mt_fail("recv byte %d is %u, want %u", i, recv[i], want);
            break;
        }
    }
    double t[4];
    if (mt_check_rc(vine_bench_measure(pat, 2, 4, t), "vine_bench_measure"))
        check_times(t, 4, 0);
    mt_check_rc(vine_bench_free(&pat), "vine_bench_free");
    if (pat != NULL)
        mt_fail("vine_bench_free left the handle set");
}

static void expect(int got, int want, const char *what)
{
    if (got != want)
        mt_fail("%s returned %d, want %d", what, got, want);
}

static void error_cases(void)
{
    int p = mt_size, me = mt_rank;
    begin("errors", 0);
    unsigned char buf[16] = {0};
    vine_bench_pattern pat, other;
    expect(vine_bench_create(MPI_COMM_NULL, &pat), MPI_ERR_COMM, "create on MPI_COMM_NULL");
    mt_check_rc(vine_bench_create(MPI_COMM_WORLD, &pat), "vine_bench_create");
    mt_check_rc(vine_bench_create(MPI_COMM_WORLD, &other), "vine_bench_create");
    expect(vine_bench_add(pat, buf, 0, buf, 0, 4, p, 0), MPI_ERR_ARG, "add from rank p");
    expect(vine_bench_add(pat, buf, 0, buf, 0, 4, 0, -1), MPI_ERR_ARG, "add to rank -1");
    expect(vine_bench_add(pat, buf, (size_t)-2, buf, 0, 4, 0, 0), MPI_ERR_ARG, "offset overflow");
    expect(vine_bench_add(pat, NULL, 0, buf, 0, 4, me, 0), MPI_ERR_BUFFER, "NULL send buffer");
    expect(vine_bench_add(pat, buf, 0, NULL, 0, 4, 0, me), MPI_ERR_BUFFER, "NULL recv buffer");
    expect(vine_bench_add(pat, NULL, 0, NULL, 0, 0, 0, 0), MPI_SUCCESS, "0 bytes, no buffers");
    vine_bench_matrix wrong;
    vine_bench_matrix_init(&wrong, p + 1);
    expect(vine_bench_add_matrix(pat, &wrong, NULL), MPI_ERR_ARG, "matrix of p+1 ranks");
    vine_bench_matrix_free(&wrong);
    /* Started twice; added to while started. */
    mt_check_rc(vine_bench_start(pat), "vine_bench_start");
    expect(vine_bench_start(pat), MPI_ERR_PENDING, "second start");
    expect(vine_bench_add(pat, buf, 0, buf, 0, 1, me, me), MPI_ERR_PENDING, "add while started");
    mt_check_rc(vine_bench_wait(pat), "vine_bench_wait");
    mt_check_rc(vine_bench_wait(pat), "second wait");
    /* Bad sequences. */
    double t[2];
    vine_bench_pattern dup[2] = {pat, pat};
    expect(vine_bench_measure_steps(dup, 2, VINE_BENCH_CONCURRENT, 0, 2, t), MPI_ERR_ARG,
           "concurrent with a step twice");
    mt_check_rc(vine_bench_measure_steps(dup, 2, VINE_BENCH_ASYNC, 0, 2, t),
                "async with a step twice");
    expect(vine_bench_measure_steps(dup, 0, VINE_BENCH_ASYNC, 0, 2, t), MPI_ERR_ARG, "no steps");
    expect(vine_bench_measure_steps(dup, 1, 7, 0, 2, t), MPI_ERR_ARG, "mode 7");
    expect(vine_bench_measure(pat, 0, 2, NULL), MPI_ERR_ARG, "no times array");
    expect(vine_bench_measure(pat, -1, 2, t), MPI_ERR_ARG, "negative warmup");
    /* Rank 0 registers one message more than the others: every rank must refuse. */
    if (me == 0)
        mt_check_rc(vine_bench_add(other, buf, 0, buf, 8, 4, 0, 0), "vine_bench_add");
    mt_check_rc(
        vine_bench_add(other, me == 0 ? buf : NULL, 0, me == p - 1 ? buf : NULL, 12, 4, 0, p - 1),
        "vine_bench_add");
    int rc = vine_bench_measure(other, 0, 2, t);
    expect(rc, p > 1 ? MPI_ERR_ARG : MPI_SUCCESS, "measure of differing matrices");
    mt_check_rc(vine_bench_free(&pat), "vine_bench_free");
    mt_check_rc(vine_bench_free(&other), "vine_bench_free");
    expect(vine_bench_free(&pat), MPI_ERR_ARG, "free of NULL");
}

/* Runs the subcommand with the NULL-terminated words; returns its exit status. */
static int run_cli(const char *const *words)
{
    char *argv[32];
    int argc = 0;
    for (; words[argc]; argc++)
        argv[argc] = (char *)words[argc];
    argv[argc] = NULL;
    fflush(stdout);
    int rc = bench_pattern_main(argc, argv);
    fflush(stdout);
    return rc;
}

static const char *jstr(json_t *v)
{
    const char *s = json_string_value(v);
    return s ? s : "";
}

static void check_json(const char *path, int p, const char *row, int iters,
                       const vine_bench_matrix *m)
{
    json_error_t jerr;
    json_t *root = json_load_file(path, 0, &jerr);
    if (!root) {
        mt_fail("%s:%d: %s", path, jerr.line, jerr.text);
        return;
    }
    if (strcmp(jstr(json_object_get(root, "format")), "vine-bench-pattern"))
        mt_fail("json: format");
    if (json_integer_value(json_object_get(root, "ranks")) != p ||
        json_array_size(json_object_get(root, "hosts")) != (size_t)p)
        mt_fail("json: ranks or hosts");
    json_t *step = json_array_get(json_object_get(root, "steps"), 0);
    json_t *mat = json_object_get(step, "matrix");
    vine_bench_pair *pairs = NULL;
    size_t np = 0;
    vine_bench_matrix_pairs(m, &pairs, &np);
    if (json_array_size(mat) != np)
        mt_fail("json: %zu matrix entries, want %zu", json_array_size(mat), np);
    for (size_t i = 0; i < np && i < json_array_size(mat); i++) {
        json_t *e = json_array_get(mat, i);
        if (json_integer_value(json_object_get(e, "sender")) != pairs[i].sender ||
            json_integer_value(json_object_get(e, "receiver")) != pairs[i].receiver ||
            json_integer_value(json_object_get(e, "bytes")) != (json_int_t)pairs[i].bytes)
            mt_fail("json: matrix entry %zu", i);
    }
    free(pairs);
    json_t *fp = json_object_get(step, "footprints");
    for (int r = 0; r < p; r++) {
        vine_bench_footprint f;
        vine_bench_matrix_footprint(m, r, &f);
        json_t *e = json_array_get(fp, (size_t)r);
        if (json_integer_value(json_object_get(e, "send_bytes")) != (json_int_t)f.send_bytes ||
            json_integer_value(json_object_get(e, "recv_messages")) != (json_int_t)f.recv_msgs)
            mt_fail("json: footprint of rank %d", r);
    }
    json_t *r0 = json_array_get(json_object_get(root, "rows"), 0);
    double mn = json_real_value(json_object_get(r0, "min_us")),
           med = json_real_value(json_object_get(r0, "median_us")),
           mean = json_real_value(json_object_get(r0, "mean_us")),
           p99 = json_real_value(json_object_get(r0, "p99_us")),
           mx = json_real_value(json_object_get(r0, "max_us"));
    if (strcmp(jstr(json_object_get(r0, "name")), row) ||
        json_integer_value(json_object_get(r0, "kept")) != iters - iters / 5 ||
        json_integer_value(json_object_get(r0, "dropped")) != iters / 5)
        mt_fail("json: row name or kept/dropped");
    if (!(mn > 0 && mn <= med && med <= mx && mn <= mean && mean <= mx && med <= p99 && p99 <= mx))
        mt_fail("json: statistics out of order: %g %g %g %g %g", mn, med, mean, p99, mx);
    json_t *times = json_object_get(r0, "times_us");
    if (json_array_size(times) != (size_t)iters)
        mt_fail("json: %zu times, want %d", json_array_size(times), iters);
    json_decref(root);
}

static void check_csv(const char *path, const char *row, int iters, int p)
{
    FILE *f = fopen(path, "r");
    char line[1024];
    if (!f) {
        mt_fail("cannot read %s", path);
        return;
    }
    if (!fgets(line, sizeof line, f) ||
        strcmp(line, "pattern,direction,n,g,k,size,ranks,row,mode,messages,bytes,iters,kept,"
                     "min_us,median_us,mean_us,p99_us,max_us,bandwidth_GBps\n"))
        mt_fail("csv: header");
    else if (!fgets(line, sizeof line, f))
        mt_fail("csv: no row");
    else {
        char *fields[32], *save = NULL;
        int n = 0;
        for (char *t = strtok_r(line, ",\n", &save); t && n < 32; t = strtok_r(NULL, ",\n", &save))
            fields[n++] = t;
        if (n != 19 || strcmp(fields[7], row) || atoi(fields[6]) != p ||
            atoi(fields[11]) != iters || atoi(fields[12]) != iters - iters / 5 ||
            !(atof(fields[13]) > 0) || !(atof(fields[13]) <= atof(fields[14])))
            mt_fail("csv: row has %d fields or wrong values", n);
    }
    fclose(f);
}

static void cli_cases(void)
{
    int p = mt_size;
    begin("vine-bench pattern", 4096);
    char json[64], csv[64], gs[16];
    snprintf(json, sizeof json, "/tmp/vine-test-pattern-%d.json", (int)getpid());
    snprintf(csv, sizeof csv, "/tmp/vine-test-pattern-%d.csv", (int)getpid());
    MPI_Bcast(json, sizeof json, MPI_CHAR, 0, MPI_COMM_WORLD);
    MPI_Bcast(csv, sizeof csv, MPI_CHAR, 0, MPI_COMM_WORLD);
    int n = p >= 2 ? 2 : 1, g = p / n;
    snprintf(gs, sizeof gs, "%d", g);
    const char *words[] = {"pattern", "--pattern", "symmetric", "--n",    n == 2 ? "2" : "1",
                           "--g",     gs,          "--dir",     "bi",     "--size",
                           "4KiB",    "--iters",   "10",        "--json", json,
                           "--csv",   csv,         NULL};
    int rc = run_cli(words);
    expect(rc, 0, "vine-bench pattern symmetric");
    if (rc == 0 && mt_rank == 0) {
        vine_bench_matrix m;
        vine_bench_matrix_init(&m, p);
        vine_bench_group_pattern(&m, VINE_BENCH_SYMMETRIC, VINE_BENCH_BI, n, g, g, 4096, NULL, 0);
        if (m.count == 0) {
            /* One rank: an empty pattern still gives a row, with times >= 0. */
            json_error_t jerr;
            json_t *root = json_load_file(json, 0, &jerr);
            if (!root || json_array_size(json_object_get(root, "rows")) != 1)
                mt_fail("json of the empty pattern");
            json_decref(root);
        } else {
            check_json(json, p, "symmetric", 10, &m);
            check_csv(csv, "symmetric", 10, p);
        }
        vine_bench_matrix_free(&m);
    }
    if (mt_rank == 0) {
        remove(json);
        remove(csv);
    }
    begin("vine-bench pattern errors", 0);
    const char *bad_pattern[] = {"pattern", "--pattern", "nope", NULL};
    expect(run_cli(bad_pattern), 2, "unknown pattern");
    const char *bad_k[] = {"pattern", "--pattern", "rail", "--n", "1",
                           "--g",     "1",         "--k",  "2",   NULL};
    expect(run_cli(bad_k), 2, "k > g");
    char file[4200];
    snprintf(file, sizeof file, "csv:%s", data_path("bad-fields.csv"));
    const char *bad_file[] = {"pattern", "--pattern", file, NULL};
    expect(run_cli(bad_file), 2, "malformed csv");
    const char *help[] = {"pattern", "--help", NULL};
    expect(run_cli(help), 0, "--help");
}

/*
 * --nic-bw: the bandwidth models' numbers in the JSON, computed by hand (no
 * timing decides), and bad model options refused with exit status 2.
 */
static void bwmodel_cases(void)
{
    int p = mt_size;
    begin("vine-bench pattern --nic-bw", 0);
    if (p >= 2) {
        char json[64], gs[16];
        snprintf(json, sizeof json, "/tmp/vine-test-bwmodel-%d.json", (int)getpid());
        MPI_Bcast(json, sizeof json, MPI_CHAR, 0, MPI_COMM_WORLD);
        int g = p / 2, k = g >= 2 ? 2 : 1;
        snprintf(gs, sizeof gs, "%d", g);
        /* rail bi, f_NIC = 100Gb/s = 12.5 GB/s, p = 2 ranks per NIC, r = 2 NICs:
         * k = 2: packed 12.5 (one NIC), round-robin 25 (two NICs); x2 for bi: 25, 50.
         * k = 1: 12.5 both; x2: 25, 25. */
        double want_node[2] = {12.5, k == 2 ? 25 : 12.5};
        const char *ks = k == 2 ? "2" : "1";
        const char *words[] = {"pattern", "--pattern", "rail",     "--n",     "2",
                               "--g",     gs,          "--k",      ks,        "--dir",
                               "bi",      "--size",    "1KiB",     "--iters", "5",
                               "--json",  json,        "--nic-bw", "100Gb/s", "--ranks-per-nic",
                               "2",       "--nics",    "2",        NULL};
        int rc = run_cli(words);
        expect(rc, 0, "vine-bench pattern --nic-bw");
        if (rc == 0 && mt_rank == 0) {
            json_error_t jerr;
            json_t *root = json_load_file(json, 0, &jerr);
            json_t *mod = json_object_get(root, "bandwidth_model");
            json_t *row = json_array_get(json_object_get(root, "rows"), 0);
            double got[7] = {json_real_value(json_object_get(mod, "nic_GBps")),
                             json_real_value(json_object_get(mod, "packed_node_GBps")),
                             json_real_value(json_object_get(mod, "round_robin_node_GBps")),
                             json_real_value(json_object_get(mod, "packed_GBps")),
                             json_real_value(json_object_get(mod, "round_robin_GBps")),
                             json_real_value(json_object_get(row, "packed_GBps")),
                             json_real_value(json_object_get(row, "round_robin_GBps"))};
            double want[7] = {12.5,
                              want_node[0],
                              want_node[1],
                              2 * want_node[0],
                              2 * want_node[1],
                              2 * want_node[0],
                              2 * want_node[1]};
            if (!root)
                mt_fail("%s:%d: %s", json, jerr.line, jerr.text);
            for (int i = 0; root && i < 7; i++)
                if (fabs(got[i] - want[i]) > 1e-9)
                    mt_fail("json bandwidth model value %d: %g, want %g", i, got[i], want[i]);
            if (json_integer_value(json_object_get(mod, "ranks_per_nic")) != 2 ||
                json_integer_value(json_object_get(mod, "nics")) != 2 ||
                json_integer_value(json_object_get(mod, "factor")) != 2)
                mt_fail("json bandwidth model parameters");
            json_decref(root);
        }
        if (mt_rank == 0)
            remove(json);
    }
    static const char *const bad[][12] = {
        {"pattern", "--pattern", "rail", "--nic-bw", "0", "--nics", "2", NULL},
        {"pattern", "--pattern", "rail", "--nic-bw", "25GB", "--nics", "2", NULL},
        {"pattern", "--pattern", "rail", "--nic-bw", "-25", "--nics", "2", NULL},
        {"pattern", "--pattern", "rail", "--nic-bw", "25", NULL},
        {"pattern", "--pattern", "rail", "--nics", "2", NULL},
        {"pattern", "--pattern", "rail", "--nic-bw", "25", "--ranks-per-nic", "0", NULL},
        {"pattern", "--pattern", "rail", "--nic-bw", "25", "--nics", "x", NULL},
        {"pattern", "--pattern", "stripe", "--nic-bw", "25", "--nics", "2", NULL},
        {"pattern", "--pattern", "rail", "--n", "1", "--g", "1", "--nic-bw", "25", "--nics", "2",
         NULL},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char what[64];
        snprintf(what, sizeof what, "bad bandwidth model options %zu", i);
        expect(run_cli(bad[i]), 2, what);
    }
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "test_pattern");
    data_dir = getenv("VINE_BENCH_DATA");
    if (!data_dir) {
        if (mt_rank == 0)
            fprintf(stderr, "test_pattern: VINE_BENCH_DATA must name tests/data/bench\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    group_cases();
    stripe_cases();
    file_cases();
    raw_add_case();
    error_cases();
    cli_cases();
    bwmodel_cases();
    return mt_finish();
}
