/*
 * MPI tier: more communicators than the MPI library can hold with vine's
 * private copies (src/api/comm.c, mpi_only).  The program duplicates
 * MPI_COMM_WORLD until MPI refuses (MPICH: about 2,000 context IDs) or
 * VINE_TEST_COMMS of them (default 2100) exist, and makes one allreduce and
 * one bcast on each as it comes, forced to recursive_doubling and binomial: where
 * vine could not make its own communicators the MPI library must serve them
 * (vine_last_algorithm says "mpi") with the right result, everywhere else
 * the forced algorithm.  Every 50th communicator also runs a nonblocking
 * allreduce and a persistent one (started twice).  Under MPICH both kinds
 * must come (else the case it tests never came); Open MPI holds them all.  After all are freed, a
 * new communicator is served by vine again, and a persistent request of a communicator that went to
 * MPI, started after its communicator was freed, returns MPI_ERR_COMM (it has no private copy to
 * run on; api.md).  The values are computed here.
 */
#include "mpitest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether vine served the latest call of coll with the MPI library's collective. */
static int by_mpi(vine_coll coll)
{
    const char *a = vine_last_algorithm(coll);
    return a && strcmp(a, "mpi") == 0;
}

/* Checks the served algorithm of coll: "mpi" when mpi, else want. */
static void check_by(vine_coll coll, int mpi, const char *want, int i)
{
    const char *a = vine_last_algorithm(coll);
    const char *expect = mpi ? "mpi" : want;
    if (!a || strcmp(a, expect) != 0)
        mt_fail("communicator %d: %s served by %s, expected %s", i, vine_coll_name(coll),
                a ? a : "(none)", expect);
}

/* An allreduce of rank + i over comm, nonblocking or persistent (started twice). */
static void requests(MPI_Comm comm, int i)
{
    int x = mt_rank + i, y = -1, want = mt_size * i + mt_size * (mt_size - 1) / 2;
    MPI_Request q;
    if (mt_check_rc(vine_iallreduce(&x, &y, 1, MPI_INT, MPI_SUM, comm, &q), "vine_iallreduce") &&
        mt_check_rc(vine_wait(&q, MPI_STATUS_IGNORE), "vine_wait") && y != want)
        mt_fail("communicator %d: nonblocking allreduce gave %d, expected %d", i, y, want);
    if (!mt_check_rc(vine_allreduce_init(&x, &y, 1, MPI_INT, MPI_SUM, comm, MPI_INFO_NULL, &q),
                     "vine_allreduce_init"))
        return;
    for (int k = 0; k < 2; k++) {
        x = mt_rank + i + k;
        y = -1;
        if (mt_check_rc(vine_start(&q), "vine_start") &&
            mt_check_rc(vine_wait(&q, MPI_STATUS_IGNORE), "vine_wait") && y != want + mt_size * k)
            mt_fail("communicator %d: persistent allreduce gave %d, expected %d", i, y,
                    want + mt_size * k);
    }
    mt_check_rc(vine_request_free(&q), "vine_request_free");
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "comm_many");
    const char *env = getenv("VINE_TEST_COMMS");
    int cap = env && atoi(env) > 0 ? atoi(env) : 2100;
    MPI_Comm *comms = malloc((size_t)cap * sizeof *comms);
    int made = 0, mpi_served = 0;
    mt_case c = {"allreduce", "recursive_doubling", "int", "sum", 1, -1, 0};
    mt_begin(&c);
    if (!comms) {
        mt_fail("out of memory");
        return mt_finish();
    }
    mt_select(VINE_COLL_ALLREDUCE, "recursive_doubling");
    mt_select(VINE_COLL_BCAST, "binomial");
    /* The program's own duplicates, each used at once: until MPI refuses one
     * (on every rank alike), vine's copies taking their share meanwhile. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm kept = MPI_COMM_NULL; /* a communicator served by MPI, for the persistent case */
    MPI_Request orphan = MPI_REQUEST_NULL;
    int ox = 0, oy = 0, vine_served = 0;
    for (int i = 0; made < cap && MPI_Comm_dup(MPI_COMM_WORLD, &comms[made]) == MPI_SUCCESS; i++) {
        made++;
        /* vine's own split must not reach the program's handler, which aborts. */
        MPI_Comm_set_errhandler(comms[i], MPI_ERRORS_ARE_FATAL);
        int x = mt_rank + i, y = -1, want = mt_size * i + mt_size * (mt_size - 1) / 2;
        if (!mt_check_rc(vine_allreduce(&x, &y, 1, MPI_INT, MPI_SUM, comms[i]), "vine_allreduce"))
            break;
        if (y != want)
            mt_fail("communicator %d: allreduce gave %d, expected %d", i, y, want);
        int mpi = by_mpi(VINE_COLL_ALLREDUCE);
        mpi_served += mpi;
        vine_served += !mpi;
        check_by(VINE_COLL_ALLREDUCE, mpi, "recursive_doubling", i);
        int root = i % mt_size, b[3] = {-1, -1, -1};
        if (mt_rank == root)
            b[0] = i, b[1] = -i, b[2] = 7;
        if (mt_size > 1 && mt_check_rc(vine_bcast(b, 3, MPI_INT, root, comms[i]), "vine_bcast")) {
            if (b[0] != i || b[1] != -i || b[2] != 7)
                mt_fail("communicator %d: bcast gave %d %d %d", i, b[0], b[1], b[2]);
            check_by(VINE_COLL_BCAST, mpi, "binomial", i);
        }
        if (i % 50 == 0)
            requests(comms[i], i);
        if (mpi && kept == MPI_COMM_NULL &&
            mt_check_rc(vine_allreduce_init(&ox, &oy, 1, MPI_INT, MPI_SUM, comms[i], MPI_INFO_NULL,
                                            &orphan),
                        "vine_allreduce_init"))
            kept = comms[i];
    }
#ifdef MPICH_VERSION
    /* Every rank counts the same communicators. */
    if (mpi_served == 0 || vine_served == 0)
        mt_fail("of %d communicators vine served %d, MPI %d: one kind never came", made,
                vine_served, mpi_served);
#endif
    for (int i = 0; i < made; i++)
        MPI_Comm_free(&comms[i]);
    free(comms);
    if (orphan != MPI_REQUEST_NULL) {
        int rc = vine_start(&orphan);
        if (rc != MPI_ERR_COMM)
            mt_fail("start of a persistent request on a freed communicator served by MPI "
                    "returned %d, expected MPI_ERR_COMM",
                    rc);
        if (rc == MPI_SUCCESS)
            vine_wait(&orphan, MPI_STATUS_IGNORE);
        mt_check_rc(vine_request_free(&orphan), "vine_request_free");
    }
    /* With the communicators gone, vine's copies fit again. */
    MPI_Comm fresh;
    if (mt_check_rc(MPI_Comm_dup(MPI_COMM_WORLD, &fresh), "MPI_Comm_dup")) {
        int x = mt_rank, y = -1;
        if (mt_check_rc(vine_allreduce(&x, &y, 1, MPI_INT, MPI_SUM, fresh), "vine_allreduce")) {
            if (y != mt_size * (mt_size - 1) / 2)
                mt_fail("fresh communicator: allreduce gave %d", y);
            check_by(VINE_COLL_ALLREDUCE, 0, "recursive_doubling", -1);
        }
        MPI_Comm_free(&fresh);
    }
    if (mt_rank == 0)
        printf("comm_many: %d communicators, %d of them served by vine, %d by MPI\n", made,
               vine_served, mpi_served);
    return mt_finish();
}
