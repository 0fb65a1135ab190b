// Two streams with async copies, the usual overlap pipeline: an array is cut
// into 8 chunks issued round-robin on two streams, each chunk copied in with
// cudaMemcpyAsync from pinned memory, transformed, and copied out; a
// cudaMemsetAsync and a device-to-device cudaMemcpyAsync on the streams too;
// then the host waits with cudaDeviceSynchronize only. Exact.
#define TEST_NAME "streams_pipeline"
#include "common.h"

__global__ void transform(const int *in, int *out, int n, int chunk)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] * in[i] - chunk * 7;
}

int main()
{
    const int chunks = 8, per = 2000, n = chunks * per;
    const size_t cb = per * sizeof(int);
    int *h_in, *h_out, *h_copy, *d_in, *d_out, *d_copy;
    cudaStream_t s[2];

    CK(cudaHostAlloc(&h_in, n * sizeof(int), cudaHostAllocDefault));
    CK(cudaMallocHost(&h_out, n * sizeof(int)));
    CK(cudaMallocHost(&h_copy, n * sizeof(int)));
    CK(cudaMalloc(&d_in, n * sizeof(int)));
    CK(cudaMalloc(&d_out, n * sizeof(int)));
    CK(cudaMalloc(&d_copy, n * sizeof(int)));
    for (int i = 0; i < n; i++)
        h_in[i] = i % 3000 - 1500;
    for (int k = 0; k < 2; k++)
        CK(cudaStreamCreate(&s[k]));
    for (int c = 0; c < chunks; c++) {
        cudaStream_t st = s[c % 2];
        int off = c * per;
        CK(cudaMemcpyAsync(d_in + off, h_in + off, cb, cudaMemcpyHostToDevice, st));
        CK(cudaMemsetAsync(d_out + off, 0xff, cb, st));
        transform<<<(per + 127) / 128, 128, 0, st>>>(d_in + off, d_out + off, per, c);
        CK(cudaGetLastError());
        CK(cudaMemcpyAsync(d_copy + off, d_out + off, cb, cudaMemcpyDeviceToDevice, st));
        CK(cudaMemcpyAsync(h_out + off, d_out + off, cb, cudaMemcpyDeviceToHost, st));
        CK(cudaMemcpyAsync(h_copy + off, d_copy + off, cb, cudaMemcpyDeviceToHost, st));
    }
    CK(cudaDeviceSynchronize());
    for (int i = 0; i < n; i++) {
        int c = i / per, want = h_in[i] * h_in[i] - c * 7;
        expect_eq("out", i, h_out[i], want);
        expect_eq("device-to-device copy", i, h_copy[i], want);
    }
    for (int k = 0; k < 2; k++)
        CK(cudaStreamDestroy(s[k]));
    CK(cudaFreeHost(h_in));
    CK(cudaFreeHost(h_out));
    CK(cudaFreeHost(h_copy));
    CK(cudaFree(d_in));
    CK(cudaFree(d_out));
    CK(cudaFree(d_copy));
    return finish();
}
