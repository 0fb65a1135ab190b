// Warp-level intrinsics: shuffles, votes, match, reduce, syncwarp, activemask.
#include <cuda_runtime.h>

#define FULL 0xffffffffu

__global__ void warp_shuffles(const int *in, int *out, const double *din, double *dout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int v = i < n ? in[i] : 0;
    int r = 0;
    r += __shfl_sync(FULL, v, 0);
    r += __shfl_sync(FULL, v, lane ^ 3, 16);
    r += __shfl_up_sync(FULL, v, 1);
    r += __shfl_up_sync(FULL, v, 2, 8);
    r += __shfl_down_sync(FULL, v, 4);
    r += __shfl_down_sync(FULL, v, 1, 16);
    r += __shfl_xor_sync(FULL, v, 16);
    r += __shfl_xor_sync(FULL, v, 1, 4);
    float f = (float)v;
    f += __shfl_sync(FULL, f, 31) + __shfl_xor_sync(FULL, f, 8);
    unsigned long long ll = (unsigned long long)v << 20;
    ll += __shfl_down_sync(FULL, ll, 2);
    double d = i < n ? din[i] : 0.0;
    d += __shfl_xor_sync(FULL, d, 1);
    d += __shfl_up_sync(FULL, d, 5);
    if (i < n) {
        out[i] = r + (int)f + (int)ll;
        dout[i] = d;
    }
}

__global__ void warp_votes(const int *in, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : -1;
    unsigned ballot = __ballot_sync(FULL, v > 0);
    int any = __any_sync(FULL, v == 42);
    int all = __all_sync(FULL, v >= 0);
    unsigned uni = __uni_sync(FULL, v & 1);
    unsigned active = __activemask();
    unsigned r = ballot ^ (any << 1) ^ (all << 2) ^ (uni << 3) ^ active;
    if (v & 1) {
        unsigned m = __activemask();
        r += __popc(m) + __popc(__ballot_sync(m, v > 10));
        __syncwarp(m);
    }
    __syncwarp();
    unsigned lt = 0;
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
    r += __popc(ballot & lt);
    if (i < n) out[i] = r;
}

__global__ void warp_match(const int *keys, const long long *lkeys, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int k = i < n ? keys[i] : 0;
    long long lk = i < n ? lkeys[i] : 0;
    unsigned same = __match_any_sync(FULL, k);
    int pred = 0;
    unsigned all = __match_all_sync(FULL, k, &pred);
    unsigned same64 = __match_any_sync(FULL, lk);
    int pred64 = 0;
    unsigned all64 = __match_all_sync(FULL, lk, &pred64);
    int leader = __ffs(same) - 1;
    if (i < n) out[i] = same ^ all ^ (unsigned)pred ^ same64 ^ all64 ^ (unsigned)pred64 ^ (unsigned)leader;
}

__device__ int warp_reduce_sum(int v)
{
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(FULL, v, off);
    return v;
}

__global__ void warp_reductions(const int *in, int *out, unsigned *uout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    int s = warp_reduce_sum(v);
#if __CUDA_ARCH__ >= 800
    unsigned u = (unsigned)v;
    s += (int)__reduce_add_sync(FULL, u);
    s += __reduce_min_sync(FULL, v) + __reduce_max_sync(FULL, v);
    u = __reduce_and_sync(FULL, u) ^ __reduce_or_sync(FULL, u) ^ __reduce_xor_sync(FULL, u);
    u += __reduce_min_sync(FULL, (unsigned)i) + __reduce_max_sync(FULL, (unsigned)i);
    if ((threadIdx.x & 31) == 0) uout[i / 32] = u;
#endif
    if ((threadIdx.x & 31) == 0) out[i / 32] = s;
}

__global__ void warp_scan(int *data, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int v = i < n ? data[i] : 0;
#pragma unroll
    for (int off = 1; off < 32; off <<= 1) {
        int t = __shfl_up_sync(FULL, v, off);
        if (lane >= off) v += t;
    }
    if (i < n) data[i] = v;
}
