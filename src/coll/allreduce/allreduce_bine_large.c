/*
 * Allreduce as a Bine reduce-scatter followed by a Bine allgather (the
 * bandwidth-optimal form, Rabenseifner's scheme on Bine butterflies).
 *
 * The vector is cut into p' = 2^floor(lg p) near-equal contiguous blocks.
 * The reduce-scatter runs on the distance-doubling butterfly: at step s,
 * w = p' >> (s + 1), participant r sends partner q = pi(r, s) the w blocks
 * starting at nu(q) & ~(w-1) and reduces the w blocks starting at
 * nu(r) & ~(w-1), so every message is one contiguous range and r ends with
 * block nu(r).  The allgather runs the same exchanges backwards on the
 * distance-halving butterfly and returns every block to its place: the nu
 * permutation cancels, no block is ever reordered.  A non-power-of-two p is
 * folded with the halved MPICH fold (vine__hd_fold_in) and the ranks that
 * folded away get the result at the end.  Source: De Sensi et al., Bine
 * trees, sections 4.3 and 4.4 (papers/bine-trees.txt); ../shared/BINE.md.
 * Restrictions: commutative op.  Any count: blocks may be empty when
 * count < p'.  Cost for power-of-two p:
 * 2 lg p alpha + 2 ((p-1)/p) n beta + ((p-1)/p) n gamma, the rounds and
 * bytes of recursive halving + recursive doubling (Rabenseifner; checked with
 * `vine dump`); otherwise (3 + 2 lg p') alpha + 4 n beta + (3/2) n gamma.
 * Scratch: the largest range received into it, n/4 (n/2 in place).
 *
 * Segmented (vine_args.seg_count > 0, from vine_set_segment_size or
 * VINE_SEGMENT_SIZE, and a vector longer than one segment): the butterfly
 * phases run per segment of seg_count elements (at most 256 segments), each
 * reduce-scatter step as one round per segment, so the executor reduces a
 * segment while the next one travels (phase_bine.h).  Same bytes, lg p
 * rounds per segment in the reduce-scatter, lg p rounds of S messages in the
 * allgather; scratch two segments.
 */
#include "../coll.h"
#include "../phase_bine.h"
#include "../ranks.h"

#include <stdlib.h>

/* More segments only add rounds: a longer vector gets longer segments. */
#define MAX_SEGMENTS 256

/*
 * The pipelined phases: the participant's vector (in b's cur, going to b's w)
 * cut into nseg contiguous segments, each a butterfly of its own; the
 * segments' receive scratch alternates between two slots of the largest
 * segment's length, so a reduction never shares scratch with the next
 * segment's receive.
 */
static int segmented(vine_bfly *b, size_t n, int nseg)
{
    vine_bfly *segs = malloc((size_t)nseg * sizeof *segs);
    if (!segs)
        return VINE_ERR_NO_MEM;
    size_t slot = vine__block_off(n, nseg, 1);
    for (int k = 0; k < nseg; k++) {
        size_t at = vine__block_off(n, nseg, k);
        segs[k] = *b;
        segs[k].total = vine__block_off(n, nseg, k + 1) - at;
        segs[k].cur_off += at;
        segs[k].w_off += at;
        segs[k].t_off += (size_t)(k % 2) * slot;
    }
    vine__bfly_reduce_scatter_segs(segs, nseg);
    vine__bfly_allgather_segs(segs, nseg);
    vine__bfly_settle(b);
    free(segs);
    return VINE_OK;
}

int vine__allreduce_bine_large_build(const vine_args *a, vine_sched *s)
{
    size_t n = a->count;
    vine_bfly b;
    vine__bfly_init(&b, s, a->p, a->rank, 0, VINE_BFLY_FOLD_MPICH, n,
                    a->inplace ? VINE_BUF_RECV : VINE_BUF_SEND, 0, VINE_BUF_RECV, 0, 0);
    size_t nseg = a->seg_count && b.q > 1 ? (n + a->seg_count - 1) / a->seg_count : 1;
    if (nseg > MAX_SEGMENTS)
        nseg = MAX_SEGMENTS;
    vine__bfly_fold_in(&b, a);
    if (b.me >= 0 && nseg > 1) {
        int rc = segmented(&b, n, (int)nseg);
        if (rc != VINE_OK)
            return rc;
    } else if (b.me >= 0) {
        vine__bfly_reduce_scatter(&b);
        vine__bfly_allgather(&b);
        /* Only p = 1 leaves the input where it was. */
        if (b.cur_buf != VINE_BUF_RECV)
            vine__sched_copy(s, b.cur_buf, b.cur_off, VINE_BUF_RECV, 0, n);
    }
    vine__bfly_fold_out(&b, 0, n, VINE_BUF_RECV, 0);
    return vine__sched_finish(s);
}
