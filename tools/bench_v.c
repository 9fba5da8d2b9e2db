/*
 * vine-bench coll on the irregular collectives and the scans: the --dist
 * values, the shapes of the buffers and tables, and the calls
 * (bench_v.h, docs/bench.md).
 */
#include "bench_v.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int bench_v_irregular(vine_coll coll)
{
    return coll == VINE_COLL_ALLGATHERV || coll == VINE_COLL_ALLTOALLV ||
           coll == VINE_COLL_ALLTOALLW || coll == VINE_COLL_GATHERV || coll == VINE_COLL_SCATTERV;
}

int bench_v_a2a(vine_coll coll)
{
    return coll == VINE_COLL_ALLTOALLV || coll == VINE_COLL_ALLTOALLW;
}

int bench_v_new(vine_coll coll)
{
    return bench_v_irregular(coll) || coll == VINE_COLL_SCAN || coll == VINE_COLL_EXSCAN;
}

/* ---- --dist ----------------------------------------------------------------- */

/* The label of spec: the spec itself, or for a file "file:" and the file's base name. */
static void dist_label(char *label, const char *spec)
{
    const char *show = spec, *slash = strrchr(spec, '/');
    char buf[BENCH_V_LABEL + 8];
    if (strncmp(spec, "file:", 5) == 0 && slash) {
        snprintf(buf, sizeof buf, "file:%.*s", BENCH_V_LABEL, slash + 1);
        show = buf;
    }
    size_t len = strlen(show);
    if (len >= BENCH_V_LABEL)
        len = BENCH_V_LABEL - 1;
    memcpy(label, show, len);
    label[len] = '\0';
}

/* Parses one vdist spec into d[*n] and its label. */
static int add_dist(const char *spec, vine_vdist *d, char (*labels)[BENCH_V_LABEL], int cap, int *n,
                    char *err, size_t errlen)
{
    if (*n >= cap) {
        snprintf(err, errlen, "more than %d sizes and distributions", cap);
        return -1;
    }
    if (vine__vdist_parse(spec, &d[*n], err, errlen) != 0)
        return -1;
    dist_label(labels[*n], spec);
    ++*n;
    return 0;
}

/* A whole decimal number without sign or unit. */
static int parse_whole(const char *s, size_t len, unsigned long long *out)
{
    char buf[32], *end;
    if (len == 0 || len >= sizeof buf || s[0] < '0' || s[0] > '9')
        return -1;
    memcpy(buf, s, len);
    buf[len] = '\0';
    errno = 0;
    *out = strtoull(buf, &end, 10);
    return *end || errno ? -1 : 0;
}

/* KIND:LO..HI[,ARG] with the range at [lo, lo + len): one spec per N, doubling. */
static int expand_range(const char *spec, const char *lo, size_t len, vine_vdist *d,
                        char (*labels)[BENCH_V_LABEL], int cap, int *n, char *err, size_t errlen)
{
    const char *dots = strstr(lo, "..");
    unsigned long long a, b;
    if (!dots || dots >= lo + len || parse_whole(lo, (size_t)(dots - lo), &a) ||
        parse_whole(dots + 2, (size_t)(lo + len - dots - 2), &b) || a > b) {
        snprintf(err, errlen, "%s: a range of N is LO..HI, whole numbers with LO <= HI", spec);
        return -1;
    }
    for (unsigned long long x = a;; x = x ? 2 * x : 1) {
        char one[256];
        int w = snprintf(one, sizeof one, "%.*s%llu%s", (int)(lo - spec), spec, x, lo + len);
        if (w < 0 || (size_t)w >= sizeof one) {
            snprintf(err, errlen, "%s: too long", spec);
            return -1;
        }
        if (add_dist(one, d, labels, cap, n, err, errlen))
            return -1;
        if (x >= b || x > b / 2)
            return 0;
    }
}

