/*
 * MPI test of level discovery (src/api/levels_mpi.c, issue 8): what
 * vine__levels_discover finds on MPI_COMM_WORLD and on two split
 * communicators, against a map this program works out by itself.
 *
 * The ranks live on pretend hosts (VINE_TOPOLOGY_FAKE_HOSTS, block:K or
 * sizes:N,...; parsed again here) and VINE_TOPOLOGY names a map, a Slurm
 * file or a rule built so that host hI lies in group I / D1 at level 1,
 * I / D2 at level 2 ... (the files under tests/data/levels say so).
 * VINE_TEST_LEVELS says what to expect:
 *
 *   expect:D1,D2,...  those levels above the pretend hosts, less the ones
 *                     that separate no ranks (all in one group, or the same
 *                     groups as the level below), groups numbered by lowest rank
 *   flat              no VINE_TOPOLOGY: the nodes only (pretend hosts, or
 *                     MPI_Comm_split_type when there are none) and the message
 *                     "no topology information above the nodes"
 *   error:TEXT        on MPI_COMM_WORLD, every rank fails with the same
 *                     message, which holds TEXT
 *
 * Rank 0 prints "levels: N passed, M failed"; the exit status is non-zero on
 * any failure.
 */
#include "api/levels_mpi.h"
#include "coll/levels.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vine.h>

static int passed, failed, wrank;

#include "expect.h"

/* The pretend host index of world rank w, or -1 without pretend hosts. */
static int host_of(int w)
{
    const char *f = getenv("VINE_TOPOLOGY_FAKE_HOSTS");
    if (!f || !*f)
        return -1;
    if (strncmp(f, "block:", 6) == 0)
        return w / atoi(f + 6);
    if (strncmp(f, "sizes:", 6) == 0) {
        int size[64], n = 0;
        for (const char *s = f + 6; *s && n < 64; s++) {
            size[n++] = atoi(s);
            s = strchr(s, ',');
            if (!s)
                break;
        }
        int h = 0, start = 0;
        while (w >= start + size[h % n])
            start += size[h++ % n];
        return h;
    }
    return -1;
}

/* Renumbers g[0 .. p-1] by first occurrence; returns the number of groups. */
static int normalise(int *g, int p)
{
    int *map = malloc((size_t)p * sizeof *map), n = 0;
    int *key = malloc((size_t)p * sizeof *key);
    for (int r = 0; r < p; r++) {
        int k = 0;
        while (k < n && key[k] != g[r])
            k++;
        if (k == n)
            key[n++] = g[r];
        map[r] = k;
    }
    memcpy(g, map, (size_t)p * sizeof *g);
    free(map);
    free(key);
    return n;
}

/*
 * The expected map of comm: level 0 the node (pretend host, or the shared-
 * memory node), then host / div[j] for each divisor, levels that separate
 * nothing dropped.  Returns the number of levels; want holds them.
 */
static int expected(MPI_Comm comm, const int *div, int ndiv, int *want, int *ngroups)
{
    int p, rank;
    MPI_Comm_size(comm, &p);
    MPI_Comm_rank(comm, &rank);
    int *hosts = malloc((size_t)p * sizeof *hosts), *raw = malloc((size_t)p * sizeof *raw);
    int h = host_of(wrank);
    if (h < 0) {
        MPI_Comm node;
        MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
        int lead = rank;
        MPI_Bcast(&lead, 1, MPI_INT, 0, node);
        MPI_Comm_free(&node);
        h = lead;
    }
    MPI_Allgather(&h, 1, MPI_INT, hosts, 1, MPI_INT, comm);
    memcpy(want, hosts, (size_t)p * sizeof *want);
    ngroups[0] = normalise(want, p);
    int n = 1;
    for (int j = 0; j < ndiv; j++) {
        for (int r = 0; r < p; r++)
            raw[r] = hosts[r] / div[j];
        int ng = normalise(raw, p);
        if (ng > 1 && ng < ngroups[n - 1]) {
            memcpy(want + (size_t)n * p, raw, (size_t)p * sizeof *want);
            ngroups[n++] = ng;
        }
    }
    free(hosts);
    free(raw);
    return n;
}

