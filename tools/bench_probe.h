/* vine-bench probe (see bench_probe.c and docs/selection.md, "The cost model"). */
#ifndef VINE_BENCH_PROBE_TOOL_H
#define VINE_BENCH_PROBE_TOOL_H

/*
 * Runs `vine-bench probe ...` on MPI_COMM_WORLD (MPI is initialised and
 * finalised by the caller); argv[0] is "probe".  Collective.  Returns the
 * exit status: 0 when the file was written, 1 when the levels could not be
 * found or the file not written, 2 for a usage error (message and usage on
 * stderr from rank 0).
 */
int bench_probe_main(int argc, char **argv);

#endif
