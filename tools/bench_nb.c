/*
 * vine-bench coll --nonblocking and --persistent: the calls, the compute
 * loop, its calibration and the timings (bench_nb.h, docs/bench.md).
 */
#include "bench_nb.h"
#include "bench_v.h"

#include <math.h>
#include <stdlib.h>

/* Is this rank 0 of MPI_COMM_WORLD, which keeps the statistics? */
static int rank0(void)
{
    int r;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r == 0;
}

/* ---- The calls ------------------------------------------------------------ */

static int start_vine(const bcase *b, MPI_Request *q)
{
    MPI_Comm w = MPI_COMM_WORLD;
    const void *s = bench_send_arg(b);
    switch (b->coll) {
    case VINE_COLL_BCAST:
        return vine_ibcast(b->recv, b->count, b->dt, b->root, w, q);
    case VINE_COLL_REDUCE:
        return vine_ireduce(s, b->recv, b->count, b->dt, b->op, b->root, w, q);
    case VINE_COLL_ALLREDUCE:
        return vine_iallreduce(s, b->recv, b->count, b->dt, b->op, w, q);
    case VINE_COLL_ALLGATHER:
        return vine_iallgather(s, b->count, b->dt, b->recv, b->count, b->dt, w, q);
    case VINE_COLL_REDUCE_SCATTER_BLOCK:
        return vine_ireduce_scatter_block(s, b->recv, b->count, b->dt, b->op, w, q);
    case VINE_COLL_ALLTOALL:
        return vine_ialltoall(s, b->count, b->dt, b->recv, b->count, b->dt, w, q);
    case VINE_COLL_GATHER:
        return vine_igather(s, b->count, b->dt, b->recv, b->count, b->dt, b->root, w, q);
    case VINE_COLL_SCATTER:
        return vine_iscatter(s, b->count, b->dt, bench_recv_arg(b), b->count, b->dt, b->root, w, q);
    case VINE_COLL_BARRIER:
        return vine_ibarrier(w, q);
    default:
        return vine_ireduce_scatter(s, b->recv, b->counts, b->dt, b->op, w, q);
    }
}

static int start_mpi(const bcase *b, MPI_Request *q)
{
    MPI_Comm w = MPI_COMM_WORLD;
    const void *s = bench_send_arg(b);
    switch (b->coll) {
    case VINE_COLL_BCAST:
        return MPI_Ibcast(b->recv, b->count, b->dt, b->root, w, q);
    case VINE_COLL_REDUCE:
        return MPI_Ireduce(s, b->recv, b->count, b->dt, b->op, b->root, w, q);
    case VINE_COLL_ALLREDUCE:
        return MPI_Iallreduce(s, b->recv, b->count, b->dt, b->op, w, q);
    case VINE_COLL_ALLGATHER:
        return MPI_Iallgather(s, b->count, b->dt, b->recv, b->count, b->dt, w, q);
    case VINE_COLL_REDUCE_SCATTER_BLOCK:
        return MPI_Ireduce_scatter_block(s, b->recv, b->count, b->dt, b->op, w, q);
    case VINE_COLL_ALLTOALL:
        return MPI_Ialltoall(s, b->count, b->dt, b->recv, b->count, b->dt, w, q);
    case VINE_COLL_GATHER:
        return MPI_Igather(s, b->count, b->dt, b->recv, b->count, b->dt, b->root, w, q);
    case VINE_COLL_SCATTER:
        return MPI_Iscatter(s, b->count, b->dt, bench_recv_arg(b), b->count, b->dt, b->root, w, q);
    case VINE_COLL_BARRIER:
        return MPI_Ibarrier(w, q);
    default:
        return MPI_Ireduce_scatter(s, b->recv, b->counts, b->dt, b->op, w, q);
    }
}

