/*
 * Edge colouring of multigraphs for the BBS frames (MPI-free).
 *
 * Bipartite multigraphs get exactly Delta colours (Konig's edge-colouring
 * theorem): the multigraph is padded to a Delta-regular bipartite one with
 * dummy nodes and dummy edges, then a perfect matching of its support is
 * taken as often as its least multiplicity allows and subtracted, again and
 * again (each removal keeps the graph regular, so Hall's condition keeps a
 * perfect matching).  The matching is repaired after each subtraction by
 * alternating (augmenting) paths from the nodes it lost, so the whole costs
 * O(E * (E + V)) for E distinct edges, whatever the multiplicities: at most
 * E + V classes, each repeated as often as it may be.
 *
 * Other multigraphs: copy by copy with Kempe chains (the classical proof of
 * Vizing's and Shannon's bounds): a copy u-v takes a colour free at both
 * ends, else the alpha/beta chain from v (alpha free at u, beta free at v) is
 * swapped, which frees alpha at v unless the chain ends at u; if no pair of
 * colours works a new colour opens.  Afterwards the smallest classes are
 * emptied into the others by the same moves while that succeeds.  At most
 * floor(3 Delta / 2) colours (Shannon), usually Delta or Delta + 1.  Cost
 * O(copies * (Delta^2 + V)); used for the small non-bipartite graphs only.
 */
#include "bbs.h"
#include "bbs_int.h"

#include <stdlib.h>
#include <string.h>

void vine__mcolouring_free(vine_mcolouring *c)
{
    if (!c)
        return;
    free(c->cstart);
    free(c->cedge);
    free(c->crep);
    memset(c, 0, sizeof *c);
}

/* Growable class list. */
typedef struct classes {
    int n, cap;
    size_t len, lcap;
    int *start; /* n + 1 */
    int *edge;
    int64_t *rep;
} classes;

static int cls_push_edge(classes *k, int e)
{
    if (k->len == k->lcap) {
        size_t nc = k->lcap ? 2 * k->lcap : 1024;
        int *ne = realloc(k->edge, sizeof *ne * nc);
        if (!ne)
            return -1;
        k->edge = ne;
        k->lcap = nc;
    }
    k->edge[k->len++] = e;
    return 0;
}

/* Closes the class begun at start[n] with repetition rep. */
static int cls_close(classes *k, int64_t rep)
{
    if (k->n + 2 > k->cap) {
        int nc = k->cap ? 2 * k->cap : 64;
        int *ns = realloc(k->start, sizeof *ns * (size_t)nc);
        if (!ns)
            return -1;
        k->start = ns;
        int64_t *nr = realloc(k->rep, sizeof *nr * (size_t)nc);
        if (!nr)
            return -1;
        k->rep = nr;
        k->cap = nc;
    }
    k->rep[k->n] = rep;
    k->n++;
    k->start[k->n] = (int)k->len;
    return 0;
}

static void cls_hand_over(classes *k, vine_mcolouring *out)
{
    out->nclass = k->n;
    out->cstart = k->start;
    out->cedge = k->edge;
    out->crep = k->rep;
    out->ncolours = 0;
    for (int i = 0; i < k->n; i++)
        out->ncolours += k->rep[i];
}

/* ---- bipartite: regular padding and repeated perfect matchings ---- */

typedef struct bip {
    int nx;              /* nodes per side after padding (X = 0..nx-1, Y = nx..2nx-1) */
    int ne;              /* edges, real (0..m-1) then dummy */
    int *ex, *ey;        /* ends: X index, Y index (0..nx-1) */
    int64_t *w;          /* remaining multiplicity */
    int *xstart, *xedge; /* incidence of X nodes */
    int *matex;          /* X node -> matched edge or -1 */
    int *matey;          /* Y node -> matched edge or -1 */
    int *prev, *queue, *seen;
    int stamp;
} bip;

