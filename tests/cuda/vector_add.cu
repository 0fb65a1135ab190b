// Vector add, one thread per element (also built with every --compress-mode
// by run.sh). Exact: c[i] = a[i] + b[i] is one IEEE add.
#define TEST_NAME "vector_add"
#include "common.h"

__global__ void vecadd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    if (i < n)
        c[i] = a[i] + b[i];
}

int main()
{
    const int n = 10007; // not a multiple of the block size
    float *a = new float[n], *b = new float[n], *c = new float[n];
    float *da, *db, *dc;

    for (int i = 0; i < n; i++) {
        a[i] = 0.5f * i + 0.125f;
        b[i] = 1.0f / (i + 1);
    }
    CK(cudaMalloc(&da, n * sizeof(float)));
    CK(cudaMalloc(&db, n * sizeof(float)));
    CK(cudaMalloc(&dc, n * sizeof(float)));
    CK(cudaMemcpy(da, a, n * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(db, b, n * sizeof(float), cudaMemcpyHostToDevice));
    vecadd<<<(n + 255) / 256, 256>>>(da, db, dc, n);
    CK_LAUNCH();
    CK(cudaMemcpy(c, dc, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        expect_bitsf("c", i, c[i], a[i] + b[i]);
    CK(cudaFree(da));
    CK(cudaFree(db));
    CK(cudaFree(dc));
    delete[] a;
    delete[] b;
    delete[] c;
    return finish();
}
