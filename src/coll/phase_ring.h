/*
 * Ring phases shared by the ring builders (allreduce ring, reduce_scatter
 * ring, allgather ring): a ring reduce-scatter and a ring allgather over a
 * table of p consecutive blocks.  Both send to rank + 1 and receive from
 * rank - 1 in p - 1 steps, one round per step.  Each phase fences between its
 * steps but leaves its last round open, so that the caller may add local
 * operations that run after the last messages; a caller that starts another
 * phase must fence first.
 */
#ifndef VINE_PHASE_RING_H
#define VINE_PHASE_RING_H

#include "../sched/sched.h"
#include "ranks.h"

#include <stddef.h>

/*
 * A vector cut into p consecutive blocks: block i starts at displs[i] (p + 1
 * prefix sums), or, when displs is NULL, the blocks are the even partition of
 * total elements given by vine__block_off.
 */
typedef struct vine__blocks {
    int p;
    size_t total;
    const size_t *displs;
} vine__blocks;

static inline size_t vine__blocks_off(const vine__blocks *b, int i)
{
    return b->displs ? b->displs[i] : vine__block_off(b->total, b->p, i);
}

static inline size_t vine__blocks_len(const vine__blocks *b, int i)
{
    return vine__blocks_off(b, i + 1) - vine__blocks_off(b, i);
}

/* The largest block of the table. */
size_t vine__blocks_max(const vine__blocks *b);

/* Where the ring reduce-scatter keeps its partial sums. */
enum vine__ring_acc {
    /* Over the input blocks themselves (in place); messages land in TMP[0, m). */
    VINE__RING_ACC_INPUT = 0,
    /* At the block offsets of acc_buf, a buffer other than the input's. */
    VINE__RING_ACC_BLOCKS = 1,
    /* Alternately in TMP[0, m) and TMP[m, 2m), m the largest block. */
    VINE__RING_ACC_SLOTS = 2
};

typedef struct vine__ring_rs {
    vine__blocks blocks;
    int in_buf;  /* this rank's input, block i at vine__blocks_off(i) */
    int acc;     /* enum vine__ring_acc */
    int acc_buf; /* VINE__RING_ACC_BLOCKS only */
    /*
     * When fin_buf >= 0, the last message (the rest of block rank) lands at
     * fin_buf[fin_off] and the own input is reduced into it there; otherwise
     * the complete block rank ends where acc puts it.
     */
    int fin_buf;
    size_t fin_off;
} vine__ring_rs;

/*
 * Ring reduce-scatter for a commutative op: at step k rank r sends its
 * partial sum of block (r - k - 1) mod p to r + 1 and adds its input to the
 * partial sum of block (r - k - 2) mod p received from r - 1, so that rank r
 * ends with the complete block r.  Declares its scratch.  No steps for p = 1.
 */
void vine__ring_reduce_scatter(vine_sched *s, int rank, const vine__ring_rs *c);

/*
 * The reduce-scatter of a ring allreduce: count elements cut into p blocks,
 * from SEND (or in place over RECV), block r's sum ending in RECV at its
 * block offset on rank r.
 */
void vine__ring_reduce_scatter_vector(vine_sched *s, int p, int rank, size_t count, int inplace);

/*
 * Ring allgather on buf laid out by the block table: rank r starts with
 * block r (read at step 0 from own_buf[own_off], which may lie outside buf)
 * and at step k sends block (r - k) mod p to r + 1 and receives block
 * (r - k - 1) mod p from r - 1 into its place in buf.  Block r itself is not
 * written into buf.  No steps for p = 1.
 */
void vine__ring_allgather(vine_sched *s, int rank, const vine__blocks *b, int buf, int own_buf,
                          size_t own_off);

#endif
