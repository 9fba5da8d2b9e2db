/*
 * Discovering the levels of a communicator (see levels_mpi.h).
 *
 * Every rank finds its node (the lowest rank sharing memory with it, from
 * MPI_Comm_split_type) and its host name, and sends both to rank 0, which
 * alone reads VINE_TOPOLOGY, looks every distinct host up, checks that the
 * groups nest, drops the levels that separate no ranks and broadcasts the
 * outcome: a status, one message and the group ids.  So the file is read
 * once per communicator, not once per rank, and all ranks agree; a last
 * reduction makes them agree on an allocation failure while finishing the
 * map too.  The collectives go to MPI under their PMPI names: with
 * libvine-mpi.so loaded, MPI_Bcast would be vine's own, which would discover
 * the levels of its communicator again, without end.  Cost: seven
 * collectives; O(p) memory and time on rank 0 (p host names, one lookup per
 * distinct host), O(levels * p) on the others.
 *
 * With VINE_NODE_LEVELS, each rank also says which NUMA node, package and
 * shared cache its binding lies in (levels_hwloc.h) in the same message, and
 * rank 0 adds the levels inside the nodes below the node (levels_inner.h):
 * no further collective.
 */
#include "levels_mpi.h"

#include "api.h"

#include "../sched/sched.h"
#include "../topo/hostgroups.h"
#include "../topo/topo_read_util.h"
#include "levels_hwloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(VINE_HOSTGROUPS_MAX + 1 <= VINE_LEVELS_MAX,
               "a node level and the host groups must fit in a level map");

/* What rank 0 says: the message is cut to this. */
#define LV_MSG_MAX 512
/* A host name, real (MPI_MAX_PROCESSOR_NAME) or pretend. */
#define LV_HOST_MAX (MPI_MAX_PROCESSOR_NAME + 1 + LV_MSG_MAX)
/* Room for one host's group names. */
#define LV_PATH_MAX 4096

/*
 * What each rank sends rank 0 before its name: its node, the pretend host's
 * flags, and where it lies inside the node (levels_hwloc.h).
 */
enum { H_NODE, H_FAKE, H_OK, H_LEN, H_WANT, H_STATE, H_DOM, H_INTS = H_DOM + VINE_INNER_KINDS };

/*
 * What rank 0 broadcasts before the message and the groups: nlevels counts
 * nsub; torus 1 when VINE_TOPOLOGY described a torus (the map's torus flag).
 */
enum { R_STATUS, R_NLEVELS, R_NSUB, R_TORUS, R_INTS };

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static void
say(char *msg, size_t len, const char *fmt, ...)
{
    if (!msg || !len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, len, fmt, ap);
    va_end(ap);
}

/* ---- this rank: its node and its host -------------------------------------- */

/* Parses a decimal N >= 1 at *s (moving past it); 0 when there is none. */
static long parse_count(const char **s)
{
    long n = 0;
    const char *p = *s;
    while (*p >= '0' && *p <= '9' && n <= 100000000L)
        n = n * 10 + (*p++ - '0');
    if (p == *s || n > 100000000L)
        return 0;
    *s = p;
    return n;
}

static int fake_sizes(const char *spec, const char *list, int w, char *host, size_t len, char *err,
                      size_t errlen)
{
    long size[64];
    int n = 0;
    for (const char *s = list;;) {
        long k = parse_count(&s);
        if (k == 0 || n == 64 || (*s && *s != ',')) {
            say(err, errlen,
                "VINE_TOPOLOGY_FAKE_HOSTS=%.100s: expected sizes:N[,N...] (N >= 1, "
                "at most 64 sizes)",
                spec);
            return VINE_ERR_UNSUPPORTED;
        }
        size[n++] = k;
        if (*s++ == '\0')
            break;
    }
    /* Hosts h0, h1, ... take size[0], size[1], ... ranks, the sizes repeating. */
    long start = 0, h = 0;
    while (w >= start + size[h % n])
        start += size[h++ % n];
    snprintf(host, len, "h%ld", h);
    return VINE_OK;
}

