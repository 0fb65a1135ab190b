// Error path: a kernel loads through a pointer outside every allocation
// (passed in from the host). cudaDeviceSynchronize must return
// cudaErrorIllegalAddress; the error is sticky, so the next cudaMemcpy must
// also fail, and the process survives to report it. Exit 0 on success.
#define TEST_NAME "error_oob_read"
#include "common.h"

__global__ void gather(const int *src, const int *idx, int *dst, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        dst[i] = src[idx[i]];
}

int main()
{
    const int n = 64;
    int h[n], idx[n], *dsrc, *didx, *ddst;

    for (int i = 0; i < n; i++)
        idx[i] = (i * 7) % n;
    CK(cudaMalloc(&dsrc, n * sizeof(int)));
    CK(cudaMalloc(&didx, n * sizeof(int)));
    CK(cudaMalloc(&ddst, n * sizeof(int)));
    for (int i = 0; i < n; i++)
        h[i] = i * i;
    CK(cudaMemcpy(dsrc, h, sizeof(h), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(didx, idx, sizeof(idx), cudaMemcpyHostToDevice));
    gather<<<1, n>>>(dsrc, didx, ddst, n); // in bounds first
    CK_LAUNCH();
    CK(cudaMemcpy(h, ddst, sizeof(h), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        expect_eq("gather", i, h[i], idx[i] * idx[i]);

    idx[37] = 1 << 28; // 1 GiB past the start of a 256-byte buffer
    CK(cudaMemcpy(didx, idx, sizeof(idx), cudaMemcpyHostToDevice));
    fflush(stdout);
    gather<<<1, n>>>(dsrc, didx, ddst, n);
    cudaError_t launch = cudaGetLastError();
    cudaError_t sync = cudaDeviceSynchronize();
    cudaError_t after = cudaMemcpy(h, ddst, sizeof(h), cudaMemcpyDeviceToHost);
    if (launch != cudaSuccess)
        fail("launch returned %s, want cudaSuccess", cudaGetErrorName(launch));
    if (sync != cudaErrorIllegalAddress)
        fail("cudaDeviceSynchronize returned %s, want cudaErrorIllegalAddress",
             cudaGetErrorName(sync));
    if (after != cudaErrorIllegalAddress)
        fail("cudaMemcpy after the fault returned %s, want the sticky cudaErrorIllegalAddress",
             cudaGetErrorName(after));
    return finish();
}
