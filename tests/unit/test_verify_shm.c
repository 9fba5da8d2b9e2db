/*
 * Unit tests of the verifier's shared-memory checks (sched.h's SET, WAIT, GET
 * and GETRED): hand-built flag protocols, correct ones that must pass and
 * broken ones that must fail with the right complaint, in one call and over
 * consecutive calls.
 */
#include "coll/coll.h"
#include "sched/verify.h"

#include <stdio.h>
#include <string.h>

#define MAXP 8

static int failures;

/* A case under construction: p schedules of the shm family and the collective's arguments. */
typedef struct tcase {
    vine_args a;
    vine_sched s[MAXP];
} tcase;

static void tc_init(tcase *t, vine_coll coll, int p, size_t count, size_t shm_count)
{
    memset(t, 0, sizeof *t);
    t->a.coll = coll;
    t->a.p = p;
    t->a.count = count;
    t->a.commutative = 1;
    t->a.shm_count = shm_count;
    for (int r = 0; r < p; r++) {
        vine__sched_init(&t->s[r], p, r);
        vine__sched_shm(&t->s[r]);
    }
}

static void tc_finish(tcase *t)
{
    for (int r = 0; r < t->a.p; r++)
        vine__sched_finish(&t->s[r]);
}

static void tc_free(tcase *t)
{
    for (int r = 0; r < t->a.p; r++)
        vine__sched_free(&t->s[r]);
}

static void report(const char *name, int rc, const char *msg, int want_rc, const char *want_msg)
{
    int ok = rc == want_rc && (!want_msg || strstr(msg, want_msg));
    printf("%s %s: rc %d, \"%s\"\n", ok ? "ok  " : "FAIL", name, rc, msg);
    if (!ok && want_msg)
        printf("     expected rc %d with \"%s\"\n", want_rc, want_msg);
    failures += !ok;
}

/* Finishes the schedules, verifies them (two calls: they are shm) and checks the outcome; frees t.
 */
static void expect(const char *name, tcase *t, int want_rc, const char *want_msg)
{
    char msg[1024];
    tc_finish(t);
    int rc = vine__verify_scheds(&t->a, t->s, msg, sizeof msg);
    report(name, rc, msg, want_rc, want_msg);
    tc_free(t);
}

/* The same for one call only (vine__verify_calls with one call). */
static void expect1(const char *name, tcase *t, int want_rc, const char *want_msg)
{
    char msg[1024];
    const vine_args *a = &t->a;
    vine_sched *s = t->s;
    tc_finish(t);
    int rc = vine__verify_calls(1, &a, &s, msg, sizeof msg);
    report(name, rc, msg, want_rc, want_msg);
    tc_free(t);
}

/* Options of the bcast below, each of which breaks it. */
enum {
    BC_OK = 0,
    BC_NO_READY_WAIT = 1, /* readers read without waiting for the root's flag */
    BC_NO_ACK_WAIT = 2,   /* the root reuses its region without the readers' acks */
    BC_NO_ENTRY_WAIT = 4, /* the root fills its region without waiting for flag 0 */
    BC_NO_LAST_ACK = 8,   /* readers leave out their last ack (fine in one call) */
    BC_SINGLE = 16        /* readers read the root's recv buffer (single copy) */
};

/*
 * A flag-based bcast of count elements from root through the root's shm
 * region of chunk elements: for each chunk the root waits until every reader
 * is in the call (flag 0) or has acknowledged the chunk before last, copies the
 * chunk into its region and sets its flag; the readers wait for it, copy the
 * chunk out and set their own flag (the ack).  With BC_SINGLE the readers
 * read the root's recv buffer directly: one flag, then all read, and the root
 * waits for every ack before it returns.
 */
static void bcast_shm(tcase *t, int p, int root, size_t count, size_t chunk, int opt)
{
    tc_init(t, VINE_COLL_BCAST, p, count, 2 * chunk);
    t->a.root = root;
    if (opt & BC_SINGLE) {
        t->a.shm_single = 1;
        vine__sched_set(&t->s[root], 1);
        for (int r = 0; r < p; r++) {
            if (r == root)
                continue;
            if (!(opt & BC_NO_READY_WAIT))
                vine__sched_wait(&t->s[r], root, 1);
            vine__sched_get(&t->s[r], root, VINE_BUF_RECV, 0, VINE_BUF_RECV, 0, count);
            vine__sched_set(&t->s[r], 1);
            if (!(opt & BC_NO_ACK_WAIT))
                vine__sched_wait(&t->s[root], r, 1);
        }
        return;
    }
    size_t nchunks = (count + chunk - 1) / chunk;
    for (size_t k = 0; k < nchunks; k++) {
        size_t off = k * chunk, n = count - off < chunk ? count - off : chunk;
        size_t slot = (k % 2) * chunk; /* two slots: chunk k reuses chunk k-2's */
        for (int r = 0; r < p; r++) {
            if (r == root)
                continue;
            if (k < 2 && !(opt & BC_NO_ENTRY_WAIT))
                vine__sched_wait(&t->s[root], r, 0);
            if (k >= 2 && !(opt & BC_NO_ACK_WAIT))
                vine__sched_wait(&t->s[root], r, k - 1);
        }
        vine__sched_copy(&t->s[root], VINE_BUF_RECV, off, VINE_BUF_SHM, slot, n);
        vine__sched_set(&t->s[root], k + 1);
        vine__sched_fence(&t->s[root]);
        for (int r = 0; r < p; r++) {
            if (r == root)
                continue;
            if (!(opt & BC_NO_READY_WAIT))
                vine__sched_wait(&t->s[r], root, k + 1);
            vine__sched_get(&t->s[r], root, VINE_BUF_SHM, slot, VINE_BUF_RECV, off, n);
            if (!(opt & BC_NO_LAST_ACK) || k + 1 < nchunks)
                vine__sched_set(&t->s[r], k + 1);
            vine__sched_fence(&t->s[r]);
        }
    }
}

