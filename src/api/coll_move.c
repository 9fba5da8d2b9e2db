/*
 * The data-movement collectives of include/vine.h (bcast, allgather,
 * alltoall, gather, scatter), barrier, and their MPI_Count variants.  Their
 * schedules run on bytes (pack.c): each call works out its block in bytes,
 * uses predefined types in place and packs any other type once.
 */
#include "api.h"
#include "vine.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Element k of buf for a type of extent ext. */
static void *elem_at(const void *buf, size_t k, MPI_Aint ext)
{
    return (void *)((uintptr_t)buf + (uintptr_t)((MPI_Aint)k * ext));
}

/* a * b in size_t, or MPI_ERR_COUNT when it does not fit. */
static int mul(size_t a, size_t b, size_t *out)
{
    if (a && b > SIZE_MAX / a)
        return MPI_ERR_COUNT;
    *out = a * b;
    return MPI_SUCCESS;
}

/* One side's type checks: count, datatype, NULL buffer; *bytes = count * size. */
static int check_side(const void *buf, MPI_Count count, MPI_Datatype dt, vine_exec_type *t,
                      size_t *bytes)
{
    int rc = vine__call_check_type(count, dt, t);
    if (rc == MPI_SUCCESS)
        rc = vine__call_check_buf(buf, (size_t)count, t);
    if (rc == MPI_SUCCESS)
        rc = vine__call_bytes((size_t)count, t->size, bytes);
    return rc;
}

/*
 * Where the schedule reads an input of s: the user's memory when raw, else
 * scratch `which` holding the packed bytes.
 */
static int input_bytes(vine_call *c, const vine_side *s, int which, char **out)
{
    if (s->raw) {
        *out = s->buf;
        return MPI_SUCCESS;
    }
    int rc = vine__call_scratch(c, which, s->bytes, out);
    return rc ? rc : vine__call_pack(c, s, *out);
}

/* Where the schedule writes the output of s: the user's memory or scratch. */
static int output_bytes(vine_call *c, const vine_side *s, char **out)
{
    if (s->raw) {
        *out = s->buf;
        return MPI_SUCCESS;
    }
    return vine__call_scratch(c, VINE_PACK_OUT, s->bytes, out);
}

/*
 * Plans c on bytes (block = bytes of one rank's block): after it,
 * vine__call_to_mpi(c) says whether the MPI library's collective serves the
 * call, which then takes the user's own arguments and needs no packing.
 */
static int plan_bytes(vine_call *c, size_t block)
{
    c->t = *vine__byte_type();
    c->a.count = block;
    return vine__call_plan(c);
}

/* Runs the planned schedule of c, then unpacks out if needed (a request: when it completes). */
static int run_bytes(vine_call *c, const vine_side *out, const char *out_mem)
{
    if (c->nb && out && !out->raw) {
        int rc = vine__nb_unpack(c->nb, out, out_mem);
        return rc ? rc : vine__call_exec(c);
    }
    int rc = vine__call_exec(c);
    if (rc == MPI_SUCCESS && out && !out->raw)
        rc = vine__side_unpack(out, out_mem, c->st->comm);
    return rc;
}

/* The arguments of a data-movement call (or barrier) as a request keeps them. */
static vine_nb_args move_args(vine_coll coll, const void *sendbuf, MPI_Count sendcount,
                              MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                              MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return (vine_nb_args){.coll = coll,
                          .sendbuf = sendbuf,
                          .scount = sendcount,
                          .stype = sendtype,
                          .recvbuf = recvbuf,
                          .rcount = recvcount,
                          .rtype = recvtype,
                          .op = MPI_OP_NULL,
                          .root = root,
                          .comm = comm};
}

/*
 * Blocking call c, which the MPI library's collective serves, on the user's
 * arguments (vine__mpi_move).  *keep: whether the call memo may repeat it
 * with int counts (none had to be wrapped).
 */
