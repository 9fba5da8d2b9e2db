/* Placeholder until the simulator lands. */
#include "sim.h"

#include <stdio.h>

int vine__router_new(const vine_topo *t, vine_router **out)
{
    (void)t;
    *out = NULL;
    return VINE_ERR_UNSUPPORTED;
}

void vine__router_free(vine_router *r)
{
    (void)r;
}

int vine__sim_run(vine_router *r, const int *rank_host, const vine_algo *algo, const vine_args *a,
                  size_t elem_bytes, vine_sim_result *res, char *err, size_t errlen)
{
    (void)r;
    (void)rank_host;
    (void)algo;
    (void)a;
    (void)elem_bytes;
    (void)res;
    snprintf(err, errlen, "the simulator is not built yet");
    return VINE_ERR_UNSUPPORTED;
}
