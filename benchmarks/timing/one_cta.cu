// One-CTA speed benchmark (issue 20: "no slowdown on a one-CTA kernel"): a single
// block of 256 threads runs a long dependent integer/float loop, so one SM works and
// the other fourteen stay idle; -ptxsim_threads must then cost nothing.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void spin(float *out, int iters)
{
    unsigned x = threadIdx.x * 2654435761u + 1;
    float f = (float)threadIdx.x;

    for (int i = 0; i < iters; i++) {
        x = x * 1664525u + 1013904223u;
        f = __fadd_rn(__fmul_rn(f, 0.999f), (float)(x >> 24)); /* no FMA: the host checks it */
    }
    out[threadIdx.x] = f + (float)(x & 255);
}

int main()
{
    const int n = 256, iters = 200000;
    float *d, h[n];
    int wrong = 0;

    cudaMalloc(&d, sizeof(h));
    spin<<<1, n>>>(d, iters);
    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    for (int t = 0; t < n; t++) {
        unsigned x = t * 2654435761u + 1;
        float f = (float)t;

        for (int i = 0; i < iters; i++) {
            x = x * 1664525u + 1013904223u;
            f = f * 0.999f + (float)(x >> 24);
        }
        wrong += h[t] != f + (float)(x & 255);
    }
    printf("%s\n", wrong ? "FAIL" : "PASS");
    cudaFree(d);
    return wrong != 0;
}
