// Concurrent kernels with --default-stream per-thread (built so by
// tests/cuda/run.sh and tests/streams/run.sh): the default stream is the
// thread's own blocking stream, so a kernel on it and one on a created
// stream may overlap in timing mode; a kernel on cudaStreamLegacy then waits
// for both, and sees both results. Exact (integer arithmetic).
#define TEST_NAME "concurrent_ptds"
#include "common.h"

#define ITERS 500

__host__ __device__ static unsigned mix(unsigned x, unsigned seed)
{
    for (int k = 0; k < ITERS; k++)
        x = x * 22695477u + seed + (x >> 11);
    return x;
}

__global__ void ptds_a(unsigned *out, unsigned seed)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = mix(i, seed);
}

__global__ void ptds_b(unsigned *out, unsigned seed)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = mix(i + 1u, seed);
}

__global__ void ptds_join(const unsigned *a, const unsigned *b, unsigned *out)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = a[i] - b[i];
}

int main()
{
    const unsigned T = 128, B = 2, n = T * B;
    const size_t bytes = n * sizeof(unsigned);
    unsigned *da, *db, *dc, h[256];
    cudaStream_t s;

    CK(cudaStreamCreate(&s));
    CK(cudaMalloc(&da, bytes));
    CK(cudaMalloc(&db, bytes));
    CK(cudaMalloc(&dc, bytes));
    ptds_a<<<B, T>>>(da, 5u); // the per-thread default stream
    ptds_b<<<B, T, 0, s>>>(db, 6u);
    ptds_join<<<B, T, 0, cudaStreamLegacy>>>(da, db, dc);
    CK(cudaGetLastError());
    CK(cudaStreamSynchronize(cudaStreamLegacy));
    CK(cudaMemcpy(h, dc, bytes, cudaMemcpyDeviceToHost));
    for (unsigned i = 0; i < n; i++)
        expect_eq("join", (int)i, (long long)h[i], (long long)(unsigned)(mix(i, 5u) - mix(i + 1u, 6u)));
    CK(cudaStreamDestroy(s));
    CK(cudaFree(da));
    CK(cudaFree(db));
    CK(cudaFree(dc));
    return finish();
}
