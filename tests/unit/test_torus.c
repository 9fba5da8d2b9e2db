/*
 * Torus coordinates (src/coll/torus.h): the shape of uniform level maps,
 * row-major coordinates of "torus:AxBxC", coordinates of a scattered
 * placement, lines along each dimension, and the refusals.
 */
#include "../../src/coll/torus.h"
#include "../../src/sched/sched.h"
#include "../../src/select/select.h"
#include "check.h"

#include <stdio.h>
#include <string.h>

/* Shape and row-major coordinates of spec over p ranks. */
static void row_major(const char *spec, int p, int nd, const int *dims)
{
    vine_levels m;
    char err[256] = "";
    int rc = vine__levels_parse(spec, p, &m, err, sizeof err);
    CHECK(rc == VINE_OK, "%s: parse %d: %s", spec, rc, err);
    if (rc != VINE_OK)
        return;
    vine_torus t;
    rc = vine__torus_make(&m, p, &t, err, sizeof err);
    CHECK(rc == VINE_OK && t.nd == nd, "%s: make %d nd %d: %s", spec, rc, t.nd, err);
    for (int d = 0; d < nd && d < t.nd; d++)
        CHECK(t.dims[d] == dims[d], "%s: dims[%d] = %d, want %d", spec, d, t.dims[d], dims[d]);
    int line[4096];
    for (int r = 0; r < p; r++) {
        int c[VINE_TORUS_MAXD], x = r;
        vine__torus_coords(&t, r, c);
        for (int d = nd - 1; d >= 0; d--) {
            CHECK(c[d] == x % dims[d], "%s: rank %d coord %d = %d, want %d", spec, r, d, c[d],
                  x % dims[d]);
            x /= dims[d];
        }
        CHECK(vine__torus_rank(&t, c) == r, "%s: rank of rank %d's coordinates", spec, r);
        for (int d = 0; d < nd; d++) {
            int own = vine__torus_line(&t, r, d, line), stride = 1;
            for (int e = d + 1; e < nd; e++)
                stride *= dims[e];
            CHECK(own == c[d] && line[own] == r, "%s: rank %d line %d own %d", spec, r, d, own);
            for (int i = 0; i < dims[d]; i++)
                CHECK(line[i] == r + (i - c[d]) * stride, "%s: rank %d line %d [%d] = %d", spec, r,
                      d, i, line[i]);
        }
    }
    vine__levels_free(&m);
}

