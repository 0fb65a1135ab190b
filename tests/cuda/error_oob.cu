// Error path: a kernel stores through a pointer far outside every
// allocation (NULL plus an offset, passed in from the host so the compiler
// cannot see it). The launch itself succeeds; cudaDeviceSynchronize must
// return cudaErrorIllegalAddress, and the process must survive to report it
// (the error is sticky, so no further CUDA call is checked). Exit 0 on
// success.
#define TEST_NAME "error_oob"
#include "common.h"

__global__ void good(int *p)
{
    p[threadIdx.x] = threadIdx.x;
}

__global__ void bad_store(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = i;
}

int main()
{
    int *d, h[32];

    CK(cudaMalloc(&d, sizeof(h)));
    good<<<1, 32>>>(d); // the device works before the fault
    CK_LAUNCH();
    CK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
    for (int k = 0; k < 32; k++)
        expect_eq("good", k, h[k], k);

    int *wild = (int *)(uintptr_t)0x100; // NULL page: outside every allocation
    fflush(stdout);
    bad_store<<<2, 64>>>(wild, 100);
    cudaError_t launch = cudaGetLastError();
    cudaError_t sync = cudaDeviceSynchronize();
    if (launch != cudaSuccess)
        fail("launch returned %s, want cudaSuccess (the fault is reported at sync)",
             cudaGetErrorName(launch));
    if (sync != cudaErrorIllegalAddress)
        fail("cudaDeviceSynchronize returned %s, want cudaErrorIllegalAddress",
             cudaGetErrorName(sync));
    return finish();
}