static int move_mpi(vine_call *c, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                    void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root, int *keep)
{
    vine_nb_args a = move_args(c->a.coll, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                               recvtype, root, c->comm);
    int wrapped = 1, rc = vine__mpi_move(&a, c->a.rank, NULL, &wrapped);
    *keep = !wrapped;
    return vine__call_mpi_done(c, rc);
}

static int bcast_impl(void *buffer, MPI_Count count, MPI_Datatype dt, int root, MPI_Comm comm,
                      struct vine_nbreq *nb)
{
    vine_comm_state *st = vine__last_state;
    if (!nb && st && st->user == comm &&
        vine__call_memo_hit(st, VINE_COLL_BCAST, dt, MPI_OP_NULL, count, root, 0) && buffer &&
        buffer != MPI_IN_PLACE)
        return vine__call_memo_run(st, NULL, buffer);
    vine_call c;
    vine_exec_type t;
    size_t bytes;
    int rc = vine__call_start(&c, VINE_COLL_BCAST, comm);
    c.nb = nb;
    if (rc || (rc = check_side(buffer, count, dt, &t, &bytes)))
        return rc;
    if (root < 0 || root >= c.a.p)
        return MPI_ERR_ROOT;
    if (buffer == MPI_IN_PLACE)
        return MPI_ERR_BUFFER;
    if ((rc = vine__call_check_request(&c)))
        return rc;
    if (bytes == 0)
        return vine__call_none(&c);
    c.a.root = root;
    if ((rc = vine__call_attach(&c)) || (rc = plan_bytes(&c, bytes)))
        return rc;
    if (vine__call_to_mpi(&c) && nb)
        return vine__nb_mpi(&c);
    if (vine__call_to_mpi(&c)) {
        int keep;
        if ((rc = move_mpi(&c, NULL, 0, MPI_DATATYPE_NULL, buffer, count, dt, root, &keep)))
            return rc;
        if (keep)
            vine__call_memo_keep(&c, &t, (size_t)count, root, 0);
        return MPI_SUCCESS;
    }
    vine_side s;
    char *mem;
    vine__side_init(&s, buffer, (size_t)count, &t);
    int at_root = c.a.rank == root;
    if ((rc = at_root ? input_bytes(&c, &s, VINE_PACK_OUT, &mem) : output_bytes(&c, &s, &mem)))
        return rc;
    c.recvbuf = mem;
    if ((rc = run_bytes(&c, at_root ? NULL : &s, mem)))
        return rc;
    /* Only a datatype used in place can be repeated on new buffers as is. */
    if (s.raw)
        vine__call_memo_keep(&c, &t, (size_t)count, root, 0);
    return MPI_SUCCESS;
}

