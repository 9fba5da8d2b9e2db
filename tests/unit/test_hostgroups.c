/*
 * Unit test of host groups (src/topo/hostgroups.c), no MPI: the paths of
 * group names that the samples of tests/data/levels give their hosts,
 * worked out by hand from each file (the files' headers say what they
 * hold); the hostname rules against arithmetic done here; every malformed
 * sample and setting refused with a message naming the file and line (or
 * the setting); and a deterministic fuzz of the map format that must never
 * crash.  Usage: test_hostgroups DATA_DIR.  Prints "hostgroups: N checks,
 * M failed".
 */
#include "check.h"
#include "sched/sched.h"
#include "topo/hostgroups.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *data_dir;
static char tmp_dir[256];

/* "PREFIX" DATA_DIR "/" name (a rotating static buffer, two at a time). */
static const char *sample(const char *prefix, const char *name)
{
    static char buf[2][1024];
    static int k;
    k ^= 1;
    snprintf(buf[k], sizeof buf[k], "%s%s/%s", prefix, data_dir, name);
    return buf[k];
}

/* Opens spec, which must succeed with the given kind and level count. */
static vine_hostgroups *open_ok(const char *spec, const char *kind, int nlevels)
{
    vine_hostgroups *hg = NULL;
    char err[512] = "";
    int rc = vine__hostgroups_open(spec, &hg, err, sizeof err);
    CHECK(rc == VINE_OK && hg, "open %s: rc %d: %s", spec, rc, err);
    if (!hg)
        return NULL;
    CHECK(strcmp(vine__hostgroups_kind(hg), kind) == 0, "%s: kind %s, expected %s", spec,
          vine__hostgroups_kind(hg), kind);
    CHECK(vine__hostgroups_nlevels(hg) == nlevels, "%s: %d levels, expected %d", spec,
          vine__hostgroups_nlevels(hg), nlevels);
    return hg;
}

/* host's groups must be the space-separated names of want. */
static void path_is(const vine_hostgroups *hg, const char *host, const char *want)
{
    char buf[1024], err[512] = "", got[1024] = "";
    const char *names[VINE_HOSTGROUPS_MAX];
    int rc = vine__hostgroups_lookup(hg, host, buf, sizeof buf, names, err, sizeof err);
    CHECK(rc == VINE_OK, "lookup %s: rc %d: %s", host, rc, err);
    if (rc != VINE_OK)
        return;
    for (int l = 0; l < vine__hostgroups_nlevels(hg); l++) {
        CHECK(names[l] >= buf && names[l] < buf + sizeof buf, "lookup %s: name %d outside buf",
              host, l);
        if (l)
            strcat(got, " ");
        strncat(got, names[l], sizeof got - strlen(got) - 2);
    }
    CHECK(strcmp(got, want) == 0, "host %s: groups \"%s\", expected \"%s\"", host, got, want);
}

static void lookup_fails(const vine_hostgroups *hg, const char *host, size_t buflen,
                         const char *what)
{
    char buf[1024], err[512] = "";
    const char *names[VINE_HOSTGROUPS_MAX];
    int rc = vine__hostgroups_lookup(hg, host, buf, buflen, names, err, sizeof err);
    CHECK(rc == VINE_ERR_UNSUPPORTED && strstr(err, what),
          "lookup %s: rc %d, err \"%s\", want \"%s\"", host, rc, err, what);
}

/* spec must be refused with a message holding what. */
static void open_fails(const char *spec, const char *what)
{
    vine_hostgroups *hg = (vine_hostgroups *)&hg;
    char err[512] = "";
    int rc = vine__hostgroups_open(spec, &hg, err, sizeof err);
    CHECK(rc == VINE_ERR_UNSUPPORTED && hg == NULL && strstr(err, what),
          "open %s: rc %d, err \"%s\", want \"%s\"", spec, rc, err, what);
    if (rc == VINE_OK)
        vine__hostgroups_free(hg);
}