int main(void)
{
    row_major("torus:2x3x5", 30, 3, (const int[]){2, 3, 5});
    row_major("block:5,3", 30, 3, (const int[]){2, 3, 5});
    row_major("torus:4x4x4x2", 128, 4, (const int[]){4, 4, 4, 2});
    row_major("torus:7x1x3", 21, 3, (const int[]){7, 1, 3});
    row_major("torus:16x16", 256, 2, (const int[]){16, 16});
    row_major("torus:1x1x1", 1, 3, (const int[]){1, 1, 1});
    row_major("torus:8x8x8", 512, 3, (const int[]){8, 8, 8});
    row_major("torus:12", 12, 2, (const int[]){1, 12});

    /* No map: one dimension. */
    vine_torus t;
    CHECK(vine__torus_make(NULL, 9, &t, NULL, 0) == VINE_OK && t.nd == 1 && t.dims[0] == 9,
          "NULL map: nd %d", t.nd);
    int c[VINE_TORUS_MAXD];
    vine__torus_coords(&t, 4, c);
    CHECK(c[0] == 4 && vine__torus_rank(&t, c) == 4, "NULL map: coordinates of 4");

    /* A scattered placement: rank r on node r mod 4 (cyclic), nodes in pairs. */
    vine_levels m;
    char err[256] = "";
    CHECK(vine__levels_parse("cyclic:4/block:2", 16, &m, err, sizeof err) == VINE_OK, "%s", err);
    CHECK(vine__torus_make(&m, 16, &t, err, sizeof err) == VINE_OK && t.nd == 3 && t.dims[0] == 2 &&
              t.dims[1] == 2 && t.dims[2] == 4,
          "cyclic: %s", err);
    int seen[16] = {0};
    for (int r = 0; r < 16; r++) {
        vine__torus_coords(&t, r, c);
        /* rank r: node r % 4 = 2 c0 + c1 (nodes numbered by lowest rank), index r / 4. */
        CHECK(c[2] == r / 4 && 2 * c[0] + c[1] == r % 4, "cyclic: rank %d at %d,%d,%d", r, c[0],
              c[1], c[2]);
        int q = vine__torus_rank(&t, c);
        CHECK(q == r, "cyclic: rank %d back as %d", r, q);
        seen[(c[0] * 2 + c[1]) * 4 + c[2]]++;
    }
    for (int i = 0; i < 16; i++)
        CHECK(seen[i] == 1, "cyclic: point %d taken %d times", i, seen[i]);
    vine__levels_free(&m);

    /* Not uniform: nodes of 3, 5, 3, 5. */
    CHECK(vine__levels_parse("sizes:3,5", 16, &m, err, sizeof err) == VINE_OK, "%s", err);
    err[0] = '\0';
    CHECK(vine__torus_make(&m, 16, &t, err, sizeof err) == VINE_ERR_UNSUPPORTED &&
              strstr(err, "not uniform") && t.nd == 1 && t.dims[0] == 16,
          "sizes: %s", err);
    CHECK(!vine__torus_applies(&m, 16), "sizes applies");
    vine__levels_free(&m);

    /* torus: with the wrong product, and malformed. */
    CHECK(vine__levels_parse("torus:2x3", 7, &m, err, sizeof err) == VINE_ERR_UNSUPPORTED &&
              strstr(err, "product is not 7"),
          "torus:2x3 at 7: %s", err);
    CHECK(vine__levels_parse("torus:2x0x3", 0, &m, err, sizeof err) == VINE_ERR_UNSUPPORTED,
          "torus:2x0x3");
    CHECK(vine__levels_parse("torus:2,3", 6, &m, err, sizeof err) == VINE_ERR_UNSUPPORTED,
          "torus:2,3");

    /* The torus flag: set by torus:, not by an equal block map; auto prices the torus
     * algorithms only with it. */
    static const char *const specs[2] = {"block:16", "torus:16x16"};
    for (int i = 0; i < 2; i++) {
        CHECK(vine__levels_parse(specs[i], 256, &m, err, sizeof err) == VINE_OK, "%s", err);
        CHECK(m.torus == i, "%s: torus flag %d", specs[i], m.torus);
        vine_args a;
        memset(&a, 0, sizeof a);
        a.coll = VINE_COLL_ALLGATHER;
        a.p = 256;
        a.count = 1024;
        a.commutative = 1;
        a.levels = &m;
        vine_select_why why;
        (void)vine__select_explain(&a, 4, &why);
        int swing = 0;
        for (int c = 0; c < why.n; c++)
            swing += strcmp(why.cand[c].algo->name, "swing") == 0 && why.cand[c].priced;
        CHECK(swing == i, "%s: swing priced %d times", specs[i], swing);
        vine__levels_free(&m);
    }

    /* The multiport allreduce's parts: 2D on equal dimensions, 2 on unequal ones below
     * 2^18 elements a part, one without the torus flag, a dimension that is no power of
     * two, or parts of fewer than p elements. */
    static const struct {
        const char *spec;
        int p;
        size_t count;
        int parts;
    } mp[] = {
        {"torus:16x16", 256, 1024, 4},
        {"torus:16x16", 256, 1023, 1},
        {"block:16", 256, 1 << 20, 1},
        {"torus:4x8", 32, 64, 2},
        {"torus:4x8", 32, (size_t)4 << 18, 4},
        {"torus:4x8", 32, ((size_t)4 << 18) - 4, 2},
        {"torus:3x4", 12, 1 << 20, 1},
        {"torus:1x8x1", 8, 16, 2},
        {"torus:2x2x2", 8, 48, 6},
    };
    for (size_t i = 0; i < sizeof mp / sizeof *mp; i++) {
        vine_torus t;
        CHECK(vine__levels_parse(mp[i].spec, mp[i].p, &m, err, sizeof err) == VINE_OK, "%s", err);
        CHECK(vine__torus_make(&m, mp[i].p, &t, err, sizeof err) == VINE_OK, "%s", err);
        int got = vine__torus_multiport_parts(&t, &m, mp[i].count);
        CHECK(got == mp[i].parts, "%s count %zu: %d parts, expected %d", mp[i].spec, mp[i].count,
              got, mp[i].parts);
        vine__levels_free(&m);
    }
    /* Auto prices it on a torus network only, cheaper than bine_torus where it splits. */
    for (int i = 0; i < 2; i++) {
        CHECK(vine__levels_parse(specs[i], 256, &m, err, sizeof err) == VINE_OK, "%s", err);
        vine_args a;
        memset(&a, 0, sizeof a);
        a.coll = VINE_COLL_ALLREDUCE;
        a.p = 256;
        a.count = 1 << 20;
        a.commutative = 1;
        a.levels = &m;
        vine_select_why why;
        (void)vine__select_explain(&a, 4, &why);
        double mport = -1, bt = -1;
        for (int c = 0; c < why.n; c++) {
            if (!why.cand[c].priced)
                continue;
            if (strcmp(why.cand[c].algo->name, "bine_torus_multiport") == 0)
                mport = why.cand[c].cost;
            if (strcmp(why.cand[c].algo->name, "bine_torus") == 0)
                bt = why.cand[c].cost;
        }
        CHECK(i ? mport > 0 && mport < bt : mport < 0, "%s: multiport %g, bine_torus %g", specs[i],
              mport, bt);
        vine__levels_free(&m);
    }

    printf("unit.torus: %ld checks, %ld failed\n", checks, failures);
    return failures > 0;
}
