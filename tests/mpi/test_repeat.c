/*
 * MPI tier: calls that repeat the previous one on a communicator.  vine runs
 * such a call straight from its remembered schedule, skipping the checks
 * that cannot change (src/api/call.c, vine_memo); this test makes sure the
 * shortcut still sees what does change: new buffers, a new algorithm choice,
 * a NULL or MPI_IN_PLACE buffer, another communicator, another root, other
 * counts (reduce_scatter's counts changed inside the same array), and for
 * the irregular collectives (coll_v.c, vine_vmemo) tables and types changed
 * in place or passed in other arrays with equal values.  Every result is
 * compared with the MPI library's collective.
 */
#include "mpitest.h"

#include <stdlib.h>
#include <string.h>

enum { N = 6, REPS = 4, MAXP = 64 };

static void check(const int *got, const int *want, int n, const char *what)
{
    for (int i = 0; i < n; i++)
        if (got[i] != want[i]) {
            mt_fail("%s: element %d is %d, expected %d", what, i, got[i], want[i]);
            return;
        }
}

static void begin(const char *coll, const char *algo, int root)
{
    mt_case c = {coll, algo, "int", coll[0] == 'b' ? "-" : "sum", N, root, 0};
    mt_begin(&c);
}

/* The same allreduce REPS times, each time on other buffers holding other values. */
static void allreduce_new_buffers(MPI_Comm comm, const char *what)
{
    static int in[REPS][N], out[REPS][N];
    int want[N];
    begin("allreduce", what, -1);
    for (int k = 0; k < REPS; k++) {
        for (int i = 0; i < N; i++)
            in[k][i] = 100 * k + 10 * mt_rank + i;
        MPI_Allreduce(in[k], want, N, MPI_INT, MPI_SUM, comm);
        if (mt_check_rc(vine_allreduce(in[k], out[k], N, MPI_INT, MPI_SUM, comm),
                        "vine_allreduce"))
            check(out[k], want, N, what);
    }
}

/* Call k of a series: the count (element per block) and the root. */
static int rep_count(int k)
{
    return k < 2 ? N : N - k + 1;
}

static int rep_root(int k, int p)
{
    return (k / 2) % p;
}

/*
 * The collectives with two buffer sides and the reduce-scatters, REPS calls
 * each on other buffers, with the count changing after two calls and the root
 * moving, in place every other series, checked against the MPI library.
 */
