/*
 * MPI tier: nonblocking and persistent collectives (issue 19), every
 * algorithm of every collective.  Each algorithm is forced in turn and each
 * call is made in nonblocking form (vine_i<coll>) and in persistent form
 * (vine_<coll>_init, started twice with other inputs the second time), and
 * twice in each _c form; the result is compared byte for byte with the same
 * call made to the MPI library's blocking collective (not in place) on a
 * buffer that started out the same.  Cases: MPI_INT with MPI_SUM at counts
 * 0, 1 (every root of the rooted collectives) and 1000 (above the segment
 * size set here, so the pipelined algorithms run in segments; a root that
 * moves with the algorithm and the form), MPI_DOUBLE, the harness's
 * non-commutative matrix product for the reductions, a vector datatype with
 * holes for the data-movement collectives, and MPI_IN_PLACE where MPI
 * allows it.  The completion function rotates through vine_wait, vine_test,
 * vine_waitall, vine_testall and vine_waitany, and the status of a
 * collective must be empty.  Bytes outside the result, the guards around it
 * and the send buffer must be untouched.  VINE_TEST_NB_COLL=<coll> runs one
 * collective; VINE_TEST_NB_TIME=1 prints the time of each algorithm.
 */
#include "mpitest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BIG = 1000, SEGMENT_BYTES = 1024, DEADLINE_S = 60 };

enum form { F_MPI, F_NB, F_INIT, F_NB_C, F_INIT_C };
static const char *const form_fmt[] = {"%s", "i%s", "%s_init", "i%s_c", "%s_init_c"};

enum tkind { T_INT, T_DOUBLE, T_MAT, T_VEC, NTYPES };

/* A datatype under test with the op of its reductions. */
typedef struct nb_type {
    const char *name;
    MPI_Datatype type;
    size_t extent;
    const mt_type *mt; /* NULL for the vector type */
    const mt_op *op;
} nb_type;

static nb_type types[NTYPES];

typedef struct nb_case {
    vine_coll coll;
    const char *algo;
    int form; /* enum form */
    int ti;   /* enum tkind */
    int n;
    int root;
    int inplace;
} nb_case;

/* Where the data of a case lies, in elements. */
typedef struct layout {
    size_t send;    /* elements of the send buffer */
    size_t alloc;   /* elements of the receive buffer */
    size_t cmp;     /* leading elements of the result, compared with MPI's */
    int undef_rest; /* the rest is undefined (in-place reduce-scatters) */
    size_t pre_off; /* in place: where the input is copied into the receive buffer */
    size_t pre_len;
    int send_in_place; /* the send argument is MPI_IN_PLACE */
    int recv_in_place; /* the receive argument is MPI_IN_PLACE (scatter's root) */
} layout;

static int rcounts[64];
static MPI_Count rcounts_c[64];
static long ncalls;

static int is_rooted(vine_coll c)
{
    return c == VINE_COLL_BCAST || c == VINE_COLL_REDUCE || c == VINE_COLL_GATHER ||
           c == VINE_COLL_SCATTER;
}

static int is_reduction(vine_coll c)
{
    return c == VINE_COLL_REDUCE || c == VINE_COLL_ALLREDUCE || c == VINE_COLL_REDUCE_SCATTER ||
           c == VINE_COLL_REDUCE_SCATTER_BLOCK;
}

/* reduce_scatter's counts: irregular, some zero. */
static size_t set_rcounts(int n)
{
    size_t sum = 0;
    for (int i = 0; i < mt_size; i++) {
        rcounts[i] = n == 0 ? 0 : n + i % 3 - 1;
        rcounts_c[i] = rcounts[i];
        sum += (size_t)rcounts[i];
    }
    return sum;
}

