// WORKLOAD: gaussian | low-parallelism | Gaussian elimination without pivoting, two small kernels per pivot step (multipliers, then trailing update): 2(N-1) short launches whose grids shrink to a single CTA, launch/tail-dominated
//
// Forward elimination of A x = b (N x N, row-major floats). For pivot t = 0 .. N-2:
//   fan1: m[i] = A[i][t] / A[t][t] for the N-t-1 rows below (one thread per row);
//   fan2: A[i][j] -= m[i] A[t][j] and b[i] -= m[i] b[t] over the trailing
//         (N-t-1) x (N-t) block, 16 x 16 CTAs covering only that block.
// The host back-substitutes the device's upper-triangular system.
// A is diagonally dominant (random off-diagonals in [-1, 1], N on the diagonal) so no
// pivoting is needed and the system is well conditioned; b = A x_true.
// Check: the device's U and b' against a host double elimination with
//   |got - want| <= 1e-4 * (|want| + 1)
// and the back-substituted x against x_true with |x - x_true| <= 1e-4 (float round-off
// over N rank-1 updates of size ~1/N each stays near 1e-6).
#define WL_NAME "gaussian"
#include "wl.h"

#define FAN1_BLOCK 128
#define FAN2_BLOCK 16

__global__ void fan1(const float *__restrict__ a, float *m, int n, int t)
{
    int i = t + 1 + blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        m[i] = a[(size_t)i * n + t] / a[(size_t)t * n + t];
}

__global__ void fan2(float *a, float *b, const float *__restrict__ m, int n, int t)
{
    int j = t + blockIdx.x * blockDim.x + threadIdx.x;
    int i = t + 1 + blockIdx.y * blockDim.y + threadIdx.y;
    if (i >= n || j >= n)
        return;
    float mi = m[i];
    a[(size_t)i * n + j] -= mi * a[(size_t)t * n + j];
    if (j == t)
        b[i] -= mi * b[t];
}

int main(int argc, char **argv)
{
    wl_size sz = wl_parse_size(argc, argv);
    int n = wl_pick(sz, 48, 128, 1024);
    size_t nn = (size_t)n * n;
    float *ha = (float *)malloc(nn * sizeof(float)), *hb = (float *)malloc(n * sizeof(float));
    double *wa = (double *)malloc(nn * sizeof(double)), *wb = (double *)malloc(n * sizeof(double));
    double *xt = (double *)malloc(n * sizeof(double)), *x = (double *)malloc(n * sizeof(double));
    wl_rand r(0x6A55);

    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            ha[(size_t)i * n + j] = i == j ? (float)n : r.range(-1.0f, 1.0f);
    for (int i = 0; i < n; i++)
        xt[i] = r.range(-1.0f, 1.0f);
    for (int i = 0; i < n; i++) {
        double s = 0.0;
        for (int j = 0; j < n; j++)
            s += (double)ha[(size_t)i * n + j] * xt[j];
        hb[i] = (float)s;
    }
    for (size_t k = 0; k < nn; k++)
        wa[k] = ha[k];
    for (int i = 0; i < n; i++)
        wb[i] = hb[i];

    float *da, *db, *dm;
    WL_CK(cudaMalloc(&da, nn * sizeof(float)));
    WL_CK(cudaMalloc(&db, n * sizeof(float)));
    WL_CK(cudaMalloc(&dm, n * sizeof(float)));
    WL_CK(cudaMemcpy(da, ha, nn * sizeof(float), cudaMemcpyHostToDevice));
    WL_CK(cudaMemcpy(db, hb, n * sizeof(float), cudaMemcpyHostToDevice));
    for (int t = 0; t < n - 1; t++) {
        int rows = n - t - 1, cols = n - t;
        fan1<<<(rows + FAN1_BLOCK - 1) / FAN1_BLOCK, FAN1_BLOCK>>>(da, dm, n, t);
        WL_CK(cudaGetLastError());
        dim3 block(FAN2_BLOCK, FAN2_BLOCK);
        dim3 grid((cols + FAN2_BLOCK - 1) / FAN2_BLOCK, (rows + FAN2_BLOCK - 1) / FAN2_BLOCK);
        fan2<<<grid, block>>>(da, db, dm, n, t);
        WL_CK(cudaGetLastError());
    }
    WL_LAUNCH_CK();
    WL_CK(cudaMemcpy(ha, da, nn * sizeof(float), cudaMemcpyDeviceToHost));
    WL_CK(cudaMemcpy(hb, db, n * sizeof(float), cudaMemcpyDeviceToHost));

    // Host elimination, same order, in double.
    for (int t = 0; t < n - 1; t++)
        for (int i = t + 1; i < n; i++) {
            double mi = wa[(size_t)i * n + t] / wa[(size_t)t * n + t];
            for (int j = t; j < n; j++)
                wa[(size_t)i * n + j] -= mi * wa[(size_t)t * n + j];
            wb[i] -= mi * wb[t];
        }
    for (int i = 0; i < n; i++) {
        for (int j = i; j < n; j++) {
            double g = ha[(size_t)i * n + j], w = wa[(size_t)i * n + j];
            if (!(fabs(g - w) <= 1e-4 * (fabs(w) + 1.0)))
                wl_fail("U[%d][%d] = %.7g, want %.7g", i, j, g, w);
        }
        if (!(fabs(hb[i] - wb[i]) <= 1e-4 * (fabs(wb[i]) + 1.0)))
            wl_fail("b'[%d] = %.7g, want %.7g", i, hb[i], wb[i]);
    }
    double maxerr = 0.0;
    for (int i = n - 1; i >= 0; i--) {
        double s = hb[i];
        for (int j = i + 1; j < n; j++)
            s -= (double)ha[(size_t)i * n + j] * x[j];
        x[i] = s / ha[(size_t)i * n + i];
        if (!(fabs(x[i] - xt[i]) <= 1e-4))
            wl_fail("x[%d] = %.7g, want %.7g", i, x[i], xt[i]);
        maxerr = fmax(maxerr, fabs(x[i] - xt[i]));
    }
    fprintf(stderr, "gaussian: n=%d, max |x - x_true| %.3g\n", n, maxerr);
    cudaFree(da);
    cudaFree(db);
    cudaFree(dm);
    free(ha);
    free(hb);
    free(wa);
    free(wb);
    free(xt);
    free(x);
    return wl_pass();
}
