// Unit b of the rdc_multi program (see rdc_multi_a.cu): defines rdc_counter
// and b_poly, which calls into unit c; has its own file-static local_twist.
#include <cstdio>
#include "rdc_multi.h"

__device__ int rdc_counter = 5;

static __device__ __noinline__ int local_twist(int x) // same name as in a.cu, different body
{
    return x * x;
}

__device__ int b_poly(int x)
{
    return local_twist(x) - 2 * x + c_table_at(x & 7);
}
