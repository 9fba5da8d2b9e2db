/*
 * MPI tier: vine_scatter, every algorithm against MPI_Scatter.  Every type,
 * the count sweep, the roots 0, p-1 and one in the middle, MPI_IN_PLACE at
 * the root (its block stays in the send buffer and nothing is received).
 * By turns a non-root passes garbage for the send arguments MPI ignores
 * there (NULL, -1, MPI_DATATYPE_NULL), as an in-place root does for the
 * receive arguments.  Derived datatypes (dtype.h): each type on both sides,
 * and the vector type against contiguous ints of the same signature either
 * way; the bytes the type does not cover (holes, guards) must keep their
 * pattern.  The root's send buffer and all guards must stay intact.
 */
#include "dtype.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SEND_SEED = 1, RECV_SEED = 2 };

/* Whether the next case's non-roots pass garbage for the ignored arguments. */
static int junk_turn;

/*
 * Whether MPI_Scatter can serve as the reference for t.  MPICH 4.0.2's binomial
 * scatter fails with "Message truncated" for MPI_DOUBLE_INT at 1000 elements
 * per rank; for it the reference is written here from the known inputs.
 */
static int mpi_trusted(const mt_type *t)
{
    static int is_mpich = -1;
    if (is_mpich < 0) {
        char version[MPI_MAX_LIBRARY_VERSION_STRING];
        int len;
        MPI_Get_library_version(version, &len);
        is_mpich = strstr(version, "MPICH") != NULL;
    }
    return !(is_mpich && t->kind == MT_PAIR);
}

static void run(const char *algo, const mt_type *t, long count, int root, int inplace)
{
    mt_case c = {"scatter", algo, t->name, "-", count, root, inplace};
    mt_begin(&c);
    int me = mt_rank == root, ip = inplace && me, junk = junk_turn++ % 2;
    size_t n = (size_t)count, bytes = n * t->extent, all = bytes * (size_t)mt_size;
    /* Non-roots have a send buffer too, which must not be read or written. */
    unsigned char *send = malloc(all + 1), *keep = malloc(all + 1), *want = malloc(bytes + 1);
    mt_fill(t, NULL, send, n * (size_t)mt_size, me ? root : mt_rank, 0);
    memcpy(keep, send, all);
    if (mpi_trusted(t))
        MPI_Scatter(send, (int)count, t->type, want, (int)count, t->type, root, MPI_COMM_WORLD);
    else
        mt_fill(t, NULL, want, n, root, (size_t)mt_rank * n);
    mt_buf r;
    mt_buf_alloc(&r, ip ? 0 : bytes);
    mt_poison(t, r.data, ip ? 0 : n);
    const void *sbuf = send;
    int scount = (int)count, rcount = (int)count;
    MPI_Datatype stype = t->type, rtype = t->type;
    void *rbuf = r.data;
    if (ip) {
        rbuf = MPI_IN_PLACE;
        rcount = junk ? -1 : rcount;
        rtype = junk ? MPI_DATATYPE_NULL : rtype;
    }
    if (!me && junk) {
        sbuf = NULL;
        scount = -1;
        stype = MPI_DATATYPE_NULL;
    }
    int rc = vine_scatter(sbuf, scount, stype, rbuf, rcount, rtype, root, MPI_COMM_WORLD);
    if (mt_check_rc(rc, "vine_scatter")) {
        if (!ip)
            mt_check_equal(t, r.data, want, n, "result");
        mt_check_served(VINE_COLL_SCATTER, algo, 1, n);
    }
    mt_check_guards(&r);
    mt_check_unchanged(send, keep, all);
    mt_buf_free(&r);
    free(send);
    free(keep);
    free(want);
}

/*
 * A scatter of scount elements of st per rank from the root, received as
 * count elements of rt.  The root's send buffer holds elements 0 .. of its
 * flat field sequence, so rank r receives elements r*count .. of it.
 */
