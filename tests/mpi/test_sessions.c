/*
 * MPI tier: a program of the MPI 4 sessions model alone (docs/api.md,
 * "Sessions").  It never calls MPI_Init: MPI_Session_init, a communicator
 * from the group of "mpi://WORLD" (MPI_Comm_create_from_group) and one split
 * from it, the ranks reversed.  Such a program has neither MPI_COMM_WORLD nor
 * MPI_COMM_SELF, and MPICH aborts on any use of them; vine used both (error
 * handlers swapped around a question to MPI_Reduce_local, MPI_TAG_UB, the
 * hook that frees its states at MPI_Finalize, who speaks under VINE_VERBOSE)
 * and the first collective aborted the program.
 *
 * Linked with -lvine-mpi, so that every MPI_<Coll> below is vine's; each
 * result is compared with the MPI library's PMPI_<Coll> on the same input:
 * the ten collectives at several counts, in place where MPI allows it, a
 * non-commutative user op on a derived type, predefined ops on the types the
 * standard gives them (and MPI_BAND on doubles, which both must refuse with
 * MPI_ERR_OP through the communicator's handler, not abort), nonblocking
 * calls completed by MPI_Waitall, persistent ones started three times with
 * new data, and MPI_Start of an active one, an error returned (there is no
 * MPI_COMM_WORLD to report it to).  Then vine_allreduce with algorithms
 * forced, the communicators freed and MPI_Session_finalize, which must
 * succeed.  Run also with VINE_VERBOSE, VINE_PROGRESS_THREAD=1 (refused:
 * nothing would join the thread) and pretend hosts.
 */
#include "vine.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int me, fails;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "sessions rank %d: ", me);                                             \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
            fails++;                                                                               \
        }                                                                                          \
    } while (0)

static void ok(int rc, const char *what)
{
    CHECK(rc == MPI_SUCCESS, "%s returned %d", what, rc);
}

static void same(const int *got, const int *want, size_t n, const char *what, int count)
{
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i]) {
            CHECK(0, "%s count %d: element %zu is %d, the MPI library's %d", what, count, i, got[i],
                  want[i]);
            return;
        }
}

static int *ints(size_t n, int seed)
{
    int *v = malloc((n ? n : 1) * sizeof *v);
    if (!v) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    for (size_t i = 0; i < n; i++)
        v[i] = seed + (int)(i * 7 % 1013) - 300;
    return v;
}

