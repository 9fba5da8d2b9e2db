/*
 * Readers of topology files users already have (MPI-free), used by
 * vine__topo_parse for the edges:, slurm:, ibnet: and simgrid: specs.
 * Each builds *t (initialised by the caller with vine__topo_init and
 * finished here with vine__topo_finish) and returns VINE_OK, or
 * VINE_ERR_UNSUPPORTED with "FILE:LINE: problem" in err for a malformed or
 * unreadable file, or VINE_ERR_NO_MEM.  They never abort on any input.
 *
 *   edges:   one link per line "A B [bw=BYTES/s] [lat=SECONDS] [level=host|local|global]",
 *            '#' comments; vertex names that appear in a "host NAME [group=G]"
 *            line are hosts, every other name is a switch ("switch NAME
 *            [group=G]" sets a switch's group)
 *   slurm:   Slurm topology.conf for the tree plugin: SwitchName=... Switches=...
 *            Nodes=... with hostlist expressions (LinkSpeed= optional)
 *   ibnet:   the text output of ibnetdiscover (Switch / Ca blocks, port lines)
 *   simgrid: a SimGrid platform XML holding <cluster topology="DRAGONFLY|FAT_TREE|TORUS"
 *            topo_parameters=... radical=...> elements
 */
#ifndef VINE_TOPO_READ_H
#define VINE_TOPO_READ_H

#include "topo.h"

int vine__topo_read_edges(const char *path, vine_topo *t, char *err, size_t errlen);
int vine__topo_read_slurm(const char *path, vine_topo *t, char *err, size_t errlen);
int vine__topo_read_ibnet(const char *path, vine_topo *t, char *err, size_t errlen);
int vine__topo_read_simgrid(const char *path, vine_topo *t, char *err, size_t errlen);

#endif
