/*
 * The shared harness of the MPI test tier (see mpitest.h).
 */
#include "mpitest.h"

#include "api/levels_mpi.h"
#include "coll/coll.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int mt_rank, mt_size;

enum { MT_MAX_PRINTED = 40 };

static const char *test_name;
static int verbose;
static mt_case cur;
static unsigned char *failed; /* one flag per case, in the order run */
static size_t ncases, cases_cap;
static int printed;

/*
 * The levels of MPI_COMM_WORLD as vine finds them (pretend hosts under
 * VINE_TOPOLOGY_FAKE_HOSTS), so that mt_check_served knows whether a
 * hierarchical algorithm may serve.
 */
static vine_levels world_levels, world_full;

static mt_type types[7];
static int ntypes_set;
static mt_op matmul_op = {"matmul", MPI_OP_NULL, 0};

static const mt_op int_ops[] = {{"sum", MPI_SUM, 1},   {"prod", MPI_PROD, 1}, {"max", MPI_MAX, 1},
                                {"min", MPI_MIN, 1},   {"land", MPI_LAND, 1}, {"lor", MPI_LOR, 1},
                                {"lxor", MPI_LXOR, 1}, {"band", MPI_BAND, 1}, {"bor", MPI_BOR, 1},
                                {"bxor", MPI_BXOR, 1}};
static const mt_op pair_ops[] = {{"maxloc", MPI_MAXLOC, 1}, {"minloc", MPI_MINLOC, 1}};

/* The C layout of MPI_DOUBLE_INT. */
typedef struct pair {
    double v;
    int i;
} pair;

/* The four 2x2 matrices the non-commutative inputs are drawn from. */
static const int mats[4][4] = {{1, 1, 0, 1}, {1, 0, 1, 1}, {0, 1, 1, 0}, {1, 0, 0, -1}};

static void mat_mul(const int *l, const int *r, int *out)
{
    int t[4] = {l[0] * r[0] + l[1] * r[2], l[0] * r[1] + l[1] * r[3], l[2] * r[0] + l[3] * r[2],
                l[2] * r[1] + l[3] * r[3]};
    memcpy(out, t, sizeof t);
}

/* MPI's convention: inout = in op inout, where in holds the lower ranks. */
static void matmul_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    for (int k = 0; k < *len; k++)
        mat_mul((int *)in + 4 * k, (int *)inout + 4 * k, (int *)inout + 4 * k);
}

static void add_type(const char *name, MPI_Datatype t, int kind, size_t size)
{
    MPI_Aint lb, extent;
    MPI_Type_get_extent(t, &lb, &extent);
    types[ntypes_set++] = (mt_type){name, t, kind, size, (size_t)extent};
}

/*
 * Finds the levels of MPI_COMM_WORLD.  VINE_TEST_HIER=N says how many levels
 * vine_topology_info must report, so that a run meant for the hierarchical
 * algorithms cannot pass on a flat map where they never serve.
 */