static void test_map(void)
{
    /* With the prefix and found by its content alike. */
    for (int detect = 0; detect < 2; detect++) {
        vine_hostgroups *hg = open_ok(sample(detect ? "" : "map:", "map-good.map"), "map", 2);
        if (!hg)
            continue;
        for (int i = 1; i <= 4; i++) {
            char h[16];
            snprintf(h, sizeof h, "nid%04d", i);
            path_is(hg, h, "sw0 gA");
        }
        path_is(hg, "nid0005", "sw1 gA");
        path_is(hg, "nid0006", "sw1 gA");
        path_is(hg, "gpu1", "sw2 gB");
        /* A fully qualified name finds its short one. */
        path_is(hg, "nid0003.cluster.example.org", "sw0 gA");
        lookup_fails(hg, "nid0007", 1024, "map-good.map: host nid0007 is not listed");
        lookup_fails(hg, "nid", 1024, "not listed");
        lookup_fails(hg, ".nid0001", 1024, "not listed");
        lookup_fails(hg, "gpu1", 6, "too long");
        vine__hostgroups_free(hg);
    }
    open_fails(sample("map:", "map-bad-count.map"),
               "map-bad-count.map:3: 1 groups, but line 2 names 2");
    open_fails(sample("", "map-bad-count.map"), "map-bad-count.map:3:");
    open_fails(sample("map:", "map-bad-dup.map"),
               "map-bad-dup.map:4: host h2 is already listed on line 1");
    open_fails(sample("map:", "map-bad-nogroup.map"),
               "map-bad-nogroup.map:2: host h1 has no group");
    open_fails(sample("map:", "map-bad-hostlist.map"), "map-bad-hostlist.map:3: hostlist");
    open_fails(sample("map:", "map-bad-empty.map"), "map-bad-empty.map: no host line");
    open_fails(sample("map:", "map-bad-deep.map"), "map-bad-deep.map:1: 8 groups; at most 7");
    open_fails(sample("map:", "no-such-file.map"), "no-such-file.map: cannot open");
    open_fails(sample("", "no-such-file.map"), "no-such-file.map: cannot open");
    open_fails("map:", "no file named");
    open_fails("", "empty");
}

static void test_slurm(void)
{
    for (int detect = 0; detect < 2; detect++) {
        vine_hostgroups *hg =
            open_ok(sample(detect ? "" : "slurm:", "slurm-good.conf"), "slurm", 3);
        if (!hg)
            continue;
        path_is(hg, "n01", "leaf0 agg0 core");
        path_is(hg, "n02", "leaf0 agg0 core");
        path_is(hg, "n03", "leaf1 agg0 core");
        path_is(hg, "n04.local", "leaf1 agg0 core");
        path_is(hg, "n05", "leaf2 agg1 core");
        path_is(hg, "n06", "leaf2 agg1 core");
        /* A leaf under the top switch repeats itself below the top. */
        path_is(hg, "x1", "leafx leafx core");
        path_is(hg, "x2", "leafx leafx core");
        lookup_fails(hg, "n07", 1024, "slurm-good.conf: host n07 is not listed");
        vine__hostgroups_free(hg);
    }
    vine_hostgroups *hg = open_ok(sample("slurm:", "slurm-one.conf"), "slurm", 1);
    if (hg) {
        path_is(hg, "a1", "s0");
        path_is(hg, "a4", "s0");
        vine__hostgroups_free(hg);
    }
    /* The reader's sample: four leaves in two pods under one core. */
    hg = open_ok(sample("slurm:", "../topo/slurm-tree.conf"), "slurm", 3);
    if (hg) {
        path_is(hg, "node001", "leaf0 agg0 core");
        path_is(hg, "node008", "leaf1 agg0 core");
        path_is(hg, "gpu2", "leaf2 agg1 core");
        path_is(hg, "node016", "leaf3 agg1 core");
        vine__hostgroups_free(hg);
    }
    open_fails(sample("slurm:", "slurm-bad.conf"), "slurm-bad.conf:3: unknown key Nodez=");
    open_fails(sample("", "slurm-bad.conf"), "slurm-bad.conf:3:");
    /* A map read as Slurm is refused by the Slurm reader, with its line. */
    open_fails(sample("slurm:", "map-good.map"), "map-good.map:5:");
}