/*
 * An allreduce of count elements on p ranks through shm regions of count
 * elements.  Each rank waits until every peer has entered the call (so that
 * no peer of the previous call still reads its region), copies its input
 * into its region and sets flag 1.  Rank j then reduces part j of all
 * regions into its recv buffer in rank order: the highest rank's data first,
 * then each lower rank's on the left (GETRED); it publishes the part in its
 * own region (only it reads its own part) with flag 2, and every rank reads
 * the other parts.  ascending folds the ranks in the wrong order.
 */
static void allreduce_shm(tcase *t, int p, size_t count, int commutative, int ascending)
{
    tc_init(t, VINE_COLL_ALLREDUCE, p, count, count);
    t->a.commutative = commutative;
    for (int r = 0; r < p; r++) {
        vine_sched *s = &t->s[r];
        size_t lo = count * (size_t)r / (size_t)p, n = count * (size_t)(r + 1) / (size_t)p - lo;
        for (int q = 0; q < p; q++)
            if (q != r)
                vine__sched_wait(s, q, 0);
        vine__sched_copy(s, VINE_BUF_SEND, 0, VINE_BUF_SHM, 0, count);
        vine__sched_set(s, 1);
        for (int k = 0; k < p; k++) {
            int q = ascending ? k : p - 1 - k;
            if (q != r)
                vine__sched_wait(s, q, 1);
            if (q == r && k == 0)
                vine__sched_copy(s, VINE_BUF_SHM, lo, VINE_BUF_RECV, lo, n);
            else if (q == r)
                vine__sched_reduce(s, VINE_BUF_SHM, lo, VINE_BUF_RECV, lo, n, VINE_SRC_LEFT);
            else if (k == 0)
                vine__sched_get(s, q, VINE_BUF_SHM, lo, VINE_BUF_RECV, lo, n);
            else
                vine__sched_getred(s, q, VINE_BUF_SHM, lo, VINE_BUF_RECV, lo, n);
        }
        vine__sched_copy(s, VINE_BUF_RECV, lo, VINE_BUF_SHM, lo, n);
        vine__sched_set(s, 2);
        vine__sched_fence(s);
        for (int q = 0; q < p; q++) {
            size_t qlo = count * (size_t)q / (size_t)p,
                   qn = count * (size_t)(q + 1) / (size_t)p - qlo;
            if (q == r)
                continue;
            vine__sched_wait(s, q, 2);
            vine__sched_get(s, q, VINE_BUF_SHM, qlo, VINE_BUF_RECV, qlo, qn);
        }
    }
}

/*
 * A barrier on flags: every rank sets flag 1; rank 0 waits for all of them
 * and sets flag 2, which the others wait for.  no_gather leaves out rank 0's
 * waits, so it releases the others before they all arrived.
 */
static void barrier_shm(tcase *t, int p, int no_gather)
{
    tc_init(t, VINE_COLL_BARRIER, p, 0, 0);
    for (int r = 0; r < p; r++)
        vine__sched_set(&t->s[r], 1);
    for (int r = 1; r < p && !no_gather; r++)
        vine__sched_wait(&t->s[0], r, 1);
    vine__sched_set(&t->s[0], 2);
    for (int r = 1; r < p; r++)
        vine__sched_wait(&t->s[r], 0, 2);
}

/*
 * A bcast from rank 2 through a leader: rank 0 receives the data into its
 * region (after rank 1 entered the call, unless no_entry), sets its flag,
 * and rank 1 reads it from there.
 */
static void leader_recv(tcase *t, int no_entry)
{
    tc_init(t, VINE_COLL_BCAST, 3, 12, 12);
    t->a.root = 2;
    if (!no_entry)
        vine__sched_wait(&t->s[0], 1, 0);
    vine__sched_fence(&t->s[0]);
    vine__sched_recv(&t->s[0], 2, VINE_BUF_SHM, 0, 12);
    vine__sched_fence(&t->s[0]);
    vine__sched_set(&t->s[0], 1);
    vine__sched_copy(&t->s[0], VINE_BUF_SHM, 0, VINE_BUF_RECV, 0, 12);
    vine__sched_send(&t->s[2], 0, VINE_BUF_RECV, 0, 12);
    vine__sched_wait(&t->s[1], 0, 1);
    vine__sched_get(&t->s[1], 0, VINE_BUF_SHM, 0, VINE_BUF_RECV, 0, 12);
}

/* Rank 0 copies two chunks into its region (flags 1, 2); rank 1 reads both after flag 1 only. */
static void two_chunks(tcase *t)
{
    tc_init(t, VINE_COLL_BCAST, 2, 16, 16);
    vine__sched_wait(&t->s[0], 1, 0);
    vine__sched_copy(&t->s[0], VINE_BUF_RECV, 0, VINE_BUF_SHM, 0, 8);
    vine__sched_set(&t->s[0], 1);
    vine__sched_fence(&t->s[0]);
    vine__sched_copy(&t->s[0], VINE_BUF_RECV, 8, VINE_BUF_SHM, 8, 8);
    vine__sched_set(&t->s[0], 2);
    vine__sched_wait(&t->s[0], 1, 1);
    vine__sched_wait(&t->s[1], 0, 1);
    vine__sched_get(&t->s[1], 0, VINE_BUF_SHM, 0, VINE_BUF_RECV, 0, 8);
    vine__sched_get(&t->s[1], 0, VINE_BUF_SHM, 8, VINE_BUF_RECV, 8, 8);
    vine__sched_set(&t->s[1], 1);
}

