/*
 * MPI tier: the executor as a state machine (src/sched/exec.h,
 * vine__exec_start / vine__exec_progress; the groundwork of issue 19's
 * nonblocking collectives).  Cached schedules of several algorithms run
 * without blocking: each rank calls progress with block = 0 until it says
 * done, counting the calls, by the plan and op by op (no plan), and the
 * result is checked against the MPI library's collective.  Then the same
 * schedule blocking (vine__exec_run), and progress with block = 1 after a
 * few non-blocking steps.
 */
#include "mpitest.h"

#include "coll/coll.h"
#include "sched/exec.h"

#include <stdlib.h>
#include <string.h>

enum { COUNT = 3000, MODES = 4 };

static const char *mode_name[MODES] = {"plan, nonblocking", "no plan, nonblocking",
                                       "plan, blocking run", "plan, mixed"};

/* Runs s on comm in mode k; *steps counts the nonblocking progress calls. */
static int run(const vine_sched *s, vine_exec_plan *plan, int k, const void *in, void *out,
               MPI_Op op, MPI_Comm comm, long *steps)
{
    vine_exec_type t;
    vine_exec_scratch scr = {0};
    int rc = vine__exec_type_init(&t, MPI_INT), done = 0;
    vine_exec_call c = {s,  k == 1 ? NULL : plan, vine__exec_max_requests(s), in, out, &t, op, 1,
                        comm, NULL, VINE_EXEC_TAG};
    vine_exec_state x;
    *steps = 0;
    if (rc == MPI_SUCCESS && k == 2) {
        rc = vine__exec_run(&c, &scr);
    } else if (rc == MPI_SUCCESS && (rc = vine__exec_start(&x, &c, &scr)) == MPI_SUCCESS) {
        while (rc == MPI_SUCCESS && !done) {
            int block = k == 3 && *steps >= 2;
            rc = vine__exec_progress(&x, block, &done);
            ++*steps;
        }
    }
    vine__exec_scratch_free(&scr);
    return rc;
}

static void check_case(vine_coll coll, const char *algo, size_t seg, MPI_Comm comm)
{
    int p = mt_size, r = mt_rank;
    const vine_algo *a = vine__algo_find(coll, algo);
    size_t total = coll == VINE_COLL_ALLREDUCE || coll == VINE_COLL_BCAST ? COUNT
                                                                          : (size_t)COUNT * p;
    size_t *counts = malloc((size_t)p * sizeof *counts);
    size_t *displs = malloc(((size_t)p + 1) * sizeof *displs);
    int *in = malloc(total * sizeof *in), *out = malloc(total * sizeof *out);
    int *want = malloc(total * sizeof *want);
    for (int i = 0; i <= p; i++) {
        displs[i] = (size_t)i * COUNT;
        if (i < p)
            counts[i] = COUNT;
    }
    vine_args args = {.coll = coll,
                      .p = p,
                      .rank = r,
                      .count = COUNT,
                      .commutative = 1,
                      .seg_count = seg,
                      .counts = coll == VINE_COLL_REDUCE_SCATTER_BLOCK ? counts : NULL,
                      .displs = coll == VINE_COLL_REDUCE_SCATTER_BLOCK ? displs : NULL};
    vine_sched s;
    vine_exec_plan plan;
    mt_case cs = {vine_coll_name(coll), algo, "int", coll == VINE_COLL_BCAST ? "-" : "sum",
                  COUNT, coll == VINE_COLL_BCAST ? 0 : -1, 0};
    mt_begin(&cs);
    if (!a || !counts || !displs || !in || !out || !want) {
        mt_fail("no algorithm %s or no memory", algo);
        goto out;
    }
    if (vine__algo_build(a, &args, &s) != VINE_OK) {
        mt_fail("the builder failed");
        goto out;
    }
    if (vine__exec_plan_build(&s, &plan) != MPI_SUCCESS) {
        mt_fail("no plan");
        vine__sched_free(&s);
        goto out;
    }
    for (int k = 0; k < MODES; k++) {
        for (size_t i = 0; i < total; i++)
            in[i] = (int)(i % 1000) * 3 + r * 7 + k;
        memset(out, 0xff, total * sizeof *out);
        size_t n = total;
        switch (coll) {
        case VINE_COLL_ALLREDUCE:
            MPI_Allreduce(in, want, COUNT, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
            break;
        case VINE_COLL_REDUCE_SCATTER_BLOCK:
            MPI_Reduce_scatter_block(in, want, COUNT, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
            n = COUNT;
            break;
        case VINE_COLL_ALLTOALL:
            MPI_Alltoall(in, COUNT, MPI_INT, want, COUNT, MPI_INT, MPI_COMM_WORLD);
            break;
        default: /* bcast from rank 0, in place in out */
            memcpy(want, in, total * sizeof *in);
            MPI_Bcast(want, COUNT, MPI_INT, 0, MPI_COMM_WORLD);
            if (r == 0)
                memcpy(out, in, total * sizeof *in);
            break;
        }
        long steps;
        /* The byte schedules (bcast, alltoall) run on ints here: their counts are elements. */
        int rc = run(&s, &plan, k, coll == VINE_COLL_BCAST ? NULL : in, out, MPI_SUM, comm,
                     &steps);
        if (!mt_check_rc(rc, mode_name[k]))
            break;
        for (size_t i = 0; i < n; i++)
            if (out[i] != want[i]) {
                mt_fail("%s: element %zu is %d, expected %d", mode_name[k], i, out[i], want[i]);
                break;
            }
    }
    vine__exec_plan_free(&plan);
    vine__sched_free(&s);
out:
    free(counts);
    free(displs);
    free(in);
    free(out);
    free(want);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "exec_nb");
    MPI_Comm comm;
    MPI_Comm_split(MPI_COMM_WORLD, 0, mt_rank, &comm);
    check_case(VINE_COLL_ALLREDUCE, "recursive_doubling", 0, comm);
    check_case(VINE_COLL_ALLREDUCE, "ring", 0, comm);
    check_case(VINE_COLL_ALLREDUCE, "bine_large", 256, comm); /* pipelined: deferred rounds */
    check_case(VINE_COLL_REDUCE_SCATTER_BLOCK, "recursive_halving", 0, comm);
    check_case(VINE_COLL_ALLTOALL, "bruck", 0, comm);
    check_case(VINE_COLL_BCAST, "binomial", 0, comm);
    MPI_Comm_free(&comm);
    return mt_finish();
}
