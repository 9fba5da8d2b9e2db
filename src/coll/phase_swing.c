/* Swing on a torus: peers, fold and block sets (see phase_swing.h). */
#include "phase_swing.h"

#include "bine.h"
#include "ranks.h"

#include <stdlib.h>
#include <string.h>

/* The participant coordinate that coordinate c of dimension d folds into. */
static int fold_coord(const vine_swing *w, int d, int c)
{
    return c < 2 * w->e[d] ? c / 2 : c - w->e[d];
}

/* The coordinate of dimension d that keeps participant coordinate f. */
static int unfold_coord(const vine_swing *w, int d, int f)
{
    return f < w->e[d] ? 2 * f : f + w->e[d];
}

/* The steps: round j takes step j of every dimension that has one, in dimension order. */
static void make_steps(vine_swing *w)
{
    int lg[VINE_TORUS_MAXD], most = 0;
    for (int d = 0; d < w->nd; d++) {
        lg[d] = vine__ceil_log2(w->q[d]);
        most = lg[d] > most ? lg[d] : most;
    }
    w->n = 0;
    for (int j = 0; j < most; j++)
        for (int d = 0; d < w->nd; d++)
            if (j < lg[d]) {
                w->dim[w->n] = d;
                w->sub[w->n++] = j;
            }
}

/*
 * The position of the participant with coordinates f: bit n-1-s is bit
 * lg q[d] - 1 - sub[s] of nu(f[d]) for d = dim[s], so the first step's bit is
 * the highest (phase_swing.h).
 */
static int position(const vine_swing *w, const int *f)
{
    int pos = 0;
    for (int s = 0; s < w->n; s++) {
        int d = w->dim[s], lg = vine__ceil_log2(w->q[d]);
        int bit = (int)(vine__bine_nu(f[d], w->q[d]) >> (lg - 1 - w->sub[s])) & 1;
        pos |= bit << (w->n - 1 - s);
    }
    return pos;
}

/* Participant number of participant coordinates f: row-major, the last dimension fastest. */
static int participant(const vine_swing *w, const int *f)
{
    int m = 0;
    for (int d = 0; d < w->nd; d++)
        m = m * w->q[d] + f[d];
    return m;
}

static void participant_coords(const vine_swing *w, int m, int *f)
{
    for (int d = w->nd - 1; d >= 0; d--) {
        f[d] = m % w->q[d];
        m /= w->q[d];
    }
}

/* Fills the tables: coordinates and participant of every rank, position and rank of each. */
static void fill(vine_swing *w)
{
    int f[VINE_TORUS_MAXD];
    for (int r = 0; r < w->p; r++) {
        int *c = w->coord + (size_t)r * w->nd;
        vine__torus_coords(&w->t, r, c);
        for (int d = 0; d < w->nd; d++)
            f[d] = fold_coord(w, d, c[d]);
        w->part[r] = participant(w, f);
    }
    for (int m = 0; m < w->np; m++) {
        int c[VINE_TORUS_MAXD];
        participant_coords(w, m, f);
        w->pos[m] = position(w, f);
        for (int d = 0; d < w->nd; d++)
            c[d] = unfold_coord(w, d, f[d]);
        w->real[m] = vine__torus_rank(&w->t, c);
    }
}

int vine__swing_shape(vine_swing *w, const vine_levels *m, int p)
{
    memset(w, 0, sizeof *w);
    int rc = vine__torus_make(vine__levels_ready(m, p) ? m : NULL, p, &w->t, NULL, 0);
    if (rc != VINE_OK)
        return rc;
    w->p = p;
    w->nd = w->t.nd;
    w->np = 1;
    for (int d = 0; d < w->nd; d++) {
        w->q[d] = vine__floor_pow2(w->t.dims[d]);
        w->e[d] = w->t.dims[d] - w->q[d];
        w->np *= w->q[d];
    }
    make_steps(w);
    return VINE_OK;
}

int vine__swing_init(vine_swing *w, const vine_args *a)
{
    int rc = vine__swing_shape(w, a->levels, a->p);
    if (rc != VINE_OK)
        return rc;
    size_t p = (size_t)a->p;
    w->coord = malloc(p * (size_t)w->nd * sizeof *w->coord);
    w->part = malloc(p * sizeof *w->part);
    w->pos = malloc((size_t)w->np * sizeof *w->pos);
    w->real = malloc((size_t)w->np * sizeof *w->real);
    if (!w->coord || !w->part || !w->pos || !w->real) {
        vine__swing_free(w);
        return VINE_ERR_NO_MEM;
    }
    fill(w);
    return VINE_OK;
}

int vine__swing_unfold(const vine_swing *w, int d, int f)
{
    return unfold_coord(w, d, f);
}

void vine__swing_free(vine_swing *w)
{
    free(w->coord);
    free(w->part);
    free(w->pos);
    free(w->real);
    w->coord = w->part = w->pos = w->real = NULL;
}

int vine__swing_active(const vine_swing *w, int r, int d)
{
    const int *c = w->coord + (size_t)r * w->nd;
    for (int k = 0; k < d; k++)
        if (c[k] < 2 * w->e[k] && c[k] % 2)
            return 0;
    return 1;
}

int vine__swing_holder(const vine_swing *w, int j)
{
    for (int m = 0; m < w->np; m++)
        if (w->pos[m] == j)
            return m;
    return -1;
}

int vine__swing_me(const vine_swing *w, int r)
{
    return vine__swing_active(w, r, w->nd) ? w->part[r] : -1;
}

int vine__swing_peer(const vine_swing *w, int m, int s)
{
    int f[VINE_TORUS_MAXD], d = w->dim[s];
    participant_coords(w, m, f);
    f[d] = vine__bine_pi(f[d], w->sub[s], w->q[d]);
    return participant(w, f);
}

