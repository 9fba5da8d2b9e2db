/*
 * Unit test of the hierarchical shm algorithms on pretend nodes that share
 * one segment (no MPI).  When all p ranks share a segment (shm_count > 0, as
 * the API layer sets it under VINE_TOPOLOGY_FAKE_HOSTS) the flat shm
 * algorithms run on the communicator beside the hierarchical ones (bcast,
 * reduce and allreduce hier_shm, gather and scatter leader_shm), whose node
 * phases wait only for their node.  The verifier checks sequences of such
 * calls (vine__verify_cases: results, no deadlock, no race on the regions
 * within or across calls), with every rank entering a call as soon as it
 * left the previous one.  A control builds the hierarchical schedules as if
 * the segment were the node's alone (shm_count 0, no entry wait across the
 * nodes) and must be refused: a region overwritten while a rank of another
 * node may still read it.  Nodes of different sizes run the sequence of the
 * algorithms that take them (all but allreduce hier_shm).  `vine verify`
 * itself gives level-map cases no segment shared by all ranks
 * (tests/verify/shm_hier.cmake covers those).
 */
#include "check.h"
#include "coll/coll.h"
#include "sched/verify.h"

#include <stdlib.h>
#include <string.h>

typedef struct step {
    vine_coll coll;
    const char *algo;
} step;

/* Flat shm calls and hierarchical ones in turn, every hierarchical one after a flat one. */
static const step seq_a[] = {{VINE_COLL_ALLGATHER, "shm"}, {VINE_COLL_BCAST, "hier_shm"},
                             {VINE_COLL_GATHER, "shm"},    {VINE_COLL_SCATTER, "leader_shm"},
                             {VINE_COLL_ALLTOALL, "shm"},  {VINE_COLL_GATHER, "leader_shm"},
                             {VINE_COLL_BCAST, "shm"},     {VINE_COLL_REDUCE, "hier_shm"}};
static const step seq_b[] = {{VINE_COLL_BCAST, "hier_shm"},     {VINE_COLL_ALLREDUCE, "shm"},
                             {VINE_COLL_ALLREDUCE, "hier_shm"}, {VINE_COLL_SCATTER, "shm"},
                             {VINE_COLL_GATHER, "leader_shm"},  {VINE_COLL_REDUCE, "shm"},
                             {VINE_COLL_SCATTER, "leader_shm"}, {VINE_COLL_BARRIER, "shm"}};

static vine_args args_of(const step *st, int p, size_t count, int root, int inplace,
                         const vine_levels *lv, size_t shm)
{
    vine_args a = {.coll = st->coll,
                   .p = p,
                   .root = root,
                   .count = count,
                   .inplace = inplace,
                   .commutative = 1,
                   .levels = lv,
                   .shm_count = shm,
                   .shm_node_count = shm};
    return a;
}

/* Runs the sequence of n steps on map spec at size p; every call must pass. */
static void run_seq(const step *seq, int n, const char *spec, int p, size_t count, size_t shm,
                    int inplace)
{
    vine_levels lv;
    char err[256], msg[1024];
    CHECK(vine__levels_parse(spec, p, &lv, err, sizeof err) == VINE_OK, "map %s: %s", spec, err);
    const vine_algo *algos[VINE_VERIFY_MAX_CALLS];
    vine_args a[VINE_VERIFY_MAX_CALLS];
    for (int c = 0; c < n; c++) {
        algos[c] = vine__algo_find(seq[c].coll, seq[c].algo);
        CHECK(algos[c] != NULL, "%s %s is registered", vine__coll_name(seq[c].coll), seq[c].algo);
        if (!algos[c])
            return;
        a[c] = args_of(&seq[c], p, count, (c * 5 + 3) % p, inplace, &lv, shm);
    }
    int rc = vine__verify_cases(n, algos, a, msg, sizeof msg);
    CHECK(rc == VINE_OK, "%s p=%d count=%zu shm=%zu inplace=%d: rc %d: %s", spec, p, count, shm,
          inplace, rc, msg);
    vine__levels_free(&lv);
}

