/*
 * MPI tier: the nonblocking and persistent forms of the irregular
 * collectives and the scans: vine_iallgatherv, vine_ialltoallv,
 * vine_ialltoallw, vine_igatherv, vine_iscatterv, vine_iscan and
 * vine_iexscan, their _c forms (MPI_Count counts, MPI_Aint displacements)
 * and the persistent vine_<coll>_init and vine_<coll>_init_c.
 *
 * Every algorithm of each of the seven ("auto" and "mpi" included) is forced
 * in turn and called in the four forms; a persistent request is started
 * twice, with other contents in its buffers (same addresses) the second
 * time.  Each start is compared with the MPI library's blocking collective
 * (PMPI_) run on buffers that started out identical: every byte of the
 * receive buffer, the holes of the derived type, the gaps between blocks
 * and the guard bytes around it included, must end as MPI leaves it, and
 * the send buffer must be untouched.
 *
 * The data-movement collectives: block sizes drawn from a seed every rank
 * shares (VINE_TEST_SEED, rank 0's), random with zeros, one rank holding
 * everything, all zero; blocks packed in rank order, in reversed rank order
 * with gaps, or shuffled with gaps; MPI_INT and a vector of 2 ints with
 * holes (stride 3, resized to 5 ints), on both sides or against pairs of
 * ints; alltoallw with a type per peer (MPI_INT or the vector, the same type
 * at both ends of a pair, or the other one with the count adjusted);
 * MPI_IN_PLACE wherever MPI allows it; every root of gatherv and scatterv in
 * one case, a root that moves with the case, algorithm and form in the
 * others.  The scans: MPI_SUM on MPI_INT and the harness's non-commutative
 * matrix product (also checked against the rank-ordered product), counts
 * 0, 1 and 1000, in place and not; rank 0's exscan result is undefined,
 * only the bytes around it are checked.
 *
 * Also: rounds with all seven outstanding at once, each with another
 * algorithm and form, completed by vine_waitall in an order other than that
 * of the starts, or by vine_waitany (persistent ones started again together
 * by vine_startall); and negative counts, which must return MPI_ERR_COUNT
 * and set the request to MPI_REQUEST_NULL without disturbing the calls
 * that follow.  The completion function rotates through vine_wait,
 * vine_test, vine_waitall, vine_testall and vine_waitany, a collective's
 * status must be empty, and gatherv and scatterv forced to binomial must be
 * served by linear (vine.h).  VINE_TEST_NBV_COLL=<coll> runs one
 * collective's sweep; VINE_TEST_NBV_TIME=1 prints the time of each
 * algorithm.
 *
 * Around faults of the MPI library: on one process the reference is a send
 * to self where MPI_Allgatherv or MPI_Alltoallw is wrong there, and
 * alltoallw's "mpi" is not run where MPI_Alltoallw is (as in test_vcoll.c);
 * forced to "mpi", alltoallv and alltoallw in place give every rank a
 * non-empty block of its own (units_sym).
 */
#include "mpitest.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { DEADLINE_S = 60, MAXP = 64, NCOLLS = 7, NROUNDS = 8, SEGMENT_BYTES = 1024 };

enum form { F_NB, F_NB_C, F_INIT, F_INIT_C, NFORMS };
static const char *const form_fmt[NFORMS] = {"i%s", "i%s_c", "%s_init", "%s_init_c"};

/* Block sizes: random with zeros, one rank holding everything, all zero. */
enum dist { D_RANDOM, D_ONE, D_ZERO };
static const char *const dist_names[] = {"random", "one", "zero"};
/* Where the blocks lie: in rank order, reversed with gaps, shuffled with gaps. */
enum place { P_PACKED, P_REVERSED, P_SHUFFLED };
static const char *const place_names[] = {"packed", "reversed", "shuffled"};

static const vine_coll colls[NCOLLS] = {
    VINE_COLL_ALLGATHERV, VINE_COLL_ALLTOALLV, VINE_COLL_ALLTOALLW, VINE_COLL_GATHERV,
    VINE_COLL_SCATTERV,   VINE_COLL_SCAN,      VINE_COLL_EXSCAN};

static uint64_t base_seed;
static unsigned long case_no;
static long ncalls;

static uint64_t mix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15u;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9u;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBu;
    return x ^ (x >> 31);
}

static int is_scan(vine_coll c)
{
    return c == VINE_COLL_SCAN || c == VINE_COLL_EXSCAN;
}

static int is_rooted(vine_coll c)
{
    return c == VINE_COLL_GATHERV || c == VINE_COLL_SCATTERV;
}

/* ---- Types ---- */

/* A unit of data is 2 ints: per_unit elements of the type. */
typedef struct vtype {
    const char *name;
    MPI_Datatype type;
    MPI_Aint extent, true_lb, true_extent;
    int per_unit;
} vtype;

static vtype t_int, t_vec;

static void set_vtype(vtype *t, const char *name, MPI_Datatype type, int per_unit)
{
    MPI_Aint lb;
    t->name = name;
    t->type = type;
    t->per_unit = per_unit;
    MPI_Type_get_extent(type, &lb, &t->extent);
    MPI_Type_get_true_extent(type, &t->true_lb, &t->true_extent);
}

/* The send and receive types of a data-movement case (alltoallw: the rule of its types). */
enum pair { PR_II, PR_VV, PR_VI, PR_IV };
static const char *const pair_names[] = {"int", "vec", "vec->int", "int->vec"};

static const vtype *pair_send(int pr)
{
    return pr == PR_VV || pr == PR_VI ? &t_vec : &t_int;
}

static const vtype *pair_recv(int pr)
{
    return pr == PR_VV || pr == PR_IV ? &t_vec : &t_int;
}

/* alltoallw: the type of the messages between ranks i and k, and the other one. */
static const vtype *w_type(int i, int k)
{
    return (i + k) % 2 ? &t_vec : &t_int;
}

