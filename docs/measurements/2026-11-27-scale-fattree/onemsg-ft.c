#include <mpi.h>
#include <stdio.h>
int main(int c, char **v) { MPI_Init(&c, &v); int r; MPI_Comm_rank(MPI_COMM_WORLD, &r); char b[8]; double t = MPI_Wtime();
  if (r == 0) MPI_Send(b, 8, MPI_CHAR, 1, 0, MPI_COMM_WORLD); else if (r == 1) MPI_Recv(b, 8, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (r == 1) printf("%g us\n", (MPI_Wtime() - t) * 1e6); MPI_Finalize(); return 0; }
