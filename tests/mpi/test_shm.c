/*
 * MPI tier: the shared-memory family under stress (docs/shm.md).  Every
 * collective is forced to its "shm" algorithm and called back to back with
 * sizes, roots, ops and in-place choices drawn at random (the same draw on
 * every rank), on two communicators used alternately, with point-to-point
 * traffic in between and communicators freed and made again; every result is
 * compared with the MPI library's own collective.  Sizes reach several times
 * the region, so that with a small VINE_SHM_BYTES the chunked pipelines run.
 * Then small calls run back to back with no other call between them, each
 * checked against the values it must give (tight), where a rank that runs
 * ahead of its peers would meet a slot still being read.
 *
 * alltoallv joins the mix with irregular blocks (zeros too) drawn alike on
 * every rank.
 *
 * Environment: VINE_TEST_SHM_CALLS (default 1000) calls in the main loop;
 * VINE_TEST_SHM_EXPECT=none when the run disables the segment (VINE_SHM=0):
 * then vine_shm_info must say so and every call must be served by another
 * algorithm, still correctly.
 */
#include "mpitest.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const vine_coll colls[] = {VINE_COLL_BCAST,     VINE_COLL_REDUCE,
                                  VINE_COLL_ALLREDUCE, VINE_COLL_REDUCE_SCATTER,
                                  VINE_COLL_ALLGATHER, VINE_COLL_ALLTOALL,
                                  VINE_COLL_GATHER,    VINE_COLL_SCATTER,
                                  VINE_COLL_BARRIER,   VINE_COLL_REDUCE_SCATTER_BLOCK,
                                  VINE_COLL_ALLTOALLV};
enum { NCOLLS = sizeof colls / sizeof colls[0] };

static int expect_shm = 1;

/* The shared random stream: the same numbers on every rank. */
static uint64_t rng = 0x9e3779b97f4a7c15u;
static unsigned draw(unsigned n)
{
    rng = rng * 6364136223846793005u + 1442695040888963407u;
    return (unsigned)((rng >> 33) % n);
}

/*
 * alltoallv's tables: the block from rank i to rank j, 0 to n ints, drawn
 * from vseed (called with 3 n, the room of one()'s buffers, so that blocks
 * outgrow their part of the eager slot and go through the regions).
 */
static uint64_t vseed;
static int vcnt(int i, int j, size_t n)
{
    uint64_t h = (vseed ^ ((uint64_t)i * 1000003u + (uint64_t)j * 7919u)) * 0x9e3779b97f4a7c15u;
    return (int)((h >> 33) % (n + 1));
}

