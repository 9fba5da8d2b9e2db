/*
 * MPI tier: nonblocking and persistent collectives together (issue 19).
 *
 * - Twelve collectives outstanding at once (all ten, allreduce and bcast
 *   twice), on one communicator and spread over three (a dup of
 *   MPI_COMM_WORLD and two splits, one of them in reverse rank order),
 *   completed out of start order: in reverse, by vine_waitall over an array
 *   shuffled per rank, by polling vine_test, vine_testany, vine_testsome,
 *   by vine_waitsome and vine_waitany, and forward on even ranks but
 *   backward on odd ones; under auto and under two mixes of forced
 *   algorithms.
 * - Two sets of five persistent requests (auto; forced algorithms) started
 *   1000 times (VINE_TEST_NB_REPS) with the inputs changed before every
 *   start, by vine_startall and by vine_start one by one, completed by
 *   vine_waitall and by vine_wait in reverse, checked every time.
 * - Blocking collectives while a nonblocking bcast and allreduce and a
 *   started persistent allreduce are outstanding on the same communicator,
 *   under auto and (where one node segment serves MPI_COMM_WORLD) with
 *   every collective forced to shm, which must then serve every call, the
 *   persistent one on a segment of its own (on the communicator's with
 *   VINE_PERSISTENT_SHM=1, as in mpi.nb_mix_shm).
 * - vine_progress between start and completion; vine_is_request.
 * - With the progress thread: requests that finish while the program makes
 *   no vine call, started after the idle thread went to sleep.
 *
 * Every result is compared with the MPI library's blocking collective on
 * the same communicator, made before the vine calls start (the persistent
 * loop computes its expected values here, to stay cheap).
 *
 * VINE_TEST_NB_ENV=shm (mpi.nb_mix_shm, with VINE_<COLL>_ALGORITHM=shm for
 * every collective): nothing is forced here, the environment chooses, and
 * the blocking calls among outstanding ones must be served by shm.  The
 * request errors and the arrays mixed with point-to-point requests are in
 * test_nb_err.c.
 */
#include "mpitest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { NSLOTS = 12, MAXP = 64, DEADLINE_S = 60, NMODES = 8 };

enum form { F_MPI, F_NB, F_INIT, F_BLOCK };

/* One int/MPI_SUM collective with its buffers and MPI's result. */
typedef struct slot {
    vine_coll coll;
    MPI_Comm comm;
    int n, root, p, me;
    int *in, *out, *want;
    size_t inlen, outlen, len; /* len: the elements of the result on this rank */
    int rcounts[MAXP];
    MPI_Request req;
} slot;

static char label[160];
static int reps = 1000;
/* VINE_TEST_NB_ENV: the algorithms come from VINE_<COLL>_ALGORITHM; none is forced here. */
static int use_env;

static void begin(const char *what, const char *algo)
{
    mt_case c = {what, algo, "int", "sum", 0, -1, 0};
    mt_begin(&c);
}

/* A small value of element j of rank r's input for call `seed`. */
static int val(int seed, int r, size_t j)
{
    return (int)((seed * 7 + r * 13 + (long)j * 3) % 101) - 50;
}

static void slot_init(slot *s, vine_coll coll, MPI_Comm comm, int n, int root, int seed)
{
    *s = (slot){.coll = coll, .comm = comm, .n = n, .req = MPI_REQUEST_NULL};
    MPI_Comm_size(comm, &s->p);
    MPI_Comm_rank(comm, &s->me);
    s->root = root % s->p;
    size_t p = (size_t)s->p, nn = (size_t)n, sum = 0;
    for (int i = 0; i < s->p; i++)
        sum += (size_t)(s->rcounts[i] = n + i % 2);
    int at_root = s->me == s->root;
    switch (coll) {
    case VINE_COLL_ALLGATHER:
        s->inlen = nn, s->outlen = s->len = nn * p;
        break;
    case VINE_COLL_ALLTOALL:
        s->inlen = s->outlen = s->len = nn * p;
        break;
    case VINE_COLL_GATHER:
        s->inlen = nn, s->outlen = nn * p, s->len = at_root ? nn * p : 0;
        break;
    case VINE_COLL_SCATTER:
        s->inlen = nn * p, s->outlen = s->len = nn;
        break;
    case VINE_COLL_REDUCE_SCATTER_BLOCK:
        s->inlen = nn * p, s->outlen = s->len = nn;
        break;
    case VINE_COLL_REDUCE_SCATTER:
        s->inlen = sum, s->outlen = s->len = (size_t)s->rcounts[s->me];
        break;
    case VINE_COLL_REDUCE:
        s->inlen = s->outlen = nn, s->len = at_root ? nn : 0;
        break;
    case VINE_COLL_BARRIER:
        break;
    default: /* bcast, allreduce */
        s->inlen = s->outlen = s->len = nn;
        break;
    }
    s->in = malloc((s->inlen + 1) * sizeof(int));
    s->out = malloc((s->outlen + 1) * sizeof(int));
    s->want = malloc((s->outlen + 1) * sizeof(int));
    for (size_t j = 0; j < s->inlen; j++)
        s->in[j] = val(seed, s->me, j);
    for (size_t j = 0; j < s->outlen; j++)
        s->out[j] = s->want[j] = -999999;
    if (coll == VINE_COLL_BCAST && at_root)
        memcpy(s->out, s->in, s->outlen * sizeof(int));
    memcpy(s->want, s->out, s->outlen * sizeof(int));
}

