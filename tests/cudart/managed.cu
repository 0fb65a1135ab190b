// Smoke test: cudaMallocManaged memory used from both sides, a __managed__
// variable, and device printf interleaved with host printf in program order.
#include <cstdio>
#include <cuda_runtime.h>

__managed__ int hits = 40;

__global__ void square(int *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        v[i] = v[i] * v[i];
        atomicAdd(&hits, 1);
    }
    if (i == 0)
        printf("device: v[3] = %d\n", v[3]);
}

int main()
{
    const int n = 100;
    int *v, bad = 0;

    if (cudaMallocManaged(&v, n * sizeof(int)) != cudaSuccess)
        return 1;
    for (int i = 0; i < n; i++)
        v[i] = i;
    printf("host: before\n");
    square<<<4, 32>>>(v, n);
    if (cudaDeviceSynchronize() != cudaSuccess)
        return 1;
    printf("host: after\n");
    for (int i = 0; i < n; i++)
        bad += v[i] != i * i;
    printf("managed: %d wrong, hits %d\n", bad, hits);
    cudaFree(v);
    return bad != 0 || hits != 140;
}