static void test_accepted(void)
{
    tcase t;
    char name[96];
    for (int p = 1; p <= 4; p++)
        for (int root = 0; root < p; root++) {
            snprintf(name, sizeof name, "bcast shm p=%d root=%d, 5 chunks", p, root);
            bcast_shm(&t, p, root, 37, 8, BC_OK);
            expect(name, &t, VINE_OK, NULL);
        }
    bcast_shm(&t, 4, 2, 37, 8, BC_SINGLE);
    expect("bcast single copy p=4 root=2", &t, VINE_OK, NULL);
    bcast_shm(&t, 3, 0, 16, 8, BC_NO_LAST_ACK);
    expect("bcast without its last acks (the next call's flag 0 covers them)", &t, VINE_OK, NULL);
    for (int p = 1; p <= 4; p++) {
        snprintf(name, sizeof name, "allreduce shm p=%d non-commutative", p);
        allreduce_shm(&t, p, 10, 0, 0);
        expect(name, &t, VINE_OK, NULL);
    }
    leader_recv(&t, 0);
    expect("bcast through a leader that receives into its region", &t, VINE_OK, NULL);
    for (int p = 1; p <= 5; p++) {
        snprintf(name, sizeof name, "barrier on flags p=%d", p);
        barrier_shm(&t, p, 0);
        expect(name, &t, VINE_OK, NULL);
    }
}

static void test_races(void)
{
    tcase t;
    two_chunks(&t);
    expect("get before the writer's set", &t, VINE_ERR_INTERNAL,
           "call 1: rank 1 round 0 op 2 (get 0:shm[8,+8) -> recv[8]): reads rank 0's shm[8,+8) "
           "written by its op 3 (round 1, copy recv[8,+8) -> shm[8]) without a flag ordering them");
    /* Here the readers run first: the root's write finds their reads. */
    bcast_shm(&t, 3, 0, 37, 8, BC_NO_READY_WAIT);
    expect1("bcast readers that never wait", &t, VINE_ERR_INTERNAL,
            "rank 0 round 0 op 2 (copy recv[0,+8) -> shm[0]): overwrites shm[0,+8) while rank 2 "
            "may still read it (its op 0 (round 0, get 0:shm[0,+8) -> recv[0])), without a flag "
            "ordering them");
    /* The root runs ahead and overwrites chunk 0's slot before rank 2 reads it. */
    bcast_shm(&t, 3, 0, 37, 8, BC_NO_ACK_WAIT);
    expect("overwrite without the readers' acks", &t, VINE_ERR_INTERNAL,
           "reads rank 0's shm[0,+5) written by its op 12 (round 4, copy recv[32,+5) -> shm[0]) "
           "without a flag ordering them");
    /* Fine in one call: the regions start fresh.  The next call overwrites them too early. */
    bcast_shm(&t, 3, 0, 37, 8, BC_NO_ENTRY_WAIT);
    expect1("no wait for flag 0, one call", &t, VINE_OK, NULL);
    bcast_shm(&t, 3, 0, 37, 8, BC_NO_ENTRY_WAIT);
    expect("no wait for flag 0: the second call overwrites what the first may still read", &t,
           VINE_ERR_INTERNAL,
           "call 2: rank 0 round 1 op 2 (copy recv[8,+8) -> shm[8]): overwrites shm[8,+8) while "
           "rank 2 may still read it (its op 10 (round 3, get 0:shm[8,+8) -> recv[24]) in call "
           "1), without a flag ordering them");
    leader_recv(&t, 1);
    expect("a receive into a region a reader of the previous call may still read", &t,
           VINE_ERR_INTERNAL,
           "call 1: rank 1 round 0 op 1 (get 0:shm[0,+12) -> recv[0]): reads rank 0's shm[0,+12) "
           "written by its op 0 (round 0, recv from 2 shm[0,+12)) in call 2 without a flag "
           "ordering them");
    bcast_shm(&t, 4, 1, 20, 0, BC_SINGLE | BC_NO_ACK_WAIT);
    expect1("single copy: the root returns before the readers read", &t, VINE_ERR_INTERNAL,
            "reads rank 1's recv[0,+20) after rank 1 may have returned from its call, without a "
            "flag ordering them (nothing keeps rank 1 in the call until the read)");
    bcast_shm(&t, 4, 1, 20, 0, BC_SINGLE | BC_NO_ACK_WAIT);
    expect("single copy: the root enters the next call before the readers read", &t,
           VINE_ERR_INTERNAL,
           "reads rank 1's recv[0,+20) while rank 1 is in call 2, after this call");
    bcast_shm(&t, 4, 1, 20, 0, BC_SINGLE | BC_NO_READY_WAIT);
    expect("single copy: reads the root's buffer before its flag", &t, VINE_ERR_INTERNAL,
           "which its user hands over when it enters the call, without a flag ordering them");
}

