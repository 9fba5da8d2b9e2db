/*
 * MPI tier: auto follows the tuning file that vine-tune just wrote
 * (tests/mpi/tune.cmake runs it after mpi.tune.run).  The file is read twice:
 * by vine (VINE_TUNING_FILE) and here with the file reader, as the
 * reference.  For every rule of the file for this communicator's size, every
 * range is called at its smallest size with auto: the call must be served by
 * the range's algorithm (where its restrictions admit the call; vine-tune
 * only writes such ones) and match the MPI library's result.  allgatherv
 * (equal blocks of n ints), scan and exscan (int sums) are called here, the
 * others through mpitest's mt_call_int.
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

/*
 * allgatherv, scan and exscan on n ints with vine (auto) or the MPI library;
 * returns the elements of out to compare (none on rank 0 of exscan).
 */
static int call_v(vine_coll coll, int use_vine, int n, const int *in, int *out, int *rc)
{
    MPI_Comm w = MPI_COMM_WORLD;
    if (coll == VINE_COLL_ALLGATHERV) {
        int *cnt = malloc(sizeof(int) * (size_t)mt_size);
        int *dsp = malloc(sizeof(int) * (size_t)mt_size);
        for (int i = 0; cnt && dsp && i < mt_size; i++) {
            cnt[i] = n;
            dsp[i] = i * n;
        }
        *rc = !cnt || !dsp ? MPI_ERR_NO_MEM
              : use_vine   ? vine_allgatherv(in, n, MPI_INT, out, cnt, dsp, MPI_INT, w)
                           : MPI_Allgatherv(in, n, MPI_INT, out, cnt, dsp, MPI_INT, w);
        free(cnt);
        free(dsp);
        return n * mt_size;
    }
    if (coll == VINE_COLL_SCAN) {
        *rc = use_vine ? vine_scan(in, out, n, MPI_INT, MPI_SUM, w)
                       : MPI_Scan(in, out, n, MPI_INT, MPI_SUM, w);
        return n;
    }
    *rc = use_vine ? vine_exscan(in, out, n, MPI_INT, MPI_SUM, w)
                   : MPI_Exscan(in, out, n, MPI_INT, MPI_SUM, w);
    return mt_rank == 0 ? 0 : n; /* rank 0's result is undefined */
}

/* One call of coll: call_v's collectives here, the others by mpitest. */
static int call(vine_coll coll, int use_vine, int n, const int *in, int *out, int *rc)
{
    if (coll == VINE_COLL_ALLGATHERV || coll == VINE_COLL_SCAN || coll == VINE_COLL_EXSCAN)
        return call_v(coll, use_vine, n, in, out, rc);
    return mt_call_int(coll, use_vine, MPI_COMM_WORLD, n, in, out, rc);
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
    int rc, len = call(r->coll, 0, n, in, ref, &rc);
    call(r->coll, 1, n, in, out, &rc);
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
