// Warp shuffles: sum reduction with __shfl_down_sync and __shfl_xor_sync
// (warp sums, then a block sum through shared memory, then atomicAdd into
// one total), a warp-wide inclusive scan with __shfl_up_sync, broadcast with
// __shfl_sync, and sub-warp shuffles (width 8 and 16); block sizes 32 to 1024,
// including 96 (three warps, not a power of two).
#define TEST_NAME "reduce_shuffle"
#include "common.h"

__device__ int warp_sum_down(int v)
{
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, o);
    return v;
}

__global__ void block_sum(const int *in, int n, int *block_out, unsigned long long *total)
{
    __shared__ int warp_sums[32];
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = (blockDim.x + 31) >> 5;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;

    v = warp_sum_down(v);
    if (lane == 0)
        warp_sums[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < nwarps ? warp_sums[lane] : 0;
        for (int o = 16; o > 0; o >>= 1)
            v += __shfl_xor_sync(0xffffffffu, v, o);
        if (lane == 0) {
            block_out[blockIdx.x] = v;
            atomicAdd(total, (unsigned long long)(long long)v);
        }
    }
}

// out: [0] inclusive scan, [1] broadcast of lane 5's input, [2] sum of the
// aligned group of 8 (xor, width 8), [3] value from lane+3 within a group of 16
// (down, width 16: lanes past the group's end keep their own value), [4] value
// from lane-2 (up: lanes 0 and 1 keep their own).
__global__ void warp_ops(const int *in, int *out)
{
    int t = blockIdx.x * 32 + threadIdx.x;
    int v = in[t], s = v;

    for (int o = 1; o < 32; o <<= 1) {
        int u = __shfl_up_sync(0xffffffffu, s, o);
        if ((int)threadIdx.x >= o)
            s += u;
    }
    out[5 * t + 0] = s;
    out[5 * t + 1] = __shfl_sync(0xffffffffu, v, 5);
    int g = v;
    for (int o = 4; o > 0; o >>= 1)
        g += __shfl_xor_sync(0xffffffffu, g, o, 8);
    out[5 * t + 2] = g;
    out[5 * t + 3] = __shfl_down_sync(0xffffffffu, v, 3, 16);
    out[5 * t + 4] = __shfl_up_sync(0xffffffffu, v, 2);
}

int main()
{
    const int n = 10000, warps = 8;
    int *in = new int[n];
    int *din, *dblock, *dout;
    unsigned long long *dtotal, total;
    uint32_t seed = 4242;

    for (int i = 0; i < n; i++)
        in[i] = (int)(rng_next(&seed) % 20001) - 10000;
    CK(cudaMalloc(&din, n * sizeof(int)));
    CK(cudaMemcpy(din, in, n * sizeof(int), cudaMemcpyHostToDevice));

    const int sizes[] = {256, 96, 1024, 32};
    for (int bs : sizes) {
        int blocks = (n + bs - 1) / bs;
        int *bout = new int[blocks];
        CK(cudaMalloc(&dblock, blocks * sizeof(int)));
        CK(cudaMalloc(&dtotal, sizeof(unsigned long long)));
        CK(cudaMemset(dtotal, 0, sizeof(unsigned long long)));
        block_sum<<<blocks, bs>>>(din, n, dblock, dtotal);
        CK_LAUNCH();
        CK(cudaMemcpy(bout, dblock, blocks * sizeof(int), cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(&total, dtotal, sizeof(total), cudaMemcpyDeviceToHost));
        long long want_total = 0;
        for (int b = 0; b < blocks; b++) {
            long long s = 0;
            for (int i = b * bs; i < n && i < (b + 1) * bs; i++)
                s += in[i];
            expect_eq("block_sum", b, bout[b], s);
            want_total += s;
        }
        expect_eq("total", bs, (long long)total, want_total);
        CK(cudaFree(dblock));
        CK(cudaFree(dtotal));
        delete[] bout;
    }

    int *out = new int[warps * 32 * 5];
    CK(cudaMalloc(&dout, warps * 32 * 5 * sizeof(int)));
    warp_ops<<<warps, 32>>>(din, dout);
    CK_LAUNCH();
    CK(cudaMemcpy(out, dout, warps * 32 * 5 * sizeof(int), cudaMemcpyDeviceToHost));
    for (int w = 0; w < warps; w++) {
        const int *v = in + 32 * w;
        int scan = 0;
        for (int l = 0; l < 32; l++) {
            int t = 32 * w + l, g = 0;
            scan += v[l];
            for (int k = l & ~7; k < (l & ~7) + 8; k++)
                g += v[k];
            expect_eq("scan", t, out[5 * t], scan);
            expect_eq("bcast", t, out[5 * t + 1], v[5]);
            expect_eq("xor8", t, out[5 * t + 2], g);
            expect_eq("down16", t, out[5 * t + 3], (l & 15) + 3 < 16 ? v[l + 3] : v[l]);
            expect_eq("up", t, out[5 * t + 4], l >= 2 ? v[l - 2] : v[l]);
        }
    }
    CK(cudaFree(dout));
    CK(cudaFree(din));
    delete[] out;
    delete[] in;
    return finish();
}
