/*
 * Issue 21's driver: times collectives on a simulated platform under
 * SimGrid's smpirun (experiments/scale/run.sh and study.sh start it).
 *
 *   scale_exp --coll C --algos A,B,... --sizes S1,S2,... [--iters N]
 *             [--coll C2 --algos ... --sizes ... ...]
 *
 * C is bcast, reduce, allreduce, allgather, reduce_scatter_block or
 * alltoall; an algorithm is a vine algorithm name, `auto` (vine's choice)
 * or `smpi` (the MPI call itself, which runs the algorithm of SMPI's
 * selector, --cfg=smpi/coll-selector).  A size is the collective's count
 * argument in bytes of MPI_INT (the vector of bcast, reduce and allreduce,
 * one rank's block of the others), rounded down to whole ints.  Each
 * --coll starts a job; the --algos and --sizes after it are its own, so one
 * smpirun can time several collectives (SMPI's set-up of a 1,024-rank job
 * takes minutes of the machine's time, the calls seconds each).  Per job,
 * size and algorithm: one untimed call, then --iters calls (default 1),
 * each after a barrier; the time of a call is the largest over the ranks,
 * and the median of the calls is printed.  Computation is not simulated
 * and large buffers are folded (run.sh's options), so data is not checked:
 * vine verify and the MPI tests establish correctness.
 *
 * Output (rank 0, stdout), one CSV line per measurement:
 *   collective,algorithm,bytes,ranks,time_us,ran
 * where `ran` is the algorithm vine ran (vine_last_algorithm), or smpi.
 * Exits 0 when every call succeeded and ran the algorithm asked for.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vine.h>

#define MAX_ITEMS 64

static int split(char *list, char **items)
{
    int n = 0;
    for (char *save = NULL, *t = strtok_r(list, ",", &save); t && n < MAX_ITEMS;
         t = strtok_r(NULL, ",", &save))
        items[n++] = t;
    return n;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* One call of coll on count ints per block; smpi: the MPI library's. */
static int call(vine_coll coll, int smpi, int *s, int *r, int count, MPI_Comm comm)
{
    switch (coll) {
    case VINE_COLL_BCAST:
        return smpi ? MPI_Bcast(s, count, MPI_INT, 0, comm)
                    : vine_bcast(s, count, MPI_INT, 0, comm);
    case VINE_COLL_REDUCE:
        return smpi ? MPI_Reduce(s, r, count, MPI_INT, MPI_SUM, 0, comm)
                    : vine_reduce(s, r, count, MPI_INT, MPI_SUM, 0, comm);
    case VINE_COLL_ALLREDUCE:
        return smpi ? MPI_Allreduce(s, r, count, MPI_INT, MPI_SUM, comm)
                    : vine_allreduce(s, r, count, MPI_INT, MPI_SUM, comm);
    case VINE_COLL_ALLGATHER:
        return smpi ? MPI_Allgather(s, count, MPI_INT, r, count, MPI_INT, comm)
                    : vine_allgather(s, count, MPI_INT, r, count, MPI_INT, comm);
    case VINE_COLL_REDUCE_SCATTER_BLOCK:
        return smpi ? MPI_Reduce_scatter_block(s, r, count, MPI_INT, MPI_SUM, comm)
                    : vine_reduce_scatter_block(s, r, count, MPI_INT, MPI_SUM, comm);
    case VINE_COLL_ALLTOALL:
        return smpi ? MPI_Alltoall(s, count, MPI_INT, r, count, MPI_INT, comm)
                    : vine_alltoall(s, count, MPI_INT, r, count, MPI_INT, comm);
    default:
        return MPI_ERR_ARG;
    }
}

#define MAX_JOBS 16

typedef struct job {
    char *coll, *algos, *sizes;
} job;

