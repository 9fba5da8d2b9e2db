/*
 * Unit test of the Bine arithmetic (src/coll/bine.h, no MPI): every test
 * vector of ../shared/BINE.md, and properties checked against independent
 * computations (base -2 digits by repeated division, partners by brute
 * force) over many communicator sizes.  Prints "bine: N checks, M failed".
 */
#include "check.h"
#include "coll/bine.h"
#include "coll/ranks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Base -2 digits by repeated division, the textbook way. */
static uint32_t nb_slow(long x)
{
    uint32_t d = 0;
    for (int i = 0; x != 0 && i < 32; i++) {
        long q = x / -2, rem = x % -2;
        if (rem < 0) {
            rem += 2;
            q += 1;
        }
        d |= (uint32_t)rem << i;
        x = q;
    }
    return d;
}

static void test_negabinary(void)
{
    for (long x = -3000; x <= 3000; x++) {
        CHECK(vine__bine_nb(x) == nb_slow(x), "nb(%ld)", x);
        CHECK(vine__bine_val(vine__bine_nb(x)) == x, "val(nb(%ld))", x);
    }
    long lo[] = {0, 0, -2, -2, -10, -10}, hi[] = {0, 1, 1, 5, 5, 21};
    for (int n = 0; n < 6; n++) {
        CHECK(vine__bine_lo(n) == lo[n], "lo(%d) = %ld", n, vine__bine_lo(n));
        CHECK(vine__bine_hi(n) == hi[n], "hi(%d) = %ld", n, vine__bine_hi(n));
        /* Exactly the values in [lo, hi] have n digits. */
        for (long x = lo[n] - 5; x <= hi[n] + 5; x++) {
            int fits = (nb_slow(x) >> n) == 0;
            CHECK(fits == (x >= lo[n] && x <= hi[n]), "range n=%d x=%ld", n, x);
        }
    }
}

static void test_vectors_p8(void)
{
    const char *digits[8] = {"000", "001", "110", "111", "100", "101", "010", "011"};
    const unsigned nu[8] = {0, 4, 6, 1, 3, 7, 5, 2};
    const int pi[3][8] = {{1, 0, 3, 2, 5, 4, 7, 6}, {7, 2, 1, 4, 3, 6, 5, 0}, {3, 6, 5, 0, 7, 2, 1, 4}};
    for (int r = 0; r < 8; r++) {
        uint32_t d = vine__bine_digits(r, 8);
        char s[4] = {(char)('0' + ((d >> 2) & 1)), (char)('0' + ((d >> 1) & 1)),
                     (char)('0' + (d & 1)), 0};
        CHECK(strcmp(s, digits[r]) == 0, "p=8 digits of %d: %s, want %s", r, s, digits[r]);
        CHECK(vine__bine_nu(r, 8) == nu[r], "p=8 nu(%d) = %u, want %u", r, vine__bine_nu(r, 8),
              nu[r]);
        CHECK(vine__bine_rank(d, 8) == r, "p=8 rank of digits of %d", r);
        for (int s2 = 0; s2 < 3; s2++)
            CHECK(vine__bine_pi(r, s2, 8) == pi[s2][r], "p=8 pi(%d,%d) = %d, want %d", r, s2,
                  vine__bine_pi(r, s2, 8), pi[s2][r]);
    }
    const long rho[] = {1, -1, 3, -5, 11, -21, 43};
    for (int s2 = 0; s2 < 7; s2++)
        CHECK(vine__bine_rho(s2) == rho[s2], "rho(%d)", s2);
}

/* The edges (step, parent, child) of a tree, in a flat list. */
typedef struct edge {
    int step, from, to;
} edge;

/* The distance-halving tree of root 0 on p ranks, computed by the helpers. */
static int halving_edges(int p, edge *out)
{
    int n = vine__ceil_log2(p), ne = 0;
    char *has = calloc((size_t)p, 1);
    has[0] = 1;
    for (int t = 0; t < n; t++) {
        char *got = calloc((size_t)p, 1);
        for (int r = 0; r < p; r++)
            if (has[r]) {
                int q = vine__bine_halving_partner(r, 0, t, p);
                if (q >= 0 && !has[q]) {
                    out[ne++] = (edge){t, r, q};
                    got[q] = 1;
                }
            }
        for (int r = 0; r < p; r++)
            has[r] |= got[r];
        free(got);
    }
    free(has);
    return ne;
}

static int has_edge(const edge *e, int ne, int step, int from, int to)
{
    for (int i = 0; i < ne; i++)
        if (e[i].step == step && e[i].from == from && e[i].to == to)
            return 1;
    return 0;
}

