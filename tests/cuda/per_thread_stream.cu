// Built with --default-stream per-thread (run.sh's groups table), so the
// launch stubs and async calls go through the per-thread default stream
// entry points (_ptsz/_ptds): kernels and async copies on stream 0, on
// cudaStreamPerThread and on cudaStreamLegacy, from the main thread and a
// second host thread, each checked. Exact.
#define TEST_NAME "per_thread_stream"
#include "common.h"
#include <thread>

__global__ void fill(int *p, int n, int base)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        p[i] = base + i;
}

static int work(int base, const char *who)
{
    const int n = 5000;
    int *h, *d, bad = 0;
    if (cudaMallocHost(&h, n * sizeof(int)) != cudaSuccess ||
        cudaMalloc(&d, n * sizeof(int)) != cudaSuccess)
        return -1;
    fill<<<4, 128>>>(d, n, base); // per-thread default stream
    if (cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, 0) != cudaSuccess ||
        cudaStreamSynchronize(cudaStreamPerThread) != cudaSuccess)
        return -1;
    for (int i = 0; i < n; i++)
        bad += h[i] != base + i;
    fill<<<2, 64, 0, cudaStreamPerThread>>>(d, n, -base);
    if (cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, cudaStreamLegacy) !=
            cudaSuccess ||
        cudaStreamSynchronize(cudaStreamLegacy) != cudaSuccess)
        return -1;
    for (int i = 0; i < n; i++)
        bad += h[i] != -base + i;
    if (bad)
        fprintf(stderr, "%s: %d wrong elements\n", who, bad);
    cudaFree(d);
    cudaFreeHost(h);
    return bad;
}

int main()
{
    int other = -2;
    std::thread t([&] { other = work(7000, "second thread"); });
    int mine = work(100, "main thread");
    t.join();
    expect_eq("main thread wrong elements (-1: a CUDA call failed)", 0, mine, 0);
    expect_eq("second thread wrong elements (-1: a CUDA call failed)", 0, other, 0);
    CK(cudaDeviceSynchronize());
    return finish();
}
