// Timing microbenchmark: the texture cache (-gpgpu_tex_cache:l1). One warp
// reads a 32-byte linear-memory texture (one cache line) 64 times, every
// lane the same texel, so the 64 tex instructions make 64 L1T accesses that
// fetch the line once; tests/timing/run.sh checks those counts. stdout
// carries the mode-independent result.
#include <cstdio>
#include <cuda_runtime.h>

#define ITERS 64

__global__ void tex_reuse(cudaTextureObject_t t, int *out)
{
    int s = 0;
#pragma unroll 1
    for (int i = 0; i < ITERS; i++)
        s += tex1Dfetch<int>(t, i % 8);
    out[threadIdx.x] = s;
}

int main()
{
    int h[8], *d, *out, res[32], want = 0;
    for (int i = 0; i < 8; i++)
        h[i] = i * i + 3;
    for (int i = 0; i < ITERS; i++)
        want += h[i % 8];
    cudaMalloc(&d, sizeof(h));
    cudaMalloc(&out, sizeof(res));
    cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeLinear;
    rd.res.linear.devPtr = d;
    rd.res.linear.desc = cudaCreateChannelDesc<int>();
    rd.res.linear.sizeInBytes = sizeof(h);
    cudaTextureDesc td = {};
    cudaTextureObject_t t;
    if (cudaCreateTextureObject(&t, &rd, &td, NULL) != cudaSuccess) {
        printf("FAIL texcache: cudaCreateTextureObject\n");
        return 1;
    }
    tex_reuse<<<1, 32>>>(t, out);
    if (cudaMemcpy(res, out, sizeof(res), cudaMemcpyDeviceToHost) != cudaSuccess) {
        printf("FAIL texcache: %s\n", cudaGetErrorName(cudaGetLastError()));
        return 1;
    }
    for (int i = 0; i < 32; i++)
        if (res[i] != want) {
            printf("FAIL texcache: out[%d] = %d, want %d\n", i, res[i], want);
            return 1;
        }
    printf("PASS texcache\n");
    return 0;
}