static int allgather_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                          void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                          struct vine_nbreq *nb)
{
    int inplace = sendbuf == MPI_IN_PLACE;
    vine_comm_state *ms = vine__last_state;
    if (!nb && ms && ms->user == comm &&
        vine__call_memo_hit2(ms, VINE_COLL_ALLGATHER, sendtype, sendcount, recvtype, recvcount, 0,
                             inplace) &&
        (inplace || sendbuf) && recvbuf && recvbuf != MPI_IN_PLACE) {
        if (vine__call_memo_mpi(ms))
            return vine__call_memo_done(ms, PMPI_Allgather(sendbuf, (int)sendcount, sendtype,
                                                           recvbuf, (int)recvcount, recvtype, comm));
        return vine__call_memo_run(ms, inplace ? NULL : sendbuf, recvbuf);
    }
    vine_call c;
    vine_exec_type st, rt;
    size_t block, sbytes, all;
    int rc = vine__call_start(&c, VINE_COLL_ALLGATHER, comm);
    c.nb = nb;
    if (rc || (rc = check_side(recvbuf, recvcount, recvtype, &rt, &block)))
        return rc;
    if (recvbuf == MPI_IN_PLACE)
        return MPI_ERR_BUFFER;
    if (!inplace && (rc = check_side(sendbuf, sendcount, sendtype, &st, &sbytes)))
        return rc;
    if (!inplace && sbytes != block)
        return MPI_ERR_TRUNCATE;
    if ((rc = mul(block, (size_t)c.a.p, &all)) || (rc = vine__call_check_request(&c)))
        return rc;
    if (block == 0)
        return vine__call_none(&c);
    c.a.inplace = inplace;
    if ((rc = vine__call_attach(&c)) || (rc = plan_bytes(&c, block)))
        return rc;
    if (vine__call_to_mpi(&c) && nb)
        return vine__nb_mpi(&c);
    if (vine__call_to_mpi(&c)) {
        int keep;
        if ((rc = move_mpi(&c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, 0,
                           &keep)))
            return rc;
        if (keep)
            vine__call_memo_keep2(&c, inplace ? NULL : &st, (size_t)sendcount, &rt,
                                  (size_t)recvcount, 0, inplace);
        return MPI_SUCCESS;
    }
    vine_side rs, ss;
    char *rmem, *smem;
    vine__side_init(&rs, recvbuf, (size_t)recvcount * (size_t)c.a.p, &rt);
    if ((rc = output_bytes(&c, &rs, &rmem)))
        return rc;
    if (inplace && !rs.raw) {
        /* The own block goes into its place in the packed receive bytes. */
        vine__side_init(&ss, elem_at(recvbuf, (size_t)c.a.rank * (size_t)recvcount, rt.extent),
                        (size_t)recvcount, &rt);
        if ((rc = vine__call_pack(&c, &ss, rmem + (size_t)c.a.rank * block)))
            return rc;
    } else if (!inplace) {
        vine__side_init(&ss, sendbuf, (size_t)sendcount, &st);
        if ((rc = input_bytes(&c, &ss, VINE_PACK_IN, &smem)))
            return rc;
        c.sendbuf = smem;
    }
    c.recvbuf = rmem;
    if ((rc = run_bytes(&c, &rs, rmem)))
        return rc;
    /* Types used in place can be repeated on new buffers as they are. */
    if (rs.raw && (inplace || ss.raw))
        vine__call_memo_keep2(&c, inplace ? NULL : &st, (size_t)sendcount, &rt, (size_t)recvcount,
                              0, inplace);
    return MPI_SUCCESS;
}

static int alltoall_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                         void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                         struct vine_nbreq *nb);

/*
 * One round of an in-place alltoall on the bytes of p blocks of block bytes
 * at base: bytes [o, o + n) of every block, copied into pk, then exchanged by
 * an out-of-place alltoall from pk into the same places (n bytes resized to
 * the block's length).
 */
static int alltoall_round(char *base, size_t block, size_t p, size_t o, size_t n, char *pk,
                          MPI_Comm comm)
{
    for (size_t j = 0; j < p; j++)
        memcpy(pk + j * n, base + j * block + o, n);
    MPI_Datatype run, slice;
    int rc = PMPI_Type_contiguous((int)n, MPI_BYTE, &run);
    if (rc == MPI_SUCCESS) {
        rc = PMPI_Type_create_resized(run, 0, (MPI_Aint)block, &slice);
        if (rc == MPI_SUCCESS && (rc = PMPI_Type_commit(&slice)) == MPI_SUCCESS) {
            rc = alltoall_impl(pk, (MPI_Count)n, MPI_BYTE, base + o, 1, slice, comm, NULL);
            PMPI_Type_free(&slice);
        }
        PMPI_Type_free(&run);
    }
    return vine__err_class(rc);
}

/*
 * A blocking in-place alltoall whose p blocks of block bytes (count
 * elements of rt each) exceed VINE_INPLACE_BYTES, in rounds that each take
 * the same bytes of every block (in the order of the type's signature): the
 * scratch is about twice that limit, where one schedule would need a copy of
 * the whole input (MPI libraries exchange in place with a block of scratch).
 * The rounds depend on block and p only, which MPI makes equal on every
 * rank, whatever each rank's type.  A type that is not contiguous bytes is
 * packed whole first and unpacked at the end, as one schedule would.
 * Returns -1 when it does not apply, else an MPI error class.
 */
