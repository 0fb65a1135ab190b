// Policy oracle program: a compute-bound kernel with many CTAs (an ALU
// loop, no global loads but one store per thread). DYNCTA must raise every
// core's CTA limit to N (DYNCTA oracle 27a). tests/policies/run.sh runs it.
#include <cstdio>
#include <cstdlib>

#define THREADS 64
#define BLOCKS 1200
#define ITERS 96

__global__ void alu(float *out, float seed)
{
    int gtid = blockIdx.x * blockDim.x + threadIdx.x;
    float a = seed + (float)(gtid & 15), b = 1.0f;
#pragma unroll 4
    for (int i = 0; i < ITERS; i++) { // unfused, to match the host's arithmetic
        a = __fadd_rn(__fmul_rn(a, 0.999f), b);
        b = __fadd_rn(__fmul_rn(b, 0.5f), 0.25f);
    }
    out[gtid] = a;
}

int main()
{
    const int n = BLOCKS * THREADS;
    float *d, *h = (float *)malloc(n * sizeof(float));
    cudaMalloc(&d, n * sizeof(float));
    alu<<<BLOCKS, THREADS>>>(d, 1.0f);
    if (cudaDeviceSynchronize() != cudaSuccess) {
        printf("FAIL dyn_compute: launch failed\n");
        return 1;
    }
    cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
    for (int t = 0; t < 16; t++) {
        float a = 1.0f + (float)t, b = 1.0f;
        for (int i = 0; i < ITERS; i++) {
            volatile float m = a * 0.999f, mb = b * 0.5f;
            a = m + b;
            b = mb + 0.25f;
        }
        for (int k = t; k < n; k += 16)
            if (h[k] != a) {
                printf("FAIL dyn_compute: out[%d] = %.9g, want %.9g\n", k, h[k], a);
                return 1;
            }
    }
    printf("PASS dyn_compute\n");
    return 0;
}
