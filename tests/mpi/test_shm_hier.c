/*
 * MPI tier: the hierarchical shm algorithms (docs/hierarchical.md,
 * docs/shm.md) on pretend nodes (VINE_TOPOLOGY_FAKE_HOSTS), under stress.
 * bcast and reduce are forced to hier_shm, gather and scatter to
 * leader_shm, allreduce to hier_shm, and allgather and barrier to the flat
 * shm algorithms (all pretend nodes share the real node's segment), so that
 * calls whose shm phases run per pretend node and calls across the whole
 * segment follow one another on the same flags.  Calls are drawn at random
 * (the same draw on every rank): collective, type (the harness's types,
 * MPI_DOUBLE_INT kept out of gather and scatter, whose MPICH reference
 * fails on it), op (the predefined ones and the non-commutative matrix
 * product, which hier_shm must decline), count (up to well past a small
 * region), root and in-place, on two communicators used alternately (the
 * world's ranks in order and reversed), one of them freed and made again
 * now and then.  Every result is compared with the MPI library's own
 * collective (the matrix product with the product of the known inputs, as
 * the per-collective harnesses do), guards and send buffers are checked,
 * and the forced algorithm must serve exactly the calls its restrictions
 * admit.
 *
 * Environment: VINE_TEST_SHM_HIER_CALLS (default 400) calls.
 */
#include "mpitest.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct forced {
    vine_coll coll;
    const char *algo;
} forced;

static const forced calls_of[] = {
    {VINE_COLL_BCAST, "hier_shm"},     {VINE_COLL_REDUCE, "hier_shm"},
    {VINE_COLL_GATHER, "leader_shm"},  {VINE_COLL_SCATTER, "leader_shm"},
    {VINE_COLL_ALLREDUCE, "hier_shm"}, {VINE_COLL_ALLGATHER, "shm"},
    {VINE_COLL_BARRIER, "shm"}};
enum { NCALLS = sizeof calls_of / sizeof calls_of[0] };

/* The shared random stream: the same numbers on every rank. */
static uint64_t rng = 0x243f6a8885a308d3u;
static unsigned draw(unsigned n)
{
    rng = rng * 6364136223846793005u + 1442695040888963407u;
    return (unsigned)((rng >> 33) % n);
}

/* One call's shape. */
typedef struct shape {
    const forced *f;
    const mt_type *t;
    const mt_op *o; /* reductions; NULL otherwise */
    size_t n;       /* elements per block */
    int root, inplace;
} shape;

static void draw_shape(shape *c, int p)
{
    c->f = &calls_of[draw(NCALLS)];
    vine_coll coll = c->f->coll;
    int mover = coll == VINE_COLL_GATHER || coll == VINE_COLL_SCATTER;
    do
        c->t = mt_type_at((int)draw((unsigned)mt_ntypes()));
    while (mover && strcmp(c->t->name, "double_int") == 0);
    c->o = NULL;
    if (coll == VINE_COLL_REDUCE || coll == VINE_COLL_ALLREDUCE)
        c->o = mt_op_at(c->t, (int)draw((unsigned)mt_nops(c->t)));
    /* Mostly small, now and then up to 2500 elements a block. */
    c->n = draw(4) ? draw(40) : draw(2501);
    c->root = (int)draw((unsigned)p);
    c->inplace = draw(3) == 0;
}

/* Buffers of one call: room for p blocks, and the reference's result. */
typedef struct bufs {
    unsigned char *in, *keep, *want;
    mt_buf out;
} bufs;

/* The MPI library's result into want; returns its length in elements on this rank. */
static size_t reference(const shape *c, MPI_Comm w, int me, int p, bufs *b, int *rc)
{
    int n = (int)c->n, root = c->root;
    MPI_Datatype t = c->t->type;
    *rc = MPI_SUCCESS;
    switch (c->f->coll) {
    case VINE_COLL_BCAST:
        if (me == root)
            memcpy(b->want, b->in, c->n * c->t->extent);
        *rc = MPI_Bcast(b->want, n, t, root, w);
        return c->n;
    case VINE_COLL_REDUCE:
    case VINE_COLL_ALLREDUCE:
        /* The matrix product, as the per-collective harnesses do, from the known inputs. */
        if (!c->o->commutative)
            mt_matmul_ref(b->want, c->n, p, 0);
        else if (c->f->coll == VINE_COLL_REDUCE)
            *rc = MPI_Reduce(b->in, b->want, n, t, c->o->op, root, w);
        else
            *rc = MPI_Allreduce(b->in, b->want, n, t, c->o->op, w);
        return c->f->coll == VINE_COLL_ALLREDUCE || me == root ? c->n : 0;
    case VINE_COLL_GATHER:
        *rc = MPI_Gather(b->in, n, t, b->want, n, t, root, w);
        return me == root ? c->n * (size_t)p : 0;
    case VINE_COLL_SCATTER:
        *rc = MPI_Scatter(b->in, n, t, b->want, n, t, root, w);
        return c->n;
    case VINE_COLL_ALLGATHER:
        *rc = MPI_Allgather(b->in, n, t, b->want, n, t, w);
        return c->n * (size_t)p;
    default:
        *rc = MPI_Barrier(w);
        return 0;
    }
}