static int fake_list(const char *spec, const char *list, int w, char *host, size_t len, char *err,
                     size_t errlen)
{
    const char *s = list;
    for (int i = 0; i < w && s; i++) {
        s = strchr(s, ',');
        if (s)
            s++;
    }
    size_t n = s ? strcspn(s, ",") : 0;
    if (n == 0 || n >= len) {
        say(err, errlen, "VINE_TOPOLOGY_FAKE_HOSTS=%.100s: %s for the process of world rank %d",
            spec, s ? "no valid name" : "no name", w);
        return VINE_ERR_UNSUPPORTED;
    }
    memcpy(host, s, n);
    host[n] = '\0';
    return VINE_OK;
}

/* The pretend host of world rank w under VINE_TOPOLOGY_FAKE_HOSTS=spec. */
static int fake_host(const char *spec, int w, char *host, size_t len, char *err, size_t errlen)
{
    if (strncmp(spec, "block:", 6) == 0) {
        const char *s = spec + 6;
        long k = parse_count(&s);
        if (k > 0 && *s == '\0') {
            snprintf(host, len, "h%ld", w / k);
            return VINE_OK;
        }
    } else if (strncmp(spec, "sizes:", 6) == 0) {
        return fake_sizes(spec, spec + 6, w, host, len, err, errlen);
    } else if (strncmp(spec, "list:", 5) == 0) {
        return fake_list(spec, spec + 5, w, host, len, err, errlen);
    }
    say(err, errlen,
        "VINE_TOPOLOGY_FAKE_HOSTS=%.100s: expected block:K, sizes:N[,N...] or list:NAME[,NAME...]",
        spec);
    return VINE_ERR_UNSUPPORTED;
}

/*
 * Fills hdr and host (or, with hdr[H_OK] = 0, an error message in host) for
 * this rank; host holds len >= LV_HOST_MAX bytes.  Returns an MPI error code
 * of a failed call only.
 */
static int local_info(MPI_Comm comm, int rank, int *hdr, char *host, size_t len)
{
    /* Collective over comm whatever the settings, so no rank can skip it. */
    MPI_Comm node;
    int nrank, leader = rank;
    int rc = MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
    if (rc == MPI_SUCCESS && (rc = MPI_Comm_rank(node, &nrank)) == MPI_SUCCESS)
        rc = PMPI_Bcast(&leader, 1, MPI_INT, 0, node);
    if (rc != MPI_SUCCESS)
        return rc;
    MPI_Comm_free(&node);
    hdr[H_NODE] = leader;
    hdr[H_OK] = 1;
    const char *fake = getenv("VINE_TOPOLOGY_FAKE_HOSTS");
    hdr[H_FAKE] = fake && *fake;
    /* The pretend settings name ranks of MPI_COMM_WORLD, or of comm under
     * the sessions model alone (no MPI_COMM_WORLD). */
    int w = rank;
    if (vine__world_up())
        MPI_Comm_rank(MPI_COMM_WORLD, &w);
    if (hdr[H_FAKE]) {
        /* On failure the message takes the host's place. */
        hdr[H_OK] = fake_host(fake, w, host, len, host, len) == VINE_OK;
    } else {
        int n = 0;
        if ((rc = MPI_Get_processor_name(host, &n)) != MPI_SUCCESS)
            return rc;
        host[n < 0 ? 0 : n] = '\0';
    }
    vine_inner_where where;
    char err[LV_MSG_MAX];
    if (vine__inner_where(w, &where, err, sizeof err) != VINE_OK && hdr[H_OK]) {
        snprintf(host, len, "%s", err);
        hdr[H_OK] = 0;
    }
    hdr[H_WANT] = where.want;
    hdr[H_STATE] = where.state;
    for (int k = 0; k < VINE_INNER_KINDS; k++)
        hdr[H_DOM + k] = where.dom[k];
    hdr[H_LEN] = (int)strlen(host) + 1;
    return MPI_SUCCESS;
}

/* ---- rank 0: the map ------------------------------------------------------ */

/* What rank 0 has gathered and works out. */
typedef struct lv_plan {
    int p;
    const int *hdr;     /* H_INTS per rank */
    const char **host;  /* per rank, into the gathered names */
    const char *spec;   /* VINE_TOPOLOGY, NULL when unset */
    int torus;          /* spec is a torus: (hostgroups.h) */
    int nup;            /* levels above the node, before dropping */
    int *raw;           /* (1 + nup) * p ids; level 0 the node */
    const char **gname; /* nup * p: rank r's group name at level l >= 1 */
    int ngroups[VINE_LEVELS_MAX];
    char msg[LV_MSG_MAX];
} lv_plan;

