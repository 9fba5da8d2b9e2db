/*
 * MPI test of the levels inside the node (issue 18; src/api/levels_hwloc.c,
 * src/coll/levels_inner.c): what vine__levels_discover_all and
 * vine_topology_info find on MPI_COMM_WORLD and two split communicators,
 * against the levels this program is told to expect, and the collectives
 * that run on them against the MPI library's.
 *
 * hwloc reads a pretend machine (HWLOC_SYNTHETIC), the ranks pretend to be
 * bound in it (VINE_TOPOLOGY_FAKE_BIND) and may live on pretend hosts
 * (VINE_TOPOLOGY_FAKE_HOSTS=block:K; else all on this machine's node).
 * VINE_TEST_INNER says what to expect on MPI_COMM_WORLD:
 *
 *   none             no level inside the nodes
 *   G/G/...          the levels inside the nodes, finest first, each G the
 *                    groups of world ranks 0, 1, ... (comma-separated ids)
 *   error:TEXT       discovery fails on every rank with a message holding
 *                    TEXT, and so do vine_topology_info and the collectives
 *
 * On a split communicator the expected levels are those restricted to its
 * ranks, less the ones that become the nodes or single ranks there, or the
 * same groups as a finer one.  VINE_TEST_INNER_TEXT, when set, holds
 * pieces separated by '|' that must all be in the discovery message on
 * MPI_COMM_WORLD, or, starting with '!', must not (no ';': CTest would
 * split the setting there).
 *
 * Then, on MPI_COMM_WORLD and on every other rank: bcast, reduce, allreduce,
 * gather, scatter and allgather with the hierarchical algorithms, allreduce
 * hier_shm and the shm family forced, against MPI, every root, counts 0, 1
 * and 1000.
 * An algorithm serves exactly when its restrictions admit the call on these
 * maps; the ones that run on any number of levels must be admitted whenever
 * there are levels inside the nodes.
 *
 * Rank 0 prints "node levels: N passed, M failed"; non-zero exit on failure.
 */
#include "api/levels_mpi.h"
#include "coll/coll.h"
#include "coll/levels.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vine.h>

static int passed, failed, wrank, wsize;

#include "expect.h"

/* The expected levels of MPI_COMM_WORLD: nwant levels of wsize ids. */
static int want[VINE_LEVELS_MAX][64], nwant;

static void parse_expected(void)
{
    const char *s = getenv("VINE_TEST_INNER");
    if (!s || strcmp(s, "none") == 0)
        return;
    while (*s && nwant < VINE_LEVELS_MAX) {
        for (int r = 0; r < wsize; r++) {
            char *end;
            want[nwant][r] = (int)strtol(s, &end, 10);
            if (end == s || r >= 64) {
                printf("VINE_TEST_INNER: expected %d ids per level\n", wsize);
                MPI_Abort(MPI_COMM_WORLD, 2);
            }
            s = end + (*end == ',' && r + 1 < wsize);
        }
        nwant++;
        if (*s == '/')
            s++;
    }
}

/* Whether a and b (n ids each) group the ranks alike; *ng gets a's group count. */
static int same_groups(const int *a, const int *b, int n, int *ng)
{
    int same = 1, count = 0;
    for (int i = 0; i < n; i++) {
        int first = 1;
        for (int j = 0; j < i; j++) {
            if (a[j] == a[i])
                first = 0;
            if ((a[j] == a[i]) != (b[j] == b[i]))
                same = 0;
        }
        count += first;
    }
    *ng = count;
    return same;
}

/*
 * The expected levels of comm (world ranks wr[0 .. p-1]) into lv: the world
 * levels restricted, less those that are the nodes, single ranks, or a
 * finer level's groups.  node holds comm's node of each rank.
 */
static int expected(const int *wr, int p, const int *node, int lv[][64])
{
    int n = 0, nnodes, ng;
    same_groups(node, node, p, &nnodes);
    for (int l = 0; l < nwant; l++) {
        for (int r = 0; r < p; r++)
            lv[n][r] = want[l][wr[r]];
        same_groups(lv[n], lv[n], p, &ng);
        int dup = ng == nnodes || ng == p;
        for (int k = 0; k < n && !dup; k++) {
            int g2;
            dup = same_groups(lv[n], lv[k], p, &g2);
        }
        n += !dup;
    }
    return n;
}

