// Device-side malloc/free: every thread allocates a buffer whose size depends
// on its index, fills and sums it, and frees it; thread 0 of each block
// allocates a block-shared buffer whose pointer is passed through shared
// memory; buffers allocated in one kernel are used and freed in a later one;
// distinct live allocations must not overlap. cudaDeviceSetLimit sets the
// heap size first. Exact.
#define TEST_NAME "device_malloc"
#include "common.h"

#define BLOCKS 4
#define THREADS 64
#define N (BLOCKS * THREADS)

__global__ void per_thread(long long *sums, unsigned long long *addrs, int *nulls)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int len = 1 + t % 50;
    int *buf = (int *)malloc(len * sizeof(int));
    if (!buf)
        atomicAdd(nulls, 1);
    else
        for (int k = 0; k < len; k++)
            buf[k] = t * 100 + k;
    __syncthreads(); // every buffer of the block is live here
    addrs[2 * t] = (unsigned long long)buf;
    addrs[2 * t + 1] = (unsigned long long)(buf + len);
    long long s = 0;
    for (int k = 0; buf && k < len; k++)
        s += buf[k];
    sums[t] = s;
    free(buf);
}

__global__ void shared_buffer(int *out)
{
    __shared__ int *buf;
    if (threadIdx.x == 0)
        buf = (int *)malloc(blockDim.x * sizeof(int));
    __syncthreads();
    if (!buf) {
        out[blockIdx.x * blockDim.x + threadIdx.x] = -1;
        return;
    }
    buf[threadIdx.x] = threadIdx.x * 3;
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = buf[blockDim.x - 1 - threadIdx.x] + blockIdx.x;
    __syncthreads();
    if (threadIdx.x == 0)
        free(buf);
}

__global__ void alloc_keep(double **slots)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    double *p = (double *)malloc(4 * sizeof(double));
    if (p)
        for (int k = 0; k < 4; k++)
            p[k] = t + k * 0.25;
    slots[t] = p;
}

__global__ void use_and_free(double **slots, double *out)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    double *p = slots[t];
    out[t] = p ? p[0] + p[1] + p[2] + p[3] : -1.0;
    free(p); // free(NULL) is a no-op
}

int main()
{
    long long sums[N], *dsums;
    unsigned long long addrs[2 * N], *daddrs;
    int nulls = 0, *dnulls, out[N], *dout;
    double **dslots, dres[N], *ddres;

    CK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 16 << 20));
    size_t heap = 0;
    CK(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
    expect_true(heap >= (16 << 20), "cudaDeviceGetLimit(cudaLimitMallocHeapSize) < the size set");
    CK(cudaMalloc(&dsums, sizeof(sums)));
    CK(cudaMalloc(&daddrs, sizeof(addrs)));
    CK(cudaMalloc(&dnulls, sizeof(int)));
    CK(cudaMalloc(&dout, sizeof(out)));
    CK(cudaMalloc(&dslots, N * sizeof(double *)));
    CK(cudaMalloc(&ddres, sizeof(dres)));
    CK(cudaMemset(dnulls, 0, sizeof(int)));
    per_thread<<<BLOCKS, THREADS>>>(dsums, daddrs, dnulls);
    CK_LAUNCH();
    CK(cudaMemcpy(sums, dsums, sizeof(sums), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(addrs, daddrs, sizeof(addrs), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&nulls, dnulls, sizeof(int), cudaMemcpyDeviceToHost));
    expect_eq("malloc returned NULL", 0, nulls, 0);
    if (nulls == 0) {
        for (int t = 0; t < N; t++) {
            long long len = 1 + t % 50;
            expect_eq("sum", t, sums[t], len * t * 100 + len * (len - 1) / 2);
        }
        // Buffers live at the same time (same block) must not overlap.
        for (int a = 0; a < N; a++)
            for (int b = a + 1; b < N && b / THREADS == a / THREADS; b++)
                if (addrs[2 * a] < addrs[2 * b + 1] && addrs[2 * b] < addrs[2 * a + 1])
                    fail("buffers of threads %d and %d overlap", a, b);
    }

    shared_buffer<<<BLOCKS, THREADS>>>(dout);
    CK_LAUNCH();
    CK(cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost));
    for (int t = 0; t < N; t++)
        expect_eq("shared_buffer", t, out[t], (THREADS - 1 - t % THREADS) * 3 + t / THREADS);

    alloc_keep<<<BLOCKS, THREADS>>>(dslots);
    CK_LAUNCH();
    use_and_free<<<BLOCKS, THREADS>>>(dslots, ddres);
    CK_LAUNCH();
    CK(cudaMemcpy(dres, ddres, sizeof(dres), cudaMemcpyDeviceToHost));
    for (int t = 0; t < N; t++)
        expect_bits("kept across launches", t, dres[t], 4.0 * t + 1.5);
    CK(cudaFree(dsums));
    CK(cudaFree(daddrs));
    CK(cudaFree(dnulls));
    CK(cudaFree(dout));
    CK(cudaFree(dslots));
    CK(cudaFree(ddres));
    return finish();
}
