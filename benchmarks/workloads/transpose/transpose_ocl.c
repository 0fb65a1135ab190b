/* WORKLOAD-OCL: transpose_ocl | regular-memory | matrix transpose, naive (coalesced reads, 32-way scattered writes) and local-memory tiled with padding (coalesced both ways, conflict-free banks) */
/*
 * OpenCL variant of transpose.cu: the same two kernels (naive: one work-item per
 * element in 32x8 work-groups each covering a 32x32 tile; tiled: the tile staged through
 * __local float[32][33]), the same sizes and input (wl_rand seed 0x5eed0005), and both
 * results compared exactly with the host transpose.
 */
#define WL_NAME "transpose_ocl"
#include "wl_ocl.h"

static const char *src =
    "#define TDIM 32\n"
    "#define BROWS 8\n"
    "__kernel void k_naive(__global const float *restrict in, __global float *restrict out,\n"
    "                      int rows, int cols)\n"
    "{\n"
    "    int c = get_group_id(0) * TDIM + get_local_id(0);\n"
    "    int r0 = get_group_id(1) * TDIM + get_local_id(1);\n"
    "\n"
    "    if (c >= cols)\n"
    "        return;\n"
    "#pragma unroll\n"
    "    for (int k = 0; k < TDIM / BROWS; k++) {\n"
    "        int r = r0 + k * BROWS;\n"
    "        if (r < rows)\n"
    "            out[c * rows + r] = in[r * cols + c];\n"
    "    }\n"
    "}\n"
    "__kernel void k_tiled(__global const float *restrict in, __global float *restrict out,\n"
    "                      int rows, int cols)\n"
    "{\n"
    "    __local float tile[TDIM][TDIM + 1];\n"
    "    int tx = get_local_id(0), ty = get_local_id(1);\n"
    "    int c = get_group_id(0) * TDIM + tx;\n"
    "    int r0 = get_group_id(1) * TDIM;\n"
    "\n"
    "#pragma unroll\n"
    "    for (int k = 0; k < TDIM / BROWS; k++) {\n"
    "        int j = ty + k * BROWS;\n"
    "        if (c < cols && r0 + j < rows)\n"
    "            tile[j][tx] = in[(r0 + j) * cols + c];\n"
    "    }\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    int oc = r0 + tx;\n"
    "#pragma unroll\n"
    "    for (int k = 0; k < TDIM / BROWS; k++) {\n"
    "        int j = ty + k * BROWS;\n"
    "        int orow = get_group_id(0) * TDIM + j;\n"
    "        if (orow < cols && oc < rows)\n"
    "            out[orow * rows + oc] = tile[tx][j];\n"
    "    }\n"
    "}\n";

int main(int argc, char **argv)
{
    enum wl_size sz = wl_parse_size(argc, argv);
    const int rows = WL_PICK(sz, 160, 720, 4096);
    const int cols = WL_PICK(sz, 296, 1200, 4096);
    const size_t n = (size_t)rows * cols, bytes = n * sizeof(float);
    float *in = malloc(bytes), *g1 = malloc(bytes), *g2 = malloc(bytes);
    const size_t local[2] = {32, 8};
    const size_t global[2] = {(size_t)(cols + 31) / 32 * 32, (size_t)(rows + 31) / 32 * 8};
    wl_rand r;
    struct wl_cl cl;
    cl_int e;

    if (!in || !g1 || !g2)
        wl_fail("out of host memory");
    wl_rand_init(&r, 0x5eed0005);
    for (size_t i = 0; i < n; i++)
        in[i] = -1000.0f + 2000.0f * wl_rand_unit(&r);

    wl_cl_init(&cl, src);
    cl_kernel kn = wl_cl_kernel(&cl, "k_naive"), kt = wl_cl_kernel(&cl, "k_tiled");
    cl_mem din = clCreateBuffer(cl.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, in, &e);
    WL_CL(e);
    cl_mem d1 = clCreateBuffer(cl.ctx, CL_MEM_READ_WRITE, bytes, NULL, &e);
    WL_CL(e);
    cl_mem d2 = clCreateBuffer(cl.ctx, CL_MEM_READ_WRITE, bytes, NULL, &e);
    WL_CL(e);
    float zero = 0.0f;
    WL_CL(clEnqueueFillBuffer(cl.q, d1, &zero, sizeof(zero), 0, bytes, 0, NULL, NULL));
    WL_CL(clEnqueueFillBuffer(cl.q, d2, &zero, sizeof(zero), 0, bytes, 0, NULL, NULL));
    WL_CL(clSetKernelArg(kn, 0, sizeof(cl_mem), &din));
    WL_CL(clSetKernelArg(kn, 1, sizeof(cl_mem), &d1));
    WL_CL(clSetKernelArg(kn, 2, sizeof(int), &rows));
    WL_CL(clSetKernelArg(kn, 3, sizeof(int), &cols));
    WL_CL(clSetKernelArg(kt, 0, sizeof(cl_mem), &din));
    WL_CL(clSetKernelArg(kt, 1, sizeof(cl_mem), &d2));
    WL_CL(clSetKernelArg(kt, 2, sizeof(int), &rows));
    WL_CL(clSetKernelArg(kt, 3, sizeof(int), &cols));
    WL_CL(clEnqueueNDRangeKernel(cl.q, kn, 2, NULL, global, local, 0, NULL, NULL));
    WL_CL(clEnqueueNDRangeKernel(cl.q, kt, 2, NULL, global, local, 0, NULL, NULL));
    WL_CL(clEnqueueReadBuffer(cl.q, d1, CL_TRUE, 0, bytes, g1, 0, NULL, NULL));
    WL_CL(clEnqueueReadBuffer(cl.q, d2, CL_TRUE, 0, bytes, g2, 0, NULL, NULL));

    for (int rr = 0; rr < rows; rr++)
        for (int c = 0; c < cols; c++) {
            float want = in[(size_t)rr * cols + c];
            size_t o = (size_t)c * rows + rr;
            if (g1[o] != want)
                wl_fail("naive: out[%d][%d] = %.9g, want %.9g", c, rr, g1[o], want);
            if (g2[o] != want)
                wl_fail("tiled: out[%d][%d] = %.9g, want %.9g", c, rr, g2[o], want);
        }
    clReleaseMemObject(din);
    clReleaseMemObject(d1);
    clReleaseMemObject(d2);
    clReleaseKernel(kn);
    clReleaseKernel(kt);
    wl_cl_fini(&cl);
    free(in), free(g1), free(g2);
    return wl_pass();
}
