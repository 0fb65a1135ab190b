// Error path: invalid launch configurations are refused at launch time with
// cudaErrorInvalidConfiguration (a block of 2048 threads; blockDim.z of 65;
// gridDim.y of 65536; too much dynamic shared memory gives an error too),
// cudaPeekAtLastError shows the error without clearing it, cudaGetLastError
// returns it once and then cudaSuccess, nothing runs, and the device stays
// usable: a valid launch afterwards works. Exit 0.
#define TEST_NAME "error_invalid_config"
#include "common.h"

__global__ void mark(int *p, int v)
{
    atomicAdd(p, v);
}

static void expect_launch_error(const char *what, cudaError_t want, dim3 grid, dim3 block,
                                size_t shmem, int *d)
{
    mark<<<grid, block, shmem>>>(d, 1000);
    cudaError_t peek = cudaPeekAtLastError();
    cudaError_t e = cudaGetLastError();
    if (peek != e)
        fail("%s: cudaPeekAtLastError returned %s but cudaGetLastError %s", what,
             cudaGetErrorName(peek), cudaGetErrorName(e));
    if (want == cudaSuccess ? e == cudaSuccess : e != want)
        fail("%s: cudaGetLastError returned %s, want %s", what, cudaGetErrorName(e),
             want == cudaSuccess ? "an error" : cudaGetErrorName(want));
    e = cudaGetLastError();
    if (e != cudaSuccess)
        fail("%s: second cudaGetLastError returned %s, want cudaSuccess", what,
             cudaGetErrorName(e));
    e = cudaDeviceSynchronize();
    if (e != cudaSuccess)
        fail("%s: cudaDeviceSynchronize returned %s, want cudaSuccess (not sticky)", what,
             cudaGetErrorName(e));
}

int main()
{
    int *d, h = -1;

    CK(cudaMalloc(&d, sizeof(int)));
    CK(cudaMemset(d, 0, sizeof(int)));
    expect_launch_error("block 2048", cudaErrorInvalidConfiguration, dim3(1), dim3(2048), 0, d);
    expect_launch_error("block 64x32 (2048)", cudaErrorInvalidConfiguration, dim3(1), dim3(64, 32),
                        0, d);
    expect_launch_error("blockDim.z 65", cudaErrorInvalidConfiguration, dim3(1), dim3(1, 1, 65), 0,
                        d);
    expect_launch_error("gridDim.y 65536", cudaErrorInvalidConfiguration, dim3(1, 65536), dim3(32),
                        0, d);
    expect_launch_error("block 0", cudaErrorInvalidConfiguration, dim3(1), dim3(0), 0, d);
    // The exact code for too much shared memory differs between versions;
    // any error will do (cudaSuccess here means "some error").
    expect_launch_error("1 GiB dynamic shared memory", cudaSuccess, dim3(1), dim3(32),
                        (size_t)1 << 30, d);
    CK(cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost));
    expect_eq("nothing ran", 0, h, 0);

    mark<<<2, 1024>>>(d, 1); // largest valid block
    CK_LAUNCH();
    CK(cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost));
    expect_eq("valid launch after errors", 0, h, 2048);
    CK(cudaFree(d));
    return finish();
}