static void bip_free(bip *b)
{
    free(b->ex);
    free(b->ey);
    free(b->w);
    free(b->xstart);
    free(b->xedge);
    free(b->matex);
    free(b->matey);
    free(b->prev);
    free(b->queue);
    free(b->seen);
}

/* Augmenting path from the free X node x0 by BFS; 1 on success. */
static int bip_augment(bip *b, int x0)
{
    b->stamp++;
    int qh = 0, qt = 0;
    b->queue[qt++] = x0;
    b->seen[x0] = b->stamp;
    b->prev[x0] = -1;
    while (qh < qt) {
        int x = b->queue[qh++];
        for (int k = b->xstart[x]; k < b->xstart[x + 1]; k++) {
            int e = b->xedge[k];
            if (b->w[e] <= 0)
                continue;
            int y = b->ey[e];
            int f = b->matey[y];
            if (f == e)
                continue;
            if (f < 0) {
                /* flip the path back to x0 */
                int ce = e;
                int cx = x;
                for (;;) {
                    b->matex[cx] = ce;
                    b->matey[b->ey[ce]] = ce;
                    if (cx == x0)
                        break;
                    /* the Y end of cx's old edge now takes the edge that
                     * reached cx */
                    ce = b->prev[cx];
                    cx = b->ex[ce];
                }
                return 1;
            }
            int x2 = b->ex[f];
            if (b->seen[x2] == b->stamp)
                continue;
            b->seen[x2] = b->stamp;
            b->prev[x2] = e; /* x2 is reached through edge e into y = its mate's Y end */
            b->queue[qt++] = x2;
        }
    }
    return 0;
}

