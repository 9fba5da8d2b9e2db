/*
 * Unit test of the pattern matrices (src/bench/pattern.c), no MPI: every
 * built-in group pattern for small (n, g, k) and each direction against a
 * matrix written out by hand from the definitions of docs/patterns.md
 * (CommBench figures 6 and 7), the packing of buffer offsets, footprints,
 * striping (message by message, and by simulating the three steps), and the
 * CSV and Matrix Market readers on the samples of tests/data/bench, good and
 * malformed (each error must name FILE:LINE).
 *
 *   test_pattern DATA_DIR
 */
#include "check.h"
#include "vine/bench_matrix.h"

#include <stdlib.h>
#include <string.h>

static const char *data_dir;

/*
 * Checks m against rows[s][r] ('1': one message of `bytes` from s to r,
 * '.': none) and that the offsets are packed: each rank's messages occupy
 * consecutive, disjoint regions of its send and receive buffers.
 */
static void check_matrix(const vine_bench_matrix *m, const char *const *rows, size_t bytes,
                         const char *what)
{
    int p = m->p;
    for (int s = 0; s < p; s++)
        for (int r = 0; r < p; r++) {
            size_t want = rows[s][r] == '1' ? bytes : 0, got = vine_bench_matrix_bytes(m, s, r);
            CHECK(got == want, "%s: %d -> %d carries %zu bytes, want %zu", what, s, r, got, want);
        }
    size_t n = 0;
    for (int s = 0; s < p; s++)
        for (int r = 0; r < p; r++)
            n += rows[s][r] == '1';
    CHECK(m->count == n, "%s: %zu messages, want %zu", what, m->count, n);
    /* Packing: the k-th message a rank sends starts at k*bytes; the same for receives. */
    size_t *sent = calloc((size_t)p, sizeof *sent), *recvd = calloc((size_t)p, sizeof *recvd);
    for (size_t i = 0; i < m->count; i++) {
        const vine_bench_msg *x = &m->msgs[i];
        CHECK(x->sendbuf == VINE_BENCH_BUF_SEND && x->recvbuf == VINE_BENCH_BUF_RECV,
              "%s: message %zu names buffers %d, %d", what, i, x->sendbuf, x->recvbuf);
        CHECK(x->sendoff == sent[x->sender] * bytes, "%s: message %zu send offset %zu", what, i,
              x->sendoff);
        CHECK(x->recvoff == recvd[x->receiver] * bytes, "%s: message %zu recv offset %zu", what, i,
              x->recvoff);
        sent[x->sender]++;
        recvd[x->receiver]++;
    }
    for (int q = 0; q < p; q++) {
        vine_bench_footprint f;
        vine_bench_matrix_footprint(m, q, &f);
        CHECK(f.send_msgs == sent[q] && f.recv_msgs == recvd[q], "%s: rank %d footprint msgs", what,
              q);
        CHECK(f.send_bytes == sent[q] * bytes && f.recv_bytes == recvd[q] * bytes,
              "%s: rank %d footprint bytes", what, q);
        CHECK(f.extent[VINE_BENCH_BUF_SEND] == sent[q] * bytes &&
                  f.extent[VINE_BENCH_BUF_RECV] == recvd[q] * bytes &&
                  f.extent[VINE_BENCH_BUF_TMP] == 0,
              "%s: rank %d extents", what, q);
    }
    free(sent);
    free(recvd);
}

/* Builds the group pattern on p ranks and checks it against rows. */
static void group_case(int p, int kind, int dir, int n, int g, int k, const char *const *rows)
{
    char what[96];
    snprintf(what, sizeof what, "%s %s (n=%d, g=%d, k=%d) on %d ranks", vine_bench_group_name(kind),
             vine_bench_dir_name(dir), n, g, k, p);
    vine_bench_matrix m;
    char err[256] = "";
    CHECK(vine_bench_matrix_init(&m, p) == VINE_BENCH_OK, "init");
    int rc = vine_bench_group_pattern(&m, kind, dir, n, g, k, 1000, err, sizeof err);
    CHECK(rc == VINE_BENCH_OK, "%s: %s", what, err);
    if (rc == VINE_BENCH_OK)
        check_matrix(&m, rows, 1000, what);
    vine_bench_matrix_free(&m);
}

