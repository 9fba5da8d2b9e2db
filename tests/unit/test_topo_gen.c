/*
 * Unit test of the topology generators, presets and spec parser
 * (src/topo/topo_gen.c, topo_preset.c, topo_parse.c), no MPI.  Checks
 * against independent computations: vertex, host and link counts from the
 * closed formulas; every vertex's degree per level from the parameters;
 * diameters by BFS against the formulas; bisection widths by brute force
 * over switch subsets against hand-derived values; groups as the components
 * of the graph without global links; the dragonfly's global-link spread
 * counted per group pair; torus neighbours from coordinates.  Bad specs must
 * fail with one line and leave the topology empty.  Prints
 * "topo_gen: N checks, M failed".
 */
#include "check.h"
#include "topo/topo_gen.h"
#include "topo_bfs.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int build(const char *spec, vine_topo *t)
{
    char err[512];
    vine__topo_init(t);
    int rc = vine__topo_parse(spec, t, err, sizeof err);
    CHECK(rc == VINE_OK, "%s: rc %d: %s", spec, rc, err);
    return rc;
}

static int count_level(const vine_topo *t, int level)
{
    int n = 0;
    for (int i = 0; i < t->nlinks; i++)
        n += t->links[i].level == level;
    return n;
}

/* deg[v * VINE_LVL_COUNT + level] */
static int *degrees(const vine_topo *t)
{
    int *d = calloc((size_t)t->nvert * VINE_LVL_COUNT, sizeof *d);
    for (int i = 0; i < t->nlinks; i++) {
        d[t->links[i].a * VINE_LVL_COUNT + t->links[i].level]++;
        d[t->links[i].b * VINE_LVL_COUNT + t->links[i].level]++;
    }
    return d;
}

/* Structure every topology must have: adjacency consistent with the links,
 * every host with exactly one (HOST) link, no self loop, groups in range,
 * every HOST/LOCAL link inside one group and every GLOBAL link between two
 * different ones, hosts of a group connected without global links, the
 * whole graph connected. */
static void check_basic(const vine_topo *t, const char *what)
{
    int bad = 0;
    for (int i = 0; i < t->nlinks && !bad; i++) {
        const vine_link *l = &t->links[i];
        int ga = t->group[l->a], gb = t->group[l->b];
        if (l->a == l->b || l->a < 0 || l->b < 0 || l->a >= t->nvert || l->b >= t->nvert)
            bad = 1;
        else if (l->level == VINE_LVL_GLOBAL ? (ga == gb && ga >= 0) : (ga != gb || ga < 0))
            bad = 2;
        else if ((l->level == VINE_LVL_HOST) !=
                 ((t->kind[l->a] == VINE_V_HOST) != (t->kind[l->b] == VINE_V_HOST)))
            bad = 3;
        else if (t->kind[l->a] == VINE_V_HOST && t->kind[l->b] == VINE_V_HOST)
            bad = 4;
    }
    CHECK(!bad, "%s: link problem %d", what, bad);
    int *deg = degrees(t);
    int hosts = 0;
    bad = 0;
    for (int v = 0; v < t->nvert; v++) {
        int all = 0;
        for (int l = 0; l < VINE_LVL_COUNT; l++)
            all += deg[v * VINE_LVL_COUNT + l];
        if (all != t->adj_start[v + 1] - t->adj_start[v])
            bad = 1;
        if (t->group[v] < -1 || t->group[v] >= t->ngroups)
            bad = 2;
        if (t->kind[v] == VINE_V_HOST) {
            if (t->vert_host[v] != hosts || t->host_vert[hosts] != v)
                bad = 3;
            hosts++;
            if (all != 1 || deg[v * VINE_LVL_COUNT + VINE_LVL_HOST] != 1 || t->group[v] < 0)
                bad = 4;
        }
        for (int k = t->adj_start[v]; k < t->adj_start[v + 1]; k++)
            if (vine__topo_arc_tail(t, t->adj_arc[k]) != v)
                bad = 5;
    }
    free(deg);
    CHECK(!bad && hosts == t->nhosts, "%s: vertex problem %d (hosts %d/%d)", what, bad, hosts,
          t->nhosts);

    /* Components: without global links (must be the groups), and all links. */
    int *comp = malloc((size_t)t->nvert * sizeof *comp), *queue = malloc((size_t)t->nvert * 4);
    for (int pass = 0; pass < 2; pass++) {
        for (int v = 0; v < t->nvert; v++)
            comp[v] = -1;
        int ncomp = 0, host_comps = 0;
        bad = 0;
        for (int s = 0; s < t->nvert; s++) {
            if (comp[s] >= 0)
                continue;
            int qh = 0, qt = 0, has_host = 0;
            comp[s] = ncomp;
            queue[qt++] = s;
            while (qh < qt) {
                int v = queue[qh++];
                has_host |= t->kind[v] == VINE_V_HOST;
                if (pass == 0 && t->group[v] != t->group[s])
                    bad = 1;
                for (int k = t->adj_start[v]; k < t->adj_start[v + 1]; k++) {
                    int a = t->adj_arc[k];
                    if (pass == 0 && t->links[a >> 1].level == VINE_LVL_GLOBAL)
                        continue;
                    int w = vine__topo_arc_head(t, a);
                    if (comp[w] < 0) {
                        comp[w] = ncomp;
                        queue[qt++] = w;
                    }
                }
            }
            host_comps += has_host;
            ncomp++;
        }
        if (pass == 0)
            CHECK(!bad && host_comps == t->ngroups, "%s: %d host components, %d groups (%d)", what,
                  host_comps, t->ngroups, bad);
        else
            CHECK(ncomp == 1, "%s: %d components", what, ncomp);
    }
    free(comp);
    free(queue);
}

