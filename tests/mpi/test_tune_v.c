/*
 * MPI tier: auto follows a tuning file's rules for allgatherv, scan and
 * exscan, the collectives vine-tune measures beside the classic ten
 * (docs/vine-tune.md, docs/tuning.md "The size of a call").
 *
 * Rank 0 writes a file with two ranges per collective for this
 * communicator's size, split at SPLIT bytes, and vine_set_tuning_file loads
 * it; then a second file with the two algorithms swapped, so that at least
 * one of each pair differs from auto's choice without a file.  Every call
 * must match the MPI library's result and be served, on every rank, by the
 * range of its size:
 *   - allgatherv counts the mean block (the sum of the receive counts in
 *     bytes over p), the same on every rank: equal blocks below and above
 *     SPLIT, and blocks of very different sizes whose mean lies in the other
 *     range than some rank's own block; where the range names the ring and
 *     the largest block is more than twice the mean, bine_block serves;
 *   - scan and exscan count the vector (count x 4 bytes), with an int sum;
 *   - alltoallv, whose ranks know their own row only, counts 0 on every
 *     rank: the rule's first range serves it at any size.
 */
#include "mpitest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { SPLIT = 1024 };

/* The file's algorithm below SPLIT bytes and from SPLIT on, per collective. */
static const struct {
    vine_coll coll;
    const char *ops;
    const char *algo[2];
} rules[] = {
    {VINE_COLL_ALLGATHERV, "any", {"bruck", "ring"}},
    {VINE_COLL_SCAN, "commutative", {"linear", "recursive_doubling"}},
    {VINE_COLL_EXSCAN, "commutative", {"recursive_doubling", "linear"}},
    {VINE_COLL_ALLTOALLV, "any", {"pairwise", "linear"}},
};
#define NRULES ((int)(sizeof rules / sizeof rules[0]))

/* Rank 0 writes the file (swap: the two ranges' algorithms swapped); every rank gets its name. */
static void make_file(char *path, size_t len, int swap)
{
    if (mt_rank == 0) {
        snprintf(path, len, "/tmp/vine-tune-v-test-XXXXXX");
        int fd = mkstemp(path);
        FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
        if (!f) {
            mt_fail("cannot write a tuning file in /tmp");
            path[0] = '\0';
        } else {
            fprintf(f, "{\"schema\": \"vine-tuning\", \"version\": 1, \"rules\": [\n");
            for (int i = 0; i < NRULES; i++)
                fprintf(f,
                        "%s {\"collective\": \"%s\", \"ranks\": %d, \"ops\": \"%s\", \"ranges\": ["
                        "{\"min\": 0, \"max\": %d, \"algorithm\": \"%s\"}, "
                        "{\"min\": %d, \"max\": 1073741824, \"algorithm\": \"%s\"}]}\n",
                        i ? "," : "", vine_coll_name(rules[i].coll), mt_size, rules[i].ops,
                        SPLIT - 1, rules[i].algo[swap], SPLIT, rules[i].algo[!swap]);
            fprintf(f, "]}\n");
            fclose(f);
        }
    }
    MPI_Bcast(path, (int)len, MPI_CHAR, 0, MPI_COMM_WORLD);
}

/* Every rank's served algorithm must be want. */
static void check_served(vine_coll coll, const char *want)
{
    const char *served = vine_last_algorithm(coll);
    if (strcmp(served, want) != 0)
        mt_fail("served by %s, the tuning file says %s", served, want);
}

/*
 * allgatherv with cnt[i] ints from rank i: the served algorithm is that of
 * the range of the mean block, sum(cnt) * 4 / p bytes.
 */
static void check_allgatherv(const int *cnt, const char *const algo[2], const char *label)
{
    mt_case c = {"allgatherv", label, "int", "sum", cnt[mt_rank], -1, 0};
    mt_begin(&c);
    int *dsp = malloc(sizeof(int) * (size_t)mt_size), total = 0;
    for (int i = 0; dsp && i < mt_size; i++) {
        dsp[i] = total;
        total += cnt[i];
    }
    int *in = malloc(sizeof(int) * (size_t)cnt[mt_rank] + 1);
    int *out = calloc((size_t)total + 1, sizeof(int)),
        *ref = calloc((size_t)total + 1, sizeof(int));
    if (!dsp || !in || !out || !ref) {
        mt_fail("out of memory");
        total = 0;
    }
    for (int i = 0; in && i < cnt[mt_rank]; i++)
        in[i] = mt_rank * 1000 + i;
    size_t mean = (size_t)total * sizeof(int) / (size_t)mt_size;
    int rc = MPI_Allgatherv(in, cnt[mt_rank], MPI_INT, ref, cnt, dsp, MPI_INT, MPI_COMM_WORLD);
    if (total && rc == MPI_SUCCESS)
        rc = vine_allgatherv(in, cnt[mt_rank], MPI_INT, out, cnt, dsp, MPI_INT, MPI_COMM_WORLD);
    if (total && mt_check_rc(rc, "allgatherv")) {
        mt_check_equal(mt_type_int(), out, ref, (size_t)total, "result");
        /* Where the range names the ring, blocks whose largest is more than twice the
         * mean go to bine_block (docs/selection.md, the allgatherv rule). */
        size_t big = 0;
        for (int i = 0; i < mt_size; i++)
            big = (size_t)cnt[i] * sizeof(int) > big ? (size_t)cnt[i] * sizeof(int) : big;
        const char *want = algo[mean >= SPLIT];
        if (strcmp(want, "ring") == 0 && big / 2 > mean)
            want = "bine_block";
        check_served(VINE_COLL_ALLGATHERV, want);
    }
    free(dsp);
    free(in);
    free(out);
    free(ref);
}