static void group_error(int p, int kind, int dir, int n, int g, int k, const char *needle)
{
    vine_bench_matrix m;
    char err[256] = "";
    vine_bench_matrix_init(&m, p);
    int rc = vine_bench_group_pattern(&m, kind, dir, n, g, k, 8, err, sizeof err);
    CHECK(rc == VINE_BENCH_ERR_ARG && strstr(err, needle) && m.count == 0,
          "(n=%d, g=%d, k=%d) on %d: rc %d, message '%s', want '%s'", n, g, k, p, rc, err, needle);
    vine_bench_matrix_free(&m);
}

/* Figure 6: two groups of three ranks. */
static void test_two_groups(void)
{
    enum { R = VINE_BENCH_RAIL, A = VINE_BENCH_ASYMMETRIC, S = VINE_BENCH_SYMMETRIC };
    enum { U = VINE_BENCH_UNI, B = VINE_BENCH_BI, O = VINE_BENCH_OMNI };
    /* rail, k = 1: the plain point-to-point message */
    static const char *rail1[] = {"...1..", "......", "......", "......", "......", "......"};
    static const char *rail2[] = {"...1..", "....1.", "......", "......", "......", "......"};
    static const char *rail3[] = {"...1..", "....1.", ".....1", "......", "......", "......"};
    static const char *rail2bi[] = {"...1..", "....1.", "......", "1.....", ".1....", "......"};
    static const char *asym1[] = {"...111", "......", "......", "......", "......", "......"};
    static const char *asym2[] = {"...111", "...111", "......", "......", "......", "......"};
    static const char *asym2bi[] = {"...111", "...111", "......", "11....", "11....", "11...."};
    static const char *sym2[] = {"...11.", "...11.", "......", "......", "......", "......"};
    static const char *sym3[] = {"...111", "...111", "...111", "......", "......", "......"};
    static const char *sym2bi[] = {"...11.", "...11.", "......", "11....", "11....", "......"};
    group_case(6, R, U, 2, 3, 1, rail1);
    group_case(6, R, U, 2, 3, 2, rail2);
    group_case(6, R, U, 2, 3, 3, rail3);
    group_case(6, R, B, 2, 3, 2, rail2bi);
    group_case(6, R, O, 2, 3, 2, rail2bi); /* two groups: omni is bi */
    group_case(6, A, U, 2, 3, 1, asym1);
    group_case(6, A, U, 2, 3, 2, asym2);
    group_case(6, A, B, 2, 3, 2, asym2bi);
    group_case(6, S, U, 2, 3, 2, sym2);
    group_case(6, S, U, 2, 3, 3, sym3);
    group_case(6, A, U, 2, 3, 3, sym3); /* k = g: asymmetric is symmetric */
    group_case(6, S, B, 2, 3, 2, sym2bi);
    group_case(6, S, O, 2, 3, 2, sym2bi);
}

/* Figure 7: three groups of two ranks, plus one idle rank (p = 7). */
static void test_three_groups(void)
{
    enum { R = VINE_BENCH_RAIL, A = VINE_BENCH_ASYMMETRIC, S = VINE_BENCH_SYMMETRIC };
    enum { U = VINE_BENCH_UNI, B = VINE_BENCH_BI, O = VINE_BENCH_OMNI };
    static const char *rail_u[] = {"..1.1..", "...1.1.", ".......", ".......",
                                   ".......", ".......", "......."};
    static const char *rail_b[] = {"..1.1..", "...1.1.", "1......", ".1.....",
                                   "1......", ".1.....", "......."};
    static const char *rail_o[] = {"..1.1..", "...1.1.", "1...1..", ".1...1.",
                                   "1.1....", ".1.1...", "......."};
    static const char *rail_o1[] = {"..1.1..", ".......", "1...1..", ".......",
                                    "1.1....", ".......", "......."};
    static const char *sym_u[] = {"..1111.", "..1111.", ".......", ".......",
                                  ".......", ".......", "......."};
    static const char *sym_b[] = {"..1111.", "..1111.", "11.....", "11.....",
                                  "11.....", "11.....", "......."};
    static const char *sym_o[] = {"..1111.", "..1111.", "11..11.", "11..11.",
                                  "1111...", "1111...", "......."};
    static const char *sym_o1[] = {"..1.1..", ".......", "1...1..", ".......",
                                   "1.1....", ".......", "......."};
    static const char *asym_u[] = {"..1111.", ".......", ".......", ".......",
                                   ".......", ".......", "......."};
    static const char *asym_b[] = {"..1111.", ".......", "1......", "1......",
                                   "1......", "1......", "......."};
    group_case(7, R, U, 3, 2, 2, rail_u);
    group_case(7, R, B, 3, 2, 2, rail_b);
    group_case(7, R, O, 3, 2, 2, rail_o);
    group_case(7, R, O, 3, 2, 1, rail_o1);
    group_case(7, S, U, 3, 2, 2, sym_u);
    group_case(7, S, B, 3, 2, 2, sym_b);
    group_case(7, S, O, 3, 2, 2, sym_o);
    group_case(7, S, O, 3, 2, 1, sym_o1); /* k = 1: symmetric is rail */
    group_case(7, A, U, 3, 2, 1, asym_u);
    group_case(7, A, B, 3, 2, 1, asym_b);
}