static int colour_bipartite(int n, int m, const int *a, const int *bb, const int64_t *mult,
                            const signed char *side, classes *out)
{
    bip b;
    memset(&b, 0, sizeof b);
    int *idx = malloc(sizeof *idx * (size_t)(n ? n : 1)); /* node -> index in its side */
    int64_t *deg = calloc((size_t)(n ? n : 1), sizeof *deg);
    int rc = -1;
    if (!idx || !deg)
        goto done;
    int nx = 0, ny = 0;
    for (int v = 0; v < n; v++)
        idx[v] = side[v] ? ny++ : nx++;
    int64_t delta = 0;
    for (int e = 0; e < m; e++) {
        deg[a[e]] += mult[e];
        deg[bb[e]] += mult[e];
    }
    for (int v = 0; v < n; v++)
        if (deg[v] > delta)
            delta = deg[v];
    if (delta == 0) {
        rc = 0;
        goto done;
    }
    int side_n = nx > ny ? nx : ny;
    b.nx = side_n;
    /* deficits per padded node: X then Y */
    int64_t *defx = calloc((size_t)side_n, sizeof *defx);
    int64_t *defy = calloc((size_t)side_n, sizeof *defy);
    if (!defx || !defy) {
        free(defx);
        free(defy);
        goto done;
    }
    for (int i = 0; i < side_n; i++)
        defx[i] = defy[i] = delta;
    for (int v = 0; v < n; v++) {
        if (side[v])
            defy[idx[v]] -= deg[v];
        else
            defx[idx[v]] -= deg[v];
    }
    int maxe = m + 2 * side_n + 2;
    b.ex = malloc(sizeof *b.ex * (size_t)maxe);
    b.ey = malloc(sizeof *b.ey * (size_t)maxe);
    b.w = malloc(sizeof *b.w * (size_t)maxe);
    if (!b.ex || !b.ey || !b.w) {
        free(defx);
        free(defy);
        goto done;
    }
    for (int e = 0; e < m; e++) {
        int x = side[a[e]] ? bb[e] : a[e];
        int y = side[a[e]] ? a[e] : bb[e];
        b.ex[e] = idx[x];
        b.ey[e] = idx[y];
        b.w[e] = mult[e];
    }
    b.ne = m;
    /* dummy edges pairing the deficits of the two sides (equal totals) */
    for (int i = 0, j = 0; i < side_n && j < side_n;) {
        if (!defx[i]) {
            i++;
            continue;
        }
        if (!defy[j]) {
            j++;
            continue;
        }
        int64_t t = defx[i] < defy[j] ? defx[i] : defy[j];
        b.ex[b.ne] = i;
        b.ey[b.ne] = j;
        b.w[b.ne] = t;
        b.ne++;
        defx[i] -= t;
        defy[j] -= t;
    }
    free(defx);
    free(defy);
    b.xstart = calloc((size_t)side_n + 1, sizeof *b.xstart);
    b.xedge = malloc(sizeof *b.xedge * (size_t)(b.ne ? b.ne : 1));
    b.matex = malloc(sizeof *b.matex * (size_t)side_n);
    b.matey = malloc(sizeof *b.matey * (size_t)side_n);
    b.prev = malloc(sizeof *b.prev * (size_t)side_n);
    b.queue = malloc(sizeof *b.queue * (size_t)side_n);
    b.seen = calloc((size_t)side_n, sizeof *b.seen);
    if (!b.xstart || !b.xedge || !b.matex || !b.matey || !b.prev || !b.queue || !b.seen)
        goto done;
    for (int e = 0; e < b.ne; e++)
        if (b.w[e] > 0)
            b.xstart[b.ex[e] + 1]++;
    for (int i = 0; i < side_n; i++)
        b.xstart[i + 1] += b.xstart[i];
    {
        int *fill = malloc(sizeof *fill * (size_t)side_n);
        if (!fill)
            goto done;
        memcpy(fill, b.xstart, sizeof *fill * (size_t)side_n);
        for (int e = 0; e < b.ne; e++)
            if (b.w[e] > 0)
                b.xedge[fill[b.ex[e]]++] = e;
        free(fill);
    }
    for (int i = 0; i < side_n; i++)
        b.matex[i] = b.matey[i] = -1;
    int64_t left = delta;
    while (left > 0) {
        for (int x = 0; x < side_n; x++)
            if (b.matex[x] < 0 && !bip_augment(&b, x)) {
                rc = -2; /* no perfect matching: the padding is wrong */
                goto done;
            }
        int64_t r = left;
        for (int x = 0; x < side_n; x++)
            if (b.w[b.matex[x]] < r)
                r = b.w[b.matex[x]];
        for (int x = 0; x < side_n; x++) {
            int e = b.matex[x];
            if (e < m && cls_push_edge(out, e))
                goto done;
        }
        if (cls_close(out, r))
            goto done;
        for (int x = 0; x < side_n; x++) {
            int e = b.matex[x];
            b.w[e] -= r;
            if (b.w[e] == 0) {
                b.matex[x] = -1;
                b.matey[b.ey[e]] = -1;
            }
        }
        left -= r;
    }
    rc = 0;
done:
    free(idx);
    free(deg);
    bip_free(&b);
    return rc;
}

/* ---- general multigraphs: Kempe chains on single copies ---- */

typedef struct kem {
    int n, cap; /* colours allocated per node */
    int k;      /* colours in use */
    int *at;    /* at[v * cap + c]: edge id coloured c at v, or -1 */
    const int *a, *b;
    int *path; /* chain scratch: node list */
    int *pedge;
} kem;

static int kem_other(const kem *s, int e, int v)
{
    return s->a[e] == v ? s->b[e] : s->a[e];
}

/*
 * Swaps colours al and be on the maximal chain from v that starts with an
 * al edge.  Returns 0, or 1 without swapping if the chain reaches stop.
 */