static void run_dt(const char *algo, const dt_type *st, long scount, const dt_type *rt, long count,
                   int root, int inplace)
{
    char name[64];
    snprintf(name, sizeof name, "%s->%s", st->name, rt->name);
    mt_case c = {"scatter", algo, name, "-", count, root, inplace};
    mt_begin(&c);
    int me = mt_rank == root, ip = inplace && me, junk = junk_turn++ % 2;
    size_t n = (size_t)count, sn = (size_t)scount, sall = me ? sn * (size_t)mt_size : 0;
    dt_area send, keep, got, mpi;
    dt_area_init(&send, st, sall, SEND_SEED);
    dt_area_set(&send, 0, sall, root, 0);
    dt_area_clone(&keep, &send);
    dt_area_init(&got, rt, ip ? 0 : n, RECV_SEED);
    dt_area_clone(&mpi, &got);
    MPI_Scatter(keep.buf, (int)scount, st->type, ip ? MPI_IN_PLACE : mpi.buf, (int)count, rt->type,
                root, MPI_COMM_WORLD);
    int rc;
    if (ip)
        rc = vine_scatter(send.buf, (int)scount, st->type, MPI_IN_PLACE, junk ? -1 : (int)count,
                          junk ? MPI_DATATYPE_NULL : rt->type, root, MPI_COMM_WORLD);
    else if (!me && junk)
        rc = vine_scatter(NULL, -1, MPI_DATATYPE_NULL, got.buf, (int)count, rt->type, root,
                          MPI_COMM_WORLD);
    else
        rc = vine_scatter(send.buf, (int)scount, st->type, got.buf, (int)count, rt->type, root,
                          MPI_COMM_WORLD);
    dt_ref ref = {NULL, root, 0, (size_t)mt_rank * n};
    if (mt_check_rc(rc, "vine_scatter")) {
        mt_check_served(VINE_COLL_SCATTER, algo, 1, n);
        dt_check_result(&got, &mpi, ip ? 0 : n, RECV_SEED, &ref);
    }
    dt_check_unchanged(&send, &keep, "send");
    dt_area_free(&send);
    dt_area_free(&keep);
    dt_area_free(&got);
    dt_area_free(&mpi);
}

/* The roots of the sweep: 0, p-1 and one in the middle, without repeats. */
static int roots_of(int *out)
{
    long want[3] = {0, mt_size - 1, mt_size / 2}, u[3];
    int n = mt_unique(want, 3, u);
    for (int i = 0; i < n; i++)
        out[i] = (int)u[i];
    return n;
}

static void sweep_dt(const char *algo, const int *roots, int nroots)
{
    const dt_type *v = dt_type_vector(), *i6 = dt_type_int();
    long want[3] = {0, 1, mt_size + 1}, counts[3];
    int ncounts = mt_unique(want, 3, counts);
    for (int k = 0; k < ncounts; k++) {
        long c = counts[k];
        for (int ti = 0; ti < dt_ntypes(); ti++)
            for (int ip = 0; ip < 2; ip++)
                run_dt(algo, dt_type_at(ti), c, dt_type_at(ti), c, roots[(ti + k) % nroots], ip);
        for (int ri = 0; ri < nroots; ri++) {
            run_dt(algo, i6, 6 * c, v, c, roots[ri], ri % 2);
            run_dt(algo, v, c, i6, 6 * c, roots[ri], (ri + 1) % 2);
        }
    }
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "scatter");
    dt_init(NULL);
    long counts[8];
    int ncounts = mt_counts(counts), roots[3], nroots = roots_of(roots);
    for (int a = 0; a < mt_nalgos(VINE_COLL_SCATTER); a++) {
        const char *algo = mt_algo_at(VINE_COLL_SCATTER, a);
        mt_select(VINE_COLL_SCATTER, algo);
        for (int ti = 0; ti < mt_ntypes(); ti++)
            for (int k = 0; k < ncounts; k++)
                for (int ri = 0; ri < nroots; ri++)
                    for (int inplace = 0; inplace < 2; inplace++)
                        run(algo, mt_type_at(ti), counts[k], roots[ri], inplace);
        sweep_dt(algo, roots, nroots);
    }
    dt_free();
    return mt_finish();
}
