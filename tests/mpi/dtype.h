/*
 * Derived datatypes for the MPI test tier (test_dtype.c): the types under
 * test, buffers laid out for them with the bytes each type covers, input
 * values, the user-defined ops and the reference results.
 *
 * Every type is a sequence of (m, c) pairs of int or double fields: m is 1 or
 * 2 and c is 1 to 5, so sums, products and the compositions below stay small
 * exact integers (and never -0.0) in any association order, and results can
 * be compared byte for byte.  Where a type's fields lie is found from MPI
 * itself (by unpacking marker bytes), never from hand-written offsets.
 */
#ifndef VINE_DTYPE_H
#define VINE_DTYPE_H

#include "mpitest.h"

#include <stddef.h>

enum { DT_MAX_FIELDS = 6 };

typedef struct dt_type {
    const char *name;
    MPI_Datatype type;
    const char *sig; /* the type signature: 'i' (MPI_INT) or 'd' (MPI_DOUBLE) per field */
    int nfields;
    MPI_Aint lb, extent, true_lb, true_extent;
    MPI_Aint off[DT_MAX_FIELDS]; /* byte offset of each field from the element's address */
    int int_only;                /* built from MPI_INT alone */
    int sum_ok;                  /* int_only and MPI_Reduce_local accepts it with MPI_SUM */
} dt_type;

/* The ops: MPI_SUM, a commutative user op and a non-commutative one. */
enum dt_op_kind { DT_SUM, DT_COMM, DT_NONCOMM, DT_NOPS };

typedef struct dt_op {
    const char *name;
    MPI_Op op;
    int commutative;
    int kind; /* enum dt_op_kind */
} dt_op;

/* A buffer of n elements of a type between MT_GUARD guard bytes on each side. */
typedef struct dt_area {
    const dt_type *t;
    size_t n;
    size_t total;         /* bytes of the allocation, guards included */
    unsigned char *base;  /* the allocation */
    unsigned char *buf;   /* the address of element 0, given to MPI and vine */
    unsigned char *cover; /* per byte of base: 1 where the n elements hold data */
} dt_area;

/* Creates the types and ops (after mt_init); only (unless NULL) names the one
 * type dt_ntypes() and dt_type_at() select.  dt_free() frees them (before mt_finish). */
void dt_init(const char *only);
void dt_free(void);

/* The selected types (all unless dt_init was given a name). */
int dt_ntypes(void);
const dt_type *dt_type_at(int i);
/* The vector type MPI_Type_vector(3, 2, 4, MPI_INT). */
const dt_type *dt_type_vector(void);
/* The contiguous MPI_INT "type" of the mixed-type allgather. */
const dt_type *dt_type_int(void);
const dt_op *dt_op_at(int kind);

/*
 * Lays out n elements of t, fills every byte (guards, holes and data) with
 * a pattern that depends on seed, and computes the covered bytes.
 */
void dt_area_init(dt_area *a, const dt_type *t, size_t n, unsigned seed);
void dt_area_free(dt_area *a);
/* A byte-for-byte copy of a (same layout and contents). */
void dt_area_clone(dt_area *dst, const dt_area *src);
/* Writes rank r's input for elements first .. first+k-1 into elements at .. at+k-1. */
void dt_area_set(dt_area *a, size_t at, size_t k, int r, size_t first);

/*
 * What element i of a result must hold: the op over ranks 0..p-1 of their
 * element first + i, or (op NULL) element first + i of rank src, where src
 * is i / block when block > 0 (an allgather) and root otherwise.
 */
typedef struct dt_ref {
    const dt_op *op;
    int root;
    size_t block;
    size_t first;
} dt_ref;

/*
 * Fails unless every byte of got that no element covers (holes, padding,
 * guards) still holds the pattern of seed, and the data of the first `care`
 * elements equals mpi's byte for byte.  Data of later elements is not
 * compared (MPI leaves it undefined, e.g. in an in-place reduce-scatter).
 * On a difference it prints the element's fields in got, mpi and ref.
 */
int dt_check_result(const dt_area *got, const dt_area *mpi, size_t care, unsigned seed,
                    const dt_ref *ref);
/* Writes the reference result into the first k elements of a. */
void dt_area_set_ref(dt_area *a, size_t k, const dt_ref *ref);

/*
 * Whether the MPI library's collective can serve as the reference.  MPICH
 * 4.0.2's reduce-scatters with a non-commutative op on a power-of-two
 * communicator return wrong data and corrupt the heap when a type's extent
 * differs from its true extent; those cases are checked against
 * dt_area_set_ref() instead.
 */
int dt_mpi_trusted(int reduce_scatter, const dt_type *t, const dt_op *o);

/* Fails unless a is byte for byte the same as before (what: "send" ...). */
void dt_check_unchanged(const dt_area *a, const dt_area *before, const char *what);
/* Fails if a user op met a datatype it does not know. */
void dt_check_op_calls(void);

#endif
