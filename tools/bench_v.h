/*
 * vine-bench coll on the collectives of issue 20 (docs/bench.md, "The
 * irregular collectives and the scans"): allgatherv, alltoallv, alltoallw,
 * gatherv and scatterv, whose blocks may differ from rank to rank, and the
 * scans, scan and exscan.
 *
 * The blocks of a row are uniform (every block the size given by --size,
 * in whole elements) or follow a count distribution of --dist
 * (src/coll/vdist.h: uniform:N, skew:N,F, zipf:N,S, random:N,SEED,
 * file:PATH, N in elements).  The buffers hold them packed in rank order:
 * block k starts where block k - 1 ends, with no gap, at displacement
 * 0 for block 0; alltoallw's displacements are the same in bytes, and all
 * its types are the run's --dtype.
 */
#ifndef VINE_BENCH_V_H
#define VINE_BENCH_V_H

#include "bench_nb.h"
#include "coll/vdist.h"

#include <stddef.h>

/* The longest size label of a row, its terminating NUL included (vine_bench_row.label). */
#define BENCH_V_LABEL 32

/* What bench_v_shape found wrong with a row (0: nothing). */
enum bench_v_shape_error {
    BENCH_V_NOMEM = 1, /* no memory for the tables */
    BENCH_V_BIG = 2,   /* a count or a displacement past INT_MAX */
    BENCH_V_ASYM = 3,  /* --in-place alltoallv or alltoallw: rank i's block to j and j's to
                          i differ, which MPI_IN_PLACE cannot express */
};

/* allgatherv, alltoallv, alltoallw, gatherv, scatterv: the collectives --dist applies to. */
int bench_v_irregular(vine_coll coll);
/* alltoallv and alltoallw, whose blocks go from each rank to each rank (vdist's a2a 1). */
int bench_v_a2a(vine_coll coll);
/* The irregular collectives and the scans: measured here. */
int bench_v_new(vine_coll coll);

/*
 * Parses one --dist value into d[0 .. *n - 1] and their labels (the spec,
 * cut to BENCH_V_LABEL - 1 characters; a file's with only the file's base
 * name).  Besides vdist's specs it takes a doubling range of N,
 * KIND:LO..HI[,ARG] (skew:1..1024,10 is skew:1,10, skew:2,10 ... skew:1024,10),
 * one spec per N.  At most cap specs.  Returns 0, or -1 with one line in err.
 */
int bench_v_parse_dist(const char *spec, vine_vdist *d, char (*labels)[BENCH_V_LABEL], int cap,
                       int *n, char *err, size_t errlen);

/*
 * The distribution's base block in elements, which a row's size and count
 * report: N, or for a file the mean block rounded down (of p blocks, or of
 * p x p for a2a).  vine__vdist_check must have admitted p.
 */
size_t bench_v_base(const vine_vdist *d, int p, int a2a);

/*
 * Shapes b, whose coll, dt, tsize, root, inplace, p and rank are set, for a
 * row of a new collective: n elements per block (the scans: the count), or
 * d's blocks when d is not NULL (an irregular collective only).  Sets
 * count (n or d's base), vcount, the tables, own_off, in_elems, recv_elems,
 * res_off and res_elems, and *sent to the elements this rank's blocks send
 * (the scans: n).  Local.  Returns 0 or an enum bench_v_shape_error.
 */
int bench_v_shape(bcase *b, const vine_vdist *d, size_t n, size_t *sent);

/* Frees what bench_v_shape allocated. */
void bench_v_free(bcase *b);

/* One blocking call of b: vine's (mpi 0) or the MPI library's. */
int bench_v_run(const bcase *b, int mpi);
/* Starts b's nonblocking call: vine's (mpi 0) or the MPI library's. */
int bench_v_start(const bcase *b, int mpi, MPI_Request *req);
/* Makes b's persistent request: vine's (mpi 0) or the MPI library's (MPI 4). */
int bench_v_init(const bcase *b, int mpi, MPI_Request *req);

#endif
