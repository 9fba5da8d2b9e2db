/*
 * MPI tier: every collective and every algorithm with derived datatypes,
 * against the MPI library's own collective on the same input.  The types
 * (dtype.h) have holes, padding, and lower bounds that are positive,
 * negative or differ from the true lower bound; reductions use MPI_SUM where
 * MPI_Reduce_local accepts it with the type, and a commutative and a
 * non-commutative user op.  Receive buffers start as a byte pattern: the
 * data bytes must equal MPI's result, and every byte the type does not cover
 * (holes, padding, 64 guard bytes each side) must keep the pattern; send
 * buffers must not change at all.  Counts 0, 1, 2, p+1 and 37, every root,
 * MPI_IN_PLACE where MPI allows it, and an allgather whose send and receive
 * types differ with the same type signature.  Where MPI_Reduce_local refuses
 * MPI_SUM with a type, every reduction must return MPI_ERR_OP on every rank
 * and touch nothing.  Where the MPI library's own collective is known to be
 * wrong (dt_mpi_trusted), the result is compared with a reference computed
 * here instead.
 *
 * Usage: mpitest_dtype [COLL [TYPE]]; COLL (e.g. reduce, or all) limits the
 * run to one collective, TYPE (e.g. struct_lb4) the types to one.
 */
#include "dtype.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SEND_SEED = 1, RECV_SEED = 2 };

static void begin(const char *coll, const char *algo, const dt_type *t, const dt_op *o, long count,
                  int root, int inplace)
{
    mt_case c = {coll, algo, t->name, o ? o->name : "-", count, root, inplace};
    mt_begin(&c);
}

/* The common end of a case: status, served algorithm, the user ops' calls. */
static int end_call(int rc, const char *call, vine_coll coll, const char *algo, int commutative,
                    size_t total)
{
    dt_check_op_calls();
    if (!mt_check_rc(rc, call))
        return 0;
    mt_check_served(coll, algo, commutative, total);
    return 1;
}

static void run_bcast(const char *algo, const dt_type *t, long count, int root)
{
    begin("bcast", algo, t, NULL, count, root, 0);
    size_t n = (size_t)count;
    dt_area got, mpi;
    dt_area_init(&got, t, n, RECV_SEED);
    if (mt_rank == root)
        dt_area_set(&got, 0, n, root, 0);
    dt_area_clone(&mpi, &got);
    MPI_Bcast(mpi.buf, (int)count, t->type, root, MPI_COMM_WORLD);
    int rc = vine_bcast(got.buf, (int)count, t->type, root, MPI_COMM_WORLD);
    dt_ref ref = {NULL, root, 0, 0};
    if (end_call(rc, "vine_bcast", VINE_COLL_BCAST, algo, 1, n))
        dt_check_result(&got, &mpi, n, RECV_SEED, &ref);
    dt_area_free(&got);
    dt_area_free(&mpi);
}

/* The receive areas of a reduction: got for vine and mpi for MPI, each with
 * rank's input in the first `in` elements when in place. */
static void recv_areas(dt_area *got, dt_area *mpi, const dt_type *t, size_t n, size_t in)
{
    dt_area_init(got, t, n, RECV_SEED);
    dt_area_set(got, 0, in, mt_rank, 0);
    dt_area_clone(mpi, got);
}

static void run_reduce(const char *algo, const dt_type *t, const dt_op *o, long count, int root,
                       int inplace)
{
    begin("reduce", algo, t, o, count, root, inplace);
    int me = mt_rank == root, ip = inplace && me;
    size_t n = (size_t)count;
    dt_area send, keep, got, mpi;
    dt_area_init(&send, t, n, SEND_SEED);
    dt_area_set(&send, 0, n, mt_rank, 0);
    dt_area_clone(&keep, &send);
    recv_areas(&got, &mpi, t, me ? n : 0, ip ? n : 0);
    const void *sv = ip ? MPI_IN_PLACE : (const void *)send.buf;
    MPI_Reduce(ip ? MPI_IN_PLACE : keep.buf, mpi.buf, (int)count, t->type, o->op, root,
               MPI_COMM_WORLD);
    int rc = vine_reduce(sv, got.buf, (int)count, t->type, o->op, root, MPI_COMM_WORLD);
    dt_ref ref = {o, root, 0, 0};
    if (end_call(rc, "vine_reduce", VINE_COLL_REDUCE, algo, o->commutative, n))
        dt_check_result(&got, &mpi, me ? n : 0, RECV_SEED, &ref);
    dt_check_unchanged(&send, &keep, "send");
    dt_area_free(&send);
    dt_area_free(&keep);
    dt_area_free(&got);
    dt_area_free(&mpi);
}

