/*
 * Relational and selection built-ins on scalars and vectors (OpenCL 1.2,
 * 6.12.6 and 6.12.12 shuffle): select, bitselect, shuffle, shuffle2, any,
 * all, isnan, isinf, isequal, isnotequal, isgreater, isless, isordered,
 * isunordered, signbit, and the integer and float clamp, min and max on
 * vectors (finite operands where the spec leaves NaN undefined). Every
 * result is exact.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"

static const char *src =
    "__kernel void rel(__global const float4 *f, __global const int4 *v, __global int *o) {\n"
    "  int i = get_global_id(0), b = i * 32;\n"
    "  float4 x = f[i], y = f[i + 1];\n"
    "  int4 a = v[i], c = v[i + 1];\n"
    "  vstore4(isnan(x), 0, o + b);\n"
    "  vstore4(isinf(x), 1, o + b);\n"
    "  vstore4(isequal(x, y), 2, o + b);\n"
    "  vstore4(isnotequal(x, y), 3, o + b);\n"
    "  vstore4(isgreater(x, y) | (isless(x, y) << 1), 4, o + b);\n"
    "  vstore4(isordered(x, y) | (isunordered(x, y) << 1), 5, o + b);\n"
    "  vstore4(signbit(x), 6, o + b);\n"
    "  o[b + 28] = any(a < 0) | (all(a >= 0) << 1) | (any(isnan(x)) << 2);\n"
    "  o[b + 29] = isnan(x.x) | (isinf(x.y) << 1) | (signbit(x.z) << 2) | (isequal(x.w, y.w) << 3);\n"
    "  o[b + 30] = all(c > a) | (any((short2)(0, -1)) << 1);\n"
    "  o[b + 31] = isgreaterequal(x.x, y.x) | (islessequal(x.x, y.x) << 1) |\n"
    "              (islessgreater(x.x, y.x) << 2);\n"
    "}\n"
    "__kernel void sel(__global const int4 *v, __global const float4 *f, __global int4 *o,\n"
    "                  __global float4 *of) {\n"
    "  int i = get_global_id(0), b = i * 8;\n"
    "  int4 a = v[i], c = v[i + 1];\n"
    "  float4 x = f[i], y = f[i + 1];\n"
    "  o[b] = select(a, c, a > c);\n"
    "  o[b + 1] = bitselect(a, c, (int4)(0x0f0f0f0f, 0xff00ff00, -1, 0));\n"
    "  o[b + 2] = clamp(a, -5, 7);\n"
    "  o[b + 3] = clamp(a, c - 3, c + 3) + min(a, c) * 3 + max(a, c) * 5;\n"
    "  o[b + 4] = convert_int4_sat(select(x, y, a < c) * 4.0f); /* NaN -> 0 */\n"
    "  o[b + 5] = (int4)(select(1, 2, a.x > 0), select(3u, 4u, (uint)c.y) > 3u, min(a.z, 9),\n"
    "                    max(c.w, -9));\n"
    "  o[b + 6] = as_int4(bitselect(x, y, as_float4((int4)(0x80000000, 0x7fffffff, 0, -1))));\n"
    "  o[b + 7] = (int4)(0);\n"
    "  of[i * 4] = fmin(x, y);\n"
    "  of[i * 4 + 1] = fmax(x, 2.5f);\n"
    "  /* min, max and clamp are undefined for NaN and infinities (6.12.2, 6.12.4) */\n"
    "  float4 xf = select(x, (float4)(0.75f), isnan(x) | isinf(x));\n"
    "  float4 yf = select(y, (float4)(-0.125f), isnan(y) | isinf(y));\n"
    "  of[i * 4 + 2] = clamp(xf, -1.0f, 1.0f);\n"
    "  of[i * 4 + 3] = clamp(xf, min(xf, yf), max(xf, yf)) + min(yf, 3.0f) + max(xf, -3.0f);\n"
    "}\n"
    "__kernel void shuf(__global const int4 *v, __global const uchar8 *c8, __global int *o) {\n"
    "  int i = get_global_id(0), b = i * 32;\n"
    "  int4 a = v[i], c = v[i + 1];\n"
    "  uint4 m = (uint4)(3, 0, 2, 1) + (uint4)(i);\n"
    "  uint8 m8 = (uint8)(7, 6, 5, 4, 3, 2, 1, 0) + (uint8)(i);\n"
    "  vstore4(shuffle(a, m), 0, o + b);\n"
    "  vstore8(shuffle2(a, c, m8), 1, o + b);\n"
    "  vstore2(shuffle(a, (uint2)(1, 1)), 6, o + b);\n"
    "  int8 wide = (int8)(a, c);\n"
    "  vstore4(shuffle(wide, (uint4)(7, 5, 3, 1) + (uint4)(i)), 4, o + b);\n"
    "  uchar8 s = shuffle(c8[i], (uchar8)(1, 0, 3, 2, 5, 4, 7, 6) + (uchar8)(i));\n"
    "  vstore8(convert_int8(s), 2, o + b);\n"
    "  vstore16(shuffle2(a, c, (uint16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)),\n"
    "           1, o + b);\n"
    "}\n";

