/*
 * Bine alltoall: ceil(log2 p) steps of the distance-doubling Bine butterfly
 * (partner q = pi(r, s)), Bruck-like: a rank sends at step s every block it
 * holds whose destination's tree next takes it to q, packed into one
 * message, keeps the rest and appends what arrives; blocks for itself go to
 * their place in RECV as they arrive (the final permutation, done on the
 * fly).  The route of a block x -> b is the path from x up block b's tree of
 * phase_bine_block.h, the tree that the reduce-scatter bine_block reduces
 * along, so for a power of two p a rank sends at step s exactly the blocks b
 * with nu(b) in [nu(q) & ~(w-1), +w), w = p >> (s+1), p/2 blocks of count:
 * the rule of BINE.md "Alltoall".  The same trees route any even p (a step
 * then moves about p/2 blocks, not exactly); odd p folds its last rank into
 * the one before, which sends and receives for both (its blocks count
 * double), and hands it its blocks at the end.  Source: De Sensi et al.,
 * Bine trees, section 4.4 (papers/bine-trees.txt), ../shared/BINE.md.
 *
 * Layout.  A message holds, destination by destination, the blocks the
 * sender holds for that destination: its own first, then those of each
 * child in the destination's tree (the ranks that sent them to it), in step
 * order, so what a rank received from one child for one destination stays
 * one contiguous range.  Destinations come in the order in which the
 * receiver sends them on, the last first and its own at the end.  Receiving
 * ranks keep each step's message where it landed (a region of scratch whose
 * parts are reused as they move on: the order puts the part that moves on
 * first at the end, where the next region can overlap it) and pack the next
 * message from SEND and those regions.  So the only copies are one per
 * block sent (n/2 per step, as Bruck's packing) and one per block into RECV,
 * with no working copies of blocks that wait; a step whose message is one
 * range of SEND is sent from there, and one that arrives as one range of
 * RECV is received there.
 *
 * No restrictions.  Cost for a power of two p, n = p * count:
 * lg p alpha + (n/2) lg p beta, plus the copies above, in lg p + 1 rounds
 * (the first only packs), as Bruck's alltoall (vine dump, p = 8, 16, 64,
 * 1024: the same rounds, messages and bytes sent per rank as bruck, and
 * fewer copies: 6144 elements in 2804 copies against 7937 in 3315 at
 * p = 1024, count 1).  Other even p: the same step count, one message per
 * step, steps of about n/2 (within a few blocks of p/2 for p up to 1000;
 * 4940 elements sent in all at p = 1000, count 1, bruck 4932).  Odd p:
 * 2 more rounds at the last two ranks, and twice the volume at the second
 * last.  Scratch: the largest message plus the regions, about
 * (lg p + 1)/4 n for a power of two p (1.3 n at p = 16, 2.75 n at 1024,
 * 3.25 n at 4096, against about 2 n for bruck), plus 2 n at the second
 * last rank of odd p.
 */
#include "../bine.h"
#include "../coll.h"
#include "../phase_bine_block.h"

#include <stdlib.h>

/* A part of a region of scratch holding one step's message, until it moves on. */
typedef struct region {
    size_t off, len;
    int death; /* the last round that reads it */
} region;

typedef struct a2a {
    const vine_bbk *k;
    vine_sched *s;
    int p, m, r, odd; /* odd: participant m - 1 stands for ranks m - 1 and m = p - 1 */
    size_t c;
    /* TMP: the outgoing pack, rank p-1's blocks, its results, the regions */
    size_t pack, fold, expand, base;
    size_t *seg;  /* seg[s * m + j]: where block j's part of step s's message landed (TMP) */
    int *ord;     /* m entries: the blocks of one message in order */
    region *live; /* parts of regions still read, at most n per region */
    int nlive;
    size_t top; /* the end of the regions so far */
} a2a;

/* A run of copies, merged while source and destination continue each other. */
typedef struct copies {
    vine_sched *s; /* NULL: count only */
    int n, sbuf, dbuf;
    size_t soff, doff, len;
} copies;

static void cp_flush(copies *q)
{
    if (q->len && q->s)
        vine__sched_copy(q->s, q->sbuf, q->soff, q->dbuf, q->doff, q->len);
    q->len = 0;
}

