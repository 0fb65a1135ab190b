/*
 * Math built-ins. OpenCL 1.2 (section 7.4) allows sin/cos/exp/log up to
 * 4 ULP, sqrt 3, atan2 6, pow 16, and fma/fabs/floor/fmin/fmax exact; two
 * conforming implementations may differ by twice the bound, which is what is
 * compared (ulp[] below).
 */
#include <stdio.h>

#include "harness.h"

static const char *src =
    "__kernel void m(__global const float *x, __global float *y) {\n"
    "  int i = get_global_id(0); float v = x[i];\n"
    "  y[i * 10 + 0] = sin(v);\n"
    "  y[i * 10 + 1] = cos(v);\n"
    "  y[i * 10 + 2] = exp(v * 0.1f);\n"
    "  y[i * 10 + 3] = log(fabs(v) + 1.0f);\n"
    "  y[i * 10 + 4] = sqrt(fabs(v));\n"
    "  y[i * 10 + 5] = pow(fabs(v) + 0.5f, 1.7f);\n"
    "  y[i * 10 + 6] = fma(v, 3.0f, -1.0f);\n"
    "  y[i * 10 + 7] = floor(v) + fabs(v);\n"
    "  y[i * 10 + 8] = fmin(v, 1.0f) + fmax(v, -1.0f);\n"
    "  y[i * 10 + 9] = atan2(v, 2.0f);\n"
    "}\n";

#define N 64

int main(void)
{
    static const int ulp[10] = {8, 8, 8, 8, 6, 32, 0, 0, 0, 12};
    struct h_env h;
    static float x[N], y[N * 10];
    size_t global = N;
    char tag[32];

    for (int i = 0; i < N; i++)
        x[i] = (float)i * 0.37f - 11.0f;
    h_init(&h);
    cl_program p = h_build(&h, src, NULL);
    cl_kernel k = h_kernel(p, "m");
    cl_mem mx = h_buffer(&h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(x), x);
    cl_mem my = h_buffer(&h, CL_MEM_WRITE_ONLY, sizeof(y), NULL);

    h_check(clSetKernelArg(k, 0, sizeof(cl_mem), &mx), "arg0");
    h_check(clSetKernelArg(k, 1, sizeof(cl_mem), &my), "arg1");
    h_check(clEnqueueNDRangeKernel(h.q, k, 1, NULL, &global, NULL, 0, NULL, NULL), "launch");
    h_read(&h, my, sizeof(y), y);
    for (int i = 0; i < N * 10; i++) {
        snprintf(tag, sizeof(tag), "fn%d.x%d", i % 10, i / 10);
        h_out_f(tag, y[i], ulp[i % 10]);
    }
    clReleaseMemObject(mx);
    clReleaseMemObject(my);
    clReleaseKernel(k);
    clReleaseProgram(p);
    h_done(&h);
    return 0;
}
