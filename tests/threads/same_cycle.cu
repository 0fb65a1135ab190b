// Loads and stores of different SMs to the same global words in the same cycles.
//
// The parallel stepper runs a global load in the SMs' parallel part and reads it again in SM
// order when an SM ahead of it stored in that cycle (docs/timing.md "Parallel simulation").
// Here every CTA stores to a small ring of words and reads its neighbour's word back, over
// and over, so many loads meet a store of an earlier SM in the same cycle. What each thread
// saw is folded into a checksum: the values depend on the timing, so there is no host
// reference, but the checksum must be the same at every thread count (tests/threads/run.sh
// compares the output), and it differs when a load misses a store the sequential order
// gives it.
#include <cstdio>
#include <cuda_runtime.h>

#define CELLS 64
#define ITERS 400

__global__ void same_cycle(volatile unsigned *cell, unsigned *sums)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned me = t % CELLS, next = (t + 1) % CELLS, sum = 0;

    for (unsigned i = 0; i < ITERS; i++) {
        cell[me] = t * 1000u + i;
        sum = sum * 31u + cell[next];
    }
    sums[t] = sum;
}

int main()
{
    const unsigned blocks = 60, threads = 64, n = blocks * threads;
    unsigned *cell, *sums, *h = new unsigned[n];
    unsigned long long check = 0;

    if (cudaMalloc(&cell, CELLS * sizeof(unsigned)) || cudaMalloc(&sums, n * sizeof(unsigned)) ||
        cudaMemset(cell, 0, CELLS * sizeof(unsigned))) {
        printf("FAIL: allocation\n");
        return 1;
    }
    same_cycle<<<blocks, threads>>>(cell, sums);
    if (cudaDeviceSynchronize() ||
        cudaMemcpy(h, sums, n * sizeof(unsigned), cudaMemcpyDeviceToHost)) {
        printf("FAIL: %s\n", cudaGetErrorString(cudaGetLastError()));
        return 1;
    }
    for (unsigned i = 0; i < n; i++)
        check = check * 1000003ull + h[i];
    printf("same_cycle: checksum %016llx\n", check);
    delete[] h;
    return 0;
}
