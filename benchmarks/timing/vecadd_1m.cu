// Memory-bound speed benchmark: c = a + b over 1M floats (the GPGPU-Sim comparison
// figure in issue 6 is a 1M-element vector add).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void vecadd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

int main()
{
    const int n = 1 << 20;
    size_t bytes = n * sizeof(float);
    float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes), *c = (float *)malloc(bytes);
    float *da, *db, *dc;
    int wrong = 0;

    for (int i = 0; i < n; i++) {
        a[i] = (float)i;
        b[i] = (float)(2 * i);
    }
    cudaMalloc(&da, bytes);
    cudaMalloc(&db, bytes);
    cudaMalloc(&dc, bytes);
    cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice);
    vecadd<<<(n + 255) / 256, 256>>>(da, db, dc, n);
    cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++)
        wrong += c[i] != 3.0f * i;
    printf("vecadd_1m: %d wrong\n", wrong);
    return wrong != 0;
}