static void run_allreduce(const char *algo, const dt_type *t, const dt_op *o, long count,
                          int inplace)
{
    begin("allreduce", algo, t, o, count, -1, inplace);
    size_t n = (size_t)count;
    dt_area send, keep, got, mpi;
    dt_area_init(&send, t, n, SEND_SEED);
    dt_area_set(&send, 0, n, mt_rank, 0);
    dt_area_clone(&keep, &send);
    recv_areas(&got, &mpi, t, n, inplace ? n : 0);
    MPI_Allreduce(inplace ? MPI_IN_PLACE : keep.buf, mpi.buf, (int)count, t->type, o->op,
                  MPI_COMM_WORLD);
    int rc = vine_allreduce(inplace ? MPI_IN_PLACE : (const void *)send.buf, got.buf, (int)count,
                            t->type, o->op, MPI_COMM_WORLD);
    dt_ref ref = {o, 0, 0, 0};
    if (end_call(rc, "vine_allreduce", VINE_COLL_ALLREDUCE, algo, o->commutative, n))
        dt_check_result(&got, &mpi, n, RECV_SEED, &ref);
    dt_check_unchanged(&send, &keep, "send");
    dt_area_free(&send);
    dt_area_free(&keep);
    dt_area_free(&got);
    dt_area_free(&mpi);
}

/* Rank r's recvcount in an irregular reduce-scatter: blocks of 0 between larger ones. */
static int irregular(long c, int r)
{
    return r % 2 ? 0 : (int)c + r;
}

/* Both reduce-scatters; shape < 0 is reduce_scatter_block, else 0 (equal) or 1 (irregular). */
static void run_rs(const char *algo, const dt_type *t, const dt_op *o, long c, int shape,
                   int inplace)
{
    int block = shape < 0, *counts = malloc(sizeof(int) * (size_t)mt_size);
    size_t total = 0, first = 0;
    for (int r = 0; r < mt_size; r++) {
        counts[r] = shape == 1 ? irregular(c, r) : (int)c;
        first += r < mt_rank ? (size_t)counts[r] : 0;
        total += (size_t)counts[r];
    }
    char name[64];
    snprintf(name, sizeof name, "%s%s", block ? "reduce_scatter_block" : "reduce_scatter",
             shape == 1 ? "/irregular" : "");
    begin(name, algo, t, o, c, -1, inplace);
    size_t n = (size_t)counts[mt_rank];
    dt_area send, keep, got, mpi;
    dt_area_init(&send, t, total, SEND_SEED);
    dt_area_set(&send, 0, total, mt_rank, 0);
    dt_area_clone(&keep, &send);
    recv_areas(&got, &mpi, t, inplace ? total : n, inplace ? total : 0);
    const void *sv = inplace ? MPI_IN_PLACE : (const void *)send.buf;
    const void *mv = inplace ? MPI_IN_PLACE : (const void *)keep.buf;
    dt_ref ref = {o, 0, 0, first};
    int rc;
    if (!dt_mpi_trusted(1, t, o))
        dt_area_set_ref(&mpi, n, &ref);
    else if (block)
        MPI_Reduce_scatter_block(mv, mpi.buf, (int)c, t->type, o->op, MPI_COMM_WORLD);
    else
        MPI_Reduce_scatter(mv, mpi.buf, counts, t->type, o->op, MPI_COMM_WORLD);
    if (block)
        rc = vine_reduce_scatter_block(sv, got.buf, (int)c, t->type, o->op, MPI_COMM_WORLD);
    else
        rc = vine_reduce_scatter(sv, got.buf, counts, t->type, o->op, MPI_COMM_WORLD);
    vine_coll coll = block ? VINE_COLL_REDUCE_SCATTER_BLOCK : VINE_COLL_REDUCE_SCATTER;
    if (end_call(rc, block ? "vine_reduce_scatter_block" : "vine_reduce_scatter", coll, algo,
                 o->commutative, total))
        dt_check_result(&got, &mpi, n, RECV_SEED, &ref);
    dt_check_unchanged(&send, &keep, "send");
    dt_area_free(&send);
    dt_area_free(&keep);
    dt_area_free(&got);
    dt_area_free(&mpi);
    free(counts);
}

