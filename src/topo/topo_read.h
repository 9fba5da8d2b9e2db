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
 *            topo_parameters=... radical=...> elements, or else an explicit graph:
 *            <host>s, <router>s, <link>s and <route>s of one link between
 *            neighbours, as vine__topo_write_simgrid writes (topo_simgrid_zone.h)
 */
#ifndef VINE_TOPO_READ_H
#define VINE_TOPO_READ_H

#include "topo.h"

int vine__topo_read_edges(const char *path, vine_topo *t, char *err, size_t errlen);
int vine__topo_read_slurm(const char *path, vine_topo *t, char *err, size_t errlen);
int vine__topo_read_ibnet(const char *path, vine_topo *t, char *err, size_t errlen);
int vine__topo_read_simgrid(const char *path, vine_topo *t, char *err, size_t errlen);

/*
 * Writes t as a SimGrid 4.1 platform (topo_write_simgrid.c): one zone of the
 * given routing (NULL: "DijkstraCache"; "Dijkstra", "Floyd") with a <host>
 * per host and a <router> per switch in vertex order, a full-duplex <link>
 * per link and a <route> per pair of neighbours; vine__topo_read_simgrid
 * reads it back into the same graph.  Returns VINE_OK, VINE_ERR_UNSUPPORTED
 * with a message in err (the file cannot be written, or t has what the
 * format cannot express: two vertices of one name, a link from a vertex to
 * itself, parallel links of different latencies), or VINE_ERR_NO_MEM.
 */
int vine__topo_write_simgrid(const vine_topo *t, const char *path, const char *routing, char *err,
                             size_t errlen);

/*
 * Writes SimGrid's own cluster of t instead of its graph, so that SimGrid
 * routes it with its cluster's routing: a FAT_TREE for the fat tree
 * generator's trees (Zahavi's PGFT "L;down[];1,up[];1,..", the same tree)
 * and a TORUS for the torus generator's (one router a point with one host:
 * SimGrid joins the hosts themselves, without the host links, and a
 * dimension of 2 has two links a pair), every link of one bandwidth and
 * latency (the torus's host links aside) and the hosts with vine's default
 * names h0, h1 ...  Returns VINE_OK, VINE_ERR_UNSUPPORTED with a message in
 * err (another topology, links that differ, the file cannot be written).
 */
int vine__topo_write_simgrid_cluster(const vine_topo *t, const char *path, char *err,
                                     size_t errlen);

#endif
