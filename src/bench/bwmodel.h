/*
 * Bandwidth models of the group patterns across nodes (MPI-free): CommBench
 * (Hidayetoglu et al., ICS 2024; ../shared/papers/commbench.txt section
 * 5.2.1, equations 1 and 2).  docs/patterns.md, "Bandwidth models", has the
 * reading with examples.
 *
 * A node holds g ranks (a group of the group patterns, local index i = rank
 * mod g, as CommBench places ranks) and some NICs, each of f_NIC GB/s (1e9
 * bytes per second) in each direction, full duplex.  j of its ranks (local
 * indices 0 .. j-1) move the same number of bytes each across nodes in one
 * direction.  A static binding ties each rank to one NIC:
 *
 *   packed, p ranks per NIC:   rank i uses NIC floor(i / p)
 *   round-robin, r NICs:       rank i uses NIC i mod r
 *
 * The node is done when its busiest NIC has carried the bytes of its ranks,
 * so the node moves data at f_NIC * j / (ranks on the busiest NIC):
 *
 *   packed      (eq. 1)  f_NIC * (1 + ReLU(j - p) / p) = f_NIC * max(j, p) / p
 *                        (busiest NIC: min(j, p) ranks)
 *   round-robin (eq. 2)  f_NIC * j / ceil(j / r)
 *                        (busiest NIC: ceil(j / r) ranks)
 *
 * The paper writes k for j: the k active ranks of a group.  Eq. 1 is f_NIC
 * for k <= p (one NIC) and grows by f_NIC / p per further rank.  Eq. 2 is
 * k * f_NIC for k <= r (k NICs, one rank each), as printed, and never more
 * than r * f_NIC, since k / ceil(k / r) <= r: the r NICs cap it by
 * themselves.  Eq. 2 is not monotone: k = r + 1 puts two ranks on NIC 0 and
 * nearly halves the rate.  Only NICs limit; links and switches beyond them
 * are taken as fast enough.
 *
 * Functions return VINE_BENCH_OK (0) or VINE_BENCH_ERR_ARG (vine/bench_matrix.h)
 * and leave their outputs alone on error; nothing prints or aborts.
 */
#ifndef VINE_BENCH_BWMODEL_H
#define VINE_BENCH_BWMODEL_H

#include <stddef.h>

/*
 * Eq. 1: *bw = f_nic * (1 + max(0, k - p) / p), in the unit of f_nic.
 * VINE_BENCH_ERR_ARG unless f_nic is finite and > 0, k >= 1 and p >= 1.
 */
int vine__bwmodel_packed(double f_nic, int k, int p, double *bw);

/*
 * Eq. 2: *bw = f_nic * k / ceil(k / r), in the unit of f_nic.
 * VINE_BENCH_ERR_ARG unless f_nic is finite and > 0, k >= 1 and r >= 1.
 */
int vine__bwmodel_round_robin(double f_nic, int k, int r, double *bw);

/*
 * The pattern's factor: its bytes divided by the bytes group 0 sends
 * (n - 1 times the bytes of one pair of groups):
 *
 *   uni   1  (group 0 sends everything)
 *   bi    2  (group 0 sends and receives as much)
 *   omni  n  (each of the n groups sends and receives as much as group 0)
 *
 * dir is enum vine_bench_dir.  VINE_BENCH_ERR_ARG for another dir or n < 2
 * (one group moves nothing across nodes).
 */
int vine__bwmodel_factor(int dir, int n, int *factor);

/*
 * A NIC bandwidth in GB/s from a number (digits, '.', exponent; finite,
 * > 0) with an optional unit, case as written: none or "GB/s" (gigabytes
 * per second, 1e9 bytes), "MB/s", "TB/s", or bits per second "Mb/s",
 * "Gb/s", "Tb/s" (divided by 8).  "25", "25GB/s" and "200Gb/s" all give 25.
 * VINE_BENCH_ERR_ARG for anything else (signs, spaces, other units).
 */
int vine__bwmodel_parse_bw(const char *s, double *gbps);

/* The predictions for one group pattern; bandwidths in the unit of nic (GB/s). */
typedef struct vine_bwmodel {
    double nic;            /* f_NIC */
    int k;                 /* active ranks of group 0 */
    int far;               /* active ranks of the other groups: g (asymmetric) or k */
    int p;                 /* packed: ranks per NIC */
    int r;                 /* round-robin: NICs per node */
    int factor;            /* vine__bwmodel_factor */
    double packed_node;    /* eq. 1 with k: group 0's node, one direction */
    double rr_node;        /* eq. 2 with k */
    double packed_far;     /* eq. 1 with far: another group's node, one direction */
    double rr_far;         /* eq. 2 with far */
    double packed, rr;     /* the pattern: its bytes over its predicted time */
    int packed_far_limits; /* the other groups, not group 0, set the packed time */
    int rr_far_limits;     /* the same for round-robin */
} vine_bwmodel;

/*
 * Fills *m for the group pattern `kind` (enum vine_bench_group) of direction
 * dir (enum vine_bench_dir) with n groups (nodes) of g ranks, k active, on
 * NICs of nic GB/s.  p (ranks per NIC) and r (NICs per node) describe the
 * node; either may be 0 (not given) and is then derived from the other so
 * that the node's NICs hold its g ranks: p = ceil(g / r), r = ceil(g / p).
 * Each binding uses its own parameter only.
 *
 * With V the bytes from one group to another (k * size for rail, k * g *
 * size for asymmetric, k * k * size for symmetric), group 0 sends (n - 1) V
 * through its k active ranks (and receives as much for bi); for uni and bi
 * each other group receives V (and sends V for bi) through `far` ranks: its
 * k active ranks, or for asymmetric all g.  For omni every group is like
 * group 0.  Each node and direction takes its bytes over its rate (eq. 1
 * or 2 with its number of ranks); the pattern's predicted time is the
 * longest, and its bandwidth factor * (n - 1) V over that time.  For rail
 * and symmetric that is factor * eq(k).  For asymmetric the receiving
 * groups can set the time under round-robin, whose eq. 2 is not monotone:
 * g = 3, k = 2, r = 2 gives eq. 2 = 2 f_NIC for group 0 but 1.5 f_NIC for a
 * receiving node, whose NIC 0 serves ranks 0 and 2.
 *
 * VINE_BENCH_ERR_ARG, with a one-line message in err (errlen bytes; err may
 * be NULL), for a bad nic, kind or dir, asymmetric omni, n < 2, g < 1, k
 * outside 1..g, p or r negative, or both 0.
 */
int vine__bwmodel_group(double nic, int kind, int dir, int n, int g, int k, int p, int r,
                        vine_bwmodel *m, char *err, size_t errlen);

#endif
