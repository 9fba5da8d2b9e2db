/*
 * Internal interface of the MPI API layer: per-communicator state, the
 * schedule cache and the algorithm choice.
 */
#ifndef VINE_API_H
#define VINE_API_H

#include "../coll/coll.h"
#include "../sched/exec.h"

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

/* Built schedules kept per communicator; the least recently used one goes first. */
#define VINE_CACHE_SIZE 64

/* What identifies a built schedule on one communicator (p and rank are fixed). */
typedef struct vine_key {
    vine_coll coll;
    int root;
    int inplace;
    int commutative;
    const vine_algo *req; /* the algorithm asked for; NULL for auto */
    size_t type_size;     /* auto's choice depends on the payload in bytes */
    size_t count;
    size_t seg_count;
    const size_t *counts; /* reduce_scatter only: p entries; NULL otherwise */
} vine_key;

typedef struct vine_cache_entry {
    vine_key key; /* key.counts is owned by the entry */
    uint64_t stamp;
    int used;
    const vine_algo *served; /* the algorithm that built sched */
    vine_sched sched;
    size_t max_reqs;
} vine_cache_entry;

typedef struct vine_comm_state {
    MPI_Comm user; /* the user's communicator, which holds this state */
    MPI_Comm comm; /* vine's private copy of it: messages never match the user's */
    int p, rank;
    size_t *counts, *displs; /* p and p + 1 entries for reduce_scatter(_block) */
    vine_exec_scratch scr;
    vine_cache_entry cache[VINE_CACHE_SIZE];
    int mru;
    uint64_t clock;
    struct vine_comm_state *prev, *next;
} vine_comm_state;

/*
 * Checks comm (MPI_ERR_COMM for MPI_COMM_NULL and intercommunicators) and
 * returns its size and rank, and vine's state for it when there is one
 * already (*st NULL otherwise).  Communicates with nobody.
 */
int vine__comm_lookup(MPI_Comm comm, vine_comm_state **st, int *p, int *rank);
/* vine's state for comm, created on first use (collective: duplicates comm). */
int vine__comm_state(MPI_Comm comm, vine_comm_state **st);

/* The cached entry for k, or NULL. */
vine_cache_entry *vine__cache_find(vine_comm_state *st, const vine_key *k);
/* A fresh entry for k (evicting the least recently used); NULL when out of memory. */
vine_cache_entry *vine__cache_add(vine_comm_state *st, const vine_key *k);
/* Forgets an entry whose schedule could not be built. */
void vine__cache_drop(vine_cache_entry *e);
void vine__cache_clear(vine_comm_state *st);

/*
 * The algorithm requested for coll (vine_set_algorithm, else the
 * environment); *req NULL means auto.  MPI_ERR_ARG when the environment
 * names an unknown algorithm.
 */
int vine__choose_requested(vine_coll coll, const vine_algo **req);
/* The segment size in elements from VINE_SEGMENT_SIZE (0 when unset). */
size_t vine__choose_seg_count(size_t type_size);
/*
 * Builds the schedule of a into s: req if it admits a and builds, else
 * auto's choice, else the collective's default.  Returns an MPI error class.
 */
int vine__choose_build(const vine_args *a, const vine_algo *req, size_t type_size, vine_sched *s,
                       const vine_algo **served);
/* Records the algorithm that served the latest call of coll. */
void vine__choose_note(vine_coll coll, const vine_algo *served);

/* The MPI error class for an enum vine_status. */
int vine__status_to_mpi(int status);

#endif
