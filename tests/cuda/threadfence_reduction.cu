// The "last block" pattern (threadFenceReduction): each block writes its
// partial sum, issues __threadfence(), and takes a ticket with atomicInc;
// the block that draws the last ticket sums all partials (read through a
// volatile pointer) and resets the counter so the kernel can run again.
// Run three times with different inputs. Exact.
#define TEST_NAME "threadfence_reduction"
#include "common.h"

#define THREADS 128

__device__ unsigned d_ticket;

__global__ void sum_last_block(const int *in, int n, volatile long long *partial, long long *total)
{
    __shared__ long long s[THREADS];
    __shared__ bool last;
    int t = threadIdx.x;
    long long v = 0;

    for (int i = blockIdx.x * blockDim.x + t; i < n; i += blockDim.x * gridDim.x)
        v += in[i];
    s[t] = v;
    __syncthreads();
    for (int k = THREADS / 2; k > 0; k >>= 1) {
        if (t < k)
            s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0) {
        partial[blockIdx.x] = s[0];
        __threadfence();
        unsigned ticket = atomicInc(&d_ticket, gridDim.x);
        last = ticket == gridDim.x - 1;
    }
    __syncthreads();
    if (last) {
        long long acc = 0;
        for (int b = t; b < (int)gridDim.x; b += blockDim.x)
            acc += partial[b];
        s[t] = acc;
        __syncthreads();
        for (int k = THREADS / 2; k > 0; k >>= 1) {
            if (t < k)
                s[t] += s[t + k];
            __syncthreads();
        }
        if (t == 0) {
            *total = s[0];
            d_ticket = 0;
        }
    }
}

int main()
{
    const int n = 30000, blocks = 37;
    int *in = new int[n], *din;
    long long *dpartial, *dtotal, total;
    uint32_t seed = 404;

    CK(cudaMalloc(&din, n * sizeof(int)));
    CK(cudaMalloc(&dpartial, blocks * sizeof(long long)));
    CK(cudaMalloc(&dtotal, sizeof(long long)));
    for (int run = 0; run < 3; run++) {
        long long want = 0;
        for (int i = 0; i < n; i++) {
            in[i] = (int)(rng_next(&seed) % 2000001) - 1000000 + run;
            want += in[i];
        }
        CK(cudaMemcpy(din, in, n * sizeof(int), cudaMemcpyHostToDevice));
        CK(cudaMemset(dtotal, 0, sizeof(long long)));
        sum_last_block<<<blocks, THREADS>>>(din, n, dpartial, dtotal);
        CK_LAUNCH();
        CK(cudaMemcpy(&total, dtotal, sizeof(long long), cudaMemcpyDeviceToHost));
        expect_eq("total", run, total, want);
    }
    unsigned ticket = 1;
    CK(cudaMemcpyFromSymbol(&ticket, d_ticket, sizeof(unsigned)));
    expect_equ("ticket counter reset", 0, ticket, 0);
    CK(cudaFree(din));
    CK(cudaFree(dpartial));
    CK(cudaFree(dtotal));
    delete[] in;
    return finish();
}