int bench_v_parse_dist(const char *spec, vine_vdist *d, char (*labels)[BENCH_V_LABEL], int cap,
                       int *n, char *err, size_t errlen)
{
    const char *colon = strchr(spec, ':');
    if (colon && strncmp(spec, "file:", 5) != 0) {
        const char *args = colon + 1;
        size_t len = strcspn(args, ",");
        const char *dots = strstr(args, "..");
        if (dots && dots < args + len)
            return expand_range(spec, args, len, d, labels, cap, n, err, errlen);
    }
    return add_dist(spec, d, labels, cap, n, err, errlen);
}

size_t bench_v_base(const vine_vdist *d, int p, int a2a)
{
    if (d->kind != VINE_VD_FILE)
        return d->n;
    size_t sum = 0, blocks = (size_t)p * (size_t)(a2a ? p : 1);
    for (int i = 0; i < p; i++)
        for (int j = 0; j < (a2a ? p : 1); j++)
            sum += vine__vdist_block(d, p, i, j, a2a);
    return blocks ? sum / blocks : 0;
}

/* ---- The shapes ------------------------------------------------------------- */

/* The block from rank i (to rank j for a2a), in elements: n without a distribution. */
static size_t block(const vine_vdist *d, size_t n, int p, int i, int j, int a2a)
{
    return d ? vine__vdist_block(d, p, i, j, a2a) : n;
}

/*
 * Fills cnt and dsp with blocks packed in rank order, displacements in unit
 * (1: elements, the element size: bytes); rank k's block is from rank
 * k to `to` when dir is 1, from `to` to rank k when dir is 2, rank k's own
 * when dir is 0.  *total: the elements of all p blocks.  BENCH_V_BIG past INT_MAX.
 */
static int fill(const bcase *b, const vine_vdist *d, size_t n, int dir, int to, size_t unit,
                int *cnt, int *dsp, size_t *total)
{
    size_t off = 0;
    for (int k = 0; k < b->p; k++) {
        size_t c = dir == 0   ? block(d, n, b->p, k, 0, 0)
                   : dir == 1 ? block(d, n, b->p, k, to, 1)
                              : block(d, n, b->p, to, k, 1);
        if (c > INT_MAX || off > INT_MAX / unit)
            return BENCH_V_BIG;
        cnt[k] = (int)c;
        dsp[k] = (int)(off * unit);
        off += c;
    }
    *total = off;
    return off > INT_MAX ? BENCH_V_BIG : 0;
}

static int alloc_tables(bcase *b)
{
    size_t np = (size_t)b->p;
    b->scounts = malloc(np * sizeof(int));
    b->sdispls = malloc(np * sizeof(int));
    b->rcounts = malloc(np * sizeof(int));
    b->rdispls = malloc(np * sizeof(int));
    b->types = malloc(np * sizeof(MPI_Datatype));
    if (!b->scounts || !b->sdispls || !b->rcounts || !b->rdispls || !b->types)
        return BENCH_V_NOMEM;
    for (size_t k = 0; k < np; k++)
        b->types[k] = b->dt;
    return 0;
}

/* alltoallv and alltoallw: what this rank sends to each rank and receives from each. */
static int shape_a2a(bcase *b, const vine_vdist *d, size_t n, size_t *sent)
{
    size_t unit = b->coll == VINE_COLL_ALLTOALLW ? b->tsize : 1, rtotal = 0;
    int rc = fill(b, d, n, 2, b->rank, unit, b->scounts, b->sdispls, sent);
    if (!rc)
        rc = fill(b, d, n, 1, b->rank, unit, b->rcounts, b->rdispls, &rtotal);
    if (!rc && b->inplace && memcmp(b->scounts, b->rcounts, (size_t)b->p * sizeof(int)) != 0)
        rc = BENCH_V_ASYM;
    b->in_elems = *sent;
    b->recv_elems = b->res_elems = rtotal;
    return rc;
}

