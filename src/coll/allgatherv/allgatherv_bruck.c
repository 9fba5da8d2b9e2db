/*
 * Bruck allgatherv: a working buffer in scratch holds the blocks of ranks
 * rank, rank + 1, ... (mod p) packed in that order, block j at TMP[Q_j],
 * Q_j = rcounts[rank] + ... + rcounts[rank + j - 1].  At step k the rank
 * sends its first min(2^k, p - 2^k) blocks to rank - 2^k and appends as many
 * from rank + 2^k (both ends sum the same rcounts for the length), so after
 * ceil(log2 p) steps it holds all p; the last round then copies each block
 * to its place RECV[rdispls[i]], one COPY per run of blocks adjacent in RECV
 * too (two copies for the MPI_Allgather layout; the own block stays when in
 * place).  The regular allgather bruck with block i of rcounts[i] elements.
 * Source: Bruck et al. 1997, as in Thakur, Rabenseifner and Gropp 2005,
 * section 4.2 (papers/mpich-collectives.txt); MPICH's
 * MPIR_Allgatherv_intra_brucks.
 * No restrictions: Bruck's rotation works for any p as it is, any counts.
 * Scratch: N = sum of rcounts elements.
 * Cost: ceil(log2 p) rounds; rank r receives N - c_r elements; the step of
 * distance 2^k moves the next min(2^k, p - 2^k) blocks, so with uneven
 * counts a step takes its largest such run (up to N beta for the last one).
 * Plus local copies of about N elements.
 */
#include "../coll.h"
#include "../phase_v.h"
#include "../ranks.h"

#include <stdlib.h>

int vine__allgatherv_bruck_build(const vine_args *a, vine_sched *s)
{
    int p = a->p, r = a->rank;
    int own_buf = a->inplace ? VINE_BUF_RECV : VINE_BUF_SEND;
    size_t own_off = a->inplace ? a->rdispls[r] : 0;
    if (p == 1) {
        if (!a->inplace)
            vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_RECV, a->rdispls[0], a->rcounts[0]);
        return vine__sched_finish(s);
    }
    size_t *q = malloc(((size_t)p + 1) * sizeof *q);
    if (!q)
        return VINE_ERR_NO_MEM;
    q[0] = 0;
    for (int j = 0; j < p; j++)
        q[j + 1] = q[j] + a->rcounts[vine__mod((long)r + j, p)];
    vine__sched_need_tmp(s, q[p]);
    /* The step to p ends the loop without overflowing dist when p is near INT_MAX. */
    for (int dist = 1; dist < p; dist = dist <= p / 2 ? 2 * dist : p) {
        int blocks = dist < p - dist ? dist : p - dist;
        vine__sched_fence(s);
        if (dist == 1) {
            /* The first message is the own block; it also seeds the working buffer. */
            vine__sched_send(s, vine__mod((long)r - 1, p), own_buf, own_off, q[1]);
            vine__sched_copy(s, own_buf, own_off, VINE_BUF_TMP, 0, q[1]);
        } else {
            vine__sched_send(s, vine__mod((long)r - dist, p), VINE_BUF_TMP, 0, q[blocks]);
        }
        vine__sched_recv(s, vine__mod((long)r + dist, p), VINE_BUF_TMP, q[dist],
                         q[dist + blocks] - q[dist]);
    }
    /* The rotation joins the last round: copies run after its messages. */
    vine__v_copy_out(a, s, VINE_BUF_TMP, 0, r, a->inplace ? r : -1);
    free(q);
    return vine__sched_finish(s);
}
