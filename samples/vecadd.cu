// The bundled sample: c = a + b over n floats, one thread per element.
// vecadd.ptx beside it is `nvcc -ptx -arch=compute_75 vecadd.cu` (CUDA 13).
#include <cstdio>

__global__ void vecadd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

int main()
{
    const int n = 1 << 16;
    float *a, *b, *c;
    cudaMallocManaged(&a, n * sizeof(float));
    cudaMallocManaged(&b, n * sizeof(float));
    cudaMallocManaged(&c, n * sizeof(float));
    for (int i = 0; i < n; i++) {
        a[i] = i;
        b[i] = 2.0f * i;
    }
    vecadd<<<(n + 255) / 256, 256>>>(a, b, c, n);
    cudaDeviceSynchronize();
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += c[i] != 3.0f * i;
    printf("vecadd: %d elements, %d wrong\n", n, bad);
    return bad != 0;
}
