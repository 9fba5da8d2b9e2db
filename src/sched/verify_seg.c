/*
 * Segment lists of the symbolic verifier: what each element of a buffer
 * holds, stored as runs of elements that share one contribution descriptor
 * and hold consecutive element indices.  A buffer keeps its runs in a gap
 * buffer because collectives tend to write next to their previous write
 * (rings, pipelines), which then costs a constant number of moves.
 */
#include "verify_int.h"

#include <stdlib.h>
#include <string.h>

int vine__vdesc_eq(const vine_vdesc *x, const vine_vdesc *y)
{
    return x->defined == y->defined && x->ordered == y->ordered && x->n == y->n && x->lo == y->lo &&
           x->hi == y->hi && x->hash == y->hash;
}

static int continues(const vine_vseg *x, const vine_vseg *y)
{
    return x->off + x->len == y->off && vine__vdesc_eq(&x->d, &y->d) &&
           (!x->d.defined || x->e0 + x->len == y->e0);
}

static int vvec_reserve(vine_vvec *v, size_t need)
{
    return vine__grow((void **)&v->a, &v->cap, need, sizeof *v->a);
}

int vine__vvec_push(vine_vvec *v, const vine_vseg *s)
{
    if (s->len == 0)
        return VINE_OK;
    if (v->n && continues(&v->a[v->n - 1], s)) {
        v->a[v->n - 1].len += s->len;
        return VINE_OK;
    }
    if (vvec_reserve(v, v->n + 1))
        return VINE_ERR_NO_MEM;
    v->a[v->n++] = *s;
    return VINE_OK;
}

void vine__vvec_free(vine_vvec *v)
{
    free(v->a);
    memset(v, 0, sizeof *v);
}

int vine__vbuf_init(vine_vbuf *b, size_t size)
{
    memset(b, 0, sizeof *b);
    b->size = size;
    if (size == 0)
        return VINE_OK;
    b->a = calloc(4, sizeof *b->a);
    if (!b->a)
        return VINE_ERR_NO_MEM;
    b->cap = 4;
    b->n = 1;
    b->gap = 1;
    b->a[0].len = size;
    return VINE_OK;
}

void vine__vbuf_free(vine_vbuf *b)
{
    free(b->a);
    memset(b, 0, sizeof *b);
}

/*
 * Gallops from the previous answer, then bisects: consecutive operations on a
 * buffer mostly touch nearby segments, so this costs O(log distance).
 */
size_t vine__vbuf_locate(vine_vbuf *b, size_t off)
{
    size_t lo, hi, step = 1; /* the answer lies in [lo, hi) */
    size_t h = b->hint < b->n ? b->hint : 0;
    if (vine__vbuf_at(b, h)->off <= off) {
        for (lo = h; lo + step < b->n && vine__vbuf_at(b, lo + step)->off <= off; step *= 2)
            lo += step;
        hi = lo + step < b->n ? lo + step : b->n;
    } else {
        for (hi = h; hi >= step && vine__vbuf_at(b, hi - step)->off > off; step *= 2)
            hi -= step;
        lo = hi >= step ? hi - step : 0;
    }
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (vine__vbuf_at(b, mid)->off <= off)
            lo = mid;
        else
            hi = mid;
    }
    b->hint = lo;
    return lo;
}

/* The part [from, to) of s, with its element index moved along. */
static vine_vseg clip(const vine_vseg *s, size_t from, size_t to)
{
    vine_vseg c = *s;
    c.off = from;
    c.len = to - from;
    if (c.d.defined)
        c.e0 = s->e0 + (from - s->off);
    return c;
}

