/*
 * Unit tests of the symbolic verifier: hand-built schedules, correct ones
 * that must pass and broken ones that must fail with the right complaint.
 */
#include "coll/coll.h"
#include "sched/verify.h"

#include <stdio.h>
#include <string.h>

#define MAXP 8

static int failures;

/* A case under construction: p schedules and the collective's arguments. */
typedef struct tcase {
    vine_args a;
    vine_sched s[MAXP];
} tcase;

static void tc_init(tcase *t, vine_coll coll, int p, size_t count, int commutative)
{
    memset(t, 0, sizeof *t);
    t->a.coll = coll;
    t->a.p = p;
    t->a.count = count;
    t->a.commutative = commutative;
    for (int r = 0; r < p; r++)
        vine__sched_init(&t->s[r], p, r);
}

/* Finishes the schedules, verifies them and checks the outcome; frees t. */
static void expect(const char *name, tcase *t, int want_rc, const char *want_msg)
{
    char msg[512];
    for (int r = 0; r < t->a.p; r++)
        vine__sched_finish(&t->s[r]);
    int rc = vine__verify_scheds(&t->a, t->s, msg, sizeof msg);
    int ok = rc == want_rc && (!want_msg || strstr(msg, want_msg));
    printf("%s %s: rc %d, \"%s\"\n", ok ? "ok  " : "FAIL", name, rc, msg);
    failures += !ok;
    for (int r = 0; r < t->a.p; r++)
        vine__sched_free(&t->s[r]);
}

/* A correct bcast of 4 elements from rank 0 to rank 1. */
static void bcast2(tcase *t)
{
    tc_init(t, VINE_COLL_BCAST, 2, 4, 1);
    vine__sched_send(&t->s[0], 1, VINE_BUF_RECV, 0, 4);
    vine__sched_recv(&t->s[1], 0, VINE_BUF_RECV, 0, 4);
}

/*
 * A correct allreduce of count elements on two ranks that keeps the operand
 * order: each copies its input to RECV, swaps it into TMP, then reduces with
 * the lower rank's data on the left.
 */
static void allreduce2(tcase *t, size_t count, int commutative)
{
    tc_init(t, VINE_COLL_ALLREDUCE, 2, count, commutative);
    for (int r = 0; r < 2; r++) {
        vine_sched *s = &t->s[r];
        vine__sched_need_tmp(s, count);
        vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_RECV, 0, count);
        vine__sched_fence(s);
        vine__sched_send(s, 1 - r, VINE_BUF_SEND, 0, count);
        vine__sched_recv(s, 1 - r, VINE_BUF_TMP, 0, count);
        vine__sched_fence(s);
        vine__sched_reduce(s, VINE_BUF_TMP, 0, VINE_BUF_RECV, 0, count,
                           r == 0 ? VINE_SRC_RIGHT : VINE_SRC_LEFT);
    }
}

/* Rank 0 of a reduce on p ranks receives every other rank's input into TMP. */
static void reduce_gather(tcase *t, int p, size_t count, int commutative)
{
    tc_init(t, VINE_COLL_REDUCE, p, count, commutative);
    vine_sched *s = &t->s[0];
    vine__sched_need_tmp(s, (size_t)p * count);
    vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_RECV, 0, count);
    for (int r = 1; r < p; r++) {
        vine__sched_recv(s, r, VINE_BUF_TMP, (size_t)r * count, count);
        vine__sched_send(&t->s[r], 0, VINE_BUF_SEND, 0, count);
    }
    vine__sched_fence(s);
}