static int alltoall_rounds(void *buf, size_t count, const vine_exec_type *rt, size_t block,
                           size_t p, MPI_Comm comm)
{
    size_t limit;
    int rc = vine__choose_inplace_bytes(&limit);
    if (rc)
        return rc;
    size_t per = limit / p;
    if (block <= per || per > INT_MAX / p)
        return -1;
    vine_side side;
    vine__side_init(&side, buf, count * p, rt);
    char *pk = malloc(per * p), *full = NULL, *base = buf;
    if (pk && !side.raw && (base = full = malloc(block * p)) != NULL)
        rc = vine__side_pack(&side, full, comm);
    if (!pk || !base)
        rc = MPI_ERR_NO_MEM;
    for (size_t o = 0; o < block && rc == MPI_SUCCESS; o += per)
        rc = alltoall_round(base, block, p, o, block - o < per ? block - o : per, pk, comm);
    if (rc == MPI_SUCCESS && full)
        rc = vine__side_unpack(&side, full, comm);
    free(full);
    free(pk);
    return rc;
}

/*
 * A nonblocking or persistent in-place alltoall above VINE_INPLACE_BYTES
 * cannot run in rounds (one request), so the MPI library's own serves it
 * (algorithm mpi, chosen alike on every rank) rather than a schedule on a
 * copy of the whole input.
 */
static int alltoall_req_inplace(vine_call *c, size_t block)
{
    size_t limit;
    int rc = vine__choose_inplace_bytes(&limit);
    const vine_algo *mpi = vine__algo_find(VINE_COLL_ALLTOALL, "mpi");
    if (rc == MPI_SUCCESS && mpi && block > limit / (size_t)c->a.p)
        c->req = mpi;
    return rc;
}

static int alltoall_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                         void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                         struct vine_nbreq *nb)
{
    int inplace = sendbuf == MPI_IN_PLACE;
    vine_comm_state *ms = vine__last_state;
    if (!nb && ms && ms->user == comm && !inplace &&
        vine__call_memo_hit2(ms, VINE_COLL_ALLTOALL, sendtype, sendcount, recvtype, recvcount, 0,
                             0) &&
        sendbuf && recvbuf && recvbuf != MPI_IN_PLACE) {
        if (vine__call_memo_mpi(ms))
            return vine__call_memo_done(ms, PMPI_Alltoall(sendbuf, (int)sendcount, sendtype,
                                                          recvbuf, (int)recvcount, recvtype, comm));
        return vine__call_memo_run(ms, sendbuf, recvbuf);
    }
    vine_call c;
    vine_exec_type st, rt;
    size_t block, sbytes, all;
    int rc = vine__call_start(&c, VINE_COLL_ALLTOALL, comm);
    c.nb = nb;
    if (rc || (rc = check_side(recvbuf, recvcount, recvtype, &rt, &block)))
        return rc;
    if (recvbuf == MPI_IN_PLACE)
        return MPI_ERR_BUFFER;
    if (!inplace && (rc = check_side(sendbuf, sendcount, sendtype, &st, &sbytes)))
        return rc;
    if (!inplace && sbytes != block)
        return MPI_ERR_TRUNCATE;
    if ((rc = mul(block, (size_t)c.a.p, &all)) || (rc = vine__call_check_request(&c)))
        return rc;
    if (block == 0)
        return vine__call_none(&c);
    if (inplace && !nb &&
        (rc = alltoall_rounds(recvbuf, (size_t)recvcount, &rt, block, (size_t)c.a.p, comm)) != -1)
        return rc;
    if (inplace && nb && (rc = alltoall_req_inplace(&c, block)))
        return rc;
    if ((rc = vine__call_attach(&c)) || (rc = plan_bytes(&c, block)))
        return rc;
    if (vine__call_to_mpi(&c) && nb)
        return vine__nb_mpi(&c);
    if (vine__call_to_mpi(&c)) {
        int keep;
        if ((rc = move_mpi(&c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, 0,
                           &keep)))
            return rc;
        /* In place, the repeat needs the checks (the input moves to scratch). */
        if (!inplace && keep)
            vine__call_memo_keep2(&c, &st, (size_t)sendcount, &rt, (size_t)recvcount, 0, 0);
        return MPI_SUCCESS;
    }
    vine_side rs, ss;
    char *rmem, *smem;
    size_t n = (size_t)c.a.p;
    vine__side_init(&rs, recvbuf, (size_t)recvcount * n, &rt);
    if (inplace) {
        /* The schedules never read and write one buffer: the input moves to scratch. */
        if ((rc = vine__call_scratch(&c, VINE_PACK_IN, all, &smem)) ||
            (rc = vine__call_pack(&c, &rs, smem)))
            return rc;
    } else {
        vine__side_init(&ss, sendbuf, (size_t)sendcount * n, &st);
        if ((rc = input_bytes(&c, &ss, VINE_PACK_IN, &smem)))
            return rc;
    }
    if ((rc = output_bytes(&c, &rs, &rmem)))
        return rc;
    c.sendbuf = smem;
    c.recvbuf = rmem;
    if ((rc = run_bytes(&c, &rs, rmem)))
        return rc;
    if (!inplace && rs.raw && ss.raw)
        vine__call_memo_keep2(&c, &st, (size_t)sendcount, &rt, (size_t)recvcount, 0, 0);
    return MPI_SUCCESS;
}