int vine__swing_fold_partner(const vine_swing *w, int r, int d, int *sits)
{
    const int *c = w->coord + (size_t)r * w->nd;
    *sits = 0;
    if (c[d] >= 2 * w->e[d] || !vine__swing_active(w, r, d))
        return -1;
    int o[VINE_TORUS_MAXD];
    memcpy(o, c, (size_t)w->nd * sizeof *o);
    *sits = c[d] % 2;
    o[d] = c[d] ^ 1;
    return vine__torus_rank(&w->t, o);
}

int vine__swing_stands_for(const vine_swing *w, int r, int d, int x)
{
    const int *c = w->coord + (size_t)r * w->nd, *cx = w->coord + (size_t)x * w->nd;
    for (int k = 0; k < w->nd; k++)
        if (k < d ? fold_coord(w, k, cx[k]) != fold_coord(w, k, c[k]) : cx[k] != c[k])
            return 0;
    return 1;
}

void vine__swing_mark_stands(const vine_swing *w, int r, int d, int invert, unsigned char *mask)
{
    for (int x = 0; x < w->p; x++)
        mask[x] = (unsigned char)(vine__swing_stands_for(w, r, d, x) != invert);
}

void vine__swing_reduce_scatter(const vine_swing *w, vine_bfly *b, const size_t *off, int me)
{
    for (int s = 0; s < w->n; s++) {
        int wide = w->np >> (s + 1), peer = vine__swing_peer(w, me, s), real = w->real[peer];
        int give = w->pos[peer] & ~(wide - 1), keep = w->pos[me] & ~(wide - 1);
        vine__sched_send(b->s, real, b->cur_buf, b->cur_off + off[give],
                         off[give + wide] - off[give]);
        vine__bfly_recv_reduce(b, real, off[keep], off[keep + wide] - off[keep]);
        vine__sched_fence(b->s);
        vine__bfly_settle(b);
    }
}

void vine__swing_allgather(const vine_swing *w, vine_bfly *b, const size_t *off, int me)
{
    for (int s = w->n - 1; s >= 0; s--) {
        int wide = w->np >> (s + 1), peer = vine__swing_peer(w, me, s), real = w->real[peer];
        int have = w->pos[me] & ~(wide - 1), get = w->pos[peer] & ~(wide - 1);
        vine__sched_send(b->s, real, b->w_buf, b->w_off + off[have], off[have + wide] - off[have]);
        vine__sched_recv(b->s, real, b->w_buf, b->w_off + off[get], off[get + wide] - off[get]);
        vine__sched_fence(b->s);
    }
}

int vine__swing_lay_init(vine_swing_lay *l, const vine_swing *w, const size_t *counts, size_t c)
{
    size_t p = (size_t)w->p, np = (size_t)w->np;
    l->at = malloc(p * sizeof *l->at);
    l->len = malloc(p * sizeof *l->len);
    l->ord = malloc(p * sizeof *l->ord);
    l->off = calloc(np + 1, sizeof *l->off);
    int *first = calloc(np + 1, sizeof *first);
    size_t *next = malloc(np * sizeof *next);
    int rc = l->at && l->len && l->ord && l->off && first && next ? VINE_OK : VINE_ERR_NO_MEM;
    if (rc == VINE_OK) {
        /* Sizes and rank counts of the positions, then their starts. */
        for (int x = 0; x < w->p; x++) {
            int j = w->pos[w->part[x]];
            l->len[x] = counts ? counts[x] : c;
            l->off[j + 1] += l->len[x];
            first[j + 1]++;
        }
        for (size_t j = 0; j < np; j++) {
            l->off[j + 1] += l->off[j];
            first[j + 1] += first[j];
            next[j] = l->off[j];
        }
        /* The ranks of a position in rank order. */
        for (int x = 0; x < w->p; x++) {
            int j = w->pos[w->part[x]];
            l->ord[first[j]++] = x;
            l->at[x] = next[j];
            next[j] += l->len[x];
        }
    }
    free(first);
    free(next);
    if (rc != VINE_OK)
        vine__swing_lay_free(l);
    return rc;
}

void vine__swing_lay_free(vine_swing_lay *l)
{
    free(l->at);
    free(l->len);
    free(l->ord);
    free(l->off);
    l->at = l->len = l->off = NULL;
    l->ord = NULL;
}

void vine__swing_lay_msgs(vine_sched *s, const vine_swing_lay *l, int p, const unsigned char *mask,
                          int recv, int peer, int buf, size_t base)
{
    for (int k = 0; k < p;) {
        if (!mask[l->ord[k]]) {
            k++;
            continue;
        }
        size_t from = l->at[l->ord[k]], len = 0;
        for (; k < p && mask[l->ord[k]] && l->at[l->ord[k]] == from + len; k++)
            len += l->len[l->ord[k]];
        if (recv)
            vine__sched_recv(s, peer, buf, base + from, len);
        else
            vine__sched_send(s, peer, buf, base + from, len);
    }
}

void vine__swing_fold_out(const vine_swing *w, const vine_swing_lay *l, vine_sched *s, int rank,
                          int invert, unsigned char *mask)
{
    for (int d = w->nd - 1; d >= 0; d--) {
        int sits, partner = vine__swing_fold_partner(w, rank, d, &sits);
        if (partner < 0)
            continue;
        vine__swing_mark_stands(w, sits ? rank : partner, d, invert, mask);
        vine__swing_lay_msgs(s, l, w->p, mask, sits, partner, VINE_BUF_TMP, 0);
        vine__sched_fence(s);
    }
}