static void slot_free(slot *s)
{
    free(s->in);
    free(s->out);
    free(s->want);
}

#define FORMS(mpi, nb, init, block)                                                                \
    return form == F_MPI ? (mpi) : form == F_NB ? (nb) : form == F_INIT ? (init) : (block)

/* Calls the collective of s: MPI's blocking one into want, or vine's (in form) into out. */
static int slot_call(slot *s, int form)
{
    int *o = form == F_MPI ? s->want : s->out, n = s->n, root = s->root;
    const int *i = s->in, *rc = s->rcounts;
    MPI_Comm c = s->comm;
    MPI_Datatype t = MPI_INT;
    MPI_Op sum = MPI_SUM;
    MPI_Request *q = &s->req;
    MPI_Info in = MPI_INFO_NULL;
    switch (s->coll) {
    case VINE_COLL_BCAST:
        FORMS(MPI_Bcast(o, n, t, root, c), vine_ibcast(o, n, t, root, c, q),
              vine_bcast_init(o, n, t, root, c, in, q), vine_bcast(o, n, t, root, c));
    case VINE_COLL_REDUCE:
        FORMS(MPI_Reduce(i, o, n, t, sum, root, c), vine_ireduce(i, o, n, t, sum, root, c, q),
              vine_reduce_init(i, o, n, t, sum, root, c, in, q),
              vine_reduce(i, o, n, t, sum, root, c));
    case VINE_COLL_ALLREDUCE:
        FORMS(MPI_Allreduce(i, o, n, t, sum, c), vine_iallreduce(i, o, n, t, sum, c, q),
              vine_allreduce_init(i, o, n, t, sum, c, in, q), vine_allreduce(i, o, n, t, sum, c));
    case VINE_COLL_ALLGATHER:
        FORMS(MPI_Allgather(i, n, t, o, n, t, c), vine_iallgather(i, n, t, o, n, t, c, q),
              vine_allgather_init(i, n, t, o, n, t, c, in, q), vine_allgather(i, n, t, o, n, t, c));
    case VINE_COLL_ALLTOALL:
        FORMS(MPI_Alltoall(i, n, t, o, n, t, c), vine_ialltoall(i, n, t, o, n, t, c, q),
              vine_alltoall_init(i, n, t, o, n, t, c, in, q), vine_alltoall(i, n, t, o, n, t, c));
    case VINE_COLL_GATHER:
        FORMS(MPI_Gather(i, n, t, o, n, t, root, c), vine_igather(i, n, t, o, n, t, root, c, q),
              vine_gather_init(i, n, t, o, n, t, root, c, in, q),
              vine_gather(i, n, t, o, n, t, root, c));
    case VINE_COLL_SCATTER:
        FORMS(MPI_Scatter(i, n, t, o, n, t, root, c), vine_iscatter(i, n, t, o, n, t, root, c, q),
              vine_scatter_init(i, n, t, o, n, t, root, c, in, q),
              vine_scatter(i, n, t, o, n, t, root, c));
    case VINE_COLL_REDUCE_SCATTER_BLOCK:
        FORMS(MPI_Reduce_scatter_block(i, o, n, t, sum, c),
              vine_ireduce_scatter_block(i, o, n, t, sum, c, q),
              vine_reduce_scatter_block_init(i, o, n, t, sum, c, in, q),
              vine_reduce_scatter_block(i, o, n, t, sum, c));
    case VINE_COLL_REDUCE_SCATTER:
        FORMS(MPI_Reduce_scatter(i, o, rc, t, sum, c), vine_ireduce_scatter(i, o, rc, t, sum, c, q),
              vine_reduce_scatter_init(i, o, rc, t, sum, c, in, q),
              vine_reduce_scatter(i, o, rc, t, sum, c));
    default:
        FORMS(MPI_Barrier(c), vine_ibarrier(c, q), vine_barrier_init(c, in, q), vine_barrier(c));
    }
}

