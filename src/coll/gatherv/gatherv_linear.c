/*
 * Linear gatherv: every non-root sends its block to the root, which posts all
 * p - 1 receives in one round, each straight into its block of RECV, peers
 * in rank-rotated order starting after the root, and copies its own block
 * unless it is already in place.  Empty blocks send nothing.  A non-root
 * reads only its own count, as MPI_Gatherv gives it.  Source: MPICH's linear
 * gatherv (MPIR_Gatherv_allcomm_linear; Thakur, Rabenseifner and Gropp 2005,
 * papers/mpich-collectives.txt).  No restrictions: any p, any root.  Cost:
 * (p - 1) alpha + the root's total receive bytes beta, at the root; no
 * scratch.
 */
#include "../coll.h"
#include "../ranks.h"

int vine__gatherv_linear_build(const vine_args *a, vine_sched *s)
{
    int p = a->p, root = a->root;
    const size_t *rc = a->rcounts, *rd = a->rdispls;
    if (a->rank != root) {
        vine__sched_send(s, root, VINE_BUF_SEND, 0, rc[a->rank]);
        return vine__sched_finish(s);
    }
    for (int i = 1; i < p; i++) {
        int peer = vine__mod((long)root + i, p);
        vine__sched_recv(s, peer, VINE_BUF_RECV, rd[peer], rc[peer]);
    }
    if (!a->inplace)
        vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_RECV, rd[root], rc[root]);
    return vine__sched_finish(s);
}
