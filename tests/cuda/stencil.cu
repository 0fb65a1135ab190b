// Stencils: a 1D radius-3 integer stencil with a shared-memory tile and
// halo (clamped at the array ends), and 20 sweeps of a 2D 5-point Jacobi
// iteration on a 2D grid of 2D blocks with a fixed boundary, ping-ponging
// between two buffers. The float sum is parenthesised identically on both
// sides, so the result must match the host bit for bit.
#define TEST_NAME "stencil"
#include "common.h"

#define R 3
#define B1 128

__constant__ int c_w[2 * R + 1] = {1, -2, 3, 10, 3, -2, 1};

__global__ void stencil1d(const int *in, int *out, int n)
{
    __shared__ int tile[B1 + 2 * R];
    int g = blockIdx.x * blockDim.x + threadIdx.x, l = threadIdx.x + R;

    tile[l] = in[min(g, n - 1)];
    if (threadIdx.x < R) {
        tile[l - R] = in[max(g - R, 0)];
        tile[l + B1] = in[min(g + B1, n - 1)];
    }
    __syncthreads();
    if (g >= n)
        return;
    int s = 0;
    for (int k = -R; k <= R; k++)
        s += c_w[k + R] * tile[l + k];
    out[g] = s;
}

__global__ void jacobi(const float *u, float *v, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    int i = y * w + x;
    if (x == 0 || y == 0 || x == w - 1 || y == h - 1)
        v[i] = u[i];
    else
        v[i] = ((u[i - w] + u[i + w]) + (u[i - 1] + u[i + 1])) * 0.25f;
}

int main()
{
    const int n = 5000, cw[2 * R + 1] = {1, -2, 3, 10, 3, -2, 1};
    int *in = new int[n], *out = new int[n], *din, *dout;
    uint32_t seed = 11;

    for (int i = 0; i < n; i++)
        in[i] = (int)(rng_next(&seed) % 1000) - 500;
    CK(cudaMalloc(&din, n * sizeof(int)));
    CK(cudaMalloc(&dout, n * sizeof(int)));
    CK(cudaMemcpy(din, in, n * sizeof(int), cudaMemcpyHostToDevice));
    stencil1d<<<(n + B1 - 1) / B1, B1>>>(din, dout, n);
    CK_LAUNCH();
    CK(cudaMemcpy(out, dout, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        int s = 0;
        for (int k = -R; k <= R; k++) {
            int j = i + k < 0 ? 0 : (i + k >= n ? n - 1 : i + k);
            s += cw[k + R] * in[j];
        }
        expect_eq("stencil1d", i, out[i], s);
    }

    const int w = 45, h = 37, sweeps = 20;
    float *u = new float[w * h], *v = new float[w * h], *got = new float[w * h], *du, *dv;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            u[y * w + x] =
                (x == 0 || y == 0 || x == w - 1 || y == h - 1) ? (float)(x + 2 * y) : 0.0f;
    CK(cudaMalloc(&du, w * h * sizeof(float)));
    CK(cudaMalloc(&dv, w * h * sizeof(float)));
    CK(cudaMemcpy(du, u, w * h * sizeof(float), cudaMemcpyHostToDevice));
    dim3 block(16, 8), grid((w + 15) / 16, (h + 7) / 8);
    for (int s = 0; s < sweeps; s++) {
        jacobi<<<grid, block>>>(du, dv, w, h);
        float *t = du;
        du = dv;
        dv = t;
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                int i = y * w + x;
                v[i] = (x == 0 || y == 0 || x == w - 1 || y == h - 1)
                           ? u[i]
                           : ((u[i - w] + u[i + w]) + (u[i - 1] + u[i + 1])) * 0.25f;
            }
        float *t2 = u;
        u = v;
        v = t2;
    }
    CK_LAUNCH();
    CK(cudaMemcpy(got, du, w * h * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < w * h; i++)
        expect_bitsf("jacobi", i, got[i], u[i]);
    CK(cudaFree(din));
    CK(cudaFree(dout));
    CK(cudaFree(du));
    CK(cudaFree(dv));
    delete[] in;
    delete[] out;
    delete[] u;
    delete[] v;
    delete[] got;
    return finish();
}
