// Compute-bound speed benchmark: naive 256x256 SGEMM, one thread per output element
// (the GPGPU-Sim comparison figure in issue 6).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void sgemm(const float *a, const float *b, float *c, int n)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0;

    for (int k = 0; k < n; k++)
        s += a[row * n + k] * b[k * n + col];
    c[row * n + col] = s;
}

int main()
{
    const int n = 256;
    size_t bytes = n * n * sizeof(float);
    float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes), *c = (float *)malloc(bytes);
    float *da, *db, *dc;
    int wrong = 0;

    for (int i = 0; i < n * n; i++) {
        a[i] = (float)(i % 7) - 3;
        b[i] = (float)(i % 5) - 2;
    }
    cudaMalloc(&da, bytes);
    cudaMalloc(&db, bytes);
    cudaMalloc(&dc, bytes);
    cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice);
    sgemm<<<dim3(n / 16, n / 16), dim3(16, 16)>>>(da, db, dc, n);
    cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost);
    for (int r = 0; r < n; r += 17)
        for (int col = 0; col < n; col++) {
            float s = 0;
            for (int k = 0; k < n; k++)
                s += a[r * n + k] * b[k * n + col];
            wrong += fabsf(s - c[r * n + col]) > 1e-3f;
        }
    printf("sgemm_256: %d wrong\n", wrong);
    return wrong != 0;
}
