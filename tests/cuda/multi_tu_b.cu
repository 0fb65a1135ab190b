// Second translation unit of the multi_tu program (see multi_tu_a.cu).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__constant__ int b_offset;
__device__ int b_counter;

static __device__ int helper(int x, int k) // not the helper() of multi_tu_a.cu
{
    return (x * k) ^ 0x55;
}

__global__ void b_kernel(int *d, int n, int k)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        d[i] = helper(d[i], k) + b_offset;
        atomicAdd(&b_counter, 1);
    }
}

static void check(cudaError_t e, const char *what)
{
    if (e != cudaSuccess) {
        printf("FAIL multi_tu: %s returned %s\n", what, cudaGetErrorName(e));
        exit(1);
    }
}

void b_launch_scale(int *d, int n, int k)
{
    b_kernel<<<3, 128>>>(d, n, k);
    check(cudaGetLastError(), "b_kernel launch");
}

int b_read_counter(void)
{
    int v = -1;
    check(cudaMemcpyFromSymbol(&v, b_counter, sizeof(int)), "cudaMemcpyFromSymbol(b_counter)");
    return v;
}

void b_set_offset(int v)
{
    check(cudaMemcpyToSymbol(b_offset, &v, sizeof(int)), "cudaMemcpyToSymbol(b_offset)");
}
