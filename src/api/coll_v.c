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
 * schedule.
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

static void vside_free(vside *s)
{
    free(s->n);
    free(s->at);
    free(s->bc);
    free(s->bd);
    memset(s, 0, sizeof *s);
}

static int vside_alloc(vside *s, int p)
{
    memset(s, 0, sizeof *s);
    size_t np = (size_t)(p > 0 ? p : 1);
    s->p = p;
    s->n = calloc(np, sizeof *s->n);
    s->at = calloc(np, sizeof *s->at);
    s->bc = calloc(np, sizeof *s->bc);
    s->bd = calloc(np, sizeof *s->bd);
    if (!s->n || !s->at || !s->bc || !s->bd) {
        vside_free(s);
        return MPI_ERR_NO_MEM;
    }
    return MPI_SUCCESS;
}

static const vine_exec_type *vtype(const vside *s, int i)
{
    return &s->t[(size_t)i * (size_t)s->tstride];
}

/*
 * Block i of s: n elements at displacement d, in units of the type's extent
 * or, with bytes set (alltoallw), in bytes.  MPI_ERR_COUNT for n < 0 or
 * sizes that do not fit.
 */
static int vside_set(vside *s, int i, MPI_Count n, MPI_Aint d, int bytes)
{
    const vine_exec_type *t = vtype(s, i);
    size_t b;
    if (n < 0)
        return MPI_ERR_COUNT;
    int rc = vine__call_bytes((size_t)n, t->size, &b);
    if (rc)
        return rc;
    MPI_Aint at = d;
    if (!bytes && n > 0) {
        if (t->extent != 0 && (d > PTRDIFF_MAX / (t->extent > 0 ? t->extent : -t->extent) ||
                               d < -(PTRDIFF_MAX / (t->extent > 0 ? t->extent : -t->extent))))
            return MPI_ERR_COUNT;
        at = d * t->extent;
    }
    s->n[i] = n;
    s->at[i] = at;
    s->bc[i] = b;
    s->big |= n > INT_MAX || d > INT_MAX || d < INT_MIN;
    return MPI_SUCCESS;
}