/* The ten collectives on comm, count elements a block, against PMPI_. */
static void ten(MPI_Comm comm, int count)
{
    int r, p;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &p);
    size_t n = (size_t)count, np = n * (size_t)p;
    int root = p - 1 - count % p;
    int *in = ints(np, r * 31), *a = ints(np, -1), *b = ints(np, -1);
    int *rc = malloc((size_t)p * sizeof *rc);
    for (int i = 0; i < p; i++)
        rc[i] = count + i % 3;
    size_t nrs = 0;
    for (int i = 0; i < p; i++)
        nrs += (size_t)rc[i];

    ok(MPI_Allreduce(in, a, count, MPI_INT, MPI_SUM, comm), "MPI_Allreduce");
    PMPI_Allreduce(in, b, count, MPI_INT, MPI_SUM, comm);
    same(a, b, n, "allreduce", count);

    memcpy(a, in, n * sizeof *a);
    memcpy(b, in, n * sizeof *b);
    ok(MPI_Bcast(a, count, MPI_INT, root, comm), "MPI_Bcast");
    PMPI_Bcast(b, count, MPI_INT, root, comm);
    same(a, b, n, "bcast", count);

    ok(MPI_Reduce(in, a, count, MPI_INT, MPI_MAX, root, comm), "MPI_Reduce");
    PMPI_Reduce(in, b, count, MPI_INT, MPI_MAX, root, comm);
    if (r == root)
        same(a, b, n, "reduce", count);

    ok(MPI_Allgather(in, count, MPI_INT, a, count, MPI_INT, comm), "MPI_Allgather");
    PMPI_Allgather(in, count, MPI_INT, b, count, MPI_INT, comm);
    same(a, b, np, "allgather", count);

    ok(MPI_Alltoall(in, count, MPI_INT, a, count, MPI_INT, comm), "MPI_Alltoall");
    PMPI_Alltoall(in, count, MPI_INT, b, count, MPI_INT, comm);
    same(a, b, np, "alltoall", count);

    memcpy(a, in, np * sizeof *a);
    memcpy(b, in, np * sizeof *b);
    ok(MPI_Alltoall(MPI_IN_PLACE, count, MPI_INT, a, count, MPI_INT, comm), "MPI_Alltoall");
    PMPI_Alltoall(MPI_IN_PLACE, count, MPI_INT, b, count, MPI_INT, comm);
    same(a, b, np, "alltoall in place", count);

    ok(MPI_Reduce_scatter_block(in, a, count, MPI_INT, MPI_SUM, comm), "MPI_Reduce_scatter_block");
    PMPI_Reduce_scatter_block(in, b, count, MPI_INT, MPI_SUM, comm);
    same(a, b, n, "reduce_scatter_block", count);

    int *big = ints(nrs, r), *c = ints(nrs, -1), *d = ints(nrs, -1);
    ok(MPI_Reduce_scatter(big, c, rc, MPI_INT, MPI_SUM, comm), "MPI_Reduce_scatter");
    PMPI_Reduce_scatter(big, d, rc, MPI_INT, MPI_SUM, comm);
    same(c, d, (size_t)rc[r], "reduce_scatter", count);

    ok(MPI_Gather(in, count, MPI_INT, a, count, MPI_INT, root, comm), "MPI_Gather");
    PMPI_Gather(in, count, MPI_INT, b, count, MPI_INT, root, comm);
    if (r == root)
        same(a, b, np, "gather", count);

    ok(MPI_Scatter(in, count, MPI_INT, a, count, MPI_INT, root, comm), "MPI_Scatter");
    PMPI_Scatter(in, count, MPI_INT, b, count, MPI_INT, root, comm);
    same(a, b, n, "scatter", count);

    ok(MPI_Barrier(comm), "MPI_Barrier");
    free(big);
    free(c);
    free(d);
    free(rc);
    free(in);
    free(a);
    free(b);
}

/* x -> m x + c on pairs (m, c) of unsigned ints: composition is
 * associative, not commutative; inout = in after inout. */
static void affine(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    unsigned *x = in, *y = inout;
    for (int i = 0; i < *len; i++, x += 2, y += 2) {
        unsigned m = x[0] * y[0], c = x[0] * y[1] + x[1];
        y[0] = m;
        y[1] = c;
    }
}

static void user_op(MPI_Comm comm)
{
    int r;
    MPI_Comm_rank(comm, &r);
    MPI_Datatype pair;
    MPI_Op op;
    MPI_Type_contiguous(2, MPI_UNSIGNED, &pair);
    MPI_Type_commit(&pair);
    MPI_Op_create(affine, 0, &op);
    enum { N = 300 };
    unsigned in[2 * N], a[2 * N], b[2 * N];
    for (int i = 0; i < 2 * N; i++)
        in[i] = (unsigned)(r * 2654435761u + (unsigned)i * 40503u) | 1u;
    ok(MPI_Allreduce(in, a, N, pair, op, comm), "MPI_Allreduce (user op)");
    PMPI_Allreduce(in, b, N, pair, op, comm);
    same((int *)a, (int *)b, 2 * N, "allreduce, non-commutative op", N);
    MPI_Op_free(&op);
    MPI_Type_free(&pair);
}