/* BFS from every vertex: the largest host-to-host and switch-to-switch distances. */
static void diameters(const vine_topo *t, int *hostd, int *swd)
{
    int *dist = malloc((size_t)t->nvert * sizeof *dist), *queue = malloc((size_t)t->nvert * 4);
    *hostd = *swd = 0;
    for (int s = 0; s < t->nvert; s++) {
        topo_bfs(t, s, dist, queue);
        for (int v = 0; v < t->nvert; v++) {
            if (t->kind[v] != t->kind[s])
                continue;
            int *m = t->kind[s] == VINE_V_HOST ? hostd : swd;
            if (dist[v] > *m)
                *m = dist[v];
        }
    }
    free(dist);
    free(queue);
}

/*
 * Bisection width in links: the fewest links cut by a partition of the
 * vertices with exactly half the hosts on each side.  Brute force over the
 * subsets of switches (every host hangs off one switch by one link, so
 * given the switches' sides the best host placement keeps each host with its
 * switch and moves the surplus across at one link each).  Switch 0 is fixed
 * on side 0 (the cut is symmetric).
 */
static int bisection(const vine_topo *t)
{
    int nsw = 0, sw_of[64], idx[4096], hosts_on[64] = {0};
    for (int v = 0; v < t->nvert; v++)
        if (t->kind[v] == VINE_V_SWITCH) {
            idx[v] = nsw;
            sw_of[nsw++] = v;
        }
    if (nsw > 24 || t->nhosts % 2)
        return -1;
    int sl[512][2], nsl = 0;
    for (int i = 0; i < t->nlinks; i++) {
        const vine_link *l = &t->links[i];
        if (t->kind[l->a] == VINE_V_HOST)
            hosts_on[idx[l->b]]++;
        else if (t->kind[l->b] == VINE_V_HOST)
            hosts_on[idx[l->a]]++;
        else {
            sl[nsl][0] = idx[l->a];
            sl[nsl][1] = idx[l->b];
            nsl++;
        }
    }
    (void)sw_of;
    int best = 1 << 30, half = t->nhosts / 2;
    for (uint32_t m = 0; m < (1u << (nsw - 1)); m++) {
        uint32_t side = m << 1; /* bit i: switch i on side 1 */
        int cut = 0, h1 = 0;
        for (int i = 0; i < nsw; i++)
            if (side >> i & 1)
                h1 += hosts_on[i];
        cut = abs(h1 - half);
        for (int i = 0; i < nsl && cut < best; i++)
            cut += (side >> sl[i][0] & 1) != (side >> sl[i][1] & 1);
        if (cut < best)
            best = cut;
    }
    return best;
}

static void test_dragonfly_small(void)
{
    vine_topo t;
    /* a=4 p=2 h=2: g = 9, one global link per pair of groups */
    if (build("dragonfly:a=4,p=2,h=2", &t) == VINE_OK) {
        check_basic(&t, "dragonfly 4/2/2");
        CHECK(strcmp(t.name, "dragonfly a=4 p=2 h=2 g=9") == 0, "name '%s'", t.name);
        CHECK(t.nhosts == 72 && t.nvert == 72 + 36 && t.ngroups == 9, "sizes %d %d %d", t.nhosts,
              t.nvert, t.ngroups);
        CHECK(count_level(&t, VINE_LVL_HOST) == 72 && count_level(&t, VINE_LVL_LOCAL) == 9 * 6 &&
                  count_level(&t, VINE_LVL_GLOBAL) == 36,
              "links per level");
        int *deg = degrees(&t), bad = 0;
        for (int v = 0; v < t.nvert; v++)
            if (t.kind[v] == VINE_V_SWITCH &&
                (deg[v * 4 + VINE_LVL_HOST] != 2 || deg[v * 4 + VINE_LVL_LOCAL] != 3 ||
                 deg[v * 4 + VINE_LVL_GLOBAL] != 2))
                bad++;
        CHECK(!bad, "dragonfly router degrees: %d wrong", bad);
        free(deg);
        int hd, sd;
        diameters(&t, &hd, &sd);
        CHECK(hd == 5 && sd == 3, "dragonfly diameters host %d switch %d (5, 3)", hd, sd);
        /* Absolute arrangement: port k of group x (router k / h) goes to
         * group k (k < x) or k + 1; the links of x's router r, in order. */
        int ok = 1;
        for (int x = 0; x < 9; x++)
            for (int k = 0; k < 8; k++) {
                int r = x * (4 + 8) + k / 2, want = k < x ? k : k + 1, found = 0;
                for (int q = t.adj_start[r]; q < t.adj_start[r + 1]; q++) {
                    int w = vine__topo_arc_head(&t, t.adj_arc[q]);
                    found +=
                        t.links[t.adj_arc[q] >> 1].level == VINE_LVL_GLOBAL && t.group[w] == want;
                }
                ok &= found == 1;
            }
        CHECK(ok, "dragonfly absolute arrangement");
        vine__topo_free(&t);
    }
    /* a=2 p=2 h=1 g=3: the routers form a 6-cycle (local, global, local,
     * ...), 2 hosts each: a balanced cut takes 3 consecutive routers, 2 links. */
    if (build("dragonfly:a=2,p=2,h=1", &t) == VINE_OK) {
        check_basic(&t, "dragonfly 2/2/1");
        int hd, sd;
        diameters(&t, &hd, &sd);
        CHECK(sd == 3 && hd == 5, "6-cycle diameters %d %d", hd, sd);
        CHECK(bisection(&t) == 2, "dragonfly 2/2/1 bisection %d (2)", bisection(&t));
        vine__topo_free(&t);
    }
    /* a=3 p=1 h=1 g=4: groups are triangles joined as K4; splitting a
     * triangle costs 2 local links, so the best cut splits the groups 2:2
     * and cuts the (g/2)^2 = 4 global links between the halves. */
    if (build("dragonfly:a=3,p=1,h=1", &t) == VINE_OK) {
        check_basic(&t, "dragonfly 3/1/1");
        CHECK(bisection(&t) == 4, "dragonfly 3/1/1 bisection %d (4)", bisection(&t));
        vine__topo_free(&t);
    }
    /* n: 5 hosts per group on routers of p = 2: 2, 2, 1, 0 */
    if (build("dragonfly:a=4,p=2,h=1,g=5,n=5", &t) == VINE_OK) {
        check_basic(&t, "dragonfly n=5");
        int *deg = degrees(&t), want[4] = {2, 2, 1, 0}, bad = 0;
        for (int x = 0; x < 5; x++)
            for (int r = 0; r < 4; r++)
                bad += deg[(x * 9 + r) * 4 + VINE_LVL_HOST] != want[r];
        CHECK(!bad && t.nhosts == 25, "n=5 host ports (%d wrong), %d hosts", bad, t.nhosts);
        free(deg);
        vine__topo_free(&t);
    }
}