static layout layout_of(const nb_case *c)
{
    size_t n = (size_t)c->n, p = (size_t)mt_size, r = (size_t)mt_rank;
    int at_root = mt_rank == c->root, ip = c->inplace;
    layout l = {0};
    switch (c->coll) {
    case VINE_COLL_BCAST:
        l = (layout){0, n, n, 0, 0, 0, 0, 0};
        break;
    case VINE_COLL_REDUCE:
        l = (layout){n, n, at_root ? n : 0, 0, 0, n, ip && at_root, 0};
        break;
    case VINE_COLL_ALLREDUCE:
        l = (layout){n, n, n, 0, 0, n, ip, 0};
        break;
    case VINE_COLL_ALLGATHER:
        l = (layout){n, n * p, n * p, 0, r * n, n, ip, 0};
        break;
    case VINE_COLL_ALLTOALL:
        l = (layout){n * p, n * p, n * p, 0, 0, n * p, ip, 0};
        break;
    case VINE_COLL_GATHER:
        l = (layout){n, n * p, at_root ? n * p : 0, 0, (size_t)c->root * n, n, ip && at_root, 0};
        break;
    case VINE_COLL_SCATTER:
        l = (layout){n * p, n, ip && at_root ? 0 : n, 0, 0, 0, 0, ip && at_root};
        break;
    case VINE_COLL_REDUCE_SCATTER_BLOCK:
        l = (layout){n * p, ip ? n * p : n, n, ip, 0, n * p, ip, 0};
        break;
    case VINE_COLL_REDUCE_SCATTER: {
        size_t sum = set_rcounts(c->n);
        l = (layout){sum, ip ? sum : (size_t)rcounts[r], (size_t)rcounts[r], ip, 0, sum, ip, 0};
        break;
    }
    default:
        break;
    }
    if (!l.send_in_place)
        l.pre_len = 0;
    return l;
}

#define FORMS(mpi, nb, init, nbc, initc)                                                           \
    switch (form) {                                                                                \
    case F_MPI:                                                                                    \
        return mpi;                                                                                \
    case F_NB:                                                                                     \
        return nb;                                                                                 \
    case F_INIT:                                                                                   \
        return init;                                                                               \
    case F_NB_C:                                                                                   \
        return nbc;                                                                                \
    default:                                                                                       \
        return initc;                                                                              \
    }