/* Broken schedules that the static checks and the flag pre-pass reject. */
static void test_static(void)
{
    tcase t;
    bcast_shm(&t, 3, 0, 20, 0, BC_SINGLE);
    t.a.shm_single = 0;
    expect("get from a peer's recv without single copy", &t, VINE_ERR_INTERNAL,
           "reads rank 0's recv buffer: only shm regions can be read, and send and recv buffers "
           "with single copy (shm_single), which this case does not have");

    /* Ranks 0 and 1 share node 0, ranks 2 and 3 node 1; rank 2 reads rank 0's region. */
    vine_levels lv;
    char err[128];
    if (vine__levels_parse("block:2", 4, &lv, err, sizeof err) != VINE_OK) {
        printf("FAIL levels block:2: %s\n", err);
        failures++;
    }
    tc_init(&t, VINE_COLL_BCAST, 4, 8, 8);
    t.a.levels = &lv;
    /* Each node its own segment (with shm_count all four would share one). */
    t.a.shm_node_count = t.a.shm_count;
    t.a.shm_count = 0;
    vine__sched_get(&t.s[2], 0, VINE_BUF_SHM, 0, VINE_BUF_RECV, 0, 8);
    expect("get from a rank on another node", &t, VINE_ERR_INTERNAL,
           "rank 2 round 0 op 0 (get 0:shm[0,+8) -> recv[0]): rank 0 lies on another node "
           "(level-0 group 0, this rank's is 1): shared memory reaches the ranks of the node only");
    vine__levels_free(&lv);

    bcast_shm(&t, 2, 0, 16, 8, BC_OK);
    vine__sched_set(&t.s[1], 2);
    expect("set values not increasing", &t, VINE_ERR_INTERNAL,
           "flag values must increase strictly within a schedule: 2 follows 2");
    bcast_shm(&t, 2, 0, 16, 8, BC_OK);
    t.s[0].ops[t.s[0].nops - 1].count = 0;
    expect("set value 0", &t, VINE_ERR_INTERNAL, "flag value 0 lies outside 1..16777215");

    bcast_shm(&t, 3, 0, 16, 8, BC_OK);
    t.s[2].shm = 0;
    vine__sched_free(&t.s[2]);
    vine__sched_init(&t.s[2], 3, 2);
    expect("a rank without the shm mark and without shm ops", &t, VINE_ERR_INTERNAL,
           "rank 2: the schedule's shm mark (0) differs from rank 0's (1): all ranks of a call "
           "must agree");
    bcast_shm(&t, 3, 0, 16, 8, BC_OK);
    t.s[1].shm = 0;
    expect("shm ops without the shm mark", &t, VINE_ERR_INTERNAL,
           "uses shared memory in a schedule without the shm mark (vine__sched_shm)");

    bcast_shm(&t, 2, 0, 16, 8, BC_OK);
    vine__sched_wait(&t.s[1], 0, 9);
    expect("wait for a value never set", &t, VINE_ERR_INTERNAL,
           "deadlock: waits for rank 0's flag to reach 9, which rank 0 never sets in this call "
           "(its highest value is 2)");
    bcast_shm(&t, 2, 0, 16, 8, BC_OK);
    vine__sched_wait(&t.s[1], 1, 0);
    expect("wait for itself", &t, VINE_ERR_INTERNAL, "peer 1 is not another rank of 0..1");

    allreduce_shm(&t, 3, 6, 1, 0);
    for (size_t i = 0; i < t.s[1].nops; i++)
        if (t.s[1].ops[i].kind == VINE_OP_GETRED)
            t.s[1].ops[i].order = VINE_SRC_RIGHT;
    expect("getred with the peer's data on the right", &t, VINE_ERR_INTERNAL,
           "a getred combines the peer's data on the left (VINE_SRC_LEFT)");
    bcast_shm(&t, 2, 0, 16, 8, BC_OK);
    vine__sched_get(&t.s[1], 0, VINE_BUF_SHM, 10, VINE_BUF_RECV, 0, 8);
    expect("get beyond the peer's region", &t, VINE_ERR_INTERNAL,
           "rank 0's shm[10,+8) lies outside its 16-element shm buffer");
    bcast_shm(&t, 2, 0, 16, 8, BC_OK);
    vine__sched_get(&t.s[1], 0, VINE_BUF_SHM, 0, VINE_BUF_SEND, 0, 8);
    expect("get into the send buffer", &t, VINE_ERR_INTERNAL, "writes the read-only send buffer");
}

/* Data and flags at run time: the order of a reduction, deadlocks, barriers. */
static void test_run(void)
{
    tcase t;
    allreduce_shm(&t, 3, 9, 0, 1);
    expect("allreduce folding the ranks upwards, non-commutative", &t, VINE_ERR_INTERNAL,
           "out of order");
    allreduce_shm(&t, 3, 9, 1, 1);
    expect("allreduce folding the ranks upwards, commutative", &t, VINE_OK, NULL);

    tc_init(&t, VINE_COLL_BARRIER, 2, 0, 0);
    for (int r = 0; r < 2; r++) {
        vine__sched_wait(&t.s[r], 1 - r, 1);
        vine__sched_set(&t.s[r], 1);
    }
    expect1("two ranks waiting for each other", &t, VINE_ERR_INTERNAL,
            "rank 0 round 0 op 0 (wait 1 1): deadlock (2 ranks stuck): waits for rank 1's flag "
            "to reach 1, but rank 1 is stuck in round 0 at op 0 (wait 0 1) with its flag at 0");

    /* A wait on the flag of a rank stuck on a message. */
    tc_init(&t, VINE_COLL_BARRIER, 3, 0, 0);
    vine__sched_wait(&t.s[0], 1, 1);
    vine__sched_sync_recv(&t.s[1], 2);
    vine__sched_fence(&t.s[1]);
    vine__sched_set(&t.s[1], 1);
    vine__sched_wait(&t.s[2], 0, 0);
    vine__sched_fence(&t.s[2]);
    vine__sched_set(&t.s[2], 1);
    vine__sched_wait(&t.s[2], 0, 5);
    vine__sched_set(&t.s[0], 5);
    vine__sched_fence(&t.s[0]);
    vine__sched_fence(&t.s[2]);
    vine__sched_sync_send(&t.s[2], 1);
    vine__sched_fence(&t.s[0]);
    expect1("a wait on a rank stuck on a message", &t, VINE_ERR_INTERNAL,
            "deadlock (3 ranks stuck)");

    barrier_shm(&t, 4, 1);
    expect("barrier on flags without the gather", &t, VINE_ERR_INTERNAL,
           "call 1: rank 0: not a barrier: the rank may finish before rank 1 starts");
}