/* allgatherv, gatherv (r 1: receive tables) and scatterv (r 0: send tables). */
static int shape_blocks(bcase *b, const vine_vdist *d, size_t n, size_t *sent)
{
    int gather = b->coll != VINE_COLL_SCATTERV, root = b->rank == b->root;
    int *cnt = gather ? b->rcounts : b->scounts, *dsp = gather ? b->rdispls : b->sdispls;
    size_t total;
    int rc = fill(b, d, n, 0, 0, 1, cnt, dsp, &total);
    if (rc)
        return rc;
    b->vcount = cnt[b->rank];
    b->own_off = (size_t)dsp[b->rank];
    if (b->coll == VINE_COLL_SCATTERV) {
        b->in_elems = root ? total : 0;
        b->recv_elems = (size_t)b->vcount;
        b->res_elems = root && b->inplace ? 0 : (size_t)b->vcount;
        *sent = root ? total : 0;
        return 0;
    }
    b->in_elems = *sent = (size_t)b->vcount;
    b->recv_elems = b->res_elems = b->coll == VINE_COLL_ALLGATHERV || root ? total : 0;
    return 0;
}

int bench_v_shape(bcase *b, const vine_vdist *d, size_t n, size_t *sent)
{
    int a2a = bench_v_a2a(b->coll);
    size_t base = d ? bench_v_base(d, b->p, a2a) : n;
    b->count = base > INT_MAX ? INT_MAX : (int)base;
    b->res_off = 0;
    *sent = 0;
    if (!bench_v_irregular(b->coll)) {
        b->in_elems = b->recv_elems = b->res_elems = n;
        /* exscan leaves rank 0's receive buffer undefined. */
        if (b->coll == VINE_COLL_EXSCAN && b->rank == 0)
            b->res_elems = 0;
        *sent = n;
        return n > INT_MAX ? BENCH_V_BIG : 0;
    }
    if (base > INT_MAX)
        return BENCH_V_BIG;
    int rc = alloc_tables(b);
    if (rc)
        return rc;
    return a2a ? shape_a2a(b, d, n, sent) : shape_blocks(b, d, n, sent);
}

void bench_v_free(bcase *b)
{
    free(b->scounts);
    free(b->sdispls);
    free(b->rcounts);
    free(b->rdispls);
    free(b->types);
    b->scounts = b->sdispls = b->rcounts = b->rdispls = NULL;
    b->types = NULL;
}

/* ---- The calls -------------------------------------------------------------- */

static int run_vine(const bcase *b, const void *s, void *r)
{
    MPI_Comm w = MPI_COMM_WORLD;
    switch (b->coll) {
    case VINE_COLL_ALLGATHERV:
        return vine_allgatherv(s, b->vcount, b->dt, r, b->rcounts, b->rdispls, b->dt, w);
    case VINE_COLL_ALLTOALLV:
        return vine_alltoallv(s, b->scounts, b->sdispls, b->dt, r, b->rcounts, b->rdispls, b->dt,
                              w);
    case VINE_COLL_ALLTOALLW:
        return vine_alltoallw(s, b->scounts, b->sdispls, b->types, r, b->rcounts, b->rdispls,
                              b->types, w);
    case VINE_COLL_GATHERV:
        return vine_gatherv(s, b->vcount, b->dt, r, b->rcounts, b->rdispls, b->dt, b->root, w);
    case VINE_COLL_SCATTERV:
        return vine_scatterv(s, b->scounts, b->sdispls, b->dt, r, b->vcount, b->dt, b->root, w);
    case VINE_COLL_SCAN:
        return vine_scan(s, r, b->count, b->dt, b->op, w);
    default:
        return vine_exscan(s, r, b->count, b->dt, b->op, w);
    }
}

