/*
 * Work-efficient (Blelloch) exclusive prefix sum: each work-group scans its
 * block in __local memory (up-sweep, down-sweep, barriers between levels),
 * writes its total, a second launch scans the totals, and a third adds them
 * back. Integer results, checked against the host.
 */
#include <stdio.h>

#include "harness.h"

static const char *src =
    "__kernel void scan_block(__global const int *in, __global int *out,\n"
    "                         __global int *sums, __local int *t) {\n"
    "  uint l = get_local_id(0), n = get_local_size(0) * 2, g = get_group_id(0);\n"
    "  uint base = g * n;\n"
    "  t[2 * l] = in[base + 2 * l];\n"
    "  t[2 * l + 1] = in[base + 2 * l + 1];\n"
    "  uint off = 1;\n"
    "  for (uint d = n >> 1; d > 0; d >>= 1) {\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (l < d) { uint a = off * (2 * l + 1) - 1, b = off * (2 * l + 2) - 1; t[b] += t[a]; }\n"
    "    off *= 2;\n"
    "  }\n"
    "  if (l == 0) { sums[g] = t[n - 1]; t[n - 1] = 0; }\n"
    "  for (uint d = 1; d < n; d *= 2) {\n"
    "    off >>= 1;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (l < d) {\n"
    "      uint a = off * (2 * l + 1) - 1, b = off * (2 * l + 2) - 1;\n"
    "      int x = t[a]; t[a] = t[b]; t[b] += x;\n"
    "    }\n"
    "  }\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[base + 2 * l] = t[2 * l];\n"
    "  out[base + 2 * l + 1] = t[2 * l + 1];\n"
    "}\n"
    "__kernel void add_sums(__global int *out, __global const int *sums) {\n"
    "  out[get_global_id(0)] += sums[get_global_id(0) / (2 * get_local_size(0))];\n"
    "}\n";

#define N 16384
#define WG 64 /* each group scans 2 * WG elements */
#define GROUPS (N / (2 * WG))

static void scan_pass(struct h_env *h, cl_kernel k, cl_mem in, cl_mem out, cl_mem sums, size_t n)
{
    size_t global = n / 2, local = WG;

    h_check(clSetKernelArg(k, 0, sizeof(cl_mem), &in), "arg0");
    h_check(clSetKernelArg(k, 1, sizeof(cl_mem), &out), "arg1");
    h_check(clSetKernelArg(k, 2, sizeof(cl_mem), &sums), "arg2");
    h_check(clSetKernelArg(k, 3, 2 * WG * sizeof(int), NULL), "arg3 (local)");
    h_check(clEnqueueNDRangeKernel(h->q, k, 1, NULL, &global, &local, 0, NULL, NULL), "scan");
}

int main(void)
{
    struct h_env h;
    static int in[N], out[N], want[N];
    size_t global = N, local = WG;
    int ok = 1, acc = 0;
    char t[32];

    for (int i = 0; i < N; i++) {
        in[i] = (i * 2654435761u >> 20) % 100 - 30;
        want[i] = acc;
        acc += in[i];
    }
    h_init(&h);
    cl_program p = h_build(&h, src, NULL);
    cl_kernel ks = h_kernel(p, "scan_block"), ka = h_kernel(p, "add_sums");
    cl_mem mi = h_buffer(&h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(in), in);
    cl_mem mo = h_buffer(&h, CL_MEM_READ_WRITE, sizeof(out), NULL);
    cl_mem ms = h_buffer(&h, CL_MEM_READ_WRITE, GROUPS * sizeof(int), NULL);
    cl_mem mss = h_buffer(&h, CL_MEM_READ_WRITE, GROUPS * sizeof(int), NULL);
    cl_mem mtot = h_buffer(&h, CL_MEM_READ_WRITE, sizeof(int), NULL);

    scan_pass(&h, ks, mi, mo, ms, N);
    scan_pass(&h, ks, ms, mss, mtot, GROUPS); /* GROUPS = 2 * WG: one group */
    h_check(clSetKernelArg(ka, 0, sizeof(cl_mem), &mo), "add arg0");
    h_check(clSetKernelArg(ka, 1, sizeof(cl_mem), &mss), "add arg1");
    h_check(clEnqueueNDRangeKernel(h.q, ka, 1, NULL, &global, &local, 0, NULL, NULL), "add");
    h_read(&h, mo, sizeof(out), out);
    for (int i = 0; i < N; i++)
        ok &= out[i] == want[i];
    for (int i = 0; i < N; i += 661) {
        snprintf(t, sizeof(t), "scan%d", i);
        h_out_i(t, out[i]);
    }
    h_read(&h, mtot, sizeof(int), &acc);
    h_out_i("total", acc);
    h_out_chk("scan_matches_host", ok);
    clReleaseMemObject(mi);
    clReleaseMemObject(mo);
    clReleaseMemObject(ms);
    clReleaseMemObject(mss);
    clReleaseMemObject(mtot);
    clReleaseKernel(ks);
    clReleaseKernel(ka);
    clReleaseProgram(p);
    h_done(&h);
    return 0;
}
