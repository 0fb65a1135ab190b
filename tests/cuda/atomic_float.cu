// Floating-point atomicAdd on float, double, __half2 and __half, global and
// shared. Addends are small multiples of powers of two so every sum is exact
// in any order; float atomicAdd's return values (all adding 1.0f to one word)
// must be each of 0..N-1 exactly once.
#define TEST_NAME "atomic_float"
#include "common.h"
#include <cuda_fp16.h>

#define BLOCKS 16
#define THREADS 256
#define N (BLOCKS * THREADS)
#define SLOTS 64

__global__ void adds(float *f, double *d, __half2 *h2, __half *h, float *fshared_out,
                     float *counter, int *tickets)
{
    __shared__ float s;
    int t = blockIdx.x * blockDim.x + threadIdx.x;

    if (threadIdx.x == 0)
        s = 0.0f;
    __syncthreads();
    atomicAdd(&f[t % SLOTS], 0.25f * (t % 8));
    atomicAdd(&d[t % SLOTS], 1.0 / 1024 * t);
    atomicAdd(&h2[t % SLOTS], __halves2half2(__float2half(1.0f), __float2half(-0.5f)));
    atomicAdd(&h[t % SLOTS], __float2half(0.125f));
    atomicAdd(&s, 2.0f);
    float old = atomicAdd(counter, 1.0f);
    tickets[(int)old] += 1; // distinct slots: no race if the olds are distinct
    __syncthreads();
    if (threadIdx.x == 0)
        fshared_out[blockIdx.x] = s;
}

int main()
{
    float f[SLOTS] = {0}, *df, fs[BLOCKS], *dfs, counter, *dcounter;
    double d[SLOTS] = {0}, *dd;
    __half2 h2[SLOTS], *dh2;
    __half h[SLOTS], *dh;
    int *tickets = new int[N], *dtickets;

    for (int i = 0; i < SLOTS; i++) {
        h2[i] = __halves2half2(__float2half(0.0f), __float2half(100.0f));
        h[i] = __float2half(-1.0f);
    }
    CK(cudaMalloc(&df, sizeof(f)));
    CK(cudaMalloc(&dd, sizeof(d)));
    CK(cudaMalloc(&dh2, sizeof(h2)));
    CK(cudaMalloc(&dh, sizeof(h)));
    CK(cudaMalloc(&dfs, sizeof(fs)));
    CK(cudaMalloc(&dcounter, sizeof(float)));
    CK(cudaMalloc(&dtickets, N * sizeof(int)));
    CK(cudaMemcpy(df, f, sizeof(f), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dd, d, sizeof(d), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dh2, h2, sizeof(h2), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dh, h, sizeof(h), cudaMemcpyHostToDevice));
    CK(cudaMemset(dcounter, 0, sizeof(float)));
    CK(cudaMemset(dtickets, 0, N * sizeof(int)));
    adds<<<BLOCKS, THREADS>>>(df, dd, dh2, dh, dfs, dcounter, dtickets);
    CK_LAUNCH();
    CK(cudaMemcpy(f, df, sizeof(f), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(d, dd, sizeof(d), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(h2, dh2, sizeof(h2), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(h, dh, sizeof(h), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(fs, dfs, sizeof(fs), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&counter, dcounter, sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(tickets, dtickets, N * sizeof(int), cudaMemcpyDeviceToHost));

    for (int i = 0; i < SLOTS; i++) {
        float wf = 0.0f;
        double wd = 0.0;
        for (int t = i; t < N; t += SLOTS) {
            wf += 0.25f * (t % 8);
            wd += 1.0 / 1024 * t;
        }
        const int per_slot = N / SLOTS;
        expect_bitsf("float", i, f[i], wf);
        expect_bits("double", i, d[i], wd);
        expect_bitsf("half2.x", i, __low2float(h2[i]), (float)per_slot);
        expect_bitsf("half2.y", i, __high2float(h2[i]), 100.0f - 0.5f * per_slot);
        expect_bitsf("half", i, __half2float(h[i]), -1.0f + 0.125f * per_slot);
    }
    for (int b = 0; b < BLOCKS; b++)
        expect_bitsf("shared", b, fs[b], 2.0f * THREADS);
    expect_bitsf("counter", 0, counter, (float)N);
    for (int i = 0; i < N; i++)
        expect_eq("float ticket", i, tickets[i], 1);
    CK(cudaFree(df));
    CK(cudaFree(dd));
    CK(cudaFree(dh2));
    CK(cudaFree(dh));
    CK(cudaFree(dfs));
    CK(cudaFree(dcounter));
    CK(cudaFree(dtickets));
    delete[] tickets;
    return finish();
}
