/*
 * The irregular data-movement collectives of include/vine.h (allgatherv,
 * alltoallv, alltoallw, gatherv, scatterv) and their MPI_Count variants.
 * Like the regular ones (coll_move.c) their schedules run on bytes.  A side
 * whose blocks all have predefined types of size equal to extent runs on
 * the user's memory: its tables are the blocks' byte offsets from the lowest
 * block.  Any other side is packed block by block (MPI_Pack) into scratch in
 * rank order before the schedule and unpacked the same way after it, so the
 * schedule never touches the user's memory between blocks.  The tables are
 * part of the cache key: a repeat with the same tables runs the cached
 * schedule.  A nonblocking or persistent call (c->nb) packs a side of many
 * blocks at each start through one struct datatype over its blocks, and
 * unpacks it the same way when it completes.
 */
#include "api.h"
#include "vine.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The user's tables as given: ints, or MPI_Count and MPI_Aint (the _c forms). */
typedef struct utab {
    const int *ic;
    const MPI_Count *cc;
    const int *id;
    const MPI_Aint *ad;
} utab;

static MPI_Count ucount(const utab *u, int i)
{
    return u->ic ? (MPI_Count)u->ic[i] : u->cc[i];
}

static MPI_Aint udispl(const utab *u, int i)
{
    return u->id ? (MPI_Aint)u->id[i] : u->ad[i];
}

static int utab_given(const utab *u)
{
    return (u->ic || u->cc) && (u->id || u->ad);
}

/*
 * Up to this many blocks a side's tables (and the copies of the user's tables
 * for the MPI library) live in the call's stack frame; above it they take one
 * allocation, so the common call allocates nothing.  (Set lower at build time
 * to test the allocating path.)
 */
#ifndef VINE_V_INLINE
#define VINE_V_INLINE 64
#endif

/* One side of a call: p blocks of the user's memory and the schedule's tables for them. */
typedef struct vside {
    int p;
    char *buf;              /* the user's buffer */
    const vine_exec_type *t; /* block i's type: t[i * tstride] */
    int tstride;
    MPI_Count *n;   /* elements of block i */
    MPI_Aint *at;   /* its byte displacement from buf */
    size_t *bc;     /* the schedule's table: bytes of block i */
    size_t *bd;     /* ... and their offset in the schedule's buffer */
    size_t span;    /* bytes of the schedule's buffer */
    int raw;        /* the schedule runs on buf + lo itself */
    MPI_Aint lo;
    int big;        /* some count or displacement exceeds INT_MAX */
} vside;

/*
 * The tables of a call's sides (at most 2): in the frame up to VINE_V_INLINE
 * blocks, else in heap.  Each side's bc and then bd follow the previous
 * side's in key, so key holds every table the builder gets, one after the
 * other: the call's cache key, without a copy.  The caller sets heap to NULL
 * first; vtabs_free frees it.
 */
typedef struct vtabs {
    size_t key[4 * VINE_V_INLINE];
    MPI_Count n[2 * VINE_V_INLINE];
    MPI_Aint at[2 * VINE_V_INLINE];
    void *heap;
} vtabs;

static void vtabs_free(vtabs *m)
{
    free(m->heap);
    m->heap = NULL;
}

/*
 * Gives sides s[0], ..., s[ns - 1] p blocks each from m, their tables not
 * cleared: every caller sets them before reading them.
 */
static int vtabs_sides(vtabs *m, vside *s, int ns, int p)
{
    size_t np = (size_t)(p > 0 ? p : 1), one;
    size_t *key = m->key;
    MPI_Count *n = m->n;
    MPI_Aint *at = m->at;
    if (np > VINE_V_INLINE) {
        /* One allocation: MPI_Counts first, their alignment is the largest. */
        one = 2 * sizeof *key + sizeof *n + sizeof *at;
        if (np > SIZE_MAX / one / (size_t)ns || !(m->heap = malloc((size_t)ns * np * one)))
            return MPI_ERR_NO_MEM;
        n = m->heap;
        at = (MPI_Aint *)(n + (size_t)ns * np);
        key = (size_t *)(at + (size_t)ns * np);
    }
    for (int k = 0; k < ns; k++) {
        memset(&s[k], 0, sizeof s[k]);
        s[k].p = p;
        s[k].n = n + (size_t)k * np;
        s[k].at = at + (size_t)k * np;
        s[k].bc = key + 2 * (size_t)k * np;
        s[k].bd = s[k].bc + np;
    }
    return MPI_SUCCESS;
}

static const vine_exec_type *vtype(const vside *s, int i)
{
    return &s->t[(size_t)i * (size_t)s->tstride];
}

/*
 * The limits of vside_set for type t, found once for blocks of one type (the
 * divisions cost more than the rest of a block): counts up to maxn (those of
 * vine__call_bytes), displacements up to maxd in magnitude (any when the
 * extent is 0).  MPI_ERR_COUNT for a negative size, as vine__call_bytes.
 */
typedef struct vlim {
    const vine_exec_type *t;
    size_t maxn;
    MPI_Aint maxd;
} vlim;

static int vlim_set(vlim *l, const vine_exec_type *t)
{
    if (t->size < 0)
        return MPI_ERR_COUNT;
    l->t = t;
    l->maxn = t->size > 0 ? SIZE_MAX / (size_t)t->size : SIZE_MAX;
    l->maxd = t->extent != 0 ? PTRDIFF_MAX / (t->extent > 0 ? t->extent : -t->extent) : 0;
    return MPI_SUCCESS;
}

/*
 * Block i of s: n elements at displacement d, in units of the type's extent
 * or, with bytes set (alltoallw), in bytes.  MPI_ERR_COUNT for n < 0 or
 * sizes that do not fit; l holds the limits of the last type seen.
 */
static int vside_set(vside *s, int i, MPI_Count n, MPI_Aint d, int bytes, vlim *l)
{
    const vine_exec_type *t = vtype(s, i);
    if (n < 0)
        return MPI_ERR_COUNT;
    /* Another type of the same size and extent has the same limits. */
    int same = t == l->t || (l->t && t->size == l->t->size && t->extent == l->t->extent);
    int rc = same ? MPI_SUCCESS : vlim_set(l, t);
    if (rc || (size_t)n > l->maxn)
        return rc ? rc : MPI_ERR_COUNT;
    MPI_Aint at = d;
    if (!bytes && n > 0) {
        if (t->extent != 0 && (d > l->maxd || d < -l->maxd))
            return MPI_ERR_COUNT;
        at = d * t->extent;
    }
    s->n[i] = n;
    s->at[i] = at;
    s->bc[i] = (size_t)n * (size_t)t->size;
    s->big |= n > INT_MAX || d > INT_MAX || d < INT_MIN;
    return MPI_SUCCESS;
}

/* Fills every block of s from the user's table u. */
static int vside_fill(vside *s, const utab *u, int bytes)
{
    vlim l = {NULL, 0, 0};
    for (int i = 0; i < s->p; i++) {
        int rc = vside_set(s, i, ucount(u, i), udispl(u, i), bytes, &l);
        if (rc)
            return rc;
    }
    return MPI_SUCCESS;
}

typedef struct vspan {
    size_t off, len;
} vspan;

static int vspan_cmp(const void *x, const void *y)
{
    const vspan *a = x, *b = y;
    return a->off < b->off ? -1 : a->off > b->off;
}

/* check_overlap for blocks out of offset order: sorts them. */
static int check_overlap_sorted(const vside *s)
{
    vspan in[VINE_V_INLINE], *v = in;
    if (s->p > VINE_V_INLINE && !(v = malloc((size_t)s->p * sizeof *v)))
        return MPI_ERR_NO_MEM;
    int n = 0, rc = MPI_SUCCESS;
    for (int i = 0; i < s->p; i++)
        if (s->bc[i])
            v[n++] = (vspan){s->bd[i], s->bc[i]};
    qsort(v, (size_t)n, sizeof *v, vspan_cmp);
    for (int k = 1; k < n && rc == MPI_SUCCESS; k++)
        if (v[k].off < v[k - 1].off + v[k - 1].len)
            rc = MPI_ERR_BUFFER;
    if (v != in)
        free(v);
    return rc;
}

