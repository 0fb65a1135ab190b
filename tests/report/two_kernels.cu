// Two kernels for the report tests: a templated C++ kernel (its name demangles to
// "scale<float>(float*, float, int)") and an extern "C" one (no demangled name), each
// launched once, so the report has two kernel blocks and run-so-far totals that grow.
#include <cstdio>
#include <cuda_runtime.h>

template <typename T> __global__ void scale(T *a, T f, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] *= f;
}

extern "C" __global__ void add_one(float *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] += 1.0f;
}

int main()
{
    const int n = 8192;
    float h[n], *d;
    int wrong = 0;

    for (int i = 0; i < n; i++)
        h[i] = (float)i;
    cudaMalloc(&d, n * sizeof(float));
    cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
    scale<float><<<n / 256, 256>>>(d, 2.0f, n);
    add_one<<<n / 128, 128>>>(d, n);
    cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++)
        wrong += h[i] != 2.0f * i + 1.0f;
    cudaFree(d);
    printf("two_kernels: %d wrong\n", wrong);
    return wrong != 0;
}
