/*
 * Linear scatterv: the root posts its p - 1 sends in one round, each block
 * straight from its place in SEND, peers in rank-rotated order starting after
 * the root, and copies its own block unless it stays in place; every other
 * rank receives its block.  Empty blocks send nothing.  A non-root reads only
 * its own count, as MPI_Scatterv gives it.  Source: MPICH's linear scatterv
 * (MPIR_Scatterv_allcomm_linear; Thakur, Rabenseifner and Gropp 2005,
 * papers/mpich-collectives.txt).  No restrictions: any p, any root.  Cost:
 * (p - 1) alpha + the root's total send bytes beta, at the root; no scratch.
 */
#include "../coll.h"
#include "../ranks.h"

int vine__scatterv_linear_build(const vine_args *a, vine_sched *s)
{
    int p = a->p, root = a->root;
    const size_t *sc = a->scounts, *sd = a->sdispls;
    if (a->rank != root) {
        vine__sched_recv(s, root, VINE_BUF_RECV, 0, sc[a->rank]);
        return vine__sched_finish(s);
    }
    for (int i = 1; i < p; i++) {
        int peer = vine__mod((long)root + i, p);
        vine__sched_send(s, peer, VINE_BUF_SEND, sd[peer], sc[peer]);
    }
    if (!a->inplace)
        vine__sched_copy(s, VINE_BUF_SEND, sd[root], VINE_BUF_RECV, 0, sc[root]);
    return vine__sched_finish(s);
}
