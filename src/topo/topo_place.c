/*
 * Placement of ranks on hosts (MPI-free): vine__place (topo.h) and the
 * helpers of topo_place.h.
 *
 *   block[:ppn=K]                  rank r on host r / K
 *   round-robin[:ppn=K]            rank r on host r mod ceil(nranks / K)
 *   random-groups[:seed=S][,ppn=K] ceil(nranks / K) hosts drawn uniformly
 *                                  (seed 1 when not given), ascending, ranks
 *                                  in block order on them
 *   hosts:FILE[,ppn=K]             the hosts named in FILE, one per line as
 *                                  `scontrol show hostnames` prints them
 *                                  (blank lines and '#' lines skipped), in
 *                                  file order, ranks in block order
 *
 * Random allocations use selection sampling (Knuth, TAOCP vol. 2, 3.4.2,
 * Algorithm S): host i is taken with probability (still needed) / (hosts
 * left), exactly, with an unbiased bounded draw from splitmix64; the subset
 * is uniform and comes out sorted, in O(hosts) time and no extra memory.
 * Host names are found through a hash map built once per call (O(1) each),
 * so hosts: files of 100,000 names cost milliseconds.
 */
#include "topo_place.h"
#include "../sched/sched.h"
#include "topo_read_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VINE_PPN_MAX (1 << 20)

struct vine_hostmap {
    vine_strmap map;
    char **names; /* owned copies, one per host */
    int n;
};

void vine__hostmap_free(vine_hostmap *m)
{
    if (!m)
        return;
    for (int i = 0; i < m->n; i++)
        free(m->names[i]);
    free(m->names);
    vine__strmap_free(&m->map);
    free(m);
}

int vine__hostmap_new(const vine_topo *t, vine_hostmap **out)
{
    *out = NULL;
    vine_hostmap *m = calloc(1, sizeof *m);
    if (!m)
        return VINE_ERR_NO_MEM;
    vine__strmap_init(&m->map);
    if (t->nhosts > 0 && !(m->names = malloc((size_t)t->nhosts * sizeof *m->names))) {
        free(m);
        return VINE_ERR_NO_MEM;
    }
    for (int h = 0; h < t->nhosts; h++) {
        char buf[32];
        const char *nm = vine__topo_vname(t, t->host_vert[h], buf, sizeof buf);
        int old;
        if (!(m->names[h] = strdup(nm))) {
            vine__hostmap_free(m);
            return VINE_ERR_NO_MEM;
        }
        m->n++;
        /* A name two hosts share finds the first of them. */
        if (vine__strmap_add(&m->map, m->names[h], h, &old) != VINE_OK) {
            vine__hostmap_free(m);
            return VINE_ERR_NO_MEM;
        }
    }
    *out = m;
    return VINE_OK;
}

int vine__hostmap_find(const vine_hostmap *m, const char *name)
{
    return vine__strmap_get(&m->map, name);
}

int vine__place_random_hosts(const vine_topo *t, int nhosts, uint64_t seed, int *hosts, char *err,
                             size_t errlen)
{
    if (nhosts < 0 || nhosts > t->nhosts)
        return vine__errmsg(err, errlen, "cannot draw %d hosts from a topology of %d", nhosts,
                            t->nhosts);
    uint64_t state = seed;
    int need = nhosts, k = 0;
    for (int i = 0; i < t->nhosts && need > 0; i++) {
        if (vine__rand_below(&state, (uint64_t)(t->nhosts - i)) < (uint64_t)need) {
            hosts[k++] = i;
            need--;
        }
    }
    return VINE_OK;
}

int vine__place_on_hosts(const int *hosts, int nh, int ppn, int nranks, int *rank_host, char *err,
                         size_t errlen)
{
    if (ppn < 1 || nranks < 0)
        return vine__errmsg(err, errlen, "bad ranks per host (%d) or rank count (%d)", ppn, nranks);
    if ((long long)nh * ppn < nranks)
        return vine__errmsg(err, errlen, "%d ranks at %d per host need %lld hosts, %d given",
                            nranks, ppn, ((long long)nranks + ppn - 1) / ppn, nh);
    for (int r = 0; r < nranks; r++)
        rank_host[r] = hosts[r / ppn];
    return VINE_OK;
}

