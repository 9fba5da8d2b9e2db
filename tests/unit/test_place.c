/*
 * Unit test of rank placement (src/topo/topo_place.c, topo_place.h), no MPI:
 * block and round-robin layouts against their definitions in topo.h, ranks
 * per host, seeded random allocations (deterministic for a seed, different
 * across seeds, distinct sorted hosts, uniform: every host and every subset
 * drawn about equally often over many seeds), hosts files as `scontrol show
 * hostnames` prints them (against the Slurm sample of tests/data/topo), host
 * name lists, and the messages of every refusal.  A 100,000-host
 * topology checks that name lookup does not depend on a linear search.
 * Usage: test_place DATA_DIR.  Prints "place: N checks, M failed".
 */
#include "check.h"
#include "topo/topo.h"
#include "topo/topo_place.h"
#include "topo/topo_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tmp_dir[256];

static const char *write_tmp(const char *name, const char *s)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", tmp_dir, name);
    FILE *f = fopen(path, "wb");
    if (!f) {
        printf("cannot write %s\n", path);
        exit(2);
    }
    fputs(s, f);
    fclose(f);
    return path;
}

/* A star: nh hosts named fmt % i (or unnamed when fmt is NULL) on one switch. */
static void star(vine_topo *t, int nh, const char *fmt)
{
    vine__topo_init(t);
    for (int h = 0; h < nh; h++) {
        char name[32];
        if (fmt)
            snprintf(name, sizeof name, fmt, h);
        vine__topo_add_vertex(t, VINE_V_HOST, 0, fmt ? name : NULL);
    }
    int s = vine__topo_add_vertex(t, VINE_V_SWITCH, 0, "sw");
    for (int h = 0; h < nh; h++)
        vine__topo_add_link(t, h, s, VINE_TOPO_BW, VINE_TOPO_LAT, VINE_LVL_HOST);
    vine__topo_finish(t);
}

static int place(const vine_topo *t, const char *spec, int n, int *rh, char *err, size_t len)
{
    for (int r = 0; r < n; r++)
        rh[r] = -7;
    err[0] = '\0';
    return vine__place(t, spec, n, rh, err, len);
}

static void expect_place(const vine_topo *t, const char *spec, int n, const int *want)
{
    int rh[64];
    char err[256];
    int rc = place(t, spec, n, rh, err, sizeof err);
    CHECK(rc == VINE_OK, "%s: %s", spec, err);
    int same = rc == VINE_OK;
    for (int r = 0; same && r < n; r++)
        same = rh[r] == want[r];
    CHECK(same, "%s on %d ranks: wrong hosts", spec, n);
}

static void expect_refused(const vine_topo *t, const char *spec, int n, const char *want)
{
    int *rh = malloc(((size_t)n + 1) * sizeof *rh);
    char err[512];
    int rc = place(t, spec, n, rh, err, sizeof err);
    CHECK(rc == VINE_ERR_UNSUPPORTED && strstr(err, want), "%s: rc %d, \"%s\" lacks \"%s\"", spec,
          rc, err, want);
    free(rh);
}

