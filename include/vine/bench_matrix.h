/*
 * The MPI-free half of vine's pattern benchmarks (vine/bench.h holds the MPI
 * runtime): the sparse communication matrix of a pattern, each rank's send
 * and receive footprint, the built-in patterns of CommBench (Hidayetoglu et
 * al., ICS 2024; ../shared/papers/commbench.txt sections 4.2-4.4) and readers
 * of traffic matrices (CSV) and of Matrix Market sparse matrices (the
 * messages of a distributed sparse matrix-vector product).  docs/patterns.md
 * defines every pattern exactly.
 *
 * A message moves `bytes` bytes from offset `sendoff` of buffer `sendbuf` of
 * rank `sender` to offset `recvoff` of buffer `recvbuf` of rank `receiver`.
 * Buffers are named symbolically (VINE_BENCH_BUF_*): each rank has its own
 * send, receive and scratch buffer, whose addresses are supplied when the
 * matrix is added to a pattern (vine_bench_add_matrix in vine/bench.h).
 *
 * Functions return VINE_BENCH_OK (0) or a positive VINE_BENCH_ERR_* code;
 * those that take err/errlen then write a one-line message there ("FILE:LINE:
 * problem" for the readers).  Nothing here prints, aborts or needs MPI.
 */
#ifndef VINE_BENCH_MATRIX_H
#define VINE_BENCH_MATRIX_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes of the MPI-free functions. */
enum vine_bench_status {
    VINE_BENCH_OK = 0,
    VINE_BENCH_ERR_NO_MEM = 1, /* an allocation failed */
    VINE_BENCH_ERR_ARG = 2,    /* a bad argument or malformed input (message in err) */
    VINE_BENCH_ERR_FILE = 3    /* a file could not be opened or read (message in err) */
};

/* The symbolic buffers of a rank. */
enum vine_bench_buf {
    VINE_BENCH_BUF_SEND = 0, /* the data a rank sends: never written by a pattern */
    VINE_BENCH_BUF_RECV = 1, /* where a rank's results arrive */
    VINE_BENCH_BUF_TMP = 2,  /* scratch for multi-step patterns (striping) */
    VINE_BENCH_NBUF = 3
};

/* The group patterns of CommBench section 4.3 (figure 6). */
enum vine_bench_group {
    VINE_BENCH_RAIL = 0,       /* rank j of one group to rank j of another, j < k */
    VINE_BENCH_ASYMMETRIC = 1, /* k ranks of one group to all g ranks of another */
    VINE_BENCH_SYMMETRIC = 2   /* k ranks of one group to k ranks of another */
};

/* Directions of data movement (CommBench section 4.3.2, figure 7). */
enum vine_bench_dir {
    VINE_BENCH_UNI = 0, /* group 0 sends to each other group */
    VINE_BENCH_BI = 1,  /* group 0 and each other group send to each other */
    VINE_BENCH_OMNI = 2 /* every group sends to every other group */
};

/* One point-to-point message. */
typedef struct vine_bench_msg {
    int sender, receiver;
    int sendbuf, recvbuf; /* enum vine_bench_buf */
    size_t sendoff, recvoff, bytes;
} vine_bench_msg;

/*
 * The messages of one step on p ranks, in the order they were added.  Read
 * the fields; change them only through the functions below.  extent[r *
 * VINE_BENCH_NBUF + b] is the number of bytes of buffer b of rank r that the
 * messages touch (the largest offset + bytes).
 */
typedef struct vine_bench_matrix {
    int p;
    size_t count, cap;
    vine_bench_msg *msgs;
    size_t *extent;
} vine_bench_matrix;

/* One nonzero of the sparse matrix: all messages from sender to receiver. */
typedef struct vine_bench_pair {
    int sender, receiver;
    size_t bytes, msgs;
} vine_bench_pair;

/* What one rank sends and receives in a matrix (a message to itself counts twice). */
typedef struct vine_bench_footprint {
    size_t send_bytes, send_msgs;
    size_t recv_bytes, recv_msgs;
    size_t extent[VINE_BENCH_NBUF]; /* bytes of each of its buffers the messages touch */
} vine_bench_footprint;

/* An empty matrix on p >= 1 ranks.  Free it with vine_bench_matrix_free. */
int vine_bench_matrix_init(vine_bench_matrix *m, int p);
void vine_bench_matrix_free(vine_bench_matrix *m);
/* Removes every message, keeping p. */
void vine_bench_matrix_clear(vine_bench_matrix *m);

/* Appends one message; ERR_ARG for a rank outside [0, p), a bad buffer or an overflow. */
int vine_bench_matrix_add(vine_bench_matrix *m, int sendbuf, size_t sendoff, int recvbuf,
                          size_t recvoff, size_t bytes, int sender, int receiver);
