/*
 * An MPI program that knows nothing of vine: it calls MPI's ten collectives
 * that libvine-mpi replaces (bcast, reduce, allreduce, reduce_scatter,
 * reduce_scatter_block, allgather, alltoall, gather, scatter, barrier) on
 * MPI_COMM_WORLD and on a split communicator, out of place and with
 * MPI_IN_PLACE, with predefined and user-defined datatypes and ops, and
 * checks every result against values it computes itself: under libvine-mpi
 * MPI's collectives are vine's, so MPI cannot serve as the reference.
 *
 * It also checks how errors are reported (through the communicator's error
 * handler, as MPI does), that MPI_Barrier orders a one-sided epoch as the
 * library's own barrier does, and, with the argument "inter", MPI_Allreduce and
 * MPI_Bcast on an intercommunicator, which libvine-mpi passes to MPI.
 * Exits non-zero after any wrong result; the messages start with "app:".
 */
#include "app.h"

static MPI_Datatype affine_type, int3_type;
static MPI_Op affine_mpi_op;

/* Every collective once on comm; inplace: with MPI_IN_PLACE where MPI allows it. */
static void run_all(MPI_Comm comm, int inplace, const char *label)
{
    int p, r, rc;
    MPI_Comm_size(comm, &p);
    MPI_Comm_rank(comm, &r);
    size_t np = (size_t)p;

    /* Bcast from the last rank. */
    {
        int buf[5], root = p - 1;
        for (int i = 0; i < 5; i++)
            buf[i] = r == root ? val(root, i) : -1;
        rc = MPI_Bcast(buf, 5, MPI_INT, root, comm);
        CHECK_RC(rc, "MPI_Bcast");
        for (int i = 0; i < 5; i++)
            CHECK(buf[i] == val(root, i), "%s: bcast[%d] = %d", label, i, buf[i]);
    }

    /* Reduce, MPI_SUM, to the middle rank; in place at the root. */
    {
        int send[6], recv[6], root = p / 2;
        for (int i = 0; i < 6; i++) {
            send[i] = val(r, i);
            recv[i] = r == root ? val(r, i) : -1;
        }
        const void *sb = inplace && r == root ? MPI_IN_PLACE : (const void *)send;
        rc = MPI_Reduce(sb, r == root ? recv : NULL, 6, MPI_INT, MPI_SUM, root, comm);
        CHECK_RC(rc, "MPI_Reduce");
        for (int i = 0; r == root && i < 6; i++) {
            int want = 0;
            for (int q = 0; q < p; q++)
                want += val(q, i);
            CHECK(recv[i] == want, "%s: reduce[%d] = %d, want %d", label, i, recv[i], want);
        }
    }

    /* Allreduce with the non-commutative user op on a derived type. */
    {
        affine send[4], recv[4];
        for (int i = 0; i < 4; i++) {
            send[i] = aff(r, i);
            recv[i] = inplace ? aff(r, i) : (affine){0, 0};
        }
        rc = MPI_Allreduce(inplace ? MPI_IN_PLACE : (const void *)send, recv, 4, affine_type,
                           affine_mpi_op, comm);
        CHECK_RC(rc, "MPI_Allreduce");
        for (int i = 0; i < 4; i++)
            CHECK(aff_eq(recv[i], aff_fold(p, i)), "%s: allreduce[%d] = (%u, %u)", label, i,
                  recv[i].a, recv[i].b);
    }

    /* Reduce_scatter, MPI_SUM, blocks of 1, 2, 3, 1, 2, 3 ... elements. */
    {
        int *counts = malloc(np * sizeof *counts), total = 0, own, off = 0;
        for (int q = 0; q < p; q++) {
            counts[q] = q % 3 + 1;
            if (q < r)
                off += counts[q];
            total += counts[q];
        }
        own = counts[r];
        int *send = malloc((size_t)total * sizeof *send);
        int *recv = malloc((size_t)total * sizeof *recv);
        for (int j = 0; j < total; j++)
            send[j] = recv[j] = val(r, j);
        rc = MPI_Reduce_scatter(inplace ? MPI_IN_PLACE : (const void *)send, recv, counts, MPI_INT,
                                MPI_SUM, comm);
        CHECK_RC(rc, "MPI_Reduce_scatter");
        for (int k = 0; k < own; k++) {
            int want = 0;
            for (int q = 0; q < p; q++)
                want += val(q, off + k);
            CHECK(recv[k] == want, "%s: reduce_scatter[%d] = %d, want %d", label, k, recv[k], want);
        }
        free(counts);
        free(send);
        free(recv);
    }

    /* Reduce_scatter_block with the user op, 2 elements per rank. */
    {
        affine *send = malloc(2 * np * sizeof *send), *recv = malloc(2 * np * sizeof *recv);
        for (int j = 0; j < 2 * p; j++)
            send[j] = recv[j] = aff(r, j);
        rc = MPI_Reduce_scatter_block(inplace ? MPI_IN_PLACE : (const void *)send, recv, 2,
                                      affine_type, affine_mpi_op, comm);
        CHECK_RC(rc, "MPI_Reduce_scatter_block");
        for (int k = 0; k < 2; k++)
            CHECK(aff_eq(recv[k], aff_fold(p, 2 * r + k)),
                  "%s: reduce_scatter_block[%d] = (%u, %u)", label, k, recv[k].a, recv[k].b);
        free(send);
        free(recv);
    }

    /* Allgather of 3 ints; out of place the receive side is one 3-int type. */
    {
        int send[3], *recv = malloc(3 * np * sizeof *recv);
        for (int j = 0; j < 3 * p; j++)
            recv[j] = -1;
        for (int k = 0; k < 3; k++)
            send[k] = recv[3 * r + k] = val(r, k);
        if (inplace)
            rc = MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, recv, 3, MPI_INT, comm);
        else
            rc = MPI_Allgather(send, 3, MPI_INT, recv, 1, int3_type, comm);
        CHECK_RC(rc, "MPI_Allgather");
        for (int q = 0; q < p; q++)
            for (int k = 0; k < 3; k++)
                CHECK(recv[3 * q + k] == val(q, k), "%s: allgather[%d][%d] = %d", label, q, k,
                      recv[3 * q + k]);
        free(recv);
    }

    /* Alltoall of 2 ints per pair. */
    {
        int *send = malloc(2 * np * sizeof *send), *recv = malloc(2 * np * sizeof *recv);
        for (int q = 0; q < p; q++)
            for (int k = 0; k < 2; k++) {
                send[2 * q + k] = enc(r, q, k);
                recv[2 * q + k] = -1;
            }
        rc = MPI_Alltoall(send, 2, MPI_INT, recv, 2, MPI_INT, comm);
        CHECK_RC(rc, "MPI_Alltoall");
        for (int q = 0; q < p; q++)
            for (int k = 0; k < 2; k++)
                CHECK(recv[2 * q + k] == enc(q, r, k), "%s: alltoall[%d][%d] = %d", label, q, k,
                      recv[2 * q + k]);
        free(send);
        free(recv);
    }

    /* Gather of 4 ints to the middle rank; in place at the root. */
    {
        int send[4], *recv = malloc(4 * np * sizeof *recv), root = p / 2;
        for (int j = 0; j < 4 * p; j++)
            recv[j] = -1;
        for (int k = 0; k < 4; k++)
            send[k] = recv[4 * r + k] = val(r, k);
        if (inplace && r == root)
            rc = MPI_Gather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, recv, 4, MPI_INT, root, comm);
        else
            rc = MPI_Gather(send, 4, MPI_INT, recv, 4, MPI_INT, root, comm);
        CHECK_RC(rc, "MPI_Gather");
        for (int q = 0; r == root && q < p; q++)
            for (int k = 0; k < 4; k++)
                CHECK(recv[4 * q + k] == val(q, k), "%s: gather[%d][%d] = %d", label, q, k,
                      recv[4 * q + k]);
        free(recv);
    }

    /* Scatter of 3 ints from rank 0; in place at the root. */
    {
        int *send = malloc(3 * np * sizeof *send), recv[3];
        for (int q = 0; q < p; q++)
            for (int k = 0; k < 3; k++)
                send[3 * q + k] = r == 0 ? enc(0, q, k) : -1;
        for (int k = 0; k < 3; k++)
            recv[k] = -1;
        if (inplace && r == 0)
            rc = MPI_Scatter(send, 3, MPI_INT, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, 0, comm);
        else
            rc = MPI_Scatter(send, 3, MPI_INT, recv, 3, MPI_INT, 0, comm);
        CHECK_RC(rc, "MPI_Scatter");
        const int *got = inplace && r == 0 ? send : recv;
        for (int k = 0; k < 3; k++)
            CHECK(got[k] == enc(0, r, k), "%s: scatter[%d] = %d", label, k, got[k]);
        free(send);
    }

    rc = MPI_Barrier(comm);
    CHECK_RC(rc, "MPI_Barrier");
}