static void test_layouts(void)
{
    vine_topo t;
    star(&t, 10, "n%02d");
    int id7[] = {0, 1, 2, 3, 4, 5, 6};
    expect_place(&t, "block", 7, id7);
    expect_place(&t, NULL, 7, id7);
    expect_place(&t, "", 7, id7);
    expect_place(&t, "block:ppn=1", 7, id7);
    int b3[] = {0, 0, 0, 1, 1, 1, 2};
    expect_place(&t, "block:ppn=3", 7, b3);
    int b4[] = {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4,
                5, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 8, 8, 8, 8, 9, 9, 9, 9};
    expect_place(&t, "block:ppn=4", 40, b4);
    expect_place(&t, "round-robin", 7, id7);
    int rr2[] = {0, 1, 2, 3, 0, 1, 2}; /* 7 ranks, 2 per host: 4 hosts, rank r on r mod 4 */
    expect_place(&t, "round-robin:ppn=2", 7, rr2);
    int rr3[] = {0, 1, 2, 0, 1, 2, 0, 1, 2};
    expect_place(&t, "round-robin:ppn=3", 9, rr3);
    int one[] = {0};
    expect_place(&t, "round-robin:ppn=5", 1, one);
    /* Every host used exactly ppn times. */
    int rh[64];
    char err[256];
    CHECK(place(&t, "round-robin:ppn=4", 40, rh, err, sizeof err) == VINE_OK, "rr 40: %s", err);
    int cnt[10] = {0};
    for (int r = 0; r < 40; r++)
        cnt[rh[r]]++;
    int even = 1;
    for (int h = 0; h < 10; h++)
        even &= cnt[h] == 4;
    CHECK(even, "round-robin:ppn=4 uses every host 4 times");
    CHECK(place(&t, "block", 0, rh, err, sizeof err) == VINE_OK, "0 ranks: %s", err);

    expect_refused(&t, "blok", 4, "expected block, round-robin");
    expect_refused(&t, "block:ppn=0", 4, "ppn=");
    expect_refused(&t, "block:ppn=x", 4, "ppn=");
    expect_refused(&t, "block:ppn=", 4, "unknown option");
    expect_refused(&t, "block:seed=3", 4, "unknown option \"seed=3\"");
    expect_refused(&t, "block:ppn=2,", 4, "empty option");
    expect_refused(&t, "round-robin:foo", 4, "unknown option \"foo\"");
    expect_refused(&t, "random-groups:seed=abc", 4, "seed=");
    expect_refused(&t, "random-groups:seed=99999999999999999999999", 4, "seed=");
    expect_refused(&t, "block", 11, "11 ranks at 1 per host need 11 hosts, the topology has 10");
    expect_refused(&t, "block:ppn=2", 21, "need 11 hosts");
    expect_refused(&t, "random-groups:seed=1,ppn=3", 31, "need 11 hosts");
    expect_refused(&t, "hosts:", 4, "needs a file name");
    expect_refused(&t, "hosts", 4, "needs a file name");
    expect_refused(&t, "block", -1, "negative");
    vine__topo_free(&t);
}

static void test_random(void)
{
    vine_topo t;
    star(&t, 100, NULL);
    int a[64], b[64];
    char err[256];
    /* Determinism, distinct ascending hosts, block order, ppn. */
    CHECK(place(&t, "random-groups:seed=1", 20, a, err, sizeof err) == VINE_OK, "%s", err);
    CHECK(place(&t, "random-groups:seed=1", 20, b, err, sizeof err) == VINE_OK, "%s", err);
    CHECK(memcmp(a, b, sizeof(int) * 20) == 0, "same seed, same hosts");
    int asc = 1;
    for (int r = 1; r < 20; r++)
        asc &= a[r] > a[r - 1];
    CHECK(asc && a[0] >= 0 && a[19] < 100, "random hosts distinct and ascending");
    /* Pinned for seed 1 (splitmix64, selection sampling; also what a Python
     * transcription of both draws): the same on every platform. */
    static const int pin[] = {5,  8,  14, 20, 39, 40, 42, 45, 48, 51,
                              57, 63, 64, 66, 67, 72, 75, 79, 86, 88};
    int pinned = 1;
    for (int r = 0; r < 20; r++)
        pinned &= a[r] == pin[r];
    if (!pinned) {
        printf("seed 1 drew:");
        for (int r = 0; r < 20; r++)
            printf(" %d", a[r]);
        printf("\n");
    }
    CHECK(pinned, "random-groups:seed=1 changed");
    CHECK(place(&t, "random-groups", 20, b, err, sizeof err) == VINE_OK &&
              memcmp(a, b, sizeof(int) * 20) == 0,
          "the default seed is 1");
    CHECK(place(&t, "random-groups:seed=2", 20, b, err, sizeof err) == VINE_OK &&
              memcmp(a, b, sizeof(int) * 20) != 0,
          "seeds 1 and 2 draw different hosts");
    int c[64];
    CHECK(place(&t, "random-groups:ppn=4,seed=7", 30, c, err, sizeof err) == VINE_OK, "%s", err);
    int hosts[8];
    CHECK(vine__place_random_hosts(&t, 8, 7, hosts, err, sizeof err) == VINE_OK, "%s", err);
    int ok = 1;
    for (int r = 0; r < 30; r++)
        ok &= c[r] == hosts[r / 4];
    CHECK(ok, "random-groups:ppn=4 is block order on vine__place_random_hosts' hosts");
    /* Different seeds differ: 200 seeds, 5 of 100 hosts, all draws distinct. */
    int draws[200][5], differ = 1;
    for (int s = 0; s < 200; s++)
        vine__place_random_hosts(&t, 5, (uint64_t)s * 7919 + 1, draws[s], err, sizeof err);
    for (int s = 0; s < 200 && differ; s++)
        for (int u = 0; u < s && differ; u++)
            differ = memcmp(draws[s], draws[u], sizeof draws[s]) != 0;
    CHECK(differ, "200 seeds gave a repeated 5-host draw");
    int all[100];
    CHECK(vine__place_random_hosts(&t, 100, 3, all, err, sizeof err) == VINE_OK && all[0] == 0 &&
              all[99] == 99,
          "drawing every host");
    CHECK(vine__place_random_hosts(&t, 101, 3, all, err, sizeof err) == VINE_ERR_UNSUPPORTED &&
              strstr(err, "101"),
          "drawing too many hosts: %s", err);
    vine__topo_free(&t);

    /* Uniformity: 3 of 8 hosts over 56000 seeds.  Each host is drawn with
     * probability 3/8 (21000 expected, sd 115), each of the 56 subsets with
     * probability 1/56 (1000 expected, sd 31): allow 6 sd. */
    star(&t, 8, NULL);
    static int per_host[8], per_set[256];
    for (int s = 0; s < 56000; s++) {
        int h3[3];
        vine__place_random_hosts(&t, 3, (uint64_t)s, h3, err, sizeof err);
        per_set[(1 << h3[0]) | (1 << h3[1]) | (1 << h3[2])]++;
        for (int k = 0; k < 3; k++)
            per_host[h3[k]]++;
    }
    int uni = 1, nsets = 0;
    for (int h = 0; h < 8; h++)
        uni &= per_host[h] > 21000 - 690 && per_host[h] < 21000 + 690;
    for (int m = 0; m < 256; m++) {
        if (!per_set[m])
            continue;
        nsets++;
        int bits = 0;
        for (int x = m; x; x >>= 1)
            bits += x & 1;
        uni &= per_set[m] > 1000 - 190 && per_set[m] < 1000 + 190 && bits == 3;
    }
    CHECK(uni && nsets == 56, "random allocations not uniform (%d subsets seen)", nsets);
    vine__topo_free(&t);
}

