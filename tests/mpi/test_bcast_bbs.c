/*
 * MPI tier: bcast bbs (Broadcast by Balanced Saturation on the graph of
 * VINE_BBS_GRAPH) against MPI_Bcast.  The test runs under ctest with
 * VINE_BBS_GRAPH naming a graph of exactly p nodes, so the algorithm must
 * serve every call that moves data: a graph the library could not use would
 * fail the test rather than pass through the fallback.  Payloads of 0, 1,
 * 1000 and 100000 bytes as MPI_CHAR, MPI_INT and a vector type with holes
 * (packed to bytes by the library), three roots (every root at one byte),
 * unsegmented and with segment sizes that give many packets (1000 bytes) and
 * more than the packet cap (7 bytes); the guard bytes around every buffer
 * must stay intact.
 *
 * With VINE_TEST_BBS_FALLBACK=1 the graph is expected NOT to fit (a graph
 * with more nodes than ranks): bbs must then never serve, every result must
 * still equal MPI_Bcast's, and (ctest checks the output) VINE_VERBOSE must
 * say why.  With VINE_SEGMENT_SIZE set, only the environment's segment size
 * is swept.
 */
#include "dtype.h"
#include "mpitest.h"

#include "coll/coll.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { RECV_SEED = 2 };

static int fallback; /* the graph must not fit: bbs must never serve */

/* The served algorithm must be bbs, or never bbs in the fallback run. */
static void check_served(size_t total)
{
    if (total == 0)
        return;
    const char *served = vine_last_algorithm(VINE_COLL_BCAST);
    if (!fallback && strcmp(served, "bbs") != 0)
        mt_fail("bbs did not serve the call (vine_last_algorithm: %s)", served);
    if (fallback && strcmp(served, "bbs") == 0)
        mt_fail("bbs served although VINE_BBS_GRAPH does not have p nodes");
}

/* count elements of a basic type t from root, against MPI_Bcast. */
static void run_basic(const char *what, const mt_type *t, long count, int root)
{
    mt_case c = {"bcast", what, t->name, "-", count, root, 0};
    mt_begin(&c);
    size_t n = (size_t)count, bytes = n * t->extent;
    unsigned char *want = malloc(bytes + 1);
    mt_buf b;
    mt_buf_alloc(&b, bytes);
    if (mt_rank == root) {
        mt_fill(t, NULL, want, n, root, 0);
        mt_fill(t, NULL, b.data, n, root, 0);
    } else {
        mt_poison(t, want, n);
        mt_poison(t, b.data, n);
    }
    MPI_Bcast(want, (int)count, t->type, root, MPI_COMM_WORLD);
    int rc = vine_bcast(b.data, (int)count, t->type, root, MPI_COMM_WORLD);
    if (mt_check_rc(rc, "vine_bcast")) {
        mt_check_equal(t, b.data, want, n, "result");
        check_served(bytes);
    }
    mt_check_guards(&b);
    mt_buf_free(&b);
    free(want);
}

/* count elements of the vector type (holes between its blocks). */
static void run_vector(const char *what, long count, int root)
{
    const dt_type *t = dt_type_vector();
    mt_case c = {"bcast", what, t->name, "-", count, root, 0};
    mt_begin(&c);
    size_t n = (size_t)count;
    dt_area got, mpi;
    dt_area_init(&got, t, n, RECV_SEED);
    if (mt_rank == root)
        dt_area_set(&got, 0, n, root, 0);
    dt_area_clone(&mpi, &got);
    MPI_Bcast(mpi.buf, (int)count, t->type, root, MPI_COMM_WORLD);
    int rc = vine_bcast(got.buf, (int)count, t->type, root, MPI_COMM_WORLD);
    dt_ref ref = {NULL, root, 0, 0};
    if (mt_check_rc(rc, "vine_bcast")) {
        check_served(n);
        dt_check_result(&got, &mpi, n, RECV_SEED, &ref);
    }
    dt_area_free(&got);
    dt_area_free(&mpi);
}

static const mt_type *type_named(const char *name)
{
    for (int i = 0; i < mt_ntypes(); i++)
        if (strcmp(mt_type_at(i)->name, name) == 0)
            return mt_type_at(i);
    return NULL;
}

/* The payloads of 0, 1, 1000 and 100000 bytes in each type, from a few roots;
 * with every_root, one byte from each root too (one packet whatever the
 * segment size, so the segmented sweeps leave it out).  With segments of
 * less than 100 bytes (seg) up to 1000 bytes: 143 packets of 7 bytes already,
 * where 100000 bytes would be 14286. */
static void sweep(const char *what, int every_root, long seg)
{
    static const long bytes[] = {0, 1, 1000, 100000};
    const mt_type *ch = type_named("char"), *in = mt_type_int();
    int vbytes = 0;
    MPI_Type_size(dt_type_vector()->type, &vbytes);
    int roots[] = {0, mt_size / 2 + 1 < mt_size ? mt_size / 2 + 1 : 0, mt_size - 1};
    for (int r = 0; every_root && r < mt_size; r++)
        run_basic(what, ch, 1, r);
    for (size_t k = 0; k < sizeof bytes / sizeof *bytes; k++)
        for (int ri = 0; ri < 3 && (seg <= 0 || seg >= 100 || bytes[k] <= 1000); ri++) {
            int root = roots[ri];
            if (ri > 0 && root == roots[ri - 1])
                continue;
            run_basic(what, ch, bytes[k], root);
            run_basic(what, in, (bytes[k] + 3) / 4, root);
            run_vector(what, (bytes[k] + vbytes - 1) / vbytes, root);
        }
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "bcast_bbs");
    dt_init(NULL);
    const char *fb = getenv("VINE_TEST_BBS_FALLBACK");
    fallback = fb && strcmp(fb, "1") == 0;
    mt_case setup = {"bcast", "bbs setup", "-", "-", 0, -1, 0};
    mt_begin(&setup);
    const char *graph = getenv("VINE_BBS_GRAPH");
    int nodes = vine__bbs_env_nodes();
    if (!fallback && nodes != mt_size)
        mt_fail("VINE_BBS_GRAPH=%s: %d nodes, want p = %d", graph ? graph : "(unset)", nodes,
                mt_size);
    if (fallback && (nodes < 0 || nodes == mt_size))
        mt_fail("VINE_BBS_GRAPH=%s: %d nodes, want a readable graph of other than %d nodes",
                graph ? graph : "(unset)", nodes, mt_size);
    mt_select(VINE_COLL_BCAST, "bbs");
    if (getenv("VINE_SEGMENT_SIZE")) {
        sweep("bbs VINE_SEGMENT_SIZE", 1, vine_get_segment_size());
    } else {
        static const long segs[] = {1000, 7};
        char what[64];
        sweep("bbs", 1, 0);
        for (size_t i = 0; !fallback && i < sizeof segs / sizeof *segs; i++) {
            if (vine_set_segment_size(segs[i]) != MPI_SUCCESS)
                mt_fail("vine_set_segment_size(%ld) failed", segs[i]);
            snprintf(what, sizeof what, "bbs seg=%ldB", segs[i]);
            sweep(what, 0, segs[i]);
        }
        vine_set_segment_size(0);
    }
    dt_free();
    return mt_finish();
}