/* Degenerate shapes and rejected parameters. */
static void test_group_edges(void)
{
    static const char *none2[] = {"..", ".."};
    static const char *pair[] = {".1", "1."};
    /* One group: no other group to talk to. */
    group_case(2, VINE_BENCH_RAIL, VINE_BENCH_UNI, 1, 2, 2, none2);
    group_case(2, VINE_BENCH_SYMMETRIC, VINE_BENCH_OMNI, 1, 2, 2, none2);
    /* Groups of one rank. */
    group_case(2, VINE_BENCH_RAIL, VINE_BENCH_BI, 2, 1, 1, pair);
    group_case(2, VINE_BENCH_ASYMMETRIC, VINE_BENCH_BI, 2, 1, 1, pair);
    group_error(6, VINE_BENCH_RAIL, VINE_BENCH_UNI, 2, 3, 4, "k must");
    group_error(6, VINE_BENCH_RAIL, VINE_BENCH_UNI, 2, 3, 0, "k must");
    group_error(5, VINE_BENCH_RAIL, VINE_BENCH_UNI, 2, 3, 1, "only 5");
    group_error(6, VINE_BENCH_RAIL, VINE_BENCH_UNI, 0, 3, 1, "at least 1");
    group_error(6, VINE_BENCH_ASYMMETRIC, VINE_BENCH_OMNI, 2, 3, 1, "omnidirectional");
    group_error(6, 7, VINE_BENCH_UNI, 2, 3, 1, "unknown group");
    group_error(6, VINE_BENCH_RAIL, 9, 2, 3, 1, "unknown direction");

    /* A self message counts on both sides of the footprint. */
    vine_bench_matrix m;
    vine_bench_matrix_init(&m, 3);
    vine_bench_matrix_add_packed(&m, 5, 1, 1);
    vine_bench_matrix_add_packed(&m, 7, 1, 2);
    vine_bench_footprint f;
    vine_bench_matrix_footprint(&m, 1, &f);
    CHECK(f.send_bytes == 12 && f.send_msgs == 2 && f.recv_bytes == 5 && f.recv_msgs == 1 &&
              f.extent[VINE_BENCH_BUF_SEND] == 12 && f.extent[VINE_BENCH_BUF_RECV] == 5,
          "self message footprint");
    CHECK(vine_bench_matrix_add(&m, 0, 0, 1, 0, 1, 3, 0) == VINE_BENCH_ERR_ARG, "rank 3 of 3");
    CHECK(vine_bench_matrix_add(&m, 3, 0, 1, 0, 1, 0, 0) == VINE_BENCH_ERR_ARG, "buffer 3");
    CHECK(vine_bench_matrix_add(&m, 0, (size_t)-2, 1, 0, 5, 0, 0) == VINE_BENCH_ERR_ARG,
          "offset overflow");
    CHECK(vine_bench_matrix_total(&m) == 12, "total");
    vine_bench_matrix_free(&m);
    CHECK(vine_bench_matrix_init(&m, 0) == VINE_BENCH_ERR_ARG, "p = 0");
    CHECK(vine_bench_group_from_name("symmetric") == VINE_BENCH_SYMMETRIC &&
              vine_bench_group_from_name("fan") == -1 &&
              vine_bench_dir_from_name("omni") == VINE_BENCH_OMNI,
          "names");
}

/* Simulates steps on p ranks' buffers of `size` bytes each: the bytes each message carries. */
static unsigned char *simulate(const vine_bench_matrix *steps, int nsteps, int p, size_t size)
{
    size_t all = (size_t)p * VINE_BENCH_NBUF * size;
    unsigned char *buf = malloc(all), *snap = malloc(all);
    for (size_t i = 0; i < all; i++)
        buf[i] = (unsigned char)(i * 37 + 11);
    for (int s = 0; s < nsteps; s++) {
        memcpy(snap, buf, all);
        for (size_t i = 0; i < steps[s].count; i++) {
            const vine_bench_msg *x = &steps[s].msgs[i];
            memcpy(buf + ((size_t)x->receiver * VINE_BENCH_NBUF + (size_t)x->recvbuf) * size +
                       x->recvoff,
                   snap + ((size_t)x->sender * VINE_BENCH_NBUF + (size_t)x->sendbuf) * size +
                       x->sendoff,
                   x->bytes);
        }
    }
    free(snap);
    return buf;
}