static void check_map(MPI_Comm comm, const char *what)
{
    int p, rank;
    MPI_Comm_size(comm, &p);
    MPI_Comm_rank(comm, &rank);
    int *wr = malloc((size_t)p * sizeof *wr), lv[VINE_LEVELS_MAX][64];
    MPI_Allgather(&wrank, 1, MPI_INT, wr, 1, MPI_INT, comm);
    vine_levels m, full;
    char msg[512], info[512];
    int rc = vine__levels_discover_all(comm, &m, &full, msg, sizeof msg);
    EXPECT(rc == MPI_SUCCESS, "%s: rc %d: %s", what, rc, msg);
    if (rc != MPI_SUCCESS || p > 64) {
        free(wr);
        return;
    }
    int n = expected(wr, p, m.group, lv);
    int got = full.group ? full.node : 0;
    EXPECT(got == n, "%s: %d levels inside the nodes, expected %d (%s)", what, got, n, msg);
    if (full.group) {
        int ng, nodes_same = same_groups(full.group + (size_t)full.node * p, m.group, p, &ng);
        EXPECT(nodes_same && full.nlevels == full.node + m.nlevels,
               "%s: the full map's node level %d is not the node map's (%d + %d levels)", what,
               full.node, full.node, m.nlevels);
        for (int l = 0; l < got && l < n; l++)
            EXPECT(same_groups(full.group + (size_t)l * p, lv[l], p, &ng),
                   "%s: level %d inside the nodes differs", what, l);
    }
    const char *text = getenv("VINE_TEST_INNER_TEXT");
    for (const char *t = text; t && comm == MPI_COMM_WORLD;) {
        size_t n = strcspn(t, "|");
        char piece[256];
        snprintf(piece, sizeof piece, "%.*s", (int)n, t);
        if (piece[0] == '!')
            EXPECT(strstr(msg, piece + 1) == NULL, "%s: message \"%s\" holds \"%s\"", what, msg,
                   piece + 1);
        else
            EXPECT(strstr(msg, piece) != NULL, "%s: message \"%s\" lacks \"%s\"", what, msg, piece);
        t = t[n] ? t + n + 1 : NULL;
    }
    int nl = -1;
    rc = vine_topology_info(comm, &nl, info, (int)sizeof info);
    int dividing = vine__levels_dividing(full.group ? &full : &m);
    EXPECT(rc == MPI_SUCCESS && nl == dividing && strcmp(info, msg) == 0,
           "%s: vine_topology_info rc %d, %d levels (want %d), \"%s\"", what, rc, nl, dividing,
           info);
    vine__levels_free(&m);
    vine__levels_free(&full);
    free(wr);
}

/* ---- collectives against MPI ---------------------------------------------- */

typedef struct algo_case {
    vine_coll coll;
    const char *algo;
} algo_case;

static const algo_case cases[] = {
    {VINE_COLL_BCAST, "hier"},          {VINE_COLL_BCAST, "hier_large"},
    {VINE_COLL_BCAST, "shm"},           {VINE_COLL_REDUCE, "hier"},
    {VINE_COLL_REDUCE, "hier_large"},   {VINE_COLL_REDUCE, "shm"},
    {VINE_COLL_ALLREDUCE, "hier"},      {VINE_COLL_ALLREDUCE, "hier_large"},
    {VINE_COLL_ALLREDUCE, "hier_shm"},  {VINE_COLL_ALLREDUCE, "shm"},
    {VINE_COLL_GATHER, "leader"},       {VINE_COLL_GATHER, "leader_bine"},
    {VINE_COLL_GATHER, "shm"},          {VINE_COLL_SCATTER, "leader"},
    {VINE_COLL_SCATTER, "leader_bine"}, {VINE_COLL_SCATTER, "shm"},
    {VINE_COLL_ALLGATHER, "hier"},      {VINE_COLL_ALLGATHER, "shm"},
    {VINE_COLL_ALLGATHER, "auto"},      {VINE_COLL_ALLREDUCE, "auto"},
};

