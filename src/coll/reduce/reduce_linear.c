/*
 * Linear reduce: every rank sends its input to the root in one round; the
 * root receives the inputs one rank at a time into count elements of scratch
 * and folds each into its result as soon as it arrives.  Ranks above the root
 * join as right operands in ascending order, then ranks below it as left
 * operands in descending order, so the result is x_0 op ... op x_{p-1} in
 * rank order and non-commutative ops are served.  Source: the trivial
 * baseline of Thakur, Rabenseifner and Gropp 2005 (papers/mpich-collectives.txt).
 * No restrictions: any p, any root, any op.  Cost at the root:
 * (p - 1)(alpha + n beta + n gamma); scratch: n elements.
 */
#include "../coll.h"

/* Receives rank i's input into scratch and folds it into the root's result. */
static void fold_in(vine_sched *s, int i, size_t n, int order)
{
    vine__sched_need_tmp(s, n);
    vine__sched_recv(s, i, VINE_BUF_TMP, 0, n);
    vine__sched_reduce(s, VINE_BUF_TMP, 0, VINE_BUF_RECV, 0, n, order);
    vine__sched_fence(s);
}

int vine__reduce_linear_build(const vine_args *a, vine_sched *s)
{
    int p = a->p, r = a->root, first = r + 1;
    size_t n = a->count;
    if (a->rank != r) {
        vine__sched_send(s, r, VINE_BUF_SEND, 0, n);
        return vine__sched_finish(s);
    }
    if (!a->inplace && r + 1 < p) {
        /* x_{r+1} lands in the result directly; the root's input joins on the left. */
        vine__sched_recv(s, r + 1, VINE_BUF_RECV, 0, n);
        vine__sched_reduce(s, VINE_BUF_SEND, 0, VINE_BUF_RECV, 0, n, VINE_SRC_LEFT);
        vine__sched_fence(s);
        first = r + 2;
    } else if (!a->inplace) {
        /* The copy joins the first fold's round and runs before its reduction. */
        vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_RECV, 0, n);
    }
    for (int i = first; i < p; i++)
        fold_in(s, i, n, VINE_SRC_RIGHT);
    for (int i = r - 1; i >= 0; i--)
        fold_in(s, i, n, VINE_SRC_LEFT);
    return vine__sched_finish(s);
}
