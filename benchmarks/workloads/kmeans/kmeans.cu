// WORKLOAD: kmeans | irregular | k-means assignment on point-major features in global memory: each thread re-reads its point's row once per centroid (uncoalesced, intra-thread reuse that thrashes a small L1); host centroid update
//
// Stands in for Rodinia Kmeans as modified for CCWS (KMN, highly cache-sensitive: features and
// centroids in global memory, not texture/constant). N points with F features (F = 34, as the
// KDD-cup input) in row-major [N][F] layout, K centroids [K][F]. One launch per iteration: thread p
// computes the squared distance from point p to every centroid, reading feat[p][0..F) again for each
// centroid; the warp touches 32 different lines per load, and the same lines again K times, so the
// hit rate depends on how many warps' rows fit in L1. The host checks each assignment (the chosen
// centroid's distance, in double, must be within 1e-5 relative of the nearest one: the device may
// round differently, e.g. with fused multiply-adds), then recomputes the centroids from the device's
// assignment, so host and device stay in step over the iterations.
#define WL_NAME "kmeans"
#include "wl.h"

__global__ void kmeans_assign(const float *feat, const float *cent, int *member, int n, int nf,
                              int k)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;

    if (p >= n)
        return;
    float best = 3.4e38f;
    int bi = 0;
    for (int c = 0; c < k; c++) {
        float d = 0.0f;
        for (int f = 0; f < nf; f++) {
            float t = feat[p * nf + f] - cent[c * nf + f];
            d += t * t;
        }
        if (d < best) {
            best = d;
            bi = c;
        }
    }
    member[p] = bi;
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
    wl_size sz = wl_parse_size(argc, argv);
    const int n = wl_pick(sz, 1024, 6144, 494080);
    const int nf = 34;
    const int k = wl_pick(sz, 5, 5, 5);
    const int iters = wl_pick(sz, 2, 3, 5);
    wl_rand r(0x4B4D);

    // Points around K hidden centres with uniform noise, in [0, 1).
    float *feat = (float *)malloc((size_t)n * nf * sizeof(float));
    float *hidden = (float *)malloc((size_t)k * nf * sizeof(float));
    for (int i = 0; i < k * nf; i++)
        hidden[i] = r.range(0.2f, 0.8f);
    for (int p = 0; p < n; p++) {
        int c = (int)r.below(k);
        for (int f = 0; f < nf; f++)
            feat[(size_t)p * nf + f] = hidden[c * nf + f] + r.range(-0.2f, 0.2f);
    }
    float *cent = (float *)malloc((size_t)k * nf * sizeof(float));
    memcpy(cent, feat, (size_t)k * nf * sizeof(float)); // first K points, as Rodinia
    int *member = (int *)malloc(n * sizeof(int));
    double *sum = (double *)malloc((size_t)k * nf * sizeof(double));
    int *cnt = (int *)malloc(k * sizeof(int));

    float *d_feat, *d_cent;
    int *d_member;
    WL_CK(cudaMalloc(&d_feat, (size_t)n * nf * sizeof(float)));
    WL_CK(cudaMalloc(&d_cent, (size_t)k * nf * sizeof(float)));
    WL_CK(cudaMalloc(&d_member, n * sizeof(int)));
    WL_CK(cudaMemcpy(d_feat, feat, (size_t)n * nf * sizeof(float), cudaMemcpyHostToDevice));

    const int bs = 256;
    int changed = 0;
    for (int it = 0; it < iters; it++) {
        WL_CK(cudaMemcpy(d_cent, cent, (size_t)k * nf * sizeof(float), cudaMemcpyHostToDevice));
        kmeans_assign<<<(n + bs - 1) / bs, bs>>>(d_feat, d_cent, d_member, n, nf, k);
        WL_LAUNCH_CK();
        WL_CK(cudaMemcpy(member, d_member, n * sizeof(int), cudaMemcpyDeviceToHost));

        changed = 0;
        for (int p = 0; p < n; p++) {
            const float *x = feat + (size_t)p * nf;
            int b = 0;
            double bd = dist2(x, cent, nf);
            for (int c = 1; c < k; c++) {
                double d = dist2(x, cent + c * nf, nf);
                if (d < bd) {
                    bd = d;
                    b = c;
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
        for (int c = 0; c < k; c++)
            if (cnt[c])
                for (int f = 0; f < nf; f++)
                    cent[c * nf + f] = (float)(sum[c * nf + f] / cnt[c]);
    }
    fprintf(stderr, "kmeans: %d points, %d features, %d clusters, %d iterations, %d ties/near-ties\n",
            n, nf, k, iters, changed);
    return wl_pass();
}
