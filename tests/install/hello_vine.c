/*
 * A program outside the vine tree, built against an installed vine with
 * `mpicc $(pkg-config --cflags --libs vine)`: it calls vine_allreduce with
 * every allreduce algorithm and checks the sum, so that the install is shown
 * to give a working header, library and pkg-config file.
 */
#include <stdio.h>
#include <vine.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, p, failed = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    int n = vine_algorithm_count(VINE_COLL_ALLREDUCE);
    for (int i = 0; i < n; i++) {
        const char *algo = vine_algorithm_name(VINE_COLL_ALLREDUCE, i);
        long in[3] = {rank, 1, -rank}, out[3] = {0, 0, 0};
        int rc = vine_set_algorithm(VINE_COLL_ALLREDUCE, algo);
        if (rc == MPI_SUCCESS)
            rc = vine_allreduce(in, out, 3, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
        long want = (long)p * (p - 1) / 2;
        if (rc != MPI_SUCCESS || out[0] != want || out[1] != p || out[2] != -want) {
            fprintf(stderr, "rank %d: allreduce %s: rc %d: %s\n", rank, algo, rc,
                    vine_error_string(rc));
            failed = 1;
        }
    }
    if (rank == 0)
        printf("install test: %d allreduce algorithms on %d ranks: %s\n", n, p,
               failed || n == 0 ? "FAILED" : "ok");
    MPI_Finalize();
    return failed || n == 0;
}