static void two_sided(MPI_Comm comm, const char *algo, int inplace)
{
    int p, r;
    MPI_Comm_size(comm, &p);
    MPI_Comm_rank(comm, &r);
    static int in[REPS][MAXP * N], out[REPS][MAXP * N], want[MAXP * N], rcounts[MAXP];
    for (int c = 0; c < 6; c++) {
        static const vine_coll colls[] = {VINE_COLL_ALLGATHER, VINE_COLL_ALLTOALL,
                                          VINE_COLL_GATHER, VINE_COLL_SCATTER,
                                          VINE_COLL_REDUCE_SCATTER_BLOCK,
                                          VINE_COLL_REDUCE_SCATTER};
        static const char *names[] = {"allgather", "alltoall",       "gather",
                                      "scatter",   "reduce_scatter_block", "reduce_scatter"};
        /* "vine": a schedule of vine's own for each collective. */
        static const char *own[] = {"ring", "linear", "linear", "linear", "ring", "ring"};
        vine_coll coll = colls[c];
        const char *use = algo && !strcmp(algo, "vine") ? own[c] : algo;
        /* alltoall in place goes through the checks every time: still checked. */
        mt_select(coll, use);
        for (int k = 0; k < REPS; k++) {
            int n = rep_count(k), root = rep_root(k, p), rc = MPI_SUCCESS;
            mt_case cs = {names[c], use ? use : "auto", "int",
                          c >= 4 ? "sum" : "-", n, coll == VINE_COLL_GATHER ||
                          coll == VINE_COLL_SCATTER ? root : -1, inplace};
            mt_begin(&cs);
            for (int i = 0; i < p * N; i++)
                in[k][i] = 1000 * k + 100 * r + i;
            memset(out[k], 0xff, sizeof out[k]);
            memset(want, 0xff, sizeof want);
            int *sb = in[k], *ob = out[k], at_root = r == root, len = p * n;
            switch (coll) {
            case VINE_COLL_ALLGATHER:
                MPI_Allgather(sb, n, MPI_INT, want, n, MPI_INT, comm);
                if (inplace)
                    memcpy(ob + r * n, sb, (size_t)n * sizeof *sb);
                rc = vine_allgather(inplace ? MPI_IN_PLACE : sb, n, MPI_INT, ob, n, MPI_INT, comm);
                break;
            case VINE_COLL_ALLTOALL:
                MPI_Alltoall(sb, n, MPI_INT, want, n, MPI_INT, comm);
                if (inplace)
                    memcpy(ob, sb, (size_t)len * sizeof *sb);
                rc = vine_alltoall(inplace ? MPI_IN_PLACE : sb, n, MPI_INT, ob, n, MPI_INT, comm);
                break;
            case VINE_COLL_GATHER:
                MPI_Gather(sb, n, MPI_INT, want, n, MPI_INT, root, comm);
                if (inplace && at_root)
                    memcpy(ob + r * n, sb, (size_t)n * sizeof *sb);
                rc = vine_gather(inplace && at_root ? MPI_IN_PLACE : sb, n, MPI_INT, ob, n, MPI_INT,
                                 root, comm);
                len = at_root ? len : 0;
                break;
            case VINE_COLL_SCATTER:
                MPI_Scatter(sb, n, MPI_INT, want, n, MPI_INT, root, comm);
                if (inplace && at_root) {
                    memcpy(ob, sb, (size_t)len * sizeof *sb);
                    rc = vine_scatter(ob, n, MPI_INT, MPI_IN_PLACE, n, MPI_INT, root, comm);
                    memcpy(want, sb + r * n, (size_t)n * sizeof *sb);
                    ob += r * n;
                } else {
                    rc = vine_scatter(sb, n, MPI_INT, ob, n, MPI_INT, root, comm);
                }
                len = n;
                break;
            case VINE_COLL_REDUCE_SCATTER_BLOCK:
                MPI_Reduce_scatter_block(sb, want, n, MPI_INT, MPI_SUM, comm);
                if (inplace)
                    memcpy(ob, sb, (size_t)len * sizeof *sb);
                rc = vine_reduce_scatter_block(inplace ? MPI_IN_PLACE : sb, ob, n, MPI_INT, MPI_SUM,
                                               comm);
                len = n;
                break;
            default:
                /* The same counts array, its entries changed from the third call on. */
                for (int i = 0; i < p; i++)
                    rcounts[i] = k < 2 ? n : (i + k) % (n + 1);
                MPI_Reduce_scatter(sb, want, rcounts, MPI_INT, MPI_SUM, comm);
                if (inplace)
                    memcpy(ob, sb, (size_t)p * N * sizeof *sb);
                rc = vine_reduce_scatter(inplace ? MPI_IN_PLACE : sb, ob, rcounts, MPI_INT,
                                         MPI_SUM, comm);
                len = rcounts[r];
                break;
            }
            if (mt_check_rc(rc, names[c]))
                check(ob, want, len, names[c]);
        }
        mt_select(coll, NULL);
    }
}

/* ---- The irregular collectives ---- */

/*
 * A series of VREPS calls of one v collective: the tables are refilled
 * before every call, into the same arrays (set 0) except in call 4 (set 1,
 * equal values), so that call 3 changes the counts and call 5 the
 * displacements in place; the buffers change in call 2 and again from call
 * 6 on; alltoallw's types change in place in call 6, the root of gatherv and
 * scatterv in call 7.  Calls 1, 2, 4 and 8 repeat their predecessor.
 */
enum { VS = 8, VREPS = 9 };

