/*
 * Derived datatypes for the MPI test tier (see dtype.h).
 */
#include "dtype.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NTYPES = 7 };

static dt_type types[NTYPES + 1];       /* the last one is MPI_INT */
static int selected[NTYPES], nselected; /* the types dt_type_at() iterates over */
static dt_op ops[DT_NOPS];
static long bad_op_calls;
static int is_mpich;

/* The C layout of the {int; double} struct type. */
typedef struct int_double {
    int m;
    double c;
} int_double;

/* Field g of the flat field sequence of rank r's input: m fields (even g) are
 * 1 or 2, c fields (odd g) 1 to 5. */
static long value(int r, size_t g)
{
    uint64_t h = ((uint64_t)r + 3) * 0x9E3779B97F4A7C15u ^ ((uint64_t)g + 5) * 0xBF58476D1CE4E5B9u;
    h ^= h >> 31;
    return g % 2 ? 1 + (long)(h % 5) : 1 + (long)(h % 2);
}

static unsigned char pattern(size_t j, unsigned seed)
{
    return (unsigned char)((j * 131u + seed * 29u + 0x5Au) ^ (j >> 8));
}

/* The lowest byte n elements of t may touch, relative to element 0's address. */
static MPI_Aint span_lo(const dt_type *t, size_t n)
{
    if (n == 0)
        return 0;
    return t->lb < t->true_lb ? t->lb : t->true_lb;
}

static MPI_Aint span_hi(const dt_type *t, size_t n)
{
    if (n == 0)
        return 0;
    MPI_Aint ub = t->lb + t->extent, true_ub = t->true_lb + t->true_extent;
    return (MPI_Aint)(n - 1) * t->extent + (ub > true_ub ? ub : true_ub);
}

/* Unpacks n elements' worth of the bytes `packed` into dst (element 0 at dst). */
static void unpack(const dt_type *t, const unsigned char *packed, void *dst, size_t n)
{
    int pos = 0, size;
    MPI_Type_size(t->type, &size);
    MPI_Unpack(packed, (int)(n * (size_t)size), &pos, dst, (int)n, t->type, MPI_COMM_WORLD);
}

/*
 * Finds where each field of one element lies: packed byte k carries the
 * marker k + 1, and after unpacking, the byte at offset o holding marker k + 1
 * is where the type puts packed byte k.
 */
static void find_fields(dt_type *t)
{
    int size;
    MPI_Type_size(t->type, &size);
    MPI_Aint lo = span_lo(t, 1), hi = span_hi(t, 1), where[256];
    unsigned char packed[256], *span = calloc((size_t)(hi - lo), 1);
    for (int k = 0; k < size; k++)
        packed[k] = (unsigned char)(k + 1);
    unpack(t, packed, span - lo, 1);
    for (MPI_Aint o = lo; o < hi; o++)
        if (span[o - lo])
            where[span[o - lo] - 1] = o;
    for (int f = 0, at = 0; f < t->nfields; f++) {
        t->off[f] = where[at];
        at += t->sig[f] == 'i' ? (int)sizeof(int) : (int)sizeof(double);
    }
    free(span);
}

/* Whether MPI_Reduce_local accepts t with MPI_SUM.  Open MPI 4.1 and MPICH
 * 4.0 refuse every derived type with a predefined op; other versions may
 * accept types built from one predefined type, and are then tested with it. */
static int sum_accepted(const dt_type *t)
{
    if (!t->int_only)
        return 0;
    unsigned char *a = mt_xmalloc((size_t)t->extent + 64), *b = mt_xmalloc((size_t)t->extent + 64);
    memset(a, 0, (size_t)t->extent + 64);
    memset(b, 0, (size_t)t->extent + 64);
    MPI_Errhandler keep;
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &keep);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Aint at = 32 - span_lo(t, 1);
    int rc = MPI_Reduce_local(a + at, b + at, 1, t->type, MPI_SUM);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, keep);
    MPI_Errhandler_free(&keep);
    free(a);
    free(b);
    return rc == MPI_SUCCESS;
}

