// Grid-stride loops in 1D: saxpy and an integer transform over n elements
// with far fewer threads than elements, with several grid shapes (including
// a single thread). Exact: y = a*x + y is computed with fmaf on both sides.
#define TEST_NAME "grid_stride"
#include "common.h"

__global__ void saxpy(int n, float a, const float *x, float *y)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        y[i] = fmaf(a, x[i], y[i]);
}

__global__ void mix(int n, const unsigned *in, unsigned *out)
{
    size_t stride = (size_t)blockDim.x * gridDim.x;

    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < (size_t)n; i += stride) {
        unsigned v = in[i];
        out[i] = (v * 2654435761u) ^ (v >> 7) ^ (unsigned)i;
    }
}

int main()
{
    const int n = 20000;
    const float a = 1.75f;
    float *x = new float[n], *y = new float[n], *ref = new float[n];
    unsigned *u = new unsigned[n], *o = new unsigned[n];
    float *dx, *dy;
    unsigned *du, *dout;
    uint32_t seed = 12345;
    const struct {
        int grid, block;
    } shapes[] = {{1, 1}, {3, 64}, {7, 96}, {16, 256}, {100, 32}};

    for (int i = 0; i < n; i++) {
        x[i] = (float)(rng_next(&seed) % 2000) / 16.0f - 60.0f;
        y[i] = (float)i * 0.25f;
        u[i] = rng_next(&seed);
    }
    CK(cudaMalloc(&dx, n * sizeof(float)));
    CK(cudaMalloc(&dy, n * sizeof(float)));
    CK(cudaMalloc(&du, n * sizeof(unsigned)));
    CK(cudaMalloc(&dout, n * sizeof(unsigned)));
    CK(cudaMemcpy(dx, x, n * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(du, u, n * sizeof(unsigned), cudaMemcpyHostToDevice));
    for (const auto &s : shapes) {
        // The single-thread shape walks only a prefix to keep the run short.
        int m = s.grid * s.block == 1 ? 500 : n;
        CK(cudaMemcpy(dy, y, n * sizeof(float), cudaMemcpyHostToDevice));
        CK(cudaMemset(dout, 0, n * sizeof(unsigned)));
        saxpy<<<s.grid, s.block>>>(m, a, dx, dy);
        mix<<<s.grid, s.block>>>(m, du, dout);
        CK_LAUNCH();
        CK(cudaMemcpy(ref, dy, n * sizeof(float), cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(o, dout, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
        for (int i = 0; i < n; i++) {
            float want = i < m ? fmaf(a, x[i], y[i]) : y[i];
            unsigned wantu = i < m ? (u[i] * 2654435761u) ^ (u[i] >> 7) ^ (unsigned)i : 0;
            expect_bitsf("saxpy", i, ref[i], want);
            expect_equ("mix", i, o[i], wantu);
        }
    }
    CK(cudaFree(dx));
    CK(cudaFree(dy));
    CK(cudaFree(du));
    CK(cudaFree(dout));
    delete[] x;
    delete[] y;
    delete[] ref;
    delete[] u;
    delete[] o;
    return finish();
}
