/*
 * Integer built-ins (OpenCL 1.2 section 6.12.3) on edge-case inputs: clz,
 * popcount, mul_hi, mad_hi, rotate, add_sat, sub_sat, mad_sat, hadd, rhadd,
 * abs, abs_diff, upsample, mul24, mad24, clamp, min, max, on char, short,
 * int, uint and long. All results are exact. Rotate amounts reach past the
 * bit width, which LLVM 14's NVPTX lowering for sm_20 gets wrong unless
 * frontend/clc masks them.
 */
#include <stdio.h>

#include "harness.h"

static const char *src =
    "__kernel void ints(__global const int *a, __global const int *b, __global long *o) {\n"
    "  size_t i = get_global_id(0); int x = a[i], y = b[i]; uint ux = x, uy = y;\n"
    "  long lx = (long)x * 65537L, ly = (long)y * -3L;\n"
    "  char cx = (char)x, cy = (char)y; short sx = (short)x, sy = (short)y;\n"
    "  __global long *r = o + i * 24;\n"
    "  r[0] = clz(x); r[1] = popcount(x); r[2] = mul_hi(x, y); r[3] = mul_hi(ux, uy);\n"
    "  r[4] = rotate(x, y & 63); r[5] = add_sat(x, y); r[6] = sub_sat(x, y);\n"
    "  r[7] = add_sat(cx, cy); r[8] = sub_sat(sx, sy); r[9] = hadd(x, y); r[10] = rhadd(ux, uy);\n"
    "  r[11] = abs(x); r[12] = abs_diff(x, y); r[13] = upsample(sx, (ushort)sy);\n"
    "  r[14] = mul24(x & 0x7fffff, y & 0x7fff); r[15] = mad24(x & 0xfffff, 3, y);\n"
    "  r[16] = clamp(x, -1000, 1000); r[17] = min(ux, uy); r[18] = max(cx, cy);\n"
    "  r[19] = mad_hi(x, y, 7); r[20] = mad_sat(x, y, 12345); r[21] = clz(lx);\n"
    "  r[22] = popcount(ly) + rotate(ly, (long)7) % 1000; r[23] = mul_hi(lx, ly);\n"
    "}\n";

#define N 16
#define R 24

int main(void)
{
    struct h_env h;
    static const int a[N] = {0,      1,          -1,         0x7fffffff, (int)0x80000000, 12345,
                             -98765, 0x00ff00ff, 255,        -128,       32767,           -32768,
                             7,      1 << 20,    0x55555555, -2};
    static const int b[N] = {0, -1,   1, 1,     -1,         678,        4321, 0x0f0f0f0f,
                             1, -128, 2, 32767, 0x7fffffff, -(1 << 20), 31,   (int)0x80000000};
    static long long o[N * R];
    size_t global = N;
    char t[32];

    h_init(&h);
    cl_program p = h_build(&h, src, NULL);
    cl_kernel k = h_kernel(p, "ints");
    cl_mem ma = h_buffer(&h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(a), (void *)a);
    cl_mem mb = h_buffer(&h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(b), (void *)b);
    cl_mem mo = h_buffer(&h, CL_MEM_WRITE_ONLY, sizeof(o), NULL);

    h_check(clSetKernelArg(k, 0, sizeof(cl_mem), &ma), "arg0");
    h_check(clSetKernelArg(k, 1, sizeof(cl_mem), &mb), "arg1");
    h_check(clSetKernelArg(k, 2, sizeof(cl_mem), &mo), "arg2");
    h_check(clEnqueueNDRangeKernel(h.q, k, 1, NULL, &global, NULL, 0, NULL, NULL), "launch");
    h_read(&h, mo, sizeof(o), o);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < R; j++) {
            snprintf(t, sizeof(t), "x%d_f%d", i, j);
            h_out_i(t, o[i * R + j]);
        }
    h_out_chk("clz_zero_is_32", o[0] == 32);
    h_out_chk("add_sat_saturates", o[3 * R + 5] == 0x7fffffff);
    clReleaseMemObject(ma);
    clReleaseMemObject(mb);
    clReleaseMemObject(mo);
    clReleaseKernel(k);
    clReleaseProgram(p);
    h_done(&h);
    return 0;
}