/*
 * MPI_ERR_BUFFER when two blocks of a raw receive side overlap (MPI forbids
 * it).  Blocks with data in increasing offset order, the usual case, need
 * only their neighbours checked; any other order is sorted first.
 */
static int check_overlap(const vside *s)
{
    vspan prev = {0, 0};
    int any = 0;
    for (int i = 0; i < s->p; i++) {
        if (!s->bc[i])
            continue;
        if (any && s->bd[i] < prev.off)
            return check_overlap_sorted(s);
        /* Sorted so far; layout checked that off + len does not wrap. */
        if (any && s->bd[i] < prev.off + prev.len)
            return MPI_ERR_BUFFER;
        prev = (vspan){s->bd[i], s->bc[i]};
        any = 1;
    }
    return MPI_SUCCESS;
}

/*
 * Lays out the schedule's buffer of s: the user's memory when every block
 * with data has a raw type and pack is 0, else packed blocks in rank order.
 * recv: check that the blocks do not overlap.
 */
static int vside_layout(vside *s, int recv, int pack)
{
    s->raw = !pack;
    s->lo = 0;
    int any = 0;
    for (int i = 0; i < s->p; i++) {
        if (!s->bc[i])
            continue;
        const vine_exec_type *t = vtype(s, i);
        s->raw &= t->dense && t->named;
        if (!any || s->at[i] < s->lo)
            s->lo = s->at[i];
        any = 1;
    }
    s->span = 0;
    for (int i = 0; i < s->p; i++) {
        if (s->raw)
            s->bd[i] = s->bc[i] ? (size_t)(s->at[i] - s->lo) : 0;
        else
            s->bd[i] = s->span;
        size_t end = s->bd[i] + s->bc[i];
        if (end < s->bd[i])
            return MPI_ERR_COUNT;
        if (end > s->span)
            s->span = end;
    }
    return recv && s->raw ? check_overlap(s) : MPI_SUCCESS;
}

/* Block i of s as a side of the byte path. */
static void vside_block(const vside *s, int i, vine_side *one)
{
    vine__side_init(one, s->buf + s->at[i], (size_t)s->n[i], vtype(s, i));
}

/* Packs every block of s (or block only, when only >= 0) into dst at its table offset. */
static int vside_pack(const vside *s, char *dst, int only, MPI_Comm comm)
{
    for (int i = 0; i < s->p; i++) {
        if (!s->bc[i] || (only >= 0 && i != only))
            continue;
        vine_side one;
        vside_block(s, i, &one);
        int rc = vine__side_pack(&one, dst + s->bd[i], comm);
        if (rc)
            return rc;
    }
    return MPI_SUCCESS;
}

static int vside_unpack(const vside *s, const char *src, MPI_Comm comm)
{
    for (int i = 0; i < s->p; i++) {
        if (!s->bc[i])
            continue;
        vine_side one;
        vside_block(s, i, &one);
        int rc = vine__side_unpack(&one, src + s->bd[i], comm);
        if (rc)
            return rc;
    }
    return MPI_SUCCESS;
}

/*
 * Every block of s with data as one side of the byte path, for a request:
 * count 1 of a struct datatype made here (*made, which the caller frees)
 * that lists the blocks in rank order, so that its packed form is the
 * layout of vside_layout.  MPI_Pack takes int sizes: MPI_ERR_COUNT for a
 * side above INT_MAX bytes.
 */
static int vside_struct(const vside *s, vine_side *one, MPI_Datatype *made)
{
    *made = MPI_DATATYPE_NULL;
    *one =
        (vine_side){.buf = s->buf, .dt = MPI_BYTE, .count = 0, .bytes = 0, .extent = 1, .raw = 1};
    if (s->span > INT_MAX)
        return MPI_ERR_COUNT;
    int n = 0;
    for (int i = 0; i < s->p; i++)
        n += s->bc[i] != 0;
    if (n == 0)
        return MPI_SUCCESS; /* nothing to move */
    MPI_Aint din[VINE_V_INLINE], *disp = din;
    MPI_Datatype tin[VINE_V_INLINE], *types = tin;
    int lin[VINE_V_INLINE], *len = lin;
    void *heap = NULL;
    if (n > VINE_V_INLINE) {
        /* One allocation, the widest members first. */
        if (!(heap = malloc((size_t)n * (sizeof *disp + sizeof *types + sizeof *len))))
            return MPI_ERR_NO_MEM;
        disp = heap;
        types = (MPI_Datatype *)(disp + n);
        len = (int *)(types + n);
    }
    for (int i = 0, k = 0; i < s->p; i++) {
        if (!s->bc[i])
            continue;
        /* n[i] <= bc[i] <= span <= INT_MAX: a block with data has size >= 1. */
        len[k] = (int)s->n[i];
        disp[k] = s->at[i];
        types[k++] = vtype(s, i)->dt;
    }
    int rc = MPI_Type_create_struct(n, len, disp, types, made);
    if (rc == MPI_SUCCESS && (rc = MPI_Type_commit(made)) != MPI_SUCCESS)
        MPI_Type_free(made);
    free(heap);
    if (rc != MPI_SUCCESS) {
        *made = MPI_DATATYPE_NULL;
        return MPI_ERR_TYPE;
    }
    *one = (vine_side){.buf = s->buf, .dt = *made, .count = 1, .bytes = s->span, .raw = 0};
    return MPI_SUCCESS;
}

/*
 * Packs s (every block, or block only when only >= 0) into mem at its
 * offsets (unpack 0), or unpacks s from mem (unpack 1, every block): now, or
 * for a request at each start / when it completes.
 */
static int vside_move(vine_call *c, const vside *s, char *mem, int only, int unpack)
{
    if (!c->nb)
        return unpack ? vside_unpack(s, mem, c->st->comm) : vside_pack(s, mem, only, c->st->comm);
    vine_side one;
    MPI_Datatype made = MPI_DATATYPE_NULL;
    int rc = MPI_SUCCESS;
    if (only >= 0) {
        vside_block(s, only, &one);
        mem += s->bd[only];
    } else {
        rc = vside_struct(s, &one, &made);
    }
    if (rc == MPI_SUCCESS)
        rc = unpack ? vine__nb_unpack(c->nb, &one, mem) : vine__nb_pack(c->nb, &one, mem);
    /* The request holds a duplicate of the struct. */
    if (made != MPI_DATATYPE_NULL)
        MPI_Type_free(&made);
    return rc;
}

/*
 * Where the schedule reads (out 0) or writes (out 1) side s: the user's
 * memory when raw, else scratch `which`, packed (vside_move) for an input.
 */
static int vside_mem(vine_call *c, const vside *s, int which, int out, char **mem)
{
    if (s->raw) {
        *mem = s->buf + s->lo;
        return MPI_SUCCESS;
    }
    int rc = vine__call_scratch(c, which, s->span, mem);
    if (rc == MPI_SUCCESS && !out)
        rc = vside_move(c, s, *mem, -1, 0);
    return rc;
}

/*
 * Int copies of the _c forms' tables for the MPI library: in the frame up to
 * VINE_V_INLINE entries, else in heap (set to NULL first, freed by
 * vints_free).
 */
typedef struct vints {
    int in[2][VINE_V_INLINE];
    int *heap[2];
} vints;

static void vints_free(vints *w)
{
    free(w->heap[0]);
    free(w->heap[1]);
    w->heap[0] = w->heap[1] = NULL;
}

