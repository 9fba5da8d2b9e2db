/*
 * User-defined reduction ops that vine's requests use (include/vine.h,
 * vine_op_free).
 *
 * MPI lets a program free an op while nonblocking collectives that use it
 * are pending, and while persistent ones that use it exist: they "complete
 * normally" (the MPI libraries keep a reference).  vine's requests call
 * MPI_Reduce_local with the op long after the call that started them, so
 * a request with a user-defined op holds it here (vine__op_hold, at its
 * creation) until the request is freed (vine__op_drop).  vine_op_free, which
 * is MPI_Op_free in libvine-mpi, frees a held op only when the last holder
 * drops it; an op nobody holds goes to the MPI library at once.
 *
 * The table is short (the user ops of pending requests, usually one or
 * two) and searched linearly.  Its own mutex guards it under
 * MPI_THREAD_MULTIPLE: the request layer drops ops while it holds its lock,
 * and nothing here takes another lock or communicates.
 */
#include "api.h"
#include "vine.h"

#include <stdlib.h>

#ifndef VINE_NO_THREADS
#include <pthread.h>
static pthread_mutex_t ops_lock = PTHREAD_MUTEX_INITIALIZER;

static void ops_enter(void)
{
    if (vine__mt())
        pthread_mutex_lock(&ops_lock);
}

static void ops_leave(void)
{
    if (vine__mt())
        pthread_mutex_unlock(&ops_lock);
}
#else
static void ops_enter(void) {}
static void ops_leave(void) {}
#endif

typedef struct {
    MPI_Op op;
    int refs;
    int doomed; /* the program freed it: freed with the last reference */
} held_op;

static held_op *held;
static int nheld, held_cap;

int vine__op_is_predefined(MPI_Op op)
{
    return op == MPI_SUM || op == MPI_PROD || op == MPI_MAX || op == MPI_MIN || op == MPI_LAND ||
           op == MPI_LOR || op == MPI_LXOR || op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR ||
           op == MPI_MAXLOC || op == MPI_MINLOC;
}

static held_op *find(MPI_Op op)
{
    for (int i = 0; i < nheld; i++)
        if (held[i].op == op)
            return &held[i];
    return NULL;
}

int vine__op_hold(MPI_Op op)
{
    if (op == MPI_OP_NULL || vine__op_is_predefined(op))
        return 0;
    ops_enter();
    held_op *h = find(op);
    if (!h && nheld == held_cap) {
        int cap = held_cap ? 2 * held_cap : 8;
        held_op *grown = realloc(held, (size_t)cap * sizeof *grown);
        if (grown) {
            held = grown;
            held_cap = cap;
        }
    }
    if (!h && nheld < held_cap) {
        h = &held[nheld++];
        *h = (held_op){op, 0, 0};
    }
    if (h)
        h->refs++;
    ops_leave();
    return h != NULL;
}

void vine__op_drop(MPI_Op op)
{
    ops_enter();
    held_op *h = find(op);
    MPI_Op gone = MPI_OP_NULL;
    if (h && --h->refs == 0) {
        if (h->doomed)
            gone = h->op;
        *h = held[--nheld];
    }
    ops_leave();
    if (gone != MPI_OP_NULL)
        PMPI_Op_free(&gone);
}

int vine_op_free(MPI_Op *op)
{
    int doomed = 0;
    if (op) {
        ops_enter();
        held_op *h = find(*op);
        if (h) {
            doomed = h->doomed;
            h->doomed = 1;
        }
        ops_leave();
        if (h && !doomed) {
            *op = MPI_OP_NULL;
            return MPI_SUCCESS;
        }
    }
    if (doomed) {
        /* A copy of a handle already freed: MPI's error for a freed op,
         * without freeing the op that requests still use. */
        MPI_Op none = MPI_OP_NULL;
        return PMPI_Op_free(&none);
    }
    /* Not held: the MPI library's answer, errors included. */
    return PMPI_Op_free(op);
}