static void test_positive(void)
{
    tcase t;
    bcast2(&t);
    expect("bcast p=2", &t, VINE_OK, NULL);
    allreduce2(&t, 5, 0);
    expect("allreduce p=2 non-commutative", &t, VINE_OK, NULL);
    reduce_gather(&t, 4, 3, 0);
    for (int r = 1; r < 4; r++)
        vine__sched_reduce(&t.s[0], VINE_BUF_TMP, 3 * (size_t)r, VINE_BUF_RECV, 0, 3,
                           VINE_SRC_RIGHT);
    expect("reduce linear p=4 non-commutative", &t, VINE_OK, NULL);

    /* A ring allgather on 5 ranks, in place. */
    tc_init(&t, VINE_COLL_ALLGATHER, 5, 3, 1);
    t.a.inplace = 1;
    for (int r = 0; r < 5; r++)
        for (int k = 0; k < 4; k++) {
            int out = (r - k + 5) % 5, in = (r - k - 1 + 5) % 5;
            vine__sched_send(&t.s[r], (r + 1) % 5, VINE_BUF_RECV, 3 * (size_t)out, 3);
            vine__sched_recv(&t.s[r], (r + 4) % 5, VINE_BUF_RECV, 3 * (size_t)in, 3);
            vine__sched_fence(&t.s[r]);
        }
    expect("allgather ring p=5 in place", &t, VINE_OK, NULL);
}

static void test_messages(void)
{
    tcase t;
    bcast2(&t);
    t.s[1].ops[0].count = 3;
    expect("size mismatch", &t, VINE_ERR_INTERNAL, "size mismatch");

    bcast2(&t);
    vine__sched_fence(&t.s[0]);
    vine__sched_send(&t.s[0], 1, VINE_BUF_RECV, 0, 4);
    expect("unmatched send", &t, VINE_ERR_INTERNAL, "unmatched");

    bcast2(&t);
    vine__sched_fence(&t.s[1]);
    vine__sched_recv(&t.s[1], 0, VINE_BUF_RECV, 0, 4);
    expect("unmatched receive", &t, VINE_ERR_INTERNAL, "unmatched");

    /* Both ranks receive first: fine with buffered sends, a deadlock with rendezvous. */
    tc_init(&t, VINE_COLL_ALLGATHER, 2, 2, 1);
    for (int r = 0; r < 2; r++) {
        vine__sched_copy(&t.s[r], VINE_BUF_SEND, 0, VINE_BUF_RECV, 2 * (size_t)r, 2);
        vine__sched_recv(&t.s[r], 1 - r, VINE_BUF_RECV, 2 * (size_t)(1 - r), 2);
        vine__sched_fence(&t.s[r]);
        vine__sched_send(&t.s[r], 1 - r, VINE_BUF_SEND, 0, 2);
    }
    expect("deadlock", &t, VINE_ERR_INTERNAL, "deadlock");

    bcast2(&t);
    t.s[0].ops[0].peer = 0;
    expect("message to itself", &t, VINE_ERR_INTERNAL, "is not another rank");
}

static void test_contributions(void)
{
    tcase t;
    reduce_gather(&t, 2, 4, 1);
    vine__sched_reduce(&t.s[0], VINE_BUF_TMP, 4, VINE_BUF_RECV, 0, 4, VINE_SRC_LEFT);
    vine__sched_reduce(&t.s[0], VINE_BUF_TMP, 4, VINE_BUF_RECV, 0, 4, VINE_SRC_LEFT);
    expect("contribution counted twice", &t, VINE_ERR_INTERNAL, "3 contributions");

    reduce_gather(&t, 3, 4, 1);
    vine__sched_reduce(&t.s[0], VINE_BUF_TMP, 4, VINE_BUF_RECV, 0, 4, VINE_SRC_RIGHT);
    expect("missing contribution", &t, VINE_ERR_INTERNAL, "2 contributions");

    /* The higher rank's data on the left: fine for a commutative op only. */
    for (int comm = 1; comm >= 0; comm--) {
        reduce_gather(&t, 2, 4, comm);
        vine__sched_reduce(&t.s[0], VINE_BUF_TMP, 4, VINE_BUF_RECV, 0, 4, VINE_SRC_LEFT);
        expect(comm ? "reversed operands, commutative op" : "reversed operands, non-commutative",
               &t, comm ? VINE_OK : VINE_ERR_INTERNAL, comm ? NULL : "out of order");
    }

    /* Element 1 of one rank combined with element 0 of another. */
    reduce_gather(&t, 2, 4, 1);
    vine__sched_reduce(&t.s[0], VINE_BUF_TMP, 5, VINE_BUF_RECV, 0, 3, VINE_SRC_RIGHT);
    expect("misaligned elements", &t, VINE_ERR_INTERNAL, "combines element 1 with element 0");

    /* A RIGHT reduce leaves its source undefined; reading it again fails. */
    reduce_gather(&t, 2, 4, 1);
    vine__sched_reduce(&t.s[0], VINE_BUF_TMP, 4, VINE_BUF_RECV, 0, 4, VINE_SRC_RIGHT);
    vine__sched_reduce(&t.s[0], VINE_BUF_TMP, 4, VINE_BUF_RECV, 0, 4, VINE_SRC_RIGHT);
    expect("reduce of a clobbered source", &t, VINE_ERR_INTERNAL, "source operand");

    /* The bcast lands one element off. */
    tc_init(&t, VINE_COLL_BCAST, 2, 4, 1);
    vine__sched_send(&t.s[0], 1, VINE_BUF_RECV, 0, 3);
    vine__sched_recv(&t.s[1], 0, VINE_BUF_RECV, 1, 3);
    expect("shifted bcast", &t, VINE_ERR_INTERNAL, "rank 1: recv[0] holds nothing");
}

