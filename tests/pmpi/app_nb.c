/*
 * An MPI program that knows nothing of vine, for the nonblocking and
 * persistent side of libvine-mpi: it starts MPI's seventeen nonblocking
 * collectives (MPI_Ibcast ... MPI_Ibarrier, and the irregular ones and the
 * scans, MPI_Iallgatherv ... MPI_Iexscan), many outstanding at once on
 * MPI_COMM_WORLD, a duplicate (pmpi_dup) and a split (pmpi_split), and
 * completes them through MPI's ordinary completion calls:
 * - MPI_Waitall over an array that mixes them with the program's own
 *   MPI_Isend/MPI_Irecv (and MPI_REQUEST_NULL), 68 collectives in one
 *   array;
 * - MPI_Testany and MPI_Waitsome loops, MPI_Wait in reverse start order,
 *   MPI_Test and MPI_Request_get_status polling, MPI_Testall;
 * - blocking collectives while nonblocking ones are outstanding;
 * - where the header is MPI 4: the large-count _c forms (of the irregular
 *   ones and the scans blocking too, on pmpi_blockc), and persistent
 *   collectives (MPI_<Coll>_init) on pmpi_persist, started again and again
 *   by MPI_Startall and MPI_Start beside persistent point-to-point
 *   requests, their buffers refilled between starts.
 * The irregular collectives' blocks differ in size, some are empty, and
 * they lie in any order with gaps, which must stay untouched; alltoallw
 * uses a two-int type for some peers; MPI_IN_PLACE wherever MPI allows it.
 * The non-commutative user op runs in allreduce, reduce_scatter_block, scan
 * and exscan.  Every result is checked against values the program computes
 * itself: under libvine-mpi MPI's collectives are vine's, so MPI cannot
 * serve as the reference.  Errors: a bad root through the communicator's
 * handler, MPI_Cancel and MPI_Request_free of an active collective request
 * and MPI_Start of an active persistent one through MPI_COMM_WORLD's,
 * MPI_SUM on a derived type (which libvine-mpi passes to MPI, on
 * pmpi_errors), and a point-to-point MPI_Cancel, which must still reach
 * MPI.  With the argument "inter", MPI_Iallreduce and MPI_Ibcast on an
 * intercommunicator, which go to MPI.  tests/pmpi/run_app.sh runs it and
 * checks the VINE_VERBOSE lines (--also names the seven besides the ten).
 * Exits non-zero after any wrong result; the messages start with "app:".
 * (MPICH 4.0.2's own allgatherv on one rank, out of place, ignores displs[0]:
 * the program fails on one rank without libvine-mpi there.)
 */
#include "app.h"
#include "colls.h"

/*
 * MPICH defines MPI_STATUSES_IGNORE as (MPI_Status *)1, which GCC takes for
 * an array of no elements passed where its header declares MPI_Status
 * array_of_statuses[] (as src/sched/exec.c says).
 */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif

/* Two ints: alltoallw's type for some peers (made in main). */
static MPI_Datatype pair_type;

/* Element i contributed by rank r in round `round` (a start of a persistent request). */
static int dval(int round, int r, int i)
{
    return round * 7919 + r * 1000 + i * 7 + 1;
}

/* Element k of the block rank `from` sends to rank `to` in round `round`. */
static int denc(int round, int from, int to, int k)
{
    return round * 7919 + from * 100000 + to * 1000 + k;
}

/*
 * One side (send or receive) of an irregular collective: each rank's block,
 * in elements (elems, at), and as the call's arguments (in units of
 * types[q]; alltoallw's displacements in bytes).  extent: the elements up
 * to the end of the last block.
 */
typedef struct side {
    int *elems, *at, *counts, *displs;
    MPI_Count *ccounts;
    MPI_Aint *cdispls;
    MPI_Datatype *types;
    int extent;
} side;

/*
 * One collective call: its communicator, its buffers, and what it must
 * produce.  n is the count per rank (per block; for the irregular ones the
 * scale of the blocks); root is fixed when the job is made; inplace uses
 * MPI_IN_PLACE where MPI allows it; large calls the _c form (MPI 4 headers
 * only).
 */
typedef struct job {
    int coll;
    MPI_Comm comm;
    const char *label;
    int p, r, n, root, inplace, large, round;
    size_t size; /* of send and recv, in ints */
    int *send, *recv;
    int *counts; /* reduce_scatter */
    MPI_Count *ccounts;
    int total;   /* reduce_scatter: the sum of counts */
    int offset;  /* reduce_scatter: this rank's first element */
    side vs, vr; /* the irregular ones: send and receive side */
    int own;     /* allgatherv, gatherv, scatterv: this rank's block */
} job;

