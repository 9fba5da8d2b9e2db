/*
 * Unit test of the verifier's segment lists: random reads and writes on a
 * buffer, compared after each step with a plain per-element model.  Also
 * checks that the list stays sorted, covers the buffer exactly and never
 * holds two neighbours that should have merged.
 */
#include "sched/verify_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIZE 300

/* What one element holds, in the model. */
typedef struct elem {
    int rank; /* -1: undefined */
    size_t e;
} elem;

static uint64_t rng_state = 12345;

static unsigned rnd(unsigned n)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (unsigned)(rng_state >> 33) % n;
}

static vine_vdesc desc_of(int rank)
{
    vine_vdesc d = {0, 0, 0, 0, 0, 0};
    if (rank >= 0) {
        d.defined = d.ordered = 1;
        d.n = 1;
        d.lo = d.hi = rank;
        d.hash = vine__vhash(rank);
    }
    return d;
}

/* Compares the buffer with the model and checks its invariants. */
static int check(const vine_vbuf *b, const elem *m)
{
    size_t pos = 0;
    for (size_t i = 0; i < b->n; i++) {
        const vine_vseg *s = vine__vbuf_at(b, i);
        if (s->off != pos || s->len == 0)
            return 0;
        if (i > 0) {
            const vine_vseg *q = vine__vbuf_at(b, i - 1);
            if (vine__vdesc_eq(&q->d, &s->d) && (!s->d.defined || q->e0 + q->len == s->e0))
                return 0; /* should have merged */
        }
        for (size_t k = 0; k < s->len; k++) {
            const elem *x = &m[s->off + k];
            if (!s->d.defined ? x->rank != -1 : (x->rank != s->d.lo || x->e != s->e0 + k))
                return 0;
        }
        pos += s->len;
    }
    return pos == b->size;
}

/* One random step: fill a range with a rank's elements, or copy a range. */
static int step(vine_vbuf *b, elem *m, vine_vvec *v, vine_vvec *tmp)
{
    size_t off = rnd(SIZE), len = 1 + rnd((unsigned)(SIZE - off));
    if (rnd(2)) {
        int rank = (int)rnd(4) - 1;
        size_t e0 = rnd(3) ? off : rnd(50);
        vine_vdesc d = desc_of(rank);
        for (size_t k = 0; k < len; k++)
            m[off + k] = (elem){rank, rank < 0 ? 0 : e0 + k};
        return vine__vbuf_fill(b, off, len, e0, &d, v, tmp);
    }
    size_t to = rnd((unsigned)(SIZE - len + 1));
    elem save[SIZE];
    memcpy(save, m + off, len * sizeof *m);
    memcpy(m + to, save, len * sizeof *m);
    if (vine__vbuf_read(b, off, len, v))
        return VINE_ERR_NO_MEM;
    return vine__vbuf_write(b, to, v, tmp);
}

int main(void)
{
    vine_vbuf b;
    vine_vvec v = {0}, tmp = {0};
    elem m[SIZE];
    int failures = 0;
    for (int round = 0; round < 50 && !failures; round++) {
        if (vine__vbuf_init(&b, SIZE))
            return 1;
        for (size_t k = 0; k < SIZE; k++)
            m[k] = (elem){-1, 0};
        for (int i = 0; i < 2000; i++) {
            if (step(&b, m, &v, &tmp) || !check(&b, m)) {
                printf("FAIL round %d step %d\n", round, i);
                failures++;
                break;
            }
        }
        vine__vbuf_free(&b);
    }
    vine__vvec_free(&v);
    vine__vvec_free(&tmp);
    printf("%s segment lists against the per-element model\n", failures ? "FAIL" : "ok  ");
    return failures != 0;
}