static const vtype *other_type(const vtype *t)
{
    return t == &t_vec ? &t_int : &t_vec;
}

/* ---- Cases ---- */

/* A data-movement case; for alltoallw pair is 0 (same type at both ends) or 1 (the other). */
typedef struct spec {
    int dist, place, pair, inplace, scale;
} spec;

static const spec move_specs[] = {
    {D_RANDOM, P_SHUFFLED, PR_II, 0, 5}, {D_RANDOM, P_REVERSED, PR_VV, 1, 5},
    {D_ONE, P_PACKED, PR_IV, 0, 40},     {D_ZERO, P_REVERSED, PR_II, 0, 5},
    {D_RANDOM, P_PACKED, PR_VI, 0, 40},  {D_ONE, P_SHUFFLED, PR_II, 1, 5},
    {D_ZERO, P_PACKED, PR_VV, 1, 1},     {D_RANDOM, P_SHUFFLED, PR_IV, 1, 1}};

static const spec w_specs[] = {{D_RANDOM, P_SHUFFLED, 0, 0, 5}, {D_RANDOM, P_REVERSED, 0, 1, 5},
                               {D_ONE, P_PACKED, 1, 0, 40},     {D_ZERO, P_SHUFFLED, 0, 0, 5},
                               {D_RANDOM, P_PACKED, 1, 0, 40},  {D_ONE, P_REVERSED, 0, 1, 5},
                               {D_ZERO, P_PACKED, 0, 1, 1},     {D_RANDOM, P_REVERSED, 1, 0, 1}};

/* A scan case: the matrix product (mat) or MPI_SUM on MPI_INT. */
typedef struct sspec {
    int mat, count, inplace;
} sspec;

static const sspec scan_specs[] = {{0, 0, 0}, {0, 1, 1}, {0, 1000, 0}, {0, 1000, 1},
                                   {1, 0, 1}, {1, 1, 0}, {1, 1000, 1}, {1, 1000, 0}};

enum {
    NMOVE = (int)(sizeof move_specs / sizeof move_specs[0]),
    NW = (int)(sizeof w_specs / sizeof w_specs[0]),
    NSCAN = (int)(sizeof scan_specs / sizeof scan_specs[0])
};

static int nspecs(vine_coll c)
{
    return is_scan(c) ? NSCAN : c == VINE_COLL_ALLTOALLW ? NW : NMOVE;
}

/* The blocks of one buffer: displacements in elements of the type, or in bytes (alltoallw). */
typedef struct side {
    int n, bytes;
    int cnt[MAXP], dsp[MAXP];
    MPI_Count ccnt[MAXP];
    MPI_Aint cdsp[MAXP];
    const vtype *t[MAXP];
    MPI_Datatype ty[MAXP];
} side;

/* A buffer between MT_GUARD bytes on each side; ptr is the address the calls get. */
typedef struct vbuf {
    unsigned char *base, *ptr;
    size_t total;
} vbuf;

typedef struct job {
    vine_coll coll;
    const char *algo;
    int form, root, k; /* k: the index of the case in its table */
    spec sp;
    sspec ss;
    const mt_type *mt; /* scans: the type and the op */
    const mt_op *op;
    uint64_t seed;
    int holder; /* D_ONE: the rank holding everything */
    side s, r;
    vbuf send, keep, got, mpi, init;
    const void *sarg; /* the send and receive arguments (MPI_IN_PLACE or the buffers) */
    void *rarg;
    size_t total; /* units moved by all ranks together: 0 runs no algorithm */
    MPI_Request q;
    char label[48], tname[64], name[160];
} job;

/* Units in the block rank i gives rank k (k = -1: rank i's one block). */
static int units(const job *j, int i, int k)
{
    int c = j->sp.scale;
    uint64_t h = mix(j->seed ^ ((uint64_t)(i + 1) << 20) ^ (uint64_t)(k + 2));
    switch (j->sp.dist) {
    case D_RANDOM:
        return h % 4 == 0 ? 0 : (int)((h >> 8) % (uint64_t)(2 * c + 1));
    case D_ONE:
        return i != j->holder ? 0 : k < 0 ? c * mt_size : 2 * c;
    default:
        return 0;
    }
}

/*
 * The same, symmetric (alltoallv and alltoallw in place).  Forced to "mpi",
 * every rank's own block holds a unit: Open MPI 4.1.4's libnbc returns a
 * request that does nothing, without taking the communicator's next tag, on
 * a rank whose blocks are all empty in an in-place MPI_Ialltoallv or
 * MPI_Ialltoallw, so that the next nonblocking collective on the
 * communicator hangs or fails with MPI_ERR_TRUNCATE where another rank moved
 * data.
 */
static int units_sym(const job *j, int i, int k)
{
    if (j->sp.dist == D_ONE)
        return i == j->holder || k == j->holder ? 2 * j->sp.scale : 0;
    int u = i < k ? units(j, i, k) : units(j, k, i);
    if (i == k && u == 0 && j->sp.dist == D_RANDOM && strcmp(j->algo, "mpi") == 0)
        u = 1;
    return u;
}

static void side_init(side *s, int n, int bytes, const vtype *t)
{
    s->n = n;
    s->bytes = bytes;
    for (int i = 0; i < n; i++) {
        s->cnt[i] = s->dsp[i] = 0;
        s->t[i] = t;
        s->ty[i] = t->type;
    }
}

static void side_set(side *s, int i, const vtype *t, int u)
{
    s->t[i] = t;
    s->ty[i] = t->type;
    s->cnt[i] = u * t->per_unit;
}

/*
 * Places the blocks of a side of p entries (which: 0 receive, 1 send): in
 * rank order, or reversed or shuffled after a leading gap, with a gap of 0
 * to 3 elements (or 4-byte words) after each block; a one-entry side holds
 * its block at 0.  Then the MPI_Count and MPI_Aint tables of the _c forms.
 */