/* Renumbers a level's ids (all below p) densely in order of first rank; returns their number. */
static int dense(int *g, int p, int *scratch)
{
    int n = 0;
    for (int i = 0; i < p; i++)
        scratch[i] = -1;
    for (int r = 0; r < p; r++) {
        if (scratch[g[r]] < 0)
            scratch[g[r]] = n++;
        g[r] = scratch[g[r]];
    }
    return n;
}

/* Level 0: the nodes, real or pretend; checks the pretend hosts. */
static int plan_nodes(lv_plan *pl, int *scratch)
{
    int p = pl->p;
    for (int r = 0; r < p; r++) {
        const int *h = pl->hdr + (size_t)r * H_INTS;
        if (!h[H_OK]) {
            say(pl->msg, sizeof pl->msg, "rank %d: %s", r, pl->host[r]);
            return MPI_ERR_OTHER;
        }
        if (h[H_FAKE] != pl->hdr[H_FAKE]) {
            say(pl->msg, sizeof pl->msg,
                "VINE_TOPOLOGY_FAKE_HOSTS is set on rank %d but not on rank %d", h[H_FAKE] ? r : 0,
                h[H_FAKE] ? 0 : r);
            return MPI_ERR_OTHER;
        }
    }
    vine_strmap first;
    vine__strmap_init(&first);
    for (int r = 0; r < p; r++) {
        int old = -1;
        if (pl->hdr[H_FAKE] && vine__strmap_add(&first, pl->host[r], r, &old) != VINE_OK) {
            vine__strmap_free(&first);
            return MPI_ERR_NO_MEM;
        }
        int key = pl->hdr[H_FAKE] ? (old >= 0 ? old : r) : pl->hdr[(size_t)r * H_INTS + H_NODE];
        pl->raw[r] = key >= 0 && key < p ? key : 0;
    }
    vine__strmap_free(&first);
    pl->ngroups[0] = dense(pl->raw, p, scratch);
    return MPI_SUCCESS;
}

/*
 * Levels 1 .. nup from the host groups: one lookup per distinct host, whose
 * names are kept in paths[] (freed by the caller).  Group ids per level
 * come from one name map per level, in order of first rank.
 */
static int plan_groups(lv_plan *pl, const vine_hostgroups *hg, char **paths)
{
    int p = pl->p, rc = MPI_SUCCESS;
    vine_strmap hosts, names[VINE_HOSTGROUPS_MAX];
    vine__strmap_init(&hosts);
    for (int l = 0; l < pl->nup; l++)
        vine__strmap_init(&names[l]);
    char *buf = malloc(LV_PATH_MAX);
    if (!buf)
        rc = MPI_ERR_NO_MEM;
    for (int r = 0; r < p && rc == MPI_SUCCESS; r++) {
        int d;
        if (vine__strmap_add(&hosts, pl->host[r], r, &d) != VINE_OK) {
            rc = MPI_ERR_NO_MEM;
            break;
        }
        const char *nm[VINE_HOSTGROUPS_MAX];
        if (d < 0) {
            char err[LV_MSG_MAX];
            int st =
                vine__hostgroups_lookup(hg, pl->host[r], buf, LV_PATH_MAX, nm, err, sizeof err);
            if (st != VINE_OK) {
                say(pl->msg, sizeof pl->msg, "VINE_TOPOLOGY: %s (rank %d)", err, r);
                rc = st == VINE_ERR_NO_MEM ? MPI_ERR_NO_MEM : MPI_ERR_OTHER;
                break;
            }
            /* The names lie one after another in buf; keep them for this host. */
            const char *last = nm[pl->nup - 1];
            size_t used = (size_t)(last - buf) + strlen(last) + 1;
            if (!(paths[r] = malloc(used))) {
                rc = MPI_ERR_NO_MEM;
                break;
            }
            memcpy(paths[r], buf, used);
            for (int l = 0; l < pl->nup; l++)
                pl->gname[(size_t)l * p + r] = paths[r] + (nm[l] - buf);
        } else {
            for (int l = 0; l < pl->nup; l++)
                pl->gname[(size_t)l * p + r] = pl->gname[(size_t)l * p + d];
        }
        for (int l = 0; l < pl->nup && rc == MPI_SUCCESS; l++) {
            int old;
            const char *g = pl->gname[(size_t)l * p + r];
            if (vine__strmap_add(&names[l], g, (int)names[l].n, &old) != VINE_OK)
                rc = MPI_ERR_NO_MEM;
            pl->raw[(size_t)(l + 1) * p + r] = old >= 0 ? old : (int)names[l].n - 1;
        }
    }
    for (int l = 0; l < pl->nup; l++) {
        pl->ngroups[l + 1] = (int)names[l].n;
        vine__strmap_free(&names[l]);
    }
    vine__strmap_free(&hosts);
    free(buf);
    return rc;
}

