/*
 * Helpers of the allgatherv builders (see phase_v.h).
 */
#include "phase_v.h"

#include "ranks.h"

#include <stdlib.h>

/* Whether rdispls put every nonzero block at base + off[i] for one base; sets *base. */
static int packed(const vine_args *a, const size_t *off, size_t *base)
{
    int found = 0;
    *base = 0;
    for (int i = 0; i < a->p; i++) {
        if (!a->rcounts[i])
            continue;
        if (!found) {
            if (a->rdispls[i] < off[i])
                return 0;
            *base = a->rdispls[i] - off[i];
            found = 1;
        } else if (a->rdispls[i] != *base + off[i]) {
            return 0;
        }
    }
    return 1;
}

int vine__vwork_init(vine__vwork *w, const vine_args *a, vine_sched *s)
{
    int p = a->p;
    size_t base;
    w->off = malloc(((size_t)p + 1) * sizeof *w->off);
    if (!w->off)
        return VINE_ERR_NO_MEM;
    w->off[0] = 0;
    for (int i = 0; i < p; i++)
        w->off[i + 1] = w->off[i] + a->rcounts[i];
    if (packed(a, w->off, &base)) {
        w->buf = VINE_BUF_RECV;
        for (int i = 0; i <= p; i++)
            w->off[i] += base;
    } else {
        w->buf = VINE_BUF_TMP;
        vine__sched_need_tmp(s, w->off[p]);
    }
    w->own_buf = a->inplace ? VINE_BUF_RECV : VINE_BUF_SEND;
    w->own_off = a->inplace ? a->rdispls[a->rank] : 0;
    w->away = w->own_buf != w->buf || w->own_off != w->off[a->rank];
    return VINE_OK;
}

void vine__vwork_free(vine__vwork *w)
{
    free(w->off);
    w->off = NULL;
}

void vine__v_copy_out(const vine_args *a, vine_sched *s, int sbuf, size_t sbase, int first,
                      int skip)
{
    int p = a->p;
    size_t src = sbase, run_src = 0, run_dst = 0, run_len = 0;
    for (int j = 0; j < p; j++) {
        int i = (int)(((long)first + j) % p);
        size_t c = a->rcounts[i];
        if (c && i != skip) {
            if (run_len && run_src + run_len == src && run_dst + run_len == a->rdispls[i]) {
                run_len += c;
            } else {
                vine__sched_copy(s, sbuf, run_src, VINE_BUF_RECV, run_dst, run_len);
                run_src = src;
                run_dst = a->rdispls[i];
                run_len = c;
            }
        }
        src += c;
    }
    vine__sched_copy(s, sbuf, run_src, VINE_BUF_RECV, run_dst, run_len);
}

void vine__vwork_finish(const vine__vwork *w, const vine_args *a, vine_sched *s)
{
    if (w->buf == VINE_BUF_TMP)
        vine__v_copy_out(a, s, VINE_BUF_TMP, 0, 0, a->inplace ? a->rank : -1);
}