static void place(side *s, const job *j, int which)
{
    int order[MAXP] = {0}, n = s->n, mode = n > 1 ? j->sp.place : P_PACKED;
    uint64_t h = mix(j->seed ^ (uint64_t)(which + 1) * 0x5851F42D4C957F2Du ^ (uint64_t)mt_rank);
    for (int k = 0; k < n; k++)
        order[k] = mode == P_REVERSED ? n - 1 - k : k;
    if (mode == P_SHUFFLED) {
        for (int k = n - 1; k > 0; k--) {
            h = mix(h);
            int m = (int)(h % (uint64_t)(k + 1)), x = order[k];
            order[k] = order[m];
            order[m] = x;
        }
        if (order[0] == 0 && order[n - 1] == n - 1) { /* not rank order: swap the ends */
            order[0] = n - 1;
            order[n - 1] = 0;
        }
    }
    int at = mode == P_PACKED ? 0 : 1;
    for (int k = 0; k < n; k++) {
        int i = order[k], gap = mode == P_PACKED ? 0 : (int)(mix(h + (uint64_t)i) % 4);
        if (s->bytes) {
            s->dsp[i] = 4 * at;
            at += s->cnt[i] * (int)s->t[i]->extent / 4 + gap;
        } else {
            s->dsp[i] = at;
            at += s->cnt[i] + gap;
        }
    }
    for (int i = 0; i < n; i++) {
        s->ccnt[i] = s->cnt[i];
        s->cdsp[i] = s->dsp[i];
    }
}

/* ---- Buffers ---- */

/* Allocates room for bytes [lo, hi) relative to ptr, with the guards. */
static void vbuf_alloc(vbuf *b, MPI_Aint lo, MPI_Aint hi)
{
    b->total = (size_t)(hi - lo) + 2 * MT_GUARD;
    b->base = mt_xmalloc(b->total);
    b->ptr = b->base + MT_GUARD - lo;
    memset(b->base, 0, b->total);
}

/* Room for the blocks of s (none: s NULL). */
static void vbuf_side(vbuf *b, const side *s)
{
    MPI_Aint lo = 0, hi = 0;
    for (int i = 0; s && i < s->n; i++) {
        if (s->cnt[i] == 0)
            continue;
        const vtype *t = s->t[i];
        MPI_Aint at = s->bytes ? s->dsp[i] : (MPI_Aint)s->dsp[i] * t->extent;
        MPI_Aint l = at + t->true_lb, e = at + (s->cnt[i] - 1) * t->extent + t->true_lb;
        e += t->true_extent;
        lo = l < lo ? l : lo;
        hi = e > hi ? e : hi;
    }
    vbuf_alloc(b, lo, hi);
}

/* A buffer of the same shape as s. */
static void vbuf_like(vbuf *d, const vbuf *s)
{
    d->total = s->total;
    d->base = mt_xmalloc(s->total);
    d->ptr = d->base + (s->ptr - s->base);
    memcpy(d->base, s->base, s->total);
}

static void vbuf_copy(vbuf *d, const vbuf *s)
{
    memcpy(d->base, s->base, s->total);
}

/* Fills every byte, guards included, with a pattern drawn from seed. */
static void vbuf_pattern(vbuf *b, uint64_t seed)
{
    uint64_t h = 0;
    for (size_t i = 0; i < b->total; i++) {
        if (i % 8 == 0)
            h = mix(seed + i);
        b->base[i] = (unsigned char)(h >> (8 * (i % 8)));
    }
}

/*
 * Fails unless the bytes of got in [from, to) relative to ptr (the whole
 * buffer: from > to) are those of want; init is what both held before.
 */
static int same_bytes(const vbuf *got, const vbuf *want, const vbuf *init, const char *what,
                      const char *whose, MPI_Aint from, MPI_Aint to)
{
    MPI_Aint off = got->ptr - got->base;
    for (size_t i = 0; i < got->total; i++) {
        MPI_Aint o = (MPI_Aint)i - off;
        if (from <= to && (o < from || o >= to))
            continue;
        if (got->base[i] == want->base[i])
            continue;
        const char *where = i < MT_GUARD || i >= got->total - MT_GUARD ? "guard" : "buffer";
        if (init == want)
            mt_fail("%s: %s byte at offset %ld: vine 0x%02x, %s 0x%02x", what, where, (long)o,
                    got->base[i], whose, want->base[i]);
        else
            mt_fail("%s: %s byte at offset %ld: vine 0x%02x, %s 0x%02x, before 0x%02x", what, where,
                    (long)o, got->base[i], whose, want->base[i], init->base[i]);
        return 0;
    }
    return 1;
}

/* ---- One job: a case of one collective in one form ---- */

static void job_names(job *j)
{
    snprintf(j->label, sizeof j->label, form_fmt[j->form], vine_coll_name(j->coll));
    if (is_scan(j->coll))
        snprintf(j->tname, sizeof j->tname, "%s", j->mt->name);
    else
        snprintf(j->tname, sizeof j->tname, "%s/%s/%s",
                 j->coll == VINE_COLL_ALLTOALLW ? (j->sp.pair ? "int|vec/other" : "int|vec/same")
                                                : pair_names[j->sp.pair],
                 dist_names[j->sp.dist], place_names[j->sp.place]);
    snprintf(j->name, sizeof j->name, "%s algo=%s case %d (%s%s) root=%d", j->label, j->algo, j->k,
             j->tname, (is_scan(j->coll) ? j->ss.inplace : j->sp.inplace) ? " in place" : "",
             j->root);
}

