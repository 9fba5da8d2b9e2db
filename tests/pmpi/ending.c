/*
 * libvine-mpi: collectives called while a communicator or MPI ends, written
 * against MPI alone.  Libraries free what they cache on a communicator in
 * the delete callback of an attribute, which MPI_Comm_free runs, and what
 * they keep for the process in one on MPI_COMM_SELF, which MPI_Finalize
 * deletes first while all of MPI still works; such a callback may well call
 * a collective (a barrier before freeing shared memory, a last reduction).
 * Under libvine-mpi a collective on the communicator being freed made vine
 * hang a new state on it in the middle of its end, and MPI_Finalize then
 * aborted in MPI_Comm_delete_attr on a communicator that no longer existed.
 *
 * Callbacks here, each checking its results against values computed here:
 * - on dup_a, set before any collective on it, and on dup_b, set after one
 *   (vine's own attribute comes after, then before, the program's): an
 *   allreduce, a bcast, an allgather and an ibarrier on the communicator
 *   being freed, and an allreduce on MPI_COMM_WORLD;
 * - dup_a's callback also frees dup_c, whose callback does the same on
 *   dup_c (one free inside another);
 * - on MPI_COMM_SELF, one set before any collective and one after, run by
 *   MPI_Finalize: collectives on MPI_COMM_WORLD and on dup_d, never freed.
 * Exit status 1 if any result is wrong.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int me, np, fails;
static MPI_Comm dup_c = MPI_COMM_NULL, dup_d = MPI_COMM_NULL;

static void check(int ok, const char *where, const char *what)
{
    if (!ok) {
        fprintf(stderr, "ending rank %d: %s: %s wrong\n", me, where, what);
        fails++;
    }
}

/* Collectives on comm (size np, this rank me) from a callback named where. */
static void collectives(MPI_Comm comm, const char *where)
{
    long x = me + 1, sum = -1;
    int rc = MPI_Allreduce(&x, &sum, 1, MPI_LONG, MPI_SUM, comm);
    check(rc == MPI_SUCCESS && sum == (long)np * (np + 1) / 2, where, "allreduce");

    int b[3] = {me == 1 % np ? 41 : -1, me == 1 % np ? 42 : -1, me == 1 % np ? 43 : -1};
    rc = MPI_Bcast(b, 3, MPI_INT, 1 % np, comm);
    check(rc == MPI_SUCCESS && b[0] == 41 && b[1] == 42 && b[2] == 43, where, "bcast");

    int *all = malloc(2 * (size_t)np * sizeof *all), mine[2] = {me * 10, me * 10 + 1};
    rc = MPI_Allgather(mine, 2, MPI_INT, all, 2, MPI_INT, comm);
    int ok = rc == MPI_SUCCESS;
    for (int i = 0; ok && i < np; i++)
        ok = all[2 * i] == i * 10 && all[2 * i + 1] == i * 10 + 1;
    check(ok, where, "allgather");
    free(all);

    MPI_Request q;
    rc = MPI_Ibarrier(comm, &q);
    if (rc == MPI_SUCCESS)
        rc = MPI_Wait(&q, MPI_STATUS_IGNORE);
    check(rc == MPI_SUCCESS, where, "ibarrier");
}

static int on_free(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)keyval;
    (void)extra;
    const char *where = value;
    collectives(comm, where);
    long x = 2, sum = -1;
    int rc = MPI_Allreduce(&x, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    check(rc == MPI_SUCCESS && sum == 2L * np, where, "allreduce on MPI_COMM_WORLD");
    if (strcmp(where, "dup_a") == 0 && dup_c != MPI_COMM_NULL)
        MPI_Comm_free(&dup_c);
    return MPI_SUCCESS;
}

static int on_finalize(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm;
    (void)keyval;
    (void)extra;
    collectives(MPI_COMM_WORLD, value);
    collectives(dup_d, value);
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    int kfree, kfin;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, on_free, &kfree, NULL);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, on_finalize, &kfin, NULL);
    MPI_Comm dup_a, dup_b;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup_a);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup_b);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup_c);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup_d);

    /* Before any collective: deleted after vine's own attributes. */
    MPI_Comm_set_attr(MPI_COMM_SELF, kfin, "MPI_COMM_SELF, set first");
    MPI_Comm_set_attr(dup_a, kfree, "dup_a");
    MPI_Comm_set_attr(dup_c, kfree, "dup_c");

    collectives(MPI_COMM_WORLD, "main");
    collectives(dup_a, "main");
    collectives(dup_b, "main");
    collectives(dup_c, "main");
    collectives(dup_d, "main");

    /* After the first collectives: deleted before vine's own. */
    MPI_Comm_set_attr(dup_b, kfree, "dup_b");
    int klate;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, on_finalize, &klate, NULL);
    MPI_Comm_set_attr(MPI_COMM_SELF, klate, "MPI_COMM_SELF, set last");

    MPI_Comm_free(&dup_a); /* frees dup_c from its callback */
    MPI_Comm_free(&dup_b);
    check(dup_c == MPI_COMM_NULL, "main", "dup_c freed by dup_a's callback");
    collectives(MPI_COMM_WORLD, "main, after the frees");
    MPI_Comm_free_keyval(&kfree);

    MPI_Finalize();
    if (fails) {
        fprintf(stderr, "ending rank %d: %d wrong\n", me, fails);
        return 1;
    }
    if (me == 0)
        printf("ending: %d ranks, every result right\n", np);
    return 0;
}
