/* Irregular blocks on the binomial tree (phase_vtree.h). */
#include "phase_vtree.h"

#include "ranks.h"

vine_vblocks vine__vtree_blocks(const size_t *counts, const size_t *displs, int p, int root, int lo,
                                int hi)
{
    vine_vblocks b = {0, displs != NULL, 0};
    int i = vine__mod((long)root + lo, p);
    for (int u = lo; u < hi; u++, i = i + 1 < p ? i + 1 : 0) {
        size_t n = counts[i];
        if (n == 0)
            continue;
        if (displs && b.total == 0)
            b.off = displs[i];
        else if (displs && displs[i] != b.off + b.total)
            b.adjacent = 0;
        b.total += n;
    }
    return b;
}

void vine__vtree_copy(vine_sched *s, const size_t *counts, const size_t *displs, int p, int root,
                      int lo, int hi, int pbuf, size_t poff, int buf, int unpack)
{
    /* The pending run: run elements from packed offset rp and place offset rd. */
    size_t rp = poff, rd = 0, run = 0;
    int i = vine__mod((long)root + lo, p);
    for (int u = lo; u < hi; u++, i = i + 1 < p ? i + 1 : 0) {
        size_t n = counts[i];
        if (n == 0)
            continue;
        if (run && displs[i] == rd + run) {
            run += n;
            continue;
        }
        if (unpack)
            vine__sched_copy(s, pbuf, rp, buf, rd, run);
        else
            vine__sched_copy(s, buf, rd, pbuf, rp, run);
        rp += run;
        rd = displs[i];
        run = n;
    }
    if (unpack)
        vine__sched_copy(s, pbuf, rp, buf, rd, run);
    else
        vine__sched_copy(s, buf, rd, pbuf, rp, run);
}