/* Copies a table of p MPI_Counts (or MPI_Aints) into ints, in `in` or in *heap; NULL: no memory. */
static int *to_ints(int p, const MPI_Count *cc, const MPI_Aint *ad, int *in, int **heap)
{
    int *v = in;
    if (p > VINE_V_INLINE && !(v = *heap = malloc((size_t)p * sizeof *v)))
        return NULL;
    for (int i = 0; i < p; i++)
        v[i] = (int)(cc ? cc[i] : ad[i]);
    return v;
}

/* The int tables of u for the MPI library: u's own, or copies in w. */
static int mpi_tables(int p, const utab *u, const int **cnt, const int **dsp, vints *w)
{
    *cnt = u->ic;
    *dsp = u->id;
    if (!u->ic && u->cc && !(*cnt = to_ints(p, u->cc, NULL, w->in[0], &w->heap[0])))
        return MPI_ERR_NO_MEM;
    if (!u->id && u->ad && !(*dsp = to_ints(p, NULL, u->ad, w->in[1], &w->heap[1])))
        return MPI_ERR_NO_MEM;
    return MPI_SUCCESS;
}

/* The full paths stay out of line, so that a repeat does not pay for their frames. */
#if defined(__GNUC__)
#define VINE_NOINLINE __attribute__((noinline))
#else
#define VINE_NOINLINE
#endif

/*
 * ---- The repeat shortcut (vine_vmemo) ----
 *
 * The arrays a repeat must pass with equal values: the user's tables as
 * given (ints, or MPI_Count and MPI_Aint: the two forms differ in length)
 * and alltoallw's types, at most 6, compared one after the other.
 */
typedef struct vparts {
    const void *ptr[6];
    size_t len[6];
    int n;
} vparts;

static inline void vparts_add(vparts *v, const void *ptr, size_t len)
{
    v->ptr[v->n] = ptr;
    v->len[v->n++] = len;
}

/* Adds the tables of u (given: utab_given) for p ranks. */
static inline void vparts_tab(vparts *v, const utab *u, int p)
{
    size_t n = (size_t)p;
    if (u->ic)
        vparts_add(v, u->ic, n * sizeof *u->ic);
    else
        vparts_add(v, u->cc, n * sizeof *u->cc);
    if (u->id)
        vparts_add(v, u->id, n * sizeof *u->id);
    else
        vparts_add(v, u->ad, n * sizeof *u->ad);
}

/*
 * The state of comm when its remembered call is of coll with this root and
 * in-place choice under the same algorithm choice, else NULL.  Never under
 * MPI_THREAD_MULTIPLE, where vine__last_state stays NULL.
 */
static inline vine_comm_state *vmemo_find(MPI_Comm comm, vine_coll coll, int root, int inplace)
{
    vine_comm_state *st = vine__last_state;
    if (!st || st->user != comm)
        return NULL;
    const vine_vmemo *m = &st->vmemo;
    if (!m->valid || m->coll != coll || m->root != root || m->inplace != inplace ||
        m->gen != vine__choice_gen)
        return NULL;
    return st;
}

/* Where m keeps its arrays: inline, or in heap when they do not fit. */
static unsigned char *vmemo_tab(vine_vmemo *m, size_t bytes)
{
    return bytes > sizeof m->in ? m->heap : m->in;
}

/* Whether the arrays of v hold the values kept in m. */
static inline int vmemo_same(vine_vmemo *m, const vparts *v)
{
    const unsigned char *at = vmemo_tab(m, m->bytes);
    size_t bytes = 0;
    for (int i = 0; i < v->n; i++) {
        if (!v->ptr[i] || (bytes += v->len[i]) > m->bytes || memcmp(at, v->ptr[i], v->len[i]))
            return 0;
        at += v->len[i];
    }
    return bytes == m->bytes;
}

/*
 * Remembers c, which succeeded (vine_vmemo), with the arrays of v and the
 * types of its sides (all predefined: their handles never change meaning),
 * unless under MPI_THREAD_MULTIPLE, where no repeat would look.  Leaves the
 * memo invalid when the arrays find no room.
 */
static void vmemo_keep(const vine_call *c, const vparts *v, MPI_Datatype sdt, MPI_Count scount,
                       MPI_Datatype rdt, MPI_Aint slo, MPI_Aint rlo)
{
    if (vine__mt() || c->nb)
        return; /* a request's call is not repeated by the blocking shortcut */
    vine_vmemo *m = &c->st->vmemo;
    m->valid = 0;
    size_t bytes = 0;
    for (int i = 0; i < v->n; i++)
        bytes += v->len[i];
    if (bytes > sizeof m->in && bytes > m->heap_bytes) {
        /* Grows only: freed with the state (vine__cache_clear). */
        unsigned char *h = malloc(bytes);
        if (!h)
            return;
        free(m->heap);
        m->heap = h;
        m->heap_bytes = bytes;
    }
    unsigned char *at = vmemo_tab(m, bytes);
    for (int i = 0; i < v->n; i++) {
        memcpy(at, v->ptr[i], v->len[i]);
        at += v->len[i];
    }
    m->bytes = bytes;
    m->coll = c->a.coll;
    m->root = c->a.root;
    m->inplace = c->a.inplace;
    m->gen = vine__choice_gen;
    m->sdt = sdt;
    m->rdt = rdt;
    m->scount = scount;
    m->slo = slo;
    m->rlo = rlo;
    m->e = c->e;
    m->valid = 1;
}

/* Whether the remembered call of st goes to the MPI library's collective. */
static int vmemo_mpi(const vine_comm_state *st)
{
    return (st->vmemo.e->served->flags & VINE_ALGO_MPI) != 0;
}

/*
 * Plans c on bytes; big: the MPI library's classic interface cannot take the
 * call.  The cache key is the tables of sides s[0], ..., s[ns - 1] (from
 * vtabs_sides, one after the other): every table the builder gets.
 */
static int plan(vine_call *c, int big, const vside *s, int ns)
{
    c->t = *vine__byte_type();
    c->a.count = big ? (size_t)INT_MAX + 1 : 0;
    c->vkey = s[0].bc;
    c->nvkey = 2 * (size_t)ns * (size_t)c->a.p;
    return vine__call_plan(c);
}

/*
 * Runs the planned schedule on smem and rmem, then unpacks r when it is not
 * raw (a request: records both, vine__call_exec).
 */
static int run(vine_call *c, const char *smem, vside *r, char *rmem)
{
    c->sendbuf = smem;
    c->recvbuf = rmem;
    int unpack = r && !r->raw, rc = MPI_SUCCESS;
    if (c->nb && unpack && (rc = vside_move(c, r, rmem, -1, 1)))
        return rc;
    rc = vine__call_exec(c);
    if (!c->nb && rc == MPI_SUCCESS && unpack)
        rc = vside_move(c, r, rmem, -1, 1);
    return rc;
}

/* ---- allgatherv ---- */

/* A repeat of comm's remembered allgatherv (vine_vmemo) runs it: 1 with *rc its result, else 0. */
static int allgatherv_repeat(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                             void *recvbuf, const utab *ru, MPI_Datatype recvtype, MPI_Comm comm,
                             int *rc)
{
    int inplace = sendbuf == MPI_IN_PLACE;
    vine_comm_state *st = vmemo_find(comm, VINE_COLL_ALLGATHERV, 0, inplace);
    if (!st || !recvbuf || recvbuf == MPI_IN_PLACE || recvtype != st->vmemo.rdt ||
        (!inplace && (!sendbuf || sendtype != st->vmemo.sdt || sendcount != st->vmemo.scount)))
        return 0;
    vparts v;
    v.n = 0;
    vparts_tab(&v, ru, st->p);
    if (!vmemo_same(&st->vmemo, &v))
        return 0;
    if (vmemo_mpi(st)) {
        const int *cnt, *dsp;
        vints w;
        w.heap[0] = w.heap[1] = NULL;
        if ((*rc = mpi_tables(st->p, ru, &cnt, &dsp, &w)) == MPI_SUCCESS)
            *rc = vine__call_vmemo_done(st, PMPI_Allgatherv(sendbuf, (int)sendcount, sendtype,
                                                            recvbuf, cnt, dsp, recvtype, comm));
        vints_free(&w);
        return 1;
    }
    *rc = vine__call_vmemo_run(st, inplace ? NULL : sendbuf, (char *)recvbuf + st->vmemo.rlo);
    return 1;
}

