// Smoke test: an out-of-bounds store makes the launch fail with
// cudaErrorIllegalAddress, sticky until cudaDeviceReset; the process lives on
// and works again after the reset.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void poke(int *p, int i)
{
    p[i] = 1;
}

int main()
{
    int *d, h = 0;
    cudaError_t e;

    cudaMalloc(&d, 16 * sizeof(int));
    poke<<<1, 1>>>(d, 1 << 20);
    e = cudaDeviceSynchronize();
    printf("sync: %s\n", cudaGetErrorName(e));
    printf("sticky: %s\n", cudaGetErrorName(cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost)));
    if (e != cudaErrorIllegalAddress)
        return 1;
    cudaDeviceReset();
    cudaMalloc(&d, 16 * sizeof(int));
    poke<<<1, 1>>>(d, 3);
    e = cudaMemcpy(&h, d + 3, sizeof(int), cudaMemcpyDeviceToHost);
    printf("after reset: %s, %d\n", cudaGetErrorName(e), h);
    return e != cudaSuccess || h != 1;
}