static void test_ibnet(void)
{
    for (int detect = 0; detect < 2; detect++) {
        vine_hostgroups *hg = open_ok(sample(detect ? "" : "ibnet:", "ibnet-good.txt"), "ibnet", 2);
        if (!hg)
            continue;
        path_is(hg, "hostA1", "leafA group0");
        path_is(hg, "hostA2", "leafA group0");
        path_is(hg, "hostB1", "leafB group1");
        lookup_fails(hg, "spine", 1024, "not listed");
        vine__hostgroups_free(hg);
    }
    open_fails(sample("ibnet:", "ibnet-bad.txt"), "ibnet-bad.txt:14:");
    open_fails(sample("", "ibnet-bad.txt"), "ibnet-bad.txt:14:");
}

static void test_regex(void)
{
    vine_hostgroups *hg = open_ok("regex:^x([0-9]+)c([0-9]+)s", "regex", 2);
    if (hg) {
        path_is(hg, "x1000c3s7b0n0", "1000/3 1000");
        path_is(hg, "x1000c0s0b0n1", "1000/0 1000");
        path_is(hg, "x9c12s1b1n1.hsn.example", "9/12 9");
        lookup_fails(hg, "nid0001", 1024,
                     "regex:^x([0-9]+)c([0-9]+)s: host nid0001 does not match");
        lookup_fails(hg, "x1000c3s7b0n0", 8, "too long");
        vine__hostgroups_free(hg);
    }
    hg = open_ok("regex:^([a-z]+)[0-9]+$", "regex", 1);
    if (hg) {
        path_is(hg, "gpu17", "gpu");
        path_is(hg, "cpu3", "cpu");
        /* The full name does not match; its short name does. */
        path_is(hg, "cpu3.local", "cpu");
        vine__hostgroups_free(hg);
    }
    open_fails("regex:^n([0-9]+", "regex:^n([0-9]+: bad regular expression");
    open_fails("regex:^n[0-9]+$", "no capture group");
    open_fails("regex:(a)(b)(c)(d)(e)(f)(g)(h)", "8 capture groups; at most 7");
    /* Expressions that make glibc's regcomp take gigabytes are refused first
     * (the first one is the fuzzer's, tests/data/fuzz/hostgroups). */
    open_fails("regex:^(s++++++++++++)k", "two repetition operators in a row");
    open_fails("regex:^(a){2}{3}", "two repetition operators in a row");
    open_fails("regex:^(x)a*?", "two repetition operators in a row");
    open_fails("regex:^(((a{99}){99}){99})", "repeats too much");
    open_fails("regex:^(a{256})", "a bound above 255");
    open_fails("block:4:^n(a{1,300})", "a bound above 255");
    /* Bounds, brackets, classes and escapes that are fine. */
    hg = open_ok("regex:^nid([0-9]{2})[0-9]{2,}(-[[:alpha:]]+)?\\.x{1,3}[]+*?{]*$", "regex", 2);
    if (hg) {
        path_is(hg, "nid1234-gpu.xx", "12/-gpu 12");
        path_is(hg, "nid123456.x+*{", "12/ 12");
        vine__hostgroups_free(hg);
    }
}