/* Remembers the allgatherv c (receive side r, tables ru) for its repeats. */
static void allgatherv_keep(const vine_call *c, const utab *ru, MPI_Datatype sdt, MPI_Count scount,
                            const vside *r)
{
    vparts v;
    v.n = 0;
    vparts_tab(&v, ru, c->a.p);
    vmemo_keep(c, &v, sdt, scount, r->t->dt, 0, r->lo);
}

/*
 * The calls that are no repeat, with every check: kept out of line (as are
 * alltoallv_checked and rooted_checked), so that a repeat does not pay for
 * their frame, which holds the tables.
 */
VINE_NOINLINE static int allgatherv_checked(const void *sendbuf, MPI_Count sendcount,
                                            MPI_Datatype sendtype, void *recvbuf, const utab *ru,
                                            MPI_Datatype recvtype, MPI_Comm comm,
                                            struct vine_nbreq *nb)
{
    int rc;
    vine_call c;
    vine_exec_type st, rt;
    vside r;
    vtabs m;
    int inplace = sendbuf == MPI_IN_PLACE;
    rc = vine__call_start(&c, VINE_COLL_ALLGATHERV, comm);
    c.nb = nb;
    if (rc || (rc = vine__call_check_type(0, recvtype, &rt)))
        return rc;
    if (recvbuf == MPI_IN_PLACE)
        return MPI_ERR_BUFFER;
    if (!utab_given(ru))
        return MPI_ERR_ARG;
    size_t sbytes = 0;
    if (!inplace && ((rc = vine__call_check_type(sendcount, sendtype, &st)) ||
                     (rc = vine__call_check_buf(sendbuf, (size_t)sendcount, &st)) ||
                     (rc = vine__call_bytes((size_t)sendcount, st.size, &sbytes))))
        return rc;
    m.heap = NULL;
    if ((rc = vtabs_sides(&m, &r, 1, c.a.p)))
        return rc;
    r.buf = recvbuf;
    r.t = &rt;
    size_t total = 0;
    if ((rc = vside_fill(&r, ru, 0)))
        goto out;
    for (int i = 0; i < c.a.p; i++)
        total += r.bc[i];
    rc = MPI_ERR_TRUNCATE;
    if (!inplace && sbytes != r.bc[c.a.rank])
        goto out;
    if ((rc = vine__call_check_buf(recvbuf, total, &rt)) || (rc = vine__call_check_request(&c)))
        goto out;
    if (total == 0) {
        rc = vine__call_none(&c);
        goto out;
    }
    c.big = r.big || sendcount > INT_MAX;
    if ((rc = vside_layout(&r, 1, 0)) || (rc = vine__call_attach(&c)))
        goto out;
    c.a.inplace = inplace;
    c.a.rcounts = r.bc;
    c.a.rdispls = r.bd;
    if ((rc = plan(&c, c.big, &r, 1)))
        goto out;
    if (vine__call_to_mpi(&c)) {
        const int *cnt, *dsp;
        vints w;
        w.heap[0] = w.heap[1] = NULL;
        if ((rc = mpi_tables(c.a.p, ru, &cnt, &dsp, &w)) == MPI_SUCCESS && nb)
            rc = vine__nb_mpi_v(&c, (const int *[2]){NULL, cnt}, (const int *[2]){NULL, dsp},
                                (const MPI_Datatype *[2]){NULL, NULL});
        else if (rc == MPI_SUCCESS)
            rc = vine__call_mpi_done(&c, PMPI_Allgatherv(sendbuf, (int)sendcount, sendtype,
                                                         recvbuf, cnt, dsp, recvtype, comm));
        vints_free(&w);
        if (rc == MPI_SUCCESS && rt.named && (inplace || st.named))
            allgatherv_keep(&c, ru, inplace ? MPI_DATATYPE_NULL : sendtype, sendcount, &r);
        goto out;
    }
    int sraw = inplace;
    char *rmem, *smem = NULL;
    if ((rc = vside_mem(&c, &r, VINE_PACK_OUT, 1, &rmem)))
        goto out;
    if (inplace && !r.raw) {
        rc = vside_move(&c, &r, rmem, c.a.rank, 0);
    } else if (!inplace) {
        vine_side one;
        vine__side_init(&one, sendbuf, (size_t)sendcount, &st);
        sraw = one.raw;
        if (one.raw) {
            smem = (char *)(uintptr_t)sendbuf;
        } else if ((rc = vine__call_scratch(&c, VINE_PACK_IN, sbytes, &smem)) == MPI_SUCCESS) {
            rc = vine__call_pack(&c, &one, smem);
        }
    }
    if (rc == MPI_SUCCESS)
        rc = run(&c, smem, &r, rmem);
    /* Types used in place can be repeated on new buffers as they are. */
    if (rc == MPI_SUCCESS && r.raw && sraw && rt.named)
        allgatherv_keep(&c, ru, inplace ? MPI_DATATYPE_NULL : sendtype, sendcount, &r);
out:
    vtabs_free(&m);
    return rc;
}

static int allgatherv_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                           void *recvbuf, const utab *ru, MPI_Datatype recvtype, MPI_Comm comm)
{
    int rc;
    if (allgatherv_repeat(sendbuf, sendcount, sendtype, recvbuf, ru, recvtype, comm, &rc))
        return rc;
    return allgatherv_checked(sendbuf, sendcount, sendtype, recvbuf, ru, recvtype, comm, NULL);
}

/* ---- alltoallv and alltoallw ---- */

/*
 * Both: types st and rt hold one type (alltoallv, stride 0) or p
 * (alltoallw, stride 1, displacements in bytes); su is ignored in place.
 */
/* The arrays a repeat of alltoallv or alltoallw (w) on p ranks compares. */
static void alltoallv_parts(vparts *v, int w, int p, const utab *su, const MPI_Datatype *stypes,
                            const utab *ru, const MPI_Datatype *rtypes)
{
    v->n = 0;
    vparts_tab(v, su, p);
    vparts_tab(v, ru, p);
    if (w) {
        vparts_add(v, stypes, (size_t)p * sizeof *stypes);
        vparts_add(v, rtypes, (size_t)p * sizeof *rtypes);
    }
}

/*
 * A repeat of comm's remembered alltoallv or alltoallw (never in place: the
 * input moves to scratch) runs it: 1 with *rc its result, else 0.
 */
