/* Vector add: COPY/USE_HOST_PTR buffers, fill, copy, map/unmap, no local size. */
#include <stdio.h>
#include <string.h>

#include "harness.h"

static const char *src =
    "__kernel void vadd(__global const float *a, __global const float *b,\n"
    "                   __global float *c, int n) {\n"
    "  int i = get_global_id(0);\n"
    "  if (i < n) c[i] = a[i] + b[i];\n"
    "}\n";

#define N 1000

int main(void)
{
    struct h_env h;
    static float a[N], b[N], c[N], use[N];
    float pat = 0.5f, *map;
    int n = N;
    size_t global = N;
    char tag[32];

    for (int i = 0; i < N; i++) {
        a[i] = (float)i * 0.25f;
        b[i] = 1000.0f - (float)i;
        use[i] = 7.0f;
    }
    h_init(&h);
    cl_program p = h_build(&h, src, "-cl-std=CL1.2");
    cl_kernel k = h_kernel(p, "vadd");
    cl_mem ma = h_buffer(&h, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(a), a);
    cl_mem mb = h_buffer(&h, CL_MEM_READ_WRITE, sizeof(b), NULL);
    cl_mem mc = h_buffer(&h, CL_MEM_WRITE_ONLY | CL_MEM_USE_HOST_PTR, sizeof(use), use);
    cl_mem md = h_buffer(&h, CL_MEM_READ_WRITE, sizeof(b), NULL);
    cl_event ev;

    h_check(clEnqueueWriteBuffer(h.q, md, CL_TRUE, 0, sizeof(b), b, 0, NULL, NULL), "write");
    h_check(clEnqueueCopyBuffer(h.q, md, mb, 0, 0, sizeof(b), 0, NULL, NULL), "copy");
    h_check(clEnqueueFillBuffer(h.q, mb, &pat, sizeof(pat), 0, 16 * sizeof(float), 0, NULL, NULL),
            "fill");
    h_check(clSetKernelArg(k, 0, sizeof(cl_mem), &ma), "arg0");
    h_check(clSetKernelArg(k, 1, sizeof(cl_mem), &mb), "arg1");
    h_check(clSetKernelArg(k, 2, sizeof(cl_mem), &mc), "arg2");
    h_check(clSetKernelArg(k, 3, sizeof(int), &n), "arg3");
    h_check(clEnqueueNDRangeKernel(h.q, k, 1, NULL, &global, NULL, 0, NULL, &ev), "launch");
    h_check(clWaitForEvents(1, &ev), "wait");
    h_read(&h, mc, sizeof(c), c);
    for (int i = 0; i < N; i += 37) {
        snprintf(tag, sizeof(tag), "c%d", i);
        h_out_f(tag, c[i], 0);
    }
    map = clEnqueueMapBuffer(h.q, mc, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, sizeof(c), 0, NULL,
                             NULL, NULL);
    if (!map)
        return 2;
    h_out_chk("map_is_host_ptr", map == use);
    h_out_f("map5", map[5], 0);
    map[5] = 42.0f;
    h_check(clEnqueueUnmapMemObject(h.q, mc, map, 0, NULL, NULL), "unmap");
    h_read(&h, mc, sizeof(c), c);
    h_out_f("after_unmap5", c[5], 0);
    h_check(clReleaseEvent(ev), "release event");
    clReleaseMemObject(ma);
    clReleaseMemObject(mb);
    clReleaseMemObject(mc);
    clReleaseMemObject(md);
    clReleaseKernel(k);
    clReleaseProgram(p);
    h_done(&h);
    return 0;
}
