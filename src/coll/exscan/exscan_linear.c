/*
 * Exclusive scan along a chain.
 *
 * Rank r receives the prefix of ranks 0..r-1 from rank r - 1, which is its
 * result, and passes that prefix with its own input on the right to rank
 * r + 1.  With a segment size (vine_args.seg_count) the vector travels in
 * segments, so rank r works on segment j while rank r + 1 works on segment
 * j - 1.  Rank 0 only sends and never writes RECV.  Source: Open MPI,
 * ompi_coll_base_exscan_intra_linear (ompi/mca/coll/base), with the
 * segmentation of a pipelined chain.  No restrictions: any p,
 * non-commutative ops.  Cost: (p - 1)(alpha + n beta) + (p - 2) n gamma;
 * with m segments of s elements (p + m - 2)(alpha + s beta + s gamma);
 * scratch of n elements.
 */
#include "../coll.h"

/* Segment j of a vector of n elements in segments of seg: offset and length. */
static size_t seg_len(size_t n, size_t seg, size_t j, size_t *off)
{
    *off = j * seg;
    return n - *off < seg ? n - *off : seg;
}

/*
 * A rank between the ends, not in place: the prefix arrives in RECV, the
 * value passed on (prefix op input) is built in scratch from a copy of the
 * input.
 */
static void middle(vine_sched *s, int r, size_t n, size_t seg, size_t m)
{
    size_t off, len;
    vine__sched_need_tmp(s, n);
    vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_TMP, 0, n);
    vine__sched_fence(s);
    for (size_t j = 0; j <= m; j++) {
        if (j > 0) {
            len = seg_len(n, seg, j - 1, &off);
            vine__sched_send(s, r + 1, VINE_BUF_TMP, off, len);
        }
        if (j < m) {
            len = seg_len(n, seg, j, &off);
            vine__sched_recv(s, r - 1, VINE_BUF_RECV, off, len);
            vine__sched_reduce(s, VINE_BUF_RECV, off, VINE_BUF_TMP, off, len, VINE_SRC_LEFT);
        }
        vine__sched_fence(s);
    }
}

/*
 * A rank between the ends, in place: the prefix arrives in scratch and is
 * reduced into the input in RECV, which is sent on; after the send the
 * prefix, the result, is copied over it.
 */
static void middle_inplace(vine_sched *s, int r, size_t n, size_t seg, size_t m)
{
    size_t off, len;
    vine__sched_need_tmp(s, n);
    for (size_t j = 0; j <= m; j++) {
        if (j > 0) {
            len = seg_len(n, seg, j - 1, &off);
            vine__sched_send(s, r + 1, VINE_BUF_RECV, off, len);
            vine__sched_copy(s, VINE_BUF_TMP, off, VINE_BUF_RECV, off, len);
        }
        if (j < m) {
            len = seg_len(n, seg, j, &off);
            vine__sched_recv(s, r - 1, VINE_BUF_TMP, off, len);
            vine__sched_reduce(s, VINE_BUF_TMP, off, VINE_BUF_RECV, off, len, VINE_SRC_LEFT);
        }
        vine__sched_fence(s);
    }
}

int vine__exscan_linear_build(const vine_args *a, vine_sched *s)
{
    size_t n = a->count, seg = a->seg_count && a->seg_count < n ? a->seg_count : n;
    size_t m = n ? (n + seg - 1) / seg : 0, off, len;
    int r = a->rank, p = a->p;
    if (r == 0 || r == p - 1) {
        /* The ends: rank 0 sends its input, rank p - 1 receives its result. */
        for (size_t j = 0; j < m && p > 1; j++) {
            len = seg_len(n, seg, j, &off);
            if (r == 0)
                vine__sched_send(s, 1, a->inplace ? VINE_BUF_RECV : VINE_BUF_SEND, off, len);
            else
                vine__sched_recv(s, r - 1, VINE_BUF_RECV, off, len);
        }
    } else if (a->inplace) {
        middle_inplace(s, r, n, seg, m);
    } else {
        middle(s, r, n, seg, m);
    }
    return vine__sched_finish(s);
}