/* The error handler of the error checks: counts its calls and keeps the code. */
static int handler_calls, handler_code;

static void count_errors(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    handler_calls++;
    handler_code = *code;
}

static int error_class(int code)
{
    int cls = -1;
    MPI_Error_class(code, &cls);
    return cls;
}

/*
 * Errors go through the communicator's error handler, as MPI's do: a root
 * out of range, and MPI_SUM on a derived type (MPI_Reduce_local refuses
 * that pair, so libvine-mpi passes it to MPI, which may refuse it too, or
 * reduce).
 */
static void check_errors(void)
{
    MPI_Comm comm;
    MPI_Errhandler eh;
    MPI_Datatype int2;
    int p, rc, buf[4] = {1, 2, 3, 4};
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_name(comm, "pmpi_errors");
    MPI_Comm_size(comm, &p);
    MPI_Comm_create_errhandler(count_errors, &eh);
    MPI_Comm_set_errhandler(comm, eh);

    handler_calls = 0;
    rc = MPI_Bcast(buf, 4, MPI_INT, p, comm);
    CHECK(rc != MPI_SUCCESS && error_class(rc) == MPI_ERR_ROOT,
          "bcast to root %d returned %d (class %d)", p, rc, error_class(rc));
    CHECK(handler_calls == 1 && handler_code == rc,
          "bcast to root %d: error handler called %d times with %d", p, handler_calls,
          handler_code);

    MPI_Type_contiguous(2, MPI_INT, &int2);
    MPI_Type_commit(&int2);
    int send[4], recv[4] = {0, 0, 0, 0};
    for (int i = 0; i < 4; i++)
        send[i] = val(world_rank, i);
    handler_calls = 0;
    rc = MPI_Allreduce(send, recv, 2, int2, MPI_SUM, comm);
    if (rc == MPI_SUCCESS) {
        CHECK(handler_calls == 0, "allreduce on int2 succeeded but called the error handler");
        for (int i = 0; i < 4; i++) {
            int want = 0;
            for (int q = 0; q < p; q++)
                want += val(q, i);
            CHECK(recv[i] == want, "allreduce on int2: [%d] = %d, want %d", i, recv[i], want);
        }
    } else {
        CHECK(handler_calls == 1 && handler_code == rc,
              "allreduce on int2 returned %d, error handler called %d times with %d", rc,
              handler_calls, handler_code);
    }
    MPI_Type_free(&int2);
    MPI_Errhandler_free(&eh);
    MPI_Comm_free(&comm);
}

