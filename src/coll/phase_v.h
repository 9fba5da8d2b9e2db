/*
 * Helpers of the allgatherv builders (MPI-free): the working vector of
 * irregular blocks in rank order, the copy of blocks into their places in
 * RECV, and the block-by-block Bine allgather on any buffer.
 *
 * The working vector.  The builders move runs of consecutive ranks' blocks
 * in one message, so they want the p blocks packed in rank order: block i at
 * off[i] = base + rcounts[0] + ... + rcounts[i-1].  Message boundaries
 * depend on rcounts alone (the same on every rank), so each rank picks its
 * working buffer for itself: RECV when its rdispls already lay the blocks
 * out that way (rdispls[i] = base + prefix sum for every block of nonzero
 * count, the MPI_Allgather layout with any base), else TMP (base 0), whose
 * blocks are copied to their places in RECV at the end, gaps left alone.
 */
#ifndef VINE_PHASE_V_H
#define VINE_PHASE_V_H

#include "coll.h"
#include "phase_bine_block.h"

#include <stddef.h>

typedef struct vine__vwork {
    int buf;     /* VINE_BUF_RECV or VINE_BUF_TMP */
    size_t *off; /* p + 1 entries: block i at buf[off[i], off[i + 1]) */
    /* This rank's input: SEND[0] or, in place, RECV[rdispls[rank]]. */
    int own_buf;
    size_t own_off;
    /* The input is not at buf[off[rank]], so it must be sent from and copied there. */
    int away;
} vine__vwork;

/*
 * Fills w for a's allgatherv and declares the scratch when the working
 * vector lies in TMP.  Returns VINE_OK or VINE_ERR_NO_MEM.
 */
int vine__vwork_init(vine__vwork *w, const vine_args *a, vine_sched *s);
void vine__vwork_free(vine__vwork *w);

/*
 * Copies p blocks lying packed in sbuf from sbase on, in the order of ranks
 * first, first + 1, ... (mod p), to their places RECV[rdispls[i]], one COPY
 * per run of blocks that are adjacent in RECV too.  Block `skip` (-1: none)
 * is left out.
 */
void vine__v_copy_out(const vine_args *a, vine_sched *s, int sbuf, size_t sbase, int first,
                      int skip);

/*
 * When the working vector lies in TMP: copies its blocks to RECV (the own
 * block too unless it is in place already).  Nothing otherwise.
 */
void vine__vwork_finish(const vine__vwork *w, const vine_args *a, vine_sched *s);

#endif
