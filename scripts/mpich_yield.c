/*
 * A preload library for MPICH's test runs on machines with fewer cores than
 * ranks: it makes a waiting rank give its core away, as Open MPI does by
 * itself when it is oversubscribed (mpi_yield_when_idle).
 *
 * MPICH's ch4 device waits for messages by polling, without ever yielding the
 * processor.  With 8 ranks on 2 cores a rank that waits for a message keeps
 * its core until the scheduler preempts it, so every message costs a time
 * slice: on 2 cores the 8-rank bcast test took 74 s instead of 4 s.
 * Each turn of MPICH's polling loop calls UCX's ucp_worker_progress(); this
 * library wraps it and calls sched_yield() when the turn found nothing to do.
 * Results are unchanged, only the order in which the ranks run.
 *
 * It is used only by the MPI tests of an MPICH build (tests/mpi/launcher.cmake
 * sets LD_PRELOAD) and the scripts that run other test suites on MPICH; a process that does not
 * call ucp_worker_progress() is not affected.  The worker is declared as void * so that no UCX
 * header is needed: ucp_worker_h is a pointer.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sched.h>

typedef unsigned (*vine_progress_fn)(void *worker);

unsigned ucp_worker_progress(void *worker);

unsigned ucp_worker_progress(void *worker)
{
    static vine_progress_fn real;
    if (!real) {
        /* A data pointer converted to a function pointer: what dlsym()
         * returns for a function, as POSIX specifies. */
        void *sym = dlsym(RTLD_NEXT, "ucp_worker_progress");
        /* Where MPICH came with a module opened with RTLD_LOCAL (Python's
         * mpi4py), UCX is not in the global scope RTLD_NEXT searches. */
        void *ucp = sym ? NULL : dlopen("libucp.so.0", RTLD_LAZY | RTLD_NOLOAD);
        if (ucp)
            sym = dlsym(ucp, "ucp_worker_progress");
        if (!sym)
            return 0;
        *(void **)&real = sym;
    }
    unsigned events = real(worker);
    if (events == 0)
        sched_yield();
    return events;
}
