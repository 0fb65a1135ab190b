// Multiple translation units (whole-program compilation, no -rdc): this file
// and multi_tu_b.cu are compiled separately and linked into one program, so
// the runtime sees two fatbins registered. Each unit has its own kernels, a
// __constant__ and a __device__ variable, and a file-static device helper
// with the same name as one in the other unit; a kernel of this unit and one
// of the other are launched alternately. Exact.
#define TEST_NAME "multi_tu"
#include "common.h"

// From multi_tu_b.cu: launch its kernels on the given buffers.
void b_launch_scale(int *d, int n, int k);
int b_read_counter(void);
void b_set_offset(int v);

__constant__ int a_offset = 1000;
__device__ int a_counter;

static __device__ int helper(int x) // multi_tu_b.cu has a different helper()
{
    return x * 2 + a_offset;
}

__global__ void a_kernel(int *d, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        d[i] = helper(d[i]);
        atomicAdd(&a_counter, 1);
    }
}

int main()
{
    const int n = 777;
    int h[n], *d;
    long long want[n];

    for (int i = 0; i < n; i++)
        want[i] = h[i] = i - 300;
    CK(cudaMalloc(&d, sizeof(h)));
    CK(cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice));
    b_set_offset(-5);
    for (int round = 0; round < 3; round++) {
        a_kernel<<<(n + 63) / 64, 64>>>(d, n);
        CK(cudaGetLastError());
        b_launch_scale(d, n, round + 2);
        for (int i = 0; i < n; i++) {
            want[i] = want[i] * 2 + 1000;             // a: helper()
            want[i] = (want[i] * (round + 2)) ^ 0x55; // b: helper()
            want[i] = want[i] - 5;                    // b: offset
        }
    }
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        expect_eq("d", i, h[i], (int)want[i]);
    int ac = 0;
    CK(cudaMemcpyFromSymbol(&ac, a_counter, sizeof(int)));
    expect_eq("a_counter", 0, ac, 3 * n);
    expect_eq("b_counter", 0, b_read_counter(), 3 * n);
    CK(cudaFree(d));
    return finish();
}