static int alltoallv_repeat(vine_coll coll, const void *sendbuf, const utab *su,
                            const MPI_Datatype *stypes, void *recvbuf, const utab *ru,
                            const MPI_Datatype *rtypes, MPI_Comm comm, int *rc)
{
    int w = coll == VINE_COLL_ALLTOALLW;
    vine_comm_state *st = vmemo_find(comm, coll, 0, 0);
    if (!st || !sendbuf || sendbuf == MPI_IN_PLACE || !recvbuf || recvbuf == MPI_IN_PLACE ||
        !stypes || !rtypes || (!w && (stypes[0] != st->vmemo.sdt || rtypes[0] != st->vmemo.rdt)))
        return 0;
    vparts v;
    alltoallv_parts(&v, w, st->p, su, stypes, ru, rtypes);
    if (!vmemo_same(&st->vmemo, &v))
        return 0;
    if (vmemo_mpi(st)) {
        const int *sc, *sd, *rc_, *rd;
        vints sw, rw;
        sw.heap[0] = sw.heap[1] = rw.heap[0] = rw.heap[1] = NULL;
        if ((*rc = mpi_tables(st->p, su, &sc, &sd, &sw)) == MPI_SUCCESS &&
            (*rc = mpi_tables(st->p, ru, &rc_, &rd, &rw)) == MPI_SUCCESS) {
            if (w)
                *rc = PMPI_Alltoallw(sendbuf, sc, sd, stypes, recvbuf, rc_, rd, rtypes, comm);
            else
                *rc = PMPI_Alltoallv(sendbuf, sc, sd, stypes[0], recvbuf, rc_, rd, rtypes[0], comm);
            *rc = vine__call_vmemo_done(st, *rc);
        }
        vints_free(&sw);
        vints_free(&rw);
        return 1;
    }
    *rc = vine__call_vmemo_run(st, (const char *)sendbuf + st->vmemo.slo,
                               (char *)recvbuf + st->vmemo.rlo);
    return 1;
}

/* Whether the n types of t are all predefined. */
static int all_named(const vine_exec_type *t, int n)
{
    for (int i = 0; i < n; i++)
        if (!t[i].named)
            return 0;
    return 1;
}

VINE_NOINLINE static int alltoallv_checked(vine_coll coll, const void *sendbuf, const utab *su,
                                           const MPI_Datatype *stypes, void *recvbuf,
                                           const utab *ru, const MPI_Datatype *rtypes,
                                           MPI_Comm comm, struct vine_nbreq *nb)
{
    int rc;
    vine_call c;
    vside v[2], *s = &v[0], *r = &v[1]; /* in key order: the send tables first */
    vtabs m;
    vine_exec_type tin[2 * VINE_V_INLINE], *types = tin;
    int inplace = sendbuf == MPI_IN_PLACE, w = coll == VINE_COLL_ALLTOALLW;
    rc = vine__call_start(&c, coll, comm);
    c.nb = nb;
    if (rc)
        return rc;
    int p = c.a.p, nt = w ? p : 1, keep = 0;
    if (recvbuf == MPI_IN_PLACE)
        return MPI_ERR_BUFFER;
    if (!utab_given(ru) || (!inplace && !utab_given(su)) || !rtypes || (!inplace && !stypes))
        return MPI_ERR_ARG;
    if (nt > VINE_V_INLINE && !(types = malloc(2 * (size_t)nt * sizeof *types)))
        return MPI_ERR_NO_MEM;
    m.heap = NULL;
    for (int i = 0; i < nt && rc == MPI_SUCCESS; i++) {
        /* alltoallw: a type that repeats its predecessor's handle is checked already. */
        if (i > 0 && rtypes[i] == rtypes[i - 1])
            types[nt + i] = types[nt + i - 1];
        else
            rc = vine__call_check_type(0, rtypes[i], &types[nt + i]);
        if (rc == MPI_SUCCESS && !inplace) {
            if (i > 0 && stypes[i] == stypes[i - 1])
                types[i] = types[i - 1];
            else
                rc = vine__call_check_type(0, stypes[i], &types[i]);
        }
    }
    if (rc || (rc = vtabs_sides(&m, v, 2, p)))
        goto out;
    r->buf = recvbuf;
    r->t = types + nt;
    r->tstride = w;
    s->buf = (char *)(uintptr_t)sendbuf;
    s->t = inplace ? r->t : types;
    s->tstride = w;
    if ((rc = vside_fill(r, ru, w)) || (!inplace && (rc = vside_fill(s, su, w))))
        goto out;
    size_t stotal = 0, rtotal = 0;
    for (int i = 0; i < p; i++) {
        rtotal += r->bc[i];
        stotal += inplace ? 0 : s->bc[i];
    }
    /* A rank with nothing to move still takes part: "mpi" calls the MPI library everywhere. */
    if ((rc = vine__call_check_buf(recvbuf, rtotal, r->t)) ||
        (!inplace && (rc = vine__call_check_buf(sendbuf, stotal, s->t))) ||
        (rc = vine__call_check_request(&c)))
        goto out;
    c.big = r->big || s->big;
    if ((rc = vside_layout(r, 1, 0)) || (rc = vine__call_attach(&c)))
        goto out;
    if (inplace) {
        /* The input is the receive blocks, moved to scratch before the schedule. */
        memcpy(s->n, r->n, (size_t)p * sizeof *s->n);
        memcpy(s->at, r->at, (size_t)p * sizeof *s->at);
        memcpy(s->bc, r->bc, (size_t)p * sizeof *s->bc);
        s->buf = r->buf;
    }
    /* In place the input moves to scratch: schedules never read and write one buffer. */
    if ((rc = vside_layout(s, 0, inplace)))
        goto out;
    c.a.scounts = s->bc;
    c.a.sdispls = s->bd;
    c.a.rcounts = r->bc;
    c.a.rdispls = r->bd;
    if ((rc = plan(&c, c.big, v, 2)))
        goto out;
    if (vine__call_to_mpi(&c)) {
        const int *sc = NULL, *sd = NULL, *rc_ = NULL, *rd = NULL;
        vints sw, rw;
        sw.heap[0] = sw.heap[1] = rw.heap[0] = rw.heap[1] = NULL;
        if ((inplace || (rc = mpi_tables(p, su, &sc, &sd, &sw)) == MPI_SUCCESS) &&
            (rc = mpi_tables(p, ru, &rc_, &rd, &rw)) == MPI_SUCCESS && nb) {
            rc = vine__nb_mpi_v(
                &c, (const int *[2]){sc, rc_}, (const int *[2]){sd, rd},
                (const MPI_Datatype *[2]){w && !inplace ? stypes : NULL, w ? rtypes : NULL});
        } else if (rc == MPI_SUCCESS) {
            if (w)
                rc = PMPI_Alltoallw(sendbuf, sc, sd, stypes, recvbuf, rc_, rd, rtypes, comm);
            else
                rc = PMPI_Alltoallv(sendbuf, sc, sd, inplace ? MPI_DATATYPE_NULL : stypes[0],
                                    recvbuf, rc_, rd, rtypes[0], comm);
            rc = vine__call_mpi_done(&c, rc);
        }
        vints_free(&sw);
        vints_free(&rw);
        keep = !inplace && rc == MPI_SUCCESS;
        goto out;
    }
    char *smem, *rmem;
    if (inplace) {
        /* Packed in rank order whatever the types: the blocks leave the receive buffer. */
        if ((rc = vine__call_scratch(&c, VINE_PACK_IN, s->span, &smem)) == MPI_SUCCESS)
            rc = vside_move(&c, s, smem, -1, 0);
    } else {
        rc = vside_mem(&c, s, VINE_PACK_IN, 0, &smem);
    }
    if (rc == MPI_SUCCESS && (rc = vside_mem(&c, r, VINE_PACK_OUT, 1, &rmem)) == MPI_SUCCESS)
        rc = run(&c, smem, r, rmem);
    /* Types used in place can be repeated on new buffers as they are. */
    keep = !inplace && rc == MPI_SUCCESS && r->raw && s->raw;
out:
    if (keep && all_named(types, 2 * nt)) {
        vparts kv;
        alltoallv_parts(&kv, w, p, su, stypes, ru, rtypes);
        vmemo_keep(&c, &kv, w ? MPI_DATATYPE_NULL : stypes[0], 0, w ? MPI_DATATYPE_NULL : rtypes[0],
                   s->lo, r->lo);
    }
    if (types != tin)
        free(types);
    vtabs_free(&m);
    return rc;
}

