/* Command-line helpers (see cli.h). */
#include "cli.h"

#include <stdio.h>
#include <string.h>

int vine_cli_take(const char *who, const char *arg, const char *name, int *i, int argc,
                  char **argv, const char **val)
{
    size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0)
        return 0;
    if (arg[n] == '=') {
        *val = arg + n + 1;
        return 1;
    }
    if (arg[n] != '\0')
        return 0;
    if (*i + 1 >= argc) {
        fprintf(stderr, "%s: option %s needs a value\n", who, name);
        return -1;
    }
    *val = argv[++*i];
    return 1;
}