/*
 * An allgather of count elements of rt per rank, sent as scount elements of
 * st (st NULL: in place).  Rank r's input is elements r*count .. of the
 * flat field sequence, so element i of the result comes from rank i / count.
 */
static void run_allgather(const char *algo, const dt_type *st, long scount, const dt_type *rt,
                          long count)
{
    char name[64];
    snprintf(name, sizeof name, "%s%s%s", st ? st->name : "", st ? "->" : "", rt->name);
    dt_type label = *rt;
    label.name = name;
    begin("allgather", algo, &label, NULL, count, -1, st == NULL);
    size_t n = (size_t)count, all = n * (size_t)mt_size;
    size_t sn = (size_t)scount, first = (size_t)mt_rank * (st ? sn : n);
    dt_area send, keep, got, mpi;
    dt_area_init(&send, st ? st : rt, st ? sn : 0, SEND_SEED);
    dt_area_set(&send, 0, send.n, mt_rank, first);
    dt_area_clone(&keep, &send);
    dt_area_init(&got, rt, all, RECV_SEED);
    if (!st)
        dt_area_set(&got, (size_t)mt_rank * n, n, mt_rank, first);
    dt_area_clone(&mpi, &got);
    MPI_Datatype sdt = st ? st->type : MPI_DATATYPE_NULL;
    MPI_Allgather(st ? (const void *)keep.buf : MPI_IN_PLACE, (int)scount, sdt, mpi.buf, (int)count,
                  rt->type, MPI_COMM_WORLD);
    int rc = vine_allgather(st ? (const void *)send.buf : MPI_IN_PLACE, (int)scount, sdt, got.buf,
                            (int)count, rt->type, MPI_COMM_WORLD);
    dt_ref ref = {NULL, 0, n, 0};
    if (end_call(rc, "vine_allgather", VINE_COLL_ALLGATHER, algo, 1, n))
        dt_check_result(&got, &mpi, all, RECV_SEED, &ref);
    dt_check_unchanged(&send, &keep, "send");
    dt_area_free(&send);
    dt_area_free(&keep);
    dt_area_free(&got);
    dt_area_free(&mpi);
}

/*
 * A predefined op that MPI_Reduce_local refuses with t (MPI_SUM with a
 * derived type under Open MPI 4 and MPICH 4.0): every rank must get
 * MPI_ERR_OP, before any message (a rank that went on would wait forever),
 * and no buffer may change.
 */
static void run_refused(vine_coll coll, const char *algo, const dt_type *t)
{
    begin(vine_coll_name(coll), algo, t, dt_op_at(DT_SUM), 2, 0, 0);
    size_t n = 2 * (size_t)mt_size;
    dt_area send, keep, got;
    dt_area_init(&send, t, n, SEND_SEED);
    dt_area_set(&send, 0, n, mt_rank, 0);
    dt_area_clone(&keep, &send);
    dt_area_init(&got, t, n, SEND_SEED);
    dt_area_set(&got, 0, n, mt_rank, 0);
    int rc, *rcounts = malloc(sizeof(int) * (size_t)mt_size);
    for (int r = 0; r < mt_size; r++)
        rcounts[r] = 2;
    void *s = send.buf, *r = got.buf;
    if (coll == VINE_COLL_REDUCE)
        rc = vine_reduce(s, r, 2, t->type, MPI_SUM, 0, MPI_COMM_WORLD);
    else if (coll == VINE_COLL_ALLREDUCE)
        rc = vine_allreduce(s, r, 2, t->type, MPI_SUM, MPI_COMM_WORLD);
    else if (coll == VINE_COLL_REDUCE_SCATTER_BLOCK)
        rc = vine_reduce_scatter_block(s, r, 2, t->type, MPI_SUM, MPI_COMM_WORLD);
    else
        rc = vine_reduce_scatter(s, r, rcounts, t->type, MPI_SUM, MPI_COMM_WORLD);
    if (rc != MPI_ERR_OP)
        mt_fail("returned %d (%s), expected MPI_ERR_OP", rc, vine_error_string(rc));
    dt_check_unchanged(&send, &keep, "send");
    dt_check_unchanged(&got, &keep, "receive");
    dt_area_free(&send);
    dt_area_free(&keep);
    dt_area_free(&got);
    free(rcounts);
}