/* Runs one job (MAX_ITEMS algorithms and sizes at most); returns 1 on a failure. */
static int run_job(const job *jb, int iters, double *t, int p, int me)
{
    static const struct {
        const char *name;
        vine_coll coll;
        int blocks; /* buffers hold p blocks */
    } colls[] = {{"bcast", VINE_COLL_BCAST, 0},
                 {"reduce", VINE_COLL_REDUCE, 0},
                 {"allreduce", VINE_COLL_ALLREDUCE, 0},
                 {"allgather", VINE_COLL_ALLGATHER, 1},
                 {"reduce_scatter_block", VINE_COLL_REDUCE_SCATTER_BLOCK, 1},
                 {"alltoall", VINE_COLL_ALLTOALL, 1}};
    int ci = -1, fail = 0;
    for (int i = 0; i < (int)(sizeof colls / sizeof colls[0]); i++)
        if (strcmp(jb->coll, colls[i].name) == 0)
            ci = i;
    if (ci < 0 || !jb->algos || !jb->sizes) {
        if (me == 0)
            fprintf(stderr, "scale_exp: --coll %s: unknown, or no --algos and --sizes\n", jb->coll);
        return 1;
    }
    vine_coll coll = colls[ci].coll;
    char *algo[MAX_ITEMS], *size[MAX_ITEMS];
    int na = split(jb->algos, algo), ns = split(jb->sizes, size);
    for (int si = 0; si < ns; si++) {
        long bytes = atol(size[si]);
        int count = (int)(bytes / (long)sizeof(int));
        size_t elems = (size_t)count * (colls[ci].blocks ? (size_t)p : 1) + 1;
        int *s = calloc(elems, sizeof(int)), *r = calloc(elems, sizeof(int));
        for (int ai = 0; ai < na && s && r; ai++) {
            int smpi = strcmp(algo[ai], "smpi") == 0;
            if (!smpi && vine_set_algorithm(coll, algo[ai]) != 0) {
                if (me == 0)
                    fprintf(stderr, "scale_exp: no algorithm %s for %s\n", algo[ai], jb->coll);
                fail = 1;
                continue;
            }
            int rc = call(coll, smpi, s, r, count, MPI_COMM_WORLD);
            const char *ran = smpi ? "smpi" : vine_last_algorithm(coll);
            for (int k = 0; k < iters && rc == MPI_SUCCESS; k++) {
                MPI_Barrier(MPI_COMM_WORLD);
                double t0 = MPI_Wtime();
                rc = call(coll, smpi, s, r, count, MPI_COMM_WORLD);
                double mine = MPI_Wtime() - t0;
                MPI_Reduce(&mine, &t[k], 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
            }
            int auto_ok = strcmp(algo[ai], "auto") == 0;
            if (rc != MPI_SUCCESS || (!smpi && !auto_ok && (!ran || strcmp(ran, algo[ai]) != 0)))
                fail = 1;
            if (me == 0 && rc == MPI_SUCCESS) {
                qsort(t, (size_t)iters, sizeof *t, cmp_double);
                printf("%s,%s,%ld,%d,%.3f,%s\n", jb->coll, algo[ai], (long)count * 4, p,
                       t[iters / 2] * 1e6, ran ? ran : "?");
                fflush(stdout);
            }
        }
        if (!s || !r)
            fail = 1;
        free(s);
        free(r);
    }
    vine_set_algorithm(coll, NULL);
    return fail;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int p, me, iters = 1, fail = 0, njobs = 0, bad = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    job jobs[MAX_JOBS];
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--coll") == 0) {
            if (njobs == MAX_JOBS)
                bad = 1;
            else
                jobs[njobs++] = (job){argv[i + 1], NULL, NULL};
        } else if (strcmp(argv[i], "--algos") == 0 && njobs > 0)
            jobs[njobs - 1].algos = argv[i + 1];
        else if (strcmp(argv[i], "--sizes") == 0 && njobs > 0)
            jobs[njobs - 1].sizes = argv[i + 1];
        else if (strcmp(argv[i], "--iters") == 0)
            iters = atoi(argv[i + 1]);
        else
            bad = 1;
    }
    double *t = iters >= 1 ? malloc(sizeof(double) * (size_t)iters) : NULL;
    if (bad || njobs == 0 || !t) {
        if (me == 0)
            fprintf(stderr, "usage: scale_exp --coll C --algos A,... --sizes S,... "
                            "[--coll C2 --algos ... --sizes ...] [--iters N]\n");
        free(t);
        MPI_Finalize();
        return 2;
    }
    for (int j = 0; j < njobs; j++)
        fail |= run_job(&jobs[j], iters, t, p, me);
    free(t);
    MPI_Finalize();
    return fail;
}