static void test_buffers(void)
{
    tcase t;
    allreduce2(&t, 5, 1);
    vine__sched_copy(&t.s[1], VINE_BUF_RECV, 0, VINE_BUF_SEND, 0, 5);
    expect("write into the send buffer", &t, VINE_ERR_INTERNAL, "read-only send buffer");

    bcast2(&t);
    t.s[1].ops[0].buf = VINE_BUF_SEND;
    expect("receive into the send buffer", &t, VINE_ERR_INTERNAL, "read-only send buffer");

    bcast2(&t);
    t.s[0].ops[0].off = t.s[1].ops[0].off = 2;
    expect("out-of-bounds write", &t, VINE_ERR_INTERNAL, "outside the 4-element recv buffer");

    allreduce2(&t, 5, 1);
    vine__sched_copy(&t.s[0], VINE_BUF_RECV, 0, VINE_BUF_TMP, 1, 5);
    expect("out-of-bounds scratch", &t, VINE_ERR_INTERNAL, "outside the 5-element tmp buffer");

    allreduce2(&t, 5, 1);
    vine__sched_reduce(&t.s[0], VINE_BUF_SEND, 0, VINE_BUF_RECV, 0, 5, VINE_SRC_RIGHT);
    expect("RIGHT reduce from SEND", &t, VINE_ERR_INTERNAL, "clobbers its source");

    reduce_gather(&t, 3, 4, 1);
    t.s[0].ops[2].off = 6;
    expect("overlapping receives", &t, VINE_ERR_INTERNAL, "overlaps op 1");

    allreduce2(&t, 5, 1);
    t.s[0].ops[1].buf = VINE_BUF_RECV;
    t.s[0].ops[2].buf = VINE_BUF_RECV;
    expect("receive over a send", &t, VINE_ERR_INTERNAL, "overlaps op");

    allreduce2(&t, 5, 1);
    vine__sched_copy(&t.s[0], VINE_BUF_RECV, 0, VINE_BUF_RECV, 2, 3);
    expect("overlapping copy", &t, VINE_ERR_INTERNAL, "source and destination overlap");
}

/* vine__verify_case on a registered algorithm, and its skip. */
static void test_case(void)
{
    char msg[512];
    const vine_algo *algo = vine__algo_find(VINE_COLL_BCAST, "binomial");
    vine_args a = {.coll = VINE_COLL_BCAST, .p = 13, .root = 5, .count = 7, .commutative = 1};
    int rc = algo ? vine__verify_case(algo, &a, msg, sizeof msg) : -1;
    printf("%s bcast binomial p=13 via vine__verify_case: rc %d \"%s\"\n", rc ? "FAIL" : "ok  ", rc,
           msg);
    failures += rc != VINE_OK;

    for (int i = 0; i < vine__nalgos; i++) {
        const vine_algo *al = &vine__algos[i];
        if (!(al->flags & VINE_ALGO_COMMUTATIVE))
            continue;
        vine_args b = {.coll = al->coll, .p = 4, .count = 4};
        size_t counts[4], displs[5];
        vine__verify_counts(al->coll, 4, 4, counts, displs);
        b.counts = counts;
        b.displs = displs;
        rc = vine__verify_case(al, &b, msg, sizeof msg);
        printf("%s %s %s skips a non-commutative op: rc %d\n",
               rc == VINE_ERR_UNSUPPORTED ? "ok  " : "FAIL", vine__coll_name(al->coll), al->name,
               rc);
        failures += rc != VINE_ERR_UNSUPPORTED;
        break;
    }
}

