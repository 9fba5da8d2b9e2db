/* Placeholder until the BBS broadcast lands. */
#include "../coll.h"

int vine__bbs_env_nodes(void)
{
    return -1;
}

int vine__bcast_bbs_build(const vine_args *a, vine_sched *s)
{
    (void)a;
    (void)s;
    return VINE_ERR_UNSUPPORTED;
}
