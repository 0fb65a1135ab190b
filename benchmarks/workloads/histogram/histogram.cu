// WORKLOAD: histogram | regular-memory | 256-bin byte histogram: coalesced streaming input, per-CTA shared-memory sub-histograms built with shared atomics (hot-bin contention), merged with global atomics
//
// The input is n bytes of a skewed, image-like distribution (a few dominant intensity
// ranges), read as 32-bit words by a grid-stride loop. Each CTA zeroes a 256-bin
// sub-histogram in shared memory, adds every byte of its words with shared-memory
// atomics (bins that many threads hit at once serialise), then adds its non-zero bins to
// the global histogram with global atomics. The input is touched once: the kernel is
// bandwidth- and atomic-throughput-bound.
// Note: ptxsim's timing model currently costs a shared-memory atomic like a shared load
// (same-word lanes count as a broadcast, not serialised), so the hot-bin contention does
// not show in its cycle counts yet.
//
// Check: exact integer comparison with a host histogram.
#define WL_NAME "histogram"
#include "wl.h"

#include <vector>

#define BINS 256

__global__ void k_histogram(const unsigned *__restrict__ words, int nwords,
                            unsigned *__restrict__ hist)
{
    __shared__ unsigned sub[BINS];

    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        sub[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < nwords; i += gridDim.x * blockDim.x) {
        unsigned w = words[i];
        atomicAdd(&sub[w & 0xff], 1u);
        atomicAdd(&sub[(w >> 8) & 0xff], 1u);
        atomicAdd(&sub[(w >> 16) & 0xff], 1u);
        atomicAdd(&sub[w >> 24], 1u);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x) {
        unsigned v = sub[b];
        if (v)
            atomicAdd(&hist[b], v);
    }
}

int main(int argc, char **argv)
{
    wl_size sz = wl_parse_size(argc, argv);
    const int nbytes = wl_pick(sz, 1 << 19, 3 << 22, 1 << 27);
    const int nwords = nbytes / 4;
    const int block = 256;
    const int grid = wl_pick(sz, 60, 120, 240);
    wl_rand rnd(0x5eed0004);
    std::vector<unsigned char> in(nbytes);

    // Image-like intensities: 60% a dark background around 40, 30% a mid-grey object
    // around 140, 10% uniform; the narrow peaks make a few bins hot.
    for (int i = 0; i < nbytes; i++) {
        uint32_t u = rnd.below(10);
        int v;
        if (u < 6)
            v = 40 + (int)rnd.below(9) - 4;
        else if (u < 9)
            v = 140 + (int)rnd.below(33) - 16;
        else
            v = (int)rnd.below(256);
        in[i] = (unsigned char)v;
    }

    unsigned *dwords, *dhist;
    WL_CK(cudaMalloc(&dwords, nbytes));
    WL_CK(cudaMalloc(&dhist, BINS * sizeof(unsigned)));
    WL_CK(cudaMemcpy(dwords, in.data(), nbytes, cudaMemcpyHostToDevice));
    WL_CK(cudaMemset(dhist, 0, BINS * sizeof(unsigned)));
    k_histogram<<<grid, block>>>(dwords, nwords, dhist);
    WL_LAUNCH_CK();
    std::vector<unsigned> got(BINS);
    WL_CK(cudaMemcpy(got.data(), dhist, BINS * sizeof(unsigned), cudaMemcpyDeviceToHost));

    std::vector<unsigned> want(BINS, 0);
    for (int i = 0; i < nbytes; i++)
        want[in[i]]++;
    for (int b = 0; b < BINS; b++)
        if (got[b] != want[b])
            wl_fail("bin %d: got %u, want %u", b, got[b], want[b]);
    cudaFree(dwords);
    cudaFree(dhist);
    return wl_pass();
}