static int has_msg(const vine_bench_matrix *m, int s, int sb, size_t so, int r, int rb, size_t ro,
                   size_t bytes)
{
    for (size_t i = 0; i < m->count; i++) {
        const vine_bench_msg *x = &m->msgs[i];
        if (x->sender == s && x->sendbuf == sb && x->sendoff == so && x->receiver == r &&
            x->recvbuf == rb && x->recvoff == ro && x->bytes == bytes)
            return 1;
    }
    return 0;
}

static void test_stripe(void)
{
    enum { SND = VINE_BENCH_BUF_SEND, RCV = VINE_BENCH_BUF_RECV, TMP = VINE_BENCH_BUF_TMP };
    vine_bench_matrix st[3];
    char err[256] = "";
    for (int i = 0; i < 3; i++)
        vine_bench_matrix_init(&st[i], 7);
    /* g = 3, k = 3, 10 bytes: stripes [0,3), [3,6), [6,10). */
    int rc = vine_bench_stripe_pattern(st, 3, 3, 10, err, sizeof err);
    CHECK(rc == VINE_BENCH_OK, "stripe: %s", err);
    CHECK(st[0].count == 2 && has_msg(&st[0], 0, SND, 3, 1, TMP, 0, 3) &&
              has_msg(&st[0], 0, SND, 6, 2, TMP, 0, 4),
          "stripe split");
    CHECK(st[1].count == 3 && has_msg(&st[1], 0, SND, 0, 3, RCV, 0, 3) &&
              has_msg(&st[1], 1, TMP, 0, 4, TMP, 0, 3) && has_msg(&st[1], 2, TMP, 0, 5, TMP, 0, 4),
          "stripe translate");
    CHECK(st[2].count == 2 && has_msg(&st[2], 4, TMP, 0, 3, RCV, 3, 3) &&
              has_msg(&st[2], 5, TMP, 0, 3, RCV, 6, 4),
          "stripe assemble");
    unsigned char *b = simulate(st, 3, 7, 16);
    /* Rank 3's receive buffer now holds rank 0's send buffer. */
    size_t size = 16;
    CHECK(memcmp(b + (3 * VINE_BENCH_NBUF + RCV) * size, b + (0 * VINE_BENCH_NBUF + SND) * size,
                 10) == 0,
          "stripe delivers the message");
    free(b);
    vine_bench_footprint f;
    vine_bench_matrix_footprint(&st[0], 0, &f);
    CHECK(f.send_bytes == 7 && f.extent[SND] == 10, "stripe split footprint of rank 0");
    /* k = 1: the direct message only; g = 2 on 3 ranks is too many. */
    for (int i = 0; i < 3; i++)
        vine_bench_matrix_clear(&st[i]);
    rc = vine_bench_stripe_pattern(st, 3, 1, 10, err, sizeof err);
    CHECK(rc == VINE_BENCH_OK && st[0].count == 0 && st[1].count == 1 && st[2].count == 0 &&
              has_msg(&st[1], 0, SND, 0, 3, RCV, 0, 10),
          "stripe k = 1");
    rc = vine_bench_stripe_pattern(st, 4, 2, 10, err, sizeof err);
    CHECK(rc == VINE_BENCH_ERR_ARG && strstr(err, "two nodes"), "stripe on too few ranks: %s", err);
    rc = vine_bench_stripe_pattern(st, 3, 4, 10, err, sizeof err);
    CHECK(rc == VINE_BENCH_ERR_ARG, "stripe k > g");
    for (int i = 0; i < 3; i++)
        vine_bench_matrix_free(&st[i]);
    /* More stripes than bytes: empty stripes, still delivered. */
    for (int i = 0; i < 3; i++)
        vine_bench_matrix_init(&st[i], 8);
    rc = vine_bench_stripe_pattern(st, 4, 4, 3, err, sizeof err);
    b = simulate(st, 3, 8, 4);
    CHECK(rc == VINE_BENCH_OK && memcmp(b + (4 * VINE_BENCH_NBUF + RCV) * 4, b + SND * 4, 3) == 0,
          "stripe of 3 bytes over 4 ranks");
    free(b);
    for (int i = 0; i < 3; i++)
        vine_bench_matrix_free(&st[i]);
}

