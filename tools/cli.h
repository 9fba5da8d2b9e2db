/* Command-line helpers shared by the MPI-free tools (vine and its subcommands). */
#ifndef VINE_TOOLS_CLI_H
#define VINE_TOOLS_CLI_H

/*
 * Takes the value of option name from argv: "--name value" or "--name=value".
 * Returns 1 when arg is the option (argv[*i + 1] consumed for the first form),
 * 0 when it is not, -1 when its value is missing: then "WHO: option NAME
 * needs a value" is printed on stderr.
 */
int vine_cli_take(const char *who, const char *arg, const char *name, int *i, int argc,
                  char **argv, const char **val);

#endif
