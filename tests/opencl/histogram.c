/*
 * A 64-bin histogram: each work-group counts into __local bins with
 * atomic_inc, then merges them into the global histogram with atomic_add
 * (cl_khr_local_int32_base_atomics, global atomics). Counts are exact.
 */
#include <stdio.h>

#include "harness.h"

static const char *src =
    "#define BINS 64\n"
    "__kernel void hist(__global const uint *in, uint n, __global int *bins) {\n"
    "  __local int lb[BINS];\n"
    "  uint l = get_local_id(0), ls = get_local_size(0);\n"
    "  for (uint b = l; b < BINS; b += ls) lb[b] = 0;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (uint i = get_global_id(0); i < n; i += get_global_size(0))\n"
    "    atomic_inc(&lb[(in[i] >> 3) % BINS]);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (uint b = l; b < BINS; b += ls) if (lb[b]) atomic_add(&bins[b], lb[b]);\n"
    "}\n";

#define N 20000
#define BINS 64

int main(void)
{
    struct h_env h;
    static cl_uint in[N];
    int bins[BINS] = {0}, want[BINS] = {0}, ok = 1;
    size_t global = 1024, local = 128;
    cl_uint n = N;
    char t[32];

    for (int i = 0; i < N; i++) {
        in[i] = (cl_uint)(i * 2654435761u) ^ (cl_uint)(i * i);
        want[(in[i] >> 3) % BINS]++;
    }
    h_init(&h);
    cl_program p = h_build(&h, src, NULL);
    cl_kernel k = h_kernel(p, "hist");
    cl_mem mi = h_buffer(&h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(in), in);
    cl_mem mb = h_buffer(&h, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(bins), bins);

    h_check(clSetKernelArg(k, 0, sizeof(cl_mem), &mi), "arg0");
    h_check(clSetKernelArg(k, 1, sizeof(n), &n), "arg1");
    h_check(clSetKernelArg(k, 2, sizeof(cl_mem), &mb), "arg2");
    h_check(clEnqueueNDRangeKernel(h.q, k, 1, NULL, &global, &local, 0, NULL, NULL), "launch");
    h_read(&h, mb, sizeof(bins), bins);
    for (int b = 0; b < BINS; b++) {
        snprintf(t, sizeof(t), "bin%d", b);
        h_out_i(t, bins[b]);
        ok &= bins[b] == want[b];
    }
    h_out_chk("histogram_matches_host", ok);
    clReleaseMemObject(mi);
    clReleaseMemObject(mb);
    clReleaseKernel(k);
    clReleaseProgram(p);
    h_done(&h);
    return 0;
}
