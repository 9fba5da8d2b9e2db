/*
 * Binomial-tree phases shared by the tree, scatter-allgather and
 * reduce-then-broadcast builders (MPI-free).
 *
 * Every phase appends its rounds to a schedule for one rank.  Trees are built
 * on ranks relative to a tree root t: relative rank v = (rank - t) mod p.  In
 * the distance-halving binomial tree the parent of v > 0 is v - lowbit(v) and
 * v's subtree is the contiguous relative range [v, v + vine__tree_span(p, v))
 * cut at p, so a subtree's blocks form one element range.
 */
#ifndef VINE_PHASE_TREE_H
#define VINE_PHASE_TREE_H

#include "../sched/sched.h"
#include "ranks.h"

#include <stddef.h>

/* A symbolic buffer position: the buffer (enum vine_buf) and an offset. */
typedef struct vine_bufpos {
    int buf;
    size_t off;
} vine_bufpos;

/*
 * The size of relative rank v's subtree in the distance-halving binomial tree
 * before cutting at p: lowbit(v) for v > 0, the smallest power of two >= p for
 * the root.
 */
int vine__tree_span(int p, int v);

/*
 * Whether relative rank w holds relative blocks [lo, hi) after
 * vine__tree_scatter(), so that an allgather need not send them to it.
 */
int vine__tree_holds(int p, int w, int lo, int hi);

/*
 * Sends (send != 0) or receives relative blocks [lo, hi) of the count elements
 * of RECV, cut into p blocks; the message is dropped when the blocks are empty.
 */
static inline void vine__blocks_msg(vine_sched *s, int send, int peer, size_t count, int p, int lo,
                                    int hi)
{
    size_t off = vine__block_off(count, p, lo), len = vine__block_off(count, p, hi) - off;
    if (send)
        vine__sched_send(s, peer, VINE_BUF_RECV, off, len);
    else
        vine__sched_recv(s, peer, VINE_BUF_RECV, off, len);
}

/* The end of relative rank v's subtree, cut at p: v holds [v, end). */
static inline int vine__tree_end(int p, int v)
{
    int span = vine__tree_span(p, v);
    return span < p - v ? v + span : p;
}

/*
 * Where relative blocks [lo, hi) of a tree rooted at root lie in rank order:
 * from block first (= (root + lo) mod p), n0 blocks up to the end of the
 * buffer, then n1 blocks from block 0 when the range wraps past rank p - 1.
 */
typedef struct vine_tree_wrap {
    int first, n0, n1;
} vine_tree_wrap;

static inline vine_tree_wrap vine__tree_wrap(int p, int root, int lo, int hi)
{
    vine_tree_wrap w;
    w.first = vine__mod((long)root + lo, p);
    w.n0 = hi - lo < p - w.first ? hi - lo : p - w.first;
    w.n1 = hi - lo - w.n0;
    return w;
}

/* Binomial broadcast (distance halving) of buf[off, off + count) from root. */
void vine__tree_bcast(vine_sched *s, int p, int rank, int root, int buf, size_t off, size_t count);

/*
 * Binomial scatter (distance halving) inside RECV[0, count): the count
 * elements are cut into p blocks (vine__block_off) indexed by relative rank,
 * and relative rank v receives the blocks of its whole subtree.  Afterwards v
 * holds blocks [v, v + vine__tree_span(p, v)) cut at p; the root holds all.
 */
void vine__tree_scatter(vine_sched *s, int p, int rank, int root, size_t count);

/*
 * Binomial reduce towards root, keeping operand order along relative ranks:
 * a child's subtree lies above its parent, so received data is the right
 * operand.  With root 0 this is rank order, which non-commutative ops need.
 */
typedef struct vine_tree_red {
    int p, rank, root;
    size_t count;
    vine_bufpos in;  /* this rank's input (read only unless it equals acc) */
    vine_bufpos acc; /* where a rank with children accumulates; the root's result */
    vine_bufpos tmp; /* count elements of receive scratch, apart from acc */
} vine_tree_red;

/*
 * Appends the reduce.  A rank with children accumulates its subtree's
 * partial result in acc and sends it from there; a leaf sends straight from
 * its input; the root ends with the result in acc.
 */
void vine__tree_reduce(vine_sched *s, const vine_tree_red *t);

/*
 * One step of such a reduce, for trees built elsewhere (the hierarchical
 * reduce): receives the partial result of child's subtree (count elements
 * of t) and folds it in as the right operand, in a round of its own.  cur is
 * where the rank's running result lies (its input at first); returns where
 * it lies now, t->acc.  Only t->count, t->acc and t->tmp are read.
 */
vine_bufpos vine__tree_reduce_child(vine_sched *s, const vine_tree_red *t, int child,
                                    vine_bufpos cur);

#endif
