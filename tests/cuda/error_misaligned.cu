// Error path: a kernel loads a 4-byte int from an address that is not a
// multiple of 4 (inside a valid allocation). CUDA reports
// cudaErrorMisalignedAddress from cudaDeviceSynchronize; the process
// survives to report it. Exit 0 on success.
#define TEST_NAME "error_misaligned"
#include "common.h"

__global__ void load_word(const char *base, int offset, int *out)
{
    out[threadIdx.x] = *(const int *)(base + offset + 4 * threadIdx.x);
}

int main()
{
    char *d;
    int *out, h[4];

    CK(cudaMalloc(&d, 256));
    CK(cudaMalloc(&out, sizeof(h)));
    CK(cudaMemset(d, 1, 256));
    load_word<<<1, 4>>>(d, 8, out); // aligned: fine
    CK_LAUNCH();
    CK(cudaMemcpy(h, out, sizeof(h), cudaMemcpyDeviceToHost));
    for (int k = 0; k < 4; k++)
        expect_eq("aligned load", k, h[k], 0x01010101);
    fflush(stdout);
    load_word<<<1, 4>>>(d, 2, out);
    cudaError_t launch = cudaGetLastError();
    cudaError_t sync = cudaDeviceSynchronize();
    if (launch != cudaSuccess)
        fail("launch returned %s, want cudaSuccess", cudaGetErrorName(launch));
    if (sync != cudaErrorMisalignedAddress)
        fail("cudaDeviceSynchronize returned %s, want cudaErrorMisalignedAddress",
             cudaGetErrorName(sync));
    return finish();
}
