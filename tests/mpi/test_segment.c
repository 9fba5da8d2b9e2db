/*
 * MPI tier: the pipelined allreduce bine_large.  vine_set_segment_size (or
 * VINE_SEGMENT_SIZE, when the test runs with it set) cuts the butterfly into
 * segments; every result is compared with MPI_Allreduce and must be the same
 * bits on every rank.  The executor's deferral of a round's reductions past
 * the next round's posting (exec.h) is checked on hand-made schedules: it
 * must happen where nothing conflicts and never where something does.  With
 * VINE_TEST_SEG_BAD set, VINE_SEGMENT_SIZE is malformed and every collective
 * must fail with MPI_ERR_ARG until vine_set_segment_size() overrides it.
 */
#include "mpitest.h"
#include "sched/exec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Runs allreduce bine_large on n doubles/ints and compares with MPI_Allreduce. */
static void one(const mt_type *t, size_t n, int inplace, const char *seg)
{
    mt_case c = {"allreduce", seg, t->name, "sum", (long)n, -1, inplace};
    mt_begin(&c);
    size_t bytes = n * t->extent;
    unsigned char *in = malloc(bytes + 1), *want = malloc(bytes + 1);
    mt_buf out;
    mt_buf_alloc(&out, bytes);
    mt_fill(t, mt_op_sum(), in, n, mt_rank, 0);
    MPI_Allreduce(in, want, (int)n, t->type, MPI_SUM, MPI_COMM_WORLD);
    if (inplace)
        memcpy(out.data, in, bytes);
    int rc = vine_allreduce(inplace ? MPI_IN_PLACE : in, out.data, (int)n, t->type, MPI_SUM,
                            MPI_COMM_WORLD);
    if (mt_check_rc(rc, "vine_allreduce")) {
        mt_check_equal(t, out.data, want, n, "result");
        mt_check_guards(&out);
        mt_check_same_everywhere(out.data, bytes);
        mt_check_served(VINE_COLL_ALLREDUCE, "bine_large", 1, n);
    }
    mt_buf_free(&out);
    free(in);
    free(want);
}

/* The counts up to 100000 elements, up to 4099 with segments of less than 100 bytes
 * (seg: 1 or 8 bytes make 4099 elements 2050-4099 segments, 100000 up to 100000). */
static void sweep(const char *what, long seg)
{
    static const size_t counts[] = {0, 1, 7, 1000, 4099, 100000};
    for (size_t i = 0; i < sizeof counts / sizeof *counts; i++) {
        if (seg > 0 && seg < 100 && counts[i] > 4099)
            continue;
        for (int inplace = 0; inplace < 2; inplace++) {
            one(mt_type_int(), counts[i], inplace, what);
            for (int k = 0; k < mt_ntypes(); k++)
                if (strcmp(mt_type_at(k)->name, "double") == 0)
                    one(mt_type_at(k), counts[i], inplace, what);
        }
    }
}

/* A two-round schedule: round 0 receives into TMP[0,4) and reduces it into
 * RECV[0,4); round 1 receives into TMP[at, at + 4) and sends RECV[s, s + 4). */
static int defers(size_t at, size_t s)
{
    vine_sched sc;
    vine_exec_plan pl;
    vine__sched_init(&sc, 2, 0);
    vine__sched_recv(&sc, 1, VINE_BUF_TMP, 0, 4);
    vine__sched_reduce(&sc, VINE_BUF_TMP, 0, VINE_BUF_RECV, 0, 4, VINE_SRC_RIGHT);
    vine__sched_fence(&sc);
    vine__sched_recv(&sc, 1, VINE_BUF_TMP, at, 4);
    vine__sched_send(&sc, 1, VINE_BUF_RECV, s, 4);
    vine__sched_finish(&sc);
    int d = -1;
    if (vine__exec_plan_build(&sc, &pl) == MPI_SUCCESS) {
        d = pl.defer[0];
        if (pl.defer[1])
            d = -2; /* the last round has no next round */
        vine__exec_plan_free(&pl);
    }
    vine__sched_free(&sc);
    return d;
}

static void check_deferral(void)
{
    mt_case c = {"allreduce", "deferral", "-", "-", 0, -1, 0};
    mt_begin(&c);
    if (defers(4, 4) != 1)
        mt_fail("disjoint ranges: round 0 not deferred (%d)", defers(4, 4));
    if (defers(2, 4) != 0)
        mt_fail("next receive overwrites the reduction's source: deferred (%d)", defers(2, 4));
    if (defers(4, 3) != 0)
        mt_fail("next send reads the reduction's result: deferred (%d)", defers(4, 3));
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "segment");
    mt_select(VINE_COLL_ALLREDUCE, "bine_large");
    check_deferral();
    if (getenv("VINE_TEST_SEG_BAD")) {
        /* A malformed VINE_SEGMENT_SIZE: every collective fails with
         * MPI_ERR_ARG, before sending anything, until the API overrides it. */
        int x = mt_rank, y = 0;
        if (vine_allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD) != MPI_ERR_ARG ||
            vine_bcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD) != MPI_ERR_ARG ||
            vine_bcast(&x, 0, MPI_INT, 0, MPI_COMM_WORLD) != MPI_ERR_ARG ||
            vine_barrier(MPI_COMM_WORLD) != MPI_ERR_ARG)
            mt_fail("VINE_SEGMENT_SIZE=%s: a collective did not return MPI_ERR_ARG",
                    getenv("VINE_SEGMENT_SIZE"));
        if (vine_get_segment_size() != 0)
            mt_fail("a malformed VINE_SEGMENT_SIZE read as %lld",
                    (long long)vine_get_segment_size());
        if (vine_set_segment_size(1024) != MPI_SUCCESS)
            mt_fail("vine_set_segment_size(1024) failed");
        sweep("bine_large VINE_SEGMENT_SIZE malformed, then 1024 by the API", 1024);
        return mt_finish();
    }
    if (getenv("VINE_SEGMENT_SIZE")) {
        /* The environment's size, as given to ctest. */
        if (vine_get_segment_size() != 1024)
            mt_fail("VINE_SEGMENT_SIZE=1k read as %lld", (long long)vine_get_segment_size());
        sweep("bine_large VINE_SEGMENT_SIZE=1k", 1024);
        return mt_finish();
    }
    if (vine_set_segment_size(-1) != MPI_ERR_ARG)
        mt_fail("a negative segment size was accepted");
    static const long sizes[] = {1, 8, 100, 4096, 65536};
    char what[64];
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        if (vine_set_segment_size(sizes[i]) != MPI_SUCCESS || vine_get_segment_size() != sizes[i])
            mt_fail("vine_set_segment_size(%ld) not kept", sizes[i]);
        snprintf(what, sizeof what, "bine_large seg=%ldB", sizes[i]);
        sweep(what, sizes[i]);
    }
    vine_set_segment_size(0);
    sweep("bine_large unsegmented", 0);
    return mt_finish();
}
