/*
 * MPI tier: auto follows the tuning file that vine-tune just wrote
 * (tests/mpi/tune.cmake runs it after mpi.tune.run).  The file is read twice:
 * by vine (VINE_TUNING_FILE) and here with the file reader, as the
 * reference.  For every rule of the file for this communicator's size, every
 * range is called at its smallest size with auto: the call must be served by
 * the range's algorithm (where its restrictions admit the call; vine-tune
 * only writes such ones) and match the MPI library's result.
 *
 * usage: mpitest_tune_follow FILE   (VINE_TUNING_FILE must name FILE too)
 */
#include "mpitest.h"

#include "select/tuning.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether vine-tune's calls (int MPI_SUM, not in place) are in r's class. */
static int measured_class(const vine_tune_rule *r)
{
    return r->ops != VINE_TUNE_OPS_NONCOMMUTATIVE && r->inplace != VINE_TUNE_INPLACE_YES;
}

/* One auto call of r's collective at the smallest size of g (ints). */
static void check_range(const vine_tune_rule *r, const vine_tune_range *g)
{
    int n = (int)(g->min / sizeof(int));
    if (r->coll != VINE_COLL_BARRIER && (g->min % sizeof(int) || n == 0 || n > 1 << 20))
        return;
    mt_case c = {vine_coll_name(r->coll), g->algo->name, "int", "sum", n, -1, 0};
    mt_begin(&c);
    size_t all = (size_t)(n ? n : 1) * (size_t)mt_size;
    int *in = malloc(sizeof(int) * all), *out = calloc(all, sizeof(int));
    int *ref = calloc(all, sizeof(int));
    for (size_t i = 0; in && i < all; i++)
        in[i] = mt_rank * 100 + (int)i % 1000;
    int rc, len = mt_call_int(r->coll, 0, MPI_COMM_WORLD, n, in, ref, &rc);
    mt_call_int(r->coll, 1, MPI_COMM_WORLD, n, in, out, &rc);
    if (mt_check_rc(rc, vine_coll_name(r->coll))) {
        mt_check_equal(mt_type_int(), out, ref, (size_t)len, "result");
        const char *served = vine_last_algorithm(r->coll);
        if (strcmp(served, g->algo->name) != 0)
            mt_fail("served by %s, the tuning file says %s for %zu..%zu bytes", served,
                    g->algo->name, g->min, g->max);
    }
    free(in);
    free(out);
    free(ref);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "tune_follow");
    const char *env = getenv("VINE_TUNING_FILE");
    if (argc < 2 || !env || strcmp(env, argv[1]) != 0) {
        mt_fail("usage: mpitest_tune_follow FILE, with VINE_TUNING_FILE=FILE");
        return mt_finish();
    }
    vine_tuning t;
    char err[512];
    vine__tuning_init(&t);
    if (vine__tuning_load(&t, argv[1], err, sizeof err) != VINE_OK) {
        mt_fail("%s", err);
        return mt_finish();
    }
    int rules = 0;
    for (int i = 0; i < t.nrules; i++) {
        const vine_tune_rule *r = &t.rules[i];
        if (r->p != mt_size || !measured_class(r))
            continue;
        rules++;
        for (int j = 0; j < r->nranges; j++)
            check_range(r, &r->ranges[j]);
    }
    if (rules == 0)
        mt_fail("%s has no rule for %d ranks", argv[1], mt_size);
    vine__tuning_free(&t);
    return mt_finish();
}
