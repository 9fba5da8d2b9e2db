/*
 * The byte path of the data-movement collectives (bcast, allgather,
 * alltoall, gather, scatter): their schedules move bytes, never elements of
 * a datatype.  A predefined type whose size equals its extent is already
 * bytes in memory order and is used in place.  Any other type (derived
 * types, and the padded pair types such as MPI_DOUBLE_INT) is packed with
 * MPI_Pack into scratch once before the schedule runs and unpacked once
 * after it, so no round ever walks a non-contiguous layout, and send and
 * receive types may differ wherever their type signatures match.
 *
 * Only predefined types go raw: a derived type can be dense in memory yet
 * list its fields out of memory order, and MPI matches type signatures in
 * typemap order, which MPI_Pack follows.
 */
#include "api.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static char *shift(const void *base, size_t bytes)
{
    return (char *)((uintptr_t)base + (uintptr_t)bytes);
}

void vine__side_init(vine_side *s, const void *buf, size_t count, const vine_exec_type *t)
{
    s->buf = (void *)(uintptr_t)buf;
    s->dt = t->dt;
    s->count = count;
    s->bytes = count * (size_t)t->size;
    s->extent = t->extent;
    s->raw = t->dense && t->named;
}

int vine__pack_scratch(vine_comm_state *st, int which, size_t bytes, char **out)
{
    if (bytes > st->pack_bytes[which]) {
        free(st->pack[which]);
        st->pack[which] = malloc(bytes);
        st->pack_bytes[which] = st->pack[which] ? bytes : 0;
        if (!st->pack[which])
            return MPI_ERR_NO_MEM;
    }
    *out = st->pack[which];
    return MPI_SUCCESS;
}

/* Elements per MPI_Pack call: its sizes and position are ints. */
static size_t pack_chunk(const vine_side *s)
{
    size_t size = s->count ? s->bytes / s->count : 0;
    if (size == 0)
        return s->count;
    return (size_t)INT_MAX / size;
}

int vine__err_class(int rc)
{
    int cls = MPI_ERR_OTHER;
    if (rc != MPI_SUCCESS && MPI_Error_class(rc, &cls) != MPI_SUCCESS)
        cls = MPI_ERR_OTHER;
    return rc == MPI_SUCCESS ? MPI_SUCCESS : cls;
}

/*
 * One MPI_Pack (dir 0) or MPI_Unpack (dir 1) of k elements of dt at user.
 * MPICH 4.0.2 refuses a null buffer (MPI_BOTTOM, which a type of absolute
 * addresses needs) with MPI_ERR_ARG: then the elements go as one element of
 * a type shifted by -a over a non-null base at address a (mpi4py's
 * testAlltoallwBottom).
 */
static int pack_call(void *user, size_t k, MPI_Datatype dt, char *packed, int n, int *pos,
                     MPI_Comm comm, int dir)
{
    MPI_Datatype shifted = MPI_DATATYPE_NULL;
    static char anchor;
    int blocklen = (int)k, rc = MPI_SUCCESS;
    if (!user) {
        MPI_Aint a;
        if ((rc = MPI_Get_address(&anchor, &a)) != MPI_SUCCESS)
            return rc;
        MPI_Aint disp = -a;
        if ((rc = MPI_Type_create_struct(1, &blocklen, &disp, &dt, &shifted)) != MPI_SUCCESS)
            return rc;
        if ((rc = MPI_Type_commit(&shifted)) != MPI_SUCCESS) {
            MPI_Type_free(&shifted);
            return rc;
        }
        user = &anchor;
        blocklen = 1;
        dt = shifted;
    }
    if (dir == 0)
        rc = MPI_Pack(user, blocklen, dt, packed, n, pos, comm);
    else
        rc = MPI_Unpack(packed, n, pos, user, blocklen, dt, comm);
    if (shifted != MPI_DATATYPE_NULL)
        MPI_Type_free(&shifted);
    return rc;
}

/* Packs (dir 0) or unpacks (dir 1) s against the contiguous bytes at mem. */
static int transfer(const vine_side *s, char *mem, MPI_Comm comm, int dir)
{
    if (s->raw) {
        if (s->bytes && mem != (char *)s->buf)
            memmove(dir ? s->buf : mem, dir ? mem : s->buf, s->bytes);
        return MPI_SUCCESS;
    }
    if (s->count == 0)
        return MPI_SUCCESS; /* nothing to move (an empty block of a derived type) */
    size_t per = pack_chunk(s), size = s->count ? s->bytes / s->count : 0;
    if (per == 0)
        return MPI_ERR_COUNT; /* one element above INT_MAX bytes: MPI_Pack cannot describe it */
    for (size_t done = 0; done < s->count;) {
        size_t k = s->count - done < per ? s->count - done : per;
        int n = (int)(k * size), pos = 0, rc;
        char *user = (char *)((uintptr_t)s->buf + (uintptr_t)((MPI_Aint)done * s->extent));
        char *packed = shift(mem, done * size);
        if ((rc = pack_call(user, k, s->dt, packed, n, &pos, comm, dir)) != MPI_SUCCESS)
            return vine__err_class(rc);
        /* The byte path needs MPI's packed form to be the plain data bytes,
         * as it is between processes of one architecture. */
        if (pos != n)
            return MPI_ERR_INTERN;
        done += k;
    }
    return MPI_SUCCESS;
}

int vine__side_pack(const vine_side *s, char *dst, MPI_Comm comm)
{
    return transfer(s, dst, comm, 0);
}

int vine__side_unpack(const vine_side *s, const char *src, MPI_Comm comm)
{
    return transfer(s, (char *)(uintptr_t)src, comm, 1);
}

int vine__call_scratch(vine_call *c, int which, size_t bytes, char **out)
{
    if (c->nb)
        return vine__nb_scratch(c->nb, which, bytes, out);
    return vine__pack_scratch(c->st, which, bytes, out);
}

int vine__call_pack(vine_call *c, const vine_side *s, char *dst)
{
    if (c->nb)
        return vine__nb_pack(c->nb, s, dst);
    return vine__side_pack(s, dst, c->st->comm);
}

const vine_exec_type *vine__byte_type(void)
{
    /* MPI_BYTE is a handle constant in some MPIs and a global object's
     * address in others: fill it in at run time. */
    static _Thread_local vine_exec_type bt = {
        .extent = 1, .true_lb = 0, .true_extent = 1, .size = 1, .dense = 1, .named = 1};
    bt.dt = MPI_BYTE;
    return &bt;
}