/* The tables and buffers of the data-movement collectives. */
static void setup_move(job *j)
{
    int p = mt_size, me = mt_rank, ip = j->sp.inplace, at_root = me == j->root;
    int w = j->coll == VINE_COLL_ALLTOALLW, has_send = 1, has_recv = 1;
    const vtype *st = pair_send(j->sp.pair), *rt = pair_recv(j->sp.pair);
    side *s = &j->s, *r = &j->r;
    j->total = 0;
    switch (j->coll) {
    case VINE_COLL_ALLGATHERV:
    case VINE_COLL_GATHERV:
        side_init(s, 1, 0, st);
        side_init(r, p, 0, rt);
        for (int i = 0; i < p; i++) {
            side_set(r, i, rt, units(j, i, -1));
            j->total += (size_t)units(j, i, -1);
        }
        side_set(s, 0, st, units(j, me, -1));
        if (j->coll == VINE_COLL_GATHERV) {
            has_send = !(ip && at_root);
            has_recv = at_root;
        } else {
            has_send = !ip;
        }
        break;
    case VINE_COLL_SCATTERV:
        side_init(s, p, 0, st);
        side_init(r, 1, 0, rt);
        for (int i = 0; i < p; i++) {
            side_set(s, i, st, units(j, i, -1));
            j->total += (size_t)units(j, i, -1);
        }
        side_set(r, 0, rt, units(j, me, -1));
        has_send = at_root;
        has_recv = !(ip && at_root);
        break;
    default: /* alltoallv, alltoallw */
        side_init(s, p, w, w ? &t_int : st);
        side_init(r, p, w, w ? &t_int : rt);
        for (int k = 0; k < p; k++) {
            int us = ip ? units_sym(j, me, k) : units(j, me, k);
            int ur = ip ? units_sym(j, k, me) : units(j, k, me);
            const vtype *ts = w ? w_type(me, k) : st, *tr = w ? w_type(k, me) : rt;
            if (w && j->sp.pair)
                tr = other_type(tr);
            side_set(s, k, ts, us);
            side_set(r, k, tr, ur);
            for (int i = 0; i < p; i++)
                j->total += (size_t)(ip ? units_sym(j, i, k) : units(j, i, k));
        }
        has_send = !ip;
        break;
    }
    place(s, j, 1);
    place(r, j, 0);
    vbuf_side(&j->send, has_send ? s : NULL);
    vbuf_side(&j->got, has_recv ? r : NULL);
    j->sarg = j->send.ptr;
    j->rarg = j->got.ptr;
    if (ip && (j->coll == VINE_COLL_ALLGATHERV || j->coll == VINE_COLL_ALLTOALLV ||
               j->coll == VINE_COLL_ALLTOALLW || (j->coll == VINE_COLL_GATHERV && at_root)))
        j->sarg = MPI_IN_PLACE;
    if (ip && j->coll == VINE_COLL_SCATTERV && at_root)
        j->rarg = MPI_IN_PLACE;
}

static void setup_scan(job *j)
{
    j->mt = j->ss.mat ? mt_type_mat() : mt_type_int();
    j->op = j->ss.mat ? mt_op_matmul() : mt_op_sum();
    MPI_Aint bytes = (MPI_Aint)j->ss.count * (MPI_Aint)j->mt->extent;
    vbuf_alloc(&j->send, 0, bytes);
    vbuf_alloc(&j->got, 0, bytes);
    j->sarg = j->ss.inplace ? MPI_IN_PLACE : (const void *)j->send.ptr;
    j->rarg = j->got.ptr;
    j->total = (size_t)j->ss.count;
}

/* Builds job k of coll's table for algo and form, the root given (-1 for none). */
static void job_init(job *j, vine_coll coll, const char *algo, int form, int k, int root)
{
    memset(j, 0, sizeof *j);
    j->coll = coll;
    j->algo = algo;
    j->form = form;
    j->k = k;
    j->root = is_rooted(coll) ? root : -1;
    j->q = MPI_REQUEST_NULL;
    j->seed = mix(base_seed ^ mix(++case_no));
    j->holder = (int)(j->seed % (uint64_t)mt_size);
    if (is_scan(coll)) {
        j->ss = scan_specs[k];
        setup_scan(j);
    } else {
        j->sp = coll == VINE_COLL_ALLTOALLW ? w_specs[k] : move_specs[k];
        setup_move(j);
    }
    vbuf_like(&j->keep, &j->send);
    vbuf_like(&j->mpi, &j->got);
    vbuf_like(&j->init, &j->got);
    job_names(j);
}

static void job_free(job *j)
{
    free(j->send.base);
    free(j->keep.base);
    free(j->got.base);
    free(j->mpi.base);
    free(j->init.base);
}

static void job_begin(const job *j)
{
    int sc = is_scan(j->coll);
    mt_case c = {j->label,
                 j->algo,
                 j->tname,
                 sc ? j->op->name : "-",
                 sc ? j->ss.count : j->sp.scale,
                 j->root,
                 sc ? j->ss.inplace : j->sp.inplace};
    mt_begin(&c);
}

/* The contents of start number start (0 or 1): new bytes at the same addresses. */
static void job_fill(job *j, int start)
{
    uint64_t s = mix(j->seed + 7919u * (uint64_t)(start + 1)) ^ ((uint64_t)mt_rank << 40);
    vbuf_pattern(&j->send, mix(s + 1));
    vbuf_pattern(&j->got, mix(s + 2));
    if (is_scan(j->coll)) {
        size_t n = (size_t)j->ss.count;
        mt_fill(j->mt, j->op, j->send.ptr, n, mt_rank, (size_t)start * 1009);
        if (j->ss.inplace)
            memcpy(j->got.ptr, j->send.ptr, n * j->mt->extent);
    }
    vbuf_copy(&j->keep, &j->send);
    vbuf_copy(&j->mpi, &j->got);
    vbuf_copy(&j->init, &j->got);
}

