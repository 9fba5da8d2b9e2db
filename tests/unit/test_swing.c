/*
 * Swing's peers, fold and block sets (src/coll/phase_swing.h), no MPI: the
 * one-dimensional peers against ../shared/BINE.md's table (pi, shared with
 * Swing), the step order and peers on tori (dimensions in turn, each with
 * its own rho), the fold of non-power-of-two dimensions, and the property
 * the builders rely on: the peers at step s are the two halves of the
 * participants that share the top s position bits.  And that where no
 * dimension folds, reduce_scatter_block and allgather swing copy no more
 * than a block (the sets run on the blocks where they lie).
 */
#include "../../src/coll/phase_swing.h"
#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* w for p ranks of the torus spec (NULL: one dimension); 0 on failure. */
static int make(vine_swing *w, vine_levels *m, const char *spec, int p)
{
    char err[256] = "";
    memset(m, 0, sizeof *m);
    if (spec && vine__levels_parse(spec, p, m, err, sizeof err) != VINE_OK) {
        CHECK(0, "%s: %s", spec, err);
        return 0;
    }
    vine_args a;
    memset(&a, 0, sizeof a);
    a.p = p;
    a.levels = spec ? m : NULL;
    int rc = vine__swing_init(w, &a);
    CHECK(rc == VINE_OK, "%s at %d: init %d", spec ? spec : "flat", p, rc);
    if (rc != VINE_OK)
        vine__levels_free(m);
    return rc == VINE_OK;
}

/* BINE.md: pi(r, s) for p = 8, s = 0, 1, 2. */
static void one_dimension(void)
{
    static const int pi[3][8] = {
        {1, 0, 3, 2, 5, 4, 7, 6}, {7, 2, 1, 4, 3, 6, 5, 0}, {3, 6, 5, 0, 7, 2, 1, 4}};
    vine_swing w;
    vine_levels m;
    if (!make(&w, &m, NULL, 8))
        return;
    CHECK(w.nd == 1 && w.n == 3 && w.np == 8, "p=8: nd %d n %d np %d", w.nd, w.n, w.np);
    for (int s = 0; s < 3; s++)
        for (int r = 0; r < 8; r++)
            CHECK(w.real[vine__swing_peer(&w, vine__swing_me(&w, r), s)] == pi[s][r],
                  "p=8 step %d rank %d", s, r);
    vine__swing_free(&w);
}

/*
 * 4 x 8 in row-major order: the steps alternate dimension 0, 1, 0, 1, then
 * 1 alone; the peer of (0, 0) at the dimension's step j is rho(j) along it.
 */
static void torus_steps(void)
{
    vine_swing w;
    vine_levels m;
    if (!make(&w, &m, "torus:4x8", 32))
        return;
    static const int dim[] = {0, 1, 0, 1, 1}, sub[] = {0, 0, 1, 1, 2};
    static const int peer0[] = {8, 1, 3 * 8, 7, 3};
    CHECK(w.n == 5, "4x8: %d steps", w.n);
    for (int s = 0; s < 5 && s < w.n; s++) {
        CHECK(w.dim[s] == dim[s] && w.sub[s] == sub[s], "4x8 step %d: dim %d sub %d", s, w.dim[s],
              w.sub[s]);
        CHECK(w.real[vine__swing_peer(&w, vine__swing_me(&w, 0), s)] == peer0[s],
              "4x8 step %d: peer of 0", s);
    }
    /* (1, 3) is odd along both: minus rho. */
    int me = vine__swing_me(&w, 11);
    CHECK(w.real[vine__swing_peer(&w, me, 0)] == 3 && w.real[vine__swing_peer(&w, me, 1)] == 10,
          "4x8: peers of 11");
    vine__swing_free(&w);
    vine__levels_free(&m);
}

/* 3 x 1 x 6: the odd coordinates below 2 (D - D') fold onto their even neighbours. */
static void fold(void)
{
    vine_swing w;
    vine_levels m;
    if (!make(&w, &m, "torus:3x1x6", 18))
        return;
    CHECK(w.np == 2 * 4 && w.n == 3, "3x1x6: np %d n %d", w.np, w.n);
    int sits;
    /* Rank 1 (0, 0, 1) folds into rank 0 along dimension 2; rank 6 (1, 0, 0) into 0 along 0. */
    CHECK(vine__swing_fold_partner(&w, 1, 2, &sits) == 0 && sits, "3x1x6: rank 1");
    CHECK(vine__swing_fold_partner(&w, 6, 0, &sits) == 0 && sits, "3x1x6: rank 6");
    CHECK(vine__swing_fold_partner(&w, 7, 2, &sits) == -1, "3x1x6: rank 7 folded at 0");
    CHECK(vine__swing_me(&w, 7) == -1 && vine__swing_me(&w, 13) == -1 && w.part[13] == w.part[12] &&
              w.part[12] == vine__swing_me(&w, 12),
          "3x1x6: 7 and 13 sit out, 13 folds into 12");
    CHECK(vine__swing_stands_for(&w, 0, 3, 7) && !vine__swing_stands_for(&w, 0, 3, 2),
          "3x1x6: rank 0 stands for 7, not 2");
    vine__swing_free(&w);
    vine__levels_free(&m);
}