static int run_mpi(const bcase *b, const void *s, void *r)
{
    MPI_Comm w = MPI_COMM_WORLD;
    switch (b->coll) {
    case VINE_COLL_ALLGATHERV:
        return MPI_Allgatherv(s, b->vcount, b->dt, r, b->rcounts, b->rdispls, b->dt, w);
    case VINE_COLL_ALLTOALLV:
        return MPI_Alltoallv(s, b->scounts, b->sdispls, b->dt, r, b->rcounts, b->rdispls, b->dt, w);
    case VINE_COLL_ALLTOALLW:
        return MPI_Alltoallw(s, b->scounts, b->sdispls, b->types, r, b->rcounts, b->rdispls,
                             b->types, w);
    case VINE_COLL_GATHERV:
        return MPI_Gatherv(s, b->vcount, b->dt, r, b->rcounts, b->rdispls, b->dt, b->root, w);
    case VINE_COLL_SCATTERV:
        return MPI_Scatterv(s, b->scounts, b->sdispls, b->dt, r, b->vcount, b->dt, b->root, w);
    case VINE_COLL_SCAN:
        return MPI_Scan(s, r, b->count, b->dt, b->op, w);
    default:
        return MPI_Exscan(s, r, b->count, b->dt, b->op, w);
    }
}

int bench_v_run(const bcase *b, int mpi)
{
    const void *s = bench_send_arg(b);
    void *r = bench_recv_arg(b);
    return mpi ? run_mpi(b, s, r) : run_vine(b, s, r);
}

/* ---- Nonblocking and persistent calls ---------------------------------------- */

static int start_vine(const bcase *b, const void *s, void *r, MPI_Request *q)
{
    MPI_Comm w = MPI_COMM_WORLD;
    switch (b->coll) {
    case VINE_COLL_ALLGATHERV:
        return vine_iallgatherv(s, b->vcount, b->dt, r, b->rcounts, b->rdispls, b->dt, w, q);
    case VINE_COLL_ALLTOALLV:
        return vine_ialltoallv(s, b->scounts, b->sdispls, b->dt, r, b->rcounts, b->rdispls, b->dt,
                               w, q);
    case VINE_COLL_ALLTOALLW:
        return vine_ialltoallw(s, b->scounts, b->sdispls, b->types, r, b->rcounts, b->rdispls,
                               b->types, w, q);
    case VINE_COLL_GATHERV:
        return vine_igatherv(s, b->vcount, b->dt, r, b->rcounts, b->rdispls, b->dt, b->root, w, q);
    case VINE_COLL_SCATTERV:
        return vine_iscatterv(s, b->scounts, b->sdispls, b->dt, r, b->vcount, b->dt, b->root, w, q);
    case VINE_COLL_SCAN:
        return vine_iscan(s, r, b->count, b->dt, b->op, w, q);
    default:
        return vine_iexscan(s, r, b->count, b->dt, b->op, w, q);
    }
}

static int start_mpi(const bcase *b, const void *s, void *r, MPI_Request *q)
{
    MPI_Comm w = MPI_COMM_WORLD;
    switch (b->coll) {
    case VINE_COLL_ALLGATHERV:
        return MPI_Iallgatherv(s, b->vcount, b->dt, r, b->rcounts, b->rdispls, b->dt, w, q);
    case VINE_COLL_ALLTOALLV:
        return MPI_Ialltoallv(s, b->scounts, b->sdispls, b->dt, r, b->rcounts, b->rdispls, b->dt, w,
                              q);
    case VINE_COLL_ALLTOALLW:
        return MPI_Ialltoallw(s, b->scounts, b->sdispls, b->types, r, b->rcounts, b->rdispls,
                              b->types, w, q);
    case VINE_COLL_GATHERV:
        return MPI_Igatherv(s, b->vcount, b->dt, r, b->rcounts, b->rdispls, b->dt, b->root, w, q);
    case VINE_COLL_SCATTERV:
        return MPI_Iscatterv(s, b->scounts, b->sdispls, b->dt, r, b->vcount, b->dt, b->root, w, q);
    case VINE_COLL_SCAN:
        return MPI_Iscan(s, r, b->count, b->dt, b->op, w, q);
    default:
        return MPI_Iexscan(s, r, b->count, b->dt, b->op, w, q);
    }
}