/* Elements rank s sends rank d in call k (symmetric, as in place needs; at most 4 < VS). */
static int vcnt(int k, int s, int d)
{
    return (s + d + (k >= 3)) % 3 + 1 + (k >= 3);
}

/* Displacement in elements of block i in call k. */
static int vdsp(int k, int i)
{
    return i * VS + (k >= 5 ? 2 : 0);
}

static int vroot(int k, int p)
{
    return k >= 7 ? p - 1 : 0;
}

/* The tables of one side in both forms (the _c forms' MPI_Count and MPI_Aint). */
typedef struct vtab {
    int ic[MAXP], id[MAXP];
    MPI_Count cc[MAXP];
    MPI_Aint ad[MAXP];
    MPI_Datatype t[MAXP];
} vtab;

/* Fills t for call k: block i holds cnt(i) elements at displacement vdsp (bytes: scaled). */
static void vtab_fill(vtab *t, int k, int p, int r, int recv, int bytes)
{
    for (int i = 0; i < p; i++) {
        t->ic[i] = recv ? vcnt(k, i, r) : vcnt(k, r, i);
        t->id[i] = vdsp(k, i) * (bytes ? (int)sizeof(int) : 1);
        t->cc[i] = t->ic[i];
        t->ad[i] = t->id[i];
        t->t[i] = k >= 6 ? MPI_UNSIGNED : MPI_INT;
    }
}

