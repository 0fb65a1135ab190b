// Smoke test: device memory, copies both ways, a launch, events and device
// properties. Prints "vecadd: N elements, M wrong" and one line per check.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#define CK(x)                                                                                      \
    do {                                                                                           \
        cudaError_t e_ = (x);                                                                      \
        if (e_ != cudaSuccess) {                                                                   \
            printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_));         \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

__global__ void vecadd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

int main()
{
    const int n = 10000;
    static float a[n], b[n], c[n];
    float *da, *db, *dc, ms = -1;
    cudaEvent_t t0, t1;
    cudaDeviceProp prop;
    int bad = 0;

    CK(cudaGetDeviceProperties(&prop, 0));
    printf("device: %s, %d SMs, warp %d\n", prop.name, prop.multiProcessorCount, prop.warpSize);
    for (int i = 0; i < n; i++) {
        a[i] = i * 0.5f;
        b[i] = 1000.0f - i;
    }
    CK(cudaMalloc(&da, n * sizeof(float)));
    CK(cudaMalloc(&db, n * sizeof(float)));
    CK(cudaMalloc(&dc, n * sizeof(float)));
    CK(cudaEventCreate(&t0));
    CK(cudaEventCreate(&t1));
    CK(cudaMemcpy(da, a, n * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(db, b, n * sizeof(float), cudaMemcpyDefault));
    CK(cudaMemset(dc, 0xff, n * sizeof(float)));
    CK(cudaEventRecord(t0));
    vecadd<<<(n + 127) / 128, 128>>>(da, db, dc, n);
    CK(cudaGetLastError());
    CK(cudaEventRecord(t1));
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(c, dc, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        bad += c[i] != a[i] + b[i];
    CK(cudaEventElapsedTime(&ms, t0, t1));
    printf("elapsed: %s\n", ms > 0 ? "positive" : "not positive");
    CK(cudaEventDestroy(t0));
    CK(cudaEventDestroy(t1));
    CK(cudaFree(da));
    CK(cudaFree(db));
    CK(cudaFree(dc));
    printf("vecadd: %d elements, %d wrong\n", n, bad);
    return bad != 0;
}