/* The MPI library's blocking collective into j->mpi (scans: never in place). */
static void job_reference(job *j)
{
    MPI_Comm w = MPI_COMM_WORLD;
    const side *s = &j->s, *r = &j->r;
    const void *sb = j->sarg;
    unsigned char *m = j->mpi.ptr;
    void *rb = j->rarg == MPI_IN_PLACE ? MPI_IN_PLACE : (void *)m;
    int rc = MPI_SUCCESS, n = j->ss.count;
    switch (j->coll) {
    case VINE_COLL_ALLGATHERV:
        if (!mt_self_allgatherv_broken())
            rc = PMPI_Allgatherv(sb, s->cnt[0], s->ty[0], m, r->cnt, r->dsp, r->ty[0], w);
        else if (sb != MPI_IN_PLACE)
            rc = PMPI_Sendrecv(sb, s->cnt[0], s->ty[0], 0, 0, m + r->dsp[0] * r->t[0]->extent,
                               r->cnt[0], r->ty[0], 0, 0, w, MPI_STATUS_IGNORE);
        break;
    case VINE_COLL_ALLTOALLV:
        rc = PMPI_Alltoallv(sb, s->cnt, s->dsp, s->ty[0], m, r->cnt, r->dsp, r->ty[0], w);
        break;
    case VINE_COLL_ALLTOALLW:
        if (!mt_self_alltoallw_broken())
            rc = PMPI_Alltoallw(sb, s->cnt, s->dsp, s->ty, m, r->cnt, r->dsp, r->ty, w);
        else if (sb != MPI_IN_PLACE)
            rc = PMPI_Sendrecv((const char *)sb + s->dsp[0], s->cnt[0], s->ty[0], 0, 0,
                               m + r->dsp[0], r->cnt[0], r->ty[0], 0, 0, w, MPI_STATUS_IGNORE);
        break;
    case VINE_COLL_GATHERV:
        rc = PMPI_Gatherv(sb, s->cnt[0], s->ty[0], m, r->cnt, r->dsp, r->ty[0], j->root, w);
        break;
    case VINE_COLL_SCATTERV:
        rc = PMPI_Scatterv(sb, s->cnt, s->dsp, s->ty[0], rb, r->cnt[0], r->ty[0], j->root, w);
        break;
    case VINE_COLL_SCAN:
        rc = PMPI_Scan(j->send.ptr, m, n, j->mt->type, j->op->op, w);
        break;
    default:
        rc = PMPI_Exscan(j->send.ptr, m, n, j->mt->type, j->op->op, w);
        break;
    }
    mt_check_rc(rc, "the MPI library's collective");
}

#define FORMS(nb, nbc, init, initc)                                                                \
    switch (j->form) {                                                                             \
    case F_NB:                                                                                     \
        return nb;                                                                                 \
    case F_NB_C:                                                                                   \
        return nbc;                                                                                \
    case F_INIT:                                                                                   \
        return init;                                                                               \
    default:                                                                                       \
        return initc;                                                                              \
    }

/* vine's call in the job's form: the nonblocking call, or the persistent request's creation. */
static int job_call(job *j)
{
    MPI_Comm w = MPI_COMM_WORLD;
    MPI_Info in = MPI_INFO_NULL;
    MPI_Request *q = &j->q;
    const side *s = &j->s, *r = &j->r;
    const void *sb = j->sarg;
    void *rb = j->rarg;
    int root = j->root, n = j->ss.count;
    MPI_Count nc = j->ss.count;
    MPI_Datatype t = j->mt ? j->mt->type : MPI_DATATYPE_NULL;
    MPI_Op op = j->op ? j->op->op : MPI_OP_NULL;
    switch (j->coll) {
    case VINE_COLL_ALLGATHERV:
        FORMS(vine_iallgatherv(sb, s->cnt[0], s->ty[0], rb, r->cnt, r->dsp, r->ty[0], w, q),
              vine_iallgatherv_c(sb, s->ccnt[0], s->ty[0], rb, r->ccnt, r->cdsp, r->ty[0], w, q),
              vine_allgatherv_init(sb, s->cnt[0], s->ty[0], rb, r->cnt, r->dsp, r->ty[0], w, in, q),
              vine_allgatherv_init_c(sb, s->ccnt[0], s->ty[0], rb, r->ccnt, r->cdsp, r->ty[0], w,
                                     in, q))
    case VINE_COLL_ALLTOALLV:
        FORMS(
            vine_ialltoallv(sb, s->cnt, s->dsp, s->ty[0], rb, r->cnt, r->dsp, r->ty[0], w, q),
            vine_ialltoallv_c(sb, s->ccnt, s->cdsp, s->ty[0], rb, r->ccnt, r->cdsp, r->ty[0], w, q),
            vine_alltoallv_init(sb, s->cnt, s->dsp, s->ty[0], rb, r->cnt, r->dsp, r->ty[0], w, in,
                                q),
            vine_alltoallv_init_c(sb, s->ccnt, s->cdsp, s->ty[0], rb, r->ccnt, r->cdsp, r->ty[0], w,
                                  in, q))
    case VINE_COLL_ALLTOALLW:
        FORMS(vine_ialltoallw(sb, s->cnt, s->dsp, s->ty, rb, r->cnt, r->dsp, r->ty, w, q),
              vine_ialltoallw_c(sb, s->ccnt, s->cdsp, s->ty, rb, r->ccnt, r->cdsp, r->ty, w, q),
              vine_alltoallw_init(sb, s->cnt, s->dsp, s->ty, rb, r->cnt, r->dsp, r->ty, w, in, q),
              vine_alltoallw_init_c(sb, s->ccnt, s->cdsp, s->ty, rb, r->ccnt, r->cdsp, r->ty, w, in,
                                    q))
    case VINE_COLL_GATHERV:
        FORMS(vine_igatherv(sb, s->cnt[0], s->ty[0], rb, r->cnt, r->dsp, r->ty[0], root, w, q),
              vine_igatherv_c(sb, s->ccnt[0], s->ty[0], rb, r->ccnt, r->cdsp, r->ty[0], root, w, q),
              vine_gatherv_init(sb, s->cnt[0], s->ty[0], rb, r->cnt, r->dsp, r->ty[0], root, w, in,
                                q),
              vine_gatherv_init_c(sb, s->ccnt[0], s->ty[0], rb, r->ccnt, r->cdsp, r->ty[0], root, w,
                                  in, q))
    case VINE_COLL_SCATTERV:
        FORMS(
            vine_iscatterv(sb, s->cnt, s->dsp, s->ty[0], rb, r->cnt[0], r->ty[0], root, w, q),
            vine_iscatterv_c(sb, s->ccnt, s->cdsp, s->ty[0], rb, r->ccnt[0], r->ty[0], root, w, q),
            vine_scatterv_init(sb, s->cnt, s->dsp, s->ty[0], rb, r->cnt[0], r->ty[0], root, w, in,
                               q),
            vine_scatterv_init_c(sb, s->ccnt, s->cdsp, s->ty[0], rb, r->ccnt[0], r->ty[0], root, w,
                                 in, q))
    case VINE_COLL_SCAN:
        FORMS(vine_iscan(sb, rb, n, t, op, w, q), vine_iscan_c(sb, rb, nc, t, op, w, q),
              vine_scan_init(sb, rb, n, t, op, w, in, q),
              vine_scan_init_c(sb, rb, nc, t, op, w, in, q))
    default:
        FORMS(vine_iexscan(sb, rb, n, t, op, w, q), vine_iexscan_c(sb, rb, nc, t, op, w, q),
              vine_exscan_init(sb, rb, n, t, op, w, in, q),
              vine_exscan_init_c(sb, rb, nc, t, op, w, in, q))
    }
}

