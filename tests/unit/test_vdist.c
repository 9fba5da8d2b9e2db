/*
 * Unit test of the count distributions of the v collectives (src/coll/vdist.c,
 * no MPI):
 *
 *   - malformed specs and files are refused with a message (the file's name
 *     and line for a bad number);
 *   - the blocks of every kind against values worked out by hand: uniform,
 *     skew (rank 0 and, for alltoallv, what rank 0 sends), zipf with S = 0
 *     and S = 1 on 4 ranks (192, 96, 64, 48 of 400), zipf sums near N p,
 *     random within 0 .. 2N, reproducible, with a mean near N, files of p
 *     and p x p numbers with comments;
 *   - vine__vdist_check on file lengths and on rows past 2^60;
 *   - the tables of every v collective: the blocks in the right table and
 *     row, packed displacements, the fields of the other side NULL, and the
 *     verifier proving every algorithm of the collective on them;
 *   - the simulator refuses a v case without tables, and with them moves
 *     exactly the off-diagonal blocks of an alltoallv.
 * Prints "vdist: N checks, M failed".
 */
#include "check.h"
#include "coll/coll.h"
#include "coll/vdist.h"
#include "sched/verify.h"
#include "sim/sim_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tmpdir[256];

/* Writes text to a file of the test's directory; returns its path (static). */
static const char *write_file(const char *name, const char *text)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
        CHECK(0, "cannot write %s", path);
        return path;
    }
    return path;
}

/* Parses spec and expects a refusal whose message contains want. */
static void expect_bad(const char *spec, const char *want)
{
    vine_vdist d;
    char err[512] = "";
    int rc = vine__vdist_parse(spec, &d, err, sizeof err);
    CHECK(rc == VINE_ERR_UNSUPPORTED, "'%s': status %d, want unsupported", spec, rc);
    CHECK(strstr(err, want) != NULL, "'%s': message '%s' lacks '%s'", spec, err, want);
    CHECK(d.table == NULL && d.ntable == 0, "'%s': a refused spec left a table", spec);
}

static void test_parse_errors(void)
{
    expect_bad("", "not a distribution");
    expect_bad("uniform", "not a distribution");
    expect_bad("gauss:10", "not a distribution");
    expect_bad("Uniform:10", "not a distribution");
    expect_bad("uniform:", "N is not an integer");
    expect_bad("uniform:-1", "N is not an integer");
    expect_bad("uniform:+1", "N is not an integer");
    expect_bad("uniform:10x", "N is not an integer");
    expect_bad("uniform: 10", "N is not an integer");
    expect_bad("uniform:1125899906842625", "N is not an integer"); /* 2^50 + 1 */
    expect_bad("uniform:10,2", "wrong number of fields");
    expect_bad("skew:10", "wrong number of fields");
    expect_bad("skew:10,2,3", "wrong number of fields");
    expect_bad("skew:10,0", "F is not an integer");
    expect_bad("skew:10,1.5", "F is not an integer");
    expect_bad("skew:1048576,1099511627776", "F is not an integer"); /* F N = 2^60 */
    expect_bad("zipf:10,", "S is not a real number");
    expect_bad("zipf:10,-1", "S is not a real number");
    expect_bad("zipf:10,nan", "S is not a real number");
    expect_bad("zipf:10,inf", "S is not a real number");
    expect_bad("zipf:10,1.1x", "S is not a real number");
    expect_bad("zipf:,1.1", "N is not an integer");
    expect_bad("random:10", "wrong number of fields");
    expect_bad("random:10,x", "SEED is not an integer");
    expect_bad("random:10,18446744073709551616", "SEED is not an integer"); /* 2^64 */
    expect_bad("file:", "needs a path");
    char missing[600];
    snprintf(missing, sizeof missing, "file:%s/no-such-file", tmpdir);
    expect_bad(missing, "cannot open");
    char spec[600];
    snprintf(spec, sizeof spec, "file:%s", write_file("bad.txt", "1 2\n# fine\n3 x4 5\n"));
    expect_bad(spec, "bad.txt:3: 'x4' is not an integer");
    snprintf(spec, sizeof spec, "file:%s", write_file("neg.txt", "1 -2\n"));
    expect_bad(spec, "neg.txt:1: '-2'");
    snprintf(spec, sizeof spec, "file:%s", write_file("empty.txt", "# nothing\n\n  # here\n"));
    expect_bad(spec, "no numbers");
}

