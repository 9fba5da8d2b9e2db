/* Placeholder until the readers land. */
#include "topo_read.h"

#include <stdio.h>

static int todo(const char *path, char *err, size_t errlen)
{
    snprintf(err, errlen, "%s: this reader is not built yet", path);
    return VINE_ERR_UNSUPPORTED;
}

int vine__topo_read_edges(const char *path, vine_topo *t, char *err, size_t errlen)
{
    (void)t;
    return todo(path, err, errlen);
}
int vine__topo_read_slurm(const char *path, vine_topo *t, char *err, size_t errlen)
{
    (void)t;
    return todo(path, err, errlen);
}
int vine__topo_read_ibnet(const char *path, vine_topo *t, char *err, size_t errlen)
{
    (void)t;
    return todo(path, err, errlen);
}
int vine__topo_read_simgrid(const char *path, vine_topo *t, char *err, size_t errlen)
{
    (void)t;
    return todo(path, err, errlen);
}
