// Block barriers beyond __syncthreads: __syncthreads_count, _and and _or
// (bar.red) with per-thread predicates, repeated in a loop; and named
// barriers through inline PTX (bar.arrive / bar.sync with an id and a
// thread count) in a producer/consumer hand-off between two warp groups of
// one block. Exact.
#define TEST_NAME "barrier_ops"
#include "common.h"

#define THREADS 256

__global__ void reductions(const int *in, int *out)
{
    int t = threadIdx.x, v = in[blockIdx.x * THREADS + t];
    int *o = out + blockIdx.x * 3 * 4;
    for (int r = 0; r < 4; r++) {
        int c = __syncthreads_count(v > 25 * r);
        int a = __syncthreads_and(v >= r);
        int any = __syncthreads_or(v == 97 + r);
        if (t == 0) {
            o[3 * r] = c;
            o[3 * r + 1] = a != 0;
            o[3 * r + 2] = any != 0;
        }
    }
}

// Warps 0-1 produce into shared memory, warps 2-3 consume; barrier 1 says
// "data ready" (producers arrive, consumers sync), barrier 2 says "slot
// free" (consumers arrive, producers sync). 128 threads take part in each.
__global__ void producer_consumer(int *out, int rounds)
{
    __shared__ int slot[64];
    int t = threadIdx.x;
    if (t < 64) {
        for (int r = 0; r < rounds; r++) {
            if (r > 0)
                asm volatile("bar.sync 2, 128;" ::: "memory");
            slot[t] = r * 1000 + t;
            asm volatile("bar.arrive 1, 128;" ::: "memory");
        }
    } else {
        int acc = 0;
        for (int r = 0; r < rounds; r++) {
            asm volatile("bar.sync 1, 128;" ::: "memory");
            acc += slot[127 - t];
            if (r + 1 < rounds)
                asm volatile("bar.arrive 2, 128;" ::: "memory");
        }
        out[t - 64] = acc;
    }
}

int main()
{
    const int blocks = 3, n = blocks * THREADS;
    int in[n], out[blocks * 12], pc[64], *din, *dout, *dpc;
    uint32_t seed = 31;

    for (int i = 0; i < n; i++)
        in[i] = (int)(rng_next(&seed) % 100);
    in[THREADS + 5] = 98; // block 1 has a 98, blocks 0 and 2 may not
    for (int i = 2 * THREADS; i < 3 * THREADS; i++)
        in[i] = 3 + i % 90; // block 2: all >= 3
    CK(cudaMalloc(&din, sizeof(in)));
    CK(cudaMalloc(&dout, sizeof(out)));
    CK(cudaMalloc(&dpc, sizeof(pc)));
    CK(cudaMemcpy(din, in, sizeof(in), cudaMemcpyHostToDevice));
    reductions<<<blocks, THREADS>>>(din, dout);
    CK_LAUNCH();
    CK(cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++)
        for (int r = 0; r < 4; r++) {
            int c = 0, a = 1, any = 0;
            for (int t = 0; t < THREADS; t++) {
                int v = in[b * THREADS + t];
                c += v > 25 * r;
                a &= v >= r;
                any |= v == 97 + r;
            }
            expect_eq("syncthreads_count", b * 4 + r, out[b * 12 + 3 * r], c);
            expect_eq("syncthreads_and", b * 4 + r, out[b * 12 + 3 * r + 1], a);
            expect_eq("syncthreads_or", b * 4 + r, out[b * 12 + 3 * r + 2], any);
        }

    const int rounds = 5;
    producer_consumer<<<1, 128>>>(dpc, rounds);
    CK_LAUNCH();
    CK(cudaMemcpy(pc, dpc, sizeof(pc), cudaMemcpyDeviceToHost));
    for (int k = 0; k < 64; k++) {
        int t = k + 64, want = 0;
        for (int r = 0; r < rounds; r++)
            want += r * 1000 + (127 - t);
        expect_eq("producer/consumer", k, pc[k], want);
    }
    CK(cudaFree(din));
    CK(cudaFree(dout));
    CK(cudaFree(dpc));
    return finish();
}
