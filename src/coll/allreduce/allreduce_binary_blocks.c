/*
 * Rabenseifner's binary-blocks allreduce.
 *
 * p is split by its binary representation into power-of-two blocks of
 * consecutive ranks, the largest block first: p = 13 gives ranks 0-7, 8-11
 * and 12.  The vector is cut into Q near-equal fine chunks, Q the size of the
 * largest block; a block of size 2^k cuts it into 2^k chunks of Q / 2^k fine
 * chunks each, so the chunks of different blocks nest.  The blocks are
 * combined as follows:
 *   1. every block reduce-scatters the vector inside itself by recursive
 *      halving, the nearest partner first as in Rabenseifner's allreduce
 *      (phase_hd.h), so member i ends with chunk rev(i) of its block (the
 *      bits of i reversed), reduced over the block;
 *   2. from the smallest block up, each member of a block sends its chunk,
 *      split into the chunks of the next larger block, to the r members of
 *      that block whose chunks it covers (r the ratio of the block sizes),
 *      and each receiver reduces the piece into its chunk; a block sends only
 *      after it received from the block below, so the largest block ends with
 *      the reduction over all p ranks;
 *   3. the largest block gathers its chunks by recursive doubling (the
 *      farthest partner first, the inverse of step 1), and its
 *      member i sends the whole result to the i-th rank outside it (there are
 *      fewer such ranks than members).
 * For power-of-two p this is plain recursive halving and doubling.  Source:
 * Thakur, Rabenseifner and Gropp 2005, section 5.2 and Fig. 16
 * (papers/mpich-collectives.txt).  Restrictions: commutative op.  Cost, with
 * blocks 2^k0 > 2^k1 > ... > 2^km: step 1 takes k_j alpha + (1 - 2^-kj) n
 * (beta + gamma) in block j; step 2 costs, per pair of blocks,
 * 2^(k(j-1) - kj) alpha + 2^-kj n beta + 2^-k(j-1) n gamma, one pair after
 * the other; step 3 takes (k0 + 1) alpha + (2 - 2^-k0) n beta.
 */
#include "../coll.h"
#include "../phase_hd.h"
#include "../ranks.h"

/* The blocks of p, largest first: at most 31 of them. */
typedef struct blocks {
    int n, base[32], size[32];
} blocks;

static void split(int p, blocks *b)
{
    int base = 0;
    b->n = 0;
    for (int bit = 30; bit >= 0; bit--) {
        if (p & (1 << bit)) {
            b->base[b->n] = base;
            b->size[b->n++] = 1 << bit;
            base += 1 << bit;
        }
    }
}

/*
 * Step 2 between block j (sending) and block j - 1 (receiving and reducing).
 * Member i of a block of q ranks holds the block's chunk rev(i), its lg q
 * bits reversed (the near-first reduce-scatter, phase_hd.h).
 */
static void up_step(vine_hd *h, const blocks *b, int j, int rank, int my_block)
{
    int ratio = b->size[j - 1] / b->size[j], stride = h->nfine / b->size[j - 1];
    if (my_block == j) {
        int c = vine__bitrev_pow2(rank - b->base[j], b->size[j]);
        for (int t = 0; t < ratio; t++) {
            int m = c * ratio + t; /* block j - 1's chunk, held by member rev(m) */
            size_t off = vine__block_off(h->total, h->nfine, m * stride);
            size_t end = vine__block_off(h->total, h->nfine, (m + 1) * stride);
            int to = b->base[j - 1] + vine__bitrev_pow2(m, b->size[j - 1]);
            vine__sched_send(h->s, to, h->cur_buf, h->cur_off + off, end - off);
        }
        vine__sched_fence(h->s);
    } else if (my_block == j - 1) {
        int m = vine__bitrev_pow2(rank - b->base[j - 1], b->size[j - 1]);
        size_t off = vine__block_off(h->total, h->nfine, m * stride);
        size_t end = vine__block_off(h->total, h->nfine, (m + 1) * stride);
        int from = b->base[j] + vine__bitrev_pow2(m / ratio, b->size[j]);
        vine__hd_recv_reduce(h, from, off, end - off, 0, 0);
        vine__sched_fence(h->s);
        vine__hd_settle(h);
    }
}

int vine__allreduce_binary_blocks_build(const vine_args *a, vine_sched *s)
{
    size_t n = a->count;
    blocks b;
    vine_hd h;
    split(a->p, &b);
    int j = 0;
    while (j + 1 < b.n && a->rank >= b.base[j + 1])
        j++;
    vine__hd_init(&h, s, a, n, a->inplace ? VINE_BUF_RECV : VINE_BUF_SEND, 0, VINE_BUF_RECV, 0, 0);
    /* Participants of the phases are the members of this rank's block. */
    h.fold_p = 0;
    h.base = b.base[j];
    h.q = b.size[j];
    h.me = a->rank - b.base[j];
    h.nfine = b.size[0];
    h.stride = b.size[0] / b.size[j];
    vine__hd_reduce_scatter_near(&h);
    for (int k = b.n - 1; k >= 1; k--)
        up_step(&h, &b, k, a->rank, j);
    int outside = a->p - b.size[0];
    if (j == 0) {
        vine__hd_allgather_near(&h);
        if (h.cur_buf != VINE_BUF_RECV)
            vine__sched_copy(s, h.cur_buf, h.cur_off, VINE_BUF_RECV, 0, n);
        if (h.me < outside)
            vine__sched_send(s, b.size[0] + h.me, VINE_BUF_RECV, 0, n);
    } else {
        vine__sched_recv(s, a->rank - b.size[0], VINE_BUF_RECV, 0, n);
    }
    return vine__sched_finish(s);
}
