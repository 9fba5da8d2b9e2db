/*
 * The assertion of the MPI-free unit tests: CHECK(cond, fmt, ...) counts a
 * check and, when cond is false, a failure, printing the first
 * CHECK_PRINT_MAX failures with their file, line and message.  A test ends
 * with printf("NAME: %ld checks, %ld failed\n", checks, failures) and exits
 * non-zero when failures > 0.
 */
#ifndef VINE_TEST_CHECK_H
#define VINE_TEST_CHECK_H

#include <stdio.h>

#define CHECK_PRINT_MAX 40

static long checks, failures;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        checks++;                                                                                  \
        if (!(cond) && ++failures <= CHECK_PRINT_MAX) {                                            \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                                            \
            printf(__VA_ARGS__);                                                                   \
            printf("\n");                                                                          \
        }                                                                                          \
    } while (0)

#endif