/*
 * Dissemination barrier on p ranks with `rounds` rounds of distances 1, 2, 4
 * ...; merged puts all of them in one round (every send posted at once).
 */
static void dissemination(tcase *t, int p, int rounds, int merged)
{
    tc_init(t, VINE_COLL_BARRIER, p, 0, 1);
    for (int r = 0; r < p; r++)
        for (int k = 0, d = 1; k < rounds; k++, d *= 2) {
            vine__sched_sync_send(&t->s[r], (r + d) % p);
            vine__sched_sync_recv(&t->s[r], (r - d % p + p) % p);
            if (!merged)
                vine__sched_fence(&t->s[r]);
        }
}

/* Fan-in to rank 0, then fan-out; rank `mute` (if >= 0) sends nothing. */
static void fan_barrier(tcase *t, int p, int mute)
{
    tc_init(t, VINE_COLL_BARRIER, p, 0, 1);
    for (int r = 1; r < p; r++) {
        if (r != mute) {
            vine__sched_sync_recv(&t->s[0], r);
            vine__sched_sync_send(&t->s[r], 0);
            vine__sched_fence(&t->s[r]);
        }
        vine__sched_sync_recv(&t->s[r], 0);
    }
    vine__sched_fence(&t->s[0]);
    for (int r = 1; r < p; r++)
        vine__sched_sync_send(&t->s[0], r);
}

/*
 * Barriers: the verifier must prove that no rank finishes before every rank
 * has started, i.e. that a chain of messages leads from each rank's start to
 * each rank's end, with a message carrying only what its sender knew when it
 * posted the send's round.
 */
