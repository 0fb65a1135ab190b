// __device__ variables: statically initialised scalars and arrays (visible
// before any copy), cudaMemcpyToSymbol / cudaMemcpyFromSymbol with offsets,
// cudaGetSymbolAddress and cudaGetSymbolSize, then plain cudaMemcpy through
// the symbol's address, kernels that update a __device__ counter across
// launches, and a __device__ pointer variable set from the host.
#define TEST_NAME "device_symbols"
#include "common.h"

__device__ int d_counter = 100;
__device__ float d_arr[64];
__device__ long long d_init[4] = {-1, 1LL << 40, 12345, -(1LL << 50)};
__device__ int *d_ptr;

__global__ void bump(int n)
{
    atomicAdd(&d_counter, n);
}

__global__ void scale_arr(float s)
{
    d_arr[threadIdx.x] *= s;
}

__global__ void write_via_ptr()
{
    d_ptr[threadIdx.x] = (int)threadIdx.x * 11 + d_counter;
}

int main()
{
    long long init[4];
    CK(cudaMemcpyFromSymbol(init, d_init, sizeof(init)));
    const long long want_init[4] = {-1, 1LL << 40, 12345, -(1LL << 50)};
    for (int k = 0; k < 4; k++)
        expect_eq("d_init", k, init[k], want_init[k]);
    long long tail;
    CK(cudaMemcpyFromSymbol(&tail, d_init, sizeof(tail), 3 * sizeof(long long)));
    expect_eq("d_init at offset", 3, tail, want_init[3]);

    int c = 0;
    CK(cudaMemcpyFromSymbol(&c, d_counter, sizeof(int)));
    expect_eq("d_counter initial", 0, c, 100);
    for (int k = 1; k <= 5; k++)
        bump<<<2, 32>>>(k); // 64 threads add k each launch
    CK_LAUNCH();
    CK(cudaMemcpyFromSymbol(&c, d_counter, sizeof(int)));
    expect_eq("d_counter after launches", 0, c, 100 + 64 * 15);

    float arr[64], back[64];
    for (int k = 0; k < 64; k++)
        arr[k] = k * 0.5f;
    CK(cudaMemcpyToSymbol(d_arr, arr, 32 * sizeof(float)));
    CK(cudaMemcpyToSymbol(d_arr, arr + 32, 32 * sizeof(float), 32 * sizeof(float)));
    scale_arr<<<1, 64>>>(-3.0f);
    CK_LAUNCH();
    // Through the symbol's address with a plain cudaMemcpy.
    void *addr = NULL;
    size_t size = 0;
    CK(cudaGetSymbolAddress(&addr, d_arr));
    CK(cudaGetSymbolSize(&size, d_arr));
    expect_eq("cudaGetSymbolSize(d_arr)", 0, (long long)size, 64 * sizeof(float));
    expect_true(addr != NULL, "cudaGetSymbolAddress gave NULL");
    CK(cudaMemcpy(back, addr, sizeof(back), cudaMemcpyDeviceToHost));
    for (int k = 0; k < 64; k++)
        expect_bitsf("d_arr", k, back[k], arr[k] * -3.0f);
    // Writes through the address are seen by the symbol.
    float nine = 9.0f;
    CK(cudaMemcpy((float *)addr + 10, &nine, sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpyFromSymbol(back, d_arr, sizeof(float), 10 * sizeof(float)));
    expect_bitsf("d_arr[10] after write via address", 10, back[0], 9.0f);

    int *buf, hbuf[32];
    CK(cudaMalloc(&buf, sizeof(hbuf)));
    CK(cudaMemcpyToSymbol(d_ptr, &buf, sizeof(buf)));
    write_via_ptr<<<1, 32>>>();
    CK_LAUNCH();
    CK(cudaMemcpy(hbuf, buf, sizeof(hbuf), cudaMemcpyDeviceToHost));
    for (int k = 0; k < 32; k++)
        expect_eq("via d_ptr", k, hbuf[k], k * 11 + 100 + 64 * 15);
    CK(cudaFree(buf));
    return finish();
}
