/*
 * MPI tier: the irregular collectives and the scans, vine_allgatherv,
 * vine_alltoallv, vine_alltoallw, vine_gatherv, vine_scatterv, vine_scan and
 * vine_exscan (by turns their _c forms), every algorithm and "auto" against
 * the MPI library's own collective.
 *
 * The v collectives: block sizes drawn from a seed every rank shares
 * (VINE_TEST_SEED, rank 0's value; random with zeros, one rank holding
 * everything, all zero, a fixed irregular pattern; scaled by
 * VINE_TEST_V_SCALE, every rank the same), blocks packed in rank
 * order, in reversed rank order with gaps, or one of the two by rank (each
 * rank's displacements are its own), MPI_IN_PLACE wherever MPI allows it,
 * every type of the harness, the derived types of dtype.h, a vector type
 * against ints of the same signature, and for alltoallw a type per peer.
 * Their inputs are arbitrary bytes: MPI and vine start from identical
 * receive buffers (guards, gaps and holes filled with a pattern), and every
 * byte must end up as MPI leaves it, padding of MPI_DOUBLE_INT aside.  At a
 * non-root, by turns, the arguments MPI ignores there are NULL.
 *
 * The scans: every harness type with each of its ops, a count sweep with
 * MPI_SUM on int and the non-commutative matrix product (also checked
 * against the rank-ordered product computed here), and the derived types
 * with dtype.h's user ops.  Rank 0's exscan result is undefined and not
 * compared.  Send buffers and guards must stay intact everywhere.
 *
 * Where a probe finds the library wrong on one process (MPICH 4.0.2's
 * allgatherv ignores the displacement, Open MPI 4.1.4's alltoallw scales
 * byte displacements by the extents) the reference is a send to self; the
 * reference of alltoallv in place is the library's alltoallv from a copy of
 * the buffer (MPICH 4.0.2's in-place form fails on large MPI_DOUBLE_INT
 * blocks).
 */
#include "dtype.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SEND_SEED = 11, RECV_SEED = 12, INPUT_SEED = 13 };

/* Block sizes: random with zeros, one rank holding everything, all zero, irregular. */
enum { D_RANDOM, D_ONE, D_ZERO, D_IRREGULAR, NDISTS };
/* Placement: packed in rank order, reversed with gaps, one or the other by rank. */
enum { P_PACKED, P_GAPS, P_MIXED, NPLACES };

static const char *dist_names[NDISTS] = {"random", "one", "zero", "irregular"};
static const char *place_names[NPLACES] = {"packed", "gaps", "mixed"};

/* The seed shared by all ranks and the cases run so far (the same everywhere). */
static uint64_t base_seed;
static unsigned long case_no;
/* VINE_TEST_V_SCALE: the blocks' scales multiplied (1 unless set), for blocks large
 * enough to leave the shm algorithms' eager slots. */
static long scale_mul = 1;

static uint64_t mix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15u;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9u;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBu;
    return x ^ (x >> 31);
}

static unsigned char hbyte(uint64_t seed, size_t j)
{
    return (unsigned char)(mix(seed * 0x100000001B3u + j) >> 56);
}

/* ---- Types ---- */

typedef struct tinfo {
    const char *name;
    MPI_Datatype type;
    MPI_Aint extent, true_lb, true_extent;
    MPI_Aint pad; /* bytes of an element from pad on are padding (MPI_DOUBLE_INT); 0: none */
} tinfo;

enum { MAX_TYPES = 16 };
static tinfo types[MAX_TYPES];
static int ntypes;
static const tinfo *t_int, *t_vec;

static const tinfo *add_tinfo(const char *name, MPI_Datatype t)
{
    tinfo *x = &types[ntypes++];
    MPI_Aint lb;
    *x = (tinfo){name, t, 0, 0, 0, 0};
    MPI_Type_get_extent(t, &lb, &x->extent);
    MPI_Type_get_true_extent(t, &x->true_lb, &x->true_extent);
    if (t == MPI_DOUBLE_INT)
        x->pad = (MPI_Aint)(sizeof(double) + sizeof(int));
    return x;
}

/* The harness's types, then dtype.h's derived ones; t_int and t_vec for the mixed cases. */
static void init_types(void)
{
    for (int i = 0; i < mt_ntypes(); i++)
        add_tinfo(mt_type_at(i)->name, mt_type_at(i)->type);
    for (int i = 0; i < dt_ntypes(); i++)
        add_tinfo(dt_type_at(i)->name, dt_type_at(i)->type);
    t_int = add_tinfo("int", MPI_INT);
    t_vec = add_tinfo("vector", dt_type_vector()->type);
}

/* A send and a receive type of the same signature: ks of s per kr of r. */
typedef struct tpair {
    const tinfo *s, *r;
    int ks, kr;
} tpair;

/* ---- One case of a v collective ---- */

typedef struct vcase {
    int dist, place, inplace;
    long c;        /* the scale of the block sizes */
    int root;      /* gatherv, scatterv */
    int big;       /* call the _c form */
    int junk;      /* arguments MPI ignores are NULL */
    int per_peer;  /* alltoallw: the receive types follow the send types' rule */
    uint64_t seed; /* of this case's tables */
    int holder;    /* D_ONE: the rank holding everything */
} vcase;

