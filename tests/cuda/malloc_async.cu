// Stream-ordered allocation: cudaMallocAsync / cudaFreeAsync on a created
// stream and on the default stream, buffers used by kernels and async copies
// in the same stream between allocation and free, repeated so freed memory
// is reused. Exact.
#define TEST_NAME "malloc_async"
#include "common.h"

__global__ void iota_mul(int *p, int n, int m)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = i * m;
}

int main()
{
    const int n = 3000;
    int *h;
    cudaStream_t s;

    CK(cudaMallocHost(&h, n * sizeof(int)));
    CK(cudaStreamCreate(&s));
    for (int round = 0; round < 4; round++) {
        cudaStream_t st = round % 2 ? s : 0;
        int *d = NULL;
        CK(cudaMallocAsync(&d, n * sizeof(int), st));
        iota_mul<<<(n + 255) / 256, 256, 0, st>>>(d, n, round + 1);
        CK(cudaGetLastError());
        CK(cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, st));
        CK(cudaFreeAsync(d, st));
        CK(cudaStreamSynchronize(st));
        for (int i = 0; i < n; i++)
            expect_eq("round", round * n + i, h[i], i * (round + 1));
    }
    CK(cudaStreamDestroy(s));
    CK(cudaFreeHost(h));
    return finish();
}
