/*
 * Multiport frames on a torus (MPI-free; issue 23, the Bine paper's section
 * 5.4): the bine_torus_multiport algorithms cut their data into parts and
 * run a torus algorithm on every part at once, each part starting on
 * another dimension and running its lines the other way, so that the
 * messages a rank posts in one round leave through different ports.
 *
 * Part k of n starts at active dimension vine__torus_mp_first(k, n) and
 * takes the others after it, cyclically (vine__tview_init_part); an odd k
 * turns its direction around: the butterflies (allreduce, reduce-scatter,
 * allgather) shift every line by one coordinate, which turns each Bine
 * step around, and the trees (bcast, reduce) mirror every line (relative
 * rank u of the line's tree lies at coordinate root - u instead of root +
 * u), so every message of the part goes the other way along its line.
 *
 * Each part is a schedule that keeps its empty rounds (vine_sched
 * .keep_rounds) and fences at the same steps on every rank, every message's
 * send and receive in the same step: the frames below fence once per Bine
 * step on every rank of the torus, ranks outside a stage's lines included,
 * and the butterflies of phase_torus.h do so on lines of 2^k.  So the parts
 * meet the rules of vine__sub_zip (phase_sub.h), which merges them round by
 * round with one tag.
 */
#ifndef VINE_PHASE_TORUS_MP_H
#define VINE_PHASE_TORUS_MP_H

#include "phase_torus.h"

/* Appends part k of n of a's collective to s (not finished), its scratch from TMP[tmp_off] on. */
typedef int (*vine_mp_part_fn)(const vine_args *a, vine_sched *s, int k, int n, size_t tmp_off);

/* The active dimension part k of n starts at: k / 2, or 0 with two parts (both directions). */
static inline int vine__torus_mp_first(int k, int n)
{
    return n == 2 ? 0 : k / 2;
}

/*
 * The parts for a vector of count elements on the torus of a's map:
 * vine__torus_multiport_parts (butterflies: dimensions of 2^k) or, with
 * tree set, vine__torus_multiport_tree_parts (torus.h); 1 without a torus.
 */
int vine__torus_mp_parts(const vine_args *a, size_t count, int tree);

/*
 * Builds parts 0 .. n-1 with part, each in a schedule that keeps its rounds,
 * part k's scratch from the end of the scratch of parts 0 .. k-1 on, merges
 * them into s (vine__sub_zip) and finishes s.  Returns VINE_OK, a part's
 * error, VINE_ERR_NO_MEM or VINE_ERR_INTERNAL (a part breaks the zip's rule).
 */
int vine__torus_mp_run(const vine_args *a, vine_sched *s, int n, vine_mp_part_fn part);

/*
 * The multiport builders: bcast and reduce (commutative op) cut the vector
 * into contiguous parts, each a Bine tree per dimension as bcast and reduce
 * bine_torus; reduce_scatter (and reduce_scatter_block) and allgather make
 * part k of slice k of every rank's block (vine__block_off(count, n, k)),
 * gathered into scratch in the part's torus order, and run the butterflies
 * of allreduce bine_torus there.  With one part they are the bine_torus
 * builders.  Each finishes s.
 */
int vine__torus_mp_bcast(const vine_args *a, vine_sched *s);
int vine__torus_mp_reduce(const vine_args *a, vine_sched *s);
int vine__torus_mp_reduce_scatter(const vine_args *a, vine_sched *s);
int vine__torus_mp_allgather(const vine_args *a, vine_sched *s);

#endif
