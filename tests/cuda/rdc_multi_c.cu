// Unit c of the rdc_multi program (see rdc_multi_a.cu): a __constant__
// table, a kernel that reads rdc_counter (written by kernel_a) and calls
// b_poly (unit b) and the shared template; its own printf string.
#include <cstdio>
#include "rdc_multi.h"

__constant__ int c_table[8] = {5, -3, 8, 13, -21, 34, 2, 1};

__device__ int c_table_at(int i)
{
    return c_table[i];
}

static __device__ __noinline__ int local_twist(int x) // a third body under the same name
{
    return x * 5;
}

__global__ void kernel_c(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = b_poly(in[i]) - local_twist(i) + shared_scale(i) + 2000 + rdc_counter;
    __syncthreads();
    if (i == 0) {
        printf("kernel_c: counter = %d\n", rdc_counter);
        rdc_counter += 1;
    }
}

void launch_c(const int *in, int *out, int n)
{
    kernel_c<<<1, 256>>>(in, out, n);
}
