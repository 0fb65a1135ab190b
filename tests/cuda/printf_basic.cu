// Device printf, basic: one printing thread per launch so the order is
// defined; lines from a loop, from a device function on a divergent path,
// from the last thread of a 3D block in the last block of a 3D grid, and host
// lines between launches (the host flushes stdout before each launch; device
// output must be out by the time cudaDeviceSynchronize returns). run.sh diffs
// stdout with printf_basic.expected.
#define TEST_NAME "printf_basic"
#include "common.h"

__device__ void report(int k, int v)
{
    printf("report %d: value %d\n", k, v);
}

__global__ void hello(int n)
{
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        printf("hello from the device\n");
        for (int k = 0; k < n; k++)
            printf("loop %d of %d\n", k, n);
    }
}

__global__ void divergent(const int *vals, int n)
{
    int t = threadIdx.x;
    if (t == 17 && t < n) {
        if (vals[t] > 0)
            report(t, vals[t]);
        else
            printf("thread %d: not positive\n", t);
    }
}

__global__ void last_thread()
{
    if (threadIdx.x == blockDim.x - 1 && threadIdx.y == blockDim.y - 1 &&
        threadIdx.z == blockDim.z - 1 && blockIdx.x == gridDim.x - 1 &&
        blockIdx.y == gridDim.y - 1 && blockIdx.z == gridDim.z - 1)
        printf("last thread (%d,%d,%d) of block (%d,%d,%d)\n", threadIdx.x, threadIdx.y,
               threadIdx.z, blockIdx.x, blockIdx.y, blockIdx.z);
}

int main()
{
    int vals[32], *dvals;

    for (int k = 0; k < 32; k++)
        vals[k] = 50 - k * 5; // vals[17] < 0
    CK(cudaMalloc(&dvals, sizeof(vals)));
    CK(cudaMemcpy(dvals, vals, sizeof(vals), cudaMemcpyHostToDevice));

    printf("host: before the first launch\n");
    fflush(stdout);
    hello<<<2, 64>>>(4);
    CK_LAUNCH();
    printf("host: between launches\n");
    fflush(stdout);
    divergent<<<1, 32>>>(dvals, 32);
    CK_LAUNCH();
    vals[17] = 123;
    CK(cudaMemcpy(dvals, vals, sizeof(vals), cudaMemcpyHostToDevice));
    divergent<<<1, 32>>>(dvals, 32);
    CK_LAUNCH();
    fflush(stdout);
    last_thread<<<dim3(2, 3, 2), dim3(4, 2, 3)>>>();
    CK_LAUNCH();
    printf("host: done\n");
    CK(cudaFree(dvals));
    return finish();
}