int bench_nb_start(const bcase *b, int mpi, MPI_Request *req)
{
    if (bench_v_new(b->coll))
        return bench_v_start(b, mpi, req);
    return mpi ? start_mpi(b, req) : start_vine(b, req);
}

int bench_nb_wait(int mpi, MPI_Request *req)
{
    return mpi ? MPI_Wait(req, MPI_STATUS_IGNORE) : vine_wait(req, MPI_STATUS_IGNORE);
}

static int init_vine(const bcase *b, MPI_Request *q)
{
    MPI_Comm w = MPI_COMM_WORLD;
    MPI_Info n = MPI_INFO_NULL;
    const void *s = bench_send_arg(b);
    switch (b->coll) {
    case VINE_COLL_BCAST:
        return vine_bcast_init(b->recv, b->count, b->dt, b->root, w, n, q);
    case VINE_COLL_REDUCE:
        return vine_reduce_init(s, b->recv, b->count, b->dt, b->op, b->root, w, n, q);
    case VINE_COLL_ALLREDUCE:
        return vine_allreduce_init(s, b->recv, b->count, b->dt, b->op, w, n, q);
    case VINE_COLL_ALLGATHER:
        return vine_allgather_init(s, b->count, b->dt, b->recv, b->count, b->dt, w, n, q);
    case VINE_COLL_REDUCE_SCATTER_BLOCK:
        return vine_reduce_scatter_block_init(s, b->recv, b->count, b->dt, b->op, w, n, q);
    case VINE_COLL_ALLTOALL:
        return vine_alltoall_init(s, b->count, b->dt, b->recv, b->count, b->dt, w, n, q);
    case VINE_COLL_GATHER:
        return vine_gather_init(s, b->count, b->dt, b->recv, b->count, b->dt, b->root, w, n, q);
    case VINE_COLL_SCATTER:
        return vine_scatter_init(s, b->count, b->dt, bench_recv_arg(b), b->count, b->dt, b->root, w,
                                 n, q);
    case VINE_COLL_BARRIER:
        return vine_barrier_init(w, n, q);
    default:
        return vine_reduce_scatter_init(s, b->recv, b->counts, b->dt, b->op, w, n, q);
    }
}

#if MPI_VERSION >= 4
static int init_mpi(const bcase *b, MPI_Request *q)
{
    MPI_Comm w = MPI_COMM_WORLD;
    MPI_Info n = MPI_INFO_NULL;
    const void *s = bench_send_arg(b);
    switch (b->coll) {
    case VINE_COLL_BCAST:
        return MPI_Bcast_init(b->recv, b->count, b->dt, b->root, w, n, q);
    case VINE_COLL_REDUCE:
        return MPI_Reduce_init(s, b->recv, b->count, b->dt, b->op, b->root, w, n, q);
    case VINE_COLL_ALLREDUCE:
        return MPI_Allreduce_init(s, b->recv, b->count, b->dt, b->op, w, n, q);
    case VINE_COLL_ALLGATHER:
        return MPI_Allgather_init(s, b->count, b->dt, b->recv, b->count, b->dt, w, n, q);
    case VINE_COLL_REDUCE_SCATTER_BLOCK:
        return MPI_Reduce_scatter_block_init(s, b->recv, b->count, b->dt, b->op, w, n, q);
    case VINE_COLL_ALLTOALL:
        return MPI_Alltoall_init(s, b->count, b->dt, b->recv, b->count, b->dt, w, n, q);
    case VINE_COLL_GATHER:
        return MPI_Gather_init(s, b->count, b->dt, b->recv, b->count, b->dt, b->root, w, n, q);
    case VINE_COLL_SCATTER:
        return MPI_Scatter_init(s, b->count, b->dt, bench_recv_arg(b), b->count, b->dt, b->root, w,
                                n, q);
    case VINE_COLL_BARRIER:
        return MPI_Barrier_init(w, n, q);
    default:
        return MPI_Reduce_scatter_init(s, b->recv, b->counts, b->dt, b->op, w, n, q);
    }
}
#endif

