/*
 * API misuse and queries: the error codes OpenCL 1.2 names for each case,
 * program binaries (rebuilt from the binary), kernel and work-group info,
 * events and profiling, reference counts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

static const char *src =
    "__kernel void k2(__global int *a, __local int *l, int v) {\n"
    "  l[get_local_id(0)] = v; barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  a[get_global_id(0)] = l[0] + (int)get_local_size(0);\n"
    "}\n";

static void code(const char *tag, cl_int got, cl_int want)
{
    if (got != want)
        fprintf(stderr, "%s: got %s, want %s\n", tag, h_err_name(got), h_err_name(want));
    h_out_chk(tag, got == want);
}

static void binaries(struct h_env *h, cl_program p)
{
    size_t size;
    unsigned char *bin;
    cl_int rc, st;

    h_check(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof(size), &size, NULL), "sizes");
    bin = malloc(size);
    h_check(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof(bin), &bin, NULL), "binaries");
    cl_program p2 = clCreateProgramWithBinary(h->ctx, 1, &h->dev, &size,
                                              (const unsigned char **)&bin, &st, &rc);
    h_check(rc, "clCreateProgramWithBinary");
    h_check(clBuildProgram(p2, 1, &h->dev, NULL, NULL, NULL), "build from binary");
    cl_kernel k = h_kernel(p2, "k2");
    h_out_chk("binary_kernel_created", k != NULL);
    clReleaseKernel(k);
    clReleaseProgram(p2);
    free(bin);
}

int main(void)
{
    struct h_env h;
    cl_int rc, v = 3, out[64];
    cl_uint nargs, refs;
    size_t global = 64, local = 16, bad_local = 7, wg;
    char name[64];
    cl_event ev;
    cl_ulong t0, t1;

    h_init(&h);
    cl_program p = h_build(&h, src, NULL);
    cl_kernel k = h_kernel(p, "k2");
    cl_mem m = h_buffer(&h, CL_MEM_READ_WRITE, sizeof(out), NULL);

    code("bad_kernel_name", clCreateKernel(p, "nope", &rc) == NULL ? rc : 0,
         CL_INVALID_KERNEL_NAME);
    code("buffer_size_0", clCreateBuffer(h.ctx, 0, 0, NULL, &rc) == NULL ? rc : 0,
         CL_INVALID_BUFFER_SIZE);
    code("host_ptr_missing",
         clCreateBuffer(h.ctx, CL_MEM_USE_HOST_PTR, 4, NULL, &rc) == NULL ? rc : 0,
         CL_INVALID_HOST_PTR);
    code("arg_index", clSetKernelArg(k, 3, sizeof(int), &v), CL_INVALID_ARG_INDEX);
    code("arg_size", clSetKernelArg(k, 2, 2, &v), CL_INVALID_ARG_SIZE);
    code("local_arg_with_value", clSetKernelArg(k, 1, 4, &v), CL_INVALID_ARG_VALUE);
    code("args_not_set", clEnqueueNDRangeKernel(h.q, k, 1, NULL, &global, &local, 0, NULL, NULL),
         CL_INVALID_KERNEL_ARGS);
    h_check(clSetKernelArg(k, 0, sizeof(cl_mem), &m), "arg0");
    h_check(clSetKernelArg(k, 1, 16 * sizeof(int), NULL), "arg1");
    h_check(clSetKernelArg(k, 2, sizeof(int), &v), "arg2");
    code("work_dim", clEnqueueNDRangeKernel(h.q, k, 4, NULL, &global, &local, 0, NULL, NULL),
         CL_INVALID_WORK_DIMENSION);
    code("wg_not_dividing",
         clEnqueueNDRangeKernel(h.q, k, 1, NULL, &global, &bad_local, 0, NULL, NULL),
         CL_INVALID_WORK_GROUP_SIZE);
    code("read_out_of_range",
         clEnqueueReadBuffer(h.q, m, CL_TRUE, 8, sizeof(out), out, 0, NULL, NULL),
         CL_INVALID_VALUE);
    h_check(clEnqueueNDRangeKernel(h.q, k, 1, NULL, &global, &local, 0, NULL, &ev), "launch");
    h_check(clWaitForEvents(1, &ev), "wait");
    h_check(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof(t0), &t0, NULL), "t0");
    h_check(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof(t1), &t1, NULL), "t1");
    h_out_chk("profiling_ordered", t1 >= t0);
    h_check(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(rc), &rc, NULL), "st");
    h_out_chk("event_complete", rc == CL_COMPLETE);
    clReleaseEvent(ev);
    h_read(&h, m, sizeof(out), out);
    h_out_i("out0", out[0]);
    h_out_i("out63", out[63]);
    h_check(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof(nargs), &nargs, NULL), "nargs");
    h_out_i("num_args", nargs);
    h_check(clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof(name), name, NULL), "fname");
    h_out_chk("function_name_ok", !strcmp(name, "k2"));
    h_check(clGetKernelWorkGroupInfo(k, h.dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof(wg), &wg, NULL),
            "wg");
    h_out_chk("wg_size_positive", wg >= 16);
    clRetainKernel(k);
    h_check(clGetKernelInfo(k, CL_KERNEL_REFERENCE_COUNT, sizeof(refs), &refs, NULL), "refs");
    h_out_i("kernel_refs", refs);
    clReleaseKernel(k);
    binaries(&h, p);
    clReleaseMemObject(m);
    clReleaseKernel(k);
    clReleaseProgram(p);
    h_done(&h);
    return 0;
}