/* Fails unless out equals MPI's result (and nothing past it was written). */
static void slot_check(const slot *s, const char *what)
{
    for (size_t j = 0; j < s->outlen; j++)
        if (s->out[j] != s->want[j]) {
            mt_fail("%s: %s element %zu is %d, expected %d", what,
                    j < s->len ? "result" : "untouched", j, s->out[j], s->want[j]);
            return;
        }
}

/* A permutation of 0..n-1 that depends on seed (rank-dependent where seed is). */
static void shuffle(int *a, int n, unsigned seed)
{
    for (int i = 0; i < n; i++)
        a[i] = i;
    for (int i = n - 1; i > 0; i--) {
        seed = seed * 1103515245u + 12345u;
        int j = (int)((seed >> 8) % (unsigned)(i + 1)), t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

static const char *const mode_name[NMODES] = {
    "reverse vine_wait", "vine_waitall shuffled", "vine_test polling", "vine_testany",
    "vine_testsome",     "vine_waitsome",         "vine_waitany",      "forward/backward by rank"};

/* Completes the n requests of q in mode m; returns the first error. */
static int complete_all(MPI_Request *q, int n, int m, MPI_Status *st)
{
    int order[NSLOTS], rc = MPI_SUCCESS, left = n, idx, flag, out, ind[NSLOTS];
    double t0 = MPI_Wtime();
    shuffle(order, n, 977u * (unsigned)mt_rank + 31u * (unsigned)m + 5u);
    MPI_Request tmp[NSLOTS];
    MPI_Status tst[NSLOTS];
    switch (m) {
    case 0:
        for (int i = n - 1; i >= 0 && rc == MPI_SUCCESS; i--)
            rc = vine_wait(&q[i], &st[i]);
        return rc;
    case 1: /* an array in shuffled order, copied back in place */
        for (int i = 0; i < n; i++)
            tmp[i] = q[order[i]];
        rc = vine_waitall(n, tmp, tst);
        for (int i = 0; i < n; i++)
            q[order[i]] = tmp[i], st[order[i]] = tst[i];
        return rc;
    case 2:
        while (left > 0 && rc == MPI_SUCCESS) {
            for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
                if (q[order[i]] == MPI_REQUEST_NULL)
                    continue;
                rc = vine_test(&q[order[i]], &flag, &st[order[i]]);
                left -= flag;
            }
            mt_deadline(t0, DEADLINE_S, mode_name[m]);
        }
        return rc;
    case 3:
    case 6:
        while (rc == MPI_SUCCESS) {
            flag = 1;
            rc = m == 3 ? vine_testany(n, q, &idx, &flag, MPI_STATUS_IGNORE)
                        : vine_waitany(n, q, &idx, MPI_STATUS_IGNORE);
            if (flag && idx == MPI_UNDEFINED)
                return rc;
            if (rc == MPI_SUCCESS && flag && q[idx] != MPI_REQUEST_NULL)
                mt_fail("%s: request %d completed but not freed", mode_name[m], idx);
            mt_deadline(t0, DEADLINE_S, mode_name[m]);
        }
        return rc;
    case 4:
    case 5:
        while (rc == MPI_SUCCESS) {
            rc = m == 4 ? vine_testsome(n, q, &out, ind, tst) : vine_waitsome(n, q, &out, ind, tst);
            if (rc != MPI_SUCCESS || out == MPI_UNDEFINED)
                return rc;
            for (int i = 0; i < out; i++)
                st[ind[i]] = tst[i];
            mt_deadline(t0, DEADLINE_S, mode_name[m]);
        }
        return rc;
    default:
        for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
            int k = mt_rank % 2 ? n - 1 - i : i;
            rc = vine_wait(&q[k], &st[k]);
        }
        return rc;
    }
}