static void test_hosts_file(const char *data)
{
    char path[600], err[512];
    snprintf(path, sizeof path, "%s/slurm-tree.conf", data);
    vine_topo t;
    vine__topo_init(&t);
    int rc = vine__topo_read_slurm(path, &t, err, sizeof err);
    CHECK(rc == VINE_OK, "%s", err);
    if (rc != VINE_OK)
        return;
    /* hosts-slurm.txt: node005 node006 (blank) node001 node016 gpu1 */
    char spec[700];
    snprintf(spec, sizeof spec, "hosts:%s/hosts-slurm.txt", data);
    int want1[] = {4, 5, 0, 17, 12};
    expect_place(&t, spec, 5, want1);
    int want2[] = {4, 5, 0};
    expect_place(&t, spec, 3, want2);
    snprintf(spec, sizeof spec, "hosts:%s/hosts-slurm.txt,ppn=2", data);
    int want3[] = {4, 4, 5, 5, 0, 0, 17, 17, 12};
    expect_place(&t, spec, 9, want3);
    expect_refused(&t, spec, 11, "lists 5 hosts, 6 needed");

    const char *p = write_tmp("h1.txt", "node001\n  node002  \r\n# a comment\n\nnode003\n");
    snprintf(spec, sizeof spec, "hosts:%s", p);
    int want4[] = {0, 1, 2};
    expect_place(&t, spec, 3, want4);
    p = write_tmp("h2.txt", "node001\nnode099\n");
    snprintf(spec, sizeof spec, "hosts:%s", p);
    char want[700];
    snprintf(want, sizeof want, "%s:2: unknown host node099", p);
    expect_refused(&t, spec, 1, want); /* every line is checked, not only those used */
    p = write_tmp("h3.txt", "node001\n\nnode001\n");
    snprintf(spec, sizeof spec, "hosts:%s", p);
    snprintf(want, sizeof want, "%s:3: host node001 is listed twice (line 1)", p);
    expect_refused(&t, spec, 1, want);
    p = write_tmp("h4.txt", "node001 node002\n");
    snprintf(spec, sizeof spec, "hosts:%s", p);
    expect_refused(&t, spec, 1, "one host name per line");
    p = write_tmp("h5.txt", "");
    snprintf(spec, sizeof spec, "hosts:%s", p);
    expect_refused(&t, spec, 1, "lists 0 hosts, 1 needed");
    snprintf(spec, sizeof spec, "hosts:%s/none.txt,ppn=2", tmp_dir);
    snprintf(want, sizeof want, "%s/none.txt: cannot open", tmp_dir);
    expect_refused(&t, spec, 1, want);
    /* A comma in the file name; only a final ",ppn=K" is an option. */
    p = write_tmp("a,b.txt", "gpu2\ngpu1\n");
    snprintf(spec, sizeof spec, "hosts:%s,ppn=2", p);
    int want5[] = {13, 13, 12};
    expect_place(&t, spec, 3, want5);

    /* Name lists (an allocation of `vine sim allocations`). */
    char *names[] = {"node016", "gpu2", "node002"};
    int rh[8];
    CHECK(vine__place_host_names(&t, NULL, names, 3, 2, 5, rh, err, sizeof err) == VINE_OK &&
              rh[0] == 17 && rh[1] == 17 && rh[2] == 13 && rh[3] == 13 && rh[4] == 1,
          "host names: %s", err);
    char *bad[] = {"node016", "nodeX"};
    CHECK(vine__place_host_names(&t, NULL, bad, 2, 1, 2, rh, err, sizeof err) ==
                  VINE_ERR_UNSUPPORTED &&
              strstr(err, "unknown host nodeX"),
          "unknown name: %s", err);
    char *twice[] = {"gpu1", "gpu1"};
    CHECK(vine__place_host_names(&t, NULL, twice, 2, 1, 2, rh, err, sizeof err) ==
                  VINE_ERR_UNSUPPORTED &&
              strstr(err, "gpu1 given twice"),
          "duplicate name: %s", err);
    CHECK(vine__place_host_names(&t, NULL, names, 3, 1, 4, rh, err, sizeof err) ==
                  VINE_ERR_UNSUPPORTED &&
              strstr(err, "need 4 hosts, 3 given"),
          "too few names: %s", err);
    vine__topo_free(&t);
}