/* Says that level l does not nest in level l - 1 at ranks a and b. */
static void say_not_nested(lv_plan *pl, int l, int a, int b)
{
    int p = pl->p;
    const char *ga = pl->gname[(size_t)(l - 1) * p + a], *gb = pl->gname[(size_t)(l - 1) * p + b];
    if (l == 1)
        say(pl->msg, sizeof pl->msg,
            "VINE_TOPOLOGY=%.150s: groups do not nest: ranks %d and %d share a node (hosts %.60s "
            "and %.60s) but are in groups %.60s and %.60s at level 1",
            pl->spec, a, b, pl->host[a], pl->host[b], ga, gb);
    else
        say(pl->msg, sizeof pl->msg,
            "VINE_TOPOLOGY=%.150s: groups do not nest: ranks %d (host %.60s) and %d (host %.60s) "
            "share group %.60s at level %d but are in groups %.60s and %.60s at level %d",
            pl->spec, a, pl->host[a], b, pl->host[b], pl->gname[(size_t)(l - 2) * p + a], l - 1, ga,
            gb, l);
}

/* Checks that every level nests in the next; ids are dense. */
static int plan_nested(lv_plan *pl, int *lead)
{
    int p = pl->p;
    for (int l = 1; l <= pl->nup; l++) {
        const int *lo = pl->raw + (size_t)(l - 1) * p, *hi = lo + p;
        for (int i = 0; i < pl->ngroups[l - 1]; i++)
            lead[i] = -1;
        for (int r = 0; r < p; r++) {
            if (lead[lo[r]] < 0) {
                lead[lo[r]] = r;
            } else if (hi[r] != hi[lead[lo[r]]]) {
                say_not_nested(pl, l, lead[lo[r]], r);
                return MPI_ERR_OTHER;
            }
        }
    }
    return MPI_SUCCESS;
}

/*
 * The levels kept: the node, then each level with fewer groups than the
 * last one kept and more than one (nested levels with as many groups as
 * the level below are the same partition).  keep[] gets their indices.
 */
static int plan_keep(const lv_plan *pl, int *keep)
{
    int n = 1;
    keep[0] = 0;
    for (int l = 1; l <= pl->nup; l++)
        if (pl->ngroups[l] > 1 && pl->ngroups[l] < pl->ngroups[keep[n - 1]])
            keep[n++] = l;
    return n;
}

static void say_found(lv_plan *pl, const vine_hostgroups *hg, const int *keep, int n)
{
    size_t len = sizeof pl->msg;
    int k = snprintf(pl->msg, len, "levels from VINE_TOPOLOGY=%.200s (%s): %d ranks on %d nodes",
                     pl->spec, vine__hostgroups_kind(hg), pl->p, pl->ngroups[0]);
    if (n == 1 && k > 0 && (size_t)k < len)
        snprintf(pl->msg + k, len - (size_t)k, "; no group above the nodes divides them");
    for (int i = 1; i < n && k > 0 && (size_t)k < len; i++)
        k += snprintf(pl->msg + k, len - (size_t)k, ", %d groups at level %d", pl->ngroups[keep[i]],
                      i);
}

/*
 * The levels inside the nodes (VINE_NODE_LEVELS, levels_inner.h), at most
 * room of them, into *sub (nsub * p ids, malloc'd), and one line in inner
 * ("" when none were asked for).  Level 0 of pl->raw holds the nodes.
 */
