// Concurrent kernels across streams, and CUDA's ordering between them.
// In timing mode kernels of different streams share the GPU (up to
// -gpgpu_max_concurrent_kernel); tests/streams/run.sh checks from the
// statistics that they overlapped (and did not where ordering forbids it).
// Here every phase checks its results against a host reference, so the
// ordering rules must hold for the results to be right:
//  1. four blocking streams each run a kernel of two CTAs (they may overlap);
//  2. an event recorded after a producer in one stream, waited for by another
//     stream (cudaStreamWaitEvent) before its consumer;
//  3. host functions (cudaLaunchHostFunc) and stream callbacks
//     (cudaStreamAddCallback) queued after kernels that write mapped host
//     memory see those kernels' complete results;
//  4. a kernel on the legacy default stream sees the results of an earlier
//     kernel of a blocking stream; a blocking stream's later kernel follows the
//     legacy one; a non-blocking stream's later kernel is independent of it;
//  5. async copies back in each stream follow that stream's kernel.
// Exact (integer arithmetic).
#define TEST_NAME "concurrent_kernels"
#include "common.h"

#define ITERS 600
#define NS 4

__host__ __device__ static unsigned mix(unsigned x, unsigned seed)
{
    for (int k = 0; k < ITERS; k++)
        x = x * 1664525u + seed + (x >> 13);
    return x;
}

__global__ void spin_a(unsigned *out, unsigned seed)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = mix(i, seed);
}

__global__ void produce(unsigned *out, unsigned seed)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = mix(i * 7u, seed);
}

__global__ void consume(const unsigned *in, unsigned *out)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned n = gridDim.x * blockDim.x;
    out[i] = in[i] ^ in[n - 1 - i];
}

__global__ void to_host(unsigned *host_mapped, unsigned seed)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    host_mapped[i] = mix(i + 3u, seed);
}

__global__ void leg_blk(unsigned *x, unsigned seed)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    x[i] = mix(i, seed);
}

__global__ void leg_def(const unsigned *x, unsigned *y)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = x[i] + 1u;
}

__global__ void nb_k(unsigned *out, unsigned seed)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = mix(i ^ 0x55u, seed);
}

__global__ void nb_def(unsigned *out, unsigned seed)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = mix(i ^ 0xaau, seed);
}

struct host_check {
    const unsigned *buf;
    unsigned seed, n, bad;
    int ran;
};

static void check_mapped(struct host_check *h)
{
    h->ran++;
    for (unsigned i = 0; i < h->n; i++)
        if (h->buf[i] != mix(i + 3u, h->seed))
            h->bad++;
}

static void CUDART_CB host_fn(void *p)
{
    check_mapped((struct host_check *)p);
}

static void CUDART_CB stream_cb(cudaStream_t, cudaError_t status, void *p)
{
    if (status != cudaSuccess)
        ((struct host_check *)p)->bad++;
    check_mapped((struct host_check *)p);
}

static void expect_mix(const char *what, const unsigned *got, unsigned n, unsigned xorv,
                       unsigned mul, unsigned add, unsigned seed)
{
    for (unsigned i = 0; i < n; i++)
        expect_eq(what, (int)i, (long long)got[i], (long long)mix((i ^ xorv) * mul + add, seed));
}

