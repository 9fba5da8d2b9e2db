/*
 * Virtual sub-communicators (MPI-free): runs any builder for a subset of the
 * ranks and splices its schedule into the schedule of a real rank.  The
 * hierarchical builders use it to run a flat algorithm among the ranks of
 * one level (for example among the ranks with one local index, one per
 * node) without a second copy of that algorithm's rank arithmetic.
 *
 * The sub-schedule is built for sub->rank of sub->p virtual ranks; virtual
 * rank i is the real rank ranks[i].  Each of its three buffers is placed at
 * a position of the real ones (at[VINE_BUF_SEND], at[VINE_BUF_RECV],
 * at[VINE_BUF_TMP]), offsets added; its scratch is declared at its TMP
 * position.  Its rounds become rounds of s, in order, after s's open round
 * is closed; zero-byte synchronisation messages stay.
 *
 * A shared-memory sub-schedule (vine_sched.shm, sched.h) becomes phase k of
 * the shm phases of s: its flag values v are moved to k * VINE_SHM_PHASE + v
 * (each must stay below VINE_SHM_PHASE), and at its end every rank sets
 * (k + 1) * VINE_SHM_PHASE, so that a WAIT for 0 ("the peer is done with
 * what came before") in phase k + 1 waits for that.  All ranks of a node
 * must take part in the same shm phases in the same order; the caller
 * builds them without single copy (peers' buffer positions differ).  At most
 * VINE_SHM_PHASES - 1 phases.
 */
#define VINE_SHM_PHASES 8
#define VINE_SHM_PHASE (VINE_SHM_FLAG_MAX / VINE_SHM_PHASES)
#ifndef VINE_PHASE_SUB_H
#define VINE_PHASE_SUB_H

#include "coll.h"
#include "phase_tree.h"

/*
 * Builds the sub-schedule with build (the registry's restriction flags are
 * not checked: the caller knows its case) and appends it to s.  Returns
 * VINE_OK, VINE_ERR_NO_MEM, or the builder's own status.
 */
int vine__sub_run(vine_sched *s, vine_build_fn build, const vine_args *sub, const int *ranks,
                  const vine_bufpos at[VINE_BUF_COUNT]);

/*
 * Runs n schedules side by side (the multiport algorithms): round k of s
 * holds round k of every part, the messages of all parts posted together,
 * then their local operations, part after part; rounds that no part fills
 * are dropped (unless s keeps its rounds).  The parts are built for s's p
 * and rank over disjoint ranges of the buffers (TMP included), with no
 * shared memory and no parity slots.
 *
 * One tag serves all parts, so two messages from rank x to rank y match in
 * the order x posts its sends and y its receives.  Merged, x posts its
 * sends to y ordered by (round, part, order in the part's round) and y its
 * receives from x by the same key, so they pair up correctly when
 *
 *   1. each part keeps its empty rounds (vine_sched.keep_rounds, set before
 *      it is built): round k of a part is its k-th fence, on every rank;
 *   2. each part's builder fences at the same steps on every rank and puts
 *      every message's send and receive in the same step, so that in each
 *      part and round x sends y exactly the messages y receives from x
 *      there, in the same order (which the part alone, correct with one
 *      tag, guarantees within the round).
 *
 * Rule 1 is checked here; rule 2 is about the other ranks' schedules, which
 * this rank does not see: the builders state it and `vine verify`, which
 * matches the merged schedules' messages, proves it for the shapes it runs.
 * The parts need not have the same number of rounds, nor a message in
 * every round.  Returns VINE_OK, a part's error, or VINE_ERR_INTERNAL for a
 * part that breaks rule 1 or the conditions above.
 */
int vine__sub_zip(vine_sched *s, const vine_sched *parts, int n);

#endif
