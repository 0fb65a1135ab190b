// Error path: __trap() in one thread aborts the kernel; CUDA reports
// cudaErrorLaunchFailure from cudaDeviceSynchronize (sticky), and the
// process survives to report it. Exit 0 on success.
#define TEST_NAME "error_trap"
#include "common.h"

__global__ void maybe_trap(int *p, int bad)
{
    if ((int)threadIdx.x == bad)
        __trap();
    p[threadIdx.x] = 1;
}

int main()
{
    int *d;

    CK(cudaMalloc(&d, 64 * sizeof(int)));
    maybe_trap<<<1, 64>>>(d, -1); // nobody traps
    CK_LAUNCH();
    fflush(stdout);
    maybe_trap<<<1, 64>>>(d, 40);
    cudaError_t launch = cudaGetLastError();
    cudaError_t sync = cudaDeviceSynchronize();
    if (launch != cudaSuccess)
        fail("launch returned %s, want cudaSuccess", cudaGetErrorName(launch));
    if (sync != cudaErrorLaunchFailure)
        fail("cudaDeviceSynchronize returned %s, want cudaErrorLaunchFailure",
             cudaGetErrorName(sync));
    return finish();
}
