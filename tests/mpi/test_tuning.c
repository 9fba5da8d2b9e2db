/*
 * MPI tier: auto follows a tuning file (docs/tuning.md).
 *
 * The mode comes from VINE_TEST_TUNING_MODE (ctest sets it):
 *
 *   table (default)        rank 0 writes a hand-made file with two size ranges
 *                          per collective for this communicator's size (one
 *                          of them the MPI library's own collective, "mpi");
 *                          vine_set_tuning_file loads it, and every call of
 *                          every collective in each range must be served by
 *                          the range's algorithm and match the MPI library's
 *                          result; then a second file with the algorithms
 *                          swapped, on MPI_COMM_WORLD and on a communicator
 *                          of p - 1 ranks (the nearest size in the file).  A
 *                          malformed file must make every collective fail
 *                          with MPI_ERR_OTHER and vine_tuning_info name the
 *                          file and line; removing it restores the calls.
 *   env                    VINE_TUNING_FILE (set by ctest) names
 *                          tests/data/tuning/mpi-env.json: allreduce and
 *                          bcast on 1 to 8 ranks must follow it.
 *   unusable               VINE_TUNING_FILE names a file that cannot be
 *                          read: every collective fails with MPI_ERR_OTHER.
 */
#include "mpitest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Elements per block of the two calls: 16 and 256 bytes of ints. */
enum { SMALL = 4, LARGE = 64, SPLIT = 64 };

/* The collectives the file covers: the ten before the v collectives and the scans. */
#define NCOLL VINE_COLL_ALLGATHERV

/* The file's algorithm below SPLIT bytes and from SPLIT on, per collective. */
static const char *const algos[NCOLL][2] = {
    [VINE_COLL_BCAST] = {"mpi", "linear"},
    [VINE_COLL_REDUCE] = {"linear", "mpi"},
    [VINE_COLL_ALLREDUCE] = {"mpi", "reduce_bcast"},
    [VINE_COLL_ALLGATHER] = {"ring", "mpi"},
    [VINE_COLL_REDUCE_SCATTER] = {"mpi", "recursive_doubling"},
    [VINE_COLL_REDUCE_SCATTER_BLOCK] = {"recursive_doubling", "mpi"},
    [VINE_COLL_ALLTOALL] = {"mpi", "linear"},
    [VINE_COLL_GATHER] = {"linear", "mpi"},
    [VINE_COLL_SCATTER] = {"mpi", "linear"},
    [VINE_COLL_BARRIER] = {"mpi", "mpi"},
};

/* Writes the rules of every collective for p ranks to f (swap: the two ranges' algorithms swapped).
 */
static void write_rules(FILE *f, int p, int swap)
{
    for (int c = 0; c < NCOLL; c++) {
        fprintf(f, "%s    {\"collective\": \"%s\", \"ranks\": %d, \"ranges\": [\n", c ? ",\n" : "",
                vine_coll_name((vine_coll)c), p);
        if (c == VINE_COLL_BARRIER)
            fprintf(f, "      {\"min\": 0, \"max\": 0, \"algorithm\": \"%s\"}]}", algos[c][0]);
        else
            fprintf(f,
                    "      {\"min\": 0, \"max\": %d, \"algorithm\": \"%s\"},\n"
                    "      {\"min\": %d, \"max\": 1048576, \"algorithm\": \"%s\"}]}",
                    SPLIT - 1, algos[c][swap], SPLIT, algos[c][!swap]);
    }
}

/*
 * Rank 0 writes a tuning file (swap: write_rules'; broken: a range out of
 * order) and every rank gets its name.
 */
static void make_file(char *path, size_t len, int swap, int broken)
{
    if (mt_rank == 0) {
        snprintf(path, len, "/tmp/vine-tuning-test-XXXXXX");
        int fd = mkstemp(path);
        FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
        if (!f) {
            mt_fail("cannot write a tuning file in /tmp");
            path[0] = '\0';
        } else {
            fprintf(f, "{\n  \"schema\": \"vine-tuning\",\n  \"version\": 1,\n  \"rules\": [\n");
            write_rules(f, mt_size, swap);
            if (broken)
                fprintf(
                    f,
                    ",\n    {\"collective\": \"bcast\", \"ranks\": %d, \"ops\": \"commutative\","
                    " \"ranges\": [\n      {\"min\": 64, \"max\": 128, \"algorithm\": "
                    "\"linear\"},\n"
                    "      {\"min\": 8, \"max\": 16, \"algorithm\": \"binomial\"}]}",
                    mt_size);
            fprintf(f, "\n  ]\n}\n");
            fclose(f);
        }
    }
    MPI_Bcast(path, (int)len, MPI_CHAR, 0, MPI_COMM_WORLD);
}

/*
 * One call of coll on comm with n ints per block, checked against MPI and for
 * who served it (want NULL: any algorithm).
 */
static void check_tuned(vine_coll coll, MPI_Comm comm, int n, const char *want)
{
    mt_case c = {vine_coll_name(coll), want ? want : "auto", "int", "sum", n, -1, 0};
    mt_begin(&c);
    /* A rank outside comm counts the case, so that every rank runs as many. */
    if (comm == MPI_COMM_NULL)
        return;
    int p;
    MPI_Comm_size(comm, &p);
    size_t all = (size_t)n * (size_t)p;
    int *in = malloc(sizeof(int) * all), *out = calloc(all, sizeof(int));
    int *ref = calloc(all, sizeof(int));
    for (size_t i = 0; i < all; i++)
        in[i] = mt_rank * 100 + (int)i;
    int rc, len = mt_call_int(coll, 0, comm, n, in, ref, &rc);
    mt_call_int(coll, 1, comm, n, in, out, &rc);
    if (mt_check_rc(rc, vine_coll_name(coll))) {
        mt_check_equal(mt_type_int(), out, ref, (size_t)len, "result");
        const char *served = vine_last_algorithm(coll);
        /* A barrier on one rank has no one to wait for and runs nothing. */
        if (want && !(coll == VINE_COLL_BARRIER && p == 1) && strcmp(served, want) != 0)
            mt_fail("served by %s, the tuning file says %s", served, want);
    }
    free(in);
    free(out);
    free(ref);
}

