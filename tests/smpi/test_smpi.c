/*
 * SimGrid test: every algorithm of bcast, reduce, allreduce, allgather,
 * reduce_scatter_block, alltoall, gather, scatter and barrier, run through
 * vine's public API on the simulated ranks of smpirun (64 under ctest),
 * compared element for element with the result of the MPI library's own
 * collective (SMPI's) on the same input.
 *
 * A group is one (collective, datatype and op, count, root); its reference
 * result is computed once with the MPI collective, then every algorithm runs
 * on the same input, in place and not (where the collective has an in-place
 * form).  The counts are relative to p so that they cover 0, 1, fewer than
 * p, p, more than p and a prime; the roots are 0, 1, p/2 and p-1.  Data
 * values are small integers, so every association of a reduction gives the
 * same bits, even in floating point.
 *
 * A barrier has no data.  Its cases use simulated time instead, which SimGrid
 * advances causally: the "root" rank computes for one simulated second before
 * it enters, and the result of a case is whether every rank left after the
 * last one entered (the maximum entry time, taken after the barrier).  MPI's
 * own barrier must give the same answer, yes, or the case fails.
 *
 * Rank 0 prints one line per failing case and closes with
 * "smpi: N passed, M failed"; the exit status is non-zero on any failure, or
 * when an algorithm never ran itself (every call fell back to another one),
 * since then the test would have checked nothing of it; the shm algorithms,
 * which need a node segment that the SimGrid build lacks, are said skipped.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vine.h"

/* A datatype with the reduction op used on it. */
struct type_case {
    MPI_Datatype type;
    MPI_Op op;
    size_t size;
    const char *name;
};

/* One group of cases: its input, and the buffers of the two results. */
struct group {
    const struct type_case *t;
    int rank, p, count, root;
    size_t in_n, out_n; /* elements of the input and of the receive buffer */
    void *in, *ref, *mine;
};

/* Calls vine's collective (use_vine) or MPI's on g, with the result in out. */
typedef int (*call_fn)(int use_vine, const struct group *g, int inplace, void *out);

struct coll_entry {
    vine_coll coll;
    call_fn call;
    int rooted;
    int has_inplace;
    int in_per_rank;  /* the input has p * count elements */
    int out_per_rank; /* the receive buffer has p * count elements */
    int one_type;     /* int/sum only (see run_collective) */
    int no_data;      /* barrier: one type, one count */
};

struct tally {
    int passed, failed;
};

/*
 * The communicator of every collective: a duplicate of MPI_COMM_WORLD, freed
 * before MPI_Finalize, so that vine's cleanup of its per-communicator state
 * runs through the attribute's delete callback.  main() also makes one call
 * on MPI_COMM_WORLD, whose state is left for MPI_Finalize: SMPI rejects MPI
 * calls inside it, and vine must cope with that.
 */
static MPI_Comm comm = MPI_COMM_NULL;

