/*
 * A plain MPI program, linked with libvine-mpi, that makes a long random
 * sequence of collective calls and compares each with the MPI library's
 * own: the seventeen collectives vine serves (the ten, the irregular ones
 * and the scans), blocking and nonblocking mixed, up to four nonblocking
 * ones outstanding and completed in a random order while blocking calls run
 * on the same and on other communicators, on MPI_COMM_WORLD, a split in
 * reversed rank order and a dup.  Counts from 0 to 256 Ki ints drawn on a
 * log scale (so auto's choice moves between the shm family, its messages and
 * the point-to-point algorithms from one call to the next), random roots,
 * MPI_IN_PLACE where MPI allows it, MPI_SUM and MPI_MAX on MPI_INT, the
 * data-movement calls one time in four on a derived type (two ints and a
 * hole), irregular counts with zeros and gaps in reversed order.
 *
 * The program's MPI_<Coll> calls are vine's (the link order binds them to
 * libvine-mpi); the reference is the MPI library's PMPI_<Coll> on a private
 * dup of each communicator, run just before the call under test on the same
 * input, never in place (MPICH 4.0.2's MPI_Reduce in place at a root other
 * than 0 crashes).  Every byte of the receive buffer (gaps, holes and the
 * guard after it included; where it is not significant, as off the root of a
 * reduce, it must stay untouched) must equal the reference's but where MPI
 * leaves it undefined, and the send buffer must be untouched.  Every rank draws the same numbers,
 * so the ranks agree on the sequence without a message.
 *
 * usage: pmpi_stress [CALLS [SEED [multiple]]]   (default 300 and 1; multiple:
 *        MPI_Init_thread with MPI_THREAD_MULTIPLE, for the progress thread)
 * Exits non-zero after any wrong result or error; messages start "stress:".
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "colls.h"

enum { MAXOUT = 4, NCOMMS = 3, GUARD = 64, MAX_ELEMS = 1 << 18, HOLE_EXTENT = 3 };

/* Two ints and a hole of one: the derived type of the data-movement calls. */
static MPI_Datatype holes;

static uint64_t state;

