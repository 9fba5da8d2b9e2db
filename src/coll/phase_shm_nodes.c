/*
 * The frame of the rooted hierarchical shm algorithms (see phase_shm_nodes.h).
 */
#include "phase_shm_nodes.h"

#include <stdlib.h>

int vine__shm_nodes_init(const vine_args *a, vine_shm_nodes *f)
{
    const vine_levels *lv = a->levels;
    f->node = vine__levels_group(lv, 0, a->rank);
    f->local = vine__levels_local(lv, 0, a->rank);
    f->members = vine__levels_members(lv, 0, f->node, &f->m);
    f->nnodes = vine__levels_ngroups(lv, 0);
    f->root_node = vine__levels_group(lv, 0, a->root);
    f->rep = f->node == f->root_node ? vine__levels_local(lv, 0, a->root) : 0;
    f->reps = malloc((size_t)f->nnodes * sizeof *f->reps);
    f->first = malloc(((size_t)f->nnodes + 1) * sizeof *f->first);
    if (!f->reps || !f->first)
        return VINE_ERR_NO_MEM;
    f->first[0] = 0;
    for (int g = 0; g < f->nnodes; g++) {
        f->reps[g] = g == f->root_node ? a->root : vine__levels_leader(lv, 0, g);
        f->first[g + 1] = f->first[g] + vine__levels_size(lv, 0, g);
    }
    return VINE_OK;
}

void vine__shm_nodes_free(vine_shm_nodes *f)
{
    free(f->reps);
    free(f->first);
    f->reps = NULL;
    f->first = NULL;
}

void vine__shm_nodes_enter(vine_sched *s, const vine_args *a)
{
    if (!a->shm_count || s->shm_phases != 0)
        return;
    vine__sched_fence(s);
    for (int q = 0; q < a->p; q++)
        if (q != a->rank)
            vine__sched_wait(s, q, 0);
}

/* a, for a virtual communicator of p ranks in which a->rank is rank, rooted at root. */
static vine_args sub_args(const vine_args *a, vine_coll coll, int p, int rank, int root,
                          size_t count, int inplace)
{
    vine_args sub = *a;
    sub.coll = coll;
    sub.p = p;
    sub.rank = rank;
    sub.root = root;
    sub.count = count;
    sub.inplace = inplace;
    sub.counts = NULL;
    sub.displs = NULL;
    sub.levels = NULL;
    sub.levels_full = NULL;
    sub.remap = 0;
    sub.shm_count = 0;
    sub.shm_single = 0;
    sub.shm_node_count = 0;
    return sub;
}

int vine__shm_nodes_in_node(vine_sched *s, const vine_args *a, const vine_shm_nodes *f,
                            vine_coll coll, vine_build_fn build, size_t count, int inplace,
                            const vine_bufpos at[VINE_BUF_COUNT])
{
    vine_args sub = sub_args(a, coll, f->m, f->local, f->rep, count, inplace);
    vine__shm_nodes_enter(s, a);
    sub.shm_count = a->shm_node_count;
    /* The chunks are the shm family's own: the segment size is for the network. */
    sub.seg_count = 0;
    return vine__sub_run(s, build, &sub, f->members, at);
}

int vine__shm_nodes_across(vine_sched *s, const vine_args *a, const vine_shm_nodes *f,
                           vine_coll coll, vine_build_fn build, size_t count, int inplace,
                           const vine_levels *levels, const vine_bufpos at[VINE_BUF_COUNT])
{
    vine_args sub = sub_args(a, coll, f->nnodes, f->node, f->root_node, count, inplace);
    sub.levels = levels;
    return vine__sub_run(s, build, &sub, f->reps, at);
}

