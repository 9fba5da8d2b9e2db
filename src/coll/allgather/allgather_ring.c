/* STUB: to be replaced by the real builder. */
#include "../coll.h"

int vine__allgather_ring_build(const vine_args *a, vine_sched *s)
{
    (void)a;
    (void)s;
    return VINE_ERR_UNSUPPORTED;
}
