// Smoke test: __constant__ and __device__ variables through
// cudaMemcpyToSymbol / cudaMemcpyFromSymbol / cudaGetSymbolAddress.
#include <cstdio>
#include <cuda_runtime.h>

#define CK(x)                                                                                      \
    do {                                                                                           \
        cudaError_t e_ = (x);                                                                      \
        if (e_ != cudaSuccess) {                                                                   \
            printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_));         \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

__constant__ int coef[4];
__device__ int total;
__device__ int table[64] = {7};

__global__ void poly(int *out)
{
    int x = threadIdx.x;
    int v = coef[0] + x * (coef[1] + x * (coef[2] + x * coef[3]));
    out[x] = v + table[0];
    atomicAdd(&total, v);
}

int main()
{
    const int h_coef[4] = {1, 2, 3, 4};
    int out[64], sum = 0, want_sum = 0, bad = 0, *dout, *dtotal, zero = 0;
    size_t size = 0;

    CK(cudaMemcpyToSymbol(coef, h_coef, sizeof(h_coef)));
    CK(cudaMemcpyToSymbol(total, &zero, sizeof(zero)));
    CK(cudaGetSymbolSize(&size, table));
    CK(cudaMalloc(&dout, sizeof(out)));
    poly<<<1, 64>>>(dout);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost));
    CK(cudaMemcpyFromSymbol(&sum, total, sizeof(sum)));
    for (int x = 0; x < 64; x++) {
        int v = 1 + x * (2 + x * (3 + x * 4));
        want_sum += v;
        bad += out[x] != v + 7;
    }
    CK(cudaGetSymbolAddress((void **)&dtotal, total));
    CK(cudaMemcpy(&zero, dtotal, sizeof(int), cudaMemcpyDeviceToHost));
    printf("constant: %d wrong, sum %s, symbol address %s, table size %zu\n", bad,
           sum == want_sum ? "ok" : "wrong", zero == want_sum ? "ok" : "wrong", size);
    return bad || sum != want_sum || zero != want_sum || size != sizeof(table);
}