int vine__shm_nodes_across_units(vine_sched *s, const vine_args *a, const vine_shm_nodes *f,
                                 vine_coll coll, vine_build_fn build, size_t c, int inplace,
                                 const vine_levels *levels, const vine_bufpos at[VINE_BUF_COUNT])
{
    size_t *units = malloc((size_t)f->nnodes * sizeof *units);
    if (!units)
        return VINE_ERR_NO_MEM;
    for (int g = 0; g < f->nnodes; g++)
        units[g] = (size_t)(f->first[g + 1] - f->first[g]) * c;
    vine_args sub = sub_args(a, coll, f->nnodes, f->node, f->root_node, 0, inplace);
    sub.counts = units;
    sub.levels = levels;
    int rc = vine__sub_run(s, build, &sub, f->reps, at);
    free(units);
    return rc;
}

int vine__shm_nodes_map(const vine_levels *lv, vine_levels *out)
{
    int n = vine__levels_ngroups(lv, 0), L = lv->nlevels;
    int rc = vine__levels_alloc(out, n, L);
    if (rc != VINE_OK)
        return rc;
    for (int g = 0; g < n; g++) {
        int leader = vine__levels_leader(lv, 0, g);
        out->group[g] = g;
        for (int l = 1; l < L; l++)
            out->group[(size_t)l * n + g] = vine__levels_group(lv, l, leader);
    }
    /* Nested and non-negative by construction: only memory can fail. */
    rc = vine__levels_finish(out, NULL, 0);
    if (rc != VINE_OK) {
        vine__levels_free(out);
        return VINE_ERR_NO_MEM;
    }
    return VINE_OK;
}

int vine__shm_nodes_order(const vine_levels *lv, int *rank_at)
{
    int y = 0, ident = 1;
    for (int g = 0; g < vine__levels_ngroups(lv, 0); g++) {
        int k;
        const int *mem = vine__levels_members(lv, 0, g, &k);
        for (int j = 0; j < k; j++, y++) {
            rank_at[y] = mem[j];
            ident = ident && mem[j] == y;
        }
    }
    return ident;
}

void vine__shm_nodes_permute(vine_sched *s, const int *rank_at, int p, size_t c, int nbuf,
                             size_t noff, int rbuf, size_t roff, int to_rank)
{
    for (int y = 0, run; y < p; y += run) {
        run = vine__levels_run(rank_at, y, p);
        size_t at_node = noff + (size_t)y * c, at_rank = roff + (size_t)rank_at[y] * c;
        if (to_rank)
            vine__sched_copy(s, nbuf, at_node, rbuf, at_rank, (size_t)run * c);
        else
            vine__sched_copy(s, rbuf, at_rank, nbuf, at_node, (size_t)run * c);
    }
}

/* The frame of vine__shm_nodes_rooted once f and rank_at are there. */
static int rooted(const vine_args *a, vine_sched *s, const vine_shm_nodes *f, int *rank_at,
                  vine_shm_nodes_root_fn at_root, vine_shm_nodes_rank_fn elsewhere)
{
    vine_levels nodes;
    if (vine__shm_nodes_map(a->levels, &nodes) != VINE_OK)
        return VINE_ERR_NO_MEM;
    int rc;
    if (a->rank == a->root)
        rc = at_root(a, s, f, &nodes, rank_at, vine__shm_nodes_order(a->levels, rank_at));
    else
        rc = elsewhere(a, s, f, &nodes);
    vine__levels_free(&nodes);
    return rc == VINE_OK ? vine__sched_finish(s) : rc;
}

int vine__shm_nodes_rooted(const vine_args *a, vine_sched *s, vine_shm_nodes_root_fn at_root,
                           vine_shm_nodes_rank_fn elsewhere)
{
    vine_shm_nodes f = {0};
    int *rank_at = malloc((size_t)a->p * sizeof *rank_at);
    int rc = rank_at ? vine__shm_nodes_init(a, &f) : VINE_ERR_NO_MEM;
    if (rc == VINE_OK)
        rc = rooted(a, s, &f, rank_at, at_root, elsewhere);
    vine__shm_nodes_free(&f);
    free(rank_at);
    return rc;
}
