// Custom atomics built on atomicCAS loops: float max (on the int bits), double
// multiply (64-bit CAS; factors are powers of two so the product is exact),
// saturating unsigned add, a 16-bit CAS counter, and a spin lock (one thread
// per block, atomicCAS to take it, atomicExch to release) guarding a
// non-atomic two-word update.
#define TEST_NAME "atomic_cas_custom"
#include "common.h"

#define BLOCKS 32
#define THREADS 128
#define N (BLOCKS * THREADS)
#define SAT_LIMIT 100000u

__device__ float atomic_max_float(float *addr, float v)
{
    int *p = (int *)addr;
    int old = *p, assumed;

    do {
        assumed = old;
        if (__int_as_float(assumed) >= v)
            break;
        old = atomicCAS(p, assumed, __float_as_int(v));
    } while (old != assumed);
    return __int_as_float(old);
}

__device__ double atomic_mul_double(double *addr, double v)
{
    unsigned long long *p = (unsigned long long *)addr;
    unsigned long long old = *p, assumed;

    do {
        assumed = old;
        old = atomicCAS(p, assumed, __double_as_longlong(__longlong_as_double(assumed) * v));
    } while (old != assumed);
    return __longlong_as_double(old);
}

__device__ unsigned atomic_add_sat(unsigned *addr, unsigned v)
{
    unsigned old = *addr, assumed;

    do {
        assumed = old;
        unsigned nv = assumed + v > SAT_LIMIT ? SAT_LIMIT : assumed + v;
        old = atomicCAS(addr, assumed, nv);
    } while (old != assumed);
    return old;
}

__device__ void atomic_inc16(unsigned short *addr)
{
    unsigned short old = *addr, assumed;

    do {
        assumed = old;
        old = atomicCAS(addr, assumed, (unsigned short)(assumed + 1));
    } while (old != assumed);
}

struct pair {
    long long a, b; // invariant under the lock: b == 3 * a
};

__global__ void custom(const float *vals, float *fmax, double *prod, unsigned *sat,
                       unsigned short *c16, int *lock, volatile pair *pr)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;

    atomic_max_float(fmax, vals[t]);
    atomic_mul_double(prod, t % 3 == 0 ? 2.0 : (t % 3 == 1 ? 0.5 : 1.0));
    atomic_add_sat(sat, (unsigned)(t % 50));
    atomic_inc16(&c16[t % 4]);
    if (threadIdx.x == 0) {
        while (atomicCAS(lock, 0, 1) != 0)
            ;
        __threadfence();
        long long a = pr->a;
        pr->a = a + blockIdx.x + 1;
        pr->b = pr->b + 3 * (blockIdx.x + 1);
        __threadfence();
        atomicExch(lock, 0);
    }
}

int main()
{
    float *vals = new float[N], *dvals, fmax = -1e30f, *dfmax;
    double prod = 1.0, *dprod;
    unsigned sat = 0, *dsat;
    unsigned short c16[4] = {65530, 0, 100, 7}, *dc16;
    int *dlock;
    pair pr = {0, 0}, *dpr;
    uint32_t seed = 99;

    for (int i = 0; i < N; i++)
        vals[i] = (float)((int)(rng_next(&seed) % 2000000) - 1000000) / 3.0f;
    CK(cudaMalloc(&dvals, N * sizeof(float)));
    CK(cudaMalloc(&dfmax, sizeof(float)));
    CK(cudaMalloc(&dprod, sizeof(double)));
    CK(cudaMalloc(&dsat, sizeof(unsigned)));
    CK(cudaMalloc(&dc16, sizeof(c16)));
    CK(cudaMalloc(&dlock, sizeof(int)));
    CK(cudaMalloc(&dpr, sizeof(pair)));
    CK(cudaMemcpy(dvals, vals, N * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dfmax, &fmax, sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dprod, &prod, sizeof(double), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dsat, &sat, sizeof(unsigned), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dc16, c16, sizeof(c16), cudaMemcpyHostToDevice));
    CK(cudaMemset(dlock, 0, sizeof(int)));
    CK(cudaMemcpy(dpr, &pr, sizeof(pair), cudaMemcpyHostToDevice));
    custom<<<BLOCKS, THREADS>>>(dvals, dfmax, dprod, dsat, dc16, dlock, dpr);
    CK_LAUNCH();
    CK(cudaMemcpy(&fmax, dfmax, sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&prod, dprod, sizeof(double), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&sat, dsat, sizeof(unsigned), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(c16, dc16, sizeof(c16), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&pr, dpr, sizeof(pair), cudaMemcpyDeviceToHost));

    float want_max = -1e30f;
    int twos = 0, halves = 0;
    unsigned long long sat_sum = 0;
    for (int t = 0; t < N; t++) {
        want_max = vals[t] > want_max ? vals[t] : want_max;
        twos += t % 3 == 0;
        halves += t % 3 == 1;
        sat_sum += t % 50;
    }
    expect_bitsf("fmax", 0, fmax, want_max);
    expect_bits("prod", 0, prod, ldexp(1.0, twos - halves));
    expect_equ("sat", 0, sat, sat_sum > SAT_LIMIT ? SAT_LIMIT : sat_sum);
    const unsigned short want16[4] = {(unsigned short)(65530 + N / 4), N / 4, 100 + N / 4,
                                      7 + N / 4};
    for (int i = 0; i < 4; i++)
        expect_equ("c16", i, c16[i], want16[i]);
    expect_eq("locked a", 0, pr.a, (long long)BLOCKS * (BLOCKS + 1) / 2);
    expect_eq("locked b", 0, pr.b, 3LL * BLOCKS * (BLOCKS + 1) / 2);
    CK(cudaFree(dvals));
    CK(cudaFree(dfmax));
    CK(cudaFree(dprod));
    CK(cudaFree(dsat));
    CK(cudaFree(dc16));
    CK(cudaFree(dlock));
    CK(cudaFree(dpr));
    delete[] vals;
    return finish();
}
