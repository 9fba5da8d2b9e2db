/*
 * What the plain MPI programs of tests/pmpi (app.c, app_nb.c) share: the
 * failure report, the value patterns every rank can compute for any other,
 * and a non-commutative user-defined op.  Header-only: each program is one
 * file, built with the MPI compiler alone (check_install.sh).
 */
#ifndef VINE_TESTS_PMPI_APP_H
#define VINE_TESTS_PMPI_APP_H

#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
static int world_rank;

/* Reports a failed check in one write, so that the ranks' lines do not mix. */
static void fail(const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    failures++;
    fprintf(stderr, "app: rank %d: %s\n", world_rank, msg);
}

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond))                                                                               \
            fail(__VA_ARGS__);                                                                     \
    } while (0)

#define CHECK_RC(rc, what) CHECK((rc) == MPI_SUCCESS, "%s returned %d", what, rc)

/* The value of element i contributed by rank r. */
static inline int val(int r, int i)
{
    return r * 1000 + i * 7 + 1;
}

/* Element k of the block that rank `from` sends to rank `to`. */
static inline int enc(int from, int to, int k)
{
    return from * 10000 + to * 100 + k;
}

/*
 * A non-commutative user-defined op: the affine map x -> a x + b; "u op v"
 * applies u first, then v.  Arithmetic is modulo 2^32 (unsigned).
 */
typedef struct affine {
    unsigned a, b;
} affine;

static inline affine compose(affine first, affine then)
{
    return (affine){first.a * then.a, first.b * then.a + then.b};
}

/* MPI's rule: inoutvec[i] = invec[i] op inoutvec[i], invec from lower ranks. */
static void affine_op(void *invec, void *inoutvec, int *len, MPI_Datatype *dt)
{
    const affine *in = invec;
    affine *inout = inoutvec;
    (void)dt;
    for (int i = 0; i < *len; i++)
        inout[i] = compose(in[i], inout[i]);
}

static inline affine aff(int r, int i)
{
    return (affine){2u * (unsigned)r + 3u + (unsigned)i, 5u * (unsigned)r + (unsigned)i};
}

/* The reduction of element i over ranks 0..p-1 in rank order. */
static inline affine aff_fold(int p, int i)
{
    affine acc = aff(0, i);
    for (int r = 1; r < p; r++)
        acc = compose(acc, aff(r, i));
    return acc;
}

static inline int aff_eq(affine x, affine y)
{
    return x.a == y.a && x.b == y.b;
}

#endif