/* Every (a, h, g): pairs of groups get floor or ceil of a h / (g - 1) links,
 * every group uses all its ports but at most one, routers fill in order. */
static void test_dragonfly_spread(void)
{
    vine_topo_linkparams lp;
    vine__topo_linkparams_default(&lp);
    char err[256];
    int cases = 0, bad = 0;
    for (int a = 1; a <= 5; a++)
        for (int h = 1; h <= 4; h++)
            for (int g = 1; g <= a * h + 1; g++) {
                vine_topo t;
                vine__topo_init(&t);
                if (vine__topo_gen_dragonfly(&t, a, 1, h, g, 0, &lp, err, sizeof err) != VINE_OK) {
                    bad++;
                    continue;
                }
                cases++;
                int *pair = calloc((size_t)g * g, sizeof *pair), *ports = calloc((size_t)g, 4);
                int *deg = degrees(&t);
                for (int i = 0; i < t.nlinks; i++)
                    if (t.links[i].level == VINE_LVL_GLOBAL) {
                        int x = t.group[t.links[i].a], y = t.group[t.links[i].b];
                        pair[x * g + y]++;
                        pair[y * g + x]++;
                        ports[x]++;
                        ports[y]++;
                    }
                int q = g > 1 ? a * h / (g - 1) : 0;
                for (int x = 0; x < g; x++) {
                    for (int y = 0; y < g; y++)
                        if (x != y && (pair[x * g + y] < q || pair[x * g + y] > q + 1))
                            bad++;
                    if (g > 1 && ports[x] < a * h - 1)
                        bad++;
                    /* routers of group x: full (h) up to the last used one */
                    for (int r = 0; r < a; r++) {
                        int gd = deg[(x * (a + a) + r) * 4 + VINE_LVL_GLOBAL];
                        int want = ports[x] - r * h;
                        want = want < 0 ? 0 : want > h ? h : want;
                        bad += gd != want;
                    }
                }
                free(pair);
                free(ports);
                free(deg);
                vine__topo_free(&t);
            }
    CHECK(!bad && cases == 170, "dragonfly spread: %d problems over %d cases", bad, cases);
}

static void test_dragonflyplus(void)
{
    vine_topo t;
    if (build("dragonflyplus:leaves=3,spines=2,p=2,h=2", &t) == VINE_OK) {
        check_basic(&t, "dragonfly+ 3/2/2/2");
        /* g = 5; per group 3 leaves, 2 spines, 6 hosts */
        CHECK(t.ngroups == 5 && t.nhosts == 30 && t.nvert == 5 * 11, "dragonfly+ sizes");
        CHECK(count_level(&t, VINE_LVL_LOCAL) == 5 * 6 && count_level(&t, VINE_LVL_GLOBAL) == 10,
              "dragonfly+ links per level");
        int *deg = degrees(&t), bad = 0;
        for (int x = 0; x < 5; x++)
            for (int s = 0; s < 5; s++) {
                int *d = &deg[(x * 11 + s) * 4];
                if (s < 3 ? d[1] != 2 || d[2] != 2 || d[3] != 0
                          : d[1] != 0 || d[2] != 3 || d[3] != 2)
                    bad++;
            }
        CHECK(!bad, "dragonfly+ degrees: %d wrong", bad);
        free(deg);
        int hd, sd;
        diameters(&t, &hd, &sd);
        /* host, leaf, spine with the link, spine, leaf, host */
        CHECK(hd == 5, "dragonfly+ host diameter %d (5)", hd);
        vine__topo_free(&t);
    }
    /* g=4, 2 leaves, 2 spines with h=2: 4 ports per group, 3 peers, the
     * extra port pairs groups (0,2) and (1,3).  Splitting a group's K2,2
     * costs 2, so the cut keeps groups whole: {0,2}|{1,3} cuts the single
     * links 0-1, 0-3, 2-1, 2-3: 4. */
    if (build("dragonflyplus:g=4,leaves=2,spines=2,p=1,h=2", &t) == VINE_OK) {
        check_basic(&t, "dragonfly+ g=4");
        CHECK(bisection(&t) == 4, "dragonfly+ bisection %d (4)", bisection(&t));
        vine__topo_free(&t);
    }
}