static void add_type(const char *name, MPI_Datatype dt, const char *sig)
{
    static int n;
    dt_type *t = &types[n++];
    MPI_Type_commit(&dt);
    t->name = name;
    t->type = dt;
    t->sig = sig;
    t->nfields = (int)strlen(sig);
    MPI_Type_get_extent(dt, &t->lb, &t->extent);
    MPI_Type_get_true_extent(dt, &t->true_lb, &t->true_extent);
    find_fields(t);
    t->int_only = strspn(sig, "i") == strlen(sig);
    t->sum_ok = sum_accepted(t);
}

/* An {int; double} struct with its fields at di and dd, resized to [lb, lb + extent). */
static MPI_Datatype int_double_at(MPI_Aint di, MPI_Aint dd, MPI_Aint lb, MPI_Aint extent)
{
    int lens[2] = {1, 1};
    MPI_Aint displs[2] = {di, dd};
    MPI_Datatype kinds[2] = {MPI_INT, MPI_DOUBLE}, s, r;
    MPI_Type_create_struct(2, lens, displs, kinds, &s);
    MPI_Type_create_resized(s, lb, extent, &r);
    MPI_Type_free(&s);
    return r;
}

/* Two MPI_INTs at displacement d: no holes, but a lower bound of d. */
static MPI_Datatype ints_at(MPI_Aint d)
{
    int len = 2;
    MPI_Datatype kind = MPI_INT, s;
    MPI_Type_create_struct(1, &len, &d, &kind, &s);
    return s;
}

static void make_types(void)
{
    MPI_Datatype v, vr;
    MPI_Type_vector(3, 2, 4, MPI_INT, &v);
    MPI_Type_create_resized(v, -8, 48, &vr);
    add_type("vector", v, "iiiiii");
    add_type("vector_lb-8", vr, "iiiiii");
    add_type("struct",
             int_double_at(offsetof(int_double, m), offsetof(int_double, c), 0, sizeof(int_double)),
             "id");
    add_type("struct_lb4", int_double_at(8, 16, 4, 32), "id");
    add_type("struct_lb-24", int_double_at(-16, -8, -24, 32), "id");
    add_type("ints_lb4", ints_at(4), "ii");
    add_type("ints_lb-8", ints_at(-8), "ii");
    types[NTYPES] = (dt_type){"int", MPI_INT, "i", 1, 0, sizeof(int), 0, sizeof(int), {0}, 1, 0};
}

static double get(const dt_type *t, const void *base, size_t i, int f)
{
    const unsigned char *p = (const unsigned char *)base + (MPI_Aint)i * t->extent + t->off[f];
    if (t->sig[f] == 'd') {
        double d;
        memcpy(&d, p, sizeof d);
        return d;
    }
    int x;
    memcpy(&x, p, sizeof x);
    return x;
}

static void set(const dt_type *t, void *base, size_t i, int f, double v)
{
    unsigned char *p = (unsigned char *)base + (MPI_Aint)i * t->extent + t->off[f];
    if (t->sig[f] == 'd') {
        memcpy(p, &v, sizeof v);
    } else {
        int x = (int)v;
        memcpy(p, &x, sizeof x);
    }
}

static double ref_field(const dt_type *t, const dt_ref *ref, size_t i, int f);

static const dt_type *type_of(MPI_Datatype dt)
{
    for (int i = 0; i < NTYPES; i++)
        if (types[i].type == dt)
            return &types[i];
    return NULL;
}

/* (m1, c1) op (m2, c2): the product and sum, or the composition of the maps
 * x -> m x + c, the left (lower-rank) operand applied last. */
static void combine(int kind, double m1, double c1, double *m2, double *c2)
{
    if (kind == DT_COMM) {
        *c2 = c1 + *c2;
    } else {
        *c2 = m1 * *c2 + c1;
    }
    *m2 = m1 * *m2;
}

