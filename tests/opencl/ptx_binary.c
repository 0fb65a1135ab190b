/*
 * Program binaries: the binary clGetProgramInfo(CL_PROGRAM_BINARIES) returns
 * for a built program (PTX text on ptxsim) is given back to
 * clCreateProgramWithBinary, built and run, including global offsets (which
 * ptxsim's PTX carries as a module variable). Binary type and size queries,
 * an empty or junk binary (CL_INVALID_VALUE, CL_INVALID_BINARY) and, on
 * ptxsim, hand-written PTX.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

static const char *src =
    "__kernel void saxpy(__global float *y, __global const float *x, float a) {\n"
    "  size_t i = get_global_id(0);\n"
    "  y[i] = a * x[i] + y[i] + (float)get_global_offset(0);\n"
    "}\n"
    "__kernel void iota(__global int *o) { o[get_global_id(0)] = (int)get_global_id(0) * 3; }\n";

static const char *hand_ptx = ".version 3.2\n.target sm_20\n.address_size 64\n"
                              ".entry twice(.param .u64 .ptr .global .align 4 p) {\n"
                              "  .reg .u64 %rd<4>; .reg .u32 %r<4>;\n"
                              "  ld.param.u64 %rd1, [p];\n  mov.u32 %r1, %tid.x;\n"
                              "  mul.wide.u32 %rd2, %r1, 4;\n  add.u64 %rd3, %rd1, %rd2;\n"
                              "  shl.b32 %r2, %r1, 1;\n  st.global.u32 [%rd3], %r2;\n  ret;\n}\n";

#define N 96

static cl_program from_binary(struct h_env *h, cl_program p)
{
    size_t size;
    unsigned char *bin;
    cl_int rc, st;
    cl_program_binary_type bt;

    h_check(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof(size), &size, NULL), "sizes");
    bin = malloc(size);
    h_check(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof(bin), &bin, NULL), "binaries");
    h_out_chk("binary_nonempty", size > 0);
    cl_program p2 = clCreateProgramWithBinary(h->ctx, 1, &h->dev, &size,
                                              (const unsigned char **)&bin, &st, &rc);
    h_check(rc, "clCreateProgramWithBinary");
    h_out_chk("binary_status", st == CL_SUCCESS);
    h_check(clBuildProgram(p2, 1, &h->dev, NULL, NULL, NULL), "build from binary");
    h_check(clGetProgramBuildInfo(p2, h->dev, CL_PROGRAM_BINARY_TYPE, sizeof(bt), &bt, NULL),
            "binary type");
    h_out_chk("binary_type_executable", bt == CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    free(bin);
    return p2;
}

static void run_saxpy(struct h_env *h, cl_program p, const char *tag, size_t off)
{
    static float x[N], y[N];
    size_t global = N - off;
    float a = 2.5f;
    char t[64];

    for (int i = 0; i < N; i++) {
        x[i] = (float)i * 0.25f;
        y[i] = 100.0f - (float)i;
    }
    cl_kernel k = h_kernel(p, "saxpy");
    cl_mem my = h_buffer(h, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(y), y);
    cl_mem mx = h_buffer(h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(x), x);

    h_check(clSetKernelArg(k, 0, sizeof(cl_mem), &my), "arg0");
    h_check(clSetKernelArg(k, 1, sizeof(cl_mem), &mx), "arg1");
    h_check(clSetKernelArg(k, 2, sizeof(a), &a), "arg2");
    h_check(clEnqueueNDRangeKernel(h->q, k, 1, &off, &global, NULL, 0, NULL, NULL), "launch");
    h_read(h, my, sizeof(y), y);
    for (int i = 0; i < N; i += 7) {
        snprintf(t, sizeof(t), "%s_%d", tag, i);
        h_out_f(t, y[i], 1); /* a * x + y: one rounding or two (contracted) */
    }
    clReleaseMemObject(my);
    clReleaseMemObject(mx);
    clReleaseKernel(k);
}

static void bad_binaries(struct h_env *h)
{
    const unsigned char *junk = (const unsigned char *)"this is no binary";
    size_t len = strlen((const char *)junk), zero = 0;
    cl_int rc, st;

    clCreateProgramWithBinary(h->ctx, 1, &h->dev, &zero, &junk, &st, &rc);
    h_out_chk("empty_binary", rc == CL_INVALID_VALUE);
    clCreateProgramWithBinary(h->ctx, 1, &h->dev, &len, &junk, &st, &rc);
    h_out_chk("junk_binary", rc == CL_INVALID_BINARY && st == CL_INVALID_BINARY);
}

/* Hand-written PTX, on ptxsim only (the output line is the same elsewhere). */
static void hand_written(struct h_env *h)
{
    int out[32], ok = 1;
    size_t len = strlen(hand_ptx), global = 32;
    const unsigned char *bin = (const unsigned char *)hand_ptx;
    cl_int rc, st;

    if (h_is_ptxsim(h)) {
        cl_program p = clCreateProgramWithBinary(h->ctx, 1, &h->dev, &len, &bin, &st, &rc);
        h_check(rc, "PTX binary");
        h_check(clBuildProgram(p, 0, NULL, NULL, NULL, NULL), "build PTX");
        cl_kernel k = h_kernel(p, "twice");
        cl_mem m = h_buffer(h, CL_MEM_WRITE_ONLY, sizeof(out), NULL);
        h_check(clSetKernelArg(k, 0, sizeof(cl_mem), &m), "arg");
        h_check(clEnqueueNDRangeKernel(h->q, k, 1, NULL, &global, &global, 0, NULL, NULL), "go");
        h_read(h, m, sizeof(out), out);
        for (int i = 0; i < 32; i++)
            ok &= out[i] == 2 * i;
        clReleaseMemObject(m);
        clReleaseKernel(k);
        clReleaseProgram(p);
    }
    h_out_chk("hand_written_ptx", ok);
}

int main(void)
{
    struct h_env h;

    h_init(&h);
    cl_program p = h_build(&h, src, NULL);
    run_saxpy(&h, p, "src", 0);
    cl_program p2 = from_binary(&h, p);
    run_saxpy(&h, p2, "bin", 0);
    run_saxpy(&h, p2, "bin_off", 16);
    cl_program p3 = from_binary(&h, p2); /* the binary of a program from a binary */
    run_saxpy(&h, p3, "bin2", 8);
    bad_binaries(&h);
    hand_written(&h);
    clReleaseProgram(p3);
    clReleaseProgram(p2);
    clReleaseProgram(p);
    h_done(&h);
    return 0;
}
