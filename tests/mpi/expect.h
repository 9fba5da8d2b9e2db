/*
 * EXPECT for the MPI tests that count their own checks (test_levels.c,
 * test_node_levels.c): the including file defines `passed`, `failed` and
 * `wrank` (this process's rank in MPI_COMM_WORLD).
 */
#ifndef VINE_TEST_EXPECT_H
#define VINE_TEST_EXPECT_H

#include <stdio.h>

#define EXPECT(cond, ...)                                                                          \
    do {                                                                                           \
        if (cond) {                                                                                \
            passed++;                                                                              \
        } else {                                                                                   \
            failed++;                                                                              \
            printf("FAIL rank %d line %d: ", wrank, __LINE__);                                     \
            printf(__VA_ARGS__);                                                                   \
            printf("\n");                                                                          \
        }                                                                                          \
    } while (0)

#endif