/* Predefined ops on the types the standard gives them, and one it does not. */
static void predefined(MPI_Comm comm)
{
    int r;
    MPI_Comm_rank(comm, &r);
    int pin[4] = {r * 5 % 7, r, (r * 3) % 5, r}, pa[4], pb[4];
    ok(MPI_Allreduce(pin, pa, 2, MPI_2INT, MPI_MAXLOC, comm), "MPI_Allreduce MAXLOC");
    PMPI_Allreduce(pin, pb, 2, MPI_2INT, MPI_MAXLOC, comm);
    same(pa, pb, 4, "allreduce MPI_MAXLOC on MPI_2INT", 2);

    _Bool bin[3] = {r % 2, 1, r == 0}, ba[3], bb[3];
    ok(MPI_Allreduce(bin, ba, 3, MPI_C_BOOL, MPI_LOR, comm), "MPI_Allreduce LOR");
    PMPI_Allreduce(bin, bb, 3, MPI_C_BOOL, MPI_LOR, comm);
    for (int i = 0; i < 3; i++)
        CHECK(ba[i] == bb[i], "allreduce MPI_LOR on MPI_C_BOOL: element %d differs", i);

    unsigned char cin[5] = {(unsigned char)(1u << (r % 8)), 3, 5, 7, (unsigned char)r}, ca[5],
                  cb[5];
    ok(MPI_Allreduce(cin, ca, 5, MPI_BYTE, MPI_BOR, comm), "MPI_Allreduce BOR");
    PMPI_Allreduce(cin, cb, 5, MPI_BYTE, MPI_BOR, comm);
    CHECK(memcmp(ca, cb, sizeof ca) == 0, "allreduce MPI_BOR on MPI_BYTE differs");

    double din[2] = {1.5 * r, -2.0}, da[2], db[2];
    ok(MPI_Allreduce(din, da, 2, MPI_DOUBLE, MPI_MIN, comm), "MPI_Allreduce MIN");
    PMPI_Allreduce(din, db, 2, MPI_DOUBLE, MPI_MIN, comm);
    CHECK(da[0] == db[0] && da[1] == db[1], "allreduce MPI_MIN on MPI_DOUBLE differs");

    /* Refused: the communicator's handler returns the error. */
    int got = MPI_Allreduce(din, da, 2, MPI_DOUBLE, MPI_BAND, comm), cls = -1;
    MPI_Error_class(got, &cls);
    CHECK(cls == MPI_ERR_OP, "MPI_Allreduce of doubles with MPI_BAND: class %d, want %d", cls,
          MPI_ERR_OP);
}

static void nonblocking(MPI_Comm comm)
{
    int r, p;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &p);
    enum { N = 1000 };
    int *in = ints((size_t)N * (size_t)p, r), *a = ints(N, -1), *b = ints(N, -1);
    int *c = ints((size_t)N * (size_t)p, -1), *d = ints((size_t)N * (size_t)p, -1);
    int *e = ints(N, r == 0 ? 9 : -1), *f = ints(N, r == 0 ? 9 : -1);
    MPI_Request q[3];
    MPI_Status st[3]; /* not MPI_STATUSES_IGNORE: GCC 12 warns on MPICH's */
    ok(MPI_Iallreduce(in, a, N, MPI_INT, MPI_SUM, comm, &q[0]), "MPI_Iallreduce");
    ok(MPI_Ialltoall(in, N, MPI_INT, c, N, MPI_INT, comm, &q[1]), "MPI_Ialltoall");
    ok(MPI_Ibcast(e, N, MPI_INT, 0, comm, &q[2]), "MPI_Ibcast");
    ok(MPI_Waitall(3, q, st), "MPI_Waitall");
    PMPI_Allreduce(in, b, N, MPI_INT, MPI_SUM, comm);
    PMPI_Alltoall(in, N, MPI_INT, d, N, MPI_INT, comm);
    PMPI_Bcast(f, N, MPI_INT, 0, comm);
    same(a, b, N, "iallreduce", N);
    same(c, d, (size_t)N * (size_t)p, "ialltoall", N);
    same(e, f, N, "ibcast", N);

    /* Persistent, three starts with new data each time. */
    MPI_Request pr;
    ok(MPI_Allreduce_init(in, a, N, MPI_INT, MPI_MAX, comm, MPI_INFO_NULL, &pr),
       "MPI_Allreduce_init");
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < N; i++)
            in[i] = (i * 13 + r * 101 + round * 7) % 977;
        ok(MPI_Start(&pr), "MPI_Start");
        if (round == 1) {
            /* Active: an error returned, no handler to call. */
            int got = MPI_Start(&pr), cls = -1;
            MPI_Error_class(got, &cls);
            CHECK(cls == MPI_ERR_REQUEST, "MPI_Start of an active request: class %d, want %d", cls,
                  MPI_ERR_REQUEST);
        }
        ok(MPI_Wait(&pr, MPI_STATUS_IGNORE), "MPI_Wait");
        PMPI_Allreduce(in, b, N, MPI_INT, MPI_MAX, comm);
        same(a, b, N, "persistent allreduce", round);
    }
    ok(MPI_Request_free(&pr), "MPI_Request_free");
    free(in);
    free(a);
    free(b);
    free(c);
    free(d);
    free(e);
    free(f);
}

