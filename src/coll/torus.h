/*
 * Torus coordinates of a communicator (MPI-free; issue 23, the Bine paper's
 * section 5.4): the algorithms that run along the dimensions of a torus
 * (bucket, swing, bine_torus ...) see the ranks as points of a sub-torus of
 * nd dimensions.
 *
 * The shape comes from a level map (levels.h) whose groups are uniform:
 * every group of level l holds the same number of level l-1 groups (at level
 * 0, of ranks).  Dimension nd-1, the fastest, runs over the ranks of a level
 * 0 group; dimension nd-1-l over the level l-1 groups inside a level l
 * group; dimension 0 over the top level's groups.  So nd = nlevels + 1 and a
 * torus A x B x C of p = ABC ranks in row-major order (the last coordinate
 * fastest) is the map "block:C,B" (levels.h also takes "torus:AxBxC").  The
 * map need not be in rank order: a rank's coordinates are its position in
 * the groups, so any placement works.  Without a map (NULL or flat) the
 * ranks form one dimension of p.  Dimensions of size 1 stay (7x1x3).
 *
 * A coordinate along a dimension is the group's index among its parent's
 * groups (levels.h: vine__levels_subindex), i.e. the order of the groups'
 * lowest ranks.  Every rank computes the same shape and coordinates from the
 * same map, so the ranks agree without communication.
 */
#ifndef VINE_COLL_TORUS_H
#define VINE_COLL_TORUS_H

#include "levels.h"

#define VINE_TORUS_MAXD (VINE_LEVELS_MAX + 1)

typedef struct vine_torus {
    int p;                     /* ranks: the product of dims */
    int nd;                    /* dimensions, 1 .. VINE_TORUS_MAXD */
    int dims[VINE_TORUS_MAXD]; /* sizes, dims[0] the slowest */
    const vine_levels *m;      /* the map (not owned); NULL: one dimension of p */
} vine_torus;

/*
 * Makes the torus of a finished map m for p ranks (m may be NULL or flat:
 * one dimension).  Returns VINE_OK; VINE_ERR_UNSUPPORTED when the map's
 * groups are not uniform (then *t is one dimension of p and err, which may
 * be NULL, names the level at fault).  O(nlevels p).
 */
int vine__torus_make(const vine_levels *m, int p, vine_torus *t, char *err, size_t errlen);

/* 1 when m gives a torus (vine__torus_make succeeds). */
int vine__torus_applies(const vine_levels *m, int p);

/* Rank r's coordinates into c[0 .. nd-1].  O(nd). */
void vine__torus_coords(const vine_torus *t, int r, int *c);

/* The rank at coordinates c (each 0 <= c[d] < dims[d]).  O(nd). */
int vine__torus_rank(const vine_torus *t, const int *c);

/*
 * The ranks of rank r's line along dimension d, in coordinate order: out[i]
 * is the rank whose coordinates equal r's except coordinate d, which is i
 * (dims[d] entries).  Returns r's own coordinate along d.  O(nd dims[d]).
 */
int vine__torus_line(const vine_torus *t, int r, int d, int *out);

/*
 * The parts of allreduce, reduce_scatter(_block) and allgather
 * bine_torus_multiport for a vector of count elements on torus t
 * of the level map m (allreduce_bine_torus_multiport.c says why): 1 (one
 * part, bine_torus) unless m is marked as a torus network, every dimension
 * of size > 1 is a power of two and every part holds at least t->p elements;
 * else 2D for D such dimensions when they are all equal or each of the 2D
 * parts holds at least VINE_MULTIPORT_2D_MIN elements, and 2 otherwise.
 */
#define VINE_MULTIPORT_2D_MIN ((size_t)1 << 18)
int vine__torus_multiport_parts(const vine_torus *t, const vine_levels *m, size_t count);
/*
 * The parts of bcast and reduce bine_torus_multiport (Bine trees, which
 * take any dimensions): as above, but with dimensions of any size and at
 * least one element a part.
 */
int vine__torus_multiport_tree_parts(const vine_torus *t, const vine_levels *m, size_t count);

#endif
