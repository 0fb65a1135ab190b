// Streams and events: two streams (one created non-blocking) each running an
// async host-to-device copy from pinned memory, a kernel and an async copy
// back; a cross-stream dependency through cudaEventRecord +
// cudaStreamWaitEvent; cudaStreamSynchronize, cudaEventSynchronize,
// cudaStreamQuery/cudaEventQuery after completion, and a kernel on the
// legacy default stream that must see both streams' results. Exact.
#define TEST_NAME "streams_events"
#include "common.h"

__global__ void affine(const int *in, int *out, int n, int mul, int add)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        out[i] = in[i] * mul + add;
}

__global__ void combine(const int *a, const int *b, int *out, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        out[i] = a[i] - b[n - 1 - i];
}

int main()
{
    const int n = 8192;
    const size_t bytes = n * sizeof(int);
    int *h_in[2], *h_out[2], *h_comb;
    int *d_in[2], *d_out[2], *d_comb, *d_final;
    cudaStream_t s[2];
    cudaEvent_t done0, done1;

    CK(cudaStreamCreate(&s[0]));
    CK(cudaStreamCreateWithFlags(&s[1], cudaStreamNonBlocking));
    CK(cudaEventCreate(&done0));
    CK(cudaEventCreateWithFlags(&done1, cudaEventDisableTiming));
    for (int k = 0; k < 2; k++) {
        CK(cudaMallocHost(&h_in[k], bytes));
        CK(cudaMallocHost(&h_out[k], bytes));
        CK(cudaMalloc(&d_in[k], bytes));
        CK(cudaMalloc(&d_out[k], bytes));
        for (int i = 0; i < n; i++)
            h_in[k][i] = (k + 1) * i - 1000;
    }
    CK(cudaMallocHost(&h_comb, bytes));
    CK(cudaMalloc(&d_comb, bytes));
    CK(cudaMalloc(&d_final, bytes));

    for (int k = 0; k < 2; k++) {
        CK(cudaMemcpyAsync(d_in[k], h_in[k], bytes, cudaMemcpyHostToDevice, s[k]));
        affine<<<16, 128, 0, s[k]>>>(d_in[k], d_out[k], n, k ? -3 : 5, k ? 11 : -7);
        CK(cudaGetLastError());
        CK(cudaMemcpyAsync(h_out[k], d_out[k], bytes, cudaMemcpyDeviceToHost, s[k]));
    }
    CK(cudaEventRecord(done0, s[0]));
    // Stream 1 combines both results once stream 0's work is done.
    CK(cudaStreamWaitEvent(s[1], done0, 0));
    combine<<<8, 256, 0, s[1]>>>(d_out[0], d_out[1], d_comb, n);
    CK(cudaGetLastError());
    CK(cudaMemcpyAsync(h_comb, d_comb, bytes, cudaMemcpyDeviceToHost, s[1]));
    CK(cudaEventRecord(done1, s[1]));
    CK(cudaStreamSynchronize(s[0]));
    CK(cudaEventSynchronize(done1));
    CK(cudaStreamQuery(s[0]));
    CK(cudaStreamQuery(s[1]));
    CK(cudaEventQuery(done0));
    CK(cudaEventQuery(done1));
    for (int i = 0; i < n; i++) {
        int o0 = h_in[0][i] * 5 - 7, o1 = h_in[1][i] * -3 + 11;
        expect_eq("stream0", i, h_out[0][i], o0);
        expect_eq("stream1", i, h_out[1][i], o1);
        expect_eq("combined", i, h_comb[i], o0 - (h_in[1][n - 1 - i] * -3 + 11));
    }
    // Legacy default stream after both: sees everything.
    affine<<<4, 64>>>(d_comb, d_final, n, 2, 1);
    CK_LAUNCH();
    CK(cudaMemcpy(h_out[0], d_final, bytes, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        expect_eq("default stream", i, h_out[0][i], h_comb[i] * 2 + 1);

    for (int k = 0; k < 2; k++) {
        CK(cudaStreamDestroy(s[k]));
        CK(cudaFreeHost(h_in[k]));
        CK(cudaFreeHost(h_out[k]));
        CK(cudaFree(d_in[k]));
        CK(cudaFree(d_out[k]));
    }
    CK(cudaEventDestroy(done0));
    CK(cudaEventDestroy(done1));
    CK(cudaFreeHost(h_comb));
    CK(cudaFree(d_comb));
    CK(cudaFree(d_final));
    return finish();
}