static int persistent(const job *j)
{
    return j->form == F_INIT || j->form == F_INIT_C;
}

/* Makes the call and checks what it gave back and which algorithm serves it. */
static int job_post(job *j)
{
    int rc = job_call(j);
    ncalls++;
    if (rc != MPI_SUCCESS) {
        mt_fail("%s: the call returned %d (%s)", j->name, rc, vine_error_string(rc));
        return 0;
    }
    if (j->q == MPI_REQUEST_NULL || !vine_is_request(j->q)) {
        mt_fail("%s: the call gave no vine request", j->name);
        return 0;
    }
    /* A request must not wait for the root's table: binomial gives way to linear. */
    const char *want = j->algo;
    if (is_rooted(j->coll) && strcmp(want, "binomial") == 0)
        want = "linear";
    mt_check_served(j->coll, want, j->op ? j->op->commutative : 1, j->total);
    return 1;
}

/* After a completion: the status and what became of the request. */
static void job_after(job *j, const MPI_Status *st, int start)
{
    char what[256];
    snprintf(what, sizeof what, "%s, start %d: completion", j->name, start + 1);
    mt_check_empty_status(st, what);
    if (persistent(j) ? j->q == MPI_REQUEST_NULL || !vine_is_request(j->q)
                      : j->q != MPI_REQUEST_NULL)
        mt_fail("%s: after completion the request is %s", what,
                j->q == MPI_REQUEST_NULL ? "null" : "set");
}

/* Compares vine's buffers with MPI's after start number start. */
static void job_check(job *j, int start)
{
    char what[256];
    snprintf(what, sizeof what, "%s, start %d: receive buffer", j->name, start + 1);
    if (!is_scan(j->coll)) {
        same_bytes(&j->got, &j->mpi, &j->init, what, "MPI", 1, 0);
    } else {
        size_t n = (size_t)j->ss.count, bytes = n * j->mt->extent;
        int ex = j->coll == VINE_COLL_EXSCAN;
        if (!ex || mt_rank > 0) {
            same_bytes(&j->got, &j->mpi, &j->init, what, "MPI", 1, 0);
        } else {
            /* Rank 0's exscan result is undefined: only the bytes around it. */
            same_bytes(&j->got, &j->init, &j->init, what, "before", -MT_GUARD, 0);
            same_bytes(&j->got, &j->init, &j->init, what, "before", (MPI_Aint)bytes,
                       (MPI_Aint)bytes + MT_GUARD);
        }
        if (j->ss.mat && n > 0 && (!ex || mt_rank > 0)) {
            unsigned char *ref = mt_xmalloc(bytes);
            mt_matmul_ref(ref, n, ex ? mt_rank : mt_rank + 1, (size_t)start * 1009);
            snprintf(what, sizeof what, "%s, start %d: against the rank-ordered product", j->name,
                     start + 1);
            mt_check_equal(j->mt, j->got.ptr, ref, n, what);
            free(ref);
        }
    }
    snprintf(what, sizeof what, "%s, start %d: send buffer", j->name, start + 1);
    same_bytes(&j->send, &j->keep, &j->keep, what, "before", 1, 0);
}

/* One job on its own: the call, one start (two when persistent), each checked. */
static void run_job(job *j, int *kc)
{
    job_begin(j);
    for (int start = 0; start < 1 + persistent(j); start++) {
        job_fill(j, start);
        job_reference(j);
        if (start == 0 && !job_post(j))
            break;
        if (persistent(j) && !mt_check_rc(vine_start(&j->q), "vine_start"))
            break;
        MPI_Status st;
        if (!mt_check_rc(mt_complete(&j->q, (*kc)++, &st, DEADLINE_S), "completion"))
            break;
        job_after(j, &st, start);
        job_check(j, start);
    }
    if (persistent(j) && j->q != MPI_REQUEST_NULL) {
        mt_check_rc(vine_request_free(&j->q), "vine_request_free");
        if (j->q != MPI_REQUEST_NULL)
            mt_fail("%s: vine_request_free left the request set", j->name);
    }
}

/* ---- The sweep: every algorithm, every form, every case ---- */