static int *ints(size_t n)
{
    int *a = malloc((n ? n : 1) * sizeof *a);
    if (!a) {
        fprintf(stderr, "app: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return a;
}

static int is_v(int coll)
{
    return coll >= ALLGATHERV && coll <= SCATTERV;
}

/*
 * Elements of the block rank a sends to rank b (alltoallv, alltoallw), or
 * of rank a's block (the others, b = a): one in four is empty, the others
 * of three sizes.  In place, alltoall's blocks are symmetric, as MPI requires.
 */
static int vcount(const job *j, int a, int b)
{
    int c = ((a + (j->inplace ? b : 2 * b) + j->n) % 4) * ((j->n + 3) / 4);
    return j->coll == ALLTOALLW ? 2 * c : c; /* whole pairs */
}

/*
 * A side of an irregular collective: the blocks in rank order (the send
 * side in reverse), one unused element before each (two on the receive
 * side).  alltoallw sends to odd ranks, and receives from even ones, in
 * pairs.
 */
static void side_make(side *s, const job *j, int sending)
{
    int p = j->p, alltoall = j->coll == ALLTOALLV || j->coll == ALLTOALLW;
    size_t np = (size_t)p;
    s->elems = ints(np);
    s->at = ints(np);
    s->counts = ints(np);
    s->displs = ints(np);
    s->ccounts = malloc(np * sizeof *s->ccounts);
    s->cdispls = malloc(np * sizeof *s->cdispls);
    s->types = malloc(np * sizeof *s->types);
    if (!s->ccounts || !s->cdispls || !s->types) {
        fprintf(stderr, "app: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    s->extent = 0;
    for (int i = 0; i < p; i++) {
        int q = sending ? p - 1 - i : i;
        s->elems[q] = !alltoall ? vcount(j, q, q)
                      : sending ? vcount(j, j->r, q)
                                : vcount(j, q, j->r);
        s->extent += sending ? 1 : 2;
        s->at[q] = s->extent;
        s->extent += s->elems[q];
    }
    for (int q = 0; q < p; q++) {
        int pair = j->coll == ALLTOALLW && q % 2 == sending;
        s->types[q] = pair ? pair_type : MPI_INT;
        s->counts[q] = pair ? s->elems[q] / 2 : s->elems[q];
        s->displs[q] = j->coll == ALLTOALLW ? s->at[q] * (int)sizeof(int) : s->at[q];
        s->ccounts[q] = s->counts[q];
        s->cdispls[q] = s->displs[q];
    }
}

static void side_free(side *s)
{
    free(s->elems);
    free(s->at);
    free(s->counts);
    free(s->displs);
    free(s->ccounts);
    free(s->cdispls);
    free(s->types);
}

static void job_make(job *j, int coll, MPI_Comm comm, const char *label, int n, int shift,
                     int inplace, int large)
{
    memset(j, 0, sizeof *j);
    j->coll = coll;
    j->comm = comm;
    j->label = label;
    MPI_Comm_size(comm, &j->p);
    MPI_Comm_rank(comm, &j->r);
    j->n = n;
    j->root = (coll + shift) % j->p;
    j->inplace = inplace;
#if MPI_VERSION >= 4
    j->large = large && coll != BARRIER;
#else
    (void)large;
#endif
    size_t np = (size_t)j->p, nn = (size_t)n;
    j->counts = ints(np);
    j->ccounts = malloc(np * sizeof *j->ccounts);
    for (int q = 0; q < j->p; q++) {
        j->counts[q] = (q % 3 + 1) * (n / 2 + 1);
        j->ccounts[q] = j->counts[q];
        if (q < j->r)
            j->offset += j->counts[q];
        j->total += j->counts[q];
    }
    size_t most = nn * np > (size_t)j->total ? nn * np : (size_t)j->total;
    if (is_v(coll)) {
        side_make(&j->vs, j, 1);
        side_make(&j->vr, j, 0);
        j->own = j->vr.elems[j->r];
        /* Three elements past the blocks, which must stay untouched too. */
        for (int e = 0; e < 2; e++) {
            size_t x = (size_t)(e ? j->vs : j->vr).extent + 3;
            most = x > most ? x : most;
        }
    }
    j->size = most;
    j->send = ints(most);
    j->recv = ints(most);
}

static void job_free(job *j)
{
    free(j->send);
    free(j->recv);
    free(j->counts);
    free(j->ccounts);
    if (is_v(j->coll)) {
        side_free(&j->vs);
        side_free(&j->vr);
    }
}

/* Writes round's input, and -1 wherever the collective must write. */
static void job_fill(job *j, int round)
{
    int p = j->p, r = j->r, n = j->n, root = j->root;
    const side *vs = &j->vs, *vr = &j->vr;
    j->round = round;
    for (size_t i = 0; i < j->size; i++)
        j->send[i] = j->recv[i] = -1;
    switch (j->coll) {
    case BCAST:
        for (int i = 0; r == root && i < n; i++)
            j->recv[i] = dval(round, root, i);
        break;
    case REDUCE:
    case ALLREDUCE:
        for (int i = 0; i < n; i++) {
            j->send[i] = dval(round, r, i);
            if (j->inplace && (j->coll == ALLREDUCE || r == root))
                j->recv[i] = dval(round, r, i);
        }
        break;
    case REDUCE_SCATTER:
    case REDUCE_SCATTER_BLOCK: {
        int total = j->coll == REDUCE_SCATTER ? j->total : n * p;
        for (int i = 0; i < total; i++)
            j->send[i] = dval(round, r, i);
        if (j->inplace)
            memcpy(j->recv, j->send, (size_t)total * sizeof *j->recv);
        break;
    }
    case ALLGATHER:
    case GATHER:
        for (int k = 0; k < n; k++) {
            j->send[k] = dval(round, r, k);
            if (j->inplace && (j->coll == ALLGATHER || r == root))
                j->recv[r * n + k] = dval(round, r, k);
        }
        break;
    case ALLTOALL:
        for (int q = 0; q < p; q++)
            for (int k = 0; k < n; k++)
                j->send[q * n + k] = denc(round, r, q, k);
        break;
    case SCATTER:
        for (int q = 0; r == root && q < p; q++)
            for (int k = 0; k < n; k++)
                j->send[q * n + k] = denc(round, root, q, k);
        break;
    case ALLGATHERV:
    case GATHERV:
        for (int k = 0; k < j->own; k++) {
            j->send[k] = dval(round, r, k);
            if (j->inplace && (j->coll == ALLGATHERV || r == root))
                j->recv[vr->at[r] + k] = dval(round, r, k);
        }
        break;
    case SCATTERV:
        for (int q = 0; r == root && q < p; q++)
            for (int k = 0; k < vs->elems[q]; k++)
                j->send[vs->at[q] + k] = denc(round, root, q, k);
        break;
    case ALLTOALLV:
    case ALLTOALLW:
        /* In place, the input is the receive blocks (the same sizes, as counts are symmetric). */
        for (int q = 0; q < p; q++)
            for (int k = 0; k < vs->elems[q]; k++) {
                j->send[vs->at[q] + k] = denc(round, r, q, k);
                if (j->inplace)
                    j->recv[vr->at[q] + k] = denc(round, r, q, k);
            }
        break;
    case SCAN:
    case EXSCAN:
        for (int i = 0; i < n; i++) {
            j->send[i] = dval(round, r, i);
            if (j->inplace)
                j->recv[i] = dval(round, r, i);
        }
        break;
    }
}

/* The send buffer argument: MPI_IN_PLACE where this rank uses it. */
static const void *job_sendbuf(const job *j)
{
    switch (j->coll) {
    case REDUCE:
    case GATHER:
    case GATHERV:
        return j->inplace && j->r == j->root ? MPI_IN_PLACE : (const void *)j->send;
    case ALLREDUCE:
    case REDUCE_SCATTER:
    case REDUCE_SCATTER_BLOCK:
    case ALLGATHER:
    case ALLGATHERV:
    case ALLTOALLV:
    case ALLTOALLW:
    case SCAN:
    case EXSCAN:
        return j->inplace ? MPI_IN_PLACE : (const void *)j->send;
    default:
        return j->send;
    }
}

/* MPI_I<coll>, or MPI_I<coll>_c. */
static int job_start(job *j, MPI_Request *req)
{
    const void *sb = job_sendbuf(j);
    int n = j->n, root = j->root, in = j->inplace, isroot = j->r == root;
    MPI_Comm c = j->comm;
    /* The in-place side of allgather and gather sends nothing of its own. */
    int sn = in && (j->coll == ALLGATHER || (j->coll == GATHER && isroot)) ? 0 : n;
    MPI_Datatype st = sn ? MPI_INT : MPI_DATATYPE_NULL;
    /* Likewise allgatherv and gatherv; the irregular ones' arguments. */
    int vin = in && (j->coll == ALLGATHERV || (j->coll == GATHERV && isroot)),
        vsn = vin ? 0 : j->own;
    MPI_Datatype vst = vin ? MPI_DATATYPE_NULL : MPI_INT;
    const side *vs = &j->vs, *vr = &j->vr;
#if MPI_VERSION >= 4
    if (j->large) {
        MPI_Count cn = n, csn = sn;
        switch (j->coll) {
        case BCAST:
            return MPI_Ibcast_c(j->recv, cn, MPI_INT, root, c, req);
        case REDUCE:
            return MPI_Ireduce_c(sb, j->recv, cn, MPI_INT, MPI_SUM, root, c, req);
        case ALLREDUCE:
            return MPI_Iallreduce_c(sb, j->recv, cn, MPI_INT, MPI_SUM, c, req);
        case REDUCE_SCATTER:
            return MPI_Ireduce_scatter_c(sb, j->recv, j->ccounts, MPI_INT, MPI_SUM, c, req);
        case REDUCE_SCATTER_BLOCK:
            return MPI_Ireduce_scatter_block_c(sb, j->recv, cn, MPI_INT, MPI_SUM, c, req);
        case ALLGATHER:
            return MPI_Iallgather_c(sb, csn, st, j->recv, cn, MPI_INT, c, req);
        case ALLTOALL:
            return MPI_Ialltoall_c(sb, cn, MPI_INT, j->recv, cn, MPI_INT, c, req);
        case GATHER:
            return MPI_Igather_c(sb, csn, st, j->recv, cn, MPI_INT, root, c, req);
        case SCATTER:
            if (in && isroot)
                return MPI_Iscatter_c(j->send, cn, MPI_INT, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL,
                                      root, c, req);
            return MPI_Iscatter_c(j->send, cn, MPI_INT, j->recv, cn, MPI_INT, root, c, req);
        case ALLGATHERV:
            return MPI_Iallgatherv_c(sb, vsn, vst, j->recv, vr->ccounts, vr->cdispls, MPI_INT, c,
                                     req);
        case ALLTOALLV:
            return MPI_Ialltoallv_c(sb, vs->ccounts, vs->cdispls, MPI_INT, j->recv, vr->ccounts,
                                    vr->cdispls, MPI_INT, c, req);
        case ALLTOALLW:
            return MPI_Ialltoallw_c(sb, vs->ccounts, vs->cdispls, vs->types, j->recv, vr->ccounts,
                                    vr->cdispls, vr->types, c, req);
        case GATHERV:
            return MPI_Igatherv_c(sb, vsn, vst, j->recv, vr->ccounts, vr->cdispls, MPI_INT, root, c,
                                  req);
        case SCATTERV:
            if (in && isroot)
                return MPI_Iscatterv_c(j->send, vs->ccounts, vs->cdispls, MPI_INT, MPI_IN_PLACE, 0,
                                       MPI_DATATYPE_NULL, root, c, req);
            return MPI_Iscatterv_c(j->send, vs->ccounts, vs->cdispls, MPI_INT, j->recv, j->own,
                                   MPI_INT, root, c, req);
        case SCAN:
            return MPI_Iscan_c(sb, j->recv, cn, MPI_INT, MPI_SUM, c, req);
        case EXSCAN:
            return MPI_Iexscan_c(sb, j->recv, cn, MPI_INT, MPI_SUM, c, req);
        }
    }
#endif
    switch (j->coll) {
    case BCAST:
        return MPI_Ibcast(j->recv, n, MPI_INT, root, c, req);
    case REDUCE:
        return MPI_Ireduce(sb, j->recv, n, MPI_INT, MPI_SUM, root, c, req);
    case ALLREDUCE:
        return MPI_Iallreduce(sb, j->recv, n, MPI_INT, MPI_SUM, c, req);
    case REDUCE_SCATTER:
        return MPI_Ireduce_scatter(sb, j->recv, j->counts, MPI_INT, MPI_SUM, c, req);
    case REDUCE_SCATTER_BLOCK:
        return MPI_Ireduce_scatter_block(sb, j->recv, n, MPI_INT, MPI_SUM, c, req);
    case ALLGATHER:
        return MPI_Iallgather(sb, sn, st, j->recv, n, MPI_INT, c, req);
    case ALLTOALL:
        return MPI_Ialltoall(sb, n, MPI_INT, j->recv, n, MPI_INT, c, req);
    case GATHER:
        return MPI_Igather(sb, sn, st, j->recv, n, MPI_INT, root, c, req);
    case SCATTER:
        if (in && isroot)
            return MPI_Iscatter(j->send, n, MPI_INT, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, root, c,
                                req);
        return MPI_Iscatter(j->send, n, MPI_INT, j->recv, n, MPI_INT, root, c, req);
    case ALLGATHERV:
        return MPI_Iallgatherv(sb, vsn, vst, j->recv, vr->counts, vr->displs, MPI_INT, c, req);
    case ALLTOALLV:
        return MPI_Ialltoallv(sb, vs->counts, vs->displs, MPI_INT, j->recv, vr->counts, vr->displs,
                              MPI_INT, c, req);
    case ALLTOALLW:
        return MPI_Ialltoallw(sb, vs->counts, vs->displs, vs->types, j->recv, vr->counts,
                              vr->displs, vr->types, c, req);
    case GATHERV:
        return MPI_Igatherv(sb, vsn, vst, j->recv, vr->counts, vr->displs, MPI_INT, root, c, req);
    case SCATTERV:
        if (in && isroot)
            return MPI_Iscatterv(j->send, vs->counts, vs->displs, MPI_INT, MPI_IN_PLACE, 0,
                                 MPI_DATATYPE_NULL, root, c, req);
        return MPI_Iscatterv(j->send, vs->counts, vs->displs, MPI_INT, j->recv, j->own, MPI_INT,
                             root, c, req);
    case SCAN:
        return MPI_Iscan(sb, j->recv, n, MPI_INT, MPI_SUM, c, req);
    case EXSCAN:
        return MPI_Iexscan(sb, j->recv, n, MPI_INT, MPI_SUM, c, req);
    default:
        return MPI_Ibarrier(c, req);
    }
}

#if MPI_VERSION >= 4
/* MPI_<Coll>_init, or MPI_<Coll>_init_c. */
static int job_init(job *j, MPI_Info info, MPI_Request *req)
{
    const void *sb = job_sendbuf(j);
    int n = j->n, root = j->root, in = j->inplace, isroot = j->r == root;
    MPI_Comm c = j->comm;
    int sn = in && (j->coll == ALLGATHER || (j->coll == GATHER && isroot)) ? 0 : n;
    MPI_Datatype st = sn ? MPI_INT : MPI_DATATYPE_NULL;
    /* Likewise allgatherv and gatherv; the irregular ones' arguments. */
    int vin = in && (j->coll == ALLGATHERV || (j->coll == GATHERV && isroot)),
        vsn = vin ? 0 : j->own;
    MPI_Datatype vst = vin ? MPI_DATATYPE_NULL : MPI_INT;
    const side *vs = &j->vs, *vr = &j->vr;
    if (j->large) {
        MPI_Count cn = n, csn = sn;
        switch (j->coll) {
        case BCAST:
            return MPI_Bcast_init_c(j->recv, cn, MPI_INT, root, c, info, req);
        case REDUCE:
            return MPI_Reduce_init_c(sb, j->recv, cn, MPI_INT, MPI_SUM, root, c, info, req);
        case ALLREDUCE:
            return MPI_Allreduce_init_c(sb, j->recv, cn, MPI_INT, MPI_SUM, c, info, req);
        case REDUCE_SCATTER:
            return MPI_Reduce_scatter_init_c(sb, j->recv, j->ccounts, MPI_INT, MPI_SUM, c, info,
                                             req);
        case REDUCE_SCATTER_BLOCK:
            return MPI_Reduce_scatter_block_init_c(sb, j->recv, cn, MPI_INT, MPI_SUM, c, info, req);
        case ALLGATHER:
            return MPI_Allgather_init_c(sb, csn, st, j->recv, cn, MPI_INT, c, info, req);
        case ALLTOALL:
            return MPI_Alltoall_init_c(sb, cn, MPI_INT, j->recv, cn, MPI_INT, c, info, req);
        case GATHER:
            return MPI_Gather_init_c(sb, csn, st, j->recv, cn, MPI_INT, root, c, info, req);
        case SCATTER:
            if (in && isroot)
                return MPI_Scatter_init_c(j->send, cn, MPI_INT, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL,
                                          root, c, info, req);
            return MPI_Scatter_init_c(j->send, cn, MPI_INT, j->recv, cn, MPI_INT, root, c, info,
                                      req);
        case ALLGATHERV:
            return MPI_Allgatherv_init_c(sb, vsn, vst, j->recv, vr->ccounts, vr->cdispls, MPI_INT,
                                         c, info, req);
        case ALLTOALLV:
            return MPI_Alltoallv_init_c(sb, vs->ccounts, vs->cdispls, MPI_INT, j->recv, vr->ccounts,
                                        vr->cdispls, MPI_INT, c, info, req);
        case ALLTOALLW:
            return MPI_Alltoallw_init_c(sb, vs->ccounts, vs->cdispls, vs->types, j->recv,
                                        vr->ccounts, vr->cdispls, vr->types, c, info, req);
        case GATHERV:
            return MPI_Gatherv_init_c(sb, vsn, vst, j->recv, vr->ccounts, vr->cdispls, MPI_INT,
                                      root, c, info, req);
        case SCATTERV:
            if (in && isroot)
                return MPI_Scatterv_init_c(j->send, vs->ccounts, vs->cdispls, MPI_INT, MPI_IN_PLACE,
                                           0, MPI_DATATYPE_NULL, root, c, info, req);
            return MPI_Scatterv_init_c(j->send, vs->ccounts, vs->cdispls, MPI_INT, j->recv, j->own,
                                       MPI_INT, root, c, info, req);
        case SCAN:
            return MPI_Scan_init_c(sb, j->recv, cn, MPI_INT, MPI_SUM, c, info, req);
        case EXSCAN:
            return MPI_Exscan_init_c(sb, j->recv, cn, MPI_INT, MPI_SUM, c, info, req);
        }
    }
    switch (j->coll) {
    case BCAST:
        return MPI_Bcast_init(j->recv, n, MPI_INT, root, c, info, req);
    case REDUCE:
        return MPI_Reduce_init(sb, j->recv, n, MPI_INT, MPI_SUM, root, c, info, req);
    case ALLREDUCE:
        return MPI_Allreduce_init(sb, j->recv, n, MPI_INT, MPI_SUM, c, info, req);
    case REDUCE_SCATTER:
        return MPI_Reduce_scatter_init(sb, j->recv, j->counts, MPI_INT, MPI_SUM, c, info, req);
    case REDUCE_SCATTER_BLOCK:
        return MPI_Reduce_scatter_block_init(sb, j->recv, n, MPI_INT, MPI_SUM, c, info, req);
    case ALLGATHER:
        return MPI_Allgather_init(sb, sn, st, j->recv, n, MPI_INT, c, info, req);
    case ALLTOALL:
        return MPI_Alltoall_init(sb, n, MPI_INT, j->recv, n, MPI_INT, c, info, req);
    case GATHER:
        return MPI_Gather_init(sb, sn, st, j->recv, n, MPI_INT, root, c, info, req);
    case SCATTER:
        if (in && isroot)
            return MPI_Scatter_init(j->send, n, MPI_INT, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, root,
                                    c, info, req);
        return MPI_Scatter_init(j->send, n, MPI_INT, j->recv, n, MPI_INT, root, c, info, req);
    case ALLGATHERV:
        return MPI_Allgatherv_init(sb, vsn, vst, j->recv, vr->counts, vr->displs, MPI_INT, c, info,
                                   req);
    case ALLTOALLV:
        return MPI_Alltoallv_init(sb, vs->counts, vs->displs, MPI_INT, j->recv, vr->counts,
                                  vr->displs, MPI_INT, c, info, req);
    case ALLTOALLW:
        return MPI_Alltoallw_init(sb, vs->counts, vs->displs, vs->types, j->recv, vr->counts,
                                  vr->displs, vr->types, c, info, req);
    case GATHERV:
        return MPI_Gatherv_init(sb, vsn, vst, j->recv, vr->counts, vr->displs, MPI_INT, root, c,
                                info, req);
    case SCATTERV:
        if (in && isroot)
            return MPI_Scatterv_init(j->send, vs->counts, vs->displs, MPI_INT, MPI_IN_PLACE, 0,
                                     MPI_DATATYPE_NULL, root, c, info, req);
        return MPI_Scatterv_init(j->send, vs->counts, vs->displs, MPI_INT, j->recv, j->own, MPI_INT,
                                 root, c, info, req);
    case SCAN:
        return MPI_Scan_init(sb, j->recv, n, MPI_INT, MPI_SUM, c, info, req);
    case EXSCAN:
        return MPI_Exscan_init(sb, j->recv, n, MPI_INT, MPI_SUM, c, info, req);
    default:
        return MPI_Barrier_init(c, info, req);
    }
}
#endif

/* The sum over ranks 0 .. p-1 of element i in round `round`. */
static int dsum(int round, int p, int i)
{
    int s = 0;
    for (int q = 0; q < p; q++)
        s += dval(round, q, i);
    return s;
}

/*
 * What element x of an irregular collective's receive buffer must hold: the
 * block it lies in, or -1 between and after the blocks.
 */
static int vwant(const job *j, int x)
{
    for (int q = 0; q < j->p; q++) {
        int k = x - j->vr.at[q];
        if (k >= 0 && k < j->vr.elems[q])
            return j->coll == ALLGATHERV || j->coll == GATHERV ? dval(j->round, q, k)
                                                               : denc(j->round, q, j->r, k);
    }
    return -1;
}

#define JCHECK(j, cond, what, k, got, want)                                                        \
    CHECK(cond, "%s %s%s (round %d, n %d, root %d%s): %s[%d] = %d, want %d", (j)->label,           \
          coll_name[(j)->coll], (j)->large ? "_c" : "", (j)->round, (j)->n, (j)->root,             \
          (j)->inplace ? ", in place" : "", what, k, got, want)

/* Checks the job's result against the values of its round. */
static void job_check(const job *j)
{
    int p = j->p, r = j->r, n = j->n, root = j->root, round = j->round;
    const int *got = j->recv;
    switch (j->coll) {
    case BCAST:
        for (int i = 0; i < n; i++)
            JCHECK(j, got[i] == dval(round, root, i), "buffer", i, got[i], dval(round, root, i));
        break;
    case REDUCE:
        for (int i = 0; r == root && i < n; i++)
            JCHECK(j, got[i] == dsum(round, p, i), "recv", i, got[i], dsum(round, p, i));
        for (int i = 0; r != root && i < n; i++)
            JCHECK(j, got[i] == -1, "recv (not the root)", i, got[i], -1);
        break;
    case ALLREDUCE:
        for (int i = 0; i < n; i++)
            JCHECK(j, got[i] == dsum(round, p, i), "recv", i, got[i], dsum(round, p, i));
        break;
    case REDUCE_SCATTER:
        for (int k = 0; k < j->counts[r]; k++)
            JCHECK(j, got[k] == dsum(round, p, j->offset + k), "recv", k, got[k],
                   dsum(round, p, j->offset + k));
        break;
    case REDUCE_SCATTER_BLOCK:
        for (int k = 0; k < n; k++)
            JCHECK(j, got[k] == dsum(round, p, r * n + k), "recv", k, got[k],
                   dsum(round, p, r * n + k));
        break;
    case ALLGATHER:
    case GATHER:
        for (int q = 0; (j->coll == ALLGATHER || r == root) && q < p; q++)
            for (int k = 0; k < n; k++)
                JCHECK(j, got[q * n + k] == dval(round, q, k), "recv", q * n + k, got[q * n + k],
                       dval(round, q, k));
        break;
    case ALLTOALL:
        for (int q = 0; q < p; q++)
            for (int k = 0; k < n; k++)
                JCHECK(j, got[q * n + k] == denc(round, q, r, k), "recv", q * n + k, got[q * n + k],
                       denc(round, q, r, k));
        break;
    case SCATTER: {
        /* In place, the root's block stays where it is in the send buffer. */
        const int *mine = j->inplace && r == root ? j->send + r * n : got;
        for (int k = 0; k < n; k++)
            JCHECK(j, mine[k] == denc(round, root, r, k), "recv", k, mine[k],
                   denc(round, root, r, k));
        break;
    }
    case ALLGATHERV:
    case GATHERV:
    case ALLTOALLV:
    case ALLTOALLW:
        /* Every element: the gaps and what follows the blocks stay -1. */
        for (int x = 0; x < (int)j->size; x++) {
            int want = j->coll == GATHERV && r != root ? -1 : vwant(j, x);
            JCHECK(j, got[x] == want, "recv", x, got[x], want);
        }
        break;
    case SCATTERV:
        if (j->inplace && r == root) {
            for (int k = 0; k < j->own; k++)
                JCHECK(j, j->send[j->vs.at[r] + k] == denc(round, root, r, k), "send (in place)", k,
                       j->send[j->vs.at[r] + k], denc(round, root, r, k));
            break;
        }
        for (int x = 0; x < (int)j->size; x++) {
            int want = x < j->own ? denc(round, root, r, x) : -1;
            JCHECK(j, got[x] == want, "recv", x, got[x], want);
        }
        break;
    case SCAN:
    case EXSCAN: {
        /* The sum over ranks 0 .. upto-1; rank 0's exscan result is undefined. */
        int upto = j->coll == SCAN ? r + 1 : r;
        for (int i = 0; upto > 0 && i < n; i++)
            JCHECK(j, got[i] == dsum(round, upto, i), "recv", i, got[i], dsum(round, upto, i));
        break;
    }
    }
}

/*
 * The program's own messages beside the collectives: each rank sends n ints
 * to the next rank of comm and receives them from the previous one.
 */
typedef struct ring {
    MPI_Comm comm;
    int p, r, n, tag, round;
    int *out, *in;
} ring;

static void ring_make(ring *g, MPI_Comm comm, int n, int tag)
{
    g->comm = comm;
    MPI_Comm_size(comm, &g->p);
    MPI_Comm_rank(comm, &g->r);
    g->n = n;
    g->tag = tag;
    g->out = ints((size_t)n);
    g->in = ints((size_t)n);
}

static void ring_fill(ring *g, int round)
{
    g->round = round;
    for (int k = 0; k < g->n; k++) {
        g->out[k] = denc(round, g->r, (g->r + 1) % g->p, k) + 7;
        g->in[k] = -1;
    }
}

/* Posts the receive into req[0] and the send into req[1]. */
static void ring_post(ring *g, MPI_Request req[2])
{
    int rc = MPI_Irecv(g->in, g->n, MPI_INT, (g->r + g->p - 1) % g->p, g->tag, g->comm, &req[0]);
    CHECK_RC(rc, "MPI_Irecv");
    rc = MPI_Isend(g->out, g->n, MPI_INT, (g->r + 1) % g->p, g->tag, g->comm, &req[1]);
    CHECK_RC(rc, "MPI_Isend");
}

static void ring_check(const ring *g, const char *label)
{
    int from = (g->r + g->p - 1) % g->p;
    for (int k = 0; k < g->n; k++) {
        int want = denc(g->round, from, g->r, k) + 7;
        CHECK(g->in[k] == want, "%s: ring message [%d] = %d, want %d", label, k, g->in[k], want);
    }
}

/* The receive's status, as MPI fills it. */
static void ring_status(const ring *g, const MPI_Status *st, const char *label)
{
    int count = -1;
    MPI_Get_count(st, MPI_INT, &count);
    CHECK(st->MPI_SOURCE == (g->r + g->p - 1) % g->p && st->MPI_TAG == g->tag && count == g->n,
          "%s: ring receive status source %d tag %d count %d", label, st->MPI_SOURCE, st->MPI_TAG,
          count);
}

static void ring_free(ring *g)
{
    free(g->out);
    free(g->in);
}

static void start_rc(job *j, MPI_Request *req)
{
    int rc = job_start(j, req);
    CHECK(rc == MPI_SUCCESS && *req != MPI_REQUEST_NULL, "%s: MPI_I%s%s returned %d", j->label,
          coll_name[j->coll], j->large ? "_c" : "", rc);
}

/* A little work between tests, as a program computing while it waits. */
static volatile double sink;

static void compute(int steps)
{
    double x = sink;
    for (int i = 0; i < steps; i++)
        x = x * 0.999 + 1.0;
    sink = x;
}

/*
 * 51 collectives outstanding at once (the 17 on MPI_COMM_WORLD, on
 * pmpi_dup in reverse order, and on pmpi_split in the _c forms), started
 * interleaved with the ring's messages and MPI_REQUEST_NULL, all completed
 * by one MPI_Waitall.  These are the first calls of each collective on the
 * three communicators, so that their VINE_VERBOSE lines come from the
 * nonblocking calls.
 */
static void check_waitall(MPI_Comm world, MPI_Comm dup, MPI_Comm split)
{
    enum { N = 3 * NCOLL + 3 };
    job w[NCOLL], d[NCOLL], s[NCOLL];
    MPI_Request req[N];
    MPI_Status st[N];
    int n = 0, ring_at = -1;
    ring g;
    ring_make(&g, world, 5, 11);
    ring_fill(&g, 0);
    for (int c = 0; c < NCOLL; c++) {
        job_make(&w[c], c, world, "world", 4, 0, c % 2, 0);
        job_make(&d[c], c, dup, "pmpi_dup", 600, 1, 0, 0);
        job_make(&s[c], c, split, "pmpi_split", 5, 2, c % 3 == 0, 1);
        job_fill(&w[c], 0);
        job_fill(&d[c], 0);
        job_fill(&s[c], 0);
    }
    for (int c = 0; c < NCOLL; c++) {
        start_rc(&w[c], &req[n++]);
        start_rc(&d[NCOLL - 1 - c], &req[n++]);
        if (c == 4) {
            ring_at = n;
            ring_post(&g, &req[n]);
            n += 2;
            req[n++] = MPI_REQUEST_NULL;
        }
        start_rc(&s[c], &req[n++]);
    }
    int rc = MPI_Waitall(n, req, st);
    CHECK_RC(rc, "MPI_Waitall");
    for (int i = 0; i < n; i++)
        CHECK(req[i] == MPI_REQUEST_NULL, "waitall: request %d is not MPI_REQUEST_NULL", i);
    ring_status(&g, &st[ring_at], "waitall");
    ring_check(&g, "waitall");
    for (int c = 0; c < NCOLL; c++) {
        job_check(&w[c]);
        job_check(&d[c]);
        job_check(&s[c]);
        job_free(&w[c]);
        job_free(&d[c]);
        job_free(&s[c]);
    }
    ring_free(&g);
}

/*
 * 68 collectives outstanding on pmpi_dup (the 17, four times, with
 * roots and sizes varied) and the ring, completed by one MPI_Waitall that
 * ignores the statuses: more requests than libvine-mpi keeps on its stack.
 */
static void check_many(MPI_Comm dup)
{
    enum { K = 4, N = K * NCOLL + 2 };
    job d[K][NCOLL];
    MPI_Request req[N];
    int n = 0;
    ring g;
    ring_make(&g, dup, 9, 16);
    ring_fill(&g, 7);
    for (int k = 0; k < K; k++)
        for (int c = 0; c < NCOLL; c++) {
            job_make(&d[k][c], c, dup, "many", 1 + 13 * k, k, (c + k) % 2, k % 2);
            job_fill(&d[k][c], 7 + k);
            start_rc(&d[k][c], &req[n++]);
            if (k == 2 && c == 5) {
                ring_post(&g, &req[n]);
                n += 2;
            }
        }
    int rc = MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
    CHECK_RC(rc, "MPI_Waitall of 68 collectives");
    for (int i = 0; i < n; i++)
        CHECK(req[i] == MPI_REQUEST_NULL, "many: request %d is not MPI_REQUEST_NULL", i);
    ring_check(&g, "many");
    for (int k = 0; k < K; k++)
        for (int c = 0; c < NCOLL; c++) {
            job_check(&d[k][c]);
            job_free(&d[k][c]);
        }
    ring_free(&g);
}

/*
 * The 17 on pmpi_dup and the ring, completed one at a time by an
 * MPI_Testany loop with work in between, until MPI_Testany says that
 * nothing is left (index MPI_UNDEFINED): each request exactly once.
 */
static void check_testany(MPI_Comm dup)
{
    enum { N = NCOLL + 3 };
    job d[NCOLL];
    MPI_Request req[N];
    int seen[N] = {0}, n = 0;
    ring g;
    ring_make(&g, dup, 64, 12);
    ring_fill(&g, 1);
    for (int c = 0; c < NCOLL; c++) {
        job_make(&d[c], c, dup, "testany", 50, 3, c % 2 == 1, 0);
        job_fill(&d[c], 1);
        start_rc(&d[c], &req[n++]);
        if (c == 2) {
            req[n++] = MPI_REQUEST_NULL;
            ring_post(&g, &req[n]);
            n += 2;
        }
    }
    for (int spins = 0;; spins++) {
        int index = -5, flag = 0;
        MPI_Status st;
        int rc = MPI_Testany(n, req, &index, &flag, &st);
        CHECK_RC(rc, "MPI_Testany");
        if (rc != MPI_SUCCESS)
            break;
        if (flag && index == MPI_UNDEFINED)
            break;
        if (flag) {
            CHECK(index >= 0 && index < n, "testany: index %d", index);
            if (index < 0 || index >= n)
                break;
            seen[index]++;
            CHECK(req[index] == MPI_REQUEST_NULL, "testany: request %d not freed", index);
            if (index == 4)
                ring_status(&g, &st, "testany");
        } else {
            compute(200);
        }
    }
    for (int i = 0; i < n; i++)
        CHECK(seen[i] == (i == 3 ? 0 : 1), "testany: request %d completed %d times", i, seen[i]);
    ring_check(&g, "testany");
    for (int c = 0; c < NCOLL; c++) {
        job_check(&d[c]);
        job_free(&d[c]);
    }
    ring_free(&g);
}

/*
 * The 17 on MPI_COMM_WORLD (larger, other roots) and the ring, completed by
 * an MPI_Waitsome loop until outcount is MPI_UNDEFINED.
 */
static void check_waitsome(MPI_Comm world)
{
    enum { N = NCOLL + 2 };
    job w[NCOLL];
    MPI_Request req[N];
    MPI_Status st[N];
    int seen[N] = {0}, idx[N], n = 0;
    ring g;
    ring_make(&g, world, 1000, 13);
    ring_fill(&g, 2);
    ring_post(&g, &req[n]);
    n += 2;
    for (int c = 0; c < NCOLL; c++) {
        job_make(&w[c], c, world, "waitsome", 300, 5, 0, 0);
        job_fill(&w[c], 2);
        start_rc(&w[c], &req[n++]);
    }
    for (;;) {
        int out = -5;
        int rc = MPI_Waitsome(n, req, &out, idx, st);
        CHECK_RC(rc, "MPI_Waitsome");
        if (rc != MPI_SUCCESS || out == MPI_UNDEFINED)
            break;
        CHECK(out >= 1 && out <= n, "waitsome: outcount %d", out);
        for (int k = 0; k < out && k < n; k++) {
            CHECK(idx[k] >= 0 && idx[k] < n, "waitsome: index %d", idx[k]);
            if (idx[k] < 0 || idx[k] >= n)
                continue;
            seen[idx[k]]++;
            CHECK(req[idx[k]] == MPI_REQUEST_NULL, "waitsome: request %d not freed", idx[k]);
            if (idx[k] == 0)
                ring_status(&g, &st[k], "waitsome");
        }
        if (out < 1)
            break;
    }
    for (int i = 0; i < n; i++)
        CHECK(seen[i] == 1, "waitsome: request %d completed %d times", i, seen[i]);
    ring_check(&g, "waitsome");
    for (int c = 0; c < NCOLL; c++) {
        job_check(&w[c]);
        job_free(&w[c]);
    }
    ring_free(&g);
}

/*
 * The 17 on pmpi_split completed by MPI_Wait in reverse start order, the
 * first one polled with MPI_Test before.
 */
static void check_wait_reverse(MPI_Comm split)
{
    job s[NCOLL];
    MPI_Request req[NCOLL];
    for (int c = 0; c < NCOLL; c++) {
        job_make(&s[c], c, split, "reverse", 33, 4, c % 4 == 1, 1);
        job_fill(&s[c], 3);
        start_rc(&s[c], &req[c]);
    }
    int flag = 0, rc = MPI_SUCCESS;
    while (!flag && rc == MPI_SUCCESS)
        rc = MPI_Test(&req[0], &flag, MPI_STATUS_IGNORE);
    CHECK(rc == MPI_SUCCESS && req[0] == MPI_REQUEST_NULL, "MPI_Test returned %d", rc);
    for (int c = NCOLL - 1; c >= 0; c--) {
        rc = MPI_Wait(&req[c], MPI_STATUS_IGNORE);
        CHECK(rc == MPI_SUCCESS && req[c] == MPI_REQUEST_NULL, "MPI_Wait of %s returned %d",
              coll_name[c], rc);
    }
    for (int c = 0; c < NCOLL; c++) {
        job_check(&s[c]);
        job_free(&s[c]);
    }
}

/*
 * Blocking collectives on communicators with nonblocking ones outstanding,
 * the latter then completed by an MPI_Testall loop; and MPI_Request_get_status
 * polled until a request is complete, which MPI_Wait then frees.
 */
static void check_mixed_blocking(MPI_Comm world, MPI_Comm dup)
{
    job a, b, c;
    MPI_Request req[2], q;
    job_make(&a, ALLREDUCE, world, "outstanding", 100, 0, 0, 0);
    job_make(&b, BCAST, dup, "outstanding", 70, 1, 0, 0);
    job_fill(&a, 4);
    job_fill(&b, 4);
    start_rc(&a, &req[0]);
    start_rc(&b, &req[1]);

    /* Blocking calls meanwhile, on the same communicators. */
    int p, r, buf[6], sum[3], rc;
    MPI_Comm_size(world, &p);
    MPI_Comm_rank(world, &r);
    for (int i = 0; i < 6; i++)
        buf[i] = r == p - 1 ? dval(9, p - 1, i) : -1;
    rc = MPI_Bcast(buf, 6, MPI_INT, p - 1, world);
    CHECK_RC(rc, "MPI_Bcast with requests outstanding");
    for (int i = 0; i < 6; i++)
        CHECK(buf[i] == dval(9, p - 1, i), "blocking bcast [%d] = %d", i, buf[i]);
    int mine[3] = {dval(8, r, 0), dval(8, r, 1), dval(8, r, 2)};
    rc = MPI_Allreduce(mine, sum, 3, MPI_INT, MPI_SUM, dup);
    CHECK_RC(rc, "MPI_Allreduce with requests outstanding");
    for (int i = 0; i < 3; i++)
        CHECK(sum[i] == dsum(8, p, i), "blocking allreduce [%d] = %d", i, sum[i]);
    rc = MPI_Barrier(world);
    CHECK_RC(rc, "MPI_Barrier with requests outstanding");

    int flag = 0;
    while (!flag) {
        rc = MPI_Testall(2, req, &flag, MPI_STATUSES_IGNORE);
        CHECK_RC(rc, "MPI_Testall");
        if (rc != MPI_SUCCESS)
            break;
        if (!flag)
            compute(100);
    }
    CHECK(req[0] == MPI_REQUEST_NULL && req[1] == MPI_REQUEST_NULL, "testall left requests");
    job_check(&a);
    job_check(&b);

    /* MPI_Request_get_status: complete, but not freed, until MPI_Wait. */
    job_make(&c, ALLTOALL, world, "get_status", 40, 0, 0, 0);
    job_fill(&c, 5);
    start_rc(&c, &q);
    flag = 0;
    while (!flag) {
        rc = MPI_Request_get_status(q, &flag, MPI_STATUS_IGNORE);
        CHECK_RC(rc, "MPI_Request_get_status");
        if (rc != MPI_SUCCESS)
            break;
    }
    CHECK(q != MPI_REQUEST_NULL, "MPI_Request_get_status freed the request");
    rc = MPI_Wait(&q, MPI_STATUS_IGNORE);
    CHECK(rc == MPI_SUCCESS && q == MPI_REQUEST_NULL, "MPI_Wait after get_status returned %d", rc);
    job_check(&c);

    /* MPI_Waitall with nothing of vine's in it, statuses ignored: MPI's own. */
    ring g;
    MPI_Request pr[2];
    ring_make(&g, world, 3, 14);
    ring_fill(&g, 6);
    ring_post(&g, pr);
    rc = MPI_Waitall(2, pr, MPI_STATUSES_IGNORE);
    CHECK_RC(rc, "MPI_Waitall of point-to-point requests");
    ring_check(&g, "point-to-point only");
    ring_free(&g);

    job_free(&a);
    job_free(&b);
    job_free(&c);
}

/*
 * The non-commutative user op on the derived type, in four collectives at
 * once: the scans must apply it in rank order.
 */
static void check_user_op(MPI_Comm world)
{
    MPI_Datatype affine_type;
    MPI_Op affine_mpi_op;
    int p, r;
    MPI_Comm_size(world, &p);
    MPI_Comm_rank(world, &r);
    MPI_Type_contiguous(2, MPI_UNSIGNED, &affine_type);
    MPI_Type_commit(&affine_type);
    MPI_Op_create(affine_op, 0, &affine_mpi_op);
    size_t np = (size_t)p;
    affine all_in[5], all_out[5], *rs_in = malloc(3 * np * sizeof *rs_in), rs_out[3];
    affine scan_out[5], exscan_out[5];
    for (int i = 0; i < 5; i++) {
        all_in[i] = aff(r, i);
        all_out[i] = scan_out[i] = exscan_out[i] = (affine){0, 0};
    }
    for (int k = 0; k < 3 * p; k++)
        rs_in[k] = aff(r, k);
    MPI_Request req[4];
    int rc = MPI_Iallreduce(all_in, all_out, 5, affine_type, affine_mpi_op, world, &req[0]);
    CHECK_RC(rc, "MPI_Iallreduce with a user op");
    rc = MPI_Ireduce_scatter_block(rs_in, rs_out, 3, affine_type, affine_mpi_op, world, &req[1]);
    CHECK_RC(rc, "MPI_Ireduce_scatter_block with a user op");
    rc = MPI_Iscan(all_in, scan_out, 5, affine_type, affine_mpi_op, world, &req[2]);
    CHECK_RC(rc, "MPI_Iscan with a user op");
    rc = MPI_Iexscan(all_in, exscan_out, 5, affine_type, affine_mpi_op, world, &req[3]);
    CHECK_RC(rc, "MPI_Iexscan with a user op");
    /* The program may free the datatype and the op while the requests are
     * outstanding (MPICH's test suite does, coll/nonblocking2.c). */
    MPI_Type_free(&affine_type);
    rc = MPI_Op_free(&affine_mpi_op);
    CHECK(rc == MPI_SUCCESS && affine_mpi_op == MPI_OP_NULL, "MPI_Op_free of a pending op: %d", rc);
    rc = MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
    CHECK_RC(rc, "MPI_Waitall of the user op");
    for (int i = 0; i < 5; i++)
        CHECK(aff_eq(all_out[i], aff_fold(p, i)), "user op iallreduce [%d] = (%u, %u)", i,
              all_out[i].a, all_out[i].b);
    for (int k = 0; k < 3; k++)
        CHECK(aff_eq(rs_out[k], aff_fold(p, 3 * r + k)),
              "user op ireduce_scatter_block [%d] = (%u, %u)", k, rs_out[k].a, rs_out[k].b);
    for (int i = 0; i < 5; i++) {
        CHECK(aff_eq(scan_out[i], aff_fold(r + 1, i)), "user op iscan [%d] = (%u, %u)", i,
              scan_out[i].a, scan_out[i].b);
        CHECK(r == 0 || aff_eq(exscan_out[i], aff_fold(r, i)), "user op iexscan [%d] = (%u, %u)", i,
              exscan_out[i].a, exscan_out[i].b);
    }
    free(rs_in);
#if MPI_VERSION >= 4
    /* A persistent request keeps its op after the program frees it. */
    MPI_Type_contiguous(2, MPI_UNSIGNED, &affine_type);
    MPI_Type_commit(&affine_type);
    MPI_Op_create(affine_op, 0, &affine_mpi_op);
    MPI_Request q;
    rc = MPI_Scan_init(all_in, scan_out, 5, affine_type, affine_mpi_op, world, MPI_INFO_NULL, &q);
    CHECK_RC(rc, "MPI_Scan_init with a user op");
    MPI_Op_free(&affine_mpi_op);
    MPI_Type_free(&affine_type);
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 5; i++) {
            all_in[i] = aff(r + round, i);
            scan_out[i] = (affine){0, 0};
        }
        rc = MPI_Start(&q);
        CHECK_RC(rc, "MPI_Start of a scan whose op is freed");
        rc = MPI_Wait(&q, MPI_STATUS_IGNORE);
        CHECK_RC(rc, "MPI_Wait of a scan whose op is freed");
        /* aff(r + round, i) folded over ranks 0..r: shifted by round. */
        for (int i = 0; i < 5; i++) {
            affine want = aff(round, i);
            for (int k = 1; k <= r; k++)
                want = compose(want, aff(k + round, i));
            CHECK(aff_eq(scan_out[i], want), "persistent user op scan round %d [%d] = (%u, %u)",
                  round, i, scan_out[i].a, scan_out[i].b);
        }
    }
    rc = MPI_Request_free(&q);
    CHECK_RC(rc, "MPI_Request_free of the persistent scan");
#endif
}

#if MPI_VERSION >= 4
/*
 * Persistent collectives: the 17 on pmpi_persist (half in the _c forms,
 * some in place, allgatherv and scan among them) beside a persistent send
 * and receive, started six times with new data each time (the bcast
 * root's buffer and every send buffer refilled), by MPI_Startall or by
 * MPI_Start in reverse order, and completed by MPI_Waitall, an MPI_Testall
 * loop or an MPI_Waitsome loop.  The requests stay valid between starts
 * and are freed at the end.
 */
static void check_persistent(MPI_Comm persist)
{
    enum { N = NCOLL + 2 };
    job j[NCOLL];
    MPI_Request req[N];
    ring g;
    ring_make(&g, persist, 17, 15);
    int rc;
    for (int c = 0; c < NCOLL; c++) {
        job_make(&j[c], c, persist, "persistent", 200, 4, c % 3 == 0 || c == ALLGATHERV, c % 2);
        job_fill(&j[c], 0);
        rc = job_init(&j[c], MPI_INFO_NULL, &req[c]);
        CHECK(rc == MPI_SUCCESS && req[c] != MPI_REQUEST_NULL, "MPI_%s_init%s returned %d",
              coll_name[c], j[c].large ? "_c" : "", rc);
    }
    rc = MPI_Recv_init(g.in, g.n, MPI_INT, (g.r + g.p - 1) % g.p, g.tag, persist, &req[NCOLL]);
    CHECK_RC(rc, "MPI_Recv_init");
    rc = MPI_Send_init(g.out, g.n, MPI_INT, (g.r + 1) % g.p, g.tag, persist, &req[NCOLL + 1]);
    CHECK_RC(rc, "MPI_Send_init");

    for (int round = 1; round <= 6; round++) {
        for (int c = 0; c < NCOLL; c++)
            job_fill(&j[c], round);
        ring_fill(&g, round);
        if (round % 2) {
            rc = MPI_Startall(N, req);
            CHECK_RC(rc, "MPI_Startall");
        } else {
            for (int i = N - 1; i >= 0; i--) {
                rc = MPI_Start(&req[i]);
                CHECK_RC(rc, "MPI_Start");
            }
        }
        MPI_Status st[N];
        int idx[N], seen[N] = {0};
        switch (round % 3) {
        case 0:
            rc = MPI_Waitall(N, req, MPI_STATUSES_IGNORE);
            CHECK_RC(rc, "MPI_Waitall of persistent requests");
            break;
        case 1:
            for (int flag = 0; !flag;) {
                rc = MPI_Testall(N, req, &flag, st);
                CHECK_RC(rc, "MPI_Testall of persistent requests");
                if (rc != MPI_SUCCESS)
                    break;
            }
            ring_status(&g, &st[NCOLL], "persistent testall");
            break;
        default:
            for (;;) {
                int out = -5;
                rc = MPI_Waitsome(N, req, &out, idx, st);
                CHECK_RC(rc, "MPI_Waitsome of persistent requests");
                if (rc != MPI_SUCCESS || out == MPI_UNDEFINED || out < 1)
                    break;
                for (int k = 0; k < out; k++)
                    if (idx[k] >= 0 && idx[k] < N)
                        seen[idx[k]]++;
            }
            for (int i = 0; i < N; i++)
                CHECK(seen[i] == 1, "persistent waitsome: request %d completed %d times", i,
                      seen[i]);
            break;
        }
        for (int i = 0; i < N; i++)
            CHECK(req[i] != MPI_REQUEST_NULL, "round %d: persistent request %d freed", round, i);
        for (int c = 0; c < NCOLL; c++)
            job_check(&j[c]);
        ring_check(&g, "persistent");
    }
    for (int i = 0; i < N; i++) {
        rc = MPI_Request_free(&req[i]);
        CHECK(rc == MPI_SUCCESS && req[i] == MPI_REQUEST_NULL, "MPI_Request_free of %d: %d", i, rc);
    }
    for (int c = 0; c < NCOLL; c++)
        job_free(&j[c]);
    ring_free(&g);
}
#endif

/* The error handler of the error checks: counts its calls, keeps the code and communicator. */
static int handler_calls, handler_code;
static MPI_Comm handler_comm;

static void count_errors(MPI_Comm *comm, int *code, ...)
{
    handler_calls++;
    handler_code = *code;
    handler_comm = *comm;
}

static int error_class(int code)
{
    int cls = -1;
    MPI_Error_class(code, &cls);
    return cls;
}

/* rc must be class cls, reported once through the handler of comm. */
static void expect_error(int rc, int cls, MPI_Comm comm, const char *what)
{
    CHECK(rc != MPI_SUCCESS && error_class(rc) == cls, "%s returned %d (class %d), want class %d",
          what, rc, error_class(rc), cls);
    CHECK(handler_calls == 1 && handler_code == rc && handler_comm == comm,
          "%s: error handler called %d times with %d (on %s)", what, handler_calls, handler_code,
          handler_comm == MPI_COMM_WORLD ? "MPI_COMM_WORLD" : "another communicator");
    handler_calls = 0;
}

/*
 * Errors: a root out of range through the communicator's handler, with
 * MPI_REQUEST_NULL; MPI_SUM on a derived type, which goes to MPI; MPI_Cancel
 * and MPI_Request_free of an active collective request, and MPI_Start of an
 * active persistent one, through MPI_COMM_WORLD's handler (the requests go
 * on and complete); a point-to-point receive that MPI_Cancel must still
 * cancel.
 */
static void check_errors(void)
{
    MPI_Comm comm;
    MPI_Errhandler eh;
    MPI_Datatype int2;
    MPI_Request req;
    int p, r, rc, buf[4] = {1, 2, 3, 4};
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_name(comm, "pmpi_errors");
    MPI_Comm_size(comm, &p);
    MPI_Comm_rank(comm, &r);
    MPI_Comm_create_errhandler(count_errors, &eh);
    MPI_Comm_set_errhandler(comm, eh);

    handler_calls = 0;
    req = (MPI_Request)0;
    rc = MPI_Ibcast(buf, 4, MPI_INT, p, comm, &req);
    expect_error(rc, MPI_ERR_ROOT, comm, "MPI_Ibcast to root p");
    CHECK(req == MPI_REQUEST_NULL, "MPI_Ibcast to root p left a request");
    int *ones = calloc((size_t)p, sizeof *ones), *zeros = calloc((size_t)p, sizeof *zeros);
    for (int q = 0; ones && q < p; q++)
        ones[q] = 1;
    req = (MPI_Request)0;
    rc = MPI_Igatherv(buf, 1, MPI_INT, buf + 1, ones, zeros, MPI_INT, p, comm, &req);
    expect_error(rc, MPI_ERR_ROOT, comm, "MPI_Igatherv to root p");
    CHECK(req == MPI_REQUEST_NULL, "MPI_Igatherv to root p left a request");
    free(ones);
    free(zeros);

    MPI_Type_contiguous(2, MPI_INT, &int2);
    MPI_Type_commit(&int2);
    int send[4], recv[4] = {0, 0, 0, 0};
    for (int i = 0; i < 4; i++)
        send[i] = val(r, i);
    handler_calls = 0;
    rc = MPI_Iallreduce(send, recv, 2, int2, MPI_SUM, comm, &req);
    if (rc == MPI_SUCCESS) {
        CHECK(handler_calls == 0, "iallreduce on int2 succeeded but called the error handler");
        rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
        CHECK_RC(rc, "MPI_Wait of the iallreduce on int2");
        for (int i = 0; i < 4; i++) {
            int want = 0;
            for (int q = 0; q < p; q++)
                want += val(q, i);
            CHECK(recv[i] == want, "iallreduce on int2: [%d] = %d, want %d", i, recv[i], want);
        }
    } else {
        expect_error(rc, error_class(rc), comm, "MPI_Iallreduce on int2");
    }
    MPI_Type_free(&int2);

    /* Errors of vine's requests reach MPI_COMM_WORLD's handler. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
    handler_calls = 0;
    rc = MPI_Ibarrier(comm, &req);
    CHECK_RC(rc, "MPI_Ibarrier");
    rc = MPI_Cancel(&req);
    expect_error(rc, MPI_ERR_REQUEST, MPI_COMM_WORLD, "MPI_Cancel of a collective request");
    rc = MPI_Request_free(&req);
    expect_error(rc, MPI_ERR_REQUEST, MPI_COMM_WORLD, "MPI_Request_free of an active request");
    CHECK(req != MPI_REQUEST_NULL, "the refused MPI_Request_free freed the request");
    rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
    CHECK(rc == MPI_SUCCESS && req == MPI_REQUEST_NULL && handler_calls == 0,
          "MPI_Wait after the refusals returned %d", rc);

#if MPI_VERSION >= 4
    int x = val(r, 0), sum = 0;
    rc = MPI_Allreduce_init(&x, &sum, 1, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &req);
    CHECK_RC(rc, "MPI_Allreduce_init");
    rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
    CHECK(rc == MPI_SUCCESS && req != MPI_REQUEST_NULL && sum == 0,
          "MPI_Wait of an inactive persistent request returned %d", rc);
    rc = MPI_Start(&req);
    CHECK_RC(rc, "MPI_Start");
    rc = MPI_Start(&req);
    expect_error(rc, MPI_ERR_REQUEST, MPI_COMM_WORLD, "MPI_Start of an active request");
    rc = MPI_Startall(1, &req);
    expect_error(rc, MPI_ERR_REQUEST, MPI_COMM_WORLD, "MPI_Startall with an active request");
    rc = MPI_Request_free(&req);
    expect_error(rc, MPI_ERR_REQUEST, MPI_COMM_WORLD, "MPI_Request_free of an active request");
    rc = MPI_Wait(&req, MPI_STATUS_IGNORE);
    CHECK(rc == MPI_SUCCESS && req != MPI_REQUEST_NULL, "MPI_Wait of the persistent request: %d",
          rc);
    int want = 0;
    for (int q = 0; q < p; q++)
        want += val(q, 0);
    CHECK(sum == want, "persistent allreduce after the refusals = %d, want %d", sum, want);
    rc = MPI_Request_free(&req);
    CHECK(rc == MPI_SUCCESS && req == MPI_REQUEST_NULL && handler_calls == 0,
          "MPI_Request_free of the inactive request returned %d", rc);
#endif
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);

    /* MPI_Cancel of the program's own receive still reaches MPI. */
    int never;
    rc = MPI_Irecv(&never, 1, MPI_INT, r, 999, comm, &req);
    CHECK_RC(rc, "MPI_Irecv");
    rc = MPI_Cancel(&req);
    CHECK_RC(rc, "MPI_Cancel of a receive");
    MPI_Status st;
    rc = MPI_Wait(&req, &st);
    int cancelled = 0;
    MPI_Test_cancelled(&st, &cancelled);
    CHECK(rc == MPI_SUCCESS && cancelled, "the cancelled receive: rc %d, cancelled %d", rc,
          cancelled);

    MPI_Errhandler_free(&eh);
    MPI_Comm_free(&comm);
}

/*
 * MPI_Iallreduce and MPI_Ibcast on an intercommunicator between the even
 * and the odd ranks of MPI_COMM_WORLD (p >= 2): libvine-mpi passes both to
 * MPI, and MPI_Waitall completes MPI's requests.
 */
static void check_inter(void)
{
    int p, rc, color = world_rank % 2;
    MPI_Comm half, inter;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    MPI_Comm_split(MPI_COMM_WORLD, color, world_rank, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 1 - color, 77, &inter);
    /* vine serves half, MPI the intercommunicator: VINE_VERBOSE must give
     * the two unnamed communicators different numbers (run_app.sh). */
    CHECK_RC(MPI_Barrier(half), "MPI_Barrier on half of MPI_COMM_WORLD");

    int send[3], recv[3], buf[3];
    MPI_Request req[2];
    for (int i = 0; i < 3; i++) {
        send[i] = val(world_rank, i);
        buf[i] = world_rank == 0 ? val(0, i) + 99 : -1;
    }
    rc = MPI_Iallreduce(send, recv, 3, MPI_INT, MPI_SUM, inter, &req[0]);
    CHECK_RC(rc, "MPI_Iallreduce on the intercommunicator");
    int root = color == 1 ? 0 : world_rank == 0 ? MPI_ROOT : MPI_PROC_NULL;
    rc = MPI_Ibcast(buf, 3, MPI_INT, root, inter, &req[1]);
    CHECK_RC(rc, "MPI_Ibcast on the intercommunicator");
    rc = MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    CHECK_RC(rc, "MPI_Waitall on the intercommunicator");
    for (int i = 0; i < 3; i++) {
        int want = 0;
        for (int q = 0; q < p; q++)
            if (q % 2 != color)
                want += val(q, i);
        CHECK(recv[i] == want, "inter iallreduce[%d] = %d, want %d", i, recv[i], want);
        want = color == 1 || world_rank == 0 ? val(0, i) + 99 : -1;
        CHECK(buf[i] == want, "inter ibcast[%d] = %d, want %d", i, buf[i], want);
    }
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
}

#if MPI_VERSION >= 4
/* The blocking MPI_<Coll>_c of an irregular collective or a scan. */
static int job_blocking_c(const job *j)
{
    const void *sb = job_sendbuf(j);
    int root = j->root, in = j->inplace, isroot = j->r == root;
    int vin = in && (j->coll == ALLGATHERV || (j->coll == GATHERV && isroot));
    MPI_Count vsn = vin ? 0 : j->own;
    MPI_Datatype vst = vin ? MPI_DATATYPE_NULL : MPI_INT;
    const side *vs = &j->vs, *vr = &j->vr;
    MPI_Comm c = j->comm;
    switch (j->coll) {
    case ALLGATHERV:
        return MPI_Allgatherv_c(sb, vsn, vst, j->recv, vr->ccounts, vr->cdispls, MPI_INT, c);
    case ALLTOALLV:
        return MPI_Alltoallv_c(sb, vs->ccounts, vs->cdispls, MPI_INT, j->recv, vr->ccounts,
                               vr->cdispls, MPI_INT, c);
    case ALLTOALLW:
        return MPI_Alltoallw_c(sb, vs->ccounts, vs->cdispls, vs->types, j->recv, vr->ccounts,
                               vr->cdispls, vr->types, c);
    case GATHERV:
        return MPI_Gatherv_c(sb, vsn, vst, j->recv, vr->ccounts, vr->cdispls, MPI_INT, root, c);
    case SCATTERV:
        if (in && isroot)
            return MPI_Scatterv_c(j->send, vs->ccounts, vs->cdispls, MPI_INT, MPI_IN_PLACE, 0,
                                  MPI_DATATYPE_NULL, root, c);
        return MPI_Scatterv_c(j->send, vs->ccounts, vs->cdispls, MPI_INT, j->recv, j->own, MPI_INT,
                              root, c);
    case SCAN:
        return MPI_Scan_c(sb, j->recv, j->n, MPI_INT, MPI_SUM, c);
    default:
        return MPI_Exscan_c(sb, j->recv, j->n, MPI_INT, MPI_SUM, c);
    }
}

/*
 * The blocking large-count forms (MPI-4), on their own communicator so that
 * run_app.sh sees vine serve each of them there.
 */
static void check_blocking_c(MPI_Comm comm)
{
    enum { N = 3 };
    int p, me, rc;
    MPI_Comm_size(comm, &p);
    MPI_Comm_rank(comm, &me);
    int *in = malloc((size_t)p * N * sizeof *in), *out = malloc((size_t)p * N * sizeof *out);
    MPI_Count *counts = malloc((size_t)p * sizeof *counts);
    if (!in || !out || !counts) {
        fail("check_blocking_c: out of memory");
        return;
    }
    int root = p - 1;

    for (int i = 0; i < N; i++)
        in[i] = val(me, i);
    rc = MPI_Allreduce_c(in, out, N, MPI_INT, MPI_SUM, comm);
    CHECK_RC(rc, "MPI_Allreduce_c");
    for (int i = 0; i < N; i++) {
        int want = 0;
        for (int r = 0; r < p; r++)
            want += val(r, i);
        CHECK(out[i] == want, "MPI_Allreduce_c: element %d is %d, want %d", i, out[i], want);
    }

    for (int i = 0; i < N; i++)
        out[i] = me == root ? val(root, i) : -1;
    rc = MPI_Bcast_c(out, N, MPI_INT, root, comm);
    CHECK_RC(rc, "MPI_Bcast_c");
    for (int i = 0; i < N; i++)
        CHECK(out[i] == val(root, i), "MPI_Bcast_c: element %d is %d", i, out[i]);

    rc = MPI_Reduce_c(in, out, N, MPI_INT, MPI_MAX, root, comm);
    CHECK_RC(rc, "MPI_Reduce_c");
    for (int i = 0; i < N && me == root; i++)
        CHECK(out[i] == val(p - 1, i), "MPI_Reduce_c: element %d is %d", i, out[i]);

    rc = MPI_Allgather_c(in, N, MPI_INT, out, N, MPI_INT, comm);
    CHECK_RC(rc, "MPI_Allgather_c");
    for (int r = 0; r < p; r++)
        for (int i = 0; i < N; i++)
            CHECK(out[r * N + i] == val(r, i), "MPI_Allgather_c: block %d element %d", r, i);

    rc = MPI_Gather_c(in, N, MPI_INT, out, N, MPI_INT, root, comm);
    CHECK_RC(rc, "MPI_Gather_c");
    for (int r = 0; r < p && me == root; r++)
        for (int i = 0; i < N; i++)
            CHECK(out[r * N + i] == val(r, i), "MPI_Gather_c: block %d element %d", r, i);

    for (int r = 0; r < p; r++)
        for (int i = 0; i < N; i++)
            in[r * N + i] = enc(me, r, i);
    rc = MPI_Alltoall_c(in, N, MPI_INT, out, N, MPI_INT, comm);
    CHECK_RC(rc, "MPI_Alltoall_c");
    for (int r = 0; r < p; r++)
        for (int i = 0; i < N; i++)
            CHECK(out[r * N + i] == enc(r, me, i), "MPI_Alltoall_c: block %d element %d", r, i);

    rc = MPI_Scatter_c(in, N, MPI_INT, out, N, MPI_INT, root, comm);
    CHECK_RC(rc, "MPI_Scatter_c");
    for (int i = 0; i < N; i++)
        CHECK(out[i] == enc(root, me, i), "MPI_Scatter_c: element %d is %d", i, out[i]);

    /* Rank r's block of the reduce-scatters: the sum over ranks of enc(q, r, i). */
    rc = MPI_Reduce_scatter_block_c(in, out, N, MPI_INT, MPI_SUM, comm);
    CHECK_RC(rc, "MPI_Reduce_scatter_block_c");
    for (int i = 0; i < N; i++) {
        int want = 0;
        for (int q = 0; q < p; q++)
            want += enc(q, me, i);
        CHECK(out[i] == want, "MPI_Reduce_scatter_block_c: element %d is %d", i, out[i]);
    }
    for (int r = 0; r < p; r++)
        counts[r] = N;
    rc = MPI_Reduce_scatter_c(in, out, counts, MPI_INT, MPI_SUM, comm);
    CHECK_RC(rc, "MPI_Reduce_scatter_c");
    for (int i = 0; i < N; i++) {
        int want = 0;
        for (int q = 0; q < p; q++)
            want += enc(q, me, i);
        CHECK(out[i] == want, "MPI_Reduce_scatter_c: element %d is %d", i, out[i]);
    }
    /* Barrier has no large-count form; it is here for run_app.sh's list. */
    CHECK_RC(MPI_Barrier(comm), "MPI_Barrier");

    for (int c = ALLGATHERV; c < NCOLL; c++) {
        job j;
        job_make(&j, c, comm, "blocking", 9, 1, c % 2, 1);
        job_fill(&j, 0);
        rc = job_blocking_c(&j);
        CHECK_RC(rc, coll_name[c]);
        job_check(&j);
        job_free(&j);
    }
    free(in);
    free(out);
    free(counts);
}
#endif

int main(int argc, char **argv)
{
    int p;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    int inter = argc > 1 && strcmp(argv[1], "inter") == 0;
    MPI_Type_contiguous(2, MPI_INT, &pair_type);
    MPI_Type_commit(&pair_type);

    MPI_Comm dup, split;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_set_name(dup, "pmpi_dup");
    /* Even and odd ranks, each in reverse order of world rank. */
    MPI_Comm_split(MPI_COMM_WORLD, world_rank % 2, p - world_rank, &split);
    MPI_Comm_set_name(split, "pmpi_split");
    /* vine sets a communicator up at its first blocking collective that moves data
     * (a barrier on one rank does not); nonblocking calls before it go to the MPI
     * library (docs/api.md, "Order"), which tests/pmpi/order.c checks.  Here vine's
     * algorithms must serve them. */
    MPI_Comm setup[3] = {MPI_COMM_WORLD, dup, split};
    for (int i = 0; i < 3; i++) {
        int one = 1, n = 0;
        MPI_Allreduce(&one, &n, 1, MPI_INT, MPI_SUM, setup[i]);
    }

    check_waitall(MPI_COMM_WORLD, dup, split);
    check_testany(dup);
    check_many(dup);
    check_waitsome(MPI_COMM_WORLD);
    check_wait_reverse(split);
    check_mixed_blocking(MPI_COMM_WORLD, dup);
    check_user_op(MPI_COMM_WORLD);
#if MPI_VERSION >= 4
    MPI_Comm persist;
    MPI_Comm_dup(MPI_COMM_WORLD, &persist);
    MPI_Comm_set_name(persist, "pmpi_persist");
    check_persistent(persist);
    MPI_Comm_free(&persist);
    MPI_Comm blockc;
    MPI_Comm_dup(MPI_COMM_WORLD, &blockc);
    MPI_Comm_set_name(blockc, "pmpi_blockc");
    check_blocking_c(blockc);
    MPI_Comm_free(&blockc);
#endif
    check_errors();
    if (inter && p >= 2)
        check_inter();

    MPI_Comm_free(&split);
    MPI_Comm_free(&dup);
    MPI_Type_free(&pair_type);
    MPI_Finalize();
    if (failures)
        fprintf(stderr, "app: rank %d: %d checks failed\n", world_rank, failures);
    return failures ? 1 : 0;
}
