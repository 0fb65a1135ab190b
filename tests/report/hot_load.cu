// A kernel with one known hot load, for the per-PTX-line statistics test: every thread
// reads its own 128-byte line of `big` (line HOT below, all misses, DRAM latency), while
// `small` is one line that every warp shares (L1D hits after the first) and the loop is
// arithmetic. `ptxsim annotate` must list the load of line HOT first.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void hot(const float *big, const float *small, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = small[threadIdx.x % 32];
    float h = big[(size_t)i * 32]; // HOT
    for (int k = 0; k < 16; k++)
        s = s * 0.5f + 1.0f;
    out[i] = s + h;
}

int main()
{
    const int n = 16384;
    float *big, *small, *out, h[32];
    int wrong = 0;

    cudaMalloc(&big, (size_t)n * 32 * sizeof(float));
    cudaMalloc(&small, 32 * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    cudaMemset(big, 0, (size_t)n * 32 * sizeof(float));
    cudaMemset(small, 0, 32 * sizeof(float));
    hot<<<n / 256, 256>>>(big, small, out);
    cudaMemcpy(h, out, sizeof(h), cudaMemcpyDeviceToHost);
    for (int i = 0; i < 32; i++)
        wrong += h[i] < 1.99f || h[i] > 2.0f;
    printf("hot_load: %d wrong\n", wrong);
    return wrong != 0;
}