/*
 * MPI_Allreduce and MPI_Bcast on an intercommunicator between the even and
 * the odd ranks of MPI_COMM_WORLD (p >= 2).
 */
static void check_inter(void)
{
    int p, rc, color = world_rank % 2;
    MPI_Comm half, inter;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    MPI_Comm_split(MPI_COMM_WORLD, color, world_rank, &half);
    /* The other group's leader is its lowest world rank: 1 or 0. */
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 1 - color, 77, &inter);
    /* vine serves half, MPI the intercommunicator: VINE_VERBOSE must give
     * the two unnamed communicators different numbers (run_app.sh). */
    rc = MPI_Barrier(half);
    CHECK_RC(rc, "MPI_Barrier on half of MPI_COMM_WORLD");

    /* Each group receives the sum over the other group. */
    int send[3], recv[3];
    for (int i = 0; i < 3; i++)
        send[i] = val(world_rank, i);
    rc = MPI_Allreduce(send, recv, 3, MPI_INT, MPI_SUM, inter);
    CHECK_RC(rc, "MPI_Allreduce on the intercommunicator");
    for (int i = 0; i < 3; i++) {
        int want = 0;
        for (int q = 0; q < p; q++)
            if (q % 2 != color)
                want += val(q, i);
        CHECK(recv[i] == want, "inter allreduce[%d] = %d, want %d", i, recv[i], want);
    }

    /* World rank 0 (rank 0 of the even group) broadcasts to the odd group. */
    int buf[3];
    for (int i = 0; i < 3; i++)
        buf[i] = world_rank == 0 ? val(0, i) + 99 : -1;
    int root = color == 1 ? 0 : world_rank == 0 ? MPI_ROOT : MPI_PROC_NULL;
    rc = MPI_Bcast(buf, 3, MPI_INT, root, inter);
    CHECK_RC(rc, "MPI_Bcast on the intercommunicator");
    for (int i = 0; i < 3; i++) {
        int want = color == 1 || world_rank == 0 ? val(0, i) + 99 : -1;
        CHECK(buf[i] == want, "inter bcast[%d] = %d, want %d", i, buf[i], want);
    }
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
}

