/* WORKLOAD-OCL: sgemm_ocl | compute | dense SGEMM C = A*B with 16x16 local-memory tiles: high arithmetic intensity, regular loads, barriers every tile */
/*
 * OpenCL variant of sgemm.cu: the same kernel (16x16 work-groups, one element of C per
 * work-item, 16x16 tiles of A and B staged in __local memory), the same inputs (wl_rand
 * seed 0x5E3A) and sizes (n = 96, 256, 1024), and the same check: host double product,
 *   |got - want| <= 1e-5 * sum_k |a_ik * b_kj| + 1e-6 for every element.
 */
#define WL_NAME "sgemm_ocl"
#include "wl_ocl.h"

#define TILE 16

static const char *src =
    "#define TILE 16\n"
    "__kernel void sgemm_tiled(__global const float *restrict a, __global const float *restrict b,\n"
    "                          __global float *c, int n)\n"
    "{\n"
    "    __local float as[TILE][TILE];\n"
    "    __local float bs[TILE][TILE];\n"
    "    int tx = get_local_id(0), ty = get_local_id(1);\n"
    "    int row = get_group_id(1) * TILE + ty;\n"
    "    int col = get_group_id(0) * TILE + tx;\n"
    "    float acc = 0.0f;\n"
    "\n"
    "    for (int k0 = 0; k0 < n; k0 += TILE) {\n"
    "        as[ty][tx] = a[row * n + k0 + tx];\n"
    "        bs[ty][tx] = b[(k0 + ty) * n + col];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "#pragma unroll\n"
    "        for (int k = 0; k < TILE; k++)\n"
    "            acc += as[ty][k] * bs[k][tx];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    c[row * n + col] = acc;\n"
    "}\n";

static float rangef(wl_rand *r, float lo, float hi)
{
    return lo + (hi - lo) * wl_rand_unit(r);
}

int main(int argc, char **argv)
{
    enum wl_size sz = wl_parse_size(argc, argv);
    int n = WL_PICK(sz, 96, 256, 1024);
    size_t elems = (size_t)n * n, bytes = elems * sizeof(float);
    float *ha = malloc(bytes), *hb = malloc(bytes), *hc = malloc(bytes);
    double *want = calloc((size_t)n, sizeof(double)), *mag = calloc((size_t)n, sizeof(double));
    struct wl_cl c;
    cl_int e;
    wl_rand r;

    wl_rand_init(&r, 0x5E3A);
    for (size_t i = 0; i < elems; i++)
        ha[i] = rangef(&r, -1.0f, 1.0f);
    for (size_t i = 0; i < elems; i++)
        hb[i] = rangef(&r, -1.0f, 1.0f);

    wl_cl_init(&c, src);
    cl_kernel k = wl_cl_kernel(&c, "sgemm_tiled");
    cl_mem da = clCreateBuffer(c.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, ha, &e);
    WL_CL(e);
    cl_mem db = clCreateBuffer(c.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, hb, &e);
    WL_CL(e);
    cl_mem dc = clCreateBuffer(c.ctx, CL_MEM_WRITE_ONLY, bytes, NULL, &e);
    WL_CL(e);
    WL_CL(clSetKernelArg(k, 0, sizeof(cl_mem), &da));
    WL_CL(clSetKernelArg(k, 1, sizeof(cl_mem), &db));
    WL_CL(clSetKernelArg(k, 2, sizeof(cl_mem), &dc));
    WL_CL(clSetKernelArg(k, 3, sizeof(int), &n));
    size_t global[2] = {(size_t)n, (size_t)n}, local[2] = {TILE, TILE};
    WL_CL(clEnqueueNDRangeKernel(c.q, k, 2, NULL, global, local, 0, NULL, NULL));
    WL_CL(clEnqueueReadBuffer(c.q, dc, CL_TRUE, 0, bytes, hc, 0, NULL, NULL));

    for (int i = 0; i < n; i++) {
        memset(want, 0, n * sizeof(double));
        memset(mag, 0, n * sizeof(double));
        for (int kk = 0; kk < n; kk++) {
            double aik = ha[(size_t)i * n + kk];
            const float *brow = hb + (size_t)kk * n;
            for (int j = 0; j < n; j++) {
                double p = aik * brow[j];
                want[j] += p;
                mag[j] += fabs(p);
            }
        }
        for (int j = 0; j < n; j++) {
            double got = hc[(size_t)i * n + j];
            if (!(fabs(got - want[j]) <= 1e-5 * mag[j] + 1e-6))
                wl_fail("C[%d][%d] = %.7g, want %.7g", i, j, got, want[j]);
        }
    }
    clReleaseMemObject(da);
    clReleaseMemObject(db);
    clReleaseMemObject(dc);
    clReleaseKernel(k);
    wl_cl_fini(&c);
    free(ha);
    free(hb);
    free(hc);
    free(want);
    free(mag);
    return wl_pass();
}
