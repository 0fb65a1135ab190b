// WORKLOAD: bfs | irregular | level-synchronous BFS over a random CSR graph, one launch per level: each thread walks its frontier node's edge list (uncoalesced, intra-thread spatial reuse), atomics on visited levels
//
// Stands in for Rodinia/SDK BFS (CCWS HCS, DYNCTA type-M, Ctrl-C CS). The graph has N nodes,
// out-degrees uniform in [1, 2*DEG-1], three quarters of the neighbours uniform over the graph
// and a quarter near the node (so neighbouring nodes share neighbours). One kernel per level:
// thread i takes frontier[i], reads its row of col[], and claims unvisited neighbours with
// atomicCAS on level[], appending them to the next frontier with atomicAdd on a counter.
// Levels are deterministic whatever the order, so the check against a host BFS is exact.
#define WL_NAME "bfs"
#include "wl.h"

__global__ void bfs_level(const int *__restrict__ row, const int *__restrict__ col, int *level,
                          const int *__restrict__ frontier, int nfront, int *next, int *nnext,
                          int depth)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    if (i >= nfront)
        return;
    int u = frontier[i];
    int end = row[u + 1];
    for (int e = row[u]; e < end; e++) {
        int v = col[e];
        if (level[v] == -1 && atomicCAS(&level[v], -1, depth + 1) == -1)
            next[atomicAdd(nnext, 1)] = v;
    }
}

int main(int argc, char **argv)
{
    wl_size sz = wl_parse_size(argc, argv);
    const int n = wl_pick(sz, 12288, 98304, 1048576);
    const int deg = wl_pick(sz, 6, 6, 6);
    const int src = 0;
    wl_rand r(0xBF5);

    int *row = (int *)malloc((n + 1) * sizeof(int));
    row[0] = 0;
    for (int u = 0; u < n; u++)
        row[u + 1] = row[u] + 1 + (int)r.below(2 * deg - 1);
    int m = row[n];
    int *col = (int *)malloc(m * sizeof(int));
    for (int u = 0; u < n; u++)
        for (int e = row[u]; e < row[u + 1]; e++) {
            if (r.below(4) == 0) {
                int v = u + (int)r.below(257) - 128;
                col[e] = v < 0 ? v + n : v >= n ? v - n : v;
            } else {
                col[e] = (int)r.below(n);
            }
        }

    // Host reference.
    int *want = (int *)malloc(n * sizeof(int));
    int *q = (int *)malloc(n * sizeof(int));
    for (int u = 0; u < n; u++)
        want[u] = -1;
    int qh = 0, qt = 0;
    want[src] = 0;
    q[qt++] = src;
    while (qh < qt) {
        int u = q[qh++];
        for (int e = row[u]; e < row[u + 1]; e++)
            if (want[col[e]] == -1) {
                want[col[e]] = want[u] + 1;
                q[qt++] = col[e];
            }
    }

    int *d_row, *d_col, *d_level, *d_fa, *d_fb, *d_cnt;
    WL_CK(cudaMalloc(&d_row, (n + 1) * sizeof(int)));
    WL_CK(cudaMalloc(&d_col, m * sizeof(int)));
    WL_CK(cudaMalloc(&d_level, n * sizeof(int)));
    WL_CK(cudaMalloc(&d_fa, n * sizeof(int)));
    WL_CK(cudaMalloc(&d_fb, n * sizeof(int)));
    WL_CK(cudaMalloc(&d_cnt, sizeof(int)));
    WL_CK(cudaMemcpy(d_row, row, (n + 1) * sizeof(int), cudaMemcpyHostToDevice));
    WL_CK(cudaMemcpy(d_col, col, m * sizeof(int), cudaMemcpyHostToDevice));
    WL_CK(cudaMemset(d_level, 0xff, n * sizeof(int)));
    int zero = 0;
    WL_CK(cudaMemcpy(d_level + src, &zero, sizeof(int), cudaMemcpyHostToDevice));
    WL_CK(cudaMemcpy(d_fa, &src, sizeof(int), cudaMemcpyHostToDevice));

    int nfront = 1, depth = 0, levels = 0;
    const int bs = 256;
    while (nfront > 0) {
        if (depth > n)
            wl_fail("no convergence after %d levels", depth);
        WL_CK(cudaMemset(d_cnt, 0, sizeof(int)));
        bfs_level<<<(nfront + bs - 1) / bs, bs>>>(d_row, d_col, d_level, d_fa, nfront, d_fb, d_cnt,
                                                   depth);
        WL_LAUNCH_CK();
        WL_CK(cudaMemcpy(&nfront, d_cnt, sizeof(int), cudaMemcpyDeviceToHost));
        int *t = d_fa;
        d_fa = d_fb;
        d_fb = t;
        depth++;
        levels++;
    }

    int *got = (int *)malloc(n * sizeof(int));
    WL_CK(cudaMemcpy(got, d_level, n * sizeof(int), cudaMemcpyDeviceToHost));
    int reached = 0;
    for (int u = 0; u < n; u++) {
        if (got[u] != want[u])
            wl_fail("level[%d] = %d, want %d", u, got[u], want[u]);
        reached += want[u] >= 0;
    }
    fprintf(stderr, "bfs: %d nodes, %d edges, %d levels, %d reached\n", n, m, levels, reached);
    return wl_pass();
}
