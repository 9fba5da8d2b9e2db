/*
 * Checks a file written by `vine-bench probe` (tests/mpi/probe.cmake):
 *
 *   probe_check FILE CLASSES [TEXT]
 *
 * The file must load with the cost model's loader (src/select/cost.h) and
 * name CLASSES message classes (the levels found plus the one above the
 * top); with TEXT, the file must also hold it (a note).  Never looks at
 * the measured values: timing decides no test.  Exit status 0 when all
 * holds, 1 otherwise, with the reason on stdout.
 */
#include "select/cost.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 1 when the file at path holds text. */
static int file_holds(const char *path, const char *text)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return strstr(buf, text) != NULL;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        printf("usage: probe_check FILE CLASSES [TEXT]\n");
        return 1;
    }
    vine_cost c;
    char err[512] = "";
    if (vine__cost_load(&c, argv[1], err, sizeof err) != VINE_OK) {
        printf("probe_check: the file does not load: %s\n", err);
        return 1;
    }
    int want = atoi(argv[2]);
    if (c.nclasses != want) {
        printf("probe_check: %s names %d classes, expected %d\n", argv[1], c.nclasses, want);
        return 1;
    }
    if (argc > 3 && !file_holds(argv[1], argv[3])) {
        printf("probe_check: %s lacks \"%s\"\n", argv[1], argv[3]);
        return 1;
    }
    printf("probe_check: %s loads, %d classes\n", argv[1], c.nclasses);
    return 0;
}