static void test_fattree(void)
{
    vine_topo t;
    /* Bine paper Fig. 1: 8 nodes, 4 leaves (2 down, 1 up), one core. */
    if (build("fattree:down=2/4,up=1", &t) == VINE_OK) {
        check_basic(&t, "fig1");
        CHECK(t.nhosts == 8 && t.nvert == 13 && t.ngroups == 4, "fig1 sizes %d %d %d", t.nhosts,
              t.nvert, t.ngroups);
        CHECK(count_level(&t, VINE_LVL_HOST) == 8 && count_level(&t, VINE_LVL_LOCAL) == 0 &&
                  count_level(&t, VINE_LVL_GLOBAL) == 4,
              "fig1 links per level");
        /* host h on leaf h / 2 = group h / 2; the core in no group */
        int ok = 1;
        for (int h = 0; h < 8; h++)
            ok &= t.group[t.host_vert[h]] == h / 2;
        ok &= t.group[12] == -1 && t.kind[12] == VINE_V_SWITCH;
        CHECK(ok, "fig1 groups");
        int hd, sd;
        diameters(&t, &hd, &sd);
        CHECK(hd == 4 && sd == 2, "fig1 diameters %d %d", hd, sd);
        /* 4 hosts a side = two leaves: their 2 uplinks */
        CHECK(bisection(&t) == 2, "fig1 bisection %d", bisection(&t));
        char d[512];
        vine__topo_describe(&t, d, sizeof d);
        CHECK(strstr(d, "8 hosts, 5 switches") && strstr(d, "4 global") &&
                  strstr(d, "4 groups of 2 hosts") && !strchr(d, '\n'),
              "describe: %s", d);
        vine__topo_free(&t);
    }
    /* 3 levels, down 2/2/3, up 2/2: 12 hosts, leaves 6, middle 3*2 = 6,
     * top 4, each level-i switch down[i] + up[i] links. */
    if (build("fattree:down=2/2/3,up=2/2,glevel=0", &t) == VINE_OK) {
        check_basic(&t, "ft3");
        CHECK(t.nhosts == 12 && t.nvert == 12 + 6 + 6 + 4 && t.ngroups == 6, "ft3 sizes");
        int *deg = degrees(&t), bad = 0, down[3] = {2, 2, 3}, up[3] = {2, 2, 0};
        for (int v = 12; v < t.nvert; v++) {
            int lev = v < 18 ? 0 : v < 24 ? 1 : 2, all = 0;
            for (int l = 1; l < 4; l++)
                all += deg[v * 4 + l];
            if (all != down[lev] + up[lev])
                bad++;
        }
        CHECK(!bad, "ft3 degrees: %d wrong", bad);
        free(deg);
        int hd, sd;
        diameters(&t, &hd, &sd);
        CHECK(hd == 6, "ft3 host diameter %d (6)", hd);
        vine__topo_free(&t);
    }
    /* The tapered tree of the marenostrum5 preset: 160-host subtrees, and
     * the bandwidth leaving a subtree is half its hosts' injection. */
    if (build("fattree:down=20/8/8,up=20/4,glevel=1", &t) == VINE_OK) {
        check_basic(&t, "mn5 tree");
        CHECK(t.nhosts == 1280 && t.ngroups == 8, "mn5 tree sizes");
        double inj = 0, up = 0;
        for (int i = 0; i < t.nlinks; i++) {
            const vine_link *l = &t.links[i];
            int ga = t.group[l->a], gb = t.group[l->b];
            if (l->level == VINE_LVL_HOST && ga == 0)
                inj += l->bw;
            if (l->level == VINE_LVL_GLOBAL && (ga == 0 || gb == 0))
                up += l->bw;
        }
        CHECK(inj == 160 * 25e9 && up * 2 == inj, "mn5 tree taper %g / %g", inj, up);
        vine__topo_free(&t);
    }
}

/* Router i's neighbours from its coordinates, independently of the generator. */
static void check_torus_neighbours(const vine_topo *t, int nd, const int *dims, int wrap)
{
    int n = 1, bad = 0;
    for (int k = 0; k < nd; k++)
        n *= dims[k];
    for (int i = 0; i < n && bad < 5; i++) {
        int want[64], nw = 0, c[16], x = i;
        for (int k = nd - 1; k >= 0; k--) {
            c[k] = x % dims[k];
            x /= dims[k];
        }
        for (int k = 0; k < nd; k++)
            for (int s = -1; s <= 1; s += 2) {
                int cc = c[k] + s;
                if (cc < 0 || cc >= dims[k]) {
                    if (!wrap)
                        continue;
                    cc = (cc + dims[k]) % dims[k];
                }
                if (cc == c[k])
                    continue;
                int j = 0;
                for (int q = 0; q < nd; q++)
                    j = j * dims[q] + (q == k ? cc : c[q]);
                int dup = 0;
                for (int q = 0; q < nw; q++)
                    dup |= want[q] == j;
                if (!dup)
                    want[nw++] = j;
            }
        int got = 0;
        for (int q = t->adj_start[i]; q < t->adj_start[i + 1]; q++) {
            int w = vine__topo_arc_head(t, t->adj_arc[q]), in = 0;
            if (t->kind[w] == VINE_V_HOST)
                continue;
            for (int z = 0; z < nw; z++)
                in |= want[z] == w;
            got++;
            bad += !in;
        }
        bad += got != nw;
    }
    CHECK(!bad, "%s neighbours: %d wrong", t->name, bad);
}

