/*
 * Large Bine broadcast: the Bine form of van de Geijn's scatter + allgather.
 * The root scatters the buffer, cut into q blocks, along the distance-doubling
 * Bine tree, then the participants allgather them on the distance-halving Bine
 * butterfly, skipping the blocks a rank already holds from the scatter
 * (phase_bine_dd.h).  MPICH's scatter + recursive-doubling allgather runs the
 * other way round (distance-halving scatter, distance-doubling allgather), so
 * its largest allgather messages travel the farthest; here they go to the
 * nearest partners, which is where Bine saves most global traffic.  Source:
 * De Sensi et al., Bine trees, section 4.4 (papers/bine-trees.txt), and
 * Thakur, Rabenseifner and Gropp 2005, section 4.1
 * (papers/mpich-collectives.txt); formulas in ../shared/BINE.md.
 *
 * A non-power-of-two p is folded onto q = 2^floor(lg p) participants taken
 * relative to the root: among the first 2e relative ranks (e = p - q) each
 * odd one sits out and receives the whole buffer from the even one below it
 * after the allgather; the root is always a participant.  No restrictions:
 * any p, any root; blocks are empty when count < q.
 *
 * Cost, p a power of two: 2 lg p alpha + 2 ((p - 1) / p) n beta, the rounds
 * and bytes per rank of bcast scatter_allgather_rd (checked with vine dump:
 * in nu order the tree is a binomial tree and the butterfly a recursive
 * doubling, so every rank sends the same volume as its counterpart there).
 * Otherwise one more round: 2 lg q alpha + 2 ((q - 1) / q) n beta + alpha +
 * n beta at the e fold partners.
 */
#include "../coll.h"
#include "../phase_bine_dd.h"

int vine__bcast_bine_large_build(const vine_args *a, vine_sched *s)
{
    vine_bine_dd t;
    vine__bine_dd_init(&t, s, a->p, a->rank, a->root, a->count);
    vine__bine_dd_scatter(&t, VINE_BUF_RECV, 0);
    vine__bine_dd_allgather(&t, VINE_BUF_RECV, 0);
    if (t.partner >= 0) {
        if (t.me >= 0)
            vine__sched_send(s, t.partner, VINE_BUF_RECV, 0, a->count);
        else
            vine__sched_recv(s, t.partner, VINE_BUF_RECV, 0, a->count);
    }
    return vine__sched_finish(s);
}