/* Fills every block of s from the user's table u. */
static int vside_fill(vside *s, const utab *u, int bytes)
{
    for (int i = 0; i < s->p; i++) {
        int rc = vside_set(s, i, ucount(u, i), udispl(u, i), bytes);
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

/* MPI_ERR_BUFFER when two blocks of a raw receive side overlap (MPI forbids it). */
static int check_overlap(const vside *s)
{
    vspan *v = malloc((size_t)(s->p > 0 ? s->p : 1) * sizeof *v);
    if (!v)
        return MPI_ERR_NO_MEM;
    int n = 0, rc = MPI_SUCCESS;
    for (int i = 0; i < s->p; i++)
        if (s->bc[i])
            v[n++] = (vspan){s->bd[i], s->bc[i]};
    qsort(v, (size_t)n, sizeof *v, vspan_cmp);
    for (int k = 1; k < n && rc == MPI_SUCCESS; k++)
        if (v[k].off < v[k - 1].off + v[k - 1].len)
            rc = MPI_ERR_BUFFER;
    free(v);
    return rc;
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
 * Where the schedule reads (out 0) or writes (out 1) side s: the user's
 * memory when raw, else scratch `which`, packed now for an input.
 */
static int vside_mem(vine_call *c, const vside *s, int which, int out, char **mem)
{
    if (s->raw) {
        *mem = s->buf + s->lo;
        return MPI_SUCCESS;
    }
    int rc = vine__pack_scratch(c->st, which, s->span, mem);
    if (rc == MPI_SUCCESS && !out)
        rc = vside_pack(s, *mem, -1, c->st->comm);
    return rc;
}

/* The call's cache key: the tables it passes to the builder, one after the other. */
typedef struct vkey {
    size_t *k;
} vkey;

static int make_key(vine_call *c, vkey *key)
{
    const vine_args *a = &c->a;
    const size_t *t[4] = {a->scounts, a->sdispls, a->rcounts, a->rdispls};
    size_t p = (size_t)a->p, n = 0;
    key->k = malloc(4 * p * sizeof *key->k + 1);
    if (!key->k)
        return MPI_ERR_NO_MEM;
    for (int j = 0; j < 4; j++) {
        if (t[j])
            memcpy(key->k + n, t[j], p * sizeof *key->k);
        else
            memset(key->k + n, 0xff, p * sizeof *key->k);
        n += p;
    }
    c->vkey = key->k;
    c->nvkey = n;
    return MPI_SUCCESS;
}

/* Copies a table of p MPI_Counts (or MPI_Aints) into ints for the MPI library; NULL when none. */
static int *to_ints(int p, const MPI_Count *cc, const MPI_Aint *ad)
{
    if (!cc && !ad)
        return NULL;
    int *v = malloc((size_t)(p > 0 ? p : 1) * sizeof *v);
    for (int i = 0; v && i < p; i++)
        v[i] = (int)(cc ? cc[i] : ad[i]);
    return v;
}

/* The int tables of u for the MPI library: u's own, or copies (*owned, to free). */
static int mpi_tables(int p, const utab *u, const int **cnt, const int **dsp, int **owned)
{
    owned[0] = owned[1] = NULL;
    *cnt = u->ic;
    *dsp = u->id;
    if (!u->ic && u->cc && !(*cnt = owned[0] = to_ints(p, u->cc, NULL)))
        return MPI_ERR_NO_MEM;
    if (!u->id && u->ad && !(*dsp = owned[1] = to_ints(p, NULL, u->ad)))
        return MPI_ERR_NO_MEM;
    return MPI_SUCCESS;
}

/* Plans c on bytes; big: the MPI library's classic interface cannot take the call. */
static int plan(vine_call *c, int big, vkey *key)
{
    c->t = *vine__byte_type();
    c->a.count = big ? (size_t)INT_MAX + 1 : 0;
    int rc = make_key(c, key);
    return rc ? rc : vine__call_plan(c);
}

/* Runs the planned schedule on smem and rmem, then unpacks r when it is not raw. */
static int run(vine_call *c, const char *smem, vside *r, char *rmem)
{
    c->sendbuf = smem;
    c->recvbuf = rmem;
    int rc = vine__call_exec(c);
    if (rc == MPI_SUCCESS && r && !r->raw)
        rc = vside_unpack(r, rmem, c->st->comm);
    return rc;
}

/* ---- allgatherv ---- */

static int allgatherv_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                           void *recvbuf, const utab *ru, MPI_Datatype recvtype, MPI_Comm comm)
{
    vine_call c;
    vine_exec_type st, rt;
    vside s = {0}, r = {0};
    vkey key = {NULL};
    int inplace = sendbuf == MPI_IN_PLACE, *owned[2] = {NULL, NULL};
    int rc = vine__call_start(&c, VINE_COLL_ALLGATHERV, comm);
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
    if ((rc = vside_alloc(&r, c.a.p)))
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
    if ((rc = vside_layout(&r, 1, 0)) || (rc = vine__call_attach(&c)))
        goto out;
    c.a.inplace = inplace;
    c.a.rcounts = r.bc;
    c.a.rdispls = r.bd;
    if ((rc = plan(&c, r.big || sendcount > INT_MAX, &key)))
        goto out;
    if (vine__call_to_mpi(&c)) {
        const int *cnt, *dsp;
        if ((rc = mpi_tables(c.a.p, ru, &cnt, &dsp, owned)) == MPI_SUCCESS)
            rc = vine__call_mpi_done(&c, PMPI_Allgatherv(sendbuf, (int)sendcount, sendtype,
                                                         recvbuf, cnt, dsp, recvtype, comm));
        goto out;
    }
    char *rmem, *smem = NULL;
    if ((rc = vside_mem(&c, &r, VINE_PACK_OUT, 1, &rmem)))
        goto out;
    if (inplace && !r.raw) {
        rc = vside_pack(&r, rmem, c.a.rank, c.st->comm);
    } else if (!inplace) {
        vine_side one;
        vine__side_init(&one, sendbuf, (size_t)sendcount, &st);
        if (one.raw) {
            smem = (char *)(uintptr_t)sendbuf;
        } else if ((rc = vine__pack_scratch(c.st, VINE_PACK_IN, sbytes, &smem)) == MPI_SUCCESS) {
            rc = vine__side_pack(&one, smem, c.st->comm);
        }
    }
    if (rc == MPI_SUCCESS)
        rc = run(&c, smem, &r, rmem);
out:
    free(owned[0]);
    free(owned[1]);
    free(key.k);
    vside_free(&r);
    vside_free(&s);
    return rc;
}

/* ---- alltoallv and alltoallw ---- */

/*
 * Both: types st and rt hold one type (alltoallv, stride 0) or p
 * (alltoallw, stride 1, displacements in bytes); su is ignored in place.
 */
static int alltoallv_impl(vine_coll coll, const void *sendbuf, const utab *su,
                          const MPI_Datatype *stypes, void *recvbuf, const utab *ru,
                          const MPI_Datatype *rtypes, MPI_Comm comm)
{
    vine_call c;
    vside s = {0}, r = {0};
    vkey key = {NULL};
    vine_exec_type *types = NULL;
    int inplace = sendbuf == MPI_IN_PLACE, w = coll == VINE_COLL_ALLTOALLW, *owned[4] = {NULL};
    int rc = vine__call_start(&c, coll, comm);
    if (rc)
        return rc;
    int p = c.a.p, nt = w ? p : 1;
    if (recvbuf == MPI_IN_PLACE)
        return MPI_ERR_BUFFER;
    if (!utab_given(ru) || (!inplace && !utab_given(su)) || !rtypes || (!inplace && !stypes))
        return MPI_ERR_ARG;
    types = malloc(2 * (size_t)nt * sizeof *types);
    if (!types)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < nt && rc == MPI_SUCCESS; i++) {
        rc = vine__call_check_type(0, rtypes[i], &types[nt + i]);
        if (rc == MPI_SUCCESS && !inplace)
            rc = vine__call_check_type(0, stypes[i], &types[i]);
    }
    if (rc || (rc = vside_alloc(&r, p)) || (rc = vside_alloc(&s, p)))
        goto out;
    r.buf = recvbuf;
    r.t = types + nt;
    r.tstride = w;
    s.buf = (char *)(uintptr_t)sendbuf;
    s.t = inplace ? r.t : types;
    s.tstride = w;
    if ((rc = vside_fill(&r, ru, w)) || (!inplace && (rc = vside_fill(&s, su, w))))
        goto out;
    size_t stotal = 0, rtotal = 0;
    for (int i = 0; i < p; i++) {
        rtotal += r.bc[i];
        stotal += inplace ? 0 : s.bc[i];
    }
    /* A rank with nothing to move still takes part: "mpi" calls the MPI library everywhere. */
    if ((rc = vine__call_check_buf(recvbuf, rtotal, r.t)) ||
        (!inplace && (rc = vine__call_check_buf(sendbuf, stotal, s.t))) ||
        (rc = vine__call_check_request(&c)))
        goto out;
    if ((rc = vside_layout(&r, 1, 0)) || (rc = vine__call_attach(&c)))
        goto out;
    if (inplace) {
        /* The input is the receive blocks, moved to scratch before the schedule. */
        memcpy(s.n, r.n, (size_t)p * sizeof *s.n);
        memcpy(s.at, r.at, (size_t)p * sizeof *s.at);
        memcpy(s.bc, r.bc, (size_t)p * sizeof *s.bc);
        s.buf = r.buf;
    }
    /* In place the input moves to scratch: schedules never read and write one buffer. */
    if ((rc = vside_layout(&s, 0, inplace)))
        goto out;
    c.a.scounts = s.bc;
    c.a.sdispls = s.bd;
    c.a.rcounts = r.bc;
    c.a.rdispls = r.bd;
    if ((rc = plan(&c, r.big || s.big, &key)))
        goto out;
    if (vine__call_to_mpi(&c)) {
        const int *sc = NULL, *sd = NULL, *rc_ = NULL, *rd = NULL;
        if ((!inplace && (rc = mpi_tables(p, su, &sc, &sd, owned))) ||
            (rc = mpi_tables(p, ru, &rc_, &rd, owned + 2)))
            goto out;
        if (w)
            rc = PMPI_Alltoallw(sendbuf, sc, sd, stypes, recvbuf, rc_, rd, rtypes, comm);
        else
            rc = PMPI_Alltoallv(sendbuf, sc, sd, inplace ? MPI_DATATYPE_NULL : stypes[0], recvbuf,
                                rc_, rd, rtypes[0], comm);
        rc = vine__call_mpi_done(&c, rc);
        goto out;
    }
    char *smem, *rmem;
    if (inplace) {
        /* Packed in rank order whatever the types: the blocks leave the receive buffer. */
        if ((rc = vine__pack_scratch(c.st, VINE_PACK_IN, s.span, &smem)) == MPI_SUCCESS)
            rc = vside_pack(&s, smem, -1, c.st->comm);
    } else {
        rc = vside_mem(&c, &s, VINE_PACK_IN, 0, &smem);
    }
    if (rc == MPI_SUCCESS && (rc = vside_mem(&c, &r, VINE_PACK_OUT, 1, &rmem)) == MPI_SUCCESS)
        rc = run(&c, smem, &r, rmem);
out:
    for (int k = 0; k < 4; k++)
        free(owned[k]);
    free(key.k);
    free(types);
    vside_free(&r);
    vside_free(&s);
    return rc;
}

/* ---- gatherv and scatterv ---- */

/*
 * Both, mirror images: the root's side holds p blocks (gatherv's receive,
 * scatterv's send arguments, ignored elsewhere), every rank's own side one
 * block (MPI_IN_PLACE at an in-place root).  gather: 1 for gatherv.
 */
static int rooted_impl(int gather, const void *ownbuf, MPI_Count owncount, MPI_Datatype owntype,
                       const void *rootbuf, const utab *u, MPI_Datatype roottype, int root,
                       MPI_Comm comm)
{
    vine_call c;
    vine_exec_type ot, rt = *vine__byte_type();
    vside b = {0};
    vkey key = {NULL};
    size_t *table = NULL;
    int *owned[2] = {NULL, NULL};
    int rc = vine__call_start(&c, gather ? VINE_COLL_GATHERV : VINE_COLL_SCATTERV, comm);
    if (rc)
        return rc;
    int p = c.a.p, me = c.a.rank, at_root = me == root, inplace = ownbuf == MPI_IN_PLACE;
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
    if ((rc = vside_alloc(&b, p)))
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
        b.bc[me] = own;
        b.big = owncount > INT_MAX;
    }
    if ((rc = vine__call_check_request(&c)) || (rc = vine__call_attach(&c)))
        goto out;
    c.a.root = root;
    c.a.inplace = inplace;
    if (c.req && (c.req->flags & VINE_ALGO_ALLCOUNTS)) {
        /* The algorithm needs every block's size everywhere: the root's table, broadcast. */
        table = malloc((size_t)p * sizeof *table + 1);
        if (!table) {
            rc = MPI_ERR_NO_MEM;
            goto out;
        }
        if (at_root)
            memcpy(table, b.bc, (size_t)p * sizeof *table);
        if ((rc = PMPI_Bcast(table, p * (int)sizeof *table, MPI_BYTE, root, c.st->comm))) {
            rc = MPI_ERR_OTHER;
            goto out;
        }
        if (!at_root && table[me] != own) {
            rc = MPI_ERR_TRUNCATE;
            goto out;
        }
        memcpy(b.bc, table, (size_t)p * sizeof *table);
    }
    if (gather) {
        c.a.rcounts = b.bc;
        c.a.rdispls = b.bd;
    } else {
        c.a.scounts = b.bc;
        c.a.sdispls = b.bd;
    }
    if ((rc = plan(&c, b.big || owncount > INT_MAX, &key)))
        goto out;
    if (vine__call_to_mpi(&c)) {
        const int *cnt = NULL, *dsp = NULL;
        if (at_root && (rc = mpi_tables(p, u, &cnt, &dsp, owned)))
            goto out;
        if (gather)
            rc = PMPI_Gatherv(ownbuf, (int)owncount, owntype, (void *)(uintptr_t)rootbuf, cnt, dsp,
                              roottype, root, comm);
        else
            rc = PMPI_Scatterv(rootbuf, cnt, dsp, roottype, (void *)(uintptr_t)ownbuf,
                               (int)owncount, owntype, root, comm);
        rc = vine__call_mpi_done(&c, rc);
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
        rc = vside_pack(&b, bmem, root, c.st->comm);
    if (rc == MPI_SUCCESS && !inplace) {
        if (one.raw)
            omem = one.buf;
        else if ((rc = vine__pack_scratch(c.st, gather ? VINE_PACK_IN : VINE_PACK_OUT, own,
                                          &omem)) == MPI_SUCCESS && gather)
            rc = vine__side_pack(&one, omem, c.st->comm);
    }
    if (rc)
        goto out;
    if (gather) {
        rc = run(&c, omem, at_root ? &b : NULL, bmem);
    } else {
        rc = run(&c, bmem, NULL, omem);
        if (rc == MPI_SUCCESS && !inplace && !one.raw)
            rc = vine__side_unpack(&one, omem, c.st->comm);
    }
out:
    free(owned[0]);
    free(owned[1]);
    free(table);
    free(key.k);
    vside_free(&b);
    return rc;
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
