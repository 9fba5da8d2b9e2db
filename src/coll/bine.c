/*
 * Bine arithmetic: see bine.h and ../shared/BINE.md.
 */
#include "bine.h"

#include "ranks.h"

#define NB_MASK 0xAAAAAAAAu

uint32_t vine__bine_nb(long x)
{
    return ((uint32_t)x + NB_MASK) ^ NB_MASK;
}

long vine__bine_val(uint32_t y)
{
    return (long)(int32_t)((y ^ NB_MASK) - NB_MASK);
}

/* sum of (-2)^i over the i < n of one parity (first: 0 even, 1 odd). */
static long parity_sum(int n, int first)
{
    long s = 0;
    for (int i = first; i < n; i += 2)
        s += i % 2 ? -(1L << i) : 1L << i;
    return s;
}

long vine__bine_lo(int n)
{
    return parity_sum(n, 1);
}

long vine__bine_hi(int n)
{
    return parity_sum(n, 0);
}

static uint32_t low_mask(int n)
{
    return n >= 32 ? 0xFFFFFFFFu : ((uint32_t)1 << n) - 1;
}

long vine__bine_rep(int r, int p)
{
    return r <= vine__bine_hi(vine__ceil_log2(p)) ? r : (long)r - p;
}

uint32_t vine__bine_digits(int r, int p)
{
    return vine__bine_nb(vine__bine_rep(r, p)) & low_mask(vine__ceil_log2(p));
}

int vine__bine_rank(uint32_t d, int p)
{
    int n = vine__ceil_log2(p);
    /* n digits: bits above n are 0, so val() reads exactly these digits. */
    long v = vine__bine_val(d & low_mask(n)), hi = vine__bine_hi(n);
    long top = hi < p - 1 ? hi : p - 1, bottom = top - p + 1;
    if (v > top || v < bottom)
        return -1;
    return vine__mod(v, p);
}

long vine__bine_rho(int s)
{
    long r = 0, t = 1;
    for (int i = 0; i <= s; i++, t *= -2)
        r += t;
    return r;
}

int vine__bine_pi(int r, int s, int p)
{
    long rho = vine__bine_rho(s);
    return vine__mod(r % 2 == 0 ? (long)r + rho : (long)r - rho, p);
}

uint32_t vine__bine_gray(uint32_t g)
{
    return g ^ (g >> 1);
}

uint32_t vine__bine_rev(uint32_t x, int n)
{
    uint32_t y = 0;
    for (int i = 0; i < n; i++)
        y |= ((x >> i) & 1u) << (n - 1 - i);
    return y;
}

uint32_t vine__bine_nu(int r, int p)
{
    int n = vine__ceil_log2(p);
    long lo = vine__bine_lo(n), hi = vine__bine_hi(n);
    long a = r % 2 ? r : -(long)r, b = r % 2 ? (long)r - p : (long)p - r;
    long c = a >= lo && a <= hi ? a : b;
    return vine__bine_rev(vine__bine_gray(vine__bine_nb(c) & low_mask(n)), n);
}

int vine__bine_run(uint32_t d, int n)
{
    int first = (int)(d & 1u), run = 1;
    while (run < n && (int)((d >> run) & 1u) == first)
        run++;
    return run;
}

int vine__bine_halving_partner(int r, int root, int t, int p)
{
    int n = vine__ceil_log2(p), v = vine__mod((long)r - root, p);
    uint32_t d = vine__bine_digits(v, p) ^ low_mask(n - t);
    int w = vine__bine_rank(d, p);
    return w < 0 ? -1 : vine__mod((long)w + root, p);
}

int vine__bine_halving_recv_step(int r, int root, int p)
{
    int n = vine__ceil_log2(p), v = vine__mod((long)r - root, p);
    if (v == 0)
        return -1;
    return n - vine__bine_run(vine__bine_digits(v, p), n);
}