static int plan_inner(lv_plan *pl, int room, int **sub, int *nsub, char *inner, size_t len)
{
    int p = pl->p, want = pl->hdr[H_WANT];
    *sub = NULL;
    *nsub = 0;
    inner[0] = '\0';
    for (int r = 1; r < p; r++)
        if (pl->hdr[(size_t)r * H_INTS + H_WANT] != want) {
            say(pl->msg, sizeof pl->msg,
                "VINE_NODE_LEVELS asks for other levels on rank %d than on rank 0", r);
            return MPI_ERR_OTHER;
        }
    if (!want)
        return MPI_SUCCESS;
    for (int r = 0; r < p; r++) {
        int st = pl->hdr[(size_t)r * H_INTS + H_STATE];
        if (st != VINE_WHERE_OK) {
            snprintf(inner, len, "no levels inside the nodes: %s",
                     st == VINE_WHERE_NO_HWLOC ? "built without hwloc"
                                               : "hwloc could not load the topology");
            return MPI_SUCCESS;
        }
    }
    int *dom = malloc((size_t)VINE_INNER_KINDS * (size_t)p * sizeof *dom);
    int *out = malloc((size_t)(room > 0 ? room : 1) * (size_t)p * sizeof *out),
        kinds[VINE_INNER_KINDS];
    int rc = dom && out ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    for (int k = 0; rc == MPI_SUCCESS && k < VINE_INNER_KINDS; k++)
        for (int r = 0; r < p; r++)
            dom[(size_t)k * p + r] = pl->hdr[(size_t)r * H_INTS + H_DOM + k];
    if (rc == MPI_SUCCESS &&
        vine__inner_plan(p, pl->raw, dom, want, room, out, kinds, nsub, inner, len) != 0)
        rc = MPI_ERR_NO_MEM;
    free(dom);
    if (rc != MPI_SUCCESS || *nsub == 0)
        free(out);
    else
        *sub = out;
    return rc;
}

/*
 * Works out the map on rank 0 into *groups (nlevels * p ids, malloc'd; the
 * nsub levels inside the nodes first) and pl->msg.  Returns an MPI error
 * class; pl->msg says why on failure.
 */
static int plan(lv_plan *pl, int **groups, int *nlevels, int *nsub)
{
    int p = pl->p, rc, *sub = NULL;
    vine_hostgroups *hg = NULL;
    char **paths = NULL, inner[LV_MSG_MAX];
    int *scratch = malloc((size_t)p * sizeof *scratch);
    pl->raw = malloc((size_t)(VINE_HOSTGROUPS_MAX + 1) * (size_t)p * sizeof *pl->raw);
    pl->gname = NULL;
    if (!scratch || !pl->raw) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    if ((rc = plan_nodes(pl, scratch)) != MPI_SUCCESS)
        goto out;
    pl->nup = 0;
    if (pl->spec) {
        char err[LV_MSG_MAX];
        int st = vine__hostgroups_open(pl->spec, &hg, err, sizeof err);
        if (st != VINE_OK) {
            say(pl->msg, sizeof pl->msg, "VINE_TOPOLOGY: %s", err);
            rc = st == VINE_ERR_NO_MEM ? MPI_ERR_NO_MEM : MPI_ERR_OTHER;
            goto out;
        }
        pl->nup = vine__hostgroups_nlevels(hg);
        pl->torus = strcmp(vine__hostgroups_kind(hg), "torus") == 0;
        pl->gname = malloc((size_t)pl->nup * (size_t)p * sizeof *pl->gname);
        paths = calloc((size_t)p, sizeof *paths);
        if (!pl->gname || !paths) {
            rc = MPI_ERR_NO_MEM;
            goto out;
        }
        if ((rc = plan_groups(pl, hg, paths)) != MPI_SUCCESS ||
            (rc = plan_nested(pl, scratch)) != MPI_SUCCESS)
            goto out;
    }
    int keep[VINE_LEVELS_MAX];
    int n = plan_keep(pl, keep);
    if ((rc = plan_inner(pl, VINE_LEVELS_MAX - n, &sub, nsub, inner, sizeof inner)) != MPI_SUCCESS)
        goto out;
    if (!(*groups = malloc((size_t)(*nsub + n) * (size_t)p * sizeof **groups))) {
        rc = MPI_ERR_NO_MEM;
        goto out;
    }
    if (*nsub)
        memcpy(*groups, sub, (size_t)*nsub * (size_t)p * sizeof **groups);
    for (int i = 0; i < n; i++)
        memcpy(*groups + (size_t)(*nsub + i) * p, pl->raw + (size_t)keep[i] * p,
               (size_t)p * sizeof **groups);
    *nlevels = *nsub + n;
    if (hg)
        say_found(pl, hg, keep, n);
    else
        say(pl->msg, sizeof pl->msg,
            "no topology information above the nodes (VINE_TOPOLOGY is not set): %d ranks on %d "
            "nodes; %s",
            p, pl->ngroups[0],
            pl->ngroups[0] == 1 || pl->ngroups[0] == p
                ? (*nsub ? "no locality between the nodes" : "flat")
                : "hierarchical algorithms use the nodes");
    size_t used = strlen(pl->msg);
    /* A long description is cut: the return value says by how much, which nobody needs. */
    if (inner[0] && used < sizeof pl->msg &&
        snprintf(pl->msg + used, sizeof pl->msg - used, "; %s", inner) < 0)
        pl->msg[used] = '\0';
out:
    free(sub);
    if (rc == MPI_ERR_NO_MEM)
        say(pl->msg, sizeof pl->msg, "out of memory discovering the levels");
    for (int r = 0; paths && r < p; r++)
        free(paths[r]);
    free(paths);
    free(pl->gname);
    free(pl->raw);
    free(scratch);
    vine__hostgroups_free(hg);
    return rc;
}

