/*
 * Ring allgatherv: in p - 1 steps every rank sends to rank + 1 the block it
 * received in the previous step (its own block first) and receives the next
 * one from rank - 1.  Each message is one rank's block, so blocks go straight
 * to their places RECV[rdispls[i]] whatever the layout (any order, gaps): no
 * scratch and no copy but the own block's out of place.  The regular
 * allgather ring with block i of rcounts[i] elements.
 * Source: Thakur, Rabenseifner and Gropp 2005, section 4.2
 * (papers/mpich-collectives.txt); MPICH's MPIR_Allgatherv_intra_ring.
 * No restrictions: any p (the ring needs no power of two), any counts.
 * Cost: (p - 1) rounds; rank r receives every block but its own, N - c_r
 * elements (N = sum of rcounts).  Step k takes the largest block moving
 * in it, so with uneven counts the time is up to (p - 1)(alpha + c_max
 * beta), against (p - 1) alpha + N (p - 1)/p beta for even blocks.  Blocks
 * of count 0 send nothing.  MPICH cuts large blocks into pipelined chunks;
 * this builder does not (a->seg_count is ignored).
 */
#include "../coll.h"
#include "../ranks.h"

int vine__allgatherv_ring_build(const vine_args *a, vine_sched *s)
{
    int p = a->p, r = a->rank, next = vine__mod(r + 1, p), prev = vine__mod(r - 1, p);
    const size_t *cnt = a->rcounts, *dsp = a->rdispls;
    int own_buf = a->inplace ? VINE_BUF_RECV : VINE_BUF_SEND;
    size_t own_off = a->inplace ? dsp[r] : 0;
    /* The copy runs after the first round's messages, which do not touch block r in RECV. */
    if (!a->inplace)
        vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_RECV, dsp[r], cnt[r]);
    for (int k = 0; k < p - 1; k++) {
        int sblk = vine__mod((long)r - k, p), rblk = vine__mod((long)r - k - 1, p);
        if (k)
            vine__sched_fence(s);
        if (k)
            vine__sched_send(s, next, VINE_BUF_RECV, dsp[sblk], cnt[sblk]);
        else
            vine__sched_send(s, next, own_buf, own_off, cnt[sblk]);
        vine__sched_recv(s, prev, VINE_BUF_RECV, dsp[rblk], cnt[rblk]);
    }
    return vine__sched_finish(s);
}
