// WORKLOAD: sssp | irregular | Bellman-Ford-style single-source shortest paths over a weighted random CSR graph: topology-driven rounds, active nodes relax their edges with atomicMin on distances (Lonestar-like)
//
// Stands in for LonestarGPU SSSP (CCWS MCS, locality/bypass CNF). N nodes, out-degrees uniform in
// [1, 2*DEG-1], neighbours mostly near the node (a window of +-W) with some uniform long edges, and
// integer weights in [1, 100]. One launch per round: every node is a thread; a node whose distance
// fell in the previous round relaxes its edges with atomicMin(&dist[v], dist[u] + w), marking v
// active for the next round when it lowered dist[v]. Rounds go on until one lowers nothing. The
// distances are a fixpoint whatever the order, so the check against a host Dijkstra is exact.
#define WL_NAME "sssp"
#include "wl.h"

#define INF 0x3fffffff

__global__ void sssp_round(const int *__restrict__ row, const int *__restrict__ col,
                           const int *__restrict__ wgt, int *dist, const int *__restrict__ act_in,
                           int *act_out, int *changed, int n)
{
    int u = blockIdx.x * blockDim.x + threadIdx.x;

    if (u >= n || !act_in[u])
        return;
    int du = dist[u];
    int end = row[u + 1];
    bool any = false;
    for (int e = row[u]; e < end; e++) {
        int v = col[e];
        int nd = du + wgt[e];
        if (nd < dist[v] && atomicMin(&dist[v], nd) > nd) {
            act_out[v] = 1;
            any = true;
        }
    }
    if (any)
        *changed = 1;
}

int main(int argc, char **argv)
{
    wl_size sz = wl_parse_size(argc, argv);
    const int n = wl_pick(sz, 4096, 32768, 1048576);
    const int deg = wl_pick(sz, 4, 4, 6);
    const int win = wl_pick(sz, 256, 1024, 8192);
    const int src = 0;
    wl_rand r(0x555);

    int *row = (int *)malloc((n + 1) * sizeof(int));
    row[0] = 0;
    for (int u = 0; u < n; u++)
        row[u + 1] = row[u] + 1 + (int)r.below(2 * deg - 1);
    int m = row[n];
    int *col = (int *)malloc(m * sizeof(int));
    int *wgt = (int *)malloc(m * sizeof(int));
    for (int u = 0; u < n; u++)
        for (int e = row[u]; e < row[u + 1]; e++) {
            int v;
            if (r.below(8) == 0) {
                v = (int)r.below(n);
            } else {
                v = u + (int)r.below(2 * win + 1) - win;
                v = v < 0 ? v + n : v >= n ? v - n : v;
            }
            col[e] = v;
            wgt[e] = 1 + (int)r.below(100);
        }

    // Host reference: Dijkstra with a binary heap (lazy deletion).
    int *want = (int *)malloc(n * sizeof(int));
    for (int u = 0; u < n; u++)
        want[u] = INF;
    struct hent {
        int d, u;
    };
    hent *heap = (hent *)malloc((m + 1) * sizeof(hent));
    int hn = 0;
    auto push = [&](int d, int u) {
        int i = hn++;
        while (i > 0 && heap[(i - 1) / 2].d > d) {
            heap[i] = heap[(i - 1) / 2];
            i = (i - 1) / 2;
        }
        heap[i] = {d, u};
    };
    auto pop = [&]() {
        hent top = heap[0], last = heap[--hn];
        int i = 0;
        for (;;) {
            int c = 2 * i + 1;
            if (c >= hn)
                break;
            if (c + 1 < hn && heap[c + 1].d < heap[c].d)
                c++;
            if (heap[c].d >= last.d)
                break;
            heap[i] = heap[c];
            i = c;
        }
        heap[i] = last;
        return top;
    };
    want[src] = 0;
    push(0, src);
    while (hn) {
        hent t = pop();
        if (t.d > want[t.u])
            continue;
        for (int e = row[t.u]; e < row[t.u + 1]; e++)
            if (t.d + wgt[e] < want[col[e]]) {
                want[col[e]] = t.d + wgt[e];
                push(want[col[e]], col[e]);
            }
    }

    int *d_row, *d_col, *d_wgt, *d_dist, *d_aa, *d_ab, *d_changed;
    WL_CK(cudaMalloc(&d_row, (n + 1) * sizeof(int)));
    WL_CK(cudaMalloc(&d_col, m * sizeof(int)));
    WL_CK(cudaMalloc(&d_wgt, m * sizeof(int)));
    WL_CK(cudaMalloc(&d_dist, n * sizeof(int)));
    WL_CK(cudaMalloc(&d_aa, n * sizeof(int)));
    WL_CK(cudaMalloc(&d_ab, n * sizeof(int)));
    WL_CK(cudaMalloc(&d_changed, sizeof(int)));
    WL_CK(cudaMemcpy(d_row, row, (n + 1) * sizeof(int), cudaMemcpyHostToDevice));
    WL_CK(cudaMemcpy(d_col, col, m * sizeof(int), cudaMemcpyHostToDevice));
    WL_CK(cudaMemcpy(d_wgt, wgt, m * sizeof(int), cudaMemcpyHostToDevice));
    int *h_dist = (int *)malloc(n * sizeof(int));
    for (int u = 0; u < n; u++)
        h_dist[u] = u == src ? 0 : INF;
    WL_CK(cudaMemcpy(d_dist, h_dist, n * sizeof(int), cudaMemcpyHostToDevice));
    WL_CK(cudaMemset(d_aa, 0, n * sizeof(int)));
    WL_CK(cudaMemset(d_ab, 0, n * sizeof(int)));
    int one = 1;
    WL_CK(cudaMemcpy(d_aa + src, &one, sizeof(int), cudaMemcpyHostToDevice));

    const int bs = 256;
    int rounds = 0, changed = 1;
    while (changed) {
        if (rounds > n)
            wl_fail("no convergence after %d rounds", rounds);
        WL_CK(cudaMemset(d_changed, 0, sizeof(int)));
        sssp_round<<<(n + bs - 1) / bs, bs>>>(d_row, d_col, d_wgt, d_dist, d_aa, d_ab, d_changed, n);
        WL_LAUNCH_CK();
        WL_CK(cudaMemcpy(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost));
        WL_CK(cudaMemset(d_aa, 0, n * sizeof(int)));
        int *t = d_aa;
        d_aa = d_ab;
        d_ab = t;
        rounds++;
    }

    WL_CK(cudaMemcpy(h_dist, d_dist, n * sizeof(int), cudaMemcpyDeviceToHost));
    int reached = 0;
    for (int u = 0; u < n; u++) {
        if (h_dist[u] != want[u])
            wl_fail("dist[%d] = %d, want %d", u, h_dist[u], want[u]);
        reached += want[u] < INF;
    }
    fprintf(stderr, "sssp: %d nodes, %d edges, %d rounds, %d reached\n", n, m, rounds, reached);
    return wl_pass();
}
