// Atomics beyond 32-bit add: 64-bit signed and unsigned min/max, 64-bit
// and/or/xor, 64-bit CAS and exchange, float atomicExch, the scoped forms
// atomicAdd_block and atomicAdd_system, and 64-bit / double atomics on
// shared memory, all under contention from 8 blocks of 128 threads. Exact.
#define TEST_NAME "atomics_wide"
#include "common.h"

#define BLOCKS 8
#define THREADS 128
#define N (BLOCKS * THREADS)

struct Wide {
    long long smin, smax;
    unsigned long long umin, umax, and_, or_, xor_, cas_count, exch_sum;
    float fexch;
    int block_adds, system_adds;
};

__device__ long long val(int t)
{
    return ((long long)(t * 2654435761u) << 20) - (1LL << 50) + t;
}

__global__ void wide(Wide *w, unsigned long long *seen, double *blockd, unsigned long long *blocku)
{
    __shared__ double sd;
    __shared__ unsigned long long su;
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    long long v = val(t);
    unsigned long long u = (unsigned long long)v;

    if (threadIdx.x == 0) {
        sd = 0.0;
        su = 0;
    }
    __syncthreads();
    atomicMin(&w->smin, v);
    atomicMax(&w->smax, v);
    atomicMin(&w->umin, u);
    atomicMax(&w->umax, u);
    atomicAnd(&w->and_, ~(1ull << (t % 64)));
    atomicOr(&w->or_, 1ull << (t % 61));
    atomicXor(&w->xor_, u);
    // CAS increment of a 64-bit counter
    unsigned long long old = w->cas_count, assumed;
    do {
        assumed = old;
        old = atomicCAS(&w->cas_count, assumed, assumed + 3);
    } while (old != assumed);
    unsigned long long prev = atomicExch(&w->exch_sum, (unsigned long long)t + 1);
    if (prev)
        atomicAdd(&seen[prev - 1], 1ull);
    atomicExch(&w->fexch, (float)t);
    atomicAdd_block(&w->block_adds, 1);
    atomicAdd_system(&w->system_adds, 2);
    atomicAdd(&sd, 0.5);
    atomicAdd(&su, (unsigned long long)t << 30);
    __syncthreads();
    if (threadIdx.x == 0) {
        blockd[blockIdx.x] = sd;
        blocku[blockIdx.x] = su;
    }
}

static long long h_val(int t)
{
    return ((long long)(t * 2654435761u) << 20) - (1LL << 50) + t;
}

int main()
{
    Wide h, *dw;
    unsigned long long *seen = new unsigned long long[N], *dseen, bu[BLOCKS], *dbu;
    double bd[BLOCKS], *dbd;

    memset(&h, 0, sizeof(h));
    h.smin = LLONG_MAX;
    h.smax = LLONG_MIN;
    h.umin = ~0ull;
    h.and_ = ~0ull;
    h.fexch = -1.0f;
    CK(cudaMalloc(&dw, sizeof(h)));
    CK(cudaMalloc(&dseen, N * sizeof(unsigned long long)));
    CK(cudaMalloc(&dbd, sizeof(bd)));
    CK(cudaMalloc(&dbu, sizeof(bu)));
    CK(cudaMemcpy(dw, &h, sizeof(h), cudaMemcpyHostToDevice));
    CK(cudaMemset(dseen, 0, N * sizeof(unsigned long long)));
    wide<<<BLOCKS, THREADS>>>(dw, dseen, dbd, dbu);
    CK_LAUNCH();
    CK(cudaMemcpy(&h, dw, sizeof(h), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(seen, dseen, N * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(bd, dbd, sizeof(bd), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(bu, dbu, sizeof(bu), cudaMemcpyDeviceToHost));

    long long smin = LLONG_MAX, smax = LLONG_MIN;
    unsigned long long umin = ~0ull, umax = 0, and_ = ~0ull, or_ = 0, xor_ = 0;
    for (int t = 0; t < N; t++) {
        long long v = h_val(t);
        unsigned long long u = (unsigned long long)v;
        smin = v < smin ? v : smin;
        smax = v > smax ? v : smax;
        umin = u < umin ? u : umin;
        umax = u > umax ? u : umax;
        and_ &= ~(1ull << (t % 64));
        or_ |= 1ull << (t % 61);
        xor_ ^= u;
    }
    expect_eq("smin", 0, h.smin, smin);
    expect_eq("smax", 0, h.smax, smax);
    expect_equ("umin", 0, h.umin, umin);
    expect_equ("umax", 0, h.umax, umax);
    expect_equ("and", 0, h.and_, and_);
    expect_equ("or", 0, h.or_, or_);
    expect_equ("xor", 0, h.xor_, xor_);
    expect_equ("cas counter", 0, h.cas_count, 3ull * N);
    unsigned long long last = h.exch_sum;
    expect_true(last >= 1 && last <= N, "64-bit exchange: final value out of range");
    for (int t = 0; t < N; t++)
        expect_equ("exchanged out once", t, seen[t], (unsigned long long)(t + 1) == last ? 0 : 1);
    expect_true(h.fexch >= 0.0f && h.fexch < N && h.fexch == (float)(int)h.fexch,
                "float atomicExch: final value is not one of the stored values");
    expect_eq("atomicAdd_block", 0, h.block_adds, N);
    expect_eq("atomicAdd_system", 0, h.system_adds, 2 * N);
    for (int b = 0; b < BLOCKS; b++) {
        unsigned long long s = 0;
        for (int t = b * THREADS; t < (b + 1) * THREADS; t++)
            s += (unsigned long long)t << 30;
        expect_bits("shared double add", b, bd[b], 0.5 * THREADS);
        expect_equ("shared u64 add", b, bu[b], s);
    }
    CK(cudaFree(dw));
    CK(cudaFree(dseen));
    CK(cudaFree(dbd));
    CK(cudaFree(dbu));
    delete[] seen;
    return finish();
}