/*
 * The checks gather and scatter share, mirror images of each other: the
 * root's side holds all p blocks (gather's receive, scatter's send
 * arguments, ignored off the root), every rank's own side one block (it is
 * MPI_IN_PLACE at the root for an in-place call).  Sets *block to the bytes
 * of one block and *go to 0 when the call completed without moving anything;
 * with *go 1 the call is planned (plan_bytes).
 */
static int rooted_start(vine_call *c, vine_coll coll, int root, MPI_Comm comm, const void *rootbuf,
                        MPI_Count rootcount, MPI_Datatype roottype, vine_exec_type *rt,
                        const void *ownbuf, MPI_Count owncount, MPI_Datatype owntype,
                        vine_exec_type *ot, size_t *block, int *go, struct vine_nbreq *nb)
{
    size_t own = 0, all;
    *block = 0;
    *go = 0;
    int rc = vine__call_start(c, coll, comm);
    c->nb = nb;
    if (rc)
        return rc;
    if (root < 0 || root >= c->a.p)
        return MPI_ERR_ROOT;
    int at_root = c->a.rank == root, inplace = ownbuf == MPI_IN_PLACE;
    if ((inplace && !at_root) || (at_root && rootbuf == MPI_IN_PLACE))
        return MPI_ERR_BUFFER;
    if (at_root && (rc = check_side(rootbuf, rootcount, roottype, rt, block)))
        return rc;
    if (!inplace && (rc = check_side(ownbuf, owncount, owntype, ot, &own)))
        return rc;
    if (!at_root)
        *block = own;
    else if (!inplace && own != *block)
        return MPI_ERR_TRUNCATE;
    if ((rc = mul(*block, (size_t)c->a.p, &all)) || (rc = vine__call_check_request(c)))
        return rc;
    if (*block == 0)
        return vine__call_none(c);
    c->a.root = root;
    c->a.inplace = inplace;
    if ((rc = vine__call_attach(c)) || (rc = plan_bytes(c, *block)))
        return rc;
    *go = 1;
    return MPI_SUCCESS;
}

