/* The fuzz harnesses of fuzz_parsers.c and fuzz_sched.c, for replay.c. */
#ifndef VINE_TESTS_FUZZ_H
#define VINE_TESTS_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/* A harness: feeds one input to a parser; returns 0 (libFuzzer's convention). */
typedef int vine_fuzz_fn(const uint8_t *data, size_t size);

/* The schedules of every algorithm against the verifier (fuzz_sched.c). */
int vine_fuzz_sched(const uint8_t *data, size_t size);

/* The harness called name (the list is in fuzz_parsers.c), or NULL. */
vine_fuzz_fn *vine_fuzz_find(const char *name);

#endif