/* vine__verify_calls and vine__verify_cases with different cases in turn. */
static void test_pairs(void)
{
    tcase t0, t1;
    char msg[1024];
    /* bcast from root 0, then from root 2, both through their roots' regions. */
    bcast_shm(&t0, 4, 0, 37, 8, BC_OK);
    bcast_shm(&t1, 4, 2, 37, 8, BC_OK);
    tc_finish(&t0);
    tc_finish(&t1);
    const vine_args *a[3] = {&t0.a, &t1.a, &t0.a};
    vine_sched *s[3] = {t0.s, t1.s, t0.s};
    report("bcast root 0, root 2, root 0", vine__verify_calls(3, a, s, msg, sizeof msg), msg,
           VINE_OK, NULL);
    tc_free(&t0);
    tc_free(&t1);

    /*
     * A bcast whose root does not wait for flag 0, after an allreduce, which
     * leaves every region read by all ranks: the bcast's root overwrites its
     * region while the allreduce may still read it.  Alone, two such bcasts
     * are fine when only the root writes and the readers' acks cover it.
     */
    allreduce_shm(&t0, 3, 16, 1, 0);
    bcast_shm(&t1, 3, 0, 16, 8, BC_NO_ENTRY_WAIT);
    tc_finish(&t0);
    tc_finish(&t1);
    a[0] = &t0.a;
    a[1] = &t1.a;
    s[0] = t0.s;
    s[1] = t1.s;
    report("allreduce then a bcast that skips flag 0", vine__verify_calls(2, a, s, msg, sizeof msg),
           msg, VINE_ERR_INTERNAL,
           "call 2: rank 0 round 0 op 0 (copy recv[0,+8) -> shm[0]): overwrites shm[0,+5) while "
           "rank 1 may still read it (its op 12 (round 1, get 0:shm[0,+5) -> recv[0]) in call 1)");
    tc_free(&t0);
    tc_free(&t1);

    /* Registered algorithms: bcast from two roots, allreduce of two counts. */
    const vine_algo *alg[2];
    vine_args args[2] = {
        {.coll = VINE_COLL_BCAST, .p = 6, .root = 0, .count = 100, .commutative = 1},
        {.coll = VINE_COLL_BCAST, .p = 6, .root = 5, .count = 7, .commutative = 1}};
    alg[0] = alg[1] = vine__algo_find(VINE_COLL_BCAST, "binomial");
    report("bcast binomial root 0 then root 5", vine__verify_cases(2, alg, args, msg, sizeof msg),
           msg, VINE_OK, NULL);
    alg[0] = alg[1] = vine__algo_find(VINE_COLL_BCAST, "shm");
    if (alg[0]) {
        args[0].shm_count = args[1].shm_count = 64;
        report("bcast shm root 0 then root 5", vine__verify_cases(2, alg, args, msg, sizeof msg),
               msg, VINE_OK, NULL);
        args[1].shm_count = 32;
        report("calls with different shm regions",
               vine__verify_cases(2, alg, args, msg, sizeof msg), msg, VINE_ERR_INTERNAL,
               "consecutive calls share one segment");
    }
    alg[0] = alg[1] = vine__algo_find(VINE_COLL_ALLREDUCE, "shm");
    if (alg[0]) {
        vine_args b[2] = {{.coll = VINE_COLL_ALLREDUCE, .p = 5, .count = 1000, .shm_count = 64},
                          {.coll = VINE_COLL_ALLREDUCE, .p = 5, .count = 3, .shm_count = 64}};
        report("allreduce shm of 1000 then of 3 elements, non-commutative",
               vine__verify_cases(2, alg, b, msg, sizeof msg), msg, VINE_OK, NULL);
    }
}

/* ---- parity slots (sched.h, docs/shm.md "Parity slots") ---- */

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            printf("FAIL ");                                                                       \
            printf(__VA_ARGS__);                                                                   \
            printf("\n");                                                                          \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

/* A case of p ranks with the schedules of build, parity slots of par elements. */
static int par_build(tcase *t, vine_coll coll, int p, size_t count, size_t par, size_t *counts,
                     size_t *displs, vine_build_fn build)
{
    memset(t, 0, sizeof *t);
    t->a = (vine_args){.coll = coll,
                       .p = p,
                       .count = count,
                       .commutative = 1,
                       .shm_count = 4096,
                       .shm_par_count = par};
    if (counts) {
        vine__verify_counts(coll, p, count, counts, displs);
        t->a.counts = counts;
        t->a.displs = displs;
    }
    int rc = VINE_OK;
    for (int r = 0; r < p; r++) {
        vine_args a = t->a;
        a.rank = r;
        vine__sched_init(&t->s[r], p, r);
        if (rc == VINE_OK)
            rc = build(&a, &t->s[r]);
    }
    return rc;
}

