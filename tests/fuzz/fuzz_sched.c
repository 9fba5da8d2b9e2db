/*
 * The fuzz harness "sched": every algorithm's schedules, checked by the
 * symbolic verifier (src/sched/verify.h) on cases drawn from the input,
 * where the verify tier sweeps a fixed grid.  The input's bytes pick the
 * collective, the algorithm, p (1..200, mostly small), the count (zero
 * included), the root, in place or not, a commutative op or not, a segment
 * size, irregular reduce_scatter counts, a level map ("block:",
 * "cyclic:" or "random:" with one or two levels) with or without remapping,
 * and a shared-memory region (64 to 1024 elements) with or without single copy.
 * A schedule the verifier rejects is a bug: the harness prints the case as a
 * `vine verify` command and aborts.  The "mpi" algorithm, which has no
 * schedule, is skipped.
 */
#include "fuzz.h"

#include "coll/coll.h"
#include "coll/levels.h"
#include "sched/verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads the input byte by byte; zeros once it runs out. */
typedef struct bytes {
    const uint8_t *d;
    size_t n, at;
} bytes;

static unsigned take(bytes *b)
{
    return b->at < b->n ? b->d[b->at++] : 0;
}

static unsigned take16(bytes *b)
{
    unsigned lo = take(b);
    return lo | take(b) << 8;
}

/* Prints the failing case a as a vine verify command line. */
static void report(const vine_algo *algo, const vine_args *a, const char *levels, int own_counts,
                   const char *msg)
{
    const char *coll = vine__coll_name(a->coll);
    fprintf(stderr, "sched: %s %s fails: %s\n", coll, algo->name, msg);
    fprintf(stderr,
            "  vine verify --coll %s --algo %s --ranks %d --count %zu --root %d --inplace %s", coll,
            algo->name, a->p, a->count, a->root, a->inplace ? "yes" : "no");
    if (!a->commutative)
        fprintf(stderr, " --noncommutative");
    if (a->seg_count)
        fprintf(stderr, " --seg %zu", a->seg_count);
    if (levels)
        fprintf(stderr, " --levels %s%s", levels, a->remap ? " --remap" : "");
    if (a->shm_node_count)
        fprintf(stderr, " --shm-count %zu --shm-single %s", a->shm_node_count,
                a->shm_single ? "yes" : "no");
    fprintf(stderr, "%s\n", own_counts ? " (with the input's reduce_scatter counts)" : "");
}

int vine_fuzz_sched(const uint8_t *data, size_t size)
{
    bytes b = {data, size, 0};
    vine_args a;
    memset(&a, 0, sizeof a);
    a.coll = (vine_coll)(take(&b) % VINE_COLL_COUNT);
    int nalgo = vine__algo_count(a.coll);
    vine_coll_info info;
    if (nalgo <= 0 || vine__verify_coll_info(a.coll, &info) != VINE_OK)
        return 0;
    const vine_algo *algo = vine__algo_nth(a.coll, (int)(take(&b) % (unsigned)nalgo));
    /* The MPI library's own collective has no schedule (vine verify skips it too). */
    if (algo->flags & VINE_ALGO_MPI)
        return 0;
    unsigned shape = take(&b);
    a.p = shape & 0x80 ? 1 + (int)(take16(&b) % 200) : 1 + (int)(take(&b) % 24);
    a.count = shape & 0x40 ? take16(&b) % 2000 : take(&b) % 40;
    unsigned flags = take(&b);
    a.root = info.rooted ? (int)(take16(&b) % (unsigned)a.p) : 0;
    a.inplace = flags & 1;
    a.commutative = !(flags & 2);
    a.seg_count = flags & 4 ? 1 + take(&b) % 64 : 0;
    a.remap = (flags & 8) != 0;
    a.shm_count = flags & 64 ? (size_t)64 << take(&b) % 5 : 0;
    a.shm_node_count = a.shm_count; /* as `vine verify --shm-count` sets both */
    a.shm_single = (flags & 128) != 0;

    size_t *counts = NULL, *displs = NULL;
    int own_counts = 0;
    if (info.vector) {
        counts = malloc((size_t)a.p * sizeof *counts);
        displs = malloc(((size_t)a.p + 1) * sizeof *displs);
        if (!counts || !displs)
            abort();
        vine__verify_counts(a.coll, a.p, a.count, counts, displs);
        if (a.coll == VINE_COLL_REDUCE_SCATTER && (flags & 16)) {
            own_counts = 1; /* irregular counts from the input, zeros included */
            for (int i = 0; i < a.p; i++) {
                counts[i] = take(&b) % 9;
                displs[i + 1] = displs[i] + counts[i];
            }
        }
        a.counts = counts;
        a.displs = displs;
    }

    /* The v collectives: tables of one of the verifier's distributions, packed or with gaps. */
    vine_vtables vt;
    if (vine__verify_vtables(&a, (int)(take(&b) % VINE_VDIST_COUNT), (flags & 16) != 0, &vt))
        abort();

    vine_levels m;
    char spec[64], err[256];
    int have_levels = 0;
    if (flags & 32) {
        unsigned kind = take(&b) % 3, n1 = 1 + take(&b) % 12, n2 = 1 + take(&b) % 4;
        int two = (take(&b) & 1) != 0;
        if (kind == 0)
            snprintf(spec, sizeof spec, two ? "block:%u,%u" : "block:%u", n1, n2);
        else if (kind == 1)
            snprintf(spec, sizeof spec, two ? "cyclic:%u,%u" : "cyclic:%u", n1, n2);
        else
            snprintf(spec, sizeof spec, two ? "random:%u:%u,%u" : "random:%u:%u", take(&b), n1, n2);
        if (vine__levels_parse(spec, a.p, &m, err, sizeof err) == VINE_OK) {
            a.levels = &m;
            have_levels = 1;
        }
    }

    /* Ranks of several nodes share no one segment (as the API layer sets it). */
    if (have_levels && !vine__levels_flat(&m))
        a.shm_count = 0;

    char msg[512];
    if (vine__verify_case(algo, &a, msg, sizeof msg) == VINE_ERR_INTERNAL) {
        report(algo, &a, have_levels ? spec : NULL, own_counts, msg);
        abort();
    }
    if (have_levels)
        vine__levels_free(&m);
    vine__verify_vtables_free(&a, &vt);
    free(counts);
    free(displs);
    return 0;
}
