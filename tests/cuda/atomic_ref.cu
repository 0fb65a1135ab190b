// libcu++ atomics with memory orders (what modern CUDA code uses instead of
// atomicAdd + __threadfence): cuda::atomic_ref at device and block scope
// with relaxed fetch_add, compare_exchange_strong loops, acquire loads and
// release stores for a message-passing hand-off from one block to the next
// (a chain through all blocks, so each block waits on its predecessor), a
// cuda::std::atomic_thread_fence, and cuda::atomic<float> fetch_add.
// Exact.
#define TEST_NAME "atomic_ref"
#include "common.h"
#include <cuda/atomic>

#define BLOCKS 16
#define THREADS 64

__global__ void chain(int *data, int *flags, unsigned long long *sum, int *order, int *counter)
{
    int b = blockIdx.x, t = threadIdx.x;
    // Block b > 0 waits until block b-1 has published its data (thread 0
    // spins with acquire loads), then publishes its own with a release store.
    __shared__ int base;
    if (t == 0) {
        if (b > 0) {
            cuda::atomic_ref<int, cuda::thread_scope_device> f(flags[b - 1]);
            while (f.load(cuda::std::memory_order_acquire) == 0)
                ;
            base = data[(b - 1) * THREADS + THREADS - 1];
        } else {
            base = 0;
        }
    }
    __syncthreads();
    data[b * THREADS + t] = base + t + 1;
    __syncthreads();
    if (t == 0) {
        cuda::atomic_ref<int, cuda::thread_scope_device> ctr(*counter);
        order[b] = ctr.fetch_add(1, cuda::std::memory_order_relaxed);
        cuda::atomic_ref<int, cuda::thread_scope_device> f(flags[b]);
        f.store(1, cuda::std::memory_order_release);
    }
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> s(*sum);
    s.fetch_add((unsigned long long)(b * THREADS + t), cuda::std::memory_order_relaxed);
}

__global__ void cas_and_block_scope(unsigned *maxv, const unsigned *in, int *block_counts,
                                    float *fsum)
{
    __shared__ int local;
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0)
        local = 0;
    __syncthreads();
    cuda::atomic_ref<int, cuda::thread_scope_block> l(local);
    l.fetch_add(2, cuda::std::memory_order_relaxed);
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> m(*maxv);
    unsigned cur = m.load(cuda::std::memory_order_relaxed), v = in[g];
    while (cur < v && !m.compare_exchange_strong(cur, v, cuda::std::memory_order_acq_rel,
                                                 cuda::std::memory_order_relaxed))
        ;
    cuda::std::atomic_thread_fence(cuda::std::memory_order_seq_cst);
    cuda::atomic_ref<float, cuda::thread_scope_device> f(*fsum);
    f.fetch_add(0.25f, cuda::std::memory_order_relaxed);
    __syncthreads();
    if (threadIdx.x == 0)
        block_counts[blockIdx.x] = l.load(cuda::std::memory_order_relaxed);
}

int main()
{
    const int n = BLOCKS * THREADS;
    int *data = new int[n], *ddata, *dflags, order[BLOCKS], *dorder, *dcounter, bc[BLOCKS], *dbc;
    unsigned long long sum, *dsum;
    unsigned *in = new unsigned[n], *din, mx = 0, *dmx;
    float fsum = 0.0f, *dfsum;
    uint32_t seed = 9;

    CK(cudaMalloc(&ddata, n * sizeof(int)));
    CK(cudaMalloc(&dflags, BLOCKS * sizeof(int)));
    CK(cudaMalloc(&dsum, sizeof(sum)));
    CK(cudaMalloc(&dorder, sizeof(order)));
    CK(cudaMalloc(&dcounter, sizeof(int)));
    CK(cudaMemset(dflags, 0, BLOCKS * sizeof(int)));
    CK(cudaMemset(dsum, 0, sizeof(sum)));
    CK(cudaMemset(dcounter, 0, sizeof(int)));
    chain<<<BLOCKS, THREADS>>>(ddata, dflags, dsum, dorder, dcounter);
    CK_LAUNCH();
    CK(cudaMemcpy(data, ddata, n * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&sum, dsum, sizeof(sum), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(order, dorder, sizeof(order), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        expect_eq("chained data", i, data[i], i + 1);
    expect_equ("relaxed sum", 0, sum, (unsigned long long)n * (n - 1) / 2);
    for (int b = 0; b < BLOCKS; b++)
        expect_eq("publication order", b, order[b], b);

    for (int i = 0; i < n; i++)
        in[i] = rng_next(&seed);
    CK(cudaMalloc(&din, n * sizeof(unsigned)));
    CK(cudaMalloc(&dmx, sizeof(unsigned)));
    CK(cudaMalloc(&dbc, sizeof(bc)));
    CK(cudaMalloc(&dfsum, sizeof(float)));
    CK(cudaMemcpy(din, in, n * sizeof(unsigned), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dmx, &mx, sizeof(unsigned), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dfsum, &fsum, sizeof(float), cudaMemcpyHostToDevice));
    cas_and_block_scope<<<BLOCKS, THREADS>>>(dmx, din, dbc, dfsum);
    CK_LAUNCH();
    CK(cudaMemcpy(&mx, dmx, sizeof(unsigned), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(bc, dbc, sizeof(bc), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&fsum, dfsum, sizeof(float), cudaMemcpyDeviceToHost));
    unsigned want = 0;
    for (int i = 0; i < n; i++)
        want = in[i] > want ? in[i] : want;
    expect_equ("CAS max", 0, mx, want);
    for (int b = 0; b < BLOCKS; b++)
        expect_eq("block-scope count", b, bc[b], 2 * THREADS);
    expect_bitsf("atomic float sum", 0, fsum, 0.25f * n);
    CK(cudaFree(ddata));
    CK(cudaFree(dflags));
    CK(cudaFree(dsum));
    CK(cudaFree(dorder));
    CK(cudaFree(dcounter));
    CK(cudaFree(din));
    CK(cudaFree(dmx));
    CK(cudaFree(dbc));
    CK(cudaFree(dfsum));
    delete[] data;
    delete[] in;
    return finish();
}