static int counts_of(long *out)
{
    long want[] = {0, 1, 2, mt_size + 1, 37};
    return mt_unique(want, (int)(sizeof want / sizeof want[0]), out);
}

/*
 * The strictest op algorithm a of coll serves: the non-commutative one,
 * unless the algorithm is restricted to commutative ops (a = 0 is auto).
 */
static const dt_op *strict_op(vine_coll coll, int a)
{
    const char *restr = a ? vine_algorithm_restrictions(coll, a - 1) : "-";
    return dt_op_at(strstr(restr, "commutative") ? DT_COMM : DT_NONCOMM);
}

/* The other ops a reduction runs with t: MPI_SUM where MPI accepts it, and
 * whichever user op is not the strict one (for a commutative-only algorithm,
 * the non-commutative op checks that it falls back). */
static int other_ops(const dt_type *t, const dt_op *strict, const dt_op **out)
{
    int n = 0;
    if (t->sum_ok)
        out[n++] = dt_op_at(DT_SUM);
    out[n++] = dt_op_at(strict->kind == DT_COMM ? DT_NONCOMM : DT_COMM);
    return n;
}

static void sweep_bcast(const char *algo, const long *counts, int ncounts)
{
    for (int ti = 0; ti < dt_ntypes(); ti++)
        for (int k = 0; k < ncounts; k++)
            for (int root = 0; root < mt_size; root++)
                run_bcast(algo, dt_type_at(ti), counts[k], root);
}

static void sweep_allgather(const char *algo, const long *counts, int ncounts)
{
    const dt_type *v = dt_type_vector(), *i6 = dt_type_int();
    for (int k = 0; k < ncounts; k++) {
        long c = counts[k];
        for (int ti = 0; ti < dt_ntypes(); ti++) {
            run_allgather(algo, dt_type_at(ti), c, dt_type_at(ti), c);
            run_allgather(algo, NULL, 0, dt_type_at(ti), c);
        }
        run_allgather(algo, i6, 6 * c, v, c);
        run_allgather(algo, v, c, i6, 6 * c);
    }
}

/*
 * Reduce: with the strict op, every root at counts 1, p+1 and 37, in place or
 * not by turns (each root gets both forms across the counts); the other
 * counts and ops at one root that moves with the type and count.
 */
static void sweep_reduce(const char *algo, const dt_op *strict, const long *counts, int ncounts)
{
    for (int ti = 0; ti < dt_ntypes(); ti++) {
        const dt_type *t = dt_type_at(ti);
        const dt_op *others[DT_NOPS];
        int nothers = other_ops(t, strict, others);
        for (int k = 0; k < ncounts; k++) {
            long c = counts[k];
            int every = c == 1 || c == mt_size + 1 || c == 37, root = (ti * 5 + k) % mt_size;
            for (int r = 0; every && r < mt_size; r++)
                run_reduce(algo, t, strict, c, r, (r + k) % 2);
            for (int ip = 0; !every && ip < 2; ip++)
                run_reduce(algo, t, strict, c, root, ip);
            for (int oi = 0; oi < nothers; oi++)
                for (int ip = 0; ip < 2; ip++)
                    run_reduce(algo, t, others[oi], c, root, ip);
        }
    }
}

/* Allreduce and both reduce-scatters: every count and in-place form with the
 * strict op (and both shapes of reduce_scatter), the other ops with the
 * regular shape, in place or not by turns. */
