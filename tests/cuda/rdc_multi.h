// Declarations shared by the units of the rdc_multi program (rdc_multi_a.cu).
#ifndef PTXSIM_TESTS_CUDA_RDC_MULTI_H
#define PTXSIM_TESTS_CUDA_RDC_MULTI_H

extern __device__ int rdc_counter;          // defined in rdc_multi_b.cu
extern __device__ int b_poly(int x);        // defined in rdc_multi_b.cu
extern __device__ int c_table_at(int i);    // defined in rdc_multi_c.cu
void launch_c(const int *in, int *out, int n); // host side of rdc_multi_c.cu

// Instantiated in a and in c: each unit emits a .weak copy.
template <typename T> __device__ __noinline__ T shared_scale(T x)
{
    return x * 3 - 1;
}

static inline int host_shared_scale(int x)
{
    return x * 3 - 1;
}
static const int host_table[8] = {5, -3, 8, 13, -21, 34, 2, 1};
static inline int host_b_poly(int x)
{
    return x * x - 2 * x + host_table[(x & 7)]; // b_poly calls c_table_at
}
static inline int host_c_value(int x, int i)
{
    return host_b_poly(x) - i * 5 + host_shared_scale(i) + 2000;
}

#endif