/* Whether algo of coll is run: not alltoallw's "mpi" where the library is wrong on one process. */
static int algo_runs(vine_coll coll, const char *algo)
{
    return !(coll == VINE_COLL_ALLTOALLW && strcmp(algo, "mpi") == 0 && mt_self_alltoallw_broken());
}

static void sweep(vine_coll coll, int *kc)
{
    int p = mt_size;
    for (int a = 0; a < mt_nalgos(coll); a++) {
        const char *algo = mt_algo_at(coll, a);
        if (!algo_runs(coll, algo))
            continue;
        double t0 = MPI_Wtime();
        mt_select(coll, algo);
        for (int form = 0; form < NFORMS; form++)
            for (int k = 0; k < nspecs(coll); k++) {
                /* Case 0 at every root (three of them beyond 8 ranks). */
                for (int root = 0; root < p; root++) {
                    int all = is_rooted(coll) && k == 0 &&
                              (p <= 8 || root == 0 || root == p / 2 || root == p - 1);
                    if (!all && root != (k + a + form) % p)
                        continue;
                    job j;
                    job_init(&j, coll, algo, form, k, root);
                    run_job(&j, kc);
                    job_free(&j);
                }
            }
        if (mt_rank == 0 && getenv("VINE_TEST_NBV_TIME"))
            fprintf(stderr, "nb_v: %s %s: %.2f s\n", vine_coll_name(coll), algo, MPI_Wtime() - t0);
    }
    mt_select(coll, NULL);
}

/* ---- All seven outstanding at once ---- */

/* Completes the n requests of q: vine_waitall (how 0) or vine_waitany until none is left. */
static void complete_many(MPI_Request *q, int n, int how, MPI_Status *st, const char *what)
{
    if (how == 0) {
        mt_check_rc(vine_waitall(n, q, st), "vine_waitall");
        return;
    }
    int done[NCOLLS] = {0};
    for (int k = 0; k < n; k++) {
        int idx = -1;
        MPI_Status one;
        if (!mt_check_rc(vine_waitany(n, q, &idx, &one), "vine_waitany"))
            return;
        if (idx < 0 || idx >= n || done[idx]) {
            mt_fail("%s: vine_waitany gave index %d at completion %d of %d", what, idx, k + 1, n);
            return;
        }
        done[idx] = 1;
        st[idx] = one;
    }
    int idx = 0;
    MPI_Status one;
    if (mt_check_rc(vine_waitany(n, q, &idx, &one), "vine_waitany") && idx != MPI_UNDEFINED)
        mt_fail("%s: vine_waitany on completed requests gave index %d", what, idx);
}

/*
 * Round r: each collective with another algorithm, form and case (round 0:
 * every one nonblocking with int counts, "auto"); the references first,
 * then the seven calls (persistent ones started together by vine_startall),
 * then the completion of all in an order other than that of the calls.
 * Persistent requests are then refilled and started together again.
 */
static void concurrent_round(int r)
{
    static char label[64];
    job *js = mt_xmalloc(NCOLLS * sizeof *js);
    int order[NCOLLS], posted[NCOLLS] = {0}, p = mt_size;
    for (int ci = 0; ci < NCOLLS; ci++) {
        vine_coll coll = colls[ci];
        int na = mt_nalgos(coll); /* 0 where VINE_TEST_ALGOS names none of coll's */
        const char *algo = r == 0 || na == 0 ? "auto" : mt_algo_at(coll, (r + ci) % na);
        if (!algo || !algo_runs(coll, algo))
            algo = "auto";
        int form = r == 0 ? F_NB : (r + ci) % NFORMS;
        job_init(&js[ci], coll, algo, form, (r + 2 * ci) % nspecs(coll), (3 * r + ci) % p);
        mt_select(coll, algo);
        /* The order of the arrays: reversed, or rotated by r. */
        order[ci] = r % 2 == 0 ? NCOLLS - 1 - ci : (ci + r) % NCOLLS;
    }
    for (int start = 0; start < 2; start++) {
        MPI_Request q[NCOLLS], pq[NCOLLS];
        MPI_Status st[NCOLLS];
        int n = 0, np = 0;
        for (int ci = 0; ci < NCOLLS; ci++) {
            if (start == 0 || persistent(&js[ci])) {
                job_fill(&js[ci], start);
                job_reference(&js[ci]);
            }
        }
        snprintf(label, sizeof label, "concurrent round %d, start %d", r, start + 1);
        mt_case c = {label, "-", "-", "-", 0, -1, 0};
        mt_begin(&c);
        for (int ci = 0; ci < NCOLLS && start == 0; ci++)
            posted[ci] = job_post(&js[ci]);
        for (int k = 0; k < NCOLLS; k++) {
            job *j = &js[order[k]];
            if (!posted[order[k]] || (start == 1 && !persistent(j)))
                continue;
            q[n++] = j->q;
            if (persistent(j))
                pq[np++] = j->q;
        }
        if (n == 0)
            break;
        /* The same order on every rank, as vine requires of starts. */
        if (np > 0 && !mt_check_rc(vine_startall(np, pq), "vine_startall"))
            break;
        for (int k = 0; k < n; k++)
            st[k] = (MPI_Status){0};
        complete_many(q, n, (r + start) % 2, st, label);
        for (int k = 0, m = 0; k < NCOLLS; k++) {
            job *j = &js[order[k]];
            if (!posted[order[k]] || (start == 1 && !persistent(j)))
                continue;
            j->q = q[m];
            job_begin(j);
            job_after(j, &st[m], start);
            job_check(j, start);
            m++;
        }
        if (np == 0)
            break;
    }
    for (int ci = 0; ci < NCOLLS; ci++) {
        if (persistent(&js[ci]) && js[ci].q != MPI_REQUEST_NULL)
            mt_check_rc(vine_request_free(&js[ci].q), "vine_request_free");
        mt_select(colls[ci], NULL);
        job_free(&js[ci]);
    }
    free(js);
}

