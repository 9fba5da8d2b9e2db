/*
 * Threads (docs/api.md, "Threads"): whether MPI provides
 * MPI_THREAD_MULTIPLE, and the one process-wide lock of vine's slow paths.
 *
 * The level is asked once (MPI_Query_thread) and kept; threads that race to
 * ask it first all store the same answer.  Below MPI_THREAD_MULTIPLE the
 * lock is never taken, so a program with one thread in vine pays nothing.
 * The lock guards one-time set-up (environment, cost and tuning files,
 * hwloc), schedule building (the builders and the selector keep caches of
 * their own), the list of states and the checks that swap MPI error
 * handlers.  It is never held across communication: a rank holding it
 * while waiting for a peer that waits for it in turn would deadlock.
 */
#include "api.h"

#include <stdatomic.h>

#ifndef VINE_NO_THREADS
#include <pthread.h>

static atomic_int multiple = -1; /* -1: not asked yet */
static pthread_mutex_t big = PTHREAD_MUTEX_INITIALIZER;

int vine__mt(void)
{
    int v = atomic_load_explicit(&multiple, memory_order_relaxed);
    if (v < 0) {
        /* Before MPI_Init (vine_set_algorithm may come first), and in a
         * program of the MPI 4 sessions model alone, which never calls it,
         * MPI tells no level: answer 1, safe for any, and ask again later.
         * The answer goes from 1 to a final one only, so a lock taken under
         * 1 and left under 0 stays taken where nobody takes it again. */
        int init = 0, provided = MPI_THREAD_SINGLE;
        if (MPI_Initialized(&init) != MPI_SUCCESS || !init)
            return 1;
        if (MPI_Query_thread(&provided) != MPI_SUCCESS)
            provided = MPI_THREAD_SINGLE;
        v = provided == MPI_THREAD_MULTIPLE;
        atomic_store_explicit(&multiple, v, memory_order_relaxed);
    }
    return v;
}

void vine__lock(void)
{
    if (vine__mt())
        pthread_mutex_lock(&big);
}

void vine__unlock(void)
{
    if (vine__mt())
        pthread_mutex_unlock(&big);
}
#else
/* The build without threads (SimGrid's SMPI) is never thread-safe. */
int vine__mt(void)
{
    return 0;
}

void vine__lock(void) {}

void vine__unlock(void) {}
#endif
