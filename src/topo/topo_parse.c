/* Placeholder until the generators land. */
#include "topo.h"

#include <stdio.h>

int vine__topo_parse(const char *spec, vine_topo *t, char *err, size_t errlen)
{
    (void)t;
    snprintf(err, errlen, "%s: topology specs are not built yet", spec);
    return VINE_ERR_UNSUPPORTED;
}

int vine__topo_describe(const vine_topo *t, char *out, size_t len)
{
    snprintf(out, len, "%d vertices", t->nvert);
    return VINE_OK;
}