/* ---- Errors ---- */

static int error_class(int rc)
{
    int cls = rc;
    if (rc != MPI_SUCCESS && MPI_Error_class(rc, &cls) != MPI_SUCCESS)
        cls = -1;
    return cls;
}

/* A request that is not MPI_REQUEST_NULL, which a failing call must overwrite. */
static MPI_Request sentinel;

static void expect_count_error(const char *what, int rc, MPI_Request *q)
{
    mt_case c = {what, "auto", "int", "-", -1, -1, 0};
    mt_begin(&c);
    if (error_class(rc) != MPI_ERR_COUNT)
        mt_fail("returned %d (class %d: %s), expected MPI_ERR_COUNT", rc, error_class(rc),
                vine_error_string(rc));
    if (*q != MPI_REQUEST_NULL) {
        mt_fail("the request was not set to MPI_REQUEST_NULL");
        if (*q != sentinel && vine_is_request(*q))
            vine_wait(q, MPI_STATUS_IGNORE);
    }
    *q = sentinel;
}

/*
 * Negative counts on every rank (a scan count, a receive count of
 * allgatherv, a send count of alltoallw, gatherv's and scatterv's own
 * count), then an allgatherv that must still match.
 */
static void errors(void)
{
    MPI_Comm w = MPI_COMM_WORLD;
    MPI_Info in = MPI_INFO_NULL;
    int p = mt_size, a[MAXP], b[MAXP], cnt[MAXP], dsp[MAXP], bad[MAXP];
    MPI_Count ccnt[MAXP];
    MPI_Aint cdsp[MAXP];
    MPI_Datatype ty[MAXP];
    MPI_Request q;
    MPI_Recv_init(a, 1, MPI_INT, 0, 0, w, &sentinel);
    for (int i = 0; i < p; i++) {
        a[i] = mt_rank * 100 + i;
        b[i] = -1;
        cnt[i] = bad[i] = 1;
        dsp[i] = i;
        ccnt[i] = 1;
        cdsp[i] = (MPI_Aint)(i * sizeof(int));
        ty[i] = MPI_INT;
    }
    bad[p - 1] = -1;
    ccnt[0] = -1;
    q = sentinel;
    expect_count_error("iscan count -1", vine_iscan(a, b, -1, MPI_INT, MPI_SUM, w, &q), &q);
    expect_count_error("exscan_init_c count -1",
                       vine_exscan_init_c(a, b, -1, MPI_INT, MPI_SUM, w, in, &q), &q);
    expect_count_error(
        "iallgatherv in place, recvcounts[p-1] -1",
        vine_iallgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, b, bad, dsp, MPI_INT, w, &q), &q);
    expect_count_error("alltoallw_init_c sendcounts[0] -1",
                       vine_alltoallw_init_c(a, ccnt, cdsp, ty, b, ccnt, cdsp, ty, w, in, &q), &q);
    expect_count_error("igatherv_c sendcount -1",
                       vine_igatherv_c(a, -1, MPI_INT, b, ccnt, cdsp, MPI_INT, 0, w, &q), &q);
    expect_count_error("scatterv_init recvcount -1",
                       vine_scatterv_init(a, cnt, dsp, MPI_INT, b, -1, MPI_INT, 0, w, in, &q), &q);
    MPI_Request_free(&sentinel);
    mt_case c = {"iallgatherv after the errors", "auto", "int", "-", 1, -1, 0};
    mt_begin(&c);
    if (mt_check_rc(vine_iallgatherv(&a[0], 1, MPI_INT, b, cnt, dsp, MPI_INT, w, &q),
                    "vine_iallgatherv") &&
        mt_check_rc(vine_wait(&q, MPI_STATUS_IGNORE), "vine_wait"))
        for (int i = 0; i < p; i++)
            if (b[i] != i * 100) {
                mt_fail("element %d is %d, expected %d", i, b[i], i * 100);
                break;
            }
}

/* ---- main ---- */

static void init_seed(void)
{
    const char *v = getenv("VINE_TEST_SEED");
    unsigned long long s = v && *v ? strtoull(v, NULL, 0) : 20250704u;
    MPI_Bcast(&s, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
    base_seed = s;
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "nb_v");
    if (mt_size > MAXP) {
        fprintf(stderr, "nb_v: at most %d ranks\n", MAXP);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    init_seed();
    /* 2 ints at 0 and 12 bytes, extent 20: holes inside and after each element. */
    MPI_Datatype v2, vec;
    MPI_Type_vector(2, 1, 3, MPI_INT, &v2);
    MPI_Type_create_resized(v2, 0, 5 * (MPI_Aint)sizeof(int), &vec);
    MPI_Type_commit(&vec);
    MPI_Type_free(&v2);
    set_vtype(&t_int, "int", MPI_INT, 2);
    set_vtype(&t_vec, "vec", vec, 1);
    /* 1000 ints are then several segments where an algorithm pipelines. */
    if (vine_set_segment_size(SEGMENT_BYTES) != MPI_SUCCESS) {
        fprintf(stderr, "nb_v: vine_set_segment_size failed\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    const char *only = getenv("VINE_TEST_NBV_COLL");
    int kc = 0;
    double t0 = MPI_Wtime();
    for (int ci = 0; ci < NCOLLS; ci++)
        if (!only || strcmp(only, vine_coll_name(colls[ci])) == 0)
            sweep(colls[ci], &kc);
    if (!only) {
        for (int r = 0; r < NROUNDS; r++)
            concurrent_round(r);
        errors();
    }
    if (mt_rank == 0 && getenv("VINE_TEST_NBV_TIME"))
        fprintf(stderr, "nb_v: %ld vine calls in %.1f s\n", ncalls, MPI_Wtime() - t0);
    MPI_Type_free(&vec);
    return mt_finish();
}
