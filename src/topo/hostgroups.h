/*
 * Host groups (MPI-free): the groups a host belongs to above itself, finest
 * first (its switch, then its rack or Dragonfly group ...), from what the user
 * has, named by the VINE_TOPOLOGY setting.  The API layer looks up the
 * processor name of every rank of a communicator to discover the levels of
 * hierarchical collectives (src/api/levels_mpi.c; docs/topology-files.md,
 * "Levels for hierarchical collectives").
 *
 *   SPEC := "map:" FILE            host-to-groups map (below)
 *         | "slurm:" FILE          Slurm topology.conf (topo_read_slurm.c)
 *         | "ibnet:" FILE          ibnetdiscover output (topo_read_ibnet.c)
 *         | FILE                   one of the three, told apart by its first
 *                                  line that is neither blank nor a comment
 *         | "regex:" ERE           hostname rule: each capture group a level
 *         | "block:" N ("," N)* [":" ERE]
 *                                  node numbers in blocks of N form a group
 *         | "torus:" D ("x" D)* [":" ERE]
 *                                  the nodes form a torus D0 x D1 x ...
 *
 * The map: one host per line, "HOST GROUP1 [GROUP2 ...]", white space
 * between fields, '#' to the end of the line a comment, blank lines skipped.
 * HOST may be a Slurm hostlist ("nid[0001-0016]").  GROUP1 is the finest
 * group (a switch), each next one coarser.  Every line names the same number
 * of groups; a host is listed once.
 *
 * Slurm: a node's path is the leaf switch that first lists it, then that
 * switch's parents up to a top switch (a switch that is nobody's child),
 * each switch's parent being the first switch one step closer to the top.
 * Paths are aligned at the top: a node whose leaf is nearer the top than the
 * deepest leaves repeats its leaf at the levels below.
 *
 * ibnetdiscover: a host's path is the first switch it is linked to, then its
 * group as the reader defines it (a pod of a fat tree, a Dragonfly+ group).
 *
 * regex: a POSIX extended expression with k >= 1 capture groups, matched
 * against the whole host name; each group gives a level, the last group the
 * finest.  A level's group is named by its capture and all the captures
 * before it, so the levels nest: "^x([0-9]+)c([0-9]+)s" puts x1000c3s7b0n0
 * in group "1000/3" at level 1 (its chassis) and "1000" at level 2 (its
 * cabinet).
 *
 * block: the ERE has one capture group holding a decimal number n (default
 * "([0-9]+)[^0-9]*$": the last number in the name); level j's group is
 * n / (N1 * ... * Nj).  "block:16" puts nid0000 .. nid0015 in group 0;
 * "block:16,4" adds a level of 64 nodes.
 *
 * torus: node number n (as for block) lies at the row-major coordinates of
 * n, so its groups are those of "block:Dk-1,...,D1" (its line of the last
 * dimension, then its plane ...), one group of all for a single dimension;
 * a number of D0 x ... x Dk-1 or more is an error.  The caller marks the
 * level map as a torus network (levels_mpi.c).
 *
 * Host names are matched as given and, failing that, cut at their first '.'
 * (a fully qualified name finds its short one).  At most VINE_HOSTGROUPS_MAX
 * levels.  Errors come back as VINE_ERR_UNSUPPORTED with one line in err,
 * "FILE:LINE: problem" for a malformed file (the readers' messages for Slurm
 * and ibnetdiscover files); VINE_ERR_NO_MEM.  Nothing aborts or prints.
 */
#ifndef VINE_TOPO_HOSTGROUPS_H
#define VINE_TOPO_HOSTGROUPS_H

#include <stddef.h>

/* Levels above the host; the node itself is one more level for the caller. */
#define VINE_HOSTGROUPS_MAX 7

typedef struct vine_hostgroups vine_hostgroups;

/*
 * Reads or compiles spec into *hg (NULL on failure).  Reading a file costs
 * linear time in it; lookups are then a hash probe (files) or a regex match.
 */
int vine__hostgroups_open(const char *spec, vine_hostgroups **hg, char *err, size_t errlen);
void vine__hostgroups_free(vine_hostgroups *hg);

/* The levels every lookup gives, 1 .. VINE_HOSTGROUPS_MAX. */
int vine__hostgroups_nlevels(const vine_hostgroups *hg);

/* "map", "slurm", "ibnet", "regex", "block" or "torus": what spec turned out to be. */
const char *vine__hostgroups_kind(const vine_hostgroups *hg);

/*
 * The groups of host, finest first: names[0 .. nlevels-1] point into buf,
 * which receives the names one after another, NUL-terminated.  Returns
 * VINE_OK; VINE_ERR_UNSUPPORTED when the host is not in the file or does not
 * match the rule, or buf is too small, with one line in err.
 */
int vine__hostgroups_lookup(const vine_hostgroups *hg, const char *host, char *buf, size_t buflen,
                            const char **names, char *err, size_t errlen);

#endif
