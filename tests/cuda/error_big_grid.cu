// Grids at CUDA's limits (issue 17): a grid of 131072 x 32768 CTAs (2^32 in
// all, where the CTA index used to be divided by a 32-bit product that
// wrapped to 0) must run: CTA (2,0,0) writes its blockIdx and gridDim to
// mapped host memory and CTA (3,0,0) traps, so the launch stops early (the
// trap is the error the host then sees). Grids past the limits (gridDim.x
// 2^31, gridDim.y or z 65536) and blocks past 1024 threads are
// cudaErrorInvalidConfiguration, checked first since the trap's error is
// sticky. Exit 0 on success.
#define TEST_NAME "error_big_grid"
#include "common.h"

__global__ void mark(unsigned *out)
{
    if (blockIdx.x == 2 && blockIdx.y == 0 && blockIdx.z == 0) {
        out[0] = blockIdx.x;
        out[1] = blockIdx.y;
        out[2] = blockIdx.z;
        out[3] = gridDim.x;
        out[4] = gridDim.y;
        out[5] = gridDim.z;
        __threadfence_system();
    }
    if (blockIdx.x == 3 && blockIdx.y == 0)
        asm volatile("trap;");
}

static void expect_config_error(dim3 g, dim3 b, unsigned *out, const char *what)
{
    mark<<<g, b>>>(out);
    cudaError_t e = cudaGetLastError();
    if (e != cudaErrorInvalidConfiguration)
        fail("%s: launch returned %s, want cudaErrorInvalidConfiguration", what,
             cudaGetErrorName(e));
}

int main()
{
    unsigned *h, *d;

    CK(cudaHostAlloc(&h, 8 * sizeof(unsigned), cudaHostAllocMapped));
    memset(h, 0xff, 8 * sizeof(unsigned));
    CK(cudaHostGetDevicePointer(&d, h, 0));
    expect_config_error(dim3(1u << 31), dim3(1), d, "gridDim.x 2^31");
    expect_config_error(dim3(1, 65536), dim3(1), d, "gridDim.y 65536");
    expect_config_error(dim3(1, 1, 65536), dim3(1), d, "gridDim.z 65536");
    expect_config_error(dim3(1), dim3(1025), d, "1025 threads");

    mark<<<dim3(131072, 32768), 1>>>(d);
    cudaError_t launch = cudaGetLastError();
    cudaError_t sync = cudaDeviceSynchronize();
    if (launch != cudaSuccess)
        fail("2^32-CTA launch returned %s, want cudaSuccess", cudaGetErrorName(launch));
    if (sync != cudaErrorLaunchFailure)
        fail("2^32-CTA grid: cudaDeviceSynchronize returned %s, want the trap's "
             "cudaErrorLaunchFailure", cudaGetErrorName(sync));
    const unsigned want[6] = {2, 0, 0, 131072, 32768, 1};
    for (int i = 0; i < 6; i++)
        expect_equ("blockIdx/gridDim of CTA (2,0,0)", i, h[i], want[i]);
    return finish();
}
