/*
 * Matrix transpose through __local tiles (16 x 16, padded by one column to
 * avoid bank conflicts) on a 2D range whose sizes are not square, and a
 * naive transpose to compare with. Exact integer results.
 */
#include <stdio.h>

#include "harness.h"

static const char *src =
    "#define T 16\n"
    "__kernel void tiled(__global const int *in, __global int *out, int w, int h) {\n"
    "  __local int tile[T][T + 1];\n"
    "  int x = get_group_id(0) * T + get_local_id(0), y = get_group_id(1) * T + get_local_id(1);\n"
    "  if (x < w && y < h) tile[get_local_id(1)][get_local_id(0)] = in[y * w + x];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  x = get_group_id(1) * T + get_local_id(0);\n"
    "  y = get_group_id(0) * T + get_local_id(1);\n"
    "  if (x < h && y < w) out[y * h + x] = tile[get_local_id(0)][get_local_id(1)];\n"
    "}\n"
    "__kernel void naive(__global const int *in, __global int *out, int w, int h) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  if (x < w && y < h) out[x * h + y] = in[y * w + x];\n"
    "}\n";

#define W 80
#define H 48

static void run(struct h_env *h, cl_kernel k, cl_mem in, cl_mem out)
{
    size_t global[2] = {W, H}, local[2] = {16, 16};
    cl_int w = W, hh = H;

    h_check(clSetKernelArg(k, 0, sizeof(cl_mem), &in), "arg0");
    h_check(clSetKernelArg(k, 1, sizeof(cl_mem), &out), "arg1");
    h_check(clSetKernelArg(k, 2, sizeof(w), &w), "arg2");
    h_check(clSetKernelArg(k, 3, sizeof(hh), &hh), "arg3");
    h_check(clEnqueueNDRangeKernel(h->q, k, 2, NULL, global, local, 0, NULL, NULL), "launch");
}

int main(void)
{
    struct h_env h;
    static int in[W * H], a[W * H], b[W * H];
    int ok = 1;
    char t[32];

    for (int i = 0; i < W * H; i++)
        in[i] = i * 13 - 7;
    h_init(&h);
    cl_program p = h_build(&h, src, NULL);
    cl_kernel kt = h_kernel(p, "tiled"), kn = h_kernel(p, "naive");
    cl_mem mi = h_buffer(&h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(in), in);
    cl_mem ma = h_buffer(&h, CL_MEM_WRITE_ONLY, sizeof(a), NULL);
    cl_mem mb = h_buffer(&h, CL_MEM_WRITE_ONLY, sizeof(b), NULL);

    run(&h, kt, mi, ma);
    run(&h, kn, mi, mb);
    h_read(&h, ma, sizeof(a), a);
    h_read(&h, mb, sizeof(b), b);
    for (int y = 0; y < W; y++)
        for (int x = 0; x < H; x++)
            ok &= a[y * H + x] == in[x * W + y] && b[y * H + x] == a[y * H + x];
    for (int i = 0; i < W * H; i += 157) {
        snprintf(t, sizeof(t), "t%d", i);
        h_out_i(t, a[i]);
    }
    h_out_chk("transpose_matches_host", ok);
    clReleaseMemObject(mi);
    clReleaseMemObject(ma);
    clReleaseMemObject(mb);
    clReleaseKernel(kt);
    clReleaseKernel(kn);
    clReleaseProgram(p);
    h_done(&h);
    return 0;
}