int vine__place_host_names(const vine_topo *t, const vine_hostmap *m, char *const *names,
                           int nnames, int ppn, int nranks, int *rank_host, char *err,
                           size_t errlen)
{
    vine_hostmap *own = NULL;
    int rc;
    if (!m) {
        if ((rc = vine__hostmap_new(t, &own)) != VINE_OK)
            return rc;
        m = own;
    }
    int *hosts = malloc(((size_t)nnames + 1) * sizeof *hosts);
    unsigned char *used = calloc((size_t)t->nhosts + 1, 1);
    rc = (!hosts || !used) ? VINE_ERR_NO_MEM : VINE_OK;
    for (int i = 0; i < nnames && rc == VINE_OK; i++) {
        int h = vine__hostmap_find(m, names[i]);
        if (h < 0)
            rc = vine__errmsg(err, errlen, "unknown host %.200s", names[i]);
        else if (used[h])
            rc = vine__errmsg(err, errlen, "host %.200s given twice", names[i]);
        else
            used[h] = 1;
        hosts[i] = h;
    }
    if (rc == VINE_OK)
        rc = vine__place_on_hosts(hosts, nnames, ppn, nranks, rank_host, err, errlen);
    free(hosts);
    free(used);
    vine__hostmap_free(own);
    return rc;
}

/* Reads the names of a hosts: file; fails naming the file and line. */
static int place_file(const vine_topo *t, const char *path, int need, int *hosts, char *err,
                      size_t errlen)
{
    vine_rfile f;
    int rc = vine__rfile_open(&f, path, err, errlen);
    if (rc != VINE_OK)
        return rc;
    vine_hostmap *m = NULL;
    unsigned char *used = calloc((size_t)t->nhosts + 1, 1);
    int *line_of = calloc((size_t)t->nhosts + 1, sizeof *line_of);
    if (!used || !line_of || (rc = vine__hostmap_new(t, &m)) != VINE_OK) {
        rc = VINE_ERR_NO_MEM;
        goto out;
    }
    int k = 0;
    char *s;
    while ((s = vine__rfile_line(&f))) {
        s = vine__skip_ws(s);
        char *e = s + strlen(s);
        while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
            *--e = '\0';
        if (*s == '\0' || *s == '#')
            continue;
        if (strpbrk(s, " \t")) {
            rc = vine__rerr(err, errlen, path, f.lineno, "one host name per line, found \"%.60s\"",
                            s);
            goto out;
        }
        int h = vine__hostmap_find(m, s);
        if (h < 0) {
            rc = vine__rerr(err, errlen, path, f.lineno, "unknown host %.200s", s);
            goto out;
        }
        if (used[h]) {
            rc = vine__rerr(err, errlen, path, f.lineno, "host %.200s is listed twice (line %d)", s,
                            line_of[h]);
            goto out;
        }
        used[h] = 1;
        line_of[h] = f.lineno;
        if (k < need)
            hosts[k] = h;
        k++;
    }
    if (k < need)
        rc = vine__rerr(err, errlen, path, 0, "lists %d hosts, %d needed", k, need);
out:
    vine__rfile_close(&f);
    vine__hostmap_free(m);
    free(used);
    free(line_of);
    return rc;
}

/* Parses a decimal number into *v (at most max); 0 on failure. */
static int parse_dec(const char *s, size_t n, uint64_t max, uint64_t *v)
{
    uint64_t x = 0;
    if (n == 0 || n > 20)
        return 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return 0;
        uint64_t d = (uint64_t)(s[i] - '0');
        if (x > (max - d) / 10)
            return 0;
        x = x * 10 + d;
    }
    *v = x;
    return 1;
}

