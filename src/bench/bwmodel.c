/*
 * Bandwidth models of the group patterns across nodes: CommBench's
 * equations 1 (packed binding) and 2 (round-robin binding), the factor that
 * turns one node's rate into the pattern's bandwidth, and the parser of a
 * NIC bandwidth.  bwmodel.h states the model and its reading.
 */
#include "bench/bwmodel.h"

#include "vine/bench_matrix.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int good_bw(double f)
{
    return isfinite(f) && f > 0;
}

int vine__bwmodel_packed(double f_nic, int k, int p, double *bw)
{
    if (!bw || !good_bw(f_nic) || k < 1 || p < 1)
        return VINE_BENCH_ERR_ARG;
    double relu = k > p ? (double)k - (double)p : 0;
    *bw = f_nic * (1 + relu / p);
    return VINE_BENCH_OK;
}

int vine__bwmodel_round_robin(double f_nic, int k, int r, double *bw)
{
    if (!bw || !good_bw(f_nic) || k < 1 || r < 1)
        return VINE_BENCH_ERR_ARG;
    int busiest = k / r + (k % r != 0); /* ceil(k / r): ranks on NIC 0 */
    *bw = f_nic * k / busiest;
    return VINE_BENCH_OK;
}

int vine__bwmodel_factor(int dir, int n, int *factor)
{
    if (!factor || n < 2)
        return VINE_BENCH_ERR_ARG;
    switch (dir) {
    case VINE_BENCH_UNI:
        *factor = 1;
        return VINE_BENCH_OK;
    case VINE_BENCH_BI:
        *factor = 2;
        return VINE_BENCH_OK;
    case VINE_BENCH_OMNI:
        *factor = n;
        return VINE_BENCH_OK;
    default:
        return VINE_BENCH_ERR_ARG;
    }
}

int vine__bwmodel_parse_bw(const char *s, double *gbps)
{
    static const struct {
        const char *unit;
        double scale; /* to GB/s */
    } units[] = {{"", 1},         {"GB/s", 1},        {"MB/s", 1e-3},   {"TB/s", 1e3},
                 {"Gb/s", 0.125}, {"Mb/s", 1e-3 / 8}, {"Tb/s", 1e3 / 8}};
    if (!s || !gbps || !*s || !strchr("0123456789.", s[0]))
        return VINE_BENCH_ERR_ARG; /* no sign, space, "inf" or "nan" */
    char *end;
    double v = strtod(s, &end);
    if (end == s || !good_bw(v))
        return VINE_BENCH_ERR_ARG;
    for (const char *c = s; c < end; c++)
        if (!strchr("0123456789.eE+-", *c))
            return VINE_BENCH_ERR_ARG; /* hexadecimal */
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcmp(end, units[i].unit) == 0) {
            double x = v * units[i].scale;
            if (!good_bw(x))
                return VINE_BENCH_ERR_ARG;
            *gbps = x;
            return VINE_BENCH_OK;
        }
    return VINE_BENCH_ERR_ARG;
}

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return VINE_BENCH_ERR_ARG;
}

/*
 * The predicted time of the pattern in units of V / f: the longest of group
 * 0's (n - 1) V at `near` and, unless omni, another group's V at `far`.
 */
static double pattern_bw(int dir, int n, int factor, double near, double far, int *far_limits)
{
    double t_near = (n - 1) / near, t_far = dir == VINE_BENCH_OMNI ? 0 : 1 / far;
    *far_limits = t_far > t_near;
    return factor * (double)(n - 1) / (t_far > t_near ? t_far : t_near);
}

int vine__bwmodel_group(double nic, int kind, int dir, int n, int g, int k, int p, int r,
                        vine_bwmodel *m, char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = '\0';
    if (!m)
        return fail(err, errlen, "no model to fill");
    if (!good_bw(nic))
        return fail(err, errlen, "the NIC bandwidth must be a positive number of GB/s");
    if (kind < VINE_BENCH_RAIL || kind > VINE_BENCH_SYMMETRIC)
        return fail(err, errlen, "the bandwidth models are for the group patterns, not kind %d",
                    kind);
    if (dir < VINE_BENCH_UNI || dir > VINE_BENCH_OMNI)
        return fail(err, errlen, "unknown direction %d", dir);
    if (kind == VINE_BENCH_ASYMMETRIC && dir == VINE_BENCH_OMNI)
        return fail(err, errlen, "the asymmetric pattern has no omnidirectional form");
    int factor;
    if (vine__bwmodel_factor(dir, n, &factor))
        return fail(err, errlen, "the bandwidth models need at least two groups (nodes), not %d",
                    n);
    if (g < 1 || k < 1 || k > g)
        return fail(err, errlen, "the bandwidth models need 1 <= k <= g (k=%d, g=%d)", k, g);
    if (p < 0 || r < 0)
        return fail(err, errlen, "ranks per NIC and NICs per node must be positive");
    if (p == 0 && r == 0)
        return fail(err, errlen,
                    "the bandwidth models need the ranks per NIC or the NICs per node");
    if (p == 0)
        p = g / r + (g % r != 0);
    if (r == 0)
        r = g / p + (g % p != 0);
    vine_bwmodel x;
    memset(&x, 0, sizeof x);
    x.nic = nic;
    x.k = k;
    x.far = kind == VINE_BENCH_ASYMMETRIC ? g : k;
    x.p = p;
    x.r = r;
    x.factor = factor;
    if (vine__bwmodel_packed(nic, k, p, &x.packed_node) ||
        vine__bwmodel_round_robin(nic, k, r, &x.rr_node) ||
        vine__bwmodel_packed(nic, x.far, p, &x.packed_far) ||
        vine__bwmodel_round_robin(nic, x.far, r, &x.rr_far))
        return fail(err, errlen, "bad model parameters");
    x.packed = pattern_bw(dir, n, factor, x.packed_node, x.packed_far, &x.packed_far_limits);
    x.rr = pattern_bw(dir, n, factor, x.rr_node, x.rr_far, &x.rr_far_limits);
    if (!good_bw(x.packed) || !good_bw(x.rr))
        return fail(err, errlen, "the predictions overflow");
    *m = x;
    return VINE_BENCH_OK;
}
