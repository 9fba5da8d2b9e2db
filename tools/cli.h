/* Command-line helpers shared by the MPI-free tools (vine and its subcommands). */
#ifndef VINE_TOOLS_CLI_H
#define VINE_TOOLS_CLI_H

#include <stdio.h>

/*
 * Takes the value of option name from argv: "--name value" or "--name=value".
 * Returns 1 when arg is the option (argv[*i + 1] consumed for the first form),
 * 0 when it is not, -1 when its value is missing: then "WHO: option NAME
 * needs a value" is printed on stderr.
 */
int vine_cli_take(const char *who, const char *arg, const char *name, int *i, int argc, char **argv,
                  const char **val);

/*
 * Takes whichever of the n options names[k] argv[*i] is into *slots[k], as
 * vine_cli_take does; returns as it does (0: none of them).
 */
int vine_cli_take_any(const char *who, int *i, int argc, char **argv, const char *const *names,
                      const char **const *slots, int n);

/*
 * Prints "TOOL CMD: message" (or "TOOL: message" when cmd is NULL) on stderr,
 * after flushing stdout so that it follows what was printed before; returns
 * 2, the exit status of a usage error.
 */
int vine_cli_usage_error(const char *tool, const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Writes the label of a size in bytes to buf: 8B, 1KiB, 64MiB, 2GiB, 3000B
 * (the largest binary unit that divides it). */
void vine_cli_size_label(char *buf, size_t cap, long long s);

/*
 * Is path a tuning file (docs/tuning.md): does its top-level JSON object
 * hold "schema": "vine-tuning"?  A scan of the text, not a parse, so that a
 * truncated or otherwise broken tuning file is still recognised and gets the
 * tuning loader's message rather than the result loader's.  0 when the file
 * cannot be read.
 */
int vine_cli_is_tuning(const char *path);

/* Sorts v[0..n-1] ascending and keeps each value once; returns how many are kept. */
size_t vine_cli_unique_ll(long long *v, size_t n);

/* ---- gnuplot ------------------------------------------------------------ */

/*
 * Checks that gnuplot is in PATH, before a command does the work a plot
 * needs.  Returns 0 when it is, 1 after printing on stderr "WHO: needs
 * gnuplot, which is not in PATH (install gnuplot or gnuplot-nox)"; with
 * option set (a plot the user asked for, such as "--plot"), "WHO: OPTION
 * needs gnuplot ... or leave out OPTION)".
 */
int vine_cli_need_gnuplot(const char *who, const char *option);

/* Writes s to f as a gnuplot single-quoted string ('' stands for one quote;
 * line breaks, which would end the command, are left out). */
void vine_cli_gp_str(FILE *f, const char *s);

/* Writes a whole gnuplot script, whose output is the file being drawn, to f. */
typedef void vine_cli_gp_script(FILE *f, const void *arg);

/*
 * Draws out with gnuplot: script(f, arg) writes the script, which is also
 * written to the file keep unless keep is NULL (for whoever wants to change
 * the plot), then piped to gnuplot.  Returns 0 after printing "plot: OUT" on
 * stdout when gnuplot succeeded and out is not empty, or 1 after printing
 * "WHO: ..." on stderr (out of memory, keep not writable, gnuplot not started,
 * failed or killed, or out left empty).  out is emptied first, so that an
 * earlier plot is never taken for this one.
 */
int vine_cli_gnuplot(const char *who, const char *out, const char *keep, vine_cli_gp_script *script,
                     const void *arg);

#endif
