/*
 * Unit test of the leader gather and scatter with irregular blocks
 * (vine__leader_gatherv and vine__leader_scatterv, src/coll/phase_leader.h),
 * which gather and scatter leader_shm run across nodes of different sizes
 * (no MPI).  leader_shm calls them with the root as the anchor only; here
 * they run on their own as a gatherv and a scatterv of blocks packed in
 * rank order, on level maps of uneven groups, nodes whose ranks are not
 * consecutive and several levels, with every root (so also roots that are
 * not their node's leader, whose blocks go through the anchor), in place and
 * not, blocks of 0 to 5 elements, under the verifier (results, matching
 * messages, no deadlock).  Prints "leader_units: N checks, M failed".
 */
#include "check.h"
#include "coll/coll.h"
#include "coll/phase_leader.h"
#include "sched/verify.h"

#include <stdlib.h>
#include <string.h>

/* Builds every rank's schedule of a with the v builder of tree and checks them. */
static void check_case(const vine_args *a, int tree, const char *spec)
{
    int p = a->p, gather = a->coll == VINE_COLL_GATHERV, rc = VINE_OK, built = 0;
    char msg[1024] = "";
    vine_sched *s = calloc((size_t)p, sizeof *s);
    CHECK(s != NULL, "calloc");
    if (!s)
        return;
    for (; built < p && rc == VINE_OK; built++) {
        vine_args b = *a;
        b.rank = built;
        vine__sched_init(&s[built], p, built);
        rc = gather ? vine__leader_gatherv(&b, &s[built], tree)
                    : vine__leader_scatterv(&b, &s[built], tree);
    }
    CHECK(rc == VINE_OK, "%s %s p=%d root=%d: build rc %d", vine__coll_name(a->coll), spec, p,
          a->root, rc);
    if (rc == VINE_OK) {
        rc = vine__verify_scheds(a, s, msg, sizeof msg);
        CHECK(rc == VINE_OK, "%s tree %d %s p=%d root=%d inplace=%d: %s", vine__coll_name(a->coll),
              tree, spec, p, a->root, a->inplace, msg);
    }
    for (int r = 0; r < built; r++)
        vine__sched_free(&s[r]);
    free(s);
}

/* Every root and in-place form of map spec at size p, blocks of (r * 7 + k) mod 6 elements. */
static void sweep(const char *spec, int p, int k)
{
    vine_levels lv;
    char err[256];
    CHECK(vine__levels_parse(spec, p, &lv, err, sizeof err) == VINE_OK, "map %s: %s", spec, err);
    size_t *counts = malloc((size_t)p * sizeof *counts);
    size_t *displs = malloc(((size_t)p + 1) * sizeof *displs);
    CHECK(counts && displs, "malloc");
    if (!counts || !displs) {
        free(counts);
        free(displs);
        vine__levels_free(&lv);
        return;
    }
    displs[0] = 0;
    for (int r = 0; r < p; r++) {
        counts[r] = (size_t)((r * 7 + k) % 6);
        displs[r + 1] = displs[r] + counts[r];
    }
    for (int coll = 0; coll < 2; coll++)
        for (int tree = VINE_LEADER_BINOMIAL; tree <= VINE_LEADER_BINE; tree++)
            for (int root = 0; root < p; root++)
                for (int ip = 0; ip < 2; ip++) {
                    vine_args a = {.coll = coll ? VINE_COLL_SCATTERV : VINE_COLL_GATHERV,
                                   .p = p,
                                   .root = root,
                                   .inplace = ip,
                                   .commutative = 1,
                                   .levels = &lv,
                                   .counts = counts};
                    if (coll) {
                        a.scounts = counts;
                        a.sdispls = displs;
                    } else {
                        a.rcounts = counts;
                        a.rdispls = displs;
                    }
                    check_case(&a, tree, spec);
                }
    free(counts);
    free(displs);
    vine__levels_free(&lv);
}

int main(void)
{
    static const struct {
        const char *spec;
        int p;
    } maps[] = {{"sizes:1,3,5,7", 16}, {"sizes:2,3", 7},         {"random:7:5,2", 13},
                {"cyclic:3", 8},       {"sizes:3,1/block:2", 9}, {"block:2/block:2/block:2", 8},
                {"block:1", 5}};
    for (size_t m = 0; m < sizeof maps / sizeof maps[0]; m++)
        for (int k = 0; k < 2; k++)
            sweep(maps[m].spec, maps[m].p, k);
    printf("leader_units: %ld checks, %ld failed\n", checks, failures);
    return failures != 0;
}
