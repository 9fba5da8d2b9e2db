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
 * other map, and without one, the vector is one part.  The parts also run
 * side by side only where that is safe with one tag (phase_sub.h: every
 * part round-aligned): every dimension a power of two, so that no rank
 * folds, and at least p elements in every part, so that no block is empty
 * and every rank has a message in every step.  One part is allreduce
 * bine_torus.  vine__torus_multiport_parts (torus.h) applies these rules.
 *
 * Restrictions: commutative op; the level map, if any, must make a torus.
 * Cost, n = count, parts of n/2D: the rounds of bine_torus (2 sum lg D_d),
 * each with 2D messages per rank (alpha each), and bine_torus's 2 n (p-1)/p
 * beta + n (p-1)/p gamma spread over the 2D ports: per port 2 n (p-1)/(2D p)
 * beta when the ports work in parallel.  Scratch: 2D times that of one part
 * (about n/D_0 + n/(D_0 D_1) of its n/2D elements each).
 */
#include "../coll.h"
#include "../phase_sub.h"
#include "../phase_torus.h"
#include "../ranks.h"

#include <stdlib.h>

int vine__allreduce_bine_torus_multiport_build(const vine_args *a, vine_sched *s)
{
    vine_tview v;
    int rc = vine__tview_init(&v, a);
    if (rc != VINE_OK)
        return rc;
    const vine_levels *m = vine__levels_ready(a->levels, a->p) ? a->levels : NULL;
    int nparts = vine__torus_multiport_parts(&v.t, m, a->count);
    vine__tview_free(&v);
    if (nparts == 1)
        return vine__allreduce_bine_torus_build(a, s);
    vine_sched *parts = calloc((size_t)nparts, sizeof *parts);
    if (!parts)
        return VINE_ERR_NO_MEM;
    for (int k = 0; k < nparts; k++) {
        vine__sched_init(&parts[k], a->p, a->rank);
        parts[k].msgs_only = s->msgs_only;
    }
    int in_buf = a->inplace ? VINE_BUF_RECV : VINE_BUF_SEND;
    size_t tmp = 0;
    for (int k = 0; k < nparts && rc == VINE_OK; k++) {
        /* Part k: starts on dimension k / 2 (the first only, with two parts), shift k % 2. */
        rc = vine__tview_init_part(&v, a, nparts == 2 ? 0 : k / 2, k % 2, 1);
        if (rc != VINE_OK)
            break;
        size_t off = vine__block_off(a->count, nparts, k);
        vine_args part = *a;
        part.count = vine__block_off(a->count, nparts, k + 1) - off;
        rc = vine__torus_allreduce_view(&part, &parts[k], &v, vine__torus_rs_nu, vine__torus_ag_nu,
                                        (vine_bufpos){in_buf, off},
                                        (vine_bufpos){VINE_BUF_RECV, off}, tmp);
        if (rc == VINE_OK)
            rc = vine__sched_finish(&parts[k]);
        /* The next part's scratch starts where this one's ends. */
        tmp = parts[k].tmp_count > tmp ? parts[k].tmp_count : tmp;
        vine__tview_free(&v);
    }
    if (rc == VINE_OK)
        rc = vine__sub_zip(s, parts, nparts);
    for (int k = 0; k < nparts; k++)
        vine__sched_free(&parts[k]);
    free(parts);
    return rc == VINE_OK ? vine__sched_finish(s) : rc;
}