/* Every number 0..999 against the divisions done here. */
/* Hosts fmt % n, n below nodes: group n / (div[0] ... div[l]) at level l. */
static void numbers_match(const vine_hostgroups *hg, const char *fmt, const int *div, int ndiv,
                          int nodes)
{
    for (int n = 0; n < nodes; n++) {
        char host[64], want[128] = "";
        snprintf(host, sizeof host, fmt, n);
        for (int l = 0, d = 1; l < ndiv; l++) {
            d *= div[l];
            snprintf(want + strlen(want), sizeof want - strlen(want), "%s%d", l ? " " : "", n / d);
        }
        path_is(hg, host, want);
    }
}

static void block_matches(const vine_hostgroups *hg, const char *fmt, const int *div, int ndiv)
{
    numbers_match(hg, fmt, div, ndiv, 1000);
}

static void test_block(void)
{
    vine_hostgroups *hg = open_ok("block:4", "block", 1);
    if (hg) {
        block_matches(hg, "nid%04d", (const int[]){4}, 1);
        block_matches(hg, "node%d.cluster.org", (const int[]){4}, 1);
        lookup_fails(hg, "login", 1024, "block:4: host login does not match");
        lookup_fails(hg, "n1234567890123456789", 1024, "not a node number");
        vine__hostgroups_free(hg);
    }
    hg = open_ok("block:4,2,3", "block", 3);
    if (hg) {
        block_matches(hg, "c%d", (const int[]){4, 2, 3}, 3);
        vine__hostgroups_free(hg);
    }
    /* The node number is the rule's capture, not the name's last number. */
    hg = open_ok("block:16:^r([0-9]+)n[0-9]+$", "block", 1);
    if (hg) {
        block_matches(hg, "r%dn7", (const int[]){16}, 1);
        lookup_fails(hg, "r7", 1024, "does not match");
        vine__hostgroups_free(hg);
    }
    hg = open_ok("block:2:^([a-z]+)", "block", 1);
    if (hg) {
        lookup_fails(hg, "abc1", 1024, "block:2:^([a-z]+): host abc1: the captured part is not");
        vine__hostgroups_free(hg);
    }
    open_fails("block:0", "block:0: expected block sizes");
    open_fails("block:", "expected block sizes");
    open_fails("block:4,", "expected block sizes");
    open_fails("block:4x", "expected block sizes");
    open_fails("block:1,1,1,1,1,1,1,1", "too many levels");
    open_fails("block:4:^n([0-9]+)-([0-9]+)$", "exactly one capture group");
    open_fails("block:4:^n[0-9]+$", "exactly one capture group");
    open_fails("block:4:^n([0-9]+", "bad regular expression");
    open_fails("block:4294967296,4294967296", "too large");
}

/* ---- fuzz ------------------------------------------------------------------ */

static uint64_t rng = 0x6e57ed5eedULL;