int vine__vbuf_read(vine_vbuf *b, size_t off, size_t len, vine_vvec *v)
{
    v->n = 0;
    if (len == 0)
        return VINE_OK;
    size_t end = off + len;
    for (size_t i = vine__vbuf_locate(b, off); i < b->n; i++) {
        const vine_vseg *s = vine__vbuf_at(b, i);
        size_t s_end = s->off + s->len;
        vine_vseg c = clip(s, s->off > off ? s->off : off, s_end < end ? s_end : end);
        c.off -= off;
        if (vine__vvec_push(v, &c))
            return VINE_ERR_NO_MEM;
        if (s_end >= end)
            break;
    }
    return VINE_OK;
}

/* Moves the gap so that it starts before logical segment i. */
static void move_gap(vine_vbuf *b, size_t i)
{
    size_t gl = b->cap - b->n;
    if (i < b->gap)
        memmove(&b->a[i + gl], &b->a[i], (b->gap - i) * sizeof *b->a);
    else if (i > b->gap)
        memmove(&b->a[b->gap], &b->a[b->gap + gl], (i - b->gap) * sizeof *b->a);
    b->gap = i;
}

/* Makes the gap (at its current place) hold at least room segments. */
static int gap_reserve(vine_vbuf *b, size_t room)
{
    if (b->cap - b->n >= room)
        return VINE_OK;
    size_t ncap = 2 * b->cap + room + 16;
    size_t tail = b->n - b->gap;
    vine_vseg *a = realloc(b->a, ncap * sizeof *a);
    if (!a)
        return VINE_ERR_NO_MEM;
    memmove(&a[ncap - tail], &a[b->cap - tail], tail * sizeof *a);
    b->a = a;
    b->cap = ncap;
    return VINE_OK;
}

/* Replaces logical segments [i, j) by the m segments of v. */
static int splice(vine_vbuf *b, size_t i, size_t j, const vine_vvec *v)
{
    move_gap(b, j);
    b->gap = i;
    b->n -= j - i;
    if (gap_reserve(b, v->n))
        return VINE_ERR_NO_MEM;
    memcpy(&b->a[b->gap], v->a, v->n * sizeof *v->a);
    b->gap += v->n;
    b->n += v->n;
    return VINE_OK;
}

int vine__vbuf_write(vine_vbuf *b, size_t off, const vine_vvec *v, vine_vvec *tmp)
{
    if (v->n == 0)
        return VINE_OK;
    size_t end = off + v->a[v->n - 1].off + v->a[v->n - 1].len;
    /* Take one neighbour on each side along so that runs merge across the edges. */
    size_t i = vine__vbuf_locate(b, off), j = vine__vbuf_locate(b, end - 1) + 1;
    i -= i > 0;
    j += j < b->n;
    int rc = VINE_OK;
    tmp->n = 0;
    for (size_t k = i; k < j; k++) {
        const vine_vseg *s = vine__vbuf_at(b, k);
        size_t s_end = s->off + s->len;
        if (s->off < off) {
            vine_vseg c = clip(s, s->off, s_end < off ? s_end : off);
            rc |= vine__vvec_push(tmp, &c);
        }
    }
    for (size_t k = 0; k < v->n; k++) {
        vine_vseg c = v->a[k];
        c.off += off;
        rc |= vine__vvec_push(tmp, &c);
    }
    for (size_t k = i; k < j; k++) {
        const vine_vseg *s = vine__vbuf_at(b, k);
        size_t s_end = s->off + s->len;
        if (s_end > end) {
            vine_vseg c = clip(s, s->off > end ? s->off : end, s_end);
            rc |= vine__vvec_push(tmp, &c);
        }
    }
    return rc ? VINE_ERR_NO_MEM : splice(b, i, j, tmp);
}

int vine__vbuf_fill(vine_vbuf *b, size_t off, size_t len, size_t e0, const vine_vdesc *d,
                    vine_vvec *v, vine_vvec *tmp)
{
    v->n = 0;
    vine_vseg s = {0, len, d->defined ? e0 : 0, *d};
    if (vine__vvec_push(v, &s))
        return VINE_ERR_NO_MEM;
    return vine__vbuf_write(b, off, v, tmp);
}