/* Parses a spec that must be good. */
static int parse_ok(const char *spec, vine_vdist *d)
{
    char err[512] = "";
    int rc = vine__vdist_parse(spec, d, err, sizeof err);
    CHECK(rc == VINE_OK, "'%s': status %d: %s", spec, rc, err);
    return rc;
}

static void test_simple_kinds(void)
{
    vine_vdist d;
    if (parse_ok("uniform:37", &d) == VINE_OK) {
        CHECK(d.kind == VINE_VD_UNIFORM && d.n == 37, "uniform:37 parsed as %d %zu", d.kind, d.n);
        for (int i = 0; i < 5; i++)
            CHECK(vine__vdist_block(&d, 5, i, 0, 0) == 37 &&
                      vine__vdist_block(&d, 5, i, 4 - i, 1) == 37,
                  "uniform:37 rank %d", i);
        CHECK(vine__vdist_block(&d, 5, 5, 0, 0) == 0, "a rank past p has a block");
        vine__vdist_free(&d);
    }
    if (parse_ok("uniform:0", &d) == VINE_OK) {
        CHECK(vine__vdist_block(&d, 3, 1, 2, 1) == 0, "uniform:0 has a block");
        vine__vdist_free(&d);
    }
    if (parse_ok("skew:100,7", &d) == VINE_OK) {
        CHECK(d.kind == VINE_VD_SKEW && d.n == 100 && d.f == 7, "skew:100,7 parsed wrong");
        CHECK(vine__vdist_block(&d, 4, 0, 0, 0) == 700, "skew rank 0");
        for (int i = 1; i < 4; i++)
            CHECK(vine__vdist_block(&d, 4, i, 0, 0) == 100, "skew rank %d", i);
        for (int j = 0; j < 4; j++) {
            CHECK(vine__vdist_block(&d, 4, 0, j, 1) == 700, "skew a2a 0 -> %d", j);
            CHECK(vine__vdist_block(&d, 4, 2, j, 1) == 100, "skew a2a 2 -> %d", j);
        }
        vine__vdist_free(&d);
    }
}

static void test_zipf(void)
{
    vine_vdist d;
    if (parse_ok("zipf:100,0", &d) == VINE_OK) {
        for (int i = 0; i < 7; i++)
            CHECK(vine__vdist_block(&d, 7, i, 0, 0) == 100, "zipf S=0 rank %d", i);
        vine__vdist_free(&d);
    }
    /* S = 1, p = 4: H = 25/12, rank k's block 400 * 12 / 25 / (k + 1). */
    static const size_t want[4] = {192, 96, 64, 48};
    if (parse_ok("zipf:100,1", &d) == VINE_OK) {
        for (int i = 0; i < 4; i++)
            CHECK(vine__vdist_block(&d, 4, i, 0, 0) == want[i], "zipf:100,1 rank %d: %zu", i,
                  vine__vdist_block(&d, 4, i, 0, 0));
        /* Prepared for p = 4, and then for 5: the same blocks as computed each time. */
        vine_vdist q = d;
        vine__vdist_prepare(&q, 4);
        CHECK(q.zipf_p == 4, "prepare kept no H");
        for (int i = 0; i < 4; i++)
            CHECK(vine__vdist_block(&q, 4, i, 0, 0) == want[i], "prepared zipf rank %d", i);
        CHECK(vine__vdist_block(&q, 5, 0, 0, 0) == vine__vdist_block(&d, 5, 0, 0, 0),
              "zipf prepared for 4 used for 5");
        /* alltoallv: block i -> j is that of (i - j) mod p. */
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++)
                CHECK(vine__vdist_block(&d, 4, i, j, 1) == want[(i - j + 4) % 4],
                      "zipf:100,1 a2a %d -> %d", i, j);
        vine__vdist_free(&d);
    }
    /* The blocks add up to N p within the rounding (p / 2). */
    static const char *const specs[] = {"zipf:1024,1.1", "zipf:1000,0.5", "zipf:77,2.5"};
    for (int k = 0; k < 3; k++) {
        if (parse_ok(specs[k], &d) != VINE_OK)
            continue;
        for (int p = 1; p <= 200; p += 13) {
            size_t sum = 0, prev = (size_t)-1;
            int sorted = 1;
            for (int i = 0; i < p; i++) {
                size_t b = vine__vdist_block(&d, p, i, 0, 0);
                sum += b;
                sorted &= b <= prev;
                prev = b;
            }
            size_t np = d.n * (size_t)p;
            CHECK(sum + (size_t)p / 2 + 1 >= np && sum <= np + (size_t)p / 2 + 1,
                  "%s, p %d: sum %zu, want about %zu", specs[k], p, sum, np);
            CHECK(sorted, "%s, p %d: blocks not decreasing", specs[k], p);
        }
        vine__vdist_free(&d);
    }
}