static void cp_add(copies *q, int sbuf, size_t soff, int dbuf, size_t doff, size_t len)
{
    if (!len)
        return;
    if (q->len && sbuf == q->sbuf && dbuf == q->dbuf && soff == q->soff + q->len &&
        doff == q->doff + q->len) {
        q->len += len;
        return;
    }
    cp_flush(q);
    q->n++;
    q->sbuf = sbuf;
    q->dbuf = dbuf;
    q->soff = soff;
    q->doff = doff;
    q->len = len;
}

/* The number of ranks participant i stands for. */
static int cnt(const a2a *t, int i)
{
    return t->odd && i == t->m - 1 ? 2 : 1;
}

/* The number of source ranks in rank y's subtree of block j's tree. */
static size_t srcw(const a2a *t, int j, int y)
{
    const vine_bbk *k = t->k;
    int z = vine__bbk_node(k, j, y);
    size_t w = (size_t)k->size[z];
    if (t->odd) {
        int zm = k->at[vine__bbk_node(k, j, t->m - 1)];
        if (zm >= k->at[z] && zm < k->at[z] + k->size[z])
            w++;
    }
    return w;
}

/* The length of block j's part of the message rank y sends up j's tree. */
static size_t seglen(const a2a *t, int j, int y)
{
    return (size_t)cnt(t, j) * srcw(t, j, y) * t->c;
}

/* Where this rank's own block x -> b lies (x one of the ranks it stands for). */
static void own_loc(const a2a *t, int x, int b, int *buf, size_t *off)
{
    *buf = x == t->r ? VINE_BUF_SEND : VINE_BUF_TMP;
    *off = (x == t->r ? 0 : t->fold) + (size_t)b * t->c;
}

/* Where the block x -> b ends (b one of the ranks this rank stands for). */
static void final_loc(const a2a *t, int x, int b, int *buf, size_t *off)
{
    *buf = b == t->r ? VINE_BUF_RECV : VINE_BUF_TMP;
    *off = (b == t->r ? 0 : t->expand) + (size_t)x * t->c;
}

/* Copies the blocks x -> b, x of participant i and b of this rank, from src to RECV. */
static size_t deliver(const a2a *t, copies *q, int i, int sbuf, size_t soff)
{
    size_t o = 0;
    for (int x = i; x < i + cnt(t, i); x++) {
        for (int b = t->r; b < t->r + cnt(t, t->r); b++) {
            int dbuf;
            size_t doff;
            final_loc(t, x, b, &dbuf, &doff);
            cp_add(q, sbuf, soff + o, dbuf, doff, t->c);
            o += t->c;
        }
    }
    return o;
}

/* The own blocks x -> b of participant j, appended at dst. */
static size_t pack_own(const a2a *t, copies *q, int j, int dbuf, size_t doff)
{
    size_t o = 0;
    for (int x = t->r; x < t->r + cnt(t, t->r); x++) {
        for (int b = j; b < j + cnt(t, j); b++) {
            int sbuf;
            size_t soff;
            own_loc(t, x, b, &sbuf, &soff);
            cp_add(q, sbuf, soff, dbuf, doff + o, t->c);
            o += t->c;
        }
    }
    return o;
}

/*
 * The blocks j that `from` sends to its partner `to` at step st (t_j(from) =
 * st), in message order: by the step at which `to` sends them on, the last
 * first and its own block at the end, then by number (a counting sort).  So
 * the part of the receiver's region that moves on first lies at its end,
 * where the next region can reuse it: with the reverse order the scratch of
 * a power of two p grows about twice as much.  Returns their number.
 */
static int msg_blocks(const a2a *t, int from, int to, int st, int *ord)
{
    const vine_bbk *k = t->k;
    int start[33] = {0}, n = 0;
    /* Bucket n - 1 - u holds the blocks that `to` sends on at step u (its own: u = st). */
    for (int j = 0; j < t->m; j++) {
        if (vine__bbk_up(k, j, from) == st) {
            int u = j == to ? st : vine__bbk_up(k, j, to);
            start[k->n - u]++;
            n++;
        }
    }
    for (int i = 0; i < k->n; i++)
        start[i + 1] += start[i];
    for (int j = 0; j < t->m; j++) {
        if (vine__bbk_up(k, j, from) == st) {
            int u = j == to ? st : vine__bbk_up(k, j, to);
            ord[start[k->n - 1 - u]++] = j;
        }
    }
    return n;
}

