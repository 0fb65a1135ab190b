/* float4 / int4 arithmetic, swizzles, vload/vstore and a by-value float4 argument. */
#include <stdio.h>

#include "harness.h"

static const char *src =
    "__kernel void vt(__global const float4 *a, __global float4 *f, __global int4 *i4,\n"
    "                 __global float *s, float4 scale) {\n"
    "  int i = get_global_id(0);\n"
    "  float4 v = a[i] * scale + (float4)(1.0f, 2.0f, 3.0f, 4.0f);\n"
    "  f[i] = v.wzyx;\n"
    "  int4 q = convert_int4(v) * (int4)(2, -3, 5, 7) + (int4)(i);\n"
    "  i4[i] = q.s1032 ^ (q >> 1);\n"
    "  float3 t = vload3(i, (__global const float *)a);\n"
    "  vstore2((float2)(dot(v, v), t.x + t.y * t.z), i, s);\n"
    "}\n";

#define N 64

int main(void)
{
    struct h_env h;
    static cl_float4 a[N], f[N];
    static cl_int4 q[N];
    static float s[2 * N];
    cl_float4 scale = {{1.5f, -2.0f, 0.25f, 3.0f}};
    size_t global = N;
    char tag[32];

    for (int i = 0; i < N; i++)
        for (int j = 0; j < 4; j++)
            a[i].s[j] = (float)(i * 4 + j) * 0.5f - 20.0f;
    h_init(&h);
    cl_program p = h_build(&h, src, NULL);
    cl_kernel k = h_kernel(p, "vt");
    cl_mem ma = h_buffer(&h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(a), a);
    cl_mem mf = h_buffer(&h, CL_MEM_WRITE_ONLY, sizeof(f), NULL);
    cl_mem mq = h_buffer(&h, CL_MEM_WRITE_ONLY, sizeof(q), NULL);
    cl_mem ms = h_buffer(&h, CL_MEM_WRITE_ONLY, sizeof(s), NULL);

    h_check(clSetKernelArg(k, 0, sizeof(cl_mem), &ma), "arg0");
    h_check(clSetKernelArg(k, 1, sizeof(cl_mem), &mf), "arg1");
    h_check(clSetKernelArg(k, 2, sizeof(cl_mem), &mq), "arg2");
    h_check(clSetKernelArg(k, 3, sizeof(cl_mem), &ms), "arg3");
    h_check(clSetKernelArg(k, 4, sizeof(scale), &scale), "arg4");
    h_check(clEnqueueNDRangeKernel(h.q, k, 1, NULL, &global, NULL, 0, NULL, NULL), "launch");
    h_read(&h, mf, sizeof(f), f);
    h_read(&h, mq, sizeof(q), q);
    h_read(&h, ms, sizeof(s), s);
    for (int i = 0; i < N; i += 5)
        for (int j = 0; j < 4; j++) {
            snprintf(tag, sizeof(tag), "f%d.%d", i, j);
            h_out_f(tag, f[i].s[j], 0);
            snprintf(tag, sizeof(tag), "q%d.%d", i, j);
            h_out_i(tag, q[i].s[j]);
        }
    for (int i = 0; i < 2 * N; i += 3) {
        snprintf(tag, sizeof(tag), "s%d", i);
        h_out_f(tag, s[i], 2);
    }
    clReleaseMemObject(ma);
    clReleaseMemObject(mf);
    clReleaseMemObject(mq);
    clReleaseMemObject(ms);
    clReleaseKernel(k);
    clReleaseProgram(p);
    h_done(&h);
    return 0;
}