static int gather_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                       void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                       MPI_Comm comm, struct vine_nbreq *nb)
{
    vine_comm_state *ms = vine__last_state;
    if (!nb && ms && ms->user == comm &&
        vine__call_memo_hit2(ms, VINE_COLL_GATHER, sendtype, sendcount, recvtype, recvcount, root,
                             sendbuf == MPI_IN_PLACE)) {
        int at_root = ms->rank == root, inplace = sendbuf == MPI_IN_PLACE;
        if ((inplace || sendbuf) && (!at_root || (recvbuf && recvbuf != MPI_IN_PLACE))) {
            if (vine__call_memo_mpi(ms))
                return vine__call_memo_done(ms, PMPI_Gather(sendbuf, (int)sendcount, sendtype,
                                                            recvbuf, (int)recvcount, recvtype,
                                                            root, comm));
            return vine__call_memo_run(ms, inplace ? NULL : sendbuf, at_root ? recvbuf : NULL);
        }
    }
    vine_call c;
    vine_exec_type st, rt;
    size_t block;
    int go, rc = rooted_start(&c, VINE_COLL_GATHER, root, comm, recvbuf, recvcount, recvtype, &rt,
                              sendbuf, sendcount, sendtype, &st, &block, &go, nb);
    if (rc || !go)
        return rc;
    int at_root = c.a.rank == root, inplace = c.a.inplace;
    if (vine__call_to_mpi(&c) && nb)
        return vine__nb_mpi(&c);
    if (vine__call_to_mpi(&c)) {
        int keep;
        if ((rc = move_mpi(&c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                           &keep)))
            return rc;
        if (keep)
            vine__call_memo_keep2(&c, inplace ? NULL : &st, (size_t)sendcount, at_root ? &rt : NULL,
                                  (size_t)recvcount, root, inplace);
        return MPI_SUCCESS;
    }
    vine_side rs, ss;
    char *rmem = NULL, *smem;
    if (at_root) {
        vine__side_init(&rs, recvbuf, (size_t)recvcount * (size_t)c.a.p, &rt);
        if ((rc = output_bytes(&c, &rs, &rmem)))
            return rc;
        if (inplace && !rs.raw) {
            vine__side_init(&ss, elem_at(recvbuf, (size_t)root * (size_t)recvcount, rt.extent),
                            (size_t)recvcount, &rt);
            if ((rc = vine__call_pack(&c, &ss, rmem + (size_t)root * block)))
                return rc;
        }
    }
    if (!inplace) {
        vine__side_init(&ss, sendbuf, (size_t)sendcount, &st);
        if ((rc = input_bytes(&c, &ss, VINE_PACK_IN, &smem)))
            return rc;
        c.sendbuf = smem;
    }
    c.recvbuf = rmem;
    if ((rc = run_bytes(&c, at_root ? &rs : NULL, rmem)))
        return rc;
    if ((!at_root || rs.raw) && (inplace || ss.raw))
        vine__call_memo_keep2(&c, inplace ? NULL : &st, (size_t)sendcount, at_root ? &rt : NULL,
                              (size_t)recvcount, root, inplace);
    return MPI_SUCCESS;
}

static int scatter_impl(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                        void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                        MPI_Comm comm, struct vine_nbreq *nb)
{
    vine_comm_state *ms = vine__last_state;
    if (!nb && ms && ms->user == comm &&
        vine__call_memo_hit2(ms, VINE_COLL_SCATTER, sendtype, sendcount, recvtype, recvcount, root,
                             recvbuf == MPI_IN_PLACE)) {
        int at_root = ms->rank == root, inplace = recvbuf == MPI_IN_PLACE;
        if ((inplace || recvbuf) && (!at_root || (sendbuf && sendbuf != MPI_IN_PLACE))) {
            if (vine__call_memo_mpi(ms))
                return vine__call_memo_done(ms, PMPI_Scatter(sendbuf, (int)sendcount, sendtype,
                                                             recvbuf, (int)recvcount, recvtype,
                                                             root, comm));
            return vine__call_memo_run(ms, at_root ? sendbuf : NULL, inplace ? NULL : recvbuf);
        }
    }
    vine_call c;
    vine_exec_type st, rt;
    size_t block;
    int go, rc = rooted_start(&c, VINE_COLL_SCATTER, root, comm, sendbuf, sendcount, sendtype, &st,
                              recvbuf, recvcount, recvtype, &rt, &block, &go, nb);
    if (rc || !go)
        return rc;
    int at_root = c.a.rank == root, inplace = c.a.inplace;
    if (vine__call_to_mpi(&c) && nb)
        return vine__nb_mpi(&c);
    if (vine__call_to_mpi(&c)) {
        int keep;
        if ((rc = move_mpi(&c, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                           &keep)))
            return rc;
        if (keep)
            vine__call_memo_keep2(&c, at_root ? &st : NULL, (size_t)sendcount, inplace ? NULL : &rt,
                                  (size_t)recvcount, root, inplace);
        return MPI_SUCCESS;
    }
    vine_side rs, ss;
    char *rmem = NULL, *smem;
    if (at_root) {
        vine__side_init(&ss, sendbuf, (size_t)sendcount * (size_t)c.a.p, &st);
        if ((rc = input_bytes(&c, &ss, VINE_PACK_IN, &smem)))
            return rc;
        c.sendbuf = smem;
    }
    if (!inplace) {
        vine__side_init(&rs, recvbuf, (size_t)recvcount, &rt);
        if ((rc = output_bytes(&c, &rs, &rmem)))
            return rc;
    }
    c.recvbuf = rmem;
    if ((rc = run_bytes(&c, inplace ? NULL : &rs, rmem)))
        return rc;
    if ((!at_root || ss.raw) && (inplace || rs.raw))
        vine__call_memo_keep2(&c, at_root ? &st : NULL, (size_t)sendcount, inplace ? NULL : &rt,
                              (size_t)recvcount, root, inplace);
    return MPI_SUCCESS;
}