static void check_levels(const char *coll_name)
{
    char msg[512];
    int n = -1;
    int rc = vine__levels_discover_all(MPI_COMM_WORLD, &world_levels, &world_full, msg, sizeof msg);
    int info = vine_topology_info(MPI_COMM_WORLD, &n, NULL, 0);
    const char *want = getenv("VINE_TEST_HIER");
    if (rc == MPI_SUCCESS && info == MPI_SUCCESS && (!want || atoi(want) == n))
        return;
    fprintf(stderr, "%s: levels of MPI_COMM_WORLD: rc %d, info %d, %d levels (want %s): %s\n",
            coll_name, rc, info, n, want ? want : "any", msg);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

void mt_init(int *argc, char ***argv, const char *coll_name)
{
    /* vine's progress thread (VINE_PROGRESS_THREAD) needs MPI_THREAD_MULTIPLE:
     * a test run with it must get that level, or it tests nothing.
     * VINE_TEST_THREAD_MULTIPLE=1 asks for the level without the thread (vine
     * then guards its requests with a lock). */
    const char *pt = getenv("VINE_PROGRESS_THREAD"), *tm = getenv("VINE_TEST_THREAD_MULTIPLE");
    if ((pt && *pt && strcmp(pt, "0") != 0) || (tm && strcmp(tm, "1") == 0)) {
        int provided = MPI_THREAD_SINGLE;
        MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided);
        if (provided != MPI_THREAD_MULTIPLE) {
            fprintf(stderr, "%s: MPI_THREAD_MULTIPLE asked for, but MPI provides thread level %d\n",
                    coll_name, provided);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    } else {
        MPI_Init(argc, argv);
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &mt_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &mt_size);
    test_name = coll_name;
    verbose = getenv("MT_VERBOSE") != NULL;
    /* A launcher of the wrong MPI starts every rank as a job of its own,
     * where a 1-rank test would pass; ctest says how many ranks to expect. */
    const char *expect = getenv("VINE_TEST_NP");
    if (expect && atoi(expect) != mt_size) {
        fprintf(stderr, "%s: started on %d ranks, expected %s (wrong launcher?)\n", coll_name,
                mt_size, expect);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    check_levels(coll_name);
    MPI_Datatype mat;
    MPI_Type_contiguous(4, MPI_INT, &mat);
    MPI_Type_commit(&mat);
    MPI_Op_create(matmul_fn, 0, &matmul_op.op);
    add_type("char", MPI_CHAR, MT_INT, sizeof(char));
    add_type("int", MPI_INT, MT_INT, sizeof(int));
    add_type("long", MPI_LONG, MT_INT, sizeof(long));
    add_type("float", MPI_FLOAT, MT_FLOAT, sizeof(float));
    add_type("double", MPI_DOUBLE, MT_FLOAT, sizeof(double));
    add_type("double_int", MPI_DOUBLE_INT, MT_PAIR, sizeof(pair));
    add_type("mat2x2", mat, MT_MAT, 4 * sizeof(int));
}

int mt_finish(void)
{
    long n[2] = {(long)ncases, -(long)ncases}, m[2];
    MPI_Allreduce(n, m, 2, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
    int mismatch = m[0] != -m[1];
    unsigned char *all = calloc(ncases ? ncases : 1, 1);
    if (!mismatch)
        MPI_Reduce(failed, all, (int)ncases, MPI_UNSIGNED_CHAR, MPI_MAX, 0, MPI_COMM_WORLD);
    size_t nfailed = 0;
    for (size_t i = 0; i < ncases; i++)
        nfailed += all[i] != 0;
    if (mt_rank == 0) {
        if (mismatch)
            printf("%s: ranks ran different numbers of cases (%ld to %ld)\n", test_name, -m[1],
                   m[0]);
        printf("%s: %zu passed, %zu failed (p=%d)\n", test_name, ncases - nfailed, nfailed,
               mt_size);
    }
    int bad = mismatch || nfailed > 0;
    MPI_Bcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD);
    free(all);
    free(failed);
    vine__levels_free(&world_levels);
    vine__levels_free(&world_full);
    MPI_Op_free(&matmul_op.op);
    MPI_Type_free(&types[ntypes_set - 1].type);
    MPI_Finalize();
    return bad ? 1 : 0;
}

int mt_ntypes(void)
{
    return ntypes_set;
}

const mt_type *mt_type_at(int i)
{
    return &types[i];
}

const mt_type *mt_type_int(void)
{
    return &types[1];
}

const mt_type *mt_type_mat(void)
{
    return &types[ntypes_set - 1];
}

int mt_nops(const mt_type *t)
{
    switch (t->kind) {
    case MT_INT:
        return 10;
    case MT_FLOAT:
        return 4;
    case MT_PAIR:
        return 2;
    default:
        return 1;
    }
}

const mt_op *mt_op_at(const mt_type *t, int i)
{
    if (t->kind == MT_PAIR)
        return &pair_ops[i];
    if (t->kind == MT_MAT)
        return &matmul_op;
    return &int_ops[i];
}

const mt_op *mt_op_sum(void)
{
    return &int_ops[0];
}

const mt_op *mt_op_matmul(void)
{
    return &matmul_op;
}

/*
 * Whether the harness runs the "mpi" algorithm (the MPI library's own
 * collective) for coll.  Not under MPICH 4.0.2 for reduce, reduce_scatter,
 * reduce_scatter_block, alltoall, gather and scatter: there the library's
 * own collective fails on the harness's types (MPI_DOUBLE_INT "Message
 * truncated" in alltoall, gather and scatter, a crash in MPI_Reduce, wrong
 * data and a corrupt heap in the reduce-scatters with a non-commutative op
 * on a type whose extent is not its true extent; the tests already keep
 * those calls out of their references, see mpi_trusted and
 * dt_mpi_trusted).  "mpi" under MPICH is still run for these collectives by
 * mpi.tuning.* and pmpi.tuned.*, and for every type under Open MPI.
 */
static int run_mpi_algo(vine_coll coll)
{
    static int is_mpich = -1;
    if (is_mpich < 0) {
        char version[MPI_MAX_LIBRARY_VERSION_STRING];
        int len = 0;
        MPI_Get_library_version(version, &len);
        is_mpich = strstr(version, "MPICH") != NULL;
    }
    return !is_mpich || coll == VINE_COLL_BCAST || coll == VINE_COLL_ALLREDUCE ||
           coll == VINE_COLL_ALLGATHER || coll == VINE_COLL_BARRIER;
}

/*
 * Whether name is on VINE_TEST_ALGOS, a comma-separated list of the
 * algorithms ("auto" included) a run is limited to; when it is unset, every
 * one but the torus algorithms (issue 23), which run in mpi.torus.* with
 * that list: on the maps of the other tests they would add a quarter to
 * allreduce's time and nothing that those tests cover.
 */
static int listed(const char *name)
{
    static const char *const torus[] = {"bucket", "bine_torus", "bine_torus_multiport", "swing"};
    const char *l = getenv("VINE_TEST_ALGOS");
    size_t n = strlen(name);
    if (!l || !*l) {
        for (size_t i = 0; i < sizeof torus / sizeof *torus; i++)
            if (strcmp(name, torus[i]) == 0)
                return 0;
        return 1;
    }
    for (const char *p = l; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
        if (strncmp(p, name, n) == 0 && (p[n] == ',' || p[n] == '\0'))
            return 1;
    return 0;
}

/* Whether the test runs algorithm name of coll. */
static int runs(vine_coll coll, const char *name)
{
    return listed(name) && (strcmp(name, "mpi") != 0 || run_mpi_algo(coll));
}

int mt_nalgos(vine_coll coll)
{
    int n = listed("auto");
    for (int i = 0; i < vine_algorithm_count(coll); i++)
        n += runs(coll, vine_algorithm_name(coll, i));
    return n;
}

const char *mt_algo_at(vine_coll coll, int i)
{
    if (listed("auto") && i-- == 0)
        return "auto";
    for (int k = 0; k < vine_algorithm_count(coll); k++) {
        const char *name = vine_algorithm_name(coll, k);
        if (runs(coll, name) && i-- == 0)
            return name;
    }
    return NULL;
}

void mt_select(vine_coll coll, const char *algo)
{
    int rc = vine_set_algorithm(coll, algo);
    if (rc != MPI_SUCCESS) {
        fprintf(stderr, "%s: rank %d: vine_set_algorithm(%s, %s) returned %d (%s)\n", test_name,
                mt_rank, vine_coll_name(coll), algo ? algo : "NULL", rc, vine_error_string(rc));
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

/* A small integer for element i of rank r's input, chosen per op. */
static long value(const mt_op *o, int r, size_t i)
{
    uint64_t h = ((uint64_t)r + 1) * 0x9E3779B97F4A7C15u ^ ((uint64_t)i + 7) * 0xBF58476D1CE4E5B9u;
    h ^= h >> 29;
    MPI_Op op = o ? o->op : MPI_SUM;
    if (op == MPI_PROD) /* at most a quarter of the ranks give 2: products stay tiny */
        return (r + i) % 4 == 0 ? 2 : ((r * 3 + i) % 5 == 0 ? -1 : 1);
    if (op == MPI_MAX || op == MPI_MIN)
        return (long)(h % 101) - 50;
    if (op == MPI_LAND || op == MPI_LOR || op == MPI_LXOR) /* bit r of a mix of i */
        return (((i * 37 + 11) >> (r % 8)) & 1) ? 1 + (long)(h % 3) : 0;
    if (op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR)
        return (long)(h & 0x7f);
    return (long)(h % 11) - 5; /* the sum of 8 stays within a signed char */
}

static void put_scalar(const mt_type *t, unsigned char *dst, long v)
{
    if (t->kind == MT_FLOAT && t->size == sizeof(float)) {
        float f = (float)v;
        memcpy(dst, &f, sizeof f);
    } else if (t->kind == MT_FLOAT) {
        double d = (double)v;
        memcpy(dst, &d, sizeof d);
    } else if (t->size == sizeof(char)) {
        char c = (char)v;
        memcpy(dst, &c, 1);
    } else if (t->size == sizeof(int)) {
        int x = (int)v;
        memcpy(dst, &x, sizeof x);
    } else {
        memcpy(dst, &v, sizeof v);
    }
}

static const int *mat_of(int r, size_t i)
{
    return mats[(r * 3 + i * 5 + (i >> 3)) % 4];
}

void mt_fill(const mt_type *t, const mt_op *o, void *buf, size_t n, int r, size_t first)
{
    unsigned char *b = buf;
    memset(b, 0, n * t->extent); /* padding bytes get a defined value */
    for (size_t k = 0; k < n; k++) {
        size_t i = first + k;
        unsigned char *e = b + k * t->extent;
        if (t->kind == MT_PAIR) {
            pair x = {(double)((r * 13 + i * 7) % 5), (int)((r * 5 + i) % 11)};
            memcpy(e + offsetof(pair, v), &x.v, sizeof x.v);
            memcpy(e + offsetof(pair, i), &x.i, sizeof x.i);
        } else if (t->kind == MT_MAT) {
            memcpy(e, mat_of(r, i), 4 * sizeof(int));
        } else {
            put_scalar(t, e, value(o, r, i));
        }
    }
}

void mt_poison(const mt_type *t, void *buf, size_t n)
{
    memset(buf, 0xEE, n * t->extent);
}

void mt_matmul_ref(void *out, size_t n, int p, size_t first)
{
    for (size_t k = 0; k < n; k++) {
        int acc[4];
        memcpy(acc, mat_of(0, first + k), sizeof acc);
        for (int r = 1; r < p; r++)
            mat_mul(acc, mat_of(r, first + k), acc);
        memcpy((int *)out + 4 * k, acc, sizeof acc);
    }
}

static unsigned char guard_byte(size_t j)
{
    return (unsigned char)(0xA5 ^ (j * 7));
}

void mt_buf_alloc(mt_buf *b, size_t bytes)
{
    b->base = malloc(bytes + 2 * MT_GUARD);
    if (!b->base) {
        fprintf(stderr, "%s: rank %d: out of memory\n", test_name, mt_rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    b->data = b->base + MT_GUARD;
    b->bytes = bytes;
    for (size_t j = 0; j < MT_GUARD; j++) {
        b->base[j] = guard_byte(j);
        b->data[bytes + j] = guard_byte(j + MT_GUARD);
    }
}

void mt_buf_free(mt_buf *b)
{
    free(b->base);
    b->base = b->data = NULL;
}

void mt_begin(const mt_case *c)
{
    if (ncases == cases_cap) {
        cases_cap = cases_cap ? 2 * cases_cap : 1024;
        unsigned char *f = realloc(failed, cases_cap);
        if (!f) {
            fprintf(stderr, "%s: rank %d: out of memory\n", test_name, mt_rank);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        failed = f;
    }
    failed[ncases++] = 0;
    cur = *c;
    if (verbose && mt_rank == 0)
        fprintf(stderr, "case %zu: %s algo=%s type=%s op=%s count=%ld root=%d inplace=%d\n",
                ncases - 1, cur.coll, cur.algo, cur.type, cur.op, cur.count, cur.root, cur.inplace);
}

void mt_fail(const char *fmt, ...)
{
    failed[ncases - 1] = 1;
    if (printed++ >= MT_MAX_PRINTED)
        return;
    char why[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    fprintf(stderr, "FAIL %s algo=%s type=%s op=%s count=%ld root=%d inplace=%s p=%d rank=%d: %s\n",
            cur.coll, cur.algo, cur.type, cur.op, cur.count, cur.root, cur.inplace ? "yes" : "no",
            mt_size, mt_rank, why);
    if (printed == MT_MAX_PRINTED)
        fprintf(stderr, "%s: rank %d: further failures are counted, not printed\n", test_name,
                mt_rank);
}

int mt_check_rc(int rc, const char *call)
{
    if (rc == MPI_SUCCESS)
        return 1;
    mt_fail("%s returned %d (%s)", call, rc, vine_error_string(rc));
    return 0;
}

void mt_check_empty_status(const MPI_Status *st, const char *what)
{
    int count = -1;
    MPI_Get_count(st, MPI_BYTE, &count);
    if (st->MPI_SOURCE != MPI_ANY_SOURCE || st->MPI_TAG != MPI_ANY_TAG || count != 0)
        mt_fail("%s: status not empty (source %d, tag %d, count %d)", what, st->MPI_SOURCE,
                st->MPI_TAG, count);
}

void mt_check_guards(const mt_buf *b)
{
    for (size_t j = 0; j < MT_GUARD; j++) {
        if (b->base[j] != guard_byte(j)) {
            mt_fail("guard byte %zu before the receive buffer was overwritten", MT_GUARD - j);
            return;
        }
        if (b->data[b->bytes + j] != guard_byte(j + MT_GUARD)) {
            mt_fail("guard byte %zu after the receive buffer was overwritten", j);
            return;
        }
    }
}

/* Prints element e of type t into out for a failure message. */
static void describe(const mt_type *t, const unsigned char *e, char *out, size_t len)
{
    if (t->kind == MT_PAIR) {
        pair x;
        memcpy(&x.v, e + offsetof(pair, v), sizeof x.v);
        memcpy(&x.i, e + offsetof(pair, i), sizeof x.i);
        snprintf(out, len, "(%g, %d)", x.v, x.i);
    } else if (t->kind == MT_MAT) {
        int m[4];
        memcpy(m, e, sizeof m);
        snprintf(out, len, "[%d %d; %d %d]", m[0], m[1], m[2], m[3]);
    } else if (t->kind == MT_FLOAT) {
        double d;
        if (t->size == sizeof(float)) {
            float f;
            memcpy(&f, e, sizeof f);
            d = f;
        } else {
            memcpy(&d, e, sizeof d);
        }
        snprintf(out, len, "%.17g", d);
    } else {
        long v = 0;
        if (t->size == sizeof(char))
            v = (signed char)e[0];
        else if (t->size == sizeof(int)) {
            int x;
            memcpy(&x, e, sizeof x);
            v = x;
        } else
            memcpy(&v, e, sizeof v);
        snprintf(out, len, "%ld", v);
    }
}

/* Element equality: the value bits, ignoring the padding of pairs. */
static int elem_equal(const mt_type *t, const unsigned char *a, const unsigned char *b)
{
    if (t->kind == MT_PAIR)
        return memcmp(a + offsetof(pair, v), b + offsetof(pair, v), sizeof(double)) == 0 &&
               memcmp(a + offsetof(pair, i), b + offsetof(pair, i), sizeof(int)) == 0;
    return memcmp(a, b, t->kind == MT_MAT ? 4 * sizeof(int) : t->size) == 0;
}

int mt_check_equal(const mt_type *t, const void *got, const void *want, size_t n, const char *what)
{
    const unsigned char *g = got, *w = want;
    for (size_t k = 0; k < n; k++) {
        if (!elem_equal(t, g + k * t->extent, w + k * t->extent)) {
            char gs[96], ws[96];
            describe(t, g + k * t->extent, gs, sizeof gs);
            describe(t, w + k * t->extent, ws, sizeof ws);
            mt_fail("%s: first difference at element %zu: got %s, expected %s", what, k, gs, ws);
            return 0;
        }
    }
    return 1;
}

void mt_check_unchanged(const void *now, const void *before, size_t bytes)
{
    const unsigned char *a = now, *b = before;
    for (size_t j = 0; j < bytes; j++) {
        if (a[j] != b[j]) {
            mt_fail("the send buffer changed at byte %zu", j);
            return;
        }
    }
}

void mt_check_served(vine_coll coll, const char *algo, int commutative, size_t total)
{
    if (strcmp(algo, "auto") == 0 || total == 0)
        return;
    const vine_algo *a = vine__algo_find(coll, algo);
    int shm = 0;
    vine_shm_info(MPI_COMM_WORLD, &shm, NULL, NULL, 0);
    vine_args args = {.coll = coll,
                      .p = mt_size,
                      .rank = mt_rank,
                      .commutative = commutative,
                      .levels = &world_levels,
                      .levels_full = world_full.group ? &world_full : NULL,
                      .shm_count = shm == 2,
                      .shm_node_count = shm != 0};
    int admits = a && vine__algo_admits(a, &args) == VINE_OK;
    const char *served = vine_last_algorithm(coll);
    if (admits && strcmp(served, algo) != 0)
        mt_fail("the forced algorithm did not serve the call (vine_last_algorithm: %s)", served);
    if (!admits && strcmp(served, algo) == 0)
        mt_fail("the forced algorithm served a call its restrictions exclude");
}

void mt_check_same_everywhere(const void *buf, size_t bytes)
{
    uint64_t h = 0xcbf29ce484222325u;
    for (size_t j = 0; j < bytes; j++)
        h = (h ^ ((const unsigned char *)buf)[j]) * 0x100000001b3u;
    uint64_t mine[2] = {h, ~h}, all[2];
    MPI_Allreduce(mine, all, 2, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
    if (all[0] != h || all[1] != ~h)
        mt_fail("the result is not bitwise identical on all ranks (hash %016llx)",
                (unsigned long long)h);
}

int mt_unique(const long *want, int nwant, long *out)
{
    int n = 0;
    for (int k = 0; k < nwant; k++) {
        int dup = 0;
        for (int j = 0; j < n; j++)
            dup |= out[j] == want[k];
        if (!dup)
            out[n++] = want[k];
    }
    return n;
}

void *mt_xmalloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "%s: rank %d: out of memory\n", test_name, mt_rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return p;
}

int mt_self_allgatherv_broken(void)
{
    static int broken = -1;
    if (broken < 0) {
        int s[2] = {1, 2}, r[4] = {0}, two = 2;
        broken = 0;
        if (mt_size == 1) {
            PMPI_Allgatherv(s, 2, MPI_INT, r, &two, &two, MPI_INT, MPI_COMM_WORLD);
            broken = r[2] != 1 || r[0] != 0;
        }
    }
    return broken;
}

int mt_self_alltoallw_broken(void)
{
    static int broken = -1;
    if (broken < 0) {
        int s[8] = {1, 2, 3, 4, 5, 6, 7, 8}, r[8] = {0}, one = 1, four = 4;
        MPI_Datatype t = MPI_INT;
        broken = 0;
        if (mt_size == 1) {
            PMPI_Alltoallw(s, &one, &four, &t, r, &one, &four, &t, MPI_COMM_WORLD);
            broken = r[1] != 2;
        }
    }
    return broken;
}

int mt_counts(long *out)
{
    long want[] = {0, 1, 7, mt_size - 1, mt_size + 1, 1000, 1031};
    return mt_unique(want, (int)(sizeof want / sizeof want[0]), out);
}

int mt_call_int(vine_coll coll, int use_vine, MPI_Comm w, int n, const int *in, int *out, int *rc)
{
    int p, me, counts[64];
    MPI_Comm_size(w, &p);
    MPI_Comm_rank(w, &me);
    for (int i = 0; i < p && i < 64; i++)
        counts[i] = n;
    if (coll == VINE_COLL_BCAST) {
        memcpy(out, in, sizeof(int) * n);
        *rc =
            use_vine ? vine_bcast(out, n, MPI_INT, p - 1, w) : MPI_Bcast(out, n, MPI_INT, p - 1, w);
        return n;
    }
    if (coll == VINE_COLL_REDUCE) {
        *rc = use_vine ? vine_reduce(in, out, n, MPI_INT, MPI_SUM, 0, w)
                       : MPI_Reduce(in, out, n, MPI_INT, MPI_SUM, 0, w);
        return me == 0 ? n : 0;
    }
    if (coll == VINE_COLL_ALLREDUCE) {
        *rc = use_vine ? vine_allreduce(in, out, n, MPI_INT, MPI_SUM, w)
                       : MPI_Allreduce(in, out, n, MPI_INT, MPI_SUM, w);
        return n;
    }
    if (coll == VINE_COLL_ALLGATHER) {
        *rc = use_vine ? vine_allgather(in, n, MPI_INT, out, n, MPI_INT, w)
                       : MPI_Allgather(in, n, MPI_INT, out, n, MPI_INT, w);
        return n * p;
    }
    if (coll == VINE_COLL_ALLTOALL) {
        *rc = use_vine ? vine_alltoall(in, n, MPI_INT, out, n, MPI_INT, w)
                       : MPI_Alltoall(in, n, MPI_INT, out, n, MPI_INT, w);
        return n * p;
    }
    if (coll == VINE_COLL_GATHER) {
        *rc = use_vine ? vine_gather(in, n, MPI_INT, out, n, MPI_INT, p - 1, w)
                       : MPI_Gather(in, n, MPI_INT, out, n, MPI_INT, p - 1, w);
        return me == p - 1 ? n * p : 0;
    }
    if (coll == VINE_COLL_SCATTER) {
        *rc = use_vine ? vine_scatter(in, n, MPI_INT, out, n, MPI_INT, 0, w)
                       : MPI_Scatter(in, n, MPI_INT, out, n, MPI_INT, 0, w);
        return n;
    }
    if (coll == VINE_COLL_BARRIER) {
        /* Nothing to compare: the call must succeed, served by the right algorithm. */
        *rc = use_vine ? vine_barrier(w) : MPI_Barrier(w);
        return 0;
    }
    if (coll == VINE_COLL_REDUCE_SCATTER) {
        *rc = use_vine ? vine_reduce_scatter(in, out, counts, MPI_INT, MPI_SUM, w)
                       : MPI_Reduce_scatter(in, out, counts, MPI_INT, MPI_SUM, w);
        return n;
    }
    *rc = use_vine ? vine_reduce_scatter_block(in, out, n, MPI_INT, MPI_SUM, w)
                   : MPI_Reduce_scatter_block(in, out, n, MPI_INT, MPI_SUM, w);
    return n;
}

void mt_deadline(double start, int seconds, const char *what)
{
    if (MPI_Wtime() - start < seconds)
        return;
    fprintf(stderr, "rank %d: %s: still incomplete after %d s\n", mt_rank, what, seconds);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

int mt_complete(MPI_Request *q, int k, MPI_Status *st, int seconds)
{
    int flag = 0, idx = -1, rc = MPI_SUCCESS;
    double t0 = MPI_Wtime();
    switch (k % 5) {
    case 0:
        return vine_wait(q, st);
    case 1:
        while (rc == MPI_SUCCESS && !flag) {
            rc = vine_test(q, &flag, st);
            mt_deadline(t0, seconds, "vine_test");
        }
        return rc;
    case 2:
        return vine_waitall(1, q, st);
    case 3:
        while (rc == MPI_SUCCESS && !flag) {
            rc = vine_testall(1, q, &flag, st);
            mt_deadline(t0, seconds, "vine_testall");
        }
        return rc;
    default:
        rc = vine_waitany(1, q, &idx, st);
        if (rc == MPI_SUCCESS && idx != 0)
            mt_fail("vine_waitany gave index %d, expected 0", idx);
        return rc;
    }
}