/* Calls the collective of c in the given form (F_MPI: MPI's blocking one). */
static int call(int form, const nb_case *c, const void *sb, void *rb, MPI_Request *q)
{
    MPI_Comm w = MPI_COMM_WORLD;
    MPI_Info in = MPI_INFO_NULL;
    MPI_Datatype t = types[c->ti].type;
    MPI_Op op = types[c->ti].op->op;
    int n = c->n, root = c->root;
    MPI_Count k = c->n;
    switch (c->coll) {
    case VINE_COLL_BCAST:
        FORMS(MPI_Bcast(rb, n, t, root, w), vine_ibcast(rb, n, t, root, w, q),
              vine_bcast_init(rb, n, t, root, w, in, q), vine_ibcast_c(rb, k, t, root, w, q),
              vine_bcast_init_c(rb, k, t, root, w, in, q))
    case VINE_COLL_REDUCE:
        FORMS(MPI_Reduce(sb, rb, n, t, op, root, w), vine_ireduce(sb, rb, n, t, op, root, w, q),
              vine_reduce_init(sb, rb, n, t, op, root, w, in, q),
              vine_ireduce_c(sb, rb, k, t, op, root, w, q),
              vine_reduce_init_c(sb, rb, k, t, op, root, w, in, q))
    case VINE_COLL_ALLREDUCE:
        FORMS(MPI_Allreduce(sb, rb, n, t, op, w), vine_iallreduce(sb, rb, n, t, op, w, q),
              vine_allreduce_init(sb, rb, n, t, op, w, in, q),
              vine_iallreduce_c(sb, rb, k, t, op, w, q),
              vine_allreduce_init_c(sb, rb, k, t, op, w, in, q))
    case VINE_COLL_ALLGATHER:
        FORMS(MPI_Allgather(sb, n, t, rb, n, t, w), vine_iallgather(sb, n, t, rb, n, t, w, q),
              vine_allgather_init(sb, n, t, rb, n, t, w, in, q),
              vine_iallgather_c(sb, k, t, rb, k, t, w, q),
              vine_allgather_init_c(sb, k, t, rb, k, t, w, in, q))
    case VINE_COLL_ALLTOALL:
        FORMS(MPI_Alltoall(sb, n, t, rb, n, t, w), vine_ialltoall(sb, n, t, rb, n, t, w, q),
              vine_alltoall_init(sb, n, t, rb, n, t, w, in, q),
              vine_ialltoall_c(sb, k, t, rb, k, t, w, q),
              vine_alltoall_init_c(sb, k, t, rb, k, t, w, in, q))
    case VINE_COLL_GATHER:
        FORMS(MPI_Gather(sb, n, t, rb, n, t, root, w), vine_igather(sb, n, t, rb, n, t, root, w, q),
              vine_gather_init(sb, n, t, rb, n, t, root, w, in, q),
              vine_igather_c(sb, k, t, rb, k, t, root, w, q),
              vine_gather_init_c(sb, k, t, rb, k, t, root, w, in, q))
    case VINE_COLL_SCATTER:
        FORMS(MPI_Scatter(sb, n, t, rb, n, t, root, w),
              vine_iscatter(sb, n, t, rb, n, t, root, w, q),
              vine_scatter_init(sb, n, t, rb, n, t, root, w, in, q),
              vine_iscatter_c(sb, k, t, rb, k, t, root, w, q),
              vine_scatter_init_c(sb, k, t, rb, k, t, root, w, in, q))
    case VINE_COLL_REDUCE_SCATTER_BLOCK:
        FORMS(MPI_Reduce_scatter_block(sb, rb, n, t, op, w),
              vine_ireduce_scatter_block(sb, rb, n, t, op, w, q),
              vine_reduce_scatter_block_init(sb, rb, n, t, op, w, in, q),
              vine_ireduce_scatter_block_c(sb, rb, k, t, op, w, q),
              vine_reduce_scatter_block_init_c(sb, rb, k, t, op, w, in, q))
    case VINE_COLL_REDUCE_SCATTER:
        FORMS(MPI_Reduce_scatter(sb, rb, rcounts, t, op, w),
              vine_ireduce_scatter(sb, rb, rcounts, t, op, w, q),
              vine_reduce_scatter_init(sb, rb, rcounts, t, op, w, in, q),
              vine_ireduce_scatter_c(sb, rb, rcounts_c, t, op, w, q),
              vine_reduce_scatter_init_c(sb, rb, rcounts_c, t, op, w, in, q))
    default:
        FORMS(MPI_Barrier(w), vine_ibarrier(w, q), vine_barrier_init(w, in, q), MPI_ERR_ARG,
              MPI_ERR_ARG)
    }
}

/* Writes n elements of rank r's input, varied by seed, into buf. */
static void fill(int ti, void *buf, size_t n, int r, int seed)
{
    const nb_type *t = &types[ti];
    if (t->mt) {
        mt_fill(t->mt, t->op, buf, n, r, (size_t)seed * 1009);
        return;
    }
    int *v = buf;
    for (size_t j = 0; j < n * t->extent / sizeof(int); j++)
        v[j] = r * 100003 + seed * 1009 + (int)j;
}

static void begin(const nb_case *c)
{
    static char label[64];
    snprintf(label, sizeof label, form_fmt[c->form], vine_coll_name(c->coll));
    mt_case mc = {label,
                  c->algo,
                  c->coll == VINE_COLL_BARRIER ? "-" : types[c->ti].name,
                  is_reduction(c->coll) ? types[c->ti].op->name : "-",
                  c->n,
                  is_rooted(c->coll) ? c->root : -1,
                  c->inplace};
    mt_begin(&mc);
}

/* One vine call (or start) on prepared buffers, checked against MPI's result. */
static void check_result(const nb_case *c, const layout *l, const unsigned char *got,
                         const unsigned char *want, const unsigned char *init)
{
    size_t ext = types[c->ti].extent, cmp = l->cmp * ext, all = l->alloc * ext;
    for (size_t j = 0; j < cmp; j++)
        if (got[j] != want[j]) {
            mt_fail("result differs from MPI's at byte %zu (element %zu): %02x, expected %02x", j,
                    j / ext, got[j], want[j]);
            return;
        }
    for (size_t j = cmp; j < all && !l->undef_rest; j++)
        if (got[j] != init[j]) {
            mt_fail("byte %zu (element %zu) outside the result was written", j, j / ext);
            return;
        }
}

