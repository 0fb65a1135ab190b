// WORKLOAD: transpose | regular-memory | matrix transpose, naive (coalesced reads, 32-way scattered writes) and shared-memory tiled with padding (coalesced both ways, conflict-free banks)
//
// out (cols x rows) = transpose of in (rows x cols), both row-major, float. Two kernels:
//  - k_naive: one thread per element, 32x8 CTAs; a warp reads 32 consecutive floats of a
//    row (one 128-byte line) and writes them down a column, 32 different lines: write
//    traffic is uncoalesced and each output line is written by 32 different warps.
//  - k_tiled: a 32x32 tile is staged through shared memory declared [32][33], so that
//    the transposed read of the tile hits 32 different banks; reads and writes are both
//    coalesced.
// Dimensions need not be multiples of 32 (edge tiles are guarded); rows * cols < 2^31. Both results
// are compared exactly with the host transpose.
#define WL_NAME "transpose"
#include "wl.h"

#include <vector>

#define TDIM 32
#define BROWS 8

__global__ void k_naive(const float *__restrict__ in, float *__restrict__ out, int rows, int cols)
{
    int c = blockIdx.x * TDIM + threadIdx.x;
    int r0 = blockIdx.y * TDIM + threadIdx.y;

    if (c >= cols)
        return;
#pragma unroll
    for (int k = 0; k < TDIM / BROWS; k++) {
        int r = r0 + k * BROWS;
        if (r < rows)
            out[c * rows + r] = in[r * cols + c];
    }
}

__global__ void k_tiled(const float *__restrict__ in, float *__restrict__ out, int rows, int cols)
{
    __shared__ float tile[TDIM][TDIM + 1];
    int c = blockIdx.x * TDIM + threadIdx.x;
    int r0 = blockIdx.y * TDIM;

#pragma unroll
    for (int k = 0; k < TDIM / BROWS; k++) {
        int j = threadIdx.y + k * BROWS;
        if (c < cols && r0 + j < rows)
            tile[j][threadIdx.x] = in[(r0 + j) * cols + c];
    }
    __syncthreads();
    // Output row = input column blockIdx.x*32 + j, output column = input row r0 + tx.
    int oc = r0 + threadIdx.x;
#pragma unroll
    for (int k = 0; k < TDIM / BROWS; k++) {
        int j = threadIdx.y + k * BROWS;
        int orow = blockIdx.x * TDIM + j;
        if (orow < cols && oc < rows)
            out[orow * rows + oc] = tile[threadIdx.x][j];
    }
}

int main(int argc, char **argv)
{
    wl_size sz = wl_parse_size(argc, argv);
    const int rows = wl_pick(sz, 160, 720, 4096);
    const int cols = wl_pick(sz, 296, 1200, 4096);
    const size_t n = (size_t)rows * cols;
    wl_rand rnd(0x5eed0005);
    std::vector<float> in(n);

    for (size_t i = 0; i < n; i++)
        in[i] = rnd.range(-1000.0f, 1000.0f);

    float *din, *dout1, *dout2;
    WL_CK(cudaMalloc(&din, n * sizeof(float)));
    WL_CK(cudaMalloc(&dout1, n * sizeof(float)));
    WL_CK(cudaMalloc(&dout2, n * sizeof(float)));
    WL_CK(cudaMemcpy(din, in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    WL_CK(cudaMemset(dout1, 0, n * sizeof(float)));
    WL_CK(cudaMemset(dout2, 0, n * sizeof(float)));

    dim3 block(TDIM, BROWS), grid((cols + TDIM - 1) / TDIM, (rows + TDIM - 1) / TDIM);
    k_naive<<<grid, block>>>(din, dout1, rows, cols);
    WL_LAUNCH_CK();
    k_tiled<<<grid, block>>>(din, dout2, rows, cols);
    WL_LAUNCH_CK();

    std::vector<float> g1(n), g2(n);
    WL_CK(cudaMemcpy(g1.data(), dout1, n * sizeof(float), cudaMemcpyDeviceToHost));
    WL_CK(cudaMemcpy(g2.data(), dout2, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            float want = in[(size_t)r * cols + c];
            size_t o = (size_t)c * rows + r;
            if (g1[o] != want)
                wl_fail("naive: out[%d][%d] = %.9g, want %.9g", c, r, g1[o], want);
            if (g2[o] != want)
                wl_fail("tiled: out[%d][%d] = %.9g, want %.9g", c, r, g2[o], want);
        }
    cudaFree(din);
    cudaFree(dout1);
    cudaFree(dout2);
    return wl_pass();
}