/* The collective of slot k: all ten, then allreduce and bcast again. */
static vine_coll slot_coll(int k)
{
    return k < VINE_COLL_ALLGATHERV ? (vine_coll)k : k == 10 ? VINE_COLL_ALLREDUCE : VINE_COLL_BCAST;
}

/* Forces, per collective, the algorithm pick says (0: auto). */
static void force_algos(int pick)
{
    if (use_env)
        return;
    for (int c = 0; c < VINE_COLL_ALLGATHERV; c++) { /* the ten with nonblocking forms */
        int na = mt_nalgos((vine_coll)c);
        mt_select((vine_coll)c,
                  pick == 0 ? NULL : mt_algo_at((vine_coll)c, 1 + (pick * 3 + c) % (na - 1)));
    }
}

/* Check 2: NSLOTS collectives outstanding on ncomm communicators, completed in mode m. */
static void outstanding(MPI_Comm *comms, int ncomm, int m, const char *algo)
{
    slot s[NSLOTS];
    MPI_Request q[NSLOTS];
    MPI_Status st[NSLOTS];
    static const int counts[NSLOTS] = {1000, 5, 700, 3, 2, 4, 3, 200, 6, 0, 5, 1};
    for (int k = 0; k < NSLOTS; k++) {
        slot_init(&s[k], slot_coll(k), comms[k % ncomm], counts[k], k, 10 * m + k);
        int rc = slot_call(&s[k], F_MPI);
        if (rc != MPI_SUCCESS) {
            begin("outstanding: MPI reference", algo);
            mt_fail("the MPI library's %s returned %d", vine_coll_name(s[k].coll), rc);
        }
    }
    begin("outstanding: start", algo);
    for (int k = 0; k < NSLOTS; k++) {
        mt_check_rc(slot_call(&s[k], F_NB), vine_coll_name(s[k].coll));
        q[k] = s[k].req;
    }
    snprintf(label, sizeof label, "outstanding: %d on %d comm(s), %s", NSLOTS, ncomm, mode_name[m]);
    begin(label, algo);
    mt_check_rc(complete_all(q, NSLOTS, m, st), mode_name[m]);
    for (int k = 0; k < NSLOTS; k++) {
        if (q[k] != MPI_REQUEST_NULL)
            mt_fail("request %d (%s) not freed", k, vine_coll_name(s[k].coll));
        if (m != 3 && m != 6)
            mt_check_empty_status(&st[k], vine_coll_name(s[k].coll));
        slot_check(&s[k], vine_coll_name(s[k].coll));
        slot_free(&s[k]);
    }
}

/* What element j of slot s's result must be, when every rank r gave val(seed, r, .). */
static int expected(const slot *s, int seed, size_t j)
{
    int sum = 0;
    size_t n = (size_t)s->n;
    switch (s->coll) {
    case VINE_COLL_BCAST:
        return val(seed, s->root, j);
    case VINE_COLL_ALLTOALL:
        return val(seed, (int)(j / n), (size_t)s->me * n + j % n);
    case VINE_COLL_GATHER:
        return val(seed, (int)(j / n), j % n);
    case VINE_COLL_REDUCE_SCATTER_BLOCK:
        for (int r = 0; r < s->p; r++)
            sum += val(seed, r, (size_t)s->me * n + j);
        return sum;
    default: /* allreduce */
        for (int r = 0; r < s->p; r++)
            sum += val(seed, r, j);
        return sum;
    }
}

