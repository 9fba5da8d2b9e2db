/*
 * Unit test of tuning files (src/select/tuning.h, docs/tuning.md) and of the
 * line finder they use (src/select/jsonpos.h), no MPI: the range and rule
 * lookups (gaps, ends, the nearest size, class before size), merging
 * measured points into ranges, every message of the reader, of
 * vine__tuning_add_rule and of the writer checked word for word, the lines
 * they name in the files of tests/data/tuning, bad input (every truncation
 * of a good file, deep nesting, arrays over the limits, non-UTF-8, numbers
 * out of range), a round trip through a temporary file with the same
 * choices on a grid of calls, and vine__tuning_bytes for every collective.
 *
 * Usage: test_tuning DATA_DIR.  Prints "tuning: N checks, M failed".
 */
#include "check.h"
#include "coll/coll.h"
#include "select/jsonpos.h"
#include "select/select.h"
#include "select/tuning.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *data_dir;

/* The start of a one-line file: schema and version. */
#define H "{\"schema\":\"vine-tuning\",\"version\":1,"
/* A file of the rules given. */
#define RULES(x) H "\"rules\":[" x "]}"
/* An allreduce rule on 4 ranks with the ranges given. */
#define AR(x) "{\"collective\":\"allreduce\",\"ranks\":4,\"ranges\":[" x "]}"
/* A file of one allreduce rule with the ranges given. */
#define RANGES(x) RULES(AR(x))
/* A range of 0..10 bytes served by ring, with extra keys. */
#define G(extra) "{\"min\":0,\"max\":10,\"algorithm\":\"ring\"" extra "}"

static const vine_algo *algo(vine_coll c, const char *name)
{
    const vine_algo *a = vine__algo_find(c, name);
    CHECK(a != NULL, "no %s algorithm %s", vine__coll_name(c), name);
    return a;
}

static int empty(const vine_tuning *t)
{
    return t->nrules == 0 && !t->rules && t->nhosts == 0 && !t->hosts && !t->model.present &&
           !t->date[0] && t->version == VINE_TUNING_VERSION;
}

/* text (len bytes) named t.json must be refused with exactly want and leave the table empty. */
static void expect_error_len(const char *text, size_t len, const char *want)
{
    vine_tuning t;
    vine__tuning_init(&t);
    char err[1024] = "";
    int rc = vine__tuning_parse(&t, text, len, "t.json", err, sizeof err);
    CHECK(rc == VINE_ERR_UNSUPPORTED, "accepted (rc %d): %.200s", rc, text);
    CHECK(strcmp(err, want) == 0, "message\n  got  '%s'\n  want '%s'", err, want);
    CHECK(empty(&t), "a failed parse leaves the table empty: %.200s", text);
    vine__tuning_free(&t);
}

static void expect_error(const char *text, const char *want)
{
    expect_error_len(text, strlen(text), want);
}

/* jansson's own message for text, as the reader must pass it on. */
static void syntax_message(const char *text, size_t len, char *out, size_t n)
{
    json_error_t je;
    json_t *o = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    CHECK(o == NULL && je.line > 0, "jansson accepts %.100s", text);
    json_decref(o);
    snprintf(out, n, "t.json:%d: %s", je.line, je.text);
}

static void expect_syntax_error(const char *text, size_t len)
{
    char want[512];
    syntax_message(text, len, want, sizeof want);
    expect_error_len(text, len, want);
}

/* text must load; the table is left in *t (free it). */
static void expect_ok(vine_tuning *t, const char *text)
{
    char err[1024] = "";
    vine__tuning_init(t);
    int rc = vine__tuning_parse(t, text, strlen(text), "t.json", err, sizeof err);
    CHECK(rc == VINE_OK, "refused: %s (%.200s)", err, text);
}

/* ---- lookups ----------------------------------------------------------------- */

static vine_tune_range range_of(size_t min, size_t max, const vine_algo *a)
{
    return (vine_tune_range){min, max, a, 0, NAN, NULL, NAN, 0};
}

