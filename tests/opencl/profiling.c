/*
 * Profiling: a write, three kernels (two different ones) and a read on a
 * profiling queue. On every platform each event must have QUEUED <= SUBMIT
 * <= START <= END, and each command must start no earlier than the previous
 * one ended (the queue is in order). The kernels' results are printed for
 * the comparison with PoCL; no timestamp is printed, so the output is the
 * same in ptxsim's functional and timing modes.
 *
 * With $OCL_PROFILE_OUT set, the timestamps also go to that file, one event
 * a line: "<kernel name or -> <queued> <submit> <start> <end>". run.sh uses
 * it in timing mode to check them against the PTXSIM_STATS cycles.
 */
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"

static const char *src =
    "__kernel void scale(__global int *y, __global const int *x, int a) {\n"
    "  int i = get_global_id(0);\n"
    "  y[i] = a * x[i] + i;\n"
    "}\n"
    "__kernel void square(__global int *y) {\n"
    "  int i = get_global_id(0);\n"
    "  uint v = (uint)y[i];\n"
    "  for (uint k = 0; k < 8; k++) v = (v * v + k) & 0xffffu;\n"
    "  y[i] = (int)v;\n"
    "}\n";

#define N 4096
#define NEV 5

static const char *names[NEV] = {"-", "scale", "square", "scale", "-"};

int main(void)
{
    struct h_env h;
    static int x[N], y[N];
    cl_event ev[NEV];
    cl_ulong t[NEV][4];
    size_t global = N, half = N / 2, local = 128;
    int a = 3, ok_order = 1, ok_events = 1;
    const char *path = getenv("OCL_PROFILE_OUT");
    char tag[32];

    for (int i = 0; i < N; i++)
        x[i] = i * 7 - 1000;
    h_init(&h);
    cl_program p = h_build(&h, src, NULL);
    cl_kernel ks = h_kernel(p, "scale"), kq = h_kernel(p, "square");
    cl_mem mx = h_buffer(&h, CL_MEM_READ_ONLY, sizeof(x), NULL);
    cl_mem my = h_buffer(&h, CL_MEM_READ_WRITE, sizeof(y), NULL);

    h_check(clEnqueueWriteBuffer(h.q, mx, CL_TRUE, 0, sizeof(x), x, 0, NULL, &ev[0]), "write");
    h_check(clSetKernelArg(ks, 0, sizeof(cl_mem), &my), "scale arg0");
    h_check(clSetKernelArg(ks, 1, sizeof(cl_mem), &mx), "scale arg1");
    h_check(clSetKernelArg(ks, 2, sizeof(int), &a), "scale arg2");
    h_check(clSetKernelArg(kq, 0, sizeof(cl_mem), &my), "square arg0");
    h_check(clEnqueueNDRangeKernel(h.q, ks, 1, NULL, &global, &local, 0, NULL, &ev[1]), "scale");
    h_check(clEnqueueNDRangeKernel(h.q, kq, 1, NULL, &global, &local, 0, NULL, &ev[2]), "square");
    a = -5;
    h_check(clSetKernelArg(ks, 2, sizeof(int), &a), "scale arg2");
    h_check(clEnqueueNDRangeKernel(h.q, ks, 1, NULL, &half, NULL, 0, NULL, &ev[3]), "scale 2");
    h_check(clEnqueueReadBuffer(h.q, my, CL_TRUE, 0, sizeof(y), y, 0, NULL, &ev[4]), "read");
    h_check(clWaitForEvents(NEV, ev), "wait");

    for (int i = 0; i < NEV; i++) {
        static const cl_profiling_info what[4] = {
            CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
            CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END};

        for (int j = 0; j < 4; j++)
            h_check(clGetEventProfilingInfo(ev[i], what[j], sizeof(cl_ulong), &t[i][j], NULL),
                    "clGetEventProfilingInfo");
        if (!(t[i][0] <= t[i][1] && t[i][1] <= t[i][2] && t[i][2] <= t[i][3]))
            ok_events = 0;
        if (i > 0 && t[i][2] < t[i - 1][3])
            ok_order = 0;
    }
    h_out_chk("queued_submit_start_end", ok_events);
    h_out_chk("in_order", ok_order);
    if (path && *path) {
        FILE *fp = fopen(path, "w");

        if (!fp) {
            perror(path);
            return 2;
        }
        for (int i = 0; i < NEV; i++)
            fprintf(fp, "%s %llu %llu %llu %llu\n", names[i], (unsigned long long)t[i][0],
                    (unsigned long long)t[i][1], (unsigned long long)t[i][2],
                    (unsigned long long)t[i][3]);
        fclose(fp);
    }
    for (int i = 0; i < N; i += 97) {
        snprintf(tag, sizeof(tag), "y%d", i);
        h_out_i(tag, y[i]);
    }
    for (int i = 0; i < NEV; i++)
        clReleaseEvent(ev[i]);
    clReleaseMemObject(mx);
    clReleaseMemObject(my);
    clReleaseKernel(ks);
    clReleaseKernel(kq);
    clReleaseProgram(p);
    h_done(&h);
    return 0;
}