static uint64_t draw(void)
{
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

static int below(int n)
{
    return n <= 0 ? 0 : (int)(draw() % (uint64_t)n);
}

/* An outstanding or finished call: its buffers, the reference and what to compare. */
typedef struct job {
    int used, coll, iter, root, inplace, rank, nb;
    int derived; /* a data-movement call on holes, not MPI_INT */
    MPI_Request req;
    int *sb, *rb, *ref; /* send, receive and reference receive buffers */
    size_t slen;        /* the ints of sb, all checked unless inplace */
    size_t len;         /* the ints of rb compared, from the first: all of them unless MPI
                           leaves the rest undefined */
    int *cnt[2], *dsp[2];
    MPI_Datatype *types[2];
} job;

static int bad;

static int rooted(int coll)
{
    return coll == BCAST || coll == REDUCE || coll == GATHER || coll == SCATTER ||
           coll == GATHERV || coll == SCATTERV;
}

static int send_value(size_t i, int rank, int iter)
{
    return (int)((i * 7 + (size_t)rank * 1000 + (size_t)iter) % 1000);
}

static void finish(job *j)
{
    char root[24] = "";
    if (rooted(j->coll))
        snprintf(root, sizeof root, " root %d", j->root);
    for (size_t i = 0; i < j->len; i++)
        if (j->rb[i] != j->ref[i]) {
            if (bad++ < 10)
                fprintf(stderr,
                        "stress: rank %d call %d %s%s%s%s: int %zu of the receive buffer is %d, "
                        "MPI gives %d\n",
                        j->rank, j->iter, j->nb ? "i" : "", coll_name[j->coll], root,
                        j->inplace ? " in place" : "", i, j->rb[i], j->ref[i]);
            break;
        }
    for (size_t i = 0; i < j->slen && !j->inplace; i++)
        if (j->sb[i] != send_value(i, j->rank, j->iter)) {
            if (bad++ < 10)
                fprintf(stderr, "stress: rank %d call %d %s: the send buffer changed at %zu\n",
                        j->rank, j->iter, coll_name[j->coll], i);
            break;
        }
    free(j->sb);
    free(j->rb);
    free(j->ref);
    for (int k = 0; k < 2; k++) {
        free(j->cnt[k]);
        free(j->dsp[k]);
        free(j->types[k]);
    }
    memset(j, 0, sizeof *j);
}

static void complete(job *j)
{
    if (MPI_Wait(&j->req, MPI_STATUS_IGNORE) != MPI_SUCCESS && bad++ < 10)
        fprintf(stderr, "stress: rank %d call %d: MPI_Wait failed\n", j->rank, j->iter);
    finish(j);
}

static int full(const job *jobs)
{
    for (int k = 0; k < MAXOUT; k++)
        if (!jobs[k].used)
            return 0;
    return 1;
}

/* Elements [src, src + n) of the send buffer (of the call's type) into element dst of both
 * receive buffers: an in-place call's input, which the reference receives too. */
static void place(job *j, int dst, int src, int n)
{
    int ext = j->derived ? HOLE_EXTENT : 1;
    memcpy(j->rb + (size_t)dst * ext, j->sb + (size_t)src * ext, (size_t)n * ext * sizeof(int));
    memcpy(j->ref + (size_t)dst * ext, j->sb + (size_t)src * ext, (size_t)n * ext * sizeof(int));
}

/* A count between 0 and MAX_ELEMS on a log scale, 0 one time in eight. */
static int draw_count(void)
{
    int k = below(19);
    if (below(8) == 0)
        return 0;
    return (1 << k) / (1 + below(3)) + below(3);
}

/* Irregular counts: a function of (a, b) and the call's seed, zeros included. */
static int vcount(uint64_t seed, int a, int b, int bound)
{
    uint64_t h = (seed >> ((a * 7 + b * 3) % 40)) ^ (uint64_t)(a * 131 + b * 17);
    int zero = (a + b + (int)(seed & 3)) % 5 == 0;
    return zero ? 0 : (int)(h % (uint64_t)(bound + 1));
}

static int *ints(int p)
{
    int *a = calloc((size_t)p, sizeof *a);
    if (!a) {
        fprintf(stderr, "stress: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return a;
}

/* The displacements of counts c laid out in reversed rank order with a gap of g after each. */
static void reversed(int p, const int *c, int *d, int g)
{
    int off = 0;
    for (int i = p - 1; i >= 0; i--) {
        d[i] = off;
        off += c[i] + g;
    }
}

/*
 * Runs one call of j->coll with n elements on comm (reference on ref); the
 * request in j->req when j->nb.  Returns the MPI error code of the call.
 */
static int issue(job *j, int n, MPI_Op op, MPI_Comm comm, MPI_Comm ref)
{
    int p, r, rc = MPI_SUCCESS, root = j->root, ip = j->inplace, b = 0;
    MPI_Comm_size(comm, &p);
    MPI_Comm_rank(comm, &r);
    int *sb = j->sb, *rb = j->rb, *rf = j->ref;
    /* The data-movement collectives run on holes when j->derived. */
    MPI_Datatype t = j->derived ? holes : MPI_INT;
    int ext = j->derived ? HOLE_EXTENT : 1;
    MPI_Request *q = j->nb ? &j->req : NULL;
    uint64_t seed = draw();
    int bound = n / p;
    switch (j->coll) {
    case BCAST:
        if (r == root)
            place(j, 0, 0, n);
        PMPI_Bcast(rf, n, t, root, ref);
        rc = q ? MPI_Ibcast(rb, n, t, root, comm, q) : MPI_Bcast(rb, n, t, root, comm);
        break;
    case REDUCE:
    case ALLREDUCE:
    case SCAN:
    case EXSCAN: {
        ip = j->inplace = ip && (j->coll != REDUCE || r == root);
        if (j->coll == SCAN || j->coll == EXSCAN)
            n = n < 4096 ? n : 4096;
        if (ip)
            for (int i = 0; i < n; i++)
                rb[i] = sb[i];
        const void *s = ip ? MPI_IN_PLACE : sb;
        if (j->coll == REDUCE) {
            PMPI_Reduce(sb, rf, n, MPI_INT, op, root, ref);
            rc = q ? MPI_Ireduce(s, rb, n, MPI_INT, op, root, comm, q)
                   : MPI_Reduce(s, rb, n, MPI_INT, op, root, comm);
        } else if (j->coll == ALLREDUCE) {
            PMPI_Allreduce(sb, rf, n, MPI_INT, op, ref);
            rc = q ? MPI_Iallreduce(s, rb, n, MPI_INT, op, comm, q)
                   : MPI_Allreduce(s, rb, n, MPI_INT, op, comm);
        } else if (j->coll == SCAN) {
            PMPI_Scan(sb, rf, n, MPI_INT, op, ref);
            rc = q ? MPI_Iscan(s, rb, n, MPI_INT, op, comm, q)
                   : MPI_Scan(s, rb, n, MPI_INT, op, comm);
        } else {
            PMPI_Exscan(sb, rf, n, MPI_INT, op, ref);
            rc = q ? MPI_Iexscan(s, rb, n, MPI_INT, op, comm, q)
                   : MPI_Exscan(s, rb, n, MPI_INT, op, comm);
            if (r == 0)
                j->len = 0; /* rank 0's result is undefined, and MPI may write it */
        }
        break;
    }
    case REDUCE_SCATTER: {
        int *c = j->cnt[0] = ints(p), tot = 0;
        for (int i = 0; i < p; i++)
            tot += c[i] = vcount(seed, i, 0, bound);
        if (ip)
            for (int i = 0; i < tot; i++)
                rb[i] = sb[i];
        PMPI_Reduce_scatter(sb, rf, c, MPI_INT, op, ref);
        rc = q ? MPI_Ireduce_scatter(ip ? MPI_IN_PLACE : sb, rb, c, MPI_INT, op, comm, q)
               : MPI_Reduce_scatter(ip ? MPI_IN_PLACE : sb, rb, c, MPI_INT, op, comm);
        if (ip) /* in place, the input past the result stays, as MPI libraries leave it */
            for (int i = c[r]; i < tot; i++)
                rf[i] = sb[i];
        break;
    }
    case REDUCE_SCATTER_BLOCK:
        b = n / p;
        if (ip)
            for (int i = 0; i < b * p; i++)
                rb[i] = sb[i];
        PMPI_Reduce_scatter_block(sb, rf, b, MPI_INT, op, ref);
        rc = q ? MPI_Ireduce_scatter_block(ip ? MPI_IN_PLACE : sb, rb, b, MPI_INT, op, comm, q)
               : MPI_Reduce_scatter_block(ip ? MPI_IN_PLACE : sb, rb, b, MPI_INT, op, comm);
        if (ip)
            for (int i = b; i < b * p; i++)
                rf[i] = sb[i];
        break;
    case ALLGATHER:
    case ALLTOALL:
        b = n / p;
        if (ip && j->coll == ALLGATHER)
            place(j, r * b, 0, b);
        if (ip && j->coll == ALLTOALL)
            place(j, 0, 0, b * p);
        if (j->coll == ALLGATHER) {
            PMPI_Allgather(sb, b, t, rf, b, t, ref);
            rc = q ? MPI_Iallgather(ip ? MPI_IN_PLACE : sb, b, t, rb, b, t, comm, q)
                   : MPI_Allgather(ip ? MPI_IN_PLACE : sb, b, t, rb, b, t, comm);
        } else {
            PMPI_Alltoall(sb, b, t, rf, b, t, ref);
            rc = q ? MPI_Ialltoall(ip ? MPI_IN_PLACE : sb, b, t, rb, b, t, comm, q)
                   : MPI_Alltoall(ip ? MPI_IN_PLACE : sb, b, t, rb, b, t, comm);
        }
        break;
    case GATHER: {
        b = n / p;
        ip = j->inplace = ip && r == root;
        if (ip)
            place(j, r * b, 0, b);
        PMPI_Gather(sb, b, t, rf, b, t, root, ref);
        const void *s = ip ? MPI_IN_PLACE : sb;
        rc = q ? MPI_Igather(s, b, t, rb, b, t, root, comm, q)
               : MPI_Gather(s, b, t, rb, b, t, root, comm);
        break;
    }
    case SCATTER: {
        b = n / p;
        ip = j->inplace = ip && r == root;
        void *d = ip ? MPI_IN_PLACE : rb;
        PMPI_Scatter(sb, b, t, rf, b, t, root, ref);
        rc = q ? MPI_Iscatter(sb, b, t, d, b, t, root, comm, q)
               : MPI_Scatter(sb, b, t, d, b, t, root, comm);
        if (ip)
            j->len = 0; /* the reference receives the root's block, vine nothing */
        break;
    }
    case BARRIER:
        PMPI_Barrier(ref);
        rc = q ? MPI_Ibarrier(comm, q) : MPI_Barrier(comm);
        break;
    case ALLGATHERV: {
        int *c = j->cnt[1] = ints(p), *d = j->dsp[1] = ints(p);
        for (int i = 0; i < p; i++)
            c[i] = vcount(seed, i, 1, bound);
        reversed(p, c, d, 1);
        if (ip)
            place(j, d[r], 0, c[r]);
        PMPI_Allgatherv(sb, c[r], t, rf, c, d, t, ref);
        rc = q ? MPI_Iallgatherv(ip ? MPI_IN_PLACE : sb, c[r], t, rb, c, d, t, comm, q)
               : MPI_Allgatherv(ip ? MPI_IN_PLACE : sb, c[r], t, rb, c, d, t, comm);
        break;
    }
    case ALLTOALLV:
    case ALLTOALLW: {
        /* Rank a sends vcount(a, b) elements to rank b. */
        int *sc = j->cnt[0] = ints(p), *sd = j->dsp[0] = ints(p);
        int *rc_ = j->cnt[1] = ints(p), *rd = j->dsp[1] = ints(p), off = 0;
        for (int i = 0; i < p; i++) {
            sc[i] = vcount(seed, r, i, bound);
            sd[i] = off;
            off += sc[i] + 1;
            rc_[i] = vcount(seed, i, r, bound);
        }
        reversed(p, rc_, rd, 2);
        if (j->coll == ALLTOALLV) {
            PMPI_Alltoallv(sb, sc, sd, t, rf, rc_, rd, t, ref);
            rc = q ? MPI_Ialltoallv(sb, sc, sd, t, rb, rc_, rd, t, comm, q)
                   : MPI_Alltoallv(sb, sc, sd, t, rb, rc_, rd, t, comm);
        } else {
            /* alltoallw: displacements in bytes. */
            MPI_Datatype *st = j->types[0] = calloc((size_t)p, sizeof *st);
            MPI_Datatype *rt = j->types[1] = calloc((size_t)p, sizeof *rt);
            if (!st || !rt)
                MPI_Abort(MPI_COMM_WORLD, 2);
            for (int i = 0; i < p; i++) {
                st[i] = rt[i] = t;
                sd[i] *= ext * (int)sizeof(int);
                rd[i] *= ext * (int)sizeof(int);
            }
            PMPI_Alltoallw(sb, sc, sd, st, rf, rc_, rd, rt, ref);
            rc = q ? MPI_Ialltoallw(sb, sc, sd, st, rb, rc_, rd, rt, comm, q)
                   : MPI_Alltoallw(sb, sc, sd, st, rb, rc_, rd, rt, comm);
        }
        break;
    }
    case GATHERV: {
        int *c = j->cnt[1] = ints(p), *d = j->dsp[1] = ints(p);
        for (int i = 0; i < p; i++)
            c[i] = vcount(seed, i, 2, bound);
        reversed(p, c, d, 3);
        ip = j->inplace = ip && r == root;
        if (ip)
            place(j, d[r], 0, c[r]);
        PMPI_Gatherv(sb, c[r], t, rf, c, d, t, root, ref);
        const void *s = ip ? MPI_IN_PLACE : sb;
        rc = q ? MPI_Igatherv(s, c[r], t, rb, c, d, t, root, comm, q)
               : MPI_Gatherv(s, c[r], t, rb, c, d, t, root, comm);
        break;
    }
    case SCATTERV: {
        int *c = j->cnt[0] = ints(p), *d = j->dsp[0] = ints(p);
        for (int i = 0; i < p; i++)
            c[i] = vcount(seed, i, 3, bound);
        reversed(p, c, d, 1);
        ip = j->inplace = ip && r == root;
        void *dst = ip ? MPI_IN_PLACE : rb;
        PMPI_Scatterv(sb, c, d, t, rf, c[r], t, root, ref);
        rc = q ? MPI_Iscatterv(sb, c, d, t, dst, c[r], t, root, comm, q)
               : MPI_Scatterv(sb, c, d, t, dst, c[r], t, root, comm);
        if (ip)
            j->len = 0; /* the reference receives the root's block, vine nothing */
        break;
    }
    }
    return rc;
}

int main(int argc, char **argv)
{
    /* "multiple": MPI_THREAD_MULTIPLE, which VINE_PROGRESS_THREAD=1 needs. */
    int provided;
    int multiple = argc > 3 && strcmp(argv[3], "multiple") == 0;
    MPI_Init_thread(&argc, &argv, multiple ? MPI_THREAD_MULTIPLE : MPI_THREAD_SINGLE, &provided);
    int iters = argc > 1 ? atoi(argv[1]) : 300;
    uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
    int wr, wp;
    MPI_Comm_rank(MPI_COMM_WORLD, &wr);
    MPI_Comm_size(MPI_COMM_WORLD, &wp);
    MPI_Comm comms[NCOMMS], refs[NCOMMS];
    comms[0] = MPI_COMM_WORLD;
    MPI_Comm_split(MPI_COMM_WORLD, wr % 2, wp - wr, &comms[1]);
    MPI_Comm_dup(MPI_COMM_WORLD, &comms[2]);
    for (int i = 0; i < NCOMMS; i++)
        PMPI_Comm_dup(comms[i], &refs[i]);
    MPI_Datatype pair;
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_create_resized(pair, 0, HOLE_EXTENT * (MPI_Aint)sizeof(int), &holes);
    MPI_Type_commit(&holes);
    MPI_Type_free(&pair);
    job jobs[MAXOUT];
    memset(jobs, 0, sizeof jobs);
    state = seed * 2654435761u + 88172645463325252u;
    for (int it = 0; it < iters; it++) {
        int ci = below(NCOMMS), coll = below(NCOLL), n = draw_count(), nb = below(3) == 0;
        int p, r;
        MPI_Comm_size(comms[ci], &p);
        MPI_Comm_rank(comms[ci], &r);
        int root = below(p), inplace = below(4) == 0, derived = below(4) == 0;
        MPI_Op op = below(2) ? MPI_SUM : MPI_MAX;
        int reduction = coll == REDUCE || coll == ALLREDUCE || coll == REDUCE_SCATTER ||
                        coll == REDUCE_SCATTER_BLOCK || coll == SCAN || coll == EXSCAN;
        job j = {.coll = coll,
                 .iter = it,
                 .root = root,
                 .inplace = inplace,
                 .rank = wr,
                 .nb = nb,
                 .derived = derived && !reduction};
        size_t ext = j.derived ? HOLE_EXTENT : 1;
        /* Outstanding calls complete at random, the first one also when a
         * nonblocking call needs its place. */
        int free_slot = -1;
        for (int k = 0; k < MAXOUT; k++) {
            if (jobs[k].used && (below(2) || (nb && k == 0 && full(jobs))))
                complete(&jobs[k]);
            if (!jobs[k].used && free_slot < 0)
                free_slot = k;
        }
        if (coll != BCAST && coll != REDUCE && coll != ALLREDUCE && coll != SCAN &&
            coll != EXSCAN && n > MAX_ELEMS / p)
            n = MAX_ELEMS / p; /* the vector collectives: about MAX_ELEMS in all */
        j.slen = ((size_t)n * (size_t)p + GUARD) * ext;
        size_t rlen = ((size_t)n * (size_t)p + 3 * (size_t)p + GUARD) * ext;
        j.sb = malloc(j.slen * sizeof(int));
        j.rb = malloc(rlen * sizeof(int));
        j.ref = malloc(rlen * sizeof(int));
        if (!j.sb || !j.rb || !j.ref) {
            fprintf(stderr, "stress: out of memory\n");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        for (size_t i = 0; i < j.slen; i++)
            j.sb[i] = send_value(i, wr, it);
        for (size_t i = 0; i < rlen; i++)
            j.rb[i] = j.ref[i] = -7;
        j.len = rlen;
        int rc = issue(&j, n, op, comms[ci], refs[ci]);
        j.used = 1;
        if (rc != MPI_SUCCESS) {
            if (bad++ < 10)
                fprintf(stderr, "stress: rank %d call %d %s returned %d\n", wr, it, coll_name[coll],
                        rc);
            j.nb = 0;
        }
        if (j.nb)
            jobs[free_slot] = j;
        else
            finish(&j);
    }
    for (int k = MAXOUT - 1; k >= 0; k--)
        if (jobs[k].used)
            complete(&jobs[k]);
    int all = 0;
    PMPI_Allreduce(&bad, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (wr == 0)
        printf("stress: %d calls on %d ranks, %d wrong\n", iters, wp, all);
    for (int i = 0; i < NCOMMS; i++)
        PMPI_Comm_free(&refs[i]);
    MPI_Type_free(&holes);
    MPI_Comm_free(&comms[1]);
    MPI_Comm_free(&comms[2]);
    MPI_Finalize();
    return all != 0;
}