static void test_random(void)
{
    vine_vdist d, e;
    if (parse_ok("random:50,7", &d) != VINE_OK)
        return;
    CHECK(d.kind == VINE_VD_RANDOM && d.n == 50 && d.seed == 7, "random:50,7 parsed wrong");
    if (parse_ok("random:50,8", &e) != VINE_OK) {
        vine__vdist_free(&d);
        return;
    }
    size_t sum = 0, differ = 0, lo = 100, hi = 0;
    int p = 1000;
    for (int i = 0; i < p; i++) {
        size_t b = vine__vdist_block(&d, p, i, 0, 0);
        sum += b;
        lo = b < lo ? b : lo;
        hi = b > hi ? b : hi;
        differ += b != vine__vdist_block(&e, p, i, 0, 0);
        /* The same whatever p. */
        CHECK(i >= 10 || b == vine__vdist_block(&d, 10, i, 0, 0), "random depends on p");
    }
    CHECK(hi <= 100, "random:50 block %zu above 2N", hi);
    CHECK(lo < 10 && hi > 90, "random:50 spans only %zu .. %zu", lo, hi);
    CHECK(sum > 45 * (size_t)p && sum < 55 * (size_t)p, "random:50 mean %zu / %d", sum, p);
    CHECK(differ > (size_t)p / 2, "seeds 7 and 8 agree on %zu of %d", p - differ, p);
    CHECK(vine__vdist_block(&d, 9, 3, 5, 1) != vine__vdist_block(&d, 9, 5, 3, 1) ||
              vine__vdist_block(&d, 9, 3, 6, 1) != vine__vdist_block(&d, 9, 6, 3, 1),
          "random a2a blocks symmetric");
    vine__vdist_free(&d);
    vine__vdist_free(&e);
}