/* Check 3: two sets of persistent requests (auto; forced), reps starts each. */
static void persistent_loop(void)
{
    enum { NP = 5 };
    static const vine_coll colls[NP] = {VINE_COLL_ALLREDUCE, VINE_COLL_BCAST, VINE_COLL_ALLTOALL,
                                        VINE_COLL_REDUCE_SCATTER_BLOCK, VINE_COLL_GATHER};
    static const char *const forced[NP] = {"ring", "bine", "bruck", "recursive_halving", "bine"};
    static const int counts[NP] = {3, 2, 1, 2, 2};
    slot s[2 * NP];
    MPI_Request q[2 * NP];
    begin("persistent: init", "auto, then forced");
    for (int k = 0; k < 2 * NP; k++) {
        if (!use_env)
            mt_select(colls[k % NP], k < NP ? NULL : forced[k % NP]);
        slot_init(&s[k], colls[k % NP], MPI_COMM_WORLD, counts[k % NP], mt_size - 1, 0);
        mt_check_rc(slot_call(&s[k], F_INIT), "init");
    }
    force_algos(0);
    for (int k = 0; k < 2 * NP; k++)
        q[k] = s[k].req;
    long bad = 0;
    for (int it = 1; it <= reps; it++) {
        snprintf(label, sizeof label, "persistent: start %d of %d (%s)", it, reps,
                 it % 2 ? "vine_startall" : "vine_start");
        begin(label, "auto, then forced");
        for (int k = 0; k < 2 * NP; k++) {
            slot *x = &s[k];
            for (size_t j = 0; j < x->inlen; j++)
                x->in[j] = val(it + k, x->me, j);
            for (size_t j = 0; j < x->outlen; j++)
                x->out[j] = -999999;
            if (x->coll == VINE_COLL_BCAST && x->me == x->root)
                memcpy(x->out, x->in, x->outlen * sizeof(int));
        }
        if (it % 2)
            mt_check_rc(vine_startall(2 * NP, q), "vine_startall");
        else
            for (int k = 0; k < 2 * NP; k++)
                mt_check_rc(vine_start(&q[k]), "vine_start");
        if (it % 3)
            mt_check_rc(vine_waitall(2 * NP, q, MPI_STATUSES_IGNORE), "vine_waitall");
        else
            for (int k = 2 * NP - 1; k >= 0; k--)
                mt_check_rc(vine_wait(&q[k], MPI_STATUS_IGNORE), "vine_wait");
        for (int k = 0; k < 2 * NP; k++)
            for (size_t j = 0; j < s[k].len; j++)
                if (s[k].out[j] != expected(&s[k], it + k, j) && bad++ < 5)
                    mt_fail("%s (set %d): element %zu is %d, expected %d",
                            vine_coll_name(s[k].coll), k / NP, j, s[k].out[j],
                            expected(&s[k], it + k, j));
    }
    begin("persistent: free", "auto, then forced");
    for (int k = 0; k < 2 * NP; k++) {
        if (q[k] == MPI_REQUEST_NULL || !vine_is_request(q[k]))
            mt_fail("persistent request %d lost", k);
        mt_check_rc(vine_request_free(&q[k]), "vine_request_free");
        slot_free(&s[k]);
    }
}

/*
 * Check 6: blocking collectives while a bcast, an allreduce and a started
 * persistent allreduce are outstanding on comm, the first blocking call of
 * the same shape as the persistent one.  With shm forced, every call must
 * be served by shm (the segment serves comm), the
 * persistent one on its own segment unless VINE_PERSISTENT_SHM puts it on
 * comm's.
 */
static void interleaved(MPI_Comm comm, int shm)
{
    int seg = 0;
    vine_shm_info(comm, &seg, NULL, NULL, 0);
    shm = shm && seg == 2;
    enum { NB = 3, NS = 10 };
    static const vine_coll colls[NS] = {
        VINE_COLL_BCAST,  VINE_COLL_ALLREDUCE, VINE_COLL_ALLREDUCE, VINE_COLL_ALLREDUCE,
        VINE_COLL_BCAST,  VINE_COLL_ALLTOALL,  VINE_COLL_BARRIER,   VINE_COLL_REDUCE_SCATTER,
        VINE_COLL_GATHER, VINE_COLL_SCATTER};
    static const int counts[NS] = {1000, 1000, 6, 6, 5, 2, 0, 3, 4, 300};
    const char *algo = shm ? "shm" : "auto";
    slot s[NS];
    int p;
    MPI_Comm_size(comm, &p);
    for (int k = 0; k < NS; k++) {
        slot_init(&s[k], colls[k], comm, counts[k], k == 0 ? p - 1 : k, 50 + k);
        if (slot_call(&s[k], F_MPI) != MPI_SUCCESS) {
            begin("interleaved: MPI reference", algo);
            mt_fail("the MPI library's %s failed", vine_coll_name(colls[k]));
        }
    }
    for (int k = 0; k < NS; k++) {
        snprintf(label, sizeof label, "interleaved: %s %s", k < NB ? "start" : "blocking",
                 vine_coll_name(colls[k]));
        begin(label, algo);
        int rc = slot_call(&s[k], k < NB - 1 ? F_NB : k == NB - 1 ? F_INIT : F_BLOCK);
        if (rc == MPI_SUCCESS && k == NB - 1)
            rc = vine_start(&s[k].req);
        mt_check_rc(rc, vine_coll_name(colls[k]));
        const char *served = vine_last_algorithm(colls[k]);
        if (shm && (counts[k] > 0 || (k == 6 && p > 1)) && strcmp(served, "shm") != 0)
            mt_fail("served by %s, not shm", served);
        if (k >= NB)
            slot_check(&s[k], "blocking call");
    }
    begin("interleaved: completion", algo);
    for (int k = 0; k < NB; k++) {
        MPI_Status st;
        mt_check_rc(vine_wait(&s[k].req, &st), "vine_wait");
        mt_check_empty_status(&st, vine_coll_name(colls[k]));
        slot_check(&s[k], vine_coll_name(colls[k]));
    }
    mt_check_rc(vine_request_free(&s[NB - 1].req), "vine_request_free");
    for (int k = 0; k < NS; k++)
        slot_free(&s[k]);
}