/*
 * One active-target epoch from rank 0 to every other rank, closed by rank 0
 * before it enters barrier (MPI_Barrier or PMPI_Barrier, the library's own);
 * returns on a target whether MPI_Win_test said right after the barrier
 * that the epoch had ended (1 on rank 0).  Checks the value put either way.
 */
static int epoch(MPI_Win win, int want, int (*barrier)(MPI_Comm))
{
    MPI_Group world, peers;
    int zero = 0, ended = 1, p;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    if (world_rank == 0) {
        MPI_Group_excl(world, 1, &zero, &peers);
        MPI_Win_start(peers, 0, win);
        for (int r = 1; r < p; r++)
            MPI_Put(&want, 1, MPI_INT, r, 0, 1, MPI_INT, win);
        MPI_Win_complete(win);
    } else {
        MPI_Group_incl(world, 1, &zero, &peers);
        MPI_Win_post(peers, 0, win);
    }
    CHECK_RC(barrier(MPI_COMM_WORLD), "the barrier of an epoch");
    if (world_rank != 0) {
        MPI_Win_test(win, &ended);
        if (!ended)
            MPI_Win_wait(win);
        /* Read through MPI: MPICH 4.0.2's loads from the window memory still
         * saw the old value after MPI_Win_wait. */
        int got = -1;
        MPI_Win_lock(MPI_LOCK_SHARED, world_rank, 0, win);
        MPI_Get(&got, 1, MPI_INT, world_rank, 0, 1, MPI_INT, win);
        MPI_Win_unlock(world_rank, win);
        CHECK(got == want, "the window holds %d after the epoch, want %d", got, want);
    }
    MPI_Group_free(&peers);
    MPI_Group_free(&world);
    return ended;
}

/*
 * A barrier that orders a one-sided epoch: where MPI_Win_test says the epoch
 * has ended after the library's own barrier, it must say so after
 * MPI_Barrier too (libvine-mpi counts the window, so that a barrier on the
 * node segment ends with a pass of MPI's progress; mpi4py's test_rma).
 */
static void check_epoch(void)
{
    int *mem;
    MPI_Win win;
    MPI_Win_allocate((MPI_Aint)sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    for (int round = 0; round < 3; round++) {
        int ref = epoch(win, 2 * round + 1, PMPI_Barrier);
        int got = epoch(win, 2 * round + 2, MPI_Barrier);
        CHECK(got || !ref,
              "MPI_Win_test after MPI_Barrier: epoch open (closed after PMPI_Barrier)");
    }
    MPI_Win_free(&win);
}

int main(int argc, char **argv)
{
    int p;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    int inter = argc > 1 && strcmp(argv[1], "inter") == 0;

    MPI_Type_contiguous(2, MPI_UNSIGNED, &affine_type);
    MPI_Type_commit(&affine_type);
    MPI_Type_contiguous(3, MPI_INT, &int3_type);
    MPI_Type_commit(&int3_type);
    MPI_Op_create(affine_op, 0, &affine_mpi_op);

    /* Even and odd ranks, each in reverse order of world rank. */
    MPI_Comm split;
    MPI_Comm_split(MPI_COMM_WORLD, world_rank % 2, p - world_rank, &split);
    MPI_Comm_set_name(split, "pmpi_split");

    for (int inplace = 0; inplace <= 1; inplace++) {
        run_all(MPI_COMM_WORLD, inplace, inplace ? "world, in place" : "world");
        run_all(split, inplace, inplace ? "split, in place" : "split");
    }
    check_errors();
    check_epoch();
    if (inter && p >= 2)
        check_inter();

    MPI_Comm_free(&split);
    MPI_Op_free(&affine_mpi_op);
    MPI_Type_free(&int3_type);
    MPI_Type_free(&affine_type);
    MPI_Finalize();
    if (failures)
        fprintf(stderr, "app: rank %d: %d checks failed\n", world_rank, failures);
    return failures ? 1 : 0;
}
