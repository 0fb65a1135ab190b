/* 2D 5-point stencil over a 2D range, with and without a local size. */
#include <stdio.h>

#include "harness.h"

static const char *src =
    "__kernel void stencil(__global const float *in, __global float *out, int w, int h) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  if (x == 0 || y == 0 || x >= w - 1 || y >= h - 1) { out[y * w + x] = in[y * w + x]; return; }\n"
    "  out[y * w + x] = 0.5f * in[y * w + x] + 0.125f * (in[y * w + x - 1] + in[y * w + x + 1]\n"
    "                 + in[(y - 1) * w + x] + in[(y + 1) * w + x]);\n"
    "}\n";

#define W 64
#define H 48

int main(void)
{
    struct h_env h;
    static float in[W * H], out[W * H], out2[W * H];
    int w = W, hh = H;
    size_t global[2] = {W, H}, local[2] = {16, 8};
    char tag[32];

    for (int i = 0; i < W * H; i++)
        in[i] = (float)((i * 37) % 101) / 7.0f;
    h_init(&h);
    cl_program p = h_build(&h, src, "-cl-mad-enable");
    cl_kernel k = h_kernel(p, "stencil");
    cl_mem mi = h_buffer(&h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(in), in);
    cl_mem mo = h_buffer(&h, CL_MEM_WRITE_ONLY, sizeof(out), NULL);

    h_check(clSetKernelArg(k, 0, sizeof(cl_mem), &mi), "arg0");
    h_check(clSetKernelArg(k, 1, sizeof(cl_mem), &mo), "arg1");
    h_check(clSetKernelArg(k, 2, sizeof(int), &w), "arg2");
    h_check(clSetKernelArg(k, 3, sizeof(int), &hh), "arg3");
    h_check(clEnqueueNDRangeKernel(h.q, k, 2, NULL, global, local, 0, NULL, NULL), "launch");
    h_read(&h, mo, sizeof(out), out);
    h_check(clEnqueueNDRangeKernel(h.q, k, 2, NULL, global, NULL, 0, NULL, NULL), "launch2");
    h_read(&h, mo, sizeof(out2), out2);
    for (int i = 0; i < W * H; i += 53) {
        snprintf(tag, sizeof(tag), "o%d", i);
        h_out_f(tag, out[i], 1);
    }
    int same = 1;
    for (int i = 0; i < W * H; i++)
        same &= out[i] == out2[i];
    h_out_chk("same_without_local_size", same);
    clReleaseMemObject(mi);
    clReleaseMemObject(mo);
    clReleaseKernel(k);
    clReleaseProgram(p);
    h_done(&h);
    return 0;
}