/* The same call through vine, in place where c says so and MPI allows. */
static void through_vine(const shape *c, MPI_Comm w, int me, bufs *b, int *rc)
{
    int n = (int)c->n, root = c->root, ip = c->inplace;
    size_t bytes = c->n * c->t->extent;
    MPI_Datatype t = c->t->type;
    unsigned char *out = b->out.data;
    switch (c->f->coll) {
    case VINE_COLL_BCAST:
        if (me == root)
            memcpy(out, b->in, bytes);
        *rc = vine_bcast(out, n, t, root, w);
        break;
    case VINE_COLL_REDUCE:
        if (ip && me == root)
            memcpy(out, b->in, bytes);
        *rc = vine_reduce(ip && me == root ? MPI_IN_PLACE : b->in, out, n, t, c->o->op, root, w);
        break;
    case VINE_COLL_ALLREDUCE:
        if (ip)
            memcpy(out, b->in, bytes);
        *rc = vine_allreduce(ip ? MPI_IN_PLACE : b->in, out, n, t, c->o->op, w);
        break;
    case VINE_COLL_GATHER:
        if (ip && me == root)
            memcpy(out + (size_t)root * bytes, b->in, bytes);
        *rc = vine_gather(ip && me == root ? MPI_IN_PLACE : b->in, n, t, out, n, t, root, w);
        break;
    case VINE_COLL_SCATTER:
        /* In place the root's block stays in the send buffer: nothing to compare there. */
        *rc = vine_scatter(b->in, n, t, ip && me == root ? MPI_IN_PLACE : out, n, t, root, w);
        break;
    case VINE_COLL_ALLGATHER:
        if (ip)
            memcpy(out + (size_t)me * bytes, b->in, bytes);
        *rc = vine_allgather(ip ? MPI_IN_PLACE : b->in, n, t, out, n, t, w);
        break;
    default:
        *rc = vine_barrier(w);
        break;
    }
}

static bufs B;
static size_t cap; /* bytes of each buffer */

/* One random call on w, checked against MPI. */
static void one(MPI_Comm w, const char *where)
{
    int p, me, rc;
    MPI_Comm_size(w, &p);
    MPI_Comm_rank(w, &me);
    shape c;
    draw_shape(&c, p);
    vine_coll coll = c.f->coll;
    int rooted = coll == VINE_COLL_BCAST || coll == VINE_COLL_REDUCE || coll == VINE_COLL_GATHER ||
                 coll == VINE_COLL_SCATTER;
    mt_case mc = {vine_coll_name(coll), c.f->algo, c.t->name, c.o ? c.o->name : "-", (long)c.n,
                  rooted ? c.root : -1, c.inplace};
    mt_begin(&mc);
    size_t in_n = coll == VINE_COLL_SCATTER ? c.n * (size_t)p : c.n;
    /* Gathered blocks differ by rank and position; reduced elements by position. */
    int spread = coll == VINE_COLL_GATHER || coll == VINE_COLL_ALLGATHER;
    mt_fill(c.t, c.o, B.in, in_n, me, spread ? (size_t)me * c.n : 0);
    memcpy(B.keep, B.in, in_n * c.t->extent);
    size_t m = reference(&c, w, me, p, &B, &rc);
    if (!mt_check_rc(rc, "the MPI library's collective"))
        return;
    mt_poison(c.t, B.out.data, cap / c.t->extent);
    through_vine(&c, w, me, &B, &rc);
    if (!mt_check_rc(rc, where))
        return;
    if (coll == VINE_COLL_SCATTER && c.inplace && me == c.root)
        m = 0;
    mt_check_equal(c.t, B.out.data, B.want, m, where);
    mt_check_guards(&B.out);
    mt_check_unchanged(B.in, B.keep, in_n * c.t->extent);
    size_t total = p == 1 ? 0 : coll == VINE_COLL_BARRIER ? 1 : c.n;
    mt_check_served(coll, c.f->algo, c.o ? c.o->commutative : 1, total);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "shm_hier");
    const char *nc = getenv("VINE_TEST_SHM_HIER_CALLS");
    int calls = nc ? atoi(nc) : 400;
    mt_case setup = {"all", "hier shm", "-", "-", 0, -1, 0};
    mt_begin(&setup);
    for (int i = 0; i < NCALLS; i++)
        mt_select(calls_of[i].coll, calls_of[i].algo);
    size_t ext = 0;
    for (int i = 0; i < mt_ntypes(); i++)
        ext = mt_type_at(i)->extent > ext ? mt_type_at(i)->extent : ext;
    cap = 2500 * (size_t)mt_size * ext + 64;
    B.in = malloc(cap);
    B.keep = malloc(cap);
    B.want = malloc(cap);
    mt_buf_alloc(&B.out, cap);
    if (!B.in || !B.keep || !B.want)
        mt_fail("out of memory");

    MPI_Comm a, b;
    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    /* The same ranks in reverse order: other nodes' numbering, other roots. */
    MPI_Comm_split(MPI_COMM_WORLD, 0, mt_size - mt_rank, &b);
    for (int k = 0; B.in && B.keep && B.want && k < calls; k++) {
        one(k % 2 ? b : a, k % 2 ? "reversed communicator" : "duplicate of world");
        if (k % 150 == 149) {
            MPI_Comm_free(&b);
            MPI_Comm_split(MPI_COMM_WORLD, 0, mt_size - mt_rank, &b);
        }
    }
    MPI_Comm_free(&a);
    MPI_Comm_free(&b);
    mt_buf_free(&B.out);
    free(B.in);
    free(B.keep);
    free(B.want);
    return mt_finish();
}