static void test_torus_mesh_hypercube(void)
{
    static const struct {
        const char *spec;
        int nd, dims[4], wrap, diam, bisect;
    } cases[] = {
        {"torus:4x4", 2, {4, 4}, 1, 4, 8},  /* 2 k^(d-1) */
        {"torus:8", 1, {8}, 1, 4, 2},       /* a ring */
        {"torus:3x5", 2, {3, 5}, 1, 3, -1}, /* odd: no balanced cut */
        {"torus:2x2x2", 3, {2, 2, 2}, 1, 3, 4},
        {"torus:4x2x2", 3, {4, 2, 2}, 1, 4, 8},
        {"mesh:4x4", 2, {4, 4}, 0, 6, 4},      /* k^(d-1) */
        {"mesh:3x4", 2, {3, 4}, 0, 5, 3},      /* across the side of 4: n / 4 */
        {"mesh:2x3x2", 3, {2, 3, 2}, 0, 4, 6}, /* across a side of 2: n / 2 */
        {"torus:5x1x3", 3, {5, 1, 3}, 1, 3, -1},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        vine_topo t;
        if (build(cases[c].spec, &t) != VINE_OK)
            continue;
        check_basic(&t, cases[c].spec);
        int n = 1, links = 0;
        for (int k = 0; k < cases[c].nd; k++)
            n *= cases[c].dims[k];
        for (int k = 0; k < cases[c].nd; k++) {
            int d = cases[c].dims[k];
            links += n / d * (cases[c].wrap && d > 2 ? d : d - 1);
        }
        CHECK(t.nhosts == n && t.nvert == 2 * n && t.ngroups == n &&
                  count_level(&t, VINE_LVL_GLOBAL) == links && count_level(&t, VINE_LVL_LOCAL) == 0,
              "%s sizes", cases[c].spec);
        check_torus_neighbours(&t, cases[c].nd, cases[c].dims, cases[c].wrap);
        int hd, sd;
        diameters(&t, &hd, &sd);
        CHECK(sd == cases[c].diam && hd == sd + 2, "%s diameters %d %d (%d)", cases[c].spec, hd, sd,
              cases[c].diam);
        if (cases[c].bisect >= 0)
            CHECK(bisection(&t) == cases[c].bisect, "%s bisection %d (%d)", cases[c].spec,
                  bisection(&t), cases[c].bisect);
        vine__topo_free(&t);
    }
    for (int d = 1; d <= 4; d++) {
        char spec[32];
        snprintf(spec, sizeof spec, "hypercube:%d", d);
        vine_topo t;
        if (build(spec, &t) != VINE_OK)
            continue;
        check_basic(&t, spec);
        int n = 1 << d, *deg = degrees(&t), bad = 0;
        for (int v = 0; v < n; v++) {
            bad += deg[v * 4 + VINE_LVL_GLOBAL] != d || deg[v * 4 + VINE_LVL_HOST] != 1;
            for (int q = t.adj_start[v]; q < t.adj_start[v + 1]; q++) {
                int w = vine__topo_arc_head(&t, t.adj_arc[q]);
                /* a neighbour router differs in exactly one bit */
                if (t.kind[w] == VINE_V_SWITCH && __builtin_popcount((unsigned)(v ^ w)) != 1)
                    bad++;
            }
        }
        free(deg);
        CHECK(!bad && t.nhosts == n && count_level(&t, VINE_LVL_GLOBAL) == n * d / 2,
              "%s degrees/links (%d wrong)", spec, bad);
        int hd, sd;
        diameters(&t, &hd, &sd);
        CHECK(sd == d && hd == d + 2, "%s diameters %d %d", spec, hd, sd);
        CHECK(bisection(&t) == n / 2, "%s bisection %d (%d)", spec, bisection(&t), n / 2);
        vine__topo_free(&t);
    }
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void test_presets(void)
{
    /* the counts docs/topology.md gives */
    static const struct {
        const char *name;
        int hosts, groups, switches;
        double hbw;
    } want[] = {{"lumi", 2976, 24, 768, 100e9},
                {"leonardo", 4140, 23, 828, 50e9},
                {"marenostrum5", 1280, 8, 304, 100e9},
                {"fugaku", 4096, 4096, 4096, 40.8e9}};
    CHECK(vine__topo_preset_count() == 4, "%d presets", vine__topo_preset_count());
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const vine_topo_preset *p = vine__topo_preset_find(want[i].name);
        CHECK(p && p->hosts == want[i].hosts && p->groups == want[i].groups, "preset %s table",
              want[i].name);
        vine_topo t;
        double t0 = now();
        if (build(want[i].name, &t) != VINE_OK)
            continue;
        double dt = now() - t0;
        check_basic(&t, want[i].name);
        CHECK(strcmp(t.name, want[i].name) == 0, "name %s", t.name);
        CHECK(t.nhosts == want[i].hosts && t.ngroups == want[i].groups &&
                  t.nvert - t.nhosts == want[i].switches,
              "%s: %d hosts, %d groups, %d switches", want[i].name, t.nhosts, t.ngroups,
              t.nvert - t.nhosts);
        /* equal groups */
        int *per = calloc((size_t)t.ngroups, sizeof *per), bad = 0;
        for (int h = 0; h < t.nhosts; h++)
            per[t.group[t.host_vert[h]]]++;
        for (int g = 0; g < t.ngroups; g++)
            bad += per[g] != want[i].hosts / want[i].groups;
        free(per);
        CHECK(!bad, "%s: %d uneven groups", want[i].name, bad);
        int hostbw = 1;
        for (int l = 0; l < t.nlinks; l++)
            if (t.links[l].level == VINE_LVL_HOST)
                hostbw &= t.links[l].bw == want[i].hbw;
        CHECK(hostbw, "%s host bandwidth", want[i].name);
        char d[512];
        vine__topo_describe(&t, d, sizeof d);
        printf("%s (built in %.1f ms)\n", d, dt * 1e3);
        vine__topo_free(&t);
    }
    /* Slingshot's global ports: lumi's routers have 17 each, pairs of
     * groups 23 or 24 links (544 ports over 23 peers). */
    vine_topo t;
    if (build("lumi:gbw=12.5e9", &t) == VINE_OK) {
        int *deg = degrees(&t), bad = 0;
        for (int v = 0; v < t.nvert; v++)
            if (t.kind[v] == VINE_V_SWITCH)
                bad += deg[v * 4 + VINE_LVL_GLOBAL] != 17 || deg[v * 4 + VINE_LVL_LOCAL] != 31;
        free(deg);
        int gbw = 1;
        for (int l = 0; l < t.nlinks; l++)
            gbw &= t.links[l].level != VINE_LVL_GLOBAL || t.links[l].bw == 12.5e9;
        CHECK(!bad && gbw, "lumi router degrees (%d wrong), gbw option", bad);
        vine__topo_free(&t);
    }
}