/* The message of step u: for each block, in message order, the own part, then each child's. */
static void pack(const a2a *t, copies *q, int u)
{
    const vine_bbk *k = t->k;
    size_t pos = t->pack;
    int nb = msg_blocks(t, t->r, vine__bine_pi(t->r, u, t->m), u, t->ord);
    for (int i = 0; i < nb; i++) {
        int j = t->ord[i];
        pos += pack_own(t, q, j, VINE_BUF_TMP, pos);
        for (int st = 0; st < u; st++) {
            int y = vine__bine_pi(t->r, st, t->m);
            if (vine__bbk_up(k, j, y) == st) {
                size_t len = seglen(t, j, y);
                cp_add(q, VINE_BUF_TMP, t->seg[(size_t)st * t->m + j], VINE_BUF_TMP, pos, len);
                pos += len;
            }
        }
    }
    cp_flush(q);
}

/*
 * Emits the pack of step u; or, when it is one range of SEND, emits nothing,
 * sets *soff to that range's start and returns 1 (it is sent from there).
 */
static int emit_pack(const a2a *t, int u, size_t *soff)
{
    copies dry = {NULL, 0, 0, 0, 0, 0, 0};
    pack(t, &dry, u);
    if (dry.n == 1 && dry.sbuf == VINE_BUF_SEND) {
        *soff = dry.soff;
        return 1;
    }
    copies q = {t->s, 0, 0, 0, 0, 0, 0};
    pack(t, &q, u);
    return 0;
}

/* The finals of block r in a message from y: the pre-order of y's subtree of r's tree. */
static void finals(const a2a *t, copies *q, int y, int sbuf, size_t soff)
{
    const vine_bbk *k = t->k;
    int z = vine__bbk_node(k, t->r, y);
    for (int i = k->at[z]; i < k->at[z] + k->size[z]; i++)
        soff += deliver(t, q, vine__bbk_rank(k, t->r, k->pre[i]), sbuf, soff);
    cp_flush(q);
}

/* Finds room for a region of len elements to be written in round st + 1 (first fit). */
static size_t place(a2a *t, int st, size_t len)
{
    int n = 0;
    for (int i = 0; i < t->nlive; i++)
        if (t->live[i].death > st) /* the parts read up to round st at the latest are free */
            t->live[n++] = t->live[i];
    t->nlive = n;
    size_t at = t->base;
    for (int moved = 1; moved;) {
        moved = 0;
        for (int i = 0; i < n; i++) {
            if (at < t->live[i].off + t->live[i].len && t->live[i].off < at + len) {
                at = t->live[i].off + t->live[i].len;
                moved = 1;
            }
        }
    }
    if (at + len > t->top)
        t->top = at + len;
    return at;
}

/* Marks TMP[off, off + len) as read until round death. */
static void keep(a2a *t, size_t off, size_t len, int death)
{
    if (len)
        t->live[t->nlive++] = (region){off, len, death};
}

/*
 * The last round that reads block j's part of step st's message: the finals
 * are copied out in the round that receives them (st + 1), the others when
 * the pack of the step that sends them on is made (round t_j(r)).
 */
static int read_round(const a2a *t, int st, int j)
{
    return j == t->r ? st + 1 : vine__bbk_up(t->k, j, t->r);
}

/* Step st: exchange with q, deliver the finals, record where the rest landed. */
static void receive(a2a *t, int st, int q)
{
    size_t len = 0;
    int nb = msg_blocks(t, q, t->r, st, t->ord), onlymine = 1;
    for (int i = 0; i < nb; i++) {
        len += seglen(t, t->ord[i], q);
        onlymine &= t->ord[i] == t->r;
    }
    if (onlymine) {
        copies dry = {NULL, 0, 0, 0, 0, 0, 0};
        finals(t, &dry, q, VINE_BUF_TMP, 0);
        if (dry.n == 1 && dry.soff == 0) {
            vine__sched_recv(t->s, q, dry.dbuf, dry.doff, len);
            return;
        }
    }
    size_t at = place(t, st, len), o = at, part = at;
    vine__sched_recv(t->s, q, VINE_BUF_TMP, at, len);
    copies cq = {t->s, 0, 0, 0, 0, 0, 0};
    for (int i = 0; i < nb; i++) {
        int j = t->ord[i];
        int death = read_round(t, st, j);
        t->seg[(size_t)st * t->m + j] = o;
        if (j == t->r)
            finals(t, &cq, q, VINE_BUF_TMP, o);
        o += seglen(t, j, q);
        if (i + 1 == nb || read_round(t, st, t->ord[i + 1]) != death) {
            keep(t, part, o - part, death);
            part = o;
        }
    }
}

