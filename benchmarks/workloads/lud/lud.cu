// WORKLOAD: lud | low-parallelism | blocked LU decomposition: per step a one-CTA (16-thread) diagonal kernel, a few-CTA perimeter kernel and a shrinking internal update, 3 launches per step with little parallelism at the end
//
// In-place LU factorisation without pivoting (A = L U, L unit lower triangular) of an
// n x n row-major float matrix, in 16 x 16 blocks. For each block step k (nb = n / 16
// steps, offset o = 16 k):
//  1. k_diag, 1 CTA of 16 threads: factors the diagonal block in shared memory.
//  2. k_perim, nb-k-1 CTAs of 32 threads: the first half-warp solves L_kk U = A for a
//     block of the block row (one column per thread), the second half solves
//     L U_kk = A for a block of the block column (one row per thread).
//  3. k_internal, (nb-k-1)^2 CTAs of 16 x 16 threads: A_ij -= L_ik U_kj for the
//     trailing submatrix, the L and U panels staged in shared memory (each panel block
//     is re-read by a whole row or column of CTAs).
// The diagonal and perimeter kernels run one or a few CTAs of half a warp or one warp,
// and the internal kernel's grid shrinks quadratically, so most launches leave the GPU
// nearly empty.
//
// The input is strictly diagonally dominant (no pivoting needed, well conditioned). The
// host factors it in double with the unblocked algorithm; the float result is compared
// element by element with wl_close(got, want, 1e-4, 1e-5 * n) (entries of U are up to
// ~n, of L below 1).
#define WL_NAME "lud"
#include "wl.h"

#include <vector>

#define B 16

__global__ void k_diag(float *a, int n, int o)
{
    __shared__ float s[B][B + 1];
    int t = threadIdx.x;

    for (int i = 0; i < B; i++)
        s[i][t] = a[(o + i) * n + o + t];
    __syncthreads();
    for (int i = 0; i < B - 1; i++) {
        if (t > i)
            s[t][i] /= s[i][i];
        __syncthreads();
        if (t > i)
            for (int m = i + 1; m < B; m++)
                s[t][m] -= s[t][i] * s[i][m];
        __syncthreads();
    }
    for (int i = 0; i < B; i++)
        a[(o + i) * n + o + t] = s[i][t];
}

__global__ void k_perim(float *a, int n, int o)
{
    __shared__ float d[B][B + 1], r[B][B + 1], c[B][B + 1];
    int t = threadIdx.x;
    int blk = o + (blockIdx.x + 1) * B;

    if (t < B) {
        for (int i = 0; i < B; i++) {
            d[i][t] = a[(o + i) * n + o + t];
            r[i][t] = a[(o + i) * n + blk + t];
        }
    } else {
        int tt = t - B;
        for (int i = 0; i < B; i++)
            c[i][tt] = a[(blk + i) * n + o + tt];
    }
    __syncthreads();
    if (t < B) {
        // Block row: column t of U = L_kk^-1 A (unit lower forward substitution).
        for (int i = 1; i < B; i++) {
            float v = r[i][t];
            for (int m = 0; m < i; m++)
                v -= d[i][m] * r[m][t];
            r[i][t] = v;
        }
    } else {
        // Block column: row tt of L = A U_kk^-1.
        int tt = t - B;
        for (int j = 0; j < B; j++) {
            float v = c[tt][j];
            for (int m = 0; m < j; m++)
                v -= c[tt][m] * d[m][j];
            c[tt][j] = v / d[j][j];
        }
    }
    __syncthreads();
    if (t < B) {
        for (int i = 1; i < B; i++)
            a[(o + i) * n + blk + t] = r[i][t];
    } else {
        int tt = t - B;
        for (int i = 0; i < B; i++)
            a[(blk + i) * n + o + tt] = c[i][tt];
    }
}

__global__ void k_internal(float *a, int n, int o)
{
    __shared__ float L[B][B], U[B][B];
    int tx = threadIdx.x, ty = threadIdx.y;
    int bi = o + (blockIdx.y + 1) * B, bj = o + (blockIdx.x + 1) * B;

    L[ty][tx] = a[(bi + ty) * n + o + tx];
    U[ty][tx] = a[(o + ty) * n + bj + tx];
    __syncthreads();
    float sum = 0.0f;
#pragma unroll
    for (int m = 0; m < B; m++)
        sum += L[ty][m] * U[m][tx];
    a[(bi + ty) * n + bj + tx] -= sum;
}

int main(int argc, char **argv)
{
    wl_size sz = wl_parse_size(argc, argv);
    const int n = wl_pick(sz, 128, 320, 2048);
    const int nb = n / B;
    wl_rand rnd(0x5eed0008);
    std::vector<float> a((size_t)n * n);

    for (int i = 0; i < n; i++) {
        double rowsum = 0;
        for (int j = 0; j < n; j++) {
            float v = rnd.range(-1.0f, 1.0f);
            a[(size_t)i * n + j] = v;
            rowsum += fabs(v);
        }
        a[(size_t)i * n + i] = (float)(rowsum + 1.0);
    }

    float *da;
    size_t bytes = (size_t)n * n * sizeof(float);
    WL_CK(cudaMalloc(&da, bytes));
    WL_CK(cudaMemcpy(da, a.data(), bytes, cudaMemcpyHostToDevice));
    for (int k = 0; k < nb; k++) {
        int o = k * B, rest = nb - k - 1;
        k_diag<<<1, B>>>(da, n, o);
        WL_LAUNCH_CK();
        if (rest == 0)
            break;
        k_perim<<<rest, 2 * B>>>(da, n, o);
        WL_LAUNCH_CK();
        k_internal<<<dim3(rest, rest), dim3(B, B)>>>(da, n, o);
        WL_LAUNCH_CK();
    }
    std::vector<float> got((size_t)n * n);
    WL_CK(cudaMemcpy(got.data(), da, bytes, cudaMemcpyDeviceToHost));

    // Host reference: unblocked right-looking LU in double.
    std::vector<double> ref(a.begin(), a.end());
    for (int k = 0; k < n; k++) {
        double piv = ref[(size_t)k * n + k];
        for (int i = k + 1; i < n; i++) {
            double l = ref[(size_t)i * n + k] /= piv;
            double *ri = &ref[(size_t)i * n], *rk = &ref[(size_t)k * n];
            for (int j = k + 1; j < n; j++)
                ri[j] -= l * rk[j];
        }
    }
    double maxerr = 0;
    for (size_t e = 0; e < got.size(); e++) {
        maxerr = fmax(maxerr, fabs(got[e] - ref[e]));
        if (!wl_close(got[e], ref[e], 1e-4, 1e-5 * n))
            wl_fail("A[%zu][%zu]: got %.7g, want %.7g", e / n, e % n, got[e], ref[e]);
    }
    fprintf(stderr, "lud: n=%d, max |err| %.3g\n", n, maxerr);
    cudaFree(da);
    return wl_pass();
}
