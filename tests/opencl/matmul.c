/* Matrix multiply with 16x16 __local tiles (static __local arrays). */
#include <stdio.h>

#include "harness.h"

static const char *src =
    "#define T 16\n"
    "__kernel void mm(__global const float *a, __global const float *b, __global float *c, int n) {\n"
    "  __local float ta[T][T], tb[T][T];\n"
    "  int tx = get_local_id(0), ty = get_local_id(1);\n"
    "  int col = get_global_id(0), row = get_global_id(1);\n"
    "  float acc = 0.0f;\n"
    "  for (int t = 0; t < n / T; t++) {\n"
    "    ta[ty][tx] = a[row * n + t * T + tx];\n"
    "    tb[ty][tx] = b[(t * T + ty) * n + col];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (int k = 0; k < T; k++) acc += ta[ty][k] * tb[k][tx];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  c[row * n + col] = acc;\n"
    "}\n";

#define N 64

int main(void)
{
    struct h_env h;
    static float a[N * N], b[N * N], c[N * N];
    int n = N, exact = 1;
    size_t global[2] = {N, N}, local[2] = {16, 16};
    char tag[32];

    /* Small integers: every product and partial sum is exact in float. */
    for (int i = 0; i < N * N; i++) {
        a[i] = (float)(i % 7 - 3);
        b[i] = (float)(i % 5 - 2);
    }
    h_init(&h);
    cl_program p = h_build(&h, src, NULL);
    cl_kernel k = h_kernel(p, "mm");
    cl_mem ma = h_buffer(&h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(a), a);
    cl_mem mb = h_buffer(&h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(b), b);
    cl_mem mc = h_buffer(&h, CL_MEM_WRITE_ONLY, sizeof(c), NULL);

    h_check(clSetKernelArg(k, 0, sizeof(cl_mem), &ma), "arg0");
    h_check(clSetKernelArg(k, 1, sizeof(cl_mem), &mb), "arg1");
    h_check(clSetKernelArg(k, 2, sizeof(cl_mem), &mc), "arg2");
    h_check(clSetKernelArg(k, 3, sizeof(int), &n), "arg3");
    h_check(clEnqueueNDRangeKernel(h.q, k, 2, NULL, global, local, 0, NULL, NULL), "launch");
    h_read(&h, mc, sizeof(c), c);
    for (int r = 0; r < N; r++)
        for (int col = 0; col < N; col++) {
            float s = 0;
            for (int i = 0; i < N; i++)
                s += a[r * N + i] * b[i * N + col];
            exact &= s == c[r * N + col];
        }
    h_out_chk("matches_host", exact);
    for (int i = 0; i < N * N; i += 97) {
        snprintf(tag, sizeof(tag), "c%d", i);
        h_out_f(tag, c[i], 0);
    }
    clReleaseMemObject(ma);
    clReleaseMemObject(mb);
    clReleaseMemObject(mc);
    clReleaseKernel(k);
    clReleaseProgram(p);
    h_done(&h);
    return 0;
}
