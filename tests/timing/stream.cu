// Timing microbenchmark: streaming DRAM bandwidth. c = a + b over 1M floats
// (12 MB of traffic, 16x the L2), each thread one element, fully coalesced.
// tests/timing/run.sh reads dram.bandwidth_gbs of the stream_add kernel from
// the statistics and compares it with the configured peak.
#include <cstdio>
#include <cstdlib>

#define N (1 << 20)

__global__ void stream_add(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

int main()
{
    float *a, *b, *c, *h = (float *)malloc(N * sizeof(float));
    for (int i = 0; i < N; i++)
        h[i] = (float)(i % 1000);
    cudaMalloc(&a, N * sizeof(float));
    cudaMalloc(&b, N * sizeof(float));
    cudaMalloc(&c, N * sizeof(float));
    cudaMemcpy(a, h, N * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(b, h, N * sizeof(float), cudaMemcpyHostToDevice);
    stream_add<<<N / 256, 256>>>(a, b, c, N);
    if (cudaDeviceSynchronize() != cudaSuccess) {
        printf("FAIL stream: launch failed\n");
        return 1;
    }
    cudaMemcpy(h, c, N * sizeof(float), cudaMemcpyDeviceToHost);
    for (int i = 0; i < N; i++)
        if (h[i] != 2.0f * (float)(i % 1000)) {
            printf("FAIL stream: c[%d] = %g\n", i, h[i]);
            return 1;
        }
    printf("PASS stream\n");
    return 0;
}
