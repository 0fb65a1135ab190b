/*
 * Bitonic sort of 4096 keys: one launch per (stage, pass) with the pass
 * parameters as by-value arguments, plus a first launch that sorts 256-key
 * blocks entirely in __local memory with barriers. The result must be the
 * host's sorted keys.
 */
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"

static const char *src =
    "__kernel void local_sort(__global int *a, __local int *t) {\n"
    "  uint l = get_local_id(0), n = get_local_size(0), base = get_group_id(0) * n;\n"
    "  t[l] = a[base + l];\n"
    "  for (uint k = 2; k <= n; k <<= 1)\n"
    "    for (uint j = k >> 1; j > 0; j >>= 1) {\n"
    "      barrier(CLK_LOCAL_MEM_FENCE);\n"
    "      uint p = l ^ j;\n"
    "      if (p > l) {\n"
    "        bool up = (((base + l) & k) == 0);\n"
    "        int x = t[l], y = t[p];\n"
    "        if ((x > y) == up) { t[l] = y; t[p] = x; }\n"
    "      }\n"
    "    }\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  a[base + l] = t[l];\n"
    "}\n"
    "__kernel void bitonic_step(__global int *a, uint j, uint k) {\n"
    "  uint i = get_global_id(0), p = i ^ j;\n"
    "  if (p > i) {\n"
    "    bool up = ((i & k) == 0);\n"
    "    int x = a[i], y = a[p];\n"
    "    if ((x > y) == up) { a[i] = y; a[p] = x; }\n"
    "  }\n"
    "}\n";

#define N 4096
#define BLOCK 256

static int cmp(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;

    return (x > y) - (x < y);
}

int main(void)
{
    struct h_env h;
    static int keys[N], want[N];
    size_t global = N, local = BLOCK;
    int ok = 1, launches = 1;
    char t[32];

    for (int i = 0; i < N; i++)
        want[i] = keys[i] = (int)((i * 2654435761u) >> 7) % 100000 - 50000;
    qsort(want, N, sizeof(int), cmp);
    h_init(&h);
    cl_program p = h_build(&h, src, NULL);
    cl_kernel kl = h_kernel(p, "local_sort"), ks = h_kernel(p, "bitonic_step");
    cl_mem m = h_buffer(&h, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(keys), keys);

    h_check(clSetKernelArg(kl, 0, sizeof(cl_mem), &m), "arg0");
    h_check(clSetKernelArg(kl, 1, BLOCK * sizeof(int), NULL), "arg1 (local)");
    h_check(clEnqueueNDRangeKernel(h.q, kl, 1, NULL, &global, &local, 0, NULL, NULL), "local");
    h_check(clSetKernelArg(ks, 0, sizeof(cl_mem), &m), "step arg0");
    for (cl_uint k = 2 * BLOCK; k <= N; k <<= 1)
        for (cl_uint j = k >> 1; j > 0; j >>= 1, launches++) {
            h_check(clSetKernelArg(ks, 1, sizeof(j), &j), "j");
            h_check(clSetKernelArg(ks, 2, sizeof(k), &k), "k");
            h_check(clEnqueueNDRangeKernel(h.q, ks, 1, NULL, &global, NULL, 0, NULL, NULL), "step");
        }
    h_read(&h, m, sizeof(keys), keys);
    for (int i = 0; i < N; i++)
        ok &= keys[i] == want[i];
    for (int i = 0; i < N; i += 211) {
        snprintf(t, sizeof(t), "k%d", i);
        h_out_i(t, keys[i]);
    }
    h_out_i("launches", launches);
    h_out_chk("sorted_like_host", ok);
    clReleaseMemObject(m);
    clReleaseKernel(kl);
    clReleaseKernel(ks);
    clReleaseProgram(p);
    h_done(&h);
    return 0;
}
