/*
 * Multiport Bine allreduce on a torus (the Bine paper's section 5.4,
 * papers/bine-trees.txt): a node of a torus has a port per direction (+x,
 * -x, +y ...), and the flat or per-dimension Bine keeps one of them busy at
 * a time.  This algorithm cuts the vector into 2D parts, D the torus
 * dimensions of size > 1, and runs allreduce bine_torus on every part at
 * once (vine__sub_zip): part (d, s) takes the dimensions from the d-th on,
 * cyclically, and shifts every line by s coordinates (s = 0 or 1).  A Bine
 * step sends from an even coordinate in the + direction and from an odd one
 * in the - direction, so the shift turns every message of the part around:
 * in each round the 2D parts of a rank talk along D dimensions in both
 * directions, one port each (a dimension of 2 has a single neighbour, whom
 * both of its parts use).
 *
 * The parts run in lockstep (one round of the merged schedule holds round k
 * of every part), so a round lasts as long as its slowest part.  Where the
 * dimensions differ in length, the parts that start on a long dimension take
 * its long Bine steps in rounds where the others take short ones, and the
 * rounds' maxima add up (on 32 x 256 in vine sim, 750 us at 128 KiB against
 * 470 for two parts; docs/torus.md).  So on such a torus the vector is cut
 * into two parts only, (0, 0) and (0, 1): the same dimensions at the same
 * time in both directions, two ports of 2D; the 2D parts are taken when each
 * holds at least VINE_MULTIPORT_2D_MIN elements (torus.h), where the ports' bandwidth
 * outweighs the lockstep's latency (the crossover in vine sim on 32 x 256
 * with Fugaku's parameters lies at 4 MiB of int, parts of 1 MiB).
 *
 * The parts are worth their extra messages only where the ports
 * exist: on a level map marked as a torus network (levels.h: VINE_TOPOLOGY=
 * torus:..., --levels torus:..., vine sim's map of a torus job).  On any
 * other map, and without one, the vector is one part.  The parts keep
 * their empty rounds and are merged by vine__sub_zip (phase_sub.h says why
 * one tag is then safe); their butterflies fence at the same steps on
 * every rank only where every dimension is a power of two (no rank folds),
 * and a part below p elements would leave blocks empty, so the vector is
 * cut only there and with at least p elements a part.  One part is
 * allreduce bine_torus.  vine__torus_multiport_parts (torus.h) applies
 * these rules.
 *
 * Restrictions: commutative op; the level map, if any, must make a torus.
 * Cost, n = count, parts of n/2D: the rounds of bine_torus (2 sum lg D_d),
 * each with 2D messages per rank (alpha each), and bine_torus's 2 n (p-1)/p
 * beta + n (p-1)/p gamma spread over the 2D ports: per port 2 n (p-1)/(2D p)
 * beta when the ports work in parallel.  Scratch: 2D times that of one part
 * (about n/D_0 + n/(D_0 D_1) of its n/2D elements each).
 */
#include "../coll.h"
#include "../phase_torus_mp.h"
#include "../ranks.h"

/* Part k of n: allreduce bine_torus on its range of the vector, on its own view. */
static int part(const vine_args *a, vine_sched *s, int k, int n, size_t tmp_off)
{
    vine_tview v;
    int rc = vine__tview_init_part(&v, a, vine__torus_mp_first(k, n), k % 2, 1);
    if (rc != VINE_OK)
        return rc;
    size_t off = vine__block_off(a->count, n, k);
    vine_args sub = *a;
    sub.count = vine__block_off(a->count, n, k + 1) - off;
    int in_buf = a->inplace ? VINE_BUF_RECV : VINE_BUF_SEND;
    rc = vine__torus_allreduce_view(&sub, s, &v, vine__torus_rs_nu, vine__torus_ag_nu,
                                    (vine_bufpos){in_buf, off}, (vine_bufpos){VINE_BUF_RECV, off},
                                    tmp_off);
    vine__tview_free(&v);
    return rc;
}

int vine__allreduce_bine_torus_multiport_build(const vine_args *a, vine_sched *s)
{
    int n = vine__torus_mp_parts(a, a->count, 0);
    return n == 1 ? vine__allreduce_bine_torus_build(a, s) : vine__torus_mp_run(a, s, n, part);
}