/* 100,000 hosts: a reversed hosts file and the map agree with the names. */
static void test_large(void)
{
    enum { N = 100000 };
    vine_topo t;
    star(&t, N, "c%06d");
    char *buf = malloc((size_t)N * 8 + 1), *w = buf;
    for (int h = N - 1; h >= 0; h--)
        w += sprintf(w, "c%06d\n", h);
    const char *p = write_tmp("big.txt", buf);
    free(buf);
    char spec[600], err[512];
    snprintf(spec, sizeof spec, "hosts:%s", p);
    int *rh = malloc(N * sizeof *rh);
    int rc = place(&t, spec, N, rh, err, sizeof err);
    int ok = rc == VINE_OK;
    for (int r = 0; ok && r < N; r++)
        ok = rh[r] == N - 1 - r;
    CHECK(ok, "100k hosts file: %s", err);
    vine_hostmap *m;
    CHECK(vine__hostmap_new(&t, &m) == VINE_OK, "hostmap");
    ok = 1;
    for (int h = 0; h < N && ok; h += 7) {
        char name[16];
        snprintf(name, sizeof name, "c%06d", h);
        ok = vine__hostmap_find(m, name) == h;
    }
    CHECK(ok && vine__hostmap_find(m, "c100000") == -1 && vine__hostmap_find(m, "sw") == -1,
          "hostmap lookups");
    vine__hostmap_free(m);
    free(rh);
    vine__topo_free(&t);
    /* Unnamed hosts are found as h<i>, as vine__topo_vname prints them. */
    star(&t, 12, NULL);
    CHECK(vine__hostmap_new(&t, &m) == VINE_OK && vine__hostmap_find(m, "h11") == 11 &&
              vine__hostmap_find(m, "h12") == -1,
          "unnamed hosts");
    vine__hostmap_free(m);
    vine__topo_free(&t);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        printf("usage: test_place DATA_DIR\n");
        return 2;
    }
    const char *tmp = getenv("TMPDIR");
    snprintf(tmp_dir, sizeof tmp_dir, "%s/vine_place_XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(tmp_dir)) {
        printf("cannot create a temporary directory\n");
        return 2;
    }
    test_layouts();
    test_random();
    test_hosts_file(argv[1]);
    test_large();
    const char *names[] = {"h1.txt", "h2.txt", "h3.txt", "h4.txt", "h5.txt", "a,b.txt", "big.txt"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char p[600];
        snprintf(p, sizeof p, "%s/%s", tmp_dir, names[i]);
        remove(p);
    }
    rmdir(tmp_dir);
    printf("place: %ld checks, %ld failed\n", checks, failures);
    return failures ? 1 : 0;
}
