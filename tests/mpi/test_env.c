/*
 * MPI tier: algorithm choice through VINE_<COLL>_ALGORITHM, which the ctest
 * registrations set.  For every collective whose variable is set, a call must
 * return MPI_ERR_ARG when the variable names no algorithm (before sending
 * anything), and otherwise succeed, served by the named algorithm when its
 * restrictions admit the call.  vine_set_algorithm(coll, "auto") then takes
 * precedence over the variable and the call must succeed.  Every successful
 * call is checked against the MPI library's collective.
 */
#include "mpitest.h"

#include "coll/coll.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 5 };

/* The value of VINE_<COLL>_ALGORITHM, or NULL. */
static const char *env_algo(vine_coll coll)
{
    char var[96] = "VINE_";
    const char *name = vine_coll_name(coll);
    size_t n = strlen(var);
    for (size_t i = 0; name[i]; i++)
        var[n++] = (char)toupper((unsigned char)name[i]);
    strcpy(var + n, "_ALGORITHM");
    return getenv(var);
}

/* A call that must succeed and match MPI; algo is what must serve it ("auto": anything). */
static void check_call(vine_coll coll, const char *algo)
{
    mt_case c = {vine_coll_name(coll), algo, "int", "sum", N, -1, 0};
    mt_begin(&c);
    int p = mt_size, *in = malloc(sizeof(int) * N * (size_t)p);
    int *out = calloc(N * (size_t)p, sizeof(int)), *ref = calloc(N * (size_t)p, sizeof(int));
    for (int i = 0; i < N * p; i++)
        in[i] = mt_rank * 100 + i;
    int rc, n = mt_call_int(coll, 0, MPI_COMM_WORLD, N, in, ref, &rc);
    mt_call_int(coll, 1, MPI_COMM_WORLD, N, in, out, &rc);
    if (mt_check_rc(rc, vine_coll_name(coll))) {
        mt_check_equal(mt_type_int(), out, ref, (size_t)n, "result");
        /* A barrier on one rank has no one to wait for and runs no algorithm. */
        size_t moved = coll == VINE_COLL_BARRIER ? (size_t)(p > 1) : N;
        mt_check_served(coll, algo, 1, moved);
    }
    free(in);
    free(out);
    free(ref);
}

/* A call that must fail with MPI_ERR_ARG because the environment names no algorithm. */
static void check_rejected(vine_coll coll, const char *name)
{
    mt_case c = {vine_coll_name(coll), name, "int", "sum", N, -1, 0};
    mt_begin(&c);
    int p = mt_size, *in = calloc(N * (size_t)p, sizeof(int)),
        *out = calloc(N * (size_t)p, sizeof(int));
    int rc, cls;
    mt_call_int(coll, 1, MPI_COMM_WORLD, N, in, out, &rc);
    if (MPI_Error_class(rc, &cls) != MPI_SUCCESS || cls != MPI_ERR_ARG)
        mt_fail("an unknown algorithm in the environment gave %d (%s), not MPI_ERR_ARG", rc,
                vine_error_string(rc));
    free(in);
    free(out);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "env");
    if (mt_size > 64)
        return mt_finish();
    int set = 0;
    for (int ci = 0; ci < VINE_COLL_COUNT; ci++) {
        vine_coll coll = (vine_coll)ci;
        const char *name = env_algo(coll);
        if (!name || !*name)
            continue;
        set++;
        if (strcmp(name, "auto") != 0 && !vine__algo_find(coll, name))
            check_rejected(coll, name);
        else
            check_call(coll, name);
        mt_select(coll, "auto");
        check_call(coll, "auto");
    }
    if (!set) {
        mt_case c = {"all", "-", "-", "VINE_<COLL>_ALGORITHM", 0, -1, 0};
        mt_begin(&c);
        mt_fail("no VINE_<COLL>_ALGORITHM variable is set: the test checks nothing");
    }
    return mt_finish();
}
