/*
 * Programs from SPIR-V (clCreateProgramWithIL and cl_khr_il_program's
 * clCreateProgramWithILKHR), made at test time by clang-14 -target spir64
 * and llvm-spirv-14. The kernel covers what the SPIR-V route must retarget:
 * __constant arguments and program-scope constants (address space 2 in
 * SPIR, 4 in NVPTX), __local memory and barriers, built-ins with mangled
 * address-space names (vload4 from __constant), math within its ULP bound,
 * and work offsets. A platform without IL support (or a missing tool) builds
 * the same source instead, so the outputs compare.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#include <CL/cl_ext.h>

/* OpenCL 2.1, exported by ocl-icd; harness.h targets 1.2, which does not declare it. */
extern CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithIL(cl_context, const void *, size_t,
                                                                 cl_int *);

static const char *src =
    "__constant int tab[8] = {3, 1, 4, 1, 5, 9, 2, 6};\n"
    "typedef struct { int a[8]; } S;\n"
    "__constant S cs = {{8, 7, 6, 5, 4, 3, 2, 1}};\n"
    "__kernel void k(__global float *out, __global int *iout, __constant float *cf,\n"
    "                __local int *l, int n) {\n"
    "  size_t i = get_global_id(0), li = get_local_id(0);\n"
    "  S s = cs;\n"
    "  s.a[i & 7] += n;\n"
    "  l[li] = tab[i & 7] * s.a[(i + 1) & 7] + popcount((int)i);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  int nb = l[(li + 1) % get_local_size(0)];\n"
    "  float4 v = vload4(i & 3, cf);\n"
    "  out[i - get_global_offset(0)] = sqrt(v.x + (float)nb) + v.w * 0.5f;\n"
    "  iout[i - get_global_offset(0)] = nb + (int)get_group_id(0) + (int)get_global_offset(0);\n"
    "}\n";

#define N 256
#define WG 64

typedef cl_program(CL_API_CALL *il_fn)(cl_context, const void *, size_t, cl_int *);

/* The program from IL when the platform takes it, else from source. */
static cl_program make_program(struct h_env *h, const unsigned char *il, size_t len, int khr)
{
    il_fn create = NULL;
    cl_int rc;
    cl_program p;

    if (il && h_has_ext(h, "cl_khr_il_program"))
        create = khr ? (il_fn)clGetExtensionFunctionAddressForPlatform(h->plat,
                                                                       "clCreateProgramWithILKHR")
                     : (il_fn)clCreateProgramWithIL;
    if (!create) {
        fprintf(stderr, "no IL on this platform (or no SPIR-V): building the source\n");
        return h_build(h, src, NULL);
    }
    p = create(h->ctx, il, len, &rc);
    h_check(rc, khr ? "clCreateProgramWithILKHR" : "clCreateProgramWithIL");
    h_check(clBuildProgram(p, 1, &h->dev, NULL, NULL, NULL), "build from IL");
    return p;
}

static void run(struct h_env *h, cl_program p, const char *tag, size_t offset)
{
    static float cf[16], out[N];
    static int iout[N];
    size_t global = N, local = WG;
    cl_int n = 5;
    char t[64];

    for (int i = 0; i < 16; i++)
        cf[i] = (float)(i * 3 + 1);
    cl_kernel k = h_kernel(p, "k");
    cl_mem mo = h_buffer(h, CL_MEM_WRITE_ONLY, sizeof(out), NULL);
    cl_mem mi = h_buffer(h, CL_MEM_WRITE_ONLY, sizeof(iout), NULL);
    cl_mem mc = h_buffer(h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(cf), cf);

    h_check(clSetKernelArg(k, 0, sizeof(cl_mem), &mo), "arg0");
    h_check(clSetKernelArg(k, 1, sizeof(cl_mem), &mi), "arg1");
    h_check(clSetKernelArg(k, 2, sizeof(cl_mem), &mc), "arg2");
    h_check(clSetKernelArg(k, 3, WG * sizeof(int), NULL), "arg3");
    h_check(clSetKernelArg(k, 4, sizeof(n), &n), "arg4");
    h_check(clEnqueueNDRangeKernel(h->q, k, 1, &offset, &global, &local, 0, NULL, NULL), "launch");
    h_read(h, mo, sizeof(out), out);
    h_read(h, mi, sizeof(iout), iout);
    for (int i = 0; i < N; i += 9) {
        snprintf(t, sizeof(t), "%s_f%d", tag, i);
        h_out_f(t, out[i], 6); /* sqrt: 3 ULP in OpenCL 1.2, doubled */
        snprintf(t, sizeof(t), "%s_i%d", tag, i);
        h_out_i(t, iout[i]);
    }
    clReleaseMemObject(mo);
    clReleaseMemObject(mi);
    clReleaseMemObject(mc);
    clReleaseKernel(k);
}

/* CL_PROGRAM_IL_KHR gives the module back; nonsense IL is CL_INVALID_VALUE. */
static void il_queries(struct h_env *h, cl_program p, const unsigned char *il, size_t len)
{
    static const unsigned char junk[64] = "not SPIR-V at all";
    size_t got = 0;
    unsigned char *back;
    cl_int rc = CL_INVALID_VALUE;
    int ok = 1;

    if (il && h_has_ext(h, "cl_khr_il_program")) {
        h_check(clGetProgramInfo(p, CL_PROGRAM_IL_KHR, 0, NULL, &got), "IL size");
        back = malloc(got ? got : 1);
        h_check(clGetProgramInfo(p, CL_PROGRAM_IL_KHR, got, back, NULL), "IL");
        ok = got == len && !memcmp(back, il, len);
        free(back);
        if (clCreateProgramWithIL(h->ctx, junk, sizeof(junk), &rc))
            rc = CL_SUCCESS;
    }
    h_out_chk("il_returned", ok);
    h_out_chk("bad_il_refused", rc == CL_INVALID_VALUE);
}

int main(void)
{
    struct h_env h;
    size_t len = 0;
    unsigned char *il = h_offline(src, "-target spir64 -O2", 1, &len);

    h_init(&h);
    if (!il)
        fprintf(stderr, "note: no SPIR-V (clang-14 or llvm-spirv-14 missing)\n");
    cl_program p = make_program(&h, il, len, 0);
    run(&h, p, "il", 0);
    run(&h, p, "il_off", 64);
    il_queries(&h, p, il, len);
    clReleaseProgram(p);
    p = make_program(&h, il, len, 1);
    run(&h, p, "khr", 0);
    clReleaseProgram(p);
    free(il);
    h_done(&h);
    return 0;
}