/* Verifies ncalls calls of t in a row. */
static int par_calls(tcase *t, int ncalls, char *msg, size_t len)
{
    const vine_args *a[3] = {&t->a, &t->a, &t->a};
    vine_sched *s[3] = {t->s, t->s, t->s};
    return vine__verify_calls(ncalls, a, s, msg, len);
}

/* Removes the WAITs of s (a rank that trusts its peers). */
static void drop_waits(vine_sched *s)
{
    size_t n = 0, b = 0;
    for (size_t k = 0; k < s->nrounds; k++) {
        size_t e = s->round_end[k];
        for (size_t i = b; i < e; i++)
            if (s->ops[i].kind != VINE_OP_WAIT)
                s->ops[n++] = s->ops[i];
        b = e;
        s->round_end[k] = n;
    }
    s->nops = n;
}

/* Moves the parity slot's data to the region: one slot, still without the entry wait. */
static void par_to_region(vine_sched *s)
{
    for (size_t i = 0; i < s->nops; i++) {
        if (s->ops[i].buf == VINE_BUF_PAR)
            s->ops[i].buf = VINE_BUF_SHM;
        if (s->ops[i].dbuf == VINE_BUF_PAR)
            s->ops[i].dbuf = VINE_BUF_SHM;
    }
    s->par = 0;
    s->par_count = 0;
}

static int has_wait0(const vine_sched *s)
{
    for (size_t i = 0; i < s->nops; i++)
        if (s->ops[i].kind == VINE_OP_WAIT && s->ops[i].count == 0 &&
            s->ops[i].order != VINE_WAIT_PREV)
            return 1;
    return 0;
}

static void test_par(void)
{
    char msg[1024];
    tcase t;
    size_t counts[MAXP], displs[MAXP + 1];
    int rc;

    /* The small allreduce on the parity slots: no entry wait, accepted over three calls. */
    rc = par_build(&t, VINE_COLL_ALLREDUCE, 5, 3, 64, NULL, NULL, vine__allreduce_shm_build);
    CHECK(rc == VINE_OK && t.s[0].par && t.s[0].par_count == 3 && !has_wait0(&t.s[0]),
          "allreduce shm p=5 n=3: a par schedule without flag 0 (rc %d, par %d)", rc, t.s[0].par);
    rc = par_calls(&t, 3, msg, sizeof msg);
    report("par allreduce p=5, three calls", rc, msg, VINE_OK, NULL);
    tc_free(&t);

    /* Too large for the slot: the region with its entry wait. */
    rc = par_build(&t, VINE_COLL_ALLREDUCE, 5, 100, 64, NULL, NULL, vine__allreduce_shm_build);
    CHECK(rc == VINE_OK && !t.s[0].par && has_wait0(&t.s[0]),
          "allreduce shm p=5 n=100 with 64-element slots: the region path");
    tc_free(&t);

    /* Broken: one slot (the region) and no entry wait: the next call overwrites a read. */
    rc = par_build(&t, VINE_COLL_ALLREDUCE, 4, 3, 64, NULL, NULL, vine__allreduce_shm_build);
    for (int r = 0; r < 4; r++)
        par_to_region(&t.s[r]);
    rc = rc ? rc : par_calls(&t, 2, msg, sizeof msg);
    report("allreduce on one slot without the entry wait", rc, msg, VINE_ERR_INTERNAL,
           "reads rank 0's shm[0,+3) written by its op 0 (round 0, copy send[0,+3) -> shm[0]) in "
           "call 2 without a flag ordering them");
    tc_free(&t);

    /* Broken: the rank with an empty block skips its WAITs.  Two calls use both slots once and
     * pass; the third reuses slot 0 while readers of call 1 may still read it. */
    rc = par_build(&t, VINE_COLL_REDUCE_SCATTER, 5, 3, 64, counts, displs,
                   vine__reduce_scatter_shm_build);
    CHECK(rc == VINE_OK && counts[0] == 0 && t.s[0].par,
          "reduce_scatter shm p=5: par, empty block 0");
    rc = par_calls(&t, 3, msg, sizeof msg);
    report("par reduce_scatter p=5 (rank 0's block empty), three calls", rc, msg, VINE_OK, NULL);
    drop_waits(&t.s[0]);
    rc = par_calls(&t, 2, msg, sizeof msg);
    report("par reduce_scatter, rank 0 skips its waits, two calls", rc, msg, VINE_OK, NULL);
    rc = par_calls(&t, 3, msg, sizeof msg);
    report("par reduce_scatter, rank 0 skips its waits, three calls", rc, msg, VINE_ERR_INTERNAL,
           "reads rank 0's par[0,+3) written by its op 0 (round 0, copy send[0,+14) -> par[0]) in "
           "call 3 without a flag ordering them");
    tc_free(&t);

    /* Broken: the parity mark on some ranks only. */
    rc = par_build(&t, VINE_COLL_ALLREDUCE, 3, 2, 64, NULL, NULL, vine__allreduce_shm_build);
    t.s[2].par_count = 5;
    rc = rc ? rc : par_calls(&t, 1, msg, sizeof msg);
    report("par schedules that disagree on par_count", rc, msg, VINE_ERR_INTERNAL,
           "all ranks of a call must agree");
    tc_free(&t);

    /* Mixed with the other shm collectives, which use the region at any offset. */
    const vine_algo *alg[8];
    vine_args args[8];
    size_t rsc[2][MAXP], rsd[2][MAXP + 1];
    const vine_coll seq[8] = {VINE_COLL_ALLREDUCE, VINE_COLL_BCAST,
                              VINE_COLL_ALLREDUCE, VINE_COLL_REDUCE_SCATTER,
                              VINE_COLL_GATHER,    VINE_COLL_ALLREDUCE,
                              VINE_COLL_REDUCE,    VINE_COLL_REDUCE_SCATTER_BLOCK};
    const size_t cnt[8] = {3, 40, 2, 3, 5, 100, 3, 2};
    for (int c = 0; c < 8; c++) {
        args[c] = (vine_args){.coll = seq[c],
                              .p = 6,
                              .root = c % 6,
                              .count = cnt[c],
                              .commutative = c != 2,
                              .shm_count = 64,
                              .shm_par_count = 16};
        alg[c] = vine__algo_find(seq[c], "shm");
    }
    vine__verify_counts(VINE_COLL_REDUCE_SCATTER, 6, 3, rsc[0], rsd[0]);
    vine__verify_counts(VINE_COLL_REDUCE_SCATTER_BLOCK, 6, 2, rsc[1], rsd[1]);
    args[3].counts = rsc[0];
    args[3].displs = rsd[0];
    args[7].counts = rsc[1];
    args[7].displs = rsd[1];
    report("par and region shm calls mixed, 8 calls",
           vine__verify_cases(8, alg, args, msg, sizeof msg), msg, VINE_OK, NULL);
    /* The same without the slots: every call on the region with its entry wait. */
    for (int c = 0; c < 8; c++)
        args[c].shm_par_count = 0;
    report("the same on the region only", vine__verify_cases(8, alg, args, msg, sizeof msg), msg,
           VINE_OK, NULL);
}