static int kem_swap(kem *s, int v, int al, int be, int stop)
{
    int len = 0, u = v, c = al;
    size_t cap = (size_t)s->cap;
    for (;;) {
        int e = s->at[(size_t)u * cap + (size_t)c];
        if (e < 0)
            break;
        int w = kem_other(s, e, u);
        if (w == stop)
            return 1;
        s->pedge[len] = e;
        s->path[len++] = u;
        u = w;
        c = c == al ? be : al;
        if (len > 2 * s->n + 2)
            return 1; /* cannot happen in a proper colouring */
    }
    /* clear then set, so each end sees the new colours */
    for (int i = 0; i < len; i++) {
        int e = s->pedge[i];
        int col = (i & 1) ? be : al;
        s->at[(size_t)s->a[e] * cap + (size_t)col] = -1;
        s->at[(size_t)s->b[e] * cap + (size_t)col] = -1;
    }
    for (int i = 0; i < len; i++) {
        int e = s->pedge[i];
        int col = (i & 1) ? al : be;
        s->at[(size_t)s->a[e] * cap + (size_t)col] = e;
        s->at[(size_t)s->b[e] * cap + (size_t)col] = e;
    }
    return 0;
}

/* Colours one copy of edge e within the s->k colours; 1 if it cannot. */
static int kem_place(kem *s, int e)
{
    int u = s->a[e], v = s->b[e];
    size_t cap = (size_t)s->cap;
    for (int c = 0; c < s->k; c++)
        if (s->at[(size_t)u * cap + (size_t)c] < 0 && s->at[(size_t)v * cap + (size_t)c] < 0) {
            s->at[(size_t)u * cap + (size_t)c] = e;
            s->at[(size_t)v * cap + (size_t)c] = e;
            return 0;
        }
    for (int al = 0; al < s->k; al++) {
        if (s->at[(size_t)u * cap + (size_t)al] >= 0)
            continue;
        for (int be = 0; be < s->k; be++) {
            if (be == al || s->at[(size_t)v * cap + (size_t)be] >= 0)
                continue;
            /* al is taken at v: swap the al/be chain from v */
            if (kem_swap(s, v, al, be, u) == 0) {
                s->at[(size_t)u * cap + (size_t)al] = e;
                s->at[(size_t)v * cap + (size_t)al] = e;
                return 0;
            }
            if (kem_swap(s, u, be, al, v) == 0) {
                s->at[(size_t)u * cap + (size_t)be] = e;
                s->at[(size_t)v * cap + (size_t)be] = e;
                return 0;
            }
        }
    }
    return 1;
}

