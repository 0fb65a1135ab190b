// Occupancy queries as real programs use them to size launches:
// cudaOccupancyMaxActiveBlocksPerMultiprocessor (> 0 for a legal block size,
// and never more threads than the SM allows), cudaOccupancyMaxPotentialBlockSize
// (a block size in 1..1024 that is a multiple of 32 and a minimum grid > 0),
// then a launch with the suggested size that must work. Exact results.
#define TEST_NAME "occupancy"
#include "common.h"

__global__ void axpy(float a, const float *x, float *y, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        y[i] = fmaf(a, x[i], y[i]);
}

int main()
{
    cudaDeviceProp p;
    int blocks = 0, min_grid = 0, block = 0;
    const int n = 20000;

    CK(cudaGetDeviceProperties(&p, 0));
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, axpy, 256, 0));
    expect_true(blocks > 0, "MaxActiveBlocksPerMultiprocessor(256 threads) == 0");
    expect_true(blocks * 256 <= p.maxThreadsPerMultiProcessor,
                "MaxActiveBlocksPerMultiprocessor exceeds maxThreadsPerMultiProcessor");
    CK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, axpy, 0, 0));
    expect_true(block > 0 && block <= 1024 && block % 32 == 0,
                "MaxPotentialBlockSize: block size not a multiple of 32 in 1..1024");
    expect_true(min_grid > 0, "MaxPotentialBlockSize: min grid size <= 0");
    if (block <= 0 || block > 1024)
        block = 128;

    float *x = new float[n], *y = new float[n], *dx, *dy;
    for (int i = 0; i < n; i++) {
        x[i] = i * 0.5f;
        y[i] = 1.0f - i;
    }
    CK(cudaMalloc(&dx, n * sizeof(float)));
    CK(cudaMalloc(&dy, n * sizeof(float)));
    CK(cudaMemcpy(dx, x, n * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dy, y, n * sizeof(float), cudaMemcpyHostToDevice));
    axpy<<<min_grid> 0 && min_grid<64 ? min_grid : 64, block>>>(3.0f, dx, dy, n);
    CK_LAUNCH();
    float *r = new float[n];
    CK(cudaMemcpy(r, dy, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        expect_bitsf("axpy", i, r[i], fmaf(3.0f, x[i], y[i]));
    CK(cudaFree(dx));
    CK(cudaFree(dy));
    delete[] x;
    delete[] y;
    delete[] r;
    return finish();
}