static void test_range_lookup(void)
{
    const vine_algo *mpi = algo(VINE_COLL_ALLREDUCE, "mpi"),
                    *bine = algo(VINE_COLL_ALLREDUCE, "bine"),
                    *large = algo(VINE_COLL_ALLREDUCE, "bine_large");
    vine_tune_range g[] = {range_of(8, 2048, mpi), range_of(4096, 65536, bine),
                           range_of(1 << 20, 1 << 26, large)};
    vine_tune_rule r = {VINE_COLL_ALLREDUCE, 4, 0, 0, 3, g, 0, 0};
    static const struct {
        size_t bytes;
        int want;
    } cases[] = {{0, 0},       {7, 0},       {8, 0},       {100, 0},     {2048, 0},
                 {3000, 0},    {4095, 0},    {4096, 1},    {65536, 1},   {65537, 1},
                 {1048575, 1}, {1 << 20, 2}, {1 << 26, 2}, {SIZE_MAX, 2}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        CHECK(vine__tuning_range(&r, cases[i].bytes) == &g[cases[i].want], "%zu bytes: range %d",
              cases[i].bytes, cases[i].want);
    r.nranges = 1;
    CHECK(vine__tuning_range(&r, 0) == &g[0] && vine__tuning_range(&r, SIZE_MAX) == &g[0],
          "one range serves every size");
    r.nranges = 0;
    CHECK(vine__tuning_range(&r, 8) == NULL, "no ranges: NULL");
    CHECK(vine__tuning_range(NULL, 8) == NULL, "no rule: NULL");
}

/* Ranges of one point each, so a rule at size p can be added for the lookup tests. */
static void add(vine_tuning *t, vine_coll coll, int p, int ops, int inplace, const char *name)
{
    vine_tune_range g = range_of(0, 100, algo(coll, name));
    vine_tune_rule r = {coll, p, ops, inplace, 1, &g, 0, 0};
    char err[256] = "";
    CHECK(vine__tuning_add_rule(t, &r, err, sizeof err) == VINE_OK, "add_rule: %s", err);
}

/* The size of the rule for a commutative allreduce on p ranks, not in place; 0 when none. */
static int size_for(const vine_tuning *t, int p)
{
    const vine_tune_rule *r = vine__tuning_rule(t, VINE_COLL_ALLREDUCE, p, 1, 0);
    return r ? r->p : 0;
}

static void test_nearest_size(void)
{
    vine_tuning t;
    vine__tuning_init(&t);
    add(&t, VINE_COLL_ALLREDUCE, 16, 0, 0, "ring");
    add(&t, VINE_COLL_ALLREDUCE, 8, 0, 0, "ring");
    add(&t, VINE_COLL_ALLREDUCE, 64, 0, 0, "ring");
    static const int cases[][2] = {{16, 16}, {8, 8},    {64, 64}, {12, 16},    {11, 8},
                                   {4, 8},   {3, 0},    {1, 0},   {32, 16},    {24, 16},
                                   {40, 64}, {128, 64}, {129, 0}, {1000000, 0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        CHECK(size_for(&t, cases[i][0]) == cases[i][1], "p=%d: rule of %d ranks, got %d",
              cases[i][0], cases[i][1], size_for(&t, cases[i][0]));
    CHECK(vine__tuning_rule(&t, VINE_COLL_BCAST, 16, 1, 0) == NULL, "another collective: NULL");
    CHECK(vine__tuning_rule(&t, VINE_COLL_ALLREDUCE, 0, 1, 0) == NULL, "p 0: NULL");
    CHECK(vine__tuning_rule(NULL, VINE_COLL_ALLREDUCE, 16, 1, 0) == NULL, "no table: NULL");
    vine__tuning_free(&t);

    /* 12 is 1.5 times 8 and 18 / 12 = 1.5: a tie goes to the smaller size. */
    add(&t, VINE_COLL_ALLREDUCE, 18, 0, 0, "ring");
    add(&t, VINE_COLL_ALLREDUCE, 8, 0, 0, "ring");
    CHECK(size_for(&t, 12) == 8, "tie: the smaller size, got %d", size_for(&t, 12));
    CHECK(size_for(&t, 13) == 18, "13: 18 is nearer, got %d", size_for(&t, 13));
    vine__tuning_free(&t);
}

static void test_class_precedence(void)
{
    enum { ANY = 0, COMM = 1, NONC = 2, NO = 1, YES = 2 };
    vine_tuning t;
    vine__tuning_init(&t);
    add(&t, VINE_COLL_ALLREDUCE, 16, ANY, ANY, "ring");
    add(&t, VINE_COLL_ALLREDUCE, 16, COMM, ANY, "bine");
    add(&t, VINE_COLL_ALLREDUCE, 16, NONC, YES, "rabenseifner");
    add(&t, VINE_COLL_ALLREDUCE, 16, ANY, YES, "recursive_doubling");
    add(&t, VINE_COLL_ALLREDUCE, 20, COMM, NO, "bine_large");
    static const struct {
        int p, comm, inplace;
        const char *want;
    } cases[] = {
        {16, 1, 0, "bine_large"},   /* exact class on 20 ranks beats "any" on 16 */
        {16, 1, 1, "bine"},         /* ops exact + inplace any beats ops any + inplace exact */
        {16, 0, 1, "rabenseifner"}, /* both exact */
        {16, 0, 0, "ring"},         /* noncommutative, not in place: only "any" fits */
        {24, 1, 0, "bine_large"},   /* 20 is the only exact class within a factor 2 */
        {40, 1, 0, "bine_large"},   /* 40 / 20 = 2 */
        {41, 1, 0, NULL},           /* too far from 20 and 16 */
        {32, 0, 0, "ring"},         /* "any" on 16, a factor of 2 */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const vine_tune_rule *r =
            vine__tuning_rule(&t, VINE_COLL_ALLREDUCE, cases[i].p, cases[i].comm, cases[i].inplace);
        const char *got = r ? r->ranges[0].algo->name : NULL;
        CHECK(got == cases[i].want || (got && cases[i].want && strcmp(got, cases[i].want) == 0),
              "p=%d comm=%d inplace=%d: %s, got %s", cases[i].p, cases[i].comm, cases[i].inplace,
              cases[i].want ? cases[i].want : "none", got ? got : "none");
    }
    vine__tuning_free(&t);
}

/* ---- merging -------------------------------------------------------------------- */

static vine_tune_point point(size_t bytes, const vine_algo *a, size_t segment, double us)
{
    return (vine_tune_point){bytes, a, segment, us, NULL, NAN};
}

static void check_ranges(const vine_tune_range *g, int n, const size_t (*want)[2], int nwant,
                         const char *what)
{
    CHECK(n == nwant, "%s: %d ranges, want %d", what, n, nwant);
    for (int i = 0; i < n && i < nwant; i++)
        CHECK(g[i].min == want[i][0] && g[i].max == want[i][1] && g[i].line == 0,
              "%s: range %d is %zu..%zu, want %zu..%zu", what, i, g[i].min, g[i].max, want[i][0],
              want[i][1]);
}

static void test_merge(void)
{
    const vine_algo *a = algo(VINE_COLL_ALLREDUCE, "ring"), *b = algo(VINE_COLL_ALLREDUCE, "bine");
    vine_tune_range *g = NULL;
    int n = -1;
    vine_tune_point runs[] = {point(8, a, 0, 1.5),  point(16, a, 0, 2.5),  point(32, b, 0, 3.5),
                              point(64, b, 0, 4.5), point(128, a, 0, 5.5), point(256, a, 64, 6.5)};
    static const size_t want_runs[][2] = {{8, 16}, {32, 64}, {128, 128}, {256, 256}};
    CHECK(vine__tuning_merge(runs, 6, &g, &n) == VINE_OK, "merge runs");
    check_ranges(g, n, want_runs, 4, "runs");
    if (n == 4)
        CHECK(g[0].algo == a && g[1].algo == b && g[2].algo == a && g[3].segment == 64 &&
                  g[0].median_us == 1.5 && g[1].median_us == 3.5 && isnan(g[1].runner_up_us),
              "runs: algorithms, segments and the first point's medians");
    vine_tuning t;
    vine__tuning_init(&t);
    vine_tune_rule r = {VINE_COLL_ALLREDUCE, 8, 0, 0, n, g, 0, 0};
    char err[256] = "";
    CHECK(vine__tuning_add_rule(&t, &r, err, sizeof err) == VINE_OK, "merged ranges: %s", err);
    vine__tuning_free(&t);
    free(g);

    CHECK(vine__tuning_merge(runs, 1, &g, &n) == VINE_OK, "merge one point");
    static const size_t want_one[][2] = {{8, 8}};
    check_ranges(g, n, want_one, 1, "one point");
    free(g);

    vine_tune_point alt[] = {point(1, a, 0, 1), point(2, b, 0, 1), point(4, a, 0, 1),
                             point(8, b, 0, 1)};
    static const size_t want_alt[][2] = {{1, 1}, {2, 2}, {4, 4}, {8, 8}};
    CHECK(vine__tuning_merge(alt, 4, &g, &n) == VINE_OK, "merge alternating");
    check_ranges(g, n, want_alt, 4, "alternating");
    free(g);

    vine_tune_point same[] = {point(1, a, 0, 1), point(2, a, 0, 2), point(3, a, 0, 3)};
    static const size_t want_same[][2] = {{1, 3}};
    CHECK(vine__tuning_merge(same, 3, &g, &n) == VINE_OK, "merge one run");
    check_ranges(g, n, want_same, 1, "one run");
    free(g);

    CHECK(vine__tuning_merge(runs, 0, &g, &n) == VINE_OK && g == NULL && n == 0, "no points");
}

/* ---- the reader's messages -------------------------------------------------------- */

typedef struct bad {
    const char *text, *want;
} bad;

static void expect_all(const bad *cases, size_t n)
{
    for (size_t i = 0; i < n; i++)
        expect_error(cases[i].text, cases[i].want);
}

static void test_header_errors(void)
{
    static const bad cases[] = {
        {"[1]", "t.json:1: the top level is not an object"},
        {"\n\n  []", "t.json:3: the top level is not an object"},
        {"{\"version\":1,\"rules\":[]}", "t.json:1: \"schema\" is missing"},
        {"{\"schema\":1}", "t.json:1: \"schema\" is not a string"},
        {"{\"schema\":\"vine-cost\"}", "t.json:1: schema \"vine-cost\" is not \"vine-tuning\""},
        {"{\"schema\":\"vine-tuning\"}", "t.json:1: \"version\" is missing"},
        {"{\"schema\":\"vine-tuning\",\"version\":\"1\"}",
         "t.json:1: \"version\" is not an integer"},
        {"{\"schema\":\"vine-tuning\",\"version\":1.0}", "t.json:1: \"version\" is not an integer"},
        {"{\"schema\":\"vine-tuning\",\n\"version\":2,\"x\":1}",
         "t.json:2: version 2 is not supported (this vine reads version 1)"},
        {"{\"schema\":\"vine-tuning\",\"version\":0}",
         "t.json:1: version 0 is not supported (this vine reads version 1)"},
        {H "\"rules\":[],\n\"extra\":1}", "t.json:2: unknown key \"extra\""},
        {H "\"rule\":[]}", "t.json:1: unknown key \"rule\""},
        {H "\"rules\":[],\"a\\nb\\u0001\":1}", "t.json:1: unknown key \"a?b?\""},
        {H "\"rules\":[],\"0123456789012345678901234567890123456789012345678901234567\":1}",
         "t.json:1: unknown key \"012345678901234567890123456789012345678901234567...\""},
        {H "\"date\":5,\"rules\":[]}", "t.json:1: \"date\" is not a string"},
        {H "\"vine_version\":null,\"rules\":[]}", "t.json:1: \"vine_version\" is not a string"},
        {H "\"mpi_library\":[],\"rules\":[]}", "t.json:1: \"mpi_library\" is not a string"},
        {H "\"date\":\"x\"}", "t.json:1: \"rules\" is missing"},
        {H "\"rules\":{}}", "t.json:1: \"rules\" is not an array"},
        {H "\"rules\":null}", "t.json:1: \"rules\" is not an array"},
    };
    expect_all(cases, sizeof cases / sizeof cases[0]);
}

static void test_machine_errors(void)
{
    static const bad cases[] = {
        {H "\"machine\":[],\"rules\":[]}", "t.json:1: \"machine\" is not an object"},
        {H "\"machine\":{\"host\":[]},\"rules\":[]}", "t.json:1: machine: unknown key \"host\""},
        {H "\"machine\":{\"hosts\":\"a\"},\"rules\":[]}",
         "t.json:1: machine: \"hosts\" is not an array"},
        {H "\"machine\":{\"hosts\":[\"a\",\n2]},\"rules\":[]}",
         "t.json:2: machine: hosts[1] is not a string"},
        {H "\"machine\":{\"ranks\":0},\"rules\":[]}", "t.json:1: machine: ranks 0 is below 1"},
        {H "\"machine\":{\"ranks_per_node\":16777217},\"rules\":[]}",
         "t.json:1: machine: ranks_per_node 16777217 is above 16777216"},
        {H "\"machine\":{\"cores\":1.5},\"rules\":[]}",
         "t.json:1: machine: \"cores\" is not an integer"},
    };
    expect_all(cases, sizeof cases / sizeof cases[0]);
}

static void test_model_errors(void)
{
    static const bad cases[] = {
        {H "\"model\":1,\"rules\":[]}", "t.json:1: \"model\" is not an object"},
        {H "\"model\":{\"version\":1},\"rules\":[]}", "t.json:1: model: unknown key \"version\""},
        {H "\n\"model\":{\"gamma\":1e-10},\"rules\":[]}",
         "t.json:2: model: \"levels\" missing, not an array or empty"},
        {H "\"model\":{\"gamma\":-1,\"levels\":[{\"alpha\":1,\"beta\":1}]},\"rules\":[]}",
         "t.json:1: model: \"gamma\" is not a number >= 0"},
        {H "\"model\":{\n\"levels\":[{\"alpha\":1}]},\"rules\":[]}",
         "t.json:1: model: levels[0]: \"beta\" missing or not a number >= 0"},
        {H "\"model\":{\"levels\":[1]},\"rules\":[]}",
         "t.json:1: model: levels[0] is not an object"},
        {H "\"model\":{\"levels\":[{\"alpha\":1,\"beta\":1,\"gama\":1}]},\"rules\":[]}",
         "t.json:1: model: levels[0]: unknown key \"gama\""},
        {H "\"model\":{\"levels\":[{\"alpha\":1,\"beta\":1,\"contention\":0.5}]},\"rules\":[]}",
         "t.json:1: model: levels[0]: \"contention\" is not a number >= 1"},
        {H "\"model\":{\"levels\":[{\"alpha\":1,\"beta\":1},{\"alpha\":1,\"beta\":1},"
           "{\"alpha\":1,\"beta\":1},{\"alpha\":1,\"beta\":1},{\"alpha\":1,\"beta\":1},"
           "{\"alpha\":1,\"beta\":1},{\"alpha\":1,\"beta\":1},{\"alpha\":1,\"beta\":1},"
           "{\"alpha\":1,\"beta\":1},{\"alpha\":1,\"beta\":1}]},\"rules\":[]}",
         "t.json:1: model: 10 levels, at most 9"},
#define LV "\"levels\":[{\"alpha\":1,\"beta\":1}]"
        {H "\"model\":{" LV ",\"cases\":-1},\"rules\":[]}", "t.json:1: model: cases -1 is below 0"},
        {H "\"model\":{" LV ",\"cases\":\"3\"},\"rules\":[]}",
         "t.json:1: model: \"cases\" is not an integer"},
        {H "\"model\":{" LV ",\"cases\":2147483648},\"rules\":[]}",
         "t.json:1: model: cases 2147483648 is above 2147483647"},
        {H "\"model\":{" LV ",\"agreement\":1.5},\"rules\":[]}",
         "t.json:1: model: agreement 1.5 is above 1"},
        {H "\"model\":{" LV ",\"agreement\":-0.5},\"rules\":[]}",
         "t.json:1: model: agreement -0.5 is below 0"},
        {H "\"model\":{" LV ",\"agreement\":\"x\"},\"rules\":[]}",
         "t.json:1: model: \"agreement\" is not a number"},
        {H "\"model\":{" LV ",\n\"median_error\":-1},\"rules\":[]}",
         "t.json:2: model: median_error -1 is below 0"},
#undef LV
    };
    expect_all(cases, sizeof cases / sizeof cases[0]);
}

static void test_rule_errors(void)
{
    static const bad cases[] = {
        {RULES("1"), "t.json:1: rules[0] is not an object"},
        {RULES(AR(G("")) ",\n[]"), "t.json:2: rules[1] is not an object"},
        {RULES("{\"op\":1}"), "t.json:1: rules[0]: unknown key \"op\""},
        {RULES("{\"ranks\":4}"), "t.json:1: rules[0]: \"collective\" is missing"},
        {RULES("{\"collective\":2}"), "t.json:1: rules[0]: \"collective\" is not a string"},
        {RULES("{\"collective\":\"allreducee\"}"),
         "t.json:1: rules[0]: collective \"allreducee\" is unknown"},
        {RULES("{\"collective\":\"bcast\"}"), "t.json:1: rules[0]: \"ranks\" is missing"},
        {RULES("{\"collective\":\"bcast\",\"ranks\":4.0}"),
         "t.json:1: rules[0]: \"ranks\" is not an integer"},
        {RULES("{\"collective\":\"bcast\",\"ranks\":0}"), "t.json:1: rules[0]: ranks 0 is below 1"},
        {RULES("{\"collective\":\"bcast\",\"ranks\":-5}"),
         "t.json:1: rules[0]: ranks -5 is below 1"},
        {RULES("{\"collective\":\"bcast\",\"ranks\":16777217}"),
         "t.json:1: rules[0]: ranks 16777217 is above 16777216"},
        {RULES("{\"collective\":\"bcast\",\"ranks\":9223372036854775807}"),
         "t.json:1: rules[0]: ranks 9223372036854775807 is above 16777216"},
        {RULES("{\"collective\":\"bcast\",\"ranks\":4,\"ops\":1}"),
         "t.json:1: rules[0]: \"ops\" is not a string"},
        {RULES("{\"collective\":\"bcast\",\"ranks\":4,\"ops\":\"commutativ\"}"),
         "t.json:1: rules[0]: ops \"commutativ\" is not \"any\", \"commutative\" or "
         "\"noncommutative\""},
        {RULES("{\"collective\":\"bcast\",\"ranks\":4,\"inplace\":true}"),
         "t.json:1: rules[0]: \"inplace\" is not a string"},
        {RULES("{\"collective\":\"bcast\",\"ranks\":4,\"inplace\":\"true\"}"),
         "t.json:1: rules[0]: inplace \"true\" is not \"any\", \"no\" or \"yes\""},
        {RULES("{\"collective\":\"bcast\",\"ranks\":4}"),
         "t.json:1: rules[0]: \"ranges\" is missing"},
        {RULES("{\"collective\":\"bcast\",\"ranks\":4,\"ranges\":{}}"),
         "t.json:1: rules[0]: \"ranges\" is not an array"},
        {RULES("{\"collective\":\"bcast\",\"ranks\":4,\"ranges\":[]}"),
         "t.json:1: rules[0]: \"ranges\" is empty"},
        {RULES(AR(G("")) ",\n" AR(G(""))),
         "t.json:2: rules[1]: allreduce on 4 ranks (ops any, inplace any) named twice, first at "
         "line 1"},
        /* "any" written out is the default. */
        {RULES(AR(G("")) ",{\"collective\":\"allreduce\",\"ranks\":4,\"ops\":\"any\",\"ranges\":["
                         "{\"min\":0,\"max\":1,\"algorithm\":\"ring\"}]}"),
         "t.json:1: rules[1]: allreduce on 4 ranks (ops any, inplace any) named twice, first at "
         "line 1"},
    };
    expect_all(cases, sizeof cases / sizeof cases[0]);
}

static void test_range_errors(void)
{
#define P "t.json:1: rules[0].ranges[0]"
    static const bad cases[] = {
        {RANGES("1"), "t.json:1: rules[0].ranges[0] is not an object"},
        {RANGES(G(",\"median\":1")), P ": unknown key \"median\""},
        {RANGES("{\"max\":1}"), P ": \"min\" is missing"},
        {RANGES("{\"min\":0.0}"), P ": \"min\" is not an integer"},
        {RANGES("{\"min\":-1}"), P ": min -1 is below 0"},
        {RANGES("{\"min\":0}"), P ": \"max\" is missing"},
        {RANGES("{\"min\":0,\"max\":\"10\"}"), P ": \"max\" is not an integer"},
        {RANGES("{\"min\":0,\"max\":-3}"), P ": max -3 is below 0"},
        {RANGES("{\"min\":8,\"max\":4,\"algorithm\":\"ring\"}"), P ": max 4 is below min 8"},
        {RANGES(G("") ",{\"min\":10,\"max\":20,\"algorithm\":\"ring\"}"),
         "t.json:1: rules[0].ranges[1]: min 10 is not above the previous range's max 10"},
        {RANGES("{\"min\":100,\"max\":200,\"algorithm\":\"ring\"}," G("")),
         "t.json:1: rules[0].ranges[1]: min 0 is not above the previous range's max 200"},
        {RANGES("{\"min\":0,\"max\":1}"), P ": \"algorithm\" is missing"},
        {RANGES("{\"min\":0,\"max\":1,\"algorithm\":[]}"), P ": \"algorithm\" is not a string"},
        {RANGES("{\"min\":0,\"max\":1,\"algorithm\":\"rign\"}"),
         P ": algorithm \"rign\" is not an allreduce algorithm"},
        {RANGES("{\"min\":0,\"max\":1,\"algorithm\":\"auto\"}"),
         P ": algorithm \"auto\" is not an allreduce algorithm"},
        {RULES("{\"collective\":\"bcast\",\"ranks\":4,\"ranges\":[" G("") "]}"),
         P ": algorithm \"ring\" is not a bcast algorithm"},
        {RANGES(G(",\"segment\":1.5")), P ": \"segment\" is not an integer"},
        {RANGES(G(",\"segment\":-1")), P ": segment -1 is below 0"},
        {RANGES(G(",\"median_us\":\"1\"")), P ": \"median_us\" is not a number"},
        {RANGES(G(",\"median_us\":-1")), P ": median_us -1 is below 0"},
        {RANGES(G(",\"runner_up\":1")), P ": \"runner_up\" is not a string"},
        {RANGES(G(",\"runner_up\":\"bruck\"")),
         P ": runner_up \"bruck\" is not an allreduce algorithm"},
        {RANGES(G(",\"runner_up_us\":null")), P ": \"runner_up_us\" is not a number"},
        {RANGES(G(",\"runner_up_us\":-0.5")), P ": runner_up_us -0.5 is below 0"},
    };
#undef P
    expect_all(cases, sizeof cases / sizeof cases[0]);
}

/* Lines: of the value a message is about, found past escapes, strings and nested values. */
static void test_error_lines(void)
{
    static const bad cases[] = {
        {"{\"schema\":\"vine-tuning\",\"version\":1,\"rules\":[\n"
         " {\"collective\":\"allreduce\",\"ranks\":4,\"ranges\":[\n"
         "  {\"\\u006din\":5,\n"
         "   \"max\":1,\"algorithm\":\"ring\"}]}]}",
         "t.json:4: rules[0].ranges[0]: max 1 is below min 5"},
        {"{\"schema\":\"vine-tuning\",\"version\":1,\"rules\":[\n"
         " {\"collective\":\"allreduce\",\"ranks\":4,\"ranges\":[\n"
         "  {\"min\":0,\"max\":10,\"algorithm\":\"ring\"},\n"
         "  {\"min\":\n"
         "   5,\"max\":20,\"algorithm\":\"ring\"}]}]}",
         "t.json:5: rules[0].ranges[1]: min 5 is not above the previous range's max 10"},
        {"{\"schema\":\"vine-tuning\",\"version\":1,\"machine\":{\"hosts\":[\"a\\\"}]\",\n"
         "[\"\\ud83d\\ude00\"]]},\n"
         "\"rules\":[]}",
         "t.json:2: machine: hosts[1] is not a string"},
        {"{\"schema\":\"vine-tuning\",\"version\":1,\"rules\":[],\"date\":\"\\\"x\\\\\",\n"
         "\"\\u00e9t\\u00e9\":1}",
         "t.json:2: unknown key \"\xc3\xa9t\xc3\xa9\""},
    };
    expect_all(cases, sizeof cases / sizeof cases[0]);
}

/* ---- bad input ---------------------------------------------------------------------- */

/* A malloc'ed copy of the file name of the data directory. */
static char *read_data(const char *name, size_t *len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", data_dir, name);
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL, "cannot open %s", path);
    if (!f)
        return NULL;
    char *buf = malloc(1 << 20);
    *len = buf ? fread(buf, 1, (1 << 20) - 1, f) : 0;
    fclose(f);
    if (buf)
        buf[*len] = '\0';
    return buf;
}

/* Every proper prefix of a good file is refused with jansson's message; the whole loads. */
static void test_truncated(void)
{
    size_t len = 0;
    char *text = read_data("good.json", &len), err[1024];
    if (!text)
        return;
    vine_tuning t;
    vine__tuning_init(&t);
    for (size_t n = 0; n < len; n++) {
        /* A prefix that ends in white space after the closing brace is whole. */
        int whole = n >= len - 1;
        int rc = vine__tuning_parse(&t, text, n, "t.json", err, sizeof err);
        if (!whole)
            CHECK(rc == VINE_ERR_UNSUPPORTED && strncmp(err, "t.json:", 7) == 0 && empty(&t),
                  "prefix of %zu bytes: rc %d, '%s'", n, rc, err);
    }
    char want[512];
    syntax_message(text, len / 2, want, sizeof want);
    CHECK(vine__tuning_parse(&t, text, len / 2, "t.json", err, sizeof err) ==
                  VINE_ERR_UNSUPPORTED &&
              strcmp(err, want) == 0,
          "half the file: '%s', want '%s'", err, want);
    CHECK(vine__tuning_parse(&t, text, len, "t.json", err, sizeof err) == VINE_OK, "whole: %s",
          err);
    vine__tuning_free(&t);
    free(text);
}

/* A growing string for the large inputs. */
typedef struct buf {
    char *s;
    size_t n, cap;
} buf;

static void put(buf *b, const char *s)
{
    size_t k = strlen(s);
    if (b->n + k + 1 > b->cap) {
        b->cap = (b->n + k + 1) * 2;
        b->s = realloc(b->s, b->cap);
        if (!b->s)
            abort();
    }
    memcpy(b->s + b->n, s, k + 1);
    b->n += k;
}

/* A file of one allreduce rule with n ranges of one byte each. */
static char *many_ranges(int n)
{
    buf b = {0};
    char r[128];
    put(&b, H "\"rules\":[{\"collective\":\"allreduce\",\"ranks\":4,\"ranges\":[");
    for (int i = 0; i < n; i++) {
        snprintf(r, sizeof r, "%s{\"min\":%d,\"max\":%d,\"algorithm\":\"ring\"}", i ? "," : "", i,
                 i);
        put(&b, r);
    }
    put(&b, "]}]}");
    return b.s;
}

static char *many_rules(int n)
{
    buf b = {0};
    char r[160];
    put(&b, H "\"rules\":[");
    for (int i = 0; i < n; i++) {
        snprintf(r, sizeof r, "%s{\"collective\":\"bcast\",\"ranks\":%d,\"ranges\":[%s]}",
                 i ? "," : "", 1 + i, "{\"min\":0,\"max\":1,\"algorithm\":\"mpi\"}");
        put(&b, r);
    }
    put(&b, "]}");
    return b.s;
}

static char *many_hosts(int n)
{
    buf b = {0};
    put(&b, H "\"machine\":{\"hosts\":[");
    for (int i = 0; i < n; i++)
        put(&b, i ? ",\"h\"" : "\"h\"");
    put(&b, "]},\"rules\":[]}");
    return b.s;
}

static void test_limits(void)
{
    vine_tuning t;
    char *s = many_ranges(VINE_TUNING_RANGES_MAX);
    expect_ok(&t, s);
    CHECK(t.nrules == 1 && t.rules[0].nranges == VINE_TUNING_RANGES_MAX, "4096 ranges load");
    vine__tuning_free(&t);
    free(s);
    s = many_ranges(VINE_TUNING_RANGES_MAX + 1);
    expect_error(s, "t.json:1: rules[0]: \"ranges\" has 4097 entries, at most 4096");
    free(s);
    s = many_rules(VINE_TUNING_RULES_MAX);
    expect_ok(&t, s);
    CHECK(t.nrules == VINE_TUNING_RULES_MAX, "4096 rules load");
    vine__tuning_free(&t);
    free(s);
    s = many_rules(VINE_TUNING_RULES_MAX + 1);
    expect_error(s, "t.json:1: \"rules\" has 4097 entries, at most 4096");
    free(s);
    s = many_hosts(VINE_TUNING_HOSTS_MAX + 1);
    expect_error(s, "t.json:1: machine: \"hosts\" has 1048577 entries, at most 1048576");
    free(s);

    char text[1024], name[300];
    memset(name, 'x', 256);
    name[256] = '\0';
    snprintf(text, sizeof text, H "\"mpi_library\":\"%s\",\"rules\":[]}", name);
    expect_error(text, "t.json:1: \"mpi_library\" is longer than 255 bytes");
    snprintf(text, sizeof text, H "\"machine\":{\"hosts\":[\"%s\"]},\"rules\":[]}", name);
    expect_error(text, "t.json:1: machine: hosts[0] is longer than 255 bytes");
    name[255] = '\0';
    snprintf(text, sizeof text, H "\"mpi_library\":\"%s\",\"rules\":[]}", name);
    expect_ok(&t, text);
    CHECK(strlen(t.mpi_library) == 255, "a text of 255 bytes is kept");
    vine__tuning_free(&t);
}

static void test_syntax(void)
{
    static const char *const texts[] = {
        "",
        "{",
        "{\"schema\":\"vine-tuning\",\"version\":1,\"rules\":[]} x",
        "{\"schema\":\"vine-tuning\",\"schema\":\"vine-tuning\",\"version\":1,\"rules\":[]}",
        "{\"schema\":\"vine-tuning\",\"version\":1,\"date\":\"\xff\xfe\",\"rules\":[]}",
        "{\"schema\":\"vine-tuning\",\"version\":99999999999999999999,\"rules\":[]}",
        RANGES("{\"min\":0,\"max\":99999999999999999999,\"algorithm\":\"ring\"}"),
        RULES("{\"collective\":\"bcast\",\"ranks\":1e400}"),
        "{\"schema\":\"vine-tuning\",\"version\":1,\"date\":\"\\u0000\",\"rules\":[]}",
        "\"vine-tuning\"",
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        expect_syntax_error(texts[i], strlen(texts[i]));
    static const char nul[] = "{\"schema\":\"vine-tuning\",\0\"version\":1,\"rules\":[]}";
    expect_syntax_error(nul, sizeof nul - 1);

    buf b = {0};
    for (int i = 0; i < 100000; i++)
        put(&b, "[");
    expect_syntax_error(b.s, b.n);
    b.n = 0;
    put(&b, RULES(""));
    b.n -= 2;
    for (int i = 0; i < 3000; i++)
        put(&b, "{\"a\":");
    expect_syntax_error(b.s, b.n);
    free(b.s);

    char err[256];
    vine_tuning t;
    vine__tuning_init(&t);
    CHECK(vine__tuning_parse(&t, NULL, 0, "t.json", err, sizeof err) == VINE_ERR_UNSUPPORTED &&
              strncmp(err, "t.json:1: ", 10) == 0,
          "no text: '%s'", err);
    vine__tuning_free(&t);
}

/* ---- the files of tests/data/tuning ------------------------------------------------------ */

static void expect_file_error(const char *name, const char *want)
{
    char path[4096], full[4096 + 256], err[1024] = "";
    snprintf(path, sizeof path, "%s/%s", data_dir, name);
    snprintf(full, sizeof full, "%s%s", path, want);
    vine_tuning t;
    vine__tuning_init(&t);
    CHECK(vine__tuning_load(&t, path, err, sizeof err) == VINE_ERR_UNSUPPORTED, "%s loads", name);
    CHECK(strcmp(err, full) == 0, "%s:\n  got  '%s'\n  want '%s'", name, err, full);
    CHECK(empty(&t), "%s: the table is empty after a failure", name);
    vine__tuning_free(&t);
}

static void check_good(const vine_tuning *t)
{
    CHECK(t->version == 1 && strcmp(t->vine_version, "0.1.0") == 0 &&
              strcmp(t->date, "2026-11-26T10:00:00Z") == 0 &&
              strncmp(t->mpi_library, "Open MPI v4.1.6", 15) == 0,
          "good: header");
    CHECK(t->ranks == 32 && t->ranks_per_node == 16 && t->cores == 16 && t->nhosts == 2 &&
              strcmp(t->hosts[1], "node2") == 0,
          "good: machine");
    CHECK(t->model.present && t->model.cases == 120 && t->model.agreement == 0.62 &&
              t->model.median_error == 0.31 && t->model.cost.nclasses == 1 &&
              t->model.cost.cls[0].alpha == 1e-6 && t->model.cost.cls[0].contention == 1 &&
              t->model.cost.gamma == 1e-10,
          "good: model");
    CHECK(t->nrules == 4, "good: %d rules", t->nrules);
    if (t->nrules != 4)
        return;
    const vine_tune_rule *r = &t->rules[0];
    CHECK(r->coll == VINE_COLL_ALLREDUCE && r->p == 16 && r->ops == VINE_TUNE_OPS_COMMUTATIVE &&
              r->inplace == VINE_TUNE_INPLACE_ANY && r->nranges == 2 && r->line == 11,
          "good: rule 0");
    const vine_tune_range *g = &r->ranges[1];
    CHECK(g->min == 4096 && g->max == 67108864 && strcmp(g->algo->name, "bine_large") == 0 &&
              g->segment == 65536 && g->median_us == 120.5 &&
              strcmp(g->runner_up->name, "mpi") == 0 && g->runner_up_us == 150.2,
          "good: rule 0 range 1");
    CHECK(r->ranges[0].line == 13 && g->line == 15, "good: range lines %d %d", r->ranges[0].line,
          g->line);
    r = &t->rules[2];
    CHECK(r->coll == VINE_COLL_BCAST && r->ops == VINE_TUNE_OPS_ANY && r->line == 22 &&
              r->ranges[1].line == 25 && isnan(r->ranges[1].runner_up_us) &&
              r->ranges[1].runner_up == NULL && r->ranges[1].segment == 0,
          "good: rule 2 (defaults)");
    CHECK(t->rules[3].line == 27 && t->rules[3].ranges[0].line == 27 &&
              (t->rules[3].ranges[0].algo->flags & VINE_ALGO_MPI),
          "good: rule 3");
}

static void test_files(void)
{
    char path[4096], err[1024] = "";
    vine_tuning t;
    vine__tuning_init(&t);
    snprintf(path, sizeof path, "%s/good.json", data_dir);
    CHECK(vine__tuning_load(&t, path, err, sizeof err) == VINE_OK, "good.json: %s", err);
    check_good(&t);
    vine__tuning_free(&t);
    CHECK(empty(&t), "free leaves an empty table");
    expect_file_error("bad-collective.json", ":7: rules[1]: collective \"allreducee\" is unknown");
    expect_file_error("bad-overlap.json",
                      ":11: rules[0].ranges[2]: min 4096 is not above the previous range's max "
                      "8192");
    expect_file_error("bad-twice.json", ":9: rules[2]: allreduce on 16 ranks (ops commutative, "
                                        "inplace any) named twice, first at line 5");
    expect_file_error("bad-version.json",
                      ":3: version 2 is not supported (this vine reads version 1)");
    expect_file_error("bad-unknown-key.json", ":7: rules[0].ranges[0]: unknown key \"median\"");
    size_t len = 0;
    char *text = read_data("bad-truncated.json", &len), want[512];
    if (text) {
        json_error_t je;
        json_t *o = json_loadb(text, len, 0, &je);
        json_decref(o);
        snprintf(want, sizeof want, ":%d: %s", je.line, je.text);
        expect_file_error("bad-truncated.json", want);
        free(text);
    }
    snprintf(path, sizeof path, "%s/no-such-file.json", data_dir);
    char want_missing[4200];
    snprintf(want_missing, sizeof want_missing, "%s: cannot open: %s", path, strerror(ENOENT));
    CHECK(vine__tuning_load(&t, path, err, sizeof err) == VINE_ERR_UNSUPPORTED &&
              strcmp(err, want_missing) == 0,
          "missing file: '%s'", err);
    snprintf(want_missing, sizeof want_missing, "%s: cannot read: %s", data_dir, strerror(EISDIR));
    CHECK(vine__tuning_load(&t, data_dir, err, sizeof err) == VINE_ERR_UNSUPPORTED &&
              strcmp(err, want_missing) == 0,
          "a directory: '%s'", err);
    CHECK(vine__tuning_load(&t, path, NULL, 0) == VINE_ERR_UNSUPPORTED, "err may be NULL");
}

/* ---- add_rule ---------------------------------------------------------------------------- */

static void expect_add_error(vine_tuning *t, const vine_tune_rule *r, const char *want)
{
    char err[1024] = "";
    int before = t->nrules;
    CHECK(vine__tuning_add_rule(t, r, err, sizeof err) == VINE_ERR_UNSUPPORTED, "added: %s", want);
    CHECK(strcmp(err, want) == 0, "add_rule:\n  got  '%s'\n  want '%s'", err, want);
    CHECK(t->nrules == before, "a refused rule is not added");
}

static void test_add_rule(void)
{
    const vine_algo *ring = algo(VINE_COLL_ALLREDUCE, "ring"),
                    *bino = algo(VINE_COLL_BCAST, "binomial"),
                    *bruck = algo(VINE_COLL_ALLGATHER, "bruck");
    vine_tune_range g[2] = {range_of(0, 10, ring), range_of(11, 20, ring)};
    vine_tuning t;
    vine__tuning_init(&t);
    vine_tune_rule r = {VINE_COLL_ALLREDUCE, 4, 0, 0, 2, g, 0, 0}, x;
#define TRY(field, value, want)                                                                    \
    do {                                                                                           \
        x = r;                                                                                     \
        x.field = value;                                                                           \
        expect_add_error(&t, &x, want);                                                            \
    } while (0)
    TRY(coll, (vine_coll)99, "rules[0]: collective 99 is unknown");
    TRY(p, 0, "rules[0]: ranks 0 is below 1");
    TRY(p, VINE_TUNING_RANKS_MAX + 1, "rules[0]: ranks 16777217 is above 16777216");
    TRY(ops, 5, "rules[0]: ops 5 is unknown");
    TRY(inplace, -1, "rules[0]: inplace -1 is unknown");
    TRY(nranges, 0, "rules[0]: \"ranges\" is empty");
    TRY(ranges, NULL, "rules[0]: \"ranges\" is empty");
    TRY(nranges, VINE_TUNING_RANGES_MAX + 1, "rules[0]: \"ranges\" has 4097 entries, at most 4096");
#undef TRY
#define TRY_RANGE(j, field, value, want)                                                           \
    do {                                                                                           \
        vine_tune_range h[2] = {g[0], g[1]};                                                       \
        h[j].field = value;                                                                        \
        x = r;                                                                                     \
        x.ranges = h;                                                                              \
        expect_add_error(&t, &x, want);                                                            \
    } while (0)
    TRY_RANGE(0, algo, NULL, "rules[0].ranges[0]: \"algorithm\" is missing");
    TRY_RANGE(1, algo, bino,
              "rules[0].ranges[1]: algorithm \"binomial\" is not an allreduce algorithm");
    TRY_RANGE(0, min, 11, "rules[0].ranges[0]: max 10 is below min 11");
    TRY_RANGE(1, min, 10, "rules[0].ranges[1]: min 10 is not above the previous range's max 10");
    TRY_RANGE(0, median_us, -1, "rules[0].ranges[0]: median_us -1 is below 0");
    TRY_RANGE(0, median_us, INFINITY, "rules[0].ranges[0]: median_us inf is not finite");
    TRY_RANGE(0, runner_up, bruck,
              "rules[0].ranges[0]: runner_up \"bruck\" is not an allreduce algorithm");
    TRY_RANGE(1, runner_up_us, -2, "rules[0].ranges[1]: runner_up_us -2 is below 0");
    if ((unsigned long long)SIZE_MAX > (unsigned long long)LLONG_MAX) {
        TRY_RANGE(1, max, SIZE_MAX,
                  "rules[0].ranges[1]: max 18446744073709551615 is above 9223372036854775807");
        TRY_RANGE(1, segment, SIZE_MAX,
                  "rules[0].ranges[1]: segment 18446744073709551615 is above 9223372036854775807");
    }
#undef TRY_RANGE
    char err[1024] = "";
    CHECK(vine__tuning_add_rule(&t, &r, err, sizeof err) == VINE_OK, "add: %s", err);
    g[0].max = 5; /* the table holds a copy */
    CHECK(t.nrules == 1 && t.rules[0].ranges != g && t.rules[0].ranges[0].max == 10,
          "add_rule copies the ranges");
    g[0].max = 10;
    expect_add_error(
        &t, &r,
        "rules[1]: allreduce on 4 ranks (ops any, inplace any) named twice, first as rules[0]");
    x = r;
    x.ops = VINE_TUNE_OPS_COMMUTATIVE;
    CHECK(vine__tuning_add_rule(&t, &x, err, sizeof err) == VINE_OK, "another class: %s", err);
    for (int p = 5; t.nrules < VINE_TUNING_RULES_MAX; p++) {
        x = r;
        x.p = p;
        CHECK(vine__tuning_add_rule(&t, &x, err, sizeof err) == VINE_OK, "p=%d: %s", p, err);
    }
    x.p = 1;
    expect_add_error(&t, &x, "rules[4096]: a table holds at most 4096 rules");
    vine__tuning_free(&t);
}

/* ---- round trip ---------------------------------------------------------------------------- */

/* A table with every field set, its rules from merged points. */
static void build_table(vine_tuning *t)
{
    char err[1024] = "";
    vine__tuning_init(t);
    snprintf(t->vine_version, sizeof t->vine_version, "0.1.0");
    snprintf(t->date, sizeof t->date, "2026-11-26T10:00:00Z");
    snprintf(t->mpi_library, sizeof t->mpi_library, "Open MPI v4.1.6, \"quoted\" \\ \xc3\xa9");
    t->ranks = 32;
    t->ranks_per_node = 16;
    t->cores = 8;
    t->nhosts = 2;
    t->hosts = calloc(2, sizeof *t->hosts);
    t->hosts[0] = strdup("node1");
    t->hosts[1] = strdup("node2");
    t->model.present = 1;
    vine__cost_defaults(&t->model.cost);
    t->model.cases = 120;
    t->model.agreement = 0.625;
    t->model.median_error = 0.3125;
    static const char *const names[][2] = {{"allreduce", "ring"}, {"allreduce", "bine"},
                                           {"bcast", "binomial"}, {"reduce_scatter", "ring"},
                                           {"alltoall", "bruck"}, {"barrier", "dissemination"}};
    static const int sizes[] = {4, 8, 16, 24};
    for (int k = 0; k < 6; k++)
        for (int s = 0; s < 4; s++) {
            vine_coll c = (vine_coll)vine__coll_parse(names[k][0]);
            const vine_algo *a = algo(c, names[k][1]), *m = algo(c, "mpi");
            vine_tune_point pts[] = {{8, m, 0, 3.125, a, 4.5},
                                     {64, m, 0, 3.5, NULL, NAN},
                                     {4096, a, 0, 120.001, m, 150.2},
                                     {65536, a, 65536, NAN, a, 7},
                                     {1 << 20, a, 65536, 900, NULL, 1000.999}};
            vine_tune_range *g = NULL;
            int n = 0;
            vine__tuning_merge(pts, 5 - s % 2, &g, &n);
            vine_tune_rule r = {c, sizes[s], (k + s) % 3, s % 3, n, g, 0, 0};
            CHECK(vine__tuning_add_rule(t, &r, err, sizeof err) == VINE_OK, "build: %s", err);
            free(g);
        }
}

/* The model's parameters are written with 15 significant digits. */
static int near(double a, double b)
{
    return fabs(a - b) <= 1e-14 * fabs(a);
}

static int same_medians(double a, double b)
{
    return (isnan(a) && isnan(b)) || fabs(a - b) < 5e-4;
}

static void compare_tables(const vine_tuning *a, const vine_tuning *b)
{
    CHECK(strcmp(a->vine_version, b->vine_version) == 0 && strcmp(a->date, b->date) == 0 &&
              strcmp(a->mpi_library, b->mpi_library) == 0,
          "round trip: header texts ('%s')", b->mpi_library);
    CHECK(a->ranks == b->ranks && a->ranks_per_node == b->ranks_per_node && a->cores == b->cores &&
              a->nhosts == b->nhosts && strcmp(a->hosts[1], b->hosts[1]) == 0,
          "round trip: machine");
    const vine_cost *c = &a->model.cost, *d = &b->model.cost;
    int same_cost = c->nclasses == d->nclasses && near(c->gamma, d->gamma);
    for (int i = 0; same_cost && i < c->nclasses; i++)
        same_cost = near(c->cls[i].alpha, d->cls[i].alpha) &&
                    near(c->cls[i].beta, d->cls[i].beta) &&
                    near(c->cls[i].contention, d->cls[i].contention);
    CHECK(b->model.present && b->model.cases == a->model.cases &&
              b->model.agreement == a->model.agreement &&
              b->model.median_error == a->model.median_error && same_cost,
          "round trip: model");
    CHECK(a->nrules == b->nrules, "round trip: %d rules, want %d", b->nrules, a->nrules);
    for (int i = 0; i < a->nrules && i < b->nrules; i++) {
        const vine_tune_rule *r = &a->rules[i], *q = &b->rules[i];
        CHECK(r->coll == q->coll && r->p == q->p && r->ops == q->ops && r->inplace == q->inplace &&
                  r->nranges == q->nranges && q->line > 0,
              "round trip: rule %d", i);
        for (int j = 0; j < r->nranges && j < q->nranges; j++) {
            const vine_tune_range *g = &r->ranges[j], *h = &q->ranges[j];
            CHECK(g->min == h->min && g->max == h->max && g->algo == h->algo &&
                      g->segment == h->segment && g->runner_up == h->runner_up &&
                      same_medians(g->median_us, h->median_us) &&
                      same_medians(g->runner_up_us, h->runner_up_us) && h->line > q->line,
                  "round trip: rule %d range %d", i, j);
        }
    }
}

/* The same rule and range for a grid of calls. */
static void compare_choices(const vine_tuning *a, const vine_tuning *b)
{
    static const int ps[] = {1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 20, 24, 32, 48, 49, 64, 100};
    static const size_t sizes[] = {0, 1, 7, 8, 63, 64, 100, 4096, 5000, 65536, 1 << 20, SIZE_MAX};
    long differ = 0, found = 0;
    for (int c = 0; c < VINE_COLL_COUNT; c++)
        for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++)
            for (int cl = 0; cl < 4; cl++) {
                const vine_tune_rule *r =
                    vine__tuning_rule(a, (vine_coll)c, ps[i], cl & 1, cl >> 1);
                const vine_tune_rule *q =
                    vine__tuning_rule(b, (vine_coll)c, ps[i], cl & 1, cl >> 1);
                if ((r ? r - a->rules : -1) != (q ? q - b->rules : -1)) {
                    differ++;
                    continue;
                }
                for (size_t k = 0; r && k < sizeof sizes / sizeof sizes[0]; k++) {
                    found++;
                    if (vine__tuning_range(r, sizes[k]) - r->ranges !=
                        vine__tuning_range(q, sizes[k]) - q->ranges)
                        differ++;
                }
            }
    CHECK(differ == 0 && found > 1000, "round trip: %ld of the choices differ (%ld found)", differ,
          found);
}

/* The whole of a small file. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *s = f ? calloc(1, 1 << 20) : NULL;
    if (s && fread(s, 1, (1 << 20) - 1, f) == 0) {
        free(s);
        s = NULL;
    }
    if (f)
        fclose(f);
    return s;
}

static void test_round_trip(void)
{
    char path[] = "/tmp/vine-tuning-XXXXXX", err[1024] = "";
    int fd = mkstemp(path);
    CHECK(fd >= 0, "mkstemp: %s", strerror(errno));
    if (fd < 0)
        return;
    close(fd);
    vine_tuning t, back, again;
    build_table(&t);
    vine__tuning_init(&back);
    vine__tuning_init(&again);
    CHECK(vine__tuning_save(&t, path, err, sizeof err) == VINE_OK, "save: %s", err);
    CHECK(vine__tuning_load(&back, path, err, sizeof err) == VINE_OK, "load back: %s", err);
    compare_tables(&t, &back);
    compare_choices(&t, &back);
    char *first = slurp(path);
    CHECK(vine__tuning_save(&back, path, err, sizeof err) == VINE_OK, "save again: %s", err);
    char *second = slurp(path);
    CHECK(first && second && strcmp(first, second) == 0, "a loaded table saves the same file");
    CHECK(first && strstr(first, "\"median_us\": 120.001,") && !strstr(first, "\"segment\": 0") &&
              !strstr(first, "\"line\""),
          "medians to 3 decimals, unset fields left out");
    free(first);
    free(second);

    vine__tuning_init(&again);
    CHECK(vine__tuning_save(&again, path, err, sizeof err) == VINE_OK, "save an empty table: %s",
          err);
    CHECK(vine__tuning_load(&back, path, err, sizeof err) == VINE_OK && back.nrules == 0 &&
              !back.model.present && back.nhosts == 0 && back.ranks == 0 && !back.date[0],
          "an empty table loads back empty: %s", err);
    vine__tuning_free(&back);
    vine__tuning_free(&t);
    unlink(path);
}

/* Rules of allgatherv, scan and exscan as vine-tune writes them load, save and load back alike. */
static void test_v_round_trip(void)
{
    static const char text[] =
        RULES("{\"collective\":\"allgatherv\",\"ranks\":3,\"ops\":\"any\",\"inplace\":\"any\","
              "\"ranges\":[{\"min\":8,\"max\":64,\"algorithm\":\"mpi\",\"median_us\":12.5},"
              "{\"min\":128,\"max\":4096,\"algorithm\":\"bine_block\",\"runner_up\":\"ring\"}]},"
              "{\"collective\":\"scan\",\"ranks\":3,\"ops\":\"commutative\","
              "\"ranges\":[{\"min\":8,\"max\":4096,\"algorithm\":\"recursive_doubling\"}]},"
              "{\"collective\":\"exscan\",\"ranks\":2,\"ops\":\"commutative\","
              "\"ranges\":[{\"min\":8,\"max\":4096,\"algorithm\":\"linear\"}]}");
    char path[] = "/tmp/vine-tuning-v-XXXXXX", err[1024] = "";
    int fd = mkstemp(path);
    CHECK(fd >= 0, "mkstemp: %s", strerror(errno));
    if (fd < 0)
        return;
    close(fd);
    vine_tuning t, back;
    vine__tuning_init(&t);
    vine__tuning_init(&back);
    CHECK(vine__tuning_parse(&t, text, strlen(text), "v.json", err, sizeof err) == VINE_OK &&
              t.nrules == 3 && t.rules[0].coll == VINE_COLL_ALLGATHERV &&
              t.rules[1].coll == VINE_COLL_SCAN && t.rules[2].coll == VINE_COLL_EXSCAN,
          "the v rules parse: %s", err);
    CHECK(vine__tuning_save(&t, path, err, sizeof err) == VINE_OK, "save the v rules: %s", err);
    char *first = slurp(path);
    CHECK(vine__tuning_load(&back, path, err, sizeof err) == VINE_OK, "load them back: %s", err);
    CHECK(vine__tuning_save(&back, path, err, sizeof err) == VINE_OK, "save again: %s", err);
    char *second = slurp(path);
    CHECK(first && second && strcmp(first, second) == 0 &&
              strstr(first, "\"collective\": \"allgatherv\"") &&
              strstr(first, "\"collective\": \"exscan\""),
          "the v rules save the same file again");
    free(first);
    free(second);
    const vine_tune_rule *r = vine__tuning_rule(&back, VINE_COLL_ALLGATHERV, 3, 1, 0);
    CHECK(r && strcmp(vine__tuning_range(r, 733)->algo->name, "bine_block") == 0,
          "allgatherv on 3 ranks, 733 bytes: bine_block");
    CHECK(vine__tuning_rule(&back, VINE_COLL_SCAN, 3, 0, 0) == NULL,
          "a noncommutative scan finds no commutative rule");
    vine__tuning_free(&t);
    vine__tuning_free(&back);
    unlink(path);
}

/*
 * A table that names the ring for allgatherv (measured with equal blocks,
 * keyed by the mean block) serves skewed blocks with bine_block: 16 ranks,
 * blocks of 64 KiB but one of 640 KiB (mean 100 KiB) take bine_block, equal
 * blocks the ring, and a range that names another algorithm keeps it.
 */
static void test_v_tuned_skew(void)
{
    static const char text[] =
        RULES("{\"collective\":\"allgatherv\",\"ranks\":16,\"ops\":\"any\",\"inplace\":\"any\","
              "\"ranges\":[{\"min\":8,\"max\":4096,\"algorithm\":\"recursive_doubling\"},"
              "{\"min\":8192,\"max\":16777216,\"algorithm\":\"ring\"}]}");
    char err[1024] = "";
    vine_tuning t;
    vine__tuning_init(&t);
    CHECK(vine__tuning_parse(&t, text, strlen(text), "skew.json", err, sizeof err) == VINE_OK,
          "the table parses: %s", err);
    size_t rc[16];
    for (int i = 0; i < 16; i++)
        rc[i] = 65536;
    vine_args a;
    memset(&a, 0, sizeof a);
    a.coll = VINE_COLL_ALLGATHERV;
    a.p = 16;
    a.rcounts = rc;
    vine__select_set_tuning(&t);
    size_t seg = 1;
    CHECK(strcmp(vine__select_auto_seg(&a, 1, &seg)->name, "ring") == 0,
          "equal blocks: the table's ring");
    rc[5] = 655360;
    CHECK(strcmp(vine__select_auto_seg(&a, 1, &seg)->name, "bine_block") == 0 && seg == 0,
          "one block 10 times the others: bine_block, no segment");
    for (int i = 0; i < 16; i++)
        rc[i] = i == 0 ? 3000 : 100; /* mean 281 bytes: recursive doubling's range */
    CHECK(strcmp(vine__select_auto(&a, 1)->name, "recursive_doubling") == 0,
          "skewed in a range that is not the ring: the table's choice");
    vine__select_set_tuning(NULL);
    vine__tuning_free(&t);
}

/* ---- the writer's messages ------------------------------------------------------------------ */

static void expect_save_error(const vine_tuning *t, const char *path, const char *want)
{
    char err[1024] = "", full[1200];
    snprintf(full, sizeof full, "%s: %s", path, want);
    CHECK(vine__tuning_save(t, path, err, sizeof err) == VINE_ERR_UNSUPPORTED, "saved: %s", want);
    CHECK(strcmp(err, full) == 0, "save:\n  got  '%s'\n  want '%s'", err, full);
}

static void test_save_errors(void)
{
    const char *path = "/tmp/vine-tuning-unwritten.json";
    vine_tuning t;
    build_table(&t);
    char missing[64];
    snprintf(missing, sizeof missing, "cannot write: %s", strerror(ENOENT));
    expect_save_error(&t, "/nonexistent-vine-dir/t.json", missing);

    const vine_algo *keep = t.rules[0].ranges[0].algo;
    t.rules[0].ranges[0].algo = NULL;
    expect_save_error(&t, path, "rules[0].ranges[0]: \"algorithm\" is missing");
    t.rules[0].ranges[0].algo = keep;
    vine_tune_rule second = t.rules[1];
    t.rules[1] = t.rules[0];
    expect_save_error(&t, path,
                      "rules[1]: allreduce on 4 ranks (ops any, inplace any) named twice, first "
                      "as rules[0]");
    t.rules[1] = second;

    memset(t.date, 'x', sizeof t.date);
    expect_save_error(&t, path, "\"date\" is longer than 255 bytes");
    t.date[0] = '\0';
    free(t.hosts[0]);
    t.hosts[0] = strdup("\xff");
    expect_save_error(&t, path, "machine: hosts[0] is not valid UTF-8");
    free(t.hosts[0]);
    t.hosts[0] = strdup("node1");
    t.ranks = -1;
    expect_save_error(&t, path, "machine: ranks -1 is below 0");
    t.ranks = 0;
    t.model.cost.cls[0].alpha = NAN;
    expect_save_error(&t, path, "model: the cost parameters are not finite or not 1 to 9 levels");
    t.model.cost.cls[0].alpha = -1;
    expect_save_error(&t, path, "model: levels[0]: \"alpha\" missing or not a number >= 0");
    t.model.cost.cls[0].alpha = 1e-6;
    t.model.agreement = 2;
    expect_save_error(&t, path, "model: agreement 2 is above 1");
    t.model.agreement = NAN;
    t.model.median_error = -1;
    expect_save_error(&t, path, "model: median_error -1 is below 0");
    t.model.median_error = NAN;
    t.model.cases = -3;
    expect_save_error(&t, path, "model: cases -3 is below 0");
    t.model.cases = 0;
    char err[1024] = "";
    CHECK(vine__tuning_save(&t, path, err, sizeof err) == VINE_OK, "fixed table saves: %s", err);
    vine_tuning back;
    vine__tuning_init(&back);
    CHECK(vine__tuning_load(&back, path, err, sizeof err) == VINE_OK && back.model.present &&
              back.model.cases == 0 && back.model.agreement == 0 && back.ranks == 0,
          "unset statistics are left out: %s", err);
    vine__tuning_free(&back);
    unlink(path);
    vine__tuning_free(&t);
}

/* ---- the line finder --------------------------------------------------------------------------
 */

static void test_jsonpos(void)
{
    const char *text = " {\"a\\\"b\": \"x\\\\\",\n"
                       "  \"n\": {\"k\": [1, {\"c\": \"}]\"}], \"l\": 2},\n"
                       "  \"arr\": [\n"
                       "    10,\n"
                       "    \"s,]\" ,\n"
                       "    [[]], {}\n"
                       "  ],\n"
                       "  \"\\u00e9\\ud83d\\ude00\": true}";
    size_t len = strlen(text);
    vine_jsonpos root = vine__jsonpos_root(text, len), v, w;
    CHECK(root.off == 1 && root.line == 1, "root at offset %zu", root.off);
    CHECK(vine__jsonpos_key(&root, "a\"b", &v) == 0 && v.line == 1 && text[v.off] == '"',
          "an escaped key");
    CHECK(vine__jsonpos_key(&root, "n", &v) == 0 && v.line == 2 && text[v.off] == '{', "n");
    CHECK(vine__jsonpos_key(&v, "l", &w) == 0 && w.line == 2 && text[w.off] == '2',
          "past a nested string with brackets");
    CHECK(vine__jsonpos_key(&v, "c", &w) == -1, "keys of nested objects are not the object's");
    CHECK(vine__jsonpos_key(&root, "arr", &v) == 0 && v.line == 3, "arr");
    static const int lines[] = {4, 5, 6, 6};
    static const char first[] = "1\"[{";
    for (size_t i = 0; i < 4; i++)
        CHECK(vine__jsonpos_index(&v, i, &w) == 0 && w.line == lines[i] && text[w.off] == first[i],
              "arr[%zu] on line %d", i, lines[i]);
    CHECK(vine__jsonpos_index(&v, 4, &w) == -1, "arr[4] does not exist");
    CHECK(vine__jsonpos_index(&v, 2, &w) == 0 && vine__jsonpos_next(&w, &w) == 0 &&
              text[w.off] == '{' && vine__jsonpos_next(&w, &w) == -1,
          "next, then the end");
    CHECK(vine__jsonpos_key(&root, "\xc3\xa9\xf0\x9f\x98\x80", &v) == 0 && v.line == 8,
          "a key with \\u escapes and a surrogate pair");
    CHECK(vine__jsonpos_key(&root, "\xc3\xa9", &v) == -1 && vine__jsonpos_key(&root, "", &v) == -1,
          "prefixes are not keys");
    CHECK(vine__jsonpos_key(&root, "zzz", &v) == -1, "a missing key");
    CHECK(vine__jsonpos_index(&root, 0, &v) == -1, "an object is not an array");
    /* Malformed text: the walk stops at the end. */
    static const char *const broken[] = {"{\"a",         "{\"a\":", "{\"a\": [1, ",
                                         "{\"b\": \"\\", "[",       ""};
    for (size_t i = 0; i < sizeof broken / sizeof broken[0]; i++) {
        vine_jsonpos r = vine__jsonpos_root(broken[i], strlen(broken[i]));
        CHECK(vine__jsonpos_key(&r, "z", &v) == -1 && vine__jsonpos_index(&r, 1, &v) == -1,
              "broken text %zu", i);
    }
}

/* ---- sizes ------------------------------------------------------------------------------------
 */

static size_t bytes_of(vine_coll c, int p, size_t count, size_t type_size, const size_t *displs)
{
    vine_args a;
    memset(&a, 0, sizeof a);
    a.coll = c;
    a.p = p;
    a.count = count;
    a.displs = displs;
    return vine__tuning_bytes(&a, type_size);
}

/* A v collective's size with the receive table rcounts (bytes per block at run time). */
static size_t vbytes_of(vine_coll c, int p, size_t count, const size_t *rcounts)
{
    vine_args a;
    memset(&a, 0, sizeof a);
    a.coll = c;
    a.p = p;
    a.count = count;
    a.rcounts = a.scounts = rcounts;
    return vine__tuning_bytes(&a, 1);
}

/* allgatherv's mean block, scan and exscan's vector, 0 for the v collectives ranks see apart. */
static void test_vbytes(void)
{
    static const size_t blocks[] = {2000, 100, 100, 0}, huge[] = {SIZE_MAX, SIZE_MAX};
    CHECK(vbytes_of(VINE_COLL_ALLGATHERV, 4, 0, blocks) == 550, "allgatherv: 2200 / 4");
    CHECK(vbytes_of(VINE_COLL_ALLGATHERV, 3, (size_t)INT_MAX + 1, blocks) == 733,
          "allgatherv: 2200 / 3 rounded down, count not read");
    CHECK(vbytes_of(VINE_COLL_ALLGATHERV, 2, 0, huge) == SIZE_MAX / 2, "allgatherv: saturates");
    CHECK(vbytes_of(VINE_COLL_ALLGATHERV, 4, 64, NULL) == 64, "allgatherv without a table");
    CHECK(bytes_of(VINE_COLL_ALLGATHERV, 4, 16, 4, NULL) == 64, "allgatherv: count x type");
    CHECK(bytes_of(VINE_COLL_SCAN, 4, 100, 4, NULL) == 400, "scan: the vector");
    CHECK(bytes_of(VINE_COLL_EXSCAN, 4, 100, 8, NULL) == 800, "exscan: the vector");
    static const vine_coll apart[] = {VINE_COLL_ALLTOALLV, VINE_COLL_ALLTOALLW, VINE_COLL_GATHERV,
                                      VINE_COLL_SCATTERV};
    for (size_t i = 0; i < sizeof apart / sizeof apart[0]; i++)
        CHECK(vbytes_of(apart[i], 4, (size_t)INT_MAX + 1, blocks) == 0, "%s: 0",
              vine__coll_name(apart[i]));
}

static void test_bytes(void)
{
    static const size_t displs[] = {0, 3, 6, 9, 13};
    CHECK(bytes_of(VINE_COLL_BCAST, 4, 100, 8, NULL) == 800, "bcast: the vector");
    CHECK(bytes_of(VINE_COLL_REDUCE, 4, 100, 8, NULL) == 800, "reduce: the vector");
    CHECK(bytes_of(VINE_COLL_ALLREDUCE, 4, 100, 4, NULL) == 400, "allreduce: the vector");
    CHECK(bytes_of(VINE_COLL_ALLGATHER, 4, 64, 1, NULL) == 64, "allgather: one block");
    CHECK(bytes_of(VINE_COLL_ALLTOALL, 4, 64, 1, NULL) == 64, "alltoall: one block");
    CHECK(bytes_of(VINE_COLL_GATHER, 4, 64, 1, NULL) == 64, "gather: one block");
    CHECK(bytes_of(VINE_COLL_SCATTER, 4, 64, 1, NULL) == 64, "scatter: one block");
    CHECK(bytes_of(VINE_COLL_REDUCE_SCATTER_BLOCK, 4, 10, 4, NULL) == 40,
          "reduce_scatter_block: one block");
    CHECK(bytes_of(VINE_COLL_REDUCE_SCATTER, 4, 13, 8, displs) == 24,
          "reduce_scatter: the average block, 13 / 4 = 3 elements");
    CHECK(bytes_of(VINE_COLL_REDUCE_SCATTER, 4, 13, 8, NULL) == 24,
          "reduce_scatter without displs: count / p");
    CHECK(bytes_of(VINE_COLL_REDUCE_SCATTER, 0, 13, 8, NULL) == 0, "reduce_scatter, p 0");
    CHECK(bytes_of(VINE_COLL_BARRIER, 4, 100, 8, NULL) == 0, "barrier: 0");
    CHECK(bytes_of(VINE_COLL_ALLREDUCE, 4, SIZE_MAX / 2 + 1, 4, NULL) == SIZE_MAX, "saturates");
    CHECK(bytes_of(VINE_COLL_ALLREDUCE, 4, SIZE_MAX, 0, NULL) == 0, "type size 0");
    CHECK(strcmp(vine__tuning_ops_name(VINE_TUNE_OPS_NONCOMMUTATIVE), "noncommutative") == 0 &&
              strcmp(vine__tuning_inplace_name(VINE_TUNE_INPLACE_YES), "yes") == 0 &&
              strcmp(vine__tuning_ops_name(7), "?") == 0,
          "class names");
    test_vbytes();
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        printf("usage: test_tuning DATA_DIR\n");
        return 2;
    }
    data_dir = argv[1];
    test_range_lookup();
    test_nearest_size();
    test_class_precedence();
    test_merge();
    test_header_errors();
    test_machine_errors();
    test_model_errors();
    test_rule_errors();
    test_range_errors();
    test_error_lines();
    test_truncated();
    test_limits();
    test_syntax();
    test_files();
    test_add_rule();
    test_round_trip();
    test_v_round_trip();
    test_v_tuned_skew();
    test_save_errors();
    test_jsonpos();
    test_bytes();
    printf("tuning: %ld checks, %ld failed\n", checks, failures);
    return failures > 0;
}