static void test_barrier(void)
{
    tcase t;
    char name[96];
    for (int p = 1; p <= MAXP; p++) {
        int rounds = 0;
        while ((1 << rounds) < p)
            rounds++;
        snprintf(name, sizeof name, "barrier dissemination p=%d", p);
        dissemination(&t, p, rounds, 0);
        expect(name, &t, VINE_OK, NULL);
        if (p > 2) {
            /* One round too few: rank 0 hears only of the 2^(rounds-1) ranks up to it. */
            snprintf(name, sizeof name, "barrier dissemination p=%d, last round dropped", p);
            dissemination(&t, p, rounds - 1, 0);
            expect(name, &t, VINE_ERR_INTERNAL, "rank 0: not a barrier");
            /* A one-round ring: rank r hears of r - 1 only. */
            snprintf(name, sizeof name, "barrier one-round ring p=%d", p);
            dissemination(&t, p, 1, 0);
            expect(name, &t, VINE_ERR_INTERNAL,
                   "rank 0: not a barrier: the rank may finish before rank 1 starts");
        }
    }
    /* A one-round ring on 2 ranks is a pairwise exchange, a correct barrier. */
    dissemination(&t, 2, 1, 0);
    expect("barrier one-round ring p=2", &t, VINE_OK, NULL);
    /*
     * All rounds in one: every message leaves before any receive completes,
     * so rank 0 hears only of ranks 4, 3 and 1, never of rank 2.  (A verifier
     * that let a message carry what its sender received in the same round
     * would name another rank here.)
     */
    dissemination(&t, 5, 3, 1);
    expect("barrier dissemination p=5 squeezed into one round", &t, VINE_ERR_INTERNAL,
           "rank 0: not a barrier: the rank may finish before rank 2 starts");

    fan_barrier(&t, 6, -1);
    expect("barrier fan-in fan-out p=6", &t, VINE_OK, NULL);
    fan_barrier(&t, 6, 3);
    expect("barrier fan-in fan-out p=6, rank 3 sends nothing", &t, VINE_ERR_INTERNAL,
           "rank 0: not a barrier: the rank may finish before rank 3 starts");
    /* The fan-out alone: the root's sends teach it nothing about the others. */
    tc_init(&t, VINE_COLL_BARRIER, 4, 0, 1);
    for (int r = 1; r < 4; r++) {
        vine__sched_sync_send(&t.s[0], r);
        vine__sched_sync_recv(&t.s[r], 0);
    }
    expect("barrier fan-out only p=4", &t, VINE_ERR_INTERNAL,
           "rank 0: not a barrier: the rank may finish before rank 1 starts");
    /* No messages at all: fine on one rank only. */
    tc_init(&t, VINE_COLL_BARRIER, 1, 0, 1);
    expect("barrier empty p=1", &t, VINE_OK, NULL);
    tc_init(&t, VINE_COLL_BARRIER, 3, 0, 1);
    expect("barrier empty p=3", &t, VINE_ERR_INTERNAL, "rank 0: not a barrier");

    /* The registered builder, through vine__verify_case, up to p = 1000. */
    const vine_algo *algo = vine__algo_find(VINE_COLL_BARRIER, "dissemination");
    static const int ps[] = {1, 2, 3, 7, 64, 100, 1000};
    for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++) {
        char msg[512] = "";
        vine_args a = {.coll = VINE_COLL_BARRIER, .p = ps[i], .commutative = 1};
        int rc = algo ? vine__verify_case(algo, &a, msg, sizeof msg) : -1;
        printf("%s barrier dissemination p=%d via vine__verify_case: rc %d \"%s\"\n",
               rc ? "FAIL" : "ok  ", ps[i], rc, msg);
        failures += rc != VINE_OK;
    }
}

static void test_rs_counts(void)
{
    size_t counts[6], displs[7];
    static const size_t want[6] = {0, 5, 10, 2, 7, 0};
    vine__verify_rs_counts(6, 5, counts, displs);
    int ok = displs[0] == 0 && displs[6] == 24;
    for (int i = 0; i < 6; i++)
        ok &= counts[i] == want[i] && displs[i + 1] == displs[i] + counts[i];
    printf("%s reduce_scatter counts\n", ok ? "ok  " : "FAIL");
    failures += !ok;
}

/*
 * allgatherv on 2 ranks: blocks of 2 (rank 0) and 3 (rank 1) elements in
 * reversed order with a gap of one element before each, RECV[1,4) rank 1's
 * and RECV[5,7) rank 0's.  A correct exchange passes; writing the gap, a
 * block at the wrong place or a block from the wrong rank fails.
 */
static const size_t agv_counts[2] = {2, 3}, agv_displs[2] = {5, 1};

static void allgatherv2(tcase *t, int gap_write)
{
    tc_init(t, VINE_COLL_ALLGATHERV, 2, 0, 1);
    t->a.rcounts = agv_counts;
    t->a.rdispls = agv_displs;
    for (int r = 0; r < 2; r++) {
        vine_sched *s = &t->s[r];
        vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_RECV, agv_displs[r], agv_counts[r]);
        vine__sched_send(s, 1 - r, VINE_BUF_SEND, 0, agv_counts[r]);
        vine__sched_recv(s, 1 - r, VINE_BUF_RECV, agv_displs[1 - r], agv_counts[1 - r]);
    }
    /* Element 4 lies between the blocks. */
    if (gap_write)
        vine__sched_copy(&t->s[1], VINE_BUF_SEND, 0, VINE_BUF_RECV, 4, 1);
}