static void vcase_seed(vcase *vc)
{
    vc->seed = mix(base_seed ^ mix(++case_no));
    vc->holder = (int)(vc->seed % (uint64_t)mt_size);
}

/* Units in the block that rank i gives rank j (j = -1: rank i's one block). */
static int units(const vcase *vc, int i, int j)
{
    long c = vc->c;
    uint64_t h = mix(vc->seed + (uint64_t)(i + 1) * 1000003u + (uint64_t)(j + 1));
    switch (vc->dist) {
    case D_RANDOM:
        return h % 4 == 0 ? 0 : (int)((h >> 8) % (uint64_t)(2 * c + 1));
    case D_ONE:
        return i == vc->holder ? (int)(j < 0 ? c * mt_size : 2 * c) : 0;
    case D_ZERO:
        return 0;
    default:
        return (int)(c * ((7 * i + 3 * (j + 1)) % 5) / 2);
    }
}

/* The same, symmetric (alltoallv in place: what i gives j, j gives i). */
static int units_sym(const vcase *vc, int i, int j)
{
    if (vc->dist == D_ONE)
        return i == vc->holder || j == vc->holder ? (int)(2 * vc->c) : 0;
    return i < j ? units(vc, i, j) : units(vc, j, i);
}

/* The blocks of one buffer: displacements in elements of their type, or in bytes. */
typedef struct side {
    int p, bytes;
    int *cnt, *dsp;
    const tinfo **t;
    MPI_Datatype *ty;
} side;

static void side_init(side *s, int p, int bytes, const tinfo *t)
{
    s->p = p;
    s->bytes = bytes;
    s->cnt = mt_xmalloc((size_t)p * sizeof *s->cnt);
    s->dsp = mt_xmalloc((size_t)p * sizeof *s->dsp);
    s->t = mt_xmalloc((size_t)p * sizeof *s->t);
    s->ty = mt_xmalloc((size_t)p * sizeof *s->ty);
    for (int i = 0; i < p; i++) {
        s->cnt[i] = s->dsp[i] = 0;
        s->t[i] = t;
        s->ty[i] = t->type;
    }
}

static void side_free(side *s)
{
    free(s->cnt);
    free(s->dsp);
    free(s->t);
    free(s->ty);
}

static void set_type(side *s, int i, const tinfo *t)
{
    s->t[i] = t;
    s->ty[i] = t->type;
}

/*
 * Places the blocks: packed in rank order, or in reversed rank order after
 * a leading gap with a gap of 1 to 3 elements (4 to 12 bytes) after each.
 */
static void place(side *s, int gaps)
{
    int at = gaps ? 1 : 0;
    for (int k = 0; k < s->p; k++) {
        int i = gaps ? s->p - 1 - k : k;
        int len = s->bytes ? s->cnt[i] * (int)s->t[i]->extent : s->cnt[i];
        int gap = gaps ? 1 + i % 3 : 0;
        s->dsp[i] = s->bytes ? 4 * at : at;
        at += (s->bytes ? len / 4 : len) + gap;
    }
}

/* Whether a buffer of this rank gets gaps: P_MIXED decides by rank and which. */
static int gaps_of(const vcase *vc, int which)
{
    return vc->place == P_GAPS || (vc->place == P_MIXED && (mt_rank + which) % 2 == 0);
}

/* Bytes [*lo, *hi) of block i, relative to the buffer's address (count > 0). */
static void block_span(const side *s, int i, MPI_Aint *lo, MPI_Aint *hi)
{
    const tinfo *t = s->t[i];
    MPI_Aint at = s->bytes ? s->dsp[i] : (MPI_Aint)s->dsp[i] * t->extent;
    *lo = at + t->true_lb;
    *hi = at + (MPI_Aint)(s->cnt[i] - 1) * t->extent + t->true_lb + t->true_extent;
}

static long total_of(const side *s)
{
    long n = 0;
    for (int i = 0; i < s->p; i++)
        n += s->cnt[i];
    return n;
}

/* ---- Buffers ---- */

/* A buffer holding the blocks of a side between MT_GUARD guard bytes. */
typedef struct vbuf {
    unsigned char *base, *ptr; /* the allocation; the address MPI and vine get */
    size_t total;
} vbuf;

/* Allocates room for s's blocks (none: s NULL) and fills every byte from seed. */
static void vbuf_init(vbuf *b, const side *s, uint64_t seed)
{
    MPI_Aint lo = 0, hi = 0, l, h;
    for (int i = 0; s && i < s->p; i++) {
        if (s->cnt[i] == 0)
            continue;
        block_span(s, i, &l, &h);
        lo = l < lo ? l : lo;
        hi = h > hi ? h : hi;
    }
    b->total = (size_t)(hi - lo) + 2 * MT_GUARD;
    b->base = mt_xmalloc(b->total);
    b->ptr = b->base + MT_GUARD - lo;
    for (size_t j = 0; j < b->total; j++)
        b->base[j] = hbyte(seed, j);
}

