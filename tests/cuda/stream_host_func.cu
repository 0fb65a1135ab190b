// Host functions in streams: cudaLaunchHostFunc and cudaStreamAddCallback run
// on the host in stream order, after the work enqueued before them and
// before the work enqueued after them (a callback records what a kernel
// wrote, through pinned memory copied back just before it). Exact.
#define TEST_NAME "stream_host_func"
#include "common.h"

struct Log {
    int *pinned; // copied back by the stream before each host function
    int seen[4];
    int calls;
};

__global__ void set_all(int *d, int n, int v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        d[i] = v + i;
}

static void CUDART_CB host_fn(void *arg)
{
    Log *log = (Log *)arg;
    if (log->calls < 4)
        log->seen[log->calls] = log->pinned[0] + log->pinned[99];
    log->calls++;
}

static void CUDART_CB callback(cudaStream_t, cudaError_t status, void *arg)
{
    Log *log = (Log *)arg;
    if (status != cudaSuccess)
        log->calls += 1000;
    host_fn(arg);
}

int main()
{
    const int n = 100;
    int *d;
    Log log;
    cudaStream_t s;

    memset(&log, 0, sizeof(log));
    CK(cudaMallocHost(&log.pinned, n * sizeof(int)));
    CK(cudaMalloc(&d, n * sizeof(int)));
    CK(cudaStreamCreate(&s));
    for (int k = 0; k < 4; k++) {
        set_all<<<1, n, 0, s>>>(d, n, 1000 * (k + 1));
        CK(cudaGetLastError());
        CK(cudaMemcpyAsync(log.pinned, d, n * sizeof(int), cudaMemcpyDeviceToHost, s));
        if (k % 2)
            CK(cudaStreamAddCallback(s, callback, &log, 0));
        else
            CK(cudaLaunchHostFunc(s, host_fn, &log));
    }
    CK(cudaStreamSynchronize(s));
    expect_eq("host function calls", 0, log.calls, 4);
    for (int k = 0; k < 4; k++)
        expect_eq("seen by host function", k, log.seen[k], 2 * 1000 * (k + 1) + 99);
    CK(cudaStreamDestroy(s));
    CK(cudaFree(d));
    CK(cudaFreeHost(log.pinned));
    return finish();
}