/* MPI's convention: inout = in op inout, where in holds the lower ranks. */
static void apply(int kind, const void *in, void *inout, int len, MPI_Datatype dt)
{
    const dt_type *t = type_of(dt);
    if (!t) {
        bad_op_calls++;
        return;
    }
    for (int i = 0; i < len; i++)
        for (int f = 0; f + 1 < t->nfields; f += 2) {
            double m = get(t, inout, (size_t)i, f), c = get(t, inout, (size_t)i, f + 1);
            combine(kind, get(t, in, (size_t)i, f), get(t, in, (size_t)i, f + 1), &m, &c);
            set(t, inout, (size_t)i, f, m);
            set(t, inout, (size_t)i, f + 1, c);
        }
}

static void comm_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    apply(DT_COMM, in, inout, *len, *dt);
}

static void noncomm_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    apply(DT_NONCOMM, in, inout, *len, *dt);
}

void dt_init(const char *only)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int len;
    MPI_Get_library_version(version, &len);
    is_mpich = strstr(version, "MPICH") != NULL;
    make_types();
    for (int i = 0; i < NTYPES; i++)
        if (!only || strcmp(only, types[i].name) == 0)
            selected[nselected++] = i;
    ops[DT_SUM] = (dt_op){"sum", MPI_SUM, 1, DT_SUM};
    ops[DT_COMM] = (dt_op){"user_comm", MPI_OP_NULL, 1, DT_COMM};
    ops[DT_NONCOMM] = (dt_op){"user_noncomm", MPI_OP_NULL, 0, DT_NONCOMM};
    MPI_Op_create(comm_fn, 1, &ops[DT_COMM].op);
    MPI_Op_create(noncomm_fn, 0, &ops[DT_NONCOMM].op);
}

void dt_free(void)
{
    for (int i = 0; i < NTYPES; i++)
        MPI_Type_free(&types[i].type);
    MPI_Op_free(&ops[DT_COMM].op);
    MPI_Op_free(&ops[DT_NONCOMM].op);
}

int dt_ntypes(void)
{
    return nselected;
}

const dt_type *dt_type_at(int i)
{
    return &types[selected[i]];
}

const dt_type *dt_type_vector(void)
{
    return &types[0];
}

const dt_type *dt_type_int(void)
{
    return &types[NTYPES];
}

const dt_op *dt_op_at(int kind)
{
    return &ops[kind];
}

void dt_area_init(dt_area *a, const dt_type *t, size_t n, unsigned seed)
{
    MPI_Aint lo = span_lo(t, n), hi = span_hi(t, n);
    int size;
    MPI_Type_size(t->type, &size);
    a->t = t;
    a->n = n;
    a->total = (size_t)(hi - lo) + 2 * MT_GUARD;
    a->base = mt_xmalloc(a->total);
    a->buf = a->base + MT_GUARD - lo;
    for (size_t j = 0; j < a->total; j++)
        a->base[j] = pattern(j, seed);
    /* Unpacking 0xFF bytes into zeros marks exactly the bytes the n elements cover. */
    size_t psize = n * (size_t)size;
    unsigned char *ones = mt_xmalloc(psize);
    memset(ones, 0xFF, psize);
    a->cover = calloc(a->total, 1);
    unpack(t, ones, a->cover + MT_GUARD - lo, n);
    free(ones);
}

void dt_area_free(dt_area *a)
{
    free(a->base);
    free(a->cover);
    a->base = a->buf = a->cover = NULL;
}

void dt_area_clone(dt_area *dst, const dt_area *src)
{
    *dst = *src;
    dst->base = mt_xmalloc(src->total);
    dst->cover = mt_xmalloc(src->total);
    memcpy(dst->base, src->base, src->total);
    memcpy(dst->cover, src->cover, src->total);
    dst->buf = dst->base + (src->buf - src->base);
}

void dt_area_set_ref(dt_area *a, size_t k, const dt_ref *ref)
{
    const dt_type *t = a->t;
    for (size_t i = 0; i < k; i++)
        for (int f = 0; f < t->nfields; f++)
            set(t, a->buf, i, f, ref_field(t, ref, i, f));
}

int dt_mpi_trusted(int reduce_scatter, const dt_type *t, const dt_op *o)
{
    return !(is_mpich && reduce_scatter && !o->commutative && t->extent != t->true_extent);
}

