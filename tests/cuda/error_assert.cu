// Error path: assert() fails in one thread of a kernel. The device prints
// its assertion message; cudaDeviceSynchronize must return cudaErrorAssert
// and the process must survive to report it (the error is sticky, so no
// further CUDA call is checked). Threads whose assertion holds are fine, as
// checked by a passing launch first. Exit 0 on success.
#define TEST_NAME "error_assert"
#undef NDEBUG
#include <cassert>
#include "common.h"

__global__ void checked(const int *v, int n, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        assert(v[i] >= 0);
        out[i] = v[i] * 2;
    }
}

int main()
{
    const int n = 256;
    int h[n], o[n], *dv, *dout;

    for (int i = 0; i < n; i++)
        h[i] = i;
    CK(cudaMalloc(&dv, sizeof(h)));
    CK(cudaMalloc(&dout, sizeof(o)));
    CK(cudaMemcpy(dv, h, sizeof(h), cudaMemcpyHostToDevice));
    checked<<<2, 128>>>(dv, n, dout);
    CK_LAUNCH();
    CK(cudaMemcpy(o, dout, sizeof(o), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        expect_eq("out", i, o[i], 2 * i);

    h[200] = -1;
    CK(cudaMemcpy(dv, h, sizeof(h), cudaMemcpyHostToDevice));
    fflush(stdout);
    checked<<<2, 128>>>(dv, n, dout);
    cudaError_t launch = cudaGetLastError();
    cudaError_t sync = cudaDeviceSynchronize();
    if (launch != cudaSuccess)
        fail("launch returned %s, want cudaSuccess", cudaGetErrorName(launch));
    if (sync != cudaErrorAssert)
        fail("cudaDeviceSynchronize returned %s, want cudaErrorAssert", cudaGetErrorName(sync));
    return finish();
}
