// WORKLOAD: scan | regular-memory | large exclusive prefix sum in three kernels: per-CTA shared-memory scan (coalesced load/store, warp shuffles, barriers), a one-CTA scan of the CTA sums, a streaming add-back
//
// out[i] = in[0] + ... + in[i-1] over n unsigned ints:
//  1. k_block_scan: each 256-thread CTA takes a chunk of 1024 elements, loads them
//     coalesced into shared memory (indices padded by one word per 32, so the
//     per-thread runs of four are read without bank conflicts), scans each thread's
//     four serially, scans the 256 thread totals with warp shuffles and a second level
//     over the 8 warp totals, writes the chunk's exclusive scan and its total.
//  2. k_scan_sums: one CTA of 1024 threads scans the chunk totals in place, 1024 at a
//     time with a running carry (the low-parallelism step between two wide ones).
//  3. k_add_back: every chunk adds its scanned offset (coalesced read-modify-write).
// Input values are small random integers; the result is compared exactly with a host
// scan (n may be any size: the last chunk is partial).
#define WL_NAME "scan"
#include "wl.h"

#include <vector>

#define THREADS 256
#define PER 4
#define CHUNK (THREADS * PER)
#define PAD(i) ((i) + ((i) >> 5))

// Exclusive scan of one value per thread across a CTA of `nwarps` warps (blockDim.x =
// 32 * nwarps <= 1024); returns the thread's exclusive prefix and the CTA total in *total.
__device__ unsigned cta_exclusive_scan(unsigned v, unsigned *warp_tot, unsigned *total)
{
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
    unsigned x = v;

#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        unsigned y = __shfl_up_sync(0xffffffffu, x, d);
        if (lane >= d)
            x += y;
    }
    if (lane == 31)
        warp_tot[warp] = x;
    __syncthreads();
    if (warp == 0) {
        unsigned t = lane < nwarps ? warp_tot[lane] : 0;
#pragma unroll
        for (int d = 1; d < 32; d <<= 1) {
            unsigned y = __shfl_up_sync(0xffffffffu, t, d);
            if (lane >= d)
                t += y;
        }
        if (lane < nwarps)
            warp_tot[lane] = t; // inclusive over warps
    }
    __syncthreads();
    unsigned before = warp ? warp_tot[warp - 1] : 0;
    *total = warp_tot[nwarps - 1];
    __syncthreads(); // warp_tot may be reused by the caller's next round
    return before + x - v;
}

__global__ void k_block_scan(const unsigned *__restrict__ in, unsigned *__restrict__ out,
                             unsigned *__restrict__ sums, int n)
{
    __shared__ unsigned s[PAD(CHUNK)];
    __shared__ unsigned warp_tot[32];
    int base = blockIdx.x * CHUNK, t = threadIdx.x;

#pragma unroll
    for (int k = 0; k < PER; k++) {
        int i = k * THREADS + t;
        s[PAD(i)] = base + i < n ? in[base + i] : 0;
    }
    __syncthreads();
    unsigned a[PER], sum = 0;
#pragma unroll
    for (int k = 0; k < PER; k++) {
        a[k] = sum;
        sum += s[PAD(t * PER + k)];
    }
    unsigned total, off = cta_exclusive_scan(sum, warp_tot, &total);
#pragma unroll
    for (int k = 0; k < PER; k++)
        s[PAD(t * PER + k)] = a[k] + off;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < PER; k++) {
        int i = k * THREADS + t;
        if (base + i < n)
            out[base + i] = s[PAD(i)];
    }
    if (t == 0)
        sums[blockIdx.x] = total;
}

__global__ void k_scan_sums(unsigned *sums, int nsums)
{
    __shared__ unsigned warp_tot[32];
    unsigned carry = 0;

    for (int b = 0; b < nsums; b += blockDim.x) {
        int i = b + threadIdx.x;
        unsigned v = i < nsums ? sums[i] : 0, total;
        unsigned ex = cta_exclusive_scan(v, warp_tot, &total);
        if (i < nsums)
            sums[i] = carry + ex;
        carry += total;
    }
}

__global__ void k_add_back(unsigned *__restrict__ out, const unsigned *__restrict__ sums, int n)
{
    int base = blockIdx.x * CHUNK;
    unsigned off = sums[blockIdx.x];

#pragma unroll
    for (int k = 0; k < PER; k++) {
        int i = base + k * THREADS + threadIdx.x;
        if (i < n)
            out[i] += off;
    }
}

int main(int argc, char **argv)
{
    wl_size sz = wl_parse_size(argc, argv);
    const int n = wl_pick(sz, 75001, 1500007, 33554467);
    const int nchunks = (n + CHUNK - 1) / CHUNK;
    wl_rand rnd(0x5eed0007);
    std::vector<unsigned> in(n);

    for (auto &v : in)
        v = rnd.below(16);

    unsigned *din, *dout, *dsums;
    WL_CK(cudaMalloc(&din, n * sizeof(unsigned)));
    WL_CK(cudaMalloc(&dout, n * sizeof(unsigned)));
    WL_CK(cudaMalloc(&dsums, nchunks * sizeof(unsigned)));
    WL_CK(cudaMemcpy(din, in.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));

    k_block_scan<<<nchunks, THREADS>>>(din, dout, dsums, n);
    WL_LAUNCH_CK();
    k_scan_sums<<<1, 1024>>>(dsums, nchunks);
    WL_LAUNCH_CK();
    k_add_back<<<nchunks, THREADS>>>(dout, dsums, n);
    WL_LAUNCH_CK();

    std::vector<unsigned> got(n);
    WL_CK(cudaMemcpy(got.data(), dout, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    unsigned acc = 0;
    for (int i = 0; i < n; i++) {
        if (got[i] != acc)
            wl_fail("out[%d] = %u, want %u", i, got[i], acc);
        acc += in[i];
    }
    cudaFree(din);
    cudaFree(dout);
    cudaFree(dsums);
    return wl_pass();
}
