/* Placeholder until placement and hostlists land. */
#include "topo.h"

#include <stdio.h>

int vine__place(const vine_topo *t, const char *spec, int nranks, int *rank_host, char *err,
                size_t errlen)
{
    (void)t;
    (void)nranks;
    (void)rank_host;
    snprintf(err, errlen, "%s: placement is not built yet", spec);
    return VINE_ERR_UNSUPPORTED;
}

int vine__hostlist_expand(const char *expr, char ***names, int *n, char *err, size_t errlen)
{
    *names = NULL;
    *n = 0;
    snprintf(err, errlen, "%s: hostlists are not built yet", expr);
    return VINE_ERR_UNSUPPORTED;
}

void vine__hostlist_free(char **names, int n)
{
    (void)names;
    (void)n;
}