static int barrier_impl(MPI_Comm comm, struct vine_nbreq *nb)
{
    vine_call c;
    int rc = vine__call_start(&c, VINE_COLL_BARRIER, comm);
    c.nb = nb;
    if (rc || (rc = vine__call_check_request(&c)))
        return rc;
    if (c.a.p == 1)
        return vine__call_none(&c);
    if ((rc = vine__call_attach(&c)) || (rc = plan_bytes(&c, 0)))
        return rc;
    if (vine__call_to_mpi(&c) && nb)
        return vine__nb_mpi(&c);
    if (vine__call_to_mpi(&c))
        return vine__call_mpi_done(&c, PMPI_Barrier(comm));
    return run_bytes(&c, NULL, NULL);
}

int vine_barrier(MPI_Comm comm)
{
    return barrier_impl(comm, NULL);
}

int vine_bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    return bcast_impl(buffer, count, datatype, root, comm, NULL);
}

int vine_bcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    return bcast_impl(buffer, count, datatype, root, comm, NULL);
}

int vine_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return allgather_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, NULL);
}

int vine_allgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                     MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return allgather_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, NULL);
}

int vine_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return alltoall_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, NULL);
}

int vine_alltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                    MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return alltoall_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, NULL);
}

int vine_gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return gather_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                       NULL);
}

int vine_gather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                  MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return gather_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                       NULL);
}

int vine_scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return scatter_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                        NULL);
}

int vine_scatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                   MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return scatter_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                        NULL);
}

/* ---- Nonblocking and persistent forms ---- */

/* A data-movement collective (or barrier) in nonblocking (persistent 0) or persistent form. */
static int move_nb(vine_coll coll, const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                   void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                   MPI_Comm comm, int persistent, MPI_Request *request)
{
    vine_nb_args a =
        move_args(coll, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
    struct vine_nbreq *r;
    int rc = vine__nb_begin(&r, &a, persistent, request);
    if (rc != MPI_SUCCESS)
        return vine__nb_end(r, rc, request);
    switch (coll) {
    case VINE_COLL_BCAST:
        rc = bcast_impl(recvbuf, recvcount, recvtype, root, comm, r);
        break;
    case VINE_COLL_ALLGATHER:
        rc = allgather_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, r);
        break;
    case VINE_COLL_ALLTOALL:
        rc = alltoall_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, r);
        break;
    case VINE_COLL_GATHER:
        rc = gather_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, r);
        break;
    case VINE_COLL_SCATTER:
        rc =
            scatter_impl(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, r);
        break;
    default:
        rc = barrier_impl(comm, r);
        break;
    }
    return vine__nb_end(r, rc, request);
}

