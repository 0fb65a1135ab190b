// cudaDeviceReset in the middle of a program: after a kernel, a __device__
// variable update and allocations, reset the device; then allocate again,
// relaunch the same kernels (modules reload) and find __device__ variables
// back at their static initial values. Also a reset clears a sticky fault:
// after an illegal-address fault, cudaDeviceReset makes the device usable.
// Exact.
#define TEST_NAME "device_reset"
#include "common.h"

__device__ int d_calls = 5;

__global__ void count_and_fill(int *p, int n, int v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = v + i;
    if (i == 0)
        d_calls++;
}

static void round_trip(const char *what, int v, int want_calls)
{
    const int n = 500;
    int h[n], *d, calls = -1;
    CK(cudaMalloc(&d, n * sizeof(int)));
    count_and_fill<<<2, 256>>>(d, n, v);
    CK_LAUNCH();
    CK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        expect_eq(what, i, h[i], v + i);
    CK(cudaMemcpyFromSymbol(&calls, d_calls, sizeof(int)));
    expect_eq("d_calls", 0, calls, want_calls);
    CK(cudaFree(d));
}

int main()
{
    round_trip("before reset", 10, 6);
    round_trip("before reset, again", 20, 7);
    CK(cudaDeviceReset());
    round_trip("after reset", 30, 6); // the variable starts from its initialiser again

    count_and_fill<<<1, 32>>>((int *)(uintptr_t)0x100, 32, 0); // fault
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaErrorIllegalAddress)
        fail("fault: cudaDeviceSynchronize returned %s, want cudaErrorIllegalAddress",
             cudaGetErrorName(e));
    CK(cudaDeviceReset());
    (void)cudaGetLastError();
    round_trip("after reset from a fault", 40, 6);
    return finish();
}
