// Dynamic shared memory (extern __shared__, size given at launch): reverse
// each block's slice through shared memory for several sizes up to 40 KiB;
// carve one dynamic buffer into double, int and char arrays (alignment);
// and mix static with dynamic shared memory in one kernel. Exact.
#define TEST_NAME "dynamic_shared"
#include "common.h"

__global__ void reverse_blocks(const int *in, int *out, int per_block)
{
    extern __shared__ int s[];
    const int *src = in + blockIdx.x * per_block;

    for (int k = threadIdx.x; k < per_block; k += blockDim.x)
        s[k] = src[k];
    __syncthreads();
    for (int k = threadIdx.x; k < per_block; k += blockDim.x)
        out[blockIdx.x * per_block + k] = s[per_block - 1 - k];
}

// Layout: nd doubles, then ni ints, then nc chars.
__global__ void carve(double *od, int *oi, char *oc, int nd, int ni, int nc)
{
    extern __shared__ double sd[];
    int *si = (int *)(sd + nd);
    char *sc = (char *)(si + ni);
    int t = threadIdx.x;

    for (int k = t; k < nd; k += blockDim.x)
        sd[k] = k * 0.5;
    for (int k = t; k < ni; k += blockDim.x)
        si[k] = -k;
    for (int k = t; k < nc; k += blockDim.x)
        sc[k] = (char)(k * 3);
    __syncthreads();
    for (int k = t; k < nd; k += blockDim.x)
        od[k] = sd[nd - 1 - k] + si[k % ni];
    for (int k = t; k < ni; k += blockDim.x)
        oi[k] = si[k] + sc[k % nc];
    for (int k = t; k < nc; k += blockDim.x)
        oc[k] = sc[nc - 1 - k];
}

__global__ void mixed(int *out)
{
    __shared__ int stat[64];
    extern __shared__ int dyn[];
    int t = threadIdx.x;

    stat[t] = t * 2;
    dyn[t] = t * 3;
    __syncthreads();
    out[t] = stat[63 - t] + dyn[(t + 1) % 64] * 1000;
}

int main()
{
    const int sizes[] = {1, 33, 1000, 4096, 10240}; // ints per block; 10240 = 40 KiB
    const int blocks = 3;
    for (int per : sizes) {
        int n = per * blocks;
        int *in = new int[n], *out = new int[n], *din, *dout;
        for (int i = 0; i < n; i++)
            in[i] = i * 13 - 7;
        CK(cudaMalloc(&din, n * sizeof(int)));
        CK(cudaMalloc(&dout, n * sizeof(int)));
        CK(cudaMemcpy(din, in, n * sizeof(int), cudaMemcpyHostToDevice));
        reverse_blocks<<<blocks, 128, per * sizeof(int)>>>(din, dout, per);
        CK_LAUNCH();
        CK(cudaMemcpy(out, dout, n * sizeof(int), cudaMemcpyDeviceToHost));
        for (int b = 0; b < blocks; b++)
            for (int k = 0; k < per; k++)
                expect_eq("reverse", b * per + k, out[b * per + k], in[b * per + per - 1 - k]);
        CK(cudaFree(din));
        CK(cudaFree(dout));
        delete[] in;
        delete[] out;
    }

    const int nd = 37, ni = 51, nc = 29;
    double od[nd], *dod;
    int oi[ni], *doi;
    char oc[nc], *doc;
    CK(cudaMalloc(&dod, sizeof(od)));
    CK(cudaMalloc(&doi, sizeof(oi)));
    CK(cudaMalloc(&doc, sizeof(oc)));
    carve<<<1, 32, nd * sizeof(double) + ni * sizeof(int) + nc>>>(dod, doi, doc, nd, ni, nc);
    CK_LAUNCH();
    CK(cudaMemcpy(od, dod, sizeof(od), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(oi, doi, sizeof(oi), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(oc, doc, sizeof(oc), cudaMemcpyDeviceToHost));
    for (int k = 0; k < nd; k++)
        expect_bits("carve double", k, od[k], (nd - 1 - k) * 0.5 - (k % ni));
    for (int k = 0; k < ni; k++)
        expect_eq("carve int", k, oi[k], -k + (char)((k % nc) * 3));
    for (int k = 0; k < nc; k++)
        expect_eq("carve char", k, oc[k], (char)((nc - 1 - k) * 3));

    int out[64], *dout;
    CK(cudaMalloc(&dout, sizeof(out)));
    mixed<<<1, 64, 64 * sizeof(int)>>>(dout);
    CK_LAUNCH();
    CK(cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost));
    for (int t = 0; t < 64; t++)
        expect_eq("static+dynamic", t, out[t], (63 - t) * 2 + ((t + 1) % 64) * 3 * 1000);
    CK(cudaFree(dod));
    CK(cudaFree(doi));
    CK(cudaFree(doc));
    CK(cudaFree(dout));
    return finish();
}