int bench_nb_mpi_persistent(vine_coll coll)
{
#ifdef MPICH_NUMVERSION
    /* MPICH's MPI_Scatter_init (its binomial schedule) fails in the wait of
     * a second start on 3 ranks or more (MPICH 4.0.2: "Invalid communicator";
     * pmodels/mpich pull request 7550), and other ranks then hang. */
    if (coll == VINE_COLL_SCATTER)
        return 0;
#endif
    (void)coll;
    return MPI_VERSION >= 4;
}

int bench_nb_init(const bcase *b, int mpi, MPI_Request *req)
{
    *req = MPI_REQUEST_NULL;
    if (bench_v_new(b->coll) && (!mpi || bench_nb_mpi_persistent(b->coll)))
        return bench_v_init(b, mpi, req);
    if (!mpi)
        return init_vine(b, req);
#if MPI_VERSION >= 4
    if (bench_nb_mpi_persistent(b->coll))
        return init_mpi(b, req);
#endif
    return MPI_ERR_OTHER;
}

int bench_nb_start_wait(int mpi, MPI_Request *req)
{
    int rc = mpi ? MPI_Start(req) : vine_start(req);
    return rc == MPI_SUCCESS ? bench_nb_wait(mpi, req) : rc;
}

void bench_nb_free(int mpi, MPI_Request *req)
{
    if (*req != MPI_REQUEST_NULL) {
        if (mpi)
            MPI_Request_free(req);
        else
            vine_request_free(req);
    }
    *req = MPI_REQUEST_NULL;
}

/* ---- The compute loop ----------------------------------------------------- */

/*
 * A few cache lines of doubles, each pass updating every element: global,
 * and its first element stored to a volatile at the end, so that the
 * compiler must do every pass.  x * (1 - 1e-6) + 1e-6 tends to 1: no
 * overflow, no subnormals.
 */
#define NB_WORK 32
static double nb_work[NB_WORK];
static volatile double nb_sink;

void bench_nb_compute(long iters)
{
    for (long k = 0; k < iters; k++)
        for (int i = 0; i < NB_WORK; i++)
            nb_work[i] = nb_work[i] * 0.999999 + 1e-6;
    nb_sink = nb_work[0];
}

int bench_nb_compute_progress(long iters, long chunk, int mpi, MPI_Request *req)
{
    int rc = MPI_SUCCESS;
    if (chunk <= 0) {
        bench_nb_compute(iters);
        return rc;
    }
    for (long done = 0; done < iters && rc == MPI_SUCCESS;) {
        long n = iters - done < chunk ? iters - done : chunk;
        bench_nb_compute(n);
        done += n;
        if (done == iters)
            break;
        if (!mpi) {
            rc = vine_progress();
        } else if (*req != MPI_REQUEST_NULL) {
            int flag;
            rc = MPI_Test(req, &flag, MPI_STATUS_IGNORE);
        }
    }
    return rc;
}

int bench_nb_run_progressed(const bcase *b, int mpi)
{
    MPI_Request req = MPI_REQUEST_NULL;
    int rc = bench_nb_start(b, mpi, &req);
    if (rc != MPI_SUCCESS)
        return rc;
    /* Many progress calls with a little computation between them. */
    rc = bench_nb_compute_progress(400, 4, mpi, &req);
    int wrc = bench_nb_wait(mpi, &req);
    return rc != MPI_SUCCESS ? rc : wrc;
}

double bench_nb_overlap(double pure, double comp, double ovl)
{
    if (!(pure > 0) || !isfinite(comp) || !isfinite(ovl))
        return NAN;
    double f = (pure + comp - ovl) / pure;
    return f < 0 ? 0 : f > 1 ? 1 : f;
}