/* Runs one call through vine (use_vine) or MPI; returns vine's or MPI's code. */
static int call(vine_coll c, int use_vine, MPI_Comm comm, int root, int n, const int *in, int *out)
{
    int p;
    MPI_Comm_size(comm, &p);
    switch (c) {
    case VINE_COLL_BCAST:
        return use_vine ? vine_bcast(out, n, MPI_INT, root, comm)
                        : MPI_Bcast(out, n, MPI_INT, root, comm);
    case VINE_COLL_REDUCE:
        return use_vine ? vine_reduce(in, out, n, MPI_INT, MPI_SUM, root, comm)
                        : MPI_Reduce(in, out, n, MPI_INT, MPI_SUM, root, comm);
    case VINE_COLL_ALLREDUCE:
        return use_vine ? vine_allreduce(in, out, n, MPI_INT, MPI_SUM, comm)
                        : MPI_Allreduce(in, out, n, MPI_INT, MPI_SUM, comm);
    case VINE_COLL_GATHER:
        return use_vine ? vine_gather(in, n, MPI_INT, out, n, MPI_INT, root, comm)
                        : MPI_Gather(in, n, MPI_INT, out, n, MPI_INT, root, comm);
    case VINE_COLL_SCATTER:
        return use_vine ? vine_scatter(in, n, MPI_INT, out, n, MPI_INT, root, comm)
                        : MPI_Scatter(in, n, MPI_INT, out, n, MPI_INT, root, comm);
    case VINE_COLL_ALLGATHER:
        return use_vine ? vine_allgather(in, n, MPI_INT, out, n, MPI_INT, comm)
                        : MPI_Allgather(in, n, MPI_INT, out, n, MPI_INT, comm);
    default:
        return MPI_ERR_ARG;
    }
}

/* Whether algo admits the call on comm's maps (as the API layer makes its arguments). */
static int admitted(const algo_case *k, MPI_Comm comm, const vine_levels *m,
                    const vine_levels *full)
{
    int p, rank, shm = 0;
    MPI_Comm_size(comm, &p);
    MPI_Comm_rank(comm, &rank);
    vine_shm_info(comm, &shm, NULL, NULL, 0);
    const vine_algo *a = vine__algo_find(k->coll, k->algo);
    vine_args args = {.coll = k->coll,
                      .p = p,
                      .rank = rank,
                      .commutative = 1,
                      .levels = m,
                      .levels_full = full->group ? full : NULL,
                      .shm_count = shm == 2,
                      .shm_node_count = shm != 0};
    int ok = a && vine__algo_admits(a, &args) == VINE_OK;
    if (a && full->group && (a->flags & VINE_ALGO_LEVELS_ANY))
        EXPECT(ok, "%s %s is not admitted on levels inside the nodes", vine_coll_name(k->coll),
               k->algo);
    return ok;
}

