/* One message of each size from rank 0 to rank 1 after a barrier; rank 1 prints the
 * size and the time in us.  smpicc -O2 onemsg.c -o onemsg; smpirun -np 2 -platform
 * onemsg-two-hosts.xml -hostfile HOSTS (a, b) [--cfg=smpi/lat-factor:0:1
 * --cfg=smpi/bw-factor:0:1] ./onemsg (onemsg.txt). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
int main(int c,char**v){MPI_Init(&c,&v);int r;MPI_Comm_rank(MPI_COMM_WORLD,&r);
int sz[]={8,256,300,1000,2000,4000,6000,10000,20000,65472,100000,1000000};
char*b=malloc(1000000);
for(int i=0;i<12;i++){MPI_Barrier(MPI_COMM_WORLD);double t=MPI_Wtime();
if(r==0)MPI_Send(b,sz[i],MPI_CHAR,1,0,MPI_COMM_WORLD);else MPI_Recv(b,sz[i],MPI_CHAR,0,0,MPI_COMM_WORLD,MPI_STATUS_IGNORE);
t=MPI_Wtime()-t; if(r==1)printf("%d %.6f\n",sz[i],t*1e6);}
MPI_Finalize();return 0;}
