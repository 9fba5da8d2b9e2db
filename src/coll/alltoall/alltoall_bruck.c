/*
 * Bruck alltoall (the index algorithm): slot i of rank r starts with r's
 * block for rank r + i (mod p).  Step j = 0 .. ceil(log2 p) - 1, distance
 * d = 2^j, moves every slot whose index has bit j set, packed into one
 * message, from each rank to rank + d, keeping its index; after the last step
 * a block has travelled the sum of its index's bits, so slot i of rank r
 * holds the block of rank r - i for r, which goes to RECV block r - i.
 * Source: Bruck et al. 1997, MPICH's short-message alltoall, Thakur,
 * Rabenseifner and Gropp 2005, section 4.4 (papers/mpich-collectives.txt).
 *
 * MPICH rotates SEND into a working buffer first, unpacks every step's
 * message into it and rotates the result back at the end.  Here the
 * rotations are folded into the steps and most unpacking is skipped: a slot
 * that has not moved yet is packed straight from SEND; a slot whose highest
 * set bit is j (indices [d, 2d)) is done after step j and goes straight into
 * its place in RECV; a slot that moves again at the next step goes from the
 * incoming pack straight into the next one; only a slot that skips a step
 * waits in a working buffer.  A step that moves one slot (p <= 3, or
 * p = 2^j + 1 at the last step) sends it from SEND and receives it into RECV
 * without copies.
 *
 * No restrictions.  Scratch: (p - 5 + 2m) * count elements, m = the largest
 * number of slots one step moves (about p/2); none for p <= 3.
 * Cost: ceil(log2 p) alpha + about (n/2) ceil(log2 p) beta, n = p * count
 * (for p not a power of two the last step moves p - 2^floor(log2 p) slots),
 * plus local copies of about n/2 per step (packing), n (into RECV) and less
 * than n/4 per step for the slots that wait.
 */
#include "../coll.h"
#include "../ranks.h"

typedef struct bruck {
    int p, r;
    size_t c;
    size_t pack; /* TMP offset of the outgoing pack; the working slots start at TMP 0 */
    size_t in;   /* TMP offset of the incoming pack */
} bruck;

/* The number of slot indices in [0, p) with bit d set (d a power of two < p). */
static size_t step_slots(int p, size_t d)
{
    size_t n = (size_t)p, rem = n % (2 * d);
    return n / (2 * d) * d + (rem > d ? rem - d : 0);
}

/* The end of the run of slots with bit d set that starts at lo. */
static size_t run_end(const bruck *b, size_t lo, size_t d)
{
    return (size_t)b->p - lo > d ? lo + d : (size_t)b->p;
}

/*
 * The working copy of slot i, one that waits between two of its moves: its
 * index has a set bit, a clear bit above it and a set bit above that, so
 * i >= 5 (binary 101).
 */
enum { WORK_FIRST = 5 };

static size_t work_off(const bruck *b, size_t i)
{
    return (i - WORK_FIRST) * b->c;
}

/*
 * Packs the slots of step d, in index order: they form runs [lo, lo + d) with
 * lo = d, 3d, 5d, ...  The first slot of a run has no lower bit set, so it
 * has not moved and is still in SEND.  For d > 1, the slots [lo + h, lo + d),
 * h = d/2, have bit h set: they arrived at the previous step and are still in
 * its incoming pack, as its run number lo/d, at lo/2 blocks.  The slots in
 * between have moved before but not at the previous step: they wait in the
 * working buffer.
 */