static int alltoallv_impl(vine_coll coll, const void *sendbuf, const utab *su,
                          const MPI_Datatype *stypes, void *recvbuf, const utab *ru,
                          const MPI_Datatype *rtypes, MPI_Comm comm)
{
    int rc;
    if (alltoallv_repeat(coll, sendbuf, su, stypes, recvbuf, ru, rtypes, comm, &rc))
        return rc;
    return alltoallv_checked(coll, sendbuf, su, stypes, recvbuf, ru, rtypes, comm, NULL);
}

/* ---- gatherv and scatterv ---- */

/*
 * Both, mirror images: the root's side holds p blocks (gatherv's receive,
 * scatterv's send arguments, ignored elsewhere), every rank's own side one
 * block (MPI_IN_PLACE at an in-place root).  gather: 1 for gatherv.
 */
/* A repeat of comm's remembered gatherv or scatterv runs it: 1 with *rc its result, else 0. */
static int rooted_repeat(int gather, const void *ownbuf, MPI_Count owncount, MPI_Datatype owntype,
                         const void *rootbuf, const utab *u, MPI_Datatype roottype, int root,
                         MPI_Comm comm, int *rc)
{
    int inplace = ownbuf == MPI_IN_PLACE;
    vine_comm_state *st =
        vmemo_find(comm, gather ? VINE_COLL_GATHERV : VINE_COLL_SCATTERV, root, inplace);
    if (!st || (!inplace && (!ownbuf || owntype != st->vmemo.sdt || owncount != st->vmemo.scount)))
        return 0;
    int at_root = st->rank == root;
    vparts v;
    v.n = 0;
    if (at_root) {
        if (!rootbuf || rootbuf == MPI_IN_PLACE || roottype != st->vmemo.rdt)
            return 0;
        vparts_tab(&v, u, st->p);
    }
    if (!vmemo_same(&st->vmemo, &v))
        return 0;
    if (vmemo_mpi(st)) {
        const int *cnt = NULL, *dsp = NULL;
        vints w;
        w.heap[0] = w.heap[1] = NULL;
        if (!at_root || (*rc = mpi_tables(st->p, u, &cnt, &dsp, &w)) == MPI_SUCCESS) {
            void *rb = (void *)(uintptr_t)rootbuf, *ob = (void *)(uintptr_t)ownbuf;
            if (gather)
                *rc = PMPI_Gatherv(ownbuf, (int)owncount, owntype, rb, cnt, dsp, roottype, root,
                                   comm);
            else
                *rc = PMPI_Scatterv(rootbuf, cnt, dsp, roottype, ob, (int)owncount, owntype, root,
                                    comm);
            *rc = vine__call_vmemo_done(st, *rc);
        }
        vints_free(&w);
        return 1;
    }
    char *bmem = at_root ? (char *)(uintptr_t)rootbuf + st->vmemo.rlo : NULL;
    void *omem = inplace ? NULL : (void *)(uintptr_t)ownbuf;
    *rc = gather ? vine__call_vmemo_run(st, omem, bmem) : vine__call_vmemo_run(st, bmem, omem);
    return 1;
}

VINE_NOINLINE static int rooted_checked(int gather, const void *ownbuf, MPI_Count owncount,
                                        MPI_Datatype owntype, const void *rootbuf, const utab *u,
                                        MPI_Datatype roottype, int root, MPI_Comm comm,
                                        struct vine_nbreq *nb)
{
    int rc;
    vine_call c;
    vine_exec_type ot, rt = *vine__byte_type();
    vside b;
    vtabs m;
    rc = vine__call_start(&c, gather ? VINE_COLL_GATHERV : VINE_COLL_SCATTERV, comm);
    c.nb = nb;
    if (rc)
        return rc;
    int p = c.a.p, me = c.a.rank, at_root = me == root, inplace = ownbuf == MPI_IN_PLACE, keep = 0;
    if (root < 0 || root >= p)
        return MPI_ERR_ROOT;
    if ((inplace && !at_root) || (at_root && rootbuf == MPI_IN_PLACE))
        return MPI_ERR_BUFFER;
    size_t own = 0;
    if (!inplace && ((rc = vine__call_check_type(owncount, owntype, &ot)) ||
                     (rc = vine__call_check_buf(ownbuf, (size_t)owncount, &ot)) ||
                     (rc = vine__call_bytes((size_t)owncount, ot.size, &own))))
        return rc;
    if (at_root && ((rc = vine__call_check_type(0, roottype, &rt)) || !utab_given(u)))
        return rc ? rc : MPI_ERR_ARG;
    m.heap = NULL;
    if ((rc = vtabs_sides(&m, &b, 1, p)))
        return rc;
    b.buf = (char *)(uintptr_t)rootbuf;
    b.t = &rt;
    if (at_root) {
        if ((rc = vside_fill(&b, u, 0)))
            goto out;
        size_t total = 0;
        for (int i = 0; i < p; i++)
            total += b.bc[i];
        rc = MPI_ERR_TRUNCATE;
        if ((!inplace && own != b.bc[root]) ||
            (rc = vine__call_check_buf(rootbuf, total, &rt)) || (rc = vside_layout(&b, gather, 0)))
            goto out;
    } else {
        /* Only the own block: the others' sizes and every offset are 0, as in the key. */
        memset(b.bc, 0, 2 * (size_t)p * sizeof *b.bc);
        b.bc[me] = own;
        b.big = owncount > INT_MAX;
    }
    c.big = b.big || owncount > INT_MAX;
    if ((rc = vine__call_check_request(&c)) || (rc = vine__call_attach(&c)))
        goto out;
    /* A request must not wait for the root's table (vine.h): the tree gives way to linear. */
    if (nb && c.req && (c.req->flags & VINE_ALGO_ALLCOUNTS))
        c.req = vine__algo_find(c.a.coll, "linear");
    c.a.root = root;
    c.a.inplace = inplace;
    if (c.req && (c.req->flags & VINE_ALGO_ALLCOUNTS)) {
        /* The algorithm needs every block's size everywhere: the root's table, broadcast. */
        if ((rc = PMPI_Bcast(b.bc, p * (int)sizeof *b.bc, MPI_BYTE, root, c.st->comm))) {
            rc = MPI_ERR_OTHER;
            goto out;
        }
        if (!at_root && b.bc[me] != own) {
            rc = MPI_ERR_TRUNCATE;
            goto out;
        }
    }
    if (gather) {
        c.a.rcounts = b.bc;
        c.a.rdispls = b.bd;
    } else {
        c.a.scounts = b.bc;
        c.a.sdispls = b.bd;
    }
    if ((rc = plan(&c, c.big, &b, 1)))
        goto out;
    if (vine__call_to_mpi(&c)) {
        const int *cnt = NULL, *dsp = NULL;
        vints w;
        w.heap[0] = w.heap[1] = NULL;
        if ((!at_root || (rc = mpi_tables(p, u, &cnt, &dsp, &w)) == MPI_SUCCESS) && nb) {
            rc = vine__nb_mpi_v(&c, (const int *[2]){gather ? NULL : cnt, gather ? cnt : NULL},
                                (const int *[2]){gather ? NULL : dsp, gather ? dsp : NULL},
                                (const MPI_Datatype *[2]){NULL, NULL});
        } else if (rc == MPI_SUCCESS) {
            if (gather)
                rc = PMPI_Gatherv(ownbuf, (int)owncount, owntype, (void *)(uintptr_t)rootbuf, cnt,
                                  dsp, roottype, root, comm);
            else
                rc = PMPI_Scatterv(rootbuf, cnt, dsp, roottype, (void *)(uintptr_t)ownbuf,
                                   (int)owncount, owntype, root, comm);
            rc = vine__call_mpi_done(&c, rc);
        }
        vints_free(&w);
        keep = rc == MPI_SUCCESS;
        goto out;
    }
    /* The root's side in the schedule's buffer, the own block as one side. */
    char *bmem = NULL, *omem = NULL;
    vine_side one;
    if (!inplace)
        vine__side_init(&one, ownbuf, (size_t)owncount, &ot);
    if (at_root && (rc = vside_mem(&c, &b, gather ? VINE_PACK_OUT : VINE_PACK_IN, gather, &bmem)))
        goto out;
    if (at_root && gather && inplace && !b.raw)
        rc = vside_move(&c, &b, bmem, root, 0);
    if (rc == MPI_SUCCESS && !inplace) {
        if (one.raw)
            omem = one.buf;
        else if ((rc = vine__call_scratch(&c, gather ? VINE_PACK_IN : VINE_PACK_OUT, own, &omem)) ==
                     MPI_SUCCESS &&
                 gather)
            rc = vine__call_pack(&c, &one, omem);
    }
    if (rc)
        goto out;
    /* scatterv's own block, when packed, is unpacked after the run (a request: recorded). */
    int own_out = !gather && !inplace && !one.raw;
    if (gather) {
        rc = run(&c, omem, at_root ? &b : NULL, bmem);
    } else if (nb) {
        if (!own_out || (rc = vine__nb_unpack(nb, &one, omem)) == MPI_SUCCESS)
            rc = run(&c, bmem, NULL, omem);
    } else {
        rc = run(&c, bmem, NULL, omem);
        if (rc == MPI_SUCCESS && own_out)
            rc = vine__side_unpack(&one, omem, c.st->comm);
    }
    /* Types used in place can be repeated on new buffers as they are. */
    keep = rc == MPI_SUCCESS && (!at_root || b.raw) && (inplace || one.raw);
out:
    /* Not when the root's table was broadcast: a repeat would skip that message. */
    if (keep && (!at_root || rt.named) && (inplace || ot.named) &&
        !(c.req && (c.req->flags & VINE_ALGO_ALLCOUNTS))) {
        vparts v;
        v.n = 0;
        if (at_root)
            vparts_tab(&v, u, p);
        vmemo_keep(&c, &v, inplace ? MPI_DATATYPE_NULL : owntype, owncount,
                   at_root ? roottype : MPI_DATATYPE_NULL, 0, at_root ? b.lo : 0);
    }
    vtabs_free(&m);
    return rc;
}

