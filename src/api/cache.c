/*
 * The schedule cache of a communicator: up to VINE_CACHE_SIZE built
 * schedules, looked up by vine_key, the least recently used evicted first.
 * Repeated calls of one shape hit the most recently used entry, checked
 * before anything else, so a hit costs one key comparison.
 */
#include "api.h"

#include <stdlib.h>
#include <string.h>

static int counts_equal(const size_t *a, const size_t *b, int p)
{
    if (!a || !b)
        return a == b;
    return memcmp(a, b, (size_t)p * sizeof *a) == 0;
}

static int key_equal(const vine_key *a, const vine_key *b, int p)
{
    return a->coll == b->coll && a->req == b->req && a->count == b->count && a->root == b->root &&
           a->inplace == b->inplace && a->commutative == b->commutative &&
           a->type_size == b->type_size && a->seg_count == b->seg_count &&
           a->tuning_gen == b->tuning_gen && a->shm_count == b->shm_count &&
           a->shm_single == b->shm_single && a->shm_node_count == b->shm_node_count &&
           counts_equal(a->counts, b->counts, p);
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
    if (e->used && key_equal(&e->key, k, st->p))
        return e;
    for (int i = 0; i < VINE_CACHE_SIZE; i++)
        if (st->cache[i].used && key_equal(&st->cache[i].key, k, st->p))
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

vine_cache_entry *vine__cache_add(vine_comm_state *st, const vine_key *k)
{
    int victim = 0;
    for (int i = 0; i < VINE_CACHE_SIZE; i++) {
        if (!st->cache[i].used) {
            victim = i;
            break;
        }
        if (st->cache[i].stamp < st->cache[victim].stamp)
            victim = i;
    }
    vine_cache_entry *e = &st->cache[victim];
    if (st->memo.e == e)
        st->memo.valid = 0;
    entry_free(e);
    e->key = *k;
    if (k->counts) {
        size_t *copy = malloc((size_t)st->p * sizeof *copy);
        if (!copy) {
            e->key.counts = NULL;
            return NULL;
        }
        memcpy(copy, k->counts, (size_t)st->p * sizeof *copy);
        e->key.counts = copy;
    }
    e->used = 1;
    return touch(st, victim);
}

void vine__cache_drop(vine_cache_entry *e)
{
    /* The schedule was never built (vine__algo_build freed it on failure). */
    vine__sched_init(&e->sched, 0, 0);
    entry_free(e);
}

void vine__cache_clear(vine_comm_state *st)
{
    st->memo.valid = 0;
    for (int i = 0; i < VINE_CACHE_SIZE; i++)
        entry_free(&st->cache[i]);
}
