/*
 * Binomial-tree reduce that keeps operand order.  Each rank receives the
 * partial results of its children v + 1, v + 2, v + 4 ... (a child's subtree
 * is the contiguous range just above the rank, so its data is the right
 * operand), then sends its own partial result to its parent.  For a
 * commutative op the tree uses ranks relative to the root; for a
 * non-commutative op it uses absolute ranks towards rank 0, which then sends
 * the result to the root.  Source: Thakur, Rabenseifner and Gropp 2005,
 * section 5.1 (papers/mpich-collectives.txt).  No restrictions: any p, any
 * root, any op.  Cost: ceil(log2 p) (alpha + n beta + n gamma), plus
 * alpha + n beta for a non-commutative op with root != 0.
 */
#include "../coll.h"
#include "../phase_tree.h"

int vine__reduce_binomial_build(const vine_args *a, vine_sched *s)
{
    int via_zero = !a->commutative && a->root != 0;
    int is_root = a->rank == a->root;
    vine_tree_red t = {
        .p = a->p, .rank = a->rank, .root = via_zero ? 0 : a->root, .count = a->count};
    t.in = (vine_bufpos){a->inplace && is_root ? VINE_BUF_RECV : VINE_BUF_SEND, 0};
    /* Only the root has a receive buffer; everyone else accumulates in scratch. */
    if (a->rank == t.root && is_root) {
        t.acc = (vine_bufpos){VINE_BUF_RECV, 0};
        t.tmp = (vine_bufpos){VINE_BUF_TMP, 0};
    } else {
        t.acc = (vine_bufpos){VINE_BUF_TMP, 0};
        t.tmp = (vine_bufpos){VINE_BUF_TMP, a->count};
    }
    vine__tree_reduce(s, &t);
    if (via_zero && a->rank == 0)
        vine__sched_send(s, a->root, t.acc.buf, t.acc.off, a->count);
    else if (via_zero && is_root)
        vine__sched_recv(s, 0, VINE_BUF_RECV, 0, a->count);
    return vine__sched_finish(s);
}