int main()
{
    const unsigned T = 128, B = 2, n = T * B;
    const size_t bytes = n * sizeof(unsigned);
    cudaStream_t s[NS], snb;
    unsigned *d[NS], *h[NS], *dx, *dy, *dz, *hm, *hm2;
    cudaEvent_t ev;
    struct host_check c1 = {0}, c2 = {0};

    CK(cudaSetDeviceFlags(cudaDeviceMapHost));
    for (int k = 0; k < NS; k++) {
        CK(cudaStreamCreate(&s[k]));
        CK(cudaMalloc(&d[k], bytes));
        CK(cudaMallocHost(&h[k], bytes));
    }
    CK(cudaStreamCreateWithFlags(&snb, cudaStreamNonBlocking));
    CK(cudaMalloc(&dx, bytes));
    CK(cudaMalloc(&dy, bytes));
    CK(cudaMalloc(&dz, bytes));
    CK(cudaEventCreate(&ev));

    // 1 and 5: one kernel per stream, then each stream's copy back.
    for (int k = 0; k < NS; k++)
        spin_a<<<B, T, 0, s[k]>>>(d[k], 100u + k);
    CK(cudaGetLastError());
    for (int k = 0; k < NS; k++)
        CK(cudaMemcpyAsync(h[k], d[k], bytes, cudaMemcpyDeviceToHost, s[k]));
    CK(cudaDeviceSynchronize());
    for (int k = 0; k < NS; k++)
        expect_mix("spin_a", h[k], n, 0, 1, 0, 100u + k);

    // 2: producer in s[0], consumer in s[1] after an event.
    produce<<<B, T, 0, s[0]>>>(dx, 7u);
    CK(cudaEventRecord(ev, s[0]));
    CK(cudaStreamWaitEvent(s[1], ev, 0));
    consume<<<B, T, 0, s[1]>>>(dx, dy);
    CK(cudaGetLastError());
    CK(cudaMemcpyAsync(h[1], dy, bytes, cudaMemcpyDeviceToHost, s[1]));
    CK(cudaStreamSynchronize(s[1]));
    for (unsigned i = 0; i < n; i++)
        expect_eq("consume", (int)i, (long long)h[1][i],
                  (long long)(mix(i * 7u, 7u) ^ mix((n - 1 - i) * 7u, 7u)));

    // 3: host work queued after kernels that write mapped host memory.
    CK(cudaHostAlloc(&hm, bytes, cudaHostAllocMapped));
    CK(cudaHostAlloc(&hm2, bytes, cudaHostAllocMapped));
    c1 = (struct host_check){hm, 11u, n, 0, 0};
    c2 = (struct host_check){hm2, 12u, n, 0, 0};
    to_host<<<B, T, 0, s[2]>>>(hm, 11u);
    CK(cudaLaunchHostFunc(s[2], host_fn, &c1));
    to_host<<<B, T, 0, s[3]>>>(hm2, 12u);
    CK(cudaStreamAddCallback(s[3], stream_cb, &c2, 0));
    CK(cudaDeviceSynchronize());
    expect_eq("host function ran", 0, c1.ran, 1);
    expect_eq("host function saw the kernel's results", 0, c1.bad, 0);
    expect_eq("callback ran", 0, c2.ran, 1);
    expect_eq("callback saw the kernel's results", 0, c2.bad, 0);

    // 4: the legacy default stream waits for a blocking stream's earlier kernel; a blocking
    // stream's later kernel waits for it; a non-blocking stream's later kernel does not.
    leg_blk<<<B, T, 0, s[0]>>>(dx, 21u);
    leg_def<<<B, T>>>(dx, dy);
    nb_k<<<B, T, 0, snb>>>(dz, 31u);
    nb_def<<<B, T, 0, s[1]>>>(d[0], 32u); // blk_after: a blocking stream after the legacy one
    CK(cudaGetLastError());
    CK(cudaStreamSynchronize(s[1]));
    CK(cudaMemcpy(h[0], dy, bytes, cudaMemcpyDeviceToHost));
    for (unsigned i = 0; i < n; i++)
        expect_eq("legacy after blocking", (int)i, (long long)h[0][i],
                  (long long)(mix(i, 21u) + 1u));
    CK(cudaStreamSynchronize(snb));
    CK(cudaMemcpy(h[1], dz, bytes, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(h[2], d[0], bytes, cudaMemcpyDeviceToHost));
    expect_mix("non-blocking stream", h[1], n, 0x55u, 1, 0, 31u);
    expect_mix("blocking stream after the legacy one", h[2], n, 0xaau, 1, 0, 32u);

    for (int k = 0; k < NS; k++) {
        CK(cudaStreamDestroy(s[k]));
        CK(cudaFree(d[k]));
        CK(cudaFreeHost(h[k]));
    }
    CK(cudaStreamDestroy(snb));
    CK(cudaEventDestroy(ev));
    CK(cudaFreeHost(hm));
    CK(cudaFreeHost(hm2));
    CK(cudaFree(dx));
    CK(cudaFree(dy));
    CK(cudaFree(dz));
    return finish();
}
