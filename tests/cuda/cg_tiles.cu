// Cooperative groups, block-local: this_thread_block() sync and ranks;
// static tiles thread_block_tile<32>, <16>, <4> with shfl_down, shfl_xor,
// shfl, any/all/ballot, meta_group_rank; cg::reduce and cg::inclusive_scan
// on tiles; a dynamic tiled_partition(block, 8); coalesced_threads() inside
// a divergent branch (size, thread_rank, shfl). Exact integer results.
#define TEST_NAME "cg_tiles"
#include "common.h"
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>

namespace cg = cooperative_groups;

#define BLOCK 128
#define NOUT 12

__global__ void tiles(const int *in, int *out)
{
    cg::thread_block block = cg::this_thread_block();
    int t = block.thread_rank(), g = blockIdx.x * BLOCK + t;
    int v = in[g];
    int *o = out + g * NOUT;

    cg::thread_block_tile<32> w = cg::tiled_partition<32>(block);
    int s = v;
    for (int k = w.size() / 2; k > 0; k /= 2)
        s += w.shfl_down(s, k);
    o[0] = w.shfl(s, 0); // warp sum, broadcast
    o[1] = w.meta_group_rank() * 1000 + w.thread_rank();

    cg::thread_block_tile<16> h = cg::tiled_partition<16>(block);
    int m = v;
    for (int k = 8; k > 0; k /= 2)
        m = max(m, h.shfl_xor(m, k));
    o[2] = m;
    o[3] = cg::reduce(h, v, cg::plus<int>());

    cg::thread_block_tile<4> q = cg::tiled_partition<4>(block);
    o[4] = cg::inclusive_scan(q, v, cg::plus<int>());
    o[5] = q.any(v > 40) | (q.all(v > -45) << 1);
    o[6] = (int)w.ballot(v & 1);

    block.sync();
    cg::thread_group d = cg::tiled_partition(block, 8);
    o[7] = (int)(d.size() * 100 + d.thread_rank());

    // Divergent: only threads with odd v take part.
    o[8] = o[9] = o[10] = -1;
    if (v & 1) {
        cg::coalesced_group c = cg::coalesced_threads();
        o[8] = c.size();
        o[9] = c.thread_rank();
        o[10] = c.shfl(v, c.size() - 1); // the highest odd lane's value
    }
    o[11] = cg::reduce(w, v, cg::greater<int>());
}

int main()
{
    const int blocks = 3, n = blocks * BLOCK;
    int in[n], *out = new int[n * NOUT], *din, *dout;
    uint32_t seed = 8080;

    for (int i = 0; i < n; i++)
        in[i] = (int)(rng_next(&seed) % 101) - 50;
    CK(cudaMalloc(&din, sizeof(in)));
    CK(cudaMalloc(&dout, n * NOUT * sizeof(int)));
    CK(cudaMemcpy(din, in, sizeof(in), cudaMemcpyHostToDevice));
    tiles<<<blocks, BLOCK>>>(din, dout);
    CK_LAUNCH();
    CK(cudaMemcpy(out, dout, n * NOUT * sizeof(int), cudaMemcpyDeviceToHost));

    for (int g = 0; g < n; g++) {
        int t = g % BLOCK, lane = t % 32, w0 = g - lane, h0 = g - t % 16, q0 = g - t % 4;
        int ws = 0, hs = 0, hm = INT_MIN, scan = 0, any = 0, all = 1, wmax = INT_MIN;
        unsigned ballot = 0;
        for (int k = 0; k < 32; k++) {
            ws += in[w0 + k];
            ballot |= (unsigned)(in[w0 + k] & 1) << k;
            wmax = in[w0 + k] > wmax ? in[w0 + k] : wmax;
        }
        for (int k = 0; k < 16; k++) {
            hs += in[h0 + k];
            hm = in[h0 + k] > hm ? in[h0 + k] : hm;
        }
        for (int k = 0; k < 4; k++) {
            if (k <= t % 4)
                scan += in[q0 + k];
            any |= in[q0 + k] > 40;
            all &= in[q0 + k] > -45;
        }
        const int *o = out + g * NOUT;
        expect_eq("warp sum", g, o[0], ws);
        expect_eq("meta/rank", g, o[1], (t / 32) * 1000 + lane);
        expect_eq("tile16 max", g, o[2], hm);
        expect_eq("tile16 reduce", g, o[3], hs);
        expect_eq("tile4 scan", g, o[4], scan);
        expect_eq("tile4 any/all", g, o[5], any | (all << 1));
        expect_equ("ballot", g, (unsigned)o[6], ballot);
        expect_eq("dynamic tile", g, o[7], 800 + t % 8);
        if (in[g] & 1) {
            int size = __builtin_popcount(ballot),
                rank = __builtin_popcount(ballot & ((1u << lane) - 1));
            int last = 31 - __builtin_clz(ballot);
            expect_eq("coalesced size", g, o[8], size);
            expect_eq("coalesced rank", g, o[9], rank);
            expect_eq("coalesced shfl", g, o[10], in[w0 + last]);
        } else {
            expect_eq("not coalesced", g, o[8] & o[9] & o[10], -1);
        }
        expect_eq("warp max reduce", g, o[11], wmax);
    }
    CK(cudaFree(din));
    CK(cudaFree(dout));
    delete[] out;
    return finish();
}
