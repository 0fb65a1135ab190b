// Per-thread local memory: arrays indexed with run-time indices (so they
// cannot live in registers), a large per-thread struct, a local array
// passed by pointer to a __noinline__ function, and 64-bit and byte-sized
// local accesses. Exact.
#define TEST_NAME "local_memory"
#include "common.h"

struct Big {
    int a[40];
    double d[8];
    char tag[13];
};

__device__ __noinline__ void fill(int *p, int n, int seed)
{
    for (int k = 0; k < n; k++)
        p[k] = (seed * 31 + k * 17) % 101;
}

__global__ void locals(const int *idx, long long *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    int arr[64];
    fill(arr, 64, t);
    // run-time permutation of the local array
    for (int k = 0; k < 64; k++) {
        int j = idx[(t + k) % 256] & 63;
        int x = arr[k];
        arr[k] = arr[j];
        arr[j] = x;
    }
    Big b;
    for (int k = 0; k < 40; k++)
        b.a[k] = arr[(k * 7 + t) & 63];
    for (int k = 0; k < 8; k++)
        b.d[k] = b.a[idx[k] % 40] * 0.5;
    for (int k = 0; k < 13; k++)
        b.tag[k] = (char)('a' + (t + k) % 26);
    unsigned long long s = 0; // wraps
    for (int k = 0; k < 40; k++)
        s = s * 7 + (unsigned long long)b.a[idx[(k + t) % 256] % 40];
    s += (unsigned long long)(long long)(b.d[t % 8] * 2.0) * 1000003;
    s ^= (unsigned long long)b.tag[idx[t % 256] % 13];
    out[t] = (long long)s;
}

int main()
{
    const int n = 256;
    int idx[256], *didx;
    long long out[n], *dout;
    uint32_t seed = 13;

    for (int k = 0; k < 256; k++)
        idx[k] = (int)(rng_next(&seed) % 1000);
    CK(cudaMalloc(&didx, sizeof(idx)));
    CK(cudaMalloc(&dout, sizeof(out)));
    CK(cudaMemcpy(didx, idx, sizeof(idx), cudaMemcpyHostToDevice));
    locals<<<4, 64>>>(didx, dout, n);
    CK_LAUNCH();
    CK(cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost));
    for (int t = 0; t < n; t++) {
        int arr[64];
        for (int k = 0; k < 64; k++)
            arr[k] = (t * 31 + k * 17) % 101;
        for (int k = 0; k < 64; k++) {
            int j = idx[(t + k) % 256] & 63, x = arr[k];
            arr[k] = arr[j];
            arr[j] = x;
        }
        int a[40];
        double d[8];
        char tag[13];
        for (int k = 0; k < 40; k++)
            a[k] = arr[(k * 7 + t) & 63];
        for (int k = 0; k < 8; k++)
            d[k] = a[idx[k] % 40] * 0.5;
        for (int k = 0; k < 13; k++)
            tag[k] = (char)('a' + (t + k) % 26);
        unsigned long long s = 0;
        for (int k = 0; k < 40; k++)
            s = s * 7 + (unsigned long long)a[idx[(k + t) % 256] % 40];
        s += (unsigned long long)(long long)(d[t % 8] * 2.0) * 1000003;
        s ^= (unsigned long long)tag[idx[t % 256] % 13];
        expect_equ("local result", t, (unsigned long long)out[t], s);
    }
    CK(cudaFree(didx));
    CK(cudaFree(dout));
    return finish();
}
