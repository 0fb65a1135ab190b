// Limits crossing the API are checked, not truncated (issue 17):
// cudaDeviceSetLimit(cudaLimitStackSize) above CUDA's 512 KiB per thread
// (2 GiB, 4 GiB, 2^32 + 1024) is cudaErrorInvalidValue and leaves the limit
// as it was; a heap larger than the device's memory is refused; a stack of
// 4 KiB is accepted, reported back, and kernels still launch. Exit 0 on
// success.
#define TEST_NAME "error_limits"
#include "common.h"

__global__ void add_one(int *p)
{
    p[threadIdx.x] += 1;
}

int main()
{
    size_t before, after;
    int *d, h[32];

    CK(cudaDeviceGetLimit(&before, cudaLimitStackSize));
    const size_t bad[3] = {(size_t)2 << 30, (size_t)4 << 30, ((size_t)1 << 32) + 1024};
    for (int i = 0; i < 3; i++) {
        cudaError_t e = cudaDeviceSetLimit(cudaLimitStackSize, bad[i]);
        if (e != cudaErrorInvalidValue)
            fail("stack size %zu: %s, want cudaErrorInvalidValue", bad[i], cudaGetErrorName(e));
        (void)cudaGetLastError();
        CK(cudaDeviceGetLimit(&after, cudaLimitStackSize));
        expect_equ("stack limit unchanged", i, after, before);
    }
    if (cudaDeviceSetLimit(cudaLimitMallocHeapSize, (size_t)1 << 40) == cudaSuccess)
        fail("a 1 TiB device heap was accepted");
    (void)cudaGetLastError();
    CK(cudaDeviceSetLimit(cudaLimitStackSize, 4096));
    CK(cudaDeviceGetLimit(&after, cudaLimitStackSize));
    expect_equ("stack limit set", 0, after, 4096);

    CK(cudaMalloc(&d, sizeof(h)));
    CK(cudaMemset(d, 0, sizeof(h)));
    add_one<<<1, 32>>>(d);
    CK_LAUNCH();
    CK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 32; i++)
        expect_eq("kernel after the limit changes", i, h[i], 1);
    return finish();
}