static void check_map(MPI_Comm comm, const char *what, const int *div, int ndiv, int flat)
{
    int p;
    MPI_Comm_size(comm, &p);
    int *want = malloc((size_t)VINE_LEVELS_MAX * p * sizeof *want), ngroups[VINE_LEVELS_MAX];
    int n = expected(comm, div, ndiv, want, ngroups);
    vine_levels m;
    char msg[512];
    int rc = vine__levels_discover(comm, &m, msg, sizeof msg);
    EXPECT(rc == MPI_SUCCESS, "%s: rc %d: %s", what, rc, msg);
    if (rc == MPI_SUCCESS) {
        EXPECT(vine__levels_ready(&m, p), "%s: map not finished", what);
        EXPECT(m.nlevels == n, "%s: %d levels, expected %d (%s)", what, m.nlevels, n, msg);
        for (int l = 0; l < n && l < m.nlevels; l++) {
            EXPECT(m.ngroups[l] == ngroups[l], "%s: level %d has %d groups, expected %d", what, l,
                   m.ngroups[l], ngroups[l]);
            int same = 1;
            for (int r = 0; r < p; r++)
                same &= m.group[(size_t)l * p + r] == want[(size_t)l * p + r];
            EXPECT(same, "%s: level %d groups differ", what, l);
        }
        /* Only VINE_TOPOLOGY=torus:... marks the map as a torus network (levels.h). */
        const char *t = getenv("VINE_TOPOLOGY");
        int torus = t && strncmp(t, "torus:", 6) == 0;
        EXPECT(m.torus == torus, "%s: torus flag %d, expected %d", what, m.torus, torus);
        const char *said =
            flat ? "no topology information above the nodes" : "levels from VINE_TOPOLOGY=";
        EXPECT(strstr(msg, said) != NULL, "%s: message \"%s\" lacks \"%s\"", what, msg, said);
        /* The public view of the same: the levels that divide the ranks. */
        int ndividing = 0, got = -1;
        for (int l = 0; l < n; l++)
            ndividing += ngroups[l] > 1 && ngroups[l] < p;
        char info[512];
        rc = vine_topology_info(comm, &got, info, (int)sizeof info);
        EXPECT(rc == MPI_SUCCESS && got == ndividing && strcmp(info, msg) == 0,
               "%s: vine_topology_info rc %d, %d levels (want %d), \"%s\"", what, rc, got,
               ndividing, info);
    }
    vine__levels_free(&m);
    free(want);
}

/*
 * Through the public API: vine_topology_info and every collective on comm
 * return the discovery error, twice in a row (the state keeps it), and the
 * message names the problem.
 */
static void check_public_error(MPI_Comm comm, int want, const char *text)
{
    char msg[512] = "";
    int n = -1, x = 1, y = 0;
    for (int round = 0; round < 2; round++) {
        int rc = vine_topology_info(comm, &n, msg, (int)sizeof msg);
        EXPECT(rc == want && n == 0, "vine_topology_info: rc %d (want %d), %d levels", rc, want, n);
        EXPECT(strstr(msg, text) != NULL, "vine_topology_info: \"%s\" lacks \"%s\"", msg, text);
        rc = vine_allreduce(&x, &y, 1, MPI_INT, MPI_SUM, comm);
        EXPECT(rc == want, "vine_allreduce: rc %d, want %d", rc, want);
        rc = vine_bcast(&x, 1, MPI_INT, 0, comm);
        EXPECT(rc == want, "vine_bcast: rc %d, want %d", rc, want);
    }
}

/* Every rank of comm must fail with rank 0's message, which holds text. */
static void check_error(MPI_Comm comm, const char *text)
{
    vine_levels m;
    char msg[512], root[512];
    int rc = vine__levels_discover(comm, &m, msg, sizeof msg);
    EXPECT(rc != MPI_SUCCESS && m.group == NULL && m.idx == NULL, "error: rc %d (%s)", rc, msg);
    memcpy(root, msg, sizeof root);
    MPI_Bcast(root, (int)sizeof root, MPI_CHAR, 0, comm);
    EXPECT(strcmp(root, msg) == 0, "error: message \"%s\", rank 0 said \"%s\"", msg, root);
    EXPECT(strstr(msg, text) != NULL, "error: message \"%s\" lacks \"%s\"", msg, text);
    int codes[2] = {rc, -rc}, agree[2];
    MPI_Allreduce(codes, agree, 2, MPI_INT, MPI_MAX, comm);
    EXPECT(agree[0] == rc && -agree[1] == rc, "error: ranks returned different codes");
    check_public_error(comm, rc, text);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    const char *mode = getenv("VINE_TEST_LEVELS");
    if (!mode)
        mode = "";
    if (strncmp(mode, "error:", 6) == 0) {
        check_error(MPI_COMM_WORLD, mode + 6);
    } else {
        int div[VINE_LEVELS_MAX], ndiv = 0, flat = strcmp(mode, "flat") == 0;
        if (strncmp(mode, "expect:", 7) == 0)
            for (const char *s = mode + 7; s && ndiv < VINE_LEVELS_MAX; s = strchr(s, ',')) {
                s += *s == ',';
                div[ndiv++] = atoi(s);
            }
        if (!flat && ndiv == 0) {
            printf("VINE_TEST_LEVELS=\"%s\": expected expect:D1,..., flat or error:TEXT\n", mode);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        check_map(MPI_COMM_WORLD, "world", div, ndiv, flat);
        /* Sub-communicators: world ranks in two halves of every other rank,
         * and in reverse order (the groups are then numbered anew). */
        MPI_Comm half, rev;
        int wsize;
        MPI_Comm_size(MPI_COMM_WORLD, &wsize);
        MPI_Comm_split(MPI_COMM_WORLD, wrank % 2, wrank, &half);
        check_map(half, "every other rank", div, ndiv, flat);
        MPI_Comm_split(MPI_COMM_WORLD, 0, wsize - wrank, &rev);
        check_map(rev, "reversed", div, ndiv, flat);
        MPI_Comm_free(&half);
        MPI_Comm_free(&rev);
    }
    int mine[2] = {passed, failed}, sum[2];
    MPI_Reduce(mine, sum, 2, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (wrank == 0)
        printf("levels: %d passed, %d failed\n", sum[0], sum[1]);
    MPI_Bcast(sum, 2, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return sum[1] ? 1 : 0;
}