/* Microseconds of bench_nb_compute(n), the best of 3. */
static double compute_us(long n)
{
    double best = INFINITY;
    for (int k = 0; k < 3; k++) {
        double t0 = MPI_Wtime();
        bench_nb_compute(n);
        double t = (MPI_Wtime() - t0) * 1e6;
        best = t < best ? t : best;
    }
    return best;
}

/*
 * Collective: rank 0 measures the loop's speed on at least 100 microseconds
 * of it and sets it[0] to the iterations that last target_us and it[1] to
 * those that last interval_us (each at least 1), which every rank receives.
 */
static void calibrate(double target_us, double interval_us, long it[2])
{
    long long v[2] = {1, 1};
    if (rank0()) {
        long n = 64;
        double t = compute_us(n);
        while (t < 100 && n < (1L << 40)) {
            n *= 4;
            t = compute_us(n);
        }
        double rate = t > 0 ? (double)n / t : 1; /* iterations per microsecond */
        v[0] = isfinite(target_us) ? llround(rate * target_us) : 1;
        v[1] = llround(rate * interval_us);
        v[0] = v[0] < 1 ? 1 : v[0];
        v[1] = v[1] < 1 ? 1 : v[1];
    }
    MPI_Bcast(v, 2, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    it[0] = (long)v[0];
    it[1] = (long)v[1];
}

/* ---- The timings ---------------------------------------------------------- */

/* Per-iteration times of up to 6 series, each iteration's maximum over ranks on rank 0. */
#define NSERIES 6
typedef struct series {
    int n, warm, drop;
    double *t[NSERIES], *tmax[NSERIES];
} series;

static int series_init(series *s, const bench_nb_timing *t)
{
    s->warm = t->warmup > 0 ? t->warmup : 0;
    s->n = t->iters;
    s->drop = t->warmup >= 0 ? 0 : vine__bench_warmup_drop(t->iters);
    int bad = 0;
    for (int i = 0; i < NSERIES; i++) {
        s->t[i] = malloc(sizeof(double) * (size_t)s->n);
        s->tmax[i] = malloc(sizeof(double) * (size_t)s->n);
        bad |= !s->t[i] || !s->tmax[i];
    }
    return bad ? MPI_ERR_NO_MEM : MPI_SUCCESS;
}

static void series_free(series *s)
{
    for (int i = 0; i < NSERIES; i++) {
        free(s->t[i]);
        free(s->tmax[i]);
    }
}

/* Collective: the statistics of series i on rank 0 (st may be NULL: the median in *median). */
static int series_stats(series *s, int i, vine_bench_stats *st, double *median)
{
    vine_bench_stats tmp;
    MPI_Reduce(s->t[i], s->tmax[i], s->n, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (!rank0())
        return MPI_SUCCESS;
    if (vine__bench_stats(s->tmax[i], s->n, s->drop, st ? st : &tmp) != 0)
        return MPI_ERR_NO_MEM;
    if (median)
        *median = (st ? st : &tmp)->median;
    return MPI_SUCCESS;
}

/* Records sample k of series i, in microseconds since t0, unless k is a warm-up iteration. */
static void record(series *s, int i, int k, double t0)
{
    if (k >= s->warm)
        s->t[i][k - s->warm] = (MPI_Wtime() - t0) * 1e6;
}

/* start + wait alone: series 0. */
static int time_pure(const bcase *b, int mpi, series *s)
{
    int rc = MPI_SUCCESS;
    for (int k = 0; k < s->warm + s->n && rc == MPI_SUCCESS; k++) {
        MPI_Request req = MPI_REQUEST_NULL;
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        rc = bench_nb_start(b, mpi, &req);
        if (rc == MPI_SUCCESS)
            rc = bench_nb_wait(mpi, &req);
        record(s, 0, k, t0);
    }
    return rc;
}

/*
 * start + the compute loop (progress calls every chunk iterations, none when
 * chunk is 0) + wait; part, when not NULL, gets the microseconds of the start
 * and of the wait alone.
 */
static int overlapped(const bcase *b, int mpi, long iters, long chunk, double part[2])
{
    MPI_Request req = MPI_REQUEST_NULL;
    double t0 = part ? MPI_Wtime() : 0;
    int rc = bench_nb_start(b, mpi, &req);
    if (part)
        part[0] = (MPI_Wtime() - t0) * 1e6;
    if (rc != MPI_SUCCESS)
        return rc;
    rc = bench_nb_compute_progress(iters, chunk, mpi, &req);
    t0 = part ? MPI_Wtime() : 0;
    int wrc = bench_nb_wait(mpi, &req);
    if (part)
        part[1] = (MPI_Wtime() - t0) * 1e6;
    return rc != MPI_SUCCESS ? rc : wrc;
}

/*
 * In alternation: the compute loop alone (series 1), with progress calls (2),
 * without (3), and of that last run the start alone (4) and the wait alone (5).
 */
static int time_overlap(const bcase *b, int mpi, long iters, long chunk, series *s)
{
    int rc = MPI_SUCCESS;
    for (int k = 0; k < s->warm + s->n && rc == MPI_SUCCESS; k++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        bench_nb_compute(iters);
        record(s, 1, k, t0);
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        rc = overlapped(b, mpi, iters, chunk, NULL);
        record(s, 2, k, t0);
        if (rc != MPI_SUCCESS)
            break;
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        double part[2] = {0, 0};
        rc = overlapped(b, mpi, iters, 0, part);
        record(s, 3, k, t0);
        if (k >= s->warm) {
            s->t[4][k - s->warm] = part[0];
            s->t[5][k - s->warm] = part[1];
        }
    }
    return rc;
}

int bench_nb_time(const bcase *b, int mpi, const bench_nb_timing *t, bench_nb_result *out)
{
    series s;
    int rc = series_init(&s, t);
    if (rc == MPI_SUCCESS)
        rc = time_pure(b, mpi, &s);
    if (rc == MPI_SUCCESS)
        rc = series_stats(&s, 0, &out->st, NULL);
    long it[2];
    if (rc == MPI_SUCCESS) {
        calibrate(rank0() ? out->st.median : NAN, t->interval_us, it);
        out->comp_iters = it[0];
        out->chunk = it[1];
        rc = time_overlap(b, mpi, it[0], it[1], &s);
    }
    if (rc == MPI_SUCCESS)
        rc = series_stats(&s, 1, NULL, &out->comp);
    if (rc == MPI_SUCCESS)
        rc = series_stats(&s, 2, NULL, &out->ovl);
    if (rc == MPI_SUCCESS)
        rc = series_stats(&s, 3, NULL, &out->ovl_np);
    if (rc == MPI_SUCCESS)
        rc = series_stats(&s, 4, NULL, &out->np_start);
    if (rc == MPI_SUCCESS)
        rc = series_stats(&s, 5, NULL, &out->np_wait);
    series_free(&s);
    return rc;
}

int bench_nb_time_persistent(const bcase *b, int mpi, MPI_Request *preq, const bench_nb_timing *t,
                             bench_nb_result *out)
{
    series s;
    int rc = series_init(&s, t), pers = *preq != MPI_REQUEST_NULL;
    for (int k = 0; k < s.warm + s.n && rc == MPI_SUCCESS; k++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        rc = bench_run_blocking(b, mpi);
        record(&s, 0, k, t0);
        if (rc != MPI_SUCCESS || !pers)
            continue;
        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        rc = bench_nb_start_wait(mpi, preq);
        record(&s, 1, k, t0);
    }
    out->persistent = pers;
    if (rc == MPI_SUCCESS && pers)
        rc = series_stats(&s, 1, &out->st, NULL);
    if (rc == MPI_SUCCESS)
        rc = series_stats(&s, 0, pers ? NULL : &out->st, &out->blocking);
    series_free(&s);
    return rc;
}
