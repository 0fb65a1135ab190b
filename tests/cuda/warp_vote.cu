// Warp vote and match: __all_sync, __any_sync, __ballot_sync with full and
// partial masks, __activemask inside divergent branches (per-lane
// predicates), __match_any_sync and __match_all_sync on 32- and 64-bit
// values, plus __popc/__ffs on the ballots; and, in a converged warp, votes
// and matches whose membermask names only the lane's group of 8 (as
// cooperative-groups tiles issue them): lanes outside the membermask take no
// part (PTX ISA, vote.sync and match.sync). Exact.
#define TEST_NAME "warp_vote"
#include "common.h"

#define NOUT 14

__global__ void vote(const int *in, const long long *in64, unsigned *out)
{
    int g = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;
    int v = in[g];
    unsigned *o = out + g * NOUT;

    o[0] = __all_sync(0xffffffffu, v >= 0);
    o[1] = __any_sync(0xffffffffu, v > 90);
    o[2] = __ballot_sync(0xffffffffu, v & 1);
    o[3] = __popc(o[2]) * 100 + __ffs(o[2]);
    o[4] = 0xdeadu;
    if (lane & 1) // only odd lanes: partial mask
        o[4] = __ballot_sync(0xaaaaaaaau, v > 50);
    o[5] = 0xdeadu;
    if (v % 3 == 0)
        o[5] = __activemask();
    o[6] = __match_any_sync(0xffffffffu, v % 5);
    int pred = 0;
    o[7] = __match_all_sync(0xffffffffu, lane < 32 ? 7 : v, &pred) | ((unsigned)pred << 31);
    o[8] = __match_any_sync(0xffffffffu, in64[g]);
    o[9] = __match_all_sync(0xffffffffu, in64[g], &pred) ? 1u + (unsigned)pred : 0u;
    unsigned group = 0xffu << (lane & ~7); // converged, one membermask per group of 8
    o[10] = __ballot_sync(group, v & 1);
    o[11] = __all_sync(group, v >= 10);
    o[12] = __any_sync(group, v > 90);
    o[13] = __match_any_sync(group, v % 5);
}

int main()
{
    const int blocks = 2, threads = 128, n = blocks * threads, warps = n / 32;
    int in[n], *din;
    long long in64[n], *din64;
    unsigned *out = new unsigned[n * NOUT], *dout;
    uint32_t seed = 77;

    for (int i = 0; i < n; i++) {
        in[i] = (int)(rng_next(&seed) % 100);
        in64[i] = (long long)(rng_next(&seed) % 3) << 40 | 5;
    }
    for (int i = 32; i < 64; i++) // warp 1: all equal 64-bit values
        in64[i] = -1;
    for (int i = 64; i < 96; i++)
        in[i] = -i; // warp 2: all negative
    CK(cudaMalloc(&din, sizeof(in)));
    CK(cudaMalloc(&din64, sizeof(in64)));
    CK(cudaMalloc(&dout, n * NOUT * sizeof(unsigned)));
    CK(cudaMemcpy(din, in, sizeof(in), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(din64, in64, sizeof(in64), cudaMemcpyHostToDevice));
    vote<<<blocks, threads>>>(din, din64, dout);
    CK_LAUNCH();
    CK(cudaMemcpy(out, dout, n * NOUT * sizeof(unsigned), cudaMemcpyDeviceToHost));

    for (int w = 0; w < warps; w++) {
        const int *v = in + 32 * w;
        const long long *v64 = in64 + 32 * w;
        unsigned all = 1, any = 0, odd = 0, odd_gt50 = 0, tri = 0;
        for (int l = 0; l < 32; l++) {
            all &= v[l] >= 0;
            any |= v[l] > 90;
            odd |= (unsigned)(v[l] & 1) << l;
            if (l & 1)
                odd_gt50 |= (unsigned)(v[l] > 50) << l;
            tri |= (unsigned)(v[l] % 3 == 0) << l;
        }
        bool all64 = true;
        for (int l = 1; l < 32; l++)
            all64 = all64 && v64[l] == v64[0];
        for (int l = 0; l < 32; l++) {
            int g = 32 * w + l;
            const unsigned *o = out + g * NOUT;
            unsigned same5 = 0, same64 = 0;
            for (int m = 0; m < 32; m++) {
                same5 |= (unsigned)(v[m] % 5 == v[l] % 5) << m;
                same64 |= (unsigned)(v64[m] == v64[l]) << m;
            }
            expect_equ("all", g, o[0], all);
            expect_equ("any", g, o[1], any);
            expect_equ("ballot", g, o[2], odd);
            expect_equ("popc/ffs", g, o[3], __builtin_popcount(odd) * 100 + __builtin_ffs(odd));
            expect_equ("partial ballot", g, o[4], (l & 1) ? odd_gt50 : 0xdeadu);
            expect_equ("activemask", g, o[5], v[l] % 3 == 0 ? tri : 0xdeadu);
            expect_equ("match_any", g, o[6], same5);
            expect_equ("match_all (all equal)", g, o[7], 0xffffffffu | (1u << 31));
            expect_equ("match_any 64", g, o[8], same64);
            expect_equ("match_all 64", g, o[9], all64 ? 2u : 0u);
            unsigned group = 0xffu << (l & ~7), gall = 1, gany = 0;
            for (int m = l & ~7; m < (l & ~7) + 8; m++) {
                gall &= v[m] >= 10;
                gany |= v[m] > 90;
            }
            expect_equ("group ballot", g, o[10], odd & group);
            expect_equ("group all", g, o[11], gall);
            expect_equ("group any", g, o[12], gany);
            expect_equ("group match_any", g, o[13], same5 & group);
        }
    }
    CK(cudaFree(din));
    CK(cudaFree(din64));
    CK(cudaFree(dout));
    delete[] out;
    return finish();
}
