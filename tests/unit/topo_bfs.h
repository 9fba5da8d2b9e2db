/*
 * Test-only helpers (no MPI): hop distances on a finished vine_topo by
 * breadth-first search, for the topology tests' hand-checked shapes.
 */
#ifndef VINE_TEST_TOPO_BFS_H
#define VINE_TEST_TOPO_BFS_H

#include "topo/topo.h"

#include <stdlib.h>

/* dist[v] = links from src to v (-1: unreachable); queue has room for nvert vertices. */
static inline void topo_bfs(const vine_topo *t, int src, int *dist, int *queue)
{
    for (int v = 0; v < t->nvert; v++)
        dist[v] = -1;
    int head = 0, tail = 0;
    dist[src] = 0;
    queue[tail++] = src;
    while (head < tail) {
        int v = queue[head++];
        for (int k = t->adj_start[v]; k < t->adj_start[v + 1]; k++) {
            int w = vine__topo_arc_head(t, t->adj_arc[k]);
            if (dist[w] < 0) {
                dist[w] = dist[v] + 1;
                queue[tail++] = w;
            }
        }
    }
}

/* The sum over ordered host pairs of the shortest distance in links; -1 when out of memory. */
static inline long topo_host_distance_sum(const vine_topo *t)
{
    int *dist = malloc(((size_t)t->nvert + 1) * sizeof *dist);
    int *queue = malloc(((size_t)t->nvert + 1) * sizeof *queue);
    long sum = dist && queue ? 0 : -1;
    for (int h = 0; sum >= 0 && h < t->nhosts; h++) {
        topo_bfs(t, t->host_vert[h], dist, queue);
        for (int g = 0; g < t->nhosts; g++)
            sum += dist[t->host_vert[g]];
    }
    free(dist);
    free(queue);
    return sum;
}

#endif