#define NI 4

static const float fv[(NI + 1) * 4] = {
    1.0f,  -2.0f, 0.0f,  3.5f,  NAN,  INFINITY, -0.0f, 3.5f, -INFINITY, 2.0f,
    -1.5f, 7.0f,  0.25f, -0.0f, 0.0f, -3.0f,    1.0f,  2.0f, -0.5f,     -3.0f,
};
static const int iv[(NI + 1) * 4] = {
    3, -4, 10, 0, 5, -9, 2, 100, -1, 20, 0, -20, 7, 7, -7, 1, 0, 8, 9, -100,
};

static cl_mem in(struct h_env *h, size_t n, const void *p)
{
    return h_buffer(h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n, (void *)p);
}

static void launch(struct h_env *h, cl_kernel k, cl_mem *args, int n)
{
    size_t global = NI;

    for (int i = 0; i < n; i++)
        h_check(clSetKernelArg(k, (cl_uint)i, sizeof(cl_mem), &args[i]), "arg");
    h_check(clEnqueueNDRangeKernel(h->q, k, 1, NULL, &global, NULL, 0, NULL, NULL), "launch");
}

static void print_ints(struct h_env *h, const char *pre, cl_mem m, size_t n)
{
    static int out[NI * 32];
    char tag[32];

    h_read(h, m, n * sizeof(int), out);
    for (size_t i = 0; i < n; i++) {
        snprintf(tag, sizeof(tag), "%s%zu", pre, i);
        h_out_i(tag, out[i]);
    }
}

int main(void)
{
    static const unsigned char bytes[(NI + 1) * 8] = {
        1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13,  14,  15,  16,  17,  18,  19,  20,
        21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 200, 201, 202, 203, 204, 205, 206, 207,
    };
    struct h_env h;
    float of[NI * 16];
    char tag[32];

    h_init(&h);
    cl_program p = h_build(&h, src, "");
    cl_kernel kr = h_kernel(p, "rel"), ks = h_kernel(p, "sel"), kh = h_kernel(p, "shuf");
    cl_mem f = in(&h, sizeof(fv), fv), v = in(&h, sizeof(iv), iv),
           c8 = in(&h, sizeof(bytes), bytes);
    cl_mem o = h_buffer(&h, CL_MEM_READ_WRITE, NI * 32 * sizeof(int), NULL);
    cl_mem ofm = h_buffer(&h, CL_MEM_READ_WRITE, sizeof(of), NULL);

    launch(&h, kr, (cl_mem[]){f, v, o}, 3);
    print_ints(&h, "rel", o, NI * 32);
    launch(&h, ks, (cl_mem[]){v, f, o, ofm}, 4);
    print_ints(&h, "sel", o, NI * 32);
    h_read(&h, ofm, sizeof(of), of);
    for (int i = 0; i < NI * 16; i++) {
        snprintf(tag, sizeof(tag), "fsel%d", i);
        h_out_f(tag, of[i], 0);
    }
    launch(&h, kh, (cl_mem[]){v, c8, o}, 3);
    print_ints(&h, "shuf", o, NI * 32);
    clReleaseMemObject(f);
    clReleaseMemObject(v);
    clReleaseMemObject(c8);
    clReleaseMemObject(o);
    clReleaseMemObject(ofm);
    clReleaseKernel(kr);
    clReleaseKernel(ks);
    clReleaseKernel(kh);
    clReleaseProgram(p);
    h_done(&h);
    return 0;
}