static char *path_of(const char *name)
{
    static char path[4096];
    snprintf(path, sizeof path, "%s/%s", data_dir, name);
    return path;
}

/* Messages as "s>r:bytes@sendoff/recvoff" joined by spaces. */
static void describe(const vine_bench_matrix *m, char *out, size_t len)
{
    size_t used = 0;
    out[0] = '\0';
    for (size_t i = 0; i < m->count && used < len; i++) {
        const vine_bench_msg *x = &m->msgs[i];
        used += (size_t)snprintf(out + used, len - used, "%s%d>%d:%zu@%zu/%zu", i ? " " : "",
                                 x->sender, x->receiver, x->bytes, x->sendoff, x->recvoff);
    }
}

static void read_ok(int mtx, const char *name, int p, size_t elem, const char *want)
{
    vine_bench_matrix m;
    char err[512] = "", got[1024];
    vine_bench_matrix_init(&m, p);
    int rc = mtx ? vine_bench_read_mtx(&m, path_of(name), elem, err, sizeof err)
                 : vine_bench_read_csv(&m, path_of(name), err, sizeof err);
    CHECK(rc == VINE_BENCH_OK, "%s on %d ranks: %s", name, p, err);
    describe(&m, got, sizeof got);
    CHECK(strcmp(got, want) == 0, "%s on %d ranks:\n  got  %s\n  want %s", name, p, got, want);
    vine_bench_matrix_free(&m);
}

/* The reader must fail with "NAME:LINE:" in its message and add nothing. */
static void read_bad(int mtx, const char *name, int p, int line, int want_rc)
{
    vine_bench_matrix m;
    char err[512] = "", needle[128];
    vine_bench_matrix_init(&m, p);
    int rc = mtx ? vine_bench_read_mtx(&m, path_of(name), 8, err, sizeof err)
                 : vine_bench_read_csv(&m, path_of(name), err, sizeof err);
    if (line > 0)
        snprintf(needle, sizeof needle, "%s:%d: ", name, line);
    else
        snprintf(needle, sizeof needle, "%s: ", name);
    CHECK(rc == want_rc && strstr(err, needle) && m.count == 0,
          "%s: rc %d (want %d), message '%s' lacks '%s'", name, rc, want_rc, err, needle);
    vine_bench_matrix_free(&m);
}

