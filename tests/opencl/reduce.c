/* Sum reduction with a __local argument (size only) and barriers. */
#include <stdio.h>

#include "harness.h"

static const char *src =
    "__kernel void reduce(__global const int *in, __global int *out, __local int *tmp) {\n"
    "  uint l = get_local_id(0), n = get_local_size(0);\n"
    "  tmp[l] = in[get_global_id(0)];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (uint s = n / 2; s > 0; s >>= 1) {\n"
    "    if (l < s) tmp[l] += tmp[l + s];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  if (l == 0) out[get_group_id(0)] = tmp[0];\n"
    "}\n";

#define N 4096
#define WG 128

int main(void)
{
    struct h_env h;
    static int in[N], out[N / WG];
    size_t global = N, local = WG;
    long long total = 0, want = 0;
    char tag[32];

    for (int i = 0; i < N; i++) {
        in[i] = (i * 7919) % 1000 - 300;
        want += in[i];
    }
    h_init(&h);
    cl_program p = h_build(&h, src, NULL);
    cl_kernel k = h_kernel(p, "reduce");
    cl_mem mi = h_buffer(&h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(in), in);
    cl_mem mo = h_buffer(&h, CL_MEM_WRITE_ONLY, sizeof(out), NULL);

    h_check(clSetKernelArg(k, 0, sizeof(cl_mem), &mi), "arg0");
    h_check(clSetKernelArg(k, 1, sizeof(cl_mem), &mo), "arg1");
    h_check(clSetKernelArg(k, 2, WG * sizeof(int), NULL), "arg2 (local)");
    h_check(clEnqueueNDRangeKernel(h.q, k, 1, NULL, &global, &local, 0, NULL, NULL), "launch");
    h_read(&h, mo, sizeof(out), out);
    for (int g = 0; g < N / WG; g++) {
        snprintf(tag, sizeof(tag), "group%d", g);
        h_out_i(tag, out[g]);
        total += out[g];
    }
    h_out_i("total", total);
    h_out_chk("total_matches_host", total == want);
    clReleaseMemObject(mi);
    clReleaseMemObject(mo);
    clReleaseKernel(k);
    clReleaseProgram(p);
    h_done(&h);
    return 0;
}