/* One call of coll with vine (use_vine) or MPI; returns the ints to compare in out. */
static size_t call(vine_coll coll, int use_vine, MPI_Comm w, size_t n, int root, MPI_Op op,
                   int inplace, const int *in, int *out, int *rc)
{
    int p, me;
    MPI_Comm_size(w, &p);
    MPI_Comm_rank(w, &me);
    int cnt = (int)n;
    static int counts[1024];
    switch (coll) {
    case VINE_COLL_BCAST:
        if (me == root)
            memcpy(out, in, n * sizeof(int));
        *rc = use_vine ? vine_bcast(out, cnt, MPI_INT, root, w) : MPI_Bcast(out, cnt, MPI_INT, root, w);
        return n;
    case VINE_COLL_REDUCE: {
        const void *s = in;
        if (inplace && me == root) {
            memcpy(out, in, n * sizeof(int));
            s = MPI_IN_PLACE;
        }
        *rc = use_vine ? vine_reduce(s, out, cnt, MPI_INT, op, root, w)
                       : MPI_Reduce(s, out, cnt, MPI_INT, op, root, w);
        return me == root ? n : 0;
    }
    case VINE_COLL_ALLREDUCE: {
        const void *s = in;
        if (inplace) {
            memcpy(out, in, n * sizeof(int));
            s = MPI_IN_PLACE;
        }
        *rc = use_vine ? vine_allreduce(s, out, cnt, MPI_INT, op, w)
                       : MPI_Allreduce(s, out, cnt, MPI_INT, op, w);
        return n;
    }
    case VINE_COLL_REDUCE_SCATTER: {
        /* Irregular counts summing to about n * p, zeros included. */
        size_t mine = 0;
        for (int i = 0; i < p; i++) {
            counts[i] = (int)(n * (size_t)((i * 7 + 3) % 5) / 2);
            if (i == me)
                mine = (size_t)counts[i];
        }
        *rc = use_vine ? vine_reduce_scatter(in, out, counts, MPI_INT, op, w)
                       : MPI_Reduce_scatter(in, out, counts, MPI_INT, op, w);
        return mine;
    }
    case VINE_COLL_REDUCE_SCATTER_BLOCK:
        *rc = use_vine ? vine_reduce_scatter_block(in, out, cnt, MPI_INT, op, w)
                       : MPI_Reduce_scatter_block(in, out, cnt, MPI_INT, op, w);
        return n;
    case VINE_COLL_ALLGATHER: {
        const void *s = in;
        if (inplace) {
            memcpy(out + (size_t)me * n, in, n * sizeof(int));
            s = MPI_IN_PLACE;
        }
        *rc = use_vine ? vine_allgather(s, cnt, MPI_INT, out, cnt, MPI_INT, w)
                       : MPI_Allgather(s, cnt, MPI_INT, out, cnt, MPI_INT, w);
        return n * (size_t)p;
    }
    case VINE_COLL_ALLTOALL:
        *rc = use_vine ? vine_alltoall(in, cnt, MPI_INT, out, cnt, MPI_INT, w)
                       : MPI_Alltoall(in, cnt, MPI_INT, out, cnt, MPI_INT, w);
        return n * (size_t)p;
    case VINE_COLL_ALLTOALLV: {
        static int sc[1024], sd[1024], rcnt[1024], rd[1024];
        int so = 0, ro = 0;
        for (int i = 0; i < p; i++) {
            sc[i] = vcnt(me, i, 3 * n);
            sd[i] = so;
            so += sc[i];
            rcnt[i] = vcnt(i, me, 3 * n);
            rd[i] = ro;
            ro += rcnt[i];
        }
        *rc = use_vine ? vine_alltoallv(in, sc, sd, MPI_INT, out, rcnt, rd, MPI_INT, w)
                       : MPI_Alltoallv(in, sc, sd, MPI_INT, out, rcnt, rd, MPI_INT, w);
        return (size_t)ro;
    }
    case VINE_COLL_GATHER:
        *rc = use_vine ? vine_gather(in, cnt, MPI_INT, out, cnt, MPI_INT, root, w)
                       : MPI_Gather(in, cnt, MPI_INT, out, cnt, MPI_INT, root, w);
        return me == root ? n * (size_t)p : 0;
    case VINE_COLL_SCATTER:
        *rc = use_vine ? vine_scatter(in, cnt, MPI_INT, out, cnt, MPI_INT, root, w)
                       : MPI_Scatter(in, cnt, MPI_INT, out, cnt, MPI_INT, root, w);
        return n;
    default:
        *rc = use_vine ? vine_barrier(w) : MPI_Barrier(w);
        return 0;
    }
}

/*
 * What served the last call must be shm exactly when the segment is expected;
 * a call with nothing to move (count 0, or one rank) is served by "none".
 */
static void check_served(vine_coll coll, int nothing)
{
    const char *served = vine_last_algorithm(coll);
    if (nothing && strcmp(served, "none") == 0)
        return;
    if (expect_shm && strcmp(served, "shm") != 0)
        mt_fail("served by %s, not shm", served);
    if (!expect_shm && strcmp(served, "shm") == 0)
        mt_fail("served by shm without a segment");
}

static int *in, *out, *want;

/* Elements of scatter's big blocks (above 256 KiB of ints). */
enum { BIG = 66000 };