/* Fills the send buffer, and the receive buffers of vine and MPI alike, for one start. */
static void prepare(const nb_case *c, const layout *l, unsigned char *send, unsigned char *got,
                    unsigned char *want, unsigned char *init, int seed)
{
    size_t ext = types[c->ti].extent;
    fill(c->ti, send, l->send, mt_rank, seed);
    memset(got, 0xEE, l->alloc * ext);
    if (c->coll == VINE_COLL_BCAST && mt_rank == c->root)
        fill(c->ti, got, l->alloc, mt_rank, seed);
    memcpy(got + l->pre_off * ext, send, l->pre_len * ext);
    memcpy(want, got, l->alloc * ext);
    memcpy(init, got, l->alloc * ext);
}

static void run_case(const nb_case *c, int *kc)
{
    const nb_type *t = &types[c->ti];
    layout l = layout_of(c);
    size_t ext = t->extent, sbytes = l.send * ext, abytes = l.alloc * ext;
    unsigned char *send = malloc(sbytes + 1), *keep = malloc(sbytes + 1);
    unsigned char *want = malloc(abytes + 1), *init = malloc(abytes + 1);
    mt_buf r;
    mt_buf_alloc(&r, abytes);
    begin(c);
    int persistent = c->form == F_INIT || c->form == F_INIT_C;
    MPI_Request q = MPI_REQUEST_NULL;
    const void *sarg = l.send_in_place ? MPI_IN_PLACE : (const void *)send;
    void *rarg = l.recv_in_place ? MPI_IN_PLACE : (void *)r.data;
    for (int start = 0; start < (persistent ? 2 : 1); start++) {
        prepare(c, &l, send, r.data, want, init, start + c->n);
        memcpy(keep, send, sbytes);
        /* The reference is never in place (the result is the same): MPICH 4.0.2's
         * MPI_Reduce in place crashes at root 1 of 2 with 1000 ints. */
        if (!mt_check_rc(call(F_MPI, c, send, want, NULL), "the MPI library's collective"))
            break;
        if (start == 0) {
            int rc = call(c->form, c, sarg, rarg, &q);
            ncalls++;
            if (!mt_check_rc(rc, "the call"))
                break;
            if (q == MPI_REQUEST_NULL || !vine_is_request(q)) {
                mt_fail("the call gave no vine request");
                break;
            }
            size_t total = l.send > l.alloc ? l.send : l.alloc;
            mt_check_served(c->coll, c->algo, t->op->commutative,
                            c->coll == VINE_COLL_BARRIER ? (size_t)(mt_size > 1) : total);
        }
        if (persistent && !mt_check_rc(vine_start(&q), "vine_start"))
            break;
        MPI_Status st;
        int k = (*kc)++;
        if (!mt_check_rc(mt_complete(&q, k, &st, DEADLINE_S), "completion"))
            break;
        mt_check_empty_status(&st, "completion");
        if (persistent ? q == MPI_REQUEST_NULL || !vine_is_request(q) : q != MPI_REQUEST_NULL)
            mt_fail("after completion the request is %s", q == MPI_REQUEST_NULL ? "null" : "set");
        check_result(c, &l, r.data, want, init);
        mt_check_guards(&r);
        mt_check_unchanged(send, keep, sbytes);
    }
    if (persistent && q != MPI_REQUEST_NULL) {
        mt_check_rc(vine_request_free(&q), "vine_request_free");
        if (q != MPI_REQUEST_NULL)
            mt_fail("vine_request_free left the request set");
    }
    mt_buf_free(&r);
    free(send);
    free(keep);
    free(want);
    free(init);
}

