// __constant__ memory: a statically initialised table (must be visible
// without any copy), arrays filled with cudaMemcpyToSymbol (whole and at an
// offset), a constant struct, uniform and per-thread (divergent) indexing,
// and cudaMemcpyFromSymbol reading constants back. Polynomial evaluation
// uses the same fmaf order on both sides, so results are exact.
#define TEST_NAME "constant_symbols"
#include "common.h"

#define NCOEF 8

struct Params {
    int offset;
    float gain;
    char label[8];
};

__constant__ int c_init[6] = {3, 1, 4, 1, 5, 9};
__constant__ float c_coef[NCOEF];
__constant__ int c_table[256];
__constant__ Params c_params;

__global__ void use_constants(const float *x, float *poly, int *lookup, int *init, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float acc = c_coef[NCOEF - 1];
    for (int k = NCOEF - 2; k >= 0; k--)
        acc = fmaf(acc, x[i], c_coef[k]); // uniform index
    poly[i] = acc * c_params.gain;
    lookup[i] = c_table[(i * 37) & 255] + c_params.offset + c_params.label[i % 8]; // divergent
    init[i] = c_init[i % 6];
}

int main()
{
    const int n = 1000;
    float coef[NCOEF], *x = new float[n], *poly = new float[n];
    int table[256], *lookup = new int[n], *init = new int[n];
    Params p = {1000, 0.5f, "abcdefg"};
    float *dx, *dpoly;
    int *dlookup, *dinit;

    for (int k = 0; k < NCOEF; k++)
        coef[k] = 1.0f / (k + 1) - 0.3f;
    for (int k = 0; k < 256; k++)
        table[k] = k * k;
    for (int i = 0; i < n; i++)
        x[i] = (i - 500) / 256.0f;
    // Before any copy: the static initialiser is there.
    int back[6];
    CK(cudaMemcpyFromSymbol(back, c_init, sizeof(back)));
    const int want_init[6] = {3, 1, 4, 1, 5, 9};
    for (int k = 0; k < 6; k++)
        expect_eq("c_init before launch", k, back[k], want_init[k]);

    CK(cudaMemcpyToSymbol(c_coef, coef, sizeof(coef)));
    // The table in two halves, the second at an offset.
    CK(cudaMemcpyToSymbol(c_table, table, 128 * sizeof(int)));
    CK(cudaMemcpyToSymbol(c_table, table + 128, 128 * sizeof(int), 128 * sizeof(int)));
    CK(cudaMemcpyToSymbol(c_params, &p, sizeof(p), 0, cudaMemcpyHostToDevice));
    CK(cudaMalloc(&dx, n * sizeof(float)));
    CK(cudaMalloc(&dpoly, n * sizeof(float)));
    CK(cudaMalloc(&dlookup, n * sizeof(int)));
    CK(cudaMalloc(&dinit, n * sizeof(int)));
    CK(cudaMemcpy(dx, x, n * sizeof(float), cudaMemcpyHostToDevice));
    use_constants<<<(n + 127) / 128, 128>>>(dx, dpoly, dlookup, dinit, n);
    CK_LAUNCH();
    CK(cudaMemcpy(poly, dpoly, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(lookup, dlookup, n * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(init, dinit, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        float acc = coef[NCOEF - 1];
        for (int k = NCOEF - 2; k >= 0; k--)
            acc = fmaf(acc, x[i], coef[k]);
        expect_bitsf("poly", i, poly[i], acc * 0.5f);
        expect_eq("lookup", i, lookup[i], table[(i * 37) & 255] + 1000 + p.label[i % 8]);
        expect_eq("init", i, init[i], want_init[i % 6]);
    }
    // Read back part of the table from an offset.
    int part[10];
    CK(cudaMemcpyFromSymbol(part, c_table, sizeof(part), 200 * sizeof(int)));
    for (int k = 0; k < 10; k++)
        expect_eq("c_table readback", 200 + k, part[k], table[200 + k]);
    Params q;
    CK(cudaMemcpyFromSymbol(&q, c_params, sizeof(q)));
    expect_eq("c_params.offset", 0, q.offset, 1000);
    expect_true(strcmp(q.label, "abcdefg") == 0, "c_params.label read back");
    CK(cudaFree(dx));
    CK(cudaFree(dpoly));
    CK(cudaFree(dlookup));
    CK(cudaFree(dinit));
    delete[] x;
    delete[] poly;
    delete[] lookup;
    delete[] init;
    return finish();
}