/*
 * Appends a message from the sender's send buffer to the receiver's receive
 * buffer, each at the end of what the earlier messages touched there: the
 * messages of a rank are packed one after the other in the order added.
 */
int vine_bench_matrix_add_packed(vine_bench_matrix *m, size_t bytes, int sender, int receiver);

/* The bytes of all messages from sender to receiver. */
size_t vine_bench_matrix_bytes(const vine_bench_matrix *m, int sender, int receiver);
/* The bytes of all messages. */
size_t vine_bench_matrix_total(const vine_bench_matrix *m);
/*
 * The sparse matrix: one entry per (sender, receiver) with at least one
 * message, sorted by sender then receiver, in *pairs (malloc'ed, the caller
 * frees it; NULL when there is none) and their number in *npairs.
 */
int vine_bench_matrix_pairs(const vine_bench_matrix *m, vine_bench_pair **pairs, size_t *npairs);
/* The footprint of rank (0 <= rank < p) in m. */
void vine_bench_matrix_footprint(const vine_bench_matrix *m, int rank, vine_bench_footprint *f);

/*
 * Appends the group pattern `kind` in direction `dir` with parameters (n
 * groups, g ranks per group, k active ranks per group) and `bytes` per
 * message to m, on ranks 0 .. n*g-1 (group a is ranks a*g .. a*g+g-1; the
 * ranks from n*g up take no part).  Needs n >= 1, g >= 1, 1 <= k <= g and
 * n*g <= m->p; the asymmetric pattern has no omnidirectional form.  Messages
 * are packed (vine_bench_matrix_add_packed) in the order of docs/patterns.md.
 */
int vine_bench_group_pattern(vine_bench_matrix *m, int kind, int dir, int n, int g, int k,
                             size_t bytes, char *err, size_t errlen);

/*
 * Striping (CommBench section 4.2, figure 4): `bytes` bytes go from the send
 * buffer of rank 0 (the first rank of node 0, ranks 0 .. g-1) to the receive
 * buffer of rank g (the first rank of node 1, ranks g .. 2g-1) in k stripes
 * (1 <= k <= g) carried by ranks 0 .. k-1 and g .. g+k-1.  Stripe i covers
 * bytes [i*bytes/k, (i+1)*bytes/k).  Three steps, appended to steps[0..2]
 * (all initialised with the same p >= 2g):
 *   split:     rank 0 send buffer, stripe i -> rank i scratch (i = 1 .. k-1)
 *   translate: rank 0 send buffer, stripe 0 -> rank g receive buffer, and
 *              rank i scratch -> rank g+i scratch (i = 1 .. k-1)
 *   assemble:  rank g+i scratch -> rank g receive buffer, stripe i
 */
int vine_bench_stripe_pattern(vine_bench_matrix steps[3], int g, int k, size_t bytes, char *err,
                              size_t errlen);

/*
 * Reads a traffic matrix: one message per line "sender,receiver,bytes"
 * (decimal integers, spaces allowed around fields), '#' comments and blank
 * lines ignored, an optional header line "sender,receiver,bytes" first.
 * Ranks must lie in [0, m->p).  Messages are packed in file order.  Errors
 * are "PATH:LINE: problem".
 */
int vine_bench_read_csv(vine_bench_matrix *m, const char *path, char *err, size_t errlen);

/*
 * Reads a Matrix Market coordinate matrix (real, double, integer, complex or
 * pattern; general, symmetric, skew-symmetric or hermitian, the mirrored
 * entries expanded) with N rows and M columns and appends the messages of
 * y = A x on m->p ranks: rank r owns rows and entries of x
 * [floor(r*N/p), floor((r+1)*N/p)) (columns: the same with M), and for every
 * column j of a nonzero in its rows that another rank owns, it needs x[j]
 * from that rank.  One message per (owner, needer) pair of elem_bytes bytes
 * per distinct x entry, ordered by sender then receiver and packed.  Errors
 * are "PATH:LINE: problem".
 */
int vine_bench_read_mtx(vine_bench_matrix *m, const char *path, size_t elem_bytes, char *err,
                        size_t errlen);

/* "rail", "asymmetric", "symmetric"; NULL for other values. */
const char *vine_bench_group_name(int kind);
/* "uni", "bi", "omni"; NULL for other values. */
const char *vine_bench_dir_name(int dir);
/* The value named by name (as above), or -1. */
int vine_bench_group_from_name(const char *name);
int vine_bench_dir_from_name(const char *name);

#ifdef __cplusplus
}
#endif

#endif
