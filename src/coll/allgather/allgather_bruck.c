/*
 * Bruck allgather: a working buffer in scratch holds the blocks of ranks
 * rank, rank + 1, ... (mod p) in that order.  At step k the rank sends its
 * first min(2^k, p - 2^k) blocks to rank - 2^k and appends as many from
 * rank + 2^k, so after ceil(log2 p) steps it holds all p; a local rotation
 * then copies them into rank order in RECV (in place, the own block stays).
 * Source: Bruck et al. 1997, as in Thakur, Rabenseifner and Gropp 2005,
 * section 4.2 (papers/mpich-collectives.txt).  No restrictions; scratch of
 * p * count elements.  Cost: ceil(log2 p) alpha + n (p - 1)/p beta, plus
 * local copies of about n elements, n = p * count.
 */
#include "../coll.h"
#include "../ranks.h"

/* Copies the working buffer into rank order: TMP block j is rank (r + j) mod p's. */
static void rotate_into_recv(const vine_args *a, vine_sched *s)
{
    size_t c = a->count, p = (size_t)a->p, r = (size_t)a->rank;
    vine__sched_copy(s, VINE_BUF_TMP, c, VINE_BUF_RECV, (r + 1) * c, (p - r - 1) * c);
    vine__sched_copy(s, VINE_BUF_TMP, (p - r) * c, VINE_BUF_RECV, 0, r * c);
    if (!a->inplace)
        vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_RECV, r * c, c);
}

int vine__allgather_bruck_build(const vine_args *a, vine_sched *s)
{
    int p = a->p, r = a->rank;
    size_t c = a->count;
    int own_buf = a->inplace ? VINE_BUF_RECV : VINE_BUF_SEND;
    size_t own_off = a->inplace ? (size_t)r * c : 0;
    if (p > 1)
        vine__sched_need_tmp(s, (size_t)p * c);
    /* The step to p ends the loop without overflowing dist when p is near INT_MAX. */
    for (int dist = 1; dist < p; dist = dist <= p / 2 ? 2 * dist : p) {
        size_t blocks = (size_t)(dist < p - dist ? dist : p - dist);
        if (dist == 1) {
            /* The first message is the own block; it also seeds the working buffer. */
            vine__sched_send(s, vine__mod(r - 1, p), own_buf, own_off, c);
            vine__sched_copy(s, own_buf, own_off, VINE_BUF_TMP, 0, c);
        } else {
            vine__sched_send(s, vine__mod(r - dist, p), VINE_BUF_TMP, 0, blocks * c);
        }
        vine__sched_recv(s, vine__mod(r + dist, p), VINE_BUF_TMP, (size_t)dist * c, blocks * c);
        /* The rotation joins the last round: copies run after its messages. */
        if (dist >= p - dist)
            rotate_into_recv(a, s);
        vine__sched_fence(s);
    }
    if (p == 1 && !a->inplace)
        vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_RECV, 0, c);
    return vine__sched_finish(s);
}