/* Check 7: vine_progress between start and completion; vine_is_request. */
static void progress(void)
{
    slot s[3];
    begin("progress", "auto");
    mt_check_rc(vine_progress(), "vine_progress with nothing outstanding");
    slot_init(&s[0], VINE_COLL_ALLREDUCE, MPI_COMM_WORLD, 1000, 0, 7);
    slot_init(&s[1], VINE_COLL_ALLTOALL, MPI_COMM_WORLD, 50, 0, 8);
    slot_init(&s[2], VINE_COLL_BCAST, MPI_COMM_WORLD, 300, 1, 9);
    for (int k = 0; k < 3; k++)
        mt_check_rc(slot_call(&s[k], F_MPI), "the MPI library's collective");
    mt_check_rc(slot_call(&s[0], F_NB), "vine_iallreduce");
    mt_check_rc(slot_call(&s[1], F_NB), "vine_ialltoall");
    mt_check_rc(slot_call(&s[2], F_INIT), "vine_bcast_init");
    if (!vine_is_request(s[2].req))
        mt_fail("vine_is_request is false for an inactive persistent request");
    mt_check_rc(vine_start(&s[2].req), "vine_start");
    volatile double x = 1;
    for (int i = 0; i < 300; i++) {
        for (int j = 0; j < 2000; j++)
            x = x * 1.0000001 + 1e-9;
        if (vine_progress() != MPI_SUCCESS) {
            mt_fail("vine_progress failed at call %d", i);
            break;
        }
    }
    for (int k = 0; k < 3; k++)
        if (!vine_is_request(s[k].req))
            mt_fail("vine_is_request is false for request %d", k);
    MPI_Request q[3] = {s[0].req, s[1].req, s[2].req};
    int flag = 0;
    double t0 = MPI_Wtime();
    while (!flag) {
        if (!mt_check_rc(vine_testall(3, q, &flag, MPI_STATUSES_IGNORE), "vine_testall"))
            break;
        mt_deadline(t0, DEADLINE_S, "progress: vine_testall");
    }
    for (int k = 0; k < 3; k++)
        slot_check(&s[k], vine_coll_name(s[k].coll));
    if (q[0] != MPI_REQUEST_NULL || q[1] != MPI_REQUEST_NULL || q[2] == MPI_REQUEST_NULL)
        mt_fail("after vine_testall: requests %s/%s/%s", q[0] ? "set" : "null",
                q[1] ? "set" : "null", q[2] ? "set" : "null");
    mt_check_rc(vine_request_free(&q[2]), "vine_request_free");
    MPI_Request r;
    int rbuf = 0, sbuf = 1;
    MPI_Irecv(&rbuf, 1, MPI_INT, mt_rank, 5, MPI_COMM_WORLD, &r);
    if (vine_is_request(r) || vine_is_request(MPI_REQUEST_NULL))
        mt_fail("vine_is_request is true for an MPI_Irecv request or MPI_REQUEST_NULL");
    MPI_Send(&sbuf, 1, MPI_INT, mt_rank, 5, MPI_COMM_WORLD);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    for (int k = 0; k < 3; k++)
        slot_free(&s[k]);
}

static void nap(long us)
{
    struct timespec d = {us / 1000000, (us % 1000000) * 1000};
    while (nanosleep(&d, &d) != 0)
        ;
}

/*
 * Check 8, with the progress thread (VINE_PROGRESS_THREAD=1 under
 * MPI_THREAD_MULTIPLE): requests finish while the program makes no vine call
 * at all.  Every rank first sleeps 5 ms, long enough for the idle thread to
 * go to sleep (it looks for new requests for 200 us), so the starts must
 * wake it; then each rank only sleeps and asks the MPI library whether the
 * generalized requests are complete (MPI_Request_get_status, which runs none
 * of vine's rounds).  Under auto, then with multi-round algorithms forced.
 */