static void test_trees(void)
{
    edge e[64];
    int ne = halving_edges(8, e);
    const edge want8[] = {{0, 0, 3}, {1, 0, 7}, {1, 3, 4}, {2, 0, 1},
                          {2, 3, 2}, {2, 4, 5}, {2, 7, 6}};
    CHECK(ne == 7, "p=8 halving tree has %d edges", ne);
    for (int i = 0; i < 7; i++)
        CHECK(has_edge(e, ne, want8[i].step, want8[i].from, want8[i].to),
              "p=8 halving tree: step %d %d->%d missing", want8[i].step, want8[i].from,
              want8[i].to);
    ne = halving_edges(16, e);
    const edge want16[] = {{0, 0, 11}, {1, 0, 3},  {1, 11, 8}, {2, 0, 15}, {2, 3, 4},
                           {2, 8, 7},  {2, 11, 12}, {3, 0, 1},  {3, 3, 2},  {3, 4, 5},
                           {3, 7, 6},  {3, 8, 9},  {3, 11, 10}, {3, 12, 13}, {3, 15, 14}};
    CHECK(ne == 15, "p=16 halving tree has %d edges", ne);
    for (int i = 0; i < 15; i++)
        CHECK(has_edge(e, ne, want16[i].step, want16[i].from, want16[i].to),
              "p=16 halving tree: step %d %d->%d missing", want16[i].step, want16[i].from,
              want16[i].to);
    const int recv16[] = {3, 3, 1, 2, 3, 3, 2, 1, 3, 3, 0, 2, 3, 3, 2};
    for (int r = 1; r < 16; r++)
        CHECK(vine__bine_halving_recv_step(r, 0, 16) == recv16[r - 1],
              "p=16 rank %d receives at step %d, want %d", r,
              vine__bine_halving_recv_step(r, 0, 16), recv16[r - 1]);
    const unsigned nu16[] = {0, 8, 12, 2, 5, 14, 9, 7, 3, 11, 15, 1, 6, 13, 10, 4};
    for (int r = 0; r < 16; r++)
        CHECK(vine__bine_nu(r, 16) == nu16[r], "p=16 nu(%d) = %u, want %u", r,
              vine__bine_nu(r, 16), nu16[r]);

    /* Distance-doubling tree, root 0: holders send to pi(r, s); receive step n-1-ctz(nu). */
    const edge dd8[] = {{0, 0, 1}, {1, 0, 7}, {1, 1, 2}, {2, 0, 3}, {2, 1, 6}, {2, 2, 5}, {2, 7, 4}};
    for (int i = 0; i < 7; i++) {
        CHECK(vine__bine_pi(dd8[i].from, dd8[i].step, 8) == dd8[i].to,
              "p=8 doubling tree step %d %d->%d", dd8[i].step, dd8[i].from, dd8[i].to);
        unsigned nu = vine__bine_nu(dd8[i].to, 8);
        CHECK(3 - 1 - __builtin_ctz(nu) == dd8[i].step, "p=8 doubling receive step of %d",
              dd8[i].to);
    }
}

/* Properties over many sizes, against brute force. */
static void test_properties(void)
{
    for (int p = 1; p <= 1100; p++) {
        int n = vine__ceil_log2(p);
        char *seen = calloc((size_t)p, 1);
        for (int r = 0; r < p; r++) {
            uint32_t d = vine__bine_digits(r, p);
            CHECK((d >> n) == 0, "p=%d r=%d digits beyond n", p, r);
            CHECK(vine__bine_rank(d, p) == r, "p=%d rank(digits(%d))", p, r);
            /* For even p partners pair up (odd p wraps an even rank onto an even one). */
            for (int s = 0; s < n && p % 2 == 0; s++) {
                int q = vine__bine_pi(r, s, p);
                CHECK(vine__bine_pi(q, s, p) == r, "p=%d pi involution r=%d s=%d", p, r, s);
                CHECK((q % 2) != (r % 2), "p=%d pi parity r=%d s=%d", p, r, s);
            }
            if (vine__is_pow2(p)) {
                unsigned nu = vine__bine_nu(r, p);
                CHECK(nu < (unsigned)p && !seen[nu], "p=%d nu(%d) = %u not a permutation", p, r,
                      nu);
                if (nu < (unsigned)p)
                    seen[nu] = 1;
            }
        }
        /* The halving tree reaches every rank once, for powers of two. */
        if (vine__is_pow2(p) && p <= 1024) {
            edge *e = malloc(sizeof *e * (size_t)p);
            int ne = halving_edges(p, e);
            CHECK(ne == p - 1, "p=%d halving tree has %d edges", p, ne);
            for (int i = 0; i < ne; i++)
                CHECK(vine__bine_halving_recv_step(e[i].to, 0, p) == e[i].step,
                      "p=%d rank %d received at %d", p, e[i].to, e[i].step);
            free(e);
        }
        free(seen);
    }
}

int main(void)
{
    test_negabinary();
    test_vectors_p8();
    test_trees();
    test_properties();
    printf("bine: %ld checks, %ld failed\n", checks, failures);
    return failures != 0;
}
