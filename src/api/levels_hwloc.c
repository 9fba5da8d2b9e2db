/*
 * Where this process lies inside its node, from hwloc (levels_hwloc.h).
 */
#include "levels_hwloc.h"
#include "api.h"

#include "../sched/sched.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(VINE_HAVE_HWLOC)
#include <hwloc.h>
#endif

/* VINE_TOPOLOGY_FAKE_BIND: -1 unset, 0 all, K > 0 block:K; -2 malformed. */
static long fake_bind(const char **spec)
{
    const char *v = getenv("VINE_TOPOLOGY_FAKE_BIND");
    *spec = v;
    if (!v || !*v)
        return -1;
    if (strcmp(v, "all") == 0)
        return 0;
    if (strncmp(v, "block:", 6) != 0)
        return -2;
    char *end;
    long k = strtol(v + 6, &end, 10);
    return end != v + 6 && !*end && k > 0 && k <= 1 << 20 ? k : -2;
}

#if defined(VINE_HAVE_HWLOC)

/* Loaded once, under vine__lock; read-only afterwards, which hwloc allows from any thread. */
static hwloc_topology_t topo;
static int loaded; /* 0: not tried, 1: loaded, -1: failed */

static int load_locked(void)
{
    if (loaded)
        return loaded > 0;
    loaded = -1;
    if (hwloc_topology_init(&topo) < 0)
        return 0;
    /* Cores, caches and NUMA nodes are all that is needed: no I/O devices. */
    hwloc_topology_set_io_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_NONE);
    if (hwloc_topology_load(topo) < 0) {
        hwloc_topology_destroy(topo);
        return 0;
    }
    loaded = 1;
    return 1;
}

static int load(void)
{
    vine__lock();
    int ok = load_locked();
    vine__unlock();
    return ok;
}

void vine__inner_release(void)
{
    if (loaded > 0)
        hwloc_topology_destroy(topo);
    loaded = 0;
}

/*
 * The binding: the pretend one, or the process's, within the machine's PUs.
 * Returns 0 when there is none to read (the set is then empty).
 */
static int binding(hwloc_bitmap_t set, long fake, int world_rank)
{
    hwloc_bitmap_zero(set);
    if (fake == 0) {
        hwloc_bitmap_copy(set, hwloc_topology_get_topology_cpuset(topo));
    } else if (fake > 0) {
        int npu = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
        for (long j = 0; j < fake && npu > 0; j++) {
            long i = ((long)world_rank * fake + j) % npu;
            hwloc_obj_t pu = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PU, (unsigned)i);
            if (pu && pu->cpuset)
                hwloc_bitmap_or(set, set, pu->cpuset);
        }
    } else if (hwloc_get_cpubind(topo, set, HWLOC_CPUBIND_PROCESS) < 0) {
        return 0;
    }
    hwloc_bitmap_and(set, set, hwloc_topology_get_topology_cpuset(topo));
    return !hwloc_bitmap_iszero(set);
}

/* The depth of the last-level cache (the highest level with a unified or data cache). */
static int cache_depth(void)
{
    static const hwloc_obj_type_t types[] = {HWLOC_OBJ_L5CACHE, HWLOC_OBJ_L4CACHE,
                                             HWLOC_OBJ_L3CACHE, HWLOC_OBJ_L2CACHE,
                                             HWLOC_OBJ_L1CACHE};
    for (size_t i = 0; i < sizeof types / sizeof *types; i++) {
        int d = hwloc_get_type_depth(topo, types[i]);
        if (d >= 0)
            return d;
    }
    return HWLOC_TYPE_DEPTH_UNKNOWN;
}

/*
 * The logical index of the first object at depth whose CPUs hold all of
 * set: VINE_INNER_ABSENT when the depth has no object with CPUs,
 * VINE_INNER_UNBOUND when none holds the set.
 */
static int domain_of(int depth, hwloc_const_bitmap_t set)
{
    if (depth == HWLOC_TYPE_DEPTH_UNKNOWN || depth == HWLOC_TYPE_DEPTH_MULTIPLE)
        return VINE_INNER_ABSENT;
    int n = hwloc_get_nbobjs_by_depth(topo, depth), any = 0;
    for (int i = 0; i < n; i++) {
        hwloc_obj_t o = hwloc_get_obj_by_depth(topo, depth, (unsigned)i);
        if (!o || !o->cpuset || hwloc_bitmap_iszero(o->cpuset))
            continue;
        any = 1;
        if (hwloc_bitmap_isincluded(set, o->cpuset))
            return (int)o->logical_index;
    }
    return any ? VINE_INNER_UNBOUND : VINE_INNER_ABSENT;
}

static void locate(vine_inner_where *w, long fake, int world_rank)
{
    if (!load()) {
        w->state = VINE_WHERE_NO_TOPO;
        return;
    }
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    if (!set) {
        w->state = VINE_WHERE_NO_TOPO;
        return;
    }
    if (binding(set, fake, world_rank)) {
        w->dom[VINE_INNER_NUMA] = domain_of(HWLOC_TYPE_DEPTH_NUMANODE, set);
        w->dom[VINE_INNER_PACKAGE] = domain_of(hwloc_get_type_depth(topo, HWLOC_OBJ_PACKAGE), set);
        w->dom[VINE_INNER_CACHE] = domain_of(cache_depth(), set);
    }
    hwloc_bitmap_free(set);
}

#else

void vine__inner_release(void) {}

static void locate(vine_inner_where *w, long fake, int world_rank)
{
    (void)fake;
    (void)world_rank;
    w->state = VINE_WHERE_NO_HWLOC;
}

#endif

int vine__inner_where(int world_rank, vine_inner_where *w, char *err, size_t errlen)
{
    memset(w, 0, sizeof *w);
    for (int k = 0; k < VINE_INNER_KINDS; k++)
        w->dom[k] = VINE_INNER_UNBOUND;
    if (vine__inner_parse(getenv("VINE_NODE_LEVELS"), &w->want, err, errlen) != 0)
        return VINE_ERR_UNSUPPORTED;
    if (!w->want)
        return VINE_OK;
    const char *spec;
    long fake = fake_bind(&spec);
    if (fake == -2) {
        if (err && errlen)
            snprintf(err, errlen, "VINE_TOPOLOGY_FAKE_BIND=%.100s: expected block:K or all", spec);
        return VINE_ERR_UNSUPPORTED;
    }
    locate(w, fake, world_rank);
    return VINE_OK;
}