static void *xcalloc(size_t n, size_t size)
{
    void *b = calloc(n ? n : 1, size);
    if (!b) {
        fprintf(stderr, "test_smpi: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return b;
}

/* Fills buf with small integers, different for each rank, element and salt. */
static void fill(const struct type_case *t, void *buf, size_t n, int rank, int salt)
{
    for (size_t i = 0; i < n; i++) {
        int v = (int)((rank * 131 + (long)i * 7 + salt * 17) % 97) - 48;
        if (t->type == MPI_DOUBLE)
            ((double *)buf)[i] = 0.5 * v;
        else
            ((int *)buf)[i] = v;
    }
}

static int call_bcast(int use_vine, const struct group *g, int inplace, void *out)
{
    (void)inplace;
    fill(g->t, out, (size_t)g->count, g->rank, g->rank == g->root ? 1 : 2);
    if (use_vine)
        return vine_bcast(out, g->count, g->t->type, g->root, comm);
    return MPI_Bcast(out, g->count, g->t->type, g->root, comm);
}

static int call_reduce(int use_vine, const struct group *g, int inplace, void *out)
{
    const void *send = g->in;
    if (inplace && g->rank == g->root) {
        memcpy(out, g->in, g->in_n * g->t->size);
        send = MPI_IN_PLACE;
    }
    if (use_vine)
        return vine_reduce(send, out, g->count, g->t->type, g->t->op, g->root, comm);
    return MPI_Reduce(send, out, g->count, g->t->type, g->t->op, g->root, comm);
}

static int call_allreduce(int use_vine, const struct group *g, int inplace, void *out)
{
    const void *send = g->in;
    if (inplace) {
        memcpy(out, g->in, g->in_n * g->t->size);
        send = MPI_IN_PLACE;
    }
    if (use_vine)
        return vine_allreduce(send, out, g->count, g->t->type, g->t->op, comm);
    return MPI_Allreduce(send, out, g->count, g->t->type, g->t->op, comm);
}

static int call_allgather(int use_vine, const struct group *g, int inplace, void *out)
{
    const void *send = g->in;
    if (inplace) {
        size_t n = (size_t)g->count * g->t->size;
        memcpy((char *)out + (size_t)g->rank * n, g->in, n);
        send = MPI_IN_PLACE;
    }
    if (use_vine)
        return vine_allgather(send, g->count, g->t->type, out, g->count, g->t->type, comm);
    return MPI_Allgather(send, g->count, g->t->type, out, g->count, g->t->type, comm);
}

static int call_reduce_scatter_block(int use_vine, const struct group *g, int inplace, void *out)
{
    const void *send = g->in;
    if (inplace) {
        memcpy(out, g->in, g->in_n * g->t->size);
        send = MPI_IN_PLACE;
    }
    if (use_vine)
        return vine_reduce_scatter_block(send, out, g->count, g->t->type, g->t->op, comm);
    return MPI_Reduce_scatter_block(send, out, g->count, g->t->type, g->t->op, comm);
}

/* In place: the input is copied into the receive buffer, which vine works on. */
static int call_alltoall(int use_vine, const struct group *g, int inplace, void *out)
{
    const void *send = g->in;
    if (inplace) {
        memcpy(out, g->in, g->in_n * g->t->size);
        send = MPI_IN_PLACE;
    }
    if (use_vine)
        return vine_alltoall(send, g->count, g->t->type, out, g->count, g->t->type, comm);
    return MPI_Alltoall(send, g->count, g->t->type, out, g->count, g->t->type, comm);
}

static int call_gather(int use_vine, const struct group *g, int inplace, void *out)
{
    const void *send = g->in;
    if (inplace && g->rank == g->root) {
        size_t n = (size_t)g->count * g->t->size;
        memcpy((char *)out + (size_t)g->root * n, g->in, n);
        send = MPI_IN_PLACE;
    }
    if (use_vine)
        return vine_gather(send, g->count, g->t->type, out, g->count, g->t->type, g->root, comm);
    return MPI_Gather(send, g->count, g->t->type, out, g->count, g->t->type, g->root, comm);
}

/* In place at the root, its own block stays in the send buffer: nothing to compare there. */
static int call_scatter(int use_vine, const struct group *g, int inplace, void *out)
{
    void *recv = inplace && g->rank == g->root ? MPI_IN_PLACE : out;
    if (use_vine)
        return vine_scatter(g->in, g->count, g->t->type, recv, g->count, g->t->type, g->root, comm);
    return MPI_Scatter(g->in, g->count, g->t->type, recv, g->count, g->t->type, g->root, comm);
}

/*
 * The rank g->root enters last, one simulated second late; out[0] (an int)
 * becomes 1 when this rank left the barrier no earlier than the last entry.
 */
static int call_barrier(int use_vine, const struct group *g, int inplace, void *out)
{
    (void)inplace;
    if (g->rank == g->root)
        smpi_execute(1.0);
    double enter = MPI_Wtime();
    int rc = use_vine ? vine_barrier(comm) : MPI_Barrier(comm);
    double leave = MPI_Wtime(), last_enter;
    MPI_Allreduce(&enter, &last_enter, 1, MPI_DOUBLE, MPI_MAX, comm);
    *(int *)out = leave >= last_enter;
    return rc;
}

static const struct coll_entry colls[] = {
    {VINE_COLL_ALLREDUCE, call_allreduce, 0, 1, 0, 0, 0, 0},
    {VINE_COLL_BCAST, call_bcast, 1, 0, 0, 0, 0, 0},
    {VINE_COLL_REDUCE, call_reduce, 1, 1, 0, 0, 0, 0},
    {VINE_COLL_ALLGATHER, call_allgather, 0, 1, 0, 1, 0, 0},
    {VINE_COLL_REDUCE_SCATTER_BLOCK, call_reduce_scatter_block, 0, 1, 1, 0, 0, 0},
    {VINE_COLL_ALLTOALL, call_alltoall, 0, 1, 1, 1, 1, 0},
    {VINE_COLL_GATHER, call_gather, 1, 1, 0, 1, 0, 0},
    {VINE_COLL_SCATTER, call_scatter, 1, 1, 1, 0, 0, 0},
    {VINE_COLL_BARRIER, call_barrier, 1, 0, 0, 0, 1, 1},
};

/* The elements of the receive buffer that hold the result on this rank. */
static size_t result_len(const struct coll_entry *e, const struct group *g, int inplace)
{
    int at_root = g->rank == g->root;
    switch (e->coll) {
    case VINE_COLL_REDUCE:
        return at_root ? (size_t)g->count : 0;
    case VINE_COLL_ALLGATHER:
    case VINE_COLL_ALLTOALL:
        return g->out_n;
    case VINE_COLL_GATHER:
        return at_root ? g->out_n : 0;
    case VINE_COLL_SCATTER:
        return at_root && inplace ? 0 : (size_t)g->count;
    case VINE_COLL_BARRIER:
        return 1; /* the flag of call_barrier */
    default:
        return (size_t)g->count;
    }
}

/* Runs one algorithm on g; returns 1 when its result differs or it failed. */
static int run_vine(const struct coll_entry *e, const struct group *g, int inplace,
                    const char *algo, int *ran_self)
{
    /* Poison the receive buffer so a result left by an earlier run cannot pass. */
    memset(g->mine, 0xa5, (g->out_n ? g->out_n : 1) * g->t->size);
    int rc = e->call(1, g, inplace, g->mine);
    const char *served = vine_last_algorithm(e->coll);
    if ((g->count > 0 || e->no_data) && served && strcmp(served, algo) == 0)
        *ran_self = 1;
    size_t n = result_len(e, g, inplace);
    return rc != MPI_SUCCESS || (n > 0 && memcmp(g->mine, g->ref, n * g->t->size) != 0);
}

/* Counts the cases of one group (at rank 0), naming the failing ones. */
static void tally_group(const struct coll_entry *e, const struct group *g, const int *bad,
                        int nalgos, struct tally *tally)
{
    for (int a = 0; a < nalgos; a++)
        for (int inplace = 0; inplace <= e->has_inplace; inplace++) {
            if (!bad[2 * a + inplace]) {
                tally->passed++;
                continue;
            }
            tally->failed++;
            printf("FAIL %s/%s type=%s count=%d root=%d inplace=%d\n", vine_coll_name(e->coll),
                   vine_algorithm_name(e->coll, a), g->t->name, g->count, g->root, inplace);
        }
}

/* Every algorithm, in place and not, on one group. */
static void run_group(const struct coll_entry *e, struct group *g, int *ran_self,
                      struct tally *tally)
{
    int nalgos = vine_algorithm_count(e->coll);
    int *bad = xcalloc(2 * (size_t)nalgos, sizeof(int));
    size_t out_alloc = g->out_n ? g->out_n : 1;
    g->in = xcalloc(g->in_n, g->t->size);
    g->ref = xcalloc(out_alloc, g->t->size);
    g->mine = xcalloc(out_alloc, g->t->size);
    fill(g->t, g->in, g->in_n, g->rank, 0);
    if (e->call(0, g, 0, g->ref) != MPI_SUCCESS)
        bad[0] = 1;
    /* MPI's barrier must pass its own check, or the barrier cases prove nothing. */
    if (e->no_data && *(int *)g->ref != 1)
        bad[0] = 1;
    for (int a = 0; a < nalgos; a++) {
        const char *algo = vine_algorithm_name(e->coll, a);
        if (vine_set_algorithm(e->coll, algo) != MPI_SUCCESS) {
            bad[2 * a] = bad[2 * a + 1] = 1;
            continue;
        }
        for (int inplace = 0; inplace <= e->has_inplace; inplace++)
            bad[2 * a + inplace] |= run_vine(e, g, inplace, algo, &ran_self[a]);
    }
    MPI_Allreduce(MPI_IN_PLACE, bad, 2 * nalgos, MPI_INT, MPI_MAX, comm);
    if (g->rank == 0)
        tally_group(e, g, bad, nalgos, tally);
    free(bad);
    free(g->in);
    free(g->ref);
    free(g->mine);
}

/* Every group of one collective; returns the number of algorithms that never ran. */
static int run_collective(const struct coll_entry *e, int rank, int p, struct tally *tally)
{
    static const struct type_case types[] = {
        {MPI_INT, MPI_SUM, sizeof(int), "int/sum"},
        {MPI_DOUBLE, MPI_MAX, sizeof(double), "double/max"},
    };
    const int counts[] = {0, 1, p - 1, p, p + 1, 1000, 4099};
    const int roots[] = {0, 1, p / 2, p - 1};
    int nroots = e->rooted ? (int)(sizeof roots / sizeof roots[0]) : 1;
    /*
     * alltoall sends p^2 messages per call, which makes it by far the dearest
     * collective to simulate; it moves bytes, so the second type would run the
     * same schedules again and is left out.
     */
    size_t ntypes = e->one_type ? 1 : sizeof types / sizeof types[0];
    size_t ncounts = e->no_data ? 1 : sizeof counts / sizeof counts[0];
    int nalgos = vine_algorithm_count(e->coll);
    int *ran_self = xcalloc((size_t)nalgos, sizeof(int));
    for (size_t ti = 0; ti < ntypes; ti++)
        for (size_t ci = 0; ci < ncounts; ci++)
            for (int ri = 0; ri < nroots; ri++) {
                size_t n = (size_t)counts[ci], pn = n * (size_t)p;
                struct group g = {.t = &types[ti], .rank = rank, .p = p};
                g.count = counts[ci];
                g.root = roots[ri] % p;
                g.in_n = e->in_per_rank ? pn : n;
                g.out_n = e->out_per_rank || e->in_per_rank ? pn : n;
                run_group(e, &g, ran_self, tally);
            }
    MPI_Allreduce(MPI_IN_PLACE, ran_self, nalgos, MPI_INT, MPI_MAX, comm);
    /* The SimGrid build has no node segment (docs/shm.md): the algorithms that
     * need one, as their restrictions say, fall back by design. */
    int shm = 0;
    vine_shm_info(comm, &shm, NULL, NULL, 0);
    int never_ran = 0;
    for (int a = 0; a < nalgos; a++) {
        if (ran_self[a])
            continue;
        if (!shm && strstr(vine_algorithm_restrictions(e->coll, a), "segment")) {
            if (rank == 0)
                printf("skip %s/%s: no shared-memory segment under SimGrid\n",
                       vine_coll_name(e->coll), vine_algorithm_name(e->coll, a));
            continue;
        }
        never_ran++;
        if (rank == 0)
            printf("FAIL %s/%s never ran: every call fell back to another algorithm\n",
                   vine_coll_name(e->coll), vine_algorithm_name(e->coll, a));
    }
    vine_set_algorithm(e->coll, NULL);
    free(ran_self);
    return never_ran;
}

/* Whether name is on the comma-separated list (every name when list is NULL or empty). */
static int listed(const char *list, const char *name)
{
    size_t n = strlen(name);
    if (!list || !*list)
        return 1;
    for (const char *q = list; q; q = strchr(q, ',') ? strchr(q, ',') + 1 : NULL)
        if (strncmp(q, name, n) == 0 && (q[n] == ',' || q[n] == '\0'))
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    /* Line buffering keeps what was printed if a rank crashes. */
    setvbuf(stdout, NULL, _IOLBF, 0);
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    int rank, p;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &p);
    struct tally tally = {0, 0};
    int never_ran = 0;
    /* VINE_TEST_COLLS: a comma-separated list of the collectives to run (all when unset),
     * so that ctest can run the list in parts side by side. */
    const char *only = getenv("VINE_TEST_COLLS");
    int ran = 0;
    for (size_t i = 0; i < sizeof colls / sizeof colls[0]; i++)
        if (listed(only, vine_coll_name(colls[i].coll))) {
            never_ran += run_collective(&colls[i], rank, p, &tally);
            ran++;
        }
    /* Every name on the list must be one of the collectives: a misspelt one would run nothing. */
    for (const char *q = only && *only ? only : NULL; q;
         q = strchr(q, ',') ? strchr(q, ',') + 1 : NULL)
        ran -= 1;
    if (only && *only && ran != 0) {
        if (rank == 0)
            printf("FAIL VINE_TEST_COLLS=%s names %s collective\n", only,
                   ran < 0 ? "an unknown or repeated" : "fewer than the run");
        never_ran++;
    }
    if (rank == 0)
        printf("smpi: %d passed, %d failed\n", tally.passed, tally.failed + never_ran);
    int status = tally.failed + never_ran > 0, worst = 1;
    MPI_Comm_free(&comm);
    if (vine_allreduce(&status, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD) != MPI_SUCCESS) {
        printf("FAIL vine_allreduce on MPI_COMM_WORLD returned an error\n");
        status = 1;
    } else {
        status = worst;
    }
    MPI_Finalize();
    return status;
}
