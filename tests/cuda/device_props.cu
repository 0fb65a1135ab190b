// Device queries: cudaGetDeviceCount >= 1, cudaGetDevice/cudaSetDevice(0),
// cudaGetDeviceProperties fields are sane (warpSize 32, multiProcessorCount
// > 0, maxThreadsPerBlock >= 1024 and consistent with maxThreadsDim,
// sharedMemPerBlock >= 48 KiB, nonzero global and constant memory,
// maxGridSize, a name, compute capability >= 7.5 since the binary holds
// sm_75 code) and agree with cudaDeviceGetAttribute;
// cudaMemGetInfo gives free <= total; cudaRuntimeGetVersion and
// cudaDriverGetVersion are >= 13000; an invalid device number is refused.
#define TEST_NAME "device_props"
#include "common.h"

__global__ void warp_size_probe(int *out)
{
    out[0] = warpSize;
    out[1] = blockDim.x * gridDim.x;
}

int main()
{
    int count = 0, dev = -1;
    CK(cudaGetDeviceCount(&count));
    expect_true(count >= 1, "cudaGetDeviceCount < 1");
    CK(cudaSetDevice(0));
    CK(cudaGetDevice(&dev));
    expect_eq("cudaGetDevice", 0, dev, 0);

    cudaDeviceProp p;
    memset(&p, 0, sizeof(p));
    CK(cudaGetDeviceProperties(&p, 0));
    expect_eq("warpSize", 0, p.warpSize, 32);
    expect_true(p.multiProcessorCount > 0, "multiProcessorCount <= 0");
    expect_true(p.maxThreadsPerBlock >= 1024, "maxThreadsPerBlock < 1024");
    expect_true(p.maxThreadsDim[0] >= 1024 && p.maxThreadsDim[1] >= 1024 &&
                    p.maxThreadsDim[2] >= 64,
                "maxThreadsDim below 1024 x 1024 x 64");
    expect_true(p.maxGridSize[0] >= 65535 && p.maxGridSize[1] >= 65535 && p.maxGridSize[2] >= 65535,
                "maxGridSize below 65535");
    expect_true(p.sharedMemPerBlock >= 48 * 1024, "sharedMemPerBlock < 48 KiB");
    expect_true(p.totalGlobalMem > 0, "totalGlobalMem == 0");
    expect_true(p.totalConstMem >= 64 * 1024, "totalConstMem < 64 KiB");
    expect_true(p.regsPerBlock > 0, "regsPerBlock <= 0");
    expect_true(p.maxThreadsPerMultiProcessor >= p.warpSize, "maxThreadsPerMultiProcessor < 32");
    expect_true(p.name[0] != '\0' && memchr(p.name, 0, sizeof(p.name)) != NULL,
                "name empty or not terminated");
    expect_true(p.major * 10 + p.minor >= 75, "compute capability below 7.5");

    int v = -1;
    CK(cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 0));
    expect_eq("attr warpSize", 0, v, p.warpSize);
    CK(cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 0));
    expect_eq("attr multiProcessorCount", 0, v, p.multiProcessorCount);
    CK(cudaDeviceGetAttribute(&v, cudaDevAttrMaxThreadsPerBlock, 0));
    expect_eq("attr maxThreadsPerBlock", 0, v, p.maxThreadsPerBlock);
    CK(cudaDeviceGetAttribute(&v, cudaDevAttrComputeCapabilityMajor, 0));
    expect_eq("attr major", 0, v, p.major);
    CK(cudaDeviceGetAttribute(&v, cudaDevAttrComputeCapabilityMinor, 0));
    expect_eq("attr minor", 0, v, p.minor);

    size_t free_b = 0, total_b = 0;
    CK(cudaMemGetInfo(&free_b, &total_b));
    expect_true(total_b > 0 && free_b <= total_b, "cudaMemGetInfo: free > total or total == 0");

    int rt = 0, drv = 0;
    CK(cudaRuntimeGetVersion(&rt));
    CK(cudaDriverGetVersion(&drv));
    expect_true(rt >= 13000, "cudaRuntimeGetVersion < 13000");
    expect_true(drv >= 13000, "cudaDriverGetVersion < 13000");

    cudaError_t e = cudaGetDeviceProperties(&p, count + 5);
    if (e != cudaErrorInvalidDevice)
        fail("cudaGetDeviceProperties(invalid device) returned %s, want cudaErrorInvalidDevice",
             cudaGetErrorName(e));
    (void)cudaGetLastError();
    e = cudaSetDevice(count + 5);
    if (e != cudaErrorInvalidDevice)
        fail("cudaSetDevice(invalid device) returned %s, want cudaErrorInvalidDevice",
             cudaGetErrorName(e));
    (void)cudaGetLastError();

    int h[2], *d;
    CK(cudaMalloc(&d, sizeof(h)));
    warp_size_probe<<<3, 64>>>(d);
    CK_LAUNCH();
    CK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
    expect_eq("device warpSize", 0, h[0], 32);
    expect_eq("device blockDim*gridDim", 0, h[1], 192);
    CK(cudaFree(d));
    return finish();
}
