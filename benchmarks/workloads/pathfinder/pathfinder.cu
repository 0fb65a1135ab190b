// WORKLOAD: pathfinder | regular-memory | row-by-row dynamic programming (min of three upper neighbours) over a wide grid: shared-memory pyramid of several rows per launch, one coalesced row read per step, a launch per pyramid
//
// A rows x cols grid of costs; the cheapest top-to-bottom path cost to every cell of the
// last row, moving down one row and at most one column per step:
//   D[r][x] = W[r][x] + min(D[r-1][x-1], D[r-1][x], D[r-1][x+1])  (missing edges ignored)
// Each launch advances `ph` rows (a "pyramid"): a 256-thread CTA loads 256 consecutive
// entries of the previous row into shared memory, then for each of the ph rows reads its
// costs (coalesced) and updates in shared memory, the valid region shrinking by one
// column on each side per row; the 256 - 2*ph middle columns are written back. CTAs
// overlap by 2*ph columns (the halo work is recomputed), the kernel alternates global
// reads with barrier-separated shared-memory updates, and rows / ph launches run in
// sequence with ping-pong result buffers.
//
// Check: exact integer comparison with the host DP.
#define WL_NAME "pathfinder"
#include "wl.h"

#include <vector>

#define BS 256

__global__ void k_pyramid(const int *__restrict__ wall, const int *__restrict__ src,
                          int *__restrict__ dst, int cols, int row0, int ph)
{
    __shared__ int prev[BS];
    __shared__ int res[BS];
    int tx = threadIdx.x;
    int small = BS - 2 * ph;
    int x = blockIdx.x * small - ph + tx; // the grid column this thread tracks
    bool inside = x >= 0 && x < cols;

    if (inside)
        prev[tx] = src[x];
    __syncthreads();
    bool computed = false;
    for (int i = 0; i < ph; i++) {
        computed = tx >= i + 1 && tx <= BS - 2 - i && inside;
        if (computed) {
            int best = prev[tx];
            if (x > 0)
                best = min(best, prev[tx - 1]);
            if (x < cols - 1)
                best = min(best, prev[tx + 1]);
            res[tx] = best + wall[(row0 + i) * cols + x];
        }
        __syncthreads();
        if (computed)
            prev[tx] = res[tx];
        __syncthreads();
    }
    if (computed && tx >= ph && tx <= BS - 1 - ph)
        dst[x] = prev[tx];
}

int main(int argc, char **argv)
{
    wl_size sz = wl_parse_size(argc, argv);
    const int cols = wl_pick(sz, 5000, 100000, 100000);
    const int rows = wl_pick(sz, 17, 21, 100);
    const int ph = wl_pick(sz, 4, 5, 20);
    wl_rand rnd(0x5eed0006);
    std::vector<int> wall((size_t)rows * cols);

    for (auto &w : wall)
        w = (int)rnd.below(10);

    int *dwall, *dres[2];
    WL_CK(cudaMalloc(&dwall, wall.size() * sizeof(int)));
    WL_CK(cudaMalloc(&dres[0], cols * sizeof(int)));
    WL_CK(cudaMalloc(&dres[1], cols * sizeof(int)));
    WL_CK(cudaMemcpy(dwall, wall.data(), wall.size() * sizeof(int), cudaMemcpyHostToDevice));
    // Row 0 is the starting cost.
    WL_CK(cudaMemcpy(dres[0], wall.data(), cols * sizeof(int), cudaMemcpyHostToDevice));

    int cur = 0;
    for (int r = 1; r < rows; r += ph) {
        int h = rows - r < ph ? rows - r : ph;
        int small = BS - 2 * h;
        int grid = (cols + small - 1) / small;
        k_pyramid<<<grid, BS>>>(dwall, dres[cur], dres[cur ^ 1], cols, r, h);
        WL_LAUNCH_CK();
        cur ^= 1;
    }
    std::vector<int> got(cols);
    WL_CK(cudaMemcpy(got.data(), dres[cur], cols * sizeof(int), cudaMemcpyDeviceToHost));

    std::vector<int> prev(wall.begin(), wall.begin() + cols), next(cols);
    for (int r = 1; r < rows; r++) {
        for (int x = 0; x < cols; x++) {
            int best = prev[x];
            if (x > 0)
                best = std::min(best, prev[x - 1]);
            if (x < cols - 1)
                best = std::min(best, prev[x + 1]);
            next[x] = best + wall[(size_t)r * cols + x];
        }
        prev.swap(next);
    }
    for (int x = 0; x < cols; x++)
        if (got[x] != prev[x])
            wl_fail("column %d: got %d, want %d", x, got[x], prev[x]);
    cudaFree(dwall);
    cudaFree(dres[0]);
    cudaFree(dres[1]);
    return wl_pass();
}
