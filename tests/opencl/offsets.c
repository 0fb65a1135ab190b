/* Global work offsets: get_global_id includes them, get_global_offset returns them. */
#include <stdio.h>

#include "harness.h"

static const char *src =
    "__kernel void off(__global int *out, int w) {\n"
    "  int x = get_global_id(0), y = get_global_id(1);\n"
    "  out[y * w + x] = x * 1000 + y * 10 + (int)get_global_offset(0) + (int)get_global_offset(1)\n"
    "                  + 100000 * (int)get_global_size(0) + 7 * (int)get_num_groups(1);\n"
    "}\n";

#define W 32
#define H 24

int main(void)
{
    struct h_env h;
    static int out[W * H];
    int w = W;
    size_t offset[2] = {5, 3}, global[2] = {20, 16}, local[2] = {4, 4};
    char tag[32];

    for (int i = 0; i < W * H; i++)
        out[i] = -1;
    h_init(&h);
    cl_program p = h_build(&h, src, NULL);
    cl_kernel k = h_kernel(p, "off");
    cl_mem mo = h_buffer(&h, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(out), out);

    h_check(clSetKernelArg(k, 0, sizeof(cl_mem), &mo), "arg0");
    h_check(clSetKernelArg(k, 1, sizeof(int), &w), "arg1");
    h_check(clEnqueueNDRangeKernel(h.q, k, 2, offset, global, local, 0, NULL, NULL), "launch");
    h_read(&h, mo, sizeof(out), out);
    for (int i = 0; i < W * H; i += 7) {
        snprintf(tag, sizeof(tag), "o%d", i);
        h_out_i(tag, out[i]);
    }
    clReleaseMemObject(mo);
    clReleaseKernel(k);
    clReleaseProgram(p);
    h_done(&h);
    return 0;
}
