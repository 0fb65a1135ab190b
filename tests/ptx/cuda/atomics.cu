// Atomics of every flavour: global/shared, 32/64-bit, int/float/double,
// scoped (_block/_system) variants and cuda::atomic_ref.
#include <cuda_runtime.h>
#include <cuda/atomic>

__device__ unsigned long long g_counter64;
__device__ int g_lock;

__global__ void atomics_global(int *ip, unsigned *up, unsigned long long *ullp, float *fp, double *dp, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int old = 0;
    old += atomicAdd(ip, 1);
    old += (int)atomicAdd(up, 2u);
    old += (int)atomicAdd(ullp, 3ull);
    old += (int)atomicAdd(fp, 0.5f);
    old += (int)atomicAdd(dp, 0.25);
    old += atomicSub(ip + 1, 1);
    old += (int)atomicSub(up + 1, 1u);
    old += atomicExch(ip + 2, i);
    old += (int)atomicExch(up + 2, (unsigned)i);
    old += (int)atomicExch(ullp + 1, (unsigned long long)i);
    old += (int)atomicExch(fp + 1, (float)i);
    old += atomicMin(ip + 3, i) + atomicMax(ip + 4, i);
    old += (int)atomicMin(up + 3, (unsigned)i) + (int)atomicMax(up + 4, (unsigned)i);
    old += (int)atomicMin(ullp + 2, (unsigned long long)i) + (int)atomicMax(ullp + 3, (unsigned long long)i);
    old += (int)atomicMin((long long *)ullp + 4, (long long)-i) + (int)atomicMax((long long *)ullp + 5, (long long)-i);
    old += (int)atomicInc(up + 5, 100u) + (int)atomicDec(up + 6, 100u);
    old += atomicCAS(ip + 5, i, i + 1);
    old += (int)atomicCAS(up + 7, 0u, 1u);
    old += (int)atomicCAS(ullp + 6, 0ull, (unsigned long long)i);
    old += (int)atomicCAS((unsigned short *)(up + 8), (unsigned short)0, (unsigned short)i);
    old += atomicAnd(ip + 6, 0xff) + atomicOr(ip + 7, 1 << (i & 31)) + atomicXor(ip + 8, i);
    old += (int)atomicAnd(up + 9, 0xf0u) + (int)atomicOr(up + 10, 2u) + (int)atomicXor(up + 11, 3u);
    old += (int)atomicAnd(ullp + 7, 0xffull) + (int)atomicOr(ullp + 8, 1ull << 40) + (int)atomicXor(ullp + 9, 5ull);
    ip[64 + i] = old;
}

__global__ void atomics_scoped(int *ip, unsigned *up, unsigned long long *ullp, float *fp, double *dp)
{
    int i = threadIdx.x;
    int old = 0;
    old += atomicAdd_block(ip, 1) + atomicAdd_system(ip + 1, 1);
    old += (int)atomicAdd_block(fp, 1.0f) + (int)atomicAdd_system(fp + 1, 1.0f);
    old += (int)atomicAdd_block(dp, 1.0) + (int)atomicAdd_system(dp + 1, 1.0);
    old += (int)atomicAdd_block(ullp, 1ull) + (int)atomicAdd_system(ullp + 1, 1ull);
    old += atomicSub_block(ip + 2, 1) + atomicSub_system(ip + 3, 1);
    old += atomicExch_block(ip + 4, i) + atomicExch_system(ip + 5, i);
    old += atomicMin_block(ip + 6, i) + atomicMax_system(ip + 7, i);
    old += (int)atomicInc_block(up, 10u) + (int)atomicDec_system(up + 1, 10u);
    old += atomicCAS_block(ip + 8, 0, i) + atomicCAS_system(ip + 9, 0, i);
    old += (int)atomicCAS_block(ullp + 2, 0ull, 1ull) + (int)atomicCAS_system(ullp + 3, 0ull, 2ull);
    old += atomicAnd_block(ip + 10, 1) + atomicOr_system(ip + 11, 2) + atomicXor_block(ip + 12, 3);
    ip[32 + i] = old;
}

__global__ void atomics_shared_hist(const unsigned char *data, unsigned *hist, int n)
{
    __shared__ unsigned sh_hist[256];
    __shared__ float sh_f[32];
    __shared__ unsigned long long sh_ll;
    for (int k = threadIdx.x; k < 256; k += blockDim.x) sh_hist[k] = 0;
    if (threadIdx.x < 32) sh_f[threadIdx.x] = 0.0f;
    if (threadIdx.x == 0) sh_ll = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        atomicAdd(&sh_hist[data[i]], 1u);
        atomicAdd(&sh_f[data[i] & 31], 1.0f);
        atomicMax(&sh_ll, (unsigned long long)data[i]);
        atomicCAS(&sh_hist[0], 0u, 0u);
    }
    __syncthreads();
    for (int k = threadIdx.x; k < 256; k += blockDim.x)
        atomicAdd(&hist[k], sh_hist[k]);
    if (threadIdx.x == 0) atomicAdd(&g_counter64, sh_ll);
}

// double atomicAdd emulated with CAS (classic pre-sm_60 pattern)
__device__ double atomic_add_cas(double *address, double val)
{
    unsigned long long *a = (unsigned long long *)address;
    unsigned long long old = *a, assumed;
    do {
        assumed = old;
        old = atomicCAS(a, assumed, __double_as_longlong(val + __longlong_as_double(assumed)));
    } while (assumed != old);
    return __longlong_as_double(old);
}

__global__ void atomics_cas_loop(double *acc, const double *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomic_add_cas(acc, v[i]);
}

__global__ void spinlock_kernel(int *data)
{
    if (threadIdx.x == 0) {
        while (atomicCAS(&g_lock, 0, 1) != 0) { }
        __threadfence();
        data[0] += 1;
        __threadfence();
        atomicExch(&g_lock, 0);
    }
}

__global__ void atomic_ref_kernel(int *ip, unsigned long long *up, float *fp)
{
    cuda::atomic_ref<int, cuda::thread_scope_device> a(*ip);
    a.fetch_add(1, cuda::memory_order_relaxed);
    a.fetch_sub(2, cuda::memory_order_acq_rel);
    a.fetch_or(4);
    int expected = 0;
    a.compare_exchange_strong(expected, 5, cuda::memory_order_seq_cst);
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_block> b(*up);
    b.fetch_max(threadIdx.x, cuda::memory_order_release);
    b.store(b.load(cuda::memory_order_acquire) + 1, cuda::memory_order_release);
    cuda::atomic_ref<float, cuda::thread_scope_system> c(*fp);
    c.fetch_add(1.5f);
    cuda::atomic_thread_fence(cuda::memory_order_seq_cst, cuda::thread_scope_device);
    cuda::atomic<int, cuda::thread_scope_device> *pa = reinterpret_cast<cuda::atomic<int, cuda::thread_scope_device> *>(ip + 1);
    pa->exchange(7);
}
