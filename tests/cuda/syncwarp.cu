// __syncwarp: warp-synchronous shared-memory exchanges ordered with
// __syncwarp() instead of __syncthreads (a warp-level tree reduction and a
// transpose of a 32x32 tile held one column per lane), and __syncwarp(mask)
// with partial masks inside divergent branches (each half-warp reverses its
// own 16 values). Exact.
#define TEST_NAME "syncwarp"
#include "common.h"

#define WARPS 4

__global__ void warp_sync_ops(const int *in, int *sum, int *transposed, int *halves)
{
    __shared__ int s[WARPS][32];
    __shared__ int tile[WARPS][32][33];
    int w = threadIdx.x / 32, lane = threadIdx.x & 31, g = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[g];

    // tree reduction with __syncwarp between levels
    s[w][lane] = v;
    __syncwarp();
    for (int k = 16; k > 0; k >>= 1) {
        int x = lane < k ? s[w][lane + k] : 0;
        __syncwarp();
        if (lane < k)
            s[w][lane] += x;
        __syncwarp();
    }
    sum[g] = s[w][0];
    __syncwarp();

    // transpose: lane writes column lane, then reads row lane
    for (int r = 0; r < 32; r++)
        tile[w][r][lane] = v * 100 + r;
    __syncwarp();
    unsigned acc = 0;
    for (int c = 0; c < 32; c++)
        acc = acc * 3u + (unsigned)tile[w][lane][c];
    transposed[g] = (int)acc;
    __syncwarp();

    // partial masks: the halves diverge and each syncs only its own lanes
    if (lane < 16) {
        s[w][lane] = v;
        __syncwarp(0x0000ffffu);
        halves[g] = s[w][15 - lane];
    } else {
        s[w][lane] = -v;
        __syncwarp(0xffff0000u);
        halves[g] = s[w][47 - lane];
    }
}

int main()
{
    const int blocks = 2, n = blocks * WARPS * 32;
    int in[n], sum[n], tr[n], hv[n], *din, *dsum, *dtr, *dhv;
    uint32_t seed = 555;

    for (int i = 0; i < n; i++)
        in[i] = (int)(rng_next(&seed) % 1000) - 500;
    CK(cudaMalloc(&din, sizeof(in)));
    CK(cudaMalloc(&dsum, sizeof(sum)));
    CK(cudaMalloc(&dtr, sizeof(tr)));
    CK(cudaMalloc(&dhv, sizeof(hv)));
    CK(cudaMemcpy(din, in, sizeof(in), cudaMemcpyHostToDevice));
    warp_sync_ops<<<blocks, WARPS * 32>>>(din, dsum, dtr, dhv);
    CK_LAUNCH();
    CK(cudaMemcpy(sum, dsum, sizeof(sum), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(tr, dtr, sizeof(tr), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hv, dhv, sizeof(hv), cudaMemcpyDeviceToHost));
    for (int g = 0; g < n; g++) {
        int w0 = g - g % 32, lane = g % 32, s = 0;
        unsigned acc = 0;
        for (int l = 0; l < 32; l++)
            s += in[w0 + l];
        for (int c = 0; c < 32; c++)
            acc = acc * 3u + (unsigned)(in[w0 + c] * 100 + lane);
        expect_eq("warp sum", g, sum[g], s);
        expect_eq("transpose", g, tr[g], (int)acc);
        expect_eq("half reverse", g, hv[g], lane < 16 ? in[w0 + 15 - lane] : -in[w0 + 47 - lane]);
    }
    CK(cudaFree(din));
    CK(cudaFree(dsum));
    CK(cudaFree(dtr));
    CK(cudaFree(dhv));
    return finish();
}