static int colour_general(int n, int m, const int *a, const int *b, const int64_t *mult,
                          classes *out)
{
    int64_t delta = 0, total = 0;
    int64_t *deg = calloc((size_t)(n ? n : 1), sizeof *deg);
    if (!deg)
        return -1;
    for (int e = 0; e < m; e++) {
        deg[a[e]] += mult[e];
        deg[b[e]] += mult[e];
        total += mult[e];
    }
    for (int v = 0; v < n; v++)
        if (deg[v] > delta)
            delta = deg[v];
    free(deg);
    if (delta == 0)
        return 0;
    if (delta > (1 << 16) || total > ((int64_t)1 << 24))
        return -3; /* too large for copy-by-copy colouring */
    kem s;
    memset(&s, 0, sizeof s);
    s.n = n;
    s.cap = (int)(3 * delta / 2 + 2);
    s.k = (int)delta;
    s.a = a;
    s.b = b;
    s.at = malloc(sizeof *s.at * (size_t)n * (size_t)s.cap);
    s.path = malloc(sizeof *s.path * (size_t)(2 * n + 4));
    s.pedge = malloc(sizeof *s.pedge * (size_t)(2 * n + 4));
    int rc = -1;
    if (!s.at || !s.path || !s.pedge)
        goto done;
    for (size_t i = 0; i < (size_t)n * (size_t)s.cap; i++)
        s.at[i] = -1;
    /* copies in round-robin order over the edges, so that every edge's
     * copies meet the colours evenly */
    {
        int64_t *left = malloc(sizeof *left * (size_t)(m ? m : 1));
        if (!left)
            goto done;
        memcpy(left, mult, sizeof *left * (size_t)m);
        int64_t placed = 0;
        while (placed < total) {
            for (int e = 0; e < m; e++) {
                if (!left[e])
                    continue;
                while (kem_place(&s, e)) {
                    if (s.k == s.cap) {
                        free(left);
                        rc = -2;
                        goto done;
                    }
                    s.k++;
                }
                left[e]--;
                placed++;
            }
        }
        free(left);
    }
    /* empty the smallest class into the others while that works */
    while (s.k > delta) {
        int small = -1;
        int64_t smallcnt = 0;
        for (int c = 0; c < s.k; c++) {
            int64_t cnt = 0;
            for (int v = 0; v < n; v++)
                if (s.at[(size_t)v * (size_t)s.cap + (size_t)c] >= 0)
                    cnt++;
            if (small < 0 || cnt < smallcnt)
                small = c, smallcnt = cnt;
        }
        /* move colour 'small' to the last slot, then try to re-place its
         * copies within k - 1 colours */
        int last = s.k - 1;
        int *save = malloc(sizeof *save * (size_t)n * (size_t)s.cap);
        if (!save)
            goto done;
        memcpy(save, s.at, sizeof *save * (size_t)n * (size_t)s.cap);
        int *copies = malloc(sizeof *copies * (size_t)(n + 1));
        if (!copies) {
            free(save);
            goto done;
        }
        int nc = 0;
        for (int v = 0; v < n; v++) {
            size_t base = (size_t)v * (size_t)s.cap;
            int t = s.at[base + (size_t)small];
            s.at[base + (size_t)small] = s.at[base + (size_t)last];
            s.at[base + (size_t)last] = t;
            if (t >= 0 && s.a[t] == v)
                copies[nc++] = t;
        }
        for (int i = 0; i < nc; i++) {
            int e = copies[i];
            s.at[(size_t)a[e] * (size_t)s.cap + (size_t)last] = -1;
            s.at[(size_t)b[e] * (size_t)s.cap + (size_t)last] = -1;
        }
        s.k--;
        int ok = 1;
        for (int i = 0; i < nc && ok; i++)
            ok = kem_place(&s, copies[i]) == 0;
        free(copies);
        if (!ok) {
            memcpy(s.at, save, sizeof *save * (size_t)n * (size_t)s.cap);
            s.k++;
            free(save);
            break;
        }
        free(save);
    }
    for (int c = 0; c < s.k; c++) {
        for (int v = 0; v < n; v++) {
            int e = s.at[(size_t)v * (size_t)s.cap + (size_t)c];
            if (e >= 0 && a[e] == v && cls_push_edge(out, e))
                goto done;
        }
        if (cls_close(out, 1))
            goto done;
    }
    rc = 0;
done:
    free(s.at);
    free(s.path);
    free(s.pedge);
    return rc;
}

int vine__mcolour(int n, int m, const int *a, const int *b, const int64_t *mult,
                  const signed char *side, vine_mcolouring *out)
{
    memset(out, 0, sizeof *out);
    classes k;
    memset(&k, 0, sizeof k);
    k.start = malloc(sizeof *k.start * 64);
    k.rep = malloc(sizeof *k.rep * 64);
    if (!k.start || !k.rep) {
        free(k.start);
        free(k.rep);
        return VINE_ERR_NO_MEM;
    }
    k.cap = 64;
    k.start[0] = 0;
    for (int e = 0; e < m; e++)
        if (mult[e] < 0 || a[e] == b[e] || a[e] < 0 || a[e] >= n || b[e] < 0 || b[e] >= n) {
            free(k.start);
            free(k.rep);
            return VINE_ERR_INTERNAL;
        }
    int rc =
        side ? colour_bipartite(n, m, a, b, mult, side, &k) : colour_general(n, m, a, b, mult, &k);
    if (rc) {
        free(k.start);
        free(k.rep);
        free(k.edge);
        return rc == -1 ? VINE_ERR_NO_MEM : rc == -3 ? VINE_ERR_UNSUPPORTED : VINE_ERR_INTERNAL;
    }
    cls_hand_over(&k, out);
    return VINE_OK;
}
