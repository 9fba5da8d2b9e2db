/*
 * The hybrid broadcast with frames computed by the caller (hybrid.c), for
 * tools that build several schedules on one graph and root: the LP of
 * vine__bbs_lp is by far the dearest part (seconds on 1024 nodes), and it
 * depends on neither the packet count nor the start-up.  MPI-free.
 */
#ifndef VINE_BBS_HYBRID_H
#define VINE_BBS_HYBRID_H

#include "bbs_int.h"

/*
 * vine__bcast_hybrid with frames = vine__bbs_frames of vine__bbs_lp(g, root,
 * !bipartite) (NULL: computed here).  The frames must belong to this g and
 * root.
 */
int vine__bcast_hybrid_frames(const vine_graph *g, int root, int npackets,
                              const vine_bbs_frames *frames, vine_bsched *out, char *err,
                              size_t errlen);

#endif