static int rooted_impl(int gather, const void *ownbuf, MPI_Count owncount, MPI_Datatype owntype,
                       const void *rootbuf, const utab *u, MPI_Datatype roottype, int root,
                       MPI_Comm comm)
{
    int rc;
    if (rooted_repeat(gather, ownbuf, owncount, owntype, rootbuf, u, roottype, root, comm, &rc))
        return rc;
    return rooted_checked(gather, ownbuf, owncount, owntype, rootbuf, u, roottype, root, comm,
                          NULL);
}

/* ---- Entry points ---- */

int vine_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                    MPI_Comm comm)
{
    utab u = {recvcounts, NULL, displs, NULL};
    return allgatherv_impl(sendbuf, sendcount, sendtype, recvbuf, &u, recvtype, comm);
}

int vine_allgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                      void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                      MPI_Datatype recvtype, MPI_Comm comm)
{
    utab u = {NULL, recvcounts, NULL, displs};
    return allgatherv_impl(sendbuf, sendcount, sendtype, recvbuf, &u, recvtype, comm);
}

int vine_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                   const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    utab su = {sendcounts, NULL, sdispls, NULL}, ru = {recvcounts, NULL, rdispls, NULL};
    return alltoallv_impl(VINE_COLL_ALLTOALLV, sendbuf, &su, &sendtype, recvbuf, &ru, &recvtype,
                          comm);
}

int vine_alltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                     MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                     const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    utab su = {NULL, sendcounts, NULL, sdispls}, ru = {NULL, recvcounts, NULL, rdispls};
    return alltoallv_impl(VINE_COLL_ALLTOALLV, sendbuf, &su, &sendtype, recvbuf, &ru, &recvtype,
                          comm);
}

int vine_alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                   const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    utab su = {sendcounts, NULL, sdispls, NULL}, ru = {recvcounts, NULL, rdispls, NULL};
    return alltoallv_impl(VINE_COLL_ALLTOALLW, sendbuf, &su, sendtypes, recvbuf, &ru, recvtypes,
                          comm);
}

int vine_alltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                     const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                     const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    utab su = {NULL, sendcounts, NULL, sdispls}, ru = {NULL, recvcounts, NULL, rdispls};
    return alltoallv_impl(VINE_COLL_ALLTOALLW, sendbuf, &su, sendtypes, recvbuf, &ru, recvtypes,
                          comm);
}

int vine_gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                 MPI_Comm comm)
{
    utab u = {recvcounts, NULL, displs, NULL};
    return rooted_impl(1, sendbuf, sendcount, sendtype, recvbuf, &u, recvtype, root, comm);
}

int vine_gatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                   const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                   int root, MPI_Comm comm)
{
    utab u = {NULL, recvcounts, NULL, displs};
    return rooted_impl(1, sendbuf, sendcount, sendtype, recvbuf, &u, recvtype, root, comm);
}

int vine_scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                  MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                  int root, MPI_Comm comm)
{
    utab u = {sendcounts, NULL, displs, NULL};
    return rooted_impl(0, recvbuf, recvcount, recvtype, sendbuf, &u, sendtype, root, comm);
}

int vine_scatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                    MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                    MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    utab u = {NULL, sendcounts, NULL, displs};
    return rooted_impl(0, recvbuf, recvcount, recvtype, sendbuf, &u, sendtype, root, comm);
}

/* ---- Nonblocking and persistent forms ---- */

/*
 * The request of a nonblocking (persistent 0) or persistent irregular call
 * with the user's arguments a; the tables and alltoallw's types reach the
 * request later (vine__nb_mpi_v), where the MPI library's collective serves it.
 */
static int v_begin(struct vine_nbreq **r, vine_nb_args a, int persistent, MPI_Request *request)
{
    a.op = MPI_OP_NULL;
    return vine__nb_begin(r, &a, persistent, request);
}

static int allgatherv_nb(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                         void *recvbuf, const utab *ru, MPI_Datatype recvtype, MPI_Comm comm,
                         int persistent, MPI_Request *request)
{
    vine_nb_args a = {.coll = VINE_COLL_ALLGATHERV,
                      .sendbuf = sendbuf,
                      .scount = sendcount,
                      .stype = sendtype,
                      .recvbuf = recvbuf,
                      .rtype = recvtype,
                      .comm = comm};
    struct vine_nbreq *r;
    int rc = v_begin(&r, a, persistent, request);
    if (rc == MPI_SUCCESS)
        rc = allgatherv_checked(sendbuf, sendcount, sendtype, recvbuf, ru, recvtype, comm, r);
    return vine__nb_end(r, rc, request);
}

static int alltoallv_nb(vine_coll coll, const void *sendbuf, const utab *su,
                        const MPI_Datatype *stypes, void *recvbuf, const utab *ru,
                        const MPI_Datatype *rtypes, MPI_Comm comm, int persistent,
                        MPI_Request *request)
{
    int w = coll == VINE_COLL_ALLTOALLW;
    vine_nb_args a = {.coll = coll,
                      .sendbuf = sendbuf,
                      .stype = w || !stypes ? MPI_DATATYPE_NULL : stypes[0],
                      .recvbuf = recvbuf,
                      .rtype = w || !rtypes ? MPI_DATATYPE_NULL : rtypes[0],
                      .comm = comm};
    struct vine_nbreq *r;
    int rc = v_begin(&r, a, persistent, request);
    if (rc == MPI_SUCCESS)
        rc = alltoallv_checked(coll, sendbuf, su, stypes, recvbuf, ru, rtypes, comm, r);
    return vine__nb_end(r, rc, request);
}