static void test_large_and_options(void)
{
    /* A plain dragonfly spec of ~100k hosts (balanced, a = 2p = 2h). */
    vine_topo t;
    double t0 = now();
    if (build("dragonfly:a=26,p=13,h=13", &t) == VINE_OK) {
        double dt = now() - t0;
        int g = 26 * 13 + 1;
        CHECK(t.nhosts == 26 * 13 * g && t.ngroups == g &&
                  count_level(&t, VINE_LVL_GLOBAL) == g * (g - 1) / 2 &&
                  count_level(&t, VINE_LVL_LOCAL) == g * 26 * 25 / 2,
              "100k dragonfly sizes %d", t.nhosts);
        printf("%s: %d hosts, %d links, built in %.1f ms\n", t.name, t.nhosts, t.nlinks, dt * 1e3);
        vine__topo_free(&t);
    }
    if (build("dragonfly:a=2,p=1,h=1,bw=1e9,gbw=5e8,lat=2e-6,hlat=1e-7,nbw=3e9,nlat=0", &t) ==
        VINE_OK) {
        int ok = t.node_bw == 3e9 && t.node_lat == 0;
        for (int l = 0; l < t.nlinks; l++) {
            const vine_link *k = &t.links[l];
            ok &= k->bw == (k->level == VINE_LVL_GLOBAL ? 5e8 : 1e9);
            ok &= k->lat == (k->level == VINE_LVL_HOST ? 1e-7 : 2e-6);
        }
        CHECK(ok, "link options");
        vine__topo_free(&t);
    }
}

/* The generators called directly (as the file readers do) with extreme
 * values: UNSUPPORTED with a message, nothing built, no overflow. */
static void test_direct_extremes(void)
{
    vine_topo_linkparams lp;
    vine__topo_linkparams_default(&lp);
    const int M = 2147483647, m = -2147483647 - 1;
    int big[VINE_TOPO_FT_MAXLEV], neg[VINE_TOPO_FT_MAXLEV];
    for (int i = 0; i < VINE_TOPO_FT_MAXLEV; i++) {
        big[i] = M;
        neg[i] = m;
    }
    for (int c = 0; c < 16; c++) {
        vine_topo t;
        char err[256] = "";
        vine__topo_init(&t);
        int rc = -1;
        switch (c) {
        case 0:
            rc = vine__topo_gen_dragonfly(&t, M, M, M, M, M, &lp, err, sizeof err);
            break;
        case 1:
            rc = vine__topo_gen_dragonfly(&t, M, M, M, 0, 0, &lp, err, sizeof err);
            break;
        case 2:
            rc = vine__topo_gen_dragonfly(&t, m, 1, 1, 0, 0, &lp, err, sizeof err);
            break;
        case 3:
            rc = vine__topo_gen_dragonfly(&t, 4, 2, 2, m, 0, &lp, err, sizeof err);
            break;
        case 4:
            rc = vine__topo_gen_dragonfly(&t, 65536, 1, 65536, 2, 0, &lp, err, sizeof err);
            break;
        case 5:
            rc = vine__topo_gen_dragonflyplus(&t, M, M, M, M, M, &lp, err, sizeof err);
            break;
        case 6:
            rc = vine__topo_gen_dragonflyplus(&t, 2, M, 1, M, 1, &lp, err, sizeof err);
            break;
        case 7:
            rc = vine__topo_gen_fattree(&t, 8, big, big, -1, &lp, err, sizeof err);
            break;
        case 8:
            rc = vine__topo_gen_fattree(&t, 8, neg, neg, 0, &lp, err, sizeof err);
            break;
        case 9:
            rc = vine__topo_gen_fattree(&t, M, big, big, 0, &lp, err, sizeof err);
            break;
        case 10:
            rc = vine__topo_gen_torus(&t, 3, big, 1, &lp, err, sizeof err);
            break;
        case 11:
            rc = vine__topo_gen_torus(&t, 3, neg, 0, &lp, err, sizeof err);
            break;
        case 12:
            rc = vine__topo_gen_torus(&t, m, big, 0, &lp, err, sizeof err);
            break;
        case 13:
            rc = vine__topo_gen_hypercube(&t, M, &lp, err, sizeof err);
            break;
        case 14:
            rc = vine__topo_gen_hypercube(&t, m, &lp, err, sizeof err);
            break;
        case 15: {
            vine_topo_linkparams bad = lp;
            bad.global_lat = -1;
            rc = vine__topo_gen_hypercube(&t, 2, &bad, err, sizeof err);
            break;
        }
        }
        CHECK(rc == VINE_ERR_UNSUPPORTED && err[0] && t.nvert == 0, "direct case %d: rc %d '%s'", c,
              rc, err);
        vine__topo_free(&t);
    }
}