static void thread_alone(void)
{
    int level = MPI_THREAD_SINGLE;
    const char *v = getenv("VINE_PROGRESS_THREAD");
    MPI_Query_thread(&level);
    if (!v || !*v || strcmp(v, "0") == 0 || level != MPI_THREAD_MULTIPLE || use_env)
        return;
    for (int round = 0; round < 2; round++) {
        const char *ar = round ? "recursive_doubling" : NULL, *bc = round ? "binomial" : NULL;
        slot s[2];
        begin("thread alone", round ? "recursive_doubling, binomial" : "auto");
        mt_select(VINE_COLL_ALLREDUCE, ar);
        mt_select(VINE_COLL_BCAST, bc);
        slot_init(&s[0], VINE_COLL_ALLREDUCE, MPI_COMM_WORLD, 1000, 0, 20 + round);
        slot_init(&s[1], VINE_COLL_BCAST, MPI_COMM_WORLD, 300, mt_size - 1, 30 + round);
        for (int k = 0; k < 2; k++)
            mt_check_rc(slot_call(&s[k], F_MPI), "the MPI library's collective");
        MPI_Barrier(MPI_COMM_WORLD);
        nap(5000);
        mt_check_rc(slot_call(&s[0], F_NB), "vine_iallreduce");
        mt_check_rc(slot_call(&s[1], F_NB), "vine_ibcast");
        int done[2] = {0, 0};
        double t0 = MPI_Wtime();
        while (!done[0] || !done[1]) {
            for (int k = 0; k < 2; k++)
                if (!done[k])
                    MPI_Request_get_status(s[k].req, &done[k], MPI_STATUS_IGNORE);
            nap(100);
            mt_deadline(t0, DEADLINE_S, "thread alone: the requests, with no vine call");
        }
        for (int k = 0; k < 2; k++) {
            mt_check_rc(vine_wait(&s[k].req, MPI_STATUS_IGNORE), "vine_wait");
            slot_check(&s[k], vine_coll_name(s[k].coll));
            slot_free(&s[k]);
        }
    }
    force_algos(0);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "nb_mix");
    if (mt_size > MAXP) {
        fprintf(stderr, "nb_mix: at most %d ranks\n", MAXP);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    use_env = getenv("VINE_TEST_NB_ENV") != NULL;
    if (getenv("VINE_TEST_NB_REPS"))
        reps = atoi(getenv("VINE_TEST_NB_REPS"));
    double t0 = MPI_Wtime();
    MPI_Comm comms[3];
    MPI_Comm_dup(MPI_COMM_WORLD, &comms[0]);
    MPI_Comm_split(MPI_COMM_WORLD, mt_rank % 2, mt_rank, &comms[1]);
    MPI_Comm_split(MPI_COMM_WORLD, 0, mt_size - mt_rank, &comms[2]);
    static const char *const picks[] = {"auto", "forced mix 1", "forced mix 2"};
    for (int pick = 0; pick < (use_env ? 1 : 3); pick++) {
        force_algos(pick);
        for (int m = 0; m < NMODES; m++) {
            outstanding(comms, 1, m, use_env ? "env" : picks[pick]);
            outstanding(comms, 3, m, use_env ? "env" : picks[pick]);
        }
    }
    force_algos(0);
    persistent_loop();
    progress();
    thread_alone();
    interleaved(comms[0], use_env);
    interleaved(comms[2], use_env);
    int shm = 0;
    vine_shm_info(MPI_COMM_WORLD, &shm, NULL, NULL, 0);
    if (shm == 2 && !use_env) {
        for (int c = 0; c < VINE_COLL_ALLGATHERV; c++)
            mt_select((vine_coll)c, "shm");
        interleaved(MPI_COMM_WORLD, 1);
        interleaved(comms[0], 1);
        outstanding(comms, 1, 0, "shm");
        outstanding(comms, 3, 7, "shm");
        force_algos(0);
    }
    for (int i = 0; i < 3; i++)
        MPI_Comm_free(&comms[i]);
    if (mt_rank == 0 && getenv("VINE_TEST_NB_TIME"))
        fprintf(stderr, "nb_mix: %.1f s\n", MPI_Wtime() - t0);
    return mt_finish();
}