/* gatherv (gather 1) or scatterv, the own side and the root's as in rooted_checked. */
static int rooted_nb(int gather, const void *ownbuf, MPI_Count owncount, MPI_Datatype owntype,
                     const void *rootbuf, const utab *u, MPI_Datatype roottype, int root,
                     MPI_Comm comm, int persistent, MPI_Request *request)
{
    vine_nb_args a = {.coll = gather ? VINE_COLL_GATHERV : VINE_COLL_SCATTERV,
                      .sendbuf = gather ? ownbuf : rootbuf,
                      .scount = gather ? owncount : 0,
                      .stype = gather ? owntype : roottype,
                      .recvbuf = (void *)(uintptr_t)(gather ? rootbuf : ownbuf),
                      .rcount = gather ? 0 : owncount,
                      .rtype = gather ? roottype : owntype,
                      .root = root,
                      .comm = comm};
    struct vine_nbreq *r;
    int rc = v_begin(&r, a, persistent, request);
    if (rc == MPI_SUCCESS)
        rc = rooted_checked(gather, ownbuf, owncount, owntype, rootbuf, u, roottype, root, comm, r);
    return vine__nb_end(r, rc, request);
}

int vine_iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                     MPI_Comm comm, MPI_Request *request)
{
    utab u = {recvcounts, NULL, displs, NULL};
    return allgatherv_nb(sendbuf, sendcount, sendtype, recvbuf, &u, recvtype, comm, 0, request);
}

int vine_iallgatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                       void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                       MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    utab u = {NULL, recvcounts, NULL, displs};
    return allgatherv_nb(sendbuf, sendcount, sendtype, recvbuf, &u, recvtype, comm, 0, request);
}

int vine_allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                         const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                         MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info;
    utab u = {recvcounts, NULL, displs, NULL};
    return allgatherv_nb(sendbuf, sendcount, sendtype, recvbuf, &u, recvtype, comm, 1, request);
}

int vine_allgatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                           void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                           MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                           MPI_Request *request)
{
    (void)info;
    utab u = {NULL, recvcounts, NULL, displs};
    return allgatherv_nb(sendbuf, sendcount, sendtype, recvbuf, &u, recvtype, comm, 1, request);
}

int vine_ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                    MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                    const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    utab su = {sendcounts, NULL, sdispls, NULL}, ru = {recvcounts, NULL, rdispls, NULL};
    return alltoallv_nb(VINE_COLL_ALLTOALLV, sendbuf, &su, &sendtype, recvbuf, &ru, &recvtype, comm,
                        0, request);
}

int vine_ialltoallv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                      MPI_Datatype sendtype, void *recvbuf, const MPI_Count recvcounts[],
                      const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                      MPI_Request *request)
{
    utab su = {NULL, sendcounts, NULL, sdispls}, ru = {NULL, recvcounts, NULL, rdispls};
    return alltoallv_nb(VINE_COLL_ALLTOALLV, sendbuf, &su, &sendtype, recvbuf, &ru, &recvtype, comm,
                        0, request);
}

int vine_alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                        MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                        const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                        MPI_Request *request)
{
    (void)info;
    utab su = {sendcounts, NULL, sdispls, NULL}, ru = {recvcounts, NULL, rdispls, NULL};
    return alltoallv_nb(VINE_COLL_ALLTOALLV, sendbuf, &su, &sendtype, recvbuf, &ru, &recvtype, comm,
                        1, request);
}

int vine_alltoallv_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                          const MPI_Aint sdispls[], MPI_Datatype sendtype, void *recvbuf,
                          const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                          MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info;
    utab su = {NULL, sendcounts, NULL, sdispls}, ru = {NULL, recvcounts, NULL, rdispls};
    return alltoallv_nb(VINE_COLL_ALLTOALLV, sendbuf, &su, &sendtype, recvbuf, &ru, &recvtype, comm,
                        1, request);
}

int vine_ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                    const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                    const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                    MPI_Request *request)
{
    utab su = {sendcounts, NULL, sdispls, NULL}, ru = {recvcounts, NULL, rdispls, NULL};
    return alltoallv_nb(VINE_COLL_ALLTOALLW, sendbuf, &su, sendtypes, recvbuf, &ru, recvtypes, comm,
                        0, request);
}

int vine_ialltoallw_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                      const MPI_Datatype sendtypes[], void *recvbuf, const MPI_Count recvcounts[],
                      const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                      MPI_Request *request)
{
    utab su = {NULL, sendcounts, NULL, sdispls}, ru = {NULL, recvcounts, NULL, rdispls};
    return alltoallv_nb(VINE_COLL_ALLTOALLW, sendbuf, &su, sendtypes, recvbuf, &ru, recvtypes, comm,
                        0, request);
}

int vine_alltoallw_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                        const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                        const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                        MPI_Info info, MPI_Request *request)
{
    (void)info;
    utab su = {sendcounts, NULL, sdispls, NULL}, ru = {recvcounts, NULL, rdispls, NULL};
    return alltoallv_nb(VINE_COLL_ALLTOALLW, sendbuf, &su, sendtypes, recvbuf, &ru, recvtypes, comm,
                        1, request);
}

int vine_alltoallw_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                          const MPI_Aint sdispls[], const MPI_Datatype sendtypes[], void *recvbuf,
                          const MPI_Count recvcounts[], const MPI_Aint rdispls[],
                          const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                          MPI_Request *request)
{
    (void)info;
    utab su = {NULL, sendcounts, NULL, sdispls}, ru = {NULL, recvcounts, NULL, rdispls};
    return alltoallv_nb(VINE_COLL_ALLTOALLW, sendbuf, &su, sendtypes, recvbuf, &ru, recvtypes, comm,
                        1, request);
}

int vine_igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                  MPI_Comm comm, MPI_Request *request)
{
    utab u = {recvcounts, NULL, displs, NULL};
    return rooted_nb(1, sendbuf, sendcount, sendtype, recvbuf, &u, recvtype, root, comm, 0,
                     request);
}

int vine_igatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                    int root, MPI_Comm comm, MPI_Request *request)
{
    utab u = {NULL, recvcounts, NULL, displs};
    return rooted_nb(1, sendbuf, sendcount, sendtype, recvbuf, &u, recvtype, root, comm, 0,
                     request);
}

int vine_gatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                      MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info;
    utab u = {recvcounts, NULL, displs, NULL};
    return rooted_nb(1, sendbuf, sendcount, sendtype, recvbuf, &u, recvtype, root, comm, 1,
                     request);
}

int vine_gatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                        void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                        MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                        MPI_Request *request)
{
    (void)info;
    utab u = {NULL, recvcounts, NULL, displs};
    return rooted_nb(1, sendbuf, sendcount, sendtype, recvbuf, &u, recvtype, root, comm, 1,
                     request);
}

int vine_iscatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                   MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                   int root, MPI_Comm comm, MPI_Request *request)
{
    utab u = {sendcounts, NULL, displs, NULL};
    return rooted_nb(0, recvbuf, recvcount, recvtype, sendbuf, &u, sendtype, root, comm, 0,
                     request);
}

int vine_iscatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                     MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                     MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    utab u = {NULL, sendcounts, NULL, displs};
    return rooted_nb(0, recvbuf, recvcount, recvtype, sendbuf, &u, sendtype, root, comm, 0,
                     request);
}

int vine_scatterv_init(const void *sendbuf, const int sendcounts[], const int displs[],
                       MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                       int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info;
    utab u = {sendcounts, NULL, displs, NULL};
    return rooted_nb(0, recvbuf, recvcount, recvtype, sendbuf, &u, sendtype, root, comm, 1,
                     request);
}

int vine_scatterv_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                         MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                         MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                         MPI_Request *request)
{
    (void)info;
    utab u = {NULL, sendcounts, NULL, displs};
    return rooted_nb(0, recvbuf, recvcount, recvtype, sendbuf, &u, sendtype, root, comm, 1,
                     request);
}