static void test_file(void)
{
    char spec[600], err[512];
    vine_vdist d;
    snprintf(spec, sizeof spec, "file:%s",
             write_file("four.txt", "# blocks of 4 ranks\n5 0\t7 # two\n\n1125899906842624\n"));
    if (parse_ok(spec, &d) == VINE_OK) {
        CHECK(d.kind == VINE_VD_FILE && d.ntable == 4 && d.square, "four.txt: %zu numbers",
              d.ntable);
        static const size_t want[4] = {5, 0, 7, (size_t)1 << 50};
        CHECK(vine__vdist_check(&d, 4, 0, err, sizeof err) == VINE_OK, "four.txt p 4: %s", err);
        for (int i = 0; i < 4; i++) {
            CHECK(vine__vdist_block(&d, 4, i, 0, 0) == want[i], "four.txt rank %d", i);
            for (int j = 0; j < 4; j++) /* p numbers for alltoallv: what rank i sends to all */
                CHECK(vine__vdist_block(&d, 4, i, j, 1) == want[i], "four.txt a2a %d -> %d", i, j);
        }
        /* 4 = 2 x 2: also the table of an alltoallv of 2 ranks. */
        CHECK(vine__vdist_check(&d, 2, 1, err, sizeof err) == VINE_OK, "four.txt a2a p 2: %s", err);
        CHECK(vine__vdist_block(&d, 2, 1, 0, 1) == 7, "four.txt a2a p 2: 1 -> 0");
        CHECK(vine__vdist_check(&d, 3, 0, err, sizeof err) == VINE_ERR_UNSUPPORTED &&
                  strstr(err, "the file has 4 numbers; 3 ranks need 3, one per rank"),
              "four.txt p 3: '%s'", err);
        CHECK(vine__vdist_check(&d, 3, 1, err, sizeof err) == VINE_ERR_UNSUPPORTED &&
                  strstr(err, "3 ranks need 3 (one per sending rank) or 9 (a p x p table); it "
                              "is the table of 2 ranks"),
              "four.txt a2a p 3: '%s'", err);
        CHECK(vine__vdist_block(&d, 3, 0, 0, 0) == 0, "a block for a p the file does not fit");
        vine__vdist_free(&d);
    }
    snprintf(spec, sizeof spec, "file:%s", write_file("nine.txt", "0 1 2\n3 4 5\n6 7 8\n"));
    if (parse_ok(spec, &d) == VINE_OK) {
        CHECK(d.ntable == 9 && d.square, "nine.txt: %zu numbers, square %d", d.ntable, d.square);
        CHECK(vine__vdist_check(&d, 3, 1, err, sizeof err) == VINE_OK, "nine.txt a2a p 3: %s", err);
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++)
                CHECK(vine__vdist_block(&d, 3, i, j, 1) == (size_t)(3 * i + j), "nine %d -> %d", i,
                      j);
        CHECK(vine__vdist_check(&d, 3, 0, err, sizeof err) == VINE_ERR_UNSUPPORTED,
              "a p x p file for allgatherv");
        CHECK(vine__vdist_check(&d, 9, 0, err, sizeof err) == VINE_OK, "nine.txt p 9: %s", err);
        CHECK(vine__vdist_check(&d, 4, 1, err, sizeof err) == VINE_ERR_UNSUPPORTED &&
                  strstr(err, "4 ranks need 4 (one per sending rank) or 16") &&
                  strstr(err, "it is the table of 3 ranks"),
              "nine.txt a2a p 4: '%s'", err);
        CHECK(vine__vdist_check(&d, 4, 0, err, sizeof err) == VINE_ERR_UNSUPPORTED &&
                  strstr(err, "table of") == NULL,
              "nine.txt p 4 (no a2a) speaks of tables: '%s'", err);
        vine__vdist_free(&d);
        CHECK(d.table == NULL && d.ntable == 0, "free left a table");
    }
}

static void test_check_limits(void)
{
    vine_vdist d;
    char err[512] = "";
    if (parse_ok("uniform:1125899906842624", &d) == VINE_OK) { /* 2^50 */
        CHECK(vine__vdist_check(&d, 1024, 0, err, sizeof err) == VINE_OK, "2^50 x 1024: %s", err);
        CHECK(vine__vdist_check(&d, 1025, 0, err, sizeof err) == VINE_ERR_UNSUPPORTED &&
                  strstr(err, "2^60"),
              "2^50 x 1025 passes 2^60: '%s'", err);
        vine__vdist_free(&d);
    }
    if (parse_ok("zipf:1073741824,1", &d) == VINE_OK) { /* 2^30: rows of about 2^30 p */
        CHECK(vine__vdist_check(&d, 1 << 20, 0, err, sizeof err) == VINE_OK, "zipf 2^20: %s", err);
        CHECK(vine__vdist_check(&d, 1 << 30, 0, err, sizeof err) == VINE_ERR_UNSUPPORTED,
              "zipf 2^30 ranks of 2^30 passes");
        vine__vdist_free(&d);
    }
    CHECK(vine__vdist_check(&(vine_vdist){0}, 0, 0, err, sizeof err) == VINE_ERR_UNSUPPORTED,
          "p 0 admitted");
}

