/*
 * Bine arithmetic (MPI-free), shared by the Bine builders, the simulator and
 * the tests.  Specification: ../shared/BINE.md (formulas and test vectors)
 * and papers/bine-trees.txt sections 2-4.
 *
 * Ranks are written in negabinary (base -2) with n = ceil(log2 p) digits.
 * n digits represent the 2^n consecutive integers [lo(n), hi(n)]; rank r of
 * 0..p-1 is represented by r itself when r <= hi(n), else by r - p (its
 * residue mod p inside the range), so the ranks occupy [top - p + 1, top]
 * with top = min(hi, p - 1).
 */
#ifndef VINE_BINE_H
#define VINE_BINE_H

#include <stdint.h>

/* Base -2 digits of x (32-bit two's complement arithmetic). */
uint32_t vine__bine_nb(long x);
/* The integer whose base -2 digits are y. */
long vine__bine_val(uint32_t y);
/* The smallest and largest integers n base -2 digits represent. */
long vine__bine_lo(int n);
long vine__bine_hi(int n);

/* The representative of rank r (0 <= r < p) among n = ceil(log2 p) digits. */
long vine__bine_rep(int r, int p);
/* The n low digits of rank r's representative. */
uint32_t vine__bine_digits(int r, int p);
/*
 * The rank whose representative has the n digits d, or -1 when the value they
 * stand for is no rank's representative (p not a power of two).
 */
int vine__bine_rank(uint32_t d, int p);

/* rho(s) = sum_{i=0..s} (-2)^i: 1, -1, 3, -5, 11, ... */
long vine__bine_rho(int s);
/*
 * The butterfly partner of rank r at step s: (r + rho(s)) mod p for even r,
 * (r - rho(s)) mod p for odd r.
 */
int vine__bine_pi(int r, int s, int p);

/* gray(g) = g XOR (g >> 1), and the reversal of the n low bits of x. */
uint32_t vine__bine_gray(uint32_t g);
uint32_t vine__bine_rev(uint32_t x, int n);
/*
 * The block owner nu(r) = rev_n(gray(nb(c))), c = r or r - p for odd r, -r or
 * p - r for even r, the one inside the n-digit range (the first when both
 * are).  A permutation of 0..p-1 when p is a power of two.
 */
uint32_t vine__bine_nu(int r, int p);

/*
 * The length of the run of equal digits that starts at digit 0 of the n
 * digits d (1..n).  In the distance-halving tree a rank with relative
 * digits d receives at step n - run and has run - 1 children; the root
 * (digits 0) receives nothing and has n children.
 */
int vine__bine_run(uint32_t d, int n);

/*
 * The distance-halving Bine tree rooted at root, for p a power of two: the
 * partner of rank r at step t (0 .. n-1) flips the n - t low digits of r's
 * digits relative to the root.  Returns that rank.
 */
int vine__bine_halving_partner(int r, int root, int t, int p);
/* The step at which rank r receives in that tree (-1 for the root). */
int vine__bine_halving_recv_step(int r, int root, int p);

#endif