static void test_readers(void)
{
    /* traffic.csv: header, comment, blank line, spaces; packed in file order. */
    read_ok(0, "traffic.csv", 4, 0,
            "0>1:100@0/0 1>0:50@0/0 0>1:25@100/100 2>3:0@0/0 3>3:8@0/0 3>0:4096@8/50");
    vine_bench_matrix m;
    vine_bench_matrix_init(&m, 4);
    CHECK(vine_bench_read_csv(&m, path_of("traffic.csv"), NULL, 0) == VINE_BENCH_OK, "traffic.csv");
    vine_bench_pair *pairs = NULL;
    size_t np = 0;
    CHECK(m.count == 6, "traffic.csv: %zu messages", m.count);
    CHECK(vine_bench_matrix_pairs(&m, &pairs, &np) == VINE_BENCH_OK && np == 5, "pairs");
    if (np == 5) {
        CHECK(pairs[0].sender == 0 && pairs[0].receiver == 1 && pairs[0].bytes == 125 &&
                  pairs[0].msgs == 2,
              "pair 0>1");
        CHECK(pairs[1].sender == 1 && pairs[1].receiver == 0 && pairs[1].bytes == 50, "pair 1>0");
        CHECK(pairs[2].sender == 2 && pairs[2].receiver == 3 && pairs[2].bytes == 0 &&
                  pairs[2].msgs == 1,
              "pair 2>3");
        CHECK(pairs[3].sender == 3 && pairs[3].receiver == 0 && pairs[3].bytes == 4096, "pair 3>0");
        CHECK(pairs[4].sender == 3 && pairs[4].receiver == 3 && pairs[4].bytes == 8, "pair 3>3");
    }
    free(pairs);
    vine_bench_footprint f;
    vine_bench_matrix_footprint(&m, 3, &f);
    CHECK(f.send_bytes == 4104 && f.send_msgs == 2 && f.recv_bytes == 8 && f.recv_msgs == 2 &&
              f.extent[VINE_BENCH_BUF_SEND] == 4104 && f.extent[VINE_BENCH_BUF_RECV] == 8,
          "traffic footprint of rank 3");
    vine_bench_matrix_free(&m);
    read_bad(0, "bad-fields.csv", 4, 4, VINE_BENCH_ERR_ARG);
    read_bad(0, "bad-rank.csv", 4, 2, VINE_BENCH_ERR_ARG);
    read_bad(0, "bad-negative.csv", 4, 2, VINE_BENCH_ERR_ARG);
    read_bad(0, "bad-number.csv", 4, 3, VINE_BENCH_ERR_ARG);
    read_bad(0, "bad-fraction.csv", 4, 2, VINE_BENCH_ERR_ARG);
    read_bad(0, "no-such-file.csv", 4, 0, VINE_BENCH_ERR_FILE);
    /* bad-rank.csv is fine on 5 ranks. */
    read_ok(0, "bad-rank.csv", 5, 0, "0>1:100@0/0 1>4:10@0/0");

    /*
     * spmv.mtx (6 x 6) on 3 ranks: rows and x entries 0-1, 2-3, 4-5.  Rank 0
     * needs x2 (rank 1) and x4, x5 (rank 2); rank 1 needs x0, x1 (rank 0);
     * rank 2 needs x0 (rank 0, twice) and x3 (rank 1).
     */
    read_ok(1, "spmv.mtx", 3, 8, "0>1:16@0/0 0>2:8@16/0 1>0:8@0/0 1>2:8@8/8 2>0:16@0/8");
    /* On 2 ranks (rows 0-2, 3-5): rank 0 needs x4, x5; rank 1 needs x0, x1. */
    read_ok(1, "spmv.mtx", 2, 8, "0>1:16@0/0 1>0:16@0/0");
    read_ok(1, "spmv.mtx", 1, 8, "");
    /*
     * On 8 ranks: block starts floor(6r/8) = 0 0 1 2 3 3 4 5, so rows 0..5
     * belong to ranks 1, 2, 3, 5, 6, 7 and ranks 0 and 4 own nothing.
     * Needs (needer < owner of x): r1: x2 (3); r2: x4 (6), x5 (7); r5: x0,
     * x1 (1, 2); r6: x0 (1); r7: x0 (1), x3 (5).
     */
    read_ok(1, "spmv.mtx", 8, 4,
            "1>5:4@0/0 1>6:4@4/0 1>7:4@8/0 2>5:4@0/4 3>1:4@0/0 5>7:4@0/4 6>2:4@0/0 7>2:4@0/4");
    /* sym.mtx: (3,1) and (4,2) mirrored; on 2 ranks each needs both of the other's. */
    read_ok(1, "sym.mtx", 2, 4, "0>1:8@0/0 1>0:8@0/0");
    /* rect.mtx, 2 x 4: rows 0 | 1, columns 0-1 | 2-3. */
    read_ok(1, "rect.mtx", 2, 8, "0>1:16@0/0 1>0:8@0/0");
    read_bad(1, "bad-banner.mtx", 2, 1, VINE_BENCH_ERR_ARG);
    read_bad(1, "bad-array.mtx", 2, 1, VINE_BENCH_ERR_ARG);
    read_bad(1, "bad-size.mtx", 2, 3, VINE_BENCH_ERR_ARG);
    read_bad(1, "bad-index.mtx", 2, 4, VINE_BENCH_ERR_ARG);
    read_bad(1, "bad-value.mtx", 2, 4, VINE_BENCH_ERR_ARG);
    read_bad(1, "bad-short.mtx", 2, 4, VINE_BENCH_ERR_ARG);
    read_bad(1, "bad-long.mtx", 2, 4, VINE_BENCH_ERR_ARG);
    read_bad(1, "bad-symrect.mtx", 2, 2, VINE_BENCH_ERR_ARG);
    read_bad(1, "bad-entry.mtx", 2, 4, VINE_BENCH_ERR_ARG);
    read_bad(1, "traffic.csv", 2, 1, VINE_BENCH_ERR_ARG);
    read_bad(1, "no-such-file.mtx", 2, 0, VINE_BENCH_ERR_FILE);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_pattern DATA_DIR\n");
        return 2;
    }
    data_dir = argv[1];
    test_two_groups();
    test_three_groups();
    test_group_edges();
    test_stripe();
    test_readers();
    printf("test_pattern: %ld checks, %ld failed\n", checks, failures);
    return failures > 0;
}
