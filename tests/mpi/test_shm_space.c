/*
 * Node segments that cannot all be had (docs/shm.md, "Room for the
 * segments"): communicators made one after another and all kept, each used by
 * an allreduce and a bcast forced to "shm" on 300,000 ints (larger than the
 * region), checked against the MPI library's own collectives on the same
 * communicator.  Every result must be right, whether or not the communicator
 * got a segment (a forced shm falls back without one), and nothing may hang.
 *
 * VINE_TEST_SPACE says what to expect:
 *   max:K    with VINE_SHM_MAX set so that K parts fit: MPI_COMM_WORLD and
 *            the first K - 1 new communicators get a segment, the others
 *            none, saying VINE_SHM_MAX; once one with a segment is freed, the
 *            next new communicator gets one again.
 *   room:N   N new communicators in a small backing file system (the test's
 *            script mounts one): at least one gets none, saying why (free
 *            space or pages it could not claim).
 */
#include "mpitest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COUNT 300000

static int *in, *got, *want;

/* Whether comm has a segment: 0 none, else 1; msg gets what set-up said. */
static int segment(MPI_Comm comm, char *msg, int len)
{
    int shm = -1;
    if (vine_shm_info(comm, &shm, NULL, msg, len) != MPI_SUCCESS)
        mt_fail("vine_shm_info failed");
    if (shm != 0 && shm != 2)
        mt_fail("vine_shm_info says shm=%d (%s) on one node", shm, msg);
    return shm != 0;
}

/* An allreduce and a bcast on comm (number i), forced to shm, against MPI's. */
static void use(MPI_Comm comm, int i)
{
    for (int k = 0; k < COUNT; k++)
        in[k] = (mt_rank + 1) * (k % 97) + i;
    memset(got, 0xff, COUNT * sizeof *got);
    mt_check_rc(vine_allreduce(in, got, COUNT, MPI_INT, MPI_SUM, comm), "vine_allreduce");
    MPI_Allreduce(in, want, COUNT, MPI_INT, MPI_SUM, comm);
    mt_check_equal(mt_type_int(), got, want, COUNT, "allreduce");
    int root = i % mt_size;
    memcpy(got, mt_rank == root ? in : want, COUNT * sizeof *got);
    mt_check_rc(vine_bcast(got, COUNT, MPI_INT, root, comm), "vine_bcast");
    MPI_Bcast(in, COUNT, MPI_INT, root, comm);
    mt_check_equal(mt_type_int(), got, in, COUNT, "bcast");
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "shm_space");
    const char *e = getenv("VINE_TEST_SPACE");
    int k = 0, room = 0;
    if (!e || (sscanf(e, "max:%d", &k) != 1 && sscanf(e, "room:%d", &k) != 1) || k < 1) {
        mt_fail("VINE_TEST_SPACE must be max:K or room:N (got %s)", e ? e : "nothing");
        return mt_finish();
    }
    room = strncmp(e, "room:", 5) == 0;
    mt_case c = {"allreduce+bcast", "shm", "int", "sum", COUNT, -1, 0};
    mt_begin(&c);
    if (vine_set_algorithm(VINE_COLL_ALLREDUCE, "shm") != MPI_SUCCESS ||
        vine_set_algorithm(VINE_COLL_BCAST, "shm") != MPI_SUCCESS)
        mt_fail("vine_set_algorithm(shm) failed");
    in = mt_xmalloc(COUNT * sizeof *in);
    got = mt_xmalloc(COUNT * sizeof *got);
    want = mt_xmalloc(COUNT * sizeof *want);

    char msg[256];
    int world = segment(MPI_COMM_WORLD, msg, sizeof msg);
    if (mt_rank == 0)
        printf("MPI_COMM_WORLD: %s\n", msg);
    use(MPI_COMM_WORLD, 0);
    int n = room ? k : k + 2, with = world, without = 0;
    MPI_Comm *comms = mt_xmalloc((size_t)n * sizeof *comms);
    for (int i = 0; i < n; i++) {
        MPI_Comm_dup(MPI_COMM_WORLD, &comms[i]);
        int has = segment(comms[i], msg, sizeof msg);
        if (mt_rank == 0)
            printf("communicator %d: %s\n", i + 1, msg);
        with += has;
        without += !has;
        if (!room && has != (i + 1 < k))
            mt_fail("communicator %d: %s, expected %s", i + 1, msg,
                    i + 1 < k ? "a segment" : "none (VINE_SHM_MAX)");
        if (!has && !strstr(msg, room ? "free" : "VINE_SHM_MAX") && !(room && strstr(msg, "claim")))
            mt_fail("communicator %d has no segment, and says: %s", i + 1, msg);
        use(comms[i], i + 1);
    }
    if (room && without == 0)
        mt_fail("all %d communicators got a segment: the file system was not small enough", n);
    if (!room && world) {
        /* Freeing a communicator with a segment gives its bytes back. */
        MPI_Comm_free(&comms[0]);
        MPI_Comm_dup(MPI_COMM_WORLD, &comms[0]);
        if (!segment(comms[0], msg, sizeof msg))
            mt_fail("a communicator made after freeing one has no segment: %s", msg);
        use(comms[0], n + 1);
    }
    if (mt_rank == 0)
        printf("%d communicators with a segment, %d without\n", with, without);
    for (int i = 0; i < n; i++)
        MPI_Comm_free(&comms[i]);
    free(comms);
    free(in);
    free(got);
    free(want);
    return mt_finish();
}