/* Whether s WAITs PREV on some peer. */
static int has_wait_prev(const vine_sched *s)
{
    for (size_t i = 0; i < s->nops; i++)
        if (s->ops[i].kind == VINE_OP_WAIT && s->ops[i].order == VINE_WAIT_PREV)
            return 1;
    return 0;
}

/* The eager slots (docs/shm.md, "Eager slots"). */
static void test_eag(void)
{
    char msg[1024];
    tcase t;
    int rc;

    /* bcast: the root WAITs PREV, no rank waits for flag 0; accepted over three calls. */
    rc = par_build(&t, VINE_COLL_BCAST, 5, 3, 64, NULL, NULL, vine__bcast_shm_build);
    CHECK(rc == VINE_OK && t.s[0].eag && t.s[0].eag_count == 3 && has_wait_prev(&t.s[0]) &&
              !has_wait0(&t.s[0]) && !has_wait0(&t.s[1]) && !has_wait_prev(&t.s[1]),
          "bcast shm p=5 n=3: an eager schedule, WAIT PREV at the root only (rc %d, eag %d)", rc,
          t.s[0].eag);
    rc = par_calls(&t, 3, msg, sizeof msg);
    report("eager bcast p=5, three calls", rc, msg, VINE_OK, NULL);
    /* Broken: the root skips WAIT PREV.  Two calls use both slots once and pass; in the third
     * the root rewrites slot 0 while call 1's readers may still read it. */
    drop_waits(&t.s[0]);
    rc = par_calls(&t, 2, msg, sizeof msg);
    report("eager bcast, the root skips WAIT PREV, two calls", rc, msg, VINE_OK, NULL);
    rc = par_calls(&t, 3, msg, sizeof msg);
    report("eager bcast, the root skips WAIT PREV, three calls", rc, msg, VINE_ERR_INTERNAL,
           "eag[0,+3)");
    tc_free(&t);

    /* gather: the non-roots leave after their SET; the same break on one non-root. */
    rc = par_build(&t, VINE_COLL_GATHER, 4, 2, 64, NULL, NULL, vine__gather_shm_build);
    CHECK(rc == VINE_OK && t.s[1].eag && has_wait_prev(&t.s[1]) && !has_wait_prev(&t.s[0]),
          "gather shm p=4 n=2: eager, WAIT PREV at the non-roots");
    rc = par_calls(&t, 3, msg, sizeof msg);
    report("eager gather p=4, three calls", rc, msg, VINE_OK, NULL);
    drop_waits(&t.s[2]);
    rc = par_calls(&t, 3, msg, sizeof msg);
    report("eager gather, rank 2 skips WAIT PREV, three calls", rc, msg, VINE_ERR_INTERNAL,
           "eag[0,+2)");
    tc_free(&t);

    /* A stream above the slot (alltoall: 3 blocks of 30 > 64): the region, entry wait. */
    rc = par_build(&t, VINE_COLL_ALLTOALL, 4, 30, 64, NULL, NULL, vine__alltoall_shm_build);
    CHECK(rc == VINE_OK && !t.s[0].eag && has_wait0(&t.s[0]),
          "alltoall shm p=4 n=30 with 64-element slots: the region path");
    tc_free(&t);

    /* Static checks: WAIT PREV with a flag value; eager marks that disagree; EAG unmarked. */
    rc = par_build(&t, VINE_COLL_BCAST, 3, 2, 64, NULL, NULL, vine__bcast_shm_build);
    for (size_t i = 0; i < t.s[0].nops; i++)
        if (t.s[0].ops[i].order == VINE_WAIT_PREV && t.s[0].ops[i].kind == VINE_OP_WAIT)
            t.s[0].ops[i].count = 3;
    rc = rc ? rc : par_calls(&t, 1, msg, sizeof msg);
    report("WAIT PREV with a flag value", rc, msg, VINE_ERR_INTERNAL,
           "a wait for the previous call has flag value 3, not 0");
    tc_free(&t);
    rc = par_build(&t, VINE_COLL_BCAST, 3, 2, 64, NULL, NULL, vine__bcast_shm_build);
    t.s[2].eag_count = 5;
    rc = rc ? rc : par_calls(&t, 1, msg, sizeof msg);
    report("eager schedules that disagree on eag_count", rc, msg, VINE_ERR_INTERNAL,
           "all ranks of a call must agree");
    t.s[2].eag_count = 2;
    t.s[1].eag = 0;
    t.s[1].eag_count = 0;
    rc = par_calls(&t, 1, msg, sizeof msg);
    report("eager slot used without the mark", rc, msg, VINE_ERR_INTERNAL, "without the eag mark");
    tc_free(&t);

    /* Mixed: every eager collective, the parity and region calls and point-to-point calls
     * (which the executor does not count) in between; WAIT PREV names the shm call before. */
    const vine_algo *alg[8];
    vine_args args[8];
    const vine_coll seq[8] = {VINE_COLL_BCAST,     VINE_COLL_GATHER,  VINE_COLL_BCAST,
                              VINE_COLL_ALLREDUCE, VINE_COLL_SCATTER, VINE_COLL_BCAST,
                              VINE_COLL_REDUCE,    VINE_COLL_ALLTOALL};
    const size_t cnt[8] = {3, 2, 5, 2, 3, 40, 2, 3};
    const char *name[8] = {"shm", "shm", "binomial", "shm", "shm", "shm", "shm", "shm"};
    for (int c = 0; c < 8; c++) {
        args[c] = (vine_args){.coll = seq[c],
                              .p = 5,
                              .root = (c * 3) % 5,
                              .count = cnt[c],
                              .commutative = 1,
                              .shm_count = 64,
                              .shm_par_count = 16};
        alg[c] = vine__algo_find(seq[c], name[c]);
        CHECK(alg[c] != NULL, "algorithm %s of call %d", name[c], c + 1);
    }
    if (alg[2])
        report("eager, parity, region and point-to-point calls mixed, 8 calls",
               vine__verify_cases(8, alg, args, msg, sizeof msg), msg, VINE_OK, NULL);
}

