// CUB block- and warp-level collectives inside user kernels: BlockReduce
// (sum and max), BlockScan (exclusive and inclusive sums), BlockRadixSort of
// 4 keys per thread, WarpReduce and WarpScan on logical warps of 8 threads,
// and BlockLoad/BlockStore with the warp-transpose algorithm. Results
// against host loops. Exact.
#define TEST_NAME "cub_block"
#include "common.h"
#include <algorithm>
#include <cub/cub.cuh>
#include <cuda/functional>

#define THREADS 128
#define ITEMS 4

__global__ void block_ops(const int *in, int *sums, int *maxes, int *excl, int *incl, int *sorted,
                          int *wsum, int *wscan, int *copy)
{
    using BlockReduce = cub::BlockReduce<int, THREADS>;
    using BlockScan = cub::BlockScan<int, THREADS>;
    using BlockSort = cub::BlockRadixSort<int, THREADS, ITEMS>;
    using WarpReduce = cub::WarpReduce<int, 8>;
    using WarpScan = cub::WarpScan<int, 8>;
    using Load = cub::BlockLoad<int, THREADS, ITEMS, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
    using Store = cub::BlockStore<int, THREADS, ITEMS, cub::BLOCK_STORE_WARP_TRANSPOSE>;
    __shared__ union {
        typename BlockReduce::TempStorage reduce;
        typename BlockScan::TempStorage scan;
        typename BlockSort::TempStorage sort;
        typename Load::TempStorage load;
        typename Store::TempStorage store;
    } tmp;
    __shared__ typename WarpReduce::TempStorage wr[THREADS / 8];
    __shared__ typename WarpScan::TempStorage ws[THREADS / 8];
    int t = threadIdx.x, base = blockIdx.x * THREADS;
    int v = in[base + t];

    int s = BlockReduce(tmp.reduce).Sum(v);
    __syncthreads();
    int m = BlockReduce(tmp.reduce).Reduce(v, cuda::maximum<int>{});
    __syncthreads();
    if (t == 0) {
        sums[blockIdx.x] = s;
        maxes[blockIdx.x] = m;
    }
    int e, i;
    BlockScan(tmp.scan).ExclusiveSum(v, e);
    __syncthreads();
    BlockScan(tmp.scan).InclusiveSum(v, i);
    __syncthreads();
    excl[base + t] = e;
    incl[base + t] = i;

    int keys[ITEMS];
    for (int k = 0; k < ITEMS; k++)
        keys[k] = in[(base * ITEMS + t * ITEMS + k) % (gridDim.x * THREADS)] * (k + 1);
    BlockSort(tmp.sort).Sort(keys);
    __syncthreads();
    for (int k = 0; k < ITEMS; k++)
        sorted[base * ITEMS + t * ITEMS + k] = keys[k];

    int ls = WarpReduce(wr[t / 8]).Sum(v);
    if (t % 8 == 0)
        wsum[base / 8 + t / 8] = ls;
    int sc;
    WarpScan(ws[t / 8]).InclusiveSum(v, sc);
    wscan[base + t] = sc;

    int items[ITEMS];
    Load(tmp.load).Load(in + blockIdx.x * THREADS * ITEMS / 4, items);
    __syncthreads();
    for (int k = 0; k < ITEMS; k++)
        items[k] = items[k] * 2 + 1;
    Store(tmp.store).Store(copy + blockIdx.x * THREADS * ITEMS, items);
}

int main()
{
    const int blocks = 4, n = blocks * THREADS;
    int in[n * ITEMS], *din; // ITEMS x longer so BlockLoad can read THREADS*ITEMS per block
    int sums[blocks], maxes[blocks], excl[n], incl[n], sorted[n * ITEMS], wsum[n / 8], wscan[n],
        copy[n * ITEMS];
    int *dsums, *dmaxes, *dexcl, *dincl, *dsorted, *dwsum, *dwscan, *dcopy;
    uint32_t seed = 128;

    for (int i = 0; i < n * ITEMS; i++)
        in[i] = (int)(rng_next(&seed) % 20001) - 10000;
    CK(cudaMalloc(&din, sizeof(in)));
    CK(cudaMalloc(&dsums, sizeof(sums)));
    CK(cudaMalloc(&dmaxes, sizeof(maxes)));
    CK(cudaMalloc(&dexcl, sizeof(excl)));
    CK(cudaMalloc(&dincl, sizeof(incl)));
    CK(cudaMalloc(&dsorted, sizeof(sorted)));
    CK(cudaMalloc(&dwsum, sizeof(wsum)));
    CK(cudaMalloc(&dwscan, sizeof(wscan)));
    CK(cudaMalloc(&dcopy, sizeof(copy)));
    CK(cudaMemcpy(din, in, sizeof(in), cudaMemcpyHostToDevice));
    block_ops<<<blocks, THREADS>>>(din, dsums, dmaxes, dexcl, dincl, dsorted, dwsum, dwscan, dcopy);
    CK_LAUNCH();
    CK(cudaMemcpy(sums, dsums, sizeof(sums), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(maxes, dmaxes, sizeof(maxes), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(excl, dexcl, sizeof(excl), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(incl, dincl, sizeof(incl), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(sorted, dsorted, sizeof(sorted), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(wsum, dwsum, sizeof(wsum), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(wscan, dwscan, sizeof(wscan), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(copy, dcopy, sizeof(copy), cudaMemcpyDeviceToHost));

    for (int b = 0; b < blocks; b++) {
        int s = 0, m = INT_MIN, run = 0;
        for (int t = 0; t < THREADS; t++) {
            int v = in[b * THREADS + t];
            s += v;
            m = v > m ? v : m;
            expect_eq("exclusive scan", b * THREADS + t, excl[b * THREADS + t], run);
            run += v;
            expect_eq("inclusive scan", b * THREADS + t, incl[b * THREADS + t], run);
        }
        expect_eq("block sum", b, sums[b], s);
        expect_eq("block max", b, maxes[b], m);
        int keys[THREADS * ITEMS];
        for (int t = 0; t < THREADS; t++)
            for (int k = 0; k < ITEMS; k++)
                keys[t * ITEMS + k] =
                    in[(b * THREADS * ITEMS + t * ITEMS + k) % (blocks * THREADS)] * (k + 1);
        std::sort(keys, keys + THREADS * ITEMS);
        for (int j = 0; j < THREADS * ITEMS; j++)
            expect_eq("block radix sort", b * THREADS * ITEMS + j, sorted[b * THREADS * ITEMS + j],
                      keys[j]);
        for (int j = 0; j < THREADS * ITEMS; j++)
            expect_eq("load/store transpose", b * THREADS * ITEMS + j,
                      copy[b * THREADS * ITEMS + j], in[b * THREADS * ITEMS / 4 + j] * 2 + 1);
    }
    for (int g = 0; g < n / 8; g++) {
        int s = 0;
        for (int k = 0; k < 8; k++) {
            s += in[g * 8 + k];
            expect_eq("logical-warp scan", g * 8 + k, wscan[g * 8 + k], s);
        }
        expect_eq("logical-warp sum", g, wsum[g], s);
    }
    CK(cudaFree(din));
    CK(cudaFree(dsums));
    CK(cudaFree(dmaxes));
    CK(cudaFree(dexcl));
    CK(cudaFree(dincl));
    CK(cudaFree(dsorted));
    CK(cudaFree(dwsum));
    CK(cudaFree(dwscan));
    CK(cudaFree(dcopy));
    return finish();
}
