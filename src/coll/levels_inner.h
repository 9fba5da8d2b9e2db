/*
 * Levels inside the node (issue 18, MPI-free part): which kinds of domain
 * VINE_NODE_LEVELS asks for, and how rank 0 of a communicator turns what
 * every rank found (the NUMA node, package and shared cache its binding lies
 * in, src/api/levels_hwloc.h) into levels below the node of a level map.
 *
 * A kind becomes a level only when every rank lies inside one domain of it
 * (a rank bound across two NUMA nodes leaves the NUMA kind out for the whole
 * communicator), when it splits some node (a kind whose groups are the
 * nodes everywhere, or single ranks everywhere, is left out) and when it
 * nests with the kinds taken before it, in the order numa, package, cache.
 * Kinds with the same groups become one level ("numa=cache").  The levels
 * are ordered finest first, and the coarsest of them nests in the node by
 * construction (a domain's group is the pair node, domain).
 *
 * Docs: docs/topology-files.md, "Levels inside the node".
 */
#ifndef VINE_COLL_LEVELS_INNER_H
#define VINE_COLL_LEVELS_INNER_H

#include <stddef.h>

enum vine_inner_kind { VINE_INNER_NUMA, VINE_INNER_PACKAGE, VINE_INNER_CACHE, VINE_INNER_KINDS };

/* What a rank reports for a kind instead of a domain (ids >= 0). */
enum {
    VINE_INNER_UNBOUND = -1, /* its binding is not inside one domain of the kind */
    VINE_INNER_ABSENT = -2   /* the machine has no domain of the kind */
};

/* "numa", "package", "cache"; "?" for anything else. */
const char *vine__inner_name(int kind);

/*
 * Parses a VINE_NODE_LEVELS value into a mask of kinds (bit k: kind k):
 * NULL, "" and "none" give 0; "all" every kind; else a comma-separated list
 * of numa, package and cache.  Returns 0, or -1 with one line in err.
 */
int vine__inner_parse(const char *value, int *mask, char *err, size_t errlen);

/*
 * Rank 0's plan.  In: p ranks, node[r] rank r's node (dense ids 0 .. nodes-1),
 * dom[k * p + r] rank r's domain of kind k (an id >= 0 unique on its node's
 * machine, or VINE_INNER_UNBOUND / VINE_INNER_ABSENT), want the mask of kinds
 * asked for, room the most levels that may be added.  Out: *nsub levels
 * (0 .. room), finest first, in out[l * p + r] (room * p entries; group ids
 * >= 0, not dense), kinds[l] the mask of kinds each level stands for, and
 * one line in msg saying what was found or why a kind was left out.
 * Returns 0, or -1 when out of memory (msg says so).  O(kinds p log p).
 */
int vine__inner_plan(int p, const int *node, const int *dom, int want, int room, int *out,
                     int *kinds, int *nsub, char *msg, size_t msglen);

/* Writes "numa=cache" (the kinds of mask joined by '=') into buf. */
void vine__inner_kinds_text(int mask, char *buf, size_t len);

#endif