static void vbuf_clone(vbuf *d, const vbuf *s)
{
    d->total = s->total;
    d->base = mt_xmalloc(s->total);
    memcpy(d->base, s->base, s->total);
    d->ptr = d->base + (s->ptr - s->base);
}

static void vbufs_free(vbuf *a, vbuf *b, vbuf *c, vbuf *d, vbuf *e)
{
    free(a->base);
    free(b->base);
    free(c->base);
    free(d->base);
    free(e->base);
}

/* Writes rank r's input for block i of s over the block's bytes (in place). */
static void vbuf_input(vbuf *b, const side *s, int i, int r)
{
    MPI_Aint lo, hi;
    if (s->cnt[i] == 0)
        return;
    block_span(s, i, &lo, &hi);
    for (MPI_Aint o = lo; o < hi; o++)
        b->ptr[o] = hbyte(INPUT_SEED + (uint64_t)r * 7919u + (uint64_t)i, (size_t)(o - lo));
}

/*
 * Fails unless vine's buffer g is byte for byte MPI's m, the padding of t's
 * elements aside (t NULL: no padding); init is both before the calls.
 */
static int check_same(const vbuf *g, const vbuf *m, const vbuf *init, const tinfo *t,
                      const char *what)
{
    MPI_Aint off = g->ptr - g->base;
    for (size_t j = 0; j < g->total; j++) {
        MPI_Aint o = (MPI_Aint)j - off;
        if (t && t->pad && ((o % t->extent) + t->extent) % t->extent >= t->pad)
            continue;
        if (g->base[j] == m->base[j])
            continue;
        const char *where = j < MT_GUARD || j >= g->total - MT_GUARD ? "guard" : "buffer";
        mt_fail("%s: %s byte at offset %ld: vine 0x%02x, MPI 0x%02x, before 0x%02x", what, where,
                (long)o, g->base[j], m->base[j], init->base[j]);
        return 0;
    }
    return 1;
}

static void check_send(const vbuf *now, const vbuf *keep)
{
    for (size_t j = 0; j < now->total; j++)
        if (now->base[j] != keep->base[j]) {
            mt_fail("the send buffer changed at offset %ld",
                    (long)((MPI_Aint)j - (now->ptr - now->base)));
            return;
        }
}

/* The MPI_Count and MPI_Aint tables of the _c forms (NULL for a NULL side). */
typedef struct ctab {
    MPI_Count *c;
    MPI_Aint *d;
} ctab;

static ctab ctab_of(const side *s)
{
    ctab t = {NULL, NULL};
    if (!s)
        return t;
    t.c = mt_xmalloc((size_t)s->p * sizeof *t.c);
    t.d = mt_xmalloc((size_t)s->p * sizeof *t.d);
    for (int i = 0; i < s->p; i++) {
        t.c[i] = s->cnt[i];
        t.d[i] = s->dsp[i];
    }
    return t;
}

static void ctab_free(ctab *t)
{
    free(t->c);
    free(t->d);
}

static void begin_case(vine_coll coll, const char *algo, const char *tname, const vcase *vc)
{
    static char name[128];
    snprintf(name, sizeof name, "%s/%s/%s%s%s", tname, dist_names[vc->dist], place_names[vc->place],
             vc->big ? "/_c" : "", vc->junk ? "/null" : "");
    mt_case c = {vine_coll_name(coll), algo, name, "-", vc->c, vc->root, vc->inplace};
    mt_begin(&c);
}

/* ---- allgatherv ---- */

static int call_allgatherv(const vcase *vc, const void *sb, int sc, MPI_Datatype st, void *rb,
                           const side *r)
{
    if (!vc->big)
        return vine_allgatherv(sb, sc, st, rb, r->cnt, r->dsp, r->ty[0], MPI_COMM_WORLD);
    ctab t = ctab_of(r);
    int rc = vine_allgatherv_c(sb, sc, st, rb, t.c, t.d, r->ty[0], MPI_COMM_WORLD);
    ctab_free(&t);
    return rc;
}