static void sweep_allreduce_rs(vine_coll coll, const char *algo, const dt_op *strict,
                               const long *counts, int ncounts)
{
    int nshapes = coll == VINE_COLL_REDUCE_SCATTER ? 2 : 1;
    for (int ti = 0; ti < dt_ntypes(); ti++) {
        const dt_type *t = dt_type_at(ti);
        const dt_op *ops[DT_NOPS + 1] = {strict};
        int nops = 1 + other_ops(t, strict, ops + 1);
        for (int k = 0; k < ncounts; k++)
            for (int oi = 0; oi < nops; oi++)
                for (int ip = 0; ip < 2; ip++) {
                    if (oi > 0 && ip != (k + ti) % 2)
                        continue;
                    if (coll == VINE_COLL_ALLREDUCE)
                        run_allreduce(algo, t, ops[oi], counts[k], ip);
                    if (coll == VINE_COLL_REDUCE_SCATTER_BLOCK)
                        run_rs(algo, t, ops[oi], counts[k], -1, ip);
                    for (int sh = 0; coll == VINE_COLL_REDUCE_SCATTER && sh < nshapes; sh++)
                        if (oi == 0 || sh == 0)
                            run_rs(algo, t, ops[oi], counts[k], sh, ip);
                }
    }
}

/* Algorithm a of coll (0: auto) with every type, op, count, root and form. */
static void sweep(vine_coll coll, int a)
{
    long counts[5];
    int ncounts = counts_of(counts);
    const char *algo = mt_algo_at(coll, a);
    const dt_op *strict = strict_op(coll, a);
    if (coll == VINE_COLL_BCAST)
        sweep_bcast(algo, counts, ncounts);
    else if (coll == VINE_COLL_ALLGATHER)
        sweep_allgather(algo, counts, ncounts);
    else if (coll == VINE_COLL_REDUCE)
        sweep_reduce(algo, strict, counts, ncounts);
    else
        sweep_allreduce_rs(coll, algo, strict, counts, ncounts);
    for (int ti = 0; coll != VINE_COLL_BCAST && coll != VINE_COLL_ALLGATHER && ti < dt_ntypes();
         ti++)
        if (dt_type_at(ti)->int_only && !dt_type_at(ti)->sum_ok)
            run_refused(coll, algo, dt_type_at(ti));
}

static const vine_coll colls[] = {VINE_COLL_BCAST,
                                  VINE_COLL_REDUCE,
                                  VINE_COLL_ALLREDUCE,
                                  VINE_COLL_ALLGATHER,
                                  VINE_COLL_REDUCE_SCATTER_BLOCK,
                                  VINE_COLL_REDUCE_SCATTER};

int main(int argc, char **argv)
{
    const char *only = argc > 1 && strcmp(argv[1], "all") != 0 ? argv[1] : NULL;
    const char *type = argc > 2 ? argv[2] : NULL;
    char label[64];
    snprintf(label, sizeof label, "dtype %s", only ? only : "all");
    mt_init(&argc, &argv, label);
    dt_init(type);
    int matched = 0;
    for (size_t k = 0; k < sizeof colls / sizeof colls[0]; k++) {
        if (only && strcmp(only, vine_coll_name(colls[k])) != 0)
            continue;
        matched = 1;
        for (int a = 0; a < mt_nalgos(colls[k]); a++) {
            mt_select(colls[k], mt_algo_at(colls[k], a));
            sweep(colls[k], a);
        }
        mt_select(colls[k], "auto");
    }
    if (!matched && mt_rank == 0)
        fprintf(stderr, "mpitest_dtype: unknown collective %s\n", only);
    if (dt_ntypes() == 0 && mt_rank == 0)
        fprintf(stderr, "mpitest_dtype: unknown type %s\n", type);
    if (mt_rank == 0 && !dt_type_vector()->sum_ok)
        printf("dtype: note: this MPI's MPI_Reduce_local refuses MPI_SUM with derived types; "
               "MPI_SUM cases skipped\n");
    dt_free();
    int rc = mt_finish();
    return matched && dt_ntypes() > 0 ? rc : 1;
}
