/*
 * Programs from LLVM bitcode given to clCreateProgramWithBinary: SPIR 1.2
 * (spir64, cl_khr_spir) made by clang-14 at -O0 (optnone functions, which
 * the retargeting must open up) and at -O2, and, on ptxsim, nvptx64 bitcode.
 * Where a platform or a tool cannot do one of them, the same source is
 * built instead (said on stderr), so the outputs compare. Bitcode for
 * another target is CL_INVALID_BINARY on ptxsim.
 */
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"

static const char *src =
    "__constant float scale[4] = {0.5f, 1.5f, 2.5f, 3.5f};\n"
    "int helper(int x) { return mad24(x, 3, 1) ^ (x >> 2); }\n"
    "__kernel void k(__global const int *in, __global int *out, __global float *f,\n"
    "                __local int *tmp) {\n"
    "  size_t i = get_global_id(0), l = get_local_id(0);\n"
    "  tmp[l] = helper(in[i]);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[i] = tmp[get_local_size(0) - 1 - l] + clz(in[i]) + (int)get_local_size(0);\n"
    "  f[i] = (float)in[i] * scale[i & 3] + exp2((float)(i & 7));\n"
    "}\n";

#define N 128
#define WG 32

/* From the binary when it and the platform allow it, else from source. */
static cl_program make_program(struct h_env *h, const unsigned char *bin, size_t len,
                               const char *what)
{
    cl_int rc, st;
    cl_program p = NULL;

    if (bin)
        p = clCreateProgramWithBinary(h->ctx, 1, &h->dev, &len, &bin, &st, &rc);
    if (p && clBuildProgram(p, 1, &h->dev, NULL, NULL, NULL) == CL_SUCCESS)
        return p;
    if (p && h_is_ptxsim(h)) {
        fprintf(stderr, "%s: ptxsim failed to build the binary\n", what);
        exit(2);
    }
    if (p)
        clReleaseProgram(p);
    fprintf(stderr, "%s: no binary or not taken here: building the source\n", what);
    return h_build(h, src, NULL);
}

static void run(struct h_env *h, cl_program p, const char *tag)
{
    static int in[N], out[N];
    static float f[N];
    size_t global = N, local = WG;
    char t[64];

    for (int i = 0; i < N; i++)
        in[i] = i * 37 - 1000;
    cl_kernel k = h_kernel(p, "k");
    cl_mem mi = h_buffer(h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(in), in);
    cl_mem mo = h_buffer(h, CL_MEM_WRITE_ONLY, sizeof(out), NULL);
    cl_mem mf = h_buffer(h, CL_MEM_WRITE_ONLY, sizeof(f), NULL);

    h_check(clSetKernelArg(k, 0, sizeof(cl_mem), &mi), "arg0");
    h_check(clSetKernelArg(k, 1, sizeof(cl_mem), &mo), "arg1");
    h_check(clSetKernelArg(k, 2, sizeof(cl_mem), &mf), "arg2");
    h_check(clSetKernelArg(k, 3, WG * sizeof(int), NULL), "arg3");
    h_check(clEnqueueNDRangeKernel(h->q, k, 1, NULL, &global, &local, 0, NULL, NULL), "launch");
    h_read(h, mo, sizeof(out), out);
    h_read(h, mf, sizeof(f), f);
    for (int i = 0; i < N; i += 5) {
        snprintf(t, sizeof(t), "%s_i%d", tag, i);
        h_out_i(t, out[i]);
        snprintf(t, sizeof(t), "%s_f%d", tag, i);
        h_out_f(t, f[i], 6); /* exp2: 3 ULP, doubled */
    }
    clReleaseMemObject(mi);
    clReleaseMemObject(mo);
    clReleaseMemObject(mf);
    clReleaseKernel(k);
}

static void variant(struct h_env *h, const char *args, const char *tag, int ptxsim_only)
{
    size_t len = 0;
    unsigned char *bin = NULL;
    cl_program p;

    if (!ptxsim_only || h_is_ptxsim(h))
        bin = h_offline(src, args, 0, &len);
    p = make_program(h, bin, len, tag);
    run(h, p, tag);
    clReleaseProgram(p);
    free(bin);
}

/* ptxsim takes bitcode for spir64 and nvptx64 only. */
static void wrong_target(struct h_env *h)
{
    size_t len = 0;
    unsigned char *bin =
        h_is_ptxsim(h) ? h_offline(src, "-target x86_64-linux-gnu", 0, &len) : NULL;
    cl_int rc = CL_INVALID_BINARY, st;

    if (bin &&
        clCreateProgramWithBinary(h->ctx, 1, &h->dev, &len, (const unsigned char **)&bin, &st, &rc))
        rc = CL_SUCCESS;
    h_out_chk("x86_bitcode_refused", rc == CL_INVALID_BINARY);
    free(bin);
}

int main(void)
{
    struct h_env h;

    h_init(&h);
    variant(&h, "-target spir64 -O0", "spir_O0", 0);
    variant(&h, "-target spir64 -O2", "spir_O2", 0);
    variant(&h, "-target nvptx64-nvidia-nvcl -O2", "nvptx", 1);
    wrong_target(&h);
    h_done(&h);
    return 0;
}