/* One call k of a series of coll (cform: the _c form) on comm, checked against the MPI library. */
static void vcall(vine_coll coll, const char *algo, MPI_Comm comm, int k, int cform, int inplace)
{
    static int in[2][MAXP * VS], out[2][MAXP * VS], want[MAXP * VS];
    static vtab tabs[2][2]; /* [set][send 0, receive 1] */
    int p, r, rc = MPI_SUCCESS, ed[MAXP];
    MPI_Comm_size(comm, &p);
    MPI_Comm_rank(comm, &r);
    int bi = k == 2 || k >= 6, root = vroot(k, p), at_root = r == root, len = p * VS;
    int w = coll == VINE_COLL_ALLTOALLW,
        rooted = coll == VINE_COLL_GATHERV || coll == VINE_COLL_SCATTERV;
    vtab *s = &tabs[k == 4][0], *t = &tabs[k == 4][1];
    /* allgatherv, gatherv and scatterv: rank i's block has vcnt(k, i, 0) elements. */
    vtab_fill(s, k, p, w || coll == VINE_COLL_ALLTOALLV ? r : 0, 0, w);
    vtab_fill(t, k, p, w || coll == VINE_COLL_ALLTOALLV ? r : 0, 1, w);
    if (!w && coll != VINE_COLL_ALLTOALLV)
        for (int i = 0; i < p; i++)
            t->ic[i] = t->cc[i] = s->ic[i] = s->cc[i] = vcnt(k, i, 0);
    int own = vcnt(k, r, 0);
    mt_case cs = {vine_coll_name(coll), algo,   cform ? "int (_c)" : "int", "-", k,
                  rooted ? root : -1,   inplace};
    mt_begin(&cs);
    int *sb = in[bi], *ob = out[bi];
    for (int i = 0; i < len; i++)
        sb[i] = 1000 * k + 100 * r + i;
    memset(ob, 0xff, sizeof out[bi]);
    memset(want, 0xff, sizeof want);
    switch (coll) {
    case VINE_COLL_ALLGATHERV:
        /* The reference by hand: MPICH 4.0's MPI_Allgatherv ignores displs[0] (the calls from
         * 5 on have gaps); rank i sends its first t->ic[i] elements, 1000 k + 100 i + j. */
        for (int i = 0; i < p; i++)
            for (int j = 0; j < t->ic[i]; j++)
                want[t->id[i] + j] = 1000 * k + 100 * i + j;
        if (inplace)
            memcpy(ob + t->id[r], sb, (size_t)own * sizeof *sb);
        if (cform)
            rc = vine_allgatherv_c(inplace ? MPI_IN_PLACE : sb, own, MPI_INT, ob, t->cc, t->ad,
                                   MPI_INT, comm);
        else
            rc = vine_allgatherv(inplace ? MPI_IN_PLACE : sb, own, MPI_INT, ob, t->ic, t->id,
                                 MPI_INT, comm);
        break;
    case VINE_COLL_ALLTOALLV:
        /* The tables are symmetric: in place, the input lies as sb does, and
         * the gaps between the blocks keep what the buffer held. */
        if (inplace) {
            memcpy(ob, sb, (size_t)len * sizeof *sb);
            memcpy(want, sb, (size_t)len * sizeof *sb);
        }
        MPI_Alltoallv(sb, s->ic, s->id, MPI_INT, want, t->ic, t->id, MPI_INT, comm);
        if (cform)
            rc = vine_alltoallv_c(inplace ? MPI_IN_PLACE : sb, s->cc, s->ad, MPI_INT, ob, t->cc,
                                  t->ad, MPI_INT, comm);
        else
            rc = vine_alltoallv(inplace ? MPI_IN_PLACE : sb, s->ic, s->id, MPI_INT, ob, t->ic,
                                t->id, MPI_INT, comm);
        break;
    case VINE_COLL_ALLTOALLW:
        if (inplace) {
            /* The gaps between the blocks keep what the buffer held. */
            memcpy(ob, sb, (size_t)len * sizeof *sb);
            memcpy(want, sb, (size_t)len * sizeof *sb);
        }
        /* The reference by MPI_Alltoallv (one type per call): Open MPI's
         * MPI_Alltoallw on one process scales the displacements (test_vcoll.c). */
        for (int i = 0; i < p; i++)
            ed[i] = vdsp(k, i);
        MPI_Alltoallv(sb, s->ic, ed, s->t[0], want, t->ic, ed, t->t[0], comm);
        if (cform)
            rc = vine_alltoallw_c(inplace ? MPI_IN_PLACE : sb, s->cc, s->ad, s->t, ob, t->cc, t->ad,
                                  t->t, comm);
        else
            rc = vine_alltoallw(inplace ? MPI_IN_PLACE : sb, s->ic, s->id, s->t, ob, t->ic, t->id,
                                t->t, comm);
        break;
    case VINE_COLL_GATHERV:
        MPI_Gatherv(sb, own, MPI_INT, want, t->ic, t->id, MPI_INT, root, comm);
        if (inplace && at_root)
            memcpy(ob + t->id[r], sb, (size_t)own * sizeof *sb);
        if (cform)
            rc = vine_gatherv_c(inplace && at_root ? MPI_IN_PLACE : sb, own, MPI_INT, ob, t->cc,
                                t->ad, MPI_INT, root, comm);
        else
            rc = vine_gatherv(inplace && at_root ? MPI_IN_PLACE : sb, own, MPI_INT, ob, t->ic,
                              t->id, MPI_INT, root, comm);
        len = at_root ? len : 0;
        break;
    default:
        MPI_Scatterv(sb, s->ic, s->id, MPI_INT, want, own, MPI_INT, root, comm);
        if (inplace && at_root) {
            /* The root's block stays where it is in the send buffer. */
            memcpy(want, sb, (size_t)len * sizeof *sb);
            ob = sb;
        }
        if (cform)
            rc = vine_scatterv_c(sb, s->cc, s->ad, MPI_INT, inplace && at_root ? MPI_IN_PLACE : ob,
                                 own, MPI_INT, root, comm);
        else
            rc = vine_scatterv(sb, s->ic, s->id, MPI_INT, inplace && at_root ? MPI_IN_PLACE : ob,
                               own, MPI_INT, root, comm);
        break;
    }
    if (mt_check_rc(rc, vine_coll_name(coll)))
        check(ob, want, len, vine_coll_name(coll));
}

/*
 * Series of every v collective with every algorithm, both forms, in place or
 * not; not alltoallw by the MPI library's where a communicator of the call
 * (every rank calls, each with its own) has one process (see vcall).
 */
