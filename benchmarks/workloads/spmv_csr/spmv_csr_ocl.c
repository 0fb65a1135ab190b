/* WORKLOAD-OCL: spmv_csr_ocl | irregular | scalar CSR SpMV, one work-item per row: power-law-ish row lengths (divergence, imbalance), uncoalesced per-thread row streams, gathers from x with a diagonal band plus hot columns */
/*
 * The OpenCL variant of spmv_csr.cu: the same matrix and vector (same generator and seed), the
 * same kernel and the same check (|got - want| <= 1e-5 * sum |A[i][j] x[j]| + 1e-6 against a
 * double-precision host product).
 */
#define WL_NAME "spmv_csr_ocl"
#include "wl_ocl.h"

static const char *src =
    "__kernel void spmv_csr_scalar(__global const int *rowp, __global const int *col,\n"
    "                              __global const float *val, __global const float *x,\n"
    "                              __global float *y, int nrows)\n"
    "{\n"
    "    int i = get_global_id(0);\n"
    "    if (i >= nrows)\n"
    "        return;\n"
    "    float s = 0.0f;\n"
    "    int end = rowp[i + 1];\n"
    "    for (int j = rowp[i]; j < end; j++)\n"
    "        s += val[j] * x[col[j]];\n"
    "    y[i] = s;\n"
    "}\n";

static float rnd_range(wl_rand *r, float lo, float hi)
{
    return lo + (hi - lo) * wl_rand_unit(r);
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    enum wl_size sz = wl_parse_size(argc, argv);
    const int n = WL_PICK(sz, 6144, 36864, 1048576);
    const int band = WL_PICK(sz, 256, 1024, 4096);
    const int hot = WL_PICK(sz, 512, 2048, 8192);
    wl_rand r;
    struct wl_cl c;
    cl_int e;

    wl_rand_init(&r, 0x5B3);
    int *rowp = malloc((n + 1) * sizeof(int));
    rowp[0] = 0;
    for (int i = 0; i < n; i++) {
        uint32_t b = wl_rand_below(&r, 100);
        int len = b < 70   ? 2 + (int)wl_rand_below(&r, 7)
                  : b < 95 ? 9 + (int)wl_rand_below(&r, 24)
                           : 33 + (int)wl_rand_below(&r, 128);
        rowp[i + 1] = rowp[i] + len;
    }
    int nnz = rowp[n];
    int *col = malloc(nnz * sizeof(int));
    float *val = malloc(nnz * sizeof(float));
    for (int i = 0; i < n; i++) {
        for (int j = rowp[i]; j < rowp[i + 1]; j++) {
            uint32_t b = wl_rand_below(&r, 100);
            int cc;
            if (b < 60) {
                cc = i + (int)wl_rand_below(&r, 2 * band + 1) - band;
                cc = cc < 0 ? cc + n : cc >= n ? cc - n : cc;
            } else if (b < 85) {
                float u = wl_rand_unit(&r);
                cc = (int)((float)hot * u * u * u) * 37 % n;
            } else {
                cc = (int)wl_rand_below(&r, n);
            }
            col[j] = cc;
            val[j] = rnd_range(&r, -1.0f, 1.0f);
        }
        qsort(col + rowp[i], rowp[i + 1] - rowp[i], sizeof(int), cmp_int);
    }
    float *x = malloc(n * sizeof(float));
    for (int i = 0; i < n; i++)
        x[i] = rnd_range(&r, -1.0f, 1.0f);

    wl_cl_init(&c, src);
    cl_kernel k = wl_cl_kernel(&c, "spmv_csr_scalar");
    cl_mem d_rowp = clCreateBuffer(c.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                   (n + 1) * sizeof(int), rowp, &e);
    WL_CL(e);
    cl_mem d_col = clCreateBuffer(c.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, nnz * sizeof(int),
                                  col, &e);
    WL_CL(e);
    cl_mem d_val = clCreateBuffer(c.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                  nnz * sizeof(float), val, &e);
    WL_CL(e);
    cl_mem d_x = clCreateBuffer(c.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(float),
                                x, &e);
    WL_CL(e);
    cl_mem d_y = clCreateBuffer(c.ctx, CL_MEM_WRITE_ONLY, n * sizeof(float), NULL, &e);
    WL_CL(e);
    WL_CL(clSetKernelArg(k, 0, sizeof(cl_mem), &d_rowp));
    WL_CL(clSetKernelArg(k, 1, sizeof(cl_mem), &d_col));
    WL_CL(clSetKernelArg(k, 2, sizeof(cl_mem), &d_val));
    WL_CL(clSetKernelArg(k, 3, sizeof(cl_mem), &d_x));
    WL_CL(clSetKernelArg(k, 4, sizeof(cl_mem), &d_y));
    WL_CL(clSetKernelArg(k, 5, sizeof(int), &n));
    const size_t bs = 192, global = (n + bs - 1) / bs * bs;
    WL_CL(clEnqueueNDRangeKernel(c.q, k, 1, NULL, &global, &bs, 0, NULL, NULL));
    float *y = malloc(n * sizeof(float));
    WL_CL(clEnqueueReadBuffer(c.q, d_y, CL_TRUE, 0, n * sizeof(float), y, 0, NULL, NULL));

    for (int i = 0; i < n; i++) {
        double s = 0, a = 0;
        for (int j = rowp[i]; j < rowp[i + 1]; j++) {
            s += (double)val[j] * (double)x[col[j]];
            a += fabs((double)val[j] * (double)x[col[j]]);
        }
        if (!wl_close(y[i], s, 0.0, 1e-5 * a + 1e-6))
            wl_fail("y[%d] = %.9g, want %.9g", i, y[i], s);
    }
    fprintf(stderr, "spmv_csr_ocl: %d rows, %d nonzeros\n", n, nnz);
    clReleaseMemObject(d_rowp);
    clReleaseMemObject(d_col);
    clReleaseMemObject(d_val);
    clReleaseMemObject(d_x);
    clReleaseMemObject(d_y);
    clReleaseKernel(k);
    wl_cl_fini(&c);
    free(rowp);
    free(col);
    free(val);
    free(x);
    free(y);
    return wl_pass();
}
