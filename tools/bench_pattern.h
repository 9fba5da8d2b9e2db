/* vine-bench pattern (see bench_pattern.c and docs/patterns.md). */
#ifndef VINE_BENCH_PATTERN_TOOL_H
#define VINE_BENCH_PATTERN_TOOL_H

/*
 * Runs `vine-bench pattern ...` on MPI_COMM_WORLD (MPI is initialised and
 * finalised by the caller); argv[0] is "pattern".  Collective.  Returns the
 * exit status: 0 when all went well, 1 when an MPI call or a result file
 * failed, 2 for a usage error (message and usage on stderr from rank 0).
 */
int bench_pattern_main(int argc, char **argv);

#endif
