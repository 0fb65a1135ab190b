// cudaMemset and cudaMemsetAsync: byte values (0, 0xff, 0x5a, only the low
// byte of the int argument is used) over whole buffers, at unaligned offsets
// and odd lengths (neighbouring bytes untouched), a zero-length memset, and a
// kernel that sees the memset values. Exact.
#define TEST_NAME "memset"
#include "common.h"

__global__ void sum_bytes(const unsigned char *p, int n, unsigned long long *out)
{
    unsigned long long s = 0;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        s += p[i];
    atomicAdd(out, s);
}

int main()
{
    const int n = 10000;
    unsigned char *d, *h = new unsigned char[n], *want = new unsigned char[n];
    unsigned long long *dsum, sum;

    CK(cudaMalloc(&d, n));
    CK(cudaMalloc(&dsum, sizeof(sum)));
    CK(cudaMemset(d, 0xff, n));
    memset(want, 0xff, n);
    CK(cudaMemset(d + 1, 0, 1001)); // unaligned start, odd length
    memset(want + 1, 0, 1001);
    CK(cudaMemset(d + 3001, 0x15a, 3)); // only the low byte (0x5a) counts
    memset(want + 3001, 0x5a, 3);
    CK(cudaMemset(d + 5000, 0x11, 0)); // nothing
    cudaStream_t s;
    CK(cudaStreamCreate(&s));
    CK(cudaMemsetAsync(d + 6003, 0x7e, 2501, s));
    memset(want + 6003, 0x7e, 2501);
    CK(cudaStreamSynchronize(s));
    CK(cudaMemcpy(h, d, n, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        expect_eq("byte", i, h[i], want[i]);

    CK(cudaMemset(dsum, 0, sizeof(sum)));
    sum_bytes<<<1, 256>>>(d, n, dsum);
    CK_LAUNCH();
    CK(cudaMemcpy(&sum, dsum, sizeof(sum), cudaMemcpyDeviceToHost));
    unsigned long long ws = 0;
    for (int i = 0; i < n; i++)
        ws += want[i];
    expect_equ("kernel sum of bytes", 0, sum, ws);

    // Whole 32-bit words: 0x5a5a5a5a.
    unsigned *dw, hw[64];
    CK(cudaMalloc(&dw, sizeof(hw)));
    CK(cudaMemset(dw, 0x5a, sizeof(hw)));
    CK(cudaMemcpy(hw, dw, sizeof(hw), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 64; i++)
        expect_equ("word", i, hw[i], 0x5a5a5a5au);
    CK(cudaStreamDestroy(s));
    CK(cudaFree(d));
    CK(cudaFree(dsum));
    CK(cudaFree(dw));
    delete[] h;
    delete[] want;
    return finish();
}