/* vine's own API, with algorithms forced. */
static void forced(MPI_Comm comm)
{
    static const char *algos[] = {"ring", "recursive_doubling", "bine", "shm", "auto"};
    int r;
    MPI_Comm_rank(comm, &r);
    enum { N = 777 };
    int *in = ints(N, r * 3), *a = ints(N, -1), *b = ints(N, -1);
    PMPI_Allreduce(in, b, N, MPI_INT, MPI_SUM, comm);
    for (size_t k = 0; k < sizeof algos / sizeof algos[0]; k++) {
        ok(vine_set_algorithm(VINE_COLL_ALLREDUCE, algos[k]), algos[k]);
        ok(vine_allreduce(in, a, N, MPI_INT, MPI_SUM, comm), "vine_allreduce");
        same(a, b, N, algos[k], N);
    }
    ok(vine_set_algorithm(VINE_COLL_ALLREDUCE, "auto"), "auto");
    free(in);
    free(a);
    free(b);
}

int main(void)
{
    MPI_Session s;
    MPI_Group g;
    MPI_Comm world, half;
    if (MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s) != MPI_SUCCESS) {
        fprintf(stderr, "sessions: MPI_Session_init failed\n");
        return 1;
    }
    if (MPI_Group_from_session_pset(s, "mpi://WORLD", &g) != MPI_SUCCESS ||
        MPI_Comm_create_from_group(g, "vine.test_sessions", MPI_INFO_NULL, MPI_ERRORS_RETURN,
                                   &world) != MPI_SUCCESS) {
        fprintf(stderr, "sessions: no communicator from mpi://WORLD\n");
        return 1;
    }
    int init = 1;
    MPI_Initialized(&init);
    MPI_Comm_rank(world, &me);
    CHECK(!init, "MPI_Initialized says 1 in a program of sessions alone");
    int p;
    MPI_Comm_size(world, &p);
    MPI_Comm_split(world, me % 2, -me, &half);

    MPI_Comm comms[2] = {world, half};
    static const int counts[] = {0, 1, 5, 1000, 70000};
    for (int k = 0; k < 2; k++) {
        for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
            ten(comms[k], counts[i]);
        user_op(comms[k]);
        predefined(comms[k]);
        nonblocking(comms[k]);
        forced(comms[k]);
    }

    MPI_Comm_free(&half);
    MPI_Comm_free(&world);
    MPI_Group_free(&g);
    int rc = MPI_Session_finalize(&s);
    CHECK(rc == MPI_SUCCESS, "MPI_Session_finalize returned %d", rc);
    if (fails) {
        fprintf(stderr, "sessions rank %d: %d failures\n", me, fails);
        return 1;
    }
    if (me == 0)
        printf("sessions: %d ranks, every result equals the MPI library's\n", p);
    return 0;
}
