/*
 * Shared harness of the MPI test tier: the datatypes and ops under test, the
 * input values, guarded receive buffers, result comparison and the pass/fail
 * bookkeeping.  Each test program runs one collective under mpirun and
 * compares every vine algorithm with the MPI library's own collective.
 *
 * Inputs are small integers, so every floating-point result is exact in any
 * association order and results are compared bit for bit.  A case passes when
 * it passes on every rank; process 0 prints the closing summary line.
 */
#ifndef VINE_MPITEST_H
#define VINE_MPITEST_H

#include <vine.h>

#include <stddef.h>

/* How an element of a test type is written and compared. */
enum mt_kind {
    MT_INT,   /* an integer C type */
    MT_FLOAT, /* float or double */
    MT_PAIR,  /* MPI_DOUBLE_INT: value and index */
    MT_MAT    /* the 2x2 int matrix of the non-commutative user op */
};

typedef struct mt_type {
    const char *name;
    MPI_Datatype type;
    int kind;    /* enum mt_kind */
    size_t size; /* bytes of the C scalar (MT_INT, MT_FLOAT) */
    size_t extent;
} mt_type;

typedef struct mt_op {
    const char *name;
    MPI_Op op;
    int commutative;
} mt_op;

enum { MT_GUARD = 64 };

/* A buffer of n elements with MT_GUARD pattern bytes on each side. */
typedef struct mt_buf {
    unsigned char *base; /* the allocation */
    unsigned char *data; /* base + MT_GUARD: what the collective sees */
    size_t bytes;        /* bytes between the guards */
} mt_buf;

/* The current case, printed with every failure. */
typedef struct mt_case {
    const char *coll;
    const char *algo; /* "auto" or a registry name */
    const char *type;
    const char *op; /* "-" for collectives without an op */
    long count;
    int root; /* -1 for unrooted collectives */
    int inplace;
} mt_case;

extern int mt_rank, mt_size;

/* MPI_Init, the test types and the non-commutative op; name labels output. */
void mt_init(int *argc, char ***argv, const char *coll_name);
/* Gathers the per-case results, prints the summary on rank 0; exit status. */
int mt_finish(void);

/* The datatypes: the five basic ones, MPI_DOUBLE_INT and the matrix type. */
int mt_ntypes(void);
const mt_type *mt_type_at(int i);
const mt_type *mt_type_int(void);
const mt_type *mt_type_mat(void);
/* The predefined ops that apply to t (plus MAXLOC/MINLOC for pairs). */
int mt_nops(const mt_type *t);
const mt_op *mt_op_at(const mt_type *t, int i);
const mt_op *mt_op_sum(void);
/* The non-commutative matrix product over mt_type_mat(). */
const mt_op *mt_op_matmul(void);

/*
 * Algorithms of coll: index 0 is "auto", then the registry's in order; only
 * those named in VINE_TEST_ALGOS (a comma-separated list) when it is set,
 * else all but the torus algorithms (mpitest.c).
 */
int mt_nalgos(vine_coll coll);
const char *mt_algo_at(vine_coll coll, int i);
/* Forces algo (NULL for "auto"); a failure is fatal to the test program. */
void mt_select(vine_coll coll, const char *algo);

/*
 * Writes elements first .. first+n-1 of rank r's input for op o (NULL when
 * the collective has none) into buf.  The values are small integers chosen
 * per op; for the matrix type each is one of four small matrices.
 */
void mt_fill(const mt_type *t, const mt_op *o, void *buf, size_t n, int r, size_t first);
/* Fills n elements with a poison pattern (what must be overwritten). */
void mt_poison(const mt_type *t, void *buf, size_t n);
/* For elements first .. first+n-1: the product of ranks 0..p-1's matrices, in rank order. */
void mt_matmul_ref(void *out, size_t n, int p, size_t first);

void mt_buf_alloc(mt_buf *b, size_t bytes);
void mt_buf_free(mt_buf *b);

/* Opens a case; every check below refers to it until the next one. */
void mt_begin(const mt_case *c);
/* Records a failure of the current case with a printf-style reason. */
void mt_fail(const char *fmt, ...);
/* Fails unless rc is MPI_SUCCESS (names the call). */
int mt_check_rc(int rc, const char *call);
/*
 * Aborts (MPI_Abort) when a polling loop started at MPI_Wtime() start has
 * run for seconds: a hang with a name (what) on stderr.
 */
void mt_deadline(double start, int seconds, const char *what);
/*
 * Completes the request *q with the k-th (mod 5) of vine_wait, vine_test,
 * vine_waitall, vine_testall and vine_waitany, the polling ones under
 * mt_deadline(seconds); vine_waitany must name index 0.  Returns the call's code.
 */
int mt_complete(MPI_Request *q, int k, MPI_Status *st, int seconds);
/* Fails when a collective request's status is not empty (MPI_ANY_SOURCE, MPI_ANY_TAG, count 0). */
void mt_check_empty_status(const MPI_Status *st, const char *what);
/* Fails unless the guards of b still hold the pattern. */
void mt_check_guards(const mt_buf *b);
/* Fails unless n elements of got equal want (element-wise for t). */
int mt_check_equal(const mt_type *t, const void *got, const void *want, size_t n, const char *what);
/* Fails unless bytes of the send buffer are as they were. */
void mt_check_unchanged(const void *now, const void *before, size_t bytes);
/*
 * Fails when the algorithm that served the latest call of coll does not
 * match the forced one: it must serve when its restrictions admit the call
 * and must not otherwise (it fell back to auto).  Calls that move no data
 * (total elements 0) run no algorithm and are not checked.
 */
void mt_check_served(vine_coll coll, const char *algo, int commutative, size_t total);
/* Collective: fails unless n bytes at buf hash the same on every rank. */
/*
 * One int/MPI_SUM call of coll on comm (at most 64 ranks) through vine
 * (use_vine) or MPI, n elements per block (roots: bcast and gather p - 1,
 * reduce and scatter 0); *rc gets the call's return code.  Returns the
 * length of the result on this rank.  in holds n * p elements, out room for
 * as many.
 */
int mt_call_int(vine_coll coll, int use_vine, MPI_Comm comm, int n, const int *in, int *out,
                int *rc);

void mt_check_same_everywhere(const void *buf, size_t bytes);

/* The distinct counts of the sweep for p ranks: 0, 1, 7, p-1, p+1, 1000, 1031. */
int mt_counts(long *out);

/* malloc that never returns NULL (a test without memory aborts); 0 bytes give a valid pointer. */
void *mt_xmalloc(size_t bytes);

/*
 * Faults of MPI libraries on one process, where the tests take a send to
 * self as the reference instead (probed once, with PMPI): whether
 * MPI_Allgatherv ignores the block's displacement (MPICH 4.0.2 copies it to
 * the start of the receive buffer), and whether MPI_Alltoallw takes the
 * displacements in extents of the types rather than in bytes (Open MPI
 * 4.1.4's coll/self multiplies them by the extents, writing past the
 * buffer; there the "mpi" algorithm, which hands the call to the library,
 * is not run either).  Both are 0 on more than one process.
 */
int mt_self_allgatherv_broken(void);
int mt_self_alltoallw_broken(void);
/* The distinct values of want[0..nwant) in order, into out; returns how many. */
int mt_unique(const long *want, int nwant, long *out);

#endif