static uint64_t next_rand(void)
{
    uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/*
 * Map files of random lines made of host names, hostlists, groups, comments
 * and junk: each is read or refused with a message, and every host of a
 * file read is found with as many groups as the file's levels.
 */
static void test_fuzz(void)
{
    static const char *const words[] = {"h1",     "h[1-3]", "h[3-1]",       "h[", "]", "s0",
                                        "g0",     "#",      "h[1-2]x[1-2]", "",   " ", "\t",
                                        "h2.dom", "\r",     "s1",           "x",  ",", "h[01-10]"};
    const size_t nw = sizeof words / sizeof *words;
    char path[512];
    snprintf(path, sizeof path, "%s/fuzz.map", tmp_dir);
    int read = 0;
    for (int iter = 0; iter < 2000; iter++) {
        FILE *f = fopen(path, "wb");
        if (!f) {
            CHECK(0, "cannot write %s", path);
            return;
        }
        int lines = 1 + (int)(next_rand() % 6);
        for (int l = 0; l < lines; l++) {
            int n = (int)(next_rand() % 5);
            for (int k = 0; k < n; k++)
                fprintf(f, "%s ", words[next_rand() % nw]);
            fputc('\n', f);
        }
        fclose(f);
        char spec[600];
        snprintf(spec, sizeof spec, "map:%s", path);
        vine_hostgroups *hg = NULL;
        char err[512] = "";
        int rc = vine__hostgroups_open(spec, &hg, err, sizeof err);
        CHECK((rc == VINE_OK) == (hg != NULL), "fuzz: rc %d but hg %p", rc, (void *)hg);
        CHECK(rc == VINE_OK || (rc == VINE_ERR_UNSUPPORTED && strstr(err, "fuzz.map")),
              "fuzz: rc %d, err \"%s\"", rc, err);
        if (!hg)
            continue;
        read++;
        char buf[256];
        const char *names[VINE_HOSTGROUPS_MAX];
        int nl = vine__hostgroups_nlevels(hg);
        CHECK(nl >= 1 && nl <= VINE_HOSTGROUPS_MAX, "fuzz: %d levels", nl);
        for (int h = 0; h <= 10; h++) {
            char host[16];
            snprintf(host, sizeof host, "h%d", h);
            rc = vine__hostgroups_lookup(hg, host, buf, sizeof buf, names, err, sizeof err);
            CHECK(rc == VINE_OK || strstr(err, "not listed"), "fuzz: lookup %s: %s", host, err);
            for (int l = 0; rc == VINE_OK && l < nl; l++)
                CHECK(names[l][0] != '\0', "fuzz: %s has an empty group", host);
        }
        vine__hostgroups_free(hg);
    }
    CHECK(read > 20, "fuzz: only %d of the files were read", read);
    remove(path);
}

/*
 * torus: a node's groups are its line of the last dimension, then its plane
 * ..., its number's row-major coordinates; numbers beyond the torus fail.
 */
static void test_torus(void)
{
    /* 2 x 3 x 4: node n is (n / 12, n / 4 % 3, n % 4); lines of 4, planes of 12. */
    vine_hostgroups *hg = open_ok("torus:2x3x4", "torus", 2);
    if (hg) {
        numbers_match(hg, "nid%04d", (const int[]){4, 3}, 2, 24);
        path_is(hg, "nid0023", "5 1");
        lookup_fails(
            hg, "nid0024", 1024,
            "torus:2x3x4: host nid0024: node number 24 lies outside the torus of 24 nodes");
        vine__hostgroups_free(hg);
    }
    /* One dimension: one group of all. A dimension of 1 repeats the level below it. */
    hg = open_ok("torus:8", "torus", 1);
    if (hg) {
        path_is(hg, "h7", "0");
        lookup_fails(hg, "h8", 1024, "lies outside the torus of 8 nodes");
        vine__hostgroups_free(hg);
    }
    hg = open_ok("torus:4x1x2:^r([0-9]+)n", "torus", 2);
    if (hg) {
        path_is(hg, "r5n3", "2 2");
        lookup_fails(hg, "n5", 1024, "does not match");
        vine__hostgroups_free(hg);
    }
    open_fails("torus:", "expected dimensions");
    open_fails("torus:4x", "expected dimensions");
    open_fails("torus:4x0", "expected dimensions");
    open_fails("torus:4,4", "expected dimensions");
    open_fails("torus:1x1x1x1x1x1x1x1x1", "too many dimensions");
    open_fails("torus:4294967296x4294967296", "too large");
    open_fails("torus:4:^n[0-9]+$", "exactly one capture group");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        printf("usage: test_hostgroups DATA_DIR\n");
        return 2;
    }
    data_dir = argv[1];
    const char *tmp = getenv("TMPDIR");
    snprintf(tmp_dir, sizeof tmp_dir, "%s/vine_hostgroups_XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(tmp_dir)) {
        printf("cannot create a temporary directory\n");
        return 2;
    }
    test_map();
    test_slurm();
    test_ibnet();
    test_regex();
    test_block();
    test_torus();
    test_fuzz();
    rmdir(tmp_dir);
    printf("hostgroups: %ld checks, %ld failed\n", checks, failures);
    return failures ? 1 : 0;
}
