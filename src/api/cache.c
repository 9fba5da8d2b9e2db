/*
 * The schedule cache of a communicator: up to VINE_CACHE_SIZE built
 * schedules, looked up by vine_key, the least recently used evicted first.
 * Repeated calls of one shape hit the most recently used entry, checked
 * before anything else, so a hit costs one key comparison.  An entry that
 * requests run is pinned (never evicted); when all are, a new schedule is
 * built outside the cache and freed with its last request (a blocking
 * call's then goes into one spare entry).
 */
#include "api.h"

#include <stdlib.h>
#include <string.h>

static int counts_equal(const size_t *a, const size_t *b, size_t n)
{
    if (!a || !b)
        return a == b;
    return memcmp(a, b, n * sizeof *a) == 0;
}

static int key_equal(const vine_key *a, const vine_key *b)
{
    return a->coll == b->coll && a->req == b->req && a->count == b->count && a->root == b->root &&
           a->inplace == b->inplace && a->commutative == b->commutative &&
           a->type_size == b->type_size && a->seg_count == b->seg_count &&
           a->tuning_gen == b->tuning_gen && a->shm_count == b->shm_count &&
           a->shm_single == b->shm_single && a->shm_node_count == b->shm_node_count &&
           a->shm_par_count == b->shm_par_count && a->ncounts == b->ncounts &&
           counts_equal(a->counts, b->counts, a->ncounts);
}

static vine_cache_entry *touch(vine_comm_state *st, int i)
{
    st->mru = i;
    st->cache[i].stamp = ++st->clock;
    return &st->cache[i];
}

vine_cache_entry *vine__cache_find(vine_comm_state *st, const vine_key *k)
{
    vine_cache_entry *e = &st->cache[st->mru];
    if (e->used && key_equal(&e->key, k))
        return e;
    for (int i = 0; i < VINE_CACHE_SIZE; i++)
        if (st->cache[i].used && key_equal(&st->cache[i].key, k))
            return touch(st, i);
    return NULL;
}

static void entry_free(vine_cache_entry *e)
{
    vine__exec_plan_free(&e->plan);
    if (e->used)
        vine__sched_free(&e->sched);
    free((void *)e->key.counts);
    memset(e, 0, sizeof *e);
}

/* Gives e the key k (with its own copy of the counts); 0 when out of memory. */
static int entry_key(vine_cache_entry *e, const vine_key *k)
{
    e->key = *k;
    if (k->counts) {
        size_t *copy = malloc((k->ncounts ? k->ncounts : 1) * sizeof *copy);
        if (!copy) {
            e->key.counts = NULL;
            return 0;
        }
        memcpy(copy, k->counts, k->ncounts * sizeof *copy);
        e->key.counts = copy;
    }
    e->used = 1;
    return 1;
}

vine_cache_entry *vine__cache_add(vine_comm_state *st, const vine_key *k, int pin)
{
    /* The least recently used entry that no request runs. */
    int victim = -1;
    for (int i = 0; i < VINE_CACHE_SIZE; i++) {
        if (st->cache[i].pins)
            continue;
        if (!st->cache[i].used) {
            victim = i;
            break;
        }
        if (victim < 0 || st->cache[i].stamp < st->cache[victim].stamp)
            victim = i;
    }
    if (victim < 0 && !pin) {
        /* Every slot runs a request: a blocking call's schedule goes into
         * the spare entry, which the next such call reuses. */
        victim = VINE_CACHE_SIZE;
    } else if (victim < 0) {
        /* ... and a request's lives outside the cache, and goes with the
         * last request that pins it. */
        vine_cache_entry *e = calloc(1, sizeof *e);
        if (e && !entry_key(e, k)) {
            free(e);
            e = NULL;
        }
        if (e)
            e->heap = 1;
        return e;
    }
    vine_cache_entry *e = victim < VINE_CACHE_SIZE ? &st->cache[victim] : &st->spare;
    if (st->memo.e == e)
        st->memo.valid = 0;
    if (st->vmemo.e == e)
        st->vmemo.valid = 0;
    entry_free(e);
    if (!entry_key(e, k))
        return NULL;
    return victim < VINE_CACHE_SIZE ? touch(st, victim) : e;
}

void vine__cache_drop(vine_cache_entry *e)
{
    /* The schedule was never built (vine__algo_build freed it on failure). */
    vine__sched_init(&e->sched, 0, 0);
    int heap = e->heap;
    entry_free(e);
    if (heap)
        free(e);
}

void vine__cache_pin(vine_cache_entry *e)
{
    e->pins++;
}

void vine__cache_unpin(vine_cache_entry *e)
{
    if (--e->pins == 0 && e->heap) {
        entry_free(e);
        free(e);
    }
}

void vine__cache_clear(vine_comm_state *st)
{
    st->memo.valid = 0;
    st->vmemo.valid = 0;
    free(st->vmemo.heap);
    st->vmemo.heap = NULL;
    st->vmemo.heap_bytes = 0;
    for (int i = 0; i < VINE_CACHE_SIZE; i++)
        entry_free(&st->cache[i]);
    entry_free(&st->spare);
}