/* WAITs of s for a flag value above v0 (not the entry wait). */
static size_t late_waits(const vine_sched *s, size_t v0)
{
    size_t n = 0;
    for (size_t i = 0; i < s->nops; i++)
        n += s->ops[i].kind == VINE_OP_WAIT && s->ops[i].count > v0;
    return n;
}

/* gather p=4 of count-byte blocks through regions of 4096 B in chunks of 256 B. */
static int gather_case(tcase *t, size_t count)
{
    int rc = VINE_OK;
    memset(t, 0, sizeof *t);
    t->a = (vine_args){
        .coll = VINE_COLL_GATHER, .p = 4, .count = count, .shm_count = 4096, .seg_count = 256};
    for (int r = 0; r < 4; r++) {
        vine_args a = t->a;
        a.rank = r;
        vine__sched_init(&t->s[r], 4, r);
        rc = rc ? rc : vine__gather_shm_build(&a, &t->s[r]);
    }
    return rc;
}

/* The move engine's slots: a stream within the region never waits for its readers. */
static void test_slots(void)
{
    char msg[1024];
    tcase t;
    /* 1 KiB blocks: 4 chunks in a region of 16 slots. */
    int rc = gather_case(&t, 1024);
    CHECK(rc == VINE_OK && late_waits(&t.s[1], 0) == 0 && late_waits(&t.s[3], 0) == 0,
          "gather 1 KiB in 4 chunks of a 4 KiB region: non-roots wait only at entry");
    rc = rc ? rc : par_calls(&t, 2, msg, sizeof msg);
    report("gather, a stream within the region, two calls", rc, msg, VINE_OK, NULL);
    tc_free(&t);
    /* 8 KiB blocks: 32 chunks in 16 slots; a non-root waits for the root before chunks 16-31. */
    rc = gather_case(&t, 8192);
    CHECK(rc == VINE_OK && late_waits(&t.s[1], 0) == 16,
          "gather 8 KiB in 32 chunks of 16 slots: 16 reuse waits (%zu)", late_waits(&t.s[1], 0));
    rc = rc ? rc : par_calls(&t, 2, msg, sizeof msg);
    report("gather, a stream twice the region, two calls", rc, msg, VINE_OK, NULL);
    /* Broken: rank 1 reuses its slots without waiting for the root. */
    drop_waits(&t.s[1]);
    rc = par_calls(&t, 1, msg, sizeof msg);
    report("gather reusing slots without the reuse waits", rc, msg, VINE_ERR_INTERNAL,
           "without a flag ordering them");
    tc_free(&t);
}

int main(void)
{
    test_accepted();
    test_races();
    test_static();
    test_run();
    test_pairs();
    test_par();
    test_eag();
    test_slots();
    printf("%d failures\n", failures);
    return failures != 0;
}
