// BFS on a random CSR graph, two ways: (1) level-synchronous sweep over all
// vertices with a "changed" flag polled by the host; (2) queue-based, where
// each level's frontier is pushed into the next queue with atomicAdd and
// parents are claimed with atomicCAS. Irregular loops (per-vertex degree),
// data-dependent branches. Distances must equal a host BFS exactly; every
// parent must be a neighbour one level closer.
#define TEST_NAME "bfs"
#include "common.h"
#include <vector>

__global__ void bfs_sweep(int nv, const int *row, const int *col, int *dist, int level,
                          int *changed)
{
    for (int v = blockIdx.x * blockDim.x + threadIdx.x; v < nv; v += blockDim.x * gridDim.x) {
        if (dist[v] != level)
            continue;
        for (int e = row[v]; e < row[v + 1]; e++) {
            int u = col[e];
            if (dist[u] < 0) {
                dist[u] = level + 1; // every writer stores the same value
                *changed = 1;
            }
        }
    }
}

__global__ void bfs_queue(const int *row, const int *col, const int *in, int in_n, int *out,
                          int *out_n, int *parent, int *dist, int level)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    if (i >= in_n)
        return;
    int v = in[i];
    for (int e = row[v]; e < row[v + 1]; e++) {
        int u = col[e];
        if (atomicCAS(&parent[u], -1, v) == -1) {
            dist[u] = level + 1;
            out[atomicAdd(out_n, 1)] = u;
        }
    }
}

int main()
{
    const int nv = 3000;
    std::vector<std::vector<int>> adj(nv);
    uint32_t seed = 2024;

    // Vertices 2900.. are isolated from the rest (a small ring of their own).
    for (int e = 0; e < 9000; e++) {
        int a = rng_next(&seed) % 2900, b = rng_next(&seed) % 2900;
        if (a == b)
            continue;
        adj[a].push_back(b);
        adj[b].push_back(a);
    }
    for (int v = 2900; v < nv; v++)
        adj[v].push_back(v + 1 < nv ? v + 1 : 2900);
    std::vector<int> row(nv + 1), col;
    for (int v = 0; v < nv; v++) {
        row[v] = (int)col.size();
        col.insert(col.end(), adj[v].begin(), adj[v].end());
    }
    row[nv] = (int)col.size();

    // Host reference.
    std::vector<int> want(nv, -1), q;
    want[0] = 0;
    q.push_back(0);
    for (size_t h = 0; h < q.size(); h++)
        for (int u : adj[q[h]])
            if (want[u] < 0) {
                want[u] = want[q[h]] + 1;
                q.push_back(u);
            }

    int *drow, *dcol, *ddist, *dchanged, *dparent, *dq[2], *dqn;
    std::vector<int> dist(nv), parent(nv);
    CK(cudaMalloc(&drow, (nv + 1) * sizeof(int)));
    CK(cudaMalloc(&dcol, col.size() * sizeof(int)));
    CK(cudaMalloc(&ddist, nv * sizeof(int)));
    CK(cudaMalloc(&dchanged, sizeof(int)));
    CK(cudaMalloc(&dparent, nv * sizeof(int)));
    CK(cudaMalloc(&dq[0], nv * sizeof(int)));
    CK(cudaMalloc(&dq[1], nv * sizeof(int)));
    CK(cudaMalloc(&dqn, sizeof(int)));
    CK(cudaMemcpy(drow, row.data(), (nv + 1) * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dcol, col.data(), col.size() * sizeof(int), cudaMemcpyHostToDevice));

    // (1) sweep
    CK(cudaMemset(ddist, 0xff, nv * sizeof(int)));
    CK(cudaMemset(ddist, 0, sizeof(int)));
    int level = 0, changed = 1;
    while (changed && level < nv) {
        changed = 0;
        CK(cudaMemcpy(dchanged, &changed, sizeof(int), cudaMemcpyHostToDevice));
        bfs_sweep<<<8, 128>>>(nv, drow, dcol, ddist, level, dchanged);
        CK(cudaGetLastError());
        CK(cudaMemcpy(&changed, dchanged, sizeof(int), cudaMemcpyDeviceToHost));
        level++;
    }
    CK(cudaMemcpy(dist.data(), ddist, nv * sizeof(int), cudaMemcpyDeviceToHost));
    for (int v = 0; v < nv; v++)
        expect_eq("sweep dist", v, dist[v], want[v]);

    // (2) queue
    int zero = 0, n_in = 1;
    CK(cudaMemset(ddist, 0xff, nv * sizeof(int)));
    CK(cudaMemset(dparent, 0xff, nv * sizeof(int)));
    CK(cudaMemset(ddist, 0, sizeof(int)));
    CK(cudaMemset(dparent, 0, sizeof(int))); // the root is its own parent
    CK(cudaMemcpy(dq[0], &zero, sizeof(int), cudaMemcpyHostToDevice));
    for (level = 0; n_in > 0 && level < nv; level++) {
        CK(cudaMemset(dqn, 0, sizeof(int)));
        bfs_queue<<<(n_in + 63) / 64, 64>>>(drow, dcol, dq[level & 1], n_in, dq[(level + 1) & 1],
                                            dqn, dparent, ddist, level);
        CK(cudaGetLastError());
        CK(cudaMemcpy(&n_in, dqn, sizeof(int), cudaMemcpyDeviceToHost));
    }
    CK(cudaMemcpy(dist.data(), ddist, nv * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(parent.data(), dparent, nv * sizeof(int), cudaMemcpyDeviceToHost));
    for (int v = 0; v < nv; v++) {
        expect_eq("queue dist", v, dist[v], want[v]);
        if (v == 0 || want[v] < 0) {
            expect_eq("parent", v, parent[v], v == 0 ? 0 : -1);
            continue;
        }
        int p = parent[v];
        bool ok = p >= 0 && p < nv && want[p] == want[v] - 1;
        if (ok) {
            ok = false;
            for (int u : adj[v])
                ok = ok || u == p;
        }
        if (!ok)
            fail("parent[%d] = %d is not a neighbour one level closer", v, p);
    }
    CK(cudaFree(drow));
    CK(cudaFree(dcol));
    CK(cudaFree(ddist));
    CK(cudaFree(dchanged));
    CK(cudaFree(dparent));
    CK(cudaFree(dq[0]));
    CK(cudaFree(dq[1]));
    CK(cudaFree(dqn));
    return finish();
}
