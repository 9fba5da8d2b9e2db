/*
 * Rank arithmetic shared by the builders, the verifier, the simulator and the
 * tests (MPI-free, header-only).
 */
#ifndef VINE_RANKS_H
#define VINE_RANKS_H

#include <stddef.h>

static inline int vine__is_pow2(int p) { return p > 0 && (p & (p - 1)) == 0; }

/* The largest power of two <= p (p >= 1). */
static inline int vine__floor_pow2(int p)
{
    int q = 1;
    while (q <= p / 2)
        q *= 2;
    return q;
}

/* ceil(log2 p) for p >= 1. */
static inline int vine__ceil_log2(int p)
{
    int n = 0;
    while ((1L << n) < (long)p)
        n++;
    return n;
}

static inline int vine__mod(long x, int p)
{
    long m = x % p;
    return (int)(m < 0 ? m + p : m);
}

/*
 * Even partition of total elements into p blocks: block i starts at
 * vine__block_off(total, p, i) and the first total % p blocks hold one
 * element more.  vine__block_off(total, p, p) == total.
 */
static inline size_t vine__block_off(size_t total, int p, int i)
{
    size_t q = total / (size_t)p, r = total % (size_t)p;
    return (size_t)i * q + ((size_t)i < r ? (size_t)i : r);
}

static inline size_t vine__block_len(size_t total, int p, int i)
{
    return vine__block_off(total, p, i + 1) - vine__block_off(total, p, i);
}

/*
 * The MPICH fold of a non-power-of-two p onto p2 = vine__floor_pow2(p)
 * participants: with rem = p - p2, among the first 2*rem ranks each even rank
 * hands its data to the odd rank above it and sits out; the odd rank 2i+1
 * becomes participant i; rank r >= 2*rem becomes participant r - rem.  The
 * participants keep the ranks' order, so non-commutative ops stay correct.
 */
static inline int vine__fold_newrank(int p, int rank)
{
    int rem = p - vine__floor_pow2(p);
    if (rank < 2 * rem)
        return (rank % 2) ? rank / 2 : -1;
    return rank - rem;
}

static inline int vine__fold_oldrank(int p, int newrank)
{
    int rem = p - vine__floor_pow2(p);
    return newrank < rem ? 2 * newrank + 1 : newrank + rem;
}

/*
 * Recursive doubling on any p (the scans): the first mask >= m whose partner
 * rank ^ mask lies below p; 0 when there is none.
 */
static inline unsigned vine__xor_next_mask(int rank, int p, unsigned m)
{
    for (; m && m < (unsigned)p; m <<= 1)
        if (((unsigned)rank ^ m) < (unsigned)p)
            return m;
    return 0;
}

/* x with its lg q low bits in reverse order (q a power of two). */
static inline int vine__bitrev_pow2(int x, int q)
{
    int r = 0;
    for (int b = 1; b < q; b <<= 1)
        r = (r << 1) | ((x & b) != 0);
    return r;
}

#endif
