/*
 * Torus coordinates (src/coll/torus.h): the shape of uniform level maps,
 * row-major coordinates of "torus:AxBxC", coordinates of a scattered
 * placement, lines along each dimension, and the refusals; the multiport
 * parts, their pricing, and the rules of vine__sub_zip (phase_sub.h).
 */
#include "../../src/coll/phase_sub.h"
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

/* Part k of the zip test for rank 0 of 2: round 0 idle (kept or dropped), round 1 one message. */
static void zip_part(vine_sched *s, int k, int keep)
{
    vine__sched_init(s, 2, 0);
    s->keep_rounds = keep;
    vine__sched_fence(s);
    vine__sched_send(s, 1, VINE_BUF_SEND, (size_t)k, 1);
    vine__sched_copy(s, VINE_BUF_SEND, (size_t)k, VINE_BUF_RECV, (size_t)k, 1);
    vine__sched_fence(s);
}

/*
 * vine__sub_zip's rule 1: a part must keep its empty rounds (else round k
 * may be another step at the peer), no shared memory, no parity slots, and
 * be built for the same rank; the merged schedule drops the rounds empty in
 * every part and posts the parts' messages before their local operations.
 */
static void zip_rules(void)
{
    vine_sched parts[2], s;
    for (int keep = 0; keep < 2; keep++) {
        for (int k = 0; k < 2; k++)
            zip_part(&parts[k], k, keep);
        CHECK(parts[0].nrounds == (size_t)(1 + keep), "keep %d: %zu rounds", keep,
              parts[0].nrounds);
        vine__sched_init(&s, 2, 0);
        int rc = vine__sub_zip(&s, parts, 2);
        CHECK(rc == (keep ? VINE_OK : VINE_ERR_INTERNAL), "keep %d: zip %d", keep, rc);
        if (keep)
            CHECK(s.nrounds == 1 && s.nops == 4 && s.ops[0].kind == VINE_OP_SEND &&
                      s.ops[1].kind == VINE_OP_SEND && s.ops[1].off == 1 &&
                      s.ops[2].kind == VINE_OP_COPY,
                  "merged: %zu rounds, %zu ops", s.nrounds, s.nops);
        vine__sched_free(&s);
        for (int k = 0; k < 2; k++)
            vine__sched_free(&parts[k]);
    }
    /* Shared memory, parity slots, another rank: refused. */
    for (int bad = 0; bad < 3; bad++) {
        for (int k = 0; k < 2; k++)
            zip_part(&parts[k], k, 1);
        if (bad == 0)
            parts[1].shm = 1;
        else if (bad == 1)
            parts[1].par = 1;
        else
            parts[1].rank = 1;
        vine__sched_init(&s, 2, 0);
        CHECK(vine__sub_zip(&s, parts, 2) == VINE_ERR_INTERNAL, "bad part %d accepted", bad);
        vine__sched_free(&s);
        for (int k = 0; k < 2; k++)
            vine__sched_free(&parts[k]);
    }
}

/*
 * The multiport algorithms are priced on a torus network (allreduce, bcast
 * and reduce below bine_torus where they split: 2^20 elements on 16 x 16),
 * and not on the same map without the torus flag.
 */
static void multiport_priced(void)
{
    static const char *const specs[2] = {"block:16", "torus:16x16"};
    static const vine_coll colls[] = {VINE_COLL_ALLREDUCE, VINE_COLL_BCAST, VINE_COLL_REDUCE,
                                      VINE_COLL_ALLGATHER};
    char err[256] = "";
    for (int i = 0; i < 2; i++) {
        vine_levels m;
        CHECK(vine__levels_parse(specs[i], 256, &m, err, sizeof err) == VINE_OK, "%s", err);
        for (size_t j = 0; j < sizeof colls / sizeof *colls; j++) {
            vine_args a;
            memset(&a, 0, sizeof a);
            a.coll = colls[j];
            a.p = 256;
            a.count = colls[j] == VINE_COLL_ALLGATHER ? 1 << 12 : 1 << 20;
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
            /* The allgather's copy of its n elements into place outweighs the ports here. */
            int cheaper = mport < bt || colls[j] == VINE_COLL_ALLGATHER;
            CHECK(i ? mport > 0 && cheaper : mport < 0, "%s coll %d: multiport %g, bine_torus %g",
                  specs[i], (int)colls[j], mport, bt);
        }
        vine__levels_free(&m);
    }
}

int main(void)
{
    zip_rules();
    multiport_priced();
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
     * two, or parts of fewer than p elements.  The trees' (tree 1): any dimensions, from
     * one element a part. */
    static const struct {
        const char *spec;
        int p;
        size_t count;
        int parts, tree;
    } mp[] = {
        {"torus:16x16", 256, 1024, 4, 0},
        {"torus:16x16", 256, 1023, 1, 0},
        {"block:16", 256, 1 << 20, 1, 0},
        {"torus:4x8", 32, 64, 2, 0},
        {"torus:4x8", 32, (size_t)4 << 18, 4, 0},
        {"torus:4x8", 32, ((size_t)4 << 18) - 4, 2, 0},
        {"torus:3x4", 12, 1 << 20, 1, 0},
        {"torus:1x8x1", 8, 16, 2, 0},
        {"torus:2x2x2", 8, 48, 6, 0},
        {"torus:2x3x5", 30, 2, 2, 1},
        {"torus:2x3x5", 30, 1, 1, 1},
        {"torus:3x3", 9, 4, 4, 1},
        {"torus:3x3", 9, 3, 1, 1},
        {"block:5,3", 30, 1 << 20, 1, 1},
        {"torus:4x4x4x2", 128, 8, 2, 1},
    };
    for (size_t i = 0; i < sizeof mp / sizeof *mp; i++) {
        vine_torus t;
        CHECK(vine__levels_parse(mp[i].spec, mp[i].p, &m, err, sizeof err) == VINE_OK, "%s", err);
        CHECK(vine__torus_make(&m, mp[i].p, &t, err, sizeof err) == VINE_OK, "%s", err);
        int got = mp[i].tree ? vine__torus_multiport_tree_parts(&t, &m, mp[i].count)
                             : vine__torus_multiport_parts(&t, &m, mp[i].count);
        CHECK(got == mp[i].parts, "%s count %zu: %d parts, expected %d", mp[i].spec, mp[i].count,
              got, mp[i].parts);
        vine__levels_free(&m);
    }
    printf("unit.torus: %ld checks, %ld failed\n", checks, failures);
    return failures > 0;
}