/* One random call on w, checked against MPI. */
static void one(MPI_Comm w, size_t max_n, const char *where)
{
    int p, me;
    MPI_Comm_size(w, &p);
    MPI_Comm_rank(w, &me);
    vine_coll coll = colls[draw(NCOLLS)];
    /* Mostly small, sometimes up to max_n elements per block; scatter now
     * and then with blocks above 256 KiB, which single copy serves. */
    size_t n = draw(4) ? draw(64) : draw((unsigned)max_n + 1);
    if (coll == VINE_COLL_SCATTER && draw(8) == 0)
        n = BIG + draw(1000);
    int root = (int)draw((unsigned)p);
    vseed = draw(1u << 30);
    MPI_Op op = draw(2) ? MPI_SUM : MPI_MAX;
    int inplace = (int)draw(3) == 0;
    size_t total = n * (size_t)p * (n >= BIG ? 1 : 3);
    for (size_t i = 0; i < total; i++)
        in[i] = (int)((i * 31 + (size_t)me * 17 + n) % 1000) - 500;
    memset(want, 0x5a, total * sizeof(int));
    memset(out, 0x5a, total * sizeof(int));
    mt_case c = {vine_coll_name(coll), "shm", "int", "sum/max", (long)n,
                 coll == VINE_COLL_BCAST || coll == VINE_COLL_REDUCE || coll == VINE_COLL_GATHER ||
                         coll == VINE_COLL_SCATTER
                     ? root
                     : -1,
                 inplace};
    mt_begin(&c);
    int rc;
    /* The reference never runs in place: MPICH 4.0.2's MPI_Reduce crashes
     * with MPI_IN_PLACE at the root (the result is the same either way). */
    size_t m = call(coll, 0, w, n, root, op, 0, in, want, &rc);
    if (!mt_check_rc(rc, "the MPI library's collective"))
        return;
    call(coll, 1, w, n, root, op, inplace, in, out, &rc);
    if (!mt_check_rc(rc, where))
        return;
    check_served(coll, p == 1 || (n == 0 && coll != VINE_COLL_BARRIER));
    for (size_t i = 0; i < m; i++)
        if (out[i] != want[i]) {
            mt_fail("%s: element %zu is %d, expected %d", where, i, out[i], want[i]);
            return;
        }
}

/* Point-to-point traffic on the user's communicator between collectives. */
static void ring(MPI_Comm w)
{
    int p, me, x, y = -1;
    MPI_Comm_size(w, &p);
    MPI_Comm_rank(w, &me);
    x = me;
    MPI_Sendrecv(&x, 1, MPI_INT, (me + 1) % p, 5, &y, 1, MPI_INT, (me + p - 1) % p, 5, w,
                 MPI_STATUS_IGNORE);
    if (y != (me + p - 1) % p)
        mt_fail("point-to-point between collectives: got %d", y);
}

/* What rank r contributes to element i of tight loop call k. */
static int tv(int k, int r, int i)
{
    return k * 131 + r * 17 + i;
}

/*
 * Small calls back to back with nothing between them, each checked against
 * its expected values at once: the eager slots (docs/shm.md) let a bcast's
 * root or a gather's non-roots run a call ahead of slow readers, so this is
 * where a slot rewritten too early would show.
 */