static void pack(const bruck *b, vine_sched *s, size_t d)
{
    size_t c = b->c, pos = b->pack, h = d / 2;
    for (size_t lo = d; lo < (size_t)b->p; lo += 2 * d) {
        size_t hi = run_end(b, lo, d), mid = h && hi - lo > h ? lo + h : hi;
        size_t blk = (size_t)vine__mod((long)b->r + (long)lo, b->p);
        vine__sched_copy(s, VINE_BUF_SEND, blk * c, VINE_BUF_TMP, pos, c);
        if (mid > lo + 1)
            vine__sched_copy(s, VINE_BUF_TMP, work_off(b, lo + 1), VINE_BUF_TMP, pos + c,
                             (mid - lo - 1) * c);
        vine__sched_copy(s, VINE_BUF_TMP, b->in + lo / 2 * c, VINE_BUF_TMP, pos + (mid - lo) * c,
                         (hi - mid) * c);
        pos += (hi - lo) * c;
    }
}

/*
 * Unpacks the slots received at step d.  The first run, [d, 2d), is done and
 * goes block by block to RECV (slot i to block r - i, so in reverse order).
 * The other runs have a higher bit set; a run with bit 2d set moves again at
 * the next step, whose pack takes it from here, and the rest wait in the
 * working buffer.
 */
static void unpack(const bruck *b, vine_sched *s, size_t d)
{
    size_t c = b->c, pos = b->in;
    for (size_t lo = d; lo < (size_t)b->p; lo += 2 * d) {
        size_t hi = run_end(b, lo, d);
        if (lo == d) {
            for (size_t i = lo; i < hi; i++) {
                size_t blk = (size_t)vine__mod((long)b->r - (long)i, b->p);
                vine__sched_copy(s, VINE_BUF_TMP, pos + (i - lo) * c, VINE_BUF_RECV, blk * c, c);
            }
        } else if (!(lo & 2 * d)) {
            vine__sched_copy(s, VINE_BUF_TMP, pos, VINE_BUF_TMP, work_off(b, lo), (hi - lo) * c);
        }
        pos += (hi - lo) * c;
    }
}

/* The distance after d, or p at the end (without overflowing near INT_MAX). */
static size_t next_dist(int p, size_t d)
{
    return d <= (size_t)p / 2 ? 2 * d : (size_t)p;
}

int vine__alltoall_bruck_build(const vine_args *a, vine_sched *s)
{
    int p = a->p, r = a->rank;
    size_t c = a->count, m = 0;
    for (size_t d = 1; d < (size_t)p; d = next_dist(p, d)) {
        size_t n = step_slots(p, d);
        m = n > m ? n : m;
    }
    size_t work = p > WORK_FIRST ? (size_t)p - WORK_FIRST : 0;
    bruck b = {p, r, c, work * c, (work + m) * c};
    if (m > 1)
        vine__sched_need_tmp(s, (work + 2 * m) * c);
    /* Round 0 copies only: the own block, and the first pack. */
    vine__sched_copy(s, VINE_BUF_SEND, (size_t)r * c, VINE_BUF_RECV, (size_t)r * c, c);
    if (p > 1 && step_slots(p, 1) > 1)
        pack(&b, s, 1);
    vine__sched_fence(s);
    for (size_t d = 1; d < (size_t)p; d = next_dist(p, d)) {
        size_t n = step_slots(p, d), next = next_dist(p, d);
        int to = vine__mod((long)r + (long)d, p), from = vine__mod((long)r - (long)d, p);
        if (n == 1) {
            /* Slot d alone: SEND block r + d = to, and the result for RECV block r - d = from. */
            vine__sched_recv(s, from, VINE_BUF_RECV, (size_t)from * c, c);
            vine__sched_send(s, to, VINE_BUF_SEND, (size_t)to * c, c);
        } else {
            vine__sched_recv(s, from, VINE_BUF_TMP, b.in, n * c);
            vine__sched_send(s, to, VINE_BUF_TMP, b.pack, n * c);
            unpack(&b, s, d);
        }
        /* The next pack joins these copies: it reads the slots just received, in place. */
        if (next < (size_t)p && step_slots(p, next) > 1)
            pack(&b, s, next);
        vine__sched_fence(s);
    }
    return vine__sched_finish(s);
}