static void mpi_allgatherv(const void *sb, const side *s, void *mbuf, const side *r)
{
    MPI_Aint at = (MPI_Aint)r->dsp[0] * r->t[0]->extent;
    if (!mt_self_allgatherv_broken())
        MPI_Allgatherv(sb, s->cnt[0], s->ty[0], mbuf, r->cnt, r->dsp, r->ty[0], MPI_COMM_WORLD);
    else if (sb != MPI_IN_PLACE)
        MPI_Sendrecv(sb, s->cnt[0], s->ty[0], 0, 0, (char *)mbuf + at, r->cnt[0], r->ty[0], 0, 0,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static void run_allgatherv(vine_coll coll, const char *algo, const tpair *tp, const vcase *vc)
{
    char tname[64];
    snprintf(tname, sizeof tname, "%s->%s", tp->s->name, tp->r->name);
    begin_case(coll, algo, tname, vc);
    side r, s;
    side_init(&r, mt_size, 0, tp->r);
    side_init(&s, 1, 0, tp->s);
    for (int i = 0; i < mt_size; i++)
        r.cnt[i] = units(vc, i, -1) * tp->kr;
    s.cnt[0] = units(vc, mt_rank, -1) * tp->ks;
    place(&r, gaps_of(vc, 0));
    vbuf send, keep, got, mpi, init;
    vbuf_init(&send, &s, SEND_SEED + (uint64_t)mt_rank);
    vbuf_clone(&keep, &send);
    vbuf_init(&got, &r, RECV_SEED);
    if (vc->inplace)
        vbuf_input(&got, &r, mt_rank, mt_rank);
    vbuf_clone(&mpi, &got);
    vbuf_clone(&init, &got);
    const void *sb = vc->inplace ? MPI_IN_PLACE : (const void *)send.ptr;
    mpi_allgatherv(sb, &s, mpi.ptr, &r);
    int sc = vc->inplace && vc->junk ? 0 : s.cnt[0];
    MPI_Datatype st = vc->inplace && vc->junk ? MPI_DATATYPE_NULL : s.ty[0];
    if (mt_check_rc(call_allgatherv(vc, sb, sc, st, got.ptr, &r), "vine_allgatherv")) {
        check_same(&got, &mpi, &init, tp->r, "receive buffer");
        mt_check_served(coll, algo, 1, (size_t)total_of(&r));
    }
    check_send(&send, &keep);
    vbufs_free(&send, &keep, &got, &mpi, &init);
    side_free(&r);
    side_free(&s);
}

/* ---- alltoallv and alltoallw ---- */

/* Calls vine's alltoallv or alltoallw; s NULL: the send arguments are NULL. */
static int call_alltoall(vine_coll coll, const vcase *vc, const void *sb, const side *s, void *rb,
                         const side *r)
{
    int w = coll == VINE_COLL_ALLTOALLW, *sc = s ? s->cnt : NULL, *sd = s ? s->dsp : NULL;
    MPI_Datatype *sty = s ? s->ty : NULL, st = s ? s->ty[0] : MPI_DATATYPE_NULL;
    MPI_Comm comm = MPI_COMM_WORLD;
    if (!vc->big)
        return w ? vine_alltoallw(sb, sc, sd, sty, rb, r->cnt, r->dsp, r->ty, comm)
                 : vine_alltoallv(sb, sc, sd, st, rb, r->cnt, r->dsp, r->ty[0], comm);
    ctab ts = ctab_of(s), tr = ctab_of(r);
    int rc = w ? vine_alltoallw_c(sb, ts.c, ts.d, sty, rb, tr.c, tr.d, r->ty, comm)
               : vine_alltoallv_c(sb, ts.c, ts.d, st, rb, tr.c, tr.d, r->ty[0], comm);
    ctab_free(&ts);
    ctab_free(&tr);
    return rc;
}

/*
 * The blocks of this rank's row.  alltoallw: a type per peer, MPI_INT for
 * even peers and the vector type (6 ints) for odd ones on the send side;
 * the receive side follows the same rule, or (per_peer 0) the opposite one,
 * so that the two ends of a message differ.  In place the block sizes are
 * symmetric, as MPI requires.
 */
static void alltoall_tables(vine_coll coll, const tpair *tp, const vcase *vc, side *s, side *r)
{
    int w = coll == VINE_COLL_ALLTOALLW;
    side_init(s, mt_size, w, tp->s);
    side_init(r, mt_size, w, tp->r);
    for (int j = 0; j < mt_size; j++) {
        int us = vc->inplace ? units_sym(vc, mt_rank, j) : units(vc, mt_rank, j);
        int ur = vc->inplace ? units_sym(vc, j, mt_rank) : units(vc, j, mt_rank);
        if (w) {
            int rvec = vc->per_peer ? j % 2 : !(j % 2);
            set_type(s, j, j % 2 ? t_vec : t_int);
            set_type(r, j, rvec ? t_vec : t_int);
            s->cnt[j] = us * (j % 2 ? 1 : 6);
            r->cnt[j] = ur * (rvec ? 1 : 6);
        } else {
            s->cnt[j] = us * tp->ks;
            r->cnt[j] = ur * tp->kr;
        }
    }
    place(s, gaps_of(vc, 1));
    place(r, gaps_of(vc, 0));
}

/*
 * MPI's alltoallv or alltoallw into m, alltoallw by a send to self where
 * self_w_broken.  alltoallv in place runs as the same call from a copy of
 * m, the send tables those of the receive side, which the standard makes
 * the same exchange: MPICH 4.0.2's in-place alltoallv fails ("Message
 * truncated") on MPI_DOUBLE_INT blocks of 1000 elements and more.
 */
static void mpi_alltoall(vine_coll coll, const void *sb, const side *s, vbuf *m, const side *r)
{
    MPI_Comm w = MPI_COMM_WORLD;
    void *mbuf = m->ptr;
    if (coll == VINE_COLL_ALLTOALLV && sb == MPI_IN_PLACE) {
        vbuf in;
        vbuf_clone(&in, m);
        MPI_Alltoallv(in.ptr, r->cnt, r->dsp, r->ty[0], mbuf, r->cnt, r->dsp, r->ty[0], w);
        free(in.base);
    } else if (coll == VINE_COLL_ALLTOALLV)
        MPI_Alltoallv(sb, s->cnt, s->dsp, s->ty[0], mbuf, r->cnt, r->dsp, r->ty[0], w);
    else if (!mt_self_alltoallw_broken())
        MPI_Alltoallw(sb, s->cnt, s->dsp, s->ty, mbuf, r->cnt, r->dsp, r->ty, w);
    else if (sb != MPI_IN_PLACE)
        MPI_Sendrecv((const char *)sb + s->dsp[0], s->cnt[0], s->ty[0], 0, 0,
                     (char *)mbuf + r->dsp[0], r->cnt[0], r->ty[0], 0, 0, w, MPI_STATUS_IGNORE);
}

static void run_alltoall(vine_coll coll, const char *algo, const tpair *tp, const vcase *vc)
{
    char tname[64];
    if (coll == VINE_COLL_ALLTOALLW)
        snprintf(tname, sizeof tname, "int|vector/%s", vc->per_peer ? "same" : "opposite");
    else
        snprintf(tname, sizeof tname, "%s->%s", tp->s->name, tp->r->name);
    begin_case(coll, algo, tname, vc);
    side s, r;
    alltoall_tables(coll, tp, vc, &s, &r);
    vbuf send, keep, got, mpi, init;
    vbuf_init(&send, vc->inplace ? NULL : &s, SEND_SEED + (uint64_t)mt_rank);
    vbuf_clone(&keep, &send);
    vbuf_init(&got, &r, RECV_SEED);
    for (int i = 0; vc->inplace && i < mt_size; i++)
        vbuf_input(&got, &r, i, mt_rank);
    vbuf_clone(&mpi, &got);
    vbuf_clone(&init, &got);
    const void *sb = vc->inplace ? MPI_IN_PLACE : (const void *)send.ptr;
    mpi_alltoall(coll, sb, &s, &mpi, &r);
    long total = total_of(&r);
    MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    const side *sv = vc->inplace && vc->junk ? NULL : &s;
    if (mt_check_rc(call_alltoall(coll, vc, sb, sv, got.ptr, &r), vine_coll_name(coll))) {
        check_same(&got, &mpi, &init, coll == VINE_COLL_ALLTOALLW ? NULL : tp->r, "receive buffer");
        mt_check_served(coll, algo, 1, (size_t)total);
    }
    check_send(&send, &keep);
    vbufs_free(&send, &keep, &got, &mpi, &init);
    side_free(&s);
    side_free(&r);
}

/* ---- gatherv and scatterv ---- */

static int call_gatherv(const vcase *vc, const void *sb, int sc, MPI_Datatype st, void *rb,
                        const side *r, MPI_Datatype rt)
{
    int *cnt = r ? r->cnt : NULL, *dsp = r ? r->dsp : NULL;
    if (!vc->big)
        return vine_gatherv(sb, sc, st, rb, cnt, dsp, rt, vc->root, MPI_COMM_WORLD);
    ctab t = ctab_of(r);
    int rc = vine_gatherv_c(sb, sc, st, rb, t.c, t.d, rt, vc->root, MPI_COMM_WORLD);
    ctab_free(&t);
    return rc;
}

/* The root's blocks (every rank knows their sizes) and this rank's own block. */
static void rooted_tables(const tpair *tp, const vcase *vc, int gather, side *b, side *own)
{
    side_init(b, mt_size, 0, gather ? tp->r : tp->s);
    side_init(own, 1, 0, gather ? tp->s : tp->r);
    for (int i = 0; i < mt_size; i++)
        b->cnt[i] = units(vc, i, -1) * (gather ? tp->kr : tp->ks);
    own->cnt[0] = units(vc, mt_rank, -1) * (gather ? tp->ks : tp->kr);
    place(b, gaps_of(vc, 0));
}

static void run_gatherv(vine_coll coll, const char *algo, const tpair *tp, const vcase *vc)
{
    char tname[64];
    snprintf(tname, sizeof tname, "%s->%s", tp->s->name, tp->r->name);
    begin_case(coll, algo, tname, vc);
    int me = mt_rank == vc->root, ip = me && vc->inplace;
    side r, s;
    rooted_tables(tp, vc, 1, &r, &s);
    vbuf send, keep, got, mpi, init;
    vbuf_init(&send, ip ? NULL : &s, SEND_SEED + (uint64_t)mt_rank);
    vbuf_clone(&keep, &send);
    vbuf_init(&got, me ? &r : NULL, RECV_SEED);
    if (ip)
        vbuf_input(&got, &r, vc->root, mt_rank);
    vbuf_clone(&mpi, &got);
    vbuf_clone(&init, &got);
    const void *sb = ip ? MPI_IN_PLACE : (const void *)send.ptr;
    MPI_Gatherv(sb, s.cnt[0], s.ty[0], mpi.ptr, r.cnt, r.dsp, r.ty[0], vc->root, MPI_COMM_WORLD);
    int rc;
    if (!me && vc->junk)
        rc = call_gatherv(vc, sb, s.cnt[0], s.ty[0], NULL, NULL, MPI_DATATYPE_NULL);
    else if (ip && vc->junk)
        rc = call_gatherv(vc, sb, 0, MPI_DATATYPE_NULL, got.ptr, &r, r.ty[0]);
    else
        rc = call_gatherv(vc, sb, s.cnt[0], s.ty[0], got.ptr, &r, r.ty[0]);
    if (mt_check_rc(rc, "vine_gatherv")) {
        check_same(&got, &mpi, &init, tp->r, "receive buffer");
        mt_check_served(coll, algo, 1, (size_t)total_of(&r));
    }
    check_send(&send, &keep);
    vbufs_free(&send, &keep, &got, &mpi, &init);
    side_free(&r);
    side_free(&s);
}

static int call_scatterv(const vcase *vc, const void *sb, const side *s, MPI_Datatype st, void *rb,
                         int rc_, MPI_Datatype rt)
{
    int *cnt = s ? s->cnt : NULL, *dsp = s ? s->dsp : NULL;
    if (!vc->big)
        return vine_scatterv(sb, cnt, dsp, st, rb, rc_, rt, vc->root, MPI_COMM_WORLD);
    ctab t = ctab_of(s);
    int rc = vine_scatterv_c(sb, t.c, t.d, st, rb, rc_, rt, vc->root, MPI_COMM_WORLD);
    ctab_free(&t);
    return rc;
}

static void run_scatterv(vine_coll coll, const char *algo, const tpair *tp, const vcase *vc)
{
    char tname[64];
    snprintf(tname, sizeof tname, "%s->%s", tp->s->name, tp->r->name);
    begin_case(coll, algo, tname, vc);
    int me = mt_rank == vc->root, ip = me && vc->inplace;
    side s, r;
    rooted_tables(tp, vc, 0, &s, &r);
    vbuf send, keep, got, mpi, init;
    vbuf_init(&send, me ? &s : NULL, SEND_SEED + (uint64_t)mt_rank);
    vbuf_clone(&keep, &send);
    vbuf_init(&got, ip ? NULL : &r, RECV_SEED);
    vbuf_clone(&mpi, &got);
    vbuf_clone(&init, &got);
    void *rb = ip ? MPI_IN_PLACE : got.ptr;
    MPI_Scatterv(send.ptr, s.cnt, s.dsp, s.ty[0], ip ? MPI_IN_PLACE : mpi.ptr, r.cnt[0], r.ty[0],
                 vc->root, MPI_COMM_WORLD);
    int rc;
    if (!me && vc->junk)
        rc = call_scatterv(vc, NULL, NULL, MPI_DATATYPE_NULL, rb, r.cnt[0], r.ty[0]);
    else if (ip && vc->junk)
        rc = call_scatterv(vc, send.ptr, &s, s.ty[0], rb, 0, MPI_DATATYPE_NULL);
    else
        rc = call_scatterv(vc, send.ptr, &s, s.ty[0], rb, r.cnt[0], r.ty[0]);
    if (mt_check_rc(rc, "vine_scatterv")) {
        check_same(&got, &mpi, &init, tp->r, "receive buffer");
        mt_check_served(coll, algo, 1, (size_t)total_of(&s));
    }
    check_send(&send, &keep);
    vbufs_free(&send, &keep, &got, &mpi, &init);
    side_free(&r);
    side_free(&s);
}

/* ---- The sweep of the v collectives ---- */

typedef void (*run_fn)(vine_coll coll, const char *algo, const tpair *tp, const vcase *vc);

/* The roots of the sweep: 0, p-1 and one in the middle, without repeats. */
static int roots_of(int *out)
{
    long want[3] = {0, mt_size - 1, mt_size / 2}, u[3];
    int n = mt_unique(want, 3, u);
    for (int i = 0; i < n; i++)
        out[i] = (int)u[i];
    return n;
}

/* Case k of a sweep: its scale, root and forms, drawn from k. */
static void run_k(vine_coll coll, const char *algo, run_fn run, const tpair *tp, int dist, int pl,
                  int inplace, int k)
{
    static const long scales[] = {1, 7, 60};
    int roots[3], nroots = roots_of(roots);
    uint64_t h = mix((uint64_t)k);
    vcase vc = {.dist = dist,
                .place = pl,
                .inplace = inplace,
                .c = scales[(h >> 8) % 3] * scale_mul,
                .root = roots[(h >> 16) % (uint64_t)nroots],
                .big = h % 3 == 0,
                .junk = (h >> 24) % 2,
                .per_peer = (h >> 32) % 2};
    vcase_seed(&vc);
    run(coll, algo, tp, &vc);
}

static void sweep_move(vine_coll coll, const char *algo, run_fn run)
{
    int k = 0, nmt = mt_ntypes();
    /* The harness's types, every distribution each: over the types every
     * distribution meets every placement, in place and not. */
    for (int ti = 0; ti < nmt; ti++)
        for (int d = 0; d < NDISTS; d++, k++) {
            tpair tp = {&types[ti], &types[ti], 1, 1};
            run_k(coll, algo, run, &tp, d, (ti + d) % NPLACES, ti % 2, k);
        }
    /* The derived types, twice each. */
    for (int ti = nmt; ti < nmt + dt_ntypes(); ti++)
        for (int v = 0; v < 2; v++, k++) {
            tpair tp = {&types[ti], &types[ti], 1, 1};
            run_k(coll, algo, run, &tp, (ti + v) % NDISTS, (ti + v) % NPLACES, v, k);
        }
    /* The vector type against 6 ints, either way. */
    for (int d = 0; d < NDISTS; d++, k++) {
        tpair a = {t_vec, t_int, 1, 6}, b = {t_int, t_vec, 6, 1};
        run_k(coll, algo, run, &a, d, d % NPLACES, 0, k);
        run_k(coll, algo, run, &b, (d + 1) % NDISTS, (d + 1) % NPLACES, d % 2, k);
    }
}

/* alltoallw: the per-peer types, every distribution, placement and in-place form. */
static void sweep_w(vine_coll coll, const char *algo, run_fn run)
{
    tpair tp = {t_int, t_int, 1, 1};
    int k = 0;
    for (int d = 0; d < NDISTS; d++)
        for (int pl = 0; pl < NPLACES; pl++)
            for (int ip = 0; ip < 2; ip++, k++)
                run_k(coll, algo, run, &tp, d, pl, ip, k);
}

/* ---- Scans ---- */

static int call_scan(vine_coll coll, int big, const void *sb, void *rb, long n, MPI_Datatype t,
                     MPI_Op op)
{
    MPI_Comm w = MPI_COMM_WORLD;
    if (coll == VINE_COLL_SCAN)
        return big ? vine_scan_c(sb, rb, n, t, op, w) : vine_scan(sb, rb, (int)n, t, op, w);
    return big ? vine_exscan_c(sb, rb, n, t, op, w) : vine_exscan(sb, rb, (int)n, t, op, w);
}

/*
 * MPI's own scan of send into want; for the matrix product also checked
 * against the rank-ordered product computed here, which replaces it when
 * the two differ.
 */
static void scan_want(vine_coll coll, const mt_type *t, const mt_op *o, const void *send,
                      unsigned char *want, size_t n, int care)
{
    int ex = coll == VINE_COLL_EXSCAN;
    mt_poison(t, want, n);
    if (ex)
        MPI_Exscan(send, want, (int)n, t->type, o->op, MPI_COMM_WORLD);
    else
        MPI_Scan(send, want, (int)n, t->type, o->op, MPI_COMM_WORLD);
    if (o->commutative || !care)
        return;
    unsigned char *ref = mt_xmalloc(n * t->extent);
    mt_matmul_ref(ref, n, ex ? mt_rank : mt_rank + 1, 0);
    if (!mt_check_equal(t, want, ref, n, "MPI's own result against the rank-ordered product"))
        memcpy(want, ref, n * t->extent);
    free(ref);
}

static void run_scan(vine_coll coll, const char *algo, const mt_type *t, const mt_op *o, long count,
                     int inplace, int big)
{
    char name[64];
    snprintf(name, sizeof name, "%s%s", t->name, big ? "/_c" : "");
    mt_case c = {vine_coll_name(coll), algo, name, o->name, count, -1, inplace};
    mt_begin(&c);
    int care = !(coll == VINE_COLL_EXSCAN && mt_rank == 0);
    size_t n = (size_t)count, bytes = n * t->extent;
    unsigned char *send = mt_xmalloc(bytes), *keep = mt_xmalloc(bytes), *want = mt_xmalloc(bytes);
    mt_fill(t, o, send, n, mt_rank, 0);
    memcpy(keep, send, bytes);
    scan_want(coll, t, o, send, want, n, care);
    mt_buf r;
    mt_buf_alloc(&r, bytes);
    if (inplace)
        memcpy(r.data, send, bytes);
    else
        mt_poison(t, r.data, n);
    const void *sb = inplace ? MPI_IN_PLACE : send;
    if (mt_check_rc(call_scan(coll, big, sb, r.data, count, t->type, o->op), c.coll)) {
        if (care)
            mt_check_equal(t, r.data, want, n, "result");
        mt_check_served(coll, algo, o->commutative, n);
    }
    mt_check_guards(&r);
    mt_check_unchanged(send, keep, bytes);
    mt_buf_free(&r);
    free(send);
    free(keep);
    free(want);
}

/* Fails unless got is mpi where the result lies (care) and as before elsewhere. */
static void check_dt(const dt_area *got, const dt_area *mpi, const dt_area *init, int care)
{
    for (size_t j = 0; j < got->total; j++) {
        int data = got->cover[j], ok;
        if (data && !care)
            continue;
        ok = got->base[j] == (data ? mpi->base[j] : init->base[j]);
        if (!ok) {
            mt_fail("%s byte at offset %ld: vine 0x%02x, %s 0x%02x", data ? "result" : "hole",
                    (long)((MPI_Aint)j - (got->buf - got->base)), got->base[j],
                    data ? "MPI" : "before", data ? mpi->base[j] : init->base[j]);
            return;
        }
    }
}

/* A scan of a derived type with dtype.h's ops, against MPI's. */
static void run_scan_dt(vine_coll coll, const char *algo, const dt_type *t, const dt_op *o,
                        long count, int inplace)
{
    mt_case c = {vine_coll_name(coll), algo, t->name, o->name, count, -1, inplace};
    mt_begin(&c);
    int care = !(coll == VINE_COLL_EXSCAN && mt_rank == 0);
    size_t n = (size_t)count;
    dt_area send, keep, got, mpi, init;
    dt_area_init(&send, t, n, SEND_SEED);
    dt_area_set(&send, 0, n, mt_rank, 0);
    dt_area_clone(&keep, &send);
    dt_area_init(&got, t, n, RECV_SEED);
    if (inplace)
        dt_area_set(&got, 0, n, mt_rank, 0);
    dt_area_clone(&mpi, &got);
    dt_area_clone(&init, &got);
    const void *sb = inplace ? MPI_IN_PLACE : (const void *)send.buf;
    if (coll == VINE_COLL_EXSCAN)
        MPI_Exscan(sb, mpi.buf, (int)count, t->type, o->op, MPI_COMM_WORLD);
    else
        MPI_Scan(sb, mpi.buf, (int)count, t->type, o->op, MPI_COMM_WORLD);
    if (mt_check_rc(call_scan(coll, 0, sb, got.buf, count, t->type, o->op), c.coll)) {
        check_dt(&got, &mpi, &init, care);
        mt_check_served(coll, algo, o->commutative, n);
    }
    dt_check_unchanged(&send, &keep, "send");
    dt_check_op_calls();
    dt_area_free(&send);
    dt_area_free(&keep);
    dt_area_free(&got);
    dt_area_free(&mpi);
    dt_area_free(&init);
}

static void sweep_scan(vine_coll coll, const char *algo)
{
    static const long some[] = {1, 7, 1000};
    long counts[8];
    int ncounts = mt_counts(counts), k = 0;
    /* Every type with each of its ops. */
    for (int ti = 0; ti < mt_ntypes(); ti++) {
        const mt_type *t = mt_type_at(ti);
        for (int oi = 0; oi < mt_nops(t); oi++, k++)
            run_scan(coll, algo, t, mt_op_at(t, oi), some[k % 3], k % 2, (k / 2) % 3 == 0);
    }
    /* The count sweep: a commutative and the non-commutative op. */
    for (int ci = 0; ci < ncounts; ci++, k++) {
        run_scan(coll, algo, mt_type_int(), mt_op_sum(), counts[ci], ci % 2, k % 3 == 0);
        run_scan(coll, algo, mt_type_mat(), mt_op_matmul(), counts[ci], !(ci % 2), k % 3 == 1);
    }
    /* The derived types with the user ops (and MPI_SUM where MPI takes it). */
    for (int ti = 0; ti < dt_ntypes(); ti++) {
        const dt_type *t = dt_type_at(ti);
        for (int kind = t->sum_ok ? DT_SUM : DT_COMM; kind < DT_NOPS; kind++, k++)
            run_scan_dt(coll, algo, t, dt_op_at(kind), some[k % 2] - (k % 4 == 3), k % 2);
    }
}

/* ---- main ---- */

/* The seed of the tables: VINE_TEST_SEED on rank 0, or a fixed one. */
static void init_seed(void)
{
    const char *v = getenv("VINE_TEST_SEED");
    unsigned long long s = v && *v ? strtoull(v, NULL, 0) : 20240611u;
    MPI_Bcast(&s, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
    base_seed = s;
    const char *m = getenv("VINE_TEST_V_SCALE");
    scale_mul = m && atol(m) > 0 ? atol(m) : 1;
    if (mt_rank == 0 && getenv("MT_VERBOSE"))
        fprintf(stderr, "vcoll: seed %llu\n", s);
}

/* Whether coll is to run: VINE_TEST_COLLS, a comma-separated list, or all. */
static int wanted(vine_coll coll)
{
    const char *v = getenv("VINE_TEST_COLLS"), *name = vine_coll_name(coll);
    size_t len = strlen(name);
    if (!v || !*v)
        return 1;
    for (const char *p = v; (p = strstr(p, name)) != NULL; p += len)
        if ((p == v || p[-1] == ',') && (p[len] == ',' || p[len] == '\0'))
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "vcoll");
    dt_init(NULL);
    init_seed();
    init_types();
    static const vine_coll colls[] = {
        VINE_COLL_ALLGATHERV, VINE_COLL_ALLTOALLV, VINE_COLL_ALLTOALLW, VINE_COLL_GATHERV,
        VINE_COLL_SCATTERV,   VINE_COLL_SCAN,      VINE_COLL_EXSCAN};
    static const run_fn runs[] = {run_allgatherv, run_alltoall, run_alltoall, run_gatherv,
                                  run_scatterv,   NULL,         NULL};
    for (int ci = 0; ci < 7; ci++) {
        vine_coll coll = colls[ci];
        if (!wanted(coll))
            continue;
        for (int a = 0; a < mt_nalgos(coll); a++) {
            const char *algo = mt_algo_at(coll, a);
            if (coll == VINE_COLL_ALLTOALLW && strcmp(algo, "mpi") == 0 &&
                mt_self_alltoallw_broken())
                continue;
            mt_select(coll, algo);
            if (!runs[ci])
                sweep_scan(coll, algo);
            else if (coll == VINE_COLL_ALLTOALLW)
                sweep_w(coll, algo, runs[ci]);
            else
                sweep_move(coll, algo, runs[ci]);
        }
        mt_select(coll, NULL);
    }
    dt_free();
    return mt_finish();
}
