/*
 * Presets: the four machines of the Bine paper (../shared/papers/bine-trees.txt
 * section 5), each built by one generator of topo_gen.c.  What comes from
 * the paper or a public source, and what is assumed, is written beside each
 * preset here and in docs/topology.md; the unit test checks the host and
 * group counts given in the table.  All build in milliseconds.
 */
#include "topo_gen.h"

#include <string.h>

/*
 * lumi: LUMI-G, HPE Slingshot-11 dragonfly.  Paper: 24 groups of 124 nodes.
 * Public: Rosetta switches of 64 ports, 32 per group, each with 16 ports to
 * NICs, 31 to the other switches of the group and 17 global; LUMI-G nodes
 * have 4 NICs of 200 Gb/s.  Assumed: a node's 4 NICs are one host link of
 * 100 GB/s on one switch, 4 nodes (16 NIC ports) per switch, 124 nodes
 * fill the first 31 switches; all 17 global ports are cabled.
 */
static void lumi_links(vine_topo_linkparams *lp)
{
    vine__topo_linkparams_default(lp);
    lp->host_bw = 4 * 25e9;
}
static int lumi_build(vine_topo *t, const vine_topo_linkparams *lp, char *err, size_t errlen)
{
    return vine__topo_gen_dragonfly(t, 32, 4, 17, 24, 124, lp, err, errlen);
}

/*
 * leonardo: Leonardo, InfiniBand HDR Dragonfly+.  Paper: 23 groups of 180
 * nodes, each group a two-level fat tree.  Public: Quantum HDR switches of
 * 40 ports at 200 Gb/s; Booster nodes have 2 dual-port HDR NICs (400 Gb/s).
 * Assumed: 18 leaves of 10 nodes (20 NIC ports) and 18 spines per group,
 * each spine with 18 ports down and 22 global, one 50 GB/s host link per node.
 */
static void leonardo_links(vine_topo_linkparams *lp)
{
    vine__topo_linkparams_default(lp);
    lp->host_bw = 2 * 25e9;
}
static int leonardo_build(vine_topo *t, const vine_topo_linkparams *lp, char *err, size_t errlen)
{
    return vine__topo_gen_dragonflyplus(t, 23, 18, 18, 10, 22, lp, err, errlen);
}

/*
 * marenostrum5: MareNostrum 5 ACC, InfiniBand NDR200 fat tree.  Paper: 2:1
 * oversubscribed, full-bandwidth subtrees of 160 nodes, jobs spanning up to
 * eight subtrees; 4 NICs of 200 Gb/s per node.  Assumed: 8 subtrees, each
 * 8 leaves of 20 nodes under 20 subtree spines (1:1), each spine with 4
 * uplinks to 80 core switches (8:4 = 2:1); every modelled link stands for
 * the 4 links of the 4 NICs' rails, 100 GB/s.
 */
static void mn5_links(vine_topo_linkparams *lp)
{
    vine__topo_linkparams_default(lp);
    lp->host_bw = lp->local_bw = lp->global_bw = 4 * 25e9;
}
static int mn5_build(vine_topo *t, const vine_topo_linkparams *lp, char *err, size_t errlen)
{
    static const int down[3] = {20, 8, 8}, up[2] = {20, 4};
    return vine__topo_gen_fattree(t, 3, down, up, 1, lp, err, errlen);
}

/*
 * fugaku: Fugaku, Tofu Interconnect D.  Paper: a 6D torus of which a job
 * gets a 3D slice; six TNIs of 54.4 Gb/s (6.8 GB/s) per node (section 5.4);
 * jobs up to 8x8x8 in 3D.  Assumed: a 16x16x16 torus (4096 nodes, room for
 * 100,000 ranks at 25 per node; A64FX has 48 cores), each torus link one
 * Tofu-D link of 6.8 GB/s, host link the six TNIs together, 40.8 GB/s, as
 * six ports of 6.8 GB/s: one per direction of the 3D torus (+x, -x, +y,
 * ...), so that messages to different neighbours share no port.
 */
static void fugaku_links(vine_topo_linkparams *lp)
{
    vine__topo_linkparams_default(lp);
    lp->host_bw = 6 * 6.8e9;
    lp->local_bw = lp->global_bw = 6.8e9;
    lp->ports = 6;
}
static int fugaku_build(vine_topo *t, const vine_topo_linkparams *lp, char *err, size_t errlen)
{
    static const int dims[3] = {16, 16, 16};
    return vine__topo_gen_torus(t, 3, dims, 1, lp, err, errlen);
}

static const vine_topo_preset presets[] = {
    {"lumi", "dragonfly:a=32,p=4,h=17,g=24,n=124,hbw=100e9: 2976 nodes in 24 groups", 2976, 24,
     lumi_links, lumi_build},
    {"leonardo",
     "dragonflyplus:g=23,leaves=18,spines=18,p=10,h=22,hbw=50e9: 4140 nodes in 23 groups", 4140, 23,
     leonardo_links, leonardo_build},
    {"marenostrum5", "fattree:down=20/8/8,up=20/4,glevel=1,bw=100e9: 1280 nodes in 8 subtrees",
     1280, 8, mn5_links, mn5_build},
    {"fugaku", "torus:16x16x16,bw=6.8e9,hbw=40.8e9,ports=6: 4096 nodes", 4096, 4096, fugaku_links,
     fugaku_build},
};

int vine__topo_preset_count(void)
{
    return (int)(sizeof presets / sizeof presets[0]);
}

const vine_topo_preset *vine__topo_preset_at(int i)
{
    return i >= 0 && i < vine__topo_preset_count() ? &presets[i] : NULL;
}

const vine_topo_preset *vine__topo_preset_find(const char *name)
{
    for (int i = 0; i < vine__topo_preset_count(); i++)
        if (strcmp(presets[i].name, name) == 0)
            return &presets[i];
    return NULL;
}
