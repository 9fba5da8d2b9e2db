/* Torus coordinates from a level map (see torus.h). */
#include "torus.h"

#include "../sched/sched.h"

#include <string.h>

static void one_dim(vine_torus *t, int p)
{
    memset(t, 0, sizeof *t);
    t->p = p;
    t->nd = 1;
    t->dims[0] = p;
}

int vine__torus_make(const vine_levels *m, int p, vine_torus *t, char *err, size_t errlen)
{
    one_dim(t, p);
    if (!m)
        return VINE_OK;
    if (!vine__levels_ready(m, p)) {
        vine__errmsg(err, errlen, "torus: the level map is not for %d ranks", p);
        return VINE_ERR_UNSUPPORTED;
    }
    int nd = m->nlevels + 1, dims[VINE_TORUS_MAXD];
    /* Dimension nd-1-l: the level l-1 groups (l = 0: ranks) inside a level l group. */
    for (int l = 0; l <= m->nlevels; l++) {
        int want = -1;
        for (int g = 0; g < vine__levels_ngroups(m, l); g++) {
            int n;
            (void)vine__levels_subgroups(m, l, g, &n);
            if (want >= 0 && n != want) {
                vine__errmsg(err, errlen,
                             "torus: the groups of level %d are not uniform (group 0 holds %d "
                             "units, group %d holds %d)",
                             l, want, g, n);
                return VINE_ERR_UNSUPPORTED;
            }
            want = n;
        }
        dims[nd - 1 - l] = want;
    }
    t->nd = nd;
    memcpy(t->dims, dims, (size_t)nd * sizeof *dims);
    t->m = m;
    return VINE_OK;
}

int vine__torus_applies(const vine_levels *m, int p)
{
    vine_torus t;
    return vine__torus_make(m, p, &t, NULL, 0) == VINE_OK;
}

void vine__torus_coords(const vine_torus *t, int r, int *c)
{
    if (!t->m) {
        c[0] = r;
        return;
    }
    c[t->nd - 1] = vine__levels_local(t->m, 0, r);
    for (int l = 1; l <= t->m->nlevels; l++)
        c[t->nd - 1 - l] = vine__levels_subindex(t->m, l - 1, vine__levels_group(t->m, l - 1, r));
}

int vine__torus_rank(const vine_torus *t, const int *c)
{
    if (!t->m)
        return c[0];
    int g = 0, n;
    for (int l = t->m->nlevels; l >= 1; l--)
        g = vine__levels_subgroups(t->m, l, g, &n)[c[t->nd - 1 - l]];
    return vine__levels_subgroups(t->m, 0, g, &n)[c[t->nd - 1]];
}

int vine__torus_line(const vine_torus *t, int r, int d, int *out)
{
    int c[VINE_TORUS_MAXD];
    vine__torus_coords(t, r, c);
    int own = c[d];
    for (int i = 0; i < t->dims[d]; i++) {
        c[d] = i;
        out[i] = vine__torus_rank(t, c);
    }
    return own;
}

/* The multiport parts: pow2 asks for dimensions of 2^k, min_part for the elements of a part. */
static int multiport_split(const vine_torus *t, const vine_levels *m, size_t count, int pow2,
                           size_t min_part)
{
    int nact = 0, equal = 1, first = 0;
    if (!m || !m->torus)
        return 1;
    for (int d = 0; d < t->nd; d++) {
        int n = t->dims[d];
        if (n == 1)
            continue;
        if (pow2 && (n & (n - 1)))
            return 1; /* a rank would fold */
        if (nact++ == 0)
            first = n;
        else
            equal &= n == first;
    }
    if (nact == 0)
        return 1;
    size_t all = 2 * (size_t)nact;
    int parts = equal || count / all >= VINE_MULTIPORT_2D_MIN ? (int)all : 2;
    return count / (size_t)parts >= min_part ? parts : 1;
}

int vine__torus_multiport_parts(const vine_torus *t, const vine_levels *m, size_t count)
{
    return multiport_split(t, m, count, 1, (size_t)t->p);
}

int vine__torus_multiport_tree_parts(const vine_torus *t, const vine_levels *m, size_t count)
{
    return multiport_split(t, m, count, 0, 1);
}