/* Checks the tables of c made from d on p ranks against the blocks, and verifies every algorithm.
 */
static void check_tables(const char *spec, const vine_vdist *d, vine_coll c, int p)
{
    const char *cn = vine__coll_name(c);
    int a2a = c == VINE_COLL_ALLTOALLV || c == VINE_COLL_ALLTOALLW;
    vine_args a;
    vine_vtables t;
    memset(&a, 0, sizeof a);
    a.coll = c;
    a.p = p;
    a.root = p / 2;
    a.commutative = 1;
    /* A node segment of 64 elements a rank, as `vine verify --shm-count 64` gives: the shm
     * algorithms run too, their slots and chunks on every distribution. */
    a.shm_count = a.shm_par_count = 64;
    int rc = vine__vdist_tables(d, &a, &t);
    CHECK(rc == VINE_OK, "%s %s p %d: status %d", spec, cn, p, rc);
    if (rc != VINE_OK)
        return;
    CHECK(vine__verify_vtables_ok(&a), "%s %s p %d: tables not ok", spec, cn, p);
    CHECK(a.vstride == (a2a ? (size_t)p : 0), "%s %s: vstride %zu", spec, cn, a.vstride);
    int send = c == VINE_COLL_SCATTERV || a2a, recv = c != VINE_COLL_SCATTERV;
    CHECK(!send == !a.scounts && !send == !a.sdispls && !recv == !a.rcounts && !recv == !a.rdispls,
          "%s %s: the wrong tables are set", spec, cn);
    int rows = a2a ? p : 1, bad = 0;
    for (int r = 0; r < rows; r++) {
        const size_t *sc = vine__args_row(&a, a.scounts, r), *sd = vine__args_row(&a, a.sdispls, r);
        const size_t *rcn = vine__args_row(&a, a.rcounts, r);
        const size_t *rd = vine__args_row(&a, a.rdispls, r);
        size_t soff = 0, roff = 0;
        for (int i = 0; i < p; i++) {
            /* Row r sends block r -> i and receives block i -> r (a2a). */
            size_t sb = vine__vdist_block(d, p, a2a ? r : i, a2a ? i : 0, a2a);
            size_t rb = vine__vdist_block(d, p, i, a2a ? r : 0, a2a);
            bad += sc && (sc[i] != sb || sd[i] != soff);
            bad += rcn && (rcn[i] != rb || rd[i] != roff);
            soff += sb;
            roff += rb;
        }
    }
    CHECK(bad == 0, "%s %s p %d: %d table entries differ from the blocks", spec, cn, p, bad);
    for (int k = 0; k < vine__algo_count(c); k++) {
        const vine_algo *al = vine__algo_nth(c, k);
        char msg[512] = "";
        if (al->flags & VINE_ALGO_MPI)
            continue;
        rc = vine__verify_case(al, &a, msg, sizeof msg);
        CHECK(rc == VINE_OK, "%s %s %s p %d: %s", spec, cn, al->name, p, msg);
    }
    vine__verify_vtables_free(&a, &t);
    CHECK(!a.scounts && !a.rcounts && !t.t[0], "free left tables");
}