static void expect_bad(const char *spec)
{
    vine_topo t;
    char err[512];
    vine__topo_init(&t);
    memset(err, 'x', sizeof err);
    int rc = vine__topo_parse(spec, &t, err, sizeof err);
    CHECK(rc == VINE_ERR_UNSUPPORTED && err[0] && strlen(err) < sizeof err && !strchr(err, '\n') &&
              t.nvert == 0 && t.nlinks == 0 && !t.links,
          "bad spec '%s': rc %d, err '%.200s'", spec ? spec : "(null)", rc, err);
    vine__topo_free(&t);
}

static void test_bad_specs(void)
{
    static const char *bad[] = {
        "",
        "foo",
        "foo:a=1",
        ":",
        ":a=1",
        "lumi,bw=1",
        "LUMI",
        "averyveryveryveryveryverylongtopologyname:a=1",
        "dragonfly",
        "dragonfly:",
        "dragonfly:a=4,p=2",
        "dragonfly:p=2,h=2",
        "dragonfly:a=0,p=2,h=2",
        "dragonfly:a=4,p=0,h=2",
        "dragonfly:a=4,p=2,h=0",
        "dragonfly:a=-1,p=2,h=2",
        "dragonfly:a=+4,p=2,h=2",
        "dragonfly:a= 4,p=2,h=2",
        "dragonfly:a=4,p=2,h=2,g=10",
        "dragonfly:a=4,p=2,h=2,g=0",
        "dragonfly:a=4,p=2,h=2,g=-9",
        "dragonfly:a=4,p=2,h=2,n=9",
        "dragonfly:a=4,p=2,h=2,n=0",
        "dragonfly:a=4,p=2,h=2,x=1",
        "dragonfly:a=4,a=4,p=2,h=2",
        "dragonfly:a=4,p=2,h=2,",
        "dragonfly:a=4,,p=2,h=2",
        "dragonfly:,a=4,p=2,h=2",
        "dragonfly:a=,p=2,h=2",
        "dragonfly:=4,p=2,h=2",
        "dragonfly:a,p=2,h=2",
        "dragonfly:4,p=2,h=2",
        "dragonfly:a=4x,p=2,h=2",
        "dragonfly:a=4.5,p=2,h=2",
        "dragonfly:a=99999999999999999999999,p=2,h=2",
        "dragonfly:a=100000,p=100000,h=100000",
        "dragonfly:a=4096,p=4096,h=4096",
        "dragonfly:a=16000000,p=1,h=1",
        "dragonfly:a=1,p=16000000,h=16000000",
        "dragonfly:a=4,p=2,h=2,bw=0",
        "dragonfly:a=4,p=2,h=2,bw=-1",
        "dragonfly:a=4,p=2,h=2,bw=abc",
        "dragonfly:a=4,p=2,h=2,bw=inf",
        "dragonfly:a=4,p=2,h=2,bw=nan",
        "dragonfly:a=4,p=2,h=2,bw=1e9x",
        "dragonfly:a=4,p=2,h=2,lat=-1e-6",
        "dragonfly:a=4,p=2,h=2,gbw=1e400",
        "dragonfly:a=4,p=2,h=2,nbw=0",
        "dragonfly:a=4,p=2,h=2,bw=1111111111111111111111111111111111111111111111111111111111111111",
        "dragonflyplus:leaves=2,spines=2,p=1",
        "dragonflyplus:leaves=2,spines=2,p=1,h=1,g=4",
        "dragonflyplus:leaves=0,spines=2,p=1,h=1",
        "dragonflyplus:a=2,spines=2,p=1,h=1",
        "dragonflyplus:leaves=9999,spines=9999,p=9999,h=9999",
        "fattree",
        "fattree:",
        "fattree:down=2/4",
        "fattree:up=1",
        "fattree:down=2/4,up=1/1",
        "fattree:down=2/4,up=",
        "fattree:down=2/0,up=1",
        "fattree:down=2//4,up=1",
        "fattree:down=2/4/,up=1",
        "fattree:down=/2/4,up=1",
        "fattree:down=2,up=1",
        "fattree:down=2/4,up=0",
        "fattree:down=2/4,up=1,glevel=2",
        "fattree:down=2/4,up=1,glevel=-1",
        "fattree:down=2/4,up=1,levels=3",
        "fattree:down=2/4,up=1,levels=1",
        "fattree:down=1000/1000/1000/1000,up=1000/1000/1000",
        "fattree:down=2/2/2/2/2/2/2/2/2,up=1/1/1/1/1/1/1/1",
        "fattree:down=16777216/16777216,up=16777216",
        "fattree:down=2x4,up=1",
        "fattree:down=2/4,up=1,p=3",
        "torus",
        "torus:",
        "torus:4x",
        "torus:x4",
        "torus:4xx4",
        "torus:0x4",
        "torus:-4",
        "torus:4x4,foo=1",
        "torus:4x4,4",
        "torus:4x4,bw=",
        "torus:100000x100000",
        "torus:65536x65536x65536",
        "torus:2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2",
        "torus:4*4",
        "torus:dims=4x4",
        "mesh:abc",
        "mesh:",
        "mesh:4x0",
        "hypercube",
        "hypercube:",
        "hypercube:0",
        "hypercube:25",
        "hypercube:-1",
        "hypercube:6,d=6",
        "hypercube:6x2",
        "hypercube:d=6",
        "lumi:a=4",
        "lumi:bw=0",
        "lumi:x",
        "fugaku:4x4",
        "leonardo:g=3",
        "marenostrum5:bw=1,bw=2",
        "edges:",
        "slurm:",
        "ibnet:",
        "simgrid:",
        "edges:/nonexistent/file",
        "simgrid:/nonexistent/platform.xml",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        expect_bad(bad[i]);
    expect_bad(NULL);
    /* a message names the problem */
    char err[256];
    vine_topo t;
    vine__topo_init(&t);
    vine__topo_parse("dragonfly:a=4,p=2,h=2,g=10", &t, err, sizeof err);
    CHECK(strncmp(err, "dragonfly: ", 11) == 0 && strstr(err, "g=10"), "message '%s'", err);
    vine__topo_parse("torus:4x4,foo=1", &t, err, sizeof err);
    CHECK(strstr(err, "torus: unknown option 'foo'"), "message '%s'", err);
    vine__topo_parse("dragonfly:a=4,p=2", &t, err, sizeof err);
    CHECK(strstr(err, "dragonfly: missing option h="), "message '%s'", err);
    /* a tiny err buffer is never overrun */
    char tiny[8] = "abcdefg";
    CHECK(vine__topo_parse("torus:0", &t, tiny, 4) == VINE_ERR_UNSUPPORTED && strlen(tiny) == 3,
          "tiny buffer '%s'", tiny);
    CHECK(vine__topo_parse("nope", &t, NULL, 0) == VINE_ERR_UNSUPPORTED, "NULL err");
}

/* Every prefix of valid specs, and every one-character substitution from an
 * alphabet of the syntax: OK or a one-line UNSUPPORTED, never a crash
 * (single-character changes cannot make these small specs large). */
static void test_mutations(void)
{
    static const char *good[] = {"dragonfly:a=4,p=2,h=2,g=5",
                                 "dragonflyplus:leaves=2,spines=2,p=1,h=1",
                                 "fattree:down=2/4,up=1,glevel=0",
                                 "torus:4x3x2,bw=1e9",
                                 "mesh:3x3",
                                 "hypercube:3",
                                 "lumi:gbw=1e10"};
    static const char alpha[] = "0123456789=,:/x-.egabhpnu";
    int n = 0, bad = 0;
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        size_t len = strlen(good[i]);
        char s[128], err[256];
        for (size_t cut = 0; cut <= len; cut++) {
            memcpy(s, good[i], cut);
            s[cut] = '\0';
            vine_topo t;
            vine__topo_init(&t);
            int rc = vine__topo_parse(s, &t, err, sizeof err);
            bad += !(rc == VINE_OK || (rc == VINE_ERR_UNSUPPORTED && err[0] && t.nvert == 0));
            vine__topo_free(&t);
            n++;
        }
        for (size_t pos = 0; pos < len; pos++)
            for (const char *a = alpha; *a; a++) {
                memcpy(s, good[i], len + 1);
                s[pos] = *a;
                vine_topo t;
                vine__topo_init(&t);
                int rc = vine__topo_parse(s, &t, err, sizeof err);
                bad += !(rc == VINE_OK || (rc == VINE_ERR_UNSUPPORTED && err[0] && t.nvert == 0));
                if (rc == VINE_OK)
                    bad += t.nhosts < 1;
                vine__topo_free(&t);
                n++;
            }
    }
    CHECK(!bad, "mutations: %d of %d misbehaved", bad, n);
}

int main(void)
{
    double t0 = now();
    test_dragonfly_small();
    test_dragonfly_spread();
    test_dragonflyplus();
    test_fattree();
    test_torus_mesh_hypercube();
    test_presets();
    test_large_and_options();
    test_direct_extremes();
    test_bad_specs();
    test_mutations();
    printf("topo_gen: %ld checks, %ld failed (%.2f s)\n", checks, failures, now() - t0);
    return failures ? 1 : 0;
}
