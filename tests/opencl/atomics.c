/* Global and local 32-bit atomics: histogram, inc, min/max, cmpxchg counter. */
#include <stdio.h>

#include "harness.h"

static const char *src =
    "__kernel void atom(__global const uint *in, __global uint *hist, __global int *stats,\n"
    "                   __local uint *lh) {\n"
    "  uint l = get_local_id(0);\n"
    "  if (l < 16) lh[l] = 0;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  uint v = in[get_global_id(0)];\n"
    "  atomic_inc(&lh[v % 16]);\n"
    "  atomic_add(&hist[v % 16], 1u);\n"
    "  atomic_max(&stats[0], (int)v);\n"
    "  atomic_min(&stats[1], (int)v);\n"
    "  atomic_xor(&stats[2], (int)v);\n"
    "  int old;\n"
    "  do { old = stats[3]; } while (atomic_cmpxchg(&stats[3], old, old + 2) != old);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (l < 16) atomic_add(&hist[16 + l], lh[l]);\n"
    "}\n";

#define N 2048

int main(void)
{
    struct h_env h;
    static unsigned in[N], hist[32];
    int stats[4] = {-1, 1 << 30, 0, 0};
    size_t global = N, local = 64;
    char tag[32];

    for (int i = 0; i < N; i++)
        in[i] = (unsigned)(i * 2654435761u) >> 20;
    h_init(&h);
    cl_program p = h_build(&h, src, NULL);
    cl_kernel k = h_kernel(p, "atom");
    cl_mem mi = h_buffer(&h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(in), in);
    cl_mem mh = h_buffer(&h, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(hist), hist);
    cl_mem ms = h_buffer(&h, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(stats), stats);

    h_check(clSetKernelArg(k, 0, sizeof(cl_mem), &mi), "arg0");
    h_check(clSetKernelArg(k, 1, sizeof(cl_mem), &mh), "arg1");
    h_check(clSetKernelArg(k, 2, sizeof(cl_mem), &ms), "arg2");
    h_check(clSetKernelArg(k, 3, 16 * sizeof(unsigned), NULL), "arg3");
    h_check(clEnqueueNDRangeKernel(h.q, k, 1, NULL, &global, &local, 0, NULL, NULL), "launch");
    h_read(&h, mh, sizeof(hist), hist);
    h_read(&h, ms, sizeof(stats), stats);
    for (int i = 0; i < 32; i++) {
        snprintf(tag, sizeof(tag), "hist%d", i);
        h_out_i(tag, hist[i]);
    }
    for (int i = 0; i < 4; i++) {
        snprintf(tag, sizeof(tag), "stat%d", i);
        h_out_i(tag, stats[i]);
    }
    clReleaseMemObject(mi);
    clReleaseMemObject(mh);
    clReleaseMemObject(ms);
    clReleaseKernel(k);
    clReleaseProgram(p);
    h_done(&h);
    return 0;
}
