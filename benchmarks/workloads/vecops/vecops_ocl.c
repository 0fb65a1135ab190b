/* WORKLOAD-OCL: vecops_ocl | regular-memory | STREAM-like bandwidth-bound streaming (copy, scale, add, triad) over large arrays: coalesced, no reuse, DRAM-bound */
/*
 * OpenCL variant of vecops.cu: the same four grid-stride STREAM kernels (copy c = a,
 * scale b = s*c, add c = a + b, triad a = fma(s, c, b)) over n floats, the same sizes,
 * input (wl_rand seed 0x5eed0001) and exact check against a host replay (every
 * operation is a single correctly rounded IEEE operation; triad uses fma on both sides).
 * The index is formed from the group and local ids as in CUDA (blockIdx * blockDim +
 * threadIdx): under ptxsim, get_global_id also loads the global offset from memory.
 */
#define WL_NAME "vecops_ocl"
#include "wl_ocl.h"

static const char *src =
    "__kernel void k_copy(__global const float *restrict a, __global float *restrict c, int n)\n"
    "{\n"
    "    for (int i = get_group_id(0) * get_local_size(0) + get_local_id(0); i < n;\n"
    "         i += get_global_size(0))\n"
    "        c[i] = a[i];\n"
    "}\n"
    "__kernel void k_scale(__global float *restrict b, __global const float *restrict c,\n"
    "                      float s, int n)\n"
    "{\n"
    "    for (int i = get_group_id(0) * get_local_size(0) + get_local_id(0); i < n;\n"
    "         i += get_global_size(0))\n"
    "        b[i] = s * c[i];\n"
    "}\n"
    "__kernel void k_add(__global const float *restrict a, __global const float *restrict b,\n"
    "                    __global float *restrict c, int n)\n"
    "{\n"
    "    for (int i = get_group_id(0) * get_local_size(0) + get_local_id(0); i < n;\n"
    "         i += get_global_size(0))\n"
    "        c[i] = a[i] + b[i];\n"
    "}\n"
    "__kernel void k_triad(__global float *restrict a, __global const float *restrict b,\n"
    "                      __global const float *restrict c, float s, int n)\n"
    "{\n"
    "    for (int i = get_group_id(0) * get_local_size(0) + get_local_id(0); i < n;\n"
    "         i += get_global_size(0))\n"
    "        a[i] = fma(s, c[i], b[i]);\n"
    "}\n";

int main(int argc, char **argv)
{
    enum wl_size sz = wl_parse_size(argc, argv);
    const int n = WL_PICK(sz, 1 << 16, 1 << 20, 1 << 24);
    const int passes = WL_PICK(sz, 1, 1, 4);
    const size_t local = 256;
    const size_t global = local * WL_PICK(sz, 128, 480, 960);
    const float s = 3.0f;
    const size_t bytes = (size_t)n * sizeof(float);
    float *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes);
    float *ga = malloc(bytes), *gb = malloc(bytes), *gc = malloc(bytes);
    wl_rand r;
    struct wl_cl cl;
    cl_int e;

    if (!a || !b || !c || !ga || !gb || !gc)
        wl_fail("out of host memory");
    wl_rand_init(&r, 0x5eed0001);
    for (int i = 0; i < n; i++) {
        a[i] = -1.0f + 2.0f * wl_rand_unit(&r);
        b[i] = -1.0f + 2.0f * wl_rand_unit(&r);
        c[i] = 0.0f;
    }
    wl_cl_init(&cl, src);
    cl_kernel kc = wl_cl_kernel(&cl, "k_copy"), ks = wl_cl_kernel(&cl, "k_scale");
    cl_kernel ka = wl_cl_kernel(&cl, "k_add"), kt = wl_cl_kernel(&cl, "k_triad");
    cl_mem da = clCreateBuffer(cl.ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, a, &e);
    WL_CL(e);
    cl_mem db = clCreateBuffer(cl.ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, b, &e);
    WL_CL(e);
    cl_mem dc = clCreateBuffer(cl.ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, c, &e);
    WL_CL(e);

    WL_CL(clSetKernelArg(kc, 0, sizeof(cl_mem), &da));
    WL_CL(clSetKernelArg(kc, 1, sizeof(cl_mem), &dc));
    WL_CL(clSetKernelArg(kc, 2, sizeof(int), &n));
    WL_CL(clSetKernelArg(ks, 0, sizeof(cl_mem), &db));
    WL_CL(clSetKernelArg(ks, 1, sizeof(cl_mem), &dc));
    WL_CL(clSetKernelArg(ks, 2, sizeof(float), &s));
    WL_CL(clSetKernelArg(ks, 3, sizeof(int), &n));
    WL_CL(clSetKernelArg(ka, 0, sizeof(cl_mem), &da));
    WL_CL(clSetKernelArg(ka, 1, sizeof(cl_mem), &db));
    WL_CL(clSetKernelArg(ka, 2, sizeof(cl_mem), &dc));
    WL_CL(clSetKernelArg(ka, 3, sizeof(int), &n));
    WL_CL(clSetKernelArg(kt, 0, sizeof(cl_mem), &da));
    WL_CL(clSetKernelArg(kt, 1, sizeof(cl_mem), &db));
    WL_CL(clSetKernelArg(kt, 2, sizeof(cl_mem), &dc));
    WL_CL(clSetKernelArg(kt, 3, sizeof(float), &s));
    WL_CL(clSetKernelArg(kt, 4, sizeof(int), &n));
    for (int p = 0; p < passes; p++) {
        WL_CL(clEnqueueNDRangeKernel(cl.q, kc, 1, NULL, &global, &local, 0, NULL, NULL));
        WL_CL(clEnqueueNDRangeKernel(cl.q, ks, 1, NULL, &global, &local, 0, NULL, NULL));
        WL_CL(clEnqueueNDRangeKernel(cl.q, ka, 1, NULL, &global, &local, 0, NULL, NULL));
        WL_CL(clEnqueueNDRangeKernel(cl.q, kt, 1, NULL, &global, &local, 0, NULL, NULL));
    }
    WL_CL(clEnqueueReadBuffer(cl.q, da, CL_TRUE, 0, bytes, ga, 0, NULL, NULL));
    WL_CL(clEnqueueReadBuffer(cl.q, db, CL_TRUE, 0, bytes, gb, 0, NULL, NULL));
    WL_CL(clEnqueueReadBuffer(cl.q, dc, CL_TRUE, 0, bytes, gc, 0, NULL, NULL));

    for (int p = 0; p < passes; p++) {
        for (int i = 0; i < n; i++)
            c[i] = a[i];
        for (int i = 0; i < n; i++)
            b[i] = s * c[i];
        for (int i = 0; i < n; i++)
            c[i] = a[i] + b[i];
        for (int i = 0; i < n; i++)
            a[i] = fmaf(s, c[i], b[i]);
    }
    for (int i = 0; i < n; i++)
        if (ga[i] != a[i] || gb[i] != b[i] || gc[i] != c[i])
            wl_fail("element %d: got a=%.9g b=%.9g c=%.9g, want a=%.9g b=%.9g c=%.9g", i, ga[i],
                    gb[i], gc[i], a[i], b[i], c[i]);
    clReleaseMemObject(da);
    clReleaseMemObject(db);
    clReleaseMemObject(dc);
    clReleaseKernel(kc);
    clReleaseKernel(ks);
    clReleaseKernel(ka);
    clReleaseKernel(kt);
    wl_cl_fini(&cl);
    free(a), free(b), free(c), free(ga), free(gb), free(gc);
    return wl_pass();
}
