/*
 * fuzz_replay NAME FILE|DIR...: runs the fuzz harness NAME of fuzz_parsers.c
 * on files instead of libFuzzer's inputs: every file named, and every file of
 * every directory named.  Built by tests/fuzz/fuzz.cmake with the project's
 * compiler, so the ASan build replays the inputs of tests/data/fuzz/ under
 * the sanitizers.  Prints how many inputs ran; a bug shows as a crash or a
 * sanitizer report.  Exit status 2 for an unknown harness, a file that
 * cannot be read, or nothing to run.
 */
#include "fuzz.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static vine_fuzz_fn *harness;

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        return -1;
    }
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
        n += got;
        if (n == cap) {
            uint8_t *b = realloc(buf, cap *= 2);
            if (!b)
                free(buf);
            buf = b;
        }
    }
    int bad = ferror(f) || !buf;
    fclose(f);
    if (bad) {
        fprintf(stderr, "replay: cannot read %s\n", path);
        free(buf);
        return -1;
    }
    harness(buf, n);
    free(buf);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2 || !(harness = vine_fuzz_find(argv[1]))) {
        fprintf(stderr,
                "usage: fuzz_replay NAME FILE|DIR... (NAME: a harness of fuzz_parsers.c)\n");
        return 2;
    }
    int ran = 0;
    for (int i = 2; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "replay: no %s\n", argv[i]);
            return 2;
        }
        if (!S_ISDIR(st.st_mode)) {
            if (run_file(argv[i]))
                return 2;
            ran++;
            continue;
        }
        DIR *d = opendir(argv[i]);
        if (!d) {
            fprintf(stderr, "replay: cannot list %s\n", argv[i]);
            return 2;
        }
        for (struct dirent *e; (e = readdir(d));) {
            if (e->d_name[0] == '.')
                continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
            if (run_file(path)) {
                closedir(d);
                return 2;
            }
            ran++;
        }
        closedir(d);
    }
    printf("replay: %d inputs\n", ran);
    return ran ? 0 : 2;
}