static void test_vcolls(void)
{
    tcase t;
    allgatherv2(&t, 0);
    expect("allgatherv with gaps", &t, VINE_OK, NULL);
    allgatherv2(&t, 1);
    expect("allgatherv writes a gap", &t, VINE_ERR_INTERNAL, "rank 1: recv[4] lies in a gap");

    /* scan on 3 ranks, a chain: rank r adds its input to the prefix from r - 1. */
    for (int order = 0; order < 2; order++) {
        tc_init(&t, VINE_COLL_SCAN, 3, 4, 0);
        for (int r = 0; r < 3; r++) {
            vine_sched *s = &t.s[r];
            vine__sched_need_tmp(s, 4);
            vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_RECV, 0, 4);
            if (r > 0) {
                vine__sched_recv(s, r - 1, VINE_BUF_TMP, 0, 4);
                vine__sched_fence(s);
                vine__sched_reduce(s, VINE_BUF_TMP, 0, VINE_BUF_RECV, 0, 4,
                                   order ? VINE_SRC_RIGHT : VINE_SRC_LEFT);
            }
            vine__sched_fence(s);
            if (r < 2)
                vine__sched_send(s, r + 1, VINE_BUF_RECV, 0, 4);
        }
        expect(order ? "scan with operands reversed" : "scan chain", &t,
               order ? VINE_ERR_INTERNAL : VINE_OK, order ? "out of order" : NULL);
    }
    /* exscan where rank 2 keeps rank 2's own input: ranks 0..1 expected. */
    tc_init(&t, VINE_COLL_EXSCAN, 3, 4, 1);
    vine__sched_send(&t.s[0], 1, VINE_BUF_SEND, 0, 4);
    vine__sched_recv(&t.s[1], 0, VINE_BUF_RECV, 0, 4);
    vine__sched_copy(&t.s[2], VINE_BUF_SEND, 0, VINE_BUF_RECV, 0, 4);
    expect("exscan with the own input", &t, VINE_ERR_INTERNAL, "ranks 0..1");
}

/*
 * The sends of rank 0 in allreduce and reduce rabenseifner and allreduce
 * binary_blocks (one block of 8) on 8 ranks, 64 elements: the nearest partner
 * first with the largest half (MPICH's order, which keeps the big exchanges
 * inside a Dragonfly group), and the allgather (or the gather to the root)
 * back from the farthest to the nearest.
 */
static void test_rabenseifner_order(void)
{
    static const struct {
        vine_coll coll;
        const char *algo;
        int peer[6];
        size_t count[6];
        int nsends;
    } want[] = {
        {VINE_COLL_ALLREDUCE, "rabenseifner", {1, 2, 4, 4, 2, 1}, {32, 16, 8, 8, 16, 32}, 6},
        {VINE_COLL_ALLREDUCE, "binary_blocks", {1, 2, 4, 4, 2, 1}, {32, 16, 8, 8, 16, 32}, 6},
        {VINE_COLL_REDUCE, "rabenseifner", {1, 2, 4}, {32, 16, 8}, 3},
    };
    for (size_t w = 0; w < sizeof want / sizeof want[0]; w++) {
        const vine_algo *algo = vine__algo_find(want[w].coll, want[w].algo);
        vine_args a;
        memset(&a, 0, sizeof a);
        a.coll = want[w].coll;
        a.p = 8;
        a.count = 64;
        a.commutative = 1;
        vine_sched s;
        vine__sched_init(&s, 8, 0);
        int ok = algo && algo->build(&a, &s) == VINE_OK, n = 0;
        for (size_t i = 0; ok && i < s.nops; i++) {
            if (s.ops[i].kind != VINE_OP_SEND)
                continue;
            ok = n < want[w].nsends && s.ops[i].peer == want[w].peer[n] &&
                 s.ops[i].count == want[w].count[n];
            n++;
        }
        ok = ok && n == want[w].nsends;
        printf("%s %s %s: rank 0's sends nearest first\n", ok ? "ok  " : "FAIL",
               vine__coll_name(want[w].coll), want[w].algo);
        failures += !ok;
        vine__sched_free(&s);
    }
}

int main(void)
{
    test_rabenseifner_order();
    test_positive();
    test_messages();
    test_contributions();
    test_buffers();
    test_case();
    test_barrier();
    test_rs_counts();
    test_vcolls();
    printf("%d failures\n", failures);
    return failures != 0;
}