static void test_tables(void)
{
    static const vine_coll colls[] = {VINE_COLL_ALLGATHERV, VINE_COLL_ALLTOALLV,
                                      VINE_COLL_ALLTOALLW, VINE_COLL_GATHERV, VINE_COLL_SCATTERV};
    static const char *const specs[] = {"uniform:3", "skew:2,5", "zipf:6,1.3", "random:4,11",
                                        "uniform:0"};
    static const int ps[] = {1, 2, 5, 8, 13};
    for (size_t s = 0; s < sizeof specs / sizeof *specs; s++) {
        vine_vdist d;
        if (parse_ok(specs[s], &d) != VINE_OK)
            continue;
        for (size_t c = 0; c < sizeof colls / sizeof *colls; c++)
            for (size_t k = 0; k < sizeof ps / sizeof *ps; k++)
                check_tables(specs[s], &d, colls[c], ps[k]);
        vine__vdist_free(&d);
    }
    /* A file of 9 numbers: allgatherv of 9 ranks, alltoallv of 3 (a table). */
    char spec[600];
    snprintf(spec, sizeof spec, "file:%s", write_file("t9.txt", "0 1 2 3 4 5 6 7 8\n"));
    vine_vdist d;
    if (parse_ok(spec, &d) == VINE_OK) {
        check_tables("t9.txt", &d, VINE_COLL_ALLGATHERV, 9);
        check_tables("t9.txt", &d, VINE_COLL_ALLTOALLV, 3);
        check_tables("t9.txt", &d, VINE_COLL_ALLTOALLV, 9);
        vine_args a;
        vine_vtables t;
        memset(&a, 0, sizeof a);
        a.coll = VINE_COLL_GATHERV;
        a.p = 4;
        CHECK(vine__vdist_tables(&d, &a, &t) == VINE_ERR_UNSUPPORTED && !a.rcounts,
              "tables for a p the file does not fit");
        a.coll = VINE_COLL_ALLREDUCE;
        CHECK(vine__vdist_tables(&d, &a, &t) == VINE_OK && !t.t[0] && !a.rcounts,
              "tables made for allreduce");
        vine__vdist_free(&d);
    }
}

static void test_sim(void)
{
    const vine_algo *al = vine__algo_find(VINE_COLL_ALLTOALLV, "pairwise");
    vine_args a;
    memset(&a, 0, sizeof a);
    a.coll = VINE_COLL_ALLTOALLV;
    a.p = 6;
    vine_sim_msg *m = NULL;
    size_t n = 0;
    char err[512] = "";
    int rc = vine__sim_steps(al, &a, &m, &n, err, sizeof err);
    CHECK(rc == VINE_ERR_UNSUPPORTED && strstr(err, "needs its count tables"),
          "no tables: status %d '%s'", rc, err);
    free(m);
    vine_vdist d;
    vine_vtables t;
    if (parse_ok("zipf:100,1", &d) != VINE_OK)
        return;
    CHECK(vine__vdist_tables(&d, &a, &t) == VINE_OK, "tables");
    rc = vine__sim_steps(al, &a, &m, &n, err, sizeof err);
    CHECK(rc == VINE_OK, "alltoallv pairwise: %s", err);
    uint64_t sum = 0, want = 0, got[6][6] = {{0}};
    for (size_t k = 0; rc == VINE_OK && k < n; k++) {
        sum += m[k].count;
        got[m[k].src][m[k].dst] += m[k].count;
    }
    int bad = 0;
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++) {
            uint64_t b = i == j ? 0 : vine__vdist_block(&d, 6, i, j, 1);
            want += b;
            bad += got[i][j] != b;
        }
    CHECK(sum == want && bad == 0, "alltoallv pairwise moved %llu, want %llu (%d pairs differ)",
          (unsigned long long)sum, (unsigned long long)want, bad);
    free(m);
    vine__verify_vtables_free(&a, &t);
    vine__vdist_free(&d);
}

int main(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/test_vdist.XXXXXX");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    test_parse_errors();
    test_simple_kinds();
    test_zipf();
    test_random();
    test_file();
    test_check_limits();
    test_tables();
    test_sim();
    static const char *const files[] = {"bad.txt",  "neg.txt",  "empty.txt",
                                        "four.txt", "nine.txt", "t9.txt"};
    for (size_t k = 0; k < sizeof files / sizeof *files; k++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", tmpdir, files[k]);
        remove(path);
    }
    rmdir(tmpdir);
    printf("vdist: %ld checks, %ld failed\n", checks, failures);
    return failures > 0;
}