/* Every collective in both ranges of the file on comm (swap as the file was written). */
static void check_all(MPI_Comm comm, int swap)
{
    for (int ci = 0; ci < NCOLL; ci++) {
        check_tuned((vine_coll)ci, comm, SMALL, algos[ci][swap]);
        check_tuned((vine_coll)ci, comm, LARGE, algos[ci][!swap]);
    }
}

/* Every collective must fail with MPI_ERR_OTHER before communicating. */
static void check_all_fail(const char *why)
{
    for (int ci = 0; ci < NCOLL; ci++) {
        mt_case c = {vine_coll_name((vine_coll)ci), "auto", "int", "sum", SMALL, -1, 0};
        mt_begin(&c);
        int in[SMALL * 64] = {0}, out[SMALL * 64];
        int rc, cls = -1;
        mt_call_int((vine_coll)ci, 1, MPI_COMM_WORLD, SMALL, in, out, &rc);
        if (MPI_Error_class(rc, &cls) != MPI_SUCCESS || cls != MPI_ERR_OTHER)
            mt_fail("%s: the call returned %d (%s), not MPI_ERR_OTHER", why, rc,
                    vine_error_string(rc));
    }
}

/* Loads a file made by make_file(swap) and checks every collective on MPI_COMM_WORLD. */
static void check_file(int swap)
{
    char path[256];
    make_file(path, sizeof path, swap, 0);
    if (!path[0])
        return;
    if (vine_set_tuning_file(path) != MPI_SUCCESS) {
        char msg[512];
        vine_tuning_info(NULL, msg, sizeof msg);
        mt_fail("the tuning file was refused: %s", msg);
    }
    check_all(MPI_COMM_WORLD, swap);
    MPI_Barrier(MPI_COMM_WORLD);
    if (mt_rank == 0)
        unlink(path);
}

static void run_table(void)
{
    char path[256];
    /* The second file swaps the algorithms: the schedules of the first must not serve. */
    check_file(0);
    check_file(1);
    /* p - 1 ranks are within a factor of 2 of p: the same rules serve them. */
    if (mt_size >= 3) {
        MPI_Comm sub;
        MPI_Comm_split(MPI_COMM_WORLD, mt_rank < mt_size - 1 ? 0 : MPI_UNDEFINED, mt_rank, &sub);
        check_all(sub, 1);
        if (sub != MPI_COMM_NULL)
            MPI_Comm_free(&sub);
    }
    make_file(path, sizeof path, 0, 1);
    char msg[512] = "", want[300];
    int nrules = -1;
    if (vine_set_tuning_file(path) != MPI_ERR_OTHER ||
        vine_tuning_info(&nrules, msg, sizeof msg) != MPI_ERR_OTHER || nrules != 0)
        mt_fail("a tuning file with ranges out of order was accepted (%s)", msg);
    /* 4 header lines, 3 per rule (2 for barrier's), then the broken rule's third line. */
    snprintf(want, sizeof want, "%s:%d: ", path, 4 + 3 * (NCOLL - 1) + 2 + 3);
    if (strncmp(msg, want, strlen(want)) != 0)
        mt_fail("the message \"%s\" does not start with \"%s\"", msg, want);
    check_all_fail("ranges out of order");
    MPI_Barrier(MPI_COMM_WORLD);
    if (mt_rank == 0)
        unlink(path);
    if (vine_set_tuning_file(NULL) != MPI_SUCCESS)
        mt_fail("vine_set_tuning_file(NULL) failed");
    for (int ci = 0; ci < NCOLL; ci++)
        check_tuned((vine_coll)ci, MPI_COMM_WORLD, SMALL, NULL);
}

static void run_env(void)
{
    char msg[512];
    int nrules = 0;
    if (vine_tuning_info(&nrules, msg, sizeof msg) != MPI_SUCCESS || nrules == 0)
        mt_fail("VINE_TUNING_FILE was not used: %s", msg);
    check_tuned(VINE_COLL_ALLREDUCE, MPI_COMM_WORLD, SMALL, "mpi");
    check_tuned(VINE_COLL_ALLREDUCE, MPI_COMM_WORLD, LARGE, "reduce_bcast");
    check_tuned(VINE_COLL_BCAST, MPI_COMM_WORLD, SMALL, "linear");
    check_tuned(VINE_COLL_BCAST, MPI_COMM_WORLD, LARGE, "mpi");
}

static void run_unusable(void)
{
    char msg[512];
    if (vine_tuning_info(NULL, msg, sizeof msg) != MPI_ERR_OTHER || !strstr(msg, "cannot open"))
        mt_fail("an unreadable VINE_TUNING_FILE was not reported: %s", msg);
    check_all_fail("unreadable VINE_TUNING_FILE");
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "tuning");
    const char *mode = getenv("VINE_TEST_TUNING_MODE");
    mode = mode ? mode : "table";
    if (mt_size > 64)
        return mt_finish();
    if (strcmp(mode, "env") == 0)
        run_env();
    else if (strcmp(mode, "unusable") == 0)
        run_unusable();
    else
        run_table();
    return mt_finish();
}