/*
 * The control: a flat allgather, then a hierarchical call built as if the
 * node's ranks alone shared the segment.  A rank of another node may still
 * read the writer's region from the allgather: the verifier must say race.
 */
static void control(const step *hier, const char *spec, int p, size_t count)
{
    vine_levels lv;
    char err[256], msg[1024];
    CHECK(vine__levels_parse(spec, p, &lv, err, sizeof err) == VINE_OK, "map %s: %s", spec, err);
    const step flat = {VINE_COLL_ALLGATHER, "shm"};
    vine_args a[2] = {args_of(&flat, p, count, 0, 0, &lv, 256),
                      args_of(hier, p, count, 1, 0, &lv, 256)};
    const vine_algo *algo[2] = {vine__algo_find(flat.coll, flat.algo),
                                vine__algo_find(hier->coll, hier->algo)};
    vine_sched *s[2] = {calloc((size_t)p, sizeof(vine_sched)),
                        calloc((size_t)p, sizeof(vine_sched))};
    int built = s[0] && s[1] && algo[0] && algo[1];
    for (int c = 0; built && c < 2; c++) {
        vine_args b = a[c];
        if (c == 1)
            b.shm_count = 0; /* no entry wait across the nodes */
        for (int r = 0; built && r < p; r++) {
            b.rank = r;
            built = vine__algo_build(algo[c], &b, &s[c][r]) == VINE_OK;
        }
    }
    CHECK(built, "control %s %s: built", vine__coll_name(hier->coll), hier->algo);
    if (built) {
        const vine_args *ap[2] = {&a[0], &a[1]};
        int rc = vine__verify_calls(2, ap, s, msg, sizeof msg);
        CHECK(rc == VINE_ERR_INTERNAL && strstr(msg, "may still read"),
              "control %s %s on %s: expected the race, got rc %d: %s", vine__coll_name(hier->coll),
              hier->algo, spec, rc, msg);
        for (int c = 0; c < 2; c++)
            for (int r = 0; r < p; r++)
                vine__sched_free(&s[c][r]);
    }
    free(s[0]);
    free(s[1]);
    vine__levels_free(&lv);
}

int main(void)
{
    static const struct {
        const char *spec;
        int p;
    } maps[] = {{"block:2", 4},         {"block:2", 6},  {"cyclic:3", 6}, {"block:4", 8},
                {"block:2/block:2", 8}, {"cyclic:2", 8}, {"block:3", 9}};
    static const size_t counts[] = {1, 7, 300};
    static const size_t shms[] = {64, 4096};
    for (size_t m = 0; m < sizeof maps / sizeof maps[0]; m++)
        for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++)
            for (size_t z = 0; z < sizeof shms / sizeof shms[0]; z++)
                for (int ip = 0; ip < 2; ip++) {
                    run_seq(seq_a, 8, maps[m].spec, maps[m].p, counts[k], shms[z], ip);
                    run_seq(seq_b, 8, maps[m].spec, maps[m].p, counts[k], shms[z], ip);
                }
    /* Nodes of different sizes (seq_a: the algorithms that take them), one not consecutive. */
    static const struct {
        const char *spec;
        int p;
    } uneven[] = {{"sizes:3,1,2", 6}, {"sizes:2,3", 7}, {"ids:0,1,1,2,0,2,2,1,0", 9}};
    for (size_t m = 0; m < sizeof uneven / sizeof uneven[0]; m++)
        for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++)
            for (int ip = 0; ip < 2; ip++)
                run_seq(seq_a, 8, uneven[m].spec, uneven[m].p, counts[k], 64, ip);
    const step hier[] = {{VINE_COLL_BCAST, "hier_shm"},
                         {VINE_COLL_REDUCE, "hier_shm"},
                         {VINE_COLL_GATHER, "leader_shm"},
                         {VINE_COLL_SCATTER, "leader_shm"},
                         {VINE_COLL_ALLREDUCE, "hier_shm"}};
    for (size_t h = 0; h < sizeof hier / sizeof hier[0]; h++)
        control(&hier[h], "block:2", 4, 5);
    printf("shm_hier: %ld checks, %ld failed\n", checks, failures);
    return failures != 0;
}
