/* WORKLOAD-OCL: bfs_ocl | irregular | level-synchronous BFS over a random CSR graph, one launch per level: each work-item walks its frontier node's edge list (uncoalesced, intra-thread spatial reuse), atomics on visited levels */
/*
 * The OpenCL variant of bfs.cu: the same graph (same generator and seed), the same kernel
 * (atomic_cmpxchg on level[], atomic_inc on the next frontier's counter) and the same exact check
 * of every node's level against a host BFS.
 */
#define WL_NAME "bfs_ocl"
#include "wl_ocl.h"

static const char *src =
    "__kernel void bfs_level(__global const int *row, __global const int *col,\n"
    "                        __global int *level, __global const int *frontier, int nfront,\n"
    "                        __global int *next, __global int *nnext, int depth)\n"
    "{\n"
    "    int i = get_global_id(0);\n"
    "    if (i >= nfront)\n"
    "        return;\n"
    "    int u = frontier[i];\n"
    "    int end = row[u + 1];\n"
    "    for (int e = row[u]; e < end; e++) {\n"
    "        int v = col[e];\n"
    "        if (level[v] == -1 && atomic_cmpxchg(&level[v], -1, depth + 1) == -1)\n"
    "            next[atomic_inc(nnext)] = v;\n"
    "    }\n"
    "}\n";

int main(int argc, char **argv)
{
    enum wl_size sz = wl_parse_size(argc, argv);
    const int n = WL_PICK(sz, 12288, 98304, 1048576);
    const int deg = WL_PICK(sz, 6, 6, 6);
    const int src_node = 0;
    wl_rand r;
    struct wl_cl c;
    cl_int e;

    wl_rand_init(&r, 0xBF5);
    int *row = malloc((n + 1) * sizeof(int));
    row[0] = 0;
    for (int u = 0; u < n; u++)
        row[u + 1] = row[u] + 1 + (int)wl_rand_below(&r, 2 * deg - 1);
    int m = row[n];
    int *col = malloc(m * sizeof(int));
    for (int u = 0; u < n; u++)
        for (int k = row[u]; k < row[u + 1]; k++) {
            if (wl_rand_below(&r, 4) == 0) {
                int v = u + (int)wl_rand_below(&r, 257) - 128;
                col[k] = v < 0 ? v + n : v >= n ? v - n : v;
            } else {
                col[k] = (int)wl_rand_below(&r, n);
            }
        }

    int *want = malloc(n * sizeof(int));
    int *q = malloc(n * sizeof(int));
    for (int u = 0; u < n; u++)
        want[u] = -1;
    int qh = 0, qt = 0;
    want[src_node] = 0;
    q[qt++] = src_node;
    while (qh < qt) {
        int u = q[qh++];
        for (int k = row[u]; k < row[u + 1]; k++)
            if (want[col[k]] == -1) {
                want[col[k]] = want[u] + 1;
                q[qt++] = col[k];
            }
    }

    int *level = malloc(n * sizeof(int));
    for (int u = 0; u < n; u++)
        level[u] = u == src_node ? 0 : -1;
    wl_cl_init(&c, src);
    cl_kernel k = wl_cl_kernel(&c, "bfs_level");
    cl_mem d_row = clCreateBuffer(c.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                  (n + 1) * sizeof(int), row, &e);
    WL_CL(e);
    cl_mem d_col = clCreateBuffer(c.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, m * sizeof(int),
                                  col, &e);
    WL_CL(e);
    cl_mem d_level = clCreateBuffer(c.ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                    n * sizeof(int), level, &e);
    WL_CL(e);
    cl_mem d_fa = clCreateBuffer(c.ctx, CL_MEM_READ_WRITE, n * sizeof(int), NULL, &e);
    WL_CL(e);
    cl_mem d_fb = clCreateBuffer(c.ctx, CL_MEM_READ_WRITE, n * sizeof(int), NULL, &e);
    WL_CL(e);
    cl_mem d_cnt = clCreateBuffer(c.ctx, CL_MEM_READ_WRITE, sizeof(int), NULL, &e);
    WL_CL(e);
    WL_CL(clEnqueueWriteBuffer(c.q, d_fa, CL_TRUE, 0, sizeof(int), &src_node, 0, NULL, NULL));

    int nfront = 1, depth = 0, zero = 0;
    const size_t bs = 256;
    while (nfront > 0) {
        if (depth > n)
            wl_fail("no convergence after %d levels", depth);
        size_t global = (nfront + bs - 1) / bs * bs;
        WL_CL(clEnqueueWriteBuffer(c.q, d_cnt, CL_TRUE, 0, sizeof(int), &zero, 0, NULL, NULL));
        WL_CL(clSetKernelArg(k, 0, sizeof(cl_mem), &d_row));
        WL_CL(clSetKernelArg(k, 1, sizeof(cl_mem), &d_col));
        WL_CL(clSetKernelArg(k, 2, sizeof(cl_mem), &d_level));
        WL_CL(clSetKernelArg(k, 3, sizeof(cl_mem), &d_fa));
        WL_CL(clSetKernelArg(k, 4, sizeof(int), &nfront));
        WL_CL(clSetKernelArg(k, 5, sizeof(cl_mem), &d_fb));
        WL_CL(clSetKernelArg(k, 6, sizeof(cl_mem), &d_cnt));
        WL_CL(clSetKernelArg(k, 7, sizeof(int), &depth));
        WL_CL(clEnqueueNDRangeKernel(c.q, k, 1, NULL, &global, &bs, 0, NULL, NULL));
        WL_CL(clEnqueueReadBuffer(c.q, d_cnt, CL_TRUE, 0, sizeof(int), &nfront, 0, NULL, NULL));
        cl_mem t = d_fa;
        d_fa = d_fb;
        d_fb = t;
        depth++;
    }

    WL_CL(clEnqueueReadBuffer(c.q, d_level, CL_TRUE, 0, n * sizeof(int), level, 0, NULL, NULL));
    int reached = 0;
    for (int u = 0; u < n; u++) {
        if (level[u] != want[u])
            wl_fail("level[%d] = %d, want %d", u, level[u], want[u]);
        reached += want[u] >= 0;
    }
    fprintf(stderr, "bfs_ocl: %d nodes, %d edges, %d levels, %d reached\n", n, m, depth, reached);
    clReleaseMemObject(d_row);
    clReleaseMemObject(d_col);
    clReleaseMemObject(d_level);
    clReleaseMemObject(d_fa);
    clReleaseMemObject(d_fb);
    clReleaseMemObject(d_cnt);
    clReleaseKernel(k);
    wl_cl_fini(&c);
    free(row);
    free(col);
    free(want);
    free(q);
    free(level);
    return wl_pass();
}
