// Timing microbenchmark: a cache-sensitive kernel for the warp- and
// CTA-scheduler checks. Every warp reads its own 2 KB slice (16 lines of
// 128 B, issued back to back as independent loads) REPS times: intra-warp
// locality. 60 CTAs of 4 warps put 4 CTAs (16 warps, 32 KB of slices, 2x
// the 16 KB L1) on each of the 15 SMs, while one CTA's 8 KB fits in L1.
// tests/timing/run.sh runs it under several -gpgpu_scheduler and
// CTA-scheduler settings and compares the cycles.
#include <cstdio>
#include <cstdlib>

#define SLICE_FLOATS 512 // 2 KB per warp
#define LOADS (SLICE_FLOATS / 32)
#define REPS 8
#define THREADS 128
#define BLOCKS 60 // 4 per SM on 15 SMs

__global__ void reuse(const float *a, float *out)
{
    int gtid = blockIdx.x * blockDim.x + threadIdx.x;
    int warp = gtid >> 5, lane = threadIdx.x & 31;
    const float *s = a + (size_t)warp * SLICE_FLOATS + lane;
    float acc = 0;
#pragma unroll 1
    for (int r = 0; r < REPS; r++) {
        float v[LOADS];
        // asm volatile so the loads are neither hoisted out of the loop
        // nor moved after the first use: one warp issues its whole slice.
#pragma unroll
        for (int i = 0; i < LOADS; i++)
            asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v[i]) : "l"(s + 32 * i));
#pragma unroll
        for (int i = 0; i < LOADS; i++)
            acc += v[i];
    }
    out[gtid] = acc;
}

int main()
{
    const int n = BLOCKS * THREADS / 32 * SLICE_FLOATS, nt = BLOCKS * THREADS;
    float *a, *out, *h = (float *)malloc(n * sizeof(float)), *ho = (float *)malloc(nt * sizeof(float));
    for (int i = 0; i < n; i++)
        h[i] = (float)(i % 7);
    cudaMalloc(&a, n * sizeof(float));
    cudaMalloc(&out, nt * sizeof(float));
    cudaMemcpy(a, h, n * sizeof(float), cudaMemcpyHostToDevice);
    reuse<<<BLOCKS, THREADS>>>(a, out);
    if (cudaDeviceSynchronize() != cudaSuccess) {
        printf("FAIL sched: launch failed\n");
        return 1;
    }
    cudaMemcpy(ho, out, nt * sizeof(float), cudaMemcpyDeviceToHost);
    for (int t = 0; t < nt; t++) {
        float e = 0;
        const float *s = h + (size_t)(t / 32) * SLICE_FLOATS + t % 32;
        for (int r = 0; r < REPS; r++)
            for (int i = 0; i < LOADS; i++)
                e += s[32 * i];
        if (ho[t] != e) {
            printf("FAIL sched: out[%d] = %g, want %g\n", t, ho[t], e);
            return 1;
        }
    }
    printf("PASS sched\n");
    return 0;
}