void dt_area_set(dt_area *a, size_t at, size_t k, int r, size_t first)
{
    const dt_type *t = a->t;
    for (size_t i = 0; i < k; i++)
        for (int f = 0; f < t->nfields; f++)
            set(t, a->buf, at + i, f,
                (double)value(r, (first + i) * (size_t)t->nfields + (size_t)f));
}

/* Field f of element i of the reference result. */
static double ref_field(const dt_type *t, const dt_ref *ref, size_t i, int f)
{
    size_t g = (ref->first + i) * (size_t)t->nfields;
    if (!ref->op)
        return (double)value(ref->block ? (int)(i / ref->block) : ref->root, g + (size_t)f);
    double acc = 0;
    if (ref->op->kind == DT_SUM) {
        for (int r = 0; r < mt_size; r++)
            acc += (double)value(r, g + (size_t)f);
        return acc;
    }
    size_t pair = g + (size_t)(f - f % 2);
    double m = (double)value(mt_size - 1, pair), c = (double)value(mt_size - 1, pair + 1);
    for (int r = mt_size - 2; r >= 0; r--)
        combine(ref->op->kind, (double)value(r, pair), (double)value(r, pair + 1), &m, &c);
    return f % 2 ? c : m;
}

/* Prints element i's fields as "(a, b, ...)" from buf, or from ref when buf is NULL. */
static void describe(const dt_type *t, const void *buf, const dt_ref *ref, size_t i, char *out,
                     size_t len)
{
    size_t used = 0;
    for (int f = 0; f < t->nfields && used < len; f++) {
        double v = buf ? get(t, buf, i, f) : ref_field(t, ref, i, f);
        used += (size_t)snprintf(out + used, len - used, "%s%g", f ? ", " : "(", v);
    }
    if (used < len)
        snprintf(out + used, len - used, ")");
}

static void fail_data(const dt_area *got, const dt_area *mpi, const dt_ref *ref, size_t e,
                      MPI_Aint o)
{
    char gs[128], ms[128], rs[128];
    describe(got->t, got->buf, NULL, e, gs, sizeof gs);
    describe(got->t, mpi->buf, NULL, e, ms, sizeof ms);
    describe(got->t, NULL, ref, e, rs, sizeof rs);
    mt_fail("element %zu (first differing byte at offset %ld): vine %s, MPI %s, reference %s", e,
            (long)o, gs, ms, rs);
}

int dt_check_result(const dt_area *got, const dt_area *mpi, size_t care, unsigned seed,
                    const dt_ref *ref)
{
    const dt_type *t = got->t;
    MPI_Aint lo = span_lo(t, got->n);
    for (size_t j = 0; j < got->total; j++) {
        MPI_Aint o = (MPI_Aint)j - MT_GUARD + lo;
        if (!got->cover[j]) {
            if (got->base[j] == pattern(j, seed))
                continue;
            int guard = j < MT_GUARD || j >= got->total - MT_GUARD;
            mt_fail("%s byte at offset %ld overwritten (0x%02x, was 0x%02x)",
                    guard ? "guard" : "hole", (long)o, got->base[j], pattern(j, seed));
            return 0;
        }
        size_t e = (size_t)((o - t->true_lb) / t->extent);
        if (e < care && got->base[j] != mpi->base[j]) {
            fail_data(got, mpi, ref, e, o);
            return 0;
        }
    }
    return 1;
}

void dt_check_unchanged(const dt_area *a, const dt_area *before, const char *what)
{
    for (size_t j = 0; j < a->total; j++)
        if (a->base[j] != before->base[j]) {
            mt_fail("the %s buffer changed at offset %ld (%s)", what,
                    (long)((MPI_Aint)j - (a->buf - a->base)), a->cover[j] ? "data" : "not data");
            return;
        }
}

void dt_check_op_calls(void)
{
    if (bad_op_calls) {
        mt_fail("a user op was called with a datatype the test did not create (%ld calls)",
                bad_op_calls);
        bad_op_calls = 0;
    }
}
