// Launch paths: cudaLaunchKernel with an argument array (scalars of several
// sizes, a pointer and a struct), the triple-chevron form with a stream and
// dynamic shared memory, 300 back-to-back tiny launches that must all run in
// order on the default stream, cudaFuncGetAttributes on a kernel (ptxVersion
// is the PTX's target architecture, 75 for -arch=sm_75), a kernel
// with no parameters, and large grids (gridDim.x = 70000 > 65535; gridDim.y
// and .z of 300 and 64). Exact.
#define TEST_NAME "launch_api"
#include "common.h"

struct Pair {
    short a;
    double b;
};

__device__ int d_noparam_hits;

__global__ void many_args(int *out, char c, short s, long long ll, float f, double d, Pair p)
{
    extern __shared__ int dyn[];
    int t = threadIdx.x;
    dyn[t] = t;
    __syncthreads();
    if (t == 0) {
        out[0] = c;
        out[1] = s;
        out[2] = (int)(ll >> 33);
        out[3] = (int)(f * 4.0f);
        out[4] = (int)(d * 8.0);
        out[5] = p.a;
        out[6] = (int)(p.b * 2.0);
        out[7] = dyn[blockDim.x - 1];
    }
}

__global__ void step(int *v, int k)
{
    // each launch depends on the previous: v = v * 3 + k (mod 2^32)
    if (threadIdx.x == 0)
        *v = (int)((unsigned)*v * 3u + (unsigned)k);
}

__global__ void grid_ids(unsigned *out)
{
    unsigned b = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    if (threadIdx.x == 0)
        out[b] = blockIdx.x ^ (blockIdx.y << 17) ^ (blockIdx.z << 26);
}

__global__ void noparam()
{
    atomicAdd(&d_noparam_hits, 1);
}

int main()
{
    int *d, h[8];
    CK(cudaMalloc(&d, sizeof(h)));
    CK(cudaMemset(d, 0, sizeof(h)));

    char c = -7;
    short s = 30000;
    long long ll = 0x1234567800000000ll;
    float f = 2.75f;
    double dd = -1.125;
    Pair p = {-123, 45.5};
    void *args[] = {&d, &c, &s, &ll, &f, &dd, &p};
    CK(cudaLaunchKernel((const void *)many_args, dim3(1), dim3(64), args, 64 * sizeof(int), 0));
    CK_LAUNCH();
    CK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
    const int want[8] = {-7, 30000, (int)(0x1234567800000000ll >> 33), 11, -9, -123, 91, 63};
    for (int k = 0; k < 8; k++)
        expect_eq("cudaLaunchKernel args", k, h[k], want[k]);

    cudaStream_t st;
    CK(cudaStreamCreate(&st));
    many_args<<<2, 128, 128 * sizeof(int), st>>>(d, 'x', -1, -(1ll << 40), -0.5f, 0.25, p);
    CK(cudaGetLastError());
    CK(cudaStreamSynchronize(st));
    CK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
    const int want2[8] = {'x', -1, (int)((-(1ll << 40)) >> 33), -2, 2, -123, 91, 127};
    for (int k = 0; k < 8; k++)
        expect_eq("chevron args", k, h[k], want2[k]);

    int *v, hv;
    unsigned wv = 1;
    CK(cudaMalloc(&v, sizeof(int)));
    hv = 1;
    CK(cudaMemcpy(v, &hv, sizeof(int), cudaMemcpyHostToDevice));
    for (int k = 0; k < 300; k++) {
        step<<<1, 32>>>(v, k);
        wv = wv * 3u + (unsigned)k;
    }
    CK_LAUNCH();
    CK(cudaMemcpy(&hv, v, sizeof(int), cudaMemcpyDeviceToHost));
    expect_equ("300 ordered launches", 0, (unsigned)hv, wv);

    cudaFuncAttributes attr;
    memset(&attr, 0, sizeof(attr));
    CK(cudaFuncGetAttributes(&attr, many_args));
    expect_true(attr.maxThreadsPerBlock > 0 && attr.maxThreadsPerBlock <= 1024,
                "cudaFuncGetAttributes: maxThreadsPerBlock not in 1..1024");
    expect_true(attr.numRegs >= 0, "cudaFuncGetAttributes: numRegs < 0");
    // The virtual architecture of the PTX (compute_75 here: run.sh builds with
    // -arch=sm_75), which CUB compares with __CUDA_ARCH__ / 10 to pick its
    // tuning policies; it is not the PTX ISA version.
    expect_eq("cudaFuncGetAttributes ptxVersion", 0, attr.ptxVersion, 75);

    noparam<<<3, 32>>>();
    CK_LAUNCH();
    int hits = 0;
    CK(cudaMemcpyFromSymbol(&hits, d_noparam_hits, sizeof(int)));
    expect_eq("noparam hits", 0, hits, 96);
    const dim3 grids[2] = {dim3(70000), dim3(3, 300, 64)};
    for (const dim3 &gr : grids) {
        unsigned nb = gr.x * gr.y * gr.z, *dids, *ids = new unsigned[nb];
        CK(cudaMalloc(&dids, nb * sizeof(unsigned)));
        CK(cudaMemset(dids, 0xff, nb * sizeof(unsigned)));
        grid_ids<<<gr, 1>>>(dids);
        CK_LAUNCH();
        CK(cudaMemcpy(ids, dids, nb * sizeof(unsigned), cudaMemcpyDeviceToHost));
        for (unsigned z = 0; z < gr.z; z++)
            for (unsigned y = 0; y < gr.y; y++)
                for (unsigned x = 0; x < gr.x; x++) {
                    unsigned b = (z * gr.y + y) * gr.x + x;
                    expect_equ("large grid block id", b, ids[b], x ^ (y << 17) ^ (z << 26));
                }
        CK(cudaFree(dids));
        delete[] ids;
    }
    CK(cudaStreamDestroy(st));
    CK(cudaFree(d));
    CK(cudaFree(v));
    return finish();
}