/* ---- the exchange ----------------------------------------------------------- */

/* Rank 0: gathers every rank's header and host, works out the map. */
static int gather_and_plan(MPI_Comm comm, int p, int rank, const int *mine, const char *host,
                           int *res, int **groups, char *msg)
{
    int *hdr = NULL, *cnt = NULL, *dsp = NULL, ready = 1, rc;
    char *names = NULL;
    if (rank == 0) {
        hdr = malloc((size_t)p * H_INTS * sizeof *hdr);
        cnt = malloc((size_t)p * sizeof *cnt);
        dsp = malloc((size_t)p * sizeof *dsp);
        ready = hdr && cnt && dsp;
    }
    /* Everyone learns whether rank 0 could take the headers before sending them. */
    if ((rc = PMPI_Bcast(&ready, 1, MPI_INT, 0, comm)) != MPI_SUCCESS || !ready)
        goto out;
    if ((rc = PMPI_Gather(mine, H_INTS, MPI_INT, hdr, H_INTS, MPI_INT, 0, comm)) != MPI_SUCCESS)
        goto out;
    if (rank == 0) {
        size_t total = 0;
        for (int r = 0; r < p; r++) {
            cnt[r] = hdr[(size_t)r * H_INTS + H_LEN];
            dsp[r] = (int)total;
            total += (size_t)cnt[r];
        }
        ready = total <= (size_t)1 << 30 && (names = malloc(total ? total : 1));
    }
    if ((rc = PMPI_Bcast(&ready, 1, MPI_INT, 0, comm)) != MPI_SUCCESS || !ready)
        goto out;
    rc = PMPI_Gatherv(host, mine[H_LEN], MPI_CHAR, names, cnt, dsp, MPI_CHAR, 0, comm);
    if (rc != MPI_SUCCESS || rank != 0)
        goto out;
    const char **hosts = malloc((size_t)p * sizeof *hosts);
    if (!hosts) {
        ready = 0;
        goto out;
    }
    for (int r = 0; r < p; r++)
        hosts[r] = names + dsp[r];
    const char *spec = getenv("VINE_TOPOLOGY");
    lv_plan pl = {.p = p, .hdr = hdr, .host = hosts, .spec = spec && *spec ? spec : NULL};
    res[R_STATUS] = plan(&pl, groups, &res[R_NLEVELS], &res[R_NSUB]);
    res[R_TORUS] = pl.torus;
    free(hosts);
    memcpy(msg, pl.msg, LV_MSG_MAX);
out:
    if (rank == 0 && rc == MPI_SUCCESS && !ready) {
        res[R_STATUS] = MPI_ERR_NO_MEM;
        snprintf(msg, LV_MSG_MAX, "out of memory on rank 0 discovering the levels");
    }
    free(hdr);
    free(cnt);
    free(dsp);
    free(names);
    return rc;
}

/* What rank 0 broadcasts first: the outcome and its message. */
typedef struct lv_said {
    int res[R_INTS];
    char msg[LV_MSG_MAX];
} lv_said;

/*
 * Every rank: receives rank 0's outcome and makes the full map in *full,
 * straight into its group array once every rank has one, then splits it at
 * the node into *out (vine__levels_split_node: *full stays empty without
 * levels inside the nodes).  Leaves the outcome in said->res[R_STATUS];
 * returns the error of a failed MPI call only.
 */