int vine__place(const vine_topo *t, const char *spec, int nranks, int *rank_host, char *err,
                size_t errlen)
{
    if (!spec || !*spec)
        spec = "block";
    if (nranks < 0)
        return vine__errmsg(err, errlen, "placement %s: negative rank count", spec);
    const char *colon = strchr(spec, ':');
    size_t klen = colon ? (size_t)(colon - spec) : strlen(spec);
    const char *opts = colon ? colon + 1 : "";
    enum { BLOCK, RR, RANDOM, HOSTS } kind;
    if (klen == 5 && strncmp(spec, "block", 5) == 0)
        kind = BLOCK;
    else if (klen == 11 && strncmp(spec, "round-robin", 11) == 0)
        kind = RR;
    else if (klen == 13 && strncmp(spec, "random-groups", 13) == 0)
        kind = RANDOM;
    else if (klen == 5 && strncmp(spec, "hosts", 5) == 0)
        kind = HOSTS;
    else
        return vine__errmsg(
            err, errlen,
            "placement \"%.100s\": expected block, round-robin, random-groups or hosts:FILE", spec);
    uint64_t ppn = 1, seed = 1;
    char *file = NULL;
    if (kind == HOSTS) {
        /* FILE may hold commas; only a final ",ppn=K" is an option. */
        const char *p = strstr(opts, ",ppn=");
        const char *last = NULL;
        for (; p; p = strstr(p + 1, ",ppn="))
            last = p;
        size_t flen = strlen(opts);
        if (last && parse_dec(last + 5, strlen(last + 5), VINE_PPN_MAX, &ppn))
            flen = (size_t)(last - opts);
        else
            ppn = 1;
        if (flen == 0)
            return vine__errmsg(err, errlen, "placement \"%.100s\": hosts: needs a file name",
                                spec);
        if (!(file = malloc(flen + 1)))
            return VINE_ERR_NO_MEM;
        memcpy(file, opts, flen);
        file[flen] = '\0';
    } else {
        const char *o = opts;
        while (*o) {
            const char *end = strchr(o, ',');
            size_t n = end ? (size_t)(end - o) : strlen(o);
            if (n > 4 && strncmp(o, "ppn=", 4) == 0) {
                if (!parse_dec(o + 4, n - 4, VINE_PPN_MAX, &ppn))
                    return vine__errmsg(err, errlen, "placement \"%.100s\": ppn= needs 1..%d", spec,
                                        VINE_PPN_MAX);
            } else if (kind == RANDOM && n > 5 && strncmp(o, "seed=", 5) == 0) {
                if (!parse_dec(o + 5, n - 5, UINT64_MAX, &seed))
                    return vine__errmsg(err, errlen, "placement \"%.100s\": seed= needs a number",
                                        spec);
            } else {
                return vine__errmsg(err, errlen, "placement \"%.100s\": unknown option \"%.*s\"",
                                    spec, (int)n, o);
            }
            o += n + (end != NULL);
            if (end && !*o)
                return vine__errmsg(err, errlen, "placement \"%.100s\": empty option", spec);
        }
    }
    if (ppn < 1) {
        free(file);
        return vine__errmsg(err, errlen, "placement \"%.100s\": ppn= needs 1..%d", spec,
                            VINE_PPN_MAX);
    }
    int k = (int)ppn;
    int need = (int)(((long long)nranks + k - 1) / k);
    if (need > t->nhosts) {
        free(file);
        return vine__errmsg(
            err, errlen,
            "placement \"%.100s\": %d ranks at %d per host need %d hosts, the topology "
            "has %d",
            spec, nranks, k, need, t->nhosts);
    }
    int rc = VINE_OK;
    switch (kind) {
    case BLOCK:
        for (int r = 0; r < nranks; r++)
            rank_host[r] = r / k;
        break;
    case RR:
        for (int r = 0; r < nranks; r++)
            rank_host[r] = r % need;
        break;
    case RANDOM:
    case HOSTS: {
        int *hosts = malloc(((size_t)need + 1) * sizeof *hosts);
        if (!hosts) {
            rc = VINE_ERR_NO_MEM;
            break;
        }
        rc = kind == RANDOM ? vine__place_random_hosts(t, need, seed, hosts, err, errlen)
                            : place_file(t, file, need, hosts, err, errlen);
        if (rc == VINE_OK)
            rc = vine__place_on_hosts(hosts, need, k, nranks, rank_host, err, errlen);
        free(hosts);
        break;
    }
    }
    free(file);
    return rc;
}
