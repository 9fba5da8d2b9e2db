/*
 * Inclusive scan along a chain.
 *
 * Rank r receives the prefix of ranks 0..r-1 from rank r - 1, puts it on the
 * left of its own input and passes the result to rank r + 1.  With a segment
 * size (vine_args.seg_count) the vector travels in segments, so rank r works
 * on segment j while rank r + 1 works on segment j - 1.  A commutative op
 * receives straight into RECV and adds the input there; otherwise the prefix
 * arrives in scratch.  Source: Open MPI, ompi_coll_base_scan_intra_linear
 * (ompi/mca/coll/base), with the segmentation of a pipelined chain.  No
 * restrictions: any p, non-commutative ops.  Cost: (p - 1)(alpha + n beta +
 * n gamma); with m segments of s elements (p + m - 2)(alpha + s beta + s
 * gamma); scratch of n elements (none for a commutative op).
 */
#include "../coll.h"

/* Segment j of m of a vector of n elements: offset and length. */
static size_t seg_len(size_t n, size_t seg, size_t j, size_t *off)
{
    *off = j * seg;
    return n - *off < seg ? n - *off : seg;
}

int vine__scan_linear_build(const vine_args *a, vine_sched *s)
{
    size_t n = a->count, seg = a->seg_count && a->seg_count < n ? a->seg_count : n;
    size_t m = n ? (n + seg - 1) / seg : 0, off, len;
    int r = a->rank, p = a->p, direct = a->commutative && !a->inplace;
    if (r == 0) {
        for (size_t j = 0; j < m && p > 1; j++) {
            len = seg_len(n, seg, j, &off);
            vine__sched_send(s, 1, a->inplace ? VINE_BUF_RECV : VINE_BUF_SEND, off, len);
        }
        if (!a->inplace)
            vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_RECV, 0, n);
        return vine__sched_finish(s);
    }
    /* The input goes to RECV first; it overlaps with the wait for the prefix. */
    if (!a->inplace && !direct) {
        vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_RECV, 0, n);
        vine__sched_fence(s);
    }
    int src = direct ? VINE_BUF_SEND : VINE_BUF_TMP;
    if (!direct)
        vine__sched_need_tmp(s, n);
    for (size_t j = 0; j <= m; j++) {
        if (j > 0 && r < p - 1) {
            len = seg_len(n, seg, j - 1, &off);
            vine__sched_send(s, r + 1, VINE_BUF_RECV, off, len);
        }
        if (j < m) {
            len = seg_len(n, seg, j, &off);
            vine__sched_recv(s, r - 1, direct ? VINE_BUF_RECV : VINE_BUF_TMP, off, len);
            vine__sched_reduce(s, src, off, VINE_BUF_RECV, off, len, VINE_SRC_LEFT);
        }
        vine__sched_fence(s);
    }
    return vine__sched_finish(s);
}