static int receive(MPI_Comm comm, int p, int rank, lv_said *said, const int *groups,
                   vine_levels *full, vine_levels *out)
{
    int rc = PMPI_Bcast(said, (int)sizeof *said, MPI_BYTE, 0, comm);
    if (rc != MPI_SUCCESS)
        return rc;
    said->msg[LV_MSG_MAX - 1] = '\0';
    if (said->res[R_STATUS] != MPI_SUCCESS)
        return MPI_SUCCESS;
    int n = said->res[R_NLEVELS];
    int st = vine__levels_alloc(full, p, n), ok = st == VINE_OK, all = 0;
    if ((rc = PMPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm)) != MPI_SUCCESS)
        return rc;
    if (!all) {
        said->res[R_STATUS] = MPI_ERR_NO_MEM;
        snprintf(said->msg, LV_MSG_MAX, "out of memory%s discovering the levels",
                 ok ? " on another rank" : "");
        vine__levels_free(full);
        return MPI_SUCCESS;
    }
    if (rank == 0)
        memcpy(full->group, groups, (size_t)n * (size_t)p * sizeof *full->group);
    if ((rc = PMPI_Bcast(full->group, n * p, MPI_INT, 0, comm)) != MPI_SUCCESS)
        return rc;
    char err[LV_MSG_MAX];
    full->node = said->res[R_NSUB];
    full->torus = said->res[R_TORUS];
    st = vine__levels_finish(full, err, sizeof err);
    if (st == VINE_OK)
        st = vine__levels_split_node(full, out);
    if (st != VINE_OK) {
        vine__levels_free(full);
        vine__levels_free(out);
        said->res[R_STATUS] = st == VINE_ERR_NO_MEM ? MPI_ERR_NO_MEM : MPI_ERR_INTERN;
        snprintf(said->msg, LV_MSG_MAX, "%s",
                 st == VINE_ERR_NO_MEM ? "out of memory discovering the levels" : err);
    }
    return MPI_SUCCESS;
}

int vine__levels_discover(MPI_Comm comm, vine_levels *out, char *msg, size_t msglen)
{
    vine_levels full;
    int rc = vine__levels_discover_all(comm, out, &full, msg, msglen);
    vine__levels_free(&full);
    return rc;
}

int vine__levels_discover_all(MPI_Comm comm, vine_levels *out, vine_levels *full, char *msg,
                              size_t msglen)
{
    memset(out, 0, sizeof *out);
    memset(full, 0, sizeof *full);
    if (msg && msglen)
        msg[0] = '\0';
    int p, rank, rc;
    if ((rc = MPI_Comm_size(comm, &p)) != MPI_SUCCESS ||
        (rc = MPI_Comm_rank(comm, &rank)) != MPI_SUCCESS)
        return rc;
    if ((size_t)p * VINE_LEVELS_MAX > (size_t)1 << 30) {
        say(msg, msglen, "too many ranks (%d) for a level map", p);
        return MPI_ERR_OTHER;
    }
    int mine[H_INTS];
    char host[LV_HOST_MAX];
    lv_said said = {.res = {MPI_SUCCESS, 1, 0, 0}, .msg = ""};
    int *groups = NULL;
    if ((rc = local_info(comm, rank, mine, host, sizeof host)) == MPI_SUCCESS &&
        (rc = gather_and_plan(comm, p, rank, mine, host, said.res, &groups, said.msg)) ==
            MPI_SUCCESS)
        rc = receive(comm, p, rank, &said, groups, full, out);
    free(groups);
    if (rc != MPI_SUCCESS) {
        vine__levels_free(full);
        vine__levels_free(out);
        say(msg, msglen, VINE_LEVELS_MPI_FAILED);
        return rc;
    }
    /* Agree on a failure while finishing the map (memory). */
    int local = said.res[R_STATUS], worst = local;
    if ((rc = PMPI_Allreduce(&local, &worst, 1, MPI_INT, MPI_MAX, comm)) != MPI_SUCCESS)
        worst = rc;
    if (worst != MPI_SUCCESS && local == MPI_SUCCESS) {
        vine__levels_free(out);
        vine__levels_free(full);
        snprintf(said.msg, sizeof said.msg, "out of memory on another rank discovering the levels");
    }
    say(msg, msglen, "%s", said.msg);
    return worst;
}
