// Policy oracle program: a bandwidth-saturating streaming kernel with many
// CTAs (coalesced loads of 4 arrays that miss in every cache, little
// arithmetic). DYNCTA must lower the mean CTA limit below its initial
// floor(N/2) (DYNCTA oracle 27b); every CTA scheduler must give the same
// results and instruction count (oracle 24). tests/policies/run.sh runs it.
#include <cstdio>
#include <cstdlib>

#define THREADS 128
#define BLOCKS 960
#define PER 4 // elements per thread and array

__global__ void stream4(const float *a, const float *b, const float *c, const float *d,
                        float *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x, stride = gridDim.x * blockDim.x;
    float s = 0;
    for (int k = 0; k < PER; k++) {
        int i = t + k * stride;
        s += a[i] + b[i] * 2.0f + c[i] * 3.0f + d[i] * 4.0f;
    }
    if (t < n)
        out[t] = s;
}

int main()
{
    const int nt = BLOCKS * THREADS, n = nt * PER;
    float *h[4], *dv[4], *out, *ho = (float *)malloc(nt * sizeof(float));
    for (int k = 0; k < 4; k++) {
        h[k] = (float *)malloc(n * sizeof(float));
        for (int i = 0; i < n; i++)
            h[k][i] = (float)((i * (k + 3)) % 17);
        cudaMalloc(&dv[k], n * sizeof(float));
        cudaMemcpy(dv[k], h[k], n * sizeof(float), cudaMemcpyHostToDevice);
    }
    cudaMalloc(&out, nt * sizeof(float));
    stream4<<<BLOCKS, THREADS>>>(dv[0], dv[1], dv[2], dv[3], out, nt);
    if (cudaDeviceSynchronize() != cudaSuccess) {
        printf("FAIL dyn_stream: launch failed\n");
        return 1;
    }
    cudaMemcpy(ho, out, nt * sizeof(float), cudaMemcpyDeviceToHost);
    for (int t = 0; t < nt; t++) {
        float s = 0;
        for (int k = 0; k < PER; k++) {
            int i = t + k * nt;
            s += h[0][i] + h[1][i] * 2.0f + h[2][i] * 3.0f + h[3][i] * 4.0f;
        }
        if (ho[t] != s) {
            printf("FAIL dyn_stream: out[%d] = %g, want %g\n", t, ho[t], s);
            return 1;
        }
    }
    printf("PASS dyn_stream\n");
    return 0;
}
