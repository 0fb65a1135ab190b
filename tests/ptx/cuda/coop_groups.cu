// Cooperative groups: thread_block, tiled_partition (static and dynamic),
// coalesced_threads, cg::reduce, labeled partitions and grid sync.
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>

namespace cg = cooperative_groups;

__global__ void cg_block_reduce(const int *in, int *out, int n)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    int i = block.group_index().x * block.size() + block.thread_rank();
    int v = i < n ? in[i] : 0;
    int s = cg::reduce(warp, v, cg::plus<int>());
    int m = cg::reduce(warp, v, cg::greater<int>());
    __shared__ int partial[32];
    if (warp.thread_rank() == 0) partial[warp.meta_group_rank()] = s + m;
    block.sync();
    if (warp.meta_group_rank() == 0) {
        int p = warp.thread_rank() < warp.meta_group_size() ? partial[warp.thread_rank()] : 0;
        p = cg::reduce(warp, p, cg::plus<int>());
        if (warp.thread_rank() == 0) out[blockIdx.x] = p;
    }
}

__global__ void cg_tiles(const float *in, float *out, int n)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(block);
    cg::thread_block_tile<4> t4 = cg::tiled_partition<4>(t16);
    cg::thread_group dyn = cg::tiled_partition(block, 8);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : 0.0f;
    v += t16.shfl_down(v, 1);
    v += t4.shfl_xor(v, 2);
    v += t16.shfl(v, 0);
    unsigned b = t16.ballot(v > 0.0f);
    int anyv = t4.any(v < 0.0f);
    int allv = t4.all(v < 100.0f);
    dyn.sync();
    unsigned dr = dyn.thread_rank();
    unsigned ds = dyn.size();
    t16.sync();
    float inc = cg::inclusive_scan(t16, v);
    float exc = cg::exclusive_scan(t4, v, cg::plus<float>());
    if (i < n) out[i] = v + (float)b + anyv + allv + dr + ds + inc + exc;
}

__global__ void cg_coalesced(const int *in, int *out, int *counter, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v = in[i];
    if (v & 1) {
        cg::coalesced_group active = cg::coalesced_threads();
        int prev = 0;
        if (active.thread_rank() == 0)
            prev = atomicAdd(counter, (int)active.size());
        prev = active.shfl(prev, 0);
        out[i] = prev + active.thread_rank();
        int s = cg::reduce(active, v, cg::plus<int>());
        if (active.thread_rank() == 0) atomicAdd(counter + 1, s);
        cg::coalesced_group sub = cg::tiled_partition(active, 4);
        sub.sync();
        cg::coalesced_group lbl = cg::labeled_partition(active, v & 6);
        out[i] += lbl.size() + sub.thread_rank();
    }
}

__global__ void cg_grid_sync(float *data, int n, int iters)
{
    cg::grid_group grid = cg::this_grid();
    for (int it = 0; it < iters; ++it) {
        for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size())
            data[i] = data[i] * 0.5f + 1.0f;
        grid.sync();
    }
    if (grid.thread_rank() == 0) data[0] += (float)grid.num_blocks();
}
