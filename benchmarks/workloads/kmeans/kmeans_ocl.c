/* WORKLOAD-OCL: kmeans_ocl | irregular | k-means assignment on point-major features in global memory: each work-item re-reads its point's row once per centroid (uncoalesced, intra-thread reuse that thrashes a small L1); host centroid update */
/*
 * The OpenCL variant of kmeans.cu: the same points (same generator and seed), the same kernel and
 * the same checks (the chosen centroid's distance within 1e-5 relative of the nearest one, in
 * double; centroids recomputed on the host from the device's assignment).
 */
#define WL_NAME "kmeans_ocl"
#include "wl_ocl.h"

static const char *src =
    "__kernel void kmeans_assign(__global const float *feat, __global const float *cent,\n"
    "                            __global int *member, int n, int nf, int k)\n"
    "{\n"
    "    int p = get_global_id(0);\n"
    "    if (p >= n)\n"
    "        return;\n"
    "    float best = 3.4e38f;\n"
    "    int bi = 0;\n"
    "    for (int c = 0; c < k; c++) {\n"
    "        float d = 0.0f;\n"
    "        for (int f = 0; f < nf; f++) {\n"
    "            float t = feat[p * nf + f] - cent[c * nf + f];\n"
    "            d += t * t;\n"
    "        }\n"
    "        if (d < best) {\n"
    "            best = d;\n"
    "            bi = c;\n"
    "        }\n"
    "    }\n"
    "    member[p] = bi;\n"
    "}\n";

static float rnd_range(wl_rand *r, float lo, float hi)
{
    return lo + (hi - lo) * wl_rand_unit(r);
}

static double dist2(const float *a, const float *b, int nf)
{
    double d = 0;
    for (int f = 0; f < nf; f++) {
        double t = (double)a[f] - (double)b[f];
        d += t * t;
    }
    return d;
}

int main(int argc, char **argv)
{
    enum wl_size sz = wl_parse_size(argc, argv);
    const int n = WL_PICK(sz, 1024, 6144, 494080);
    const int nf = 34;
    const int k = WL_PICK(sz, 5, 5, 5);
    const int iters = WL_PICK(sz, 2, 3, 5);
    wl_rand r;
    struct wl_cl c;
    cl_int e;

    wl_rand_init(&r, 0x4B4D);
    float *feat = malloc((size_t)n * nf * sizeof(float));
    float *hidden = malloc((size_t)k * nf * sizeof(float));
    for (int i = 0; i < k * nf; i++)
        hidden[i] = rnd_range(&r, 0.2f, 0.8f);
    for (int p = 0; p < n; p++) {
        int h = (int)wl_rand_below(&r, k);
        for (int f = 0; f < nf; f++)
            feat[(size_t)p * nf + f] = hidden[h * nf + f] + rnd_range(&r, -0.2f, 0.2f);
    }
    float *cent = malloc((size_t)k * nf * sizeof(float));
    memcpy(cent, feat, (size_t)k * nf * sizeof(float));
    int *member = malloc(n * sizeof(int));
    double *sum = malloc((size_t)k * nf * sizeof(double));
    int *cnt = malloc(k * sizeof(int));

    wl_cl_init(&c, src);
    cl_kernel kern = wl_cl_kernel(&c, "kmeans_assign");
    cl_mem d_feat = clCreateBuffer(c.ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                   (size_t)n * nf * sizeof(float), feat, &e);
    WL_CL(e);
    cl_mem d_cent = clCreateBuffer(c.ctx, CL_MEM_READ_ONLY, (size_t)k * nf * sizeof(float), NULL, &e);
    WL_CL(e);
    cl_mem d_member = clCreateBuffer(c.ctx, CL_MEM_WRITE_ONLY, n * sizeof(int), NULL, &e);
    WL_CL(e);
    WL_CL(clSetKernelArg(kern, 0, sizeof(cl_mem), &d_feat));
    WL_CL(clSetKernelArg(kern, 1, sizeof(cl_mem), &d_cent));
    WL_CL(clSetKernelArg(kern, 2, sizeof(cl_mem), &d_member));
    WL_CL(clSetKernelArg(kern, 3, sizeof(int), &n));
    WL_CL(clSetKernelArg(kern, 4, sizeof(int), &nf));
    WL_CL(clSetKernelArg(kern, 5, sizeof(int), &k));

    const size_t bs = 256, global = (n + bs - 1) / bs * bs;
    int changed = 0;
    for (int it = 0; it < iters; it++) {
        WL_CL(clEnqueueWriteBuffer(c.q, d_cent, CL_TRUE, 0, (size_t)k * nf * sizeof(float), cent, 0,
                                   NULL, NULL));
        WL_CL(clEnqueueNDRangeKernel(c.q, kern, 1, NULL, &global, &bs, 0, NULL, NULL));
        WL_CL(clEnqueueReadBuffer(c.q, d_member, CL_TRUE, 0, n * sizeof(int), member, 0, NULL,
                                  NULL));

        changed = 0;
        for (int p = 0; p < n; p++) {
            const float *x = feat + (size_t)p * nf;
            int b = 0;
            double bd = dist2(x, cent, nf);
            for (int cc = 1; cc < k; cc++) {
                double d = dist2(x, cent + cc * nf, nf);
                if (d < bd) {
                    bd = d;
                    b = cc;
                }
            }
            if (member[p] < 0 || member[p] >= k)
                wl_fail("iteration %d: member[%d] = %d", it, p, member[p]);
            double got = dist2(x, cent + member[p] * nf, nf);
            if (!wl_close(got, bd, 1e-5, 1e-6))
                wl_fail("iteration %d: point %d assigned to %d (d %.7g), nearest %d (d %.7g)", it, p,
                        member[p], got, b, bd);
            changed += member[p] != b;
        }
        memset(sum, 0, (size_t)k * nf * sizeof(double));
        memset(cnt, 0, k * sizeof(int));
        for (int p = 0; p < n; p++) {
            cnt[member[p]]++;
            for (int f = 0; f < nf; f++)
                sum[member[p] * nf + f] += feat[(size_t)p * nf + f];
        }
        for (int cc = 0; cc < k; cc++)
            if (cnt[cc])
                for (int f = 0; f < nf; f++)
                    cent[cc * nf + f] = (float)(sum[cc * nf + f] / cnt[cc]);
    }
    fprintf(stderr, "kmeans_ocl: %d points, %d features, %d clusters, %d iterations, %d ties/near-ties\n",
            n, nf, k, iters, changed);
    clReleaseMemObject(d_feat);
    clReleaseMemObject(d_cent);
    clReleaseMemObject(d_member);
    clReleaseKernel(kern);
    wl_cl_fini(&c);
    free(feat);
    free(hidden);
    free(cent);
    free(member);
    free(sum);
    free(cnt);
    return wl_pass();
}