/* scan or exscan of n ints (int sum): the range of n * 4 bytes serves. */
static void check_scan(vine_coll coll, int n, const char *const algo[2])
{
    mt_case c = {vine_coll_name(coll), "auto", "int", "sum", n, -1, 0};
    mt_begin(&c);
    int *in = malloc(sizeof(int) * (size_t)n), *out = calloc((size_t)n, sizeof(int));
    int *ref = calloc((size_t)n, sizeof(int)), rc;
    for (int i = 0; in && i < n; i++)
        in[i] = mt_rank * 100 + i;
    if (coll == VINE_COLL_SCAN) {
        rc = MPI_Scan(in, ref, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        rc = rc ? rc : vine_scan(in, out, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    } else {
        rc = MPI_Exscan(in, ref, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        rc = rc ? rc : vine_exscan(in, out, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    }
    if (mt_check_rc(rc, vine_coll_name(coll))) {
        /* exscan leaves rank 0's result undefined. */
        size_t len = coll == VINE_COLL_EXSCAN && mt_rank == 0 ? 0 : (size_t)n;
        mt_check_equal(mt_type_int(), out, ref, len, "result");
        check_served(coll, algo[(size_t)n * sizeof(int) >= SPLIT]);
    }
    free(in);
    free(out);
    free(ref);
}

/* alltoallv of n ints to every rank: the first range serves whatever n is. */
static void check_alltoallv(int n, const char *first)
{
    mt_case c = {"alltoallv", first, "int", "sum", n, -1, 0};
    mt_begin(&c);
    size_t all = (size_t)n * (size_t)mt_size;
    int *cnt = malloc(sizeof(int) * (size_t)mt_size), *dsp = malloc(sizeof(int) * (size_t)mt_size);
    int *in = malloc(sizeof(int) * all), *out = calloc(all, sizeof(int));
    int *ref = calloc(all, sizeof(int));
    for (int i = 0; cnt && dsp && i < mt_size; i++) {
        cnt[i] = n;
        dsp[i] = i * n;
    }
    for (size_t i = 0; in && i < all; i++)
        in[i] = mt_rank * 1000 + (int)i;
    int rc = MPI_Alltoallv(in, cnt, dsp, MPI_INT, ref, cnt, dsp, MPI_INT, MPI_COMM_WORLD);
    rc = rc ? rc : vine_alltoallv(in, cnt, dsp, MPI_INT, out, cnt, dsp, MPI_INT, MPI_COMM_WORLD);
    if (mt_check_rc(rc, "alltoallv")) {
        mt_check_equal(mt_type_int(), out, ref, all, "result");
        check_served(VINE_COLL_ALLTOALLV, first);
    }
    free(cnt);
    free(dsp);
    free(in);
    free(out);
    free(ref);
}

/* The allgatherv cases: equal blocks in both ranges, then a big block on rank 0. */
static void check_allgatherv_all(const char *const algo[2])
{
    int *cnt = malloc(sizeof(int) * (size_t)mt_size);
    if (!cnt) {
        mt_fail("out of memory");
        return;
    }
    const int small[][2] = {{16, 16}, {512, 512}, {500, 25}, {2000, 25}, {0, 300}};
    const char *labels[] = {"equal 64B", "equal 2KiB", "rank 0 2000B, others 100B",
                            "rank 0 8000B, others 100B", "rank 0 0B, others 1200B"};
    for (int k = 0; k < 5; k++) {
        for (int i = 0; i < mt_size; i++)
            cnt[i] = i == 0 ? small[k][0] : small[k][1];
        check_allgatherv(cnt, algo, labels[k]);
    }
    free(cnt);
}

static void check_file(int swap)
{
    char path[256];
    make_file(path, sizeof path, swap);
    if (!path[0])
        return;
    if (vine_set_tuning_file(path) != MPI_SUCCESS) {
        char msg[512];
        vine_tuning_info(NULL, msg, sizeof msg);
        mt_fail("the tuning file was refused: %s", msg);
    }
    const char *ag[2] = {rules[0].algo[swap], rules[0].algo[!swap]};
    const char *sc[2] = {rules[1].algo[swap], rules[1].algo[!swap]};
    const char *ex[2] = {rules[2].algo[swap], rules[2].algo[!swap]};
    check_allgatherv_all(ag);
    check_scan(VINE_COLL_SCAN, 4, sc);
    check_scan(VINE_COLL_SCAN, 1024, sc);
    check_scan(VINE_COLL_EXSCAN, 4, ex);
    check_scan(VINE_COLL_EXSCAN, 1024, ex);
    check_alltoallv(4, rules[3].algo[swap]);
    check_alltoallv(1024, rules[3].algo[swap]);
    vine_set_tuning_file(NULL);
    MPI_Barrier(MPI_COMM_WORLD);
    if (mt_rank == 0)
        unlink(path);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "tune_v");
    check_file(0);
    check_file(1);
    return mt_finish();
}