int bench_v_start(const bcase *b, int mpi, MPI_Request *q)
{
    const void *s = bench_send_arg(b);
    void *r = bench_recv_arg(b);
    return mpi ? start_mpi(b, s, r, q) : start_vine(b, s, r, q);
}

static int init_vine(const bcase *b, const void *s, void *r, MPI_Request *q)
{
    MPI_Comm w = MPI_COMM_WORLD;
    MPI_Info n = MPI_INFO_NULL;
    switch (b->coll) {
    case VINE_COLL_ALLGATHERV:
        return vine_allgatherv_init(s, b->vcount, b->dt, r, b->rcounts, b->rdispls, b->dt, w, n, q);
    case VINE_COLL_ALLTOALLV:
        return vine_alltoallv_init(s, b->scounts, b->sdispls, b->dt, r, b->rcounts, b->rdispls,
                                   b->dt, w, n, q);
    case VINE_COLL_ALLTOALLW:
        return vine_alltoallw_init(s, b->scounts, b->sdispls, b->types, r, b->rcounts, b->rdispls,
                                   b->types, w, n, q);
    case VINE_COLL_GATHERV:
        return vine_gatherv_init(s, b->vcount, b->dt, r, b->rcounts, b->rdispls, b->dt, b->root, w,
                                 n, q);
    case VINE_COLL_SCATTERV:
        return vine_scatterv_init(s, b->scounts, b->sdispls, b->dt, r, b->vcount, b->dt, b->root, w,
                                  n, q);
    case VINE_COLL_SCAN:
        return vine_scan_init(s, r, b->count, b->dt, b->op, w, n, q);
    default:
        return vine_exscan_init(s, r, b->count, b->dt, b->op, w, n, q);
    }
}

#if MPI_VERSION >= 4
static int init_mpi(const bcase *b, const void *s, void *r, MPI_Request *q)
{
    MPI_Comm w = MPI_COMM_WORLD;
    MPI_Info n = MPI_INFO_NULL;
    switch (b->coll) {
    case VINE_COLL_ALLGATHERV:
        return MPI_Allgatherv_init(s, b->vcount, b->dt, r, b->rcounts, b->rdispls, b->dt, w, n, q);
    case VINE_COLL_ALLTOALLV:
        return MPI_Alltoallv_init(s, b->scounts, b->sdispls, b->dt, r, b->rcounts, b->rdispls,
                                  b->dt, w, n, q);
    case VINE_COLL_ALLTOALLW:
        return MPI_Alltoallw_init(s, b->scounts, b->sdispls, b->types, r, b->rcounts, b->rdispls,
                                  b->types, w, n, q);
    case VINE_COLL_GATHERV:
        return MPI_Gatherv_init(s, b->vcount, b->dt, r, b->rcounts, b->rdispls, b->dt, b->root, w,
                                n, q);
    case VINE_COLL_SCATTERV:
        return MPI_Scatterv_init(s, b->scounts, b->sdispls, b->dt, r, b->vcount, b->dt, b->root, w,
                                 n, q);
    case VINE_COLL_SCAN:
        return MPI_Scan_init(s, r, b->count, b->dt, b->op, w, n, q);
    default:
        return MPI_Exscan_init(s, r, b->count, b->dt, b->op, w, n, q);
    }
}
#endif

int bench_v_init(const bcase *b, int mpi, MPI_Request *q)
{
    const void *s = bench_send_arg(b);
    void *r = bench_recv_arg(b);
    if (!mpi)
        return init_vine(b, s, r, q);
#if MPI_VERSION >= 4
    return init_mpi(b, s, r, q);
#else
    return MPI_ERR_OTHER;
#endif
}