/* The schedule of participant r (every rank but the folded last one of odd p). */
static void run(a2a *t)
{
    const vine_bbk *k = t->k;
    vine_sched *s = t->s;
    int n = k->n, last = t->odd && t->r == t->m - 1;
    size_t c = t->c, most = 0, soff = 0;
    for (int u = 0; u < n; u++) {
        size_t len = 0;
        for (int j = 0; j < t->m; j++)
            if (vine__bbk_up(k, j, t->r) == u)
                len += seglen(t, j, t->r);
        most = len > most ? len : most;
    }
    t->fold = t->expand = t->base = t->top = t->pack + most;
    if (last) {
        t->expand = t->fold + (size_t)(t->p - 1) * c;
        t->base = t->top = t->expand + (size_t)(t->p - 1) * c;
        /* Round 0: the folded rank's blocks arrive; the copies below read them. */
        vine__sched_recv(s, t->p - 1, VINE_BUF_TMP, t->fold, (size_t)(t->p - 1) * c);
    }
    /* The own blocks for the own ranks; the own block of rank p-1 stays with it. */
    copies q = {s, 0, 0, 0, 0, 0, 0};
    for (int x = t->r; x < t->r + cnt(t, t->r); x++) {
        for (int b = t->r; b < t->r + cnt(t, t->r); b++) {
            int sbuf, dbuf;
            size_t so, dof;
            if (t->odd && x == t->p - 1 && b == t->p - 1)
                continue;
            own_loc(t, x, b, &sbuf, &so);
            final_loc(t, x, b, &dbuf, &dof);
            cp_add(&q, sbuf, so, dbuf, dof, c);
        }
    }
    cp_flush(&q);
    int direct = emit_pack(t, 0, &soff);
    vine__sched_fence(s);
    for (int st = 0; st < n; st++) {
        int peer = vine__bine_pi(t->r, st, t->m);
        size_t len = 0;
        for (int j = 0; j < t->m; j++)
            if (vine__bbk_up(k, j, t->r) == st)
                len += seglen(t, j, t->r);
        vine__sched_send(s, peer, direct ? VINE_BUF_SEND : VINE_BUF_TMP, direct ? soff : t->pack,
                         len);
        receive(t, st, peer);
        if (st + 1 < n)
            direct = emit_pack(t, st + 1, &soff);
        vine__sched_fence(s);
    }
    if (last)
        vine__sched_send(s, t->p - 1, VINE_BUF_TMP, t->expand, (size_t)(t->p - 1) * c);
    vine__sched_need_tmp(s, t->top);
}

int vine__alltoall_bine_build(const vine_args *a, vine_sched *s)
{
    int p = a->p, r = a->rank, m = p % 2 ? p - 1 : p;
    size_t c = a->count;
    if (p == 1) {
        vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_RECV, 0, c);
        return vine__sched_finish(s);
    }
    if (r == p - 1 && m < p) {
        /* The folded rank: all its blocks to the rank before, and all its results from it. */
        vine__sched_send(s, p - 2, VINE_BUF_SEND, 0, (size_t)(p - 1) * c);
        vine__sched_copy(s, VINE_BUF_SEND, (size_t)r * c, VINE_BUF_RECV, (size_t)r * c, c);
        vine__sched_fence(s);
        vine__sched_recv(s, p - 2, VINE_BUF_RECV, 0, (size_t)(p - 1) * c);
        return vine__sched_finish(s);
    }
    vine_bbk k;
    if (vine__bbk_init(&k, m, 1) != VINE_OK)
        return VINE_ERR_NO_MEM;
    a2a t = {&k, s, p, m, r, m < p, c, 0, 0, 0, 0, NULL, NULL, NULL, 0, 0};
    t.seg = malloc((size_t)k.n * (size_t)m * sizeof *t.seg);
    t.ord = malloc((size_t)m * sizeof *t.ord);
    t.live = malloc((size_t)k.n * (size_t)(k.n + 1) * sizeof *t.live);
    if (!t.seg || !t.ord || !t.live) {
        free(t.seg);
        free(t.ord);
        free(t.live);
        vine__bbk_free(&k);
        return VINE_ERR_NO_MEM;
    }
    run(&t);
    free(t.seg);
    free(t.ord);
    free(t.live);
    vine__bbk_free(&k);
    return vine__sched_finish(s);
}
