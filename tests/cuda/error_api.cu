// Error returns of the API itself (none of them sticky): a 1 TiB cudaMalloc
// fails with cudaErrorMemoryAllocation and the next allocation works;
// cudaFree(NULL) succeeds; freeing a pointer that was never allocated, and
// freeing twice, fail; cudaMemcpy to a NULL host pointer and
// cudaMemcpyFromSymbol to NULL fail with cudaErrorInvalidValue;
// cudaMemcpyToSymbol past the end of a symbol fails; a grid of 2^31 blocks
// is refused; cudaGetErrorName gives the enumerator names and
// cudaGetErrorString a non-empty text. After all of that the device still
// works. Exit 0.
#define TEST_NAME "error_api"
#include "common.h"

__device__ int d_small[4];

__global__ void add_one(int *p)
{
    p[threadIdx.x] += 1;
}

static void expect_err(const char *what, cudaError_t got, cudaError_t want, cudaError_t alt)
{
    if (got != want && got != alt)
        fail("%s returned %s, want %s", what, cudaGetErrorName(got), cudaGetErrorName(want));
    cudaError_t last = cudaGetLastError(); // the failed call set it; reading clears it
    if (last != got)
        fail("%s: cudaGetLastError returned %s, want %s", what, cudaGetErrorName(last),
             cudaGetErrorName(got));
    last = cudaGetLastError();
    if (last != cudaSuccess)
        fail("%s: second cudaGetLastError returned %s", what, cudaGetErrorName(last));
}

int main()
{
    void *p = NULL;
    int *d = NULL, h[32];

    expect_err("cudaMalloc(1 TiB)", cudaMalloc(&p, (size_t)1 << 40), cudaErrorMemoryAllocation,
               cudaErrorMemoryAllocation);
    CK(cudaMalloc(&d, sizeof(h)));
    CK(cudaMemset(d, 0, sizeof(h)));
    CK(cudaFree(NULL));
    expect_err("cudaFree(never allocated)", cudaFree((void *)(uintptr_t)0x12345678),
               cudaErrorInvalidValue, cudaErrorInvalidDevicePointer);
    int *e;
    CK(cudaMalloc(&e, 64));
    CK(cudaFree(e));
    expect_err("cudaFree twice", cudaFree(e), cudaErrorInvalidValue, cudaErrorInvalidDevicePointer);
    expect_err("cudaMemcpy to NULL", cudaMemcpy(NULL, d, 16, cudaMemcpyDeviceToHost),
               cudaErrorInvalidValue, cudaErrorInvalidValue);
    expect_err("cudaMemcpyFromSymbol to NULL", cudaMemcpyFromSymbol(NULL, d_small, 4),
               cudaErrorInvalidValue, cudaErrorInvalidValue);
    int src[8] = {0};
    expect_err("cudaMemcpyToSymbol past the end", cudaMemcpyToSymbol(d_small, src, sizeof(src)),
               cudaErrorInvalidValue, cudaErrorInvalidValue);
    add_one<<<dim3(1u << 31), 1>>>(d);
    expect_err("grid of 2^31 blocks", cudaPeekAtLastError(), cudaErrorInvalidConfiguration,
               cudaErrorInvalidConfiguration);

    const struct {
        cudaError_t e;
        const char *name;
    } names[] = {{cudaSuccess, "cudaSuccess"},
                 {cudaErrorInvalidValue, "cudaErrorInvalidValue"},
                 {cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation"},
                 {cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration"},
                 {cudaErrorIllegalAddress, "cudaErrorIllegalAddress"},
                 {cudaErrorAssert, "cudaErrorAssert"},
                 {cudaErrorLaunchFailure, "cudaErrorLaunchFailure"},
                 {cudaErrorNotSupported, "cudaErrorNotSupported"}};
    for (const auto &n : names) {
        const char *s = cudaGetErrorString(n.e);
        if (strcmp(cudaGetErrorName(n.e), n.name) != 0)
            fail("cudaGetErrorName(%d) = %s, want %s", (int)n.e, cudaGetErrorName(n.e), n.name);
        if (s == NULL || s[0] == '\0')
            fail("cudaGetErrorString(%s) is empty", n.name);
    }

    add_one<<<1, 32>>>(d); // still usable
    CK_LAUNCH();
    CK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
    for (int k = 0; k < 32; k++)
        expect_eq("after errors", k, h[k], 1);
    CK(cudaFree(d));
    return finish();
}
