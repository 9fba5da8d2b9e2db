/* vine-bench overhead (see bench_overhead.c). */
#ifndef VINE_BENCH_OVERHEAD_H
#define VINE_BENCH_OVERHEAD_H

#include <mpi.h>

/* Runs the overhead benchmark; argv[1] is "overhead".  Returns an exit status. */
int vine__bench_overhead(int argc, char **argv);

#endif
