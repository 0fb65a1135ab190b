// The CUDA 12+ extensible launch: cudaLaunchKernelEx (the C++ template over
// cudaLaunchKernelExC) with a cudaLaunchConfig_t giving grid, block, dynamic
// shared memory and stream, with no attributes and with a priority
// attribute; arguments passed as typed C++ values. Exact.
#define TEST_NAME "launch_ex"
#include "common.h"

__global__ void scaled_copy(const int *in, int *out, int n, int mul)
{
    extern __shared__ int s[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? in[i] : 0;
    __syncthreads();
    if (i < n)
        out[i] = s[blockDim.x - 1 - threadIdx.x] * mul;
}

int main()
{
    const int n = 1024, bs = 128;
    int h[n], o[n], *din, *dout;
    cudaStream_t st;

    for (int i = 0; i < n; i++)
        h[i] = i * 3 - 77;
    CK(cudaMalloc(&din, sizeof(h)));
    CK(cudaMalloc(&dout, sizeof(o)));
    CK(cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice));
    CK(cudaStreamCreate(&st));

    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(n / bs);
    cfg.blockDim = dim3(bs);
    cfg.dynamicSmemBytes = bs * sizeof(int);
    cfg.stream = st;
    CK(cudaLaunchKernelEx(&cfg, scaled_copy, (const int *)din, dout, n, 5));
    CK(cudaStreamSynchronize(st));
    CK(cudaMemcpy(o, dout, sizeof(o), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        int b = i / bs, t = i % bs;
        expect_eq("no attributes", i, o[i], h[b * bs + bs - 1 - t] * 5);
    }

    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributePriority;
    attr[0].val.priority = 0;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    cfg.stream = 0;
    CK(cudaLaunchKernelEx(&cfg, scaled_copy, (const int *)din, dout, n, -2));
    CK_LAUNCH();
    CK(cudaMemcpy(o, dout, sizeof(o), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        int b = i / bs, t = i % bs;
        expect_eq("priority attribute", i, o[i], h[b * bs + bs - 1 - t] * -2);
    }
    CK(cudaStreamDestroy(st));
    CK(cudaFree(din));
    CK(cudaFree(dout));
    return finish();
}