static void run_case(const algo_case *k, MPI_Comm comm, const char *what, int ok)
{
    static const int counts[] = {0, 1, 1000};
    int p, rank;
    MPI_Comm_size(comm, &p);
    MPI_Comm_rank(comm, &rank);
    int rooted = k->coll == VINE_COLL_BCAST || k->coll == VINE_COLL_REDUCE ||
                 k->coll == VINE_COLL_GATHER || k->coll == VINE_COLL_SCATTER;
    size_t cap = 1000 * (size_t)p;
    int *in = malloc(cap * sizeof *in), *got = malloc(cap * sizeof *got);
    int *ref = malloc(cap * sizeof *ref);
    vine_set_algorithm(k->coll, k->algo);
    /* Roots 0, 1, p/2 and p-1 (every root up to 4 ranks): the first and second rank of a
     * group and others in other groups; vine verify sweeps every root. */
    int roots[4] = {0, 1, p / 2, p - 1}, nroots = rooted ? (p < 4 ? p : 4) : 1;
    for (size_t ci = 0; ci < sizeof counts / sizeof *counts; ci++)
        for (int ri = 0; ri < nroots; ri++) {
            int n = counts[ci], root = p <= 4 ? ri : roots[ri];
            for (size_t i = 0; i < cap; i++)
                in[i] = (int)((unsigned)(wrank + 1) * 2654435761u + (unsigned)i * 40503u) % 1000;
            for (size_t i = 0; i < cap; i++)
                got[i] = ref[i] = k->coll == VINE_COLL_BCAST && rank == root ? in[i] : -7;
            int rc = call(k->coll, 1, comm, root, n, in, got);
            call(k->coll, 0, comm, root, n, in, ref);
            int same = rc == MPI_SUCCESS && memcmp(got, ref, cap * sizeof *got) == 0;
            EXPECT(same, "%s: %s %s count %d root %d: rc %d, result differs from MPI", what,
                   vine_coll_name(k->coll), k->algo, n, root, rc);
            if (n > 0 && strcmp(k->algo, "auto") != 0) {
                int served = strcmp(vine_last_algorithm(k->coll), k->algo) == 0;
                EXPECT(served == ok, "%s: %s %s count %d: served by %s, admitted %d", what,
                       vine_coll_name(k->coll), k->algo, n, vine_last_algorithm(k->coll), ok);
            }
        }
    vine_set_algorithm(k->coll, "auto");
    free(in);
    free(got);
    free(ref);
}

static void check_colls(MPI_Comm comm, const char *what)
{
    vine_levels m, full;
    char msg[512];
    if (vine__levels_discover_all(comm, &m, &full, msg, sizeof msg) != MPI_SUCCESS)
        return;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        run_case(&cases[i], comm, what, admitted(&cases[i], comm, &m, &full));
    vine__levels_free(&m);
    vine__levels_free(&full);
}

/* Every rank fails alike, through the internal call and the public ones. */
static void check_error(const char *text)
{
    vine_levels m, full;
    char msg[512] = "", info[512] = "";
    int rc = vine__levels_discover_all(MPI_COMM_WORLD, &m, &full, msg, sizeof msg);
    EXPECT(rc != MPI_SUCCESS && !m.group && !full.group, "error: rc %d (%s)", rc, msg);
    EXPECT(strstr(msg, text) != NULL, "error: message \"%s\" lacks \"%s\"", msg, text);
    int nl = -1, x = 1, y = 0;
    int irc = vine_topology_info(MPI_COMM_WORLD, &nl, info, (int)sizeof info);
    EXPECT(irc == rc && nl == 0 && strcmp(info, msg) == 0,
           "error: vine_topology_info rc %d (want %d), %d levels, \"%s\"", irc, rc, nl, info);
    EXPECT(vine_allreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD) == rc,
           "error: vine_allreduce does not fail with %d", rc);
    vine__levels_free(&m);
    vine__levels_free(&full);
}

static int finish(void);

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    const char *np = getenv("VINE_TEST_NP");
    if ((np && atoi(np) != wsize) || wsize > 64) {
        printf("started on %d ranks, expected %s (at most 64)\n", wsize, np ? np : "any");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const char *mode = getenv("VINE_TEST_INNER");
    if (mode && strncmp(mode, "error:", 6) == 0) {
        check_error(mode + 6);
        return finish();
    }
    parse_expected();
    MPI_Comm half, rev;
    MPI_Comm_split(MPI_COMM_WORLD, wrank % 2, wrank, &half);
    MPI_Comm_split(MPI_COMM_WORLD, 0, wsize - wrank, &rev);
    check_map(MPI_COMM_WORLD, "world");
    check_map(half, "every other rank");
    check_map(rev, "reversed");
    check_colls(MPI_COMM_WORLD, "world");
    check_colls(half, "every other rank");
    MPI_Comm_free(&half);
    MPI_Comm_free(&rev);
    return finish();
}

static int finish(void)
{
    int mine[2] = {passed, failed}, sum[2];
    MPI_Reduce(mine, sum, 2, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (wrank == 0)
        printf("node levels: %d passed, %d failed\n", sum[0], sum[1]);
    MPI_Bcast(sum, 2, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return sum[1] ? 1 : 0;
}