static void vseries(MPI_Comm comm)
{
    int p;
    MPI_Comm_size(comm, &p);
    MPI_Allreduce(MPI_IN_PLACE, &p, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    static const vine_coll colls[] = {VINE_COLL_ALLGATHERV, VINE_COLL_ALLTOALLV,
                                      VINE_COLL_ALLTOALLW, VINE_COLL_GATHERV, VINE_COLL_SCATTERV};
    for (int c = 0; c < 5; c++)
        for (int a = 0; a < mt_nalgos(colls[c]); a++) {
            const char *algo = mt_algo_at(colls[c], a);
            if (p == 1 && colls[c] == VINE_COLL_ALLTOALLW && !strcmp(algo, "mpi"))
                continue;
            mt_select(colls[c], strcmp(algo, "auto") ? algo : NULL);
            for (int cform = 0; cform < 2; cform++)
                for (int inplace = 0; inplace < 2; inplace++)
                    for (int k = 0; k < VREPS; k++)
                        vcall(colls[c], algo, comm, k, cform, inplace);
            mt_select(colls[c], NULL);
        }
}

static void expect(int rc, int want, const char *what)
{
    if (rc != want)
        mt_fail("%s after a repeat: %d (%s), not %d", what, rc, vine_error_string(rc), want);
}

/*
 * Bad arguments right after a repeat of a v collective are still refused:
 * on every rank, before any message (gatherv and scatterv on MPI_COMM_SELF,
 * where the root's table is the only one).
 */
static void vbad(MPI_Comm comm)
{
    static int in[MAXP * VS], out[MAXP * VS];
    static vtab t;
    int p, r;
    MPI_Comm_size(comm, &p);
    MPI_Comm_rank(comm, &r);
    mt_case cs = {"allgatherv", "auto", "int", "-", 1, -1, 0};
    mt_begin(&cs);
    for (int i = 0; i < p; i++) {
        t.ic[i] = 1;
        t.id[i] = i * VS;
        t.t[i] = MPI_INT;
    }
    for (int k = 0; k < 2; k++)
        mt_check_rc(vine_allgatherv(in, 1, MPI_INT, out, t.ic, t.id, MPI_INT, comm), "allgatherv");
    if (p > 1) {
        t.id[1] = 0; /* blocks 0 and 1 overlap */
        expect(vine_allgatherv(in, 1, MPI_INT, out, t.ic, t.id, MPI_INT, comm), MPI_ERR_BUFFER,
               "overlapping blocks");
        t.id[1] = VS;
    }
    t.ic[0] = -1;
    expect(vine_allgatherv(in, 1, MPI_INT, out, t.ic, t.id, MPI_INT, comm), MPI_ERR_COUNT,
           "negative count");
    t.ic[0] = 1;
    mt_check_rc(vine_allgatherv(in, 1, MPI_INT, out, t.ic, t.id, MPI_INT, comm), "allgatherv");
    expect(vine_allgatherv(in, 1, MPI_INT, NULL, t.ic, t.id, MPI_INT, comm), MPI_ERR_BUFFER,
           "NULL recvbuf");
    expect(vine_allgatherv(in, 1, MPI_INT, out, NULL, t.id, MPI_INT, comm), MPI_ERR_ARG,
           "NULL recvcounts");
    expect(vine_allgatherv(in, 2, MPI_INT, out, t.ic, t.id, MPI_INT, comm), MPI_ERR_TRUNCATE,
           "sendcount changed");

    cs.coll = "alltoallw";
    mt_begin(&cs);
    for (int i = 0; i < p; i++)
        t.id[i] = i * VS * (int)sizeof(int);
    for (int k = 0; k < 2; k++)
        mt_check_rc(vine_alltoallw(in, t.ic, t.id, t.t, out, t.ic, t.id, t.t, comm), "alltoallw");
    t.t[p - 1] = MPI_DATATYPE_NULL;
    expect(vine_alltoallw(in, t.ic, t.id, t.t, out, t.ic, t.id, t.t, comm), MPI_ERR_TYPE,
           "MPI_DATATYPE_NULL");
    t.t[p - 1] = MPI_INT;
    mt_check_rc(vine_alltoallw(in, t.ic, t.id, t.t, out, t.ic, t.id, t.t, comm), "alltoallw");
    expect(vine_alltoallw(in, t.ic, t.id, t.t, MPI_IN_PLACE, t.ic, t.id, t.t, comm), MPI_ERR_BUFFER,
           "MPI_IN_PLACE recvbuf");

    for (int g = 0; g < 2; g++) {
        MPI_Comm self = MPI_COMM_SELF;
        cs.coll = g ? "gatherv" : "scatterv";
        cs.root = 0;
        mt_begin(&cs);
        int c1 = 2, d1 = 1;
        for (int k = 0; k < 2; k++)
            mt_check_rc(g ? vine_gatherv(in, 2, MPI_INT, out, &c1, &d1, MPI_INT, 0, self)
                          : vine_scatterv(in, &c1, &d1, MPI_INT, out, 2, MPI_INT, 0, self),
                        cs.coll);
        c1 = 3;
        expect(g ? vine_gatherv(in, 2, MPI_INT, out, &c1, &d1, MPI_INT, 0, self)
                 : vine_scatterv(in, &c1, &d1, MPI_INT, out, 2, MPI_INT, 0, self),
               MPI_ERR_TRUNCATE, "count changed in place");
        c1 = -2;
        expect(g ? vine_gatherv(in, 2, MPI_INT, out, &c1, &d1, MPI_INT, 0, self)
                 : vine_scatterv(in, &c1, &d1, MPI_INT, out, 2, MPI_INT, 0, self),
               MPI_ERR_COUNT, "negative count");
        c1 = 2;
        mt_check_rc(g ? vine_gatherv(in, 2, MPI_INT, out, &c1, &d1, MPI_INT, 0, self)
                      : vine_scatterv(in, &c1, &d1, MPI_INT, out, 2, MPI_INT, 0, self),
                    cs.coll);
        expect(g ? vine_gatherv(in, 2, MPI_INT, out, &c1, &d1, MPI_INT, 1, self)
                 : vine_scatterv(in, &c1, &d1, MPI_INT, out, 2, MPI_INT, 1, self),
               MPI_ERR_ROOT, "root out of range");
        expect(g ? vine_gatherv(in, 2, MPI_INT, NULL, &c1, &d1, MPI_INT, 0, self)
                 : vine_scatterv(NULL, &c1, &d1, MPI_INT, out, 2, MPI_INT, 0, self),
               MPI_ERR_BUFFER, "NULL root buffer");
        expect(g ? vine_gatherv(in, 2, MPI_INT, out, NULL, &d1, MPI_INT, 0, self)
                 : vine_scatterv(in, NULL, &d1, MPI_INT, out, 2, MPI_INT, 0, self),
               MPI_ERR_ARG, "NULL counts");
    }
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "repeat");
    MPI_Comm w = MPI_COMM_WORLD, half;
    MPI_Comm_split(w, mt_rank % 2, mt_rank, &half);
    int in[N], out[N], want[N];

    allreduce_new_buffers(w, "world");
    /* Another communicator in between, then back. */
    allreduce_new_buffers(half, "half");
    allreduce_new_buffers(w, "world again");

    /* A new algorithm choice between two identical calls must be obeyed. */
    begin("allreduce", "ring then recursive_doubling", -1);
    for (int i = 0; i < N; i++)
        in[i] = mt_rank + i;
    MPI_Allreduce(in, want, N, MPI_INT, MPI_SUM, w);
    const char *algos[] = {"ring", "recursive_doubling", "ring"};
    for (int k = 0; k < 3; k++) {
        mt_select(VINE_COLL_ALLREDUCE, algos[k]);
        memset(out, 0, sizeof out);
        if (mt_check_rc(vine_allreduce(in, out, N, MPI_INT, MPI_SUM, w), "vine_allreduce")) {
            check(out, want, N, algos[k]);
            mt_check_served(VINE_COLL_ALLREDUCE, algos[k], 1, N);
        }
    }

    /* Bad buffers right after a good call are still refused, before any message. */
    begin("allreduce", "bad buffers after a repeat", -1);
    vine_allreduce(in, out, N, MPI_INT, MPI_SUM, w);
    int rc = vine_allreduce(in, NULL, N, MPI_INT, MPI_SUM, w);
    if (rc != MPI_ERR_BUFFER)
        mt_fail("NULL recvbuf after a repeat: %d, not MPI_ERR_BUFFER", rc);
    rc = vine_allreduce(in, MPI_IN_PLACE, N, MPI_INT, MPI_SUM, w);
    if (rc != MPI_ERR_BUFFER)
        mt_fail("MPI_IN_PLACE recvbuf after a repeat: %d, not MPI_ERR_BUFFER", rc);
    rc = vine_allreduce(NULL, out, N, MPI_INT, MPI_SUM, w);
    if (rc != MPI_ERR_BUFFER)
        mt_fail("NULL sendbuf after a repeat: %d, not MPI_ERR_BUFFER", rc);
    /* In place after out of place: the input is in recvbuf now. */
    memcpy(out, in, sizeof out);
    if (mt_check_rc(vine_allreduce(MPI_IN_PLACE, out, N, MPI_INT, MPI_SUM, w), "in place"))
        check(out, want, N, "in place after out of place");

    /* Reduce and bcast repeated, with the root moving between repeats. */
    mt_select(VINE_COLL_ALLREDUCE, NULL);
    for (int k = 0; k < 2 * mt_size; k++) {
        int root = (k / 2) % mt_size;
        begin("reduce", "auto", root);
        for (int i = 0; i < N; i++)
            in[i] = k * 7 + mt_rank * 3 + i;
        MPI_Reduce(in, want, N, MPI_INT, MPI_SUM, root, w);
        memset(out, 0, sizeof out);
        if (mt_check_rc(vine_reduce(in, out, N, MPI_INT, MPI_SUM, root, w), "vine_reduce") &&
            mt_rank == root)
            check(out, want, N, "reduce");
        begin("bcast", "auto", root);
        for (int i = 0; i < N; i++)
            out[i] = want[i] = mt_rank == root ? k * 11 + i : -1;
        MPI_Bcast(want, N, MPI_INT, root, w);
        if (mt_check_rc(vine_bcast(out, N, MPI_INT, root, w), "vine_bcast"))
            check(out, want, N, "bcast");
    }

    /* The two-sided collectives and the reduce-scatters: auto, the MPI
     * library's own (its repeats go straight to PMPI), and a vine schedule. */
    if (mt_size <= MAXP) {
        const char *algos[] = {NULL, "mpi", "vine"};
        for (int a = 0; a < 3; a++)
            for (int inplace = 0; inplace < 2; inplace++) {
                two_sided(w, algos[a], inplace);
                two_sided(half, algos[a], inplace);
            }
        /* A bad buffer right after a repeat is still refused. */
        int g[MAXP * N];
        mt_case cs = {"allgather", "auto", "int", "-", N, -1, 0};
        mt_begin(&cs);
        for (int k = 0; k < 2; k++)
            mt_check_rc(vine_allgather(in, N, MPI_INT, g, N, MPI_INT, w), "vine_allgather");
        rc = vine_allgather(in, N, MPI_INT, NULL, N, MPI_INT, w);
        if (rc != MPI_ERR_BUFFER)
            mt_fail("NULL recvbuf after a repeat: %d, not MPI_ERR_BUFFER", rc);
        rc = vine_allgather(in, N, MPI_INT, g, N + 1, MPI_INT, w);
        if (rc != MPI_ERR_TRUNCATE)
            mt_fail("recvcount changed after a repeat: %d, not MPI_ERR_TRUNCATE", rc);
    }
    /* The irregular collectives: every algorithm, on both communicators. */
    if (mt_size <= MAXP) {
        vseries(w);
        vseries(half);
        vbad(w);
    }
    MPI_Comm_free(&half);
    return mt_finish();
}
