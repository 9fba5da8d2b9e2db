/*
 * Inclusive scan by recursive doubling of partial prefixes.
 *
 * Every rank keeps two vectors: its result, the prefix of the ranks up to it,
 * and a partial scan, the reduction of every rank of its current block of 2^k
 * ranks.  In step k it swaps the partial scan with rank ^ 2^k; a lower
 * partner's vector joins both on the left, a higher one's only the partial
 * scan, on the right, so operands stay in rank order.  Partners >= p are
 * skipped, so any p works without a fold.  A vector its receiver would
 * only fold into a partial scan it never sends again is not sent, which
 * halves the last step of a power of two.  Source: MPICH,
 * MPIR_Scan_intra_recursive_doubling (src/mpi/coll/scan).  No restrictions:
 * any p, non-commutative ops.  Cost: ceil(lg p)(alpha + n beta) and at most
 * 2 ceil(lg p) n gamma; scratch of 2n elements.
 */
#include "../coll.h"
#include "../ranks.h"

/*
 * Where the partial scan lives.  While `same` is set it equals the result
 * (kept in RECV, or still in the input before the first step's copy); after
 * that it lies in scratch slot `cur` of the two slots of n elements.
 */
typedef struct scan_state {
    int same, cur;
    int pbuf;
    size_t poff;
} scan_state;

/*
 * One step: exchange with peer and combine.  last: this rank's partial scan
 * is not needed again, so a higher peer's vector is not either; peer_last:
 * the same for the peer, so a lower one gets nothing.
 */
static void step(vine_sched *s, scan_state *x, int peer, int lower, int last, int peer_last,
                 size_t n)
{
    /* The free slot: the one the partial scan does not hold. */
    int fslot = x->same ? 0 : !x->cur;
    size_t f = (size_t)fslot * n;
    if (!lower || !peer_last)
        vine__sched_send(s, peer, x->pbuf, x->poff, n);
    if (lower || !last) {
        vine__sched_need_tmp(s, f + n);
        vine__sched_recv(s, peer, VINE_BUF_TMP, f, n);
    }
    if (lower) {
        /* The peer's block precedes ours: it joins both vectors on the left. */
        if (!x->same && !last)
            vine__sched_reduce(s, VINE_BUF_TMP, f, VINE_BUF_TMP, x->poff, n, VINE_SRC_LEFT);
        vine__sched_reduce(s, VINE_BUF_TMP, f, VINE_BUF_RECV, 0, n, VINE_SRC_LEFT);
        if (x->same) {
            x->pbuf = VINE_BUF_RECV;
            x->poff = 0;
        }
    } else if (!last) {
        /* The peer's block follows ours: partial = partial op theirs, in the free slot. */
        vine__sched_reduce(s, x->same ? VINE_BUF_RECV : VINE_BUF_TMP, x->same ? 0 : x->poff,
                           VINE_BUF_TMP, f, n, VINE_SRC_LEFT);
        vine__sched_need_tmp(s, 2 * n);
        x->same = 0;
        x->cur = fslot;
        x->pbuf = VINE_BUF_TMP;
        x->poff = f;
    }
}

int vine__scan_recursive_doubling_build(const vine_args *a, vine_sched *s)
{
    size_t n = a->count;
    int r = a->rank, copied = a->inplace;
    scan_state x = {1, 0, a->inplace ? VINE_BUF_RECV : VINE_BUF_SEND, 0};
    for (unsigned m = vine__xor_next_mask(r, a->p, 1); m;) {
        unsigned next = vine__xor_next_mask(r, a->p, m << 1);
        int peer = (int)((unsigned)r ^ m);
        /* The step's local operations read the input in RECV: copy it first. */
        if (!copied) {
            vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_RECV, 0, n);
            copied = 1;
        }
        step(s, &x, peer, peer < r, !next, !vine__xor_next_mask(peer, a->p, m << 1), n);
        vine__sched_fence(s);
        m = next;
    }
    if (!copied)
        vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_RECV, 0, n);
    return vine__sched_finish(s);
}