/* The cases of one algorithm in one form (see the comment at the top). */
static void sweep_form(vine_coll coll, const char *algo, int ai, int form, int *kc)
{
    int p = mt_size, rooted = is_rooted(coll), red = is_reduction(coll);
    int in_place_ok = coll != VINE_COLL_BCAST;
    nb_case c = {coll, algo, form, T_INT, 0, 0, 0};
    if (coll == VINE_COLL_BARRIER) {
        run_case(&c, kc);
        run_case(&c, kc);
        return;
    }
    /* Every root at count 1; at 0 and BIG one root, another for each form and algorithm. */
    static const int counts[] = {0, 1, BIG};
    for (int k = 0; k < 3; k++) {
        c.n = counts[k];
        c.inplace = 0;
        for (int root = 0; root < p; root++) {
            c.root = root;
            if (root == (ai + k + form) % p || (rooted && c.n == 1))
                run_case(&c, kc);
        }
        c.root = (ai + k + form + 1) % p;
        c.inplace = 1;
        if (in_place_ok)
            run_case(&c, kc);
    }
    c = (nb_case){coll, algo, form, T_DOUBLE, 7, ai % p, 0};
    run_case(&c, kc);
    for (int ip = 0; ip < 2 && red; ip++) {
        c = (nb_case){coll, algo, form, T_MAT, ip ? BIG : 1, (ai + form + ip) % p, ip};
        run_case(&c, kc);
    }
    for (int ip = 0; ip < 1 + in_place_ok && !red; ip++) {
        c = (nb_case){coll, algo, form, T_VEC, 3, (ai + form + ip) % p, ip};
        run_case(&c, kc);
    }
}

static void sweep(vine_coll coll, int *kc)
{
    for (int a = 0; a < mt_nalgos(coll); a++) {
        const char *algo = mt_algo_at(coll, a);
        double t0 = MPI_Wtime();
        mt_select(coll, algo);
        sweep_form(coll, algo, a, F_NB, kc);
        sweep_form(coll, algo, a, F_INIT, kc);
        for (int form = F_NB_C; form <= F_INIT_C && coll != VINE_COLL_BARRIER; form++) {
            nb_case c = {coll, algo, form, T_INT, BIG, mt_size - 1, 0};
            run_case(&c, kc);
            c = (nb_case){coll, algo, form, T_INT, 1, 0, coll != VINE_COLL_BCAST};
            run_case(&c, kc);
        }
        if (mt_rank == 0 && getenv("VINE_TEST_NB_TIME"))
            fprintf(stderr, "nb: %s %s: %.2f s\n", vine_coll_name(coll), algo, MPI_Wtime() - t0);
    }
    mt_select(coll, NULL);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "nb");
    if (mt_size > 64) {
        fprintf(stderr, "nb: at most 64 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Datatype vec;
    MPI_Type_vector(3, 2, 4, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    MPI_Aint lb, ext;
    MPI_Type_get_extent(vec, &lb, &ext);
    const mt_type *dbl = mt_type_at(4);
    if (strcmp(dbl->name, "double") != 0) {
        fprintf(stderr, "nb: the harness's type 4 is %s, not double\n", dbl->name);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    types[T_INT] = (nb_type){"int", MPI_INT, sizeof(int), mt_type_int(), mt_op_sum()};
    types[T_DOUBLE] = (nb_type){"double", MPI_DOUBLE, sizeof(double), dbl, mt_op_sum()};
    types[T_MAT] = (nb_type){"mat2x2", mt_type_mat()->type, mt_type_mat()->extent, mt_type_mat(),
                             mt_op_matmul()};
    types[T_VEC] = (nb_type){"vector(3,2,4)", vec, (size_t)ext, NULL, mt_op_sum()};
    /* 1000 ints are then several segments of the pipelined algorithms. */
    if (vine_set_segment_size(SEGMENT_BYTES) != MPI_SUCCESS) {
        fprintf(stderr, "nb: vine_set_segment_size failed\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    const char *only = getenv("VINE_TEST_NB_COLL");
    int kc = 0;
    double t0 = MPI_Wtime();
    /* The ten collectives with nonblocking forms (not yet the v ones and the scans). */
    for (int coll = 0; coll < VINE_COLL_ALLGATHERV; coll++)
        if (!only || strcmp(only, vine_coll_name((vine_coll)coll)) == 0)
            sweep((vine_coll)coll, &kc);
    if (mt_rank == 0 && getenv("VINE_TEST_NB_TIME"))
        fprintf(stderr, "nb: %ld vine calls in %.1f s\n", ncalls, MPI_Wtime() - t0);
    MPI_Type_free(&vec);
    return mt_finish();
}