/*
 * Every participant and step: the peer shares the top s position bits and
 * differs in the next one, so the sets of the two after step s halve theirs.
 */
static void halves(const char *spec, int p)
{
    vine_swing w;
    vine_levels m;
    if (!make(&w, &m, spec, p))
        return;
    for (int me = 0; me < w.np; me++)
        for (int s = 0; s < w.n; s++) {
            int q = vine__swing_peer(&w, me, s), x = w.pos[me] ^ w.pos[q];
            CHECK(vine__swing_peer(&w, q, s) == me, "%s: peer of peer", spec);
            CHECK(x >> (w.n - 1 - s) == 1, "%s: participant %d step %d: positions %d and %d", spec,
                  me, s, w.pos[me], w.pos[q]);
        }
    vine__swing_free(&w);
    vine__levels_free(&m);
}

/*
 * reduce_scatter_block and allgather swing on the torus spec for p ranks,
 * blocks of c elements: the largest COPY over every rank and the largest
 * scratch (*ag_tmp: the allgather's, *rs_tmp: the reduce-scatter's).
 */
static size_t largest_copy(const char *spec, int p, size_t c, size_t *rs_tmp, size_t *ag_tmp)
{
    vine_levels m;
    char err[256] = "";
    memset(&m, 0, sizeof m);
    *rs_tmp = *ag_tmp = 0;
    if (vine__levels_parse(spec, p, &m, err, sizeof err) != VINE_OK) {
        CHECK(0, "%s: %s", spec, err);
        return 0;
    }
    size_t *counts = malloc((size_t)p * sizeof *counts), big = 0;
    size_t *displs = malloc(((size_t)p + 1) * sizeof *displs);
    for (int x = 0; counts && displs && x <= p; x++) {
        displs[x] = (size_t)x * c;
        if (x < p)
            counts[x] = c;
    }
    static const vine_coll colls[] = {VINE_COLL_REDUCE_SCATTER_BLOCK, VINE_COLL_ALLGATHER};
    for (int k = 0; counts && displs && k < 2; k++) {
        const vine_algo *alg = vine__algo_find(colls[k], "swing");
        for (int r = 0; alg && r < p; r++) {
            vine_args a;
            memset(&a, 0, sizeof a);
            a.coll = colls[k];
            a.p = p;
            a.rank = r;
            a.count = c;
            a.counts = k == 0 ? counts : NULL;
            a.displs = k == 0 ? displs : NULL;
            a.commutative = 1;
            a.levels = &m;
            vine_sched s;
            vine__sched_init(&s, p, r);
            int rc = alg->build(&a, &s);
            CHECK(rc == VINE_OK, "%s rank %d: build %d", spec, r, rc);
            for (size_t i = 0; rc == VINE_OK && i < s.nops; i++)
                if (s.ops[i].kind == VINE_OP_COPY && s.ops[i].count > big)
                    big = s.ops[i].count;
            size_t *tmp = k == 0 ? rs_tmp : ag_tmp;
            *tmp = s.tmp_count > *tmp ? s.tmp_count : *tmp;
            vine__sched_free(&s);
        }
        CHECK(alg != NULL, "swing of collective %d not registered", (int)colls[k]);
    }
    free(counts);
    free(displs);
    vine__levels_free(&m);
    return big;
}

static void no_copy(const char *spec, int p)
{
    size_t c = 5, total = (size_t)p * c, rs, ag;
    size_t big = largest_copy(spec, p, c, &rs, &ag);
    CHECK(big <= c, "%s: a copy of %zu elements, blocks of %zu", spec, big, c);
    CHECK(ag == 0 && rs <= total + total / 4, "%s: scratch %zu and %zu of %zu", spec, rs, ag,
          total);
}

int main(void)
{
    one_dimension();
    torus_steps();
    fold();
    halves("torus:8x8x8", 512);
    halves("torus:4x4x4x2", 128);
    halves("torus:16x2", 32);
    halves("torus:6x5x7", 210);
    halves(NULL, 64);
    no_copy("torus:4x4", 16);
    no_copy("torus:2x2x2", 8);
    no_copy("torus:4x4x4x2", 128);
    no_copy("cyclic:4/torus:4", 16);
    no_copy("torus:1x8x1", 8);
    /* A fold lays the blocks out in scratch: the check above sees that copy. */
    size_t rs, ag;
    CHECK(largest_copy("torus:3x4", 12, 5, &rs, &ag) > 5 && ag > 0, "torus:3x4: no copy seen");
    printf("unit.swing: %ld checks, %ld failed\n", checks, failures);
    return failures > 0;
}
