// sm_90 (Hopper) features, guarded with __CUDA_ARCH__ >= 900: thread block
// clusters (__cluster_dims__, cluster_group, distributed shared memory),
// cuda::barrier (mbarrier), elect.sync, fence.proxy and setmaxnreg-style PTX.
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cuda/barrier>

namespace cg = cooperative_groups;

#if __CUDA_ARCH__ >= 900 || !defined(__CUDA_ARCH__)
#define CLUSTER_DIMS(x, y, z) __cluster_dims__(x, y, z)
#else
#define CLUSTER_DIMS(x, y, z)
#endif

__global__ void CLUSTER_DIMS(2, 1, 1) cluster_histogram(const int *in, int *bins, int n, int nbins)
{
    extern __shared__ int smem[];
#if __CUDA_ARCH__ >= 900
    cg::cluster_group cluster = cg::this_cluster();
    unsigned rank = cluster.block_rank();
    int per_block = nbins / (int)cluster.num_blocks();
    for (int k = threadIdx.x; k < per_block; k += blockDim.x) smem[k] = 0;
    cluster.sync();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        int b = in[i] % nbins;
        int dst = b / per_block;
        int *remote = cluster.map_shared_rank(smem, dst);
        atomicAdd(remote + (b % per_block), 1);
    }
    cluster.sync();
    for (int k = threadIdx.x; k < per_block; k += blockDim.x)
        atomicAdd(&bins[rank * per_block + k], smem[k]);
    dim3 ci = cluster.block_index();
    if (threadIdx.x == 0) bins[nbins + blockIdx.x] = ci.x + cluster.dim_blocks().x + (int)cluster.thread_rank();
#else
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&bins[in[i] % nbins], 1);
#endif
}

__global__ void barrier_kernel(const float *in, float *out, int n)
{
    __shared__ float buf[256];
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    if (threadIdx.x == 0) init(&bar, blockDim.x);
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    buf[threadIdx.x] = i < n ? in[i] : 0.0f;
    cuda::barrier<cuda::thread_scope_block>::arrival_token tok = bar.arrive();
    bar.wait(std::move(tok));
    float v = buf[(threadIdx.x + 1) % blockDim.x];
    bar.arrive_and_wait();
    if (i < n) out[i] = v;
}

__global__ void sm90_asm_kernel(unsigned *out, const unsigned long long *gsrc)
{
#if __CUDA_ARCH__ >= 900
    __shared__ __align__(8) unsigned long long mbar;
    __shared__ __align__(16) unsigned long long data[32];
    unsigned sbar = (unsigned)__cvta_generic_to_shared(&mbar);
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(sbar), "r"(blockDim.x));
        asm volatile("fence.mbarrier_init.release.cluster;");
    }
    __syncthreads();
    data[threadIdx.x & 31] = gsrc[threadIdx.x & 31];
    unsigned long long state;
    asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(state) : "r"(sbar) : "memory");
    unsigned done = 0;
    while (!done) {
        asm volatile("{\n\t.reg .pred p;\n\t"
                     "mbarrier.try_wait.shared::cta.b64 p, [%1], %2;\n\t"
                     "selp.u32 %0, 1, 0, p;\n\t}"
                     : "=r"(done) : "r"(sbar), "l"(state) : "memory");
    }
    unsigned is_leader;
    asm volatile("{\n\t.reg .pred p;\n\t.reg .b32 r;\n\t"
                 "elect.sync r|p, 0xffffffff;\n\t"
                 "selp.u32 %0, 1, 0, p;\n\t}"
                 : "=r"(is_leader));
    asm volatile("fence.proxy.async.shared::cta;");
    unsigned crank, cnum, cid;
    asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(crank));
    asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(cnum));
    asm("mov.u32 %0, %%clusterid.x;" : "=r"(cid));
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;");
    out[blockIdx.x * blockDim.x + threadIdx.x] = (unsigned)data[(threadIdx.x + 1) & 31] + is_leader + crank + cnum + cid;
#else
    out[blockIdx.x * blockDim.x + threadIdx.x] = (unsigned)gsrc[threadIdx.x & 31];
#endif
}

__global__ void __launch_bounds__(128, 4) sm90_bounds(float *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = __fsqrt_rn(p[i]) + 1.0f;
#if __CUDA_ARCH__ >= 900
    cg::grid_group g = cg::this_grid();
    if (g.thread_rank() == 0) p[0] += (float)g.block_rank();
#endif
}
