// cudaHostRegister: ordinary malloc'd host memory registered as mapped,
// written by a kernel through cudaHostGetDevicePointer, used as an async
// copy source and destination, then unregistered (and still usable as host
// memory). Exact.
#define TEST_NAME "host_register"
#include "common.h"

__global__ void negate(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = -p[i] + i;
}

int main()
{
    const int n = 4096;
    int *h = (int *)malloc(n * sizeof(int)), *back = (int *)malloc(n * sizeof(int));
    int *dmap, *d;
    cudaStream_t s;

    for (int i = 0; i < n; i++)
        h[i] = i * 5;
    CK(cudaHostRegister(h, n * sizeof(int), cudaHostRegisterMapped));
    CK(cudaHostGetDevicePointer(&dmap, h, 0));
    negate<<<n / 256, 256>>>(dmap, n);
    CK_LAUNCH();
    for (int i = 0; i < n; i++)
        expect_eq("mapped registered", i, h[i], -4 * i);

    CK(cudaStreamCreate(&s));
    CK(cudaMalloc(&d, n * sizeof(int)));
    CK(cudaMemcpyAsync(d, h, n * sizeof(int), cudaMemcpyHostToDevice, s));
    negate<<<n / 256, 256, 0, s>>>(d, n);
    CK(cudaGetLastError());
    CK(cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s));
    CK(cudaStreamSynchronize(s));
    for (int i = 0; i < n; i++)
        expect_eq("async via registered", i, h[i], 5 * i);
    CK(cudaHostUnregister(h));
    memcpy(back, h, n * sizeof(int));
    for (int i = 0; i < n; i++)
        expect_eq("after unregister", i, back[i], 5 * i);
    CK(cudaStreamDestroy(s));
    CK(cudaFree(d));
    free(h);
    free(back);
    return finish();
}