int vine_ibcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                MPI_Request *request)
{
    return move_nb(VINE_COLL_BCAST, NULL, 0, MPI_DATATYPE_NULL, buffer, count, datatype, root, comm,
                   0, request);
}

int vine_bcast_init(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                    MPI_Info info, MPI_Request *request)
{
    (void)info;
    return move_nb(VINE_COLL_BCAST, NULL, 0, MPI_DATATYPE_NULL, buffer, count, datatype, root, comm,
                   1, request);
}

int vine_ibcast_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                  MPI_Request *request)
{
    return move_nb(VINE_COLL_BCAST, NULL, 0, MPI_DATATYPE_NULL, buffer, count, datatype, root, comm,
                   0, request);
}

int vine_bcast_init_c(void *buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
                      MPI_Info info, MPI_Request *request)
{
    (void)info;
    return move_nb(VINE_COLL_BCAST, NULL, 0, MPI_DATATYPE_NULL, buffer, count, datatype, root, comm,
                   1, request);
}

int vine_iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return move_nb(VINE_COLL_ALLGATHER, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                   0, comm, 0, request);
}

int vine_allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                        MPI_Request *request)
{
    (void)info;
    return move_nb(VINE_COLL_ALLGATHER, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                   0, comm, 1, request);
}

int vine_iallgather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                      void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                      MPI_Request *request)
{
    return move_nb(VINE_COLL_ALLGATHER, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                   0, comm, 0, request);
}

int vine_allgather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                          void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                          MPI_Info info, MPI_Request *request)
{
    (void)info;
    return move_nb(VINE_COLL_ALLGATHER, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                   0, comm, 1, request);
}

int vine_ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    return move_nb(VINE_COLL_ALLTOALL, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                   0, comm, 0, request);
}

int vine_alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                       MPI_Request *request)
{
    (void)info;
    return move_nb(VINE_COLL_ALLTOALL, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                   0, comm, 1, request);
}

int vine_ialltoall_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                     MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                     MPI_Request *request)
{
    return move_nb(VINE_COLL_ALLTOALL, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                   0, comm, 0, request);
}

int vine_alltoall_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                         void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                         MPI_Info info, MPI_Request *request)
{
    (void)info;
    return move_nb(VINE_COLL_ALLTOALL, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                   0, comm, 1, request);
}

int vine_igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                 MPI_Request *request)
{
    return move_nb(VINE_COLL_GATHER, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                   root, comm, 0, request);
}

int vine_gather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                     MPI_Request *request)
{
    (void)info;
    return move_nb(VINE_COLL_GATHER, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                   root, comm, 1, request);
}

int vine_igather_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                   MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                   MPI_Request *request)
{
    return move_nb(VINE_COLL_GATHER, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                   root, comm, 0, request);
}

int vine_gather_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                       void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                       MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info;
    return move_nb(VINE_COLL_GATHER, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                   root, comm, 1, request);
}

int vine_iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                  MPI_Request *request)
{
    return move_nb(VINE_COLL_SCATTER, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                   root, comm, 0, request);
}

int vine_scatter_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                      MPI_Request *request)
{
    (void)info;
    return move_nb(VINE_COLL_SCATTER, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                   root, comm, 1, request);
}

int vine_iscatter_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                    MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                    MPI_Request *request)
{
    return move_nb(VINE_COLL_SCATTER, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                   root, comm, 0, request);
}

int vine_scatter_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                        void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int root,
                        MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info;
    return move_nb(VINE_COLL_SCATTER, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                   root, comm, 1, request);
}

int vine_ibarrier(MPI_Comm comm, MPI_Request *request)
{
    return move_nb(VINE_COLL_BARRIER, NULL, 0, MPI_DATATYPE_NULL, NULL, 0, MPI_DATATYPE_NULL, 0,
                   comm, 0, request);
}

int vine_barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info;
    return move_nb(VINE_COLL_BARRIER, NULL, 0, MPI_DATATYPE_NULL, NULL, 0, MPI_DATATYPE_NULL, 0,
                   comm, 1, request);
}