static void tight(MPI_Comm w, int calls)
{
    static const vine_coll tc[] = {VINE_COLL_BCAST,   VINE_COLL_REDUCE,  VINE_COLL_ALLREDUCE,
                                   VINE_COLL_GATHER,  VINE_COLL_SCATTER, VINE_COLL_ALLGATHER,
                                   VINE_COLL_ALLTOALL};
    int p, me, in8[8 * 64], out8[8 * 64];
    MPI_Comm_size(w, &p);
    MPI_Comm_rank(w, &me);
    if (p > 64)
        return;
    for (int k = 0; k < calls; k++) {
        int n = 1 + k % 5, root = (k / 7) % p, rc = MPI_SUCCESS, bad = -1;
        vine_coll coll = tc[k % 7];
        for (int i = 0; i < n * p; i++)
            in8[i] = tv(k, me, i);
        memset(out8, 0xff, sizeof out8);
        switch (coll) {
        case VINE_COLL_BCAST:
            if (me == root)
                memcpy(out8, in8, (size_t)n * sizeof(int));
            rc = vine_bcast(out8, n, MPI_INT, root, w);
            for (int i = 0; i < n && bad < 0; i++)
                bad = out8[i] != tv(k, root, i) ? i : -1;
            break;
        case VINE_COLL_REDUCE:
        case VINE_COLL_ALLREDUCE:
            rc = coll == VINE_COLL_REDUCE ? vine_reduce(in8, out8, n, MPI_INT, MPI_SUM, root, w)
                                          : vine_allreduce(in8, out8, n, MPI_INT, MPI_SUM, w);
            for (int i = 0; i < n && bad < 0 && (me == root || coll == VINE_COLL_ALLREDUCE); i++) {
                int sum = 0;
                for (int r = 0; r < p; r++)
                    sum += tv(k, r, i);
                bad = out8[i] != sum ? i : -1;
            }
            break;
        case VINE_COLL_GATHER:
        case VINE_COLL_ALLGATHER:
            rc = coll == VINE_COLL_GATHER ? vine_gather(in8, n, MPI_INT, out8, n, MPI_INT, root, w)
                                          : vine_allgather(in8, n, MPI_INT, out8, n, MPI_INT, w);
            for (int i = 0; i < n * p && bad < 0 && (me == root || coll == VINE_COLL_ALLGATHER);
                 i++)
                bad = out8[i] != tv(k, i / n, i % n) ? i : -1;
            break;
        case VINE_COLL_SCATTER:
            rc = vine_scatter(in8, n, MPI_INT, out8, n, MPI_INT, root, w);
            for (int i = 0; i < n && bad < 0; i++)
                bad = out8[i] != tv(k, root, me * n + i) ? i : -1;
            break;
        default: /* alltoall: block q of rank r's input goes to rank q */
            rc = vine_alltoall(in8, n, MPI_INT, out8, n, MPI_INT, w);
            for (int i = 0; i < n * p && bad < 0; i++)
                bad = out8[i] != tv(k, i / n, me * n + i % n) ? i : -1;
            break;
        }
        if (rc != MPI_SUCCESS || bad >= 0) {
            mt_fail("tight loop call %d (%s, %d ints, root %d): rc %d, element %d wrong", k,
                    vine_coll_name(coll), n, root, rc, bad);
            return;
        }
    }
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "shm");
    const char *e = getenv("VINE_TEST_SHM_EXPECT");
    expect_shm = !(e && strcmp(e, "none") == 0);
    const char *nc = getenv("VINE_TEST_SHM_CALLS");
    int calls = nc ? atoi(nc) : 1000;
    mt_case setup = {"all", "shm", "-", "-", 0, -1, 0};
    mt_begin(&setup);
    for (int i = 0; i < NCOLLS; i++)
        if (vine_set_algorithm(colls[i], "shm") != MPI_SUCCESS)
            mt_fail("vine_set_algorithm(%s, shm) failed", vine_coll_name(colls[i]));

    int shm = -1, single = -1;
    char msg[256];
    if (vine_shm_info(MPI_COMM_WORLD, &shm, &single, msg, sizeof msg) != MPI_SUCCESS)
        mt_fail("vine_shm_info failed");
    if (mt_rank == 0)
        printf("shared memory: %s\n", msg);
    if (shm != 2 * expect_shm)
        mt_fail("vine_shm_info says shm=%d (%s), expected %d", shm, msg, 2 * expect_shm);

    /* Up to 3 blocks of max_n ints per rank (with VINE_SHM_BYTES=4KiB well past
     * the region), or one of scatter's big blocks. */
    size_t max_n = 3000;
    size_t cap = (BIG + 1000) * (size_t)mt_size + 64;
    in = malloc(cap * sizeof(int));
    out = malloc(cap * sizeof(int));
    want = malloc(cap * sizeof(int));
    if (!in || !out || !want)
        mt_fail("out of memory");

    MPI_Comm a, b;
    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    /* The same ranks in reverse order: other roots, other neighbours. */
    MPI_Comm_split(MPI_COMM_WORLD, 0, mt_size - mt_rank, &b);
    for (int k = 0; in && k < calls; k++) {
        one(k % 2 ? b : a, max_n, k % 2 ? "reversed communicator" : "duplicate of world");
        if (k % 7 == 0)
            ring(k % 2 ? a : b);
        /* Free and make again now and then: the new segment starts over. */
        if (k % 250 == 249) {
            MPI_Comm_free(&b);
            MPI_Comm_split(MPI_COMM_WORLD, 0, mt_size - mt_rank, &b);
        }
    }
    tight(a, calls);
    tight(b, calls);
    MPI_Comm_free(&a);
    MPI_Comm_free(&b);
    free(in);
    free(out);
    free(want);
    return mt_finish();
}
